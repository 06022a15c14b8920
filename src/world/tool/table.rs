//! The tool interface's handle tables and its return codes: the leaf the rest of the
//! interface builds on (world/tool/mod.rs says how handles are made).

use crate::consts::*;

/// A tool routine's outcome: its return code on failure.
pub type TResult<T> = std::result::Result<T, i32>;

const SLOT_BITS: u32 = 20;

/// A table of tool handles of one kind.
pub struct Table<T> {
    slots: Vec<(u16, Option<T>)>,
}

impl<T> Table<T> {
    pub(super) const fn new() -> Self {
        Table { slots: Vec::new() }
    }

    pub(super) fn insert(&mut self, value: T) -> TResult<i32> {
        let i = match self.slots.iter().position(|(_, v)| v.is_none()) {
            Some(i) => i,
            None => {
                if self.slots.len() + 2 >= 1 << SLOT_BITS {
                    return Err(MPI_T_ERR_OUT_OF_HANDLES);
                }
                self.slots.try_reserve(1).map_err(|_| MPI_T_ERR_MEMORY)?;
                self.slots.push((0, None));
                self.slots.len() - 1
            }
        };
        let slot = &mut self.slots[i];
        slot.1 = Some(value);
        Ok((i32::from(slot.0) << SLOT_BITS) | (i as i32 + 2))
    }

    fn index(&self, h: i32) -> Option<usize> {
        let i = usize::try_from((h & ((1 << SLOT_BITS) - 1)) - 2).ok()?;
        let gen = (h >> SLOT_BITS) as u16;
        (h > 1
            && self
                .slots
                .get(i)
                .is_some_and(|(g, v)| *g == gen && v.is_some()))
        .then_some(i)
    }

    pub fn get(&self, h: i32) -> TResult<&T> {
        let i = self.index(h).ok_or(MPI_T_ERR_INVALID_HANDLE)?;
        self.slots[i].1.as_ref().ok_or(MPI_T_ERR_INVALID_HANDLE)
    }

    pub fn get_mut(&mut self, h: i32) -> TResult<&mut T> {
        let i = self.index(h).ok_or(MPI_T_ERR_INVALID_HANDLE)?;
        self.slots[i].1.as_mut().ok_or(MPI_T_ERR_INVALID_HANDLE)
    }

    pub(super) fn remove(&mut self, h: i32) -> TResult<T> {
        let i = self.index(h).ok_or(MPI_T_ERR_INVALID_HANDLE)?;
        let slot = &mut self.slots[i];
        // Generations stay below 2^11, so a handle stays a positive int.
        slot.0 = (slot.0 + 1) & 0x7ff;
        slot.1.take().ok_or(MPI_T_ERR_INVALID_HANDLE)
    }

    pub(super) fn clear(&mut self) {
        for slot in &mut self.slots {
            if slot.1.take().is_some() {
                slot.0 = (slot.0 + 1) & 0x7ff;
            }
        }
    }

    pub(super) fn handles(&self) -> Vec<i32> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, (_, v))| v.is_some())
            .map(|(i, (g, _))| (i32::from(*g) << SLOT_BITS) | (i as i32 + 2))
            .collect()
    }
}

/// A variable, category, event or source index, checked against `n`.
pub fn index(i: i32, n: usize) -> TResult<usize> {
    usize::try_from(i)
        .ok()
        .filter(|&i| i < n)
        .ok_or(MPI_T_ERR_INVALID_INDEX)
}

/// The index of the item named `name` among `names`.
pub fn find<'a>(names: impl Iterator<Item = &'a str>, name: &str) -> TResult<i32> {
    names
        .enumerate()
        .find(|(_, n)| *n == name)
        .map(|(i, _)| i as i32)
        .ok_or(MPI_T_ERR_INVALID_NAME)
}
