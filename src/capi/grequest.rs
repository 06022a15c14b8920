//! Generalized requests (MPI 4.1 §13.2): `MPI_Grequest_start` and `MPI_Grequest_complete`.
//! The world decides when the callbacks run (`world::grequest`); this face calls them with C's
//! conventions.

use crate::boundary::rt;
use crate::capi::boundary::Scope;
use crate::capi::status;
use crate::capi::types::*;
use crate::world::grequest::GrequestCalls;
use crate::world::status::Status;
use crate::world::Handle;
use crate::{entry, try_out};
use std::ffi::{c_int, c_void};
use std::sync::Arc;

/// The C callbacks of one generalized request and their `extra_state`. A NULL callback does
/// nothing and succeeds (MPICH accepts NULL too); `query_fn` NULL leaves the empty status.
struct CCalls {
    query: Option<MPI_Grequest_query_function>,
    free: Option<MPI_Grequest_free_function>,
    cancel: Option<MPI_Grequest_cancel_function>,
    extra_state: usize,
}

impl GrequestCalls for CCalls {
    fn query(&self, start: Status) -> (Status, c_int) {
        let Some(f) = self.query else {
            return (start, 0);
        };
        let mut s = status::to_c(&start);
        // SAFETY: `f` is the program's query_fn, callable with its extra_state and a status it
        // may fill (MPI's contract for MPI_Grequest_start, capi/mod.rs); `s` lives for the call.
        let rc = unsafe { f(self.extra_state as *mut c_void, &mut s) };
        (status::from_c(&s), rc)
    }

    fn free(&self) -> c_int {
        // SAFETY: the program's free_fn with its extra_state (MPI's contract for
        // MPI_Grequest_start, capi/mod.rs).
        self.free
            .map_or(0, |f| unsafe { f(self.extra_state as *mut c_void) })
    }

    fn cancel(&self, complete: bool) -> c_int {
        // SAFETY: the program's cancel_fn with its extra_state (MPI's contract for
        // MPI_Grequest_start, capi/mod.rs).
        self.cancel.map_or(0, |f| unsafe {
            f(self.extra_state as *mut c_void, complete as c_int)
        })
    }
}

/// `MPI_Grequest_start`: a request the program completes with `MPI_Grequest_complete`.
#[no_mangle]
pub unsafe extern "C" fn MPI_Grequest_start(
    query_fn: Option<MPI_Grequest_query_function>,
    free_fn: Option<MPI_Grequest_free_function>,
    cancel_fn: Option<MPI_Grequest_cancel_function>,
    extra_state: *mut c_void,
    request: *mut MPI_Request,
) -> c_int {
    entry!("MPI_Grequest_start", Scope::NoObject, {
        let request = try_out!(request);
        let calls = CCalls {
            query: query_fn,
            free: free_fn,
            cancel: cancel_fn,
            extra_state: extra_state as usize,
        };
        let h = rt().grequest_start(Arc::new(calls))?;
        request.set(h.0);
        Ok(())
    })
}

/// `MPI_Grequest_complete`: the operation of a generalized request is done.
#[no_mangle]
pub unsafe extern "C" fn MPI_Grequest_complete(request: MPI_Request) -> c_int {
    entry!("MPI_Grequest_complete", Scope::NoObject, {
        rt().grequest_complete(Handle(request))
    })
}
