//! Window entry points (MPI 4.1 §12.2). Creation errors are raised on the communicator; every
//! other error on the window.

use crate::boundary::{read_c_string, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Handle, HandleKind};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_char, c_int, c_void};

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_create(
    base: *mut c_void,
    size: MPI_Aint,
    disp_unit: c_int,
    info: MPI_Info,
    comm: MPI_Comm,
    win: *mut MPI_Win,
) -> c_int {
    entry!("MPI_Win_create", Scope::Comm(comm), {
        let win = try_out!(win);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let h = rt().win_create(base as usize, size as i64, disp_unit, Handle(comm));
        win.set(h.as_ref().map_or(MPI_WIN_NULL, |h| h.0));
        h.map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_allocate(
    size: MPI_Aint,
    disp_unit: c_int,
    info: MPI_Info,
    comm: MPI_Comm,
    baseptr: *mut c_void,
    win: *mut MPI_Win,
) -> c_int {
    entry!("MPI_Win_allocate", Scope::Comm(comm), {
        nonnull!(baseptr, win);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let r = rt().win_allocate(size as i64, disp_unit, Handle(comm));
        // `baseptr` is really a `void **` (MPI 4.1 §12.2.2).
        // SAFETY: `win`, `baseptr`: arguments of this call, checked non-NULL above, valid for their
        // types during the call (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            *win = r.as_ref().map_or(MPI_WIN_NULL, |(h, _)| h.0);
            if let Ok((_, base)) = &r {
                *baseptr.cast::<*mut c_void>() = *base as *mut c_void;
            }
        }
        r.map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_create_dynamic(
    info: MPI_Info,
    comm: MPI_Comm,
    win: *mut MPI_Win,
) -> c_int {
    entry!("MPI_Win_create_dynamic", Scope::Comm(comm), {
        let win = try_out!(win);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let h = rt().win_create_dynamic(Handle(comm));
        win.set(h.as_ref().map_or(MPI_WIN_NULL, |h| h.0));
        h.map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_free(win: *mut MPI_Win) -> c_int {
    let scope = if win.is_null() {
        Scope::NoObject
    } else {
        // SAFETY: `win` checked non-NULL above (capi/mod.rs contract).
        Scope::Win(unsafe { *win })
    };
    entry!("MPI_Win_free", scope, {
        nonnull!(win);
        // SAFETY: `win` checked non-NULL above (capi/mod.rs contract).
        rt().win_free(Handle(unsafe { *win }))?;
        // SAFETY: `win` checked non-NULL above (capi/mod.rs contract).
        unsafe { *win = MPI_WIN_NULL };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_set_name(win: MPI_Win, win_name: *const c_char) -> c_int {
    entry!("MPI_Win_set_name", Scope::Win(win), {
        nonnull!(win_name);
        // SAFETY: `win_name` checked non-NULL above (capi/mod.rs contract).
        rt().win_set_name(Handle(win), &unsafe { read_c_string(win_name) }?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_get_name(
    win: MPI_Win,
    win_name: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    entry!("MPI_Win_get_name", Scope::Win(win), {
        nonnull!(win_name);
        let resultlen = try_out!(resultlen);
        let name = rt().win_get_name(Handle(win))?;
        // SAFETY: `win_name` checked non-NULL above (capi/mod.rs contract).
        let n = unsafe { write_c_string(win_name, MPI_MAX_OBJECT_NAME as usize, &name) };
        resultlen.set(n);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_get_group(win: MPI_Win, group: *mut MPI_Group) -> c_int {
    entry!("MPI_Win_get_group", Scope::Win(win), {
        let group = try_out!(group);
        let g = rt().win_group(Handle(win))?;
        group.set(g.0);
        Ok(())
    })
}

/// With one process every epoch is local: the fence checks its assert and the epoch rules
/// (MPI 4.1 §12.5.1) and opens or closes the fence epoch (`world::rma`).
#[no_mangle]
pub unsafe extern "C" fn MPI_Win_fence(assert: c_int, win: MPI_Win) -> c_int {
    entry!("MPI_Win_fence", Scope::Win(win), {
        rt().win_fence(Handle(win), assert)
    })
}
