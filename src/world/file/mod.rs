//! MPI-IO (MPI 4.1 §14) in the single-process world: files opened on a communicator of one
//! process, read and written with POSIX `pread`/`pwrite` (std's `FileExt`) through the view's
//! typemap. The faces pack and unpack memory; this module moves bytes between them and the
//! file. With one process every access is atomic and the shared file pointer is the process's
//! own, so the collective, ordered and shared forms do what the independent ones do, each on
//! its own pointer.

mod access;
mod errno;
mod manage;
mod view;

pub use access::{Access, Pointer, Split};
pub use errno::io_error;
pub use view::View;

use crate::world::handle::Handle;
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
