//! Partitioned point-to-point entry points (MPI 4.1 §4): a process sending to itself in
//! partitions. The world matches the requests and keeps the partitions' state
//! (`world::partitioned`); this face copies bytes between the user buffers and the world.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::partitioned::{PartDelivery, PartInit, Side};
use crate::world::{Error, Handle, Result};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_int, c_void};

/// Copies ready partitions into their receive buffers and tells the world.
///
/// # Safety
/// Each receive buffer must be valid: a started partitioned receive's, which the program keeps
/// valid until the request is freed (MPI 4.1 §4.2.1).
pub(crate) unsafe fn deliver_parts(ds: Vec<PartDelivery>) -> Result<()> {
    for d in ds {
        let mut at = 0usize;
        for &(off, len) in &d.runs {
            let n = (len as usize).min(d.data.len() - at);
            let dst = (d.buf as *mut u8).wrapping_offset(off as isize);
            // SAFETY: the receive buffer is valid (this function's `# Safety`) and holds each of
            // `d.runs` (runs of the buffer described at init, the partition's bytes); `n` is at
            // most the run's length and `at + n` at most the data's.
            unsafe { std::ptr::copy(d.data.as_ptr().add(at), dst, n) };
            at += n;
        }
        rt().part_delivered(d.recv, d.index)?;
    }
    Ok(())
}

/// `MPI_Start` of a partitioned request; `false` when `req` is not one.
///
/// # Safety
/// The buffers given at init must be valid, as the MPI caller promises.
pub(crate) unsafe fn start_partitioned(req: Handle) -> Result<bool> {
    match rt().partitioned_start(req)? {
        None => Ok(false),
        Some(ds) => {
            // SAFETY: the receive buffers are valid (this function's `# Safety`).
            unsafe { deliver_parts(ds) }?;
            Ok(true)
        }
    }
}

/// The body of `MPI_Psend_init` and `MPI_Precv_init`.
///
/// # Safety
/// `request` NULL or writable; `info` is not read beyond its handle.
unsafe fn part_init(a: PartInit, info: MPI_Info, request: *mut MPI_Request) -> Result<()> {
    nonnull!(request);
    // The info hints are checked to be an info object and otherwise ignored (§4.2.1 defines
    // none).
    if info != MPI_INFO_NULL {
        rt().info_nkeys(Handle(info))?;
    }
    let h = rt().partitioned_init(a)?;
    // SAFETY: `request` is not NULL (checked above) and writable (this function's `# Safety`).
    unsafe { *request = h.0 };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Psend_init(
    buf: *const c_void,
    partitions: c_int,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Psend_init", Scope::Comm(comm), {
        let a = PartInit {
            side: Side::Send,
            buf: buf as usize,
            partitions: partitions.into(),
            count,
            datatype: Handle(datatype),
            peer: dest,
            tag,
            comm: Handle(comm),
        };
        // SAFETY: `request` NULL or writable (MPI's contract for this routine, capi/mod.rs).
        unsafe { part_init(a, info, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Precv_init(
    buf: *mut c_void,
    partitions: c_int,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Precv_init", Scope::Comm(comm), {
        let a = PartInit {
            side: Side::Recv,
            buf: buf as usize,
            partitions: partitions.into(),
            count,
            datatype: Handle(datatype),
            peer: source,
            tag,
            comm: Handle(comm),
        };
        // SAFETY: `request` NULL or writable (MPI's contract for this routine, capi/mod.rs).
        unsafe { part_init(a, info, request) }
    })
}

/// Marks one partition of an active partitioned send ready: its bytes are read now.
///
/// # Safety
/// The send buffer given at init must be valid (MPI's contract for partitioned sends).
unsafe fn ready(req: Handle, partition: i64) -> Result<()> {
    let (buf, runs) = rt().pready_source(req, partition)?;
    let total: i64 = runs.iter().map(|r| r.1).sum();
    let mut data = Vec::new();
    data.try_reserve_exact(total as usize).map_err(|_| {
        Error::invalid(
            MPI_ERR_NO_MEM,
            format!("no memory for a partition of {total} bytes"),
        )
    })?;
    for &(off, len) in &runs {
        let p = (buf as *const u8).wrapping_offset(off as isize);
        // SAFETY: the send buffer holds the runs of the partitions x count x datatype it was
        // described with (this function's `# Safety`), and `p` starts one of them.
        data.extend_from_slice(unsafe { std::slice::from_raw_parts(p, len as usize) });
    }
    let ds = rt().pready(req, partition, data)?;
    // SAFETY: the receive buffers of started partitioned receives are valid (MPI's contract).
    unsafe { deliver_parts(ds) }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pready(partition: c_int, request: MPI_Request) -> c_int {
    entry!("MPI_Pready", Scope::NoObject, {
        // SAFETY: the buffers given at init are valid (MPI's contract for this routine).
        unsafe { ready(Handle(request), partition.into()) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pready_range(
    partition_low: c_int,
    partition_high: c_int,
    request: MPI_Request,
) -> c_int {
    entry!("MPI_Pready_range", Scope::NoObject, {
        if partition_low > partition_high {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("partition_low {partition_low} exceeds partition_high {partition_high}"),
            ));
        }
        // Every partition checked first, so a bad range marks nothing.
        for p in partition_low..=partition_high {
            rt().pready_source(Handle(request), p.into())?;
        }
        for p in partition_low..=partition_high {
            // SAFETY: the buffers given at init are valid (MPI's contract for this routine).
            unsafe { ready(Handle(request), p.into()) }?;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pready_list(
    length: c_int,
    array_of_partitions: *const c_int,
    request: MPI_Request,
) -> c_int {
    entry!("MPI_Pready_list", Scope::NoObject, {
        let n = usize::try_from(length)
            .map_err(|_| Error::invalid(MPI_ERR_ARG, format!("length {length} is negative")))?;
        if n == 0 {
            return Ok(());
        }
        nonnull!(array_of_partitions);
        // SAFETY: `array_of_partitions` is not NULL (checked above) and holds `length` ints
        // (MPI's contract for this routine, capi/mod.rs).
        let parts = unsafe { std::slice::from_raw_parts(array_of_partitions, n) };
        // Every partition checked first (a repeated one is already ready the second time),
        // so a bad list marks nothing.
        let mut seen = std::collections::BTreeSet::new();
        for &p in parts {
            rt().pready_source(Handle(request), p.into())?;
            if !seen.insert(p) {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!("partition {p} appears twice in array_of_partitions"),
                ));
            }
        }
        for &p in parts {
            // SAFETY: the buffers given at init are valid (MPI's contract for this routine).
            unsafe { ready(Handle(request), p.into()) }?;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Parrived(
    request: MPI_Request,
    partition: c_int,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Parrived", Scope::NoObject, {
        let flag = try_out!(flag);
        let arrived = rt().parrived(Handle(request), partition.into())?;
        flag.set(arrived as c_int);
        Ok(())
    })
}
