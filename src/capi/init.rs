//! Life cycle, version and environment queries.

use crate::boundary::{initial_errhandler, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::state::Phase;
use crate::world::Error;
use crate::{entry, nonnull};
use std::ffi::{c_char, c_int};
use std::sync::OnceLock;
use std::time::Instant;

/// The library's version string, as `MPI_Get_library_version` reports it.
pub fn library_version() -> String {
    format!(
        "mpicache {} (MPI {}.{}: caching with C/Fortran interoperability, single process)",
        env!("CARGO_PKG_VERSION"),
        MPI_VERSION,
        MPI_SUBVERSION
    )
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    let _ = (argc, argv);
    entry!("MPI_Init", Scope::NoObject, {
        rt().init_with(MPI_THREAD_SINGLE, initial_errhandler())
            .map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Init_thread(
    argc: *mut c_int,
    argv: *mut *mut *mut c_char,
    required: c_int,
    provided: *mut c_int,
) -> c_int {
    let _ = (argc, argv);
    entry!("MPI_Init_thread", Scope::NoObject, {
        nonnull!(provided);
        let level = rt().init_with(required, initial_errhandler())?;
        // SAFETY: `provided` checked non-NULL above (capi/mod.rs contract).
        unsafe { *provided = level };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Finalize() -> c_int {
    entry!("MPI_Finalize", Scope::NoObject, { rt().finalize() })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Initialized(flag: *mut c_int) -> c_int {
    entry!("MPI_Initialized", Scope::NoObject, {
        nonnull!(flag);
        // SAFETY: `flag` checked non-NULL above (capi/mod.rs contract).
        unsafe { *flag = (rt().phase() != Phase::NotInitialized) as c_int };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Finalized(flag: *mut c_int) -> c_int {
    entry!("MPI_Finalized", Scope::NoObject, {
        nonnull!(flag);
        // SAFETY: `flag` checked non-NULL above (capi/mod.rs contract).
        unsafe { *flag = (rt().phase() == Phase::Finalized) as c_int };
        Ok(())
    })
}

/// `MPI_Abort`: a single process aborts itself, with `errorcode` as exit status.
#[no_mangle]
pub unsafe extern "C" fn MPI_Abort(comm: MPI_Comm, errorcode: c_int) -> c_int {
    eprintln!("mpicache: MPI_Abort called on communicator {comm:#x} with error code {errorcode}");
    std::process::exit(errorcode)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Query_thread(provided: *mut c_int) -> c_int {
    entry!("MPI_Query_thread", Scope::NoObject, {
        nonnull!(provided);
        let level = rt().active()?.thread_level;
        // SAFETY: `provided` checked non-NULL above (capi/mod.rs contract).
        unsafe { *provided = level };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Is_thread_main(flag: *mut c_int) -> c_int {
    entry!("MPI_Is_thread_main", Scope::NoObject, {
        nonnull!(flag);
        require_active()?;
        // SAFETY: `flag` checked non-NULL above (capi/mod.rs contract).
        unsafe { *flag = rt().is_init_thread() as c_int };
        Ok(())
    })
}

fn clock_origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// Seconds since an arbitrary origin fixed at the first call; monotonic.
#[no_mangle]
pub extern "C" fn MPI_Wtime() -> f64 {
    clock_origin().elapsed().as_secs_f64()
}

#[no_mangle]
pub extern "C" fn MPI_Wtick() -> f64 {
    1e-9
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_version(version: *mut c_int, subversion: *mut c_int) -> c_int {
    entry!("MPI_Get_version", Scope::NoObject, {
        nonnull!(version, subversion);
        unsafe {
            *version = MPI_VERSION;
            *subversion = MPI_SUBVERSION;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_library_version(
    version: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    entry!("MPI_Get_library_version", Scope::NoObject, {
        nonnull!(version, resultlen);
        let n = unsafe {
            write_c_string(
                version,
                MPI_MAX_LIBRARY_VERSION_STRING as usize,
                &library_version(),
            )
        };
        // SAFETY: `resultlen` checked non-NULL above (capi/mod.rs contract).
        unsafe { *resultlen = n };
        Ok(())
    })
}

/// The host name, as `MPI_Get_processor_name` reports it.
pub fn processor_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is writable for its length; gethostname NUL-terminates on success.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len() - 1) };
    if rc != 0 {
        return "localhost".to_owned();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_processor_name(name: *mut c_char, resultlen: *mut c_int) -> c_int {
    entry!("MPI_Get_processor_name", Scope::NoObject, {
        nonnull!(name, resultlen);
        require_active()?;
        // SAFETY: `name` checked non-NULL above (capi/mod.rs contract).
        let n = unsafe { write_c_string(name, MPI_MAX_PROCESSOR_NAME as usize, &processor_name()) };
        // SAFETY: `resultlen` checked non-NULL above (capi/mod.rs contract).
        unsafe { *resultlen = n };
        Ok(())
    })
}

/// Rejects the calls a finalized or uninitialized library cannot take (used by tests).
pub fn require_active() -> Result<(), Error> {
    rt().active().map(drop)
}
