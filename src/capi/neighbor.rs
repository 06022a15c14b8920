//! Neighbourhood collectives (MPI 4.1 §8.6, §8.7): blocking, nonblocking (`MPI_Ineighbor_*`,
//! complete when they return a request), persistent (`*_init`, run at each `MPI_Start`), each
//! with its `_c` form. One plan per routine serves all of them ([`crate::capi::neighbor_plan`]).

use crate::capi::boundary::Scope;
use crate::capi::neighbor_plan::{arr, degrees, extent_times, Layout, Num, Plan};
use crate::capi::types::*;
use crate::entry;
use crate::world::Result;
use std::ffi::{c_int, c_void};

/// `MPI_Neighbor_allgather`: the send buffer to every out-neighbour; receive block `i` (at
/// `i * recvcount` extents) from in-neighbour `i`.
fn allgather<C: Num>(
    comm: MPI_Comm,
    (sendbuf, sendcount, sendtype): (*const c_void, C, MPI_Datatype),
    (recvbuf, recvcount, recvtype): (*mut c_void, C, MPI_Datatype),
) -> Result<Plan> {
    let (sc, rc) = (sendcount.wide(), recvcount.wide());
    let stride = extent_times(recvtype, rc)?;
    Plan::new(
        comm,
        Layout {
            sendbuf,
            recvbuf,
            send: &|_| Ok((0, sc, sendtype)),
            recv: &|i| Ok((i as i64 * stride, rc, recvtype)),
        },
    )
}

/// `MPI_Neighbor_allgatherv`: receive block `i` of `recvcounts[i]` at `displs[i]` extents.
///
/// # Safety
/// `recvcounts` and `displs` hold one entry per in-neighbour.
unsafe fn allgatherv<C: Num, D: Num>(
    comm: MPI_Comm,
    (sendbuf, sendcount, sendtype): (*const c_void, C, MPI_Datatype),
    (recvbuf, recvcounts, displs, recvtype): (*mut c_void, *const C, *const D, MPI_Datatype),
) -> Result<Plan> {
    let (ind, _) = degrees(comm)?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let counts = unsafe { arr(recvcounts, ind, "recvcounts") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let displs = unsafe { arr(displs, ind, "displs") }?;
    let sc = sendcount.wide();
    Plan::new(
        comm,
        Layout {
            sendbuf,
            recvbuf,
            send: &|_| Ok((0, sc, sendtype)),
            recv: &|i| {
                Ok((
                    extent_times(recvtype, displs[i].wide())?,
                    counts[i].wide(),
                    recvtype,
                ))
            },
        },
    )
}

/// `MPI_Neighbor_alltoall`: send block `j` (at `j * sendcount` extents) to out-neighbour `j`.
fn alltoall<C: Num>(
    comm: MPI_Comm,
    (sendbuf, sendcount, sendtype): (*const c_void, C, MPI_Datatype),
    (recvbuf, recvcount, recvtype): (*mut c_void, C, MPI_Datatype),
) -> Result<Plan> {
    let (sc, rc) = (sendcount.wide(), recvcount.wide());
    let sstride = extent_times(sendtype, sc)?;
    let rstride = extent_times(recvtype, rc)?;
    Plan::new(
        comm,
        Layout {
            sendbuf,
            recvbuf,
            send: &|j| Ok((j as i64 * sstride, sc, sendtype)),
            recv: &|i| Ok((i as i64 * rstride, rc, recvtype)),
        },
    )
}

/// `MPI_Neighbor_alltoallv`: counts and displacements (in extents) per neighbour.
///
/// # Safety
/// The send arrays hold one entry per out-neighbour, the receive arrays per in-neighbour.
unsafe fn alltoallv<C: Num, D: Num>(
    comm: MPI_Comm,
    (sendbuf, sendcounts, sdispls, sendtype): (*const c_void, *const C, *const D, MPI_Datatype),
    (recvbuf, recvcounts, rdispls, recvtype): (*mut c_void, *const C, *const D, MPI_Datatype),
) -> Result<Plan> {
    let (ind, outd) = degrees(comm)?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let sc = unsafe { arr(sendcounts, outd, "sendcounts") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let sd = unsafe { arr(sdispls, outd, "sdispls") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let rc = unsafe { arr(recvcounts, ind, "recvcounts") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let rd = unsafe { arr(rdispls, ind, "rdispls") }?;
    Plan::new(
        comm,
        Layout {
            sendbuf,
            recvbuf,
            send: &|j| {
                Ok((
                    extent_times(sendtype, sd[j].wide())?,
                    sc[j].wide(),
                    sendtype,
                ))
            },
            recv: &|i| {
                Ok((
                    extent_times(recvtype, rd[i].wide())?,
                    rc[i].wide(),
                    recvtype,
                ))
            },
        },
    )
}

/// `MPI_Neighbor_alltoallw`: byte displacements and a datatype per neighbour.
///
/// # Safety
/// As [`alltoallv`], the datatype arrays too.
#[allow(clippy::type_complexity)]
unsafe fn alltoallw<C: Num>(
    comm: MPI_Comm,
    (sendbuf, sendcounts, sdispls, sendtypes): (
        *const c_void,
        *const C,
        *const MPI_Aint,
        *const MPI_Datatype,
    ),
    (recvbuf, recvcounts, rdispls, recvtypes): (
        *mut c_void,
        *const C,
        *const MPI_Aint,
        *const MPI_Datatype,
    ),
) -> Result<Plan> {
    let (ind, outd) = degrees(comm)?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let sc = unsafe { arr(sendcounts, outd, "sendcounts") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let sd = unsafe { arr(sdispls, outd, "sdispls") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let st = unsafe { arr(sendtypes, outd, "sendtypes") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let rc = unsafe { arr(recvcounts, ind, "recvcounts") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let rd = unsafe { arr(rdispls, ind, "rdispls") }?;
    // SAFETY: the array has an entry per neighbour (`n`), the contract of this function's callers,
    // the neighbourhood entry points (MPI 4.1 §8.6), which is what `arr` asks.
    let rt = unsafe { arr(recvtypes, ind, "recvtypes") }?;
    Plan::new(
        comm,
        Layout {
            sendbuf,
            recvbuf,
            send: &|j| Ok((sd[j].wide(), sc[j].wide(), st[j])),
            recv: &|i| Ok((rd[i].wide(), rc[i].wide(), rt[i])),
        },
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Neighbor_allgather", Scope::Comm(comm), {
        let plan = allgather(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_allgather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Neighbor_allgather_c", Scope::Comm(comm), {
        let plan = allgather(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ineighbor_allgather", Scope::Comm(comm), {
        let plan = allgather(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_allgather_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ineighbor_allgather_c", Scope::Comm(comm), {
        let plan = allgather(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_allgather_init(
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
    entry!("MPI_Neighbor_allgather_init", Scope::Comm(comm), {
        let plan = allgather(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_allgather_init_c(
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
    entry!("MPI_Neighbor_allgather_init_c", Scope::Comm(comm), {
        let plan = allgather(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_allgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Neighbor_allgatherv", Scope::Comm(comm), {
        // SAFETY: MPI 4.1 §8.6.1: `recvcounts` and `displs` hold one entry per in-neighbour
        // (the routine's contract), as `allgatherv` asks.
        let plan = unsafe {
            allgatherv(
                comm,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_allgatherv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const MPI_Count,
    displs: *const MPI_Aint,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Neighbor_allgatherv_c", Scope::Comm(comm), {
        // SAFETY: MPI 4.1 §8.6.1: `recvcounts` and `displs` hold one entry per in-neighbour
        // (the routine's contract), as `allgatherv` asks.
        let plan = unsafe {
            allgatherv(
                comm,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_allgatherv(
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
    entry!("MPI_Ineighbor_allgatherv", Scope::Comm(comm), {
        // SAFETY: MPI 4.1 §8.6.1: `recvcounts` and `displs` hold one entry per in-neighbour
        // (the routine's contract), as `allgatherv` asks.
        let plan = unsafe {
            allgatherv(
                comm,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_allgatherv_c(
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
    entry!("MPI_Ineighbor_allgatherv_c", Scope::Comm(comm), {
        // SAFETY: MPI 4.1 §8.6.1: `recvcounts` and `displs` hold one entry per in-neighbour
        // (the routine's contract), as `allgatherv` asks.
        let plan = unsafe {
            allgatherv(
                comm,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_allgatherv_init(
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
    entry!("MPI_Neighbor_allgatherv_init", Scope::Comm(comm), {
        // SAFETY: MPI 4.1 §8.6.1: `recvcounts` and `displs` hold one entry per in-neighbour
        // (the routine's contract), as `allgatherv` asks.
        let plan = unsafe {
            allgatherv(
                comm,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_allgatherv_init_c(
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
    entry!("MPI_Neighbor_allgatherv_init_c", Scope::Comm(comm), {
        // SAFETY: MPI 4.1 §8.6.1: `recvcounts` and `displs` hold one entry per in-neighbour
        // (the routine's contract), as `allgatherv` asks.
        let plan = unsafe {
            allgatherv(
                comm,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcounts, displs, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Neighbor_alltoall", Scope::Comm(comm), {
        let plan = alltoall(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoall_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Neighbor_alltoall_c", Scope::Comm(comm), {
        let plan = alltoall(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ineighbor_alltoall", Scope::Comm(comm), {
        let plan = alltoall(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_alltoall_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ineighbor_alltoall_c", Scope::Comm(comm), {
        let plan = alltoall(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoall_init(
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
    entry!("MPI_Neighbor_alltoall_init", Scope::Comm(comm), {
        let plan = alltoall(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoall_init_c(
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
    entry!("MPI_Neighbor_alltoall_init_c", Scope::Comm(comm), {
        let plan = alltoall(
            comm,
            (sendbuf, sendcount, sendtype),
            (recvbuf, recvcount, recvtype),
        )?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoallv(
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
    entry!("MPI_Neighbor_alltoallv", Scope::Comm(comm), {
        // SAFETY: `alltoallv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallv(
                comm,
                (sendbuf, sendcounts, sdispls, sendtype),
                (recvbuf, recvcounts, rdispls, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoallv_c(
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
    entry!("MPI_Neighbor_alltoallv_c", Scope::Comm(comm), {
        // SAFETY: `alltoallv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallv(
                comm,
                (sendbuf, sendcounts, sdispls, sendtype),
                (recvbuf, recvcounts, rdispls, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_alltoallv(
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
    entry!("MPI_Ineighbor_alltoallv", Scope::Comm(comm), {
        // SAFETY: `alltoallv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallv(
                comm,
                (sendbuf, sendcounts, sdispls, sendtype),
                (recvbuf, recvcounts, rdispls, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_alltoallv_c(
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
    entry!("MPI_Ineighbor_alltoallv_c", Scope::Comm(comm), {
        // SAFETY: `alltoallv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallv(
                comm,
                (sendbuf, sendcounts, sdispls, sendtype),
                (recvbuf, recvcounts, rdispls, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoallv_init(
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
    entry!("MPI_Neighbor_alltoallv_init", Scope::Comm(comm), {
        // SAFETY: `alltoallv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallv(
                comm,
                (sendbuf, sendcounts, sdispls, sendtype),
                (recvbuf, recvcounts, rdispls, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoallv_init_c(
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
    entry!("MPI_Neighbor_alltoallv_init_c", Scope::Comm(comm), {
        // SAFETY: `alltoallv` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallv(
                comm,
                (sendbuf, sendcounts, sdispls, sendtype),
                (recvbuf, recvcounts, rdispls, recvtype),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Neighbor_alltoallw", Scope::Comm(comm), {
        // SAFETY: `alltoallw` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallw(
                comm,
                (sendbuf, sendcounts, sdispls, sendtypes),
                (recvbuf, recvcounts, rdispls, recvtypes),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoallw_c(
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
    entry!("MPI_Neighbor_alltoallw_c", Scope::Comm(comm), {
        // SAFETY: `alltoallw` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallw(
                comm,
                (sendbuf, sendcounts, sdispls, sendtypes),
                (recvbuf, recvcounts, rdispls, recvtypes),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.run() }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_alltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ineighbor_alltoallw", Scope::Comm(comm), {
        // SAFETY: `alltoallw` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallw(
                comm,
                (sendbuf, sendcounts, sdispls, sendtypes),
                (recvbuf, recvcounts, rdispls, recvtypes),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ineighbor_alltoallw_c(
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
    entry!("MPI_Ineighbor_alltoallw_c", Scope::Comm(comm), {
        // SAFETY: `alltoallw` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallw(
                comm,
                (sendbuf, sendcounts, sdispls, sendtypes),
                (recvbuf, recvcounts, rdispls, recvtypes),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.now(request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoallw_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Neighbor_alltoallw_init", Scope::Comm(comm), {
        // SAFETY: `alltoallw` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallw(
                comm,
                (sendbuf, sendcounts, sdispls, sendtypes),
                (recvbuf, recvcounts, rdispls, recvtypes),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Neighbor_alltoallw_init_c(
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
    entry!("MPI_Neighbor_alltoallw_init_c", Scope::Comm(comm), {
        // SAFETY: `alltoallw` needs the buffers and per-process arrays to be as the MPI routine
        // describes (MPI's contract for this routine, capi/mod.rs).
        let plan = unsafe {
            alltoallw(
                comm,
                (sendbuf, sendcounts, sdispls, sendtypes),
                (recvbuf, recvcounts, rdispls, recvtypes),
            )
        }?;
        // SAFETY: the plan holds this call's own buffers and per-neighbour arrays, valid as MPI's
        // contract for this routine says (capi/mod.rs), which is what the plan's method asks.
        unsafe { plan.persistent(info, request) }
    })
}
