//! Partitioned point-to-point communication of one process with itself (MPI 4.1 §4).
//!
//! A partitioned send and receive are persistent requests. They match at their first starts
//! (§4.2.2), in order, like persistent point-to-point (communicator and tag; every rank is 0
//! here), and stay matched until one is freed. Each round the send's partitions are made ready
//! one by one (`MPI_Pready` & co.); a ready partition's bytes are taken from the send buffer
//! at once (so the send completes once every partition is ready) and go into the receive
//! buffer as soon as the receive of that round is started; a receive partition has arrived
//! (`MPI_Parrived`) once every send partition overlapping its bytes has been delivered, and the
//! receive completes when all have. Rounds queue: a send may be restarted before the receive
//! has taken the previous round.
//!
//! As in `world::p2p` the world never touches user memory: it says which runs of which buffer
//! to read or write, and the face copies.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
pub use crate::world::objects::partitioned::{stream_runs, Partitioned, Side};
use crate::world::objects::request::Request;
use crate::world::runtime::Runtime;
use crate::world::state::State;
use crate::world::status::Status;

/// Bytes of a ready send partition to write into a receive buffer: the face copies `data`
/// along `runs` (relative to `buf`), then calls [`Runtime::part_delivered`].
#[derive(Debug)]
pub struct PartDelivery {
    pub recv: Handle,
    /// The send partition delivered.
    pub index: usize,
    pub buf: usize,
    pub runs: Vec<(i64, i64)>,
    pub data: Vec<u8>,
}

/// What `MPI_Psend_init` / `MPI_Precv_init` were given.
#[derive(Debug, Clone, Copy)]
pub struct PartInit {
    pub side: Side,
    pub buf: usize,
    pub partitions: i64,
    pub count: i64,
    pub datatype: Handle,
    pub peer: i32,
    pub tag: i32,
    pub comm: Handle,
}

impl State {
    fn part(&self, req: Handle) -> Result<&Partitioned> {
        match self.requests.get(req)? {
            Request::Partitioned(p) => Ok(p),
            _ => Err(not_partitioned(req)),
        }
    }

    fn part_mut(&mut self, req: Handle) -> Result<&mut Partitioned> {
        match self.requests.get_mut(req)? {
            Request::Partitioned(p) => Ok(p),
            _ => Err(not_partitioned(req)),
        }
    }

    /// Matches a started, unmatched request with the oldest started unmatched request of the
    /// other side on the same communicator and tag (MPI 4.1 §4.2.2).
    fn part_match(&mut self, req: Handle) -> Result<()> {
        let (side, comm, tag, bytes, part_bytes) = {
            let p = self.part(req)?;
            if p.matched.is_some() {
                return Ok(());
            }
            (p.side, p.comm, p.tag, p.total_bytes(), p.part_bytes)
        };
        let found = self.p2p.partitioned.iter().copied().find(|&o| {
            o != req
                && matches!(self.requests.get(o), Ok(Request::Partitioned(q))
                    if q.side != side && q.comm == comm && q.tag == tag)
        });
        let Some(other) = found else {
            if !self.p2p.partitioned.contains(&req) {
                self.p2p.partitioned.push_back(req);
            }
            return Ok(());
        };
        let (other_bytes, other_part) = {
            let q = self.part(other)?;
            (q.total_bytes(), q.part_bytes)
        };
        let (send_bytes, recv_bytes) = match side {
            Side::Send => (bytes, other_bytes),
            Side::Recv => (other_bytes, bytes),
        };
        // §4.2.2: the two sides must describe the same message (type signatures match).
        if send_bytes != recv_bytes {
            return Err(Error::invalid(
                if send_bytes > recv_bytes {
                    MPI_ERR_TRUNCATE
                } else {
                    MPI_ERR_COUNT
                },
                format!(
                    "a partitioned send of {send_bytes} bytes cannot match a partitioned receive of {recv_bytes} bytes"
                ),
            ));
        }
        self.p2p.partitioned.retain(|&h| h != other && h != req);
        let (send, recv, sp) = match side {
            Side::Send => (req, other, part_bytes),
            Side::Recv => (other, req, other_part),
        };
        self.part_mut(send)?.matched = Some(recv);
        let sparts = self.part(send)?.partitions;
        let r = self.part_mut(recv)?;
        r.matched = Some(send);
        r.send_part_bytes = sp;
        r.got = vec![false; sparts];
        Ok(())
    }

    /// Hands the started receive of `send`'s oldest round every ready partition it has not
    /// taken yet.
    fn part_pump(&mut self, send: Handle) -> Result<Vec<PartDelivery>> {
        let (recv, sp) = {
            let s = self.part(send)?;
            match s.matched {
                Some(r) => (r, s.part_bytes),
                None => return Ok(Vec::new()),
            }
        };
        let (buf, blocks, got) = {
            let r = self.part(recv)?;
            if !r.active || r.all_arrived() {
                return Ok(Vec::new());
            }
            (r.buf, r.blocks.clone(), r.got.clone())
        };
        let s = self.part_mut(send)?;
        let Some(round) = s.rounds.front_mut() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (i, slot) in round.iter_mut().enumerate() {
            if got.get(i).copied().unwrap_or(true) {
                continue;
            }
            if let Some(data) = slot.take() {
                let lo = i as i64 * sp;
                out.push(PartDelivery {
                    recv,
                    index: i,
                    buf,
                    runs: stream_runs(&blocks, lo, lo + sp),
                    data,
                });
            }
        }
        Ok(out)
    }
}

fn not_partitioned(req: Handle) -> Error {
    Error::invalid(
        MPI_ERR_REQUEST,
        format!("request {:#x} is not a partitioned request", req.0),
    )
}

/// Checks a partition number of `p` (MPI 4.1 §4.2.3: `0 <= partition < partitions`).
fn check_partition(p: &Partitioned, partition: i64) -> Result<usize> {
    if partition < 0 || partition >= p.partitions as i64 {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!(
                "partition {partition} is not in 0..{} of the request",
                p.partitions
            ),
        ));
    }
    Ok(partition as usize)
}

impl Runtime {
    /// `MPI_Psend_init`, `MPI_Precv_init` (MPI 4.1 §4.2.1): an inactive partitioned request.
    pub fn partitioned_init(&self, a: PartInit) -> Result<Handle> {
        let mut st = self.active()?;
        let size = st.comms.get(a.comm)?.members.len() as i32;
        if !(0..size).contains(&a.peer) {
            // No wildcards and no MPI_PROC_NULL in partitioned communication (§4.2.1).
            return Err(Error::invalid(
                MPI_ERR_RANK,
                format!(
                    "rank {} is not a rank of a communicator of {size} (partitioned communication takes no wildcard or MPI_PROC_NULL)",
                    a.peer
                ),
            ));
        }
        if !(0..=TAG_UB_VALUE).contains(&a.tag) {
            return Err(Error::invalid(
                MPI_ERR_TAG,
                format!("tag {} is not in 0..=MPI_TAG_UB", a.tag),
            ));
        }
        if a.partitions < 1 {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("partitions {} is not positive", a.partitions),
            ));
        }
        let total = a
            .partitions
            .checked_mul(a.count)
            .ok_or_else(|| Error::invalid(MPI_ERR_COUNT, "partitions x count overflows a count"))?;
        let blocks = st.comm_blocks(a.datatype, total)?;
        let bytes: i64 = blocks.iter().map(|b| b.1).sum();
        let n = a.partitions as usize;
        st.requests
            .insert(Request::Partitioned(Box::new(Partitioned {
                side: a.side,
                comm: a.comm,
                peer: a.peer,
                tag: a.tag,
                buf: a.buf,
                partitions: n,
                blocks,
                part_bytes: bytes / a.partitions,
                active: false,
                matched: None,
                ready: vec![false; if a.side == Side::Send { n } else { 0 }],
                rounds: Default::default(),
                got: Vec::new(),
                send_part_bytes: 0,
            })))
    }

    /// `MPI_Start` of a partitioned request: `None` when `req` is not one; otherwise what to
    /// copy now (the ready partitions of a queued round, for a receive).
    pub fn partitioned_start(&self, req: Handle) -> Result<Option<Vec<PartDelivery>>> {
        let mut st = self.active()?;
        let Request::Partitioned(p) = st.requests.get_mut(req)? else {
            return Ok(None);
        };
        if p.active {
            return Err(Error::invalid(
                MPI_ERR_REQUEST,
                format!("partitioned request {:#x} is already active", req.0),
            ));
        }
        p.active = true;
        match p.side {
            Side::Send => {
                p.ready.iter_mut().for_each(|r| *r = false);
                let n = p.partitions;
                p.rounds.push_back(vec![None; n]);
            }
            Side::Recv => p.got.iter_mut().for_each(|g| *g = false),
        }
        if let Err(e) = st.part_match(req) {
            let p = st.part_mut(req)?;
            p.active = false;
            if p.side == Side::Send {
                p.rounds.pop_back();
            }
            return Err(e);
        }
        let p = st.part(req)?;
        let send = match (p.side, p.matched) {
            (Side::Send, _) => req,
            (Side::Recv, Some(s)) => s,
            (Side::Recv, None) => return Ok(Some(Vec::new())),
        };
        st.part_pump(send).map(Some)
    }

    /// `MPI_Pready` and co. (MPI 4.1 §4.2.3), first half: checks that partition `partition` of
    /// the active send `req` may be made ready, and says where its bytes are (buffer, runs).
    pub fn pready_source(&self, req: Handle, partition: i64) -> Result<(usize, Vec<(i64, i64)>)> {
        let st = self.active()?;
        let p = st.part(req)?;
        if p.side != Side::Send {
            return Err(Error::invalid(
                MPI_ERR_REQUEST,
                format!("request {:#x} is a partitioned receive, not a send", req.0),
            ));
        }
        if !p.active {
            return Err(Error::invalid(
                MPI_ERR_REQUEST,
                format!(
                    "partitioned send {:#x} is not active (start it first)",
                    req.0
                ),
            ));
        }
        let i = check_partition(p, partition)?;
        if p.ready[i] {
            // §4.2.3 makes this erroneous ("an active partition") without naming a class:
            // MPI_ERR_ARG, as for a partition out of range, since the argument is what is wrong
            // (MPICH's class for this case was not checked).
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("partition {i} is already ready in this round"),
            ));
        }
        let lo = i as i64 * p.part_bytes;
        Ok((p.buf, stream_runs(&p.blocks, lo, lo + p.part_bytes)))
    }

    /// Second half: partition `partition`'s bytes, packed by the face; what to copy into the
    /// matched receive now.
    pub fn pready(&self, req: Handle, partition: i64, data: Vec<u8>) -> Result<Vec<PartDelivery>> {
        let mut st = self.active()?;
        let p = st.part_mut(req)?;
        let i = check_partition(p, partition)?;
        p.ready[i] = true;
        if let Some(round) = p.rounds.back_mut() {
            round[i] = Some(data);
        }
        st.part_pump(req)
    }

    /// The face copied send partition `index` into the receive `recv`'s buffer. When the
    /// receive has everything, the send's oldest round is done with.
    pub fn part_delivered(&self, recv: Handle, index: usize) -> Result<()> {
        let mut st = self.lock();
        let r = st.part_mut(recv)?;
        if let Some(g) = r.got.get_mut(index) {
            *g = true;
        }
        if r.all_arrived() {
            if let Some(send) = r.matched {
                st.part_mut(send)?.rounds.pop_front();
            }
        }
        Ok(())
    }

    /// `MPI_Parrived` (MPI 4.1 §4.2.4): whether partition `partition` of the receive `req` has
    /// arrived; an inactive request answers true (nothing is outstanding), like `MPI_Test`.
    pub fn parrived(&self, req: Handle, partition: i64) -> Result<bool> {
        let st = self.active()?;
        let p = st.part(req)?;
        if p.side != Side::Recv {
            return Err(Error::invalid(
                MPI_ERR_REQUEST,
                format!("request {:#x} is a partitioned send, not a receive", req.0),
            ));
        }
        let j = check_partition(p, partition)?;
        Ok(!p.active || p.arrived(j))
    }
}

impl State {
    /// Completion of a partitioned request's round, for `MPI_Test` & co.: `Some(status)` when
    /// done (and `deactivate` makes it inactive), `None` while partitions are outstanding.
    pub(crate) fn part_test(&mut self, req: Handle, deactivate: bool) -> Result<Option<Status>> {
        let p = self.part_mut(req)?;
        if !p.active {
            return Ok(Some(Status::EMPTY));
        }
        if !p.round_done() {
            return Ok(None);
        }
        let status = match p.side {
            Side::Send => Status::EMPTY,
            Side::Recv => Status {
                source: p.peer,
                tag: p.tag,
                error: MPI_SUCCESS,
                bytes: p.total_bytes(),
                cancelled: false,
            },
        };
        if deactivate {
            p.active = false;
        }
        Ok(Some(status))
    }

    /// `MPI_Request_free` of a partitioned request: only an inactive one (MPI 4.1 §4.2: freeing
    /// an active partitioned request is erroneous; this reports `MPI_ERR_REQUEST`). Its partner,
    /// if any, is matched again at its next start.
    pub(crate) fn part_free(&mut self, req: Handle) -> Result<()> {
        let p = self.part(req)?;
        if p.active {
            return Err(Error::invalid(
                MPI_ERR_REQUEST,
                format!(
                    "partitioned request {:#x} is active: complete it before freeing it",
                    req.0
                ),
            ));
        }
        if let Some(other) = p.matched {
            if let Ok(q) = self.part_mut(other) {
                q.matched = None;
                q.rounds.clear();
                q.got.clear();
                let rematch = q.active;
                if rematch {
                    self.p2p.partitioned.push_back(other);
                }
            }
        }
        self.p2p.partitioned.retain(|&h| h != req);
        self.requests.remove(req).map(drop)
    }
}
