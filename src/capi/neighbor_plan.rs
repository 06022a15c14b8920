//! The work of a neighbourhood collective (MPI 4.1 §8.6) over one process, planned once from
//! the arguments and run by the blocking, nonblocking and persistent forms alike.
//!
//! A process's neighbours are itself or `MPI_PROC_NULL` here. A receive block from
//! `MPI_PROC_NULL` is left untouched; a send block to it goes nowhere. Which send block fills
//! which receive block from self follows §8.6: in a Cartesian topology the block sent to the
//! negative neighbour arrives in that neighbour's positive slot (block `s` lands in `s ^ 1`,
//! which decides the outcome in a periodic dimension of extent 1); in a graph topology the
//! k-th edge to a process pairs with that process's k-th edge from this one.

use crate::capi::coll_work::{is_in_place, transfer};
use crate::capi::types::*;
pub(crate) use crate::capi::width::Num;
use crate::consts::*;
use crate::world::p2p::deadlock;
use crate::world::reduce::CollArgs;
use crate::world::{Error, Handle, Result};
use std::ffi::c_void;

use crate::boundary::rt;

/// One block of a send or receive buffer: its address, count and datatype.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block {
    addr: usize,
    count: i64,
    datatype: MPI_Datatype,
}

/// A neighbourhood collective, ready to run (addresses only: it can wait for `MPI_Start`).
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    comm: MPI_Comm,
    sources: Vec<i32>,
    destinations: Vec<i32>,
    rank: i32,
    opposite: bool,
    sends: Vec<Block>,
    recvs: Vec<Block>,
}

/// What a plan's layout is built from: the buffers, the neighbour counts, and a way to place
/// block `i` of each side.
pub(crate) struct Layout<'a> {
    pub sendbuf: *const c_void,
    pub recvbuf: *mut c_void,
    /// Block `i` of the send side: (byte offset from sendbuf, count, datatype).
    pub send: &'a dyn Fn(usize) -> Result<(i64, i64, MPI_Datatype)>,
    /// Block `i` of the receive side.
    pub recv: &'a dyn Fn(usize) -> Result<(i64, i64, MPI_Datatype)>,
}

/// The in- and out-degree of `comm`'s topology (`MPI_ERR_TOPOLOGY` without one).
pub(crate) fn degrees(comm: MPI_Comm) -> Result<(usize, usize)> {
    let t = rt().topology_of(Handle(comm))?;
    let (s, d) = t.neighbors(rt().comm_rank(Handle(comm))?)?;
    Ok((s.len(), d.len()))
}

/// The bytes `n` elements of `datatype` span (§6.5: displacements count in extents).
pub(crate) fn extent_times(datatype: MPI_Datatype, n: i64) -> Result<i64> {
    let (_, extent) = rt().type_get_extent(Handle(datatype))?;
    n.checked_mul(extent)
        .ok_or_else(|| Error::invalid(MPI_ERR_ARG, "displacement overflows"))
}

/// The `n` entries of an argument array, `MPI_ERR_ARG` when NULL with entries to read.
///
/// # Safety
/// `p` holds `n` readable entries when not NULL.
pub(crate) unsafe fn arr<T: Copy>(p: *const T, n: usize, name: &'static str) -> Result<Vec<T>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    // SAFETY: not NULL, `n` entries by the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(p, n) }.to_vec())
}

impl Plan {
    /// Plans the exchange on `comm`'s topology (§8.6: `MPI_IN_PLACE` has no meaning here).
    pub(crate) fn new(comm: MPI_Comm, l: Layout) -> Result<Plan> {
        let t = rt().topology_of(Handle(comm))?;
        let rank = rt().comm_rank(Handle(comm))?;
        let (sources, destinations) = t.neighbors(rank)?;
        if is_in_place(l.sendbuf) || is_in_place(l.recvbuf.cast_const()) {
            return Err(Error::invalid(
                MPI_ERR_BUFFER,
                "MPI_IN_PLACE is not an argument of a neighborhood collective",
            ));
        }
        let block =
            |base: usize, (off, count, datatype): (i64, i64, MPI_Datatype)| -> Result<Block> {
                if count < 0 {
                    return Err(Error::invalid(
                        MPI_ERR_COUNT,
                        format!("count {count} is negative"),
                    ));
                }
                rt().type_get_extent(Handle(datatype))?;
                Ok(Block {
                    addr: base.wrapping_add(off as usize),
                    count,
                    datatype,
                })
            };
        let sends = (0..destinations.len())
            .map(|i| block(l.sendbuf as usize, (l.send)(i)?))
            .collect::<Result<Vec<_>>>()?;
        let recvs = (0..sources.len())
            .map(|i| block(l.recvbuf as usize, (l.recv)(i)?))
            .collect::<Result<Vec<_>>>()?;
        Ok(Plan {
            comm,
            sources,
            destinations,
            rank,
            opposite: t.pairs_opposite(),
            sends,
            recvs,
        })
    }

    /// The send block that fills receive block `i` (from this process itself).
    fn partner(&self, i: usize) -> Result<usize> {
        let j = if self.opposite {
            i ^ 1
        } else {
            // The k-th in-edge from self pairs with the k-th out-edge to self.
            let k = self.sources[..i]
                .iter()
                .filter(|&&s| s == self.rank)
                .count();
            match self
                .destinations
                .iter()
                .enumerate()
                .filter(|&(_, &d)| d == self.rank)
                .nth(k)
            {
                Some((j, _)) => j,
                None => return Err(deadlock("a receive from self without a matching send")),
            }
        };
        match self.destinations.get(j) {
            Some(&d) if d == self.rank => Ok(j),
            _ => Err(deadlock("a receive from self without a matching send")),
        }
    }

    /// Runs the exchange.
    ///
    /// # Safety
    /// The buffers planned must be valid now, as the MPI caller promises.
    pub(crate) unsafe fn run(&self) -> Result<()> {
        let args = |b: &Block| CollArgs {
            comm: Handle(self.comm),
            count: b.count,
            datatype: Handle(b.datatype),
            op: None,
            root: None,
        };
        for (i, r) in self.recvs.iter().enumerate() {
            match self.sources[i] {
                MPI_PROC_NULL => {
                    rt().collective_blocks(args(r))?;
                }
                s if s == self.rank => {
                    let b = self.sends[self.partner(i)?];
                    // SAFETY: `b` is a send buffer of the plan, valid as the plan's contract
                    // (`Plan::run`'s `# Safety`) says, and the receive buffer likewise.
                    unsafe {
                        transfer(
                            self.comm,
                            None,
                            (b.addr as *const c_void, b.count, b.datatype),
                            (r.addr as *mut c_void, r.count, r.datatype),
                        )
                    }?;
                }
                s => return Err(deadlock(&format!("a receive from rank {s}"))),
            }
        }
        for (j, b) in self.sends.iter().enumerate() {
            if self.destinations[j] == MPI_PROC_NULL {
                rt().collective_blocks(args(b))?;
            }
        }
        Ok(())
    }

    /// A persistent request that runs this plan at each `MPI_Start` (MPI 4.1 §8.8).
    ///
    /// # Safety
    /// `request` writable; the buffers valid at each start, as the MPI caller promises.
    pub(crate) unsafe fn persistent(self, info: MPI_Info, request: *mut MPI_Request) -> Result<()> {
        let comm = self.comm;
        // SAFETY: MPI's contract for persistent operations: the buffers stay valid while the
        // request is active, which is when MPI_Start runs this.
        let run = move || unsafe { self.run() };
        // SAFETY: `request` is valid here by this function's contract (its `# Safety`).
        unsafe { crate::capi::coll_persistent::persistent(comm, info, request, run) }
    }

    /// The nonblocking form: runs now and hands back a complete request.
    ///
    /// # Safety
    /// As [`Plan::run`]; `request` writable.
    pub(crate) unsafe fn now(self, request: *mut MPI_Request) -> Result<()> {
        if request.is_null() {
            return Err(Error::NullArgument { name: "request" });
        }
        // SAFETY: as this function's own contract (its `# Safety`: as `Plan::run`).
        unsafe { self.run() }?;
        let h = rt().completed_request()?;
        // SAFETY: `request` is valid here by this function's contract (its `# Safety`).
        unsafe { *request = h.0 };
        Ok(())
    }
}
