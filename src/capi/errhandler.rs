//! Error handler, error class, code and string entry points.

use crate::boundary::{read_c_string, report, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::errhandler::UserErrhandler;
use crate::world::{Error, Handle, ObjectKind};
use crate::{entry, nonnull};
use std::ffi::{c_char, c_int};
use std::sync::Arc;

/// A C error handler function.
struct CErrhandler(MPI_Comm_errhandler_function);

impl UserErrhandler for CErrhandler {
    fn call(&self, object: Handle, code: i32) {
        let mut h = object.0;
        let mut c = code;
        // SAFETY: registered with the C errhandler signature; the standard passes no varargs.
        unsafe { (self.0)(&mut h, &mut c) };
    }
}

unsafe fn create(
    kind: ObjectKind,
    f: Option<MPI_Comm_errhandler_function>,
    errhandler: *mut MPI_Errhandler,
) -> crate::error::Result<()> {
    nonnull!(errhandler);
    let f = f.ok_or(Error::NullArgument {
        name: "errhandler_fn",
    })?;
    let h = rt().create_errhandler(kind, Arc::new(CErrhandler(f)))?;
    // SAFETY: `errhandler` checked non-NULL above (capi/mod.rs contract).
    unsafe { *errhandler = h.0 };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_errhandler(
    comm_errhandler_fn: Option<MPI_Comm_errhandler_function>,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    entry!("MPI_Comm_create_errhandler", Scope::NoObject, {
        unsafe { create(ObjectKind::Comm, comm_errhandler_fn, errhandler) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_create_errhandler(
    win_errhandler_fn: Option<MPI_Win_errhandler_function>,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    entry!("MPI_Win_create_errhandler", Scope::NoObject, {
        unsafe { create(ObjectKind::Win, win_errhandler_fn, errhandler) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_errhandler(
    comm: MPI_Comm,
    errhandler: MPI_Errhandler,
) -> c_int {
    entry!("MPI_Comm_set_errhandler", Scope::Comm(comm), {
        rt().set_errhandler(ObjectKind::Comm, Handle(comm), Handle(errhandler))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) -> c_int {
    entry!("MPI_Win_set_errhandler", Scope::Win(win), {
        rt().set_errhandler(ObjectKind::Win, Handle(win), Handle(errhandler))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_errhandler(
    comm: MPI_Comm,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    entry!("MPI_Comm_get_errhandler", Scope::Comm(comm), {
        nonnull!(errhandler);
        let h = rt().get_errhandler(ObjectKind::Comm, Handle(comm))?;
        // SAFETY: `errhandler` checked non-NULL above (capi/mod.rs contract).
        unsafe { *errhandler = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_get_errhandler(
    win: MPI_Win,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    entry!("MPI_Win_get_errhandler", Scope::Win(win), {
        nonnull!(errhandler);
        let h = rt().get_errhandler(ObjectKind::Win, Handle(win))?;
        // SAFETY: `errhandler` checked non-NULL above (capi/mod.rs contract).
        unsafe { *errhandler = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Errhandler_free(errhandler: *mut MPI_Errhandler) -> c_int {
    entry!("MPI_Errhandler_free", Scope::NoObject, {
        nonnull!(errhandler);
        // SAFETY: `errhandler` checked non-NULL above (capi/mod.rs contract).
        rt().errhandler_free(Handle(unsafe { *errhandler }))?;
        // SAFETY: `errhandler` checked non-NULL above (capi/mod.rs contract).
        unsafe { *errhandler = MPI_ERRHANDLER_NULL };
        Ok(())
    })
}

/// `MPI_Comm_call_errhandler`: runs the communicator's handler on `errorcode`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_call_errhandler(comm: MPI_Comm, errorcode: c_int) -> c_int {
    entry!("MPI_Comm_call_errhandler", Scope::Comm(comm), {
        rt().comm_size(Handle(comm))?;
        let class = rt().error_class(errorcode).unwrap_or(MPI_ERR_OTHER);
        let rc = report(
            "MPI_Comm_call_errhandler",
            Scope::Comm(comm),
            Error::Invalid {
                class,
                detail: format!("error code {errorcode} raised by the program"),
            },
        );
        // The handler returned (it was not fatal): the call itself succeeds.
        let _ = rc;
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_call_errhandler(win: MPI_Win, errorcode: c_int) -> c_int {
    entry!("MPI_Win_call_errhandler", Scope::Win(win), {
        rt().check_handle(crate::world::HandleKind::Win, Handle(win))?;
        let class = rt().error_class(errorcode).unwrap_or(MPI_ERR_OTHER);
        let _ = report(
            "MPI_Win_call_errhandler",
            Scope::Win(win),
            Error::Invalid {
                class,
                detail: format!("error code {errorcode} raised by the program"),
            },
        );
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Error_class(errorcode: c_int, errorclass: *mut c_int) -> c_int {
    entry!("MPI_Error_class", Scope::NoObject, {
        nonnull!(errorclass);
        let c = rt().error_class(errorcode)?;
        // SAFETY: `errorclass` checked non-NULL above (capi/mod.rs contract).
        unsafe { *errorclass = c };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Error_string(
    errorcode: c_int,
    string: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    entry!("MPI_Error_string", Scope::NoObject, {
        nonnull!(string, resultlen);
        let s = rt().error_string(errorcode)?;
        // SAFETY: `string` checked non-NULL above (capi/mod.rs contract).
        let n = unsafe { write_c_string(string, MPI_MAX_ERROR_STRING as usize, &s) };
        // SAFETY: `resultlen` checked non-NULL above (capi/mod.rs contract).
        unsafe { *resultlen = n };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Add_error_class(errorclass: *mut c_int) -> c_int {
    entry!("MPI_Add_error_class", Scope::NoObject, {
        nonnull!(errorclass);
        let c = rt().add_error_class()?;
        // SAFETY: `errorclass` checked non-NULL above (capi/mod.rs contract).
        unsafe { *errorclass = c };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Add_error_code(errorclass: c_int, errorcode: *mut c_int) -> c_int {
    entry!("MPI_Add_error_code", Scope::NoObject, {
        nonnull!(errorcode);
        let c = rt().add_error_code(errorclass)?;
        // SAFETY: `errorcode` checked non-NULL above (capi/mod.rs contract).
        unsafe { *errorcode = c };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Add_error_string(errorcode: c_int, string: *const c_char) -> c_int {
    entry!("MPI_Add_error_string", Scope::NoObject, {
        nonnull!(string);
        // SAFETY: `string` checked non-NULL above (capi/mod.rs contract).
        rt().add_error_string(errorcode, &unsafe { read_c_string(string) }?)
    })
}
