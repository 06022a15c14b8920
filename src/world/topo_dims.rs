//! `MPI_Dims_create` (MPI 4.1 §8.5.2): a pure function of its arguments, the same in every
//! process count.

use crate::consts::*;
use crate::error::{Error, Result};

/// Fills the zero entries of `dims` so that the product of all is `nnodes`, the filled ones as
/// close to each other as possible and in non-increasing order; positive entries are kept.
/// Erroneous: `nnodes < 1` (`MPI_ERR_ARG`), a negative entry, or `nnodes` not a multiple of
/// the product of the given entries (`MPI_ERR_DIMS`).
pub fn dims_create(nnodes: i32, dims: &mut [i32]) -> Result<()> {
    if nnodes < 1 {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("nnodes is {nnodes}: it must be positive"),
        ));
    }
    let mut fixed: i64 = 1;
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 {
            return Err(Error::invalid(
                MPI_ERR_DIMS,
                format!("dims[{i}] is {d}: entries are 0 (to fill) or positive"),
            ));
        }
        if d > 0 {
            fixed *= i64::from(d);
        }
    }
    let free = dims.iter().filter(|&&d| d == 0).count();
    let n = i64::from(nnodes);
    if n % fixed != 0 || (free == 0 && n != fixed) {
        return Err(Error::invalid(
            MPI_ERR_DIMS,
            format!("nnodes {nnodes} is not the product of the given dims ({fixed}) times the free ones"),
        ));
    }
    let mut best = None;
    split(n / fixed, free, i64::MAX, &mut Vec::new(), &mut best);
    let factors = best.map_or_else(Vec::new, |(_, f)| f);
    for (d, f) in dims.iter_mut().filter(|d| **d == 0).zip(factors) {
        *d = f as i32;
    }
    Ok(())
}

/// How unbalanced a factorization is: its spread, then its sum of squares.
fn cost(f: &[i64]) -> (i64, i64) {
    let spread = f.first().zip(f.last()).map_or(0, |(a, b)| a - b);
    (spread, f.iter().map(|x| x * x).sum())
}

/// Every non-increasing factorization of `rest` into `k` factors at most `max`, keeping the
/// most balanced in `best`.
fn split(
    rest: i64,
    k: usize,
    max: i64,
    cur: &mut Vec<i64>,
    best: &mut Option<((i64, i64), Vec<i64>)>,
) {
    if k == 0 {
        if rest == 1 {
            let c = cost(cur);
            if best.as_ref().is_none_or(|(b, _)| c < *b) {
                *best = Some((c, cur.clone()));
            }
        }
        return;
    }
    if k == 1 {
        if rest <= max {
            cur.push(rest);
            split(1, 0, rest, cur, best);
            cur.pop();
        }
        return;
    }
    // The first of k non-increasing factors is at least the k-th root of their product.
    let mut d = rest.min(max);
    while d >= 1 {
        if d.checked_pow(k as u32).is_none_or(|p| p >= rest) {
            if rest % d == 0 {
                cur.push(d);
                split(rest / d, k - 1, d, cur, best);
                cur.pop();
            }
        } else {
            break;
        }
        d -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dc(nnodes: i32, dims: &[i32]) -> Result<Vec<i32>> {
        let mut d = dims.to_vec();
        dims_create(nnodes, &mut d).map(|()| d)
    }

    #[test]
    fn the_standards_examples() {
        // MPI 4.1 §8.5.2, Example 8.1.
        assert_eq!(dc(6, &[0, 0]).unwrap(), vec![3, 2]);
        assert_eq!(dc(7, &[0, 0]).unwrap(), vec![7, 1]);
        assert_eq!(dc(6, &[0, 3, 0]).unwrap(), vec![2, 3, 1]);
        assert_eq!(dc(7, &[0, 3, 0]).unwrap_err().class(), MPI_ERR_DIMS);
    }

    #[test]
    fn balanced_and_non_increasing() {
        // MPI 4.1 §8.5.2: as close to each other as possible, non-increasing.
        assert_eq!(dc(16, &[0, 0, 0]).unwrap(), vec![4, 2, 2]);
        assert_eq!(dc(36, &[0, 0]).unwrap(), vec![6, 6]);
        assert_eq!(dc(1, &[0, 0, 0]).unwrap(), vec![1, 1, 1]);
        assert_eq!(
            dc(720720, &[0, 0, 0, 0]).unwrap().iter().product::<i32>(),
            720720
        );
        assert_eq!(dc(4, &[]).unwrap_err().class(), MPI_ERR_DIMS);
        assert_eq!(dc(1, &[]).unwrap(), Vec::<i32>::new());
        assert_eq!(dc(0, &[0]).unwrap_err().class(), MPI_ERR_ARG);
        assert_eq!(dc(4, &[-1, 0]).unwrap_err().class(), MPI_ERR_DIMS);
        assert_eq!(dc(4, &[4, 0]).unwrap(), vec![4, 1]);
    }
}
