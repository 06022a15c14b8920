//! Fortran error handlers, error classes, codes and strings.

use crate::capi::boundary::Scope;
use crate::consts::*;
use crate::core::errhandler::UserErrhandler;
use crate::core::{Error, Handle, ObjectKind, Runtime};
use crate::fentry;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::MPI_Fint;
use crate::nonnull;
use std::ffi::c_char;
use std::sync::Arc;

fn rt() -> &'static Runtime {
    Runtime::global()
}

/// A Fortran error handler: `SUBROUTINE HANDLER(COMM, ERROR_CODE)`, both INTEGER by reference.
pub type MPI_Fcomm_errhandler_function =
    unsafe extern "C" fn(obj: *mut MPI_Fint, code: *mut MPI_Fint);

struct FortranErrhandler(MPI_Fcomm_errhandler_function);

impl UserErrhandler for FortranErrhandler {
    fn call(&self, object: Handle, code: i32) {
        let mut h = object.0;
        let mut c = code;
        // SAFETY: registered with the Fortran errhandler signature.
        unsafe { (self.0)(&mut h, &mut c) };
    }
}

unsafe fn create(
    kind: ObjectKind,
    f: Option<MPI_Fcomm_errhandler_function>,
    errhandler: *mut MPI_Fint,
) -> crate::core::Result<()> {
    nonnull!(errhandler);
    let f = f.ok_or(Error::NullArgument {
        name: "errhandler_fn",
    })?;
    let h = rt().create_errhandler(kind, Arc::new(FortranErrhandler(f)))?;
    unsafe { *errhandler = h.0 };
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
    let c = if comm.is_null() {
        MPI_COMM_NULL
    } else {
        unsafe { *comm }
    };
    fentry!(ierror, "MPI_COMM_SET_ERRHANDLER", Scope::Comm(c), {
        nonnull!(errhandler);
        rt().set_errhandler(ObjectKind::Comm, Handle(c), Handle(unsafe { *errhandler }))
    })
}

/// `MPI_WIN_SET_ERRHANDLER(WIN, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_set_errhandler_(
    win: *const MPI_Fint,
    errhandler: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let w = if win.is_null() {
        MPI_WIN_NULL
    } else {
        unsafe { *win }
    };
    fentry!(ierror, "MPI_WIN_SET_ERRHANDLER", Scope::Win(w), {
        nonnull!(errhandler);
        rt().set_errhandler(ObjectKind::Win, Handle(w), Handle(unsafe { *errhandler }))
    })
}

/// `MPI_COMM_GET_ERRHANDLER(COMM, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_get_errhandler_(
    comm: *const MPI_Fint,
    errhandler: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = if comm.is_null() {
        MPI_COMM_NULL
    } else {
        unsafe { *comm }
    };
    fentry!(ierror, "MPI_COMM_GET_ERRHANDLER", Scope::Comm(c), {
        nonnull!(errhandler);
        let h = rt().get_errhandler(ObjectKind::Comm, Handle(c))?;
        unsafe { *errhandler = h.0 };
        Ok(())
    })
}

/// `MPI_WIN_GET_ERRHANDLER(WIN, ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_get_errhandler_(
    win: *const MPI_Fint,
    errhandler: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let w = if win.is_null() {
        MPI_WIN_NULL
    } else {
        unsafe { *win }
    };
    fentry!(ierror, "MPI_WIN_GET_ERRHANDLER", Scope::Win(w), {
        nonnull!(errhandler);
        let h = rt().get_errhandler(ObjectKind::Win, Handle(w))?;
        unsafe { *errhandler = h.0 };
        Ok(())
    })
}

/// `MPI_ERRHANDLER_FREE(ERRHANDLER, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_errhandler_free_(errhandler: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_ERRHANDLER_FREE", Scope::NoObject, {
        nonnull!(errhandler);
        rt().errhandler_free(Handle(unsafe { *errhandler }))?;
        unsafe { *errhandler = MPI_ERRHANDLER_NULL };
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
    let c = if comm.is_null() {
        MPI_COMM_NULL
    } else {
        unsafe { *comm }
    };
    let code = if errorcode.is_null() {
        MPI_ERR_OTHER
    } else {
        unsafe { *errorcode }
    };
    let rc = unsafe { crate::capi::errhandler::MPI_Comm_call_errhandler(c, code) };
    if !ierror.is_null() {
        unsafe { *ierror = rc };
    }
}

/// `MPI_WIN_CALL_ERRHANDLER(WIN, ERRORCODE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_win_call_errhandler_(
    win: *const MPI_Fint,
    errorcode: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let w = if win.is_null() {
        MPI_WIN_NULL
    } else {
        unsafe { *win }
    };
    let code = if errorcode.is_null() {
        MPI_ERR_OTHER
    } else {
        unsafe { *errorcode }
    };
    let rc = unsafe { crate::capi::errhandler::MPI_Win_call_errhandler(w, code) };
    if !ierror.is_null() {
        unsafe { *ierror = rc };
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
        let c = rt().error_class(unsafe { *errorcode })?;
        unsafe { *errorclass = c };
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
        let s = rt().error_string(unsafe { *errorcode })?;
        let n =
            unsafe { write_fortran_string(string, string_len, MPI_MAX_ERROR_STRING as usize, &s) };
        unsafe { *resultlen = n };
        Ok(())
    })
}

/// `MPI_ADD_ERROR_CLASS(ERRORCLASS, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_add_error_class_(errorclass: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_ADD_ERROR_CLASS", Scope::NoObject, {
        nonnull!(errorclass);
        let c = rt().add_error_class()?;
        unsafe { *errorclass = c };
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
        let c = rt().add_error_code(unsafe { *errorclass })?;
        unsafe { *errorcode = c };
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
        let s = unsafe { read_fortran_string(string, string_len) };
        rt().add_error_string(unsafe { *errorcode }, &s)
    })
}
