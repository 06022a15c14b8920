//! Collective entry points over one process (MPI 4.1 §6): barrier and broadcast only check
//! their arguments; reduce and allreduce copy the send buffer into the receive buffer along the
//! datatype's typemap (the reduction of one contribution is that contribution).

use crate::boundary::{rt, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::entry;
use crate::world::reduce::CollArgs;
use crate::world::{Error, Handle, Result};
use std::ffi::{c_int, c_void};

/// `MPI_IN_PLACE`, as `include/mpi_fragment.h` defines it (`((void *)1)`, the MPI 5.0 ABI
/// value). `consts.rs` holds only integer constants, so the sentinel address is named here.
const IN_PLACE_ADDRESS: usize = 1;

/// Addresses below this cannot hold user data: a NULL buffer with data near it is an error, while
/// `MPI_BOTTOM` (NULL) with absolute addresses from `MPI_Get_address` is fine.
const FIRST_USER_PAGE: i64 = 4096;

pub(crate) fn is_in_place(p: *const c_void) -> bool {
    p as usize == IN_PLACE_ADDRESS
}

/// `MPI_ERR_BUFFER` when `buf` is NULL and the data would lie in the first page.
pub(crate) fn check_buffer(buf: *const c_void, blocks: &[(i64, i64)], name: &str) -> Result<()> {
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
        // SAFETY: both buffers hold every run (this function's `# Safety`): `s` and `d` start the
        // same run in each.
        unsafe { std::ptr::copy(s, d, len as usize) };
    }
}

/// Reduce and allreduce over one process: the checks, then the copy unless in place.
///
/// # Safety
/// As [`copy_blocks`].
pub(crate) unsafe fn reduce_local(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    args: CollArgs,
) -> Result<()> {
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
    // SAFETY: `sendbuf`, `recvbuf` are valid here by this function's contract (its `# Safety`).
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
        // SAFETY: `reduce_local` needs both buffers to hold count x datatype (MPI's contract for
        // this routine, capi/mod.rs).
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
        // SAFETY: `reduce_local` needs both buffers to hold count x datatype (MPI's contract for
        // this routine, capi/mod.rs).
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

/// One process's part of a data-moving collective (gather, scatter, allgather, alltoall): the
/// send side's bytes, in typemap order, land in the receive side's typemap (MPI 4.1 §6.5). The
/// signatures must agree: more data sent than the receive side holds is `MPI_ERR_TRUNCATE`.
///
/// # Safety
/// Both buffers must hold their typemaps, as the MPI caller promises.
///
/// Generic in the count type: one body serves `int` and `MPI_Count` (the `_c` forms).
pub(crate) unsafe fn transfer<C: Into<i64>>(
    comm: MPI_Comm,
    root: Option<c_int>,
    send: (*const c_void, C, MPI_Datatype),
    recv: (*mut c_void, C, MPI_Datatype),
) -> Result<()> {
    let args = |count: i64, datatype: MPI_Datatype| CollArgs {
        comm: Handle(comm),
        count,
        datatype: Handle(datatype),
        op: None,
        root,
    };
    let (sendbuf, recvbuf) = (send.0, recv.0);
    let (send, recv) = (
        (send.0, send.1.into(), send.2),
        (recv.0, recv.1.into(), recv.2),
    );
    if is_in_place(recvbuf) {
        // Only the root of a scatter may pass MPI_IN_PLACE as recvbuf: its part stays in place.
        rt().collective_blocks(args(send.1, send.2))?;
        return Ok(());
    }
    let rblocks = rt().collective_blocks(args(recv.1, recv.2))?;
    check_buffer(recvbuf, &rblocks, "recvbuf")?;
    if is_in_place(sendbuf) {
        // MPI 4.1 §6.5, §6.7: the process's own part is already in the receive buffer.
        return Ok(());
    }
    let sblocks = rt().collective_blocks(args(send.1, send.2))?;
    check_buffer(sendbuf, &sblocks, "sendbuf")?;
    let sent: i64 = sblocks.iter().map(|&(_, len)| len).sum();
    let room: i64 = rblocks.iter().map(|&(_, len)| len).sum();
    if sent > room {
        return Err(Error::invalid(
            MPI_ERR_TRUNCATE,
            format!("{sent} bytes sent but the receive buffer holds {room}"),
        ));
    }
    // Pack the send side, then unpack into the receive side (the two typemaps may differ).
    let mut packed = Vec::with_capacity(sent as usize);
    for &(off, len) in &sblocks {
        let s = sendbuf.cast::<u8>().wrapping_offset(off as isize);
        // SAFETY: `sendbuf` holds every run of its typemap (this function's `# Safety`), and `s` is
        // the start of one of them.
        packed.extend_from_slice(unsafe { std::slice::from_raw_parts(s, len as usize) });
    }
    let mut at = 0usize;
    for &(off, len) in &rblocks {
        if at >= packed.len() {
            break;
        }
        let n = (len as usize).min(packed.len() - at);
        let d = recvbuf.cast::<u8>().wrapping_offset(off as isize);
        // SAFETY: `recvbuf` holds every run of its typemap (this function's `# Safety`), `d` starts
        // one and `n` is at most its length; `packed` is ours, so they do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(packed.as_ptr().add(at), d, n) };
        at += n;
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Gather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Gather", Scope::Comm(comm), {
        // SAFETY: `transfer` needs both buffers to hold their count x datatype (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe {
            transfer(
                comm,
                Some(root),
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcount, recvtype),
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Scatter(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Scatter", Scope::Comm(comm), {
        // SAFETY: `transfer` needs both buffers to hold their count x datatype (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe {
            transfer(
                comm,
                Some(root),
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcount, recvtype),
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Allgather", Scope::Comm(comm), {
        // SAFETY: `transfer` needs both buffers to hold their count x datatype (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe {
            transfer(
                comm,
                None,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcount, recvtype),
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Alltoall", Scope::Comm(comm), {
        // SAFETY: `transfer` needs both buffers to hold their count x datatype (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe {
            transfer(
                comm,
                None,
                (sendbuf, sendcount, sendtype),
                (recvbuf, recvcount, recvtype),
            )
        }
    })
}

/// `MPI_Scan`: the prefix reduction over one process is its own contribution.
#[no_mangle]
pub unsafe extern "C" fn MPI_Scan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Scan", Scope::Comm(comm), {
        // SAFETY: `reduce_local` needs both buffers to hold count x datatype (MPI's contract for
        // this routine, capi/mod.rs).
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

/// `MPI_Exscan`: rank 0's receive buffer is undefined (MPI 4.1 §6.11.2), so nothing moves.
#[no_mangle]
pub unsafe extern "C" fn MPI_Exscan(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    let _ = (sendbuf, recvbuf);
    entry!("MPI_Exscan", Scope::Comm(comm), {
        rt().collective_blocks(CollArgs {
            comm: Handle(comm),
            count: count.into(),
            datatype: Handle(datatype),
            op: Some(Handle(op)),
            root: None,
        })
        .map(drop)
    })
}
