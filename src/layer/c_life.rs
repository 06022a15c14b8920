//! The C routines of the engine's life cycle that must run callbacks (MPI 4.1 §7.7.2, §11.2.4):
//! the engine makes or frees the object, the caching engine runs the copy callbacks after a
//! dup and the delete callbacks before a free (a failing one leaves the object valid), and
//! `MPI_Finalize` deletes every attribute (`MPI_COMM_SELF`'s first, last set first) while the
//! engine is fully usable, then finalizes it.
//!
//! The engine's routine runs outside the caching engine's lock: dups, frees and window frees
//! are collective and may wait for other processes.
#![allow(non_snake_case)]

use crate::caching::ObjRef;
use crate::error::Result;
use crate::kinds::ObjectKind;
use crate::layer::boundary::{engine_code, engine_rc, Scope};
use crate::layer::engine::{self, key, Handle};
use crate::layer::world::{cache, close, closed};
use crate::{layer_entry, layer_nonnull};
use std::ffi::c_int;

/// After the engine made `new` as a duplicate of `old`: the copy callbacks run. A handle the
/// engine hands out again never carries the attributes of the object it named before. On a
/// failing copy callback the engine's new object is freed with `free` and the output is the
/// null handle.
pub(crate) fn copy_to_new(
    kind: ObjectKind,
    old: Handle,
    new: *mut Handle,
    free: unsafe extern "C" fn(*mut Handle) -> c_int,
) -> Result<()> {
    if closed() {
        return Ok(());
    }
    // SAFETY: `new` was checked non-NULL by the caller and written by the engine's dup.
    let made = key(kind, unsafe { *new });
    // SAFETY: as above.
    engine::forget_fortran(kind, unsafe { *new });
    let c = cache();
    c.lock().unbind_attrs(ObjRef::new(kind, made));
    let outcome = c.dup_object(ObjRef::new(kind, key(kind, old)), |_| Ok(made), |_, _| {});
    if outcome.is_err() {
        // SAFETY: `new` is non-NULL and holds the object the engine just made: its own free
        // takes it back, and the null handle is written in its place.
        unsafe {
            free(new);
            *new = engine::facts().null_handle(kind);
        }
    }
    outcome.map(|_| ())
}

/// Before the engine frees `*obj`: the delete callbacks run (the object stays valid when one
/// fails), then `free` is the engine's.
///
/// # Safety
/// `obj` is NULL or a readable and writable handle.
pub(crate) unsafe fn free_with(
    kind: ObjectKind,
    obj: *mut Handle,
    free: unsafe extern "C" fn(*mut Handle) -> c_int,
) -> Result<()> {
    layer_nonnull!(obj);
    if !closed() {
        // SAFETY: checked non-NULL above; the caller's INOUT handle.
        let h = unsafe { *obj };
        // A dead handle is the engine's error (raised by it), before any callback runs.
        if h != engine::facts().null_handle(kind) {
            engine::check(kind, h).map_err(engine_code)?;
        }
        cache().free_object(ObjRef::new(kind, key(kind, h)), |_| Ok(()))?;
        engine::forget_fortran(kind, h);
    }
    // SAFETY: the engine's free, with the caller's pointer (non-NULL) to its handle.
    engine_rc(unsafe { free(obj) })
}

/// Whose error handler hears of an error in a free of `*obj` (`kind`: communicator or window).
///
/// # Safety
/// `obj` is NULL or readable.
unsafe fn scope_at(kind: ObjectKind, obj: *const Handle) -> Scope {
    if obj.is_null() {
        return Scope::NoObject;
    }
    // SAFETY: non-NULL, readable by the contract.
    crate::layer::c_attr::scope_of(kind, unsafe { *obj })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_dup(comm: Handle, newcomm: *mut Handle) -> c_int {
    layer_entry!("MPI_Comm_dup", Scope::Comm(comm), {
        layer_nonnull!(newcomm);
        // SAFETY: the engine's routine, with the caller's handles and its non-NULL outputs.
        engine_rc(unsafe { engine::PMPI_Comm_dup(comm, newcomm) })?;
        copy_to_new(ObjectKind::Comm, comm, newcomm, engine::PMPI_Comm_free)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_dup_with_info(
    comm: Handle,
    info: Handle,
    newcomm: *mut Handle,
) -> c_int {
    layer_entry!("MPI_Comm_dup_with_info", Scope::Comm(comm), {
        layer_nonnull!(newcomm);
        // SAFETY: the engine's routine, with the caller's handles and its non-NULL outputs.
        engine_rc(unsafe { engine::PMPI_Comm_dup_with_info(comm, info, newcomm) })?;
        copy_to_new(ObjectKind::Comm, comm, newcomm, engine::PMPI_Comm_free)
    })
}

/// The engine hands out the new communicator at once; its attributes are copied then.
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_idup(
    comm: Handle,
    newcomm: *mut Handle,
    request: *mut Handle,
) -> c_int {
    layer_entry!("MPI_Comm_idup", Scope::Comm(comm), {
        layer_nonnull!(newcomm, request);
        // SAFETY: the engine's routine, with the caller's handles and its non-NULL outputs.
        engine_rc(unsafe { engine::PMPI_Comm_idup(comm, newcomm, request) })?;
        copy_to_new(ObjectKind::Comm, comm, newcomm, engine::PMPI_Comm_free)
    })
}

#[cfg(layer_idup_with_info)]
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_idup_with_info(
    comm: Handle,
    info: Handle,
    newcomm: *mut Handle,
    request: *mut Handle,
) -> c_int {
    layer_entry!("MPI_Comm_idup_with_info", Scope::Comm(comm), {
        layer_nonnull!(newcomm, request);
        // SAFETY: the engine's routine, with the caller's handles and its non-NULL outputs.
        engine_rc(unsafe { engine::PMPI_Comm_idup_with_info(comm, info, newcomm, request) })?;
        copy_to_new(ObjectKind::Comm, comm, newcomm, engine::PMPI_Comm_free)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_free(comm: *mut Handle) -> c_int {
    // SAFETY: the caller's pointer to its handle, NULL or readable.
    let scope = unsafe { scope_at(ObjectKind::Comm, comm) };
    layer_entry!("MPI_Comm_free", scope, {
        // SAFETY: the caller's pointer to its handle, NULL (refused) or readable and writable.
        unsafe { free_with(ObjectKind::Comm, comm, engine::PMPI_Comm_free) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_disconnect(comm: *mut Handle) -> c_int {
    // SAFETY: the caller's pointer to its handle, NULL or readable.
    let scope = unsafe { scope_at(ObjectKind::Comm, comm) };
    layer_entry!("MPI_Comm_disconnect", scope, {
        // SAFETY: the caller's pointer to its handle, NULL (refused) or readable and writable.
        unsafe { free_with(ObjectKind::Comm, comm, engine::PMPI_Comm_disconnect) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_dup(oldtype: Handle, newtype: *mut Handle) -> c_int {
    layer_entry!("MPI_Type_dup", Scope::NoObject, {
        layer_nonnull!(newtype);
        // SAFETY: the engine's routine, with the caller's handles and its non-NULL outputs.
        engine_rc(unsafe { engine::PMPI_Type_dup(oldtype, newtype) })?;
        copy_to_new(
            ObjectKind::Datatype,
            oldtype,
            newtype,
            engine::PMPI_Type_free,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free(datatype: *mut Handle) -> c_int {
    layer_entry!("MPI_Type_free", Scope::NoObject, {
        // SAFETY: the caller's pointer to its handle, NULL (refused) or readable and writable.
        unsafe { free_with(ObjectKind::Datatype, datatype, engine::PMPI_Type_free) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Win_free(win: *mut Handle) -> c_int {
    // SAFETY: the caller's pointer to its handle, NULL or readable.
    let scope = unsafe { scope_at(ObjectKind::Win, win) };
    layer_entry!("MPI_Win_free", scope, {
        // SAFETY: the caller's pointer to its handle, NULL (refused) or readable and writable.
        unsafe { free_with(ObjectKind::Win, win, engine::PMPI_Win_free) }
    })
}

/// Every attribute left is deleted (MPI 4.1 §11.2.4: `MPI_COMM_SELF`'s first, in reverse
/// order of setting, with `MPI_Finalized` still false), then the engine finalizes. A failing
/// delete callback does not stop it; the first failure is returned after the engine's
/// finalize.
#[no_mangle]
pub unsafe extern "C" fn MPI_Finalize() -> c_int {
    layer_entry!("MPI_Finalize", Scope::NoObject, { finalize() })
}

pub(crate) fn finalize() -> Result<()> {
    if closed() {
        // SAFETY: the engine's finalize, as the program asked for it (the layer's part is done).
        return engine_rc(unsafe { engine::PMPI_Finalize() });
    }
    let deletions = cache().delete_every_attribute();
    close();
    // SAFETY: the engine's finalize, every attribute deleted while it was still usable.
    engine_rc(unsafe { engine::PMPI_Finalize() })?;
    deletions
}
