//! A cell set once to a value that lives for the rest of the process.
//!
//! The lock-free readers walk several levels of such cells on every attribute get. A
//! `OnceLock<&T>` costs each level two loads (its state, then the reference); this is one word,
//! null until set, so each level is one load and one test.

use std::marker::PhantomData;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

pub struct OncePtr<T: 'static> {
    ptr: AtomicPtr<T>,
    /// Shared like the `&'static T` it hands out: `Sync` only when `T` is.
    _shares: PhantomData<&'static T>,
}

impl<T: 'static> OncePtr<T> {
    pub const fn new() -> OncePtr<T> {
        OncePtr {
            ptr: AtomicPtr::new(ptr::null_mut()),
            _shares: PhantomData,
        }
    }

    /// The value, once set.
    #[inline(always)]
    pub fn get(&self) -> Option<&'static T> {
        // SAFETY: the pointer is null or came from `Box::into_raw` in `get_or_init` and is
        // never freed; the acquire load sees the value's initialization.
        unsafe { self.ptr.load(Ordering::Acquire).as_ref() }
    }

    /// The value, made by `make` (and kept forever) when none is set yet. When two threads
    /// race, one value wins and the other is dropped.
    pub fn get_or_init(&self, make: impl FnOnce() -> Box<T>) -> &'static T {
        if let Some(value) = self.get() {
            return value;
        }
        let new = Box::into_raw(make());
        match self
            .ptr
            .compare_exchange(ptr::null_mut(), new, Ordering::AcqRel, Ordering::Acquire)
        {
            // SAFETY: `new` is now owned by the cell, which never frees it.
            Ok(_) => unsafe { &*new },
            Err(won) => {
                // SAFETY: `new` came from `Box::into_raw` above and was never shared.
                drop(unsafe { Box::from_raw(new) });
                // SAFETY: `won` is the value the cell holds, which it never frees.
                unsafe { &*won }
            }
        }
    }
}

impl<T: 'static> OncePtr<T> {
    /// The value, `make()` when none is set yet. When two threads race, one value wins and the
    /// other stays unused (it lives for the process anyway).
    pub fn get_or_set(&self, make: impl FnOnce() -> &'static T) -> &'static T {
        if let Some(value) = self.get() {
            return value;
        }
        let new = std::ptr::from_ref(make()).cast_mut();
        match self
            .ptr
            .compare_exchange(ptr::null_mut(), new, Ordering::AcqRel, Ordering::Acquire)
        {
            // SAFETY: `new` is a `&'static T`.
            Ok(_) => unsafe { &*new },
            // SAFETY: `won` was set by this method or `get_or_init`: a value never freed.
            Err(won) => unsafe { &*won },
        }
    }
}

impl<T: 'static> Default for OncePtr<T> {
    fn default() -> Self {
        OncePtr::new()
    }
}

#[cfg(test)]
mod tests {
    use super::OncePtr;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn empty_until_set_then_the_same_value_forever() {
        let cell: OncePtr<u64> = OncePtr::new();
        assert!(cell.get().is_none());
        let first = cell.get_or_init(|| Box::new(7));
        assert_eq!(*first, 7);
        let again = cell.get_or_init(|| Box::new(8));
        assert!(std::ptr::eq(first, again), "a set cell keeps its value");
        assert_eq!(cell.get().copied(), Some(7));
    }

    #[test]
    fn racing_initializers_agree_on_one_value() {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let cell: &'static OncePtr<usize> = Box::leak(Box::new(OncePtr::new()));
        let seen: Vec<usize> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        let v = cell.get_or_init(|| Box::new(MADE.fetch_add(1, Ordering::Relaxed)));
                        v as *const usize as usize
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        assert!(
            seen.iter().all(|&p| p == seen[0]),
            "every thread got the winner"
        );
        assert!(MADE.load(Ordering::Relaxed) >= 1);
    }
}
