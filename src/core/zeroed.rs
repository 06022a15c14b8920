//! Large tables that start all zero, straight from the allocator: a zeroed allocation of this
//! size is fresh pages from the kernel, which take memory only once touched, so a table can
//! cover every possible index (no bounds to check on the read path) at the cost of the entries
//! actually used.

use crate::core::once_ptr::OncePtr;
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

#[cfg(test)]
mod tests {
    use super::zeroed_box;
    use std::sync::atomic::{AtomicI64, Ordering};

    #[test]
    fn every_entry_starts_at_zero() {
        let t = zeroed_box::<[AtomicI64; 1024]>();
        assert!(t.iter().all(|e| e.load(Ordering::Relaxed) == 0));
        t[1023].store(5, Ordering::Relaxed);
        assert_eq!(t[1023].load(Ordering::Relaxed), 5);
    }
}
