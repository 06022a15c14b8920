//! Where attributes live: memory that follows what the program holds, read without a lock.
//!
//! - Each object with attributes has a [`Record`] (bound key, version, counts, order counter)
//!   and an open-addressing table of buckets keyed by keyval slot ([`record`]), both from the
//!   store's [`Arena`]: type- and size-class-stable blocks, given back to the kernel when free.
//! - A directory per object kind maps an object key to its record. Worlds whose keys are dense
//!   (the single-process world's handles: live objects of a kind differ in their low
//!   [`KEY_INDEX_BITS`] bits) get a two-level array ([`Tables::dirs`] → leaves made on demand);
//!   others (engine handles: ints, pointers) a hash directory ([`directory`]). Readers take no
//!   lock in either.
//! - A keyval table per object kind records, per registry slot, the number of the keyval of that
//!   kind using it while the keyval is held (live, or freed while attributes still use it: MPI
//!   4.1 §7.7.2 keeps it for them) and whether it has a delete callback.
//!
//! [`layout`] states the lock-free read as numbers, for the hand-written getters
//! ([`getters_x86_64`]), which read the process's tables, [`GLOBAL_TABLES`], at a fixed address.
//!
//! Records and tables of freed objects go back to the arena; a racing reader (an erroneous
//! program, or a get racing a table rebuild) reads stale values of the right type and sees the
//! record's version change, and the locked path answers. A Fortran-set value's C view (the
//! internal `MPI_Aint` / `int`) is a cell of its own that stays put while the attribute lives.
//!
//! Everything but the gets and [`Tables::try_overwrite`] is called under the engine's lock;
//! those take no lock and write nothing shared (the overwrite writes only its bucket).

use crate::caching::convert::{AttrRead, AttrWord, Provenance};
use crate::caching::keyval::number::{decode_kind, slot_of, SLOTS};
use crate::caching::keyval::{FreedKeyval, KeyvalTable};
use crate::caching::object::{ObjKey, ObjRef};
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;
use crate::primitives::arena::{at, slice_at, Arena};
use crate::primitives::zeroed::{zeroable, zeroed_box};
use bucket::{cell_ref, cell_view, keyval_of, pack, Read, DYING, ORDER_SHIFT, PROVENANCE_BITS};
use std::sync::atomic::{fence, AtomicI64, AtomicU32, AtomicU64, Ordering};

mod bucket;
mod directory;
pub(crate) mod getters_x86_64;
pub mod layout;
mod record;
#[cfg(test)]
mod tests;

pub use bucket::Entry;
pub use record::ObjAttrs;
use record::{buckets_of, home, Record};

/// Every keyval slot a number can name.
const KEYVAL_SLOTS: usize = SLOTS;
/// What the keyval tables hold for slot 0, which the registry never hands out: no number
/// (keyval 0, `MPI_KEYVAL_INVALID`, included) equals it, so no reader passes the liveness check
/// there.
const NO_KEYVAL: i64 = -1;
/// In the keyval table: the keyval has a delete callback (overwrites must run it).
const HAS_DELETE: i64 = 1 << 32;

/// The bits of a dense key that index a directory: live objects of one kind differ in them.
pub const KEY_INDEX_BITS: u32 = 24;
/// [`KEY_INDEX_BITS`] as a mask.
pub const KEY_INDEX_MASK: u32 = (1 << KEY_INDEX_BITS) - 1;
/// Index bits resolved by a leaf of the dense directory.
pub const LEAF_BITS: u32 = 12;
/// Entries of a leaf.
pub const LEAF: usize = 1 << LEAF_BITS;
/// Leaves of a dense directory.
const LEAVES: usize = 1 << (KEY_INDEX_BITS - LEAF_BITS);

/// Where a dense directory keeps the object of `key`: the key's low bits. Any key gives an
/// index; readers compare the whole bound key (kind, generation and liveness at once for the
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
    /// Cannot tell without the lock (predefined keyval, unknown object, error, a race).
    Slow,
}

/// The tables the lock-free paths read: the dense directories and which keyvals are held.
/// Megabytes that start all zero (untouched pages take no memory): the process's runtime keeps
/// them in a static, so the hot paths reach them with no pointer to follow; other runtimes
/// (tests) get them from a zeroed allocation.
#[repr(C)]
pub struct Tables {
    /// Per object kind: leaf addresses (arrays of [`LEAF`] record addresses), by the index's
    /// high bits.
    dirs: [[AtomicU64; LEAVES]; 3],
    /// Per object kind and keyval slot: the number of the keyval of that kind using the slot,
    /// from its creation until it dies (freed by the user and used by no attribute), `|
    /// HAS_DELETE` when it has a delete callback; 0 when none does ([`NO_KEYVAL`] for slot 0).
    keyvals: [[AtomicI64; KEYVAL_SLOTS]; 3],
    /// Per object kind and leaf: records bound in it (writers only, under the engine's lock).
    leaf_records: [[AtomicU32; LEAVES]; 3],
    /// Per object kind: 1 + the leaf left empty last, kept resident (0: none), so that a loop
    /// that makes and frees one object costs no system call; an empty leaf before it has its
    /// pages given back (see [`Store::unbind`]).
    kept_leaf: [AtomicU32; 3],
}

zeroable!(Tables {
    dirs,
    keyvals,
    leaf_records,
    kept_leaf
});

impl Tables {
    /// Empty tables, for a `static` (all zero: `.bss`).
    pub const fn new() -> Tables {
        Tables {
            dirs: [const { [const { AtomicU64::new(0) }; LEAVES] }; 3],
            keyvals: [const { [const { AtomicI64::new(0) }; KEYVAL_SLOTS] }; 3],
            leaf_records: [const { [const { AtomicU32::new(0) }; LEAVES] }; 3],
            kept_leaf: [const { AtomicU32::new(0) }; 3],
        }
    }
}

impl Default for Tables {
    fn default() -> Self {
        Self::new()
    }
}

/// All attributes of one runtime, and the keyvals they use: the registry, the memory, the
/// directories, and the tables (which it derefs to).
pub struct Store {
    /// The keyval registry (lock-free create and free).
    pub registry: KeyvalTable,
    tables: &'static Tables,
    arena: Arena,
    /// Keys are dense (see [`KEY_INDEX_BITS`]): the tables' directories; else [`directory`].
    dense: bool,
    hashed: [directory::HashDir; 3],
}

impl std::ops::Deref for Store {
    type Target = Tables;

    fn deref(&self) -> &Tables {
        self.tables
    }
}

impl Store {
    /// A store with tables of its own, from the heap (kept for the rest of the process:
    /// lock-free readers may hold references into them at any time); `dense`: see
    /// [`KEY_INDEX_BITS`].
    pub fn new(dense: bool) -> Store {
        Store::with_tables(Box::leak(zeroed_box()), dense)
    }

    /// A store on `tables`, which must be empty and used by no other store.
    pub fn with_tables(tables: &'static Tables, dense: bool) -> Store {
        tables.no_keyval_in_slot_0();
        Store {
            registry: KeyvalTable::new(),
            tables,
            arena: Arena::new(),
            dense,
            hashed: [const { directory::HashDir::new() }; 3],
        }
    }

    /// The store's memory (tests, reports).
    pub fn arena(&self) -> &Arena {
        &self.arena
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
    /// unbound, every keyval dead, the memory back to the arena. No reader may be running.
    pub fn clear(&'static self) {
        self.registry.clear();
        for kind in [ObjectKind::Comm, ObjectKind::Datatype, ObjectKind::Win] {
            for obj in self.objects(kind) {
                if let Some(a) = self.attrs(obj) {
                    a.remove_all(|_| {});
                }
                self.unbind(obj);
            }
            if self.dense {
                for leaf in &self.dirs[kind_index(kind)] {
                    let addr = leaf.swap(0, Ordering::AcqRel);
                    if addr != 0 {
                        self.arena.free_at::<AtomicU64>(addr as usize, LEAF);
                    }
                }
                for n in &self.leaf_records[kind_index(kind)] {
                    n.store(0, Ordering::Relaxed);
                }
                self.kept_leaf[kind_index(kind)].store(0, Ordering::Relaxed);
            } else {
                self.hashed[kind_index(kind)].clear(&self.arena);
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

    /// The record of `obj`'s key, bound or stale (lock-free).
    #[inline(always)]
    fn record(&self, obj: ObjRef) -> Option<&'static Record> {
        if self.dense {
            self.tables.record(obj)
        } else {
            self.hashed[kind_index(obj.kind)].get(obj.key.0)
        }
    }

    fn handle(&'static self, rec: &'static Record) -> ObjAttrs {
        ObjAttrs {
            rec,
            arena: &self.arena,
        }
    }

    /// The attributes bound to `obj` now, if any.
    #[inline]
    pub fn attrs(&'static self, obj: ObjRef) -> Option<ObjAttrs> {
        let rec = self.record(obj)?;
        (rec.key.load(Ordering::Acquire) == obj.key.0 && obj.key.0 != 0).then(|| self.handle(rec))
    }

    /// The attributes bound to `obj` (a live object), binding them if needed. Out of memory:
    /// an error, and nothing changed.
    pub fn bind(&'static self, obj: ObjRef) -> Result<ObjAttrs> {
        if let Some(a) = self.attrs(obj) {
            return Ok(a);
        }
        if obj.key.0 == 0 {
            return Err(Error::invalid(
                crate::consts::MPI_ERR_INTERN,
                format!("{obj:?}: key 0 names no object"),
            ));
        }
        if self.dense {
            let index = key_index(obj.key);
            let top = &self.dirs[kind_index(obj.kind)][index >> LEAF_BITS];
            let mut leaf = top.load(Ordering::Acquire);
            if leaf == 0 {
                let block = self.arena.alloc::<AtomicU64>(LEAF).ok_or_else(|| {
                    Error::no_memory::<AtomicU64>("an attribute directory page", LEAF)
                })?;
                for e in block.get() {
                    e.store(0, Ordering::Relaxed);
                }
                leaf = block.addr() as u64;
                top.store(leaf, Ordering::Release);
            }
            let entry = &slice_at::<AtomicU64>(leaf, LEAF)[index & (LEAF - 1)];
            if let Some(old) = at::<Record>(entry.load(Ordering::Acquire)) {
                // A record left by an object that is gone (the world promises one live object
                // per index): it serves the new one.
                self.handle(old).remove_all(|slot| self.attr_removed(slot));
                old.init(obj.key.0);
                return Ok(self.handle(old));
            }
            let rec = self.new_record(obj)?;
            entry.store(rec as *const Record as u64, Ordering::Release);
            let k = kind_index(obj.kind);
            let n = &self.leaf_records[k][index >> LEAF_BITS];
            n.store(n.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
            let kept = &self.kept_leaf[k];
            if kept.load(Ordering::Relaxed) == (index >> LEAF_BITS) as u32 + 1 {
                kept.store(0, Ordering::Relaxed);
            }
            Ok(self.handle(rec))
        } else {
            let dir = &self.hashed[kind_index(obj.kind)];
            dir.reserve(&self.arena).map_err(|n| {
                Error::no_memory::<directory::HashEntry>("an attribute directory", n)
            })?;
            let rec = self.new_record(obj)?;
            dir.insert(obj.key.0, rec);
            Ok(self.handle(rec))
        }
    }

    fn new_record(&self, obj: ObjRef) -> Result<&'static Record> {
        let block = self
            .arena
            .alloc::<Record>(1)
            .ok_or_else(|| Error::no_memory::<Record>("an object's attribute record", 1))?;
        let rec = &block.get()[0];
        rec.init(obj.key.0);
        Ok(rec)
    }

    /// Unbinds an object that goes away (its attributes already removed): readers stop
    /// finding it and its record goes back to the arena.
    pub fn unbind(&'static self, obj: ObjRef) {
        let Some(a) = self.attrs(obj) else { return };
        debug_assert!(a.is_empty(), "{} unbound with attributes", obj.kind);
        a.drop_table(|_| {});
        let rec = a.rec;
        let v = rec.version.load(Ordering::Relaxed) | 1;
        rec.version.store(v, Ordering::Release);
        rec.key.store(0, Ordering::Release);
        rec.version.store(v + 1, Ordering::Release);
        if self.dense {
            let index = key_index(obj.key);
            let leaf = self.dirs[kind_index(obj.kind)][index >> LEAF_BITS].load(Ordering::Acquire);
            if leaf != 0 {
                slice_at::<AtomicU64>(leaf, LEAF)[index & (LEAF - 1)].store(0, Ordering::Release);
                self.leaf_emptied(obj.kind, index >> LEAF_BITS);
            }
        } else {
            self.hashed[kind_index(obj.kind)].remove(&self.arena, obj.key.0);
        }
        self.arena
            .free_at::<Record>(rec as *const Record as usize, 1);
    }

    /// A record left leaf `leaf` of `kind`'s directory. A leaf left with none keeps its place
    /// (readers may hold its address: freed, it could become another leaf, whose free-list
    /// link a reader would follow) but, unless it is the one kept resident, gives its pages
    /// back: 1,000,000 freed datatypes left 8 MiB of empty leaves resident.
    fn leaf_emptied(&self, kind: ObjectKind, leaf: usize) {
        let k = kind_index(kind);
        let n = &self.leaf_records[k][leaf];
        let left = n.load(Ordering::Relaxed).saturating_sub(1);
        n.store(left, Ordering::Relaxed);
        if left != 0 {
            return;
        }
        let before = self.kept_leaf[k].swap(leaf as u32 + 1, Ordering::Relaxed);
        if before == 0 || before == leaf as u32 + 1 {
            return;
        }
        let old = before as usize - 1;
        let addr = self.dirs[k][old].load(Ordering::Acquire);
        if addr != 0 && self.leaf_records[k][old].load(Ordering::Relaxed) == 0 {
            self.arena.zero_pages_at::<AtomicU64>(addr as usize, LEAF);
        }
    }

    /// Every object of `kind` bound now, in directory order (for dense keys, the single-process
    /// world's handles: the order of their slots, predefined objects first), else key order.
    fn objects(&self, kind: ObjectKind) -> Vec<ObjRef> {
        let mut out = Vec::new();
        let mut take = |rec: &Record| {
            let key = rec.key.load(Ordering::Acquire);
            if key != 0 {
                out.push(ObjRef::new(kind, ObjKey(key)));
            }
        };
        if self.dense {
            for leaf in &self.dirs[kind_index(kind)] {
                let leaf = leaf.load(Ordering::Acquire);
                if leaf != 0 {
                    for e in slice_at::<AtomicU64>(leaf, LEAF) {
                        if let Some(rec) = at::<Record>(e.load(Ordering::Acquire)) {
                            take(rec);
                        }
                    }
                }
            }
        } else {
            self.hashed[kind_index(kind)].each(take);
            // Hash order means nothing: key order is creation order for handles that count up.
            out.sort_unstable_by_key(|o| o.key);
        }
        out
    }

    /// Every object of `kind` bound now with attributes, in directory order.
    pub fn objects_with_attributes(
        &'static self,
        kind: ObjectKind,
    ) -> impl Iterator<Item = ObjRef> + 'static {
        self.objects(kind)
            .into_iter()
            .filter(move |&o| self.attrs(o).is_some_and(|a| !a.is_empty()))
    }

    /// The value and what a C reader gets (lock-free).
    #[inline(always)]
    pub fn get(&self, obj: ObjRef, keyval: i32) -> Fast<AttrRead> {
        self.tables.get_in(self.record(obj), obj, keyval)
    }

    /// Only what a C reader gets (lock-free).
    #[inline(always)]
    pub fn get_c_view(&self, obj: ObjRef, keyval: i32) -> Fast<usize> {
        match self.get(obj, keyval) {
            Fast::Hit(r) => Fast::Hit(r.c_view),
            Fast::Miss => Fast::Miss,
            Fast::Slow => Fast::Slow,
        }
    }

    /// Only the word (lock-free).
    #[inline(always)]
    pub fn get_word(&self, obj: ObjRef, keyval: i32) -> Fast<i64> {
        match self.get(obj, keyval) {
            Fast::Hit(r) => Fast::Hit(r.value.word),
            Fast::Miss => Fast::Miss,
            Fast::Slow => Fast::Slow,
        }
    }

    /// [`Tables::try_overwrite`] in this store's directory.
    #[inline(always)]
    pub fn try_overwrite(&self, obj: ObjRef, keyval: i32, value: AttrWord) -> bool {
        self.tables
            .overwrite_in(self.record(obj), obj, keyval, value)
    }
}

/// A bucket held by a writer that does not finish until this is dropped (test hook: a get
/// meeting it must not answer from what it reads).
#[cfg(feature = "test-hooks")]
pub struct HeldBucket {
    bucket: &'static bucket::Bucket,
    head: u64,
}

#[cfg(feature = "test-hooks")]
impl Drop for HeldBucket {
    fn drop(&mut self) {
        self.bucket.release_unchanged(self.head);
    }
}

#[cfg(feature = "test-hooks")]
impl Store {
    /// Claims the bucket of `obj`'s attribute under keyval slot `slot`, as a writer does.
    pub fn hold_bucket(&'static self, obj: ObjRef, slot: u32) -> Option<HeldBucket> {
        let bucket = self.attrs(obj)?.bucket_of(slot)?;
        Some(HeldBucket {
            bucket,
            head: bucket.claim(),
        })
    }
}

/// Where tables kept per object kind (directories, keyval tables) keep `kind`.
pub(crate) const fn kind_index(kind: ObjectKind) -> usize {
    match kind {
        ObjectKind::Comm => 0,
        ObjectKind::Datatype => 1,
        ObjectKind::Win => 2,
    }
}

impl Tables {
    /// The record at `obj`'s index of the dense directory of its kind (lock-free).
    #[inline(always)]
    fn record(&self, obj: ObjRef) -> Option<&'static Record> {
        let index = key_index(obj.key);
        let leaf = self.dirs[kind_index(obj.kind)][index >> LEAF_BITS].load(Ordering::Acquire);
        if leaf == 0 {
            return None;
        }
        at::<Record>(slice_at::<AtomicU64>(leaf, LEAF)[index & (LEAF - 1)].load(Ordering::Acquire))
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

    /// The read path: no lock, no shared write, in the record `rec` found for `obj`.
    ///
    /// The record's version (even, and the same after) vouches for its table, its bound key for
    /// the object, the keyval table of the object's kind for the keyval being held and of that
    /// kind (only a held keyval's own number equals its entry): an attribute not in the table
    /// is then not set. A keyval freed while attributes use it still names them (MPI 4.1
    /// §7.7.2), so it is answered too.
    #[inline(always)]
    fn get_in(&self, rec: Option<&'static Record>, obj: ObjRef, keyval: i32) -> Fast<AttrRead> {
        let Some(rec) = rec else {
            return Fast::Slow;
        };
        let version = rec.version.load(Ordering::Acquire);
        if version & 1 != 0 || rec.key.load(Ordering::Relaxed) != obj.key.0 {
            return Fast::Slow;
        }
        let Some((slot, _)) = self.held_keyval(obj.kind, keyval) else {
            return Fast::Slow;
        };
        let found = match buckets_of(rec.table.load(Ordering::Acquire)) {
            None => Fast::Miss,
            Some((buckets, log2)) => probe(buckets, log2, slot, keyval),
        };
        fence(Ordering::Acquire);
        if rec.version.load(Ordering::Relaxed) != version {
            return Fast::Slow;
        }
        found
    }

    /// The value and what a C reader gets, for a dense key.
    #[inline(always)]
    pub fn get(&self, obj: ObjRef, keyval: i32) -> Fast<AttrRead> {
        self.get_in(self.record(obj), obj, keyval)
    }

    /// Only what a C reader gets, for a dense key.
    #[inline(always)]
    pub fn get_c_view(&self, obj: ObjRef, keyval: i32) -> Fast<usize> {
        match self.get(obj, keyval) {
            Fast::Hit(r) => Fast::Hit(r.c_view),
            Fast::Miss => Fast::Miss,
            Fast::Slow => Fast::Slow,
        }
    }

    /// Only the word (all a Fortran reader needs: both views are cuts of it), for a dense key.
    #[inline(always)]
    pub fn get_word(&self, obj: ObjRef, keyval: i32) -> Fast<i64> {
        match self.get(obj, keyval) {
            Fast::Hit(r) => Fast::Hit(r.value.word),
            Fast::Miss => Fast::Miss,
            Fast::Slow => Fast::Slow,
        }
    }

    /// `*_set_attr` overwriting, without the lock, for a dense key: see
    /// [`Tables::overwrite_in`].
    #[inline(always)]
    pub fn try_overwrite(&self, obj: ObjRef, keyval: i32, value: AttrWord) -> bool {
        self.overwrite_in(self.record(obj), obj, keyval, value)
    }

    /// `*_set_attr` overwriting, without the lock: only when the keyval is held and has no
    /// delete callback (no user code to run), the attribute is set and not dying, and the value
    /// keeps its home (from C over from C, or from Fortran over from Fortran: the cell is
    /// rewritten). The value changes in place and, as a new setting, moves to the end of the
    /// order of setting (unless it is there already). Returns false when the locked path must
    /// decide.
    ///
    /// A held keyval may be one the user freed: overwriting an attribute that an object holds
    /// under it is allowed (the keyval lives on for its attributes, as in MPICH and Open MPI).
    /// This never creates an attribute, which only a live keyval may.
    #[inline(always)]
    fn overwrite_in(
        &self,
        rec: Option<&'static Record>,
        obj: ObjRef,
        keyval: i32,
        value: AttrWord,
    ) -> bool {
        let Some(rec) = rec else {
            return false;
        };
        let version = rec.version.load(Ordering::Acquire);
        if version & 1 != 0 || rec.key.load(Ordering::Relaxed) != obj.key.0 {
            return false;
        }
        let Some((slot, entry)) = self.held_keyval(obj.kind, keyval) else {
            return false;
        };
        if entry & HAS_DELETE != 0 {
            return false;
        }
        let Some((buckets, log2)) = buckets_of(rec.table.load(Ordering::Acquire)) else {
            return false;
        };
        let mask = buckets.len() - 1;
        let mut i = home(slot, log2);
        let b = loop {
            let k = keyval_of(buckets[i].head.load(Ordering::Acquire));
            if k == keyval {
                break &buckets[i];
            }
            if k == 0 {
                return false;
            }
            i = (i + 1) & mask;
            if i == home(slot, log2) {
                return false;
            }
        };
        let head = b.claim();
        let meta = b.meta.load(Ordering::Relaxed);
        let old_fortran = head & PROVENANCE_BITS != 0;
        let fortran = value.provenance != Provenance::CPointer;
        // After the claim: a rebuild that claimed and released this bucket first shows here
        // (our claim synchronises with its release, after its version stores); one that claims
        // it after us copies what we write. A drop of the table (free, unbind) that stored the
        // version before our claim shows here too, or else it sees our claim and waits for us
        // (both sides `SeqCst`: see `Bucket::claim`).
        if rec.version.load(Ordering::SeqCst) != version
            || keyval_of(head) != keyval
            || meta & DYING != 0
            || old_fortran != fortran
        {
            b.release_unchanged(head);
            return false;
        }
        let mut order = meta >> ORDER_SHIFT;
        if order + 1 != rec_next_order(rec) {
            order = rec_take_order(rec);
        }
        let word = if fortran {
            let view = b.word.load(Ordering::Relaxed) as usize;
            cell_ref(view).store(value.word, Ordering::Relaxed);
            cell_view(view & !7, value.provenance) as i64
        } else {
            value.word
        };
        b.word.store(word, Ordering::Relaxed);
        b.meta.store(
            pack(
                value.provenance,
                bucket::callbacks_of_meta(meta),
                order,
                false,
            ),
            Ordering::Relaxed,
        );
        b.release(head, keyval, value.provenance);
        true
    }
}

fn rec_next_order(rec: &Record) -> u64 {
    record::next_order_of(rec)
}

fn rec_take_order(rec: &Record) -> u64 {
    record::take_order_of(rec)
}

/// Probes a table for `keyval` (slot `slot`): a hit, a miss at the first empty bucket, or a
/// race.
#[inline(always)]
fn probe(buckets: &[bucket::Bucket], log2: u32, slot: u32, keyval: i32) -> Fast<AttrRead> {
    let mask = buckets.len() - 1;
    let mut i = home(slot, log2);
    for _ in 0..buckets.len() {
        match buckets[i].read(keyval) {
            Read::Hit {
                c_view,
                value,
                provenance,
            } => {
                return Fast::Hit(AttrRead {
                    value: AttrWord {
                        word: value,
                        provenance,
                    },
                    c_view,
                })
            }
            Read::Empty => return Fast::Miss,
            Read::Raced => return Fast::Slow,
            Read::Other => i = (i + 1) & mask,
        }
    }
    Fast::Miss
}
