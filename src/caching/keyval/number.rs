//! Keyval numbers: what a number says of its keyval.
//!
//! ```text
//!  bits 31..28 tag | 27..26 kind (1 comm, 2 datatype, 3 window) | 25..16 generation | 15..0 slot
//! ```
//!
//! so a number fits a Fortran INTEGER, never collides with the predefined keyvals (small
//! numbers), and a wrong-kind use is seen in the number itself (MPI 4.1 §7.7.2).
//!
//! The layer over another MPI (feature `layer`) tags its numbers `0b1000` in bits 31..28
//! ([`TAG`]), chosen against every engine's keyvals (their handle layouts, measured in
//! tests/mp/mp_engine_keyval.c):
//! - MPICH (and MPICH 5's MPI 5.0 ABI, whose user keyvals are MPICH's handles) puts its object
//!   kind 9 (keyval) in bits 29..26 of every keyval handle, predefined, user (bits 31..30 `10`
//!   direct, `11` indirect: 0xa4400000, 0xe4...) or invalid (0x24000000): bits 29..26 `1001`.
//!   The layer's bits 29..26 are `00` and its kind, never `1001`.
//! - Open MPI's keyvals are small non-negative integers and `MPI_KEYVAL_INVALID` is -1; the
//!   ABI's predefined keyvals and `MPI_KEYVAL_INVALID` (0) are small too. The layer's numbers are
//!   0x84000000..=0x8fffffff: negative, never -1.
//!
//! [`is_own`] recognises the layer's numbers by the whole tag and a non-zero kind, so a keyval
//! the layer does not own goes to the engine.

use crate::kinds::ObjectKind;

pub(super) const KIND_SHIFT: u32 = 26;
pub(super) const GEN_SHIFT: u32 = 16;
pub(super) const GEN_MASK: u32 = 0x3ff;
/// The bits every number of this build carries above its kind: none for the single-process
/// world, `0b1000` in bits 31..28 for the layer (see the module's comment).
pub const TAG: u32 = if cfg!(feature = "layer") {
    0x8000_0000
} else {
    0
};
/// The bits [`TAG`] occupies: every bit above the kind.
const TAG_MASK: u32 = !((1 << (KIND_SHIFT + 2)) - 1);

/// Whether `number` is of this build's own keyvals (it may still be unknown or stale).
#[inline(always)]
pub const fn is_own(number: i32) -> bool {
    number as u32 & TAG_MASK == TAG && (number as u32 >> KIND_SHIFT) & 3 != 0
}

/// The bits of a number that name its slot.
pub const SLOT_MASK: u32 = (1 << GEN_SHIFT) - 1;

/// The number of slots a keyval number can name.
pub const SLOTS: usize = SLOT_MASK as usize + 1;

/// What a number decodes to.
#[inline(always)]
pub(super) fn decode(number: i32) -> Option<(ObjectKind, u32, u32)> {
    if !is_own(number) {
        return None;
    }
    let n = number as u32;
    let kind = kind_of_code((n >> KIND_SHIFT) & 3)?;
    Some((kind, (n >> GEN_SHIFT) & GEN_MASK, n & SLOT_MASK))
}

#[inline(always)]
pub(super) fn kind_of_code(code: u32) -> Option<ObjectKind> {
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

pub(super) fn kind_code(kind: ObjectKind) -> u32 {
    match kind {
        ObjectKind::Comm => 1,
        ObjectKind::Datatype => 2,
        ObjectKind::Win => 3,
    }
}

/// The bits of a number of `kind` from bit [`KIND_SHIFT`] up: the kind and the [`TAG`].
#[inline(always)]
pub(super) fn kind_bits(kind: ObjectKind) -> u32 {
    (TAG >> KIND_SHIFT) | kind_code(kind)
}

pub(super) fn number_of(kind: ObjectKind, gen: u64, slot: u32) -> i32 {
    (TAG | (kind_code(kind) << KIND_SHIFT) | ((gen as u32) << GEN_SHIFT) | slot) as i32
}
