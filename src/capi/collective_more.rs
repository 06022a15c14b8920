//! The rest of the collective entry points (MPI 4.1 §6): the vector variants and the
//! nonblocking forms, each on the body its `_c` form shares (coll_body.rs); a nonblocking one
//! completes when it starts (one process has no one to wait for) and returns a complete request.

use crate::capi::boundary::Scope;
use crate::capi::coll_body as body;
use crate::capi::coll_work::done;
use crate::capi::types::*;
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};

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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `gatherv` asks.
        unsafe {
            body::gatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `allgatherv` asks.
        unsafe {
            body::allgatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `scatterv` asks.
        unsafe {
            body::scatterv(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `alltoallv` asks.
        unsafe {
            body::alltoallv(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `alltoallw` asks.
        unsafe {
            body::alltoallw(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `reduce_scatter` asks.
        unsafe { body::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `reduce_scatter_block` asks.
        unsafe { body::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ibarrier(comm: MPI_Comm, request: *mut MPI_Request) -> c_int {
    entry!("MPI_Ibarrier", Scope::Comm(comm), {
        let request = try_out!(request);
        body::barrier(comm)?;
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `bcast` asks.
        unsafe { body::bcast(buffer, count, datatype, root, comm) }?;
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `reduce` asks.
        unsafe { body::reduce(sendbuf, recvbuf, count, datatype, op, root, comm) }?;
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `allreduce` asks.
        unsafe { body::allreduce(sendbuf, recvbuf, count, datatype, op, comm) }?;
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `scan` asks.
        unsafe { body::scan(sendbuf, recvbuf, count, datatype, op, comm) }?;
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `exscan` asks.
        unsafe { body::exscan(sendbuf, recvbuf, count, datatype, op, comm) }?;
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `gather` asks.
        unsafe {
            body::gather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `scatter` asks.
        unsafe {
            body::scatter(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `allgather` asks.
        unsafe {
            body::allgather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `alltoall` asks.
        unsafe {
            body::alltoall(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `gatherv` asks.
        unsafe {
            body::gatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `allgatherv` asks.
        unsafe {
            body::allgatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `scatterv` asks.
        unsafe {
            body::scatterv(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `alltoallv` asks.
        unsafe {
            body::alltoallv(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `alltoallw` asks.
        unsafe {
            body::alltoallw(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `reduce_scatter` asks.
        unsafe { body::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm) }?;
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `reduce_scatter_block` asks.
        unsafe { body::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm) }?;
        done(request)
    })
}
