//! Generates the Fortran binding (`mpi_xxx_`, gfortran's spelling) of every C entry point in
//! src/capi that has no hand-written one in src/fortran and is not in [`EXCLUDED`], from the C
//! entry point's fully written signature (MPI 4.1 §19.1–§19.3):
//!
//! - INTEGER and handle arguments are `MPI_Fint` (4 or 8 bytes), checked to fit the C `int`;
//!   MPI_Count / MPI_Aint arguments are INTEGER(KIND=MPI_COUNT_KIND / MPI_ADDRESS_KIND);
//! - LOGICAL arguments (by name: `flag`, `high`, ...) are read nonzero-true, written 1 / 0;
//! - CHARACTER inputs take their hidden length after IERROR and are blank-trimmed;
//! - statuses are INTEGER(MPI_STATUS_SIZE) with MPI_STATUS(ES)_IGNORE recognised;
//! - choice buffers pass through with MPI_BOTTOM / MPI_IN_PLACE mapped to the C values;
//! - arrays are converted element by element, their lengths given by [`array_len`];
//! - indices returned by the `any`/`some` routines are 1-based.
//!
//! A parameter this generator does not know fails the build (panic), so a new C routine either
//! gets a binding or an entry in [`EXCLUDED`] with its reason. The generated routines are
//! described to build/fortran_gen.rs as ordinary Fortran entry points (their Fortran types as
//! the aliases of src/fortran/mod.rs), so they get the other spellings, PMPI forms, and the
//! explicit interfaces of the `mpi` and `mpi_f08` modules like the hand-written ones.

use super::signatures::{self, Signature};
use std::path::Path;

/// C entry points that get no generated Fortran binding, each with its reason.
pub const EXCLUDED: [(&str, &str); 17] = [
    (
        "MPI_Status_c2f",
        "status conversion, C only (MPI 4.1 §19.3.5)",
    ),
    (
        "MPI_Status_f2c",
        "status conversion, C only (MPI 4.1 §19.3.5)",
    ),
    (
        "MPI_Status_c2f08",
        "status conversion, C only (MPI 4.1 §19.3.5)",
    ),
    (
        "MPI_Status_f082c",
        "status conversion, C only (MPI 4.1 §19.3.5)",
    ),
    ("_c2f", "handle conversion, C only (MPI 4.1 §19.3.4)"),
    ("_f2c", "handle conversion, C only (MPI 4.1 §19.3.4)"),
    ("_toint", "MPI 5.0 ABI integer conversion, C only"),
    ("_fromint", "MPI 5.0 ABI integer conversion, C only"),
    (
        "MPI_Aint_add",
        "a function with an INTEGER(KIND=MPI_ADDRESS_KIND) result: hand-written in src/fortran",
    ),
    (
        "MPI_Aint_diff",
        "a function with an INTEGER(KIND=MPI_ADDRESS_KIND) result: hand-written in src/fortran",
    ),
    (
        "MPI_Info_create_env",
        "the Fortran binding has no argc/argv (MPI 4.1 §11.4.4): hand-written in src/fortran",
    ),
    (
        "MPI_Pcontrol",
        "variadic in C, no IERROR in Fortran (MPI 4.1 §15.2.4): hand-written in src/fortran",
    ),
    (
        "MPI_T_",
        "the tool information interface has no Fortran binding (MPI 4.1 §15.3)",
    ),
    (
        "*register_datarep",
        "procedure arguments (§14.5.3): needs a hand-written binding",
    ),
    (
        "*_create_keyval",
        "procedure arguments (copy/delete callbacks, §7.7.2): hand-written",
    ),
    (
        "MPI_Wtime",
        "a DOUBLE PRECISION function without IERROR: hand-written in src/fortran",
    ),
    (
        "MPI_Wtick",
        "a DOUBLE PRECISION function without IERROR: hand-written in src/fortran",
    ),
];

/// The reason a C routine gets no generated binding, if it is excluded.
pub fn exclusion(c_name: &str) -> Option<&'static str> {
    EXCLUDED.iter().find_map(|(pat, why)| {
        let hit = if let Some(p) = pat.strip_prefix('*') {
            // `*x`: the lower-case name contains x (with its large-count, nonblocking and
            // persistent forms).
            c_name.to_ascii_lowercase().contains(p)
        } else if pat == &"MPI_Comm_spawn" {
            c_name.starts_with(pat)
        } else if let Some(p) = pat.strip_prefix('_') {
            c_name.ends_with(&format!("_{p}"))
        } else if pat.ends_with('_') {
            c_name.starts_with(pat)
        } else {
            c_name == *pat
        };
        hit.then_some(*why)
    })
}

/// Parameters that are LOGICAL in Fortran (scalars and arrays).
const LOGICAL_NAMES: [&str; 7] = [
    "flag",
    "weighted",
    "commute",
    "high",
    "reorder",
    "periods",
    "remain_dims",
];

/// Parameters the C routine reads and writes (INTENT(INOUT)).
pub fn is_inout(stem: &str, name: &str) -> bool {
    let releases = ["_free", "_close", "_finalize", "_disconnect"]
        .iter()
        .any(|x| stem.ends_with(x));
    matches!(name, "position" | "array_of_requests")
        || (name == "status" && stem.starts_with("mpi_status_set_"))
        || (name == "request" && matches!(stem, "mpi_start" | "mpi_request_free"))
        || (name == "dims" && stem == "mpi_dims_create")
        || (name == "message"
            && matches!(
                stem,
                "mpi_mrecv" | "mpi_imrecv" | "mpi_mrecv_c" | "mpi_imrecv_c"
            ))
        || (releases && !name.starts_with("ierror"))
}

/// INTEGER outputs whose names look plural but are scalars.
const SCALAR_PLURALS: [&str; 13] = [
    "status",
    "ndims",
    "nnodes",
    "nedges",
    "nneighbors",
    "num_integers",
    "num_addresses",
    "num_datatypes",
    "num_large_counts",
    "errorclass",
    "npset_names",
    "nkeys",
    "weighted",
];

/// Parameters the C routine takes by `*mut` but only reads (INTENT(IN) in Fortran).
fn is_read_only(stem: &str, name: &str) -> bool {
    (name == "request" && stem == "mpi_cancel")
        || (name == "status" && stem.starts_with("mpi_status_get_"))
        || (name == "base" && stem == "mpi_win_attach")
}

/// The number of elements of an array parameter, as a Rust expression over the converted
/// scalars (`NAME_c`), or `None` when the parameter is a scalar.
fn array_len(stem: &str, params: &[(String, String)], name: &str) -> Option<String> {
    let has = |n: &str| params.iter().any(|(p, _)| p == n);
    // The neighbourhood collectives' arrays follow the topology's degrees (MPI 4.1 §8.6).
    let neighbor = stem.contains("neighbor_");
    let count = || {
        if has("count") {
            "len(count_c)".to_owned()
        } else {
            "len(incount_c)".to_owned()
        }
    };
    Some(match name {
        "array_of_requests" | "array_of_statuses" | "array_of_indices" => count(),
        "array_of_blocklengths" | "array_of_displacements" | "array_of_types" => count(),
        "array_of_integers" => "len(max_integers_c)".into(),
        "array_of_addresses" => "len(max_addresses_c)".into(),
        "array_of_datatypes" => "len(max_datatypes_c)".into(),
        "array_of_large_counts" => "len(max_large_counts_c)".into(),
        "sendcounts" | "sdispls" | "sendtypes" if neighbor => "out_degree(comm_c)".into(),
        "recvcounts" | "displs" | "rdispls" | "recvtypes" if neighbor => "in_degree(comm_c)".into(),
        "sendcounts" | "recvcounts" | "displs" | "sdispls" | "rdispls" | "sendtypes"
        | "recvtypes" => "span(comm_c)".into(),
        // MPI 4.1 §8.5.5, §8.5.7: as long as the communicator's Cartesian dimension.
        "coords" if stem == "mpi_cart_rank" => "cart_ndims(comm_c)".into(),
        "remain_dims" => "cart_ndims(comm_c)".into(),
        // MPI 4.1 §5.1.4: MPI_TYPE_CREATE_DARRAY's arrays have NDIMS entries.
        "array_of_gsizes" | "array_of_distribs" | "array_of_dargs" | "array_of_psizes" => {
            "len(ndims_c)".into()
        }
        // MPI 4.1 §8.5.3: INDEX has NNODES entries, EDGES as many as INDEX(NNODES) says.
        "index" if has("nnodes") => "len(nnodes_c)".into(),
        "edges" if has("nnodes") => "edge_count(&index_c)".into(),
        "index" if has("maxindex") => "len(maxindex_c)".into(),
        "edges" if has("maxedges") => "len(maxedges_c)".into(),
        "neighbors" if has("maxneighbors") => "len(maxneighbors_c)".into(),
        // MPI 4.1 §8.5.4: the distributed graph's arrays.
        "sources" | "sourceweights" if has("indegree") => "len(indegree_c)".into(),
        "destinations" | "destweights" if has("outdegree") => "len(outdegree_c)".into(),
        "sources" | "sourceweights" if has("maxindegree") => "len(maxindegree_c)".into(),
        "destinations" | "destweights" if has("maxoutdegree") => "len(maxoutdegree_c)".into(),
        "sources" | "degrees" if has("degrees") => "len(n_c)".into(),
        "destinations" | "weights" if has("degrees") => "degree_sum(&degrees_c)".into(),
        "dims" | "periods" if has("ndims") => "len(ndims_c)".into(),
        "dims" | "periods" | "coords" if has("maxdims") => "len(maxdims_c)".into(),
        "ranks" | "ranks1" | "ranks2" if has("n") => "len(n_c)".into(),
        "array_of_partitions" if has("length") => "len(length_c)".into(),
        "array_of_errcodes" if has("maxprocs") => "len(maxprocs_c)".into(),
        _ => return None,
    })
}

/// The MPI error class for a value of C type `ty` named `name` that does not fit.
fn class_of(ty: &str, name: &str) -> &'static str {
    match ty {
        "MPI_Comm" => "MPI_ERR_COMM",
        "MPI_Datatype" => "MPI_ERR_TYPE",
        "MPI_Group" => "MPI_ERR_GROUP",
        "MPI_Info" => "MPI_ERR_INFO",
        "MPI_Op" => "MPI_ERR_OP",
        "MPI_Request" => "MPI_ERR_REQUEST",
        "MPI_Win" => "MPI_ERR_WIN",
        "MPI_File" => "MPI_ERR_FILE",
        "MPI_Session" => "MPI_ERR_SESSION",
        _ if name.contains("count") => "MPI_ERR_COUNT",
        _ if matches!(name, "dest" | "source" | "rank") => "MPI_ERR_RANK",
        _ if name == "root" => "MPI_ERR_ROOT",
        _ if name.ends_with("tag") => "MPI_ERR_TAG",
        _ => "MPI_ERR_ARG",
    }
}

/// The Fortran alias (src/fortran/mod.rs) of an INTEGER-sized C type: handles keep their kind so
/// that the `mpi_f08` interfaces get `TYPE(MPI_Comm)` & co.
fn int_alias(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "c_int" => "MPI_Fint",
        "MPI_Comm" => "MPI_Fcomm",
        "MPI_Datatype" => "MPI_Fdatatype",
        "MPI_Group" => "MPI_Fgroup",
        "MPI_Info" => "MPI_Finfo",
        "MPI_Op" => "MPI_Fop",
        "MPI_Request" => "MPI_Frequest",
        "MPI_Win" => "MPI_Fwin",
        "MPI_Errhandler" => "MPI_Ferrhandler",
        "MPI_Message" => "MPI_Fmessage",
        "MPI_File" => "MPI_Ffile",
        "MPI_Session" => "MPI_Fsession",
        _ => return None,
    })
}

/// One generated routine: its Fortran signature (for build/fortran_gen.rs) and its Rust source.
pub struct Binding {
    pub entry: Signature,
    pub source: String,
}

/// `MPI_Comm_get_info` -> `mpi_comm_get_info`.
fn stem_of(c_name: &str) -> String {
    c_name.to_ascii_lowercase()
}

/// The binding of one C routine; panics on a parameter pattern it does not know.
pub fn bind(c: &Signature) -> Binding {
    let stem = stem_of(&c.name);
    let upper = c.name.to_ascii_uppercase();
    assert!(
        c.ret == "c_int",
        "build/fortran_bind.rs: {} returns `{}`: add it to EXCLUDED with its reason or teach the generator",
        c.name,
        c.ret
    );
    let mut fparams: Vec<(String, String)> = Vec::new();
    let mut hidden: Vec<(String, String)> = Vec::new();
    let mut nonnull: Vec<String> = Vec::new();
    let mut scalars = String::new();
    let mut arrays = String::new();
    let mut args: Vec<String> = Vec::new();
    let mut after = String::new();
    let unknown = |n: &str, t: &str| -> ! {
        panic!(
            "build/fortran_bind.rs: {}: parameter `{n}: {t}` is a pattern the Fortran generator \
             does not know: teach it, or add the routine to EXCLUDED with its reason",
            c.name
        )
    };
    for (n, t) in &c.params {
        let t = t.replace(' ', "");
        let is_const = t.starts_with("*const");
        let base = t
            .trim_start_matches("*const")
            .trim_start_matches("*mut")
            .to_owned();
        let is_ptr = t.starts_with('*');
        let logical = LOGICAL_NAMES.contains(&n.as_str());
        let len = array_len(&stem, &c.params, n);
        let inout = is_inout(&stem, n);
        let read_only = is_ptr && (is_const || is_read_only(&stem, n));
        let ptr = |alias: &str| {
            if read_only {
                format!("*const {alias}")
            } else {
                format!("*mut {alias}")
            }
        };
        if !is_ptr {
            // A value argument: passed by reference from Fortran.
            match base.as_str() {
                "MPI_Count" => {
                    fparams.push((n.clone(), "*const MPI_Fcount".into()));
                    nonnull.push(n.clone());
                    scalars.push_str(&format!("        let {n}_c = unsafe {{ *{n} }};\n"));
                    args.push(format!("{n}_c"));
                }
                "MPI_Offset" => {
                    fparams.push((n.clone(), "*const MPI_Foffset".into()));
                    nonnull.push(n.clone());
                    scalars.push_str(&format!("        let {n}_c = unsafe {{ *{n} }};\n"));
                    args.push(format!("{n}_c"));
                }
                "MPI_Aint" => {
                    fparams.push((n.clone(), "*const MPI_Aint".into()));
                    nonnull.push(n.clone());
                    scalars.push_str(&format!("        let {n}_c = unsafe {{ *{n} }};\n"));
                    args.push(format!("{n}_c"));
                }
                b => {
                    let Some(alias) = int_alias(b) else {
                        unknown(n, &t)
                    };
                    let alias = if logical { "MPI_Flogical" } else { alias };
                    fparams.push((n.clone(), format!("*const {alias}")));
                    nonnull.push(n.clone());
                    if logical {
                        scalars.push_str(&format!(
                            "        let {n}_c: c_int = c_int::from(unsafe {{ *{n} }} != 0);\n"
                        ));
                    } else {
                        scalars.push_str(&format!(
                            "        let {n}_c = unsafe {{ read_narrow({n}, {}, \"{n}\") }}?;\n",
                            class_of(b, n)
                        ));
                    }
                    args.push(format!("{n}_c"));
                }
            }
            continue;
        }
        match base.as_str() {
            "c_void" if matches!(n.as_str(), "baseptr" | "buffer_addr") => {
                // An address output: INTEGER(KIND=MPI_ADDRESS_KIND) (TYPE(C_PTR) in mpi_f08).
                fparams.push((n.clone(), "*mut MPI_Aint".into()));
                nonnull.push(n.clone());
                args.push(format!("{n}.cast::<c_void>()"));
            }
            "c_void" => {
                fparams.push((n.clone(), ptr("c_void")));
                if read_only {
                    args.push(format!("choice({n}).cast_mut()"));
                } else {
                    args.push(format!("choice_mut({n})"));
                }
            }
            "c_char" if is_const => {
                fparams.push((n.clone(), "*const c_char".into()));
                hidden.push((format!("{n}_len"), "usize".into()));
                nonnull.push(n.clone());
                scalars.push_str(&format!(
                    "        let {n}_c = unsafe {{ string_in({n}, {n}_len, \"{n}\") }}?;\n"
                ));
                args.push(format!("{n}_c.as_ptr()"));
            }
            "MPI_Offset" if len.is_none() => {
                fparams.push((n.clone(), ptr("MPI_Foffset")));
                nonnull.push(n.clone());
                args.push(n.clone());
            }
            "c_char" => {
                // A CHARACTER output: the C routine writes at most its MPI_MAX_* bound (the
                // largest is MPI_MAX_LIBRARY_VERSION_STRING), NUL-terminated; Fortran gets it
                // blank-padded to the variable's length (§19.1.9).
                fparams.push((n.clone(), "*mut c_char".into()));
                hidden.push((format!("{n}_len"), "usize".into()));
                nonnull.push(n.clone());
                arrays.push_str(&format!(
                    "        let mut {n}_c = vec![0 as c_char; {n}_len.max(MPI_MAX_LIBRARY_VERSION_STRING as usize) + 1];\n"
                ));
                args.push(format!("{n}_c.as_mut_ptr()"));
                after.push_str(&format!(
                    "            unsafe {{ string_out({n}, {n}_len, &{n}_c) }};\n"
                ));
            }
            "MPI_Count" | "MPI_Aint" => {
                // The same integers in Fortran: passed through (arrays too).
                let alias = if base == "MPI_Count" {
                    if len.is_some() {
                        "MPI_Fcount_array"
                    } else {
                        "MPI_Fcount"
                    }
                } else if len.is_some() {
                    "MPI_Faint_array"
                } else {
                    "MPI_Aint"
                };
                fparams.push((n.clone(), ptr(alias)));
                nonnull.push(n.clone());
                args.push(n.clone());
            }
            "MPI_Status" => {
                // An output status may be NULL from C (MPI_STATUS_IGNORE there).
                if read_only || inout || is_const {
                    nonnull.push(n.clone());
                }
                if let Some(l) = len {
                    if read_only {
                        unknown(n, &t)
                    }
                    fparams.push((n.clone(), "*mut MPI_Fstatus_array".into()));
                    arrays.push_str(&format!(
                        "        let mut {n}_c = vec![status_zero(); {l}];\n"
                    ));
                    args.push(format!(
                        "if status_ignored({n}) {{ std::ptr::null_mut() }} else {{ {n}_c.as_mut_ptr() }}"
                    ));
                    after.push_str(&format!(
                        "            unsafe {{ statuses_out({n}, &{n}_c) }};\n"
                    ));
                } else {
                    fparams.push((n.clone(), ptr("MPI_Fstatus")));
                    let read = read_only || inout;
                    if read {
                        scalars.push_str(&format!(
                            "        let mut {n}_c = unsafe {{ status_in({n}) }};\n"
                        ));
                    } else {
                        scalars.push_str(&format!("        let mut {n}_c = status_zero();\n"));
                    }
                    if is_const {
                        args.push(format!("&{n}_c"));
                    } else if read_only || inout {
                        args.push(format!("&mut {n}_c"));
                    } else {
                        args.push(format!(
                            "if status_ignored({n}) {{ std::ptr::null_mut() }} else {{ &mut {n}_c }}"
                        ));
                    }
                    if !read_only && !is_const {
                        after.push_str(&format!(
                            "            unsafe {{ status_out({n}, &{n}_c) }};\n"
                        ));
                    }
                }
            }
            b if int_alias(b).is_some() => {
                let alias = int_alias(b).unwrap();
                nonnull.push(n.clone());
                let class = class_of(b, n);
                // 1-based indices of the `any`/`some` routines (a graph's INDEX is no index).
                let index = (n == "index" && !stem.contains("graph")) || n == "array_of_indices";
                let weights = matches!(n.as_str(), "sourceweights" | "destweights" | "weights");
                if weights {
                    // MPI 4.1 §8.5.4: MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY, recognised by address.
                    let Some(l) = len else { unknown(n, &t) };
                    fparams.push((n.clone(), ptr("MPI_Farray")));
                    arrays.push_str(&format!(
                        "        let mut {n}_c = unsafe {{ weights_arg({n}, {l}, {}) }}?;\n",
                        is_const
                    ));
                    args.push(format!("{n}_c.as_mut_ptr()"));
                    if !is_const {
                        after.push_str(&format!(
                            "            unsafe {{ {n}_c.write_back({n}, dist_weighted(comm_c)) }};\n"
                        ));
                    }
                    continue;
                }
                if let Some(l) = len {
                    let a = if logical {
                        "MPI_Flogical_array".to_owned()
                    } else {
                        format!("{alias}_array")
                    };
                    let a = if a == "MPI_Fint_array" {
                        "MPI_Farray".to_owned()
                    } else {
                        a
                    };
                    fparams.push((n.clone(), ptr(&a)));
                    let read = read_only || inout;
                    if read {
                        if logical {
                            arrays.push_str(&format!(
                                "        let mut {n}_c = unsafe {{ logicals_in({n}, {l}) }};\n"
                            ));
                        } else {
                            arrays.push_str(&format!(
                                "        let mut {n}_c = unsafe {{ ints_in({n}, {l}, {class}, \"{n}\") }}?;\n"
                            ));
                        }
                    } else {
                        arrays.push_str(&format!(
                            "        let mut {n}_c: Vec<c_int> = vec![0; {l}];\n"
                        ));
                    }
                    if read_only {
                        args.push(format!("{n}_c.as_mut_ptr()"));
                    } else {
                        args.push(format!("{n}_c.as_mut_ptr()"));
                        if index {
                            after.push_str(&format!(
                                "            for i in {n}_c.iter_mut() {{ *i = index_out(*i); }}\n"
                            ));
                        }
                        if logical {
                            after.push_str(&format!(
                                "            unsafe {{ logicals_out({n}, &{n}_c) }};\n"
                            ));
                        } else {
                            after.push_str(&format!(
                                "            unsafe {{ ints_out({n}, &{n}_c) }};\n"
                            ));
                        }
                    }
                } else {
                    // C passes input scalars by value: a `*const` INTEGER is an array, and a
                    // plural name most likely one too; without a known length it is unsafe to
                    // bind.
                    let plural = n.starts_with("array_of_")
                        || (n.ends_with('s') && !SCALAR_PLURALS.contains(&n.as_str()));
                    if is_const || plural {
                        unknown(n, &t)
                    }
                    let alias = if logical { "MPI_Flogical" } else { alias };
                    fparams.push((n.clone(), ptr(alias)));
                    if read_only || inout {
                        if logical {
                            scalars.push_str(&format!(
                                "        let mut {n}_c: c_int = c_int::from(unsafe {{ *{n} }} != 0);\n"
                            ));
                        } else {
                            scalars.push_str(&format!(
                                "        let mut {n}_c = unsafe {{ read_narrow({n}, {class}, \"{n}\") }}?;\n"
                            ));
                        }
                    } else {
                        scalars.push_str(&format!("        let mut {n}_c: c_int = 0;\n"));
                    }
                    args.push(format!("&mut {n}_c"));
                    if !read_only {
                        let v = if index {
                            format!("index_out({n}_c)")
                        } else {
                            format!("{n}_c")
                        };
                        if logical {
                            after.push_str(&format!(
                                "            unsafe {{ *{n} = logical({v} != 0) }};\n"
                            ));
                        } else {
                            after
                                .push_str(&format!("            unsafe {{ *{n} = fint({v}) }};\n"));
                        }
                    }
                }
            }
            _ => unknown(n, &t),
        }
    }
    fparams.push(("ierror".into(), "*mut MPI_Fint".into()));
    let mut all = fparams.clone();
    all.extend(hidden.iter().cloned());
    let mut s = String::new();
    s.push_str(&format!(
        "/// `{upper}`: the Fortran binding of `{cname}`, generated by build/fortran_bind.rs.\n",
        cname = c.name
    ));
    s.push_str("#[no_mangle]\n");
    let sig: Vec<String> = all.iter().map(|(n, t)| format!("{n}: {t}")).collect();
    s.push_str(&format!(
        "pub unsafe extern \"C\" fn {stem}_({}) {{\n",
        sig.join(", ")
    ));
    s.push_str("    let mut rc: c_int = MPI_SUCCESS;\n");
    // A conversion failure goes to the handler of the call's communicator or window, as the
    // C routine's own errors do (MPI 4.1 §9.3).
    let object = |n: &str, t: &str| c.params.iter().any(|(p, ty)| p == n && ty.trim() == t);
    let scope = if object("comm", "MPI_Comm") {
        "Scope::Comm(scope_handle(unsafe { by_ref(comm, MPI_COMM_NULL) }, MPI_COMM_NULL))"
    } else if object("win", "MPI_Win") {
        "Scope::Win(scope_handle(unsafe { by_ref(win, MPI_WIN_NULL) }, MPI_WIN_NULL))"
    } else {
        "Scope::NoObject"
    };
    if scope != "Scope::NoObject" {
        s.push_str("    // SAFETY: NULL or the caller's INTEGER (fortran/mod.rs contract).\n");
    }
    s.push_str(&format!(
        "    let own = crate::entry!(\"{upper}\", {scope}, {{\n"
    ));
    if !nonnull.is_empty() {
        s.push_str(&format!("        nonnull!({});\n", nonnull.join(", ")));
    }
    s.push_str(
        "        // SAFETY: every pointer is the caller's argument of the type its name says, checked\n        // non-NULL above (fortran/mod.rs contract); arrays have the lengths MPI gives them.\n",
    );
    s.push_str(&scalars);
    s.push_str(&arrays);
    s.push_str(&format!(
        "        rc = unsafe {{ {}::{}({}) }};\n",
        c.module,
        c.name,
        args.join(", ")
    ));
    if !after.is_empty() {
        s.push_str("        if outputs_valid(rc) {\n");
        s.push_str(&after);
        s.push_str("        }\n");
    }
    s.push_str("        Ok(())\n    });\n");
    s.push_str("    // SAFETY: IERROR is NULL or the caller's INTEGER.\n");
    s.push_str("    unsafe { set_ierror(ierror, own, rc) };\n}\n\n");
    Binding {
        entry: Signature {
            module: "crate::fortran::generated".into(),
            name: format!("{stem}_"),
            params: all,
            ret: String::new(),
            is_unsafe: true,
        },
        source: s,
    }
}

/// The C entry points of src/capi.
pub fn c_routines(root: &Path) -> Vec<Signature> {
    signatures::parse_dir(&root.join("src/capi"), "crate::capi", "MPI_", &is_routine)
}

/// Whether `name` is an MPI routine (`MPI_Comm_dup`), not a predefined callback
/// (`MPI_COMM_DUP_FN`): the same rule as build/pmpi_gen.rs.
fn is_routine(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("MPI_") else {
        return false;
    };
    let mut chars = rest.chars();
    matches!((chars.next(), chars.next()), (Some(a), Some(b)) if a.is_ascii_uppercase() && (b.is_ascii_lowercase() || b == '_'))
        && rest.chars().any(|c| c.is_ascii_lowercase())
}

/// The stems (`mpi_send`) of the hand-written Fortran routines in src/fortran.
pub fn hand_written(root: &Path) -> Vec<String> {
    signatures::parse_dir(&root.join("src/fortran"), "crate::fortran", "mpi_", &|n| {
        n.ends_with('_') && !n.ends_with("__")
    })
    .into_iter()
    .map(|e| e.name.trim_end_matches('_').to_owned())
    .collect()
}

/// The bindings to generate: every C routine without a hand-written binding or an exclusion.
pub fn bindings(root: &Path) -> Vec<Binding> {
    let hand = hand_written(root);
    c_routines(root)
        .iter()
        .filter(|c| exclusion(&c.name).is_none() && !hand.contains(&stem_of(&c.name)))
        .map(bind)
        .collect()
}

/// The C routines without any Fortran binding (hand-written or generated), with the reason.
pub fn without_binding(root: &Path) -> Vec<(String, &'static str)> {
    let hand = hand_written(root);
    c_routines(root)
        .iter()
        .filter(|c| !hand.contains(&stem_of(&c.name)))
        .filter_map(|c| exclusion(&c.name).map(|why| (c.name.clone(), why)))
        .collect()
}

/// The Rust source of src/fortran/generated.rs's included file.
pub fn render(bindings: &[Binding]) -> String {
    let mut s = String::from(
        "// Generated by build/fortran_bind.rs from src/capi: do not edit.\n\
         use crate::boundary::Scope;\nuse crate::consts::*;\nuse crate::fortran::bind::*;\n\
         use crate::fortran::sentinels::{choice, choice_mut, status_ignored};\n\
         use crate::fortran::*;\nuse crate::nonnull;\nuse std::ffi::{c_char, c_int, c_void};\n\n",
    );
    for b in bindings {
        s.push_str(&with_safety_lines(&b.source));
    }
    s
}

/// Puts a `// SAFETY:` line before every `unsafe` block that has none (clippy's
/// undocumented_unsafe_blocks wants one per block; the reason is the function's contract,
/// stated once in full at the top of its body).
fn with_safety_lines(source: &str) -> String {
    let mut out = String::new();
    let mut previous = "";
    for line in source.lines() {
        if line.contains("unsafe {") && !previous.trim_start().starts_with("//") {
            let indent = &line[..line.len() - line.trim_start().len()];
            out.push_str(indent);
            out.push_str(
                "// SAFETY: as stated above: the caller's arguments (fortran/mod.rs contract), checked non-NULL.\n",
            );
        }
        out.push_str(line);
        out.push('\n');
        previous = line;
    }
    out
}
