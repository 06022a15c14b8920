//! The `_c` forms (MPI 4.1 §6: `MPI_Count` counts, `MPI_Aint` displacements) of the
//! collectives and of their nonblocking forms, on the bodies of [`crate::capi::coll_body`].

use crate::capi::boundary::Scope;
use crate::capi::coll_body as body;
use crate::capi::coll_work::done;
use crate::capi::types::*;
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Allgather_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allgather` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::allgather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Allgatherv_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allgatherv` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::allgatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allreduce_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Allreduce_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allreduce` asks (coll_body.rs's `# Safety`).
        unsafe { body::allreduce(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoall_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Alltoall_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoall` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::alltoall(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoallv_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Alltoallv_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoallv` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::alltoallv(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoallw_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Alltoallw_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoallw` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::alltoallw(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Bcast_c(
    buffer: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Bcast_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `bcast` asks (coll_body.rs's `# Safety`).
        unsafe { body::bcast(buffer, count, datatype, root, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Exscan_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Exscan_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `exscan` asks (coll_body.rs's `# Safety`).
        unsafe { body::exscan(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Gather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Gather_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `gather` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::gather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Gatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Gatherv_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `gatherv` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::gatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iallgather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iallgather_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allgather` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::allgather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iallgatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iallgatherv_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allgatherv` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::allgatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iallreduce_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iallreduce_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allreduce` asks (coll_body.rs's `# Safety`).
        unsafe { body::allreduce(sendbuf, recvbuf, count, datatype, op, comm) }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ialltoall_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ialltoall_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoall` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::alltoall(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ialltoallv_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ialltoallv_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoallv` asks (coll_body.rs's `# Safety`).
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
pub unsafe extern "C" fn MPI_Ialltoallw_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ialltoallw_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoallw` asks (coll_body.rs's `# Safety`).
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
pub unsafe extern "C" fn MPI_Ibcast_c(
    buffer: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ibcast_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `bcast` asks (coll_body.rs's `# Safety`).
        unsafe { body::bcast(buffer, count, datatype, root, comm) }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iexscan_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iexscan_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `exscan` asks (coll_body.rs's `# Safety`).
        unsafe { body::exscan(sendbuf, recvbuf, count, datatype, op, comm) }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Igather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Igather_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `gather` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::gather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Igatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Igatherv_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `gatherv` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::gatherv(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ireduce_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ireduce_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce` asks (coll_body.rs's `# Safety`).
        unsafe { body::reduce(sendbuf, recvbuf, count, datatype, op, root, comm) }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ireduce_scatter_block_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ireduce_scatter_block_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_scatter_block` asks (coll_body.rs's `# Safety`).
        unsafe { body::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm) }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ireduce_scatter_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ireduce_scatter_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_scatter` asks (coll_body.rs's `# Safety`).
        unsafe { body::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm) }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iscan_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iscan_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scan` asks (coll_body.rs's `# Safety`).
        unsafe { body::scan(sendbuf, recvbuf, count, datatype, op, comm) }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iscatter_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iscatter_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scatter` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::scatter(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iscatterv_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Iscatterv_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scatterv` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::scatterv(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }?;
        done(request)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Reduce_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce` asks (coll_body.rs's `# Safety`).
        unsafe { body::reduce(sendbuf, recvbuf, count, datatype, op, root, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_scatter_block_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Reduce_scatter_block_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_scatter_block` asks (coll_body.rs's `# Safety`).
        unsafe { body::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_scatter_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Reduce_scatter_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_scatter` asks (coll_body.rs's `# Safety`).
        unsafe { body::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scan_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Scan_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scan` asks (coll_body.rs's `# Safety`).
        unsafe { body::scan(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatter_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Scatter_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scatter` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::scatter(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatterv_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Scatterv_c", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scatterv` asks (coll_body.rs's `# Safety`).
        unsafe {
            body::scatterv(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}
