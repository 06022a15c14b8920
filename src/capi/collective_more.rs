//! The rest of the collectives over one process (MPI 4.1 §6): the vector variants, where the
//! process's own block sits at its displacement, and the nonblocking forms, which complete
//! when they start (one process has no one to wait for) and return a complete request.

use crate::capi::boundary::Scope;
use crate::capi::collective::{reduce_local, transfer};
use crate::capi::types::*;
use crate::entry;
use crate::world::reduce::CollArgs;
use crate::world::{Error, Handle, Result, Runtime};
use std::ffi::{c_int, c_void};

fn rt() -> &'static Runtime {
    Runtime::global()
}

/// This process's entry (rank 0) of a per-process array argument.
///
/// # Safety
/// `p` must point to one entry per process of `comm` (checked non-NULL here).
unsafe fn own<T: Copy>(p: *const T, name: &'static str) -> Result<T> {
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    Ok(unsafe { *p })
}

/// `buf` moved by `disp` elements of `datatype` (MPI 4.1 §6.5: displacements in extents).
fn at(buf: *const c_void, disp: c_int, datatype: MPI_Datatype) -> Result<*const c_void> {
    if crate::capi::collective::is_in_place(buf) {
        return Ok(buf);
    }
    let (_, extent) = rt().type_get_extent(Handle(datatype))?;
    Ok(buf
        .cast::<u8>()
        .wrapping_offset((disp as i64 * extent) as isize)
        .cast())
}

/// Stores a complete request for a nonblocking collective that already ran.
///
/// # Safety
/// `request` writable (checked).
unsafe fn done(request: *mut MPI_Request) -> Result<()> {
    if request.is_null() {
        return Err(Error::NullArgument { name: "request" });
    }
    let h = rt().completed_request()?;
    unsafe { *request = h.0 };
    Ok(())
}

fn args(
    comm: MPI_Comm,
    count: c_int,
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

/// Gatherv's work (also Allgatherv with no root).
unsafe fn gatherv(
    s: (*const c_void, c_int, MPI_Datatype),
    r: (*mut c_void, *const c_int, *const c_int, MPI_Datatype),
    root: Option<c_int>,
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    let count = unsafe { own(r.1, "recvcounts") }?;
    let disp = unsafe { own(r.2, "displs") }?;
    let rbuf = at(r.0, disp, r.3)? as *mut c_void;
    unsafe { transfer(comm, root, s, (rbuf, count, r.3)) }
}

/// Scatterv's work.
unsafe fn scatterv(
    s: (*const c_void, *const c_int, *const c_int, MPI_Datatype),
    r: (*mut c_void, c_int, MPI_Datatype),
    root: c_int,
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    let count = unsafe { own(s.1, "sendcounts") }?;
    let disp = unsafe { own(s.2, "displs") }?;
    let sbuf = at(s.0, disp, s.3)?;
    unsafe { transfer(comm, Some(root), (sbuf, count, s.3), r) }
}

/// Alltoallv's work.
unsafe fn alltoallv(
    s: (*const c_void, *const c_int, *const c_int, MPI_Datatype),
    r: (*mut c_void, *const c_int, *const c_int, MPI_Datatype),
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    let rcount = unsafe { own(r.1, "recvcounts") }?;
    let rdisp = unsafe { own(r.2, "rdispls") }?;
    let rbuf = at(r.0, rdisp, r.3)? as *mut c_void;
    if crate::capi::collective::is_in_place(s.0) {
        return unsafe { transfer(comm, None, (s.0, rcount, r.3), (rbuf, rcount, r.3)) };
    }
    let scount = unsafe { own(s.1, "sendcounts") }?;
    let sdisp = unsafe { own(s.2, "sdispls") }?;
    let sbuf = at(s.0, sdisp, s.3)?;
    unsafe { transfer(comm, None, (sbuf, scount, s.3), (rbuf, rcount, r.3)) }
}

/// Alltoallw's work: displacements in bytes, one datatype per process.
unsafe fn alltoallw(
    s: (
        *const c_void,
        *const c_int,
        *const c_int,
        *const MPI_Datatype,
    ),
    r: (*mut c_void, *const c_int, *const c_int, *const MPI_Datatype),
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    let rcount = unsafe { own(r.1, "recvcounts") }?;
    let rdisp = unsafe { own(r.2, "rdispls") }?;
    let rtype = unsafe { own(r.3, "recvtypes") }?;
    let rbuf =
        r.0.cast::<u8>()
            .wrapping_offset(rdisp as isize)
            .cast::<c_void>();
    if crate::capi::collective::is_in_place(s.0) {
        return unsafe { transfer(comm, None, (s.0, rcount, rtype), (rbuf, rcount, rtype)) };
    }
    let scount = unsafe { own(s.1, "sendcounts") }?;
    let sdisp = unsafe { own(s.2, "sdispls") }?;
    let stype = unsafe { own(s.3, "sendtypes") }?;
    let sbuf =
        s.0.cast::<u8>()
            .wrapping_offset(sdisp as isize)
            .cast::<c_void>();
    unsafe { transfer(comm, None, (sbuf, scount, stype), (rbuf, rcount, rtype)) }
}

/// Reduce_scatter's work: this process's block is `recvcounts[0]` elements.
unsafe fn reduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Result<()> {
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
        let count = unsafe { own(recvcounts, "recvcounts") }?;
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
        unsafe { reduce_scatter(sendbuf, recvbuf, recvcount, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ibarrier(comm: MPI_Comm, request: *mut MPI_Request) -> c_int {
    entry!("MPI_Ibarrier", Scope::Comm(comm), {
        rt().barrier(Handle(comm))?;
        unsafe { done(request) }
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
        let blocks = rt().collective_blocks(args(comm, count, datatype, None, Some(root)))?;
        crate::capi::collective::check_buffer(buffer, &blocks, "buffer")?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                reduce_local(
                    sendbuf,
                    recvbuf,
                    args(comm, count, datatype, Some(op), Some(root)),
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                reduce_local(
                    sendbuf,
                    recvbuf,
                    args(comm, count, datatype, Some(op), None),
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                reduce_local(
                    sendbuf,
                    recvbuf,
                    args(comm, count, datatype, Some(op), None),
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let _ = (sendbuf, recvbuf);
        rt().collective_blocks(args(comm, count, datatype, Some(op), None))?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                transfer(
                    comm,
                    Some(root),
                    (sendbuf, sendcount, sendtype),
                    (recvbuf, recvcount, recvtype),
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                transfer(
                    comm,
                    Some(root),
                    (sendbuf, sendcount, sendtype),
                    (recvbuf, recvcount, recvtype),
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                transfer(
                    comm,
                    None,
                    (sendbuf, sendcount, sendtype),
                    (recvbuf, recvcount, recvtype),
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                transfer(
                    comm,
                    None,
                    (sendbuf, sendcount, sendtype),
                    (recvbuf, recvcount, recvtype),
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                gatherv(
                    (sendbuf, sendcount, sendtype),
                    (recvbuf, recvcounts, displs, recvtype),
                    Some(root),
                    comm,
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                gatherv(
                    (sendbuf, sendcount, sendtype),
                    (recvbuf, recvcounts, displs, recvtype),
                    None,
                    comm,
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                scatterv(
                    (sendbuf, sendcounts, displs, sendtype),
                    (recvbuf, recvcount, recvtype),
                    root,
                    comm,
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                alltoallv(
                    (sendbuf, sendcounts, sdispls, sendtype),
                    (recvbuf, recvcounts, rdispls, recvtype),
                    comm,
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            unsafe {
                alltoallw(
                    (sendbuf, sendcounts, sdispls, sendtypes),
                    (recvbuf, recvcounts, rdispls, recvtypes),
                    comm,
                )
            }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> = {
            let count = unsafe { own(recvcounts, "recvcounts") }?;
            unsafe { reduce_scatter(sendbuf, recvbuf, count, datatype, op, comm) }
        };
        r?;
        unsafe { done(request) }
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
        let r: Result<()> =
            { unsafe { reduce_scatter(sendbuf, recvbuf, recvcount, datatype, op, comm) } };
        r?;
        unsafe { done(request) }
    })
}
