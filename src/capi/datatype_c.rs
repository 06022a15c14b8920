//! The large-count (`_c`) datatype constructors (MPI 4.1 §5.1.2, §5.1.7): the same types as
//! their `int` forms, decoded with their arguments as large counts (§5.1.13).

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Result, Runtime};
use crate::{entry, nonnull};
use std::ffi::c_int;

fn rt() -> &'static Runtime {
    Runtime::global()
}

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
    Ok(unsafe { std::slice::from_raw_parts(p, n) }.to_vec())
}

/// Stores the new type, marked as made with large counts.
///
/// # Safety
/// `newtype` writable (checked by the caller).
unsafe fn out(newtype: *mut MPI_Datatype, h: Result<Handle>) -> Result<()> {
    let h = h?;
    if let Err(e) = rt().type_mark_large(h) {
        let _ = rt().type_free(h);
        return Err(e);
    }
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
        let bls = unsafe { counts(array_of_blocklengths, n, "array_of_blocklengths") }?;
        let ds = unsafe { counts(array_of_displacements, n, "array_of_displacements") }?;
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
        let bls = unsafe { counts(array_of_blocklengths, n, "array_of_blocklengths") }?;
        let ds = unsafe { counts(array_of_displacements, n, "array_of_displacements") }?;
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
        let bls = unsafe { counts(array_of_blocklengths, n, "array_of_blocklengths") }?;
        let ds = unsafe { counts(array_of_displacements, n, "array_of_displacements") }?;
        let ts: Vec<Handle> = if n == 0 {
            Vec::new()
        } else {
            nonnull!(array_of_types);
            unsafe { std::slice::from_raw_parts(array_of_types, n) }
                .iter()
                .map(|&t| Handle(t))
                .collect()
        };
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
        unsafe {
            out(
                newtype,
                rt().type_create_resized(Handle(oldtype), lb, extent),
            )
        }
    })
}
