//! The types of `MPI_Type_create_f90_integer/real/complex` (MPI 4.1 §19.1.9): predefined types
//! (never freed; the same arguments give the same handle) that behave as the named sized type
//! of the kind chosen, yet decode with `MPI_COMBINER_F90_*` and the arguments given.

use crate::error::Result;
use crate::primitives::alloc;
use crate::primitives::shared::Shared;
use crate::world::handle::Handle;
use crate::world::objects::datatype::{Contents, Datatype};
use crate::world::runtime::Runtime;

impl Runtime {
    /// The F90 type made by `combiner` with `ints` ((r) or (p, r)) whose layout is the named
    /// type `like`'s.
    pub fn type_f90(&self, combiner: i32, ints: &[i64], like: Handle) -> Result<Handle> {
        let key = [
            i64::from(combiner),
            ints.first().copied().unwrap_or(0),
            ints.get(1).copied().unwrap_or(0),
        ];
        let mut st = self.active()?;
        let known = st.f90_types.iter().find(|e| e.0 == key).map(|e| e.1);
        // Still the type it was (a handle of a finished session's world is not reused here).
        if let Some(h) = known.filter(|&h| {
            st.types
                .get(h)
                .is_ok_and(|t| t.f90 && t.contents.as_ref().is_some_and(|c| c.ints == ints))
        }) {
            return Ok(h);
        }
        st.f90_types.retain(|e| e.0 != key);
        let mut t = Datatype::new(st.types.get(like)?.layout.clone(), combiner);
        t.committed = true;
        t.f90 = true;
        t.contents = Some(Shared::try_new(Contents::new(
            alloc::try_to_vec(ints)?,
            Vec::new(),
        ))?);
        alloc::try_reserve(&mut st.f90_types, 1)?;
        let h = st.types.insert(t)?;
        st.f90_types.push((key, h, like));
        Ok(h)
    }

    /// The named type an F90 type behaves as (for the predefined operations); any other type
    /// is itself.
    pub fn type_like(&self, h: Handle) -> Result<Handle> {
        let st = self.active()?;
        Ok(st
            .f90_types
            .iter()
            .find(|e| e.1 == h)
            .filter(|_| st.types.get(h).is_ok_and(|t| t.f90))
            .map_or(h, |e| e.2))
    }
}
