//! Keyval numbers: what a number says of its keyval.
//!
//! ```text
//!  bits 29..28 kind (1 comm, 2 datatype, 3 window) | 27..16 generation | 15..0 slot
//! ```
//!
//! so a number fits a Fortran INTEGER, never collides with the predefined keyvals (small
//! numbers), and a wrong-kind use is seen in the number itself (MPI 4.1 §7.7.2).

use crate::kinds::ObjectKind;

pub(super) const KIND_SHIFT: u32 = 28;
pub(super) const GEN_SHIFT: u32 = 16;
pub(super) const GEN_MASK: u32 = 0xfff;
/// The bits of a number that name its slot.
pub const SLOT_MASK: u32 = (1 << GEN_SHIFT) - 1;

/// The number of slots a keyval number can name.
pub const SLOTS: usize = SLOT_MASK as usize + 1;

/// What a number decodes to.
#[inline(always)]
pub(super) fn decode(number: i32) -> Option<(ObjectKind, u32, u32)> {
    if number <= 0 {
        return None;
    }
    let n = number as u32;
    let kind = kind_of_code(n >> KIND_SHIFT)?;
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

pub(super) fn number_of(kind: ObjectKind, gen: u64, slot: u32) -> i32 {
    ((kind_code(kind) << KIND_SHIFT) | ((gen as u32) << GEN_SHIFT) | slot) as i32
}
