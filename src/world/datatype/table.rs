//! MPI 4.1 §5.1.13's table: for each combiner, which constructor arguments `MPI_Type_get_contents`
//! returns as integers, addresses, large counts and datatypes, in the `int` form and in the
//! large-count (`_c`) form of the constructor.
//!
//! A type's record keeps the `int` form's integers and addresses (`Contents`); the large-count
//! form moves the counts among the integers, and every address, into the large counts, while
//! the arguments that are `int` in every binding (`ndims`, `order`, a darray's `size`, `rank`,
//! distributions, distribution arguments and process grid) stay integers.

use crate::consts::*;
use crate::world::objects::datatype::{Contents, Form};

/// What one run of the `int` form's integers becomes in the large-count form.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Stays an integer.
    Int,
    /// A count or displacement: a large count.
    Count,
}

/// The runs of the `int` form's integer list of `combiner`, in order. `ints` is that list (its
/// first entries give the array lengths).
fn int_runs(combiner: i32, ints: &[i64]) -> Vec<(Kind, usize)> {
    let at = |i: usize| ints.get(i).map_or(0, |&v| usize::try_from(v).unwrap_or(0));
    let all = ints.len();
    match combiner {
        // count, blocklength, stride / count, blocklength / count, blocklengths[count] ...
        MPI_COMBINER_CONTIGUOUS
        | MPI_COMBINER_VECTOR
        | MPI_COMBINER_HVECTOR
        | MPI_COMBINER_INDEXED
        | MPI_COMBINER_HINDEXED
        | MPI_COMBINER_INDEXED_BLOCK
        | MPI_COMBINER_HINDEXED_BLOCK
        | MPI_COMBINER_STRUCT => vec![(Kind::Count, all)],
        // ndims, sizes[ndims], subsizes[ndims], starts[ndims], order
        MPI_COMBINER_SUBARRAY => {
            let n = at(0);
            vec![(Kind::Int, 1), (Kind::Count, 3 * n), (Kind::Int, 1)]
        }
        // size, rank, ndims, gsizes[ndims], distribs, dargs, psizes, order
        MPI_COMBINER_DARRAY => {
            let n = at(2);
            vec![(Kind::Int, 3), (Kind::Count, n), (Kind::Int, 3 * n + 1)]
        }
        // The F90 types' p and r are integers in every form; dup and resized have none.
        _ => vec![(Kind::Int, all)],
    }
}

/// The decoded argument lists: (integers, addresses, large counts), in §5.1.13's order.
pub(super) fn split(combiner: i32, c: &Contents) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    if c.form == Form::Int {
        return (c.ints.clone(), c.aints.clone(), Vec::new());
    }
    let mut ints = Vec::new();
    let mut large = Vec::new();
    let mut rest = &c.ints[..];
    for (kind, len) in int_runs(combiner, &c.ints) {
        let (run, tail) = rest.split_at(len.min(rest.len()));
        match kind {
            Kind::Int => ints.extend_from_slice(run),
            Kind::Count => large.extend_from_slice(run),
        }
        rest = tail;
    }
    // Addresses (strides, displacements, lb and extent) follow the counts as large counts.
    large.extend_from_slice(&c.aints);
    (ints, Vec::new(), large)
}

/// (num_integers, num_addresses, num_large_counts) of `MPI_Type_get_envelope_c`.
pub(super) fn lengths(combiner: i32, c: &Contents) -> (i64, i64, i64) {
    if c.form == Form::Int {
        return (c.ints.len() as i64, c.aints.len() as i64, 0);
    }
    let (i, a, l) = split(combiner, c);
    (i.len() as i64, a.len() as i64, l.len() as i64)
}
