//! Fortran statuses (MPI 4.1 §19.3.5): `INTEGER STATUS(MPI_STATUS_SIZE)` holds the C
//! `MPI_Status`'s integers in the same order (source, tag, error, then the bytes received in
//! two halves and the cancelled flag), and the status routines.

use crate::capi::boundary::Scope;
use crate::consts::*;
use crate::fentry;
use crate::fortran::{fint, logical, read_narrow, MPI_Fcount, MPI_Fint, MPI_Flogical, MPI_Fstatus};
use crate::nonnull;
use crate::world::status::Status;
use crate::world::{Handle, Runtime};

fn rt() -> &'static Runtime {
    Runtime::global()
}

/// Writes a status unless it is `MPI_STATUS_IGNORE` (MPI 4.1 §3.2.6).
///
/// # Safety
/// `status` is `MPI_STATUS_IGNORE` or `MPI_STATUS_SIZE` writable INTEGERs.
pub unsafe fn write(status: *mut MPI_Fstatus, st: &Status) {
    if crate::fortran::sentinels::status_ignored(status) {
        return;
    }
    let s = unsafe { std::slice::from_raw_parts_mut(status, MPI_STATUS_SIZE as usize) };
    s.fill(0);
    s[MPI_F_SOURCE as usize] = fint(st.source);
    s[MPI_F_TAG as usize] = fint(st.tag);
    s[MPI_F_ERROR as usize] = fint(st.error);
    s[3] = fint(st.bytes as i32);
    s[4] = fint((st.bytes >> 32) as i32);
    s[5] = fint(st.cancelled as i32);
}

/// Reads a status written by [`write`] (or set by the program).
///
/// # Safety
/// `status` is `MPI_STATUS_SIZE` readable INTEGERs.
pub unsafe fn read(status: *const MPI_Fstatus) -> Status {
    let s = unsafe { std::slice::from_raw_parts(status, MPI_STATUS_SIZE as usize) };
    Status {
        source: s[MPI_F_SOURCE as usize] as i32,
        tag: s[MPI_F_TAG as usize] as i32,
        error: s[MPI_F_ERROR as usize] as i32,
        bytes: (s[3] as u32 as i64) | ((s[4] as i64) << 32),
        cancelled: s[5] != 0,
    }
}

/// A count as a Fortran INTEGER: `MPI_UNDEFINED` when it does not fit (MPI 4.1 §3.2.5).
fn as_fint(n: i64) -> MPI_Fint {
    fint(i32::try_from(n).unwrap_or(MPI_UNDEFINED))
}

/// `MPI_GET_COUNT(STATUS, DATATYPE, COUNT, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_get_count_(
    status: *const MPI_Fstatus,
    datatype: *const MPI_Fint,
    count: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GET_COUNT", Scope::NoObject, {
        nonnull!(status, datatype, count);
        let dt = unsafe { read_narrow(datatype, MPI_ERR_TYPE, "datatype") }?;
        let n = rt().status_count(unsafe { read(status) }.bytes, Handle(dt))?;
        unsafe { *count = as_fint(n) };
        Ok(())
    })
}

/// `MPI_GET_ELEMENTS(STATUS, DATATYPE, COUNT, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_get_elements_(
    status: *const MPI_Fstatus,
    datatype: *const MPI_Fint,
    count: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GET_ELEMENTS", Scope::NoObject, {
        nonnull!(status, datatype, count);
        let dt = unsafe { read_narrow(datatype, MPI_ERR_TYPE, "datatype") }?;
        let n = rt().type_elements(Handle(dt), unsafe { read(status) }.bytes)?;
        unsafe { *count = as_fint(n) };
        Ok(())
    })
}

/// `MPI_GET_ELEMENTS_X(STATUS, DATATYPE, COUNT, IERROR)`, `INTEGER(KIND=MPI_COUNT_KIND) COUNT`.
#[no_mangle]
pub unsafe extern "C" fn mpi_get_elements_x_(
    status: *const MPI_Fstatus,
    datatype: *const MPI_Fint,
    count: *mut MPI_Fcount,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GET_ELEMENTS_X", Scope::NoObject, {
        nonnull!(status, datatype, count);
        let dt = unsafe { read_narrow(datatype, MPI_ERR_TYPE, "datatype") }?;
        let n = rt().type_elements(Handle(dt), unsafe { read(status) }.bytes)?;
        unsafe { *count = n };
        Ok(())
    })
}

/// `MPI_STATUS_SET_ELEMENTS(STATUS, DATATYPE, COUNT, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_status_set_elements_(
    status: *mut MPI_Fstatus,
    datatype: *const MPI_Fint,
    count: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_STATUS_SET_ELEMENTS", Scope::NoObject, {
        nonnull!(status, datatype, count);
        let dt = unsafe { read_narrow(datatype, MPI_ERR_TYPE, "datatype") }?;
        let bytes = rt().status_bytes_for(unsafe { *count } as i64, Handle(dt))?;
        let mut s = unsafe { read(status) };
        s.bytes = bytes;
        unsafe { write(status, &s) };
        Ok(())
    })
}

/// `MPI_STATUS_SET_ELEMENTS_X(STATUS, DATATYPE, COUNT, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_status_set_elements_x_(
    status: *mut MPI_Fstatus,
    datatype: *const MPI_Fint,
    count: *const MPI_Fcount,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_STATUS_SET_ELEMENTS_X", Scope::NoObject, {
        nonnull!(status, datatype, count);
        let dt = unsafe { read_narrow(datatype, MPI_ERR_TYPE, "datatype") }?;
        let bytes = rt().status_bytes_for(unsafe { *count }, Handle(dt))?;
        let mut s = unsafe { read(status) };
        s.bytes = bytes;
        unsafe { write(status, &s) };
        Ok(())
    })
}

/// `MPI_STATUS_SET_CANCELLED(STATUS, FLAG, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_status_set_cancelled_(
    status: *mut MPI_Fstatus,
    flag: *const MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_STATUS_SET_CANCELLED", Scope::NoObject, {
        nonnull!(status, flag);
        let mut s = unsafe { read(status) };
        s.cancelled = unsafe { *flag } != 0;
        unsafe { write(status, &s) };
        Ok(())
    })
}

/// `MPI_TEST_CANCELLED(STATUS, FLAG, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_test_cancelled_(
    status: *const MPI_Fstatus,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TEST_CANCELLED", Scope::NoObject, {
        nonnull!(status, flag);
        unsafe { *flag = logical(read(status).cancelled) };
        Ok(())
    })
}
