//! The keyval registry.
//!
//! A keyval number names its object kind, a generation and a slot:
//!
//! ```text
//!  bits 29..28 kind (1 comm, 2 datatype, 3 window) | 27..18 generation | 17..0 slot
//! ```
//!
//! so it fits a Fortran INTEGER, never collides with the predefined keyvals (small numbers), and a
//! wrong-kind use is seen in the number itself. A slot counts one reference for the user's keyval
//! and one per attribute that uses it. Freeing the keyval makes the number invalid at once; the
//! slot (and the callbacks, which attributes still need) goes when the last attribute does, and
//! only then can the slot be reused, under a new generation.
//!
//! Creating and freeing keyvals takes no lock: each slot's record is type-stable (never freed)
//! and its state (generation, live flag, whether attributes use it) is one atomic word, which
//! the user's free and the first and last attribute change by compare-and-swap. The attribute
//! count itself changes only under the runtime's lock, with plain loads and stores, so copying
//! and deleting attributes in bulk costs no atomic read-modify-write. A creator owns the slot
//! it takes until it publishes the live state. Free slots wait in the freeing thread's own queue
//! for `REUSE_DELAY` others before reuse, so freed numbers stay detectable for long and the hot
//! create/free pair touches nothing shared but the record.

use crate::consts::MPI_KEYVAL_INVALID;
use crate::core::callback::{CopyCallback, CopyFn, DeleteCallback, DeleteFn};
use crate::core::error::{Error, Result};
use crate::core::store::Callbacks;
use crate::core::ObjectKind;
use std::cell::RefCell;
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

const KIND_SHIFT: u32 = 28;
const GEN_SHIFT: u32 = 18;
const GEN_MASK: u32 = 0x3ff;
const SLOT_MASK: u32 = (1 << GEN_SHIFT) - 1;
/// Free slots a thread keeps back before reusing one, so freed numbers stay detectable.
const REUSE_DELAY: usize = 256;

/// The state word: bits 0..9 generation, bit 10 live (the user holds the number), bit 11
/// attributes use the keyval.
const STATE_GEN: u64 = GEN_MASK as u64;
const LIVE: u64 = 1 << 10;
const HAS_ATTRS: u64 = 1 << 11;

const CHUNK_BITS: u32 = 12;
const CHUNK: usize = 1 << CHUNK_BITS;
const CHUNKS: usize = (SLOT_MASK as usize + 1) / CHUNK;

#[cfg(not(feature = "fortran-integer-8"))]
type AtomicFortranInteger = std::sync::atomic::AtomicI32;
#[cfg(feature = "fortran-integer-8")]
type AtomicFortranInteger = std::sync::atomic::AtomicI64;

use crate::core::convert::FortranInteger;

/// A keyval's `extra_state`: captured when the keyval is created, and never written after
/// until the slot is reused. Its address is stable, so Fortran callbacks get a reference to
/// the keyval's own copy.
#[derive(Debug, Default)]
pub struct ExtraState {
    word: AtomicI64,
    /// The low INTEGER of the word, for `MPI_KEYVAL_CREATE` callbacks (the Fortran INTEGER:
    /// 8 bytes with the `fortran-integer-8` feature).
    int: AtomicFortranInteger,
}

impl ExtraState {
    fn set(&self, word: i64) {
        self.word.store(word, Ordering::Relaxed);
        self.int.store(word as FortranInteger, Ordering::Relaxed);
    }
    pub fn word(&self) -> i64 {
        self.word.load(Ordering::Relaxed)
    }
    /// Address of the stored word (handed to ADDRESS_KIND Fortran callbacks).
    pub fn word_addr(&self) -> usize {
        self.word.as_ptr() as usize
    }
    /// Address of the stored INTEGER (handed to `MPI_KEYVAL_CREATE` callbacks).
    pub fn int_addr(&self) -> usize {
        self.int.as_ptr() as usize
    }
}

/// A keyval's user callbacks (kept only when it has at least one).
pub struct UserCallbacks {
    pub copy: CopyFn,
    pub delete: DeleteFn,
}

impl UserCallbacks {
    pub fn copy_callback(&self) -> Option<&dyn CopyCallback> {
        match &self.copy {
            CopyFn::User(cb) => Some(cb.as_ref()),
            _ => None,
        }
    }
    pub fn delete_callback(&self) -> Option<&dyn DeleteCallback> {
        match &self.delete {
            DeleteFn::User(cb) => Some(cb.as_ref()),
            _ => None,
        }
    }
}

/// One registry slot.
#[derive(Default)]
struct Record {
    state: AtomicU64,
    /// Attributes using the keyval (changed only under the runtime's lock).
    attrs: AtomicU32,
    kind: AtomicU8,
    callbacks: AtomicU8,
    extra_state: ExtraState,
    user: Mutex<Option<Arc<UserCallbacks>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Record {
    fn kind(&self) -> ObjectKind {
        kind_of_code(self.kind.load(Ordering::Relaxed) as u32).unwrap_or(ObjectKind::Comm)
    }

    fn callbacks(&self) -> Callbacks {
        Callbacks::from_code(self.callbacks.load(Ordering::Relaxed))
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
}

/// Free slots of one thread, for one registry: the last `REUSE_DELAY` freed wait in
/// quarantine, the older ones are reused last-out first (a create/free loop then cycles
/// through few slots whatever was freed before).
struct LocalFree {
    table: Option<&'static KeyvalTable>,
    epoch: u64,
    /// The quarantine: a ring of the last `REUSE_DELAY` freed, `filled` of them in use, the
    /// oldest at `oldest`.
    ring: [u32; REUSE_DELAY],
    filled: usize,
    oldest: usize,
    ready: Vec<u32>,
}

impl LocalFree {
    /// Puts a freed slot in quarantine; the oldest one, when the ring is full, becomes ready.
    #[inline]
    fn push(&mut self, slot: u32) {
        if self.filled < REUSE_DELAY {
            self.ring[(self.oldest + self.filled) % REUSE_DELAY] = slot;
            self.filled += 1;
        } else {
            let out = std::mem::replace(&mut self.ring[self.oldest], slot);
            self.oldest = (self.oldest + 1) % REUSE_DELAY;
            self.ready.push(out);
        }
    }

    /// The oldest slot still in quarantine (only when nothing else is left).
    fn pop_quarantined(&mut self) -> Option<u32> {
        (self.filled > 0).then(|| {
            let slot = self.ring[self.oldest];
            self.oldest = (self.oldest + 1) % REUSE_DELAY;
            self.filled -= 1;
            slot
        })
    }

    fn drain_all(&mut self) -> Vec<u32> {
        let mut all = std::mem::take(&mut self.ready);
        while let Some(slot) = self.pop_quarantined() {
            all.push(slot);
        }
        all
    }

    /// Makes this queue `table`'s, at its current epoch: slots of another registry go back to
    /// it; slots of an older epoch (before a finalize or test reset) are forgotten.
    fn adopt(&mut self, table: &'static KeyvalTable, epoch: u64) {
        if self.table.is_some_and(|t| std::ptr::eq(t, table)) && self.epoch == epoch {
            return;
        }
        self.hand_back();
        self.table = Some(table);
        self.epoch = epoch;
    }

    fn hand_back(&mut self) {
        if let Some(t) = self.table.take() {
            let all = self.drain_all();
            if t.epoch.load(Ordering::Acquire) == self.epoch && !all.is_empty() {
                let mut orphans = lock(&t.orphans);
                orphans.extend(all);
                t.orphan_count.store(orphans.len(), Ordering::Relaxed);
            }
        }
        self.drain_all();
    }
}

impl Drop for LocalFree {
    fn drop(&mut self) {
        self.hand_back();
    }
}

thread_local! {
    static LOCAL_FREE: RefCell<LocalFree> = const {
        RefCell::new(LocalFree {
            table: None,
            epoch: 0,
            ring: [0; REUSE_DELAY],
            filled: 0,
            oldest: 0,
            ready: Vec::new(),
        })
    };
}

/// All keyvals created by users.
pub struct KeyvalTable {
    chunks: [OnceLock<Box<[Record]>>; CHUNKS],
    /// Slots never handed out start here.
    fresh: AtomicU32,
    /// Free slots left by threads that exited or moved to another registry.
    orphans: Mutex<Vec<u32>>,
    orphan_count: AtomicUsize,
    /// Bumped by [`KeyvalTable::clear`]: older per-thread queues are void.
    epoch: AtomicU64,
}

impl Default for KeyvalTable {
    fn default() -> Self {
        Self::new()
    }
}

/// What a number decodes to.
#[inline(always)]
fn decode(number: i32) -> Option<(ObjectKind, u32, u32)> {
    if number <= 0 {
        return None;
    }
    let n = number as u32;
    let kind = kind_of_code(n >> KIND_SHIFT)?;
    Some((kind, (n >> GEN_SHIFT) & GEN_MASK, n & SLOT_MASK))
}

#[inline(always)]
fn kind_of_code(code: u32) -> Option<ObjectKind> {
    match code {
        1 => Some(ObjectKind::Comm),
        2 => Some(ObjectKind::Datatype),
        3 => Some(ObjectKind::Win),
        _ => None,
    }
}

/// The registry slot a keyval number names (meaningful only for user keyvals).
#[inline(always)]
pub fn slot_of(number: i32) -> usize {
    (number as u32 & SLOT_MASK) as usize
}

/// The object kind a user keyval number carries.
#[inline(always)]
pub fn decode_kind(number: i32) -> Option<ObjectKind> {
    decode(number).map(|(kind, _, _)| kind)
}

fn kind_code(kind: ObjectKind) -> u32 {
    match kind {
        ObjectKind::Comm => 1,
        ObjectKind::Datatype => 2,
        ObjectKind::Win => 3,
    }
}

fn number_of(kind: ObjectKind, gen: u64, slot: u32) -> i32 {
    ((kind_code(kind) << KIND_SHIFT) | ((gen as u32) << GEN_SHIFT) | slot) as i32
}

fn held(state: u64) -> bool {
    state & (LIVE | HAS_ATTRS) != 0
}

/// The state of a released slot: next generation, not live, no attributes.
fn released(state: u64) -> u64 {
    (state + 1) & STATE_GEN
}

fn callbacks_of(copy: &CopyFn, delete: &DeleteFn) -> Callbacks {
    let c = match copy {
        CopyFn::Null => Callbacks::default(),
        CopyFn::Dup => Callbacks::COPY_DUP,
        CopyFn::User(_) => Callbacks::COPY_USER,
    };
    match delete {
        DeleteFn::Null => c,
        DeleteFn::User(_) => c.union(Callbacks::DELETE_USER),
    }
}

impl KeyvalTable {
    pub const fn new() -> KeyvalTable {
        KeyvalTable {
            chunks: [const { OnceLock::new() }; CHUNKS],
            fresh: AtomicU32::new(0),
            orphans: Mutex::new(Vec::new()),
            orphan_count: AtomicUsize::new(0),
            epoch: AtomicU64::new(0),
        }
    }

    fn record(&self, slot: u32) -> Option<&Record> {
        if slot >= self.fresh.load(Ordering::Acquire) {
            return None;
        }
        let chunk = self.chunks.get(slot as usize >> CHUNK_BITS)?.get()?;
        chunk.get(slot as usize & (CHUNK - 1))
    }

    /// The record of a slot known to be handed out (an attribute uses it): no check against
    /// `fresh`.
    #[inline(always)]
    fn record_in_use(&self, slot: u32) -> Option<&Record> {
        let chunk = self.chunks.get(slot as usize >> CHUNK_BITS)?.get()?;
        chunk.get(slot as usize & (CHUNK - 1))
    }

    fn record_or_create(&self, slot: u32) -> &Record {
        let chunk = self.chunks[slot as usize >> CHUNK_BITS]
            .get_or_init(|| (0..CHUNK).map(|_| Record::default()).collect());
        &chunk[slot as usize & (CHUNK - 1)]
    }

    /// A free slot: the oldest of this thread's queue once it holds more than `REUSE_DELAY`,
    /// else one given back by another thread, else a slot never used, else any free one.
    fn take_slot(&'static self) -> Result<u32> {
        let epoch = self.epoch.load(Ordering::Acquire);
        // Out of quarantine; or, when nothing else is left, the oldest in quarantine.
        let local = |any: bool| {
            LOCAL_FREE
                .try_with(|l| {
                    let mut l = l.borrow_mut();
                    l.adopt(self, epoch);
                    match l.ready.pop() {
                        Some(slot) => Some(slot),
                        None if any => l.pop_quarantined(),
                        None => None,
                    }
                })
                .ok()
                .flatten()
        };
        if let Some(slot) = local(false) {
            return Ok(slot);
        }
        if self.orphan_count.load(Ordering::Relaxed) > 0 {
            let mut orphans = lock(&self.orphans);
            let slot = orphans.pop();
            self.orphan_count.store(orphans.len(), Ordering::Relaxed);
            if let Some(slot) = slot {
                return Ok(slot);
            }
        }
        // The record exists before `fresh` says the slot does.
        let fresh = self.fresh.load(Ordering::Relaxed);
        if fresh <= SLOT_MASK {
            self.record_or_create(fresh);
            if self
                .fresh
                .compare_exchange(fresh, fresh + 1, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                return Ok(fresh);
            }
            return self.take_slot();
        }
        local(true).ok_or(Error::Exhausted { kind: "keyval" })
    }

    /// Puts a released slot in the releasing thread's queue.
    fn give_back(&'static self, slot: u32) {
        let epoch = self.epoch.load(Ordering::Acquire);
        let queued = LOCAL_FREE
            .try_with(|l| {
                let mut l = l.borrow_mut();
                l.adopt(self, epoch);
                l.push(slot);
            })
            .is_ok();
        if !queued {
            let mut orphans = lock(&self.orphans);
            orphans.push(slot);
            self.orphan_count.store(orphans.len(), Ordering::Relaxed);
        }
    }

    /// Creates a keyval and returns its number.
    pub fn create(
        &'static self,
        kind: ObjectKind,
        copy: CopyFn,
        delete: DeleteFn,
        extra_state: i64,
    ) -> Result<i32> {
        let slot = self.take_slot()?;
        let r = self.record_or_create(slot);
        let callbacks = callbacks_of(&copy, &delete);
        r.kind.store(kind_code(kind) as u8, Ordering::Relaxed);
        r.callbacks.store(callbacks.code(), Ordering::Relaxed);
        r.extra_state.set(extra_state);
        if callbacks.has_user_code() {
            *lock(&r.user) = Some(Arc::new(UserCallbacks { copy, delete }));
        }
        let gen = r.state.load(Ordering::Relaxed) & STATE_GEN;
        r.state.store(gen | LIVE, Ordering::Release);
        Ok(number_of(kind, gen, slot))
    }

    /// The keyval a user names, checked: known, not freed, of the expected kind.
    pub fn lookup(&'static self, number: i32, expected: ObjectKind) -> Result<KeyvalRef> {
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
        if state & LIVE == 0 {
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

    /// The user frees the number: it is invalid from now on. The common case (a live keyval of
    /// the right kind) costs one compare-and-swap; anything else gets its precise error from
    /// [`KeyvalTable::lookup`].
    pub fn free(&'static self, number: i32, expected: ObjectKind) -> Result<()> {
        let n = number as u32;
        let gen = (n >> GEN_SHIFT) as u64 & STATE_GEN;
        let slot = n & SLOT_MASK;
        let record = match self.record_in_use(slot) {
            Some(r) if n >> KIND_SHIFT == kind_code(expected) && number > 0 => r,
            _ => {
                return Err(self
                    .lookup(number, expected)
                    .err()
                    .unwrap_or(Error::KeyvalFreed { keyval: number }))
            }
        };
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
                    if release {
                        self.release(slot, record);
                    }
                    return Ok(());
                }
                Err(now) => state = now,
            }
        }
    }

    /// An attribute now uses the keyval `number` in `slot` (called under the runtime's lock):
    /// fails when the keyval was freed meanwhile and nothing else holds it.
    #[inline]
    pub fn add_attr(&self, slot: u32, number: i32) -> Result<()> {
        let freed = || Error::KeyvalFreed { keyval: number };
        let record = self.record_in_use(slot).ok_or_else(freed)?;
        let gen = (number as u32 >> GEN_SHIFT) as u64 & STATE_GEN;
        let attrs = record.attrs.load(Ordering::Relaxed);
        if attrs > 0 {
            // Held by attributes: no free can release it, and its generation is the one of
            // every attribute in its slot, so the count alone changes.
            debug_assert_eq!(record.state.load(Ordering::Relaxed) & STATE_GEN, gen);
        } else {
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
        record.attrs.store(attrs + 1, Ordering::Relaxed);
        Ok(())
    }

    /// An attribute that used the keyval in `slot` is gone (called under the runtime's lock).
    #[inline]
    pub fn remove_attr(&'static self, slot: u32) {
        let Some(record) = self.record_in_use(slot) else {
            return;
        };
        let attrs = record.attrs.load(Ordering::Relaxed);
        debug_assert!(attrs > 0, "attribute count underflow");
        record
            .attrs
            .store(attrs.saturating_sub(1), Ordering::Relaxed);
        if attrs > 1 {
            return;
        }
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
                    if release {
                        self.release(slot, record);
                    }
                    return;
                }
                Err(now) => state = now,
            }
        }
    }

    #[cold]
    fn release(&'static self, slot: u32, record: &Record) {
        if record.callbacks().has_user_code() {
            lock(&record.user).take();
        }
        self.give_back(slot);
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
                    r.attrs.store(0, Ordering::Relaxed);
                    r.state.store(released(state), Ordering::Release);
                }
            }
        }
        // Every slot is free now; the per-thread queues are void. Slots keep their generations,
        // so numbers from before stay invalid.
        self.epoch.fetch_add(1, Ordering::AcqRel);
        let all = (0..self.fresh.load(Ordering::Acquire)).collect::<Vec<_>>();
        let mut orphans = lock(&self.orphans);
        self.orphan_count.store(all.len(), Ordering::Relaxed);
        *orphans = all;
    }
}

/// The object kind of a predefined keyval (`MPI_TAG_UB` ... `MPI_WIN_MODEL`), if it is one.
pub fn predefined_kind(number: i32) -> Option<ObjectKind> {
    use crate::consts::*;
    match number {
        MPI_TAG_UB | MPI_IO | MPI_HOST | MPI_WTIME_IS_GLOBAL | MPI_APPNUM | MPI_LASTUSEDCODE
        | MPI_UNIVERSE_SIZE => Some(ObjectKind::Comm),
        MPI_WIN_BASE | MPI_WIN_DISP_UNIT | MPI_WIN_SIZE | MPI_WIN_CREATE_FLAVOR | MPI_WIN_MODEL => {
            Some(ObjectKind::Win)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> &'static KeyvalTable {
        Box::leak(Box::new(KeyvalTable::new()))
    }

    fn create(r: &'static KeyvalTable, kind: ObjectKind) -> i32 {
        r.create(kind, CopyFn::Null, DeleteFn::Null, 0).unwrap()
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

    // MPI 4.1 §7.7.2: a freed keyval is invalid at once, but attributes keep it alive.
    #[test]
    fn freed_keyval_lives_while_attributes_use_it() {
        let r = table();
        let k = create(r, ObjectKind::Comm);
        let info = r.lookup(k, ObjectKind::Comm).unwrap();
        r.add_attr(info.slot(), k).unwrap();
        r.free(k, ObjectKind::Comm).unwrap();
        assert_eq!(
            r.lookup(k, ObjectKind::Comm).unwrap_err(),
            Error::KeyvalFreed { keyval: k }
        );
        assert_eq!(r.held(), 1, "the record stays for the attribute");
        assert_eq!(r.info_at(info.slot()).map(|i| i.number), Some(k));
        assert_eq!(
            r.free(k, ObjectKind::Comm).unwrap_err(),
            Error::KeyvalFreed { keyval: k }
        );
        r.remove_attr(info.slot());
        assert_eq!(r.held(), 0);
        assert!(r.info_at(info.slot()).is_none());
        assert_eq!(
            r.lookup(k, ObjectKind::Comm).unwrap_err(),
            Error::KeyvalFreed { keyval: k }
        );
        assert_eq!(
            r.add_attr(info.slot(), k).unwrap_err(),
            Error::KeyvalFreed { keyval: k },
            "a released keyval takes no new attributes"
        );
    }

    #[test]
    fn numbers_are_not_reused_soon() {
        let r = table();
        let first = create(r, ObjectKind::Comm);
        r.free(first, ObjectKind::Comm).unwrap();
        for _ in 0..REUSE_DELAY * 2 {
            let k = create(r, ObjectKind::Comm);
            assert_ne!(k, first);
            r.free(k, ObjectKind::Comm).unwrap();
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
                            r.free(k, ObjectKind::Comm).unwrap();
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
}
