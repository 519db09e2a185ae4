//! [`Parts`] read the view where it is stored, which need not be normalised: whatever lies past
//! `ndim` and whichever negative suboffset marks a direct axis, a derivation of the parts gives
//! what the same derivation of the normalised view gives, errors included. (What that is, is
//! checked against the model through the `View` operations, which derive through `Parts`.)

use super::indirect::{arb_indirect, fake_deref};
use super::*;

/// `v`'s arrays as a C caller may store them: `junk` past `ndim` (8 entries for each array) and
/// `neg[i]` for each negative suboffset.
fn stored(v: &V, junk: &[isize], neg: &[isize]) -> [[isize; MAX_DIMS]; 3] {
    let (mut shape, mut strides, mut suboffsets) = (*v.shape(), *v.strides(), *v.suboffsets());
    for i in v.ndim()..MAX_DIMS {
        (shape[i], strides[i], suboffsets[i]) = (junk[i], junk[MAX_DIMS + i], junk[2 * MAX_DIMS + i]);
    }
    for i in 0..v.ndim() {
        if suboffsets[i] < 0 {
            suboffsets[i] = neg[i];
        }
    }
    [shape, strides, suboffsets]
}

proptest! {
    #![proptest_config(config(2048))]

    #[test]
    fn parts_ignore_what_lies_past_ndim(
        v in prop_oneof![arb_view(0..=8).prop_map(|(v, _)| v), arb_indirect()],
        junk in prop::collection::vec(any::<isize>(), 3 * MAX_DIMS),
        neg in prop::collection::vec(isize::MIN..0, MAX_DIMS),
        axis in -9..=9isize,
        (start, stop, step) in (arb_bound(), arb_bound(), arb_step()),
        index in -6..=6isize,
        items in prop::collection::vec(super::indexing::arb_item(), 0..=5),
    ) {
        let [shape, strides, suboffsets] = stored(&v, &junk, &neg);
        let p = Parts::new(v.data(), v.ndim() as isize, &shape, &strides, &suboffsets).unwrap();
        prop_assert_eq!(p.view(), v);
        prop_assert_eq!(
            p.slice_axis(axis, start, stop, step).map(WithAxis::into_view),
            v.derive(|w| w.slice_axis(axis, start, stop, step))
        );
        prop_assert_eq!(p.index_axis(axis, index, fake_deref), v.derive(|w| w.index_axis(axis, index, fake_deref)));
        prop_assert_eq!(p.transpose(), v.derive(|w| w.transpose()));
        prop_assert_eq!(super::index(&p, &items, fake_deref), v.derive(|w| w.index(&items, fake_deref)));
    }
}

proptest! {
    #![proptest_config(config(4096))]

    /// The test of [`Parts::new`] two entries at a time gives what it gives one at a time.
    #[test]
    fn range_bits_pairwise_is_range_bits_scalar(
        shape in prop::array::uniform8(arb_edge()),
        strides in prop::array::uniform8(arb_edge()),
        suboffsets in prop::array::uniform8(arb_edge()),
        ndim in 0..=MAX_DIMS,
        entries in prop::sample::select(vec![4, MAX_DIMS]),
    ) {
        let e = lanes::Entries { shape: &shape, strides: &strides, suboffsets: &suboffsets, keep: &KEEP[ndim] };
        prop_assert_eq!(e.range_bits(entries), e.range_bits_scalar(entries));
    }
}
