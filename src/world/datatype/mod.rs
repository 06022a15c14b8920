//! Datatypes: the predefined ones and the derived ones of MPI 4.1 §5.1.
//!
//! A datatype's typemap is kept as a small tree (`Map`) that is flattened on demand into byte
//! blocks, so a constructor's memory is bounded by its array arguments, never by its counts
//! (`MPI_Type_contiguous(1 << 30, MPI_INT)` is one node). Bounds follow the standard's marker
//! rules (§5.1.7): a type made by `MPI_Type_create_resized` (or a subarray) has explicit, "sticky"
//! lower and upper bounds that every type built from it inherits; otherwise the bounds come from
//! the data, and a struct's extent is padded to the alignment of its most aligned basic type
//! (the ε of §5.1.6), as the C compiler lays out the struct the user describes.
//!
//! Caching: `type_dup` copies the attributes through the copy callbacks, `type_free` deletes them
//! (a failing delete callback leaves the type valid), and constructed types start with none.

mod basic;
mod contents;
pub mod external32;
mod f90;
pub(crate) mod layout;
pub mod predefined;
mod table;
#[cfg(test)]
mod tests;

pub use crate::world::objects::datatype::{Contents, Datatype, Decoded, Envelope, TypeRef};
pub use layout::Layout;
use layout::{
    add, check_blocklength, check_count, combine, contiguous, darray, darray_runs, hindexed,
    hvector, mul, resized, scale, subarray, Block,
};
pub use predefined::{check_op, install_predefined};

use crate::caching::ObjRef;
use crate::consts::*;
use crate::error::{Error, Result};
use crate::kinds::HandleKind;
use crate::primitives::alloc;
use crate::primitives::shared::Shared;
use crate::world::comm::truncate_name;
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;
use crate::world::state::State;

/// `[n, a..., b...]`: a count then the arrays, as §5.1.13 lists a constructor's integers.
fn counted(arrays: &[&[i64]]) -> Vec<i64> {
    let mut v = vec![arrays[0].len() as i64];
    for a in arrays {
        v.extend_from_slice(a);
    }
    v
}

impl State {
    fn layout_of(&self, h: Handle) -> Result<Layout> {
        Ok(self.types.get(h)?.layout.clone())
    }
}

impl Runtime {
    /// Builds a new derived type from old ones, all looked up under one lock.
    /// `contents` holds the constructor's integer and address arguments; the old types are
    /// added to it here.
    fn derive(
        &self,
        olds: &[Handle],
        combiner: i32,
        mut contents: Contents,
        build: impl FnOnce(&[Layout]) -> Result<Layout>,
    ) -> Result<Handle> {
        let mut st = self.active()?;
        let layouts = olds
            .iter()
            .map(|&h| st.layout_of(h))
            .collect::<Result<Vec<_>>>()?;
        let layout = build(&layouts)?;
        contents.types = olds
            .iter()
            .map(|&h| Self::type_ref(&st, h))
            .collect::<Result<Vec<_>>>()?;
        let mut t = Datatype::new(layout, combiner);
        t.contents = Some(Shared::try_new(contents)?);
        st.types.insert(t)
    }

    /// `MPI_Type_contiguous` (MPI 4.1 §5.1.2).
    pub fn type_contiguous(&self, count: i64, old: Handle) -> Result<Handle> {
        check_count(count)?;
        self.derive(
            &[old],
            MPI_COMBINER_CONTIGUOUS,
            Contents::new(vec![count], vec![]),
            |l| contiguous(count, &l[0]),
        )
    }

    /// `MPI_Type_vector`: the stride is in multiples of `old`'s extent.
    pub fn type_vector(
        &self,
        count: i64,
        blocklength: i64,
        stride: i64,
        old: Handle,
    ) -> Result<Handle> {
        check_count(count)?;
        self.derive(
            &[old],
            MPI_COMBINER_VECTOR,
            Contents::new(vec![count, blocklength, stride], vec![]),
            |l| hvector(count, blocklength, mul(stride, l[0].extent())?, &l[0]),
        )
    }

    /// `MPI_Type_create_hvector`: the stride is in bytes.
    pub fn type_create_hvector(
        &self,
        count: i64,
        blocklength: i64,
        stride: i64,
        old: Handle,
    ) -> Result<Handle> {
        check_count(count)?;
        self.derive(
            &[old],
            MPI_COMBINER_HVECTOR,
            Contents::new(vec![count, blocklength], vec![stride]),
            |l| hvector(count, blocklength, stride, &l[0]),
        )
    }

    /// `MPI_Type_indexed`: displacements in multiples of `old`'s extent.
    pub fn type_indexed(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        old: Handle,
    ) -> Result<Handle> {
        self.derive(
            &[old],
            MPI_COMBINER_INDEXED,
            Contents::new(counted(&[blocklengths, displacements]), vec![]),
            |l| hindexed(blocklengths, &scale(displacements, &l[0])?, &l[0]),
        )
    }

    /// `MPI_Type_create_hindexed`: displacements in bytes.
    pub fn type_create_hindexed(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        old: Handle,
    ) -> Result<Handle> {
        self.derive(
            &[old],
            MPI_COMBINER_HINDEXED,
            Contents::new(counted(&[blocklengths]), displacements.to_vec()),
            |l| hindexed(blocklengths, displacements, &l[0]),
        )
    }

    /// `MPI_Type_create_indexed_block`: one blocklength, displacements in extents.
    pub fn type_create_indexed_block(
        &self,
        blocklength: i64,
        displacements: &[i64],
        old: Handle,
    ) -> Result<Handle> {
        check_blocklength(blocklength)?;
        self.derive(
            &[old],
            MPI_COMBINER_INDEXED_BLOCK,
            Contents::new(
                [
                    &[displacements.len() as i64, blocklength][..],
                    displacements,
                ]
                .concat(),
                vec![],
            ),
            |l| {
                let bls = vec![blocklength; displacements.len()];
                hindexed(&bls, &scale(displacements, &l[0])?, &l[0])
            },
        )
    }

    /// `MPI_Type_create_hindexed_block`: one blocklength, displacements in bytes.
    pub fn type_create_hindexed_block(
        &self,
        blocklength: i64,
        displacements: &[i64],
        old: Handle,
    ) -> Result<Handle> {
        check_blocklength(blocklength)?;
        self.derive(
            &[old],
            MPI_COMBINER_HINDEXED_BLOCK,
            Contents::new(
                vec![displacements.len() as i64, blocklength],
                displacements.to_vec(),
            ),
            |l| {
                let bls = vec![blocklength; displacements.len()];
                hindexed(&bls, displacements, &l[0])
            },
        )
    }

    /// `MPI_Type_create_struct` (MPI 4.1 §5.1.2, bounds §5.1.6–§5.1.7).
    pub fn type_create_struct(
        &self,
        blocklengths: &[i64],
        displacements: &[i64],
        types: &[Handle],
    ) -> Result<Handle> {
        if blocklengths.len() != displacements.len() || blocklengths.len() != types.len() {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                "struct argument arrays differ in length",
            ));
        }
        self.derive(
            types,
            MPI_COMBINER_STRUCT,
            Contents::new(counted(&[blocklengths]), displacements.to_vec()),
            |l| {
                let blocks: Vec<Block<'_>> = blocklengths
                    .iter()
                    .zip(displacements)
                    .zip(l)
                    .map(|((&count, &disp), old)| Block {
                        disp,
                        count,
                        stride: old.extent(),
                        old,
                    })
                    .collect();
                combine(&blocks, true)
            },
        )
    }

    /// `MPI_Type_create_subarray` (MPI 4.1 §5.1.3), in `MPI_ORDER_C` or `MPI_ORDER_FORTRAN`.
    pub fn type_create_subarray(
        &self,
        sizes: &[i64],
        subsizes: &[i64],
        starts: &[i64],
        order: i32,
        old: Handle,
    ) -> Result<Handle> {
        self.derive(
            &[old],
            MPI_COMBINER_SUBARRAY,
            Contents::new(
                [
                    &[sizes.len() as i64][..],
                    sizes,
                    subsizes,
                    starts,
                    &[order as i64],
                ]
                .concat(),
                vec![],
            ),
            |l| subarray(sizes, subsizes, starts, order, &l[0]),
        )
    }

    /// `MPI_Type_create_darray` (MPI 4.1 §5.1.4): the part of a global array that process `rank`
    /// of a `size`-process grid (row-major, `psizes`) owns.
    #[allow(clippy::too_many_arguments)]
    pub fn type_create_darray(
        &self,
        size: i64,
        rank: i64,
        gsizes: &[i64],
        distribs: &[i32],
        dargs: &[i64],
        psizes: &[i64],
        order: i32,
        old: Handle,
    ) -> Result<Handle> {
        let n = gsizes.len();
        if n == 0 || distribs.len() != n || dargs.len() != n || psizes.len() != n {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("ndims = {n}: a darray needs at least one dimension"),
            ));
        }
        if size < 1 || rank < 0 || rank >= size {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("rank {rank} is not in a group of size {size}"),
            ));
        }
        let grid = psizes
            .iter()
            .try_fold(1i64, |a, &p| a.checked_mul(p.max(0)));
        if grid != Some(size) {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("the product of array_of_psizes is not size {size}"),
            ));
        }
        // The process grid is row-major whatever the array order (§5.1.4).
        let mut coords = vec![0i64; n];
        let mut r = rank;
        for d in (0..n).rev() {
            coords[d] = r % psizes[d];
            r /= psizes[d];
        }
        let runs = (0..n)
            .map(|d| darray_runs(d, gsizes[d], distribs[d], dargs[d], psizes[d], coords[d]))
            .collect::<Result<Vec<_>>>()?;
        let ints = [
            &[size, rank, n as i64][..],
            gsizes,
            &distribs.iter().map(|&x| i64::from(x)).collect::<Vec<_>>(),
            dargs,
            psizes,
            &[i64::from(order)],
        ]
        .concat();
        self.derive(
            &[old],
            MPI_COMBINER_DARRAY,
            Contents::new(ints, vec![]),
            |l| darray(gsizes, &runs, order, &l[0]),
        )
    }

    /// `MPI_Type_create_resized` (MPI 4.1 §5.1.7).
    pub fn type_create_resized(&self, old: Handle, lb: i64, extent: i64) -> Result<Handle> {
        self.derive(
            &[old],
            MPI_COMBINER_RESIZED,
            Contents::new(vec![], vec![lb, extent]),
            |l| resized(&l[0], lb, extent),
        )
    }

    /// `MPI_Type_dup` (MPI 4.1 §5.1.10): same layout and committed state, no name, and the
    /// attributes the copy callbacks allow. If a copy callback fails, the attributes already
    /// copied are deleted (their delete callbacks run) and the new type goes.
    pub fn type_dup(&self, old: Handle) -> Result<Handle> {
        let new = self.dup_object(
            ObjRef::datatype(old.0),
            |st| {
                let t = st.types.get(old)?;
                let mut nt = Datatype::new(t.layout.clone(), MPI_COMBINER_DUP);
                nt.committed = t.committed;
                let mut contents = Contents::default();
                alloc::try_push(&mut contents.types, Self::type_ref(st, old)?)?;
                nt.contents = Some(Shared::try_new(contents)?);
                Ok(st.types.insert(nt)?.key())
            },
            |st, new| {
                let _ = st.types.remove(Handle::of_key(new));
            },
        )?;
        Ok(Handle::of_key(new))
    }

    /// `MPI_Type_commit`; committing a committed or predefined type does nothing.
    pub fn type_commit(&self, h: Handle) -> Result<()> {
        self.active()?.types.get_mut(h)?.committed = true;
        Ok(())
    }

    /// `MPI_Type_free`: deletes the attributes, last set first; a failing delete callback stops
    /// the free and leaves the type valid. Types built from this one are not affected.
    pub fn type_free(&self, h: Handle) -> Result<()> {
        {
            let st = self.active()?;
            st.types.get(h)?;
            if st.types.is_predefined(h) || st.types.get(h)?.f90 {
                return Err(Error::PredefinedHandle {
                    kind: HandleKind::Datatype,
                    handle: h.0,
                    action: "freed",
                });
            }
        }
        self.free_object(ObjRef::datatype(h.0), |st| st.types.remove(h).map(drop))
    }

    /// `MPI_Type_size_x`: bytes of data in one element.
    pub fn type_size(&self, h: Handle) -> Result<i64> {
        Ok(self.active()?.types.get(h)?.layout.size)
    }

    /// `MPI_Type_get_extent_x`: (lb, extent).
    pub fn type_get_extent(&self, h: Handle) -> Result<(i64, i64)> {
        let st = self.active()?;
        let l = &st.types.get(h)?.layout;
        Ok((l.lb, l.extent()))
    }

    /// `MPI_Type_get_true_extent_x`: (true_lb, true_extent), from the data alone.
    pub fn type_get_true_extent(&self, h: Handle) -> Result<(i64, i64)> {
        let st = self.active()?;
        let l = &st.types.get(h)?.layout;
        Ok((l.true_lb, l.true_ub - l.true_lb))
    }

    pub fn type_is_committed(&self, h: Handle) -> Result<bool> {
        Ok(self.active()?.types.get(h)?.committed)
    }

    pub fn type_set_name(&self, h: Handle, name: &str) -> Result<()> {
        self.active()?.types.get_mut(h)?.name = truncate_name(name);
        Ok(())
    }

    /// `MPI_Type_get_name`; the null handle is named `MPI_DATATYPE_NULL` (MPI 4.1 §5.1.15).
    pub fn type_get_name(&self, h: Handle) -> Result<String> {
        if h == Handle(MPI_DATATYPE_NULL) {
            drop(self.active()?);
            return Ok("MPI_DATATYPE_NULL".to_owned());
        }
        Ok(self.active()?.types.get(h)?.name.clone())
    }

    /// The runs `(offset, len, element)` of `count` elements of a committed (or predefined)
    /// type in typemap order, and the bytes they take in external32 (MPI 4.1 §5.2.3, §14.5.2).
    pub fn type_external32_runs(
        &self,
        h: Handle,
        count: i64,
    ) -> Result<(Vec<external32::Run>, i64)> {
        check_count(count)?;
        let layout = {
            let st = self.active()?;
            let t = st.types.get(h)?;
            if !t.committed {
                return Err(Error::invalid(
                    MPI_ERR_TYPE,
                    format!("datatype {:#x} is not committed", h.0),
                ));
            }
            t.layout.clone()
        };
        let size = layout.external32_size(count)?;
        let mut runs = Vec::new();
        let mut failed = None;
        layout.for_each_run(count, |off, len, e| {
            if failed.is_none() {
                if let Err(err) = alloc::try_push(&mut runs, (off, len, e)) {
                    failed = Some(err);
                }
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok((runs, size)),
        }
    }

    /// `MPI_Pack_external_size`: the external32 bytes of `count` elements (MPI 4.1 §5.2.3).
    pub fn type_external32_size(&self, h: Handle, count: i64) -> Result<i64> {
        check_count(count)?;
        self.active()?.layout_of(h)?.external32_size(count)
    }

    /// The byte runs `(offset, len)` of `count` elements of a datatype usable in communication
    /// (committed or predefined), relative to the buffer's address, merged where they touch.
    /// This is what a local copy from one buffer to another moves.
    pub fn type_blocks(&self, h: Handle, count: i64) -> Result<Vec<(i64, i64)>> {
        check_count(count)?;
        let layout = {
            let st = self.active()?;
            let t = st.types.get(h)?;
            if !t.committed {
                return Err(Error::invalid(
                    MPI_ERR_TYPE,
                    format!("datatype {:#x} is not committed", h.0),
                ));
            }
            t.layout.clone()
        };
        if count > 0 {
            // Every offset must be describable: the last element's bounds must not overflow.
            let last = mul(count - 1, layout.extent())?;
            add(last, layout.true_lb)?;
            add(last, layout.true_ub)?;
        }
        Ok(layout.blocks(count))
    }
}
