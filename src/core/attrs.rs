//! The caching operations (MPI 4.1 §7.7), one engine for communicators, datatypes and windows.
//!
//! Rules kept here (DESIGN.md "Keyvals and callbacks"):
//! - callbacks run without the lock, so they may call back into the library;
//! - an attribute whose delete callback is running stays readable and is marked dying, so a
//!   nested delete or free never runs the same callback twice;
//! - a failing delete callback leaves the attribute in place and its code is the call's result;
//! - a copy callback's failure fails the dup, and the caller deletes what was already copied.

use crate::core::attr_table::{AttrCell, Entry};
use crate::core::callback::{CallbackCall, CopyFn, DeleteFn};
use crate::core::convert::{AttrWord, Provenance};
use crate::core::error::{Error, Result};
use crate::core::keyval::{predefined_kind, KeyvalInfo};
use crate::core::mirror::Fast;
use crate::core::runtime::Runtime;
use crate::core::state::State;
use crate::core::{ObjRef, ObjectKind};
use std::sync::{Arc, MutexGuard};

/// An attribute as read: its value and what a C reader is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttrRead {
    pub value: AttrWord,
    pub c_view: usize,
}

impl AttrRead {
    fn of(cell: &AttrCell) -> AttrRead {
        AttrRead {
            value: cell.value(),
            c_view: cell.c_view(),
        }
    }
}

impl Runtime {
    /// `MPI_*_create_keyval`, `MPI_Keyval_create` and their Fortran forms.
    pub fn create_keyval(
        &self,
        kind: ObjectKind,
        copy: CopyFn,
        delete: DeleteFn,
        extra_state: i64,
    ) -> Result<i32> {
        let mut st = self.active()?;
        let number = st.keyvals.create(kind, copy, delete, extra_state)?;
        if let Some(m) = st.mirrors {
            m.keyval_created(number);
        }
        Ok(number)
    }

    /// `MPI_*_free_keyval`: the number is invalid at once; attributes using it live on.
    pub fn free_keyval(&self, kind: ObjectKind, keyval: i32) -> Result<()> {
        let mut st = self.active()?;
        if predefined_kind(keyval).is_some() {
            return Err(Error::KeyvalPredefined {
                keyval,
                action: "freed",
            });
        }
        st.keyvals.free(keyval, kind)?;
        if let Some(m) = st.mirrors {
            m.keyval_freed(keyval);
        }
        Ok(())
    }

    /// `MPI_*_get_attr`: `None` when the attribute is not set (flag = false).
    #[inline(always)]
    pub fn get_attr(&self, obj: ObjRef, keyval: i32) -> Result<Option<AttrRead>> {
        if let Some(m) = self.mirrors() {
            match m.get(obj, keyval) {
                Fast::Hit((value, c_view)) => return Ok(Some(AttrRead { value, c_view })),
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
        if let Some(m) = self.mirrors() {
            match m.get_c_view(obj, keyval) {
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
        if let Some(m) = self.mirrors() {
            match m.get_word(obj, keyval) {
                Fast::Hit(word) => return Ok(Some(word)),
                Fast::Miss => return Ok(None),
                Fast::Slow => {}
            }
        }
        Ok(self.get_attr_locked(obj, keyval)?.map(|r| r.value.word))
    }

    /// The precise answer, under the lock: predefined keyvals, errors, unpublished objects.
    #[cold]
    #[inline(never)]
    fn get_attr_locked(&self, obj: ObjRef, keyval: i32) -> Result<Option<AttrRead>> {
        let st = self.active()?;
        let table = st.attr_table(obj)?;
        if let Some(cell) = st.predefined_attr(obj, keyval) {
            let cell = cell?;
            return Ok(Some(AttrRead::of(&cell)));
        }
        let info = st.keyvals.lookup(keyval, obj.kind)?;
        Ok(table.get(info.slot()).map(|e| AttrRead::of(&e.cell)))
    }

    /// `MPI_*_set_attr`: sets or overwrites (the old value's delete callback runs first).
    pub fn set_attr(&self, obj: ObjRef, keyval: i32, value: AttrWord) -> Result<()> {
        let info = {
            let mut st = self.active()?;
            st.attr_table(obj)?;
            if predefined_kind(keyval).is_some() {
                return Err(Error::KeyvalPredefined {
                    keyval,
                    action: "set by users",
                });
            }
            let info = st.keyvals.lookup(keyval, obj.kind)?.clone();
            // Overwriting under a keyval without delete callback runs no user code: change the
            // value in place, as a new setting (it moves to the end of the order of setting).
            if matches!(info.delete, DeleteFn::Null) {
                let slot = info.slot();
                let seq = st.next_seq();
                let mirrors = st.mirrors;
                if let Some(e) = st.attr_table_mut(obj)?.get_mut(slot) {
                    if !e.dying {
                        e.cell.overwrite(value);
                        e.seq = seq;
                        if let Some(m) = mirrors.and_then(|m| m.mirror_of(obj.kind, obj.handle)) {
                            m.publish(slot, &e.cell);
                        }
                        return Ok(());
                    }
                }
            }
            info
        };
        self.store_attr(obj, info, value)
    }

    /// `MPI_*_delete_attr`: deleting an attribute that is not set is not an error.
    pub fn delete_attr(&self, obj: ObjRef, keyval: i32) -> Result<()> {
        let (slot, old) = {
            let mut st = self.active()?;
            st.attr_table(obj)?;
            if predefined_kind(keyval).is_some() {
                return Err(Error::KeyvalPredefined {
                    keyval,
                    action: "deleted by users",
                });
            }
            let info = st.keyvals.lookup(keyval, obj.kind)?;
            let slot = info.slot();
            let null_delete = matches!(info.delete, DeleteFn::Null);
            match st.attr_table_mut(obj)?.get_mut(slot) {
                None => return Ok(()),
                // Its deletion is already under way in an outer call.
                Some(e) if e.dying => return Ok(()),
                Some(_) if null_delete => {
                    st.attr_remove(obj, slot);
                    return Ok(());
                }
                Some(e) => {
                    e.dying = true;
                    (slot, e.cell.clone())
                }
            }
        };
        let outcome = run_delete(obj, &old);
        let mut st = self.lock();
        finish_delete(&mut st, obj, slot, &old, outcome)
    }

    /// Stores a value under a keyval record (which may already be freed: dup copies attributes
    /// of freed keyvals too).
    pub(crate) fn store_attr(
        &self,
        obj: ObjRef,
        info: Arc<KeyvalInfo>,
        value: AttrWord,
    ) -> Result<()> {
        let slot = info.slot();
        let null_delete = matches!(info.delete, DeleteFn::Null);
        let cell = Arc::new(AttrCell::new(value, info));
        loop {
            let old = {
                let mut st = self.active()?;
                let seq = st.next_seq();
                let entry = Entry {
                    cell: cell.clone(),
                    seq,
                    dying: false,
                };
                match st.attr_table_mut(obj)?.get_mut(slot) {
                    // Nothing there; or a dying value whose delete callback is already running
                    // in an outer call; or a null delete callback, with nothing to run.
                    None => {
                        st.attr_insert(obj, slot, entry)?;
                        return Ok(());
                    }
                    Some(e) if e.dying || null_delete => {
                        st.attr_insert(obj, slot, entry)?;
                        return Ok(());
                    }
                    Some(e) => {
                        e.dying = true;
                        e.cell.clone()
                    }
                }
            };
            // MPI 4.1 §7.7.2: overwriting runs the delete callback on the old value first.
            let outcome = run_delete(obj, &old);
            let mut st = self.lock();
            if outcome.is_ok() {
                let seq = st.next_seq();
                if st.attr_table(obj)?.holds(slot, &old) {
                    st.attr_insert(
                        obj,
                        slot,
                        Entry {
                            cell,
                            seq,
                            dying: false,
                        },
                    )?;
                    return Ok(());
                }
                // A nested call replaced the old value meanwhile: overwrite what is there now.
                continue;
            }
            return finish_delete(&mut st, obj, slot, &old, outcome);
        }
    }

    /// Runs the copy callbacks of `from`'s attributes in order of setting and stores their
    /// results on `to` (MPI 4.1 §7.7.2). Stops at the first failing callback; the caller then
    /// deletes what was copied and frees `to`. Native copies (`*_DUP_FN`, `*_NULL_COPY_FN`) are
    /// made under one hold of the lock; it is let go only around user callbacks.
    pub(crate) fn copy_attrs(&self, from: ObjRef, to: ObjRef) -> Result<()> {
        let mut st = Some(self.active()?);
        let snapshot = st
            .as_ref()
            .expect("held")
            .attr_table(from)?
            .in_setting_order();
        for (slot, entry) in snapshot {
            let cell = entry.cell;
            let guard = match &mut st {
                Some(g) => g,
                none => none.insert(self.active()?),
            };
            // An earlier callback may have deleted or replaced it.
            if !guard.attr_table(from)?.holds(slot, &cell) {
                continue;
            }
            let info = cell.keyval.clone();
            let mut value = match &info.copy {
                CopyFn::Null => continue,
                CopyFn::Dup => {
                    if guard.attr_table(to)?.get(slot).is_none() {
                        let seq = guard.next_seq();
                        let copy = Arc::new(AttrCell::new(cell.value(), info));
                        guard.attr_insert(
                            to,
                            slot,
                            Entry {
                                cell: copy,
                                seq,
                                dying: false,
                            },
                        )?;
                        continue;
                    }
                    cell.value()
                }
                CopyFn::User(cb) => {
                    st = None;
                    let call = CallbackCall {
                        object: from.handle,
                        keyval: info.number,
                        extra_state: &info.extra_state,
                        value: &cell,
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
                }
            };
            // A C callback that hands back, unchanged, the pointer to the internal MPI_Aint or
            // int it was given copies the value and its provenance, never a pointer into the old
            // object's storage.
            let old = cell.value();
            if value.provenance == Provenance::CPointer
                && old.provenance != Provenance::CPointer
                && value.word as usize == cell.c_view()
            {
                value = old;
            }
            st = None;
            self.store_attr(to, info, value)?;
        }
        Ok(())
    }

    /// The attributes of `obj` whose deletion is not under way, last set first.
    fn deletion_order(st: &State, obj: ObjRef) -> Result<Vec<(u32, Arc<AttrCell>)>> {
        let mut order = st.attr_table(obj)?.in_setting_order();
        order.retain(|(_, e)| !e.dying);
        Ok(order
            .into_iter()
            .rev()
            .map(|(slot, e)| (slot, e.cell))
            .collect())
    }

    /// Deletes every attribute of `obj`, last set first, stopping at the first failing delete
    /// callback (the object then stays valid with the attributes not yet deleted). On success
    /// returns the lock, with the table empty, so the caller can drop the object atomically.
    pub(crate) fn delete_all_attrs(&self, obj: ObjRef) -> Result<MutexGuard<'_, State>> {
        let mut st = self.active()?;
        loop {
            let order = Self::deletion_order(&st, obj)?;
            if order.is_empty() {
                if !st.attr_table(obj)?.is_empty() {
                    return Err(Error::invalid(
                        crate::consts::MPI_ERR_OTHER,
                        format!("{} has an attribute deletion under way", obj.kind),
                    ));
                }
                return Ok(st);
            }
            // Callbacks may delete or replace later entries, or add new ones (caught by the
            // next round): each entry is checked again just before its turn.
            for (slot, cell) in order {
                match st.attr_table_mut(obj)?.get_mut(slot) {
                    Some(e) if Arc::ptr_eq(&e.cell, &cell) && !e.dying => {
                        if matches!(cell.keyval.delete, DeleteFn::Null) {
                            st.attr_remove(obj, slot);
                            continue;
                        }
                        e.dying = true;
                    }
                    _ => continue,
                }
                drop(st);
                let outcome = run_delete(obj, &cell);
                st = self.lock();
                finish_delete(&mut st, obj, slot, &cell, outcome)?;
            }
        }
    }

    /// Deletes every attribute of `obj`, last set first, for an object that goes away whatever
    /// happens (a failed dup's new object, finalize): a failing callback's attribute is dropped
    /// all the same and the first failure is returned after all have run.
    pub(crate) fn delete_all_attrs_forced(&self, obj: ObjRef) -> Result<()> {
        let mut first_error = None;
        let mut st = self.lock();
        while let Ok(order) = Self::deletion_order(&st, obj) {
            if order.is_empty() {
                break;
            }
            for (slot, cell) in order {
                match st.attr_table_mut(obj).map(|t| t.get_mut(slot)) {
                    Ok(Some(e)) if Arc::ptr_eq(&e.cell, &cell) && !e.dying => e.dying = true,
                    _ => continue,
                }
                let outcome = if matches!(cell.keyval.delete, DeleteFn::Null) {
                    Ok(())
                } else {
                    drop(st);
                    let outcome = run_delete(obj, &cell);
                    st = self.lock();
                    outcome
                };
                if st.attr_table(obj).is_ok_and(|t| t.holds(slot, &cell)) {
                    st.attr_remove(obj, slot);
                }
                if let Err(e) = outcome {
                    first_error.get_or_insert(e);
                }
            }
        }
        // The object goes next: readers must stop finding it.
        if let Some(m) = st.mirrors {
            m.unbind(obj);
        }
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
            // Nothing to delete: the object goes at once, under this one hold of the lock.
            if st.attr_table(obj)?.is_empty() {
                remove(&mut st)?;
                if let Some(m) = st.mirrors {
                    m.unbind(obj);
                }
                return Ok(());
            }
            st.set_freeing(obj, true)?;
        }
        match self.delete_all_attrs(obj) {
            Ok(mut st) => {
                remove(&mut st)?;
                if let Some(m) = st.mirrors {
                    m.unbind(obj);
                }
                Ok(())
            }
            Err(e) => {
                let _ = self.lock().set_freeing(obj, false);
                Err(e)
            }
        }
    }
}

fn run_delete(obj: ObjRef, cell: &AttrCell) -> Result<()> {
    let info = &cell.keyval;
    match &info.delete {
        DeleteFn::Null => Ok(()),
        DeleteFn::User(cb) => cb
            .delete(&CallbackCall {
                object: obj.handle,
                keyval: info.number,
                extra_state: &info.extra_state,
                value: cell,
            })
            .map_err(|code| Error::Callback {
                code,
                keyval: info.number,
                callback: "delete",
            }),
    }
}

/// After a delete callback: on success the attribute goes (if a nested call has not already
/// replaced it); on failure it stays, no longer dying.
fn finish_delete(
    st: &mut State,
    obj: ObjRef,
    slot: u32,
    old: &Arc<AttrCell>,
    outcome: Result<()>,
) -> Result<()> {
    if st.attr_table(obj).is_ok_and(|t| t.holds(slot, old)) {
        if outcome.is_ok() {
            st.attr_remove(obj, slot);
        } else if let Ok(Some(e)) = st.attr_table_mut(obj).map(|t| t.get_mut(slot)) {
            e.dying = false;
        }
    }
    outcome
}
