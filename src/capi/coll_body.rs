//! The collectives of MPI 4.1 §6 as functions of their arguments, generic in the width of
//! counts and displacements, for the forms that share one body: the `_c` forms, their
//! nonblocking twins, and the persistent `_init` forms (which run them at each `MPI_Start`).
//! Each is a thin dispatch to the work functions of `coll_work`.
//!
//! # Safety (every `unsafe fn` here)
//! The arguments are an MPI routine's, as its caller promises them: each buffer holds what
//! its count and datatype describe (or is `MPI_IN_PLACE` where the routine allows it); each
//! per-process array is NULL or has an entry per process of `comm` (one here).

use crate::boundary::rt;
use crate::capi::coll_work::{alltoallv as alltoallv_work, alltoallw as alltoallw_work};
use crate::capi::coll_work::{args, gatherv as gatherv_work, own};
use crate::capi::coll_work::{check_buffer, reduce_local, transfer};
use crate::capi::coll_work::{reduce_scatter as reduce_scatter_work, scatterv as scatterv_work};
use crate::capi::types::*;
use crate::capi::width::Num;
use crate::world::{Handle, Result};
use std::ffi::{c_int, c_void};

/// A count of either width.
pub(crate) trait Count: Num + Into<i64> {}
impl<T: Num + Into<i64>> Count for T {}

pub(crate) fn barrier(comm: MPI_Comm) -> Result<()> {
    rt().barrier(Handle(comm))
}

/// The root's buffer is already the broadcast value; only the arguments are checked.
pub(crate) unsafe fn bcast<C: Count>(
    buffer: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    let blocks = rt().collective_blocks(args(comm, count, datatype, None, Some(root)))?;
    check_buffer(buffer, &blocks, "buffer")
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gather<C: Count>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        transfer(
            comm,
            Some(root),
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scatter<C: Count>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        gather(
            sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
        )
    }
}

pub(crate) unsafe fn allgather<C: Count>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        transfer(
            comm,
            None,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )
    }
}

pub(crate) unsafe fn alltoall<C: Count>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        allgather(
            sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gatherv<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    displs: *const D,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        gatherv_work(
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcounts, displs, recvtype),
            Some(root),
            comm,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn allgatherv<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    displs: *const D,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        gatherv_work(
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcounts, displs, recvtype),
            None,
            comm,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scatterv<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    displs: *const D,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        scatterv_work(
            (sendbuf, sendcounts, displs, sendtype),
            (recvbuf, recvcount, recvtype),
            root,
            comm,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn alltoallv<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    sdispls: *const D,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    rdispls: *const D,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        alltoallv_work(
            (sendbuf, sendcounts, sdispls, sendtype),
            (recvbuf, recvcounts, rdispls, recvtype),
            comm,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn alltoallw<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    sdispls: *const D,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    rdispls: *const D,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        alltoallw_work(
            (sendbuf, sendcounts, sdispls, sendtypes),
            (recvbuf, recvcounts, rdispls, recvtypes),
            comm,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn reduce<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        reduce_local(
            sendbuf,
            recvbuf,
            args(comm, count, datatype, Some(op), Some(root)),
        )
    }
}

pub(crate) unsafe fn allreduce<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe {
        reduce_local(
            sendbuf,
            recvbuf,
            args(comm, count, datatype, Some(op), None),
        )
    }
}

/// `MPI_Scan` over one process: its own contribution (§6.11.1).
pub(crate) unsafe fn scan<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe { allreduce(sendbuf, recvbuf, count, datatype, op, comm) }
}

/// `MPI_Exscan`: rank 0's receive buffer is undefined (§6.11.2), so nothing moves.
pub(crate) unsafe fn exscan<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    let _ = (sendbuf, recvbuf);
    rt().collective_blocks(args(comm, count, datatype, Some(op), None))
        .map(drop)
}

/// `MPI_Reduce_scatter`: this process's block is `recvcounts[0]` elements.
pub(crate) unsafe fn reduce_scatter<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    let count = unsafe { own(recvcounts, "recvcounts") }?;
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe { reduce_scatter_work(sendbuf, recvbuf, count, datatype, op, comm) }
}

pub(crate) unsafe fn reduce_scatter_block<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
    // SAFETY: the buffers and arrays are as this module's contract (its `# Safety`) gives them,
    // which is what the work function asks.
    unsafe { reduce_scatter_work(sendbuf, recvbuf, recvcount, datatype, op, comm) }
}
