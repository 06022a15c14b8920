//! Process creation and management (MPI 4.1 §11.8): what one process can do is real (ports,
//! the name service, disconnect); what needs another process is the standard's error
//! (world/dynamic.rs says which, and README "Dynamic processes").

use crate::boundary::{read_c_string, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, HandleKind};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_char, c_int};

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_parent(parent: *mut MPI_Comm) -> c_int {
    entry!("MPI_Comm_get_parent", Scope::NoObject, {
        let out = try_out!(parent);
        out.set(rt().comm_get_parent()?.0);
        Ok(())
    })
}

/// The port name is written into a buffer of `MPI_MAX_PORT_NAME` characters.
#[no_mangle]
pub unsafe extern "C" fn MPI_Open_port(info: MPI_Info, port_name: *mut c_char) -> c_int {
    entry!("MPI_Open_port", Scope::NoObject, {
        nonnull!(port_name);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let name = rt().open_port()?;
        // SAFETY: `port_name` has MPI_MAX_PORT_NAME bytes (MPI 4.1 §11.8.2), checked non-NULL.
        unsafe { write_c_string(port_name, MPI_MAX_PORT_NAME as usize, &name) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Close_port(port_name: *const c_char) -> c_int {
    entry!("MPI_Close_port", Scope::NoObject, {
        nonnull!(port_name);
        // SAFETY: a NUL-terminated string, checked non-NULL above.
        rt().close_port(&unsafe { read_c_string(port_name) }?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_accept(
    port_name: *const c_char,
    info: MPI_Info,
    root: c_int,
    comm: MPI_Comm,
    newcomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Comm_accept", Scope::Comm(comm), {
        nonnull!(port_name);
        let out = try_out!(newcomm);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        // SAFETY: a NUL-terminated string, checked non-NULL above.
        let port = unsafe { read_c_string(port_name) }?;
        out.set(rt().connect_or_accept(&port, Handle(comm), root, true)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_connect(
    port_name: *const c_char,
    info: MPI_Info,
    root: c_int,
    comm: MPI_Comm,
    newcomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Comm_connect", Scope::Comm(comm), {
        nonnull!(port_name);
        let out = try_out!(newcomm);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        // SAFETY: a NUL-terminated string, checked non-NULL above.
        let port = unsafe { read_c_string(port_name) }?;
        out.set(rt().connect_or_accept(&port, Handle(comm), root, false)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Publish_name(
    service_name: *const c_char,
    info: MPI_Info,
    port_name: *const c_char,
) -> c_int {
    entry!("MPI_Publish_name", Scope::NoObject, {
        nonnull!(service_name, port_name);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        // SAFETY: NUL-terminated strings, checked non-NULL above.
        let (service, port) = unsafe { (read_c_string(service_name)?, read_c_string(port_name)?) };
        rt().publish_name(&service, &port)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Unpublish_name(
    service_name: *const c_char,
    info: MPI_Info,
    port_name: *const c_char,
) -> c_int {
    entry!("MPI_Unpublish_name", Scope::NoObject, {
        nonnull!(service_name, port_name);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        // SAFETY: NUL-terminated strings, checked non-NULL above.
        let (service, port) = unsafe { (read_c_string(service_name)?, read_c_string(port_name)?) };
        rt().unpublish_name(&service, &port)
    })
}

/// The port name is written into a buffer of `MPI_MAX_PORT_NAME` characters.
#[no_mangle]
pub unsafe extern "C" fn MPI_Lookup_name(
    service_name: *const c_char,
    info: MPI_Info,
    port_name: *mut c_char,
) -> c_int {
    entry!("MPI_Lookup_name", Scope::NoObject, {
        nonnull!(service_name, port_name);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        // SAFETY: a NUL-terminated string, checked non-NULL above.
        let port = rt().lookup_name(&unsafe { read_c_string(service_name) }?)?;
        // SAFETY: `port_name` has MPI_MAX_PORT_NAME bytes (MPI 4.1 §11.8.5), checked non-NULL.
        unsafe { write_c_string(port_name, MPI_MAX_PORT_NAME as usize, &port) };
        Ok(())
    })
}

/// Fills `errcodes` (unless `MPI_ERRCODES_IGNORE`) with the spawn's error for each of the
/// `n` processes asked for, and sets `intercomm` to `MPI_COMM_NULL`.
///
/// # Safety
/// `errcodes` is NULL or has `n` writable ints; `intercomm` is writable.
unsafe fn spawn_failed(
    err: Error,
    n: i64,
    errcodes: *mut c_int,
    intercomm: *mut MPI_Comm,
) -> Error {
    if err.class() == MPI_ERR_SPAWN {
        if !errcodes.is_null() {
            for i in 0..n.max(0) as usize {
                // SAFETY: `errcodes` has one int per process asked for (MPI 4.1 §11.8.2).
                unsafe { *errcodes.add(i) = MPI_ERR_SPAWN };
            }
        }
        // SAFETY: checked non-NULL by the caller.
        unsafe { *intercomm = MPI_COMM_NULL };
    }
    err
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_spawn(
    command: *const c_char,
    argv: *mut *mut c_char,
    maxprocs: c_int,
    info: MPI_Info,
    root: c_int,
    comm: MPI_Comm,
    intercomm: *mut MPI_Comm,
    array_of_errcodes: *mut c_int,
) -> c_int {
    let _ = argv;
    entry!("MPI_Comm_spawn", Scope::Comm(comm), {
        nonnull!(command, intercomm);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let err = rt().spawn(Handle(comm), root, &[maxprocs]).unwrap_err();
        // SAFETY: the standard's contract for these arguments; `intercomm` checked non-NULL.
        Err(unsafe { spawn_failed(err, maxprocs.into(), array_of_errcodes, intercomm) })
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_spawn_multiple(
    count: c_int,
    array_of_commands: *mut *mut c_char,
    array_of_argv: *mut *mut *mut c_char,
    array_of_maxprocs: *const c_int,
    array_of_info: *const MPI_Info,
    root: c_int,
    comm: MPI_Comm,
    intercomm: *mut MPI_Comm,
    array_of_errcodes: *mut c_int,
) -> c_int {
    let _ = array_of_argv;
    entry!("MPI_Comm_spawn_multiple", Scope::Comm(comm), {
        nonnull!(intercomm);
        let n = usize::try_from(count)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| Error::invalid(MPI_ERR_ARG, format!("count {count} is not positive")))?;
        nonnull!(array_of_commands, array_of_maxprocs, array_of_info);
        // SAFETY: `count` entries each (MPI 4.1 §11.8.3), checked non-NULL above.
        let (maxprocs, infos) = unsafe {
            (
                std::slice::from_raw_parts(array_of_maxprocs, n),
                std::slice::from_raw_parts(array_of_info, n),
            )
        };
        for &i in infos {
            rt().check_handle(HandleKind::Info, Handle(i))?;
        }
        let err = rt().spawn(Handle(comm), root, maxprocs).unwrap_err();
        let total = maxprocs.iter().map(|&m| i64::from(m)).sum();
        // SAFETY: the standard's contract for these arguments; `intercomm` checked non-NULL.
        Err(unsafe { spawn_failed(err, total, array_of_errcodes, intercomm) })
    })
}

/// `MPI_Comm_join`: a descriptor that is not a connected stream socket is `MPI_ERR_ARG`; a
/// connected one cannot lead to a second MPI process in this single-process MPI, which has no
/// intercommunicators: `MPI_ERR_UNSUPPORTED_OPERATION`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_join(fd: c_int, intercomm: *mut MPI_Comm) -> c_int {
    entry!("MPI_Comm_join", Scope::NoObject, {
        let _out = try_out!(intercomm);
        rt().comm_get_parent()?;
        let mut kind: c_int = 0;
        let mut len = std::mem::size_of::<c_int>() as libc::socklen_t;
        // SAFETY: `kind` and `len` are valid for getsockopt's writes of an int.
        let rc = unsafe {
            libc::getsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_TYPE,
                (&mut kind as *mut c_int).cast(),
                &mut len,
            )
        };
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        let mut addr: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
        let mut alen = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
        // SAFETY: `addr` is a sockaddr_storage of `alen` bytes.
        let connected = rc == 0
            && kind == libc::SOCK_STREAM
            // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
            && unsafe {
                libc::getpeername(
                    fd,
                    (&mut addr as *mut libc::sockaddr_storage).cast(),
                    &mut alen,
                )
            } == 0;
        if !connected {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("file descriptor {fd} is not a connected stream socket"),
            ));
        }
        Err(Error::invalid(
            MPI_ERR_UNSUPPORTED_OPERATION,
            "joining needs a second MPI process: mpicache is a single-process MPI",
        ))
    })
}

/// `MPI_Comm_disconnect`: waits for pending communication on the communicator, then frees it.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_disconnect(comm: *mut MPI_Comm) -> c_int {
    let scope = if comm.is_null() {
        Scope::NoObject
    } else {
        // SAFETY: the entry point's own pointer arguments, valid as the standard says (capi/mod.rs).
        Scope::Comm(unsafe { *comm })
    };
    entry!("MPI_Comm_disconnect", scope, {
        let out = try_out!(comm);
        rt().comm_disconnect(Handle(out.get()))?;
        out.set(MPI_COMM_NULL);
        Ok(())
    })
}
