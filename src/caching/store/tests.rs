//! The attribute store on its own: slots, counts, bulk copy and removal, the lock-free read and
//! overwrite. Each test names the rule of MPI 4.1 §7.7 (or §20.3.7 for views) it keeps.
// The C view of a Fortran-set value is an address: the tests read through it as C would.
#![allow(unsafe_code)]

use crate::caching::callback::{Callbacks, CopyFn, DeleteFn};
use crate::caching::convert::{AttrWord, Provenance};
use crate::caching::object::ObjRef;
use crate::caching::store::{Fast, ObjAttrs, Store};
use crate::kinds::ObjectKind;

fn store() -> &'static Store {
    Box::leak(Box::new(Store::new()))
}

/// `n` communicators, with keys as a world gives them: distinct in their low bits (indexes
/// from 0x400 up, as the single-process world's first dynamic handles) and with more bits above.
fn comms(n: usize) -> Vec<ObjRef> {
    (0..n)
        .map(|i| ObjRef::comm((1 << 30) | (0x400 + i as i32)))
        .collect()
}

/// A live keyval with the given callbacks, published as the engine does.
fn keyval(s: &'static Store, copy: CopyFn, delete: DeleteFn) -> (u32, i32, Callbacks) {
    let has_delete = !matches!(delete, DeleteFn::Null);
    let number = s
        .registry
        .create(ObjectKind::Comm, copy, delete, 0)
        .unwrap();
    s.keyval_created(number, has_delete);
    let k = s.registry.lookup(number, ObjectKind::Comm).unwrap();
    (k.slot(), number, k.callbacks())
}

fn set(a: &ObjAttrs, k: (u32, i32, Callbacks), word: usize) {
    a.insert(k.0, k.1, AttrWord::from_c_pointer(word), k.2);
}

// §7.7.2: get returns what was set, flag false when not set; both through the lock-free path.
#[test]
fn get_hits_what_was_set_and_misses_the_rest() {
    let s = store();
    let obj = comms(1)[0];
    let k1 = keyval(s, CopyFn::Null, DeleteFn::Null);
    let k2 = keyval(s, CopyFn::Null, DeleteFn::Null);
    assert_eq!(
        s.get_word(obj, k1.1),
        Fast::Slow,
        "unbound object: the lock decides"
    );
    let a = s.bind(obj);
    set(a, k1, 0xbeef);
    assert_eq!(s.get_c_view(obj, k1.1), Fast::Hit(0xbeef));
    assert_eq!(s.get_c_view(obj, k2.1), Fast::Miss);
    assert_eq!(a.len(), 1);
    assert!(a.remove(k1.0).is_some());
    assert_eq!(s.get_c_view(obj, k1.1), Fast::Miss);
    assert!(a.is_empty());
    let dead = s.registry.free(k2.1, ObjectKind::Comm).unwrap();
    s.release_keyval(dead.expect("no attribute uses it: it dies"));
    assert_eq!(
        s.get_word(obj, k2.1),
        Fast::Slow,
        "dead keyval: the lock reports it"
    );
}

// §7.7.1: a keyval is for one kind of object, and only a live keyval names an attribute. The
// reader tells that from the keyval table of the object's kind alone: a datatype keyval (even
// one whose slot holds a communicator attribute), keyval 0 and numbers that name slot 0 are
// never answered without the lock.
#[test]
fn only_live_keyvals_of_the_objects_kind_are_answered() {
    let s = store();
    let obj = comms(1)[0];
    let k = keyval(s, CopyFn::Null, DeleteFn::Null);
    set(s.bind(obj), k, 0xbeef);
    let datatype_key = s
        .registry
        .create(ObjectKind::Datatype, CopyFn::Null, DeleteFn::Null, 0)
        .unwrap();
    s.keyval_created(datatype_key, false);
    assert_eq!(s.get_c_view(obj, k.1), Fast::Hit(0xbeef));
    assert_eq!(s.get_c_view(obj, datatype_key), Fast::Slow);
    // The communicator keyval's number with the datatype kind: same slot, other table.
    let as_datatype = (k.1 & !(0xf << 28)) | (2 << 28);
    assert_eq!(s.get_c_view(obj, as_datatype), Fast::Slow);
    for number in [0, 1 << 28, 2 << 28, -1, i32::MIN] {
        assert_eq!(s.get_c_view(obj, number), Fast::Slow, "{number:#x}");
    }
    // The table's slot 0 stays unmatched after a reset too (an empty slot holds keyval 0).
    s.clear();
    s.bind(obj);
    assert_eq!(s.get_c_view(obj, 0), Fast::Slow);
}

// §7.7.2: a keyval freed while attributes use it still names them: the lock-free get answers
// hits and misses with it and overwrites in place, until its last attribute goes; then its
// number is dead and only the lock answers (with the error).
#[test]
fn freed_keyval_in_use_is_answered_until_its_last_attribute_goes() {
    let s = store();
    let objs = comms(2);
    let k = keyval(s, CopyFn::Null, DeleteFn::Null);
    let a = s.bind(objs[0]);
    s.bind(objs[1]);
    s.registry.add_attr(k.0, k.1).unwrap();
    set(a, k, 0xfeed);
    assert!(s.registry.free(k.1, ObjectKind::Comm).unwrap().is_none());
    assert_eq!(s.get_c_view(objs[0], k.1), Fast::Hit(0xfeed));
    assert_eq!(s.get_word(objs[1], k.1), Fast::Miss, "an object without it");
    assert!(
        s.try_overwrite(objs[0], k.1, AttrWord::from_c_pointer(0xbee)),
        "an overwrite creates nothing"
    );
    assert_eq!(s.get_c_view(objs[0], k.1), Fast::Hit(0xbee));
    assert!(
        !s.try_overwrite(objs[1], k.1, AttrWord::from_c_pointer(1)),
        "creating one is the locked path's to refuse"
    );
    assert!(a.remove(k.0).is_some());
    s.attr_removed(k.0);
    assert_eq!(
        s.registry.held(),
        0,
        "the keyval died with its last attribute"
    );
    for &obj in &objs {
        assert_eq!(
            s.get_c_view(obj, k.1),
            Fast::Slow,
            "dead: the lock reports it"
        );
    }
    assert!(!s.try_overwrite(objs[0], k.1, AttrWord::from_c_pointer(2)));
    // Its slot comes back under a new number (after the reuse delay), which alone matches.
    let again = (0..300)
        .map(|_| {
            let n = keyval(s, CopyFn::Null, DeleteFn::Null);
            if n.0 != k.0 {
                let freed = s.registry.free(n.1, ObjectKind::Comm).unwrap();
                s.release_keyval(freed.expect("unused: dies"));
            }
            n
        })
        .find(|n| n.0 == k.0)
        .expect("the slot is reused");
    assert_ne!(again.1, k.1);
    assert_eq!(s.get_c_view(objs[0], again.1), Fast::Miss);
    assert_eq!(s.get_c_view(objs[0], k.1), Fast::Slow);
}

// §20.3.7: a C reader of a Fortran-set value gets the address of the stored MPI_Aint / INTEGER,
// which is the slot's own word; a C-set value is the pointer itself.
#[test]
fn c_view_of_fortran_values_points_into_the_slot() {
    let s = store();
    let obj = comms(1)[0];
    let a = s.bind(obj);
    let k = keyval(s, CopyFn::Null, DeleteFn::Null);
    a.insert(k.0, k.1, AttrWord::from_fortran_integer(-5), k.2);
    let Fast::Hit(read) = s.get(obj, k.1) else {
        panic!("set attribute not found")
    };
    assert_eq!(read.value.provenance, Provenance::FortranInteger);
    // SAFETY: the view points at the slot's word, alive while the attribute is set.
    assert_eq!(unsafe { *(read.c_view as *const i32) }, -5);
    a.insert(k.0, k.1, AttrWord::from_fortran_address(1 << 40), k.2);
    let Fast::Hit(read) = s.get(obj, k.1) else {
        panic!("set attribute not found")
    };
    // SAFETY: as above, an MPI_Aint this time.
    assert_eq!(unsafe { *(read.c_view as *const i64) }, 1 << 40);
    set(a, k, 77);
    assert_eq!(s.get_c_view(obj, k.1), Fast::Hit(77));
}

// §7.7.2: overwriting with no delete callback changes the value in place and counts as the
// latest setting; with a delete callback, or on a dying value, the locked path must run it.
#[test]
fn overwrite_without_lock_only_when_no_user_code_runs() {
    let s = store();
    let obj = comms(1)[0];
    let a = s.bind(obj);
    let plain = keyval(s, CopyFn::Null, DeleteFn::Null);
    let other = keyval(s, CopyFn::Null, DeleteFn::Null);
    set(a, plain, 1);
    set(a, other, 2);
    assert!(s.try_overwrite(obj, plain.1, AttrWord::from_c_pointer(3)));
    assert_eq!(s.get_c_view(obj, plain.1), Fast::Hit(3));
    let order: Vec<u32> = a.in_setting_order().iter().map(|(k, _)| *k).collect();
    assert_eq!(
        order,
        vec![other.0, plain.0],
        "the overwrite is now the latest setting"
    );
    assert!(
        !s.try_overwrite(
            obj,
            keyval(s, CopyFn::Null, DeleteFn::Null).1,
            AttrWord::from_c_pointer(4)
        ),
        "not set: the locked path inserts"
    );
    a.set_dying(plain.0, true);
    assert!(
        !s.try_overwrite(obj, plain.1, AttrWord::from_c_pointer(5)),
        "dying"
    );
    assert!(!a.deletes_silently(), "a deletion is under way");
    a.set_dying(plain.0, false);
    assert!(a.deletes_silently());
    // (The registry does not count this test's attributes: the free ends the keyval.)
    let dead = s.registry.free(plain.1, ObjectKind::Comm).unwrap();
    s.release_keyval(dead.expect("dies"));
    assert!(
        !s.try_overwrite(obj, plain.1, AttrWord::from_c_pointer(6)),
        "dead keyval"
    );
    assert_eq!(a.entry(plain.0).map(|e| e.value.word), Some(3));
    a.remove_all(|_| {});
    s.unbind(obj);
    assert_eq!(s.get_c_view(obj, other.1), Fast::Slow, "unbound object");
    assert!(!s.try_overwrite(obj, other.1, AttrWord::from_c_pointer(7)));
}

// §7.7.2: a dup copies the attributes whose copy callback is MPI_COMM_DUP_FN, value and
// provenance, and none of MPI_COMM_NULL_COPY_FN's; the order of setting carries over.
#[test]
fn native_copy_keeps_slots_order_and_counts() {
    let s = store();
    let objs = comms(2);
    let (from, to) = (s.bind(objs[0]), s.bind(objs[1]));
    let dup = keyval(s, CopyFn::Dup, DeleteFn::Null);
    let null = keyval(s, CopyFn::Null, DeleteFn::Null);
    let dup2 = keyval(s, CopyFn::Dup, DeleteFn::Null);
    set(from, dup2, 1);
    set(from, null, 2);
    from.insert(dup.0, dup.1, AttrWord::from_fortran_address(3), dup.2);
    assert!(!from.has_copy_callbacks());
    let mut admitted = Vec::new();
    to.copy_from(from, |slot, number| {
        admitted.push((slot, number));
        true
    });
    admitted.sort_unstable();
    let mut want = vec![(dup.0, dup.1), (dup2.0, dup2.1)];
    want.sort_unstable();
    assert_eq!(admitted, want);
    assert_eq!(to.len(), 2);
    assert_eq!(s.get_word(objs[1], dup.1), Fast::Hit(3));
    assert_eq!(
        to.entry(dup.0).unwrap().value.provenance,
        Provenance::FortranAddress
    );
    assert_eq!(s.get_word(objs[1], null.1), Fast::Miss);
    let order: Vec<u32> = to.in_setting_order().iter().map(|(k, _)| *k).collect();
    assert_eq!(order, vec![dup2.0, dup.0]);
    // New settings on the copy come after the copied ones.
    let later = keyval(s, CopyFn::Null, DeleteFn::Null);
    set(to, later, 9);
    assert_eq!(to.in_setting_order().last().unwrap().0, later.0);
}

// Bulk removal (a free with no delete callback) empties every slot, pages beyond the inline
// ones and objects beyond the first directory chunk included.
#[test]
fn remove_all_reaches_far_slots_and_far_objects() {
    let s = store();
    let objs = comms(5000);
    let far = *objs.last().unwrap();
    let a = s.bind(far);
    let keys: Vec<_> = (0..17000)
        .map(|_| keyval(s, CopyFn::Dup, DeleteFn::Null))
        .collect();
    for (i, k) in keys.iter().enumerate().step_by(997) {
        set(a, *k, i + 1);
    }
    let high = keys[16951];
    assert!(high.0 >= 16384, "a keyval slot past the inline pages");
    set(a, high, 42);
    assert_eq!(s.get_c_view(far, high.1), Fast::Hit(42));
    let b = s.bind(objs[0]);
    b.copy_from(a, |_, _| true);
    assert_eq!(b.len(), a.len());
    assert_eq!(s.get_c_view(objs[0], high.1), Fast::Hit(42));
    let mut removed = Vec::new();
    a.remove_all(|slot| removed.push(slot));
    assert_eq!(removed.len(), b.len());
    assert!(a.is_empty());
    assert_eq!(s.get_c_view(far, high.1), Fast::Miss);
    assert_eq!(
        s.get_c_view(objs[0], high.1),
        Fast::Hit(42),
        "the copy stays"
    );
}

// MPI_THREAD_MULTIPLE: a reader racing with lock-free overwrites sees each value whole, never
// the word of one setting with the provenance of another. A lock-free read that meets a write
// in progress says so instead of guessing, and the engine then reads as lock holders do
// (retrying until the slot is quiet), which must be whole as well.
#[test]
fn readers_never_see_a_torn_overwrite() {
    let s = store();
    let obj = comms(1)[0];
    let a = s.bind(obj);
    let k = keyval(s, CopyFn::Null, DeleteFn::Null);
    set(a, k, 0);
    // Even words are C pointers, odd words Fortran addresses.
    let value = |i: i64| {
        if i % 2 == 0 {
            AttrWord::from_c_pointer(i as usize)
        } else {
            AttrWord::from_fortran_address(i)
        }
    };
    // The writer runs until both readers have made their reads.
    let readers_left = std::sync::atomic::AtomicUsize::new(2);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut i = 1;
            while readers_left.load(std::sync::atomic::Ordering::Acquire) > 0 {
                assert!(s.try_overwrite(obj, k.1, value(i)));
                i += 1;
            }
        });
        let readers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..200_000 {
                        let r = match s.get(obj, k.1) {
                            Fast::Hit(r) => r,
                            Fast::Slow => a.read(k.0).expect("the attribute is always set"),
                            Fast::Miss => panic!("the attribute is always set"),
                        };
                        assert_eq!(r.value, value(r.value.word), "torn read");
                        // §20.3.7: a C reader gets a C pointer as set and a Fortran value
                        // through the address of the stored word; the view follows the
                        // provenance read with the word (the slot counter carries it).
                        if r.value.word % 2 == 0 {
                            assert_eq!(r.c_view, r.value.word as usize, "C view of a C value");
                        } else {
                            assert_ne!(
                                r.c_view, r.value.word as usize,
                                "C view of a Fortran value"
                            );
                        }
                    }
                    readers_left.fetch_sub(1, std::sync::atomic::Ordering::Release);
                })
            })
            .collect();
        for r in readers {
            r.join().unwrap();
        }
    });
}
