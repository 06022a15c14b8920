//! Sessions (MPI 4.1 §11.3): handles of their own, usable before `MPI_Init`, beside it and
//! after `MPI_Finalize`. The first session builds the library's objects if `MPI_Init` has not;
//! the last one to go releases them if the World Model is not (or no longer) running.
//!
//! A single process has two process sets: `mpi://WORLD` and `mpi://SELF`, each of this one
//! process. Groups made from them are ordinary groups; `MPI_Comm_create_from_group` makes
//! communicators of them.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::kinds::HandleKind;
use crate::world::handle::Handle;
pub use crate::world::objects::session::Session;
use crate::world::runtime::Runtime;
use crate::world::state::Phase;

/// The process sets a single process has, in the order `MPI_Session_get_nth_pset` numbers them.
pub const PSETS: [&str; 2] = ["mpi://WORLD", "mpi://SELF"];

/// The thread level an info value names (MPI 4.1 §11.3.1: "MPI_THREAD_SINGLE" ...).
pub fn thread_level_named(value: &str) -> Option<i32> {
    match value.trim() {
        "MPI_THREAD_SINGLE" => Some(MPI_THREAD_SINGLE),
        "MPI_THREAD_FUNNELED" => Some(MPI_THREAD_FUNNELED),
        "MPI_THREAD_SERIALIZED" => Some(MPI_THREAD_SERIALIZED),
        "MPI_THREAD_MULTIPLE" => Some(MPI_THREAD_MULTIPLE),
        _ => None,
    }
}

/// The name of a thread level, as session info reports it.
pub fn thread_level_name(level: i32) -> &'static str {
    match level {
        MPI_THREAD_SINGLE => "MPI_THREAD_SINGLE",
        MPI_THREAD_FUNNELED => "MPI_THREAD_FUNNELED",
        MPI_THREAD_SERIALIZED => "MPI_THREAD_SERIALIZED",
        _ => "MPI_THREAD_MULTIPLE",
    }
}

/// The process set a name names (MPI 4.1 §11.3.2: names are case-insensitive URIs here).
fn pset(name: &str) -> Result<&'static str> {
    PSETS
        .iter()
        .find(|p| p.eq_ignore_ascii_case(name))
        .copied()
        .ok_or_else(|| {
            Error::invalid(
                MPI_ERR_ARG,
                format!("no process set is named {name:?} (this process has mpi://WORLD and mpi://SELF)"),
            )
        })
}

impl Runtime {
    /// `MPI_Session_init`: a new session with `errhandler` (a predefined handler or one made
    /// for sessions), at the thread level `info` asks for under `thread_level` (MPI 4.1
    /// §11.3.1; `MPI_THREAD_SINGLE` without it). Every level is provided: the library is
    /// thread-safe throughout.
    pub fn session_init(
        &self,
        info: Handle,
        errhandler: Handle,
        initial: Handle,
    ) -> Result<Handle> {
        let mut st = self.lock();
        if st.phase == Phase::Finalizing {
            return Err(Error::Finalized);
        }
        if !st.up {
            self.bring_up(&mut st, initial)?;
        }
        let level = if info.0 == MPI_INFO_NULL {
            Ok(MPI_THREAD_SINGLE)
        } else {
            st.infos
                .get(info)
                .and_then(|i| match i.value("thread_level") {
                    None => Ok(MPI_THREAD_SINGLE),
                    Some(v) => thread_level_named(v).ok_or_else(|| {
                        Error::invalid(
                            MPI_ERR_INFO_VALUE,
                            format!("thread_level {v:?} is not a thread support level"),
                        )
                    }),
                })
        };
        let checked = level.and_then(|thread_level| match st.errhandlers.get(errhandler) {
            Ok(e) if e.for_kind.is_some_and(|k| k != HandleKind::Session) => Err(Error::invalid(
                MPI_ERR_ARG,
                format!("error handler {:#x} is not a session's", errhandler.0),
            )),
            Ok(_) => Ok(thread_level),
            Err(e) => Err(e),
        });
        let made = checked.and_then(|thread_level| {
            st.sessions.insert(Session {
                errhandler,
                thread_level,
            })
        });
        match made {
            Ok(h) => {
                st.errhandler_add_ref(errhandler);
                Ok(h)
            }
            Err(e) => {
                // A failed first session leaves nothing behind.
                if st.sessions.is_empty()
                    && matches!(st.phase, Phase::NotInitialized | Phase::Finalized)
                {
                    self.tear_down(&mut st);
                }
                Err(e)
            }
        }
    }

    /// `MPI_Session_finalize`: the session goes; the last one releases the library's objects
    /// unless the World Model is running. Its attached buffer, if any, is detached first.
    pub fn session_finalize(&self, session: Handle) -> Result<()> {
        let owner = Some(session);
        {
            let st = self.active()?;
            st.sessions.get(session)?;
        }
        if self.lock().p2p_has_buffer(owner) {
            self.buffer_detach(owner)?;
        }
        let mut st = self.active()?;
        let s = st.sessions.remove(session)?;
        st.errhandler_release(s.errhandler);
        if st.sessions.is_empty() && matches!(st.phase, Phase::NotInitialized | Phase::Finalized) {
            drop(st);
            let deleted = self.delete_every_attribute();
            let mut st = self.lock();
            if st.sessions.is_empty()
                && matches!(st.phase, Phase::NotInitialized | Phase::Finalized)
            {
                self.tear_down(&mut st);
            }
            return deleted;
        }
        Ok(())
    }

    /// The session's thread level (for `MPI_Session_get_info`).
    pub fn session_thread_level(&self, session: Handle) -> Result<i32> {
        Ok(self.active()?.sessions.get(session)?.thread_level)
    }

    /// `MPI_Session_get_num_psets`.
    pub fn session_num_psets(&self, session: Handle) -> Result<usize> {
        self.active()?.sessions.get(session)?;
        Ok(PSETS.len())
    }

    /// `MPI_Session_get_nth_pset`: the name of process set `n`.
    pub fn session_nth_pset(&self, session: Handle, n: i32) -> Result<&'static str> {
        self.active()?.sessions.get(session)?;
        usize::try_from(n)
            .ok()
            .and_then(|i| PSETS.get(i))
            .copied()
            .ok_or_else(|| {
                Error::invalid(
                    MPI_ERR_ARG,
                    format!(
                        "process set {n} does not exist ({} are numbered from 0)",
                        PSETS.len()
                    ),
                )
            })
    }

    /// The size of a process set (for `MPI_Session_get_pset_info`'s `mpi_size`): one process.
    pub fn session_pset_size(&self, session: Handle, name: &str) -> Result<usize> {
        self.active()?.sessions.get(session)?;
        pset(name)?;
        Ok(1)
    }

    /// `MPI_Group_from_session_pset`: the group of this one process.
    pub fn group_from_session_pset(&self, session: Handle, name: &str) -> Result<Handle> {
        let mut st = self.active()?;
        st.sessions.get(session)?;
        pset(name)?;
        st.groups
            .insert(crate::world::comm::Group { members: vec![0] })
    }

    /// `MPI_Session_set_errhandler`.
    pub fn session_set_errhandler(&self, session: Handle, errhandler: Handle) -> Result<()> {
        let mut st = self.active()?;
        st.sessions.get(session)?;
        let e = st.errhandlers.get(errhandler)?;
        if let Some(k) = e.for_kind.filter(|&k| k != HandleKind::Session) {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!(
                    "error handler {:#x} was created for a {k}, not a session",
                    errhandler.0
                ),
            ));
        }
        st.errhandler_add_ref(errhandler);
        let old = std::mem::replace(&mut st.sessions.get_mut(session)?.errhandler, errhandler);
        st.errhandler_release(old);
        Ok(())
    }

    /// `MPI_Session_get_errhandler`: a new reference the caller frees.
    pub fn session_get_errhandler(&self, session: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        let e = st.sessions.get(session)?.errhandler;
        st.errhandler_add_ref(e);
        Ok(e)
    }
}
