//! [`EngineWorld`]: the caching engine's second world, the objects of the engine MPI, known
//! only by their handles' keys (src/layer/engine.rs).
//!
//! The layer owns only its own keyvals (tagged: caching/keyval/number.rs); predefined
//! keyvals and keyvals made inside the engine never reach the caching engine (the entry points
//! hand them to the engine's `PMPI_` routines), so this world has no predefined keyval.

use crate::caching::convert::AttrRead;
use crate::caching::store::Store;
use crate::caching::{Cache, ObjRef, World};
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;
use crate::layer::engine;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::OnceLock;

/// The engine's objects.
pub struct EngineWorld {
    /// `MPI_COMM_SELF`, `MPI_COMM_WORLD`: whose attributes finalize deletes first.
    first: Vec<ObjRef>,
    /// Set once the layer's `MPI_Finalize` has run its deletions and the engine's.
    closed: bool,
}

impl World for EngineWorld {
    fn check_active(&self) -> Result<()> {
        if self.closed {
            return Err(Error::Finalized);
        }
        Ok(())
    }

    fn check(&self, obj: ObjRef) -> Result<()> {
        // The engine's handles cannot be checked without raising the engine's own errors; the
        // null handle is the one the layer refuses itself (the engine's routines check the
        // others where the layer calls them).
        if obj.key == engine::facts().null(obj.kind) {
            return Err(Error::NullHandle {
                kind: obj.kind.handle_kind(),
            });
        }
        Ok(())
    }

    /// The keys are the engine's handles (engine.rs): MPICH's can share their low 24 bits past
    /// 16,384 objects of a kind, pointers anywhere: a hash directory.
    const DENSE_KEYS: bool = false;

    fn is_predefined(&self, obj: ObjRef) -> bool {
        let f = engine::facts();
        match obj.kind {
            ObjectKind::Comm => obj.key == f.comm_world || obj.key == f.comm_self,
            ObjectKind::Datatype => engine::type_is_named(obj.key),
            ObjectKind::Win => false,
        }
    }

    fn predefined_keyval(_keyval: i32) -> Option<ObjectKind> {
        None
    }

    fn predefined_attr(&self, _obj: ObjRef, _keyval: i32) -> Option<AttrRead> {
        None
    }

    fn finalize_first(&self) -> &[ObjRef] {
        &self.first
    }
}

/// The layer's engine, opened at its first use.
pub type LayerCache = Cache<EngineWorld>;

static CACHE: LayerCache = Cache::over(EngineWorld {
    first: Vec::new(),
    closed: false,
});
static OPEN: AtomicBool = AtomicBool::new(false);
/// Set when the layer's `MPI_Finalize` has run its deletions: from then on the engine's own
/// finalize may still call unprefixed routines (ROMIO frees its communicators), which go
/// straight to the engine.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether the layer has finalized (its routines then hand everything to the engine).
#[inline(always)]
pub fn closed() -> bool {
    CLOSED.load(Ordering::Acquire)
}
static OPENING: OnceLock<()> = OnceLock::new();
/// The store while the lock-free paths may answer: set once the layer is open, cleared before
/// it closes. One load for the hot paths, where [`cache`] and `Cache::live_store` take three
/// (the opening flag, the active flag, the store's cell).
static LIVE: AtomicPtr<Store> = AtomicPtr::new(std::ptr::null_mut());

/// The store for the lock-free paths (the layer opened on first use), or None when they may
/// not answer (the full path then says why).
#[inline(always)]
pub fn live_store() -> Option<&'static Store> {
    let p = LIVE.load(Ordering::Acquire);
    if p.is_null() {
        return opening_store();
    }
    // SAFETY: LIVE only ever holds the address of the layer's store, a `&'static Store` (the
    // cache keeps it for the whole process: closing drops the reference, not the store).
    Some(unsafe { &*p })
}

#[cold]
#[inline(never)]
fn opening_store() -> Option<&'static Store> {
    cache().live_store()
}

/// The layer's caching engine, opened on first use (the engine's facts read, the store made).
#[inline(always)]
pub fn cache() -> &'static LayerCache {
    if !OPEN.load(Ordering::Acquire) {
        open();
    }
    &CACHE
}

#[cold]
#[inline(never)]
fn open() {
    OPENING.get_or_init(|| {
        let f = engine::facts();
        let mut st = CACHE.lock();
        st.world.first = vec![
            ObjRef::new(ObjectKind::Comm, f.comm_self),
            ObjRef::new(ObjectKind::Comm, f.comm_world),
        ];
        CACHE.open(&mut st, None);
        CACHE.set_active(true);
        if let Some(store) = CACHE.store() {
            LIVE.store(store as *const Store as *mut Store, Ordering::Release);
        }
        OPEN.store(true, Ordering::Release);
    });
}

/// After the engine's finalize: no call is allowed any more.
pub fn close() {
    let c = cache();
    LIVE.store(std::ptr::null_mut(), Ordering::Release);
    let mut st = c.lock();
    st.world.closed = true;
    CLOSED.store(true, Ordering::Release);
    c.close(&mut st);
}
