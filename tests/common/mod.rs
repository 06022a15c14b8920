//! Helpers shared by the integration tests that build real C (and Fortran) programs the way a
//! user does: install mpicache with `ci/install.sh`, compile with the installed wrapper, run.
//!
//! The API is three functions and one struct:
//! - [`install_prefix`]: runs `ci/install.sh --prefix <dir>` once per test binary and returns the
//!   prefix (`<prefix>/bin/mpicc`, `<prefix>/include/mpi.h`, `<prefix>/lib/libmpicache.*`);
//! - [`compile`]: compiles one source file with an installed wrapper (`"mpicc"`, later
//!   `"mpifort"`) and returns the path of the executable, panicking with the compiler's output
//!   if it fails;
//! - [`run`]: runs an executable, plainly or under valgrind, with a time limit, and returns its
//!   [`Run`] (exit status, stdout, stderr); `None` when valgrind was asked for and is missing
//!   (a note is printed; with `MPICACHE_REQUIRE_VALGRIND=1`, as `ci/test.sh` sets, that panics).
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The repository root.
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A directory private to this test binary, under `target/tmp`.
fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(env!("CARGO_CRATE_NAME"))
}

/// Installs mpicache (release profile) with `ci/install.sh` into a prefix under `target/tmp`,
/// once per test binary, and returns the prefix. Panics with the script's output if it fails.
pub fn install_prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let prefix = scratch().join("install");
        let out = same_build(Command::new("bash").arg(repo_root().join("ci/install.sh")))
            .arg("--prefix")
            .arg(&prefix)
            .current_dir(repo_root())
            .output()
            .expect("cannot run bash ci/install.sh");
        assert!(
            out.status.success(),
            "ci/install.sh --prefix {} failed ({}):\n{}{}",
            prefix.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        prefix
    })
}

/// A command that runs ci/install.sh (directly or through another script) made to build the
/// library with the features the tests' own build has, so cargo reuses that build instead of
/// compiling the crate once more. (The test hooks are Rust functions only: the installed C and
/// Fortran library is the same.)
pub fn same_build(cmd: &mut Command) -> &mut Command {
    cmd.env("MPICACHE_INSTALL_FEATURES", "test-hooks")
}

/// Compiles `source` with the installed `wrapper` (`"mpicc"`, `"mpifort"`, ...) and `flags`,
/// into an executable named after the source in this test binary's scratch directory.
/// Panics with the full command and compiler output on failure.
pub fn compile(wrapper: &str, source: &Path, flags: &[&str]) -> PathBuf {
    let prefix = install_prefix();
    // Named after the source's directory, stem and extension: the test binaries that hold many
    // test files (tests/programs) build tests/c/info.c and tests/fortran/info.F90 side by side.
    let dir = source
        .parent()
        .and_then(Path::file_name)
        .map_or_else(|| "top".into(), |d| d.to_string_lossy().into_owned());
    let outdir = scratch().join("bin").join(dir);
    std::fs::create_dir_all(&outdir).unwrap();
    let stem = source.file_stem().expect("source has a file name");
    let exe = match source.extension() {
        Some(ext) => outdir.join(format!(
            "{}_{}",
            stem.to_string_lossy(),
            ext.to_string_lossy()
        )),
        None => outdir.join(stem),
    };
    // Run in a directory of the program's own: gfortran writes the modules a source defines
    // into, and reads modules first from, the current directory, so a shared one (the
    // repository, as before) let a module built against one MPI's mpi_f08 (mpicache's) be
    // picked up by a program of the same module name built against another (an engine's, in
    // tests/layer_programs.rs), which then failed to link.
    let cwd = exe.with_extension("d");
    std::fs::create_dir_all(&cwd).unwrap();
    let mut cmd = Command::new(prefix.join("bin").join(wrapper));
    cmd.args(flags)
        .arg(source)
        .arg("-o")
        .arg(&exe)
        .current_dir(&cwd);
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "compiling {} failed ({}):\n{cmd:?}\n{}{}",
        source.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// What a program did.
#[derive(Debug)]
pub struct Run {
    /// The exit code; `None` if it was killed by a signal (or by the time limit).
    pub status: Option<i32>,
    /// The signal that killed it, if one did.
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The command line, for messages.
    pub command: String,
}

impl Run {
    /// Everything a failure message needs.
    pub fn report(&self) -> String {
        format!(
            "$ {}\nexit status: {}\n--- stdout ---\n{}--- stderr ---\n{}",
            self.command,
            match (self.status, self.signal) {
                (Some(s), _) => s.to_string(),
                (None, Some(sig)) => format!("killed by signal {sig}"),
                (None, None) => "unknown".to_owned(),
            },
            self.stdout,
            self.stderr
        )
    }
}

/// The longest a test program may run (valgrind included) before it is killed.
const TIME_LIMIT: Duration = Duration::from_secs(180);

fn have_valgrind() -> bool {
    static HAVE: OnceLock<bool> = OnceLock::new();
    *HAVE.get_or_init(|| {
        Command::new("valgrind")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// Runs `exe` (under `valgrind --error-exitcode=99 --leak-check=full
/// --errors-for-leak-kinds=definite,indirect` when `valgrind` is true) and returns what it did.
/// Returns `None` only when valgrind is wanted but not installed.
pub fn run(exe: &Path, valgrind: bool) -> Option<Run> {
    let mut cmd = if valgrind {
        if !have_valgrind() {
            assert!(
                std::env::var_os("MPICACHE_REQUIRE_VALGRIND").is_none(),
                "valgrind is required (MPICACHE_REQUIRE_VALGRIND is set) but not installed"
            );
            eprintln!(
                "note: valgrind is not installed: skipping the valgrind run of {}",
                exe.display()
            );
            return None;
        }
        let mut c = Command::new("valgrind");
        c.args([
            "--quiet",
            "--error-exitcode=99",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
        ])
        .arg(exe);
        c
    } else {
        Command::new(exe)
    };
    // Programs find their library through the rpath the wrapper gave them; cargo's own
    // LD_LIBRARY_PATH (target/release/...) must not slip another build in ahead of it.
    cmd.env_remove("LD_LIBRARY_PATH");
    let command = format!("{cmd:?}");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {command}: {e}"));
    // Read both pipes on threads so a chatty program cannot block on a full pipe.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out_pipe.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err_pipe.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for a test program") {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            break child.wait().expect("waiting for a killed test program");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned();
    let mut stderr = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    if start.elapsed() > TIME_LIMIT {
        stderr.push_str(&format!("\n[killed after {}s]\n", TIME_LIMIT.as_secs()));
    }
    Some(Run {
        status: status.code(),
        signal: std::os::unix::process::ExitStatusExt::signal(&status),
        stdout,
        stderr,
        command,
    })
}
