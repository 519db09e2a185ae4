//! A view's parts borrowed where they are stored, and the steps the derivations that read them
//! there share (moving the origin, slicing or indexing one axis, dropping an axis). The
//! derivations themselves are in the files of their families (`index.rs`, `axes.rs`,
//! `construct.rs`, `reshape.rs`).

use super::bounds::{slice_indices, wrap_index, SourceAxis};
use super::*;

/// A view's parts, borrowed where they are stored (a C caller's `mvs_slice`, or a [`View`]),
/// checked as [`Parts::new`] checks them. Entries past `ndim` never affect a result, so they need
/// not be normalised.
///
/// The hottest derivations (slice and index of one axis, transpose, subview, reshape, basic
/// indexing) read their source from `Parts` and return a new view: the C layer reads the caller's
/// source in place, and the result, built in registers (in memory for basic indexing, see
/// [`Parts::index_usual`]), is written once to the caller's output. Derived in place in a local
/// `View` (which stays in memory, as any array indexed by a variable does) and copied out, a
/// slice, an index and a transpose each measured slower (`make besttime`, when `Parts` was
/// introduced).
#[derive(Clone, Copy)]
pub struct Parts<'a, P, const USUAL: bool = false> {
    pub(super) data: P,
    pub(super) ndim: usize,
    pub(super) shape: &'a [isize; MAX_DIMS],
    pub(super) strides: &'a [isize; MAX_DIMS],
    pub(super) suboffsets: &'a [isize; MAX_DIMS],
    /// Whether [`Parts::new`]'s range test found every axis direct with small extents and
    /// strides: [`Parts::usual`] then gives these parts as `Parts<'_, P, true>`, the fast path.
    /// Read only there, so that no derivation takes a shortcut on parts not found usual.
    found_usual: bool,
    /// Set only by a caller that has checked every axis to be direct (see
    /// [`View::parts_direct`]): false says nothing.
    direct: bool,
}

/// Extents of a usual view are below this: 2^30. A view is *usual* when every axis is direct
/// (suboffset negative), its extent is in `0..MVS_USUAL_EXTENT_LIMIT` and its stride in
/// `-MVS_USUAL_STRIDE_LIMIT..MVS_USUAL_STRIDE_LIMIT`. Then a stride times any number up to its
/// extent is below 2^59 in magnitude and the sum of 8 such products below 2^62, so the fast
/// paths (the library's derivations and small copies, the macros of `mvs_inline.h`) compute
/// offsets, spans and new strides with no overflow test; every other view takes the checked
/// path, with the same results. Views of real memory are almost always usual.
///
/// Exactly twice `MVS_USUAL_STRIDE_LIMIT`, a power of two (asserted at compile time): a stride
/// plus the stride limit is then below this limit, as an unsigned number, exactly when the
/// stride is in range, so one unsigned comparison of the OR of the extents and the biased
/// strides tests every axis at once.
pub const MVS_USUAL_EXTENT_LIMIT: isize = 1 << 30;

/// Strides of a usual view are in `-MVS_USUAL_STRIDE_LIMIT..MVS_USUAL_STRIDE_LIMIT` (2^29):
/// see `MVS_USUAL_EXTENT_LIMIT`.
pub const MVS_USUAL_STRIDE_LIMIT: isize = 1 << 29;

const _: () = assert!(
    MVS_USUAL_EXTENT_LIMIT == 2 * MVS_USUAL_STRIDE_LIMIT
        && MVS_USUAL_EXTENT_LIMIT.count_ones() == 1
        // 8 axes of extent and stride at the limits: the span fits with room to spare.
        && (MVS_USUAL_EXTENT_LIMIT as i128) * (MVS_USUAL_STRIDE_LIMIT as i128) * (MAX_DIMS as i128) <= 1 << 62
);

/// Whether the first `n` axes (of `shape`, `strides`, `suboffsets`) are usual (direct, with
/// extents below [`MVS_USUAL_EXTENT_LIMIT`] and strides in range of
/// [`MVS_USUAL_STRIDE_LIMIT`]): one test, which the derivations then know without looking
/// again. Entries past `n` are cleared through the mask of the axes below it.
#[inline(always)]
fn usual(n: usize, shape: &[isize; MAX_DIMS], strides: &[isize; MAX_DIMS], suboffsets: &[isize; MAX_DIMS]) -> bool {
    let entries = lanes::Entries { shape, strides, suboffsets, keep: &KEEP[n] };
    // Views of up to 4 dimensions (most) need the first 4 entries only. Two calls, each
    // unrolled, rather than one loop of 2 or 4 rounds: measured faster for a source whose `n`
    // is not known at compile time, as in basic indexing (`make icount` guards it).
    let bits = if n <= 4 { entries.range_bits(4) } else { entries.range_bits(MAX_DIMS) };
    bits < MVS_USUAL_EXTENT_LIMIT as usize
}

/// `suboffset` as a result stores it: -1 when negative (every negative suboffset means
/// "direct"), else as it is.
#[inline(always)]
fn stored_suboffset(suboffset: isize) -> isize {
    suboffset | (suboffset >> (isize::BITS - 1))
}

/// Where a derivation moves the element origin: the data address, and the suboffset of an
/// indirect axis when the move lands behind one (PEP 3118); `moved`, the bytes the data
/// address moved by (0 behind an indirect axis).
pub(super) struct Origin<P> {
    data: P,
    suboffset: Option<(usize, isize)>,
    pub(super) moved: isize,
}

impl<'a, P: Addr> Parts<'a, P> {
    /// The parts of a view, checked: `ndim` in `0..=MAX_DIMS`, no negative extent, a span that
    /// fits in `isize` ([`Error::Overflow`] otherwise).
    #[inline(always)]
    pub fn new(
        data: P,
        ndim: isize,
        shape: &'a [isize; MAX_DIMS],
        strides: &'a [isize; MAX_DIMS],
        suboffsets: &'a [isize; MAX_DIMS],
    ) -> Result<Self> {
        let n = check_ndim(ndim)?;
        // Fast in the common case: when the view is usual (every extent below the limit, a
        // negative one is not as an unsigned number, every stride in range), the span is below
        // 8 * 2^59 and fits.
        let usual = usual(n, shape, strides, suboffsets);
        if !usual {
            if let Some(axis) = shape[..n].iter().position(|&len| len < 0) {
                return Err(Error::NegativeDim { axis, len: shape[axis] });
            }
            span(&shape[..n], &strides[..n])?;
        }
        Ok(Parts { data, ndim: n, shape, strides, suboffsets, found_usual: usual, direct: false })
    }
}

impl<'a, P: Addr, const USUAL: bool> Parts<'a, P, USUAL> {
    /// The derivations' fast path: these parts as `Parts<'_, P, true>`, every axis known to be
    /// direct and every extent and stride within the usual limits (every suboffset and
    /// overflow case then folds away at compile time), when [`Parts::new`] found them so;
    /// `None` otherwise. The only way to the fast path: it cannot be taken on parts that were
    /// not found usual.
    #[inline(always)]
    pub(crate) fn usual(&self) -> Option<Parts<'a, P, true>> {
        let Parts { data, ndim, shape, strides, suboffsets, .. } = *self;
        (USUAL || self.found_usual).then_some(Parts {
            data,
            ndim,
            shape,
            strides,
            suboffsets,
            found_usual: true,
            direct: true,
        })
    }

    /// The number of dimensions.
    #[inline(always)]
    pub(crate) fn ndim(&self) -> usize {
        self.ndim
    }

    /// Whether every axis is known to be direct (on the fast path, or checked by the caller);
    /// false says nothing.
    #[inline(always)]
    pub(super) fn known_direct(&self) -> bool {
        USUAL || self.direct
    }

    /// Whether every extent and stride is known to be within the usual limits (on the fast path
    /// only, see [`MVS_USUAL_EXTENT_LIMIT`]): a stride times a number up to its extent is then below 2^59 in
    /// magnitude, with no overflow to check. False says nothing.
    #[inline(always)]
    pub(super) const fn known_small(&self) -> bool {
        USUAL
    }

    /// The view these parts describe: entries past `ndim` cleared, negative suboffsets -1 (all
    /// suboffsets -1, not read, when every axis is known to be direct); each axis gathered in
    /// place ([`Parts::gather`]).
    #[inline(always)]
    pub fn view(&self) -> View<P> {
        self.gather(self.ndim, |i| i)
    }

    /// Whether every axis is direct: known, or a branch-free test of the sign of the AND of
    /// the suboffsets, those past `ndim` counting as -1.
    #[inline(always)]
    pub(super) fn all_direct(&self) -> bool {
        if self.known_direct() {
            return true;
        }
        let keep = &KEEP[self.ndim];
        // A loop, not `fold`: the compiler leaves `fold` out of line in the larger operations.
        let mut all = -1;
        for (&s, &k) in self.suboffsets.iter().zip(keep) {
            all &= s | !k;
        }
        all < 0
    }

    /// The axis `axis` names, counting negatives from the end.
    #[inline(always)]
    pub(super) fn axis(&self, axis: isize) -> Result<usize> {
        normalize_axis(axis, self.ndim)
    }

    /// The number of items (checked) when the view is contiguous in `order` (NumPy's relaxed
    /// rule, or Cython's strict one: see [`View::is_contiguous`]), `None` otherwise; every axis
    /// must be direct ([`Parts::direct`]).
    #[inline(always)]
    pub(super) fn contiguous_items(&self, itemsize: isize, order: Order, strict: bool) -> Option<Result<isize>> {
        let (shape, strides) = (&self.shape[..self.ndim], &self.strides[..self.ndim]);
        match chain(shape, strides, itemsize, order, strict, self.known_small()) {
            // The relaxed rule takes every zero-size view as contiguous.
            None => (!strict && shape.contains(&0)).then_some(Ok(0)),
            Some((Some(_), count)) => Some(Ok(count)),
            Some((None, _)) => Some(product(shape)),
        }
    }

    /// These parts, known to be direct: an error when an axis is indirect.
    #[inline(always)]
    pub(super) fn direct(&self) -> Result<Self> {
        if self.all_direct() {
            return Ok(Parts { direct: true, ..*self });
        }
        match self.suboffsets[..self.ndim].iter().position(|&s| s >= 0) {
            Some(axis) => Err(Error::Indirect { axis }),
            None => Ok(Parts { direct: true, ..*self }),
        }
    }

    /// The suboffset of `axis` as a result that keeps the axis stores it: -1 when direct (not
    /// read when every axis is known to be direct).
    #[inline(always)]
    pub(super) fn kept_suboffset(&self, axis: usize) -> isize {
        if self.known_direct() {
            -1
        } else {
            stored_suboffset(self.suboffsets[axis])
        }
    }

    /// The description of `axis` that indexing needs, with its suboffset as a result keeps it
    /// (-1, not read, when every axis is known to be direct: the indirect paths then fold away).
    #[inline(always)]
    pub(super) fn source_axis(&self, axis: usize) -> SourceAxis {
        let suboffset = self.kept_suboffset(axis);
        let (len, stride, small) = (self.shape[axis], self.strides[axis], self.known_small());
        SourceAxis { axis, len, stride, suboffset, small }
    }

    /// The origin moved by `bytes` along `axis`: the data address, or, behind an indirect
    /// axis, that axis's suboffset (PEP 3118).
    #[inline(always)]
    fn shifted(&self, axis: usize, bytes: isize) -> Result<Origin<P>> {
        let behind = if self.all_direct() { None } else { self.suboffsets[..axis].iter().rposition(|&s| s >= 0) };
        Ok(match behind {
            Some(j) => match self.suboffsets[j].checked_add(bytes).ok_or(Error::Overflow)? {
                // PEP 3118 reads a negative suboffset as "direct": it cannot hold this offset.
                s if s < 0 => return Err(Error::NegativeSuboffset { axis: j }),
                s => Origin { data: self.data, suboffset: Some((j, s)), moved: 0 },
            },
            None => Origin { data: self.data.byte_offset(bytes), suboffset: None, moved: bytes },
        })
    }

    /// The origin moved to position `index` of `src`, an axis that sits at position `at` of
    /// these parts (all axes before `at` are these parts' own). An indirect axis is
    /// dereferenced, which is possible only when no axis comes before it.
    #[inline(always)]
    pub(super) fn indexed(
        &self,
        at: usize,
        src: SourceAxis,
        index: isize,
        mut deref: impl FnMut(P) -> P,
    ) -> Result<Origin<P>> {
        let i = wrap_index(index, src.axis, src.len)?;
        if src.suboffset >= 0 && at > 0 {
            return Err(Error::Indirect { axis: src.axis });
        }
        let mut origin = self.shifted(at, src.stride_times(i)?)?;
        if src.suboffset >= 0 {
            origin.data = deref(origin.data).byte_offset(src.suboffset);
        }
        Ok(origin)
    }

    /// The slice `start:stop:step` of `src`, an axis that sits at position `at` of these parts:
    /// the origin moved to its first position, its length and its stride. A result of length 0
    /// keeps the origin; a result of length 0 or 1 keeps the source stride.
    #[inline(always)]
    pub(super) fn sliced(
        &self,
        at: usize,
        src: SourceAxis,
        start: isize,
        stop: isize,
        step: isize,
    ) -> Result<(Origin<P>, isize, isize)> {
        let (first, count, step) = slice_indices(src.len, start, stop, step)?;
        // With more than one position, the step is shorter than the axis.
        let stride = if count > 1 { src.stride_times(step)? } else { src.stride };
        let origin = if count > 0 {
            self.shifted(at, src.stride_times(first)?)?
        } else {
            Origin { data: self.data, suboffset: None, moved: 0 }
        };
        Ok((origin, count, stride))
    }

    /// The view without `axis` (below `ndim`), later axes shifted down.
    #[inline(always)]
    pub(super) fn without_axis(&self, axis: usize) -> View<P> {
        self.gather(self.ndim - 1, |i| i + (i >= axis) as usize)
    }

    /// The view of `ndim` axes at the same address whose entry `i` is entry `from(i)` of these
    /// parts (taken modulo 8; what lies past `ndim` is masked off): each entry gathered from
    /// where the parts are stored, so that the result's arrays stay in registers (written at
    /// variable indices, they would live in memory, and copying them out would stall on store
    /// forwarding). Suboffsets are all -1, not read, when every axis is known to be direct.
    #[inline(always)]
    pub(super) fn gather(&self, ndim: usize, from: impl Fn(usize) -> usize) -> View<P> {
        let keep = &KEEP[ndim];
        let mut v =
            View { data: self.data, ndim, shape: [0; MAX_DIMS], strides: [0; MAX_DIMS], suboffsets: [-1; MAX_DIMS] };
        // A loop over fixed positions, unrolled: `core::array::from_fn` is left out of line once
        // its closure grows.
        for (i, &keep) in keep.iter().enumerate() {
            let f = from(i) & (MAX_DIMS - 1);
            v.shape[i] = self.shape[f] & keep;
            v.strides[i] = self.strides[f] & keep;
            if !self.known_direct() {
                v.suboffsets[i] = stored_suboffset(self.suboffsets[f]) | !keep;
            }
        }
        v
    }
}

impl<P: Addr> View<P> {
    /// This view's parts, borrowed.
    #[inline(always)]
    pub fn parts(&self) -> Parts<'_, P> {
        let found_usual = usual(self.ndim, &self.shape, &self.strides, &self.suboffsets);
        Parts { found_usual, ..self.parts_direct(false) }
    }

    /// [`View::parts`], telling them whether every axis is known to be direct: true only when
    /// the caller checked it, false when unknown (and nothing known of their size).
    #[inline(always)]
    pub(super) fn parts_direct(&self, direct: bool) -> Parts<'_, P> {
        Parts {
            data: self.data,
            ndim: self.ndim,
            shape: &self.shape,
            strides: &self.strides,
            suboffsets: &self.suboffsets,
            found_usual: false,
            direct,
        }
    }

    /// Moves the element origin to `origin`, writing a suboffset in place.
    #[inline(always)]
    pub(super) fn move_origin(&mut self, origin: Origin<P>) {
        self.data = origin.data;
        if let Some((axis, suboffset)) = origin.suboffset {
            self.suboffsets[axis] = suboffset;
        }
    }

    /// [`View::move_origin`] for a view in registers (the result of a [`Parts`] derivation): a
    /// suboffset is set through masks on every entry, since writing at a variable index would
    /// move the whole array to memory.
    #[inline(always)]
    pub(super) fn with_origin(mut self, origin: Origin<P>) -> Self {
        self.data = origin.data;
        if let Some((axis, suboffset)) = origin.suboffset {
            let (below, upto) = (&KEEP[axis], &KEEP[axis + 1]);
            self.suboffsets = core::array::from_fn(|i| {
                let at = below[i] ^ upto[i];
                (self.suboffsets[i] & !at) | (suboffset & at)
            });
        }
        self
    }
}

/// A view with one axis still to set: the result of [`Parts::slice_axis`]. Stored first and
/// then set in place, nothing is read back from an array just written at a variable index: set
/// on the local view before it is copied out, the copy stalls on store forwarding (measured on
/// a slice, `make besttime`).
pub struct WithAxis<P> {
    pub(crate) view: View<P>,
    pub(crate) axis: usize,
    pub(crate) len: isize,
    pub(crate) stride: isize,
}

impl<P: Addr> From<WithAxis<P>> for View<P> {
    fn from(w: WithAxis<P>) -> Self {
        w.into_view()
    }
}

impl<P: Addr> WithAxis<P> {
    /// The finished view.
    #[inline(always)]
    pub fn into_view(self) -> View<P> {
        let mut v = self.view;
        v.shape[self.axis] = self.len;
        v.strides[self.axis] = self.stride;
        v
    }
}

/// The contiguity walk: from the innermost axis in `order`, each axis (with `strict`, Cython's
/// rule, every one; else, NumPy's, each not of length 1) must have for stride the bytes of the
/// axes inside it, `itemsize` for the innermost. `None` when an axis does not chain; else the
/// bytes of the whole (`None` when their product overflows, unless `small` says that no stride
/// times its extent can) and the item count (exact when the bytes are: a zero extent makes
/// both 0; otherwise every partial count is below the bytes).
#[inline(always)]
pub(super) fn chain(
    shape: &[isize],
    strides: &[isize],
    itemsize: isize,
    order: Order,
    strict: bool,
    small: bool,
) -> Option<(Option<isize>, isize)> {
    let n = shape.len();
    // `None` once the product overflows isize: it then equals no stride.
    let (mut bytes, mut count) = (Some(itemsize), 1isize);
    // A loop over positions, not `all` over a closure: the compiler leaves the closure out of
    // line once `derivation!` compiles its caller for each number of dimensions.
    for k in 0..n {
        let axis = match order {
            Order::C => n - 1 - k,
            Order::F => k,
        };
        let (len, stride) = (shape[axis], strides[axis]);
        count = count.wrapping_mul(len);
        if strict || len != 1 {
            if bytes != Some(stride) {
                return None;
            }
            bytes = if small { Some(stride.wrapping_mul(len)) } else { stride.checked_mul(len) };
        }
    }
    Some((bytes, count))
}
