//! The Fortran life-cycle routines that run callbacks: comm dup / dup_with_info / idup /
//! idup_with_info / free / disconnect, type dup / free, win free and finalize, in every
//! spelling (the engines' Fortran bindings reach `PMPI_*` directly for these, so the C
//! routines never see them). Each converts the handles and runs what the C routine runs.
#![allow(non_snake_case)]

use crate::error::Result;
use crate::kinds::ObjectKind;
use crate::layer::boundary::{engine_rc, Scope};
use crate::layer::c_life::{copy_to_new, finalize as finalize_layer, free_with};
use crate::layer::engine::{self, from_fortran, to_fortran, Handle, MPI_Fint};
use crate::layer::fortran::int;
use crate::{layer_fentry, layer_nonnull, layer_spellings};
use std::ffi::c_int;

fn comm_scope(comm: *const MPI_Fint) -> Scope {
    if comm.is_null() {
        return Scope::NoObject;
    }
    // SAFETY: non-NULL: the caller's INTEGER handle.
    Scope::Comm(engine::f2c(engine::FortranKind::Comm, unsafe { *comm }))
}

fn null(kind: ObjectKind) -> Handle {
    engine::facts().null_handle(kind)
}

/// A dup of kind `kind`: `make` is the engine's, then the copy callbacks run; the new handle
/// (the null handle when a copy callback failed) is written back in Fortran.
///
/// # Safety
/// `old` and `new` are NULL or references to INTEGER handles.
unsafe fn dup_f(
    kind: ObjectKind,
    old: *const MPI_Fint,
    new: *mut MPI_Fint,
    make: impl FnOnce(Handle, *mut Handle) -> c_int,
) -> Result<()> {
    layer_nonnull!(new);
    // SAFETY: `int` checks NULL; otherwise the caller's INTEGER handle.
    let o = engine::f2c(kind.into(), unsafe { int(old)? });
    let mut n = null(kind);
    engine_rc(make(o, &mut n))?;
    let free = match kind {
        ObjectKind::Datatype => engine::PMPI_Type_free,
        _ => engine::PMPI_Comm_free,
    };
    let outcome = copy_to_new(kind, o, &mut n, free);
    // SAFETY: checked non-NULL above; the caller's output handle.
    unsafe { *new = engine::c2f(kind.into(), n) };
    outcome
}

/// A free of kind `kind`: the delete callbacks, then the engine's `free`; the handle becomes
/// the null handle in Fortran.
///
/// # Safety
/// `obj` is NULL or a reference to an INTEGER handle.
unsafe fn free_f(
    kind: ObjectKind,
    obj: *mut MPI_Fint,
    free: unsafe extern "C" fn(*mut Handle) -> c_int,
) -> Result<()> {
    // SAFETY: `int` checks NULL; otherwise the caller's INOUT handle.
    let mut h = engine::f2c(kind.into(), unsafe { int(obj)? });
    // SAFETY: a handle of our own, readable and writable.
    unsafe { free_with(kind, &mut h, free)? };
    // SAFETY: read above, so non-NULL; the caller's INOUT handle.
    unsafe { *obj = engine::c2f(kind.into(), h) };
    Ok(())
}

pub unsafe fn comm_dup(comm: *const MPI_Fint, newcomm: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    layer_fentry!("MPI_COMM_DUP", comm_scope(comm), ierror, {
        // SAFETY: the caller's handle references, under the same contract; the engine's dup
        // with its handles and our outputs.
        unsafe {
            dup_f(ObjectKind::Comm, comm, newcomm, |o, n| {
                engine::PMPI_Comm_dup(o, n)
            })
        }
    })
}

pub unsafe fn comm_dup_with_info(
    comm: *const MPI_Fint,
    info: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!("MPI_COMM_DUP_WITH_INFO", comm_scope(comm), ierror, {
        // SAFETY: `int` checks NULL; otherwise the caller's INTEGER info handle.
        let i = unsafe { engine::f2c(engine::FortranKind::Info, int(info)?) };
        // SAFETY: the caller's handle references, under the same contract; the engine's dup
        // with its handles and our outputs.
        unsafe {
            dup_f(ObjectKind::Comm, comm, newcomm, |o, n| {
                engine::PMPI_Comm_dup_with_info(o, i, n)
            })
        }
    })
}

pub unsafe fn comm_idup(
    comm: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    request: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!("MPI_COMM_IDUP", comm_scope(comm), ierror, {
        layer_nonnull!(request);
        let mut r = null(ObjectKind::Comm);
        // SAFETY: the caller's handle references, under the same contract; the engine's dup
        // with its handles and our outputs.
        let out = unsafe {
            dup_f(ObjectKind::Comm, comm, newcomm, |o, n| {
                engine::PMPI_Comm_idup(o, n, &mut r)
            })
        };
        // SAFETY: checked non-NULL above; the caller's output request.
        unsafe { *request = engine::c2f(engine::FortranKind::Request, r) };
        out
    })
}

#[cfg(layer_idup_with_info)]
pub unsafe fn comm_idup_with_info(
    comm: *const MPI_Fint,
    info: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    request: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    layer_fentry!("MPI_COMM_IDUP_WITH_INFO", comm_scope(comm), ierror, {
        layer_nonnull!(request);
        // SAFETY: `int` checks NULL; otherwise the caller's INTEGER info handle.
        let i = unsafe { engine::f2c(engine::FortranKind::Info, int(info)?) };
        let mut r = null(ObjectKind::Comm);
        // SAFETY: the caller's handle references, under the same contract; the engine's dup
        // with its handles and our outputs.
        let out = unsafe {
            dup_f(ObjectKind::Comm, comm, newcomm, |o, n| {
                engine::PMPI_Comm_idup_with_info(o, i, n, &mut r)
            })
        };
        // SAFETY: checked non-NULL above; the caller's output request.
        unsafe { *request = engine::c2f(engine::FortranKind::Request, r) };
        out
    })
}

pub unsafe fn comm_free(comm: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    layer_fentry!("MPI_COMM_FREE", comm_scope(comm), ierror, {
        // SAFETY: the caller's INOUT handle reference, under the same contract.
        unsafe { free_f(ObjectKind::Comm, comm, engine::PMPI_Comm_free) }
    })
}

pub unsafe fn comm_disconnect(comm: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    layer_fentry!("MPI_COMM_DISCONNECT", comm_scope(comm), ierror, {
        // SAFETY: the caller's INOUT handle reference, under the same contract.
        unsafe { free_f(ObjectKind::Comm, comm, engine::PMPI_Comm_disconnect) }
    })
}

pub unsafe fn type_dup(oldtype: *const MPI_Fint, newtype: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    layer_fentry!("MPI_TYPE_DUP", Scope::NoObject, ierror, {
        // SAFETY: the caller's handle references, under the same contract; the engine's dup
        // with its handles and our outputs.
        unsafe {
            dup_f(ObjectKind::Datatype, oldtype, newtype, |o, n| {
                engine::PMPI_Type_dup(o, n)
            })
        }
    })
}

pub unsafe fn type_free(datatype: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    layer_fentry!("MPI_TYPE_FREE", Scope::NoObject, ierror, {
        // SAFETY: the caller's INOUT handle reference, under the same contract.
        unsafe { free_f(ObjectKind::Datatype, datatype, engine::PMPI_Type_free) }
    })
}

pub unsafe fn win_free(win: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    let scope = if win.is_null() {
        Scope::NoObject
    } else {
        // SAFETY: non-NULL: the caller's INTEGER handle.
        Scope::Win(engine::f2c(engine::FortranKind::Win, unsafe { *win }))
    };
    layer_fentry!("MPI_WIN_FREE", scope, ierror, {
        // SAFETY: the caller's INOUT handle reference, under the same contract.
        unsafe { free_f(ObjectKind::Win, win, engine::PMPI_Win_free) }
    })
}

pub unsafe fn finalize(ierror: *mut MPI_Fint) {
    layer_fentry!("MPI_FINALIZE", Scope::NoObject, ierror, {
        finalize_layer()
    })
}

layer_spellings!(comm_dup, (comm: *const MPI_Fint, newcomm: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_comm_dup_, mpi_comm_dup__, mpi_comm_dup, MPI_COMM_DUP, pmpi_comm_dup_, pmpi_comm_dup__, pmpi_comm_dup, PMPI_COMM_DUP, mpi_comm_dup_f08_, pmpi_comm_dup_f08_, pmpir_comm_dup_f08_);
layer_spellings!(comm_dup_with_info, (comm: *const MPI_Fint, info: *const MPI_Fint, newcomm: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_comm_dup_with_info_, mpi_comm_dup_with_info__, mpi_comm_dup_with_info, MPI_COMM_DUP_WITH_INFO, pmpi_comm_dup_with_info_, pmpi_comm_dup_with_info__, pmpi_comm_dup_with_info, PMPI_COMM_DUP_WITH_INFO, mpi_comm_dup_with_info_f08_, pmpi_comm_dup_with_info_f08_, pmpir_comm_dup_with_info_f08_);
layer_spellings!(comm_idup, (comm: *const MPI_Fint, newcomm: *mut MPI_Fint, request: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_comm_idup_, mpi_comm_idup__, mpi_comm_idup, MPI_COMM_IDUP, pmpi_comm_idup_, pmpi_comm_idup__, pmpi_comm_idup, PMPI_COMM_IDUP, mpi_comm_idup_f08_, pmpi_comm_idup_f08_, pmpir_comm_idup_f08_);
#[cfg(layer_idup_with_info)]
layer_spellings!(comm_idup_with_info, (comm: *const MPI_Fint, info: *const MPI_Fint, newcomm: *mut MPI_Fint, request: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_comm_idup_with_info_, mpi_comm_idup_with_info__, mpi_comm_idup_with_info, MPI_COMM_IDUP_WITH_INFO, pmpi_comm_idup_with_info_, pmpi_comm_idup_with_info__, pmpi_comm_idup_with_info, PMPI_COMM_IDUP_WITH_INFO, mpi_comm_idup_with_info_f08_, pmpi_comm_idup_with_info_f08_, pmpir_comm_idup_with_info_f08_);
layer_spellings!(comm_free, (comm: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_comm_free_, mpi_comm_free__, mpi_comm_free, MPI_COMM_FREE, pmpi_comm_free_, pmpi_comm_free__, pmpi_comm_free, PMPI_COMM_FREE, mpi_comm_free_f08_, pmpi_comm_free_f08_, pmpir_comm_free_f08_);
layer_spellings!(comm_disconnect, (comm: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_comm_disconnect_, mpi_comm_disconnect__, mpi_comm_disconnect, MPI_COMM_DISCONNECT, pmpi_comm_disconnect_, pmpi_comm_disconnect__, pmpi_comm_disconnect, PMPI_COMM_DISCONNECT, mpi_comm_disconnect_f08_, pmpi_comm_disconnect_f08_, pmpir_comm_disconnect_f08_);
layer_spellings!(type_dup, (oldtype: *const MPI_Fint, newtype: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_type_dup_, mpi_type_dup__, mpi_type_dup, MPI_TYPE_DUP, pmpi_type_dup_, pmpi_type_dup__, pmpi_type_dup, PMPI_TYPE_DUP, mpi_type_dup_f08_, pmpi_type_dup_f08_, pmpir_type_dup_f08_);
layer_spellings!(type_free, (datatype: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_type_free_, mpi_type_free__, mpi_type_free, MPI_TYPE_FREE, pmpi_type_free_, pmpi_type_free__, pmpi_type_free, PMPI_TYPE_FREE, mpi_type_free_f08_, pmpi_type_free_f08_, pmpir_type_free_f08_);
layer_spellings!(win_free, (win: *mut MPI_Fint, ierror: *mut MPI_Fint) => mpi_win_free_, mpi_win_free__, mpi_win_free, MPI_WIN_FREE, pmpi_win_free_, pmpi_win_free__, pmpi_win_free, PMPI_WIN_FREE, mpi_win_free_f08_, pmpi_win_free_f08_, pmpir_win_free_f08_);
layer_spellings!(finalize, (ierror: *mut MPI_Fint) => mpi_finalize_, mpi_finalize__, mpi_finalize, MPI_FINALIZE, pmpi_finalize_, pmpi_finalize__, pmpi_finalize, PMPI_FINALIZE, mpi_finalize_f08_, pmpi_finalize_f08_, pmpir_finalize_f08_);
