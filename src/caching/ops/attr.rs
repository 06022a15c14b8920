//! The caching operations (MPI 4.1 §7.7), one engine for communicators, datatypes and windows.
//!
//! Rules kept here (DESIGN.md "Keyvals and callbacks"):
//! - callbacks run without the lock, so they may call back into the library;
//! - an attribute whose delete callback is running stays readable and is marked dying, so a
//!   nested delete or free never runs the same callback twice;
//! - a failing delete callback leaves the attribute in place and its code is the call's result;
//! - a copy callback's failure fails the dup, and the caller deletes what was already copied.
//!
//! Where no user code runs, the order of setting cannot be observed and whole tables move at
//! once: a dup whose attributes all copy natively (`*_DUP_FN`, `*_NULL_COPY_FN`) copies the
//! pages in one pass, and a free with no delete callback to run empties them in one pass.

use crate::caching::callback::{CallbackCall, CopyFn, DeleteFn};
use crate::caching::convert::{AttrWord, Provenance};
use crate::caching::keyval::{predefined_kind, FreedKeyval, KeyvalRef};
pub use crate::caching::store::AttrRead;
use crate::caching::store::Callbacks;
use crate::caching::store::{Entry, Fast};
use crate::error::{Error, Result};
use crate::world::runtime::Runtime;
use crate::world::state::State;
use crate::world::{ObjRef, ObjectKind};
use std::sync::MutexGuard;

impl Runtime {
    /// `MPI_*_create_keyval`, `MPI_Keyval_create` and their Fortran forms. Takes no lock.
    pub fn create_keyval(
        &self,
        kind: ObjectKind,
        copy: CopyFn,
        delete: DeleteFn,
        extra_state: i64,
    ) -> Result<i32> {
        let has_delete = !matches!(delete, DeleteFn::Null);
        let store = self.active_store()?;
        let number = store.registry.create(kind, copy, delete, extra_state)?;
        store.keyval_created(number, has_delete);
        Ok(number)
    }

    /// The hot `MPI_*_create_keyval`: callbacks all predefined (or NULL), a slot this thread
    /// freed before ready for reuse. No lock, no allocation; `None`, with nothing changed,
    /// for everything else.
    #[inline(always)]
    pub fn try_create_native_keyval(
        &self,
        kind: ObjectKind,
        callbacks: Callbacks,
        extra_state: i64,
    ) -> Option<i32> {
        let store = self.live_store()?;
        let number = store
            .registry
            .try_create_native(kind, callbacks, extra_state)?;
        store.keyval_created(number, false);
        Some(number)
    }

    /// `MPI_*_free_keyval`. Takes no lock. A keyval that attributes use lives on for them
    /// (MPI 4.1 §7.7.2): its number still names them for get and delete until the last goes;
    /// one that none uses dies now.
    pub fn free_keyval(&self, kind: ObjectKind, keyval: i32) -> Result<()> {
        match self.try_free_keyval(kind, keyval) {
            Some(freed) => {
                freed.recycle();
                Ok(())
            }
            None => self.free_keyval_slow(kind, keyval),
        }
    }

    /// The common free in one step (a live keyval of that kind that no attribute uses): the
    /// number is dead when this returns, and the caller recycles the slot; `None`, with
    /// nothing changed, for everything else.
    #[inline(always)]
    pub fn try_free_keyval(&self, kind: ObjectKind, keyval: i32) -> Option<FreedKeyval> {
        let store = self.live_store()?;
        let freed = store.registry.try_free(keyval, kind)?;
        store.keyval_released(keyval);
        Some(freed)
    }

    /// The free [`Runtime::free_keyval`] could not decide in one step: errors, predefined
    /// keyvals, keyvals that attributes still use.
    #[cold]
    #[inline(never)]
    fn free_keyval_slow(&self, kind: ObjectKind, keyval: i32) -> Result<()> {
        let store = self.active_store()?;
        if predefined_kind(keyval).is_some() {
            return Err(Error::KeyvalPredefined {
                keyval,
                action: "freed",
            });
        }
        // A keyval that attributes use keeps its table entry: gets still find them.
        if let Some(freed) = store.registry.free(keyval, kind)? {
            store.release_keyval(freed);
        }
        Ok(())
    }

    /// `MPI_*_get_attr`: `None` when the attribute is not set (flag = false).
    #[inline(always)]
    pub fn get_attr(&self, obj: ObjRef, keyval: i32) -> Result<Option<AttrRead>> {
        if let Some(s) = self.store() {
            match s.get(obj, keyval) {
                Fast::Hit(read) => return Ok(Some(read)),
                Fast::Miss => return Ok(None),
                Fast::Slow => {}
            }
        }
        self.get_attr_locked(obj, keyval)
    }

    /// `MPI_*_get_attr` for a C reader: only the C view (the pointer, or the address of the
    /// internal `MPI_Aint` / `int`).
    #[inline(always)]
    pub fn get_attr_c_view(&self, obj: ObjRef, keyval: i32) -> Result<Option<usize>> {
        if let Some(s) = self.store() {
            match s.get_c_view(obj, keyval) {
                Fast::Hit(c_view) => return Ok(Some(c_view)),
                Fast::Miss => return Ok(None),
                Fast::Slow => {}
            }
        }
        Ok(self.get_attr_locked(obj, keyval)?.map(|r| r.c_view))
    }

    /// `MPI_*_GET_ATTR` / `MPI_ATTR_GET` for a Fortran reader: only the word, of which both
    /// Fortran views are cuts whatever the provenance (convert.rs).
    #[inline(always)]
    pub fn get_attr_word(&self, obj: ObjRef, keyval: i32) -> Result<Option<i64>> {
        if let Some(s) = self.store() {
            match s.get_word(obj, keyval) {
                Fast::Hit(word) => return Ok(Some(word)),
                Fast::Miss => return Ok(None),
                Fast::Slow => {}
            }
        }
        Ok(self.get_attr_locked(obj, keyval)?.map(|r| r.value.word))
    }

    /// The precise answer, under the lock: predefined keyvals, errors, unbound objects. A
    /// keyval freed while attributes use it still names them (MPI 4.1 §7.7.2); on an object
    /// without one the answer is flag = false, as for any keyval.
    #[cold]
    #[inline(never)]
    fn get_attr_locked(&self, obj: ObjRef, keyval: i32) -> Result<Option<AttrRead>> {
        let st = self.active()?;
        let attrs = st.obj_attrs(obj)?;
        if let Some(cell) = st.predefined_attr(obj, keyval) {
            let cell = cell?;
            return Ok(Some(AttrRead {
                value: cell.value(),
                c_view: cell.c_view(),
            }));
        }
        let info = st.keyvals().lookup_held(keyval, obj.kind)?;
        Ok(attrs.and_then(|a| a.read(info.slot())))
    }

    /// `MPI_*_set_attr`: sets or overwrites (the old value's delete callback runs first). With
    /// a keyval the user has freed while attributes still use it, only an overwrite of an
    /// attribute the object holds is allowed; creating one is `MPI_ERR_KEYVAL`.
    #[inline(always)]
    pub fn set_attr(&self, obj: ObjRef, keyval: i32, value: AttrWord) -> Result<()> {
        // Overwriting under a held keyval (live, or freed with attributes left) without
        // delete callback runs no user code.
        if self
            .store()
            .is_some_and(|s| s.try_overwrite(obj, keyval, value))
        {
            return Ok(());
        }
        self.set_attr_locked(obj, keyval, value)
    }

    /// Every other setting, under the lock.
    #[inline(never)]
    fn set_attr_locked(&self, obj: ObjRef, keyval: i32, value: AttrWord) -> Result<()> {
        let info = {
            let st = self.active()?;
            let attrs = st.obj_attrs(obj)?;
            if predefined_kind(keyval).is_some() {
                return Err(Error::KeyvalPredefined {
                    keyval,
                    action: "set by users",
                });
            }
            let info = st.keyvals().lookup_held(keyval, obj.kind)?;
            // The same under the lock (the fast path may have declined a racing case): the
            // value changes in place, as a new setting.
            if let (false, Some(a)) = (info.callbacks().contains(Callbacks::DELETE_USER), attrs) {
                let slot = info.slot();
                if a.entry(slot).is_some_and(|e| !e.dying) {
                    a.insert(slot, keyval, value, info.callbacks());
                    return Ok(());
                }
            }
            info
        };
        self.store_attr(obj, info, value, Creating::LiveKeyval)
    }

    /// `MPI_*_delete_attr`: deleting an attribute that is not set is not an error. A keyval
    /// freed while attributes use it still names them (MPI 4.1 §7.7.2 names this call as the
    /// way to release them); the last one's going ends the keyval.
    pub fn delete_attr(&self, obj: ObjRef, keyval: i32) -> Result<()> {
        let (info, slot, old, read) = {
            let mut st = self.active()?;
            let attrs = st.obj_attrs(obj)?;
            if predefined_kind(keyval).is_some() {
                return Err(Error::KeyvalPredefined {
                    keyval,
                    action: "deleted by users",
                });
            }
            let info = st.keyvals().lookup_held(keyval, obj.kind)?;
            let slot = info.slot();
            let Some(a) = attrs else { return Ok(()) };
            match a.entry(slot) {
                None => return Ok(()),
                // Its deletion is already under way in an outer call.
                Some(e) if e.dying => return Ok(()),
                Some(_) if !info.callbacks().contains(Callbacks::DELETE_USER) => {
                    st.attr_remove(obj, slot);
                    return Ok(());
                }
                Some(e) => {
                    a.set_dying(slot, true);
                    (info, slot, e, a.read_of(slot, &e))
                }
            }
        };
        let outcome = run_delete(obj, info, read);
        let mut st = self.lock();
        finish_delete(&mut st, obj, slot, old.order, outcome)
    }

    /// Stores a value under a keyval record, which may be one the user freed while attributes
    /// use it: then `creating` says whether a new attribute may be made under it.
    pub(crate) fn store_attr(
        &self,
        obj: ObjRef,
        info: KeyvalRef,
        value: AttrWord,
        creating: Creating,
    ) -> Result<()> {
        let slot = info.slot();
        let null_delete = !info.callbacks().contains(Callbacks::DELETE_USER);
        loop {
            let (old, read) = {
                let mut st = self.active()?;
                let a = st.bind_attrs(obj)?;
                match a.entry(slot) {
                    None => {
                        // Checked under the lock, where attributes come and go.
                        if creating == Creating::LiveKeyval && !info.is_live() {
                            return Err(Error::KeyvalFreed {
                                keyval: info.number,
                            });
                        }
                        st.attr_insert(obj, info, value)?;
                        return Ok(());
                    }
                    // A dying value whose delete callback is already running in an outer
                    // call; or a null delete callback, with nothing to run.
                    Some(e) if e.dying || null_delete => {
                        a.insert(slot, info.number, value, info.callbacks());
                        return Ok(());
                    }
                    Some(e) => {
                        a.set_dying(slot, true);
                        (e, a.read_of(slot, &e))
                    }
                }
            };
            // MPI 4.1 §7.7.2: overwriting runs the delete callback on the old value first.
            let outcome = run_delete(obj, info, read);
            let mut st = self.lock();
            if outcome.is_ok() {
                if let Ok(Some(a)) = st.obj_attrs(obj) {
                    if a.holds(slot, old.order) {
                        a.insert(slot, info.number, value, info.callbacks());
                        return Ok(());
                    }
                }
                // A nested call replaced the old value meanwhile: overwrite what is there now.
                continue;
            }
            return finish_delete(&mut st, obj, slot, old.order, outcome);
        }
    }

    /// Runs the copy callbacks of `from`'s attributes in order of setting and stores their
    /// results on `to` (MPI 4.1 §7.7.2). Stops at the first failing callback; the caller then
    /// deletes what was copied and frees `to`.
    pub(crate) fn copy_attrs(&self, from: ObjRef, to: ObjRef) -> Result<()> {
        let mut st = self.active()?;
        let Some(src) = st.obj_attrs(from)? else {
            return Ok(());
        };
        if st.copy_attrs_natively(from, to)? {
            return Ok(());
        }
        let dst = st.bind_attrs(to)?;
        let mut guard = Some(st);
        for (slot, first) in src.in_setting_order() {
            let st = match &mut guard {
                Some(g) => g,
                none => none.insert(self.active()?),
            };
            // An earlier callback may have deleted or replaced it.
            let Some(read) = src.read(slot).filter(|_| src.holds(slot, first.order)) else {
                continue;
            };
            let Some(info) = st.keyvals().info_at(slot) else {
                continue;
            };
            let callbacks = info.callbacks();
            let mut value = if callbacks.contains(Callbacks::COPY_DUP) {
                if dst.entry(slot).is_none() {
                    st.attr_insert(to, info, read.value)?;
                    continue;
                }
                read.value
            } else if callbacks.contains(Callbacks::COPY_USER) {
                guard = None;
                let Some(user) = info.user() else { continue };
                let Some(cb) = user.copy_callback() else {
                    continue;
                };
                let call = CallbackCall {
                    object: from.handle,
                    keyval: info.number,
                    extra_state: info.extra_state(),
                    value: read,
                };
                match cb.copy(&call) {
                    Ok(Some(value)) => value,
                    Ok(None) => continue,
                    Err(code) => {
                        return Err(Error::Callback {
                            code,
                            keyval: info.number,
                            callback: "copy",
                        })
                    }
                }
            } else {
                continue;
            };
            // A C callback that hands back, unchanged, the pointer to the internal MPI_Aint or
            // int it was given copies the value and its provenance, never a pointer into the old
            // object's storage.
            if value.provenance == Provenance::CPointer
                && read.value.provenance != Provenance::CPointer
                && value.word as usize == read.c_view
            {
                value = read.value;
            }
            guard = None;
            self.store_attr(to, info, value, Creating::Copy)?;
        }
        Ok(())
    }

    /// The attributes of `obj` whose deletion is not under way, last set first.
    fn deletion_order(st: &State, obj: ObjRef) -> Result<Vec<(u32, Entry)>> {
        let Some(a) = st.obj_attrs(obj)? else {
            return Ok(Vec::new());
        };
        let mut order = a.in_setting_order();
        order.retain(|(_, e)| !e.dying);
        order.reverse();
        Ok(order)
    }

    /// Deletes every attribute of `obj`, last set first, stopping at the first failing delete
    /// callback (the object then stays valid with the attributes not yet deleted). On success
    /// returns the lock, with no attribute left, so the caller can drop the object atomically.
    pub(crate) fn delete_all_attrs(&self, obj: ObjRef) -> Result<MutexGuard<'_, State>> {
        let mut st = self.active()?;
        loop {
            if st.remove_attrs_silently(obj)? {
                return Ok(st);
            }
            let order = Self::deletion_order(&st, obj)?;
            if order.is_empty() {
                return Err(Error::invalid(
                    crate::consts::MPI_ERR_OTHER,
                    format!("{} has an attribute deletion under way", obj.kind),
                ));
            }
            // Callbacks may delete or replace later entries, or add new ones (caught by the
            // next round): each entry is checked again just before its turn.
            for (slot, e) in order {
                let Some((info, read)) = st.start_delete(obj, slot, e.order) else {
                    continue;
                };
                drop(st);
                let outcome = run_delete(obj, info, read);
                st = self.lock();
                finish_delete(&mut st, obj, slot, e.order, outcome)?;
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
                let Some((info, read)) = st.start_delete(obj, slot, e.order) else {
                    continue;
                };
                drop(st);
                let outcome = run_delete(obj, info, read);
                st = self.lock();
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

    /// Frees an attribute-carrying object: deletes its attributes (stopping at a failure, which
    /// leaves the object valid), then lets `remove` drop it under the same lock.
    pub(crate) fn free_object(
        &self,
        obj: ObjRef,
        remove: impl FnOnce(&mut State) -> Result<()>,
    ) -> Result<()> {
        {
            let mut st = self.active()?;
            if st.freeing(obj)? {
                return Err(Error::BeingFreed {
                    kind: obj.kind.handle_kind(),
                    handle: obj.handle.0,
                });
            }
            if st.is_predefined(obj) {
                return Err(Error::PredefinedHandle {
                    kind: obj.kind.handle_kind(),
                    handle: obj.handle.0,
                    action: "freed",
                });
            }
            // No delete callback to run: the object goes at once, under this one hold (the
            // object was found live just above).
            if st.remove_live_attrs_silently(obj) {
                remove(&mut st)?;
                st.unbind_attrs(obj);
                return Ok(());
            }
            st.set_freeing(obj, true)?;
        }
        match self.delete_all_attrs(obj) {
            Ok(mut st) => {
                remove(&mut st)?;
                st.unbind_attrs(obj);
                Ok(())
            }
            Err(e) => {
                let _ = self.lock().set_freeing(obj, false);
                Err(e)
            }
        }
    }
}

/// Who may make a new attribute in [`Runtime::store_attr`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Creating {
    /// A set: only under a live keyval. One the user freed names only the attributes it has
    /// (MPI 4.1 §7.7.2 keeps it for them, not for new ones): `MPI_ERR_KEYVAL`.
    LiveKeyval,
    /// A dup's copy callback: under a freed keyval too, which the standard keeps alive with
    /// its attributes, their copies included (as MPICH and Open MPI do).
    Copy,
}

fn run_delete(obj: ObjRef, info: KeyvalRef, value: AttrRead) -> Result<()> {
    if !info.callbacks().contains(Callbacks::DELETE_USER) {
        return Ok(());
    }
    let Some(user) = info.user() else {
        return Ok(());
    };
    let Some(cb) = user.delete_callback() else {
        return Ok(());
    };
    cb.delete(&CallbackCall {
        object: obj.handle,
        keyval: info.number,
        extra_state: info.extra_state(),
        value,
    })
    .map_err(|code| Error::Callback {
        code,
        keyval: info.number,
        callback: "delete",
    })
}

/// After a delete callback: on success the attribute goes (if a nested call has not already
/// replaced it); on failure it stays, no longer dying.
fn finish_delete(
    st: &mut State,
    obj: ObjRef,
    slot: u32,
    order: u64,
    outcome: Result<()>,
) -> Result<()> {
    if let Ok(Some(a)) = st.obj_attrs(obj) {
        if a.holds(slot, order) {
            if outcome.is_ok() {
                st.attr_remove(obj, slot);
            } else {
                a.set_dying(slot, false);
            }
        }
    }
    outcome
}
