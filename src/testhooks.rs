//! Test-only hooks, compiled only with the `test-hooks` feature (which the tests enable through
//! the crate's self dev-dependency; `cargo build --release --lib`, what ci/install.sh builds,
//! never includes them).
//!
//! - [`reset`]: finalizes MPI if it is initialized (so every delete callback runs as at a real
//!   `MPI_Finalize`) and puts the global runtime back to "not initialized", so one test process
//!   can run many MPI lifetimes (the randomized model test runs one per case).
//! - [`panic_in_entry_point`]: an entry point whose body panics, to check that the C boundary
//!   turns a Rust panic into `MPI_ERR_INTERN` and never unwinds into C.

use crate::boundary::Scope;
use crate::world::state::Phase;
use crate::world::Runtime;
use std::ffi::c_int;

/// Holds the bucket of the attribute `keyval` on `obj` in the process's store as a writer
/// does, until the guard is dropped; `None` when there is no such attribute. The keyval's
/// slot is its low 16 bits.
pub fn hold_bucket(
    obj: crate::world::ObjRef,
    keyval: i32,
) -> Option<crate::caching::store::HeldBucket> {
    Runtime::global()
        .store()?
        .hold_bucket(obj, keyval as u32 & 0xffff)
}

/// How many gets the locked path has answered so far.
pub fn locked_gets() -> usize {
    crate::caching::ops::attr::LOCKED_GETS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Finalizes (when initialized) and returns the runtime to the not-initialized phase.
/// Returns what `MPI_Finalize` returned (`MPI_SUCCESS` when there was nothing to finalize).
pub fn reset() -> c_int {
    let rt = Runtime::global();
    let rc = match rt.phase() {
        Phase::Initialized => unsafe { crate::capi::init::MPI_Finalize() },
        _ => crate::consts::MPI_SUCCESS,
    };
    rt.reset_for_tests();
    rc
}

/// An entry point whose body panics: must return `MPI_ERR_INTERN` under `MPI_ERRORS_RETURN`
/// on `MPI_COMM_SELF`.
pub fn panic_in_entry_point() -> c_int {
    crate::entry!("MPI_Test_panic", Scope::NoObject, {
        if std::hint::black_box(true) {
            panic!("mpicache test hook: deliberate panic inside an entry point");
        }
        Ok(())
    })
}
