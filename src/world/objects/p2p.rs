//! The message queues of point-to-point communication as the world keeps them (the operations
//! and the rules: `world::p2p`).

use crate::consts::MPI_ERR_OTHER;
use crate::error::Error;
use crate::world::handle::Handle;
use crate::world::objects::status::Status;
use std::collections::VecDeque;

/// How a send completes (MPI 4.1 §3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendMode {
    Standard,
    /// Needs room in the attached buffer until the message is received.
    Buffered,
    /// Completes only once a receive has matched it.
    Synchronous,
    Ready,
}

/// A message sent and not yet received.
#[derive(Debug)]
pub(crate) struct Message {
    pub(crate) comm: Handle,
    pub(crate) tag: i32,
    pub(crate) data: Vec<u8>,
    /// The request of a synchronous send, completed when the message is matched.
    pub(crate) sync: Option<Handle>,
    /// The attached buffer it holds bytes of (buffered mode), and how many.
    pub(crate) buffered: Option<(BufferOwner, i64)>,
}

/// A receive posted before its message came.
#[derive(Debug, Clone)]
pub struct RecvTarget {
    pub comm: Handle,
    pub source: i32,
    pub tag: i32,
    /// Where the data goes: the buffer's address and the byte runs of `count` x `datatype`.
    pub buf: usize,
    pub blocks: Vec<(i64, i64)>,
}

impl RecvTarget {
    pub(crate) fn capacity(&self) -> i64 {
        self.blocks.iter().map(|b| b.1).sum()
    }
}

#[derive(Debug)]
pub(crate) struct Posted {
    pub(crate) req: Handle,
    pub(crate) target: RecvTarget,
}

/// Data to write into a receive buffer: the face copies `data` along `target.blocks`.
#[derive(Debug)]
pub struct Delivery {
    /// The receive request to complete with [`Runtime::delivered`] after the copy.
    pub req: Handle,
    pub target: RecvTarget,
    pub data: Vec<u8>,
    pub status: Status,
}

/// Whose attached buffer (MPI 4.1 §3.6.1): the process's or a communicator's.
pub type BufferOwner = Option<Handle>;

/// An attached buffer: its address, size, and the bytes buffered messages hold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Attached {
    pub(crate) addr: usize,
    pub(crate) size: i64,
    pub(crate) used: i64,
}

/// The queues of every communicator, and the buffers of `MPI_Buffer_attach` and
/// `MPI_Comm_attach_buffer`.
#[derive(Debug, Default)]
pub struct Queues {
    pub(crate) unexpected: VecDeque<Message>,
    pub(crate) posted: VecDeque<Posted>,
    pub(crate) buffers: Vec<(BufferOwner, Attached)>,
    /// Partitioned requests started and not yet matched, in the order of their first starts.
    pub(crate) partitioned: VecDeque<Handle>,
}

impl Queues {
    pub const fn new() -> Queues {
        Queues {
            unexpected: VecDeque::new(),
            posted: VecDeque::new(),
            buffers: Vec::new(),
            partitioned: VecDeque::new(),
        }
    }

    pub(crate) fn buffer(&mut self, owner: BufferOwner) -> Option<&mut Attached> {
        self.buffers
            .iter_mut()
            .find(|(o, _)| *o == owner)
            .map(|(_, a)| a)
    }

    /// Releases what a received or withdrawn message held of its buffer.
    pub(crate) fn release(&mut self, m: &Message) {
        if let Some((owner, n)) = m.buffered {
            if let Some(b) = self.buffer(owner) {
                b.used -= n;
            }
        }
    }
}

impl Queues {
    /// Withdraws a posted receive (its request is being freed).
    pub fn withdraw(&mut self, req: Handle) {
        self.posted.retain(|p| p.req != req);
    }

    /// A synchronous send's request is freed: its message stays queued, completing no request.
    pub fn forget_sync(&mut self, req: Handle) {
        for m in self.unexpected.iter_mut().filter(|m| m.sync == Some(req)) {
            m.sync = None;
        }
    }
}

/// The error of a blocking call that nothing in this process can complete.
pub fn deadlock(what: &str) -> Error {
    Error::invalid(
        MPI_ERR_OTHER,
        format!("{what} would wait forever: nothing in this single process can match it"),
    )
}
