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

impl Runtime {
    /// `MPI_Win_attach` (MPI 4.1 §12.2.4): memory for a dynamic window; regions may not overlap.
    pub fn win_attach(&self, win: Handle, base: usize, size: i64) -> Result<()> {
        let mut st = self.active()?;
        let w = st.wins.get_mut(win)?;
        if w.flavor != MPI_WIN_FLAVOR_DYNAMIC {
            return Err(Error::invalid(
                MPI_ERR_RMA_FLAVOR,
                "MPI_Win_attach needs a window made by MPI_Win_create_dynamic",
            ));
        }
        if size < 0 {
            return Err(Error::invalid(
                MPI_ERR_SIZE,
                format!("size {size} is negative"),
            ));
        }
        let end = base as i64 + size;
        if w.attached
            .iter()
            .any(|&(b, n)| (base as i64) < b as i64 + n && (b as i64) < end)
        {
            return Err(Error::invalid(
                MPI_ERR_RMA_ATTACH,
                "the memory overlaps memory already attached",
            ));
        }
        w.attached.push((base, size));
        Ok(())
    }

    /// `MPI_Win_detach`: `base` must be the base of attached memory.
    pub fn win_detach(&self, win: Handle, base: usize) -> Result<()> {
        let mut st = self.active()?;
        let w = st.wins.get_mut(win)?;
        if w.flavor != MPI_WIN_FLAVOR_DYNAMIC {
            return Err(Error::invalid(
                MPI_ERR_RMA_FLAVOR,
                "MPI_Win_detach needs a window made by MPI_Win_create_dynamic",
            ));
        }
        let Some(i) = w.attached.iter().position(|&(b, _)| b == base) else {
            return Err(Error::invalid(
                MPI_ERR_RMA_ATTACH,
                format!("no memory is attached at {base:#x}"),
            ));
        };
        w.attached.remove(i);
        Ok(())
    }
}
