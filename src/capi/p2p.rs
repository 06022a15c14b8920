//! Point-to-point entry points (MPI 4.1 §3): a process sending to itself. The world queues
//! messages and matches them (`world::p2p`); this face moves the bytes between user buffers
//! and the queued messages, along the datatype's byte runs.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::status;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::p2p::{deadlock, Delivery, RecvTarget, SendMode};
use crate::world::request::{PersistentOp, Tested};
use crate::world::status::Status;
use crate::world::{Error, Handle, Result};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_int, c_void};

/// Gathers `count` x `datatype` from `buf` into one byte vector (the message's data).
///
/// # Safety
/// `buf` must hold the datatype's runs, as the MPI caller promises.
pub unsafe fn pack(buf: *const c_void, count: i64, datatype: MPI_Datatype) -> Result<Vec<u8>> {
    let blocks = rt().p2p_blocks(Handle(datatype), count)?;
    let total: i64 = blocks.iter().map(|b| b.1).sum();
    let mut data = Vec::new();
    data.try_reserve_exact(total as usize).map_err(|_| {
        Error::invalid(
            MPI_ERR_NO_MEM,
            format!("no memory for a message of {total} bytes"),
        )
    })?;
    for &(off, len) in &blocks {
        let p = buf.cast::<u8>().wrapping_offset(off as isize);
        // SAFETY: `buf` holds every run of count x datatype (this function's `# Safety`), and `p`
        // is the start of one of them.
        data.extend_from_slice(unsafe { std::slice::from_raw_parts(p, len as usize) });
    }
    Ok(data)
}

/// Scatters `data` along byte runs at `buf`, run by run, until the data ends.
///
/// # Safety
/// `buf` must hold the runs.
pub unsafe fn unpack(buf: usize, blocks: &[(i64, i64)], data: &[u8]) {
    let mut at = 0usize;
    for &(off, len) in blocks {
        if at >= data.len() {
            break;
        }
        let n = (len as usize).min(data.len() - at);
        let d = (buf as *mut u8).wrapping_offset(off as isize);
        // SAFETY: `buf` holds every run (this function's `# Safety`), `d` starts one and `n` is at
        // most its length; `at + n` is within `data`.
        unsafe { std::ptr::copy(data.as_ptr().add(at), d, n) };
        at += n;
    }
}

/// Copies a delivery into its receive buffer and completes its request.
///
/// # Safety
/// The receive buffer must still be valid, as the MPI caller promises until completion.
pub unsafe fn deliver(d: Delivery) -> Result<()> {
    // SAFETY: the receive buffer is still valid (this function's `# Safety`), which is what
    // `unpack` asks.
    unsafe { unpack(d.target.buf, &d.target.blocks, &d.data) };
    rt().delivered(d.req, d.status)
}

/// Starts a send; the request it makes (or `req`'s) is returned.
///
/// # Safety
/// As [`pack`].
// The MPI call's own arguments, passed on as they are.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn start_send(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    mode: SendMode,
    req: Option<Handle>,
) -> Result<Handle> {
    // A send to MPI_PROC_NULL moves nothing (MPI 4.1 §3.10), whatever the buffer.
    let data = if dest == MPI_PROC_NULL {
        rt().p2p_blocks(Handle(datatype), count)?;
        Vec::new()
    } else {
        // SAFETY: `buf` holds count x datatype, this function's contract (its `# Safety`), which is
        // what `pack` asks.
        unsafe { pack(buf, count, datatype) }?
    };
    let (h, d) = rt().send(Handle(comm), dest, tag, data, mode, req)?;
    if let Some(d) = d {
        // SAFETY: the receive buffer of `d` is a pending receive's, valid until it completes (MPI's
        // contract for receive buffers, which `deliver` asks).
        unsafe { deliver(d) }?;
    }
    Ok(h)
}

/// Starts a receive; the request it makes (or `req`'s) is returned.
///
/// # Safety
/// `buf` must stay valid until the receive completes.
pub(crate) unsafe fn start_recv(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    req: Option<Handle>,
) -> Result<Handle> {
    let blocks = rt().p2p_blocks(Handle(datatype), count)?;
    let target = RecvTarget {
        comm: Handle(comm),
        source,
        tag,
        buf: buf as usize,
        blocks,
    };
    let (h, d) = rt().recv(target, req)?;
    if let Some(d) = d {
        // SAFETY: the receive buffer of `d` is a pending receive's, valid until it completes (MPI's
        // contract for receive buffers, which `deliver` asks).
        unsafe { deliver(d) }?;
    }
    Ok(h)
}

/// Completes a request a blocking call started: its status, or the deadlock error if it
/// cannot complete (the request is withdrawn then).
pub(crate) fn finish_blocking(h: Handle, what: &str) -> Result<Status> {
    match rt().request_test(h)? {
        Tested::Done(s, _) => Ok(s),
        Tested::Pending => match rt().request_wait(h) {
            Ok((s, _)) => Ok(s),
            Err(e) => {
                let _ = rt().cancel(h);
                let _ = rt().request_free(h);
                Err(if e.class() == MPI_ERR_OTHER {
                    deadlock(what)
                } else {
                    e
                })
            }
        },
    }
}

/// A receive's error (truncation) as the call's error.
pub(crate) fn received(s: &Status) -> Result<()> {
    if s.error == MPI_ERR_TRUNCATE {
        return Err(Error::invalid(
            MPI_ERR_TRUNCATE,
            "the message was longer than the receive buffer",
        ));
    }
    Ok(())
}

/// The body of every blocking send (`MPI_Send`, `MPI_Send_c`, `MPI_Bsend`, `MPI_Ssend`,
/// `MPI_Rsend`): `what` names the call in a deadlock error.
///
/// # Safety
/// As [`pack`].
// The MPI call's own arguments, passed on as they are.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) unsafe fn send(
    name: &'static str,
    mode: SendMode,
    what: &str,
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!(name, Scope::Comm(comm), {
        // SAFETY: `buf` holds count x datatype, this function's contract (its `# Safety`), which
        // is what `start_send` asks.
        let h = unsafe { start_send(buf, count, datatype, dest, tag, comm, mode, None) }?;
        finish_blocking(h, what).map(drop)
    })
}

/// A blocking send inside an entry point's boundary (the `_c` forms of `capi::p2p_c`).
///
/// # Safety
/// As [`pack`].
// The MPI call's own arguments, passed on as they are.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn send_blocking(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    mode: SendMode,
    what: &str,
) -> Result<()> {
    // SAFETY: `buf` holds count x datatype, this function's contract, which is what
    // `start_send` asks.
    let h = unsafe { start_send(buf, count, datatype, dest, tag, comm, mode, None) }?;
    finish_blocking(h, what).map(drop)
}

/// A nonblocking send inside an entry point's boundary (the `_c` forms of `capi::p2p_c`).
///
/// # Safety
/// As [`pack`]; `request` NULL or writable.
// The MPI call's own arguments, passed on as they are.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn isend_in(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    mode: SendMode,
    request: *mut MPI_Request,
) -> Result<()> {
    let request = try_out!(request);
    // SAFETY: `buf` holds count x datatype, this function's contract, which is what
    // `start_send` asks.
    let h = unsafe { start_send(buf, count, datatype, dest, tag, comm, mode, None) }?;
    request.set(h.0);
    Ok(())
}

/// A blocking receive.
///
/// # Safety
/// As [`start_recv`]; `status` is NULL or writable.
pub(crate) unsafe fn recv_blocking(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    // SAFETY: `buf` is valid here by this function's contract (its `# Safety`).
    let h = unsafe { start_recv(buf, count, datatype, source, tag, comm, None) }?;
    let s = finish_blocking(h, "MPI_Recv with no matching message")?;
    // SAFETY: `status` is valid here by this function's contract (its `# Safety`).
    unsafe { status::write(status, &s) };
    received(&s)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Send(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send` asks.
    unsafe {
        send(
            "MPI_Send",
            SendMode::Standard,
            "MPI_Send",
            buf,
            count.into(),
            datatype,
            dest,
            tag,
            comm,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Send_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send` asks.
    unsafe {
        send(
            "MPI_Send_c",
            SendMode::Standard,
            "MPI_Send_c",
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Bsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send` asks.
    unsafe {
        send(
            "MPI_Bsend",
            SendMode::Buffered,
            "MPI_Bsend",
            buf,
            count.into(),
            datatype,
            dest,
            tag,
            comm,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ssend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send` asks.
    unsafe {
        send(
            "MPI_Ssend",
            SendMode::Synchronous,
            "MPI_Ssend with no matching receive posted",
            buf,
            count.into(),
            datatype,
            dest,
            tag,
            comm,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send` asks.
    unsafe {
        send(
            "MPI_Rsend",
            SendMode::Ready,
            "MPI_Rsend",
            buf,
            count.into(),
            datatype,
            dest,
            tag,
            comm,
        )
    }
}

/// The body of every nonblocking send (`MPI_Isend`, `MPI_Isend_c`, `MPI_Ibsend`, `MPI_Issend`,
/// `MPI_Irsend`).
///
/// # Safety
/// As [`pack`]; `request` NULL or writable.
// The MPI call's own arguments, passed on as they are.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) unsafe fn isend(
    name: &'static str,
    mode: SendMode,
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!(name, Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `buf` holds count x datatype, this function's contract (its `# Safety`), which
        // is what `start_send` asks.
        let h = unsafe { start_send(buf, count, datatype, dest, tag, comm, mode, None) }?;
        request.set(h.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Isend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `isend` asks.
    unsafe {
        isend(
            "MPI_Isend",
            SendMode::Standard,
            buf,
            count.into(),
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Isend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `isend` asks.
    unsafe {
        isend(
            "MPI_Isend_c",
            SendMode::Standard,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ibsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `isend` asks.
    unsafe {
        isend(
            "MPI_Ibsend",
            SendMode::Buffered,
            buf,
            count.into(),
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Issend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `isend` asks.
    unsafe {
        isend(
            "MPI_Issend",
            SendMode::Synchronous,
            buf,
            count.into(),
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Irsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `isend` asks.
    unsafe {
        isend(
            "MPI_Irsend",
            SendMode::Ready,
            buf,
            count.into(),
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Recv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Recv", Scope::Comm(comm), {
        // SAFETY: `recv_blocking` needs the receive buffer to hold count x datatype and `status`
        // NULL or writable (MPI's contract for this routine, capi/mod.rs).
        unsafe { recv_blocking(buf, count.into(), datatype, source, tag, comm, status) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Recv_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Recv_c", Scope::Comm(comm), {
        // SAFETY: `recv_blocking` needs the receive buffer to hold count x datatype and `status`
        // NULL or writable (MPI's contract for this routine, capi/mod.rs).
        unsafe { recv_blocking(buf, count, datatype, source, tag, comm, status) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Irecv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Irecv", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `start_recv` needs the receive buffer to hold count x datatype until the receive
        // completes (MPI's contract for this routine, capi/mod.rs).
        let h = unsafe { start_recv(buf, count.into(), datatype, source, tag, comm, None) }?;
        request.set(h.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Irecv_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Irecv_c", Scope::Comm(comm), {
        let request = try_out!(request);
        // SAFETY: `start_recv` needs the receive buffer to hold count x datatype until the receive
        // completes (MPI's contract for this routine, capi/mod.rs).
        let h = unsafe { start_recv(buf, count, datatype, source, tag, comm, None) }?;
        request.set(h.0);
        Ok(())
    })
}

/// `MPI_Sendrecv` (MPI 4.1 §3.10): the receive is posted first, so a send to self matches it.
#[no_mangle]
pub unsafe extern "C" fn MPI_Sendrecv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Sendrecv", Scope::Comm(comm), {
        // SAFETY: `start_recv` needs the receive buffer to hold count x datatype until the receive
        // completes (MPI's contract for this routine, capi/mod.rs).
        let r = unsafe {
            start_recv(
                recvbuf,
                recvcount.into(),
                recvtype,
                source,
                recvtag,
                comm,
                None,
            )
        }?;
        // SAFETY: `start_send` needs the send buffer to hold count x datatype (MPI's contract for
        // this routine, capi/mod.rs).
        let sent = unsafe {
            start_send(
                sendbuf,
                sendcount.into(),
                sendtype,
                dest,
                sendtag,
                comm,
                SendMode::Standard,
                None,
            )
        };
        let s = match sent {
            Ok(h) => finish_blocking(h, "MPI_Sendrecv's send")?,
            Err(e) => {
                let _ = rt().request_free(r);
                return Err(e);
            }
        };
        let _ = s;
        let s = finish_blocking(r, "MPI_Sendrecv with no matching message")?;
        // SAFETY: `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe { status::write(status, &s) };
        received(&s)
    })
}

/// `MPI_Sendrecv_replace`: the message is packed before the receive overwrites the buffer.
#[no_mangle]
pub unsafe extern "C" fn MPI_Sendrecv_replace(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Sendrecv_replace", Scope::Comm(comm), {
        let data = if dest == MPI_PROC_NULL {
            Vec::new()
        } else {
            // SAFETY: `pack` needs the buffers to hold what count x datatype covers (MPI's contract
            // for this routine, capi/mod.rs).
            unsafe { pack(buf, count.into(), datatype) }?
        };
        // SAFETY: `start_recv` needs the receive buffer to hold count x datatype until the receive
        // completes (MPI's contract for this routine, capi/mod.rs).
        let r = unsafe { start_recv(buf, count.into(), datatype, source, recvtag, comm, None) }?;
        match rt().send(Handle(comm), dest, sendtag, data, SendMode::Standard, None) {
            Ok((h, d)) => {
                if let Some(d) = d {
                    // SAFETY: `deliver` needs the receive buffer still valid (MPI's contract for
                    // this routine, capi/mod.rs).
                    unsafe { deliver(d) }?;
                }
                finish_blocking(h, "MPI_Sendrecv_replace's send")?;
            }
            Err(e) => {
                let _ = rt().request_free(r);
                return Err(e);
            }
        }
        let s = finish_blocking(r, "MPI_Sendrecv_replace with no matching message")?;
        // SAFETY: `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe { status::write(status, &s) };
        received(&s)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Iprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Iprobe", Scope::Comm(comm), {
        nonnull!(flag);
        let s = rt().probe(Handle(comm), source, tag)?;
        // SAFETY: `flag`: an argument of this call, checked non-NULL above, valid for its type
        // during the call; `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's
        // contract for this routine, capi/mod.rs).
        unsafe {
            *flag = s.is_some() as c_int;
            if let Some(s) = s {
                status::write(status, &s);
            }
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Probe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Probe", Scope::Comm(comm), {
        loop {
            if let Some(s) = rt().probe(Handle(comm), source, tag)? {
                // SAFETY: `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's
                // contract for this routine, capi/mod.rs).
                unsafe { status::write(status, &s) };
                return Ok(());
            }
            if rt().active()?.thread_level != MPI_THREAD_MULTIPLE {
                return Err(deadlock("MPI_Probe with no matching message"));
            }
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
    })
}

/// `MPI_Send_init` & co. and `MPI_Recv_init` (MPI 4.1 §3.9).
///
/// # Safety
/// `request` writable (checked).
pub(crate) unsafe fn init(op: PersistentOp, request: *mut MPI_Request) -> Result<()> {
    nonnull!(request);
    let h = rt().persistent_init(op)?;
    // SAFETY: `request` is valid here by this function's contract (its `# Safety`).
    unsafe { *request = h.0 };
    Ok(())
}

/// The body of `MPI_Send_init`, `MPI_Bsend_init`, `MPI_Ssend_init` and `MPI_Rsend_init`.
///
/// # Safety
/// As [`init`].
// The MPI call's own arguments, passed on as they are.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn send_init(
    name: &'static str,
    mode: SendMode,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!(name, Scope::Comm(comm), {
        let op = send_op(mode, buf, count, datatype, dest, tag, comm);
        // SAFETY: `request` NULL or writable and the buffer valid until the request is freed:
        // this function's contract, which is what `init` asks.
        unsafe { init(op, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Send_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send_init` asks.
    unsafe {
        send_init(
            "MPI_Send_init",
            SendMode::Standard,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Bsend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send_init` asks.
    unsafe {
        send_init(
            "MPI_Bsend_init",
            SendMode::Buffered,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ssend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send_init` asks.
    unsafe {
        send_init(
            "MPI_Ssend_init",
            SendMode::Synchronous,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rsend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    // SAFETY: this call's own arguments, under MPI's contract for it (capi/mod.rs): what
    // `send_init` asks.
    unsafe {
        send_init(
            "MPI_Rsend_init",
            SendMode::Ready,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            request,
        )
    }
}

fn send_op(
    mode: SendMode,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> PersistentOp {
    PersistentOp::Send {
        mode,
        buf: buf as usize,
        count: count.into(),
        datatype: Handle(datatype),
        dest,
        tag,
        comm: Handle(comm),
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Recv_init(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Recv_init", Scope::Comm(comm), {
        let op = PersistentOp::Recv {
            buf: buf as usize,
            count: count.into(),
            datatype: Handle(datatype),
            source,
            tag,
            comm: Handle(comm),
        };
        // SAFETY: `init` needs `request` writable and the buffer valid until the request is freed
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { init(op, request) }
    })
}

/// `MPI_Start` of one persistent request.
///
/// # Safety
/// The buffers given at init must be valid, as the MPI caller promises.
unsafe fn start(req: Handle) -> Result<()> {
    // SAFETY: the buffers given at init are still valid (this function's `# Safety`), what
    // `start_partitioned` asks.
    if unsafe { crate::capi::partitioned::start_partitioned(req) }? {
        return Ok(());
    }
    match rt().persistent_op(req)? {
        PersistentOp::Send {
            mode,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
            // SAFETY: the buffers given at init are still valid (this function's `# Safety`: MPI's
            // contract for persistent requests until they are freed).
        } => unsafe {
            start_send(
                buf as *const c_void,
                count,
                datatype.0,
                dest,
                tag,
                comm.0,
                mode,
                Some(req),
            )
        }
        .map(drop),
        PersistentOp::Recv {
            buf,
            count,
            datatype,
            source,
            tag,
            comm,
            // SAFETY: the buffers given at init are still valid (this function's `# Safety`: MPI's
            // contract for persistent requests until they are freed).
        } => unsafe {
            start_recv(
                buf as *mut c_void,
                count,
                datatype.0,
                source,
                tag,
                comm.0,
                Some(req),
            )
        }
        .map(drop),
        // Over one process a collective completes when it starts.
        PersistentOp::Collective { run, .. } => {
            run()?;
            rt().persistent_done(req)
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Start(request: *mut MPI_Request) -> c_int {
    entry!("MPI_Start", Scope::NoObject, {
        nonnull!(request);
        // SAFETY: `request`: an argument of this call, checked non-NULL above, valid for its type
        // during the call; `start` needs the buffers given at init still valid (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe { start(Handle(*request)) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Startall(count: c_int, array_of_requests: *mut MPI_Request) -> c_int {
    entry!("MPI_Startall", Scope::NoObject, {
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { crate::capi::request::requests(array_of_requests, count) }?;
        for &r in reqs.iter() {
            // SAFETY: `start` needs the buffers given at init still valid (MPI's contract for this
            // routine, capi/mod.rs).
            unsafe { start(Handle(r)) }?;
        }
        Ok(())
    })
}
