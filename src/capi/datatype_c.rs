//! The large-count (`_c`) datatype constructors (MPI 4.1 §5.1.2, §5.1.7): the same types as
//! their `int` forms, decoded with their arguments as large counts (§5.1.13).

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Result};
use crate::{entry, nonnull};
use std::ffi::c_int;

/// A large `count` argument as a length: negative is `MPI_ERR_COUNT`.
fn count_arg(count: MPI_Count) -> Result<usize> {
    usize::try_from(count)
        .map_err(|_| Error::invalid(MPI_ERR_COUNT, format!("count {count} is negative")))
}

/// Reads `n` large counts (NULL allowed when `n` is 0).
///
/// # Safety
/// `p` must point to `n` readable counts when `n > 0`.
unsafe fn counts(p: *const MPI_Count, n: usize, name: &'static str) -> Result<Vec<i64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    // SAFETY: `p` is valid here by this function's contract (its `# Safety`).
    Ok(unsafe { std::slice::from_raw_parts(p, n) }.to_vec())
}

/// Stores the new type, marked as made by the large-count form (decoded by that half of MPI 4.1
/// §5.1.13's table).
///
/// # Safety
/// `newtype` writable (checked by the caller).
unsafe fn out(newtype: *mut MPI_Datatype, h: Result<Handle>) -> Result<()> {
    let h = h?;
    if let Err(e) = rt().type_mark_large(h) {
        let _ = rt().type_free(h);
        return Err(e);
    }
    // SAFETY: `newtype` is valid here by this function's contract (its `# Safety`).
    unsafe { *newtype = h.0 };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_contiguous_c(
    count: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_contiguous_c", Scope::NoObject, {
        nonnull!(newtype);
        // SAFETY: `out` needs the output handle writable (MPI's contract for this routine,
        // capi/mod.rs).
        unsafe { out(newtype, rt().type_contiguous(count, Handle(oldtype))) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_vector_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    stride: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_vector_c", Scope::NoObject, {
        nonnull!(newtype);
        let h = rt().type_vector(count, blocklength, stride, Handle(oldtype));
        // SAFETY: `out` needs the output handle writable (MPI's contract for this routine,
        // capi/mod.rs).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hvector_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    stride: MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_hvector_c", Scope::NoObject, {
        nonnull!(newtype);
        let h = rt().type_create_hvector(count, blocklength, stride, Handle(oldtype));
        // SAFETY: `out` needs the output handle writable (MPI's contract for this routine,
        // capi/mod.rs).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_indexed_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_indexed_c", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `counts` needs the array to hold `n` counts when `n > 0` (MPI's contract for this
        // routine, capi/mod.rs).
        let bls = unsafe { counts(array_of_blocklengths, n, "array_of_blocklengths") }?;
        // SAFETY: `counts` needs the array to hold `n` counts when `n > 0` (MPI's contract for this
        // routine, capi/mod.rs).
        let ds = unsafe { counts(array_of_displacements, n, "array_of_displacements") }?;
        // SAFETY: `out` needs the output handle writable (MPI's contract for this routine,
        // capi/mod.rs).
        unsafe { out(newtype, rt().type_indexed(&bls, &ds, Handle(oldtype))) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hindexed_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_hindexed_c", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `counts` needs the array to hold `n` counts when `n > 0` (MPI's contract for this
        // routine, capi/mod.rs).
        let bls = unsafe { counts(array_of_blocklengths, n, "array_of_blocklengths") }?;
        // SAFETY: `counts` needs the array to hold `n` counts when `n > 0` (MPI's contract for this
        // routine, capi/mod.rs).
        let ds = unsafe { counts(array_of_displacements, n, "array_of_displacements") }?;
        // SAFETY: `out` needs the output handle writable (MPI's contract for this routine,
        // capi/mod.rs).
        unsafe {
            out(
                newtype,
                rt().type_create_hindexed(&bls, &ds, Handle(oldtype)),
            )
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_struct_c(
    count: MPI_Count,
    array_of_blocklengths: *const MPI_Count,
    array_of_displacements: *const MPI_Count,
    array_of_types: *const MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_struct_c", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `counts` needs the array to hold `n` counts when `n > 0` (MPI's contract for this
        // routine, capi/mod.rs).
        let bls = unsafe { counts(array_of_blocklengths, n, "array_of_blocklengths") }?;
        // SAFETY: `counts` needs the array to hold `n` counts when `n > 0` (MPI's contract for this
        // routine, capi/mod.rs).
        let ds = unsafe { counts(array_of_displacements, n, "array_of_displacements") }?;
        let ts: Vec<Handle> = if n == 0 {
            Vec::new()
        } else {
            nonnull!(array_of_types);
            // SAFETY: `array_of_types` is not NULL (checked above) and holds `count` datatypes
            // (MPI's contract for this routine, capi/mod.rs).
            unsafe { std::slice::from_raw_parts(array_of_types, n) }
                .iter()
                .map(|&t| Handle(t))
                .collect()
        };
        // SAFETY: `out` needs the output handle writable (MPI's contract for this routine,
        // capi/mod.rs).
        unsafe { out(newtype, rt().type_create_struct(&bls, &ds, &ts)) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_resized_c(
    oldtype: MPI_Datatype,
    lb: MPI_Count,
    extent: MPI_Count,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_resized_c", Scope::NoObject, {
        nonnull!(newtype);
        // SAFETY: `out` needs the output handle writable (MPI's contract for this routine,
        // capi/mod.rs).
        unsafe {
            out(
                newtype,
                rt().type_create_resized(Handle(oldtype), lb, extent),
            )
        }
    })
}

/// Reads `n` C ints (NULL allowed when `n` is 0).
///
/// # Safety
/// `p` must point to `n` readable ints when `n > 0`.
unsafe fn ints(p: *const c_int, n: usize, name: &'static str) -> Result<Vec<i64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    // SAFETY: `p` is valid here by this function's contract (its `# Safety`).
    Ok(unsafe { std::slice::from_raw_parts(p, n) }
        .iter()
        .map(|&x| i64::from(x))
        .collect())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_indexed_block_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_indexed_block_c", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `counts` needs the array to hold `n` counts when `n > 0` (MPI's contract for this
        // routine, capi/mod.rs).
        let ds = unsafe { counts(array_of_displacements, n, "array_of_displacements") }?;
        let h = rt().type_create_indexed_block(blocklength, &ds, Handle(oldtype));
        // SAFETY: `out` needs the output handle writable (checked non-NULL above).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hindexed_block_c(
    count: MPI_Count,
    blocklength: MPI_Count,
    array_of_displacements: *const MPI_Count,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_hindexed_block_c", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `counts` needs the array to hold `n` counts when `n > 0` (MPI's contract for this
        // routine, capi/mod.rs).
        let ds = unsafe { counts(array_of_displacements, n, "array_of_displacements") }?;
        let h = rt().type_create_hindexed_block(blocklength, &ds, Handle(oldtype));
        // SAFETY: `out` needs the output handle writable (checked non-NULL above).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_subarray_c(
    ndims: c_int,
    array_of_sizes: *const MPI_Count,
    array_of_subsizes: *const MPI_Count,
    array_of_starts: *const MPI_Count,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_subarray_c", Scope::NoObject, {
        nonnull!(newtype);
        // MPI 4.1 §5.1.3: ndims must be positive; the core says so with MPI_ERR_ARG.
        let n = usize::try_from(ndims).unwrap_or(0);
        // SAFETY: `counts` needs each array to hold `n` counts when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let sizes = unsafe { counts(array_of_sizes, n, "array_of_sizes") }?;
        // SAFETY: as above.
        let subsizes = unsafe { counts(array_of_subsizes, n, "array_of_subsizes") }?;
        // SAFETY: as above.
        let starts = unsafe { counts(array_of_starts, n, "array_of_starts") }?;
        let h = rt().type_create_subarray(&sizes, &subsizes, &starts, order, Handle(oldtype));
        // SAFETY: `out` needs the output handle writable (checked non-NULL above).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_darray_c(
    size: c_int,
    rank: c_int,
    ndims: c_int,
    array_of_gsizes: *const MPI_Count,
    array_of_distribs: *const c_int,
    array_of_dargs: *const c_int,
    array_of_psizes: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_darray_c", Scope::NoObject, {
        nonnull!(newtype);
        // MPI 4.1 §5.1.4: ndims must be positive; the core says so with MPI_ERR_ARG.
        let n = usize::try_from(ndims).unwrap_or(0);
        // SAFETY: `counts`/`ints` need each array to hold `n` elements when `n > 0` (MPI's
        // contract for this routine, capi/mod.rs).
        let gsizes = unsafe { counts(array_of_gsizes, n, "array_of_gsizes") }?;
        // SAFETY: as above.
        let distribs = unsafe { ints(array_of_distribs, n, "array_of_distribs") }?;
        // SAFETY: as above.
        let dargs = unsafe { ints(array_of_dargs, n, "array_of_dargs") }?;
        // SAFETY: as above.
        let psizes = unsafe { ints(array_of_psizes, n, "array_of_psizes") }?;
        let distribs: Vec<i32> = distribs.iter().map(|&d| d as i32).collect();
        let h = rt().type_create_darray(
            size.into(),
            rank.into(),
            &gsizes,
            &distribs,
            &dargs,
            &psizes,
            order,
            Handle(oldtype),
        );
        // SAFETY: `out` needs the output handle writable (checked non-NULL above).
        unsafe { out(newtype, h) }
    })
}
