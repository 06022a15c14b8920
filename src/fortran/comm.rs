//! Fortran communicator, group and request routines.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::{
    by_ref, fint, logical, narrow, read_narrow, scope_handle, MPI_Farray, MPI_Fint, MPI_Flogical,
    MPI_Franges, MPI_Fstatus,
};
use crate::nonnull;
use crate::world::comm::GroupOp;
use crate::world::request::Tested;
use crate::world::{Error, Handle, HandleKind};
use std::borrow::Cow;
use std::ffi::c_char;

/// `MPI_COMM_DUP(COMM, NEWCOMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_dup_(
    comm: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_DUP",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(newcomm);
            let h = rt().comm_dup(Handle(c));
            // MPI 4.1 §7.4.2: on failure the new handle is MPI_COMM_NULL.
            unsafe { *newcomm = fint(h.as_ref().map_or(MPI_COMM_NULL, |h| h.0)) };
            h.map(drop)
        }
    )
}

/// `MPI_COMM_DUP_WITH_INFO(COMM, INFO, NEWCOMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_dup_with_info_(
    comm: *const MPI_Fint,
    info: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_DUP_WITH_INFO",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(info, newcomm);
            rt().check_handle(HandleKind::Info, info_arg(info)?)?;
            let h = rt().comm_dup(Handle(c));
            unsafe { *newcomm = fint(h.as_ref().map_or(MPI_COMM_NULL, |h| h.0)) };
            h.map(drop)
        }
    )
}

/// `MPI_COMM_IDUP(COMM, NEWCOMM, REQUEST, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_idup_(
    comm: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    request: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_IDUP",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(newcomm, request);
            let r = rt().comm_idup(Handle(c));
            unsafe {
                *newcomm = fint(r.as_ref().map_or(MPI_COMM_NULL, |(c, _)| c.0));
                *request = fint(r.as_ref().map_or(MPI_REQUEST_NULL, |(_, q)| q.0));
            }
            r.map(drop)
        }
    )
}

/// `MPI_COMM_SPLIT(COMM, COLOR, KEY, NEWCOMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_split_(
    comm: *const MPI_Fint,
    color: *const MPI_Fint,
    key: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_SPLIT",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(color, key, newcomm);
            let color = unsafe { read_narrow(color, MPI_ERR_ARG, "color") }?;
            let key = unsafe { read_narrow(key, MPI_ERR_ARG, "key") }?;
            let h = rt().comm_split(Handle(c), color, key)?;
            unsafe { *newcomm = fint(h.0) };
            Ok(())
        }
    )
}

/// `MPI_COMM_SPLIT_TYPE(COMM, SPLIT_TYPE, KEY, INFO, NEWCOMM, IERROR)`: as in C (MPI 4.1
/// §7.4.2, see `world::split_type`).
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_split_type_(
    comm: *const MPI_Fint,
    split_type: *const MPI_Fint,
    key: *const MPI_Fint,
    info: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_SPLIT_TYPE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(split_type, key, info, newcomm);
            let split_type = unsafe { read_narrow(split_type, MPI_ERR_ARG, "split_type") }?;
            unsafe { read_narrow(key, MPI_ERR_ARG, "key") }?;
            let h = rt().comm_split_type(Handle(c), split_type, info_arg(info)?)?;
            unsafe { *newcomm = fint(h.0) };
            Ok(())
        }
    )
}

/// `MPI_COMM_CREATE(COMM, GROUP, NEWCOMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_create_(
    comm: *const MPI_Fint,
    group: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_CREATE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(group, newcomm);
            let h = rt().comm_create(Handle(c), group_arg(group)?)?;
            unsafe { *newcomm = fint(h.0) };
            Ok(())
        }
    )
}

/// `MPI_COMM_FREE(COMM, IERROR)`: sets COMM to MPI_COMM_NULL.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_free_(comm: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_FREE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(comm);
            rt().comm_free(Handle(c))?;
            unsafe { *comm = fint(MPI_COMM_NULL) };
            Ok(())
        }
    )
}

/// `MPI_COMM_SIZE(COMM, SIZE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_size_(
    comm: *const MPI_Fint,
    size: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_SIZE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(size);
            let n = rt().comm_size(Handle(c))?;
            unsafe { *size = fint(n) };
            Ok(())
        }
    )
}

/// `MPI_COMM_RANK(COMM, RANK, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_rank_(
    comm: *const MPI_Fint,
    rank: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_RANK",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(rank);
            let r = rt().comm_rank(Handle(c))?;
            unsafe { *rank = fint(r) };
            Ok(())
        }
    )
}

/// `MPI_COMM_COMPARE(COMM1, COMM2, RESULT, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_compare_(
    comm1: *const MPI_Fint,
    comm2: *const MPI_Fint,
    result: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm1, 0) };
    fentry!(
        ierror,
        "MPI_COMM_COMPARE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(comm2, result);
            let comm2 = unsafe { read_narrow(comm2, MPI_ERR_COMM, "comm2") }?;
            let r = rt().comm_compare(Handle(c), Handle(comm2))?;
            unsafe { *result = fint(r) };
            Ok(())
        }
    )
}

/// `MPI_COMM_TEST_INTER(COMM, FLAG, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_test_inter_(
    comm: *const MPI_Fint,
    flag: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_TEST_INTER",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(flag);
            rt().comm_size(Handle(c))?;
            unsafe { *flag = logical(false) };
            Ok(())
        }
    )
}

/// `MPI_COMM_SET_NAME(COMM, COMM_NAME, IERROR)`, `CHARACTER*(*) COMM_NAME`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_set_name_(
    comm: *const MPI_Fint,
    comm_name: *const c_char,
    ierror: *mut MPI_Fint,
    comm_name_len: usize,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_SET_NAME",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(comm_name);
            let name = unsafe { read_fortran_string(comm_name, comm_name_len) };
            rt().comm_set_name(Handle(c), &name)
        }
    )
}

/// `MPI_COMM_GET_NAME(COMM, COMM_NAME, RESULTLEN, IERROR)`, `CHARACTER*(*) COMM_NAME`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_get_name_(
    comm: *const MPI_Fint,
    comm_name: *mut c_char,
    resultlen: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
    comm_name_len: usize,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_GET_NAME",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(comm_name, resultlen);
            let name = rt().comm_get_name(Handle(c))?;
            let n = unsafe {
                write_fortran_string(
                    comm_name,
                    comm_name_len,
                    MPI_MAX_OBJECT_NAME as usize,
                    &name,
                )
            };
            unsafe { *resultlen = fint(n) };
            Ok(())
        }
    )
}

/// `MPI_COMM_GROUP(COMM, GROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_group_(
    comm: *const MPI_Fint,
    group: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_GROUP",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(group);
            let g = rt().comm_group(Handle(c))?;
            unsafe { *group = fint(g.0) };
            Ok(())
        }
    )
}

/// `MPI_GROUP_FREE(GROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_free_(group: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_GROUP_FREE", Scope::NoObject, {
        nonnull!(group);
        rt().group_free(group_arg(group)?)?;
        unsafe { *group = fint(MPI_GROUP_NULL) };
        Ok(())
    })
}

/// `MPI_GROUP_SIZE(GROUP, SIZE, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_size_(
    group: *const MPI_Fint,
    size: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_SIZE", Scope::NoObject, {
        nonnull!(group, size);
        let n = rt().group_size(group_arg(group)?)?;
        unsafe { *size = fint(n) };
        Ok(())
    })
}

/// `MPI_GROUP_RANK(GROUP, RANK, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_rank_(
    group: *const MPI_Fint,
    rank: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_RANK", Scope::NoObject, {
        nonnull!(group, rank);
        let r = rt().group_rank(group_arg(group)?)?;
        unsafe { *rank = fint(r) };
        Ok(())
    })
}

/// The handle of an INFO argument (checked non-NULL by the caller).
fn info_arg(p: *const MPI_Fint) -> crate::error::Result<Handle> {
    Ok(Handle(unsafe { read_narrow(p, MPI_ERR_INFO, "info") }?))
}

/// The handle of a GROUP argument (checked non-NULL by the caller).
fn group_arg(p: *const MPI_Fint) -> crate::error::Result<Handle> {
    Ok(Handle(unsafe { read_narrow(p, MPI_ERR_GROUP, "group") }?))
}

/// The handle of a REQUEST argument (checked non-NULL by the caller).
fn request_arg(p: *const MPI_Fint) -> crate::error::Result<Handle> {
    Ok(Handle(unsafe {
        read_narrow(p, MPI_ERR_REQUEST, "request")
    }?))
}

/// `INTEGER RANKS(*)` as the core's ranks (a rank that does not fit 32 bits is MPI_ERR_RANK).
#[cfg(not(feature = "fortran-integer-8"))]
fn ranks_arg(ranks: &[MPI_Fint]) -> crate::error::Result<Cow<'_, [i32]>> {
    Ok(Cow::Borrowed(ranks))
}
/// `INTEGER RANKS(*)` as the core's ranks (a rank that does not fit 32 bits is MPI_ERR_RANK).
#[cfg(feature = "fortran-integer-8")]
fn ranks_arg(ranks: &[MPI_Fint]) -> crate::error::Result<Cow<'_, [i32]>> {
    ranks
        .iter()
        .map(|&r| narrow(r, MPI_ERR_RANK, "ranks(i)"))
        .collect::<crate::error::Result<Vec<i32>>>()
        .map(Cow::Owned)
}

/// `INTEGER RANGES(3,*)` as the core's ranges.
#[cfg(not(feature = "fortran-integer-8"))]
fn ranges_arg(ranges: &[MPI_Franges]) -> crate::error::Result<Cow<'_, [[i32; 3]]>> {
    Ok(Cow::Borrowed(ranges))
}
/// `INTEGER RANGES(3,*)` as the core's ranges (a value that does not fit 32 bits is
/// MPI_ERR_RANK).
#[cfg(feature = "fortran-integer-8")]
fn ranges_arg(ranges: &[MPI_Franges]) -> crate::error::Result<Cow<'_, [[i32; 3]]>> {
    ranges
        .iter()
        .map(|r| {
            Ok([
                narrow(r[0], MPI_ERR_RANK, "ranges(1,i)")?,
                narrow(r[1], MPI_ERR_RANK, "ranges(2,i)")?,
                narrow(r[2], MPI_ERR_ARG, "ranges(3,i)")?,
            ])
        })
        .collect::<crate::error::Result<Vec<[i32; 3]>>>()
        .map(Cow::Owned)
}

fn count(n: MPI_Fint) -> crate::error::Result<usize> {
    usize::try_from(n).map_err(|_| Error::invalid(MPI_ERR_ARG, format!("n = {n} is negative")))
}

/// `MPI_GROUP_INCL(GROUP, N, RANKS, NEWGROUP, IERROR)`, `INTEGER RANKS(*)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_incl_(
    group: *const MPI_Fint,
    n: *const MPI_Fint,
    ranks: *const MPI_Farray,
    newgroup: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_INCL", Scope::NoObject, {
        nonnull!(group, n, newgroup);
        let ranks = unsafe { farray(ranks, count(*n)?) }?;
        let g = rt().group_incl(group_arg(group)?, &ranks_arg(ranks)?)?;
        unsafe { *newgroup = fint(g.0) };
        Ok(())
    })
}

/// `MPI_GROUP_RANGE_INCL(GROUP, N, RANGES, NEWGROUP, IERROR)`, `INTEGER RANGES(3,*)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_range_incl_(
    group: *const MPI_Fint,
    n: *const MPI_Fint,
    ranges: *const MPI_Franges,
    newgroup: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_RANGE_INCL", Scope::NoObject, {
        nonnull!(group, n, newgroup);
        let ranges = unsafe { farray(ranges, count(*n)?) }?;
        let g = rt().group_range_incl(group_arg(group)?, &ranges_arg(ranges)?)?;
        unsafe { *newgroup = fint(g.0) };
        Ok(())
    })
}

/// An `INTEGER X(*)`-style array argument of `n` entries (not read when `n` is 0).
unsafe fn farray<'a, T>(p: *const T, n: usize) -> crate::error::Result<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    nonnull!(p);
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// `MPI_GROUP_EXCL(GROUP, N, RANKS, NEWGROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_excl_(
    group: *const MPI_Fint,
    n: *const MPI_Fint,
    ranks: *const MPI_Farray,
    newgroup: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_EXCL", Scope::NoObject, {
        nonnull!(group, n, newgroup);
        let ranks = unsafe { farray(ranks, count(*n)?) }?;
        let g = rt().group_excl(group_arg(group)?, &ranks_arg(ranks)?)?;
        unsafe { *newgroup = fint(g.0) };
        Ok(())
    })
}

/// `MPI_GROUP_RANGE_EXCL(GROUP, N, RANGES, NEWGROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_range_excl_(
    group: *const MPI_Fint,
    n: *const MPI_Fint,
    ranges: *const MPI_Franges,
    newgroup: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_RANGE_EXCL", Scope::NoObject, {
        nonnull!(group, n, newgroup);
        let ranges = unsafe { farray(ranges, count(*n)?) }?;
        let g = rt().group_range_excl(group_arg(group)?, &ranges_arg(ranges)?)?;
        unsafe { *newgroup = fint(g.0) };
        Ok(())
    })
}

/// `MPI_GROUP_TRANSLATE_RANKS(GROUP1, N, RANKS1, GROUP2, RANKS2, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_translate_ranks_(
    group1: *const MPI_Fint,
    n: *const MPI_Fint,
    ranks1: *const MPI_Farray,
    group2: *const MPI_Fint,
    ranks2: *mut MPI_Farray,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_TRANSLATE_RANKS", Scope::NoObject, {
        nonnull!(group1, n, group2);
        let from = unsafe { farray(ranks1, count(*n)?) }?;
        let out =
            rt().group_translate_ranks(group_arg(group1)?, &ranks_arg(from)?, group_arg(group2)?)?;
        if !out.is_empty() {
            nonnull!(ranks2);
        }
        for (i, r) in out.into_iter().enumerate() {
            unsafe { *ranks2.add(i) = fint(r) };
        }
        Ok(())
    })
}

/// The three set operations on groups, from Fortran.
unsafe fn group_set_op(
    group1: *const MPI_Fint,
    group2: *const MPI_Fint,
    newgroup: *mut MPI_Fint,
    op: GroupOp,
) -> crate::error::Result<()> {
    nonnull!(group1, group2, newgroup);
    let g = rt().group_set_op(group_arg(group1)?, group_arg(group2)?, op)?;
    unsafe { *newgroup = fint(g.0) };
    Ok(())
}

/// `MPI_GROUP_UNION(GROUP1, GROUP2, NEWGROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_union_(
    group1: *const MPI_Fint,
    group2: *const MPI_Fint,
    newgroup: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_UNION", Scope::NoObject, {
        unsafe { group_set_op(group1, group2, newgroup, GroupOp::Union) }
    })
}

/// `MPI_GROUP_INTERSECTION(GROUP1, GROUP2, NEWGROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_intersection_(
    group1: *const MPI_Fint,
    group2: *const MPI_Fint,
    newgroup: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_INTERSECTION", Scope::NoObject, {
        unsafe { group_set_op(group1, group2, newgroup, GroupOp::Intersection) }
    })
}

/// `MPI_GROUP_DIFFERENCE(GROUP1, GROUP2, NEWGROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_difference_(
    group1: *const MPI_Fint,
    group2: *const MPI_Fint,
    newgroup: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GROUP_DIFFERENCE", Scope::NoObject, {
        unsafe { group_set_op(group1, group2, newgroup, GroupOp::Difference) }
    })
}

/// `MPI_WAIT(REQUEST, STATUS, IERROR)`, `INTEGER STATUS(MPI_STATUS_SIZE)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_wait_(
    request: *mut MPI_Fint,
    status: *mut MPI_Fstatus,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_WAIT", Scope::NoObject, {
        nonnull!(request);
        let (s, r) = rt().request_wait(request_arg(request)?)?;
        unsafe {
            *request = fint(r.0);
            crate::fortran::status::write(status, &s);
        }
        Ok(())
    })
}

/// `MPI_TEST(REQUEST, FLAG, STATUS, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_test_(
    request: *mut MPI_Fint,
    flag: *mut MPI_Flogical,
    status: *mut MPI_Fstatus,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_TEST", Scope::NoObject, {
        nonnull!(request, flag);
        match rt().request_test(request_arg(request)?)? {
            Tested::Done(s, r) => unsafe {
                *request = fint(r.0);
                *flag = logical(true);
                crate::fortran::status::write(status, &s);
            },
            Tested::Pending => unsafe { *flag = logical(false) },
        }
        Ok(())
    })
}

/// `MPI_REQUEST_FREE(REQUEST, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_request_free_(request: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_REQUEST_FREE", Scope::NoObject, {
        nonnull!(request);
        rt().request_free(request_arg(request)?)?;
        unsafe { *request = fint(MPI_REQUEST_NULL) };
        Ok(())
    })
}
