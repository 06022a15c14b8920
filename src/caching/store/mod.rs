//! Where attributes live: type-stable slots that readers reach without a lock.
//!
//! - A directory per object kind maps an object key's low bits ([`key_index`]) to that index's
//!   [`ObjAttrs`], which records which object is bound to it now.
//! - An [`ObjAttrs`] holds slots indexed by keyval slot, the first 16,384 in one flat array
//!   (pages of 64 made later hold the rest): the word, the keyval number, and a packed word
//!   with the provenance, the dying flag and the position in the order of setting. Each slot is
//!   guarded by a sequence counter (a seqlock); writers claim it by making the counter odd with
//!   a compare-and-swap, so the locked writers and the lock-free overwrite never interleave.
//! - A keyval table per object kind records, per registry slot, the number of the keyval of that
//!   kind using it while the keyval is held (live, or freed while attributes still use it: MPI
//!   4.1 §7.7.2 keeps it for them) and whether it has a delete callback.
//!
//! [`layout`] states the lock-free read as numbers, for the hand-written getters
//! ([`getters_x86_64`]), which read the process's tables, [`GLOBAL_TABLES`], at a fixed address.
//!
//! Nothing here is ever freed: an index that is reused gets the same [`ObjAttrs`] back, so a
//! reader racing with a free (an erroneous program) reads stale values, never freed memory,
//! and a C reader's pointer into a slot (the internal `MPI_Aint` or `int` of a Fortran-set
//! value) stays valid while the attribute exists. The memory is bounded by the largest number
//! of objects alive at once and the highest keyval slot in use. (This store is the one the
//! stage 2 plan replaces: docs/DESIGN.md "The store".)
//!
//! Objects are bound by their key's low 32 bits (an `int` handle): a world's keys must fit an
//! `i32` (see [`crate::caching::World::check`]); binding refuses others.
//!
//! Everything but [`Tables::get`] and [`Tables::try_overwrite`] is called under the engine's
//! lock; those two take no lock and write nothing shared (the overwrite writes only its slot).

use crate::caching::convert::{AttrRead, AttrWord, Provenance};
use crate::caching::keyval::number::{decode_kind, slot_of, SLOTS};
use crate::caching::keyval::{FreedKeyval, KeyvalTable};
use crate::caching::object::{ObjKey, ObjRef};
use crate::kinds::ObjectKind;
use crate::primitives::once_ptr::OncePtr;
use crate::primitives::zeroed::{zeroable, zeroed_box};
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

pub(crate) mod getters_x86_64;
pub mod layout;
mod obj_attrs;
mod slot;
#[cfg(test)]
mod tests;

pub use obj_attrs::ObjAttrs;
pub use slot::Entry;
use slot::{callbacks_of_meta, pack, Slot, DYING, ORDER_SHIFT};

/// Every keyval slot a number can name.
const KEYVAL_SLOTS: usize = SLOTS;
/// What the keyval tables hold for slot 0, which the registry never hands out: no number
/// (keyval 0, `MPI_KEYVAL_INVALID`, included) equals it, so no reader passes the liveness check
/// there.
const NO_KEYVAL: i64 = -1;
/// In the keyval table: the keyval has a delete callback (overwrites must run it).
const HAS_DELETE: i64 = 1 << 32;

/// The bits of an object key that index a directory.
pub const KEY_INDEX_BITS: u32 = 18;
/// [`KEY_INDEX_BITS`] as a mask.
pub const KEY_INDEX_MASK: u32 = (1 << KEY_INDEX_BITS) - 1;
/// The number of distinct [`key_index`] values.
const KEY_INDEXES: usize = KEY_INDEX_MASK as usize + 1;

/// Where a directory keeps the object of `key`: the key's low bits. Any key gives an index;
/// readers compare the whole bound key (kind, generation and liveness at once for the
/// single-process world's handles).
#[inline(always)]
pub const fn key_index(key: ObjKey) -> usize {
    (key.0 as u32 & KEY_INDEX_MASK) as usize
}

/// The tables of the process's store: zeroes in `.bss` until used. The hand-written getters
/// read them at their fixed address (no pointer to follow); the single-process world's global
/// runtime puts its store on them.
pub static GLOBAL_TABLES: Tables = Tables::new();

/// What a lock-free read found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fast<T> {
    /// Set: what the reader asked for.
    Hit(T),
    /// Valid object and keyval, attribute not set.
    Miss,
    /// Cannot tell without the lock (predefined keyval, unknown object, error).
    Slow,
}

/// One directory: [`key_index`] → the attributes bound there.
#[repr(C)]
struct Directory {
    /// Every index a key can name.
    table: [OncePtr<ObjAttrs>; KEY_INDEXES],
    /// One past the highest index ever made: walks stop there.
    made: AtomicU32,
}

zeroable!(Directory { table, made });

impl Directory {
    #[inline(always)]
    fn get(&self, index: usize) -> Option<&'static ObjAttrs> {
        self.table[index % KEY_INDEXES].get()
    }

    /// Called under the engine's lock.
    fn get_or_create(&self, index: usize) -> &'static ObjAttrs {
        if index as u32 >= self.made.load(Ordering::Relaxed) {
            self.made.store(index as u32 + 1, Ordering::Relaxed);
        }
        self.table[index % KEY_INDEXES].get_or_set(ObjAttrs::new)
    }

    /// Every index's attributes, in index order.
    fn all(&self) -> impl Iterator<Item = &'static ObjAttrs> + '_ {
        let made = self.made.load(Ordering::Relaxed) as usize;
        self.table[..made].iter().filter_map(|o| o.get())
    }
}

/// The tables the lock-free paths read: which attributes each object has and which keyvals
/// are held. Megabytes that start all zero (untouched pages take no memory): the process's
/// runtime keeps them in a static, so the hot paths reach them with no pointer to follow;
/// other runtimes (tests) get them from a zeroed allocation.
#[repr(C)]
pub struct Tables {
    dirs: [Directory; 3],
    /// Per object kind and keyval slot: the number of the keyval of that kind using the slot,
    /// from its creation until it dies (freed by the user and used by no attribute), `|
    /// HAS_DELETE` when it has a delete callback; 0 when none does ([`NO_KEYVAL`] for slot 0).
    /// A reader that finds its number there knows the keyval held and of its kind: it names
    /// the attributes it has, which is all a get asks. Whether it is live (may create new
    /// attributes) only the registry says.
    keyvals: [[AtomicI64; KEYVAL_SLOTS]; 3],
}

zeroable!(Tables { dirs, keyvals });

impl Tables {
    /// Empty tables, for a `static` (all zero: `.bss`).
    pub const fn new() -> Tables {
        Tables {
            dirs: [const {
                Directory {
                    table: [const { OncePtr::new() }; KEY_INDEXES],
                    made: AtomicU32::new(0),
                }
            }; 3],
            keyvals: [const { [const { AtomicI64::new(0) }; KEYVAL_SLOTS] }; 3],
        }
    }
}

impl Default for Tables {
    fn default() -> Self {
        Self::new()
    }
}

/// All attributes of one runtime, and the keyvals they use: the registry, and the tables
/// (which it derefs to).
pub struct Store {
    /// The keyval registry (lock-free create and free).
    pub registry: KeyvalTable,
    tables: &'static Tables,
}

impl std::ops::Deref for Store {
    type Target = Tables;

    fn deref(&self) -> &Tables {
        self.tables
    }
}

impl Default for Store {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    /// A store with tables of its own, from the heap (kept for the rest of the process:
    /// lock-free readers may hold references into them at any time).
    pub fn new() -> Store {
        Store::with_tables(Box::leak(zeroed_box()))
    }

    /// A store on `tables`, which must be empty and used by no other store.
    pub fn with_tables(tables: &'static Tables) -> Store {
        tables.no_keyval_in_slot_0();
        Store {
            registry: KeyvalTable::new(),
            tables,
        }
    }

    /// A keyval died (its slot released by the caller, not yet recycled): its entry is
    /// cleared, then the slot can be reused.
    #[inline]
    pub fn release_keyval(&self, freed: FreedKeyval) {
        self.keyval_entry(freed.kind(), freed.slot() as usize)
            .store(0, Ordering::Release);
        freed.recycle();
    }

    /// An attribute under keyval slot `slot` is gone (called under the engine's lock); when
    /// it was the last one of a freed keyval, the keyval dies with it.
    #[inline]
    pub fn attr_removed(&'static self, slot: u32) {
        if let Some(freed) = self.registry.remove_attr(slot) {
            self.release_keyval(freed);
        }
    }

    /// Forgets everything (finalize, test resets): every attribute gone, every object
    /// unbound, every keyval dead. No reader may be running.
    pub fn clear(&self) {
        self.registry.clear();
        for dir in &self.dirs {
            for a in dir.all() {
                a.remove_all(|_| {});
                a.bound.store(0, Ordering::Release);
            }
        }
        let made = self.registry.slots_made().min(KEYVAL_SLOTS);
        for table in &self.keyvals {
            for k in &table[..made] {
                k.store(0, Ordering::Release);
            }
        }
        self.no_keyval_in_slot_0();
    }
}

/// Whether the store can bind `key`: it binds the low 32 bits (an `int` handle).
pub fn fits(key: ObjKey) -> bool {
    ObjKey::from_int(key.int()) == key
}

/// Where tables kept per object kind (directories, keyval tables) keep `kind`.
const fn kind_index(kind: ObjectKind) -> usize {
    match kind {
        ObjectKind::Comm => 0,
        ObjectKind::Datatype => 1,
        ObjectKind::Win => 2,
    }
}

impl Tables {
    /// The attributes bound to `obj`, binding them if needed (for an object that is known to
    /// be live, whose key fits an `i32`: see [`fits`]).
    pub fn bind(&self, obj: ObjRef) -> &'static ObjAttrs {
        debug_assert!(fits(obj.key), "{obj:?}: a key the store cannot bind");
        let a = self.dirs[kind_index(obj.kind)].get_or_create(key_index(obj.key));
        if a.bound.load(Ordering::Relaxed) != obj.key.int() {
            a.bound.store(obj.key.int(), Ordering::Release);
        }
        a
    }

    /// The attributes bound to `obj` now, if any. Whatever the key's value: only a live
    /// object's own key is ever bound.
    #[inline(always)]
    pub fn attrs(&self, obj: ObjRef) -> Option<&'static ObjAttrs> {
        let a = self.dirs[kind_index(obj.kind)].get(key_index(obj.key))?;
        (a.bound.load(Ordering::Acquire) == obj.key.int()).then_some(a)
    }

    /// Every object of `kind` bound now with attributes, in directory order (for the
    /// single-process world's handles: the order of their slots, predefined objects first).
    pub fn objects_with_attributes(&self, kind: ObjectKind) -> impl Iterator<Item = ObjRef> + '_ {
        self.dirs[kind_index(kind)].all().filter_map(move |a| {
            let bound = a.bound.load(Ordering::Acquire);
            (bound != 0 && !a.is_empty()).then(|| ObjRef::of_int(kind, bound))
        })
    }

    /// Unbinds an object that goes away; its attributes must already be removed.
    pub fn unbind(&self, obj: ObjRef) {
        if let Some(a) = self.attrs(obj) {
            debug_assert!(a.is_empty(), "{} unbound with attributes", obj.kind);
            a.bound.store(0, Ordering::Release);
        }
    }

    /// The entry of `slot` in the keyval table of `kind`.
    #[inline(always)]
    fn keyval_entry(&self, kind: ObjectKind, slot: usize) -> &AtomicI64 {
        &self.keyvals[kind_index(kind)][slot % KEYVAL_SLOTS]
    }

    /// The entry of a user keyval number (whose kind it carries).
    fn entry_of(&self, number: i32) -> Option<&AtomicI64> {
        let kind = decode_kind(number)?;
        Some(self.keyval_entry(kind, slot_of(number)))
    }

    /// Sets the entries of slot 0 to [`NO_KEYVAL`].
    fn no_keyval_in_slot_0(&self) {
        for table in &self.keyvals {
            table[0].store(NO_KEYVAL, Ordering::Release);
        }
    }

    /// A keyval number is live (created and not freed).
    #[inline]
    pub fn keyval_created(&self, number: i32, has_delete: bool) {
        let entry = number as u32 as i64 | if has_delete { HAS_DELETE } else { 0 };
        if let Some(k) = self.entry_of(number) {
            k.store(entry, Ordering::Release);
        }
    }

    /// A keyval number is dead (the caller released its slot and recycles it after this): its
    /// entry is cleared. A plain store does: besides resets (with no reader running), only the
    /// keyval's creator and the one who released it write the entry, and the slot is not
    /// handed out again before it is recycled.
    #[inline(always)]
    pub fn keyval_released(&self, number: i32) {
        if let Some(k) = self.entry_of(number) {
            k.store(0, Ordering::Release);
        }
    }

    /// The slot of a held user keyval of `kind` (live, or freed with attributes left) and its
    /// table entry: only such a keyval's own number is in the table of its kind.
    #[inline(always)]
    fn held_keyval(&self, kind: ObjectKind, keyval: i32) -> Option<(u32, i64)> {
        let slot = slot_of(keyval);
        let entry = self.keyval_entry(kind, slot).load(Ordering::Acquire);
        (entry as i32 == keyval).then_some((slot as u32, entry))
    }

    /// The read path: no lock, no shared write. `take` gets the slot, word and provenance.
    ///
    /// The bound handle vouches for the object, the keyval table of the object's kind for the
    /// keyval being held and of that kind (any number, even 0, names some entry; only a held
    /// keyval's own number equals it): an attribute not in its slot is then not set. A keyval
    /// freed while attributes use it still names them (MPI 4.1 §7.7.2), so it is answered too.
    #[inline(always)]
    fn get_with<T>(
        &self,
        obj: ObjRef,
        keyval: i32,
        take: impl Fn(&Slot, i64, Provenance) -> T,
    ) -> Fast<T> {
        let Some(a) = self.attrs(obj) else {
            return Fast::Slow;
        };
        let Some((slot, _)) = self.held_keyval(obj.kind, keyval) else {
            return Fast::Slow;
        };
        let Some(s) = a.slot(slot) else {
            return Fast::Miss;
        };
        // A read racing a writer (a concurrent overwrite) asks the lock: no loop here.
        match s.try_read_word(keyval) {
            Some(Some((word, provenance))) => Fast::Hit(take(s, word, provenance)),
            Some(None) => Fast::Miss,
            None => Fast::Slow,
        }
    }

    /// The value and what a C reader gets.
    #[inline(always)]
    pub fn get(&self, obj: ObjRef, keyval: i32) -> Fast<AttrRead> {
        self.get_with(obj, keyval, |s, word, provenance| AttrRead {
            value: AttrWord { word, provenance },
            c_view: s.c_view(word, provenance),
        })
    }

    /// Only what a C reader gets.
    #[inline(always)]
    pub fn get_c_view(&self, obj: ObjRef, keyval: i32) -> Fast<usize> {
        self.get_with(obj, keyval, |s, word, provenance| {
            s.c_view(word, provenance)
        })
    }

    /// Only the word (all a Fortran reader needs: both views are cuts of it).
    #[inline(always)]
    pub fn get_word(&self, obj: ObjRef, keyval: i32) -> Fast<i64> {
        // The provenance does not change a Fortran view.
        self.get_with(obj, keyval, |_, word, _| word)
    }

    /// `*_set_attr` overwriting, without the lock: only when the keyval is held and has no
    /// delete callback (no user code to run) and the attribute is set and not dying. The
    /// value changes in place and, as a new setting, moves to the end of the order of setting
    /// (unless it is there already). Returns false when the locked path must decide.
    ///
    /// A held keyval may be one the user freed: overwriting an attribute that an object holds
    /// under it is allowed (the keyval lives on for its attributes, as in MPICH and Open MPI).
    /// This never creates an attribute, which only a live keyval may (the locked path checks
    /// the registry for that).
    #[inline(always)]
    pub fn try_overwrite(&self, obj: ObjRef, keyval: i32, value: AttrWord) -> bool {
        let Some(a) = self.attrs(obj) else {
            return false;
        };
        let Some((slot, entry)) = self.held_keyval(obj.kind, keyval) else {
            return false;
        };
        if entry & HAS_DELETE != 0 {
            return false;
        }
        let Some(s) = a.slot(slot) else {
            return false;
        };
        let seq = s.claim();
        let meta = s.meta.load(Ordering::Relaxed);
        if s.keyval.load(Ordering::Relaxed) != keyval || meta & DYING != 0 {
            s.release(seq, meta);
            return false;
        }
        let mut order = meta >> ORDER_SHIFT;
        if order + 1 != a.next_order.load(Ordering::Relaxed) {
            order = a.next_order();
        }
        s.word.store(value.word, Ordering::Relaxed);
        let callbacks = callbacks_of_meta(meta);
        let meta = pack(value, callbacks, order, false);
        s.meta.store(meta, Ordering::Relaxed);
        s.release(seq, meta);
        true
    }
}
