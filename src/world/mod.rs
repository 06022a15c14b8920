//! The single-process world: the MPI life cycle, handles, communicators, groups, datatypes,
//! windows, info objects, error handlers, requests and the local collectives. One client of the
//! caching engine. Nothing here knows C or Fortran.
//!
//! Three levels, imported one way (tests/engine_imports.rs): the objects it holds, leaf types
//! ([`objects`], with [`handle`] and [`attr_cell`]); the [`state::State`] that holds them and the
//! [`runtime::Runtime`] that locks it; and the operations, `impl Runtime` blocks in the files
//! named after what they operate on ([`comm`], [`p2p`], [`window`], ...), which re-export
//! their objects so the faces name one path.
//!
//! The names the faces use are re-exported here, so that an entry point imports its world in
//! one line; files of the world itself import from the file that defines a name. No `unsafe` here: what needs it is in `crate::primitives`.
#![deny(unsafe_code)]

pub mod attr_cell;
pub mod comm;
pub mod comm_from_group;
pub mod datatype;
pub mod dynamic;
pub mod errhandler;
pub mod error_remove;
pub mod file;
pub mod grequest;
pub mod handle;
pub mod info;
pub mod objects;
pub mod op;
pub mod op_apply;
pub mod p2p;
pub mod partitioned;
pub mod reduce;
pub mod request;
pub mod rma;
pub mod rma_op;
pub mod runtime;
pub mod session;
pub mod split_type;
pub mod state;
pub mod status;
pub mod tool;
pub mod topo;
pub mod topo_dims;
pub mod win_query;
pub mod window;

#[cfg(test)]
mod runtime_tests;

pub use crate::caching::ObjRef;
pub use crate::error::{Error, Result};
pub use crate::kinds::{HandleKind, ObjectKind};
pub use handle::Handle;
pub use runtime::Runtime;
pub use state::Phase;
