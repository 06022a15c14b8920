//! Unit tests of the caching rules (MPI 4.1 §7.7, §11.2.4, §20.3.7) on the engine alone, over
//! a small fake world: objects are keys in a set, two communicators are predefined (keys 0x101
//! and 0x102, as `MPI_COMM_WORLD` and `MPI_COMM_SELF`, so that logs read as in a real run), and
//! a few keyvals are predefined with values of their own. No communicator, group, datatype or
//! window exists here: only what the `World` trait says.
//!
//! - [`attr`]: set, get, delete, overwrite; predefined and wrong-kind keyvals; keyvals freed
//!   while attributes use them;
//! - [`dup_free`]: copy callbacks on dup and the cleanup of a failed one, free order, failure
//!   and retry, nested deletes and frees;
//! - [`finalize`]: what `MPI_Finalize` deletes, and in which order.
// The C view of a Fortran-set value is an address: tests read through it as C would.
#![allow(unsafe_code)]

mod attr;
mod delete_waits;
mod dup_free;
mod finalize;

use crate::caching::callback::{
    CallbackCall, Convention, CopyCallback, CopyFn, DeleteCallback, DeleteFn,
};
use crate::caching::convert::{AttrRead, AttrWord};
use crate::caching::{Cache, ObjKey, ObjRef, ObjectKind, World};
use crate::consts::*;
use crate::error::{BadHandleReason, Error, Result};
use std::collections::HashSet;
use std::sync::atomic::{AtomicI32, AtomicI64};
use std::sync::{Arc, Mutex};

/// Where the fake world is in its life cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Open,
    /// Inside finalize, while delete callbacks run (calls are still allowed).
    Finalizing,
    Finalized,
}

/// A predefined attribute's storage: C readers of an integer value get the address of `int`,
/// which must not move (boxed).
struct Predefined {
    kind: ObjectKind,
    keyval: i32,
    value: AttrWord,
    word: AtomicI64,
    int: AtomicI32,
}

/// The fake world: live objects by key, a phase, predefined keyvals and their values.
pub(super) struct FakeWorld {
    phase: Phase,
    live: HashSet<ObjRef>,
    predefined_objects: HashSet<ObjRef>,
    /// Boxed: C readers point into them, which must not move.
    #[allow(clippy::vec_box)]
    predefined: Vec<Box<Predefined>>,
    first: [ObjRef; 2],
    /// The next key's index; keys are never reused, so a freed key stays invalid.
    next: i32,
}

/// The fake's predefined communicators, keyed as the single-process world keys them.
pub(super) const WORLD: ObjRef = ObjRef::comm(MPI_COMM_WORLD);
pub(super) const SELF: ObjRef = ObjRef::comm(MPI_COMM_SELF);

/// The fake's predefined keyvals: two on communicators, one on windows.
const FAKE_PREDEFINED: [(i32, ObjectKind); 3] = [
    (MPI_TAG_UB, ObjectKind::Comm),
    (MPI_LASTUSEDCODE, ObjectKind::Comm),
    (MPI_WIN_BASE, ObjectKind::Win),
];

impl FakeWorld {
    fn new() -> FakeWorld {
        let integer = |kind, keyval, v: i32| {
            Box::new(Predefined {
                kind,
                keyval,
                value: AttrWord::from_fortran_integer(v),
                word: AtomicI64::new(v as i64),
                int: AtomicI32::new(v),
            })
        };
        FakeWorld {
            phase: Phase::Open,
            live: [WORLD, SELF].into_iter().collect(),
            predefined_objects: [WORLD, SELF].into_iter().collect(),
            predefined: vec![
                integer(ObjectKind::Comm, MPI_TAG_UB, TAG_UB_VALUE),
                integer(ObjectKind::Comm, MPI_LASTUSEDCODE, MPI_ERR_LASTCODE),
            ],
            first: [SELF, WORLD],
            next: 0x400,
        }
    }

    /// A new object of `kind`: a key with bit 30 set, as the single-process world's.
    pub(super) fn create(&mut self, kind: ObjectKind) -> ObjRef {
        let obj = ObjRef::of_int(kind, (1 << 30) | self.next);
        self.next += 1;
        self.live.insert(obj);
        obj
    }

    pub(super) fn is_live(&self, obj: ObjRef) -> bool {
        self.live.contains(&obj)
    }

    /// Live objects of `kind`, predefined ones included.
    pub(super) fn count(&self, kind: ObjectKind) -> usize {
        self.live.iter().filter(|o| o.kind == kind).count()
    }

    pub(super) fn phase(&self) -> Phase {
        self.phase
    }
}

impl World for FakeWorld {
    fn check_active(&self) -> Result<()> {
        match self.phase {
            Phase::Open | Phase::Finalizing => Ok(()),
            Phase::Finalized => Err(Error::Finalized),
        }
    }

    fn check(&self, obj: ObjRef) -> Result<()> {
        if self.live.contains(&obj) {
            return Ok(());
        }
        Err(Error::BadHandle {
            kind: obj.kind.handle_kind(),
            handle: obj.key.int(),
            reason: BadHandleReason::Forged,
        })
    }

    fn is_predefined(&self, obj: ObjRef) -> bool {
        self.predefined_objects.contains(&obj)
    }

    fn predefined_keyval(keyval: i32) -> Option<ObjectKind> {
        FAKE_PREDEFINED
            .iter()
            .find(|(k, _)| *k == keyval)
            .map(|&(_, kind)| kind)
    }

    fn predefined_attr(&self, obj: ObjRef, keyval: i32) -> Option<AttrRead> {
        let p = self
            .predefined
            .iter()
            .find(|p| p.kind == obj.kind && p.keyval == keyval)?;
        Some(AttrRead {
            value: p.value,
            c_view: p
                .value
                .c_view(p.word.as_ptr() as usize, p.int.as_ptr() as usize),
        })
    }

    fn finalize_first(&self) -> &[ObjRef] {
        &self.first
    }
}

/// The engine over a fresh fake world (leaked: callbacks keep references to it).
pub(super) fn cache() -> &'static Cache<FakeWorld> {
    let c: &'static Cache<FakeWorld> = Box::leak(Box::new(Cache::over(FakeWorld::new())));
    let mut st = c.lock();
    c.open(&mut st, None);
    drop(st);
    c.set_active(true);
    c
}

/// What the world's own operations would do around the engine's.
pub(super) trait Ops {
    fn new_obj(&self, kind: ObjectKind) -> ObjRef;
    fn dup(&self, obj: ObjRef) -> Result<ObjRef>;
    fn free(&self, obj: ObjRef) -> Result<()>;
    fn finalize(&self) -> Result<()>;
    fn is_live(&self, obj: ObjRef) -> bool;
}

impl Ops for Cache<FakeWorld> {
    fn new_obj(&self, kind: ObjectKind) -> ObjRef {
        self.lock().world.create(kind)
    }

    fn dup(&self, obj: ObjRef) -> Result<ObjRef> {
        let key = self.dup_object(
            obj,
            |w| {
                w.check(obj)?;
                Ok(w.create(obj.kind).key)
            },
            |w, key| {
                w.live.remove(&ObjRef::new(obj.kind, key));
            },
        )?;
        Ok(ObjRef::new(obj.kind, key))
    }

    fn free(&self, obj: ObjRef) -> Result<()> {
        self.free_object(obj, |w| {
            w.live.remove(&obj);
            Ok(())
        })
    }

    fn finalize(&self) -> Result<()> {
        self.lock().world.phase = Phase::Finalizing;
        let deleted = self.delete_every_attribute();
        let mut st = self.lock();
        self.close(&mut st);
        st.world.phase = Phase::Finalized;
        st.world.live.clear();
        deleted
    }

    fn is_live(&self, obj: ObjRef) -> bool {
        self.lock().world.is_live(obj)
    }
}

pub(super) type Log = Arc<Mutex<Vec<String>>>;

/// A copy callback that logs and copies the word + 1000 as a Fortran address, or fails at a
/// given value.
pub(super) struct Copy {
    pub(super) log: Log,
    pub(super) fail_on: Option<i64>,
}

impl CopyCallback for Copy {
    fn copy(&self, c: &CallbackCall<'_>) -> std::result::Result<Option<AttrWord>, i32> {
        let v = c.value.value.word;
        self.log.lock().unwrap().push(format!("copy {v}"));
        if Some(v) == self.fail_on {
            return Err(MPI_ERR_OTHER);
        }
        Ok(Some(AttrWord::from_fortran_address(v + 1000)))
    }
    fn convention(&self) -> Convention {
        Convention::FortranAddress
    }
}

/// A delete callback that logs the object, value and extra state, or fails at a given value.
pub(super) struct Delete {
    pub(super) log: Log,
    pub(super) fail_on: Arc<Mutex<Option<i64>>>,
}

impl DeleteCallback for Delete {
    fn delete(&self, c: &CallbackCall<'_>) -> std::result::Result<(), i32> {
        let v = c.value.value.word;
        self.log.lock().unwrap().push(format!(
            "delete {v} on {:#x} extra {}",
            c.object.int(),
            c.extra_state.word()
        ));
        if Some(v) == *self.fail_on.lock().unwrap() {
            return Err(MPI_ERR_OTHER);
        }
        Ok(())
    }
    fn convention(&self) -> Convention {
        Convention::C
    }
}

/// A keyval whose callbacks log, and the switch that makes its delete callback fail.
pub(super) struct Kv {
    pub(super) number: i32,
    pub(super) log: Log,
    pub(super) fail_delete: Arc<Mutex<Option<i64>>>,
}

/// A keyval of `kind` with a logging delete callback and, with `copy` `None`, the native
/// `*_DUP_FN`; with `Some(fail_on)`, a logging user copy callback failing at `fail_on`.
pub(super) fn keyval(
    c: &Cache<FakeWorld>,
    kind: ObjectKind,
    copy: Option<Option<i64>>,
    extra: i64,
) -> Kv {
    let log: Log = Arc::default();
    let fail_delete = Arc::new(Mutex::new(None));
    let copy = match copy {
        None => CopyFn::Dup,
        Some(fail_on) => CopyFn::User(Box::new(Copy {
            log: log.clone(),
            fail_on,
        })),
    };
    let delete = DeleteFn::User(Box::new(Delete {
        log: log.clone(),
        fail_on: fail_delete.clone(),
    }));
    let number = c.create_keyval(kind, copy, delete, extra).unwrap();
    Kv {
        number,
        log,
        fail_delete,
    }
}

/// The callbacks a keyval ran since last asked.
pub(super) fn events(kv: &Kv) -> Vec<String> {
    std::mem::take(&mut *kv.log.lock().unwrap())
}

/// The word of an attribute, `None` when not set.
pub(super) fn word(c: &Cache<FakeWorld>, obj: ObjRef, k: i32) -> Option<i64> {
    c.get_attr(obj, k).unwrap().map(|r| r.value.word)
}

/// The class of an error that must be `MPI_ERR_KEYVAL`'s.
pub(super) fn keyval_class(r: Result<impl std::fmt::Debug>) -> i32 {
    r.expect_err("MPI_ERR_KEYVAL expected").class()
}

/// An object key the fake world never made.
pub(super) const FORGED: ObjKey = ObjKey(0x7777);
