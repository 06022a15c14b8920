//! Error handlers and the registry of error classes and codes as the world keeps them (the
//! operations: `world::errhandler`).

use crate::consts::*;
use crate::error::{Error, Limited, Result};
use crate::world::handle::{Handle, Slab};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicI32;
use std::sync::Arc;

/// The initial error handler a tool chose with the control variable
/// `mpicache_initial_errhandler` (0: none chose; the environment decides). Kept here, beside
/// the handlers, so the tool's variables and the error handlers' operations both read it
/// without naming each other.
pub static INITIAL_ERRHANDLER: AtomicI32 = AtomicI32::new(0);

/// A user error handler function, in whatever language.
pub trait UserErrhandler: Send + Sync {
    /// Called with the object's handle and the error code; may change nothing it returns.
    fn call(&self, object: Handle, code: i32);
}

/// What a handler does.
#[derive(Clone)]
pub enum Action {
    /// `MPI_ERRORS_ARE_FATAL`.
    Fatal,
    /// `MPI_ERRORS_RETURN`.
    Return,
    /// `MPI_ERRORS_ABORT`.
    Abort,
    User(Arc<dyn UserErrhandler>),
}

impl std::fmt::Debug for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Action::Fatal => "Fatal",
            Action::Return => "Return",
            Action::Abort => "Abort",
            Action::User(_) => "User",
        })
    }
}

#[derive(Debug)]
pub struct Errhandler {
    pub action: Action,
    /// The kind of object a user handler was created for; `None` for predefined handlers.
    pub for_kind: Option<crate::kinds::HandleKind>,
    /// User handle plus attachments; the handler goes when this reaches zero.
    pub(crate) refs: u32,
}

/// How many of `what` can be live at once.
pub fn limit_of(what: Limited) -> usize {
    match what {
        Limited::Handles(kind) => crate::world::handle::limit(kind),
        Limited::Keyvals => crate::caching::keyval::LIMIT,
        Limited::ErrorCodes => (i32::MAX - MPI_ERR_LASTCODE) as usize,
    }
}

/// User-added classes and codes, above `MPI_ERR_LASTCODE`.
#[derive(Debug)]
pub struct ErrorRegistry {
    /// code -> class (a user class maps to itself).
    pub user_codes: BTreeMap<i32, i32>,
    pub strings: BTreeMap<i32, String>,
    pub last_used: i32,
}

impl Default for ErrorRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl ErrorRegistry {
    pub const fn new() -> ErrorRegistry {
        ErrorRegistry {
            user_codes: BTreeMap::new(),
            strings: BTreeMap::new(),
            last_used: MPI_ERR_LASTCODE,
        }
    }

    pub(crate) fn next_code(&mut self) -> Result<i32> {
        self.last_used = self.last_used.checked_add(1).ok_or(Error::Exhausted {
            what: Limited::ErrorCodes,
            limit: limit_of(Limited::ErrorCodes),
        })?;
        Ok(self.last_used)
    }

    pub(crate) fn is_class(&self, class: i32) -> bool {
        class_string(class).is_some() || self.user_codes.get(&class) == Some(&class)
    }

    /// The class of a code: predefined classes are their own class.
    pub fn class_of(&self, code: i32) -> Option<i32> {
        if class_string(code).is_some() {
            Some(code)
        } else if Limited::of_code(code).is_some() {
            Some(MPI_ERR_NO_MEM)
        } else {
            self.user_codes.get(&code).copied()
        }
    }
}

/// The name of a predefined error class, for messages.
pub fn class_name(class: i32) -> Option<&'static str> {
    CLASSES
        .iter()
        .find(|(c, _, _)| *c == class)
        .map(|(_, n, _)| *n)
}

/// The standard text of a predefined error class.
pub fn class_string(class: i32) -> Option<&'static str> {
    CLASSES
        .iter()
        .find(|(c, _, _)| *c == class)
        .map(|(_, _, s)| *s)
}

pub(crate) const CLASSES: &[(i32, &str, &str)] = &[
    (MPI_SUCCESS, "MPI_SUCCESS", "no error"),
    (MPI_ERR_BUFFER, "MPI_ERR_BUFFER", "invalid buffer pointer"),
    (MPI_ERR_COUNT, "MPI_ERR_COUNT", "invalid count argument"),
    (MPI_ERR_TYPE, "MPI_ERR_TYPE", "invalid datatype"),
    (MPI_ERR_TAG, "MPI_ERR_TAG", "invalid tag argument"),
    (MPI_ERR_COMM, "MPI_ERR_COMM", "invalid communicator"),
    (MPI_ERR_RANK, "MPI_ERR_RANK", "invalid rank"),
    (MPI_ERR_REQUEST, "MPI_ERR_REQUEST", "invalid request"),
    (MPI_ERR_ROOT, "MPI_ERR_ROOT", "invalid root"),
    (MPI_ERR_GROUP, "MPI_ERR_GROUP", "invalid group"),
    (MPI_ERR_OP, "MPI_ERR_OP", "invalid reduction operation"),
    (MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY", "invalid topology"),
    (MPI_ERR_DIMS, "MPI_ERR_DIMS", "invalid dimension argument"),
    (MPI_ERR_ARG, "MPI_ERR_ARG", "invalid argument"),
    (MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN", "unknown error"),
    (MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE", "message truncated"),
    (MPI_ERR_OTHER, "MPI_ERR_OTHER", "other error"),
    (MPI_ERR_INTERN, "MPI_ERR_INTERN", "internal error"),
    (MPI_ERR_PENDING, "MPI_ERR_PENDING", "operation pending"),
    (
        MPI_ERR_IN_STATUS,
        "MPI_ERR_IN_STATUS",
        "error code is in status",
    ),
    (MPI_ERR_ACCESS, "MPI_ERR_ACCESS", "permission denied"),
    (MPI_ERR_AMODE, "MPI_ERR_AMODE", "invalid file access mode"),
    (MPI_ERR_ASSERT, "MPI_ERR_ASSERT", "invalid assertion"),
    (MPI_ERR_BAD_FILE, "MPI_ERR_BAD_FILE", "invalid file name"),
    (MPI_ERR_BASE, "MPI_ERR_BASE", "invalid base address"),
    (
        MPI_ERR_CONVERSION,
        "MPI_ERR_CONVERSION",
        "data conversion failed",
    ),
    (MPI_ERR_DISP, "MPI_ERR_DISP", "invalid displacement"),
    (
        MPI_ERR_DUP_DATAREP,
        "MPI_ERR_DUP_DATAREP",
        "data representation already defined",
    ),
    (MPI_ERR_FILE_EXISTS, "MPI_ERR_FILE_EXISTS", "file exists"),
    (MPI_ERR_FILE_IN_USE, "MPI_ERR_FILE_IN_USE", "file in use"),
    (MPI_ERR_FILE, "MPI_ERR_FILE", "invalid file handle"),
    (MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY", "invalid info key"),
    (
        MPI_ERR_INFO_NOKEY,
        "MPI_ERR_INFO_NOKEY",
        "info key not defined",
    ),
    (
        MPI_ERR_INFO_VALUE,
        "MPI_ERR_INFO_VALUE",
        "invalid info value",
    ),
    (MPI_ERR_INFO, "MPI_ERR_INFO", "invalid info object"),
    (MPI_ERR_IO, "MPI_ERR_IO", "input/output error"),
    (MPI_ERR_KEYVAL, "MPI_ERR_KEYVAL", "invalid attribute keyval"),
    (MPI_ERR_LOCKTYPE, "MPI_ERR_LOCKTYPE", "invalid lock type"),
    (MPI_ERR_NAME, "MPI_ERR_NAME", "invalid service name"),
    (MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM", "out of memory"),
    (
        MPI_ERR_NOT_SAME,
        "MPI_ERR_NOT_SAME",
        "arguments differ between processes",
    ),
    (MPI_ERR_NO_SPACE, "MPI_ERR_NO_SPACE", "no space left"),
    (MPI_ERR_NO_SUCH_FILE, "MPI_ERR_NO_SUCH_FILE", "no such file"),
    (MPI_ERR_PORT, "MPI_ERR_PORT", "invalid port name"),
    (
        MPI_ERR_PROC_ABORTED,
        "MPI_ERR_PROC_ABORTED",
        "peer process aborted",
    ),
    (MPI_ERR_QUOTA, "MPI_ERR_QUOTA", "quota exceeded"),
    (
        MPI_ERR_READ_ONLY,
        "MPI_ERR_READ_ONLY",
        "read-only file or file system",
    ),
    (
        MPI_ERR_RMA_ATTACH,
        "MPI_ERR_RMA_ATTACH",
        "memory cannot be attached",
    ),
    (
        MPI_ERR_RMA_CONFLICT,
        "MPI_ERR_RMA_CONFLICT",
        "conflicting RMA accesses",
    ),
    (
        MPI_ERR_RMA_RANGE,
        "MPI_ERR_RMA_RANGE",
        "RMA target outside the window",
    ),
    (
        MPI_ERR_RMA_SHARED,
        "MPI_ERR_RMA_SHARED",
        "memory cannot be shared",
    ),
    (
        MPI_ERR_RMA_SYNC,
        "MPI_ERR_RMA_SYNC",
        "wrong RMA synchronization",
    ),
    (
        MPI_ERR_RMA_FLAVOR,
        "MPI_ERR_RMA_FLAVOR",
        "wrong window flavor",
    ),
    (MPI_ERR_SERVICE, "MPI_ERR_SERVICE", "invalid service"),
    (MPI_ERR_SESSION, "MPI_ERR_SESSION", "invalid session"),
    (MPI_ERR_SIZE, "MPI_ERR_SIZE", "invalid size"),
    (MPI_ERR_SPAWN, "MPI_ERR_SPAWN", "spawn failed"),
    (
        MPI_ERR_UNSUPPORTED_DATAREP,
        "MPI_ERR_UNSUPPORTED_DATAREP",
        "unsupported data representation",
    ),
    (
        MPI_ERR_UNSUPPORTED_OPERATION,
        "MPI_ERR_UNSUPPORTED_OPERATION",
        "unsupported operation",
    ),
    (
        MPI_ERR_VALUE_TOO_LARGE,
        "MPI_ERR_VALUE_TOO_LARGE",
        "value too large",
    ),
    (MPI_ERR_WIN, "MPI_ERR_WIN", "invalid window"),
    (
        MPI_ERR_ERRHANDLER,
        "MPI_ERR_ERRHANDLER",
        "invalid error handler",
    ),
    (
        MPI_ERR_ABI,
        "MPI_ERR_ABI",
        "ABI support unavailable or inconsistent",
    ),
    (
        MPI_ERR_LASTCODE,
        "MPI_ERR_LASTCODE",
        "last predefined error code",
    ),
];

/// The predefined error handlers (MPI 4.1 §9.3), each held once by the library.
pub fn install_predefined(errhandlers: &mut Slab<Errhandler>) -> Result<()> {
    for (h, action) in [
        (MPI_ERRORS_ARE_FATAL, Action::Fatal),
        (MPI_ERRORS_RETURN, Action::Return),
        (MPI_ERRORS_ABORT, Action::Abort),
    ] {
        errhandlers.insert_predefined(
            Handle(h),
            Errhandler {
                action,
                for_kind: None,
                refs: 1,
            },
        )?;
    }
    Ok(())
}
