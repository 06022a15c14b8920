//! Fortran datatype routines (MPI 4.1 §5.1). As in C, errors are raised on `MPI_COMM_SELF`
//! (§9.3): datatype calls are tied to no communicator or window.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::sentinels::bottom;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::{
    by_ref, fint, narrow, read_narrow, wide, MPI_Aint, MPI_Faint_array, MPI_Farray, MPI_Fcount,
    MPI_Fint,
};
use crate::nonnull;
use crate::world::{Error, Handle, Result};
use std::ffi::{c_char, c_void};

/// A datatype handle argument (NULL, which only C can pass, reads as 0): one that does not fit
/// 32 bits is no datatype (MPI_ERR_TYPE).
unsafe fn type_ref(p: *const MPI_Fint) -> Result<i32> {
    // SAFETY: `p` NULL or valid (fortran/mod.rs contract).
    narrow(unsafe { by_ref(p, 0) }, MPI_ERR_TYPE, "datatype")
}

/// The handle of a datatype argument (checked non-NULL by the caller).
unsafe fn type_arg(p: *const MPI_Fint, what: &'static str) -> Result<Handle> {
    Ok(Handle(unsafe { read_narrow(p, MPI_ERR_TYPE, what) }?))
}

/// A COUNT argument as a length: negative is `MPI_ERR_COUNT` (MPI 4.1 §2.6.4), as in C.
fn count_arg(count: MPI_Fint) -> Result<usize> {
    usize::try_from(count)
        .map_err(|_| Error::invalid(MPI_ERR_COUNT, format!("count {count} is negative")))
}

/// Reads an `INTEGER X(*)` of `n` elements, widened.
///
/// # Safety
/// `p` must point to `n` readable INTEGERs when `n > 0`.
unsafe fn int_array(p: *const MPI_Farray, n: usize, name: &'static str) -> Result<Vec<i64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    Ok(unsafe { std::slice::from_raw_parts(p, n) }
        .iter()
        .map(|&v| wide(v))
        .collect())
}

/// Reads an `INTEGER(KIND=MPI_ADDRESS_KIND) X(*)` of `n` elements.
///
/// # Safety
/// `p` must point to `n` readable elements when `n > 0`.
unsafe fn aint_array(p: *const MPI_Faint_array, n: usize, name: &'static str) -> Result<Vec<i64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    Ok(unsafe { std::slice::from_raw_parts(p, n) }
        .iter()
        .map(|&v| v as i64)
        .collect())
}

/// Stores a new handle in NEWTYPE.
///
/// # Safety
/// `newtype` must be writable (checked non-NULL by the caller).
unsafe fn out(newtype: *mut MPI_Fint, h: Handle) -> Result<()> {
    unsafe { *newtype = fint(h.0) };
    Ok(())
}

/// `MPI_TYPE_CONTIGUOUS(COUNT, OLDTYPE, NEWTYPE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_contiguous_(
    count: *const MPI_Fint,
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_CONTIGUOUS", Scope::NoObject, {
        nonnull!(count, oldtype, newtype);
        let h = rt().type_contiguous(wide(unsafe { *count }), unsafe {
            type_arg(oldtype, "oldtype")
        }?)?;
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_VECTOR(COUNT, BLOCKLENGTH, STRIDE, OLDTYPE, NEWTYPE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_vector_(
    count: *const MPI_Fint,
    blocklength: *const MPI_Fint,
    stride: *const MPI_Fint,
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_VECTOR", Scope::NoObject, {
        nonnull!(count, blocklength, stride, oldtype, newtype);
        let h = rt().type_vector(
            // SAFETY: `count`, `blocklength`, `stride` checked non-NULL above (fortran/mod.rs
            // contract).
            wide(unsafe { *count }),
            // SAFETY: `blocklength`, `stride`, `oldtype` checked non-NULL above (fortran/mod.rs
            // contract).
            wide(unsafe { *blocklength }),
            wide(unsafe { *stride }),
            unsafe { type_arg(oldtype, "oldtype") }?,
        )?;
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_CREATE_HVECTOR(COUNT, BLOCKLENGTH, STRIDE, OLDTYPE, NEWTYPE, IERROR)`,
/// `INTEGER(KIND=MPI_ADDRESS_KIND) STRIDE`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_hvector_(
    count: *const MPI_Fint,
    blocklength: *const MPI_Fint,
    stride: *const MPI_Aint,
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_CREATE_HVECTOR", Scope::NoObject, {
        nonnull!(count, blocklength, stride, oldtype, newtype);
        let h = rt().type_create_hvector(
            // SAFETY: `count`, `blocklength`, `stride` checked non-NULL above (fortran/mod.rs
            // contract).
            wide(unsafe { *count }),
            // SAFETY: `blocklength`, `stride`, `oldtype` checked non-NULL above (fortran/mod.rs
            // contract).
            wide(unsafe { *blocklength }),
            unsafe { *stride } as i64,
            unsafe { type_arg(oldtype, "oldtype") }?,
        )?;
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_INDEXED(COUNT, ARRAY_OF_BLOCKLENGTHS, ARRAY_OF_DISPLACEMENTS, OLDTYPE, NEWTYPE,
/// IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_indexed_(
    count: *const MPI_Fint,
    array_of_blocklengths: *const MPI_Farray,
    array_of_displacements: *const MPI_Farray,
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_INDEXED", Scope::NoObject, {
        nonnull!(count, oldtype, newtype);
        // SAFETY: `count` checked non-NULL above (fortran/mod.rs contract).
        let n = count_arg(unsafe { *count })?;
        let bls = unsafe { int_array(array_of_blocklengths, n, "array_of_blocklengths") }?;
        let disps = unsafe { int_array(array_of_displacements, n, "array_of_displacements") }?;
        // SAFETY: `oldtype`, `newtype` checked non-NULL above (fortran/mod.rs contract).
        let h = rt().type_indexed(&bls, &disps, unsafe { type_arg(oldtype, "oldtype") }?)?;
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_CREATE_HINDEXED(COUNT, ARRAY_OF_BLOCKLENGTHS, ARRAY_OF_DISPLACEMENTS, OLDTYPE,
/// NEWTYPE, IERROR)`, `INTEGER(KIND=MPI_ADDRESS_KIND) ARRAY_OF_DISPLACEMENTS(*)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_hindexed_(
    count: *const MPI_Fint,
    array_of_blocklengths: *const MPI_Farray,
    array_of_displacements: *const MPI_Faint_array,
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_CREATE_HINDEXED", Scope::NoObject, {
        nonnull!(count, oldtype, newtype);
        // SAFETY: `count` checked non-NULL above (fortran/mod.rs contract).
        let n = count_arg(unsafe { *count })?;
        let bls = unsafe { int_array(array_of_blocklengths, n, "array_of_blocklengths") }?;
        let disps = unsafe { aint_array(array_of_displacements, n, "array_of_displacements") }?;
        let h =
            // SAFETY: `oldtype`, `newtype` checked non-NULL above (fortran/mod.rs contract).
            rt().type_create_hindexed(&bls, &disps, unsafe { type_arg(oldtype, "oldtype") }?)?;
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_CREATE_INDEXED_BLOCK(COUNT, BLOCKLENGTH, ARRAY_OF_DISPLACEMENTS, OLDTYPE, NEWTYPE,
/// IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_indexed_block_(
    count: *const MPI_Fint,
    blocklength: *const MPI_Fint,
    array_of_displacements: *const MPI_Farray,
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_CREATE_INDEXED_BLOCK", Scope::NoObject, {
        nonnull!(count, blocklength, oldtype, newtype);
        // SAFETY: `count` checked non-NULL above (fortran/mod.rs contract).
        let n = count_arg(unsafe { *count })?;
        let disps = unsafe { int_array(array_of_displacements, n, "array_of_displacements") }?;
        let h = rt().type_create_indexed_block(wide(unsafe { *blocklength }), &disps, unsafe {
            type_arg(oldtype, "oldtype")
        }?)?;
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_CREATE_HINDEXED_BLOCK(COUNT, BLOCKLENGTH, ARRAY_OF_DISPLACEMENTS, OLDTYPE,
/// NEWTYPE, IERROR)`, `INTEGER(KIND=MPI_ADDRESS_KIND) ARRAY_OF_DISPLACEMENTS(*)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_hindexed_block_(
    count: *const MPI_Fint,
    blocklength: *const MPI_Fint,
    array_of_displacements: *const MPI_Faint_array,
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_CREATE_HINDEXED_BLOCK", Scope::NoObject, {
        nonnull!(count, blocklength, oldtype, newtype);
        // SAFETY: `count` checked non-NULL above (fortran/mod.rs contract).
        let n = count_arg(unsafe { *count })?;
        let disps = unsafe { aint_array(array_of_displacements, n, "array_of_displacements") }?;
        let h = rt().type_create_hindexed_block(wide(unsafe { *blocklength }), &disps, unsafe {
            type_arg(oldtype, "oldtype")
        }?)?;
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_CREATE_STRUCT(COUNT, ARRAY_OF_BLOCKLENGTHS, ARRAY_OF_DISPLACEMENTS,
/// ARRAY_OF_TYPES, NEWTYPE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_struct_(
    count: *const MPI_Fint,
    array_of_blocklengths: *const MPI_Farray,
    array_of_displacements: *const MPI_Faint_array,
    array_of_types: *const MPI_Farray,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_CREATE_STRUCT", Scope::NoObject, {
        nonnull!(count, newtype);
        // SAFETY: `count` checked non-NULL above (fortran/mod.rs contract).
        let n = count_arg(unsafe { *count })?;
        let bls = unsafe { int_array(array_of_blocklengths, n, "array_of_blocklengths") }?;
        let disps = unsafe { aint_array(array_of_displacements, n, "array_of_displacements") }?;
        let types: Vec<Handle> = unsafe { int_array(array_of_types, n, "array_of_types") }?
            .into_iter()
            .map(|t| {
                i32::try_from(t).map(Handle).map_err(|_| {
                    Error::invalid(
                        MPI_ERR_TYPE,
                        format!("array_of_types(i) = {t} is no datatype"),
                    )
                })
            })
            .collect::<Result<_>>()?;
        let h = rt().type_create_struct(&bls, &disps, &types)?;
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_CREATE_SUBARRAY(NDIMS, ARRAY_OF_SIZES, ARRAY_OF_SUBSIZES, ARRAY_OF_STARTS, ORDER,
/// OLDTYPE, NEWTYPE, IERROR)`: the starts are zero-based in Fortran too (MPI 4.1 §5.1.3).
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_subarray_(
    ndims: *const MPI_Fint,
    array_of_sizes: *const MPI_Farray,
    array_of_subsizes: *const MPI_Farray,
    array_of_starts: *const MPI_Farray,
    order: *const MPI_Fint,
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_CREATE_SUBARRAY", Scope::NoObject, {
        nonnull!(ndims, order, oldtype, newtype);
        // ndims must be positive; the core says so with MPI_ERR_ARG (as the C entry point).
        // SAFETY: `ndims` checked non-NULL above (fortran/mod.rs contract).
        let n = usize::try_from(unsafe { *ndims }).unwrap_or(0);
        // SAFETY: `order` checked non-NULL above (fortran/mod.rs contract).
        let order = unsafe { read_narrow(order, MPI_ERR_ARG, "order") }?;
        let sizes = unsafe { int_array(array_of_sizes, n, "array_of_sizes") }?;
        let subsizes = unsafe { int_array(array_of_subsizes, n, "array_of_subsizes") }?;
        let starts = unsafe { int_array(array_of_starts, n, "array_of_starts") }?;
        let h = rt().type_create_subarray(&sizes, &subsizes, &starts, order, unsafe {
            type_arg(oldtype, "oldtype")
        }?)?;
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_CREATE_RESIZED(OLDTYPE, LB, EXTENT, NEWTYPE, IERROR)`,
/// `INTEGER(KIND=MPI_ADDRESS_KIND) LB, EXTENT`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_create_resized_(
    oldtype: *const MPI_Fint,
    lb: *const MPI_Aint,
    extent: *const MPI_Aint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_CREATE_RESIZED", Scope::NoObject, {
        nonnull!(oldtype, lb, extent, newtype);
        let h = rt().type_create_resized(
            // SAFETY: `oldtype` checked non-NULL above (fortran/mod.rs contract).
            unsafe { type_arg(oldtype, "oldtype") }?,
            // SAFETY: `lb`, `extent` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *lb } as i64,
            // SAFETY: `extent` checked non-NULL above (fortran/mod.rs contract).
            unsafe { *extent } as i64,
        )?;
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { out(newtype, h) }
    })
}

/// `MPI_TYPE_DUP(OLDTYPE, NEWTYPE, IERROR)`: runs the copy callbacks (MPI 4.1 §7.7.4).
#[no_mangle]
pub unsafe extern "C" fn mpi_type_dup_(
    oldtype: *const MPI_Fint,
    newtype: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_DUP", Scope::NoObject, {
        // SAFETY: `oldtype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(oldtype) }?;
        nonnull!(newtype);
        let h = rt().type_dup(Handle(t));
        // As MPI_COMM_DUP: on failure the new handle is the null handle.
        // SAFETY: `newtype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *newtype = fint(h.as_ref().map_or(MPI_DATATYPE_NULL, |h| h.0)) };
        h.map(drop)
    })
}

/// `MPI_TYPE_COMMIT(DATATYPE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_commit_(datatype: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_TYPE_COMMIT", Scope::NoObject, {
        nonnull!(datatype);
        // SAFETY: `datatype` checked non-NULL above (fortran/mod.rs contract).
        rt().type_commit(unsafe { type_arg(datatype, "datatype") }?)
    })
}

/// `MPI_TYPE_FREE(DATATYPE, IERROR)`: runs the delete callbacks, then sets DATATYPE to
/// MPI_DATATYPE_NULL.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_free_(datatype: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_TYPE_FREE", Scope::NoObject, {
        nonnull!(datatype);
        // SAFETY: `datatype` checked non-NULL above (fortran/mod.rs contract).
        rt().type_free(unsafe { type_arg(datatype, "datatype") }?)?;
        // SAFETY: `datatype` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *datatype = fint(MPI_DATATYPE_NULL) };
        Ok(())
    })
}

/// `MPI_TYPE_SIZE(DATATYPE, SIZE, IERROR)`: MPI_UNDEFINED when the size does not fit an
/// INTEGER (MPI 4.1 §5.1.5).
#[no_mangle]
pub unsafe extern "C" fn mpi_type_size_(
    datatype: *const MPI_Fint,
    size: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_SIZE", Scope::NoObject, {
        // SAFETY: `datatype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(datatype) }?;
        nonnull!(size);
        let s = rt().type_size(Handle(t))?;
        // SAFETY: `size` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *size = MPI_Fint::try_from(s).unwrap_or(fint(MPI_UNDEFINED)) };
        Ok(())
    })
}

/// `MPI_TYPE_SIZE_X(DATATYPE, SIZE, IERROR)`, `INTEGER(KIND=MPI_COUNT_KIND) SIZE`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_size_x_(
    datatype: *const MPI_Fint,
    size: *mut MPI_Fcount,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_SIZE_X", Scope::NoObject, {
        // SAFETY: `datatype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(datatype) }?;
        nonnull!(size);
        let s = rt().type_size(Handle(t))?;
        // SAFETY: `size` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *size = s };
        Ok(())
    })
}

/// `MPI_TYPE_GET_EXTENT(DATATYPE, LB, EXTENT, IERROR)`,
/// `INTEGER(KIND=MPI_ADDRESS_KIND) LB, EXTENT`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_get_extent_(
    datatype: *const MPI_Fint,
    lb: *mut MPI_Aint,
    extent: *mut MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_GET_EXTENT", Scope::NoObject, {
        // SAFETY: `datatype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(datatype) }?;
        nonnull!(lb, extent);
        let (l, e) = rt().type_get_extent(Handle(t))?;
        unsafe {
            *lb = l as MPI_Aint;
            *extent = e as MPI_Aint;
        }
        Ok(())
    })
}

/// `MPI_TYPE_GET_EXTENT_X(DATATYPE, LB, EXTENT, IERROR)`,
/// `INTEGER(KIND=MPI_COUNT_KIND) LB, EXTENT`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_get_extent_x_(
    datatype: *const MPI_Fint,
    lb: *mut MPI_Fcount,
    extent: *mut MPI_Fcount,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_GET_EXTENT_X", Scope::NoObject, {
        // SAFETY: `datatype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(datatype) }?;
        nonnull!(lb, extent);
        let (l, e) = rt().type_get_extent(Handle(t))?;
        unsafe {
            *lb = l;
            *extent = e;
        }
        Ok(())
    })
}

/// `MPI_TYPE_GET_TRUE_EXTENT(DATATYPE, TRUE_LB, TRUE_EXTENT, IERROR)`,
/// `INTEGER(KIND=MPI_ADDRESS_KIND) TRUE_LB, TRUE_EXTENT`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_get_true_extent_(
    datatype: *const MPI_Fint,
    true_lb: *mut MPI_Aint,
    true_extent: *mut MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_GET_TRUE_EXTENT", Scope::NoObject, {
        // SAFETY: `datatype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(datatype) }?;
        nonnull!(true_lb, true_extent);
        let (l, e) = rt().type_get_true_extent(Handle(t))?;
        unsafe {
            *true_lb = l as MPI_Aint;
            *true_extent = e as MPI_Aint;
        }
        Ok(())
    })
}

/// `MPI_TYPE_GET_TRUE_EXTENT_X(DATATYPE, TRUE_LB, TRUE_EXTENT, IERROR)`,
/// `INTEGER(KIND=MPI_COUNT_KIND) TRUE_LB, TRUE_EXTENT`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_get_true_extent_x_(
    datatype: *const MPI_Fint,
    true_lb: *mut MPI_Fcount,
    true_extent: *mut MPI_Fcount,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TYPE_GET_TRUE_EXTENT_X", Scope::NoObject, {
        // SAFETY: `datatype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(datatype) }?;
        nonnull!(true_lb, true_extent);
        let (l, e) = rt().type_get_true_extent(Handle(t))?;
        unsafe {
            *true_lb = l;
            *true_extent = e;
        }
        Ok(())
    })
}

/// `MPI_TYPE_SET_NAME(DATATYPE, TYPE_NAME, IERROR)`, `CHARACTER*(*) TYPE_NAME`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_set_name_(
    datatype: *const MPI_Fint,
    type_name: *const c_char,
    ierror: *mut MPI_Fint,
    type_name_len: usize,
) {
    fentry!(ierror, "MPI_TYPE_SET_NAME", Scope::NoObject, {
        // SAFETY: `datatype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(datatype) }?;
        nonnull!(type_name);
        // SAFETY: `type_name` checked non-NULL above (fortran/mod.rs contract).
        let name = unsafe { read_fortran_string(type_name, type_name_len) };
        rt().type_set_name(Handle(t), &name)
    })
}

/// `MPI_TYPE_GET_NAME(DATATYPE, TYPE_NAME, RESULTLEN, IERROR)`, `CHARACTER*(*) TYPE_NAME`.
#[no_mangle]
pub unsafe extern "C" fn mpi_type_get_name_(
    datatype: *const MPI_Fint,
    type_name: *mut c_char,
    resultlen: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    type_name_len: usize,
) {
    fentry!(ierror, "MPI_TYPE_GET_NAME", Scope::NoObject, {
        // SAFETY: `datatype` NULL or valid (fortran/mod.rs contract).
        let t = unsafe { type_ref(datatype) }?;
        nonnull!(type_name, resultlen);
        let name = rt().type_get_name(Handle(t))?;
        let n = unsafe {
            write_fortran_string(
                type_name,
                type_name_len,
                MPI_MAX_OBJECT_NAME as usize,
                &name,
            )
        };
        // SAFETY: `resultlen` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *resultlen = fint(n) };
        Ok(())
    })
}

/// `MPI_GET_ADDRESS(LOCATION, ADDRESS, IERROR)`, LOCATION a choice buffer,
/// `INTEGER(KIND=MPI_ADDRESS_KIND) ADDRESS`: the address relative to MPI_BOTTOM (MPI 4.1
/// §5.1.5), so MPI_BOTTOM itself is 0.
#[no_mangle]
pub unsafe extern "C" fn mpi_get_address_(
    location: *const c_void,
    address: *mut MPI_Aint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GET_ADDRESS", Scope::NoObject, {
        nonnull!(address);
        // SAFETY: `address` checked non-NULL above (fortran/mod.rs contract).
        unsafe { *address = bottom(location) as MPI_Aint };
        Ok(())
    })
}
