//! The installation as build systems and users meet it (issue 4): the wrappers' probe flags, CMake's
//! FindMPI, pkg-config, mpiexec / mpirun, mpicache-info, static and shared linking (with the
//! profiling interface), the soname and MPI_Get_library_version, and ci/conformance.sh for
//! mpicache. Everything runs against the prefix ci/install.sh installs (tests/common/mod.rs).
//!
//! cmake and pkg-config are installed by ci/test.sh; run on their own without them, the tests
//! that need them print a note and return (with `MPICACHE_REQUIRE_VALGRIND=1`, which ci/test.sh
//! sets, they fail instead).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A directory of this test binary's own, under target/tmp, emptied first.
fn workdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("install_tools_work")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bin(tool: &str) -> PathBuf {
    common::install_prefix().join("bin").join(tool)
}

fn text(out: &Output) -> String {
    format!(
        "status: {}\n--- stdout ---\n{}--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs a command; panics with its output unless it succeeds. Returns stdout.
fn ok(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed:\n{}", text(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// Whether `tool` is on PATH; when it is not, a note (or, under ci/test.sh, a failure).
fn have(tool: &str) -> bool {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("MPICACHE_REQUIRE_VALGRIND").is_none(),
            "{tool} is required under ci/test.sh but not installed"
        );
        eprintln!("note: {tool} is not installed: skipping");
    }
    found
}

fn wrapper_out(wrapper: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(bin(wrapper));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    ok(&mut cmd).trim_end().to_owned()
}

/// mpicc and mpifort answer what CMake's FindMPI, autoconf and MPI crates probe, like MPICH's
/// (-show, -compile-info, -link-info) and Open MPI's (-showme, -showme:compile / link / version).
#[test]
fn wrappers_answer_build_system_probes() {
    let prefix = common::install_prefix();
    let p = prefix.display();
    let inc = format!("-I {p}/include");
    for (wrapper, default, libs, select, env, lang) in [
        ("mpicc", "cc", "-lmpicache", "-cc=", "MPICACHE_CC", "C"),
        (
            "mpifort",
            "gfortran",
            "-lmpicache_f -lmpicache",
            "-fc=",
            "MPICACHE_FC",
            "Fortran",
        ),
        (
            "mpif90",
            "gfortran",
            "-lmpicache_f -lmpicache",
            "-f90=",
            "MPICACHE_FC",
            "Fortran",
        ),
    ] {
        // mpifort adds -fallow-argument-mismatch for gfortran >= 10 (Debian 12 has 12).
        let inc = if lang == "Fortran" {
            format!("{inc} -fallow-argument-mismatch")
        } else {
            inc.clone()
        };
        let link = format!("-L {p}/lib -Wl,-rpath,{p}/lib {libs}");
        let w = |args: &[&str]| wrapper_out(wrapper, args, &[]);
        assert_eq!(
            w(&["-show", "x.c", "-o", "x"]),
            format!("{default} {inc} x.c -o x {link}")
        );
        assert_eq!(
            w(&["-showme", "-c", "x.c"]),
            format!("{default} {inc} -c x.c")
        );
        assert_eq!(w(&["-compile-info", "x.c"]), format!("{default} {inc} x.c"));
        assert_eq!(w(&["-link-info"]), format!("{default} {inc} {link}"));
        assert_eq!(w(&["-showme:compile"]), inc);
        assert_eq!(w(&["-showme:link"]), link);
        assert_eq!(w(&["-showme:incdirs"]), format!("{p}/include"));
        assert_eq!(w(&["-showme:libdirs"]), format!("{p}/lib"));
        assert_eq!(
            w(&["-showme:version"]),
            format!(
                "{wrapper}: mpicache {} (Language: {lang})",
                env!("CARGO_PKG_VERSION")
            )
        );
        // Another compiler: by flag, by environment; the flag wins.
        let other = format!("{select}my-compiler");
        assert!(w(&["-show", &other, "x"]).starts_with(&format!("my-compiler {inc} x ")));
        assert!(
            wrapper_out(wrapper, &["-show", "x"], &[(env, "env-compiler")])
                .starts_with("env-compiler ")
        );
        assert!(
            wrapper_out(wrapper, &["-show", &other, "x"], &[(env, "env-compiler")])
                .starts_with("my-compiler ")
        );
        // -static-mpi links the archives and what the Rust library needs from the system.
        let st = w(&["-show", "-static-mpi", "x"]);
        assert!(st.contains(&format!("{p}/lib/libmpicache.a")), "{st}");
        assert!(
            st.contains("-lpthread") && st.contains("-ldl") && st.contains("-lm"),
            "{st}"
        );
        assert!(!st.contains("-lmpicache") && !st.contains("rpath"), "{st}");
        // An unknown -showme: is an error, not a compile.
        let out = Command::new(bin(wrapper))
            .arg("-showme:nonsense")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    }
}

/// CMake's FindMPI finds mpicache through the installed wrappers, builds a C and a Fortran
/// target that use attributes, and ctest runs them with mpiexec -n 1.
#[test]
fn cmake_find_mpi_builds_and_runs_examples() {
    if !have("cmake") || !have("ctest") {
        return;
    }
    let prefix = common::install_prefix();
    let build = workdir("cmake");
    let path = format!(
        "{}:{}",
        prefix.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let src = common::repo_root().join("examples/cmake");
    let out = ok(Command::new("cmake")
        .env("PATH", &path)
        .arg("-S")
        .arg(&src)
        .arg("-B")
        .arg(&build)
        .arg(format!("-DMPI_C_COMPILER={}", bin("mpicc").display()))
        .arg(format!(
            "-DMPI_Fortran_COMPILER={}",
            bin("mpifort").display()
        ))
        .arg(format!("-DMPIEXEC_EXECUTABLE={}", bin("mpiexec").display())));
    assert!(out.contains("found version \"4.1\""), "{out}");
    ok(Command::new("cmake")
        .env("PATH", &path)
        .arg("--build")
        .arg(&build));
    let out = ok(Command::new("ctest")
        .env("PATH", &path)
        .arg("--output-on-failure")
        .current_dir(&build));
    assert!(out.contains("100% tests passed"), "{out}");
}

/// pkg-config: `cc $(pkg-config --cflags --libs mpicache)` builds a program that runs (rpath in
/// Libs); mpicache-fort gives the module directory and the Fortran library.
#[test]
fn pkg_config_builds_a_program() {
    if !have("pkg-config") {
        return;
    }
    let prefix = common::install_prefix();
    let pc = prefix.join("lib/pkgconfig");
    let work = workdir("pkgconfig");
    let flags = ok(Command::new("pkg-config")
        .env("PKG_CONFIG_PATH", &pc)
        .args(["--cflags", "--libs", "mpicache"]));
    let p = prefix.display();
    assert!(flags.contains(&format!("-I{p}/include")), "{flags}");
    assert!(
        flags.contains("-lmpicache") && flags.contains("-rpath"),
        "{flags}"
    );
    let exe = work.join("examples_attr_c");
    ok(Command::new("sh")
        .env("PKG_CONFIG_PATH", &pc)
        .arg("-c")
        .arg(r#"cc -std=c99 -Wall -Werror "$1" -o "$2" $(pkg-config --cflags --libs mpicache)"#)
        .arg("sh")
        .arg(common::repo_root().join("examples/cmake/attr_c.c"))
        .arg(&exe));
    let run = common::run(&exe, false).unwrap();
    assert!(
        run.status == Some(0) && run.stdout.contains("attr_c: ok"),
        "{}",
        run.report()
    );

    let fort = ok(Command::new("pkg-config")
        .env("PKG_CONFIG_PATH", &pc)
        .args(["--cflags", "--libs", "mpicache-fort"]));
    assert!(fort.contains(&format!("-I{p}/include")), "{fort}");
    assert!(fort.contains("-lmpicache_f -lmpicache"), "{fort}");
    assert_eq!(
        ok(Command::new("pkg-config")
            .env("PKG_CONFIG_PATH", &pc)
            .args(["--variable=moduledir", "mpicache-fort"]))
        .trim(),
        format!("{p}/include")
    );
    assert!(prefix.join("include/mpi.mod").exists());
}

/// A C program that prints its arguments and MPI_COMM_WORLD's size, built with mpicc.
fn args_program() -> PathBuf {
    static EXE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    EXE.get_or_init(build_args_program).clone()
}

fn build_args_program() -> PathBuf {
    let work = workdir("mpiexec");
    let src = work.join("args.c");
    std::fs::write(
        &src,
        r#"#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    int size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("size=%d", size);
    for (int i = 1; i < argc; i++) printf(" [%s]", argv[i]);
    printf("\n");
    MPI_Finalize();
    return 0;
}
"#,
    )
    .unwrap();
    let exe = work.join("args");
    ok(Command::new(bin("mpicc")).arg(&src).arg("-o").arg(&exe));
    exe
}

/// mpiexec / mpirun run the program as the one process, with `-n 1`, `-np 1` or no -n, and pass
/// its arguments through untouched.
#[test]
fn mpiexec_runs_one_process() {
    let exe = args_program();
    for tool in ["mpiexec", "mpirun"] {
        for n in [&["-n", "1"][..], &["-np", "1"][..], &[][..]] {
            let out = ok(Command::new(bin(tool))
                .args(n)
                .arg(&exe)
                .args(["-n", "4", "a b", ""]));
            assert_eq!(out, "size=1 [-n] [4] [a b] []\n", "{tool} {n:?}");
        }
    }
}

/// More than one process: a non-zero exit and one line saying why and where to go.
#[test]
fn mpiexec_refuses_more_than_one_process() {
    let exe = args_program();
    for tool in ["mpiexec", "mpirun"] {
        for flag in ["-n", "-np"] {
            let out = Command::new(bin(tool))
                .args([flag, "2"])
                .arg(&exe)
                .output()
                .unwrap();
            assert!(!out.status.success(), "{}", text(&out));
            assert!(
                out.stdout.is_empty(),
                "the program must not run:\n{}",
                text(&out)
            );
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            for word in ["single-process", "MPICH", "Open MPI", "-n 2"] {
                assert!(err.contains(word), "`{word}` missing: {err}");
            }
        }
    }
    let out = Command::new(bin("mpiexec"))
        .args(["-n", "0"])
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// mpicache-info: every field, one a line, from what the installation really used; single
/// fields by flag; no MPI_Init needed.
#[test]
fn mpicache_info_prints_the_configuration() {
    let prefix = common::install_prefix();
    let p = prefix.display();
    let all = ok(Command::new(bin("mpicache-info")).arg("--all"));
    assert_eq!(all, ok(&mut Command::new(bin("mpicache-info"))));
    let cc_version = ok(Command::new("cc").arg("--version"));
    let fc_version = ok(Command::new("gfortran").arg("--version"));
    for (label, value) in [
        ("Version", env!("CARGO_PKG_VERSION").to_owned()),
        ("MPI version", "4.1".to_owned()),
        ("Build profile", "release".to_owned()),
        ("C compiler", "cc (".to_owned()),
        (
            "C compiler version",
            cc_version.lines().next().unwrap().to_owned(),
        ),
        ("Fortran compiler", "gfortran (".to_owned()),
        (
            "Fortran compiler version",
            fc_version.lines().next().unwrap().to_owned(),
        ),
        ("MPI_ADDRESS_KIND", "8".to_owned()),
        ("Fortran INTEGER size (bytes)", "4".to_owned()),
        ("Fortran LOGICAL .TRUE. value", "1".to_owned()),
        (
            "Fortran spellings exported",
            "mpi_xxx_ mpi_xxx__ mpi_xxx MPI_XXX".to_owned(),
        ),
        ("Highest thread level", "MPI_THREAD_MULTIPLE".to_owned()),
        ("C headers (mpi.h)", format!("{p}/include")),
        ("Fortran mpif.h and mpi.mod", format!("{p}/include")),
        ("Libraries", format!("{p}/lib")),
    ] {
        let line = all
            .lines()
            .find(|l| l.split_once(':').is_some_and(|(l, _)| l == label))
            .unwrap_or_else(|| panic!("no `{label}:` line:\n{all}"));
        assert!(
            line.contains(&value),
            "`{label}` should contain `{value}`: {line}"
        );
    }
    let one = |flags: &[&str]| ok(Command::new(bin("mpicache-info")).args(flags));
    assert_eq!(
        one(&["--version"]),
        format!("{}\n", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        one(&["--mpi-version", "--fortran-integer-size"]),
        "4.1\n4\n"
    );
    assert_eq!(one(&["--mpi-address-kind"]), "8\n");
    let out = Command::new(bin("mpicache-info"))
        .arg("--nonsense")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // The spellings it names are really exported by the shared library.
    let syms = ok(Command::new("nm")
        .arg("-D")
        .arg("--defined-only")
        .arg(prefix.join("lib/libmpicache.so")));
    for s in [
        "mpi_comm_set_attr_",
        "mpi_comm_set_attr__",
        "mpi_comm_set_attr",
        "MPI_COMM_SET_ATTR",
        "pmpi_comm_set_attr_",
        "PMPI_COMM_SET_ATTR",
    ] {
        assert!(
            syms.lines().any(|l| l.ends_with(&format!(" {s}"))),
            "{s} is not exported"
        );
    }
}

/// Whether an executable needs libmpicache.so at run time.
fn needs_shared_library(exe: &Path) -> bool {
    ok(Command::new("readelf").arg("-d").arg(exe)).contains("libmpicache.so")
}

/// `-static-mpi` links libmpicache.a: the profiling-interface program of tests/c (its own
/// MPI_Comm_get_attr calling PMPI_Comm_get_attr) links and passes; so does a program wrapping
/// MPI_Comm_dup, a routine the library also calls internally (PMPI_Comm_dup must reach the
/// library, not the wrapper); and a Fortran program. The default stays the shared library.
#[test]
fn static_and_shared_linking() {
    let work = workdir("static");
    let pmpi = common::repo_root().join("tests/c/pmpi.c");
    let cflags = ["-Wall", "-Wextra", "-Werror", "-std=c99", "-g"];
    for (static_mpi, name) in [(true, "pmpi_static"), (false, "pmpi_shared")] {
        let exe = work.join(name);
        let mut cmd = Command::new(bin("mpicc"));
        if static_mpi {
            cmd.arg("-static-mpi");
        }
        ok(cmd.args(cflags).arg(&pmpi).arg("-o").arg(&exe));
        assert_eq!(needs_shared_library(&exe), !static_mpi, "{name}");
        let run = common::run(&exe, false).unwrap();
        assert!(run.status == Some(0), "{name}:\n{}", run.report());
    }
    let src = work.join("wrap_dup.c");
    std::fs::write(
        &src,
        r#"#include <mpi.h>
#include <stdio.h>
static int wrapped = 0;
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
    wrapped++;
    return PMPI_Comm_dup(comm, newcomm);
}
int main(int argc, char **argv) {
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    printf("rc=%d wrapped=%d\n", rc, wrapped);
    return !(rc == MPI_SUCCESS && wrapped == 1);
}
"#,
    )
    .unwrap();
    let exe = work.join("wrap_dup");
    ok(Command::new(bin("mpicc"))
        .arg("-static-mpi")
        .arg(&src)
        .arg("-o")
        .arg(&exe));
    let run = common::run(&exe, false).unwrap();
    assert!(
        run.status == Some(0) && run.stdout.contains("rc=0 wrapped=1"),
        "MPI 4.1 §15.2: PMPI_Comm_dup must reach the library:\n{}",
        run.report()
    );
    let fexe = work.join("attr_fortran_static");
    ok(Command::new(bin("mpifort"))
        .arg("-static-mpi")
        .arg(common::repo_root().join("examples/cmake/attr_fortran.f90"))
        .arg("-o")
        .arg(&fexe));
    assert!(!needs_shared_library(&fexe));
    let run = common::run(&fexe, false).unwrap();
    assert!(
        run.status == Some(0) && run.stdout.contains("attr_fortran: ok"),
        "{}",
        run.report()
    );

    // The installed archive: MPI_ routines are weak (the library's own code is renamed
    // mpicache_MPI_*), the predefined callbacks such as MPI_COMM_DUP_FN and PMPI_ stay strong.
    let syms = ok(Command::new("nm")
        .arg("--defined-only")
        .arg(common::install_prefix().join("lib/libmpicache.a")));
    let kind = |name: &str| {
        syms.lines()
            .filter_map(|l| l.rsplit_once(' '))
            .filter(|(_, s)| *s == name)
            .map(|(k, _)| k.chars().last().unwrap())
            .collect::<String>()
    };
    assert_eq!(kind("MPI_Comm_dup"), "W");
    assert_eq!(kind("mpicache_MPI_Comm_dup"), "T");
    assert_eq!(kind("PMPI_Comm_dup"), "T");
    assert_eq!(kind("MPI_COMM_DUP_FN"), "T");
}

/// The shared library's soname carries the version; MPI_Get_library_version names mpicache and
/// its version, and no other vendor.
#[test]
fn soname_and_library_version() {
    let prefix = common::install_prefix();
    let dynamic = ok(Command::new("readelf")
        .arg("-d")
        .arg(prefix.join("lib/libmpicache.so")));
    let (major, minor) = (
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
    );
    assert!(
        dynamic.contains(&format!("Library soname: [libmpicache.so.{major}.{minor}]")),
        "{dynamic}"
    );
    let work = workdir("version");
    let src = work.join("version.c");
    std::fs::write(
        &src,
        r#"#include <mpi.h>
#include <stdio.h>
int main(void) {
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = 0, minor = 0;
    MPI_Get_library_version(v, &len);
    MPI_Get_version(&major, &minor);
    printf("%d %d.%d %s\n", len, major, minor, v);
    return 0;
}
"#,
    )
    .unwrap();
    let exe = work.join("version");
    ok(Command::new(bin("mpicc")).arg(&src).arg("-o").arg(&exe));
    let run = common::run(&exe, false).unwrap();
    assert!(run.status == Some(0), "{}", run.report());
    let line = run.stdout.trim_end();
    let (len, rest) = line.split_once(' ').unwrap();
    let (version, text) = rest.split_once(' ').unwrap();
    assert_eq!(len.parse::<usize>().unwrap(), text.len(), "{line}");
    assert_eq!(version, "4.1");
    assert!(
        text.starts_with(&format!("mpicache {}", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    for vendor in ["MPICH", "Open MPI", "OpenMPI", "Intel", "MVAPICH"] {
        assert!(!text.contains(vendor), "{text}");
    }
}

/// ci/conformance.sh --mpi mpicache (about 15 s): every program of tests/c and tests/fortran,
/// built with the installed wrappers and run under mpiexec -n 1, passes; the table has a row for
/// each and says n/a for two processes.
#[test]
fn conformance_mpicache() {
    let out_dir = workdir("conformance");
    let out = ok(common::same_build(&mut Command::new("bash"))
        .arg(common::repo_root().join("ci/conformance.sh"))
        .args(["--mpi", "mpicache", "--out"])
        .arg(&out_dir));
    let table = std::fs::read_to_string(out_dir.join("table.md")).unwrap();
    assert!(out.contains(&table), "the table is printed");
    let mut cases = Vec::new();
    for (dir, ext) in [("tests/c", "c"), ("tests/fortran", "F90")] {
        for e in std::fs::read_dir(common::repo_root().join(dir)).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == ext) {
                let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
                if stem.starts_with("ilp64_") {
                    // For the 8-byte INTEGER build only (tests/programs/ilp64.rs).
                    continue;
                }
                if ext == "c" {
                    cases.push(format!("c/{stem}"));
                } else {
                    cases.push(format!("fortran/{stem} (module)"));
                    cases.push(format!("fortran/{stem} (mpif.h)"));
                }
            }
        }
    }
    for case in cases {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| {case} |")))
            .unwrap_or_else(|| panic!("no row for {case}:\n{table}"));
        assert!(
            row.ends_with("| pass | n/a (single process) |"),
            "{row}\n(logs in {})",
            out_dir.join("mpicache/logs").display()
        );
    }
}

/// Without a Fortran compiler on PATH, ci/install.sh makes a C-only installation: it succeeds
/// with one warning line, installs mpicc (which builds and runs a program) and no Fortran half
/// (no mpifort, mpif.h or modules). This is what lets ci/demo.sh run its C-only branch.
#[test]
fn install_without_fortran_compiler_is_c_only() {
    let dir = workdir("c_only");
    // PATH as it is, less every gfortran: a directory of links to everything else on it.
    let farm = dir.join("path");
    std::fs::create_dir_all(&farm).unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    for d in std::env::split_paths(&path) {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let link = farm.join(&name);
            if name.to_string_lossy().contains("gfortran") || link.exists() {
                continue;
            }
            let _ = std::os::unix::fs::symlink(e.path(), link);
        }
    }
    let no_fortran = |cmd: &mut Command| {
        cmd.env("PATH", &farm).env_remove("MPICACHE_FC");
    };
    let prefix = dir.join("install");
    let mut install = Command::new("bash");
    common::same_build(&mut install)
        .arg(common::repo_root().join("ci/install.sh"))
        .arg("--prefix")
        .arg(&prefix)
        .current_dir(common::repo_root());
    no_fortran(&mut install);
    let out = install.output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("warning: no Fortran compiler"))
        .collect();
    assert_eq!(warnings.len(), 1, "one warning line:\n{}", text(&out));
    assert!(prefix.join("bin/mpicc").exists(), "{}", text(&out));
    for absent in [
        "bin/mpifort",
        "bin/mpif90",
        "include/mpif.h",
        "include/mpi.mod",
        "lib/libmpicache_f.a",
    ] {
        assert!(!prefix.join(absent).exists(), "{absent} was installed");
    }
    // The C half works: the demo builds with the installed mpicc and runs.
    let exe = dir.join("demo_c");
    let mut cc = Command::new(prefix.join("bin/mpicc"));
    cc.args(["-Wall", "-Wextra", "-std=c99"])
        .arg(common::repo_root().join("examples/c/demo.c"))
        .arg("-o")
        .arg(&exe);
    no_fortran(&mut cc);
    ok(&mut cc);
    ok(Command::new(&exe).env_remove("LD_LIBRARY_PATH"));
}
