//! Datatype decoding entry points (MPI 4.1 §5.1.13): `MPI_Type_get_envelope`,
//! `MPI_Type_get_contents` and their `_c` forms, which alone decode types made by the `_c`
//! constructors (§5.1.13's table, `world::datatype::table`, says which of their arguments come
//! back as large counts).

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::datatype::Decoded;
use crate::world::{Error, Handle};
use crate::{entry, nonnull, try_out};
use std::ffi::c_int;

fn narrow_int(v: i64, what: &str) -> crate::error::Result<c_int> {
    c_int::try_from(v)
        .map_err(|_| Error::invalid(MPI_ERR_TYPE, format!("{what} {v} does not fit an int")))
}

/// Copies `src` into the caller's array of `max` entries: fewer than needed is `MPI_ERR_ARG`.
///
/// # Safety
/// `dst` must be valid for `max` writes when `src` is not empty.
unsafe fn fill<T, U: Copy>(
    dst: *mut T,
    max: i64,
    src: &[U],
    name: &'static str,
    conv: impl Fn(U) -> crate::error::Result<T>,
) -> crate::error::Result<()> {
    if (src.len() as i64) > max {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!(
                "{name} has room for {max} entries, {} are needed",
                src.len()
            ),
        ));
    }
    if src.is_empty() {
        return Ok(());
    }
    nonnull!(dst);
    let vals = src
        .iter()
        .map(|&v| conv(v))
        .collect::<crate::error::Result<Vec<T>>>()?;
    for (i, v) in vals.into_iter().enumerate() {
        // SAFETY: `dst` is valid here by this function's contract (its `# Safety`).
        unsafe { dst.add(i).write(v) };
    }
    Ok(())
}

/// The forms without large counts cannot describe a type whose decoding has large counts (MPI
/// 4.1 §5.1.13: MPI_ERR_TYPE, as MPICH does whatever the values).
fn no_large(e: &crate::world::datatype::Envelope) -> crate::error::Result<()> {
    if e.num_large_counts > 0 {
        return Err(Error::invalid(
            MPI_ERR_TYPE,
            "the datatype was made with large counts: use MPI_Type_get_envelope_c / _contents_c",
        ));
    }
    Ok(())
}

/// Frees the handles decoding made when the call fails after making them.
fn undo(d: &Decoded) {
    for &t in &d.types {
        if rt()
            .type_envelope(t)
            .is_ok_and(|e| e.combiner != MPI_COMBINER_NAMED)
        {
            let _ = rt().type_free(t);
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_envelope(
    datatype: MPI_Datatype,
    num_integers: *mut c_int,
    num_addresses: *mut c_int,
    num_datatypes: *mut c_int,
    combiner: *mut c_int,
) -> c_int {
    entry!("MPI_Type_get_envelope", Scope::NoObject, {
        nonnull!(num_integers, num_addresses, num_datatypes, combiner);
        let e = rt().type_envelope(Handle(datatype))?;
        no_large(&e)?;
        let ni = narrow_int(e.num_integers, "num_integers")?;
        let na = narrow_int(e.num_addresses, "num_addresses")?;
        let nd = narrow_int(e.num_datatypes, "num_datatypes")?;
        // SAFETY: `num_integers`, `num_addresses`, `num_datatypes`, `combiner`: arguments of this
        // call, checked non-NULL above, valid for their types during the call (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe {
            *num_integers = ni;
            *num_addresses = na;
            *num_datatypes = nd;
            *combiner = e.combiner;
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_envelope_c(
    datatype: MPI_Datatype,
    num_integers: *mut MPI_Count,
    num_addresses: *mut MPI_Count,
    num_large_counts: *mut MPI_Count,
    num_datatypes: *mut MPI_Count,
    combiner: *mut c_int,
) -> c_int {
    entry!("MPI_Type_get_envelope_c", Scope::NoObject, {
        let num_integers = try_out!(num_integers);
        let num_addresses = try_out!(num_addresses);
        let num_large_counts = try_out!(num_large_counts);
        let num_datatypes = try_out!(num_datatypes);
        let combiner = try_out!(combiner);
        let e = rt().type_envelope(Handle(datatype))?;
        num_integers.set(e.num_integers);
        num_addresses.set(e.num_addresses);
        num_large_counts.set(e.num_large_counts);
        num_datatypes.set(e.num_datatypes);
        combiner.set(e.combiner);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_contents(
    datatype: MPI_Datatype,
    max_integers: c_int,
    max_addresses: c_int,
    max_datatypes: c_int,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    array_of_datatypes: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_get_contents", Scope::NoObject, {
        let e = rt().type_envelope(Handle(datatype))?;
        no_large(&e)?;
        // Check the room before making any handle.
        for (have, need, name) in [
            (max_integers as i64, e.num_integers, "array_of_integers"),
            (max_addresses as i64, e.num_addresses, "array_of_addresses"),
            (max_datatypes as i64, e.num_datatypes, "array_of_datatypes"),
        ] {
            if have < need {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!("{name} has room for {have} entries, {need} are needed"),
                ));
            }
        }
        let d = rt().type_contents(Handle(datatype))?;
        // SAFETY: `fill` needs each output array to have room for the count it is given (MPI's
        // contract for this routine, capi/mod.rs).
        let done = unsafe {
            fill(
                array_of_integers,
                max_integers.into(),
                &d.ints,
                "array_of_integers",
                |v| narrow_int(v, "integer"),
            )
            .and_then(|_| {
                fill(
                    array_of_addresses,
                    max_addresses.into(),
                    &d.aints,
                    "array_of_addresses",
                    |v| Ok(v as MPI_Aint),
                )
            })
            .and_then(|_| {
                fill(
                    array_of_datatypes,
                    max_datatypes.into(),
                    &d.types,
                    "array_of_datatypes",
                    |h| Ok(h.0),
                )
            })
        };
        if done.is_err() {
            undo(&d);
        }
        done
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_contents_c(
    datatype: MPI_Datatype,
    max_integers: MPI_Count,
    max_addresses: MPI_Count,
    max_large_counts: MPI_Count,
    max_datatypes: MPI_Count,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    array_of_large_counts: *mut MPI_Count,
    array_of_datatypes: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_get_contents_c", Scope::NoObject, {
        let e = rt().type_envelope(Handle(datatype))?;
        for (have, need, name) in [
            (
                max_large_counts,
                e.num_large_counts,
                "array_of_large_counts",
            ),
            (max_integers, e.num_integers, "array_of_integers"),
            (max_addresses, e.num_addresses, "array_of_addresses"),
            (max_datatypes, e.num_datatypes, "array_of_datatypes"),
        ] {
            if have < need {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!("{name} has room for {have} entries, {need} are needed"),
                ));
            }
        }
        let d = rt().type_contents(Handle(datatype))?;
        // SAFETY: `fill` needs each output array to have room for the count it is given (MPI's
        // contract for this routine, capi/mod.rs).
        let done = unsafe {
            fill(
                array_of_integers,
                max_integers,
                &d.ints,
                "array_of_integers",
                |v| narrow_int(v, "integer"),
            )
            .and_then(|_| {
                fill(
                    array_of_addresses,
                    max_addresses,
                    &d.aints,
                    "array_of_addresses",
                    |v| Ok(v as MPI_Aint),
                )
            })
            .and_then(|_| {
                fill(
                    array_of_large_counts,
                    max_large_counts,
                    &d.large,
                    "array_of_large_counts",
                    Ok,
                )
            })
            .and_then(|_| {
                fill(
                    array_of_datatypes,
                    max_datatypes,
                    &d.types,
                    "array_of_datatypes",
                    |h| Ok(h.0),
                )
            })
        };
        if done.is_err() {
            undo(&d);
        }
        done
    })
}
