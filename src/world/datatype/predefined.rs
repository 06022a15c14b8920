//! The predefined datatypes (with x86_64 Linux sizes) and operations.

use super::layout::{Layout, FINT};
use crate::world::objects::datatype::Datatype;

use crate::consts::*;
use crate::error::{BadHandleReason, Error, Result};
use crate::kinds::HandleKind;
use crate::world::handle::{kind_of, Handle, Slab};

/// Every predefined datatype of `consts.rs`: (handle, name, layout) with x86_64 Linux sizes.
pub(super) fn predefined_types() -> Vec<(i32, &'static str, Layout)> {
    let b = Layout::basic;
    // Pair types are the C structs {T1 a; T2 b;} (MPI 4.1 §6.9.4), with the struct's padding.
    let p = |first: i64, second_off: i64, second: i64, extent: i64, align: i64| {
        Layout::pair(&[(0, first), (second_off, second)], extent, align)
    };
    vec![
        (MPI_AINT, "MPI_AINT", b(8, 8)),
        (MPI_COUNT, "MPI_COUNT", b(8, 8)),
        (MPI_OFFSET, "MPI_OFFSET", b(8, 8)),
        (MPI_PACKED, "MPI_PACKED", b(1, 1)),
        (MPI_SHORT, "MPI_SHORT", b(2, 2)),
        (MPI_INT, "MPI_INT", b(4, 4)),
        (MPI_LONG, "MPI_LONG", b(8, 8)),
        (MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", b(8, 8)),
        (MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", b(2, 2)),
        (MPI_UNSIGNED, "MPI_UNSIGNED", b(4, 4)),
        (MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", b(8, 8)),
        (MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", b(8, 8)),
        (MPI_FLOAT, "MPI_FLOAT", b(4, 4)),
        (MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", b(8, 4)),
        (MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", b(8, 4)),
        (MPI_DOUBLE, "MPI_DOUBLE", b(8, 8)),
        (MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", b(16, 8)),
        (MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", b(16, 8)),
        (MPI_LOGICAL, "MPI_LOGICAL", b(FINT, FINT)),
        (MPI_INTEGER, "MPI_INTEGER", b(FINT, FINT)),
        (MPI_REAL, "MPI_REAL", b(4, 4)),
        (MPI_COMPLEX, "MPI_COMPLEX", b(8, 4)),
        (MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", b(8, 8)),
        (MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", b(16, 8)),
        (MPI_CHARACTER, "MPI_CHARACTER", b(1, 1)),
        (MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", b(16, 16)),
        (
            MPI_C_LONG_DOUBLE_COMPLEX,
            "MPI_C_LONG_DOUBLE_COMPLEX",
            b(32, 16),
        ),
        (
            MPI_CXX_LONG_DOUBLE_COMPLEX,
            "MPI_CXX_LONG_DOUBLE_COMPLEX",
            b(32, 16),
        ),
        (MPI_FLOAT_INT, "MPI_FLOAT_INT", p(4, 4, 4, 8, 4)),
        (MPI_DOUBLE_INT, "MPI_DOUBLE_INT", p(8, 8, 4, 16, 8)),
        (MPI_LONG_INT, "MPI_LONG_INT", p(8, 8, 4, 16, 8)),
        (MPI_2INT, "MPI_2INT", p(4, 4, 4, 8, 4)),
        (MPI_SHORT_INT, "MPI_SHORT_INT", p(2, 4, 4, 8, 4)),
        (
            MPI_LONG_DOUBLE_INT,
            "MPI_LONG_DOUBLE_INT",
            p(16, 16, 4, 32, 16),
        ),
        (MPI_2REAL, "MPI_2REAL", p(4, 4, 4, 8, 4)),
        (
            MPI_2DOUBLE_PRECISION,
            "MPI_2DOUBLE_PRECISION",
            p(8, 8, 8, 16, 8),
        ),
        (
            MPI_2INTEGER,
            "MPI_2INTEGER",
            p(FINT, FINT, FINT, 2 * FINT, FINT),
        ),
        (MPI_C_BOOL, "MPI_C_BOOL", b(1, 1)),
        (MPI_CXX_BOOL, "MPI_CXX_BOOL", b(1, 1)),
        (MPI_WCHAR, "MPI_WCHAR", b(4, 4)),
        (MPI_INT8_T, "MPI_INT8_T", b(1, 1)),
        (MPI_UINT8_T, "MPI_UINT8_T", b(1, 1)),
        (MPI_CHAR, "MPI_CHAR", b(1, 1)),
        (MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", b(1, 1)),
        (MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", b(1, 1)),
        (MPI_BYTE, "MPI_BYTE", b(1, 1)),
        (MPI_INT16_T, "MPI_INT16_T", b(2, 2)),
        (MPI_UINT16_T, "MPI_UINT16_T", b(2, 2)),
        (MPI_INT32_T, "MPI_INT32_T", b(4, 4)),
        (MPI_UINT32_T, "MPI_UINT32_T", b(4, 4)),
        (MPI_INT64_T, "MPI_INT64_T", b(8, 8)),
        (MPI_UINT64_T, "MPI_UINT64_T", b(8, 8)),
        // Fortran sized types (MPI 4.1 §19.1.9): KIND=n is n bytes, a COMPLEX two REALs.
        (MPI_LOGICAL1, "MPI_LOGICAL1", b(1, 1)),
        (MPI_INTEGER1, "MPI_INTEGER1", b(1, 1)),
        (MPI_LOGICAL2, "MPI_LOGICAL2", b(2, 2)),
        (MPI_INTEGER2, "MPI_INTEGER2", b(2, 2)),
        (MPI_REAL2, "MPI_REAL2", b(2, 2)),
        (MPI_LOGICAL4, "MPI_LOGICAL4", b(4, 4)),
        (MPI_INTEGER4, "MPI_INTEGER4", b(4, 4)),
        (MPI_REAL4, "MPI_REAL4", b(4, 4)),
        (MPI_COMPLEX4, "MPI_COMPLEX4", b(4, 2)),
        (MPI_LOGICAL8, "MPI_LOGICAL8", b(8, 8)),
        (MPI_INTEGER8, "MPI_INTEGER8", b(8, 8)),
        (MPI_REAL8, "MPI_REAL8", b(8, 8)),
        (MPI_COMPLEX8, "MPI_COMPLEX8", b(8, 4)),
        (MPI_LOGICAL16, "MPI_LOGICAL16", b(16, 16)),
        (MPI_INTEGER16, "MPI_INTEGER16", b(16, 16)),
        (MPI_REAL16, "MPI_REAL16", b(16, 16)),
        (MPI_COMPLEX16, "MPI_COMPLEX16", b(16, 8)),
        (MPI_COMPLEX32, "MPI_COMPLEX32", b(32, 16)),
    ]
}

/// Installs every predefined datatype, committed, named as its constant.
pub fn install_predefined(types: &mut Slab<Datatype>) -> Result<()> {
    for (h, name, layout) in predefined_types() {
        let layout = layout.typed(&super::external32::elems(h));
        let mut t = Datatype::new(layout, MPI_COMBINER_NAMED);
        t.name = name.to_owned();
        t.committed = true;
        types.insert_predefined(Handle(h), t)?;
    }
    Ok(())
}

/// Accepts the predefined reduction operations (`MPI_SUM` ... `MPI_NO_OP`).
pub fn check_op(h: Handle) -> Result<()> {
    const OPS: [i32; 14] = [
        MPI_SUM,
        MPI_MIN,
        MPI_MAX,
        MPI_PROD,
        MPI_BAND,
        MPI_BOR,
        MPI_BXOR,
        MPI_LAND,
        MPI_LOR,
        MPI_LXOR,
        MPI_MINLOC,
        MPI_MAXLOC,
        MPI_REPLACE,
        MPI_NO_OP,
    ];
    if OPS.contains(&h.0) {
        return Ok(());
    }
    if h.0 == MPI_OP_NULL {
        return Err(Error::NullHandle {
            kind: HandleKind::Op,
        });
    }
    let reason = match kind_of(h) {
        Some(k) if k != HandleKind::Op => BadHandleReason::WrongKind(k),
        _ => BadHandleReason::Forged,
    };
    Err(Error::BadHandle {
        kind: HandleKind::Op,
        handle: h.0,
        reason,
    })
}
