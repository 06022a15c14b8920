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

use crate::consts::MPI_KEYVAL_INVALID;
use crate::core::callback::{CopyFn, DeleteFn};
use crate::core::error::{Error, Result};
use crate::core::store::Callbacks;
use crate::core::ObjectKind;
use std::collections::VecDeque;
use std::sync::Arc;

const KIND_SHIFT: u32 = 28;
const GEN_SHIFT: u32 = 18;
const GEN_MASK: u32 = 0x3ff;
const SLOT_MASK: u32 = (1 << GEN_SHIFT) - 1;
/// Free slots kept back before reuse, so freed numbers stay detectable for long.
const REUSE_DELAY: usize = 256;

use crate::core::convert::FortranInteger;

/// A keyval's `extra_state`: captured when the keyval is created, and never written after.
/// Its address is stable for the keyval's life, so Fortran callbacks get a reference to the
/// keyval's own copy.
#[derive(Debug)]
pub struct ExtraState {
    word: i64,
    /// The low INTEGER of the word, for `MPI_KEYVAL_CREATE` callbacks (the Fortran INTEGER:
    /// 8 bytes with the `fortran-integer-8` feature).
    int: FortranInteger,
}

impl ExtraState {
    pub fn new(word: i64) -> ExtraState {
        ExtraState {
            word,
            int: word as FortranInteger,
        }
    }
    pub fn word(&self) -> i64 {
        self.word
    }
    /// Address of the stored word (handed to ADDRESS_KIND Fortran callbacks).
    pub fn word_addr(&self) -> usize {
        &self.word as *const i64 as usize
    }
    /// Address of the stored INTEGER (handed to `MPI_KEYVAL_CREATE` callbacks).
    pub fn int_addr(&self) -> usize {
        &self.int as *const FortranInteger as usize
    }
}

/// What a keyval is: immutable once created, shared with the attributes that use it.
#[derive(Debug)]
pub struct KeyvalInfo {
    pub number: i32,
    pub kind: ObjectKind,
    pub copy: CopyFn,
    pub delete: DeleteFn,
    pub extra_state: ExtraState,
}

impl KeyvalInfo {
    pub fn slot(&self) -> u32 {
        self.number as u32 & SLOT_MASK
    }

    /// What its attributes carry of it in the store.
    pub fn callbacks(&self) -> Callbacks {
        let copy = match self.copy {
            CopyFn::Null => Callbacks::default(),
            CopyFn::Dup => Callbacks::COPY_DUP,
            CopyFn::User(_) => Callbacks::COPY_USER,
        };
        match self.delete {
            DeleteFn::Null => copy,
            DeleteFn::User(_) => copy.union(Callbacks::DELETE_USER),
        }
    }
}

struct Slot {
    gen: u32,
    info: Option<Arc<KeyvalInfo>>,
    /// The user still holds the number (not yet freed).
    live: bool,
    /// Attributes that use this keyval.
    attrs: u32,
}

/// All keyvals created by users.
pub struct KeyvalRegistry {
    slots: Vec<Slot>,
    free: VecDeque<u32>,
}

/// What a number decodes to.
#[inline(always)]
fn decode(number: i32) -> Option<(ObjectKind, u32, u32)> {
    if number <= 0 {
        return None;
    }
    let n = number as u32;
    let kind = match n >> KIND_SHIFT {
        1 => ObjectKind::Comm,
        2 => ObjectKind::Datatype,
        3 => ObjectKind::Win,
        _ => return None,
    };
    Some((kind, (n >> GEN_SHIFT) & GEN_MASK, n & SLOT_MASK))
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

impl Default for KeyvalRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl KeyvalRegistry {
    pub const fn new() -> Self {
        KeyvalRegistry {
            slots: Vec::new(),
            free: VecDeque::new(),
        }
    }

    /// Creates a keyval and returns its number.
    pub fn create(
        &mut self,
        kind: ObjectKind,
        copy: CopyFn,
        delete: DeleteFn,
        extra_state: i64,
    ) -> Result<i32> {
        let slot = if self.free.len() > REUSE_DELAY {
            self.free.pop_front().expect("free list is not empty")
        } else if (self.slots.len() as u32) <= SLOT_MASK {
            self.slots.push(Slot {
                gen: 0,
                info: None,
                live: false,
                attrs: 0,
            });
            self.slots.len() as u32 - 1
        } else {
            self.free
                .pop_front()
                .ok_or(Error::Exhausted { kind: "keyval" })?
        };
        let s = &mut self.slots[slot as usize];
        let number = ((kind_code(kind) << KIND_SHIFT) | (s.gen << GEN_SHIFT) | slot) as i32;
        s.info = Some(Arc::new(KeyvalInfo {
            number,
            kind,
            copy,
            delete,
            extra_state: ExtraState::new(extra_state),
        }));
        s.live = true;
        s.attrs = 0;
        Ok(number)
    }

    /// The keyval a user names, checked: known, not freed, of the expected kind.
    pub fn lookup(&self, number: i32, expected: ObjectKind) -> Result<&Arc<KeyvalInfo>> {
        if number == MPI_KEYVAL_INVALID {
            return Err(Error::KeyvalInvalid);
        }
        let (kind, gen, slot) = decode(number).ok_or(Error::KeyvalUnknown { keyval: number })?;
        let s = self
            .slots
            .get(slot as usize)
            .ok_or(Error::KeyvalUnknown { keyval: number })?;
        if s.gen != gen {
            return Err(if gen < s.gen {
                Error::KeyvalFreed { keyval: number }
            } else {
                Error::KeyvalUnknown { keyval: number }
            });
        }
        let info = match (&s.info, s.live) {
            (Some(info), true) => info,
            (Some(_), false) | (None, _) => return Err(Error::KeyvalFreed { keyval: number }),
        };
        if kind != expected {
            return Err(Error::KeyvalWrongKind {
                keyval: number,
                found: kind,
                expected,
            });
        }
        Ok(info)
    }

    /// The record in `slot`, freed by the user or not, while anything holds it.
    pub fn info_at(&self, slot: u32) -> Option<&Arc<KeyvalInfo>> {
        self.slots.get(slot as usize)?.info.as_ref()
    }

    /// The user frees the number: it is invalid from now on.
    pub fn free(&mut self, number: i32, expected: ObjectKind) -> Result<()> {
        let slot = self.lookup(number, expected)?.slot();
        let s = &mut self.slots[slot as usize];
        s.live = false;
        self.release_if_unused(slot);
        Ok(())
    }

    /// An attribute now uses the keyval in `slot`.
    #[inline]
    pub fn add_attr(&mut self, slot: u32) {
        self.slots[slot as usize].attrs += 1;
    }

    /// An attribute that used the keyval in `slot` is gone.
    #[inline]
    pub fn remove_attr(&mut self, slot: u32) {
        let s = &mut self.slots[slot as usize];
        debug_assert!(s.attrs > 0, "attribute count underflow");
        s.attrs = s.attrs.saturating_sub(1);
        if s.attrs == 0 && !s.live {
            self.release_if_unused(slot);
        }
    }

    #[cold]
    fn release_if_unused(&mut self, slot: u32) {
        let s = &mut self.slots[slot as usize];
        if !s.live && s.attrs == 0 && s.info.is_some() {
            s.info = None;
            s.gen = (s.gen + 1) & GEN_MASK;
            self.free.push_back(slot);
        }
    }

    /// Slots still held (by the user or by attributes): used by tests and by finalize checks.
    pub fn held(&self) -> usize {
        self.slots.iter().filter(|s| s.info.is_some()).count()
    }

    pub fn clear(&mut self) {
        self.slots.clear();
        self.free.clear();
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

/// The record behind a predefined keyval: no callbacks, never in the registry.
pub fn predefined_info(number: i32, kind: ObjectKind) -> Arc<KeyvalInfo> {
    Arc::new(KeyvalInfo {
        number,
        kind,
        copy: CopyFn::Null,
        delete: DeleteFn::Null,
        extra_state: ExtraState::new(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create(r: &mut KeyvalRegistry, kind: ObjectKind) -> i32 {
        r.create(kind, CopyFn::Null, DeleteFn::Null, 0).unwrap()
    }

    // MPI 4.1 §7.7.2: keyvals are positive integers distinct from MPI_KEYVAL_INVALID.
    #[test]
    fn numbers_fit_a_fortran_integer_and_carry_their_kind() {
        let mut r = KeyvalRegistry::new();
        let c = create(&mut r, ObjectKind::Comm);
        let t = create(&mut r, ObjectKind::Datatype);
        let w = create(&mut r, ObjectKind::Win);
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
        let mut r = KeyvalRegistry::new();
        let k = create(&mut r, ObjectKind::Comm);
        let slot = r.lookup(k, ObjectKind::Comm).unwrap().slot();
        r.add_attr(slot);
        r.free(k, ObjectKind::Comm).unwrap();
        assert_eq!(
            r.lookup(k, ObjectKind::Comm).unwrap_err(),
            Error::KeyvalFreed { keyval: k }
        );
        assert_eq!(r.held(), 1, "the record stays for the attribute");
        assert_eq!(
            r.free(k, ObjectKind::Comm).unwrap_err(),
            Error::KeyvalFreed { keyval: k }
        );
        r.remove_attr(slot);
        assert_eq!(r.held(), 0);
        assert_eq!(
            r.lookup(k, ObjectKind::Comm).unwrap_err(),
            Error::KeyvalFreed { keyval: k }
        );
    }

    #[test]
    fn numbers_are_not_reused_soon() {
        let mut r = KeyvalRegistry::new();
        let first = create(&mut r, ObjectKind::Comm);
        r.free(first, ObjectKind::Comm).unwrap();
        for _ in 0..REUSE_DELAY * 2 {
            let k = create(&mut r, ObjectKind::Comm);
            assert_ne!(k, first);
            r.free(k, ObjectKind::Comm).unwrap();
        }
    }
}
