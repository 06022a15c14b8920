//! The error classes of MPI 4.1 §14.7 for what the operating system says.

use crate::consts::*;
use crate::error::Error;

/// An OS error as the MPI-IO class that names it, with the OS's words and what was being done.
pub fn io_error(e: &std::io::Error, doing: &str) -> Error {
    let class = match e.raw_os_error() {
        Some(libc::ENOENT) | Some(libc::ENOTDIR) => MPI_ERR_NO_SUCH_FILE,
        Some(libc::EEXIST) => MPI_ERR_FILE_EXISTS,
        Some(libc::EACCES) | Some(libc::EPERM) => MPI_ERR_ACCESS,
        Some(libc::EROFS) => MPI_ERR_READ_ONLY,
        Some(libc::ENOSPC) | Some(libc::EFBIG) => MPI_ERR_NO_SPACE,
        Some(libc::EDQUOT) => MPI_ERR_QUOTA,
        Some(libc::ETXTBSY) | Some(libc::EBUSY) => MPI_ERR_FILE_IN_USE,
        Some(libc::ENAMETOOLONG) | Some(libc::EISDIR) | Some(libc::ELOOP) => MPI_ERR_BAD_FILE,
        Some(libc::ENOMEM) => MPI_ERR_NO_MEM,
        _ => MPI_ERR_IO,
    };
    Error::invalid(class, format!("{doing}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errno_maps_to_the_io_classes() {
        // MPI 4.1 §14.7, Table 14.4: the I/O error classes.
        for (errno, class) in [
            (libc::ENOENT, MPI_ERR_NO_SUCH_FILE),
            (libc::EEXIST, MPI_ERR_FILE_EXISTS),
            (libc::EACCES, MPI_ERR_ACCESS),
            (libc::EROFS, MPI_ERR_READ_ONLY),
            (libc::ENOSPC, MPI_ERR_NO_SPACE),
            (libc::EDQUOT, MPI_ERR_QUOTA),
            (libc::EIO, MPI_ERR_IO),
        ] {
            let e = std::io::Error::from_raw_os_error(errno);
            assert_eq!(io_error(&e, "x").class(), class, "errno {errno}");
        }
    }
}
