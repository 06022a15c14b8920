//! Collective entry points over one process (MPI 4.1 §6), the blocking ones with a count: each
//! runs the body its `_c` form shares (coll_body.rs; the work in coll_work.rs).

use crate::boundary::Scope;
use crate::capi::coll_body as body;
use crate::capi::types::*;
use crate::entry;
use std::ffi::{c_int, c_void};

#[no_mangle]
pub unsafe extern "C" fn MPI_Barrier(comm: MPI_Comm) -> c_int {
    entry!("MPI_Barrier", Scope::Comm(comm), { body::barrier(comm) })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Bcast(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Bcast", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `bcast` asks.
        unsafe { body::bcast(buffer, count, datatype, root, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Reduce", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `reduce` asks.
        unsafe { body::reduce(sendbuf, recvbuf, count, datatype, op, root, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Allreduce", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `allreduce` asks.
        unsafe { body::allreduce(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Gather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Gather", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `gather` asks.
        unsafe {
            body::gather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatter(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Scatter", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `scatter` asks.
        unsafe {
            body::scatter(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Allgather", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `allgather` asks.
        unsafe {
            body::allgather(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Alltoall", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `alltoall` asks.
        unsafe {
            body::alltoall(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
            )
        }
    })
}

/// `MPI_Scan`: the prefix reduction over one process is its own contribution.
#[no_mangle]
pub unsafe extern "C" fn MPI_Scan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Scan", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `scan` asks.
        unsafe { body::scan(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}

/// `MPI_Exscan`: rank 0's receive buffer is undefined (MPI 4.1 §6.11.2), so nothing moves.
#[no_mangle]
pub unsafe extern "C" fn MPI_Exscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Exscan", Scope::Comm(comm), {
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them
        // (capi/mod.rs), which is what `exscan` asks.
        unsafe { body::exscan(sendbuf, recvbuf, count, datatype, op, comm) }
    })
}
