//! `MPI_Remove_error_class`, `MPI_Remove_error_code`, `MPI_Remove_error_string` (MPI 4.1 §9.5).

use crate::capi::boundary::Scope;
use crate::entry;
use crate::world::Runtime;
use std::ffi::c_int;

#[no_mangle]
pub unsafe extern "C" fn MPI_Remove_error_class(errorclass: c_int) -> c_int {
    entry!("MPI_Remove_error_class", Scope::NoObject, {
        Runtime::global().remove_error_class(errorclass)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Remove_error_code(errorcode: c_int) -> c_int {
    entry!("MPI_Remove_error_code", Scope::NoObject, {
        Runtime::global().remove_error_code(errorcode)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Remove_error_string(errorcode: c_int) -> c_int {
    entry!("MPI_Remove_error_string", Scope::NoObject, {
        Runtime::global().remove_error_string(errorcode)
    })
}
