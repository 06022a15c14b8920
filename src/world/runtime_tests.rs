//! Tests of the attribute engine through the runtime, with callbacks written in Rust.
//! Each names the rule it checks.

use crate::caching::callback::*;
use crate::caching::convert::{AttrWord, Provenance};
use crate::consts::*;
use crate::world::state::Phase;
use crate::world::{Error, Handle, ObjRef, ObjectKind, Runtime};
use std::sync::{Arc, Mutex};

type Log = Arc<Mutex<Vec<String>>>;

fn runtime() -> &'static Runtime {
    let rt: &'static Runtime = Box::leak(Box::new(Runtime::new()));
    rt.init(MPI_THREAD_MULTIPLE).unwrap();
    rt
}

/// A copy callback that logs and copies the word as a C pointer, or fails at a given value.
struct Copy {
    log: Log,
    fail_on: Option<i64>,
}
impl CopyCallback for Copy {
    fn copy(&self, c: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
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
struct Delete {
    log: Log,
    fail_on: Arc<Mutex<Option<i64>>>,
}
impl DeleteCallback for Delete {
    fn delete(&self, c: &CallbackCall<'_>) -> Result<(), i32> {
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

struct Kv {
    number: i32,
    log: Log,
    fail_delete: Arc<Mutex<Option<i64>>>,
}

fn keyval(rt: &Runtime, kind: ObjectKind, copy: Option<Option<i64>>, extra: i64) -> Kv {
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
    let number = rt.create_keyval(kind, copy, delete, extra).unwrap();
    Kv {
        number,
        log,
        fail_delete,
    }
}

fn events(kv: &Kv) -> Vec<String> {
    std::mem::take(&mut *kv.log.lock().unwrap())
}

const WORLD: ObjRef = ObjRef::comm(MPI_COMM_WORLD);
const SELF: ObjRef = ObjRef::comm(MPI_COMM_SELF);

fn word(rt: &Runtime, obj: ObjRef, k: i32) -> Option<i64> {
    rt.get_attr(obj, k).unwrap().map(|r| r.value.word)
}

// MPI 4.1 §7.7.2: overwriting an attribute calls the delete callback on the old value.
#[test]
fn overwrite_deletes_old_value_and_delete_of_unset_calls_nothing() {
    let rt = runtime();
    let kv = keyval(rt, ObjectKind::Comm, None, 5);
    rt.delete_attr(WORLD, kv.number).unwrap();
    assert!(
        events(&kv).is_empty(),
        "deleting an unset attribute calls nothing"
    );
    rt.set_attr(WORLD, kv.number, AttrWord::from_c_pointer(1))
        .unwrap();
    rt.set_attr(WORLD, kv.number, AttrWord::from_c_pointer(2))
        .unwrap();
    assert_eq!(events(&kv), vec!["delete 1 on 0x101 extra 5"]);
    assert_eq!(word(rt, WORLD, kv.number), Some(2));
    rt.delete_attr(WORLD, kv.number).unwrap();
    assert_eq!(events(&kv), vec!["delete 2 on 0x101 extra 5"]);
    assert_eq!(word(rt, WORLD, kv.number), None);
}

// DESIGN "failure": a failing delete callback leaves the attribute and returns its code.
#[test]
fn failing_delete_callback_leaves_the_attribute() {
    let rt = runtime();
    let kv = keyval(rt, ObjectKind::Comm, None, 0);
    rt.set_attr(WORLD, kv.number, AttrWord::from_c_pointer(7))
        .unwrap();
    *kv.fail_delete.lock().unwrap() = Some(7);
    let err = rt.delete_attr(WORLD, kv.number).unwrap_err();
    assert_eq!(err.code(), MPI_ERR_OTHER);
    assert_eq!(
        word(rt, WORLD, kv.number),
        Some(7),
        "delete failed: the attribute stays"
    );
    let err = rt
        .set_attr(WORLD, kv.number, AttrWord::from_c_pointer(8))
        .unwrap_err();
    assert_eq!(err.code(), MPI_ERR_OTHER);
    assert_eq!(
        word(rt, WORLD, kv.number),
        Some(7),
        "overwrite failed: the old value stays"
    );
    *kv.fail_delete.lock().unwrap() = None;
    rt.delete_attr(WORLD, kv.number).unwrap();
    assert_eq!(events(&kv).len(), 3, "two failed attempts and one success");
}

// MPI 4.1 §7.7.2: dup runs copy callbacks in order of setting; DUP keeps the provenance.
#[test]
fn dup_copies_with_callbacks_and_dup_fn_keeps_provenance() {
    let rt = runtime();
    let a = keyval(rt, ObjectKind::Comm, Some(None), 0);
    let b = keyval(rt, ObjectKind::Comm, None, 0);
    rt.set_attr(WORLD, a.number, AttrWord::from_c_pointer(1))
        .unwrap();
    rt.set_attr(WORLD, b.number, AttrWord::from_fortran_integer(-5))
        .unwrap();
    let dup = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    let d = ObjRef::comm(dup.0);
    assert_eq!(events(&a), vec!["copy 1"]);
    let ra = rt.get_attr(d, a.number).unwrap().unwrap();
    assert_eq!(
        ra.value,
        AttrWord::from_fortran_address(1001),
        "stored with the callback's provenance"
    );
    let rb = rt.get_attr(d, b.number).unwrap().unwrap();
    assert_eq!(
        rb.value,
        AttrWord {
            word: -5,
            provenance: Provenance::FortranInteger
        }
    );
    let old_view = rt.get_attr(WORLD, b.number).unwrap().unwrap().c_view;
    assert_ne!(
        rb.c_view, old_view,
        "the copy has its own internal int, not a pointer into the old object"
    );
    // SAFETY: c_view points at the attribute's internal int, alive while the attribute is.
    assert_eq!(unsafe { *(rb.c_view as *const i32) }, -5);
    rt.comm_free(dup).unwrap();
    assert_eq!(
        events(&a),
        vec![format!("delete 1001 on {:#x} extra 0", dup.0)]
    );
    assert_eq!(
        events(&b),
        vec![format!("delete -5 on {:#x} extra 0", dup.0)]
    );
    rt.delete_attr(WORLD, a.number).unwrap();
    rt.delete_attr(WORLD, b.number).unwrap();
}

// DESIGN "failure": a failing copy callback fails the dup; copies already made are deleted once.
#[test]
fn failing_copy_callback_fails_the_dup_and_cleans_up() {
    let rt = runtime();
    let comm = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    let c = ObjRef::comm(comm.0);
    let kvs: Vec<Kv> = (0..4)
        .map(|i| keyval(rt, ObjectKind::Comm, Some(Some(100 + i)), 0))
        .collect();
    for k in 0..4usize {
        // The k-th keyval's copy fails (its value is 100 + k), the others succeed.
        for (i, kv) in kvs.iter().enumerate() {
            let v = if i == k { 100 + i } else { i };
            rt.set_attr(c, kv.number, AttrWord::from_c_pointer(v))
                .unwrap();
            events(kv);
        }
        let before = rt.lock().comms.len();
        let err = rt.comm_dup(comm);
        let fail = err.unwrap_err();
        assert_eq!(fail.code(), MPI_ERR_OTHER);
        assert_eq!(
            rt.lock().comms.len(),
            before,
            "the new communicator is gone"
        );
        for (i, kv) in kvs.iter().enumerate() {
            let ev = events(kv);
            if i < k {
                assert_eq!(
                    ev.len(),
                    2,
                    "attribute {i} copied then deleted once: {ev:?}"
                );
                assert!(ev[1].starts_with(&format!("delete {}", i + 1000)));
            } else if i == k {
                assert_eq!(ev, vec![format!("copy {}", 100 + i)]);
            } else {
                assert!(ev.is_empty(), "no copy after the failure");
            }
        }
    }
    rt.comm_free(comm).unwrap();
}

fn keyval_class(r: Result<impl std::fmt::Debug, Error>) -> i32 {
    r.expect_err("MPI_ERR_KEYVAL expected").class()
}

// MPI 4.1 §7.7.2 MPI_COMM_FREE_KEYVAL: "the actual free does not transpire until after all
// references ... to the key have been freed. These references need to be explicitly freed by
// the program, either via calls to MPI_COMM_DELETE_ATTR ... or by calls to MPI_COMM_FREE". Until
// then the number names the attributes it has: get, delete and overwrite work, dup copies them
// (a new attribute under the freed keyval), callbacks run as before; a set creating an attribute
// and a second free are MPI_ERR_KEYVAL and change nothing.
#[test]
fn keyval_freed_in_use() {
    let rt = runtime();
    let comm = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    let c = ObjRef::comm(comm.0);
    let kv = keyval(rt, ObjectKind::Comm, None, 0);
    rt.set_attr(c, kv.number, AttrWord::from_c_pointer(9))
        .unwrap();
    rt.free_keyval(ObjectKind::Comm, kv.number).unwrap();
    assert!(events(&kv).is_empty(), "freeing the keyval deletes nothing");
    // Get: a hit where the attribute is, flag = false elsewhere (every reader's path).
    assert_eq!(word(rt, c, kv.number), Some(9));
    assert_eq!(rt.get_attr_c_view(c, kv.number).unwrap(), Some(9));
    assert_eq!(rt.get_attr_word(c, kv.number).unwrap(), Some(9));
    assert_eq!(word(rt, SELF, kv.number), None);
    assert_eq!(rt.get_attr_word(SELF, kv.number).unwrap(), None);
    // Errors that change nothing: a second free, a set creating an attribute, another kind.
    assert_eq!(
        keyval_class(rt.free_keyval(ObjectKind::Comm, kv.number)),
        MPI_ERR_KEYVAL
    );
    assert_eq!(
        rt.set_attr(SELF, kv.number, AttrWord::from_c_pointer(1))
            .unwrap_err(),
        Error::KeyvalFreed { keyval: kv.number }
    );
    assert_eq!(word(rt, SELF, kv.number), None);
    let t = rt.type_dup(Handle(MPI_INT)).unwrap();
    assert_eq!(
        keyval_class(rt.get_attr(ObjRef::datatype(t.0), kv.number)),
        MPI_ERR_KEYVAL
    );
    assert!(events(&kv).is_empty(), "the failed calls ran nothing");
    // Overwrite: the old value's delete callback runs first.
    rt.set_attr(c, kv.number, AttrWord::from_c_pointer(10))
        .unwrap();
    assert_eq!(
        events(&kv),
        vec![format!("delete 9 on {:#x} extra 0", comm.0)]
    );
    // Dup with MPI_COMM_DUP_FN copies it: now two attributes use the freed keyval.
    let dup = rt.comm_dup(comm).unwrap();
    let d = ObjRef::comm(dup.0);
    assert_eq!(word(rt, d, kv.number), Some(10));
    // Delete releases one instance; deleting where it is not set calls nothing.
    rt.delete_attr(c, kv.number).unwrap();
    assert_eq!(
        events(&kv),
        vec![format!("delete 10 on {:#x} extra 0", comm.0)]
    );
    assert_eq!(
        word(rt, c, kv.number),
        None,
        "the other instance still names it"
    );
    rt.delete_attr(SELF, kv.number).unwrap();
    assert!(events(&kv).is_empty());
    assert_eq!(rt.lock().keyvals().held(), 1);
    // The last instance goes with its communicator: the keyval is gone with it.
    rt.comm_free(dup).unwrap();
    assert_eq!(events(&kv).len(), 1, "deleted once");
    assert_eq!(
        rt.lock().keyvals().held(),
        0,
        "the record went with the last attribute"
    );
    assert_eq!(
        rt.get_attr(c, kv.number).unwrap_err(),
        Error::KeyvalFreed { keyval: kv.number }
    );
    assert_eq!(keyval_class(rt.delete_attr(c, kv.number)), MPI_ERR_KEYVAL);
    assert_eq!(
        keyval_class(rt.set_attr(c, kv.number, AttrWord::from_c_pointer(1))),
        MPI_ERR_KEYVAL
    );
    assert_eq!(
        keyval_class(rt.free_keyval(ObjectKind::Comm, kv.number)),
        MPI_ERR_KEYVAL
    );
    rt.comm_free(comm).unwrap();
    rt.type_free(t).unwrap();
}

// MPI 4.1 §7.7.2 (MPI_TYPE_FREE_KEYVAL follows MPI_COMM_FREE_KEYVAL): a freed datatype keyval
// names its attributes until the last goes; a user copy callback still runs on MPI_Type_dup
// and its result is stored under the freed keyval.
#[test]
fn freed_datatype_keyval_copies_and_deletes() {
    let rt = runtime();
    let t = rt.type_contiguous(2, Handle(MPI_INT)).unwrap();
    let o = ObjRef::datatype(t.0);
    let kv = keyval(rt, ObjectKind::Datatype, Some(None), 3);
    rt.set_attr(o, kv.number, AttrWord::from_fortran_address(5))
        .unwrap();
    rt.free_keyval(ObjectKind::Datatype, kv.number).unwrap();
    let t2 = rt.type_dup(t).unwrap();
    assert_eq!(events(&kv), vec!["copy 5"]);
    assert_eq!(word(rt, ObjRef::datatype(t2.0), kv.number), Some(1005));
    rt.type_free(t).unwrap();
    assert_eq!(events(&kv), vec![format!("delete 5 on {:#x} extra 3", t.0)]);
    assert_eq!(word(rt, ObjRef::datatype(t2.0), kv.number), Some(1005));
    rt.delete_attr(ObjRef::datatype(t2.0), kv.number).unwrap();
    assert_eq!(events(&kv).len(), 1);
    assert_eq!(
        keyval_class(rt.get_attr(ObjRef::datatype(t2.0), kv.number)),
        MPI_ERR_KEYVAL,
        "the last attribute ended it"
    );
    rt.type_free(t2).unwrap();
}

// MPI 4.1 §7.7.2: when a dup fails, the copies already made are deleted; if one was the last
// attribute of a freed keyval, the keyval ends there.
#[test]
fn failed_dup_cleanup_can_end_a_freed_keyval() {
    let rt = runtime();
    let comm = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    let c = ObjRef::comm(comm.0);
    let freed = keyval(rt, ObjectKind::Comm, None, 0);
    /// A copy callback that deletes the freed keyval's attribute on the old object and fails.
    struct DeleteThenFail(&'static Runtime, ObjRef, i32);
    impl CopyCallback for DeleteThenFail {
        fn copy(&self, _: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
            self.0.delete_attr(self.1, self.2).map_err(|e| e.class())?;
            Err(MPI_ERR_OTHER)
        }
        fn convention(&self) -> Convention {
            Convention::C
        }
    }
    let failing = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::User(Box::new(DeleteThenFail(rt, c, freed.number))),
            DeleteFn::Null,
            0,
        )
        .unwrap();
    rt.set_attr(c, freed.number, AttrWord::from_c_pointer(7))
        .unwrap();
    rt.set_attr(c, failing, AttrWord::from_c_pointer(8))
        .unwrap();
    rt.free_keyval(ObjectKind::Comm, freed.number).unwrap();
    let e = rt.comm_dup(comm).unwrap_err();
    assert_eq!(e.class(), MPI_ERR_OTHER, "the copy callback's code");
    assert_eq!(
        events(&freed).len(),
        2,
        "deleted on the old object by the callback, then on the failed dup's"
    );
    assert_eq!(
        keyval_class(rt.get_attr(c, freed.number)),
        MPI_ERR_KEYVAL,
        "its last attribute went with the failed dup"
    );
    rt.free_keyval(ObjectKind::Comm, failing).unwrap();
    assert_eq!(
        word(rt, c, failing),
        Some(8),
        "its attribute on the old object stays"
    );
    rt.delete_attr(c, failing).unwrap();
    assert_eq!(keyval_class(rt.get_attr(c, failing)), MPI_ERR_KEYVAL);
    rt.comm_free(comm).unwrap();
    assert_eq!(rt.lock().keyvals().held(), 0);
}

// MPI 4.1 §11.2.4 and §7.7.2: MPI_Finalize deletes the attributes of freed keyvals too, once.
#[test]
fn finalize_deletes_attributes_of_freed_keyvals() {
    let rt = runtime();
    let kv = keyval(rt, ObjectKind::Comm, None, 0);
    rt.set_attr(WORLD, kv.number, AttrWord::from_c_pointer(4))
        .unwrap();
    rt.free_keyval(ObjectKind::Comm, kv.number).unwrap();
    assert_eq!(word(rt, WORLD, kv.number), Some(4));
    rt.finalize().unwrap();
    assert_eq!(
        events(&kv),
        vec![format!("delete 4 on {:#x} extra 0", MPI_COMM_WORLD)]
    );
}

// MPI 4.1 §7.7.2: a library that frees its keyval early and deletes its attribute later may
// do so forever: every round's keyval ends with its attribute, so slots never run out (a
// number names one of 65,535).
#[test]
fn free_then_delete_rounds_never_exhaust_keyvals() {
    let rt = runtime();
    let mut numbers = std::collections::HashSet::new();
    for round in 0..70_000 {
        let k = rt
            .create_keyval(ObjectKind::Comm, CopyFn::Null, DeleteFn::Null, 0)
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        rt.set_attr(WORLD, k, AttrWord::from_c_pointer(round))
            .unwrap();
        rt.free_keyval(ObjectKind::Comm, k).unwrap();
        assert_eq!(word(rt, WORLD, k), Some(round as i64));
        rt.delete_attr(WORLD, k).unwrap();
        assert_eq!(keyval_class(rt.get_attr(WORLD, k)), MPI_ERR_KEYVAL);
        numbers.insert(k);
    }
    assert_eq!(rt.lock().keyvals().held(), 0);
    assert!(numbers.len() > 65_535, "reused slots get new numbers");
}

// MPI 4.1 §7.7: wrong-kind and predefined keyvals are MPI_ERR_KEYVAL and change nothing.
#[test]
fn wrong_kind_and_predefined_keyvals() {
    let rt = runtime();
    let t = keyval(rt, ObjectKind::Datatype, None, 0);
    let e = rt
        .set_attr(WORLD, t.number, AttrWord::from_c_pointer(1))
        .unwrap_err();
    assert_eq!(e.class(), MPI_ERR_KEYVAL);
    for k in [MPI_TAG_UB, MPI_LASTUSEDCODE] {
        assert_eq!(
            rt.set_attr(WORLD, k, AttrWord::from_c_pointer(1))
                .unwrap_err()
                .class(),
            MPI_ERR_KEYVAL
        );
        assert_eq!(
            rt.delete_attr(WORLD, k).unwrap_err().class(),
            MPI_ERR_KEYVAL
        );
        assert_eq!(
            rt.free_keyval(ObjectKind::Comm, k).unwrap_err().class(),
            MPI_ERR_KEYVAL
        );
    }
    let tag = rt.get_attr(WORLD, MPI_TAG_UB).unwrap().unwrap();
    assert_eq!(tag.value, AttrWord::from_fortran_integer(TAG_UB_VALUE));
    assert_eq!(
        rt.get_attr(WORLD, MPI_WIN_BASE).unwrap_err().class(),
        MPI_ERR_KEYVAL
    );
}

// MPI 4.1 §20.3.7: MPI_TAG_UB answers on every communicator, dups and splits included.
#[test]
fn predefined_attributes_on_dups_and_splits() {
    let rt = runtime();
    let dup = rt.comm_dup(Handle(MPI_COMM_SELF)).unwrap();
    let split = rt.comm_split(Handle(MPI_COMM_WORLD), 0, 0).unwrap();
    for h in [dup, split] {
        let r = rt.get_attr(ObjRef::comm(h.0), MPI_TAG_UB).unwrap().unwrap();
        // SAFETY: a FortranInteger attribute's C view is its internal int.
        assert_eq!(unsafe { *(r.c_view as *const i32) }, TAG_UB_VALUE);
    }
    let code = rt.add_error_class().unwrap();
    let last = rt.get_attr(WORLD, MPI_LASTUSEDCODE).unwrap().unwrap();
    assert_eq!(
        last.value.word, code as i64,
        "MPI_Add_error_class moves MPI_LASTUSEDCODE"
    );
}

// DESIGN: object free deletes last-set first, stops at the first failure, and can be retried.
#[test]
fn free_order_failure_and_retry() {
    let rt = runtime();
    let comm = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    let c = ObjRef::comm(comm.0);
    let kv: Vec<Kv> = (0..3)
        .map(|_| keyval(rt, ObjectKind::Comm, None, 0))
        .collect();
    for (i, k) in kv.iter().enumerate() {
        rt.set_attr(c, k.number, AttrWord::from_c_pointer(10 + i))
            .unwrap();
    }
    *kv[1].fail_delete.lock().unwrap() = Some(11);
    assert_eq!(rt.comm_free(comm).unwrap_err().code(), MPI_ERR_OTHER);
    assert_eq!(events(&kv[2]).len(), 1, "last set deleted first");
    assert_eq!(events(&kv[1]).len(), 1, "then the failing one");
    assert!(events(&kv[0]).is_empty(), "free stopped at the failure");
    assert_eq!(
        word(rt, c, kv[1].number),
        Some(11),
        "object still valid with what remains"
    );
    *kv[1].fail_delete.lock().unwrap() = None;
    rt.comm_free(comm).unwrap();
    assert_eq!(events(&kv[1]).len(), 1);
    assert_eq!(events(&kv[0]).len(), 1);
    assert!(rt.comm_size(comm).is_err(), "freed");
}

/// A delete callback that deletes another attribute of the same object (re-entrancy).
struct DeleteOther {
    rt: &'static Runtime,
    other: Arc<Mutex<i32>>,
    log: Log,
}
impl DeleteCallback for DeleteOther {
    fn delete(&self, c: &CallbackCall<'_>) -> Result<(), i32> {
        self.log
            .lock()
            .unwrap()
            .push(format!("outer {}", c.value.value.word));
        let other = *self.other.lock().unwrap();
        self.rt
            .delete_attr(ObjRef::comm(c.object.int()), other)
            .map_err(|e| e.code())?;
        // Reading our own attribute while it is being deleted still works.
        self.rt
            .get_attr(ObjRef::comm(c.object.int()), c.keyval)
            .map_err(|e| e.code())?;
        Ok(())
    }
    fn convention(&self) -> Convention {
        Convention::C
    }
}

// Issue 6 pattern: a delete callback deleting another attribute of the object being freed.
#[test]
fn reentrant_delete_during_free_runs_each_callback_once() {
    let rt = runtime();
    let comm = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    let c = ObjRef::comm(comm.0);
    let inner = keyval(rt, ObjectKind::Comm, None, 0);
    let log: Log = Arc::default();
    let other = Arc::new(Mutex::new(inner.number));
    let outer = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::Null,
            DeleteFn::User(Box::new(DeleteOther {
                rt,
                other,
                log: log.clone(),
            })),
            0,
        )
        .unwrap();
    rt.set_attr(c, inner.number, AttrWord::from_c_pointer(1))
        .unwrap();
    rt.set_attr(c, outer, AttrWord::from_c_pointer(2)).unwrap();
    rt.comm_free(comm).unwrap();
    assert_eq!(*log.lock().unwrap(), vec!["outer 2"]);
    assert_eq!(events(&inner).len(), 1, "deleted once, by the nested call");
}

// MPI 4.1 §11.2.4: MPI_COMM_SELF's attributes are deleted first at finalize, in reverse order
// of setting, while MPI_Finalized is still false.
#[test]
fn finalize_deletes_self_first_in_reverse_order() {
    let rt = runtime();
    let log: Log = Arc::default();
    struct Rec(Log, &'static Runtime);
    impl DeleteCallback for Rec {
        fn delete(&self, c: &CallbackCall<'_>) -> Result<(), i32> {
            let finalized = self.1.phase() == Phase::Finalized;
            self.0.lock().unwrap().push(format!(
                "{:#x}:{}:{finalized}",
                c.object.int(),
                c.value.value.word
            ));
            Ok(())
        }
        fn convention(&self) -> Convention {
            Convention::C
        }
    }
    let k = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::Null,
            DeleteFn::User(Box::new(Rec(log.clone(), rt))),
            0,
        )
        .unwrap();
    let k2 = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::Null,
            DeleteFn::User(Box::new(Rec(log.clone(), rt))),
            0,
        )
        .unwrap();
    rt.set_attr(WORLD, k, AttrWord::from_c_pointer(9)).unwrap();
    rt.set_attr(SELF, k, AttrWord::from_c_pointer(1)).unwrap();
    rt.set_attr(SELF, k2, AttrWord::from_c_pointer(2)).unwrap();
    rt.finalize().unwrap();
    assert_eq!(
        *log.lock().unwrap(),
        vec!["0x102:2:false", "0x102:1:false", "0x101:9:false"]
    );
    assert_eq!(rt.phase(), Phase::Finalized);
    assert_eq!(rt.get_attr(WORLD, k).unwrap_err(), Error::Finalized);
}

// DESIGN: a C copy callback returning the internal pointer it was given copies the value and
// its provenance, never a pointer into the old object.
#[test]
fn c_callback_returning_internal_pointer_copies_value() {
    let rt = runtime();
    struct PassThrough;
    impl CopyCallback for PassThrough {
        fn copy(&self, c: &CallbackCall<'_>) -> Result<Option<AttrWord>, i32> {
            Ok(Some(AttrWord::from_c_pointer(c.value.c_view)))
        }
        fn convention(&self) -> Convention {
            Convention::C
        }
    }
    let k = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::User(Box::new(PassThrough)),
            DeleteFn::Null,
            0,
        )
        .unwrap();
    rt.set_attr(WORLD, k, AttrWord::from_fortran_address(1 << 40))
        .unwrap();
    let dup = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    let r = rt.get_attr(ObjRef::comm(dup.0), k).unwrap().unwrap();
    assert_eq!(r.value, AttrWord::from_fortran_address(1 << 40));
    rt.delete_attr(WORLD, k).unwrap();
    rt.comm_free(dup).unwrap();
}

// MPI 4.1 §7.4.4: freeing predefined communicators is erroneous; handles are checked.
#[test]
fn handle_errors() {
    let rt = runtime();
    assert_eq!(
        rt.comm_free(Handle(MPI_COMM_WORLD)).unwrap_err().class(),
        MPI_ERR_COMM
    );
    assert_eq!(
        rt.get_attr(ObjRef::comm(MPI_COMM_NULL), MPI_TAG_UB)
            .unwrap_err()
            .class(),
        MPI_ERR_COMM
    );
    let dup = rt.comm_dup(Handle(MPI_COMM_WORLD)).unwrap();
    rt.comm_free(dup).unwrap();
    assert_eq!(rt.comm_free(dup).unwrap_err().class(), MPI_ERR_COMM);
    assert_eq!(
        rt.get_attr(ObjRef::comm(MPI_INT), MPI_TAG_UB)
            .unwrap_err()
            .class(),
        MPI_ERR_COMM
    );
}
