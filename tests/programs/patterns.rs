//! Real-world caching patterns (tests/patterns/): programs in standard MPI only that use
//! attributes the way libraries and applications do — PETSc's inner communicators, the MPI
//! standard's own reference-counted cache (MPI 4.1 §7.7.6), HDF5/netCDF cleanup hooks on
//! MPI_COMM_SELF (§11.2.4), per-datatype caches on predefined types, Fortran index caches and a
//! C library caching on communicators that Fortran dups and frees (§20.3.7), and the error paths
//! real codes hit under MPI_ERRORS_RETURN.
//!
//! Each program is built with the INSTALLED wrappers (tests/common/mod.rs) — C with `mpicc
//! -Wall -Wextra -Werror -std=c99`, Fortran with `mpifort` (plus its `*_c.c` half compiled by
//! `mpicc -c`) — and run plainly and under valgrind. It must exit 0 and print its summary line
//! `NAME: N passed, 0 failed`.

use crate::common;

use std::path::PathBuf;

const CFLAGS: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c99", "-g"];

fn dir() -> PathBuf {
    common::repo_root().join("tests/patterns")
}

/// The shared CHECK helpers of tests/c/check.h.
fn include_flag() -> String {
    format!("-I{}", common::repo_root().join("tests/c").display())
}

fn check_run(name: &str, run: &common::Run, valgrind: bool) {
    assert!(
        run.status == Some(0),
        "{name} failed (valgrind: {valgrind}; 99 under valgrind = memory errors or leaks):\n{}",
        run.report()
    );
    let summary = format!("{name}: ");
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with(&summary) && l.contains(" passed, "))
        .unwrap_or_else(|| panic!("{name}: no summary line:\n{}", run.report()));
    assert!(
        line.trim_end().ends_with(" passed, 0 failed"),
        "{name}: {line}\n{}",
        run.report()
    );
    let passed: u32 = line[summary.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 0, "{name}: no check ran: {line}");
}

fn run_both(name: &str, exe: &std::path::Path) {
    let plain = common::run(exe, false).unwrap();
    check_run(name, &plain, false);
    if let Some(vg) = common::run(exe, true) {
        check_run(name, &vg, true);
    }
}

/// A C program `tests/patterns/<name>.c`.
fn c_program(name: &str) {
    let inc = include_flag();
    let mut flags: Vec<&str> = CFLAGS.to_vec();
    flags.push(&inc);
    let exe = common::compile("mpicc", &dir().join(format!("{name}.c")), &flags);
    run_both(name, &exe);
}

/// A Fortran program `tests/patterns/<name>.f90` (`use mpi`), with its C half `<name>_c.c` when
/// there is one.
fn fortran_program(name: &str) {
    let c_half = dir().join(format!("{name}_c.c"));
    let object = c_half.exists().then(|| {
        let inc = include_flag();
        let mut flags: Vec<&str> = CFLAGS.to_vec();
        flags.push(&inc);
        flags.push("-c");
        common::compile("mpicc", &c_half, &flags)
    });
    // Module files (.mod) go to a directory of this program's own, not the working directory.
    let moddir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("patterns_mod")
        .join(name);
    std::fs::create_dir_all(&moddir).unwrap();
    let mut flags: Vec<String> = vec![
        "-ffree-line-length-none".into(),
        "-Wall".into(),
        "-J".into(),
        moddir.display().to_string(),
    ];
    if let Some(o) = &object {
        flags.push(o.display().to_string());
    }
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let exe = common::compile("mpifort", &dir().join(format!("{name}.f90")), &flags);
    run_both(name, &exe);
}

macro_rules! patterns {
    (c: $($c:ident),* ; fortran: $($f:ident),* $(,)?) => {
        $(#[test] fn $c() { c_program(stringify!($c)); })*
        $(#[test] fn $f() { fortran_program(stringify!($f)); })*
        /// Every tests/patterns program has a test above, so a new one cannot be forgotten.
        #[test]
        fn every_pattern_has_a_test() {
            let c = [$(stringify!($c),)*];
            let f = [$(stringify!($f),)*];
            for entry in std::fs::read_dir(dir()).unwrap() {
                let path = entry.unwrap().path();
                let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
                match path.extension().and_then(|e| e.to_str()) {
                    Some("c") if stem.ends_with("_c") && f.contains(&&stem[..stem.len() - 2]) => {}
                    Some("c") => assert!(
                        c.contains(&stem.as_str()),
                        "tests/patterns/{stem}.c has no test in tests/programs/patterns.rs"
                    ),
                    Some("f90") => assert!(
                        f.contains(&stem.as_str()),
                        "tests/patterns/{stem}.f90 has no test in tests/programs/patterns.rs"
                    ),
                    _ => {}
                }
            }
        }
    };
}

patterns! {
    c:
        inner_comm,
        seq_counter,
        finalize_hook,
        type_cache,
        error_paths;
    fortran:
        f_seq_counter,
        f_mixed,
}
