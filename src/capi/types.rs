//! The C types of `mpi.h`. Handles are `int`, the same INTEGER Fortran sees.
#![allow(non_camel_case_types, non_snake_case)]

use std::ffi::{c_int, c_void};

pub type MPI_Comm = c_int;
pub type MPI_Datatype = c_int;
pub type MPI_Win = c_int;
pub type MPI_Group = c_int;
pub type MPI_Info = c_int;
pub type MPI_Errhandler = c_int;
pub type MPI_Request = c_int;
pub type MPI_Message = c_int;
pub type MPI_Op = c_int;
pub type MPI_Session = c_int;
pub type MPI_File = c_int;
pub type MPI_Aint = isize;
pub type MPI_Fint = c_int;
pub type MPI_Count = i64;
pub type MPI_Offset = i64;

/// `MPI_Status`, laid out as the MPI 5.0 ABI lays it out (field names included; its size is
/// `MPI_F_STATUS_SIZE` ints, and `MPI_F_SOURCE` ... are the indexes of the public fields).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct MPI_Status {
    pub MPI_SOURCE: c_int,
    pub MPI_TAG: c_int,
    pub MPI_ERROR: c_int,
    pub MPI_internal: [c_int; 5],
}

/// `MPI_F08_status` (MPI 4.1 §19.3.5): the C view of the `mpi_f08` module's `TYPE(MPI_Status)`
/// (fortran/mpi_f08.f90: `MPI_SOURCE`, `MPI_TAG`, `MPI_ERROR`, then five hidden INTEGERs), the
/// same integers in the same order as `MPI_Status`. Written by hand in include/mpi_fragment.h.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct MPI_F08_status {
    pub MPI_SOURCE: MPI_Fint,
    pub MPI_TAG: MPI_Fint,
    pub MPI_ERROR: MPI_Fint,
    pub MPI_internal: [MPI_Fint; 5],
}

// The function types below are written by hand in include/mpi_fragment.h as the standard's
// function types (`typedef int MPI_Comm_copy_attr_function(...)`); cbindgen is told not to emit
// them. Handles are all `int`, so one Rust shape serves communicators, datatypes and windows.

/// `MPI_Comm_copy_attr_function`, `MPI_Type_copy_attr_function`, `MPI_Win_copy_attr_function`,
/// `MPI_Copy_function`.
pub type MPI_Comm_copy_attr_function = unsafe extern "C" fn(
    oldobj: c_int,
    keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int;
pub type MPI_Type_copy_attr_function = MPI_Comm_copy_attr_function;
pub type MPI_Win_copy_attr_function = MPI_Comm_copy_attr_function;
pub type MPI_Copy_function = MPI_Comm_copy_attr_function;

/// `MPI_Comm_delete_attr_function` and its datatype, window and MPI-1 twins.
pub type MPI_Comm_delete_attr_function = unsafe extern "C" fn(
    obj: c_int,
    keyval: c_int,
    attribute_val: *mut c_void,
    extra_state: *mut c_void,
) -> c_int;
pub type MPI_Type_delete_attr_function = MPI_Comm_delete_attr_function;
pub type MPI_Win_delete_attr_function = MPI_Comm_delete_attr_function;
pub type MPI_Delete_function = MPI_Comm_delete_attr_function;

/// `MPI_Comm_errhandler_function`, `MPI_Win_errhandler_function` (variadic in C).
pub type MPI_Comm_errhandler_function =
    unsafe extern "C" fn(obj: *mut c_int, code: *mut c_int, ...);
pub type MPI_Win_errhandler_function = MPI_Comm_errhandler_function;
pub type MPI_Session_errhandler_function = MPI_Comm_errhandler_function;

// The tool information interface's handles (MPI 4.1 §15.3), `int` like every handle here.
pub type MPI_T_enum = c_int;
pub type MPI_T_cvar_handle = c_int;
pub type MPI_T_pvar_handle = c_int;
pub type MPI_T_pvar_session = c_int;
pub type MPI_T_event_registration = c_int;
pub type MPI_T_event_instance = c_int;
pub type MPI_T_cb_safety = c_int;
pub type MPI_T_source_order = c_int;

/// `MPI_T_event_cb_function`.
pub type MPI_T_event_cb_function = unsafe extern "C" fn(
    event_instance: MPI_T_event_instance,
    event_registration: MPI_T_event_registration,
    cb_safety: MPI_T_cb_safety,
    user_data: *mut c_void,
);
/// `MPI_T_event_free_cb_function`.
pub type MPI_T_event_free_cb_function = unsafe extern "C" fn(
    event_registration: MPI_T_event_registration,
    cb_safety: MPI_T_cb_safety,
    user_data: *mut c_void,
);
/// `MPI_T_event_dropped_cb_function`.
pub type MPI_T_event_dropped_cb_function = unsafe extern "C" fn(
    count: MPI_Count,
    event_registration: MPI_T_event_registration,
    source_index: c_int,
    cb_safety: MPI_T_cb_safety,
    user_data: *mut c_void,
);

/// `MPI_File_errhandler_function` (variadic in C).
pub type MPI_File_errhandler_function = MPI_Comm_errhandler_function;

/// `MPI_Datarep_conversion_function` (MPI 4.1 §14.5.3).
pub type MPI_Datarep_conversion_function = unsafe extern "C" fn(
    userbuf: *mut c_void,
    datatype: MPI_Datatype,
    count: c_int,
    filebuf: *mut c_void,
    position: MPI_Offset,
    extra_state: *mut c_void,
) -> c_int;

/// `MPI_Datarep_conversion_function_c`.
pub type MPI_Datarep_conversion_function_c = unsafe extern "C" fn(
    userbuf: *mut c_void,
    datatype: MPI_Datatype,
    count: MPI_Count,
    filebuf: *mut c_void,
    position: MPI_Offset,
    extra_state: *mut c_void,
) -> c_int;

/// `MPI_Datarep_extent_function`.
pub type MPI_Datarep_extent_function = unsafe extern "C" fn(
    datatype: MPI_Datatype,
    extent: *mut MPI_Aint,
    extra_state: *mut c_void,
) -> c_int;

/// `MPI_Grequest_query_function` (MPI 4.1 §13.2), written by hand in include/mpi_fragment.h.
pub type MPI_Grequest_query_function =
    unsafe extern "C" fn(extra_state: *mut c_void, status: *mut MPI_Status) -> c_int;
/// `MPI_Grequest_free_function`.
pub type MPI_Grequest_free_function = unsafe extern "C" fn(extra_state: *mut c_void) -> c_int;
/// `MPI_Grequest_cancel_function`.
pub type MPI_Grequest_cancel_function =
    unsafe extern "C" fn(extra_state: *mut c_void, complete: c_int) -> c_int;

/// `MPI_User_function` (MPI 4.1 §6.9.5), written by hand in include/mpi_fragment.h.
pub type MPI_User_function = unsafe extern "C" fn(
    invec: *mut c_void,
    inoutvec: *mut c_void,
    len: *mut c_int,
    datatype: *mut MPI_Datatype,
);

/// `MPI_User_function_c`: the `MPI_Op_create_c` form, with an `MPI_Count` length.
pub type MPI_User_function_c = unsafe extern "C" fn(
    invec: *mut c_void,
    inoutvec: *mut c_void,
    len: *mut MPI_Count,
    datatype: *mut MPI_Datatype,
);
