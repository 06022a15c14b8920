//! Fortran life cycle, version and environment queries.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::strings::write_fortran_string;
use crate::fortran::{fint, logical, read_narrow, MPI_Fint, MPI_Flogical};
use crate::world::state::Phase;
use std::ffi::c_char;

/// `MPI_INIT(IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_init_(ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_INIT", Scope::NoObject, {
        rt().init_with(MPI_THREAD_SINGLE, crate::boundary::initial_errhandler())
            .map(drop)
    })
}

/// `MPI_INIT_THREAD(REQUIRED, PROVIDED, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_init_thread_(
    required: *const MPI_Fint,
    provided: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_INIT_THREAD", Scope::NoObject, {
        crate::nonnull!(required, provided);
        let level = rt().init_with(
            // SAFETY: `required` checked non-NULL above (fortran/mod.rs contract).
            unsafe { read_narrow(required, MPI_ERR_ARG, "required") }?,
            crate::boundary::initial_errhandler(),
        )?;
        // SAFETY: `provided` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *provided = fint(level) };
        Ok(())
    })
}

/// `MPI_FINALIZE(IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_finalize_(ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_FINALIZE", Scope::NoObject, { rt().finalize() })
}

/// `MPI_INITIALIZED(FLAG, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_initialized_(flag: *mut MPI_Flogical, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_INITIALIZED", Scope::NoObject, {
        crate::nonnull!(flag);
        // SAFETY: `flag` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *flag = logical(rt().phase() != Phase::NotInitialized) };
        Ok(())
    })
}

/// `MPI_FINALIZED(FLAG, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_finalized_(flag: *mut MPI_Flogical, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_FINALIZED", Scope::NoObject, {
        crate::nonnull!(flag);
        // SAFETY: `flag` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *flag = logical(rt().phase() == Phase::Finalized) };
        Ok(())
    })
}

/// `MPI_ABORT(COMM, ERRORCODE, IERROR)`: exits with `ERRORCODE`.
#[no_mangle]
pub unsafe extern "C" fn mpi_abort_(
    comm: *const MPI_Fint,
    errorcode: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let _ = ierror;
    // MPI_ABORT does not return: a communicator that does not fit 32 bits aborts
    // MPI_COMM_WORLD (the only process), and an 8-byte error code that does not fit 32 bits
    // aborts with MPI_ERR_OTHER.
    let comm = if comm.is_null() {
        MPI_COMM_WORLD
    } else {
        // SAFETY: `comm` checked non-NULL above (fortran/mod.rs contract).
        crate::fortran::scope_handle(unsafe { *comm }, MPI_COMM_WORLD)
    };
    let code = if errorcode.is_null() {
        1
    } else {
        // SAFETY: `errorcode` checked non-NULL above (fortran/mod.rs contract).
        crate::fortran::callback_code(unsafe { *errorcode })
    };
    unsafe { crate::capi::init::MPI_Abort(comm, code) };
}

/// `MPI_QUERY_THREAD(PROVIDED, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_query_thread_(provided: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_QUERY_THREAD", Scope::NoObject, {
        crate::nonnull!(provided);
        let level = rt().active()?.thread_level;
        // SAFETY: `provided` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *provided = fint(level) };
        Ok(())
    })
}

/// `MPI_IS_THREAD_MAIN(FLAG, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_is_thread_main_(flag: *mut MPI_Flogical, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_IS_THREAD_MAIN", Scope::NoObject, {
        crate::nonnull!(flag);
        drop(rt().active()?);
        // SAFETY: `flag` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *flag = logical(rt().is_init_thread()) };
        Ok(())
    })
}

/// `DOUBLE PRECISION MPI_WTIME()`.
#[no_mangle]
pub extern "C" fn mpi_wtime_() -> f64 {
    crate::capi::init::MPI_Wtime()
}

/// `DOUBLE PRECISION MPI_WTICK()`.
#[no_mangle]
pub extern "C" fn mpi_wtick_() -> f64 {
    crate::capi::init::MPI_Wtick()
}

/// `MPI_GET_VERSION(VERSION, SUBVERSION, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_get_version_(
    version: *mut MPI_Fint,
    subversion: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GET_VERSION", Scope::NoObject, {
        crate::nonnull!(version, subversion);
        unsafe {
            *version = fint(MPI_VERSION);
            *subversion = fint(MPI_SUBVERSION);
        }
        Ok(())
    })
}

/// `MPI_GET_LIBRARY_VERSION(VERSION, RESULTLEN, IERROR)`, `CHARACTER*(*) VERSION`.
#[no_mangle]
pub unsafe extern "C" fn mpi_get_library_version_(
    version: *mut c_char,
    resultlen: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    version_len: usize,
) {
    fentry!(ierror, "MPI_GET_LIBRARY_VERSION", Scope::NoObject, {
        crate::nonnull!(version, resultlen);
        let text = crate::capi::init::library_version();
        let n = unsafe {
            write_fortran_string(
                version,
                version_len,
                MPI_MAX_LIBRARY_VERSION_STRING as usize,
                &text,
            )
        };
        // SAFETY: `resultlen` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *resultlen = fint(n) };
        Ok(())
    })
}

/// `MPI_GET_PROCESSOR_NAME(NAME, RESULTLEN, IERROR)`, `CHARACTER*(*) NAME`.
#[no_mangle]
pub unsafe extern "C" fn mpi_get_processor_name_(
    name: *mut c_char,
    resultlen: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    name_len: usize,
) {
    fentry!(ierror, "MPI_GET_PROCESSOR_NAME", Scope::NoObject, {
        crate::nonnull!(name, resultlen);
        rt().active().map(drop)?;
        let text = crate::capi::init::processor_name();
        let n =
            // SAFETY: `name` checked non-NULL above (fortran/mod.rs contract).
            unsafe { write_fortran_string(name, name_len, MPI_MAX_PROCESSOR_NAME as usize, &text) };
        // SAFETY: `resultlen` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *resultlen = fint(n) };
        Ok(())
    })
}
