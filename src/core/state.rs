//! Everything the library holds, behind the runtime's lock.

use crate::core::attr_table::{AttrCell, AttrTable, Entry};
use crate::core::comm::{Comm, Group};
use crate::core::datatype::Datatype;
use crate::core::errhandler::{Errhandler, ErrorRegistry};
use crate::core::error::{Error, Result};
use crate::core::handle::{HandleKind, Slab};
use crate::core::info::Info;
use crate::core::keyval::KeyvalRegistry;
use crate::core::mirror::Mirrors;
use crate::core::request::Request;
use crate::core::window::Window;
use crate::core::{ObjRef, ObjectKind};
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
    pub infos: Slab<Info>,
    pub keyvals: KeyvalRegistry,
    pub errors: ErrorRegistry,
    /// Predefined communicator attributes, by keyval (`MPI_TAG_UB` ...), shared by every comm.
    pub comm_predefined: Vec<(i32, Arc<AttrCell>)>,
    /// Memory from `MPI_Alloc_mem`, by base address; 16-byte aligned.
    pub alloc_mem: BTreeMap<usize, Vec<u128>>,
    /// Next position in the order of setting attributes.
    pub next_seq: u64,
    /// The lock-free read side of the attribute tables (set at init).
    pub mirrors: Option<&'static Mirrors>,
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
            infos: Slab::new(HandleKind::Info),
            keyvals: KeyvalRegistry::new(),
            errors: ErrorRegistry::new(),
            comm_predefined: Vec::new(),
            alloc_mem: BTreeMap::new(),
            next_seq: 0,
            returns_after_finalize: false,
            mirrors: None,
        }
    }

    /// Fails unless MPI calls are allowed now (after init, and inside finalize's callbacks).
    pub fn check_active(&self) -> Result<()> {
        match self.phase {
            Phase::Initialized | Phase::Finalizing => Ok(()),
            Phase::NotInitialized => Err(Error::NotInitialized),
            Phase::Finalized => Err(Error::Finalized),
        }
    }

    pub fn next_seq(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    /// The attribute table of a live object.
    pub fn attr_table(&self, obj: ObjRef) -> Result<&AttrTable> {
        Ok(match obj.kind {
            ObjectKind::Comm => &self.comms.get(obj.handle)?.attrs,
            ObjectKind::Datatype => &self.types.get(obj.handle)?.attrs,
            ObjectKind::Win => &self.wins.get(obj.handle)?.attrs,
        })
    }

    pub fn attr_table_mut(&mut self, obj: ObjRef) -> Result<&mut AttrTable> {
        Ok(match obj.kind {
            ObjectKind::Comm => &mut self.comms.get_mut(obj.handle)?.attrs,
            ObjectKind::Datatype => &mut self.types.get_mut(obj.handle)?.attrs,
            ObjectKind::Win => &mut self.wins.get_mut(obj.handle)?.attrs,
        })
    }

    /// Puts an attribute on an object: the table, the keyval's count and the read mirror agree.
    /// Returns the entry it replaced (whose keyval count passes to the new one).
    pub fn attr_insert(&mut self, obj: ObjRef, slot: u32, entry: Entry) -> Result<Option<Entry>> {
        let mirrors = self.mirrors;
        let cell = entry.cell.clone();
        let old = self.attr_table_mut(obj)?.insert(slot, entry);
        if old.is_none() {
            self.keyvals.add_attr(slot);
        }
        if let Some(m) = mirrors.and_then(|m| m.bind(obj)) {
            m.publish(slot, &cell);
        }
        Ok(old)
    }

    /// Takes an attribute off an object, keeping the keyval's count and the mirror in step.
    pub fn attr_remove(&mut self, obj: ObjRef, slot: u32) -> Option<Entry> {
        let mirrors = self.mirrors;
        let old = self.attr_table_mut(obj).ok()?.remove(slot)?;
        self.keyvals.remove_attr(slot);
        if let Some(m) = mirrors.and_then(|m| m.mirror_of(obj.kind, obj.handle)) {
            m.withdraw(slot);
        }
        Some(old)
    }

    /// Whether the object is a predefined one (never freed by users).
    pub fn is_predefined(&self, obj: ObjRef) -> bool {
        match obj.kind {
            ObjectKind::Comm => self.comms.is_predefined(obj.handle),
            ObjectKind::Datatype => self.types.is_predefined(obj.handle),
            ObjectKind::Win => self.wins.is_predefined(obj.handle),
        }
    }

    /// Whether the object is in the middle of being freed.
    pub fn freeing(&self, obj: ObjRef) -> Result<bool> {
        Ok(match obj.kind {
            ObjectKind::Comm => self.comms.get(obj.handle)?.freeing,
            ObjectKind::Datatype => self.types.get(obj.handle)?.freeing,
            ObjectKind::Win => self.wins.get(obj.handle)?.freeing,
        })
    }

    pub fn set_freeing(&mut self, obj: ObjRef, on: bool) -> Result<()> {
        match obj.kind {
            ObjectKind::Comm => self.comms.get_mut(obj.handle)?.freeing = on,
            ObjectKind::Datatype => self.types.get_mut(obj.handle)?.freeing = on,
            ObjectKind::Win => self.wins.get_mut(obj.handle)?.freeing = on,
        }
        Ok(())
    }

    /// A predefined attribute of `obj`, if `keyval` is a predefined keyval of its kind.
    /// `Some(Err)` for a predefined keyval of another kind.
    pub fn predefined_attr(&self, obj: ObjRef, keyval: i32) -> Option<Result<Arc<AttrCell>>> {
        use crate::core::keyval::predefined_kind;
        let kind = predefined_kind(keyval)?;
        if kind != obj.kind {
            return Some(Err(Error::KeyvalWrongKind {
                keyval,
                found: kind,
                expected: obj.kind,
            }));
        }
        let cells: &[(i32, Arc<AttrCell>)] = match obj.kind {
            ObjectKind::Comm => {
                if let Err(e) = self.comms.get(obj.handle) {
                    return Some(Err(e));
                }
                &self.comm_predefined
            }
            ObjectKind::Win => match self.wins.get(obj.handle) {
                Ok(w) => &w.predefined,
                Err(e) => return Some(Err(e)),
            },
            ObjectKind::Datatype => &[],
        };
        cells
            .iter()
            .find(|(k, _)| *k == keyval)
            .map(|(_, c)| Ok(c.clone()))
    }
}

impl Default for State {
    fn default() -> Self {
        Self::new()
    }
}
