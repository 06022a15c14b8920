//! An asymmetric fence: a hot side that pays nothing (a compiler fence) and a cold side that
//! pays for both (`membarrier(2)`, which makes every running thread of the process execute a
//! full memory barrier).
//!
//! The pattern it serves (Dekker's, as in folly's and liburcu's asymmetric fences): the hot side
//! stores its flag, calls [`light`], then loads the cold side's flag; the cold side stores its
//! flag, calls [`heavy`], then loads the hot side's. At least one of them sees the other's store.
//! Where `membarrier` is not available both sides use a full fence instead (correct, slower).

use std::sync::atomic::{compiler_fence, fence, AtomicBool, Ordering};
use std::sync::Once;

/// `membarrier` is registered for this process: [`light`] can be a compiler fence.
static EXPEDITED: AtomicBool = AtomicBool::new(false);
static REGISTER: Once = Once::new();

#[cfg(target_os = "linux")]
const MEMBARRIER_CMD_PRIVATE_EXPEDITED: libc::c_long = 1 << 3;
#[cfg(target_os = "linux")]
const MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_long = 1 << 4;

/// Chooses the implementation, once, before either side is used (both sides must agree, so
/// this runs before any hot-side flag exists).
pub fn init() {
    REGISTER.call_once(|| {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: the registration command takes no pointer; it only fails (nonzero) on
            // kernels without it, and then the full fences are used.
            let rc = unsafe {
                libc::syscall(
                    libc::SYS_membarrier,
                    MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
                    0,
                    0,
                )
            };
            EXPEDITED.store(rc == 0, Ordering::SeqCst);
        }
    });
}

/// The hot side's fence (after [`init`]).
#[inline(always)]
pub fn light() {
    if EXPEDITED.load(Ordering::Relaxed) {
        compiler_fence(Ordering::SeqCst);
    } else {
        fence(Ordering::SeqCst);
    }
}

/// The cold side's fence (after [`init`]): every thread of the process has executed a full
/// barrier when it returns.
pub fn heavy() {
    fence(Ordering::SeqCst);
    #[cfg(target_os = "linux")]
    if EXPEDITED.load(Ordering::Relaxed) {
        // SAFETY: takes no pointer; registered in `init`, so it does not fail (the kernel
        // documents failures only for unregistered or unsupported use).
        let rc =
            unsafe { libc::syscall(libc::SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) };
        assert_eq!(rc, 0, "membarrier failed after registration");
    }
    fence(Ordering::SeqCst);
}
