//! The directory for keys that are not dense (a world over another MPI: MPICH's `int` handles,
//! Open MPI's and the MPI 5.0 ABI's pointers): a lock-free hash map from key to record.
//!
//! Open addressing (Fibonacci hashing of the key, linear probing, at most 3/4 full counting
//! deleted entries), entries of two words: the key (0 empty, [`TOMB`] deleted) and the record's
//! address. Writers hold the engine's lock; a rebuild publishes a new array and hands the old one
//! back to the arena, where it stays an array of entries: a reader that still probes it finds a
//! stale record or none, and the record's own bound key and version tell it.

use super::record::{Record, FIB, TABLE_LOG2_MASK};
use crate::primitives::arena::{at, slice_at, words, Arena};
use std::sync::atomic::{AtomicU64, Ordering};

/// A deleted entry's key: probes go on past it (no handle is all ones).
const TOMB: u64 = u64::MAX;
const MIN_LOG2: u32 = 3;

#[repr(C)]
struct HashEntry {
    key: AtomicU64,
    rec: AtomicU64,
}
words!(HashEntry { key, rec });

/// One kind's hash directory.
pub(super) struct HashDir {
    /// The entries' address | log2 of their number; 0: none yet.
    table: AtomicU64,
    /// Entries in use, live or deleted (writers only).
    used: AtomicU64,
    /// Live entries (writers only).
    live: AtomicU64,
}

#[inline(always)]
fn home(key: u64, log2: u32) -> usize {
    (key.wrapping_mul(FIB) >> (64 - log2)) as usize
}

#[inline(always)]
fn entries(table: u64) -> Option<(&'static [HashEntry], u32)> {
    if table == 0 {
        return None;
    }
    let log2 = (table & TABLE_LOG2_MASK) as u32;
    Some((
        slice_at::<HashEntry>(table & !TABLE_LOG2_MASK, 1 << log2),
        log2,
    ))
}

impl HashDir {
    pub(super) const fn new() -> HashDir {
        HashDir {
            table: AtomicU64::new(0),
            used: AtomicU64::new(0),
            live: AtomicU64::new(0),
        }
    }

    /// The record last bound to `key` (lock-free; the caller checks its key).
    #[inline(always)]
    pub(super) fn get(&self, key: u64) -> Option<&'static Record> {
        let (entries, log2) = entries(self.table.load(Ordering::Acquire))?;
        let mask = entries.len() - 1;
        let mut i = home(key, log2);
        for _ in 0..entries.len() {
            let k = entries[i].key.load(Ordering::Acquire);
            if k == key {
                return at::<Record>(entries[i].rec.load(Ordering::Acquire));
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Room for one more entry; `None` when memory runs out (nothing changed).
    pub(super) fn reserve(&self, arena: &Arena) -> Option<()> {
        let cap = entries(self.table.load(Ordering::Relaxed)).map_or(0, |(e, _)| e.len());
        let used = self.used.load(Ordering::Relaxed) as usize;
        if (used + 1) * 4 <= cap * 3 {
            return Some(());
        }
        self.rebuild(arena, self.live.load(Ordering::Relaxed) as usize + 1)
    }

    /// Moves the live entries to a new array sized for `live` (at most half full).
    fn rebuild(&self, arena: &Arena, live: usize) -> Option<()> {
        let mut log2 = MIN_LOG2;
        while live * 2 > (1usize << log2) {
            log2 += 1;
        }
        let new = arena.alloc::<HashEntry>(1 << log2)?;
        let fresh = new.get();
        for e in fresh {
            e.rec.store(0, Ordering::Relaxed);
            e.key.store(0, Ordering::Relaxed);
        }
        let old = entries(self.table.load(Ordering::Relaxed));
        let mut n = 0;
        if let Some((old, _)) = old {
            for e in old {
                let k = e.key.load(Ordering::Relaxed);
                if k != 0 && k != TOMB {
                    place(fresh, log2, k, e.rec.load(Ordering::Relaxed));
                    n += 1;
                }
            }
        }
        self.table
            .store(new.addr() as u64 | log2 as u64, Ordering::Release);
        self.used.store(n, Ordering::Relaxed);
        self.live.store(n, Ordering::Relaxed);
        if let Some((old, _)) = old {
            arena.free_at::<HashEntry>(old.as_ptr() as usize, old.len());
        }
        Some(())
    }

    /// Binds `key` to `rec` (after [`HashDir::reserve`]).
    pub(super) fn insert(&self, key: u64, rec: &'static Record) {
        let Some((entries, log2)) = entries(self.table.load(Ordering::Relaxed)) else {
            return;
        };
        if place(entries, log2, key, rec as *const Record as u64) {
            self.used
                .store(self.used.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        }
        self.live
            .store(self.live.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// Unbinds `key`; a directory left mostly empty shrinks (when the memory is there).
    pub(super) fn remove(&self, arena: &Arena, key: u64) {
        let Some((entries, log2)) = entries(self.table.load(Ordering::Relaxed)) else {
            return;
        };
        let mask = entries.len() - 1;
        let mut i = home(key, log2);
        for _ in 0..entries.len() {
            let k = entries[i].key.load(Ordering::Relaxed);
            if k == key {
                entries[i].key.store(TOMB, Ordering::Release);
                entries[i].rec.store(0, Ordering::Release);
                let live = self.live.load(Ordering::Relaxed) - 1;
                self.live.store(live, Ordering::Relaxed);
                if entries.len() > 1 << MIN_LOG2 && (live as usize) * 8 < entries.len() {
                    let _ = self.rebuild(arena, live as usize);
                }
                return;
            }
            if k == 0 {
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Shows `f` every bound record, in table order.
    pub(super) fn each(&self, mut f: impl FnMut(&'static Record)) {
        let Some((entries, _)) = entries(self.table.load(Ordering::Acquire)) else {
            return;
        };
        for e in entries {
            let k = e.key.load(Ordering::Acquire);
            if k != 0 && k != TOMB {
                if let Some(rec) = at::<Record>(e.rec.load(Ordering::Acquire)) {
                    f(rec);
                }
            }
        }
    }

    /// Drops every entry and gives the array back (no reader running).
    pub(super) fn clear(&self, arena: &Arena) {
        let table = self.table.swap(0, Ordering::AcqRel);
        if let Some((entries, _)) = entries(table) {
            arena.free_at::<HashEntry>(entries.as_ptr() as usize, entries.len());
        }
        self.used.store(0, Ordering::Relaxed);
        self.live.store(0, Ordering::Relaxed);
    }
}

/// Writes `key` → `rec` in the first empty or deleted entry of its probe; returns whether it
/// took an empty one.
fn place(entries: &[HashEntry], log2: u32, key: u64, rec: u64) -> bool {
    let mask = entries.len() - 1;
    let mut i = home(key, log2);
    loop {
        let k = entries[i].key.load(Ordering::Relaxed);
        if k == 0 || k == TOMB {
            // The record first: a reader that finds the key finds it.
            entries[i].rec.store(rec, Ordering::Release);
            entries[i].key.store(key, Ordering::Release);
            return k == 0;
        }
        i = (i + 1) & mask;
    }
}
