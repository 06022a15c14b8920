//! Topology queries (MPI 4.1 §8). Communicators here carry no virtual topology yet.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::Handle;
use crate::{entry, try_out};
use std::ffi::c_int;

/// `MPI_Topo_test` (MPI 4.1 §8.5.5): `MPI_UNDEFINED` for a communicator without topology.
#[no_mangle]
pub unsafe extern "C" fn MPI_Topo_test(comm: MPI_Comm, status: *mut c_int) -> c_int {
    entry!("MPI_Topo_test", Scope::Comm(comm), {
        let status = try_out!(status);
        let t = rt().comm_topology(Handle(comm))?;
        status.set(t.unwrap_or(MPI_UNDEFINED));
        Ok(())
    })
}
