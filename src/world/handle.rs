//! Handles: one `int` in C and the same INTEGER in Fortran.
//!
//! Predefined handles have the MPI 5.0 ABI values (small numbers below 0x400). Every other handle
//! has bit 30 set and carries its kind, a generation and a slot index, so a freed, forged or
//! wrong-kind handle is recognised instead of being dereferenced:
//!
//! ```text
//!  bit 30 | 29..26 kind | 25..24 generation | 23..0 slot index
//! ```
//!
//! so 16,776,192 objects of a kind can be live besides the predefined ones ([`limit`]; the
//! kinds that carry attributes are bound by the engine's store as well). Slots are recycled
//! first-in first-out and only once many are free, so a stale handle is caught while its slot
//! is not reused, and for a few reuses after. A kind's objects live in chunks of 1,024 slots
//! allocated on first use and given back when they hold no object.

use crate::caching::store::KEY_INDEX_MASK;
use crate::caching::ObjKey;
use crate::consts::*;
use crate::error::{BadHandleReason, Error, Limited, Result};
use crate::kinds::HandleKind;
use crate::primitives::alloc;
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
const GEN_SHIFT: u32 = 24;
const GEN_MASK: u32 = 0x3;
/// The bits of a handle that are its slot index.
pub const INDEX_MASK: u32 = (1 << GEN_SHIFT) - 1;
// The engine's store keeps an object by its key's low bits: one place per live object of a
// kind, as the slot index is (the promise of `caching::World::DENSE_KEYS`): the two are
// the same width, so every live object of a kind has its own place there.
const _: () = assert!(INDEX_MASK == KEY_INDEX_MASK);
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
/// generation wraps after 4 reuses, so a stale handle is caught for at least 4 × 65 frees of
/// its kind, and for as long as its slot is not reused. Not more, so that a dup/free loop cycles through few objects whose attribute
/// pages stay in cache (1024 made `MPI_Comm_dup` with 256 attributes 35% slower).
const REUSE_DELAY: usize = 64;

/// How this world encodes each kind in its handles.
impl HandleKind {
    const ALL: [HandleKind; 11] = [
        HandleKind::Comm,
        HandleKind::Group,
        HandleKind::Datatype,
        HandleKind::Win,
        HandleKind::Errhandler,
        HandleKind::Request,
        HandleKind::Info,
        HandleKind::Op,
        HandleKind::Session,
        HandleKind::File,
        HandleKind::Message,
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
            HandleKind::Session => (MPI_SESSION_NULL, 1),
            HandleKind::File => (MPI_FILE_NULL, 1),
            // MPI_MESSAGE_NULL, then MPI_MESSAGE_NO_PROC.
            HandleKind::Message => (MPI_MESSAGE_NULL, 2),
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

/// Slots per chunk: a slab's memory grows and shrinks a chunk at a time. Chunk 0 holds the
/// predefined objects (and the unused places below [`FIRST_DYNAMIC`]).
const CHUNK_BITS: u32 = 10;
const CHUNK: usize = 1 << CHUNK_BITS;
const _: () = assert!(FIRST_DYNAMIC as usize <= CHUNK);

/// One past the highest slot index a kind may use (the store indexes the kinds that carry
/// attributes by the same bits, asserted above).
const fn capacity(_kind: HandleKind) -> u32 {
    INDEX_MASK + 1
}

/// How many objects of `kind` the program can hold at once (besides the predefined ones): the
/// limit `Error::Exhausted` names.
pub const fn limit(kind: HandleKind) -> usize {
    (capacity(kind) - FIRST_DYNAMIC) as usize
}

/// Where [`Slab::insert`] takes its slot from.
enum From {
    Ready,
    Fresh,
    Quarantine,
}

/// A chunk of slots: its objects, allocated on first use and given back when the chunk holds
/// none (the generations stay in [`Slab::gens`], so handles of its freed objects stay bad).
struct Chunk<T> {
    live: u32,
    /// `CHUNK` places, or empty while the chunk is given back.
    values: Vec<Option<T>>,
}

/// A table of live objects of one kind, addressed by handle. Every allocation is fallible: an
/// insert that cannot get memory fails with nothing changed.
pub struct Slab<T> {
    kind: HandleKind,
    /// `kind`'s code, first predefined value and number of predefined values, kept at hand
    /// for the handle check every call makes.
    code: u32,
    base: i32,
    reserved: u32,
    /// One past the highest slot index this slab may use ([`capacity`]).
    capacity: u32,
    chunks: Vec<Chunk<T>>,
    /// The generation of every slot made (a byte each, kept while its chunk is given back).
    gens: Vec<u8>,
    /// Freed slots in quarantine, oldest first: the last `REUSE_DELAY` frees. Its capacity
    /// is reserved with the first chunk, so a free never allocates.
    free: VecDeque<u32>,
    /// Slots out of quarantine, reused last-out first: a steady create/free loop cycles
    /// through `REUSE_DELAY + 1` slots however many were freed before (warm caches). Capacity
    /// as `free`'s.
    ready: Vec<u32>,
    live: usize,
    /// The next slot never used yet.
    fresh: u32,
    /// A chunk with no object kept allocated, so a loop that empties and refills one chunk
    /// does not give it back and allocate it again each time.
    spare: Option<u32>,
}

impl<T> Slab<T> {
    pub const fn new(kind: HandleKind) -> Self {
        let (base, reserved) = kind.predefined_range();
        Slab {
            kind,
            code: kind.code(),
            base,
            reserved,
            capacity: capacity(kind),
            chunks: Vec::new(),
            gens: Vec::new(),
            free: VecDeque::new(),
            ready: Vec::new(),
            live: 0,
            fresh: FIRST_DYNAMIC,
            spare: None,
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

    /// The place of slot `i`, if its chunk is allocated.
    #[inline(always)]
    fn place(&self, i: u32) -> Option<&Option<T>> {
        self.chunks
            .get((i >> CHUNK_BITS) as usize)?
            .values
            .get(i as usize % CHUNK)
    }

    /// Makes sure slot `i` (made already, or the next one to make) has its place, allocating
    /// the chunk (and, for a new chunk, the bookkeeping that frees will need) or failing with
    /// nothing changed that anyone can see.
    fn make_room(&mut self, i: u32) -> Result<()> {
        let c = (i >> CHUNK_BITS) as usize;
        if c == self.chunks.len() {
            let slots = (c + 1) * CHUNK;
            alloc::try_reserve(&mut self.chunks, 1)?;
            alloc::try_reserve(&mut self.gens, CHUNK)?;
            let extra = slots - self.ready.len();
            alloc::try_reserve(&mut self.ready, extra)?;
            // The quarantine never holds more than `REUSE_DELAY + 1` (a free pushes, then
            // moves the oldest out past `REUSE_DELAY`): room for that once, not a place per
            // slot made (4 MiB kept after 1,000,000 datatypes were freed).
            let extra = (REUSE_DELAY + 1).saturating_sub(self.free.len());
            if alloc::refused() {
                return Err(Error::no_memory::<u32>("free handle numbers", extra));
            }
            self.free
                .try_reserve(extra)
                .map_err(|_| Error::no_memory::<u32>("free handle numbers", extra))?;
            self.chunks.push(Chunk {
                live: 0,
                values: Vec::new(),
            });
            self.gens.resize(slots, 0);
        }
        let chunk = &mut self.chunks[c];
        if chunk.values.is_empty() {
            chunk.values = alloc::try_vec(CHUNK, || None)?;
        }
        Ok(())
    }

    /// Places for the predefined objects, and unused ones up to [`FIRST_DYNAMIC`].
    fn ensure_reserved(&mut self) -> Result<()> {
        if self.chunks.is_empty() {
            self.make_room(0)?;
        }
        Ok(())
    }

    /// Installs a predefined object under its predefined handle (at `MPI_Init`).
    pub fn insert_predefined(&mut self, h: Handle, value: T) -> Result<()> {
        self.ensure_reserved()?;
        match decode(h) {
            Decoded::Predefined { kind, index } if kind == self.kind && index != 0 => {
                let chunk = &mut self.chunks[0];
                let place = &mut chunk.values[index as usize];
                if place.is_none() {
                    self.live += 1;
                    chunk.live += 1;
                }
                *place = Some(value);
                Ok(())
            }
            _ => panic!("{h:?} is not a predefined {} handle", self.kind),
        }
    }

    /// Stores a new object and returns its new handle; on failure (no memory, or the kind's
    /// limit reached) nothing has changed.
    pub fn insert(&mut self, value: T) -> Result<Handle> {
        self.ensure_reserved()?;
        // Choose the slot (a ready one, else a new one, else, at the limit, the oldest in
        // quarantine), make its room, and only then take it from where it waits.
        let (index, from) = if let Some(&i) = self.ready.last() {
            (i, From::Ready)
        } else if self.fresh < self.capacity {
            (self.fresh, From::Fresh)
        } else {
            match self.free.front() {
                Some(&i) => (i, From::Quarantine),
                None => {
                    return Err(Error::Exhausted {
                        what: Limited::Handles(self.kind),
                        limit: limit(self.kind),
                    })
                }
            }
        };
        self.make_room(index)?;
        match from {
            From::Ready => drop(self.ready.pop()),
            From::Fresh => self.fresh += 1,
            From::Quarantine => drop(self.free.pop_front()),
        }
        let c = index >> CHUNK_BITS;
        if self.spare == Some(c) {
            self.spare = None;
        }
        let chunk = &mut self.chunks[c as usize];
        chunk.values[index as usize % CHUNK] = Some(value);
        chunk.live += 1;
        self.live += 1;
        let gen = self.gens[index as usize] as u32;
        let bits = DYNAMIC_BIT as u32 | (self.code << KIND_SHIFT) | (gen << GEN_SHIFT) | index;
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
            if let Some(Some(_)) = self.place(i) {
                if self.gens[i as usize] as u32 == gen {
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
                match self.place(index) {
                    Some(Some(_)) => Ok(index as usize),
                    _ => Err(bad(BadHandleReason::Forged)),
                }
            }
            Decoded::Dynamic { kind, index, gen } if kind == self.kind => {
                if index < self.reserved() || index >= self.fresh {
                    return Err(bad(BadHandleReason::Forged));
                }
                let now = self.gens[index as usize] as u32;
                let live = matches!(self.place(index), Some(Some(_)));
                if now != gen {
                    // The generation wraps: an older one is a freed object's, unless the
                    // slot was never reused past it (then no object ever had this handle).
                    Err(bad(if gen < now || !live {
                        BadHandleReason::Freed
                    } else {
                        BadHandleReason::Forged
                    }))
                } else if !live {
                    Err(bad(BadHandleReason::Freed))
                } else {
                    Ok(index as usize)
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
        Ok(self
            .place(i as u32)
            .and_then(Option::as_ref)
            .expect("index_of checked the slot"))
    }

    pub fn get_mut(&mut self, h: Handle) -> Result<&mut T> {
        let i = self.index_of(h)?;
        Ok(self.chunks[i >> CHUNK_BITS].values[i % CHUNK]
            .as_mut()
            .expect("index_of checked the slot"))
    }

    /// Removes a dynamic object; predefined objects are refused. Never allocates: the
    /// bookkeeping was reserved when the slot's chunk was first made.
    pub fn remove(&mut self, h: Handle) -> Result<T> {
        let i = self.index_of(h)?;
        if (i as u32) < self.reserved() {
            return Err(Error::PredefinedHandle {
                kind: self.kind,
                handle: h.0,
                action: "freed",
            });
        }
        let c = i >> CHUNK_BITS;
        let chunk = &mut self.chunks[c];
        let value = chunk.values[i % CHUNK]
            .take()
            .expect("index_of checked the slot");
        chunk.live -= 1;
        let emptied = chunk.live == 0;
        self.gens[i] = ((self.gens[i] as u32 + 1) & GEN_MASK) as u8;
        self.free.push_back(i as u32);
        if self.free.len() > REUSE_DELAY {
            self.ready.extend(self.free.pop_front());
        }
        self.live -= 1;
        if emptied && c != 0 {
            self.release_chunk(c as u32);
        }
        Ok(value)
    }

    /// Chunk `c` holds no object: it becomes the spare, and the previous spare, if still
    /// empty, is given back.
    fn release_chunk(&mut self, c: u32) {
        if let Some(old) = self.spare.replace(c) {
            let chunk = &mut self.chunks[old as usize];
            if old != c && chunk.live == 0 && !chunk.values.is_empty() {
                let bytes = chunk.values.capacity() * std::mem::size_of::<Option<T>>();
                chunk.values = Vec::new();
                alloc::note_freed(bytes);
            }
        }
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
        let mut out = Vec::new();
        for (c, chunk) in self.chunks.iter().enumerate() {
            for (j, place) in chunk.values.iter().enumerate() {
                if place.is_none() {
                    continue;
                }
                let i = (c * CHUNK + j) as u32;
                out.push(if i < reserved {
                    Handle(base + i as i32)
                } else {
                    let gen = self.gens[i as usize] as u32;
                    Handle(
                        (DYNAMIC_BIT as u32 | (self.code << KIND_SHIFT) | (gen << GEN_SHIFT) | i)
                            as i32,
                    )
                });
            }
        }
        out
    }

    /// Chunks whose memory is allocated now (tests: memory follows what is live).
    #[cfg(test)]
    fn chunks_held(&self) -> usize {
        self.chunks.iter().filter(|c| !c.values.is_empty()).count()
    }

    /// Drops every object and gives back all memory (used by `MPI_Finalize`).
    pub fn clear(&mut self) {
        *self = Slab::new(self.kind);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_handles_resolve_and_null_is_reported() {
        let mut s: Slab<u8> = Slab::new(HandleKind::Comm);
        s.insert_predefined(Handle(MPI_COMM_WORLD), 1).unwrap();
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

    /// Issue 15 item 7: far more objects than the old 18-bit index allowed (261,120) live at
    /// once with distinct handles; the chunks go back when they are emptied, and handles of
    /// freed objects stay bad after their chunk was given back.
    #[test]
    fn a_kind_grows_past_the_old_limit_and_gives_its_chunks_back() {
        let mut s: Slab<u32> = Slab::new(HandleKind::Group);
        let n = 300_000u32;
        let hs: Vec<Handle> = (0..n).map(|i| s.insert(i).unwrap()).collect();
        assert_eq!(s.len(), n as usize);
        assert_eq!(*s.get(hs[299_999]).unwrap(), 299_999);
        let distinct: std::collections::HashSet<_> = hs.iter().collect();
        assert_eq!(distinct.len(), hs.len());
        let held = s.chunks_held();
        assert!(held >= n as usize / CHUNK, "{held} chunks for {n} objects");
        for &h in &hs {
            s.remove(h).unwrap();
        }
        // Chunk 0 (the predefined objects) and one spare stay.
        assert!(s.chunks_held() <= 2, "{} chunks held", s.chunks_held());
        for &h in hs.iter().step_by(997) {
            assert!(matches!(
                s.get(h).unwrap_err(),
                Error::BadHandle {
                    reason: BadHandleReason::Freed,
                    ..
                }
            ));
        }
        // Reused slots get the chunks back; the old handles stay bad.
        let again: Vec<Handle> = (0..5000).map(|i| s.insert(i).unwrap()).collect();
        assert!(again.iter().all(|h| !hs.contains(h)));
        assert!(s.get(hs[0]).is_err());
    }

    /// Issue 15 item 7: at a kind's limit the insert fails with `MPI_ERR_NO_MEM`, a message
    /// naming the limit, and nothing changed; a free makes room again.
    #[test]
    fn the_limit_is_an_error_that_names_it() {
        let mut s: Slab<()> = Slab::new(HandleKind::Win);
        let max = limit(HandleKind::Win);
        let mut last = None;
        for _ in 0..max {
            last = Some(s.insert(()).unwrap());
        }
        let err = s.insert(()).unwrap_err();
        assert_eq!(err.class(), MPI_ERR_NO_MEM);
        assert_eq!(
            err.to_string(),
            format!(
                "too many live windows: the limit is {}",
                crate::error::Thousands(max)
            )
        );
        assert_eq!(s.len(), max);
        s.remove(last.unwrap()).unwrap();
        assert!(s.insert(()).is_ok());
    }

    #[test]
    fn the_full_index_allows_sixteen_million_objects_of_a_kind() {
        assert_eq!(limit(HandleKind::Info), (1 << 24) - FIRST_DYNAMIC as usize);
        assert_eq!(
            crate::error::Thousands(16_776_192).to_string(),
            "16,776,192"
        );
        assert_eq!(crate::error::Thousands(999).to_string(), "999");
        assert_eq!(crate::error::Thousands(1000).to_string(), "1,000");
    }
}
