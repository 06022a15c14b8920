//! Buffers for buffered sends (MPI 4.1 §3.6.1): the process's (`MPI_Buffer_*`) and a
//! communicator's (`MPI_Comm_*_buffer`), with the `_c` forms and flushes. `MPI_BUFFER_AUTOMATIC`
//! attaches a buffer the library grows as needed: its room has no bound here, since messages
//! are copied into memory of the library's own.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::p2p::BufferOwner;
use crate::world::{Error, Handle, Result};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_int, c_void};

/// `MPI_BUFFER_AUTOMATIC`, as include/mpi_fragment.h defines it (`((void *)2)`, MPI 5.0 ABI).
const AUTOMATIC: usize = 2;

pub(crate) fn attach(owner: BufferOwner, buffer: *mut c_void, size: i64) -> Result<()> {
    if buffer as usize == AUTOMATIC {
        return rt().buffer_attach(owner, AUTOMATIC, i64::MAX);
    }
    if size > 0 {
        nonnull!(buffer);
    }
    rt().buffer_attach(owner, buffer as usize, size)
}

/// Detaches and writes the buffer's address (into a `void **`) and size.
///
/// # Safety
/// `buffer_addr` is a `void **` (MPI 4.1 §3.6.1); both writable (checked).
pub(crate) unsafe fn detach<T: TryFrom<i64>>(
    owner: BufferOwner,
    buffer_addr: *mut c_void,
    size: *mut T,
) -> Result<()> {
    nonnull!(buffer_addr, size);
    let (addr, n) = rt().buffer_detach(owner)?;
    let n = if addr == AUTOMATIC { 0 } else { n };
    // A buffer attached with a large size and detached through the `int` form: its size does
    // not fit (the buffer is detached all the same, as the call asked).
    let fitted = T::try_from(n).map_err(|_| {
        Error::invalid(
            MPI_ERR_COUNT,
            format!("the detached buffer's size {n} does not fit an int (use the _c form)"),
        )
    });
    // SAFETY: `buffer_addr` is valid here by this function's contract (its `# Safety`).
    unsafe { *buffer_addr.cast::<*mut c_void>() = addr as *mut c_void };
    // SAFETY: `size` is valid here by this function's contract (its `# Safety`).
    unsafe { *size = fitted? };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_attach(buffer: *mut c_void, size: c_int) -> c_int {
    entry!("MPI_Buffer_attach", Scope::NoObject, {
        attach(None, buffer, size.into())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_attach_c(buffer: *mut c_void, size: MPI_Count) -> c_int {
    entry!("MPI_Buffer_attach_c", Scope::NoObject, {
        attach(None, buffer, size)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_detach(buffer_addr: *mut c_void, size: *mut c_int) -> c_int {
    entry!("MPI_Buffer_detach", Scope::NoObject, {
        // SAFETY: `detach` needs `buffer_addr` a writable `void **` and `size` writable (MPI's
        // contract for this routine, capi/mod.rs).
        unsafe { detach(None, buffer_addr, size) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_detach_c(
    buffer_addr: *mut c_void,
    size: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Buffer_detach_c", Scope::NoObject, {
        // SAFETY: `detach` needs `buffer_addr` a writable `void **` and `size` writable (MPI's
        // contract for this routine, capi/mod.rs).
        unsafe { detach(None, buffer_addr, size) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_flush() -> c_int {
    entry!("MPI_Buffer_flush", Scope::NoObject, {
        rt().buffer_flush(None)
    })
}

/// `MPI_Buffer_iflush`: the flush is done when it starts; the request is complete.
#[no_mangle]
pub unsafe extern "C" fn MPI_Buffer_iflush(request: *mut MPI_Request) -> c_int {
    entry!("MPI_Buffer_iflush", Scope::NoObject, {
        let request = try_out!(request);
        rt().buffer_flush(None)?;
        request.set(rt().completed_request()?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_attach_buffer(
    comm: MPI_Comm,
    buffer: *mut c_void,
    size: c_int,
) -> c_int {
    entry!("MPI_Comm_attach_buffer", Scope::Comm(comm), {
        attach(Some(Handle(comm)), buffer, size.into())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_attach_buffer_c(
    comm: MPI_Comm,
    buffer: *mut c_void,
    size: MPI_Count,
) -> c_int {
    entry!("MPI_Comm_attach_buffer_c", Scope::Comm(comm), {
        attach(Some(Handle(comm)), buffer, size)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_detach_buffer(
    comm: MPI_Comm,
    buffer_addr: *mut c_void,
    size: *mut c_int,
) -> c_int {
    entry!("MPI_Comm_detach_buffer", Scope::Comm(comm), {
        // SAFETY: `detach` needs `buffer_addr` a writable `void **` and `size` writable (MPI's
        // contract for this routine, capi/mod.rs).
        unsafe { detach(Some(Handle(comm)), buffer_addr, size) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_detach_buffer_c(
    comm: MPI_Comm,
    buffer_addr: *mut c_void,
    size: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Comm_detach_buffer_c", Scope::Comm(comm), {
        // SAFETY: `detach` needs `buffer_addr` a writable `void **` and `size` writable (MPI's
        // contract for this routine, capi/mod.rs).
        unsafe { detach(Some(Handle(comm)), buffer_addr, size) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_flush_buffer(comm: MPI_Comm) -> c_int {
    entry!("MPI_Comm_flush_buffer", Scope::Comm(comm), {
        rt().buffer_flush(Some(Handle(comm)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_iflush_buffer(
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Comm_iflush_buffer", Scope::Comm(comm), {
        let request = try_out!(request);
        rt().buffer_flush(Some(Handle(comm)))?;
        request.set(rt().completed_request()?.0);
        Ok(())
    })
}
