//! Requests as the world keeps them (the operations: `world::request`).

use crate::world::handle::Handle;
use crate::world::objects::grequest::Generalized;
use crate::world::objects::p2p::SendMode;
use crate::world::objects::partitioned::Partitioned;
use crate::world::objects::status::Status;

#[derive(Debug)]
pub enum Request {
    /// Complete (`MPI_Comm_idup` and other operations done at once), with the empty status.
    Complete,
    /// Complete with a status; waiting or testing returns it and releases the request.
    Done(Status),
    /// A receive whose data the face is copying (complete once it has).
    Delivering(Status),
    /// A receive waiting for its message.
    RecvPending,
    /// A synchronous send waiting for its receive.
    SendPending,
    /// A persistent request (MPI 4.1 §3.9): `active` is the state of the started operation.
    Persistent {
        op: PersistentOp,
        active: Option<Box<Request>>,
    },
    /// A generalized request (MPI 4.1 §13.2): the program completes it.
    Generalized(Generalized),
    /// A persistent partitioned send or receive (MPI 4.1 §4).
    Partitioned(Box<Partitioned>),
}

/// What starting a persistent request does.
#[derive(Clone)]
pub enum PersistentOp {
    Send {
        mode: SendMode,
        buf: usize,
        count: i64,
        datatype: Handle,
        dest: i32,
        tag: i32,
        comm: Handle,
    },
    Recv {
        buf: usize,
        count: i64,
        datatype: Handle,
        source: i32,
        tag: i32,
        comm: Handle,
    },
    /// A persistent collective (MPI 4.1 §6.13, §8.7): the face's closure runs the operation,
    /// which over one process completes when it starts.
    Collective { comm: Handle, run: CollectiveRun },
}

/// The work of a persistent collective, as the face planned it at init.
pub type CollectiveRun = std::sync::Arc<dyn Fn() -> crate::error::Result<()> + Send + Sync>;

impl std::fmt::Debug for PersistentOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PersistentOp::Send { dest, tag, .. } => write!(f, "Send(dest {dest}, tag {tag})"),
            PersistentOp::Recv { source, tag, .. } => {
                write!(f, "Recv(source {source}, tag {tag})")
            }
            PersistentOp::Collective { comm, .. } => write!(f, "Collective(comm {:#x})", comm.0),
        }
    }
}
