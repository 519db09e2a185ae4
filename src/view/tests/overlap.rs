//! `shares_memory` against hand cases (checked with NumPy 2.4's `np.shares_memory`) and a
//! brute-force oracle that compares every item byte range of one view with the other's.

use super::*;
use crate::view::overlap::SHARES_MEMORY_MAX_WORK;
use Overlap::{No, TooHard, Yes};

/// A direct view at `BASE + offset` (a negative offset counts back from `BASE`).
fn sv(offset: isize, itemsize: isize, shape: &[isize], strides: &[isize]) -> V {
    View::strided(BASE.wrapping_add_signed(offset), itemsize, shape, strides).unwrap()
}

/// `shares_memory(a, b)` with the default bound, checked to be `shares_memory(b, a)`.
fn shares(a: &V, ia: isize, b: &V, ib: isize) -> Overlap {
    let ab = shares_memory(a, ia, b, ib, None).unwrap();
    let ba = shares_memory(b, ib, a, ia, None).unwrap();
    assert_eq!(ab, ba, "not symmetric: {a:?} ({ia}) and {b:?} ({ib})");
    ab
}

/// Whether some byte of an item of `a` is a byte of an item of `b`, by enumerating the items
/// of both (addresses exact in `i128`).
fn brute(a: &V, ia: isize, b: &V, ib: isize) -> bool {
    let mut starts: Vec<i128> = c_indices(&dims(a)).iter().map(|i| addr(a, i)).collect();
    starts.sort_unstable();
    c_indices(&dims(b)).iter().any(|j| {
        let s = addr(b, j);
        // An item [t, t + ia) of `a` meets [s, s + ib) when s - ia < t < s + ib.
        let k = starts.partition_point(|&t| t <= s - ia as i128);
        k < starts.len() && starts[k] < s + ib as i128
    })
}

fn yes_no(found: bool) -> Overlap {
    if found {
        Overlap::Yes
    } else {
        Overlap::No
    }
}

/// `shares` equals the oracle, and the oracle is not asked to be right for free: it must agree
/// with the hand value where one is given.
fn check(a: &V, ia: isize, b: &V, ib: isize, want: Overlap) {
    assert_eq!(yes_no(brute(a, ia, b, ib)), want, "oracle: {a:?} ({ia}) and {b:?} ({ib})");
    assert_eq!(shares(a, ia, b, ib), want, "{a:?} ({ia}) and {b:?} ({ib})");
}

#[test]
fn overlap_hand_cases_1d() {
    // a = np.zeros(10, np.int64): itself, a[::2] / a[1::2], a[::-1].
    let a = sv(0, 8, &[10], &[8]);
    check(&a, 8, &a, 8, Yes);
    let (even, odd) = (sv(0, 8, &[5], &[16]), sv(8, 8, &[5], &[16]));
    check(&even, 8, &odd, 8, No);
    check(&even, 8, &a, 8, Yes);
    check(&a.derive(|w| w.flip()).unwrap(), 8, &a, 8, Yes);
    // a[::2] read as items of 9 bytes reaches into a[1::2]; as bytes of a, not.
    check(&even, 9, &odd, 8, Yes);
    check(&even, 1, &odd, 8, No);
    // Even length 6: a[::-2] is items 5, 3, 1; odd length 7: 6, 4, 2, 0.
    let rev6 = sv(40, 8, &[3], &[-16]);
    check(&rev6, 8, &sv(0, 8, &[3], &[16]), 8, No);
    check(&rev6, 8, &sv(8, 8, &[3], &[16]), 8, Yes);
    let rev7 = sv(48, 8, &[4], &[-16]);
    check(&rev7, 8, &sv(0, 8, &[4], &[16]), 8, Yes);
    check(&rev7, 8, &sv(8, 8, &[3], &[16]), 8, No);
    // Items wider than their stride: bytes [0, 4), [2, 6), [4, 8), [6, 10).
    let wide = sv(0, 4, &[4], &[2]);
    check(&wide, 4, &sv(9, 1, &[], &[]), 1, Yes);
    check(&wide, 4, &sv(10, 1, &[], &[]), 1, No);
    // Items of 3 bytes every 8: offset 3 touches nothing, offset 2 one byte per item.
    check(&sv(0, 3, &[4], &[8]), 3, &sv(3, 3, &[4], &[8]), 3, No);
    check(&sv(0, 3, &[4], &[8]), 3, &sv(2, 3, &[4], &[8]), 3, Yes);
    check(&sv(0, 3, &[4], &[8]), 3, &sv(5, 3, &[4], &[8]), 3, No);
    check(&sv(0, 3, &[4], &[8]), 3, &sv(6, 3, &[4], &[8]), 3, Yes);
}

#[test]
fn overlap_hand_cases_single_bytes() {
    // One item of 8 bytes at 0 and one at 7, 8, -7, -8: a single shared byte or none.
    let item = sv(0, 8, &[], &[]);
    check(&item, 8, &sv(7, 8, &[], &[]), 8, Yes);
    check(&item, 8, &sv(8, 8, &[], &[]), 8, No);
    check(&item, 8, &sv(-7, 8, &[], &[]), 8, Yes);
    check(&item, 8, &sv(-8, 8, &[], &[]), 8, No);
    // Byte 7 of the item only, and the bytes around it.
    check(&item, 8, &sv(7, 1, &[], &[]), 1, Yes);
    check(&item, 8, &sv(8, 1, &[5], &[1]), 1, No);
    check(&item, 8, &sv(-1, 1, &[5], &[-1]), 1, No);
    check(&item, 8, &sv(-3, 1, &[5], &[3]), 1, Yes);
    // Single bytes: the same one, or neighbours.
    check(&sv(5, 1, &[], &[]), 1, &sv(5, 1, &[], &[]), 1, Yes);
    check(&sv(5, 1, &[], &[]), 1, &sv(6, 1, &[], &[]), 1, No);
}

#[test]
fn overlap_hand_cases_2d() {
    // a = np.zeros((3, 4), np.int32): columns, rows, every other column, transposes.
    let a = View::contiguous(BASE, 4, &[3, 4], Order::C).unwrap();
    let col = |j: isize| a.derive(|w| w.index_axis(1, j, no_deref)).unwrap();
    let row = |i: isize| a.derive(|w| w.index_axis(0, i, no_deref)).unwrap();
    check(&col(0), 4, &col(1), 4, No);
    check(&col(0), 4, &col(3), 4, No);
    check(&col(0), 4, &row(1), 4, Yes);
    check(&col(2), 4, &row(2), 4, Yes);
    check(&row(0), 4, &row(1), 4, No);
    let every = |start: isize| a.derive(|w| w.slice_axis(1, start, NONE, 2)).unwrap();
    check(&every(0), 4, &every(1), 4, No);
    check(&every(0), 4, &col(2), 4, Yes);
    check(&every(1), 4, &col(2), 4, No);
    let t = a.derive(|w| w.transpose()).unwrap();
    check(&t, 4, &a, 4, Yes);
    check(&t.derive(|w| w.index_axis(0, 0, no_deref)).unwrap(), 4, &col(0), 4, Yes);
    check(&t.derive(|w| w.index_axis(0, 0, no_deref)).unwrap(), 4, &col(1), 4, No);
    // A reversed column against the others.
    let rcol = col(1).derive(|w| w.flip()).unwrap();
    check(&rcol, 4, &col(1), 4, Yes);
    check(&rcol, 4, &col(2), 4, No);
    // Bytes of the rows: row 1 as int16 pairs against the high halves of row 1.
    check(&sv(16, 2, &[8], &[2]), 2, &sv(18, 2, &[4], &[4]), 2, Yes);
    check(&sv(16, 2, &[4], &[4]), 2, &sv(18, 2, &[4], &[4]), 2, No);
    // NumPy's example (mem_overlap.c): x = zeros((4, W), int8), x[:, ::7] and x[:, 3::3]
    // share nothing for W = 20 and 21 (at most lcm(7, 3)), something for W = 22.
    for (width, want) in [(20, No), (21, No), (22, Yes)] {
        let x = View::contiguous(BASE, 1, &[4, width], Order::C).unwrap();
        let p = x.derive(|w| w.slice_axis(1, NONE, NONE, 7)).unwrap();
        let q = x.derive(|w| w.slice_axis(1, 3, NONE, 3)).unwrap();
        check(&p, 1, &q, 1, want);
    }
}

#[test]
fn overlap_hand_cases_broadcast_and_empty() {
    // Stride 0: one item repeated, against a[::2] of int64.
    let even = sv(0, 8, &[5], &[16]);
    check(&sv(24, 8, &[5], &[0]), 8, &even, 8, No);
    check(&sv(32, 8, &[5], &[0]), 8, &even, 8, Yes);
    check(&sv(32, 8, &[3, 5], &[0, 0]), 8, &sv(32, 8, &[2], &[0]), 8, Yes);
    // Broadcast rows of a 4-item row against a column layout.
    let rows = sv(0, 4, &[3, 4], &[0, 4]);
    check(&rows, 4, &sv(12, 4, &[2], &[16]), 4, Yes);
    check(&rows, 4, &sv(16, 4, &[2], &[16]), 4, No);
    // Empty views share nothing, not even with themselves or a view at the same address.
    let empty = sv(0, 8, &[3, 0], &[8, 8]);
    check(&empty, 8, &empty, 8, No);
    check(&empty, 8, &sv(0, 8, &[10], &[8]), 8, No);
    check(&sv(0, 8, &[0], &[0]), 8, &sv(0, 8, &[], &[]), 8, No);
    // A 0-d view shares its item with itself.
    check(&sv(0, 8, &[], &[]), 8, &sv(0, 8, &[], &[]), 8, Yes);
}

#[test]
fn overlap_errors_and_work_bound() {
    let a = sv(0, 8, &[10], &[8]);
    assert_eq!(shares_memory(&a, 0, &a, 8, None), Err(Error::Itemsize { itemsize: 0 }));
    assert_eq!(shares_memory(&a, 8, &a, -1, None), Err(Error::Itemsize { itemsize: -1 }));
    let (mut shape, mut strides, mut sub) = ([0; MAX_DIMS], [0; MAX_DIMS], [-1; MAX_DIMS]);
    shape[..2].copy_from_slice(&[2, 3]);
    strides[..2].copy_from_slice(&[8, 8]);
    sub[1] = 0;
    let indirect = View::new(BASE, 2, &shape, &strides, &sub).unwrap();
    assert_eq!(shares_memory(&indirect, 8, &a, 8, None), Err(Error::Indirect { axis: 1 }));
    assert_eq!(shares_memory(&a, 8, &indirect, 8, None), Err(Error::Indirect { axis: 1 }));
    // Itemsize is checked before indirection, a's before b's.
    assert_eq!(shares_memory(&indirect, 8, &a, 0, None), Err(Error::Indirect { axis: 1 }));
    assert_eq!(shares_memory(&indirect, 0, &a, 8, None), Err(Error::Itemsize { itemsize: 0 }));
    // A view whose extent does not fit (span isize::MAX, then the item): Overflow.
    shape[..2].copy_from_slice(&[2, 1]);
    strides[..2].copy_from_slice(&[isize::MAX, 0]);
    let huge = View::new(BASE, 2, &shape, &strides, &[-1; MAX_DIMS]).unwrap();
    assert_eq!(shares_memory(&huge, 1, &a, 8, None), Err(Error::Overflow));

    // max_work 0 tests the byte ranges only.
    let (even, odd) = (sv(0, 8, &[5], &[16]), sv(8, 8, &[5], &[16]));
    assert_eq!(shares_memory(&even, 8, &odd, 8, Some(0)), Ok(TooHard));
    assert_eq!(shares_memory(&even, 8, &sv(80, 8, &[5], &[16]), 8, Some(0)), Ok(No));
    assert_eq!(shares_memory(&even, 8, &odd, 8, Some(1)), Ok(No));
    assert_eq!(shares_memory(&even, 8, &even, 8, Some(1)), Ok(Yes));
    // NumPy's example needs a few candidates.
    let x = View::contiguous(BASE, 1, &[4, 20], Order::C).unwrap();
    let p = x.derive(|w| w.slice_axis(1, NONE, NONE, 7)).unwrap();
    let q = x.derive(|w| w.slice_axis(1, 3, NONE, 3)).unwrap();
    assert_eq!(shares_memory(&p, 1, &q, 1, Some(1)), Ok(TooHard));
    assert_eq!(shares_memory(&p, 1, &q, 1, Some(100)), Ok(No));
}

/// NumPy's hard instance (mem_overlap.c), which shares nothing: the default bound stops it
/// (not run under Miri: a million search nodes).
#[test]
fn overlap_hard_instance_is_too_hard() {
    let x1 = sv(0, 1, &[1049, 1049, 1049], &[36674, 61119, 85569]);
    let x2 = sv(64023025, 1, &[1049, 1049, 1], &[12223, 12224, 1]);
    assert_eq!(shares_memory(&x1, 1, &x2, 1, Some(1000)), Ok(TooHard));
    if !cfg!(miri) {
        assert_eq!(shares_memory(&x1, 1, &x2, 1, None), Ok(TooHard));
        assert_eq!(shares_memory(&x1, 1, &x2, 1, Some(SHARES_MEMORY_MAX_WORK)), Ok(TooHard));
    }
}

/// Layouts at the edges of the address space and of `isize`: no overflow, exact answers.
#[test]
fn overlap_extremes() {
    let top = usize::MAX - 15;
    let a = View::strided(top, 8, &[2], &[8]).unwrap();
    let b = View::strided(top + 8, 8, &[], &[]).unwrap();
    check(&a, 8, &b, 8, Yes);
    let c = View::strided(top, 8, &[2], &[-(isize::MAX / 2)]).unwrap();
    check(&c, 8, &b, 8, No);
    check(&c, 8, &a, 8, Yes);
    // Two huge strides, offsets (2^62 - 1) * k apart.
    let s = (1isize << 62) - 1;
    let p = View::strided(0usize, 1, &[2], &[s]).unwrap();
    let q = View::strided(s as usize, 1, &[2], &[-s]).unwrap();
    check(&p, 1, &q, 1, Yes);
    let r = View::strided(1usize, 1, &[2], &[s]).unwrap();
    check(&p, 1, &r, 1, No);
    check(&p, 2, &r, 1, Yes);
    // 18 terms (pairs of equal coefficients merge) near 2^59, spans near 2^62.
    let big = View::strided(0usize, 7, &[2; 8], &[s, s - 1, s - 2, s - 3, s - 4, s - 5, s - 6, s - 7]);
    assert_eq!(big.map(|_| ()), Err(Error::Overflow), "the span is past isize::MAX");
    let t = s / 8;
    let v = View::strided(0usize, 7, &[2; 8], &[t, t - 1, t - 2, t - 3, t - 4, t - 5, t - 6, t - 7]).unwrap();
    let w =
        View::strided(3 * t as usize + 11, 5, &[2; 8], &[-t, 1 - t, 2 - t, 3 - t, 4 - t, 5 - t, 6 - t, 7 - t]).unwrap();
    check(&v, 7, &w, 5, yes_no(brute(&v, 7, &w, 5)));
}

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

/// Extents for the oracle: up to 4 axes of up to 4 items (fewer in all under Miri).
fn small_shape() -> impl Strategy<Value = Vec<isize>> {
    prop::collection::vec(prop_oneof![1 => Just(0isize), 4 => Just(1isize), 15 => 2..=4isize], 0..=4).prop_map(capped)
}

/// A view of any strides in -40..=40 and item size 1..=16, at `BASE` plus 0..32.
fn random_view() -> impl Strategy<Value = (V, isize)> {
    (small_shape(), 1..=16isize, 0..32isize)
        .prop_flat_map(|(shape, itemsize, off)| {
            let n = shape.len();
            (Just(shape), Just(itemsize), Just(off), prop::collection::vec(-40..=40isize, n))
        })
        .prop_map(|(shape, itemsize, off, strides)| (sv(off, itemsize, &shape, &strides), itemsize))
}

/// Two views whose strides and offsets are multiples of one unit `u` (plus a shift below `u`
/// for some offsets), items up to `u + 1` bytes: the interleavings where the answer turns on
/// a residue or on one byte.
fn lattice_pair() -> impl Strategy<Value = ((V, isize), (V, isize))> {
    (1..=8isize).prop_flat_map(|u| {
        let view = move || {
            (small_shape(), prop_oneof![Just(u), 1..=u + 1], 0..=6isize, prop_oneof![3 => Just(0isize), 1 => 0..u])
                .prop_flat_map(move |(shape, itemsize, k, shift)| {
                    let n = shape.len();
                    (Just(shape), Just(itemsize), Just(k * u + shift), prop::collection::vec(-6..=6isize, n))
                })
                .prop_map(move |(shape, itemsize, off, ks)| {
                    let strides: Vec<isize> = ks.iter().map(|k| k * u).collect();
                    (sv(off, itemsize, &shape, &strides), itemsize)
                })
        };
        (view(), view())
    })
}

/// One slice per axis (start, stop, step) of a parent, then one axis maybe indexed.
type Slicing = (Vec<(isize, isize, isize)>, Option<(Pick, Pick)>);

fn slicing() -> impl Strategy<Value = Slicing> {
    let start = prop_oneof![4 => Just(NONE), 2 => 0..=1isize, 1 => -2..=-1isize];
    let stop = prop_oneof![6 => Just(NONE), 1 => -6..=6isize];
    let step = prop_oneof![1 => Just(NONE), 2 => Just(1isize), 3 => 2..=3isize, 1 => Just(-1isize), 2 => -3..=-2isize];
    let index = prop::option::weighted(0.3, any::<(Pick, Pick)>());
    (prop::collection::vec((start, stop, step), 4), index)
}

fn apply(parent: &V, (slices, index): &Slicing) -> V {
    let mut v = *parent;
    for (axis, &(start, stop, step)) in slices.iter().take(v.ndim()).enumerate() {
        v = v.derive(|w| w.slice_axis(axis as isize, start, stop, step)).unwrap();
    }
    if let Some((axis, i)) = index {
        if v.ndim() > 0 {
            let axis = axis.index(v.ndim());
            let len = v.shape()[axis];
            if len > 0 {
                v = v.derive(|w| w.index_axis(axis as isize, i.index(len as usize) as isize, no_deref)).unwrap();
            }
        }
    }
    v
}

/// Two views sliced (and maybe indexed) from one C or F parent, the multi-operand iterator's
/// usual case; the second is sometimes read with half the item size.
fn sliced_pair() -> impl Strategy<Value = ((V, isize), (V, isize))> {
    let parent = prop::collection::vec(1..=6isize, 1..=4).prop_map(capped);
    let itemsize = prop::sample::select(vec![1isize, 2, 4, 8]);
    (parent, itemsize, any::<bool>(), slicing(), slicing(), prop::bool::weighted(0.2)).prop_map(
        |(parent, itemsize, f_order, sa, sb, halve)| {
            let order = if f_order { Order::F } else { Order::C };
            let p = View::contiguous(BASE, itemsize, &parent, order).unwrap();
            let ib = if halve { (itemsize / 2).max(1) } else { itemsize };
            ((apply(&p, &sa), itemsize), (apply(&p, &sb), ib))
        },
    )
}

/// Views with huge strides or addresses and few items: `b` starts near an item of `a`.
fn extreme_pair() -> impl Strategy<Value = ((V, isize), (V, isize))> {
    let stride = prop_oneof![
        2 => -40..=40isize,
        3 => (-3..=3isize, -3..=3isize).prop_map(|(k, d)| k * (isize::MAX / 4) + d),
        1 => any::<isize>(),
    ];
    let shape = prop::collection::vec(prop_oneof![1 => Just(0isize), 6 => 1..=3isize], 0..=3);
    let view = (shape, prop::collection::vec(stride, 3), prop_oneof![1..=16isize, Just(isize::MAX / 2)]);
    (view.clone(), view, any::<usize>(), any::<Pick>(), prop_oneof![-3..=3isize, -20..=20isize]).prop_filter_map(
        "extent fits",
        |((sa, ta, ia), (sb, tb, ib), at, pick, delta)| {
            let a = View::strided(at, ia, &sa, &ta[..sa.len()]).ok()?;
            let idx = c_indices(&sa);
            let near = match idx.len() {
                0 => at,
                n => a.element(&idx[pick.index(n)], no_deref).ok()?,
            };
            let b = View::strided(near.wrapping_add_signed(delta), ib, &sb, &tb[..sb.len()]).ok()?;
            Some(((a, ia), (b, ib)))
        },
    )
}

proptest! {
    #![proptest_config(config_with(16384, 24))]

    #[test]
    fn overlap_random_views_match_the_oracle((a, ia) in random_view(), (b, ib) in random_view()) {
        prop_assert_eq!(shares(&a, ia, &b, ib), yes_no(brute(&a, ia, &b, ib)), "{:?} ({}) and {:?} ({})", a, ia, b, ib);
    }

    #[test]
    fn overlap_lattice_views_match_the_oracle(((a, ia), (b, ib)) in lattice_pair()) {
        prop_assert_eq!(shares(&a, ia, &b, ib), yes_no(brute(&a, ia, &b, ib)), "{:?} ({}) and {:?} ({})", a, ia, b, ib);
    }

    #[test]
    fn overlap_sliced_views_match_the_oracle(((a, ia), (b, ib)) in sliced_pair()) {
        prop_assert_eq!(shares(&a, ia, &b, ib), yes_no(brute(&a, ia, &b, ib)), "{:?} ({}) and {:?} ({})", a, ia, b, ib);
    }

    /// Exact, except that items of 2^62 bytes may need more work than given (the search then
    /// tries the bytes of an item one residue class at a time, as NumPy's does).
    #[test]
    fn overlap_extreme_views_match_the_oracle(((a, ia), (b, ib)) in extreme_pair()) {
        let got = shares_memory(&a, ia, &b, ib, Some(4096)).unwrap();
        prop_assert_eq!(got, shares_memory(&b, ib, &a, ia, Some(4096)).unwrap());
        if got != TooHard || ia.max(ib) <= 16 {
            prop_assert_eq!(got, yes_no(brute(&a, ia, &b, ib)), "{:?} ({}) and {:?} ({})", a, ia, b, ib);
        }
    }

    /// A bounded search answers exactly or gives up, gives up only when the bound is below
    /// the work needed, and with bound 0 exactly when the byte ranges intersect.
    #[test]
    fn overlap_work_bound_gives_up_or_answers(((a, ia), (b, ib)) in lattice_pair(), max in 0..=6u64) {
        let exact = shares(&a, ia, &b, ib);
        let bounded = shares_memory(&a, ia, &b, ib, Some(max)).unwrap();
        prop_assert!(bounded == exact || bounded == TooHard, "{:?} with bound {}, {:?} without", bounded, max, exact);
        if bounded != TooHard {
            prop_assert_eq!(shares_memory(&a, ia, &b, ib, Some(max + 1)), Ok(exact));
        }
        if max == 0 {
            let ranges_meet = match (exact_extent(&a, ia), exact_extent(&b, ib)) {
                (Some((al, ah)), Some((bl, bh))) => al < bh && bl < ah,
                _ => false,
            };
            prop_assert_eq!(bounded == TooHard, ranges_meet);
        }
    }
}
