//! The C test programs of tests/c/, built as a user builds them: with the installed `mpicc`
//! (see tests/common/mod.rs) and `-Wall -Wextra -Werror -std=c99`, then run plainly and under
//! valgrind. Each program checks its own MPI rules (tests/c/check.h) and exits 0 only when all
//! pass.
//!
//! Programs named `fatal_*.c` must die under `MPI_ERRORS_ARE_FATAL`: before the fatal call they
//! print on stdout one line `expect-fatal: WORD WORD ...`; the harness wants a non-zero exit and
//! exactly one stderr line `mpicache: CALL: CLASS: detail` that contains every expected word.

use crate::common;

use std::path::PathBuf;

const CFLAGS: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c99", "-g"];

fn source(name: &str) -> PathBuf {
    common::repo_root()
        .join("tests/c")
        .join(format!("{name}.c"))
}

/// Builds and runs a program that must exit 0, plainly and under valgrind.
fn passes(name: &str) {
    let exe = common::compile("mpicc", &source(name), CFLAGS);
    let plain = common::run(&exe, false).unwrap();
    assert!(
        plain.status == Some(0),
        "{name} failed:\n{}",
        plain.report()
    );
    if let Some(vg) = common::run(&exe, true) {
        assert!(
            vg.status == Some(0),
            "{name} failed under valgrind (99 = valgrind found errors or leaks):\n{}",
            vg.report()
        );
    }
}

/// Checks a fatal run: non-zero exit and one `mpicache: CALL: CLASS: detail` line with the
/// expected words.
fn check_fatal(name: &str, run: &common::Run) {
    let expect: Vec<&str> = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("expect-fatal:"))
        .unwrap_or_else(|| panic!("{name} printed no `expect-fatal:` line:\n{}", run.report()))
        .split_whitespace()
        .collect();
    assert!(
        matches!(run.status, Some(s) if s != 0),
        "{name} should have died with a non-zero exit status:\n{}",
        run.report()
    );
    let lines: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("mpicache: "))
        .collect();
    assert!(
        lines.len() == 1,
        "{name}: expected exactly one `mpicache: ` line on stderr:\n{}",
        run.report()
    );
    let line = lines[0];
    let fields: Vec<&str> = line.splitn(4, ": ").collect();
    assert!(
        fields.len() == 4 && fields.iter().all(|f| !f.trim().is_empty()),
        "{name}: the stderr line is not `mpicache: CALL: CLASS: detail`: {line}"
    );
    for word in expect {
        assert!(
            line.contains(word),
            "{name}: the stderr line does not name `{word}`: {line}\n{}",
            run.report()
        );
    }
}

/// Builds and runs a program that must die under `MPI_ERRORS_ARE_FATAL`.
fn dies(name: &str) {
    let exe = common::compile("mpicc", &source(name), CFLAGS);
    let plain = common::run(&exe, false).unwrap();
    check_fatal(name, &plain);
    if let Some(vg) = common::run(&exe, true) {
        assert!(
            vg.status != Some(99),
            "{name}: valgrind found errors:\n{}",
            vg.report()
        );
        check_fatal(name, &vg);
    }
}

macro_rules! c_programs {
    (pass: $($pass:ident),* ; die: $($die:ident),* $(,)?) => {
        $(#[test] fn $pass() { passes(stringify!($pass)); })*
        $(#[test] fn $die() { dies(stringify!($die)); })*
        /// Every tests/c/*.c has a test above, so a new program cannot be forgotten.
        #[test]
        fn every_program_has_a_test() {
            let known = [$(stringify!($pass),)* $(stringify!($die),)*];
            let dir = common::repo_root().join("tests/c");
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "c") {
                    let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
                    assert!(
                        known.contains(&stem.as_str()),
                        "tests/c/{stem}.c has no test in tests/programs/c_programs.rs"
                    );
                    assert_eq!(
                        stem.starts_with("fatal_"),
                        [$(stringify!($die),)*].contains(&stem.as_str()),
                        "tests/c/{stem}.c: fatal_* programs (and only they) must be listed under die:"
                    );
                }
            }
        }
    };
}

c_programs! {
    pass:
        attr_examples,
        type_darray,
        type_f90,
        type_decode_table,
        pack_external,
        attr_comm,
        attr_dup,
        attr_keyval_free,
        attr_keyval_free_type_win,
        attr_predefined,
        attr_deprecated,
        attr_errors,
        attr_finalize,
        attr_reentrant,
        attr_type_win,
        client_routines,
        client_routines_41,
        coll_vector_pack,
        coll_persistent,
        coll_persistent_inplace,
        collectives,
        neighbor,
        op_user,
        topo_cart,
        topo_graph,
        groups,
        info,
        io_basic,
        io_errors,
        io_shared,
        io_view,
        intercomm_create,
        keyval_reuse,
        p2p_large_count,
        p2p_self,
        mprobe,
        partitioned,
        grequest,
        status_f08,
        pmpi,
        rma_self,
        session,
        dynamic,
        mpit;
    die:
        fatal_keyval,
}

/// The installed wrapper: `-show` prints the command; link flags only when linking.
#[test]
fn mpicc_show() {
    let prefix = common::install_prefix();
    let mpicc = prefix.join("bin/mpicc");
    let show = |args: &[&str]| {
        let out = std::process::Command::new(&mpicc)
            .arg("-show")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "mpicc -show {args:?} failed");
        String::from_utf8(out.stdout).unwrap()
    };
    let p = prefix.display();
    let link = show(&["prog.c", "-o", "prog"]);
    assert!(
        link.contains(&format!("-I {p}/include prog.c -o prog")),
        "{link}"
    );
    assert!(
        link.trim_end()
            .ends_with(&format!("-L {p}/lib -Wl,-rpath,{p}/lib -lmpicache")),
        "{link}"
    );
    for flag in ["-c", "-E", "-S", "-M"] {
        let compile = show(&[flag, "prog.c"]);
        assert!(!compile.contains("-lmpicache"), "{flag}: {compile}");
        assert!(
            compile.contains(&format!("-I {p}/include")),
            "{flag}: {compile}"
        );
    }
    for lib in [
        "libmpicache.so",
        "libmpicache.so.0.1",
        "libmpicache.so.0.1.0",
        "libmpicache.a",
    ] {
        assert!(
            prefix.join("lib").join(lib).exists(),
            "{lib} is not installed"
        );
    }
    assert!(prefix.join("include/mpi.h").exists());
}
