//! Tests of the keyval registry on its own (no store, no world).

use super::*;

fn table() -> &'static KeyvalTable {
    Box::leak(Box::new(KeyvalTable::new()))
}

fn create(r: &'static KeyvalTable, kind: ObjectKind) -> i32 {
    r.create(kind, CopyFn::Null, DeleteFn::Null, 0).unwrap()
}

/// The user's free, recycling the slot when the keyval dies (no store here to clear).
fn free(r: &'static KeyvalTable, number: i32, kind: ObjectKind) -> Result<()> {
    r.free(number, kind).map(|freed| {
        if let Some(freed) = freed {
            freed.recycle();
        }
    })
}

/// An attribute goes, recycling the slot when it was a freed keyval's last.
fn remove_attr(r: &'static KeyvalTable, slot: u32) {
    if let Some(freed) = r.remove_attr(slot) {
        freed.recycle();
    }
}

// MPI 4.1 §7.7.2: keyvals are positive integers distinct from MPI_KEYVAL_INVALID.
#[test]
fn numbers_fit_a_fortran_integer_and_carry_their_kind() {
    let r = table();
    let c = create(r, ObjectKind::Comm);
    let t = create(r, ObjectKind::Datatype);
    let w = create(r, ObjectKind::Win);
    for n in [c, t, w] {
        assert!(
            n > crate::consts::MPI_WIN_MODEL,
            "{n} must not collide with predefined keyvals"
        );
    }
    assert_eq!(
        r.lookup(t, ObjectKind::Comm).unwrap_err(),
        Error::KeyvalWrongKind {
            keyval: t,
            found: ObjectKind::Datatype,
            expected: ObjectKind::Comm
        }
    );
    assert_eq!(
        r.lookup(MPI_KEYVAL_INVALID, ObjectKind::Comm).unwrap_err(),
        Error::KeyvalInvalid
    );
    assert_eq!(
        r.lookup(77, ObjectKind::Comm).unwrap_err(),
        Error::KeyvalUnknown { keyval: 77 }
    );
}

// MPI 4.1 §7.7.2 ("a keyval ... unique"), issue 17: over an engine the layer's keyvals and the
// engine's share one number space (ROMIO makes keyvals through PMPI_ and uses them through the
// plain names), so `is_own` claims every number this build hands out and none of an engine's:
// MPICH's keyval handles (kind 9 in bits 29..26 under every handle kind in bits 31..30, as
// measured: 0xa4400000 comm, 0xa4c00002 datatype, 0xa6000003 window, 0x24000000 invalid,
// 0x64400001 MPI_TAG_UB; the MPI 5.0 ABI's user keyvals are the same), Open MPI's small
// integers and -1, the ABI's small predefined ones and 0.
#[test]
fn own_numbers_never_meet_an_engines() {
    let r = table();
    let mut own = Vec::new();
    for _ in 0..3 {
        for kind in [ObjectKind::Comm, ObjectKind::Datatype, ObjectKind::Win] {
            let n = create(r, kind);
            assert!(is_own(n), "{n:#x} is this build's own");
            assert_eq!(decode_kind(n), Some(kind));
            own.push((n, kind));
        }
    }
    for (n, kind) in own {
        free(r, n, kind).unwrap();
    }
    for handle_kind in 0..4u32 {
        for low in [
            0u32, 1, 2, 3, 0x3f_ffff, 0x40_0000, 0xc0_0002, 0x200_0003, 0x3ff_ffff,
        ] {
            let mpich = (handle_kind << 30 | 9 << 26 | low) as i32;
            assert!(
                !is_own(mpich),
                "MPICH's keyval {mpich:#x} is not this build's"
            );
        }
    }
    for engine in (-1..=1024).chain([i32::MAX, i32::MIN]) {
        assert!(!is_own(engine), "{engine:#x} is not this build's");
    }
}

// MPI 4.1 §7.7.2: "the actual free does not transpire until after all references ... to
// the key have been freed": a freed keyval that attributes use still names them (get,
// delete, overwrite) but cannot be freed again nor take new attributes from a set; its
// last attribute ends it, and the number is invalid from then on.
#[test]
fn freed_keyval_lives_while_attributes_use_it() {
    let r = table();
    let k = create(r, ObjectKind::Comm);
    let info = r.lookup(k, ObjectKind::Comm).unwrap();
    assert!(info.is_live());
    r.add_attr(info.slot(), k).unwrap();
    r.add_attr(info.slot(), k).unwrap();
    assert!(
        r.free(k, ObjectKind::Comm).unwrap().is_none(),
        "attributes keep it"
    );
    assert!(!info.is_live(), "freed: no new attribute from a set");
    assert_eq!(
        r.lookup(k, ObjectKind::Comm).unwrap_err(),
        Error::KeyvalFreed { keyval: k },
        "not for a free"
    );
    let held = r.lookup_held(k, ObjectKind::Comm).unwrap();
    assert_eq!((held.number, held.slot()), (k, info.slot()));
    assert!(!held.is_live());
    assert_eq!(
        r.lookup_held(k, ObjectKind::Datatype).unwrap_err(),
        Error::KeyvalWrongKind {
            keyval: k,
            found: ObjectKind::Comm,
            expected: ObjectKind::Datatype
        },
        "still of its kind only"
    );
    assert_eq!(r.held(), 1, "the record stays for the attributes");
    assert_eq!(r.info_at(info.slot()).map(|i| i.number), Some(k));
    assert_eq!(
        r.free(k, ObjectKind::Comm).unwrap_err(),
        Error::KeyvalFreed { keyval: k },
        "freed once only"
    );
    // A dup's copy: one more attribute under the freed keyval.
    r.add_attr(info.slot(), k).unwrap();
    assert!(r.remove_attr(info.slot()).is_none());
    assert!(r.remove_attr(info.slot()).is_none());
    r.lookup_held(k, ObjectKind::Comm).unwrap();
    let freed = r
        .remove_attr(info.slot())
        .expect("the last attribute ends it");
    assert_eq!(
        (freed.slot(), freed.kind()),
        (info.slot(), ObjectKind::Comm)
    );
    freed.recycle();
    assert_eq!(r.held(), 0);
    assert!(r.info_at(info.slot()).is_none());
    for e in [
        r.lookup(k, ObjectKind::Comm).unwrap_err(),
        r.lookup_held(k, ObjectKind::Comm).unwrap_err(),
        free(r, k, ObjectKind::Comm).unwrap_err(),
        r.add_attr(info.slot(), k).unwrap_err(),
    ] {
        assert_eq!(
            e,
            Error::KeyvalFreed { keyval: k },
            "dead with its last attribute"
        );
    }
}

// MPI 4.1 §7.7.2: a keyval that no attribute uses dies at its free; freeing one whose
// attributes went before keeps it live until then.
#[test]
fn a_keyval_without_attributes_dies_at_its_free() {
    let r = table();
    let k = create(r, ObjectKind::Win);
    let slot = r.lookup(k, ObjectKind::Win).unwrap().slot();
    r.add_attr(slot, k).unwrap();
    assert!(
        r.remove_attr(slot).is_none(),
        "live: the user still holds it"
    );
    r.lookup(k, ObjectKind::Win).unwrap();
    let freed = r.free(k, ObjectKind::Win).unwrap().expect("dies now");
    assert_eq!((freed.slot(), freed.kind()), (slot, ObjectKind::Win));
    freed.recycle();
    assert_eq!(
        r.lookup_held(k, ObjectKind::Win).unwrap_err(),
        Error::KeyvalFreed { keyval: k }
    );
    assert_eq!(r.held(), 0);
}

// 65,535 slots at most, yet a program that frees a keyval in use and then deletes its
// attribute may do so forever: each round's slot comes back (MPI 4.1 §7.7.2).
#[test]
fn freeing_in_use_then_deleting_never_exhausts_slots() {
    let r = table();
    for _ in 0..(SLOTS + 4_000) {
        let k = create(r, ObjectKind::Comm);
        let slot = r.lookup(k, ObjectKind::Comm).unwrap().slot();
        r.add_attr(slot, k).unwrap();
        assert!(r.free(k, ObjectKind::Comm).unwrap().is_none());
        r.remove_attr(slot).expect("its last attribute").recycle();
    }
    assert_eq!(r.held(), 0);
    assert!(r.slots_made() <= REUSE_DELAY + 2, "slots are reused");
}

#[test]
fn numbers_are_not_reused_soon() {
    let r = table();
    let first = create(r, ObjectKind::Comm);
    free(r, first, ObjectKind::Comm).unwrap();
    for _ in 0..REUSE_DELAY * 2 {
        let k = create(r, ObjectKind::Comm);
        assert_ne!(k, first);
        free(r, k, ObjectKind::Comm).unwrap();
    }
}

// A freed slot waits for REUSE_DELAY others, then comes back before any fresh slot.
#[test]
fn a_freed_slot_returns_after_the_reuse_delay() {
    let r = table();
    let first = create(r, ObjectKind::Comm);
    free(r, first, ObjectKind::Comm).unwrap();
    let mut seen = Vec::new();
    for _ in 0..REUSE_DELAY {
        let k = create(r, ObjectKind::Comm);
        assert_ne!(slot_of(k), slot_of(first), "reused inside the delay");
        seen.push(k);
    }
    for k in seen {
        free(r, k, ObjectKind::Comm).unwrap();
    }
    let again = create(r, ObjectKind::Comm);
    assert_eq!(
        slot_of(again),
        slot_of(first),
        "the oldest free slot comes first"
    );
    assert_ne!(again, first, "under a new generation");
    assert_eq!(
        r.lookup(first, ObjectKind::Comm).unwrap_err(),
        Error::KeyvalFreed { keyval: first }
    );
}

// More frees than the ring holds: the oldest go to the shared list, and nothing is lost.
#[test]
fn a_full_ring_spills_its_oldest_slots() {
    let r = table();
    let keys: Vec<i32> = (0..RING + 40)
        .map(|_| create(r, ObjectKind::Comm))
        .collect();
    for &k in &keys {
        free(r, k, ObjectKind::Comm).unwrap();
    }
    assert_eq!(r.orphan_count.load(Ordering::Relaxed), 40);
    // Every slot out of quarantine (the ring's ready half and the spilled ones) comes
    // back once before a fresh slot is taken; the last REUSE_DELAY freed still wait.
    let fresh = r.fresh.load(Ordering::Relaxed);
    let ready = keys.len() - REUSE_DELAY;
    let mut slots: Vec<usize> = (0..ready)
        .map(|_| slot_of(create(r, ObjectKind::Comm)))
        .collect();
    assert_eq!(
        r.fresh.load(Ordering::Relaxed),
        fresh,
        "a fresh slot was taken"
    );
    slots.sort_unstable();
    slots.dedup();
    assert_eq!(slots.len(), ready, "a slot was handed out twice");
    let waiting: Vec<usize> = keys[ready..].iter().map(|&k| slot_of(k)).collect();
    assert!(
        slots.iter().all(|s| !waiting.contains(s)),
        "quarantine broken"
    );
}

// A thread that ends gives its free slots back: another thread reuses them.
#[test]
fn an_ending_thread_hands_its_slots_back() {
    let r = table();
    let freed: Vec<usize> = std::thread::spawn(move || {
        let keys: Vec<i32> = (0..10).map(|_| create(r, ObjectKind::Win)).collect();
        for &k in &keys {
            free(r, k, ObjectKind::Win).unwrap();
        }
        keys.iter().map(|&k| slot_of(k)).collect()
    })
    .join()
    .unwrap();
    assert_eq!(r.orphan_count.load(Ordering::Relaxed), freed.len());
    let k = create(r, ObjectKind::Win);
    assert!(freed.contains(&slot_of(k)), "a slot of the ended thread");
}

// After a reset every slot is free once: slots still in a thread's ring are not handed
// out a second time.
#[test]
fn a_reset_voids_the_rings() {
    let r = table();
    let keys: Vec<i32> = (0..REUSE_DELAY + 8)
        .map(|_| create(r, ObjectKind::Comm))
        .collect();
    for &k in &keys {
        free(r, k, ObjectKind::Comm).unwrap();
    }
    r.clear();
    let mut slots: Vec<usize> = (0..keys.len() + 20)
        .map(|_| slot_of(create(r, ObjectKind::Comm)))
        .collect();
    slots.sort_unstable();
    slots.dedup();
    assert_eq!(slots.len(), keys.len() + 20, "a slot was handed out twice");
    for k in keys {
        assert!(
            r.lookup(k, ObjectKind::Comm).is_err(),
            "{k} survived the reset"
        );
    }
}

// MPI 4.1 §7.7.2: freeing a keyval that attributes use leaves it to them; the one-step
// free declines it and changes nothing.
#[test]
fn the_one_step_free_leaves_keyvals_in_use_alone() {
    let r = table();
    let k = create(r, ObjectKind::Comm);
    let slot = r.lookup(k, ObjectKind::Comm).unwrap().slot();
    r.add_attr(slot, k).unwrap();
    assert!(r.try_free(k, ObjectKind::Comm).is_none());
    assert!(r.try_free(k, ObjectKind::Datatype).is_none());
    r.lookup(k, ObjectKind::Comm).unwrap();
    free(r, k, ObjectKind::Comm).unwrap();
    assert_eq!(r.held(), 1, "the attribute still holds it");
    remove_attr(r, slot);
    assert_eq!(r.held(), 0);
}

// The one-step create takes only slots out of this thread's quarantine.
#[test]
fn the_one_step_create_reuses_only_quarantined_slots() {
    let r = table();
    assert_eq!(
        r.try_create_native(ObjectKind::Comm, Callbacks::default(), 0),
        None
    );
    let keys: Vec<i32> = (0..=REUSE_DELAY)
        .map(|_| create(r, ObjectKind::Comm))
        .collect();
    for &k in &keys {
        free(r, k, ObjectKind::Comm).unwrap();
    }
    let k = r
        .try_create_native(ObjectKind::Datatype, Callbacks::COPY_DUP, -3)
        .expect("a slot is out of quarantine");
    assert_eq!(slot_of(k), slot_of(keys[0]));
    let got = r.lookup(k, ObjectKind::Datatype).unwrap();
    assert_eq!(got.callbacks(), Callbacks::COPY_DUP);
    assert_eq!(got.extra_state().word(), -3);
    assert_eq!(
        r.try_create_native(ObjectKind::Comm, Callbacks::default(), 0),
        None
    );
}

// MPI 4.1 §7.7.2: the user's free (no lock) and the removal of the last attribute (under
// the engine's lock) race; whichever comes second ends the keyval, exactly once.
#[test]
fn a_free_racing_the_last_attribute_ends_the_keyval_once() {
    let r = table();
    let keys: Vec<(i32, u32)> = (0..4000)
        .map(|_| {
            let k = create(r, ObjectKind::Comm);
            let slot = r.lookup(k, ObjectKind::Comm).unwrap().slot();
            r.add_attr(slot, k).unwrap();
            (k, slot)
        })
        .collect();
    let keys: &'static [(i32, u32)] = Box::leak(keys.into_boxed_slice());
    let runtime_lock: &'static Mutex<()> = Box::leak(Box::new(Mutex::new(())));
    let freer = std::thread::spawn(move || {
        let mut ended = Vec::new();
        for &(k, _) in keys {
            if let Some(freed) = r.free(k, ObjectKind::Comm).unwrap() {
                ended.push(freed.slot());
                freed.recycle();
            }
        }
        ended
    });
    let remover = std::thread::spawn(move || {
        let mut ended = Vec::new();
        for &(_, slot) in keys.iter().rev() {
            let _held = lock(runtime_lock);
            if let Some(freed) = r.remove_attr(slot) {
                ended.push(freed.slot());
                freed.recycle();
            }
        }
        ended
    });
    let mut ended = freer.join().unwrap();
    ended.extend(remover.join().unwrap());
    ended.sort_unstable();
    let mut slots: Vec<u32> = keys.iter().map(|&(_, slot)| slot).collect();
    slots.sort_unstable();
    assert_eq!(ended, slots, "each keyval ended exactly once");
    assert_eq!(r.held(), 0);
    for &(k, _) in keys {
        assert_eq!(
            r.lookup_held(k, ObjectKind::Comm).unwrap_err(),
            Error::KeyvalFreed { keyval: k }
        );
    }
}

// Creating and freeing from many threads at once hands out each number once.
#[test]
fn concurrent_create_and_free_never_share_a_slot() {
    let r = table();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                let mut live = Vec::new();
                for i in 0..2000 {
                    live.push(create(r, ObjectKind::Comm));
                    if i % 3 == 0 {
                        let k = live.swap_remove(i % live.len());
                        free(r, k, ObjectKind::Comm).unwrap();
                    }
                }
                live
            })
        })
        .collect();
    let mut all: Vec<i32> = threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n, "a number was handed out twice");
    all.sort_unstable_by_key(|&k| slot_of(k));
    all.dedup_by_key(|k| slot_of(*k));
    assert_eq!(all.len(), n, "two live keyvals share a slot");
    assert_eq!(r.held(), n);
    for k in all {
        r.lookup(k, ObjectKind::Comm).unwrap();
    }
}

/// Issue 15 item 8: keyvals freed by a thread that is still running serve creates on other
/// threads. Thread A holds every slot, frees 1,000 (fewer than its ring keeps, so all stay in
/// it) and waits; thread B then creates 1,000 at the limit and every one succeeds, with
/// distinct numbers; the next fails with the limit error. MPI 4.1 §7.7.2: a freed keyval's
/// slot may serve a new keyval (under a new number).
#[test]
fn slots_freed_on_a_running_thread_serve_creates_on_another() {
    let r = table();
    let (freed_tx, freed_rx) = std::sync::mpsc::channel();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let a = std::thread::spawn(move || {
        let mut all = Vec::new();
        for _ in 0..LIMIT {
            all.push(create(r, ObjectKind::Comm));
        }
        assert!(r
            .create(ObjectKind::Comm, CopyFn::Null, DeleteFn::Null, 0)
            .is_err());
        for &n in &all[..400] {
            free(r, n, ObjectKind::Comm).unwrap();
        }
        freed_tx.send(all[..400].to_vec()).unwrap();
        // Still running, holding its ring, until B is done.
        done_rx.recv().unwrap();
    });
    let freed = freed_rx.recv().unwrap();
    let b = std::thread::spawn(move || {
        let made: Vec<i32> = (0..400).map(|_| create(r, ObjectKind::Comm)).collect();
        let err = r
            .create(ObjectKind::Comm, CopyFn::Null, DeleteFn::Null, 0)
            .unwrap_err();
        (made, err)
    });
    let (made, err) = b.join().unwrap();
    done_tx.send(()).unwrap();
    a.join().unwrap();
    assert_eq!(made.len(), 400);
    let distinct: std::collections::HashSet<_> = made.iter().collect();
    assert_eq!(distinct.len(), 400);
    assert!(made.iter().all(|n| !freed.contains(n)), "new numbers");
    assert_eq!(
        err.to_string(),
        "too many live keyvals: the limit is 65,535"
    );
    assert_eq!(r.held(), LIMIT);
}

/// Issue 15 item 8, the common case: another thread's slots out of quarantine are taken
/// before its quarantined ones, and the same thread's create/free pair keeps reusing its own
/// ring (no shared list touched while slots are ready there).
#[test]
fn stealing_takes_ready_slots_first() {
    let r = table();
    let (tx, rx) = std::sync::mpsc::channel();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let a = std::thread::spawn(move || {
        let mut all = Vec::new();
        for _ in 0..LIMIT {
            all.push(create(r, ObjectKind::Datatype));
        }
        // 300 freed: the oldest 44 are out of quarantine (256 wait behind them).
        for &n in &all[..300] {
            free(r, n, ObjectKind::Datatype).unwrap();
        }
        tx.send(all[..300].iter().map(|&n| slot_of(n)).collect::<Vec<_>>())
            .unwrap();
        done_rx.recv().unwrap();
    });
    let slots = rx.recv().unwrap();
    let first = std::thread::spawn(move || slot_of(create(r, ObjectKind::Datatype)))
        .join()
        .unwrap();
    done_tx.send(()).unwrap();
    a.join().unwrap();
    let pos = slots.iter().position(|&s| s == first).unwrap();
    assert!(
        pos < 300 - REUSE_DELAY,
        "slot {first} was still in quarantine"
    );
}
