//! Info entry points (MPI 4.1 §10).

use crate::capi::boundary::{read_c_string, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Runtime};
use crate::{entry, nonnull};
use std::ffi::{c_char, c_int};

fn rt() -> &'static Runtime {
    Runtime::global()
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_create(info: *mut MPI_Info) -> c_int {
    entry!("MPI_Info_create", Scope::NoObject, {
        nonnull!(info);
        let h = rt().info_create()?;
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
        match rt().info_get(Handle(info), &unsafe { read_c_string(key) }?)? {
            Some(v) => unsafe {
                write_c_string(value, room + 1, &v);
                *flag = 1;
            },
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
        let room = usize::try_from(unsafe { *buflen }).unwrap_or(0);
        match rt().info_get(Handle(info), &unsafe { read_c_string(key) }?)? {
            Some(v) => unsafe {
                if room > 0 {
                    nonnull!(value);
                    write_c_string(value, room, &v);
                }
                *buflen = v.len() as c_int + 1;
                *flag = 1;
            },
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
        match rt().info_get(Handle(info), &unsafe { read_c_string(key) }?)? {
            Some(v) => unsafe {
                *valuelen = v.len() as c_int;
                *flag = 1;
            },
            None => unsafe { *flag = 0 },
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_delete(info: MPI_Info, key: *const c_char) -> c_int {
    entry!("MPI_Info_delete", Scope::NoObject, {
        nonnull!(key);
        rt().info_delete(Handle(info), &unsafe { read_c_string(key) }?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_dup(info: MPI_Info, newinfo: *mut MPI_Info) -> c_int {
    entry!("MPI_Info_dup", Scope::NoObject, {
        nonnull!(newinfo);
        let h = rt().info_dup(Handle(info))?;
        unsafe { *newinfo = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_free(info: *mut MPI_Info) -> c_int {
    entry!("MPI_Info_free", Scope::NoObject, {
        nonnull!(info);
        rt().info_free(Handle(unsafe { *info }))?;
        unsafe { *info = MPI_INFO_NULL };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Info_get_nkeys(info: MPI_Info, nkeys: *mut c_int) -> c_int {
    entry!("MPI_Info_get_nkeys", Scope::NoObject, {
        nonnull!(nkeys);
        let n = rt().info_nkeys(Handle(info))?;
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
        unsafe { *info_used = h.0 };
        Ok(())
    })
}
