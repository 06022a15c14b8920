//! Every constant the published MPI 5.0 ABI fixes has the ABI's value in mpicache's `mpi.h`.
//!
//! The reference is MPICH 5's `mpi_abi.h` (MPI 5.0 chapter "Application Binary Interface";
//! `pip install mpich` ships it). `ci/test.sh` installs it into a virtual environment under
//! `target/mpich5` and names that directory in `MPICACHE_MPICH5` (default `target/mpich5`).
//!
//! The test reads the list of constants from the header itself (its `#define`s and `enum`
//! members), builds one C program against `mpi_abi.h` (plain `cc -I`: it only prints) and one
//! against the installed `mpi.h` (installed `mpicc`; a name our header lacks is skipped with
//! `#ifdef`), each printing every constant cast to `intptr_t`, and compares. A different value
//! fails; a constant our header lacks is listed in the output. Also compared: the `MPI_Status`
//! layout and the sizes of `MPI_Aint`, `MPI_Offset` and `MPI_Count`.
//!
//! Skipped, and said so in the output: `MPI_VERSION` / `MPI_SUBVERSION` (the standard version an
//! implementation reports, not an ABI value) and the predefined callbacks (`MPI_COMM_DUP_FN`
//! ...), which are the values 0 and 1 in the ABI and functions here. Every other pointer-valued
//! constant (`MPI_BOTTOM`, `MPI_STATUS_IGNORE`, ...) is a value in both and compared.
//!
//! The second test runs the handle serialization functions (`MPI_Comm_toint` ...) from C.

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Names in the ABI header that are not values the ABI fixes for every implementation.
const NOT_ABI_VALUES: &[(&str, &str)] = &[
    (
        "MPI_VERSION",
        "the version of the standard the library implements (mpicache reports 4.1), not an ABI value",
    ),
    ("MPI_SUBVERSION", "as MPI_VERSION"),
];

/// The virtual environment holding MPICH 5 (`pip install mpich`).
fn mpich5() -> PathBuf {
    std::env::var_os("MPICACHE_MPICH5")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::repo_root().join("target/mpich5"))
}

/// The names of every constant `mpi_abi.h` defines, in order: object-like `#define`s (but the
/// include guard and the configuration macros the header `#undef`s again) and the members of
/// its `enum`s.
fn abi_constant_names(header: &str) -> Vec<String> {
    // Comments out, so that an enum member's trailing comment cannot look like a name.
    let mut text = String::new();
    let mut rest = header;
    while let Some(i) = rest.find("/*") {
        text.push_str(&rest[..i]);
        let end = rest[i..].find("*/").expect("unterminated comment") + i + 2;
        text.push(' ');
        rest = &rest[end..];
    }
    text.push_str(rest);
    let is_name =
        |w: &str| w.starts_with("MPI") && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let guard = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("#ifndef "))
        .map(str::trim)
        .unwrap_or_default()
        .to_owned();
    let undefined: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("#undef "))
        .map(str::trim)
        .collect();
    let mut names: Vec<String> = Vec::new();
    let mut push = |n: &str| {
        if !names.iter().any(|m| m == n) {
            names.push(n.to_owned());
        }
    };
    let mut in_enum = false;
    for line in text.lines() {
        let l = line.trim();
        if let Some(def) = l.strip_prefix("#define ") {
            let name: String = def
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // A function-like macro has `(` right after its name.
            let function_like = def[name.len()..].starts_with('(');
            if is_name(&name) && !function_like && name != guard && !undefined.contains(&&*name) {
                push(&name);
            }
            continue;
        }
        if !in_enum {
            // `enum {`, `typedef enum NAME {`
            let words: Vec<&str> = l.split_whitespace().collect();
            in_enum = words.contains(&"enum") && l.ends_with('{');
            continue;
        }
        if l.starts_with('}') {
            in_enum = false;
            continue;
        }
        for member in l.split(',') {
            let name = member.split('=').next().unwrap().trim();
            if is_name(name) {
                push(name);
            }
        }
    }
    names
}

/// The C program that prints `NAME value` for each name (`NAME absent` when `guard` and the name
/// is not a macro), then the layout lines.
fn printer(include: &str, names: &[String], guard: bool) -> String {
    let mut s = format!(
        "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <{include}>\n\n\
         int main(void)\n{{\n"
    );
    for n in names {
        let print = format!("    printf(\"{n} %lld\\n\", (long long)(intptr_t)({n}));\n");
        if guard {
            let _ = write!(
                s,
                "#ifdef {n}\n{print}#else\n    printf(\"{n} absent\\n\");\n#endif\n"
            );
        } else {
            s.push_str(&print);
        }
    }
    for (label, expr) in LAYOUT {
        let _ = writeln!(s, "    printf(\"{label} %lld\\n\", (long long)({expr}));");
    }
    s.push_str("    return 0;\n}\n");
    s
}

/// The layout facts both headers must share: `(label, C expression)`.
const LAYOUT: &[(&str, &str)] = &[
    ("sizeof(MPI_Status)", "sizeof(MPI_Status)"),
    (
        "offsetof(MPI_Status,MPI_SOURCE)",
        "offsetof(MPI_Status, MPI_SOURCE)",
    ),
    (
        "offsetof(MPI_Status,MPI_TAG)",
        "offsetof(MPI_Status, MPI_TAG)",
    ),
    (
        "offsetof(MPI_Status,MPI_ERROR)",
        "offsetof(MPI_Status, MPI_ERROR)",
    ),
    (
        "offsetof(MPI_Status,MPI_internal)",
        "offsetof(MPI_Status, MPI_internal)",
    ),
    ("sizeof(MPI_Aint)", "sizeof(MPI_Aint)"),
    ("sizeof(MPI_Offset)", "sizeof(MPI_Offset)"),
    ("sizeof(MPI_Count)", "sizeof(MPI_Count)"),
];

fn run_printer(exe: &Path) -> BTreeMap<String, String> {
    let out = Command::new(exe)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    assert!(out.status.success(), "{} failed: {out:?}", exe.display());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (n, v) = l.rsplit_once(' ').unwrap();
            (n.to_owned(), v.to_owned())
        })
        .collect()
}

fn scratch() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abi_constants");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// MPI 5.0 ABI: every constant it fixes has its value here.
#[test]
fn constants_have_the_mpi_5_abi_values() {
    let venv = mpich5();
    let abi_header = venv.join("include/mpi_abi.h");
    let header = std::fs::read_to_string(&abi_header).unwrap_or_else(|e| {
        panic!(
            "MPICH 5's mpi_abi.h is needed at {} ({e}).\n`bash ci/test.sh` installs it there \
             (python3 -m venv target/mpich5 && target/mpich5/bin/pip install mpich==5.0.2, which \
             needs PyPI); or point MPICACHE_MPICH5 at a virtual environment with mpich 5 installed.",
            abi_header.display()
        )
    });
    let names = abi_constant_names(&header);
    assert!(
        names.len() > 300 && names.iter().any(|n| n == "MPI_KEYVAL_INVALID"),
        "the parser found only {} names in {}",
        names.len(),
        abi_header.display()
    );

    // The reference: plain cc against mpi_abi.h (no MPI call, nothing to link).
    let dir = scratch();
    let abi_src = dir.join("print_abi.c");
    std::fs::write(&abi_src, printer("mpi_abi.h", &names, false)).unwrap();
    let abi_exe = dir.join("print_abi");
    let out = Command::new("cc")
        .arg("-I")
        .arg(venv.join("include"))
        .arg(&abi_src)
        .arg("-o")
        .arg(&abi_exe)
        .output()
        .expect("cannot run cc");
    assert!(
        out.status.success(),
        "compiling against mpi_abi.h failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let abi = run_printer(&abi_exe);

    // Ours: the installed mpicc and mpi.h.
    let ours_src = dir.join("print_mpicache.c");
    std::fs::write(&ours_src, printer("mpi.h", &names, true)).unwrap();
    let ours = run_printer(&common::compile("mpicc", &ours_src, &["-Wall", "-Werror"]));
    let our_header =
        std::fs::read_to_string(common::install_prefix().join("include/mpi.h")).unwrap();

    let mut agree = Vec::new();
    let mut differ = Vec::new();
    let mut skipped = Vec::new();
    let mut absent = Vec::new();
    for n in &names {
        let (a, o) = (&abi[n], &ours[n]);
        if let Some((_, why)) = NOT_ABI_VALUES.iter().find(|(m, _)| m == n) {
            skipped.push(format!("{n} (ABI {a}, ours {o}): {why}"));
        } else if o != "absent" {
            if a == o {
                agree.push(n.clone());
            } else {
                differ.push(format!("{n}: ABI {a}, mpicache {o}"));
            }
        } else if our_header.contains(&format!(" {n}(")) {
            // The ABI's predefined callbacks are the values 0 and 1; ours are functions (their
            // addresses are the values), which the standard allows outside the ABI.
            skipped.push(format!(
                "{n} (ABI {a}): a function in mpicache's mpi.h, not a value"
            ));
        } else {
            absent.push(n.clone());
        }
    }
    for (label, _) in LAYOUT {
        let (a, o) = (&abi[*label], &ours[*label]);
        if a == o {
            agree.push((*label).to_owned());
        } else {
            differ.push(format!("{label}: ABI {a}, mpicache {o}"));
        }
    }
    // MPI 5.0 ABI: the Fortran status is MPI_F_STATUS_SIZE INTEGERs; the Fortran headers'
    // MPI_STATUS_SIZE is this constant (tests/programs/fortran_programs.rs checks they agree).
    let f_size = mpicache::consts::MPI_STATUS_SIZE.to_string();
    if abi["MPI_F_STATUS_SIZE"] != f_size {
        differ.push(format!(
            "Fortran MPI_STATUS_SIZE: ABI MPI_F_STATUS_SIZE {}, mpicache {f_size}",
            abi["MPI_F_STATUS_SIZE"]
        ));
    }

    println!(
        "MPI 5.0 ABI ({}): {} names; {} agree, {} differ, {} skipped, {} absent from mpicache's mpi.h",
        abi_header.display(),
        names.len(),
        agree.len(),
        differ.len(),
        skipped.len(),
        absent.len()
    );
    println!("skipped:");
    for s in &skipped {
        println!("  {s}");
    }
    println!("absent from mpicache's mpi.h (not compared):");
    for line in absent.chunks(6) {
        println!("  {}", line.join(" "));
    }
    assert!(
        differ.is_empty(),
        "constants that differ from the MPI 5.0 ABI:\n  {}",
        differ.join("\n  ")
    );
}

/// MPI 5.0 §21.4: `MPI_<Kind>_toint` / `MPI_<Kind>_fromint` for every handle kind mpicache has,
/// from C (tests/c_abi/handle_int.c), run plainly and under valgrind. The same program is built
/// against MPICH 5's `mpi_abi.h` with its `mpicc_abi` and run too, so the expectations are
/// checked against the ABI's own implementation.
#[test]
fn handle_int_conversions() {
    let source = common::repo_root().join("tests/c_abi/handle_int.c");
    let flags = ["-Wall", "-Wextra", "-Werror", "-std=c99", "-g"];
    let exe = common::compile("mpicc", &source, &flags);
    let plain = common::run(&exe, false).unwrap();
    assert_eq!(
        plain.status,
        Some(0),
        "handle_int failed:\n{}",
        plain.report()
    );
    if let Some(vg) = common::run(&exe, true) {
        assert_eq!(
            vg.status,
            Some(0),
            "handle_int failed under valgrind (99 = errors or leaks):\n{}",
            vg.report()
        );
    }

    let mpicc_abi = mpich5().join("bin/mpicc_abi");
    assert!(
        mpicc_abi.exists(),
        "{} is missing: see constants_have_the_mpi_5_abi_values",
        mpicc_abi.display()
    );
    let mpich_exe = scratch().join("handle_int_mpich_abi");
    let out = Command::new(&mpicc_abi)
        .args(flags)
        .arg(&source)
        .arg("-o")
        .arg(&mpich_exe)
        .output()
        .expect("cannot run mpicc_abi");
    assert!(
        out.status.success(),
        "building handle_int.c with MPICH 5's mpicc_abi failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mpich = common::run(&mpich_exe, false).unwrap();
    assert_eq!(
        mpich.status,
        Some(0),
        "handle_int built against MPICH 5's ABI failed:\n{}",
        mpich.report()
    );
}
