//! The Fortran entry points of the layer (engines with Fortran): every caching routine and the
//! life-cycle routines that run callbacks, in each spelling the engine's bindings and
//! gfortran's programs reach (LAYERED.md): `mpi_x_` (`mpif.h`, `use mpi`), `mpi_x__`, `mpi_x`,
//! `MPI_X` and the profiling `pmpi_x_` ... forms, and `use mpi_f08`'s `mpi_x_f08_` with its
//! twins (Open MPI `pmpi_x_f08_`, MPICH `pmpir_x_f08_`). The engines' own Fortran bindings do
//! not go through the C routines for these (they call internal functions), so a layer without
//! them would lose Fortran calls.
//!
//! Handles convert with the engine's `PMPI_*_f2c` / `c2f`; a `TYPE(MPI_Comm)` of `mpi_f08`
//! arrives as a reference to its INTEGER, and an absent optional `ierror` as NULL. A keyval the
//! layer does not own (the engine's predefined ones, whose Fortran numbers may differ from
//! C's) goes to the engine's own Fortran routine (`pmpi_x_`, found after the layer with
//! `RTLD_NEXT`).

pub mod attr;
pub mod attr_spellings;
pub mod callbacks;
pub mod life;

use crate::layer::engine::MPI_Fint;
use std::ffi::CStr;

/// Defines the spellings of one Fortran routine, each calling the one body:
/// `spellings!(body(a: T, ...) => name_, name__, ...)`.
#[macro_export]
macro_rules! layer_spellings {
    (@one $body:path, ($($arg:ident: $ty:ty),* $(,)?), $name:ident) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) {
            // SAFETY: the caller's arguments, handed on under the same (Fortran) contract.
            unsafe { $body($($arg),*) }
        }
    };
    ($body:path, $args:tt => $($name:ident),+ $(,)?) => {
        $($crate::layer_spellings!(@one $body, $args, $name);)+
    };
}

/// Runs a Fortran routine's body in the boundary and writes its code to `ierror` (when given:
/// `mpi_f08`'s is optional).
#[macro_export]
macro_rules! layer_fentry {
    ($name:expr, $scope:expr, $ierror:expr, $body:block) => {{
        let code = $crate::layer_entry!($name, $scope, $body);
        let ierror: *mut $crate::layer::engine::MPI_Fint = $ierror;
        if !ierror.is_null() {
            // SAFETY: non-NULL: the caller's `ierror` (an INTEGER), absent only as NULL.
            unsafe { *ierror = code };
        }
    }};
}

/// The engine's own Fortran routine `name` (the definition after the layer's), if it has one.
pub fn engine_routine(name: &CStr) -> Option<usize> {
    // SAFETY: dlsym with a NUL-terminated name.
    let a = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) };
    (!a.is_null()).then_some(a as usize)
}

/// Reads an INTEGER argument.
///
/// # Safety
/// `p` is NULL or a readable INTEGER.
#[inline(always)]
pub unsafe fn int(p: *const MPI_Fint) -> crate::error::Result<MPI_Fint> {
    if p.is_null() {
        return Err(crate::error::Error::NullArgument {
            name: "INTEGER argument",
        });
    }
    // SAFETY: non-NULL: the caller's INTEGER argument (Fortran passes by reference).
    Ok(unsafe { *p })
}
