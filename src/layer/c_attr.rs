//! The C caching routines over the engine (MPI 4.1 §7.7): keyvals and attributes on
//! communicators, datatypes and windows, and the deprecated MPI-1 forms. The layer's own
//! keyvals (tagged: caching/keyval/number.rs) are answered by the caching engine; any other
//! keyval (the engine's predefined ones, `MPI_KEYVAL_INVALID`, keyvals the engine's own code made
//! through `PMPI_`) goes to the engine, which answers and raises its errors as it would alone.
//!
//! One body per operation, driven by a [`Kind`]: what differs between the three kinds of object
//! is only the engine's routine a foreign keyval goes to and whose error handler hears of an
//! error.
#![allow(non_snake_case)]

use crate::caching::callback::{callbacks_of, CopyFn, DeleteFn};
use crate::caching::convert::AttrWord;
use crate::caching::keyval::is_own;
use crate::caching::store::Fast;
use crate::caching::ObjRef;
use crate::consts::MPI_SUCCESS;
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;
use crate::layer::boundary::{engine_code, engine_rc, Scope};
use crate::layer::callbacks::{c_copy_fn, c_delete_fn, CopyAttrFunction, DeleteAttrFunction};
use crate::layer::engine::{self, key, Handle};
use crate::layer::world::{cache, live_store};
use crate::{layer_entry, layer_nonnull};
use std::ffi::{c_int, c_void};

/// The engine's C caching routines of one kind of object.
pub(crate) struct Kind {
    pub kind: ObjectKind,
    free_keyval: unsafe extern "C" fn(*mut c_int) -> c_int,
    set_attr: unsafe extern "C" fn(Handle, c_int, *mut c_void) -> c_int,
    get_attr: unsafe extern "C" fn(Handle, c_int, *mut c_void, *mut c_int) -> c_int,
    delete_attr: unsafe extern "C" fn(Handle, c_int) -> c_int,
}

pub(crate) static COMM: Kind = Kind {
    kind: ObjectKind::Comm,
    free_keyval: engine::PMPI_Comm_free_keyval,
    set_attr: engine::PMPI_Comm_set_attr,
    get_attr: engine::PMPI_Comm_get_attr,
    delete_attr: engine::PMPI_Comm_delete_attr,
};

pub(crate) static TYPE: Kind = Kind {
    kind: ObjectKind::Datatype,
    free_keyval: engine::PMPI_Type_free_keyval,
    set_attr: engine::PMPI_Type_set_attr,
    get_attr: engine::PMPI_Type_get_attr,
    delete_attr: engine::PMPI_Type_delete_attr,
};

pub(crate) static WIN: Kind = Kind {
    kind: ObjectKind::Win,
    free_keyval: engine::PMPI_Win_free_keyval,
    set_attr: engine::PMPI_Win_set_attr,
    get_attr: engine::PMPI_Win_get_attr,
    delete_attr: engine::PMPI_Win_delete_attr,
};

impl Kind {
    #[inline(always)]
    fn scope(&self, h: Handle) -> Scope {
        scope_of(self.kind, h)
    }
}

/// Whose error handler hears of an error about the object `h` of `kind` (MPI 4.1 §9.3:
/// datatypes have none, `MPI_COMM_SELF`'s serves).
pub(crate) fn scope_of(kind: ObjectKind, h: Handle) -> Scope {
    match kind {
        ObjectKind::Comm => Scope::Comm(h),
        ObjectKind::Win => Scope::Win(h),
        ObjectKind::Datatype => Scope::NoObject,
    }
}

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

// ---- create and free keyval -----------------------------------------------------------------

/// # Safety
/// `keyval` is NULL or writable.
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
    // SAFETY: checked non-NULL above; the caller's output argument (MPI 4.1 §7.7.2).
    unsafe { *keyval = k };
    Ok(())
}

/// The hot create (NULL or the engine's predefined callbacks, a slot this thread freed ready
/// for reuse), answered without the boundary: true when done; false sends the call to the full
/// path, which also gives the precise error.
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

/// `MPI_{Comm,Type,Win}_create_keyval`, `MPI_Keyval_create`: the hot path, else the boundary.
#[inline(always)]
unsafe fn create_entry(
    name: &'static str,
    kind: ObjectKind,
    copy_fn: Option<CopyAttrFunction>,
    delete_fn: Option<DeleteAttrFunction>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the caller's arguments, as the entry point received them; NULL is checked there.
    if unsafe { create_keyval_fast(kind, copy_fn, delete_fn, keyval, extra_state) } {
        return MPI_SUCCESS;
    }
    layer_entry!(name, Scope::NoObject, {
        // SAFETY: as above.
        unsafe { create_keyval(kind, copy_fn, delete_fn, keyval, extra_state) }
    })
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

/// # Safety
/// `keyval` is NULL or readable and writable.
pub(crate) unsafe fn free_keyval(of: &Kind, keyval: *mut c_int) -> Result<()> {
    layer_nonnull!(keyval);
    // SAFETY: checked non-NULL above; the caller's INOUT argument.
    let k = unsafe { *keyval };
    if !is_own(k) {
        refuse_predefined(of.kind, k, "freed")?;
        // SAFETY: the engine's own free_keyval, with the caller's pointer (non-NULL).
        return engine_rc(unsafe { (of.free_keyval)(keyval) });
    }
    cache().free_keyval(of.kind, k)?;
    // SAFETY: as above.
    unsafe { *keyval = engine::facts().keyval_invalid };
    Ok(())
}

/// `MPI_{Comm,Type,Win}_free_keyval`, `MPI_Keyval_free`.
#[inline(always)]
unsafe fn free_entry(name: &'static str, of: &'static Kind, keyval: *mut c_int) -> c_int {
    // SAFETY: the caller's argument; NULL is checked there.
    if unsafe { free_keyval_fast(of.kind, keyval) } {
        return MPI_SUCCESS;
    }
    layer_entry!(name, Scope::NoObject, {
        // SAFETY: as above.
        unsafe { free_keyval(of, keyval) }
    })
}

// ---- set ------------------------------------------------------------------------------------

pub(crate) fn set_attr(of: &Kind, obj: Handle, keyval: c_int, val: *mut c_void) -> Result<()> {
    let kind = of.kind;
    if !is_own(keyval) {
        refuse_predefined(kind, keyval, "set by users")?;
        // SAFETY: the engine's own set_attr, with the caller's arguments (a value is never read
        // through).
        return engine_rc(unsafe { (of.set_attr)(obj, keyval, val) });
    }
    // The engine's handles are checked where a set could attach an attribute to a dead one.
    engine::check(kind, obj).map_err(engine_code)?;
    cache().set_attr(
        ObjRef::new(kind, key(kind, obj)),
        keyval,
        AttrWord::from_c_pointer(val as usize),
    )
}

/// A set overwriting a value without a delete callback to run, done by the store without the
/// lock: true when done. The object is the one the attribute was set on (its record is bound
/// to its key, and every free the layer sees unbinds it first), so no engine check is needed.
#[inline(always)]
fn set_attr_fast(kind: ObjectKind, obj: Handle, keyval: c_int, val: *mut c_void) -> bool {
    if !is_own(keyval) {
        return false;
    }
    let Some(store) = live_store() else {
        return false;
    };
    store.try_overwrite(
        ObjRef::new(kind, key(kind, obj)),
        keyval,
        AttrWord::from_c_pointer(val as usize),
    )
}

/// `MPI_{Comm,Type,Win}_set_attr`, `MPI_Attr_put`.
#[inline(always)]
fn set_entry(
    name: &'static str,
    of: &'static Kind,
    obj: Handle,
    keyval: c_int,
    val: *mut c_void,
) -> c_int {
    if set_attr_fast(of.kind, obj, keyval, val) {
        return MPI_SUCCESS;
    }
    set_slow(name, of, obj, keyval, val)
}

#[cold]
#[inline(never)]
fn set_slow(
    name: &'static str,
    of: &'static Kind,
    obj: Handle,
    keyval: c_int,
    val: *mut c_void,
) -> c_int {
    layer_entry!(name, of.scope(obj), { set_attr(of, obj, keyval, val) })
}

// ---- get ------------------------------------------------------------------------------------

/// The hot get, answered by the store without the lock or the boundary (a layer keyval, output
/// pointers given, a plain hit or miss): true when answered; false sends the call to the full
/// path, which also gives the precise error.
///
/// # Safety
/// `attribute_val` and `flag` are NULL or writable (`void **`, `int *`).
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
    let Some(store) = live_store() else {
        return false;
    };
    match store.get_c_view(ObjRef::new(kind, key(kind, obj)), keyval) {
        // SAFETY: both checked non-NULL above; the caller's output arguments.
        Fast::Hit(c_view) => unsafe {
            *attribute_val.cast::<*mut c_void>() = c_view as *mut c_void;
            *flag = 1;
            true
        },
        // SAFETY: as above.
        Fast::Miss => unsafe {
            *flag = 0;
            true
        },
        Fast::Slow => false,
    }
}

/// C readers: `*(void**)attribute_val` gets the C view; nothing is written when the flag is
/// false.
///
/// # Safety
/// `attribute_val` and `flag` are NULL or writable (`void **`, `int *`).
pub(crate) unsafe fn get_attr(
    of: &Kind,
    obj: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    let kind = of.kind;
    if !is_own(keyval) {
        refuse_invalid(kind, keyval)?;
        // SAFETY: the engine's own get_attr, with the caller's arguments (it checks them).
        engine_rc(unsafe { (of.get_attr)(obj, keyval, attribute_val, flag) })?;
        // docs/DESIGN.md "Predefined attributes": MPI_TAG_UB (and the other process-wide ones)
        // answers on every communicator; Open MPI sets them on MPI_COMM_WORLD and its dups
        // only, so a communicator without one answers MPI_COMM_WORLD's.
        if kind == ObjectKind::Comm
            && !flag.is_null()
            // SAFETY: non-NULL, and the engine's call above succeeded, so it wrote it.
            && unsafe { *flag } == 0
            && engine::facts().process_wide_keyval(keyval)
        {
            let world = engine::handle(ObjectKind::Comm, engine::facts().comm_world);
            // SAFETY: the engine's own get_attr on MPI_COMM_WORLD, with the caller's outputs.
            engine_rc(unsafe { (of.get_attr)(world, keyval, attribute_val, flag) })?;
        }
        return Ok(());
    }
    layer_nonnull!(attribute_val, flag);
    engine::check(kind, obj).map_err(engine_code)?;
    match cache().get_attr_c_view(ObjRef::new(kind, key(kind, obj)), keyval)? {
        // SAFETY: both checked non-NULL above; the caller's output arguments.
        Some(c_view) => unsafe {
            *attribute_val.cast::<*mut c_void>() = c_view as *mut c_void;
            *flag = 1;
        },
        // SAFETY: as above.
        None => unsafe { *flag = 0 },
    }
    Ok(())
}

/// `MPI_{Comm,Type,Win}_get_attr`, `MPI_Attr_get`: the hot path inline, the rest out of line
/// (so the hot path needs no stack frame).
#[inline(always)]
unsafe fn get_entry(
    name: &'static str,
    of: &'static Kind,
    obj: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    // SAFETY: the caller's arguments, as the entry point received them (MPI's contract:
    // `attribute_val` a `void **`, `flag` an `int *`, or NULL, which is checked).
    if unsafe { get_attr_fast(of.kind, obj, keyval, attribute_val, flag) } {
        return MPI_SUCCESS;
    }
    // SAFETY: as above.
    unsafe { get_slow(name, of, obj, keyval, attribute_val, flag) }
}

#[cold]
#[inline(never)]
unsafe fn get_slow(
    name: &'static str,
    of: &'static Kind,
    obj: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    layer_entry!(name, of.scope(obj), {
        // SAFETY: the caller's arguments (see get_entry).
        unsafe { get_attr(of, obj, keyval, attribute_val, flag) }
    })
}

// ---- delete ---------------------------------------------------------------------------------

pub(crate) fn delete_attr(of: &Kind, obj: Handle, keyval: c_int) -> Result<()> {
    let kind = of.kind;
    if !is_own(keyval) {
        refuse_predefined(kind, keyval, "deleted by users")?;
        // SAFETY: the engine's own delete_attr, with the caller's arguments (it checks them).
        return engine_rc(unsafe { (of.delete_attr)(obj, keyval) });
    }
    engine::check(kind, obj).map_err(engine_code)?;
    cache().delete_attr(ObjRef::new(kind, key(kind, obj)), keyval)
}

/// `MPI_{Comm,Type,Win}_delete_attr`, `MPI_Attr_delete`.
fn delete_entry(name: &'static str, of: &'static Kind, obj: Handle, keyval: c_int) -> c_int {
    layer_entry!(name, of.scope(obj), { delete_attr(of, obj, keyval) })
}

// ---- the entry points -----------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_keyval(
    comm_copy_attr_fn: Option<CopyAttrFunction>,
    comm_delete_attr_fn: Option<DeleteAttrFunction>,
    comm_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the caller's arguments, under MPI's contract for this routine.
    unsafe {
        create_entry(
            "MPI_Comm_create_keyval",
            ObjectKind::Comm,
            comm_copy_attr_fn,
            comm_delete_attr_fn,
            comm_keyval,
            extra_state,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_free_keyval(comm_keyval: *mut c_int) -> c_int {
    // SAFETY: the caller's argument, under MPI's contract for this routine.
    unsafe { free_entry("MPI_Comm_free_keyval", &COMM, comm_keyval) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_attr(
    comm: Handle,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    set_entry("MPI_Comm_set_attr", &COMM, comm, comm_keyval, attribute_val)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_attr(
    comm: Handle,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    // SAFETY: the caller's arguments, under MPI's contract for this routine.
    unsafe {
        get_entry(
            "MPI_Comm_get_attr",
            &COMM,
            comm,
            comm_keyval,
            attribute_val,
            flag,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_delete_attr(comm: Handle, comm_keyval: c_int) -> c_int {
    delete_entry("MPI_Comm_delete_attr", &COMM, comm, comm_keyval)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_keyval(
    type_copy_attr_fn: Option<CopyAttrFunction>,
    type_delete_attr_fn: Option<DeleteAttrFunction>,
    type_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the caller's arguments, under MPI's contract for this routine.
    unsafe {
        create_entry(
            "MPI_Type_create_keyval",
            ObjectKind::Datatype,
            type_copy_attr_fn,
            type_delete_attr_fn,
            type_keyval,
            extra_state,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free_keyval(type_keyval: *mut c_int) -> c_int {
    // SAFETY: the caller's argument, under MPI's contract for this routine.
    unsafe { free_entry("MPI_Type_free_keyval", &TYPE, type_keyval) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_set_attr(
    datatype: Handle,
    type_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    set_entry(
        "MPI_Type_set_attr",
        &TYPE,
        datatype,
        type_keyval,
        attribute_val,
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_attr(
    datatype: Handle,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    // SAFETY: the caller's arguments, under MPI's contract for this routine.
    unsafe {
        get_entry(
            "MPI_Type_get_attr",
            &TYPE,
            datatype,
            type_keyval,
            attribute_val,
            flag,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_delete_attr(datatype: Handle, type_keyval: c_int) -> c_int {
    delete_entry("MPI_Type_delete_attr", &TYPE, datatype, type_keyval)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_create_keyval(
    win_copy_attr_fn: Option<CopyAttrFunction>,
    win_delete_attr_fn: Option<DeleteAttrFunction>,
    win_keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the caller's arguments, under MPI's contract for this routine.
    unsafe {
        create_entry(
            "MPI_Win_create_keyval",
            ObjectKind::Win,
            win_copy_attr_fn,
            win_delete_attr_fn,
            win_keyval,
            extra_state,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_free_keyval(win_keyval: *mut c_int) -> c_int {
    // SAFETY: the caller's argument, under MPI's contract for this routine.
    unsafe { free_entry("MPI_Win_free_keyval", &WIN, win_keyval) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_set_attr(
    win: Handle,
    win_keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    set_entry("MPI_Win_set_attr", &WIN, win, win_keyval, attribute_val)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_get_attr(
    win: Handle,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    // SAFETY: the caller's arguments, under MPI's contract for this routine.
    unsafe {
        get_entry(
            "MPI_Win_get_attr",
            &WIN,
            win,
            win_keyval,
            attribute_val,
            flag,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_delete_attr(win: Handle, win_keyval: c_int) -> c_int {
    delete_entry("MPI_Win_delete_attr", &WIN, win, win_keyval)
}

// The deprecated MPI-1 forms (communicators, C convention).

#[no_mangle]
pub unsafe extern "C" fn MPI_Keyval_create(
    copy_fn: Option<CopyAttrFunction>,
    delete_fn: Option<DeleteAttrFunction>,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> c_int {
    // SAFETY: the caller's arguments, under MPI's contract for this routine.
    unsafe {
        create_entry(
            "MPI_Keyval_create",
            ObjectKind::Comm,
            copy_fn,
            delete_fn,
            keyval,
            extra_state,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Keyval_free(keyval: *mut c_int) -> c_int {
    // SAFETY: the caller's argument, under MPI's contract for this routine.
    unsafe { free_entry("MPI_Keyval_free", &COMM, keyval) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_put(
    comm: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
) -> c_int {
    set_entry("MPI_Attr_put", &COMM, comm, keyval, attribute_val)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_get(
    comm: Handle,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    // SAFETY: the caller's arguments, under MPI's contract for this routine.
    unsafe { get_entry("MPI_Attr_get", &COMM, comm, keyval, attribute_val, flag) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Attr_delete(comm: Handle, keyval: c_int) -> c_int {
    delete_entry("MPI_Attr_delete", &COMM, comm, keyval)
}
