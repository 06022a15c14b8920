//! The store's layout and read protocol as numbers, for readers written outside Rust (the
//! x86-64 get entry points, [`getters_x86_64`](super::getters_x86_64)). Each constant is derived from the types, so a
//! change of layout changes the readers with it; the assertions below stop the build when a
//! reader's assumption no longer holds.
//!
//! A lock-free get, as [`Tables::get`](super::Tables::get) does it:
//!
//! 1. `a = *(tables + dir(kind) + 8 * (handle & HANDLE_INDEX_MASK))`; null: not answered here.
//! 2. `*(a + BOUND) == handle` (i32), or not answered here.
//! 3. `s = keyval & KEYVAL_SLOT_MASK`; `*(tables + keyvals(kind) + 8 * s)` (its low i32) `==
//!    keyval`, or not answered here (a dead, predefined or garbage keyval, or one of another
//!    kind). The entry holds the number while the keyval is held: live, or freed by the user
//!    while attributes still use it (MPI 4.1 §7.7.2), whose gets are answered here too.
//! 4. The slot: `a + SLOTS + SLOT_SIZE * s` when `s < INLINE_SLOTS`; beyond that, not answered
//!    here.
//! 5. `q = *(slot + SEQ)` (u32); `*(slot + KEYVAL) != keyval`: not set. Then `w = *(slot +
//!    WORD)`; `q & SEQ_HELD`, or `*(slot + SEQ) != q` read again: a write raced, not answered
//!    here. Otherwise the attribute is `w`, written as `q & SEQ_PROVENANCE` says (0: from C).
//!
//! Every load is a plain aligned load of at most 8 bytes, and x86-64 keeps loads in order, so
//! the sequence is the seqlock read of the store's `Slot::try_read_word` as it stands.

use super::obj_attrs::{ObjAttrs, INLINE_PAGES};
use super::slot::{Slot, HELD, PAGE, PROVENANCE_SHIFT};
use super::{kind_index, Directory, Tables, KEYVAL_SLOTS, KEY_INDEX_MASK};
use crate::caching::keyval::number;
use crate::kinds::ObjectKind;
use crate::primitives::once_ptr::OncePtr;
use std::mem::{offset_of, size_of};
use std::sync::atomic::AtomicI64;

/// Bits of an `int` handle (an object key's low 32 bits) that index a directory.
pub const HANDLE_INDEX_MASK: u32 = KEY_INDEX_MASK;
/// Bits of a keyval number that name its registry slot.
pub const KEYVAL_SLOT_MASK: u32 = number::SLOT_MASK;

/// Where the directory of `kind` starts in [`Tables`].
pub const fn dir(kind: ObjectKind) -> usize {
    offset_of!(Tables, dirs)
        + kind_index(kind) * size_of::<Directory>()
        + offset_of!(Directory, table)
}

/// Where the keyval table of `kind` starts in [`Tables`] (8-byte entries, the held keyval's
/// number in the low half).
pub const fn keyvals(kind: ObjectKind) -> usize {
    offset_of!(Tables, keyvals) + kind_index(kind) * size_of::<[AtomicI64; KEYVAL_SLOTS]>()
}
/// The bound handle in [`ObjAttrs`].
pub const BOUND: usize = offset_of!(ObjAttrs, bound);
/// The flat array of slots in [`ObjAttrs`].
pub const SLOTS: usize = offset_of!(ObjAttrs, slots);
/// Keyval slots in that array.
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
    assert!(size_of::<[[Slot; PAGE]; INLINE_PAGES]>() == INLINE_SLOTS * SLOT_SIZE);
    assert!(SEQ.is_multiple_of(4) && KEYVAL.is_multiple_of(4) && BOUND.is_multiple_of(4));
    assert!(size_of::<OncePtr<ObjAttrs>>() == 8);
    assert!(cfg!(target_endian = "little") || cfg!(not(target_arch = "x86_64")));
};
