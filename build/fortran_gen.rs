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

// ---- the mpi_f08 module ---------------------------------------------------------------------

/// The deprecated MPI-1 attribute routines: not in `mpi_f08` (MPI 4.1 §19.1.2, §20.3.7).
pub const F08_EXCLUDED: [&str; 5] = [
    "mpi_keyval_create",
    "mpi_keyval_free",
    "mpi_attr_put",
    "mpi_attr_get",
    "mpi_attr_delete",
];

/// The `mpi_f08` handle types (each `TYPE, BIND(C)` with one INTEGER component `MPI_VAL`).
pub const F08_HANDLE_TYPES: [&str; 8] = [
    "MPI_Comm",
    "MPI_Datatype",
    "MPI_Errhandler",
    "MPI_Group",
    "MPI_Info",
    "MPI_Op",
    "MPI_Request",
    "MPI_Win",
];

/// The `mpi_f08` type of a predefined handle constant, by name (in src/consts.rs order: the
/// operations run from MPI_OP_NULL to MPI_NO_OP, the datatypes from MPI_DATATYPE_NULL to the
/// first MPI_COMBINER_ constant).
fn f08_constant_types(consts: &[(String, i64)]) -> Vec<Option<&'static str>> {
    let mut out = Vec::new();
    let mut in_ops = false;
    let mut in_types = false;
    for (name, _) in consts {
        let n = name.as_str();
        if n == "MPI_OP_NULL" {
            in_ops = true;
        }
        if n == "MPI_DATATYPE_NULL" {
            in_types = true;
        }
        if n.starts_with("MPI_COMBINER_") {
            in_types = false;
        }
        let t = match n {
            _ if in_ops => Some("MPI_Op"),
            _ if in_types => Some("MPI_Datatype"),
            "MPI_COMM_NULL" | "MPI_COMM_WORLD" | "MPI_COMM_SELF" => Some("MPI_Comm"),
            "MPI_GROUP_NULL" | "MPI_GROUP_EMPTY" => Some("MPI_Group"),
            "MPI_WIN_NULL" => Some("MPI_Win"),
            "MPI_INFO_NULL" | "MPI_INFO_ENV" => Some("MPI_Info"),
            "MPI_ERRHANDLER_NULL"
            | "MPI_ERRORS_ARE_FATAL"
            | "MPI_ERRORS_RETURN"
            | "MPI_ERRORS_ABORT" => Some("MPI_Errhandler"),
            "MPI_REQUEST_NULL" => Some("MPI_Request"),
            _ => None,
        };
        if n == "MPI_NO_OP" {
            in_ops = false;
        }
        out.push(t);
    }
    out
}

/// The `mpi_f08` handle type of an INTEGER dummy, by its name.
fn f08_handle_of(param: &str) -> Option<&'static str> {
    Some(match param {
        "comm" | "newcomm" | "oldcomm" | "comm1" | "comm2" => "MPI_Comm",
        "datatype" | "oldtype" | "newtype" | "array_of_types" => "MPI_Datatype",
        "win" => "MPI_Win",
        "errhandler" => "MPI_Errhandler",
        "group" | "newgroup" => "MPI_Group",
        "info" => "MPI_Info",
        "request" => "MPI_Request",
        "op" => "MPI_Op",
        _ => return None,
    })
}

/// `mpi_comm_get_attr` -> `MPI_Comm_get_attr`.
pub fn f08_name(stem: &str) -> String {
    let rest = stem.strip_prefix("mpi_").unwrap_or(stem);
    let mut c = rest.chars();
    let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or('_');
    format!("MPI_{first}{}", c.as_str())
}

/// The declarations of one dummy of an `mpi_f08` routine: `(declaration, extra line)`, where
/// the extra line is the NO_ARG_CHECK directive of a choice buffer. `interface` is true for
/// the private interface of the library's routine (ierror not OPTIONAL there).
fn f08_dummy(e: &FortranEntry, index: usize, interface: bool) -> Option<(String, Option<String>)> {
    let (name, ty) = &e.params[index];
    let stem = e.stem();
    let t = ty.replace(' ', "");
    let is_const = t.starts_with("*const");
    let base = t
        .trim_start_matches("*const")
        .trim_start_matches("*mut")
        .to_owned();
    let first = index == 0;
    let inout = !is_const
        && first
        && (stem.ends_with("_free")
            || stem.ends_with("_free_keyval")
            || matches!(stem, "mpi_type_commit" | "mpi_wait" | "mpi_test"));
    let intent = if is_const {
        "INTENT(IN)"
    } else if inout {
        "INTENT(INOUT)"
    } else {
        "INTENT(OUT)"
    };
    if name == "ierror" {
        return Some((
            if interface {
                "INTEGER, INTENT(OUT) :: ierror".to_owned()
            } else {
                "INTEGER, OPTIONAL, INTENT(OUT) :: ierror".to_owned()
            },
            None,
        ));
    }
    if base == "c_void" {
        let intent = if is_const { ", INTENT(IN)" } else { "" };
        return Some((
            format!("TYPE(*), DIMENSION(*){intent} :: {name}"),
            Some(format!("!GCC$ ATTRIBUTES NO_ARG_CHECK :: {name}")),
        ));
    }
    if let Some(inner) = t.strip_prefix("Option<").and_then(|s| s.strip_suffix('>')) {
        let obj = if stem.starts_with("mpi_comm_") {
            "Comm"
        } else if stem.starts_with("mpi_type_") {
            "Type"
        } else {
            "Win"
        };
        let iface = match inner {
            "MPI_Fcopy_attr_function" => format!("MPI_{obj}_copy_attr_function"),
            "MPI_Fdelete_attr_function" => format!("MPI_{obj}_delete_attr_function"),
            "MPI_Fcomm_errhandler_function" => format!("MPI_{obj}_errhandler_function"),
            _ => return None,
        };
        return Some((format!("PROCEDURE({iface}) :: {name}"), None));
    }
    let handle = f08_handle_of(name);
    let decl = match (base.as_str(), handle) {
        ("MPI_Fint", Some(h)) => format!("TYPE({h}), {intent} :: {name}"),
        ("MPI_Farray", Some(h)) => format!("TYPE({h}), {intent} :: {name}(*)"),
        ("MPI_Fstatus", _) => format!("TYPE(MPI_Status), {intent} :: {name}"),
        ("MPI_Fint", None) => format!("INTEGER, {intent} :: {name}"),
        ("MPI_Flogical", _) => format!("LOGICAL, {intent} :: {name}"),
        ("MPI_Aint", _) if name == "baseptr" => format!("TYPE(C_PTR), {intent} :: {name}"),
        ("MPI_Aint", _) => format!("INTEGER(KIND=MPI_ADDRESS_KIND), {intent} :: {name}"),
        ("MPI_Fcount", _) => format!("INTEGER(KIND=MPI_COUNT_KIND), {intent} :: {name}"),
        ("MPI_Farray", None) => format!("INTEGER, {intent} :: {name}(*)"),
        ("MPI_Faint_array", _) => {
            format!("INTEGER(KIND=MPI_ADDRESS_KIND), {intent} :: {name}(*)")
        }
        ("MPI_Franges", _) => format!("INTEGER, {intent} :: {name}(3,*)"),
        ("c_char", _) => format!("CHARACTER(LEN=*), {intent} :: {name}"),
        _ => return None,
    };
    Some((decl, None))
}

/// The module procedure of one routine and the private interface of the library routine it
/// calls (`pmpi_xxx_`, the profiling spelling of the one body), or `None` when it gets none.
fn f08_routine(e: &FortranEntry) -> Option<(String, String)> {
    let stem = e.stem();
    if e.is_callback() || F08_EXCLUDED.contains(&stem) {
        return None;
    }
    let f08 = f08_name(stem);
    let pname = format!("p{stem}");
    let idx: Vec<usize> = (0..e.params.len())
        .filter(|&i| e.params[i].1.trim() != "usize")
        .collect();
    let args: Vec<&str> = idx.iter().map(|&i| e.params[i].0.as_str()).collect();
    let mut own = Vec::new();
    let mut lib = Vec::new();
    for &i in &idx {
        own.push(f08_dummy(e, i, false)?);
        lib.push(f08_dummy(e, i, true)?);
    }
    let has_ierror = args.last() == Some(&"ierror");
    let decls = |v: &[(String, Option<String>)], indent: &str| {
        let mut s = String::new();
        for (d, extra) in v {
            s.push_str(&wrap(indent, d));
            if let Some(x) = extra {
                s.push_str(&format!("{x}\n"));
            }
        }
        s
    };
    let (head, tail, ihead, itail) = match e.ret.as_str() {
        "" => (
            format!("subroutine {f08}({})", args.join(", ")),
            format!("end subroutine {f08}"),
            format!("subroutine {pname}({})", args.join(", ")),
            format!("end subroutine {pname}"),
        ),
        "f64" => (
            format!("double precision function {f08}({})", args.join(", ")),
            format!("end function {f08}"),
            format!("double precision function {pname}({})", args.join(", ")),
            format!("end function {pname}"),
        ),
        _ => return None,
    };
    let mut iface = String::new();
    iface.push_str(&wrap("    ", &ihead));
    iface.push_str("      import\n      implicit none\n");
    iface.push_str(&decls(&lib, "      "));
    iface.push_str(&format!("    {itail}\n"));

    let mut body = String::new();
    body.push_str(&wrap("  ", &head));
    body.push_str("    implicit none\n");
    body.push_str(&decls(&own, "    "));
    let call_args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "ierror" { "ierror_c" } else { a })
        .collect();
    if has_ierror {
        body.push_str("    integer :: ierror_c\n");
        body.push_str(&wrap(
            "    ",
            &format!("call {pname}({})", call_args.join(", ")),
        ));
        body.push_str("    if (present(ierror)) ierror = ierror_c\n");
    } else if e.ret == "f64" {
        body.push_str(&format!("    {f08} = {pname}({})\n", call_args.join(", ")));
    } else {
        body.push_str(&wrap(
            "    ",
            &format!("call {pname}({})", call_args.join(", ")),
        ));
    }
    body.push_str(&format!("  {tail}\n"));
    Some((body, iface))
}

/// The mpi_f08 callback interfaces (MPI 4.1 §7.7.2–§7.7.4, §9.3): `(interface, object
/// dummy, object type)`.
const F08_CALLBACK_OBJECTS: [(&str, &str, &str); 3] = [
    ("Comm", "comm", "MPI_Comm"),
    ("Type", "datatype", "MPI_Datatype"),
    ("Win", "win", "MPI_Win"),
];

fn f08_copy_interface(name: &str, obj: &str, ty: &str, kv: &str) -> String {
    format!(
        "    subroutine {name}(old{obj}, {kv}, extra_state, attribute_val_in, &\n\
         \x20       attribute_val_out, flag, ierror)\n\
         \x20     import :: {ty}, MPI_ADDRESS_KIND\n\
         \x20     implicit none\n\
         \x20     type({ty}) :: old{obj}\n\
         \x20     integer :: {kv}, ierror\n\
         \x20     integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out\n\
         \x20     logical :: flag\n\
         \x20   end subroutine {name}\n"
    )
}

fn f08_delete_interface(name: &str, obj: &str, ty: &str, kv: &str) -> String {
    format!(
        "    subroutine {name}({obj}, {kv}, attribute_val, extra_state, ierror)\n\
         \x20     import :: {ty}, MPI_ADDRESS_KIND\n\
         \x20     implicit none\n\
         \x20     type({ty}) :: {obj}\n\
         \x20     integer :: {kv}, ierror\n\
         \x20     integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state\n\
         \x20   end subroutine {name}\n"
    )
}

/// `fortran/mpi_f08.f90`: the `mpi_f08` module (free form).
pub fn render_mpi_f08(consts: &[(String, i64)], entries: &[FortranEntry]) -> String {
    let mut s = String::new();
    s.push_str(
        "! The mpi_f08 module of mpicache: generated by build/fortran_gen.rs from src/consts.rs\n\
         ! and the signatures in src/fortran. Do not edit: MPICACHE_BLESS=1 cargo test --test\n\
         ! fortran_f08 regenerates it.\n\
         !\n\
         ! Every handle is a BIND(C) type with one INTEGER component MPI_VAL, the same integer as\n\
         ! the mpi module's handle, so a handle is passed by reference exactly like an INTEGER.\n\
         ! Each routine is a thin module procedure that calls the library's Fortran routine (its\n\
         ! profiling spelling pmpi_xxx_) with a local ierror, stored only when IERROR is present.\n\
         ! The predefined callbacks are the library's own Fortran routines (mpi_comm_dup_fn_ &\n\
         ! co.), so the library recognises them.\n",
    );
    s.push_str("module mpi_f08\n  use, intrinsic :: iso_c_binding, only: c_ptr\n");
    s.push_str("  implicit none\n  public\n  private :: c_ptr\n\n");
    // Handle types.
    for t in F08_HANDLE_TYPES {
        s.push_str(&format!(
            "  type, bind(c) :: {t}\n    integer :: MPI_VAL\n  end type {t}\n"
        ));
    }
    let sc = |n: &str| {
        consts
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("{n} missing"))
    };
    let size = sc("MPI_STATUS_SIZE");
    let (src, tag, err) = (sc("MPI_SOURCE"), sc("MPI_TAG"), sc("MPI_ERROR"));
    assert!(
        src == 1 && tag == 2 && err == 3 && size > 3,
        "TYPE(MPI_Status) assumes SOURCE, TAG, ERROR first"
    );
    s.push_str(&format!(
        "  ! The layout of INTEGER STATUS(MPI_STATUS_SIZE).\n  type, bind(c) :: MPI_Status\n    \
         integer :: MPI_SOURCE, MPI_TAG, MPI_ERROR\n    integer :: mpicache_reserved({})\n  \
         end type MPI_Status\n\n",
        size - 3
    ));
    let types = f08_constant_types(consts);
    for ((name, value), t) in consts.iter().zip(&types) {
        match t {
            Some(t) => s.push_str(&format!(
                "  type({t}), parameter :: {name} = {t}({value})\n"
            )),
            None => s.push_str(&format!("  integer, parameter :: {name} = {value}\n")),
        }
    }
    s.push_str("\n  ! Sentinels: the same COMMON blocks as mpif.h and the mpi module.\n");
    s.push_str("  integer :: MPI_BOTTOM\n  common /mpifcmb1/ MPI_BOTTOM\n");
    s.push_str("  integer :: MPI_IN_PLACE\n  common /mpifcmb2/ MPI_IN_PLACE\n");
    s.push_str("  type(MPI_Status) :: MPI_STATUS_IGNORE\n  common /mpifcmb3/ MPI_STATUS_IGNORE\n");
    s.push_str(
        "  type(MPI_Status) :: MPI_STATUSES_IGNORE(1)\n  common /mpifcmb4/ MPI_STATUSES_IGNORE\n",
    );
    // Operators.
    s.push_str("\n  interface operator(==)\n");
    for t in F08_HANDLE_TYPES {
        s.push_str(&format!("    module procedure mpicache_eq_{}\n", &t[4..]));
    }
    s.push_str("  end interface\n  interface operator(/=)\n");
    for t in F08_HANDLE_TYPES {
        s.push_str(&format!("    module procedure mpicache_ne_{}\n", &t[4..]));
    }
    s.push_str("  end interface\n");
    for t in F08_HANDLE_TYPES {
        s.push_str(&format!(
            "  private :: mpicache_eq_{0}, mpicache_ne_{0}\n",
            &t[4..]
        ));
    }
    // Callback interfaces.
    s.push_str("\n  ! Callback interfaces (MPI 4.1 §7.7.2-§7.7.4, §9.3).\n  abstract interface\n");
    for (obj, dummy, ty) in F08_CALLBACK_OBJECTS {
        let kv = format!("{}_keyval", obj.to_ascii_lowercase());
        s.push_str(&f08_copy_interface(
            &format!("MPI_{obj}_copy_attr_function"),
            dummy,
            ty,
            &kv,
        ));
        s.push_str(&f08_delete_interface(
            &format!("MPI_{obj}_delete_attr_function"),
            dummy,
            ty,
            &kv,
        ));
    }
    for (obj, dummy, ty) in [("Comm", "comm", "MPI_Comm"), ("Win", "win", "MPI_Win")] {
        s.push_str(&format!(
            "    subroutine MPI_{obj}_errhandler_function({dummy}, error_code)\n\
             \x20     import :: {ty}\n\
             \x20     implicit none\n\
             \x20     type({ty}) :: {dummy}\n\
             \x20     integer :: error_code\n\
             \x20   end subroutine MPI_{obj}_errhandler_function\n"
        ));
    }
    s.push_str("  end interface\n\n");
    s.push_str(
        "  ! The predefined callbacks: the library's own Fortran routines (mpi_comm_dup_fn_ & co.),\n  \
         ! recognised by address.\n  interface\n",
    );
    for (obj, dummy, ty) in F08_CALLBACK_OBJECTS {
        let kv = format!("{}_keyval", obj.to_ascii_lowercase());
        let up = obj.to_ascii_uppercase();
        s.push_str(&f08_copy_interface(
            &format!("MPI_{up}_NULL_COPY_FN"),
            dummy,
            ty,
            &kv,
        ));
        s.push_str(&f08_copy_interface(
            &format!("MPI_{up}_DUP_FN"),
            dummy,
            ty,
            &kv,
        ));
        s.push_str(&f08_delete_interface(
            &format!("MPI_{up}_NULL_DELETE_FN"),
            dummy,
            ty,
            &kv,
        ));
    }
    s.push_str("  end interface\n\n");
    let routines: Vec<(String, String)> = entries.iter().filter_map(f08_routine).collect();
    s.push_str("  ! The library's routines, called by the module procedures.\n  interface\n");
    let mut private = Vec::new();
    for (_, iface) in &routines {
        s.push_str(iface);
    }
    for e in entries {
        if f08_routine(e).is_some() {
            private.push(format!("p{}", e.stem()));
        }
    }
    s.push_str("  end interface\n");
    for p in private {
        s.push_str(&format!("  private :: {p}\n"));
    }
    s.push_str("\ncontains\n\n");
    for t in F08_HANDLE_TYPES {
        let short = &t[4..];
        s.push_str(&format!(
            "  elemental logical function mpicache_eq_{short}(a, b)\n    \
             type({t}), intent(in) :: a, b\n    mpicache_eq_{short} = a%MPI_VAL == b%MPI_VAL\n  \
             end function mpicache_eq_{short}\n  \
             elemental logical function mpicache_ne_{short}(a, b)\n    \
             type({t}), intent(in) :: a, b\n    mpicache_ne_{short} = a%MPI_VAL /= b%MPI_VAL\n  \
             end function mpicache_ne_{short}\n"
        ));
    }
    s.push('\n');
    for (body, _) in &routines {
        s.push_str(body);
        s.push('\n');
    }
    s.push_str("end module mpi_f08\n");
    s
}
