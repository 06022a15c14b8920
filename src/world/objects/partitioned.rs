//! Partitioned requests as the world keeps them (MPI 4.1 §4; the operations:
//! `world::partitioned`).

use crate::world::handle::Handle;
use std::collections::VecDeque;

/// Which side of a partitioned communication a request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Send,
    Recv,
}

/// A persistent partitioned send (`MPI_Psend_init`) or receive (`MPI_Precv_init`).
///
/// The message is `partitions x count x datatype`; partition `i` is the bytes `[i * part_bytes,
/// (i + 1) * part_bytes)` of its packed form, so the two sides may cut the same message into
/// different numbers of partitions (their byte ranges decide which receive partitions a send
/// partition fills).
#[derive(Debug)]
pub struct Partitioned {
    pub side: Side,
    pub comm: Handle,
    /// The destination (send) or source (receive) rank.
    pub peer: i32,
    pub tag: i32,
    pub buf: usize,
    pub partitions: usize,
    /// The byte runs of the whole buffer (`partitions x count x datatype`), in packing order.
    pub blocks: Vec<(i64, i64)>,
    pub part_bytes: i64,
    /// Between `MPI_Start` and the completion that `MPI_Wait`/`MPI_Test` reports.
    pub active: bool,
    /// The request of the other side, once the two are matched (at their first starts).
    pub matched: Option<Handle>,
    /// Send: the partitions `MPI_Pready` marked in this round.
    pub ready: Vec<bool>,
    /// Send: the rounds whose data the receive has not taken yet, oldest first; each holds the
    /// packed bytes of every partition made ready (taken when delivered).
    pub rounds: VecDeque<Vec<Option<Vec<u8>>>>,
    /// Receive: which send partitions of this round have been copied into the buffer (as
    /// many as the matched send has partitions).
    pub got: Vec<bool>,
    /// Receive: the matched send's partition size in bytes.
    pub send_part_bytes: i64,
}

impl Partitioned {
    /// The message's size in bytes.
    pub fn total_bytes(&self) -> i64 {
        self.part_bytes * self.partitions as i64
    }

    /// Receive: whether every byte of this round has arrived.
    pub fn all_arrived(&self) -> bool {
        self.matched.is_some() && self.got.iter().all(|&g| g)
    }

    /// Receive: whether partition `j` has arrived (every send partition overlapping it).
    pub fn arrived(&self, j: usize) -> bool {
        if self.matched.is_none() || self.part_bytes == 0 {
            return self.matched.is_some();
        }
        let (lo, hi) = (j as i64 * self.part_bytes, (j as i64 + 1) * self.part_bytes);
        let sp = self.send_part_bytes.max(1);
        let first = (lo / sp) as usize;
        let last = ((hi - 1) / sp) as usize;
        (first..=last).all(|i| self.got.get(i).copied().unwrap_or(false))
    }

    /// Whether this round is done: every partition ready (send) or arrived (receive).
    pub fn round_done(&self) -> bool {
        match self.side {
            Side::Send => self.ready.iter().all(|&r| r),
            Side::Recv => self.all_arrived(),
        }
    }
}

/// The runs, relative to the buffer, that hold the packed bytes `[lo, hi)` of a buffer whose
/// runs in packing order are `blocks`.
pub fn stream_runs(blocks: &[(i64, i64)], lo: i64, hi: i64) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    let mut at = 0i64;
    for &(off, len) in blocks {
        let (s, e) = (at.max(lo), (at + len).min(hi));
        if s < e {
            out.push((off + (s - at), e - s));
        }
        at += len;
        if at >= hi {
            break;
        }
    }
    out
}
