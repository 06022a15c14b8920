//! Reading and writing the integer arrays of the topology routines (MPI 4.1 §8).

use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Result, Runtime};
use std::ffi::c_int;

/// The `n` entries at `p`, `MPI_ERR_ARG` for a negative `n` or NULL with entries to read.
///
/// # Safety
/// `p` holds `n` readable ints when not NULL (the MPI caller's promise).
pub(crate) unsafe fn ints(p: *const c_int, n: c_int, name: &'static str) -> Result<Vec<i32>> {
    if n < 0 {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("the length of {name} is {n}"),
        ));
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    // SAFETY: not NULL, `n` entries by the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) }.to_vec())
}

/// Writes the first `max` entries of `v` to `p` (an array of `max` entries: §8.5.5's
/// `maxdims`, `maxneighbors`, ...); a negative `max` is `MPI_ERR_ARG`.
///
/// # Safety
/// `p` holds `max` writable ints when not NULL.
pub(crate) unsafe fn write_ints(
    p: *mut c_int,
    max: c_int,
    v: &[i32],
    name: &'static str,
) -> Result<()> {
    if max < 0 {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("the length of {name} is {max}"),
        ));
    }
    let n = v.len().min(max as usize);
    if n == 0 {
        return Ok(());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    // SAFETY: not NULL, room for `max >= n` entries by the caller's promise.
    unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), p, n) };
    Ok(())
}

/// The checked output communicator of a constructor, written only once the call succeeded.
///
/// # Safety
/// `p` writable when not NULL.
pub(crate) unsafe fn comm_out(p: *mut MPI_Comm) -> Result<*mut MPI_Comm> {
    if p.is_null() {
        return Err(Error::NullArgument { name: "newcomm" });
    }
    Ok(p)
}

/// An info argument: `MPI_INFO_NULL` or a live info object (`MPI_ERR_INFO` otherwise).
pub(crate) fn check_info(info: MPI_Info) -> Result<()> {
    if info != MPI_INFO_NULL {
        Runtime::global().info_nkeys(Handle(info))?;
    }
    Ok(())
}
