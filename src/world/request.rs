//! Requests (MPI 4.1 §3.7, §3.9): nonblocking and persistent operations of the single-process
//! world. A request is pending until what it waits for happens in this process (a matching
//! send or receive); waiting on one that nothing can complete is the deadlock error of
//! `world::p2p`.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
use crate::world::objects::p2p::deadlock;
pub use crate::world::objects::request::{PersistentOp, Request};
use crate::world::runtime::Runtime;
use crate::world::state::State;
use crate::world::status::Status;

impl State {
    /// The state of a request's current operation (a persistent request's started one;
    /// `Complete` for an inactive persistent request, which completes at once).
    pub fn request_state(&self, req: Handle) -> Result<&Request> {
        match self.requests.get(req)? {
            Request::Persistent {
                active: Some(a), ..
            } => Ok(a),
            Request::Persistent { active: None, .. } => Ok(&Request::Complete),
            r => Ok(r),
        }
    }

    /// Sets the state of a request's current operation.
    pub fn set_active_state(&mut self, req: Handle, state: Request) -> Result<()> {
        match self.requests.get_mut(req)? {
            Request::Persistent { active, .. } => *active = Some(Box::new(state)),
            r => *r = state,
        }
        Ok(())
    }
}

/// The outcome of testing one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tested {
    /// Complete: its status, and the handle the caller keeps (`MPI_REQUEST_NULL` once freed;
    /// a persistent request stays, inactive).
    Done(Status, Handle),
    Pending,
}

impl Runtime {
    /// `MPI_Test` on one request (MPI 4.1 §3.7.3): a complete request is released (a
    /// persistent one made inactive); the null request and inactive persistent requests
    /// complete at once with the empty status.
    pub fn request_test(&self, req: Handle) -> Result<Tested> {
        let mut st = self.active()?;
        if req == Handle(MPI_REQUEST_NULL) {
            return Ok(Tested::Done(Status::EMPTY, req));
        }
        let status = match st.request_state(req)? {
            Request::Complete => Status::EMPTY,
            Request::Done(s) => *s,
            Request::Delivering(_) | Request::RecvPending | Request::SendPending => {
                return Ok(Tested::Pending)
            }
            Request::Partitioned(_) => {
                return Ok(match st.part_test(req, true)? {
                    Some(s) => Tested::Done(s, req),
                    None => Tested::Pending,
                })
            }
            Request::Generalized(_) => {
                drop(st);
                return Ok(match self.grequest_test(req)? {
                    Some(Some(s)) => Tested::Done(s, Handle(MPI_REQUEST_NULL)),
                    _ => Tested::Pending,
                });
            }
            Request::Persistent { .. } => unreachable!("request_state looks inside"),
        };
        match st.requests.get_mut(req)? {
            Request::Persistent { active, .. } => {
                *active = None;
                Ok(Tested::Done(status, req))
            }
            _ => {
                st.requests.remove(req)?;
                Ok(Tested::Done(status, Handle(MPI_REQUEST_NULL)))
            }
        }
    }

    /// `MPI_Wait` on one request: [`Runtime::request_test`] until it completes. A request only
    /// another thread could complete is waited for when threads may call MPI at once;
    /// otherwise waiting is the deadlock error.
    pub fn request_wait(&self, req: Handle) -> Result<(Status, Handle)> {
        loop {
            if let Tested::Done(s, h) = self.request_test(req)? {
                return Ok((s, h));
            }
            self.wait_turn(&[req])?;
        }
    }

    /// Lets time pass while `reqs` are pending: a copy in progress is waited for; a pending
    /// receive or synchronous send only if another thread may match it.
    pub fn wait_turn(&self, reqs: &[Handle]) -> Result<()> {
        let (copying, threads) = {
            let st = self.active()?;
            let copying = reqs
                .iter()
                .any(|&r| matches!(st.request_state(r), Ok(Request::Delivering(_))));
            (copying, st.thread_level == MPI_THREAD_MULTIPLE)
        };
        if copying {
            std::thread::yield_now();
            return Ok(());
        }
        if threads {
            std::thread::sleep(std::time::Duration::from_micros(100));
            return Ok(());
        }
        Err(deadlock("waiting for a receive or synchronous send"))
    }

    /// `MPI_Request_get_status` (MPI 4.1 §3.7.3): the status of a complete request without
    /// freeing it, `None` while it is pending; the null request has the empty status.
    pub fn request_status(&self, req: Handle) -> Result<Option<Status>> {
        let st = self.active()?;
        if req == Handle(MPI_REQUEST_NULL) {
            return Ok(Some(Status::EMPTY));
        }
        match st.request_state(req)? {
            Request::Complete => Ok(Some(Status::EMPTY)),
            Request::Done(s) => Ok(Some(*s)),
            Request::Partitioned(_) => {
                let mut st = st;
                st.part_test(req, false)
            }
            Request::Generalized(_) => {
                drop(st);
                Ok(self.grequest_status(req)?.flatten())
            }
            _ => Ok(None),
        }
    }

    /// Whether an active request is complete, without completing it or calling a generalized
    /// request's `query_fn` (what `MPI_Testall` checks before completing all).
    pub fn request_done(&self, req: Handle) -> Result<bool> {
        let mut st = self.active()?;
        if req == Handle(MPI_REQUEST_NULL) {
            return Ok(true);
        }
        Ok(match st.request_state(req)? {
            Request::Complete | Request::Done(_) => true,
            Request::Generalized(g) => g.complete,
            Request::Partitioned(_) => st.part_test(req, false)?.is_some(),
            _ => false,
        })
    }

    /// Whether a request is active (MPI 4.1 §3.7.5: null and inactive persistent ones are not).
    pub fn request_is_active(&self, req: Handle) -> Result<bool> {
        if req == Handle(MPI_REQUEST_NULL) {
            return Ok(false);
        }
        let st = self.active()?;
        Ok(match st.requests.get(req)? {
            Request::Persistent { active: None, .. } => false,
            Request::Partitioned(p) => p.active,
            _ => true,
        })
    }

    /// `MPI_Request_free`: a pending receive is withdrawn; a pending synchronous send stays
    /// queued and completes unseen (MPI 4.1 §3.7.3).
    pub fn request_free(&self, req: Handle) -> Result<()> {
        if self.grequest_free(req)?.is_some() {
            return Ok(());
        }
        let mut st = self.active()?;
        if let Request::Partitioned(_) = st.requests.get(req)? {
            return st.part_free(req);
        }
        if let Request::RecvPending = st.request_state(req)? {
            st.p2p.withdraw(req);
        }
        st.p2p.forget_sync(req);
        st.requests.remove(req).map(drop)
    }

    /// `MPI_Send_init` & co., `MPI_Recv_init`: an inactive persistent request.
    pub fn persistent_init(&self, op: PersistentOp) -> Result<Handle> {
        let mut st = self.active()?;
        match &op {
            PersistentOp::Send { comm, datatype, .. }
            | PersistentOp::Recv { comm, datatype, .. } => {
                st.comms.get(*comm)?;
                st.types.get(*datatype)?;
            }
            PersistentOp::Collective { comm, .. } => {
                st.comms.get(*comm)?;
            }
        }
        st.requests.insert(Request::Persistent { op, active: None })
    }

    /// `MPI_Start`: the operation of an inactive persistent request (the face runs it).
    pub fn persistent_op(&self, req: Handle) -> Result<PersistentOp> {
        let st = self.active()?;
        match st.requests.get(req)? {
            Request::Persistent { op, active: None } => Ok(op.clone()),
            Request::Persistent { .. } => Err(Error::invalid(
                MPI_ERR_REQUEST,
                format!("persistent request {:#x} is already active", req.0),
            )),
            _ => Err(Error::invalid(
                MPI_ERR_REQUEST,
                format!("request {:#x} is not persistent", req.0),
            )),
        }
    }
}

impl Runtime {
    /// A started persistent collective that ran: complete until waited for.
    pub fn persistent_done(&self, req: Handle) -> Result<()> {
        self.active()?.set_active_state(req, Request::Complete)
    }

    /// A request for an operation that completed when it started (a nonblocking collective
    /// over one process): waiting returns the empty status.
    pub fn completed_request(&self) -> Result<Handle> {
        self.active()?.requests.insert(Request::Complete)
    }
}
