//! Handles: one `int` in C and the same INTEGER in Fortran.
//!
//! Predefined handles have the MPI 5.0 ABI values (small numbers below 0x400). Every other handle
//! has bit 30 set and carries its kind, a generation and a slot index, so a freed, forged or
//! wrong-kind handle is recognised instead of being dereferenced:
//!
//! ```text
//!  bit 30 | 29..26 kind | 25..18 generation | 17..0 slot index
//! ```
//!
//! Slots are recycled first-in first-out and only once many are free, so a stale handle is
//! caught for a long time after its object is gone.

use crate::caching::store::KEY_INDEX_MASK;
use crate::caching::ObjKey;
use crate::consts::*;
use crate::error::{BadHandleReason, Error, Result};
use crate::kinds::HandleKind;
use std::collections::VecDeque;

/// A raw handle value, as C and Fortran see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Handle(pub i32);

impl Handle {
    /// The key the caching engine knows the object by: the `int`, widened.
    #[inline(always)]
    pub const fn key(self) -> ObjKey {
        ObjKey::from_int(self.0)
    }

    /// The handle of a key the engine hands back (always one of this world's).
    #[inline(always)]
    pub const fn of_key(key: ObjKey) -> Handle {
        Handle(key.int())
    }
}

const DYNAMIC_BIT: i32 = 1 << 30;
const KIND_SHIFT: u32 = 26;
const GEN_SHIFT: u32 = 18;
const GEN_MASK: u32 = 0xff;
/// The bits of a handle that are its slot index.
pub const INDEX_MASK: u32 = (1 << GEN_SHIFT) - 1;
// The engine's store keeps an object by its key's low bits: one place per live object of a
// kind, as the slot index is (the promise of `caching::World::DENSE_KEYS`).
const _: () = assert!(INDEX_MASK <= KEY_INDEX_MASK);
/// The first slot index a dynamic handle gets: every predefined handle value is below it, so
/// `value & INDEX_MASK` names one place per object whether its handle is predefined or not
/// (see [`store_index`]).
const FIRST_DYNAMIC: u32 = 0x400;
const _: () = {
    let mut i = 0;
    while i < HandleKind::ALL.len() {
        let (base, n) = HandleKind::ALL[i].predefined_range();
        assert!(base >= 0 && base as u32 + n <= FIRST_DYNAMIC);
        i += 1;
    }
};
/// Free slots kept back before any is reused, so stale handles stay detectable: a slot's
/// generation wraps after 256 reuses, so a stale handle is caught for at least 256 × 65 frees
/// of its kind. Not more, so that a dup/free loop cycles through few objects whose attribute
/// pages stay in cache (1024 made `MPI_Comm_dup` with 256 attributes 35% slower).
const REUSE_DELAY: usize = 64;

/// How this world encodes each kind in its handles.
impl HandleKind {
    const ALL: [HandleKind; 8] = [
        HandleKind::Comm,
        HandleKind::Group,
        HandleKind::Datatype,
        HandleKind::Win,
        HandleKind::Errhandler,
        HandleKind::Request,
        HandleKind::Info,
        HandleKind::Op,
    ];

    const fn code(self) -> u32 {
        self as u32 + 1
    }

    /// The range of predefined handle values of this kind: `(null value, number of values)`.
    /// The null handle is the first value; index `value - null` is the object's slot.
    pub const fn predefined_range(self) -> (i32, u32) {
        match self {
            HandleKind::Comm => (MPI_COMM_NULL, 3),
            HandleKind::Group => (MPI_GROUP_NULL, 2),
            HandleKind::Datatype => (MPI_DATATYPE_NULL, 0x100),
            HandleKind::Win => (MPI_WIN_NULL, 1),
            HandleKind::Errhandler => (MPI_ERRHANDLER_NULL, 4),
            HandleKind::Request => (MPI_REQUEST_NULL, 1),
            HandleKind::Info => (MPI_INFO_NULL, 2),
            HandleKind::Op => (MPI_OP_NULL, 0x20),
        }
    }

    /// The null handle of this kind.
    pub const fn null(self) -> Handle {
        Handle(self.predefined_range().0)
    }
}

/// What a raw value decodes to, before looking at any table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decoded {
    Predefined {
        kind: HandleKind,
        index: u32,
    },
    Dynamic {
        kind: HandleKind,
        index: u32,
        gen: u32,
    },
    Garbage,
}

fn decode(h: Handle) -> Decoded {
    let v = h.0;
    if v & DYNAMIC_BIT != 0 && v > 0 {
        let bits = v as u32;
        let code = (bits >> KIND_SHIFT) & 0xf;
        match HandleKind::ALL.get((code as usize).wrapping_sub(1)) {
            Some(&kind) => Decoded::Dynamic {
                kind,
                index: bits & INDEX_MASK,
                gen: (bits >> GEN_SHIFT) & GEN_MASK,
            },
            None => Decoded::Garbage,
        }
    } else {
        for kind in HandleKind::ALL {
            let (base, n) = kind.predefined_range();
            if v >= base && ((v - base) as u32) < n {
                return Decoded::Predefined {
                    kind,
                    index: (v - base) as u32,
                };
            }
        }
        Decoded::Garbage
    }
}

/// Where the engine's attribute store keeps a handle's attributes
/// (`caching::store::key_index`): its low bits, the slot index for a dynamic handle and the
/// value itself for a predefined one (predefined values are below `FIRST_DYNAMIC`, dynamic
/// indexes are not). Any value gives an index; the reader compares the whole handle with the
/// one bound there, which checks kind, generation and liveness at once.
#[inline(always)]
pub fn store_index(h: Handle) -> usize {
    crate::caching::store::key_index(h.key())
}

/// The kind a raw value claims to be, if any (for error messages and Fortran conversion).
pub fn kind_of(h: Handle) -> Option<HandleKind> {
    match decode(h) {
        Decoded::Predefined { kind, .. } | Decoded::Dynamic { kind, .. } => Some(kind),
        Decoded::Garbage => None,
    }
}

struct Slot<T> {
    gen: u32,
    value: Option<T>,
}

/// A table of live objects of one kind, addressed by handle.
pub struct Slab<T> {
    kind: HandleKind,
    /// `kind`'s code, first predefined value and number of predefined values, kept at hand
    /// for the handle check every call makes.
    code: u32,
    base: i32,
    reserved: u32,
    slots: Vec<Slot<T>>,
    /// Freed slots in quarantine, oldest first: the last `REUSE_DELAY` frees.
    free: VecDeque<u32>,
    /// Slots out of quarantine, reused last-out first: a steady create/free loop cycles
    /// through `REUSE_DELAY + 1` slots however many were freed before (warm caches).
    ready: Vec<u32>,
    live: usize,
}

impl<T> Slab<T> {
    pub const fn new(kind: HandleKind) -> Self {
        let (base, reserved) = kind.predefined_range();
        Slab {
            kind,
            code: kind.code(),
            base,
            reserved,
            slots: Vec::new(),
            free: VecDeque::new(),
            ready: Vec::new(),
            live: 0,
        }
    }

    pub fn kind(&self) -> HandleKind {
        self.kind
    }

    /// Number of live objects, predefined ones included.
    pub fn len(&self) -> usize {
        self.live
    }

    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    fn reserved(&self) -> u32 {
        self.reserved
    }

    /// Places for the predefined objects, and unused ones up to [`FIRST_DYNAMIC`].
    fn ensure_reserved(&mut self) {
        while (self.slots.len() as u32) < FIRST_DYNAMIC {
            self.slots.push(Slot {
                gen: 0,
                value: None,
            });
        }
    }

    /// Installs a predefined object under its predefined handle.
    pub fn insert_predefined(&mut self, h: Handle, value: T) {
        self.ensure_reserved();
        match decode(h) {
            Decoded::Predefined { kind, index } if kind == self.kind && index != 0 => {
                let slot = &mut self.slots[index as usize];
                if slot.value.is_none() {
                    self.live += 1;
                }
                slot.value = Some(value);
            }
            _ => panic!("{h:?} is not a predefined {} handle", self.kind),
        }
    }

    /// Stores a new object and returns its new handle.
    pub fn insert(&mut self, value: T) -> Result<Handle> {
        self.ensure_reserved();
        let index = if let Some(i) = self.ready.pop() {
            i
        } else {
            let index = self.slots.len() as u32;
            if index > INDEX_MASK {
                match self.free.pop_front() {
                    Some(i) => i,
                    None => return Err(Error::Exhausted { kind: "handle" }),
                }
            } else {
                self.slots.push(Slot {
                    gen: 0,
                    value: None,
                });
                index
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.value = Some(value);
        self.live += 1;
        let bits = DYNAMIC_BIT as u32
            | (self.kind.code() << KIND_SHIFT)
            | ((slot.gen & GEN_MASK) << GEN_SHIFT)
            | index;
        Ok(Handle(bits as i32))
    }

    /// Finds the slot index of a live object, or says precisely why the handle is bad.
    #[inline]
    pub fn index_of(&self, h: Handle) -> Result<usize> {
        // Fast path: a live object of this kind (checked precisely below otherwise).
        let v = h.0;
        let (i, gen) = if v > 0 && v & DYNAMIC_BIT != 0 {
            let bits = v as u32;
            let i = bits & INDEX_MASK;
            let ok = (bits >> KIND_SHIFT) & 0xf == self.code && i >= self.reserved;
            (if ok { i } else { 0 }, (bits >> GEN_SHIFT) & GEN_MASK)
        } else {
            let i = v.wrapping_sub(self.base) as u32;
            (if i < self.reserved { i } else { 0 }, 0)
        };
        if i != 0 {
            if let Some(slot) = self.slots.get(i as usize) {
                if slot.value.is_some() && slot.gen & GEN_MASK == gen {
                    return Ok(i as usize);
                }
            }
        }
        self.index_error(h)
    }

    #[cold]
    fn index_error(&self, h: Handle) -> Result<usize> {
        let bad = |reason| Error::BadHandle {
            kind: self.kind,
            handle: h.0,
            reason,
        };
        match decode(h) {
            Decoded::Predefined { kind, index } if kind == self.kind => {
                if index == 0 {
                    return Err(Error::NullHandle { kind });
                }
                match self.slots.get(index as usize) {
                    Some(Slot { value: Some(_), .. }) => Ok(index as usize),
                    _ => Err(bad(BadHandleReason::Forged)),
                }
            }
            Decoded::Dynamic { kind, index, gen } if kind == self.kind => {
                match self.slots.get(index as usize) {
                    Some(slot) if index >= self.reserved() => {
                        if slot.gen & GEN_MASK != gen {
                            Err(bad(if gen < slot.gen & GEN_MASK || slot.value.is_none() {
                                BadHandleReason::Freed
                            } else {
                                BadHandleReason::Forged
                            }))
                        } else if slot.value.is_none() {
                            Err(bad(BadHandleReason::Freed))
                        } else {
                            Ok(index as usize)
                        }
                    }
                    _ => Err(bad(BadHandleReason::Forged)),
                }
            }
            Decoded::Predefined { kind, .. } | Decoded::Dynamic { kind, .. } => {
                Err(bad(BadHandleReason::WrongKind(kind)))
            }
            Decoded::Garbage => Err(bad(BadHandleReason::Forged)),
        }
    }

    pub fn get(&self, h: Handle) -> Result<&T> {
        let i = self.index_of(h)?;
        Ok(self.slots[i]
            .value
            .as_ref()
            .expect("index_of checked the slot"))
    }

    pub fn get_mut(&mut self, h: Handle) -> Result<&mut T> {
        let i = self.index_of(h)?;
        Ok(self.slots[i]
            .value
            .as_mut()
            .expect("index_of checked the slot"))
    }

    /// Removes a dynamic object; predefined objects are refused.
    pub fn remove(&mut self, h: Handle) -> Result<T> {
        let i = self.index_of(h)?;
        if (i as u32) < self.reserved() {
            return Err(Error::PredefinedHandle {
                kind: self.kind,
                handle: h.0,
                action: "freed",
            });
        }
        let slot = &mut self.slots[i];
        let value = slot.value.take().expect("index_of checked the slot");
        slot.gen = (slot.gen + 1) & GEN_MASK;
        self.free.push_back(i as u32);
        if self.free.len() > REUSE_DELAY {
            self.ready.extend(self.free.pop_front());
        }
        self.live -= 1;
        Ok(value)
    }

    /// Whether `h` is one of the predefined handles of this slab.
    pub fn is_predefined(&self, h: Handle) -> bool {
        // The predefined values of each kind are one range (see `decode`).
        (h.0.wrapping_sub(self.base) as u32) < self.reserved
    }

    /// Live handles, predefined first, then in slot order.
    pub fn handles(&self) -> Vec<Handle> {
        let (base, _) = self.kind.predefined_range();
        let reserved = self.reserved();
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.value.is_some())
            .map(|(i, s)| {
                let i = i as u32;
                if i < reserved {
                    Handle(base + i as i32)
                } else {
                    Handle(
                        (DYNAMIC_BIT as u32
                            | (self.kind.code() << KIND_SHIFT)
                            | ((s.gen & GEN_MASK) << GEN_SHIFT)
                            | i) as i32,
                    )
                }
            })
            .collect()
    }

    /// Drops every object (used by `MPI_Finalize`).
    pub fn clear(&mut self) {
        self.slots.clear();
        self.free.clear();
        self.ready.clear();
        self.live = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_handles_resolve_and_null_is_reported() {
        let mut s: Slab<u8> = Slab::new(HandleKind::Comm);
        s.insert_predefined(Handle(MPI_COMM_WORLD), 1);
        assert_eq!(*s.get(Handle(MPI_COMM_WORLD)).unwrap(), 1);
        assert_eq!(
            s.get(Handle(MPI_COMM_NULL)).unwrap_err(),
            Error::NullHandle {
                kind: HandleKind::Comm
            }
        );
        assert!(matches!(
            s.get(Handle(MPI_COMM_SELF)).unwrap_err(),
            Error::BadHandle {
                reason: BadHandleReason::Forged,
                ..
            }
        ));
    }

    /// The range test of `is_predefined` says what the full decoding says, for every kind and
    /// for values around every range; dynamic handles are never predefined and never share a
    /// store index with a predefined one.
    #[test]
    fn predefined_is_a_range_and_dynamic_indexes_stay_clear_of_it() {
        for kind in HandleKind::ALL {
            let mut s: Slab<u8> = Slab::new(kind);
            for v in -4..0x500 {
                let decoded =
                    matches!(decode(Handle(v)), Decoded::Predefined { kind: k, .. } if k == kind);
                assert_eq!(s.is_predefined(Handle(v)), decoded, "{kind} value {v:#x}");
            }
            let h = s.insert(1).unwrap();
            assert!(!s.is_predefined(h));
            assert!(store_index(h) >= FIRST_DYNAMIC as usize, "{kind}: {h:?}");
        }
    }

    #[test]
    fn freed_wrong_kind_and_forged_handles_are_told_apart() {
        let mut s: Slab<u8> = Slab::new(HandleKind::Comm);
        let h = s.insert(7).unwrap();
        assert!(h.0 > 0, "handles are positive Fortran INTEGERs");
        assert_eq!(s.remove(h).unwrap(), 7);
        assert!(matches!(
            s.get(h).unwrap_err(),
            Error::BadHandle {
                reason: BadHandleReason::Freed,
                ..
            }
        ));
        assert!(matches!(
            s.get(Handle(MPI_INT)).unwrap_err(),
            Error::BadHandle {
                reason: BadHandleReason::WrongKind(HandleKind::Datatype),
                ..
            }
        ));
        assert!(matches!(
            s.get(Handle(12345)).unwrap_err(),
            Error::BadHandle {
                reason: BadHandleReason::Forged,
                ..
            }
        ));
        let mut t: Slab<u8> = Slab::new(HandleKind::Datatype);
        let th = t.insert(1).unwrap();
        assert!(matches!(
            s.get(th).unwrap_err(),
            Error::BadHandle {
                reason: BadHandleReason::WrongKind(HandleKind::Datatype),
                ..
            }
        ));
    }

    #[test]
    fn slots_are_not_reused_until_many_are_free() {
        let mut s: Slab<u32> = Slab::new(HandleKind::Group);
        let first = s.insert(0).unwrap();
        s.remove(first).unwrap();
        for i in 0..REUSE_DELAY as u32 {
            let h = s.insert(i).unwrap();
            assert_ne!(h, first);
            s.remove(h).unwrap();
        }
        assert!(s.get(first).is_err());
    }
}
