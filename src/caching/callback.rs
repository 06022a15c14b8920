//! Copy and delete callbacks as the engine sees them: language-neutral traits, the keyval's
//! calling convention, its `extra_state`, and the flags its attributes carry.
//!
//! The faces implement the traits for C functions and for both Fortran conventions; the
//! predefined `*_NULL_COPY_FN`, `*_DUP_FN` and `*_NULL_DELETE_FN` are not callbacks at all but the
//! [`CopyFn::Null`], [`CopyFn::Dup`] and [`DeleteFn::Null`] variants, handled natively.

use crate::caching::convert::{AttrRead, AttrWord, FortranInteger};
use crate::caching::object::ObjKey;
use std::sync::atomic::{AtomicI64, Ordering};

/// The calling convention a keyval's callbacks were registered with (MPI 4.1 §20.3.7: the
/// language and call that created the keyval decide it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Convention {
    /// `MPI_*_create_keyval` / `MPI_Keyval_create` from C.
    C,
    /// Fortran `MPI_*_CREATE_KEYVAL`: INTEGER(KIND=MPI_ADDRESS_KIND) values.
    FortranAddress,
    /// Deprecated Fortran `MPI_KEYVAL_CREATE`: INTEGER values.
    FortranInteger,
}

/// What a callback is told.
pub struct CallbackCall<'a> {
    /// The object: the old one for a copy, the one losing the attribute for a delete.
    pub object: ObjKey,
    pub keyval: i32,
    pub extra_state: &'a ExtraState,
    /// The attribute's value and what a C callback is handed.
    pub value: AttrRead,
}

/// A user copy callback. `Ok(None)` means flag = false (do not copy); `Err(code)` is a failure.
pub trait CopyCallback: Send + Sync {
    fn copy(&self, call: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32>;
    fn convention(&self) -> Convention;
}

/// A user delete callback. `Err(code)` is a failure: the attribute then stays.
pub trait DeleteCallback: Send + Sync {
    fn delete(&self, call: &CallbackCall<'_>) -> Result<(), i32>;
    fn convention(&self) -> Convention;
}

/// A keyval's copy behaviour.
pub enum CopyFn {
    /// `MPI_*_NULL_COPY_FN`, `MPI_NULL_COPY_FN` or NULL: the attribute is not copied.
    Null,
    /// `MPI_*_DUP_FN`, `MPI_DUP_FN`: the word and its provenance are copied.
    Dup,
    User(Box<dyn CopyCallback>),
}

/// A keyval's delete behaviour.
pub enum DeleteFn {
    /// `MPI_*_NULL_DELETE_FN`, `MPI_NULL_DELETE_FN` or NULL.
    Null,
    User(Box<dyn DeleteCallback>),
}

impl std::fmt::Debug for CopyFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CopyFn::Null => f.write_str("Null"),
            CopyFn::Dup => f.write_str("Dup"),
            CopyFn::User(cb) => write!(f, "User({:?})", cb.convention()),
        }
    }
}

impl std::fmt::Debug for DeleteFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeleteFn::Null => f.write_str("Null"),
            DeleteFn::User(cb) => write!(f, "User({:?})", cb.convention()),
        }
    }
}

bitflags::bitflags! {
    /// What the keyval of an attribute does on copy and delete, kept with the attribute so that
    /// whole tables are copied and emptied without looking keyvals up.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct Callbacks: u8 {
        /// `*_DUP_FN`: copied natively.
        const COPY_DUP = 1;
        /// A user copy callback.
        const COPY_USER = 2;
        /// A user delete callback.
        const DELETE_USER = 4;
    }
}

impl Callbacks {
    /// Whether a user callback (copy or delete) is among them.
    #[inline(always)]
    pub const fn has_user_code(self) -> bool {
        self.intersects(Callbacks::COPY_USER.union(Callbacks::DELETE_USER))
    }
}

/// What a keyval with these callbacks records of them (and its attributes carry).
pub fn callbacks_of(copy: &CopyFn, delete: &DeleteFn) -> Callbacks {
    let c = match copy {
        CopyFn::Null => Callbacks::empty(),
        CopyFn::Dup => Callbacks::COPY_DUP,
        CopyFn::User(_) => Callbacks::COPY_USER,
    };
    match delete {
        DeleteFn::Null => c,
        DeleteFn::User(_) => c.union(Callbacks::DELETE_USER),
    }
}

/// A keyval's user callbacks (kept only when it has at least one).
pub struct UserCallbacks {
    pub copy: CopyFn,
    pub delete: DeleteFn,
}

impl UserCallbacks {
    pub fn copy_callback(&self) -> Option<&dyn CopyCallback> {
        match &self.copy {
            CopyFn::User(cb) => Some(cb.as_ref()),
            _ => None,
        }
    }
    pub fn delete_callback(&self) -> Option<&dyn DeleteCallback> {
        match &self.delete {
            DeleteFn::User(cb) => Some(cb.as_ref()),
            _ => None,
        }
    }
}

#[cfg(not(feature = "fortran-integer-8"))]
type AtomicFortranInteger = std::sync::atomic::AtomicI32;
#[cfg(feature = "fortran-integer-8")]
type AtomicFortranInteger = std::sync::atomic::AtomicI64;

/// A keyval's `extra_state`: captured when the keyval is created, and never written after
/// until the slot is reused. Its address is stable, so Fortran callbacks get a reference to
/// the keyval's own copy (MPI 4.1 §20.3.8: extra_state is IN).
#[derive(Debug, Default)]
pub struct ExtraState {
    word: AtomicI64,
    /// The low INTEGER of the word, for `MPI_KEYVAL_CREATE` callbacks (the Fortran INTEGER:
    /// 8 bytes with the `fortran-integer-8` feature).
    int: AtomicFortranInteger,
}

impl ExtraState {
    pub(crate) fn set(&self, word: i64) {
        self.word.store(word, Ordering::Relaxed);
        self.int.store(word as FortranInteger, Ordering::Relaxed);
    }
    pub fn word(&self) -> i64 {
        self.word.load(Ordering::Relaxed)
    }
    /// Address of the stored word (handed to ADDRESS_KIND Fortran callbacks).
    pub fn word_addr(&self) -> usize {
        self.word.as_ptr() as usize
    }
    /// Address of the stored INTEGER (handed to `MPI_KEYVAL_CREATE` callbacks).
    pub fn int_addr(&self) -> usize {
        self.int.as_ptr() as usize
    }
}
