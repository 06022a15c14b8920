//! `MPI_Comm_create_from_group` (MPI 4.1 §7.4.2): a communicator from a group alone, as the
//! sessions model makes them. Every member must call it with the same string tag; here the
//! one process is every member.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::kinds::ObjectKind;
use crate::world::comm::Comm;
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;

impl Runtime {
    /// A communicator over `group`, with `errhandler` as its error handler. The calling
    /// process must be in the group; `MPI_GROUP_EMPTY` gives `MPI_COMM_NULL`.
    pub fn comm_from_group(&self, group: Handle, tag: &str, errhandler: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        let members = st.groups.get(group)?.members.clone();
        let e = st.errhandlers.get(errhandler)?;
        if e.for_kind
            .is_some_and(|k| k != ObjectKind::Comm.handle_kind())
        {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("error handler {:#x} is not a communicator's", errhandler.0),
            ));
        }
        if tag.len() >= MPI_MAX_STRINGTAG_LEN as usize {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("stringtag of {} characters is too long", tag.len()),
            ));
        }
        if members.is_empty() {
            return Ok(Handle(MPI_COMM_NULL));
        }
        if !members.contains(&0) {
            return Err(Error::invalid(
                MPI_ERR_GROUP,
                "the calling process is not in the group",
            ));
        }
        let h = st.comms.insert(Comm::new(members, "", errhandler))?;
        st.errhandler_add_ref(errhandler);
        Ok(h)
    }
}
