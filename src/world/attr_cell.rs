//! The predefined attributes (`MPI_TAG_UB`, `MPI_WIN_BASE`, ...): values the world sets, kept
//! outside the engine's attribute store because no user keyval names them (the engine asks for
//! them through `World::predefined_attr`).

use crate::caching::convert::{AttrRead, AttrWord, Provenance};
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU8, Ordering};

/// One predefined attribute. Its storage does not move while the object exists, because C
/// readers of integer-valued attributes are handed pointers into it.
#[derive(Debug)]
pub struct AttrCell {
    /// The word (an `MPI_Aint` to C readers of `FortranAddress` values).
    word: AtomicI64,
    /// The low INTEGER of the word (an `int` to C readers of `FortranInteger` values).
    int: AtomicI32,
    provenance: AtomicU8,
}

impl AttrCell {
    pub fn new(value: AttrWord) -> AttrCell {
        AttrCell {
            word: AtomicI64::new(value.word),
            int: AtomicI32::new(value.word as i32),
            provenance: AtomicU8::new(provenance_code(value.provenance)),
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

    /// What a C reader receives (see [`AttrWord::c_view`]).
    pub fn c_view(&self) -> usize {
        self.value()
            .c_view(self.word.as_ptr() as usize, self.int.as_ptr() as usize)
    }

    /// The value and what a C reader receives.
    pub fn read(&self) -> AttrRead {
        AttrRead {
            value: self.value(),
            c_view: self.c_view(),
        }
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
