//! User reduction operations as the world keeps them (the operations: `world::op`).

/// A user operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserOp {
    /// The address of the user's function.
    pub func: usize,
    pub commute: bool,
    /// Made by `MPI_Op_create_c`: the function takes an `MPI_Count` length.
    pub big_count: bool,
}
