//! mpicache: the MPI caching chapter with exact C/Fortran interoperability, in a single-process
//! MPI.
//!
//! One direction only: faces → worlds → caching engine → primitives (docs/DESIGN.md "Layers").
//!
//! - [`capi`], [`fortran`]: the faces, the C and Fortran entry points (`MPI_*`, `PMPI_*`,
//!   `mpi_*_`), thin wrappers over a world, each body inside the [`boundary`] both share.
//! - [`world`]: the single-process world (life cycle, handles, communicators, groups,
//!   datatypes, windows, info, error handlers, requests), one client of the engine.
//! - [`caching`]: the caching engine (keyvals, the attribute store, callbacks and their
//!   conventions, the conversion rules of MPI 4.1 §20.3.7, dup/free/finalize ordering), which
//!   knows the objects it serves only through its [`caching::World`] trait.
//! - `layer` (feature `layer`): the engine over another MPI's objects, a PMPI layer (issue 17).
//! - [`primitives`]: the few low-level pieces that need `unsafe`, each with its SAFETY argument.
//! - [`error`], [`kinds`], [`consts`]: leaves: the one error enum, the kinds of object, every
//!   numeric constant (the single source of truth for C, Fortran and Rust).

// Every `unsafe` block and `unsafe impl` says why it is sound (`// SAFETY:`), and every public
// `unsafe fn` states its contract (`# Safety`; the faces state the entry points' contract once,
// in capi/mod.rs and fortran/mod.rs). `ci/test.sh` runs clippy with these denied.
#![deny(clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]
// The single-process faces use the hand-written getters; the layer build leaves them out.
#![cfg_attr(feature = "layer", allow(unused_macros, unused_imports, dead_code))]

pub mod boundary;
pub mod caching;
// The layer exports only what it owns: the single-process world's faces are left out of it.
#[cfg(not(feature = "layer"))]
pub mod capi;
pub mod consts;
pub mod error;
#[cfg(not(feature = "layer"))]
pub mod fortran;
pub mod kinds;
#[cfg(feature = "layer")]
pub mod layer;
pub mod primitives;
#[cfg(all(feature = "test-hooks", not(feature = "layer")))]
pub mod testhooks;
pub mod world;
