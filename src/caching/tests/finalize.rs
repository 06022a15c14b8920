//! What `MPI_Finalize` deletes (MPI 4.1 §11.2.4): every attribute still set, once, in the
//! world's order (`MPI_COMM_SELF` first), each object's last set first.

use super::*;

// MPI 4.1 §11.2.4 and §7.7.2: MPI_Finalize deletes the attributes of freed keyvals too, once.
#[test]
fn finalize_deletes_attributes_of_freed_keyvals() {
    let rt = cache();
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

/// A delete callback that logs `object:value:finalized` (finalized: the world says calls are
/// no longer allowed).
struct Rec(Log, &'static Cache<FakeWorld>);
impl DeleteCallback for Rec {
    fn delete(&self, c: &CallbackCall<'_>) -> std::result::Result<(), i32> {
        let finalized = self.1.lock().world.phase() == Phase::Finalized;
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

fn recording_keyval(rt: &'static Cache<FakeWorld>, kind: ObjectKind, log: &Log) -> i32 {
    rt.create_keyval(
        kind,
        CopyFn::Null,
        DeleteFn::User(Box::new(Rec(log.clone(), rt))),
        0,
    )
    .unwrap()
}

// MPI 4.1 §11.2.4: MPI_COMM_SELF's attributes are deleted first at finalize, in reverse order
// of setting, while MPI_Finalized is still false.
#[test]
fn finalize_deletes_self_first_in_reverse_order() {
    let rt = cache();
    let log: Log = Arc::default();
    let k = recording_keyval(rt, ObjectKind::Comm, &log);
    let k2 = recording_keyval(rt, ObjectKind::Comm, &log);
    rt.set_attr(WORLD, k, AttrWord::from_c_pointer(9)).unwrap();
    rt.set_attr(SELF, k, AttrWord::from_c_pointer(1)).unwrap();
    rt.set_attr(SELF, k2, AttrWord::from_c_pointer(2)).unwrap();
    rt.finalize().unwrap();
    assert_eq!(
        *log.lock().unwrap(),
        vec!["0x102:2:false", "0x102:1:false", "0x101:9:false"]
    );
    assert_eq!(rt.lock().world.phase(), Phase::Finalized);
    assert_eq!(rt.get_attr(WORLD, k).unwrap_err(), Error::Finalized);
}

// README "Documented outcomes" (MPI_Finalize): after MPI_COMM_SELF's and MPI_COMM_WORLD's,
// those of the other communicators, datatypes and windows the program did not free, kind by
// kind and in the order the objects were made, each last set first. A failing callback does
// not stop finalization: the others still run and the first failure is returned.
#[test]
fn finalize_order_across_kinds_and_failures() {
    let rt = cache();
    let log: Log = Arc::default();
    let kc = recording_keyval(rt, ObjectKind::Comm, &log);
    let kt = recording_keyval(rt, ObjectKind::Datatype, &log);
    let kw = recording_keyval(rt, ObjectKind::Win, &log);
    let failing = keyval(rt, ObjectKind::Comm, None, 0);
    let w = rt.new_obj(ObjectKind::Win);
    let t = rt.new_obj(ObjectKind::Datatype);
    let c1 = rt.new_obj(ObjectKind::Comm);
    let c2 = rt.new_obj(ObjectKind::Comm);
    rt.set_attr(w, kw, AttrWord::from_c_pointer(6)).unwrap();
    rt.set_attr(t, kt, AttrWord::from_c_pointer(5)).unwrap();
    rt.set_attr(c2, kc, AttrWord::from_c_pointer(4)).unwrap();
    rt.set_attr(c1, kc, AttrWord::from_c_pointer(3)).unwrap();
    rt.set_attr(c1, failing.number, AttrWord::from_c_pointer(33))
        .unwrap();
    *failing.fail_delete.lock().unwrap() = Some(33);
    rt.set_attr(WORLD, kc, AttrWord::from_c_pointer(2)).unwrap();
    rt.set_attr(SELF, kc, AttrWord::from_c_pointer(1)).unwrap();
    let e = rt.finalize().unwrap_err();
    assert_eq!(e.code(), MPI_ERR_OTHER, "the failing callback's code");
    let key = |o: ObjRef| o.key.int();
    assert_eq!(
        *log.lock().unwrap(),
        vec![
            "0x102:1:false".to_owned(),
            "0x101:2:false".to_owned(),
            format!("{:#x}:3:false", key(c1)),
            format!("{:#x}:4:false", key(c2)),
            format!("{:#x}:5:false", key(t)),
            format!("{:#x}:6:false", key(w)),
        ]
    );
    assert_eq!(
        events(&failing),
        vec![format!("delete 33 on {:#x} extra 0", key(c1))],
        "run once, before the attribute set earlier on the same object"
    );
}

// MPI 4.1 §11.2.4 with §7.7.2 (callbacks may call MPI): an attribute that a delete callback
// sets during finalize is deleted too, once.
#[test]
fn attributes_set_during_finalize_are_deleted_too() {
    let rt = cache();
    let later = keyval(rt, ObjectKind::Comm, None, 0);
    struct SetAnother(&'static Cache<FakeWorld>, i32);
    impl DeleteCallback for SetAnother {
        fn delete(&self, _: &CallbackCall<'_>) -> std::result::Result<(), i32> {
            self.0
                .set_attr(WORLD, self.1, AttrWord::from_c_pointer(77))
                .map_err(|e| e.code())
        }
        fn convention(&self) -> Convention {
            Convention::C
        }
    }
    let k = rt
        .create_keyval(
            ObjectKind::Comm,
            CopyFn::Null,
            DeleteFn::User(Box::new(SetAnother(rt, later.number))),
            0,
        )
        .unwrap();
    rt.set_attr(SELF, k, AttrWord::from_c_pointer(1)).unwrap();
    rt.finalize().unwrap();
    assert_eq!(
        events(&later),
        vec![format!("delete 77 on {:#x} extra 0", MPI_COMM_WORLD)]
    );
}
