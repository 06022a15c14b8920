//! Fortran error handlers, error classes, codes and strings.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::{by_ref, fint, narrow, read_narrow, scope_handle, MPI_Fint};
use crate::nonnull;
use crate::try_in;
use crate::try_out;
use crate::world::errhandler::UserErrhandler;
use crate::world::{Error, Handle, HandleKind, ObjectKind};
use std::ffi::c_char;
use std::sync::Arc;

/// A Fortran error handler: `SUBROUTINE HANDLER(COMM, ERROR_CODE)`, both INTEGER by reference.
pub type MPI_Fcomm_errhandler_function =
    unsafe extern "C" fn(obj: *mut MPI_Fint, code: *mut MPI_Fint);

struct FortranErrhandler(MPI_Fcomm_errhandler_function);

impl UserErrhandler for FortranErrhandler {
    fn call(&self, object: Handle, code: i32) {
        let mut h = fint(object.0);
        let mut c = fint(code);
        // SAFETY: registered with the Fortran errhandler signature.
        unsafe { (self.0)(&mut h, &mut c) };
    }
}

/// The handle of an ERRHANDLER argument.
///
/// # Safety
/// `p` points to the caller's INTEGER (its callers check it non-NULL).
unsafe fn errhandler_arg(p: *const MPI_Fint) -> crate::error::Result<Handle> {
    // SAFETY: `p` is the caller's INTEGER, checked non-NULL by the caller (this function's `#
    // Safety`), which is what `read_narrow` asks.
    Ok(Handle(unsafe {
        read_narrow(p, MPI_ERR_ERRHANDLER, "errhandler")
    }?))
}

unsafe fn create(
    kind: ObjectKind,
    f: Option<MPI_Fcomm_errhandler_function>,
    errhandler: *mut MPI_Fint,
) -> crate::error::Result<()> {
    nonnull!(errhandler);
    let f = f.ok_or(Error::NullArgument {
        name: "errhandler_fn",
    })?;
    let h = rt().create_errhandler(kind, Arc::new(FortranErrhandler(f)))?;
    // SAFETY: `errhandler` checked non-NULL above (fortran/mod.rs contract).
    unsafe { *errhandler = fint(h.0) };
    Ok(())
}

/// `MPI_COMM_CREATE_ERRHANDLER(COMM_ERRHANDLER_FN, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_create_errhandler_(
    comm_errhandler_fn: Option<MPI_Fcomm_errhandler_function>,
    errhandler: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_COMM_CREATE_ERRHANDLER", Scope::NoObject, {
        // SAFETY: `create` needs the errhandler output writable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        unsafe { create(ObjectKind::Comm, comm_errhandler_fn, errhandler) }
    })
}

/// `MPI_WIN_CREATE_ERRHANDLER(WIN_ERRHANDLER_FN, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_create_errhandler_(
    win_errhandler_fn: Option<MPI_Fcomm_errhandler_function>,
    errhandler: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_WIN_CREATE_ERRHANDLER", Scope::NoObject, {
        // SAFETY: `create` needs the errhandler output writable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        unsafe { create(ObjectKind::Win, win_errhandler_fn, errhandler) }
    })
}

/// `MPI_FILE_CREATE_ERRHANDLER(FILE_ERRHANDLER_FN, ERRHANDLER, IERROR)` (MPI 4.1 §9.3.4):
/// the handler gets the file's Fortran handle and the error code, both INTEGER by reference.
#[no_mangle]
pub unsafe extern "C" fn mpi_file_create_errhandler_(
    file_errhandler_fn: Option<MPI_Fcomm_errhandler_function>,
    errhandler: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_FILE_CREATE_ERRHANDLER", Scope::NoObject, {
        nonnull!(errhandler);
        let f = file_errhandler_fn.ok_or(Error::NullArgument {
            name: "file_errhandler_fn",
        })?;
        let h = rt().create_file_errhandler(Arc::new(FortranErrhandler(f)))?;
        // SAFETY: `errhandler` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *errhandler = fint(h.0) };
        Ok(())
    })
}

/// `MPI_SESSION_CREATE_ERRHANDLER(SESSION_ERRHANDLER_FN, ERRHANDLER, IERROR)` (MPI 4.1
/// §9.3.5).
#[no_mangle]
pub unsafe extern "C" fn mpi_session_create_errhandler_(
    session_errhandler_fn: Option<MPI_Fcomm_errhandler_function>,
    errhandler: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_SESSION_CREATE_ERRHANDLER", Scope::NoObject, {
        nonnull!(errhandler);
        let f = session_errhandler_fn.ok_or(Error::NullArgument {
            name: "session_errhandler_fn",
        })?;
        let h = rt().create_errhandler_for(HandleKind::Session, Arc::new(FortranErrhandler(f)))?;
        // SAFETY: `errhandler` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *errhandler = fint(h.0) };
        Ok(())
    })
}

/// `MPI_COMM_SET_ERRHANDLER(COMM, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_set_errhandler_(
    comm: *const MPI_Fint,
    errhandler: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    fentry!(
        ierror,
        "MPI_COMM_SET_ERRHANDLER",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(errhandler);
            // SAFETY: `errhandler_arg` needs the ERRHANDLER argument readable (the by-reference
            // contract of this entry point, fortran/mod.rs).
            rt().set_errhandler(ObjectKind::Comm, Handle(c), unsafe {
                errhandler_arg(errhandler)
            }?)
        }
    )
}

/// `MPI_WIN_SET_ERRHANDLER(WIN, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_set_errhandler_(
    win: *const MPI_Fint,
    errhandler: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `win` NULL or valid (fortran/mod.rs contract).
    let w = unsafe { by_ref(win, MPI_WIN_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_SET_ERRHANDLER",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            let w = narrow(w, MPI_ERR_WIN, "win")?;
            nonnull!(errhandler);
            // SAFETY: `errhandler_arg` needs the ERRHANDLER argument readable (the by-reference
            // contract of this entry point, fortran/mod.rs).
            rt().set_errhandler(ObjectKind::Win, Handle(w), unsafe {
                errhandler_arg(errhandler)
            }?)
        }
    )
}

/// `MPI_COMM_GET_ERRHANDLER(COMM, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_get_errhandler_(
    comm: *const MPI_Fint,
    errhandler: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    fentry!(
        ierror,
        "MPI_COMM_GET_ERRHANDLER",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            let errhandler = try_out!(errhandler);
            let h = rt().get_errhandler(ObjectKind::Comm, Handle(c))?;
            errhandler.set(fint(h.0));
            Ok(())
        }
    )
}

/// `MPI_WIN_GET_ERRHANDLER(WIN, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_get_errhandler_(
    win: *const MPI_Fint,
    errhandler: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `win` NULL or valid (fortran/mod.rs contract).
    let w = unsafe { by_ref(win, MPI_WIN_NULL) };
    fentry!(
        ierror,
        "MPI_WIN_GET_ERRHANDLER",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            let w = narrow(w, MPI_ERR_WIN, "win")?;
            let errhandler = try_out!(errhandler);
            let h = rt().get_errhandler(ObjectKind::Win, Handle(w))?;
            errhandler.set(fint(h.0));
            Ok(())
        }
    )
}

/// `MPI_ERRHANDLER_FREE(ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_errhandler_free_(errhandler: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_ERRHANDLER_FREE", Scope::NoObject, {
        nonnull!(errhandler);
        // SAFETY: `errhandler` checked non-NULL above (fortran/mod.rs contract).
        rt().errhandler_free(unsafe { errhandler_arg(errhandler) }?)?;
        // SAFETY: `errhandler` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *errhandler = fint(MPI_ERRHANDLER_NULL) };
        Ok(())
    })
}

/// `MPI_COMM_CALL_ERRHANDLER(COMM, ERRORCODE, IERROR)`: the C routine does exactly this.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_call_errhandler_(
    comm: *const MPI_Fint,
    errorcode: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm`, `errorcode` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    // SAFETY: `errorcode` NULL or valid (fortran/mod.rs contract).
    let code = unsafe { by_ref(errorcode, MPI_ERR_OTHER) };
    let mut args = None;
    fentry!(
        ierror,
        "MPI_COMM_CALL_ERRHANDLER",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            args = Some((
                narrow(c, MPI_ERR_COMM, "comm")?,
                narrow(code, MPI_ERR_ARG, "errorcode")?,
            ));
            Ok(())
        }
    );
    let Some((c, code)) = args else { return };
    // SAFETY: integer arguments only: the C entry point reads no pointer.
    let rc = unsafe { crate::capi::errhandler::MPI_Comm_call_errhandler(c, code) };
    if !ierror.is_null() {
        // SAFETY: `ierror` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *ierror = fint(rc) };
    }
}

/// `MPI_WIN_CALL_ERRHANDLER(WIN, ERRORCODE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_call_errhandler_(
    win: *const MPI_Fint,
    errorcode: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `win`, `errorcode` NULL or valid (fortran/mod.rs contract).
    let w = unsafe { by_ref(win, MPI_WIN_NULL) };
    // SAFETY: `errorcode` NULL or valid (fortran/mod.rs contract).
    let code = unsafe { by_ref(errorcode, MPI_ERR_OTHER) };
    let mut args = None;
    fentry!(
        ierror,
        "MPI_WIN_CALL_ERRHANDLER",
        Scope::Win(scope_handle(w, MPI_WIN_NULL)),
        {
            args = Some((
                narrow(w, MPI_ERR_WIN, "win")?,
                narrow(code, MPI_ERR_ARG, "errorcode")?,
            ));
            Ok(())
        }
    );
    let Some((w, code)) = args else { return };
    // SAFETY: integer arguments only: the C entry point reads no pointer.
    let rc = unsafe { crate::capi::errhandler::MPI_Win_call_errhandler(w, code) };
    if !ierror.is_null() {
        // SAFETY: `ierror` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *ierror = fint(rc) };
    }
}

/// `MPI_ERROR_CLASS(ERRORCODE, ERRORCLASS, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_error_class_(
    errorcode: *const MPI_Fint,
    errorclass: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_ERROR_CLASS", Scope::NoObject, {
        nonnull!(errorcode);
        let errorclass = try_out!(errorclass);
        let c = rt().error_class(narrow(try_in!(errorcode), MPI_ERR_ARG, "errorcode")?)?;
        errorclass.set(fint(c));
        Ok(())
    })
}

/// `MPI_ERROR_STRING(ERRORCODE, STRING, RESULTLEN, IERROR)`, `CHARACTER*(*) STRING`.
#[no_mangle]
pub unsafe extern "C" fn mpi_error_string_(
    errorcode: *const MPI_Fint,
    string: *mut c_char,
    resultlen: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    string_len: usize,
) {
    fentry!(ierror, "MPI_ERROR_STRING", Scope::NoObject, {
        nonnull!(errorcode, string);
        let resultlen = try_out!(resultlen);
        let s = rt().error_string(narrow(try_in!(errorcode), MPI_ERR_ARG, "errorcode")?)?;
        let n =
            // SAFETY: `string` checked non-NULL above (fortran/mod.rs contract).
            unsafe { write_fortran_string(string, string_len, MPI_MAX_ERROR_STRING as usize, &s) };
        resultlen.set(fint(n));
        Ok(())
    })
}

/// `MPI_ADD_ERROR_CLASS(ERRORCLASS, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_add_error_class_(errorclass: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_ADD_ERROR_CLASS", Scope::NoObject, {
        let errorclass = try_out!(errorclass);
        let c = rt().add_error_class()?;
        errorclass.set(fint(c));
        Ok(())
    })
}

/// `MPI_ADD_ERROR_CODE(ERRORCLASS, ERRORCODE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_add_error_code_(
    errorclass: *const MPI_Fint,
    errorcode: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_ADD_ERROR_CODE", Scope::NoObject, {
        nonnull!(errorclass);
        let errorcode = try_out!(errorcode);
        let c = rt().add_error_code(narrow(try_in!(errorclass), MPI_ERR_ARG, "errorclass")?)?;
        errorcode.set(fint(c));
        Ok(())
    })
}

/// `MPI_ADD_ERROR_STRING(ERRORCODE, STRING, IERROR)`, `CHARACTER*(*) STRING`.
#[no_mangle]
pub unsafe extern "C" fn mpi_add_error_string_(
    errorcode: *const MPI_Fint,
    string: *const c_char,
    ierror: *mut MPI_Fint,
    string_len: usize,
) {
    fentry!(ierror, "MPI_ADD_ERROR_STRING", Scope::NoObject, {
        nonnull!(errorcode, string);
        // SAFETY: `string` checked non-NULL above (fortran/mod.rs contract).
        let s = unsafe { read_fortran_string(string, string_len) };
        rt().add_error_string(narrow(try_in!(errorcode), MPI_ERR_ARG, "errorcode")?, &s)
    })
}
