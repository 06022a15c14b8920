//! Windows as the world keeps them (the operations: `world::window`).

use crate::caching::convert::AttrWord;
use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::attr_cell::AttrCell;
use crate::world::handle::Handle;
use std::sync::Arc;

/// `MPI_BOTTOM`: the base of a dynamic window.
pub(crate) const MPI_BOTTOM: usize = 0;

/// Bytes per word of the memory handed out (the alignment of every base address).
pub(crate) const WORD: usize = std::mem::size_of::<u128>();

pub struct Window {
    pub name: String,
    pub errhandler: Handle,
    /// `MPI_WIN_BASE` ... `MPI_WIN_MODEL`, by keyval; fixed for the window's life.
    pub predefined: Vec<(i32, Arc<AttrCell>)>,
    /// World ranks of the group of the communicator the window was created on, in rank order
    /// (`MPI_Win_get_group`; the communicator may be freed before the window).
    pub members: Vec<i32>,
    pub base: usize,
    pub size: i64,
    pub disp_unit: i32,
    /// `MPI_WIN_FLAVOR_CREATE`, `_ALLOCATE` or `_DYNAMIC`.
    pub flavor: i32,
    /// The memory of an `MPI_Win_allocate` window (empty for the other flavors).
    pub(crate) memory: Vec<u128>,
    /// Memory attached to a dynamic window (`MPI_Win_attach`): (base, size).
    pub attached: Vec<(usize, i64)>,
    /// Synchronisation epochs and info hints of one-sided communication (`world::rma`).
    pub rma: crate::world::objects::rma::RmaState,
}

impl std::fmt::Debug for Window {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Window")
            .field("name", &self.name)
            .field("errhandler", &self.errhandler)
            .field("members", &self.members)
            .field("base", &format_args!("{:#x}", self.base))
            .field("size", &self.size)
            .field("disp_unit", &self.disp_unit)
            .field("flavor", &self.flavor)
            .field("memory_words", &self.memory.len())
            .finish_non_exhaustive()
    }
}

impl Window {
    pub(crate) fn new(
        members: Vec<i32>,
        base: usize,
        size: i64,
        disp_unit: i32,
        flavor: i32,
        memory: Vec<u128>,
    ) -> Window {
        let cell = |keyval: i32, value: AttrWord| (keyval, Arc::new(AttrCell::new(value)));
        let predefined = vec![
            // MPI 4.1 §12.2.6 / §20.3.7: MPI_WIN_BASE as if set from C: C gets the base itself.
            cell(MPI_WIN_BASE, AttrWord::from_c_pointer(base)),
            // MPI_WIN_SIZE as if set by Fortran MPI_WIN_SET_ATTR: C gets an MPI_Aint*.
            cell(MPI_WIN_SIZE, AttrWord::from_fortran_address(size)),
            // The integer-valued ones as if put by MPI_ATTR_PUT: C gets an int*.
            cell(MPI_WIN_DISP_UNIT, AttrWord::from_fortran_integer(disp_unit)),
            cell(
                MPI_WIN_CREATE_FLAVOR,
                AttrWord::from_fortran_integer(flavor),
            ),
            cell(
                MPI_WIN_MODEL,
                AttrWord::from_fortran_integer(MPI_WIN_UNIFIED),
            ),
        ];
        Window {
            name: String::new(),
            // MPI 4.1 §9.3: windows start with MPI_ERRORS_ARE_FATAL.
            errhandler: Handle(MPI_ERRORS_ARE_FATAL),
            predefined,
            members,
            base,
            size,
            disp_unit,
            flavor,
            memory,
            attached: Vec::new(),
            rma: Default::default(),
        }
    }
}

/// Zero-filled, 16-byte aligned memory of at least `size` bytes. Never empty, so every block has
/// a real, distinct address even for size 0.
pub(crate) fn zeroed_memory(size: i64) -> Result<Vec<u128>> {
    let no_mem = || Error::invalid(MPI_ERR_NO_MEM, format!("cannot allocate {size} bytes"));
    let bytes = usize::try_from(size).map_err(|_| no_mem())?;
    let words = bytes.div_ceil(WORD).max(1);
    let mut v = Vec::new();
    v.try_reserve_exact(words).map_err(|_| no_mem())?;
    v.resize(words, 0u128);
    Ok(v)
}
