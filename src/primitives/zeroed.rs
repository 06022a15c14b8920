//! Large tables that start all zero, straight from the kernel (or the allocator): fresh pages
//! take memory only once touched, so a table can cover every possible index (no bounds to
//! check on the read path) at the cost of the entries actually used.

use crate::primitives::once_ptr::OncePtr;
use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
use std::sync::atomic::{AtomicI64, AtomicU32};

/// Types whose all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for such types.
pub unsafe trait Zeroable {}

// SAFETY: an atomic integer of value 0.
unsafe impl Zeroable for AtomicI64 {}
// SAFETY: as above.
unsafe impl Zeroable for AtomicU32 {}
// SAFETY: a null pointer, the empty cell.
unsafe impl<T> Zeroable for OncePtr<T> {}

// SAFETY: zero entries, each valid as zeroes.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// A `T` of zero bytes on the heap.
pub fn zeroed_box<T: Zeroable>() -> Box<T> {
    let layout = Layout::new::<T>();
    assert!(layout.size() > 0, "a zeroed box holds something");
    // SAFETY: the layout is not empty; zero bytes are a valid `T` (`T: Zeroable`), and the
    // allocation has the layout `Box` frees it with.
    unsafe {
        let p = alloc_zeroed(layout);
        if p.is_null() {
            handle_alloc_error(layout);
        }
        Box::from_raw(p.cast::<T>())
    }
}

/// A `T` of zero bytes in pages of its own straight from the kernel, kept for the rest of the
/// process. Only the pages a caller touches take memory, whatever the allocator does with
/// large blocks (`calloc` may take them from the heap and clear them all).
pub fn zeroed_pages<T: Zeroable>() -> &'static T {
    let layout = Layout::new::<T>();
    assert!(
        layout.size() > 0 && layout.align() <= 4096,
        "zeroed pages hold something page-aligned"
    );
    // SAFETY: a fresh private anonymous mapping: readable, writable, zero-filled, page-aligned
    // and used by nothing else; zero bytes are a valid `T`; it is never unmapped, so the
    // reference lives as long as the process.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            layout.size(),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        );
        if p == libc::MAP_FAILED {
            handle_alloc_error(layout);
        }
        &*p.cast::<T>()
    }
}

#[cfg(test)]
mod tests {
    use super::{zeroed_box, zeroed_pages};
    use std::sync::atomic::{AtomicI64, Ordering};

    #[test]
    fn every_entry_starts_at_zero() {
        let t = zeroed_box::<[AtomicI64; 1024]>();
        assert!(t.iter().all(|e| e.load(Ordering::Relaxed) == 0));
        t[1023].store(5, Ordering::Relaxed);
        assert_eq!(t[1023].load(Ordering::Relaxed), 5);
    }

    #[test]
    fn zeroed_pages_start_at_zero_and_stay_apart() {
        let a = zeroed_pages::<[AtomicI64; 100_000]>();
        let b = zeroed_pages::<[AtomicI64; 100_000]>();
        assert!(a.iter().all(|e| e.load(Ordering::Relaxed) == 0));
        a[99_999].store(5, Ordering::Relaxed);
        assert_eq!(b[99_999].load(Ordering::Relaxed), 0);
        assert_eq!(a.as_ptr() as usize % 4096, 0);
    }
}
