//! Info objects (MPI 4.1 §10): ordered (key, value) string pairs. The single-process world
//! takes no hints, but programs create, fill and pass info objects to `MPI_Comm_dup_with_info`,
//! `MPI_Win_create` and the like, and read them back.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::primitives::alloc;
use crate::world::handle::Handle;
pub use crate::world::objects::info::Info;
use crate::world::runtime::Runtime;

fn check_key(key: &str) -> Result<()> {
    if key.is_empty() || key.len() >= MPI_MAX_INFO_KEY as usize {
        return Err(Error::invalid(
            MPI_ERR_INFO_KEY,
            format!(
                "info key of {} characters (1 to {} allowed)",
                key.len(),
                MPI_MAX_INFO_KEY - 1
            ),
        ));
    }
    Ok(())
}

impl Runtime {
    /// The world for the info routines, which MPI 4.1 §11.2.1 allows at any time (before
    /// `MPI_Init` and after `MPI_Finalize`, as sessions are made with an info): infos made
    /// while the library's objects do not exist live until they are next released.
    fn info_state(
        &self,
    ) -> std::sync::MutexGuard<'_, crate::caching::Locked<crate::world::state::State>> {
        self.lock()
    }

    /// `MPI_Info_create`.
    pub fn info_create(&self) -> Result<Handle> {
        self.info_state().infos.insert(Info::default())
    }

    /// `MPI_Info_set`: a key set again keeps its place and takes the new value.
    pub fn info_set(&self, info: Handle, key: &str, value: &str) -> Result<()> {
        check_key(key)?;
        if value.is_empty() || value.len() >= MPI_MAX_INFO_VAL as usize {
            return Err(Error::invalid(
                MPI_ERR_INFO_VALUE,
                format!(
                    "info value of {} characters (1 to {} allowed)",
                    value.len(),
                    MPI_MAX_INFO_VAL - 1
                ),
            ));
        }
        let mut st = self.info_state();
        let i = st.infos.get_mut(info)?;
        // Every allocation first: a refused one leaves the info as it was.
        let value = alloc::try_string(value)?;
        match i.find(key) {
            Some(n) => i.entries[n].1 = value,
            None => {
                let key = alloc::try_string(key)?;
                alloc::try_push(&mut i.entries, (key, value))?;
            }
        }
        Ok(())
    }

    /// `MPI_Info_get`, `MPI_Info_get_string`, `MPI_Info_get_valuelen`: the value, if set.
    pub fn info_get(&self, info: Handle, key: &str) -> Result<Option<String>> {
        check_key(key)?;
        let st = self.info_state();
        let i = st.infos.get(info)?;
        Ok(i.find(key).map(|n| i.entries[n].1.clone()))
    }

    /// `MPI_Info_delete`: deleting a key that is not there is `MPI_ERR_INFO_NOKEY`.
    pub fn info_delete(&self, info: Handle, key: &str) -> Result<()> {
        check_key(key)?;
        let mut st = self.info_state();
        let i = st.infos.get_mut(info)?;
        match i.find(key) {
            Some(n) => {
                i.entries.remove(n);
                Ok(())
            }
            None => Err(Error::invalid(
                MPI_ERR_INFO_NOKEY,
                format!("info key \"{key}\" is not set"),
            )),
        }
    }

    /// `MPI_Info_dup`.
    pub fn info_dup(&self, info: Handle) -> Result<Handle> {
        let mut st = self.info_state();
        let copy = st.infos.get(info)?.clone();
        st.infos.insert(copy)
    }

    /// `MPI_Info_free`; `MPI_INFO_ENV` is predefined and cannot be freed.
    pub fn info_free(&self, info: Handle) -> Result<()> {
        self.info_state().infos.remove(info).map(drop)
    }

    /// `MPI_Info_get_nkeys`.
    pub fn info_nkeys(&self, info: Handle) -> Result<i32> {
        Ok(self.info_state().infos.get(info)?.entries.len() as i32)
    }

    /// `MPI_Info_get_nthkey`: keys are numbered from 0 in order of setting.
    pub fn info_nthkey(&self, info: Handle, n: i32) -> Result<String> {
        let st = self.info_state();
        let i = st.infos.get(info)?;
        usize::try_from(n)
            .ok()
            .and_then(|n| i.entries.get(n))
            .map(|(k, _)| k.clone())
            .ok_or_else(|| {
                Error::invalid(
                    MPI_ERR_ARG,
                    format!("key number {n} of an info with {} keys", i.entries.len()),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> Runtime {
        let rt = Runtime::new();
        rt.init(MPI_THREAD_SINGLE).unwrap();
        rt
    }

    // MPI 4.1 §10: set, get, overwrite keeps the order, delete, dup, nthkey, free.
    #[test]
    fn info_objects_hold_ordered_pairs() {
        let rt = runtime();
        let i = rt.info_create().unwrap();
        rt.info_set(i, "a", "1").unwrap();
        rt.info_set(i, "b", "2").unwrap();
        rt.info_set(i, "a", "3").unwrap();
        assert_eq!(rt.info_nkeys(i).unwrap(), 2);
        assert_eq!(rt.info_nthkey(i, 0).unwrap(), "a");
        assert_eq!(rt.info_get(i, "a").unwrap().as_deref(), Some("3"));
        assert_eq!(rt.info_get(i, "zz").unwrap(), None);
        let d = rt.info_dup(i).unwrap();
        rt.info_delete(i, "a").unwrap();
        assert_eq!(
            rt.info_delete(i, "a").unwrap_err().class(),
            MPI_ERR_INFO_NOKEY
        );
        assert_eq!(rt.info_nkeys(d).unwrap(), 2, "the dup is independent");
        assert_eq!(rt.info_nthkey(d, 2).unwrap_err().class(), MPI_ERR_ARG);
        assert_eq!(
            rt.info_set(i, "", "x").unwrap_err().class(),
            MPI_ERR_INFO_KEY
        );
        rt.info_free(i).unwrap();
        assert_eq!(rt.info_nkeys(i).unwrap_err().class(), MPI_ERR_INFO);
        assert_eq!(
            rt.info_free(Handle(MPI_INFO_ENV)).unwrap_err().class(),
            MPI_ERR_INFO
        );
        assert_eq!(
            rt.info_nkeys(Handle(MPI_INFO_NULL)).unwrap_err().class(),
            MPI_ERR_INFO
        );
    }
}
