//! Datatype entry points (MPI 4.1 §5.1). Errors are raised on `MPI_COMM_SELF` (§9.3).

use crate::boundary::{read_c_string, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Result};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_char, c_int, c_void};

/// A C `count` argument as a length: negative is `MPI_ERR_COUNT` (MPI 4.1 §2.6.4).
fn count_arg(count: c_int) -> Result<usize> {
    usize::try_from(count)
        .map_err(|_| Error::invalid(MPI_ERR_COUNT, format!("count {count} is negative")))
}

/// Reads a C array of `n` elements, widened to `i64` (NULL is allowed when `n` is 0).
///
/// # Safety
/// `p` must point to `n` readable elements when `n > 0`.
unsafe fn array_arg<T: Copy + Into<i64>>(
    p: *const T,
    n: usize,
    name: &'static str,
) -> Result<Vec<i64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    // SAFETY: `p` is valid here by this function's contract (its `# Safety`).
    Ok(unsafe { std::slice::from_raw_parts(p, n) }
        .iter()
        .map(|&v| v.into())
        .collect())
}

/// Reads a C array of `MPI_Aint` displacements.
///
/// # Safety
/// As [`array_arg`].
unsafe fn aint_array_arg(p: *const MPI_Aint, n: usize, name: &'static str) -> Result<Vec<i64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    // SAFETY: `p` is valid here by this function's contract (its `# Safety`).
    Ok(unsafe { std::slice::from_raw_parts(p, n) }
        .iter()
        .map(|&v| v as i64)
        .collect())
}

/// Stores a new handle.
///
/// # Safety
/// `newtype` must be valid for writing (checked non-NULL by the caller).
unsafe fn out(newtype: *mut MPI_Datatype, h: Handle) -> Result<()> {
    // SAFETY: `newtype` is valid here by this function's contract (its `# Safety`).
    unsafe { *newtype = h.0 };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_contiguous(
    count: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_contiguous", Scope::NoObject, {
        nonnull!(newtype);
        let h = rt().type_contiguous(count.into(), Handle(oldtype))?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_vector(
    count: c_int,
    blocklength: c_int,
    stride: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_vector", Scope::NoObject, {
        nonnull!(newtype);
        let h = rt().type_vector(
            count.into(),
            blocklength.into(),
            stride.into(),
            Handle(oldtype),
        )?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hvector(
    count: c_int,
    blocklength: c_int,
    stride: MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_hvector", Scope::NoObject, {
        nonnull!(newtype);
        let h = rt().type_create_hvector(
            count.into(),
            blocklength.into(),
            stride as i64,
            Handle(oldtype),
        )?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_indexed(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_indexed", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let bls = unsafe { array_arg(array_of_blocklengths, n, "array_of_blocklengths") }?;
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let disps = unsafe { array_arg(array_of_displacements, n, "array_of_displacements") }?;
        let h = rt().type_indexed(&bls, &disps, Handle(oldtype))?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hindexed(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_hindexed", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let bls = unsafe { array_arg(array_of_blocklengths, n, "array_of_blocklengths") }?;
        // SAFETY: `aint_array_arg` needs the array to hold `n` elements when `n > 0` (MPI's
        // contract for this routine, capi/mod.rs).
        let disps = unsafe { aint_array_arg(array_of_displacements, n, "array_of_displacements") }?;
        let h = rt().type_create_hindexed(&bls, &disps, Handle(oldtype))?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_indexed_block(
    count: c_int,
    blocklength: c_int,
    array_of_displacements: *const c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_indexed_block", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let disps = unsafe { array_arg(array_of_displacements, n, "array_of_displacements") }?;
        let h = rt().type_create_indexed_block(blocklength.into(), &disps, Handle(oldtype))?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_hindexed_block(
    count: c_int,
    blocklength: c_int,
    array_of_displacements: *const MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_hindexed_block", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `aint_array_arg` needs the array to hold `n` elements when `n > 0` (MPI's
        // contract for this routine, capi/mod.rs).
        let disps = unsafe { aint_array_arg(array_of_displacements, n, "array_of_displacements") }?;
        let h = rt().type_create_hindexed_block(blocklength.into(), &disps, Handle(oldtype))?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_struct(
    count: c_int,
    array_of_blocklengths: *const c_int,
    array_of_displacements: *const MPI_Aint,
    array_of_types: *const MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_struct", Scope::NoObject, {
        nonnull!(newtype);
        let n = count_arg(count)?;
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let bls = unsafe { array_arg(array_of_blocklengths, n, "array_of_blocklengths") }?;
        // SAFETY: `aint_array_arg` needs the array to hold `n` elements when `n > 0` (MPI's
        // contract for this routine, capi/mod.rs).
        let disps = unsafe { aint_array_arg(array_of_displacements, n, "array_of_displacements") }?;
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let types: Vec<Handle> = unsafe { array_arg(array_of_types, n, "array_of_types") }?
            .into_iter()
            .map(|t| Handle(t as i32))
            .collect();
        let h = rt().type_create_struct(&bls, &disps, &types)?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_subarray(
    ndims: c_int,
    array_of_sizes: *const c_int,
    array_of_subsizes: *const c_int,
    array_of_starts: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_subarray", Scope::NoObject, {
        nonnull!(newtype);
        // MPI 4.1 §5.1.3: ndims must be positive; the core says so with MPI_ERR_ARG.
        let n = usize::try_from(ndims).unwrap_or(0);
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let sizes = unsafe { array_arg(array_of_sizes, n, "array_of_sizes") }?;
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let subsizes = unsafe { array_arg(array_of_subsizes, n, "array_of_subsizes") }?;
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let starts = unsafe { array_arg(array_of_starts, n, "array_of_starts") }?;
        let h = rt().type_create_subarray(&sizes, &subsizes, &starts, order, Handle(oldtype))?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_resized(
    oldtype: MPI_Datatype,
    lb: MPI_Aint,
    extent: MPI_Aint,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_resized", Scope::NoObject, {
        nonnull!(newtype);
        let h = rt().type_create_resized(Handle(oldtype), lb as i64, extent as i64)?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_dup(oldtype: MPI_Datatype, newtype: *mut MPI_Datatype) -> c_int {
    entry!("MPI_Type_dup", Scope::NoObject, {
        let newtype = try_out!(newtype);
        let h = rt().type_dup(Handle(oldtype));
        // As for MPI_Comm_dup: on failure the new handle is the null handle.
        newtype.set(h.as_ref().map_or(MPI_DATATYPE_NULL, |h| h.0));
        h.map(drop)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_commit(datatype: *mut MPI_Datatype) -> c_int {
    entry!("MPI_Type_commit", Scope::NoObject, {
        let datatype = try_out!(datatype);
        rt().type_commit(Handle(datatype.get()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_free(datatype: *mut MPI_Datatype) -> c_int {
    entry!("MPI_Type_free", Scope::NoObject, {
        let datatype = try_out!(datatype);
        rt().type_free(Handle(datatype.get()))?;
        datatype.set(MPI_DATATYPE_NULL);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size(datatype: MPI_Datatype, size: *mut c_int) -> c_int {
    entry!("MPI_Type_size", Scope::NoObject, {
        let size = try_out!(size);
        let s = rt().type_size(Handle(datatype))?;
        // MPI 4.1 §5.1.5: a size that does not fit an int is MPI_UNDEFINED.
        size.set(c_int::try_from(s).unwrap_or(MPI_UNDEFINED));
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_x(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    entry!("MPI_Type_size_x", Scope::NoObject, {
        let size = try_out!(size);
        let s = rt().type_size(Handle(datatype))?;
        size.set(s);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent(
    datatype: MPI_Datatype,
    lb: *mut MPI_Aint,
    extent: *mut MPI_Aint,
) -> c_int {
    entry!("MPI_Type_get_extent", Scope::NoObject, {
        let lb = try_out!(lb);
        let extent = try_out!(extent);
        let (l, e) = rt().type_get_extent(Handle(datatype))?;
        lb.set(l as MPI_Aint);
        extent.set(e as MPI_Aint);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent_x(
    datatype: MPI_Datatype,
    lb: *mut MPI_Count,
    extent: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Type_get_extent_x", Scope::NoObject, {
        let lb = try_out!(lb);
        let extent = try_out!(extent);
        let (l, e) = rt().type_get_extent(Handle(datatype))?;
        lb.set(l);
        extent.set(e);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Aint,
    true_extent: *mut MPI_Aint,
) -> c_int {
    entry!("MPI_Type_get_true_extent", Scope::NoObject, {
        let true_lb = try_out!(true_lb);
        let true_extent = try_out!(true_extent);
        let (l, e) = rt().type_get_true_extent(Handle(datatype))?;
        true_lb.set(l as MPI_Aint);
        true_extent.set(e as MPI_Aint);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent_x(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Count,
    true_extent: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Type_get_true_extent_x", Scope::NoObject, {
        let true_lb = try_out!(true_lb);
        let true_extent = try_out!(true_extent);
        let (l, e) = rt().type_get_true_extent(Handle(datatype))?;
        true_lb.set(l);
        true_extent.set(e);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_set_name(
    datatype: MPI_Datatype,
    type_name: *const c_char,
) -> c_int {
    entry!("MPI_Type_set_name", Scope::NoObject, {
        nonnull!(type_name);
        // SAFETY: `type_name` checked non-NULL above (capi/mod.rs contract).
        rt().type_set_name(Handle(datatype), &unsafe { read_c_string(type_name) }?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_name(
    datatype: MPI_Datatype,
    type_name: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    entry!("MPI_Type_get_name", Scope::NoObject, {
        nonnull!(type_name);
        let resultlen = try_out!(resultlen);
        let name = rt().type_get_name(Handle(datatype))?;
        // SAFETY: `type_name` checked non-NULL above (capi/mod.rs contract).
        let n = unsafe { write_c_string(type_name, MPI_MAX_OBJECT_NAME as usize, &name) };
        resultlen.set(n);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_address(location: *const c_void, address: *mut MPI_Aint) -> c_int {
    entry!("MPI_Get_address", Scope::NoObject, {
        let address = try_out!(address);
        // MPI 4.1 §5.1.5: the address relative to MPI_BOTTOM (NULL); any location is valid.
        address.set(location as MPI_Aint);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_create_darray(
    size: c_int,
    rank: c_int,
    ndims: c_int,
    array_of_gsizes: *const c_int,
    array_of_distribs: *const c_int,
    array_of_dargs: *const c_int,
    array_of_psizes: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    entry!("MPI_Type_create_darray", Scope::NoObject, {
        nonnull!(newtype);
        // MPI 4.1 §5.1.4: ndims must be positive; the core says so with MPI_ERR_ARG.
        let n = usize::try_from(ndims).unwrap_or(0);
        // SAFETY: `array_arg` needs the array to hold `n` elements when `n > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let gsizes = unsafe { array_arg(array_of_gsizes, n, "array_of_gsizes") }?;
        // SAFETY: as above.
        let distribs = unsafe { array_arg(array_of_distribs, n, "array_of_distribs") }?;
        // SAFETY: as above.
        let dargs = unsafe { array_arg(array_of_dargs, n, "array_of_dargs") }?;
        // SAFETY: as above.
        let psizes = unsafe { array_arg(array_of_psizes, n, "array_of_psizes") }?;
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
        )?;
        // SAFETY: `newtype` checked non-NULL above (capi/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}
