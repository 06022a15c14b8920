//! `MPI_Win_shared_query` (MPI 4.1 §12.2.3), `MPI_Type_match_size` (§19.1.9) and
//! `MPI_Get_hw_resource_info` (§11.4.1).

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Runtime};
use crate::{entry, nonnull};
use std::ffi::{c_int, c_void};

fn rt() -> &'static Runtime {
    Runtime::global()
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_shared_query(
    win: MPI_Win,
    rank: c_int,
    size: *mut MPI_Aint,
    disp_unit: *mut c_int,
    baseptr: *mut c_void,
) -> c_int {
    entry!("MPI_Win_shared_query", Scope::Win(win), {
        nonnull!(size, disp_unit, baseptr);
        let (base, n, unit) = rt().win_shared_query(Handle(win), rank)?;
        unsafe {
            *size = n as MPI_Aint;
            *disp_unit = unit;
            // `baseptr` is really a `void **`.
            *baseptr.cast::<*mut c_void>() = base as *mut c_void;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_shared_query_c(
    win: MPI_Win,
    rank: c_int,
    size: *mut MPI_Aint,
    disp_unit: *mut MPI_Aint,
    baseptr: *mut c_void,
) -> c_int {
    entry!("MPI_Win_shared_query_c", Scope::Win(win), {
        nonnull!(size, disp_unit, baseptr);
        let (base, n, unit) = rt().win_shared_query(Handle(win), rank)?;
        unsafe {
            *size = n as MPI_Aint;
            *disp_unit = unit as MPI_Aint;
            *baseptr.cast::<*mut c_void>() = base as *mut c_void;
        }
        Ok(())
    })
}

/// `MPI_Type_match_size`: the Fortran sized type of `typeclass` with `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn MPI_Type_match_size(
    typeclass: c_int,
    size: c_int,
    datatype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_match_size", Scope::NoObject, {
        nonnull!(datatype);
        let t = match (typeclass, size) {
            (MPI_TYPECLASS_INTEGER, 1) => MPI_INTEGER1,
            (MPI_TYPECLASS_INTEGER, 2) => MPI_INTEGER2,
            (MPI_TYPECLASS_INTEGER, 4) => MPI_INTEGER4,
            (MPI_TYPECLASS_INTEGER, 8) => MPI_INTEGER8,
            (MPI_TYPECLASS_INTEGER, 16) => MPI_INTEGER16,
            (MPI_TYPECLASS_REAL, 2) => MPI_REAL2,
            (MPI_TYPECLASS_REAL, 4) => MPI_REAL4,
            (MPI_TYPECLASS_REAL, 8) => MPI_REAL8,
            (MPI_TYPECLASS_REAL, 16) => MPI_REAL16,
            (MPI_TYPECLASS_COMPLEX, 4) => MPI_COMPLEX4,
            (MPI_TYPECLASS_COMPLEX, 8) => MPI_COMPLEX8,
            (MPI_TYPECLASS_COMPLEX, 16) => MPI_COMPLEX16,
            (MPI_TYPECLASS_COMPLEX, 32) => MPI_COMPLEX32,
            (MPI_TYPECLASS_INTEGER | MPI_TYPECLASS_REAL | MPI_TYPECLASS_COMPLEX, _) => {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!("no predefined type of type class {typeclass} has {size} bytes"),
                ))
            }
            _ => {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!("{typeclass} is not an MPI_TYPECLASS_*"),
                ))
            }
        };
        rt().check_handle(crate::world::HandleKind::Datatype, Handle(t))?;
        unsafe { *datatype = t };
        Ok(())
    })
}

/// `MPI_Get_hw_resource_info`: a new info naming the hardware resource types the process
/// belongs to (`mpi_hw_resource_type`: `mpi_shared_memory`, MPI 4.1 §7.4.2's one defined type).
#[no_mangle]
pub unsafe extern "C" fn MPI_Get_hw_resource_info(hw_info: *mut MPI_Info) -> c_int {
    entry!("MPI_Get_hw_resource_info", Scope::NoObject, {
        nonnull!(hw_info);
        let h = rt().info_create()?;
        if let Err(e) = rt().info_set(
            h,
            crate::world::split_type::HW_RESOURCE_KEY,
            "mpi_shared_memory",
        ) {
            let _ = rt().info_free(h);
            return Err(e);
        }
        unsafe { *hw_info = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_attach(win: MPI_Win, base: *mut c_void, size: MPI_Aint) -> c_int {
    entry!("MPI_Win_attach", Scope::Win(win), {
        if size > 0 {
            nonnull!(base);
        }
        rt().win_attach(Handle(win), base as usize, size as i64)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_detach(win: MPI_Win, base: *const c_void) -> c_int {
    entry!("MPI_Win_detach", Scope::Win(win), {
        rt().win_detach(Handle(win), base as usize)
    })
}
