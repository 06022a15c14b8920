//! Fortran info routines (MPI 4.1 §10). Keys and values are CHARACTER arguments with hidden
//! lengths: trailing blanks are trimmed on input, outputs are blank-padded.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::{fint, logical, narrow, MPI_Fint, MPI_Flogical};
use crate::nonnull;
use crate::world::{Error, Handle};
use std::ffi::c_char;

/// An info handle argument, checked to fit the library's handles.
unsafe fn info_arg(p: *const MPI_Fint) -> crate::error::Result<Handle> {
    nonnull!(p);
    // SAFETY: `p` checked non-NULL above (fortran/mod.rs contract).
    Ok(Handle(narrow(unsafe { *p }, MPI_ERR_INFO, "info")?))
}

/// `MPI_INFO_CREATE(INFO, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_create_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_INFO_CREATE", Scope::NoObject, {
        nonnull!(info);
        let h = rt().info_create()?;
        // SAFETY: `info` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *info = fint(h.0) };
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
        let h = unsafe { info_arg(info) }?;
        // SAFETY: `key`, `value` checked non-NULL above (fortran/mod.rs contract).
        let k = unsafe { read_fortran_string(key, key_len) };
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
        nonnull!(key, valuelen, value, flag);
        let h = unsafe { info_arg(info) }?;
        // SAFETY: `valuelen` checked non-NULL above (fortran/mod.rs contract).
        let room = usize::try_from(unsafe { *valuelen })
            .map_err(|_| Error::invalid(MPI_ERR_ARG, "VALUELEN is negative"))?;
        // SAFETY: `key` checked non-NULL above (fortran/mod.rs contract).
        let k = unsafe { read_fortran_string(key, key_len) };
        match rt().info_get(h, &k)? {
            Some(v) => unsafe {
                write_fortran_string(value, value_len, room, &v);
                *flag = logical(true);
            },
            // SAFETY: `flag` checked non-NULL above (fortran/mod.rs contract).
            None => unsafe { *flag = logical(false) },
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
        nonnull!(key, valuelen, flag);
        let h = unsafe { info_arg(info) }?;
        // SAFETY: `key` checked non-NULL above (fortran/mod.rs contract).
        let k = unsafe { read_fortran_string(key, key_len) };
        match rt().info_get(h, &k)? {
            Some(v) => unsafe {
                *valuelen = fint(v.len() as i32);
                *flag = logical(true);
            },
            // SAFETY: `flag` checked non-NULL above (fortran/mod.rs contract).
            None => unsafe { *flag = logical(false) },
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
        nonnull!(newinfo);
        let h = rt().info_dup(unsafe { info_arg(info) }?)?;
        // SAFETY: `newinfo` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *newinfo = fint(h.0) };
        Ok(())
    })
}

/// `MPI_INFO_FREE(INFO, IERROR)`: INFO becomes MPI_INFO_NULL.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_free_(info: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_INFO_FREE", Scope::NoObject, {
        rt().info_free(unsafe { info_arg(info) }?)?;
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
        nonnull!(nkeys);
        let n = rt().info_nkeys(unsafe { info_arg(info) }?)?;
        // SAFETY: `nkeys` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *nkeys = fint(n) };
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
        let h = unsafe { info_arg(info) }?;
        // SAFETY: `n` checked non-NULL above (fortran/mod.rs contract).
        let n = narrow(unsafe { *n }, MPI_ERR_ARG, "n")?;
        let k = rt().info_nthkey(h, n)?;
        // SAFETY: `key` checked non-NULL above (fortran/mod.rs contract).
        unsafe { write_fortran_string(key, key_len, MPI_MAX_INFO_KEY as usize, &k) };
        Ok(())
    })
}
