//! The tool information interface (MPI 4.1 §15.3): its own reference-counted life
//! (`MPI_T_init_thread` / `MPI_T_finalize`, usable before `MPI_Init` and after `MPI_Finalize`)
//! and its own handles. Its routines return their codes directly (no error handler is called);
//! this module speaks in those codes ([`TResult`]).
//!
//! The tool handles live in tables of their own rather than the world's slabs: they outlive
//! `MPI_Finalize` (which resets the world), and their null values are the ABI's 0 (with
//! `MPI_T_PVAR_ALL_HANDLES` = 1) for every kind. A handle is `generation << 20 | (slot + 2)`, so
//! a freed or forged one is `MPI_T_ERR_INVALID_HANDLE`.

mod registry;
mod table;

pub mod events;
pub mod vars;

pub use registry::{active, finalize, init_thread, CvarHandle, PvarHandle, Tool};
pub use table::{find, index, TResult, Table};

use crate::consts::*;
use std::sync::OnceLock;

/// The variables, built once (their names and descriptions are fixed for the process).
pub fn cvars() -> &'static [vars::Cvar] {
    static CVARS: OnceLock<Vec<vars::Cvar>> = OnceLock::new();
    CVARS.get_or_init(vars::cvars)
}

pub fn pvars() -> &'static [vars::Pvar] {
    static PVARS: OnceLock<Vec<vars::Pvar>> = OnceLock::new();
    PVARS.get_or_init(vars::pvars)
}

pub fn categories() -> &'static [vars::Category] {
    static CATS: OnceLock<Vec<vars::Category>> = OnceLock::new();
    CATS.get_or_init(vars::categories)
}

/// `MPI_T_cvar_handle_alloc`: no control variable is bound to an object; the count is 1.
pub fn cvar_handle_alloc(index: i32) -> TResult<(i32, i32)> {
    let mut t = active()?;
    let index = self::index(index, cvars().len())?;
    Ok((t.cvar_handles.insert(CvarHandle { index })?, 1))
}

pub fn cvar_handle_free(h: i32) -> TResult<()> {
    active()?.cvar_handles.remove(h).map(drop)
}

/// The variable a control variable handle is for.
pub fn cvar_of(h: i32) -> TResult<&'static vars::Cvar> {
    Ok(&cvars()[active()?.cvar_handles.get(h)?.index])
}

pub fn pvar_session_create() -> TResult<i32> {
    active()?.pvar_sessions.insert(())
}

/// `MPI_T_pvar_session_free`: its handles go with it.
pub fn pvar_session_free(session: i32) -> TResult<()> {
    let mut t = active()?;
    t.pvar_sessions
        .remove(session)
        .map_err(|_| MPI_T_ERR_INVALID_SESSION)?;
    for h in t.pvar_handles.handles() {
        if t.pvar_handles.get(h).is_ok_and(|p| p.session == session) {
            let _ = t.pvar_handles.remove(h);
        }
    }
    Ok(())
}

/// `MPI_T_pvar_handle_alloc` for a variable bound to the object `obj` (ignored when bound to
/// none); the count is 1.
pub fn pvar_handle_alloc(session: i32, index: i32, obj: Option<i32>) -> TResult<(i32, i32)> {
    let mut t = active()?;
    t.pvar_sessions
        .get(session)
        .map_err(|_| MPI_T_ERR_INVALID_SESSION)?;
    let index = self::index(index, pvars().len())?;
    let v = &pvars()[index];
    let obj = if v.bind == MPI_T_BIND_NO_OBJECT {
        0
    } else {
        let obj = obj.ok_or(MPI_T_ERR_INVALID_HANDLE)?;
        drop(t);
        vars::check_bound(v.what, obj)?;
        t = active()?;
        obj
    };
    let h = t.pvar_handles.insert(PvarHandle {
        session,
        index,
        obj,
    })?;
    Ok((h, 1))
}

/// The variable and object of a handle in `session`.
pub fn pvar_of(session: i32, h: i32) -> TResult<(&'static vars::Pvar, i32)> {
    let t = active()?;
    t.pvar_sessions
        .get(session)
        .map_err(|_| MPI_T_ERR_INVALID_SESSION)?;
    let p = t.pvar_handles.get(h)?;
    if p.session != session {
        return Err(MPI_T_ERR_INVALID_HANDLE);
    }
    Ok((&pvars()[p.index], p.obj))
}

pub fn pvar_handle_free(session: i32, h: i32) -> TResult<()> {
    pvar_of(session, h)?;
    active()?.pvar_handles.remove(h).map(drop)
}

/// Checks a session (for the calls that take `MPI_T_PVAR_ALL_HANDLES`).
pub fn pvar_session(session: i32) -> TResult<()> {
    active()?
        .pvar_sessions
        .get(session)
        .map(drop)
        .map_err(|_| MPI_T_ERR_INVALID_SESSION)
}
