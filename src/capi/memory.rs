//! `MPI_Alloc_mem` and `MPI_Free_mem` (MPI 4.1 §9.2). Tied to no communicator or window, so
//! errors are raised on `MPI_COMM_SELF`.

use crate::boundary::{rt, Scope};
use crate::capi::types::*;
use crate::world::{Handle, HandleKind};
use crate::{entry, nonnull};
use std::ffi::{c_int, c_void};

#[no_mangle]
pub unsafe extern "C" fn MPI_Alloc_mem(
    size: MPI_Aint,
    info: MPI_Info,
    baseptr: *mut c_void,
) -> c_int {
    entry!("MPI_Alloc_mem", Scope::NoObject, {
        nonnull!(baseptr);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let base = rt().alloc_mem(size as i64)?;
        // `baseptr` is really a `void **` (MPI 4.1 §9.2).
        unsafe { *baseptr.cast::<*mut c_void>() = base as *mut c_void };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Free_mem(base: *mut c_void) -> c_int {
    entry!("MPI_Free_mem", Scope::NoObject, {
        rt().free_mem(base as usize)
    })
}
