//! Issue 15 item 6: out of memory is an error, never an abort. A global allocator wrapper
//! refuses the n-th allocation made on the test's thread; the scenario below is run once for
//! every n until it completes without a refusal. Each time, the call that met the refusal must
//! fail with `MPI_ERR_NO_MEM` (MPI 4.1 §9.4: an error class under `MPI_ERRORS_RETURN`) and
//! change nothing: its output argument is untouched, what was made before still reads back, and
//! after everything made is freed the heap holds no more than after a full run (nothing
//! half-made leaks). An allocation the library makes infallibly aborts this test binary
//! ("memory allocation of N bytes failed"), which is how this test fails for it.

use mpicache::capi::attr::*;
use mpicache::capi::callbacks::{MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN};
use mpicache::capi::comm::{MPI_Comm_dup, MPI_Comm_free, MPI_Comm_split};
use mpicache::capi::datatype::{MPI_Type_contiguous, MPI_Type_dup, MPI_Type_free};
use mpicache::capi::errhandler::{MPI_Comm_set_errhandler, MPI_Error_class};
use mpicache::capi::info::{MPI_Info_create, MPI_Info_free, MPI_Info_get_nkeys, MPI_Info_set};
use mpicache::capi::init::MPI_Init;
use mpicache::consts::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

struct Refusing;

thread_local! {
    /// Allocations on this thread until one is refused (0: none is).
    static COUNTDOWN: Cell<u64> = const { Cell::new(0) };
}
/// Bytes live on the heap (every thread).
static LIVE: AtomicIsize = AtomicIsize::new(0);

fn refuse_now() -> bool {
    COUNTDOWN
        .try_with(|c| match c.get() {
            0 => false,
            1 => {
                c.set(0);
                true
            }
            n => {
                c.set(n - 1);
                false
            }
        })
        .unwrap_or(false)
}

unsafe impl GlobalAlloc for Refusing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refuse_now() {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refuse_now() {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if refuse_now() {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Refusing = Refusing;

static DELETES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn counting_delete(_: c_int, _: c_int, _: *mut c_void, _: *mut c_void) -> c_int {
    DELETES.fetch_add(1, Ordering::Relaxed);
    MPI_SUCCESS
}

unsafe extern "C" fn counting_type_delete(
    _: c_int,
    _: c_int,
    _: *mut c_void,
    _: *mut c_void,
) -> c_int {
    DELETES.fetch_add(1, Ordering::Relaxed);
    MPI_SUCCESS
}

fn class(rc: c_int) -> c_int {
    let mut c = -1;
    assert_eq!(unsafe { MPI_Error_class(rc, &mut c) }, MPI_SUCCESS);
    c
}

/// What the scenario made, freed by [`cleanup`] (room made before the refusals start, so the
/// test's own bookkeeping never meets one).
struct Made {
    comms: Vec<c_int>,
    types: Vec<c_int>,
    /// Keyvals made before the refusals start (a keyval with user callbacks keeps them in an
    /// `Arc`, whose allocation std cannot make fallible on stable Rust: a known gap).
    comm_keyval: c_int,
    type_keyval: c_int,
    type1: c_int,
    infos: Vec<c_int>,
}

impl Made {
    fn new(comm_keyval: c_int, type_keyval: c_int, type1: c_int) -> Made {
        Made {
            comms: Vec::with_capacity(8),
            types: Vec::with_capacity(8),
            comm_keyval,
            type_keyval,
            type1,
            infos: Vec::with_capacity(8),
        }
    }
}

const UNTOUCHED: c_int = 0x1234_5678;

/// Runs the scenario; returns the step that failed (with the check of its state done), or
/// `None` when every step succeeded.
unsafe fn scenario(m: &mut Made) -> Option<&'static str> {
    let mut out: c_int;
    macro_rules! step {
        ($name:expr, $rc:expr, $unchanged:block) => {{
            out = UNTOUCHED;
            let rc = $rc;
            if rc != MPI_SUCCESS {
                // Disarm before checking (the checks allocate too).
                COUNTDOWN.with(|c| c.set(0));
                assert_eq!(class(rc), MPI_ERR_NO_MEM, "{}: rc {rc}", $name);
                // A failed dup or split sets the new handle to the null handle (as after a
                // failing copy callback, tests/c/attr_dup.c); no other value is written.
                assert!(
                    [UNTOUCHED, MPI_COMM_NULL, MPI_DATATYPE_NULL, MPI_INFO_NULL].contains(&out),
                    "{}: a failed call wrote {out:#x}",
                    $name
                );
                $unchanged
                return Some($name);
            }
        }};
    }
    unsafe {
        step!("MPI_Comm_dup", MPI_Comm_dup(MPI_COMM_WORLD, &mut out), {});
        m.comms.push(out);
        let c1 = out;
        let k1 = m.comm_keyval;
        step!(
            "MPI_Comm_set_attr",
            MPI_Comm_set_attr(c1, k1, 0x77 as *mut c_void),
            {
                let (mut v, mut flag) = (std::ptr::null_mut::<c_void>(), 1);
                MPI_Comm_get_attr(c1, k1, (&mut v as *mut *mut c_void).cast(), &mut flag);
                assert_eq!(flag, 0, "a failed set left an attribute");
            }
        );
        step!("MPI_Comm_dup (copying)", MPI_Comm_dup(c1, &mut out), {
            let (mut v, mut flag) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Comm_get_attr(c1, k1, (&mut v as *mut *mut c_void).cast(), &mut flag);
            assert_eq!((flag, v as usize), (1, 0x77), "the old object changed");
        });
        m.comms.push(out);
        let c2 = out;
        step!("MPI_Comm_split", MPI_Comm_split(c1, 0, 0, &mut out), {});
        m.comms.push(out);
        step!("MPI_Comm_delete_attr", MPI_Comm_delete_attr(c2, k1), {});
        // Made before the refusals start: a type's typemap is shared through an `Arc`
        // (known gap, as for keyvals with user callbacks).
        let t1 = m.type1;
        let tk = m.type_keyval;
        step!(
            "MPI_Type_set_attr",
            MPI_Type_set_attr(t1, tk, 0x99 as *mut c_void),
            {}
        );
        step!("MPI_Type_dup", MPI_Type_dup(t1, &mut out), {
            let (mut v, mut flag) = (std::ptr::null_mut::<c_void>(), 0);
            MPI_Type_get_attr(t1, tk, (&mut v as *mut *mut c_void).cast(), &mut flag);
            assert_eq!((flag, v as usize), (1, 0x99), "the old type changed");
        });
        m.types.push(out);
        step!("MPI_Info_create", MPI_Info_create(&mut out), {});
        m.infos.push(out);
        let i1 = out;
        step!(
            "MPI_Info_set",
            MPI_Info_set(i1, c"mpicache_key".as_ptr(), c"a value".as_ptr()),
            {
                let mut n = -1;
                assert_eq!(MPI_Info_get_nkeys(i1, &mut n), MPI_SUCCESS);
                assert_eq!(n, 0, "a failed MPI_Info_set left a key");
            }
        );
    }
    None
}

unsafe fn cleanup(m: Made) {
    unsafe {
        for mut c in m.comms.into_iter().rev() {
            assert_eq!(MPI_Comm_free(&mut c), MPI_SUCCESS);
        }
        for mut t in m.types.into_iter().rev() {
            assert_eq!(MPI_Type_free(&mut t), MPI_SUCCESS);
        }
        for mut i in m.infos {
            assert_eq!(MPI_Info_free(&mut i), MPI_SUCCESS);
        }
    }
}

/// A new MPI lifetime, with what the scenario needs made before the refusals start: the
/// keyvals (with user callbacks) and a type.
unsafe fn start() -> Made {
    unsafe {
        assert_eq!(
            MPI_Init(std::ptr::null_mut(), std::ptr::null_mut()),
            MPI_SUCCESS
        );
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
        let (mut ck, mut tk, mut t1) = (0, 0, 0);
        assert_eq!(MPI_Type_contiguous(4, MPI_INT, &mut t1), MPI_SUCCESS);
        assert_eq!(
            MPI_Comm_create_keyval(
                Some(MPI_COMM_DUP_FN),
                Some(counting_delete),
                &mut ck,
                std::ptr::null_mut()
            ),
            MPI_SUCCESS
        );
        assert_eq!(
            MPI_Type_create_keyval(
                Some(MPI_TYPE_DUP_FN),
                Some(counting_type_delete),
                &mut tk,
                std::ptr::null_mut()
            ),
            MPI_SUCCESS
        );
        Made::new(ck, tk, t1)
    }
}

/// Frees what the scenario made and ends the MPI lifetime (`MPI_Finalize`, then the test
/// hook that allows `MPI_Init` again).
unsafe fn end(m: Made) {
    unsafe { cleanup(m) };
    assert_eq!(mpicache::testhooks::reset(), MPI_SUCCESS);
}

// Each n runs in a fresh MPI lifetime, so the world's tables are made by the scenario's own
// calls (the first communicator and datatype of a kind, the first info) and every allocation
// they make is reached; memory after `MPI_Finalize` must be back to what one full lifetime
// leaves (the keyval registry's records and the store's tables are kept for the process).
#[test]
fn every_refused_allocation_is_an_error_with_nothing_changed() {
    unsafe {
        // Two full lifetimes: whatever the process keeps across lifetimes is made now.
        for _ in 0..2 {
            let mut m = start();
            assert_eq!(scenario(&mut m), None);
            end(m);
        }
        // Room made before the baseline: the test's own bookkeeping is not a leak.
        let mut failed_steps: Vec<&str> = Vec::with_capacity(64);
        let baseline = LIVE.load(Ordering::SeqCst);
        let mut n = 1u64;
        loop {
            let mut m = start();
            COUNTDOWN.with(|c| c.set(n));
            let failed = scenario(&mut m);
            COUNTDOWN.with(|c| c.set(0));
            end(m);
            let live = LIVE.load(Ordering::SeqCst);
            assert!(
                live <= baseline,
                "refusing allocation {n} (in {failed:?}) leaked {} bytes",
                live - baseline
            );
            match failed {
                Some(step) => {
                    if !failed_steps.contains(&step) && failed_steps.len() < failed_steps.capacity()
                    {
                        failed_steps.push(step);
                    }
                }
                None => break,
            }
            n += 1;
        }
        eprintln!(
            "{} allocations refused one at a time; steps that met one: {failed_steps:?}",
            n - 1
        );
        for step in ["MPI_Comm_dup", "MPI_Info_create", "MPI_Info_set"] {
            assert!(failed_steps.contains(&step), "{step} met no refusal");
        }
    }
}
