//! The profiling interface's one routine (MPI 4.1 §15.2.4).

use std::ffi::c_int;

/// `MPI_Pcontrol(level, ...)`: mpicache keeps no profile of its own, so every level is
/// accepted and nothing changes ("MPI libraries themselves make no use of this routine",
/// §15.2.4); a tool that wraps `MPI_Pcontrol` sees the call. The C declaration is variadic
/// (include/mpi_fragment.h); on the platforms supported the extra arguments are ignored.
#[no_mangle]
pub extern "C" fn MPI_Pcontrol(level: c_int) -> c_int {
    let _ = level;
    crate::consts::MPI_SUCCESS
}
