//! Collective entry points over one process (MPI 4.1 §6): barrier and broadcast only check
//! their arguments; reduce and allreduce copy the send buffer into the receive buffer along the
//! datatype's typemap (the reduction of one contribution is that contribution).

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::core::reduce::CollArgs;
use crate::core::{Error, Handle, Result, Runtime};
use crate::entry;
use std::ffi::{c_int, c_void};

fn rt() -> &'static Runtime {
    Runtime::global()
}

/// `MPI_IN_PLACE`, as `include/mpi_fragment.h` defines it (`((void *)1)`, the MPI 5.0 ABI
/// value). `consts.rs` holds only integer constants, so the sentinel address is named here.
const IN_PLACE_ADDRESS: usize = 1;

/// Addresses below this cannot hold user data: a NULL buffer with data near it is an error, while
/// `MPI_BOTTOM` (NULL) with absolute addresses from `MPI_Get_address` is fine.
const FIRST_USER_PAGE: i64 = 4096;

fn is_in_place(p: *const c_void) -> bool {
    p as usize == IN_PLACE_ADDRESS
}

/// `MPI_ERR_BUFFER` when `buf` is NULL and the data would lie in the first page.
fn check_buffer(buf: *const c_void, blocks: &[(i64, i64)], name: &str) -> Result<()> {
    if buf.is_null() && blocks.iter().any(|&(off, _)| off < FIRST_USER_PAGE) {
        return Err(Error::invalid(
            MPI_ERR_BUFFER,
            format!("{name} is NULL but the datatype places data at offset 0"),
        ));
    }
    Ok(())
}

/// Copies every run `(offset, len)` from `src + offset` to `dst + offset`.
///
/// # Safety
/// Both buffers must hold the runs, as the MPI caller promises for its datatype and count.
unsafe fn copy_blocks(src: *const c_void, dst: *mut c_void, blocks: &[(i64, i64)]) {
    for &(off, len) in blocks {
        let s = src.cast::<u8>().wrapping_offset(off as isize);
        let d = dst.cast::<u8>().wrapping_offset(off as isize);
        // `copy` (memmove): a user's overlapping runs must not be undefined behaviour here.
        unsafe { std::ptr::copy(s, d, len as usize) };
    }
}

/// Reduce and allreduce over one process: the checks, then the copy unless in place.
///
/// # Safety
/// As [`copy_blocks`].
unsafe fn reduce_local(sendbuf: *const c_void, recvbuf: *mut c_void, args: CollArgs) -> Result<()> {
    let blocks = rt().collective_blocks(args)?;
    if is_in_place(recvbuf) {
        return Err(Error::invalid(
            MPI_ERR_BUFFER,
            "recvbuf is MPI_IN_PLACE (only sendbuf may be)",
        ));
    }
    if is_in_place(sendbuf) {
        // MPI 4.1 §6.9.1: the input is taken from the receive buffer; with one process it is
        // already the result.
        return check_buffer(recvbuf, &blocks, "recvbuf");
    }
    check_buffer(sendbuf, &blocks, "sendbuf")?;
    check_buffer(recvbuf, &blocks, "recvbuf")?;
    if sendbuf == recvbuf.cast_const() && !blocks.is_empty() {
        return Err(Error::invalid(
            MPI_ERR_BUFFER,
            "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)",
        ));
    }
    unsafe { copy_blocks(sendbuf, recvbuf, &blocks) };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Barrier(comm: MPI_Comm) -> c_int {
    entry!("MPI_Barrier", Scope::Comm(comm), {
        rt().barrier(Handle(comm))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Bcast(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Bcast", Scope::Comm(comm), {
        let blocks = rt().collective_blocks(CollArgs {
            comm: Handle(comm),
            count: count.into(),
            datatype: Handle(datatype),
            op: None,
            root: Some(root),
        })?;
        // The root's buffer is already the broadcast value.
        check_buffer(buffer, &blocks, "buffer")
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Reduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Reduce", Scope::Comm(comm), {
        unsafe {
            reduce_local(
                sendbuf,
                recvbuf,
                CollArgs {
                    comm: Handle(comm),
                    count: count.into(),
                    datatype: Handle(datatype),
                    op: Some(Handle(op)),
                    root: Some(root),
                },
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Allreduce", Scope::Comm(comm), {
        unsafe {
            reduce_local(
                sendbuf,
                recvbuf,
                CollArgs {
                    comm: Handle(comm),
                    count: count.into(),
                    datatype: Handle(datatype),
                    op: Some(Handle(op)),
                    root: None,
                },
            )
        }
    })
}
