//! User reduction operations as the world keeps them (the operations: `world::op`).

use std::ffi::c_void;

/// How a user function of another language's convention is called: `(function address,
/// invec, inoutvec, len, datatype)`; false when `len` does not fit the function's length type
/// (nothing is called then). The Fortran face provides one for `MPI_OP_CREATE(_C)`
/// (src/fortran/op.rs), whose USER_FUNCTION takes LEN and DATATYPE as Fortran INTEGERs.
pub type OpCaller = unsafe fn(usize, *mut c_void, *mut c_void, i64, i32) -> bool;

/// A user operation.
#[derive(Debug, Clone, Copy)]
pub struct UserOp {
    /// The address of the user's function.
    pub func: usize,
    pub commute: bool,
    /// Made by `MPI_Op_create_c`: the function takes an `MPI_Count` length.
    pub big_count: bool,
    /// A Fortran USER_FUNCTION: how to call it (`None`: the C `MPI_User_function(_c)`).
    pub caller: Option<OpCaller>,
}
