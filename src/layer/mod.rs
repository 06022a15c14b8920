//! The layer over another MPI (issue 17; docs/DESIGN.md "Many processes"): the caching engine's
//! second world. Built with the feature `layer` against an engine MPI (its compiler wrapper in
//! `MPICACHE_ENGINE_MPICC`), it owns the caching routines and the life-cycle routines that run
//! callbacks, and hands everything else to the engine through `PMPI_`.
//!
//! - [`engine`]: the engine's handle type, `PMPI_` routines and header facts (with engine.c,
//!   compiled by the engine's mpicc);
//! - [`world`]: [`world::EngineWorld`], what the caching engine asks of the engine's objects;
//! - [`boundary`]: panics caught, errors raised on the engine's handlers with its classes;
//! - [`callbacks`]: C callbacks with the engine's handles, the predefined ones recognised;
//! - [`c_attr`], [`c_life`]: the C entry points;
//! - `fortran` (engines with Fortran): the Fortran entry points in every spelling, and the
//!   Fortran callback conventions.

// The entry points are the C interface: their safety contract is the MPI standard's.
#![allow(clippy::missing_safety_doc)]

pub mod boundary;
pub mod c_attr;
pub mod c_life;
pub mod callbacks;
pub mod engine;
#[cfg(layer_fortran)]
pub mod fortran;
pub mod world;
