//! Reshape without copy: the element mapping, NeedsCopy only where no strided view exists,
//! never NeedsCopy for contiguous sources, and NumPy's hand-checked cases.

use super::*;
use std::collections::HashMap;

/// A tiny deterministic generator (xorshift64*), so that one `u64` drives a whole shape.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

fn prime_factors(mut n: isize) -> Vec<isize> {
    let mut f = Vec::new();
    let mut p = 2;
    while n > 1 {
        while n % p == 0 {
            f.push(p);
            n /= p;
        }
        p += 1;
    }
    f
}

/// A shape of `n` items with 0..=8 axes (random factors, 1s included), from `seed`; with a
/// negative (unknown) extent in place of one extent when `unknown`.
fn target_shape(n: isize, seed: u64, unknown: bool) -> Vec<isize> {
    let mut r = Rng(seed | 1);
    let mut k = r.below(9) as usize;
    let mut s;
    if n == 0 {
        k = k.max(1);
        s = (0..k).map(|_| r.below(4) as isize).collect::<Vec<_>>();
        s[r.below(k as u64) as usize] = 0;
    } else {
        let f = prime_factors(n);
        if !f.is_empty() {
            k = k.max(1);
        }
        s = vec![1; k];
        for p in f {
            s[r.below(k as u64) as usize] *= p;
        }
    }
    if unknown && !s.is_empty() {
        // NumPy infers any negative extent, not only -1.
        s[r.below(k as u64) as usize] = [-1, -1, -2, -100, isize::MIN][r.below(5) as usize];
    }
    s
}

/// Whether some strides make the view of `shape` whose element `idx[k]` sits at `addrs[k]`.
fn strided_view_exists(shape: &[isize], idx: &[Vec<isize>], addrs: &[i128]) -> bool {
    let at: HashMap<&[isize], i128> = idx.iter().map(|i| i.as_slice()).zip(addrs.iter().copied()).collect();
    let origin = addrs[0];
    let zero = vec![0isize; shape.len()];
    let strides: Vec<i128> = (0..shape.len())
        .map(|d| {
            if shape[d] > 1 {
                let mut e = zero.clone();
                e[d] = 1;
                at[e.as_slice()] - origin
            } else {
                0
            }
        })
        .collect();
    idx.iter()
        .zip(addrs)
        .all(|(i, &a)| origin + i.iter().zip(&strides).map(|(&x, &s)| x as i128 * s).sum::<i128>() == a)
}

fn check_reshape(v: &V, itemsize: isize, target: &[isize], order: Order) {
    let n = count(&dims(v));
    let r = v.derive(|w| w.reshape(itemsize, target, order));
    let unknown = target.iter().position(|&d| d < 0);
    let known: isize = target.iter().filter(|&&d| d >= 0).product();
    if unknown.is_some() && known == 0 {
        assert_eq!(r, Err(Error::UnknownWithZero));
        return;
    }
    let mut shape = target.to_vec();
    if let Some(u) = unknown {
        shape[u] = n / known;
    }
    assert_eq!(count(&shape), n, "generator bug");
    let src_idx = order_indices(&dims(v), order);
    let addrs: Vec<i128> = src_idx.iter().map(|i| addr(v, i)).collect();
    let out_idx = order_indices(&shape, order);
    // Contiguous in `order` by the definition: item k lies k items after the data address.
    let contiguous = addrs.iter().enumerate().all(|(k, &a)| a == v.data() as i128 + k as i128 * itemsize as i128);
    match r {
        Ok(out) => {
            invariants(&out);
            assert_eq!(dims(&out), shape);
            for (k, i) in out_idx.iter().enumerate() {
                assert_eq!(addr(&out, i), addrs[k], "item {k} in {order:?} order: result{i:?} of {out:?} from {v:?}");
            }
        }
        Err(Error::NeedsCopy) => {
            assert!(n > 0, "a zero-size view must always reshape: {v:?} to {target:?}");
            assert!(!contiguous, "a view contiguous in {order:?} order must reshape: {v:?} to {target:?}");
            assert!(
                !strided_view_exists(&shape, &out_idx, &addrs),
                "{v:?} to {target:?} in {order:?} order: a strided view exists but NeedsCopy was returned"
            );
        }
        Err(e) => panic!("{v:?} to {target:?}: unexpected {e:?}"),
    }
}

fn order_strat() -> impl Strategy<Value = Order> {
    prop_oneof![Just(Order::C), Just(Order::F)]
}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn reshape_maps_items_in_order(
        (v, itemsize) in arb_view(0..=8),
        seed in any::<u64>(),
        unknown in prop::bool::weighted(0.3),
        order in order_strat(),
    ) {
        let target = target_shape(count(&dims(&v)), seed, unknown);
        check_reshape(&v, itemsize, &target, order);
    }

    /// Contiguous sources (C or F), possibly with length-1 axes given odd strides, always
    /// reshape in their own order.
    #[test]
    fn reshape_contiguous_never_copies(
        shape in arb_shape(0..=8),
        itemsize in 1..=16isize,
        odd in prop::collection::vec(-50..=50isize, 8),
        seed in any::<u64>(),
        unknown in prop::bool::weighted(0.3),
        order in order_strat(),
    ) {
        let mut v = View::contiguous(BASE, itemsize, &shape, order).unwrap();
        let mut st = strides_of(&v);
        for k in 0..shape.len() {
            if shape[k] == 1 {
                st[k] = odd[k];
            }
        }
        v = View::strided(BASE, itemsize, &shape, &st).unwrap();
        prop_assert!(v.is_contiguous(itemsize, order, false).unwrap());
        let target = target_shape(count(&shape), seed, unknown);
        let r = v.derive(|w| w.reshape(itemsize, &target, order));
        prop_assert!(r != Err(Error::NeedsCopy), "{:?} -> {:?}: {:?}", v, target, r);
        check_reshape(&v, itemsize, &target, order);
    }

    /// Random mismatched targets give SizeMismatch (or another shape error), never a view.
    #[test]
    fn reshape_wrong_size((v, itemsize) in arb_view(0..=6), target in prop::collection::vec(0..=5isize, 0..=6)) {
        let n = count(&dims(&v));
        let r = v.derive(|w| w.reshape(itemsize, &target, Order::C));
        if count(&target) != n {
            prop_assert_eq!(r, Err(Error::SizeMismatch { from: n, to: count(&target) }));
        } else {
            check_reshape(&v, itemsize, &target, Order::C);
        }
    }
}

/// `(data offset from BASE, shape, strides)` of a reshape, or its error.
fn reshaped(v: &V, target: &[isize], order: Order) -> Result<(usize, Vec<isize>, Vec<isize>)> {
    v.derive(|w| w.reshape(8, target, order)).map(|o| {
        invariants(&o);
        (o.data() - BASE, dims(&o), strides_of(&o))
    })
}

#[test]
fn reshape_numpy_non_contiguous_views() {
    use Order::{C, F};
    // a = np.zeros((4, 6)) (float64), strides (48, 8).
    let a = View::contiguous(BASE, 8, &[4, 6], C).unwrap();
    // b = a[:, ::2]: strides (48, 16). It chains (48 == 3 * 16), so every C reshape is a view.
    let b = a.derive(|w| w.slice_axis(1, NONE, NONE, 2)).unwrap();
    assert_eq!(reshaped(&b, &[2, 2, 3], C), Ok((0, vec![2, 2, 3], vec![96, 48, 16])));
    assert_eq!(reshaped(&b, &[12], C), Ok((0, vec![12], vec![16])));
    assert_eq!(reshaped(&b, &[2, 6], C), Ok((0, vec![2, 6], vec![96, 16])));
    assert_eq!(reshaped(&b, &[12], F), Err(Error::NeedsCopy));
    // c = a[:, :3]: strides (48, 8); rows cannot merge.
    let c = a.derive(|w| w.slice_axis(1, NONE, 3, NONE)).unwrap();
    assert_eq!(reshaped(&c, &[12], C), Err(Error::NeedsCopy));
    assert_eq!(reshaped(&c, &[2, 6], C), Err(Error::NeedsCopy));
    assert_eq!(reshaped(&c, &[3, 4], C), Err(Error::NeedsCopy));
    assert_eq!(reshaped(&c, &[2, 2, 3], C), Ok((0, vec![2, 2, 3], vec![96, 48, 8])));
    assert_eq!(reshaped(&c, &[-1, 3], C), Ok((0, vec![4, 3], vec![48, 8])));
    // d = a[::2]: strides (96, 8).
    let d = a.derive(|w| w.slice_axis(0, NONE, NONE, 2)).unwrap();
    assert_eq!(reshaped(&d, &[2, 2, 3], C), Ok((0, vec![2, 2, 3], vec![96, 24, 8])));
    assert_eq!(reshaped(&d, &[2, 3, 2], C), Ok((0, vec![2, 3, 2], vec![96, 16, 8])));
    assert_eq!(reshaped(&d, &[12], C), Err(Error::NeedsCopy));
    // e = a[::-1, ::-1]: strides (-48, -8), fully chained backwards.
    let e = a.derive(|w| w.flip()).unwrap();
    assert_eq!(reshaped(&e, &[24], C), Ok((184, vec![24], vec![-8])));
    assert_eq!(reshaped(&e, &[3, 8], C), Ok((184, vec![3, 8], vec![-64, -8])));
    // t = a.T: strides (8, 48), F-contiguous.
    let t = a.derive(|w| w.transpose()).unwrap();
    assert_eq!(reshaped(&t, &[24], C), Err(Error::NeedsCopy));
    assert_eq!(reshaped(&t, &[24], F), Ok((0, vec![24], vec![8])));
    assert_eq!(reshaped(&t, &[2, 3, 4], F), Ok((0, vec![2, 3, 4], vec![8, 16, 48])));
    // F-order reshapes of the C-contiguous a.
    assert_eq!(reshaped(&a, &[4, 2, 3], F), Ok((0, vec![4, 2, 3], vec![48, 8, 16])));
    assert_eq!(reshaped(&a, &[6, 4], F), Err(Error::NeedsCopy));
    assert_eq!(reshaped(&a, &[-1, 4], C), Ok((0, vec![6, 4], vec![32, 8])));
    // Broadcast rows: np.derive(|w| w.broadcast_to(np.zeros(3), (4, 3))), strides (0, 8).
    let x = View::contiguous(BASE, 8, &[3], C).unwrap().derive(|w| w.broadcast_to(&[4, 3])).unwrap();
    assert_eq!(reshaped(&x, &[2, 2, 3], C), Ok((0, vec![2, 2, 3], vec![0, 0, 8])));
    assert_eq!(reshaped(&x, &[12], C), Err(Error::NeedsCopy));
    // Length-1 axes are ignored whatever their stride.
    let y = View::strided(BASE, 8, &[2, 1, 3], &[24, 999, 8]).unwrap();
    assert_eq!(reshaped(&y, &[6], C), Ok((0, vec![6], vec![8])));
    let y = View::strided(BASE, 8, &[2, 1, 3], &[8, 999, 16]).unwrap();
    assert_eq!(reshaped(&y, &[6], F), Ok((0, vec![6], vec![8])));
    assert_eq!(reshaped(&y, &[6], C), Err(Error::NeedsCopy));
}

#[test]
fn reshape_edge_shapes_and_errors() {
    let s = View::strided(BASE, 8, &[], &[]).unwrap();
    assert_eq!(reshaped(&s, &[1, 1], Order::C).map(|r| r.1), Ok(vec![1, 1]));
    assert_eq!(reshaped(&s, &[], Order::C).map(|r| r.1), Ok(vec![]));
    assert_eq!(reshaped(&s, &[-1], Order::F).map(|r| r.1), Ok(vec![1]));
    // Zero-size sources reshape whatever their strides.
    let z = View::strided(BASE, 8, &[0, 3], &[7, -5]).unwrap();
    assert_eq!(reshaped(&z, &[3, 0], Order::C).map(|r| r.1), Ok(vec![3, 0]));
    assert_eq!(reshaped(&z, &[-1], Order::C).map(|r| r.1), Ok(vec![0]));
    assert_eq!(reshaped(&z, &[2, -1, 0], Order::C), Err(Error::UnknownWithZero));
    assert_eq!(reshaped(&z, &[2], Order::C), Err(Error::SizeMismatch { from: 0, to: 2 }));
    let a = View::contiguous(BASE, 8, &[4, 6], Order::C).unwrap();
    assert_eq!(reshaped(&a, &[5, 5], Order::C), Err(Error::SizeMismatch { from: 24, to: 25 }));
    assert_eq!(reshaped(&a, &[-1, 5], Order::C), Err(Error::SizeMismatch { from: 24, to: -1 }));
    assert_eq!(reshaped(&a, &[-1, -1], Order::C), Err(Error::MultipleUnknown));
    // NumPy takes any negative extent as the unknown one.
    assert_eq!(reshaped(&a, &[-2, -12], Order::C), Err(Error::MultipleUnknown));
    assert_eq!(reshaped(&a, &[-2, 12], Order::C), Ok((0, vec![2, 12], vec![96, 8])));
    assert_eq!(reshaped(&a, &[isize::MIN, 6], Order::C), Ok((0, vec![4, 6], vec![48, 8])));
    assert_eq!(reshaped(&a, &[1; 9], Order::C), Err(Error::TooManyDims { ndim: 9 }));
    assert_eq!(a.derive(|w| w.reshape(0, &[24], Order::C)), Err(Error::Itemsize { itemsize: 0 }));
    let big = [1 << 40, 1 << 40, 0, -1];
    assert!(matches!(a.derive(|w| w.reshape(8, &big, Order::C)), Err(Error::Overflow | Error::UnknownWithZero)));
    assert_eq!(a.derive(|w| w.reshape(8, &[1 << 40, 1 << 40], Order::C)), Err(Error::Overflow));
}

/// A valid view whose merge check multiplies past isize::MAX: the strides cannot chain, so the
/// answer is NeedsCopy (NumPy raises "cannot reshape without copy"), not Overflow.
#[test]
fn reshape_unchainable_huge_stride_is_needs_copy() {
    let v = View::strided(BASE, 1, &[2, 2], &[1, 1 << 62]).unwrap();
    assert_eq!(v.derive(|w| w.reshape(1, &[4], Order::C)), Err(Error::NeedsCopy));
}

#[test]
fn model_target_shape_self_test() {
    for seed in 0..if cfg!(miri) { 20 } else { 200u64 } {
        for n in [0isize, 1, 6, 24, 240] {
            let s = target_shape(n, seed, false);
            assert!(s.len() <= MAX_DIMS);
            assert_eq!(count(&s), n);
        }
    }
    // The strided-view oracle: (2, 3) C items of a[:, :3] of a (2, 4) array cannot be one axis.
    let idx = c_indices(&[6]);
    assert!(!strided_view_exists(&[6], &idx, &[0, 1, 2, 4, 5, 6]));
    assert!(strided_view_exists(&[6], &idx, &[0, 2, 4, 6, 8, 10]));
    assert!(strided_view_exists(&[2, 3], &c_indices(&[2, 3]), &[0, 1, 2, 4, 5, 6]));
}
