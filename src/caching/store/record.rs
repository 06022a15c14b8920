//! The attributes of one object: a small record (bound key, version, counts, order counter) and
//! an open-addressing table of buckets keyed by keyval slot (Fibonacci hashing, linear probing,
//! at most 3/4 full counting deleted buckets, rebuilt under the engine's lock when it would be
//! fuller).
//!
//! Deletion leaves a tombstone (a bucket no reader stops at), so a lock-free reader never sees
//! an entry move; a rebuild (growth, or too many tombstones) makes the record's version odd
//! while it copies, so a reader that raced it goes to the locked path. Every allocation here
//! can fail: the caller gets `Error::NoMemory` and the object is as it was.

use super::bucket::{
    cell_view, pack, provenance_of, Bucket, Cell, Entry, DYING, ORDER_SHIFT, TOMB,
};
use crate::caching::callback::Callbacks;
use crate::caching::convert::{AttrRead, AttrWord, Provenance};
use crate::error::{Error, Result};
use crate::primitives::alloc;
use crate::primitives::arena::{at, slice_at, words, Arena};
use std::sync::atomic::{AtomicU64, Ordering};

/// Fibonacci hashing: 2^64 / the golden ratio.
pub const FIB: u64 = 0x9E37_79B9_7F4A_7C15;
/// The first table: 4 buckets (96 bytes).
pub const MIN_LOG2: u32 = 2;
/// The low bits of a record's table word hold log2 of its capacity (tables are 32-aligned).
pub const TABLE_LOG2_MASK: u64 = 31;
/// The bits of a keyval number that name its slot (and key the tables).
const SLOT_MASK: i32 = 0xffff;

/// One object's record. Every field is a 64-bit atomic (an arena block): a stale reader reads
/// values, never undefined behaviour.
#[repr(C)]
pub struct Record {
    /// Even while the record and its table are stable; odd while a writer rebuilds the table,
    /// binds or unbinds. Lock-free readers read it before and after.
    pub(super) version: AtomicU64,
    /// The key of the object bound here; 0 when none.
    pub(super) key: AtomicU64,
    /// The table's address | log2 of its capacity; 0 when it has none.
    pub(super) table: AtomicU64,
    /// Attributes (low half) and those with a user copy callback (high half).
    counts: AtomicU64,
    /// Attributes with a user delete callback (low half) and those dying (high half).
    counts2: AtomicU64,
    next_order: AtomicU64,
    /// Buckets in use, live or deleted (for the load limit).
    used: AtomicU64,
    /// The directory's link (hash directories) or nothing.
    pub(super) spare: AtomicU64,
}
words!(Record {
    version,
    key,
    table,
    counts,
    counts2,
    next_order,
    used,
    spare,
});

/// Where a keyval slot's probe starts in a table of `2^log2` buckets.
#[inline(always)]
pub fn home(slot: u32, log2: u32) -> usize {
    ((slot as u64).wrapping_mul(FIB) >> (64 - log2)) as usize
}

/// The buckets of a table word.
#[inline(always)]
pub(super) fn buckets_of(table: u64) -> Option<(&'static [Bucket], u32)> {
    if table == 0 {
        return None;
    }
    let log2 = (table & TABLE_LOG2_MASK) as u32;
    Some((
        slice_at::<Bucket>(table & !TABLE_LOG2_MASK, 1 << log2),
        log2,
    ))
}

/// A half of a packed count word.
fn add_half(word: &AtomicU64, high: bool, by: i64) {
    let old = word.load(Ordering::Relaxed);
    let shift = if high { 32 } else { 0 };
    let half = ((old >> shift) as u32 as i64 + by) as u32 as u64;
    word.store(
        old & !(0xffff_ffffu64 << shift) | half << shift,
        Ordering::Relaxed,
    );
}

/// The attributes of one object, as the engine's writers and readers use them.
#[derive(Clone, Copy)]
pub struct ObjAttrs {
    pub(super) rec: &'static Record,
    pub(super) arena: &'static Arena,
}

impl std::fmt::Debug for ObjAttrs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ObjAttrs({:#x}, {} attributes)", self.key(), self.len())
    }
}

impl Record {
    /// Readies a record block for the object of `key` (called under the engine's lock, before
    /// the record is published).
    pub(super) fn init(&self, key: u64) {
        let v = self.version.load(Ordering::Relaxed) | 1;
        self.version.store(v, Ordering::Release);
        self.key.store(key, Ordering::Relaxed);
        self.table.store(0, Ordering::Relaxed);
        self.counts.store(0, Ordering::Relaxed);
        self.counts2.store(0, Ordering::Relaxed);
        self.next_order.store(1, Ordering::Relaxed);
        self.used.store(0, Ordering::Relaxed);
        self.spare.store(0, Ordering::Relaxed);
        self.version.store(v + 1, Ordering::Release);
    }
}

impl ObjAttrs {
    /// The object's key.
    pub fn key(&self) -> u64 {
        self.rec.key.load(Ordering::Relaxed)
    }

    pub fn len(&self) -> usize {
        self.rec.counts.load(Ordering::Relaxed) as u32 as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether some attribute has a user copy callback (a dup must then run them in order).
    pub fn has_copy_callbacks(&self) -> bool {
        self.rec.counts.load(Ordering::Relaxed) >> 32 != 0
    }

    /// Whether emptying the object runs no user code: no delete callback, no deletion under
    /// way.
    pub fn deletes_silently(&self) -> bool {
        self.rec.counts2.load(Ordering::Relaxed) == 0
    }

    fn count(&self, e: &Entry, by: i64) {
        add_half(&self.rec.counts, false, by);
        if e.callbacks.contains(Callbacks::COPY_USER) {
            add_half(&self.rec.counts, true, by);
        }
        if e.callbacks.contains(Callbacks::DELETE_USER) {
            add_half(&self.rec.counts2, false, by);
        }
        if e.dying {
            add_half(&self.rec.counts2, true, by);
        }
    }

    fn buckets(&self) -> Option<(&'static [Bucket], u32)> {
        buckets_of(self.rec.table.load(Ordering::Acquire))
    }

    /// The bucket of the attribute under keyval slot `slot`.
    fn find(&self, slot: u32) -> Option<&'static Bucket> {
        let (buckets, log2) = self.buckets()?;
        let mask = buckets.len() - 1;
        let mut i = home(slot, log2);
        for _ in 0..buckets.len() {
            let b = &buckets[i];
            let k = super::bucket::keyval_of(b.head.load(Ordering::Acquire));
            if k == 0 {
                return None;
            }
            if k != TOMB && (k & SLOT_MASK) as u32 == slot {
                return Some(b);
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// The bucket of the attribute under keyval slot `slot` (test hooks).
    #[cfg(feature = "test-hooks")]
    pub(super) fn bucket_of(&self, slot: u32) -> Option<&'static Bucket> {
        self.find(slot)
    }

    /// The attribute under keyval slot `slot`, if any.
    pub fn entry(&self, slot: u32) -> Option<Entry> {
        self.find(slot)?.entry()
    }

    /// The attribute under `slot` as a reader gets it.
    pub fn read(&self, slot: u32) -> Option<AttrRead> {
        let (e, c_view) = self.find(slot)?.entry_and_view()?;
        Some(AttrRead {
            value: e.value,
            c_view,
        })
    }

    /// What a reader gets of `e`, read from `slot`. Called for attributes whose keyval has a
    /// delete callback, which the lock-free overwrite never touches: the word is `e`'s.
    pub fn read_of(&self, slot: u32, e: &Entry) -> AttrRead {
        AttrRead {
            value: e.value,
            c_view: self
                .find(slot)
                .map_or(e.value.word as usize, |b| b.c_view()),
        }
    }

    /// Whether `slot` holds exactly the instance set at `order`.
    pub fn holds(&self, slot: u32, order: u64) -> bool {
        self.entry(slot).is_some_and(|e| e.order == order)
    }

    /// A new position in the order of setting.
    pub fn next_order(&self) -> u64 {
        self.rec.next_order.fetch_add(1, Ordering::Relaxed)
    }

    /// The next position without taking it.
    pub(super) fn peek_order(&self) -> u64 {
        self.rec.next_order.load(Ordering::Relaxed)
    }

    /// A cell holding `value` for a Fortran-set attribute; its C view.
    fn new_cell(&self, value: AttrWord) -> Result<usize> {
        let cell = self
            .arena
            .alloc::<Cell>(1)
            .ok_or_else(|| Error::no_memory::<Cell>("an attribute's value cell", 1))?;
        cell.get()[0].value.store(value.word, Ordering::Release);
        Ok(cell_view(cell.addr(), value.provenance))
    }

    fn free_cell(&self, c_view: usize) {
        self.arena.free_at::<Cell>(c_view & !7, 1);
    }

    /// Puts an attribute under `slot` as the latest setting, replacing what was there; returns
    /// whether there was none. Out of memory: an error, and nothing changed.
    pub fn insert(
        &self,
        slot: u32,
        keyval: i32,
        value: AttrWord,
        callbacks: Callbacks,
    ) -> Result<bool> {
        let fortran = value.provenance != Provenance::CPointer;
        if let Some(b) = self.find(slot) {
            if let Some(old) = b.entry() {
                let old_fortran = old.value.provenance != Provenance::CPointer;
                let cell = if fortran && !old_fortran {
                    Some(self.new_cell(value)?)
                } else {
                    None
                };
                let order = self.next_order();
                let head = b.claim();
                let old_view = b.word.load(Ordering::Relaxed) as usize;
                let word = match (fortran, old_fortran) {
                    (false, _) => value.word as usize,
                    (true, false) => cell.unwrap_or(0),
                    (true, true) => {
                        super::bucket::cell_ref(old_view).store(value.word, Ordering::Relaxed);
                        cell_view(old_view & !7, value.provenance)
                    }
                };
                b.word.store(word as i64, Ordering::Relaxed);
                b.meta.store(
                    pack(value.provenance, callbacks, order, false),
                    Ordering::Relaxed,
                );
                b.release(head, keyval, value.provenance);
                if old_fortran && !fortran {
                    self.free_cell(old_view);
                }
                self.count(&old, -1);
                self.count(&Self::plain(keyval, value, callbacks), 1);
                return Ok(false);
            }
        }
        // A new attribute: room first, then its cell, then the bucket.
        self.reserve(1)?;
        let word = if fortran {
            self.new_cell(value)?
        } else {
            value.word as usize
        };
        let order = self.next_order();
        self.place(
            slot,
            keyval,
            word,
            pack(value.provenance, callbacks, order, false),
            value.provenance,
        );
        self.count(&Self::plain(keyval, value, callbacks), 1);
        Ok(true)
    }

    fn plain(keyval: i32, value: AttrWord, callbacks: Callbacks) -> Entry {
        Entry {
            keyval,
            value,
            callbacks,
            order: 0,
            dying: false,
        }
    }

    /// Writes a new attribute into the first free bucket of its probe (a table with room).
    fn place(&self, slot: u32, keyval: i32, word: usize, meta: u64, provenance: Provenance) {
        let Some((buckets, log2)) = self.buckets() else {
            return;
        };
        let mask = buckets.len() - 1;
        let mut i = home(slot, log2);
        loop {
            let b = &buckets[i];
            let k = super::bucket::keyval_of(b.head.load(Ordering::Relaxed));
            if k == 0 || k == TOMB {
                let head = b.claim();
                b.word.store(word as i64, Ordering::Relaxed);
                b.meta.store(meta, Ordering::Relaxed);
                b.release(head, keyval, provenance);
                if k == 0 {
                    self.rec
                        .used
                        .store(self.rec.used.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
                }
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// [`ObjAttrs::place`] into the table of an object not yet handed out (a dup's copy).
    fn place_unshared(
        &self,
        slot: u32,
        keyval: i32,
        word: usize,
        meta: u64,
        provenance: Provenance,
    ) {
        let Some((buckets, log2)) = self.buckets() else {
            return;
        };
        let mask = buckets.len() - 1;
        let mut i = home(slot, log2);
        loop {
            let b = &buckets[i];
            let k = super::bucket::keyval_of(b.head.load(Ordering::Relaxed));
            if k == 0 || k == TOMB {
                b.write_unshared(keyval, word as i64, meta, provenance);
                if k == 0 {
                    self.rec
                        .used
                        .store(self.rec.used.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
                }
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes room for `more` new attributes: a table at most 3/4 full (deleted buckets
    /// counted) after they are added, rebuilt bigger or without its tombstones if needed.
    fn reserve(&self, more: usize) -> Result<()> {
        let cap = self.buckets().map_or(0, |(b, _)| b.len());
        let used = self.rec.used.load(Ordering::Relaxed) as usize;
        if (used + more) * 4 <= cap * 3 {
            return Ok(());
        }
        let live = self.len() + more;
        let mut log2 = MIN_LOG2;
        while live * 4 > (3usize << log2) {
            log2 += 1;
        }
        // Tombstones alone do not shrink a table that is still half used.
        if cap != 0 && (1usize << log2) < cap && live * 2 > cap / 2 {
            log2 = cap.trailing_zeros();
        }
        self.rebuild(log2)
    }

    /// Copies the live attributes to a new table of `2^log2` buckets and frees the old one.
    fn rebuild(&self, log2: u32) -> Result<()> {
        let new = self
            .arena
            .alloc::<Bucket>(1 << log2)
            .ok_or_else(|| Error::no_memory::<Bucket>("an attribute table", 1 << log2))?;
        debug_assert_eq!(new.addr() as u64 & TABLE_LOG2_MASK, 0);
        let fresh = new.get();
        for b in fresh {
            b.write_unshared(0, 0, 0, Provenance::CPointer);
        }
        let rec = self.rec;
        let v = rec.version.load(Ordering::Relaxed);
        rec.version.store(v + 1, Ordering::Release);
        let old = self.buckets();
        let mut used = 0;
        if let Some((buckets, _)) = old {
            for b in buckets {
                let head = b.claim();
                let k = super::bucket::keyval_of(head);
                if k != 0 && k != TOMB {
                    let mask = fresh.len() - 1;
                    let mut i = home((k & SLOT_MASK) as u32, log2);
                    while super::bucket::keyval_of(fresh[i].head.load(Ordering::Relaxed)) != 0 {
                        i = (i + 1) & mask;
                    }
                    let meta = b.meta.load(Ordering::Relaxed);
                    fresh[i].write_unshared(
                        k,
                        b.word.load(Ordering::Relaxed),
                        meta,
                        provenance_of(meta),
                    );
                    used += 1;
                }
            }
        }
        rec.table
            .store(new.addr() as u64 | log2 as u64, Ordering::Release);
        rec.used.store(used, Ordering::Relaxed);
        rec.version.store(v + 2, Ordering::Release);
        if let Some((buckets, _)) = old {
            // Released as they were: an overwrite claiming one from here on sees the version
            // change (its claim synchronises with this release) and leaves it.
            for b in buckets {
                b.release_unchanged(0);
            }
            self.arena
                .free_at::<Bucket>(buckets.as_ptr() as usize, buckets.len());
        }
        Ok(())
    }

    /// Empties `slot`; returns what was there.
    pub fn remove(&self, slot: u32) -> Option<Entry> {
        let b = self.find(slot)?;
        let old = b.entry()?;
        let head = b.claim();
        let view = b.word.load(Ordering::Relaxed) as usize;
        b.release(head, TOMB, Provenance::CPointer);
        if old.value.provenance != Provenance::CPointer {
            self.free_cell(view);
        }
        self.count(&old, -1);
        Some(old)
    }

    /// Marks or unmarks the attribute in `slot` as dying.
    pub fn set_dying(&self, slot: u32, dying: bool) {
        let Some(b) = self.find(slot) else { return };
        let head = b.claim();
        let meta = b.meta.load(Ordering::Relaxed);
        if (meta & DYING != 0) != dying {
            b.meta.store(
                if dying { meta | DYING } else { meta & !DYING },
                Ordering::Relaxed,
            );
            add_half(&self.rec.counts2, true, if dying { 1 } else { -1 });
        }
        b.release_unchanged(head);
    }

    /// Shows `f` every attribute, in table order: `(bucket, slot, entry)`.
    fn visit(&self, mut f: impl FnMut(&'static Bucket, u32, Entry)) {
        let Some((buckets, _)) = self.buckets() else {
            return;
        };
        for b in buckets {
            if let Some(e) = b.entry() {
                f(b, (e.keyval & SLOT_MASK) as u32, e);
            }
        }
    }

    /// The attributes visited, `(slot, entry)` for those `keep` accepts; out of memory: an
    /// error.
    fn collect(&self, mut keep: impl FnMut(&Entry) -> bool) -> Result<Vec<(u32, Entry)>> {
        let mut v = Vec::new();
        alloc::try_reserve(&mut v, self.len())?;
        let mut failed = None;
        self.visit(|_, slot, e| {
            if keep(&e) && failed.is_none() {
                failed = alloc::try_push(&mut v, (slot, e)).err();
            }
        });
        match failed {
            Some(err) => Err(err),
            None => Ok(v),
        }
    }

    /// Every attribute in order of setting: `(slot, entry)`. Out of memory: an error.
    pub fn in_setting_order(&self) -> Result<Vec<(u32, Entry)>> {
        let mut v = self.collect(|_| true)?;
        v.sort_unstable_by_key(|(_, e)| e.order);
        Ok(v)
    }

    /// Copies the attributes of `from` whose keyval copies natively (`*_DUP_FN`) into this
    /// object, which must be new and empty, keeping their order of setting; `admit` is asked for
    /// each keyval slot and number first. Out of memory: an error, nothing copied.
    pub fn copy_from(
        &self,
        from: &ObjAttrs,
        mut admit: impl FnMut(u32, i32) -> bool,
    ) -> Result<()> {
        debug_assert!(self.is_empty(), "copy into an object with attributes");
        if let Some(done) = self.copy_in_place(from, &mut admit) {
            return done;
        }
        let copies = from.collect(|e| e.callbacks.contains(Callbacks::COPY_DUP))?;
        if copies.is_empty() {
            return Ok(());
        }
        self.reserve(copies.len())?;
        // Every cell first, so that a failure leaves nothing behind.
        let mut cells = Vec::new();
        alloc::try_reserve(&mut cells, copies.len())?;
        for (_, e) in &copies {
            if e.value.provenance != Provenance::CPointer {
                match self.new_cell(e.value) {
                    Ok(c) => cells.push(c),
                    Err(err) => {
                        for c in cells {
                            self.free_cell(c);
                        }
                        return Err(err);
                    }
                }
            }
        }
        let mut cells = cells.into_iter();
        for (slot, e) in copies {
            let fortran = e.value.provenance != Provenance::CPointer;
            let word = if fortran {
                cells.next().unwrap_or(0)
            } else {
                e.value.word as usize
            };
            if !admit(slot, e.keyval) {
                if fortran {
                    self.free_cell(word);
                }
                continue;
            }
            let meta = pack(e.value.provenance, e.callbacks, e.order, false);
            self.place_unshared(slot, e.keyval, word, meta, e.value.provenance);
            self.count(&Entry { dying: false, ..e }, 1);
        }
        self.rec
            .next_order
            .fetch_max(from.peek_order(), Ordering::Relaxed);
        Ok(())
    }

    /// [`ObjAttrs::copy_from`] when most of `from`'s attributes are copied and this object has
    /// no table yet: a table of the same size, each copy at its source's index (buckets not
    /// copied, and deleted ones, as deleted ones, so that every probe runs as in the source),
    /// in one pass, the counts kept in locals: no probing, no list of entries. `None` when the
    /// general way is the one to take.
    fn copy_in_place(
        &self,
        from: &ObjAttrs,
        admit: &mut impl FnMut(u32, i32) -> bool,
    ) -> Option<Result<()>> {
        let (src, log2) = from.buckets()?;
        if self.buckets().is_some() {
            return None;
        }
        // What would be copied, and how many Fortran-set values (each needs a cell).
        let (mut copies, mut fortran) = (0usize, 0usize);
        for b in src {
            if let Some(e) = b.entry() {
                if e.callbacks.contains(Callbacks::COPY_DUP) {
                    copies += 1;
                    fortran += usize::from(e.value.provenance != Provenance::CPointer);
                }
            }
        }
        // A table mostly of deleted buckets would waste memory: the general way sizes it.
        if copies == 0 || copies * 2 < from.len() || copies * 4 < src.len() {
            return None;
        }
        let new = match self.arena.alloc::<Bucket>(src.len()) {
            Some(new) => new,
            None => {
                return Some(Err(Error::no_memory::<Bucket>(
                    "an attribute table",
                    src.len(),
                )))
            }
        };
        // Every cell first, so that a failure leaves nothing behind.
        let mut cells = Vec::new();
        if fortran > 0 {
            let made = alloc::try_reserve(&mut cells, fortran).and_then(|()| {
                for _ in 0..fortran {
                    let cell = self
                        .arena
                        .alloc::<Cell>(1)
                        .ok_or_else(|| Error::no_memory::<Cell>("an attribute's value cell", 1))?;
                    cells.push(cell.addr());
                }
                Ok(())
            });
            if let Err(err) = made {
                for &c in &cells {
                    self.arena.free_at::<Cell>(c, 1);
                }
                self.arena.free_at::<Bucket>(new.addr(), src.len());
                return Some(Err(err));
            }
        }
        let mut cells = cells.into_iter();
        let (mut n, mut copy_user, mut delete_user, mut used) = (0u64, 0u64, 0u64, 0u64);
        for (b, f) in src.iter().zip(new.get()) {
            let Some((e, _)) = b.entry_and_view() else {
                let k = super::bucket::keyval_of(b.head.load(Ordering::Relaxed));
                f.write_unshared(if k == 0 { 0 } else { TOMB }, 0, 0, Provenance::CPointer);
                used += u64::from(k != 0);
                continue;
            };
            used += 1;
            let slot = (e.keyval & SLOT_MASK) as u32;
            if !e.callbacks.contains(Callbacks::COPY_DUP) || !admit(slot, e.keyval) {
                if e.callbacks.contains(Callbacks::COPY_DUP)
                    && e.value.provenance != Provenance::CPointer
                {
                    if let Some(c) = cells.next() {
                        self.arena.free_at::<Cell>(c, 1);
                    }
                }
                f.write_unshared(TOMB, 0, 0, Provenance::CPointer);
                continue;
            }
            let word = if e.value.provenance == Provenance::CPointer {
                e.value.word as usize
            } else {
                let cell = cells.next().unwrap_or(0);
                if let Some(c) = at::<Cell>(cell as u64) {
                    c.value.store(e.value.word, Ordering::Relaxed);
                }
                cell_view(cell, e.value.provenance)
            };
            let meta = pack(e.value.provenance, e.callbacks, e.order, false);
            f.write_unshared(e.keyval, word as i64, meta, e.value.provenance);
            n += 1;
            copy_user += u64::from(e.callbacks.contains(Callbacks::COPY_USER));
            delete_user += u64::from(e.callbacks.contains(Callbacks::DELETE_USER));
        }
        let rec = self.rec;
        let v = rec.version.load(Ordering::Relaxed);
        rec.version.store(v + 1, Ordering::Release);
        rec.table
            .store(new.addr() as u64 | log2 as u64, Ordering::Release);
        rec.used.store(used, Ordering::Relaxed);
        rec.counts.store(n | copy_user << 32, Ordering::Relaxed);
        rec.counts2.store(delete_user, Ordering::Relaxed);
        rec.version.store(v + 2, Ordering::Release);
        rec.next_order
            .fetch_max(from.peek_order(), Ordering::Relaxed);
        Some(Ok(()))
    }

    /// Empties the object and frees its table, in one pass over the buckets; `removed` is
    /// told each keyval slot emptied.
    pub fn remove_all(&self, removed: impl FnMut(u32)) {
        self.drop_table(removed);
    }

    /// Frees the table and whatever attributes it holds (`removed` is told their slots): the
    /// version is odd meanwhile, so readers go to the lock.
    pub(super) fn drop_table(&self, mut removed: impl FnMut(u32)) {
        let rec = self.rec;
        let Some((buckets, _)) = self.buckets() else {
            return;
        };
        let v = rec.version.load(Ordering::Relaxed);
        // `SeqCst`, before the heads are read: an overwrite that claims a bucket from here on
        // sees the version change and backs off; one that claimed it before shows as held and
        // is waited out (see `Bucket::claim`). Nothing else writes a bucket without the lock.
        rec.version.store(v + 1, Ordering::SeqCst);
        rec.table.store(0, Ordering::Release);
        rec.used.store(0, Ordering::Relaxed);
        rec.counts.store(0, Ordering::Relaxed);
        rec.counts2.store(0, Ordering::Relaxed);
        rec.version.store(v + 2, Ordering::Release);
        // The buckets are left as they are (the table's next user writes every one), so each
        // costs a load, not a compare-and-swap: dropping a table of 256 attributes went from
        // about 1.8 us to a few hundred ns.
        for b in buckets {
            let head = b.settled_head();
            let k = super::bucket::keyval_of(head);
            if k != 0 && k != TOMB {
                if head & super::bucket::PROVENANCE_BITS != 0 {
                    // An overwrite keeps a Fortran value's cell: the word read now is it.
                    self.free_cell(b.word.load(Ordering::Relaxed) as usize);
                }
                removed((k & SLOT_MASK) as u32);
            }
        }
        self.arena
            .free_at::<Bucket>(buckets.as_ptr() as usize, buckets.len());
    }
}

// The record is one cache line; the low bits of a table's address are free for its size.
const _: () = assert!(std::mem::size_of::<Record>() == 64);
const _: () = assert!(std::mem::size_of::<Bucket>() == 24);
// A table of 2^k (k >= MIN_LOG2) buckets is 3 * 2^(k+3) bytes: a class of its own, whose
// blocks start at multiples of 32 in span-aligned spans.
const _: () = assert!((24 << MIN_LOG2) % 32 == 0 && TABLE_LOG2_MASK == 31);
// Orders fit what the meta word keeps of them.
const _: () = assert!(ORDER_SHIFT == 6);

/// The next position in `rec`'s order of setting, not taken.
pub(super) fn next_order_of(rec: &Record) -> u64 {
    rec.next_order.load(Ordering::Relaxed)
}

/// Takes the next position in `rec`'s order of setting.
pub(super) fn take_order_of(rec: &Record) -> u64 {
    rec.next_order.fetch_add(1, Ordering::Relaxed)
}
