//! The C caching routines over the engine (MPI 4.1 §7.7): keyvals and attributes on
//! communicators, datatypes and windows, and the deprecated MPI-1 forms. The layer's own
//! keyvals (tagged: caching/keyval/number.rs) are answered by the caching engine; any other keyval (the engine's
//! predefined ones, `MPI_KEYVAL_INVALID`, keyvals the engine's own code made through `PMPI_`)
//! goes to the engine, which answers and raises its errors as it would alone.
#![allow(non_snake_case)]

use crate::caching::callback::{callbacks_of, CopyFn, DeleteFn};
use crate::caching::convert::AttrWord;
use crate::caching::keyval::is_own;
use crate::caching::store::Fast;
use crate::caching::ObjRef;
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;
use crate::layer::boundary::{engine_code, engine_rc, Scope};
use crate::layer::callbacks::{c_copy_fn, c_delete_fn, CopyAttrFunction, DeleteAttrFunction};
use crate::layer::engine::{self, key, Handle};
use crate::layer::world::cache;
use crate::{layer_entry, layer_nonnull};
use std::ffi::{c_int, c_void};

/// MPI 4.1 §7.7.2: users cannot set, delete or free a predefined keyval; the layer says so
/// with `MPI_ERR_KEYVAL` whatever the engine would (Open MPI answers other classes).
pub(crate) fn refuse_predefined(
    kind: ObjectKind,
    keyval: c_int,
    action: &'static str,
) -> Result<()> {
    refuse_invalid(kind, keyval)?;
    if engine::facts().predefined_keyval(keyval).is_some() {
        return Err(Error::KeyvalPredefined { keyval, action });
    }
    Ok(())
}

/// MPI 4.1 §7.7.2: `MPI_KEYVAL_INVALID` is no keyval, and a predefined keyval of another kind
/// of object (`MPI_TAG_UB` on a window) is the wrong one: `MPI_ERR_KEYVAL` from the layer
/// whatever the engine would answer (Open MPI answers other classes, or flag = false).
pub(crate) fn refuse_invalid(kind: ObjectKind, keyval: c_int) -> Result<()> {
    let facts = engine::facts();
    if keyval == facts.keyval_invalid {
        return Err(Error::KeyvalInvalid);
    }
    match facts.predefined_keyval(keyval) {
        Some(found) if found != kind => Err(Error::KeyvalWrongKind {
            keyval,
            found,
            expected: kind,
        }),
        _ => Ok(()),
    }
}

pub(crate) unsafe fn create_keyval(
    kind: ObjectKind,
    copy_fn: Option<CopyAttrFunction>,
    delete_fn: Option<DeleteAttrFunction>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> Result<()> {
    layer_nonnull!(keyval);
    let k = cache().create_keyval(
        kind,
        c_copy_fn(kind, copy_fn),
        c_delete_fn(kind, delete_fn),
        extra_state as i64,
    )?;
    unsafe { *keyval = k };
    Ok(())
}

/// The hot create (NULL or the engine's predefined callbacks, a slot this thread freed ready
/// for reuse), answered without the boundary: true when done; false sends the call to the
/// full path, which also gives the precise error.
#[inline(always)]
unsafe fn create_keyval_fast(
    kind: ObjectKind,
    copy_fn: Option<CopyAttrFunction>,
    delete_fn: Option<DeleteAttrFunction>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> bool {
    if keyval.is_null() {
        return false;
    }
    let facts = engine::facts();
    let copy = match copy_fn.map(|f| f as usize) {
        None => CopyFn::Null,
        Some(f) if facts.copy_null.contains(&f) => CopyFn::Null,
        Some(f) if facts.copy_dup.contains(&f) => CopyFn::Dup,
        Some(_) => return false,
    };
    if delete_fn.is_some_and(|f| !facts.delete_null.contains(&(f as usize))) {
        return false;
    }
    let callbacks = callbacks_of(&copy, &DeleteFn::Null);
    match cache().try_create_native_keyval(kind, callbacks, extra_state as i64) {
        Some(k) => {
            // SAFETY: checked non-NULL above; the caller's output argument.
            unsafe { *keyval = k };
            true
        }
        None => false,
    }
}

/// The hot free (a live layer keyval that no attribute uses), answered without the boundary:
/// true when done.
#[inline(always)]
unsafe fn free_keyval_fast(kind: ObjectKind, keyval: *mut c_int) -> bool {
    if keyval.is_null() {
        return false;
    }
    // SAFETY: checked non-NULL above; the caller's INOUT argument.
    let k = unsafe { *keyval };
    if !is_own(k) {
        return false;
    }
    let Some(freed) = cache().try_free_keyval(kind, k) else {
        return false;
    };
    // SAFETY: as above.
    unsafe { *keyval = engine::facts().keyval_invalid };
    freed.recycle();
    true
}

pub(crate) unsafe fn free_keyval(kind: ObjectKind, keyval: *mut c_int) -> Result<()> {
    layer_nonnull!(keyval);
    let k = unsafe { *keyval };
    if !is_own(k) {
        refuse_predefined(kind, k, "freed")?;
        // SAFETY: the engine's routine, with the caller's pointer.
        return engine_rc(unsafe {
            match kind {
                ObjectKind::Comm => engine::PMPI_Comm_free_keyval(keyval),
                ObjectKind::Datatype => engine::PMPI_Type_free_keyval(keyval),
                ObjectKind::Win => engine::PMPI_Win_free_keyval(keyval),
            }
        });
    }
    cache().free_keyval(kind, k)?;
    unsafe { *keyval = engine::facts().keyval_invalid };
    Ok(())
}

pub(crate) fn set_attr(
    kind: ObjectKind,
    obj: Handle,
    keyval: c_int,
    val: *mut c_void,
) -> Result<()> {
    if !is_own(keyval) {
        refuse_predefined(kind, keyval, "set by users")?;
        // SAFETY: the engine's routine, with the caller's arguments.
        return engine_rc(unsafe {
            match kind {
                ObjectKind::Comm => engine::PMPI_Comm_set_attr(obj, keyval, val),
                ObjectKind::Datatype => engine::PMPI_Type_set_attr(obj, keyval, val),
                ObjectKind::Win => engine::PMPI_Win_set_attr(obj, keyval, val),
            }
        });
    }
    // The engine's handles are checked where a set could attach an attribute to a dead one.
    engine::check(kind, obj).map_err(engine_code)?;
    cache().set_attr(
        ObjRef::new(kind, key(kind, obj)),
        keyval,
        AttrWord::from_c_pointer(val as usize),
    )
}

/// The hot get, answered by the store without the lock or the boundary (a layer keyval, output
/// pointers given, a plain hit or miss): true when answered; false sends the call to the full
/// path, which also gives the precise error.
#[inline(always)]
pub(crate) unsafe fn get_attr_fast(
    kind: ObjectKind,
    obj: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> bool {
    if !is_own(keyval) || attribute_val.is_null() || flag.is_null() {
        return false;
    }
    let Some(store) = cache().live_store() else {
        return false;
    };
    match store.get_c_view(ObjRef::new(kind, key(kind, obj)), keyval) {
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

/// The full get, in the boundary: the path [`get_attr_fast`] declines (a function of its own,
/// so the hot path needs no stack frame).
#[cold]
#[inline(never)]
unsafe fn get_entry(
    name: &'static str,
    kind: ObjectKind,
    obj: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let scope = match kind {
        ObjectKind::Comm => Scope::Comm(obj),
        ObjectKind::Win => Scope::Win(obj),
        ObjectKind::Datatype => Scope::NoObject,
    };
    layer_entry!(name, scope, {
        unsafe { get_attr(kind, obj, keyval, attribute_val, flag) }
    })
}

/// C readers: `*(void**)attribute_val` gets the C view; nothing is written when the flag is
/// false.
pub(crate) unsafe fn get_attr(
    kind: ObjectKind,
    obj: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    if !is_own(keyval) {
        refuse_invalid(kind, keyval)?;
        // SAFETY: the engine's routine, with the caller's arguments.
        engine_rc(unsafe {
            match kind {
                ObjectKind::Comm => engine::PMPI_Comm_get_attr(obj, keyval, attribute_val, flag),
                ObjectKind::Datatype => {
                    engine::PMPI_Type_get_attr(obj, keyval, attribute_val, flag)
                }
                ObjectKind::Win => engine::PMPI_Win_get_attr(obj, keyval, attribute_val, flag),
            }
        })?;
        // docs/DESIGN.md "Predefined attributes": MPI_TAG_UB (and the other process-wide ones)
        // answers on every communicator; Open MPI sets them on MPI_COMM_WORLD and its dups
        // only, so a communicator without one answers MPI_COMM_WORLD's.
        if kind == ObjectKind::Comm
            && !flag.is_null()
            && unsafe { *flag } == 0
            && engine::facts().process_wide_keyval(keyval)
        {
            let world = engine::handle(ObjectKind::Comm, engine::facts().comm_world);
            // SAFETY: as above, on MPI_COMM_WORLD.
            engine_rc(unsafe { engine::PMPI_Comm_get_attr(world, keyval, attribute_val, flag) })?;
        }
        return Ok(());
    }
    layer_nonnull!(attribute_val, flag);
    engine::check(kind, obj).map_err(engine_code)?;
    match cache().get_attr_c_view(ObjRef::new(kind, key(kind, obj)), keyval)? {
        Some(c_view) => unsafe {
            *attribute_val.cast::<*mut c_void>() = c_view as *mut c_void;
            *flag = 1;
        },
        None => unsafe { *flag = 0 },
    }
    Ok(())
}

pub(crate) fn delete_attr(kind: ObjectKind, obj: Handle, keyval: c_int) -> Result<()> {
    if !is_own(keyval) {
        refuse_predefined(kind, keyval, "deleted by users")?;
        // SAFETY: the engine's routine, with the caller's arguments.
        return engine_rc(unsafe {
            match kind {
                ObjectKind::Comm => engine::PMPI_Comm_delete_attr(obj, keyval),
                ObjectKind::Datatype => engine::PMPI_Type_delete_attr(obj, keyval),
                ObjectKind::Win => engine::PMPI_Win_delete_attr(obj, keyval),
            }
        });
    }
    engine::check(kind, obj).map_err(engine_code)?;
    cache().delete_attr(ObjRef::new(kind, key(kind, obj)), keyval)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_keyval(
    comm_copy_attr_fn: Option<CopyAttrFunction>,
    comm_delete_attr_fn: Option<DeleteAttrFunction>,
    comm_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    if unsafe {
        create_keyval_fast(
            ObjectKind::Comm,
            comm_copy_attr_fn,
            comm_delete_attr_fn,
            comm_keyval,
            extra_state,
        )
    } {
        return crate::consts::MPI_SUCCESS;
    }
    layer_entry!("MPI_Comm_create_keyval", Scope::NoObject, {
        unsafe {
            create_keyval(
                ObjectKind::Comm,
                comm_copy_attr_fn,
                comm_delete_attr_fn,
                comm_keyval,
                extra_state,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_free_keyval(comm_keyval: *mut c_int) -> c_int {
    if unsafe { free_keyval_fast(ObjectKind::Comm, comm_keyval) } {
        return crate::consts::MPI_SUCCESS;
    }
    layer_entry!("MPI_Comm_free_keyval", Scope::NoObject, {
        unsafe { free_keyval(ObjectKind::Comm, comm_keyval) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_attr(
    comm: Handle,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    layer_entry!("MPI_Comm_set_attr", Scope::Comm(comm), {
        set_attr(ObjectKind::Comm, comm, comm_keyval, attribute_val)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_attr(
    comm: Handle,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    if unsafe { get_attr_fast(ObjectKind::Comm, comm, comm_keyval, attribute_val, flag) } {
        return crate::consts::MPI_SUCCESS;
    }
    unsafe {
        get_entry(
            "MPI_Comm_get_attr",
            ObjectKind::Comm,
            comm,
            comm_keyval,
            attribute_val,
            flag,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_delete_attr(comm: Handle, comm_keyval: c_int) -> c_int {
    layer_entry!("MPI_Comm_delete_attr", Scope::Comm(comm), {
        delete_attr(ObjectKind::Comm, comm, comm_keyval)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_keyval(
    type_copy_attr_fn: Option<CopyAttrFunction>,
    type_delete_attr_fn: Option<DeleteAttrFunction>,
    type_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    if unsafe {
        create_keyval_fast(
            ObjectKind::Datatype,
            type_copy_attr_fn,
            type_delete_attr_fn,
            type_keyval,
            extra_state,
        )
    } {
        return crate::consts::MPI_SUCCESS;
    }
    layer_entry!("MPI_Type_create_keyval", Scope::NoObject, {
        unsafe {
            create_keyval(
                ObjectKind::Datatype,
                type_copy_attr_fn,
                type_delete_attr_fn,
                type_keyval,
                extra_state,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free_keyval(type_keyval: *mut c_int) -> c_int {
    if unsafe { free_keyval_fast(ObjectKind::Datatype, type_keyval) } {
        return crate::consts::MPI_SUCCESS;
    }
    layer_entry!("MPI_Type_free_keyval", Scope::NoObject, {
        unsafe { free_keyval(ObjectKind::Datatype, type_keyval) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_set_attr(
    datatype: Handle,
    type_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    layer_entry!("MPI_Type_set_attr", Scope::NoObject, {
        set_attr(ObjectKind::Datatype, datatype, type_keyval, attribute_val)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_attr(
    datatype: Handle,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    if unsafe {
        get_attr_fast(
            ObjectKind::Datatype,
            datatype,
            type_keyval,
            attribute_val,
            flag,
        )
    } {
        return crate::consts::MPI_SUCCESS;
    }
    layer_entry!("MPI_Type_get_attr", Scope::NoObject, {
        unsafe {
            get_attr(
                ObjectKind::Datatype,
                datatype,
                type_keyval,
                attribute_val,
                flag,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_delete_attr(datatype: Handle, type_keyval: c_int) -> c_int {
    layer_entry!("MPI_Type_delete_attr", Scope::NoObject, {
        delete_attr(ObjectKind::Datatype, datatype, type_keyval)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_create_keyval(
    win_copy_attr_fn: Option<CopyAttrFunction>,
    win_delete_attr_fn: Option<DeleteAttrFunction>,
    win_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    if unsafe {
        create_keyval_fast(
            ObjectKind::Win,
            win_copy_attr_fn,
            win_delete_attr_fn,
            win_keyval,
            extra_state,
        )
    } {
        return crate::consts::MPI_SUCCESS;
    }
    layer_entry!("MPI_Win_create_keyval", Scope::NoObject, {
        unsafe {
            create_keyval(
                ObjectKind::Win,
                win_copy_attr_fn,
                win_delete_attr_fn,
                win_keyval,
                extra_state,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_free_keyval(win_keyval: *mut c_int) -> c_int {
    if unsafe { free_keyval_fast(ObjectKind::Win, win_keyval) } {
        return crate::consts::MPI_SUCCESS;
    }
    layer_entry!("MPI_Win_free_keyval", Scope::NoObject, {
        unsafe { free_keyval(ObjectKind::Win, win_keyval) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_set_attr(
    win: Handle,
    win_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    layer_entry!("MPI_Win_set_attr", Scope::Win(win), {
        set_attr(ObjectKind::Win, win, win_keyval, attribute_val)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_get_attr(
    win: Handle,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    if unsafe { get_attr_fast(ObjectKind::Win, win, win_keyval, attribute_val, flag) } {
        return crate::consts::MPI_SUCCESS;
    }
    unsafe {
        get_entry(
            "MPI_Win_get_attr",
            ObjectKind::Win,
            win,
            win_keyval,
            attribute_val,
            flag,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_delete_attr(win: Handle, win_keyval: c_int) -> c_int {
    layer_entry!("MPI_Win_delete_attr", Scope::Win(win), {
        delete_attr(ObjectKind::Win, win, win_keyval)
    })
}

// The deprecated MPI-1 forms (communicators, C convention).

#[no_mangle]
pub unsafe extern "C" fn MPI_Keyval_create(
    copy_fn: Option<CopyAttrFunction>,
    delete_fn: Option<DeleteAttrFunction>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    layer_entry!("MPI_Keyval_create", Scope::NoObject, {
        unsafe { create_keyval(ObjectKind::Comm, copy_fn, delete_fn, keyval, extra_state) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Keyval_free(keyval: *mut c_int) -> c_int {
    layer_entry!("MPI_Keyval_free", Scope::NoObject, {
        unsafe { free_keyval(ObjectKind::Comm, keyval) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_put(
    comm: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    layer_entry!("MPI_Attr_put", Scope::Comm(comm), {
        set_attr(ObjectKind::Comm, comm, keyval, attribute_val)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_get(
    comm: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    if unsafe { get_attr_fast(ObjectKind::Comm, comm, keyval, attribute_val, flag) } {
        return crate::consts::MPI_SUCCESS;
    }
    unsafe {
        get_entry(
            "MPI_Attr_get",
            ObjectKind::Comm,
            comm,
            keyval,
            attribute_val,
            flag,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_delete(comm: Handle, keyval: c_int) -> c_int {
    layer_entry!("MPI_Attr_delete", Scope::Comm(comm), {
        delete_attr(ObjectKind::Comm, comm, keyval)
    })
}
