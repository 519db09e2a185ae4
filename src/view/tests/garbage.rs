//! No operation panics on garbage: random isize shapes, strides, suboffsets and arguments with
//! extremes. Whatever succeeds must still be right: structural invariants, and, for direct
//! sources whose byte extent is representable, every result element lies within the source's
//! byte range, counts are exact, and queries agree with exact i128 arithmetic.

use super::*;

/// Data address of garbage views: the middle of the address space, so that any byte extent
/// representable in isize stays inside usize.
const MID: usize = 1 << 63;

fn extreme() -> impl Strategy<Value = isize> {
    prop_oneof![
        6 => -4..=4isize,
        1 => Just(isize::MAX),
        1 => Just(isize::MIN),
        1 => Just(isize::MAX - 1),
        1 => Just(isize::MIN + 1),
        1 => Just(isize::MAX / 2),
        1 => Just(isize::MAX / 2 + 1),
        1 => Just(isize::MIN / 2),
        1 => Just(1 << 32),
        1 => Just(-(1 << 32)),
        1 => Just(1 << 62),
        1 => Just(3 << 60),
        2 => any::<isize>(),
    ]
}

fn extreme_dim() -> impl Strategy<Value = isize> {
    prop_oneof![8 => 0..=4isize, 1 => extreme()]
}

fn garbage_item() -> impl Strategy<Value = Item> {
    prop_oneof![
        3 => extreme().prop_map(Item::Index),
        3 => (extreme(), extreme(), extreme()).prop_map(|(start, stop, step)| Item::Slice { start, stop, step }),
        1 => Just(Item::NewAxis),
        1 => Just(Item::Ellipsis),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    Slice(isize, isize, isize, isize),
    IndexAxis(isize, isize),
    Index(Vec<Item>),
    Reshape(Vec<isize>, bool),
    Transpose,
    Permute(Vec<isize>),
    Swap(isize, isize),
    Move(Vec<isize>, Vec<isize>),
    Broadcast(Vec<isize>),
    Expand(isize),
    SqueezeAxis(isize),
    Squeeze,
    Diagonal(isize, isize, isize),
    FlipAxis(isize),
    Flip,
    Window(isize, isize, isize),
    Sections(isize, isize, bool),
    SplitAt(isize, Vec<isize>),
    Subview(isize, Vec<isize>, bool),
    Queries(i128, isize, Vec<isize>),
    ViewAs(isize),
}

fn small_axis() -> impl Strategy<Value = isize> {
    prop_oneof![4 => -9..=9isize, 1 => extreme()]
}

fn vec9(s: impl Strategy<Value = isize>) -> impl Strategy<Value = Vec<isize>> {
    prop::collection::vec(s, 0..=9)
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (small_axis(), extreme(), extreme(), extreme()).prop_map(|(a, b, c, d)| Op::Slice(a, b, c, d)),
        (small_axis(), extreme()).prop_map(|(a, i)| Op::IndexAxis(a, i)),
        prop::collection::vec(garbage_item(), 0..=10).prop_map(Op::Index),
        (vec9(extreme_dim()), any::<bool>()).prop_map(|(s, f)| Op::Reshape(s, f)),
        Just(Op::Transpose),
        vec9(small_axis()).prop_map(Op::Permute),
        (small_axis(), small_axis()).prop_map(|(a, b)| Op::Swap(a, b)),
        (vec9(small_axis()), vec9(small_axis())).prop_map(|(a, b)| Op::Move(a, b)),
        vec9(extreme_dim()).prop_map(Op::Broadcast),
        small_axis().prop_map(Op::Expand),
        small_axis().prop_map(Op::SqueezeAxis),
        Just(Op::Squeeze),
        (extreme(), small_axis(), small_axis()).prop_map(|(o, a, b)| Op::Diagonal(o, a, b)),
        small_axis().prop_map(Op::FlipAxis),
        Just(Op::Flip),
        (small_axis(), extreme_dim(), extreme()).prop_map(|(a, w, s)| Op::Window(a, w, s)),
        (small_axis(), extreme(), any::<bool>()).prop_map(|(a, s, u)| Op::Sections(a, s, u)),
        (small_axis(), prop::collection::vec(extreme(), 0..=4)).prop_map(|(a, i)| Op::SplitAt(a, i)),
        (extreme(), vec9(extreme_dim()), any::<bool>()).prop_map(|(o, s, f)| Op::Subview(o, s, f)),
        (any::<i64>(), extreme(), vec9(extreme())).prop_map(|(o, n, i)| Op::Queries(o as i128, n, i)),
        prop_oneof![4 => 1..=32isize, 1 => extreme()].prop_map(Op::ViewAs),
    ]
}

/// Garbage view parts: ndim (sometimes out of range), extents, strides, suboffsets.
type Parts = (isize, [isize; MAX_DIMS], [isize; MAX_DIMS], [isize; MAX_DIMS], isize, bool);

fn arb_parts() -> impl Strategy<Value = Parts> {
    (
        prop_oneof![9 => 0..=8isize, 1 => extreme()],
        prop::array::uniform8(extreme_dim()),
        prop::array::uniform8(extreme()),
        prop::array::uniform8(prop_oneof![6 => Just(-1isize), 1 => extreme()]),
        prop_oneof![6 => 1..=16isize, 1 => extreme()],
        any::<bool>(),
    )
}

/// The exact absolute range of item start addresses of a direct, non-empty view.
fn starts(v: &V) -> Option<(i128, i128)> {
    exact_extent(v, 1).map(|(lo, hi)| (lo, hi - 1))
}

fn direct(v: &V) -> bool {
    v.suboffsets()[..v.ndim()].iter().all(|&s| s < 0)
}

/// For a direct source whose byte extent is representable: every element of `out` lies
/// within the source's range of element addresses.
fn contained(src: &V, out: &V) {
    invariants(out);
    if !direct(src) || out.is_empty() {
        return;
    }
    let Some((lo, hi)) = starts(src) else { return };
    let d = src.data() as i128;
    if lo - d < isize::MIN as i128 || hi - d > isize::MAX as i128 {
        return; // such a view cannot exist in memory; only the invariants matter
    }
    assert!(direct(out), "a direct source gave an indirect result {out:?}");
    let (olo, ohi) = starts(out).expect("result addresses fit in i128");
    assert!(lo <= olo && ohi <= hi, "result {out:?} reaches [{olo}, {ohi}] outside source [{lo}, {hi}] of {src:?}");
}

fn exact_count(v: &V) -> i128 {
    v.shape()[..v.ndim()].iter().fold(1i128, |a, &n| a.saturating_mul(n as i128))
}

fn run(src: &V, itemsize: isize, op: &Op) {
    let deref = |p: usize| p.rotate_left(17) ^ 0x5a5a;
    let check = |r: Result<V>| {
        if let Ok(out) = r {
            contained(src, &out);
        }
    };
    match op {
        Op::Slice(a, b, c, d) => check(src.derive(|w| w.slice_axis(*a, *b, *c, *d))),
        Op::IndexAxis(a, i) => check(src.derive(|w| w.index_axis(*a, *i, deref))),
        Op::Index(items) => check(src.derive(|w| w.index(items, deref))),
        Op::Reshape(s, f) => {
            let r = src.derive(|w| w.reshape(itemsize, s, if *f { Order::F } else { Order::C }));
            if let Ok(out) = &r {
                assert_eq!(exact_count(out), exact_count(src), "reshape changed the item count: {out:?}");
            }
            check(r)
        }
        Op::Transpose => check(src.derive(|w| w.transpose())),
        Op::Permute(p) => check(src.derive(|w| w.permute(p))),
        Op::Swap(a, b) => check(src.derive(|w| w.swap_axes(*a, *b))),
        Op::Move(a, b) => check(src.derive(|w| w.move_axes(a, b))),
        Op::Broadcast(s) => {
            let r = src.derive(|w| w.broadcast_to(s));
            if let Ok(out) = &r {
                assert_eq!(dims(out), *s);
            }
            check(r)
        }
        Op::Expand(a) => check(src.derive(|w| w.expand_dims(*a))),
        Op::SqueezeAxis(a) => check(src.derive(|w| w.squeeze_axis(*a))),
        Op::Squeeze => check(src.derive(|w| w.squeeze())),
        Op::Diagonal(o, a, b) => check(src.derive(|w| w.diagonal(*o, *a, *b))),
        Op::FlipAxis(a) => check(src.derive(|w| w.flip_axis(*a))),
        Op::Flip => check(src.derive(|w| w.flip())),
        Op::Window(a, win, s) => check(src.derive(|w| w.sliding_window(*a, *win, *s))),
        Op::Sections(a, s, u) => {
            if let Ok(it) = src.split_sections(*a, *s, *u) {
                assert_eq!(it.len() as isize, *s);
                for r in it.take(5) {
                    check(r);
                }
            }
        }
        Op::SplitAt(a, idx) => {
            if let Ok(it) = src.split_at(*a, idx) {
                assert_eq!(it.len(), idx.len() + 1);
                for r in it {
                    check(r);
                }
            }
        }
        Op::Subview(o, s, f) => check(src.derive(|w| w.subview(itemsize, *o, s, if *f { Order::F } else { Order::C }))),
        Op::Queries(offset, nbytes, idx) => queries(src, itemsize, *offset, *nbytes, idx, deref),
        Op::ViewAs(to) => {
            // Items of another size cover exactly the source's bytes.
            if let Ok(out) = src.derive(|w| w.view_as(itemsize, *to)) {
                invariants(&out);
                assert!(direct(&out), "{out:?}");
                assert_eq!(
                    exact_extent(&out, *to),
                    exact_extent(src, itemsize),
                    "{src:?} as items of {to} bytes: {out:?}"
                );
                assert!(src.parts().view_as(itemsize, *to).is_ok());
            }
        }
    }
}

fn queries(v: &V, itemsize: isize, offset: i128, nbytes: isize, idx: &[isize], deref: impl Fn(usize) -> usize + Copy) {
    let n = v.ndim();
    if let Ok(c) = v.item_count() {
        assert_eq!(c as i128, exact_count(v));
    }
    if let Ok(b) = v.byte_count(itemsize) {
        assert_eq!(b as i128, exact_count(v) * itemsize as i128);
    }
    for order in [Order::C, Order::F] {
        for strict in [false, true] {
            if v.is_contiguous(itemsize, order, strict) == Ok(true) && !v.is_empty() {
                // Every axis that matters has exactly the stride of the inner extents.
                let axes: Vec<usize> = match order {
                    Order::C => (0..n).rev().collect(),
                    Order::F => (0..n).collect(),
                };
                let mut want = itemsize as i128;
                for a in axes {
                    if strict || v.shape()[a] != 1 {
                        assert_eq!(v.strides()[a] as i128, want, "{v:?} claimed contiguous");
                    }
                    want = want.saturating_mul(v.shape()[a] as i128);
                }
            }
        }
    }
    if let Ok((lo, hi)) = v.extent(itemsize) {
        match exact_extent(v, itemsize) {
            Some((l, h)) => assert_eq!((lo as i128, hi as i128), (l - v.data() as i128, h - v.data() as i128)),
            None => assert!(v.is_empty() && (lo, hi) == (0, 0)),
        }
    }
    if let Ok(()) = v.check_bounds(itemsize, offset, nbytes) {
        if let Some((l, h)) = exact_extent(v, itemsize) {
            let base = v.data() as i128 - offset;
            assert!(
                l >= base && h <= base + nbytes as i128,
                "check_bounds passed {v:?} offset {offset} nbytes {nbytes}"
            );
        }
    }
    if v.may_overlap(itemsize) == Ok(false) && !v.is_empty() {
        // The rule's premise, checked exactly: sorted by |stride|, each reaches past the rest.
        let mut axes: Vec<usize> = (0..n).filter(|&a| v.shape()[a] > 1).collect();
        axes.sort_by_key(|&a| v.strides()[a].unsigned_abs());
        let mut span = 0i128;
        for a in axes {
            let s = (v.strides()[a] as i128).abs();
            assert!(s >= span + itemsize as i128, "may_overlap false for {v:?}");
            span += (v.shape()[a] as i128 - 1) * s;
        }
    }
    if let Ok(p) = v.element(idx, deref) {
        if direct(v) {
            let mut want = v.data() as i128;
            for (k, &x) in idx.iter().enumerate().take(n) {
                let len = v.shape()[k] as i128;
                let i = if x < 0 { x as i128 + len } else { x as i128 };
                assert!((0..len).contains(&i));
                want += i * v.strides()[k] as i128;
            }
            assert_eq!(p as u64, want as u64, "element {idx:?} of {v:?}");
        }
    }
}

proptest! {
    #![proptest_config(config_with(16384, 12))]

    #[test]
    fn no_op_panics_on_garbage(parts in arb_parts(), ops in prop::collection::vec(arb_op(), 1..=4)) {
        let (ndim, shape, strides, sub, itemsize, strided) = parts;
        let v = if strided && (0..=8).contains(&ndim) {
            let n = ndim as usize;
            match View::strided(MID, itemsize, &shape[..n], &strides[..n]) {
                Ok(v) => v,
                Err(e) => {
                    prop_assert!(matches!(e, Error::Itemsize { .. } | Error::NegativeDim { .. } | Error::Overflow), "{:?}", e);
                    return Ok(());
                }
            }
        } else {
            match View::new(MID, ndim, &shape, &strides, &sub) {
                Ok(v) => v,
                Err(e) => {
                    prop_assert!(matches!(e, Error::Ndim { .. } | Error::NegativeDim { .. } | Error::Overflow), "{:?}", e);
                    return Ok(());
                }
            }
        };
        invariants(&v);
        for op in &ops {
            run(&v, itemsize, op);
        }
        // Chains: apply the first op that yields a view, then the rest to it.
        let mut cur = v;
        for op in &ops {
            let next = match op {
                Op::Slice(a, b, c, d) => cur.derive(|w| w.slice_axis(*a, *b, *c, *d)),
                Op::Index(items) => cur.derive(|w| w.index(items, |p: usize| p.rotate_left(17) ^ 0x5a5a)),
                Op::Permute(p) => cur.derive(|w| w.permute(p)),
                Op::Broadcast(s) => cur.derive(|w| w.broadcast_to(s)),
                Op::Diagonal(o, a, b) => cur.derive(|w| w.diagonal(*o, *a, *b)),
                Op::Flip => cur.derive(|w| w.flip()),
                Op::Window(a, win, s) => cur.derive(|w| w.sliding_window(*a, *win, *s)),
                Op::Reshape(s, f) => cur.derive(|w| w.reshape(itemsize, s, if *f { Order::F } else { Order::C })),
                _ => continue,
            };
            if let Ok(n) = next {
                invariants(&n);
                run(&n, itemsize, &Op::Queries(0, isize::MAX, vec![0; n.ndim()]));
                cur = n;
            }
        }
    }
}
