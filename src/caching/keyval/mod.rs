//! The keyval registry.
//!
//! A keyval number names its object kind, a generation and a slot ([`number`]). A slot counts
//! one reference for the user's keyval and one per attribute that uses it.
//!
//! Freeing a keyval that attributes use does not end it (MPI 4.1 §7.7.2: "the actual free does
//! not transpire until after all references ... to the key have been freed", by
//! `MPI_COMM_DELETE_ATTR` or `MPI_COMM_FREE`). Until its last attribute goes, the number still
//! names the attributes it has: get and delete with it work (a get on an object without one is
//! flag = false), a set may overwrite an attribute an object holds, dups still run its copy
//! callback (whose result is a new attribute under it) and deletes and frees its delete
//! callback; only a set that would create an attribute on an object without one is refused
//! (`MPI_ERR_KEYVAL`), and so is a second free. The state word says which: `LIVE` (the user
//! holds the number) and `HAS_ATTRS` (held by attributes); [`KeyvalTable::lookup`] wants the
//! first, [`KeyvalTable::lookup_held`] either. When the last attribute goes the keyval dies with
//! it: the number is invalid from then on, and the slot (and the callbacks) can be reused,
//! under a new generation. Whoever ends a keyval (its free, or its last attribute's removal)
//! gets the slot as a [`FreedKeyval`], so that the store's keyval table, which keeps the number
//! while the keyval is held, is cleared before the slot can be handed out again.
//!
//! Creating and freeing keyvals takes no lock: each slot's record is type-stable (never freed)
//! and its state (generation, live flag, whether attributes use it) is one atomic word, which
//! the user's free and the first and last attribute change by compare-and-swap. The attribute
//! count itself changes only under the engine's lock, with plain loads and stores, so copying
//! and deleting attributes in bulk costs no atomic read-modify-write. A creator owns the slot
//! it takes until it publishes the live state. Free slots wait in the freeing thread's own ring
//! for `REUSE_DELAY` others before reuse, so freed numbers stay detectable for long and the hot
//! create/free pair touches nothing shared but the record: a create with no user callbacks is
//! a few plain stores, a free one compare-and-swap whose expected value the number itself gives.

pub mod number;

use crate::caching::callback::{
    callbacks_of, Callbacks, CopyFn, DeleteFn, ExtraState, UserCallbacks,
};
use crate::consts::MPI_KEYVAL_INVALID;
use crate::error::{Error, Limited, Result};
use crate::kinds::ObjectKind;
use crate::primitives::{alloc, asym_fence};
use number::{
    decode, kind_bits, kind_code, kind_of_code, number_of, GEN_MASK, GEN_SHIFT, KIND_SHIFT,
};
pub use number::{decode_kind, is_own, slot_of, SLOTS, SLOT_MASK};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// The first slot handed out: slot 0 stays unused, so that the store's keyval tables can hold
/// there a value that no number equals (see `store::NO_KEYVAL`).
const FIRST_SLOT: u32 = 1;
/// How many keyvals can be live at once (every slot but 0).
pub const LIMIT: usize = SLOTS - FIRST_SLOT as usize;
/// Free slots a thread keeps back before reusing one, so freed numbers stay detectable.
const REUSE_DELAY: usize = 256;
/// A thread's ring of freed slots: `REUSE_DELAY` in quarantine and as many ready for reuse;
/// beyond that the oldest go to the registry's shared list.
const RING: usize = 2 * REUSE_DELAY;

/// The state word: bits 0..9 generation, bit 10 live (the user holds the number), bit 11
/// attributes use the keyval.
const STATE_GEN: u64 = GEN_MASK as u64;
const LIVE: u64 = STATE_GEN + 1;
const HAS_ATTRS: u64 = LIVE << 1;

const CHUNK_BITS: u32 = 12;
const CHUNK: usize = 1 << CHUNK_BITS;
const CHUNKS: usize = (SLOT_MASK as usize + 1) / CHUNK;

/// One registry slot.
/// A cache line each: records of keyvals used by different threads do not share one, and
/// finding a record is one shift.
#[repr(align(64))]
struct Record {
    /// Its own slot (fixed): a thread's ring holds records, so reuse needs no lookup.
    slot: u32,
    state: AtomicU64,
    kind: AtomicU8,
    callbacks: AtomicU8,
    extra_state: ExtraState,
    user: Mutex<Option<Arc<UserCallbacks>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Record {
    fn new(slot: u32) -> Record {
        Record {
            slot,
            state: AtomicU64::new(0),
            kind: AtomicU8::new(0),
            callbacks: AtomicU8::new(0),
            extra_state: ExtraState::default(),
            user: Mutex::new(None),
        }
    }

    fn kind(&self) -> ObjectKind {
        kind_of_code(self.kind.load(Ordering::Relaxed) as u32).unwrap_or(ObjectKind::Comm)
    }

    fn callbacks(&self) -> Callbacks {
        Callbacks::from_bits_truncate(self.callbacks.load(Ordering::Relaxed))
    }
}

/// A keyval slot released (by [`KeyvalTable::try_free`], [`KeyvalTable::free`] or
/// [`KeyvalTable::remove_attr`]), to be recycled once the caller has cleared what still names
/// it (the store's keyval table).
#[must_use = "the slot is lost unless recycled"]
pub struct FreedKeyval {
    table: &'static KeyvalTable,
    record: &'static Record,
}

impl std::fmt::Debug for FreedKeyval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FreedKeyval(slot {})", self.record.slot)
    }
}

impl FreedKeyval {
    /// The slot released.
    pub fn slot(&self) -> u32 {
        self.record.slot
    }

    /// The object kind of the keyval that died.
    pub fn kind(&self) -> ObjectKind {
        self.record.kind()
    }

    /// Drops the keyval's user callbacks and queues the slot for reuse.
    #[inline(always)]
    pub fn recycle(self) {
        self.table.release(self.record);
    }
}

/// A keyval as the engine uses it: its number and its record, which stays while the keyval is
/// live or attributes use it.
#[derive(Clone, Copy)]
pub struct KeyvalRef {
    pub number: i32,
    record: &'static Record,
}

impl std::fmt::Debug for KeyvalRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeyvalRef({})", self.number)
    }
}

impl KeyvalRef {
    pub fn slot(&self) -> u32 {
        self.number as u32 & SLOT_MASK
    }

    /// What its attributes carry of it in the store.
    pub fn callbacks(&self) -> Callbacks {
        self.record.callbacks()
    }

    pub fn extra_state(&self) -> &'static ExtraState {
        &self.record.extra_state
    }

    /// The user callbacks, if it has any.
    pub fn user(&self) -> Option<Arc<UserCallbacks>> {
        lock(&self.record.user).clone()
    }

    /// Whether the user still holds the number (created and not freed): only then may a set
    /// create a new attribute under it.
    pub fn is_live(&self) -> bool {
        let gen = (self.number as u32 >> GEN_SHIFT) as u64 & STATE_GEN;
        self.record.state.load(Ordering::Acquire) & (STATE_GEN | LIVE) == gen | LIVE
    }
}

/// Free slots of one thread, for one registry, oldest first: a slot is reused once
/// `REUSE_DELAY` slots freed after it wait behind it. A create/free loop then cycles through
/// `REUSE_DELAY + 1` slots, whatever was freed before, and stays in cache.
///
/// Rings live in shared memory ([`RINGS`]), so a create that finds no slot anywhere else can
/// take the slots other threads keep (issue 15 item 8: freed keyvals serve every thread).
/// The owner's operations run between [`Ring::enter`] and [`Ring::leave`]: a store of `busy`,
/// a compiler fence and a load of `stolen` (no read-modify-write, so the create/free pair
/// stays a few plain stores and one compare-and-swap); a thief sets `stolen`, runs the heavy
/// side of the asymmetric fence and waits until `busy` is clear, so the two never touch the
/// ring at once (`primitives::asym_fence`).
struct Ring {
    busy: AtomicBool,
    stolen: AtomicBool,
    /// The epoch of the registry whose slots the ring holds ([`NO_EPOCH`]: none).
    epoch: AtomicU64,
    table: Mutex<Option<&'static KeyvalTable>>,
    /// Position of the oldest slot (wrapping; taken modulo `RING`).
    head: AtomicU32,
    len: AtomicU32,
    slots: [AtomicU32; RING],
}

/// No registry has this epoch.
const NO_EPOCH: u64 = u64::MAX;

/// Epochs are unique in the process, so one compare tells a thread's ring belongs to the
/// registry, as it is since its last clear.
static EPOCHS: AtomicU64 = AtomicU64::new(1);

impl Ring {
    fn new() -> Ring {
        Ring {
            busy: AtomicBool::new(false),
            stolen: AtomicBool::new(false),
            epoch: AtomicU64::new(NO_EPOCH),
            table: Mutex::new(None),
            head: AtomicU32::new(0),
            len: AtomicU32::new(0),
            slots: [const { AtomicU32::new(0) }; RING],
        }
    }

    /// The owner starts an operation: false (nothing entered) while a thief holds the ring.
    #[inline(always)]
    fn enter(&self) -> bool {
        self.busy.store(true, Ordering::Relaxed);
        asym_fence::light();
        if self.stolen.load(Ordering::Acquire) {
            self.busy.store(false, Ordering::Release);
            return false;
        }
        true
    }

    #[inline(always)]
    fn leave(&self) {
        self.busy.store(false, Ordering::Release);
    }

    fn at(&self, pos: u32) -> &AtomicU32 {
        &self.slots[pos as usize % RING]
    }

    /// The oldest slot, if more than `REUSE_DELAY` wait (or, with `any`, if any does).
    /// Called by the ring's holder (the owner inside `enter`, or a thief).
    #[inline(always)]
    fn pop(&self, any: bool) -> Option<u32> {
        let len = self.len.load(Ordering::Relaxed);
        if len as usize <= REUSE_DELAY && !(any && len > 0) {
            return None;
        }
        let head = self.head.load(Ordering::Relaxed);
        self.head.store(head.wrapping_add(1), Ordering::Relaxed);
        self.len.store(len - 1, Ordering::Relaxed);
        Some(self.at(head).load(Ordering::Relaxed))
    }

    /// Queues a freed slot if the ring has room (called by its holder).
    #[inline(always)]
    fn push_if_room(&self, slot: u32) -> bool {
        let len = self.len.load(Ordering::Relaxed);
        if len as usize == RING {
            return false;
        }
        let head = self.head.load(Ordering::Relaxed);
        self.at(head.wrapping_add(len))
            .store(slot, Ordering::Relaxed);
        self.len.store(len + 1, Ordering::Relaxed);
        true
    }

    /// Queues a freed slot; returns the oldest when the ring was full (called by its holder).
    fn push(&self, slot: u32) -> Option<u32> {
        let (head, len) = (
            self.head.load(Ordering::Relaxed),
            self.len.load(Ordering::Relaxed),
        );
        if len as usize == RING {
            self.head.store(head.wrapping_add(1), Ordering::Relaxed);
            return Some(self.at(head).swap(slot, Ordering::Relaxed));
        }
        self.at(head.wrapping_add(len))
            .store(slot, Ordering::Relaxed);
        self.len.store(len + 1, Ordering::Relaxed);
        None
    }

    /// Every slot queued, oldest first, leaving the ring empty (called by its holder).
    fn drain(&self) -> Vec<u32> {
        let mut all = Vec::new();
        let _ = all.try_reserve_exact(self.len.load(Ordering::Relaxed) as usize);
        while let Some(slot) = self.pop(true) {
            if all.len() == all.capacity() {
                // No memory to hand them back: they stay (a slot is never lost).
                self.head.store(
                    self.head.load(Ordering::Relaxed).wrapping_sub(1),
                    Ordering::Relaxed,
                );
                self.len
                    .store(self.len.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
                break;
            }
            all.push(slot);
        }
        all
    }

    /// Makes the ring `table`'s, at `epoch` (called by its holder): slots of another registry,
    /// or of an earlier epoch of this one, go back to it or are forgotten.
    fn adopt(&self, table: &'static KeyvalTable, epoch: u64) {
        self.hand_back();
        *lock(&self.table) = Some(table);
        self.epoch.store(epoch, Ordering::Relaxed);
    }

    /// Empties the ring into its registry's shared list (called by its holder); slots of an
    /// epoch the registry has left (a finalize or test reset made every slot free) are
    /// forgotten.
    fn hand_back(&self) {
        let all = self.drain();
        if let Some(t) = lock(&self.table).take() {
            if t.epoch.load(Ordering::Acquire) == self.epoch.load(Ordering::Relaxed) {
                t.orphan(all);
            }
        }
        self.epoch.store(NO_EPOCH, Ordering::Relaxed);
    }
}

/// Rings per chunk of [`RINGS`], and chunks: one ring per running thread that frees keyvals,
/// up to 16,384 (threads beyond share the registry's list, more slowly).
const RING_CHUNK: usize = 16;
const RING_CHUNKS: usize = 1024;

/// Every thread's ring, type-stable (a ring is reused by a later thread, never freed).
struct Rings {
    chunks: [OnceLock<Box<[Ring; RING_CHUNK]>>; RING_CHUNKS],
    /// Rings in use (by a running thread) and free ones; taken before a registry's orphans.
    ids: Mutex<RingIds>,
}

struct RingIds {
    active: Vec<u32>,
    free: Vec<u32>,
    next: u32,
}

static RINGS: Rings = Rings {
    chunks: [const { OnceLock::new() }; RING_CHUNKS],
    ids: Mutex::new(RingIds {
        active: Vec::new(),
        free: Vec::new(),
        next: 0,
    }),
};

impl Rings {
    fn ring(&self, id: u32) -> Option<&'static Ring> {
        let chunk = RINGS.chunks.get(id as usize / RING_CHUNK)?.get()?;
        Some(&chunk[id as usize % RING_CHUNK])
    }

    /// A ring for the calling thread (`None` when out of rings or memory).
    #[cold]
    fn take(&'static self) -> Option<(u32, &'static Ring)> {
        asym_fence::init();
        let mut ids = lock(&self.ids);
        alloc::try_reserve(&mut ids.active, 1).ok()?;
        let id = match ids.free.last() {
            Some(&id) => id,
            None => {
                let id = ids.next;
                let c = self.chunks.get(id as usize / RING_CHUNK)?;
                if c.get().is_none() {
                    let made = alloc::try_box(std::array::from_fn(|_| Ring::new())).ok()?;
                    let _ = c.set(made);
                }
                id
            }
        };
        let ring = self.ring(id)?;
        if ids.free.last() == Some(&id) {
            ids.free.pop();
        } else {
            ids.next += 1;
        }
        ids.active.push(id);
        Some((id, ring))
    }

    /// The calling thread ends: its ring's slots go back to their registry and the ring to
    /// the free ones.
    fn give_back(&self, id: u32) {
        let Some(ring) = self.ring(id) else { return };
        let mut ids = lock(&self.ids);
        // No thief holds it (thieves hold `ids`), and its owner is this thread.
        ring.hand_back();
        ids.active.retain(|&a| a != id);
        if alloc::try_push(&mut ids.free, id).is_err() {
            // Not reused then: a ring lost, never a slot.
        }
    }

    /// Takes from every other thread's ring of `table` at `epoch` the slots out of
    /// quarantine, or (`any`), when none is, every slot; they go to the registry's shared
    /// list. Returns whether any was found.
    #[cold]
    fn steal(&self, table: &'static KeyvalTable, epoch: u64, any: bool) -> bool {
        let ids = lock(&self.ids);
        let rings: Vec<&'static Ring> = ids
            .active
            .iter()
            .filter_map(|&id| self.ring(id))
            .filter(|r| r.epoch.load(Ordering::Acquire) == epoch)
            .collect();
        if rings.is_empty() {
            return false;
        }
        for r in &rings {
            r.stolen.store(true, Ordering::Relaxed);
        }
        asym_fence::heavy();
        let mut found = Vec::new();
        for r in &rings {
            while r.busy.load(Ordering::Acquire) {
                std::hint::spin_loop();
            }
            // The owner is out and sees `stolen` when it comes back: the ring is ours.
            if r.epoch.load(Ordering::Relaxed) == epoch {
                let _ = found.try_reserve(r.len.load(Ordering::Relaxed) as usize);
                while found.len() < found.capacity() {
                    match r.pop(any) {
                        Some(slot) => found.push(slot),
                        None => break,
                    }
                }
            }
        }
        for r in &rings {
            r.stolen.store(false, Ordering::Release);
        }
        drop(ids);
        let any_found = !found.is_empty();
        table.orphan(found);
        any_found
    }
}

/// Hands a thread's ring back when it ends.
struct ExitGuard;

impl Drop for ExitGuard {
    fn drop(&mut self) {
        if let Ok(Some((id, _))) = LOCAL_RING.try_with(|l| l.take()) {
            RINGS.give_back(id);
        }
    }
}

thread_local! {
    /// The calling thread's ring and its id, once it has freed a keyval.
    static LOCAL_RING: Cell<Option<(u32, &'static Ring)>> = const { Cell::new(None) };
    static EXIT_GUARD: ExitGuard = const { ExitGuard };
}

/// The calling thread's ring, if it has one.
#[inline(always)]
fn local_ring() -> Option<&'static Ring> {
    LOCAL_RING
        .try_with(|l| l.get())
        .ok()
        .flatten()
        .map(|(_, r)| r)
}

/// All keyvals created by users.
pub struct KeyvalTable {
    chunks: [OnceLock<Box<Chunk>>; CHUNKS],
    /// Slots never handed out start here.
    fresh: AtomicU32,
    /// Free slots left by threads that exited or moved to another registry.
    orphans: Mutex<Vec<u32>>,
    orphan_count: AtomicUsize,
    /// Unique in the process, drawn from `EPOCHS` at first use and anew by
    /// [`KeyvalTable::clear`], which voids the per-thread rings of before; 0 until first use.
    epoch: AtomicU64,
}

impl Default for KeyvalTable {
    fn default() -> Self {
        Self::new()
    }
}

/// [`CHUNK`] slots: their records, and apart from them the number of attributes using each
/// (changed only under the engine's lock): a dup or free of an object with many attributes
/// counts each one, and 4-byte counters side by side stay in the first-level cache where
/// 64-byte records did not (dup + free with 256 attributes: 0.7 us of 2.8 us went there).
struct Chunk {
    records: Box<[Record]>,
    attrs: Box<[AtomicU32]>,
}

/// The records of chunk `c`, made on the heap (they are too large for a thread's stack). Out
/// of memory: an error.
fn new_chunk(c: usize) -> Result<Box<Chunk>> {
    let mut next = c * CHUNK;
    let records = alloc::try_vec(CHUNK, || {
        next += 1;
        Record::new((next - 1) as u32)
    })?
    .into_boxed_slice();
    let attrs = alloc::try_vec(CHUNK, || AtomicU32::new(0))?.into_boxed_slice();
    alloc::try_box(Chunk { records, attrs })
}

fn held(state: u64) -> bool {
    state & (LIVE | HAS_ATTRS) != 0
}

/// The state of a released slot: next generation, not live, no attributes.
fn released(state: u64) -> u64 {
    (state + 1) & STATE_GEN
}

impl KeyvalTable {
    pub const fn new() -> KeyvalTable {
        KeyvalTable {
            chunks: [const { OnceLock::new() }; CHUNKS],
            fresh: AtomicU32::new(FIRST_SLOT),
            orphans: Mutex::new(Vec::new()),
            orphan_count: AtomicUsize::new(0),
            epoch: AtomicU64::new(0),
        }
    }

    fn record(&self, slot: u32) -> Option<&Record> {
        if slot >= self.fresh.load(Ordering::Acquire) {
            return None;
        }
        self.record_in_use(slot)
    }

    /// The record of a slot known to be handed out (an attribute uses it): no check against
    /// `fresh`.
    #[inline(always)]
    fn record_in_use(&self, slot: u32) -> Option<&Record> {
        let chunk = self.chunks.get(slot as usize >> CHUNK_BITS)?.get()?;
        chunk.records.get(slot as usize % CHUNK)
    }

    /// The attribute count of a slot known to be handed out.
    #[inline(always)]
    fn attrs_in_use(&self, slot: u32) -> Option<&AtomicU32> {
        let chunk = self.chunks.get(slot as usize >> CHUNK_BITS)?.get()?;
        chunk.attrs.get(slot as usize % CHUNK)
    }

    /// Makes the chunk of `slot` if it is not there yet; out of memory: an error.
    fn make_chunk_of(&self, slot: u32) -> Result<()> {
        let c = slot as usize >> CHUNK_BITS;
        if self.chunks[c].get().is_none() {
            let chunk = new_chunk(c)?;
            // Another thread may have made it meanwhile: then this one is dropped.
            let _ = self.chunks[c].set(chunk);
        }
        Ok(())
    }

    /// A free slot: the oldest of this thread's ring once more than `REUSE_DELAY` wait there,
    /// else one given back by another thread, else a slot never used, else any free one.
    fn take_slot(&'static self) -> Result<u32> {
        match self.take_local() {
            Some(record) => Ok(record.slot),
            None => self.take_slot_elsewhere(),
        }
    }

    /// A slot out of this thread's quarantine, if one is ready: its record.
    #[inline(always)]
    fn take_local(&'static self) -> Option<&'static Record> {
        self.pop_local(false)
    }

    /// The oldest record in this thread's ring, if the ring is this registry's and one is out
    /// of quarantine (with `any`: even one still in it).
    #[inline(always)]
    fn pop_local(&'static self, any: bool) -> Option<&'static Record> {
        let epoch = self.epoch.load(Ordering::Acquire);
        let ring = local_ring()?;
        if !ring.enter() {
            return None;
        }
        let slot = if ring.epoch.load(Ordering::Relaxed) == epoch {
            ring.pop(any)
        } else {
            None
        };
        ring.leave();
        self.record_in_use(slot?)
    }

    /// A slot of the shared list, if any.
    fn take_orphan(&self) -> Option<u32> {
        if self.orphan_count.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let mut orphans = lock(&self.orphans);
        let slot = orphans.pop();
        self.orphan_count.store(orphans.len(), Ordering::Relaxed);
        slot
    }

    #[cold]
    #[inline(never)]
    fn take_slot_elsewhere(&'static self) -> Result<u32> {
        if let Some(slot) = self.take_orphan() {
            return Ok(slot);
        }
        // The record exists before `fresh` says the slot does.
        loop {
            let fresh = self.fresh.load(Ordering::Relaxed);
            if fresh > SLOT_MASK {
                break;
            }
            self.make_chunk_of(fresh)?;
            if self
                .fresh
                .compare_exchange(fresh, fresh + 1, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                return Ok(fresh);
            }
        }
        // Every slot was handed out: the slots other threads keep out of quarantine, else
        // the oldest in this thread's quarantine, else any other thread's.
        let epoch = self.epoch.load(Ordering::Acquire);
        if RINGS.steal(self, epoch, false) {
            if let Some(slot) = self.take_orphan() {
                return Ok(slot);
            }
        }
        if let Some(record) = self.pop_local(true) {
            return Ok(record.slot);
        }
        if RINGS.steal(self, epoch, true) {
            if let Some(slot) = self.take_orphan() {
                return Ok(slot);
            }
        }
        Err(Error::Exhausted {
            what: Limited::Keyvals,
            limit: LIMIT,
        })
    }

    /// Puts a released slot in the releasing thread's ring.
    #[inline(always)]
    fn give_back(&'static self, record: &'static Record) {
        let epoch = self.epoch.load(Ordering::Acquire);
        let queued = match local_ring() {
            Some(ring) if ring.enter() => {
                let queued =
                    ring.epoch.load(Ordering::Relaxed) == epoch && ring.push_if_room(record.slot);
                ring.leave();
                queued
            }
            _ => false,
        };
        if !queued {
            self.give_back_slow(record);
        }
    }

    /// [`KeyvalTable::give_back`] when the ring is full (its oldest slot goes to the shared
    /// list), holds another registry's slots, is held by a thief, or the thread has none yet.
    #[cold]
    #[inline(never)]
    fn give_back_slow(&'static self, record: &'static Record) {
        let mut epoch = self.epoch.load(Ordering::Acquire);
        if epoch == 0 {
            let new = EPOCHS.fetch_add(1, Ordering::Relaxed);
            epoch = match self
                .epoch
                .compare_exchange(0, new, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => new,
                Err(now) => now,
            };
        }
        let ring = match local_ring() {
            Some(ring) => Some(ring),
            None => RINGS.take().and_then(|(id, ring)| {
                let set = LOCAL_RING.try_with(|l| l.set(Some((id, ring))));
                // From now on the thread holds slots: give them back when it ends.
                let guarded = EXIT_GUARD.try_with(|_| {}).is_ok();
                if set.is_err() || !guarded {
                    RINGS.give_back(id);
                    return None;
                }
                Some(ring)
            }),
        };
        let overflow = match ring {
            Some(ring) if ring.enter() => {
                if ring.epoch.load(Ordering::Relaxed) != epoch {
                    ring.adopt(self, epoch);
                }
                let oldest = ring.push(record.slot);
                ring.leave();
                oldest
            }
            // No ring, or a thief holds it: the slot goes to the shared list.
            _ => Some(record.slot),
        };
        if let Some(slot) = overflow {
            self.orphan(vec![slot]);
        }
    }

    /// Free slots for any thread to take.
    #[cold]
    #[inline(never)]
    fn orphan(&self, slots: Vec<u32>) {
        if slots.is_empty() {
            return;
        }
        let mut orphans = lock(&self.orphans);
        orphans.extend(slots);
        self.orphan_count.store(orphans.len(), Ordering::Relaxed);
    }

    /// Creates a keyval and returns its number.
    pub fn create(
        &'static self,
        kind: ObjectKind,
        copy: CopyFn,
        delete: DeleteFn,
        extra_state: i64,
    ) -> Result<i32> {
        let callbacks = callbacks_of(&copy, &delete);
        let slot = self.take_slot()?;
        // A slot is handed out only once its record exists.
        let r = self.record_in_use(slot).ok_or(Error::Exhausted {
            what: Limited::Keyvals,
            limit: LIMIT,
        })?;
        Ok(self.publish(r, kind, callbacks, extra_state, |r| {
            if callbacks.has_user_code() {
                *lock(&r.user) = Some(Arc::new(UserCallbacks { copy, delete }));
            }
        }))
    }

    /// The hot create: callbacks all predefined (no user code), a slot from this thread's
    /// quarantine. `None`, with nothing changed, when no slot is ready there.
    #[inline(always)]
    pub fn try_create_native(
        &'static self,
        kind: ObjectKind,
        callbacks: Callbacks,
        extra_state: i64,
    ) -> Option<i32> {
        debug_assert!(!callbacks.has_user_code());
        let record = self.take_local()?;
        Some(self.publish(record, kind, callbacks, extra_state, |_| {}))
    }

    /// Fills the record of a slot just taken (`fill` adds the user callbacks) and publishes
    /// it live; returns the number.
    #[inline(always)]
    fn publish(
        &'static self,
        r: &Record,
        kind: ObjectKind,
        callbacks: Callbacks,
        extra_state: i64,
        fill: impl FnOnce(&Record),
    ) -> i32 {
        r.kind.store(kind_code(kind) as u8, Ordering::Relaxed);
        r.callbacks.store(callbacks.bits(), Ordering::Relaxed);
        r.extra_state.set(extra_state);
        fill(r);
        let gen = r.state.load(Ordering::Relaxed) & STATE_GEN;
        r.state.store(gen | LIVE, Ordering::Release);
        number_of(kind, gen, r.slot)
    }

    /// The keyval a user names, checked: known, not freed, of the expected kind.
    pub fn lookup(&'static self, number: i32, expected: ObjectKind) -> Result<KeyvalRef> {
        self.find(number, expected, LIVE)
    }

    /// The keyval a user names for a get, a delete or an overwrite, checked: known, of the
    /// expected kind, and held: not freed, or freed while attributes still use it (MPI 4.1
    /// §7.7.2), which [`KeyvalRef::is_live`] tells apart. Called under the engine's lock, so
    /// a freed keyval found here keeps its attributes until the lock is released.
    pub fn lookup_held(&'static self, number: i32, expected: ObjectKind) -> Result<KeyvalRef> {
        self.find(number, expected, LIVE | HAS_ATTRS)
    }

    /// [`KeyvalTable::lookup`] and [`KeyvalTable::lookup_held`]: the state must have a bit of
    /// `held_by`.
    fn find(&'static self, number: i32, expected: ObjectKind, held_by: u64) -> Result<KeyvalRef> {
        if number == MPI_KEYVAL_INVALID {
            return Err(Error::KeyvalInvalid);
        }
        let (kind, gen, slot) = decode(number).ok_or(Error::KeyvalUnknown { keyval: number })?;
        let record = self
            .record(slot)
            .ok_or(Error::KeyvalUnknown { keyval: number })?;
        let state = record.state.load(Ordering::Acquire);
        let current = (state & STATE_GEN) as u32;
        if gen != current {
            return Err(if gen < current {
                Error::KeyvalFreed { keyval: number }
            } else {
                Error::KeyvalUnknown { keyval: number }
            });
        }
        if state & held_by == 0 {
            return Err(Error::KeyvalFreed { keyval: number });
        }
        if kind != expected {
            return Err(Error::KeyvalWrongKind {
                keyval: number,
                found: kind,
                expected,
            });
        }
        Ok(KeyvalRef { number, record })
    }

    /// The keyval in `slot`, freed by the user or not, while anything holds it.
    pub fn info_at(&'static self, slot: u32) -> Option<KeyvalRef> {
        let record = self.record(slot)?;
        let state = record.state.load(Ordering::Acquire);
        held(state).then(|| KeyvalRef {
            number: number_of(record.kind(), state & STATE_GEN, slot),
            record,
        })
    }

    /// The user frees the number. With no attribute using it the keyval dies now and the
    /// released slot is returned, for the caller to recycle once nothing names it; otherwise
    /// it lives on for its attributes (`None`) and dies with the last of them
    /// ([`KeyvalTable::remove_attr`]). Either way it cannot be freed again.
    pub fn free(&'static self, number: i32, expected: ObjectKind) -> Result<Option<FreedKeyval>> {
        match self.try_free(number, expected) {
            Some(freed) => Ok(Some(freed)),
            None => self.free_slow(number, expected),
        }
    }

    /// The common free, decided by one compare-and-swap: a live keyval of the expected kind
    /// that no attribute uses (its state is then exactly its generation and `LIVE`, which the
    /// number gives). `None`, with nothing changed, for everything else. The number is
    /// invalid once this returns; the slot waits in the token until
    /// [`FreedKeyval::recycle`], so that the caller's last writes come before any cold call.
    #[inline(always)]
    pub fn try_free(&'static self, number: i32, expected: ObjectKind) -> Option<FreedKeyval> {
        let n = number as u32;
        if n >> KIND_SHIFT != kind_bits(expected) {
            return None;
        }
        let slot = n & SLOT_MASK;
        let record = self.record_in_use(slot)?;
        let live = (n >> GEN_SHIFT) as u64 & STATE_GEN | LIVE;
        record
            .state
            .compare_exchange(live, released(live), Ordering::AcqRel, Ordering::Relaxed)
            .ok()?;
        Some(FreedKeyval {
            table: self,
            record,
        })
    }

    /// A free that [`KeyvalTable::try_free`] left: the precise error, or a keyval that
    /// attributes still use (it lives on for them), or a race with an attribute's first or
    /// last use.
    #[cold]
    #[inline(never)]
    fn free_slow(&'static self, number: i32, expected: ObjectKind) -> Result<Option<FreedKeyval>> {
        let record = self.lookup(number, expected)?.record;
        let n = number as u32;
        let gen = (n >> GEN_SHIFT) as u64 & STATE_GEN;
        let mut state = record.state.load(Ordering::Acquire);
        loop {
            if state & (STATE_GEN | LIVE) != gen | LIVE {
                // The precise error; or, if it changed back meanwhile, another look.
                self.lookup(number, expected)?;
                state = record.state.load(Ordering::Acquire);
                continue;
            }
            let release = state & HAS_ATTRS == 0;
            let next = if release {
                released(state)
            } else {
                state & !LIVE
            };
            match record.state.compare_exchange_weak(
                state,
                next,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => {
                    return Ok(release.then_some(FreedKeyval {
                        table: self,
                        record,
                    }))
                }
                Err(now) => state = now,
            }
        }
    }

    /// An attribute now uses the keyval `number` in `slot` (called under the engine's lock):
    /// fails when the keyval died meanwhile (freed with nothing else holding it). A keyval
    /// freed while attributes use it takes more: a dup's copies of them (MPI 4.1 §7.7.2 keeps
    /// it for its attributes); a set must not create one under it, which its caller checks
    /// ([`KeyvalRef::is_live`]).
    #[inline]
    pub fn add_attr(&self, slot: u32, number: i32) -> Result<()> {
        let freed = || Error::KeyvalFreed { keyval: number };
        let count = self.attrs_in_use(slot).ok_or_else(freed)?;
        let attrs = count.load(Ordering::Relaxed);
        if attrs > 0 {
            // Held by attributes: no free can release it, and its generation is the one of
            // every attribute in its slot, so the count alone changes.
        } else {
            let record = self.record_in_use(slot).ok_or_else(freed)?;
            let gen = (number as u32 >> GEN_SHIFT) as u64 & STATE_GEN;
            let mut state = record.state.load(Ordering::Acquire);
            loop {
                if state & STATE_GEN != gen || state & LIVE == 0 {
                    return Err(freed());
                }
                match record.state.compare_exchange_weak(
                    state,
                    state | HAS_ATTRS,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => break,
                    Err(now) => state = now,
                }
            }
        }
        count.store(attrs + 1, Ordering::Relaxed);
        Ok(())
    }

    /// An attribute that used the keyval in `slot` is gone (called under the engine's lock).
    /// When it was the last one of a freed keyval, the keyval dies here: the released slot is
    /// returned, for the caller to recycle once nothing names it.
    #[inline]
    pub fn remove_attr(&'static self, slot: u32) -> Option<FreedKeyval> {
        let count = self.attrs_in_use(slot)?;
        let attrs = count.load(Ordering::Relaxed);
        debug_assert!(attrs > 0, "attribute count underflow");
        count.store(attrs.saturating_sub(1), Ordering::Relaxed);
        if attrs > 1 {
            return None;
        }
        let record = self.record_in_use(slot)?;
        let mut state = record.state.load(Ordering::Acquire);
        loop {
            let release = state & LIVE == 0;
            let next = if release {
                released(state)
            } else {
                state & !HAS_ATTRS
            };
            match record.state.compare_exchange_weak(
                state,
                next,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => {
                    return release.then_some(FreedKeyval {
                        table: self,
                        record,
                    })
                }
                Err(now) => state = now,
            }
        }
    }

    /// The slot is free: its user callbacks go, and the slot waits in this thread's ring.
    #[inline(always)]
    fn release(&'static self, record: &'static Record) {
        if record.callbacks().has_user_code() {
            return self.release_with_user(record);
        }
        self.give_back(record);
    }

    /// [`KeyvalTable::release`] of a keyval with user callbacks (out of line, so the common
    /// release makes no call that values must survive).
    #[cold]
    #[inline(never)]
    fn release_with_user(&'static self, record: &'static Record) {
        lock(&record.user).take();
        self.give_back(record);
    }

    /// One past the highest slot ever handed out.
    pub fn slots_made(&self) -> usize {
        self.fresh.load(Ordering::Acquire) as usize
    }

    /// Slots still held (by the user or by attributes): used by tests and by finalize checks.
    pub fn held(&self) -> usize {
        (0..self.fresh.load(Ordering::Acquire))
            .filter_map(|slot| self.record(slot))
            .filter(|r| held(r.state.load(Ordering::Acquire)))
            .count()
    }

    /// Forgets every keyval (finalize, test resets): every slot released, every queue void.
    pub fn clear(&self) {
        for slot in 0..self.fresh.load(Ordering::Acquire) {
            if let Some(r) = self.record(slot) {
                let state = r.state.load(Ordering::Acquire);
                if held(state) {
                    lock(&r.user).take();
                    if let Some(count) = self.attrs_in_use(slot) {
                        count.store(0, Ordering::Relaxed);
                    }
                    r.state.store(released(state), Ordering::Release);
                }
            }
        }
        // Every slot is free now; the per-thread queues are void. Slots keep their generations,
        // so numbers from before stay invalid.
        self.epoch
            .store(EPOCHS.fetch_add(1, Ordering::Relaxed), Ordering::Release);
        let all = (FIRST_SLOT..self.fresh.load(Ordering::Acquire)).collect::<Vec<_>>();
        let mut orphans = lock(&self.orphans);
        self.orphan_count.store(all.len(), Ordering::Relaxed);
        *orphans = all;
    }
}

#[cfg(test)]
mod tests;
