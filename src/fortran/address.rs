//! Fortran routines with special bindings the generator (build/fortran_bind.rs) leaves out:
//! the address functions (MPI 4.1 §5.1.5), MPI_PCONTROL (no IERROR, §15.2.4) and
//! MPI_INFO_CREATE_ENV (no argc/argv in Fortran, §11.4.4).

use crate::boundary::Scope;
use crate::fentry;
use crate::fortran::{fint, MPI_Aint, MPI_Fint};
use crate::nonnull;

/// `INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_ADD(BASE, DISP)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_aint_add_(base: *const MPI_Aint, disp: *const MPI_Aint) -> MPI_Aint {
    // SAFETY: two INTEGER(KIND=MPI_ADDRESS_KIND) arguments by reference (fortran/mod.rs
    // contract; a function without IERROR has no way to report a NULL, which Fortran never
    // passes).
    crate::capi::pack::MPI_Aint_add(unsafe { *base }, unsafe { *disp })
}

/// `INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_DIFF(ADDR1, ADDR2)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_aint_diff_(
    addr1: *const MPI_Aint,
    addr2: *const MPI_Aint,
) -> MPI_Aint {
    // SAFETY: as for mpi_aint_add_.
    crate::capi::pack::MPI_Aint_diff(unsafe { *addr1 }, unsafe { *addr2 })
}

/// `MPI_PCONTROL(LEVEL)`: no IERROR in Fortran; the level is ignored, as the C routine does.
#[no_mangle]
pub unsafe extern "C" fn mpi_pcontrol_(level: *const MPI_Fint) {
    let _ = level;
}

/// `MPI_INFO_CREATE_ENV(INFO, IERROR)`: the Fortran form has no command line, so the info
/// holds what the C routine gives with argc = 0 (MPI 4.1 §11.4.4).
#[no_mangle]
pub unsafe extern "C" fn mpi_info_create_env_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    let mut rc = crate::consts::MPI_SUCCESS;
    fentry!(ierror, "MPI_INFO_CREATE_ENV", Scope::NoObject, {
        nonnull!(info);
        let mut c = 0;
        // SAFETY: `c` is a local handle; argv NULL with argc 0 is allowed by the C routine.
        rc = unsafe { crate::capi::info::MPI_Info_create_env(0, std::ptr::null_mut(), &mut c) };
        if rc == crate::consts::MPI_SUCCESS {
            // SAFETY: checked non-NULL; the caller's INTEGER.
            unsafe { *info = fint(c) };
        }
        Ok(())
    });
    if rc != crate::consts::MPI_SUCCESS && !ierror.is_null() {
        // SAFETY: not NULL: the caller's IERROR.
        unsafe { *ierror = fint(rc) };
    }
}
