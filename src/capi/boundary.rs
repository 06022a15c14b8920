//! The boundary every C entry point's body sits in: panics are caught, errors are routed to the
//! error handler, and pointer arguments are checked in one line each.

use crate::consts::*;
use crate::world::errhandler::{class_name, Action};
use crate::world::state::Phase;
use crate::world::{Error, Handle, ObjectKind, Runtime};
use std::ffi::c_int;

/// Whose error handler an entry point's errors go to.
#[derive(Debug, Clone, Copy)]
pub enum Scope {
    Comm(c_int),
    Win(c_int),
    /// Calls tied to no communicator or window (datatypes, keyvals, groups, ...): errors are
    /// raised on `MPI_COMM_SELF` (MPI 4.1 §9.3).
    NoObject,
}

/// Runs an entry point's body: `entry!("MPI_X", scope, { ...; Ok(()) })`.
#[macro_export]
macro_rules! entry {
    ($name:expr, $scope:expr, $body:block) => {{
        let result = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(
            || -> $crate::error::Result<()> { $body },
        ));
        match result {
            Ok(Ok(())) => $crate::consts::MPI_SUCCESS,
            failed => $crate::capi::boundary::finish($name, $scope, failed),
        }
    }};
}

/// Like [`entry!`], for the hot calls: `$fast` (which must not panic, allocate or call user
/// code) answers what it can and returns true; everything else goes to a slow path that takes
/// the entry point's arguments, listed with their types, and runs `$body` in [`entry!`]:
///
/// ```ignore
/// entry_fast!("MPI_X", scope, fast_expr, (a: c_int, p: *mut c_int) { body })
/// ```
///
/// The slow path is a function of its own, called in tail position with the arguments in
/// their registers: the fast path jumps to it and needs no stack frame of its own.
#[macro_export]
macro_rules! entry_fast {
    ($name:expr, $scope:expr, $fast:expr, ($($arg:ident: $ty:ty),* $(,)?) $body:block) => {{
        #[cold]
        #[inline(never)]
        unsafe extern "C" fn slow($($arg: $ty),*) -> ::std::ffi::c_int {
            $crate::entry!($name, $scope, $body)
        }
        if $fast {
            $crate::consts::MPI_SUCCESS
        } else {
            #[allow(unused_unsafe)]
            unsafe {
                slow($($arg),*)
            }
        }
    }};
}

/// Fails with `MPI_ERR_ARG` naming the argument when a pointer is NULL.
#[macro_export]
macro_rules! nonnull {
    ($($p:ident),+) => {
        $(if $p.is_null() {
            return Err($crate::error::Error::NullArgument { name: stringify!($p) });
        })+
    };
}

/// Turns a failed entry point's outcome into its return code (the success path stays inline in
/// [`entry!`]).
#[cold]
#[inline(never)]
pub fn finish(
    name: &'static str,
    scope: Scope,
    result: std::thread::Result<crate::error::Result<()>>,
) -> c_int {
    match result {
        Ok(Ok(())) => MPI_SUCCESS,
        Ok(Err(e)) => report(name, scope, e),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            report(name, scope, Error::Panic(msg))
        }
    }
}

/// Hands an error to the error handler in charge and returns the code the call returns.
#[cold]
pub fn report(name: &str, scope: Scope, err: Error) -> c_int {
    let code = err.code();
    let (action, object) = handler_for(scope);
    match action {
        Action::Return => code,
        Action::Fatal | Action::Abort => die(name, &err),
        Action::User(f) => {
            f.call(object, code);
            code
        }
    }
}

/// The initial error handler (MPI 4.1 §9.3): `MPI_ERRORS_ARE_FATAL`, or the predefined handler
/// `mpiexec -initial-errhandler` names, passed in `MPICACHE_INITIAL_ERRHANDLER`. It handles
/// errors before `MPI_Init` and is what `MPI_COMM_WORLD` and `MPI_COMM_SELF` start with.
pub fn initial_errhandler() -> Handle {
    match std::env::var("MPICACHE_INITIAL_ERRHANDLER").as_deref() {
        Ok("mpi_errors_return") | Ok("MPI_ERRORS_RETURN") => Handle(MPI_ERRORS_RETURN),
        Ok("mpi_errors_abort") | Ok("MPI_ERRORS_ABORT") => Handle(MPI_ERRORS_ABORT),
        _ => Handle(MPI_ERRORS_ARE_FATAL),
    }
}

/// The handler in charge of `scope` now, and the handle it is called with.
fn handler_for(scope: Scope) -> (Action, Handle) {
    let st = Runtime::global().lock();
    match st.phase {
        Phase::NotInitialized => {
            let action = match initial_errhandler().0 {
                MPI_ERRORS_RETURN => Action::Return,
                _ => Action::Fatal,
            };
            return (action, Handle(MPI_COMM_SELF));
        }
        Phase::Finalized => {
            let a = if st.returns_after_finalize {
                Action::Return
            } else {
                Action::Fatal
            };
            return (a, Handle(MPI_COMM_SELF));
        }
        Phase::Initialized | Phase::Finalizing => {}
    }
    let own = match scope {
        Scope::Comm(h) => st
            .errhandler_action(ObjectKind::Comm, Handle(h))
            .map(|a| (a, Handle(h))),
        Scope::Win(h) => st
            .errhandler_action(ObjectKind::Win, Handle(h))
            .map(|a| (a, Handle(h))),
        Scope::NoObject => None,
    };
    // An invalid communicator or window cannot have a handler: MPI_COMM_SELF's takes over.
    own.or_else(|| {
        st.errhandler_action(ObjectKind::Comm, Handle(MPI_COMM_SELF))
            .map(|a| (a, Handle(MPI_COMM_SELF)))
    })
    .unwrap_or((Action::Fatal, Handle(MPI_COMM_SELF)))
}

/// `MPI_ERRORS_ARE_FATAL`: one line naming the call, the class and the detail, then exit.
fn die(name: &str, err: &Error) -> ! {
    let class = match err {
        Error::Callback { code, .. } => Runtime::global().lock().errors.class_of(*code),
        other => Some(other.class()),
    };
    let class = class
        .and_then(class_name)
        .map_or_else(|| format!("error code {}", err.code()), str::to_owned);
    eprintln!("mpicache: {name}: {class}: {err}");
    let status = err.class();
    std::process::exit(if (1..=255).contains(&status) {
        status
    } else {
        1
    })
}

/// Copies a Rust string into a C buffer of `MPI_MAX_*` bytes, NUL-terminated; returns the length
/// without the NUL.
///
/// # Safety
/// `buf` must point to at least `max` writable bytes.
pub unsafe fn write_c_string(buf: *mut std::ffi::c_char, max: usize, s: &str) -> c_int {
    let bytes = s.as_bytes();
    let n = bytes.len().min(max.saturating_sub(1));
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), n);
        *buf.add(n) = 0;
    }
    n as c_int
}

/// Reads a NUL-terminated C string (lossily, as names are only text), or fails with
/// `MPI_ERR_NO_MEM` when there is no memory for the copy.
///
/// # Safety
/// `s` must be a valid NUL-terminated string.
pub unsafe fn read_c_string(s: *const std::ffi::c_char) -> crate::error::Result<String> {
    let text = unsafe { std::ffi::CStr::from_ptr(s) }.to_string_lossy();
    crate::primitives::alloc::try_string(&text)
}
