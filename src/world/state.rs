//! Everything the single-process world holds, behind the engine's lock
//! ([`crate::caching::Cache`]), and what the engine asks of it ([`World`]).

use crate::caching::convert::AttrRead;
use crate::caching::{ObjRef, World};
use crate::consts::*;
use crate::error::{Error, Result};
use crate::kinds::{HandleKind, ObjectKind};
use crate::world::attr_cell::AttrCell;
use crate::world::handle::{Handle, Slab};
use crate::world::objects::comm::{Comm, Group};
use crate::world::objects::datatype::Datatype;
use crate::world::objects::errhandler::{Errhandler, ErrorRegistry};
use crate::world::objects::info::Info;
use crate::world::objects::request::Request;
use crate::world::objects::window::Window;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where the process is in the MPI life cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    NotInitialized,
    Initialized,
    /// Inside `MPI_Finalize`, while delete callbacks run (`MPI_Finalized` is still false).
    Finalizing,
    Finalized,
}

pub struct State {
    pub phase: Phase,
    pub thread_level: i32,
    pub comms: Slab<Comm>,
    pub groups: Slab<Group>,
    pub types: Slab<Datatype>,
    pub wins: Slab<Window>,
    pub errhandlers: Slab<Errhandler>,
    pub requests: Slab<Request>,
    /// Messages matched by `MPI_Mprobe`/`MPI_Improbe`, off the queue until `MPI_Mrecv`.
    pub(crate) messages: Slab<crate::world::objects::p2p::Message>,
    pub infos: Slab<Info>,
    pub sessions: Slab<crate::world::objects::session::Session>,
    /// Whether the predefined objects exist (built by `MPI_Init` or the first session).
    pub up: bool,
    /// Open files and what MPI-IO keeps for them (world/file).
    pub files: Slab<crate::world::objects::file::File>,
    /// The handler `MPI_FILE_NULL` carries: new files start with it (MPI 4.1 §14.7).
    pub file_null_errhandler: Handle,
    /// Data representations registered by `MPI_Register_datarep`.
    pub datareps: Vec<String>,
    /// The types `MPI_Type_create_f90_*` made, by (combiner, p, r): the same arguments give
    /// the same handle (MPI 4.1 §19.1.9).
    /// With each, the named type it behaves as.
    pub f90_types: Vec<([i64; 3], Handle, Handle)>,
    /// User reduction operations (`MPI_Op_create`).
    pub ops: Slab<crate::world::objects::op::UserOp>,
    /// Messages and posted receives of point-to-point communication with this process.
    pub p2p: crate::world::objects::p2p::Queues,
    pub errors: ErrorRegistry,
    /// Predefined communicator attributes, by keyval (`MPI_TAG_UB` ...), shared by every comm.
    pub comm_predefined: Vec<(i32, Arc<AttrCell>)>,
    /// Memory from `MPI_Alloc_mem`, by base address; 16-byte aligned.
    pub alloc_mem: BTreeMap<usize, Vec<u128>>,
    /// Whether errors after `MPI_Finalize` return (`MPI_COMM_SELF` had `MPI_ERRORS_RETURN`).
    pub returns_after_finalize: bool,
}

impl State {
    pub const fn new() -> State {
        State {
            phase: Phase::NotInitialized,
            thread_level: 0,
            comms: Slab::new(HandleKind::Comm),
            groups: Slab::new(HandleKind::Group),
            types: Slab::new(HandleKind::Datatype),
            wins: Slab::new(HandleKind::Win),
            errhandlers: Slab::new(HandleKind::Errhandler),
            requests: Slab::new(HandleKind::Request),
            messages: Slab::new(HandleKind::Message),
            infos: Slab::new(HandleKind::Info),
            sessions: Slab::new(HandleKind::Session),
            up: false,
            files: Slab::new(HandleKind::File),
            file_null_errhandler: Handle(MPI_ERRORS_RETURN),
            datareps: Vec::new(),
            f90_types: Vec::new(),
            p2p: crate::world::objects::p2p::Queues::new(),
            ops: Slab::new(HandleKind::Op),
            errors: ErrorRegistry::new(),
            comm_predefined: Vec::new(),
            alloc_mem: BTreeMap::new(),
            returns_after_finalize: false,
        }
    }

    /// The handle of an object the engine names.
    fn handle(obj: ObjRef) -> Handle {
        Handle::of_key(obj.key)
    }
}

/// The objects whose attributes `MPI_Finalize` deletes first (MPI 4.1 §11.2.4).
const FINALIZE_FIRST: [ObjRef; 2] = [ObjRef::comm(MPI_COMM_SELF), ObjRef::comm(MPI_COMM_WORLD)];

impl World for State {
    // Handles carry a slot index in their low bits (world/handle.rs asserts it fits).
    const DENSE_KEYS: bool = true;

    fn check_active(&self) -> Result<()> {
        match self.phase {
            Phase::Initialized | Phase::Finalizing => Ok(()),
            // Open sessions keep the library usable before MPI_Init and after MPI_Finalize.
            _ if !self.sessions.is_empty() => Ok(()),
            Phase::NotInitialized => Err(Error::NotInitialized),
            Phase::Finalized => Err(Error::Finalized),
        }
    }

    fn check(&self, obj: ObjRef) -> Result<()> {
        let h = State::handle(obj);
        match obj.kind {
            ObjectKind::Comm => self.comms.get(h).map(drop),
            ObjectKind::Datatype => self.types.get(h).map(drop),
            ObjectKind::Win => self.wins.get(h).map(drop),
        }
    }

    fn is_predefined(&self, obj: ObjRef) -> bool {
        let h = State::handle(obj);
        match obj.kind {
            ObjectKind::Comm => self.comms.is_predefined(h),
            ObjectKind::Datatype => self.types.is_predefined(h),
            ObjectKind::Win => self.wins.is_predefined(h),
        }
    }

    /// `MPI_TAG_UB` ... on communicators, `MPI_WIN_BASE` ... on windows.
    fn predefined_keyval(keyval: i32) -> Option<ObjectKind> {
        match keyval {
            MPI_TAG_UB | MPI_IO | MPI_HOST | MPI_WTIME_IS_GLOBAL | MPI_APPNUM
            | MPI_LASTUSEDCODE | MPI_UNIVERSE_SIZE => Some(ObjectKind::Comm),
            MPI_WIN_BASE
            | MPI_WIN_DISP_UNIT
            | MPI_WIN_SIZE
            | MPI_WIN_CREATE_FLAVOR
            | MPI_WIN_MODEL => Some(ObjectKind::Win),
            _ => None,
        }
    }

    /// Every communicator shares the cells made at init; each window has its own.
    fn predefined_attr(&self, obj: ObjRef, keyval: i32) -> Option<AttrRead> {
        let cells: &[(i32, Arc<AttrCell>)] = match obj.kind {
            ObjectKind::Comm => &self.comm_predefined,
            ObjectKind::Win => &self.wins.get(State::handle(obj)).ok()?.predefined,
            ObjectKind::Datatype => &[],
        };
        cells
            .iter()
            .find(|(k, _)| *k == keyval)
            .map(|(_, c)| c.read())
    }

    fn finalize_first(&self) -> &[ObjRef] {
        &FINALIZE_FIRST
    }
}

impl Default for State {
    fn default() -> Self {
        Self::new()
    }
}
