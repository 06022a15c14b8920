//! Helpers of the generated Fortran bindings (build/fortran_bind.rs writes one `mpi_xxx_` for
//! every C entry point without a hand-written one): each converts the Fortran arguments to C
//! ones, calls the C entry point (whose own boundary reports its errors under the C name) and
//! converts the outputs back. Conversion failures (an 8-byte INTEGER that does not fit the C
//! `int`, a NULL from a C caller) are reported by the binding's own boundary.

use crate::capi::types::MPI_Status;
use crate::consts::{MPI_ERR_ARG, MPI_ERR_IN_STATUS, MPI_STATUS_SIZE, MPI_SUCCESS, MPI_UNDEFINED};
use crate::error::{Error, Result};
use crate::fortran::sentinels::status_ignored;
use crate::fortran::{fint, logical, narrow, MPI_Fint, MPI_Flogical};
use crate::world::{Handle, Runtime};
use std::ffi::{c_char, c_int, CString};

/// A length read from a C count (negative counts give empty arrays; the C call rejects them).
pub fn len<T: TryInto<usize>>(n: T) -> usize {
    n.try_into().unwrap_or(0)
}

/// The number of processes a per-process array of `comm` covers (MPI 4.1 §6.5.2: the counts
/// and displacements of the `v` collectives): the size of the group, 0 for a communicator that
/// is not valid (the C call then reports it).
pub fn span(comm: c_int) -> usize {
    Runtime::global().comm_size(Handle(comm)).map_or(0, len)
}

/// `n` INTEGERs (or handles) as C ints, each checked to fit.
///
/// # Safety
/// `p` points to `n` readable INTEGERs.
pub unsafe fn ints_in(
    p: *const MPI_Fint,
    n: usize,
    class: i32,
    what: &'static str,
) -> Result<Vec<c_int>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: `n` readable INTEGERs (this function's contract).
    let s = unsafe { std::slice::from_raw_parts(p, n) };
    s.iter().map(|&v| narrow(v, class, what)).collect()
}

/// `n` LOGICALs as C ints (nonzero is true).
///
/// # Safety
/// `p` points to `n` readable LOGICALs.
pub unsafe fn logicals_in(p: *const MPI_Flogical, n: usize) -> Vec<c_int> {
    if n == 0 {
        return Vec::new();
    }
    // SAFETY: `n` readable LOGICALs (this function's contract).
    let s = unsafe { std::slice::from_raw_parts(p, n) };
    s.iter().map(|&v| c_int::from(v != 0)).collect()
}

/// Writes C ints back as INTEGERs.
///
/// # Safety
/// `p` points to `v.len()` writable INTEGERs.
pub unsafe fn ints_out(p: *mut MPI_Fint, v: &[c_int]) {
    for (i, &x) in v.iter().enumerate() {
        // SAFETY: within the `v.len()` INTEGERs (this function's contract).
        unsafe { p.add(i).write(fint(x)) };
    }
}

/// Writes C ints back as LOGICALs.
///
/// # Safety
/// `p` points to `v.len()` writable LOGICALs.
pub unsafe fn logicals_out(p: *mut MPI_Flogical, v: &[c_int]) {
    for (i, &x) in v.iter().enumerate() {
        // SAFETY: within the `v.len()` LOGICALs (this function's contract).
        unsafe { p.add(i).write(logical(x != 0)) };
    }
}

/// A 0-based C index as Fortran's 1-based one (MPI 4.1 §19.1.10 and the `any`/`some`
/// routines of §3.7.5): MPI_UNDEFINED stays.
pub fn index_out(i: c_int) -> c_int {
    if i == MPI_UNDEFINED || i < 0 {
        i
    } else {
        i + 1
    }
}

/// A C status of zeros.
pub fn status_zero() -> MPI_Status {
    MPI_Status {
        MPI_SOURCE: 0,
        MPI_TAG: 0,
        MPI_ERROR: 0,
        MPI_internal: [0; 5],
    }
}

/// A Fortran status as the C one (the same integers in the same order, §19.3.5).
///
/// # Safety
/// `p` points to `MPI_STATUS_SIZE` readable INTEGERs.
pub unsafe fn status_in(p: *const MPI_Fint) -> MPI_Status {
    let mut c = [0 as c_int; 8];
    // SAFETY: MPI_STATUS_SIZE readable INTEGERs (this function's contract).
    let s = unsafe { std::slice::from_raw_parts(p, MPI_STATUS_SIZE as usize) };
    for (d, &v) in c.iter_mut().zip(s) {
        // The status fields are the library's own 32-bit values; a wider INTEGER is the
        // sign-extension it wrote.
        *d = v as c_int;
    }
    MPI_Status {
        MPI_SOURCE: c[0],
        MPI_TAG: c[1],
        MPI_ERROR: c[2],
        MPI_internal: [c[3], c[4], c[5], c[6], c[7]],
    }
}

/// Writes a C status to a Fortran one, unless it is MPI_STATUS_IGNORE.
///
/// # Safety
/// `p` is MPI_STATUS(ES)_IGNORE or `MPI_STATUS_SIZE` writable INTEGERs.
pub unsafe fn status_out(p: *mut MPI_Fint, s: &MPI_Status) {
    if status_ignored(p) {
        return;
    }
    let v = [
        s.MPI_SOURCE,
        s.MPI_TAG,
        s.MPI_ERROR,
        s.MPI_internal[0],
        s.MPI_internal[1],
        s.MPI_internal[2],
        s.MPI_internal[3],
        s.MPI_internal[4],
    ];
    // SAFETY: MPI_STATUS_SIZE writable INTEGERs (this function's contract).
    unsafe { ints_out(p, &v[..MPI_STATUS_SIZE as usize]) };
}

/// Writes `v` to an array of Fortran statuses, unless it is MPI_STATUSES_IGNORE.
///
/// # Safety
/// `p` is MPI_STATUSES_IGNORE or `v.len()` statuses of writable INTEGERs.
pub unsafe fn statuses_out(p: *mut MPI_Fint, v: &[MPI_Status]) {
    if status_ignored(p) {
        return;
    }
    for (i, s) in v.iter().enumerate() {
        // SAFETY: status `i` of the `v.len()` (this function's contract).
        unsafe { status_out(p.add(i * MPI_STATUS_SIZE as usize), s) };
    }
}

/// A CHARACTER input as a C string, trailing blanks trimmed (§19.1.9); an embedded NUL is
/// MPI_ERR_ARG.
///
/// # Safety
/// `s` points to `n` readable bytes.
pub unsafe fn string_in(s: *const c_char, n: usize, what: &'static str) -> Result<CString> {
    // SAFETY: `n` readable bytes (this function's contract).
    let text = unsafe { crate::fortran::strings::read_fortran_string(s, n) };
    CString::new(text)
        .map_err(|_| Error::invalid(MPI_ERR_ARG, format!("{what} contains a NUL character")))
}

/// Whether a C call's outputs are to be written back: on success, and for MPI_ERR_IN_STATUS
/// (the statuses then say which request failed, §3.7.5).
pub fn outputs_valid(rc: c_int) -> bool {
    rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS
}

/// Stores the code of a generated binding in IERROR: the binding's own failure, else the C
/// entry point's code.
///
/// # Safety
/// `ierror` is NULL or the caller's INTEGER.
pub unsafe fn set_ierror(ierror: *mut MPI_Fint, own: c_int, rc: c_int) {
    let code = if own != MPI_SUCCESS { own } else { rc };
    if !ierror.is_null() {
        // SAFETY: not NULL: the caller's IERROR (this function's contract).
        unsafe { *ierror = fint(code) };
    }
}

/// Writes a NUL-terminated C string to a CHARACTER output, blank-padded (§19.1.9).
///
/// # Safety
/// `p` points to `n` writable bytes.
pub unsafe fn string_out(p: *mut c_char, n: usize, c: &[c_char]) {
    let end = c.iter().position(|&b| b == 0).unwrap_or(c.len());
    let bytes: Vec<u8> = c[..end].iter().map(|&b| b as u8).collect();
    let text = String::from_utf8_lossy(&bytes);
    // SAFETY: `n` writable bytes (this function's contract).
    unsafe { crate::fortran::strings::write_fortran_string(p, n, n, &text) };
}
