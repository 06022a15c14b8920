//! The attributes cached on one object.
//!
//! Slots are indexed by the keyval's slot number, so a lookup is one bounds check and one load
//! whatever the number of attributes. Each attribute remembers when it was set, for the
//! reverse-order deletion at free and finalize, and whether its delete callback is running.

use crate::core::convert::{AttrWord, Provenance};
use crate::core::keyval::KeyvalInfo;
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU8, Ordering};
use std::sync::Arc;

/// One attribute instance. Its storage does not move while the attribute exists, because C
/// readers of Fortran-set values are handed pointers into it.
#[derive(Debug)]
pub struct AttrCell {
    /// The word (an `MPI_Aint` to C readers of `FortranAddress` values).
    word: AtomicI64,
    /// The low INTEGER of the word (an `int` to C readers of `FortranInteger` values).
    int: AtomicI32,
    provenance: AtomicU8,
    pub keyval: Arc<KeyvalInfo>,
}

impl AttrCell {
    pub fn new(value: AttrWord, keyval: Arc<KeyvalInfo>) -> AttrCell {
        AttrCell {
            word: AtomicI64::new(value.word),
            int: AtomicI32::new(value.word as i32),
            provenance: AtomicU8::new(provenance_code(value.provenance)),
            keyval,
        }
    }

    pub fn value(&self) -> AttrWord {
        AttrWord {
            word: self.word.load(Ordering::Relaxed),
            provenance: provenance_of(self.provenance.load(Ordering::Relaxed)),
        }
    }

    /// Changes the value in place: only predefined attributes whose value moves
    /// (`MPI_LASTUSEDCODE`) do this, so pointers handed out earlier see the new value.
    pub fn update(&self, word: i64) {
        self.word.store(word, Ordering::Relaxed);
        self.int.store(word as i32, Ordering::Relaxed);
    }

    /// Overwrites the value in place, provenance included (an overwrite whose keyval has no
    /// delete callback: nothing observes the old instance, and pointers handed out for the old
    /// value were valid only until this change, MPI 4.1 §20.3.7). Writers hold the lock.
    pub fn overwrite(&self, value: AttrWord) {
        self.word.store(value.word, Ordering::Relaxed);
        self.int.store(value.word as i32, Ordering::Relaxed);
        self.provenance
            .store(provenance_code(value.provenance), Ordering::Relaxed);
    }

    /// What a C reader receives (see [`AttrWord::c_view`]).
    pub fn c_view(&self) -> usize {
        self.value()
            .c_view(self.word.as_ptr() as usize, self.int.as_ptr() as usize)
    }
}

/// An attribute in a table.
#[derive(Debug, Clone)]
pub struct Entry {
    pub cell: Arc<AttrCell>,
    /// Position in the global order of setting.
    pub seq: u64,
    /// Its delete callback is running; it stays readable until the callback succeeds.
    pub dying: bool,
}

/// The attributes of one communicator, datatype or window.
#[derive(Debug, Default)]
pub struct AttrTable {
    slots: Vec<Option<Entry>>,
    len: usize,
}

impl AttrTable {
    pub const fn new() -> AttrTable {
        AttrTable {
            slots: Vec::new(),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, slot: u32) -> Option<&Entry> {
        self.slots.get(slot as usize).and_then(Option::as_ref)
    }

    pub fn get_mut(&mut self, slot: u32) -> Option<&mut Entry> {
        self.slots.get_mut(slot as usize).and_then(Option::as_mut)
    }

    /// Whether `slot` holds exactly this instance.
    pub fn holds(&self, slot: u32, cell: &Arc<AttrCell>) -> bool {
        self.get(slot).is_some_and(|e| Arc::ptr_eq(&e.cell, cell))
    }

    /// Puts an entry in `slot` and returns what was there.
    pub fn insert(&mut self, slot: u32, entry: Entry) -> Option<Entry> {
        let i = slot as usize;
        if i >= self.slots.len() {
            self.slots.resize_with(i + 1, || None);
        }
        let old = self.slots[i].replace(entry);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    pub fn remove(&mut self, slot: u32) -> Option<Entry> {
        let old = self.slots.get_mut(slot as usize).and_then(Option::take);
        if old.is_some() {
            self.len -= 1;
        }
        old
    }

    /// All entries in order of setting: `(slot, entry)`.
    pub fn in_setting_order(&self) -> Vec<(u32, Entry)> {
        let mut v: Vec<(u32, Entry)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (i as u32, e.clone())))
            .collect();
        v.sort_by_key(|(_, e)| e.seq);
        v
    }
}

pub(crate) fn provenance_code(p: Provenance) -> u8 {
    match p {
        Provenance::CPointer => 0,
        Provenance::FortranAddress => 1,
        Provenance::FortranInteger => 2,
    }
}

pub(crate) fn provenance_of(code: u8) -> Provenance {
    match code {
        0 => Provenance::CPointer,
        1 => Provenance::FortranAddress,
        _ => Provenance::FortranInteger,
    }
}
