//! `MPI_Pack_external`, `MPI_Unpack_external`, `MPI_Pack_external_size` and their `_c` forms
//! (MPI 4.1 §5.2.3): packing in the "external32" representation (§14.5.2, big-endian with the
//! standard's sizes; `world::datatype::external32`). Any other datarep is `MPI_ERR_ARG`.

use crate::boundary::{read_c_string, rt, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::datatype::external32::{check_datarep, decode, encode};
use crate::world::{Error, Handle, Result};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_char, c_int, c_void};

/// Checks the datarep string.
///
/// # Safety
/// `datarep` NULL or a NUL-terminated string.
unsafe fn datarep_ok(datarep: *const c_char) -> Result<()> {
    nonnull!(datarep);
    // SAFETY: `datarep` is not NULL (checked above) and NUL-terminated (this function's
    // contract).
    check_datarep(&unsafe { read_c_string(datarep) }?)
}

fn count_arg(count: i64) -> Result<i64> {
    if count < 0 {
        return Err(Error::invalid(
            MPI_ERR_COUNT,
            format!("count {count} is negative"),
        ));
    }
    Ok(count)
}

/// Packs `incount` x `datatype` from `inbuf` at `*position` of `outbuf` (`outsize` bytes).
///
/// # Safety
/// `inbuf` holds what `incount` x `datatype` covers and `outbuf` has `outsize` writable bytes
/// (MPI's contract for the routine).
unsafe fn pack(
    inbuf: *const c_void,
    incount: i64,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: i64,
    position: i64,
) -> Result<i64> {
    let (runs, need) = rt().type_external32_runs(Handle(datatype), count_arg(incount)?)?;
    if position < 0 || position.checked_add(need).is_none_or(|end| end > outsize) {
        return Err(Error::invalid(
            MPI_ERR_TRUNCATE,
            format!("{need} bytes at position {position} do not fit an output buffer of {outsize}"),
        ));
    }
    if need == 0 {
        return Ok(position);
    }
    nonnull!(outbuf);
    // Converted into a scratch buffer first, so a value external32 cannot hold leaves the
    // output untouched.
    let mut out = Vec::new();
    crate::primitives::alloc::try_reserve(&mut out, need as usize)?;
    out.resize(need as usize, 0u8);
    let mut at = 0usize;
    for (off, len, e) in runs {
        let (n, x) = (usize::from(e.native), usize::from(e.external));
        // SAFETY: the run lies in what `incount` x `datatype` covers from `inbuf` (this
        // function's contract).
        let src = unsafe {
            std::slice::from_raw_parts(
                inbuf.cast::<u8>().wrapping_offset(off as isize),
                len as usize,
            )
        };
        for el in src.chunks_exact(n) {
            encode(e, el, &mut out[at..at + x])?;
            at += x;
        }
    }
    // SAFETY: `outbuf` has `outsize` bytes and `position + need <= outsize` (checked above).
    unsafe {
        std::ptr::copy_nonoverlapping(
            out.as_ptr(),
            outbuf.cast::<u8>().wrapping_offset(position as isize),
            out.len(),
        )
    };
    Ok(position + need)
}

/// Unpacks `outcount` x `datatype` into `outbuf` from `*position` of `inbuf` (`insize` bytes).
///
/// # Safety
/// As [`pack`], with the roles of the buffers exchanged.
unsafe fn unpack(
    inbuf: *const c_void,
    insize: i64,
    position: i64,
    outbuf: *mut c_void,
    outcount: i64,
    datatype: MPI_Datatype,
) -> Result<i64> {
    let (runs, need) = rt().type_external32_runs(Handle(datatype), count_arg(outcount)?)?;
    if position < 0 || position.checked_add(need).is_none_or(|end| end > insize) {
        return Err(Error::invalid(
            MPI_ERR_TRUNCATE,
            format!("{need} bytes at position {position} are past the input buffer of {insize}"),
        ));
    }
    if need == 0 {
        return Ok(position);
    }
    nonnull!(inbuf);
    // SAFETY: `inbuf` has `insize` bytes and `position + need <= insize` (checked above).
    let src = unsafe {
        std::slice::from_raw_parts(
            inbuf.cast::<u8>().wrapping_offset(position as isize),
            need as usize,
        )
    };
    let mut at = 0usize;
    for (off, len, e) in runs {
        let (n, x) = (usize::from(e.native), usize::from(e.external));
        // SAFETY: the run lies in what `outcount` x `datatype` covers from `outbuf` (this
        // function's contract).
        let dst = unsafe {
            std::slice::from_raw_parts_mut(
                outbuf.cast::<u8>().wrapping_offset(off as isize),
                len as usize,
            )
        };
        for el in dst.chunks_exact_mut(n) {
            decode(e, &src[at..at + x], el);
            at += x;
        }
    }
    Ok(position + need)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_external(
    datarep: *const c_char,
    inbuf: *const c_void,
    incount: c_int,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Aint,
    position: *mut MPI_Aint,
) -> c_int {
    entry!("MPI_Pack_external", Scope::NoObject, {
        // SAFETY: `datarep` is a string argument (MPI's contract for this routine, capi/mod.rs).
        unsafe { datarep_ok(datarep) }?;
        let position = try_out!(position);
        // SAFETY: `pack` needs the buffers as this routine's caller promises (capi/mod.rs).
        let end = unsafe {
            pack(
                inbuf,
                incount.into(),
                datatype,
                outbuf,
                outsize as i64,
                position.get() as i64,
            )
        }?;
        position.set(end as MPI_Aint);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_external_c(
    datarep: *const c_char,
    inbuf: *const c_void,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Count,
    position: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Pack_external_c", Scope::NoObject, {
        // SAFETY: `datarep` is a string argument (MPI's contract for this routine, capi/mod.rs).
        unsafe { datarep_ok(datarep) }?;
        let position = try_out!(position);
        // SAFETY: `pack` needs the buffers as this routine's caller promises (capi/mod.rs).
        let end = unsafe { pack(inbuf, incount, datatype, outbuf, outsize, position.get()) }?;
        position.set(end);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Unpack_external(
    datarep: *const c_char,
    inbuf: *const c_void,
    insize: MPI_Aint,
    position: *mut MPI_Aint,
    outbuf: *mut c_void,
    outcount: c_int,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_Unpack_external", Scope::NoObject, {
        // SAFETY: `datarep` is a string argument (MPI's contract for this routine, capi/mod.rs).
        unsafe { datarep_ok(datarep) }?;
        let position = try_out!(position);
        // SAFETY: `unpack` needs the buffers as this routine's caller promises (capi/mod.rs).
        let end = unsafe {
            unpack(
                inbuf,
                insize as i64,
                position.get() as i64,
                outbuf,
                outcount.into(),
                datatype,
            )
        }?;
        position.set(end as MPI_Aint);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Unpack_external_c(
    datarep: *const c_char,
    inbuf: *const c_void,
    insize: MPI_Count,
    position: *mut MPI_Count,
    outbuf: *mut c_void,
    outcount: MPI_Count,
    datatype: MPI_Datatype,
) -> c_int {
    entry!("MPI_Unpack_external_c", Scope::NoObject, {
        // SAFETY: `datarep` is a string argument (MPI's contract for this routine, capi/mod.rs).
        unsafe { datarep_ok(datarep) }?;
        let position = try_out!(position);
        // SAFETY: `unpack` needs the buffers as this routine's caller promises (capi/mod.rs).
        let end = unsafe { unpack(inbuf, insize, position.get(), outbuf, outcount, datatype) }?;
        position.set(end);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_external_size(
    datarep: *const c_char,
    incount: c_int,
    datatype: MPI_Datatype,
    size: *mut MPI_Aint,
) -> c_int {
    entry!("MPI_Pack_external_size", Scope::NoObject, {
        // SAFETY: `datarep` is a string argument (MPI's contract for this routine, capi/mod.rs).
        unsafe { datarep_ok(datarep) }?;
        let size = try_out!(size);
        let n = rt().type_external32_size(Handle(datatype), count_arg(incount.into())?)?;
        size.set(n as MPI_Aint);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_external_size_c(
    datarep: *const c_char,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    size: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Pack_external_size_c", Scope::NoObject, {
        // SAFETY: `datarep` is a string argument (MPI's contract for this routine, capi/mod.rs).
        unsafe { datarep_ok(datarep) }?;
        let size = try_out!(size);
        size.set(rt().type_external32_size(Handle(datatype), count_arg(incount)?)?);
        Ok(())
    })
}
