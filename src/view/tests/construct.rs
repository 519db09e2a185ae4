//! View::new, contiguous, strided, subview, Order::from_char.

use super::*;

fn arrays(shape: &[isize], strides: &[isize], sub: &[isize]) -> ([isize; 8], [isize; 8], [isize; 8]) {
    let (mut a, mut b, mut c) = ([0; 8], [0; 8], [-1; 8]);
    a[..shape.len()].copy_from_slice(shape);
    b[..strides.len()].copy_from_slice(strides);
    c[..sub.len()].copy_from_slice(sub);
    (a, b, c)
}

#[test]
fn new_checks_and_normalizes() {
    // Entries past ndim are ignored and cleared; negative suboffsets become -1.
    let (sh, st, so) = ([2, 3, 77, 77, 77, 77, 77, 77], [24, 8, 5, 5, 5, 5, 5, 5], [-7, 4, 9, 9, 9, 9, 9, 9]);
    let v = View::new(BASE, 2, &sh, &st, &so).unwrap();
    invariants(&v);
    assert_eq!((dims(&v), strides_of(&v), &v.suboffsets()[..2]), (vec![2, 3], vec![24, 8], &[-1, 4][..]));
    assert_eq!(View::new(BASE, -1, &sh, &st, &so), Err(Error::Ndim { ndim: -1 }));
    assert_eq!(View::new(BASE, 9, &sh, &st, &so), Err(Error::Ndim { ndim: 9 }));
    assert!(View::new(BASE, 8, &sh, &st, &so).is_ok());
    assert!(View::new(BASE, 0, &sh, &st, &so).is_ok());
    let (sh, st, so) = arrays(&[2, -3], &[8, 8], &[]);
    assert_eq!(View::new(BASE, 2, &sh, &st, &so), Err(Error::NegativeDim { axis: 1, len: -3 }));
    assert_eq!(check_ndim(isize::MIN), Err(Error::Ndim { ndim: isize::MIN }));
    assert_eq!(check_ndim(8), Ok(8));
}

#[test]
fn order_from_char() {
    assert_eq!(Order::from_char('C' as i32), Ok(Order::C));
    assert_eq!(Order::from_char('F' as i32), Ok(Order::F));
    for bad in ['c' as i32, 'f' as i32, 'A' as i32, 0, -1, 67 + 256, i32::MIN] {
        assert_eq!(Order::from_char(bad), Err(Error::Order { order: bad }));
    }
}

#[test]
fn contiguous_hand_cases() {
    // np.zeros((2, 3, 4), dtype=np.int16).strides == (24, 8, 2); order='F' gives (2, 4, 12).
    let c = View::contiguous(BASE, 2, &[2, 3, 4], Order::C).unwrap();
    assert_eq!((c.data(), dims(&c), strides_of(&c)), (BASE, vec![2, 3, 4], vec![24, 8, 2]));
    invariants(&c);
    let f = View::contiguous(BASE, 2, &[2, 3, 4], Order::F).unwrap();
    assert_eq!(strides_of(&f), vec![2, 4, 12]);
    let s = View::contiguous(BASE, 2, &[], Order::C).unwrap();
    assert_eq!(s.ndim(), 0);
    assert_eq!(View::contiguous(BASE, 0, &[2], Order::C), Err(Error::Itemsize { itemsize: 0 }));
    assert_eq!(View::contiguous(BASE, -8, &[2], Order::C), Err(Error::Itemsize { itemsize: -8 }));
    assert_eq!(View::contiguous(BASE, 8, &[2, -1], Order::C), Err(Error::NegativeDim { axis: 1, len: -1 }));
    assert_eq!(View::contiguous(BASE, 8, &[1; 9], Order::C), Err(Error::Ndim { ndim: 9 }));
    assert_eq!(View::contiguous(BASE, 8, &[1 << 31, 1 << 31], Order::C), Err(Error::Overflow));
    assert_eq!(View::contiguous(BASE, 1, &[isize::MAX], Order::C).map(|v| strides_of(&v)), Ok(vec![1]));
    assert_eq!(View::contiguous(BASE, 2, &[isize::MAX], Order::F), Err(Error::Overflow));
}

#[test]
fn strided_hand_cases() {
    let v = View::strided(BASE, 8, &[2, 3], &[-24, 0]).unwrap();
    assert_eq!((v.data(), dims(&v), strides_of(&v)), (BASE, vec![2, 3], vec![-24, 0]));
    invariants(&v);
    assert_eq!(View::strided(BASE, 8, &[2, 3], &[8]), Err(Error::Count { what: "stride count", count: 1 }));
    assert_eq!(View::strided(BASE, 0, &[2], &[8]), Err(Error::Itemsize { itemsize: 0 }));
    assert_eq!(View::strided(BASE, 8, &[-2], &[8]), Err(Error::NegativeDim { axis: 0, len: -2 }));
    assert_eq!(View::strided(BASE, 1, &[1; 9], &[1; 9]), Err(Error::Ndim { ndim: 9 }));
    // Byte extents that do not fit in isize.
    assert_eq!(View::strided(BASE, 1, &[3], &[isize::MAX / 2 + 1]), Err(Error::Overflow));
    // A single step of MIN spans 2^63 bytes: one more than isize can measure.
    assert_eq!(View::strided(BASE, 1, &[2], &[isize::MIN]), Err(Error::Overflow));
    assert_eq!(View::strided(BASE, 1, &[2], &[isize::MIN + 1]).map(|v| v.extent(1)), Ok(Ok((isize::MIN + 1, 1))));
    assert_eq!(View::strided(BASE, 2, &[2, 2], &[isize::MAX / 2, isize::MAX / 2]), Err(Error::Overflow));
    assert_eq!(View::strided(BASE, 1, &[3, 2], &[isize::MIN / 2, isize::MIN / 2]), Err(Error::Overflow));
    // A zero-size view's strides are anything.
    assert!(View::strided(BASE, 1, &[0, 5], &[isize::MAX, isize::MIN]).is_ok());
}

#[test]
fn subview_problem_one() {
    // A 14-item float64 buffer: a (2, 3) view at item 0 and a (2, 2, 2) view at item 6.
    let buf = View::contiguous(BASE, 8, &[14], Order::C).unwrap();
    let a = buf.derive(|w| w.subview(8, 0, &[2, 3], Order::C)).unwrap();
    assert_eq!((a.data(), dims(&a), strides_of(&a)), (BASE, vec![2, 3], vec![24, 8]));
    let b = buf.derive(|w| w.subview(8, 6, &[2, 2, 2], Order::C)).unwrap();
    assert_eq!((b.data(), dims(&b), strides_of(&b)), (BASE + 48, vec![2, 2, 2], vec![32, 16, 8]));
    let f = buf.derive(|w| w.subview(8, 6, &[2, 4], Order::F)).unwrap();
    assert_eq!((f.data(), strides_of(&f)), (BASE + 48, vec![8, 16]));
    assert_eq!(buf.derive(|w| w.subview(8, 6, &[8], Order::C)).map(|v| v.data()), Ok(BASE + 48));
    assert_eq!(buf.derive(|w| w.subview(8, 14, &[0], Order::C)).map(|v| dims(&v)), Ok(vec![0]));
    assert_eq!(
        buf.derive(|w| w.subview(8, 7, &[2, 2, 2], Order::C)),
        Err(Error::SubviewTooLarge { offset: 7, need: 8, have: 14 })
    );
    assert_eq!(
        buf.derive(|w| w.subview(8, 15, &[0], Order::C)),
        Err(Error::SubviewTooLarge { offset: 15, need: 0, have: 14 })
    );
    assert_eq!(buf.derive(|w| w.subview(8, -1, &[2], Order::C)), Err(Error::NegativeOffset { offset: -1 }));
    assert!(matches!(buf.derive(|w| w.subview(8, isize::MAX, &[2], Order::C)), Err(Error::SubviewTooLarge { .. })));
    assert!(matches!(buf.derive(|w| w.subview(8, 0, &[1 << 32, 1 << 32], Order::C)), Err(Error::Overflow)));
    assert!(matches!(buf.derive(|w| w.subview(8, 0, &[-1], Order::C)), Err(Error::NegativeDim { .. })));
    assert!(matches!(buf.derive(|w| w.subview(0, 0, &[1], Order::C)), Err(Error::Itemsize { .. })));
    // The source must be contiguous (either order) and direct.
    let gap = buf.derive(|w| w.slice_axis(0, NONE, NONE, 2)).unwrap();
    assert_eq!(gap.derive(|w| w.subview(8, 0, &[2], Order::C)), Err(Error::NotContiguous));
    let fsrc = View::contiguous(BASE, 8, &[2, 7], Order::F).unwrap();
    assert_eq!(fsrc.derive(|w| w.subview(8, 7, &[7], Order::C)).map(|v| v.data()), Ok(BASE + 56));
}

proptest! {
    #![proptest_config(config(768))]

    #[test]
    fn contiguous_layout_is_item_k_at_k(shape in arb_shape(0..=8), itemsize in 1..=16isize, f in any::<bool>()) {
        let order = if f { Order::F } else { Order::C };
        let v = View::contiguous(BASE, itemsize, &shape, order).unwrap();
        invariants(&v);
        prop_assert_eq!(dims(&v), shape.clone());
        for (k, i) in order_indices(&shape, order).iter().enumerate() {
            prop_assert_eq!(addr(&v, i), BASE as i128 + k as i128 * itemsize as i128);
        }
        prop_assert!(v.is_contiguous(itemsize, order, false).unwrap());
        if !shape.contains(&0) {
            prop_assert!(v.is_contiguous(itemsize, order, true).unwrap());
            prop_assert_eq!(v.may_overlap(itemsize), Ok(false));
            prop_assert_eq!(v.extent(itemsize), Ok((0, count(&shape) * itemsize)));
        }
    }

    #[test]
    fn subview_fits_or_fails(
        src_shape in arb_shape(0..=4),
        itemsize in 1..=16isize,
        f in any::<bool>(),
        offset in -2..=250isize,
        shape in prop::collection::vec(0..=6isize, 0..=4),
        g in any::<bool>(),
    ) {
        let (so, o) = (if f { Order::F } else { Order::C }, if g { Order::F } else { Order::C });
        let src = View::contiguous(BASE, itemsize, &src_shape, so).unwrap();
        let have = count(&src_shape);
        let need = count(&shape);
        let r = src.derive(|w| w.subview(itemsize, offset, &shape, o));
        if offset < 0 {
            prop_assert_eq!(r, Err(Error::NegativeOffset { offset }));
        } else if offset + need > have {
            prop_assert_eq!(r, Err(Error::SubviewTooLarge { offset, need, have }));
        } else {
            let v = r.unwrap();
            invariants(&v);
            prop_assert_eq!(dims(&v), shape.clone());
            // Item k of the result (in its order) is item offset + k of the source's memory.
            for (k, i) in order_indices(&shape, o).iter().enumerate() {
                prop_assert_eq!(addr(&v, i), BASE as i128 + (offset as i128 + k as i128) * itemsize as i128);
            }
            // ... which lies inside the source's bytes.
            if need > 0 {
                prop_assert!(v.check_bounds(itemsize, (v.data() - BASE) as i128, have * itemsize).is_ok());
            }
        }
    }
}

/// [`quick_subview`] of `v` read as stored.
fn quick(v: &V, itemsize: isize, offset: isize, shape: &[isize], order: Order) -> Option<V> {
    quick_subview(|| v.data(), v.ndim(), v.shape(), v.strides(), v.suboffsets(), itemsize, offset, shape, order)
}

/// A contiguous view (C or F) whose length-1 axes have the stride `odd` (NumPy's relaxed rule
/// ignores it) when `odd` is given.
fn arb_block() -> impl Strategy<Value = (V, isize)> {
    (arb_shape(0..=6), 1..=16isize, any::<bool>(), prop::option::of(-40..=40isize)).prop_map(
        |(shape, itemsize, f, odd)| {
            let v = View::contiguous(BASE, itemsize, &shape, if f { Order::F } else { Order::C }).unwrap();
            let strides: Vec<isize> = strides_of(&v)
                .iter()
                .zip(&shape)
                .map(|(&s, &len)| if len == 1 { odd.unwrap_or(s) } else { s })
                .collect();
            (View::strided(BASE, itemsize, &shape, &strides).unwrap(), itemsize)
        },
    )
}

proptest! {
    #![proptest_config(config(2048))]

    /// On contiguous sources, and on any view, `quick_subview` gives what the checked path
    /// gives, and declines only what the header lets it leave to that path: an empty result, or
    /// a source that is not contiguous or a subview that does not fit (which fail there).
    #[test]
    fn quick_subview_is_subview(
        (src, itemsize, block) in prop_oneof![
            arb_block().prop_map(|(v, itemsize)| (v, itemsize, true)),
            arb_view(0..=6).prop_map(|(v, itemsize)| (v, itemsize, false)),
        ],
        offset in prop_oneof![4 => 0..=64isize, 1 => arb_edge()],
        shape in prop_oneof![
            4 => prop::collection::vec(0..=6isize, 0..=6),
            1 => prop::collection::vec(arb_edge(), 0..=9),
        ],
        g in any::<bool>(),
    ) {
        let order = if g { Order::F } else { Order::C };
        let checked = src.derive(|w| w.subview(itemsize, offset, &shape, order));
        match quick(&src, itemsize, offset, &shape, order) {
            Some(v) => prop_assert_eq!(Ok(v), checked),
            None => prop_assert!(
                checked.is_err() || count(&shape) == 0,
                "declined {:?} of a {} source", checked, if block { "contiguous" } else { "strided" }
            ),
        }
    }
}

/// Arrays as a C caller may store them, from extents that may be huge or negative and
/// suboffsets that may mark an axis indirect: mostly laid out as a contiguous block in C or F
/// order (strides multiplied out with wrapping, so that they chain even past `isize`), else with
/// any strides. Each check of [`quick_subview`] is needed to decline some of them.
fn arb_stored_block() -> impl Strategy<Value = (usize, [[isize; MAX_DIMS]; 3], isize)> {
    let extent = prop_oneof![4 => 0..=5isize, 1 => -3..=-1isize, 1 => arb_edge()];
    let suboffset = prop_oneof![6 => Just(-1isize), 1 => Just(isize::MIN), 1 => 0..=16isize];
    (
        0..=MAX_DIMS,
        prop::array::uniform8(extent),
        prop::option::weighted(0.8, any::<bool>()),
        prop::array::uniform8(arb_edge()),
        prop::array::uniform8(suboffset),
        prop_oneof![3 => 1..=16isize, 1 => arb_edge()],
    )
        .prop_map(|(ndim, shape, f, mut strides, suboffsets, itemsize)| {
            if let Some(f) = f {
                let mut stride = itemsize;
                for k in 0..ndim {
                    let axis = if f { k } else { ndim - 1 - k };
                    strides[axis] = stride;
                    stride = stride.wrapping_mul(shape[axis]);
                }
            }
            (ndim, [shape, strides, suboffsets], itemsize)
        })
}

proptest! {
    #![proptest_config(config(4096))]

    /// On stored arrays, `quick_subview` declines or gives what the checked path gives.
    #[test]
    fn quick_subview_of_stored_blocks(
        (ndim, [shape, strides, suboffsets], itemsize) in arb_stored_block(),
        offset in prop_oneof![4 => 0..=64isize, 1 => arb_edge()],
        target in prop::collection::vec(prop_oneof![4 => 0..=6isize, 1 => arb_edge()], 0..=9),
        order in prop_oneof![Just(Order::C), Just(Order::F)],
    ) {
        if let Some(v) = quick_subview(|| BASE, ndim, &shape, &strides, &suboffsets, itemsize, offset, &target, order) {
            let checked = Parts::new(BASE, ndim as isize, &shape, &strides, &suboffsets)
                .and_then(|p| p.subview(itemsize, offset, &target, order));
            prop_assert_eq!(Ok(v), checked);
        }
    }
}
