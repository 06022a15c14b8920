//! Keyval numbers: what a number says of its keyval.
//!
//! ```text
//!  bits 29..28 kind (1 comm, 2 datatype, 3 window) | 27..16 generation | 15..0 slot
//! ```
//!
//! so a number fits a Fortran INTEGER, never collides with the predefined keyvals (small
//! numbers), and a wrong-kind use is seen in the number itself (MPI 4.1 §7.7.2).
//!
//! The layer over another MPI (feature `layer`) sets bit 31 too ([`TAG`]): its numbers are
//! negative and not -1, so they never meet the engine's own keyvals (MPICH's carry kind 9 in
//! bits 29..26 with bit 31 clear, Open MPI's are small and `MPI_KEYVAL_INVALID` is -1, the MPI
//! 5.0 ABI's are small), and a keyval the layer does not own is told apart by bit 31 alone.

use crate::kinds::ObjectKind;

pub(super) const KIND_SHIFT: u32 = 28;
pub(super) const GEN_SHIFT: u32 = 16;
pub(super) const GEN_MASK: u32 = 0xfff;
/// The bits every number of this build carries above its kind: none for the single-process
/// world, bit 31 for the layer (see the module's comment).
pub const TAG: u32 = if cfg!(feature = "layer") {
    0x8000_0000
} else {
    0
};
/// The bits [`TAG`] may occupy.
const TAG_MASK: u32 = 0xc000_0000;

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
