//! The objects the engine serves: it knows them only by kind and key.

use crate::kinds::ObjectKind;

/// An object's key: the bits of its handle as its world gives them, widened to 64 bits. The
/// single-process world's handles are `int`s, sign-extended ([`ObjKey::from_int`]); a world
/// over another MPI (issue 17) may give pointers. Callbacks get the key back, and the face turns
/// it into the language's handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjKey(pub u64);

impl ObjKey {
    /// The key of an `int` handle.
    #[inline(always)]
    pub const fn from_int(handle: i32) -> ObjKey {
        ObjKey(handle as i64 as u64)
    }

    /// The `int` handle of a world whose handles are `int`s (the key's low 32 bits).
    #[inline(always)]
    pub const fn int(self) -> i32 {
        self.0 as i32
    }
}

/// An attribute-carrying object: its kind and key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObjRef {
    pub kind: ObjectKind,
    pub key: ObjKey,
}

impl ObjRef {
    #[inline(always)]
    pub const fn new(kind: ObjectKind, key: ObjKey) -> ObjRef {
        ObjRef { kind, key }
    }

    /// The object of kind `kind` whose `int` handle is `handle`.
    #[inline(always)]
    pub const fn of_int(kind: ObjectKind, handle: i32) -> ObjRef {
        ObjRef::new(kind, ObjKey::from_int(handle))
    }

    #[inline(always)]
    pub const fn comm(handle: i32) -> ObjRef {
        ObjRef::of_int(ObjectKind::Comm, handle)
    }

    #[inline(always)]
    pub const fn datatype(handle: i32) -> ObjRef {
        ObjRef::of_int(ObjectKind::Datatype, handle)
    }

    #[inline(always)]
    pub const fn win(handle: i32) -> ObjRef {
        ObjRef::of_int(ObjectKind::Win, handle)
    }
}
