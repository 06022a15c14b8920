//! `MPI_COMM_SPAWN` and `MPI_COMM_SPAWN_MULTIPLE` from Fortran (MPI 4.1 §11.8.2, §11.8.3):
//! COMMAND and ARGV are CHARACTER (ARGV an array ended by a blank entry, ARRAY_OF_ARGV a
//! COUNT-by-n table whose row i lists command i's arguments), with the sentinels
//! MPI_ARGV_NULL, MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE recognised by address. The C routine
//! does the work (in one process it returns MPI_ERR_SPAWN with every error code set); this
//! binding converts the arguments and gives back INTERCOMM and the error codes.

use crate::boundary::Scope;
use crate::consts::*;
use crate::error::{Error, Result};
use crate::fortran::bind::{ints_in, len, set_ierror, string_in};
use crate::fortran::sentinels::{errcodes_ignored, is_argv_null, is_argvs_null};
use crate::fortran::strings::read_fortran_string;
use crate::fortran::{
    by_ref, fint, narrow, read_narrow, scope_handle, MPI_Farray, MPI_Fchar_array, MPI_Fchar_table,
    MPI_Fcomm, MPI_Finfo, MPI_Finfo_array, MPI_Fint,
};
use crate::nonnull;
use std::ffi::{c_char, c_int, CString};

/// One command's arguments as C wants them: the strings and a NULL-terminated pointer array.
struct Argv {
    _strings: Vec<CString>,
    pointers: Vec<*mut c_char>,
}

impl Argv {
    fn new(args: Vec<String>) -> Result<Argv> {
        let strings = args
            .into_iter()
            .map(|a| {
                CString::new(a)
                    .map_err(|_| Error::invalid(MPI_ERR_ARG, "argv holds a NUL character"))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut pointers: Vec<*mut c_char> =
            strings.iter().map(|s| s.as_ptr().cast_mut()).collect();
        pointers.push(std::ptr::null_mut());
        Ok(Argv {
            _strings: strings,
            pointers,
        })
    }
}

/// The arguments of a Fortran ARGV: the entries before the first blank one (MPI 4.1 §11.8.2),
/// `stride` entries apart.
///
/// # Safety
/// `p` holds entries of `elem` bytes, `stride` apart, up to and including a blank one.
unsafe fn read_argv(p: *const c_char, elem: usize, stride: usize) -> Vec<String> {
    let mut out = Vec::new();
    if elem == 0 {
        return out;
    }
    loop {
        // SAFETY: entry `out.len()` is within the array up to its blank end (this function's
        // contract).
        let s = unsafe { read_fortran_string(p.add(out.len() * stride * elem), elem) };
        if s.is_empty() {
            return out;
        }
        out.push(s);
    }
}

/// Writes the C call's error codes back (when it set them: MPI_ERR_SPAWN) and INTERCOMM.
///
/// # Safety
/// `errcodes` is MPI_ERRCODES_IGNORE or holds `codes.len()` INTEGERs; `intercomm` is writable.
unsafe fn outputs(
    rc: c_int,
    codes: &[c_int],
    errcodes: *mut MPI_Fint,
    ic: c_int,
    intercomm: *mut MPI_Fcomm,
) {
    if rc == MPI_SUCCESS || rc == MPI_ERR_SPAWN {
        // SAFETY: the caller's INTEGER (this function's contract).
        unsafe { *intercomm = fint(ic) };
        if !errcodes_ignored(errcodes) {
            for (i, &c) in codes.iter().enumerate() {
                // SAFETY: one INTEGER per process asked for (this function's contract).
                unsafe { *errcodes.add(i) = fint(c) };
            }
        }
    }
}

/// `MPI_COMM_SPAWN(COMMAND, ARGV, MAXPROCS, INFO, ROOT, COMM, INTERCOMM, ARRAY_OF_ERRCODES,
/// IERROR)`, `CHARACTER*(*) COMMAND, ARGV(*)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_spawn_(
    command: *const c_char,
    argv: *const MPI_Fchar_array,
    maxprocs: *const MPI_Fint,
    info: *const MPI_Finfo,
    root: *const MPI_Fint,
    comm: *const MPI_Fcomm,
    intercomm: *mut MPI_Fcomm,
    array_of_errcodes: *mut MPI_Farray,
    ierror: *mut MPI_Fint,
    command_len: usize,
    argv_len: usize,
) {
    let mut rc: c_int = MPI_SUCCESS;
    // SAFETY: NULL or the caller's INTEGER (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    let own = crate::entry!(
        "MPI_COMM_SPAWN",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            nonnull!(command, argv, maxprocs, info, root, comm, intercomm);
            let comm_c = narrow(c, MPI_ERR_COMM, "comm")?;
            // SAFETY: the caller's arguments, checked non-NULL above (fortran/mod.rs contract).
            let (maxprocs_c, info_c, root_c) = unsafe {
                (
                    read_narrow(maxprocs, MPI_ERR_ARG, "maxprocs")?,
                    read_narrow(info, MPI_ERR_INFO, "info")?,
                    read_narrow(root, MPI_ERR_ROOT, "root")?,
                )
            };
            // SAFETY: COMMAND has `command_len` bytes (fortran/mod.rs contract).
            let command_c = unsafe { string_in(command, command_len, "command") }?;
            let mut args = if is_argv_null(argv) {
                None
            } else {
                // SAFETY: ARGV is an array of `argv_len`-byte entries ended by a blank one
                // (MPI 4.1 §11.8.2).
                Some(Argv::new(unsafe { read_argv(argv, argv_len, 1) })?)
            };
            let argv_c = args
                .as_mut()
                .map_or(std::ptr::null_mut(), |a| a.pointers.as_mut_ptr());
            let mut codes: Vec<c_int> = vec![0; len(maxprocs_c)];
            let mut ic: c_int = MPI_COMM_NULL;
            // SAFETY: C strings, a NULL-terminated argument array (or NULL for MPI_ARGV_NULL),
            // one error code per process asked for, as MPI_Comm_spawn's C binding asks.
            rc = unsafe {
                crate::capi::dynamic::MPI_Comm_spawn(
                    command_c.as_ptr(),
                    argv_c,
                    maxprocs_c,
                    info_c,
                    root_c,
                    comm_c,
                    &mut ic,
                    codes.as_mut_ptr(),
                )
            };
            // SAFETY: the caller's INTERCOMM and ARRAY_OF_ERRCODES (MAXPROCS entries, or the
            // sentinel), fortran/mod.rs contract.
            unsafe { outputs(rc, &codes, array_of_errcodes, ic, intercomm) };
            Ok(())
        }
    );
    // SAFETY: IERROR is NULL or the caller's INTEGER.
    unsafe { set_ierror(ierror, own, rc) };
}

/// `MPI_COMM_SPAWN_MULTIPLE(COUNT, ARRAY_OF_COMMANDS, ARRAY_OF_ARGV, ARRAY_OF_MAXPROCS,
/// ARRAY_OF_INFO, ROOT, COMM, INTERCOMM, ARRAY_OF_ERRCODES, IERROR)`,
/// `CHARACTER*(*) ARRAY_OF_COMMANDS(*), ARRAY_OF_ARGV(COUNT, *)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_spawn_multiple_(
    count: *const MPI_Fint,
    array_of_commands: *const MPI_Fchar_array,
    array_of_argv: *const MPI_Fchar_table,
    array_of_maxprocs: *const MPI_Farray,
    array_of_info: *const MPI_Finfo_array,
    root: *const MPI_Fint,
    comm: *const MPI_Fcomm,
    intercomm: *mut MPI_Fcomm,
    array_of_errcodes: *mut MPI_Farray,
    ierror: *mut MPI_Fint,
    array_of_commands_len: usize,
    array_of_argv_len: usize,
) {
    let mut rc: c_int = MPI_SUCCESS;
    // SAFETY: NULL or the caller's INTEGER (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    let own = crate::entry!(
        "MPI_COMM_SPAWN_MULTIPLE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            nonnull!(
                count,
                array_of_commands,
                array_of_argv,
                array_of_maxprocs,
                array_of_info,
                root,
                comm,
                intercomm
            );
            let comm_c = narrow(c, MPI_ERR_COMM, "comm")?;
            // SAFETY: the caller's INTEGERs, checked non-NULL above (fortran/mod.rs contract).
            let (count_c, root_c) = unsafe {
                (
                    read_narrow(count, MPI_ERR_ARG, "count")?,
                    read_narrow(root, MPI_ERR_ROOT, "root")?,
                )
            };
            let n = len(count_c);
            // SAFETY: COUNT entries each (MPI 4.1 §11.8.3), checked non-NULL above.
            let (maxprocs_c, infos_c) = unsafe {
                (
                    ints_in(array_of_maxprocs, n, MPI_ERR_ARG, "array_of_maxprocs")?,
                    ints_in(array_of_info, n, MPI_ERR_INFO, "array_of_info")?,
                )
            };
            let mut commands = Vec::with_capacity(n);
            for i in 0..n {
                // SAFETY: entry i of COUNT `array_of_commands_len`-byte entries.
                let p = unsafe { array_of_commands.add(i * array_of_commands_len) };
                // SAFETY: as above.
                commands.push(unsafe { string_in(p, array_of_commands_len, "array_of_commands") }?);
            }
            let mut command_ptrs: Vec<*mut c_char> =
                commands.iter().map(|s| s.as_ptr().cast_mut()).collect();
            // Row i of the COUNT-by-n table: entries COUNT apart (column-major), from entry i.
            let mut argvs = Vec::with_capacity(n);
            if !is_argvs_null(array_of_argv) {
                for i in 0..n {
                    // SAFETY: row i of ARRAY_OF_ARGV, each row ended by a blank entry (MPI 4.1
                    // §11.8.3).
                    let row = unsafe {
                        read_argv(
                            array_of_argv.add(i * array_of_argv_len),
                            array_of_argv_len,
                            n,
                        )
                    };
                    argvs.push(Argv::new(row)?);
                }
            }
            let mut argv_ptrs: Vec<*mut *mut c_char> =
                argvs.iter_mut().map(|a| a.pointers.as_mut_ptr()).collect();
            let argv_c = if argvs.is_empty() {
                std::ptr::null_mut()
            } else {
                argv_ptrs.as_mut_ptr()
            };
            let total: usize = maxprocs_c.iter().map(|&m| len(m)).sum();
            let mut codes: Vec<c_int> = vec![0; total];
            let mut ic: c_int = MPI_COMM_NULL;
            // SAFETY: COUNT commands, argument arrays (or NULL for MPI_ARGVS_NULL), maxprocs
            // and infos, and one error code per process asked for, as the C binding asks.
            rc = unsafe {
                crate::capi::dynamic::MPI_Comm_spawn_multiple(
                    count_c,
                    command_ptrs.as_mut_ptr(),
                    argv_c,
                    maxprocs_c.as_ptr(),
                    infos_c.as_ptr(),
                    root_c,
                    comm_c,
                    &mut ic,
                    codes.as_mut_ptr(),
                )
            };
            // SAFETY: the caller's INTERCOMM and ARRAY_OF_ERRCODES (the sum of MAXPROCS
            // entries, or the sentinel), fortran/mod.rs contract.
            unsafe { outputs(rc, &codes, array_of_errcodes, ic, intercomm) };
            Ok(())
        }
    );
    // SAFETY: IERROR is NULL or the caller's INTEGER.
    unsafe { set_ierror(ierror, own, rc) };
}
