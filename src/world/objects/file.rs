//! Open files as the world keeps them (the operations: `world::file`).

use crate::world::handle::Handle;
use crate::world::objects::file_view::View;
use crate::world::objects::status::Status;
use std::path::PathBuf;

/// An open file.
#[derive(Debug)]
pub struct File {
    pub os: std::fs::File,
    /// Absolute path, for `MPI_MODE_DELETE_ON_CLOSE` and `MPI_File_delete`'s in-use check.
    pub path: PathBuf,
    pub amode: i32,
    /// The members of the communicator it was opened on (`MPI_File_get_group`).
    pub members: Vec<i32>,
    /// Hints given at open and by `MPI_File_set_info`/`set_view`, reported back as given.
    pub hints: Vec<(String, String)>,
    pub view: View,
    /// The individual and the shared file pointer, in etypes of the view.
    pub individual: i64,
    pub shared: i64,
    pub atomic: bool,
    pub errhandler: Handle,
    /// The split collective begun and not yet ended (MPI 4.1 §14.4.5: one at a time).
    pub split: Option<Split>,
}

/// Where an access starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pointer {
    /// An explicit offset, in etypes of the view (`_at` routines).
    Explicit(i64),
    /// The individual file pointer.
    Individual,
    /// The shared file pointer (`_shared`, `_ordered`).
    Shared,
}

/// A split collective begun (MPI 4.1 §14.4.5): which one, and how its access went.
#[derive(Debug, Clone, Copy)]
pub struct Split {
    /// The `_begin` routine, which the `_end` routine must match.
    pub begin: &'static str,
    pub status: Status,
}

/// Whether an access reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}
