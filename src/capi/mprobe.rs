//! Matched probe and receive (MPI 4.1 §3.8.2): `MPI_Mprobe`/`MPI_Improbe` take the matched
//! message off the queue and name it by a message handle; `MPI_Mrecv`/`MPI_Imrecv` receive
//! exactly that message, and the handle becomes `MPI_MESSAGE_NULL`.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::p2p::{deliver, finish_blocking, received};
use crate::capi::status;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::p2p::{deadlock, RecvTarget};
use crate::world::{Handle, Result};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_int, c_void};

/// Starts the receive of `*message` into count x datatype at `buf`; `*message` becomes
/// `MPI_MESSAGE_NULL`.
///
/// # Safety
/// `message` non-NULL and writable (checked by the caller); `buf` holds count x datatype until
/// the receive completes.
unsafe fn start_mrecv(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
) -> Result<Handle> {
    // SAFETY: `message` is valid here by this function's contract (its `# Safety`).
    let msg = Handle(unsafe { *message });
    let blocks = rt().p2p_blocks(Handle(datatype), count)?;
    let target = RecvTarget {
        comm: Handle(MPI_COMM_NULL),
        source: MPI_ANY_SOURCE,
        tag: MPI_ANY_TAG,
        buf: buf as usize,
        blocks,
    };
    let (h, d) = rt().mrecv(msg, target)?;
    // SAFETY: as above; the message is consumed, so the handle is nulled (MPI 4.1 §3.8.3).
    unsafe { *message = MPI_MESSAGE_NULL };
    if let Some(d) = d {
        // SAFETY: the receive buffer is valid until the receive completes (this function's
        // `# Safety`), which `deliver` asks.
        unsafe { deliver(d) }?;
    }
    Ok(h)
}

/// # Safety
/// The arguments of `MPI_Mrecv` under MPI's contract (capi/mod.rs).
unsafe fn mrecv_blocking(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> Result<()> {
    nonnull!(message);
    // SAFETY: `message` checked non-NULL; `buf` by this function's contract.
    let h = unsafe { start_mrecv(buf, count, datatype, message) }?;
    let s = finish_blocking(h, "MPI_Mrecv")?;
    // SAFETY: `status` NULL (MPI_STATUS_IGNORE) or writable by this function's contract.
    unsafe { status::write(status, &s) };
    received(&s)
}

/// # Safety
/// The arguments of `MPI_Imrecv` under MPI's contract (capi/mod.rs).
unsafe fn mrecv_start(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    request: *mut MPI_Request,
) -> Result<()> {
    nonnull!(message);
    nonnull!(request);
    // SAFETY: `message` checked non-NULL; `buf` by this function's contract.
    let h = unsafe { start_mrecv(buf, count, datatype, message) }?;
    // SAFETY: `request` checked non-NULL above, writable by this function's contract.
    unsafe { *request = h.0 };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Improbe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: *mut c_int,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Improbe", Scope::Comm(comm), {
        nonnull!(flag);
        let message = try_out!(message);
        let m = rt().mprobe(Handle(comm), source, tag)?;
        // SAFETY: `flag`: checked non-NULL above, valid during the call; `write` needs `status`
        // NULL (MPI_STATUS_IGNORE) or writable (MPI's contract for this routine, capi/mod.rs).
        unsafe {
            *flag = m.is_some() as c_int;
            if let Some((h, s)) = m {
                message.set(h.0);
                status::write(status, &s);
            }
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Mprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Mprobe", Scope::Comm(comm), {
        let message = try_out!(message);
        loop {
            if let Some((h, s)) = rt().mprobe(Handle(comm), source, tag)? {
                message.set(h.0);
                // SAFETY: `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's
                // contract for this routine, capi/mod.rs).
                unsafe { status::write(status, &s) };
                return Ok(());
            }
            if rt().active()?.thread_level != MPI_THREAD_MULTIPLE {
                return Err(deadlock("MPI_Mprobe with no matching message"));
            }
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Mrecv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Mrecv", Scope::NoObject, {
        // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs).
        unsafe { mrecv_blocking(buf, count.into(), datatype, message, status) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Mrecv_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Mrecv_c", Scope::NoObject, {
        // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs).
        unsafe { mrecv_blocking(buf, count, datatype, message, status) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Imrecv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Imrecv", Scope::NoObject, {
        // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs).
        unsafe { mrecv_start(buf, count.into(), datatype, message, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Imrecv_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Imrecv_c", Scope::NoObject, {
        // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs).
        unsafe { mrecv_start(buf, count, datatype, message, request) }
    })
}
