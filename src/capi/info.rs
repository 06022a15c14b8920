//! Info entry points (MPI 4.1 §10).

use crate::boundary::{read_c_string, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle};
use crate::{entry, nonnull};
use std::ffi::{c_char, c_int};

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_create(info: *mut MPI_Info) -> c_int {
    entry!("MPI_Info_create", Scope::NoObject, {
        nonnull!(info);
        let h = rt().info_create()?;
        // SAFETY: `info` checked non-NULL above (capi/mod.rs contract).
        unsafe { *info = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_set(
    info: MPI_Info,
    key: *const c_char,
    value: *const c_char,
) -> c_int {
    entry!("MPI_Info_set", Scope::NoObject, {
        nonnull!(key, value);
        rt().info_set(Handle(info), &unsafe { read_c_string(key) }?, &unsafe {
            read_c_string(value)
        }?)
    })
}

/// Deprecated in MPI 4.0 but in wide use: copies at most `valuelen` characters and a NUL.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get(
    info: MPI_Info,
    key: *const c_char,
    valuelen: c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Info_get", Scope::NoObject, {
        nonnull!(key, value, flag);
        let room = usize::try_from(valuelen)
            .map_err(|_| Error::invalid(MPI_ERR_ARG, format!("valuelen {valuelen} is negative")))?;
        // SAFETY: `key` checked non-NULL above (capi/mod.rs contract).
        match rt().info_get(Handle(info), &unsafe { read_c_string(key) }?)? {
            Some(v) => unsafe {
                write_c_string(value, room + 1, &v);
                *flag = 1;
            },
            // SAFETY: `flag` checked non-NULL above (capi/mod.rs contract).
            None => unsafe { *flag = 0 },
        }
        Ok(())
    })
}

/// MPI 4.0: `*buflen` is the buffer's size on input, the value's length plus one on output.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_string(
    info: MPI_Info,
    key: *const c_char,
    buflen: *mut c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Info_get_string", Scope::NoObject, {
        nonnull!(key, buflen, flag);
        // SAFETY: `buflen` checked non-NULL above (capi/mod.rs contract).
        let room = usize::try_from(unsafe { *buflen }).unwrap_or(0);
        // SAFETY: `key` checked non-NULL above (capi/mod.rs contract).
        match rt().info_get(Handle(info), &unsafe { read_c_string(key) }?)? {
            Some(v) => unsafe {
                if room > 0 {
                    nonnull!(value);
                    write_c_string(value, room, &v);
                }
                *buflen = v.len() as c_int + 1;
                *flag = 1;
            },
            // SAFETY: `flag` checked non-NULL above (capi/mod.rs contract).
            None => unsafe { *flag = 0 },
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_valuelen(
    info: MPI_Info,
    key: *const c_char,
    valuelen: *mut c_int,
    flag: *mut c_int,
) -> c_int {
    entry!("MPI_Info_get_valuelen", Scope::NoObject, {
        nonnull!(key, valuelen, flag);
        // SAFETY: `key` checked non-NULL above (capi/mod.rs contract).
        match rt().info_get(Handle(info), &unsafe { read_c_string(key) }?)? {
            Some(v) => unsafe {
                *valuelen = v.len() as c_int;
                *flag = 1;
            },
            // SAFETY: `flag` checked non-NULL above (capi/mod.rs contract).
            None => unsafe { *flag = 0 },
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_delete(info: MPI_Info, key: *const c_char) -> c_int {
    entry!("MPI_Info_delete", Scope::NoObject, {
        nonnull!(key);
        // SAFETY: `key` checked non-NULL above (capi/mod.rs contract).
        rt().info_delete(Handle(info), &unsafe { read_c_string(key) }?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_dup(info: MPI_Info, newinfo: *mut MPI_Info) -> c_int {
    entry!("MPI_Info_dup", Scope::NoObject, {
        nonnull!(newinfo);
        let h = rt().info_dup(Handle(info))?;
        // SAFETY: `newinfo` checked non-NULL above (capi/mod.rs contract).
        unsafe { *newinfo = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_free(info: *mut MPI_Info) -> c_int {
    entry!("MPI_Info_free", Scope::NoObject, {
        nonnull!(info);
        // SAFETY: `info` checked non-NULL above (capi/mod.rs contract).
        rt().info_free(Handle(unsafe { *info }))?;
        // SAFETY: `info` checked non-NULL above (capi/mod.rs contract).
        unsafe { *info = MPI_INFO_NULL };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_nkeys(info: MPI_Info, nkeys: *mut c_int) -> c_int {
    entry!("MPI_Info_get_nkeys", Scope::NoObject, {
        nonnull!(nkeys);
        let n = rt().info_nkeys(Handle(info))?;
        // SAFETY: `nkeys` checked non-NULL above (capi/mod.rs contract).
        unsafe { *nkeys = n };
        Ok(())
    })
}

/// The key is written into a buffer of `MPI_MAX_INFO_KEY` characters.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> c_int {
    entry!("MPI_Info_get_nthkey", Scope::NoObject, {
        nonnull!(key);
        let k = rt().info_nthkey(Handle(info), n)?;
        // SAFETY: `key` checked non-NULL above (capi/mod.rs contract).
        unsafe { write_c_string(key, MPI_MAX_INFO_KEY as usize, &k) };
        Ok(())
    })
}

/// `MPI_Comm_set_info`: a single process takes no hints; the info is checked.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_info(comm: MPI_Comm, info: MPI_Info) -> c_int {
    entry!("MPI_Comm_set_info", Scope::Comm(comm), {
        rt().comm_size(Handle(comm))?;
        rt().check_handle(crate::world::HandleKind::Info, Handle(info))
    })
}

/// `MPI_Comm_get_info`: the hints in use, none here: a new empty info the caller frees.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_info(comm: MPI_Comm, info_used: *mut MPI_Info) -> c_int {
    entry!("MPI_Comm_get_info", Scope::Comm(comm), {
        nonnull!(info_used);
        rt().comm_size(Handle(comm))?;
        let h = rt().info_create()?;
        // SAFETY: `info_used` checked non-NULL above (capi/mod.rs contract).
        unsafe { *info_used = h.0 };
        Ok(())
    })
}

/// `MPI_Info_create_env` (MPI 4.1 §11.2.3): the environment the process was started with, under
/// the keys of `MPI_Comm_spawn`'s info: `command` and `argv` (from `argc`/`argv` when given),
/// `maxprocs` (1), `soft`, `wdir` (the working directory) and `thread_level`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Info_create_env(
    argc: c_int,
    argv: *mut *mut c_char,
    info: *mut MPI_Info,
) -> c_int {
    entry!("MPI_Info_create_env", Scope::NoObject, {
        nonnull!(info);
        let mut args = Vec::new();
        if !argv.is_null() {
            for i in 0..argc.max(0) as usize {
                let a = unsafe { *argv.add(i) };
                if a.is_null() {
                    break;
                }
                args.push(unsafe { read_c_string(a) }?);
            }
        }
        let h = rt().info_create()?;
        let level = match rt().active()?.thread_level {
            MPI_THREAD_SINGLE => "MPI_THREAD_SINGLE",
            MPI_THREAD_FUNNELED => "MPI_THREAD_FUNNELED",
            MPI_THREAD_SERIALIZED => "MPI_THREAD_SERIALIZED",
            _ => "MPI_THREAD_MULTIPLE",
        };
        let wdir = std::env::current_dir()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut entries = vec![("maxprocs", "1".to_owned()), ("soft", "1".to_owned())];
        if let Some(cmd) = args.first() {
            entries.push(("command", cmd.clone()));
        }
        if args.len() > 1 {
            entries.push(("argv", args[1..].join(" ")));
        }
        if !wdir.is_empty() {
            entries.push(("wdir", wdir));
        }
        entries.push(("thread_level", level.to_owned()));
        for (k, v) in entries {
            if let Err(e) = rt().info_set(h, k, &v) {
                let _ = rt().info_free(h);
                return Err(e);
            }
        }
        unsafe { *info = h.0 };
        Ok(())
    })
}
