//! Helpers of the generated Fortran bindings (build/fortran_bind.rs writes one `mpi_xxx_` for
//! every C entry point without a hand-written one): each converts the Fortran arguments to C
//! ones, calls the C entry point (whose own boundary reports its errors under the C name) and
//! converts the outputs back. Conversion failures (an 8-byte INTEGER that does not fit the C
//! `int`, a NULL from a C caller) are reported by the binding's own boundary.

use crate::capi::types::MPI_Status;
use crate::consts::{MPI_ERR_ARG, MPI_ERR_IN_STATUS, MPI_STATUS_SIZE, MPI_SUCCESS, MPI_UNDEFINED};
use crate::error::{Error, Result};
use crate::fortran::sentinels::{is_unweighted, is_weights_empty, status_ignored};
use crate::fortran::{fint, logical, narrow, MPI_Fint, MPI_Flogical};
use crate::world::topo::Topology;
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

/// The number of dimensions of `comm`'s Cartesian topology (MPI 4.1 §8.5.5: the length of
/// COORDS and REMAIN_DIMS), 0 without one (the C call then reports MPI_ERR_TOPOLOGY).
pub fn cart_ndims(comm: c_int) -> usize {
    match Runtime::global().topology_of(Handle(comm)).as_deref() {
        Ok(Topology::Cart { dims, .. }) => dims.len(),
        _ => 0,
    }
}

/// The in-degree of `comm`'s topology (MPI 4.1 §8.6: the length of RECVCOUNTS, DISPLS,
/// RDISPLS, RECVTYPES of the neighbourhood collectives), 0 without one.
pub fn in_degree(comm: c_int) -> usize {
    crate::capi::neighbor_plan::degrees(comm).map_or(0, |(i, _)| i)
}

/// The out-degree of `comm`'s topology (the length of SENDCOUNTS, SDISPLS, SENDTYPES).
pub fn out_degree(comm: c_int) -> usize {
    crate::capi::neighbor_plan::degrees(comm).map_or(0, |(_, o)| o)
}

/// The number of edges of a graph given by INDEX (MPI 4.1 §8.5.3: EDGES has INDEX(NNODES)
/// entries).
pub fn edge_count(index: &[c_int]) -> usize {
    index.last().map_or(0, |&n| len(n))
}

/// The number of edges DEGREES names (MPI 4.1 §8.5.4: DESTINATIONS and WEIGHTS of
/// MPI_DIST_GRAPH_CREATE have the sum of DEGREES entries); negative degrees count nothing (the
/// C call rejects them).
pub fn degree_sum(degrees: &[c_int]) -> usize {
    degrees.iter().map(|&d| len(d)).sum()
}

/// Whether `comm`'s distributed graph is weighted (its weight outputs are written only then).
pub fn dist_weighted(comm: c_int) -> bool {
    matches!(
        Runtime::global().topology_of(Handle(comm)).as_deref(),
        Ok(Topology::DistGraph { weighted: true, .. })
    )
}

/// `MPI_UNWEIGHTED` and `MPI_WEIGHTS_EMPTY` as C spells them (include/mpi_fragment.h, the MPI
/// 5.0 ABI's addresses).
const C_UNWEIGHTED: usize = 10;
const C_WEIGHTS_EMPTY: usize = 11;

/// A weight array of the distributed graph routines (MPI 4.1 §8.5.4): one of the two Fortran
/// sentinels, given to C as its own sentinel, or the weights as C ints.
pub struct Weights {
    sentinel: Option<usize>,
    values: Vec<c_int>,
}

/// Reads (`read`) or makes room for `n` weights at `p`, recognising the sentinels.
///
/// # Safety
/// `p` is a sentinel or points to `n` INTEGERs (readable when `read`).
pub unsafe fn weights_arg(p: *const MPI_Fint, n: usize, read: bool) -> Result<Weights> {
    let sentinel = if is_unweighted(p) {
        Some(C_UNWEIGHTED)
    } else if is_weights_empty(p) {
        Some(C_WEIGHTS_EMPTY)
    } else {
        None
    };
    let values = match (sentinel, read) {
        (Some(_), _) => Vec::new(),
        // SAFETY: `n` readable INTEGERs (this function's contract).
        (None, true) => unsafe { ints_in(p, n, MPI_ERR_ARG, "weights") }?,
        (None, false) => vec![0; n],
    };
    Ok(Weights { sentinel, values })
}

impl Weights {
    /// The C argument: the C sentinel, or the values.
    pub fn as_mut_ptr(&mut self) -> *mut c_int {
        match self.sentinel {
            Some(a) => a as *mut c_int,
            None => self.values.as_mut_ptr(),
        }
    }

    /// Writes the weights back (not through a sentinel, and only when `written`: the C
    /// routine writes the weights of a weighted graph only).
    ///
    /// # Safety
    /// `p` is a sentinel or points to the `n` writable INTEGERs it was made from.
    pub unsafe fn write_back(&self, p: *mut MPI_Fint, written: bool) {
        if self.sentinel.is_none() && written {
            // SAFETY: the `n` INTEGERs this was made from (this function's contract).
            unsafe { ints_out(p, &self.values) };
        }
    }
}
