//! The rest of the collectives over one process (MPI 4.1 §6): the vector variants, where the
//! process's own block sits at its displacement, and the nonblocking forms, which complete
//! when they start (one process has no one to wait for) and return a complete request.

use crate::boundary::rt;
use crate::boundary::Out;
use crate::capi::boundary::Scope;
use crate::capi::collective::{reduce_local, transfer};
use crate::capi::types::*;
use crate::capi::width::Num;
use crate::world::reduce::CollArgs;
use crate::world::{Error, Handle, Result};
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};

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
    if crate::capi::collective::is_in_place(buf) {
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

/// [`done`] for entry points that hold the raw `request` pointer.
///
/// # Safety
/// `request` NULL (an error) or writable.
pub(crate) unsafe fn done_raw(request: *mut MPI_Request) -> Result<()> {
    if request.is_null() {
        return Err(Error::NullArgument { name: "request" });
    }
    let h = rt().completed_request()?;
    // SAFETY: non-NULL and writable (this function's contract).
    unsafe { *request = h.0 };
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
    if crate::capi::collective::is_in_place(s.0) {
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
    if crate::capi::collective::is_in_place(s.0) {
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

#[no_mangle]
pub unsafe extern "C" fn MPI_Gatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Gatherv", Scope::Comm(comm), {
        // SAFETY: `gatherv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            gatherv(
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
                Some(root),
                comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Allgatherv", Scope::Comm(comm), {
        // SAFETY: `gatherv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            gatherv(
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
                None,
                comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatterv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Scatterv", Scope::Comm(comm), {
        // SAFETY: `scatterv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            scatterv(
                (sendbuf, sendcounts, displs, sendtype),
                (recvbuf, recvcount, recvtype),
                root,
                comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoallv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Alltoallv", Scope::Comm(comm), {
        // SAFETY: `alltoallv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            alltoallv(
                (sendbuf, sendcounts, sdispls, sendtype),
                (recvbuf, recvcounts, rdispls, recvtype),
                comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Alltoallw", Scope::Comm(comm), {
        // SAFETY: `alltoallw` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            alltoallw(
                (sendbuf, sendcounts, sdispls, sendtypes),
                (recvbuf, recvcounts, rdispls, recvtypes),
                comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Reduce_scatter", Scope::Comm(comm), {
        // SAFETY: `own` needs an array with an entry per process (one here) (MPI's contract for
        // this routine, capi/mod.rs).
        let count = unsafe { own(recvcounts, "recvcounts") }?;
        // SAFETY: `reduce_scatter` needs the buffers and `recvcounts` to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe { reduce_scatter(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_scatter_block(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Reduce_scatter_block", Scope::Comm(comm), {
        // SAFETY: `reduce_scatter` needs the buffers and `recvcounts` to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe { reduce_scatter(sendbuf, recvbuf, recvcount, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ibarrier(comm: MPI_Comm, request: *mut MPI_Request) -> c_int {
    entry!("MPI_Ibarrier", Scope::Comm(comm), {
        let request = try_out!(request);
        rt().barrier(Handle(comm))?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ibcast(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ibcast", Scope::Comm(comm), {
        let request = try_out!(request);
        let blocks = rt().collective_blocks(args(comm, count, datatype, None, Some(root)))?;
        crate::capi::collective::check_buffer(buffer, &blocks, "buffer")?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ireduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ireduce", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `reduce_local` needs both buffers to hold count x datatype (MPI's contract
        // for this routine, capi/mod.rs).
        unsafe {
            reduce_local(
                sendbuf,
                recvbuf,
                args(comm, count, datatype, Some(op), Some(root)),
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iallreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iallreduce", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `reduce_local` needs both buffers to hold count x datatype (MPI's contract
        // for this routine, capi/mod.rs).
        unsafe {
            reduce_local(
                sendbuf,
                recvbuf,
                args(comm, count, datatype, Some(op), None),
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iscan", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `reduce_local` needs both buffers to hold count x datatype (MPI's contract
        // for this routine, capi/mod.rs).
        unsafe {
            reduce_local(
                sendbuf,
                recvbuf,
                args(comm, count, datatype, Some(op), None),
            )
        }?;
        done(request)
    })
}

/// `MPI_Iexscan`: rank 0's receive buffer is undefined (MPI 4.1 §6.11.2), so nothing moves.
#[no_mangle]
pub unsafe extern "C" fn MPI_Iexscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iexscan", Scope::Comm(comm), {
        let request = try_out!(request);
        let _ = (sendbuf, recvbuf);
        rt().collective_blocks(args(comm, count, datatype, Some(op), None))?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Igather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Igather", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `transfer` needs both buffers to hold their count x datatype (MPI's contract
        // for this routine, capi/mod.rs).
        unsafe {
            transfer(
                comm,
                Some(root),
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcount, recvtype),
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iscatter(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iscatter", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `transfer` needs both buffers to hold their count x datatype (MPI's contract
        // for this routine, capi/mod.rs).
        unsafe {
            transfer(
                comm,
                Some(root),
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcount, recvtype),
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iallgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iallgather", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `transfer` needs both buffers to hold their count x datatype (MPI's contract
        // for this routine, capi/mod.rs).
        unsafe {
            transfer(
                comm,
                None,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcount, recvtype),
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ialltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ialltoall", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `transfer` needs both buffers to hold their count x datatype (MPI's contract
        // for this routine, capi/mod.rs).
        unsafe {
            transfer(
                comm,
                None,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcount, recvtype),
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Igatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Igatherv", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `gatherv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            gatherv(
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
                Some(root),
                comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iallgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iallgatherv", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `gatherv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            gatherv(
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
                None,
                comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iscatterv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iscatterv", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `scatterv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            scatterv(
                (sendbuf, sendcounts, displs, sendtype),
                (recvbuf, recvcount, recvtype),
                root,
                comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ialltoallv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ialltoallv", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `alltoallv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            alltoallv(
                (sendbuf, sendcounts, sdispls, sendtype),
                (recvbuf, recvcounts, rdispls, recvtype),
                comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ialltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ialltoallw", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `alltoallw` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            alltoallw(
                (sendbuf, sendcounts, sdispls, sendtypes),
                (recvbuf, recvcounts, rdispls, recvtypes),
                comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ireduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ireduce_scatter", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `own` needs an array with an entry per process (one here) (MPI's contract for
        // this routine, capi/mod.rs).
        let count = unsafe { own(recvcounts, "recvcounts") }?;
        // SAFETY: `reduce_scatter` needs the buffers and `recvcounts` to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe { reduce_scatter(sendbuf, recvbuf, count, datatype, op, comm) }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ireduce_scatter_block(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ireduce_scatter_block", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `reduce_scatter` needs the buffers and `recvcounts` to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        unsafe { reduce_scatter(sendbuf, recvbuf, recvcount, datatype, op, comm) }?;
        done(request)
    })
}
