//! MPI 4.1 §9.3, the initial error handler: `mpiexec -initial-errhandler` (here the
//! `MPICACHE_INITIAL_ERRHANDLER` variable it sets) decides how errors before `MPI_Init` are
//! handled and which handler `MPI_COMM_WORLD` and `MPI_COMM_SELF` start with.

use crate::common;

use std::process::Command;

#[test]
fn initial_errhandler() {
    let src = common::repo_root().join("tests/c_env/initial_errhandler.c");
    let exe = common::compile("mpicc", &src, &["-Wall", "-Wextra", "-Werror", "-std=c99"]);

    // Chosen by mpiexec: errors return.
    let out = Command::new(&exe)
        .env("MPICACHE_INITIAL_ERRHANDLER", "mpi_errors_return")
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .expect("run the program");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("4 passed, 0 failed"), "{stdout}");

    // Through mpiexec, as MPI 4.1 §11.5 spells it.
    let mpiexec = common::install_prefix().join("bin/mpiexec");
    let out = Command::new(&mpiexec)
        .args(["-n", "1", "-initial-errhandler", "mpi_errors_return"])
        .arg(&exe)
        .env_remove("MPICACHE_INITIAL_ERRHANDLER")
        .output()
        .expect("run mpiexec");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("4 passed, 0 failed"), "{stdout}");

    // The default: MPI_ERRORS_ARE_FATAL, one line naming the call and the class.
    let out = Command::new(&exe)
        .env_remove("MPICACHE_INITIAL_ERRHANDLER")
        .output()
        .expect("run the program");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "a call before MPI_Init must stop the program"
    );
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.contains("MPI_Comm_create_keyval") && stderr.contains("MPI_ERR_OTHER"),
        "{stderr}"
    );
}
