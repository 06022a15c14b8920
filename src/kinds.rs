//! The kinds of MPI object: those that carry attributes ([`ObjectKind`], the caching engine's)
//! and every kind a handle can name ([`HandleKind`], the worlds'). A leaf: the one error enum
//! names both, and everything else names the error enum.

use crate::consts::*;
use std::fmt;

/// The kinds of object that carry attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    Comm,
    Datatype,
    Win,
}

impl ObjectKind {
    pub fn handle_kind(self) -> HandleKind {
        match self {
            ObjectKind::Comm => HandleKind::Comm,
            ObjectKind::Datatype => HandleKind::Datatype,
            ObjectKind::Win => HandleKind::Win,
        }
    }
}

impl fmt::Display for ObjectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.handle_kind().fmt(f)
    }
}

/// The kinds of MPI object a handle can name. How a world encodes them in its handles is the
/// world's (the single-process world: `world::handle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandleKind {
    Comm,
    Group,
    Datatype,
    Win,
    Errhandler,
    Request,
    Info,
    Op,
    Session,
    File,
    /// A matched message of `MPI_Mprobe` (MPI 4.1 §3.8.2).
    Message,
}

impl HandleKind {
    /// The error class for a bad handle of this kind.
    pub fn error_class(self) -> i32 {
        match self {
            HandleKind::Comm => MPI_ERR_COMM,
            HandleKind::Group => MPI_ERR_GROUP,
            HandleKind::Datatype => MPI_ERR_TYPE,
            HandleKind::Win => MPI_ERR_WIN,
            HandleKind::Errhandler => MPI_ERR_ERRHANDLER,
            HandleKind::Request => MPI_ERR_REQUEST,
            HandleKind::Info => MPI_ERR_INFO,
            HandleKind::Op => MPI_ERR_OP,
            HandleKind::Session => MPI_ERR_SESSION,
            HandleKind::File => MPI_ERR_FILE,
            // MPI 4.1 §3.8.2 names no class of its own for a bad message handle.
            HandleKind::Message => MPI_ERR_REQUEST,
        }
    }
}

impl fmt::Display for HandleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandleKind::Comm => "communicator",
            HandleKind::Group => "group",
            HandleKind::Datatype => "datatype",
            HandleKind::Win => "window",
            HandleKind::Errhandler => "error handler",
            HandleKind::Request => "request",
            HandleKind::Info => "info",
            HandleKind::Op => "operation",
            HandleKind::Session => "session",
            HandleKind::File => "file",
            HandleKind::Message => "message",
        })
    }
}
