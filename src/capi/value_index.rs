//! `MPI_Type_get_value_index` (MPI 4.1 §6.9.4): the predefined value-index pair type of
//! MINLOC/MAXLOC for a value type and an index type, or `MPI_DATATYPE_NULL` when the standard
//! defines none.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Handle, HandleKind};
use crate::{entry, try_out};
use std::ffi::c_int;

/// The predefined pair types of MPI 4.1 §6.9.4: (value type, index type, pair type).
const PAIRS: [(i32, i32, i32); 9] = [
    (MPI_FLOAT, MPI_INT, MPI_FLOAT_INT),
    (MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT),
    (MPI_LONG, MPI_INT, MPI_LONG_INT),
    (MPI_INT, MPI_INT, MPI_2INT),
    (MPI_SHORT, MPI_INT, MPI_SHORT_INT),
    (MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT),
    (MPI_REAL, MPI_REAL, MPI_2REAL),
    (
        MPI_DOUBLE_PRECISION,
        MPI_DOUBLE_PRECISION,
        MPI_2DOUBLE_PRECISION,
    ),
    (MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER),
];

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_value_index(
    value_type: MPI_Datatype,
    index_type: MPI_Datatype,
    pair_type: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_get_value_index", Scope::NoObject, {
        let out = try_out!(pair_type);
        rt().check_handle(HandleKind::Datatype, Handle(value_type))?;
        rt().check_handle(HandleKind::Datatype, Handle(index_type))?;
        let pair = PAIRS
            .iter()
            .find(|p| p.0 == value_type && p.1 == index_type)
            .map_or(MPI_DATATYPE_NULL, |p| p.2);
        out.set(pair);
        Ok(())
    })
}
