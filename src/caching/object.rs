//! The objects the engine serves: a kind and a handle.

use crate::kinds::ObjectKind;
use crate::world::handle::Handle;

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
