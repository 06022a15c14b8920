//! Persistent collectives (MPI 4.1 §6.13): `MPI_Barrier_init` ... `MPI_Scatterv_init_c`. The
//! init call checks the communicator, info and request and binds the arguments; each
//! `MPI_Start` runs the collective's body ([`crate::capi::coll_body`]), which over one process
//! completes at once; the request is then complete, inactive after `MPI_Wait`/`MPI_Test`, and
//! can be started again until `MPI_Request_free`.
//!
//! The buffers stay the caller's (their contents are read at each start); the count,
//! displacement and datatype arrays are copied at the init call, as MPICH and Open MPI bind
//! them there and their users (mpi4py) free the arrays once the init returns. Each int/_c pair
//! of entry points shares one body generic in the width of counts and displacements.

use crate::capi::boundary::Scope;
use crate::capi::coll_body::{self as body, Count};
use crate::capi::coll_work::is_in_place;
use crate::capi::topo_args::check_info;
use crate::capi::types::*;
use crate::capi::width::Num;
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
    // SAFETY: `request` is valid here by this function's contract (its `# Safety`).
    unsafe { *request = h.0 };
    Ok(())
}

/// A buffer's address as the request keeps it for its starts.
#[derive(Clone, Copy)]
struct Buf(*mut c_void);

// SAFETY: only the address is kept: nothing is read or written through it until a start hands it
// back to the collective's body, on the thread that calls `MPI_Start`, and the MPI caller
// promises the buffer is valid then (§6.13: it stays the request's until the request is freed).
unsafe impl Send for Buf {}
// SAFETY: as for `Send`: a shared `Buf` gives out only a copy of the address.
unsafe impl Sync for Buf {}

impl Buf {
    fn new(p: *const c_void) -> Buf {
        Buf(p.cast_mut())
    }
    /// The address (a method, so a closure captures the whole `Buf`, not its raw field).
    fn get(self) -> *mut c_void {
        self.0
    }
}

/// This process's entry of a per-process array argument (counts, displacements, datatypes),
/// copied at the init call; NULL stays NULL, so a start reports it as the blocking form would.
#[derive(Clone, Copy)]
struct Entry<T>(Option<T>);

impl<T: Copy> Entry<T> {
    /// # Safety
    /// `p` NULL or readable for the calling process's entry (the first: one process).
    unsafe fn copy(p: *const T) -> Entry<T> {
        // SAFETY: not NULL, so readable by this function's contract.
        Entry((!p.is_null()).then(|| unsafe { *p }))
    }
    /// A send-side array: not read when the call is in place (§6.8: the collective ignores it).
    ///
    /// # Safety
    /// Unless `in_place`, as for [`Entry::copy`].
    unsafe fn send_side(in_place: bool, p: *const T) -> Entry<T> {
        if in_place {
            Entry(None)
        } else {
            // SAFETY: not in place, so `p` is as `copy` asks by this function's contract.
            unsafe { Entry::copy(p) }
        }
    }
    /// A pointer to the copy, for the body's array argument; valid while `self` is.
    fn ptr(&self) -> *const T {
        self.0.as_ref().map_or(std::ptr::null(), |v| v as *const T)
    }
}

// The bodies of the int/_c pairs. Each binds its arguments and makes the request.
//
// # Safety (each of them)
// As the MPI routine promises: `request` NULL or writable; the buffers valid at every start
// until the request is freed (§6.13); the arrays NULL or readable for this process's entry
// during this call.

#[allow(clippy::too_many_arguments)]
unsafe fn allgather_init<C: Count>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `allgather` asks.
        unsafe {
            body::allgather(
                sendbuf.get(),
                sendcount,
                sendtype,
                recvbuf.get(),
                recvcount,
                recvtype,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn allgatherv_init<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    displs: *const D,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let recvcounts = unsafe { Entry::copy(recvcounts) };
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let displs = unsafe { Entry::copy(displs) };
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `allgatherv` asks.
        unsafe {
            body::allgatherv(
                sendbuf.get(),
                sendcount,
                sendtype,
                recvbuf.get(),
                recvcounts.ptr(),
                displs.ptr(),
                recvtype,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn allreduce_init<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `allreduce` asks.
        unsafe { body::allreduce(sendbuf.get(), recvbuf.get(), count, datatype, op, comm) }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn alltoall_init<C: Count>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `alltoall` asks.
        unsafe {
            body::alltoall(
                sendbuf.get(),
                sendcount,
                sendtype,
                recvbuf.get(),
                recvcount,
                recvtype,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn alltoallv_init<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    sdispls: *const D,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    rdispls: *const D,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    // §6.8: with MPI_IN_PLACE the send arrays are ignored, so they are not read.
    let in_place = is_in_place(sendbuf.get());
    // SAFETY: NULL or this process's entry unless in place, by this function's contract.
    let sendcounts = unsafe { Entry::send_side(in_place, sendcounts) };
    // SAFETY: NULL or this process's entry unless in place, by this function's contract.
    let sdispls = unsafe { Entry::send_side(in_place, sdispls) };
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let recvcounts = unsafe { Entry::copy(recvcounts) };
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let rdispls = unsafe { Entry::copy(rdispls) };
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `alltoallv` asks.
        unsafe {
            body::alltoallv(
                sendbuf.get(),
                sendcounts.ptr(),
                sdispls.ptr(),
                sendtype,
                recvbuf.get(),
                recvcounts.ptr(),
                rdispls.ptr(),
                recvtype,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn alltoallw_init<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    sdispls: *const D,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    rdispls: *const D,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    // §6.8: with MPI_IN_PLACE the send arrays are ignored, so they are not read.
    let in_place = is_in_place(sendbuf.get());
    // SAFETY: NULL or this process's entry unless in place, by this function's contract.
    let sendcounts = unsafe { Entry::send_side(in_place, sendcounts) };
    // SAFETY: NULL or this process's entry unless in place, by this function's contract.
    let sdispls = unsafe { Entry::send_side(in_place, sdispls) };
    // SAFETY: NULL or this process's entry unless in place, by this function's contract.
    let sendtypes = unsafe { Entry::send_side(in_place, sendtypes) };
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let recvcounts = unsafe { Entry::copy(recvcounts) };
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let rdispls = unsafe { Entry::copy(rdispls) };
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let recvtypes = unsafe { Entry::copy(recvtypes) };
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `alltoallw` asks.
        unsafe {
            body::alltoallw(
                sendbuf.get(),
                sendcounts.ptr(),
                sdispls.ptr(),
                sendtypes.ptr(),
                recvbuf.get(),
                recvcounts.ptr(),
                rdispls.ptr(),
                recvtypes.ptr(),
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

unsafe fn bcast_init<C: Count>(
    buffer: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let buffer = Buf::new(buffer);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `bcast` asks.
        unsafe { body::bcast(buffer.get(), count, datatype, root, comm) }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn exscan_init<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `exscan` asks.
        unsafe { body::exscan(sendbuf.get(), recvbuf.get(), count, datatype, op, comm) }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn gather_init<C: Count>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `gather` asks.
        unsafe {
            body::gather(
                sendbuf.get(),
                sendcount,
                sendtype,
                recvbuf.get(),
                recvcount,
                recvtype,
                root,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn gatherv_init<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    displs: *const D,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let recvcounts = unsafe { Entry::copy(recvcounts) };
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let displs = unsafe { Entry::copy(displs) };
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `gatherv` asks.
        unsafe {
            body::gatherv(
                sendbuf.get(),
                sendcount,
                sendtype,
                recvbuf.get(),
                recvcounts.ptr(),
                displs.ptr(),
                recvtype,
                root,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn reduce_init<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `reduce` asks.
        unsafe {
            body::reduce(
                sendbuf.get(),
                recvbuf.get(),
                count,
                datatype,
                op,
                root,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn reduce_scatter_block_init<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `reduce_scatter_block` asks.
        unsafe {
            body::reduce_scatter_block(sendbuf.get(), recvbuf.get(), recvcount, datatype, op, comm)
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn reduce_scatter_init<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let recvcounts = unsafe { Entry::copy(recvcounts) };
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `reduce_scatter` asks.
        unsafe {
            body::reduce_scatter(
                sendbuf.get(),
                recvbuf.get(),
                recvcounts.ptr(),
                datatype,
                op,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn scan_init<C: Count>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: C,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `scan` asks.
        unsafe { body::scan(sendbuf.get(), recvbuf.get(), count, datatype, op, comm) }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn scatter_init<C: Count>(
    sendbuf: *const c_void,
    sendcount: C,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `scatter` asks.
        unsafe {
            body::scatter(
                sendbuf.get(),
                sendcount,
                sendtype,
                recvbuf.get(),
                recvcount,
                recvtype,
                root,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
}

#[allow(clippy::too_many_arguments)]
unsafe fn scatterv_init<C: Count, D: Num>(
    sendbuf: *const c_void,
    sendcounts: *const C,
    displs: *const D,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: C,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sendbuf = Buf::new(sendbuf);
    let recvbuf = Buf::new(recvbuf);
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let sendcounts = unsafe { Entry::copy(sendcounts) };
    // SAFETY: NULL or readable for this process's entry, by this function's contract.
    let displs = unsafe { Entry::copy(displs) };
    let run = move || {
        // SAFETY: the buffers are valid at each start (this function's contract) and the
        // array entries are the request's own copies, which is what `scatterv` asks.
        unsafe {
            body::scatterv(
                sendbuf.get(),
                sendcounts.ptr(),
                displs.ptr(),
                sendtype,
                recvbuf.get(),
                recvcount,
                recvtype,
                root,
                comm,
            )
        }
    };
    // SAFETY: `request` NULL or writable, by this function's contract.
    unsafe { persistent(comm, info, request, run) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allgather_init` asks.
        unsafe {
            allgather_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allgather_init` asks.
        unsafe {
            allgather_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allgatherv_init` asks.
        unsafe {
            allgatherv_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, info,
                request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allgatherv_init` asks.
        unsafe {
            allgatherv_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, info,
                request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allreduce_init` asks.
        unsafe { allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `allreduce_init` asks.
        unsafe { allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoall_init` asks.
        unsafe {
            alltoall_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoall_init` asks.
        unsafe {
            alltoall_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoallv_init` asks.
        unsafe {
            alltoallv_init(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoallv_init` asks.
        unsafe {
            alltoallv_init(
                sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoallw_init` asks.
        unsafe {
            alltoallw_init(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `alltoallw_init` asks.
        unsafe {
            alltoallw_init(
                sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm, info, request,
            )
        }
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
        // SAFETY: `request` is the routine's own argument, NULL or writable as MPI's contract
        // for it says (capi/mod.rs), which is what `persistent` asks.
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `bcast_init` asks.
        unsafe { bcast_init(buffer, count, datatype, root, comm, info, request) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `bcast_init` asks.
        unsafe { bcast_init(buffer, count, datatype, root, comm, info, request) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `exscan_init` asks.
        unsafe { exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `exscan_init` asks.
        unsafe { exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `gather_init` asks.
        unsafe {
            gather_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `gather_init` asks.
        unsafe {
            gather_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `gatherv_init` asks.
        unsafe {
            gatherv_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `gatherv_init` asks.
        unsafe {
            gatherv_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_init` asks.
        unsafe {
            reduce_init(
                sendbuf, recvbuf, count, datatype, op, root, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_init` asks.
        unsafe {
            reduce_init(
                sendbuf, recvbuf, count, datatype, op, root, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_scatter_init` asks.
        unsafe {
            reduce_scatter_init(
                sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_scatter_init` asks.
        unsafe {
            reduce_scatter_init(
                sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_scatter_block_init` asks.
        unsafe {
            reduce_scatter_block_init(
                sendbuf, recvbuf, recvcount, datatype, op, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `reduce_scatter_block_init` asks.
        unsafe {
            reduce_scatter_block_init(
                sendbuf, recvbuf, recvcount, datatype, op, comm, info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scan_init` asks.
        unsafe { scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scan_init` asks.
        unsafe { scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request) }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scatter_init` asks.
        unsafe {
            scatter_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scatter_init` asks.
        unsafe {
            scatter_init(
                sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scatterv_init` asks.
        unsafe {
            scatterv_init(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                info, request,
            )
        }
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
        // SAFETY: the routine's own arguments, as MPI's contract for it gives them (capi/mod.rs),
        // which is what `scatterv_init` asks.
        unsafe {
            scatterv_init(
                sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                info, request,
            )
        }
    })
}
