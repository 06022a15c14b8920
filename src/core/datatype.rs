//! Datatypes: predefined and derived. (Skeleton; the constructors come in their own change.)

use crate::core::attr_table::AttrTable;
use crate::core::error::Result;
use crate::core::handle::{Handle, Slab};

#[derive(Debug)]
pub struct Datatype {
    pub name: String,
    pub attrs: AttrTable,
    pub freeing: bool,
}

pub fn install_predefined(_types: &mut Slab<Datatype>) {}

pub fn check_op(_h: Handle) -> Result<()> {
    Ok(())
}
