//! MPI-IO (MPI 4.1 §14) in the single-process world: files opened on a communicator of one
//! process, read and written with POSIX `pread`/`pwrite` (std's `FileExt`) through the view's
//! typemap. The faces pack and unpack memory; this module moves bytes between them and the
//! file. With one process every access is atomic and the shared file pointer is the process's
//! own, so the collective, ordered and shared forms do what the independent ones do, each on
//! its own pointer.

mod access;
mod errno;
mod manage;

pub use crate::world::objects::file::{Access, File, Pointer, Split};
pub use crate::world::objects::file_view::View;
pub use errno::io_error;
