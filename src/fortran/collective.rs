//! Fortran collectives over one process (MPI 4.1 §6). The buffers are choice buffers: they
//! arrive as raw addresses, the sentinels MPI_BOTTOM and MPI_IN_PLACE are recognised by the
//! address of their COMMON block ([`crate::fortran::sentinels`]) and handed to the C entry point
//! as C's values, which then does exactly what it does for C (its own boundary reports errors,
//! under the C name of the call).

use crate::boundary::Scope;
use crate::capi::collective::{
    MPI_Allgather, MPI_Allreduce, MPI_Alltoall, MPI_Bcast, MPI_Gather, MPI_Reduce, MPI_Scatter,
};
use crate::consts::{
    MPI_COMM_NULL, MPI_ERR_COMM, MPI_ERR_COUNT, MPI_ERR_OP, MPI_ERR_ROOT, MPI_ERR_TYPE,
};
use crate::fentry;
use crate::fortran::sentinels::{choice, choice_mut};
use crate::fortran::{by_ref, fint, narrow, read_narrow, scope_handle, MPI_Fint};
use crate::nonnull;
use crate::world::{Handle, Runtime};
use std::ffi::c_void;

/// Stores a C entry point's return code in IERROR.
///
/// # Safety
/// `ierror` is NULL or the caller's INTEGER.
unsafe fn set_ierror(ierror: *mut MPI_Fint, rc: MPI_Fint) {
    if !ierror.is_null() {
        // SAFETY: `ierror` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *ierror = rc };
    }
}

/// `MPI_BARRIER(COMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_barrier_(comm: *const MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    fentry!(
        ierror,
        "MPI_BARRIER",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        { Runtime::global().barrier(Handle(narrow(c, MPI_ERR_COMM, "comm")?)) }
    )
}

/// `MPI_BCAST(BUFFER, COUNT, DATATYPE, ROOT, COMM, IERROR)`, BUFFER a choice buffer.
#[no_mangle]
pub unsafe extern "C" fn mpi_bcast_(
    buffer: *mut c_void,
    count: *const MPI_Fint,
    datatype: *const MPI_Fint,
    root: *const MPI_Fint,
    comm: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    // The INTEGER arguments as the C entry point's ints (checked: with 8-byte INTEGERs a value
    // that does not fit is an error, not a truncation); the C entry point does the rest.
    let mut args = None;
    fentry!(
        ierror,
        "MPI_BCAST",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            nonnull!(count, datatype, root);
            args = Some(unsafe {
                (
                    read_narrow(count, MPI_ERR_COUNT, "count")?,
                    read_narrow(datatype, MPI_ERR_TYPE, "datatype")?,
                    read_narrow(root, MPI_ERR_ROOT, "root")?,
                    narrow(c, MPI_ERR_COMM, "comm")?,
                )
            });
            Ok(())
        }
    );
    let Some((count, datatype, root, c)) = args else {
        return;
    };
    let rc = unsafe { MPI_Bcast(choice_mut(buffer), count, datatype, root, c) };
    // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
    unsafe { set_ierror(ierror, fint(rc)) };
}

/// `MPI_REDUCE(SENDBUF, RECVBUF, COUNT, DATATYPE, OP, ROOT, COMM, IERROR)`, SENDBUF and RECVBUF
/// choice buffers; SENDBUF may be MPI_IN_PLACE (MPI 4.1 §6.9.1).
#[no_mangle]
pub unsafe extern "C" fn mpi_reduce_(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: *const MPI_Fint,
    datatype: *const MPI_Fint,
    op: *const MPI_Fint,
    root: *const MPI_Fint,
    comm: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    let mut args = None;
    fentry!(
        ierror,
        "MPI_REDUCE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            nonnull!(count, datatype, op, root);
            args = Some(unsafe {
                (
                    read_narrow(count, MPI_ERR_COUNT, "count")?,
                    read_narrow(datatype, MPI_ERR_TYPE, "datatype")?,
                    read_narrow(op, MPI_ERR_OP, "op")?,
                    read_narrow(root, MPI_ERR_ROOT, "root")?,
                    narrow(c, MPI_ERR_COMM, "comm")?,
                )
            });
            Ok(())
        }
    );
    let Some((count, datatype, op, root, c)) = args else {
        return;
    };
    let rc = unsafe {
        MPI_Reduce(
            choice(sendbuf),
            choice_mut(recvbuf),
            count,
            datatype,
            op,
            root,
            c,
        )
    };
    // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
    unsafe { set_ierror(ierror, fint(rc)) };
}

/// `MPI_ALLREDUCE(SENDBUF, RECVBUF, COUNT, DATATYPE, OP, COMM, IERROR)`, SENDBUF and RECVBUF
/// choice buffers; SENDBUF may be MPI_IN_PLACE (MPI 4.1 §6.9.6).
#[no_mangle]
pub unsafe extern "C" fn mpi_allreduce_(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: *const MPI_Fint,
    datatype: *const MPI_Fint,
    op: *const MPI_Fint,
    comm: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    let mut args = None;
    fentry!(
        ierror,
        "MPI_ALLREDUCE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            nonnull!(count, datatype, op);
            args = Some(unsafe {
                (
                    read_narrow(count, MPI_ERR_COUNT, "count")?,
                    read_narrow(datatype, MPI_ERR_TYPE, "datatype")?,
                    read_narrow(op, MPI_ERR_OP, "op")?,
                    narrow(c, MPI_ERR_COMM, "comm")?,
                )
            });
            Ok(())
        }
    );
    let Some((count, datatype, op, c)) = args else {
        return;
    };
    let rc = unsafe { MPI_Allreduce(choice(sendbuf), choice_mut(recvbuf), count, datatype, op, c) };
    // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
    unsafe { set_ierror(ierror, fint(rc)) };
}

/// The INTEGER arguments of a data-moving collective, checked: (sendcount, sendtype,
/// recvcount, recvtype, root, comm). `None` after an error, which is already in IERROR.
///
/// # Safety
/// The pointers are the caller's INTEGERs.
#[allow(clippy::too_many_arguments)]
unsafe fn transfer_args(
    name: &'static str,
    sendcount: *const MPI_Fint,
    sendtype: *const MPI_Fint,
    recvcount: *const MPI_Fint,
    recvtype: *const MPI_Fint,
    root: Option<*const MPI_Fint>,
    comm: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) -> Option<(i32, i32, i32, i32, i32, i32)> {
    // SAFETY: `comm` NULL or valid (fortran/mod.rs contract).
    let c = unsafe { by_ref(comm, MPI_COMM_NULL) };
    let mut args = None;
    let rc = crate::entry!(name, Scope::Comm(scope_handle(c, MPI_COMM_NULL)), {
        nonnull!(sendcount, sendtype, recvcount, recvtype);
        let root = match root {
            Some(p) => {
                nonnull!(p);
                // SAFETY: `p` checked non-NULL above (fortran/mod.rs contract).
                unsafe { read_narrow(p, MPI_ERR_ROOT, "root") }?
            }
            None => 0,
        };
        args = Some(unsafe {
            (
                read_narrow(sendcount, MPI_ERR_COUNT, "sendcount")?,
                read_narrow(sendtype, MPI_ERR_TYPE, "sendtype")?,
                read_narrow(recvcount, MPI_ERR_COUNT, "recvcount")?,
                read_narrow(recvtype, MPI_ERR_TYPE, "recvtype")?,
                root,
                narrow(c, MPI_ERR_COMM, "comm")?,
            )
        });
        Ok(())
    });
    if args.is_none() {
        // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
        unsafe { set_ierror(ierror, fint(rc)) };
    }
    args
}

/// `MPI_GATHER(SENDBUF, SENDCOUNT, SENDTYPE, RECVBUF, RECVCOUNT, RECVTYPE, ROOT, COMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_gather_(
    sendbuf: *const c_void,
    sendcount: *const MPI_Fint,
    sendtype: *const MPI_Fint,
    recvbuf: *mut c_void,
    recvcount: *const MPI_Fint,
    recvtype: *const MPI_Fint,
    root: *const MPI_Fint,
    comm: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let Some((sc, st, rc, rt, root, c)) = (unsafe {
        transfer_args(
            "MPI_GATHER",
            sendcount,
            sendtype,
            recvcount,
            recvtype,
            Some(root),
            comm,
            ierror,
        )
    }) else {
        return;
    };
    let code = unsafe {
        MPI_Gather(
            choice(sendbuf),
            sc,
            st,
            choice_mut(recvbuf),
            rc,
            rt,
            root,
            c,
        )
    };
    // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
    unsafe { set_ierror(ierror, fint(code)) };
}

/// `MPI_SCATTER(SENDBUF, SENDCOUNT, SENDTYPE, RECVBUF, RECVCOUNT, RECVTYPE, ROOT, COMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_scatter_(
    sendbuf: *const c_void,
    sendcount: *const MPI_Fint,
    sendtype: *const MPI_Fint,
    recvbuf: *mut c_void,
    recvcount: *const MPI_Fint,
    recvtype: *const MPI_Fint,
    root: *const MPI_Fint,
    comm: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let Some((sc, st, rc, rt, root, c)) = (unsafe {
        transfer_args(
            "MPI_SCATTER",
            sendcount,
            sendtype,
            recvcount,
            recvtype,
            Some(root),
            comm,
            ierror,
        )
    }) else {
        return;
    };
    let code = unsafe {
        MPI_Scatter(
            choice(sendbuf),
            sc,
            st,
            choice_mut(recvbuf),
            rc,
            rt,
            root,
            c,
        )
    };
    // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
    unsafe { set_ierror(ierror, fint(code)) };
}

/// `MPI_ALLGATHER(SENDBUF, SENDCOUNT, SENDTYPE, RECVBUF, RECVCOUNT, RECVTYPE, COMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_allgather_(
    sendbuf: *const c_void,
    sendcount: *const MPI_Fint,
    sendtype: *const MPI_Fint,
    recvbuf: *mut c_void,
    recvcount: *const MPI_Fint,
    recvtype: *const MPI_Fint,
    comm: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let Some((sc, st, rc, rt, _, c)) = (unsafe {
        transfer_args(
            "MPI_ALLGATHER",
            sendcount,
            sendtype,
            recvcount,
            recvtype,
            None,
            comm,
            ierror,
        )
    }) else {
        return;
    };
    let code = unsafe { MPI_Allgather(choice(sendbuf), sc, st, choice_mut(recvbuf), rc, rt, c) };
    // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
    unsafe { set_ierror(ierror, fint(code)) };
}

/// `MPI_ALLTOALL(SENDBUF, SENDCOUNT, SENDTYPE, RECVBUF, RECVCOUNT, RECVTYPE, COMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_alltoall_(
    sendbuf: *const c_void,
    sendcount: *const MPI_Fint,
    sendtype: *const MPI_Fint,
    recvbuf: *mut c_void,
    recvcount: *const MPI_Fint,
    recvtype: *const MPI_Fint,
    comm: *const MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let Some((sc, st, rc, rt, _, c)) = (unsafe {
        transfer_args(
            "MPI_ALLTOALL",
            sendcount,
            sendtype,
            recvcount,
            recvtype,
            None,
            comm,
            ierror,
        )
    }) else {
        return;
    };
    let code = unsafe { MPI_Alltoall(choice(sendbuf), sc, st, choice_mut(recvbuf), rc, rt, c) };
    // SAFETY: `ierror` NULL or valid (fortran/mod.rs contract).
    unsafe { set_ierror(ierror, fint(code)) };
}
