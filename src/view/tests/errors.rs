//! Every error the core can produce, produced; Kind and Display; checked arithmetic near
//! isize::MAX/MIN giving Error::Overflow (never a panic, never a wrapped answer).

use super::*;

/// A view from explicit parts, with no extent check (so strides can be anything).
fn raw(data: usize, shape: &[isize], strides: &[isize], sub: &[isize]) -> V {
    let (mut a, mut b, mut c) = ([0; MAX_DIMS], [0; MAX_DIMS], [-1; MAX_DIMS]);
    a[..shape.len()].copy_from_slice(shape);
    b[..strides.len()].copy_from_slice(strides);
    c[..sub.len()].copy_from_slice(sub);
    View::new(data, shape.len() as isize, &a, &b, &c).unwrap()
}

/// The variant's name. No wildcard: a new variant breaks the build of this test until it is
/// listed (and produced below, or listed as unreachable from the core).
fn name(e: &Error) -> &'static str {
    use Error::*;
    match e {
        Ndim { .. } => "Ndim",
        TooManyDims { .. } => "TooManyDims",
        TooFewDims { .. } => "TooFewDims",
        Axis { .. } => "Axis",
        RepeatedAxis { .. } => "RepeatedAxis",
        Itemsize { .. } => "Itemsize",
        NegativeDim { .. } => "NegativeDim",
        NegativeSize { .. } => "NegativeSize",
        SizeMismatch { .. } => "SizeMismatch",
        MultipleUnknown => "MultipleUnknown",
        UnknownWithZero => "UnknownWithZero",
        Index { .. } => "Index",
        TooManyIndices { .. } => "TooManyIndices",
        MultipleEllipsis => "MultipleEllipsis",
        StepZero => "StepZero",
        WindowStep { .. } => "WindowStep",
        Overflow => "Overflow",
        NeedsCopy => "NeedsCopy",
        Indirect { .. } => "Indirect",
        NegativeSuboffset { .. } => "NegativeSuboffset",
        OutOfBounds => "OutOfBounds",
        SubviewTooLarge { .. } => "SubviewTooLarge",
        NegativeOffset { .. } => "NegativeOffset",
        Broadcast { .. } => "Broadcast",
        BroadcastRank { .. } => "BroadcastRank",
        NotContiguous => "NotContiguous",
        Order { .. } => "Order",
        Rule { .. } => "Rule",
        ItemKind { .. } => "ItemKind",
        Count { .. } => "Count",
        NotSqueezable { .. } => "NotSqueezable",
        Window { .. } => "Window",
        UnevenSplit { .. } => "UnevenSplit",
        Sections { .. } => "Sections",
        ItemsizeOf0d { .. } => "ItemsizeOf0d",
        LastAxisNotContiguous { .. } => "LastAxisNotContiguous",
        SmallerItemsize { .. } => "SmallerItemsize",
        LargerItemsize { .. } => "LargerItemsize",
    }
}

/// Variants only the C layer produces (unknown enum values of its arguments).
const FFI_ONLY: [&str; 2] = ["Rule", "ItemKind"];

/// One real call of the core per variant, each with the exact error NumPy's reading implies.
fn produced() -> Vec<(Error, Error)> {
    let a = View::contiguous(BASE, 8, &[4, 6], Order::C).unwrap();
    let ind = raw(BASE, &[2, 3], &[8, 4], &[0, -1]);
    let mut huge = [0isize; MAX_DIMS];
    huge[0] = isize::MAX / 2;
    let arr = [0isize; MAX_DIMS];
    let sub = [-1isize; MAX_DIMS];
    let err = |r: Result<V>| r.unwrap_err();
    let first_err = |r: Result<Vec<Result<V>>>| r.unwrap_err();
    vec![
        (err(View::new(BASE, 9, &arr, &arr, &sub)), Error::Ndim { ndim: 9 }),
        (
            err(a.derive(|w| w.expand_dims(0)).and_then(|b| b.derive(|w| w.index(&[Item::NewAxis; 6], no_deref)))),
            Error::TooManyDims { ndim: 9 },
        ),
        (
            err(a.derive(|w| w.index_axis(0, 0, no_deref)).unwrap().derive(|w| w.diagonal(0, 0, 1))),
            Error::TooFewDims { ndim: 1, min: 2 },
        ),
        (err(a.derive(|w| w.slice_axis(-3, 0, 1, 1))), Error::Axis { axis: -3, ndim: 2 }),
        (err(a.derive(|w| w.permute(&[1, 1]))), Error::RepeatedAxis { axis: 1 }),
        (err(View::contiguous(BASE, 0, &[1], Order::C)), Error::Itemsize { itemsize: 0 }),
        (err(a.derive(|w| w.broadcast_to(&[-1, 6]))), Error::NegativeDim { axis: 0, len: -1 }),
        (a.check_bounds(8, 0, -5).unwrap_err(), Error::NegativeSize { size: -5 }),
        (err(a.derive(|w| w.reshape(8, &[5, 5], Order::C))), Error::SizeMismatch { from: 24, to: 25 }),
        (err(a.derive(|w| w.reshape(8, &[-1, 2, -1], Order::C))), Error::MultipleUnknown),
        (err(a.derive(|w| w.reshape(8, &[0, -1], Order::C))), Error::UnknownWithZero),
        (err(a.derive(|w| w.index_axis(1, 6, no_deref))), Error::Index { index: 6, axis: 1, len: 6 }),
        (err(a.derive(|w| w.index(&[Item::Index(0); 3], no_deref))), Error::TooManyIndices { ndim: 2, given: 3 }),
        (err(a.derive(|w| w.index(&[Item::Ellipsis, Item::Ellipsis], no_deref))), Error::MultipleEllipsis),
        (err(a.derive(|w| w.slice_axis(0, NONE, NONE, 0))), Error::StepZero),
        (err(a.derive(|w| w.sliding_window(0, 2, 0))), Error::WindowStep { step: 0 }),
        (
            err(View::new(
                BASE,
                1,
                &{
                    let mut s = arr;
                    s[0] = 4;
                    s
                },
                &huge,
                &sub,
            )),
            Error::Overflow,
        ),
        (err(a.derive(|w| w.transpose()).unwrap().derive(|w| w.reshape(8, &[24], Order::C))), Error::NeedsCopy),
        (err(ind.derive(|w| w.transpose())), Error::Indirect { axis: 0 }),
        (
            err(raw(BASE, &[2, 3], &[8, -4], &[0, -1]).derive(|w| w.slice_axis(1, 1, NONE, NONE))),
            Error::NegativeSuboffset { axis: 0 },
        ),
        (a.check_bounds(8, 0, 191).unwrap_err(), Error::OutOfBounds),
        (err(a.derive(|w| w.subview(8, 20, &[5], Order::C))), Error::SubviewTooLarge { offset: 20, need: 5, have: 24 }),
        (err(a.derive(|w| w.subview(8, -1, &[5], Order::C))), Error::NegativeOffset { offset: -1 }),
        (err(a.derive(|w| w.broadcast_to(&[2, 4, 5]))), Error::Broadcast { axis: 1, from: 6, to: 5 }),
        (err(a.derive(|w| w.broadcast_to(&[24]))), Error::BroadcastRank { from: 2, to: 1 }),
        (
            err(a.derive(|w| w.slice_axis(1, NONE, NONE, 2)).unwrap().derive(|w| w.subview(8, 0, &[1], Order::C))),
            Error::NotContiguous,
        ),
        (Order::from_char('X' as i32).unwrap_err(), Error::Order { order: 'X' as i32 }),
        (err(View::strided(BASE, 8, &[2, 3], &[8])), Error::Count { what: "stride count", count: 1 }),
        (err(a.derive(|w| w.squeeze_axis(0))), Error::NotSqueezable { axis: 0, len: 4 }),
        (err(a.derive(|w| w.sliding_window(1, 7, 1))), Error::Window { window: 7, axis: 1, len: 6 }),
        (first_err(a.split_sections(1, 4, false).map(|i| i.collect())), Error::UnevenSplit { len: 6, sections: 4 }),
        (first_err(a.split_sections(1, 0, true).map(|i| i.collect())), Error::Sections { sections: 0 }),
        (
            err(View::strided(BASE, 8, &[], &[]).unwrap().derive(|w| w.view_as(8, 4))),
            Error::ItemsizeOf0d { itemsize: 8, new_itemsize: 4 },
        ),
        (
            err(a.derive(|w| w.transpose()).unwrap().derive(|w| w.view_as(8, 4))),
            Error::LastAxisNotContiguous { axis: 1, stride: 48, itemsize: 8 },
        ),
        (err(a.derive(|w| w.view_as(8, 3))), Error::SmallerItemsize { itemsize: 8, new_itemsize: 3 }),
        (err(a.derive(|w| w.view_as(8, 32))), Error::LargerItemsize { len: 6, itemsize: 8, new_itemsize: 32 }),
    ]
}

#[test]
fn every_core_error_is_produced() {
    let got = produced();
    for (e, want) in &got {
        assert_eq!(e, want);
    }
    let mut names: Vec<&str> = got.iter().map(|(e, _)| name(e)).collect();
    names.sort();
    names.dedup();
    let all = [
        "Axis",
        "Broadcast",
        "BroadcastRank",
        "Count",
        "Index",
        "Indirect",
        "Itemsize",
        "ItemsizeOf0d",
        "LargerItemsize",
        "LastAxisNotContiguous",
        "MultipleEllipsis",
        "MultipleUnknown",
        "Ndim",
        "NeedsCopy",
        "NegativeDim",
        "NegativeOffset",
        "NegativeSize",
        "NegativeSuboffset",
        "NotContiguous",
        "NotSqueezable",
        "Order",
        "OutOfBounds",
        "Overflow",
        "RepeatedAxis",
        "Sections",
        "SizeMismatch",
        "SmallerItemsize",
        "StepZero",
        "SubviewTooLarge",
        "TooFewDims",
        "TooManyDims",
        "TooManyIndices",
        "UnevenSplit",
        "UnknownWithZero",
        "Window",
        "WindowStep",
    ];
    assert_eq!(names, all.to_vec());
    assert_eq!(all.len() + FFI_ONLY.len(), 38);
}

#[test]
fn kinds_and_messages() {
    let mut all: Vec<Error> = produced().into_iter().map(|(e, _)| e).collect();
    all.push(Error::Rule { rule: 7 });
    all.push(Error::ItemKind { position: 2, kind: 9 });
    for e in &all {
        let msg = e.to_string();
        assert!(!msg.is_empty(), "{e:?}");
        // Messages carry the numbers they describe.
        let numbers: Vec<String> = format!("{e:?}")
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter(|s| s.chars().any(|c| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect();
        for n in numbers {
            assert!(msg.contains(&n), "message {msg:?} of {e:?} lacks {n}");
        }
    }
    // The classes the C layer turns into status codes.
    let kind = |e: Error| e.kind();
    assert_eq!(kind(Error::Overflow), Kind::Overflow);
    assert_eq!(kind(Error::NeedsCopy), Kind::NeedsCopy);
    assert_eq!(kind(Error::Indirect { axis: 0 }), Kind::Indirect);
    assert_eq!(kind(Error::StepZero), Kind::Step);
    assert_eq!(kind(Error::WindowStep { step: 0 }), Kind::Step);
    assert_eq!(kind(Error::Index { index: 0, axis: 0, len: 0 }), Kind::Index);
    assert_eq!(kind(Error::TooManyIndices { ndim: 0, given: 1 }), Kind::Index);
    assert_eq!(kind(Error::Axis { axis: 0, ndim: 0 }), Kind::Axis);
    assert_eq!(kind(Error::Ndim { ndim: 9 }), Kind::Ndim);
    assert_eq!(kind(Error::Itemsize { itemsize: 0 }), Kind::Itemsize);
    assert_eq!(kind(Error::OutOfBounds), Kind::Bounds);
    assert_eq!(kind(Error::SubviewTooLarge { offset: 0, need: 1, have: 0 }), Kind::Bounds);
    assert_eq!(kind(Error::Broadcast { axis: 0, from: 2, to: 3 }), Kind::Broadcast);
    assert_eq!(kind(Error::NotContiguous), Kind::NotContiguous);
    assert_eq!(kind(Error::ItemsizeOf0d { itemsize: 8, new_itemsize: 4 }), Kind::Ndim);
    assert_eq!(kind(Error::LastAxisNotContiguous { axis: 0, stride: 16, itemsize: 8 }), Kind::NotContiguous);
    assert_eq!(kind(Error::SmallerItemsize { itemsize: 8, new_itemsize: 3 }), Kind::Value);
    assert_eq!(kind(Error::LargerItemsize { len: 3, itemsize: 4, new_itemsize: 8 }), Kind::Value);
    assert_eq!(kind(Error::SizeMismatch { from: 1, to: 2 }), Kind::Shape);
    assert_eq!(kind(Error::NegativeDim { axis: 0, len: -1 }), Kind::Shape);
    assert_eq!(kind(Error::Order { order: 0 }), Kind::Value);
    assert_eq!(Error::Index { index: 7, axis: 1, len: 5 }.to_string(), "index 7 is out of range for axis 1 of size 5");
}

// ---------------------------------------------------------------------------------------------
// Checked arithmetic
// ---------------------------------------------------------------------------------------------

const M: isize = isize::MAX;

#[test]
fn overflow_in_offsets_and_strides() {
    // Views whose span (the distance between their extreme elements) does not fit in isize are
    // refused when they are made, so no later offset can overflow unnoticed.
    let refused: [(&[isize], &[isize]); 6] = [
        (&[4], &[M / 2]),
        (&[2], &[isize::MIN]),
        (&[2, 2], &[M, M]),
        (&[3, 3], &[M / 2, M / 2]),
        (&[1 << 62], &[4]),
        (&[10], &[-(M / 4)]),
    ];
    for (shape, strides) in refused {
        let (mut a, mut b) = ([0; MAX_DIMS], [0; MAX_DIMS]);
        a[..shape.len()].copy_from_slice(shape);
        b[..strides.len()].copy_from_slice(strides);
        assert_eq!(
            View::new(BASE, shape.len() as isize, &a, &b, &[-1; MAX_DIMS]),
            Err(Error::Overflow),
            "{shape:?} {strides:?}"
        );
        assert_eq!(View::strided(BASE, 1, shape, strides), Err(Error::Overflow), "{shape:?} {strides:?}");
    }
    // A span of exactly MAX is accepted, and every position in it is exact.
    let h = raw(BASE, &[4], &[M / 3], &[]);
    let far = BASE + (M / 3 * 3) as usize;
    assert_eq!(h.derive(|w| w.slice_axis(0, 3, NONE, NONE)).map(|v| v.data()), Ok(far));
    assert_eq!(h.derive(|w| w.slice_axis(0, NONE, NONE, 3)).map(|v| strides_of(&v)), Ok(vec![M / 3 * 3]));
    assert_eq!(h.derive(|w| w.index_axis(0, 3, no_deref)).map(|v| v.data()), Ok(far));
    assert_eq!(h.derive(|w| w.index(&[Item::Index(-1)], no_deref)).map(|v| v.data()), Ok(far));
    assert_eq!(h.element(&[3], no_deref), Ok(far));
    assert_eq!(h.derive(|w| w.flip()).map(|v| (v.data(), strides_of(&v))), Ok((far, vec![-(M / 3)])));
    assert_eq!(
        h.derive(|w| w.sliding_window(0, 1, 3)).map(|v| (dims(&v), v.strides()[0])),
        Ok((vec![2, 1], M / 3 * 3))
    );
    let p = raw(BASE, &[1 << 62, 2, 1], &[2, 1, 1], &[]);
    assert_eq!(
        p.derive(|w| w.index(&[Item::Index(-1), Item::Index(-1)], no_deref)).map(|v| v.data()),
        Ok(BASE + M as usize)
    );
    // Adding the itemsize to the span can still overflow.
    let e = raw(BASE, &[2], &[M - 4], &[]);
    assert_eq!(e.extent(1), Ok((0, M - 3)));
    assert_eq!(e.extent(8), Err(Error::Overflow));
    assert_eq!(e.check_bounds(8, 0, M), Err(Error::Overflow));
    assert_eq!(e.may_overlap(8), Ok(false));
    let e = raw(BASE, &[2, 2], &[M / 2, -(M / 2)], &[]);
    assert_eq!(e.extent(1), Ok((-(M / 2), M / 2 + 1)));
    assert_eq!(e.check_bounds(1, (M / 2) as i128, M), Ok(()));
    // Counts overflow on broadcast views (span 0).
    let big = raw(BASE, &[M, 2], &[0, 0], &[]);
    assert_eq!(big.item_count(), Err(Error::Overflow));
    assert_eq!(big.byte_count(1), Err(Error::Overflow));
    assert_eq!(big.derive(|w| w.reshape(1, &[-1], Order::C)), Err(Error::Overflow));
    // A contiguous view of 1-byte items whose span is exactly MAX has M + 1 items: the count
    // found while checking contiguity overflows too.
    let full = raw(BASE, &[1 << 62, 2], &[2, 1], &[]);
    assert_eq!(full.is_contiguous(1, Order::C, false), Ok(true));
    assert_eq!(full.derive(|w| w.subview(1, 0, &[1], Order::C)), Err(Error::Overflow));
    assert_eq!(full.derive(|w| w.reshape(1, &[-1], Order::C)), Err(Error::Overflow));
    assert_eq!(full.derive(|w| w.reshape(1, &[-1, 2], Order::C)), Err(Error::Overflow));
    // ... but a zero extent makes the count 0 whatever the others.
    let zero = raw(BASE, &[2, M, 0], &[8, 8, 8], &[]);
    assert_eq!(zero.item_count(), Ok(0));
    assert_eq!(zero.byte_count(8), Ok(0));
    assert_eq!(zero.derive(|w| w.reshape(8, &[0], Order::C)).map(|v| dims(&v)), Ok(vec![0]));
    // ... and the M + 1 empty windows of an axis of M positions do not fit.
    assert_eq!(zero.derive(|w| w.sliding_window(1, 0, 1)), Err(Error::Overflow));
    assert_eq!(zero.derive(|w| w.sliding_window(1, 0, 2)).map(|v| dims(&v)), Ok(vec![2, M / 2 + 1, 0, 0]));
    // A zero-size view spans 0 bytes whatever its strides, but moving along a non-empty axis
    // adds offsets: z[:, 2:] moves M - 1 bytes, z[:, 3:] and z[:, 3] do not fit.
    let z = raw(BASE, &[0, 4], &[8, M / 2], &[]);
    assert_eq!(z.derive(|w| w.slice_axis(1, 2, NONE, NONE)).map(|v| v.data()), Ok(BASE + (M - 1) as usize));
    assert_eq!(z.derive(|w| w.slice_axis(1, 3, NONE, NONE)), Err(Error::Overflow));
    assert_eq!(z.derive(|w| w.slice_axis(1, 0, NONE, 3)), Err(Error::Overflow), "stride times step");
    assert_eq!(z.derive(|w| w.index_axis(1, 3, no_deref)), Err(Error::Overflow));
    assert_eq!(
        z.derive(|w| w.index(&[Item::Slice { start: 0, stop: 0, step: 1 }, Item::Index(-1)], no_deref)),
        Err(Error::Overflow)
    );
    // Subviews whose strides or offset overflow: an empty one of a small source, and one past
    // the last of two huge items.
    let small = raw(BASE, &[8], &[8], &[]);
    assert_eq!(small.derive(|w| w.subview(8, 0, &[0, 1 << 62, 4], Order::C)), Err(Error::Overflow));
    assert_eq!(small.derive(|w| w.subview(8, 8, &[0, 1 << 62], Order::F)), Err(Error::Overflow));
    let huge = raw(BASE, &[2], &[1 << 62], &[]);
    assert_eq!(huge.derive(|w| w.subview(1 << 62, 2, &[0], Order::C)), Err(Error::Overflow));
    assert_eq!(huge.derive(|w| w.subview(1 << 62, 1, &[1], Order::C)).map(|v| v.data()), Ok(BASE + (1 << 62)));
    // An empty reshape of a small source, whose strides overflow.
    let empty = raw(BASE, &[0, 4], &[32, 8], &[]);
    assert_eq!(empty.derive(|w| w.reshape(8, &[0, 1 << 62, 4], Order::C)), Err(Error::Overflow));
    assert_eq!(empty.derive(|w| w.reshape(8, &[4, 1 << 62, 0], Order::F)), Err(Error::Overflow));
    // Contiguous layouts whose strides overflow.
    assert_eq!(View::contiguous(BASE, 4, &[1 << 61, 2], Order::C), Err(Error::Overflow));
    assert_eq!(View::contiguous(BASE, 4, &[2, 1 << 61], Order::F), Err(Error::Overflow));
    // Suboffsets moved past MAX.
    let i = raw(BASE, &[2, 3], &[8, 4], &[M - 4, -1]);
    assert_eq!(i.derive(|w| w.slice_axis(1, 2, NONE, NONE)), Err(Error::Overflow));
    assert_eq!(i.derive(|w| w.index_axis(1, 2, no_deref)), Err(Error::Overflow));
    assert_eq!(i.derive(|w| w.slice_axis(1, 1, NONE, NONE)).map(|v| v.suboffsets()[0]), Ok(M));
}

#[test]
fn garbage_index_items_are_errors() {
    let a = View::contiguous(BASE, 8, &[4, 6], Order::C).unwrap();
    assert_eq!(
        a.derive(|w| w.index(&[Item::Index(isize::MIN)], no_deref)),
        Err(Error::Index { index: isize::MIN, axis: 0, len: 4 })
    );
    assert_eq!(
        a.derive(|w| w.index(&[Item::Index(isize::MAX)], no_deref)),
        Err(Error::Index { index: isize::MAX, axis: 0, len: 4 })
    );
    let all = Item::Slice { start: isize::MAX, stop: isize::MIN + 1, step: isize::MIN + 1 };
    assert_eq!(a.derive(|w| w.index(&[all], no_deref)).map(|v| (v.data(), dims(&v))), Ok((BASE + 144, vec![1, 6])));
    assert_eq!(a.derive(|w| w.index(&[Item::NewAxis; 7], no_deref)), Err(Error::TooManyDims { ndim: 9 }));
}
