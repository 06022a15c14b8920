//! Where attributes live: type-stable slots that readers reach without a lock.
//!
//! - A directory per object kind maps a handle's index to that index's [`ObjAttrs`], which
//!   records which handle is bound to it now.
//! - An [`ObjAttrs`] holds slots indexed by keyval slot, the first 16,384 in one flat array
//!   (pages of 64 made later hold the rest): the word, the keyval number, and a packed word
//!   with the provenance, the dying flag and the position in the order of setting. Each slot is
//!   guarded by a sequence counter (a seqlock); writers claim it by making the counter odd with
//!   a compare-and-swap, so the locked writers and the lock-free overwrite never interleave.
//! - A keyval table per object kind records, per registry slot, the number of the live keyval
//!   of that kind using it and whether it has a delete callback.
//!
//! [`layout`] states the lock-free read as numbers, for the hand-written getters.
//!
//! Nothing here is ever freed: a handle index that is reused gets the same [`ObjAttrs`] back, so
//! a reader racing with a free (an erroneous program) reads stale values, never freed memory,
//! and a C reader's pointer into a slot (the internal `MPI_Aint` or `int` of a Fortran-set
//! value) stays valid while the attribute exists. The memory is bounded by the largest number
//! of objects alive at once and the highest keyval slot in use.
//!
//! Everything but [`Store::get`] and [`Store::try_overwrite`] is called under the runtime's
//! lock; those two take no lock and write nothing shared (the overwrite writes only its slot).

use crate::core::convert::{AttrWord, Provenance};
use crate::core::handle::{self, STORE_INDEXES};
use crate::core::keyval::{self, KeyvalTable};
use crate::core::once_ptr::OncePtr;
use crate::core::zeroed::{zeroed_box, zeroed_pages, Zeroable};
use crate::core::{ObjRef, ObjectKind};
use std::sync::atomic::{fence, AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering};

pub mod layout;

/// Slots per page.
const PAGE: usize = 64;
/// Pages held inline by each object: keyval slots below `PAGE * INLINE_PAGES` need no second
/// level.
const INLINE_PAGES: usize = 256;
/// Every keyval slot a number can name.
const KEYVAL_SLOTS: usize = keyval::SLOTS;
const MORE_PAGES: usize = KEYVAL_SLOTS / PAGE - INLINE_PAGES;
/// What the keyval tables hold for slot 0, which the registry never hands out: no number
/// (keyval 0 included) equals it, so no reader passes the liveness check there.
const NO_KEYVAL: i64 = -1;

/// `meta` packs: bits 0..1 provenance, bit 2 dying, bits 3..5 the keyval's [`Callbacks`],
/// bits 6.. the order of setting.
const DYING: u64 = 1 << 2;
const CALLBACKS_SHIFT: u32 = 3;
const CALLBACKS_MASK: u64 = 7 << CALLBACKS_SHIFT;
const ORDER_SHIFT: u32 = 6;
/// In the keyval table: the keyval has a delete callback (overwrites must run it).
const HAS_DELETE: i64 = 1 << 32;

/// `seq` of a slot: bit 0 set while a writer holds it; bits 1..2 the provenance of the value
/// (so a C reader needs no other word to find its view); bits 3.. count the writes.
const HELD: u32 = 1;
const PROVENANCE_SHIFT: u32 = 1;
const SEQ_STEP: u32 = 8;

/// One attribute, or an empty place for one. The layouts here are `repr(C)`: the hand-written
/// readers of [`layout`] follow them.
#[derive(Default)]
#[repr(C)]
struct Slot {
    word: AtomicI64,
    seq: AtomicU32,
    /// The keyval set here; 0 when empty.
    keyval: AtomicI32,
    meta: AtomicU64,
}

#[repr(C)]
struct Page {
    /// Bit `i` set: slot `i` holds an attribute.
    occupied: AtomicU64,
    slots: [Slot; PAGE],
}

/// What the keyval of an attribute does on copy and delete, kept with the attribute so that
/// whole tables are copied and emptied without looking keyvals up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Callbacks(u8);

impl Callbacks {
    /// `*_DUP_FN`: copied natively.
    pub const COPY_DUP: Callbacks = Callbacks(1);
    /// A user copy callback.
    pub const COPY_USER: Callbacks = Callbacks(2);
    /// A user delete callback.
    pub const DELETE_USER: Callbacks = Callbacks(4);

    pub const fn union(self, other: Callbacks) -> Callbacks {
        Callbacks(self.0 | other.0)
    }

    pub const fn contains(self, other: Callbacks) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether a user callback (copy or delete) is among them.
    pub const fn has_user_code(self) -> bool {
        self.0 & (Callbacks::COPY_USER.0 | Callbacks::DELETE_USER.0) != 0
    }

    /// As one byte, for atomic storage.
    pub const fn code(self) -> u8 {
        self.0
    }

    pub const fn from_code(code: u8) -> Callbacks {
        Callbacks(code & 7)
    }

    fn bits(self) -> u64 {
        (self.0 as u64) << CALLBACKS_SHIFT
    }

    fn of_meta(meta: u64) -> Callbacks {
        Callbacks(((meta & CALLBACKS_MASK) >> CALLBACKS_SHIFT) as u8)
    }
}

/// What a consistent read of a slot sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub keyval: i32,
    pub value: AttrWord,
    pub callbacks: Callbacks,
    /// Position in the object's order of setting; also names this instance of the attribute
    /// (every setting gets a new one).
    pub order: u64,
    /// Its delete callback is running; it stays readable until the callback succeeds.
    pub dying: bool,
}

/// An attribute as a reader gets it: the value and what a C reader is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttrRead {
    pub value: AttrWord,
    pub c_view: usize,
}

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

fn provenance_code(p: Provenance) -> u64 {
    match p {
        Provenance::CPointer => 0,
        Provenance::FortranAddress => 1,
        Provenance::FortranInteger => 2,
    }
}

#[inline(always)]
fn provenance_of(meta: u64) -> Provenance {
    match meta & 3 {
        0 => Provenance::CPointer,
        1 => Provenance::FortranAddress,
        _ => Provenance::FortranInteger,
    }
}

fn pack(value: AttrWord, callbacks: Callbacks, order: u64, dying: bool) -> u64 {
    order << ORDER_SHIFT
        | callbacks.bits()
        | if dying { DYING } else { 0 }
        | provenance_code(value.provenance)
}

impl Slot {
    /// Makes the counter odd (waiting for another writer to finish) and returns its old value.
    fn claim(&self) -> u32 {
        loop {
            let seq = self.seq.load(Ordering::Relaxed);
            if seq & HELD == 0
                && self
                    .seq
                    .compare_exchange_weak(seq, seq | 1, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            {
                return seq;
            }
            std::hint::spin_loop();
        }
    }

    /// Ends a write begun by `claim` (which returned `seq`); `meta` is the slot's meta word
    /// now, whose provenance the counter repeats.
    fn release(&self, seq: u32, meta: u64) {
        let next = (seq | (SEQ_STEP - 1)).wrapping_add(1);
        self.seq.store(
            next | (meta as u32 & 3) << PROVENANCE_SHIFT,
            Ordering::Release,
        );
    }

    /// Where a C reader of a Fortran-set value points: the word itself for `MPI_Aint`, its
    /// low-order INTEGER for `int` (the same address on little-endian machines).
    #[inline(always)]
    fn c_view(&self, word: i64, provenance: Provenance) -> usize {
        let aint = self.word.as_ptr() as usize;
        let int_offset = if cfg!(target_endian = "big") {
            8 - std::mem::size_of::<crate::core::convert::FortranInteger>()
        } else {
            0
        };
        AttrWord { word, provenance }.c_view(aint, aint + int_offset)
    }

    /// A consistent read: `take` sees the keyval, word and meta of one moment.
    #[inline(always)]
    fn read<T>(&self, take: impl Fn(i32, i64, u64) -> T) -> T {
        loop {
            if let Some((keyval, word, meta)) = self.try_read() {
                return take(keyval, word, meta);
            }
            std::hint::spin_loop();
        }
    }

    /// [`Slot::try_read`] for the lock-free getters, of the attribute of `keyval`: its word and
    /// provenance (from the counter; the meta word is not read). `Some(None)`: the slot holds
    /// no attribute of `keyval`; that is told before the counter is checked again, since a
    /// keyval read alone is never torn (a writer racing it has not finished setting or has
    /// finished removing: either answer is one the reader could have had). `None`: it raced a
    /// writer of this attribute.
    #[inline(always)]
    fn try_read_word(&self, keyval: i32) -> Option<Option<(i64, Provenance)>> {
        let before = self.seq.load(Ordering::Acquire);
        if self.keyval.load(Ordering::Relaxed) != keyval {
            return Some(None);
        }
        let word = self.word.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        (before & HELD == 0 && self.seq.load(Ordering::Relaxed) == before)
            .then(|| Some((word, provenance_of((before >> PROVENANCE_SHIFT) as u64))))
    }

    /// One try at a consistent read; `None` when it raced a writer.
    #[inline(always)]
    fn try_read(&self) -> Option<(i32, i64, u64)> {
        let before = self.seq.load(Ordering::Acquire);
        let keyval = self.keyval.load(Ordering::Relaxed);
        let word = self.word.load(Ordering::Relaxed);
        let meta = self.meta.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        (before & HELD == 0 && self.seq.load(Ordering::Relaxed) == before)
            .then_some((keyval, word, meta))
    }

    fn entry(&self) -> Option<Entry> {
        self.read(|keyval, word, meta| {
            (keyval != 0).then(|| Entry {
                keyval,
                value: AttrWord {
                    word,
                    provenance: provenance_of(meta),
                },
                callbacks: Callbacks::of_meta(meta),
                order: meta >> ORDER_SHIFT,
                dying: meta & DYING != 0,
            })
        })
    }

    fn write(&self, keyval: i32, value: AttrWord, meta: u64) {
        let seq = self.claim();
        self.keyval.store(keyval, Ordering::Relaxed);
        self.word.store(value.word, Ordering::Relaxed);
        self.meta.store(meta, Ordering::Relaxed);
        self.release(seq, meta);
    }

    /// Writes a slot no other writer can reach (an object not yet handed to the user): the
    /// counter still tells readers, but there is nothing to claim it from.
    fn write_unshared(&self, keyval: i32, value: AttrWord, meta: u64) {
        let seq = self.seq.load(Ordering::Relaxed) & !HELD;
        self.seq.store(seq | HELD, Ordering::Relaxed);
        fence(Ordering::Release);
        self.keyval.store(keyval, Ordering::Relaxed);
        self.word.store(value.word, Ordering::Relaxed);
        self.meta.store(meta, Ordering::Relaxed);
        self.release(seq, meta);
    }

    /// Empties the slot. One store: a reader sees the whole old attribute or none, and word
    /// and meta of an empty slot mean nothing.
    fn clear(&self) {
        self.keyval.store(0, Ordering::Release);
    }
}

impl Page {
    fn new() -> Page {
        Page {
            occupied: AtomicU64::new(0),
            slots: std::array::from_fn(|_| Slot::default()),
        }
    }
}

/// Counts kept per object (changed only under the runtime's lock), so that a dup or a free
/// knows in one load whether user code has to run.
#[derive(Default)]
struct Counts {
    len: AtomicU32,
    copy_user: AtomicU32,
    delete_user: AtomicU32,
    dying: AtomicU32,
}

/// Only holders of the runtime's lock change counts and occupancy bits, so a load and a store
/// do (no read-modify-write).
fn bump(c: &AtomicU32, by: i64) {
    c.store(
        (c.load(Ordering::Relaxed) as i64 + by) as u32,
        Ordering::Relaxed,
    );
}

fn set_bits(word: &AtomicU64, bits: u64, on: bool) {
    let old = word.load(Ordering::Relaxed);
    word.store(if on { old | bits } else { old & !bits }, Ordering::Relaxed);
}

impl Counts {
    /// Adds (`sign` 1) or takes away (`sign` -1) `n` attributes like `e`.
    fn add(&self, e: &Entry, sign: i64, n: i64) {
        let by = sign * n;
        bump(&self.len, by);
        if e.callbacks.contains(Callbacks::COPY_USER) {
            bump(&self.copy_user, by);
        }
        if e.callbacks.contains(Callbacks::DELETE_USER) {
            bump(&self.delete_user, by);
        }
        if e.dying {
            bump(&self.dying, by);
        }
    }
}

/// The attributes of whatever object is bound to one handle index. Small fields first, then
/// the slots: an object whose attributes use low keyval slots takes one page of memory.
#[repr(C)]
pub struct ObjAttrs {
    /// The handle bound to this index now; 0 when none.
    bound: AtomicI32,
    counts: Counts,
    /// The next position in the order of setting.
    next_order: AtomicU64,
    /// One past the highest page ever used: walks over the table stop there.
    pages_made: AtomicU32,
    /// Pages for keyval slots past the inline ones, made when first needed.
    more: OncePtr<[OncePtr<Page>; MORE_PAGES]>,
    /// Word `p`: which slots of `slots[p]` hold an attribute.
    occupied: [AtomicU64; INLINE_PAGES],
    /// The first `INLINE_PAGES * PAGE` keyval slots in one flat array, so that a reader finds
    /// any of them with one multiply-add. It is large (384 KiB), but only the pages holding
    /// attributes take memory: the whole is fresh zeroed pages (see [`ObjAttrs::new`]).
    slots: [[Slot; PAGE]; INLINE_PAGES],
}

// SAFETY: atomics and empty `OncePtr`s all the way down.
unsafe impl Zeroable for ObjAttrs {}

/// One page of an object's slots, wherever it lives: in the object or made later.
#[derive(Clone, Copy)]
struct PageRef<'a> {
    /// Bit `i`: slot `i` holds an attribute.
    occupied: &'a AtomicU64,
    slots: &'a [Slot; PAGE],
}

impl<'a> From<&'a Page> for PageRef<'a> {
    fn from(page: &'a Page) -> PageRef<'a> {
        PageRef {
            occupied: &page.occupied,
            slots: &page.slots,
        }
    }
}

impl ObjAttrs {
    /// New attributes, in pages of their own (kept for the rest of the process, as every
    /// [`ObjAttrs`] is).
    fn new() -> &'static ObjAttrs {
        let a: &'static ObjAttrs = zeroed_pages();
        a.next_order.store(1, Ordering::Relaxed);
        a
    }

    #[inline(always)]
    fn page(&self, p: usize) -> Option<PageRef<'_>> {
        match self.slots.get(p) {
            Some(slots) => Some(PageRef {
                occupied: &self.occupied[p],
                slots,
            }),
            None => Some(self.more.get()?.get(p - INLINE_PAGES)?.get()?.into()),
        }
    }

    fn page_or_create(&self, p: usize) -> PageRef<'_> {
        if p as u32 >= self.pages_made.load(Ordering::Relaxed) {
            self.pages_made.store(p as u32 + 1, Ordering::Relaxed);
        }
        if let Some(page) = self.page(p) {
            return page;
        }
        let more = self.more.get_or_init(|| new_fixed(|_| OncePtr::new()));
        more[p - INLINE_PAGES]
            .get_or_init(|| Box::new(Page::new()))
            .into()
    }

    #[inline(always)]
    fn slot(&self, slot: u32) -> Option<&Slot> {
        let slot = slot as usize;
        match self.slots.get(slot / PAGE) {
            Some(page) => Some(&page[slot % PAGE]),
            None => Some(
                &self
                    .more
                    .get()?
                    .get(slot / PAGE - INLINE_PAGES)?
                    .get()?
                    .slots[slot % PAGE],
            ),
        }
    }

    pub fn len(&self) -> usize {
        self.counts.len.load(Ordering::Relaxed) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether some attribute has a user copy callback (a dup must then run them in order).
    pub fn has_copy_callbacks(&self) -> bool {
        self.counts.copy_user.load(Ordering::Relaxed) != 0
    }

    /// Whether emptying the object runs no user code: no delete callback, no deletion under
    /// way.
    pub fn deletes_silently(&self) -> bool {
        self.counts.delete_user.load(Ordering::Relaxed) == 0
            && self.counts.dying.load(Ordering::Relaxed) == 0
    }

    /// The attribute in `slot`, if any.
    pub fn entry(&self, slot: u32) -> Option<Entry> {
        self.slot(slot)?.entry()
    }

    /// The attribute in `slot` as a reader gets it.
    pub fn read(&self, slot: u32) -> Option<AttrRead> {
        self.entry(slot).map(|e| self.read_of(slot, &e))
    }

    /// What a reader gets of `e`, read from `slot`.
    pub fn read_of(&self, slot: u32, e: &Entry) -> AttrRead {
        AttrRead {
            value: e.value,
            c_view: self.slot(slot).map_or(e.value.word as usize, |s| {
                s.c_view(e.value.word, e.value.provenance)
            }),
        }
    }

    /// Whether `slot` holds exactly the instance set at `order`.
    pub fn holds(&self, slot: u32, order: u64) -> bool {
        self.entry(slot).is_some_and(|e| e.order == order)
    }

    /// A new position in the order of setting.
    pub fn next_order(&self) -> u64 {
        self.next_order.fetch_add(1, Ordering::Relaxed)
    }

    /// Puts an attribute in `slot` as the latest setting, replacing what was there; returns
    /// whether the slot was empty.
    pub fn insert(&self, slot: u32, keyval: i32, value: AttrWord, callbacks: Callbacks) -> bool {
        let page = self.page_or_create(slot as usize / PAGE);
        let i = slot as usize % PAGE;
        let s = &page.slots[i];
        let old = s.entry();
        let order = self.next_order();
        s.write(keyval, value, pack(value, callbacks, order, false));
        if let Some(old) = &old {
            self.counts.add(old, -1, 1);
        }
        let new = Entry {
            keyval,
            value,
            callbacks,
            order,
            dying: false,
        };
        self.counts.add(&new, 1, 1);
        set_bits(page.occupied, 1 << i, true);
        old.is_none()
    }

    /// Empties `slot`; returns what was there.
    pub fn remove(&self, slot: u32) -> Option<Entry> {
        let page = self.page(slot as usize / PAGE)?;
        let i = slot as usize % PAGE;
        let old = page.slots[i].entry()?;
        page.slots[i].clear();
        set_bits(page.occupied, 1 << i, false);
        self.counts.add(&old, -1, 1);
        Some(old)
    }

    /// Marks or unmarks the attribute in `slot` as dying.
    pub fn set_dying(&self, slot: u32, dying: bool) {
        let Some(s) = self.slot(slot) else { return };
        let seq = s.claim();
        let meta = s.meta.load(Ordering::Relaxed);
        let was = meta & DYING != 0;
        if s.keyval.load(Ordering::Relaxed) != 0 && was != dying {
            let meta = if dying { meta | DYING } else { meta & !DYING };
            s.meta.store(meta, Ordering::Relaxed);
            bump(&self.counts.dying, if dying { 1 } else { -1 });
        }
        s.release(seq, s.meta.load(Ordering::Relaxed));
    }

    /// Shows `f` every attribute in slot order.
    fn visit(&self, mut f: impl FnMut(&Slot, u32, Entry)) {
        let mut p = 0;
        while let Some((page, mut bits)) = self.next_page(&mut p) {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let s = &page.slots[i];
                if let Some(e) = s.entry() {
                    f(s, ((p - 1) * PAGE + i) as u32, e);
                }
            }
        }
    }

    /// Every attribute in order of setting: `(slot, entry)`.
    pub fn in_setting_order(&self) -> Vec<(u32, Entry)> {
        let mut v = Vec::with_capacity(self.len());
        self.visit(|_, slot, e| v.push((slot, e)));
        v.sort_unstable_by_key(|(_, e)| e.order);
        v
    }

    /// The next page in use at or after `*p` and its occupied slots, advancing `*p` past it.
    fn next_page(&self, p: &mut usize) -> Option<(PageRef<'_>, u64)> {
        let last = self.pages_made.load(Ordering::Relaxed) as usize;
        while *p < last {
            let page = self.page(*p);
            *p += 1;
            if let Some(page) = page {
                let bits = page.occupied.load(Ordering::Relaxed);
                if bits != 0 {
                    return Some((page, bits));
                }
            }
        }
        None
    }

    /// Copies the attributes of `from` whose keyval copies natively (`*_DUP_FN`) into this
    /// object, which must be new and empty, keeping slots and order of setting; `admit` is
    /// asked for each keyval slot and number first. One pass over the pages in use.
    pub fn copy_from(&self, from: &ObjAttrs, mut admit: impl FnMut(u32, i32) -> bool) {
        debug_assert!(self.is_empty(), "copy into an object with attributes");
        let (mut len, mut delete_user) = (0, 0);
        let mut p = 0;
        while let Some((src, mut bits)) = from.next_page(&mut p) {
            let page_index = p - 1;
            let mut dst: Option<PageRef> = None;
            let mut added = 0u64;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // The raw words: value, provenance, callbacks and order move as they are.
                let (keyval, word, meta) = src.slots[i].read(|k, w, m| (k, w, m));
                let callbacks = Callbacks::of_meta(meta);
                let slot = (page_index * PAGE + i) as u32;
                if keyval == 0 || !callbacks.contains(Callbacks::COPY_DUP) || !admit(slot, keyval) {
                    continue;
                }
                let d = *dst.get_or_insert_with(|| self.page_or_create(page_index));
                let value = AttrWord {
                    word,
                    provenance: provenance_of(meta),
                };
                d.slots[i].write_unshared(keyval, value, meta & !DYING);
                added |= 1 << i;
                len += 1;
                delete_user += callbacks.contains(Callbacks::DELETE_USER) as i64;
            }
            if let Some(d) = dst {
                set_bits(d.occupied, added, true);
            }
        }
        bump(&self.counts.len, len);
        bump(&self.counts.delete_user, delete_user);
        self.next_order
            .fetch_max(from.next_order.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// Empties every slot; `removed` is told each keyval slot emptied.
    pub fn remove_all(&self, mut removed: impl FnMut(u32)) {
        let mut p = 0;
        while let Some((page, mut bits)) = self.next_page(&mut p) {
            let page_index = p - 1;
            page.occupied.store(0, Ordering::Relaxed);
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                page.slots[i].clear();
                removed((page_index * PAGE + i) as u32);
            }
        }
        for c in [
            &self.counts.len,
            &self.counts.copy_user,
            &self.counts.delete_user,
            &self.counts.dying,
        ] {
            c.store(0, Ordering::Relaxed);
        }
    }
}

/// One directory: [`handle::store_index`] → the attributes bound there.
#[repr(C)]
struct Directory {
    /// Every index a handle can name.
    table: [OncePtr<ObjAttrs>; STORE_INDEXES],
    /// One past the highest index ever made: walks stop there.
    made: AtomicU32,
}

/// A table whose length the compiler knows, for the lookups on the read path.
fn new_fixed<T, const N: usize>(make: impl FnMut(usize) -> T) -> Box<[T; N]> {
    match (0..N).map(make).collect::<Box<[T]>>().try_into() {
        Ok(chunk) => chunk,
        Err(_) => unreachable!("the table has N entries"),
    }
}

impl Directory {
    #[inline(always)]
    fn get(&self, index: usize) -> Option<&'static ObjAttrs> {
        self.table[index % STORE_INDEXES].get()
    }

    /// Called under the runtime's lock.
    fn get_or_create(&self, index: usize) -> &'static ObjAttrs {
        if index as u32 >= self.made.load(Ordering::Relaxed) {
            self.made.store(index as u32 + 1, Ordering::Relaxed);
        }
        self.table[index % STORE_INDEXES].get_or_set(ObjAttrs::new)
    }

    fn all(&self) -> impl Iterator<Item = &'static ObjAttrs> + '_ {
        let made = self.made.load(Ordering::Relaxed) as usize;
        self.table[..made].iter().filter_map(|o| o.get())
    }
}

/// The tables the lock-free paths read: which attributes each object has and which keyvals
/// are live. Megabytes that start all zero (untouched pages take no memory): the process's
/// runtime keeps them in a static, so the hot paths reach them with no pointer to follow;
/// other runtimes (tests) get them from a zeroed allocation.
#[repr(C)]
pub struct Tables {
    dirs: [Directory; 3],
    /// Per object kind and keyval slot: the number of the live keyval of that kind using the
    /// slot, `| HAS_DELETE` when it has a delete callback; 0 when none does ([`NO_KEYVAL`] for
    /// slot 0). A reader that finds its number there knows the keyval live and of its kind.
    keyvals: [[AtomicI64; KEYVAL_SLOTS]; 3],
}

// SAFETY: atomics and empty `OncePtr`s all the way down.
unsafe impl Zeroable for Tables {}

impl Tables {
    /// Empty tables, for a `static` (all zero: `.bss`).
    pub const fn new() -> Tables {
        Tables {
            dirs: [const {
                Directory {
                    table: [const { OncePtr::new() }; STORE_INDEXES],
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

const fn dir_index(kind: ObjectKind) -> usize {
    match kind {
        ObjectKind::Comm => 0,
        ObjectKind::Datatype => 1,
        ObjectKind::Win => 2,
    }
}

impl Tables {
    /// The attributes bound to `obj`, binding them if needed (for an object that is known to
    /// be live).
    pub fn bind(&self, obj: ObjRef) -> &'static ObjAttrs {
        let a = self.dirs[dir_index(obj.kind)].get_or_create(handle::store_index(obj.handle));
        if a.bound.load(Ordering::Relaxed) != obj.handle.0 {
            a.bound.store(obj.handle.0, Ordering::Release);
        }
        a
    }

    /// The attributes bound to `obj` now, if any. Whatever the handle's value: only a live
    /// object's own handle is ever bound.
    #[inline(always)]
    pub fn attrs(&self, obj: ObjRef) -> Option<&'static ObjAttrs> {
        let a = self.dirs[dir_index(obj.kind)].get(handle::store_index(obj.handle))?;
        (a.bound.load(Ordering::Acquire) == obj.handle.0).then_some(a)
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
        &self.keyvals[dir_index(kind)][slot % KEYVAL_SLOTS]
    }

    /// The entry of a user keyval number (whose kind it carries).
    fn entry_of(&self, number: i32) -> Option<&AtomicI64> {
        let kind = keyval::decode_kind(number)?;
        Some(self.keyval_entry(kind, keyval::slot_of(number)))
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

    /// A keyval number that was live is dead: its entry is cleared (a plain store does: the
    /// keyval owned the slot, which waits in the freeing thread's own ring).
    #[inline(always)]
    pub fn live_keyval_freed(&self, number: i32) {
        if let Some(k) = self.entry_of(number) {
            k.store(0, Ordering::Release);
        }
    }

    /// A keyval number is dead. Only its own entry is cleared; a plain store does, because a
    /// slot the registry just released waits in the freeing thread's own queue.
    #[inline]
    pub fn keyval_freed(&self, number: i32) {
        if let Some(k) = self.entry_of(number) {
            if k.load(Ordering::Relaxed) as i32 == number {
                k.store(0, Ordering::Release);
            }
        }
    }

    /// The slot of a live user keyval of `kind` and its table entry: only such a keyval's own
    /// number is in the table of its kind.
    #[inline(always)]
    fn live_keyval(&self, kind: ObjectKind, keyval: i32) -> Option<(u32, i64)> {
        let slot = keyval::slot_of(keyval);
        let entry = self.keyval_entry(kind, slot).load(Ordering::Acquire);
        (entry as i32 == keyval).then_some((slot as u32, entry))
    }

    /// The read path: no lock, no shared write. `take` gets the slot, word and provenance.
    ///
    /// The bound handle vouches for the object, the keyval table of the object's kind for the
    /// keyval being live and of that kind (any number, even 0, names some entry; only a live
    /// keyval's own number equals it): an attribute not in its slot is then not set.
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
        let Some((slot, _)) = self.live_keyval(obj.kind, keyval) else {
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

    /// `*_set_attr` overwriting, without the lock: only when the keyval is live and has no
    /// delete callback (no user code to run) and the attribute is set and not dying. The
    /// value changes in place and, as a new setting, moves to the end of the order of setting
    /// (unless it is there already). Returns false when the locked path must decide.
    #[inline(always)]
    pub fn try_overwrite(&self, obj: ObjRef, keyval: i32, value: AttrWord) -> bool {
        let Some(a) = self.attrs(obj) else {
            return false;
        };
        let Some((slot, entry)) = self.live_keyval(obj.kind, keyval) else {
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
        let callbacks = Callbacks::of_meta(meta);
        let meta = pack(value, callbacks, order, false);
        s.meta.store(meta, Ordering::Relaxed);
        s.release(seq, meta);
        true
    }
}
