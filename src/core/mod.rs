//! The safe core: handles, keyvals, attribute tables with provenance, the conversion rules, and
//! the single-process world around them. Nothing here knows C or Fortran; callbacks arrive as
//! the traits of [`callback`], values as [`convert::AttrWord`].

pub mod attr_cell;
pub mod attrs;
pub mod callback;
pub mod comm;
pub mod convert;
pub mod datatype;
pub mod errhandler;
pub mod error;
pub mod handle;
pub mod info;
pub mod keyval;
pub mod once_ptr;
pub mod reduce;
pub mod request;
pub mod runtime;
pub mod state;
pub mod store;
pub mod window;
pub mod zeroed;

#[cfg(test)]
mod engine_tests;
#[cfg(test)]
mod store_tests;

pub use error::{Error, Result};
pub use handle::{Handle, HandleKind};
pub use runtime::Runtime;

/// The kinds of object that carry attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    Comm,
    Datatype,
    Win,
}

impl ObjectKind {
    pub fn handle_kind(self) -> HandleKind {
        match self {
            ObjectKind::Comm => HandleKind::Comm,
            ObjectKind::Datatype => HandleKind::Datatype,
            ObjectKind::Win => HandleKind::Win,
        }
    }
}

impl std::fmt::Display for ObjectKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.handle_kind().fmt(f)
    }
}

/// An attribute-carrying object: its kind and handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjRef {
    pub kind: ObjectKind,
    pub handle: Handle,
}

impl ObjRef {
    pub fn comm(h: i32) -> ObjRef {
        ObjRef {
            kind: ObjectKind::Comm,
            handle: Handle(h),
        }
    }
    pub fn datatype(h: i32) -> ObjRef {
        ObjRef {
            kind: ObjectKind::Datatype,
            handle: Handle(h),
        }
    }
    pub fn win(h: i32) -> ObjRef {
        ObjRef {
            kind: ObjectKind::Win,
            handle: Handle(h),
        }
    }
}
