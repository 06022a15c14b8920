//! The Fortran sentinels `MPI_BOTTOM`, `MPI_IN_PLACE`, `MPI_STATUS_IGNORE` and
//! `MPI_STATUSES_IGNORE` (MPI 4.1 §2.5.4, §19.1.3): in fortran/mpif.h and the `mpi` module each
//! is a variable in its own named COMMON block, so every program unit that names it passes the
//! same address; the library owns the blocks (gfortran spells `COMMON /MPIFCMB1/` as the symbol
//! `mpifcmb1_`) and recognises a sentinel by comparing the address it receives with its block's.
//!
//! The blocks are exported with default visibility and no `-Bsymbolic` binding for data, so when
//! a program's objects also allocate the COMMON block the dynamic linker makes both sides agree
//! on one address.

use crate::fortran::MPI_Fint;
use std::cell::UnsafeCell;
use std::ffi::c_void;

/// Storage of one Fortran COMMON block: `N` INTEGERs that Fortran code may write.
#[repr(transparent)]
pub struct CommonBlock<const N: usize>(UnsafeCell<[MPI_Fint; N]>);

// SAFETY: the library never reads or writes the contents, it only compares addresses.
unsafe impl<const N: usize> Sync for CommonBlock<N> {}

impl<const N: usize> CommonBlock<N> {
    const fn new() -> Self {
        CommonBlock(UnsafeCell::new([0; N]))
    }
    /// The block's address.
    pub fn addr(&self) -> usize {
        self.0.get() as usize
    }
    /// Whether `p` is this block.
    pub fn is(&self, p: *const c_void) -> bool {
        !p.is_null() && p as usize == self.addr()
    }
}

/// The size of a status in INTEGERs (`MPI_STATUS_SIZE`).
const STATUS: usize = crate::consts::MPI_STATUS_SIZE as usize;

/// `INTEGER MPI_BOTTOM` / `COMMON /MPIFCMB1/ MPI_BOTTOM`.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb1_: CommonBlock<1> = CommonBlock::new();

/// `INTEGER MPI_IN_PLACE` / `COMMON /MPIFCMB2/ MPI_IN_PLACE`.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb2_: CommonBlock<1> = CommonBlock::new();

/// `INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)` / `COMMON /MPIFCMB3/ MPI_STATUS_IGNORE`.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb3_: CommonBlock<STATUS> = CommonBlock::new();

/// `INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)` / `COMMON /MPIFCMB4/ MPI_STATUSES_IGNORE`.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb4_: CommonBlock<STATUS> = CommonBlock::new();

/// A C global holding the address of a Fortran sentinel (`MPI_F08_STATUS_IGNORE`).
#[repr(transparent)]
pub struct SentinelAddress(*const c_void);

// SAFETY: the pointer is a constant address, never written and never dereferenced here.
unsafe impl Sync for SentinelAddress {}

/// `MPI_F08_STATUS_IGNORE` (MPI 4.1 §19.3.5): C code's name for the address the `mpi_f08`
/// module's `MPI_STATUS_IGNORE` has (its COMMON block, `mpifcmb3_`); declared in
/// include/mpi_fragment.h as `MPI_F08_status *`.
#[no_mangle]
pub static MPI_F08_STATUS_IGNORE: SentinelAddress =
    SentinelAddress(std::ptr::addr_of!(mpifcmb3_).cast());

/// `MPI_F08_STATUSES_IGNORE`: the address of `mpi_f08`'s `MPI_STATUSES_IGNORE` (`mpifcmb4_`).
#[no_mangle]
pub static MPI_F08_STATUSES_IGNORE: SentinelAddress =
    SentinelAddress(std::ptr::addr_of!(mpifcmb4_).cast());

/// Whether a status argument given to a conversion is one of the ignore sentinels (which
/// are the same addresses in mpif.h, the `mpi` module and `mpi_f08`).
pub fn f08_status_ignored(p: *const c_void) -> bool {
    mpifcmb3_.is(p) || mpifcmb4_.is(p)
}

/// `INTEGER MPI_UNWEIGHTED(1)` / `COMMON /MPIFCMB5/ MPI_UNWEIGHTED` (MPI 4.1 §8.5.4).
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb5_: CommonBlock<1> = CommonBlock::new();

/// `INTEGER MPI_WEIGHTS_EMPTY(1)` / `COMMON /MPIFCMB6/ MPI_WEIGHTS_EMPTY` (MPI 4.1 §8.5.4).
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb6_: CommonBlock<1> = CommonBlock::new();

/// `INTEGER MPI_ERRCODES_IGNORE(1)` / `COMMON /MPIFCMB7/ MPI_ERRCODES_IGNORE` (MPI 4.1
/// §11.8.2).
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb7_: CommonBlock<1> = CommonBlock::new();

/// `CHARACTER*1 MPI_ARGV_NULL(1)` / `COMMON /MPIFCMB8/ MPI_ARGV_NULL` (MPI 4.1 §11.8.2): one
/// byte, padded by the linker like any COMMON block; the INTEGER storage only reserves it.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb8_: CommonBlock<1> = CommonBlock::new();

/// `CHARACTER*1 MPI_ARGVS_NULL(1,1)` / `COMMON /MPIFCMB9/ MPI_ARGVS_NULL` (MPI 4.1 §11.8.3).
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static mpifcmb9_: CommonBlock<1> = CommonBlock::new();

/// `MPI_IN_PLACE` as C spells it (`((void *)1)`, include/mpi_fragment.h, the MPI 5.0 ABI).
const C_IN_PLACE: usize = 1;

/// A Fortran choice buffer as the C entry points take it: `MPI_BOTTOM` is address 0 (C's
/// `MPI_BOTTOM`), `MPI_IN_PLACE` is C's `MPI_IN_PLACE`, anything else is the buffer itself.
pub fn choice(p: *const c_void) -> *const c_void {
    if mpifcmb1_.is(p) {
        std::ptr::null()
    } else if mpifcmb2_.is(p) {
        C_IN_PLACE as *const c_void
    } else {
        p
    }
}

/// An address argument where only `MPI_BOTTOM` is special (it is address 0).
pub fn bottom(p: *const c_void) -> *const c_void {
    if mpifcmb1_.is(p) {
        std::ptr::null()
    } else {
        p
    }
}

/// [`choice`] for an output buffer.
pub fn choice_mut(p: *mut c_void) -> *mut c_void {
    choice(p.cast_const()).cast_mut()
}

/// Whether a status argument is `MPI_STATUS_IGNORE` (or `MPI_STATUSES_IGNORE`, or NULL from
/// C): nothing is written to it.
pub fn status_ignored(p: *const MPI_Fint) -> bool {
    p.is_null() || mpifcmb3_.is(p.cast()) || mpifcmb4_.is(p.cast())
}

/// Whether a weight array is `MPI_UNWEIGHTED`.
pub fn is_unweighted(p: *const MPI_Fint) -> bool {
    mpifcmb5_.is(p.cast())
}

/// Whether a weight array is `MPI_WEIGHTS_EMPTY`.
pub fn is_weights_empty(p: *const MPI_Fint) -> bool {
    mpifcmb6_.is(p.cast())
}

/// Whether an ARRAY_OF_ERRCODES argument is `MPI_ERRCODES_IGNORE` (or NULL from C).
pub fn errcodes_ignored(p: *const MPI_Fint) -> bool {
    p.is_null() || mpifcmb7_.is(p.cast())
}

/// Whether an ARGV argument is `MPI_ARGV_NULL`.
pub fn is_argv_null(p: *const std::ffi::c_char) -> bool {
    mpifcmb8_.is(p.cast())
}

/// Whether an ARRAY_OF_ARGV argument is `MPI_ARGVS_NULL`.
pub fn is_argvs_null(p: *const std::ffi::c_char) -> bool {
    mpifcmb9_.is(p.cast())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentinels_map_to_the_c_values() {
        let bottom = mpifcmb1_.addr() as *const c_void;
        let in_place = mpifcmb2_.addr() as *const c_void;
        assert!(choice(bottom).is_null());
        assert_eq!(choice(in_place) as usize, C_IN_PLACE);
        let x: MPI_Fint = 5;
        let p = (&x as *const MPI_Fint).cast::<c_void>();
        assert_eq!(choice(p), p);
        assert!(status_ignored(mpifcmb3_.addr() as *const MPI_Fint));
        assert!(status_ignored(mpifcmb4_.addr() as *const MPI_Fint));
        assert!(!status_ignored(&x));
    }
}
