//! Fortran session routines the generator cannot bind (MPI 4.1 §11.3.2): a CHARACTER output
//! whose length argument is INOUT.

use crate::boundary::{rt, Scope};
use crate::consts::*;
use crate::fentry;
use crate::fortran::strings::write_fortran_string;
use crate::fortran::{by_ref, fint, narrow, scope_handle, MPI_Finfo, MPI_Fint, MPI_Fsession};
use crate::world::{Error, Handle, HandleKind};
use crate::{nonnull, try_in, try_out};
use std::ffi::c_char;

/// `MPI_SESSION_GET_NTH_PSET(SESSION, INFO, N, PSET_LEN, PSET_NAME, IERROR)`: PSET_LEN is
/// INOUT: on input the number of characters PSET_NAME may receive (0 leaves it unchanged), on
/// output the name's length (no terminator in Fortran, unlike the C binding's "+ 1").
#[no_mangle]
pub unsafe extern "C" fn mpi_session_get_nth_pset_(
    session: *const MPI_Fsession,
    info: *const MPI_Finfo,
    n: *const MPI_Fint,
    pset_len: *mut MPI_Fint,
    pset_name: *mut c_char,
    ierror: *mut MPI_Fint,
    pset_name_len: usize,
) {
    // SAFETY: `by_ref` needs its argument NULL or the caller's INTEGER (the by-reference contract
    // of this entry point, fortran/mod.rs).
    let s = unsafe { by_ref(session, MPI_SESSION_NULL) };
    fentry!(
        ierror,
        "MPI_SESSION_GET_NTH_PSET",
        Scope::Session(scope_handle(s, MPI_SESSION_NULL)),
        {
            let s = narrow(s, MPI_ERR_SESSION, "session")?;
            nonnull!(info);
            // SAFETY: `info` checked non-NULL above (fortran/mod.rs contract).
            let i = narrow(unsafe { *info }, MPI_ERR_INFO, "info")?;
            let n = try_in!(n);
            let n = narrow(n, MPI_ERR_ARG, "n")?;
            let len = try_out!(pset_len);
            rt().check_handle(HandleKind::Info, Handle(i))?;
            let name = rt().session_nth_pset(Handle(s), n)?;
            let room = usize::try_from(len.get())
                .map_err(|_| Error::invalid(MPI_ERR_ARG, "PSET_LEN is negative"))?;
            if room > 0 {
                nonnull!(pset_name);
                // SAFETY: `pset_name` is not NULL (checked above) and a CHARACTER of
                // `pset_name_len` bytes (the by-reference contract of this entry point).
                unsafe { write_fortran_string(pset_name, pset_name_len, room, name) };
            }
            len.set(fint(i32::try_from(name.len()).unwrap_or(i32::MAX)));
            Ok(())
        }
    )
}
