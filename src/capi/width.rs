//! Counts and displacements of either width: the plain routines take `int`, the `_c` forms
//! (MPI 4.1 §2.5.8) `MPI_Count` and `MPI_Aint`; one body serves both.

use std::ffi::c_int;

/// A count or displacement (`int`, `MPI_Count`, `MPI_Aint`) widened to 64 bits.
pub(crate) trait Num: Copy + Send + Sync + 'static {
    fn wide(self) -> i64;
}
impl Num for c_int {
    fn wide(self) -> i64 {
        self.into()
    }
}
impl Num for i64 {
    fn wide(self) -> i64 {
        self
    }
}
impl Num for isize {
    fn wide(self) -> i64 {
        self as i64
    }
}
