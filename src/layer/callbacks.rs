//! C callbacks over the engine: the adapters that call a user's C copy and delete functions
//! with the engine's handles, and the recognition of the predefined ones as the engine's
//! header spells them (functions in MPICH and Open MPI, the values 0 and 1 in the MPI 5.0 ABI,
//! never to be called there), which the caching engine then runs natively (a `*_DUP_FN` copies
//! the word with its provenance: MPI 4.1 §20.3.7).

use crate::caching::callback::{
    CallbackCall, Convention, CopyCallback, CopyFn, DeleteCallback, DeleteFn,
};
use crate::caching::convert::AttrWord;
use crate::consts::MPI_SUCCESS;
use crate::kinds::ObjectKind;
use crate::layer::engine::{self, Handle};
use std::ffi::{c_int, c_void};

/// `MPI_Comm_copy_attr_function` and its datatype, window and MPI-1 twins, with the engine's
/// handle type.
pub type CopyAttrFunction = unsafe extern "C" fn(
    oldobj: Handle,
    keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int;

/// `MPI_Comm_delete_attr_function` and its twins.
pub type DeleteAttrFunction = unsafe extern "C" fn(
    obj: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    extra_state: *mut c_void,
) -> c_int;

struct CCopy(CopyAttrFunction, ObjectKind);
struct CDelete(DeleteAttrFunction, ObjectKind);

impl CopyCallback for CCopy {
    fn copy(&self, call: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut flag: c_int = 0;
        // SAFETY: the user registered this function with the C copy signature.
        let rc = unsafe {
            (self.0)(
                engine::handle(self.1, call.object),
                call.keyval,
                call.extra_state.word() as *mut c_void,
                call.value.c_view as *mut c_void,
                (&mut out as *mut *mut c_void).cast(),
                &mut flag,
            )
        };
        match rc {
            MPI_SUCCESS => Ok((flag != 0).then(|| AttrWord::from_c_pointer(out as usize))),
            code => Err(code),
        }
    }
    fn convention(&self) -> Convention {
        Convention::C
    }
}

impl DeleteCallback for CDelete {
    fn delete(&self, call: &CallbackCall<'_>) -> Result<(), i32> {
        // SAFETY: the user registered this function with the C delete signature.
        let rc = unsafe {
            (self.0)(
                engine::handle(self.1, call.object),
                call.keyval,
                call.value.c_view as *mut c_void,
                call.extra_state.word() as *mut c_void,
            )
        };
        match rc {
            MPI_SUCCESS => Ok(()),
            code => Err(code),
        }
    }
    fn convention(&self) -> Convention {
        Convention::C
    }
}

/// A C copy function as the caching engine sees it: NULL and the engine's predefined ones are
/// recognised by value.
pub fn c_copy_fn(kind: ObjectKind, f: Option<CopyAttrFunction>) -> CopyFn {
    let Some(f) = f else { return CopyFn::Null };
    let addr = f as usize;
    let facts = engine::facts();
    if facts.copy_null.contains(&addr) {
        CopyFn::Null
    } else if facts.copy_dup.contains(&addr) {
        CopyFn::Dup
    } else {
        CopyFn::User(Box::new(CCopy(f, kind)))
    }
}

/// A C delete function as the caching engine sees it.
pub fn c_delete_fn(kind: ObjectKind, f: Option<DeleteAttrFunction>) -> DeleteFn {
    match f {
        Some(f) if !engine::facts().delete_null.contains(&(f as usize)) => {
            DeleteFn::User(Box::new(CDelete(f, kind)))
        }
        _ => DeleteFn::Null,
    }
}
