//! mpicache: the MPI caching chapter with exact C/Fortran interoperability, in a single-process
//! MPI.
//!
//! - [`core`]: safe Rust, no C types — handles, keyvals, attribute tables with provenance, the
//!   conversion rules of MPI 4.1 §20.3.7, dup/free/finalize semantics.
//! - [`capi`]: the C entry points (`MPI_*` and `PMPI_*`), thin wrappers over the core.
//! - [`consts`]: every numeric constant, the single source of truth for C, Fortran and Rust.
//! - `fast_get`: the attribute getters' x86-64 entry points, written by hand.

pub mod capi;
pub mod consts;
pub mod core;
mod fast_get;
pub mod fortran;
#[cfg(feature = "test-hooks")]
pub mod testhooks;
