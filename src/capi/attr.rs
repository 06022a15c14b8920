//! Caching entry points (MPI 4.1 §7.7) for communicators, datatypes and windows, and the
//! deprecated MPI-1 forms. All share one engine; the object kind is data.

use crate::boundary::{rt, Out, Scope};
use crate::caching::convert::AttrWord;
use crate::caching::store::getters_x86_64::c_get_attr;
use crate::caching::store::Fast;
use crate::capi::callbacks::{c_copy_fn, c_delete_fn, c_native_callbacks};
use crate::capi::types::*;
use crate::consts::{MPI_KEYVAL_INVALID, MPI_SUCCESS};
use crate::world::{ObjRef, ObjectKind, Result, Runtime};
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};

/// A marker the library exports only when its getters are the hand-written ones
/// (`caching/store/getters_x86_64.rs`, feature `asm-getters`): tests/fast_get.rs looks it up
/// in the installed library with `dlsym`, and compares it with the getters' code.
#[cfg(mpicache_fast_get)]
#[no_mangle]
pub static mpicache_asm_getters: u8 = 1;

/// The calls of one object kind (or of the deprecated MPI-1 forms, on communicators): the
/// shared bodies below take it, so the kind is data and only the signatures are per kind.
struct Calls {
    kind: ObjectKind,
    create_keyval: &'static str,
    free_keyval: &'static str,
    set_attr: &'static str,
    delete_attr: &'static str,
}

const COMM: Calls = Calls {
    kind: ObjectKind::Comm,
    create_keyval: "MPI_Comm_create_keyval",
    free_keyval: "MPI_Comm_free_keyval",
    set_attr: "MPI_Comm_set_attr",
    delete_attr: "MPI_Comm_delete_attr",
};
const TYPE: Calls = Calls {
    kind: ObjectKind::Datatype,
    create_keyval: "MPI_Type_create_keyval",
    free_keyval: "MPI_Type_free_keyval",
    set_attr: "MPI_Type_set_attr",
    delete_attr: "MPI_Type_delete_attr",
};
const WIN: Calls = Calls {
    kind: ObjectKind::Win,
    create_keyval: "MPI_Win_create_keyval",
    free_keyval: "MPI_Win_free_keyval",
    set_attr: "MPI_Win_set_attr",
    delete_attr: "MPI_Win_delete_attr",
};
const MPI1: Calls = Calls {
    kind: ObjectKind::Comm,
    create_keyval: "MPI_Keyval_create",
    free_keyval: "MPI_Keyval_free",
    set_attr: "MPI_Attr_put",
    delete_attr: "MPI_Attr_delete",
};

/// A keyval create in full, for what [`create_keyval_fast`] leaves.
#[cold]
#[inline(never)]
unsafe fn create_keyval_slow(
    calls: &'static Calls,
    copy_fn: Option<MPI_Comm_copy_attr_function>,
    delete_fn: Option<MPI_Comm_delete_attr_function>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    entry!(calls.create_keyval, Scope::NoObject, {
        let keyval = try_out!(keyval);
        keyval.set(rt().create_keyval(
            calls.kind,
            c_copy_fn(copy_fn)?,
            c_delete_fn(delete_fn)?,
            extra_state as i64,
        )?);
        Ok(())
    })
}

/// A keyval free in full, for what [`free_keyval_fast`] leaves.
#[cold]
#[inline(never)]
unsafe fn free_keyval_slow(calls: &'static Calls, keyval: *mut c_int) -> c_int {
    entry!(calls.free_keyval, Scope::NoObject, {
        let keyval = try_out!(keyval);
        rt().free_keyval(calls.kind, keyval.get())?;
        keyval.set(MPI_KEYVAL_INVALID);
        Ok(())
    })
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
    // SAFETY: the entry point's output argument (MPI's contract).
    let Some(keyval) = (unsafe { Out::new(keyval) }) else {
        return false;
    };
    let Some(callbacks) = c_native_callbacks(copy_fn, delete_fn) else {
        return false;
    };
    match rt().try_create_native_keyval(kind, callbacks, extra_state as i64) {
        Some(k) => {
            keyval.set(k);
            true
        }
        None => false,
    }
}

/// The hot free (a live keyval that no attribute uses), answered inline: true when done.
#[inline(always)]
unsafe fn free_keyval_fast(kind: ObjectKind, keyval: *mut c_int) -> bool {
    // SAFETY: the entry point's INOUT argument (MPI's contract).
    let Some(keyval) = (unsafe { Out::new(keyval) }) else {
        return false;
    };
    let Some(freed) = rt().try_free_keyval(kind, keyval.get()) else {
        return false;
    };
    keyval.set(MPI_KEYVAL_INVALID);
    freed.recycle();
    true
}

/// C readers: `*(void**)attribute_val` gets the C view; nothing is written when the flag is false.
/// Inlined into each get's slow path so the object kind is a constant there.
#[inline(always)]
unsafe fn get_attr(
    obj: ObjRef,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    let attribute_val = attribute_val.cast::<*mut c_void>();
    let (attribute_val, flag) = (try_out!(attribute_val), try_out!(flag));
    match rt().get_attr_c_view(obj, keyval)? {
        Some(c_view) => {
            attribute_val.set(c_view as *mut c_void);
            flag.set(1);
        }
        None => flag.set(0),
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
    // SAFETY: the entry point's output arguments (MPI's contract).
    let (Some(attribute_val), Some(flag)) = (unsafe { Out::new(attribute_val.cast()) }, unsafe {
        Out::new(flag)
    }) else {
        return false;
    };
    match Runtime::global_tables().get_c_view(obj, keyval) {
        Fast::Hit(c_view) => {
            attribute_val.set(c_view as *mut c_void);
            flag.set(1);
            true
        }
        Fast::Miss => {
            flag.set(0);
            true
        }
        Fast::Slow => false,
    }
}

/// The overwrite the store does without the lock (no delete callback to run): true when done.
#[inline(always)]
fn set_attr_fast(
    kind: ObjectKind,
    handle: c_int,
    keyval: c_int,
    attribute_val: *mut c_void,
) -> bool {
    Runtime::global_tables().try_overwrite(
        ObjRef::of_int(kind, handle),
        keyval,
        AttrWord::from_c_pointer(attribute_val as usize),
    )
}

/// A set in full, for what [`set_attr_fast`] leaves.
#[cold]
#[inline(never)]
fn set_attr_slow(
    calls: &'static Calls,
    handle: c_int,
    keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    entry!(calls.set_attr, Scope::of(calls.kind, handle), {
        rt().set_attr(
            ObjRef::of_int(calls.kind, handle),
            keyval,
            AttrWord::from_c_pointer(attribute_val as usize),
        )
    })
}

/// A keyval create: the hot path inline, the rest in [`create_keyval_slow`].
#[inline(always)]
unsafe fn create_keyval(
    calls: &'static Calls,
    copy_fn: Option<MPI_Comm_copy_attr_function>,
    delete_fn: Option<MPI_Comm_delete_attr_function>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    if unsafe { create_keyval_fast(calls.kind, copy_fn, delete_fn, keyval, extra_state) } {
        MPI_SUCCESS
    } else {
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        unsafe { create_keyval_slow(calls, copy_fn, delete_fn, keyval, extra_state) }
    }
}

/// A keyval free: the hot path inline, the rest in [`free_keyval_slow`].
#[inline(always)]
unsafe fn free_keyval(calls: &'static Calls, keyval: *mut c_int) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    if unsafe { free_keyval_fast(calls.kind, keyval) } {
        MPI_SUCCESS
    } else {
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        unsafe { free_keyval_slow(calls, keyval) }
    }
}

/// A set: the hot overwrite inline, the rest in [`set_attr_slow`].
#[inline(always)]
fn set_attr(calls: &'static Calls, handle: c_int, keyval: c_int, value: *mut c_void) -> c_int {
    if set_attr_fast(calls.kind, handle, keyval, value) {
        MPI_SUCCESS
    } else {
        set_attr_slow(calls, handle, keyval, value)
    }
}

/// A delete (no fast path: it may run a delete callback).
fn delete_attr(calls: &'static Calls, handle: c_int, keyval: c_int) -> c_int {
    entry!(calls.delete_attr, Scope::of(calls.kind, handle), {
        rt().delete_attr(ObjRef::of_int(calls.kind, handle), keyval)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_keyval(
    comm_copy_attr_fn: Option<MPI_Comm_copy_attr_function>,
    comm_delete_attr_fn: Option<MPI_Comm_delete_attr_function>,
    comm_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    unsafe {
        create_keyval(
            &COMM,
            comm_copy_attr_fn,
            comm_delete_attr_fn,
            comm_keyval,
            extra_state,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_free_keyval(comm_keyval: *mut c_int) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    unsafe { free_keyval(&COMM, comm_keyval) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_attr(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    set_attr(&COMM, comm, comm_keyval, attribute_val)
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
        let obj = ObjRef::of_int(ObjectKind::Comm, comm);
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        if unsafe { get_attr_fast(obj, comm_keyval, attribute_val, flag) } {
            MPI_SUCCESS
        } else {
            // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
            unsafe { comm_get_attr_slow(comm, comm_keyval, attribute_val, flag) }
        }
    })
}

/// `MPI_Comm_get_attr` in full, for what the fast path leaves (the hand-written getter jumps
/// here with the arguments in their registers, hence the entry point's own signature).
#[cold]
#[inline(never)]
unsafe extern "C" fn comm_get_attr_slow(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Comm_get_attr", Scope::of(ObjectKind::Comm, comm), {
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        unsafe {
            get_attr(
                ObjRef::of_int(ObjectKind::Comm, comm),
                comm_keyval,
                attribute_val,
                flag,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_delete_attr(comm: MPI_Comm, comm_keyval: c_int) -> c_int {
    delete_attr(&COMM, comm, comm_keyval)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_keyval(
    type_copy_attr_fn: Option<MPI_Type_copy_attr_function>,
    type_delete_attr_fn: Option<MPI_Type_delete_attr_function>,
    type_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    unsafe {
        create_keyval(
            &TYPE,
            type_copy_attr_fn,
            type_delete_attr_fn,
            type_keyval,
            extra_state,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free_keyval(type_keyval: *mut c_int) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    unsafe { free_keyval(&TYPE, type_keyval) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_set_attr(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    set_attr(&TYPE, datatype, type_keyval, attribute_val)
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
        let obj = ObjRef::of_int(ObjectKind::Datatype, datatype);
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        if unsafe { get_attr_fast(obj, type_keyval, attribute_val, flag) } {
            MPI_SUCCESS
        } else {
            // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
            unsafe { type_get_attr_slow(datatype, type_keyval, attribute_val, flag) }
        }
    })
}

/// `MPI_Type_get_attr` in full, for what the fast path leaves (the hand-written getter jumps
/// here with the arguments in their registers, hence the entry point's own signature).
#[cold]
#[inline(never)]
unsafe extern "C" fn type_get_attr_slow(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    entry!(
        "MPI_Type_get_attr",
        Scope::of(ObjectKind::Datatype, datatype),
        {
            // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
            unsafe {
                get_attr(
                    ObjRef::of_int(ObjectKind::Datatype, datatype),
                    type_keyval,
                    attribute_val,
                    flag,
                )
            }
        }
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_delete_attr(datatype: MPI_Datatype, type_keyval: c_int) -> c_int {
    delete_attr(&TYPE, datatype, type_keyval)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_create_keyval(
    win_copy_attr_fn: Option<MPI_Win_copy_attr_function>,
    win_delete_attr_fn: Option<MPI_Win_delete_attr_function>,
    win_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    unsafe {
        create_keyval(
            &WIN,
            win_copy_attr_fn,
            win_delete_attr_fn,
            win_keyval,
            extra_state,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_free_keyval(win_keyval: *mut c_int) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    unsafe { free_keyval(&WIN, win_keyval) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_set_attr(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    set_attr(&WIN, win, win_keyval, attribute_val)
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
        let obj = ObjRef::of_int(ObjectKind::Win, win);
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        if unsafe { get_attr_fast(obj, win_keyval, attribute_val, flag) } {
            MPI_SUCCESS
        } else {
            // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
            unsafe { win_get_attr_slow(win, win_keyval, attribute_val, flag) }
        }
    })
}

/// `MPI_Win_get_attr` in full, for what the fast path leaves (the hand-written getter jumps
/// here with the arguments in their registers, hence the entry point's own signature).
#[cold]
#[inline(never)]
unsafe extern "C" fn win_get_attr_slow(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Win_get_attr", Scope::of(ObjectKind::Win, win), {
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        unsafe {
            get_attr(
                ObjRef::of_int(ObjectKind::Win, win),
                win_keyval,
                attribute_val,
                flag,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_delete_attr(win: MPI_Win, win_keyval: c_int) -> c_int {
    delete_attr(&WIN, win, win_keyval)
}

/// Deprecated `MPI_Keyval_create`: a communicator keyval with the C convention.
#[no_mangle]
pub unsafe extern "C" fn MPI_Keyval_create(
    copy_fn: Option<MPI_Copy_function>,
    delete_fn: Option<MPI_Delete_function>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    unsafe { create_keyval(&MPI1, copy_fn, delete_fn, keyval, extra_state) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Keyval_free(keyval: *mut c_int) -> c_int {
    // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
    unsafe { free_keyval(&MPI1, keyval) }
}

/// Deprecated `MPI_Attr_put`: in C identical to `MPI_Comm_set_attr` (MPI 4.1 §20.3.7).
#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_put(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    set_attr(&MPI1, comm, keyval, attribute_val)
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
        let obj = ObjRef::of_int(ObjectKind::Comm, comm);
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        if unsafe { get_attr_fast(obj, keyval, attribute_val, flag) } {
            MPI_SUCCESS
        } else {
            // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
            unsafe { attr_get_slow(comm, keyval, attribute_val, flag) }
        }
    })
}

/// `MPI_Attr_get` in full, for what the fast path leaves (the hand-written getter jumps here with
/// the arguments in their registers, hence the entry point's own signature).
#[cold]
#[inline(never)]
unsafe extern "C" fn attr_get_slow(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Attr_get", Scope::of(ObjectKind::Comm, comm), {
        // SAFETY: the entry point's own arguments, under its contract (capi/mod.rs).
        unsafe {
            get_attr(
                ObjRef::of_int(ObjectKind::Comm, comm),
                keyval,
                attribute_val,
                flag,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_delete(comm: MPI_Comm, keyval: c_int) -> c_int {
    delete_attr(&MPI1, comm, keyval)
}
