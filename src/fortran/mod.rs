//! Fortran entry points for gfortran: every argument by reference, `ierror` last, LOGICAL of
//! the INTEGER's size (read true when nonzero, written 1 / 0), CHARACTER arguments with hidden
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
//! | `MPI_Fstatus_int`          | the same, in `mpi_f08` too             |
//! | `MPI_Farray`               | `INTEGER X(*)`                         |
//! | `MPI_Franges`              | `INTEGER X(3,*)`                       |
//! | `c_char` + hidden `usize`  | `CHARACTER(LEN=*)`                     |
//! | `MPI_Fchar_array` + `usize`| `CHARACTER(LEN=*) X(*)`                |
//! | `MPI_Fchar_table` + `usize`| `CHARACTER(LEN=*) X(COUNT,*)`          |
//! | `Option<MPI_F...function>` | `EXTERNAL`                             |
//! | `c_void` (choice buffer)   | no interface is written for the routine |
//!
//! Every entry point is `unsafe`: its contract is the MPI standard's for that routine, as
//! gfortran calls it: each argument points to the caller's variable of the type above, valid for
//! what the routine reads or writes during the call (a C caller may pass NULL: the routines read
//! such a handle as the null handle and report a NULL output as `MPI_ERR_ARG`), and each
//! CHARACTER argument comes with its length. It is stated once here; the `// SAFETY:` lines
//! of the entry points refer to it.
#![allow(non_camel_case_types, clippy::missing_safety_doc)]

pub mod address;
pub mod attr;
pub mod bind;
pub mod callbacks;
pub mod collective;
pub mod comm;
pub mod datatype;
pub mod errhandler;
pub mod grequest;
pub mod info;
pub mod init;
pub mod op;
pub mod sentinels;
pub mod session;
pub mod spawn;
pub mod status;
pub mod strings;
pub mod win;

/// Fortran default INTEGER (gfortran without `-fdefault-integer-8`).
#[cfg(not(feature = "fortran-integer-8"))]
pub type MPI_Fint = std::ffi::c_int;
/// Fortran default INTEGER under `-fdefault-integer-8` (cargo feature `fortran-integer-8`).
#[cfg(feature = "fortran-integer-8")]
pub type MPI_Fint = i64;
/// The size in bytes of the Fortran INTEGER (and LOGICAL) this library was built for.
pub const FORTRAN_INTEGER_SIZE: usize = std::mem::size_of::<MPI_Fint>();
/// Fortran default LOGICAL: same size as INTEGER; gfortran's `.TRUE.` is 1.
pub type MPI_Flogical = MPI_Fint;
/// `INTEGER STATUS(MPI_STATUS_SIZE)`.
pub type MPI_Fstatus = MPI_Fint;
/// `INTEGER STATUS(MPI_STATUS_SIZE)` in `mpi_f08` too (`MPI_Status_f082f`, `MPI_Status_f2f08`).
pub type MPI_Fstatus_int = MPI_Fint;
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

/// Handles of each kind (`INTEGER`; `TYPE(MPI_Comm)` & co. in `mpi_f08`) and arrays of them,
/// named apart so that build/fortran_gen.rs writes the right `mpi_f08` type.
pub type MPI_Fcomm = MPI_Fint;
pub type MPI_Fdatatype = MPI_Fint;
pub type MPI_Fgroup = MPI_Fint;
pub type MPI_Finfo = MPI_Fint;
pub type MPI_Fop = MPI_Fint;
pub type MPI_Frequest = MPI_Fint;
pub type MPI_Fwin = MPI_Fint;
pub type MPI_Ferrhandler = MPI_Fint;
pub type MPI_Fmessage = MPI_Fint;
pub type MPI_Ffile = MPI_Fint;
pub type MPI_Fsession = MPI_Fint;
/// `INTEGER(KIND=MPI_OFFSET_KIND)`.
pub type MPI_Foffset = crate::capi::types::MPI_Offset;
pub type MPI_Fcomm_array = MPI_Fint;
pub type MPI_Fdatatype_array = MPI_Fint;
pub type MPI_Fgroup_array = MPI_Fint;
pub type MPI_Finfo_array = MPI_Fint;
pub type MPI_Fop_array = MPI_Fint;
pub type MPI_Frequest_array = MPI_Fint;
pub type MPI_Fwin_array = MPI_Fint;
pub type MPI_Ferrhandler_array = MPI_Fint;
pub type MPI_Fmessage_array = MPI_Fint;
pub type MPI_Ffile_array = MPI_Fint;
pub type MPI_Fsession_array = MPI_Fint;
/// `LOGICAL X(*)`.
pub type MPI_Flogical_array = MPI_Fint;
/// `INTEGER X(MPI_STATUS_SIZE, *)` (`TYPE(MPI_Status) X(*)` in `mpi_f08`).
pub type MPI_Fstatus_array = MPI_Fint;
/// `INTEGER(KIND=MPI_COUNT_KIND) X(*)`.
pub type MPI_Fcount_array = MPI_Fcount;
/// `CHARACTER(LEN=*) X(*)` (with a hidden `usize` length, one for every element).
pub type MPI_Fchar_array = std::ffi::c_char;
/// `CHARACTER(LEN=*) X(COUNT,*)` (MPI_COMM_SPAWN_MULTIPLE's ARRAY_OF_ARGV).
pub type MPI_Fchar_table = std::ffi::c_char;

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

/// An INTEGER the core's `i32` fits in: handles, keyval numbers, ranks, colors, error codes,
/// thread levels. With 4-byte INTEGERs this is the value itself; with 8-byte INTEGERs
/// (`fortran-integer-8`) a value outside the `i32` range is an error of `class` (MPI_ERR_COMM
/// for a communicator handle, MPI_ERR_KEYVAL for a keyval, MPI_ERR_ARG otherwise), never a
/// silent truncation.
#[inline(always)]
pub fn narrow(v: MPI_Fint, class: i32, what: &'static str) -> crate::error::Result<i32> {
    #[cfg(not(feature = "fortran-integer-8"))]
    {
        let _ = (class, what);
        Ok(v)
    }
    #[cfg(feature = "fortran-integer-8")]
    {
        i32::try_from(v).map_err(|_| too_wide(v, class, what))
    }
}

/// The error for an 8-byte INTEGER that does not fit where the library needs 32 bits.
#[cfg(feature = "fortran-integer-8")]
#[cold]
#[inline(never)]
fn too_wide(v: MPI_Fint, class: i32, what: &'static str) -> crate::error::Error {
    crate::error::Error::invalid(
        class,
        format!("{what} = {v} is out of range (no such value fits 32 bits)"),
    )
}

/// Reads an INTEGER argument passed by reference (a handle, a keyval, a count): the one reader
/// of the Fortran face. NULL, which only a C caller can pass (Fortran passes every argument by
/// reference), reads as `null`, so the call then fails as for that handle.
///
/// # Safety
/// `p` is NULL or points to a readable INTEGER.
#[inline(always)]
pub unsafe fn by_ref(p: *const MPI_Fint, null: i32) -> MPI_Fint {
    if p.is_null() {
        fint(null)
    } else {
        // SAFETY: not NULL, and the caller's INTEGER by the function's contract.
        unsafe { *p }
    }
}

/// Reads a by-reference INTEGER argument (checked non-NULL by the caller) with [`narrow`].
///
/// # Safety
/// `p` must point to a readable INTEGER.
#[inline(always)]
pub unsafe fn read_narrow(
    p: *const MPI_Fint,
    class: i32,
    what: &'static str,
) -> crate::error::Result<i32> {
    // SAFETY: `p` points to a readable INTEGER (this function's contract).
    narrow(unsafe { *p }, class, what)
}

/// A handle for the error scope of a call (whose error handler runs): the value when it fits
/// 32 bits, `null` otherwise (the body then reports the handle with [`narrow`]).
#[inline(always)]
pub fn scope_handle(v: MPI_Fint, null: i32) -> i32 {
    #[cfg(not(feature = "fortran-integer-8"))]
    {
        let _ = null;
        v
    }
    #[cfg(feature = "fortran-integer-8")]
    {
        i32::try_from(v).unwrap_or(null)
    }
}

/// An `i32` from the core as an INTEGER output (widened, sign-extended, with 8-byte INTEGERs).
#[inline(always)]
pub fn fint(v: i32) -> MPI_Fint {
    #[cfg(not(feature = "fortran-integer-8"))]
    {
        v
    }
    #[cfg(feature = "fortran-integer-8")]
    {
        MPI_Fint::from(v)
    }
}

/// An INTEGER argument where the core takes an `i64` (counts, block lengths, strides,
/// displacements, extra_state): the whole value, with either INTEGER size.
#[inline(always)]
pub fn wide(v: MPI_Fint) -> i64 {
    #[cfg(not(feature = "fortran-integer-8"))]
    {
        i64::from(v)
    }
    #[cfg(feature = "fortran-integer-8")]
    {
        v
    }
}

/// An error code a Fortran callback returned in its IERROR, as the core's `i32`: a code that
/// does not fit 32 bits (only possible with 8-byte INTEGERs) is reported as MPI_ERR_OTHER.
#[inline(always)]
pub fn callback_code(v: MPI_Fint) -> i32 {
    #[cfg(not(feature = "fortran-integer-8"))]
    {
        v
    }
    #[cfg(feature = "fortran-integer-8")]
    {
        i32::try_from(v).unwrap_or(crate::consts::MPI_ERR_OTHER)
    }
}

/// Runs a Fortran routine's body in the C boundary ([`crate::entry!`]) and stores the code it
/// returns in `ierror`: `fentry!(ierror, "MPI_COMM_SIZE", scope, { ...; Ok(()) })`.
#[macro_export]
macro_rules! fentry {
    ($ierror:expr, $name:expr, $scope:expr, $body:block) => {{
        let rc = $crate::entry!($name, $scope, $body);
        let ierror: *mut $crate::fortran::MPI_Fint = $ierror;
        if !ierror.is_null() {
            // SAFETY: ierror is the caller's INTEGER, passed by reference.
            unsafe { *ierror = $crate::fortran::fint(rc) };
        }
    }};
}

/// Stores `MPI_SUCCESS` in IERROR, unless it is NULL (an `mpi_f08` call may leave it out).
///
/// # Safety
/// `ierror` is NULL or the caller's INTEGER, passed by reference.
#[inline(always)]
pub unsafe fn succeeded(ierror: *mut MPI_Fint) {
    if !ierror.is_null() {
        // SAFETY: not NULL: the caller's IERROR (this function's contract).
        unsafe { *ierror = fint(crate::consts::MPI_SUCCESS) };
    }
}

/// The generated Fortran bindings of the C routines without a hand-written one
/// (build/fortran_bind.rs).
#[allow(
    unused_mut,
    unused_unsafe,
    clippy::missing_safety_doc,
    clippy::too_many_arguments,
    clippy::unnecessary_cast
)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/fortran_bindings.rs"));
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
