//! Events of the tool information interface (MPI 4.1 §15.3.8): one event,
//! `mpicache_error_raised`, raised whenever an MPI call reports an error (from any face, before
//! its error handler runs), with two elements: the error code and its class (`MPI_INT` each).
//! One source, `mpicache_clock`: nanoseconds of a monotonic clock since the process's first
//! use of it, ordered. Callbacks run in the thread that raised the error, with no lock held, so
//! none is ever dropped; the dropped-events handler is kept and never called.

use super::registry::{active, Registration};
pub use super::registry::{DroppedCallback, EventCallback};
use super::table::{index, TResult};
use crate::consts::*;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The safety levels a callback can be registered at, weakest requirement first.
pub const SAFETY_LEVELS: [i32; 4] = [
    MPI_T_CB_REQUIRE_NONE,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
];

/// An event type's description.
pub struct Event {
    pub name: &'static str,
    pub desc: &'static str,
    /// Element datatypes and displacements.
    pub elements: &'static [(i32, isize)],
    pub source: usize,
}

pub const EVENTS: [Event; 1] = [Event {
    name: "mpicache_error_raised",
    desc: "An MPI call reported an error: its error code and error class",
    elements: &[(MPI_INT, 0), (MPI_INT, 4)],
    source: 0,
}];

/// The bytes of one event's data.
const EVENT_BYTES: usize = 8;

/// A timestamp source.
pub struct Source {
    pub name: &'static str,
    pub desc: &'static str,
    pub ordering: i32,
    pub ticks_per_second: i64,
    pub max_ticks: i64,
}

pub const SOURCES: [Source; 1] = [Source {
    name: "mpicache_clock",
    desc: "Nanoseconds of the process's monotonic clock since its first reading",
    ordering: MPI_T_SOURCE_ORDERED,
    ticks_per_second: 1_000_000_000,
    max_ticks: i64::MAX,
}];

/// A source's time now, in its ticks.
pub fn timestamp(source: usize) -> i64 {
    let _ = source;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    let ns = ORIGIN.get_or_init(Instant::now).elapsed().as_nanos();
    i64::try_from(ns).unwrap_or(i64::MAX)
}

/// An event instance, alive while its callbacks run.
#[derive(Clone, Copy)]
pub struct Instance {
    pub event: usize,
    pub timestamp: i64,
    pub data: [u8; EVENT_BYTES],
}

static INSTANCES: Mutex<Vec<(i32, Instance)>> = Mutex::new(Vec::new());
static NEXT_INSTANCE: AtomicI32 = AtomicI32::new(2);
/// Whether any callback was ever registered: an error raised before skips the tool's lock.
static ARMED: AtomicBool = AtomicBool::new(false);

/// The instance an `MPI_T_event_instance` names (only during its callbacks).
pub fn instance(h: i32) -> TResult<Instance> {
    let list = INSTANCES.lock().unwrap_or_else(|p| p.into_inner());
    list.iter()
        .find(|(id, _)| *id == h)
        .map(|(_, i)| *i)
        .ok_or(MPI_T_ERR_INVALID_HANDLE)
}

/// `MPI_T_event_handle_alloc`: events here are bound to no object.
pub fn handle_alloc(event: i32) -> TResult<i32> {
    let mut t = active()?;
    let event = index(event, EVENTS.len())?;
    t.registrations.insert(Registration {
        event,
        callbacks: [None, None, None, None],
        dropped: None,
    })
}

/// `MPI_T_event_register_callback`: replaces the callback of that safety level (`None`
/// removes it).
pub fn register_callback(
    reg: i32,
    safety: i32,
    cb: Option<(Arc<dyn EventCallback>, usize)>,
) -> TResult<()> {
    let level = SAFETY_LEVELS
        .iter()
        .position(|&s| s == safety)
        .ok_or(MPI_T_ERR_INVALID)?;
    let mut t = active()?;
    t.registrations.get_mut(reg)?.callbacks[level] = cb;
    ARMED.store(true, Ordering::Release);
    Ok(())
}

/// `MPI_T_event_set_dropped_handler`.
pub fn set_dropped(reg: i32, cb: Option<Arc<dyn DroppedCallback>>) -> TResult<()> {
    active()?.registrations.get_mut(reg)?.dropped = cb;
    Ok(())
}

/// Checks a registration and a safety level (the info calls).
pub fn check(reg: i32, safety: Option<i32>) -> TResult<()> {
    active()?.registrations.get(reg)?;
    if let Some(s) = safety {
        if !SAFETY_LEVELS.contains(&s) {
            return Err(MPI_T_ERR_INVALID);
        }
    }
    Ok(())
}

/// `MPI_T_event_handle_free`: no callback of it runs after this returns.
pub fn handle_free(reg: i32) -> TResult<()> {
    active()?.registrations.remove(reg).map(drop)
}

/// Raises `mpicache_error_raised` with an error code and its class.
pub fn error_raised(code: i32, class: i32) {
    if !ARMED.load(Ordering::Acquire) {
        return;
    }
    let calls: Vec<(i32, Arc<dyn EventCallback>, usize)> = {
        let Ok(t) = active() else { return };
        t.registrations
            .handles()
            .into_iter()
            .filter_map(|h| {
                let r = t.registrations.get(h).ok()?;
                if r.event != 0 {
                    return None;
                }
                // The context requires nothing: the callback of the weakest level set runs.
                let (cb, data) = r.callbacks.iter().flatten().next()?;
                Some((h, cb.clone(), *data))
            })
            .collect()
    };
    if calls.is_empty() {
        return;
    }
    let mut data = [0u8; EVENT_BYTES];
    data[..4].copy_from_slice(&code.to_ne_bytes());
    data[4..].copy_from_slice(&class.to_ne_bytes());
    let id = NEXT_INSTANCE
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
            Some(if n >= i32::MAX - 1 { 2 } else { n + 1 })
        })
        .unwrap_or(2);
    let inst = Instance {
        event: 0,
        timestamp: timestamp(0),
        data,
    };
    INSTANCES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push((id, inst));
    for (reg, cb, user_data) in calls {
        cb.call(id, reg, MPI_T_CB_REQUIRE_NONE, user_data);
    }
    INSTANCES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|(i, _)| *i != id);
}
