//! Persistent collectives (MPI 4.1 §6.13): `MPI_Barrier_init` ... `MPI_Scatterv_init_c`. The
//! init call checks the communicator, info and request and keeps the arguments; each
//! `MPI_Start` runs the collective's body ([`crate::capi::coll_body`]), which over one process
//! completes at once; the request is then complete, inactive after `MPI_Wait`/`MPI_Test`, and
//! can be started again until `MPI_Request_free`.

use crate::capi::boundary::Scope;
use crate::capi::coll_body as body;
use crate::capi::topo_args::check_info;
use crate::capi::types::*;
use crate::entry;
use crate::world::request::PersistentOp;
use crate::world::{Error, Handle, Result, Runtime};
use std::ffi::{c_int, c_void};
use std::sync::Arc;

/// Makes the persistent request that runs `run` at each start.
///
/// # Safety
/// `request` writable when not NULL.
pub(crate) unsafe fn persistent(
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
    run: impl Fn() -> Result<()> + Send + Sync + 'static,
) -> Result<()> {
    check_info(info)?;
    if request.is_null() {
        return Err(Error::NullArgument { name: "request" });
    }
    let h = Runtime::global().persistent_init(PersistentOp::Collective {
        comm: Handle(comm),
        run: Arc::new(run),
    })?;
    // SAFETY: checked non-NULL above; an output argument of the caller.
    unsafe { *request = h.0 };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgather_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Allgather_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::allgather(
                    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgather_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Allgather_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::allgather(
                    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgatherv_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Allgatherv_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        let displs = displs as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const c_int;
            let displs = displs as *const c_int;
            unsafe {
                body::allgatherv(
                    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgatherv_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Allgatherv_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        let displs = displs as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const MPI_Count;
            let displs = displs as *const MPI_Aint;
            unsafe {
                body::allgatherv(
                    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allreduce_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Allreduce_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::allreduce(sendbuf, recvbuf, count, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allreduce_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Allreduce_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::allreduce(sendbuf, recvbuf, count, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoall_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Alltoall_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::alltoall(
                    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoall_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Alltoall_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::alltoall(
                    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoallv_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Alltoallv_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let sendcounts = sendcounts as usize;
        let sdispls = sdispls as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        let rdispls = rdispls as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let sendcounts = sendcounts as *const c_int;
            let sdispls = sdispls as *const c_int;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const c_int;
            let rdispls = rdispls as *const c_int;
            unsafe {
                body::alltoallv(
                    sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                    comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoallv_init_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Alltoallv_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let sendcounts = sendcounts as usize;
        let sdispls = sdispls as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        let rdispls = rdispls as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let sendcounts = sendcounts as *const MPI_Count;
            let sdispls = sdispls as *const MPI_Aint;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const MPI_Count;
            let rdispls = rdispls as *const MPI_Aint;
            unsafe {
                body::alltoallv(
                    sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                    comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoallw_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Alltoallw_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let sendcounts = sendcounts as usize;
        let sdispls = sdispls as usize;
        let sendtypes = sendtypes as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        let rdispls = rdispls as usize;
        let recvtypes = recvtypes as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let sendcounts = sendcounts as *const c_int;
            let sdispls = sdispls as *const c_int;
            let sendtypes = sendtypes as *const MPI_Datatype;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const c_int;
            let rdispls = rdispls as *const c_int;
            let recvtypes = recvtypes as *const MPI_Datatype;
            unsafe {
                body::alltoallw(
                    sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                    recvtypes, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoallw_init_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Alltoallw_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let sendcounts = sendcounts as usize;
        let sdispls = sdispls as usize;
        let sendtypes = sendtypes as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        let rdispls = rdispls as usize;
        let recvtypes = recvtypes as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let sendcounts = sendcounts as *const MPI_Count;
            let sdispls = sdispls as *const MPI_Aint;
            let sendtypes = sendtypes as *const MPI_Datatype;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const MPI_Count;
            let rdispls = rdispls as *const MPI_Aint;
            let recvtypes = recvtypes as *const MPI_Datatype;
            unsafe {
                body::alltoallw(
                    sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                    recvtypes, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Barrier_init(
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Barrier_init", Scope::Comm(comm), {
        let run = move || body::barrier(comm);
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Bcast_init(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Bcast_init", Scope::Comm(comm), {
        let buffer = buffer as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let buffer = buffer as *mut c_void;
            unsafe { body::bcast(buffer, count, datatype, root, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Bcast_init_c(
    buffer: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Bcast_init_c", Scope::Comm(comm), {
        let buffer = buffer as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let buffer = buffer as *mut c_void;
            unsafe { body::bcast(buffer, count, datatype, root, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Exscan_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Exscan_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::exscan(sendbuf, recvbuf, count, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Exscan_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Exscan_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::exscan(sendbuf, recvbuf, count, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Gather_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Gather_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::gather(
                    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Gather_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Gather_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::gather(
                    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Gatherv_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Gatherv_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        let displs = displs as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const c_int;
            let displs = displs as *const c_int;
            unsafe {
                body::gatherv(
                    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Gatherv_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Gatherv_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        let displs = displs as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const MPI_Count;
            let displs = displs as *const MPI_Aint;
            unsafe {
                body::gatherv(
                    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Reduce_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::reduce(sendbuf, recvbuf, count, datatype, op, root, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Reduce_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::reduce(sendbuf, recvbuf, count, datatype, op, root, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_scatter_block_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Reduce_scatter_block_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_scatter_block_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Reduce_scatter_block_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_scatter_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Reduce_scatter_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const c_int;
            unsafe { body::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce_scatter_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Reduce_scatter_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        let recvcounts = recvcounts as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            let recvcounts = recvcounts as *const MPI_Count;
            unsafe { body::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scan_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Scan_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::scan(sendbuf, recvbuf, count, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scan_init_c(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Scan_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe { body::scan(sendbuf, recvbuf, count, datatype, op, comm) }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatter_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Scatter_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::scatter(
                    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatter_init_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Scatter_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::scatter(
                    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatterv_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Scatterv_init", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let sendcounts = sendcounts as usize;
        let displs = displs as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let sendcounts = sendcounts as *const c_int;
            let displs = displs as *const c_int;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::scatterv(
                    sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatterv_init_c(
    sendbuf: *const c_void,
    sendcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Scatterv_init_c", Scope::Comm(comm), {
        let sendbuf = sendbuf as usize;
        let sendcounts = sendcounts as usize;
        let displs = displs as usize;
        let recvbuf = recvbuf as usize;
        // SAFETY: MPI 4.1 §6.13: the buffers and arrays stay valid while the request exists.
        let run = move || {
            let sendbuf = sendbuf as *const c_void;
            let sendcounts = sendcounts as *const MPI_Count;
            let displs = displs as *const MPI_Aint;
            let recvbuf = recvbuf as *mut c_void;
            unsafe {
                body::scatterv(
                    sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                )
            }
        };
        unsafe { persistent(comm, info, request, run) }
    })
}
