//! Fortran statuses (MPI 4.1 §19.3.5): `INTEGER STATUS(MPI_STATUS_SIZE)` holds the C
//! `MPI_Status`'s integers in the same order (source, tag, error, then the bytes received in
//! two halves and the cancelled flag), and the status routines.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::consts::*;
use crate::fentry;
use crate::fortran::narrow;
use crate::fortran::{
    fint, logical, MPI_Fcount, MPI_Fint, MPI_Flogical, MPI_Fstatus, MPI_Fstatus_int,
};
use crate::nonnull;
use crate::try_in;
use crate::try_out;
use crate::world::status::Status;
use crate::world::Handle;

/// Writes a status unless it is `MPI_STATUS_IGNORE` (MPI 4.1 §3.2.6).
///
/// # Safety
/// `status` is `MPI_STATUS_IGNORE` or `MPI_STATUS_SIZE` writable INTEGERs.
pub unsafe fn write(status: *mut MPI_Fstatus, st: &Status) {
    if crate::fortran::sentinels::status_ignored(status) {
        return;
    }
    // SAFETY: `status` is valid here by this function's contract (its `# Safety`).
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
    // SAFETY: `status` is valid here by this function's contract (its `# Safety`).
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
        nonnull!(status, datatype);
        let count = try_out!(count);
        let dt = narrow(try_in!(datatype), MPI_ERR_TYPE, "datatype")?;
        // SAFETY: `read` needs `status` to be MPI_STATUS_SIZE readable INTEGERs (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let n = rt().status_count(unsafe { read(status) }.bytes, Handle(dt))?;
        count.set(as_fint(n));
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
        nonnull!(status, datatype);
        let count = try_out!(count);
        let dt = narrow(try_in!(datatype), MPI_ERR_TYPE, "datatype")?;
        // SAFETY: `read` needs `status` to be MPI_STATUS_SIZE readable INTEGERs (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let n = rt().type_elements(Handle(dt), unsafe { read(status) }.bytes)?;
        count.set(as_fint(n));
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
        nonnull!(status, datatype);
        let count = try_out!(count);
        let dt = narrow(try_in!(datatype), MPI_ERR_TYPE, "datatype")?;
        // SAFETY: `read` needs `status` to be MPI_STATUS_SIZE readable INTEGERs (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let n = rt().type_elements(Handle(dt), unsafe { read(status) }.bytes)?;
        count.set(n);
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
        nonnull!(status, datatype);
        let count = try_in!(count);
        let dt = narrow(try_in!(datatype), MPI_ERR_TYPE, "datatype")?;
        let bytes = rt().status_bytes_for(count as i64, Handle(dt))?;
        // SAFETY: `read` needs `status` to be MPI_STATUS_SIZE readable INTEGERs (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let mut s = unsafe { read(status) };
        s.bytes = bytes;
        // SAFETY: `write` needs `status` MPI_STATUS_IGNORE or MPI_STATUS_SIZE writable INTEGERs
        // (the by-reference contract of this entry point, fortran/mod.rs).
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
        nonnull!(status, datatype);
        let count = try_in!(count);
        let dt = narrow(try_in!(datatype), MPI_ERR_TYPE, "datatype")?;
        let bytes = rt().status_bytes_for(count, Handle(dt))?;
        // SAFETY: `read` needs `status` to be MPI_STATUS_SIZE readable INTEGERs (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let mut s = unsafe { read(status) };
        s.bytes = bytes;
        // SAFETY: `write` needs `status` MPI_STATUS_IGNORE or MPI_STATUS_SIZE writable INTEGERs
        // (the by-reference contract of this entry point, fortran/mod.rs).
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
        nonnull!(status);
        let flag = try_in!(flag);
        // SAFETY: `read` needs `status` to be MPI_STATUS_SIZE readable INTEGERs (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let mut s = unsafe { read(status) };
        s.cancelled = flag != 0;
        // SAFETY: `write` needs `status` MPI_STATUS_IGNORE or MPI_STATUS_SIZE writable INTEGERs
        // (the by-reference contract of this entry point, fortran/mod.rs).
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
        nonnull!(status);
        let flag = try_out!(flag);
        flag.set(logical(read(status).cancelled));
        Ok(())
    })
}

/// Copies a Fortran status to another, refusing the ignore sentinels (MPI 4.1 §19.3.5: they
/// name no status).
///
/// # Safety
/// `from` readable and `to` writable for `MPI_STATUS_SIZE` INTEGERs, unless NULL or sentinels.
unsafe fn copy_status(from: *const MPI_Fint, to: *mut MPI_Fint) -> crate::error::Result<()> {
    nonnull!(from, to);
    if crate::fortran::sentinels::status_ignored(from)
        || crate::fortran::sentinels::status_ignored(to.cast_const())
    {
        return Err(crate::error::Error::invalid(
            MPI_ERR_ARG,
            "MPI_STATUS_IGNORE is not a status to convert",
        ));
    }
    // SAFETY: both valid for MPI_STATUS_SIZE INTEGERs (this function's `# Safety`, checked
    // above not to be NULL or a sentinel); `copy` allows them to overlap.
    unsafe { std::ptr::copy(from, to, MPI_STATUS_SIZE as usize) };
    Ok(())
}

/// `MPI_STATUS_F082F(F08_STATUS, F_STATUS, IERROR)` (MPI 4.1 §19.3.5): `TYPE(MPI_Status)` of
/// `mpi_f08` holds the INTEGERs of `STATUS(MPI_STATUS_SIZE)` in the same order.
#[no_mangle]
pub unsafe extern "C" fn mpi_status_f082f_(
    f08_status: *const MPI_Fstatus,
    f_status: *mut MPI_Fstatus_int,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_STATUS_F082F", Scope::NoObject, {
        // SAFETY: both statuses of MPI_STATUS_SIZE INTEGERs (the by-reference contract of this
        // entry point, fortran/mod.rs), what `copy_status` asks.
        unsafe { copy_status(f08_status, f_status) }
    })
}

/// `MPI_STATUS_F2F08(F_STATUS, F08_STATUS, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_status_f2f08_(
    f_status: *const MPI_Fstatus_int,
    f08_status: *mut MPI_Fstatus,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_STATUS_F2F08", Scope::NoObject, {
        // SAFETY: both statuses of MPI_STATUS_SIZE INTEGERs (the by-reference contract of this
        // entry point, fortran/mod.rs), what `copy_status` asks.
        unsafe { copy_status(f_status, f08_status) }
    })
}
