//! Sessions (MPI 4.1 §11.3): init and finalize, process sets, session info, error handlers and
//! buffers (§3.6.1). Errors of a call on a session go to that session's handler; those of
//! `MPI_Session_init` to the handler it was given (MPI 4.1 §9.3), or `MPI_COMM_SELF`'s.

use crate::boundary::{initial_errhandler, read_c_string, report, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::errhandler::UserErrhandler;
use crate::world::session::thread_level_name;
use crate::world::{Error, Handle, HandleKind};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_init(
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    session: *mut MPI_Session,
) -> c_int {
    entry!("MPI_Session_init", Scope::NoObject, {
        let session = try_out!(session);
        let h = rt().session_init(Handle(info), Handle(errhandler), initial_errhandler())?;
        session.set(h.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_finalize(session: *mut MPI_Session) -> c_int {
    let s = if session.is_null() {
        MPI_SESSION_NULL
    } else {
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { *session }
    };
    entry!("MPI_Session_finalize", Scope::Session(s), {
        let out = try_out!(session);
        rt().session_finalize(Handle(out.get()))?;
        out.set(MPI_SESSION_NULL);
        Ok(())
    })
}

/// `MPI_Session_get_info`: a new info the caller frees, with the thread support level provided.
#[no_mangle]
pub unsafe extern "C" fn MPI_Session_get_info(
    session: MPI_Session,
    info_used: *mut MPI_Info,
) -> c_int {
    entry!("MPI_Session_get_info", Scope::Session(session), {
        let out = try_out!(info_used);
        let level = thread_level_name(rt().session_thread_level(Handle(session))?);
        let h = rt().info_create()?;
        for key in ["thread_level", "mpi_thread_support_level"] {
            if let Err(e) = rt().info_set(h, key, level) {
                let _ = rt().info_free(h);
                return Err(e);
            }
        }
        out.set(h.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_get_num_psets(
    session: MPI_Session,
    info: MPI_Info,
    npset_names: *mut c_int,
) -> c_int {
    entry!("MPI_Session_get_num_psets", Scope::Session(session), {
        let out = try_out!(npset_names);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        out.set(rt().session_num_psets(Handle(session))? as c_int);
        Ok(())
    })
}

/// `*pset_len` is the buffer's size on input (0 asks for the length only) and the name's length
/// plus one on output (MPI 4.1 §11.3.2).
#[no_mangle]
pub unsafe extern "C" fn MPI_Session_get_nth_pset(
    session: MPI_Session,
    info: MPI_Info,
    n: c_int,
    pset_len: *mut c_int,
    pset_name: *mut c_char,
) -> c_int {
    entry!("MPI_Session_get_nth_pset", Scope::Session(session), {
        let len = try_out!(pset_len);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let name = rt().session_nth_pset(Handle(session), n)?;
        let room = usize::try_from(len.get()).map_err(|_| {
            Error::invalid(MPI_ERR_ARG, format!("pset_len {} is negative", len.get()))
        })?;
        if room > 0 {
            nonnull!(pset_name);
            // SAFETY: `pset_name` has `*pset_len` bytes (the standard's contract), not NULL.
            unsafe { write_c_string(pset_name, room, name) };
        }
        len.set(name.len() as c_int + 1);
        Ok(())
    })
}

/// `MPI_Session_get_pset_info`: a new info with `mpi_size`, the number of processes in the set.
#[no_mangle]
pub unsafe extern "C" fn MPI_Session_get_pset_info(
    session: MPI_Session,
    pset_name: *const c_char,
    info: *mut MPI_Info,
) -> c_int {
    entry!("MPI_Session_get_pset_info", Scope::Session(session), {
        nonnull!(pset_name);
        let out = try_out!(info);
        // SAFETY: a NUL-terminated string, checked non-NULL above.
        let name = unsafe { read_c_string(pset_name) }?;
        let size = rt().session_pset_size(Handle(session), &name)?;
        let h = rt().info_create()?;
        if let Err(e) = rt().info_set(h, "mpi_size", &size.to_string()) {
            let _ = rt().info_free(h);
            return Err(e);
        }
        out.set(h.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_from_session_pset(
    session: MPI_Session,
    pset_name: *const c_char,
    newgroup: *mut MPI_Group,
) -> c_int {
    entry!("MPI_Group_from_session_pset", Scope::Session(session), {
        nonnull!(pset_name);
        let out = try_out!(newgroup);
        // SAFETY: a NUL-terminated string, checked non-NULL above.
        let name = unsafe { read_c_string(pset_name) }?;
        out.set(rt().group_from_session_pset(Handle(session), &name)?.0);
        Ok(())
    })
}

/// A C session error handler.
struct CSessionErrhandler(MPI_Session_errhandler_function);

impl UserErrhandler for CSessionErrhandler {
    fn call(&self, object: Handle, code: i32) {
        let mut h = object.0;
        let mut c = code;
        // SAFETY: registered with the C session errhandler signature; no varargs are passed.
        unsafe { (self.0)(&mut h, &mut c) };
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_create_errhandler(
    session_errhandler_fn: Option<MPI_Session_errhandler_function>,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    entry!("MPI_Session_create_errhandler", Scope::NoObject, {
        let out = try_out!(errhandler);
        let f = session_errhandler_fn.ok_or(Error::NullArgument {
            name: "session_errhandler_fn",
        })?;
        let h = rt().create_errhandler_for(HandleKind::Session, Arc::new(CSessionErrhandler(f)))?;
        out.set(h.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_set_errhandler(
    session: MPI_Session,
    errhandler: MPI_Errhandler,
) -> c_int {
    entry!("MPI_Session_set_errhandler", Scope::Session(session), {
        rt().session_set_errhandler(Handle(session), Handle(errhandler))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_get_errhandler(
    session: MPI_Session,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    entry!("MPI_Session_get_errhandler", Scope::Session(session), {
        let out = try_out!(errhandler);
        out.set(rt().session_get_errhandler(Handle(session))?.0);
        Ok(())
    })
}

/// `MPI_Session_call_errhandler`: runs the session's handler on `errorcode`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Session_call_errhandler(
    session: MPI_Session,
    errorcode: c_int,
) -> c_int {
    entry!("MPI_Session_call_errhandler", Scope::Session(session), {
        rt().check_handle(HandleKind::Session, Handle(session))?;
        let class = rt().error_class(errorcode).unwrap_or(MPI_ERR_OTHER);
        // The handler returned (it was not fatal): the call itself succeeds.
        let _ = report(
            "MPI_Session_call_errhandler",
            Scope::Session(session),
            Error::Invalid {
                class,
                detail: format!("error code {errorcode} raised by the program"),
            },
        );
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_attach_buffer(
    session: MPI_Session,
    buffer: *mut c_void,
    size: c_int,
) -> c_int {
    entry!("MPI_Session_attach_buffer", Scope::Session(session), {
        crate::capi::buffer::attach(Some(Handle(session)), buffer, size.into())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_attach_buffer_c(
    session: MPI_Session,
    buffer: *mut c_void,
    size: MPI_Count,
) -> c_int {
    entry!("MPI_Session_attach_buffer_c", Scope::Session(session), {
        crate::capi::buffer::attach(Some(Handle(session)), buffer, size)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_detach_buffer(
    session: MPI_Session,
    buffer_addr: *mut c_void,
    size: *mut c_int,
) -> c_int {
    entry!("MPI_Session_detach_buffer", Scope::Session(session), {
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { crate::capi::buffer::detach(Some(Handle(session)), buffer_addr, size) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_detach_buffer_c(
    session: MPI_Session,
    buffer_addr: *mut c_void,
    size: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Session_detach_buffer_c", Scope::Session(session), {
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        unsafe { crate::capi::buffer::detach(Some(Handle(session)), buffer_addr, size) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Session_flush_buffer(session: MPI_Session) -> c_int {
    entry!("MPI_Session_flush_buffer", Scope::Session(session), {
        rt().buffer_flush(Some(Handle(session)))
    })
}

/// `MPI_Session_iflush_buffer`: the flush is done when it starts; the request is complete.
#[no_mangle]
pub unsafe extern "C" fn MPI_Session_iflush_buffer(
    session: MPI_Session,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Session_iflush_buffer", Scope::Session(session), {
        let out = try_out!(request);
        rt().buffer_flush(Some(Handle(session)))?;
        out.set(rt().completed_request()?.0);
        Ok(())
    })
}
