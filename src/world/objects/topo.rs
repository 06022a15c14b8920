//! A communicator's virtual topology as the world keeps it (the operations: `world::topo`).

/// A communicator's virtual topology.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Topology {
    /// `MPI_Cart_create` (§8.5.1): row-major grid, the last dimension varying fastest.
    Cart { dims: Vec<i32>, periods: Vec<bool> },
    /// `MPI_Graph_create` (§8.5.3): `index[i]` is the number of edges of nodes `0..=i`.
    Graph { index: Vec<i32>, edges: Vec<i32> },
    /// `MPI_Dist_graph_create(_adjacent)` (§8.5.4): this process's in- and out-edges.
    DistGraph {
        sources: Vec<i32>,
        source_weights: Vec<i32>,
        destinations: Vec<i32>,
        dest_weights: Vec<i32>,
        weighted: bool,
    },
}
