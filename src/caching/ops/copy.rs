//! Dup (MPI 4.1 §7.7.2): the copy callbacks of the old object's attributes run in order of
//! setting, and their results become the new object's attributes.
//!
//! Where no user code runs, the order of setting cannot be observed and whole tables move at
//! once: a dup whose attributes all copy natively (`*_DUP_FN`, `*_NULL_COPY_FN`) copies them
//! in one pass. A copy callback's failure fails the dup: the copies already made are deleted
//! (each delete callback once) and the new object goes.

use crate::caching::cache::Cache;
use crate::caching::callback::{CallbackCall, Callbacks};
use crate::caching::convert::Provenance;
use crate::caching::object::{ObjKey, ObjRef};
use crate::caching::ops::attr::Creating;
use crate::caching::world::World;
use crate::error::{Error, Result};

impl<W: World> Cache<W> {
    /// Duplicates an attribute-carrying object (`MPI_Comm_dup`, `MPI_Comm_idup`,
    /// `MPI_Type_dup`, ...). `create` makes the new object in the world, under the lock, and
    /// returns its key; it reads `from` to copy it, so it fails unless `from` is live. Then the
    /// attributes are copied. If a copy callback fails, the attributes already copied are
    /// deleted (their delete callbacks run; their failures are not reported), `discard` removes
    /// the new object under the lock, and the callback's error is the dup's.
    pub fn dup_object(
        &self,
        from: ObjRef,
        create: impl FnOnce(&mut W) -> Result<ObjKey>,
        discard: impl FnOnce(&mut W, ObjKey),
    ) -> Result<ObjKey> {
        let new = {
            let mut st = self.active()?;
            let new = create(&mut st.world)?;
            // No attributes: nothing to copy, no callback to run.
            if st.live_attr_count(from) == 0 {
                return Ok(new);
            }
            new
        };
        let to = ObjRef::new(from.kind, new);
        if let Err(e) = self.copy_attrs(from, to) {
            // The new object goes whatever its attributes' delete callbacks say.
            let _ = self.delete_all_attrs_forced(to);
            discard(&mut self.lock().world, new);
            return Err(e);
        }
        Ok(new)
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
        for (slot, first) in src.in_setting_order()? {
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
                    object: from.key,
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
}
