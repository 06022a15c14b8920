//! Set, get, delete and overwrite; predefined and wrong-kind keyvals; keyvals freed while
//! attributes use them.

use super::*;

// MPI 4.1 §7.7.2: overwriting an attribute calls the delete callback on the old value;
// deleting an attribute that is not set is not an error and calls nothing.
#[test]
fn overwrite_deletes_old_value_and_delete_of_unset_calls_nothing() {
    let rt = cache();
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

// README "Documented outcomes": a failing delete callback on delete or on an overwriting set
// leaves the attribute (with its old value) and the call returns the callback's code.
#[test]
fn failing_delete_callback_leaves_the_attribute() {
    let rt = cache();
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

// MPI 4.1 §20.3.7: every reader's view of every writer's value, through the engine's get
// paths (the lock-free one and the locked one give the same): C gets the pointer set from C
// and a pointer to the internal MPI_Aint / int of a Fortran value; Fortran readers get the
// word.
#[test]
fn every_reader_sees_its_view_of_every_writer() {
    let rt = cache();
    let k = rt
        .create_keyval(ObjectKind::Comm, CopyFn::Null, DeleteFn::Null, 0)
        .unwrap();
    let c = rt.new_obj(ObjectKind::Comm);
    rt.set_attr(c, k, AttrWord::from_c_pointer(0x7fff_1234_5678))
        .unwrap();
    assert_eq!(rt.get_attr_c_view(c, k).unwrap(), Some(0x7fff_1234_5678));
    assert_eq!(rt.get_attr_word(c, k).unwrap(), Some(0x7fff_1234_5678));
    rt.set_attr(c, k, AttrWord::from_fortran_address(1 << 40))
        .unwrap();
    let view = rt.get_attr_c_view(c, k).unwrap().unwrap();
    // SAFETY: the C view of a FortranAddress value points at its MPI_Aint, alive while the
    // attribute is.
    assert_eq!(unsafe { *(view as *const i64) }, 1 << 40);
    assert_eq!(rt.get_attr_word(c, k).unwrap(), Some(1 << 40));
    rt.set_attr(c, k, AttrWord::from_fortran_integer(-7))
        .unwrap();
    let r = rt.get_attr(c, k).unwrap().unwrap();
    // SAFETY: the C view of a FortranInteger value points at its int.
    assert_eq!(unsafe { *(r.c_view as *const i32) }, -7);
    assert_eq!(r.value.word, -7, "MPI_ATTR_PUT sign-extends");
    assert_eq!(rt.get_attr_word(c, k).unwrap(), Some(-7));
    assert_eq!(
        rt.get_attr_c_view(c, k).unwrap(),
        Some(r.c_view),
        "the same int"
    );
}

// MPI 4.1 §7.7.2 MPI_COMM_FREE_KEYVAL: "the actual free does not transpire until after all
// references ... to the key have been freed. These references need to be explicitly freed by
// the program, either via calls to MPI_COMM_DELETE_ATTR ... or by calls to MPI_COMM_FREE". Until
// then the number names the attributes it has: get, delete and overwrite work, dup copies them
// (a new attribute under the freed keyval), callbacks run as before; a set creating an attribute
// and a second free are MPI_ERR_KEYVAL and change nothing.
#[test]
fn keyval_freed_in_use() {
    let rt = cache();
    let c = rt.new_obj(ObjectKind::Comm);
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
    let t = rt.new_obj(ObjectKind::Datatype);
    assert_eq!(keyval_class(rt.get_attr(t, kv.number)), MPI_ERR_KEYVAL);
    assert!(events(&kv).is_empty(), "the failed calls ran nothing");
    // Overwrite: the old value's delete callback runs first.
    rt.set_attr(c, kv.number, AttrWord::from_c_pointer(10))
        .unwrap();
    assert_eq!(
        events(&kv),
        vec![format!("delete 9 on {:#x} extra 0", c.key.int())]
    );
    // Dup with MPI_COMM_DUP_FN copies it: now two attributes use the freed keyval.
    let d = rt.dup(c).unwrap();
    assert_eq!(word(rt, d, kv.number), Some(10));
    // Delete releases one instance; deleting where it is not set calls nothing.
    rt.delete_attr(c, kv.number).unwrap();
    assert_eq!(
        events(&kv),
        vec![format!("delete 10 on {:#x} extra 0", c.key.int())]
    );
    assert_eq!(
        word(rt, c, kv.number),
        None,
        "the other instance still names it"
    );
    rt.delete_attr(SELF, kv.number).unwrap();
    assert!(events(&kv).is_empty());
    assert_eq!(rt.lock().keyvals().held(), 1);
    // The last instance goes with its object: the keyval is gone with it.
    rt.free(d).unwrap();
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
    rt.free(c).unwrap();
    rt.free(t).unwrap();
}

// MPI 4.1 §7.7.2: a library that frees its keyval early and deletes its attribute later may
// do so forever: every round's keyval ends with its attribute, so slots never run out (a
// number names one of 65,535).
#[test]
fn free_then_delete_rounds_never_exhaust_keyvals() {
    let rt = cache();
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

// MPI 4.1 §7.7: wrong-kind and predefined keyvals are MPI_ERR_KEYVAL and change nothing; a
// predefined keyval's value is the world's, read as the world wrote it.
#[test]
fn wrong_kind_and_predefined_keyvals() {
    let rt = cache();
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
    // SAFETY: an integer-valued predefined attribute's C view is the world's int.
    assert_eq!(unsafe { *(tag.c_view as *const i32) }, TAG_UB_VALUE);
    assert_eq!(
        rt.get_attr(WORLD, MPI_WIN_BASE).unwrap_err().class(),
        MPI_ERR_KEYVAL
    );
    assert_eq!(
        rt.get_attr(WORLD, MPI_WIN_BASE).unwrap_err(),
        Error::KeyvalWrongKind {
            keyval: MPI_WIN_BASE,
            found: ObjectKind::Win,
            expected: ObjectKind::Comm
        }
    );
    assert_eq!(keyval_class(rt.get_attr(WORLD, t.number)), MPI_ERR_KEYVAL);
    assert_eq!(
        keyval_class(rt.delete_attr(WORLD, t.number)),
        MPI_ERR_KEYVAL
    );
}

// MPI 4.1 §7.7.1, §9.4: an object the world does not know is the world's error for its kind,
// on every call, and changes nothing; a predefined object cannot be freed.
#[test]
fn handle_errors() {
    let rt = cache();
    let k = keyval(rt, ObjectKind::Comm, None, 0);
    let forged = ObjRef::new(ObjectKind::Comm, FORGED);
    for e in [
        rt.get_attr(forged, MPI_TAG_UB).map(drop).unwrap_err(),
        rt.get_attr(forged, k.number).map(drop).unwrap_err(),
        rt.set_attr(forged, k.number, AttrWord::from_c_pointer(1))
            .unwrap_err(),
        rt.delete_attr(forged, k.number).unwrap_err(),
        rt.free(forged).unwrap_err(),
        rt.dup(forged).map(drop).unwrap_err(),
    ] {
        assert_eq!(e.class(), MPI_ERR_COMM, "{e}");
    }
    let w = ObjRef::new(ObjectKind::Win, FORGED);
    assert_eq!(rt.get_attr(w, k.number).unwrap_err().class(), MPI_ERR_WIN);
    assert_eq!(rt.free(WORLD).unwrap_err().class(), MPI_ERR_COMM);
    assert!(rt.is_live(WORLD), "a predefined object stays");
    let d = rt.dup(WORLD).unwrap();
    rt.free(d).unwrap();
    assert_eq!(rt.free(d).unwrap_err().class(), MPI_ERR_COMM);
    assert_eq!(
        rt.get_attr(ObjRef::new(ObjectKind::Datatype, WORLD.key), MPI_TAG_UB)
            .unwrap_err()
            .class(),
        MPI_ERR_TYPE,
        "a key of another kind"
    );
    assert!(events(&k).is_empty());
}

// MPI 4.1 §11.2.4: after finalize every call fails; the engine answers the world's error.
#[test]
fn calls_after_finalize_fail() {
    let rt = cache();
    let k = keyval(rt, ObjectKind::Comm, None, 0);
    rt.finalize().unwrap();
    assert_eq!(rt.get_attr(WORLD, k.number).unwrap_err(), Error::Finalized);
    assert_eq!(
        rt.create_keyval(ObjectKind::Comm, CopyFn::Null, DeleteFn::Null, 0)
            .unwrap_err(),
        Error::Finalized
    );
    assert_eq!(
        rt.free_keyval(ObjectKind::Comm, k.number).unwrap_err(),
        Error::Finalized
    );
}
