//! What a completed operation reports (MPI 4.1 §3.2.5): source, tag, error, the bytes received
//! and whether it was cancelled. The faces lay it out in the language's status.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;

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

impl Runtime {
    /// `MPI_Get_count` (MPI 4.1 §3.2.5): whole elements of `datatype` in the status, or
    /// `MPI_UNDEFINED` when the bytes are not a whole number of them; a datatype of size 0
    /// gives 0.
    pub fn status_count(&self, bytes: i64, datatype: Handle) -> Result<i64> {
        let size = self.type_size(datatype)?;
        Ok(if size == 0 {
            0
        } else if bytes % size != 0 {
            MPI_UNDEFINED as i64
        } else {
            bytes / size
        })
    }

    /// `MPI_Status_set_elements` (MPI 4.1 §13.3): the bytes that make `count` elements of
    /// `datatype`, read back by `MPI_Get_count` and `MPI_Get_elements`.
    pub fn status_bytes_for(&self, count: i64, datatype: Handle) -> Result<i64> {
        if count < 0 {
            return Err(Error::invalid(
                MPI_ERR_COUNT,
                format!("count {count} is negative"),
            ));
        }
        let size = self.type_size(datatype)?;
        count
            .checked_mul(size)
            .ok_or_else(|| Error::invalid(MPI_ERR_COUNT, format!("count {count} overflows")))
    }
}
