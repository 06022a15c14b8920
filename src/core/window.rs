//! Windows. (Skeleton; creation and free come in their own change.)

use crate::core::attr_table::{AttrCell, AttrTable};
use crate::core::handle::Handle;
use std::sync::Arc;

#[derive(Debug)]
pub struct Window {
    pub name: String,
    pub errhandler: Handle,
    pub attrs: AttrTable,
    pub predefined: Vec<(i32, Arc<AttrCell>)>,
    pub freeing: bool,
}
