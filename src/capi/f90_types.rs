//! `MPI_Type_create_f90_integer/real/complex` (MPI 4.1 §19.1.9): a predefined type that behaves
//! as the sized type of the smallest kind gfortran's SELECTED_INT_KIND / SELECTED_REAL_KIND
//! would give for the range and precision (MPI_ERR_ARG when no kind has one; MPI has no type for
//! gfortran's REAL(10), so precisions 16..=18 take the 16-byte kind), and decodes as
//! `MPI_COMBINER_F90_*` with the arguments given (`world::datatype::f90`).

use crate::boundary::{rt, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Result};
use crate::{entry, try_out};
use std::ffi::c_int;

/// The integer kind with at least `r` decimal digits of range.
fn integer_for(r: i32) -> Result<i32> {
    Ok(match r {
        ..=2 => MPI_INTEGER1,
        3..=4 => MPI_INTEGER2,
        5..=9 => MPI_INTEGER4,
        10..=18 => MPI_INTEGER8,
        19..=38 => MPI_INTEGER16,
        _ => {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("no integer kind has range {r}"),
            ))
        }
    })
}

/// The real kind's byte size for precision `p` and range `r` (either may be MPI_UNDEFINED).
fn real_bytes(p: i32, r: i32) -> Result<i32> {
    if p == MPI_UNDEFINED && r == MPI_UNDEFINED {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            "p and r are both MPI_UNDEFINED",
        ));
    }
    let p = if p == MPI_UNDEFINED { 0 } else { p };
    let r = if r == MPI_UNDEFINED { 0 } else { r };
    Ok(match (p, r) {
        (..=6, ..=37) => 4,
        (..=15, ..=307) => 8,
        (..=33, ..=4931) => 16,
        _ => {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("no real kind has precision {p} and range {r}"),
            ))
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_f90_integer(
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_f90_integer", Scope::NoObject, {
        let newtype = try_out!(newtype);
        let like = integer_for(r)?;
        newtype.set(
            rt().type_f90(MPI_COMBINER_F90_INTEGER, &[r.into()], Handle(like))?
                .0,
        );
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_f90_real(
    p: c_int,
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_f90_real", Scope::NoObject, {
        let newtype = try_out!(newtype);
        let like = match real_bytes(p, r)? {
            4 => MPI_REAL4,
            8 => MPI_REAL8,
            _ => MPI_REAL16,
        };
        let ints = [p.into(), r.into()];
        newtype.set(rt().type_f90(MPI_COMBINER_F90_REAL, &ints, Handle(like))?.0);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_f90_complex(
    p: c_int,
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_f90_complex", Scope::NoObject, {
        let newtype = try_out!(newtype);
        // MPI_COMPLEXn is named after its total size: two reals of the kind.
        let like = match real_bytes(p, r)? {
            4 => MPI_COMPLEX8,
            8 => MPI_COMPLEX16,
            _ => MPI_COMPLEX32,
        };
        let ints = [p.into(), r.into()];
        newtype.set(
            rt().type_f90(MPI_COMBINER_F90_COMPLEX, &ints, Handle(like))?
                .0,
        );
        Ok(())
    })
}
