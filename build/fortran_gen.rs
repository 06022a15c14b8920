//! Generates, from the Rust sources, everything Fortran needs that is not a routine body:
//!
//! - the other spellings and profiling forms of every Fortran entry point written once as
//!   `mpi_xxx_` in `src/fortran/*.rs` (`mpi_xxx__`, `mpi_xxx`, `MPI_XXX`, `pmpi_xxx_`,
//!   `pmpi_xxx__`, `pmpi_xxx`, `PMPI_XXX`), each calling the one body directly — used by
//!   build.rs;
//! - `fortran/mpif.h` and the `mpi` module `fortran/mpi.f90` from `src/consts.rs` (the single
//!   source of truth for constants) and from the Fortran entry points' signatures (the module's
//!   explicit interfaces) — used by tests/fortran_programs.rs, which fails when the checked-in
//!   files are stale and rewrites them with `MPICACHE_BLESS=1`.
//!
//! The predefined callbacks (`mpi_comm_dup_fn_` & co.) get only the lower-case spellings: the
//! upper-case `MPI_COMM_DUP_FN` is the C function, and callbacks are not profiled.

use std::path::Path;

/// One parsed Fortran entry point.
pub struct FortranEntry {
    pub module: String,
    /// The gfortran spelling, e.g. `mpi_comm_get_attr_`.
    pub name: String,
    pub params: Vec<(String, String)>,
    pub ret: String,
}

impl FortranEntry {
    /// `mpi_comm_get_attr` (no trailing underscore).
    pub fn stem(&self) -> &str {
        self.name.strip_suffix('_').unwrap_or(&self.name)
    }
    /// A predefined callback (`mpi_comm_dup_fn_`), not a routine.
    pub fn is_callback(&self) -> bool {
        self.stem().ends_with("_fn")
    }
}

fn split_top_level(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_owned());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

/// Reads every `pub [unsafe] extern "C" fn mpi_*_` signature of one source file.
pub fn parse_file(module: &str, source: &str) -> Vec<FortranEntry> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(pos) = rest.find("extern \"C\" fn mpi_") {
        let after = &rest[pos + "extern \"C\" fn ".len()..];
        let open = after.find('(').expect("parameter list");
        let name = after[..open].trim().to_owned();
        let mut depth = 0;
        let mut close = open;
        for (i, c) in after[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let params_src = &after[open + 1..close];
        let tail = &after[close + 1..];
        let body = tail.find('{').expect("function body");
        let ret = tail[..body]
            .trim()
            .trim_start_matches("->")
            .trim()
            .to_owned();
        rest = &after[close..];
        if !name.ends_with('_') || name.ends_with("__") {
            continue;
        }
        let params = split_top_level(params_src)
            .into_iter()
            .map(|p| {
                let (n, t) = p.split_once(':').expect("name: type");
                (n.trim().to_owned(), t.trim().to_owned())
            })
            .collect();
        out.push(FortranEntry {
            module: module.to_owned(),
            name,
            params,
            ret,
        });
    }
    out
}

/// Reads the entry points of every file in `dir` (`src/fortran`), sorted by name.
pub fn parse_dir(dir: &Path, module_prefix: &str) -> Vec<FortranEntry> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("fortran directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        if stem == "mod" {
            continue;
        }
        let module = format!("{module_prefix}::{stem}");
        all.extend(parse_file(
            &module,
            &std::fs::read_to_string(&f).expect("source file"),
        ));
    }
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
}

/// The spellings generated for an entry point (all but its own `mpi_xxx_`).
pub fn spellings(e: &FortranEntry) -> Vec<String> {
    let stem = e.stem();
    let mut v = vec![format!("{stem}__"), stem.to_owned()];
    if !e.is_callback() {
        let upper = stem.to_ascii_uppercase();
        v.push(upper.clone());
        v.push(format!("p{stem}_"));
        v.push(format!("p{stem}__"));
        v.push(format!("p{stem}"));
        v.push(format!("P{upper}"));
    }
    v
}

/// The Rust source of the twins and of `canonical_callback`.
pub fn render_twins(entries: &[FortranEntry]) -> String {
    let mut s = String::from(
        "// Generated by build/fortran_gen.rs from src/fortran: do not edit.\n\
         use crate::fortran::*;\nuse crate::fortran::callbacks::*;\nuse crate::fortran::errhandler::*;\n\
         use std::ffi::{c_char, c_int, c_void};\n\n",
    );
    let mut aliases = Vec::new();
    for e in entries {
        let params: Vec<String> = e.params.iter().map(|(n, t)| format!("{n}: {t}")).collect();
        let args: Vec<&str> = e.params.iter().map(|(n, _)| n.as_str()).collect();
        let ret = if e.ret.is_empty() {
            String::new()
        } else {
            format!(" -> {}", e.ret)
        };
        for twin in spellings(e) {
            s.push_str(&format!(
                "/// `{twin}`: another spelling of `{name}`.\n#[no_mangle]\npub unsafe extern \"C\" fn {twin}({params}){ret} {{\n    unsafe {{ {module}::{name}({args}) }}\n}}\n\n",
                name = e.name,
                params = params.join(", "),
                module = e.module,
                args = args.join(", "),
            ));
            if e.is_callback() {
                aliases.push((twin, format!("{}::{}", e.module, e.name)));
            }
        }
    }
    s.push_str(
        "/// The address of a predefined callback's gfortran spelling, given any of its spellings.\n\
         pub fn canonical_callback(addr: usize) -> usize {\n    let aliases: [(usize, usize); ",
    );
    s.push_str(&format!("{}] = [\n", aliases.len()));
    for (twin, canon) in &aliases {
        s.push_str(&format!(
            "        ({twin} as *const () as usize, {canon} as *const () as usize),\n"
        ));
    }
    s.push_str(
        "    ];\n    aliases\n        .iter()\n        .find(|(a, _)| *a == addr)\n        .map_or(addr, |&(_, c)| c)\n}\n",
    );
    s
}

// ---- constants ------------------------------------------------------------------------------

/// `(NAME, value)` of every `pub const MPI_*: i32 = VALUE;` in src/consts.rs that Fortran needs,
/// plus the Fortran-only status indices.
pub fn parse_consts(source: &str) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = Vec::new();
    for line in source.lines() {
        let Some(rest) = line.trim().strip_prefix("pub const ") else {
            continue;
        };
        let Some((name, rest)) = rest.split_once(':') else {
            continue;
        };
        let Some((ty, value)) = rest.split_once('=') else {
            continue;
        };
        if ty.trim() != "i32" {
            continue;
        }
        let name = name.trim();
        // C-only status layout (MPI_F_*); other names are not MPI constants.
        if !name.starts_with("MPI_") || name.starts_with("MPI_F_") {
            continue;
        }
        let value = value.trim().trim_end_matches(';').trim().replace('_', "");
        let (neg, digits) = match value.strip_prefix('-') {
            Some(d) => (true, d.to_owned()),
            None => (false, value.clone()),
        };
        let v = if let Some(hex) = digits.strip_prefix("0x") {
            i64::from_str_radix(hex, 16)
        } else {
            digits.parse::<i64>()
        }
        .unwrap_or_else(|_| panic!("constant {name} = {value} is not a literal"));
        out.push((name.to_owned(), if neg { -v } else { v }));
    }
    let get = |n: &str| {
        out.iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("{n} missing from src/consts.rs"))
    };
    // Fortran status indices are 1-based: STATUS(MPI_SOURCE) is the C field MPI_F_SOURCE.
    let src = source_index(source, "MPI_F_SOURCE");
    let tag = source_index(source, "MPI_F_TAG");
    let err = source_index(source, "MPI_F_ERROR");
    let _ = get("MPI_STATUS_SIZE");
    out.push(("MPI_SOURCE".into(), src + 1));
    out.push(("MPI_TAG".into(), tag + 1));
    out.push(("MPI_ERROR".into(), err + 1));
    out
}

fn source_index(source: &str, name: &str) -> i64 {
    let pat = format!("pub const {name}: i32 = ");
    let line = source
        .lines()
        .find_map(|l| l.trim().strip_prefix(&pat))
        .unwrap_or_else(|| panic!("{name} missing from src/consts.rs"));
    line.trim_end_matches(';').trim().parse().unwrap()
}

/// The predefined callbacks, as Fortran names.
pub const CALLBACKS: [&str; 12] = [
    "MPI_COMM_NULL_COPY_FN",
    "MPI_COMM_DUP_FN",
    "MPI_COMM_NULL_DELETE_FN",
    "MPI_TYPE_NULL_COPY_FN",
    "MPI_TYPE_DUP_FN",
    "MPI_TYPE_NULL_DELETE_FN",
    "MPI_WIN_NULL_COPY_FN",
    "MPI_WIN_DUP_FN",
    "MPI_WIN_NULL_DELETE_FN",
    "MPI_NULL_COPY_FN",
    "MPI_DUP_FN",
    "MPI_NULL_DELETE_FN",
];

/// The sentinels: `(declaration, COMMON block, name)`. Each is a variable in its own named
/// COMMON block, so every program unit passes the same address, and the library recognises it
/// by comparing with the block it exports (`mpifcmb1_` & co., src/fortran/sentinels.rs).
pub const SENTINELS: [(&str, &str, &str); 4] = [
    ("MPI_BOTTOM", "MPIFCMB1", "MPI_BOTTOM"),
    ("MPI_IN_PLACE", "MPIFCMB2", "MPI_IN_PLACE"),
    (
        "MPI_STATUS_IGNORE(MPI_STATUS_SIZE)",
        "MPIFCMB3",
        "MPI_STATUS_IGNORE",
    ),
    (
        "MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)",
        "MPIFCMB4",
        "MPI_STATUSES_IGNORE",
    ),
];

/// `fortran/mpif.h`: valid in fixed and free form (comments `!` in column 1, statements from
/// column 7, at most 72 columns, no continuation lines).
pub fn render_mpif_h(consts: &[(String, i64)]) -> String {
    let mut s = String::new();
    s.push_str("! mpif.h of mpicache: generated by build/fortran_gen.rs from\n");
    s.push_str("! src/consts.rs. Do not edit: MPICACHE_BLESS=1 cargo test\n");
    s.push_str("! --test fortran_programs regenerates it.\n");
    s.push_str("! Valid in fixed and free source form.\n");
    for (name, value) in consts {
        s.push_str(&format!("      INTEGER {name}\n"));
        s.push_str(&format!("      PARAMETER ({name}={value})\n"));
    }
    s.push_str("! Sentinels: variables in COMMON blocks, recognised by address\n");
    for (decl, block, name) in SENTINELS {
        s.push_str(&format!("      INTEGER {decl}\n"));
        s.push_str(&format!("      COMMON /{block}/ {name}\n"));
    }
    s.push_str("! Functions\n");
    for f in ["MPI_WTIME", "MPI_WTICK", "PMPI_WTIME", "PMPI_WTICK"] {
        s.push_str(&format!("      DOUBLE PRECISION {f}\n"));
        s.push_str(&format!("      EXTERNAL {f}\n"));
    }
    s.push_str("! Predefined attribute callbacks\n");
    for f in CALLBACKS {
        s.push_str(&format!("      EXTERNAL {f}\n"));
    }
    s
}

/// The Fortran declaration of one dummy argument, or `None` when the routine gets no interface
/// (choice buffers, or a type this generator does not know).
fn dummy_decl(name: &str, ty: &str) -> Option<String> {
    let n = name.to_ascii_uppercase();
    let t = ty.replace(' ', "");
    if t.contains("c_void") {
        return None;
    }
    if t.starts_with("Option<") {
        return Some(format!("EXTERNAL :: {n}"));
    }
    let base = t
        .trim_start_matches("*const")
        .trim_start_matches("*mut")
        .to_owned();
    Some(match base.as_str() {
        "MPI_Fint" => format!("INTEGER :: {n}"),
        "MPI_Flogical" => format!("LOGICAL :: {n}"),
        "MPI_Aint" => format!("INTEGER(KIND=MPI_ADDRESS_KIND) :: {n}"),
        "MPI_Fcount" => format!("INTEGER(KIND=MPI_COUNT_KIND) :: {n}"),
        "MPI_Foffset" => format!("INTEGER(KIND=MPI_OFFSET_KIND) :: {n}"),
        "MPI_Fstatus" => format!("INTEGER :: {n}(MPI_STATUS_SIZE)"),
        "MPI_Farray" => format!("INTEGER :: {n}(*)"),
        "MPI_Faint_array" => format!("INTEGER(KIND=MPI_ADDRESS_KIND) :: {n}(*)"),
        "MPI_Franges" => format!("INTEGER :: {n}(3,*)"),
        "c_char" => format!("CHARACTER(LEN=*) :: {n}"),
        _ => return None,
    })
}

/// Wraps a free-form statement at 100 columns with `&` continuations.
fn wrap(indent: &str, text: &str) -> String {
    let mut out = String::new();
    let mut line = format!("{indent}{text}");
    while line.len() > 100 {
        let cut = line[..100].rfind(", ").map(|i| i + 1).unwrap_or(100);
        out.push_str(&line[..cut]);
        out.push_str(" &\n");
        line = format!("{indent}    {}", line[cut..].trim_start());
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The explicit interface of one entry point, if it gets one.
fn interface(e: &FortranEntry) -> Option<String> {
    let name = e.stem().to_ascii_uppercase();
    let dummies: Vec<&(String, String)> = e
        .params
        .iter()
        .filter(|(_, t)| t.trim() != "usize")
        .collect();
    let mut decls = Vec::new();
    for (n, t) in &dummies {
        decls.push(dummy_decl(n, t)?);
    }
    let args: Vec<String> = dummies
        .iter()
        .map(|(n, _)| n.to_ascii_uppercase())
        .collect();
    let (head, tail) = match e.ret.as_str() {
        "" => (
            format!("SUBROUTINE {name}({})", args.join(", ")),
            format!("END SUBROUTINE {name}"),
        ),
        "f64" => (
            format!("DOUBLE PRECISION FUNCTION {name}({})", args.join(", ")),
            format!("END FUNCTION {name}"),
        ),
        _ => return None,
    };
    let mut s = String::new();
    s.push_str(&wrap("    ", &head));
    s.push_str(
        "      IMPORT :: MPI_ADDRESS_KIND, MPI_COUNT_KIND, MPI_OFFSET_KIND, MPI_STATUS_SIZE\n",
    );
    s.push_str("      IMPLICIT NONE\n");
    for d in decls {
        s.push_str(&format!("      {d}\n"));
    }
    s.push_str(&format!("    {tail}\n"));
    Some(s)
}

/// `fortran/mpi.f90`: the `mpi` module (free form).
pub fn render_mpi_f90(consts: &[(String, i64)], entries: &[FortranEntry]) -> String {
    let mut s = String::new();
    s.push_str(
        "! The mpi module of mpicache: generated by build/fortran_gen.rs from src/consts.rs and\n",
    );
    s.push_str(
        "! the signatures in src/fortran. Do not edit: MPICACHE_BLESS=1 cargo test --test\n",
    );
    s.push_str("! fortran_programs regenerates it.\n");
    s.push_str("module mpi\n  implicit none\n  public\n\n");
    for (name, value) in consts {
        s.push_str(&format!("  integer, parameter :: {name} = {value}\n"));
    }
    s.push_str("\n  ! Sentinels: variables in COMMON blocks, recognised by address.\n");
    for (decl, block, name) in SENTINELS {
        s.push_str(&format!("  integer :: {decl}\n"));
        s.push_str(&format!(
            "  common /{}/ {name}\n",
            block.to_ascii_lowercase()
        ));
    }
    s.push_str("\n  ! Predefined attribute callbacks: passable as actual arguments.\n");
    for f in CALLBACKS {
        s.push_str(&format!("  external :: {f}\n"));
    }
    s.push_str("\n  ! Explicit interfaces of every routine without a choice buffer.\n");
    s.push_str("  interface\n");
    let mut without = Vec::new();
    for e in entries.iter().filter(|e| !e.is_callback()) {
        match interface(e) {
            Some(i) => s.push_str(&i),
            None => without.push(e.stem().to_ascii_uppercase()),
        }
    }
    s.push_str("  end interface\n");
    if !without.is_empty() {
        s.push_str("\n  ! Without an explicit interface (choice buffers):\n");
        for w in without {
            s.push_str(&format!("  !   {w}\n"));
        }
    }
    s.push_str("end module mpi\n");
    s
}
