//! The predefined operations applied element by element (MPI 4.1 §6.9.2, used by the
//! accumulate family of §12.3.4): which operation is defined on which predefined type, and the
//! arithmetic on packed elements. `MPI_REPLACE` and `MPI_NO_OP` apply to every type.
//!
//! Types whose arithmetic Rust has no exact form for here (`MPI_LONG_DOUBLE`, `MPI_REAL2`,
//! `MPI_REAL16`, `MPI_COMPLEX4`, `MPI_COMPLEX32` and their complex kin) take only
//! `MPI_REPLACE` and `MPI_NO_OP`; any other operation on them is `MPI_ERR_OP`, said so in the
//! error, never an approximate result.

use crate::consts::*;
use crate::error::{Error, Result};

/// What an element of a predefined type is, for the operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A C or Fortran integer, or a multi-language type (`MPI_AINT` ...): size and signedness.
    Int {
        size: usize,
        signed: bool,
    },
    /// `float` / `double` and the Fortran REAL kinds of those sizes.
    Float(usize),
    /// Complex of two floats of the given part size.
    Complex(usize),
    /// C `bool` or a Fortran LOGICAL of the given size (true is nonzero; written as 1).
    Logical(usize),
    Byte,
    /// A MINLOC/MAXLOC pair: the value kind, the index kind, the index's offset, the size.
    Pair {
        value: PairPart,
        index: PairPart,
        index_at: usize,
    },
    /// No arithmetic here (see the module comment); REPLACE and NO_OP only.
    Other,
}

/// One half of a pair type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairPart {
    Int(usize),
    Float(usize),
}

/// The kind of a predefined datatype (`fint`: the size of the Fortran INTEGER and LOGICAL).
pub fn kind_of(h: i32, fint: usize) -> Kind {
    let int = |size, signed| Kind::Int { size, signed };
    let pair = |value, index, index_at| Kind::Pair {
        value,
        index,
        index_at,
    };
    match h {
        MPI_SHORT | MPI_INT16_T | MPI_INTEGER2 => int(2, true),
        MPI_INT | MPI_INT32_T | MPI_INTEGER4 => int(4, true),
        MPI_LONG | MPI_LONG_LONG_INT | MPI_INT64_T | MPI_INTEGER8 | MPI_AINT | MPI_COUNT
        | MPI_OFFSET => int(8, true),
        MPI_SIGNED_CHAR | MPI_INT8_T | MPI_INTEGER1 => int(1, true),
        MPI_INTEGER16 => int(16, true),
        MPI_INTEGER => int(fint, true),
        MPI_UNSIGNED_CHAR | MPI_UINT8_T => int(1, false),
        MPI_UNSIGNED_SHORT | MPI_UINT16_T => int(2, false),
        MPI_UNSIGNED | MPI_UINT32_T => int(4, false),
        MPI_UNSIGNED_LONG | MPI_UNSIGNED_LONG_LONG | MPI_UINT64_T => int(8, false),
        MPI_FLOAT | MPI_REAL | MPI_REAL4 => Kind::Float(4),
        MPI_DOUBLE | MPI_DOUBLE_PRECISION | MPI_REAL8 => Kind::Float(8),
        MPI_C_FLOAT_COMPLEX | MPI_CXX_FLOAT_COMPLEX | MPI_COMPLEX | MPI_COMPLEX8 => {
            Kind::Complex(4)
        }
        MPI_C_DOUBLE_COMPLEX | MPI_CXX_DOUBLE_COMPLEX | MPI_DOUBLE_COMPLEX | MPI_COMPLEX16 => {
            Kind::Complex(8)
        }
        MPI_C_BOOL | MPI_CXX_BOOL | MPI_LOGICAL1 => Kind::Logical(1),
        MPI_LOGICAL2 => Kind::Logical(2),
        MPI_LOGICAL4 => Kind::Logical(4),
        MPI_LOGICAL8 => Kind::Logical(8),
        MPI_LOGICAL16 => Kind::Logical(16),
        MPI_LOGICAL => Kind::Logical(fint),
        MPI_BYTE => Kind::Byte,
        MPI_2INT => pair(PairPart::Int(4), PairPart::Int(4), 4),
        MPI_SHORT_INT => pair(PairPart::Int(2), PairPart::Int(4), 4),
        MPI_LONG_INT => pair(PairPart::Int(8), PairPart::Int(4), 8),
        MPI_FLOAT_INT => pair(PairPart::Float(4), PairPart::Int(4), 4),
        MPI_DOUBLE_INT => pair(PairPart::Float(8), PairPart::Int(4), 8),
        MPI_2REAL => pair(PairPart::Float(4), PairPart::Float(4), 4),
        MPI_2DOUBLE_PRECISION => pair(PairPart::Float(8), PairPart::Float(8), 8),
        MPI_2INTEGER => pair(PairPart::Int(fint), PairPart::Int(fint), fint),
        _ => Kind::Other,
    }
}

fn op_name(op: i32) -> &'static str {
    match op {
        MPI_SUM => "MPI_SUM",
        MPI_PROD => "MPI_PROD",
        MPI_MAX => "MPI_MAX",
        MPI_MIN => "MPI_MIN",
        MPI_LAND => "MPI_LAND",
        MPI_LOR => "MPI_LOR",
        MPI_LXOR => "MPI_LXOR",
        MPI_BAND => "MPI_BAND",
        MPI_BOR => "MPI_BOR",
        MPI_BXOR => "MPI_BXOR",
        MPI_MINLOC => "MPI_MINLOC",
        MPI_MAXLOC => "MPI_MAXLOC",
        MPI_REPLACE => "MPI_REPLACE",
        MPI_NO_OP => "MPI_NO_OP",
        _ => "this operation",
    }
}

/// MPI 4.1 §6.9.2: whether `op` is defined on elements of `kind` (`MPI_ERR_OP` if not).
pub fn check(op: i32, kind: Kind, type_name: &str) -> Result<()> {
    let int = matches!(kind, Kind::Int { .. });
    let ok = match op {
        MPI_REPLACE | MPI_NO_OP => true,
        MPI_MAX | MPI_MIN => int || matches!(kind, Kind::Float(_)),
        MPI_SUM | MPI_PROD => int || matches!(kind, Kind::Float(_) | Kind::Complex(_)),
        MPI_LAND | MPI_LOR | MPI_LXOR => int || matches!(kind, Kind::Logical(_)),
        MPI_BAND | MPI_BOR | MPI_BXOR => int || kind == Kind::Byte,
        MPI_MINLOC | MPI_MAXLOC => matches!(kind, Kind::Pair { .. }),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let why = if kind == Kind::Other {
        " (mpicache has no exact arithmetic for this type; only MPI_REPLACE and MPI_NO_OP)"
    } else {
        ""
    };
    Err(Error::invalid(
        MPI_ERR_OP,
        format!("{} is not defined on {type_name}{why}", op_name(op)),
    ))
}

/// The element size of a kind (`Other` has none: it is only replaced).
fn size_of(kind: Kind) -> usize {
    match kind {
        Kind::Int { size, .. } | Kind::Float(size) | Kind::Logical(size) => size,
        Kind::Complex(part) => 2 * part,
        Kind::Byte => 1,
        Kind::Pair {
            index, index_at, ..
        } => index_at + part_size(index),
        Kind::Other => 1,
    }
}

fn part_size(p: PairPart) -> usize {
    match p {
        PairPart::Int(s) | PairPart::Float(s) => s,
    }
}

fn read_int(b: &[u8], signed: bool) -> i128 {
    let mut w = [0u8; 16];
    w[..b.len()].copy_from_slice(b);
    let v = i128::from_le_bytes(w);
    let shift = 128 - 8 * b.len() as u32;
    if signed && shift > 0 {
        (v << shift) >> shift
    } else {
        v
    }
}

fn write_int(b: &mut [u8], v: i128) {
    let n = b.len();
    b.copy_from_slice(&v.to_le_bytes()[..n]);
}

fn read_float(b: &[u8]) -> f64 {
    match b.len() {
        4 => f64::from(f32::from_le_bytes(b.try_into().unwrap_or([0; 4]))),
        _ => f64::from_le_bytes(b.try_into().unwrap_or([0; 8])),
    }
}

fn write_float(b: &mut [u8], v: f64) {
    match b.len() {
        4 => b.copy_from_slice(&(v as f32).to_le_bytes()),
        _ => b.copy_from_slice(&v.to_le_bytes()),
    }
}

/// A part of a pair as a number that orders like the value.
fn read_part(b: &[u8], p: PairPart) -> f64 {
    match p {
        PairPart::Int(_) => read_int(b, true) as f64,
        PairPart::Float(_) => read_float(b),
    }
}

/// `target[i] = target[i] op origin[i]` for packed elements of `kind` (MPI 4.1 §12.3.4:
/// the result at the target is the target's old value combined with the origin's).
/// `check` must have accepted the pair; lengths are whole elements.
pub fn apply(op: i32, kind: Kind, target: &mut [u8], origin: &[u8]) {
    match op {
        MPI_NO_OP => return,
        MPI_REPLACE => {
            let n = target.len().min(origin.len());
            target[..n].copy_from_slice(&origin[..n]);
            return;
        }
        _ => {}
    }
    let size = size_of(kind);
    for (t, o) in target.chunks_exact_mut(size).zip(origin.chunks_exact(size)) {
        element(op, kind, t, o);
    }
}

fn element(op: i32, kind: Kind, t: &mut [u8], o: &[u8]) {
    match kind {
        Kind::Int { signed, .. } => {
            let (a, b) = (read_int(t, signed), read_int(o, signed));
            let r = match op {
                MPI_SUM => a.wrapping_add(b),
                MPI_PROD => a.wrapping_mul(b),
                MPI_MAX => a.max(b),
                MPI_MIN => a.min(b),
                MPI_LAND => i128::from(a != 0 && b != 0),
                MPI_LOR => i128::from(a != 0 || b != 0),
                MPI_LXOR => i128::from((a != 0) != (b != 0)),
                MPI_BAND => a & b,
                MPI_BOR => a | b,
                MPI_BXOR => a ^ b,
                _ => a,
            };
            write_int(t, r);
        }
        Kind::Float(_) => {
            let (a, b) = (read_float(t), read_float(o));
            let r = match op {
                MPI_SUM => a + b,
                MPI_PROD => a * b,
                MPI_MAX => a.max(b),
                MPI_MIN => a.min(b),
                _ => a,
            };
            write_float(t, r);
        }
        Kind::Complex(part) => {
            let (tr, ti) = (read_float(&t[..part]), read_float(&t[part..]));
            let (or, oi) = (read_float(&o[..part]), read_float(&o[part..]));
            let (r, i) = match op {
                MPI_SUM => (tr + or, ti + oi),
                MPI_PROD => (tr * or - ti * oi, tr * oi + ti * or),
                _ => (tr, ti),
            };
            let (re, im) = t.split_at_mut(part);
            write_float(re, r);
            write_float(im, i);
        }
        Kind::Logical(_) => {
            let (a, b) = (read_int(t, false) != 0, read_int(o, false) != 0);
            let r = match op {
                MPI_LAND => a && b,
                MPI_LOR => a || b,
                MPI_LXOR => a != b,
                _ => a,
            };
            write_int(t, i128::from(r));
        }
        Kind::Byte => {
            t[0] = match op {
                MPI_BAND => t[0] & o[0],
                MPI_BOR => t[0] | o[0],
                MPI_BXOR => t[0] ^ o[0],
                _ => t[0],
            }
        }
        Kind::Pair {
            value,
            index,
            index_at,
        } => {
            let vs = part_size(value);
            let is = part_size(index);
            let (va, vb) = (read_part(&t[..vs], value), read_part(&o[..vs], value));
            let (ia, ib) = (
                read_part(&t[index_at..index_at + is], index),
                read_part(&o[index_at..index_at + is], index),
            );
            // MPI 4.1 §6.9.4: the better value wins; on a tie, the smaller index.
            let take_origin = match op {
                MPI_MINLOC => vb < va || (vb == va && ib < ia),
                MPI_MAXLOC => vb > va || (vb == va && ib < ia),
                _ => false,
            };
            if take_origin {
                t[..vs].copy_from_slice(&o[..vs]);
                t[index_at..index_at + is].copy_from_slice(&o[index_at..index_at + is]);
            }
        }
        Kind::Other => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[i32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    // MPI 4.1 §6.9.2: each operation on each class of type; §12.3.4: target = target op origin.
    #[test]
    fn integer_operations() {
        let k = kind_of(MPI_INT, 4);
        for (op, want) in [
            (MPI_SUM, [7, -1]),
            (MPI_PROD, [12, -6]),
            (MPI_MAX, [4, 2]),
            (MPI_MIN, [3, -3]),
            (MPI_BAND, [0, 0]),
            (MPI_BOR, [7, -1]),
            (MPI_BXOR, [7, -1]),
            (MPI_LAND, [1, 1]),
            (MPI_REPLACE, [4, -3]),
            (MPI_NO_OP, [3, 2]),
        ] {
            let mut t = ints(&[3, 2]);
            apply(op, k, &mut t, &ints(&[4, -3]));
            assert_eq!(t, ints(&want), "{}", op_name(op));
        }
    }

    #[test]
    fn float_complex_and_pairs() {
        let mut t = 1.5f64.to_le_bytes().to_vec();
        apply(
            MPI_SUM,
            kind_of(MPI_DOUBLE, 4),
            &mut t,
            &2.25f64.to_le_bytes(),
        );
        assert_eq!(t, 3.75f64.to_le_bytes());
        // (1+2i)(3+4i) = -5+10i
        let c = |r: f32, i: f32| [r.to_le_bytes(), i.to_le_bytes()].concat();
        let mut t = c(1.0, 2.0);
        apply(
            MPI_PROD,
            kind_of(MPI_C_FLOAT_COMPLEX, 4),
            &mut t,
            &c(3.0, 4.0),
        );
        assert_eq!(t, c(-5.0, 10.0));
        // MPI 4.1 §6.9.4: MINLOC keeps the smaller index on a tie.
        let mut t = ints(&[5, 9]);
        apply(MPI_MINLOC, kind_of(MPI_2INT, 4), &mut t, &ints(&[5, 2]));
        assert_eq!(t, ints(&[5, 2]));
        apply(MPI_MAXLOC, kind_of(MPI_2INT, 4), &mut t, &ints(&[4, 0]));
        assert_eq!(t, ints(&[5, 2]));
    }

    #[test]
    fn undefined_pairs_are_err_op() {
        let e = |op, h| check(op, kind_of(h, 4), "t").unwrap_err().class();
        assert_eq!(e(MPI_SUM, MPI_BYTE), MPI_ERR_OP);
        assert_eq!(e(MPI_BAND, MPI_DOUBLE), MPI_ERR_OP);
        assert_eq!(e(MPI_MAX, MPI_C_DOUBLE_COMPLEX), MPI_ERR_OP);
        assert_eq!(e(MPI_MINLOC, MPI_INT), MPI_ERR_OP);
        assert_eq!(e(MPI_SUM, MPI_LONG_DOUBLE), MPI_ERR_OP);
        assert!(check(MPI_REPLACE, kind_of(MPI_LONG_DOUBLE, 4), "t").is_ok());
        assert!(check(MPI_LXOR, kind_of(MPI_C_BOOL, 4), "t").is_ok());
    }
}
