//! File manipulation (MPI 4.1 §14.2): open, close, delete, size, group, mode, info, views,
//! atomicity, sync, error handlers and datareps.

use super::{io_error, File, View};
use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::datatype::Datatype;
use crate::world::errhandler::Action;
use crate::world::handle::Handle;
use crate::world::info::Info;
use crate::world::runtime::Runtime;
use crate::world::state::State;
use std::path::PathBuf;

/// The checks of MPI 4.1 §14.2.1 on an access mode: exactly one of RDONLY, RDWR and WRONLY;
/// no CREATE or EXCL with RDONLY; no SEQUENTIAL with RDWR; no unknown bits.
pub fn check_amode(amode: i32) -> Result<()> {
    let known = MPI_MODE_RDONLY
        | MPI_MODE_RDWR
        | MPI_MODE_WRONLY
        | MPI_MODE_CREATE
        | MPI_MODE_EXCL
        | MPI_MODE_DELETE_ON_CLOSE
        | MPI_MODE_UNIQUE_OPEN
        | MPI_MODE_SEQUENTIAL
        | MPI_MODE_APPEND;
    let access = [MPI_MODE_RDONLY, MPI_MODE_RDWR, MPI_MODE_WRONLY]
        .iter()
        .filter(|&&m| amode & m != 0)
        .count();
    let why = if amode & !known != 0 {
        "it has bits that are no MPI_MODE_* of MPI_File_open"
    } else if access != 1 {
        "exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR and MPI_MODE_WRONLY is required"
    } else if amode & MPI_MODE_RDONLY != 0 && amode & (MPI_MODE_CREATE | MPI_MODE_EXCL) != 0 {
        "MPI_MODE_CREATE and MPI_MODE_EXCL cannot go with MPI_MODE_RDONLY"
    } else if amode & MPI_MODE_RDWR != 0 && amode & MPI_MODE_SEQUENTIAL != 0 {
        "MPI_MODE_SEQUENTIAL cannot go with MPI_MODE_RDWR"
    } else {
        return Ok(());
    };
    Err(Error::invalid(
        MPI_ERR_AMODE,
        format!("access mode {amode:#x}: {why}"),
    ))
}

/// A file name as a path: ROMIO's file-system prefixes (`ufs:`, `nfs:`) are accepted and
/// dropped, as MPICH's and Open MPI's users write them.
fn path_of(filename: &str) -> Result<PathBuf> {
    let name = ["ufs:", "nfs:"]
        .iter()
        .find_map(|p| filename.strip_prefix(p))
        .unwrap_or(filename);
    if name.is_empty() {
        return Err(Error::invalid(MPI_ERR_BAD_FILE, "the file name is empty"));
    }
    let p = PathBuf::from(name);
    Ok(if p.is_absolute() {
        p
    } else {
        std::env::current_dir()
            .map_err(|e| io_error(&e, "the current directory"))?
            .join(p)
    })
}

fn not_active(what: &str) -> Error {
    Error::invalid(
        MPI_ERR_FILE,
        format!("{what}: MPI_FILE_NULL is not an open file"),
    )
}

impl State {
    /// The handler of an open file, or `MPI_FILE_NULL`'s for anything else (MPI 4.1 §14.7:
    /// errors with no valid file go to the default file handler).
    pub fn file_errhandler_action(&self, h: Handle) -> Action {
        let errh = self
            .files
            .get(h)
            .map(|f| f.errhandler)
            .unwrap_or(self.file_null_errhandler);
        self.errhandlers
            .get(errh)
            .map(|e| e.action.clone())
            .unwrap_or(Action::Return)
    }

    /// The (key, value) pairs of an info argument (`MPI_INFO_NULL`: none).
    pub fn info_pairs(&self, info: Handle) -> Result<Vec<(String, String)>> {
        if info == Handle(MPI_INFO_NULL) {
            return Ok(Vec::new());
        }
        Ok(self.infos.get(info)?.entries().to_vec())
    }

    /// A view's own copy of a datatype: predefined types as they are, derived ones as a new
    /// handle to the same layout, with no name and no attributes.
    pub fn type_copy(&mut self, h: Handle) -> Result<Handle> {
        if self.types.is_predefined(h) || self.types.get(h)?.f90 {
            return Ok(h);
        }
        let t = self.types.get(h)?;
        let copy = Datatype {
            name: String::new(),
            layout: t.layout.clone(),
            committed: t.committed,
            combiner: t.combiner,
            contents: t.contents.clone(),
            f90: false,
        };
        self.types.insert(copy)
    }

    /// Lets go of a view's copy (no attributes were ever set on it).
    fn type_release(&mut self, h: Handle) {
        if !self.types.is_predefined(h) && !self.types.get(h).is_ok_and(|t| t.f90) {
            let _ = self.types.remove(h);
        }
    }

    fn file_in_use(&self, path: &std::path::Path) -> bool {
        self.files
            .handles()
            .into_iter()
            .any(|h| self.files.get(h).is_ok_and(|f| f.path == path))
    }
}

impl Runtime {
    /// `MPI_File_open` (MPI 4.1 §14.2.1). `MPI_MODE_APPEND` puts both file pointers at the end.
    pub fn file_open(
        &self,
        comm: Handle,
        filename: &str,
        amode: i32,
        info: Handle,
    ) -> Result<Handle> {
        let (members, hints, errhandler) = {
            let st = self.active()?;
            let c = st.comms.get(comm)?;
            let hints = st.info_pairs(info)?;
            (c.members.to_vec(), hints, st.file_null_errhandler)
        };
        check_amode(amode)?;
        let path = path_of(filename)?;
        let mut o = std::fs::OpenOptions::new();
        o.read(amode & MPI_MODE_WRONLY == 0)
            .write(amode & MPI_MODE_RDONLY == 0);
        if amode & MPI_MODE_EXCL != 0 {
            o.create_new(true);
        } else if amode & MPI_MODE_CREATE != 0 {
            o.create(true);
        }
        let os = o
            .open(&path)
            .map_err(|e| io_error(&e, &format!("opening {}", path.display())))?;
        let end = if amode & MPI_MODE_APPEND != 0 {
            os.metadata()
                .map_err(|e| io_error(&e, "reading the file's size"))?
                .len() as i64
        } else {
            0
        };
        let mut st = self.active()?;
        st.errhandler_add_ref(errhandler);
        let r = st.files.insert(File {
            os,
            path,
            amode,
            members,
            hints,
            view: View::default_view(),
            individual: end,
            shared: end,
            atomic: false,
            errhandler,
            split: None,
        });
        if r.is_err() {
            st.errhandler_release(errhandler);
        }
        r
    }

    /// `MPI_File_close`: the file goes (and with `MPI_MODE_DELETE_ON_CLOSE`, its name).
    pub fn file_close(&self, h: Handle) -> Result<()> {
        let f = {
            let mut st = self.active()?;
            if h == Handle(MPI_FILE_NULL) {
                return Err(not_active("MPI_File_close"));
            }
            let f = st.files.remove(h)?;
            st.errhandler_release(f.errhandler);
            st.type_release(f.view.etype);
            st.type_release(f.view.filetype);
            f
        };
        if f.amode & MPI_MODE_DELETE_ON_CLOSE != 0 {
            std::fs::remove_file(&f.path)
                .map_err(|e| io_error(&e, &format!("deleting {}", f.path.display())))?;
        }
        Ok(())
    }

    /// `MPI_File_delete`: a file open in this process is in use (MPI 4.1 §14.2.3).
    pub fn file_delete(&self, filename: &str) -> Result<()> {
        let path = path_of(filename)?;
        if self.active()?.file_in_use(&path) {
            return Err(Error::invalid(
                MPI_ERR_FILE_IN_USE,
                format!("{} is open", path.display()),
            ));
        }
        std::fs::remove_file(&path)
            .map_err(|e| io_error(&e, &format!("deleting {}", path.display())))
    }

    /// Runs `f` on an open file.
    pub fn with_file<T>(&self, h: Handle, f: impl FnOnce(&mut File) -> Result<T>) -> Result<T> {
        let mut st = self.active()?;
        if h == Handle(MPI_FILE_NULL) {
            return Err(not_active("file argument"));
        }
        f(st.files.get_mut(h)?)
    }

    /// `MPI_File_set_size`: truncates or extends (MPI 4.1 §14.2.4).
    pub fn file_set_size(&self, h: Handle, size: i64) -> Result<()> {
        self.with_file(h, |f| {
            check_size(size)?;
            check_writable(f, "MPI_File_set_size")?;
            f.os.set_len(size as u64)
                .map_err(|e| io_error(&e, "setting the file's size"))
        })
    }

    /// `MPI_File_preallocate`: storage for the first `size` bytes is allocated (written), the
    /// data already there unchanged; a larger file is not shrunk (MPI 4.1 §14.2.5).
    pub fn file_preallocate(&self, h: Handle, size: i64) -> Result<()> {
        use std::os::unix::fs::FileExt;
        self.with_file(h, |f| {
            check_size(size)?;
            check_writable(f, "MPI_File_preallocate")?;
            let now = file_size(f)?;
            let zeros = vec![0u8; 1 << 16];
            let mut at = now;
            while at < size {
                let n = (size - at).min(zeros.len() as i64) as usize;
                f.os.write_all_at(&zeros[..n], at as u64)
                    .map_err(|e| io_error(&e, "preallocating"))?;
                at += n as i64;
            }
            Ok(())
        })
    }

    pub fn file_get_size(&self, h: Handle) -> Result<i64> {
        self.with_file(h, |f| file_size(f))
    }

    /// `MPI_File_get_group`: a new group of the communicator's members.
    pub fn file_group(&self, h: Handle) -> Result<Handle> {
        let members = self.with_file(h, |f| Ok(f.members.clone()))?;
        self.active()?
            .groups
            .insert(crate::world::comm::Group { members })
    }

    /// `MPI_File_set_info`: hints are kept and reported back; none changes what a call does
    /// (README, "MPI-IO").
    pub fn file_set_info(&self, h: Handle, info: Handle) -> Result<()> {
        let mut st = self.active()?;
        let pairs = st.info_pairs(info)?;
        if h == Handle(MPI_FILE_NULL) {
            return Err(not_active("MPI_File_set_info"));
        }
        let f = st.files.get_mut(h)?;
        for (k, v) in pairs {
            match f.hints.iter_mut().find(|(hk, _)| *hk == k) {
                Some(e) => e.1 = v,
                None => f.hints.push((k, v)),
            }
        }
        Ok(())
    }

    /// `MPI_File_get_info`: a new info with the hints in use.
    pub fn file_get_info(&self, h: Handle) -> Result<Handle> {
        let hints = self.with_file(h, |f| Ok(f.hints.clone()))?;
        self.active()?.infos.insert(Info::from_entries(hints))
    }

    /// `MPI_File_set_view` (MPI 4.1 §14.3): both file pointers go to 0.
    pub fn file_set_view(
        &self,
        h: Handle,
        disp: i64,
        etype: Handle,
        filetype: Handle,
        datarep: &str,
        info: Handle,
    ) -> Result<()> {
        let mut st = self.active()?;
        let pairs = st.info_pairs(info)?;
        check_datarep(&st, datarep)?;
        if h == Handle(MPI_FILE_NULL) {
            return Err(not_active("MPI_File_set_view"));
        }
        let f = st.files.get(h)?;
        if f.split.is_some() {
            return Err(split_pending());
        }
        let sequential = f.amode & MPI_MODE_SEQUENTIAL != 0;
        let disp = if disp == MPI_DISPLACEMENT_CURRENT {
            if !sequential {
                return Err(Error::invalid(
                    MPI_ERR_ARG,
                    "MPI_DISPLACEMENT_CURRENT is for files opened with MPI_MODE_SEQUENTIAL",
                ));
            }
            f.view.file_byte_at(f.shared)
        } else if disp < 0 {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("displacement {disp} is negative"),
            ));
        } else {
            disp
        };
        for t in [etype, filetype] {
            if !st.types.get(t)?.committed {
                return Err(Error::invalid(
                    MPI_ERR_TYPE,
                    format!("datatype {:#x} is not committed", t.0),
                ));
            }
        }
        let view = View::new(
            disp,
            (etype, &st.types.get(etype)?.layout),
            (filetype, &st.types.get(filetype)?.layout),
            datarep,
        )?;
        let e = st.type_copy(etype)?;
        let ft = match st.type_copy(filetype) {
            Ok(t) => t,
            Err(err) => {
                st.type_release(e);
                return Err(err);
            }
        };
        let mut view = view;
        view.etype = e;
        view.filetype = ft;
        let f = st.files.get_mut(h)?;
        let old = std::mem::replace(&mut f.view, view);
        f.individual = 0;
        f.shared = 0;
        for (k, v) in pairs {
            match f.hints.iter_mut().find(|(hk, _)| *hk == k) {
                Some(e) => e.1 = v,
                None => f.hints.push((k, v)),
            }
        }
        st.type_release(old.etype);
        st.type_release(old.filetype);
        Ok(())
    }

    /// `MPI_File_get_view`: derived datatypes come back as new handles the caller frees.
    pub fn file_get_view(&self, h: Handle) -> Result<(i64, Handle, Handle, String)> {
        let mut st = self.active()?;
        if h == Handle(MPI_FILE_NULL) {
            return Err(not_active("MPI_File_get_view"));
        }
        let v = st.files.get(h)?.view.clone();
        let e = st.type_copy(v.etype)?;
        let ft = match st.type_copy(v.filetype) {
            Ok(t) => t,
            Err(err) => {
                st.type_release(e);
                return Err(err);
            }
        };
        Ok((v.disp, e, ft, v.datarep))
    }

    /// `MPI_File_get_type_extent`: with "native" a datatype's extent in the file is its extent.
    pub fn file_type_extent(&self, h: Handle, datatype: Handle) -> Result<i64> {
        self.with_file(h, |_| Ok(()))?;
        Ok(self.type_get_extent(datatype)?.1)
    }

    /// `MPI_File_set_errhandler` (`MPI_FILE_NULL`: the handler new files start with).
    pub fn file_set_errhandler(&self, h: Handle, errh: Handle) -> Result<()> {
        let mut st = self.active()?;
        let e = st.errhandlers.get(errh)?;
        if e.for_kind
            .is_some_and(|k| k != crate::kinds::HandleKind::File)
        {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("error handler {:#x} was not created for files", errh.0),
            ));
        }
        let old = if h == Handle(MPI_FILE_NULL) {
            std::mem::replace(&mut st.file_null_errhandler, errh)
        } else {
            std::mem::replace(&mut st.files.get_mut(h)?.errhandler, errh)
        };
        st.errhandler_add_ref(errh);
        st.errhandler_release(old);
        Ok(())
    }

    /// `MPI_File_get_errhandler`: a new reference the caller frees.
    pub fn file_get_errhandler(&self, h: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        let e = if h == Handle(MPI_FILE_NULL) {
            st.file_null_errhandler
        } else {
            st.files.get(h)?.errhandler
        };
        st.errhandler_add_ref(e);
        Ok(e)
    }

    /// Checks that `h` is an open file (`MPI_File_call_errhandler` accepts `MPI_FILE_NULL`).
    pub fn file_check(&self, h: Handle, null_ok: bool) -> Result<()> {
        let st = self.active()?;
        if null_ok && h == Handle(MPI_FILE_NULL) {
            return Ok(());
        }
        st.files.get(h).map(drop)
    }

    /// `MPI_File_sync`: to the storage device (fsync).
    pub fn file_sync(&self, h: Handle) -> Result<()> {
        self.with_file(h, |f| {
            if f.split.is_some() {
                return Err(split_pending());
            }
            f.os.sync_all().map_err(|e| io_error(&e, "MPI_File_sync"))
        })
    }

    /// `MPI_Register_datarep` (MPI 4.1 §14.5.3): the name is taken once; views in it are
    /// refused (no conversion through user functions here: README, "MPI-IO").
    pub fn register_datarep(&self, name: &str) -> Result<()> {
        let mut st = self.active()?;
        if name.is_empty() || name.len() >= MPI_MAX_DATAREP_STRING as usize {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("data representation name of {} characters", name.len()),
            ));
        }
        if ["native", "internal", "external32"].contains(&name)
            || st.datareps.iter().any(|d| d == name)
        {
            return Err(Error::invalid(
                MPI_ERR_DUP_DATAREP,
                format!("data representation \"{name}\" is already defined"),
            ));
        }
        st.datareps.push(name.to_owned());
        Ok(())
    }
}

/// The data representations a view may use: "native", and "internal", which is native here
/// (MPI 4.1 §14.5.2 leaves its format to the implementation).
fn check_datarep(st: &State, datarep: &str) -> Result<()> {
    let why = match datarep {
        "native" | "internal" => return Ok(()),
        "external32" => "\"external32\" is not supported by mpicache (README, MPI-IO)",
        d if st.datareps.iter().any(|r| r == d) => {
            "user data representations are registered but not converted by mpicache"
        }
        _ => "unknown data representation",
    };
    Err(Error::invalid(
        MPI_ERR_UNSUPPORTED_DATAREP,
        format!("{datarep:?}: {why}"),
    ))
}

fn check_size(size: i64) -> Result<()> {
    if size < 0 {
        return Err(Error::invalid(
            MPI_ERR_ARG,
            format!("size {size} is negative"),
        ));
    }
    Ok(())
}

pub(super) fn check_writable(f: &File, what: &str) -> Result<()> {
    if f.amode & MPI_MODE_RDONLY != 0 {
        return Err(Error::invalid(
            MPI_ERR_READ_ONLY,
            format!("{what}: the file was opened MPI_MODE_RDONLY"),
        ));
    }
    Ok(())
}

pub(super) fn file_size(f: &File) -> Result<i64> {
    Ok(f.os
        .metadata()
        .map_err(|e| io_error(&e, "reading the file's size"))?
        .len() as i64)
}

pub(super) fn split_pending() -> Error {
    Error::invalid(
        MPI_ERR_OTHER,
        "a split collective is outstanding on this file (MPI 4.1 §14.4.5)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_modes_follow_the_open_rules() {
        // MPI 4.1 §14.2.1: exactly one of RDONLY, RDWR, WRONLY; RDONLY excludes CREATE and
        // EXCL; RDWR excludes SEQUENTIAL.
        let bad = |m: i32| check_amode(m).map_err(|e| e.class()) == Err(MPI_ERR_AMODE);
        assert!(check_amode(MPI_MODE_RDONLY).is_ok());
        assert!(check_amode(MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL | MPI_MODE_CREATE).is_ok());
        assert!(check_amode(MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL).is_ok());
        assert!(bad(0));
        assert!(bad(MPI_MODE_RDONLY | MPI_MODE_WRONLY));
        assert!(bad(MPI_MODE_RDONLY | MPI_MODE_CREATE));
        assert!(bad(MPI_MODE_RDONLY | MPI_MODE_EXCL));
        assert!(bad(MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL));
        assert!(bad(MPI_MODE_RDWR | MPI_MODE_NOCHECK));
    }

    #[test]
    fn datareps_native_and_internal_only() {
        // MPI 4.1 §14.5: "native" and "internal" are served; "external32" and unknown names are
        // MPI_ERR_UNSUPPORTED_DATAREP here.
        let st = State::new();
        assert!(check_datarep(&st, "native").is_ok());
        assert!(check_datarep(&st, "internal").is_ok());
        for d in ["external32", "nope"] {
            assert_eq!(
                check_datarep(&st, d).map_err(|e| e.class()),
                Err(MPI_ERR_UNSUPPORTED_DATAREP)
            );
        }
    }
}
