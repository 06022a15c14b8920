//! Every spelling of the Fortran caching routines (src/layer/fortran/attr.rs holds their
//! bodies): `mpi_x_`, `mpi_x__`, `mpi_x`, `MPI_X`, the `pmpi_` forms, and for the MPI-2
//! routines `mpi_f08`'s `mpi_x_f08_`, `pmpi_x_f08_` (Open MPI) and `pmpir_x_f08_` (MPICH).
#![allow(non_snake_case)]

use crate::layer::engine::MPI_Fint;
use crate::layer::fortran::attr::*;
use crate::layer::fortran::callbacks::{MPI_Aint, MPI_Flogical};
use crate::layer_spellings;
use std::ffi::c_void;

macro_rules! create_spellings {
    ($body:path => $($name:ident),+) => {
        layer_spellings!($body, (copy_fn: *const c_void, delete_fn: *const c_void, keyval: *mut MPI_Fint, extra_state: *const MPI_Aint, ierror: *mut MPI_Fint) => $($name),+);
    };
}
macro_rules! free_spellings {
    ($body:path => $($name:ident),+) => {
        layer_spellings!($body, (keyval: *mut MPI_Fint, ierror: *mut MPI_Fint) => $($name),+);
    };
}
macro_rules! set_spellings {
    ($body:path => $($name:ident),+) => {
        layer_spellings!($body, (handle: *const MPI_Fint, keyval: *const MPI_Fint, attribute_val: *const MPI_Aint, ierror: *mut MPI_Fint) => $($name),+);
    };
}
macro_rules! get_spellings {
    ($body:path => $($name:ident),+) => {
        layer_spellings!($body, (handle: *const MPI_Fint, keyval: *const MPI_Fint, attribute_val: *mut MPI_Aint, flag: *mut MPI_Flogical, ierror: *mut MPI_Fint) => $($name),+);
    };
}
macro_rules! delete_spellings {
    ($body:path => $($name:ident),+) => {
        layer_spellings!($body, (handle: *const MPI_Fint, keyval: *const MPI_Fint, ierror: *mut MPI_Fint) => $($name),+);
    };
}

create_spellings!(comm_create_keyval => mpi_comm_create_keyval_, mpi_comm_create_keyval__, mpi_comm_create_keyval, MPI_COMM_CREATE_KEYVAL, pmpi_comm_create_keyval_, pmpi_comm_create_keyval__, pmpi_comm_create_keyval, PMPI_COMM_CREATE_KEYVAL, mpi_comm_create_keyval_f08_, pmpi_comm_create_keyval_f08_, pmpir_comm_create_keyval_f08_);
free_spellings!(comm_free_keyval => mpi_comm_free_keyval_, mpi_comm_free_keyval__, mpi_comm_free_keyval, MPI_COMM_FREE_KEYVAL, pmpi_comm_free_keyval_, pmpi_comm_free_keyval__, pmpi_comm_free_keyval, PMPI_COMM_FREE_KEYVAL, mpi_comm_free_keyval_f08_, pmpi_comm_free_keyval_f08_, pmpir_comm_free_keyval_f08_);
set_spellings!(comm_set_attr => mpi_comm_set_attr_, mpi_comm_set_attr__, mpi_comm_set_attr, MPI_COMM_SET_ATTR, pmpi_comm_set_attr_, pmpi_comm_set_attr__, pmpi_comm_set_attr, PMPI_COMM_SET_ATTR, mpi_comm_set_attr_f08_, pmpi_comm_set_attr_f08_, pmpir_comm_set_attr_f08_);
get_spellings!(comm_get_attr => mpi_comm_get_attr_, mpi_comm_get_attr__, mpi_comm_get_attr, MPI_COMM_GET_ATTR, pmpi_comm_get_attr_, pmpi_comm_get_attr__, pmpi_comm_get_attr, PMPI_COMM_GET_ATTR, mpi_comm_get_attr_f08_, pmpi_comm_get_attr_f08_, pmpir_comm_get_attr_f08_);
delete_spellings!(comm_delete_attr => mpi_comm_delete_attr_, mpi_comm_delete_attr__, mpi_comm_delete_attr, MPI_COMM_DELETE_ATTR, pmpi_comm_delete_attr_, pmpi_comm_delete_attr__, pmpi_comm_delete_attr, PMPI_COMM_DELETE_ATTR, mpi_comm_delete_attr_f08_, pmpi_comm_delete_attr_f08_, pmpir_comm_delete_attr_f08_);

create_spellings!(type_create_keyval => mpi_type_create_keyval_, mpi_type_create_keyval__, mpi_type_create_keyval, MPI_TYPE_CREATE_KEYVAL, pmpi_type_create_keyval_, pmpi_type_create_keyval__, pmpi_type_create_keyval, PMPI_TYPE_CREATE_KEYVAL, mpi_type_create_keyval_f08_, pmpi_type_create_keyval_f08_, pmpir_type_create_keyval_f08_);
free_spellings!(type_free_keyval => mpi_type_free_keyval_, mpi_type_free_keyval__, mpi_type_free_keyval, MPI_TYPE_FREE_KEYVAL, pmpi_type_free_keyval_, pmpi_type_free_keyval__, pmpi_type_free_keyval, PMPI_TYPE_FREE_KEYVAL, mpi_type_free_keyval_f08_, pmpi_type_free_keyval_f08_, pmpir_type_free_keyval_f08_);
set_spellings!(type_set_attr => mpi_type_set_attr_, mpi_type_set_attr__, mpi_type_set_attr, MPI_TYPE_SET_ATTR, pmpi_type_set_attr_, pmpi_type_set_attr__, pmpi_type_set_attr, PMPI_TYPE_SET_ATTR, mpi_type_set_attr_f08_, pmpi_type_set_attr_f08_, pmpir_type_set_attr_f08_);
get_spellings!(type_get_attr => mpi_type_get_attr_, mpi_type_get_attr__, mpi_type_get_attr, MPI_TYPE_GET_ATTR, pmpi_type_get_attr_, pmpi_type_get_attr__, pmpi_type_get_attr, PMPI_TYPE_GET_ATTR, mpi_type_get_attr_f08_, pmpi_type_get_attr_f08_, pmpir_type_get_attr_f08_);
delete_spellings!(type_delete_attr => mpi_type_delete_attr_, mpi_type_delete_attr__, mpi_type_delete_attr, MPI_TYPE_DELETE_ATTR, pmpi_type_delete_attr_, pmpi_type_delete_attr__, pmpi_type_delete_attr, PMPI_TYPE_DELETE_ATTR, mpi_type_delete_attr_f08_, pmpi_type_delete_attr_f08_, pmpir_type_delete_attr_f08_);

create_spellings!(win_create_keyval => mpi_win_create_keyval_, mpi_win_create_keyval__, mpi_win_create_keyval, MPI_WIN_CREATE_KEYVAL, pmpi_win_create_keyval_, pmpi_win_create_keyval__, pmpi_win_create_keyval, PMPI_WIN_CREATE_KEYVAL, mpi_win_create_keyval_f08_, pmpi_win_create_keyval_f08_, pmpir_win_create_keyval_f08_);
free_spellings!(win_free_keyval => mpi_win_free_keyval_, mpi_win_free_keyval__, mpi_win_free_keyval, MPI_WIN_FREE_KEYVAL, pmpi_win_free_keyval_, pmpi_win_free_keyval__, pmpi_win_free_keyval, PMPI_WIN_FREE_KEYVAL, mpi_win_free_keyval_f08_, pmpi_win_free_keyval_f08_, pmpir_win_free_keyval_f08_);
set_spellings!(win_set_attr => mpi_win_set_attr_, mpi_win_set_attr__, mpi_win_set_attr, MPI_WIN_SET_ATTR, pmpi_win_set_attr_, pmpi_win_set_attr__, pmpi_win_set_attr, PMPI_WIN_SET_ATTR, mpi_win_set_attr_f08_, pmpi_win_set_attr_f08_, pmpir_win_set_attr_f08_);
get_spellings!(win_get_attr => mpi_win_get_attr_, mpi_win_get_attr__, mpi_win_get_attr, MPI_WIN_GET_ATTR, pmpi_win_get_attr_, pmpi_win_get_attr__, pmpi_win_get_attr, PMPI_WIN_GET_ATTR, mpi_win_get_attr_f08_, pmpi_win_get_attr_f08_, pmpir_win_get_attr_f08_);
delete_spellings!(win_delete_attr => mpi_win_delete_attr_, mpi_win_delete_attr__, mpi_win_delete_attr, MPI_WIN_DELETE_ATTR, pmpi_win_delete_attr_, pmpi_win_delete_attr__, pmpi_win_delete_attr, PMPI_WIN_DELETE_ATTR, mpi_win_delete_attr_f08_, pmpi_win_delete_attr_f08_, pmpir_win_delete_attr_f08_);

// The MPI-1 forms have no mpi_f08 binding in either engine.
layer_spellings!(keyval_create, (copy_fn: *const c_void, delete_fn: *const c_void, keyval: *mut MPI_Fint, extra_state: *const MPI_Fint, ierror: *mut MPI_Fint) => mpi_keyval_create_, mpi_keyval_create__, mpi_keyval_create, MPI_KEYVAL_CREATE, pmpi_keyval_create_, pmpi_keyval_create__, pmpi_keyval_create, PMPI_KEYVAL_CREATE);
free_spellings!(keyval_free => mpi_keyval_free_, mpi_keyval_free__, mpi_keyval_free, MPI_KEYVAL_FREE, pmpi_keyval_free_, pmpi_keyval_free__, pmpi_keyval_free, PMPI_KEYVAL_FREE);
layer_spellings!(attr_put, (comm: *const MPI_Fint, keyval: *const MPI_Fint, attribute_val: *const MPI_Fint, ierror: *mut MPI_Fint) => mpi_attr_put_, mpi_attr_put__, mpi_attr_put, MPI_ATTR_PUT, pmpi_attr_put_, pmpi_attr_put__, pmpi_attr_put, PMPI_ATTR_PUT);
layer_spellings!(attr_get, (comm: *const MPI_Fint, keyval: *const MPI_Fint, attribute_val: *mut MPI_Fint, flag: *mut MPI_Flogical, ierror: *mut MPI_Fint) => mpi_attr_get_, mpi_attr_get__, mpi_attr_get, MPI_ATTR_GET, pmpi_attr_get_, pmpi_attr_get__, pmpi_attr_get, PMPI_ATTR_GET);
delete_spellings!(attr_delete => mpi_attr_delete_, mpi_attr_delete__, mpi_attr_delete, MPI_ATTR_DELETE, pmpi_attr_delete_, pmpi_attr_delete__, pmpi_attr_delete, PMPI_ATTR_DELETE);
