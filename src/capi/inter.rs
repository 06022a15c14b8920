//! Intercommunicator queries (MPI 4.1 §7.6). This world makes no intercommunicator (every
//! communicator has the one process on one side), so on any live communicator these are the
//! error the standard gives for an intracommunicator: `MPI_ERR_COMM`.

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Result, Runtime};
use crate::{entry, nonnull};
use std::ffi::c_int;

fn not_inter(comm: MPI_Comm) -> Result<()> {
    Runtime::global().comm_size(Handle(comm))?;
    Err(Error::invalid(
        MPI_ERR_COMM,
        format!("communicator {comm:#x} is an intracommunicator"),
    ))
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_remote_size(comm: MPI_Comm, size: *mut c_int) -> c_int {
    entry!("MPI_Comm_remote_size", Scope::Comm(comm), {
        nonnull!(size);
        not_inter(comm)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_remote_group(comm: MPI_Comm, group: *mut MPI_Group) -> c_int {
    entry!("MPI_Comm_remote_group", Scope::Comm(comm), {
        nonnull!(group);
        not_inter(comm)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Intercomm_merge(
    intercomm: MPI_Comm,
    high: c_int,
    newintracomm: *mut MPI_Comm,
) -> c_int {
    let _ = high;
    entry!("MPI_Intercomm_merge", Scope::Comm(intercomm), {
        nonnull!(newintracomm);
        not_inter(intercomm)
    })
}
