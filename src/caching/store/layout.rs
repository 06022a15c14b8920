//! The store's layout and read protocol as numbers, for readers written outside Rust (the
//! x86-64 get entry points, [`getters_x86_64`](super::getters_x86_64)). Each constant is derived
//! from the types, so a change of layout changes the readers with it; the assertions below stop
//! the build when a reader's assumption no longer holds.
//!
//! A lock-free get of a dense key, as [`Tables::get`](super::Tables::get) does it:
//!
//! 1. `i = handle & HANDLE_INDEX_MASK`; `leaf = *(tables + dir(kind) + 8 * (i >> LEAF_BITS))`;
//!    `rec = *(leaf + 8 * (i & LEAF_MASK))`; either null: not answered here.
//! 2. `v = *(rec + VERSION)`: odd, not answered here; `*(rec + KEY) == handle` (sign-extended to
//!    64 bits), or not answered here.
//! 3. `s = keyval & KEYVAL_SLOT_MASK`; `*(tables + keyvals(kind) + 8 * s)` (its low i32) `==
//!    keyval`, or not answered here (a dead, predefined or garbage keyval, or one of another
//!    kind). The entry holds the number while the keyval is held: live, or freed by the user
//!    while attributes still use it (MPI 4.1 §7.7.2), whose gets are answered here too.
//! 4. `t = *(rec + TABLE)`: 0, not set (after step 6's check). Else the buckets start at `t &
//!    !TABLE_LOG2_MASK`, there are `2^(t & TABLE_LOG2_MASK)` of them, and the probe starts at
//!    `(s * FIB) >> (64 - log2)`.
//! 5. Per bucket `b` (`BUCKET_SIZE` bytes): `h = *(b + HEAD)` (u64); `h >> 32` is its keyval:
//!    `keyval`, read it; 0, not set; anything else, the next bucket (wrapping). To read: `w =
//!    *(b + WORD)`; `h & HEAD_HELD`, or `*(b + HEAD) != h` read again: a write raced, not
//!    answered here. `w` is the C view (the pointer set from C, or the address of the value's
//!    cell); when `h & HEAD_PROVENANCE` is not 0 the value is the 8 bytes at `w & !7`, read and
//!    then checked with the head once more.
//! 6. `*(rec + VERSION) == v`, or not answered here (a rebuild or unbind raced).
//!
//! Every load is a plain aligned load of at most 8 bytes, and x86-64 keeps loads in order, so
//! the sequence is the seqlock reads of the store as they stand.

use super::bucket::{Bucket, HELD, KEYVAL_SHIFT, PROVENANCE_BITS};
use super::record::{Record, FIB as RECORD_FIB, MIN_LOG2, TABLE_LOG2_MASK as LOG2_MASK};
use super::{kind_index, Tables, KEYVAL_SLOTS, KEY_INDEX_MASK, LEAF, LEAF_BITS as LEAF_SHIFT};
use crate::caching::keyval::number;
use crate::kinds::ObjectKind;
use std::mem::{offset_of, size_of};
use std::sync::atomic::{AtomicI64, AtomicU64};

/// Bits of an `int` handle (an object key's low 32 bits) that index a directory.
pub const HANDLE_INDEX_MASK: u32 = KEY_INDEX_MASK;
/// The index bits a leaf resolves.
pub const LEAF_BITS: u32 = LEAF_SHIFT;
pub const LEAF_MASK: u32 = LEAF as u32 - 1;
/// Bits of a keyval number that name its registry slot.
pub const KEYVAL_SLOT_MASK: u32 = number::SLOT_MASK;

/// Where the directory of `kind` starts in [`Tables`].
pub const fn dir(kind: ObjectKind) -> usize {
    offset_of!(Tables, dirs) + kind_index(kind) * size_of::<[AtomicU64; LEAF]>()
}

/// Where the keyval table of `kind` starts in [`Tables`] (8-byte entries, the held keyval's
/// number in the low half).
pub const fn keyvals(kind: ObjectKind) -> usize {
    offset_of!(Tables, keyvals) + kind_index(kind) * size_of::<[AtomicI64; KEYVAL_SLOTS]>()
}
pub const VERSION: usize = offset_of!(Record, version);
pub const KEY: usize = offset_of!(Record, key);
pub const TABLE: usize = offset_of!(Record, table);
pub const TABLE_LOG2_MASK: u64 = LOG2_MASK;
pub const FIB: u64 = RECORD_FIB;
pub const BUCKET_SIZE: usize = size_of::<Bucket>();
pub const HEAD: usize = offset_of!(Bucket, head);
pub const WORD: usize = offset_of!(Bucket, word);
/// Where a bucket's keyval sits in its head (a 32-bit load).
pub const HEAD_KEYVAL: usize = HEAD + KEYVAL_SHIFT as usize / 8;
/// In the head: a writer holds the bucket.
pub const HEAD_HELD: u64 = HELD;
/// In the head: the provenance of the value (0: set from C, the word is the value).
pub const HEAD_PROVENANCE: u64 = PROVENANCE_BITS;

// What the hand-written readers rely on.
const _: () = {
    // Bucket addresses are computed as index * 3 * 8; the head's keyval is its high half.
    assert!(BUCKET_SIZE == 24 && HEAD == 0 && WORD == 8 && KEYVAL_SHIFT == 32);
    assert!(
        HEAD_KEYVAL == 4 && cfg!(target_endian = "little") || cfg!(not(target_arch = "x86_64"))
    );
    // The held bit and the provenance bits are in the head's low byte (`test r8b, imm8`).
    assert!(HEAD_HELD < 256 && HEAD_PROVENANCE < 256 && HEAD_HELD & HEAD_PROVENANCE == 0);
    // A table has at least 4 buckets: the shift `64 - log2` is below 64.
    assert!(MIN_LOG2 >= 1 && TABLE_LOG2_MASK == 31);
    // The record's words the readers load.
    assert!(VERSION == 0 && KEY == 8 && TABLE == 16);
    // The directory: 12 bits per level, 8-byte entries.
    assert!(HANDLE_INDEX_MASK == (1 << 24) - 1 && LEAF_BITS == 12);
    assert!(size_of::<[AtomicU64; LEAF]>() == 8 * LEAF);
};
