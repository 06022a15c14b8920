//! Attribute values across languages (MPI 4.1 §20.3.7).
//!
//! Every attribute is one address-sized word plus the provenance of its last write:
//!
//! | provenance       | written by                                              | stored word              |
//! |------------------|---------------------------------------------------------|--------------------------|
//! | `CPointer`       | C `MPI_{Comm,Type,Win}_set_attr`, C `MPI_Attr_put`      | the `void*` itself       |
//! | `FortranAddress` | Fortran `MPI_{COMM,TYPE,WIN}_SET_ATTR` (ADDRESS_KIND)   | the value                |
//! | `FortranInteger` | deprecated Fortran `MPI_ATTR_PUT` (INTEGER)             | the value, sign-extended |
//!
//! What each reader gets:
//!
//! | reader \ provenance              | CPointer              | FortranAddress                    | FortranInteger                 |
//! |----------------------------------|-----------------------|-----------------------------------|--------------------------------|
//! | C `*_get_attr`, `MPI_Attr_get`   | the pointer           | pointer to an internal `MPI_Aint` | pointer to an internal `int`   |
//! | Fortran `*_GET_ATTR` (ADDR_KIND) | the address, integer  | the value                         | the value (sign-extended)      |
//! | Fortran `MPI_ATTR_GET` (INTEGER) | low bits of address   | low bits (2**40 reads as 0)       | the value                      |
//!
//! The internal `MPI_Aint` / `int` a C reader is pointed at is the stored word itself: in the
//! attribute's slot of the store (`caching::store`), or in the world's cell for a predefined
//! attribute. It does not move while the attribute exists. Each function below names the cells
//! of the tables it implements.

/// The Fortran default INTEGER of the deprecated routines: 4 bytes, or 8 with the
/// `fortran-integer-8` feature (programs compiled with `-fdefault-integer-8`), where the
/// `FortranInteger` provenance then holds 64 bits and `MPI_ATTR_GET` no longer truncates.
#[cfg(not(feature = "fortran-integer-8"))]
pub type FortranInteger = i32;
/// The Fortran default INTEGER of the deprecated routines (8 bytes: `fortran-integer-8`).
#[cfg(feature = "fortran-integer-8")]
pub type FortranInteger = i64;

/// Who wrote an attribute's word, which decides what every reader sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provenance {
    CPointer,
    FortranAddress,
    FortranInteger,
}

/// An attribute as a reader gets it: the value, and what a C reader is given (column "C
/// `*_get_attr`": the pointer, or the address of the internal `MPI_Aint` / `int`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttrRead {
    pub value: AttrWord,
    pub c_view: usize,
}

/// An attribute value as stored: the word and its provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttrWord {
    pub word: i64,
    pub provenance: Provenance,
}

impl AttrWord {
    /// Row `CPointer`: C stores the pointer itself.
    pub fn from_c_pointer(address: usize) -> AttrWord {
        AttrWord {
            word: address as i64,
            provenance: Provenance::CPointer,
        }
    }

    /// Row `FortranAddress`: an INTEGER(KIND=MPI_ADDRESS_KIND) is stored as it is.
    pub fn from_fortran_address(value: i64) -> AttrWord {
        AttrWord {
            word: value,
            provenance: Provenance::FortranAddress,
        }
    }

    /// Row `FortranInteger`: `MPI_ATTR_PUT` sets the low part of the word, sign-extended to the
    /// whole word (MPI 2.2 §16.3.7; also for INTEGER copy callbacks).
    /// Takes an `i32` in every build (predefined integer attributes) and an 8-byte INTEGER in
    /// the `fortran-integer-8` build.
    #[allow(clippy::useless_conversion)] // i32 -> i32, or i32 -> i64 with fortran-integer-8
    pub fn from_fortran_integer(value: impl Into<FortranInteger>) -> AttrWord {
        AttrWord {
            word: i64::from(value.into()),
            provenance: Provenance::FortranInteger,
        }
    }

    /// Column "Fortran `*_GET_ATTR`": every provenance reads as the whole word — the address as
    /// an integer, the value, or the sign-extended INTEGER value.
    pub fn fortran_address_view(self) -> i64 {
        fortran_address_view(self.word)
    }

    /// Column "Fortran `MPI_ATTR_GET`": the least significant part of the word (a pointer or
    /// 2**40 is truncated; an INTEGER value comes back as it was put).
    pub fn fortran_integer_view(self) -> FortranInteger {
        fortran_integer_view(self.word)
    }

    /// Column "C `*_get_attr`": the pointer for `CPointer`; otherwise the address of the
    /// internal `MPI_Aint` (`FortranAddress`) or `int` (`FortranInteger`) holding the value.
    pub fn c_view(self, internal_aint: usize, internal_int: usize) -> usize {
        match self.provenance {
            Provenance::CPointer => self.word as usize,
            Provenance::FortranAddress => internal_aint,
            Provenance::FortranInteger => internal_int,
        }
    }
}

/// Column "Fortran `*_GET_ATTR`" from the word alone: the provenance does not change it.
#[inline(always)]
pub fn fortran_address_view(word: i64) -> i64 {
    word
}

/// Column "Fortran `MPI_ATTR_GET`" from the word alone: its least significant part.
#[inline(always)]
pub fn fortran_integer_view(word: i64) -> FortranInteger {
    word as FortranInteger
}

#[cfg(test)]
mod tests {
    use super::*;

    const AINT: usize = 0x1000;
    const INT: usize = 0x2000;
    const TWO_40: i64 = 1 << 40;

    #[cfg(not(feature = "fortran-integer-8"))]
    // MPI 4.1 §20.3.7, Example 20.x A/B/C/D: C sets (void*)17, a pointer, and readers read.
    #[test]
    fn c_pointer_row() {
        let w = AttrWord::from_c_pointer(17);
        assert_eq!(w.c_view(AINT, INT), 17, "C reads the pointer");
        assert_eq!(
            w.fortran_address_view(),
            17,
            "Fortran ADDRESS_KIND reads the address"
        );
        assert_eq!(
            w.fortran_integer_view(),
            17,
            "MPI_ATTR_GET reads the low part"
        );
        let p = AttrWord::from_c_pointer(0x7fff_1234_5678);
        assert_eq!(p.c_view(AINT, INT), 0x7fff_1234_5678);
        assert_eq!(p.fortran_address_view(), 0x7fff_1234_5678);
        assert_eq!(
            p.fortran_integer_view(),
            0x1234_5678,
            "address truncated to low bits"
        );
    }

    #[cfg(not(feature = "fortran-integer-8"))]
    // MPI 4.1 §20.3.7: MPI_COMM_SET_ATTR with 42 and 2**40.
    #[test]
    fn fortran_address_row() {
        let w = AttrWord::from_fortran_address(42);
        assert_eq!(w.c_view(AINT, INT), AINT, "C gets a pointer to an MPI_Aint");
        assert_eq!(w.fortran_address_view(), 42);
        assert_eq!(w.fortran_integer_view(), 42);
        let big = AttrWord::from_fortran_address(TWO_40);
        assert_eq!(big.fortran_address_view(), TWO_40);
        assert_eq!(
            big.fortran_integer_view(),
            0,
            "2**40 truncates to 0 in MPI_ATTR_GET"
        );
        let neg = AttrWord::from_fortran_address(-5);
        assert_eq!(neg.fortran_integer_view(), -5);
    }

    // MPI 4.1 §20.3.7: MPI_ATTR_PUT with 7; the word is sign-extended.
    #[test]
    fn fortran_integer_row() {
        let w = AttrWord::from_fortran_integer(7);
        assert_eq!(w.c_view(AINT, INT), INT, "C gets a pointer to an int");
        assert_eq!(w.fortran_address_view(), 7);
        assert_eq!(w.fortran_integer_view(), 7);
        let neg = AttrWord::from_fortran_integer(-7);
        assert_eq!(neg.word, -7, "MPI_ATTR_PUT sign-extends to the whole word");
        assert_eq!(
            neg.fortran_address_view(),
            -7,
            "ADDRESS_KIND reader sees -7, not 2**32-7"
        );
        assert_eq!(neg.fortran_integer_view(), -7);
        let min = AttrWord::from_fortran_integer(i32::MIN);
        assert_eq!(min.fortran_address_view(), i32::MIN as i64);
    }

    // The 8-byte INTEGER build (-fdefault-integer-8): MPI_ATTR_GET reads the whole word, so
    // 2**40 set by MPI_COMM_SET_ATTR and a C pointer come back whole; MPI_ATTR_PUT of a
    // negative value is the word itself.
    #[cfg(feature = "fortran-integer-8")]
    #[test]
    fn eight_byte_integer() {
        let big = AttrWord::from_fortran_address(TWO_40);
        assert_eq!(
            big.fortran_integer_view(),
            TWO_40,
            "2**40 no longer truncates"
        );
        let p = AttrWord::from_c_pointer(0x7fff_1234_5678);
        assert_eq!(p.fortran_integer_view(), 0x7fff_1234_5678);
        let w = AttrWord::from_fortran_integer(-(TWO_40 + 3));
        assert_eq!(w.word, -(TWO_40 + 3));
        assert_eq!(w.fortran_address_view(), -(TWO_40 + 3));
        assert_eq!(
            w.c_view(AINT, INT),
            INT,
            "C still gets a pointer to the internal int"
        );
    }
}
