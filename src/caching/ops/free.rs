//! Deleting every attribute of an object: on its free (stopping at the first failing delete
//! callback), for an object that goes whatever happens (a failed dup's new object), and at
//! `MPI_Finalize`. Attributes are deleted last set first; where no delete callback runs, the
//! order cannot be observed and the whole table is emptied at once.

use crate::caching::cache::{Cache, Locked};
use crate::caching::object::ObjRef;
use crate::caching::ops::attr::run_delete;
use crate::caching::store::Entry;
use crate::caching::world::World;
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;
use std::sync::MutexGuard;

impl<W: World> Cache<W> {
    /// The attributes of `obj` whose deletion is not under way, last set first.
    fn deletion_order(st: &Locked<W>, obj: ObjRef) -> Result<Vec<(u32, Entry)>> {
        let Some(a) = st.obj_attrs(obj)? else {
            return Ok(Vec::new());
        };
        let mut order = a.in_setting_order()?;
        order.retain(|(_, e)| !e.dying);
        order.reverse();
        Ok(order)
    }

    /// Deletes every attribute of `obj`, last set first, stopping at the first failing delete
    /// callback (the object then stays valid with the attributes not yet deleted). On success
    /// returns the lock, with no attribute left, so the caller can drop the object atomically.
    fn delete_all_attrs(&self, obj: ObjRef) -> Result<MutexGuard<'_, Locked<W>>> {
        let mut st = self.active()?;
        loop {
            if st.remove_attrs_silently(obj)? {
                return Ok(st);
            }
            let order = Self::deletion_order(&st, obj)?;
            if order.is_empty() {
                // Every attribute left is dying. Another thread's deletions are waited for
                // (their outcome decides what is left to delete); this thread's own (a
                // delete callback freeing its object) cannot end before this call does.
                if st.deleted_elsewhere(obj, None) {
                    st = self.wait_for_deletion(st);
                    st.world.check_active()?;
                    continue;
                }
                return Err(Error::invalid(
                    crate::consts::MPI_ERR_OTHER,
                    format!("{} has an attribute deletion under way", obj.kind),
                ));
            }
            // Callbacks may delete or replace later entries, or add new ones (caught by the
            // next round): each entry is checked again just before its turn.
            for (slot, e) in order {
                let Some((info, read)) = st.start_delete(obj, slot, e.order)? else {
                    continue;
                };
                drop(st);
                let outcome = run_delete(obj, info, read);
                st = self.lock();
                self.finish_delete(&mut st, obj, slot, e.order, outcome)?;
            }
        }
    }

    /// Deletes every attribute of `obj`, last set first, for an object that goes away whatever
    /// happens (a failed dup's new object, finalize): a failing callback's attribute is dropped
    /// all the same and the first failure is returned after all have run.
    pub(crate) fn delete_all_attrs_forced(&self, obj: ObjRef) -> Result<()> {
        let mut first_error = None;
        let mut st = self.lock();
        loop {
            if st.remove_attrs_silently(obj).unwrap_or(true) {
                break;
            }
            let order = Self::deletion_order(&st, obj).unwrap_or_default();
            if order.is_empty() {
                break;
            }
            for (slot, e) in order {
                let (info, read) = match st.start_delete(obj, slot, e.order) {
                    Ok(Some(found)) => found,
                    Ok(None) => continue,
                    Err(err) => {
                        // No memory to note the deletion: the object goes all the same,
                        // this attribute without its callback.
                        st.attr_remove(obj, slot);
                        first_error.get_or_insert(err);
                        continue;
                    }
                };
                drop(st);
                let outcome = run_delete(obj, info, read);
                st = self.lock();
                st.end_deletion(obj, slot);
                self.deletion_done();
                if st
                    .obj_attrs(obj)
                    .is_ok_and(|a| a.is_some_and(|a| a.holds(slot, e.order)))
                {
                    st.attr_remove(obj, slot);
                }
                if let Err(e) = outcome {
                    first_error.get_or_insert(e);
                }
            }
        }
        // The object goes next: readers must stop finding it.
        st.unbind_attrs(obj);
        first_error.map_or(Ok(()), Err)
    }

    /// Frees an attribute-carrying object (`MPI_Comm_free`, `MPI_Type_free`, `MPI_Win_free`):
    /// deletes its attributes, last set first, stopping at a failing delete callback (which
    /// leaves the object valid, with the attributes not yet deleted, and its free can be tried
    /// again), then lets `remove` drop it from the world under the same lock. Predefined
    /// objects, and an object whose free is under way (a delete callback freeing it again), are
    /// refused.
    pub fn free_object(
        &self,
        obj: ObjRef,
        remove: impl FnOnce(&mut W) -> Result<()>,
    ) -> Result<()> {
        {
            let mut st = self.active()?;
            st.world.check(obj)?;
            if st.is_freeing(obj) {
                return Err(Error::BeingFreed {
                    kind: obj.kind.handle_kind(),
                    handle: obj.key.int(),
                });
            }
            if st.world.is_predefined(obj) {
                return Err(Error::PredefinedHandle {
                    kind: obj.kind.handle_kind(),
                    handle: obj.key.int(),
                    action: "freed",
                });
            }
            // No delete callback to run: the object goes at once, under this one hold (the
            // object was found live just above).
            if st.remove_live_attrs_silently(obj) {
                remove(&mut st.world)?;
                st.unbind_attrs(obj);
                return Ok(());
            }
            st.set_freeing(obj, true);
        }
        match self.delete_all_attrs(obj) {
            Ok(mut st) => {
                st.set_freeing(obj, false);
                remove(&mut st.world)?;
                st.unbind_attrs(obj);
                Ok(())
            }
            Err(e) => {
                self.lock().set_freeing(obj, false);
                Err(e)
            }
        }
    }

    /// `MPI_Finalize`'s deletions (MPI 4.1 §11.2.4): every attribute still set anywhere gets
    /// its delete callback exactly once, the objects of [`World::finalize_first`] first (in that
    /// order), then every other object's, kind by kind (communicators, datatypes, windows) in
    /// the store's order, each object's last set first. A failing callback does not stop it:
    /// its attribute is dropped, the others still run, and the first failure is returned.
    /// Callbacks may set new attributes meanwhile: it repeats until none is left.
    pub fn delete_every_attribute(&self) -> Result<()> {
        let mut first_error = None;
        loop {
            let objects = self.objects_with_attributes();
            if objects.is_empty() {
                break;
            }
            for obj in objects {
                if let Err(e) = self.delete_all_attrs_forced(obj) {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Objects that still carry attributes, in finalize order.
    fn objects_with_attributes(&self) -> Vec<ObjRef> {
        let st = self.lock();
        let Some(store) = st.store else {
            return Vec::new();
        };
        let first = st.world.finalize_first();
        let mut out: Vec<ObjRef> = first
            .iter()
            .copied()
            .filter(|&obj| st.attr_count(obj).is_ok_and(|n| n > 0))
            .collect();
        for kind in [ObjectKind::Comm, ObjectKind::Datatype, ObjectKind::Win] {
            out.extend(
                store
                    .objects_with_attributes(kind)
                    .filter(|obj| !first.contains(obj) && st.world.check(*obj).is_ok()),
            );
        }
        out
    }
}
