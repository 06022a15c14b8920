//! One-sided synchronisation state as the world keeps it per window (the operations:
//! `world::rma`).

/// The synchronisation state of one window at this process, and its info hints.
#[derive(Debug, Default, Clone)]
pub struct RmaState {
    /// A fence opened an epoch (the last fence had no `MPI_MODE_NOSUCCEED`).
    pub(crate) fence: bool,
    /// RMA calls were made in the fence epoch (another kind of epoch cannot start then).
    pub(crate) fence_used: bool,
    /// The lock this process holds on rank 0 (`MPI_LOCK_SHARED` / `MPI_LOCK_EXCLUSIVE`).
    pub(crate) lock: Option<i32>,
    pub(crate) lock_all: bool,
    /// The access epoch of `MPI_Win_start`: whether its group holds this process.
    pub(crate) start: Option<bool>,
    /// The exposure epoch of `MPI_Win_post`: whether its group holds this process.
    pub(crate) post: Option<bool>,
    /// The access epoch to this process ended (`MPI_Win_complete`): the post's wait can end.
    pub(crate) completed: bool,
    /// The hints of `MPI_Win_set_info`, in the order set.
    pub info: Vec<(String, String)>,
}
