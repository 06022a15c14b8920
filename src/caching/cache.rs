//! [`Cache`]: the engine over one world. One lock guards the world and the engine's own locked
//! state; the store is reached without it by the lock-free paths.
//!
//! Callbacks never run with the lock held: every operation that calls user code takes what it
//! needs under the lock, lets go, calls, and takes the lock again to apply the result
//! (`caching::ops`).

use crate::caching::keyval::KeyvalTable;
use crate::caching::object::ObjRef;
use crate::caching::store::{Store, Tables};
use crate::caching::world::World;
use crate::error::{Error, Result};
use crate::primitives::once_ptr::OncePtr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// The caching engine over the world `W`.
pub struct Cache<W: World> {
    locked: Mutex<Locked<W>>,
    /// Signalled whenever a deletion of [`Locked::deleting`] ends: a delete or free that met
    /// another thread's deletion of the same attribute waits on it for the outcome.
    deletion_ended: Condvar,
    /// Where attributes live, made at the first [`Cache::open`] and kept (lock-free readers
    /// may hold references into it at any time).
    store: OncePtr<Store>,
    /// Calls are allowed (opened, not closed): read by the calls that take no lock.
    active: AtomicBool,
}

/// What the engine's lock guards: the world, and the engine's locked state. Derefs to the
/// world, so a world's operations read their own fields through the guard.
pub struct Locked<W> {
    pub world: W,
    /// The store while the engine is open.
    pub(crate) store: Option<&'static Store>,
    /// Objects whose free is under way (their delete callbacks are running): a second free
    /// of one is refused.
    pub(crate) freeing: Vec<ObjRef>,
    /// Attribute deletions under way (a delete callback running, its attribute marked dying),
    /// with the thread running each: the same thread's nested calls treat the attribute as
    /// being deleted, other threads wait for the outcome.
    pub(crate) deleting: Vec<Deletion>,
}

/// An attribute deletion under way: `slot` of `obj`, on the thread `thread` ([`this_thread`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Deletion {
    pub obj: ObjRef,
    pub slot: u32,
    pub thread: usize,
}

/// A number that tells the running threads apart: the address of a thread-local (asking the
/// standard library for a thread id allocates a handle per thread that is never freed).
pub(crate) fn this_thread() -> usize {
    thread_local! {
        static ME: u8 = const { 0 };
    }
    ME.with(|m| std::ptr::from_ref(m) as usize)
}

impl<W> std::ops::Deref for Locked<W> {
    type Target = W;

    fn deref(&self) -> &W {
        &self.world
    }
}

impl<W> std::ops::DerefMut for Locked<W> {
    fn deref_mut(&mut self) -> &mut W {
        &mut self.world
    }
}

impl<W: World> Cache<W> {
    /// A closed engine over `world`.
    pub const fn over(world: W) -> Cache<W> {
        Cache {
            locked: Mutex::new(Locked {
                world,
                store: None,
                freeing: Vec::new(),
                deleting: Vec::new(),
            }),
            deletion_ended: Condvar::new(),
            store: OncePtr::new(),
            active: AtomicBool::new(false),
        }
    }

    /// The world and the engine's state, whatever the phase. A panic while locked does not
    /// wedge the library: the state is still consistent because every mutation is completed
    /// before user code runs.
    pub fn lock(&self) -> MutexGuard<'_, Locked<W>> {
        self.locked
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits, releasing the lock, until a deletion under way ends; returns the lock.
    pub(crate) fn wait_for_deletion<'a>(
        &'a self,
        st: MutexGuard<'a, Locked<W>>,
    ) -> MutexGuard<'a, Locked<W>> {
        self.deletion_ended
            .wait(st)
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Wakes whoever waits for a deletion to end (cheap with no one waiting).
    pub(crate) fn deletion_done(&self) {
        self.deletion_ended.notify_all();
    }

    /// The lock, if calls are allowed now (the world says).
    pub fn active(&self) -> Result<MutexGuard<'_, Locked<W>>> {
        let st = self.lock();
        st.world.check_active()?;
        Ok(st)
    }

    /// Opens the engine (`MPI_Init`): the store is made on `tables` (the process's
    /// [`crate::caching::store::GLOBAL_TABLES`], which only one engine may use) or, with
    /// `None`, on tables of its own, once; it is kept across close and open. The lock-free paths
    /// answer once [`Cache::set_active`] says so.
    pub fn open(&self, st: &mut Locked<W>, tables: Option<&'static Tables>) {
        st.store = Some(self.store.get_or_init(|| {
            Box::new(match tables {
                Some(t) => Store::with_tables(t, W::DENSE_KEYS),
                None => Store::new(W::DENSE_KEYS),
            })
        }));
    }

    /// Lets the lock-free paths answer (after `open`, once the world allows calls) or stops
    /// them (before `close`).
    pub fn set_active(&self, on: bool) {
        self.active.store(on, Ordering::Release);
    }

    /// Closes the engine (`MPI_Finalize`, test resets): the lock-free paths stop, and every
    /// attribute, object binding and keyval is forgotten without any callback.
    pub fn close(&self, st: &mut Locked<W>) {
        self.set_active(false);
        if let Some(s) = st.store.take() {
            s.clear();
        }
        st.freeing.clear();
        st.deleting.clear();
        self.deletion_done();
    }

    /// The attribute store while calls are allowed, without taking the lock; the precise
    /// error otherwise.
    #[inline(always)]
    pub fn active_store(&self) -> Result<&'static Store> {
        if self.active.load(Ordering::Acquire) {
            if let Some(s) = self.store() {
                return Ok(s);
            }
        }
        self.inactive_store()
    }

    /// The attribute store while calls are allowed, without taking the lock or calling
    /// anything: `None` also when the precise answer needs the lock (the fast paths then hand
    /// the call to the full one).
    #[inline(always)]
    pub fn live_store(&self) -> Option<&'static Store> {
        if self.active.load(Ordering::Acquire) {
            self.store()
        } else {
            None
        }
    }

    #[cold]
    #[inline(never)]
    fn inactive_store(&self) -> Result<&'static Store> {
        let st = self.active()?;
        st.store.ok_or(Error::NotInitialized)
    }

    /// The attribute store, once the engine has been opened.
    #[inline]
    pub fn store(&self) -> Option<&'static Store> {
        self.store.get()
    }
}

impl<W> Locked<W> {
    /// The keyval registry (an empty one while the engine is closed).
    pub fn keyvals(&self) -> &'static KeyvalTable {
        static NONE: KeyvalTable = KeyvalTable::new();
        self.store.map_or(&NONE, |s| &s.registry)
    }
}
