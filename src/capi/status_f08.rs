//! Conversions between C, Fortran and `mpi_f08` statuses (MPI 4.1 §19.3.5): `MPI_F08_status`
//! holds the same integers in the same order as `MPI_Status` and as `INTEGER
//! STATUS(MPI_STATUS_SIZE)`, so each conversion is a copy of `MPI_F_STATUS_SIZE` integers. The
//! ignore sentinels are not statuses: converting one is `MPI_ERR_ARG`.

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::fortran::sentinels;
use crate::world::{Error, Result};
use crate::{entry, nonnull};
use std::ffi::c_int;

const N: usize = MPI_F_STATUS_SIZE as usize;

// The three layouts are one: checked when the library is built.
const _: () = assert!(std::mem::size_of::<MPI_F08_status>() == N * std::mem::size_of::<MPI_Fint>());
const _: () = assert!(std::mem::size_of::<MPI_Status>() == N * std::mem::size_of::<MPI_Fint>());

/// Refuses the Fortran ignore sentinels (`MPI_F08_STATUS_IGNORE`, `MPI_F08_STATUSES_IGNORE`,
/// `MPI_STATUS_IGNORE` of mpif.h and the `mpi` module): they name no status to convert.
fn not_ignore(p: *const MPI_Fint, name: &'static str) -> Result<()> {
    if sentinels::f08_status_ignored(p.cast()) {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("{name} is a STATUS_IGNORE sentinel, not a status"),
        ));
    }
    Ok(())
}

/// Copies one status's integers to another.
///
/// # Safety
/// `from` readable and `to` writable for `MPI_F_STATUS_SIZE` integers; they may overlap.
unsafe fn copy(from: *const MPI_Fint, to: *mut MPI_Fint) {
    // SAFETY: both valid for `N` integers (this function's `# Safety`); `copy` allows overlap.
    unsafe { std::ptr::copy(from, to, N) };
}

/// `MPI_Status_f082c`: an `mpi_f08` status as a C one.
#[no_mangle]
pub unsafe extern "C" fn MPI_Status_f082c(
    f08_status: *const MPI_F08_status,
    c_status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Status_f082c", Scope::NoObject, {
        nonnull!(f08_status, c_status);
        not_ignore(f08_status.cast(), "f08_status")?;
        // SAFETY: both not NULL (checked above) and statuses of `MPI_F_STATUS_SIZE` integers
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { copy(f08_status.cast(), c_status.cast()) };
        Ok(())
    })
}

/// `MPI_Status_c2f08`: a C status as an `mpi_f08` one.
#[no_mangle]
pub unsafe extern "C" fn MPI_Status_c2f08(
    c_status: *const MPI_Status,
    f08_status: *mut MPI_F08_status,
) -> c_int {
    entry!("MPI_Status_c2f08", Scope::NoObject, {
        nonnull!(c_status, f08_status);
        not_ignore(f08_status.cast_const().cast(), "f08_status")?;
        // SAFETY: both not NULL (checked above) and statuses of `MPI_F_STATUS_SIZE` integers
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { copy(c_status.cast(), f08_status.cast()) };
        Ok(())
    })
}

/// `MPI_Status_f082f`: an `mpi_f08` status as an `INTEGER STATUS(MPI_STATUS_SIZE)`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Status_f082f(
    f08_status: *const MPI_F08_status,
    f_status: *mut MPI_Fint,
) -> c_int {
    entry!("MPI_Status_f082f", Scope::NoObject, {
        nonnull!(f08_status, f_status);
        not_ignore(f08_status.cast(), "f08_status")?;
        not_ignore(f_status.cast_const(), "f_status")?;
        // SAFETY: both not NULL (checked above) and statuses of `MPI_F_STATUS_SIZE` integers
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { copy(f08_status.cast(), f_status) };
        Ok(())
    })
}

/// `MPI_Status_f2f08`: an `INTEGER STATUS(MPI_STATUS_SIZE)` as an `mpi_f08` status.
#[no_mangle]
pub unsafe extern "C" fn MPI_Status_f2f08(
    f_status: *const MPI_Fint,
    f08_status: *mut MPI_F08_status,
) -> c_int {
    entry!("MPI_Status_f2f08", Scope::NoObject, {
        nonnull!(f_status, f08_status);
        not_ignore(f_status, "f_status")?;
        not_ignore(f08_status.cast_const().cast(), "f08_status")?;
        // SAFETY: both not NULL (checked above) and statuses of `MPI_F_STATUS_SIZE` integers
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { copy(f_status, f08_status.cast()) };
        Ok(())
    })
}
