//! The attributes of one object: its slots, their occupancy and counts, bulk copy and removal.

use super::slot::{callbacks_of_meta, pack, provenance_of, Entry, Page, Slot, DYING, PAGE};
use crate::caching::callback::Callbacks;
use crate::caching::convert::{AttrRead, AttrWord};
use crate::caching::keyval::number::SLOTS;
use crate::primitives::once_ptr::OncePtr;
use crate::primitives::zeroed::{zeroable, zeroed_pages};
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering};

/// Pages held inline by each object: keyval slots below `PAGE * INLINE_PAGES` need no second
/// level.
pub(super) const INLINE_PAGES: usize = 256;
/// The pages for the other keyval slots a number can name, made when first needed.
const MORE_PAGES: usize = SLOTS / PAGE - INLINE_PAGES;

/// A table whose length the compiler knows, for the lookups on the read path.
fn new_fixed<T, const N: usize>(make: impl FnMut(usize) -> T) -> Box<[T; N]> {
    match (0..N).map(make).collect::<Box<[T]>>().try_into() {
        Ok(chunk) => chunk,
        Err(_) => unreachable!("the table has N entries"),
    }
}

/// Counts kept per object (changed only under the engine's lock), so that a dup or a free
/// knows in one load whether user code has to run.
#[derive(Default)]
pub(super) struct Counts {
    pub(super) len: AtomicU32,
    pub(super) copy_user: AtomicU32,
    pub(super) delete_user: AtomicU32,
    pub(super) dying: AtomicU32,
}

/// Only holders of the engine's lock change counts and occupancy bits, so a load and a store
/// do (no read-modify-write).
pub(super) fn bump(c: &AtomicU32, by: i64) {
    c.store(
        (c.load(Ordering::Relaxed) as i64 + by) as u32,
        Ordering::Relaxed,
    );
}

pub(super) fn set_bits(word: &AtomicU64, bits: u64, on: bool) {
    let old = word.load(Ordering::Relaxed);
    word.store(if on { old | bits } else { old & !bits }, Ordering::Relaxed);
}

impl Counts {
    /// Adds (`sign` 1) or takes away (`sign` -1) `n` attributes like `e`.
    pub(super) fn add(&self, e: &Entry, sign: i64, n: i64) {
        let by = sign * n;
        bump(&self.len, by);
        if e.callbacks.contains(Callbacks::COPY_USER) {
            bump(&self.copy_user, by);
        }
        if e.callbacks.contains(Callbacks::DELETE_USER) {
            bump(&self.delete_user, by);
        }
        if e.dying {
            bump(&self.dying, by);
        }
    }
}

/// The attributes of whatever object is bound to one handle index. Small fields first, then
/// the slots: an object whose attributes use low keyval slots takes one page of memory.
#[repr(C)]
pub struct ObjAttrs {
    /// The handle bound to this index now; 0 when none.
    pub(super) bound: AtomicI32,
    pub(super) counts: Counts,
    /// The next position in the order of setting.
    pub(super) next_order: AtomicU64,
    /// One past the highest page ever used: walks over the table stop there.
    pub(super) pages_made: AtomicU32,
    /// Pages for keyval slots past the inline ones, made when first needed.
    pub(super) more: OncePtr<[OncePtr<Page>; MORE_PAGES]>,
    /// Word `p`: which slots of `slots[p]` hold an attribute.
    pub(super) occupied: [AtomicU64; INLINE_PAGES],
    /// The first `INLINE_PAGES * PAGE` keyval slots in one flat array, so that a reader finds
    /// any of them with one multiply-add. It is large (384 KiB), but only the pages holding
    /// attributes take memory: the whole is fresh zeroed pages (see [`ObjAttrs::new`]).
    pub(super) slots: [[Slot; PAGE]; INLINE_PAGES],
}

zeroable!(Counts {
    len,
    copy_user,
    delete_user,
    dying,
});
zeroable!(ObjAttrs {
    bound,
    counts,
    next_order,
    pages_made,
    more,
    occupied,
    slots,
});

/// One page of an object's slots, wherever it lives: in the object or made later.
#[derive(Clone, Copy)]
pub(super) struct PageRef<'a> {
    /// Bit `i`: slot `i` holds an attribute.
    pub(super) occupied: &'a AtomicU64,
    pub(super) slots: &'a [Slot; PAGE],
}

impl<'a> From<&'a Page> for PageRef<'a> {
    fn from(page: &'a Page) -> PageRef<'a> {
        PageRef {
            occupied: &page.occupied,
            slots: &page.slots,
        }
    }
}

impl ObjAttrs {
    /// New attributes, in pages of their own (kept for the rest of the process, as every
    /// [`ObjAttrs`] is).
    pub(super) fn new() -> &'static ObjAttrs {
        let a: &'static ObjAttrs = zeroed_pages();
        a.next_order.store(1, Ordering::Relaxed);
        a
    }

    #[inline(always)]
    pub(super) fn page(&self, p: usize) -> Option<PageRef<'_>> {
        match self.slots.get(p) {
            Some(slots) => Some(PageRef {
                occupied: &self.occupied[p],
                slots,
            }),
            None => Some(self.more.get()?.get(p - INLINE_PAGES)?.get()?.into()),
        }
    }

    pub(super) fn page_or_create(&self, p: usize) -> PageRef<'_> {
        if p as u32 >= self.pages_made.load(Ordering::Relaxed) {
            self.pages_made.store(p as u32 + 1, Ordering::Relaxed);
        }
        if let Some(page) = self.page(p) {
            return page;
        }
        let more = self.more.get_or_init(|| new_fixed(|_| OncePtr::new()));
        more[p - INLINE_PAGES]
            .get_or_init(|| Box::new(Page::new()))
            .into()
    }

    #[inline(always)]
    pub(super) fn slot(&self, slot: u32) -> Option<&Slot> {
        let slot = slot as usize;
        Some(&self.page(slot / PAGE)?.slots[slot % PAGE])
    }

    pub fn len(&self) -> usize {
        self.counts.len.load(Ordering::Relaxed) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether some attribute has a user copy callback (a dup must then run them in order).
    pub fn has_copy_callbacks(&self) -> bool {
        self.counts.copy_user.load(Ordering::Relaxed) != 0
    }

    /// Whether emptying the object runs no user code: no delete callback, no deletion under
    /// way.
    pub fn deletes_silently(&self) -> bool {
        self.counts.delete_user.load(Ordering::Relaxed) == 0
            && self.counts.dying.load(Ordering::Relaxed) == 0
    }

    /// The attribute in `slot`, if any.
    pub fn entry(&self, slot: u32) -> Option<Entry> {
        self.slot(slot)?.entry()
    }

    /// The attribute in `slot` as a reader gets it.
    pub fn read(&self, slot: u32) -> Option<AttrRead> {
        self.entry(slot).map(|e| self.read_of(slot, &e))
    }

    /// What a reader gets of `e`, read from `slot`.
    pub fn read_of(&self, slot: u32, e: &Entry) -> AttrRead {
        AttrRead {
            value: e.value,
            c_view: self.slot(slot).map_or(e.value.word as usize, |s| {
                s.c_view(e.value.word, e.value.provenance)
            }),
        }
    }

    /// Whether `slot` holds exactly the instance set at `order`.
    pub fn holds(&self, slot: u32, order: u64) -> bool {
        self.entry(slot).is_some_and(|e| e.order == order)
    }

    /// A new position in the order of setting.
    pub fn next_order(&self) -> u64 {
        self.next_order.fetch_add(1, Ordering::Relaxed)
    }

    /// Puts an attribute in `slot` as the latest setting, replacing what was there; returns
    /// whether the slot was empty.
    pub fn insert(&self, slot: u32, keyval: i32, value: AttrWord, callbacks: Callbacks) -> bool {
        let page = self.page_or_create(slot as usize / PAGE);
        let i = slot as usize % PAGE;
        let s = &page.slots[i];
        let old = s.entry();
        let order = self.next_order();
        s.write(keyval, value, pack(value, callbacks, order, false));
        if let Some(old) = &old {
            self.counts.add(old, -1, 1);
        }
        let new = Entry {
            keyval,
            value,
            callbacks,
            order,
            dying: false,
        };
        self.counts.add(&new, 1, 1);
        set_bits(page.occupied, 1 << i, true);
        old.is_none()
    }

    /// Empties `slot`; returns what was there.
    pub fn remove(&self, slot: u32) -> Option<Entry> {
        let page = self.page(slot as usize / PAGE)?;
        let i = slot as usize % PAGE;
        let old = page.slots[i].entry()?;
        page.slots[i].clear();
        set_bits(page.occupied, 1 << i, false);
        self.counts.add(&old, -1, 1);
        Some(old)
    }

    /// Marks or unmarks the attribute in `slot` as dying.
    pub fn set_dying(&self, slot: u32, dying: bool) {
        let Some(s) = self.slot(slot) else { return };
        let seq = s.claim();
        let meta = s.meta.load(Ordering::Relaxed);
        let was = meta & DYING != 0;
        if s.keyval.load(Ordering::Relaxed) != 0 && was != dying {
            let meta = if dying { meta | DYING } else { meta & !DYING };
            s.meta.store(meta, Ordering::Relaxed);
            bump(&self.counts.dying, if dying { 1 } else { -1 });
        }
        s.release(seq, s.meta.load(Ordering::Relaxed));
    }

    /// Shows `f` every attribute in slot order.
    pub(super) fn visit(&self, mut f: impl FnMut(&Slot, u32, Entry)) {
        let mut p = 0;
        while let Some((page, mut bits)) = self.next_page(&mut p) {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let s = &page.slots[i];
                if let Some(e) = s.entry() {
                    f(s, ((p - 1) * PAGE + i) as u32, e);
                }
            }
        }
    }

    /// Every attribute in order of setting: `(slot, entry)`.
    pub fn in_setting_order(&self) -> Vec<(u32, Entry)> {
        let mut v = Vec::with_capacity(self.len());
        self.visit(|_, slot, e| v.push((slot, e)));
        v.sort_unstable_by_key(|(_, e)| e.order);
        v
    }

    /// The next page in use at or after `*p` and its occupied slots, advancing `*p` past it.
    pub(super) fn next_page(&self, p: &mut usize) -> Option<(PageRef<'_>, u64)> {
        let last = self.pages_made.load(Ordering::Relaxed) as usize;
        while *p < last {
            let page = self.page(*p);
            *p += 1;
            if let Some(page) = page {
                let bits = page.occupied.load(Ordering::Relaxed);
                if bits != 0 {
                    return Some((page, bits));
                }
            }
        }
        None
    }

    /// Copies the attributes of `from` whose keyval copies natively (`*_DUP_FN`) into this
    /// object, which must be new and empty, keeping slots and order of setting; `admit` is
    /// asked for each keyval slot and number first. One pass over the pages in use.
    pub fn copy_from(&self, from: &ObjAttrs, mut admit: impl FnMut(u32, i32) -> bool) {
        debug_assert!(self.is_empty(), "copy into an object with attributes");
        let (mut len, mut delete_user) = (0, 0);
        let mut p = 0;
        while let Some((src, mut bits)) = from.next_page(&mut p) {
            let page_index = p - 1;
            let mut dst: Option<PageRef> = None;
            let mut added = 0u64;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // The raw words: value, provenance, callbacks and order move as they are.
                let (keyval, word, meta) = src.slots[i].read(|k, w, m| (k, w, m));
                let callbacks = callbacks_of_meta(meta);
                let slot = (page_index * PAGE + i) as u32;
                if keyval == 0 || !callbacks.contains(Callbacks::COPY_DUP) || !admit(slot, keyval) {
                    continue;
                }
                let d = *dst.get_or_insert_with(|| self.page_or_create(page_index));
                let value = AttrWord {
                    word,
                    provenance: provenance_of(meta),
                };
                d.slots[i].write_unshared(keyval, value, meta & !DYING);
                added |= 1 << i;
                len += 1;
                delete_user += callbacks.contains(Callbacks::DELETE_USER) as i64;
            }
            if let Some(d) = dst {
                set_bits(d.occupied, added, true);
            }
        }
        bump(&self.counts.len, len);
        bump(&self.counts.delete_user, delete_user);
        self.next_order
            .fetch_max(from.next_order.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// Empties every slot; `removed` is told each keyval slot emptied.
    pub fn remove_all(&self, mut removed: impl FnMut(u32)) {
        let mut p = 0;
        while let Some((page, mut bits)) = self.next_page(&mut p) {
            let page_index = p - 1;
            page.occupied.store(0, Ordering::Relaxed);
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                page.slots[i].clear();
                removed((page_index * PAGE + i) as u32);
            }
        }
        for c in [
            &self.counts.len,
            &self.counts.copy_user,
            &self.counts.delete_user,
            &self.counts.dying,
        ] {
            c.store(0, Ordering::Relaxed);
        }
    }
}
