//! The local meaning of the collectives one process can answer (MPI 4.1 §6): barrier and
//! broadcast do nothing once their arguments are checked; reduce and allreduce over one process
//! are copies of the send buffer into the receive buffer, laid out by the datatype's typemap.
//!
//! The world checks the arguments and says which bytes move (offsets relative to each buffer);
//! the C layer moves them.

use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
use crate::world::runtime::Runtime;

/// The arguments a rooted or unrooted collective on one buffer layout is given.
#[derive(Debug, Clone, Copy)]
pub struct CollArgs {
    pub comm: Handle,
    pub count: i64,
    pub datatype: Handle,
    /// `None` for collectives without an operation (bcast).
    pub op: Option<Handle>,
    /// `None` for collectives without a root (allreduce).
    pub root: Option<i32>,
}

impl Runtime {
    /// `MPI_Barrier`: checks the communicator.
    pub fn barrier(&self, comm: Handle) -> Result<()> {
        self.comm_size(comm).map(drop)
    }

    /// Checks a collective's arguments in the order MPICH reports them (communicator, count,
    /// datatype, operation, root) and returns the byte runs `(offset, len)` that one process's
    /// copy from the send buffer to the receive buffer moves.
    pub fn collective_blocks(&self, a: CollArgs) -> Result<Vec<(i64, i64)>> {
        let size = self.comm_size(a.comm)?;
        if a.count < 0 {
            return Err(Error::invalid(
                MPI_ERR_COUNT,
                format!("count {} is negative", a.count),
            ));
        }
        // A datatype used in communication must be committed (MPI 4.1 §5.1.9); type_blocks
        // also rejects null, freed and forged handles with MPI_ERR_TYPE.
        let blocks = self.type_blocks(a.datatype, a.count)?;
        if let Some(op) = a.op {
            self.op_check(op)?;
        }
        if let Some(root) = a.root {
            if root < 0 || root >= size {
                return Err(Error::invalid(
                    MPI_ERR_ROOT,
                    format!("root {root} is not a rank of a communicator of size {size}"),
                ));
            }
        }
        Ok(blocks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt() -> Runtime {
        let r = Runtime::new();
        r.init(0).unwrap();
        r
    }

    fn args(count: i64, datatype: i32, op: Option<i32>, root: Option<i32>) -> CollArgs {
        CollArgs {
            comm: Handle(MPI_COMM_WORLD),
            count,
            datatype: Handle(datatype),
            op: op.map(Handle),
            root,
        }
    }

    #[test]
    fn reduce_over_one_process_copies_the_typemap() {
        // MPI 4.1 §6.9.1: with one process the result is the process's own send buffer,
        // placed in the receive buffer per the datatype.
        let r = rt();
        let v = r.type_vector(2, 1, 2, Handle(MPI_INT)).unwrap();
        r.type_commit(v).unwrap();
        let b = r
            .collective_blocks(CollArgs {
                datatype: v,
                ..args(2, MPI_INT, Some(MPI_SUM), Some(0))
            })
            .unwrap();
        // Extent 12: elements at 0 and 12, each two ints 8 bytes apart; the runs at 8 and 12
        // touch and move as one.
        assert_eq!(b, vec![(0, 4), (8, 8), (20, 4)]);
        assert_eq!(
            r.collective_blocks(args(3, MPI_DOUBLE, Some(MPI_MAX), None))
                .unwrap(),
            vec![(0, 24)]
        );
        assert!(r
            .collective_blocks(args(0, MPI_INT, Some(MPI_SUM), None))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn collective_argument_errors() {
        // MPI 4.1 §2.8 / §6: error classes of invalid collective arguments.
        let r = rt();
        let class = |a: CollArgs| r.collective_blocks(a).unwrap_err().class();
        assert_eq!(
            class(CollArgs {
                comm: Handle(MPI_COMM_NULL),
                ..args(1, MPI_INT, None, None)
            }),
            MPI_ERR_COMM
        );
        assert_eq!(class(args(-1, MPI_INT, None, None)), MPI_ERR_COUNT);
        assert_eq!(class(args(1, MPI_DATATYPE_NULL, None, None)), MPI_ERR_TYPE);
        let t = r.type_contiguous(2, Handle(MPI_INT)).unwrap();
        assert_eq!(
            class(CollArgs {
                datatype: t,
                ..args(1, MPI_INT, None, None)
            }),
            MPI_ERR_TYPE,
            "MPI 4.1 §5.1.9: an uncommitted type cannot be communicated"
        );
        assert_eq!(class(args(1, MPI_INT, Some(MPI_OP_NULL), None)), MPI_ERR_OP);
        assert_eq!(
            class(args(1, MPI_INT, Some(MPI_SUM), Some(1))),
            MPI_ERR_ROOT
        );
        assert_eq!(class(args(1, MPI_INT, None, Some(-1))), MPI_ERR_ROOT);
        assert!(r.barrier(Handle(MPI_COMM_SELF)).is_ok());
        assert_eq!(
            r.barrier(Handle(MPI_INT)).unwrap_err().class(),
            MPI_ERR_COMM
        );
    }
}
