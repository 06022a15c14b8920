//! Status entry points (MPI 4.1 §3.2.5, §5.1.11, §13.3): counts, elements, cancellation and the
//! MPI 4.1 field accessors. `MPI_Status` keeps the bytes received in `MPI_internal[0..2]` and
//! the cancelled flag in `MPI_internal[2]`.

use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::status::Status;
use crate::world::{Handle, Runtime};
use crate::{entry, nonnull};
use std::ffi::c_int;

fn rt() -> &'static Runtime {
    Runtime::global()
}

/// The bytes a status records.
pub fn status_bytes(s: &MPI_Status) -> i64 {
    (s.MPI_internal[0] as u32 as i64) | ((s.MPI_internal[1] as i64) << 32)
}

fn set_status_bytes(s: &mut MPI_Status, bytes: i64) {
    s.MPI_internal[0] = bytes as i32;
    s.MPI_internal[1] = (bytes >> 32) as i32;
}

/// A world status as a C one.
pub fn to_c(st: &Status) -> MPI_Status {
    let mut s = MPI_Status {
        MPI_SOURCE: st.source,
        MPI_TAG: st.tag,
        MPI_ERROR: st.error,
        MPI_internal: [0; 5],
    };
    set_status_bytes(&mut s, st.bytes);
    s.MPI_internal[2] = st.cancelled as c_int;
    s
}

/// A C status as a world one.
pub fn from_c(s: &MPI_Status) -> Status {
    Status {
        source: s.MPI_SOURCE,
        tag: s.MPI_TAG,
        error: s.MPI_ERROR,
        bytes: status_bytes(s),
        cancelled: s.MPI_internal[2] != 0,
    }
}

/// Writes a status unless it is `MPI_STATUS_IGNORE` (NULL).
///
/// # Safety
/// `p` is NULL or valid for writing.
pub unsafe fn write(p: *mut MPI_Status, st: &Status) {
    if !p.is_null() {
        unsafe { *p = to_c(st) };
    }
}

/// A count that must fit a C `int`: otherwise `MPI_UNDEFINED` (MPI 4.1 §3.2.5).
fn as_int(n: i64) -> c_int {
    c_int::try_from(n).unwrap_or(MPI_UNDEFINED)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_count(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut c_int,
) -> c_int {
    entry!("MPI_Get_count", Scope::NoObject, {
        nonnull!(status, count);
        let n = rt().status_count(status_bytes(unsafe { &*status }), Handle(datatype))?;
        unsafe { *count = as_int(n) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_count_c(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Get_count_c", Scope::NoObject, {
        nonnull!(status, count);
        let n = rt().status_count(status_bytes(unsafe { &*status }), Handle(datatype))?;
        unsafe { *count = n };
        Ok(())
    })
}

/// The elements of `datatype` a status records (MPI 4.1 §5.1.11).
unsafe fn elements(status: *const MPI_Status, datatype: MPI_Datatype) -> crate::error::Result<i64> {
    rt().type_elements(Handle(datatype), status_bytes(unsafe { &*status }))
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_elements(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut c_int,
) -> c_int {
    entry!("MPI_Get_elements", Scope::NoObject, {
        nonnull!(status, count);
        let n = unsafe { elements(status, datatype) }?;
        unsafe { *count = as_int(n) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_elements_c(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Get_elements_c", Scope::NoObject, {
        nonnull!(status, count);
        let n = unsafe { elements(status, datatype) }?;
        unsafe { *count = n };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Get_elements_x(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut MPI_Count,
) -> c_int {
    entry!("MPI_Get_elements_x", Scope::NoObject, {
        nonnull!(status, count);
        let n = unsafe { elements(status, datatype) }?;
        unsafe { *count = n };
        Ok(())
    })
}

/// `MPI_Status_set_elements` and its `_c`, `_x` forms.
unsafe fn set_elements(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: i64,
) -> crate::error::Result<()> {
    nonnull!(status);
    let bytes = rt().status_bytes_for(count, Handle(datatype))?;
    set_status_bytes(unsafe { &mut *status }, bytes);
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_elements(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: c_int,
) -> c_int {
    entry!("MPI_Status_set_elements", Scope::NoObject, {
        unsafe { set_elements(status, datatype, count.into()) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_elements_c(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: MPI_Count,
) -> c_int {
    entry!("MPI_Status_set_elements_c", Scope::NoObject, {
        unsafe { set_elements(status, datatype, count) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_elements_x(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: MPI_Count,
) -> c_int {
    entry!("MPI_Status_set_elements_x", Scope::NoObject, {
        unsafe { set_elements(status, datatype, count) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_cancelled(status: *mut MPI_Status, flag: c_int) -> c_int {
    entry!("MPI_Status_set_cancelled", Scope::NoObject, {
        nonnull!(status);
        unsafe { (*status).MPI_internal[2] = (flag != 0) as c_int };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Test_cancelled(status: *const MPI_Status, flag: *mut c_int) -> c_int {
    entry!("MPI_Test_cancelled", Scope::NoObject, {
        nonnull!(status, flag);
        unsafe { *flag = ((*status).MPI_internal[2] != 0) as c_int };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_get_source(
    status: *mut MPI_Status,
    source: *mut c_int,
) -> c_int {
    entry!("MPI_Status_get_source", Scope::NoObject, {
        nonnull!(status, source);
        unsafe { *source = (*status).MPI_SOURCE };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_get_tag(status: *mut MPI_Status, tag: *mut c_int) -> c_int {
    entry!("MPI_Status_get_tag", Scope::NoObject, {
        nonnull!(status, tag);
        unsafe { *tag = (*status).MPI_TAG };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_get_error(status: *mut MPI_Status, err: *mut c_int) -> c_int {
    entry!("MPI_Status_get_error", Scope::NoObject, {
        nonnull!(status, err);
        unsafe { *err = (*status).MPI_ERROR };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_source(status: *mut MPI_Status, source: c_int) -> c_int {
    entry!("MPI_Status_set_source", Scope::NoObject, {
        nonnull!(status);
        unsafe { (*status).MPI_SOURCE = source };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_tag(status: *mut MPI_Status, tag: c_int) -> c_int {
    entry!("MPI_Status_set_tag", Scope::NoObject, {
        nonnull!(status);
        unsafe { (*status).MPI_TAG = tag };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_set_error(status: *mut MPI_Status, err: c_int) -> c_int {
    entry!("MPI_Status_set_error", Scope::NoObject, {
        nonnull!(status);
        unsafe { (*status).MPI_ERROR = err };
        Ok(())
    })
}

/// `MPI_Status_c2f` (MPI 4.1 §19.3.5): the Fortran status is the same `MPI_F_STATUS_SIZE`
/// integers in the same order.
#[no_mangle]
pub unsafe extern "C" fn MPI_Status_c2f(
    c_status: *const MPI_Status,
    f_status: *mut MPI_Fint,
) -> c_int {
    entry!("MPI_Status_c2f", Scope::NoObject, {
        nonnull!(c_status, f_status);
        if c_status.cast::<MPI_Fint>() == f_status.cast_const() {
            return Ok(());
        }
        unsafe {
            std::ptr::copy(
                c_status.cast::<MPI_Fint>(),
                f_status,
                MPI_F_STATUS_SIZE as usize,
            )
        };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Status_f2c(
    f_status: *const MPI_Fint,
    c_status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Status_f2c", Scope::NoObject, {
        nonnull!(c_status, f_status);
        unsafe {
            std::ptr::copy(
                f_status,
                c_status.cast::<MPI_Fint>(),
                MPI_F_STATUS_SIZE as usize,
            )
        };
        Ok(())
    })
}
