//! Communicators and groups of the single-process world.
//!
//! Every communicator holds the one process (world rank 0); groups hold it or are empty. What
//! matters for caching is real: dup copies attributes through the copy callbacks, free deletes
//! them, and communicators made by split or create start with none.

use crate::caching::ObjRef;
use crate::consts::*;
use crate::error::{Error, Result};
use crate::world::handle::Handle;
pub use crate::world::objects::comm::{truncate_name, Comm, Group, GroupOp, Members};
use crate::world::request::Request;
use crate::world::runtime::Runtime;
use crate::world::state::State;

/// The rank of this process in a member list, or `MPI_UNDEFINED`.
fn my_rank(members: &[i32]) -> i32 {
    members
        .iter()
        .position(|&r| r == 0)
        .map_or(MPI_UNDEFINED, |p| p as i32)
}

impl Runtime {
    /// `MPI_Comm_dup`, `MPI_Comm_dup_with_info`: a new communicator with the same group and
    /// error handler, and the attributes the copy callbacks allow. If a copy callback fails, the
    /// attributes already copied are deleted (their delete callbacks run) and nothing is left.
    pub fn comm_dup(&self, comm: Handle) -> Result<Handle> {
        let new = self.dup_object(
            ObjRef::comm(comm.0),
            |st| {
                let c = st.comms.get(comm)?;
                let mut nc = Comm::new(c.members.clone(), "", c.errhandler);
                nc.topo = c.topo.clone();
                let errh = c.errhandler;
                let h = st.comms.insert(nc)?;
                st.errhandler_add_ref(errh);
                Ok(h.key())
            },
            // The new communicator goes whatever its attributes' delete callbacks said.
            |st, new| {
                if let Ok(c) = st.comms.remove(Handle::of_key(new)) {
                    st.errhandler_release(c.errhandler);
                }
            },
        )?;
        Ok(Handle::of_key(new))
    }

    /// `MPI_Comm_idup`: the dup completes at once; the request is already complete.
    pub fn comm_idup(&self, comm: Handle) -> Result<(Handle, Handle)> {
        let new = self.comm_dup(comm)?;
        let req = self.active()?.requests.insert(Request::Complete);
        match req {
            Ok(r) => Ok((new, r)),
            Err(e) => {
                let _ = self.comm_free(new);
                Err(e)
            }
        }
    }

    /// A new communicator without attributes (split, create), inheriting the error handler.
    pub(crate) fn comm_derive(
        st: &mut State,
        parent: Handle,
        members: impl Into<Members>,
    ) -> Result<Handle> {
        let errh = st.comms.get(parent)?.errhandler;
        let h = st.comms.insert(Comm::new(members, "", errh))?;
        st.errhandler_add_ref(errh);
        Ok(h)
    }

    /// `MPI_Comm_split`: `MPI_UNDEFINED` color gives `MPI_COMM_NULL`; attributes are not copied.
    pub fn comm_split(&self, comm: Handle, color: i32, _key: i32) -> Result<Handle> {
        let mut st = self.active()?;
        st.comms.get(comm)?;
        if color == MPI_UNDEFINED {
            return Ok(Handle(MPI_COMM_NULL));
        }
        if color < 0 {
            return Err(Error::invalid(
                MPI_ERR_ARG,
                format!("color {color} is negative"),
            ));
        }
        Self::comm_derive(&mut st, comm, Members::ThisProcess)
    }

    /// `MPI_Comm_create`, `MPI_Comm_create_group`: the group must be a subgroup of the
    /// communicator's; a process outside it gets `MPI_COMM_NULL`.
    pub fn comm_create(&self, comm: Handle, group: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        let parent = st.comms.get(comm)?.members.clone();
        let members = st.groups.get(group)?.members.clone();
        if let Some(r) = members.iter().find(|r| !parent.contains(r)) {
            return Err(Error::invalid(
                MPI_ERR_GROUP,
                format!("group member (world rank {r}) is not in the communicator"),
            ));
        }
        if my_rank(&members) == MPI_UNDEFINED {
            return Ok(Handle(MPI_COMM_NULL));
        }
        Self::comm_derive(&mut st, comm, members)
    }

    /// `MPI_Comm_free`: deletes the attributes, last set first; a failing delete callback stops
    /// the free and leaves the communicator valid.
    pub fn comm_free(&self, comm: Handle) -> Result<()> {
        self.free_object(ObjRef::comm(comm.0), |st| {
            let c = st.comms.remove(comm)?;
            st.errhandler_release(c.errhandler);
            Ok(())
        })
    }

    pub fn comm_size(&self, comm: Handle) -> Result<i32> {
        Ok(self.active()?.comms.get(comm)?.members.len() as i32)
    }

    pub fn comm_rank(&self, comm: Handle) -> Result<i32> {
        Ok(my_rank(&self.active()?.comms.get(comm)?.members))
    }

    /// `MPI_Comm_compare` (MPI 4.1 §7.4.1).
    pub fn comm_compare(&self, a: Handle, b: Handle) -> Result<i32> {
        let st = self.active()?;
        let ma = &st.comms.get(a)?.members;
        let mb = &st.comms.get(b)?.members;
        Ok(if a == b {
            MPI_IDENT
        } else {
            match compare_members(ma, mb) {
                MPI_IDENT => MPI_CONGRUENT,
                other => other,
            }
        })
    }

    pub fn comm_set_name(&self, comm: Handle, name: &str) -> Result<()> {
        self.active()?.comms.get_mut(comm)?.name = truncate_name(name);
        Ok(())
    }

    /// `MPI_Comm_get_name`; the null handle is named `MPI_COMM_NULL` (MPI 4.1 §7.8).
    pub fn comm_get_name(&self, comm: Handle) -> Result<String> {
        if comm == Handle(MPI_COMM_NULL) {
            drop(self.active()?);
            return Ok("MPI_COMM_NULL".to_owned());
        }
        Ok(self.active()?.comms.get(comm)?.name.clone())
    }

    pub fn comm_group(&self, comm: Handle) -> Result<Handle> {
        let mut st = self.active()?;
        let members = st.comms.get(comm)?.members.clone();
        st.groups.insert(Group {
            members: members.to_vec(),
        })
    }

    /// `MPI_Group_free`; freeing `MPI_GROUP_EMPTY` is allowed and does nothing.
    pub fn group_free(&self, group: Handle) -> Result<()> {
        let mut st = self.active()?;
        st.groups.get(group)?;
        if st.groups.is_predefined(group) {
            return Ok(());
        }
        st.groups.remove(group).map(drop)
    }

    pub fn group_size(&self, group: Handle) -> Result<i32> {
        Ok(self.active()?.groups.get(group)?.members.len() as i32)
    }

    pub fn group_rank(&self, group: Handle) -> Result<i32> {
        Ok(my_rank(&self.active()?.groups.get(group)?.members))
    }

    /// `MPI_Group_incl`: ranks must be valid and distinct; none gives `MPI_GROUP_EMPTY`.
    pub fn group_incl(&self, group: Handle, ranks: &[i32]) -> Result<Handle> {
        let mut st = self.active()?;
        let members = st.groups.get(group)?.members.clone();
        let picked = Self::picked(&members, ranks)?;
        Self::group_of(&mut st, picked)
    }

    /// `MPI_Group_range_incl`: each triplet is (first, last, stride).
    pub fn group_range_incl(&self, group: Handle, ranges: &[[i32; 3]]) -> Result<Handle> {
        let ranks = expand_ranges(ranges)?;
        self.group_incl(group, &ranks)
    }

    /// The members of `group` listed by `ranks`, checked (valid, distinct).
    fn picked(members: &[i32], ranks: &[i32]) -> Result<Vec<i32>> {
        let mut out = Vec::with_capacity(ranks.len());
        for &r in ranks {
            let m = *members
                .get(usize::try_from(r).unwrap_or(usize::MAX))
                .ok_or_else(|| {
                    Error::invalid(
                        MPI_ERR_RANK,
                        format!("rank {r} is not in a group of {}", members.len()),
                    )
                })?;
            if out.contains(&m) {
                return Err(Error::invalid(
                    MPI_ERR_RANK,
                    format!("rank {r} is listed twice"),
                ));
            }
            out.push(m);
        }
        Ok(out)
    }

    /// A group of `members`, or `MPI_GROUP_EMPTY` when there are none.
    fn group_of(st: &mut State, members: Vec<i32>) -> Result<Handle> {
        if members.is_empty() {
            return Ok(Handle(MPI_GROUP_EMPTY));
        }
        st.groups.insert(Group { members })
    }

    /// `MPI_Group_excl`: the members not listed, in their order (MPI 4.1 §7.3.2).
    pub fn group_excl(&self, group: Handle, ranks: &[i32]) -> Result<Handle> {
        let mut st = self.active()?;
        let members = st.groups.get(group)?.members.clone();
        let gone = Self::picked(&members, ranks)?;
        let kept = members.into_iter().filter(|m| !gone.contains(m)).collect();
        Self::group_of(&mut st, kept)
    }

    /// `MPI_Group_range_excl`.
    pub fn group_range_excl(&self, group: Handle, ranges: &[[i32; 3]]) -> Result<Handle> {
        let ranks = expand_ranges(ranges)?;
        self.group_excl(group, &ranks)
    }

    /// `MPI_Group_translate_ranks`: each rank of `a` as a rank of `b`, `MPI_UNDEFINED` if absent;
    /// `MPI_PROC_NULL` stays `MPI_PROC_NULL`.
    pub fn group_translate_ranks(&self, a: Handle, ranks: &[i32], b: Handle) -> Result<Vec<i32>> {
        let st = self.active()?;
        let ma = &st.groups.get(a)?.members;
        let mb = &st.groups.get(b)?.members;
        ranks
            .iter()
            .map(|&r| {
                if r == MPI_PROC_NULL {
                    return Ok(MPI_PROC_NULL);
                }
                let m = ma
                    .get(usize::try_from(r).unwrap_or(usize::MAX))
                    .ok_or_else(|| {
                        Error::invalid(
                            MPI_ERR_RANK,
                            format!("rank {r} is not in a group of {}", ma.len()),
                        )
                    })?;
                Ok(mb
                    .iter()
                    .position(|x| x == m)
                    .map_or(MPI_UNDEFINED, |p| p as i32))
            })
            .collect()
    }

    /// `MPI_Group_union`, `MPI_Group_intersection`, `MPI_Group_difference` (MPI 4.1 §7.3.2):
    /// the members of `a` in their order, then (union) those of `b` not in `a`.
    pub fn group_set_op(&self, a: Handle, b: Handle, op: GroupOp) -> Result<Handle> {
        let mut st = self.active()?;
        let ma = st.groups.get(a)?.members.clone();
        let mb = st.groups.get(b)?.members.clone();
        let members = match op {
            GroupOp::Union => {
                let mut m = ma.clone();
                m.extend(mb.iter().filter(|x| !ma.contains(x)));
                m
            }
            GroupOp::Intersection => ma.into_iter().filter(|x| mb.contains(x)).collect(),
            GroupOp::Difference => ma.into_iter().filter(|x| !mb.contains(x)).collect(),
        };
        Self::group_of(&mut st, members)
    }

    /// `MPI_Group_compare`.
    pub fn group_compare(&self, a: Handle, b: Handle) -> Result<i32> {
        let st = self.active()?;
        Ok(compare_members(
            &st.groups.get(a)?.members,
            &st.groups.get(b)?.members,
        ))
    }
}

/// The ranks named by (first, last, stride) triplets (MPI 4.1 §7.3.2).
fn expand_ranges(ranges: &[[i32; 3]]) -> Result<Vec<i32>> {
    let mut ranks = Vec::new();
    for &[first, last, stride] in ranges {
        if stride == 0 {
            return Err(Error::invalid(MPI_ERR_ARG, "stride 0 in a rank range"));
        }
        let mut r = first;
        while (stride > 0 && r <= last) || (stride < 0 && r >= last) {
            ranks.push(r);
            if ranks.len() > 1 << 20 {
                return Err(Error::invalid(MPI_ERR_RANK, "rank range too long"));
            }
            r = match r.checked_add(stride) {
                Some(n) => n,
                None => break,
            };
        }
    }
    Ok(ranks)
}

/// IDENT for the same members in the same order, SIMILAR for the same set, else UNEQUAL.
fn compare_members(a: &[i32], b: &[i32]) -> i32 {
    if a == b {
        MPI_IDENT
    } else if a.len() == b.len() && a.iter().all(|x| b.contains(x)) {
        MPI_SIMILAR
    } else {
        MPI_UNEQUAL
    }
}
