//! The caching engine: keyvals, the attribute store, callbacks and their conventions, the
//! conversion rules, the attribute operations.

pub mod callback;
pub mod convert;
pub mod keyval;
pub mod object;
pub mod ops;
pub mod store;

#[cfg(test)]
mod tests;

pub use crate::kinds::ObjectKind;
pub use object::ObjRef;
