//! Generalized requests (MPI 4.1 §13.2): operations the program performs itself, which MPI
//! completes like any request. The program says when the operation is done
//! (`MPI_Grequest_complete`); `MPI_Wait` & co. then call `query_fn` for the status and
//! `free_fn` to release the program's state, in that order, each once; `MPI_Request_get_status`
//! calls `query_fn` only; `MPI_Cancel` calls `cancel_fn` with whether the operation is complete.
//! A request freed before completion has `free_fn` called at `MPI_Grequest_complete`.
//!
//! The callbacks run with no lock held, after the world has updated its table, so they may
//! call MPI (set the status fields, complete other requests).

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
pub use crate::world::objects::grequest::{Generalized, GrequestCalls};
use crate::world::objects::request::Request;
use crate::world::runtime::Runtime;
use crate::world::state::State;
use crate::world::status::Status;
use std::sync::Arc;

/// A callback's return code as this call's outcome.
pub fn callback_result(rc: i32, which: &str) -> Result<()> {
    if rc == MPI_SUCCESS {
        return Ok(());
    }
    Err(Error::invalid(
        rc,
        format!("the generalized request's {which} returned error {rc}"),
    ))
}

/// Calls `query_fn` then `free_fn` of a completed request that is being released: the status,
/// with the first failing callback's code as its error (MPI 4.1 §13.2).
pub(crate) fn query_and_free(calls: &dyn GrequestCalls) -> Status {
    let (mut status, rc) = calls.query(Status::EMPTY);
    status.error = rc;
    let freed = calls.free();
    if status.error == MPI_SUCCESS {
        status.error = freed;
    }
    status
}

impl State {
    /// The generalized request `req`, if it is one.
    pub(crate) fn grequest(&self, req: Handle) -> Option<&Generalized> {
        match self.requests.get(req) {
            Ok(Request::Generalized(g)) => Some(g),
            _ => None,
        }
    }
}

impl Runtime {
    /// `MPI_Grequest_start`: an active request that `MPI_Grequest_complete` completes.
    pub fn grequest_start(&self, calls: Arc<dyn GrequestCalls>) -> Result<Handle> {
        self.active()?
            .requests
            .insert(Request::Generalized(Generalized {
                calls,
                complete: false,
                freed: false,
            }))
    }

    /// `MPI_Grequest_complete`: the operation is done; a request already freed is released
    /// now, calling `free_fn`.
    pub fn grequest_complete(&self, req: Handle) -> Result<()> {
        let calls = {
            let mut st = self.active()?;
            let g = match st.requests.get_mut(req)? {
                Request::Generalized(g) => g,
                _ => {
                    return Err(Error::invalid(
                        MPI_ERR_REQUEST,
                        format!("request {:#x} is not a generalized request", req.0),
                    ))
                }
            };
            if g.complete {
                return Err(Error::invalid(
                    MPI_ERR_REQUEST,
                    format!("generalized request {:#x} is already complete", req.0),
                ));
            }
            g.complete = true;
            if !g.freed {
                return Ok(());
            }
            let calls = g.calls.clone();
            st.requests.remove(req)?;
            calls
        };
        callback_result(calls.free(), "free_fn")
    }

    /// `MPI_Test` & co. on a generalized request: `None` if `req` is not one; otherwise its
    /// status once complete (the request released, `query_fn` and `free_fn` called), `Some(None)`
    /// while the program has not completed it.
    pub(crate) fn grequest_test(&self, req: Handle) -> Result<Option<Option<Status>>> {
        let calls = {
            let mut st = self.active()?;
            match st.grequest(req) {
                None => return Ok(None),
                Some(g) if !g.complete => return Ok(Some(None)),
                Some(g) => {
                    let calls = g.calls.clone();
                    st.requests.remove(req)?;
                    calls
                }
            }
        };
        Ok(Some(Some(query_and_free(&*calls))))
    }

    /// `MPI_Request_get_status` on a generalized request: as [`Runtime::grequest_test`] but only
    /// `query_fn` is called and the request stays.
    pub(crate) fn grequest_status(&self, req: Handle) -> Result<Option<Option<Status>>> {
        let calls = {
            let st = self.active()?;
            match st.grequest(req) {
                None => return Ok(None),
                Some(g) if !g.complete => return Ok(Some(None)),
                Some(g) => g.calls.clone(),
            }
        };
        let (mut status, rc) = calls.query(Status::EMPTY);
        status.error = rc;
        Ok(Some(Some(status)))
    }

    /// `MPI_Cancel` on a generalized request: `cancel_fn(complete)`; `None` if not one.
    pub(crate) fn grequest_cancel(&self, req: Handle) -> Result<Option<()>> {
        let (calls, complete) = {
            let st = self.active()?;
            match st.grequest(req) {
                None => return Ok(None),
                Some(g) => (g.calls.clone(), g.complete),
            }
        };
        callback_result(calls.cancel(complete), "cancel_fn").map(Some)
    }

    /// `MPI_Request_free` on a generalized request: released now (calling `free_fn`) if
    /// complete, else when `MPI_Grequest_complete` is called; `None` if not one.
    pub(crate) fn grequest_free(&self, req: Handle) -> Result<Option<()>> {
        let calls = {
            let mut st = self.active()?;
            let Ok(Request::Generalized(g)) = st.requests.get_mut(req) else {
                return Ok(None);
            };
            if !g.complete {
                g.freed = true;
                return Ok(Some(()));
            }
            let calls = g.calls.clone();
            st.requests.remove(req)?;
            calls
        };
        callback_result(calls.free(), "free_fn").map(Some)
    }
}
