//! Fortran caching routines (MPI 4.1 §7.7, §20.3.7), both generations.
//!
//! - `MPI_{COMM,TYPE,WIN}_SET_ATTR` store an INTEGER(KIND=MPI_ADDRESS_KIND) as it is
//!   (provenance `FortranAddress`); `*_GET_ATTR` read the whole word.
//! - deprecated `MPI_ATTR_PUT` stores an INTEGER sign-extended (`FortranInteger`);
//!   `MPI_ATTR_GET` reads the low part of the word.
//! - When the flag comes back false nothing is written to the value argument.

use crate::caching::convert::{fortran_address_view, fortran_integer_view, AttrWord};
use crate::caching::store::getters_x86_64::fortran_get_attr;
use crate::caching::store::Fast;
use crate::capi::boundary::Scope;
use crate::consts::{
    MPI_COMM_NULL, MPI_DATATYPE_NULL, MPI_ERR_COMM, MPI_ERR_KEYVAL, MPI_ERR_TYPE, MPI_ERR_WIN,
    MPI_KEYVAL_INVALID, MPI_WIN_NULL,
};
use crate::fortran::callbacks::{
    fortran_address_copy_fn, fortran_address_delete_fn, fortran_integer_copy_fn,
    fortran_integer_delete_fn, fortran_native_callbacks, MPI_Fcopy_attr_function,
    MPI_Fcopy_function, MPI_Fdelete_attr_function, MPI_Fdelete_function,
};
use crate::fortran::{
    fint, logical, narrow, read_narrow, scope_handle, wide, MPI_Aint, MPI_Fint, MPI_Flogical,
};
use crate::nonnull;
use crate::world::{ObjRef, ObjectKind, Result, Runtime};
use crate::{fentry, fentry_fast};

// What the hand-written Fortran getters (caching/store/getters_x86_64.rs) store: .TRUE. as
// MPI_SUCCESS (a zeroed register) plus one, in 4-byte INTEGERs and LOGICALs.
#[cfg(mpicache_fast_get_fortran)]
const _: () = assert!(crate::fortran::FORTRAN_TRUE == 1 && crate::fortran::FORTRAN_FALSE == 0);
#[cfg(mpicache_fast_get_fortran)]
const _: () =
    assert!(std::mem::size_of::<MPI_Fint>() == 4 && std::mem::size_of::<MPI_Flogical>() == 4);

fn rt() -> &'static Runtime {
    Runtime::global()
}

/// Reads a handle argument passed by reference (NULL, which only C can pass, reads as `null`).
unsafe fn handle(p: *const MPI_Fint, null: i32) -> MPI_Fint {
    if p.is_null() {
        fint(null)
    } else {
        unsafe { *p }
    }
}

/// Reads a keyval argument (checked non-NULL by the caller): one that does not fit 32 bits is
/// no keyval (MPI_ERR_KEYVAL).
#[inline(always)]
unsafe fn keyval_arg(p: *const MPI_Fint) -> Result<i32> {
    unsafe { read_narrow(p, MPI_ERR_KEYVAL, "keyval") }
}

unsafe fn create_keyval(
    kind: ObjectKind,
    copy_fn: Option<MPI_Fcopy_attr_function>,
    delete_fn: Option<MPI_Fdelete_attr_function>,
    keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
) -> Result<()> {
    nonnull!(keyval, extra_state);
    // The keyval keeps its own copy of extra_state (MPI 4.1 §20.3.8).
    let k = rt().create_keyval(
        kind,
        fortran_address_copy_fn(copy_fn)?,
        fortran_address_delete_fn(delete_fn)?,
        unsafe { *extra_state } as i64,
    )?;
    unsafe { *keyval = fint(k) };
    Ok(())
}

unsafe fn free_keyval(kind: ObjectKind, keyval: *mut MPI_Fint) -> Result<()> {
    nonnull!(keyval);
    rt().free_keyval(kind, unsafe { keyval_arg(keyval) }?)?;
    unsafe { *keyval = fint(MPI_KEYVAL_INVALID) };
    Ok(())
}

/// An INTEGER argument as the core's `i32`, if it is there and fits; the fast paths leave
/// every error to the locked path.
#[inline(always)]
unsafe fn fits(p: *const MPI_Fint) -> Option<i32> {
    if p.is_null() {
        return None;
    }
    #[allow(clippy::useless_conversion)]
    i32::try_from(unsafe { *p }).ok()
}

/// The hot create (predefined routines), answered inline: true when done; false sends the
/// call to the full path, which also gives the precise error.
#[inline(always)]
unsafe fn create_keyval_fast(
    kind: ObjectKind,
    copy_fn: Option<MPI_Fcopy_attr_function>,
    delete_fn: Option<MPI_Fdelete_attr_function>,
    keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
) -> bool {
    if keyval.is_null() || extra_state.is_null() {
        return false;
    }
    let Some(callbacks) = fortran_native_callbacks(copy_fn, delete_fn) else {
        return false;
    };
    match rt().try_create_native_keyval(kind, callbacks, unsafe { *extra_state } as i64) {
        Some(k) => {
            unsafe { *keyval = fint(k) };
            true
        }
        None => false,
    }
}

/// The hot free (a live keyval that no attribute uses), answered inline: true when done.
#[inline(always)]
unsafe fn free_keyval_fast(kind: ObjectKind, keyval: *mut MPI_Fint) -> bool {
    let Some(k) = (unsafe { fits(keyval) }) else {
        return false;
    };
    let Some(freed) = rt().try_free_keyval(kind, k) else {
        return false;
    };
    unsafe { *keyval = fint(MPI_KEYVAL_INVALID) };
    freed.recycle();
    true
}

/// A get the store answers without any call: `write` stores the reader's view of the word.
/// (Where the getters are written by hand, `caching/store/getters_x86_64.rs`, they answer the
/// same without it.)
#[inline(always)]
#[cfg_attr(mpicache_fast_get_fortran, allow(dead_code))]
unsafe fn get_word_fast(
    obj: fn(i32) -> ObjRef,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    out: bool,
    flag: *mut MPI_Flogical,
    write: impl FnOnce(i64),
) -> bool {
    let (Some(h), Some(k)) = (unsafe { fits(handle) }, unsafe { fits(keyval) }) else {
        return false;
    };
    if !out || flag.is_null() {
        return false;
    }
    match Runtime::global_tables().get_word(obj(h), k) {
        Fast::Hit(word) => {
            write(word);
            unsafe { *flag = logical(true) };
            true
        }
        Fast::Miss => {
            unsafe { *flag = logical(false) };
            true
        }
        Fast::Slow => false,
    }
}

/// An overwrite the store does without the lock (no delete callback to run): true when done.
#[inline(always)]
unsafe fn overwrite_fast(
    obj: fn(i32) -> ObjRef,
    handle: *const MPI_Fint,
    keyval: *const MPI_Fint,
    value: Option<AttrWord>,
) -> bool {
    let (Some(h), Some(k), Some(value)) = (unsafe { fits(handle) }, unsafe { fits(keyval) }, value)
    else {
        return false;
    };
    Runtime::global_tables().try_overwrite(obj(h), k, value)
}

/// The ADDRESS_KIND value a set passes, if the pointer is there.
#[inline(always)]
unsafe fn address_value(p: *const MPI_Aint) -> Option<AttrWord> {
    (!p.is_null()).then(|| AttrWord::from_fortran_address(unsafe { *p } as i64))
}

#[inline(always)]
unsafe fn set_attr_address(
    obj: ObjRef,
    keyval: *const MPI_Fint,
    value: *const MPI_Aint,
) -> Result<()> {
    nonnull!(keyval, value);
    rt().set_attr(
        obj,
        unsafe { keyval_arg(keyval) }?,
        AttrWord::from_fortran_address(unsafe { *value } as i64),
    )
}

/// Inlined into each entry point so the object kind is a constant on the hot path.
#[inline(always)]
unsafe fn get_attr_address(
    obj: ObjRef,
    keyval: *const MPI_Fint,
    value: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
) -> Result<()> {
    nonnull!(keyval, value, flag);
    match rt().get_attr_word(obj, unsafe { keyval_arg(keyval) }?)? {
        Some(word) => unsafe {
            *value = fortran_address_view(word) as MPI_Aint;
            *flag = logical(true);
        },
        None => unsafe { *flag = logical(false) },
    }
    Ok(())
}

unsafe fn delete_attr(obj: ObjRef, keyval: *const MPI_Fint) -> Result<()> {
    nonnull!(keyval);
    rt().delete_attr(obj, unsafe { keyval_arg(keyval) }?)
}

/// `MPI_COMM_CREATE_KEYVAL(COMM_COPY_ATTR_FN, COMM_DELETE_ATTR_FN, COMM_KEYVAL, EXTRA_STATE,
/// IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_create_keyval_(
    comm_copy_attr_fn: Option<MPI_Fcopy_attr_function>,
    comm_delete_attr_fn: Option<MPI_Fdelete_attr_function>,
    comm_keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    fentry_fast!(
        ierror,
        "MPI_COMM_CREATE_KEYVAL",
        Scope::NoObject,
        unsafe {
            create_keyval_fast(
                ObjectKind::Comm,
                comm_copy_attr_fn,
                comm_delete_attr_fn,
                comm_keyval,
                extra_state,
            )
        },
        (comm_copy_attr_fn: Option<MPI_Fcopy_attr_function>, comm_delete_attr_fn: Option<MPI_Fdelete_attr_function>, comm_keyval: *mut MPI_Fint, extra_state: *const MPI_Aint, ierror: *mut MPI_Fint) {
            unsafe {
                create_keyval(
                    ObjectKind::Comm,
                    comm_copy_attr_fn,
                    comm_delete_attr_fn,
                    comm_keyval,
                    extra_state,
                )
            }
        }
    )
}

/// `MPI_COMM_FREE_KEYVAL(COMM_KEYVAL, IERROR)`: sets COMM_KEYVAL to MPI_KEYVAL_INVALID.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_free_keyval_(comm_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry_fast!(
        ierror,
        "MPI_COMM_FREE_KEYVAL",
        Scope::NoObject,
        unsafe { free_keyval_fast(ObjectKind::Comm, comm_keyval) },
        (comm_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) { unsafe { free_keyval(ObjectKind::Comm, comm_keyval) } }
    )
}

/// `MPI_COMM_SET_ATTR(COMM, COMM_KEYVAL, ATTRIBUTE_VAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_set_attr_(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    // The handle is read again on the slow path: nothing stays live across the fast one.
    fentry_fast!(
        ierror,
        "MPI_COMM_SET_ATTR",
        Scope::Comm(scope_handle(
            unsafe { handle(comm, MPI_COMM_NULL) },
            MPI_COMM_NULL
        )),
        unsafe {
            overwrite_fast(
                ObjRef::comm,
                comm,
                comm_keyval,
                address_value(attribute_val),
            )
        },
        (comm: *const MPI_Fint, comm_keyval: *const MPI_Fint, attribute_val: *const MPI_Aint, ierror: *mut MPI_Fint) {
            let c = narrow(unsafe { handle(comm, MPI_COMM_NULL) }, MPI_ERR_COMM, "comm")?;
            unsafe { set_attr_address(ObjRef::comm(c), comm_keyval, attribute_val) }
        }
    )
}

/// `MPI_COMM_GET_ATTR(COMM, COMM_KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`.
#[cfg_attr(mpicache_fast_get_fortran, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_get_attr_(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fortran_get_attr!(ObjectKind::Comm, address, comm_get_attr_slow, {
        let answered = unsafe {
            get_word_fast(
                ObjRef::comm,
                comm,
                comm_keyval,
                !attribute_val.is_null(),
                flag,
                |w| *attribute_val = fortran_address_view(w) as MPI_Aint,
            )
        };
        if answered {
            unsafe { crate::fortran::succeeded(ierror) }
        } else {
            unsafe { comm_get_attr_slow(comm, comm_keyval, attribute_val, flag, ierror) }
        }
    })
}

/// `MPI_COMM_GET_ATTR` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn comm_get_attr_slow(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fentry!(
        ierror,
        "MPI_COMM_GET_ATTR",
        Scope::Comm(scope_handle(
            unsafe { handle(comm, MPI_COMM_NULL) },
            MPI_COMM_NULL
        )),
        {
            let c = narrow(unsafe { handle(comm, MPI_COMM_NULL) }, MPI_ERR_COMM, "comm")?;
            unsafe { get_attr_address(ObjRef::comm(c), comm_keyval, attribute_val, flag) }
        }
    )
}

/// `MPI_COMM_DELETE_ATTR(COMM, COMM_KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_delete_attr_(
    comm: *const MPI_Fint,
    comm_keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { handle(comm, MPI_COMM_NULL) };
    fentry!(
        ierror,
        "MPI_COMM_DELETE_ATTR",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            unsafe { delete_attr(ObjRef::comm(c), comm_keyval) }
        }
    )
}

/// `MPI_TYPE_CREATE_KEYVAL(TYPE_COPY_ATTR_FN, TYPE_DELETE_ATTR_FN, TYPE_KEYVAL, EXTRA_STATE,
/// IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_keyval_(
    type_copy_attr_fn: Option<MPI_Fcopy_attr_function>,
    type_delete_attr_fn: Option<MPI_Fdelete_attr_function>,
    type_keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    fentry_fast!(
        ierror,
        "MPI_TYPE_CREATE_KEYVAL",
        Scope::NoObject,
        unsafe {
            create_keyval_fast(
                ObjectKind::Datatype,
                type_copy_attr_fn,
                type_delete_attr_fn,
                type_keyval,
                extra_state,
            )
        },
        (type_copy_attr_fn: Option<MPI_Fcopy_attr_function>, type_delete_attr_fn: Option<MPI_Fdelete_attr_function>, type_keyval: *mut MPI_Fint, extra_state: *const MPI_Aint, ierror: *mut MPI_Fint) {
            unsafe {
                create_keyval(
                    ObjectKind::Datatype,
                    type_copy_attr_fn,
                    type_delete_attr_fn,
                    type_keyval,
                    extra_state,
                )
            }
        }
    )
}

/// `MPI_TYPE_FREE_KEYVAL(TYPE_KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_free_keyval_(type_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry_fast!(
        ierror,
        "MPI_TYPE_FREE_KEYVAL",
        Scope::NoObject,
        unsafe { free_keyval_fast(ObjectKind::Datatype, type_keyval) },
        (type_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) { unsafe { free_keyval(ObjectKind::Datatype, type_keyval) } }
    )
}

/// `MPI_TYPE_SET_ATTR(DATATYPE, TYPE_KEYVAL, ATTRIBUTE_VAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_set_attr_(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    // The handle is read again on the slow path: nothing stays live across the fast one.
    fentry_fast!(
        ierror,
        "MPI_TYPE_SET_ATTR",
        Scope::NoObject,
        unsafe {
            overwrite_fast(
                ObjRef::datatype,
                datatype,
                type_keyval,
                address_value(attribute_val),
            )
        },
        (datatype: *const MPI_Fint, type_keyval: *const MPI_Fint, attribute_val: *const MPI_Aint, ierror: *mut MPI_Fint) {
            let t = narrow(
                unsafe { handle(datatype, MPI_DATATYPE_NULL) },
                MPI_ERR_TYPE,
                "datatype",
            )?;
            unsafe { set_attr_address(ObjRef::datatype(t), type_keyval, attribute_val) }
        }
    )
}

/// `MPI_TYPE_GET_ATTR(DATATYPE, TYPE_KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`.
#[cfg_attr(mpicache_fast_get_fortran, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn mpi_type_get_attr_(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fortran_get_attr!(ObjectKind::Datatype, address, type_get_attr_slow, {
        let answered = unsafe {
            get_word_fast(
                ObjRef::datatype,
                datatype,
                type_keyval,
                !attribute_val.is_null(),
                flag,
                |w| *attribute_val = fortran_address_view(w) as MPI_Aint,
            )
        };
        if answered {
            unsafe { crate::fortran::succeeded(ierror) }
        } else {
            unsafe { type_get_attr_slow(datatype, type_keyval, attribute_val, flag, ierror) }
        }
    })
}

/// `MPI_TYPE_GET_ATTR` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn type_get_attr_slow(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_GET_ATTR", Scope::NoObject, {
        let t = narrow(
            unsafe { handle(datatype, MPI_DATATYPE_NULL) },
            MPI_ERR_TYPE,
            "datatype",
        )?;
        unsafe { get_attr_address(ObjRef::datatype(t), type_keyval, attribute_val, flag) }
    })
}

/// `MPI_TYPE_DELETE_ATTR(DATATYPE, TYPE_KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_delete_attr_(
    datatype: *const MPI_Fint,
    type_keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let t = unsafe { handle(datatype, MPI_DATATYPE_NULL) };
    fentry!(ierror, "MPI_TYPE_DELETE_ATTR", Scope::NoObject, {
        let t = narrow(t, MPI_ERR_TYPE, "datatype")?;
        unsafe { delete_attr(ObjRef::datatype(t), type_keyval) }
    })
}

/// `MPI_WIN_CREATE_KEYVAL(WIN_COPY_ATTR_FN, WIN_DELETE_ATTR_FN, WIN_KEYVAL, EXTRA_STATE,
/// IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_create_keyval_(
    win_copy_attr_fn: Option<MPI_Fcopy_attr_function>,
    win_delete_attr_fn: Option<MPI_Fdelete_attr_function>,
    win_keyval: *mut MPI_Fint,
    extra_state: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    fentry_fast!(
        ierror,
        "MPI_WIN_CREATE_KEYVAL",
        Scope::NoObject,
        unsafe {
            create_keyval_fast(
                ObjectKind::Win,
                win_copy_attr_fn,
                win_delete_attr_fn,
                win_keyval,
                extra_state,
            )
        },
        (win_copy_attr_fn: Option<MPI_Fcopy_attr_function>, win_delete_attr_fn: Option<MPI_Fdelete_attr_function>, win_keyval: *mut MPI_Fint, extra_state: *const MPI_Aint, ierror: *mut MPI_Fint) {
            unsafe {
                create_keyval(
                    ObjectKind::Win,
                    win_copy_attr_fn,
                    win_delete_attr_fn,
                    win_keyval,
                    extra_state,
                )
            }
        }
    )
}

/// `MPI_WIN_FREE_KEYVAL(WIN_KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_free_keyval_(win_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry_fast!(
        ierror,
        "MPI_WIN_FREE_KEYVAL",
        Scope::NoObject,
        unsafe { free_keyval_fast(ObjectKind::Win, win_keyval) },
        (win_keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) { unsafe { free_keyval(ObjectKind::Win, win_keyval) } }
    )
}

/// `MPI_WIN_SET_ATTR(WIN, WIN_KEYVAL, ATTRIBUTE_VAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_set_attr_(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    attribute_val: *const MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    // The handle is read again on the slow path: nothing stays live across the fast one.
    fentry_fast!(
        ierror,
        "MPI_WIN_SET_ATTR",
        Scope::Win(scope_handle(
            unsafe { handle(win, MPI_WIN_NULL) },
            MPI_WIN_NULL
        )),
        unsafe { overwrite_fast(ObjRef::win, win, win_keyval, address_value(attribute_val)) },
        (win: *const MPI_Fint, win_keyval: *const MPI_Fint, attribute_val: *const MPI_Aint, ierror: *mut MPI_Fint) {
            let w = narrow(unsafe { handle(win, MPI_WIN_NULL) }, MPI_ERR_WIN, "win")?;
            unsafe { set_attr_address(ObjRef::win(w), win_keyval, attribute_val) }
        }
    )
}

/// `MPI_WIN_GET_ATTR(WIN, WIN_KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`.
#[cfg_attr(mpicache_fast_get_fortran, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn mpi_win_get_attr_(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fortran_get_attr!(ObjectKind::Win, address, win_get_attr_slow, {
        let answered = unsafe {
            get_word_fast(
                ObjRef::win,
                win,
                win_keyval,
                !attribute_val.is_null(),
                flag,
                |w| *attribute_val = fortran_address_view(w) as MPI_Aint,
            )
        };
        if answered {
            unsafe { crate::fortran::succeeded(ierror) }
        } else {
            unsafe { win_get_attr_slow(win, win_keyval, attribute_val, flag, ierror) }
        }
    })
}

/// `MPI_WIN_GET_ATTR` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn win_get_attr_slow(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Aint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fentry!(
        ierror,
        "MPI_WIN_GET_ATTR",
        Scope::Win(scope_handle(
            unsafe { handle(win, MPI_WIN_NULL) },
            MPI_WIN_NULL
        )),
        {
            let w = narrow(unsafe { handle(win, MPI_WIN_NULL) }, MPI_ERR_WIN, "win")?;
            unsafe { get_attr_address(ObjRef::win(w), win_keyval, attribute_val, flag) }
        }
    )
}

/// `MPI_WIN_DELETE_ATTR(WIN, WIN_KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_delete_attr_(
    win: *const MPI_Fint,
    win_keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let w = unsafe { handle(win, MPI_WIN_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_DELETE_ATTR",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            let w = narrow(w, MPI_ERR_WIN, "win")?;
            unsafe { delete_attr(ObjRef::win(w), win_keyval) }
        }
    )
}

/// Deprecated `MPI_KEYVAL_CREATE(COPY_FN, DELETE_FN, KEYVAL, EXTRA_STATE, IERROR)`: INTEGER
/// callbacks and extra_state (the callbacks use the INTEGER convention).
#[no_mangle]
pub unsafe extern "C" fn mpi_keyval_create_(
    copy_fn: Option<MPI_Fcopy_function>,
    delete_fn: Option<MPI_Fdelete_function>,
    keyval: *mut MPI_Fint,
    extra_state: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_KEYVAL_CREATE", Scope::NoObject, {
        nonnull!(keyval, extra_state);
        let k = rt().create_keyval(
            ObjectKind::Comm,
            fortran_integer_copy_fn(copy_fn)?,
            fortran_integer_delete_fn(delete_fn)?,
            wide(unsafe { *extra_state }),
        )?;
        unsafe { *keyval = fint(k) };
        Ok(())
    })
}

/// Deprecated `MPI_KEYVAL_FREE(KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_keyval_free_(keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry_fast!(
        ierror,
        "MPI_KEYVAL_FREE",
        Scope::NoObject,
        unsafe { free_keyval_fast(ObjectKind::Comm, keyval) },
        (keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) { unsafe { free_keyval(ObjectKind::Comm, keyval) } }
    )
}

/// Deprecated `MPI_ATTR_PUT(COMM, KEYVAL, ATTRIBUTE_VAL, IERROR)`: the INTEGER is stored
/// sign-extended to the word (MPI 4.1 §20.3.7).
#[no_mangle]
pub unsafe extern "C" fn mpi_attr_put_(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // The handle is read again on the slow path: nothing stays live across the fast one.
    fentry_fast!(
        ierror,
        "MPI_ATTR_PUT",
        Scope::Comm(scope_handle(
            unsafe { handle(comm, MPI_COMM_NULL) },
            MPI_COMM_NULL
        )),
        unsafe {
            overwrite_fast(
                ObjRef::comm,
                comm,
                keyval,
                (!attribute_val.is_null()).then(|| AttrWord::from_fortran_integer(*attribute_val)),
            )
        },
        (comm: *const MPI_Fint, keyval: *const MPI_Fint, attribute_val: *const MPI_Fint, ierror: *mut MPI_Fint) {
            let c = narrow(unsafe { handle(comm, MPI_COMM_NULL) }, MPI_ERR_COMM, "comm")?;
            nonnull!(keyval, attribute_val);
            rt().set_attr(
                ObjRef::comm(c),
                unsafe { keyval_arg(keyval) }?,
                AttrWord::from_fortran_integer(unsafe { *attribute_val }),
            )
        }
    )
}

/// Deprecated `MPI_ATTR_GET(COMM, KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR)`: the low part of the
/// word (MPI 4.1 §20.3.7).
#[cfg_attr(mpicache_fast_get_fortran, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn mpi_attr_get_(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fortran_get_attr!(ObjectKind::Comm, integer, attr_get_slow, {
        let answered = unsafe {
            get_word_fast(
                ObjRef::comm,
                comm,
                keyval,
                !attribute_val.is_null(),
                flag,
                |w| *attribute_val = fortran_integer_view(w),
            )
        };
        if answered {
            unsafe { crate::fortran::succeeded(ierror) }
        } else {
            unsafe { attr_get_slow(comm, keyval, attribute_val, flag, ierror) }
        }
    })
}

/// `MPI_ATTR_GET` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn attr_get_slow(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    attribute_val: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fentry!(
        ierror,
        "MPI_ATTR_GET",
        Scope::Comm(scope_handle(
            unsafe { handle(comm, MPI_COMM_NULL) },
            MPI_COMM_NULL
        )),
        {
            let c = narrow(unsafe { handle(comm, MPI_COMM_NULL) }, MPI_ERR_COMM, "comm")?;
            nonnull!(keyval, attribute_val, flag);
            match rt().get_attr_word(ObjRef::comm(c), unsafe { keyval_arg(keyval) }?)? {
                Some(word) => unsafe {
                    *attribute_val = fortran_integer_view(word);
                    *flag = logical(true);
                },
                None => unsafe { *flag = logical(false) },
            }
            Ok(())
        }
    )
}

/// Deprecated `MPI_ATTR_DELETE(COMM, KEYVAL, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_attr_delete_(
    comm: *const MPI_Fint,
    keyval: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { handle(comm, MPI_COMM_NULL) };
    fentry!(
        ierror,
        "MPI_ATTR_DELETE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            unsafe { delete_attr(ObjRef::comm(c), keyval) }
        }
    )
}
