//! `MPI_GREQUEST_START(QUERY_FN, FREE_FN, CANCEL_FN, EXTRA_STATE, REQUEST, IERROR)` (MPI 4.1
//! §13.2): the callbacks follow Fortran's conventions, every argument by reference and IERROR
//! last: `QUERY_FN(EXTRA_STATE, STATUS, IERROR)` with `INTEGER STATUS(MPI_STATUS_SIZE)` (or
//! `TYPE(MPI_Status)` from `mpi_f08`, the same INTEGERs), `FREE_FN(EXTRA_STATE, IERROR)`,
//! `CANCEL_FN(EXTRA_STATE, COMPLETE, IERROR)` with `LOGICAL COMPLETE`; `EXTRA_STATE` is
//! `INTEGER(KIND=MPI_ADDRESS_KIND)`. `MPI_GREQUEST_COMPLETE` is generated.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::fentry;
use crate::fortran::status::{read, write};
use crate::fortran::{
    callback_code, logical, MPI_Aint, MPI_Fint, MPI_Flogical, MPI_Frequest, MPI_Fstatus,
};
use crate::try_out;
use crate::world::grequest::GrequestCalls;
use crate::world::status::Status;
use std::sync::Arc;

/// `QUERY_FN(EXTRA_STATE, STATUS, IERROR)`.
pub type MPI_Fgrequest_query_function = unsafe extern "C" fn(
    extra_state: *mut MPI_Aint,
    status: *mut MPI_Fstatus,
    ierror: *mut MPI_Fint,
);
/// `FREE_FN(EXTRA_STATE, IERROR)`.
pub type MPI_Fgrequest_free_function =
    unsafe extern "C" fn(extra_state: *mut MPI_Aint, ierror: *mut MPI_Fint);
/// `CANCEL_FN(EXTRA_STATE, COMPLETE, IERROR)`.
pub type MPI_Fgrequest_cancel_function = unsafe extern "C" fn(
    extra_state: *mut MPI_Aint,
    complete: *mut MPI_Flogical,
    ierror: *mut MPI_Fint,
);

/// The Fortran callbacks of one generalized request. Each gets its own copy of EXTRA_STATE
/// (the value given to MPI_GREQUEST_START) and an IERROR preset to MPI_SUCCESS.
struct FortranCalls {
    query: Option<MPI_Fgrequest_query_function>,
    free: Option<MPI_Fgrequest_free_function>,
    cancel: Option<MPI_Fgrequest_cancel_function>,
    extra_state: MPI_Aint,
}

impl GrequestCalls for FortranCalls {
    fn query(&self, start: Status) -> (Status, i32) {
        let Some(f) = self.query else {
            return (start, 0);
        };
        let mut status = [0 as MPI_Fint; crate::consts::MPI_STATUS_SIZE as usize];
        let (mut extra, mut ierror) = (self.extra_state, 0 as MPI_Fint);
        // SAFETY: `status` has MPI_STATUS_SIZE INTEGERs, what `write` and `read` ask; `f` is the
        // program's QUERY_FN, called by reference with variables that live for the call (MPI's
        // contract for MPI_GREQUEST_START, fortran/mod.rs).
        unsafe {
            write(status.as_mut_ptr(), &start);
            f(&mut extra, status.as_mut_ptr(), &mut ierror);
            (read(status.as_ptr()), callback_code(ierror))
        }
    }

    fn free(&self) -> i32 {
        let Some(f) = self.free else { return 0 };
        let (mut extra, mut ierror) = (self.extra_state, 0 as MPI_Fint);
        // SAFETY: the program's FREE_FN, called by reference with variables that live for the
        // call (MPI's contract for MPI_GREQUEST_START, fortran/mod.rs).
        unsafe { f(&mut extra, &mut ierror) };
        callback_code(ierror)
    }

    fn cancel(&self, complete: bool) -> i32 {
        let Some(f) = self.cancel else { return 0 };
        let (mut extra, mut done, mut ierror) =
            (self.extra_state, logical(complete), 0 as MPI_Fint);
        // SAFETY: the program's CANCEL_FN, called by reference with variables that live for the
        // call (MPI's contract for MPI_GREQUEST_START, fortran/mod.rs).
        unsafe { f(&mut extra, &mut done, &mut ierror) };
        callback_code(ierror)
    }
}

/// `MPI_GREQUEST_START(QUERY_FN, FREE_FN, CANCEL_FN, EXTRA_STATE, REQUEST, IERROR)`.
#[no_mangle]
pub unsafe extern "C" fn mpi_grequest_start_(
    query_fn: Option<MPI_Fgrequest_query_function>,
    free_fn: Option<MPI_Fgrequest_free_function>,
    cancel_fn: Option<MPI_Fgrequest_cancel_function>,
    extra_state: *const MPI_Aint,
    request: *mut MPI_Frequest,
    ierror: *mut MPI_Fint,
) {
    fentry!(ierror, "MPI_GREQUEST_START", Scope::NoObject, {
        let extra_state = crate::try_in!(extra_state);
        let request = try_out!(request);
        let calls = FortranCalls {
            query: query_fn,
            free: free_fn,
            cancel: cancel_fn,
            extra_state,
        };
        let h = rt().grequest_start(Arc::new(calls))?;
        request.set(crate::fortran::fint(h.0));
        Ok(())
    })
}
