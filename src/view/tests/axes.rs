//! transpose, permute, swap_axes, move_axes, expand_dims, squeeze_axis, squeeze.

use super::*;

/// A random permutation of `0..n`.
fn arb_perm(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

/// `axes` as arguments, each written negatively when its flag says so.
fn as_args(axes: &[usize], neg: &[bool], n: usize) -> Vec<isize> {
    axes.iter()
        .zip(neg.iter().chain(std::iter::repeat(&false)))
        .map(|(&a, &g)| if g { a as isize - n as isize } else { a as isize })
        .collect()
}

/// NumPy's own `moveaxis` construction: the other axes in order, then each source inserted at
/// its destination, by increasing destination.
fn numpy_moveaxis_order(n: usize, source: &[usize], destination: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).filter(|a| !source.contains(a)).collect();
    let mut pairs: Vec<(usize, usize)> = destination.iter().copied().zip(source.iter().copied()).collect();
    pairs.sort();
    for (d, s) in pairs {
        order.insert(d, s);
    }
    order
}

#[test]
fn axes_hand_cases() {
    // x = np.zeros((3, 4, 5)); shapes from NumPy's moveaxis documentation.
    let x = View::contiguous(BASE, 8, &[3, 4, 5], Order::C).unwrap();
    assert_eq!(dims(&x.derive(|w| w.move_axes(&[0], &[-1])).unwrap()), vec![4, 5, 3]);
    assert_eq!(dims(&x.derive(|w| w.move_axes(&[-1], &[0])).unwrap()), vec![5, 3, 4]);
    assert_eq!(dims(&x.derive(|w| w.move_axes(&[0, 1], &[-1, -2])).unwrap()), vec![5, 4, 3]);
    assert_eq!(dims(&x.derive(|w| w.move_axes(&[0, 1, 2], &[-1, -2, -3])).unwrap()), vec![5, 4, 3]);
    assert_eq!(x.derive(|w| w.move_axes(&[], &[])).unwrap(), x);
    // x.T, np.derive(|w| w.transpose(x, (1, 0, 2))), np.swapaxes(x, 0, 2)
    let t = x.derive(|w| w.transpose()).unwrap();
    assert_eq!((dims(&t), strides_of(&t), t.data()), (vec![5, 4, 3], vec![8, 40, 160], BASE));
    let t = x.derive(|w| w.permute(&[1, 0, -1])).unwrap();
    assert_eq!((dims(&t), strides_of(&t)), (vec![4, 3, 5], vec![40, 160, 8]));
    let t = x.derive(|w| w.swap_axes(0, -1)).unwrap();
    assert_eq!((dims(&t), strides_of(&t)), (vec![5, 4, 3], vec![8, 40, 160]));
    // np.derive(|w| w.expand_dims(x, 1)), np.derive(|w| w.expand_dims(x, -1))
    assert_eq!(dims(&x.derive(|w| w.expand_dims(1)).unwrap()), vec![3, 1, 4, 5]);
    assert_eq!(dims(&x.derive(|w| w.expand_dims(-1)).unwrap()), vec![3, 4, 5, 1]);
    assert_eq!(dims(&x.derive(|w| w.expand_dims(-4)).unwrap()), vec![1, 3, 4, 5]);
    assert_eq!(x.derive(|w| w.expand_dims(4)), Err(Error::Axis { axis: 4, ndim: 4 }));
    assert_eq!(x.derive(|w| w.expand_dims(-5)), Err(Error::Axis { axis: -5, ndim: 4 }));
    // np.squeeze
    let y = View::strided(BASE, 8, &[1, 3, 1, 2], &[7, 16, 9, 8]).unwrap();
    let s = y.derive(|w| w.squeeze()).unwrap();
    assert_eq!((dims(&s), strides_of(&s)), (vec![3, 2], vec![16, 8]));
    invariants(&s);
    let s = y.derive(|w| w.squeeze_axis(-2)).unwrap();
    assert_eq!((dims(&s), strides_of(&s)), (vec![1, 3, 2], vec![7, 16, 8]));
    assert_eq!(y.derive(|w| w.squeeze_axis(1)), Err(Error::NotSqueezable { axis: 1, len: 3 }));
    // Errors of permutations.
    assert_eq!(x.derive(|w| w.permute(&[0, 0, 1])), Err(Error::RepeatedAxis { axis: 0 }));
    assert_eq!(x.derive(|w| w.permute(&[0, -3, 1])), Err(Error::RepeatedAxis { axis: 0 }));
    assert_eq!(x.derive(|w| w.permute(&[0, 1])), Err(Error::Count { what: "axis count", count: 2 }));
    assert_eq!(x.derive(|w| w.permute(&[0, 1, 3])), Err(Error::Axis { axis: 3, ndim: 3 }));
    assert_eq!(x.derive(|w| w.swap_axes(0, 3)), Err(Error::Axis { axis: 3, ndim: 3 }));
    assert!(matches!(x.derive(|w| w.move_axes(&[0, 0], &[1, 2])), Err(Error::RepeatedAxis { .. })));
    assert!(matches!(x.derive(|w| w.move_axes(&[0, 1], &[2, -1])), Err(Error::RepeatedAxis { .. })));
    assert!(matches!(x.derive(|w| w.move_axes(&[0], &[1, 2])), Err(Error::Count { .. })));
    assert!(matches!(x.derive(|w| w.move_axes(&[0], &[3])), Err(Error::Axis { axis: 3, ndim: 3 })));
    // 0-d views.
    let z = View::strided(BASE, 8, &[], &[]).unwrap();
    assert_eq!(z.derive(|w| w.transpose()), Ok(z));
    assert_eq!(z.derive(|w| w.squeeze()), Ok(z));
    assert_eq!(dims(&z.derive(|w| w.expand_dims(0)).unwrap()), vec![1]);
    assert_eq!(z.derive(|w| w.swap_axes(0, 0)), Err(Error::Axis { axis: 0, ndim: 0 }));
    // NumPy: np.squeeze(np.array(5.0), axis=0) (or -1) is the scalar itself; axis 1 is an error.
    assert_eq!(z.derive(|w| w.squeeze_axis(0)), Ok(z));
    assert_eq!(z.derive(|w| w.squeeze_axis(-1)), Ok(z));
    assert_eq!(z.derive(|w| w.squeeze_axis(1)), Err(Error::Axis { axis: 1, ndim: 0 }));
}

proptest! {
    #![proptest_config(config(768))]

    #[test]
    fn transpose_reverses((v, _) in arb_view(0..=8)) {
        let n = v.ndim();
        let shape: Vec<isize> = dims(&v).into_iter().rev().collect();
        let out = v.derive(|w| w.transpose()).unwrap();
        check_map(&out, &shape, &v, |i| i.iter().rev().copied().collect());
        // transpose twice is the source itself.
        prop_assert_eq!(out.derive(|w| w.transpose()).unwrap(), v);
        prop_assert_eq!(out.ndim(), n);
    }

    #[test]
    fn permute_matches_model(
        ((v, _), perm) in arb_view(0..=8).prop_flat_map(|(v, i)| (Just((v, i)), arb_perm(v.ndim()))),
        neg in prop::collection::vec(any::<bool>(), 8),
    ) {
        let n = v.ndim();
        let src = dims(&v);
        let shape: Vec<isize> = perm.iter().map(|&a| src[a]).collect();
        let out = v.derive(|w| w.permute(&as_args(&perm, &neg, n))).unwrap();
        // result[i] is source[perm^-1]: source axis perm[k] takes result index k.
        check_map(&out, &shape, &v, |i| {
            let mut s = vec![0; n];
            for (k, &a) in perm.iter().enumerate() {
                s[a] = i[k];
            }
            s
        });
    }

    #[test]
    fn swap_axes_matches_model((v, _) in arb_view(1..=8), p in any::<Pick>(), q in any::<Pick>(), ng in any::<(bool, bool)>()) {
        let n = v.ndim();
        let (a, aa) = axis_arg(&p, n, ng.0);
        let (b, ba) = axis_arg(&q, n, ng.1);
        let mut shape = dims(&v);
        shape.swap(a, b);
        let out = v.derive(|w| w.swap_axes(aa, ba)).unwrap();
        check_map(&out, &shape, &v, |i| {
            let mut s = i.to_vec();
            s.swap(a, b);
            s
        });
    }

    #[test]
    fn move_axes_matches_numpy(
        ((v, _), src, dst, k) in arb_view(0..=8).prop_flat_map(|(v, i)| {
            let n = v.ndim();
            (Just((v, i)), arb_perm(n), arb_perm(n), 0..=n)
        }),
        neg in prop::collection::vec(any::<bool>(), 8),
        neg2 in prop::collection::vec(any::<bool>(), 8),
    ) {
        let n = v.ndim();
        let (source, destination) = (&src[..k], &dst[..k]);
        let order = numpy_moveaxis_order(n, source, destination);
        let sh = dims(&v);
        let shape: Vec<isize> = order.iter().map(|&a| sh[a]).collect();
        let out = v.derive(|w| w.move_axes(&as_args(source, &neg, n), &as_args(destination, &neg2, n))).unwrap();
        check_map(&out, &shape, &v, |i| {
            let mut s = vec![0; n];
            for (k, &a) in order.iter().enumerate() {
                s[a] = i[k];
            }
            s
        });
    }

    #[test]
    fn expand_dims_matches_model((v, _) in arb_view(0..=8), p in any::<Pick>(), neg in any::<bool>()) {
        let n = v.ndim();
        let (a, arg) = axis_arg(&p, n + 1, neg);
        let r = v.derive(|w| w.expand_dims(arg));
        if n == MAX_DIMS {
            prop_assert_eq!(r, Err(Error::TooManyDims { ndim: 9 }));
        } else {
            let mut shape = dims(&v);
            shape.insert(a, 1);
            check_map(&r.unwrap(), &shape, &v, |i| {
                let mut s = i.to_vec();
                s.remove(a);
                s
            });
        }
    }

    #[test]
    fn squeeze_matches_model((v, _) in arb_view(0..=8), p in any::<Pick>(), neg in any::<bool>()) {
        let sh = dims(&v);
        let keep: Vec<usize> = (0..sh.len()).filter(|&a| sh[a] != 1).collect();
        let shape: Vec<isize> = keep.iter().map(|&a| sh[a]).collect();
        let out = v.derive(|w| w.squeeze()).unwrap();
        check_map(&out, &shape, &v, |i| {
            let mut s = vec![0; sh.len()];
            for (k, &a) in keep.iter().enumerate() {
                s[a] = i[k];
            }
            s
        });
        if !sh.is_empty() {
            let (a, arg) = axis_arg(&p, sh.len(), neg);
            let r = v.derive(|w| w.squeeze_axis(arg));
            if sh[a] != 1 {
                prop_assert_eq!(r, Err(Error::NotSqueezable { axis: a, len: sh[a] }));
            } else {
                let mut shape = sh.clone();
                shape.remove(a);
                check_map(&r.unwrap(), &shape, &v, |i| {
                    let mut s = i.to_vec();
                    s.insert(a, 0);
                    s
                });
            }
        }
    }
}
