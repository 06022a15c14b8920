//! The Fortran bindings as a user meets them: fortran/mpif.h and the `mpi` module are fresh
//! (generated from src/consts.rs and src/fortran by build/fortran_gen.rs; regenerate with
//! `MPICACHE_BLESS=1 cargo test --release --test programs fortran_programs`), agree with the
//! Rust constants, and the Fortran and mixed C/Fortran programs of tests/fortran/ — built with
//! the INSTALLED mpifort / mpicc — pass their own checks, plainly and under valgrind.

use crate::common;

use crate::fortran_gen;

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn generated() -> (String, String) {
    let consts =
        fortran_gen::parse_consts(&std::fs::read_to_string(root().join("src/consts.rs")).unwrap());
    let entries = fortran_gen::all_entries(root());
    (
        fortran_gen::render_mpif_h(&consts),
        fortran_gen::render_mpi_f90(&consts, &entries),
    )
}

#[test]
fn fortran_headers_are_fresh() {
    let (mpif, module) = generated();
    let files = [("fortran/mpif.h", mpif), ("fortran/mpi.f90", module)];
    if std::env::var_os("MPICACHE_BLESS").is_some() {
        for (path, text) in &files {
            std::fs::write(root().join(path), text).unwrap();
        }
        return;
    }
    for (path, text) in &files {
        let checked_in = std::fs::read_to_string(root().join(path)).unwrap_or_default();
        assert!(
            *text == checked_in,
            "{path} is stale: run `MPICACHE_BLESS=1 cargo test --release --test programs fortran_programs` and commit it"
        );
    }
}

/// mpif.h must work in fixed form (and free form): `!` comments in column 1, statements from
/// column 7, no line over 72 columns, no continuation lines.
#[test]
fn mpif_h_is_valid_fixed_and_free_form() {
    let text = std::fs::read_to_string(root().join("fortran/mpif.h")).unwrap();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        assert!(
            line.len() <= 72,
            "mpif.h:{n} is {} columns: {line}",
            line.len()
        );
        if line.starts_with('!') || line.trim().is_empty() {
            continue;
        }
        assert!(
            line.starts_with("      ") && !line[6..].starts_with(' '),
            "mpif.h:{n} must start its statement in column 7: {line:?}"
        );
        assert!(
            !line.trim_end().ends_with('&'),
            "mpif.h:{n} continues: {line}"
        );
    }
}

/// `NAME = value` pairs of a generated file.
fn parse_fortran_params(text: &str) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        let body = if let Some(b) = l.strip_prefix("PARAMETER (") {
            b.trim_end_matches(')')
        } else if let Some(b) = l.strip_prefix("integer, parameter :: ") {
            b
        } else {
            continue;
        };
        let (n, v) = body.split_once('=').unwrap();
        out.push((n.trim().to_owned(), v.trim().parse().unwrap()));
    }
    out
}

/// One source of truth (docs/DESIGN.md "Headers and constants"): the values in mpif.h and the mpi module are the
/// Rust constants, name by name.
#[test]
fn fortran_constants_agree_with_rust() {
    use mpicache::consts::*;
    let expected: &[(&str, i32)] = &[
        ("MPI_SUCCESS", MPI_SUCCESS),
        ("MPI_ERR_KEYVAL", MPI_ERR_KEYVAL),
        ("MPI_ERR_COMM", MPI_ERR_COMM),
        ("MPI_ERR_ARG", MPI_ERR_ARG),
        ("MPI_ERR_OTHER", MPI_ERR_OTHER),
        ("MPI_ERR_LASTCODE", MPI_ERR_LASTCODE),
        ("MPI_COMM_WORLD", MPI_COMM_WORLD),
        ("MPI_COMM_SELF", MPI_COMM_SELF),
        ("MPI_COMM_NULL", MPI_COMM_NULL),
        ("MPI_ERRORS_RETURN", MPI_ERRORS_RETURN),
        ("MPI_ERRORS_ARE_FATAL", MPI_ERRORS_ARE_FATAL),
        ("MPI_INFO_NULL", MPI_INFO_NULL),
        ("MPI_INTEGER", MPI_INTEGER),
        ("MPI_DOUBLE_PRECISION", MPI_DOUBLE_PRECISION),
        ("MPI_SUM", MPI_SUM),
        ("MPI_TAG_UB", MPI_TAG_UB),
        ("MPI_HOST", MPI_HOST),
        ("MPI_WIN_BASE", MPI_WIN_BASE),
        ("MPI_WIN_SIZE", MPI_WIN_SIZE),
        ("MPI_WIN_MODEL", MPI_WIN_MODEL),
        ("MPI_KEYVAL_INVALID", MPI_KEYVAL_INVALID),
        ("MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE),
        ("MPI_ADDRESS_KIND", MPI_ADDRESS_KIND),
        ("MPI_OFFSET_KIND", MPI_OFFSET_KIND),
        ("MPI_COUNT_KIND", MPI_COUNT_KIND),
        ("MPI_INTEGER_KIND", MPI_INTEGER_KIND),
        ("MPI_VERSION", MPI_VERSION),
        ("MPI_SUBVERSION", MPI_SUBVERSION),
        ("MPI_MAX_OBJECT_NAME", MPI_MAX_OBJECT_NAME),
        ("MPI_MAX_ERROR_STRING", MPI_MAX_ERROR_STRING),
        (
            "MPI_MAX_LIBRARY_VERSION_STRING",
            MPI_MAX_LIBRARY_VERSION_STRING,
        ),
        ("MPI_IDENT", MPI_IDENT),
        ("MPI_CONGRUENT", MPI_CONGRUENT),
        ("MPI_UNEQUAL", MPI_UNEQUAL),
        ("MPI_STATUS_SIZE", MPI_STATUS_SIZE),
        ("MPI_UNDEFINED", MPI_UNDEFINED),
        ("MPI_ANY_SOURCE", MPI_ANY_SOURCE),
        ("MPI_PROC_NULL", MPI_PROC_NULL),
        ("MPI_WIN_FLAVOR_CREATE", MPI_WIN_FLAVOR_CREATE),
        ("MPI_WIN_UNIFIED", MPI_WIN_UNIFIED),
        ("MPI_ORDER_FORTRAN", MPI_ORDER_FORTRAN),
        ("MPI_COMBINER_VECTOR", MPI_COMBINER_VECTOR),
        // Fortran status indices are 1-based views of the C layout.
        ("MPI_SOURCE", MPI_F_SOURCE + 1),
        ("MPI_TAG", MPI_F_TAG + 1),
        ("MPI_ERROR", MPI_F_ERROR + 1),
    ];
    for path in ["fortran/mpif.h", "fortran/mpi.f90"] {
        let params = parse_fortran_params(&std::fs::read_to_string(root().join(path)).unwrap());
        for (name, value) in expected {
            let got = params.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
            assert_eq!(got, Some(*value as i64), "{path}: {name}");
        }
        // No name twice (Fortran names are case-insensitive).
        let mut names: Vec<String> = params.iter().map(|(n, _)| n.to_ascii_uppercase()).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "{path} declares a name twice");
    }
}

/// Builds `tests/fortran/<name>.F90` (with its C half `<name>_c.c`, compiled by the installed
/// mpicc -c, when there is one) with the installed mpifort, once with `use mpi` and once with
/// `include 'mpif.h'` (-DUSE_MPIF_H), and runs each build plainly and under valgrind. Each
/// program counts its own failed checks and exits 1 if any.
fn build_and_run(name: &str) {
    let dir = root().join("tests/fortran");
    let c_half = dir.join(format!("{name}_c.c"));
    let object = c_half
        .exists()
        .then(|| common::compile("mpicc", &c_half, &["-c", "-Wall"]));
    for variant in [&[][..], &["-DUSE_MPIF_H"][..]] {
        let mut flags: Vec<String> = vec!["-ffree-line-length-none".into(), "-Wall".into()];
        flags.extend(variant.iter().map(|s| s.to_string()));
        if let Some(o) = &object {
            flags.push(o.display().to_string());
        }
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let exe = common::compile("mpifort", &dir.join(format!("{name}.F90")), &flags);
        for valgrind in [false, true] {
            let Some(run) = common::run(&exe, valgrind) else {
                continue;
            };
            assert!(
                run.status == Some(0),
                "{name} {variant:?} (valgrind: {valgrind}) failed:\n{}",
                run.report()
            );
            assert!(
                run.stdout.contains(" 0 failure(s)"),
                "{name}: no summary line:\n{}",
                run.report()
            );
        }
    }
}

/// MPI 4.1 §20.3.7: the writer x reader matrix, C and Fortran, both generations.
#[test]
fn attr_matrix() {
    build_and_run("attr_matrix");
}

/// MPI 4.1 §7.7.2, §20.3.7, §11.2.4: callbacks across languages, DUP_FN, finalize order.
#[test]
fn callbacks() {
    build_and_run("callbacks");
}

/// MPI 4.1 §20.3.7 Examples (16.17 C/D, 16.18, 16.19 in MPI 2.2).
#[test]
fn standard_examples() {
    build_and_run("examples");
}

/// MPI 4.1 §7.7.2-§7.7.4, §19.3: keyvals created and freed many times over from Fortran (the
/// reused ones come through the fast create and free), with every kind of callback.
#[test]
fn keyval_reuse() {
    build_and_run("keyval_reuse");
}

/// MPI 4.1 §7.7.2-§7.7.4, MPI-1 §5.7.1: keyvals freed while attributes use them still name
/// those attributes from Fortran (get, delete, overwrite, dup), until the last one goes.
#[test]
fn keyval_free_in_use() {
    build_and_run("keyval_free_in_use");
}

/// MPI 4.1 §7.7.3 predefined attributes from Fortran; errors in IERROR as C gets them.
#[test]
fn predefined_and_errors() {
    build_and_run("predefined_errors");
}

/// MPI 4.1 §20.3.7 for datatypes and windows (C and Fortran writers and readers), the Fortran
/// datatype and window routines, and the predefined window attributes read from Fortran
/// (§12.2.6).
#[test]
fn type_win_matrix() {
    build_and_run("type_win_matrix");
}

/// MPI 4.1 §2.5.4, §19.1.3: the Fortran sentinels MPI_IN_PLACE, MPI_STATUS_IGNORE and
/// MPI_BOTTOM; the Fortran collectives, datatype constructors, MPI_ALLOC_MEM and
/// MPI_COMM_SPLIT_TYPE.
#[test]
fn sentinels() {
    build_and_run("sentinels");
}

/// MPI 4.1 §7.7.3, §7.7.4, §20.3.7: copy and delete callbacks of both languages on datatypes
/// (MPI_TYPE_DUP / MPI_TYPE_FREE from C and from Fortran) and delete callbacks on windows
/// (MPI_WIN_FREE).
#[test]
fn type_win_callbacks() {
    build_and_run("type_win_callbacks");
}

/// MPI 4.1 §13.2: generalized requests with Fortran callbacks (STATUS as an INTEGER array,
/// LOGICAL COMPLETE, EXTRA_STATE by reference, IERROR returned by the waits), and §19.3.5
/// MPI_STATUS_F082F / MPI_STATUS_F2F08.
#[test]
fn grequest() {
    build_and_run("grequest");
}

/// MPI 4.1 §10: info objects from Fortran (CHARACTER keys and values), and a created info
/// passed to MPI_COMM_DUP_WITH_INFO.
#[test]
fn info() {
    build_and_run("info");
}

/// MPI 4.1 §19.1–§19.3: the Fortran bindings generated from the C signatures
/// (build/fortran_bind.rs): statuses, LOGICAL, CHARACTER, arrays, choice buffers, 1-based
/// indices and error classes, through `use mpi` and mpif.h.
#[test]
fn generated_bindings() {
    build_and_run("generated");
}

/// MPI 4.1 §19.1.1 (every routine has a Fortran binding unless the standard says otherwise):
/// the C routines without one, each with its reason, are only those build/fortran_bind.rs
/// lists; every other C routine has a hand-written or generated `mpi_xxx_`, exported.
#[test]
fn c_routines_without_fortran_binding() {
    use crate::fortran_bind;
    let r = root();
    let without = fortran_bind::without_binding(r);
    println!("C routines without a Fortran binding ({}):", without.len());
    for (name, why) in &without {
        println!("  {name}: {why}");
        assert!(!why.is_empty(), "{name}: no reason");
    }
    // The special ones the standard binds in Fortran are hand-written, not excluded.
    for special in [
        "MPI_Aint_add",
        "MPI_Aint_diff",
        "MPI_Pcontrol",
        "MPI_Info_create_env",
    ] {
        assert!(
            without.iter().all(|(n, _)| n != special),
            "{special} has a Fortran binding in MPI 4.1 but none here"
        );
    }
    // Every C routine with a binding: its gfortran spelling is in the library's symbols.
    let fortran: Vec<String> = fortran_gen::all_entries(r)
        .iter()
        .map(|e| e.name.clone())
        .collect();
    let lib = r.join("target/release/libmpicache.so");
    let out = std::process::Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&lib)
        .output()
        .expect("nm");
    let symbols = String::from_utf8_lossy(&out.stdout);
    let exported = |s: &str| {
        symbols
            .lines()
            .any(|l| l.split_whitespace().last() == Some(s))
    };
    for c in fortran_bind::c_routines(r) {
        if without.iter().any(|(n, _)| *n == c.name) {
            continue;
        }
        let f = format!("{}_", c.name.to_ascii_lowercase());
        assert!(fortran.contains(&f), "{}: no Fortran binding", c.name);
        for spelling in [f.clone(), format!("p{f}"), c.name.to_ascii_uppercase()] {
            assert!(
                exported(&spelling),
                "{spelling} is not exported by {}",
                lib.display()
            );
        }
    }
}

/// C signatures of the MPI 4.1 families other helpers are adding (files, sessions, RMA,
/// topologies, matched probes), as their entry points spell them.
const FUTURE_SIGNATURES: &str = r#"
pub unsafe extern "C" fn MPI_File_open(comm: MPI_Comm, filename: *const c_char, amode: c_int, info: MPI_Info, fh: *mut MPI_File) -> c_int { }
pub unsafe extern "C" fn MPI_File_close(fh: *mut MPI_File) -> c_int { }
pub unsafe extern "C" fn MPI_File_seek(fh: MPI_File, offset: MPI_Offset, whence: c_int) -> c_int { }
pub unsafe extern "C" fn MPI_File_get_view(fh: MPI_File, disp: *mut MPI_Offset, etype: *mut MPI_Datatype, filetype: *mut MPI_Datatype, datarep: *mut c_char) -> c_int { }
pub unsafe extern "C" fn MPI_File_read_at(fh: MPI_File, offset: MPI_Offset, buf: *mut c_void, count: c_int, datatype: MPI_Datatype, status: *mut MPI_Status) -> c_int { }
pub unsafe extern "C" fn MPI_Session_init(info: MPI_Info, errhandler: MPI_Errhandler, session: *mut MPI_Session) -> c_int { }
pub unsafe extern "C" fn MPI_Session_finalize(session: *mut MPI_Session) -> c_int { }
pub unsafe extern "C" fn MPI_Win_allocate(size: MPI_Aint, disp_unit: c_int, info: MPI_Info, comm: MPI_Comm, baseptr: *mut c_void, win: *mut MPI_Win) -> c_int { }
pub unsafe extern "C" fn MPI_Put(origin_addr: *const c_void, origin_count: c_int, origin_datatype: MPI_Datatype, target_rank: c_int, target_disp: MPI_Aint, target_count: c_int, target_datatype: MPI_Datatype, win: MPI_Win) -> c_int { }
pub unsafe extern "C" fn MPI_Cart_create(comm_old: MPI_Comm, ndims: c_int, dims: *const c_int, periods: *const c_int, reorder: c_int, comm_cart: *mut MPI_Comm) -> c_int { }
pub unsafe extern "C" fn MPI_Cart_get(comm: MPI_Comm, maxdims: c_int, dims: *mut c_int, periods: *mut c_int, coords: *mut c_int) -> c_int { }
pub unsafe extern "C" fn MPI_Dims_create(nnodes: c_int, ndims: c_int, dims: *mut c_int) -> c_int { }
pub unsafe extern "C" fn MPI_Mrecv(buf: *mut c_void, count: c_int, datatype: MPI_Datatype, message: *mut MPI_Message, status: *mut MPI_Status) -> c_int { }
pub unsafe extern "C" fn MPI_Open_port(info: MPI_Info, port_name: *mut c_char) -> c_int { }
"#;

/// MPI 4.1 §19.1–§19.3: the generator binds the families still being written in C, with the
/// Fortran types and directions the standard gives them.
#[test]
fn generator_binds_future_families() {
    use crate::fortran_bind;
    use crate::signatures;
    let sigs = signatures::parse_file("crate::capi::x", FUTURE_SIGNATURES, "MPI_", &|_| true);
    assert_eq!(sigs.len(), 14);
    let find = |name: &str| {
        let s = sigs.iter().find(|s| s.name == name).unwrap();
        fortran_bind::bind(s)
    };
    let ty = |b: &fortran_bind::Binding, p: &str| {
        b.entry
            .params
            .iter()
            .find(|(n, _)| n == p)
            .unwrap()
            .1
            .clone()
    };
    // §14.2.1: CHARACTER filename with its hidden length after IERROR; TYPE(MPI_File) out.
    let open = find("MPI_File_open");
    assert_eq!(ty(&open, "filename"), "*const c_char");
    assert_eq!(open.entry.params.last().unwrap().0, "filename_len");
    assert_eq!(ty(&open, "fh"), "*mut MPI_Ffile");
    // §14.2.2: MPI_FILE_CLOSE reads FH (INOUT): it is converted in, not zeroed.
    assert!(find("MPI_File_close").source.contains("read_narrow(fh"));
    // §14.4.3: INTEGER(KIND=MPI_OFFSET_KIND).
    assert_eq!(ty(&find("MPI_File_seek"), "offset"), "*const MPI_Foffset");
    assert!(find("MPI_File_get_view")
        .source
        .contains("string_out(datarep"));
    assert_eq!(
        ty(&find("MPI_Session_finalize"), "session"),
        "*mut MPI_Fsession"
    );
    // §12.2.2: BASEPTR is an address.
    assert_eq!(ty(&find("MPI_Win_allocate"), "baseptr"), "*mut MPI_Aint");
    assert_eq!(ty(&find("MPI_Put"), "origin_addr"), "*const c_void");
    // §8.5.1: LOGICAL PERIODS(*) and REORDER; DIMS(NDIMS).
    let cart = find("MPI_Cart_create");
    assert_eq!(ty(&cart, "periods"), "*const MPI_Flogical_array");
    assert_eq!(ty(&cart, "reorder"), "*const MPI_Flogical");
    assert!(cart.source.contains("ints_in(dims, len(ndims_c)"));
    assert!(find("MPI_Cart_get").source.contains("len(maxdims_c)"));
    // §8.5.2: DIMS of MPI_DIMS_CREATE is INOUT.
    assert!(find("MPI_Dims_create").source.contains("ints_in(dims"));
    // §3.8.3: MESSAGE of MPI_MRECV is INOUT.
    assert!(find("MPI_Mrecv").source.contains("read_narrow(message"));
    assert!(find("MPI_Open_port")
        .source
        .contains("string_out(port_name"));
    // Exclusions by family.
    assert!(fortran_bind::exclusion("MPI_Register_datarep_c").is_some());
    assert!(fortran_bind::exclusion("MPI_T_cvar_read").is_some());
    assert!(fortran_bind::exclusion("MPI_Send").is_none());
}

/// MPI 4.1 §8.5.3-§8.5.7, §8.6: the generated bindings of the topology routines take their
/// array lengths from the topology (degrees, Cartesian dimension) or from INDEX / DEGREES, and
/// recognise the weight sentinels.
#[test]
fn generator_sizes_topology_arrays() {
    use crate::fortran_bind;
    let all = fortran_bind::bindings(root());
    let find = |name: &str| {
        let stem = format!("{}_", name.to_ascii_lowercase());
        all.iter()
            .find(|b| b.entry.name == stem)
            .unwrap_or_else(|| panic!("{name}: no generated binding"))
    };
    for name in [
        "MPI_Neighbor_alltoallv",
        "MPI_Ineighbor_alltoallw_c",
        "MPI_Neighbor_allgatherv_init",
    ] {
        let s = &find(name).source;
        assert!(s.contains("in_degree(comm_c)"), "{name}: {s}");
        assert!(!s.contains("span("), "{name}: {s}");
    }
    assert!(find("MPI_Neighbor_alltoallv")
        .source
        .contains("out_degree(comm_c)"));
    assert!(find("MPI_Graph_create")
        .source
        .contains("edge_count(&index_c)"));
    assert!(find("MPI_Dist_graph_create")
        .source
        .contains("weights_arg(weights, degree_sum(&degrees_c), true)"));
    assert!(find("MPI_Dist_graph_neighbors")
        .source
        .contains("write_back(sourceweights, dist_weighted(comm_c))"));
    assert!(find("MPI_Cart_rank").source.contains("cart_ndims(comm_c)"));
    assert!(find("MPI_Cart_sub")
        .source
        .contains("logicals_in(remain_dims, cart_ndims(comm_c))"));
    assert!(find("MPI_Type_create_darray_c")
        .source
        .contains("ints_in(array_of_psizes, len(ndims_c)"));
    // A graph's INDEX is no 1-based index.
    assert!(!find("MPI_Graph_get").source.contains("index_out"));
}

/// The generator refuses an array it has no length for (a `*const int` input is an array in
/// C): a new C routine of that shape fails the build instead of reading past a Fortran array.
#[test]
#[should_panic(expected = "does not know")]
fn generator_refuses_an_unknown_array() {
    let src = r#"pub unsafe extern "C" fn MPI_Frobnicate(comm: MPI_Comm, widgets: *const c_int) -> c_int { }"#;
    let sigs = crate::signatures::parse_file("crate::capi::x", src, "MPI_", &|_| true);
    crate::fortran_bind::bind(&sigs[0]);
}

/// MPI 4.1 §8.5.3-§8.5.7, §8.6-§8.8, §5.1.4: the bindings whose array lengths come from the
/// topology (Cartesian dimension, degrees), from INDEX / DEGREES contents or NDIMS, and the
/// MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY sentinels.
#[test]
fn topo_bindings() {
    build_and_run("topo_bindings");
}

/// MPI 4.1 §6.9.5, §9.3.4, §9.3.5: MPI_OP_CREATE(_C) with a Fortran USER_FUNCTION run from
/// Fortran and from C; Fortran file and session error handlers run for errors raised from
/// Fortran and from C.
#[test]
fn handlers() {
    build_and_run("handlers");
}

/// MPI 4.1 §11.8.2, §11.8.3: MPI_COMM_SPAWN(_MULTIPLE) from Fortran (CHARACTER ARGV arrays,
/// MPI_ARGV_NULL, MPI_ARGVS_NULL, MPI_ERRCODES_IGNORE) give MPI_ERR_SPAWN with the error codes
/// filled, as the C routines do in one process.
#[test]
fn spawn() {
    build_and_run("spawn");
}
