//! The 8-byte Fortran INTEGER build (cargo feature `fortran-integer-8`, `ci/install_ilp64.sh`):
//! its library is built once, into its own target directory (target/ilp64), and installed
//! once per run into a prefix under target/tmp; then a reduced cross-language set is built
//! with that installation's mpifort (which adds -fdefault-integer-8) and mpicc, and run
//! plainly and under valgrind like the other Fortran programs:
//!
//! - tests/fortran/ilp64_attr.F90 (with its C half): the conversion tables again, with the
//!   values that differ from the 4-byte build (2**40 through MPI_ATTR_PUT / MPI_ATTR_GET, a
//!   negative 8-byte value, INTEGER copy callbacks returning values > 2**31, C readers, 8-byte
//!   MPI_INTEGER / MPI_LOGICAL, out-of-range handles and keyvals);
//! - tests/fortran/f08_matrix.F90 (with its C half): the mpi_f08 writer x reader matrix;
//! - tests/fortran/predefined_errors.F90 (Fortran only): predefined attributes and error
//!   classes through 8-byte IERROR and INTEGER arguments.
//!
//! ilp64_attr and predefined_errors are built with `use mpi` and with `include 'mpif.h'`.
//! Left out: attr_matrix.F90 checks the 4-byte cells (2**40 and pointers truncated by
//! MPI_ATTR_GET) that ilp64_attr.F90 checks with their 8-byte values; sentinels.F90 expects
//! 4-byte MPI_INTEGER sizes and extents in its datatype checks; the C
//! halves of callbacks, type_win_*, f08_callbacks, f08_mixed and f08_examples take the
//! Fortran INTEGERs they are passed as `MPI_Fint *` (a 4-byte C int), which is wrong under
//! -fdefault-integer-8 (the high half of an INTEGER the C half writes stays garbage).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ilp64")
}

/// Installs the 8-byte INTEGER variant with `ci/install_ilp64.sh` (its library built in
/// target/ilp64, not over the default build), once per test binary.
fn prefix() -> &'static Path {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| {
        let prefix = scratch().join("install");
        let out = Command::new("bash")
            .arg(root().join("ci/install_ilp64.sh"))
            .arg("--prefix")
            .arg(&prefix)
            .current_dir(root())
            .env("CARGO_TARGET_DIR", root().join("target/ilp64"))
            .output()
            .expect("cannot run ci/install_ilp64.sh");
        assert!(
            out.status.success(),
            "ci/install_ilp64.sh failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        prefix
    })
}

/// Runs an installed wrapper, panicking with its output when it fails.
fn wrapper(name: &str, args: &[&Path], flags: &[&str]) {
    let mut cmd = Command::new(prefix().join("bin").join(name));
    cmd.args(flags).args(args);
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Builds `tests/fortran/<name>.F90` (with its C half `<name>_c.c` when there is one) with the
/// 8-byte installation's wrappers, once per `variants` entry (extra mpifort flags, such as
/// -DUSE_MPIF_H), and runs each build plainly and under valgrind.
fn build_and_run(name: &str, variants: &[&[&str]]) {
    let dir = root().join("tests/fortran");
    let bin = scratch().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let source = dir.join(format!("{name}.F90"));
    let c_half = dir.join(format!("{name}_c.c"));
    let object = c_half.exists().then(|| {
        let o = bin.join(format!("{name}_c.o"));
        wrapper("mpicc", &[&c_half, Path::new("-o"), &o], &["-c", "-Wall"]);
        o
    });
    for (i, variant) in variants.iter().enumerate() {
        let exe = bin.join(format!("{name}-{i}"));
        let mut args: Vec<&Path> = vec![&source];
        args.extend(object.as_deref());
        args.extend([Path::new("-o"), &exe]);
        let mut flags = vec!["-ffree-line-length-none", "-Wall"];
        flags.extend_from_slice(variant);
        wrapper("mpifort", &args, &flags);
        for valgrind in [false, true] {
            let Some(run) = common::run(&exe, valgrind) else {
                continue;
            };
            assert!(
                run.status == Some(0) && run.stdout.contains(" 0 failure(s)"),
                "{name} {variant:?} (8-byte INTEGER, valgrind: {valgrind}) failed:\n{}",
                run.report()
            );
        }
    }
}

/// `use mpi` and `include 'mpif.h'`.
const BOTH: &[&[&str]] = &[&[], &["-DUSE_MPIF_H"]];

/// MPI 4.1 §20.3.7 under -fdefault-integer-8: the deprecated INTEGER provenance holds 64 bits,
/// MPI_ATTR_GET no longer truncates, INTEGER callbacks see 8-byte values; the installation says
/// so (fortran_integer.conf, mpicache-info, MPI_INTEGER_KIND in mpif.h).
#[test]
fn ilp64_conversion_table() {
    build_and_run("ilp64_attr", BOTH);
    let p = prefix();
    let conf = std::fs::read_to_string(p.join("share/mpicache/fortran_integer.conf")).unwrap();
    assert!(conf.lines().any(|l| l == "fortran_integer_size=8"));
    let mpif = std::fs::read_to_string(p.join("include/mpif.h")).unwrap();
    assert!(
        mpif.contains("MPI_INTEGER_KIND=8"),
        "mpif.h: MPI_INTEGER_KIND"
    );
    let info = Command::new(p.join("bin/mpicache-info"))
        .args(["--fortran-integer-size", "--fortran-logical-size"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&info.stdout), "8\n8\n");
}

/// MPI 4.1 §20.3.7 writer x reader matrix through mpi_f08 (8-byte MPI_VAL).
#[test]
fn ilp64_f08_matrix() {
    build_and_run("f08_matrix", &[&[]]);
}

/// MPI 4.1 §7.7.3, §9.3: predefined attributes and error classes through 8-byte IERROR.
#[test]
fn ilp64_predefined_and_errors() {
    build_and_run("predefined_errors", BOTH);
}

/// MPI 4.1 §19.1–§19.3 under -fdefault-integer-8: the generated bindings convert INTEGER
/// arrays, statuses and LOGICALs of 8 bytes, and reject values the C int cannot hold.
#[test]
fn ilp64_generated_bindings() {
    build_and_run("generated", &[&["-DILP64"], &["-DILP64", "-DUSE_MPIF_H"]]);
}
