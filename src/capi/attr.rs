//! Caching entry points (MPI 4.1 §7.7) for communicators, datatypes and windows, and the
//! deprecated MPI-1 forms. All share one engine; the object kind is data.

use crate::caching::convert::AttrWord;
use crate::caching::store::getters_x86_64::c_get_attr;
use crate::caching::store::Fast;
use crate::capi::boundary::Scope;
use crate::capi::callbacks::{c_copy_fn, c_delete_fn, c_native_callbacks};
use crate::capi::types::*;
use crate::consts::MPI_KEYVAL_INVALID;
use crate::world::{ObjRef, ObjectKind, Result, Runtime};
use crate::{entry, entry_fast, nonnull};
use std::ffi::{c_int, c_void};

fn rt() -> &'static Runtime {
    Runtime::global()
}

unsafe fn create_keyval(
    kind: ObjectKind,
    copy_fn: Option<MPI_Comm_copy_attr_function>,
    delete_fn: Option<MPI_Comm_delete_attr_function>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> Result<()> {
    nonnull!(keyval);
    let k = rt().create_keyval(
        kind,
        c_copy_fn(copy_fn)?,
        c_delete_fn(delete_fn)?,
        extra_state as i64,
    )?;
    unsafe { *keyval = k };
    Ok(())
}

unsafe fn free_keyval(kind: ObjectKind, keyval: *mut c_int) -> Result<()> {
    nonnull!(keyval);
    rt().free_keyval(kind, unsafe { *keyval })?;
    unsafe { *keyval = MPI_KEYVAL_INVALID };
    Ok(())
}

/// The hot create (NULL or predefined callbacks), answered inline: true when done; false
/// sends the call to the full path, which also gives the precise error.
#[inline(always)]
unsafe fn create_keyval_fast(
    kind: ObjectKind,
    copy_fn: Option<MPI_Comm_copy_attr_function>,
    delete_fn: Option<MPI_Comm_delete_attr_function>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> bool {
    if keyval.is_null() {
        return false;
    }
    let Some(callbacks) = c_native_callbacks(copy_fn, delete_fn) else {
        return false;
    };
    match rt().try_create_native_keyval(kind, callbacks, extra_state as i64) {
        Some(k) => {
            unsafe { *keyval = k };
            true
        }
        None => false,
    }
}

/// The hot free (a live keyval that no attribute uses), answered inline: true when done.
#[inline(always)]
unsafe fn free_keyval_fast(kind: ObjectKind, keyval: *mut c_int) -> bool {
    if keyval.is_null() {
        return false;
    }
    let Some(freed) = rt().try_free_keyval(kind, unsafe { *keyval }) else {
        return false;
    };
    unsafe { *keyval = MPI_KEYVAL_INVALID };
    freed.recycle();
    true
}

/// C readers: `*(void**)attribute_val` gets the C view; nothing is written when the flag is false.
/// Inlined into each entry point so the object kind is a constant on the hot path.
#[inline(always)]
unsafe fn get_attr(
    obj: ObjRef,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    nonnull!(attribute_val, flag);
    match rt().get_attr_c_view(obj, keyval)? {
        Some(c_view) => unsafe {
            *attribute_val.cast::<*mut c_void>() = c_view as *mut c_void;
            *flag = 1;
        },
        None => unsafe { *flag = 0 },
    }
    Ok(())
}

/// What the store answers for a C reader without any call: true when it answered (the
/// attribute, or flag = false); false sends the call to the locked path. (Where the getters
/// are written by hand, `caching/store/getters_x86_64.rs`, they answer the same without it.)
#[inline(always)]
#[cfg_attr(mpicache_fast_get, allow(dead_code))]
unsafe fn get_attr_fast(
    obj: ObjRef,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> bool {
    if attribute_val.is_null() || flag.is_null() {
        return false;
    }
    match Runtime::global_tables().get_c_view(obj, keyval) {
        Fast::Hit(c_view) => unsafe {
            *attribute_val.cast::<*mut c_void>() = c_view as *mut c_void;
            *flag = 1;
            true
        },
        Fast::Miss => unsafe {
            *flag = 0;
            true
        },
        Fast::Slow => false,
    }
}

/// The overwrite the store does without the lock (no delete callback to run): true when done.
#[inline(always)]
fn overwrite_fast(obj: ObjRef, keyval: c_int, attribute_val: *mut c_void) -> bool {
    Runtime::global_tables().try_overwrite(
        obj,
        keyval,
        AttrWord::from_c_pointer(attribute_val as usize),
    )
}

fn set_attr(obj: ObjRef, keyval: c_int, attribute_val: *mut c_void) -> Result<()> {
    rt().set_attr(
        obj,
        keyval,
        AttrWord::from_c_pointer(attribute_val as usize),
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_keyval(
    comm_copy_attr_fn: Option<MPI_Comm_copy_attr_function>,
    comm_delete_attr_fn: Option<MPI_Comm_delete_attr_function>,
    comm_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    entry_fast!(
        "MPI_Comm_create_keyval",
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
        (comm_copy_attr_fn: Option<MPI_Comm_copy_attr_function>, comm_delete_attr_fn: Option<MPI_Comm_delete_attr_function>, comm_keyval: *mut c_int, extra_state: *mut c_void) {
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

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_free_keyval(comm_keyval: *mut c_int) -> c_int {
    entry_fast!(
        "MPI_Comm_free_keyval",
        Scope::NoObject,
        unsafe { free_keyval_fast(ObjectKind::Comm, comm_keyval) },
        (comm_keyval: *mut c_int) { unsafe { free_keyval(ObjectKind::Comm, comm_keyval) } }
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_attr(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    entry_fast!(
        "MPI_Comm_set_attr",
        Scope::Comm(comm),
        overwrite_fast(ObjRef::comm(comm), comm_keyval, attribute_val),
        (comm: MPI_Comm, comm_keyval: c_int, attribute_val: *mut c_void) { set_attr(ObjRef::comm(comm), comm_keyval, attribute_val) }
    )
}

#[cfg_attr(mpicache_fast_get, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_attr(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    c_get_attr!(ObjectKind::Comm, comm_get_attr_slow, {
        if unsafe { get_attr_fast(ObjRef::comm(comm), comm_keyval, attribute_val, flag) } {
            MPI_SUCCESS
        } else {
            unsafe { comm_get_attr_slow(comm, comm_keyval, attribute_val, flag) }
        }
    })
}

/// `MPI_Comm_get_attr` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn comm_get_attr_slow(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Comm_get_attr", Scope::Comm(comm), {
        unsafe { get_attr(ObjRef::comm(comm), comm_keyval, attribute_val, flag) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_delete_attr(comm: MPI_Comm, comm_keyval: c_int) -> c_int {
    entry!("MPI_Comm_delete_attr", Scope::Comm(comm), {
        rt().delete_attr(ObjRef::comm(comm), comm_keyval)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_keyval(
    type_copy_attr_fn: Option<MPI_Type_copy_attr_function>,
    type_delete_attr_fn: Option<MPI_Type_delete_attr_function>,
    type_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    entry_fast!(
        "MPI_Type_create_keyval",
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
        (type_copy_attr_fn: Option<MPI_Type_copy_attr_function>, type_delete_attr_fn: Option<MPI_Type_delete_attr_function>, type_keyval: *mut c_int, extra_state: *mut c_void) {
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

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free_keyval(type_keyval: *mut c_int) -> c_int {
    entry_fast!(
        "MPI_Type_free_keyval",
        Scope::NoObject,
        unsafe { free_keyval_fast(ObjectKind::Datatype, type_keyval) },
        (type_keyval: *mut c_int) { unsafe { free_keyval(ObjectKind::Datatype, type_keyval) } }
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_set_attr(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    entry_fast!(
        "MPI_Type_set_attr",
        Scope::NoObject,
        overwrite_fast(ObjRef::datatype(datatype), type_keyval, attribute_val),
        (datatype: MPI_Datatype, type_keyval: c_int, attribute_val: *mut c_void) { set_attr(ObjRef::datatype(datatype), type_keyval, attribute_val) }
    )
}

#[cfg_attr(mpicache_fast_get, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_attr(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    c_get_attr!(ObjectKind::Datatype, type_get_attr_slow, {
        if unsafe { get_attr_fast(ObjRef::datatype(datatype), type_keyval, attribute_val, flag) } {
            MPI_SUCCESS
        } else {
            unsafe { type_get_attr_slow(datatype, type_keyval, attribute_val, flag) }
        }
    })
}

/// `MPI_Type_get_attr` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn type_get_attr_slow(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Type_get_attr", Scope::NoObject, {
        unsafe { get_attr(ObjRef::datatype(datatype), type_keyval, attribute_val, flag) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_delete_attr(datatype: MPI_Datatype, type_keyval: c_int) -> c_int {
    entry!("MPI_Type_delete_attr", Scope::NoObject, {
        rt().delete_attr(ObjRef::datatype(datatype), type_keyval)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_create_keyval(
    win_copy_attr_fn: Option<MPI_Win_copy_attr_function>,
    win_delete_attr_fn: Option<MPI_Win_delete_attr_function>,
    win_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    entry_fast!(
        "MPI_Win_create_keyval",
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
        (win_copy_attr_fn: Option<MPI_Win_copy_attr_function>, win_delete_attr_fn: Option<MPI_Win_delete_attr_function>, win_keyval: *mut c_int, extra_state: *mut c_void) {
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

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_free_keyval(win_keyval: *mut c_int) -> c_int {
    entry_fast!(
        "MPI_Win_free_keyval",
        Scope::NoObject,
        unsafe { free_keyval_fast(ObjectKind::Win, win_keyval) },
        (win_keyval: *mut c_int) { unsafe { free_keyval(ObjectKind::Win, win_keyval) } }
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_set_attr(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    entry_fast!(
        "MPI_Win_set_attr",
        Scope::Win(win),
        overwrite_fast(ObjRef::win(win), win_keyval, attribute_val),
        (win: MPI_Win, win_keyval: c_int, attribute_val: *mut c_void) { set_attr(ObjRef::win(win), win_keyval, attribute_val) }
    )
}

#[cfg_attr(mpicache_fast_get, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Win_get_attr(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    c_get_attr!(ObjectKind::Win, win_get_attr_slow, {
        if unsafe { get_attr_fast(ObjRef::win(win), win_keyval, attribute_val, flag) } {
            MPI_SUCCESS
        } else {
            unsafe { win_get_attr_slow(win, win_keyval, attribute_val, flag) }
        }
    })
}

/// `MPI_Win_get_attr` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn win_get_attr_slow(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Win_get_attr", Scope::Win(win), {
        unsafe { get_attr(ObjRef::win(win), win_keyval, attribute_val, flag) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_delete_attr(win: MPI_Win, win_keyval: c_int) -> c_int {
    entry!("MPI_Win_delete_attr", Scope::Win(win), {
        rt().delete_attr(ObjRef::win(win), win_keyval)
    })
}

/// Deprecated `MPI_Keyval_create`: a communicator keyval with the C convention.
#[no_mangle]
pub unsafe extern "C" fn MPI_Keyval_create(
    copy_fn: Option<MPI_Copy_function>,
    delete_fn: Option<MPI_Delete_function>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    entry_fast!(
        "MPI_Keyval_create",
        Scope::NoObject,
        unsafe { create_keyval_fast(ObjectKind::Comm, copy_fn, delete_fn, keyval, extra_state) },
        (copy_fn: Option<MPI_Copy_function>, delete_fn: Option<MPI_Delete_function>, keyval: *mut c_int, extra_state: *mut c_void) { unsafe { create_keyval(ObjectKind::Comm, copy_fn, delete_fn, keyval, extra_state) } }
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Keyval_free(keyval: *mut c_int) -> c_int {
    entry_fast!(
        "MPI_Keyval_free",
        Scope::NoObject,
        unsafe { free_keyval_fast(ObjectKind::Comm, keyval) },
        (keyval: *mut c_int) { unsafe { free_keyval(ObjectKind::Comm, keyval) } }
    )
}

/// Deprecated `MPI_Attr_put`: in C identical to `MPI_Comm_set_attr` (MPI 4.1 §20.3.7).
#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_put(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    entry_fast!(
        "MPI_Attr_put",
        Scope::Comm(comm),
        overwrite_fast(ObjRef::comm(comm), keyval, attribute_val),
        (comm: MPI_Comm, keyval: c_int, attribute_val: *mut c_void) { set_attr(ObjRef::comm(comm), keyval, attribute_val) }
    )
}

#[cfg_attr(mpicache_fast_get, unsafe(naked))]
#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_get(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    c_get_attr!(ObjectKind::Comm, attr_get_slow, {
        if unsafe { get_attr_fast(ObjRef::comm(comm), keyval, attribute_val, flag) } {
            MPI_SUCCESS
        } else {
            unsafe { attr_get_slow(comm, keyval, attribute_val, flag) }
        }
    })
}

/// `MPI_Attr_get` in full, for what the fast path leaves.
#[cold]
#[inline(never)]
unsafe extern "C" fn attr_get_slow(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Attr_get", Scope::Comm(comm), {
        unsafe { get_attr(ObjRef::comm(comm), keyval, attribute_val, flag) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_delete(comm: MPI_Comm, keyval: c_int) -> c_int {
    entry!("MPI_Attr_delete", Scope::Comm(comm), {
        rt().delete_attr(ObjRef::comm(comm), keyval)
    })
}
