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
fn header_and_data_places_data_aligned_after_the_header() {
    let header = Layout::from_size_align(40, 8).unwrap();
    let (block, off) = header_and_data(header, data_layout(100, 64).unwrap()).unwrap();
    assert_eq!(off, 64);
    assert_eq!(block.align(), 64);
    assert_eq!(block.size(), 192);
    let (block, off) = header_and_data(header, data_layout(0, 1).unwrap()).unwrap();
    assert_eq!((block.size(), off), (40, 40));
    let (_, off) = header_and_data(header, data_layout(3, 4096).unwrap()).unwrap();
    assert_eq!(off, 4096);
    assert_eq!(header_and_data(header, data_layout(isize::MAX - 8, 1).unwrap()), Err(Error::TooLarge));
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
    let cases: [(Error, &str); 5] = [
        (Error::NegativeSize { nbytes: -3 }, "byte count -3 is negative"),
        (Error::Alignment { alignment: 12 }, "alignment 12 is not a power of two"),
        (Error::Flags { flags: 6, allowed: 2 }, "flags 0x6 have bits outside the allowed 0x2"),
        (Error::ViewTooLarge { need: 80, have: 72 }, "a view of 80 bytes does not fit in a buffer of 72 bytes"),
        (Error::Alloc { nbytes: 100, alignment: 8 }, "allocation of 100 bytes aligned to 8 failed"),
    ];
    for (e, want) in cases {
        assert_eq!(e.to_string(), want);
    }
}

/// A pool's bookkeeping with slabs at made-up addresses.
fn slots_with(slabs: &[(usize, usize)]) -> Slots {
    let mut s = Slots::new(128);
    for &(base, count) in slabs {
        s.reserve(count).unwrap();
        s.add_slab(base, count);
    }
    s
}

#[test]
fn take_and_give_back() {
    let mut s = slots_with(&[(0x10000, 3)]);
    assert_eq!((s.total(), s.in_use()), (3, 0));
    let a = s.take().unwrap();
    let b = s.take().unwrap();
    let c = s.take().unwrap();
    assert_eq!([a, b, c].map(|x| (x.slab, s.offset(x))), [(0, 0), (0, 128), (0, 256)]);
    assert_eq!(s.take(), None);
    assert_eq!(s.in_use(), 3);
    assert_eq!(s.give_back(0x10080), Ok(()));
    assert_eq!(s.give_back(0x10080), Err(Error::NotAcquired));
    // LIFO: the array given back last is taken first.
    assert_eq!(s.take(), Some(b));
    for bad in [0x10001, 0x10000 + 3 * 128, 0xFFFF, 0, usize::MAX, 0x10000 - 128] {
        assert_eq!(s.give_back(bad), Err(Error::NotFromPool), "{bad:#x}");
    }
    assert_eq!(s.in_use(), 3);
}

#[test]
fn growth_doubles_and_lookup_spans_slabs() {
    let mut s = Slots::new(64);
    assert_eq!(s.next_slab_len(0), 1);
    assert_eq!(s.next_slab_len(5), 5);
    s.reserve(2).unwrap();
    s.add_slab(0x9000, 2);
    assert_eq!(s.next_slab_len(2), 2);
    s.reserve(2).unwrap();
    s.add_slab(0x1000, 2);
    assert_eq!(s.next_slab_len(2), 4);
    let taken: Vec<Slot> = (0..4).map(|_| s.take().unwrap()).collect();
    assert_eq!(taken.iter().map(|x| x.slab).collect::<Vec<_>>(), [1, 1, 0, 0]);
    assert_eq!(s.take(), None);
    for addr in [0x9000, 0x1040, 0x9040, 0x1000] {
        assert_eq!(s.give_back(addr), Ok(()), "{addr:#x}");
    }
    assert_eq!(s.in_use(), 0);
    assert_eq!(s.give_back(0x1080), Err(Error::NotFromPool));
}

#[test]
fn empty_pool_refuses_everything() {
    let mut s = Slots::new(64);
    assert_eq!(s.take(), None);
    assert_eq!(s.give_back(0), Err(Error::NotFromPool));
    assert!(matches!(s.reserve(usize::MAX), Err(Error::Alloc { .. })));
    assert_eq!(s.total(), 0);
}

#[test]
fn lookup_with_slots_that_are_not_powers_of_two() {
    let mut s = Slots::new(192);
    s.reserve(4).unwrap();
    s.add_slab(0x4000, 4);
    let taken: Vec<Slot> = (0..4).map(|_| s.take().unwrap()).collect();
    assert_eq!(taken.iter().map(|&x| s.offset(x)).collect::<Vec<_>>(), [0, 192, 384, 576]);
    for bad in [0x4000 + 64, 0x4000 + 128, 0x4000 + 4 * 192, 0x4000 + 191] {
        assert_eq!(s.give_back(bad), Err(Error::NotFromPool), "{bad:#x}");
    }
    for addr in [0x4000 + 576, 0x4000, 0x4000 + 192, 0x4000 + 384] {
        assert_eq!(s.give_back(addr), Ok(()), "{addr:#x}");
    }
    assert_eq!(s.give_back(0x4000), Err(Error::NotAcquired));
}
