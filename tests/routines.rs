//! How far mpicache is from the whole MPI 4.1 C interface: every routine of the standard
//! (tests/mpi_routines.txt, written by ci/mpi_routines.py from pympistandard) compared with
//! the C entry points in src/capi. The test prints what is absent, by family, and fails only
//! when a routine of [`REQUIRED`] is missing: those that real clients found missing (issue 14)
//! and the families mpicache implements, so none of them can silently disappear. Run with
//! `--nocapture` to read the list.

#[path = "../build/signatures.rs"]
#[allow(dead_code)]
mod signatures;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Routines that must exist (MPI 4.1 section in the comment of each group).
const REQUIRED: &[&str] = &[
    // Found missing by mpi4py (issue 14 item 3).
    "MPI_Topo_test",       // §8.5.5
    "MPI_Comm_split_type", // §7.4.2
    "MPI_Type_get_envelope",
    "MPI_Type_get_envelope_c",
    "MPI_Type_get_contents",
    "MPI_Type_get_contents_c", // §5.1.13
    "MPI_Pcontrol",            // §15.2.4
    "MPI_Status_set_elements",
    "MPI_Status_set_elements_c",
    "MPI_Status_set_elements_x",
    "MPI_Status_set_cancelled",
    "MPI_Test_cancelled",
    "MPI_Get_count",
    "MPI_Get_count_c",
    "MPI_Get_elements",
    "MPI_Get_elements_c",
    "MPI_Get_elements_x", // §3.2.5, §5.1.11, §13.3
    "MPI_Status_get_source",
    "MPI_Status_set_source",
    "MPI_Status_get_tag",
    "MPI_Status_set_tag",
    "MPI_Status_get_error",
    "MPI_Status_set_error",
    "MPI_Comm_create_from_group", // §7.4.2
    "MPI_Request_get_status",
    "MPI_Request_get_status_any",
    "MPI_Request_get_status_all",
    "MPI_Request_get_status_some", // §3.7.3, §3.7.5
    "MPI_Remove_error_class",
    "MPI_Remove_error_code",
    "MPI_Remove_error_string", // §9.5
    // Point-to-point to self (§3).
    "MPI_Send",
    "MPI_Send_c",
    "MPI_Bsend",
    "MPI_Ssend",
    "MPI_Rsend",
    "MPI_Isend",
    "MPI_Isend_c",
    "MPI_Ibsend",
    "MPI_Issend",
    "MPI_Irsend",
    "MPI_Recv",
    "MPI_Recv_c",
    "MPI_Irecv",
    "MPI_Irecv_c",
    "MPI_Sendrecv",
    "MPI_Sendrecv_replace",
    "MPI_Probe",
    "MPI_Iprobe",
    "MPI_Send_init",
    "MPI_Bsend_init",
    "MPI_Ssend_init",
    "MPI_Rsend_init",
    "MPI_Recv_init",
    "MPI_Start",
    "MPI_Startall",
    "MPI_Buffer_attach",
    "MPI_Buffer_detach",
    "MPI_Cancel",
    "MPI_Wait",
    "MPI_Test",
    "MPI_Waitall",
    "MPI_Testall",
    "MPI_Waitany",
    "MPI_Testany",
    "MPI_Waitsome",
    "MPI_Testsome",
    "MPI_Request_free",
    // One-sided communication to self (§12).
    "MPI_Put",
    "MPI_Put_c",
    "MPI_Rput",
    "MPI_Rput_c",
    "MPI_Get",
    "MPI_Get_c",
    "MPI_Rget",
    "MPI_Rget_c",
    "MPI_Accumulate",
    "MPI_Accumulate_c",
    "MPI_Raccumulate",
    "MPI_Raccumulate_c",
    "MPI_Get_accumulate",
    "MPI_Get_accumulate_c",
    "MPI_Rget_accumulate",
    "MPI_Rget_accumulate_c",
    "MPI_Fetch_and_op",
    "MPI_Compare_and_swap",
    "MPI_Win_create_c",
    "MPI_Win_allocate_c",
    "MPI_Win_allocate_shared",
    "MPI_Win_allocate_shared_c",
    "MPI_Win_shared_query",
    "MPI_Win_attach",
    "MPI_Win_detach",
    "MPI_Win_fence",
    "MPI_Win_lock",
    "MPI_Win_unlock",
    "MPI_Win_lock_all",
    "MPI_Win_unlock_all",
    "MPI_Win_flush",
    "MPI_Win_flush_all",
    "MPI_Win_flush_local",
    "MPI_Win_flush_local_all",
    "MPI_Win_sync",
    "MPI_Win_post",
    "MPI_Win_start",
    "MPI_Win_complete",
    "MPI_Win_wait",
    "MPI_Win_test",
    "MPI_Win_get_info",
    "MPI_Win_set_info",
    // Large-count point-to-point and nonblocking send-receive (§3).
    "MPI_Bsend_c",
    "MPI_Ssend_c",
    "MPI_Rsend_c",
    "MPI_Ibsend_c",
    "MPI_Issend_c",
    "MPI_Irsend_c",
    "MPI_Send_init_c",
    "MPI_Bsend_init_c",
    "MPI_Ssend_init_c",
    "MPI_Rsend_init_c",
    "MPI_Recv_init_c",
    "MPI_Sendrecv_c",
    "MPI_Sendrecv_replace_c",
    "MPI_Isendrecv",
    "MPI_Isendrecv_c",
    "MPI_Isendrecv_replace",
    "MPI_Isendrecv_replace_c",
    // Intercommunicator construction (§7.6.2, the error one process gives) and §6.9.4.
    "MPI_Intercomm_create",
    "MPI_Intercomm_create_from_groups",
    "MPI_Type_get_value_index",
];

/// The family a routine belongs to, for the printed list.
fn family(name: &str) -> &'static str {
    let n = name.strip_prefix("MPI_").unwrap_or(name);
    let has = |p: &str| n.starts_with(p);
    if has("File_") || has("Register_datarep") {
        "I/O (§14)"
    } else if has("T_") {
        "tool information interface MPI_T (§15.3)"
    } else if has("Win_")
        || [
            "Put",
            "Get",
            "Accumulate",
            "Get_accumulate",
            "Fetch_and_op",
            "Compare_and_swap",
            "Rput",
            "Rget",
            "Raccumulate",
            "Rget_accumulate",
        ]
        .iter()
        .any(|r| n == *r || n.strip_suffix("_c") == Some(r))
    {
        "one-sided (§12)"
    } else if has("Session_") || has("Group_from_session") {
        "sessions (§11.3)"
    } else if has("Comm_spawn")
        || has("Open_port")
        || has("Close_port")
        || has("Comm_accept")
        || has("Comm_connect")
        || has("Publish")
        || has("Unpublish")
        || has("Lookup")
        || has("Comm_join")
        || has("Comm_get_parent")
        || has("Comm_disconnect")
    {
        "dynamic processes (§11.8)"
    } else if has("Cart")
        || has("Graph")
        || has("Dist_graph")
        || has("Neighbor")
        || has("Ineighbor")
        || has("Dims_create")
        || has("Topo")
    {
        "topologies and neighborhood collectives (§8)"
    } else if has("Intercomm") || has("Comm_remote") || has("Comm_test_inter") {
        "intercommunicators (§7.6)"
    } else if has("Pack") || has("Unpack") {
        "pack and unpack (§5.2)"
    } else if has("Psend") || has("Precv") || has("Pready") || has("Parrived") {
        "partitioned communication (§4)"
    } else if has("Grequest") {
        "generalized requests (§13.2)"
    } else if has("Type_") || has("Get_address") || has("Aint_") {
        "datatypes (§5)"
    } else if [
        "Allgather",
        "Allreduce",
        "Alltoall",
        "Barrier",
        "Bcast",
        "Exscan",
        "Gather",
        "Reduce",
        "Scan",
        "Scatter",
        "Iallgather",
        "Iallreduce",
        "Ialltoall",
        "Ibarrier",
        "Ibcast",
        "Iexscan",
        "Igather",
        "Ireduce",
        "Iscan",
        "Iscatter",
        "Op_",
        "Reduce_local",
    ]
    .iter()
    .any(|p| has(p))
    {
        "collectives and operations (§6)"
    } else if has("Comm_") || has("Group_") {
        "communicators and groups (§7)"
    } else if has("Info_") {
        "info (§10)"
    } else {
        "other"
    }
}

#[test]
fn mpi41_routines_present() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = std::fs::read_to_string(root.join("tests/mpi_routines.txt")).unwrap();
    let standard: Vec<(String, bool)> = listed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            let name = w.next().unwrap().to_owned();
            (name, w.any(|t| t == "5.0"))
        })
        .collect();
    let ours: BTreeSet<String> =
        signatures::parse_dir(&root.join("src/capi"), "crate::capi", "MPI_", &|_| true)
            .into_iter()
            .map(|s| s.name)
            .collect();
    let names: BTreeSet<&str> = standard.iter().map(|(n, _)| n.as_str()).collect();
    for r in REQUIRED {
        assert!(
            names.contains(r),
            "{r} is not an MPI routine (typo in REQUIRED?)"
        );
    }
    let upto41: Vec<&str> = standard
        .iter()
        .filter(|(_, v5)| !v5)
        .map(|(n, _)| n.as_str())
        .collect();
    let mut missing: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for n in &upto41 {
        if !ours.contains(*n) {
            missing.entry(family(n)).or_default().push(n);
        }
    }
    let absent: usize = missing.values().map(Vec::len).sum();
    println!(
        "MPI 4.1 C routines: {} of {} present, {absent} absent",
        upto41.len() - absent,
        upto41.len()
    );
    for (fam, names) in &missing {
        println!("absent, {fam} ({}): {}", names.len(), names.join(" "));
    }
    let required_missing: Vec<&&str> = REQUIRED.iter().filter(|r| !ours.contains(**r)).collect();
    assert!(
        required_missing.is_empty(),
        "required routines are missing: {required_missing:?}"
    );
}
