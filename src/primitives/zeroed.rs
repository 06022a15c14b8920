//! Memory that starts all zero, and the types for which that is a value.
//!
//! Large tables that start all zero come straight from the kernel (or the allocator): fresh
//! pages take memory only once touched, so a table can cover every possible index (no bounds
//! to check on the read path) at the cost of the entries actually used.
//!
//! [`Zeroable`] is the claim that all-zero bytes are a valid value. The impls here are for the
//! primitive types (atomic integers, [`OncePtr`], arrays of zeroable types); a struct gets it
//! only through [`zeroable!`], which checks at compile time that the field list it is given is
//! the struct's whole list and that every field's type is zeroable. Adding a field of any other
//! type to such a struct stops the build.

use crate::primitives::once_ptr::OncePtr;
use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicU32, AtomicU64, AtomicU8};

/// Types whose all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for such types; for structs, use [`zeroable!`].
pub unsafe trait Zeroable {}

// SAFETY: an atomic integer or boolean whose bytes are zero holds 0 (false): its in-memory
// representation is the integer's (std documents each as having the same in-memory
// representation as the underlying type).
unsafe impl Zeroable for AtomicBool {}
// SAFETY: as above.
unsafe impl Zeroable for AtomicU8 {}
// SAFETY: as above.
unsafe impl Zeroable for AtomicI32 {}
// SAFETY: as above.
unsafe impl Zeroable for AtomicU32 {}
// SAFETY: as above.
unsafe impl Zeroable for AtomicI64 {}
// SAFETY: as above.
unsafe impl Zeroable for AtomicU64 {}
// SAFETY: a null pointer, the empty cell (`OncePtr` is one `AtomicPtr` and a zero-sized
// marker; a null `AtomicPtr` is all-zero bytes).
unsafe impl<T> Zeroable for OncePtr<T> {}
// SAFETY: an array's bytes are its elements' bytes, each valid as zeroes.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// Declares the struct `Zeroable` once the compiler has checked, for the field list given, that
/// it is the struct's whole list (an exhaustive pattern) and that every field's type is
/// `Zeroable`: `zeroable!(Slot { word, seq, keyval, meta });`. Padding may hold any bytes, so
/// a struct of zeroable fields is zeroable whatever its layout.
///
/// The one `unsafe` the caching engine contains is this macro's expansion: it denies
/// `unsafe_code` and allows it only here, on an impl the checks above justify.
///
/// ```
/// use std::sync::atomic::{AtomicI64, AtomicU32};
/// struct Slot { word: AtomicI64, seq: AtomicU32 }
/// mpicache::zeroable!(Slot { word, seq });
/// ```
///
/// A field whose type is not zeroable (a `String`'s zero bytes are no string):
///
/// ```compile_fail
/// use std::sync::atomic::AtomicU32;
/// struct Named { seq: AtomicU32, name: String }
/// mpicache::zeroable!(Named { seq, name });
/// ```
///
/// A field left out of the list:
///
/// ```compile_fail
/// use std::sync::atomic::{AtomicI64, AtomicU32};
/// struct Slot { word: AtomicI64, seq: AtomicU32 }
/// mpicache::zeroable!(Slot { word });
/// ```
#[macro_export]
macro_rules! zeroable {
    ($ty:ident { $($field:ident),+ $(,)? }) => {
        const _: () = {
            // Never called: it only has to compile. A field missing from the list fails the
            // exhaustive pattern; a field whose type is not `Zeroable` fails the bound.
            #[allow(dead_code)]
            fn every_field_is_zeroable(value: &$ty) {
                let $ty { $($field),+ } = value;
                $($crate::primitives::zeroed::require_zeroable($field);)+
            }
        };
        // SAFETY: every field of the struct is `Zeroable` (checked just above, for the whole
        // field list), and padding bytes have no validity requirement.
        #[allow(unsafe_code)]
        unsafe impl $crate::primitives::zeroed::Zeroable for $ty {}
    };
}
pub use crate::zeroable;

/// Compiles only for a reference to a `Zeroable` value (see [`zeroable!`]).
pub const fn require_zeroable<T: Zeroable>(_: &T) {}

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
pub fn zeroed_pages<T: Zeroable + Sync>() -> &'static T {
    let layout = Layout::new::<T>();
    assert!(
        layout.size() > 0 && layout.align() <= 4096,
        "zeroed pages hold something page-aligned"
    );
    // SAFETY: a fresh private anonymous mapping: readable, writable, zero-filled, page-aligned
    // and used by nothing else; zero bytes are a valid `T`; it is never unmapped, so the
    // reference lives as long as the process (and `T: Sync`, so sharing it is sound).
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
    use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

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

    /// A struct declared zeroable through the macro starts with every field at zero.
    struct Pair {
        a: AtomicU32,
        b: [AtomicI64; 3],
    }
    super::zeroable!(Pair { a, b });

    #[test]
    fn a_checked_struct_is_zero_in_every_field() {
        let p = zeroed_box::<Pair>();
        assert_eq!(p.a.load(Ordering::Relaxed), 0);
        assert!(p.b.iter().all(|e| e.load(Ordering::Relaxed) == 0));
    }
}
