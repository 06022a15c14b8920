//! Reduction operation handles (MPI 4.1 §6.9.5, §6.9.6): freeing and commutativity, for the
//! predefined operations and those of `MPI_Op_create` ([`crate::capi::op_user`]).

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Handle, Runtime};
use crate::{entry, try_out};
use std::ffi::c_int;

/// `MPI_Op_free`: a user operation is freed and the handle set to `MPI_OP_NULL`; a predefined
/// operation is `MPI_ERR_OP` (MPI 4.1 §6.9.5), as is a null or unknown handle.
#[no_mangle]
pub unsafe extern "C" fn MPI_Op_free(op: *mut MPI_Op) -> c_int {
    entry!("MPI_Op_free", Scope::NoObject, {
        let op = try_out!(op);
        Runtime::global().op_free(Handle(op.get()))?;
        op.set(MPI_OP_NULL);
        Ok(())
    })
}

/// `MPI_Op_commutative` (MPI 4.1 §6.9.6): the flag given to `MPI_Op_create`; every predefined
/// operation is commutative.
#[no_mangle]
pub unsafe extern "C" fn MPI_Op_commutative(op: MPI_Op, commute: *mut c_int) -> c_int {
    entry!("MPI_Op_commutative", Scope::NoObject, {
        let commute = try_out!(commute);
        commute.set(c_int::from(Runtime::global().op_commutative(Handle(op))?));
        Ok(())
    })
}
