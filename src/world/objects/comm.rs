//! Communicators and groups as the world keeps them (the operations: `world::comm`).

use crate::consts::*;
use crate::world::handle::Handle;
use crate::world::objects::topo::Topology;
use std::sync::Arc;

/// World ranks of a communicator's members, in rank order. In this world of one process they
/// are nearly always that process alone: that case, and the empty one, are kept without a
/// shared allocation, so a dup copies a tag instead of counting a reference atomically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Members {
    /// `[0]`.
    ThisProcess,
    /// `[]`.
    Nobody,
    Other(Arc<[i32]>),
}

impl std::ops::Deref for Members {
    type Target = [i32];

    fn deref(&self) -> &[i32] {
        match self {
            Members::ThisProcess => &[0],
            Members::Nobody => &[],
            Members::Other(ranks) => ranks,
        }
    }
}

impl From<Vec<i32>> for Members {
    fn from(ranks: Vec<i32>) -> Members {
        match ranks[..] {
            [0] => Members::ThisProcess,
            [] => Members::Nobody,
            _ => Members::Other(ranks.into()),
        }
    }
}

#[derive(Debug)]
pub struct Comm {
    /// World ranks of the members, in rank order; shared by dups (no allocation per dup).
    pub members: Members,
    pub name: String,
    pub errhandler: Handle,
    /// The virtual topology (MPI 4.1 §8), shared by dups (§8.4: dup copies it).
    pub topo: Option<Arc<Topology>>,
}

impl Comm {
    pub fn new(members: impl Into<Members>, name: &str, errhandler: Handle) -> Comm {
        Comm {
            members: members.into(),
            name: name.to_owned(),
            errhandler,
            topo: None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Group {
    /// World ranks of the members, in rank order.
    pub members: Vec<i32>,
}

/// Truncates a name to what `MPI_MAX_OBJECT_NAME` allows (MPI 4.1 §7.8), on a char boundary.
pub fn truncate_name(name: &str) -> String {
    let max = MPI_MAX_OBJECT_NAME as usize - 1;
    let mut end = name.len().min(max);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_owned()
}

/// Which set operation `group_set_op` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupOp {
    Union,
    Intersection,
    Difference,
}
