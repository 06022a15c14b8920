//! What a completed operation reports (MPI 4.1 §3.2.5), as the world keeps it (the operations:
//! `world::status`).

use crate::consts::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status {
    pub source: i32,
    pub tag: i32,
    pub error: i32,
    /// Bytes received (what `MPI_Get_count` and `MPI_Get_elements` divide).
    pub bytes: i64,
    pub cancelled: bool,
}

impl Status {
    /// The empty status (MPI 4.1 §3.7.3): `MPI_ANY_SOURCE`, `MPI_ANY_TAG`, no bytes.
    pub const EMPTY: Status = Status {
        source: MPI_ANY_SOURCE,
        tag: MPI_ANY_TAG,
        error: MPI_SUCCESS,
        bytes: 0,
        cancelled: false,
    };

    /// The status of a receive from `MPI_PROC_NULL` (MPI 4.1 §3.10).
    pub const PROC_NULL: Status = Status {
        source: MPI_PROC_NULL,
        tag: MPI_ANY_TAG,
        error: MPI_SUCCESS,
        bytes: 0,
        cancelled: false,
    };
}
