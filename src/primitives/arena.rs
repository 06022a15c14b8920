//! Type- and size-class-stable memory for the attribute store, from a few large mappings.
//!
//! - **Regions**: memory comes from `mmap` in regions of [`REGION`] bytes (smaller when the
//!   kernel refuses one that big, e.g. under `ulimit -v`), so the number of mappings grows with
//!   the memory held, never with the number of objects. Regions are never unmapped.
//! - **Classes**: every block has the size of its class, `2^k` or `3 * 2^k` bytes. Blocks up to
//!   [`SPAN`] bytes are carved from spans of [`SPAN`] bytes given to one class for good; larger
//!   ones are runs of whole spans, also kept by their class. A block is only ever reused by its
//!   own class, so a lock-free reader that still holds an old address reads a value of the
//!   type it expects (every type here is made of 64-bit atomics: [`Words`]), never freed or
//!   unmapped memory and never undefined behaviour. Readers validate what they read (the store's
//!   version and sequence counters) and retry under the lock when it changed.
//! - **Giving back**: a span whose blocks are all free, and a freed large block, are handed back
//!   to the kernel with `madvise(MADV_DONTNEED)`: they read as zeroes afterwards (a valid value
//!   of every [`Words`] type) and take no memory until written again. One wholly free span (or
//!   large block) per class is kept back, so that freeing and making one object in a loop costs
//!   no system call.
//! - **Failure**: every allocation returns `None` when memory runs out (a refused mapping, a
//!   bookkeeping vector that cannot grow); nothing here aborts or panics. A test hook refuses
//!   the n-th allocation, to check that callers leave their state unchanged.
//!
//! A free block's first word links it into its class's free list (a 64-bit atomic, like every
//! word of every block). The arena's bookkeeping is behind one mutex: its callers (the store's
//! writers) hold the engine's lock anyway, so it is never contended in practice.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Bytes in a span: the unit of pages given back and of large blocks.
pub const SPAN: usize = 64 << 10;
/// Bytes asked of the kernel per region (halved down to [`MIN_REGION`] when refused).
pub const REGION: usize = 64 << 20;
const MIN_REGION: usize = 1 << 20;
/// The smallest block.
pub const MIN_BLOCK: usize = 8;

/// Types whose every bit pattern is a valid value, made of 64-bit atomics only: the arena's
/// blocks hold them, and a block read by a stale reader, linked into a free list or given back
/// to the kernel (zeroes) still holds one.
///
/// # Safety
/// Implement only for `AtomicU64`, `AtomicI64`, arrays of `Words`, and (through [`words!`])
/// `repr(C)` structs whose fields are all `Words`.
pub unsafe trait Words: Sync + 'static {}
// SAFETY: a 64-bit atomic integer is valid for every bit pattern of its 8 bytes.
unsafe impl Words for AtomicU64 {}
// SAFETY: as above.
unsafe impl Words for AtomicI64 {}
// SAFETY: an array's bytes are its elements' bytes, each valid for every bit pattern.
unsafe impl<T: Words, const N: usize> Words for [T; N] {}

/// Declares a `repr(C)` struct [`Words`] once the compiler has checked that the field list is
/// the whole list and every field is `Words`: `words!(Bucket { head, word, meta })`.
#[macro_export]
macro_rules! words {
    ($ty:ident { $($field:ident),+ $(,)? }) => {
        const _: () = {
            #[allow(dead_code)]
            fn every_field_is_words(value: &$ty) {
                let $ty { $($field),+ } = value;
                $($crate::primitives::arena::require_words($field);)+
            }
            // A struct of 64-bit words has no padding: its size is 8 per field.
            assert!(::std::mem::size_of::<$ty>() == 8 * [$(stringify!($field)),+].len());
        };
        // SAFETY: every field is `Words` (checked above for the whole field list), and the
        // struct has no padding (its size is the sum of its 8-byte fields).
        #[allow(unsafe_code)]
        unsafe impl $crate::primitives::arena::Words for $ty {}
    };
}
pub use crate::words;

/// Compiles only for a reference to a [`Words`] value.
pub const fn require_words<T: Words>(_: &T) {}

/// The class of a block of `bytes` bytes, and that class's size: classes go 8, 16, 24, 32,
/// 48, 64, 96, ... (`2^k` and `3 * 2^(k-1)`).
pub fn class_of(bytes: usize) -> Option<(usize, usize)> {
    let bytes = bytes.max(MIN_BLOCK);
    let mut size = MIN_BLOCK;
    let mut class = 0;
    loop {
        if size >= bytes {
            return Some((class, size));
        }
        // 2^k -> 3 * 2^(k-1) -> 2^(k+1)
        size = if size.is_power_of_two() && size > MIN_BLOCK {
            size / 2 * 3
        } else if size.is_power_of_two() {
            size * 2
        } else {
            size / 3 * 4
        };
        class += 1;
        if class >= CLASSES {
            return None;
        }
    }
}

/// Classes: up to blocks of 2^40 bytes.
const CLASSES: usize = 72;

/// One region: its address range and, per span, its bookkeeping.
struct Region {
    base: usize,
    len: usize,
    /// Bytes handed out to spans so far (from `base`).
    carved: usize,
    spans: Vec<SpanInfo>,
}

/// A span's bookkeeping (a large block's is its first span's). Free blocks are linked through
/// their first word by offset; blocks never handed out since the span was last given back
/// come from `fresh` upward.
#[derive(Clone, Copy, Default)]
struct SpanInfo {
    /// Free blocks in the span.
    free: u32,
    /// Offset + 1 of the first linked free block (0: none).
    head: u32,
    /// Offset of the first block not handed out since the span was carved or given back.
    fresh: u32,
    /// In its class's list of spans with free blocks.
    listed: bool,
    /// Next span (address) in that list; 0: none.
    next: usize,
    /// Wholly free and still resident (the one span per class kept back from the kernel).
    idle: bool,
}

struct State {
    /// Sorted by base address.
    regions: Vec<Region>,
    /// Per class: the first span (address) with free blocks, or 0.
    spans: [usize; CLASSES],
    /// Per class: spans wholly free but kept resident (at most one), so that a program that
    /// frees and makes one object over and over does not pay a system call and a page fault
    /// each time.
    idle: [u8; CLASSES],
    /// Allocations until one is refused (test hook; `u64::MAX`: never).
    refuse_in: u64,
}

/// Memory for the store: see the module documentation.
pub struct Arena {
    state: Mutex<State>,
    /// Bytes in blocks handed out and not freed (for tests and reports).
    in_use: AtomicUsize,
}

impl Default for Arena {
    fn default() -> Self {
        Self::new()
    }
}

/// A block of `n` values of `T`, handed out by an arena: `'static`, since blocks are never
/// unmapped (freeing hands it back to its class, which stale readers may still read).
pub struct Block<T: Words> {
    addr: usize,
    len: usize,
    _t: PhantomData<&'static [T]>,
}

impl<T: Words> Clone for Block<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Words> Copy for Block<T> {}

impl<T: Words> Block<T> {
    /// The block's values.
    #[inline(always)]
    pub fn get(self) -> &'static [T] {
        // SAFETY: `addr` is the start of a block of at least `len * size_of::<T>()` bytes,
        // aligned to 8 (every class size is a multiple of 8 and spans are page-aligned), in a
        // mapping that is never unmapped; every bit pattern is a valid `T` (`T: Words`: made of
        // 64-bit atomics, so shared references to it may be used from any thread).
        unsafe { std::slice::from_raw_parts(self.addr as *const T, self.len) }
    }

    /// The block's address (for words that link blocks).
    #[inline(always)]
    pub fn addr(self) -> usize {
        self.addr
    }
}

/// The value at `addr`, an address handed out by [`Arena::alloc`] for a block of `T`s (or
/// one read back from a word that held such an address), or `None` for 0.
///
/// An address read by a lock-free reader may be stale, or even a free block's link: it still
/// points into the arena's mappings, which are never unmapped, at memory that is valid for
/// every bit pattern. The caller validates what it reads there before using it.
#[inline(always)]
pub fn at<T: Words>(addr: u64) -> Option<&'static T> {
    if addr == 0 {
        return None;
    }
    // SAFETY: a non-zero address the arena handed out for a `T` (or a stale one: see above),
    // aligned to 8, in a mapping never unmapped, where every bit pattern is a valid `T`.
    Some(unsafe { &*(addr as usize as *const T) })
}

/// `n` values of `T` at `addr` (see [`at`]).
#[inline(always)]
pub fn slice_at<T: Words>(addr: u64, n: usize) -> &'static [T] {
    // SAFETY: as for [`at`]: `addr` names a block of at least `n` `T`s handed out by the
    // arena, or a stale such address, in memory never unmapped and valid for every bit pattern.
    unsafe { std::slice::from_raw_parts(addr as usize as *const T, n) }
}

impl Arena {
    pub const fn new() -> Arena {
        Arena {
            state: Mutex::new(State {
                regions: Vec::new(),
                spans: [0; CLASSES],
                idle: [0; CLASSES],
                refuse_in: u64::MAX,
            }),
            in_use: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Refuses the `n`-th allocation from now (1: the next one); `None`: refuses none.
    pub fn refuse_nth(&self, n: Option<u64>) {
        self.lock().refuse_in = n.map_or(u64::MAX, |n| n.max(1));
    }

    /// Bytes of the arena's mappings resident in memory now (`mincore`), with the bytes
    /// mapped: what the arena costs the process, whatever else it allocates.
    pub fn resident(&self) -> (usize, usize) {
        let st = self.lock();
        let (mut resident, mut mapped) = (0, 0);
        let mut pages = Vec::new();
        for r in &st.regions {
            mapped += r.len;
            let n = r.carved.div_ceil(4096);
            pages.clear();
            pages.resize(n, 0u8);
            // SAFETY: the range is (the carved start of) one of this arena's mappings; mincore
            // only writes one byte per page into `pages`, which has that many.
            let rc =
                unsafe { libc::mincore(r.base as *mut libc::c_void, r.carved, pages.as_mut_ptr()) };
            if rc == 0 {
                resident += pages.iter().filter(|&&p| p & 1 != 0).count() * 4096;
            }
        }
        (resident, mapped)
    }

    /// Bytes in blocks handed out and not freed.
    pub fn in_use(&self) -> usize {
        self.in_use.load(Ordering::Relaxed)
    }

    /// A block of `n` zeroed or stale values of `T` (a reused block holds what its last user
    /// left there: callers initialise what they read), or `None` when memory runs out.
    pub fn alloc<T: Words>(&self, n: usize) -> Option<Block<T>> {
        let bytes = n.checked_mul(std::mem::size_of::<T>())?.max(1);
        let (class, size) = class_of(bytes)?;
        let mut st = self.lock();
        if st.refuse_in != u64::MAX {
            st.refuse_in -= 1;
            if st.refuse_in == 0 {
                st.refuse_in = u64::MAX;
                return None;
            }
        }
        let addr = match st.pop(class, size) {
            Some(a) => a,
            None => {
                st.carve(class, size)?;
                st.pop(class, size)?
            }
        };
        drop(st);
        self.in_use.fetch_add(size, Ordering::Relaxed);
        Some(Block {
            addr,
            len: n,
            _t: PhantomData,
        })
    }

    /// Hands a block back to its class. Its memory may still be read by stale readers; it is
    /// given back to the kernel when its whole span is free (or, for a large block, at once).
    pub fn free<T: Words>(&self, block: Block<T>) {
        self.free_at::<T>(block.addr, block.len);
    }

    /// [`Arena::free`] of the block of `n` `T`s at `addr` (an address [`Block::addr`] gave).
    /// An address outside the arena's regions is ignored, so this cannot write anywhere else.
    pub fn free_at<T: Words>(&self, addr: usize, n: usize) {
        let bytes = (n * std::mem::size_of::<T>()).max(1);
        let Some((class, size)) = class_of(bytes) else {
            return;
        };
        if addr == 0 || !addr.is_multiple_of(8) {
            return;
        }
        if self.lock().push(class, size, addr) {
            self.in_use.fetch_sub(size, Ordering::Relaxed);
        }
    }
}

impl Arena {
    /// Gives the pages of a block still handed out (`n` `T`s at `addr`) back to the kernel: it
    /// stays its owner's and readable, reads as zeroes (a valid `T`, `T: Words`) and takes no
    /// memory until written again. For a block its owner keeps published but empty (the
    /// store's directory pages), where freeing it would let a stale reader meet another
    /// block's free-list link. A range that is not whole pages inside one region is left
    /// alone.
    pub fn zero_pages_at<T: Words>(&self, addr: usize, n: usize) {
        let len = n * std::mem::size_of::<T>();
        let page = 4096;
        if len == 0 || !addr.is_multiple_of(page) || !len.is_multiple_of(page) {
            return;
        }
        let inside = self
            .lock()
            .regions
            .iter()
            .any(|r| addr >= r.base && addr + len <= r.base + r.carved);
        if inside {
            give_back(addr, len);
        }
    }
}

/// The block's first word, which links free blocks.
fn link(addr: usize) -> &'static AtomicU64 {
    // SAFETY: `addr` is a block of at least 8 bytes, 8-aligned, in a mapping never unmapped;
    // its first word is a 64-bit atomic in every type the arena holds (`Words`).
    unsafe { &*(addr as *const AtomicU64) }
}

/// Blocks of `size` bytes in a span (a large block is the only one in its run).
fn blocks(size: usize) -> u32 {
    (SPAN / size).max(1) as u32
}

impl State {
    fn span(&mut self, span: usize) -> Option<&mut SpanInfo> {
        let i = self
            .regions
            .partition_point(|r| r.base <= span)
            .checked_sub(1)?;
        let r = &mut self.regions[i];
        (span < r.base + r.len).then(|| &mut r.spans[(span - r.base) / SPAN])
    }

    fn pop(&mut self, class: usize, size: usize) -> Option<usize> {
        loop {
            let span = self.spans[class];
            if span == 0 {
                return None;
            }
            let s = self.span(span)?;
            if s.free == 0 {
                s.listed = false;
                let next = s.next;
                self.spans[class] = next;
                continue;
            }
            s.free -= 1;
            let was_idle = std::mem::take(&mut s.idle);
            let addr = if s.head != 0 {
                let addr = span + s.head as usize - 1;
                s.head = link(addr).load(Ordering::Relaxed) as u32;
                link(addr).store(0, Ordering::Relaxed);
                addr
            } else {
                let addr = span + s.fresh as usize;
                if s.fresh == 0 && size < SPAN {
                    // The span's first block since it was carved or given back: its pages
                    // are faulted in at once, one system call instead of a page fault per 4 KiB
                    // on the first use of objects (a first set_attr paid 40% of its time in
                    // page faults).
                    populate(span, SPAN);
                }
                s.fresh += size.min(SPAN) as u32;
                addr
            };
            if was_idle {
                self.idle[class] -= 1;
            }
            return Some(addr);
        }
    }

    /// Links a freed block into its span; false when `addr` is not in this arena.
    fn push(&mut self, class: usize, size: usize, addr: usize) -> bool {
        let span = if size >= SPAN {
            addr
        } else {
            addr / SPAN * SPAN
        };
        let head = self.spans[class];
        let keep = self.idle[class] == 0;
        let Some(s) = self.span(span) else {
            return false;
        };
        link(addr).store(s.head as u64, Ordering::Relaxed);
        s.head = (addr - span + 1) as u32;
        s.free += 1;
        let listed = s.listed;
        let mut kept = false;
        if s.free == blocks(size) {
            if keep {
                s.idle = true;
                kept = true;
            } else {
                // Every block free: the pages go back, and the blocks come fresh from the start.
                s.head = 0;
                s.fresh = 0;
                give_back(span, size.max(SPAN));
            }
        }
        if !listed {
            s.listed = true;
            s.next = head;
            self.spans[class] = span;
        }
        if kept {
            self.idle[class] = 1;
        }
        true
    }

    /// Fresh memory for `class`: a span (a run of spans for large classes), listed with all its
    /// blocks free.
    fn carve(&mut self, class: usize, size: usize) -> Option<()> {
        let want = size.div_ceil(SPAN) * SPAN;
        let i = match self.regions.iter().position(|r| r.len - r.carved >= want) {
            Some(i) => i,
            None => self.new_region(want)?,
        };
        let r = &mut self.regions[i];
        let start = r.base + r.carved;
        r.carved += want;
        let head = self.spans[class];
        let s = self.span(start)?;
        *s = SpanInfo {
            free: blocks(size),
            head: 0,
            fresh: 0,
            listed: true,
            next: head,
            idle: false,
        };
        self.spans[class] = start;
        Some(())
    }

    /// Maps a region of at least `want` bytes; returns its index.
    fn new_region(&mut self, want: usize) -> Option<usize> {
        self.regions.try_reserve(1).ok()?;
        let mut len = REGION.max(want);
        let base = loop {
            if let Some(base) = map(len) {
                break base;
            }
            if len / 2 < MIN_REGION.max(want) {
                return None;
            }
            len /= 2;
        };
        let mut spans = Vec::new();
        if spans.try_reserve_exact(len / SPAN).is_err() {
            unmap(base, len);
            return None;
        }
        spans.resize(len / SPAN, SpanInfo::default());
        let i = self.regions.partition_point(|r| r.base < base);
        self.regions.insert(
            i,
            Region {
                base,
                len,
                carved: 0,
                spans,
            },
        );
        Some(i)
    }
}

/// A fresh private anonymous mapping of `len` bytes starting on a span boundary, readable and
/// writable, zero-filled.
fn map(len: usize) -> Option<usize> {
    let p = map_any(len + SPAN)?;
    let base = p.next_multiple_of(SPAN);
    if base > p {
        unmap(p, base - p);
    }
    if p + SPAN > base {
        unmap(base + len, p + SPAN - base);
    }
    Some(base)
}

/// A fresh private anonymous mapping of `len` bytes (page-aligned).
fn map_any(len: usize) -> Option<usize> {
    // SAFETY: asks for new memory at an address the kernel chooses; touches nothing existing.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    (p != libc::MAP_FAILED).then_some(p as usize)
}

/// Undoes (part of) a mapping that was never handed out.
fn unmap(base: usize, len: usize) {
    // SAFETY: `base..base + len` is a mapping this module made and handed to no one.
    unsafe { libc::munmap(base as *mut libc::c_void, len) };
}

/// Faults in the pages of `addr..addr + len` (zeroes, as they read already) where the kernel
/// can (`MADV_POPULATE_WRITE`, Linux 5.14); elsewhere, or when it fails, nothing happens and
/// the pages come on first use as before.
fn populate(addr: usize, len: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: the range is page-aligned memory of one of this module's mappings (a span);
    // populating writes no byte a program can see (the pages stay zeroes) and only makes
    // them resident.
    unsafe {
        const MADV_POPULATE_WRITE: libc::c_int = 23;
        libc::madvise(addr as *mut libc::c_void, len, MADV_POPULATE_WRITE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (addr, len);
}

/// Gives pages back to the kernel: they read as zeroes afterwards and take no memory until
/// written. Only whole pages inside `addr..addr + len` (span-aligned here) are given back.
fn give_back(addr: usize, len: usize) {
    // SAFETY: the range is page-aligned memory of one of this module's mappings, in free
    // blocks: what readers may still load there becomes zeroes, a valid value of every `Words`
    // type; the mapping itself stays.
    unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_DONTNEED) };
}

#[cfg(test)]
mod tests;
