//! Dup: copy callbacks in order of setting, what their results are stored as, and the cleanup
//! of a failed dup. Free: last set first, stopping at a failure, nested deletes and frees.

use super::*;
use crate::caching::convert::Provenance;

// MPI 4.1 §7.7.2: dup runs copy callbacks in order of setting; DUP keeps the provenance; the
// copy's C view is storage of its own (§20.3.7: the value is copied).
#[test]
fn dup_copies_with_callbacks_and_dup_fn_keeps_provenance() {
    let rt = cache();
    let a = keyval(rt, ObjectKind::Comm, Some(None), 0);
    let b = keyval(rt, ObjectKind::Comm, None, 0);
    rt.set_attr(WORLD, a.number, AttrWord::from_c_pointer(1))
        .unwrap();
    rt.set_attr(WORLD, b.number, AttrWord::from_fortran_integer(-5))
        .unwrap();
    let d = rt.dup(WORLD).unwrap();
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
    rt.free(d).unwrap();
    assert_eq!(
        events(&a),
        vec![format!("delete 1001 on {:#x} extra 0", d.key.int())]
    );
    assert_eq!(
        events(&b),
        vec![format!("delete -5 on {:#x} extra 0", d.key.int())]
    );
    rt.delete_attr(WORLD, a.number).unwrap();
    rt.delete_attr(WORLD, b.number).unwrap();
}

// MPI 4.1 §7.7.2: with only MPI_COMM_DUP_FN and MPI_COMM_NULL_COPY_FN keyvals (no user code,
// copied in one pass) the dup has the DUP_FN attributes, values and provenances, and keeps
// their order of setting for its own free (last set first).
#[test]
fn native_copies_keep_values_and_order() {
    let rt = cache();
    let log: Log = Arc::default();
    let dup_keyval = || {
        let delete = DeleteFn::User(Box::new(Delete {
            log: log.clone(),
            fail_on: Arc::default(),
        }));
        rt.create_keyval(ObjectKind::Comm, CopyFn::Dup, delete, 0)
            .unwrap()
    };
    let (dup1, dup2) = (dup_keyval(), dup_keyval());
    let null = rt
        .create_keyval(ObjectKind::Comm, CopyFn::Null, DeleteFn::Null, 0)
        .unwrap();
    let c = rt.new_obj(ObjectKind::Comm);
    rt.set_attr(c, dup2, AttrWord::from_fortran_address(2))
        .unwrap();
    rt.set_attr(c, null, AttrWord::from_c_pointer(3)).unwrap();
    rt.set_attr(c, dup1, AttrWord::from_c_pointer(1)).unwrap();
    let d = rt.dup(c).unwrap();
    assert_eq!(
        rt.get_attr(d, dup2).unwrap().unwrap().value,
        AttrWord::from_fortran_address(2)
    );
    assert_eq!(word(rt, d, dup1), Some(1));
    assert_eq!(
        word(rt, d, null),
        None,
        "MPI_COMM_NULL_COPY_FN copies nothing"
    );
    assert_eq!(rt.lock().attr_count(d).unwrap(), 2);
    assert!(log.lock().unwrap().is_empty(), "a dup deletes nothing");
    rt.free(d).unwrap();
    assert_eq!(
        *log.lock().unwrap(),
        vec![
            format!("delete 1 on {:#x} extra 0", d.key.int()),
            format!("delete 2 on {:#x} extra 0", d.key.int()),
        ]
    );
    rt.free(c).unwrap();
}

// README "Documented outcomes": a failing copy callback fails the dup; copies already made are
// deleted once; the new object goes; nothing runs after the failure.
#[test]
fn failing_copy_callback_fails_the_dup_and_cleans_up() {
    let rt = cache();
    let c = rt.dup(WORLD).unwrap();
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
        let before = rt.lock().world.count(ObjectKind::Comm);
        let err = rt.dup(c);
        let fail = err.unwrap_err();
        assert_eq!(fail.code(), MPI_ERR_OTHER);
        assert_eq!(
            rt.lock().world.count(ObjectKind::Comm),
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
    rt.free(c).unwrap();
}

// MPI 4.1 §7.7.2 (MPI_TYPE_FREE_KEYVAL follows MPI_COMM_FREE_KEYVAL): a freed datatype keyval
// names its attributes until the last goes; a user copy callback still runs on MPI_Type_dup
// and its result is stored under the freed keyval.
#[test]
fn freed_datatype_keyval_copies_and_deletes() {
    let rt = cache();
    let t = rt.new_obj(ObjectKind::Datatype);
    let kv = keyval(rt, ObjectKind::Datatype, Some(None), 3);
    rt.set_attr(t, kv.number, AttrWord::from_fortran_address(5))
        .unwrap();
    rt.free_keyval(ObjectKind::Datatype, kv.number).unwrap();
    let t2 = rt.dup(t).unwrap();
    assert_eq!(events(&kv), vec!["copy 5"]);
    assert_eq!(word(rt, t2, kv.number), Some(1005));
    rt.free(t).unwrap();
    assert_eq!(
        events(&kv),
        vec![format!("delete 5 on {:#x} extra 3", t.key.int())]
    );
    assert_eq!(word(rt, t2, kv.number), Some(1005));
    rt.delete_attr(t2, kv.number).unwrap();
    assert_eq!(events(&kv).len(), 1);
    assert_eq!(
        keyval_class(rt.get_attr(t2, kv.number)),
        MPI_ERR_KEYVAL,
        "the last attribute ended it"
    );
    rt.free(t2).unwrap();
}

// MPI 4.1 §7.7.2: when a dup fails, the copies already made are deleted; if one was the last
// attribute of a freed keyval, the keyval ends there.
#[test]
fn failed_dup_cleanup_can_end_a_freed_keyval() {
    let rt = cache();
    let c = rt.dup(WORLD).unwrap();
    let freed = keyval(rt, ObjectKind::Comm, None, 0);
    /// A copy callback that deletes the freed keyval's attribute on the old object and fails.
    struct DeleteThenFail(&'static Cache<FakeWorld>, ObjRef, i32);
    impl CopyCallback for DeleteThenFail {
        fn copy(&self, _: &CallbackCall<'_>) -> std::result::Result<Option<AttrWord>, i32> {
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
    let e = rt.dup(c).unwrap_err();
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
    rt.free(c).unwrap();
    assert_eq!(rt.lock().keyvals().held(), 0);
}

// README "Documented outcomes": an object's free deletes last set first, stops at the first
// failing delete callback (the object stays valid with what remains) and can be retried.
#[test]
fn free_order_failure_and_retry() {
    let rt = cache();
    let c = rt.dup(WORLD).unwrap();
    let kv: Vec<Kv> = (0..3)
        .map(|_| keyval(rt, ObjectKind::Comm, None, 0))
        .collect();
    for (i, k) in kv.iter().enumerate() {
        rt.set_attr(c, k.number, AttrWord::from_c_pointer(10 + i))
            .unwrap();
    }
    *kv[1].fail_delete.lock().unwrap() = Some(11);
    assert_eq!(rt.free(c).unwrap_err().code(), MPI_ERR_OTHER);
    assert_eq!(events(&kv[2]).len(), 1, "last set deleted first");
    assert_eq!(events(&kv[1]).len(), 1, "then the failing one");
    assert!(events(&kv[0]).is_empty(), "free stopped at the failure");
    assert_eq!(
        word(rt, c, kv[1].number),
        Some(11),
        "object still valid with what remains"
    );
    assert!(rt.is_live(c));
    *kv[1].fail_delete.lock().unwrap() = None;
    rt.free(c).unwrap();
    assert_eq!(events(&kv[1]).len(), 1);
    assert_eq!(events(&kv[0]).len(), 1);
    assert!(!rt.is_live(c), "freed");
}

/// A delete callback that deletes another attribute of the same object (re-entrancy).
struct DeleteOther {
    rt: &'static Cache<FakeWorld>,
    other: Arc<Mutex<i32>>,
    log: Log,
}
impl DeleteCallback for DeleteOther {
    fn delete(&self, c: &CallbackCall<'_>) -> std::result::Result<(), i32> {
        self.log
            .lock()
            .unwrap()
            .push(format!("outer {}", c.value.value.word));
        let obj = ObjRef::new(ObjectKind::Comm, c.object);
        let other = *self.other.lock().unwrap();
        self.rt.delete_attr(obj, other).map_err(|e| e.code())?;
        // Reading our own attribute while it is being deleted still works.
        self.rt.get_attr(obj, c.keyval).map_err(|e| e.code())?;
        Ok(())
    }
    fn convention(&self) -> Convention {
        Convention::C
    }
}

// Issue 6 pattern (MPI 4.1 §7.7.2: callbacks may call MPI): a delete callback deleting another
// attribute of the object being freed; each callback runs once.
#[test]
fn reentrant_delete_during_free_runs_each_callback_once() {
    let rt = cache();
    let c = rt.dup(WORLD).unwrap();
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
    rt.free(c).unwrap();
    assert_eq!(*log.lock().unwrap(), vec!["outer 2"]);
    assert_eq!(events(&inner).len(), 1, "deleted once, by the nested call");
}

// The engine's own "being freed" state: a delete callback that frees the object being freed
// is refused (the communicator's class), and the outer free still completes.
#[test]
fn a_nested_free_of_the_object_being_freed_is_refused() {
    let rt = cache();
    let c = rt.new_obj(ObjectKind::Comm);
    let seen: Arc<Mutex<Vec<i32>>> = Arc::default();
    struct FreeAgain(&'static Cache<FakeWorld>, Arc<Mutex<Vec<i32>>>);
    impl DeleteCallback for FreeAgain {
        fn delete(&self, c: &CallbackCall<'_>) -> std::result::Result<(), i32> {
            let obj = ObjRef::new(ObjectKind::Comm, c.object);
            let e = self.0.free(obj).unwrap_err();
            self.1.lock().unwrap().push(e.class());
            assert!(matches!(e, Error::BeingFreed { .. }), "{e}");
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
            DeleteFn::User(Box::new(FreeAgain(rt, seen.clone()))),
            0,
        )
        .unwrap();
    rt.set_attr(c, k, AttrWord::from_c_pointer(1)).unwrap();
    rt.free(c).unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![MPI_ERR_COMM]);
    assert!(!rt.is_live(c));
    // A new object is not "being freed".
    let d = rt.new_obj(ObjectKind::Comm);
    rt.set_attr(d, k, AttrWord::from_c_pointer(2)).unwrap();
    rt.free(d).unwrap();
    assert_eq!(seen.lock().unwrap().len(), 2);
}

// MPI 4.1 §20.3.7: a C copy callback returning the internal pointer it was given copies the
// value and its provenance, never a pointer into the old object.
#[test]
fn c_callback_returning_internal_pointer_copies_value() {
    let rt = cache();
    struct PassThrough;
    impl CopyCallback for PassThrough {
        fn copy(&self, c: &CallbackCall<'_>) -> std::result::Result<Option<AttrWord>, i32> {
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
    let d = rt.dup(WORLD).unwrap();
    let r = rt.get_attr(d, k).unwrap().unwrap();
    assert_eq!(r.value, AttrWord::from_fortran_address(1 << 40));
    rt.delete_attr(WORLD, k).unwrap();
    rt.free(d).unwrap();
}
