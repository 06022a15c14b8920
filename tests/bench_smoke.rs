//! The benchmark suite of bench/ cannot rot: the C and the Fortran benchmark are built with the
//! INSTALLED mpicc / mpifort (and the floor library, bench/floor.c), run once with tiny counts,
//! and must print every case line with a positive number. No speed is asserted here (speed is
//! not a test: `ci/bench.sh` measures it).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The two benchmarks compile to the same executable name (the sources' stem): one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

const TINY: &[&str] = &["-r", "1", "-n", "10", "-t", "1", "--warm", "0"];

/// The C benchmark's cases: (name, unit, reported as a ratio to the floor).
const C_CASES: &[(&str, &str, bool)] = &[
    ("mem_bytes_per_attr", "bytes", false),
    ("floor", "ns/op", false),
    ("comm_get_1_first", "ns/op", true),
    ("comm_get_1_last", "ns/op", true),
    ("comm_get_1_miss", "ns/op", true),
    ("comm_get_16_first", "ns/op", true),
    ("comm_get_16_last", "ns/op", true),
    ("comm_get_16_miss", "ns/op", true),
    ("comm_get_256_first", "ns/op", true),
    ("comm_get_256_last", "ns/op", true),
    ("comm_get_256_miss", "ns/op", true),
    ("comm_get_4096_first", "ns/op", true),
    ("comm_get_4096_last", "ns/op", true),
    ("comm_get_4096_miss", "ns/op", true),
    ("comm_set_overwrite", "ns/op", false),
    ("keyval_create_free", "ns/op", false),
    ("comm_dup_free_0", "ns/op", false),
    ("comm_dup_free_16", "ns/op", false),
    ("comm_dup_free_256", "ns/op", false),
    ("type_get_1", "ns/op", true),
    ("win_get_1", "ns/op", true),
    ("mt_floor_1thread", "ns/op", false),
    ("mt_floor_2threads", "ns/op", false),
    ("mt_floor_2v1", "ratio", false),
    ("mt_get_1thread", "ns/op", true),
    ("mt_get_2threads", "ns/op", true),
    ("mt_throughput_2v1", "ratio", false),
];

const F_CASES: &[(&str, &str, bool)] = &[
    ("f_floor", "ns/op", false),
    ("f_comm_get_16_first", "ns/op", true),
    ("f_comm_get_16_last", "ns/op", true),
    ("f_attr_get_16_first", "ns/op", true),
    ("f_attr_get_16_last", "ns/op", true),
];

fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench_smoke")
}

/// bench/floor.c built into scratch()/floor/libfloor.so, once; returns its directory.
fn floor_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch().join("floor");
        std::fs::create_dir_all(&dir).unwrap();
        let cc = std::env::var("MPICACHE_CC").unwrap_or_else(|_| "cc".to_owned());
        let out = Command::new(&cc)
            .args(["-O2", "-fPIC", "-shared"])
            .arg(common::repo_root().join("bench/floor.c"))
            .arg("-o")
            .arg(dir.join("libfloor.so"))
            .output()
            .unwrap_or_else(|e| panic!("cannot run {cc}: {e}"));
        assert!(
            out.status.success(),
            "building libfloor.so failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

fn floor_flags() -> Vec<String> {
    let dir = floor_dir().display().to_string();
    vec![
        "-Wl,--no-as-needed".to_owned(),
        format!("-L{dir}"),
        "-lfloor".to_owned(),
        format!("-Wl,-rpath,{dir}"),
    ]
}

/// Runs `exe` with `args` and checks its output holds exactly the `cases`, each once, each
/// with a positive median, min and max and, for get cases, a positive ratio to the floor.
fn run_and_check(exe: &Path, args: &[&str], cases: &[(&str, &str, bool)]) {
    // common::run takes no arguments: a one-line script passes them.
    let script = exe.with_extension("sh");
    let quoted: Vec<String> = std::iter::once(exe.display().to_string())
        .chain(args.iter().map(|a| a.to_string()))
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect();
    std::fs::write(&script, format!("#!/bin/sh\nexec {}\n", quoted.join(" "))).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let run = common::run(&script, false).expect("a plain run always happens");
    assert_eq!(
        run.status,
        Some(0),
        "the benchmark failed:\n{}",
        run.report()
    );

    let mut seen = Vec::new();
    for line in run.stdout.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 7, "malformed line {line:?}:\n{}", run.report());
        let (case, impl_, unit, ratio) = (f[0], f[1], f[5], f[6]);
        let &(_, want_unit, is_get) = cases
            .iter()
            .find(|c| c.0 == case)
            .unwrap_or_else(|| panic!("unexpected case {case:?}:\n{}", run.report()));
        assert_eq!(impl_, "mpicache", "impl of {line:?}");
        assert_eq!(unit, want_unit, "unit of {line:?}");
        for v in &f[2..5] {
            let x: f64 = v
                .parse()
                .unwrap_or_else(|_| panic!("not a number in {line:?}"));
            assert!(x.is_finite() && x > 0.0, "not positive in {line:?}");
        }
        if is_get {
            let r: f64 = ratio
                .parse()
                .unwrap_or_else(|_| panic!("no ratio to the floor in {line:?}"));
            assert!(
                r.is_finite() && r > 0.0,
                "bad ratio to the floor in {line:?}"
            );
        } else {
            assert!(ratio.is_empty(), "a ratio to the floor on {line:?}");
        }
        assert!(!seen.contains(&case), "case {case} printed twice");
        seen.push(case);
    }
    for (case, _, _) in cases {
        assert!(
            seen.contains(case),
            "case {case} missing:\n{}",
            run.report()
        );
    }
}

#[test]
fn c_benchmark_runs_once() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut flags = vec!["-O2".to_owned(), "-pthread".to_owned()];
    flags.extend(floor_flags());
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let exe = common::compile(
        "mpicc",
        &common::repo_root().join("bench/attr_bench.c"),
        &flags,
    );
    // 100 communicators x 1000 attributes: enough for VmRSS (counted in pages) to move.
    let mut args = TINY.to_vec();
    args.extend(["--mem-comms", "100", "--mem-attrs", "1000"]);
    run_and_check(&exe, &args, C_CASES);
}

#[test]
fn fortran_benchmark_runs_once() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // The benchmark's own modules go to a scratch directory, not the working directory.
    let moddir = scratch().join("mod");
    std::fs::create_dir_all(&moddir).unwrap();
    let mut flags = vec![
        "-O2".to_owned(),
        "-J".to_owned(),
        moddir.display().to_string(),
    ];
    flags.extend(floor_flags());
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let exe = common::compile(
        "mpifort",
        &common::repo_root().join("bench/attr_bench.f90"),
        &flags,
    );
    run_and_check(&exe, TINY, F_CASES);
}
