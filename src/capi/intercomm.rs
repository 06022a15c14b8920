//! Intercommunicator construction (MPI 4.1 §7.6.2). An intercommunicator joins two disjoint
//! groups; this world has one process, which the local group must hold, so no remote group
//! can exist. The arguments are checked as the standard asks, and what remains is the error
//! for the group that cannot be built: a remote leader that is this very process (the groups
//! would overlap) is `MPI_ERR_RANK` for `MPI_Intercomm_create`, and overlapping groups are
//! `MPI_ERR_GROUP` for `MPI_Intercomm_create_from_groups`. Nothing is created.

use crate::boundary::{read_c_string, rt};
use crate::capi::boundary::Scope;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::{Error, Handle, HandleKind, Result};
use crate::{entry, try_out};
use std::ffi::{c_char, c_int};

/// `rank` must be a rank of a group of `size` (`MPI_ERR_RANK`).
fn check_rank(rank: c_int, size: c_int, what: &str) -> Result<()> {
    if !(0..size).contains(&rank) {
        return Err(Error::invalid(
            MPI_ERR_RANK,
            format!("{what} {rank} is not a rank of a group of {size}"),
        ));
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Intercomm_create(
    local_comm: MPI_Comm,
    local_leader: c_int,
    peer_comm: MPI_Comm,
    remote_leader: c_int,
    tag: c_int,
    newintercomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Intercomm_create", Scope::Comm(local_comm), {
        let out = try_out!(newintercomm);
        let size = rt().comm_size(Handle(local_comm))?;
        check_rank(local_leader, size, "local_leader")?;
        // MPI 4.1 §7.6.2: peer_comm is significant only at the local leader: this process.
        let peer_size = rt().comm_size(Handle(peer_comm))?;
        check_rank(remote_leader, peer_size, "remote_leader")?;
        if !(0..=TAG_UB_VALUE).contains(&tag) {
            return Err(Error::invalid(
                MPI_ERR_TAG,
                format!("tag {tag} is not in 0..=MPI_TAG_UB"),
            ));
        }
        out.set(MPI_COMM_NULL);
        Err(Error::invalid(
            MPI_ERR_RANK,
            format!(
                "remote_leader {remote_leader} of peer_comm is this process, which the local group \
                 holds: the two groups of an intercommunicator are disjoint (MPI 4.1 §7.6.2), and \
                 mpicache runs one process"
            ),
        ))
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Intercomm_create_from_groups(
    local_group: MPI_Group,
    local_leader: c_int,
    remote_group: MPI_Group,
    remote_leader: c_int,
    stringtag: *const c_char,
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    newintercomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Intercomm_create_from_groups", Scope::NoObject, {
        let out = try_out!(newintercomm);
        if stringtag.is_null() {
            return Err(Error::NullArgument { name: "stringtag" });
        }
        // SAFETY: a NUL-terminated string, not NULL (checked above; MPI's contract).
        let _tag = unsafe { read_c_string(stringtag) };
        rt().check_handle(HandleKind::Info, Handle(info))?;
        rt().check_handle(HandleKind::Errhandler, Handle(errhandler))?;
        let local = rt().group_size(Handle(local_group))?;
        let remote = rt().group_size(Handle(remote_group))?;
        if rt().group_rank(Handle(local_group))? == MPI_UNDEFINED {
            return Err(Error::invalid(
                MPI_ERR_GROUP,
                "the calling process is not in local_group (MPI 4.1 §7.6.2)",
            ));
        }
        check_rank(local_leader, local, "local_leader")?;
        check_rank(remote_leader, remote, "remote_leader")?;
        out.set(MPI_COMM_NULL);
        Err(Error::invalid(
            MPI_ERR_GROUP,
            "local_group and remote_group both hold this process: the groups of an \
             intercommunicator are disjoint (MPI 4.1 §7.6.2), and mpicache runs one process",
        ))
    })
}
