//! Fortran communicator, group and request routines.

use crate::boundary::{rt, Out, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::strings::{read_fortran_string, write_fortran_string};
use crate::fortran::{
    by_ref, fint, logical, narrow, scope_handle, MPI_Farray, MPI_Fint, MPI_Flogical, MPI_Franges,
    MPI_Fstatus,
};
use crate::world::comm::GroupOp;
use crate::world::request::Tested;
use crate::world::{Error, Handle, HandleKind};
use crate::{nonnull, try_in, try_out};
use std::borrow::Cow;
use std::ffi::c_char;

/// `MPI_COMM_DUP(COMM, NEWCOMM, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_dup_(
    comm: *const MPI_Fint,
    newcomm: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_DUP",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            let newcomm = try_out!(newcomm);
            let h = rt().comm_dup(Handle(c));
            // MPI 4.1 §7.4.2: on failure the new handle is MPI_COMM_NULL.
            newcomm.set(fint(h.as_ref().map_or(MPI_COMM_NULL, |h| h.0)));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_DUP_WITH_INFO",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(info);
            let newcomm = try_out!(newcomm);
            rt().check_handle(HandleKind::Info, info_arg(try_in!(info))?)?;
            let h = rt().comm_dup(Handle(c));
            newcomm.set(fint(h.as_ref().map_or(MPI_COMM_NULL, |h| h.0)));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_IDUP",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            let newcomm = try_out!(newcomm);
            let request = try_out!(request);
            let r = rt().comm_idup(Handle(c));
            newcomm.set(fint(r.as_ref().map_or(MPI_COMM_NULL, |(c, _)| c.0)));
            request.set(fint(r.as_ref().map_or(MPI_REQUEST_NULL, |(_, q)| q.0)));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_SPLIT",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(color, key);
            let newcomm = try_out!(newcomm);
            let color = narrow(try_in!(color), MPI_ERR_ARG, "color")?;
            let key = narrow(try_in!(key), MPI_ERR_ARG, "key")?;
            let h = rt().comm_split(Handle(c), color, key)?;
            newcomm.set(fint(h.0));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_SPLIT_TYPE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(split_type, key, info);
            let newcomm = try_out!(newcomm);
            let split_type = narrow(try_in!(split_type), MPI_ERR_ARG, "split_type")?;
            narrow(try_in!(key), MPI_ERR_ARG, "key")?;
            let h = rt().comm_split_type(Handle(c), split_type, info_arg(try_in!(info))?)?;
            newcomm.set(fint(h.0));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_CREATE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(group);
            let newcomm = try_out!(newcomm);
            let h = rt().comm_create(Handle(c), group_arg(try_in!(group))?)?;
            newcomm.set(fint(h.0));
            Ok(())
        }
    )
}

/// `MPI_COMM_FREE(COMM, IERROR)`: sets COMM to MPI_COMM_NULL.
#[no_mangle]
pub unsafe extern "C" fn mpi_comm_free_(comm: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_FREE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(comm);
            rt().comm_free(Handle(c))?;
            // SAFETY: `comm`: an argument of this call, checked non-NULL above, valid for its type
            // during the call (the by-reference contract of this entry point, fortran/mod.rs).
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_SIZE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            let size = try_out!(size);
            let n = rt().comm_size(Handle(c))?;
            size.set(fint(n));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_RANK",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            let rank = try_out!(rank);
            let r = rt().comm_rank(Handle(c))?;
            rank.set(fint(r));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm1, 0) };
    fentry!(
        ierror,
        "MPI_COMM_COMPARE",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(comm2);
            let result = try_out!(result);
            let comm2 = narrow(try_in!(comm2), MPI_ERR_COMM, "comm2")?;
            let r = rt().comm_compare(Handle(c), Handle(comm2))?;
            result.set(fint(r));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_TEST_INTER",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            let flag = try_out!(flag);
            rt().comm_size(Handle(c))?;
            flag.set(logical(false));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_SET_NAME",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(comm_name);
            // SAFETY: `read_fortran_string` needs the CHARACTER argument to have its hidden length
            // in readable bytes (the by-reference contract of this entry point, fortran/mod.rs).
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_GET_NAME",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            nonnull!(comm_name);
            let resultlen = try_out!(resultlen);
            let name = rt().comm_get_name(Handle(c))?;
            // SAFETY: `write_fortran_string` needs the CHARACTER argument to have its hidden length
            // in writable bytes (the by-reference contract of this entry point, fortran/mod.rs).
            let n = unsafe {
                write_fortran_string(
                    comm_name,
                    comm_name_len,
                    MPI_MAX_OBJECT_NAME as usize,
                    &name,
                )
            };
            resultlen.set(fint(n));
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
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let c = unsafe { by_ref(comm, 0) };
    fentry!(
        ierror,
        "MPI_COMM_GROUP",
        Scope::Comm(scope_handle(c, MPI_COMM_NULL)),
        {
            let c = narrow(c, MPI_ERR_COMM, "comm")?;
            let group = try_out!(group);
            let g = rt().comm_group(Handle(c))?;
            group.set(fint(g.0));
            Ok(())
        }
    )
}

/// `MPI_GROUP_FREE(GROUP, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_group_free_(group: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_GROUP_FREE", Scope::NoObject, {
        nonnull!(group);
        rt().group_free(group_arg(try_in!(group))?)?;
        // SAFETY: `group`: an argument of this call, checked non-NULL above, valid for its type
        // during the call (the by-reference contract of this entry point, fortran/mod.rs).
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
        nonnull!(group);
        let size = try_out!(size);
        let n = rt().group_size(group_arg(try_in!(group))?)?;
        size.set(fint(n));
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
        nonnull!(group);
        let rank = try_out!(rank);
        let r = rt().group_rank(group_arg(try_in!(group))?)?;
        rank.set(fint(r));
        Ok(())
    })
}

/// The handle an INFO argument holds (read with `try_in!`).
fn info_arg(v: MPI_Fint) -> crate::error::Result<Handle> {
    Ok(Handle(narrow(v, MPI_ERR_INFO, "info")?))
}

/// The handle a GROUP argument holds (read with `try_in!`).
fn group_arg(v: MPI_Fint) -> crate::error::Result<Handle> {
    Ok(Handle(narrow(v, MPI_ERR_GROUP, "group")?))
}

/// The handle a REQUEST argument holds (read with `try_in!`).
fn request_arg(v: MPI_Fint) -> crate::error::Result<Handle> {
    Ok(Handle(narrow(v, MPI_ERR_REQUEST, "request")?))
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
        nonnull!(group, n);
        let newgroup = try_out!(newgroup);
        // SAFETY: `n`: an argument of this call, checked non-NULL above, valid for its type during
        // the call; `farray` needs the array to hold `n` entries when `n > 0` (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let ranks = unsafe { farray(ranks, count(*n)?) }?;
        let g = rt().group_incl(group_arg(try_in!(group))?, &ranks_arg(ranks)?)?;
        newgroup.set(fint(g.0));
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
        nonnull!(group, n);
        let newgroup = try_out!(newgroup);
        // SAFETY: `n`: an argument of this call, checked non-NULL above, valid for its type during
        // the call; `farray` needs the array to hold `n` entries when `n > 0` (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let ranges = unsafe { farray(ranges, count(*n)?) }?;
        let g = rt().group_range_incl(group_arg(try_in!(group))?, &ranges_arg(ranges)?)?;
        newgroup.set(fint(g.0));
        Ok(())
    })
}

/// An `INTEGER X(*)`-style array argument of `n` entries (not read when `n` is 0).
unsafe fn farray<'a, T>(p: *const T, n: usize) -> crate::error::Result<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    nonnull!(p);
    // SAFETY: `p` is not NULL (checked above) and the caller's array of `n` entries (this
    // function's callers pass their by-reference array argument with its length).
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
        nonnull!(group, n);
        let newgroup = try_out!(newgroup);
        // SAFETY: `n`: an argument of this call, checked non-NULL above, valid for its type during
        // the call; `farray` needs the array to hold `n` entries when `n > 0` (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let ranks = unsafe { farray(ranks, count(*n)?) }?;
        let g = rt().group_excl(group_arg(try_in!(group))?, &ranks_arg(ranks)?)?;
        newgroup.set(fint(g.0));
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
        nonnull!(group, n);
        let newgroup = try_out!(newgroup);
        // SAFETY: `n`: an argument of this call, checked non-NULL above, valid for its type during
        // the call; `farray` needs the array to hold `n` entries when `n > 0` (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let ranges = unsafe { farray(ranges, count(*n)?) }?;
        let g = rt().group_range_excl(group_arg(try_in!(group))?, &ranges_arg(ranges)?)?;
        newgroup.set(fint(g.0));
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
        // SAFETY: `n`: an argument of this call, checked non-NULL above, valid for its type during
        // the call; `farray` needs the array to hold `n` entries when `n > 0` (the by-reference
        // contract of this entry point, fortran/mod.rs).
        let from = unsafe { farray(ranks1, count(*n)?) }?;
        let out = rt().group_translate_ranks(
            group_arg(try_in!(group1))?,
            &ranks_arg(from)?,
            group_arg(try_in!(group2))?,
        )?;
        if !out.is_empty() {
            nonnull!(ranks2);
        }
        for (i, r) in out.into_iter().enumerate() {
            // SAFETY: `ranks2`: an argument of this call, checked non-NULL above, valid for its
            // type during the call (the by-reference contract of this entry point, fortran/mod.rs).
            unsafe { *ranks2.add(i) = fint(r) };
        }
        Ok(())
    })
}

/// The three set operations on groups, from Fortran: the groups read and the new one written
/// by the entry points (`try_in!` / `try_out!`).
fn group_set_op(
    group1: MPI_Fint,
    group2: MPI_Fint,
    newgroup: Out<MPI_Fint>,
    op: GroupOp,
) -> crate::error::Result<()> {
    let g = rt().group_set_op(group_arg(group1)?, group_arg(group2)?, op)?;
    newgroup.set(fint(g.0));
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
        let (group1, group2) = (try_in!(group1), try_in!(group2));
        group_set_op(group1, group2, try_out!(newgroup), GroupOp::Union)
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
        let (group1, group2) = (try_in!(group1), try_in!(group2));
        group_set_op(group1, group2, try_out!(newgroup), GroupOp::Intersection)
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
        let (group1, group2) = (try_in!(group1), try_in!(group2));
        group_set_op(group1, group2, try_out!(newgroup), GroupOp::Difference)
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
        let request = try_out!(request);
        let (s, r) = rt().request_wait(request_arg(request.get())?)?;
        request.set(fint(r.0));
        // SAFETY: `status` is the routine's STATUS argument, MPI_STATUS_IGNORE or
        // MPI_STATUS_SIZE writable INTEGERs (the by-reference contract, fortran/mod.rs), as
        // `write` asks.
        unsafe { crate::fortran::status::write(status, &s) };
        // A failed operation (truncation, a generalized request's callback) is the call's error.
        crate::capi::request::outcome(&s)
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
        let (request, flag) = (try_out!(request), try_out!(flag));
        match rt().request_test(request_arg(request.get())?)? {
            Tested::Done(s, r) => {
                request.set(fint(r.0));
                flag.set(logical(true));
                // SAFETY: `write` needs `status` MPI_STATUS_IGNORE or MPI_STATUS_SIZE writable
                // INTEGERs (the by-reference contract of this entry point, fortran/mod.rs).
                unsafe { crate::fortran::status::write(status, &s) };
                crate::capi::request::outcome(&s)
            }
            Tested::Pending => {
                flag.set(logical(false));
                Ok(())
            }
        }
    })
}

/// `MPI_REQUEST_FREE(REQUEST, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_request_free_(request: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    fentry!(ierror, "MPI_REQUEST_FREE", Scope::NoObject, {
        nonnull!(request);
        rt().request_free(request_arg(try_in!(request))?)?;
        // SAFETY: `request`: an argument of this call, checked non-NULL above, valid for its type
        // during the call (the by-reference contract of this entry point, fortran/mod.rs).
        unsafe { *request = fint(MPI_REQUEST_NULL) };
        Ok(())
    })
}
