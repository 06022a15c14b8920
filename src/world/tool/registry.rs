//! What the tool interface holds between `MPI_T_init_thread` and the last `MPI_T_finalize`:
//! its handle tables and event registrations, behind one lock.

use super::table::{TResult, Table};
use crate::consts::*;
use std::sync::{Arc, Mutex, MutexGuard};

/// A tool's event callback, in whatever language.
pub trait EventCallback: Send + Sync {
    fn call(&self, instance: i32, registration: i32, safety: i32, user_data: usize);
}

/// A tool's dropped-events handler.
pub trait DroppedCallback: Send + Sync {}

/// An event registration (`MPI_T_event_registration`).
pub struct Registration {
    pub event: usize,
    /// One callback per safety level, with its user data.
    pub(super) callbacks: [Option<(Arc<dyn EventCallback>, usize)>; 4],
    pub(super) dropped: Option<Arc<dyn DroppedCallback>>,
}

/// A control variable handle.
pub struct CvarHandle {
    pub index: usize,
}

/// A performance variable handle: its session, variable and bound object.
pub struct PvarHandle {
    pub session: i32,
    pub index: usize,
    pub obj: i32,
}

/// Everything the interface holds between `MPI_T_init_thread` and the last `MPI_T_finalize`.
pub struct Tool {
    /// Initializations not yet finalized (MPI 4.1 §15.3.4).
    pub count: u32,
    pub cvar_handles: Table<CvarHandle>,
    pub pvar_sessions: Table<()>,
    pub pvar_handles: Table<PvarHandle>,
    pub registrations: Table<Registration>,
}

static TOOL: Mutex<Tool> = Mutex::new(Tool {
    count: 0,
    cvar_handles: Table::new(),
    pvar_sessions: Table::new(),
    pvar_handles: Table::new(),
    registrations: Table::new(),
});

fn lock() -> MutexGuard<'static, Tool> {
    TOOL.lock().unwrap_or_else(|p| p.into_inner())
}

/// The interface's state, once initialized: `MPI_T_ERR_NOT_INITIALIZED` otherwise.
pub fn active() -> TResult<MutexGuard<'static, Tool>> {
    let t = lock();
    if t.count == 0 {
        return Err(MPI_T_ERR_NOT_INITIALIZED);
    }
    Ok(t)
}

/// `MPI_T_init_thread`: every level is provided (the interface is thread-safe).
pub fn init_thread(required: i32) -> TResult<i32> {
    let mut t = lock();
    t.count = t.count.checked_add(1).ok_or(MPI_T_ERR_CANNOT_INIT)?;
    Ok(match required {
        MPI_THREAD_SINGLE | MPI_THREAD_FUNNELED | MPI_THREAD_SERIALIZED => required,
        _ => MPI_THREAD_MULTIPLE,
    })
}

/// `MPI_T_finalize`: the last one frees every handle, session and registration.
pub fn finalize() -> TResult<()> {
    let mut t = active()?;
    t.count -= 1;
    if t.count == 0 {
        t.cvar_handles.clear();
        t.pvar_handles.clear();
        t.pvar_sessions.clear();
        t.registrations.clear();
    }
    Ok(())
}
