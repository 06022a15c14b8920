//! The attribute get path allocates nothing (issue 5): a counting global allocator sees no
//! allocation across 10,000 gets through `MPI_Comm_get_attr` and `MPI_COMM_GET_ATTR` on
//! `MPI_COMM_WORLD`, hits and misses. (That a get writes no shared memory is the read protocol of
//! `caching/store/layout.rs`; this test does not observe it.)
// These drive the Fortran entry points with 4-byte INTEGERs; the 8-byte build has
// tests/programs/ilp64.rs.
#![cfg(not(feature = "fortran-integer-8"))]

use mpicache::capi::attr::{MPI_Comm_create_keyval, MPI_Comm_get_attr, MPI_Comm_set_attr};
use mpicache::capi::init::MPI_Init;
use mpicache::consts::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn get_hits_and_misses_do_not_allocate() {
    unsafe {
        assert_eq!(
            MPI_Init(std::ptr::null_mut(), std::ptr::null_mut()),
            MPI_SUCCESS
        );
        let mut keys = [0 as c_int; 64];
        for (i, k) in keys.iter_mut().enumerate() {
            assert_eq!(
                MPI_Comm_create_keyval(None, None, k, std::ptr::null_mut()),
                MPI_SUCCESS
            );
            if i % 2 == 0 {
                assert_eq!(
                    MPI_Comm_set_attr(MPI_COMM_WORLD, *k, i as *mut c_void),
                    MPI_SUCCESS
                );
            }
        }
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let mut hits = 0;
        for round in 0..10_000 {
            let k = keys[round % keys.len()];
            let mut value: *mut c_void = std::ptr::null_mut();
            let mut flag: c_int = -1;
            let rc = MPI_Comm_get_attr(
                MPI_COMM_WORLD,
                k,
                (&mut value as *mut *mut c_void).cast(),
                &mut flag,
            );
            assert_eq!(rc, MPI_SUCCESS);
            if flag != 0 {
                assert_eq!(
                    value as usize,
                    round % keys.len(),
                    "MPI 4.1 §7.7.2: get returns what was set"
                );
                hits += 1;
            }
            let mut fvalue: MPI_Aint = 0;
            let mut fflag = 0;
            let mut ierr = -1;
            mpicache::fortran::attr::mpi_comm_get_attr_(
                &MPI_COMM_WORLD,
                &k,
                &mut fvalue,
                &mut fflag,
                &mut ierr,
            );
            assert_eq!(ierr, MPI_SUCCESS);
            assert_eq!(fflag != 0, flag != 0);
        }
        assert_eq!(hits, 5_000);
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert_eq!(
            after - before,
            0,
            "the get path allocated {} times",
            after - before
        );
    }
}
#[allow(non_camel_case_types)]
type MPI_Aint = isize;
