//! MPI-IO data access entry points (MPI 4.1 §14.4): explicit offsets, individual and shared
//! file pointers; blocking, nonblocking (complete when they return: their requests wait at
//! once) and split collective forms, each with its `_c` twin. The memory side goes through the
//! datatype's runs (capi/p2p.rs's pack and unpack); statuses count the bytes moved, so
//! `MPI_Get_count` gives the elements.

use crate::boundary::{rt, Scope};
use crate::capi::p2p::{pack, unpack};
use crate::capi::status;
use crate::capi::types::*;
use crate::entry;
use crate::error::Result;
use crate::world::file::Pointer;
use crate::world::status::Status;
use crate::world::Handle;
use std::ffi::{c_int, c_void};

/// Reads `count` x `datatype` into `buf` from where `ptr` says.
///
/// # Safety
/// `buf` holds the datatype's runs, as the MPI caller promises.
unsafe fn read(
    fh: MPI_File,
    ptr: Pointer,
    buf: *mut c_void,
    count: i64,
    datatype: MPI_Datatype,
    what: &str,
) -> Result<Status> {
    let blocks = rt().p2p_blocks(Handle(datatype), count)?;
    let n: i64 = blocks.iter().map(|b| b.1).sum();
    let (data, st) = rt().file_read(Handle(fh), ptr, n, what)?;
    // SAFETY: `buf` holds the runs (this function's contract).
    unsafe { unpack(buf as usize, &blocks, &data) };
    Ok(st)
}

/// Writes `count` x `datatype` from `buf` where `ptr` says.
///
/// # Safety
/// As [`read`].
unsafe fn write(
    fh: MPI_File,
    ptr: Pointer,
    buf: *const c_void,
    count: i64,
    datatype: MPI_Datatype,
    what: &str,
) -> Result<Status> {
    rt().p2p_blocks(Handle(datatype), count)?;
    // SAFETY: `buf` holds the runs (this function's contract).
    let data = unsafe { pack(buf, count, datatype) }?;
    rt().file_write(Handle(fh), ptr, &data, what)
}

/// Writes a nonblocking access's request (checked before the access runs).
fn request_out(request: *mut MPI_Request) -> Result<crate::boundary::Out<MPI_Request>> {
    let request = crate::try_out!(request);
    Ok(request)
}

/// Ends a split collective: the `_begin`'s status.
///
/// # Safety
/// `status` is NULL (`MPI_STATUS_IGNORE`) or writable.
unsafe fn end(fh: MPI_File, begin: &'static str, name: &str, s: *mut MPI_Status) -> Result<()> {
    let st = rt().file_split_end(Handle(fh), begin, name)?;
    // SAFETY: this function's contract.
    unsafe { status::write(s, &st) };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_at(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_at", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_read_at",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_at_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_at_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_read_at_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_at_all(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_at_all", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_read_at_all",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_at_all_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_at_all_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_read_at_all_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_at(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_at", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_write_at",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_at_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_at_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_write_at_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_at_all(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_at_all", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_write_at_all",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_at_all_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_at_all_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_write_at_all_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_read",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_read_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_all(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_all", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_read_all",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_all_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_all_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_read_all_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_write",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_write_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_all(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_all", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_write_all",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_all_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_all_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_write_all_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_shared(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_shared", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Shared,
                buf,
                count.into(),
                datatype,
                "MPI_File_read_shared",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_shared_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_shared_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Shared,
                buf,
                count,
                datatype,
                "MPI_File_read_shared_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_shared(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_shared", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Shared,
                buf,
                count.into(),
                datatype,
                "MPI_File_write_shared",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_shared_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_shared_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Shared,
                buf,
                count,
                datatype,
                "MPI_File_write_shared_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_ordered(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_ordered", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Shared,
                buf,
                count.into(),
                datatype,
                "MPI_File_read_ordered",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_ordered_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_read_ordered_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Shared,
                buf,
                count,
                datatype,
                "MPI_File_read_ordered_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_ordered(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_ordered", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Shared,
                buf,
                count.into(),
                datatype,
                "MPI_File_write_ordered",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_ordered_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_File_write_ordered_c", Scope::File(fh), {
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Shared,
                buf,
                count,
                datatype,
                "MPI_File_write_ordered_c",
            )
        }?;
        // SAFETY: NULL (MPI_STATUS_IGNORE) or writable (capi/mod.rs contract).
        unsafe { status::write(status, &st) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_at(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_at", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_iread_at",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_at_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_at_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_iread_at_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_at_all(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_at_all", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_iread_at_all",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_at_all_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_at_all_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_iread_at_all_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_at(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_at", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_iwrite_at",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_at_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_at_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_iwrite_at_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_at_all(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_at_all", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_iwrite_at_all",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_at_all_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_at_all_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_iwrite_at_all_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_iread",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_iread_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_all(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_all", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_iread_all",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_all_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_all_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_iread_all_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_iwrite",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_iwrite_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_all(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_all", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_iwrite_all",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_all_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_all_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_iwrite_all_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_shared(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_shared", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Shared,
                buf,
                count.into(),
                datatype,
                "MPI_File_iread_shared",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iread_shared_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iread_shared_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Shared,
                buf,
                count,
                datatype,
                "MPI_File_iread_shared_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_shared(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_shared", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Shared,
                buf,
                count.into(),
                datatype,
                "MPI_File_iwrite_shared",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_iwrite_shared_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_File_iwrite_shared_c", Scope::File(fh), {
        let request = request_out(request)?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Shared,
                buf,
                count,
                datatype,
                "MPI_File_iwrite_shared_c",
            )
        }?;
        request.set(rt().file_request(st)?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_at_all_begin(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_read_at_all_begin", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_read_at_all_begin",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_read_at_all_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_at_all_begin_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_read_at_all_begin_c", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_read_at_all_begin_c",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_read_at_all_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_at_all_end(
    fh: MPI_File,
    buf: *mut c_void,
    status: *mut MPI_Status,
) -> c_int {
    let _ = buf;
    entry!("MPI_File_read_at_all_end", Scope::File(fh), {
        // SAFETY: `status` is the routine's, NULL (MPI_STATUS_IGNORE) or writable (MPI's contract,
        // capi/mod.rs), which is what `end` asks.
        unsafe {
            end(
                fh,
                "MPI_File_read_at_all_begin",
                "MPI_File_read_at_all_end",
                status,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_at_all_begin(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_write_at_all_begin", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count.into(),
                datatype,
                "MPI_File_write_at_all_begin",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_write_at_all_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_at_all_begin_c(
    fh: MPI_File,
    offset: MPI_Offset,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_write_at_all_begin_c", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Explicit(offset),
                buf,
                count,
                datatype,
                "MPI_File_write_at_all_begin_c",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_write_at_all_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_at_all_end(
    fh: MPI_File,
    buf: *const c_void,
    status: *mut MPI_Status,
) -> c_int {
    let _ = buf;
    entry!("MPI_File_write_at_all_end", Scope::File(fh), {
        // SAFETY: `status` is the routine's, NULL (MPI_STATUS_IGNORE) or writable (MPI's contract,
        // capi/mod.rs), which is what `end` asks.
        unsafe {
            end(
                fh,
                "MPI_File_write_at_all_begin",
                "MPI_File_write_at_all_end",
                status,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_all_begin(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_read_all_begin", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_read_all_begin",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_read_all_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_all_begin_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_read_all_begin_c", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_read_all_begin_c",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_read_all_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_all_end(
    fh: MPI_File,
    buf: *mut c_void,
    status: *mut MPI_Status,
) -> c_int {
    let _ = buf;
    entry!("MPI_File_read_all_end", Scope::File(fh), {
        // SAFETY: `status` is the routine's, NULL (MPI_STATUS_IGNORE) or writable (MPI's contract,
        // capi/mod.rs), which is what `end` asks.
        unsafe {
            end(
                fh,
                "MPI_File_read_all_begin",
                "MPI_File_read_all_end",
                status,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_all_begin(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_write_all_begin", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count.into(),
                datatype,
                "MPI_File_write_all_begin",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_write_all_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_all_begin_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_write_all_begin_c", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Individual,
                buf,
                count,
                datatype,
                "MPI_File_write_all_begin_c",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_write_all_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_all_end(
    fh: MPI_File,
    buf: *const c_void,
    status: *mut MPI_Status,
) -> c_int {
    let _ = buf;
    entry!("MPI_File_write_all_end", Scope::File(fh), {
        // SAFETY: `status` is the routine's, NULL (MPI_STATUS_IGNORE) or writable (MPI's contract,
        // capi/mod.rs), which is what `end` asks.
        unsafe {
            end(
                fh,
                "MPI_File_write_all_begin",
                "MPI_File_write_all_end",
                status,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_ordered_begin(
    fh: MPI_File,
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_read_ordered_begin", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Shared,
                buf,
                count.into(),
                datatype,
                "MPI_File_read_ordered_begin",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_read_ordered_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_ordered_begin_c(
    fh: MPI_File,
    buf: *mut c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_read_ordered_begin_c", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, room for `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `read` asks.
        let st = unsafe {
            read(
                fh,
                Pointer::Shared,
                buf,
                count,
                datatype,
                "MPI_File_read_ordered_begin_c",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_read_ordered_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_read_ordered_end(
    fh: MPI_File,
    buf: *mut c_void,
    status: *mut MPI_Status,
) -> c_int {
    let _ = buf;
    entry!("MPI_File_read_ordered_end", Scope::File(fh), {
        // SAFETY: `status` is the routine's, NULL (MPI_STATUS_IGNORE) or writable (MPI's contract,
        // capi/mod.rs), which is what `end` asks.
        unsafe {
            end(
                fh,
                "MPI_File_read_ordered_begin",
                "MPI_File_read_ordered_end",
                status,
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_ordered_begin(
    fh: MPI_File,
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_write_ordered_begin", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Shared,
                buf,
                count.into(),
                datatype,
                "MPI_File_write_ordered_begin",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_write_ordered_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_ordered_begin_c(
    fh: MPI_File,
    buf: *const c_void,
    count: MPI_Count,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_File_write_ordered_begin_c", Scope::File(fh), {
        rt().file_split_check(Handle(fh))?;
        // SAFETY: `buf` is the routine's buffer, holding `count` x `datatype` (MPI's contract,
        // capi/mod.rs), which is what `write` asks.
        let st = unsafe {
            write(
                fh,
                Pointer::Shared,
                buf,
                count,
                datatype,
                "MPI_File_write_ordered_begin_c",
            )
        }?;
        rt().file_split_begin(Handle(fh), "MPI_File_write_ordered_begin", st)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_File_write_ordered_end(
    fh: MPI_File,
    buf: *const c_void,
    status: *mut MPI_Status,
) -> c_int {
    let _ = buf;
    entry!("MPI_File_write_ordered_end", Scope::File(fh), {
        // SAFETY: `status` is the routine's, NULL (MPI_STATUS_IGNORE) or writable (MPI's contract,
        // capi/mod.rs), which is what `end` asks.
        unsafe {
            end(
                fh,
                "MPI_File_write_ordered_begin",
                "MPI_File_write_ordered_end",
                status,
            )
        }
    })
}
