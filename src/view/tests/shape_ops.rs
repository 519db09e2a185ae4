//! broadcast_to, diagonal, sliding_window, split_sections and split_at.

use super::*;

fn collect<I: Iterator<Item = Result<V>>>(it: I) -> Vec<V> {
    it.map(|r| r.unwrap()).collect()
}

#[test]
fn broadcast_hand_cases() {
    // np.derive(|w| w.broadcast_to(np.zeros(3, dtype=np.int32), (2, 3))).strides == (0, 4)
    let x = View::contiguous(BASE, 4, &[3], Order::C).unwrap();
    let b = x.derive(|w| w.broadcast_to(&[2, 3])).unwrap();
    assert_eq!((b.data(), dims(&b), strides_of(&b)), (BASE, vec![2, 3], vec![0, 4]));
    invariants(&b);
    // (3, 1) -> (2, 3, 4): strides (0, 4, 0)
    let y = View::contiguous(BASE, 4, &[3, 1], Order::C).unwrap();
    let b = y.derive(|w| w.broadcast_to(&[2, 3, 4])).unwrap();
    assert_eq!((dims(&b), strides_of(&b)), (vec![2, 3, 4], vec![0, 4, 0]));
    // A length-1 axis broadcasts to 0; a length-0 axis only to 0.
    assert_eq!(dims(&y.derive(|w| w.broadcast_to(&[3, 0])).unwrap()), vec![3, 0]);
    let z = View::contiguous(BASE, 4, &[0], Order::C).unwrap();
    assert_eq!(dims(&z.derive(|w| w.broadcast_to(&[5, 0])).unwrap()), vec![5, 0]);
    assert_eq!(z.derive(|w| w.broadcast_to(&[1])), Err(Error::Broadcast { axis: 0, from: 0, to: 1 }));
    assert_eq!(x.derive(|w| w.broadcast_to(&[4])), Err(Error::Broadcast { axis: 0, from: 3, to: 4 }));
    assert_eq!(x.derive(|w| w.broadcast_to(&[])), Err(Error::BroadcastRank { from: 1, to: 0 }));
    assert_eq!(x.derive(|w| w.broadcast_to(&[2, -3])), Err(Error::NegativeDim { axis: 1, len: -3 }));
    assert!(matches!(x.derive(|w| w.broadcast_to(&[1; 9])), Err(Error::Ndim { .. })));
    // 0-d to anything.
    let s = View::strided(BASE, 4, &[], &[]).unwrap();
    let b = s.derive(|w| w.broadcast_to(&[2, 2])).unwrap();
    assert_eq!(strides_of(&b), vec![0, 0]);
}

#[test]
fn diagonal_hand_cases() {
    // a = np.zeros((3, 4)) (float64): np.derive(|w| w.diagonal(a)) has shape (3,), stride 40;
    // offset 1 starts at 8 with 3 items; offset -1 starts at 32 with 2 items; offset 4: 0 items.
    let a = View::contiguous(BASE, 8, &[3, 4], Order::C).unwrap();
    let d = a.derive(|w| w.diagonal(0, 0, 1)).unwrap();
    assert_eq!((d.data(), dims(&d), strides_of(&d)), (BASE, vec![3], vec![40]));
    let d = a.derive(|w| w.diagonal(1, 0, 1)).unwrap();
    assert_eq!((d.data(), dims(&d), strides_of(&d)), (BASE + 8, vec![3], vec![40]));
    let d = a.derive(|w| w.diagonal(-1, 0, 1)).unwrap();
    assert_eq!((d.data(), dims(&d), strides_of(&d)), (BASE + 32, vec![2], vec![40]));
    assert_eq!(dims(&a.derive(|w| w.diagonal(4, 0, 1)).unwrap()), vec![0]);
    assert_eq!(dims(&a.derive(|w| w.diagonal(-3, 0, 1)).unwrap()), vec![0]);
    assert_eq!(dims(&a.derive(|w| w.diagonal(isize::MAX, 0, 1)).unwrap()), vec![0]);
    assert_eq!(dims(&a.derive(|w| w.diagonal(isize::MIN, 0, 1)).unwrap()), vec![0]);
    // Swapped axes: the offset runs along axis2 = 0.
    let d = a.derive(|w| w.diagonal(1, 1, 0)).unwrap();
    assert_eq!((d.data(), dims(&d)), (BASE + 32, vec![2]));
    // b = np.zeros((2, 3, 4)): np.derive(|w| w.diagonal(b, 0, 0, 2)) has shape (3, 2) (kept axis first).
    let b = View::contiguous(BASE, 8, &[2, 3, 4], Order::C).unwrap();
    let d = b.derive(|w| w.diagonal(0, 0, 2)).unwrap();
    assert_eq!((dims(&d), strides_of(&d)), (vec![3, 2], vec![32, 104]));
    invariants(&d);
    assert_eq!(b.derive(|w| w.diagonal(0, 1, -2)), Err(Error::RepeatedAxis { axis: 1 }));
    assert_eq!(b.derive(|w| w.diagonal(0, 0, 3)), Err(Error::Axis { axis: 3, ndim: 3 }));
    let c = View::contiguous(BASE, 8, &[3], Order::C).unwrap();
    assert_eq!(c.derive(|w| w.diagonal(0, 0, 0)), Err(Error::TooFewDims { ndim: 1, min: 2 }));
}

#[test]
fn window_hand_cases() {
    // torch.arange(7).unfold(0, 3, 2): shape (3, 3), strides (2, 1) in items.
    let a = View::contiguous(BASE, 4, &[7], Order::C).unwrap();
    let w = a.derive(|w| w.sliding_window(0, 3, 2)).unwrap();
    assert_eq!((w.data(), dims(&w), strides_of(&w)), (BASE, vec![3, 3], vec![8, 4]));
    invariants(&w);
    // np.lib.stride_tricks.sliding_window_view(np.zeros((2, 5)), 2, axis=1).shape == (2, 4, 2)
    let b = View::contiguous(BASE, 8, &[2, 5], Order::C).unwrap();
    let w = b.derive(|w| w.sliding_window(-1, 2, 1)).unwrap();
    assert_eq!((dims(&w), strides_of(&w)), (vec![2, 4, 2], vec![40, 8, 8]));
    // Window of the whole axis, and of 0 (len + 1 empty windows).
    assert_eq!(dims(&a.derive(|w| w.sliding_window(0, 7, 1)).unwrap()), vec![1, 7]);
    assert_eq!(dims(&a.derive(|w| w.sliding_window(0, 0, 1)).unwrap()), vec![8, 0]);
    assert_eq!(dims(&a.derive(|w| w.sliding_window(0, 0, 3)).unwrap()), vec![3, 0]);
    assert_eq!(dims(&a.derive(|w| w.sliding_window(0, 2, isize::MAX)).unwrap()), vec![1, 2]);
    assert_eq!(a.derive(|w| w.sliding_window(0, 8, 1)), Err(Error::Window { window: 8, axis: 0, len: 7 }));
    assert_eq!(a.derive(|w| w.sliding_window(0, -1, 1)), Err(Error::Window { window: -1, axis: 0, len: 7 }));
    assert_eq!(a.derive(|w| w.sliding_window(0, 2, 0)), Err(Error::WindowStep { step: 0 }));
    assert_eq!(a.derive(|w| w.sliding_window(0, 2, -1)), Err(Error::WindowStep { step: -1 }));
    assert_eq!(a.derive(|w| w.sliding_window(1, 2, 1)), Err(Error::Axis { axis: 1, ndim: 1 }));
    let full = View::contiguous(BASE, 1, &[2; 8], Order::C).unwrap();
    assert_eq!(full.derive(|w| w.sliding_window(0, 1, 1)), Err(Error::TooManyDims { ndim: 9 }));
}

#[test]
fn split_hand_cases() {
    // np.array_split(np.arange(10), 3) -> lengths 4, 3, 3; np.split(np.arange(9), 3) -> 3, 3, 3
    let a = View::contiguous(BASE, 8, &[10], Order::C).unwrap();
    let p = collect(a.split_sections(0, 3, true).unwrap());
    let got: Vec<(usize, isize)> = p.iter().map(|v| (v.data() - BASE, v.shape()[0])).collect();
    assert_eq!(got, vec![(0, 4), (32, 3), (56, 3)]);
    assert_eq!(a.split_sections(0, 3, false).err(), Some(Error::UnevenSplit { len: 10, sections: 3 }));
    assert_eq!(a.split_sections(0, 0, true).err(), Some(Error::Sections { sections: 0 }));
    assert_eq!(a.split_sections(0, -2, true).err(), Some(Error::Sections { sections: -2 }));
    assert_eq!(a.split_sections(1, 2, true).err(), Some(Error::Axis { axis: 1, ndim: 1 }));
    // np.array_split(np.arange(2), 4) -> lengths 1, 1, 0, 0
    let b = View::contiguous(BASE, 8, &[2], Order::C).unwrap();
    let lens: Vec<isize> = collect(b.split_sections(0, 4, true).unwrap()).iter().map(|v| v.shape()[0]).collect();
    assert_eq!(lens, vec![1, 1, 0, 0]);
    // np.split(np.arange(10), [3, -2, 5, 20]) -> [0:3], [3:8], [8:5] (empty), [5:20], [20:]
    let p = collect(a.split_at(0, &[3, -2, 5, 20]).unwrap());
    let got: Vec<isize> = p.iter().map(|v| v.shape()[0]).collect();
    assert_eq!(got, vec![3, 5, 0, 5, 0]);
    assert_eq!(p[1].data() - BASE, 24);
    assert_eq!(p[3].data() - BASE, 40);
    // No indices: one piece, the whole axis.
    let p = collect(a.split_at(-1, &[]).unwrap());
    assert_eq!(p, vec![a]);
    // ExactSizeIterator reports the piece count up front.
    assert_eq!(a.split_sections(0, 5, false).unwrap().len(), 5);
    assert_eq!(a.split_at(0, &[1, 2]).unwrap().len(), 3);
}

/// np.array_split's boundaries: extras pieces of len // s + 1, then len // s.
fn array_split_bounds(len: isize, sections: isize) -> Vec<isize> {
    let (each, extras) = (len / sections, len % sections);
    let mut b = vec![0];
    for i in 0..sections {
        b.push(b[i as usize] + each + if i < extras { 1 } else { 0 });
    }
    b
}

proptest! {
    #![proptest_config(config(768))]

    #[test]
    fn broadcast_matches_model(
        (v, _) in arb_view(0..=6),
        lead in prop::collection::vec(0..=3isize, 0..=2),
        grow in prop::collection::vec(prop_oneof![3 => Just(None), 2 => (0..=3isize).prop_map(Some)], 6),
    ) {
        let src = dims(&v);
        // Replace extents (only 1s can really grow; others make errors).
        let mut target = lead.clone();
        for (k, &d) in src.iter().enumerate() {
            target.push(grow[k].unwrap_or(d));
        }
        let lead_n = target.len() - src.len();
        let bad = src.iter().enumerate().find(|&(k, &d)| d != 1 && d != target[lead_n + k]);
        let r = v.derive(|w| w.broadcast_to(&target));
        if let Some((k, &d)) = bad {
            prop_assert_eq!(r, Err(Error::Broadcast { axis: k, from: d, to: target[lead_n + k] }));
        } else {
            check_map(&r.unwrap(), &target, &v, |i| {
                (0..src.len()).map(|k| if src[k] == 1 { 0 } else { i[lead_n + k] }).collect()
            });
        }
    }

    #[test]
    fn diagonal_matches_numpy(
        (v, _) in arb_view(2..=8),
        p in any::<Pick>(),
        q in any::<Pick>(),
        ng in any::<(bool, bool)>(),
        offset in prop_oneof![8 => -5..=5isize, 1 => Just(isize::MIN), 1 => Just(isize::MAX)],
    ) {
        let n = v.ndim();
        let (a1, x1) = axis_arg(&p, n, ng.0);
        let (a2, x2) = axis_arg(&q, n, ng.1);
        let r = v.derive(|w| w.diagonal(offset, x1, x2));
        if a1 == a2 {
            prop_assert_eq!(r, Err(Error::RepeatedAxis { axis: a1 }));
            return Ok(());
        }
        let sh = dims(&v);
        // NumPy: the diagonal starts at (max(0, -offset), max(0, offset)) along (axis1, axis2).
        let (o1, o2) = (0i128.max(-(offset as i128)), 0i128.max(offset as i128));
        let len = (sh[a1] as i128 - o1).min(sh[a2] as i128 - o2).max(0) as isize;
        let rest: Vec<usize> = (0..n).filter(|&k| k != a1 && k != a2).collect();
        let mut shape: Vec<isize> = rest.iter().map(|&k| sh[k]).collect();
        shape.push(len);
        check_map(&r.unwrap(), &shape, &v, |i| {
            let mut s = vec![0; n];
            for (k, &a) in rest.iter().enumerate() {
                s[a] = i[k];
            }
            let d = i[n - 2] as i128;
            s[a1] = (d + o1) as isize;
            s[a2] = (d + o2) as isize;
            s
        });
    }

    #[test]
    fn sliding_window_matches_model(
        (v, _) in arb_view(1..=8),
        p in any::<Pick>(),
        neg in any::<bool>(),
        wextra in -1..=6isize,
        step in prop_oneof![8 => 1..=4isize, 1 => Just(isize::MAX)],
    ) {
        let n = v.ndim();
        let (a, arg) = axis_arg(&p, n, neg);
        let len = v.shape()[a];
        let window = wextra.min(len + 1);
        let r = v.derive(|w| w.sliding_window(arg, window, step));
        if n == MAX_DIMS {
            prop_assert_eq!(r, Err(Error::TooManyDims { ndim: 9 }));
        } else if window < 0 || window > len {
            prop_assert_eq!(r, Err(Error::Window { window, axis: a, len }));
        } else {
            // The windows start at 0, step, 2 * step, ... while they fit.
            let mut starts = 0isize;
            while (starts as i128) * (step as i128) + window as i128 <= len as i128 {
                starts += 1;
            }
            let mut shape = dims(&v);
            shape[a] = starts;
            shape.push(window);
            check_map(&r.unwrap(), &shape, &v, |i| {
                let mut s = i[..n].to_vec();
                s[a] = i[a] * step + i[n];
                s
            });
        }
    }

    #[test]
    fn split_sections_matches_array_split(
        (v, _) in arb_view(1..=8),
        p in any::<Pick>(),
        neg in any::<bool>(),
        sections in 1..=6isize,
        uneven in any::<bool>(),
    ) {
        let (a, arg) = axis_arg(&p, v.ndim(), neg);
        let len = v.shape()[a];
        let r = v.split_sections(arg, sections, uneven);
        if !uneven && len % sections != 0 {
            prop_assert_eq!(r.err(), Some(Error::UnevenSplit { len, sections }));
            return Ok(());
        }
        let pieces = collect(r.unwrap());
        let b = array_split_bounds(len, sections);
        prop_assert_eq!(pieces.len(), sections as usize);
        for (i, piece) in pieces.iter().enumerate() {
            let mut shape = dims(&v);
            shape[a] = b[i + 1] - b[i];
            check_map(piece, &shape, &v, |x| {
                let mut s = x.to_vec();
                s[a] += b[i];
                s
            });
        }
    }

    #[test]
    fn split_at_matches_numpy(
        (v, _) in arb_view(1..=8),
        p in any::<Pick>(),
        neg in any::<bool>(),
        indices in prop::collection::vec(prop_oneof![8 => -6..=8isize, 1 => Just(isize::MAX), 1 => Just(isize::MIN + 1)], 0..=4),
    ) {
        let (a, arg) = axis_arg(&p, v.ndim(), neg);
        let len = v.shape()[a];
        let pieces = collect(v.split_at(arg, &indices).unwrap());
        prop_assert_eq!(pieces.len(), indices.len() + 1);
        // NumPy: div_points = [0] + indices + [len]; piece i is a[div[i]:div[i + 1]].
        let mut div = vec![0];
        div.extend_from_slice(&indices);
        div.push(len);
        for (i, piece) in pieces.iter().enumerate() {
            let pos = py_slice(len, div[i], div[i + 1], 1).unwrap();
            let mut shape = dims(&v);
            shape[a] = pos.len() as isize;
            check_map(piece, &shape, &v, |x| {
                let mut s = x.to_vec();
                s[a] = pos[x[a] as usize];
                s
            });
        }
    }
}
