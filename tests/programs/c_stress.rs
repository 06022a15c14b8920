//! The C programs of tests/c_stress/ (issue 6, parts 2, 3, 4 and 6), built with the installed
//! `mpicc` like a user builds them (tests/common/mod.rs), run plainly and under valgrind
//! memcheck (0 errors, 0 bytes definitely or indirectly lost); the threaded stress program runs
//! 8 threads x 2 s plainly and a smaller count under valgrind's DRD race detector.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CFLAGS: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c99", "-g"];
const THREAD_CFLAGS: &[&str] = &["-Wall", "-Wextra", "-Werror", "-std=c11", "-g", "-pthread"];

fn source(name: &str) -> PathBuf {
    common::repo_root()
        .join("tests/c_stress")
        .join(format!("{name}.c"))
}

fn passes(name: &str) {
    let exe = common::compile("mpicc", &source(name), CFLAGS);
    let plain = common::run(&exe, false).unwrap();
    assert!(
        plain.status == Some(0),
        "{name} failed:\n{}",
        plain.report()
    );
    eprintln!("{}", plain.stdout.trim_end());
    if let Some(vg) = common::run(&exe, true) {
        assert!(
            vg.status == Some(0),
            "{name} failed under valgrind (99 = valgrind found errors or leaks):\n{}",
            vg.report()
        );
    }
}

#[test]
fn reentrant_callbacks() {
    passes("reentrant_callbacks");
}

#[test]
fn fault_injection() {
    passes("fault_injection");
}

/// Runs `cmd` with a watchdog: a deadlock fails the test instead of hanging the suite.
fn run_with_watchdog(mut cmd: Command, limit: Duration) -> (Option<i32>, String, String) {
    let out = tempfile_path("out");
    let err = tempfile_path("err");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} still running after {limit:?}: deadlock?");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status,
        std::fs::read_to_string(&out).unwrap_or_default(),
        std::fs::read_to_string(&err).unwrap_or_default(),
    )
}

/// The thread stress program, built once for the tests that run it (two tests building the
/// same executable at once would race: one writing it while the other starts it).
fn threads_stress_exe() -> PathBuf {
    static EXE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    EXE.get_or_init(|| common::compile("mpicc", &source("threads_stress"), THREAD_CFLAGS))
        .clone()
}

fn tempfile_path(tag: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_stress");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("threads_stress.{tag}.{}", std::process::id()))
}

#[test]
fn threads_stress_8_threads_2_seconds() {
    let exe = threads_stress_exe();
    let mut cmd = Command::new(&exe);
    cmd.args(["8", "2", "2000000"]);
    let (status, out, err) = run_with_watchdog(cmd, Duration::from_secs(60));
    eprintln!("{}", out.trim_end());
    assert!(
        status == Some(0),
        "threads_stress failed ({status:?}):\n{out}\n{err}"
    );
}

/// The same program, smaller, under valgrind's DRD (data races, lock order) and memcheck.
#[test]
fn threads_stress_under_drd() {
    let exe = threads_stress_exe();
    if Command::new("valgrind").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("MPICACHE_REQUIRE_VALGRIND").is_none(),
            "valgrind is required"
        );
        eprintln!("note: valgrind is not installed: skipping");
        return;
    }
    // DRD cannot see Rust's std::sync::Mutex (futex-based since Rust 1.62, not a pthread
    // mutex), so it reports every access to the runtime's state made under that lock as a
    // conflict: those reports are counted and printed, not failed on (see the issue 6 note).
    // What fails the test: a crash, a deadlock (watchdog) or a failed consistency check.
    let mut cmd = Command::new("valgrind");
    cmd.args(["--tool=drd", "--quiet"]);
    cmd.arg(&exe).args(["4", "20", "300"]);
    let (status, out, err) = run_with_watchdog(cmd, Duration::from_secs(300));
    let conflicts = err.matches("Conflicting").count();
    eprintln!(
        "{}\ndrd: {conflicts} conflict reports (Rust std Mutex not visible to DRD)",
        out.trim_end()
    );
    assert!(
        status == Some(0),
        "threads_stress under drd ({status:?}):\n{out}\n{err}"
    );
    let mut cmd = Command::new("valgrind");
    cmd.args([
        "--quiet",
        "--error-exitcode=99",
        "--leak-check=full",
        "--errors-for-leak-kinds=definite,indirect",
    ]);
    cmd.arg(&exe).args(["4", "20", "300"]);
    let (status, out, err) = run_with_watchdog(cmd, Duration::from_secs(300));
    assert!(
        status == Some(0),
        "threads_stress under memcheck ({status:?}):\n{out}\n{err}"
    );
}

/// Runs tests/c_stress/out_of_memory.c (which limits its own address space, as `ulimit -v`
/// does) in `mode`; no valgrind (it reserves address space of its own).
fn out_of_memory(mode: &str) {
    let exe = common::compile("mpicc", &source("out_of_memory"), CFLAGS);
    let mut cmd = Command::new(&exe);
    cmd.arg(mode);
    let (status, out, err) = run_with_watchdog(cmd, Duration::from_secs(300));
    assert_eq!(status, Some(0), "out_of_memory {mode}:\n{out}\n{err}");
    eprintln!("{}", out.trim_end());
}

/// Issue 15 item 6: info objects until `MPI_ERR_NO_MEM` under an address-space limit.
#[test]
fn out_of_memory_is_an_error_for_the_world() {
    out_of_memory("info");
}

/// Issue 15 item 6 with attributes: communicators with one attribute each until
/// `MPI_ERR_NO_MEM` (the store's arena, records and tables are fallible too).
#[test]
fn out_of_memory_is_an_error_for_attributes() {
    out_of_memory("attrs");
}
