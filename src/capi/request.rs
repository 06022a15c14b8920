//! Request queries (MPI 4.1 §3.7.3, §3.7.5): `MPI_Request_get_status` and the MPI 4.1
//! `_any`, `_all`, `_some` forms, which never free or deactivate a request.

use crate::capi::boundary::Scope;
use crate::capi::status;
use crate::capi::types::*;
use crate::consts::*;
use crate::world::request::Tested;
use crate::world::status::Status;
use crate::world::{Error, Handle, Result, Runtime};
use crate::{entry, nonnull};
use std::ffi::c_int;

fn rt() -> &'static Runtime {
    Runtime::global()
}

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
        let reqs = unsafe { requests(array_of_requests, count) }?;
        let all = statuses(reqs)?;
        if all.iter().all(Option::is_none) {
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
            Some((i, s)) => unsafe {
                *flag = 1;
                *index = i as c_int;
                status::write(status, &s);
            },
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
        nonnull!(flag);
        let reqs = unsafe { requests(array_of_requests, count) }?;
        let all = statuses(reqs)?;
        let done = all.iter().all(|s| !matches!(s, Some(None)));
        unsafe { *flag = done as c_int };
        if done && !array_of_statuses.is_null() {
            for (i, s) in all.iter().enumerate() {
                let s = s.flatten().unwrap_or(Status::EMPTY);
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
        nonnull!(outcount);
        let reqs = unsafe { requests(array_of_requests, incount) }?;
        let all = statuses(reqs)?;
        if all.iter().all(Option::is_none) {
            unsafe { *outcount = MPI_UNDEFINED };
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
            unsafe {
                *array_of_indices.add(k) = *i as c_int;
                if !array_of_statuses.is_null() {
                    status::write(array_of_statuses.add(k), s);
                }
            }
        }
        unsafe { *outcount = done.len() as c_int };
        Ok(())
    })
}

/// Writes the `i`-th status of an array unless it is `MPI_STATUSES_IGNORE`.
///
/// # Safety
/// `statuses` is NULL or has room for `i + 1` statuses.
unsafe fn write_nth(statuses: *mut MPI_Status, i: usize, s: &Status) {
    if !statuses.is_null() {
        unsafe { status::write(statuses.add(i), s) };
    }
}

/// A single completion's outcome: a receive's error (truncation) is the call's error.
fn outcome(s: &Status) -> Result<()> {
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
        nonnull!(request);
        let (s, r) = rt().request_wait(Handle(unsafe { *request }))?;
        unsafe {
            *request = r.0;
            status::write(status, &s);
        }
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
        nonnull!(request, flag);
        match rt().request_test(Handle(unsafe { *request }))? {
            Tested::Done(s, r) => {
                unsafe {
                    *request = r.0;
                    *flag = 1;
                    status::write(status, &s);
                }
                outcome(&s)
            }
            Tested::Pending => {
                unsafe { *flag = 0 };
                Ok(())
            }
        }
    })
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
        if rt().request_is_active(Handle(r))? && rt().request_status(Handle(r))?.is_none() {
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
        let reqs = unsafe { requests(array_of_requests, count) }?;
        loop {
            if unsafe { testall(reqs, array_of_statuses) }? {
                return Ok(());
            }
            let hs: Vec<Handle> = reqs.iter().map(|&r| Handle(r)).collect();
            rt().wait_turn(&hs)?;
        }
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
        nonnull!(flag);
        let reqs = unsafe { requests(array_of_requests, count) }?;
        let done = unsafe { testall(reqs, array_of_statuses) };
        unsafe { *flag = matches!(done, Ok(true)) as c_int };
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

#[no_mangle]
pub unsafe extern "C" fn MPI_Waitany(
    count: c_int,
    array_of_requests: *mut MPI_Request,
    index: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    entry!("MPI_Waitany", Scope::NoObject, {
        nonnull!(index);
        let reqs = unsafe { requests(array_of_requests, count) }?;
        loop {
            match testany(reqs)? {
                Some(Some((i, s))) => {
                    unsafe {
                        *index = i as c_int;
                        status::write(status, &s);
                    }
                    return outcome(&s);
                }
                Some(None) => {
                    unsafe {
                        *index = MPI_UNDEFINED;
                        status::write(status, &Status::EMPTY);
                    }
                    return Ok(());
                }
                None => {
                    let hs: Vec<Handle> = reqs.iter().map(|&r| Handle(r)).collect();
                    rt().wait_turn(&hs)?;
                }
            }
        }
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
        nonnull!(index, flag);
        let reqs = unsafe { requests(array_of_requests, count) }?;
        match testany(reqs)? {
            Some(Some((i, s))) => {
                unsafe {
                    *flag = 1;
                    *index = i as c_int;
                    status::write(status, &s);
                }
                outcome(&s)
            }
            Some(None) => {
                unsafe {
                    *flag = 1;
                    *index = MPI_UNDEFINED;
                    status::write(status, &Status::EMPTY);
                }
                Ok(())
            }
            None => {
                unsafe {
                    *flag = 0;
                    *index = MPI_UNDEFINED;
                }
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
        unsafe {
            *indices.add(k) = *i as c_int;
            write_nth(statuses, k, s);
        }
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
        nonnull!(outcount);
        let reqs = unsafe { requests(array_of_requests, incount) }?;
        loop {
            match unsafe { testsome(reqs, array_of_indices, array_of_statuses) } {
                Ok(None) => {
                    unsafe { *outcount = MPI_UNDEFINED };
                    return Ok(());
                }
                Ok(Some(0)) => {
                    let hs: Vec<Handle> = reqs.iter().map(|&r| Handle(r)).collect();
                    rt().wait_turn(&hs)?;
                }
                Ok(Some(n)) => {
                    unsafe { *outcount = n as c_int };
                    return Ok(());
                }
                Err(e) => return Err(e),
            }
        }
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
        nonnull!(outcount);
        let reqs = unsafe { requests(array_of_requests, incount) }?;
        let n = unsafe { testsome(reqs, array_of_indices, array_of_statuses) }?;
        unsafe { *outcount = n.map_or(MPI_UNDEFINED, |n| n as c_int) };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Request_free(request: *mut MPI_Request) -> c_int {
    entry!("MPI_Request_free", Scope::NoObject, {
        nonnull!(request);
        rt().request_free(Handle(unsafe { *request }))?;
        unsafe { *request = MPI_REQUEST_NULL };
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn MPI_Cancel(request: *mut MPI_Request) -> c_int {
    entry!("MPI_Cancel", Scope::NoObject, {
        nonnull!(request);
        rt().cancel(Handle(unsafe { *request }))
    })
}
