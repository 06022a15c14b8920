//! Fortran error handlers, error classes, codes and strings.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::{by_ref, fint, narrow, read_narrow, scope_handle, MPI_Fint};
use crate::nonnull;
use crate::world::errhandler::UserErrhandler;
use crate::world::{Error, Handle, ObjectKind};
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

/// The handle of an ERRHANDLER argument (checked non-NULL by the caller).
unsafe fn errhandler_arg(p: *const MPI_Fint) -> crate::error::Result<Handle> {
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
        unsafe { create(ObjectKind::Win, win_errhandler_fn, errhandler) }
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
            nonnull!(errhandler);
            let h = rt().get_errhandler(ObjectKind::Comm, Handle(c))?;
            // SAFETY: `errhandler` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *errhandler = fint(h.0) };
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
            nonnull!(errhandler);
            let h = rt().get_errhandler(ObjectKind::Win, Handle(w))?;
            // SAFETY: `errhandler` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *errhandler = fint(h.0) };
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
        nonnull!(errorcode, errorclass);
        // SAFETY: `errorcode` checked non-NULL above (fortran/mod.rs contract).
        let c = rt().error_class(unsafe { read_narrow(errorcode, MPI_ERR_ARG, "errorcode") }?)?;
        // SAFETY: `errorclass` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *errorclass = fint(c) };
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
        nonnull!(errorcode, string, resultlen);
        // SAFETY: `errorcode` checked non-NULL above (fortran/mod.rs contract).
        let s = rt().error_string(unsafe { read_narrow(errorcode, MPI_ERR_ARG, "errorcode") }?)?;
        let n =
            // SAFETY: `string` checked non-NULL above (fortran/mod.rs contract).
            unsafe { write_fortran_string(string, string_len, MPI_MAX_ERROR_STRING as usize, &s) };
        // SAFETY: `resultlen` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *resultlen = fint(n) };
        Ok(())
    })
}

/// `MPI_ADD_ERROR_CLASS(ERRORCLASS, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_add_error_class_(errorclass: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_ADD_ERROR_CLASS", Scope::NoObject, {
        nonnull!(errorclass);
        let c = rt().add_error_class()?;
        // SAFETY: `errorclass` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *errorclass = fint(c) };
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
        nonnull!(errorclass, errorcode);
        let c =
            // SAFETY: `errorclass` checked non-NULL above (fortran/mod.rs contract).
            rt().add_error_code(unsafe { read_narrow(errorclass, MPI_ERR_ARG, "errorclass") }?)?;
        // SAFETY: `errorcode` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *errorcode = fint(c) };
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
        rt().add_error_string(
            // SAFETY: `errorcode` checked non-NULL above (fortran/mod.rs contract).
            unsafe { read_narrow(errorcode, MPI_ERR_ARG, "errorcode") }?,
            &s,
        )
    })
}
