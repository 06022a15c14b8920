//! Error handlers, and the registry of error classes, codes and strings.

use crate::consts::*;
use crate::error::{Error, Limited, Result};
use crate::world::handle::Handle;
pub use crate::world::objects::errhandler::{
    class_name, class_string, limit_of, Action, Errhandler, ErrorRegistry, UserErrhandler,
};
use crate::world::runtime::Runtime;
use crate::world::state::State;
use crate::world::ObjectKind;
use std::sync::Arc;

/// The initial error handler (MPI 4.1 §9.3): `MPI_ERRORS_ARE_FATAL`, or the predefined handler
/// a tool chose with the control variable `mpicache_initial_errhandler`, or the one
/// `mpiexec -initial-errhandler` names, passed in `MPICACHE_INITIAL_ERRHANDLER`. It handles
/// errors before `MPI_Init` and is what `MPI_COMM_WORLD` and `MPI_COMM_SELF` start with.
pub fn initial_errhandler() -> Handle {
    match crate::world::objects::errhandler::INITIAL_ERRHANDLER
        .load(std::sync::atomic::Ordering::Relaxed)
    {
        0 => {}
        chosen => return Handle(chosen),
    }
    match std::env::var("MPICACHE_INITIAL_ERRHANDLER").as_deref() {
        Ok("mpi_errors_return") | Ok("MPI_ERRORS_RETURN") => Handle(MPI_ERRORS_RETURN),
        Ok("mpi_errors_abort") | Ok("MPI_ERRORS_ABORT") => Handle(MPI_ERRORS_ABORT),
        _ => Handle(MPI_ERRORS_ARE_FATAL),
    }
}

impl State {
    pub fn errhandler_add_ref(&mut self, h: Handle) {
        if !self.errhandlers.is_predefined(h) {
            if let Ok(e) = self.errhandlers.get_mut(h) {
                e.refs += 1;
            }
        }
    }

    pub fn errhandler_release(&mut self, h: Handle) {
        if self.errhandlers.is_predefined(h) {
            return;
        }
        if let Ok(e) = self.errhandlers.get_mut(h) {
            e.refs -= 1;
            if e.refs == 0 {
                let _ = self.errhandlers.remove(h);
            }
        }
    }

    /// The action of the handler attached to an object (communicator or window).
    pub fn errhandler_action(&self, obj_kind: ObjectKind, h: Handle) -> Option<Action> {
        let errh = match obj_kind {
            ObjectKind::Comm => self.comms.get(h).ok()?.errhandler,
            ObjectKind::Win => self.wins.get(h).ok()?.errhandler,
            ObjectKind::Datatype => return None,
        };
        Some(self.errhandlers.get(errh).ok()?.action.clone())
    }

    /// The action of a session's handler.
    pub fn session_errhandler_action(&self, h: Handle) -> Option<Action> {
        let errh = self.sessions.get(h).ok()?.errhandler;
        Some(self.errhandlers.get(errh).ok()?.action.clone())
    }
}

impl Runtime {
    /// `MPI_Comm_create_errhandler`, `MPI_Win_create_errhandler`.
    pub fn create_errhandler(
        &self,
        kind: ObjectKind,
        f: Arc<dyn UserErrhandler>,
    ) -> Result<Handle> {
        self.create_errhandler_for(kind.handle_kind(), f)
    }

    /// A user handler for objects of `kind` (communicators, windows, sessions).
    pub fn create_errhandler_for(
        &self,
        kind: crate::kinds::HandleKind,
        f: Arc<dyn UserErrhandler>,
    ) -> Result<Handle> {
        self.active()?.errhandlers.insert(Errhandler {
            action: Action::User(f),
            for_kind: Some(kind),
            refs: 1,
        })
    }

    /// `MPI_File_create_errhandler`.
    pub fn create_file_errhandler(&self, f: Arc<dyn UserErrhandler>) -> Result<Handle> {
        self.create_errhandler_for(crate::kinds::HandleKind::File, f)
    }

    /// `MPI_Comm_set_errhandler`, `MPI_Win_set_errhandler`.
    pub fn set_errhandler(&self, kind: ObjectKind, obj: Handle, errh: Handle) -> Result<()> {
        let mut st = self.active()?;
        let e = st.errhandlers.get(errh)?;
        if let Some(k) = e.for_kind {
            if k != kind.handle_kind() {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!(
                        "error handler {:#x} was created for a {k}, not a {kind}",
                        errh.0
                    ),
                ));
            }
        }
        let old = match kind {
            ObjectKind::Comm => std::mem::replace(&mut st.comms.get_mut(obj)?.errhandler, errh),
            ObjectKind::Win => std::mem::replace(&mut st.wins.get_mut(obj)?.errhandler, errh),
            ObjectKind::Datatype => {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    "datatypes have no error handler",
                ))
            }
        };
        st.errhandler_add_ref(errh);
        st.errhandler_release(old);
        Ok(())
    }

    /// `MPI_Comm_get_errhandler`, `MPI_Win_get_errhandler`: a new reference the caller frees.
    pub fn get_errhandler(&self, kind: ObjectKind, obj: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        let h = match kind {
            ObjectKind::Comm => st.comms.get(obj)?.errhandler,
            ObjectKind::Win => st.wins.get(obj)?.errhandler,
            ObjectKind::Datatype => {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    "datatypes have no error handler",
                ))
            }
        };
        st.errhandler_add_ref(h);
        Ok(h)
    }

    /// `MPI_Errhandler_free`: predefined handlers are never really freed.
    pub fn errhandler_free(&self, errh: Handle) -> Result<()> {
        let mut st = self.active()?;
        st.errhandlers.get(errh)?;
        st.errhandler_release(errh);
        Ok(())
    }

    /// `MPI_Add_error_class`.
    pub fn add_error_class(&self) -> Result<i32> {
        let mut st = self.active()?;
        let class = st.errors.next_code()?;
        st.errors.user_codes.insert(class, class);
        let last = st.errors.last_used;
        publish_last_used(&st, last);
        Ok(class)
    }

    /// `MPI_Add_error_code`: a new code in `class` (predefined or user class).
    pub fn add_error_code(&self, class: i32) -> Result<i32> {
        let mut st = self.active()?;
        if !st.errors.is_class(class) {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("{class} is not an error class"),
            ));
        }
        let code = st.errors.next_code()?;
        st.errors.user_codes.insert(code, class);
        publish_last_used(&st, code);
        Ok(code)
    }

    /// `MPI_Add_error_string`: only for user codes and classes.
    pub fn add_error_string(&self, code: i32, text: &str) -> Result<()> {
        let mut st = self.active()?;
        if !st.errors.user_codes.contains_key(&code) {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("{code} is not an error code or class added by MPI_Add_error_*"),
            ));
        }
        let max = MPI_MAX_ERROR_STRING as usize - 1;
        let mut end = text.len().min(max);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        st.errors.strings.insert(code, text[..end].to_owned());
        Ok(())
    }

    /// `MPI_Error_class`. Callable at any time.
    pub fn error_class(&self, code: i32) -> Result<i32> {
        self.lock()
            .errors
            .class_of(code)
            .ok_or_else(|| Error::invalid(MPI_ERR_ARG, format!("{code} is not a valid error code")))
    }

    /// `MPI_Error_string`. Callable at any time.
    pub fn error_string(&self, code: i32) -> Result<String> {
        let st = self.lock();
        if let Some(s) = st.errors.strings.get(&code) {
            return Ok(s.clone());
        }
        if let Some(s) = class_string(code) {
            return Ok(s.to_owned());
        }
        if let Some(what) = Limited::of_code(code) {
            return Ok(Error::Exhausted {
                what,
                limit: limit_of(what),
            }
            .to_string());
        }
        if st.errors.user_codes.contains_key(&code) {
            return Ok(String::new());
        }
        Err(Error::invalid(
            MPI_ERR_ARG,
            format!("{code} is not a valid error code"),
        ))
    }
}

fn publish_last_used(st: &State, code: i32) {
    if let Some((_, cell)) = st
        .comm_predefined
        .iter()
        .find(|(k, _)| *k == MPI_LASTUSEDCODE)
    {
        cell.update(code as i64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::objects::errhandler::CLASSES;

    /// MPI 4.1 §9.4, MPI 5.0 ABI: the predefined classes are 0 ..= MPI_ERR_ABI without a gap,
    /// each its own class with a name and a string; MPI_ERR_LASTCODE is above them all, and the
    /// tool interface's MPI_T_ERR_* codes are not error classes.
    #[test]
    fn predefined_classes_are_contiguous_and_named() {
        let r = ErrorRegistry::new();
        for class in MPI_SUCCESS..=MPI_ERR_ABI {
            assert!(class_name(class).is_some(), "class {class} has no name");
            assert!(class_string(class).is_some(), "class {class} has no string");
            assert_eq!(r.class_of(class), Some(class));
        }
        assert_eq!(class_name(MPI_ERR_ABI), Some("MPI_ERR_ABI"));
        assert_eq!(
            class_name(MPI_ERR_PROC_ABORTED),
            Some("MPI_ERR_PROC_ABORTED")
        );
        assert_eq!(
            CLASSES.len() as i32,
            MPI_ERR_ABI + 2,
            "0 ..= MPI_ERR_ABI and LASTCODE"
        );
        assert!(CLASSES.iter().all(|(c, _, _)| *c <= MPI_ERR_LASTCODE));
        for code in MPI_T_ERR_CANNOT_INIT..=MPI_T_ERR_PVAR_NO_ATOMIC {
            assert_eq!(r.class_of(code), None, "MPI_T code {code}");
        }
    }
}
