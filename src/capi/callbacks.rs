//! C callback adapters and the predefined callback functions.
//!
//! A keyval created from C calls its callbacks with C arguments by value; the value passed is
//! what a C reader gets (the pointer, or a pointer to the internal `MPI_Aint` / `int` of a
//! Fortran-set value). The predefined `*_NULL_COPY_FN`, `*_DUP_FN` and `*_NULL_DELETE_FN` are
//! real C functions (a program may call them or take their address), recognised by address and
//! then handled natively by the caching engine, so a DUP keeps the value's provenance.
#![allow(non_snake_case)]

use crate::caching::callback::{
    callbacks_of, CallbackCall, Callbacks, Convention, CopyCallback, CopyFn, DeleteCallback,
    DeleteFn,
};
use crate::caching::convert::AttrWord;
use crate::capi::types::*;
use crate::consts::MPI_SUCCESS;
use std::ffi::{c_int, c_void};

struct CCopy(MPI_Comm_copy_attr_function);
struct CDelete(MPI_Comm_delete_attr_function);

impl CopyCallback for CCopy {
    fn copy(&self, call: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut flag: c_int = 0;
        // SAFETY: the user registered this function with the C copy signature.
        let rc = unsafe {
            (self.0)(
                call.object.int(),
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
                call.object.int(),
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

/// What NULL or a predefined C copy function does, recognised by address; `None` for a user
/// function.
#[inline(always)]
fn predefined_copy(f: Option<MPI_Comm_copy_attr_function>) -> Option<CopyFn> {
    let Some(f) = f else {
        return Some(CopyFn::Null);
    };
    let addr = f as usize;
    let nulls: [MPI_Comm_copy_attr_function; 4] = [
        MPI_COMM_NULL_COPY_FN,
        MPI_TYPE_NULL_COPY_FN,
        MPI_WIN_NULL_COPY_FN,
        MPI_NULL_COPY_FN,
    ];
    let dups: [MPI_Comm_copy_attr_function; 4] =
        [MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN, MPI_WIN_DUP_FN, MPI_DUP_FN];
    if nulls.iter().any(|&g| g as usize == addr) {
        Some(CopyFn::Null)
    } else if dups.iter().any(|&g| g as usize == addr) {
        Some(CopyFn::Dup)
    } else {
        None
    }
}

/// Whether a C delete function is NULL or a predefined one (recognised by address).
#[inline(always)]
fn predefined_delete(f: Option<MPI_Comm_delete_attr_function>) -> bool {
    let Some(f) = f else { return true };
    let nulls: [MPI_Comm_delete_attr_function; 4] = [
        MPI_COMM_NULL_DELETE_FN,
        MPI_TYPE_NULL_DELETE_FN,
        MPI_WIN_NULL_DELETE_FN,
        MPI_NULL_DELETE_FN,
    ];
    nulls.iter().any(|&g| g as usize == f as usize)
}

/// A C copy function as the core sees it: NULL and the predefined ones are recognised.
pub fn c_copy_fn(f: Option<MPI_Comm_copy_attr_function>) -> crate::error::Result<CopyFn> {
    Ok(match (predefined_copy(f), f) {
        (Some(native), _) => native,
        (None, Some(f)) => CopyFn::User(crate::primitives::alloc::try_box(CCopy(f))?),
        (None, None) => CopyFn::Null,
    })
}

/// A C delete function as the core sees it.
pub fn c_delete_fn(f: Option<MPI_Comm_delete_attr_function>) -> crate::error::Result<DeleteFn> {
    Ok(match f {
        Some(f) if !predefined_delete(Some(f)) => {
            DeleteFn::User(crate::primitives::alloc::try_box(CDelete(f))?)
        }
        _ => DeleteFn::Null,
    })
}

/// What a keyval with these C callbacks records of them, when both are NULL or predefined
/// (no user code: the keyval can be created on the fast path); `None` otherwise.
#[inline(always)]
pub fn c_native_callbacks(
    copy: Option<MPI_Comm_copy_attr_function>,
    delete: Option<MPI_Comm_delete_attr_function>,
) -> Option<Callbacks> {
    let copy = predefined_copy(copy)?;
    predefined_delete(delete).then(|| callbacks_of(&copy, &DeleteFn::Null))
}

// The bodies the predefined functions share when a program calls them directly.

unsafe fn null_copy(flag: *mut c_int) -> c_int {
    if !flag.is_null() {
        // SAFETY: `flag` checked non-NULL above (capi/mod.rs contract).
        unsafe { *flag = 0 };
    }
    MPI_SUCCESS
}

unsafe fn dup_copy(value_in: *mut c_void, value_out: *mut c_void, flag: *mut c_int) -> c_int {
    if !value_out.is_null() {
        unsafe { *value_out.cast::<*mut c_void>() = value_in };
    }
    if !flag.is_null() {
        // SAFETY: `flag` checked non-NULL above (capi/mod.rs contract).
        unsafe { *flag = 1 };
    }
    MPI_SUCCESS
}

/// `MPI_COMM_NULL_COPY_FN`: does not copy (flag = 0).
#[no_mangle]
pub unsafe extern "C" fn MPI_COMM_NULL_COPY_FN(
    oldcomm: MPI_Comm,
    comm_keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (
        oldcomm,
        comm_keyval,
        extra_state,
        attribute_val_in,
        attribute_val_out,
    );
    unsafe { null_copy(flag) }
}

/// `MPI_COMM_DUP_FN`: copies the value (flag = 1).
#[no_mangle]
pub unsafe extern "C" fn MPI_COMM_DUP_FN(
    oldcomm: MPI_Comm,
    comm_keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (oldcomm, comm_keyval, extra_state);
    unsafe { dup_copy(attribute_val_in, attribute_val_out, flag) }
}

/// `MPI_COMM_NULL_DELETE_FN`: does nothing.
#[no_mangle]
pub unsafe extern "C" fn MPI_COMM_NULL_DELETE_FN(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    extra_state: *mut c_void,
) -> c_int {
    let _ = (comm, comm_keyval, attribute_val, extra_state);
    MPI_SUCCESS
}

/// `MPI_TYPE_NULL_COPY_FN`.
#[no_mangle]
pub unsafe extern "C" fn MPI_TYPE_NULL_COPY_FN(
    oldtype: MPI_Datatype,
    type_keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (
        oldtype,
        type_keyval,
        extra_state,
        attribute_val_in,
        attribute_val_out,
    );
    unsafe { null_copy(flag) }
}

/// `MPI_TYPE_DUP_FN`.
#[no_mangle]
pub unsafe extern "C" fn MPI_TYPE_DUP_FN(
    oldtype: MPI_Datatype,
    type_keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (oldtype, type_keyval, extra_state);
    unsafe { dup_copy(attribute_val_in, attribute_val_out, flag) }
}

/// `MPI_TYPE_NULL_DELETE_FN`.
#[no_mangle]
pub unsafe extern "C" fn MPI_TYPE_NULL_DELETE_FN(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    extra_state: *mut c_void,
) -> c_int {
    let _ = (datatype, type_keyval, attribute_val, extra_state);
    MPI_SUCCESS
}

/// `MPI_WIN_NULL_COPY_FN`.
#[no_mangle]
pub unsafe extern "C" fn MPI_WIN_NULL_COPY_FN(
    oldwin: MPI_Win,
    win_keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (
        oldwin,
        win_keyval,
        extra_state,
        attribute_val_in,
        attribute_val_out,
    );
    unsafe { null_copy(flag) }
}

/// `MPI_WIN_DUP_FN`.
#[no_mangle]
pub unsafe extern "C" fn MPI_WIN_DUP_FN(
    oldwin: MPI_Win,
    win_keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (oldwin, win_keyval, extra_state);
    unsafe { dup_copy(attribute_val_in, attribute_val_out, flag) }
}

/// `MPI_WIN_NULL_DELETE_FN`.
#[no_mangle]
pub unsafe extern "C" fn MPI_WIN_NULL_DELETE_FN(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    extra_state: *mut c_void,
) -> c_int {
    let _ = (win, win_keyval, attribute_val, extra_state);
    MPI_SUCCESS
}

/// `MPI_NULL_COPY_FN` (deprecated MPI-1 form).
#[no_mangle]
pub unsafe extern "C" fn MPI_NULL_COPY_FN(
    oldcomm: MPI_Comm,
    keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (
        oldcomm,
        keyval,
        extra_state,
        attribute_val_in,
        attribute_val_out,
    );
    unsafe { null_copy(flag) }
}

/// `MPI_DUP_FN` (deprecated MPI-1 form).
#[no_mangle]
pub unsafe extern "C" fn MPI_DUP_FN(
    oldcomm: MPI_Comm,
    keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (oldcomm, keyval, extra_state);
    unsafe { dup_copy(attribute_val_in, attribute_val_out, flag) }
}

/// `MPI_NULL_DELETE_FN` (deprecated MPI-1 form).
#[no_mangle]
pub unsafe extern "C" fn MPI_NULL_DELETE_FN(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    extra_state: *mut c_void,
) -> c_int {
    let _ = (comm, keyval, attribute_val, extra_state);
    MPI_SUCCESS
}
