//! The objects the world holds (communicators, groups, datatypes, windows, info objects, error
//! handlers, requests, statuses, message queues): leaf types that `State` stores. They name no
//! operation of the world: the `impl Runtime` blocks live in the files one level up
//! (`world::comm`, ...), which name these, so the world's files import one another without a
//! cycle (tests/engine_imports.rs).

pub mod comm;
pub mod datatype;
pub mod errhandler;
pub mod file;
pub mod file_view;
pub mod grequest;
pub mod info;
pub mod op;
pub mod p2p;
pub mod partitioned;
pub mod request;
pub mod rma;
pub mod session;
pub mod status;
pub mod topo;
pub mod window;
