//! The one error type of the library and its one mapping to MPI error classes.

use crate::consts::*;
use crate::kinds::{HandleKind, ObjectKind};
use std::fmt;

/// Why a handle was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadHandleReason {
    /// It named an object that has been freed.
    Freed,
    /// It was never handed out by this library.
    Forged,
    /// It is a live handle of another kind.
    WrongKind(HandleKind),
}

impl fmt::Display for BadHandleReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadHandleReason::Freed => f.write_str("the object it named has been freed"),
            BadHandleReason::Forged => f.write_str("no object was ever given this handle"),
            BadHandleReason::WrongKind(k) => write!(f, "it is a {k} handle"),
        }
    }
}

/// Every failure the library reports. Each variant carries what a user needs to read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    #[error("MPI has not been initialized (call MPI_Init first)")]
    NotInitialized,
    #[error("MPI has already been finalized")]
    Finalized,
    #[error("MPI has already been initialized")]
    AlreadyInitialized,
    #[error("{kind} argument is the null handle")]
    NullHandle { kind: HandleKind },
    #[error("{handle:#x} is not a valid {kind} handle: {reason}")]
    BadHandle {
        kind: HandleKind,
        handle: i32,
        reason: BadHandleReason,
    },
    #[error("{kind} {handle:#x} is predefined and cannot be {action}")]
    PredefinedHandle {
        kind: HandleKind,
        handle: i32,
        action: &'static str,
    },
    #[error("{kind} {handle:#x} is being freed")]
    BeingFreed { kind: HandleKind, handle: i32 },
    #[error("MPI_KEYVAL_INVALID is not a usable keyval")]
    KeyvalInvalid,
    #[error("keyval {keyval} was never created")]
    KeyvalUnknown { keyval: i32 },
    #[error("keyval {keyval} has been freed")]
    KeyvalFreed { keyval: i32 },
    #[error("keyval {keyval} is a {found} keyval, but a {expected} keyval was expected")]
    KeyvalWrongKind {
        keyval: i32,
        found: ObjectKind,
        expected: ObjectKind,
    },
    #[error("keyval {keyval} is predefined and cannot be {action}")]
    KeyvalPredefined { keyval: i32, action: &'static str },
    #[error("the {callback} callback of keyval {keyval} returned error code {code}")]
    Callback {
        code: i32,
        keyval: i32,
        callback: &'static str,
    },
    #[error("argument {name} is a NULL pointer")]
    NullArgument { name: &'static str },
    /// Any other invalid argument, with the class the standard gives it.
    #[error("{detail}")]
    Invalid { class: i32, detail: String },
    /// An error the engine MPI under the layer (issue 17) has already raised on its own error
    /// handler: its code is the call's, as the engine gave it.
    #[error("the engine MPI returned error code {code}")]
    Engine { code: i32 },
    /// A fixed limit on live objects was reached (handles and keyval numbers fit 32 bits).
    #[error("too many live {what}: the limit is {}", Thousands(*limit))]
    Exhausted { what: Limited, limit: usize },
    /// An allocation failed (out of memory is an error, never an abort): `bytes` for `what` (a
    /// part of the attribute store, or the type of a vector's elements).
    #[error("out of memory: {bytes} bytes for {what} could not be allocated")]
    NoMemory { what: &'static str, bytes: usize },
    #[error("internal error: a panic was caught ({0})")]
    Panic(String),
}

impl Error {
    /// The error of a refused allocation of `n` values of `T` for `what`.
    #[cold]
    pub fn no_memory<T>(what: &'static str, n: usize) -> Error {
        Error::NoMemory {
            what,
            bytes: n.saturating_mul(std::mem::size_of::<T>()),
        }
    }

    /// Shorthand for [`Error::Invalid`].
    pub fn invalid(class: i32, detail: impl Into<String>) -> Error {
        Error::Invalid {
            class,
            detail: detail.into(),
        }
    }

    /// The error class of this error (`MPI_ERR_*`).
    pub fn class(&self) -> i32 {
        match self {
            Error::NotInitialized | Error::Finalized | Error::AlreadyInitialized => MPI_ERR_OTHER,
            Error::NullHandle { kind }
            | Error::BadHandle { kind, .. }
            | Error::PredefinedHandle { kind, .. }
            | Error::BeingFreed { kind, .. } => kind.error_class(),
            Error::KeyvalInvalid
            | Error::KeyvalUnknown { .. }
            | Error::KeyvalFreed { .. }
            | Error::KeyvalWrongKind { .. }
            | Error::KeyvalPredefined { .. } => MPI_ERR_KEYVAL,
            // A callback's code may be a user code; its class is resolved by the registry.
            Error::Callback { .. } => MPI_ERR_OTHER,
            // The engine's code, in the engine's numbering: not one of ours.
            Error::Engine { .. } => MPI_ERR_OTHER,
            Error::NullArgument { .. } => MPI_ERR_ARG,
            Error::Invalid { class, .. } => *class,
            Error::Exhausted { .. } | Error::NoMemory { .. } => MPI_ERR_NO_MEM,
            Error::Panic(_) => MPI_ERR_INTERN,
        }
    }

    /// The code the failing call returns: the class, except that a failing callback's own code
    /// is handed back unchanged (MPI 4.1 §7.7: the callback's error is the call's error).
    pub fn code(&self) -> i32 {
        match self {
            Error::Callback { code, .. } | Error::Engine { code } => *code,
            // A code of its own, so `MPI_Error_string` names the limit.
            Error::Exhausted { what, .. } => what.code(),
            other => other.class(),
        }
    }
}

/// What has a fixed limit on how many can be live at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limited {
    Handles(HandleKind),
    Keyvals,
    ErrorCodes,
}

impl Limited {
    /// Every limited thing, in the order of their error codes.
    pub const ALL: [Limited; 11] = [
        Limited::Handles(HandleKind::Comm),
        Limited::Handles(HandleKind::Group),
        Limited::Handles(HandleKind::Datatype),
        Limited::Handles(HandleKind::Win),
        Limited::Handles(HandleKind::Errhandler),
        Limited::Handles(HandleKind::Request),
        Limited::Handles(HandleKind::Info),
        Limited::Handles(HandleKind::Op),
        Limited::Keyvals,
        Limited::ErrorCodes,
        // Added after the others, so their codes stay.
        Limited::Handles(HandleKind::File),
    ];

    /// The error code a call that hits this limit returns: of class `MPI_ERR_NO_MEM`, with its
    /// own `MPI_Error_string` (`MPICACHE_ERR_LIMIT_BASE + position in ALL`).
    pub fn code(self) -> i32 {
        let i = Limited::ALL.iter().position(|&l| l == self).unwrap_or(0);
        MPICACHE_ERR_LIMIT_BASE + i as i32
    }

    /// The limited thing of an error code, if it is one of these codes.
    pub fn of_code(code: i32) -> Option<Limited> {
        let i = code.checked_sub(MPICACHE_ERR_LIMIT_BASE)?;
        Limited::ALL.get(usize::try_from(i).ok()?).copied()
    }
}

impl fmt::Display for Limited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limited::Handles(HandleKind::Info) => f.write_str("info objects"),
            Limited::Handles(HandleKind::Errhandler) => f.write_str("error handlers"),
            Limited::Handles(k) => write!(f, "{k}s"),
            Limited::Keyvals => f.write_str("keyvals"),
            Limited::ErrorCodes => f.write_str("error codes and classes"),
        }
    }
}

/// A count written with thousands separators (`16,777,216`), as the README states limits.
pub struct Thousands(pub usize);

impl fmt::Display for Thousands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.0.to_string();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

pub type Result<T> = std::result::Result<T, Error>;
