//! Reduction operation handles (MPI 4.1 §6.9.5). Only the predefined operations exist here
//! (`MPI_Op_create` is not implemented yet), and they cannot be freed.

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::datatype::check_op;
use crate::world::{Error, Handle};
use crate::{entry, nonnull};
use std::ffi::c_int;

/// `MPI_Op_free`: a predefined operation is `MPI_ERR_OP` (MPI 4.1 §6.9.5), as is a null or
/// unknown handle; no other operation can exist.
#[no_mangle]
pub unsafe extern "C" fn MPI_Op_free(op: *mut MPI_Op) -> c_int {
    entry!("MPI_Op_free", Scope::NoObject, {
        nonnull!(op);
        let h = unsafe { *op };
        check_op(Handle(h))?;
        Err(Error::invalid(
            MPI_ERR_OP,
            format!("operation {h:#x} is predefined and cannot be freed"),
        ))
    })
}

/// `MPI_Op_commutative` (MPI 4.1 §6.9.6): every predefined operation is commutative.
#[no_mangle]
pub unsafe extern "C" fn MPI_Op_commutative(op: MPI_Op, commute: *mut c_int) -> c_int {
    entry!("MPI_Op_commutative", Scope::NoObject, {
        nonnull!(commute);
        check_op(Handle(op))?;
        unsafe { *commute = 1 };
        Ok(())
    })
}
