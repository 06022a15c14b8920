//! What the operations do with the lock held: an object's attributes in the store, checked
//! against the world, with the registry's counts kept in step.

use crate::caching::cache::{this_thread, Deletion, Locked};
use crate::caching::callback::Callbacks;
use crate::caching::convert::{AttrRead, AttrWord};
use crate::caching::keyval::KeyvalRef;
use crate::caching::object::ObjRef;
use crate::caching::store::{Entry, ObjAttrs};
use crate::caching::world::World;
use crate::consts::MPI_ERR_INTERN;
use crate::error::{Error, Result};
use crate::primitives::alloc;

impl<W: World> Locked<W> {
    /// The attributes of a live object; `None` when it never had any bound.
    pub fn obj_attrs(&self, obj: ObjRef) -> Result<Option<ObjAttrs>> {
        self.world.check(obj)?;
        Ok(self.live_attrs(obj))
    }

    /// The attributes of an object the caller has just found live; `None` when it never had
    /// any bound.
    fn live_attrs(&self, obj: ObjRef) -> Option<ObjAttrs> {
        self.store.and_then(|s| s.attrs(obj))
    }

    /// The attributes of a live object, bound to it if they were not.
    pub fn bind_attrs(&self, obj: ObjRef) -> Result<ObjAttrs> {
        self.world.check(obj)?;
        let store = self.store.ok_or_else(|| {
            Error::invalid(MPI_ERR_INTERN, format!("no attribute store for {obj:?}"))
        })?;
        store.bind(obj)
    }

    /// How many attributes a live object has.
    pub fn attr_count(&self, obj: ObjRef) -> Result<usize> {
        self.world.check(obj)?;
        Ok(self.live_attr_count(obj))
    }

    /// [`Locked::attr_count`] of an object the caller has just found live.
    pub fn live_attr_count(&self, obj: ObjRef) -> usize {
        self.live_attrs(obj).map_or(0, |a| a.len())
    }

    /// Puts an attribute on an object as its latest setting, replacing the one under the same
    /// keyval; the keyval's count of attributes follows.
    pub(crate) fn attr_insert(
        &mut self,
        obj: ObjRef,
        info: KeyvalRef,
        value: AttrWord,
    ) -> Result<()> {
        let a = self.bind_attrs(obj)?;
        let new = a.entry(info.slot()).is_none();
        if new {
            self.keyvals().add_attr(info.slot(), info.number)?;
        }
        if let Err(e) = a.insert(info.slot(), info.number, value, info.callbacks()) {
            // Out of memory: the keyval's count as it was.
            if let (true, Some(store)) = (new, self.store) {
                store.attr_removed(info.slot());
            }
            return Err(e);
        }
        Ok(())
    }

    /// Takes an attribute off an object, keeping the keyval's count in step (the last
    /// attribute of a freed keyval ends it).
    pub(crate) fn attr_remove(&mut self, obj: ObjRef, slot: u32) -> Option<Entry> {
        let store = self.store?;
        let old = store.attrs(obj)?.remove(slot)?;
        store.attr_removed(slot);
        Some(old)
    }

    /// Copies `from`'s attributes to the new object `to` in one pass when every one copies
    /// natively (`*_DUP_FN` or `*_NULL_COPY_FN`: no user code, so no order to keep to);
    /// returns false, having copied nothing, when some copy callback must run.
    pub(crate) fn copy_attrs_natively(&mut self, from: ObjRef, to: ObjRef) -> Result<bool> {
        let Some(src) = self.obj_attrs(from)? else {
            return Ok(true);
        };
        if src.has_copy_callbacks() {
            return Ok(false);
        }
        let dst = self.bind_attrs(to)?;
        let keyvals = self.keyvals();
        dst.copy_from(&src, |slot, number| keyvals.add_attr(slot, number).is_ok())?;
        Ok(true)
    }

    /// Removes every attribute of a live object in one pass when no delete callback has to run
    /// and none is dying (the order of deletion is then unobservable); returns whether the
    /// object is left without attributes.
    pub(crate) fn remove_attrs_silently(&mut self, obj: ObjRef) -> Result<bool> {
        self.world.check(obj)?;
        Ok(self.remove_live_attrs_silently(obj))
    }

    /// [`Locked::remove_attrs_silently`] for an object the caller has just found live.
    pub(crate) fn remove_live_attrs_silently(&mut self, obj: ObjRef) -> bool {
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
    pub(crate) fn start_delete(
        &mut self,
        obj: ObjRef,
        slot: u32,
        order: u64,
    ) -> Result<Option<(KeyvalRef, AttrRead)>> {
        let Some(a) = self.obj_attrs(obj).ok().flatten() else {
            return Ok(None);
        };
        let Some(e) = a.entry(slot).filter(|e| e.order == order && !e.dying) else {
            return Ok(None);
        };
        let Some(info) = self.keyvals().info_at(slot) else {
            return Ok(None);
        };
        if !info.callbacks().contains(Callbacks::DELETE_USER) {
            self.attr_remove(obj, slot);
            return Ok(None);
        }
        self.mark_dying(&a, obj, slot)?;
        Ok(Some((info, a.read_of(slot, &e))))
    }

    /// Marks `slot` of `obj` dying, its deletion under way on this thread (a delete callback
    /// is about to run without the lock); fails, with nothing marked, when there is no memory
    /// to note it.
    pub(crate) fn mark_dying(&mut self, a: &ObjAttrs, obj: ObjRef, slot: u32) -> Result<()> {
        alloc::try_reserve(&mut self.deleting, 1)?;
        a.set_dying(slot, true);
        self.deleting.push(Deletion {
            obj,
            slot,
            thread: this_thread(),
        });
        Ok(())
    }

    /// This thread's deletion of `slot` of `obj` has ended (whatever its outcome); the caller
    /// wakes the waiters once the store shows the outcome.
    pub(crate) fn end_deletion(&mut self, obj: ObjRef, slot: u32) {
        let me = this_thread();
        if let Some(i) = self
            .deleting
            .iter()
            .rposition(|d| d.obj == obj && d.slot == slot && d.thread == me)
        {
            self.deleting.swap_remove(i);
        }
    }

    /// Whether another thread is deleting `slot` of `obj` (its delete callback running): a
    /// delete of it waits for the outcome. `None` for `slot`: any attribute of `obj`.
    pub(crate) fn deleted_elsewhere(&self, obj: ObjRef, slot: Option<u32>) -> bool {
        let me = this_thread();
        self.deleting
            .iter()
            .any(|d| d.obj == obj && slot.is_none_or(|s| s == d.slot) && d.thread != me)
    }

    /// An object goes away: whatever attributes are left are dropped without callbacks and
    /// readers stop finding it.
    pub(crate) fn unbind_attrs(&mut self, obj: ObjRef) {
        let Some(store) = self.store else { return };
        if let Some(a) = store.attrs(obj) {
            a.remove_all(|slot| store.attr_removed(slot));
            store.unbind(obj);
        }
    }

    /// Whether the object's free is under way.
    pub(crate) fn is_freeing(&self, obj: ObjRef) -> bool {
        self.freeing.contains(&obj)
    }

    /// Marks or unmarks the object's free as under way.
    pub(crate) fn set_freeing(&mut self, obj: ObjRef, on: bool) {
        if on {
            if !self.is_freeing(obj) {
                self.freeing.push(obj);
            }
        } else {
            self.freeing.retain(|&o| o != obj);
        }
    }
}
