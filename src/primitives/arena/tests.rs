//! The arena on its own: classes, reuse within a class only, pages given back, refused
//! allocations.

use super::{class_of, Arena, Block, SPAN};
use std::sync::atomic::{AtomicU64, Ordering};

fn resident(addr: usize, len: usize) -> usize {
    let page = 4096;
    let pages = len.div_ceil(page);
    let mut vec = vec![0u8; pages];
    // SAFETY: mincore only reports on the range, which is inside one of the arena's mappings.
    let rc = unsafe {
        libc::mincore(
            (addr / page * page) as *mut libc::c_void,
            len,
            vec.as_mut_ptr().cast(),
        )
    };
    assert_eq!(rc, 0);
    vec.iter().filter(|&&b| b & 1 != 0).count()
}

#[test]
fn classes_are_powers_of_two_and_three_halves() {
    let sizes: Vec<usize> = (1..=200).filter_map(|b| class_of(b).map(|c| c.1)).collect();
    assert_eq!(class_of(1), Some((0, 8)));
    assert_eq!(class_of(64).unwrap().1, 64);
    assert_eq!(class_of(65).unwrap().1, 96);
    assert_eq!(class_of(96).unwrap().1, 96);
    assert_eq!(class_of(97).unwrap().1, 128);
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]));
    // Never more than half again what was asked (beyond the smallest).
    for b in 8..100_000 {
        let (_, size) = class_of(b).unwrap();
        assert!(size >= b && size * 2 <= b * 3 + 16, "{b} -> {size}");
    }
}

#[test]
fn blocks_are_apart_and_reused_by_their_class_only() {
    let a = Arena::new();
    let x: Block<AtomicU64> = a.alloc(8).unwrap();
    let y: Block<AtomicU64> = a.alloc(8).unwrap();
    assert_ne!(x.addr(), y.addr());
    assert_eq!(x.addr() % 64, 0);
    x.get()[7].store(5, Ordering::Relaxed);
    assert_eq!(y.get()[7].load(Ordering::Relaxed), 0);
    a.free(x);
    // Another class does not get it.
    let z: Block<AtomicU64> = a.alloc(12).unwrap();
    assert_ne!(z.addr(), x.addr());
    // Its own class does, last freed first.
    let w: Block<AtomicU64> = a.alloc(8).unwrap();
    assert_eq!(w.addr(), x.addr());
    assert_eq!(a.in_use(), 64 + 64 + 96);
}

#[test]
fn a_wholly_free_span_goes_back_to_the_kernel() {
    let a = Arena::new();
    let per_span = SPAN / 64;
    let blocks: Vec<Block<AtomicU64>> = (0..per_span * 3).map(|_| a.alloc(8).unwrap()).collect();
    for b in &blocks {
        for w in b.get() {
            w.store(1, Ordering::Relaxed);
        }
    }
    let (first, second) = (blocks[0].addr(), blocks[per_span].addr());
    assert_eq!(second % SPAN, 0, "blocks carve spans from their start");
    assert_eq!(resident(second, SPAN), SPAN / 4096);
    // Free every block of the second span but one: nothing goes back.
    for b in &blocks[per_span..2 * per_span - 1] {
        a.free(*b);
    }
    assert_eq!(resident(second, SPAN), SPAN / 4096);
    // The first wholly free span of a class is kept back; the next goes.
    a.free(blocks[2 * per_span - 1]);
    assert_eq!(resident(second, SPAN), SPAN / 4096, "one idle span is kept");
    for b in &blocks[..per_span] {
        a.free(*b);
    }
    assert_eq!(
        resident(first, SPAN),
        0,
        "a free span's pages are given back"
    );
    // The spans serve their class again, the given-back one zeroed.
    let again: Vec<Block<AtomicU64>> = (0..2 * per_span).map(|_| a.alloc(8).unwrap()).collect();
    let reused = again.iter().find(|b| b.addr() == first).expect("reused");
    assert!(reused.get().iter().all(|w| w.load(Ordering::Relaxed) == 0));
}

#[test]
fn large_blocks_go_back_at_once_and_are_reused() {
    let a = Arena::new();
    let big: Block<AtomicU64> = a.alloc(3 * SPAN / 8).unwrap();
    let second: Block<AtomicU64> = a.alloc(3 * SPAN / 8).unwrap();
    for w in big.get().iter().chain(second.get()) {
        w.store(9, Ordering::Relaxed);
    }
    assert_eq!(resident(big.addr(), 3 * SPAN), 3 * SPAN / 4096);
    a.free(big);
    assert_eq!(
        resident(big.addr(), 3 * SPAN),
        3 * SPAN / 4096,
        "one idle block is kept"
    );
    a.free(second);
    assert_eq!(
        resident(second.addr(), 3 * SPAN),
        0,
        "the next goes back at once"
    );
    let again: Block<AtomicU64> = a.alloc(3 * SPAN / 8).unwrap();
    assert!([big.addr(), second.addr()].contains(&again.addr()));
    assert_eq!(a.in_use(), 3 * SPAN);
}

#[test]
fn the_nth_allocation_is_refused_and_the_next_succeeds() {
    let a = Arena::new();
    a.refuse_nth(Some(3));
    assert!(a.alloc::<AtomicU64>(1).is_some());
    assert!(a.alloc::<AtomicU64>(1).is_some());
    let before = a.in_use();
    assert!(a.alloc::<AtomicU64>(1).is_none());
    assert_eq!(a.in_use(), before, "a refused allocation takes nothing");
    assert!(a.alloc::<AtomicU64>(1).is_some());
}

#[test]
fn an_impossible_size_is_refused_not_a_panic() {
    let a = Arena::new();
    assert!(a.alloc::<AtomicU64>(usize::MAX / 4).is_none());
    assert!(a.alloc::<AtomicU64>(1 << 45).is_none());
}

#[test]
fn many_blocks_take_few_mappings() {
    let a = Arena::new();
    let blocks: Vec<Block<AtomicU64>> = (0..100_000).map(|_| a.alloc(8).unwrap()).collect();
    assert_eq!(a.lock().regions.len(), 1, "6.4 MB fit one region");
    for b in blocks {
        a.free(b);
    }
    assert_eq!(a.in_use(), 0);
}
