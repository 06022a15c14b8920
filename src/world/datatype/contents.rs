//! Datatype decoding (MPI 4.1 §5.1.13): what `MPI_Type_get_envelope` and `MPI_Type_get_contents`
//! return, and the element counting of `MPI_Get_elements` (§5.1.11), both read from the
//! arguments each constructor was called with.
//!
//! A derived type keeps its constructor's arguments; the datatypes among them are kept as
//! snapshots, so a type still decodes after the user frees the types it was built from. Decoding
//! hands out predefined types as themselves and derived ones as new handles the caller frees
//! (§5.1.13: "the user is responsible for freeing these datatypes").

use crate::consts::*;
use crate::error::{Error, Result};
use crate::primitives::shared::Shared;
use crate::world::handle::Handle;
use crate::world::objects::datatype::{
    Contents, Datatype, Decoded, Envelope, Form, Snapshot, TypeRef,
};
use crate::world::runtime::Runtime;

/// The two halves of the predefined pair types (MPI 4.1 §6.9.4): two basic elements each.
fn pair_halves(h: Handle) -> Option<[i64; 2]> {
    let fint = super::layout::FINT;
    Some(match h.0 {
        MPI_FLOAT_INT | MPI_2INT | MPI_2REAL => [4, 4],
        MPI_DOUBLE_INT | MPI_LONG_INT => [8, 4],
        MPI_SHORT_INT => [2, 4],
        MPI_LONG_DOUBLE_INT => [16, 4],
        MPI_2DOUBLE_PRECISION => [8, 8],
        MPI_2INTEGER => [fint, fint],
        _ => return None,
    })
}

/// Counts basic elements (MPI 4.1 §5.1.11) in a byte budget, in typemap order.
struct Counter<'a> {
    st: &'a crate::world::state::State,
    budget: i64,
    elements: i64,
}

impl Counter<'_> {
    /// Walks one element of `t`; false when the budget ran out inside it.
    fn walk(&mut self, t: &TypeRef) -> Result<bool> {
        match t {
            TypeRef::Named(h) => {
                let size = self.st.types.get(*h)?.layout.size;
                let halves = pair_halves(*h).unwrap_or([size, 0]);
                for part in halves.into_iter().filter(|&p| p > 0) {
                    if self.budget < part {
                        return Ok(false);
                    }
                    self.budget -= part;
                    self.elements += 1;
                }
                Ok(true)
            }
            TypeRef::Derived(s) => {
                let c = &s.contents;
                let i = &c.ints;
                match s.combiner {
                    MPI_COMBINER_DUP | MPI_COMBINER_RESIZED => self.repeat(1, &c.types[0]),
                    MPI_COMBINER_CONTIGUOUS => self.repeat(i[0], &c.types[0]),
                    MPI_COMBINER_VECTOR
                    | MPI_COMBINER_HVECTOR
                    | MPI_COMBINER_INDEXED_BLOCK
                    | MPI_COMBINER_HINDEXED_BLOCK => self.repeat(i[0] * i[1], &c.types[0]),
                    MPI_COMBINER_INDEXED | MPI_COMBINER_HINDEXED => {
                        let n = i[0] as usize;
                        self.repeat(i[1..=n].iter().sum(), &c.types[0])
                    }
                    MPI_COMBINER_STRUCT => {
                        let n = i[0] as usize;
                        for (k, t) in c.types.iter().enumerate().take(n) {
                            if !self.repeat(i[1 + k], t)? {
                                return Ok(false);
                            }
                        }
                        Ok(true)
                    }
                    MPI_COMBINER_SUBARRAY => {
                        let n = i[0] as usize;
                        self.repeat(i[1 + n..=2 * n].iter().product(), &c.types[0])
                    }
                    MPI_COMBINER_DARRAY => {
                        let n = i[2] as usize;
                        let (g, ds, da, ps) =
                            (&i[3..], &i[3 + n..], &i[3 + 2 * n..], &i[3 + 3 * n..]);
                        let mut r = i[1];
                        let mut owned = 1i64;
                        for d in (0..n).rev() {
                            let coord = r % ps[d];
                            r /= ps[d];
                            let runs = super::layout::darray_runs(
                                d,
                                g[d],
                                ds[d] as i32,
                                da[d],
                                ps[d],
                                coord,
                            )?;
                            owned *= runs.iter().map(|&(_, len)| len).sum::<i64>();
                        }
                        self.repeat(owned, &c.types[0])
                    }
                    other => Err(Error::invalid(
                        MPI_ERR_INTERN,
                        format!("combiner {other} cannot be counted"),
                    )),
                }
            }
        }
    }

    /// Walks `n` elements of `t`, whole ones in one step.
    fn repeat(&mut self, n: i64, t: &TypeRef) -> Result<bool> {
        let (size, per) = self.shape(t)?;
        if size == 0 || n <= 0 {
            return Ok(true);
        }
        let whole = n.min(self.budget / size);
        self.budget -= whole * size;
        self.elements += whole * per;
        if whole == n {
            return Ok(true);
        }
        self.walk(t)?;
        Ok(false)
    }

    /// (bytes, basic elements) of one element of `t`.
    fn shape(&self, t: &TypeRef) -> Result<(i64, i64)> {
        let size = match t {
            TypeRef::Named(h) => self.st.types.get(*h)?.layout.size,
            TypeRef::Derived(s) => s.layout.size,
        };
        let mut all = Counter {
            st: self.st,
            budget: size,
            elements: 0,
        };
        all.walk(t)?;
        Ok((size, all.elements))
    }
}

impl Runtime {
    /// The constructor record of a type, as a reference (predefined types name themselves).
    pub(super) fn type_ref(st: &crate::world::state::State, h: Handle) -> Result<TypeRef> {
        let t = st.types.get(h)?;
        Ok(match &t.contents {
            // The F90 types are predefined: they stay, so they are named by their handle.
            _ if t.f90 => TypeRef::Named(h),
            None => TypeRef::Named(h),
            Some(c) => TypeRef::Derived(Shared::try_new(Snapshot {
                layout: t.layout.clone(),
                combiner: t.combiner,
                contents: c.clone(),
            })?),
        })
    }

    /// `MPI_Type_get_envelope` (MPI 4.1 §5.1.13).
    pub fn type_envelope(&self, h: Handle) -> Result<Envelope> {
        let st = self.active()?;
        let t = st.types.get(h)?;
        Ok(match &t.contents {
            None => Envelope {
                num_integers: 0,
                num_addresses: 0,
                num_large_counts: 0,
                num_datatypes: 0,
                combiner: MPI_COMBINER_NAMED,
            },
            Some(c) => {
                let (ni, na, nl) = super::table::lengths(t.combiner, c);
                Envelope {
                    num_integers: ni,
                    num_addresses: na,
                    num_large_counts: nl,
                    num_datatypes: c.types.len() as i64,
                    combiner: t.combiner,
                }
            }
        })
    }

    /// `MPI_Type_get_contents` (MPI 4.1 §5.1.13): a named type is `MPI_ERR_ARG`; derived types
    /// among the arguments come back as new (uncommitted) handles.
    pub fn type_contents(&self, h: Handle) -> Result<Decoded> {
        let mut st = self.active()?;
        let t = st.types.get(h)?;
        let t_combiner = t.combiner;
        let Some(c) = t.contents.clone() else {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!(
                    "datatype {:#x} is predefined (MPI_COMBINER_NAMED): it has no contents",
                    h.0
                ),
            ));
        };
        let mut types = Vec::with_capacity(c.types.len());
        for r in &c.types {
            let made = match r {
                TypeRef::Named(n) => Ok(*n),
                TypeRef::Derived(s) => st.types.insert(Datatype {
                    name: String::new(),
                    layout: s.layout.clone(),
                    committed: false,
                    combiner: s.combiner,
                    contents: Some(s.contents.clone()),
                    f90: false,
                }),
            };
            match made {
                Ok(n) => types.push(n),
                Err(e) => {
                    // Nothing half-made is left behind.
                    for (n, r) in types.iter().zip(&c.types) {
                        if matches!(r, TypeRef::Derived(_)) {
                            let _ = st.types.remove(*n);
                        }
                    }
                    return Err(e);
                }
            }
        }
        let (ints, aints, large) = super::table::split(t_combiner, &c);
        Ok(Decoded {
            ints,
            aints,
            large,
            types,
        })
    }

    /// Marks a type just made by a large-count constructor (`MPI_Type_contiguous_c` ...).
    pub fn type_mark_large(&self, h: Handle) -> Result<()> {
        let mut st = self.active()?;
        let t = st.types.get_mut(h)?;
        if let Some(c) = t.contents.take() {
            let c = Shared::try_unwrap(c).unwrap_or_else(|shared| Contents {
                ints: shared.ints.clone(),
                aints: shared.aints.clone(),
                types: shared.types.clone(),
                form: shared.form,
            });
            t.contents = Some(Shared::try_new(Contents {
                form: Form::Large,
                ..c
            })?);
        }
        Ok(())
    }

    /// `MPI_Get_elements`: the basic elements in `bytes` received as `h` (MPI 4.1 §5.1.11).
    pub fn type_elements(&self, h: Handle, bytes: i64) -> Result<i64> {
        let st = self.active()?;
        let r = Self::type_ref(&st, h)?;
        let mut c = Counter {
            st: &st,
            budget: bytes,
            elements: 0,
        };
        let (size, _) = c.shape(&r)?;
        if size == 0 {
            return Ok(0);
        }
        c.repeat(bytes / size + 1, &r)?;
        Ok(c.elements)
    }
}
