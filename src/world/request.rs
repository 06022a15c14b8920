//! Requests. The only nonblocking operation a single process needs here is `MPI_Comm_idup`,
//! which completes at once.

use crate::consts::MPI_REQUEST_NULL;
use crate::error::Result;
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;
use crate::world::status::Status;

#[derive(Debug)]
pub enum Request {
    /// Complete; waiting or testing releases it.
    Complete,
}

impl Runtime {
    /// `MPI_Wait`, `MPI_Test` on a complete request: frees it and returns `MPI_REQUEST_NULL`.
    /// The null request completes at once (MPI 4.1 §3.7.3).
    pub fn request_complete(&self, req: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        if req == Handle(MPI_REQUEST_NULL) {
            return Ok(req);
        }
        st.requests.remove(req)?;
        Ok(Handle(MPI_REQUEST_NULL))
    }

    /// `MPI_Request_get_status` (MPI 4.1 §3.7.3): the status of a complete request without
    /// freeing it, `None` while it is pending; the null request has the empty status.
    pub fn request_status(&self, req: Handle) -> Result<Option<Status>> {
        let st = self.active()?;
        if req == Handle(MPI_REQUEST_NULL) {
            return Ok(Some(Status::EMPTY));
        }
        match st.requests.get(req)? {
            Request::Complete => Ok(Some(Status::EMPTY)),
        }
    }

    /// `MPI_Request_free`.
    pub fn request_free(&self, req: Handle) -> Result<()> {
        self.active()?.requests.remove(req).map(drop)
    }
}
