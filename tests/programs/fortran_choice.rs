//! The `mpi` module gives choice-buffer routines (MPI_BCAST, MPI_REDUCE, MPI_ALLREDUCE, ...)
//! explicit interfaces that take any buffer, so a `use mpi` program passing INTEGER, REAL and
//! DOUBLE PRECISION buffers, scalars and arrays, and MPI_IN_PLACE, compiles cleanly (-Werror).

use crate::common;

#[test]
fn use_mpi_choice_buffers_of_several_types_compile_cleanly() {
    let src = common::repo_root().join("tests/fortran_choice/mixed_buffers.f90");
    let exe = common::compile("mpifort", &src, &["-Wall", "-Werror"]);
    for valgrind in [false, true] {
        let Some(run) = common::run(&exe, valgrind) else {
            continue;
        };
        assert!(
            run.status == Some(0) && run.stdout.contains("7 passed, 0 failed"),
            "{}",
            run.report()
        );
    }
}
