//! Graph and distributed graph topologies (MPI 4.1 §8.5.3, §8.5.4, §8.5.5, §8.5.8).

use crate::capi::boundary::Scope;
use crate::capi::topo_args::{check_info, comm_out, ints, write_ints};
use crate::capi::topo_cart::map_rank;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::topo::{check_graph, Topology};
use crate::world::{Error, Handle, Result};
use crate::{entry, try_out};
use std::ffi::c_int;
use std::sync::Arc;

use crate::boundary::rt;

/// `MPI_UNWEIGHTED` and `MPI_WEIGHTS_EMPTY` as include/mpi_fragment.h defines them (the MPI
/// 5.0 ABI's addresses).
const UNWEIGHTED: usize = 10;
const WEIGHTS_EMPTY: usize = 11;

/// A graph from `nnodes`, `index`, `edges` (§8.5.3).
///
/// # Safety
/// `index` holds `nnodes` ints, `edges` `index[nnodes-1]`.
unsafe fn graph(nnodes: c_int, index: *const c_int, edges: *const c_int) -> Result<Topology> {
    if nnodes < 0 {
        return Err(Error::invalid(MPI_ERR_ARG, format!("nnodes is {nnodes}")));
    }
    // SAFETY: `index` is valid here by this function's contract (its `# Safety`).
    let index = unsafe { ints(index, nnodes, "index") }?;
    let nedges = index.last().copied().unwrap_or(0);
    // SAFETY: `edges` is valid here by this function's contract (its `# Safety`).
    let edges = unsafe { ints(edges, nedges, "edges") }?;
    check_graph(&index, &edges)?;
    Ok(Topology::Graph { index, edges })
}

fn graph_of(comm: MPI_Comm) -> Result<Arc<Topology>> {
    let t = rt().topology_of(Handle(comm))?;
    match &*t {
        Topology::Graph { .. } => Ok(t),
        _ => Err(Error::invalid(
            MPI_ERR_TOPOLOGY,
            format!("communicator {comm:#x} has no graph topology"),
        )),
    }
}

/// Edge weights (§8.5.4): `MPI_UNWEIGHTED` gives `None`; `MPI_WEIGHTS_EMPTY` stands for no
/// edges; weights are non-negative.
///
/// # Safety
/// `w` holds `n` ints unless it is one of the sentinels.
unsafe fn weights_of(w: *const c_int, n: c_int, name: &'static str) -> Result<Option<Vec<i32>>> {
    match w as usize {
        UNWEIGHTED => return Ok(None),
        WEIGHTS_EMPTY if n == 0 => return Ok(Some(Vec::new())),
        WEIGHTS_EMPTY => {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("{name} is MPI_WEIGHTS_EMPTY but there are {n} edges"),
            ))
        }
        _ => {}
    }
    // SAFETY: `w` is valid here by this function's contract (its `# Safety`).
    let v = unsafe { ints(w, n, name) }?;
    if let Some(i) = v.iter().position(|&x| x < 0) {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("{name}[{i}] = {} is negative", v[i]),
        ));
    }
    Ok(Some(v))
}

/// Every rank of `v` names a process of a group of `size`.
fn check_ranks(v: &[i32], size: i32, name: &str) -> Result<()> {
    match v.iter().position(|&r| r < 0 || r >= size) {
        Some(i) => Err(Error::invalid(
            MPI_ERR_RANK,
            format!("{name}[{i}] = {} is not a rank of a group of {size}", v[i]),
        )),
        None => Ok(()),
    }
}

/// A distributed graph of the in- and out-edges of this process. In one process every edge is
/// both an in- and an out-edge, so a graph with a different number of each is inconsistent
/// (§8.5.4); like MPICH and Open MPI this is not checked here: a neighbourhood collective that
/// would wait for a missing edge is the deadlock error.
fn dist_graph(
    comm: MPI_Comm,
    (sources, sw): (Vec<i32>, Option<Vec<i32>>),
    (dests, dw): (Vec<i32>, Option<Vec<i32>>),
) -> Result<Topology> {
    let size = rt().comm_size(Handle(comm))?;
    check_ranks(&sources, size, "sources")?;
    check_ranks(&dests, size, "destinations")?;
    let weighted = match (&sw, &dw) {
        (None, None) => false,
        (Some(_), Some(_)) => true,
        // A side without edges may say MPI_UNWEIGHTED (or nothing) while the other is weighted
        // or not: MPICH and Open MPI accept it, and mpi4py's tests rely on it.
        (None, Some(w)) | (Some(w), None) if w.is_empty() => false,
        _ => {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                "MPI_UNWEIGHTED on one side only: both or neither are weighted",
            ))
        }
    };
    Ok(Topology::DistGraph {
        source_weights: sw.unwrap_or_default(),
        dest_weights: dw.unwrap_or_default(),
        sources,
        destinations: dests,
        weighted,
    })
}

/// `MPI_Graph_create` (§8.5.3): self-loops and repeated edges are allowed; a graph larger than
/// the group is `MPI_ERR_ARG`; a process outside a smaller one gets `MPI_COMM_NULL`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Graph_create(
    comm_old: MPI_Comm,
    nnodes: c_int,
    index: *const c_int,
    edges: *const c_int,
    reorder: c_int,
    comm_graph: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Graph_create", Scope::Comm(comm_old), {
        let _ = reorder;
        // SAFETY: `comm_graph` is the routine's output handle, NULL or writable by MPI's contract
        // (capi/mod.rs): what `comm_out` asks.
        let out = unsafe { comm_out(comm_graph) }?;
        // SAFETY: MPI 4.1 §8.5.3, §8.5.8: `index` holds `nnodes` ints and `edges` `index[nnodes-1]`, as
        // `graph` asks.
        let topo = unsafe { graph(nnodes, index, edges) }?;
        let h = rt().comm_with_topology(Handle(comm_old), nnodes.into(), topo)?;
        // SAFETY: `out` is the entry point's output argument, checked non-NULL by `comm_out` above
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { *out = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Graphdims_get(
    comm: MPI_Comm,
    nnodes: *mut c_int,
    nedges: *mut c_int,
) -> c_int {
    entry!("MPI_Graphdims_get", Scope::Comm(comm), {
        let nnodes = try_out!(nnodes);
        let nedges = try_out!(nedges);
        let t = graph_of(comm)?;
        let Topology::Graph { index, edges } = &*t else {
            unreachable!("graph_of checked")
        };
        nnodes.set(index.len() as c_int);
        nedges.set(edges.len() as c_int);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Graph_get(
    comm: MPI_Comm,
    maxindex: c_int,
    maxedges: c_int,
    index: *mut c_int,
    edges: *mut c_int,
) -> c_int {
    entry!("MPI_Graph_get", Scope::Comm(comm), {
        let t = graph_of(comm)?;
        let Topology::Graph { index: i, edges: e } = &*t else {
            unreachable!("graph_of checked")
        };
        // SAFETY: MPI 4.1 §8.5.5: `index` has room for `maxindex` ints, as `write_ints` asks.
        unsafe { write_ints(index, maxindex, i, "index") }?;
        // SAFETY: MPI 4.1 §8.5.5: `edges` has room for `maxedges` ints, as `write_ints` asks.
        unsafe { write_ints(edges, maxedges, e, "edges") }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Graph_neighbors_count(
    comm: MPI_Comm,
    rank: c_int,
    nneighbors: *mut c_int,
) -> c_int {
    entry!("MPI_Graph_neighbors_count", Scope::Comm(comm), {
        let nneighbors = try_out!(nneighbors);
        nneighbors.set(graph_of(comm)?.graph_neighbors(rank)?.len() as c_int);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Graph_neighbors(
    comm: MPI_Comm,
    rank: c_int,
    maxneighbors: c_int,
    neighbors: *mut c_int,
) -> c_int {
    entry!("MPI_Graph_neighbors", Scope::Comm(comm), {
        let t = graph_of(comm)?;
        let n = t.graph_neighbors(rank)?;
        // SAFETY: MPI 4.1 §8.5.5: `neighbors` has room for `maxneighbors` ints, as `write_ints`
        // asks.
        unsafe { write_ints(neighbors, maxneighbors, n, "neighbors") }
    })
}

/// `MPI_Graph_map` (§8.5.8): this process's own rank, `MPI_UNDEFINED` outside the graph.
#[no_mangle]
pub unsafe extern "C" fn MPI_Graph_map(
    comm: MPI_Comm,
    nnodes: c_int,
    index: *const c_int,
    edges: *const c_int,
    newrank: *mut c_int,
) -> c_int {
    entry!("MPI_Graph_map", Scope::Comm(comm), {
        let newrank = try_out!(newrank);
        if nnodes < 1 {
            return Err(Error::invalid(MPI_ERR_ARG, format!("nnodes is {nnodes}")));
        }
        // SAFETY: MPI 4.1 §8.5.3, §8.5.8: `index` holds `nnodes` ints and `edges` `index[nnodes-1]`, as
        // `graph` asks.
        unsafe { graph(nnodes, index, edges) }?;
        newrank.set(map_rank(comm, nnodes.into())?);
        Ok(())
    })
}

/// `MPI_Dist_graph_create_adjacent` (§8.5.4).
#[no_mangle]
pub unsafe extern "C" fn MPI_Dist_graph_create_adjacent(
    comm_old: MPI_Comm,
    indegree: c_int,
    sources: *const c_int,
    sourceweights: *const c_int,
    outdegree: c_int,
    destinations: *const c_int,
    destweights: *const c_int,
    info: MPI_Info,
    reorder: c_int,
    comm_dist_graph: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Dist_graph_create_adjacent", Scope::Comm(comm_old), {
        let _ = reorder;
        // SAFETY: `comm_dist_graph` is the routine's output handle, NULL or writable by MPI's
        // contract (capi/mod.rs): what `comm_out` asks.
        let out = unsafe { comm_out(comm_dist_graph) }?;
        check_info(info)?;
        // SAFETY: MPI 4.1 §8.5.4: `sources` holds `indegree` ints, as `ints` asks.
        let s = unsafe { ints(sources, indegree, "sources") }?;
        // SAFETY: MPI 4.1 §8.5.4: `sourceweights` holds `indegree` ints or is a weights
        // sentinel, as `weights_of` asks.
        let sw = unsafe { weights_of(sourceweights, indegree, "sourceweights") }?;
        // SAFETY: MPI 4.1 §8.5.4: `destinations` holds `outdegree` ints, as `ints` asks.
        let d = unsafe { ints(destinations, outdegree, "destinations") }?;
        // SAFETY: MPI 4.1 §8.5.4: `destweights` holds `outdegree` ints or is a weights
        // sentinel, as `weights_of` asks.
        let dw = unsafe { weights_of(destweights, outdegree, "destweights") }?;
        let topo = dist_graph(comm_old, (s, sw), (d, dw))?;
        let size = rt().comm_size(Handle(comm_old))?;
        let h = rt().comm_with_topology(Handle(comm_old), size.into(), topo)?;
        // SAFETY: `out` is the entry point's output argument, checked non-NULL by `comm_out` above
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { *out = h.0 };
        Ok(())
    })
}

/// `MPI_Dist_graph_create` (§8.5.4): any process may name any edge; this process's in-edges
/// are the edges to it and its out-edges those from it, in the order given.
#[no_mangle]
pub unsafe extern "C" fn MPI_Dist_graph_create(
    comm_old: MPI_Comm,
    n: c_int,
    sources: *const c_int,
    degrees: *const c_int,
    destinations: *const c_int,
    weights: *const c_int,
    info: MPI_Info,
    reorder: c_int,
    comm_dist_graph: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Dist_graph_create", Scope::Comm(comm_old), {
        let _ = reorder;
        // SAFETY: `comm_dist_graph` is the routine's output handle, NULL or writable by MPI's
        // contract (capi/mod.rs): what `comm_out` asks.
        let out = unsafe { comm_out(comm_dist_graph) }?;
        check_info(info)?;
        let size = rt().comm_size(Handle(comm_old))?;
        let rank = rt().comm_rank(Handle(comm_old))?;
        // SAFETY: MPI 4.1 §8.5.4: `sources` holds `n` ints, as `ints` asks.
        let s = unsafe { ints(sources, n, "sources") }?;
        // SAFETY: MPI 4.1 §8.5.4: `degrees` holds `n` ints, as `ints` asks.
        let deg = unsafe { ints(degrees, n, "degrees") }?;
        check_ranks(&s, size, "sources")?;
        if let Some(i) = deg.iter().position(|&x| x < 0) {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("degrees[{i}] = {} is negative", deg[i]),
            ));
        }
        let total = deg.iter().map(|&x| i64::from(x)).sum::<i64>();
        let total = c_int::try_from(total)
            .map_err(|_| Error::invalid(MPI_ERR_ARG, "more than INT_MAX edges"))?;
        // SAFETY: MPI 4.1 §8.5.4: `destinations` holds the sum of `degrees` (`total`) ints, as
        // `ints` asks.
        let d = unsafe { ints(destinations, total, "destinations") }?;
        check_ranks(&d, size, "destinations")?;
        // SAFETY: MPI 4.1 §8.5.4: `weights` holds one int per destination (`total`) or is a
        // weights sentinel, as `weights_of` asks.
        let w = unsafe { weights_of(weights, total, "weights") }?;
        let (mut ins, mut inw, mut outs, mut outw) = (vec![], vec![], vec![], vec![]);
        let mut k = 0;
        for (&src, &dg) in s.iter().zip(&deg) {
            for _ in 0..dg {
                let wt = w.as_ref().map_or(1, |w| w[k]);
                if src == rank {
                    outs.push(d[k]);
                    outw.push(wt);
                }
                if d[k] == rank {
                    ins.push(src);
                    inw.push(wt);
                }
                k += 1;
            }
        }
        let weighted = w.is_some();
        let topo = dist_graph(
            comm_old,
            (ins, weighted.then_some(inw)),
            (outs, weighted.then_some(outw)),
        )?;
        let h = rt().comm_with_topology(Handle(comm_old), size.into(), topo)?;
        // SAFETY: `out` is the entry point's output argument, checked non-NULL by `comm_out` above
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { *out = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Dist_graph_neighbors_count(
    comm: MPI_Comm,
    indegree: *mut c_int,
    outdegree: *mut c_int,
    weighted: *mut c_int,
) -> c_int {
    entry!("MPI_Dist_graph_neighbors_count", Scope::Comm(comm), {
        let indegree = try_out!(indegree);
        let outdegree = try_out!(outdegree);
        let weighted = try_out!(weighted);
        let t = rt().topology_of(Handle(comm))?;
        let Topology::DistGraph {
            sources,
            destinations,
            weighted: w,
            ..
        } = t.dist_graph()?
        else {
            unreachable!("dist_graph checked")
        };
        indegree.set(sources.len() as c_int);
        outdegree.set(destinations.len() as c_int);
        weighted.set(c_int::from(*w));
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Dist_graph_neighbors(
    comm: MPI_Comm,
    maxindegree: c_int,
    sources: *mut c_int,
    sourceweights: *mut c_int,
    maxoutdegree: c_int,
    destinations: *mut c_int,
    destweights: *mut c_int,
) -> c_int {
    entry!("MPI_Dist_graph_neighbors", Scope::Comm(comm), {
        let t = rt().topology_of(Handle(comm))?;
        let Topology::DistGraph {
            sources: s,
            source_weights: sw,
            destinations: d,
            dest_weights: dw,
            weighted,
        } = t.dist_graph()?
        else {
            unreachable!("dist_graph checked")
        };
        // SAFETY: MPI 4.1 §8.5.5: `sources` has room for `maxindegree` ints, as `write_ints`
        // asks.
        unsafe { write_ints(sources, maxindegree, s, "sources") }?;
        // SAFETY: MPI 4.1 §8.5.5: `destinations` has room for `maxoutdegree` ints, as
        // `write_ints` asks.
        unsafe { write_ints(destinations, maxoutdegree, d, "destinations") }?;
        // Weights are written only for a weighted graph, and never through a sentinel.
        let real = |p: *mut c_int| !matches!(p as usize, UNWEIGHTED | WEIGHTS_EMPTY);
        if *weighted && real(sourceweights) {
            // SAFETY: MPI 4.1 §8.5.5: `sourceweights`, not a sentinel (checked above), has room
            // for `maxindegree` ints, as `write_ints` asks.
            unsafe { write_ints(sourceweights, maxindegree, sw, "sourceweights") }?;
        }
        if *weighted && real(destweights) {
            // SAFETY: MPI 4.1 §8.5.5: `destweights`, not a sentinel (checked above), has room for
            // `maxoutdegree` ints, as `write_ints` asks.
            unsafe { write_ints(destweights, maxoutdegree, dw, "destweights") }?;
        }
        Ok(())
    })
}
