//! NumPy basic indexing (`View::index`) against an independent model.

use super::*;

/// One axis of the result of basic indexing, in the model.
#[derive(Clone, Debug)]
pub(super) enum OutAxis {
    /// Source axis `.0`, positions `.1`.
    Src(usize, Vec<isize>),
    New,
}

/// The model's result: source positions fixed by integers, and the result's axes.
#[derive(Debug)]
pub(super) struct Model {
    fixed: Vec<isize>,
    axes: Vec<OutAxis>,
}

impl Model {
    pub(super) fn shape(&self) -> Vec<isize> {
        self.axes
            .iter()
            .map(|a| match a {
                OutAxis::Src(_, p) => p.len() as isize,
                OutAxis::New => 1,
            })
            .collect()
    }

    pub(super) fn source_index(&self, idx: &[isize]) -> Vec<isize> {
        let mut s = self.fixed.clone();
        for (k, ax) in self.axes.iter().enumerate() {
            if let OutAxis::Src(a, p) = ax {
                s[*a] = p[idx[k] as usize];
            }
        }
        assert!(s.iter().all(|&x| x >= 0), "model left a source axis unset");
        s
    }
}

/// NumPy's `a[items]` for `a` of `shape`: the result, or every kind of error the index has.
pub(super) fn model_index(shape: &[isize], items: &[Item]) -> std::result::Result<Model, Vec<Kind>> {
    let mut errs = Vec::new();
    let ellipses = items.iter().filter(|i| matches!(i, Item::Ellipsis)).count();
    if ellipses > 1 {
        errs.push(Kind::Index);
    }
    let consumed = items.iter().filter(|i| matches!(i, Item::Index(_) | Item::Slice { .. })).count();
    if consumed > shape.len() {
        errs.push(Kind::Index);
        return Err(errs);
    }
    let ints = items.iter().filter(|i| matches!(i, Item::Index(_))).count();
    let new = items.iter().filter(|i| matches!(i, Item::NewAxis)).count();
    if shape.len() - ints + new > MAX_DIMS {
        errs.push(Kind::Ndim);
    }
    // The ellipsis (or, without one, the end) stands for as many full slices as needed.
    let full = Item::Slice { start: NONE, stop: NONE, step: NONE };
    let fill = shape.len() - consumed;
    let mut expanded = Vec::new();
    let mut seen = false;
    for &it in items {
        if it == Item::Ellipsis {
            if !seen {
                expanded.extend(std::iter::repeat(full).take(fill));
            }
            seen = true;
        } else {
            expanded.push(it);
        }
    }
    if !seen {
        expanded.extend(std::iter::repeat(full).take(fill));
    }
    let mut m = Model { fixed: vec![-1; shape.len()], axes: Vec::new() };
    let mut axis = 0;
    for it in expanded {
        match it {
            Item::Index(i) => {
                let len = shape[axis] as i128;
                let j = if i < 0 { i as i128 + len } else { i as i128 };
                if j < 0 || j >= len {
                    errs.push(Kind::Index);
                } else {
                    m.fixed[axis] = j as isize;
                }
                axis += 1;
            }
            Item::Slice { start, stop, step } => {
                match py_slice(shape[axis], start, stop, step) {
                    Some(p) => m.axes.push(OutAxis::Src(axis, p)),
                    None => errs.push(Kind::Step),
                }
                axis += 1;
            }
            Item::NewAxis => m.axes.push(OutAxis::New),
            Item::Ellipsis => unreachable!(),
        }
    }
    if errs.is_empty() {
        Ok(m)
    } else {
        Err(errs)
    }
}

pub(super) fn arb_item() -> impl Strategy<Value = Item> {
    prop_oneof![
        5 => (-5..=5isize).prop_map(Item::Index),
        1 => prop_oneof![Just(isize::MAX), Just(isize::MIN), Just(isize::MIN + 1)].prop_map(Item::Index),
        6 => (arb_bound(), arb_bound(), prop_oneof![30 => arb_step(), 1 => Just(0isize)])
            .prop_map(|(start, stop, step)| Item::Slice { start, stop, step }),
        2 => Just(Item::NewAxis),
        2 => Just(Item::Ellipsis),
    ]
}

fn check_index(v: &V, items: &[Item]) {
    match (model_index(&dims(v), items), v.derive(|w| w.index(items, no_deref))) {
        (Ok(m), Ok(out)) => check_map(&out, &m.shape(), v, |i| m.source_index(i)),
        (Err(kinds), Err(e)) => assert!(kinds.contains(&e.kind()), "{items:?}: got {e:?}, expected one of {kinds:?}"),
        (m, r) => panic!("{items:?} on {v:?}: model {m:?}, library {r:?}"),
    }
}

const FULL: Item = Item::Slice { start: NONE, stop: NONE, step: NONE };

fn sl(start: isize, stop: isize, step: isize) -> Item {
    Item::Slice { start, stop, step }
}

#[test]
fn index_numpy_hand_cases() {
    use Item::*;
    // a = np.zeros((3, 4, 5)) (float64), strides (160, 40, 8).
    let a = View::contiguous(BASE, 8, &[3, 4, 5], Order::C).unwrap();
    let got = |items: &[Item]| {
        let v = a.derive(|w| w.index(items, no_deref)).unwrap();
        invariants(&v);
        (v.data() - BASE, dims(&v), strides_of(&v))
    };
    // a[1]
    assert_eq!(got(&[Index(1)]), (160, vec![4, 5], vec![40, 8]));
    // a[..., 2]
    assert_eq!(got(&[Ellipsis, Index(2)]), (16, vec![3, 4], vec![160, 40]));
    // a[-1, -1, -1]
    assert_eq!(got(&[Index(-1), Index(-1), Index(-1)]), (320 + 120 + 32, vec![], vec![]));
    // a[1:, ::-2] : rows 1.., columns 3, 1
    assert_eq!(got(&[sl(1, NONE, NONE), sl(NONE, NONE, -2)]), (160 + 120, vec![2, 2, 5], vec![160, -80, 8]));
    // a[()] and a[...] are the whole view.
    assert_eq!(got(&[]), (0, vec![3, 4, 5], vec![160, 40, 8]));
    assert_eq!(got(&[Ellipsis]), (0, vec![3, 4, 5], vec![160, 40, 8]));
    // Length-1 axes: only the shape and data are NumPy's (the stride is free).
    let v = a.derive(|w| w.index(&[NewAxis, Index(1), Ellipsis, sl(NONE, NONE, -2)], no_deref)).unwrap();
    assert_eq!((v.data() - BASE, dims(&v)), (160 + 32, vec![1, 4, 3]));
    assert_eq!(&strides_of(&v)[1..], &[40, -16]);
    let v = a.derive(|w| w.index(&[sl(1, 2, NONE), NewAxis, FULL, Index(3)], no_deref)).unwrap();
    assert_eq!((v.data() - BASE, dims(&v)), (160 + 24, vec![1, 1, 4]));
    assert_eq!(strides_of(&v)[2], 40);
    let v = a.derive(|w| w.index(&[Ellipsis, NewAxis], no_deref)).unwrap();
    assert_eq!((v.data() - BASE, dims(&v)), (0, vec![3, 4, 5, 1]));
    // Errors.
    assert_eq!(a.derive(|w| w.index(&[Index(0); 4], no_deref)), Err(Error::TooManyIndices { ndim: 3, given: 4 }));
    assert_eq!(
        a.derive(|w| w.index(&[FULL, Index(0), Ellipsis, FULL, FULL], no_deref)),
        Err(Error::TooManyIndices { ndim: 3, given: 4 })
    );
    assert_eq!(a.derive(|w| w.index(&[Ellipsis, Index(0), Ellipsis], no_deref)), Err(Error::MultipleEllipsis));
    assert_eq!(a.derive(|w| w.index(&[Index(3)], no_deref)), Err(Error::Index { index: 3, axis: 0, len: 3 }));
    assert_eq!(
        a.derive(|w| w.index(&[Ellipsis, Index(-6)], no_deref)),
        Err(Error::Index { index: -6, axis: 2, len: 5 })
    );
    assert_eq!(a.derive(|w| w.index(&[sl(0, 1, 0)], no_deref)), Err(Error::StepZero));
    assert_eq!(a.derive(|w| w.index(&[NewAxis; 6], no_deref)), Err(Error::TooManyDims { ndim: 9 }));
    // The ninth axis added by an item, not by the implicit ellipsis; and the count's errors
    // before any index's, as NumPy checks them.
    let full = sl(NONE, NONE, NONE);
    let nine = [NewAxis, NewAxis, NewAxis, NewAxis, NewAxis, NewAxis, full, full, full];
    assert_eq!(a.derive(|w| w.index(&nine, no_deref)), Err(Error::TooManyDims { ndim: 9 }));
    let late = [Index(99), NewAxis, NewAxis, NewAxis, NewAxis, NewAxis, NewAxis, NewAxis];
    assert_eq!(a.derive(|w| w.index(&late, no_deref)), Err(Error::TooManyDims { ndim: 9 }));
    let four = [Index(99), Index(0), Index(0), Index(0)];
    assert_eq!(a.derive(|w| w.index(&four, no_deref)), Err(Error::TooManyIndices { ndim: 3, given: 4 }));
    let v = a.derive(|w| w.index(&[NewAxis; 5], no_deref)).unwrap();
    assert_eq!(dims(&v), vec![1, 1, 1, 1, 1, 3, 4, 5]);
}

#[test]
fn index_zero_d() {
    use Item::*;
    let s = View::strided(BASE, 8, &[], &[]).unwrap();
    assert_eq!(s.derive(|w| w.index(&[], no_deref)), Ok(s));
    assert_eq!(s.derive(|w| w.index(&[Ellipsis], no_deref)), Ok(s));
    let v = s.derive(|w| w.index(&[NewAxis], no_deref)).unwrap();
    assert_eq!((v.data(), dims(&v)), (BASE, vec![1]));
    invariants(&v);
    assert_eq!(s.derive(|w| w.index(&[Index(0)], no_deref)), Err(Error::TooManyIndices { ndim: 0, given: 1 }));
    assert_eq!(s.derive(|w| w.index(&[FULL], no_deref)), Err(Error::TooManyIndices { ndim: 0, given: 1 }));
}

#[test]
fn model_index_self_test() {
    use Item::*;
    let m = model_index(&[3, 4, 5], &[NewAxis, Index(1), Ellipsis, sl(NONE, NONE, -2)]).unwrap();
    assert_eq!(m.shape(), vec![1, 4, 3]);
    assert_eq!(m.source_index(&[0, 2, 1]), vec![1, 2, 2]);
    assert!(model_index(&[3], &[Index(0), Index(0)]).is_err());
    assert!(model_index(&[3], &[Ellipsis, Ellipsis]).is_err());
}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn index_matches_numpy_model(
        (v, _) in arb_view(0..=6),
        items in prop::collection::vec(arb_item(), 0..=8),
    ) {
        check_index(&v, &items);
    }

    /// Mostly valid indices: one item per axis or fewer, plus new axes and an ellipsis.
    #[test]
    fn index_valid_mostly(
        (v, _) in arb_view(0..=7),
        raw in prop::collection::vec((0..4u8, -4..=4isize, arb_bound(), arb_bound(), arb_step()), 0..=8),
        ellipsis_at in any::<Option<Pick>>(),
    ) {
        let mut items: Vec<Item> = raw
            .into_iter()
            .take(v.ndim() + 1)
            .map(|(k, i, a, b, s)| match k {
                0 => Item::Index(i),
                1 => Item::NewAxis,
                _ => sl(a, b, s),
            })
            .collect();
        if let Some(p) = ellipsis_at {
            items.insert(p.index(items.len() + 1), Item::Ellipsis);
        }
        check_index(&v, &items);
    }
}
