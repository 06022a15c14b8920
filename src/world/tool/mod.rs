//! The tool information interface (MPI 4.1 §15.3): its own reference-counted life
//! (`MPI_T_init_thread` / `MPI_T_finalize`, usable before `MPI_Init` and after `MPI_Finalize`)
//! and its own handles. Its routines return their codes directly (no error handler is called);
//! this module speaks in those codes ([`TResult`]).
//!
//! The tool handles live in tables of their own rather than the world's slabs: they outlive
//! `MPI_Finalize` (which resets the world), and their null values are the ABI's 0 (with
//! `MPI_T_PVAR_ALL_HANDLES` = 1) for every kind. A handle is `generation << 20 | (slot + 2)`, so
//! a freed or forged one is `MPI_T_ERR_INVALID_HANDLE`.

pub mod events;
pub mod vars;

use crate::consts::*;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// A tool routine's outcome: its return code on failure.
pub type TResult<T> = std::result::Result<T, i32>;

const SLOT_BITS: u32 = 20;

/// A table of tool handles of one kind.
pub struct Table<T> {
    slots: Vec<(u16, Option<T>)>,
}

impl<T> Table<T> {
    const fn new() -> Self {
        Table { slots: Vec::new() }
    }

    fn insert(&mut self, value: T) -> TResult<i32> {
        let i = match self.slots.iter().position(|(_, v)| v.is_none()) {
            Some(i) => i,
            None => {
                if self.slots.len() + 2 >= 1 << SLOT_BITS {
                    return Err(MPI_T_ERR_OUT_OF_HANDLES);
                }
                self.slots.try_reserve(1).map_err(|_| MPI_T_ERR_MEMORY)?;
                self.slots.push((0, None));
                self.slots.len() - 1
            }
        };
        let slot = &mut self.slots[i];
        slot.1 = Some(value);
        Ok((i32::from(slot.0) << SLOT_BITS) | (i as i32 + 2))
    }

    fn index(&self, h: i32) -> Option<usize> {
        let i = usize::try_from((h & ((1 << SLOT_BITS) - 1)) - 2).ok()?;
        let gen = (h >> SLOT_BITS) as u16;
        (h > 1
            && self
                .slots
                .get(i)
                .is_some_and(|(g, v)| *g == gen && v.is_some()))
        .then_some(i)
    }

    pub fn get(&self, h: i32) -> TResult<&T> {
        let i = self.index(h).ok_or(MPI_T_ERR_INVALID_HANDLE)?;
        self.slots[i].1.as_ref().ok_or(MPI_T_ERR_INVALID_HANDLE)
    }

    pub fn get_mut(&mut self, h: i32) -> TResult<&mut T> {
        let i = self.index(h).ok_or(MPI_T_ERR_INVALID_HANDLE)?;
        self.slots[i].1.as_mut().ok_or(MPI_T_ERR_INVALID_HANDLE)
    }

    fn remove(&mut self, h: i32) -> TResult<T> {
        let i = self.index(h).ok_or(MPI_T_ERR_INVALID_HANDLE)?;
        let slot = &mut self.slots[i];
        // Generations stay below 2^11, so a handle stays a positive int.
        slot.0 = (slot.0 + 1) & 0x7ff;
        slot.1.take().ok_or(MPI_T_ERR_INVALID_HANDLE)
    }

    fn clear(&mut self) {
        for slot in &mut self.slots {
            if slot.1.take().is_some() {
                slot.0 = (slot.0 + 1) & 0x7ff;
            }
        }
    }

    fn handles(&self) -> Vec<i32> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, (_, v))| v.is_some())
            .map(|(i, (g, _))| (i32::from(*g) << SLOT_BITS) | (i as i32 + 2))
            .collect()
    }
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
    pub registrations: Table<events::Registration>,
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

/// A variable, category, event or source index, checked against `n`.
pub fn index(i: i32, n: usize) -> TResult<usize> {
    usize::try_from(i)
        .ok()
        .filter(|&i| i < n)
        .ok_or(MPI_T_ERR_INVALID_INDEX)
}

/// The index of the item named `name` among `names`.
pub fn find<'a>(names: impl Iterator<Item = &'a str>, name: &str) -> TResult<i32> {
    names
        .enumerate()
        .find(|(_, n)| *n == name)
        .map(|(i, _)| i as i32)
        .ok_or(MPI_T_ERR_INVALID_NAME)
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
