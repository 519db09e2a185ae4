//! Indirect (PEP 3118 suboffset >= 0) axes: element access, indexing and slicing follow the
//! pointers; every other operation refuses with Error::Indirect.

use super::indexing::{arb_item, model_index};
use super::*;
use std::collections::HashMap;

/// The pointer table of the fake memory: entry i (8 bytes each) points at row i.
const PTRS: usize = 0x1_0000;

fn row(i: usize) -> usize {
    0x100_0000 * (i + 1) + 0x40 * i
}

/// Fake memory: the pointer table of `rows` rows.
fn memory(rows: usize) -> HashMap<usize, usize> {
    (0..rows).map(|i| (PTRS + 8 * i, row(i))).collect()
}

/// A deref reading the fake memory; panics on addresses holding no pointer.
fn reader(mem: &HashMap<usize, usize>) -> impl FnMut(usize) -> usize + '_ {
    move |p| *mem.get(&p).unwrap_or_else(|| panic!("dereferenced {p:#x}, which holds no pointer"))
}

/// A (rows, 4) view of 4-byte items whose axis 0 is indirect with suboffset `sub`.
fn rows_view(rows: isize, sub: isize) -> V {
    let mut sh = [0; MAX_DIMS];
    let mut st = [0; MAX_DIMS];
    let mut so = [-1; MAX_DIMS];
    sh[..2].copy_from_slice(&[rows, 4]);
    st[..2].copy_from_slice(&[8, 4]);
    so[0] = sub;
    View::new(PTRS, 2, &sh, &st, &so).unwrap()
}

/// A view from explicit shape, strides and suboffsets.
fn build(data: usize, shape: &[isize], strides: &[isize], sub: &[isize]) -> V {
    let (mut a, mut b, mut c) = ([0; MAX_DIMS], [0; MAX_DIMS], [-1; MAX_DIMS]);
    a[..shape.len()].copy_from_slice(shape);
    b[..strides.len()].copy_from_slice(strides);
    c[..sub.len()].copy_from_slice(sub);
    View::new(data, shape.len() as isize, &a, &b, &c).unwrap()
}

/// Element addresses of `out` equal those of `src` at `map(idx)`, following pointers.
fn check_indirect_map(
    out: &V,
    shape: &[isize],
    src: &V,
    deref: &mut impl FnMut(usize) -> usize,
    map: impl Fn(&[isize]) -> Vec<isize>,
) {
    invariants(out);
    assert_eq!(dims(out), shape);
    for idx in c_indices(shape) {
        let want = src.element(&map(&idx), &mut *deref).unwrap();
        assert_eq!(out.element(&idx, &mut *deref), Ok(want), "result{idx:?} of {out:?}");
    }
}

#[test]
fn element_follows_pointers() {
    let mem = memory(3);
    let mut deref = reader(&mem);
    for sub in [0, 16] {
        let v = rows_view(3, sub);
        for i in 0..3 {
            for j in 0..4 {
                let want = row(i as usize) + sub as usize + 4 * j as usize;
                assert_eq!(v.element(&[i, j], &mut deref), Ok(want));
                assert_eq!(v.element(&[i - 3, j - 4], &mut deref), Ok(want));
            }
        }
    }
    // Two indirect levels: a table of tables.
    let mut mem2: HashMap<usize, usize> = HashMap::new();
    let outer = 0x2_0000;
    for i in 0..2 {
        let inner = 0x3_0000 + 0x100 * i;
        mem2.insert(outer + 8 * i, inner);
        for j in 0..3 {
            mem2.insert(inner + 8 + 8 * j, 0x1000_0000 * (i + 1) + 0x100 * j);
        }
    }
    // axis 0: outer table, suboffset 8 (skip a header word); axis 1: inner, suboffset 2.
    let v = build(outer, &[2, 3, 5], &[8, 8, 1], &[8, 2, -1]);
    let mut d2 = reader(&mem2);
    for i in 0..2usize {
        for j in 0..3usize {
            for k in 0..5usize {
                let want = 0x1000_0000 * (i + 1) + 0x100 * j + 2 + k;
                assert_eq!(v.element(&[i as isize, j as isize, k as isize], &mut d2), Ok(want));
            }
        }
    }
    let r = v.derive(|w| w.index(&[Item::Index(1), Item::Index(-1)], &mut d2)).unwrap();
    assert_eq!(
        (r.data(), dims(&r), strides_of(&r), r.suboffsets()[0]),
        (0x2000_0000 + 0x200 + 2, vec![5], vec![1], -1)
    );
    assert_eq!(v.derive(|w| w.index_axis(1, 0, &mut d2)), Err(Error::Indirect { axis: 1 }));
    let s = v.derive(|w| w.index_axis(0, 1, &mut d2)).unwrap();
    check_indirect_map(&s, &[3, 5], &v, &mut d2, |i| vec![1, i[0], i[1]]);
}

#[test]
fn index_axis_zero_dereferences() {
    let mem = memory(3);
    let mut deref = reader(&mem);
    let v = rows_view(3, 16);
    for i in -3..3isize {
        let r = v.derive(|w| w.index_axis(0, i, &mut deref)).unwrap();
        invariants(&r);
        let ii = i.rem_euclid(3) as usize;
        assert_eq!((r.data(), dims(&r), strides_of(&r), r.suboffsets()[0]), (row(ii) + 16, vec![4], vec![4], -1));
        // The same through basic indexing.
        assert_eq!(v.derive(|w| w.index(&[Item::Index(i)], &mut deref)), Ok(r));
    }
    assert_eq!(v.derive(|w| w.index_axis(0, 3, &mut deref)), Err(Error::Index { index: 3, axis: 0, len: 3 }));
}

#[test]
fn slicing_a_later_axis_moves_the_suboffset() {
    let mem = memory(3);
    let mut deref = reader(&mem);
    let v = rows_view(3, 16);
    // v[:, 1::2]: the pointer table is untouched; the offset inside each row grows by 4.
    let s = v.derive(|w| w.slice_axis(1, 1, NONE, 2)).unwrap();
    assert_eq!((s.data(), s.suboffsets()[0], dims(&s), strides_of(&s)[1]), (PTRS, 20, vec![3, 2], 8));
    check_indirect_map(&s, &[3, 2], &v, &mut deref, |i| vec![i[0], 1 + 2 * i[1]]);
    // v[:, ::-1]: starts at the last item of each row.
    let s = v.derive(|w| w.slice_axis(-1, NONE, NONE, -1)).unwrap();
    assert_eq!((s.data(), s.suboffsets()[0]), (PTRS, 28));
    check_indirect_map(&s, &[3, 4], &v, &mut deref, |i| vec![i[0], 3 - i[1]]);
    // v[:, 2]: the axis is dropped, the offset goes to the suboffset.
    let s = v.derive(|w| w.index_axis(1, 2, &mut deref)).unwrap();
    assert_eq!((s.data(), s.suboffsets()[0], dims(&s)), (PTRS, 24, vec![3]));
    check_indirect_map(&s, &[3], &v, &mut deref, |i| vec![i[0], 2]);
    // v[1:, :]: slicing the indirect axis itself moves the data address along the table.
    let s = v.derive(|w| w.slice_axis(0, 1, NONE, NONE)).unwrap();
    assert_eq!((s.data(), s.suboffsets()[0]), (PTRS + 8, 16));
    check_indirect_map(&s, &[2, 4], &v, &mut deref, |i| vec![i[0] + 1, i[1]]);
    // v[::-1, 1:3] through basic indexing.
    let s = v
        .derive(|w| {
            w.index(
                &[Item::Slice { start: NONE, stop: NONE, step: -1 }, Item::Slice { start: 1, stop: 3, step: 1 }],
                &mut deref,
            )
        })
        .unwrap();
    check_indirect_map(&s, &[3, 2], &v, &mut deref, |i| vec![2 - i[0], 1 + i[1]]);
    // Splitting works too (it slices).
    let pieces: Vec<V> = v.split_sections(1, 2, false).unwrap().map(|r| r.unwrap()).collect();
    check_indirect_map(&pieces[1], &[3, 2], &v, &mut deref, |i| vec![i[0], 2 + i[1]]);
    let pieces: Vec<V> = v.split_at(0, &[1]).unwrap().map(|r| r.unwrap()).collect();
    check_indirect_map(&pieces[1], &[2, 4], &v, &mut deref, |i| vec![i[0] + 1, i[1]]);
}

#[test]
fn indexing_an_inner_indirect_axis_is_refused() {
    // Axis 1 indirect: direct rows of pointers (a (2, 3) table), each to a run of 5 bytes.
    let mut mem = HashMap::new();
    for i in 0..2usize {
        for j in 0..3usize {
            mem.insert(PTRS + 24 * i + 8 * j, 0x100_0000 * (1 + 3 * i + j));
        }
    }
    let mut deref = reader(&mem);
    let v = build(PTRS, &[2, 3, 5], &[24, 8, 1], &[-1, 0, -1]);
    assert_eq!(v.derive(|w| w.index_axis(1, 0, &mut deref)), Err(Error::Indirect { axis: 1 }));
    let full = Item::Slice { start: NONE, stop: NONE, step: NONE };
    assert_eq!(v.derive(|w| w.index(&[full, Item::Index(0)], &mut deref)), Err(Error::Indirect { axis: 1 }));
    assert_eq!(
        v.derive(|w| w.index(&[Item::NewAxis, Item::Index(0), Item::Index(0)], &mut deref)),
        Err(Error::Indirect { axis: 1 })
    );
    // A new axis before an indirect integer index leaves nothing to fold the pointer into.
    assert_eq!(
        rows_view(2, 0).derive(|w| w.index(&[Item::NewAxis, Item::Index(0)], &mut deref)),
        Err(Error::Indirect { axis: 0 })
    );
    // Once axis 0 is gone, axis 1 is the first axis and can be dereferenced.
    let r = v.derive(|w| w.index(&[Item::Index(1), Item::Index(2)], &mut deref)).unwrap();
    assert_eq!((r.data(), dims(&r), r.suboffsets()[0]), (0x100_0000 * 6, vec![5], -1));
    let r = v.derive(|w| w.index_axis(0, 1, &mut deref)).unwrap().derive(|w| w.index_axis(0, 2, &mut deref)).unwrap();
    assert_eq!(r.data(), 0x100_0000 * 6);
    // Indexing axis 0 (direct) keeps axis 1 indirect.
    let r = v.derive(|w| w.index_axis(0, 1, &mut deref)).unwrap();
    check_indirect_map(&r, &[3, 5], &v, &mut deref, |i| vec![1, i[0], i[1]]);
    // Slicing the last axis moves the suboffset of axis 1.
    let r = v.derive(|w| w.slice_axis(2, 2, NONE, NONE)).unwrap();
    assert_eq!(r.suboffsets()[1], 2);
    check_indirect_map(&r, &[2, 3, 3], &v, &mut deref, |i| vec![i[0], i[1], i[2] + 2]);
}

#[test]
fn other_operations_refuse_indirect_views() {
    let v = rows_view(3, 0);
    let ind = Err(Error::Indirect { axis: 0 });
    assert_eq!(v.derive(|w| w.transpose()), ind);
    assert_eq!(v.derive(|w| w.permute(&[0, 1])), ind);
    assert_eq!(v.derive(|w| w.swap_axes(0, 1)), ind);
    assert_eq!(v.derive(|w| w.move_axes(&[0], &[1])), ind);
    assert_eq!(v.derive(|w| w.expand_dims(0)), ind);
    assert_eq!(v.derive(|w| w.squeeze()), ind);
    assert_eq!(rows_view(1, 0).derive(|w| w.squeeze_axis(0)), ind);
    assert_eq!(v.derive(|w| w.flip()), ind);
    assert_eq!(v.derive(|w| w.flip_axis(1)), ind);
    assert_eq!(v.derive(|w| w.reshape(4, &[12], Order::C)), ind);
    assert_eq!(v.derive(|w| w.broadcast_to(&[2, 3, 4])), ind);
    assert_eq!(v.derive(|w| w.diagonal(0, 0, 1)), ind);
    assert_eq!(v.derive(|w| w.sliding_window(1, 2, 1)), ind);
    assert_eq!(v.derive(|w| w.view_as(4, 2)), ind);
    assert_eq!(v.derive(|w| w.view_as(4, 4)), ind, "also for an equal item size");
    assert_eq!(v.extent(4), Err(Error::Indirect { axis: 0 }));
    assert_eq!(v.check_bounds(4, 0, 1 << 40), Err(Error::Indirect { axis: 0 }));
    assert_eq!(v.may_overlap(4), Err(Error::Indirect { axis: 0 }));
    assert_eq!(v.derive(|w| w.subview(4, 0, &[2], Order::C)), ind);
    for order in [Order::C, Order::F] {
        for strict in [false, true] {
            assert_eq!(v.is_contiguous(4, order, strict), Ok(false));
        }
    }
    // Counting is fine.
    assert_eq!(v.item_count(), Ok(12));
    // The axis reported is the indirect one.
    let w = build(PTRS, &[2, 3], &[24, 8], &[-1, 5]);
    assert_eq!(w.derive(|w| w.transpose()), Err(Error::Indirect { axis: 1 }));
}

/// PEP 3118 cannot express a negative suboffset (it means "direct"). A slice or index behind an
/// indirect axis that would move the suboffset below 0 must be refused, not silently turn the
/// axis into a direct one.
#[test]
fn suboffset_must_not_become_negative() {
    let mem = memory(2);
    let mut deref = reader(&mem);
    // Rows reached through pointers to their last item; axis 1 walks backwards (stride -4).
    let v = build(PTRS, &[2, 3], &[8, -4], &[0, -1]);
    let full = Item::Slice { start: NONE, stop: NONE, step: NONE };
    let tail = Item::Slice { start: 1, stop: NONE, step: NONE };
    // Every offset along axis 1 is negative (stride -4) and the suboffset is 0: refused.
    let refused = Err(Error::NegativeSuboffset { axis: 0 });
    assert_eq!(v.derive(|w| w.slice_axis(1, 1, NONE, NONE)), refused);
    assert_eq!(v.derive(|w| w.index(&[full, tail], &mut deref)), refused);
    assert_eq!(v.derive(|w| w.index_axis(1, 2, &mut deref)), refused);
    // Offsets of 0 leave the suboffset alone.
    let out = v.derive(|w| w.index(&[full, full], &mut deref)).unwrap();
    check_indirect_map(&out, &[2, 3], &v, &mut deref, |i| i.to_vec());
    let out = v.derive(|w| w.index_axis(1, 0, &mut deref)).unwrap();
    check_indirect_map(&out, &[2], &v, &mut deref, |i| vec![i[0], 0]);
}

/// A pseudo-random but deterministic "pointer stored at p", for property tests.
pub(super) fn fake_deref(p: usize) -> usize {
    ((p as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24) as usize & !7
}

/// Indirect views with non-negative strides (so suboffsets stay valid): 1..=5 axes, some
/// indirect with suboffsets 0..=32.
pub(super) fn arb_indirect() -> impl Strategy<Value = V> {
    (prop::collection::vec((1..=3isize, 0..=24isize, prop_oneof![Just(-1isize), 0..=32isize]), 1..=5), 0..4096usize)
        .prop_map(|(axes, data)| {
            let shape: Vec<isize> = axes.iter().map(|a| a.0).collect();
            let strides: Vec<isize> = axes.iter().map(|a| a.1).collect();
            let sub: Vec<isize> = axes.iter().map(|a| a.2).collect();
            build(BASE + data, &shape, &strides, &sub)
        })
}

/// The expanded items of a basic index (ellipsis or the end filled with full slices).
fn expand(ndim: usize, items: &[Item]) -> Vec<Item> {
    let full = Item::Slice { start: NONE, stop: NONE, step: NONE };
    let consumed = items.iter().filter(|i| matches!(i, Item::Index(_) | Item::Slice { .. })).count();
    let fill = ndim.saturating_sub(consumed);
    let mut out = Vec::new();
    let mut seen = false;
    for &it in items {
        if it == Item::Ellipsis {
            if !seen {
                out.extend(std::iter::repeat(full).take(fill));
            }
            seen = true;
        } else {
            out.push(it);
        }
    }
    if !seen {
        out.extend(std::iter::repeat(full).take(fill));
    }
    out
}

/// The source axis an integer index would have to dereference after a kept axis, if any.
fn refused_axis(v: &V, items: &[Item]) -> Option<usize> {
    let (mut axis, mut kept) = (0, 0);
    for it in expand(v.ndim(), items) {
        match it {
            Item::Index(_) => {
                if v.suboffsets()[axis] >= 0 && kept > 0 {
                    return Some(axis);
                }
                axis += 1;
            }
            Item::Slice { .. } => {
                kept += 1;
                axis += 1;
            }
            Item::NewAxis => kept += 1,
            Item::Ellipsis => {}
        }
    }
    None
}

proptest! {
    #![proptest_config(config(1536))]

    #[test]
    fn indirect_element_is_pep3118(v in arb_indirect(), raw in prop::collection::vec(any::<Pick>(), 5)) {
        let sh = dims(&v);
        let idx: Vec<isize> = sh.iter().zip(&raw).map(|(&n, p)| p.index(n as usize) as isize).collect();
        // PEP 3118's reference loop.
        let mut p = v.data();
        for (k, &i) in idx.iter().enumerate() {
            p = p.wrapping_add((i * v.strides()[k]) as usize);
            if v.suboffsets()[k] >= 0 {
                p = fake_deref(p) + v.suboffsets()[k] as usize;
            }
        }
        prop_assert_eq!(v.element(&idx, fake_deref), Ok(p));
    }

    #[test]
    fn indirect_basic_indexing(v in arb_indirect(), items in prop::collection::vec(arb_item(), 0..=6)) {
        let refused = refused_axis(&v, &items);
        match (model_index(&dims(&v), &items), v.derive(|w| w.index(&items, fake_deref))) {
            (Ok(m), Ok(out)) => {
                prop_assert!(refused.is_none(), "accepted {:?} on {:?}", items, v);
                let mut d = fake_deref;
                check_indirect_map(&out, &m.shape(), &v, &mut d, |i| m.source_index(i));
            }
            (Ok(_), Err(Error::Indirect { axis })) => prop_assert_eq!(Some(axis), refused),
            (Err(kinds), Err(e)) => prop_assert!(kinds.contains(&e.kind()) || (refused.is_some() && e.kind() == Kind::Indirect)),
            (m, r) => prop_assert!(false, "{:?} on {:?}: model {:?}, library {:?}", items, v, m, r),
        }
    }

    #[test]
    fn indirect_slice_and_index_axis(
        v in arb_indirect(),
        p in any::<Pick>(),
        start in arb_bound(),
        stop in arb_bound(),
        step in arb_step(),
        index in -3..=3isize,
    ) {
        let (a, _) = axis_arg(&p, v.ndim(), false);
        let pos = py_slice(v.shape()[a], start, stop, step).unwrap();
        let out = v.derive(|w| w.slice_axis(a as isize, start, stop, step)).unwrap();
        let mut shape = dims(&v);
        shape[a] = pos.len() as isize;
        let mut d = fake_deref;
        check_indirect_map(&out, &shape, &v, &mut d, |i| {
            let mut s = i.to_vec();
            s[a] = pos[i[a] as usize];
            s
        });
        let len = v.shape()[a];
        let r = v.derive(|w| w.index_axis(a as isize, index, fake_deref));
        let i = if index < 0 { index + len } else { index };
        if !(0..len).contains(&i) {
            prop_assert_eq!(r, Err(Error::Index { index, axis: a, len }));
        } else if v.suboffsets()[a] >= 0 && a > 0 {
            prop_assert_eq!(r, Err(Error::Indirect { axis: a }));
        } else {
            let mut shape = dims(&v);
            shape.remove(a);
            check_indirect_map(&r.unwrap(), &shape, &v, &mut d, |o| {
                let mut s = o.to_vec();
                s.insert(a, i);
                s
            });
        }
    }
}
