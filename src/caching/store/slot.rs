//! One attribute's place in the store: the slot, its seqlock, and what its packed word holds.

use crate::caching::callback::Callbacks;
use crate::caching::convert::{AttrWord, Provenance};
use crate::primitives::zeroed::zeroable;
use std::sync::atomic::{fence, AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering};

/// Slots per page.
pub(super) const PAGE: usize = 64;

/// `meta` packs: bits 0..1 provenance, bit 2 dying, bits 3..5 the keyval's [`Callbacks`],
/// bits 6.. the order of setting.
pub(super) const DYING: u64 = 1 << 2;
pub(super) const CALLBACKS_SHIFT: u32 = 3;
pub(super) const CALLBACKS_MASK: u64 = 7 << CALLBACKS_SHIFT;
pub(super) const ORDER_SHIFT: u32 = 6;

/// `seq` of a slot: bit 0 set while a writer holds it; bits 1..2 the provenance of the value
/// (so a C reader needs no other word to find its view); bits 3.. count the writes.
pub(super) const HELD: u32 = 1;
pub(super) const PROVENANCE_SHIFT: u32 = 1;
pub(super) const SEQ_STEP: u32 = 8;

/// One attribute, or an empty place for one. The layouts here are `repr(C)`: the hand-written
/// readers of [`layout`](super::layout) follow them.
#[derive(Default)]
#[repr(C)]
pub(super) struct Slot {
    pub(super) word: AtomicI64,
    pub(super) seq: AtomicU32,
    /// The keyval set here; 0 when empty.
    pub(super) keyval: AtomicI32,
    pub(super) meta: AtomicU64,
}

zeroable!(Slot {
    word,
    seq,
    keyval,
    meta,
});

#[repr(C)]
pub(super) struct Page {
    /// Bit `i` set: slot `i` holds an attribute.
    pub(super) occupied: AtomicU64,
    pub(super) slots: [Slot; PAGE],
}

/// The [`Callbacks`] of an attribute as bits of its meta word.
pub(super) fn callbacks_bits(callbacks: Callbacks) -> u64 {
    (callbacks.bits() as u64) << CALLBACKS_SHIFT
}

/// The [`Callbacks`] a meta word holds.
pub(super) fn callbacks_of_meta(meta: u64) -> Callbacks {
    Callbacks::from_bits_truncate(((meta & CALLBACKS_MASK) >> CALLBACKS_SHIFT) as u8)
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

pub(super) fn provenance_code(p: Provenance) -> u64 {
    match p {
        Provenance::CPointer => 0,
        Provenance::FortranAddress => 1,
        Provenance::FortranInteger => 2,
    }
}

#[inline(always)]
pub(super) fn provenance_of(meta: u64) -> Provenance {
    match meta & 3 {
        0 => Provenance::CPointer,
        1 => Provenance::FortranAddress,
        _ => Provenance::FortranInteger,
    }
}

pub(super) fn pack(value: AttrWord, callbacks: Callbacks, order: u64, dying: bool) -> u64 {
    order << ORDER_SHIFT
        | callbacks_bits(callbacks)
        | if dying { DYING } else { 0 }
        | provenance_code(value.provenance)
}

impl Slot {
    /// Makes the counter odd (waiting for another writer to finish) and returns its old value.
    pub(super) fn claim(&self) -> u32 {
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
    pub(super) fn release(&self, seq: u32, meta: u64) {
        let next = (seq | (SEQ_STEP - 1)).wrapping_add(1);
        self.seq.store(
            next | (meta as u32 & 3) << PROVENANCE_SHIFT,
            Ordering::Release,
        );
    }

    /// Where a C reader of a Fortran-set value points: the word itself for `MPI_Aint`, its
    /// low-order INTEGER for `int` (the same address on little-endian machines).
    #[inline(always)]
    pub(super) fn c_view(&self, word: i64, provenance: Provenance) -> usize {
        let aint = self.word.as_ptr() as usize;
        let int_offset = if cfg!(target_endian = "big") {
            8 - std::mem::size_of::<crate::caching::convert::FortranInteger>()
        } else {
            0
        };
        AttrWord { word, provenance }.c_view(aint, aint + int_offset)
    }

    /// A consistent read: `take` sees the keyval, word and meta of one moment.
    #[inline(always)]
    pub(super) fn read<T>(&self, take: impl Fn(i32, i64, u64) -> T) -> T {
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
    pub(super) fn try_read_word(&self, keyval: i32) -> Option<Option<(i64, Provenance)>> {
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
    pub(super) fn try_read(&self) -> Option<(i32, i64, u64)> {
        let before = self.seq.load(Ordering::Acquire);
        let keyval = self.keyval.load(Ordering::Relaxed);
        let word = self.word.load(Ordering::Relaxed);
        let meta = self.meta.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        (before & HELD == 0 && self.seq.load(Ordering::Relaxed) == before)
            .then_some((keyval, word, meta))
    }

    pub(super) fn entry(&self) -> Option<Entry> {
        self.read(|keyval, word, meta| {
            (keyval != 0).then(|| Entry {
                keyval,
                value: AttrWord {
                    word,
                    provenance: provenance_of(meta),
                },
                callbacks: callbacks_of_meta(meta),
                order: meta >> ORDER_SHIFT,
                dying: meta & DYING != 0,
            })
        })
    }

    pub(super) fn write(&self, keyval: i32, value: AttrWord, meta: u64) {
        let seq = self.claim();
        self.keyval.store(keyval, Ordering::Relaxed);
        self.word.store(value.word, Ordering::Relaxed);
        self.meta.store(meta, Ordering::Relaxed);
        self.release(seq, meta);
    }

    /// Writes a slot no other writer can reach (an object not yet handed to the user): the
    /// counter still tells readers, but there is nothing to claim it from.
    pub(super) fn write_unshared(&self, keyval: i32, value: AttrWord, meta: u64) {
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
    pub(super) fn clear(&self) {
        self.keyval.store(0, Ordering::Release);
    }
}

impl Page {
    pub(super) fn new() -> Page {
        Page {
            occupied: AtomicU64::new(0),
            slots: std::array::from_fn(|_| Slot::default()),
        }
    }
}
