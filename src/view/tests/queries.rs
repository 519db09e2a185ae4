//! Contiguity (relaxed and strict), counts, extent, bounds, self-overlap and element access.

use super::*;

/// `(C relaxed, C strict, F relaxed, F strict)` for a view of `shape` and `strides`.
fn contig(itemsize: isize, shape: &[isize], strides: &[isize]) -> (bool, bool, bool, bool) {
    let v = View::strided(BASE, itemsize, shape, strides).unwrap();
    (
        v.is_contiguous(itemsize, Order::C, false).unwrap(),
        v.is_contiguous(itemsize, Order::C, true).unwrap(),
        v.is_contiguous(itemsize, Order::F, false).unwrap(),
        v.is_contiguous(itemsize, Order::F, true).unwrap(),
    )
}

#[test]
fn contiguity_hand_cases() {
    let (t, f) = (true, false);
    // Plain C and F layouts.
    assert_eq!(contig(4, &[2, 3], &[12, 4]), (t, t, f, f));
    assert_eq!(contig(4, &[2, 3], &[4, 8]), (f, f, t, t));
    // NumPy ignores length-1 axes (relaxed); Cython checks every stride (strict).
    assert_eq!(contig(4, &[1, 3], &[999, 4]), (t, f, t, f));
    assert_eq!(contig(4, &[1, 3], &[12, 4]), (t, t, t, f));
    assert_eq!(contig(4, &[3, 1], &[4, 4]), (t, t, t, f));
    assert_eq!(contig(4, &[3, 1], &[4, 12]), (t, f, t, t));
    assert_eq!(contig(8, &[1, 1], &[-5, 0]), (t, f, t, f));
    assert_eq!(contig(8, &[1, 1], &[8, 8]), (t, t, t, t));
    // Scalars and single items are contiguous both ways.
    assert_eq!(contig(8, &[], &[]), (t, t, t, t));
    assert_eq!(contig(8, &[1], &[8]), (t, t, t, t));
    // Zero-size: NumPy calls any zero-size view contiguous; Cython's rule still checks strides
    // (the product of inner extents, 0 once a 0 extent is passed).
    assert_eq!(contig(4, &[0], &[12345]), (t, f, t, f));
    assert_eq!(contig(4, &[0], &[4]), (t, t, t, t));
    assert_eq!(contig(4, &[3, 0], &[0, 4]), (t, t, t, f));
    assert_eq!(contig(4, &[3, 0], &[4, 4]), (t, f, t, f));
    // Not contiguous: gaps, reversal, broadcasting, wrong itemsize.
    assert_eq!(contig(8, &[2, 3], &[32, 8]), (f, f, f, f));
    assert_eq!(contig(8, &[2, 3], &[24, -8]), (f, f, f, f));
    assert_eq!(contig(8, &[2, 3], &[0, 8]), (f, f, f, f));
    assert_eq!(contig(8, &[3], &[4]), (f, f, f, f));
    let v = View::strided(BASE, 8, &[3], &[8]).unwrap();
    assert_eq!(v.is_contiguous(4, Order::C, false), Ok(false));
    assert_eq!(v.is_contiguous(0, Order::C, false), Err(Error::Itemsize { itemsize: 0 }));
    // Huge extents: an expected stride past isize::MAX equals no stride, not even a saturated
    // one.
    let mut shape = [0; MAX_DIMS];
    let mut strides = [0; MAX_DIMS];
    let sub = [-1; MAX_DIMS];
    shape[..3].copy_from_slice(&[4, 1 << 62, 2]);
    strides[..3].copy_from_slice(&[123, 0, 1]);
    let h = View::new(BASE, 3, &shape, &strides, &sub).unwrap();
    assert_eq!(h.is_contiguous(1, Order::C, false), Ok(false));
    assert_eq!(h.is_contiguous(1, Order::C, true), Ok(false));
    assert_eq!(h.is_contiguous(1, Order::F, true), Ok(false));
    shape[..3].copy_from_slice(&[1 << 62, 2, 1]);
    strides[..3].copy_from_slice(&[2, 1, 1]);
    let h = View::new(BASE, 3, &shape, &strides, &sub).unwrap();
    assert_eq!(h.is_contiguous(1, Order::C, false), Ok(true));
    assert_eq!(h.is_contiguous(1, Order::C, true), Ok(true));
    assert_eq!(h.is_contiguous(1, Order::F, false), Ok(false));
    shape[..3].copy_from_slice(&[1, 1 << 62, 2]);
    strides[..3].copy_from_slice(&[isize::MAX, 2, 1]);
    let h = View::new(BASE, 3, &shape, &strides, &sub).unwrap();
    assert_eq!(h.is_contiguous(1, Order::C, false), Ok(true));
    assert_eq!(h.is_contiguous(1, Order::C, true), Ok(false));
}

#[test]
fn counts_hand_cases() {
    let v = View::contiguous(BASE, 8, &[2, 3, 4], Order::C).unwrap();
    assert_eq!(v.item_count(), Ok(24));
    assert_eq!(v.byte_count(8), Ok(192));
    assert_eq!(v.byte_count(-1), Err(Error::Itemsize { itemsize: -1 }));
    let s = View::strided(BASE, 8, &[], &[]).unwrap();
    assert_eq!((s.item_count(), s.byte_count(3)), (Ok(1), Ok(3)));
    let z = View::strided(BASE, 8, &[5, 0, 7], &[1, 2, 3]).unwrap();
    assert_eq!((z.item_count(), z.byte_count(8), z.is_empty()), (Ok(0), Ok(0), true));
    let big = View::strided(BASE, 1, &[1 << 32, 1 << 32], &[0, 0]).unwrap();
    assert_eq!(big.item_count(), Err(Error::Overflow));
    let big = View::strided(BASE, 1, &[1 << 31, 1 << 31], &[0, 0]).unwrap();
    assert_eq!(big.item_count(), Ok(1 << 62));
    assert_eq!(big.byte_count(2), Err(Error::Overflow));
    assert_eq!(big.byte_count(1), Ok(1 << 62));
}

#[test]
fn extent_bounds_overlap_hand_cases() {
    // np.zeros((2, 3))[:, ::-1] (float64): data at +16, bytes [-16, 32) relative to it.
    let a = View::strided(BASE, 8, &[2, 3], &[24, -8]).unwrap();
    assert_eq!(a.extent(8), Ok((-16, 32)));
    assert_eq!(a.check_bounds(8, 16, 48), Ok(()));
    assert_eq!(a.check_bounds(8, 15, 48), Err(Error::OutOfBounds));
    assert_eq!(a.check_bounds(8, 16, 47), Err(Error::OutOfBounds));
    assert_eq!(a.check_bounds(8, 16, -1), Err(Error::NegativeSize { size: -1 }));
    assert_eq!(a.may_overlap(8), Ok(false));
    // Stride 0 over 2 items overlaps; so does a stride smaller than the item.
    let b = View::strided(BASE, 8, &[2, 3], &[0, 8]).unwrap();
    assert_eq!((b.extent(8), b.may_overlap(8)), (Ok((0, 24)), Ok(true)));
    assert_eq!(View::strided(BASE, 8, &[3], &[4]).unwrap().may_overlap(8), Ok(true));
    assert_eq!(View::strided(BASE, 4, &[3], &[4]).unwrap().may_overlap(4), Ok(false));
    // Interleaved without overlap: (2, 2) strides (8, 16) with itemsize 8 (a transposed block).
    assert_eq!(View::strided(BASE, 8, &[2, 2], &[8, 16]).unwrap().may_overlap(8), Ok(false));
    // Sliding windows overlap.
    let w = View::contiguous(BASE, 4, &[7], Order::C).unwrap().derive(|w| w.sliding_window(0, 3, 1)).unwrap();
    assert_eq!(w.may_overlap(4), Ok(true));
    // Zero-size views address nothing: extent (0, 0), in bounds of anything, no overlap.
    let z = View::strided(BASE, 8, &[0, 3], &[0, 0]).unwrap();
    assert_eq!((z.extent(8), z.check_bounds(8, -100, 0), z.may_overlap(8)), (Ok((0, 0)), Ok(()), Ok(false)));
    // 0-d: one item.
    let s = View::strided(BASE, 8, &[], &[]).unwrap();
    assert_eq!((s.extent(8), s.may_overlap(8)), (Ok((0, 8)), Ok(false)));
    assert_eq!(s.check_bounds(8, 0, 8), Ok(()));
    assert_eq!(s.check_bounds(8, 1, 8), Err(Error::OutOfBounds));
    // Offsets beyond isize (the offset argument is i128).
    assert_eq!(s.check_bounds(8, isize::MAX as i128 + 5, isize::MAX), Err(Error::OutOfBounds));
    assert_eq!(s.check_bounds(8, -(1i128 << 80), isize::MAX), Err(Error::OutOfBounds));
    assert_eq!(s.extent(0), Err(Error::Itemsize { itemsize: 0 }));
}

#[test]
fn element_hand_cases() {
    let a = View::strided(BASE, 8, &[2, 3], &[24, -8]).unwrap();
    assert_eq!(a.element(&[1, 2], no_deref), Ok(BASE + 24 - 16));
    assert_eq!(a.element(&[-1, -3], no_deref), Ok(BASE + 24));
    assert_eq!(a.element(&[2, 0], no_deref), Err(Error::Index { index: 2, axis: 0, len: 2 }));
    assert_eq!(a.element(&[0, -4], no_deref), Err(Error::Index { index: -4, axis: 1, len: 3 }));
    assert_eq!(a.element(&[0], no_deref), Err(Error::Count { what: "index length", count: 1 }));
    let s = View::strided(BASE, 8, &[], &[]).unwrap();
    assert_eq!(s.element(&[], no_deref), Ok(BASE));
}

/// The item byte ranges `[a, a + itemsize)` of a direct view overlap somewhere (brute force).
fn overlaps(v: &V, itemsize: isize) -> bool {
    let mut starts: Vec<i128> = c_indices(&dims(v)).iter().map(|i| addr(v, i)).collect();
    starts.sort();
    starts.windows(2).any(|w| w[1] < w[0] + itemsize as i128)
}

proptest! {
    #![proptest_config(config(1536))]

    #[test]
    fn relaxed_contiguity_is_the_definition((v, itemsize) in arb_view(0..=8)) {
        let sh = dims(&v);
        for order in [Order::C, Order::F] {
            let relaxed = v.is_contiguous(itemsize, order, false).unwrap();
            let strict = v.is_contiguous(itemsize, order, true).unwrap();
            // Item k in `order` lies k items after the data address (vacuous when empty).
            let def = order_indices(&sh, order)
                .iter()
                .enumerate()
                .all(|(k, i)| addr(&v, i) == v.data() as i128 + k as i128 * itemsize as i128);
            prop_assert_eq!(relaxed, def, "{:?} {:?}", order, v);
            prop_assert!(!strict || relaxed, "strict but not relaxed: {:?}", v);
            // Strict = relaxed plus the exact stride on every length-1 axis (non-empty views).
            if !v.is_empty() {
                let mut expect = itemsize;
                let mut strict_model = true;
                let axes: Vec<usize> = match order { Order::C => (0..sh.len()).rev().collect(), Order::F => (0..sh.len()).collect() };
                for a in axes {
                    strict_model &= v.strides()[a] == expect;
                    expect *= sh[a];
                }
                prop_assert_eq!(strict, strict_model);
            }
        }
    }

    #[test]
    fn extent_is_min_and_max_address((v, itemsize) in arb_view(0..=8)) {
        let ext = v.extent(itemsize).unwrap();
        let all: Vec<i128> = c_indices(&dims(&v)).iter().map(|i| addr(&v, i)).collect();
        if all.is_empty() {
            prop_assert_eq!(ext, (0, 0));
        } else {
            let d = v.data() as i128;
            let lo = *all.iter().min().unwrap() - d;
            let hi = *all.iter().max().unwrap() + itemsize as i128 - d;
            prop_assert_eq!((ext.0 as i128, ext.1 as i128), (lo, hi));
        }
    }

    #[test]
    fn check_bounds_is_every_byte_inside(
        (v, itemsize) in arb_view(0..=8),
        lo_slack in -3..=3i128,
        hi_slack in -3..=3i128,
    ) {
        // Put base near the lowest byte and nbytes near the highest, both sides of the edge.
        let all: Vec<i128> = c_indices(&dims(&v)).iter().map(|i| addr(&v, i)).collect();
        let (min, max) = match (all.iter().min(), all.iter().max()) {
            (Some(&a), Some(&b)) => (a, b + itemsize as i128),
            _ => (v.data() as i128, v.data() as i128),
        };
        let base = min - lo_slack;
        let nbytes = (max - base + hi_slack).max(0);
        let offset = v.data() as i128 - base;
        let inside = all.iter().all(|&a| a >= base && a + itemsize as i128 <= base + nbytes);
        let r = v.check_bounds(itemsize, offset, nbytes as isize);
        prop_assert_eq!(r.is_ok(), inside, "{:?} base {} nbytes {}: {:?}", v, base, nbytes, r);
        if !inside {
            prop_assert_eq!(r, Err(Error::OutOfBounds));
        }
    }

    #[test]
    fn no_overlap_claim_is_true((v, itemsize) in arb_view(0..=6)) {
        if !v.may_overlap(itemsize).unwrap() {
            prop_assert!(!overlaps(&v, itemsize), "may_overlap == false but items overlap: {:?} itemsize {}", v, itemsize);
        }
    }

    /// Sliced/transposed contiguous layouts never overlap; the rule must say so for them.
    #[test]
    fn no_overlap_for_sliced_contiguous(
        shape in arb_shape(0..=6),
        itemsize in 1..=16isize,
        steps in prop::collection::vec(prop_oneof![Just(1isize), Just(2), Just(-1), Just(-3)], 6),
        perm_seed in any::<Pick>(),
    ) {
        let parent: Vec<isize> = shape.iter().zip(&steps).map(|(&d, &s)| d * s.abs()).collect();
        let mut v = View::contiguous(BASE, itemsize, &parent, Order::C).unwrap();
        for (k, &s) in steps.iter().take(shape.len()).enumerate() {
            v = v.derive(|w| w.slice_axis(k as isize, NONE, NONE, s)).unwrap();
        }
        if v.ndim() > 1 {
            v = v.derive(|w| w.swap_axes(0, perm_seed.index(v.ndim()) as isize)).unwrap();
        }
        prop_assert!(!overlaps(&v, itemsize));
        prop_assert_eq!(v.may_overlap(itemsize), Ok(false), "{:?}", v);
    }

    #[test]
    fn element_is_the_address(
        (v, _) in arb_view(0..=8),
        raw in prop::collection::vec((any::<Pick>(), any::<bool>()), 8),
        bad in any::<Option<(Pick, bool)>>(),
    ) {
        if v.is_empty() {
            if v.ndim() > 0 {
                let a = v.shape()[..v.ndim()].iter().position(|&n| n == 0).unwrap();
                let idx = vec![0; v.ndim()];
                prop_assert!(matches!(v.element(&idx, no_deref), Err(Error::Index { .. })), "axis {}", a);
            }
            return Ok(());
        }
        let sh = dims(&v);
        let mut idx: Vec<isize> = sh.iter().zip(&raw).map(|(&n, (p, _))| p.index(n as usize) as isize).collect();
        let want = addr(&v, &idx);
        // Negative indices count from the end.
        let wrapped: Vec<isize> = idx.iter().zip(&sh).zip(&raw).map(|((&i, &n), (_, neg))| if *neg { i - n } else { i }).collect();
        prop_assert_eq!(v.element(&wrapped, no_deref).map(|p| p as i128), Ok(want));
        if let Some((p, high)) = bad {
            if !sh.is_empty() {
                let a = p.index(sh.len());
                idx[a] = if high { sh[a] } else { -sh[a] - 1 };
                prop_assert_eq!(v.element(&idx, no_deref), Err(Error::Index { index: idx[a], axis: a, len: sh[a] }));
            }
        }
        let mut long = idx.clone();
        long.push(0);
        prop_assert!(matches!(v.element(&long, no_deref), Err(Error::Count { .. })), "index too long");
    }

    /// The product of `n` extents of about `b` bits each, where `n * b` is about 64 (the fast
    /// path's bound), is the exact product, an overflow when that does not fit, 0 with any zero
    /// extent.
    #[test]
    fn product_is_exact(shape in (1..=MAX_DIMS, -1..=1i32).prop_flat_map(|(n, d)| {
        let b = (64 / n as i32 + d).clamp(1, 63) as u32;
        let extent = prop_oneof![8 => (1isize << (b - 1))..=isize::MAX >> (63 - b), 1 => Just(0), 1 => 0..=isize::MAX];
        prop::collection::vec(extent, n)
    })) {
        let exact = shape.iter().try_fold(1i128, |p, &len| p.checked_mul(len as i128));
        let want = match exact.and_then(|p| isize::try_from(p).ok()) {
            _ if shape.contains(&0) => Ok(0),
            Some(p) => Ok(p),
            None => Err(Error::Overflow),
        };
        prop_assert_eq!(product(&shape), want);
    }

    #[test]
    fn counts_are_products((v, itemsize) in arb_view(0..=8)) {
        let n = count(&dims(&v));
        prop_assert_eq!(v.item_count(), Ok(n));
        prop_assert_eq!(v.byte_count(itemsize), Ok(n * itemsize));
        prop_assert_eq!(v.is_empty(), n == 0);
    }
}
