//! `Shared<T>`: a reference-counted pointer like `std::sync::Arc` whose construction fails
//! instead of aborting when memory runs out (`Arc::try_new` is not stable). What the world
//! shares between objects (typemaps, a type's constructor record, a keyval's user callbacks) is
//! made with it, so running out of memory is an `MPI_ERR_NO_MEM`, never an abort.

use crate::error::{Error, Result};
use crate::primitives::alloc::refused;
use std::alloc::{alloc, dealloc, Layout};
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{fence, AtomicUsize, Ordering};

struct Inner<T> {
    count: AtomicUsize,
    value: T,
}

/// A shared, immutable `T`, freed when its last holder drops it.
pub struct Shared<T> {
    ptr: NonNull<Inner<T>>,
    _owns: PhantomData<Inner<T>>,
}

// SAFETY: as for `Arc<T>`: holders on several threads read `T` (needs `Sync`) and the last
// one drops it, on any thread (needs `Send`); the count is atomic.
unsafe impl<T: Send + Sync> Send for Shared<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Sync for Shared<T> {}

/// Counts past this are a leak of holders, not a use (as `Arc` does, stop rather than wrap).
const MAX_COUNT: usize = isize::MAX as usize;

impl<T> Shared<T> {
    /// `value` shared, or [`Error::NoMemory`] (with `value` dropped) when memory runs out.
    pub fn try_new(value: T) -> Result<Shared<T>> {
        let layout = Layout::new::<Inner<T>>();
        if refused() {
            return Err(Error::NoMemory {
                what: std::any::type_name::<T>(),
                bytes: layout.size(),
            });
        }
        let ptr = if layout.size() == 0 {
            NonNull::<Inner<T>>::dangling()
        } else {
            // SAFETY: a layout of non-zero size.
            let raw = unsafe { alloc(layout) }.cast::<Inner<T>>();
            NonNull::new(raw).ok_or(Error::NoMemory {
                what: std::any::type_name::<T>(),
                bytes: layout.size(),
            })?
        };
        // SAFETY: freshly allocated (or dangling for a zero-sized `Inner`, where a write is a
        // no-op), aligned for `Inner<T>`, not yet shared.
        unsafe {
            ptr.as_ptr().write(Inner {
                count: AtomicUsize::new(1),
                value,
            })
        };
        Ok(Shared {
            ptr,
            _owns: PhantomData,
        })
    }

    fn inner(&self) -> &Inner<T> {
        // SAFETY: alive while this holder is (the count includes it).
        unsafe { self.ptr.as_ref() }
    }

    /// The value itself when this is its only holder, else `this` back.
    pub fn try_unwrap(this: Shared<T>) -> std::result::Result<T, Shared<T>> {
        if this
            .inner()
            .count
            .compare_exchange(1, 0, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return Err(this);
        }
        let this = std::mem::ManuallyDrop::new(this);
        // SAFETY: the count was 1 and is now 0: no other holder can read or free it; the value
        // is moved out once and the block freed without dropping it again.
        unsafe {
            let value = std::ptr::read(&this.ptr.as_ref().value);
            Self::free_block(this.ptr);
            Ok(value)
        }
    }

    /// Whether two holders share one value.
    pub fn ptr_eq(a: &Shared<T>, b: &Shared<T>) -> bool {
        a.ptr == b.ptr
    }

    /// Frees the block of an `Inner<T>` whose value is already dropped or moved out.
    ///
    /// # Safety
    /// `ptr` came from [`Shared::try_new`] and nobody holds it any more.
    unsafe fn free_block(ptr: NonNull<Inner<T>>) {
        let layout = Layout::new::<Inner<T>>();
        if layout.size() != 0 {
            // SAFETY: allocated by `try_new` with this layout (this function's contract).
            unsafe { dealloc(ptr.as_ptr().cast(), layout) };
        }
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        // Relaxed, as for `Arc`: a new holder is made from an existing one.
        if self.inner().count.fetch_add(1, Ordering::Relaxed) > MAX_COUNT {
            std::process::abort();
        }
        Shared {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }
}

impl<T> Drop for Shared<T> {
    fn drop(&mut self) {
        if self.inner().count.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // Every other holder's last use happens before the value is dropped.
        fence(Ordering::Acquire);
        // SAFETY: the last holder: drop the value in place once, then free its block.
        unsafe {
            std::ptr::drop_in_place(&mut (*self.ptr.as_ptr()).value);
            Self::free_block(self.ptr);
        }
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner().value
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        **self == **other
    }
}

#[cfg(test)]
mod tests {
    use super::Shared;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counted<'a>(&'a AtomicUsize);
    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn the_last_holder_drops_the_value_once() {
        let drops = AtomicUsize::new(0);
        let a = Shared::try_new(Counted(&drops)).unwrap();
        let b = a.clone();
        assert!(Shared::ptr_eq(&a, &b));
        drop(a);
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        let b = Shared::try_unwrap(b)
            .map_err(|_| ())
            .expect("the only holder");
        assert_eq!(drops.load(Ordering::Relaxed), 0, "moved out, not dropped");
        drop(b);
        assert_eq!(drops.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn try_unwrap_refuses_while_shared() {
        let a = Shared::try_new(vec![1, 2, 3]).unwrap();
        let b = a.clone();
        let a = Shared::try_unwrap(a).expect_err("shared");
        drop(b);
        assert_eq!(Shared::try_unwrap(a).ok(), Some(vec![1, 2, 3]));
    }

    #[test]
    fn holders_on_many_threads() {
        let a = Shared::try_new(AtomicUsize::new(0)).unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                let h = a.clone();
                s.spawn(move || {
                    for _ in 0..1000 {
                        let c = h.clone();
                        c.fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert_eq!(a.load(Ordering::Relaxed), 4000);
        assert!(Shared::try_unwrap(a).is_ok());
    }
}
