//! Point-to-point entry points (MPI 4.1 §3): a process sending to itself. The world queues
//! messages and matches them (`world::p2p`); this face moves the bytes between user buffers
//! and the queued messages, along the datatype's byte runs.

use crate::capi::boundary::Scope;
use crate::capi::status;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::p2p::{deadlock, Delivery, RecvTarget, SendMode};
use crate::world::request::{PersistentOp, Tested};
use crate::world::status::Status;
use crate::world::{Error, Handle, Result, Runtime};
use crate::{entry, nonnull};
use std::ffi::{c_int, c_void};

fn rt() -> &'static Runtime {
    Runtime::global()
}

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
        unsafe { std::ptr::copy(data.as_ptr().add(at), d, n) };
        at += n;
    }
}

/// Copies a delivery into its receive buffer and completes its request.
///
/// # Safety
/// The receive buffer must still be valid, as the MPI caller promises until completion.
pub unsafe fn deliver(d: Delivery) -> Result<()> {
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
        unsafe { pack(buf, count, datatype) }?
    };
    let (h, d) = rt().send(Handle(comm), dest, tag, data, mode, req)?;
    if let Some(d) = d {
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

/// A blocking send of any mode.
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
    let h = unsafe { start_send(buf, count, datatype, dest, tag, comm, mode, None) }?;
    finish_blocking(h, what).map(drop)
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
    let h = unsafe { start_recv(buf, count, datatype, source, tag, comm, None) }?;
    let s = finish_blocking(h, "MPI_Recv with no matching message")?;
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
    entry!("MPI_Send", Scope::Comm(comm), {
        unsafe {
            send_blocking(
                buf,
                count.into(),
                datatype,
                dest,
                tag,
                comm,
                SendMode::Standard,
                "MPI_Send",
            )
        }
    })
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
    entry!("MPI_Send_c", Scope::Comm(comm), {
        unsafe {
            send_blocking(
                buf,
                count,
                datatype,
                dest,
                tag,
                comm,
                SendMode::Standard,
                "MPI_Send_c",
            )
        }
    })
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
    entry!("MPI_Bsend", Scope::Comm(comm), {
        unsafe {
            send_blocking(
                buf,
                count.into(),
                datatype,
                dest,
                tag,
                comm,
                SendMode::Buffered,
                "MPI_Bsend",
            )
        }
    })
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
    entry!("MPI_Ssend", Scope::Comm(comm), {
        unsafe {
            send_blocking(
                buf,
                count.into(),
                datatype,
                dest,
                tag,
                comm,
                SendMode::Synchronous,
                "MPI_Ssend with no matching receive posted",
            )
        }
    })
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
    entry!("MPI_Rsend", Scope::Comm(comm), {
        unsafe {
            send_blocking(
                buf,
                count.into(),
                datatype,
                dest,
                tag,
                comm,
                SendMode::Ready,
                "MPI_Rsend",
            )
        }
    })
}

/// A nonblocking send of any mode.
///
/// # Safety
/// As [`pack`]; `request` writable (checked).
// The MPI call's own arguments, passed on as they are.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn isend(
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    mode: SendMode,
    request: *mut MPI_Request,
) -> Result<()> {
    nonnull!(request);
    let h = unsafe { start_send(buf, count, datatype, dest, tag, comm, mode, None) }?;
    unsafe { *request = h.0 };
    Ok(())
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
    entry!("MPI_Isend", Scope::Comm(comm), {
        unsafe {
            isend(
                buf,
                count.into(),
                datatype,
                dest,
                tag,
                comm,
                SendMode::Standard,
                request,
            )
        }
    })
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
    entry!("MPI_Isend_c", Scope::Comm(comm), {
        unsafe {
            isend(
                buf,
                count,
                datatype,
                dest,
                tag,
                comm,
                SendMode::Standard,
                request,
            )
        }
    })
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
    entry!("MPI_Ibsend", Scope::Comm(comm), {
        unsafe {
            isend(
                buf,
                count.into(),
                datatype,
                dest,
                tag,
                comm,
                SendMode::Buffered,
                request,
            )
        }
    })
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
    entry!("MPI_Issend", Scope::Comm(comm), {
        unsafe {
            isend(
                buf,
                count.into(),
                datatype,
                dest,
                tag,
                comm,
                SendMode::Synchronous,
                request,
            )
        }
    })
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
    entry!("MPI_Irsend", Scope::Comm(comm), {
        unsafe {
            isend(
                buf,
                count.into(),
                datatype,
                dest,
                tag,
                comm,
                SendMode::Ready,
                request,
            )
        }
    })
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
        nonnull!(request);
        let h = unsafe { start_recv(buf, count.into(), datatype, source, tag, comm, None) }?;
        unsafe { *request = h.0 };
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
        nonnull!(request);
        let h = unsafe { start_recv(buf, count, datatype, source, tag, comm, None) }?;
        unsafe { *request = h.0 };
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
            unsafe { pack(buf, count.into(), datatype) }?
        };
        let r = unsafe { start_recv(buf, count.into(), datatype, source, recvtag, comm, None) }?;
        match rt().send(Handle(comm), dest, sendtag, data, SendMode::Standard, None) {
            Ok((h, d)) => {
                if let Some(d) = d {
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
    unsafe { *request = h.0 };
    Ok(())
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
    entry!("MPI_Send_init", Scope::Comm(comm), {
        unsafe {
            init(
                send_op(SendMode::Standard, buf, count, datatype, dest, tag, comm),
                request,
            )
        }
    })
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
    entry!("MPI_Bsend_init", Scope::Comm(comm), {
        unsafe {
            init(
                send_op(SendMode::Buffered, buf, count, datatype, dest, tag, comm),
                request,
            )
        }
    })
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
    entry!("MPI_Ssend_init", Scope::Comm(comm), {
        unsafe {
            init(
                send_op(SendMode::Synchronous, buf, count, datatype, dest, tag, comm),
                request,
            )
        }
    })
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
    entry!("MPI_Rsend_init", Scope::Comm(comm), {
        unsafe {
            init(
                send_op(SendMode::Ready, buf, count, datatype, dest, tag, comm),
                request,
            )
        }
    })
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
        unsafe { init(op, request) }
    })
}

/// `MPI_Start` of one persistent request.
///
/// # Safety
/// The buffers given at init must be valid, as the MPI caller promises.
unsafe fn start(req: Handle) -> Result<()> {
    match rt().persistent_op(req)? {
        PersistentOp::Send {
            mode,
            buf,
            count,
            datatype,
            dest,
            tag,
            comm,
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
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Start(request: *mut MPI_Request) -> c_int {
    entry!("MPI_Start", Scope::NoObject, {
        nonnull!(request);
        unsafe { start(Handle(*request)) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Startall(count: c_int, array_of_requests: *mut MPI_Request) -> c_int {
    entry!("MPI_Startall", Scope::NoObject, {
        let reqs = unsafe { crate::capi::request::requests(array_of_requests, count) }?;
        for &r in reqs.iter() {
            unsafe { start(Handle(r)) }?;
        }
        Ok(())
    })
}
