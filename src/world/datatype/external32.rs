//! The "external32" data representation (MPI 4.1 §14.5.2, used by `MPI_Pack_external`, §5.2.3):
//! every basic element big-endian, IEEE floating point, with the sizes of the standard's table
//! rather than the host's (`MPI_LONG` and `MPI_UNSIGNED_LONG` take 4 bytes, `MPI_WCHAR` 2,
//! `MPI_LONG_DOUBLE` 16 as an IEEE quadruple, the Fortran `INTEGER` / `LOGICAL` 4).
//!
//! Each run of a typemap knows what its elements are (`Elem`, given to the predefined types
//! here and carried through every constructor), so packing walks the typemap and converts
//! element by element.

use crate::consts::*;
use crate::error::{Error, Result};

/// How one element converts between the host (little-endian x86_64) and external32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conv {
    /// Same size: the bytes reversed (nothing to do for one byte).
    Swap,
    /// A two's-complement integer whose size changes (sign-extended when widened).
    Signed,
    /// An unsigned integer whose size changes.
    Unsigned,
    /// The x87 80-bit `long double` (in 16 host bytes) as an IEEE binary128.
    LongDouble,
}

/// One basic element: its host size, its external32 size and the conversion between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Elem {
    pub native: u8,
    pub external: u8,
    pub conv: Conv,
}

impl Elem {
    /// A byte (`MPI_BYTE`, `MPI_CHAR`, ...): the same in every representation.
    pub const BYTE: Elem = Elem::same(1);

    const fn same(n: u8) -> Elem {
        Elem {
            native: n,
            external: n,
            conv: Conv::Swap,
        }
    }
}

/// A run of a typemap: (offset, bytes, the element it is made of).
pub type Run = (i64, i64, Elem);

/// The elements of a predefined type's typemap runs, in order (§14.5.2's table; a complex is
/// a run of two reals, a pair type two runs).
pub fn elems(h: i32) -> Vec<Elem> {
    let same = Elem::same;
    // The Fortran INTEGER's host size (8 with the fortran-integer-8 feature); 4 in external32.
    let fint = Elem {
        native: std::mem::size_of::<crate::caching::convert::FortranInteger>() as u8,
        external: 4,
        conv: Conv::Signed,
    };
    let long = Elem {
        native: 8,
        external: 4,
        conv: Conv::Signed,
    };
    let ld = Elem {
        native: 16,
        external: 16,
        conv: Conv::LongDouble,
    };
    let one = match h {
        MPI_LONG => long,
        MPI_UNSIGNED_LONG => Elem {
            conv: Conv::Unsigned,
            ..long
        },
        MPI_WCHAR => Elem {
            native: 4,
            external: 2,
            conv: Conv::Unsigned,
        },
        MPI_INTEGER | MPI_LOGICAL | MPI_2INTEGER => fint,
        MPI_LONG_DOUBLE | MPI_C_LONG_DOUBLE_COMPLEX | MPI_CXX_LONG_DOUBLE_COMPLEX => ld,
        MPI_SHORT | MPI_UNSIGNED_SHORT | MPI_INT16_T | MPI_UINT16_T | MPI_INTEGER2
        | MPI_LOGICAL2 | MPI_REAL2 | MPI_COMPLEX4 => same(2),
        MPI_INT
        | MPI_UNSIGNED
        | MPI_INT32_T
        | MPI_UINT32_T
        | MPI_INTEGER4
        | MPI_LOGICAL4
        | MPI_FLOAT
        | MPI_REAL
        | MPI_REAL4
        | MPI_COMPLEX
        | MPI_COMPLEX8
        | MPI_C_FLOAT_COMPLEX
        | MPI_CXX_FLOAT_COMPLEX
        | MPI_2INT
        | MPI_2REAL => same(4),
        MPI_LONG_LONG_INT
        | MPI_UNSIGNED_LONG_LONG
        | MPI_INT64_T
        | MPI_UINT64_T
        | MPI_INTEGER8
        | MPI_LOGICAL8
        | MPI_AINT
        | MPI_OFFSET
        | MPI_COUNT
        | MPI_DOUBLE
        | MPI_DOUBLE_PRECISION
        | MPI_REAL8
        | MPI_COMPLEX16
        | MPI_DOUBLE_COMPLEX
        | MPI_C_DOUBLE_COMPLEX
        | MPI_CXX_DOUBLE_COMPLEX
        | MPI_2DOUBLE_PRECISION => same(8),
        // gfortran's REAL(16) is already IEEE binary128.
        MPI_INTEGER16 | MPI_LOGICAL16 | MPI_REAL16 | MPI_COMPLEX32 => same(16),
        // The pairs whose halves differ (MPI 4.1 §6.9.4).
        MPI_FLOAT_INT => return vec![same(4), same(4)],
        MPI_DOUBLE_INT => return vec![same(8), same(4)],
        MPI_LONG_INT => return vec![long, same(4)],
        MPI_SHORT_INT => return vec![same(2), same(4)],
        MPI_LONG_DOUBLE_INT => return vec![ld, same(4)],
        _ => Elem::BYTE,
    };
    vec![one, one]
}

fn conversion(what: String) -> Error {
    Error::invalid(MPI_ERR_CONVERSION, what)
}

/// Writes one host element `src` (`e.native` bytes) as external32 into `dst` (`e.external`).
pub fn encode(e: Elem, src: &[u8], dst: &mut [u8]) -> Result<()> {
    match e.conv {
        Conv::Swap => {
            for (d, s) in dst.iter_mut().zip(src.iter().rev()) {
                *d = *s;
            }
        }
        Conv::Signed | Conv::Unsigned => {
            let mut le = [0u8; 8];
            le[..src.len()].copy_from_slice(src);
            let v = u64::from_le_bytes(le);
            let bits = 8 * u32::from(e.external);
            let fits = if e.conv == Conv::Signed {
                let shift = 64 - 8 * src.len() as u32;
                let v = ((v << shift) as i64) >> shift;
                v >= -(1i64 << (bits - 1)) && v < (1i64 << (bits - 1))
            } else {
                v >> bits == 0
            };
            if !fits {
                return Err(conversion(format!(
                    "the value {v:#x} does not fit the {}-byte external32 integer",
                    e.external
                )));
            }
            let be = v.to_be_bytes();
            dst.copy_from_slice(&be[8 - usize::from(e.external)..]);
        }
        Conv::LongDouble => {
            let mut m = [0u8; 8];
            m.copy_from_slice(&src[..8]);
            let mantissa = u64::from_le_bytes(m);
            let se = u128::from(u16::from_le_bytes([src[8], src[9]]));
            // Sign and exponent keep their bits (both bias 16383); the explicit integer bit goes
            // and the 63 fraction bits lead the 112 of binary128.
            let q = (se << 112) | (u128::from(mantissa & !(1 << 63)) << 49);
            dst.copy_from_slice(&q.to_be_bytes());
        }
    }
    Ok(())
}

/// Reads one external32 element `src` (`e.external` bytes) into the host form `dst`.
pub fn decode(e: Elem, src: &[u8], dst: &mut [u8]) {
    match e.conv {
        Conv::Swap => {
            for (d, s) in dst.iter_mut().zip(src.iter().rev()) {
                *d = *s;
            }
        }
        Conv::Signed | Conv::Unsigned => {
            let mut be = [0u8; 8];
            be[8 - src.len()..].copy_from_slice(src);
            let mut v = u64::from_be_bytes(be);
            if e.conv == Conv::Signed {
                let shift = 64 - 8 * src.len() as u32;
                v = (((v << shift) as i64) >> shift) as u64;
            }
            dst.copy_from_slice(&v.to_le_bytes()[..dst.len()]);
        }
        Conv::LongDouble => {
            let mut b = [0u8; 16];
            b.copy_from_slice(src);
            let q = u128::from_be_bytes(b);
            let se = (q >> 112) as u16;
            let exp = se & 0x7fff;
            // Truncated to the 63 fraction bits x87 keeps; the integer bit is explicit there.
            let mut frac = ((q >> 49) as u64) & !(1 << 63);
            if exp == 0x7fff && frac == 0 && q & ((1u128 << 112) - 1) != 0 {
                frac = 1 << 62; // a NaN whose payload was all below x87's precision
            }
            let mantissa = frac | if exp != 0 { 1 << 63 } else { 0 };
            dst[..8].copy_from_slice(&mantissa.to_le_bytes());
            dst[8..10].copy_from_slice(&se.to_le_bytes());
            dst[10..].fill(0);
        }
    }
}

/// The datarep argument of the external routines: only "external32" (MPI 4.1 §5.2.3).
pub fn check_datarep(datarep: &str) -> Result<()> {
    if datarep == "external32" {
        return Ok(());
    }
    Err(Error::invalid(
        MPI_ERR_ARG,
        format!("data representation {datarep:?} is not \"external32\""),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_double_one_is_quad_one() {
        // 1.0L in x87: mantissa 1 << 63, exponent 16383.
        let mut x = [0u8; 16];
        x[..8].copy_from_slice(&(1u64 << 63).to_le_bytes());
        x[8..10].copy_from_slice(&16383u16.to_le_bytes());
        let mut q = [0u8; 16];
        encode(elems(MPI_LONG_DOUBLE)[0], &x, &mut q).unwrap();
        assert_eq!(q[..2], [0x3f, 0xff]);
        assert!(q[2..].iter().all(|&b| b == 0));
        let mut back = [0xaau8; 16];
        decode(elems(MPI_LONG_DOUBLE)[0], &q, &mut back);
        assert_eq!(back, x);
    }

    #[test]
    fn long_narrows_and_widens_with_sign() {
        let e = elems(MPI_LONG)[0];
        let mut out = [0u8; 4];
        encode(e, &(-2i64).to_le_bytes(), &mut out).unwrap();
        assert_eq!(out, [0xff, 0xff, 0xff, 0xfe]);
        let mut back = [0u8; 8];
        decode(e, &out, &mut back);
        assert_eq!(i64::from_le_bytes(back), -2);
        let err = encode(e, &(1i64 << 40).to_le_bytes(), &mut out).unwrap_err();
        assert_eq!(err.class(), MPI_ERR_CONVERSION);
    }
}
