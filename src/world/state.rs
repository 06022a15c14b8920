//! Everything the library holds, behind the runtime's lock.

use crate::caching::convert::AttrWord;
use crate::caching::keyval::{KeyvalRef, KeyvalTable};
use crate::caching::store::{AttrRead, Callbacks, Entry, ObjAttrs, Store};
use crate::consts::MPI_ERR_INTERN;
use crate::error::{Error, Result};
use crate::kinds::HandleKind;
use crate::world::attr_cell::AttrCell;
use crate::world::comm::{Comm, Group};
use crate::world::datatype::Datatype;
use crate::world::errhandler::{Errhandler, ErrorRegistry};
use crate::world::handle::Slab;
use crate::world::info::Info;
use crate::world::request::Request;
use crate::world::window::Window;
use crate::world::{ObjRef, ObjectKind};
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
    pub errors: ErrorRegistry,
    /// Predefined communicator attributes, by keyval (`MPI_TAG_UB` ...), shared by every comm.
    pub comm_predefined: Vec<(i32, Arc<AttrCell>)>,
    /// Memory from `MPI_Alloc_mem`, by base address; 16-byte aligned.
    pub alloc_mem: BTreeMap<usize, Vec<u128>>,
    /// Next position in the order of setting attributes.
    pub next_seq: u64,
    /// Where attributes live (set at init; shared with lock-free readers).
    pub store: Option<&'static Store>,
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
            errors: ErrorRegistry::new(),
            comm_predefined: Vec::new(),
            alloc_mem: BTreeMap::new(),
            next_seq: 0,
            returns_after_finalize: false,
            store: None,
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

    /// The keyval registry (an empty one before init).
    pub fn keyvals(&self) -> &'static KeyvalTable {
        static NONE: KeyvalTable = KeyvalTable::new();
        self.store.map_or(&NONE, |s| &s.registry)
    }

    /// Fails unless `obj` names a live object.
    pub fn check_object(&self, obj: ObjRef) -> Result<()> {
        match obj.kind {
            ObjectKind::Comm => self.comms.get(obj.handle).map(drop),
            ObjectKind::Datatype => self.types.get(obj.handle).map(drop),
            ObjectKind::Win => self.wins.get(obj.handle).map(drop),
        }
    }

    /// The attributes of a live object; `None` when it never had any bound.
    pub fn obj_attrs(&self, obj: ObjRef) -> Result<Option<&'static ObjAttrs>> {
        self.check_object(obj)?;
        Ok(self.live_attrs(obj))
    }

    /// The attributes of an object the caller has just found live; `None` when it never had
    /// any bound.
    fn live_attrs(&self, obj: ObjRef) -> Option<&'static ObjAttrs> {
        self.store.and_then(|s| s.attrs(obj))
    }

    /// The attributes of a live object, bound to it if they were not.
    pub fn bind_attrs(&self, obj: ObjRef) -> Result<&'static ObjAttrs> {
        self.check_object(obj)?;
        self.store.map(|s| s.bind(obj)).ok_or_else(|| {
            Error::invalid(MPI_ERR_INTERN, format!("no attribute store for {obj:?}"))
        })
    }

    /// How many attributes a live object has.
    pub fn attr_count(&self, obj: ObjRef) -> Result<usize> {
        self.check_object(obj)?;
        Ok(self.live_attr_count(obj))
    }

    /// [`State::attr_count`] of an object the caller has just found live.
    pub fn live_attr_count(&self, obj: ObjRef) -> usize {
        self.live_attrs(obj).map_or(0, |a| a.len())
    }

    /// Puts an attribute on an object as its latest setting, replacing the one under the same
    /// keyval; the keyval's count of attributes follows.
    pub fn attr_insert(&mut self, obj: ObjRef, info: KeyvalRef, value: AttrWord) -> Result<()> {
        let a = self.bind_attrs(obj)?;
        if a.entry(info.slot()).is_none() {
            self.keyvals().add_attr(info.slot(), info.number)?;
        }
        a.insert(info.slot(), info.number, value, info.callbacks());
        Ok(())
    }

    /// Takes an attribute off an object, keeping the keyval's count in step (the last
    /// attribute of a freed keyval ends it).
    pub fn attr_remove(&mut self, obj: ObjRef, slot: u32) -> Option<Entry> {
        let store = self.store?;
        let old = store.attrs(obj)?.remove(slot)?;
        store.attr_removed(slot);
        Some(old)
    }

    /// Copies `from`'s attributes to the new object `to` in one pass when every one copies
    /// natively (`*_DUP_FN` or `*_NULL_COPY_FN`: no user code, so no order to keep to);
    /// returns false, having copied nothing, when some copy callback must run.
    pub fn copy_attrs_natively(&mut self, from: ObjRef, to: ObjRef) -> Result<bool> {
        let Some(src) = self.obj_attrs(from)? else {
            return Ok(true);
        };
        if src.has_copy_callbacks() {
            return Ok(false);
        }
        let dst = self.bind_attrs(to)?;
        let keyvals = self.keyvals();
        dst.copy_from(src, |slot, number| keyvals.add_attr(slot, number).is_ok());
        Ok(true)
    }

    /// Removes every attribute of a live object in one pass when no delete callback has to run
    /// and none is dying (the order of deletion is then unobservable); returns whether the
    /// object is left without attributes.
    pub fn remove_attrs_silently(&mut self, obj: ObjRef) -> Result<bool> {
        self.check_object(obj)?;
        Ok(self.remove_live_attrs_silently(obj))
    }

    /// [`State::remove_attrs_silently`] for an object the caller has just found live.
    pub fn remove_live_attrs_silently(&mut self, obj: ObjRef) -> bool {
        let Some(a) = self.live_attrs(obj) else {
            return true;
        };
        if a.is_empty() {
            return true;
        }
        if !a.deletes_silently() {
            return false;
        }
        if let Some(store) = self.store {
            a.remove_all(|slot| store.attr_removed(slot));
        }
        true
    }

    /// Before a delete callback: when `slot` still holds the instance set at `order` and its
    /// deletion is not under way, marks it dying and returns the keyval and the value to hand
    /// the callback. An attribute without delete callback is simply removed (`None`).
    pub fn start_delete(
        &mut self,
        obj: ObjRef,
        slot: u32,
        order: u64,
    ) -> Option<(KeyvalRef, AttrRead)> {
        let a = self.obj_attrs(obj).ok()??;
        let e = a.entry(slot).filter(|e| e.order == order && !e.dying)?;
        let info = self.keyvals().info_at(slot)?;
        if !info.callbacks().contains(Callbacks::DELETE_USER) {
            self.attr_remove(obj, slot);
            return None;
        }
        a.set_dying(slot, true);
        Some((info, a.read_of(slot, &e)))
    }

    /// An object goes away: whatever attributes are left are dropped without callbacks and
    /// readers stop finding it.
    pub fn unbind_attrs(&mut self, obj: ObjRef) {
        let Some(store) = self.store else { return };
        if let Some(a) = store.attrs(obj) {
            a.remove_all(|slot| store.attr_removed(slot));
            store.unbind(obj);
        }
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
        use crate::caching::keyval::predefined_kind;
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
