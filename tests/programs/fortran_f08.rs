//! The `mpi_f08` module as a user meets it: fortran/mpi_f08.f90 is fresh (generated from
//! src/consts.rs and src/fortran by build/fortran_gen.rs; regenerate with
//! `MPICACHE_BLESS=1 cargo test --release --test programs fortran_f08`), and the mpi_f08
//! programs of tests/fortran/f08_*.F90 (with their C halves `f08_*_c.c`), built with the
//! INSTALLED mpifort / mpicc (mpi_f08.mod found without extra flags), pass their own checks,
//! plainly and under valgrind.

use crate::common;

use crate::fortran_gen;

use fortran_gen::FortranName;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn mpi_f08_module_is_fresh() {
    let consts =
        fortran_gen::parse_consts(&std::fs::read_to_string(root().join("src/consts.rs")).unwrap());
    let entries = fortran_gen::all_entries(root());
    let text = fortran_gen::render_mpi_f08(&consts, &entries);
    let path = root().join("fortran/mpi_f08.f90");
    if std::env::var_os("MPICACHE_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        text == checked_in,
        "fortran/mpi_f08.f90 is stale: run `MPICACHE_BLESS=1 cargo test --release --test programs fortran_f08`"
    );
    // Every routine of the Fortran bindings but the deprecated MPI-1 attribute routines.
    for e in entries.iter().filter(|e| !e.is_callback()) {
        let name = fortran_gen::f08_name(e.stem());
        let present = text.contains(&format!("subroutine {name}("))
            || text.contains(&format!("function {name}("));
        let excluded = fortran_gen::F08_EXCLUDED.contains(&e.stem());
        assert_eq!(present, !excluded, "mpi_f08: {name}");
    }
}

/// Builds `tests/fortran/<name>.F90` (with `<name>_c.c` compiled by the installed mpicc -c
/// when there is one) with the installed mpifort and runs it plainly and under valgrind.
fn build_and_run(name: &str) {
    let dir = root().join("tests/fortran");
    let c_half = dir.join(format!("{name}_c.c"));
    let mut flags: Vec<String> = vec!["-ffree-line-length-none".into(), "-Wall".into()];
    if c_half.exists() {
        let o = common::compile("mpicc", &c_half, &["-c", "-Wall"]);
        flags.push(o.display().to_string());
    }
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let exe = common::compile("mpifort", &dir.join(format!("{name}.F90")), &flags);
    for valgrind in [false, true] {
        let Some(run) = common::run(&exe, valgrind) else {
            continue;
        };
        assert!(
            run.status == Some(0),
            "{name} (valgrind: {valgrind}) failed:\n{}",
            run.report()
        );
        assert!(
            run.stdout.contains(" 0 failure(s)"),
            "{name}: no summary line:\n{}",
            run.report()
        );
    }
}

/// MPI 4.1 §20.3.7 writer x reader cells (C, Fortran ADDRESS_KIND via mpi_f08) on
/// communicators, datatypes and windows; predefined attributes; optional IERROR; `==`, `/=`.
#[test]
fn f08_matrix() {
    build_and_run("f08_matrix");
}

/// MPI 4.1 §7.7.2-§7.7.4: mpi_f08 callbacks (abstract interfaces) and C callbacks on comm,
/// datatype and window, driven from both languages; the predefined callbacks recognised.
#[test]
fn f08_callbacks() {
    build_and_run("f08_callbacks");
}

/// MPI 4.1 §13.2: generalized requests with mpi_f08 callbacks; §19.3.5: the f08 status
/// conversions in Fortran and C, and MPI_F08_STATUS_IGNORE as C sees it.
#[test]
fn f08_grequest() {
    build_and_run("f08_grequest");
}

/// MPI 4.1 §7.7.2-§7.7.4: keyvals freed while attributes use them still name those
/// attributes with mpi_f08 (get, delete, overwrite, dup), until the last one goes.
#[test]
fn f08_keyval_free() {
    build_and_run("f08_keyval_free");
}

/// MPI 4.1 §19.1.1, §19.3.4: mpi_f08, mpi, mpif.h and C units in one program.
#[test]
fn f08_mixed() {
    build_and_run("f08_mixed");
}

/// MPI 4.1 §7.7.6 and §20.3.7 caching examples, written with mpi_f08.
#[test]
fn f08_examples() {
    build_and_run("f08_examples");
}

/// MPI 4.1 §19.1–§19.3: the generated bindings through mpi_f08 (TYPE(MPI_Status) arrays,
/// handle arrays, LOGICAL, CHARACTER, MPI_IN_PLACE, OPTIONAL ierror, error classes).
#[test]
fn f08_generated() {
    build_and_run("f08_generated");
}
