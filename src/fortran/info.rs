//! Fortran info routines (MPI 4.1 §10). Keys and values are CHARACTER arguments with hidden
//! lengths: trailing blanks are trimmed on input, outputs are blank-padded.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::{fint, logical, narrow, MPI_Fint, MPI_Flogical};
use crate::nonnull;
use crate::try_in;
use crate::try_out;
use crate::world::{Error, Handle};
use std::ffi::c_char;

/// An info handle argument, checked non-NULL and to fit the library's handles.
///
/// # Safety
/// `p` is NULL or points to the caller's INTEGER.
unsafe fn info_arg(p: *const MPI_Fint) -> crate::error::Result<Handle> {
    nonnull!(p);
    // SAFETY: `p` checked non-NULL above (fortran/mod.rs contract).
    Ok(Handle(narrow(unsafe { *p }, MPI_ERR_INFO, "info")?))
}

/// `MPI_INFO_CREATE(INFO, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_create_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_INFO_CREATE", Scope::NoObject, {
        let info = try_out!(info);
        let h = rt().info_create()?;
        info.set(fint(h.0));
        Ok(())
    })
}

/// `MPI_INFO_SET(INFO, KEY, VALUE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_set_(
    info: *const MPI_Fint,
    key: *const c_char,
    value: *const c_char,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    fentry!(ierror, "MPI_INFO_SET", Scope::NoObject, {
        nonnull!(key, value);
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        let h = unsafe { info_arg(info) }?;
        // SAFETY: `key`, `value` checked non-NULL above (fortran/mod.rs contract).
        let k = unsafe { read_fortran_string(key, key_len) };
        // SAFETY: `read_fortran_string` needs the CHARACTER argument to have its hidden length in
        // readable bytes (the by-reference contract of this entry point, fortran/mod.rs).
        let v = unsafe { read_fortran_string(value, value_len) };
        rt().info_set(h, &k, &v)
    })
}

/// `MPI_INFO_GET(INFO, KEY, VALUELEN, VALUE, FLAG, IERROR)`: at most VALUELEN characters.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_get_(
    info: *const MPI_Fint,
    key: *const c_char,
    valuelen: *const MPI_Fint,
    value: *mut c_char,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    fentry!(ierror, "MPI_INFO_GET", Scope::NoObject, {
        nonnull!(key);
        let valuelen = try_in!(valuelen);
        nonnull!(value);
        let flag = try_out!(flag);
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        let h = unsafe { info_arg(info) }?;
        let room = usize::try_from(valuelen)
            .map_err(|_| Error::invalid(MPI_ERR_ARG, "VALUELEN is negative"))?;
        // SAFETY: `key` checked non-NULL above (fortran/mod.rs contract).
        let k = unsafe { read_fortran_string(key, key_len) };
        match rt().info_get(h, &k)? {
            Some(v) => {
                // SAFETY: `value` is not NULL (checked above) and a CHARACTER of `value_len`
                // bytes (the by-reference contract of this entry point, fortran/mod.rs).
                unsafe { write_fortran_string(value, value_len, room, &v) };
                flag.set(logical(true));
            }
            None => flag.set(logical(false)),
        }
        Ok(())
    })
}

/// `MPI_INFO_GET_STRING(INFO, KEY, BUFLEN, VALUE, FLAG, IERROR)` (MPI 4.1 §10.3): BUFLEN is
/// INOUT: on input the number of characters VALUE may receive (at most its length; 0 leaves
/// VALUE unchanged), on output the value's length. Fortran strings have no terminator, so the
/// C binding's "+ 1" is not added here.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_get_string_(
    info: *const MPI_Fint,
    key: *const c_char,
    buflen: *mut MPI_Fint,
    value: *mut c_char,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
    key_len: usize,
    value_len: usize,
) {
    fentry!(ierror, "MPI_INFO_GET_STRING", Scope::NoObject, {
        nonnull!(key);
        let buflen = try_out!(buflen);
        let flag = try_out!(flag);
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        let h = unsafe { info_arg(info) }?;
        let room = usize::try_from(buflen.get())
            .map_err(|_| Error::invalid(MPI_ERR_ARG, "BUFLEN is negative"))?;
        // SAFETY: `key` checked non-NULL above (fortran/mod.rs contract).
        let k = unsafe { read_fortran_string(key, key_len) };
        match rt().info_get(h, &k)? {
            Some(v) => {
                if room > 0 {
                    nonnull!(value);
                    // SAFETY: `value` is not NULL (checked above) and a CHARACTER of
                    // `value_len` bytes (the by-reference contract of this entry point).
                    unsafe { write_fortran_string(value, value_len, room, &v) };
                }
                buflen.set(fint(i32::try_from(v.len()).unwrap_or(i32::MAX)));
                flag.set(logical(true));
            }
            None => flag.set(logical(false)),
        }
        Ok(())
    })
}

/// `MPI_INFO_GET_VALUELEN(INFO, KEY, VALUELEN, FLAG, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_get_valuelen_(
    info: *const MPI_Fint,
    key: *const c_char,
    valuelen: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
    key_len: usize,
) {
    fentry!(ierror, "MPI_INFO_GET_VALUELEN", Scope::NoObject, {
        nonnull!(key);
        let valuelen = try_out!(valuelen);
        let flag = try_out!(flag);
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        let h = unsafe { info_arg(info) }?;
        // SAFETY: `key` checked non-NULL above (fortran/mod.rs contract).
        let k = unsafe { read_fortran_string(key, key_len) };
        match rt().info_get(h, &k)? {
            Some(v) => {
                valuelen.set(fint(v.len() as i32));
                flag.set(logical(true));
            }
            None => flag.set(logical(false)),
        }
        Ok(())
    })
}

/// `MPI_INFO_DELETE(INFO, KEY, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_delete_(
    info: *const MPI_Fint,
    key: *const c_char,
    ierror: *mut MPI_Fint,
    key_len: usize,
) {
    fentry!(ierror, "MPI_INFO_DELETE", Scope::NoObject, {
        nonnull!(key);
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        let h = unsafe { info_arg(info) }?;
        // SAFETY: `key` checked non-NULL above (fortran/mod.rs contract).
        rt().info_delete(h, &unsafe { read_fortran_string(key, key_len) })
    })
}

/// `MPI_INFO_DUP(INFO, NEWINFO, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_dup_(
    info: *const MPI_Fint,
    newinfo: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_INFO_DUP", Scope::NoObject, {
        let newinfo = try_out!(newinfo);
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        let h = rt().info_dup(unsafe { info_arg(info) }?)?;
        newinfo.set(fint(h.0));
        Ok(())
    })
}

/// `MPI_INFO_FREE(INFO, IERROR)`: INFO becomes MPI_INFO_NULL.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_free_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_INFO_FREE", Scope::NoObject, {
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        rt().info_free(unsafe { info_arg(info) }?)?;
        // SAFETY: `info` is not NULL (`info_arg` fails the call otherwise) and the caller's INTEGER
        // (fortran/mod.rs).
        unsafe { *info = fint(MPI_INFO_NULL) };
        Ok(())
    })
}

/// `MPI_INFO_GET_NKEYS(INFO, NKEYS, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_get_nkeys_(
    info: *const MPI_Fint,
    nkeys: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_INFO_GET_NKEYS", Scope::NoObject, {
        let nkeys = try_out!(nkeys);
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        let n = rt().info_nkeys(unsafe { info_arg(info) }?)?;
        nkeys.set(fint(n));
        Ok(())
    })
}

/// `MPI_INFO_GET_NTHKEY(INFO, N, KEY, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_get_nthkey_(
    info: *const MPI_Fint,
    n: *const MPI_Fint,
    key: *mut c_char,
    ierror: *mut MPI_Fint,
    key_len: usize,
) {
    fentry!(ierror, "MPI_INFO_GET_NTHKEY", Scope::NoObject, {
        nonnull!(n, key);
        // SAFETY: `info_arg` needs the INFO argument readable (the by-reference contract of this
        // entry point, fortran/mod.rs).
        let h = unsafe { info_arg(info) }?;
        // SAFETY: `n` checked non-NULL above (fortran/mod.rs contract).
        let n = narrow(unsafe { *n }, MPI_ERR_ARG, "n")?;
        let k = rt().info_nthkey(h, n)?;
        // SAFETY: `key` checked non-NULL above (fortran/mod.rs contract).
        unsafe { write_fortran_string(key, key_len, MPI_MAX_INFO_KEY as usize, &k) };
        Ok(())
    })
}
