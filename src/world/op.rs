//! Reduction operations (MPI 4.1 §6.9.5): the predefined ones are constants; user operations
//! (`MPI_Op_create`, `MPI_Op_create_c`) live here with their function and commutativity. The
//! function is kept as an address: calling it is the C face's business.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::datatype::check_op;
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;

pub use crate::world::objects::op::UserOp;

impl Runtime {
    /// `MPI_Op_create(_c)`: a new operation handle.
    pub fn op_create(&self, op: UserOp) -> Result<Handle> {
        self.active()?.ops.insert(op)
    }

    /// A predefined or live user operation, else `MPI_ERR_OP`.
    pub fn op_check(&self, h: Handle) -> Result<()> {
        if check_op(h).is_ok() || self.active()?.ops.get(h).is_ok() {
            return Ok(());
        }
        check_op(h)
    }

    /// The user operation behind `h`; `None` for a predefined one.
    pub fn op_user(&self, h: Handle) -> Result<Option<UserOp>> {
        if check_op(h).is_ok() {
            return Ok(None);
        }
        let st = self.active()?;
        match st.ops.get(h) {
            Ok(op) => Ok(Some(*op)),
            Err(_) => check_op(h).map(|()| None),
        }
    }

    /// `MPI_Op_commutative` (§6.9.6): every predefined operation is commutative.
    pub fn op_commutative(&self, h: Handle) -> Result<bool> {
        Ok(self.op_user(h)?.is_none_or(|op| op.commute))
    }

    /// `MPI_Op_free`: a user operation goes; a predefined one is `MPI_ERR_OP` (§6.9.5).
    pub fn op_free(&self, h: Handle) -> Result<()> {
        if self.op_user(h)?.is_none() {
            return Err(Error::invalid(
                MPI_ERR_OP,
                format!("operation {:#x} is predefined and cannot be freed", h.0),
            ));
        }
        self.active()?.ops.remove(h).map(drop)
    }
}
