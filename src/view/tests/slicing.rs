//! slice_axis, slice_indices, index_axis, flip_axis and flip against the model.

use super::*;

/// A 1-d view of `len` one-byte items at BASE with stride `stride`.
fn line(len: isize, stride: isize) -> V {
    View::strided(BASE, 1, &[len], &[stride]).unwrap()
}

#[test]
fn slice_hand_cases() {
    // (len, start, stop, step, positions), positions as CPython gives them.
    let cases: &[(isize, isize, isize, isize, &[isize])] = &[
        (10, NONE, NONE, NONE, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
        (10, 2, 8, 3, &[2, 5]),
        (10, -3, NONE, NONE, &[7, 8, 9]),
        (10, NONE, NONE, -1, &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
        (10, 8, 2, -2, &[8, 6, 4]),
        (10, -100, 100, 1, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
        (10, 100, -100, -1, &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
        (10, 5, 5, 1, &[]),
        (10, 7, 3, 1, &[]),
        (10, 3, 7, -1, &[]),
        // NumPy, not Cython: negative start/stop with a negative step are not clamped to 0.
        (4, 3, -5, -1, &[3, 2, 1, 0]),
        (10, -1, -11, -1, &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
        (10, -1, -10, -1, &[9, 8, 7, 6, 5, 4, 3, 2, 1]),
        (10, NONE, 0, -1, &[9, 8, 7, 6, 5, 4, 3, 2, 1]),
        (10, 0, NONE, isize::MAX, &[0]),
        (10, NONE, NONE, isize::MIN + 1, &[9]),
        (10, isize::MAX, NONE, -3, &[9, 6, 3, 0]),
        (10, isize::MIN + 1, isize::MAX, 4, &[0, 4, 8]),
        (0, NONE, NONE, NONE, &[]),
        (0, -1, NONE, -1, &[]),
        (1, -1, NONE, -1, &[0]),
    ];
    for &(len, start, stop, step, want) in cases {
        for stride in [1, 3, -2, 0] {
            let src = line(len, stride);
            let out = src.derive(|w| w.slice_axis(0, start, stop, step)).unwrap();
            check_map(&out, &[want.len() as isize], &src, |i| vec![want[i[0] as usize]]);
            let out = src.derive(|w| w.slice_axis(-1, start, stop, step)).unwrap();
            check_map(&out, &[want.len() as isize], &src, |i| vec![want[i[0] as usize]]);
        }
    }
}

#[test]
fn slice_numpy_strides() {
    // a = np.zeros((4, 6)) (float64): a[:, ::2] has strides (48, 16) and the same data;
    // a[::-1] starts at row 3 with strides (-48, 8); a[1:3, -2:] starts at 48 + 32.
    let a = View::contiguous(BASE, 8, &[4, 6], Order::C).unwrap();
    let b = a.derive(|w| w.slice_axis(1, NONE, NONE, 2)).unwrap();
    assert_eq!((b.data(), dims(&b), strides_of(&b)), (BASE, vec![4, 3], vec![48, 16]));
    let b = a.derive(|w| w.slice_axis(0, NONE, NONE, -1)).unwrap();
    assert_eq!((b.data(), dims(&b), strides_of(&b)), (BASE + 144, vec![4, 6], vec![-48, 8]));
    let b = a.derive(|w| w.slice_axis(0, 1, 3, NONE)).unwrap().derive(|w| w.slice_axis(1, -2, NONE, NONE)).unwrap();
    assert_eq!((b.data(), dims(&b), strides_of(&b)), (BASE + 80, vec![2, 2], vec![48, 8]));
    // Problem 2 of the spec: arr[:-1, :-1].
    let b = a.derive(|w| w.slice_axis(0, NONE, -1, NONE)).unwrap().derive(|w| w.slice_axis(1, NONE, -1, NONE)).unwrap();
    assert_eq!((b.data(), dims(&b), strides_of(&b)), (BASE, vec![3, 5], vec![48, 8]));
    invariants(&b);
}

#[test]
fn slice_step_zero_and_bad_axis() {
    let a = View::contiguous(BASE, 8, &[4, 6], Order::C).unwrap();
    assert_eq!(a.derive(|w| w.slice_axis(0, 0, 4, 0)), Err(Error::StepZero));
    assert_eq!(a.derive(|w| w.slice_axis(2, NONE, NONE, NONE)), Err(Error::Axis { axis: 2, ndim: 2 }));
    assert_eq!(a.derive(|w| w.slice_axis(-3, NONE, NONE, NONE)), Err(Error::Axis { axis: -3, ndim: 2 }));
    assert_eq!(slice_indices(5, NONE, NONE, 0), Err(Error::StepZero));
}

#[test]
fn index_axis_hand_cases() {
    // a = np.zeros((3, 4, 5)) (float64): a[:, -1] starts 3 * 40 bytes in, strides (160, 8).
    let a = View::contiguous(BASE, 8, &[3, 4, 5], Order::C).unwrap();
    let b = a.derive(|w| w.index_axis(1, -1, no_deref)).unwrap();
    assert_eq!((b.data(), dims(&b), strides_of(&b)), (BASE + 120, vec![3, 5], vec![160, 8]));
    invariants(&b);
    let b = a.derive(|w| w.index_axis(-3, 2, no_deref)).unwrap();
    assert_eq!((b.data(), dims(&b), strides_of(&b)), (BASE + 320, vec![4, 5], vec![40, 8]));
    assert_eq!(a.derive(|w| w.index_axis(1, 4, no_deref)), Err(Error::Index { index: 4, axis: 1, len: 4 }));
    assert_eq!(a.derive(|w| w.index_axis(1, -5, no_deref)), Err(Error::Index { index: -5, axis: 1, len: 4 }));
    assert_eq!(a.derive(|w| w.index_axis(3, 0, no_deref)), Err(Error::Axis { axis: 3, ndim: 3 }));
    let s = View::strided(BASE, 4, &[0], &[4]).unwrap();
    assert_eq!(s.derive(|w| w.index_axis(0, 0, no_deref)), Err(Error::Index { index: 0, axis: 0, len: 0 }));
    // Down to 0-d.
    let s = View::strided(BASE, 4, &[3], &[-4]).unwrap();
    let b = s.derive(|w| w.index_axis(0, 2, no_deref)).unwrap();
    assert_eq!((b.data(), b.ndim()), (BASE - 8, 0));
    invariants(&b);
}

#[test]
fn flip_hand_cases() {
    // np.derive(|w| w.flip(np.zeros((2, 3), dtype=np.int32))): data at the last element, strides negated.
    let a = View::contiguous(BASE, 4, &[2, 3], Order::C).unwrap();
    let b = a.derive(|w| w.flip()).unwrap();
    assert_eq!((b.data(), strides_of(&b)), (BASE + 20, vec![-12, -4]));
    let b = a.derive(|w| w.flip_axis(-1)).unwrap();
    assert_eq!((b.data(), strides_of(&b)), (BASE + 8, vec![12, -4]));
    assert_eq!(a.derive(|w| w.flip_axis(2)), Err(Error::Axis { axis: 2, ndim: 2 }));
    // Flipping twice is the identity on elements.
    let c = b.derive(|w| w.flip_axis(1)).unwrap();
    check_map(&c, &[2, 3], &a, |i| i.to_vec());
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn slice_axis_matches_python(
        (v, _) in arb_view(1..=8),
        pick in any::<Pick>(),
        neg in any::<bool>(),
        start in arb_bound(),
        stop in arb_bound(),
        step in arb_step(),
    ) {
        let (a, axis) = axis_arg(&pick, v.ndim(), neg);
        let pos = py_slice(v.shape()[a], start, stop, step).unwrap();
        let out = v.derive(|w| w.slice_axis(axis, start, stop, step)).unwrap();
        let mut shape = dims(&v);
        shape[a] = pos.len() as isize;
        check_map(&out, &shape, &v, |i| {
            let mut s = i.to_vec();
            s[a] = pos[i[a] as usize];
            s
        });
        prop_assert_eq!(out.suboffsets(), v.suboffsets());
    }

    #[test]
    fn slice_indices_agrees_with_enumeration(
        len in 0..=12isize,
        start in arb_bound(),
        stop in arb_bound(),
        step in arb_step(),
    ) {
        let pos = py_slice(len, start, stop, step).unwrap();
        let (first, n, st) = slice_indices(len, start, stop, step).unwrap();
        prop_assert_eq!(n, pos.len() as isize);
        prop_assert_eq!(st, if step == NONE { 1 } else { step });
        if n > 0 {
            prop_assert_eq!(first, pos[0]);
        }
    }

    #[test]
    fn index_axis_matches_model(
        (v, _) in arb_view(1..=8),
        pick in any::<Pick>(),
        neg in any::<bool>(),
        index in -6..=6isize,
    ) {
        let (a, axis) = axis_arg(&pick, v.ndim(), neg);
        let len = v.shape()[a];
        let r = v.derive(|w| w.index_axis(axis, index, no_deref));
        let i = if index < 0 { index + len } else { index };
        if !(0..len).contains(&i) {
            prop_assert_eq!(r, Err(Error::Index { index, axis: a, len }));
        } else {
            let out = r.unwrap();
            let mut shape = dims(&v);
            shape.remove(a);
            check_map(&out, &shape, &v, |o| {
                let mut s = o.to_vec();
                s.insert(a, i);
                s
            });
        }
    }

    #[test]
    fn flip_matches_model((v, _) in arb_view(0..=8), pick in any::<Pick>(), neg in any::<bool>()) {
        let shape = dims(&v);
        let out = v.derive(|w| w.flip()).unwrap();
        check_map(&out, &shape, &v, |i| i.iter().zip(&shape).map(|(&x, &n)| n - 1 - x).collect());
        if v.ndim() > 0 {
            let (a, axis) = axis_arg(&pick, v.ndim(), neg);
            let out = v.derive(|w| w.flip_axis(axis)).unwrap();
            check_map(&out, &shape, &v, |i| {
                let mut s = i.to_vec();
                s[a] = shape[a] - 1 - i[a];
                s
            });
        }
    }
}
