//! The runtime: all state behind one lock, and the life cycle (init and finalize).
//!
//! Callbacks never run with the lock held: every operation that calls user code takes what it
//! needs under the lock, lets go, calls, and takes the lock again to apply the result.

use crate::caching::convert::AttrWord;
use crate::caching::store::{Store, Tables};
use crate::consts::*;
use crate::error::{Error, Result};
use crate::kinds::HandleKind;
use crate::primitives::once_ptr::OncePtr;
use crate::world::attr_cell::AttrCell;
use crate::world::comm::{Comm, Group};
use crate::world::handle::Handle;
use crate::world::state::{Phase, State};
use crate::world::{datatype, errhandler, ObjRef, ObjectKind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

pub struct Runtime {
    state: Mutex<State>,
    /// Where attributes live, made at the first init and kept (lock-free readers may hold
    /// references into it at any time).
    store: OncePtr<Store>,
    /// MPI calls are allowed (initialized, not finalized): read by the calls that take no lock.
    active: AtomicBool,
}

static GLOBAL: Runtime = Runtime::new();

/// The tables of the process's store (see [`Tables`]): zeroes in `.bss` until used.
pub(crate) static GLOBAL_TABLES: Tables = Tables::new();

thread_local! {
    /// Marks the thread that called `MPI_Init` (`MPI_Is_thread_main`). A plain flag: asking the
    /// standard library for the thread's id would allocate a handle that is never freed.
    static INIT_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Default for Runtime {
    fn default() -> Self {
        Self::new()
    }
}

impl Runtime {
    pub const fn new() -> Runtime {
        Runtime {
            state: Mutex::new(State::new()),
            store: OncePtr::new(),
            active: AtomicBool::new(false),
        }
    }

    /// The tables of the process's runtime, for the entry points' lock-free paths: before
    /// `MPI_Init` and after `MPI_Finalize` they are empty, and every read goes to the locked path.
    #[inline(always)]
    pub fn global_tables() -> &'static Tables {
        &GLOBAL_TABLES
    }

    /// The process's runtime, used by the entry points.
    pub fn global() -> &'static Runtime {
        &GLOBAL
    }

    /// The state, whatever the phase. A panic while locked does not wedge the library: the
    /// state is still consistent because every mutation is completed before user code runs.
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The state, if MPI calls are allowed now.
    pub fn active(&self) -> Result<MutexGuard<'_, State>> {
        let st = self.lock();
        st.check_active()?;
        Ok(st)
    }

    /// The attribute store while MPI calls are allowed, without taking the lock; the precise
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

    /// The attribute store while MPI calls are allowed, without taking the lock or calling
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

    /// The attribute store, once MPI has been initialized.
    #[inline]
    pub fn store(&self) -> Option<&'static Store> {
        self.store.get()
    }

    /// Whether the calling thread is the one that initialized MPI.
    pub fn is_init_thread(&self) -> bool {
        INIT_THREAD.with(|t| t.get())
    }

    pub fn phase(&self) -> Phase {
        self.lock().phase
    }

    /// `MPI_Init_thread`: builds the predefined objects; returns the provided thread level.
    pub fn init(&self, required: i32) -> Result<i32> {
        self.init_with(required, Handle(MPI_ERRORS_ARE_FATAL))
    }

    /// `MPI_Init_thread` with the initial error handler (MPI 4.1 §9.3: `MPI_ERRORS_ARE_FATAL`
    /// unless `mpiexec -initial-errhandler` chose another predefined one), which
    /// `MPI_COMM_WORLD` and `MPI_COMM_SELF` start with.
    pub fn init_with(&self, required: i32, initial_errhandler: Handle) -> Result<i32> {
        let initial = match initial_errhandler.0 {
            MPI_ERRORS_ARE_FATAL | MPI_ERRORS_RETURN | MPI_ERRORS_ABORT => initial_errhandler,
            _ => Handle(MPI_ERRORS_ARE_FATAL),
        };
        let mut st = self.lock();
        match st.phase {
            Phase::NotInitialized => {}
            Phase::Finalized => return Err(Error::Finalized),
            Phase::Initialized | Phase::Finalizing => return Err(Error::AlreadyInitialized),
        }
        let provided = match required {
            MPI_THREAD_SINGLE
            | MPI_THREAD_FUNNELED
            | MPI_THREAD_SERIALIZED
            | MPI_THREAD_MULTIPLE => required,
            _ => MPI_THREAD_MULTIPLE,
        };
        st.thread_level = provided;
        st.store = Some(self.store.get_or_init(|| {
            Box::new(if std::ptr::eq(self, &GLOBAL) {
                Store::with_tables(&GLOBAL_TABLES)
            } else {
                Store::new()
            })
        }));
        INIT_THREAD.with(|t| t.set(true));
        errhandler::install_predefined(&mut st);
        let world = Comm::new(vec![0], "MPI_COMM_WORLD", initial);
        let selfc = Comm::new(vec![0], "MPI_COMM_SELF", initial);
        st.comms.insert_predefined(Handle(MPI_COMM_WORLD), world);
        st.comms.insert_predefined(Handle(MPI_COMM_SELF), selfc);
        st.groups.insert_predefined(
            Handle(MPI_GROUP_EMPTY),
            Group {
                members: Vec::new(),
            },
        );
        st.infos
            .insert_predefined(Handle(MPI_INFO_ENV), crate::world::info::Info::default());
        datatype::install_predefined(&mut st.types);
        // MPI 4.1 §20.3.7: integer-valued predefined attributes behave as if put by the
        // deprecated Fortran MPI_ATTR_PUT, so C readers get a pointer to an int.
        let integer_valued = [
            (MPI_TAG_UB, TAG_UB_VALUE),
            (MPI_HOST, MPI_PROC_NULL),
            (MPI_IO, 0),
            (MPI_WTIME_IS_GLOBAL, 1),
            (MPI_APPNUM, 0),
            (MPI_UNIVERSE_SIZE, 1),
            (MPI_LASTUSEDCODE, MPI_ERR_LASTCODE),
        ];
        st.comm_predefined = integer_valued
            .iter()
            .map(|&(k, v)| {
                let cell = AttrCell::new(AttrWord::from_fortran_integer(v));
                (k, Arc::new(cell))
            })
            .collect();
        st.phase = Phase::Initialized;
        self.active.store(true, Ordering::Release);
        Ok(provided)
    }

    /// `MPI_Finalize`. `MPI_COMM_SELF` is freed first, its attributes deleted in reverse order of
    /// setting (MPI 4.1 §11.2.4), with `MPI_Finalized` still false; then the attributes still on
    /// `MPI_COMM_WORLD` and on every communicator, datatype and window the program did not free,
    /// so every attribute gets its delete callback exactly once. A failing delete callback does
    /// not stop finalization: the attribute is dropped, the rest still run, and the first
    /// failure is returned. Everything the library allocated is released.
    pub fn finalize(&self) -> Result<()> {
        {
            let mut st = self.lock();
            match st.phase {
                Phase::Initialized => st.phase = Phase::Finalizing,
                Phase::NotInitialized => return Err(Error::NotInitialized),
                Phase::Finalizing | Phase::Finalized => return Err(Error::Finalized),
            }
        }
        let mut first_error = None;
        // Callbacks may set new attributes while others are deleted: repeat until none is left.
        loop {
            let objects = self.objects_with_attributes();
            if objects.is_empty() {
                break;
            }
            for obj in objects {
                if let Err(e) = self.delete_all_attrs_forced(obj) {
                    first_error.get_or_insert(e);
                }
            }
        }
        let mut st = self.lock();
        let returns = st
            .comms
            .get(Handle(MPI_COMM_SELF))
            .map(|c| c.errhandler == Handle(MPI_ERRORS_RETURN))
            .unwrap_or(false);
        self.active.store(false, Ordering::Release);
        if let Some(s) = st.store {
            s.clear();
        }
        *st = State::new();
        st.phase = Phase::Finalized;
        st.returns_after_finalize = returns;
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Test support: forgets every object, keyval and attribute without running any callback
    /// and returns to the not-initialized phase, so one process can run many MPI lifetimes.
    /// Never called by the library itself.
    pub fn reset_for_tests(&self) {
        let mut st = self.lock();
        self.active.store(false, Ordering::Release);
        if let Some(s) = st.store {
            s.clear();
        }
        *st = State::new();
    }

    /// Objects that still carry attributes, in finalize order: `MPI_COMM_SELF`, `MPI_COMM_WORLD`,
    /// other communicators, datatypes, windows.
    fn objects_with_attributes(&self) -> Vec<ObjRef> {
        let st = self.lock();
        let mut out = Vec::new();
        let mut comms = st.comms.handles();
        comms.sort_by_key(|h| match h.0 {
            MPI_COMM_SELF => 0,
            MPI_COMM_WORLD => 1,
            _ => 2,
        });
        let kinds = [
            (ObjectKind::Comm, comms),
            (ObjectKind::Datatype, st.types.handles()),
            (ObjectKind::Win, st.wins.handles()),
        ];
        for (kind, handles) in kinds {
            for handle in handles {
                let obj = ObjRef { kind, handle };
                if st.attr_count(obj).is_ok_and(|n| n > 0) {
                    out.push(obj);
                }
            }
        }
        out
    }

    /// Checks that `h` names a live object of `kind` (any kind, attribute-carrying or not).
    pub fn check_handle(&self, kind: HandleKind, h: Handle) -> Result<()> {
        let st = self.active()?;
        match kind {
            HandleKind::Comm => st.comms.get(h).map(drop),
            HandleKind::Group => st.groups.get(h).map(drop),
            HandleKind::Datatype => st.types.get(h).map(drop),
            HandleKind::Win => st.wins.get(h).map(drop),
            HandleKind::Errhandler => st.errhandlers.get(h).map(drop),
            HandleKind::Request => st.requests.get(h).map(drop),
            // MPI_INFO_NULL is a valid info argument wherever an info is taken.
            HandleKind::Info if h.0 == MPI_INFO_NULL => Ok(()),
            HandleKind::Info => st.infos.get(h).map(drop),
            HandleKind::Op => crate::world::datatype::check_op(h),
        }
    }
}
