//! Point-to-point communication of one process with itself (MPI 4.1 §3).
//!
//! Every communicator here has one process, so every message goes from rank 0 to rank 0 of the
//! same communicator. Sends are eager: the data is copied out of the send buffer when the send
//! starts (so a standard, buffered or ready send completes at once, MPI 4.1 §3.4), and waits in
//! the communicator's queue until a receive matches it. A receive posted first waits in the
//! posted queue; the send that matches it hands its data over. Matching follows §3.5: the
//! oldest message whose communicator, source and tag fit, and messages between one pair of
//! processes do not overtake each other.
//!
//! Nothing here touches user memory: the world says where the data goes (buffer address and
//! byte runs), and the face copies. A blocking operation that can never complete (a receive
//! with no matching message, a synchronous send with no matching receive) would wait forever
//! in a single process; unless other threads may still post the match
//! (`MPI_THREAD_MULTIPLE`), it fails with `MPI_ERR_OTHER` naming the deadlock instead.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
pub use crate::world::objects::p2p::{
    deadlock, BufferOwner, Delivery, Queues, RecvTarget, SendMode,
};
use crate::world::objects::p2p::{Attached, Message, Posted};
use crate::world::request::Request;
use crate::world::runtime::Runtime;
use crate::world::state::State;
use crate::world::status::Status;
impl State {
    /// A buffer's owner is a live communicator or session (MPI 4.1 §3.6.1), or the process.
    pub fn check_buffer_owner(&self, owner: BufferOwner) -> Result<()> {
        match owner {
            Some(h)
                if crate::world::handle::kind_of(h) == Some(crate::kinds::HandleKind::Session) =>
            {
                self.sessions.get(h).map(drop)
            }
            Some(c) => self.comms.get(c).map(drop),
            None => Ok(()),
        }
    }

    /// Whether communication on `comm` is pending: a message not received, or a receive posted
    /// and not matched (what `MPI_Comm_disconnect` waits for).
    pub fn p2p_pending_on(&self, comm: Handle) -> bool {
        self.p2p.unexpected.iter().any(|m| m.comm == comm)
            || self.p2p.posted.iter().any(|p| p.target.comm == comm)
    }

    /// Whether `owner` has a buffer attached.
    pub fn p2p_has_buffer(&self, owner: BufferOwner) -> bool {
        self.p2p.buffers.iter().any(|(o, _)| *o == owner)
    }
}

fn matches(m: &Message, comm: Handle, source: i32, tag: i32) -> bool {
    m.comm == comm
        && (source == MPI_ANY_SOURCE || source == 0)
        && (tag == MPI_ANY_TAG || tag == m.tag)
}

/// The status of `data` received into `target`, and the data cut to fit (MPI 4.1 §3.2.4: a
/// longer message is `MPI_ERR_TRUNCATE`, the buffer holds what fits).
fn receive(target: RecvTarget, tag: i32, mut data: Vec<u8>) -> Delivery {
    let cap = target.capacity();
    let mut error = MPI_SUCCESS;
    if data.len() as i64 > cap {
        data.truncate(cap as usize);
        error = MPI_ERR_TRUNCATE;
    }
    Delivery {
        status: Status {
            source: 0,
            tag,
            error,
            bytes: data.len() as i64,
            cancelled: false,
        },
        req: Handle(MPI_REQUEST_NULL),
        target,
        data,
    }
}

/// Checks a destination rank and tag of a send on a communicator of `size`.
fn check_send(dest: i32, tag: i32, size: i32) -> Result<()> {
    if dest != MPI_PROC_NULL && !(0..size).contains(&dest) {
        return Err(Error::invalid(
            MPI_ERR_RANK,
            format!("dest {dest} is not a rank of a communicator of {size}"),
        ));
    }
    if !(0..=TAG_UB_VALUE).contains(&tag) {
        return Err(Error::invalid(
            MPI_ERR_TAG,
            format!("tag {tag} is not in 0..=MPI_TAG_UB"),
        ));
    }
    Ok(())
}

/// Checks a source rank and tag of a receive or probe.
fn check_recv(source: i32, tag: i32, size: i32) -> Result<()> {
    if source != MPI_PROC_NULL && source != MPI_ANY_SOURCE && !(0..size).contains(&source) {
        return Err(Error::invalid(
            MPI_ERR_RANK,
            format!("source {source} is not a rank of a communicator of {size}"),
        ));
    }
    if tag != MPI_ANY_TAG && !(0..=TAG_UB_VALUE).contains(&tag) {
        return Err(Error::invalid(
            MPI_ERR_TAG,
            format!("tag {tag} is not MPI_ANY_TAG or in 0..=MPI_TAG_UB"),
        ));
    }
    Ok(())
}

impl State {
    /// A communicator's size, checking it is a live intracommunicator.
    fn p2p_size(&self, comm: Handle) -> Result<i32> {
        Ok(self.comms.get(comm)?.members.len() as i32)
    }

    /// The byte runs of `count` x `datatype` (committed) at a buffer.
    pub fn comm_blocks(&self, datatype: Handle, count: i64) -> Result<Vec<(i64, i64)>> {
        if count < 0 {
            return Err(Error::invalid(
                MPI_ERR_COUNT,
                format!("count {count} is negative"),
            ));
        }
        let t = self.types.get(datatype)?;
        if !t.committed {
            return Err(Error::invalid(
                MPI_ERR_TYPE,
                format!("datatype {:#x} is not committed", datatype.0),
            ));
        }
        Ok(t.layout.blocks(count))
    }
}

impl Runtime {
    /// The byte runs of a send or receive buffer of `count` x `datatype`.
    pub fn p2p_blocks(&self, datatype: Handle, count: i64) -> Result<Vec<(i64, i64)>> {
        self.active()?.comm_blocks(datatype, count)
    }

    /// Starts a send of `data` (already packed by the face). Returns the request (complete,
    /// unless a synchronous send waits for its receive) and, when a posted receive matched,
    /// what to write into its buffer. `req` reuses a persistent request's handle.
    pub fn send(
        &self,
        comm: Handle,
        dest: i32,
        tag: i32,
        data: Vec<u8>,
        mode: SendMode,
        req: Option<Handle>,
    ) -> Result<(Handle, Option<Delivery>)> {
        let mut st = self.active()?;
        let size = st.p2p_size(comm)?;
        check_send(dest, tag, size)?;
        let finish = |st: &mut State, r: Request| -> Result<Handle> {
            match req {
                Some(h) => {
                    st.set_active_state(h, r)?;
                    Ok(h)
                }
                None => st.requests.insert(r),
            }
        };
        if dest == MPI_PROC_NULL {
            let h = finish(&mut st, Request::Done(Status::PROC_NULL))?;
            return Ok((h, None));
        }
        let mut buffered = None;
        if mode == SendMode::Buffered {
            let need = data.len() as i64 + MPI_BSEND_OVERHEAD as i64;
            // The communicator's buffer comes first, then the process's (MPI 4.1 §3.6.1).
            let owner = if st.p2p.buffer(Some(comm)).is_some() {
                Some(comm)
            } else {
                None
            };
            let room = st.p2p.buffer(owner).map_or(0, |b| b.size - b.used);
            if need > room {
                return Err(Error::invalid(
                    MPI_ERR_BUFFER,
                    format!(
                        "a buffered send of {} bytes needs {need} bytes of attached buffer; {room} are free",
                        data.len()
                    ),
                ));
            }
            buffered = Some((owner, need));
        }
        // The oldest posted receive that matches takes the message.
        let pos = st.p2p.posted.iter().position(|p| {
            p.target.comm == comm
                && (p.target.source == MPI_ANY_SOURCE || p.target.source == 0)
                && (p.target.tag == MPI_ANY_TAG || p.target.tag == tag)
        });
        if let Some(i) = pos {
            let p = st.p2p.posted.remove(i).expect("position found");
            let d = receive(p.target, tag, data);
            st.set_active_state(p.req, Request::Delivering(d.status))?;
            let h = finish(&mut st, Request::Done(Status::EMPTY))?;
            return Ok((h, Some(Delivery { req: p.req, ..d })));
        }
        let sync = mode == SendMode::Synchronous;
        let h = finish(
            &mut st,
            if sync {
                Request::SendPending
            } else {
                Request::Done(Status::EMPTY)
            },
        )?;
        if let Some((owner, n)) = buffered {
            if let Some(b) = st.p2p.buffer(owner) {
                b.used += n;
            }
        }
        st.p2p.unexpected.push_back(Message {
            comm,
            tag,
            data,
            sync: sync.then_some(h),
            buffered,
        });
        Ok((h, None))
    }

    /// Posts a receive: the delivery at once when a message is queued (to copy, then
    /// [`Runtime::delivered`]), else a pending request. `req` reuses a persistent request.
    pub fn recv(
        &self,
        target: RecvTarget,
        req: Option<Handle>,
    ) -> Result<(Handle, Option<Delivery>)> {
        let mut st = self.active()?;
        let size = st.p2p_size(target.comm)?;
        check_recv(target.source, target.tag, size)?;
        let new = |st: &mut State, r: Request| -> Result<Handle> {
            match req {
                Some(h) => {
                    st.set_active_state(h, r)?;
                    Ok(h)
                }
                None => st.requests.insert(r),
            }
        };
        if target.source == MPI_PROC_NULL {
            let h = new(&mut st, Request::Done(Status::PROC_NULL))?;
            return Ok((h, None));
        }
        let pos = st
            .p2p
            .unexpected
            .iter()
            .position(|m| matches(m, target.comm, target.source, target.tag));
        match pos {
            Some(i) => {
                let m = st.p2p.unexpected.remove(i).expect("position found");
                st.p2p.release(&m);
                if let Some(s) = m.sync {
                    st.set_active_state(s, Request::Done(Status::EMPTY))?;
                }
                let d = receive(target, m.tag, m.data);
                let h = new(&mut st, Request::Delivering(d.status))?;
                Ok((h, Some(Delivery { req: h, ..d })))
            }
            None => {
                let h = new(&mut st, Request::RecvPending)?;
                st.p2p.posted.push_back(Posted { req: h, target });
                Ok((h, None))
            }
        }
    }

    /// The face has copied a delivery's data: its receive request is complete.
    pub fn delivered(&self, req: Handle, status: Status) -> Result<()> {
        let mut st = self.lock();
        st.set_active_state(req, Request::Done(status))
    }

    /// `MPI_Iprobe`, `MPI_Probe` (MPI 4.1 §3.8.1): the status of the message a receive would
    /// match, if one is queued.
    pub fn probe(&self, comm: Handle, source: i32, tag: i32) -> Result<Option<Status>> {
        let st = self.active()?;
        let size = st.p2p_size(comm)?;
        check_recv(source, tag, size)?;
        if source == MPI_PROC_NULL {
            return Ok(Some(Status::PROC_NULL));
        }
        Ok(st
            .p2p
            .unexpected
            .iter()
            .find(|m| matches(m, comm, source, tag))
            .map(|m| Status {
                source: 0,
                tag: m.tag,
                error: MPI_SUCCESS,
                bytes: m.data.len() as i64,
                cancelled: false,
            }))
    }

    /// `MPI_Cancel` (MPI 4.1 §3.8.4): a pending receive or an unmatched synchronous send is
    /// cancelled (its status says so); anything already complete is left as it is.
    pub fn cancel(&self, req: Handle) -> Result<()> {
        if self.grequest_cancel(req)?.is_some() {
            return Ok(());
        }
        let mut st = self.active()?;
        let cancelled = Status {
            cancelled: true,
            ..Status::EMPTY
        };
        match st.request_state(req)? {
            Request::RecvPending => {
                st.p2p.posted.retain(|p| p.req != req);
                st.set_active_state(req, Request::Done(cancelled))
            }
            Request::SendPending => {
                st.p2p.unexpected.retain(|m| m.sync != Some(req));
                st.set_active_state(req, Request::Done(cancelled))
            }
            _ => Ok(()),
        }
    }

    /// `MPI_Buffer_attach`, `MPI_Comm_attach_buffer` (MPI 4.1 §3.6.1): one buffer per owner.
    pub fn buffer_attach(&self, owner: BufferOwner, addr: usize, size: i64) -> Result<()> {
        let mut st = self.active()?;
        st.check_buffer_owner(owner)?;
        if size < 0 {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("size {size} is negative"),
            ));
        }
        if st.p2p.buffer(owner).is_some() {
            return Err(Error::invalid(
                MPI_ERR_BUFFER,
                "a buffer is already attached",
            ));
        }
        st.p2p.buffers.push((
            owner,
            Attached {
                addr,
                size,
                used: 0,
            },
        ));
        Ok(())
    }

    /// `MPI_Buffer_flush`, `MPI_Comm_flush_buffer`: waits until the messages in the buffer are
    /// delivered; in one process only a receive can take them, so messages still buffered are
    /// the deadlock error.
    pub fn buffer_flush(&self, owner: BufferOwner) -> Result<()> {
        let mut st = self.active()?;
        st.check_buffer_owner(owner)?;
        if st.p2p.buffer(owner).is_some_and(|b| b.used > 0) {
            return Err(deadlock(
                "flushing a buffer whose messages are not yet received",
            ));
        }
        Ok(())
    }

    /// `MPI_Buffer_detach`, `MPI_Comm_detach_buffer`: flushes, then gives the buffer back.
    pub fn buffer_detach(&self, owner: BufferOwner) -> Result<(usize, i64)> {
        self.buffer_flush(owner)?;
        let mut st = self.active()?;
        let Some(i) = st.p2p.buffers.iter().position(|(o, _)| *o == owner) else {
            return Err(Error::invalid(MPI_ERR_BUFFER, "no buffer is attached"));
        };
        let (_, b) = st.p2p.buffers.remove(i);
        Ok((b.addr, b.size))
    }
}

/// Matched probe and receive (MPI 4.1 §3.8.2): a matched message leaves the queue, so only
/// the `MPI_Mrecv`/`MPI_Imrecv` of its handle can receive it.
impl Runtime {
    /// `MPI_Improbe`/`MPI_Mprobe`: the handle and status of the message taken off the queue,
    /// if one matches; `MPI_MESSAGE_NO_PROC` for `MPI_PROC_NULL`.
    pub fn mprobe(&self, comm: Handle, source: i32, tag: i32) -> Result<Option<(Handle, Status)>> {
        let mut st = self.active()?;
        let size = st.p2p_size(comm)?;
        check_recv(source, tag, size)?;
        if source == MPI_PROC_NULL {
            return Ok(Some((Handle(MPI_MESSAGE_NO_PROC), Status::PROC_NULL)));
        }
        let Some(i) = st
            .p2p
            .unexpected
            .iter()
            .position(|m| matches(m, comm, source, tag))
        else {
            return Ok(None);
        };
        let m = st.p2p.unexpected.remove(i).expect("position found");
        let status = Status {
            source: 0,
            tag: m.tag,
            error: MPI_SUCCESS,
            bytes: m.data.len() as i64,
            cancelled: false,
        };
        let sync = m.sync;
        let buffered = m.buffered;
        match st.messages.insert(m) {
            Ok(h) => {
                // Matched: a synchronous send completes, a buffered one frees its bytes.
                if let Some((owner, n)) = buffered {
                    if let Some(b) = st.p2p.buffer(owner) {
                        b.used -= n;
                    }
                }
                if let Some(s) = sync {
                    st.set_active_state(s, Request::Done(Status::EMPTY))?;
                }
                Ok(Some((h, status)))
            }
            Err(e) => Err(e),
        }
    }

    /// `MPI_Mrecv`/`MPI_Imrecv`: receives the matched message `msg` into `target` (whose
    /// source and tag are ignored); the message handle is consumed.
    pub fn mrecv(&self, msg: Handle, target: RecvTarget) -> Result<(Handle, Option<Delivery>)> {
        let mut st = self.active()?;
        if msg.0 == MPI_MESSAGE_NO_PROC {
            let h = st.requests.insert(Request::Done(Status::PROC_NULL))?;
            return Ok((h, None));
        }
        if msg.0 == MPI_MESSAGE_NULL {
            return Err(Error::invalid(
                MPI_ERR_REQUEST,
                "MPI_MESSAGE_NULL is not a matched message".to_string(),
            ));
        }
        st.messages.get(msg)?;
        let h = st.requests.insert(Request::Delivering(Status::EMPTY))?;
        let m = st.messages.remove(msg).expect("checked above");
        let d = receive(target, m.tag, m.data);
        st.set_active_state(h, Request::Delivering(d.status))?;
        Ok((h, Some(Delivery { req: h, ..d })))
    }
}
