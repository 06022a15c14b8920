//! The work of the collectives over one process (MPI 4.1 §6), under the entry points of
//! collective.rs, collective_more.rs and coll_c.rs and the bodies of coll_body.rs: a reduction
//! of one contribution is that contribution, a data-moving collective moves the process's own
//! block from its send side to its receive side along the typemaps, and a vector form places
//! the block at its displacement. The nonblocking forms complete when they start (one process
//! has no one to wait for) and return a complete request.

use crate::boundary::rt;
use crate::boundary::Out;
use crate::capi::types::*;
use crate::capi::width::Num;
use crate::consts::*;
use crate::world::reduce::CollArgs;
use crate::world::{Error, Handle, Result};
use std::ffi::{c_int, c_void};

/// `MPI_IN_PLACE`, as `include/mpi_fragment.h` defines it (`((void *)1)`, the MPI 5.0 ABI
/// value). `consts.rs` holds only integer constants, so the sentinel address is named here.
const IN_PLACE_ADDRESS: usize = 1;

/// Addresses below this cannot hold user data: a NULL buffer with data near it is an error, while
/// `MPI_BOTTOM` (NULL) with absolute addresses from `MPI_Get_address` is fine.
const FIRST_USER_PAGE: i64 = 4096;

pub(crate) fn is_in_place(p: *const c_void) -> bool {
    p as usize == IN_PLACE_ADDRESS
}

/// `MPI_ERR_BUFFER` when `buf` is NULL and the data would lie in the first page.
pub(crate) fn check_buffer(buf: *const c_void, blocks: &[(i64, i64)], name: &str) -> Result<()> {
    if buf.is_null() && blocks.iter().any(|&(off, _)| off < FIRST_USER_PAGE) {
        return Err(Error::invalid(
            MPI_ERR_BUFFER,
            format!("{name} is NULL but the datatype places data at offset 0"),
        ));
    }
    Ok(())
}

/// Copies every run `(offset, len)` from `src + offset` to `dst + offset`.
///
/// # Safety
/// Both buffers must hold the runs, as the MPI caller promises for its datatype and count.
unsafe fn copy_blocks(src: *const c_void, dst: *mut c_void, blocks: &[(i64, i64)]) {
    for &(off, len) in blocks {
        let s = src.cast::<u8>().wrapping_offset(off as isize);
        let d = dst.cast::<u8>().wrapping_offset(off as isize);
        // `copy` (memmove): a user's overlapping runs must not be undefined behaviour here.
        // SAFETY: both buffers hold every run (this function's `# Safety`): `s` and `d` start the
        // same run in each.
        unsafe { std::ptr::copy(s, d, len as usize) };
    }
}

/// Reduce and allreduce over one process: the checks, then the copy unless in place.
///
/// # Safety
/// As [`copy_blocks`].
pub(crate) unsafe fn reduce_local(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    args: CollArgs,
) -> Result<()> {
    let blocks = rt().collective_blocks(args)?;
    if is_in_place(recvbuf) {
        return Err(Error::invalid(
            MPI_ERR_BUFFER,
            "recvbuf is MPI_IN_PLACE (only sendbuf may be)",
        ));
    }
    if is_in_place(sendbuf) {
        // MPI 4.1 §6.9.1: the input is taken from the receive buffer; with one process it is
        // already the result.
        return check_buffer(recvbuf, &blocks, "recvbuf");
    }
    check_buffer(sendbuf, &blocks, "sendbuf")?;
    check_buffer(recvbuf, &blocks, "recvbuf")?;
    if sendbuf == recvbuf.cast_const() && !blocks.is_empty() {
        return Err(Error::invalid(
            MPI_ERR_BUFFER,
            "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)",
        ));
    }
    // SAFETY: `sendbuf`, `recvbuf` are valid here by this function's contract (its `# Safety`).
    unsafe { copy_blocks(sendbuf, recvbuf, &blocks) };
    Ok(())
}

/// One process's part of a data-moving collective (gather, scatter, allgather, alltoall): the
/// send side's bytes, in typemap order, land in the receive side's typemap (MPI 4.1 §6.5). The
/// signatures must agree: more data sent than the receive side holds is `MPI_ERR_TRUNCATE`.
///
/// # Safety
/// Both buffers must hold their typemaps, as the MPI caller promises.
///
/// Generic in the count type: one body serves `int` and `MPI_Count` (the `_c` forms).
pub(crate) unsafe fn transfer<C: Into<i64>>(
    comm: MPI_Comm,
    root: Option<c_int>,
    send: (*const c_void, C, MPI_Datatype),
    recv: (*mut c_void, C, MPI_Datatype),
) -> Result<()> {
    let args = |count: i64, datatype: MPI_Datatype| CollArgs {
        comm: Handle(comm),
        count,
        datatype: Handle(datatype),
        op: None,
        root,
    };
    let (sendbuf, recvbuf) = (send.0, recv.0);
    let (send, recv) = (
        (send.0, send.1.into(), send.2),
        (recv.0, recv.1.into(), recv.2),
    );
    if is_in_place(recvbuf) {
        // Only the root of a scatter may pass MPI_IN_PLACE as recvbuf: its part stays in place.
        rt().collective_blocks(args(send.1, send.2))?;
        return Ok(());
    }
    let rblocks = rt().collective_blocks(args(recv.1, recv.2))?;
    check_buffer(recvbuf, &rblocks, "recvbuf")?;
    if is_in_place(sendbuf) {
        // MPI 4.1 §6.5, §6.7: the process's own part is already in the receive buffer.
        return Ok(());
    }
    let sblocks = rt().collective_blocks(args(send.1, send.2))?;
    check_buffer(sendbuf, &sblocks, "sendbuf")?;
    let sent: i64 = sblocks.iter().map(|&(_, len)| len).sum();
    let room: i64 = rblocks.iter().map(|&(_, len)| len).sum();
    if sent > room {
        return Err(Error::invalid(
            MPI_ERR_TRUNCATE,
            format!("{sent} bytes sent but the receive buffer holds {room}"),
        ));
    }
    // Pack the send side, then unpack into the receive side (the two typemaps may differ).
    let mut packed = Vec::with_capacity(sent as usize);
    for &(off, len) in &sblocks {
        let s = sendbuf.cast::<u8>().wrapping_offset(off as isize);
        // SAFETY: `sendbuf` holds every run of its typemap (this function's `# Safety`), and `s` is
        // the start of one of them.
        packed.extend_from_slice(unsafe { std::slice::from_raw_parts(s, len as usize) });
    }
    let mut at = 0usize;
    for &(off, len) in &rblocks {
        if at >= packed.len() {
            break;
        }
        let n = (len as usize).min(packed.len() - at);
        let d = recvbuf.cast::<u8>().wrapping_offset(off as isize);
        // SAFETY: `recvbuf` holds every run of its typemap (this function's `# Safety`), `d` starts
        // one and `n` is at most its length; `packed` is ours, so they do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(packed.as_ptr().add(at), d, n) };
        at += n;
    }
    Ok(())
}

/// This process's entry (rank 0) of a per-process array argument.
///
/// # Safety
/// `p` must point to one entry per process of `comm` (checked non-NULL here).
pub(crate) unsafe fn own<T: Copy>(p: *const T, name: &'static str) -> Result<T> {
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    // SAFETY: `p` is valid here by this function's contract (its `# Safety`).
    Ok(unsafe { *p })
}

/// `buf` moved by `disp` elements of `datatype` (MPI 4.1 §6.5: displacements in extents).
fn at(buf: *const c_void, disp: i64, datatype: MPI_Datatype) -> Result<*const c_void> {
    if crate::capi::coll_work::is_in_place(buf) {
        return Ok(buf);
    }
    let (_, extent) = rt().type_get_extent(Handle(datatype))?;
    Ok(buf
        .cast::<u8>()
        .wrapping_offset((disp * extent) as isize)
        .cast())
}

/// Stores a complete request for a nonblocking collective that already ran (over one process
/// it completes at once). Its entry point checks `request` before the work, so a NULL one
/// changes nothing.
pub(crate) fn done(request: Out<MPI_Request>) -> Result<()> {
    request.set(rt().completed_request()?.0);
    Ok(())
}

pub(crate) fn args(
    comm: MPI_Comm,
    count: impl Into<i64>,
    datatype: MPI_Datatype,
    op: Option<MPI_Op>,
    root: Option<c_int>,
) -> CollArgs {
    CollArgs {
        comm: Handle(comm),
        count: count.into(),
        datatype: Handle(datatype),
        op: op.map(Handle),
        root,
    }
}

/// Gatherv's work (also Allgatherv with no root); counts and displacements of either width.
pub(crate) unsafe fn gatherv<C: Num + Into<i64>, D: Num>(
    s: (*const c_void, C, MPI_Datatype),
    r: (*mut c_void, *const C, *const D, MPI_Datatype),
    root: Option<c_int>,
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let count = unsafe { own(r.1, "recvcounts") }?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let disp = unsafe { own(r.2, "displs") }?;
    let rbuf = at(r.0, disp.wide(), r.3)? as *mut c_void;
    // SAFETY: the buffers and arrays are as the MPI routine describes, this function's contract
    // (its `# Safety`), which is what `transfer` asks.
    unsafe { transfer(comm, root, s, (rbuf, count, r.3)) }
}

/// Scatterv's work.
pub(crate) unsafe fn scatterv<C: Num + Into<i64>, D: Num>(
    s: (*const c_void, *const C, *const D, MPI_Datatype),
    r: (*mut c_void, C, MPI_Datatype),
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let count = unsafe { own(s.1, "sendcounts") }?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let disp = unsafe { own(s.2, "displs") }?;
    let sbuf = at(s.0, disp.wide(), s.3)?;
    // SAFETY: the buffers and arrays are as the MPI routine describes, this function's contract
    // (its `# Safety`), which is what `transfer` asks.
    unsafe { transfer(comm, Some(root), (sbuf, count, s.3), r) }
}

/// Alltoallv's work.
pub(crate) unsafe fn alltoallv<C: Num + Into<i64>, D: Num>(
    s: (*const c_void, *const C, *const D, MPI_Datatype),
    r: (*mut c_void, *const C, *const D, MPI_Datatype),
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let rcount = unsafe { own(r.1, "recvcounts") }?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let rdisp = unsafe { own(r.2, "rdispls") }?;
    let rbuf = at(r.0, rdisp.wide(), r.3)? as *mut c_void;
    if crate::capi::coll_work::is_in_place(s.0) {
        // SAFETY: the buffers and arrays are as the MPI routine describes, this function's contract
        // (its `# Safety`), which is what `transfer` asks.
        return unsafe { transfer(comm, None, (s.0, rcount, r.3), (rbuf, rcount, r.3)) };
    }
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let scount = unsafe { own(s.1, "sendcounts") }?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let sdisp = unsafe { own(s.2, "sdispls") }?;
    let sbuf = at(s.0, sdisp.wide(), s.3)?;
    // SAFETY: the buffers and arrays are as the MPI routine describes, this function's contract
    // (its `# Safety`), which is what `transfer` asks.
    unsafe { transfer(comm, None, (sbuf, scount, s.3), (rbuf, rcount, r.3)) }
}

/// Alltoallw's work: displacements in bytes, one datatype per process.
#[allow(clippy::type_complexity)]
pub(crate) unsafe fn alltoallw<C: Num + Into<i64>, D: Num>(
    s: (*const c_void, *const C, *const D, *const MPI_Datatype),
    r: (*mut c_void, *const C, *const D, *const MPI_Datatype),
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let rcount = unsafe { own(r.1, "recvcounts") }?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let rdisp = unsafe { own(r.2, "rdispls") }?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let rtype = unsafe { own(r.3, "recvtypes") }?;
    let rbuf =
        r.0.cast::<u8>()
            .wrapping_offset(rdisp.wide() as isize)
            .cast::<c_void>();
    if crate::capi::coll_work::is_in_place(s.0) {
        // SAFETY: the buffers and arrays are as the MPI routine describes, this function's contract
        // (its `# Safety`), which is what `transfer` asks.
        return unsafe { transfer(comm, None, (s.0, rcount, rtype), (rbuf, rcount, rtype)) };
    }
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let scount = unsafe { own(s.1, "sendcounts") }?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let sdisp = unsafe { own(s.2, "sdispls") }?;
    // SAFETY: `own` needs an array with an entry per process (one here): this function's contract
    // (its `# Safety`) passes on the MPI routine's.
    let stype = unsafe { own(s.3, "sendtypes") }?;
    let sbuf =
        s.0.cast::<u8>()
            .wrapping_offset(sdisp.wide() as isize)
            .cast::<c_void>();
    // SAFETY: the buffers and arrays are as the MPI routine describes, this function's contract
    // (its `# Safety`), which is what `transfer` asks.
    unsafe { transfer(comm, None, (sbuf, scount, stype), (rbuf, rcount, rtype)) }
}

/// Reduce_scatter's work: this process's block is `recvcounts[0]` elements.
pub(crate) unsafe fn reduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: impl Into<i64>,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers hold count x datatype, this function's callers' contract
    // (MPI_Reduce_scatter's buffers), which is what `reduce_local` asks.
    unsafe {
        reduce_local(
            sendbuf,
            recvbuf,
            args(comm, count, datatype, Some(op), None),
        )
    }
}
