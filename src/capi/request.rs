//! Request queries (MPI 4.1 §3.7.3, §3.7.5): `MPI_Request_get_status` and the MPI 4.1
//! `_any`, `_all`, `_some` forms, which never free or deactivate a request.

use crate::boundary::rt;
use crate::boundary::Out;
use crate::capi::boundary::Scope;
use crate::capi::status;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::request::Tested;
use crate::world::status::Status;
use crate::world::{Error, Handle, Result};
use crate::{entry, nonnull, try_out};
use std::ffi::c_int;

/// A C array of `count` requests (NULL allowed when `count` is 0).
///
/// # Safety
/// `p` must point to `count` requests when `count > 0`.
pub unsafe fn requests<'a>(p: *mut MPI_Request, count: c_int) -> Result<&'a mut [MPI_Request]> {
    let n = usize::try_from(count)
        .map_err(|_| Error::invalid(MPI_ERR_COUNT, format!("count {count} is negative")))?;
    if n == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(Error::NullArgument {
            name: "array_of_requests",
        });
    }
    // SAFETY: `p` is valid here by this function's contract (its `# Safety`).
    Ok(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// The statuses of the active requests among `reqs`; `None` where one is still pending.
/// Null requests are inactive (`MPI_REQUEST_NULL` gives `Some(None)`).
fn statuses(reqs: &[MPI_Request]) -> Result<Vec<Option<Option<Status>>>> {
    reqs.iter()
        .map(|&r| {
            if r == MPI_REQUEST_NULL {
                Ok(None)
            } else {
                rt().request_status(Handle(r)).map(Some)
            }
        })
        .collect()
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Request_get_status(
    request: MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Request_get_status", Scope::NoObject, {
        nonnull!(flag);
        let s = rt().request_status(Handle(request))?;
        // SAFETY: `flag`: an argument of this call, checked non-NULL above, valid for its type
        // during the call; `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's
        // contract for this routine, capi/mod.rs).
        unsafe {
            *flag = s.is_some() as c_int;
            if let Some(s) = s {
                status::write(status, &s);
            }
        }
        Ok(())
    })
}

/// `MPI_Request_get_status_any` (MPI 4.1 §3.7.5): the first complete active request; with no
/// active request, flag = true and index = `MPI_UNDEFINED` with the empty status.
#[no_mangle]
pub unsafe extern "C" fn MPI_Request_get_status_any(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Request_get_status_any", Scope::NoObject, {
        nonnull!(index, flag);
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, count) }?;
        let all = statuses(reqs)?;
        if all.iter().all(Option::is_none) {
            // SAFETY: `flag`, `index`: arguments of this call, checked non-NULL above, valid for
            // their types during the call; `write` needs `status` NULL (MPI_STATUS_IGNORE) or
            // writable (MPI's contract for this routine, capi/mod.rs).
            unsafe {
                *flag = 1;
                *index = MPI_UNDEFINED;
                status::write(status, &Status::EMPTY);
            }
            return Ok(());
        }
        match all
            .iter()
            .enumerate()
            .find_map(|(i, s)| s.flatten().map(|s| (i, s)))
        {
            // SAFETY: `flag`, `index`: arguments of this call, checked non-NULL above, valid for
            // their types during the call; `write` needs `status` NULL (MPI_STATUS_IGNORE) or
            // writable (MPI's contract for this routine, capi/mod.rs).
            Some((i, s)) => unsafe {
                *flag = 1;
                *index = i as c_int;
                status::write(status, &s);
            },
            // SAFETY: `flag`: an argument of this call, checked non-NULL above, valid for its type
            // during the call (MPI's contract for this routine, capi/mod.rs).
            None => unsafe { *flag = 0 },
        }
        Ok(())
    })
}

/// `MPI_Request_get_status_all`: flag = true when every active request is complete, with
/// their statuses (empty ones for null requests).
#[no_mangle]
pub unsafe extern "C" fn MPI_Request_get_status_all(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    flag: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Request_get_status_all", Scope::NoObject, {
        let flag = try_out!(flag);
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, count) }?;
        let all = statuses(reqs)?;
        let done = all.iter().all(|s| !matches!(s, Some(None)));
        flag.set(done as c_int);
        if done && !array_of_statuses.is_null() {
            for (i, s) in all.iter().enumerate() {
                let s = s.flatten().unwrap_or(Status::EMPTY);
                // SAFETY: `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's
                // contract for this routine, capi/mod.rs).
                unsafe { status::write(array_of_statuses.add(i), &s) };
            }
        }
        Ok(())
    })
}

/// `MPI_Request_get_status_some`: the indices of the complete active requests; with no active
/// request, outcount = `MPI_UNDEFINED`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Request_get_status_some(
    incount: c_int,
    array_of_requests: *mut MPI_Request,
    outcount: *mut c_int,
    array_of_indices: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Request_get_status_some", Scope::NoObject, {
        let outcount = try_out!(outcount);
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, incount) }?;
        let all = statuses(reqs)?;
        if all.iter().all(Option::is_none) {
            outcount.set(MPI_UNDEFINED);
            return Ok(());
        }
        let done: Vec<(usize, Status)> = all
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.flatten().map(|s| (i, s)))
            .collect();
        if !done.is_empty() {
            nonnull!(array_of_indices);
        }
        for (k, (i, s)) in done.iter().enumerate() {
            // SAFETY: `array_of_indices`: an argument of this call, checked non-NULL above, valid
            // for its type during the call; `write` needs `status` NULL (MPI_STATUS_IGNORE) or
            // writable (MPI's contract for this routine, capi/mod.rs).
            // SAFETY: `indices` is not NULL (checked above) and has room for `incount` entries,
            // `statuses` is NULL or has as many (MPI's contract for MPI_Testsome / MPI_Waitsome);
            // `k` < number done <= `incount`.
            unsafe {
                *array_of_indices.add(k) = *i as c_int;
                if !array_of_statuses.is_null() {
                    status::write(array_of_statuses.add(k), s);
                }
            }
        }
        outcount.set(done.len() as c_int);
        Ok(())
    })
}

/// Writes the `i`-th status of an array unless it is `MPI_STATUSES_IGNORE`.
///
/// # Safety
/// `statuses` is NULL or has room for `i + 1` statuses.
unsafe fn write_nth(statuses: *mut MPI_Status, i: usize, s: &Status) {
    if !statuses.is_null() {
        // SAFETY: `statuses` is valid here by this function's contract (its `# Safety`).
        unsafe { status::write(statuses.add(i), s) };
    }
}

/// A single completion's outcome: a receive's error (truncation) is the call's error.
pub(crate) fn outcome(s: &Status) -> Result<()> {
    match s.error {
        MPI_SUCCESS => Ok(()),
        MPI_ERR_TRUNCATE => Err(Error::invalid(
            MPI_ERR_TRUNCATE,
            format!(
                "the message of {} bytes and more did not fit the receive buffer",
                s.bytes
            ),
        )),
        c => Err(Error::invalid(c, "the operation failed")),
    }
}

/// The outcome of a multiple completion (MPI 4.1 §3.7.5): `MPI_ERR_IN_STATUS` when any
/// completed operation failed (its status's error field says which).
fn outcome_all<'a>(done: impl IntoIterator<Item = &'a Status>) -> Result<()> {
    if done.into_iter().any(|s| s.error != MPI_SUCCESS) {
        return Err(Error::invalid(
            MPI_ERR_IN_STATUS,
            "an operation failed: see the error field of its status",
        ));
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Wait(request: *mut MPI_Request, status: *mut MPI_Status) -> c_int {
    entry!("MPI_Wait", Scope::NoObject, {
        let request = try_out!(request);
        let (s, r) = rt().request_wait(Handle(request.get()))?;
        request.set(r.0);
        // SAFETY: `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's contract for
        // this routine, capi/mod.rs).
        unsafe { status::write(status, &s) };
        outcome(&s)
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Test(
    request: *mut MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Test", Scope::NoObject, {
        let (request, flag) = (try_out!(request), try_out!(flag));
        match rt().request_test(Handle(request.get()))? {
            Tested::Done(s, r) => {
                request.set(r.0);
                flag.set(1);
                // SAFETY: `write` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's
                // contract for this routine, capi/mod.rs).
                unsafe { status::write(status, &s) };
                outcome(&s)
            }
            Tested::Pending => {
                flag.set(0);
                Ok(())
            }
        }
    })
}

/// A wait by testing: `test` until it answers, giving the turn to other threads between tries
/// (`wait_turn` fails with the deadlock error when nothing can complete the requests).
fn wait_for<T>(
    reqs: &mut [MPI_Request],
    mut test: impl FnMut(&mut [MPI_Request]) -> Result<Option<T>>,
) -> Result<T> {
    loop {
        if let Some(answer) = test(reqs)? {
            return Ok(answer);
        }
        let hs: Vec<Handle> = reqs.iter().map(|&r| Handle(r)).collect();
        rt().wait_turn(&hs)?;
    }
}

/// Tests every active request of `reqs` once, completing those that are done.
fn test_each(reqs: &mut [MPI_Request]) -> Result<Vec<Option<Status>>> {
    let mut out = Vec::with_capacity(reqs.len());
    for r in reqs.iter_mut() {
        if !rt().request_is_active(Handle(*r))? {
            out.push(None);
            continue;
        }
        match rt().request_test(Handle(*r))? {
            Tested::Done(s, h) => {
                *r = h.0;
                out.push(Some(s));
            }
            Tested::Pending => out.push(None),
        }
    }
    Ok(out)
}

/// Whether every request of `reqs` is inactive or complete (nothing is completed here).
fn all_complete(reqs: &[MPI_Request]) -> Result<bool> {
    for &r in reqs {
        if rt().request_is_active(Handle(r))? && !rt().request_done(Handle(r))? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `MPI_Testall`'s work: completes all or none (MPI 4.1 §3.7.5).
unsafe fn testall(reqs: &mut [MPI_Request], statuses: *mut MPI_Status) -> Result<bool> {
    if !all_complete(reqs)? {
        return Ok(false);
    }
    let mut done = Vec::with_capacity(reqs.len());
    for (i, r) in reqs.iter_mut().enumerate() {
        let s = if rt().request_is_active(Handle(*r))? {
            match rt().request_test(Handle(*r))? {
                Tested::Done(s, h) => {
                    *r = h.0;
                    s
                }
                Tested::Pending => unreachable!("checked complete"),
            }
        } else {
            Status::EMPTY
        };
        // SAFETY: `statuses` is NULL or has room for every request, this function's callers'
        // contract (MPI_Testall's), which is what `write_nth` asks.
        unsafe { write_nth(statuses, i, &s) };
        done.push(s);
    }
    outcome_all(&done)?;
    Ok(true)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Waitall(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    array_of_statuses: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Waitall", Scope::NoObject, {
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, count) }?;
        wait_for(reqs, |reqs| {
            // SAFETY: `testall` needs `statuses` NULL or with room for every request (MPI's
            // contract for this routine, capi/mod.rs).
            let done = unsafe { testall(reqs, array_of_statuses) }?;
            Ok(done.then_some(()))
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Testall(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    flag: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Testall", Scope::NoObject, {
        let flag = try_out!(flag);
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, count) }?;
        // SAFETY: `testall` needs `statuses` NULL or with room for every request (MPI's contract
        // for this routine, capi/mod.rs).
        let done = unsafe { testall(reqs, array_of_statuses) };
        flag.set(matches!(done, Ok(true)) as c_int);
        done.map(drop)
    })
}

/// `MPI_Testany`'s work: the first complete active request, `Some(None)` when none is active.
fn testany(reqs: &mut [MPI_Request]) -> Result<Option<Option<(usize, Status)>>> {
    let mut any_active = false;
    for (i, r) in reqs.iter_mut().enumerate() {
        if !rt().request_is_active(Handle(*r))? {
            continue;
        }
        any_active = true;
        if let Tested::Done(s, h) = rt().request_test(Handle(*r))? {
            *r = h.0;
            return Ok(Some(Some((i, s))));
        }
    }
    Ok(if any_active { None } else { Some(None) })
}

/// Stores what [`testany`] found: the request's index and status, or `MPI_UNDEFINED` and the
/// empty status when no request was active (MPI 4.1 §3.7.5).
///
/// # Safety
/// `status` is NULL or writable.
unsafe fn any_found(
    found: Option<(usize, Status)>,
    index: &Out<c_int>,
    status: *mut MPI_Status,
) -> Result<()> {
    let (i, s) = found.map_or((MPI_UNDEFINED, Status::EMPTY), |(i, s)| (i as c_int, s));
    index.set(i);
    // SAFETY: `status` is valid here by this function's contract (its `# Safety`).
    unsafe { status::write(status, &s) };
    outcome(&s)
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Waitany(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    index: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Waitany", Scope::NoObject, {
        let index = try_out!(index);
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, count) }?;
        let found = wait_for(reqs, testany)?;
        // SAFETY: `any_found` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's contract
        // for this routine, capi/mod.rs).
        unsafe { any_found(found, &index, status) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Testany(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Testany", Scope::NoObject, {
        let (index, flag) = (try_out!(index), try_out!(flag));
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, count) }?;
        match testany(reqs)? {
            Some(found) => {
                flag.set(1);
                // SAFETY: `any_found` needs `status` NULL (MPI_STATUS_IGNORE) or writable (MPI's
                // contract for this routine, capi/mod.rs).
                unsafe { any_found(found, &index, status) }
            }
            None => {
                flag.set(0);
                index.set(MPI_UNDEFINED);
                Ok(())
            }
        }
    })
}

/// `MPI_Testsome`'s work: completes every complete active request; `None` when none is active.
unsafe fn testsome(
    reqs: &mut [MPI_Request],
    indices: *mut c_int,
    statuses: *mut MPI_Status,
    outcount: &Out<c_int>,
) -> Result<Option<usize>> {
    let mut any_active = false;
    for &r in reqs.iter() {
        any_active |= rt().request_is_active(Handle(r))?;
    }
    if !any_active {
        return Ok(None);
    }
    let done: Vec<(usize, Status)> = test_each(reqs)?
        .into_iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|s| (i, s)))
        .collect();
    if !done.is_empty() {
        nonnull!(indices);
    }
    for (k, (i, s)) in done.iter().enumerate() {
        // SAFETY: `indices` is not NULL (checked above) and has room for one entry per request,
        // `statuses` is NULL or has as many (MPI's contract for MPI_Testsome, whose arguments
        // these are); `k` < the number done <= the number of requests.
        unsafe {
            *indices.add(k) = *i as c_int;
            write_nth(statuses, k, s);
        }
    }
    // With MPI_ERR_IN_STATUS the count and indices are still the answer (MPI 4.1 §3.7.5).
    if !done.is_empty() {
        outcount.set(done.len() as c_int);
    }
    outcome_all(done.iter().map(|(_, s)| s))?;
    Ok(Some(done.len()))
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Waitsome(
    incount: c_int,
    array_of_requests: *mut MPI_Request,
    outcount: *mut c_int,
    array_of_indices: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Waitsome", Scope::NoObject, {
        let outcount = try_out!(outcount);
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, incount) }?;
        let n = wait_for(reqs, |reqs| {
            // SAFETY: `testsome` needs the index and status arrays with room for every request
            // (MPI's contract for this routine, capi/mod.rs).
            Ok(
                match unsafe { testsome(reqs, array_of_indices, array_of_statuses, &outcount) }? {
                    None => Some(MPI_UNDEFINED),
                    Some(0) => None,
                    Some(n) => Some(n as c_int),
                },
            )
        })?;
        outcount.set(n);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Testsome(
    incount: c_int,
    array_of_requests: *mut MPI_Request,
    outcount: *mut c_int,
    array_of_indices: *mut c_int,
    array_of_statuses: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Testsome", Scope::NoObject, {
        let outcount = try_out!(outcount);
        // SAFETY: `requests` needs `count` readable requests when `count > 0` (MPI's contract for
        // this routine, capi/mod.rs).
        let reqs = unsafe { requests(array_of_requests, incount) }?;
        // SAFETY: `testsome` needs the index and status arrays with room for every request (MPI's
        // contract for this routine, capi/mod.rs).
        let n = unsafe { testsome(reqs, array_of_indices, array_of_statuses, &outcount) }?;
        outcount.set(n.map_or(MPI_UNDEFINED, |n| n as c_int));
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Request_free(request: *mut MPI_Request) -> c_int {
    entry!("MPI_Request_free", Scope::NoObject, {
        let request = try_out!(request);
        rt().request_free(Handle(request.get()))?;
        request.set(MPI_REQUEST_NULL);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Cancel(request: *mut MPI_Request) -> c_int {
    entry!("MPI_Cancel", Scope::NoObject, {
        let request = try_out!(request);
        rt().cancel(Handle(request.get()))
    })
}
