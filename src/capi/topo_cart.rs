//! Cartesian topologies (MPI 4.1 §8.5.1, §8.5.2, §8.5.5 - §8.5.8): the grid lives with the
//! communicator ([`crate::world::topo`]); these entry points read and write its arrays.

use crate::capi::boundary::Scope;
use crate::capi::topo_args::{comm_out, ints, write_ints};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::topo::{check_dims, Topology};
use crate::world::topo_dims::dims_create;
use crate::world::{Error, Handle, Result};
use crate::{entry, try_out};
use std::ffi::c_int;

use crate::boundary::rt;

/// A grid from `ndims`, `dims` and `periods` (§8.5.1), with its number of processes.
///
/// # Safety
/// `dims` and `periods` hold `ndims` ints.
unsafe fn grid(ndims: c_int, dims: *const c_int, periods: *const c_int) -> Result<(Topology, i64)> {
    if ndims < 0 {
        return Err(Error::invalid(MPI_ERR_DIMS, format!("ndims is {ndims}")));
    }
    // SAFETY: `dims` is valid here by this function's contract (its `# Safety`).
    let dims = unsafe { ints(dims, ndims, "dims") }?;
    // SAFETY: `periods` is valid here by this function's contract (its `# Safety`).
    let periods = unsafe { ints(periods, ndims, "periods") }?;
    let size = check_dims(&dims)?;
    let periods = periods.iter().map(|&p| p != 0).collect();
    Ok((Topology::Cart { dims, periods }, size))
}

/// The grid of a Cartesian communicator (`MPI_ERR_TOPOLOGY` for any other).
fn cart_of(comm: MPI_Comm) -> Result<(Vec<i32>, Vec<bool>, std::sync::Arc<Topology>)> {
    let t = rt().topology_of(Handle(comm))?;
    match &*t {
        Topology::Cart { dims, periods } => Ok((dims.clone(), periods.clone(), t.clone())),
        _ => Err(Error::invalid(
            MPI_ERR_TOPOLOGY,
            format!("communicator {comm:#x} has no Cartesian topology"),
        )),
    }
}

/// `MPI_Cart_create`: a grid larger than the group is `MPI_ERR_ARG`; a process outside a
/// smaller grid gets `MPI_COMM_NULL`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Cart_create(
    comm_old: MPI_Comm,
    ndims: c_int,
    dims: *const c_int,
    periods: *const c_int,
    reorder: c_int,
    comm_cart: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Cart_create", Scope::Comm(comm_old), {
        let _ = reorder;
        // SAFETY: `comm_cart` is the routine's output handle, NULL or writable by MPI's contract
        // (capi/mod.rs): what `comm_out` asks.
        let out = unsafe { comm_out(comm_cart) }?;
        // SAFETY: MPI 4.1 §8.5.1, §8.5.8: `dims` and `periods` are arrays of `ndims` ints, as `grid` asks
        // (capi/mod.rs: the caller keeps that promise).
        let (topo, size) = unsafe { grid(ndims, dims, periods) }?;
        let h = rt().comm_with_topology(Handle(comm_old), size, topo)?;
        // SAFETY: `out` is the entry point's output argument, checked non-NULL by `comm_out` above
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { *out = h.0 };
        Ok(())
    })
}

/// `MPI_Dims_create` (§8.5.2).
#[no_mangle]
pub unsafe extern "C" fn MPI_Dims_create(nnodes: c_int, ndims: c_int, dims: *mut c_int) -> c_int {
    entry!("MPI_Dims_create", Scope::NoObject, {
        if ndims < 0 {
            return Err(Error::invalid(MPI_ERR_DIMS, format!("ndims is {ndims}")));
        }
        // SAFETY: MPI 4.1 §8.5.2: `dims` is an array of `ndims` ints (read and written here), as
        // `ints` asks.
        let mut d = unsafe { ints(dims, ndims, "dims") }?;
        dims_create(nnodes, &mut d)?;
        // SAFETY: MPI 4.1 §8.5.2: `dims` is an array of `ndims` ints, writable, as `write_ints`
        // asks.
        unsafe { write_ints(dims, ndims, &d, "dims") }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Cartdim_get(comm: MPI_Comm, ndims: *mut c_int) -> c_int {
    entry!("MPI_Cartdim_get", Scope::Comm(comm), {
        let ndims = try_out!(ndims);
        ndims.set(cart_of(comm)?.0.len() as c_int);
        Ok(())
    })
}

/// `MPI_Cart_get`: dims, periods and this process's coordinates, `maxdims` entries each.
#[no_mangle]
pub unsafe extern "C" fn MPI_Cart_get(
    comm: MPI_Comm,
    maxdims: c_int,
    dims: *mut c_int,
    periods: *mut c_int,
    coords: *mut c_int,
) -> c_int {
    entry!("MPI_Cart_get", Scope::Comm(comm), {
        let (d, p, t) = cart_of(comm)?;
        let me = t.cart_coords(rt().comm_rank(Handle(comm))?)?;
        let p: Vec<i32> = p.iter().map(|&x| x.into()).collect();
        if maxdims < d.len() as c_int {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!(
                    "maxdims {maxdims} is less than the grid's {} dimensions",
                    d.len()
                ),
            ));
        }
        // SAFETY: MPI 4.1 §8.5.5: `dims` has room for `maxdims` ints, as `write_ints` asks.
        unsafe { write_ints(dims, maxdims, &d, "dims") }?;
        // SAFETY: MPI 4.1 §8.5.5: `periods` has room for `maxdims` ints, as `write_ints` asks.
        unsafe { write_ints(periods, maxdims, &p, "periods") }?;
        // SAFETY: MPI 4.1 §8.5.5: `coords` has room for `maxdims` ints, as `write_ints` asks.
        unsafe { write_ints(coords, maxdims, &me, "coords") }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Cart_rank(
    comm: MPI_Comm,
    coords: *const c_int,
    rank: *mut c_int,
) -> c_int {
    entry!("MPI_Cart_rank", Scope::Comm(comm), {
        let rank = try_out!(rank);
        let (d, _, t) = cart_of(comm)?;
        // SAFETY: MPI 4.1 §8.5.5: `coords` holds one int per dimension of the Cartesian
        // topology (`d.len()`), as `ints` asks.
        let c = unsafe { ints(coords, d.len() as c_int, "coords") }?;
        rank.set(t.cart_rank(&c)?);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Cart_coords(
    comm: MPI_Comm,
    rank: c_int,
    maxdims: c_int,
    coords: *mut c_int,
) -> c_int {
    entry!("MPI_Cart_coords", Scope::Comm(comm), {
        let (d, _, t) = cart_of(comm)?;
        if maxdims < d.len() as c_int {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!(
                    "maxdims {maxdims} is less than the grid's {} dimensions",
                    d.len()
                ),
            ));
        }
        let c = t.cart_coords(rank)?;
        // SAFETY: MPI 4.1 §8.5.5: `coords` has room for `maxdims` ints, as `write_ints` asks.
        unsafe { write_ints(coords, maxdims, &c, "coords") }
    })
}

/// `MPI_Cart_shift` (§8.5.6): `MPI_PROC_NULL` off the edge of a non-periodic dimension.
#[no_mangle]
pub unsafe extern "C" fn MPI_Cart_shift(
    comm: MPI_Comm,
    direction: c_int,
    disp: c_int,
    rank_source: *mut c_int,
    rank_dest: *mut c_int,
) -> c_int {
    entry!("MPI_Cart_shift", Scope::Comm(comm), {
        let source = try_out!(rank_source);
        let dest = try_out!(rank_dest);
        let (_, _, t) = cart_of(comm)?;
        let (s, d) = t.cart_shift(rt().comm_rank(Handle(comm))?, direction, disp)?;
        source.set(s);
        dest.set(d);
        Ok(())
    })
}

/// `MPI_Cart_sub` (§8.5.7).
#[no_mangle]
pub unsafe extern "C" fn MPI_Cart_sub(
    comm: MPI_Comm,
    remain_dims: *const c_int,
    newcomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Cart_sub", Scope::Comm(comm), {
        // SAFETY: `newcomm` is the routine's output handle, NULL or writable by MPI's contract
        // (capi/mod.rs): what `comm_out` asks.
        let out = unsafe { comm_out(newcomm) }?;
        let (d, _, _) = cart_of(comm)?;
        // SAFETY: MPI 4.1 §8.5.7: `remain_dims` holds one entry per dimension of the topology
        // (`d.len()`), as `ints` asks.
        let remain: Vec<bool> = unsafe { ints(remain_dims, d.len() as c_int, "remain_dims") }?
            .iter()
            .map(|&r| r != 0)
            .collect();
        let h = rt().cart_sub(Handle(comm), &remain)?;
        // SAFETY: `out` is the entry point's output argument, checked non-NULL by `comm_out` above
        // (MPI's contract for this routine, capi/mod.rs).
        unsafe { *out = h.0 };
        Ok(())
    })
}

/// `MPI_Cart_map` (§8.5.8): the rank this process would have in the grid (its own: no
/// reordering), `MPI_UNDEFINED` outside it.
#[no_mangle]
pub unsafe extern "C" fn MPI_Cart_map(
    comm: MPI_Comm,
    ndims: c_int,
    dims: *const c_int,
    periods: *const c_int,
    newrank: *mut c_int,
) -> c_int {
    entry!("MPI_Cart_map", Scope::Comm(comm), {
        let newrank = try_out!(newrank);
        // SAFETY: MPI 4.1 §8.5.1, §8.5.8: `dims` and `periods` are arrays of `ndims` ints, as `grid` asks
        // (capi/mod.rs: the caller keeps that promise).
        let (_, size) = unsafe { grid(ndims, dims, periods) }?;
        newrank.set(map_rank(comm, size)?);
        Ok(())
    })
}

/// This process's rank in a topology of `nnodes` over `comm` (§8.5.8), erroneous beyond the
/// group's size.
pub(crate) fn map_rank(comm: MPI_Comm, nnodes: i64) -> Result<c_int> {
    let size = rt().comm_size(Handle(comm))?;
    if nnodes > size.into() {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("the topology has {nnodes} processes but the communicator only {size}"),
        ));
    }
    let rank = rt().comm_rank(Handle(comm))?;
    Ok(if i64::from(rank) < nnodes {
        rank
    } else {
        MPI_UNDEFINED
    })
}
