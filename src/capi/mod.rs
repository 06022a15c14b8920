//! The C interface: `MPI_*` entry points with fully written signatures, each body inside the
//! [`entry!`](crate::entry) boundary, plus their generated `PMPI_*` twins.
//!
//! Conventions at this boundary:
//! - a NULL output pointer is `MPI_ERR_ARG`, reported like any error;
//! - a Rust panic never unwinds into C: it becomes `MPI_ERR_INTERN`;
//! - errors go to the error handler of the communicator or window concerned, or of
//!   `MPI_COMM_SELF` for calls tied to neither (MPI 4.1 §9.3).
//!
//! Every entry point is `unsafe`: its contract is the MPI standard's for that routine (pointers
//! valid for what the standard says the routine reads or writes). It is stated once here rather
//! than on each of the several hundred functions.
#![allow(clippy::missing_safety_doc)]

pub mod attr;
pub mod buffer;
pub mod callbacks;
pub mod coll_body;
pub mod coll_c;
pub mod coll_persistent;
pub mod coll_work;
pub mod collective;
pub mod collective_more;
pub mod comm;
pub mod datatype;
pub mod datatype_c;
pub mod decode;
pub mod dynamic;
pub mod errhandler;
pub mod error_remove;
pub mod f90_types;
pub mod file;
pub mod file_data;
pub mod grequest;
pub mod handles;
pub mod info;
pub mod init;
pub mod inter;
pub mod intercomm;
pub mod memory;
pub mod mprobe;
pub mod neighbor;
pub mod neighbor_plan;
pub mod op;
pub mod op_user;
pub mod p2p;
pub mod p2p_c;
pub mod pack;
pub mod pack_external;
pub mod partitioned;
pub mod profile;
pub mod request;
pub mod rma;
pub mod rma_sync;
pub mod session;
pub mod status;
pub mod status_f08;
pub mod tool;
pub mod tool_events;
pub mod topo;
pub mod topo_args;
pub mod topo_cart;
pub mod topo_graph;
pub mod types;
pub mod value_index;
pub mod width;
pub mod win;
pub mod win_query;

/// The boundary moved to [`crate::boundary`] (both faces share it); the old path still works.
pub use crate::boundary;

/// The generated `PMPI_*` twins.
pub mod pmpi {
    include!(concat!(env!("OUT_DIR"), "/pmpi.rs"));
}
