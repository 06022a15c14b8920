//! The benchmark suite of bench/ cannot rot: the C and the Fortran benchmark and the memory
//! benchmark (bench/attr_mem.c, every case in its own process) are built with the INSTALLED
//! mpicc / mpifort (and the floor library, bench/floor.c), run once with tiny counts, and must
//! print every case line with a positive number (the few figures that a library may rightly
//! make zero or negative, such as the memory it keeps after freeing everything, with a finite
//! one). No speed and no memory figure is asserted here (speed is not a test: `ci/bench.sh`
//! measures it).

use crate::common;

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

/// Case lines of the memory benchmark: (name, unit, positive). Not positive: a figure that may
/// be zero or negative for a library that gives memory back or maps nothing.
type MemLines = &'static [(&'static str, &'static str, bool)];

/// The memory benchmark's lines, by `--case`.
const MEM_CASES: &[(&str, MemLines)] = &[
    (
        "lifecycle",
        &[
            ("many_maps_baseline", "count", true),
            ("many_types_asked", "count", true),
            ("many_types_made", "count", true),
            ("many_types_rss_per_obj", "bytes", true),
            ("many_types_vsz_per_obj", "bytes", false),
            ("many_types_vsz_per_rss", "ratio", false),
            ("many_types_maps_added", "count", false),
            ("many_comms_asked", "count", true),
            ("many_comms_made", "count", true),
            ("many_comms_rss_per_obj", "bytes", true),
            ("many_comms_vsz_per_obj", "bytes", false),
            ("many_comms_vsz_per_rss", "ratio", false),
            ("many_comms_maps_added", "count", false),
            ("life_rss_baseline", "MiB", true),
            ("life_kept_after_free", "MiB", false),
            ("life_kept_after_finalize", "MiB", false),
            ("life_freed_vs_limit", "ratio", true),
            ("life_finalized_vs_limit", "ratio", true),
        ],
    ),
    (
        "far",
        &[
            ("far_comms_asked", "count", true),
            ("far_comms_made", "count", true),
            ("far_rss_per_attr", "bytes", true),
        ],
    ),
    (
        "first",
        &[
            ("first_set_comm", "ns/op", true),
            ("first_set_type", "ns/op", true),
        ],
    ),
    ("cycle", &[("comm_dup_set_free", "ns/op", true)]),
    (
        "maps",
        &[
            ("maps_types_asked", "count", true),
            ("maps_types_made", "count", true),
            ("maps_per_type", "count", false),
        ],
    ),
];

/// Tiny counts for the memory benchmark, still large enough that the objects of each memory
/// case need new pages whatever the library (at least some 100 KiB).
const MEM_TINY: &[&str] = &[
    "-r",
    "3",
    "-n",
    "10",
    "-t",
    "1",
    "--types",
    "2000",
    "--comms",
    "200",
    "--far-comms",
    "500",
    "--far-gap",
    "10",
    "--first",
    "20",
    "--maps-types",
    "200",
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
fn run_and_check(exe: &Path, args: &[&str], cases: &[(&'static str, &'static str, bool)]) {
    let cases: Vec<Case> = cases
        .iter()
        .map(|&(name, unit, is_get)| Case {
            name,
            unit,
            is_get,
            positive: true,
        })
        .collect();
    run_and_parse(exe, args, &cases);
}

struct Case {
    name: &'static str,
    unit: &'static str,
    /// Reported with a ratio to the floor.
    is_get: bool,
    /// Median, min and max must be positive; otherwise finite.
    positive: bool,
}

/// Runs `exe` with `args`, checks that its output holds exactly the `cases`, each once, with
/// min <= median <= max, each positive (or finite, where the case says so), and for get cases
/// a positive ratio to the floor; returns (case, median) in the order printed.
fn run_and_parse(exe: &Path, args: &[&str], cases: &[Case]) -> Vec<(String, f64)> {
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
        let want = cases
            .iter()
            .find(|c| c.name == case)
            .unwrap_or_else(|| panic!("unexpected case {case:?}:\n{}", run.report()));
        assert_eq!(impl_, "mpicache", "impl of {line:?}");
        assert_eq!(unit, want.unit, "unit of {line:?}");
        let v: Vec<f64> = f[2..5]
            .iter()
            .map(|v| {
                v.parse()
                    .unwrap_or_else(|_| panic!("not a number in {line:?}"))
            })
            .collect();
        for &x in &v {
            assert!(x.is_finite(), "not finite in {line:?}");
            assert!(!want.positive || x > 0.0, "not positive in {line:?}");
        }
        assert!(
            v[1] <= v[0] && v[0] <= v[2],
            "not min <= median <= max in {line:?}"
        );
        if want.is_get {
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
        assert!(
            !seen.iter().any(|(c, _)| c == case),
            "case {case} printed twice"
        );
        seen.push((case.to_owned(), v[0]));
    }
    for c in cases {
        assert!(
            seen.iter().any(|(s, _)| s == c.name),
            "case {} missing:\n{}",
            c.name,
            run.report()
        );
    }
    seen
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

#[test]
fn mem_benchmark_runs_once() {
    let exe = common::compile(
        "mpicc",
        &common::repo_root().join("bench/attr_mem.c"),
        &["-O2", "-Wall", "-Wextra", "-Werror"],
    );
    for &(name, cases) in MEM_CASES {
        let cases: Vec<Case> = cases
            .iter()
            .map(|&(name, unit, positive)| Case {
                name,
                unit,
                is_get: false,
                positive,
            })
            .collect();
        let mut args = vec!["--case", name];
        args.extend(MEM_TINY);
        let seen = run_and_parse(&exe, &args, &cases);
        // At these counts every kind of object is made in full: what a failure to make them
        // would print (the X_made count below X_asked) is for ci/bench.sh's full counts.
        for (case, made) in &seen {
            if let Some(kind) = case.strip_suffix("_made") {
                let asked = seen
                    .iter()
                    .find(|(c, _)| *c == format!("{kind}_asked"))
                    .map(|&(_, x)| x);
                assert_eq!(asked, Some(*made), "{case}: made {made} of {asked:?}");
            }
        }
    }
}
