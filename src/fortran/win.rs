//! Fortran window routines (MPI 4.1 §12.2) and `MPI_ALLOC_MEM` / `MPI_FREE_MEM` (§9.2).
//! Creation errors are raised on the communicator, every other window error on the window, and
//! memory errors on `MPI_COMM_SELF`, as in C.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::sentinels::bottom;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::{by_ref, fint, narrow, read_narrow, scope_handle, MPI_Aint, MPI_Fint};
use crate::nonnull;
use crate::world::{Handle, HandleKind};
use std::ffi::{c_char, c_void};

/// The handle of an INFO argument (checked non-NULL by the caller).
unsafe fn info_arg(p: *const MPI_Fint) -> crate::error::Result<Handle> {
    Ok(Handle(unsafe { read_narrow(p, MPI_ERR_INFO, "info") }?))
}

/// `MPI_WIN_CREATE(BASE, SIZE, DISP_UNIT, INFO, COMM, WIN, IERROR)`: BASE is a choice buffer
/// (its address is the window's base; MPI_BOTTOM is address 0),
/// `INTEGER(KIND=MPI_ADDRESS_KIND) SIZE`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_create_(
    base: *mut c_void,
    size: *const MPI_Aint,
    disp_unit: *const MPI_Fint,
    info: *const MPI_Fint,
    comm: *const MPI_Fint,
    win: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_CREATE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(size, disp_unit, info, win);
            // SAFETY: `info`, `disp_unit` checked non-NULL above (fortran/mod.rs contract).
            rt().check_handle(HandleKind::Info, unsafe { info_arg(info) }?)?;
            let disp_unit = unsafe { read_narrow(disp_unit, MPI_ERR_DISP, "disp_unit") }?;
            let base = bottom(base.cast_const()) as usize;
            // SAFETY: `size`, `win` checked non-NULL above (fortran/mod.rs contract).
            let h = rt().win_create(base, unsafe { *size } as i64, disp_unit, Handle(c));
            // SAFETY: `win` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *win = fint(h.as_ref().map_or(MPI_WIN_NULL, |h| h.0)) };
            h.map(drop)
        }
    )
}

/// `MPI_WIN_ALLOCATE(SIZE, DISP_UNIT, INFO, COMM, BASEPTR, WIN, IERROR)`,
/// `INTEGER(KIND=MPI_ADDRESS_KIND) SIZE, BASEPTR`: BASEPTR receives the address of the
/// memory (use it with a Cray pointer or C_F_POINTER).
#[no_mangle]
pub unsafe extern "C" fn mpi_win_allocate_(
    size: *const MPI_Aint,
    disp_unit: *const MPI_Fint,
    info: *const MPI_Fint,
    comm: *const MPI_Fint,
    baseptr: *mut MPI_Aint,
    win: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_ALLOCATE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(size, disp_unit, info, baseptr, win);
            // SAFETY: `info`, `disp_unit` checked non-NULL above (fortran/mod.rs contract).
            rt().check_handle(HandleKind::Info, unsafe { info_arg(info) }?)?;
            let disp_unit = unsafe { read_narrow(disp_unit, MPI_ERR_DISP, "disp_unit") }?;
            // SAFETY: `size` checked non-NULL above (fortran/mod.rs contract).
            let r = rt().win_allocate(unsafe { *size } as i64, disp_unit, Handle(c));
            unsafe {
                *win = fint(r.as_ref().map_or(MPI_WIN_NULL, |(h, _)| h.0));
                if let Ok((_, base)) = &r {
                    *baseptr = *base as MPI_Aint;
                }
            }
            r.map(drop)
        }
    )
}

/// `MPI_WIN_CREATE_DYNAMIC(INFO, COMM, WIN, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_create_dynamic_(
    info: *const MPI_Fint,
    comm: *const MPI_Fint,
    win: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_CREATE_DYNAMIC",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(info, win);
            // SAFETY: `info` checked non-NULL above (fortran/mod.rs contract).
            rt().check_handle(HandleKind::Info, unsafe { info_arg(info) }?)?;
            let h = rt().win_create_dynamic(Handle(c));
            // SAFETY: `win` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *win = fint(h.as_ref().map_or(MPI_WIN_NULL, |h| h.0)) };
            h.map(drop)
        }
    )
}

/// `MPI_WIN_FREE(WIN, IERROR)`: runs the delete callbacks, then sets WIN to MPI_WIN_NULL.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_free_(win: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: `win` NULL or valid (fortran/mod.rs contract).
    let w = unsafe { by_ref(win, MPI_WIN_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_FREE",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            let w = narrow(w, MPI_ERR_WIN, "win")?;
            nonnull!(win);
            rt().win_free(Handle(w))?;
            // SAFETY: `win` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *win = fint(MPI_WIN_NULL) };
            Ok(())
        }
    )
}

/// `MPI_WIN_SET_NAME(WIN, WIN_NAME, IERROR)`, `CHARACTER*(*) WIN_NAME`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_set_name_(
    win: *const MPI_Fint,
    win_name: *const c_char,
    ierror: *mut MPI_Fint,
    win_name_len: usize,
) {
    // SAFETY: `win` NULL or valid (fortran/mod.rs contract).
    let w = unsafe { by_ref(win, MPI_WIN_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_SET_NAME",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            let w = narrow(w, MPI_ERR_WIN, "win")?;
            nonnull!(win_name);
            // SAFETY: `win_name` checked non-NULL above (fortran/mod.rs contract).
            let name = unsafe { read_fortran_string(win_name, win_name_len) };
            rt().win_set_name(Handle(w), &name)
        }
    )
}

/// `MPI_WIN_GET_NAME(WIN, WIN_NAME, RESULTLEN, IERROR)`, `CHARACTER*(*) WIN_NAME`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_get_name_(
    win: *const MPI_Fint,
    win_name: *mut c_char,
    resultlen: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    win_name_len: usize,
) {
    // SAFETY: `win` NULL or valid (fortran/mod.rs contract).
    let w = unsafe { by_ref(win, MPI_WIN_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_GET_NAME",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            let w = narrow(w, MPI_ERR_WIN, "win")?;
            nonnull!(win_name, resultlen);
            let name = rt().win_get_name(Handle(w))?;
            let n = unsafe {
                write_fortran_string(win_name, win_name_len, MPI_MAX_OBJECT_NAME as usize, &name)
            };
            // SAFETY: `resultlen` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *resultlen = fint(n) };
            Ok(())
        }
    )
}

/// `MPI_WIN_GET_GROUP(WIN, GROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_get_group_(
    win: *const MPI_Fint,
    group: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `win` NULL or valid (fortran/mod.rs contract).
    let w = unsafe { by_ref(win, MPI_WIN_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_GET_GROUP",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            let w = narrow(w, MPI_ERR_WIN, "win")?;
            nonnull!(group);
            let g = rt().win_group(Handle(w))?;
            // SAFETY: `group` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *group = fint(g.0) };
            Ok(())
        }
    )
}

/// `MPI_WIN_FENCE(ASSERT, WIN, IERROR)`: with one process every epoch is local, so the fence
/// only checks its window.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_fence_(
    assert: *const MPI_Fint,
    win: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `win` NULL or valid (fortran/mod.rs contract).
    let w = unsafe { by_ref(win, MPI_WIN_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_FENCE",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            let w = narrow(w, MPI_ERR_WIN, "win")?;
            nonnull!(assert);
            // SAFETY: `assert` checked non-NULL above (fortran/mod.rs contract).
            unsafe { read_narrow(assert, MPI_ERR_ASSERT, "assert") }?;
            rt().win_check(Handle(w))
        }
    )
}

/// `MPI_ALLOC_MEM(SIZE, INFO, BASEPTR, IERROR)`, `INTEGER(KIND=MPI_ADDRESS_KIND) SIZE,
/// BASEPTR`: BASEPTR receives the address of the memory (MPI 4.1 §9.2, the form without
/// TYPE(C_PTR)).
#[no_mangle]
pub unsafe extern "C" fn mpi_alloc_mem_(
    size: *const MPI_Aint,
    info: *const MPI_Fint,
    baseptr: *mut MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_ALLOC_MEM", Scope::NoObject, {
        nonnull!(size, info, baseptr);
        // SAFETY: `info` checked non-NULL above (fortran/mod.rs contract).
        rt().check_handle(HandleKind::Info, unsafe { info_arg(info) }?)?;
        // SAFETY: `size`, `baseptr` checked non-NULL above (fortran/mod.rs contract).
        let base = rt().alloc_mem(unsafe { *size } as i64)?;
        // SAFETY: `baseptr` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *baseptr = base as MPI_Aint };
        Ok(())
    })
}

/// `MPI_FREE_MEM(BASE, IERROR)`: BASE is a choice buffer, the memory MPI_ALLOC_MEM returned.
#[no_mangle]
pub unsafe extern "C" fn mpi_free_mem_(base: *mut c_void, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_FREE_MEM", Scope::NoObject, {
        rt().free_mem(bottom(base.cast_const()) as usize)
    })
}
