//! Generalized requests as the world keeps them (MPI 4.1 §13.2; the operations:
//! `world::grequest`).

use crate::world::objects::status::Status;
use std::sync::Arc;

/// The callbacks of `MPI_Grequest_start`, as the face that created the request calls them
/// (C or Fortran conventions). Each returns the callback's error code (`MPI_SUCCESS` when it
/// succeeded). The world calls them with no lock held: they may call MPI.
pub trait GrequestCalls: Send + Sync {
    /// `query_fn`: the status of the completed operation, given `start` to fill in, and the
    /// callback's return code.
    fn query(&self, start: Status) -> (Status, i32);
    /// `free_fn`.
    fn free(&self) -> i32;
    /// `cancel_fn`, told whether `MPI_Grequest_complete` was already called.
    fn cancel(&self, complete: bool) -> i32;
}

/// A generalized request.
pub struct Generalized {
    pub calls: Arc<dyn GrequestCalls>,
    /// `MPI_Grequest_complete` was called.
    pub complete: bool,
    /// `MPI_Request_free` was called before completion: `free_fn` runs at completion.
    pub freed: bool,
}

impl std::fmt::Debug for Generalized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Generalized(complete {}, freed {})",
            self.complete, self.freed
        )
    }
}
