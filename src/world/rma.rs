//! One-sided communication of one process with its own windows (MPI 4.1 §12.3–§12.5).
//!
//! The only target is rank 0 (this process) or `MPI_PROC_NULL` (nothing moves). What is real is
//! what a single process can check: each RMA call must lie in an access epoch (a fence epoch,
//! a lock on rank 0 or `MPI_Win_lock_all`, or a `MPI_Win_start` whose group holds this process;
//! otherwise `MPI_ERR_RMA_SYNC`); the request-based calls only in a passive-target epoch
//! (§12.3.5); synchronisation calls only in the epoch states the standard allows; the target
//! bytes must lie in the window (its memory, or memory attached to a dynamic window, where
//! displacements are addresses, §12.2.4), else `MPI_ERR_RMA_RANGE`.
//!
//! Locking this process's window while it is exposed in a `MPI_Win_post` epoch (or posting
//! while it is locked) mixes passive and active target access to the same memory:
//! `MPI_ERR_RMA_CONFLICT`. A `MPI_Win_complete` or `MPI_Win_wait` that waits for a call this
//! process has not made would wait forever: the deadlock error of `world::p2p`.
//!
//! As in `world::p2p`, nothing here touches user memory: the world says which absolute
//! addresses an operation reads or writes, and the face moves the bytes.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::datatype::check_op;
use crate::world::handle::Handle;
use crate::world::p2p::deadlock;
use crate::world::rma_op::{self, Kind};
use crate::world::runtime::Runtime;
use crate::world::window::Window;

pub use crate::world::objects::rma::RmaState;

fn sync_error(detail: impl Into<String>) -> Error {
    Error::invalid(MPI_ERR_RMA_SYNC, detail)
}

fn check_assert(assert: i32, allowed: i32, call: &str) -> Result<()> {
    if assert & !allowed != 0 {
        return Err(Error::invalid(
            MPI_ERR_ASSERT,
            format!("assert {assert:#x} has bits {call} does not take"),
        ));
    }
    Ok(())
}

/// `rank` must be a rank of the window's group or `MPI_PROC_NULL`; returns whether it is null.
fn check_rank(w: &Window, rank: i32) -> Result<bool> {
    if rank == MPI_PROC_NULL {
        return Ok(true);
    }
    if !(0..w.members.len() as i32).contains(&rank) {
        return Err(Error::invalid(
            MPI_ERR_RANK,
            format!(
                "rank {rank} is not in the window's group of {}",
                w.members.len()
            ),
        ));
    }
    Ok(false)
}

impl RmaState {
    fn passive(&self) -> bool {
        self.lock.is_some() || self.lock_all
    }

    /// Starting another kind of epoch ends a fence epoch in which nothing was done.
    fn leave_fence(&mut self, call: &str) -> Result<()> {
        if self.fence && self.fence_used {
            return Err(sync_error(format!(
                "{call} inside a fence epoch with RMA calls; end it with MPI_Win_fence(MPI_MODE_NOSUCCEED)"
            )));
        }
        self.fence = false;
        Ok(())
    }

    /// Whether an RMA call to this process may be made now (and marks a fence epoch used).
    fn access(&mut self, request_based: bool) -> Result<()> {
        if request_based {
            if self.passive() {
                return Ok(());
            }
            return Err(sync_error(
                "request-based RMA calls need a passive-target epoch (MPI_Win_lock or MPI_Win_lock_all)",
            ));
        }
        if self.passive() || self.start == Some(true) {
            return Ok(());
        }
        if self.fence {
            self.fence_used = true;
            return Ok(());
        }
        Err(sync_error(
            "no access epoch to rank 0 is open (MPI_Win_fence, MPI_Win_lock, MPI_Win_lock_all or MPI_Win_start)",
        ))
    }
}

/// Where an RMA call reads or writes at the target: absolute (address, length) runs.
pub type TargetRuns = Vec<(usize, usize)>;

/// The accumulate arguments resolved: the kind of the elements the operation combines.
#[derive(Debug, Clone, Copy)]
pub struct AccKind {
    pub kind: Kind,
}

impl Runtime {
    fn with_rma<T>(&self, win: Handle, f: impl FnOnce(&mut Window) -> Result<T>) -> Result<T> {
        let mut st = self.active()?;
        f(st.wins.get_mut(win)?)
    }

    /// Whether a group (of `MPI_Win_post` / `MPI_Win_start`) holds this process; it must be a
    /// subgroup of the window's group (`MPI_ERR_GROUP`).
    fn group_has_self(&self, win: Handle, group: Handle) -> Result<bool> {
        let st = self.active()?;
        let w = st.wins.get(win)?;
        let g = st.groups.get(group)?;
        if let Some(r) = g.members.iter().find(|r| !w.members.contains(r)) {
            return Err(Error::invalid(
                MPI_ERR_GROUP,
                format!("process {r} of the group is not in the window's group"),
            ));
        }
        Ok(g.members.contains(&w.members[0]))
    }

    /// `MPI_Win_fence` (MPI 4.1 §12.5.1).
    pub fn win_fence(&self, win: Handle, assert: i32) -> Result<()> {
        let allowed = MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;
        self.with_rma(win, |w| {
            check_assert(assert, allowed, "MPI_Win_fence")?;
            let r = &mut w.rma;
            if r.passive() || r.start.is_some() || r.post.is_some() {
                return Err(sync_error(
                    "MPI_Win_fence inside a lock or post/start epoch",
                ));
            }
            if assert & MPI_MODE_NOPRECEDE != 0 && r.fence_used {
                return Err(sync_error(
                    "MPI_MODE_NOPRECEDE, but RMA calls were made since the last fence",
                ));
            }
            r.fence = assert & MPI_MODE_NOSUCCEED == 0;
            r.fence_used = false;
            Ok(())
        })
    }

    /// `MPI_Win_lock` (MPI 4.1 §12.5.3).
    pub fn win_lock(&self, win: Handle, lock_type: i32, rank: i32, assert: i32) -> Result<()> {
        self.with_rma(win, |w| {
            if lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE {
                return Err(Error::invalid(
                    MPI_ERR_LOCKTYPE,
                    format!("{lock_type} is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE"),
                ));
            }
            check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_lock")?;
            if check_rank(w, rank)? {
                return Ok(());
            }
            let r = &mut w.rma;
            if r.passive() {
                return Err(sync_error("rank 0 of this window is already locked"));
            }
            if r.start.is_some() {
                return Err(sync_error("MPI_Win_lock inside a MPI_Win_start epoch"));
            }
            if r.post == Some(true) {
                return Err(Error::invalid(
                    MPI_ERR_RMA_CONFLICT,
                    "locking this process's window while MPI_Win_post exposes it",
                ));
            }
            r.leave_fence("MPI_Win_lock")?;
            r.lock = Some(lock_type);
            Ok(())
        })
    }

    /// `MPI_Win_unlock`.
    pub fn win_unlock(&self, win: Handle, rank: i32) -> Result<()> {
        self.with_rma(win, |w| {
            if check_rank(w, rank)? {
                return Ok(());
            }
            if w.rma.lock.take().is_none() {
                return Err(sync_error(
                    "MPI_Win_unlock of rank 0, which MPI_Win_lock did not lock",
                ));
            }
            Ok(())
        })
    }

    /// `MPI_Win_lock_all`.
    pub fn win_lock_all(&self, win: Handle, assert: i32) -> Result<()> {
        self.with_rma(win, |w| {
            check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_lock_all")?;
            let r = &mut w.rma;
            if r.passive() || r.start.is_some() {
                return Err(sync_error("MPI_Win_lock_all inside another access epoch"));
            }
            if r.post == Some(true) {
                return Err(Error::invalid(
                    MPI_ERR_RMA_CONFLICT,
                    "locking this process's window while MPI_Win_post exposes it",
                ));
            }
            r.leave_fence("MPI_Win_lock_all")?;
            r.lock_all = true;
            Ok(())
        })
    }

    /// `MPI_Win_unlock_all`.
    pub fn win_unlock_all(&self, win: Handle) -> Result<()> {
        self.with_rma(win, |w| {
            if !std::mem::take(&mut w.rma.lock_all) {
                return Err(sync_error("MPI_Win_unlock_all without MPI_Win_lock_all"));
            }
            Ok(())
        })
    }

    /// `MPI_Win_flush(_local)` (`Some(rank)`) and `MPI_Win_flush(_local)_all` (`None`): every
    /// operation completed when it was called, so a flush checks that a passive-target epoch is
    /// open (§12.5.4).
    pub fn win_flush(&self, win: Handle, rank: Option<i32>) -> Result<()> {
        self.with_rma(win, |w| {
            if let Some(rank) = rank {
                if check_rank(w, rank)? {
                    return Ok(());
                }
            }
            if !w.rma.passive() {
                return Err(sync_error(
                    "a flush needs a passive-target epoch (MPI_Win_lock or MPI_Win_lock_all)",
                ));
            }
            Ok(())
        })
    }

    /// `MPI_Win_post` (MPI 4.1 §12.5.2).
    pub fn win_post(&self, win: Handle, group: Handle, assert: i32) -> Result<()> {
        let has_self = self.group_has_self(win, group)?;
        self.with_rma(win, |w| {
            check_assert(
                assert,
                MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT,
                "MPI_Win_post",
            )?;
            let r = &mut w.rma;
            if r.post.is_some() {
                return Err(sync_error("MPI_Win_post inside an exposure epoch"));
            }
            if has_self && r.passive() {
                return Err(Error::invalid(
                    MPI_ERR_RMA_CONFLICT,
                    "exposing this process's window with MPI_Win_post while it is locked",
                ));
            }
            r.leave_fence("MPI_Win_post")?;
            r.post = Some(has_self);
            r.completed = false;
            Ok(())
        })
    }

    /// `MPI_Win_start`.
    pub fn win_start(&self, win: Handle, group: Handle, assert: i32) -> Result<()> {
        let has_self = self.group_has_self(win, group)?;
        self.with_rma(win, |w| {
            check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_start")?;
            let r = &mut w.rma;
            if r.start.is_some() || r.passive() {
                return Err(sync_error("MPI_Win_start inside another access epoch"));
            }
            r.leave_fence("MPI_Win_start")?;
            r.start = Some(has_self);
            Ok(())
        })
    }

    /// `MPI_Win_complete`: ends the access epoch; to this process it needs the matching post.
    pub fn win_complete(&self, win: Handle) -> Result<()> {
        self.with_rma(win, |w| {
            let r = &mut w.rma;
            match r.start {
                None => Err(sync_error("MPI_Win_complete without MPI_Win_start")),
                Some(true) if r.post != Some(true) => Err(deadlock(
                    "MPI_Win_complete of an access epoch to this process, which has not called MPI_Win_post",
                )),
                Some(to_self) => {
                    r.start = None;
                    r.completed |= to_self;
                    Ok(())
                }
            }
        })
    }

    /// `MPI_Win_wait` (`blocking`) or `MPI_Win_test`: whether the exposure epoch ended.
    pub fn win_wait(&self, win: Handle, blocking: bool) -> Result<bool> {
        self.with_rma(win, |w| {
            let r = &mut w.rma;
            match r.post {
                None => Err(sync_error(
                    "MPI_Win_wait or MPI_Win_test without MPI_Win_post",
                )),
                Some(true) if !r.completed => {
                    if blocking {
                        Err(deadlock(
                            "MPI_Win_wait for this process's own MPI_Win_complete, not yet called",
                        ))
                    } else {
                        Ok(false)
                    }
                }
                Some(_) => {
                    r.post = None;
                    r.completed = false;
                    Ok(true)
                }
            }
        })
    }

    /// Checks an RMA call to `rank` of `win` and returns where it reads or writes: `None` for
    /// `MPI_PROC_NULL`, else the absolute runs of `count` x `datatype` at `disp`.
    pub fn rma_target(
        &self,
        win: Handle,
        rank: i32,
        disp: i64,
        count: i64,
        datatype: Handle,
        request_based: bool,
    ) -> Result<Option<TargetRuns>> {
        self.win_check(win)?;
        let blocks = self.type_blocks(datatype, count)?;
        self.with_rma(win, |w| {
            if check_rank(w, rank)? {
                return Ok(None);
            }
            w.rma.access(request_based)?;
            let dynamic = w.flavor == MPI_WIN_FLAVOR_DYNAMIC;
            if disp < 0 && !dynamic {
                return Err(Error::invalid(
                    MPI_ERR_DISP,
                    format!("target displacement {disp} is negative"),
                ));
            }
            let start = i128::from(disp) * i128::from(w.disp_unit) + w.base as i128;
            let regions: Vec<(i128, i128)> = if dynamic {
                w.attached
                    .iter()
                    .map(|&(b, s)| (b as i128, b as i128 + i128::from(s)))
                    .collect()
            } else {
                vec![(w.base as i128, w.base as i128 + i128::from(w.size))]
            };
            let mut runs = Vec::with_capacity(blocks.len());
            for (off, len) in blocks {
                let a = start + i128::from(off);
                let e = a + i128::from(len);
                if !regions.iter().any(|&(lo, hi)| lo <= a && e <= hi) {
                    return Err(Error::invalid(
                        MPI_ERR_RMA_RANGE,
                        format!(
                            "target bytes {a:#x}..{e:#x} are outside the window's memory{}",
                            if dynamic { " (not attached)" } else { "" }
                        ),
                    ));
                }
                runs.push((a as usize, len as usize));
            }
            Ok(Some(runs))
        })
    }

    /// The element kind of an accumulate (MPI 4.1 §12.3.4): `op` predefined and defined on the
    /// one predefined type every given datatype is made of.
    pub fn rma_acc_kind(&self, op: Handle, types: &[Handle]) -> Result<AccKind> {
        check_op(op)?;
        let mut basic: Option<Handle> = None;
        for &t in types {
            for b in self.type_basics(t)? {
                match basic {
                    None => basic = Some(b),
                    Some(x) if x == b => {}
                    Some(x) => {
                        return Err(Error::invalid(
                            MPI_ERR_TYPE,
                            format!(
                                "accumulate operands mix predefined types {:#x} and {:#x}",
                                x.0, b.0
                            ),
                        ))
                    }
                }
            }
        }
        let Some(b) = basic else {
            return Err(Error::invalid(MPI_ERR_TYPE, "no datatype given"));
        };
        let fint = std::mem::size_of::<crate::caching::convert::FortranInteger>();
        // An F90 type (MPI 4.1 §19.1.9) accumulates as the named type it behaves as.
        let kind = rma_op::kind_of(self.type_like(b)?.0, fint);
        let name = self.type_get_name(b)?;
        rma_op::check(op.0, kind, &name)?;
        Ok(AccKind { kind })
    }

    /// `MPI_Win_set_info`: the hints are kept and returned by `MPI_Win_get_info`.
    pub fn win_set_info(&self, win: Handle, info: Handle) -> Result<()> {
        let mut hints = Vec::new();
        if info != Handle(MPI_INFO_NULL) {
            for i in 0..self.info_nkeys(info)? {
                let k = self.info_nthkey(info, i)?;
                let v = self.info_get(info, &k)?.unwrap_or_default();
                hints.push((k, v));
            }
        }
        self.with_rma(win, |w| {
            for (k, v) in hints {
                match w.rma.info.iter_mut().find(|(x, _)| *x == k) {
                    Some(e) => e.1 = v,
                    None => w.rma.info.push((k, v)),
                }
            }
            Ok(())
        })
    }

    /// `MPI_Win_get_info`: a new info object with the hints in use.
    pub fn win_get_info(&self, win: Handle) -> Result<Handle> {
        let hints = self.with_rma(win, |w| Ok(w.rma.info.clone()))?;
        let info = self.info_create()?;
        for (k, v) in hints {
            self.info_set(info, &k, &v)?;
        }
        Ok(info)
    }
}
