//! The runtime: the caching engine over the single-process world ([`State`]), and the life
//! cycle (init and finalize).
//!
//! One lock, the engine's, guards the world and the engine's state. Callbacks never run with it
//! held: every operation that calls user code takes what it needs under the lock, lets go,
//! calls, and takes the lock again to apply the result (`caching::ops`).

use crate::caching::convert::AttrWord;
use crate::caching::store::{Tables, GLOBAL_TABLES};
use crate::caching::{Cache, Locked};
use crate::consts::*;
use crate::error::{Error, Result};
use crate::kinds::HandleKind;
use crate::world::attr_cell::AttrCell;
use crate::world::datatype::predefined;
use crate::world::handle::Handle;
use crate::world::objects::comm::{Comm, Group};
use crate::world::objects::errhandler;
use crate::world::state::{Phase, State};
use std::sync::Arc;

/// The engine over this world; its own operations (life cycle, communicators, datatypes,
/// windows, ...) are written in this module's siblings as `impl Runtime` blocks.
pub type Runtime = Cache<State>;

static GLOBAL: Runtime = Runtime::new();

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
    /// A runtime before `MPI_Init`.
    pub const fn new() -> Runtime {
        Cache::over(State::new())
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
        if !st.up {
            self.bring_up(&mut st, initial)?;
        }
        INIT_THREAD.with(|t| t.set(true));
        st.phase = Phase::Initialized;
        Ok(provided)
    }

    /// Builds the predefined objects and opens the store: for `MPI_Init` or for the first
    /// session, whichever comes first (MPI 4.1 §11.3: sessions work without the World Model).
    pub(crate) fn bring_up(&self, st: &mut Locked<State>, initial: Handle) -> Result<()> {
        // The process's runtime keeps its store on the tables the hand-written getters read.
        let tables = std::ptr::eq(self, &GLOBAL).then_some(&GLOBAL_TABLES);
        self.open(st, tables);
        errhandler::install_predefined(&mut st.errhandlers)?;
        let world = Comm::new(vec![0], "MPI_COMM_WORLD", initial);
        let selfc = Comm::new(vec![0], "MPI_COMM_SELF", initial);
        st.comms.insert_predefined(Handle(MPI_COMM_WORLD), world)?;
        st.comms.insert_predefined(Handle(MPI_COMM_SELF), selfc)?;
        st.groups.insert_predefined(
            Handle(MPI_GROUP_EMPTY),
            Group {
                members: Vec::new(),
            },
        )?;
        st.infos.insert_predefined(
            Handle(MPI_INFO_ENV),
            crate::world::objects::info::Info::default(),
        )?;
        predefined::install_predefined(&mut st.types)?;
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
        st.up = true;
        self.set_active(true);
        Ok(())
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
        // Sessions still open keep their objects: only the World Model's own go now.
        let sessions_open = !self.lock().sessions.is_empty();
        let deleted = if sessions_open {
            self.delete_world_model_attributes()
        } else {
            self.delete_every_attribute()
        };
        let mut st = self.lock();
        let returns = st
            .comms
            .get(Handle(MPI_COMM_SELF))
            .map(|c| c.errhandler == Handle(MPI_ERRORS_RETURN))
            .unwrap_or(false);
        st.phase = Phase::Finalized;
        st.returns_after_finalize = returns;
        if !sessions_open {
            self.tear_down(&mut st);
        }
        deleted
    }

    /// The attributes of `MPI_COMM_SELF` (first) and `MPI_COMM_WORLD`, deleted as `MPI_Finalize`
    /// deletes them, for a finalize while sessions are still open.
    fn delete_world_model_attributes(&self) -> Result<()> {
        let mut first = None;
        for c in [MPI_COMM_SELF, MPI_COMM_WORLD] {
            if let Err(e) = self.delete_all_attrs_forced(crate::caching::ObjRef::comm(c)) {
                first.get_or_insert(e);
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// Releases everything the library allocated, once neither the World Model nor any session
    /// uses it; the phase and what errors do after finalize are kept.
    pub(crate) fn tear_down(&self, st: &mut Locked<State>) {
        let (phase, returns) = (st.phase, st.returns_after_finalize);
        self.close(st);
        st.world = State::new();
        st.phase = phase;
        st.returns_after_finalize = returns;
        // The tables of every object are gone: their memory goes back to the kernel.
        crate::primitives::alloc::give_back_free_memory();
    }

    /// Test support: forgets every object, keyval and attribute without running any callback
    /// and returns to the not-initialized phase, so one process can run many MPI lifetimes.
    /// Never called by the library itself.
    pub fn reset_for_tests(&self) {
        let mut st = self.lock();
        self.close(&mut st);
        st.world = State::new();
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
            HandleKind::Op if st.ops.get(h).is_ok() => Ok(()),
            HandleKind::Op => predefined::check_op(h),
            HandleKind::Session => st.sessions.get(h).map(drop),
            HandleKind::File => st.files.get(h).map(drop),
            HandleKind::Message => st.messages.get(h).map(drop),
        }
    }
}
