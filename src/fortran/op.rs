//! `MPI_OP_CREATE` and `MPI_OP_CREATE_C` from Fortran (MPI 4.1 §6.9.5): the user's
//! `SUBROUTINE USER_FUNCTION(INVEC, INOUTVEC, LEN, DATATYPE)` gets the buffers' addresses and
//! LEN and DATATYPE as Fortran INTEGERs by reference (INTEGER(KIND=MPI_COUNT_KIND) LEN for
//! the `_C` form). `mpi_f08`'s `MPI_User_function` takes the buffers as `TYPE(C_PTR), VALUE`
//! and `TYPE(MPI_Datatype)`: the same machine arguments. The operation remembers how to call
//! it ([`OpCaller`]), so `MPI_REDUCE_LOCAL` & co. run it the Fortran way whether they are
//! called from Fortran or from C.

use crate::boundary::{rt, Scope};
use crate::fentry;
use crate::fortran::{fint, MPI_Fcount, MPI_Fint, MPI_Flogical, MPI_Fop};
use crate::nonnull;
use crate::world::objects::op::{OpCaller, UserOp};
use crate::world::Error;
use std::ffi::c_void;

/// `SUBROUTINE USER_FUNCTION(INVEC, INOUTVEC, LEN, DATATYPE)`.
pub type MPI_Fuser_function = unsafe extern "C" fn(
    invec: *mut c_void,
    inoutvec: *mut c_void,
    len: *mut MPI_Fint,
    datatype: *mut MPI_Fint,
);

/// The `_C` form: `INTEGER(KIND=MPI_COUNT_KIND) LEN`.
pub type MPI_Fuser_function_c = unsafe extern "C" fn(
    invec: *mut c_void,
    inoutvec: *mut c_void,
    len: *mut MPI_Fcount,
    datatype: *mut MPI_Fint,
);

/// Calls a [`MPI_Fuser_function`]; false when `len` does not fit the Fortran INTEGER.
///
/// # Safety
/// `func` is the address of a `MPI_Fuser_function` (given to `mpi_op_create_`), and the
/// buffers hold `len` elements of `datatype`.
unsafe fn call_fortran(
    func: usize,
    invec: *mut c_void,
    inoutvec: *mut c_void,
    len: i64,
    datatype: i32,
) -> bool {
    // With 8-byte INTEGERs every length fits; with 4-byte ones a length over 2**31-1 does not.
    let fits: std::result::Result<MPI_Fint, _> = len.try_into();
    let Some(mut n) = fits.ok() else {
        return false;
    };
    let mut dt = fint(datatype);
    // SAFETY: `func` is the address of an MPI_Fuser_function (this function's contract), a
    // non-NULL function pointer of that type.
    let f: MPI_Fuser_function = unsafe { std::mem::transmute::<usize, MPI_Fuser_function>(func) };
    // SAFETY: the user's function gets buffers of `n` elements of `dt` (this function's
    // contract), as MPI 4.1 §6.9.5 promises it.
    unsafe { f(invec, inoutvec, &mut n, &mut dt) };
    true
}

/// Calls a [`MPI_Fuser_function_c`].
///
/// # Safety
/// As [`call_fortran`], for an `MPI_Fuser_function_c` (given to `mpi_op_create_c_`).
unsafe fn call_fortran_c(
    func: usize,
    invec: *mut c_void,
    inoutvec: *mut c_void,
    len: i64,
    datatype: i32,
) -> bool {
    let mut n: MPI_Fcount = len;
    let mut dt = fint(datatype);
    // SAFETY: `func` is the address of an MPI_Fuser_function_c (this function's contract).
    let f: MPI_Fuser_function_c =
        unsafe { std::mem::transmute::<usize, MPI_Fuser_function_c>(func) };
    // SAFETY: the user's function gets buffers of `n` elements of `dt` (this function's
    // contract), as MPI 4.1 §6.9.5 promises it.
    unsafe { f(invec, inoutvec, &mut n, &mut dt) };
    true
}

/// Both forms: the operation with its caller, its handle in OP.
///
/// # Safety
/// `commute` and `op` are the caller's LOGICAL and INTEGER (fortran/mod.rs contract).
unsafe fn create(
    func: Option<usize>,
    commute: *const MPI_Flogical,
    op: *mut MPI_Fop,
    caller: OpCaller,
    big_count: bool,
) -> crate::error::Result<()> {
    nonnull!(commute, op);
    let func = func.ok_or(Error::NullArgument { name: "user_fn" })?;
    // SAFETY: `commute` checked non-NULL above: the caller's LOGICAL.
    let commute = unsafe { *commute } != 0;
    let h = rt().op_create(UserOp {
        func,
        commute,
        big_count,
        caller: Some(caller),
    })?;
    // SAFETY: `op` checked non-NULL above: the caller's INTEGER.
    unsafe { *op = fint(h.0) };
    Ok(())
}

/// `MPI_OP_CREATE(USER_FN, COMMUTE, OP, IERROR)`, `EXTERNAL USER_FN`, `LOGICAL COMMUTE`.
#[no_mangle]
pub unsafe extern "C" fn mpi_op_create_(
    user_fn: Option<MPI_Fuser_function>,
    commute: *const MPI_Flogical,
    op: *mut MPI_Fop,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_OP_CREATE", Scope::NoObject, {
        // SAFETY: the caller's LOGICAL and INTEGER, as `create` asks (fortran/mod.rs contract).
        unsafe {
            create(
                user_fn.map(|f| f as usize),
                commute,
                op,
                call_fortran,
                false,
            )
        }
    })
}

/// `MPI_OP_CREATE_C(USER_FN, COMMUTE, OP, IERROR)`: USER_FN takes an
/// INTEGER(KIND=MPI_COUNT_KIND) LEN.
#[no_mangle]
pub unsafe extern "C" fn mpi_op_create_c_(
    user_fn: Option<MPI_Fuser_function_c>,
    commute: *const MPI_Flogical,
    op: *mut MPI_Fop,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_OP_CREATE_C", Scope::NoObject, {
        // SAFETY: the caller's LOGICAL and INTEGER, as `create` asks (fortran/mod.rs contract).
        unsafe {
            create(
                user_fn.map(|f| f as usize),
                commute,
                op,
                call_fortran_c,
                true,
            )
        }
    })
}
