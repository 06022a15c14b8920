//! The tool information interface (MPI 4.1 §15.3): life, control and performance variables,
//! categories and enumerations (events and sources: tool_events.rs). These routines return
//! their codes directly and call no error handler; every output argument of the `*_get_info`
//! calls may be NULL (then it is not written), and a string argument with its length works as
//! MPI 4.1 §15.3.3 says: a length of 0 (or a NULL buffer) asks for the length only, otherwise
//! at most length-1 characters and a NUL are written; the length returned counts the NUL.

use crate::capi::types::*;
use crate::consts::*;
use crate::world::tool::vars::{cvar_read, cvar_write, pvar_read, Value, ENUMS};
use crate::world::tool::{self, TResult};
use std::ffi::{c_char, c_int, c_void};

/// Runs a tool routine's body: its code on failure, `MPI_T_ERR_INVALID` for a panic (which
/// never crosses into C).
#[macro_export]
macro_rules! tool_entry {
    ($body:block) => {{
        match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(
            || -> $crate::world::tool::TResult<()> { $body },
        )) {
            Ok(Ok(())) => $crate::consts::MPI_SUCCESS,
            Ok(Err(code)) => code,
            Err(_) => $crate::consts::MPI_T_ERR_INVALID,
        }
    }};
}

/// Writes `v` where `p` points, unless `p` is NULL.
///
/// # Safety
/// `p` is NULL or valid for a write of a `T` (an entry point's output argument).
pub(crate) unsafe fn put<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: not NULL, and writable by this function's contract.
        unsafe { p.write(v) }
    }
}

/// A string output with its INOUT length (MPI 4.1 §15.3.3).
///
/// # Safety
/// `buf` is NULL or has `*len` writable bytes; `len` is NULL or a writable int.
pub(crate) unsafe fn put_str(buf: *mut c_char, len: *mut c_int, s: &str) {
    if len.is_null() {
        return;
    }
    // SAFETY: not NULL (checked), an int the caller passed.
    let room = unsafe { *len };
    let n = if buf.is_null() || room <= 0 {
        s.len()
    } else {
        // SAFETY: `buf` has `room` bytes (this function's contract).
        unsafe { crate::boundary::write_c_string(buf, room as usize, s) as usize }
    };
    // SAFETY: as above.
    unsafe { *len = (n + 1) as c_int };
}

/// Copies up to `len` of `items` into `out` (the category listing calls).
///
/// # Safety
/// `out` is NULL or has `len` writable ints.
unsafe fn put_list(items: &[i32], len: c_int, out: *mut c_int) -> TResult<()> {
    let n = usize::try_from(len).map_err(|_| MPI_T_ERR_INVALID)?;
    if n > 0 && out.is_null() {
        return Err(MPI_T_ERR_INVALID);
    }
    for (i, &v) in items.iter().take(n).enumerate() {
        // SAFETY: `out` has `len` ints (the standard's contract), `i < len`.
        unsafe { *out.add(i) = v };
    }
    Ok(())
}

/// A C string argument (names to look up), or `MPI_T_ERR_INVALID` when NULL.
///
/// # Safety
/// `s` is NULL or NUL-terminated.
pub(crate) unsafe fn get_str(s: *const c_char) -> TResult<String> {
    if s.is_null() {
        return Err(MPI_T_ERR_INVALID);
    }
    // SAFETY: NUL-terminated (this function's contract), not NULL.
    unsafe { crate::boundary::read_c_string(s) }.map_err(|_| MPI_T_ERR_MEMORY)
}

/// An output pointer that must be given.
macro_rules! need {
    ($($p:ident),+) => { $(if $p.is_null() { return Err(MPI_T_ERR_INVALID); })+ };
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_init_thread(required: c_int, provided: *mut c_int) -> c_int {
    tool_entry!({
        need!(provided);
        let level = tool::init_thread(required)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(provided, level) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_finalize() -> c_int {
    tool_entry!({ tool::finalize() })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_enum_get_info(
    enumtype: MPI_T_enum,
    num: *mut c_int,
    name: *mut c_char,
    name_len: *mut c_int,
) -> c_int {
    tool_entry!({
        drop(tool::active()?);
        let e = &ENUMS[tool::index(enumtype.wrapping_sub(1), ENUMS.len())
            .map_err(|_| MPI_T_ERR_INVALID_HANDLE)?];
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put(num, e.items.len() as c_int);
            put_str(name, name_len, e.name);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_enum_get_item(
    enumtype: MPI_T_enum,
    index: c_int,
    value: *mut c_int,
    name: *mut c_char,
    name_len: *mut c_int,
) -> c_int {
    tool_entry!({
        drop(tool::active()?);
        let e = &ENUMS[tool::index(enumtype.wrapping_sub(1), ENUMS.len())
            .map_err(|_| MPI_T_ERR_INVALID_HANDLE)?];
        let (v, n) = e.items[tool::index(index, e.items.len())?];
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put(value, v);
            put_str(name, name_len, n);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_cvar_get_num(num_cvar: *mut c_int) -> c_int {
    tool_entry!({
        need!(num_cvar);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(num_cvar, tool::cvars().len() as c_int) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_cvar_get_info(
    cvar_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    verbosity: *mut c_int,
    datatype: *mut MPI_Datatype,
    enumtype: *mut MPI_T_enum,
    desc: *mut c_char,
    desc_len: *mut c_int,
    bind: *mut c_int,
    scope: *mut c_int,
) -> c_int {
    tool_entry!({
        drop(tool::active()?);
        let v = &tool::cvars()[tool::index(cvar_index, tool::cvars().len())?];
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put_str(name, name_len, &v.name);
            put(verbosity, v.verbosity);
            put(datatype, v.datatype);
            put(enumtype, v.enumtype);
            put_str(desc, desc_len, &v.desc);
            put(bind, v.bind);
            put(scope, v.scope);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_cvar_get_index(
    name: *const c_char,
    cvar_index: *mut c_int,
) -> c_int {
    tool_entry!({
        need!(cvar_index);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        let name = unsafe { get_str(name)? };
        let i = tool::find(tool::cvars().iter().map(|v| v.name.as_str()), &name)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(cvar_index, i) };
        Ok(())
    })
}

/// No control variable is bound to an object: `obj_handle` is ignored.
#[no_mangle]
pub unsafe extern "C" fn MPI_T_cvar_handle_alloc(
    cvar_index: c_int,
    obj_handle: *mut c_void,
    handle: *mut MPI_T_cvar_handle,
    count: *mut c_int,
) -> c_int {
    let _ = obj_handle;
    tool_entry!({
        need!(handle, count);
        let (h, n) = tool::cvar_handle_alloc(cvar_index)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put(handle, h);
            put(count, n);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_cvar_handle_free(handle: *mut MPI_T_cvar_handle) -> c_int {
    tool_entry!({
        need!(handle);
        // SAFETY: `handle` is not NULL (`need!` above) and is the routine's INOUT handle,
        // readable and writable during the call (MPI's contract, capi/mod.rs).
        tool::cvar_handle_free(unsafe { *handle })?;
        // SAFETY: the same `handle`, not NULL and writable: the freed handle becomes the null one.
        unsafe { put(handle, MPI_T_CVAR_HANDLE_NULL) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_cvar_read(handle: MPI_T_cvar_handle, buf: *mut c_void) -> c_int {
    tool_entry!({
        need!(buf);
        let v = tool::cvar_of(handle)?;
        // SAFETY: `buf` holds one element of the variable's datatype (MPI 4.1 §15.3.6).
        match cvar_read(&v.what) {
            // SAFETY: `buf` is not NULL (checked above) and holds one element of the variable's
            // datatype (MPI 4.1 §15.3.6).
            Value::Int(x) => unsafe { buf.cast::<c_int>().write_unaligned(x) },
            // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
            Value::U64(x) => unsafe { buf.cast::<u64>().write_unaligned(x) },
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_cvar_write(handle: MPI_T_cvar_handle, buf: *const c_void) -> c_int {
    tool_entry!({
        need!(buf);
        let v = tool::cvar_of(handle)?;
        if v.scope == MPI_T_SCOPE_CONSTANT || v.scope == MPI_T_SCOPE_READONLY {
            return Err(MPI_T_ERR_CVAR_SET_NEVER);
        }
        // SAFETY: `buf` holds one element of the variable's datatype (an int for every
        // writable variable here).
        let x = unsafe { buf.cast::<c_int>().read_unaligned() };
        cvar_write(&v.what, x)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_get_num(num_pvar: *mut c_int) -> c_int {
    tool_entry!({
        need!(num_pvar);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(num_pvar, tool::pvars().len() as c_int) };
        Ok(())
    })
}

/// Every performance variable here is a level (`MPI_T_PVAR_CLASS_LEVEL`) of type
/// `MPI_UNSIGNED_LONG_LONG`, read-only, continuous and not atomic.
#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_get_info(
    pvar_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    verbosity: *mut c_int,
    var_class: *mut c_int,
    datatype: *mut MPI_Datatype,
    enumtype: *mut MPI_T_enum,
    desc: *mut c_char,
    desc_len: *mut c_int,
    bind: *mut c_int,
    readonly: *mut c_int,
    continuous: *mut c_int,
    atomic: *mut c_int,
) -> c_int {
    tool_entry!({
        drop(tool::active()?);
        let v = &tool::pvars()[tool::index(pvar_index, tool::pvars().len())?];
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put_str(name, name_len, &v.name);
            put(verbosity, MPI_T_VERBOSITY_USER_DETAIL);
            put(var_class, MPI_T_PVAR_CLASS_LEVEL);
            put(datatype, MPI_UNSIGNED_LONG_LONG);
            put(enumtype, MPI_T_ENUM_NULL);
            put_str(desc, desc_len, &v.desc);
            put(bind, v.bind);
            put(readonly, 1);
            put(continuous, 1);
            put(atomic, 0);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_get_index(
    name: *const c_char,
    var_class: c_int,
    pvar_index: *mut c_int,
) -> c_int {
    tool_entry!({
        need!(pvar_index);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        let name = unsafe { get_str(name)? };
        // Names are unique per class; every variable here is a level.
        if var_class != MPI_T_PVAR_CLASS_LEVEL {
            return Err(MPI_T_ERR_INVALID_NAME);
        }
        let i = tool::find(tool::pvars().iter().map(|v| v.name.as_str()), &name)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(pvar_index, i) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_session_create(session: *mut MPI_T_pvar_session) -> c_int {
    tool_entry!({
        need!(session);
        let s = tool::pvar_session_create()?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(session, s) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_session_free(session: *mut MPI_T_pvar_session) -> c_int {
    tool_entry!({
        need!(session);
        // SAFETY: `session` is not NULL (`need!` above) and is the routine's INOUT handle,
        // readable and writable during the call (MPI's contract, capi/mod.rs).
        tool::pvar_session_free(unsafe { *session })?;
        // SAFETY: the same `session`, not NULL and writable: the freed handle becomes the null one.
        unsafe { put(session, MPI_T_PVAR_SESSION_NULL) };
        Ok(())
    })
}

/// A variable bound to a communicator, datatype or window reads the handle `obj_handle`
/// points to.
#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_handle_alloc(
    session: MPI_T_pvar_session,
    pvar_index: c_int,
    obj_handle: *mut c_void,
    handle: *mut MPI_T_pvar_handle,
    count: *mut c_int,
) -> c_int {
    tool_entry!({
        need!(handle, count);
        // SAFETY: for a bound variable, `obj_handle` points to the object's handle (an int).
        let obj = (!obj_handle.is_null()).then(|| unsafe { obj_handle.cast::<c_int>().read() });
        let (h, n) = tool::pvar_handle_alloc(session, pvar_index, obj)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put(handle, h);
            put(count, n);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_handle_free(
    session: MPI_T_pvar_session,
    handle: *mut MPI_T_pvar_handle,
) -> c_int {
    tool_entry!({
        need!(handle);
        // SAFETY: `handle` is not NULL (`need!` above) and is the routine's INOUT handle,
        // readable and writable during the call (MPI's contract, capi/mod.rs).
        tool::pvar_handle_free(session, unsafe { *handle })?;
        // SAFETY: the same `handle`, not NULL and writable: the freed handle becomes the null one.
        unsafe { put(handle, MPI_T_PVAR_HANDLE_NULL) };
        Ok(())
    })
}

/// Start and stop: every variable here is continuous (`MPI_T_ERR_PVAR_NO_STARTSTOP`); with
/// `MPI_T_PVAR_ALL_HANDLES` there is nothing to start or stop.
fn start_stop(session: MPI_T_pvar_session, handle: MPI_T_pvar_handle) -> TResult<()> {
    if handle == MPI_T_PVAR_ALL_HANDLES {
        return tool::pvar_session(session);
    }
    tool::pvar_of(session, handle)?;
    Err(MPI_T_ERR_PVAR_NO_STARTSTOP)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_start(
    session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
) -> c_int {
    tool_entry!({ start_stop(session, handle) })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_stop(
    session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
) -> c_int {
    tool_entry!({ start_stop(session, handle) })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_read(
    session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
    buf: *mut c_void,
) -> c_int {
    tool_entry!({
        need!(buf);
        let (v, obj) = tool::pvar_of(session, handle)?;
        let x = pvar_read(v.what, obj)?;
        // SAFETY: `buf` holds one MPI_UNSIGNED_LONG_LONG (the variable's type and count).
        unsafe { buf.cast::<u64>().write_unaligned(x) };
        Ok(())
    })
}

/// Writes and resets: every variable here is read-only (`MPI_T_ERR_PVAR_NO_WRITE`).
fn no_write(session: MPI_T_pvar_session, handle: MPI_T_pvar_handle, all_ok: bool) -> TResult<()> {
    if all_ok && handle == MPI_T_PVAR_ALL_HANDLES {
        // Resets every handle that is not read-only: none.
        return tool::pvar_session(session);
    }
    tool::pvar_of(session, handle)?;
    Err(MPI_T_ERR_PVAR_NO_WRITE)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_write(
    session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
    buf: *const c_void,
) -> c_int {
    tool_entry!({
        need!(buf);
        no_write(session, handle, false)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_reset(
    session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
) -> c_int {
    tool_entry!({ no_write(session, handle, true) })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_pvar_readreset(
    session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
    buf: *mut c_void,
) -> c_int {
    tool_entry!({
        need!(buf);
        no_write(session, handle, false)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_get_num(num_cat: *mut c_int) -> c_int {
    tool_entry!({
        need!(num_cat);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(num_cat, tool::categories().len() as c_int) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_get_info(
    cat_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    desc: *mut c_char,
    desc_len: *mut c_int,
    num_cvars: *mut c_int,
    num_pvars: *mut c_int,
    num_categories: *mut c_int,
) -> c_int {
    tool_entry!({
        drop(tool::active()?);
        let c = &tool::categories()[tool::index(cat_index, tool::categories().len())?];
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put_str(name, name_len, c.name);
            put_str(desc, desc_len, c.desc);
            put(num_cvars, c.cvars.len() as c_int);
            put(num_pvars, c.pvars.len() as c_int);
            put(num_categories, c.categories.len() as c_int);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_get_num_events(
    cat_index: c_int,
    num_events: *mut c_int,
) -> c_int {
    tool_entry!({
        need!(num_events);
        drop(tool::active()?);
        let c = &tool::categories()[tool::index(cat_index, tool::categories().len())?];
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(num_events, c.events.len() as c_int) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_get_index(
    name: *const c_char,
    cat_index: *mut c_int,
) -> c_int {
    tool_entry!({
        need!(cat_index);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        let name = unsafe { get_str(name)? };
        let i = tool::find(tool::categories().iter().map(|c| c.name), &name)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(cat_index, i) };
        Ok(())
    })
}

/// The members of a category of one sort (`pick`).
unsafe fn category_list(
    cat_index: c_int,
    len: c_int,
    indices: *mut c_int,
    pick: fn(&tool::vars::Category) -> &[i32],
) -> TResult<()> {
    drop(tool::active()?);
    let c = &tool::categories()[tool::index(cat_index, tool::categories().len())?];
    // SAFETY: `indices` has `len` ints (the standard's contract).
    unsafe { put_list(pick(c), len, indices) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_get_cvars(
    cat_index: c_int,
    len: c_int,
    indices: *mut c_int,
) -> c_int {
    // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
    tool_entry!({ unsafe { category_list(cat_index, len, indices, |c| &c.cvars) } })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_get_pvars(
    cat_index: c_int,
    len: c_int,
    indices: *mut c_int,
) -> c_int {
    // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
    tool_entry!({ unsafe { category_list(cat_index, len, indices, |c| &c.pvars) } })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_get_categories(
    cat_index: c_int,
    len: c_int,
    indices: *mut c_int,
) -> c_int {
    // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
    tool_entry!({ unsafe { category_list(cat_index, len, indices, |c| &c.categories) } })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_get_events(
    cat_index: c_int,
    len: c_int,
    indices: *mut c_int,
) -> c_int {
    // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
    tool_entry!({ unsafe { category_list(cat_index, len, indices, |c| &c.events) } })
}

/// The categories never change while the process runs: the update number stays 0.
#[no_mangle]
pub unsafe extern "C" fn MPI_T_category_changed(update_number: *mut c_int) -> c_int {
    tool_entry!({
        need!(update_number);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(update_number, 0) };
        Ok(())
    })
}
