//! The store's layout and read protocol as numbers, for readers written outside Rust (the
//! x86-64 get entry points, `src/fast_get.rs`). Each constant is derived from the types, so a
//! change of layout changes the readers with it; the assertions below stop the build when a
//! reader's assumption no longer holds.
//!
//! A lock-free get, as [`Tables::get_with`](super::Tables) does it:
//!
//! 1. `a = *(tables + dir(kind) + 8 * (handle & HANDLE_INDEX_MASK))`; null: not answered here.
//! 2. `*(a + BOUND) == handle` (i32), or not answered here.
//! 3. `s = keyval & KEYVAL_SLOT_MASK`; `*(tables + KEYVALS + 8 * s)` (its low i32) `== keyval`,
//!    or not answered here (a dead, foreign or predefined keyval).
//! 4. The slot: `a + PAGE0_SLOTS + SLOT_SIZE * s` when `s < PAGE`; otherwise, when
//!    `s < INLINE_SLOTS`, `p = *(a + PAGES + 8 * (s / PAGE))` (null: not set) and
//!    `p + PAGE_SLOTS + SLOT_SIZE * (s % PAGE)`; beyond that, not answered here.
//! 5. `q = *(slot + SEQ)` (u32); `*(slot + KEYVAL) != keyval`: not set. Then `w = *(slot +
//!    WORD)`; `q & HELD`, or `*(slot + SEQ) != q` read again: a write raced, not answered here.
//!    Otherwise the attribute is `w`, written as `(q & PROVENANCE_BITS) >> 1` says (0: from C).
//! 6. Not set is an answer only when `keyval & KEYVAL_KIND_MASK == keyval_kind_bits(kind)`;
//!    otherwise the keyval is of another kind, an error the full path reports.
//!
//! Every load is a plain aligned load of at most 8 bytes, and x86-64 keeps loads in order, so
//! the sequence is the seqlock read of [`Slot::try_read_word`](super::Slot) as it stands.

use super::{Directory, ObjAttrs, Page, Slot, Tables, HELD, INLINE_PAGES, PAGE, PROVENANCE_SHIFT};
use crate::core::{handle, keyval, ObjectKind};
use std::mem::{offset_of, size_of};

/// Bits of a handle that index a directory.
pub const HANDLE_INDEX_MASK: u32 = handle::INDEX_MASK;
/// Bits of a keyval number that name its registry slot.
pub const KEYVAL_SLOT_MASK: u32 = keyval::SLOT_MASK;
/// Bits of a keyval number that say its kind (and that it is a user keyval).
pub const KEYVAL_KIND_MASK: u32 = keyval::KIND_FIELD_MASK;

/// Where the directory of `kind` starts in [`Tables`].
pub const fn dir(kind: ObjectKind) -> usize {
    offset_of!(Tables, dirs)
        + super::dir_index(kind) * size_of::<Directory>()
        + offset_of!(Directory, table)
}

/// What the kind field of a user keyval number of `kind` holds.
pub const fn keyval_kind_bits(kind: ObjectKind) -> u32 {
    keyval::kind_field(kind)
}

/// The keyval table in [`Tables`] (8-byte entries, the live number in the low half).
pub const KEYVALS: usize = offset_of!(Tables, keyvals);
/// The bound handle in [`ObjAttrs`].
pub const BOUND: usize = offset_of!(ObjAttrs, bound);
/// Page 0's slots in [`ObjAttrs`].
pub const PAGE0_SLOTS: usize = offset_of!(ObjAttrs, first) + offset_of!(Page, slots);
/// The page pointers in [`ObjAttrs`] (entry 0 unused).
pub const PAGES: usize = offset_of!(ObjAttrs, pages);
/// The slots in a [`Page`].
pub const PAGE_SLOTS: usize = offset_of!(Page, slots);
/// Slots per page (a power of two).
pub const PAGE_LEN: usize = PAGE;
/// Keyval slots reached through page 0 and the inline page pointers.
pub const INLINE_SLOTS: usize = PAGE * INLINE_PAGES;
pub const SLOT_SIZE: usize = size_of::<Slot>();
pub const SEQ: usize = offset_of!(Slot, seq);
pub const KEYVAL: usize = offset_of!(Slot, keyval);
pub const WORD: usize = offset_of!(Slot, word);
/// In the sequence counter: a writer holds the slot.
pub const SEQ_HELD: u32 = HELD;
/// In the sequence counter: the provenance of the value (0: set from C).
pub const SEQ_PROVENANCE: u32 = 3 << PROVENANCE_SHIFT;

// What the hand-written readers rely on.
const _: () = {
    // Slot addresses are computed as index * 3 * 8; the C view of a Fortran-set value is the
    // slot's address (the word, at offset 0, where a little-endian `int` view starts too).
    assert!(SLOT_SIZE == 24 && WORD == 0);
    assert!(PAGE_LEN == 64);
    assert!(SEQ.is_multiple_of(4) && KEYVAL.is_multiple_of(4) && BOUND.is_multiple_of(4));
    assert!(size_of::<super::OncePtr<ObjAttrs>>() == 8 && size_of::<super::OncePtr<Page>>() == 8);
    assert!(cfg!(target_endian = "little") || cfg!(not(target_arch = "x86_64")));
};
