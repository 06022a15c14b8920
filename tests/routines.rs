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
    // Partitioned communication (§4.2), generalized requests (§13.2), f08 statuses (§19.3.5).
    "MPI_Psend_init",
    "MPI_Precv_init",
    "MPI_Pready",
    "MPI_Pready_range",
    "MPI_Pready_list",
    "MPI_Parrived",
    "MPI_Grequest_start",
    "MPI_Grequest_complete",
    "MPI_Status_f082c",
    "MPI_Status_c2f08",
    "MPI_Status_f082f",
    "MPI_Status_f2f08",
    // Matched probe and receive (§3.8.2, §3.8.3).
    "MPI_Mprobe",
    "MPI_Improbe",
    "MPI_Mrecv",
    "MPI_Mrecv_c",
    "MPI_Imrecv",
    "MPI_Imrecv_c",
    "MPI_Message_c2f",
    "MPI_Message_f2c",
    // Datatype constructors (§5.1.2–§5.1.4), large-count forms (issue 14).
    "MPI_Type_create_darray",
    "MPI_Type_create_darray_c",
    "MPI_Type_create_hindexed_block_c",
    "MPI_Type_create_indexed_block_c",
    "MPI_Type_create_subarray_c",
    "MPI_Type_create_f90_complex",
    "MPI_Type_create_f90_integer",
    "MPI_Type_create_f90_real",
    // Packing in external32 (§5.2.3, §14.5.2).
    "MPI_Pack_external",
    "MPI_Pack_external_c",
    "MPI_Unpack_external",
    "MPI_Unpack_external_c",
    "MPI_Pack_external_size",
    "MPI_Pack_external_size_c",
    // MPI-IO (§14).
    "MPI_File_c2f",
    "MPI_File_call_errhandler",
    "MPI_File_close",
    "MPI_File_create_errhandler",
    "MPI_File_delete",
    "MPI_File_f2c",
    "MPI_File_get_amode",
    "MPI_File_get_atomicity",
    "MPI_File_get_byte_offset",
    "MPI_File_get_errhandler",
    "MPI_File_get_group",
    "MPI_File_get_info",
    "MPI_File_get_position",
    "MPI_File_get_position_shared",
    "MPI_File_get_size",
    "MPI_File_get_type_extent",
    "MPI_File_get_type_extent_c",
    "MPI_File_get_view",
    "MPI_File_iread",
    "MPI_File_iread_all",
    "MPI_File_iread_all_c",
    "MPI_File_iread_at",
    "MPI_File_iread_at_all",
    "MPI_File_iread_at_all_c",
    "MPI_File_iread_at_c",
    "MPI_File_iread_c",
    "MPI_File_iread_shared",
    "MPI_File_iread_shared_c",
    "MPI_File_iwrite",
    "MPI_File_iwrite_all",
    "MPI_File_iwrite_all_c",
    "MPI_File_iwrite_at",
    "MPI_File_iwrite_at_all",
    "MPI_File_iwrite_at_all_c",
    "MPI_File_iwrite_at_c",
    "MPI_File_iwrite_c",
    "MPI_File_iwrite_shared",
    "MPI_File_iwrite_shared_c",
    "MPI_File_open",
    "MPI_File_preallocate",
    "MPI_File_read",
    "MPI_File_read_all",
    "MPI_File_read_all_begin",
    "MPI_File_read_all_begin_c",
    "MPI_File_read_all_c",
    "MPI_File_read_all_end",
    "MPI_File_read_at",
    "MPI_File_read_at_all",
    "MPI_File_read_at_all_begin",
    "MPI_File_read_at_all_begin_c",
    "MPI_File_read_at_all_c",
    "MPI_File_read_at_all_end",
    "MPI_File_read_at_c",
    "MPI_File_read_c",
    "MPI_File_read_ordered",
    "MPI_File_read_ordered_begin",
    "MPI_File_read_ordered_begin_c",
    "MPI_File_read_ordered_c",
    "MPI_File_read_ordered_end",
    "MPI_File_read_shared",
    "MPI_File_read_shared_c",
    "MPI_File_seek",
    "MPI_File_seek_shared",
    "MPI_File_set_atomicity",
    "MPI_File_set_errhandler",
    "MPI_File_set_info",
    "MPI_File_set_size",
    "MPI_File_set_view",
    "MPI_File_sync",
    "MPI_File_write",
    "MPI_File_write_all",
    "MPI_File_write_all_begin",
    "MPI_File_write_all_begin_c",
    "MPI_File_write_all_c",
    "MPI_File_write_all_end",
    "MPI_File_write_at",
    "MPI_File_write_at_all",
    "MPI_File_write_at_all_begin",
    "MPI_File_write_at_all_begin_c",
    "MPI_File_write_at_all_c",
    "MPI_File_write_at_all_end",
    "MPI_File_write_at_c",
    "MPI_File_write_c",
    "MPI_File_write_ordered",
    "MPI_File_write_ordered_begin",
    "MPI_File_write_ordered_begin_c",
    "MPI_File_write_ordered_c",
    "MPI_File_write_ordered_end",
    "MPI_File_write_shared",
    "MPI_File_write_shared_c",
    "MPI_Register_datarep",
    "MPI_Register_datarep_c",
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
    // Topologies (MPI 4.1 §8.5), issue 14 brief coll14.
    "MPI_Cart_create",
    "MPI_Cart_coords",
    "MPI_Cart_get",
    "MPI_Cart_map",
    "MPI_Cart_rank",
    "MPI_Cart_shift",
    "MPI_Cart_sub",
    "MPI_Cartdim_get",
    "MPI_Dims_create",
    "MPI_Graph_create",
    "MPI_Graph_get",
    "MPI_Graph_map",
    "MPI_Graph_neighbors",
    "MPI_Graph_neighbors_count",
    "MPI_Graphdims_get",
    "MPI_Dist_graph_create",
    "MPI_Dist_graph_create_adjacent",
    "MPI_Dist_graph_neighbors",
    "MPI_Dist_graph_neighbors_count",
    // Neighbourhood collectives (§8.6-§8.8).
    "MPI_Neighbor_allgather",
    "MPI_Neighbor_allgather_c",
    "MPI_Ineighbor_allgather",
    "MPI_Ineighbor_allgather_c",
    "MPI_Neighbor_allgather_init",
    "MPI_Neighbor_allgather_init_c",
    "MPI_Neighbor_allgatherv",
    "MPI_Neighbor_allgatherv_c",
    "MPI_Ineighbor_allgatherv",
    "MPI_Ineighbor_allgatherv_c",
    "MPI_Neighbor_allgatherv_init",
    "MPI_Neighbor_allgatherv_init_c",
    "MPI_Neighbor_alltoall",
    "MPI_Neighbor_alltoall_c",
    "MPI_Ineighbor_alltoall",
    "MPI_Ineighbor_alltoall_c",
    "MPI_Neighbor_alltoall_init",
    "MPI_Neighbor_alltoall_init_c",
    "MPI_Neighbor_alltoallv",
    "MPI_Neighbor_alltoallv_c",
    "MPI_Ineighbor_alltoallv",
    "MPI_Ineighbor_alltoallv_c",
    "MPI_Neighbor_alltoallv_init",
    "MPI_Neighbor_alltoallv_init_c",
    "MPI_Neighbor_alltoallw",
    "MPI_Neighbor_alltoallw_c",
    "MPI_Ineighbor_alltoallw",
    "MPI_Ineighbor_alltoallw_c",
    "MPI_Neighbor_alltoallw_init",
    "MPI_Neighbor_alltoallw_init_c",
    // Collectives: the _c, nonblocking _c and persistent forms (MPI 4.1 §6).
    "MPI_Allgather_c",
    "MPI_Allgatherv_c",
    "MPI_Allreduce_c",
    "MPI_Alltoall_c",
    "MPI_Alltoallv_c",
    "MPI_Alltoallw_c",
    "MPI_Bcast_c",
    "MPI_Exscan_c",
    "MPI_Gather_c",
    "MPI_Gatherv_c",
    "MPI_Iallgather_c",
    "MPI_Iallgatherv_c",
    "MPI_Iallreduce_c",
    "MPI_Ialltoall_c",
    "MPI_Ialltoallv_c",
    "MPI_Ialltoallw_c",
    "MPI_Ibcast_c",
    "MPI_Iexscan_c",
    "MPI_Igather_c",
    "MPI_Igatherv_c",
    "MPI_Ireduce_c",
    "MPI_Ireduce_scatter_block_c",
    "MPI_Ireduce_scatter_c",
    "MPI_Iscan_c",
    "MPI_Iscatter_c",
    "MPI_Iscatterv_c",
    "MPI_Reduce_c",
    "MPI_Reduce_scatter_block_c",
    "MPI_Reduce_scatter_c",
    "MPI_Scan_c",
    "MPI_Scatter_c",
    "MPI_Scatterv_c",
    "MPI_Allgather_init",
    "MPI_Allgather_init_c",
    "MPI_Allgatherv_init",
    "MPI_Allgatherv_init_c",
    "MPI_Allreduce_init",
    "MPI_Allreduce_init_c",
    "MPI_Alltoall_init",
    "MPI_Alltoall_init_c",
    "MPI_Alltoallv_init",
    "MPI_Alltoallv_init_c",
    "MPI_Alltoallw_init",
    "MPI_Alltoallw_init_c",
    "MPI_Barrier_init",
    "MPI_Bcast_init",
    "MPI_Bcast_init_c",
    "MPI_Exscan_init",
    "MPI_Exscan_init_c",
    "MPI_Gather_init",
    "MPI_Gather_init_c",
    "MPI_Gatherv_init",
    "MPI_Gatherv_init_c",
    "MPI_Reduce_init",
    "MPI_Reduce_init_c",
    "MPI_Reduce_scatter_block_init",
    "MPI_Reduce_scatter_block_init_c",
    "MPI_Reduce_scatter_init",
    "MPI_Reduce_scatter_init_c",
    "MPI_Scan_init",
    "MPI_Scan_init_c",
    "MPI_Scatter_init",
    "MPI_Scatter_init_c",
    "MPI_Scatterv_init",
    "MPI_Scatterv_init_c",
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
    // Sessions (§11.3, tests/c/session.c).
    "MPI_Group_from_session_pset",
    "MPI_Session_attach_buffer",
    "MPI_Session_attach_buffer_c",
    "MPI_Session_c2f",
    "MPI_Session_call_errhandler",
    "MPI_Session_create_errhandler",
    "MPI_Session_detach_buffer",
    "MPI_Session_detach_buffer_c",
    "MPI_Session_f2c",
    "MPI_Session_finalize",
    "MPI_Session_flush_buffer",
    "MPI_Session_get_errhandler",
    "MPI_Session_get_info",
    "MPI_Session_get_nth_pset",
    "MPI_Session_get_num_psets",
    "MPI_Session_get_pset_info",
    "MPI_Session_iflush_buffer",
    "MPI_Session_init",
    "MPI_Session_set_errhandler",
    // Dynamic processes (§11.8, tests/c/dynamic.c).
    "MPI_Comm_get_parent",
    "MPI_Open_port",
    "MPI_Close_port",
    "MPI_Publish_name",
    "MPI_Unpublish_name",
    "MPI_Lookup_name",
    "MPI_Comm_accept",
    "MPI_Comm_connect",
    "MPI_Comm_spawn",
    "MPI_Comm_spawn_multiple",
    "MPI_Comm_join",
    "MPI_Comm_disconnect",
    // The tool information interface (§15.3, tests/c/mpit.c).
    "MPI_T_category_changed",
    "MPI_T_category_get_categories",
    "MPI_T_category_get_cvars",
    "MPI_T_category_get_events",
    "MPI_T_category_get_index",
    "MPI_T_category_get_info",
    "MPI_T_category_get_num",
    "MPI_T_category_get_num_events",
    "MPI_T_category_get_pvars",
    "MPI_T_cvar_get_index",
    "MPI_T_cvar_get_info",
    "MPI_T_cvar_get_num",
    "MPI_T_cvar_handle_alloc",
    "MPI_T_cvar_handle_free",
    "MPI_T_cvar_read",
    "MPI_T_cvar_write",
    "MPI_T_enum_get_info",
    "MPI_T_enum_get_item",
    "MPI_T_event_callback_get_info",
    "MPI_T_event_callback_set_info",
    "MPI_T_event_copy",
    "MPI_T_event_get_index",
    "MPI_T_event_get_info",
    "MPI_T_event_get_num",
    "MPI_T_event_get_source",
    "MPI_T_event_get_timestamp",
    "MPI_T_event_handle_alloc",
    "MPI_T_event_handle_free",
    "MPI_T_event_handle_get_info",
    "MPI_T_event_handle_set_info",
    "MPI_T_event_read",
    "MPI_T_event_register_callback",
    "MPI_T_event_set_dropped_handler",
    "MPI_T_finalize",
    "MPI_T_init_thread",
    "MPI_T_pvar_get_index",
    "MPI_T_pvar_get_info",
    "MPI_T_pvar_get_num",
    "MPI_T_pvar_handle_alloc",
    "MPI_T_pvar_handle_free",
    "MPI_T_pvar_read",
    "MPI_T_pvar_readreset",
    "MPI_T_pvar_reset",
    "MPI_T_pvar_session_create",
    "MPI_T_pvar_session_free",
    "MPI_T_pvar_start",
    "MPI_T_pvar_stop",
    "MPI_T_pvar_write",
    "MPI_T_source_get_info",
    "MPI_T_source_get_num",
    "MPI_T_source_get_timestamp",
    // User operations and local reduction (§6.9.5, §6.9.7).
    "MPI_Op_create",
    "MPI_Op_create_c",
    "MPI_Reduce_local",
    "MPI_Reduce_local_c",
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
