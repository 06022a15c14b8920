//! One attribute's place in an object's table: the bucket, its seqlock, and what its words hold.
//!
//! ```text
//!  head: keyval (bits 63..32; 0 empty, TOMB deleted) | count (31..3) | provenance (2..1) | held (0)
//!  word: the C view: the pointer set from C, or the address of the Fortran-set value's cell
//!  meta: order of setting (63..6) | callbacks (5..3) | dying (2) | provenance (1..0)
//! ```
//!
//! A Fortran-set value lives in a cell of its own (one arena block), so the `MPI_Aint *` or
//! `int *` a C reader gets stays put while the attribute lives, however the table is rebuilt.
//! Writers claim a bucket by setting `held` with a compare-and-swap (the locked writers, the
//! lock-free overwrite and a rebuild never interleave); readers read the head, the word (and the
//! cell), and the head again.

use crate::caching::callback::Callbacks;
use crate::caching::convert::{AttrWord, Provenance};
use crate::primitives::arena::{at, words};
use std::sync::atomic::{fence, AtomicI64, AtomicU64, Ordering};

pub(super) const DYING: u64 = 1 << 2;
pub(super) const CALLBACKS_SHIFT: u32 = 3;
pub(super) const CALLBACKS_MASK: u64 = 7 << CALLBACKS_SHIFT;
pub(super) const ORDER_SHIFT: u32 = 6;

pub(super) const HELD: u64 = 1;
pub(super) const PROVENANCE_SHIFT: u32 = 1;
pub(super) const PROVENANCE_BITS: u64 = 3 << PROVENANCE_SHIFT;
const SEQ_STEP: u64 = 8;
pub(super) const KEYVAL_SHIFT: u32 = 32;
/// The keyval of a bucket whose attribute was deleted: probes go on past it. No keyval number
/// is negative.
pub(super) const TOMB: i32 = -1;

#[repr(C)]
pub struct Bucket {
    pub(super) head: AtomicU64,
    pub(super) word: AtomicI64,
    pub(super) meta: AtomicU64,
}
words!(Bucket { head, word, meta });

/// A Fortran-set value, where a C reader's pointer points.
#[repr(C)]
pub struct Cell {
    pub(super) value: AtomicI64,
}
words!(Cell { value });

#[inline(always)]
pub(super) const fn keyval_of(head: u64) -> i32 {
    (head >> KEYVAL_SHIFT) as i32
}

#[inline(always)]
pub(super) fn provenance_of(code: u64) -> Provenance {
    match code & 3 {
        0 => Provenance::CPointer,
        1 => Provenance::FortranAddress,
        _ => Provenance::FortranInteger,
    }
}

pub(super) fn provenance_code(p: Provenance) -> u64 {
    match p {
        Provenance::CPointer => 0,
        Provenance::FortranAddress => 1,
        Provenance::FortranInteger => 2,
    }
}

pub(super) fn callbacks_of_meta(meta: u64) -> Callbacks {
    Callbacks::from_bits_truncate(((meta & CALLBACKS_MASK) >> CALLBACKS_SHIFT) as u8)
}

pub(super) fn pack(provenance: Provenance, callbacks: Callbacks, order: u64, dying: bool) -> u64 {
    order << ORDER_SHIFT
        | (callbacks.bits() as u64) << CALLBACKS_SHIFT
        | if dying { DYING } else { 0 }
        | provenance_code(provenance)
}

/// What a consistent read of a bucket sees.
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

/// What a lock-free probe of one bucket found.
pub(super) enum Read {
    /// The attribute: its C view (the word) and value.
    Hit {
        c_view: usize,
        value: i64,
        provenance: Provenance,
    },
    /// Another keyval's, or a deleted one's: probe on.
    Other,
    /// Never used: the attribute is not in the table.
    Empty,
    /// A writer holds it.
    Raced,
}

impl Bucket {
    /// Claims the bucket (waiting for another writer to finish); returns the head it had.
    ///
    /// Sequentially consistent: the lock-free overwrite claims and then reads its record's
    /// version (also `SeqCst`), while dropping a table stores the version (`SeqCst`) and then
    /// reads the heads ([`Bucket::settled_head`]): of two such pairs one sees the other, so
    /// either the overwrite backs off or the drop waits for it. On x86-64 this is the same
    /// `lock cmpxchg` as an acquiring one.
    pub(super) fn claim(&self) -> u64 {
        loop {
            let head = self.head.load(Ordering::Relaxed);
            if head & HELD == 0
                && self
                    .head
                    .compare_exchange_weak(head, head | HELD, Ordering::SeqCst, Ordering::Relaxed)
                    .is_ok()
            {
                return head;
            }
            std::hint::spin_loop();
        }
    }

    /// The head once no writer holds the bucket (a lock-free overwrite that claimed it before
    /// its table was dropped is waited out; see [`Bucket::claim`]); claims nothing.
    pub(super) fn settled_head(&self) -> u64 {
        loop {
            let head = self.head.load(Ordering::SeqCst);
            if head & HELD == 0 {
                return head;
            }
            std::hint::spin_loop();
        }
    }

    /// Ends a write begun by `claim` (which returned `old`): the bucket now holds `keyval` with
    /// a value of `provenance`.
    pub(super) fn release(&self, old: u64, keyval: i32, provenance: Provenance) {
        let count = ((old as u32 as u64) | (SEQ_STEP - 1)).wrapping_add(1) & 0xffff_fff8;
        self.head.store(
            (keyval as u32 as u64) << KEYVAL_SHIFT
                | count
                | provenance_code(provenance) << PROVENANCE_SHIFT,
            Ordering::Release,
        );
    }

    /// Ends a claim without a change: clears the held bit only, so a claim that turns out stale
    /// (a table no longer its record's, being filled by [`Bucket::write_unshared`]) leaves
    /// what was written meanwhile as it is.
    pub(super) fn release_unchanged(&self, _old: u64) {
        self.head.fetch_and(!HELD, Ordering::Release);
    }

    /// Writes a bucket of a table no current writer can reach (new, not yet its record's, or
    /// the table of an object not yet handed out): plain stores, the head last with a new
    /// count. A stale lock-free overwrite that claims it meanwhile only clears its held bit.
    pub(super) fn write_unshared(&self, keyval: i32, word: i64, meta: u64, provenance: Provenance) {
        let old = self.head.load(Ordering::Relaxed);
        self.word.store(word, Ordering::Relaxed);
        self.meta.store(meta, Ordering::Relaxed);
        self.release(old & !HELD, keyval, provenance);
    }

    /// The lock-free read of the attribute of `keyval` here, if this bucket holds it.
    #[inline(always)]
    pub(super) fn read(&self, keyval: i32) -> Read {
        let head = self.head.load(Ordering::Acquire);
        let k = keyval_of(head);
        if k != keyval {
            return if k == 0 { Read::Empty } else { Read::Other };
        }
        let word = self.word.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        if head & HELD != 0 || self.head.load(Ordering::Relaxed) != head {
            return Read::Raced;
        }
        let provenance = provenance_of((head & PROVENANCE_BITS) >> PROVENANCE_SHIFT);
        if provenance == Provenance::CPointer {
            return Read::Hit {
                c_view: word as usize,
                value: word,
                provenance,
            };
        }
        // Checked above: the word is a cell's address (validated before it is followed).
        let value = cell_value(word);
        fence(Ordering::Acquire);
        if self.head.load(Ordering::Relaxed) != head {
            return Read::Raced;
        }
        Read::Hit {
            c_view: word as usize,
            value,
            provenance,
        }
    }

    /// The attribute here, read by a writer (under the engine's lock, where only the lock-free
    /// overwrite may race: it is waited out).
    pub(super) fn entry(&self) -> Option<Entry> {
        self.entry_and_view().map(|(e, _)| e)
    }

    /// The attribute here and its C view (the word), both from one consistent read: a C view
    /// read apart from the value could belong to another setting (the lock-free overwrite
    /// takes no lock), a C reader then getting one value's pointer with another's provenance.
    pub(super) fn entry_and_view(&self) -> Option<(Entry, usize)> {
        loop {
            let head = self.head.load(Ordering::Acquire);
            let keyval = keyval_of(head);
            if keyval == 0 || keyval == TOMB {
                return None;
            }
            let word = self.word.load(Ordering::Relaxed);
            let meta = self.meta.load(Ordering::Relaxed);
            fence(Ordering::Acquire);
            if head & HELD != 0 || self.head.load(Ordering::Relaxed) != head {
                std::hint::spin_loop();
                continue;
            }
            let provenance = provenance_of(meta);
            let value = match provenance {
                Provenance::CPointer => word,
                // The cell of the word just validated, and the head once more: the cell may
                // have been freed and reused since.
                _ => {
                    let value = cell_value(word);
                    fence(Ordering::Acquire);
                    if self.head.load(Ordering::Relaxed) != head {
                        continue;
                    }
                    value
                }
            };
            let entry = Entry {
                keyval,
                value: AttrWord {
                    word: value,
                    provenance,
                },
                callbacks: callbacks_of_meta(meta),
                order: meta >> ORDER_SHIFT,
                dying: meta & DYING != 0,
            };
            return Some((entry, word as usize));
        }
    }

    /// The C view of the attribute here (the word), read by a writer.
    pub(super) fn c_view(&self) -> usize {
        self.word.load(Ordering::Acquire) as usize
    }
}

/// The value in the cell a C view (a bucket's word) points into.
#[inline(always)]
pub(super) fn cell_value(c_view: i64) -> i64 {
    at::<Cell>(c_view as u64 & !7).map_or(0, |c| c.value.load(Ordering::Relaxed))
}

/// The C view of a value in `cell`: the cell for `MPI_Aint`, its low-order INTEGER for `int`
/// (the same address on little-endian machines).
pub(super) fn cell_view(cell: usize, provenance: Provenance) -> usize {
    let int_offset = if cfg!(target_endian = "big") {
        8 - std::mem::size_of::<crate::caching::convert::FortranInteger>()
    } else {
        0
    };
    AttrWord {
        word: 0,
        provenance,
    }
    .c_view(cell, cell + int_offset)
}

/// The cell a C view (a bucket's word of a Fortran-set value) points into.
pub(super) fn cell_ref(c_view: usize) -> &'static AtomicI64 {
    static NONE: AtomicI64 = AtomicI64::new(0);
    at::<Cell>(c_view as u64 & !7).map_or(&NONE, |c| &c.value)
}
