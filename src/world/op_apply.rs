//! The predefined reduction operations on the predefined datatypes (MPI 4.1 §6.9.2), as
//! `MPI_Reduce_local` needs them: `inout[i] = in[i] op inout[i]`, element by element, on the
//! bytes of the two buffers.

use crate::consts::*;
use crate::error::{Error, Result};

/// What a predefined datatype's elements are, for the operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Elem {
    Int(usize),
    Uint(usize),
    Float(usize),
    /// Two floats of this size (real, imaginary).
    Complex(usize),
    /// C `bool` or Fortran LOGICAL of this size (nonzero is true).
    Logical(usize),
    Byte,
    /// A (value, int) pair of §6.9.4: the value's kind, the index's offset, the extent.
    Pair(&'static Elem, usize, usize),
}

const I2: Elem = Elem::Int(2);
const I4: Elem = Elem::Int(4);
const I8: Elem = Elem::Int(8);
const F4: Elem = Elem::Float(4);
const F8: Elem = Elem::Float(8);

fn elem(datatype: i32) -> Option<Elem> {
    Some(match datatype {
        MPI_INT8_T | MPI_SIGNED_CHAR | MPI_INTEGER1 => Elem::Int(1),
        MPI_SHORT | MPI_INT16_T | MPI_INTEGER2 => I2,
        MPI_INT | MPI_INT32_T | MPI_INTEGER | MPI_INTEGER4 => I4,
        MPI_LONG | MPI_LONG_LONG | MPI_INT64_T | MPI_INTEGER8 | MPI_AINT | MPI_OFFSET
        | MPI_COUNT => I8,
        MPI_UNSIGNED_CHAR | MPI_UINT8_T => Elem::Uint(1),
        MPI_UNSIGNED_SHORT | MPI_UINT16_T => Elem::Uint(2),
        MPI_UNSIGNED | MPI_UINT32_T => Elem::Uint(4),
        MPI_UNSIGNED_LONG | MPI_UNSIGNED_LONG_LONG | MPI_UINT64_T => Elem::Uint(8),
        MPI_FLOAT | MPI_REAL | MPI_REAL4 => F4,
        MPI_DOUBLE | MPI_DOUBLE_PRECISION | MPI_REAL8 => F8,
        MPI_C_FLOAT_COMPLEX | MPI_COMPLEX | MPI_COMPLEX8 | MPI_CXX_FLOAT_COMPLEX => {
            Elem::Complex(4)
        }
        MPI_C_DOUBLE_COMPLEX | MPI_DOUBLE_COMPLEX | MPI_COMPLEX16 | MPI_CXX_DOUBLE_COMPLEX => {
            Elem::Complex(8)
        }
        MPI_C_BOOL | MPI_CXX_BOOL | MPI_LOGICAL1 => Elem::Logical(1),
        MPI_LOGICAL2 => Elem::Logical(2),
        MPI_LOGICAL | MPI_LOGICAL4 => Elem::Logical(4),
        MPI_LOGICAL8 => Elem::Logical(8),
        MPI_BYTE => Elem::Byte,
        MPI_2INT | MPI_2INTEGER => Elem::Pair(&I4, 4, 8),
        MPI_FLOAT_INT => Elem::Pair(&F4, 4, 8),
        MPI_DOUBLE_INT => Elem::Pair(&F8, 8, 16),
        MPI_LONG_INT => Elem::Pair(&I8, 8, 16),
        MPI_SHORT_INT => Elem::Pair(&I2, 4, 8),
        MPI_2REAL => Elem::Pair(&F4, 4, 8),
        MPI_2DOUBLE_PRECISION => Elem::Pair(&F8, 8, 16),
        _ => return None,
    })
}

impl Elem {
    fn size(self) -> usize {
        match self {
            Elem::Int(n) | Elem::Uint(n) | Elem::Float(n) | Elem::Logical(n) => n,
            Elem::Complex(n) => 2 * n,
            Elem::Byte => 1,
            Elem::Pair(_, _, extent) => extent,
        }
    }

    /// Whether `op` is defined on this kind (§6.9.2's table of groups).
    fn allows(self, op: i32) -> bool {
        use Elem::*;
        match op {
            MPI_SUM | MPI_PROD => matches!(self, Int(_) | Uint(_) | Float(_) | Complex(_)),
            MPI_MIN | MPI_MAX => matches!(self, Int(_) | Uint(_) | Float(_)),
            MPI_LAND | MPI_LOR | MPI_LXOR => matches!(self, Int(_) | Uint(_) | Logical(_)),
            MPI_BAND | MPI_BOR | MPI_BXOR => matches!(self, Int(_) | Uint(_) | Byte),
            MPI_MINLOC | MPI_MAXLOC => matches!(self, Pair(..)),
            _ => false,
        }
    }
}

/// A value read as i128 (integers) or f64 (floats), enough for every supported width.
fn int(b: &[u8], signed: bool) -> i128 {
    let mut w = [0u8; 16];
    w[..b.len()].copy_from_slice(b);
    let mut v = i128::from_ne_bytes(w);
    if signed {
        let shift = 128 - 8 * b.len() as u32;
        v = (v << shift) >> shift;
    }
    v
}

fn put_int(b: &mut [u8], v: i128) {
    let n = b.len();
    b.copy_from_slice(&v.to_ne_bytes()[..n]);
}

fn float(b: &[u8]) -> f64 {
    match b.len() {
        4 => f32::from_ne_bytes(b.try_into().unwrap_or_default()).into(),
        _ => f64::from_ne_bytes(b.try_into().unwrap_or_default()),
    }
}

fn put_float(b: &mut [u8], v: f64) {
    match b.len() {
        4 => b.copy_from_slice(&(v as f32).to_ne_bytes()),
        _ => b.copy_from_slice(&v.to_ne_bytes()),
    }
}

/// One element: `io = a op io`.
fn one(op: i32, e: Elem, a: &[u8], io: &mut [u8]) {
    match e {
        Elem::Int(_) | Elem::Uint(_) | Elem::Logical(_) | Elem::Byte => {
            let signed = matches!(e, Elem::Int(_));
            let (x, y) = (int(a, signed), int(io, signed));
            let r = match op {
                MPI_SUM => x.wrapping_add(y),
                MPI_PROD => x.wrapping_mul(y),
                MPI_MIN => x.min(y),
                MPI_MAX => x.max(y),
                MPI_LAND => i128::from(x != 0 && y != 0),
                MPI_LOR => i128::from(x != 0 || y != 0),
                MPI_LXOR => i128::from((x != 0) != (y != 0)),
                MPI_BAND => x & y,
                MPI_BOR => x | y,
                _ => x ^ y,
            };
            put_int(io, r);
        }
        Elem::Float(_) => {
            let (x, y) = (float(a), float(io));
            let r = match op {
                MPI_SUM => x + y,
                MPI_PROD => x * y,
                MPI_MIN => x.min(y),
                _ => x.max(y),
            };
            put_float(io, r);
        }
        Elem::Complex(n) => {
            let (ar, ai) = (float(&a[..n]), float(&a[n..]));
            let (br, bi) = (float(&io[..n]), float(&io[n..]));
            let (r, i) = match op {
                MPI_SUM => (ar + br, ai + bi),
                _ => (ar * br - ai * bi, ar * bi + ai * br),
            };
            put_float(&mut io[..n], r);
            put_float(&mut io[n..2 * n], i);
        }
        Elem::Pair(v, at, _) => {
            let vs = v.size();
            let value = |b: &[u8]| match v {
                Elem::Float(_) => float(&b[..vs]),
                _ => int(&b[..vs], true) as f64,
            };
            let (x, y) = (value(a), value(io));
            let (xi, yi) = (int(&a[at..at + 4], true), int(&io[at..at + 4], true));
            // §6.9.4: the better value wins; on a tie, the smaller index.
            let take_a = match op {
                MPI_MINLOC => x < y || (x == y && xi < yi),
                _ => x > y || (x == y && xi < yi),
            };
            if take_a {
                io[..vs].copy_from_slice(&a[..vs]);
                io[at..at + 4].copy_from_slice(&a[at..at + 4]);
            }
        }
    }
}

/// `inout = input op inout` over `count` elements of a predefined `datatype` (§6.9.7).
/// An operation not defined on the datatype, or a datatype that is not predefined, is
/// `MPI_ERR_OP`.
pub fn apply(op: i32, datatype: i32, count: usize, input: &[u8], inout: &mut [u8]) -> Result<()> {
    let e = elem(datatype).ok_or_else(|| {
        Error::invalid(
            MPI_ERR_OP,
            format!("predefined operation {op:#x} on datatype {datatype:#x}: only predefined numeric, logical, byte and pair datatypes are supported"),
        )
    })?;
    if !e.allows(op) {
        return Err(Error::invalid(
            MPI_ERR_OP,
            format!("operation {op:#x} is not defined on datatype {datatype:#x} (MPI 4.1 §6.9.2)"),
        ));
    }
    let n = e.size();
    for (a, io) in input.chunks(n).zip(inout.chunks_mut(n)).take(count) {
        one(op, e, a, io);
    }
    Ok(())
}

/// The bytes one element of a predefined datatype spans, for the operations above.
pub fn element_extent(datatype: i32) -> Option<usize> {
    elem(datatype).map(Elem::size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_ne_bytes()).collect()
    }

    #[test]
    fn sum_max_and_logical_on_int() {
        // MPI 4.1 §6.9.2.
        let mut io = ints(&[1, 5, -3]);
        apply(MPI_SUM, MPI_INT, 3, &ints(&[10, 20, 30]), &mut io).unwrap();
        assert_eq!(io, ints(&[11, 25, 27]));
        apply(MPI_MAX, MPI_INT, 3, &ints(&[0, 100, -100]), &mut io).unwrap();
        assert_eq!(io, ints(&[11, 100, 27]));
        apply(MPI_LAND, MPI_INT, 3, &ints(&[0, 1, 1]), &mut io).unwrap();
        assert_eq!(io, ints(&[0, 1, 1]));
        assert_eq!(
            apply(MPI_MAXLOC, MPI_INT, 1, &ints(&[1]), &mut ints(&[1]))
                .unwrap_err()
                .class(),
            MPI_ERR_OP
        );
        assert_eq!(
            apply(MPI_BAND, MPI_DOUBLE, 0, &[], &mut [])
                .unwrap_err()
                .class(),
            MPI_ERR_OP
        );
    }

    #[test]
    fn minloc_prefers_the_smaller_index_on_ties() {
        // MPI 4.1 §6.9.4.
        let mut io = ints(&[3, 7, 2, 1]);
        apply(MPI_MINLOC, MPI_2INT, 2, &ints(&[3, 4, 5, 0]), &mut io).unwrap();
        assert_eq!(io, ints(&[3, 4, 2, 1]));
    }

    #[test]
    fn negative_short_and_doubles() {
        let mut io = (-2i16).to_ne_bytes().to_vec();
        apply(MPI_PROD, MPI_SHORT, 1, &(-3i16).to_ne_bytes(), &mut io).unwrap();
        assert_eq!(io, 6i16.to_ne_bytes());
        let mut d = 1.5f64.to_ne_bytes().to_vec();
        apply(MPI_MIN, MPI_DOUBLE, 1, &(-2.5f64).to_ne_bytes(), &mut d).unwrap();
        assert_eq!(d, (-2.5f64).to_ne_bytes());
    }
}
