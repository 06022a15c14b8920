//! The boundary every entry point's body sits in, C and Fortran alike: panics are caught, errors
//! are routed to the error handler, and pointer arguments are checked in one line each. Also the
//! one accessor of the runtime the faces call ([`rt`]).

use crate::consts::*;
use crate::world::errhandler::{class_name, Action};
use crate::world::state::Phase;
use crate::world::{Error, Handle, ObjectKind, Runtime};
use std::ffi::c_int;

/// The runtime every entry point of both faces works on.
#[inline(always)]
pub fn rt() -> &'static Runtime {
    Runtime::global()
}

/// Whose error handler an entry point's errors go to.
#[derive(Debug, Clone, Copy)]
pub enum Scope {
    Comm(c_int),
    Win(c_int),
    /// Calls on a session: its error handler (MPI 4.1 §9.3).
    Session(c_int),
    /// Calls on a file, and `MPI_File_open`/`MPI_File_delete` (`MPI_FILE_NULL`): the file's
    /// handler, or `MPI_FILE_NULL`'s when the file is not valid (MPI 4.1 §14.7).
    File(c_int),
    /// Calls tied to no communicator or window (datatypes, keyvals, groups, ...): errors are
    /// raised on `MPI_COMM_SELF` (MPI 4.1 §9.3).
    NoObject,
}

impl Scope {
    /// The scope of a call on an attribute carrier of `kind`: its communicator or window;
    /// datatype calls are tied to neither (their errors go to `MPI_COMM_SELF`).
    #[inline(always)]
    pub fn of(kind: ObjectKind, handle: c_int) -> Scope {
        match kind {
            ObjectKind::Comm => Scope::Comm(handle),
            ObjectKind::Win => Scope::Win(handle),
            ObjectKind::Datatype => Scope::NoObject,
        }
    }
}

/// Runs an entry point's body: `entry!("MPI_X", scope, { ...; Ok(()) })`.
///
/// A hot call answers what it can before the boundary, inline, and sends the rest to a slow
/// path of its own: a named `#[cold] #[inline(never)]` function whose body is in `entry!`
/// (see capi/attr.rs), called in tail position so the fast path needs no stack frame.
#[macro_export]
macro_rules! entry {
    ($name:expr, $scope:expr, $body:block) => {{
        let result = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(
            || -> $crate::error::Result<()> { $body },
        ));
        match result {
            Ok(Ok(())) => $crate::consts::MPI_SUCCESS,
            failed => $crate::boundary::finish($name, $scope, failed),
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

/// An output argument checked non-NULL (by [`try_out!`](crate::try_out)): written through its
/// raw pointer, never through a `&mut`, since a C caller may pass one address for two outputs.
pub struct Out<T>(std::ptr::NonNull<T>);

impl<T> Out<T> {
    /// # Safety
    /// `p` is NULL or valid for writes of a `T` for as long as the `Out` lives: what MPI's
    /// contract says of an entry point's output argument during the call.
    #[inline(always)]
    pub unsafe fn new(p: *mut T) -> Option<Out<T>> {
        std::ptr::NonNull::new(p).map(Out)
    }

    /// Stores `value` in the caller's variable.
    #[inline(always)]
    pub fn set(&self, value: T) {
        // SAFETY: not NULL and valid for writes by `new`'s contract.
        unsafe { self.0.as_ptr().write(value) }
    }

    /// What the caller's variable holds now (an INOUT argument).
    #[inline(always)]
    pub fn get(&self) -> T
    where
        T: Copy,
    {
        // SAFETY: as for `set`; output arguments are initialized memory of their type in C
        // and Fortran alike.
        unsafe { self.0.as_ptr().read() }
    }
}

/// The output argument `p` as an [`Out`], or `MPI_ERR_ARG` naming it when it is NULL. Check
/// every output before the call changes anything, so a NULL one changes nothing:
/// `let keyval = try_out!(keyval); ... keyval.set(k);`
///
/// Use only on an entry point's own pointer arguments (the macro's SAFETY argument is MPI's
/// contract for them).
#[macro_export]
macro_rules! try_out {
    ($p:ident) => {
        // SAFETY: an entry point's output argument: valid for writes during the call when not
        // NULL (MPI's contract, stated once in capi/mod.rs and fortran/mod.rs).
        match unsafe { $crate::boundary::Out::new($p) } {
            Some(out) => out,
            None => {
                return Err($crate::error::Error::NullArgument {
                    name: stringify!($p),
                })
            }
        }
    };
}

/// The value the input argument `p` points to, or `MPI_ERR_ARG` naming it when it is NULL:
/// `let extra_state = try_in!(extra_state);`. Use only on an entry point's own pointer arguments.
#[macro_export]
macro_rules! try_in {
    ($p:ident) => {{
        if $p.is_null() {
            return Err($crate::error::Error::NullArgument {
                name: stringify!($p),
            });
        }
        // SAFETY: an entry point's input argument, not NULL: readable during the call (MPI's
        // contract, stated once in capi/mod.rs and fortran/mod.rs).
        unsafe { $p.read() }
    }};
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
    // MPI_T's error event (world/tool/events.rs), before a fatal handler can stop the process.
    crate::world::tool::events::error_raised(code, err.class());
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

pub use crate::world::errhandler::initial_errhandler;

/// The handler in charge of `scope` now, and the handle it is called with.
fn handler_for(scope: Scope) -> (Action, Handle) {
    let st = Runtime::global().lock();
    // Open sessions keep the objects and their handlers, whatever the World Model's phase.
    let phase = if st.sessions.is_empty() {
        st.phase
    } else {
        Phase::Initialized
    };
    match phase {
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
        Scope::Session(h) => st
            .session_errhandler_action(Handle(h))
            .map(|a| (a, Handle(h))),
        Scope::File(h) => return (st.file_errhandler_action(Handle(h)), Handle(h)),
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
    // SAFETY: `buf` has `max` writable bytes and `n + 1 <= max` (this function's contract; a
    // `max` of 0 is not an MPI_MAX_* size).
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
    // SAFETY: a NUL-terminated string (this function's contract).
    let text = unsafe { std::ffi::CStr::from_ptr(s) }.to_string_lossy();
    crate::primitives::alloc::try_string(&text)
}
