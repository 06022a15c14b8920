//! Copy and delete callbacks as the core sees them: language-neutral traits.
//!
//! The entry-point layers implement these for C functions and for both Fortran conventions; the
//! predefined `*_NULL_COPY_FN`, `*_DUP_FN` and `*_NULL_DELETE_FN` are not callbacks at all but the
//! [`CopyFn::Null`], [`CopyFn::Dup`] and [`DeleteFn::Null`] variants, handled natively.

use crate::caching::convert::AttrWord;
use crate::caching::keyval::ExtraState;
use crate::caching::store::AttrRead;
use crate::world::handle::Handle;

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
    pub object: Handle,
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
