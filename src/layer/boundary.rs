//! The boundary every entry point of the layer sits in: panics are caught, and errors go to the
//! engine's error handler of the object concerned, with the engine's error classes (a failing
//! callback's own code is handed back unchanged, MPI 4.1 §7.7).

use crate::error::Error;
use crate::kinds::ObjectKind;
use crate::layer::engine::{self, Handle};

/// Whose error handler an entry point's errors go to.
#[derive(Debug, Clone, Copy)]
pub enum Scope {
    Comm(Handle),
    Win(Handle),
    /// Calls tied to no communicator or window (datatypes, keyvals): `MPI_COMM_SELF` (MPI 4.1
    /// §9.3).
    NoObject,
}

/// Runs an entry point's body: `layer_entry!("MPI_X", scope, { ...; Ok(()) })` gives the C
/// return code.
#[macro_export]
macro_rules! layer_entry {
    ($name:expr, $scope:expr, $body:block) => {{
        let result = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(
            || -> $crate::error::Result<()> { $body },
        ));
        match result {
            Ok(Ok(())) => $crate::consts::MPI_SUCCESS,
            failed => $crate::layer::boundary::finish($name, $scope, failed),
        }
    }};
}

/// Fails with `MPI_ERR_ARG` naming the argument when a pointer is NULL.
#[macro_export]
macro_rules! layer_nonnull {
    ($($p:ident),+) => {
        $(if $p.is_null() {
            return Err($crate::error::Error::NullArgument { name: stringify!($p) });
        })+
    };
}

/// An error the engine has already raised on its own handler: its code is handed back as it
/// is (the layer's calls to `PMPI_` routines).
pub fn engine_code(code: i32) -> Error {
    Error::Engine { code }
}

/// An engine routine's outcome (it has raised its own error already).
pub fn engine_rc(rc: std::ffi::c_int) -> crate::error::Result<()> {
    match rc {
        0 => Ok(()),
        code => Err(engine_code(code)),
    }
}

/// The return code of a failed entry point, raised on the right handler.
#[cold]
#[inline(never)]
pub fn finish(
    name: &'static str,
    scope: Scope,
    result: std::thread::Result<crate::error::Result<()>>,
) -> i32 {
    let err = match result {
        Ok(Ok(())) => return crate::consts::MPI_SUCCESS,
        Ok(Err(e)) => e,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Error::Panic(what)
        }
    };
    if let Error::Engine { code } = err {
        return code;
    }
    let code = match &err {
        Error::Callback { code, .. } => *code,
        other => engine::engine_class(other.class()),
    };
    let class_name = crate::world::errhandler::class_name(err.class()).unwrap_or("MPI_ERR_OTHER");
    let line = format!("mpicache: {name}: {class_name}: {err}");
    let (kind, obj) = match scope {
        Scope::Comm(k) => (Some(ObjectKind::Comm), k),
        Scope::Win(k) => (Some(ObjectKind::Win), k),
        Scope::NoObject => (None, engine::facts().null_handle(ObjectKind::Comm)),
    };
    engine::raise(kind, obj, code, &line)
}
