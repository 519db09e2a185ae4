//! Unit tests of the layout arithmetic and the pool bookkeeping.

use super::*;

#[test]
fn data_layout_checks_size_and_alignment() {
    assert_eq!(data_layout(10, 8).unwrap(), Layout::from_size_align(10, 8).unwrap());
    assert_eq!(data_layout(0, 1).unwrap().size(), 0);
    assert_eq!(data_layout(-1, 8), Err(Error::NegativeSize { nbytes: -1 }));
    assert_eq!(data_layout(isize::MIN, 8), Err(Error::NegativeSize { nbytes: isize::MIN }));
    for bad in [0, -8, 3, 6, 12, isize::MAX, isize::MIN] {
        assert_eq!(data_layout(8, bad), Err(Error::Alignment { alignment: bad }), "{bad}");
    }
    // Rounded up to the alignment, the size would exceed isize::MAX.
    assert_eq!(data_layout(isize::MAX, 2), Err(Error::TooLarge));
    assert_eq!(data_layout(isize::MAX, 1).unwrap().size(), isize::MAX as usize);
    assert_eq!(Error::NegativeSize { nbytes: -1 }.kind(), Kind::Shape);
    assert_eq!(Error::Alignment { alignment: 3 }.kind(), Kind::Value);
    assert_eq!(Error::TooLarge.kind(), Kind::Overflow);
}

#[test]
fn blocks_hold_the_header_then_the_aligned_data() {
    let header = Layout::from_size_align(72, 8).unwrap();
    for align in (0..14).map(|k| 1usize << k) {
        for nbytes in [0, 1, 72, 1000] {
            let block = Block::new(header, data_layout(nbytes as isize, align as isize).unwrap()).unwrap();
            let a = block.layout.align();
            assert_eq!(a, if align > SLACK_ALIGN_MAX { align } else { SYSTEM_ALIGN });
            // Bases the allocator may return: aligned to what was asked.
            for base in (1..40).map(|k| k * a) {
                let (data, head) = (block.data(base), block.header(base));
                assert_eq!(data % align, 0, "align {align} base {base}");
                assert_eq!(head % SYSTEM_ALIGN, 0);
                assert!(head >= base && head + header.size() <= data, "align {align} base {base}");
                assert!(data + nbytes <= base + block.layout.size(), "align {align} base {base}");
            }
        }
    }
    // Small alignments waste nothing; up to SLACK_ALIGN_MAX, the slack; beyond, the alignment.
    let size = |align| Block::new(header, data_layout(72, align).unwrap()).unwrap().layout.size();
    assert_eq!(size(8), 80 + 72);
    assert_eq!(size(64), 80 + 48 + 72);
    assert_eq!(size(4096), 4096 + 72);
    let huge = data_layout(isize::MAX - 8, 1).unwrap();
    assert_eq!(Block::new(header, huge), Err(Error::TooLarge));
}

#[test]
fn pool_slots_are_cache_lines() {
    assert_eq!(pool_slot_bytes(0).unwrap(), 64);
    assert_eq!(pool_slot_bytes(1).unwrap(), 64);
    assert_eq!(pool_slot_bytes(64).unwrap(), 64);
    assert_eq!(pool_slot_bytes(72).unwrap(), 128);
    assert_eq!(pool_slot_bytes(usize::MAX), Err(Error::TooLarge));
    assert_eq!(pool_slot_bytes(isize::MAX as usize), Err(Error::TooLarge));
    assert_eq!(slab_layout(128, 3).unwrap().size(), 384);
    assert_eq!(slab_layout(128, 0).unwrap().size(), 0);
    assert_eq!(slab_layout(128, usize::MAX / 64), Err(Error::TooLarge));
}

#[test]
fn flags() {
    assert_eq!(check_flags(0, 1), Ok(()));
    assert_eq!(check_flags(1, 1), Ok(()));
    assert_eq!(check_flags(2, 1), Err(Error::Flags { flags: 2, allowed: 1 }));
    assert_eq!(check_flags(-1, 3), Err(Error::Flags { flags: -1, allowed: 3 }));
}

#[test]
fn messages() {
    let cases: [(Error, &str); 6] = [
        (Error::NegativeSize { nbytes: -3 }, "byte count -3 is negative"),
        (Error::Alignment { alignment: 12 }, "alignment 12 is not a power of two"),
        (Error::Flags { flags: 6, allowed: 2 }, "flags 0x6 have bits outside the allowed 0x2"),
        (
            Error::ViewTooLarge { bytes: 80, offset: 0, have: 72 },
            "a view of 80 bytes does not fit in a buffer of 72 bytes",
        ),
        (
            Error::ViewTooLarge { bytes: 16, offset: 64, have: 72 },
            "a view of 16 bytes at byte offset 64 (ending at byte 80) does not fit in a buffer of 72 bytes",
        ),
        (Error::Alloc { nbytes: 100, alignment: 8 }, "allocation of 100 bytes aligned to 8 failed"),
    ];
    for (e, want) in cases {
        assert_eq!(e.to_string(), want);
    }
}

/// A slab at `base`, as an allocator returns it to the bookkeeping, tagged with an arbitrary
/// function of its base.
fn slab_at(base: usize) -> (usize, usize) {
    (base, base / 16 + 3)
}

/// What `take` returns for the array at `addr` of the slab at `base`.
fn array(addr: usize, base: usize) -> Option<(usize, usize)> {
    Some((addr, slab_at(base).1))
}

/// A pool's bookkeeping whose first slab of `capacity` arrays is at `base`.
fn list_with(slot_bytes: usize, base: usize, capacity: usize) -> FreeList {
    let list = FreeList::new(slot_bytes);
    list.add_first_slab(capacity, |count| {
        assert_eq!(count, capacity);
        Ok(slab_at(base))
    })
    .unwrap();
    list
}

/// The calling thread's identity for the pool's per-thread caches.
fn me() -> usize {
    thread_slot::this_thread()
}

/// A give-back as the C layer makes it: the quick path, or else the general one.
fn release(s: &FreeList, addr: usize) -> Result<()> {
    match s.give_back_quick(addr, me()) {
        Some(true) => Ok(()),
        Some(false) => Err(Error::NotAcquired),
        None => s.give_back(addr, me()),
    }
}

fn never(_: usize) -> Result<(usize, usize)> {
    panic!("the pool must not grow here")
}

#[test]
fn take_and_give_back() {
    let s = list_with(128, 0x10000, 3);
    assert_eq!((s.total(), s.in_use()), (3, 0));
    let taken: Vec<_> = (0..3).map(|_| s.take(me())).collect();
    assert_eq!(taken, [0x10000, 0x10080, 0x10100].map(|a| array(a, 0x10000)));
    assert_eq!(s.take(me()), None);
    assert_eq!(s.in_use(), 3);
    assert_eq!(s.give_back(0x10080, me()), Ok(()));
    assert_eq!(s.give_back(0x10080, me()), Err(Error::NotAcquired));
    // LIFO: the array given back last is taken first.
    assert_eq!(s.take(me()), array(0x10080, 0x10000));
    for bad in [0x10001, 0x10000 + 3 * 128, 0xFFFF, 0, usize::MAX, 0x10000 - 128] {
        assert_eq!(s.give_back(bad, me()), Err(Error::NotFromPool), "{bad:#x}");
    }
    assert_eq!(s.in_use(), 3);
}

#[test]
fn growth_doubles_and_lookup_spans_slabs() {
    let s = FreeList::new(64);
    let mut bases = [0x9000usize, 0x1000, 0x20000, 0x40000].into_iter();
    let mut counts = Vec::new();
    let mut grow = |count: usize| {
        counts.push(count);
        Ok(slab_at(bases.next().unwrap()))
    };
    // capacity 0: slabs of 1, 1, 2, 4 arrays
    let taken: Vec<_> = (0..8).map(|_| s.take_or_grow(me(), 0, &mut grow).unwrap()).collect();
    assert_eq!(counts, [1, 1, 2, 4]);
    let slabs = [0x9000, 0x1000, 0x20000, 0x20000, 0x40000, 0x40000, 0x40000, 0x40000];
    let addrs = [0x9000, 0x1000, 0x20000, 0x20040, 0x40000, 0x40040, 0x40080, 0x400C0];
    assert_eq!(taken, (0..8).map(|i| array(addrs[i], slabs[i]).unwrap()).collect::<Vec<_>>());
    assert_eq!((s.total(), s.in_use()), (8, 8));
    assert_eq!(s.slab_tags().collect::<Vec<_>>(), [0x9000, 0x1000, 0x20000, 0x40000].map(|b| slab_at(b).1));
    for &(addr, _) in taken.iter().rev() {
        assert_eq!(s.give_back(addr, me()), Ok(()), "{addr:#x}");
    }
    assert_eq!(s.in_use(), 0);
    assert_eq!(s.give_back(0x1040, me()), Err(Error::NotFromPool));
    // all free again: no growth, and LIFO order
    assert_eq!(s.take_or_grow(me(), 0, never).ok(), array(0x9000, 0x9000));
}

#[test]
fn growth_failure_leaves_the_pool_unchanged() {
    let s = list_with(64, 0x1000, 1);
    assert_eq!(s.take(me()), array(0x1000, 0x1000));
    let e = Error::Alloc { nbytes: 64, alignment: 64 };
    assert_eq!(s.take_or_grow(me(), 1, |_| Err(e)), Err(e));
    assert_eq!((s.total(), s.in_use()), (1, 1));
    assert_eq!(s.take_or_grow(me(), 1, |_| Ok(slab_at(0x8000))).ok(), array(0x8000, 0x8000));
    assert_eq!((s.total(), s.in_use()), (2, 2));
}

#[test]
fn empty_pool_refuses_everything() {
    let s = FreeList::new(64);
    assert_eq!(s.take(me()), None);
    assert_eq!(s.give_back(0, me()), Err(Error::NotFromPool));
    assert_eq!(s.total(), 0);
    // more arrays than ids
    assert_eq!(s.add_first_slab(u32::MAX as usize + 1, never), Err(Error::TooManyArrays { max: u32::MAX as usize }));
    assert_eq!(Error::TooManyArrays { max: 7 }.to_string(), "a pool can hold at most 7 arrays");
}

#[test]
fn lookup_with_slots_that_are_not_powers_of_two() {
    let s = list_with(192, 0x4000, 4);
    let taken: Vec<_> = (0..4).map(|_| s.take(me())).collect();
    assert_eq!(taken, [0x4000, 0x4000 + 192, 0x4000 + 384, 0x4000 + 576].map(|a| array(a, 0x4000)));
    for bad in [0x4000 + 64, 0x4000 + 128, 0x4000 + 4 * 192, 0x4000 + 191] {
        assert_eq!(s.give_back(bad, me()), Err(Error::NotFromPool), "{bad:#x}");
    }
    for addr in [0x4000 + 576, 0x4000, 0x4000 + 192, 0x4000 + 384] {
        assert_eq!(s.give_back(addr, me()), Ok(()), "{addr:#x}");
    }
    assert_eq!(s.give_back(0x4000, me()), Err(Error::NotAcquired));
}

/// Threads take and give back arrays concurrently, the pool growing meanwhile: no array is
/// ever held by two threads at once (a per-array owner table), no release is refused, and at
/// the end every array is free. Runs under Miri too (fewer rounds), which checks the atomics.
#[test]
fn concurrent_take_and_give_back() {
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    let (threads, rounds) = if cfg!(miri) { (3, 30) } else { (6, 20_000) };
    let s = FreeList::new(64);
    let next_base = AtomicUsize::new(1 << 20);
    // owner[i]: the thread holding array i (its address / 64 within a 1 MiB window), or 0.
    let owner: Vec<AtomicUsize> = (0..4096).map(|_| AtomicUsize::new(0)).collect();
    let slot_of = |addr: usize| (addr - (1 << 20)) / 64;
    std::thread::scope(|scope| {
        for t in 1..=threads {
            let (s, next_base, owner) = (&s, &next_base, &owner);
            scope.spawn(move || {
                for r in 0..rounds {
                    let n = 1 + r % 3;
                    let mut held = [0usize; 3];
                    for h in held.iter_mut().take(n) {
                        let grow = |count| Ok(slab_at(next_base.fetch_add(count * 64, SeqCst)));
                        *h = s.take_or_grow(me(), 2, grow).unwrap().0;
                        assert_eq!(owner[slot_of(*h)].swap(t, SeqCst), 0, "array held twice");
                    }
                    for &h in held.iter().take(n).rev() {
                        assert_eq!(owner[slot_of(h)].swap(0, SeqCst), t);
                        s.give_back(h, me()).unwrap();
                    }
                }
            });
        }
    });
    assert_eq!(s.in_use(), 0);
    assert!(s.total() <= 32, "{}", s.total());
}

/// Two threads give back the same array at once, many times: exactly one of them succeeds each
/// time, and each array is free exactly once afterwards (taking every free array, caches
/// included, finds no duplicate). The winner takes the next round's array, from its cache, so
/// that the racers' caches never fill and both paths of a give-back race (the quick one, to a
/// cache with room; the general one, a thread's first).
#[test]
fn racing_double_releases_have_one_winner() {
    use std::sync::{atomic::AtomicUsize, atomic::Ordering::SeqCst, Barrier};
    let rounds = if cfg!(miri) { 20 } else { 5000 };
    let s = FreeList::new(64);
    let next_base = AtomicUsize::new(1 << 20);
    let grow = |count| Ok(slab_at(next_base.fetch_add(count * 64, SeqCst)));
    let (start, done) = (Barrier::new(2), Barrier::new(2));
    let addr = AtomicUsize::new(s.take_or_grow(me(), 2, grow).unwrap().0);
    // wins[r]: how many of the two releases of round r succeeded.
    let wins: Vec<AtomicUsize> = (0..rounds).map(|_| AtomicUsize::new(0)).collect();
    std::thread::scope(|scope| {
        let racers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    for win in &wins {
                        start.wait();
                        let won = release(&s, addr.load(SeqCst)).is_ok();
                        if won {
                            win.fetch_add(1, SeqCst);
                        }
                        done.wait();
                        // After both releases; the next round starts when this thread does.
                        if won {
                            let next = s.take_quick(me()).unwrap_or_else(|| s.take_or_grow(me(), 2, grow).unwrap()).0;
                            addr.store(next, SeqCst);
                        }
                    }
                })
            })
            .collect();
        // Joined, not only finished: the racers' slots go back when they exit.
        racers.into_iter().for_each(|r| r.join().unwrap());
    });
    let bad: Vec<_> = (0..rounds).filter(|&r| wins[r].load(SeqCst) != 1).collect();
    assert!(bad.is_empty(), "rounds without exactly one winner: {bad:?}");
    assert_eq!(s.in_use(), 1);
    assert_eq!(release(&s, addr.load(SeqCst)), Ok(()));
    let mut taken = Vec::new();
    while let Ok((a, _)) = s.take_or_grow(me(), 2, |_| Err(Error::TooLarge)) {
        taken.push(a);
    }
    taken.sort_unstable();
    taken.dedup();
    assert_eq!(taken.len(), s.total(), "each array free exactly once");
}

/// An array taken by one thread may be given back by another; arrays left in the caches of
/// threads that exited are found again before the pool grows.
#[test]
fn arrays_cached_by_exited_threads_are_reused() {
    let s = list_with(64, 0x10000, 4);
    let taken: Vec<_> = (0..4).map(|_| s.take(me()).unwrap().0).collect();
    std::thread::scope(|scope| {
        let giver = scope.spawn(|| {
            for &a in &taken {
                assert_eq!(release(&s, a), Ok(()));
            }
        });
        // Joined, not only finished: its slot goes back when it exits.
        giver.join().unwrap();
    });
    assert_eq!(s.in_use(), 0);
    // All four are in the exited thread's cache: taking them must not grow the pool.
    let mut again: Vec<_> = (0..4).map(|_| s.take_or_grow(me(), 4, never).unwrap().0).collect();
    again.sort_unstable();
    assert_eq!(again, taken);
}

/// More threads at once than there are slots: those without one use the shared stack, and
/// every take and give-back still succeeds.
#[test]
fn threads_beyond_the_slots_use_the_shared_stack() {
    use std::sync::{atomic::AtomicUsize, atomic::Ordering::SeqCst, Barrier};
    let threads = if cfg!(miri) { 4 } else { super::thread_slot::SLOTS + 8 };
    let s = FreeList::new(64);
    let next_base = AtomicUsize::new(1 << 20);
    let all_started = Barrier::new(threads);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                all_started.wait(); // every thread is alive: some have no slot
                for _ in 0..50 {
                    let grow = |count| Ok(slab_at(next_base.fetch_add(count * 64, SeqCst)));
                    let (a, _) = s.take_or_grow(me(), 2, grow).unwrap();
                    assert_eq!(release(&s, a), Ok(()));
                    assert_eq!(release(&s, a), Err(Error::NotAcquired));
                }
            });
        }
    });
    assert_eq!(s.in_use(), 0);
}
