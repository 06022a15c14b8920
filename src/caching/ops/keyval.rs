//! Keyval create and free (MPI 4.1 §7.7.2): no lock. The registry's record and the store's
//! keyval table change together: a created keyval's number is published in the table of its
//! kind, and a keyval's entry is cleared when it dies, before its slot can be reused.

use crate::caching::cache::Cache;
use crate::caching::callback::{Callbacks, CopyFn, DeleteFn};
use crate::caching::keyval::FreedKeyval;
use crate::caching::world::World;
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;

impl<W: World> Cache<W> {
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

    /// The free [`Cache::free_keyval`] could not decide in one step: errors, predefined
    /// keyvals, keyvals that attributes still use.
    #[cold]
    #[inline(never)]
    fn free_keyval_slow(&self, kind: ObjectKind, keyval: i32) -> Result<()> {
        let store = self.active_store()?;
        if W::predefined_keyval(keyval).is_some() {
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
}
