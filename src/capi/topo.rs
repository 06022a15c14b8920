//! Topology queries (MPI 4.1 §8). Communicators here carry no virtual topology yet.

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Handle, Runtime};
use crate::{entry, nonnull};
use std::ffi::c_int;

/// `MPI_Topo_test` (MPI 4.1 §8.5.5): `MPI_UNDEFINED` for a communicator without topology.
#[no_mangle]
pub unsafe extern "C" fn MPI_Topo_test(comm: MPI_Comm, status: *mut c_int) -> c_int {
    entry!("MPI_Topo_test", Scope::Comm(comm), {
        nonnull!(status);
        let t = Runtime::global().comm_topology(Handle(comm))?;
        unsafe { *status = t.unwrap_or(MPI_UNDEFINED) };
        Ok(())
    })
}
