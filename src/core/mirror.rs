//! The lock-free read side of the attribute tables: `*_get_attr` at memory speed.
//!
//! Every attribute table (under the runtime's lock) publishes each change into a mirror that
//! readers consult without taking any lock and without writing any shared memory:
//!
//! - a directory per object kind maps a handle's slot index to that slot's [`ObjMirror`], which
//!   records which handle is bound to it now;
//! - a keyval mirror records, per registry slot, the number of the live keyval using it;
//! - an [`ObjMirror`] holds one `MirrorSlot` per keyval slot: the keyval number, the word,
//!   its provenance and the precomputed C view, guarded by a sequence counter (a seqlock:
//!   writers, already serialised by the runtime's lock, make it odd while they write).
//!
//! Mirrors are never freed: a slot index that is reused gets the same mirror back, so a reader
//! racing with a free (an erroneous program) can read stale values but never freed memory. The
//! memory is bounded by the largest number of objects alive at once. Anything the mirror cannot
//! answer (predefined keyvals, unbound objects, errors) goes to the locked slow path, which
//! gives the precise answer or error.

use crate::core::attr_table::{provenance_code, provenance_of, AttrCell};
use crate::core::convert::AttrWord;
use crate::core::handle::{self, Handle};
use crate::core::keyval;
use crate::core::{ObjRef, ObjectKind};
use std::sync::atomic::{fence, AtomicI32, AtomicI64, AtomicU32, AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Slots per page and pages per object: keyvals in the first 16384 registry slots are
/// mirrored; others (a program with more live keyvals) take the locked path.
const PAGE: usize = 256;
const PAGES: usize = 64;
/// Object slots per kind with a mirror; objects in higher slots take the locked path.
const OBJECTS: usize = 1 << 16;
/// Keyval registry slots with a mirror.
const KEYVALS: usize = PAGE * PAGES;

/// One published attribute.
#[derive(Default)]
struct MirrorSlot {
    seq: AtomicU32,
    keyval: AtomicI32,
    provenance: AtomicU8,
    word: AtomicI64,
    c_view: AtomicUsize,
}

struct Page {
    slots: [MirrorSlot; PAGE],
}

/// The published attributes of whatever object is bound to one handle slot.
pub struct ObjMirror {
    /// The handle bound to this slot now; 0 when none.
    bound: AtomicI32,
    pages: [OnceLock<&'static Page>; PAGES],
}

/// What the mirror says about a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fast<T> {
    /// Set: what the reader asked for.
    Hit(T),
    /// Valid object and keyval, attribute not set.
    Miss,
    /// The mirror cannot tell; ask the locked tables.
    Slow,
}

/// All mirrors of one runtime.
pub struct Mirrors {
    comms: Box<[OnceLock<&'static ObjMirror>]>,
    types: Box<[OnceLock<&'static ObjMirror>]>,
    wins: Box<[OnceLock<&'static ObjMirror>]>,
    keyvals: Box<[AtomicI32]>,
}

fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

impl ObjMirror {
    fn new() -> ObjMirror {
        ObjMirror {
            bound: AtomicI32::new(0),
            pages: std::array::from_fn(|_| OnceLock::new()),
        }
    }

    #[inline(always)]
    fn slot(&self, slot: usize) -> Option<&MirrorSlot> {
        let page = self.pages.get(slot / PAGE)?.get()?;
        Some(&page.slots[slot % PAGE])
    }

    fn slot_or_create(&self, slot: usize) -> Option<&MirrorSlot> {
        let page = self.pages.get(slot / PAGE)?.get_or_init(|| {
            leak(Page {
                slots: std::array::from_fn(|_| MirrorSlot::default()),
            })
        });
        Some(&page.slots[slot % PAGE])
    }

    /// Publishes an attribute (writers hold the runtime's lock). Keyvals beyond the mirrored
    /// slots are never looked up here: they have no keyval mirror entry.
    pub fn publish(&self, slot: u32, cell: &AttrCell) {
        let Some(s) = self.slot_or_create(slot as usize) else {
            return;
        };
        let value = cell.value();
        let seq = s.seq.load(Ordering::Relaxed);
        s.seq.store(seq.wrapping_add(1), Ordering::Relaxed);
        fence(Ordering::Release);
        s.keyval.store(cell.keyval.number, Ordering::Relaxed);
        s.word.store(value.word, Ordering::Relaxed);
        s.provenance
            .store(provenance_code(value.provenance), Ordering::Relaxed);
        s.c_view.store(cell.c_view(), Ordering::Relaxed);
        s.seq.store(seq.wrapping_add(2), Ordering::Release);
    }

    /// Withdraws an attribute.
    pub fn withdraw(&self, slot: u32) {
        if let Some(s) = self.slot(slot as usize) {
            let seq = s.seq.load(Ordering::Relaxed);
            s.seq.store(seq.wrapping_add(1), Ordering::Relaxed);
            fence(Ordering::Release);
            s.keyval.store(0, Ordering::Relaxed);
            s.seq.store(seq.wrapping_add(2), Ordering::Release);
        }
    }

    /// Reads what `take` picks out of an attribute, consistently (seqlock).
    #[inline(always)]
    fn read<T>(&self, slot: usize, keyval: i32, take: impl Fn(&MirrorSlot) -> T) -> Fast<T> {
        let Some(s) = self.slot(slot) else {
            return Fast::Miss;
        };
        loop {
            let before = s.seq.load(Ordering::Acquire);
            let k = s.keyval.load(Ordering::Relaxed);
            let value = take(s);
            fence(Ordering::Acquire);
            if before & 1 == 0 && s.seq.load(Ordering::Relaxed) == before {
                return if k == keyval {
                    Fast::Hit(value)
                } else {
                    Fast::Miss
                };
            }
            std::hint::spin_loop();
        }
    }
}

impl Default for Mirrors {
    fn default() -> Self {
        Self::new()
    }
}

impl Mirrors {
    pub fn new() -> Mirrors {
        let dir = || {
            (0..OBJECTS)
                .map(|_| OnceLock::new())
                .collect::<Vec<_>>()
                .into_boxed_slice()
        };
        Mirrors {
            comms: dir(),
            types: dir(),
            wins: dir(),
            keyvals: (0..KEYVALS)
                .map(|_| AtomicI32::new(0))
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        }
    }

    #[inline(always)]
    fn directory(&self, kind: ObjectKind) -> &[OnceLock<&'static ObjMirror>] {
        match kind {
            ObjectKind::Comm => &self.comms,
            ObjectKind::Datatype => &self.types,
            ObjectKind::Win => &self.wins,
        }
    }

    /// The mirror bound to `obj`, binding it if needed (writers only).
    pub fn bind(&self, obj: ObjRef) -> Option<&'static ObjMirror> {
        let index = handle::slot_of(obj.kind.handle_kind(), obj.handle)?;
        let m = *self
            .directory(obj.kind)
            .get(index)?
            .get_or_init(|| leak(ObjMirror::new()));
        m.bound.store(obj.handle.0, Ordering::Release);
        Some(m)
    }

    /// Unbinds an object that goes away; its attributes must already be withdrawn.
    pub fn unbind(&self, obj: ObjRef) {
        if let Some(m) = self.mirror_of(obj.kind, obj.handle) {
            let _ = m
                .bound
                .compare_exchange(obj.handle.0, 0, Ordering::AcqRel, Ordering::Relaxed);
        }
    }

    /// The mirror of an object's slot, if one was ever made.
    #[inline(always)]
    pub fn mirror_of(&self, kind: ObjectKind, h: Handle) -> Option<&'static ObjMirror> {
        let index = handle::slot_of(kind.handle_kind(), h)?;
        self.directory(kind).get(index)?.get().copied()
    }

    /// A keyval number is live (created and not freed).
    pub fn keyval_created(&self, number: i32) {
        if let Some(k) = self.keyvals.get(keyval::slot_of(number)) {
            k.store(number, Ordering::Release);
        }
    }

    pub fn keyval_freed(&self, number: i32) {
        if let Some(k) = self.keyvals.get(keyval::slot_of(number)) {
            let _ = k.compare_exchange(number, 0, Ordering::AcqRel, Ordering::Relaxed);
        }
    }

    /// Forgets everything (finalize): every object unbound, every keyval dead.
    pub fn clear(&self) {
        for kind in [ObjectKind::Comm, ObjectKind::Datatype, ObjectKind::Win] {
            for m in self.directory(kind).iter().filter_map(|m| m.get()) {
                m.bound.store(0, Ordering::Release);
            }
        }
        for k in self.keyvals.iter() {
            k.store(0, Ordering::Release);
        }
    }

    /// The read path: no lock, no shared write. `take` picks what the reader needs.
    #[inline(always)]
    fn get_with<T>(&self, obj: ObjRef, keyval: i32, take: impl Fn(&MirrorSlot) -> T) -> Fast<T> {
        let Some(m) = self.mirror_of(obj.kind, obj.handle) else {
            return Fast::Slow;
        };
        if m.bound.load(Ordering::Acquire) != obj.handle.0 {
            return Fast::Slow;
        }
        match keyval::decode_kind(keyval) {
            Some(kind) if kind == obj.kind => {}
            _ => return Fast::Slow,
        }
        let slot = keyval::slot_of(keyval);
        match self.keyvals.get(slot) {
            Some(k) if k.load(Ordering::Acquire) == keyval => m.read(slot, keyval, take),
            _ => Fast::Slow,
        }
    }

    /// The value and what a C reader gets.
    #[inline(always)]
    pub fn get(&self, obj: ObjRef, keyval: i32) -> Fast<(AttrWord, usize)> {
        self.get_with(obj, keyval, |s| {
            let word = s.word.load(Ordering::Relaxed);
            let provenance = provenance_of(s.provenance.load(Ordering::Relaxed));
            (
                AttrWord { word, provenance },
                s.c_view.load(Ordering::Relaxed),
            )
        })
    }

    /// Only what a C reader gets.
    #[inline(always)]
    pub fn get_c_view(&self, obj: ObjRef, keyval: i32) -> Fast<usize> {
        self.get_with(obj, keyval, |s| s.c_view.load(Ordering::Relaxed))
    }

    /// Only the word (all a Fortran reader needs: both views are cuts of it).
    #[inline(always)]
    pub fn get_word(&self, obj: ObjRef, keyval: i32) -> Fast<i64> {
        self.get_with(obj, keyval, |s| s.word.load(Ordering::Relaxed))
    }
}
