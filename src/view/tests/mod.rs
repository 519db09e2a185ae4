//! Unit and property tests of the view arithmetic.
//!
//! The main oracle is an independent brute-force model. For a derived view, every index tuple
//! of the result is mapped, by this module's own reading of NumPy's semantics, to an index
//! tuple of the source, and the two byte addresses must be equal. Addresses are computed here
//! in `i128` from the public shape, strides and data address ([`addr`]), not by the library;
//! [`View::element`] is checked against the same computation. Python's slice rule is modelled
//! by filtering every position of the axis ([`py_slice`]), not by calling `slice_indices`.
//!
//! The data address and strides of a zero-size result, and the stride of a length-1 axis,
//! address nothing (the header's "free choices") and are therefore never asserted on their own: the address
//! model only ever looks at elements that exist.
//!
//! Case counts are moderate natively and much smaller under Miri (`cfg!(miri)`), where views
//! are also capped to fewer elements.

use super::bounds::slice_indices;
use super::*;
use proptest::prelude::*;
use proptest::sample::Index as Pick;
use std::ops::RangeInclusive;

mod axes;
mod construct;
mod errors;
mod garbage;
mod indexing;
mod indirect;
mod overlap;
mod parts;
mod queries;
mod reshape;
mod shape_ops;
mod slicing;
mod view_as;

type V = View<usize>;

/// The in-place forms of the derivations, which the tests call: `v.op(args)` replaces `v` by
/// the result of `Parts::op` on its parts, and leaves it unchanged on error.
macro_rules! in_place {
    ($($op:ident($($arg:ident: $ty:ty),*);)*) => {
        impl<P: Addr> View<P> {
            $(pub fn $op(&mut self, $($arg: $ty),*) -> Result<()> {
                *self = self.parts().$op($($arg),*)?.into();
                Ok(())
            })*
        }
    };
}

in_place! {
    slice_axis(axis: isize, start: isize, stop: isize, step: isize);
    index_axis(axis: isize, index: isize, deref: impl FnMut(P) -> P);
    flip_axis(axis: isize);
    flip();
    subview(itemsize: isize, offset: isize, shape: &[isize], order: Order);
    reshape(itemsize: isize, shape: &[isize], order: Order);
    transpose();
    permute(axes: &[isize]);
    swap_axes(a: isize, b: isize);
    move_axes(source: &[isize], destination: &[isize]);
    expand_dims(axis: isize);
    squeeze_axis(axis: isize);
    broadcast_to(shape: &[isize]);
    diagonal(offset: isize, axis1: isize, axis2: isize);
    sliding_window(axis: isize, window: isize, step: isize);
    view_as(itemsize: isize, new_itemsize: isize);
}

impl<P: Addr> View<P> {
    /// A view from its parts, checked as [`Parts::new`] checks them.
    pub fn new(data: P, ndim: isize, shape: &Entries, strides: &Entries, suboffsets: &Entries) -> Result<Self> {
        Ok(Parts::new(data, ndim, shape, strides, suboffsets)?.view())
    }

    /// [`index`] in place.
    fn index(&mut self, items: impl IndexItems, deref: impl FnMut(P) -> P) -> Result<()> {
        *self = index(&self.parts(), items, deref)?;
        Ok(())
    }
}

/// The items of a basic index, as [`Parts::index_checked`] takes them.
trait IndexItems: IntoIterator<Item: core::borrow::Borrow<Item>, IntoIter: Clone> {}
impl<I: IntoIterator<Item: core::borrow::Borrow<Item>, IntoIter: Clone>> IndexItems for I {}

/// One array of a view's parts.
type Entries = [isize; MAX_DIMS];

/// `p[items]`, as the C layer derives it: [`Parts::index_usual`], then [`Parts::index_checked`]
/// when it declines.
fn index<P: Addr, const U: bool>(
    p: &Parts<'_, P, U>,
    items: impl IndexItems,
    mut deref: impl FnMut(P) -> P,
) -> Result<View<P>> {
    let (items, mut out) = (items.into_iter(), View::empty(p.view().data));
    if !p.index_usual(items.clone(), &mut deref, &mut out) {
        p.index_checked(items, deref, &mut out)?;
    }
    Ok(out)
}

/// Data address of the generated views: far from 0 so that negative strides stay positive.
const BASE: usize = 1 << 24;

/// A proptest configuration running `cases` cases natively and a small fraction under Miri.
fn config(cases: u32) -> ProptestConfig {
    config_with(cases, (cases / 128).max(3))
}

/// `native` cases natively, `miri` under Miri. Under Miri the RNG is XorShift: ChaCha makes
/// case generation about 5 times slower there.
pub(crate) fn config_with(native: u32, miri: u32) -> ProptestConfig {
    let mut c = ProptestConfig::with_cases(if cfg!(miri) { miri } else { native });
    c.failure_persistence = None;
    if cfg!(miri) {
        c.max_shrink_iters = 16;
        c.rng_algorithm = proptest::test_runner::RngAlgorithm::XorShift;
    }
    c
}

/// Most elements a generated view has (the model enumerates all of them).
fn cap() -> isize {
    if cfg!(miri) {
        16
    } else {
        240
    }
}

// ---------------------------------------------------------------------------------------------
// Running derivations
// ---------------------------------------------------------------------------------------------

/// Derivations update a view in place and leave it unchanged on error. `v.derive(|w| w.op(..))`
/// runs one such operation on a copy of `v` and returns the result (so tests can compare with
/// the source), checking the "unchanged on error" half of the contract on every failure.
trait Derive: Sized {
    fn derive(&self, op: impl FnOnce(&mut Self) -> Result<()>) -> Result<Self>;
}

impl Derive for V {
    fn derive(&self, op: impl FnOnce(&mut V) -> Result<()>) -> Result<V> {
        let mut w = *self;
        match op(&mut w) {
            Ok(()) => Ok(w),
            Err(e) => {
                assert_eq!(w, *self, "the view changed although the operation failed with {e:?}");
                Err(e)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

/// The `ndim` extents of `v`.
fn dims(v: &V) -> Vec<isize> {
    v.shape()[..v.ndim()].to_vec()
}

/// The `ndim` strides of `v`.
fn strides_of(v: &V) -> Vec<isize> {
    v.strides()[..v.ndim()].to_vec()
}

fn count(shape: &[isize]) -> isize {
    shape.iter().product()
}

/// The absolute byte address of element `idx` of the direct view `v`, computed exactly.
fn addr(v: &V, idx: &[isize]) -> i128 {
    assert_eq!(idx.len(), v.ndim(), "index {idx:?} for a view of {} dims", v.ndim());
    let mut a = v.data() as i128;
    for (k, &i) in idx.iter().enumerate() {
        assert!(0 <= i && i < v.shape()[k], "index {idx:?} outside shape {:?}", dims(v));
        assert!(v.suboffsets()[k] < 0, "addr() is for direct views");
        a += i as i128 * v.strides()[k] as i128;
    }
    a
}

/// Every index tuple of `shape`, in C order (last index fastest).
fn c_indices(shape: &[isize]) -> Vec<Vec<isize>> {
    let mut out = Vec::new();
    if shape.contains(&0) {
        return out;
    }
    let mut idx = vec![0isize; shape.len()];
    loop {
        out.push(idx.clone());
        let mut k = shape.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// Every index tuple of `shape`, in F order (first index fastest).
fn f_indices(shape: &[isize]) -> Vec<Vec<isize>> {
    let rev: Vec<isize> = shape.iter().rev().copied().collect();
    c_indices(&rev)
        .into_iter()
        .map(|mut i| {
            i.reverse();
            i
        })
        .collect()
}

fn order_indices(shape: &[isize], order: Order) -> Vec<Vec<isize>> {
    match order {
        Order::C => c_indices(shape),
        Order::F => f_indices(shape),
    }
}

/// The structural invariants every view must satisfy.
fn invariants(v: &V) {
    let n = v.ndim();
    assert!(n <= MAX_DIMS, "ndim {n}");
    for k in 0..n {
        assert!(v.shape()[k] >= 0, "negative extent in {v:?}");
        assert!(v.suboffsets()[k] >= -1, "suboffset below -1 in {v:?}");
    }
    for k in n..MAX_DIMS {
        assert_eq!(
            (v.shape()[k], v.strides()[k], v.suboffsets()[k]),
            (0, 0, -1),
            "entry {k} past ndim {n} is not cleared in {v:?}"
        );
    }
}

/// A `deref` for views that must not have indirect axes.
fn no_deref(_: usize) -> usize {
    panic!("a direct view was dereferenced")
}

/// Checks that `out` has `shape` and that element `idx` of `out` is element `map(idx)` of the
/// direct view `src`, for every `idx`.
fn check_map(out: &V, shape: &[isize], src: &V, map: impl Fn(&[isize]) -> Vec<isize>) {
    invariants(out);
    assert_eq!(dims(out), shape, "shape of {out:?}");
    for idx in c_indices(shape) {
        let s = map(&idx);
        let want = addr(src, &s);
        assert_eq!(addr(out, &idx), want, "result{idx:?} should be source{s:?}; result {out:?}, source {src:?}");
        assert_eq!(out.element(&idx, no_deref).unwrap() as i128, want);
    }
}

/// Python's `range(len)[start:stop:step]` ([`NONE`] = not given), by filtering every position
/// of the axis; `None` for step 0.
fn py_slice(len: isize, start: isize, stop: isize, step: isize) -> Option<Vec<isize>> {
    let step = if step == NONE { 1 } else { step } as i128;
    if step == 0 {
        return None;
    }
    let n = len as i128;
    let norm = |x: isize| {
        let x = x as i128;
        if x < 0 {
            x + n
        } else {
            x
        }
    };
    let mut out = Vec::new();
    if step > 0 {
        let first = if start == NONE { 0 } else { norm(start).max(0) };
        let end = if stop == NONE { n } else { norm(stop) };
        for i in 0..n {
            if i >= first && i < end && (i - first) % step == 0 {
                out.push(i as isize);
            }
        }
    } else {
        let first = if start == NONE { n - 1 } else { norm(start).min(n - 1) };
        let end = if stop == NONE { -1 } else { norm(stop) };
        for i in (0..n).rev() {
            if i <= first && i > end && (first - i) % -step == 0 {
                out.push(i as isize);
            }
        }
    }
    Some(out)
}

/// `axis` as an argument: the position `pick` chooses in `0..n`, written negatively when `neg`.
fn axis_arg(pick: &Pick, n: usize, neg: bool) -> (usize, isize) {
    let a = pick.index(n);
    (a, if neg { a as isize - n as isize } else { a as isize })
}

/// The exact absolute byte range `[lo, hi)` of a direct, non-empty view, `None` when empty or
/// when even `i128` cannot hold it.
fn exact_extent(v: &V, itemsize: isize) -> Option<(i128, i128)> {
    if v.is_empty() {
        return None;
    }
    let (mut lo, mut hi) = (v.data() as i128, v.data() as i128 + itemsize as i128);
    for k in 0..v.ndim() {
        let span = (v.shape()[k] as i128 - 1).checked_mul(v.strides()[k] as i128)?;
        if span < 0 {
            lo = lo.checked_add(span)?;
        } else {
            hi = hi.checked_add(span)?;
        }
    }
    Some((lo, hi))
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

fn arb_dim() -> impl Strategy<Value = isize> {
    prop_oneof![1 => Just(0isize), 2 => Just(1isize), 5 => 2..=4isize]
}

/// `s` with its largest extents decremented until it has at most [`cap`] elements.
fn capped(mut s: Vec<isize>) -> Vec<isize> {
    while count(&s) > cap() {
        let k = (0..s.len()).max_by_key(|&k| s[k]).unwrap();
        s[k] -= 1;
    }
    s
}

fn arb_shape(ndim: RangeInclusive<usize>) -> impl Strategy<Value = Vec<isize>> {
    prop::collection::vec(arb_dim(), ndim).prop_map(capped)
}

/// Strides for `shape`: either arbitrary (any sign, 0 included, often multiples of the
/// itemsize), or those of a contiguous C or F parent sliced with steps 1..=3, some reversed
/// (`a[::2, :, ::-1]`-like layouts, which reshape often accepts).
fn arb_strides(shape: Vec<isize>, itemsize: isize) -> impl Strategy<Value = Vec<isize>> {
    let n = shape.len();
    let random = prop::collection::vec(
        prop_oneof![
            1 => Just(0isize),
            4 => -40..=40isize,
            3 => (-5..=5isize).prop_map(move |k| k * itemsize),
        ],
        n,
    );
    let sliced = (
        any::<bool>(),
        prop::collection::vec(prop_oneof![3 => Just(1isize), 1 => 2..=3isize], n),
        prop::collection::vec(prop::bool::weighted(0.2), n),
    )
        .prop_map(move |(c_order, mult, neg)| {
            let parent: Vec<isize> = shape.iter().zip(&mult).map(|(&d, &m)| d.max(1) * m).collect();
            let mut st = vec![0isize; n];
            let mut acc = itemsize;
            let axes: Vec<usize> = if c_order { (0..n).rev().collect() } else { (0..n).collect() };
            for k in axes {
                st[k] = acc;
                acc *= parent[k];
            }
            (0..n).map(|k| st[k] * mult[k] * if neg[k] { -1 } else { 1 }).collect()
        });
    prop_oneof![random, sliced]
}

/// A direct view (built with [`View::strided`]) and its itemsize.
fn arb_view(ndim: RangeInclusive<usize>) -> impl Strategy<Value = (V, isize)> {
    (arb_shape(ndim), 1..=16isize)
        .prop_flat_map(|(shape, itemsize)| {
            (Just(shape.clone()), Just(itemsize), arb_strides(shape, itemsize), 0..64usize)
        })
        .prop_map(|(shape, itemsize, strides, off)| {
            let v = View::strided(BASE + off, itemsize, &shape, &strides).expect("a small strided view");
            (v, itemsize)
        })
}

/// Values around the edges of the fast range test (0, the usual limits, the extremes), and any.
fn arb_edge() -> impl Strategy<Value = isize> {
    let (e, s) = (MVS_USUAL_EXTENT_LIMIT, MVS_USUAL_STRIDE_LIMIT);
    let edges = [0, 1, -1, s, -s, e, -e, isize::MAX, isize::MIN];
    prop_oneof![
        prop::sample::select(edges.to_vec()),
        (prop::sample::select(edges.to_vec()), -2..=2isize).prop_map(|(e, d)| e.wrapping_add(d)),
        any::<isize>(),
    ]
}

/// A slice bound: mostly small, sometimes absent or extreme.
fn arb_bound() -> impl Strategy<Value = isize> {
    prop_oneof![
        2 => Just(NONE),
        8 => -7..=7isize,
        1 => Just(isize::MAX),
        1 => Just(isize::MIN + 1),
    ]
}

/// A non-zero slice step: mostly small, sometimes absent or extreme.
fn arb_step() -> impl Strategy<Value = isize> {
    prop_oneof![
        2 => Just(NONE),
        8 => 1..=4isize,
        8 => -4..=-1isize,
        1 => Just(isize::MAX),
        1 => Just(isize::MIN + 1),
    ]
}

// ---------------------------------------------------------------------------------------------
// Self-tests of the model (so that a wrong model cannot silently agree with a wrong library)
// ---------------------------------------------------------------------------------------------

#[test]
fn model_py_slice_hand_cases() {
    // Values from CPython: list(range(n))[start:stop:step].
    let r = |v: &[isize]| Some(v.to_vec());
    assert_eq!(py_slice(10, NONE, NONE, NONE), r(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert_eq!(py_slice(10, 2, 8, 3), r(&[2, 5]));
    assert_eq!(py_slice(10, -3, NONE, NONE), r(&[7, 8, 9]));
    assert_eq!(py_slice(10, 8, 2, -2), r(&[8, 6, 4]));
    assert_eq!(py_slice(10, -1, -11, -1), r(&[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]));
    assert_eq!(py_slice(10, -1, -10, -1), r(&[9, 8, 7, 6, 5, 4, 3, 2, 1]));
    assert_eq!(py_slice(4, 3, -5, -1), r(&[3, 2, 1, 0]));
    assert_eq!(py_slice(10, 100, -100, -3), r(&[9, 6, 3, 0]));
    assert_eq!(py_slice(10, 5, 5, 1), r(&[]));
    assert_eq!(py_slice(0, NONE, NONE, -1), r(&[]));
    assert_eq!(py_slice(3, 1, 0, 1), r(&[]));
    assert_eq!(py_slice(3, 0, 1, -1), r(&[]));
    assert_eq!(py_slice(3, 0, 3, 0), None);
}

#[test]
fn model_orders() {
    assert_eq!(c_indices(&[2, 2]), vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
    assert_eq!(f_indices(&[2, 2]), vec![vec![0, 0], vec![1, 0], vec![0, 1], vec![1, 1]]);
    assert_eq!(c_indices(&[]), vec![Vec::<isize>::new()]);
    assert!(c_indices(&[3, 0, 2]).is_empty());
    assert_eq!(c_indices(&[2, 3, 4]).len(), 24);
}
