//! Request queries (MPI 4.1 §3.7.3, §3.7.5): `MPI_Request_get_status` and the MPI 4.1
//! `_any`, `_all`, `_some` forms, which never free or deactivate a request.

use crate::capi::boundary::Scope;
use crate::capi::status;
use crate::capi::types::*;
use crate::consts::*;
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
