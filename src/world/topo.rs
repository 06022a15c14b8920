//! Virtual topologies (MPI 4.1 §8) of the single-process world: a topology is a property of a
//! communicator, kept with it, copied by dup (§8.4) and not by split or create. The rules are
//! written for any group size (this world's communicators hold one process), so a grid, graph or
//! neighbour list is computed, never assumed.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;
use std::sync::Arc;

pub use crate::world::objects::topo::Topology;

fn not_cart() -> Error {
    Error::invalid(
        MPI_ERR_TOPOLOGY,
        "the communicator has no Cartesian topology",
    )
}

fn not_graph() -> Error {
    Error::invalid(MPI_ERR_TOPOLOGY, "the communicator has no graph topology")
}

fn not_dist_graph() -> Error {
    Error::invalid(
        MPI_ERR_TOPOLOGY,
        "the communicator has no distributed graph topology",
    )
}

/// §8.5.1: every extent is positive, and the grid has `ndims >= 0` dimensions.
pub fn check_dims(dims: &[i32]) -> Result<i64> {
    let mut size: i64 = 1;
    for (i, &d) in dims.iter().enumerate() {
        if d <= 0 {
            return Err(Error::invalid(
                MPI_ERR_DIMS,
                format!("dims[{i}] is {d}: a grid extent must be positive"),
            ));
        }
        size = size.saturating_mul(d.into());
    }
    Ok(size)
}

/// §8.5.3: `index` non-decreasing from 0, every edge a node of the graph (self-loops and
/// repeated edges are allowed). Returns the number of edges.
pub fn check_graph(index: &[i32], edges: &[i32]) -> Result<()> {
    let nnodes = index.len() as i32;
    let mut prev = 0;
    for (i, &x) in index.iter().enumerate() {
        if x < prev {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("index[{i}] = {x} is below the previous entry {prev}"),
            ));
        }
        prev = x;
    }
    for (i, &e) in edges.iter().enumerate() {
        if e < 0 || e >= nnodes {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("edges[{i}] = {e} is not a node of a graph of {nnodes}"),
            ));
        }
    }
    Ok(())
}

impl Topology {
    /// The kind `MPI_Topo_test` answers.
    pub fn kind(&self) -> i32 {
        match self {
            Topology::Cart { .. } => MPI_CART,
            Topology::Graph { .. } => MPI_GRAPH,
            Topology::DistGraph { .. } => MPI_DIST_GRAPH,
        }
    }

    /// The coordinates of `rank` in a Cartesian grid (`MPI_Cart_coords`).
    pub fn cart_coords(&self, rank: i32) -> Result<Vec<i32>> {
        let Topology::Cart { dims, .. } = self else {
            return Err(not_cart());
        };
        let size: i64 = dims.iter().map(|&d| i64::from(d)).product();
        if rank < 0 || i64::from(rank) >= size {
            return Err(Error::invalid(
                MPI_ERR_RANK,
                format!("rank {rank} is not in a grid of {size}"),
            ));
        }
        let mut rest = rank;
        let mut coords = vec![0; dims.len()];
        for (c, &d) in coords.iter_mut().zip(dims).rev() {
            *c = rest % d;
            rest /= d;
        }
        Ok(coords)
    }

    /// The rank at `coords` (`MPI_Cart_rank`): periodic coordinates wrap; a coordinate out of
    /// range in a non-periodic dimension is `MPI_ERR_ARG` (§8.5.5). `None` for `MPI_PROC_NULL`
    /// is the caller's business ([`Topology::cart_shift`]).
    pub fn cart_rank(&self, coords: &[i32]) -> Result<i32> {
        let Topology::Cart { dims, periods } = self else {
            return Err(not_cart());
        };
        let mut rank: i64 = 0;
        for (i, ((&c, &d), &p)) in coords.iter().zip(dims).zip(periods).enumerate() {
            let c = if p {
                c.rem_euclid(d)
            } else if (0..d).contains(&c) {
                c
            } else {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!("coords[{i}] = {c} is outside the non-periodic extent {d}"),
                ));
            };
            rank = rank * i64::from(d) + i64::from(c);
        }
        Ok(rank as i32)
    }

    /// `MPI_Cart_shift` of `rank`: (source, dest), `MPI_PROC_NULL` off a non-periodic edge.
    pub fn cart_shift(&self, rank: i32, direction: i32, disp: i32) -> Result<(i32, i32)> {
        let Topology::Cart { dims, periods } = self else {
            return Err(not_cart());
        };
        if direction < 0 || direction as usize >= dims.len() {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!(
                    "direction {direction} is not a dimension of a {}-dimensional grid",
                    dims.len()
                ),
            ));
        }
        let d = direction as usize;
        let me = self.cart_coords(rank)?;
        let moved = |by: i64| -> Result<i32> {
            let c = i64::from(me[d]) + by;
            if !periods[d] && !(0..i64::from(dims[d])).contains(&c) {
                return Ok(MPI_PROC_NULL);
            }
            let mut at = me.clone();
            at[d] = c.rem_euclid(dims[d].into()) as i32;
            self.cart_rank(&at)
        };
        Ok((moved(-i64::from(disp))?, moved(disp.into())?))
    }

    /// The neighbours of `rank` in the order of §8.6: (sources, destinations). Cartesian: for
    /// each dimension the negative then the positive neighbour at distance 1; graph: the
    /// node's adjacency list both ways; distributed graph: its in- and out-edges.
    pub fn neighbors(&self, rank: i32) -> Result<(Vec<i32>, Vec<i32>)> {
        match self {
            Topology::Cart { dims, .. } => {
                let mut n = Vec::with_capacity(2 * dims.len());
                for d in 0..dims.len() {
                    let (neg, pos) = self.cart_shift(rank, d as i32, 1)?;
                    n.extend([neg, pos]);
                }
                Ok((n.clone(), n))
            }
            Topology::Graph { .. } => {
                let n = self.graph_neighbors(rank)?.to_vec();
                Ok((n.clone(), n))
            }
            Topology::DistGraph {
                sources,
                destinations,
                ..
            } => Ok((sources.clone(), destinations.clone())),
        }
    }

    /// The adjacency list of `rank` in a graph topology.
    pub fn graph_neighbors(&self, rank: i32) -> Result<&[i32]> {
        let Topology::Graph { index, edges } = self else {
            return Err(not_graph());
        };
        if rank < 0 || rank as usize >= index.len() {
            return Err(Error::invalid(
                MPI_ERR_RANK,
                format!("rank {rank} is not a node of a graph of {}", index.len()),
            ));
        }
        let r = rank as usize;
        let from = if r == 0 { 0 } else { index[r - 1] as usize };
        Ok(&edges[from..index[r] as usize])
    }

    /// The distributed graph's edges, or `MPI_ERR_TOPOLOGY`.
    pub fn dist_graph(&self) -> Result<&Topology> {
        match self {
            Topology::DistGraph { .. } => Ok(self),
            _ => Err(not_dist_graph()),
        }
    }

    /// Whether the neighbour lists pair block `s` with block `s ^ 1` (§8.6: in a Cartesian
    /// topology a block sent to the negative neighbour is received in that process's positive
    /// slot, which matters where a periodic dimension of extent 1 or 2 makes both the same
    /// process); graph topologies pair the k-th edge to a process with its k-th edge from it.
    pub fn pairs_opposite(&self) -> bool {
        matches!(self, Topology::Cart { .. })
    }
}

/// The entries of `v` whose `remain` flag is set.
fn keep<T: Copy>(v: &[T], remain: &[bool]) -> Vec<T> {
    v.iter()
        .zip(remain)
        .filter(|(_, &k)| k)
        .map(|(x, _)| *x)
        .collect()
}

impl Runtime {
    /// The topology of a communicator (`MPI_CART`, `MPI_GRAPH`, `MPI_DIST_GRAPH`), if any.
    pub fn comm_topology(&self, comm: Handle) -> Result<Option<i32>> {
        Ok(self.topology(comm)?.map(|t| t.kind()))
    }

    /// The topology of a communicator itself.
    pub fn topology(&self, comm: Handle) -> Result<Option<Arc<Topology>>> {
        Ok(self.active()?.comms.get(comm)?.topo.clone())
    }

    /// The topology of a communicator, `MPI_ERR_TOPOLOGY` when it has none.
    pub fn topology_of(&self, comm: Handle) -> Result<Arc<Topology>> {
        self.topology(comm)?.ok_or_else(|| {
            Error::invalid(
                MPI_ERR_TOPOLOGY,
                format!("communicator {:#x} has no virtual topology", comm.0),
            )
        })
    }

    /// The new communicator of a topology constructor (§8.5): the first `nnodes` processes of
    /// `comm` in rank order (`reorder` is a permission, not a duty), inheriting the error
    /// handler, without attributes; `MPI_COMM_NULL` for a process outside the topology. A
    /// topology larger than the group is erroneous (`MPI_ERR_ARG`).
    pub fn comm_with_topology(&self, comm: Handle, nnodes: i64, topo: Topology) -> Result<Handle> {
        let mut st = self.active()?;
        let members = st.comms.get(comm)?.members.to_vec();
        if nnodes > members.len() as i64 {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!(
                    "the topology has {nnodes} processes but the communicator only {}",
                    members.len()
                ),
            ));
        }
        let mine = members.iter().position(|&r| r == 0);
        match mine {
            Some(p) if (p as i64) < nnodes => {
                let kept = members[..nnodes as usize].to_vec();
                let h = Runtime::comm_derive(&mut st, comm, kept)?;
                st.comms.get_mut(h)?.topo = Some(Arc::new(topo));
                Ok(h)
            }
            _ => Ok(Handle(MPI_COMM_NULL)),
        }
    }

    /// `MPI_Cart_sub` (§8.5.7): the grid of the processes that share this one's coordinates in
    /// the dimensions dropped; no dimension kept gives a zero-dimensional grid of one process.
    pub fn cart_sub(&self, comm: Handle, remain: &[bool]) -> Result<Handle> {
        let topo = self.topology_of(comm)?;
        let Topology::Cart { dims, periods } = &*topo else {
            return Err(not_cart());
        };
        let rank = self.comm_rank(comm)?;
        let me = topo.cart_coords(rank)?;
        let size = dims.iter().product::<i32>();
        let members = self.active()?.comms.get(comm)?.members.to_vec();
        let mut kept = Vec::new();
        for r in 0..size {
            let c = topo.cart_coords(r)?;
            if (0..dims.len()).all(|d| remain[d] || c[d] == me[d]) {
                kept.push(members[r as usize]);
            }
        }
        let sub = Topology::Cart {
            dims: keep(dims, remain),
            periods: keep(periods, remain),
        };
        let mut st = self.active()?;
        let h = Runtime::comm_derive(&mut st, comm, kept)?;
        st.comms.get_mut(h)?.topo = Some(Arc::new(sub));
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cart(dims: &[i32], periods: &[bool]) -> Topology {
        Topology::Cart {
            dims: dims.to_vec(),
            periods: periods.to_vec(),
        }
    }

    #[test]
    fn cart_coords_and_rank_are_row_major() {
        // MPI 4.1 §8.5.1: row-major numbering.
        let t = cart(&[2, 3], &[false, true]);
        assert_eq!(t.cart_coords(5).unwrap(), vec![1, 2]);
        assert_eq!(t.cart_coords(1).unwrap(), vec![0, 1]);
        assert_eq!(t.cart_rank(&[1, 2]).unwrap(), 5);
        assert_eq!(t.cart_rank(&[1, -1]).unwrap(), 5, "periodic wraps");
        assert_eq!(t.cart_rank(&[2, 0]).unwrap_err().class(), MPI_ERR_ARG);
        assert_eq!(t.cart_coords(6).unwrap_err().class(), MPI_ERR_RANK);
    }

    #[test]
    fn cart_shift_wraps_or_leaves_the_grid() {
        // MPI 4.1 §8.5.6.
        let t = cart(&[2, 3], &[false, true]);
        assert_eq!(t.cart_shift(0, 0, 1).unwrap(), (MPI_PROC_NULL, 3));
        assert_eq!(t.cart_shift(0, 1, 1).unwrap(), (2, 1));
        assert_eq!(t.cart_shift(0, 1, -4).unwrap(), (1, 2));
        assert_eq!(t.cart_shift(0, 2, 1).unwrap_err().class(), MPI_ERR_ARG);
        let one = cart(&[1, 1], &[true, false]);
        assert_eq!(
            one.neighbors(0).unwrap().0,
            vec![0, 0, MPI_PROC_NULL, MPI_PROC_NULL]
        );
    }

    #[test]
    fn graph_neighbors_follow_index() {
        // MPI 4.1 §8.5.3: node i's edges are edges[index[i-1]..index[i]].
        let t = Topology::Graph {
            index: vec![2, 3, 4],
            edges: vec![1, 2, 0, 0],
        };
        assert_eq!(t.graph_neighbors(0).unwrap(), &[1, 2]);
        assert_eq!(t.graph_neighbors(2).unwrap(), &[0]);
        assert_eq!(t.graph_neighbors(3).unwrap_err().class(), MPI_ERR_RANK);
        assert!(check_graph(&[2, 1], &[0, 0]).is_err());
        assert!(check_graph(&[1], &[1]).is_err());
        assert!(check_graph(&[2], &[0, 0]).is_ok(), "self-loops are allowed");
    }
}
