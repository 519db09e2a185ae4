//! view_as: NumPy's `a.view(dtype)` for a dtype of another item size.
//!
//! The model maps every item of the result to the bytes it covers: item `i` of the result's
//! last axis starts `i * new_itemsize` bytes into the source's row, that is inside source item
//! `i * new_itemsize / itemsize`, at byte `i * new_itemsize % itemsize` of it. Its address must
//! be that item's address plus that byte, and the result's items must cover exactly the bytes
//! of the source's.

use super::*;

/// The result of `v.view_as(from, to)` on the fast path ([`Parts::usual`]) when the source is
/// found usual, else on the checked one; both when both apply, which must agree.
fn view_as(v: &V, from: isize, to: isize) -> Result<V> {
    let checked = v.derive(|w| w.view_as(from, to));
    if let Some(usual) = v.parts().usual() {
        assert_eq!(usual.view_as(from, to).map(WithAxis::into_view), checked, "fast path of {v:?}, {from} -> {to}");
    }
    checked
}

/// A view from explicit parts, with no extent check (so strides can be anything).
fn raw(data: usize, shape: &[isize], strides: &[isize]) -> V {
    let (mut a, mut b) = ([0; MAX_DIMS], [0; MAX_DIMS]);
    a[..shape.len()].copy_from_slice(shape);
    b[..strides.len()].copy_from_slice(strides);
    View::new(data, shape.len() as isize, &a, &b, &[-1; MAX_DIMS]).unwrap()
}

#[test]
fn view_as_hand_cases() {
    // np.zeros((2, 3), np.complex128).view(np.float64): shape (2, 6), strides (48, 8).
    let c = View::contiguous(BASE, 16, &[2, 3], Order::C).unwrap();
    let f = view_as(&c, 16, 8).unwrap();
    assert_eq!((f.data(), dims(&f), strides_of(&f)), (BASE, vec![2, 6], vec![48, 8]));
    invariants(&f);
    // ... whose [..., 0::2] and [..., 1::2] are .real and .imag: strides (48, 16), 8 bytes apart.
    let imag = f.derive(|w| w.slice_axis(1, 1, NONE, 2)).unwrap();
    assert_eq!((imag.data(), dims(&imag), strides_of(&imag)), (BASE + 8, vec![2, 3], vec![48, 16]));
    // And back: float64 pairs as complex128.
    assert_eq!(view_as(&f, 8, 16), Ok(c));
    // np.zeros((2, 4), np.int32).view(np.int64): (2, 2), strides (16, 8).
    let i = View::contiguous(BASE, 4, &[2, 4], Order::C).unwrap();
    let l = view_as(&i, 4, 8).unwrap();
    assert_eq!((dims(&l), strides_of(&l)), (vec![2, 2], vec![16, 8]));
    // ... .view('V16'): (2, 1), the last stride 16 though the extent is 1 (as NumPy's).
    let v = view_as(&i, 4, 16).unwrap();
    assert_eq!((dims(&v), strides_of(&v)), (vec![2, 1], vec![16, 16]));
    // ... .view(np.int8): (2, 16), strides (16, 1).
    let b = view_as(&i, 4, 1).unwrap();
    assert_eq!((dims(&b), strides_of(&b)), (vec![2, 16], vec![16, 1]));
    // Equal sizes: the view as it is, whatever its strides, 0-d included.
    let t = i.derive(|w| w.transpose()).unwrap();
    assert_eq!(view_as(&t, 4, 4), Ok(t));
    let s = View::strided(BASE, 8, &[], &[]).unwrap();
    assert_eq!(view_as(&s, 8, 8), Ok(s));
    // np.zeros((), np.float64).view(np.float32): ValueError.
    assert_eq!(view_as(&s, 8, 4), Err(Error::ItemsizeOf0d { itemsize: 8, new_itemsize: 4 }));
    // x = np.arange(10, dtype='<i4')[::2]: x.view('<i2') is refused, x[:, None].view('<i2')
    // has shape (5, 2) and strides (8, 2).
    let x = View::contiguous(BASE, 4, &[10], Order::C).unwrap().derive(|w| w.slice_axis(0, NONE, NONE, 2)).unwrap();
    assert_eq!(view_as(&x, 4, 2), Err(Error::LastAxisNotContiguous { axis: 0, stride: 8, itemsize: 4 }));
    let col = x.derive(|w| w.expand_dims(1)).unwrap();
    let h = view_as(&col, 4, 2).unwrap();
    assert_eq!((dims(&h), strides_of(&h)), (vec![5, 2], vec![8, 2]));
    // A length-1 last axis of any stride takes any size that divides.
    let odd = raw(BASE, &[3, 1], &[24, 7]);
    assert_eq!(view_as(&odd, 6, 2).map(|v| (dims(&v), strides_of(&v))), Ok((vec![3, 3], vec![24, 2])));
    assert_eq!(view_as(&odd, 6, 12), Err(Error::LargerItemsize { len: 1, itemsize: 6, new_itemsize: 12 }));
    // Empty views need no contiguous last axis: np.zeros((0, 6), np.int32)[:, ::2].view(np.int16)
    // has shape (0, 6) and strides (24, 2); np.zeros((2, 0), np.int32).view(np.int64), (2, 0).
    let e = raw(BASE, &[0, 3], &[24, 8]);
    assert_eq!(view_as(&e, 4, 2).map(|v| (dims(&v), strides_of(&v))), Ok((vec![0, 6], vec![24, 2])));
    assert_eq!(view_as(&e, 4, 12).map(|v| (dims(&v), strides_of(&v))), Ok((vec![0, 1], vec![24, 12])));
    let z = View::contiguous(BASE, 4, &[2, 0], Order::C).unwrap();
    assert_eq!(view_as(&z, 4, 8).map(|v| (dims(&v), strides_of(&v))), Ok((vec![2, 0], vec![z.strides()[0], 8])));
    // Sizes that do not divide.
    let six = View::contiguous(BASE, 6, &[2, 3], Order::C).unwrap();
    assert_eq!(view_as(&six, 6, 4), Err(Error::SmallerItemsize { itemsize: 6, new_itemsize: 4 }));
    assert_eq!(view_as(&six, 6, 12), Err(Error::LargerItemsize { len: 3, itemsize: 6, new_itemsize: 12 }));
    assert_eq!(view_as(&six, 6, 9).map(|v| (dims(&v), strides_of(&v))), Ok((vec![2, 2], vec![18, 9])));
    assert_eq!(view_as(&six, 6, 18).map(|v| (dims(&v), strides_of(&v))), Ok((vec![2, 1], vec![18, 18])));
    // Item sizes that are not positive, before anything else.
    assert_eq!(view_as(&s, 0, 4), Err(Error::Itemsize { itemsize: 0 }));
    assert_eq!(view_as(&x, 4, -2), Err(Error::Itemsize { itemsize: -2 }));
    assert_eq!(view_as(&x, isize::MIN, 0), Err(Error::Itemsize { itemsize: isize::MIN }));
}

#[test]
fn view_as_near_the_limits() {
    const M: isize = isize::MAX;
    // An empty view may have an extent whose new value does not fit ...
    let e = raw(BASE, &[0, 1 << 61], &[8, 8]);
    assert_eq!(view_as(&e, 8, 2), Err(Error::Overflow));
    assert_eq!(view_as(&e, 8, 4).map(|v| dims(&v)), Ok(vec![0, 1 << 62]));
    // ... or last-axis bytes that do not, though the new extent does: computed exactly.
    let e = raw(BASE, &[0, 1 << 62], &[8, 8]);
    assert_eq!(view_as(&e, 4, 8).map(|v| (dims(&v), strides_of(&v))), Ok((vec![0, 1 << 61], vec![8, 8])));
    assert_eq!(view_as(&e, 4, 32).map(|v| dims(&v)), Ok(vec![0, 1 << 59]));
    assert_eq!(view_as(&e, 6, 16).map(|v| dims(&v)), Ok(vec![0, 3 << 59]));
    assert_eq!(view_as(&e, 3, 7), Err(Error::LargerItemsize { len: 1 << 62, itemsize: 3, new_itemsize: 7 }));
    assert_eq!(view_as(&raw(BASE, &[0, M], &[8, 8]), M, 1), Err(Error::Overflow));
    assert_eq!(view_as(&raw(BASE, &[0, M], &[8, 8]), M, M).map(|v| dims(&v)), Ok(vec![0, M]));
    // A source spanning exactly PTRDIFF_MAX bytes: a smaller size would make the result span
    // more (its last item ends where the source's did), a larger one spans less.
    let full = raw(BASE, &[2, 2], &[M - 8, 8]);
    assert_eq!(view_as(&full, 8, 4), Err(Error::Overflow));
    assert_eq!(view_as(&full, 8, 8), Ok(full));
    assert_eq!(view_as(&full, 8, 16).map(|v| (dims(&v), strides_of(&v))), Ok((vec![2, 1], vec![M - 8, 16])));
    let fits = raw(BASE, &[2, 2], &[M - 12, 8]);
    assert_eq!(view_as(&fits, 8, 4).map(|v| (dims(&v), strides_of(&v))), Ok((vec![2, 4], vec![M - 12, 4])));
    // A huge item, alone on its last axis (of any stride): the span grows by the size.
    let one = raw(BASE, &[2, 1], &[M / 2, 5]);
    assert_eq!(view_as(&one, M - 1, 1), Err(Error::Overflow));
    assert_eq!(view_as(&one, M / 2 + 2, 1).map(|v| dims(&v)), Ok(vec![2, M / 2 + 2]), "span exactly PTRDIFF_MAX");
    assert_eq!(
        view_as(&one, M / 2 - 1, 2).map(|v| (dims(&v), strides_of(&v))),
        Ok((vec![2, (M / 2 - 1) / 2], vec![M / 2, 2]))
    );
    // The same item sizes on the fast path (a usual source: small extents and strides).
    let usual = View::contiguous(BASE, 8, &[2, 1], Order::C).unwrap();
    assert!(usual.parts().usual().is_some());
    assert_eq!(view_as(&usual, M, 1), Err(Error::Overflow));
    assert_eq!(view_as(&usual, 1 << 62, 1 << 30).map(|v| dims(&v)), Ok(vec![2, 1 << 32]));
    assert_eq!(view_as(&usual, 1 << 61, 1).map(|v| dims(&v)), Ok(vec![2, 1 << 61]));
}

/// A new item size for a source of `itemsize` bytes whose last extent is `len`: any in 1..=40,
/// or one that divides (smaller), or a divisor of the last axis's bytes (larger), or the same.
fn pick_new(itemsize: isize, len: isize, mode: u8, pick: &Pick) -> isize {
    let divisors = |n: isize| (1..=n.min(4096)).filter(|d| n % d == 0).collect::<Vec<isize>>();
    let choose = |c: Vec<isize>| if c.is_empty() { itemsize } else { c[pick.index(c.len())] };
    match mode {
        0 => 1 + pick.index(40) as isize,
        1 => choose(divisors(itemsize)),
        2 => choose(divisors(len * itemsize).into_iter().filter(|&d| d > itemsize).collect()),
        _ => itemsize,
    }
}

proptest! {
    #![proptest_config(config(4096))]

    #[test]
    fn view_as_matches_numpy(
        (v, from) in arb_view(0..=8),
        mode in 0..4u8,
        pick in any::<Pick>(),
        expand in any::<bool>(),
    ) {
        // Sometimes a last axis of extent 1, of any stride (`a[..., None]`).
        let v = if expand && v.ndim() < MAX_DIMS { v.derive(|w| w.expand_dims(-1)).unwrap() } else { v };
        let n = v.ndim();
        let len = if n > 0 { v.shape()[n - 1] } else { 1 };
        let to = pick_new(from, len, mode, &pick);
        let r = view_as(&v, from, to);
        if to == from {
            prop_assert_eq!(r, Ok(v));
            return Ok(());
        }
        if n == 0 {
            prop_assert_eq!(r, Err(Error::ItemsizeOf0d { itemsize: from, new_itemsize: to }));
            return Ok(());
        }
        let stride = v.strides()[n - 1];
        if len != 1 && stride != from && !v.is_empty() {
            prop_assert_eq!(r, Err(Error::LastAxisNotContiguous { axis: n - 1, stride, itemsize: from }));
            return Ok(());
        }
        if to < from && from % to != 0 {
            prop_assert_eq!(r, Err(Error::SmallerItemsize { itemsize: from, new_itemsize: to }));
            return Ok(());
        }
        if to > from && (len * from) % to != 0 {
            prop_assert_eq!(r, Err(Error::LargerItemsize { len, itemsize: from, new_itemsize: to }));
            return Ok(());
        }
        let out = r.unwrap();
        invariants(&out);
        let mut shape = dims(&v);
        shape[n - 1] = len * from / to;
        prop_assert_eq!(dims(&out), shape.clone());
        prop_assert_eq!(out.data(), v.data());
        let mut strides = strides_of(&v);
        strides[n - 1] = to;
        prop_assert_eq!(strides_of(&out), strides);
        // Every item lies where the model says, inside the source item it starts in.
        for idx in c_indices(&shape) {
            let byte = idx[n - 1] * to;
            let mut s = idx.clone();
            s[n - 1] = byte / from;
            prop_assert_eq!(addr(&out, &idx), addr(&v, &s) + (byte % from) as i128, "result{:?} of {:?}", idx, out);
        }
        // The result's items cover the source's bytes exactly.
        prop_assert_eq!(exact_extent(&out, to), exact_extent(&v, from));
    }
}
