//! Communicator and group entry points.

use crate::boundary::{read_c_string, rt, write_c_string, Scope};
use crate::capi::types::*;
use crate::consts::*;
use crate::world::comm::GroupOp;
use crate::world::{Error, Handle, HandleKind};
use crate::{entry, nonnull};
use std::ffi::{c_char, c_int};

/// The dup shared by `MPI_Comm_dup` and `MPI_Comm_dup_with_info`: on failure the new handle is
/// `MPI_COMM_NULL` (MPI 4.1 §7.4.2).
unsafe fn dup(comm: MPI_Comm, newcomm: *mut MPI_Comm) -> crate::error::Result<()> {
    let h = rt().comm_dup(Handle(comm));
    unsafe { *newcomm = h.as_ref().map_or(MPI_COMM_NULL, |h| h.0) };
    h.map(drop)
}

/// The idup shared by `MPI_Comm_idup` and `MPI_Comm_idup_with_info`.
unsafe fn idup(
    comm: MPI_Comm,
    newcomm: *mut MPI_Comm,
    request: *mut MPI_Request,
) -> crate::error::Result<()> {
    let r = rt().comm_idup(Handle(comm));
    unsafe {
        *newcomm = r.as_ref().map_or(MPI_COMM_NULL, |(c, _)| c.0);
        *request = r.as_ref().map_or(MPI_REQUEST_NULL, |(_, q)| q.0);
    }
    r.map(drop)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_dup(comm: MPI_Comm, newcomm: *mut MPI_Comm) -> c_int {
    entry!("MPI_Comm_dup", Scope::Comm(comm), {
        nonnull!(newcomm);
        unsafe { dup(comm, newcomm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_dup_with_info(
    comm: MPI_Comm,
    info: MPI_Info,
    newcomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Comm_dup_with_info", Scope::Comm(comm), {
        nonnull!(newcomm);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        unsafe { dup(comm, newcomm) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_idup(
    comm: MPI_Comm,
    newcomm: *mut MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Comm_idup", Scope::Comm(comm), {
        nonnull!(newcomm, request);
        unsafe { idup(comm, newcomm, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_idup_with_info(
    comm: MPI_Comm,
    info: MPI_Info,
    newcomm: *mut MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Comm_idup_with_info", Scope::Comm(comm), {
        nonnull!(newcomm, request);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        unsafe { idup(comm, newcomm, request) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_split(
    comm: MPI_Comm,
    color: c_int,
    key: c_int,
    newcomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Comm_split", Scope::Comm(comm), {
        nonnull!(newcomm);
        let h = rt().comm_split(Handle(comm), color, key)?;
        unsafe { *newcomm = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_split_type(
    comm: MPI_Comm,
    split_type: c_int,
    key: c_int,
    info: MPI_Info,
    newcomm: *mut MPI_Comm,
) -> c_int {
    let _ = key;
    entry!("MPI_Comm_split_type", Scope::Comm(comm), {
        nonnull!(newcomm);
        let h = rt().comm_split_type(Handle(comm), split_type, Handle(info))?;
        unsafe { *newcomm = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create(
    comm: MPI_Comm,
    group: MPI_Group,
    newcomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Comm_create", Scope::Comm(comm), {
        nonnull!(newcomm);
        let h = rt().comm_create(Handle(comm), Handle(group))?;
        unsafe { *newcomm = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_group(
    comm: MPI_Comm,
    group: MPI_Group,
    tag: c_int,
    newcomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Comm_create_group", Scope::Comm(comm), {
        nonnull!(newcomm);
        if tag < 0 {
            return Err(Error::invalid(
                MPI_ERR_TAG,
                format!("tag {tag} is negative"),
            ));
        }
        let h = rt().comm_create(Handle(comm), Handle(group))?;
        unsafe { *newcomm = h.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_free(comm: *mut MPI_Comm) -> c_int {
    let scope = if comm.is_null() {
        Scope::NoObject
    } else {
        Scope::Comm(unsafe { *comm })
    };
    entry!("MPI_Comm_free", scope, {
        nonnull!(comm);
        rt().comm_free(Handle(unsafe { *comm }))?;
        unsafe { *comm = MPI_COMM_NULL };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_size(comm: MPI_Comm, size: *mut c_int) -> c_int {
    entry!("MPI_Comm_size", Scope::Comm(comm), {
        nonnull!(size);
        let n = rt().comm_size(Handle(comm))?;
        unsafe { *size = n };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_rank(comm: MPI_Comm, rank: *mut c_int) -> c_int {
    entry!("MPI_Comm_rank", Scope::Comm(comm), {
        nonnull!(rank);
        let r = rt().comm_rank(Handle(comm))?;
        unsafe { *rank = r };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_test_inter(comm: MPI_Comm, flag: *mut c_int) -> c_int {
    entry!("MPI_Comm_test_inter", Scope::Comm(comm), {
        nonnull!(flag);
        rt().comm_size(Handle(comm))?;
        unsafe { *flag = 0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_compare(
    comm1: MPI_Comm,
    comm2: MPI_Comm,
    result: *mut c_int,
) -> c_int {
    entry!("MPI_Comm_compare", Scope::Comm(comm1), {
        nonnull!(result);
        let r = rt().comm_compare(Handle(comm1), Handle(comm2))?;
        unsafe { *result = r };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_set_name(comm: MPI_Comm, comm_name: *const c_char) -> c_int {
    entry!("MPI_Comm_set_name", Scope::Comm(comm), {
        nonnull!(comm_name);
        rt().comm_set_name(Handle(comm), &unsafe { read_c_string(comm_name) }?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_get_name(
    comm: MPI_Comm,
    comm_name: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    entry!("MPI_Comm_get_name", Scope::Comm(comm), {
        nonnull!(comm_name, resultlen);
        let name = rt().comm_get_name(Handle(comm))?;
        let n = unsafe { write_c_string(comm_name, MPI_MAX_OBJECT_NAME as usize, &name) };
        unsafe { *resultlen = n };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_group(comm: MPI_Comm, group: *mut MPI_Group) -> c_int {
    entry!("MPI_Comm_group", Scope::Comm(comm), {
        nonnull!(group);
        let g = rt().comm_group(Handle(comm))?;
        unsafe { *group = g.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_free(group: *mut MPI_Group) -> c_int {
    entry!("MPI_Group_free", Scope::NoObject, {
        nonnull!(group);
        rt().group_free(Handle(unsafe { *group }))?;
        unsafe { *group = MPI_GROUP_NULL };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_size(group: MPI_Group, size: *mut c_int) -> c_int {
    entry!("MPI_Group_size", Scope::NoObject, {
        nonnull!(size);
        let n = rt().group_size(Handle(group))?;
        unsafe { *size = n };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_rank(group: MPI_Group, rank: *mut c_int) -> c_int {
    entry!("MPI_Group_rank", Scope::NoObject, {
        nonnull!(rank);
        let r = rt().group_rank(Handle(group))?;
        unsafe { *rank = r };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_compare(
    group1: MPI_Group,
    group2: MPI_Group,
    result: *mut c_int,
) -> c_int {
    entry!("MPI_Group_compare", Scope::NoObject, {
        nonnull!(result);
        let r = rt().group_compare(Handle(group1), Handle(group2))?;
        unsafe { *result = r };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_incl(
    group: MPI_Group,
    n: c_int,
    ranks: *const c_int,
    newgroup: *mut MPI_Group,
) -> c_int {
    entry!("MPI_Group_incl", Scope::NoObject, {
        nonnull!(newgroup);
        let g = rt().group_incl(Handle(group), unsafe { array(ranks, n, "ranks") }?)?;
        unsafe { *newgroup = g.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_range_incl(
    group: MPI_Group,
    n: c_int,
    ranges: *mut [c_int; 3],
    newgroup: *mut MPI_Group,
) -> c_int {
    entry!("MPI_Group_range_incl", Scope::NoObject, {
        nonnull!(newgroup);
        let g = rt().group_range_incl(Handle(group), unsafe {
            array(ranges.cast_const(), n, "ranges")
        }?)?;
        unsafe { *newgroup = g.0 };
        Ok(())
    })
}

/// A C array argument of `n` entries (NULL allowed when `n` is 0).
unsafe fn array<'a, T>(p: *const T, n: c_int, name: &'static str) -> crate::error::Result<&'a [T]> {
    let n = usize::try_from(n)
        .map_err(|_| Error::invalid(MPI_ERR_ARG, format!("n = {n} is negative")))?;
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Error::NullArgument { name });
    }
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_excl(
    group: MPI_Group,
    n: c_int,
    ranks: *const c_int,
    newgroup: *mut MPI_Group,
) -> c_int {
    entry!("MPI_Group_excl", Scope::NoObject, {
        nonnull!(newgroup);
        let g = rt().group_excl(Handle(group), unsafe { array(ranks, n, "ranks") }?)?;
        unsafe { *newgroup = g.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_range_excl(
    group: MPI_Group,
    n: c_int,
    ranges: *mut [c_int; 3],
    newgroup: *mut MPI_Group,
) -> c_int {
    entry!("MPI_Group_range_excl", Scope::NoObject, {
        nonnull!(newgroup);
        let g = rt().group_range_excl(Handle(group), unsafe {
            array(ranges.cast_const(), n, "ranges")
        }?)?;
        unsafe { *newgroup = g.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_translate_ranks(
    group1: MPI_Group,
    n: c_int,
    ranks1: *const c_int,
    group2: MPI_Group,
    ranks2: *mut c_int,
) -> c_int {
    entry!("MPI_Group_translate_ranks", Scope::NoObject, {
        let from = unsafe { array(ranks1, n, "ranks1") }?;
        if !from.is_empty() {
            nonnull!(ranks2);
        }
        let out = rt().group_translate_ranks(Handle(group1), from, Handle(group2))?;
        for (i, r) in out.into_iter().enumerate() {
            unsafe { *ranks2.add(i) = r };
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_union(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: *mut MPI_Group,
) -> c_int {
    entry!("MPI_Group_union", Scope::NoObject, {
        nonnull!(newgroup);
        let g = rt().group_set_op(Handle(group1), Handle(group2), GroupOp::Union)?;
        unsafe { *newgroup = g.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_intersection(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: *mut MPI_Group,
) -> c_int {
    entry!("MPI_Group_intersection", Scope::NoObject, {
        nonnull!(newgroup);
        let g = rt().group_set_op(Handle(group1), Handle(group2), GroupOp::Intersection)?;
        unsafe { *newgroup = g.0 };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Group_difference(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: *mut MPI_Group,
) -> c_int {
    entry!("MPI_Group_difference", Scope::NoObject, {
        nonnull!(newgroup);
        let g = rt().group_set_op(Handle(group1), Handle(group2), GroupOp::Difference)?;
        unsafe { *newgroup = g.0 };
        Ok(())
    })
}

/// `MPI_Comm_create_from_group` (MPI 4.1 §7.4.2).
#[no_mangle]
pub unsafe extern "C" fn MPI_Comm_create_from_group(
    group: MPI_Group,
    stringtag: *const c_char,
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    newcomm: *mut MPI_Comm,
) -> c_int {
    entry!("MPI_Comm_create_from_group", Scope::NoObject, {
        nonnull!(stringtag, newcomm);
        rt().check_handle(HandleKind::Info, Handle(info))?;
        let tag = unsafe { read_c_string(stringtag) }?;
        let h = rt().comm_from_group(Handle(group), &tag, Handle(errhandler))?;
        unsafe { *newcomm = h.0 };
        Ok(())
    })
}
