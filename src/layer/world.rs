//! [`EngineWorld`]: the caching engine's second world, the objects of the engine MPI, known
//! only by their handles' keys (src/layer/engine.rs).
//!
//! The layer owns only its own keyvals (tagged: caching/keyval/number.rs); predefined
//! keyvals and keyvals made inside the engine never reach the caching engine (the entry points
//! hand them to the engine's `PMPI_` routines), so this world has no predefined keyval.

use crate::caching::convert::AttrRead;
use crate::caching::{Cache, ObjRef, World};
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;
use crate::layer::engine;
use std::sync::atomic::{AtomicBool, Ordering};
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

    /// Over Open MPI the keys are Fortran handles (engine.rs): small, one per live object, so
    /// the store's array directory serves them. MPICH's handles (and the ABI's integers, which
    /// are MPICH's) can share their low 24 bits past 16,384 objects of a kind: a hash directory.
    const DENSE_KEYS: bool = cfg!(all(not(layer_int_handles), not(layer_abi)));

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
        OPEN.store(true, Ordering::Release);
    });
}

/// After the engine's finalize: no call is allowed any more.
pub fn close() {
    let c = cache();
    let mut st = c.lock();
    st.world.closed = true;
    CLOSED.store(true, Ordering::Release);
    c.close(&mut st);
}
