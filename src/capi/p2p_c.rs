//! The large-count (`_c`) point-to-point entry points the first p2p face lacked, and the
//! nonblocking `MPI_Isendrecv(_replace)` (MPI 4.1 §3.2, §3.4, §3.7, §3.9, §3.10), over the
//! helpers of `capi::p2p`.

use crate::capi::boundary::Scope;
use crate::capi::p2p::{
    deliver, finish_blocking, init, isend_in, pack, received, send_blocking, start_recv, start_send,
};
use crate::capi::status;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::p2p::SendMode;
use crate::world::request::PersistentOp;
use crate::world::{Handle, Result};
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};

use crate::boundary::rt;

#[no_mangle]
pub unsafe extern "C" fn MPI_Bsend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Bsend_c", Scope::Comm(comm), {
        let mode = SendMode::Buffered;
        // SAFETY: the MPI caller's buffer (capi/mod.rs contract).
        unsafe { send_blocking(buf, count, datatype, dest, tag, comm, mode, "MPI_Bsend_c") }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ssend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Ssend_c", Scope::Comm(comm), {
        let mode = SendMode::Synchronous;
        // SAFETY: the MPI caller's buffer (capi/mod.rs contract).
        unsafe { send_blocking(buf, count, datatype, dest, tag, comm, mode, "MPI_Ssend_c") }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rsend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Rsend_c", Scope::Comm(comm), {
        let mode = SendMode::Ready;
        // SAFETY: the MPI caller's buffer (capi/mod.rs contract).
        unsafe { send_blocking(buf, count, datatype, dest, tag, comm, mode, "MPI_Rsend_c") }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ibsend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ibsend_c", Scope::Comm(comm), {
        let mode = SendMode::Buffered;
        // SAFETY: the MPI caller's buffer (capi/mod.rs contract).
        unsafe { isend_in(buf, count, datatype, dest, tag, comm, mode, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Issend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Issend_c", Scope::Comm(comm), {
        let mode = SendMode::Synchronous;
        // SAFETY: the MPI caller's buffer (capi/mod.rs contract).
        unsafe { isend_in(buf, count, datatype, dest, tag, comm, mode, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Irsend_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Irsend_c", Scope::Comm(comm), {
        let mode = SendMode::Ready;
        // SAFETY: the MPI caller's buffer (capi/mod.rs contract).
        unsafe { isend_in(buf, count, datatype, dest, tag, comm, mode, request) }
    })
}

fn send_op(
    mode: SendMode,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> PersistentOp {
    PersistentOp::Send {
        mode,
        buf: buf as usize,
        count,
        datatype: Handle(datatype),
        dest,
        tag,
        comm: Handle(comm),
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Send_init_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Send_init_c", Scope::Comm(comm), {
        let op = send_op(SendMode::Standard, buf, count, datatype, dest, tag, comm);
        // SAFETY: the MPI caller's request (capi/mod.rs contract).
        unsafe { init(op, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Bsend_init_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Bsend_init_c", Scope::Comm(comm), {
        let op = send_op(SendMode::Buffered, buf, count, datatype, dest, tag, comm);
        // SAFETY: the MPI caller's request (capi/mod.rs contract).
        unsafe { init(op, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Ssend_init_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Ssend_init_c", Scope::Comm(comm), {
        let op = send_op(SendMode::Synchronous, buf, count, datatype, dest, tag, comm);
        // SAFETY: the MPI caller's request (capi/mod.rs contract).
        unsafe { init(op, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Rsend_init_c(
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Rsend_init_c", Scope::Comm(comm), {
        let op = send_op(SendMode::Ready, buf, count, datatype, dest, tag, comm);
        // SAFETY: the MPI caller's request (capi/mod.rs contract).
        unsafe { init(op, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Recv_init_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Recv_init_c", Scope::Comm(comm), {
        let op = PersistentOp::Recv {
            buf: buf as usize,
            count,
            datatype: Handle(datatype),
            source,
            tag,
            comm: Handle(comm),
        };
        // SAFETY: the MPI caller's request (capi/mod.rs contract).
        unsafe { init(op, request) }
    })
}

/// One side of a send-receive: buffer, count, datatype, peer rank and tag.
#[derive(Clone, Copy)]
struct Side<P> {
    buf: P,
    count: i64,
    datatype: MPI_Datatype,
    peer: c_int,
    tag: c_int,
}

/// Starts a send-receive (MPI 4.1 §3.10): the receive is posted first, so a send to self
/// matches it; the eager standard send completes at once. Returns the receive's request, which
/// completes the whole operation.
///
/// # Safety
/// The buffers are the MPI caller's, valid until the receive completes.
unsafe fn start_sendrecv(
    send: Side<*const c_void>,
    recv: Side<*mut c_void>,
    comm: MPI_Comm,
) -> Result<Handle> {
    // SAFETY: the caller's receive buffer (contract above).
    let r = unsafe {
        start_recv(
            recv.buf,
            recv.count,
            recv.datatype,
            recv.peer,
            recv.tag,
            comm,
            None,
        )
    }?;
    // SAFETY: the caller's send buffer (contract above).
    let sent = unsafe {
        start_send(
            send.buf,
            send.count,
            send.datatype,
            send.peer,
            send.tag,
            comm,
            SendMode::Standard,
            None,
        )
    };
    match sent.and_then(|h| finish_blocking(h, "the send of a send-receive")) {
        Ok(_) => Ok(r),
        Err(e) => {
            let _ = rt().request_free(r);
            Err(e)
        }
    }
}

/// Starts a send-receive in one buffer: the message is packed before the receive may
/// overwrite it.
///
/// # Safety
/// As [`start_sendrecv`].
unsafe fn start_sendrecv_replace(
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    (dest, sendtag): (c_int, c_int),
    (source, recvtag): (c_int, c_int),
    comm: MPI_Comm,
) -> Result<Handle> {
    let data = if dest == MPI_PROC_NULL {
        rt().type_blocks(Handle(datatype), count)?;
        Vec::new()
    } else {
        // SAFETY: the caller's buffer (contract above).
        unsafe { pack(buf, count, datatype) }?
    };
    // SAFETY: the caller's buffer (contract above).
    let r = unsafe { start_recv(buf, count, datatype, source, recvtag, comm, None) }?;
    let sent = rt()
        .send(Handle(comm), dest, sendtag, data, SendMode::Standard, None)
        .and_then(|(h, d)| {
            if let Some(d) = d {
                // SAFETY: the delivery goes to the receive just posted in the caller's buffer.
                unsafe { deliver(d) }?;
            }
            finish_blocking(h, "the send of a send-receive")
        });
    match sent {
        Ok(_) => Ok(r),
        Err(e) => {
            let _ = rt().request_free(r);
            Err(e)
        }
    }
}

/// Waits for a blocking send-receive's receive and writes its status.
///
/// # Safety
/// `status` is NULL, `MPI_STATUS_IGNORE` or writable.
unsafe fn finish_sendrecv(r: Handle, what: &str, status: *mut MPI_Status) -> Result<()> {
    let s = finish_blocking(r, what)?;
    // SAFETY: the caller's status (contract above).
    unsafe { status::write(status, &s) };
    received(&s)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Sendrecv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Sendrecv_c", Scope::Comm(comm), {
        let send = Side {
            buf: sendbuf,
            count: sendcount,
            datatype: sendtype,
            peer: dest,
            tag: sendtag,
        };
        let recv = Side {
            buf: recvbuf,
            count: recvcount,
            datatype: recvtype,
            peer: source,
            tag: recvtag,
        };
        // SAFETY: the MPI caller's buffers (capi/mod.rs contract).
        unsafe {
            let r = start_sendrecv(send, recv, comm)?;
            finish_sendrecv(r, "MPI_Sendrecv_c with no matching message", status)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Sendrecv_replace_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Sendrecv_replace_c", Scope::Comm(comm), {
        // SAFETY: the MPI caller's buffer (capi/mod.rs contract).
        unsafe {
            let r = start_sendrecv_replace(
                buf,
                count,
                datatype,
                (dest, sendtag),
                (source, recvtag),
                comm,
            )?;
            finish_sendrecv(r, "MPI_Sendrecv_replace_c with no matching message", status)
        }
    })
}

/// `MPI_Isendrecv` (MPI 4.1 §3.10): the request completes with the receive.
#[no_mangle]
pub unsafe extern "C" fn MPI_Isendrecv(
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
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Isendrecv", Scope::Comm(comm), {
        let out = try_out!(request);
        let send = Side {
            buf: sendbuf,
            count: sendcount.into(),
            datatype: sendtype,
            peer: dest,
            tag: sendtag,
        };
        let recv = Side {
            buf: recvbuf,
            count: recvcount.into(),
            datatype: recvtype,
            peer: source,
            tag: recvtag,
        };
        // SAFETY: the MPI caller's buffers, valid until the request completes.
        out.set(unsafe { start_sendrecv(send, recv, comm) }?.0);
        Ok(())
    })
}

/// `MPI_Isendrecv_replace` (MPI 4.1 §3.10).
#[no_mangle]
pub unsafe extern "C" fn MPI_Isendrecv_replace(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Isendrecv_replace", Scope::Comm(comm), {
        let out = try_out!(request);
        // SAFETY: the MPI caller's buffer, valid until the request completes.
        let r = unsafe {
            start_sendrecv_replace(
                buf,
                count.into(),
                datatype,
                (dest, sendtag),
                (source, recvtag),
                comm,
            )
        }?;
        out.set(r.0);
        Ok(())
    })
}

/// `MPI_Isendrecv_c` (MPI 4.1 §3.10): the request completes with the receive.
#[no_mangle]
pub unsafe extern "C" fn MPI_Isendrecv_c(
    sendbuf: *const c_void,
    sendcount: MPI_Count,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: MPI_Count,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Isendrecv_c", Scope::Comm(comm), {
        let out = try_out!(request);
        let send = Side {
            buf: sendbuf,
            count: sendcount,
            datatype: sendtype,
            peer: dest,
            tag: sendtag,
        };
        let recv = Side {
            buf: recvbuf,
            count: recvcount,
            datatype: recvtype,
            peer: source,
            tag: recvtag,
        };
        // SAFETY: the MPI caller's buffers, valid until the request completes.
        out.set(unsafe { start_sendrecv(send, recv, comm) }?.0);
        Ok(())
    })
}

/// `MPI_Isendrecv_replace_c` (MPI 4.1 §3.10).
#[no_mangle]
pub unsafe extern "C" fn MPI_Isendrecv_replace_c(
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Isendrecv_replace_c", Scope::Comm(comm), {
        let out = try_out!(request);
        // SAFETY: the MPI caller's buffer, valid until the request completes.
        let r = unsafe {
            start_sendrecv_replace(
                buf,
                count,
                datatype,
                (dest, sendtag),
                (source, recvtag),
                comm,
            )
        }?;
        out.set(r.0);
        Ok(())
    })
}
