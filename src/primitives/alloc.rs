//! Fallible allocation: out of memory is an error class (`MPI_ERR_NO_MEM`), never an abort.
//!
//! The standard library's collections abort the process when the allocator fails. Every
//! allocation the world and the faces make on behalf of a call goes through these helpers (or
//! `try_reserve` directly) instead, so the call fails with [`Error::NoMemory`] and changes
//! nothing.
//!
//! **The test hook** (feature `test-hooks`): [`refuse_nth`] makes the n-th allocation counted by
//! [`refused`] fail. The helpers here count every allocation they make; code that allocates
//! memory the Rust allocator does not see (an arena's or the store's own `mmap`) calls
//! [`refused`] before it, so one sweep over a scenario reaches every allocation. A test binary
//! that wants to catch allocations made outside these helpers too wraps the global allocator
//! (`tests/out_of_memory.rs` does).

use crate::error::{Error, Result};
#[cfg(feature = "test-hooks")]
use std::sync::atomic::{AtomicU64, Ordering};

/// Allocations until one is refused (`u64::MAX`: never).
#[cfg(feature = "test-hooks")]
static COUNTDOWN: AtomicU64 = AtomicU64::new(u64::MAX);

/// Test hook: refuse the `n`-th allocation counted from now (1: the next one), `None`: none.
#[cfg(feature = "test-hooks")]
pub fn refuse_nth(n: Option<u64>) {
    COUNTDOWN.store(n.unwrap_or(u64::MAX), Ordering::SeqCst);
}

/// Counts one allocation: true when the test hook refuses it (always false without the
/// `test-hooks` feature, and then free).
#[inline(always)]
pub fn refused() -> bool {
    #[cfg(feature = "test-hooks")]
    {
        let left = COUNTDOWN.load(Ordering::Relaxed);
        if left != u64::MAX {
            return COUNTDOWN
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n != u64::MAX && n > 0).then(|| n - 1)
                })
                .is_ok_and(|n| n == 1);
        }
    }
    false
}

/// The error of a refused allocation of `bytes`.
#[cold]
fn no_memory<T: ?Sized>(bytes: usize) -> Error {
    Error::NoMemory {
        what: std::any::type_name::<T>(),
        bytes,
    }
}

/// Room for `extra` more elements in `v`, or [`Error::NoMemory`] with `v` unchanged.
#[inline]
pub fn try_reserve<T>(v: &mut Vec<T>, extra: usize) -> Result<()> {
    if v.capacity() - v.len() >= extra {
        return Ok(());
    }
    let bytes = extra.saturating_mul(std::mem::size_of::<T>());
    if refused() {
        return Err(no_memory::<T>(bytes));
    }
    v.try_reserve(extra).map_err(|_| no_memory::<T>(bytes))
}

/// Appends `x`, or fails with `v` unchanged.
#[inline]
pub fn try_push<T>(v: &mut Vec<T>, x: T) -> Result<()> {
    try_reserve(v, 1)?;
    v.push(x);
    Ok(())
}

/// A vector of exactly `n` elements made by `make`, or [`Error::NoMemory`].
pub fn try_vec<T>(n: usize, make: impl FnMut() -> T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    if n > 0 {
        if refused() {
            return Err(no_memory::<T>(n.saturating_mul(std::mem::size_of::<T>())));
        }
        v.try_reserve_exact(n)
            .map_err(|_| no_memory::<T>(n.saturating_mul(std::mem::size_of::<T>())))?;
    }
    v.resize_with(n, make);
    Ok(v)
}

/// A copy of `s`, or [`Error::NoMemory`].
pub fn try_string(s: &str) -> Result<String> {
    let mut out = String::new();
    if !s.is_empty() {
        if refused() {
            return Err(no_memory::<str>(s.len()));
        }
        out.try_reserve_exact(s.len())
            .map_err(|_| no_memory::<str>(s.len()))?;
    }
    out.push_str(s);
    Ok(out)
}

/// A copy of a slice, or [`Error::NoMemory`].
pub fn try_to_vec<T: Clone>(s: &[T]) -> Result<Vec<T>> {
    let mut v = Vec::new();
    try_reserve(&mut v, s.len())?;
    v.extend_from_slice(s);
    Ok(v)
}

/// `x` on the heap, or [`Error::NoMemory`] (`Box::new` aborts when the allocator fails).
pub fn try_box<T>(x: T) -> Result<Box<T>> {
    let layout = std::alloc::Layout::new::<T>();
    if layout.size() == 0 {
        return Ok(Box::new(x));
    }
    if refused() {
        return Err(no_memory::<T>(layout.size()));
    }
    // SAFETY: the layout is `T`'s and not empty; a non-null result is an allocation of that
    // layout, which `Box` frees with the same layout; it is initialized by the write before
    // the box owns it.
    unsafe {
        let p = std::alloc::alloc(layout).cast::<T>();
        if p.is_null() {
            return Err(no_memory::<T>(layout.size()));
        }
        p.write(x);
        Ok(Box::from_raw(p))
    }
}

/// Bytes freed since the heap was last trimmed.
static FREED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Trim once this much was freed: often enough that a program's freed objects go back, rarely
/// enough that trimming (a walk of the heap) costs nothing per object.
const TRIM_AFTER: usize = 8 << 20;

/// A table of `bytes` was freed: trims the heap once enough has been.
pub fn note_freed(bytes: usize) {
    use std::sync::atomic::Ordering::Relaxed;
    if FREED.fetch_add(bytes, Relaxed) + bytes >= TRIM_AFTER {
        FREED.store(0, Relaxed);
        give_back_free_memory();
    }
}

/// Gives free heap memory back to the kernel: freed tables sit in the middle of the heap,
/// where the allocator's own trimming (the top of the heap only) never reaches. Called after
/// large frees (a table chunk, `MPI_Finalize`), never on a hot path.
pub fn give_back_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes the allocator's own locks and only returns free pages.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_copy_and_reserve() {
        let mut v = vec![1u8];
        try_push(&mut v, 2).unwrap();
        assert_eq!(v, [1, 2]);
        assert_eq!(try_string("abc").unwrap(), "abc");
        assert_eq!(*try_box(7u64).unwrap(), 7);
        assert_eq!(try_vec(3, || 5u32).unwrap(), [5, 5, 5]);
        assert_eq!(try_to_vec(&[1, 2]).unwrap(), [1, 2]);
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        let mut v: Vec<u64> = Vec::new();
        assert!(matches!(
            try_reserve(&mut v, usize::MAX / 4),
            Err(Error::NoMemory { .. })
        ));
        assert!(v.is_empty());
    }
}
