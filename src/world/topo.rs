//! Virtual topologies (MPI 4.1 §8) of the single-process world.

use crate::error::Result;
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;

impl Runtime {
    /// The topology of a communicator (`MPI_CART`, `MPI_GRAPH`, `MPI_DIST_GRAPH`), if any.
    pub fn comm_topology(&self, comm: Handle) -> Result<Option<i32>> {
        self.active()?.comms.get(comm)?;
        Ok(None)
    }
}
