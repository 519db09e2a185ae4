//! The kernels over a byte vector, against a model that reads every source item into a list
//! first and then writes each destination item, index by index: random views of one arena,
//! overlapping or not, of every path (runs, tiles, strided, small, through a temporary).

use proptest::prelude::*;

use super::*;

/// Memory as a byte vector, addresses its indices; temporaries are appended past the views.
struct Arena(Vec<u8>);

impl Memory<usize> for Arena {
    fn move_bytes(&mut self, dst: usize, src: usize, nbytes: usize) {
        self.0.copy_within(src..src + nbytes, dst);
    }
    fn load<const N: usize>(&mut self, src: usize) -> [u8; N] {
        self.0[src..src + N].try_into().unwrap()
    }
    fn copy_items<const N: usize>(&mut self, dst: usize, dst_step: isize, src: usize, src_step: isize, count: usize) {
        for i in 0..count as isize {
            let item: [u8; N] = self.load(src.byte_offset(i * src_step));
            let d = dst.byte_offset(i * dst_step);
            self.0[d..d + N].copy_from_slice(&item);
        }
    }
    fn fill_items<const N: usize>(&mut self, dst: usize, step: isize, item: [u8; N], count: usize) {
        for i in 0..count as isize {
            let d = dst.byte_offset(i * step);
            self.0[d..d + N].copy_from_slice(&item);
        }
    }
    fn set_bytes(&mut self, dst: usize, byte: u8, nbytes: usize) {
        self.0[dst..dst + nbytes].fill(byte);
    }
    fn read_into(&mut self, src: usize, out: &mut [u8]) {
        out.copy_from_slice(&self.0[src..src + out.len()]);
    }
    fn write_from(&mut self, dst: usize, bytes: &[u8]) {
        self.0[dst..dst + bytes.len()].copy_from_slice(bytes);
    }
    fn alloc(&mut self, nbytes: usize) -> Option<usize> {
        let at = self.0.len();
        self.0.resize(at + nbytes, 0xEE);
        Some(at)
    }
    fn free(&mut self, p: usize, nbytes: usize) {
        assert_eq!(p + nbytes, self.0.len(), "temporaries are freed last in, first out");
        self.0.truncate(p);
    }
    fn position(&self, p: usize) -> usize {
        p
    }
}

const ARENA: usize = 4096;

/// A view of the arena: `ndim` axes with random extents and strides (any sign, some 0 when
/// `zero_strides`), placed so that every item lies inside it.
fn view_in(itemsize: isize, zero_strides: bool) -> impl Strategy<Value = View<usize>> {
    (0usize..=4).prop_flat_map(move |ndim| {
        let axis = (0isize..5, -40isize..40, 0u8..8);
        (prop::collection::vec(axis, ndim), 0usize..ARENA).prop_map(move |(axes, at)| {
            let shape: Vec<isize> = axes.iter().map(|a| a.0).collect();
            let strides: Vec<isize> = axes
                .iter()
                .map(|&(_, s, z)| if zero_strides && z == 0 { 0 } else { s * itemsize / 4 + s.signum() * itemsize })
                .collect();
            let v = View::strided(0usize, itemsize, &shape, &strides).unwrap();
            let (lo, hi) = v.extent(itemsize).unwrap();
            let room = ARENA as isize - (hi - lo);
            let at = if room > 0 { at as isize % room - lo } else { -lo };
            View::strided(at as usize, itemsize, &shape, &strides).unwrap()
        })
    })
}

/// Every index of `shape`, the last fastest.
fn indices(shape: &[isize]) -> Vec<Vec<isize>> {
    let mut out = vec![vec![]];
    for &len in shape {
        out = out.into_iter().flat_map(|i| (0..len).map(move |k| [i.clone(), vec![k]].concat())).collect();
    }
    out
}

fn address(v: &View<usize>, index: &[isize]) -> usize {
    let offset: isize = index.iter().zip(v.strides()).map(|(i, s)| i * s).sum();
    v.data().byte_offset(offset)
}

/// The model of [`copy`]: the source items read first, then written in index order, the
/// source index of each destination index found by broadcasting.
fn model_copy(bytes: &mut [u8], src: &View<usize>, dst: &View<usize>, itemsize: isize) {
    let n = itemsize as usize;
    let (ds, ss) = (&dst.shape()[..dst.ndim()], &src.shape()[..src.ndim()]);
    let items: Vec<Vec<u8>> = indices(ds)
        .iter()
        .map(|i| {
            let si: Vec<isize> =
                (0..ss.len()).map(|a| if ss[a] == 1 { 0 } else { i[i.len() + a - ss.len()] }).collect();
            let at = address(src, &si);
            bytes[at..at + n].to_vec()
        })
        .collect();
    for (i, item) in indices(ds).iter().zip(items) {
        let at = address(dst, i);
        bytes[at..at + n].copy_from_slice(&item);
    }
}

/// Whether distinct items of `v` that are not one item (through a stride 0) overlap: writes
/// to them depend on their order, which the kernels do not promise.
fn writes_overlap(v: &View<usize>, itemsize: isize) -> bool {
    let n = v.ndim();
    let shape: Vec<isize> =
        (0..n).map(|a| if v.strides()[a] == 0 { v.shape()[a].min(1) } else { v.shape()[a] }).collect();
    View::strided(v.data(), itemsize, &shape, &v.strides()[..n]).unwrap().may_overlap(itemsize).unwrap()
}

fn stored(v: &View<usize>) -> Stored<'_, usize> {
    Stored { data: v.data(), shape: v.shape(), strides: v.strides(), suboffsets: v.suboffsets() }
}

fn arena(seed: u8) -> Arena {
    Arena((0..ARENA).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect())
}

fn itemsizes() -> impl Strategy<Value = isize> {
    prop::sample::select(vec![1isize, 2, 3, 4, 8, 12, 16])
}

proptest! {
    #![proptest_config(ProptestConfig {
        max_global_rejects: 1 << 20,
        ..crate::view::tests::config_with(3000, 24)
    })]

    #[test]
    fn copy_matches_the_model(
        (itemsize, src, dst) in itemsizes().prop_flat_map(|i| (Just(i), view_in(i, true), view_in(i, false))),
        same_shape in any::<bool>(), seed in any::<u8>(),
    ) {
        // Half the cases take the destination's shape, so most of them copy.
        let src = if same_shape && src.ndim() == dst.ndim() {
            let strides = &src.strides()[..src.ndim()];
            let v = View::strided(src.data(), itemsize, &dst.shape()[..dst.ndim()], strides).unwrap();
            let (lo, hi) = v.extent(itemsize).unwrap();
            let inside = src.data() as isize + lo >= 0 && src.data() as isize + hi <= ARENA as isize;
            if inside { v } else { src }
        } else {
            src
        };
        prop_assume!(!writes_overlap(&dst, itemsize));
        let mut mem = arena(seed);
        let mut want = mem.0.clone();
        let broadcasts = broadcast(&src, &dst).is_ok();
        let aliased = !dst.is_empty() && (0..dst.ndim()).any(|a| dst.strides()[a] == 0 && dst.shape()[a] > 1);
        let n = if src.ndim() == dst.ndim() { src.ndim() } else { 9 };
        let small = copy_small(&mut mem, stored(&src), stored(&dst), n, itemsize);
        let result = if small { Ok(()) } else { copy(&mut mem, &src, &dst, itemsize) };
        match result {
            Ok(()) => {
                prop_assert!(broadcasts && !aliased);
                model_copy(&mut want, &src, &dst, itemsize);
                prop_assert!(mem.0 == want, "{:?} into {:?}", src, dst);
            }
            Err(Error::AliasedDestination { .. }) => prop_assert!(aliased && broadcasts && mem.0 == want),
            Err(e) => prop_assert!(!broadcasts && mem.0 == want, "{e}"),
        }
    }

    #[test]
    fn fill_matches_the_model(
        (itemsize, dst) in itemsizes().prop_flat_map(|i| (Just(i), view_in(i, true))),
        seed in any::<u8>(), inside in any::<bool>(), uniform in any::<bool>(),
    ) {
        prop_assume!(!writes_overlap(&dst, itemsize));
        let mut mem = arena(seed);
        let n = itemsize as usize;
        // The item in the view itself, or past the arena; all bytes equal or not.
        let item = match (inside && !dst.is_empty(), uniform) {
            (true, _) => dst.data(),
            (false, u) => {
                let at = mem.alloc(n).unwrap();
                for k in 0..n {
                    mem.0[at + k] = if u { seed } else { seed.wrapping_add(k as u8) };
                }
                at
            }
        };
        let value = mem.0[item..item + n].to_vec();
        let mut want = mem.0.clone();
        fill(&mut mem, &dst, itemsize, item).unwrap();
        for i in indices(&dst.shape()[..dst.ndim()]) {
            let at = address(&dst, &i);
            want[at..at + n].copy_from_slice(&value);
        }
        prop_assert!(mem.0 == want, "{:?}", dst);
    }
}

/// The large cases: a transposed copy big enough for tiles (and its edges), a contiguous run,
/// and an overlapping in-place transpose (through the temporary).
#[test]
fn tiles_runs_and_in_place_transpose() {
    for (rows, cols) in [(70isize, 45isize), (33, 64), (1, 100)] {
        let (r, c) = (rows as usize, cols as usize);
        let mut mem = Arena((0..2 * r * c * 8).map(|i| (i % 251) as u8).collect());
        let src = View::strided(0usize, 8, &[rows, cols], &[8, rows * 8]).unwrap();
        let dst = View::strided(r * c * 8, 8, &[rows, cols], &[cols * 8, 8]).unwrap();
        let mut want = mem.0.clone();
        model_copy(&mut want, &src, &dst, 8);
        copy(&mut mem, &src, &dst, 8).unwrap();
        assert!(mem.0 == want, "{rows}x{cols}");
    }
    let mut mem = Arena((0..40 * 40 * 8).map(|i| (i % 253) as u8).collect());
    let a = View::strided(0usize, 8, &[40, 40], &[320, 8]).unwrap();
    let t = View::strided(0usize, 8, &[40, 40], &[8, 320]).unwrap();
    let mut want = mem.0.clone();
    let before = want.clone();
    model_copy(&mut want, &t, &a, 8);
    // The model reads every item first, so it is the temporary's semantics.
    assert_ne!(want, before);
    copy(&mut mem, &t, &a, 8).unwrap();
    assert!(mem.0 == want);
    assert_eq!(mem.0.len(), 40 * 40 * 8, "the temporary was freed");
}

/// NumPy 2.4.6 gets this one wrong in place (`[0 1 1 3 1 5 3 7]`).
#[test]
fn overlapping_strided_assignment_reads_the_source_first() {
    let mut mem = Arena((0..8u8).flat_map(|i| [i, 0, 0, 0, 0, 0, 0, 0]).collect());
    let dst = View::strided(0usize, 8, &[4], &[16]).unwrap();
    let src = View::strided(0usize, 8, &[4], &[8]).unwrap();
    copy(&mut mem, &src, &dst, 8).unwrap();
    let values: Vec<u8> = mem.0.chunks(8).map(|c| c[0]).collect();
    assert_eq!(values, [0, 1, 1, 3, 2, 5, 3, 7]);
}
