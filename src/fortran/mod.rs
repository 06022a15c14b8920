//! Fortran entry points for gfortran: every argument by reference, `ierror` last, LOGICAL as a
//! 4-byte integer (read true when nonzero, written 1 / 0), CHARACTER arguments with hidden
//! `usize` lengths appended after all other arguments.
//!
//! Each routine is written once as `mpi_xxx_` (gfortran's spelling); build/fortran_gen.rs
//! generates the other spellings (`mpi_xxx__`, `mpi_xxx`, `MPI_XXX`) and the profiling forms
//! (`pmpi_xxx_`, `pmpi_xxx__`, `pmpi_xxx`, `PMPI_XXX`), each calling the one body directly.
//! The same generator reads these signatures to write the explicit interfaces of the `mpi`
//! module (fortran/mpi.f90), so the type aliases below are also markers for the Fortran type:
//!
//! | Rust parameter type        | Fortran dummy                          |
//! |----------------------------|----------------------------------------|
//! | `MPI_Fint`                 | `INTEGER`                              |
//! | `MPI_Flogical`             | `LOGICAL`                              |
//! | `MPI_Aint`                 | `INTEGER(KIND=MPI_ADDRESS_KIND)`       |
//! | `MPI_Fcount`               | `INTEGER(KIND=MPI_COUNT_KIND)`         |
//! | `MPI_Faint_array`          | `INTEGER(KIND=MPI_ADDRESS_KIND) X(*)`  |
//! | `MPI_Fstatus`              | `INTEGER X(MPI_STATUS_SIZE)`           |
//! | `MPI_Farray`               | `INTEGER X(*)`                         |
//! | `MPI_Franges`              | `INTEGER X(3,*)`                       |
//! | `c_char` + hidden `usize`  | `CHARACTER(LEN=*)`                     |
//! | `Option<MPI_F...function>` | `EXTERNAL`                             |
//! | `c_void` (choice buffer)   | no interface is written for the routine |
#![allow(non_camel_case_types, clippy::missing_safety_doc)]

pub mod attr;
pub mod callbacks;
pub mod collective;
pub mod comm;
pub mod datatype;
pub mod errhandler;
pub mod init;
pub mod sentinels;
pub mod strings;
pub mod win;

use std::ffi::c_int;

/// Fortran default INTEGER (gfortran without `-fdefault-integer-8`).
#[cfg(not(feature = "fortran-integer-8"))]
pub type MPI_Fint = c_int;
/// Fortran default INTEGER under `-fdefault-integer-8` (cargo feature `fortran-integer-8`).
#[cfg(feature = "fortran-integer-8")]
pub type MPI_Fint = i64;
/// The size in bytes of the Fortran INTEGER (and LOGICAL) this library was built for.
pub const FORTRAN_INTEGER_SIZE: usize = std::mem::size_of::<MPI_Fint>();
/// Fortran default LOGICAL: same size as INTEGER; gfortran's `.TRUE.` is 1.
pub type MPI_Flogical = MPI_Fint;
/// `INTEGER STATUS(MPI_STATUS_SIZE)`.
pub type MPI_Fstatus = MPI_Fint;
/// `INTEGER X(*)`.
pub type MPI_Farray = MPI_Fint;
/// `INTEGER X(3,*)`.
pub type MPI_Franges = [MPI_Fint; 3];
/// `INTEGER(KIND=MPI_ADDRESS_KIND)`.
pub use crate::capi::types::MPI_Aint;
/// `INTEGER(KIND=MPI_COUNT_KIND)`.
pub type MPI_Fcount = i64;
/// `INTEGER(KIND=MPI_ADDRESS_KIND) X(*)`.
pub type MPI_Faint_array = MPI_Aint;

/// gfortran's `.TRUE.`.
pub const FORTRAN_TRUE: MPI_Flogical = 1;
/// gfortran's `.FALSE.`.
pub const FORTRAN_FALSE: MPI_Flogical = 0;

/// A Rust bool as a Fortran LOGICAL.
pub fn logical(b: bool) -> MPI_Flogical {
    if b {
        FORTRAN_TRUE
    } else {
        FORTRAN_FALSE
    }
}

/// Runs a Fortran routine's body in the C boundary ([`crate::entry!`]) and stores the code it
/// returns in `ierror`: `fentry!(ierror, "MPI_COMM_SIZE", scope, { ...; Ok(()) })`.
#[macro_export]
macro_rules! fentry {
    ($ierror:expr, $name:literal, $scope:expr, $body:block) => {{
        let rc = $crate::entry!($name, $scope, $body);
        let ierror: *mut $crate::fortran::MPI_Fint = $ierror;
        if !ierror.is_null() {
            // SAFETY: ierror is the caller's INTEGER, passed by reference.
            unsafe { *ierror = $crate::fortran::MPI_Fint::from(rc) };
        }
    }};
}

/// The generated spellings and profiling forms of every Fortran entry point.
#[allow(
    unused_imports,
    unused_unsafe,
    non_snake_case,
    clippy::missing_safety_doc,
    clippy::too_many_arguments
)]
pub mod twins {
    include!(concat!(env!("OUT_DIR"), "/fortran_twins.rs"));
}
