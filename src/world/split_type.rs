//! `MPI_Comm_split_type` (MPI 4.1 §7.4.2) in a world of one process.
//!
//! Every hardware resource and process set this process belongs to holds this process alone, so
//! a split that keeps it gives a communicator of one; a split the process takes no part in
//! gives `MPI_COMM_NULL`.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;

/// The info key of `MPI_COMM_TYPE_HW_GUIDED` (MPI 4.1 §7.4.2).
pub const HW_RESOURCE_KEY: &str = "mpi_hw_resource_type";
/// The info key of `MPI_COMM_TYPE_RESOURCE_GUIDED` (MPI 4.1 §7.4.2).
pub const PSET_KEY: &str = "mpi_pset_name";

/// Hardware resource types this process is in: the standard's `mpi_shared_memory`, and the
/// hwloc object names MPICH and Open MPI accept for the same split (one machine, one of each).
const HW_RESOURCES: [&str; 12] = [
    "mpi_shared_memory",
    "Machine",
    "Package",
    "NUMANode",
    "Socket",
    "Group",
    "L3Cache",
    "L2Cache",
    "L1Cache",
    "Core",
    "PU",
    "hwthread",
];

/// The process sets of this world (MPI 4.1 §11.3.2).
pub const PSETS: [&str; 2] = ["mpi://WORLD", "mpi://SELF"];

impl Runtime {
    /// `MPI_Comm_split_type`: `split_type` is `MPI_UNDEFINED` (no communicator),
    /// `MPI_COMM_TYPE_SHARED` (one shared-memory domain), `MPI_COMM_TYPE_HW_GUIDED` (the
    /// resource named by the info key `mpi_hw_resource_type`; an unknown or missing one gives
    /// `MPI_COMM_NULL`), `MPI_COMM_TYPE_HW_UNGUIDED` (strict subsets of `comm` along the
    /// hardware: a communicator of one process has none, so `MPI_COMM_NULL`) or
    /// `MPI_COMM_TYPE_RESOURCE_GUIDED` (the resource named by `mpi_hw_resource_type` or the
    /// process set named by `mpi_pset_name`); any other
    /// type is `MPI_ERR_ARG`.
    pub fn comm_split_type(&self, comm: Handle, split_type: i32, info: Handle) -> Result<Handle> {
        let size = self.comm_size(comm)?;
        self.check_handle(crate::kinds::HandleKind::Info, info)?;
        let value = |key: &str| -> Result<Option<String>> {
            if info == Handle(MPI_INFO_NULL) {
                Ok(None)
            } else {
                self.info_get(info, key)
            }
        };
        let keep = match split_type {
            MPI_UNDEFINED => false,
            MPI_COMM_TYPE_SHARED => true,
            MPI_COMM_TYPE_HW_GUIDED => value(HW_RESOURCE_KEY)?
                .is_some_and(|v| HW_RESOURCES.iter().any(|r| r.eq_ignore_ascii_case(&v))),
            MPI_COMM_TYPE_HW_UNGUIDED => size > 1,
            // Guided by a hardware resource or by a process set (MPI 4.1 §7.4.2).
            MPI_COMM_TYPE_RESOURCE_GUIDED => {
                value(HW_RESOURCE_KEY)?
                    .is_some_and(|v| HW_RESOURCES.iter().any(|r| r.eq_ignore_ascii_case(&v)))
                    || value(PSET_KEY)?
                        .is_some_and(|v| PSETS.iter().any(|p| p.eq_ignore_ascii_case(&v)))
            }
            other => {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!("split_type {other} is not MPI_UNDEFINED or an MPI_COMM_TYPE_*"),
                ))
            }
        };
        self.comm_split(comm, if keep { 0 } else { MPI_UNDEFINED }, 0)
    }
}
