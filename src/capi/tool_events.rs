//! Events and sources of the tool information interface (MPI 4.1 §15.3.8): what they are is in
//! world/tool/events.rs. Info arguments are info objects of the library, which exist only
//! while `MPI_Init` or a session has built its objects: before, only `MPI_INFO_NULL` is taken
//! and an info cannot be returned (`MPI_T_ERR_INVALID`). No hint is taken: the info calls
//! return empty infos.

use crate::capi::tool::{get_str, put, put_str};
use crate::capi::types::*;
use crate::consts::*;
use crate::tool_entry;
use crate::world::tool::events::{self, DroppedCallback, EventCallback, EVENTS, SOURCES};
use crate::world::tool::{self, TResult};
use crate::world::{Handle, HandleKind, Runtime};
use std::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

macro_rules! need {
    ($($p:ident),+) => { $(if $p.is_null() { return Err(MPI_T_ERR_INVALID); })+ };
}

/// Checks an info argument (`MPI_INFO_NULL` or a live info).
fn check_info(info: MPI_Info) -> TResult<()> {
    if info == MPI_INFO_NULL {
        return Ok(());
    }
    Runtime::global()
        .check_handle(HandleKind::Info, Handle(info))
        .map_err(|_| MPI_T_ERR_INVALID)
}

/// A new, empty info for the `*_get_info` calls.
fn new_info() -> TResult<MPI_Info> {
    Runtime::global()
        .info_create()
        .map(|h| h.0)
        .map_err(|_| MPI_T_ERR_INVALID)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_get_num(num_events: *mut c_int) -> c_int {
    tool_entry!({
        need!(num_events);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(num_events, EVENTS.len() as c_int) };
        Ok(())
    })
}

/// `*num_elements` is the room of the two arrays on input (0: ask for the count only) and the
/// number of elements on output. The info returned (when asked for) is a new empty info.
#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_get_info(
    event_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    verbosity: *mut c_int,
    array_of_datatypes: *mut MPI_Datatype,
    array_of_displacements: *mut MPI_Aint,
    num_elements: *mut c_int,
    enumtype: *mut MPI_T_enum,
    info: *mut MPI_Info,
    desc: *mut c_char,
    desc_len: *mut c_int,
    bind: *mut c_int,
) -> c_int {
    tool_entry!({
        drop(tool::active()?);
        let e = &EVENTS[tool::index(event_index, EVENTS.len())?];
        if !num_elements.is_null() {
            // SAFETY: an int the caller passed (checked non-NULL).
            let room = usize::try_from(unsafe { *num_elements }).unwrap_or(0);
            for (i, &(t, d)) in e.elements.iter().take(room).enumerate() {
                // SAFETY: both arrays have `*num_elements` entries when not NULL.
                unsafe {
                    if !array_of_datatypes.is_null() {
                        *array_of_datatypes.add(i) = t;
                    }
                    if !array_of_displacements.is_null() {
                        *array_of_displacements.add(i) = d;
                    }
                }
            }
            // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
            unsafe { put(num_elements, e.elements.len() as c_int) };
        }
        if !info.is_null() {
            let h = new_info()?;
            // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
            unsafe { put(info, h) };
        }
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put_str(name, name_len, e.name);
            put(verbosity, MPI_T_VERBOSITY_USER_BASIC);
            put(enumtype, MPI_T_ENUM_NULL);
            put_str(desc, desc_len, e.desc);
            put(bind, MPI_T_BIND_NO_OBJECT);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_get_index(
    name: *const c_char,
    event_index: *mut c_int,
) -> c_int {
    tool_entry!({
        need!(event_index);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        let name = unsafe { get_str(name)? };
        let i = tool::find(EVENTS.iter().map(|e| e.name), &name)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(event_index, i) };
        Ok(())
    })
}

/// Events here are bound to no object: `obj_handle` is ignored.
#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_handle_alloc(
    event_index: c_int,
    obj_handle: *mut c_void,
    info: MPI_Info,
    event_registration: *mut MPI_T_event_registration,
) -> c_int {
    let _ = obj_handle;
    tool_entry!({
        need!(event_registration);
        drop(tool::active()?);
        check_info(info)?;
        let h = events::handle_alloc(event_index)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(event_registration, h) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_handle_set_info(
    event_registration: MPI_T_event_registration,
    info: MPI_Info,
) -> c_int {
    tool_entry!({
        events::check(event_registration, None)?;
        check_info(info)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_handle_get_info(
    event_registration: MPI_T_event_registration,
    info_used: *mut MPI_Info,
) -> c_int {
    tool_entry!({
        need!(info_used);
        events::check(event_registration, None)?;
        let h = new_info()?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(info_used, h) };
        Ok(())
    })
}

/// A C event callback and its user data.
struct CEventCallback(MPI_T_event_cb_function);

impl EventCallback for CEventCallback {
    fn call(&self, instance: i32, registration: i32, safety: i32, user_data: usize) {
        // SAFETY: registered with the C callback signature (MPI 4.1 §15.3.8).
        unsafe { (self.0)(instance, registration, safety, user_data as *mut c_void) }
    }
}

/// A NULL callback removes the one registered at that safety level.
#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_register_callback(
    event_registration: MPI_T_event_registration,
    cb_safety: MPI_T_cb_safety,
    info: MPI_Info,
    user_data: *mut c_void,
    event_cb_function: Option<MPI_T_event_cb_function>,
) -> c_int {
    tool_entry!({
        events::check(event_registration, Some(cb_safety))?;
        check_info(info)?;
        let cb = event_cb_function.map(|f| {
            (
                Arc::new(CEventCallback(f)) as Arc<dyn EventCallback>,
                user_data as usize,
            )
        });
        events::register_callback(event_registration, cb_safety, cb)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_callback_set_info(
    event_registration: MPI_T_event_registration,
    cb_safety: MPI_T_cb_safety,
    info: MPI_Info,
) -> c_int {
    tool_entry!({
        events::check(event_registration, Some(cb_safety))?;
        check_info(info)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_callback_get_info(
    event_registration: MPI_T_event_registration,
    cb_safety: MPI_T_cb_safety,
    info_used: *mut MPI_Info,
) -> c_int {
    tool_entry!({
        need!(info_used);
        events::check(event_registration, Some(cb_safety))?;
        let h = new_info()?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(info_used, h) };
        Ok(())
    })
}

/// The registration goes at once (callbacks run synchronously, none is pending), then
/// `free_cb_function`, if given, is called with `user_data`.
#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_handle_free(
    event_registration: MPI_T_event_registration,
    user_data: *mut c_void,
    free_cb_function: Option<MPI_T_event_free_cb_function>,
) -> c_int {
    tool_entry!({
        events::handle_free(event_registration)?;
        if let Some(f) = free_cb_function {
            // SAFETY: the C free callback signature (MPI 4.1 §15.3.8).
            unsafe { f(event_registration, MPI_T_CB_REQUIRE_NONE, user_data) };
        }
        Ok(())
    })
}

/// A C dropped-events handler: kept, never called (no event is dropped here).
struct CDropped(#[allow(dead_code)] MPI_T_event_dropped_cb_function);

impl DroppedCallback for CDropped {}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_set_dropped_handler(
    event_registration: MPI_T_event_registration,
    dropped_cb_function: Option<MPI_T_event_dropped_cb_function>,
) -> c_int {
    tool_entry!({
        let cb = dropped_cb_function.map(|f| Arc::new(CDropped(f)) as Arc<dyn DroppedCallback>);
        events::set_dropped(event_registration, cb)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_read(
    event_instance: MPI_T_event_instance,
    element_index: c_int,
    buffer: *mut c_void,
) -> c_int {
    tool_entry!({
        need!(buffer);
        drop(tool::active()?);
        let inst = events::instance(event_instance)?;
        let e = &EVENTS[inst.event];
        let i = tool::index(element_index, e.elements.len())?;
        let at = e.elements[i].1 as usize;
        // SAFETY: `buffer` holds one element of its datatype (an int, 4 bytes).
        unsafe { std::ptr::copy_nonoverlapping(inst.data[at..].as_ptr(), buffer.cast::<u8>(), 4) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_copy(
    event_instance: MPI_T_event_instance,
    buffer: *mut c_void,
) -> c_int {
    tool_entry!({
        need!(buffer);
        drop(tool::active()?);
        let inst = events::instance(event_instance)?;
        // SAFETY: `buffer` holds the event's data at its displacements (8 bytes here).
        unsafe {
            std::ptr::copy_nonoverlapping(inst.data.as_ptr(), buffer.cast::<u8>(), inst.data.len())
        };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_get_timestamp(
    event_instance: MPI_T_event_instance,
    event_timestamp: *mut MPI_Count,
) -> c_int {
    tool_entry!({
        need!(event_timestamp);
        drop(tool::active()?);
        let inst = events::instance(event_instance)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(event_timestamp, inst.timestamp) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_event_get_source(
    event_instance: MPI_T_event_instance,
    source_index: *mut c_int,
) -> c_int {
    tool_entry!({
        need!(source_index);
        drop(tool::active()?);
        let inst = events::instance(event_instance)?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(source_index, EVENTS[inst.event].source as c_int) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_source_get_num(num_sources: *mut c_int) -> c_int {
    tool_entry!({
        need!(num_sources);
        drop(tool::active()?);
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(num_sources, SOURCES.len() as c_int) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_source_get_info(
    source_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    desc: *mut c_char,
    desc_len: *mut c_int,
    ordering: *mut MPI_T_source_order,
    ticks_per_second: *mut MPI_Count,
    max_ticks: *mut MPI_Count,
    info: *mut MPI_Info,
) -> c_int {
    tool_entry!({
        drop(tool::active()?);
        let s = &SOURCES[tool::index(source_index, SOURCES.len())?];
        if !info.is_null() {
            let h = new_info()?;
            // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
            unsafe { put(info, h) };
        }
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe {
            put_str(name, name_len, s.name);
            put_str(desc, desc_len, s.desc);
            put(ordering, s.ordering);
            put(ticks_per_second, s.ticks_per_second);
            put(max_ticks, s.max_ticks);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_T_source_get_timestamp(
    source_index: c_int,
    timestamp: *mut MPI_Count,
) -> c_int {
    tool_entry!({
        need!(timestamp);
        drop(tool::active()?);
        let i = tool::index(source_index, SOURCES.len())?;
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { put(timestamp, events::timestamp(i)) };
        Ok(())
    })
}
