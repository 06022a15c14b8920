//! One-sided synchronisation entry points (MPI 4.1 §12.5), window info (§12.2.7) and the
//! remaining window constructors (`_c` forms, `MPI_Win_allocate_shared`, §12.2).

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, HandleKind, Result};
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_lock(
    lock_type: c_int,
    rank: c_int,
    assert: c_int,
    win: MPI_Win,
) -> c_int {
    entry!("MPI_Win_lock", Scope::Win(win), {
        rt().win_lock(Handle(win), lock_type, rank, assert)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_unlock(rank: c_int, win: MPI_Win) -> c_int {
    entry!("MPI_Win_unlock", Scope::Win(win), {
        rt().win_unlock(Handle(win), rank)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_lock_all(assert: c_int, win: MPI_Win) -> c_int {
    entry!("MPI_Win_lock_all", Scope::Win(win), {
        rt().win_lock_all(Handle(win), assert)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_unlock_all(win: MPI_Win) -> c_int {
    entry!("MPI_Win_unlock_all", Scope::Win(win), {
        rt().win_unlock_all(Handle(win))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_flush(rank: c_int, win: MPI_Win) -> c_int {
    entry!("MPI_Win_flush", Scope::Win(win), {
        rt().win_flush(Handle(win), Some(rank))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_flush_local(rank: c_int, win: MPI_Win) -> c_int {
    entry!("MPI_Win_flush_local", Scope::Win(win), {
        rt().win_flush(Handle(win), Some(rank))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_flush_all(win: MPI_Win) -> c_int {
    entry!("MPI_Win_flush_all", Scope::Win(win), {
        rt().win_flush(Handle(win), None)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_flush_local_all(win: MPI_Win) -> c_int {
    entry!("MPI_Win_flush_local_all", Scope::Win(win), {
        rt().win_flush(Handle(win), None)
    })
}

/// `MPI_Win_sync` (MPI 4.1 §12.5.4): one process's windows have one copy (`MPI_WIN_UNIFIED`),
/// so there is nothing to synchronise once the window is checked.
#[no_mangle]
pub unsafe extern "C" fn MPI_Win_sync(win: MPI_Win) -> c_int {
    entry!("MPI_Win_sync", Scope::Win(win), {
        rt().win_check(Handle(win))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_post(group: MPI_Group, assert: c_int, win: MPI_Win) -> c_int {
    entry!("MPI_Win_post", Scope::Win(win), {
        rt().win_post(Handle(win), Handle(group), assert)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_start(group: MPI_Group, assert: c_int, win: MPI_Win) -> c_int {
    entry!("MPI_Win_start", Scope::Win(win), {
        rt().win_start(Handle(win), Handle(group), assert)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_complete(win: MPI_Win) -> c_int {
    entry!("MPI_Win_complete", Scope::Win(win), {
        rt().win_complete(Handle(win))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_wait(win: MPI_Win) -> c_int {
    entry!("MPI_Win_wait", Scope::Win(win), {
        rt().win_wait(Handle(win), true).map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_test(win: MPI_Win, flag: *mut c_int) -> c_int {
    entry!("MPI_Win_test", Scope::Win(win), {
        let flag = try_out!(flag);
        flag.set(c_int::from(rt().win_wait(Handle(win), false)?));
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_set_info(win: MPI_Win, info: MPI_Info) -> c_int {
    entry!("MPI_Win_set_info", Scope::Win(win), {
        rt().check_handle(HandleKind::Info, Handle(info))?;
        rt().win_set_info(Handle(win), Handle(info))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_get_info(win: MPI_Win, info_used: *mut MPI_Info) -> c_int {
    entry!("MPI_Win_get_info", Scope::Win(win), {
        let out = try_out!(info_used);
        out.set(rt().win_get_info(Handle(win))?.0);
        Ok(())
    })
}

/// A large-count displacement unit: windows keep an `int` one (the `MPI_WIN_DISP_UNIT`
/// attribute is integer valued, MPI 4.1 §12.2.6), so a larger one is refused.
fn disp_unit_of(disp_unit: MPI_Aint) -> Result<c_int> {
    c_int::try_from(disp_unit).map_err(|_| {
        Error::invalid(
            MPI_ERR_DISP,
            format!("displacement unit {disp_unit} does not fit the window's int unit"),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_create_c(
    base: *mut c_void,
    size: MPI_Aint,
    disp_unit: MPI_Aint,
    info: MPI_Info,
    comm: MPI_Comm,
    win: *mut MPI_Win,
) -> c_int {
    entry!("MPI_Win_create_c", Scope::Comm(comm), {
        let out = try_out!(win);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let unit = disp_unit_of(disp_unit)?;
        let h = rt().win_create(base as usize, size as i64, unit, Handle(comm));
        out.set(h.as_ref().map_or(MPI_WIN_NULL, |h| h.0));
        h.map(drop)
    })
}

/// The allocating constructors: a window over new memory of `flavor`.
///
/// # Safety
/// `baseptr` is really a `void **` (MPI 4.1 §12.2.2), checked non-NULL by the caller.
unsafe fn allocate(
    size: MPI_Aint,
    disp_unit: MPI_Aint,
    info: MPI_Info,
    comm: MPI_Comm,
    flavor: c_int,
    baseptr: *mut c_void,
    win: *mut MPI_Win,
) -> Result<()> {
    let out = try_out!(win);
    if baseptr.is_null() {
        return Err(Error::NullArgument { name: "baseptr" });
    }
    rt().check_handle(HandleKind::Info, Handle(info))?;
    let unit = disp_unit_of(disp_unit)?;
    let r = rt().win_allocate_as(size as i64, unit, Handle(comm), flavor);
    out.set(r.as_ref().map_or(MPI_WIN_NULL, |(h, _)| h.0));
    if let Ok((_, base)) = &r {
        // SAFETY: `baseptr` is the caller's `void **`, not NULL (checked above).
        unsafe { *baseptr.cast::<*mut c_void>() = *base as *mut c_void };
    }
    r.map(drop)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_allocate_c(
    size: MPI_Aint,
    disp_unit: MPI_Aint,
    info: MPI_Info,
    comm: MPI_Comm,
    baseptr: *mut c_void,
    win: *mut MPI_Win,
) -> c_int {
    entry!("MPI_Win_allocate_c", Scope::Comm(comm), {
        // SAFETY: the MPI caller's arguments (capi/mod.rs contract).
        unsafe {
            allocate(
                size,
                disp_unit,
                info,
                comm,
                MPI_WIN_FLAVOR_ALLOCATE,
                baseptr,
                win,
            )
        }
    })
}

/// `MPI_Win_allocate_shared` (MPI 4.1 §12.2.3): one process shares its memory with itself.
#[no_mangle]
pub unsafe extern "C" fn MPI_Win_allocate_shared(
    size: MPI_Aint,
    disp_unit: c_int,
    info: MPI_Info,
    comm: MPI_Comm,
    baseptr: *mut c_void,
    win: *mut MPI_Win,
) -> c_int {
    entry!("MPI_Win_allocate_shared", Scope::Comm(comm), {
        let unit = disp_unit as MPI_Aint;
        // SAFETY: the MPI caller's arguments (capi/mod.rs contract).
        unsafe { allocate(size, unit, info, comm, MPI_WIN_FLAVOR_SHARED, baseptr, win) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_allocate_shared_c(
    size: MPI_Aint,
    disp_unit: MPI_Aint,
    info: MPI_Info,
    comm: MPI_Comm,
    baseptr: *mut c_void,
    win: *mut MPI_Win,
) -> c_int {
    entry!("MPI_Win_allocate_shared_c", Scope::Comm(comm), {
        // SAFETY: the MPI caller's arguments (capi/mod.rs contract).
        unsafe {
            allocate(
                size,
                disp_unit,
                info,
                comm,
                MPI_WIN_FLAVOR_SHARED,
                baseptr,
                win,
            )
        }
    })
}
