//! Data access (MPI 4.1 §14.4): reads and writes at an explicit offset, at the individual file
//! pointer or at the shared one, each moving whole etypes through the view; seek and position;
//! the split collectives' one-at-a-time rule.

use super::manage::{check_writable, file_size, split_pending};
use super::{io_error, Access, File, Pointer, Split};
use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
use crate::world::request::Request;
use crate::world::runtime::Runtime;
use crate::world::status::Status;
use std::os::unix::fs::FileExt;

/// The status of an access of `bytes` bytes.
fn done(bytes: i64) -> Status {
    Status {
        bytes,
        ..Status::EMPTY
    }
}

/// The checks every access makes, and where it starts (in etypes).
fn start(f: &File, ptr: Pointer, access: Access, bytes: i64, what: &str) -> Result<i64> {
    match access {
        Access::Write => check_writable(f, what)?,
        Access::Read if f.amode & MPI_MODE_WRONLY != 0 => {
            return Err(Error::invalid(
                MPI_ERR_ACCESS,
                format!("{what}: the file was opened MPI_MODE_WRONLY"),
            ))
        }
        Access::Read => {}
    }
    if f.amode & MPI_MODE_SEQUENTIAL != 0 && ptr != Pointer::Shared {
        return Err(Error::invalid(
            MPI_ERR_UNSUPPORTED_OPERATION,
            format!("{what}: a file opened MPI_MODE_SEQUENTIAL is accessed through the shared file pointer only"),
        ));
    }
    if bytes % f.view.etype_size != 0 {
        return Err(Error::invalid(
            MPI_ERR_TYPE,
            format!(
                "{what}: {bytes} bytes of data are not a whole number of etypes of {} bytes",
                f.view.etype_size
            ),
        ));
    }
    let at = match ptr {
        Pointer::Explicit(o) => o,
        Pointer::Individual => f.individual,
        Pointer::Shared => f.shared,
    };
    if at < 0 {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("{what}: offset {at} is negative"),
        ));
    }
    Ok(at)
}

/// Moves the pointer an access used past the etypes it moved.
fn advance(f: &mut File, ptr: Pointer, at: i64, bytes: i64) {
    let to = at + bytes / f.view.etype_size;
    match ptr {
        Pointer::Explicit(_) => {}
        Pointer::Individual => f.individual = to,
        Pointer::Shared => f.shared = to,
    }
}

impl Runtime {
    /// Writes `data` (the memory side, packed by the face) through the view.
    pub fn file_write(&self, h: Handle, ptr: Pointer, data: &[u8], what: &str) -> Result<Status> {
        self.with_file(h, |f| {
            let n = data.len() as i64;
            let at = start(f, ptr, Access::Write, n, what)?;
            let mut from = 0usize;
            for (off, len) in f.view.pieces(at * f.view.etype_size, n) {
                let len = len as usize;
                f.os.write_all_at(&data[from..from + len], off as u64)
                    .map_err(|e| io_error(&e, what))?;
                from += len;
            }
            advance(f, ptr, at, n);
            Ok(done(n))
        })
    }

    /// Reads up to `n` bytes through the view; fewer at the end of the file.
    pub fn file_read(
        &self,
        h: Handle,
        ptr: Pointer,
        n: i64,
        what: &str,
    ) -> Result<(Vec<u8>, Status)> {
        self.with_file(h, |f| {
            let at = start(f, ptr, Access::Read, n, what)?;
            let mut data = Vec::new();
            data.try_reserve_exact(n as usize)
                .map_err(|_| Error::NoMemory {
                    what: "file data",
                    bytes: n as usize,
                })?;
            data.resize(n as usize, 0u8);
            let mut got = 0usize;
            'pieces: for (off, len) in f.view.pieces(at * f.view.etype_size, n) {
                let mut done_here = 0usize;
                while done_here < len as usize {
                    let buf = &mut data[got..got + len as usize - done_here];
                    match f.os.read_at(buf, (off as u64) + done_here as u64) {
                        Ok(0) => break 'pieces,
                        Ok(k) => {
                            done_here += k;
                            got += k;
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(io_error(&e, what)),
                    }
                }
            }
            data.truncate(got);
            advance(f, ptr, at, got as i64);
            Ok((data, done(got as i64)))
        })
    }

    /// A nonblocking access's request: the access is done when it starts, so the request is
    /// complete and waiting returns its status.
    pub fn file_request(&self, status: Status) -> Result<Handle> {
        self.active()?.requests.insert(Request::Done(status))
    }

    /// Checks that no split collective is outstanding (before a `_begin` runs its access).
    pub fn file_split_check(&self, h: Handle) -> Result<()> {
        self.with_file(h, |f| match f.split {
            Some(_) => Err(split_pending()),
            None => Ok(()),
        })
    }

    /// Records a `_begin`'s access until its `_end`.
    pub fn file_split_begin(&self, h: Handle, begin: &'static str, status: Status) -> Result<()> {
        self.with_file(h, |f| {
            if f.split.is_some() {
                return Err(split_pending());
            }
            f.split = Some(Split { begin, status });
            Ok(())
        })
    }

    /// A `_end`: the matching `_begin`'s status.
    pub fn file_split_end(&self, h: Handle, begin: &'static str, end: &str) -> Result<Status> {
        self.with_file(h, |f| match f.split {
            Some(s) if s.begin == begin => {
                f.split = None;
                Ok(s.status)
            }
            Some(s) => Err(Error::invalid(
                MPI_ERR_OTHER,
                format!("{end} does not end the outstanding {}", s.begin),
            )),
            None => Err(Error::invalid(
                MPI_ERR_OTHER,
                format!("{end} with no {begin} outstanding"),
            )),
        })
    }

    /// `MPI_File_seek`, `MPI_File_seek_shared` (MPI 4.1 §14.4.3, §14.4.4).
    pub fn file_seek(&self, h: Handle, offset: i64, whence: i32, shared: bool) -> Result<()> {
        self.with_file(h, |f| {
            if !shared && f.amode & MPI_MODE_SEQUENTIAL != 0 {
                return Err(Error::invalid(
                    MPI_ERR_UNSUPPORTED_OPERATION,
                    "MPI_File_seek on a file opened MPI_MODE_SEQUENTIAL",
                ));
            }
            let cur = if shared { f.shared } else { f.individual };
            let base = match whence {
                MPI_SEEK_SET => 0,
                MPI_SEEK_CUR => cur,
                MPI_SEEK_END => {
                    let data = f.view.data_before(file_size(f)?);
                    (data + f.view.etype_size - 1) / f.view.etype_size
                }
                w => {
                    return Err(Error::invalid(
                        MPI_ERR_ARG,
                        format!("whence {w} is none of MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END"),
                    ))
                }
            };
            let to = base
                .checked_add(offset)
                .filter(|&t| t >= 0)
                .ok_or_else(|| {
                    Error::invalid(
                        MPI_ERR_ARG,
                        format!("seeking to offset {offset} from {base} gives a negative position"),
                    )
                })?;
            if shared {
                f.shared = to;
            } else {
                f.individual = to;
            }
            Ok(())
        })
    }

    /// `MPI_File_get_position(_shared)`: in etypes of the view.
    pub fn file_position(&self, h: Handle, shared: bool) -> Result<i64> {
        self.with_file(h, |f| Ok(if shared { f.shared } else { f.individual }))
    }

    /// `MPI_File_get_byte_offset`: the absolute byte position of a view offset.
    pub fn file_byte_offset(&self, h: Handle, offset: i64) -> Result<i64> {
        self.with_file(h, |f| {
            if offset < 0 {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    format!("offset {offset} is negative"),
                ));
            }
            Ok(f.view.file_byte_at(offset))
        })
    }

    /// `MPI_File_set_atomicity`, `MPI_File_get_atomicity`: one process's accesses are atomic
    /// whatever the mode; the mode is kept to be reported.
    pub fn file_atomicity(&self, h: Handle, set: Option<bool>) -> Result<bool> {
        self.with_file(h, |f| {
            if let Some(a) = set {
                f.atomic = a;
            }
            Ok(f.atomic)
        })
    }

    pub fn file_amode(&self, h: Handle) -> Result<i32> {
        self.with_file(h, |f| Ok(f.amode))
    }
}
