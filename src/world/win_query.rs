//! `MPI_Win_shared_query` (MPI 4.1 §12.2.3) over windows of one process: the process's own
//! memory is the only memory, and it is directly accessible.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;

impl Runtime {
    /// (base, size, disp_unit) of `rank`'s part of `win`: `rank` is 0 or `MPI_PROC_NULL` (the
    /// lowest rank with memory); a dynamic window has no such part (`MPI_ERR_WIN`).
    pub fn win_shared_query(&self, win: Handle, rank: i32) -> Result<(usize, i64, i32)> {
        let st = self.active()?;
        let w = st.wins.get(win)?;
        if rank != MPI_PROC_NULL && !(0..w.members.len() as i32).contains(&rank) {
            return Err(Error::invalid(
                MPI_ERR_RANK,
                format!(
                    "rank {rank} is not in the window's group of {}",
                    w.members.len()
                ),
            ));
        }
        if w.flavor == MPI_WIN_FLAVOR_DYNAMIC {
            return Err(Error::invalid(
                MPI_ERR_WIN,
                "a dynamic window has no memory to query (MPI 4.1 §12.2.3)",
            ));
        }
        Ok((w.base, w.size, w.disp_unit))
    }
}
