//! Packing (MPI 4.1 §5.2) and address arithmetic (§5.1.5). A packed buffer here holds the
//! typemap's bytes in typemap order, nothing else, so `MPI_Pack_size` is the data size.
//! (`MPI_Pack_external` and friends, with the external32 layout, are in pack_external.rs.)

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::p2p::unpack;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, Result};
use crate::{entry, nonnull, try_out};
use std::ffi::{c_int, c_void};

/// `MPI_Pack`'s work: appends the data at `*position` and moves it.
///
/// # Safety
/// Buffers as the MPI caller promises; `position` valid (checked non-NULL).
unsafe fn pack(
    inbuf: *const c_void,
    incount: i64,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: i64,
    position: *mut i64,
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    // SAFETY: `position` is valid here by this function's contract (its `# Safety`).
    let pos = unsafe { *position };
    // SAFETY: `inbuf` is valid here by this function's contract (its `# Safety`).
    let data = unsafe { crate::capi::p2p::pack(inbuf, incount, datatype) }?;
    if pos < 0 || pos + data.len() as i64 > outsize {
        return Err(Error::invalid(
            MPI_ERR_TRUNCATE,
            format!(
                "{} bytes at position {pos} do not fit an output buffer of {outsize}",
                data.len()
            ),
        ));
    }
    if !data.is_empty() {
        nonnull!(outbuf);
        let d = outbuf.cast::<u8>().wrapping_offset(pos as isize);
        // SAFETY: `outbuf` has `outsize` bytes (this function's `# Safety`) and `d + data.len()` is
        // within them (checked above).
        unsafe { std::ptr::copy(data.as_ptr(), d, data.len()) };
    }
    // SAFETY: `position` is valid here by this function's contract (its `# Safety`).
    unsafe { *position = pos + data.len() as i64 };
    Ok(())
}

/// `MPI_Unpack`'s work: reads the data at `*position` and moves it.
///
/// # Safety
/// As [`pack`].
unsafe fn unpack_from(
    inbuf: *const c_void,
    insize: i64,
    position: *mut i64,
    outbuf: *mut c_void,
    outcount: i64,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    rt().comm_size(Handle(comm))?;
    // SAFETY: `position` is valid here by this function's contract (its `# Safety`).
    let pos = unsafe { *position };
    let blocks = rt().p2p_blocks(Handle(datatype), outcount)?;
    let need: i64 = blocks.iter().map(|b| b.1).sum();
    if pos < 0 || pos + need > insize {
        return Err(Error::invalid(
            MPI_ERR_TRUNCATE,
            format!("{need} bytes at position {pos} are past the input buffer of {insize}"),
        ));
    }
    if need > 0 {
        nonnull!(inbuf);
        // SAFETY: `inbuf` is valid here by this function's contract (its `# Safety`).
        let src = unsafe {
            std::slice::from_raw_parts(
                inbuf.cast::<u8>().wrapping_offset(pos as isize),
                need as usize,
            )
        }
        .to_vec();
        // SAFETY: `outbuf` is valid here by this function's contract (its `# Safety`).
        unsafe { unpack(outbuf as usize, &blocks, &src) };
    }
    // SAFETY: `position` is valid here by this function's contract (its `# Safety`).
    unsafe { *position = pos + need };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pack(
    inbuf: *const c_void,
    incount: c_int,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: c_int,
    position: *mut c_int,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Pack", Scope::Comm(comm), {
        let position = try_out!(position);
        let mut pos = position.get() as i64;
        // SAFETY: `pack` needs the buffers to hold what count x datatype covers (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe {
            pack(
                inbuf,
                incount.into(),
                datatype,
                outbuf,
                outsize.into(),
                &mut pos,
                comm,
            )
        }?;
        position.set(pos as c_int);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_c(
    inbuf: *const c_void,
    incount: MPI_Count,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Count,
    position: *mut MPI_Count,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Pack_c", Scope::Comm(comm), {
        nonnull!(position);
        // SAFETY: `pack` needs the buffers to hold what count x datatype covers (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe { pack(inbuf, incount, datatype, outbuf, outsize, position, comm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Unpack(
    inbuf: *const c_void,
    insize: c_int,
    position: *mut c_int,
    outbuf: *mut c_void,
    outcount: c_int,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Unpack", Scope::Comm(comm), {
        let position = try_out!(position);
        let mut pos = position.get() as i64;
        // SAFETY: `unpack_from` needs the buffers to hold what count x datatype covers (MPI's
        // contract for this routine, capi/mod.rs).
        unsafe {
            unpack_from(
                inbuf,
                insize.into(),
                &mut pos,
                outbuf,
                outcount.into(),
                datatype,
                comm,
            )
        }?;
        position.set(pos as c_int);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Unpack_c(
    inbuf: *const c_void,
    insize: MPI_Count,
    position: *mut MPI_Count,
    outbuf: *mut c_void,
    outcount: MPI_Count,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    entry!("MPI_Unpack_c", Scope::Comm(comm), {
        nonnull!(position);
        // SAFETY: `unpack_from` needs the buffers to hold what count x datatype covers (MPI's
        // contract for this routine, capi/mod.rs).
        unsafe { unpack_from(inbuf, insize, position, outbuf, outcount, datatype, comm) }
    })
}

/// The bytes `incount` x `datatype` takes packed.
fn pack_size(incount: i64, datatype: MPI_Datatype, comm: MPI_Comm) -> Result<i64> {
    rt().comm_size(Handle(comm))?;
    if incount < 0 {
        return Err(Error::invalid(
            MPI_ERR_COUNT,
            format!("count {incount} is negative"),
        ));
    }
    let size = rt().type_size(Handle(datatype))?;
    incount
        .checked_mul(size)
        .ok_or_else(|| Error::invalid(MPI_ERR_COUNT, format!("count {incount} overflows")))
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_size(
    incount: c_int,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    size: *mut c_int,
) -> c_int {
    entry!("MPI_Pack_size", Scope::Comm(comm), {
        let size = try_out!(size);
        let n = pack_size(incount.into(), datatype, comm)?;
        let n = c_int::try_from(n).map_err(|_| {
            Error::invalid(
                MPI_ERR_COUNT,
                format!("{n} bytes do not fit an int (use MPI_Pack_size_c)"),
            )
        })?;
        size.set(n);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Pack_size_c(
    incount: MPI_Count,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    size: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Pack_size_c", Scope::Comm(comm), {
        let size = try_out!(size);
        let n = pack_size(incount, datatype, comm)?;
        size.set(n);
        Ok(())
    })
}

/// `MPI_Aint_add` (MPI 4.1 §5.1.5): the address `base + disp`.
#[no_mangle]
pub extern "C" fn MPI_Aint_add(base: MPI_Aint, disp: MPI_Aint) -> MPI_Aint {
    base.wrapping_add(disp)
}

/// `MPI_Aint_diff` (MPI 4.1 §5.1.5): the difference of two addresses.
#[no_mangle]
pub extern "C" fn MPI_Aint_diff(addr1: MPI_Aint, addr2: MPI_Aint) -> MPI_Aint {
    addr1.wrapping_sub(addr2)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_size_c(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    entry!("MPI_Type_size_c", Scope::NoObject, {
        let size = try_out!(size);
        let n = rt().type_size(Handle(datatype))?;
        size.set(n);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_extent_c(
    datatype: MPI_Datatype,
    lb: *mut MPI_Count,
    extent: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Type_get_extent_c", Scope::NoObject, {
        let lb = try_out!(lb);
        let extent = try_out!(extent);
        let (l, e) = rt().type_get_extent(Handle(datatype))?;
        lb.set(l);
        extent.set(e);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Type_get_true_extent_c(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Count,
    true_extent: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Type_get_true_extent_c", Scope::NoObject, {
        let true_lb = try_out!(true_lb);
        let true_extent = try_out!(true_extent);
        let (l, e) = rt().type_get_true_extent(Handle(datatype))?;
        true_lb.set(l);
        true_extent.set(e);
        Ok(())
    })
}
