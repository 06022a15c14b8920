//! The predefined types a datatype is built from (MPI 4.1 §12.3.4: the operands of an
//! accumulate are made of one predefined type, and the operation applies to its elements).

use super::TypeRef;
use crate::error::Result;
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;

/// Adds the distinct predefined types under `r` to `out`, in typemap order.
fn collect(r: &TypeRef, out: &mut Vec<Handle>) {
    match r {
        TypeRef::Named(h) => {
            if !out.contains(h) {
                out.push(*h)
            }
        }
        TypeRef::Derived(s) => s.contents.types.iter().for_each(|t| collect(t, out)),
    }
}

impl Runtime {
    /// The distinct predefined types `h` is made of (itself when predefined).
    pub fn type_basics(&self, h: Handle) -> Result<Vec<Handle>> {
        let r = Self::type_ref(&*self.active()?, h)?;
        let mut out = Vec::new();
        collect(&r, &mut out);
        Ok(out)
    }
}
