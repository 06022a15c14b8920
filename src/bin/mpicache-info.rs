//! `mpicache-info`: how this mpicache was built and installed, one `field: value` a line (like
//! MPICH's `mpichversion`), without `MPI_Init`.
//!
//! ```text
//! mpicache-info                 # every field (same as --all)
//! mpicache-info --version       # one field: its value alone
//! mpicache-info --help          # the fields
//! ```
//!
//! Fields fixed when the library is compiled come from the crate itself; what only the
//! installation knows (the compilers, the paths, the build profile) comes from
//! `PREFIX/share/mpicache/install.conf` (written by `ci/install.sh`), `fortran.conf` and
//! `fortran_integer.conf` (written by `ci/install_fortran.sh`: the INTEGER size the modules and
//! mpifort were built for, 8 with `ci/install_ilp64.sh`), found next to the installed program
//! (`PREFIX/bin/..`).

use mpicache::consts::{MPI_ADDRESS_KIND, MPI_SUBVERSION, MPI_VERSION};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `key=value` lines of a config file (`#` comments); empty when the file is missing.
fn read_conf(path: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Ok(text) = std::fs::read_to_string(path) {
        for line in text.lines() {
            if line.starts_with('#') {
                continue;
            }
            if let Some((k, v)) = line.split_once('=') {
                out.insert(k.trim().to_owned(), v.trim().to_owned());
            }
        }
    }
    out
}

/// `PREFIX/share/mpicache`, from where this program is installed (`PREFIX/bin/mpicache-info`).
fn conf_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?.canonicalize().ok()?;
    Some(exe.parent()?.parent()?.join("share/mpicache"))
}

/// The Fortran INTEGER (and LOGICAL) size: what the installation's `fortran_integer.conf`
/// says, checked against the size the library was compiled for (cargo feature
/// `fortran-integer-8`); the library's own size when the Fortran half is not installed.
fn fortran_integer_size(conf: &BTreeMap<String, String>) -> String {
    let built = mpicache::fortran::FORTRAN_INTEGER_SIZE;
    match conf.get("fortran_integer_size") {
        Some(v) if v.parse::<usize>().ok() == Some(built) => v.clone(),
        Some(v) => format!(
            "{v} (the modules), but the library was built for {built}: reinstall with \
             ci/install{}.sh",
            if v == "8" { "_ilp64" } else { "" }
        ),
        None => built.to_string(),
    }
}

/// The fields, in print order: (flag name, label, value).
fn fields() -> Vec<(&'static str, &'static str, String)> {
    let dir = conf_dir();
    let install = dir
        .as_deref()
        .map(|d| read_conf(&d.join("install.conf")))
        .unwrap_or_default();
    let fortran = dir
        .as_deref()
        .map(|d| read_conf(&d.join("fortran.conf")))
        .unwrap_or_default();
    let int_conf = dir
        .as_deref()
        .map(|d| read_conf(&d.join("fortran_integer.conf")))
        .unwrap_or_default();
    let int_size = fortran_integer_size(&int_conf);
    let not_installed = "unknown (not run from an installation made by ci/install.sh)";
    let get = |m: &BTreeMap<String, String>, k: &str, missing: &str| {
        m.get(k).cloned().unwrap_or_else(|| missing.to_owned())
    };
    let no_fortran = "none (the Fortran half is not installed)";
    let major = env!("CARGO_PKG_VERSION_MAJOR");
    let minor = env!("CARGO_PKG_VERSION_MINOR");
    vec![
        ("version", "Version", env!("CARGO_PKG_VERSION").to_owned()),
        (
            "library-version",
            "Library version",
            mpicache::capi::init::library_version(),
        ),
        (
            "mpi-version",
            "MPI version",
            format!("{MPI_VERSION}.{MPI_SUBVERSION}"),
        ),
        (
            "profile",
            "Build profile",
            get(&install, "profile", not_installed),
        ),
        ("prefix", "Prefix", get(&install, "prefix", not_installed)),
        (
            "c-compiler",
            "C compiler",
            get(&install, "c_compiler", not_installed),
        ),
        (
            "c-compiler-version",
            "C compiler version",
            get(&install, "c_compiler_version", not_installed),
        ),
        (
            "fortran-compiler",
            "Fortran compiler",
            get(&fortran, "fortran_compiler", no_fortran),
        ),
        (
            "fortran-compiler-version",
            "Fortran compiler version",
            get(&fortran, "fortran_compiler_version", no_fortran),
        ),
        (
            "mpi-address-kind",
            "MPI_ADDRESS_KIND",
            MPI_ADDRESS_KIND.to_string(),
        ),
        (
            "fortran-integer-size",
            "Fortran INTEGER size (bytes)",
            int_size.clone(),
        ),
        (
            "fortran-logical-size",
            "Fortran LOGICAL size (bytes)",
            int_size,
        ),
        (
            "fortran-logical-true",
            "Fortran LOGICAL .TRUE. value",
            mpicache::fortran::FORTRAN_TRUE.to_string(),
        ),
        (
            "fortran-spellings",
            "Fortran spellings exported",
            "mpi_xxx_ mpi_xxx__ mpi_xxx MPI_XXX (and pmpi_xxx_ pmpi_xxx__ pmpi_xxx PMPI_XXX)"
                .to_owned(),
        ),
        (
            "thread-level",
            "Highest thread level",
            "MPI_THREAD_MULTIPLE".to_owned(),
        ),
        (
            "processes",
            "Processes",
            "1 (single-process MPI: MPI_COMM_WORLD has size 1)".to_owned(),
        ),
        (
            "soname",
            "Shared library soname",
            format!("libmpicache.so.{major}.{minor}"),
        ),
        (
            "include-dir",
            "C headers (mpi.h)",
            get(&install, "include_dir", not_installed),
        ),
        (
            "module-dir",
            "Fortran mpif.h and mpi.mod",
            get(&fortran, "module_dir", no_fortran),
        ),
        (
            "lib-dir",
            "Libraries",
            get(&install, "lib_dir", not_installed),
        ),
    ]
}

fn usage(fields: &[(&str, &str, String)]) -> String {
    let mut s = String::from(
        "usage: mpicache-info [--all | --FIELD...]\n\
         Prints how mpicache was built and installed, one `label: value` a line.\n\
         With --FIELD flags, prints only those values, one a line. Fields:\n",
    );
    for (flag, label, _) in fields {
        s.push_str(&format!("  --{flag:<26} {label}\n"));
    }
    s
}

fn main() {
    let fields = fields();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--all" || a == "-a") {
        let width = fields.iter().map(|(_, l, _)| l.len()).max().unwrap_or(0) + 1;
        for (_, label, value) in &fields {
            println!("{:<width$} {value}", format!("{label}:"));
        }
        return;
    }
    let mut out = Vec::new();
    for arg in &args {
        if arg == "-h" || arg == "--help" {
            print!("{}", usage(&fields));
            return;
        }
        let name = arg.trim_start_matches('-');
        match fields.iter().find(|(f, _, _)| *f == name) {
            Some((_, _, value)) if arg.starts_with("--") => out.push(value.clone()),
            _ => {
                eprint!("mpicache-info: unknown option {arg}\n{}", usage(&fields));
                std::process::exit(2);
            }
        }
    }
    for v in out {
        println!("{v}");
    }
}
