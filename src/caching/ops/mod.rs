//! The caching operations (MPI 4.1 §7.7) on [`crate::caching::Cache`], one engine for
//! communicators, datatypes and windows:
//!
//! - [`keyval`]: create and free (no lock);
//! - [`attr`]: get, set, delete;
//! - [`copy`]: dup, with its copy callbacks and the cleanup of a failed one;
//! - [`free`]: an object's free and `MPI_Finalize`'s deletions, in their orders;
//! - [`locked`]: what they do with the lock held.
//!
//! Entry points validate their arguments (pointers, language conversions) and call these with
//! the object's kind and key; these check the object with the world and the keyval with the
//! registry, under the lock or, on the lock-free paths, through the store.

pub mod attr;
pub mod copy;
pub mod free;
pub mod keyval;
pub mod locked;
