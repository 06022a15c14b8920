//! The caching engine (MPI 4.1 §7.7, §20.3.7): keyvals, the attribute store, callbacks and
//! their calling conventions, the conversion rules between languages, and the attribute
//! operations with their dup, free and finalize orders.
//!
//! It serves objects it knows only by kind and key ([`ObjRef`]), through the narrow
//! [`World`] trait of whoever owns them, and is generic over it: [`Cache<W>`] is the engine
//! over the world `W` (the single-process world, `crate::world`; a world over another MPI
//! later). It never names a world type, nor C or Fortran: callbacks arrive as the traits of
//! [`callback`], values as [`convert::AttrWord`]. Its files import one another in one direction
//! (tests/engine_imports.rs checks it):
//!
//! ```text
//! object, convert ─► callback, world ─► keyval ─► store ─► cache ─► ops
//! ```
//!
//! No `unsafe` here (`deny(unsafe_code)`): what needs it lives in `crate::primitives`, with its
//! SAFETY argument. The one allowance is inside `primitives::zeroed::zeroable!`, whose
//! expansion declares a store structure zeroable after checking every field at compile time.
#![deny(unsafe_code)]

pub mod cache;
pub mod callback;
pub mod convert;
pub mod keyval;
pub mod object;
pub mod ops;
pub mod store;
pub mod world;

#[cfg(test)]
mod tests;

pub use crate::kinds::ObjectKind;
pub use cache::{Cache, Locked};
pub use object::{ObjKey, ObjRef};
pub use world::World;
