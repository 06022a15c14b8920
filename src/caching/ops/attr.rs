//! Get, set and delete (MPI 4.1 §7.7.2), one engine for communicators, datatypes and windows.
//!
//! Rules kept here (docs/DESIGN.md "Keyvals and callbacks"):
//! - gets take no lock: the store answers hits and misses, the locked path everything else
//!   (predefined keyvals, which the world answers; errors; a read that met a write);
//! - callbacks run without the lock, so they may call back into the library;
//! - an attribute whose delete callback is running stays readable and is marked dying, so a
//!   nested delete or free never runs the same callback twice;
//! - a failing delete callback leaves the attribute in place and its code is the call's result;
//! - a keyval freed while attributes use it still names them: get, delete and overwrite work,
//!   a set that would create an attribute is `MPI_ERR_KEYVAL`.

use crate::caching::cache::{Cache, Locked};
use crate::caching::callback::{CallbackCall, Callbacks};
use crate::caching::convert::{AttrRead, AttrWord};
use crate::caching::keyval::KeyvalRef;
use crate::caching::object::ObjRef;
use crate::caching::store::Fast;
use crate::caching::world::World;
use crate::error::{Error, Result};

impl<W: World> Cache<W> {
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
    /// Fortran views are cuts whatever the provenance (`caching::convert`).
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
        #[cfg(feature = "test-hooks")]
        LOCKED_GETS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let st = self.active()?;
        let attrs = st.obj_attrs(obj)?;
        if let Some(kind) = W::predefined_keyval(keyval) {
            if kind != obj.kind {
                return Err(Error::KeyvalWrongKind {
                    keyval,
                    found: kind,
                    expected: obj.kind,
                });
            }
            return Ok(st.world.predefined_attr(obj, keyval));
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
            let mut st = self.active()?;
            let attrs = st.obj_attrs(obj)?;
            if W::predefined_keyval(keyval).is_some() {
                return Err(Error::KeyvalPredefined {
                    keyval,
                    action: "set by users",
                });
            }
            let info = st.keyvals().lookup_held(keyval, obj.kind)?;
            let slot = info.slot();
            match attrs.and_then(|a| Some((a, a.entry(slot)?))) {
                // A new attribute (the first set on an object among them): made under this
                // lock, as `store_attr` would after taking it again. Only a live keyval makes
                // one (MPI 4.1 §7.7.2).
                None => {
                    if !info.is_live() {
                        return Err(Error::KeyvalFreed {
                            keyval: info.number,
                        });
                    }
                    return st.attr_insert(obj, info, value);
                }
                // The same as the lock-free overwrite (the fast path may have declined a
                // racing case): the value changes in place, as a new setting.
                Some((a, e)) if !e.dying && !info.callbacks().contains(Callbacks::DELETE_USER) => {
                    a.insert(slot, keyval, value, info.callbacks())?;
                    return Ok(());
                }
                Some(_) => {}
            }
            info
        };
        self.store_attr(obj, info, value, Creating::LiveKeyval)
    }

    /// `MPI_*_delete_attr`: deleting an attribute that is not set is not an error. A keyval
    /// freed while attributes use it still names them (MPI 4.1 §7.7.2 names this call as the
    /// way to release them); the last one's going ends the keyval.
    ///
    /// An attribute whose deletion is under way on another thread (its delete callback
    /// running there) is waited for: once that deletion succeeded the attribute is gone and
    /// this call succeeds; if it failed, the attribute is back and this call deletes it itself
    /// (issue 15 item 9). Within the deleting thread (a nested call from the callback) it is
    /// already being deleted: success, nothing run.
    pub fn delete_attr(&self, obj: ObjRef, keyval: i32) -> Result<()> {
        let mut st = self.active()?;
        let (info, slot, old, read) = loop {
            let attrs = st.obj_attrs(obj)?;
            if W::predefined_keyval(keyval).is_some() {
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
                Some(e) if e.dying => {
                    if !st.deleted_elsewhere(obj, Some(slot)) {
                        // Its deletion is already under way in an outer call on this thread.
                        return Ok(());
                    }
                    st = self.wait_for_deletion(st);
                    st.world.check_active()?;
                }
                Some(_) if !info.callbacks().contains(Callbacks::DELETE_USER) => {
                    st.attr_remove(obj, slot);
                    return Ok(());
                }
                Some(e) => {
                    st.mark_dying(&a, obj, slot)?;
                    break (info, slot, e, a.read_of(slot, &e));
                }
            }
        };
        drop(st);
        let outcome = run_delete(obj, info, read);
        let mut st = self.lock();
        self.finish_delete(&mut st, obj, slot, old.order, outcome)
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
                        a.insert(slot, info.number, value, info.callbacks())?;
                        return Ok(());
                    }
                    Some(e) => {
                        st.mark_dying(&a, obj, slot)?;
                        (e, a.read_of(slot, &e))
                    }
                }
            };
            // MPI 4.1 §7.7.2: overwriting runs the delete callback on the old value first.
            let outcome = run_delete(obj, info, read);
            let mut st = self.lock();
            if outcome.is_ok() {
                st.end_deletion(obj, slot);
                self.deletion_done();
                if let Ok(Some(a)) = st.obj_attrs(obj) {
                    if a.holds(slot, old.order) {
                        // Out of memory here: the old value's delete callback has run, so it
                        // goes, and the error says the set failed.
                        if let Err(e) = a.insert(slot, info.number, value, info.callbacks()) {
                            st.attr_remove(obj, slot);
                            return Err(e);
                        }
                        return Ok(());
                    }
                }
                // A nested call replaced the old value meanwhile: overwrite what is there now.
                continue;
            }
            return self.finish_delete(&mut st, obj, slot, old.order, outcome);
        }
    }
}

/// Gets the locked path has answered (test hook: the getters' race test checks that a get
/// meeting a held bucket comes here).
#[cfg(feature = "test-hooks")]
pub static LOCKED_GETS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Who may make a new attribute in [`Cache::store_attr`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Creating {
    /// A set: only under a live keyval. One the user freed names only the attributes it has
    /// (MPI 4.1 §7.7.2 keeps it for them, not for new ones): `MPI_ERR_KEYVAL`.
    LiveKeyval,
    /// A dup's copy callback: under a freed keyval too, which the standard keeps alive with
    /// its attributes, their copies included (as MPICH and Open MPI do).
    Copy,
}

/// Runs the keyval's delete callback on `value`, if it has one (no lock held).
pub(crate) fn run_delete(obj: ObjRef, info: KeyvalRef, value: AttrRead) -> Result<()> {
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
        object: obj.key,
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

impl<W: World> Cache<W> {
    /// After a delete callback: on success the attribute goes (if a nested call has not
    /// already replaced it); on failure it stays, no longer dying. Either way the deletion has
    /// ended, and whoever waits for it is woken.
    pub(crate) fn finish_delete(
        &self,
        st: &mut Locked<W>,
        obj: ObjRef,
        slot: u32,
        order: u64,
        outcome: Result<()>,
    ) -> Result<()> {
        st.end_deletion(obj, slot);
        if let Ok(Some(a)) = st.obj_attrs(obj) {
            if a.holds(slot, order) {
                if outcome.is_ok() {
                    st.attr_remove(obj, slot);
                } else {
                    a.set_dying(slot, false);
                }
            }
        }
        self.deletion_done();
        outcome
    }
}
