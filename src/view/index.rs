//! Slicing, indexing and flipping, with Python's and NumPy's semantics and PEP 3118 suboffsets.

use core::borrow::Borrow;

use super::parts::Origin;
use super::*;

/// One item of a basic index (NumPy's `a[...]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// An integer: selects one position and drops the axis.
    Index(isize),
    /// `start:stop:step`, each possibly [`NONE`].
    Slice { start: isize, stop: isize, step: isize },
    /// `np.newaxis`: inserts an axis of length 1.
    NewAxis,
    /// `...`: as many full slices as the other items leave axes.
    Ellipsis,
}

impl Item {
    /// Whether the item consumes a source axis, and whether it adds an axis to the result (an
    /// ellipsis does neither by itself).
    #[inline(always)]
    fn effect(&self) -> (bool, bool) {
        match self {
            Item::Index(_) => (true, false),
            Item::Slice { .. } => (true, true),
            Item::NewAxis => (false, true),
            Item::Ellipsis => (false, false),
        }
    }
}

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// `self[..., start:stop:step, ...]` on `axis`, with Python's semantics. A result of length
    /// 0 keeps the data address; a result of length 0 or 1 keeps the source stride.
    #[inline(always)]
    pub fn slice_axis(&self, axis: isize, start: isize, stop: isize, step: isize) -> Result<WithAxis<P>> {
        let axis = self.axis(axis)?;
        // Derived on two paths, split once on what `Parts::new` found: on the usual one,
        // suboffsets are known to be -1 and the indirect cases fold away. With the test's result
        // kept as a flag, its uses were not folded; split on whether every axis is direct
        // (known, or tested), basic indexing measured slower (`make icount` guards it).
        match self.usual() {
            Some(usual) => usual.slice_axis_at(axis, start, stop, step),
            None => self.slice_axis_at(axis, start, stop, step),
        }
    }

    /// [`Parts::slice_axis`] of axis `axis`, in range.
    #[inline(always)]
    fn slice_axis_at(&self, axis: usize, start: isize, stop: isize, step: isize) -> Result<WithAxis<P>> {
        let (origin, len, stride) = self.sliced(axis, self.source_axis(axis), start, stop, step)?;
        Ok(WithAxis { view: self.view().with_origin(origin), axis, len, stride })
    }

    /// `self[..., index, ...]` on `axis`: the axis is dropped. An indirect axis can be indexed
    /// only when it is the first; the data address then becomes `deref(address) + suboffset`.
    #[inline(always)]
    pub fn index_axis(&self, axis: isize, index: isize, deref: impl FnMut(P) -> P) -> Result<View<P>> {
        let axis = self.axis(axis)?;
        // Two paths, as in `slice_axis`.
        match self.usual() {
            Some(usual) => usual.index_axis_at(axis, index, deref),
            None => self.index_axis_at(axis, index, deref),
        }
    }

    /// [`Parts::index_axis`] of axis `axis`, in range.
    #[inline(always)]
    fn index_axis_at(&self, axis: usize, index: isize, deref: impl FnMut(P) -> P) -> Result<View<P>> {
        let origin = self.indexed(axis, self.source_axis(axis), index, deref)?;
        Ok(self.without_axis(axis).with_origin(origin))
    }

    /// `self[..., ::-1, ...]` on `axis`. Direct views only.
    #[inline(always)]
    pub fn flip_axis(&self, axis: isize) -> Result<WithAxis<P>> {
        let axis = self.axis(axis)?;
        let p = self.direct()?;
        let (offset, stride) = p.flipped(axis)?;
        let view = View { data: self.data.byte_offset(offset), ..p.view() };
        Ok(WithAxis { view, axis, len: self.shape[axis], stride })
    }

    /// Every axis reversed. Direct views only.
    #[inline(always)]
    pub fn flip(&self) -> Result<View<P>> {
        let p = self.direct()?;
        let mut moved = 0isize;
        for axis in 0..self.ndim {
            // The total move is checked too: in a zero-size view it may pass `isize` when no
            // single axis's does (not on the fast path: each move is below 2^59 there).
            let (offset, _) = p.flipped(axis)?;
            moved = if self.known_small() { moved.wrapping_add(offset) } else { add(moved, offset)? };
        }
        let view = p.view();
        // Every stride reversed (each negation checked by `flipped` above), at fixed indices.
        let strides =
            core::array::from_fn(|i| if view.shape[i] > 1 { view.strides[i].wrapping_neg() } else { view.strides[i] });
        Ok(View { data: self.data.byte_offset(moved), strides, ..view })
    }

    /// The bytes by which reversing `axis` moves the data address, and its stride reversed
    /// (both unchanged when the axis has one position or none).
    #[inline(always)]
    fn flipped(&self, axis: usize) -> Result<(isize, isize)> {
        let src = self.source_axis(axis);
        if src.len <= 1 {
            return Ok((0, src.stride));
        }
        let reversed =
            if self.known_small() { -src.stride } else { src.stride.checked_neg().ok_or(Error::Overflow)? };
        Ok((src.stride_times(src.len - 1)?, reversed))
    }

    /// NumPy's basic indexing `self[items]`: integers, slices, new axes and at most one
    /// ellipsis (an implicit one at the end when absent), indirect axes as in
    /// [`Parts::slice_axis`] and [`Parts::index_axis`]; the result is built in `out`, a view with
    /// no axis ([`View::empty`], at any address). The result is built at variable indices, so it
    /// lives in memory: the C layer writes `out` from where it was built.
    ///
    /// This is the first of two passes, for a usual source (every axis direct and small, as
    /// [`Parts::new`] tests) and items with no ellipsis (which needs the count of the items
    /// after it): each item checked as it comes. False, with `out` emptied, for any other source
    /// or items, and on any failure, which may not be the first error in NumPy's order:
    /// [`Parts::index_checked`] then reports it. One pass measured faster than counting the
    /// items first (`make icount` guards it).
    #[inline(always)]
    pub fn index_usual(
        &self,
        items: impl IntoIterator<Item: Borrow<Item>>,
        deref: impl FnMut(P) -> P,
        out: &mut View<P>,
    ) -> bool {
        let Some(usual) = self.usual() else { return false };
        out.data = self.data;
        if let Ok(true) = usual.build_index(items.into_iter(), deref, None, true, true, out) {
            return true;
        }
        *out = View::empty(self.data);
        false
    }

    /// [`Parts::index_usual`] for any source and items, in two passes over `items` (so any
    /// cloneable iterator of items or item references will do): the items are counted and
    /// checked as NumPy does (several ellipses, too many indices, too many dimensions are
    /// reported before any bad index), then applied. `out`'s content is unspecified on error.
    #[inline(always)]
    pub fn index_checked(
        &self,
        items: impl IntoIterator<Item: Borrow<Item>, IntoIter: Clone>,
        deref: impl FnMut(P) -> P,
        out: &mut View<P>,
    ) -> Result<()> {
        let items = items.into_iter();
        let (mut consumed, mut added, mut ellipses) = (0usize, 0usize, 0usize);
        for item in items.clone() {
            let (consumes, adds) = item.borrow().effect();
            consumed += consumes as usize;
            added += adds as usize;
            ellipses += matches!(item.borrow(), Item::Ellipsis) as usize;
        }
        if ellipses > 1 {
            return Err(Error::MultipleEllipsis);
        }
        if consumed > self.ndim {
            return Err(Error::TooManyIndices { ndim: self.ndim, given: consumed });
        }
        // The result is built axis by axis; `axis` is the next source axis to consume. An
        // ellipsis (explicit, or implicit at the end) keeps the `rest` axes it stands for.
        let rest = self.ndim - consumed;
        let out_ndim = rest + added;
        if out_ndim > MAX_DIMS {
            return Err(Error::TooManyDims { ndim: out_ndim });
        }
        out.data = self.data;
        // `out` has the source's axes or new ones: it is direct when the source is. The build
        // is specialised for usual sources (as in `slice_axis`), where no suboffset moves.
        let built = match self.usual() {
            Some(usual) => usual.build_index(items, deref, Some(rest), ellipses == 0, true, out),
            None => self.build_index(items, deref, Some(rest), ellipses == 0, self.all_direct(), out),
        };
        built.map(|_| ())
    }

    /// The result of `items`, built axis by axis in `out` (a view with no axis at the source's
    /// address): `rest` source axes stand for the ellipsis, which is `implicit` at the end when
    /// no item is one; `direct` tells whether every source axis is known to be direct (true),
    /// or may not be (false). With `rest` known, the items have been counted and checked;
    /// without it (`None`), each is checked here, and false tells that `items` hold an ellipsis
    /// or do not fit the source (`out` then holds part of a result).
    #[inline(always)]
    fn build_index<I>(
        &self,
        items: I,
        mut deref: impl FnMut(P) -> P,
        rest: Option<usize>,
        implicit: bool,
        direct: bool,
        out: &mut View<P>,
    ) -> Result<bool>
    where
        I: Iterator,
        I::Item: Borrow<Item>,
    {
        // The data address's total move, checked for sources whose extents or strides are not
        // known to be small: in a zero-size view, the moves along its other axes may add up
        // past `isize` (in any other, they stay within its span, which fits).
        let (mut axis, mut moved) = (0, 0isize);
        let mut track = |origin: &Origin<P>| -> Result<()> {
            if !self.known_small() {
                moved = moved.checked_add(origin.moved).ok_or(Error::Overflow)?;
            }
            Ok(())
        };
        for item in items {
            let at = out.ndim;
            if rest.is_none() {
                // Unchecked items: a source axis must be left for one that consumes one, and
                // room in `out` for one that adds one. (Tested with `>=`, not `==`, the compiler
                // knows the positions to be in bounds and drops its own checks.)
                let (consumes, adds) = item.borrow().effect();
                if (consumes && axis >= self.ndim) || (adds && at >= MAX_DIMS) {
                    return Ok(false);
                }
            }
            match *item.borrow() {
                Item::Index(i) => {
                    let origin = out.parts_direct(direct).indexed(at, self.source_axis(axis), i, &mut deref)?;
                    track(&origin)?;
                    out.move_origin(origin);
                    axis += 1;
                }
                Item::Slice { start, stop, step } => {
                    let (origin, len, stride) =
                        out.parts_direct(direct).sliced(at, self.source_axis(axis), start, stop, step)?;
                    track(&origin)?;
                    out.move_origin(origin);
                    out.push_axis(len, stride, self.kept_suboffset(axis));
                    axis += 1;
                }
                Item::NewAxis => out.push_axis(1, 0, -1),
                Item::Ellipsis => match rest {
                    Some(rest) => axis = self.keep_axes(axis, rest, out),
                    None => return Ok(false),
                },
            }
        }
        if implicit {
            let rest = rest.unwrap_or(self.ndim - axis);
            if out.ndim + rest > MAX_DIMS {
                return Ok(false);
            }
            self.keep_axes(axis, rest, out);
        }
        Ok(true)
    }

    /// Appends `count` axes from `axis` on to `out`; the next axis.
    #[inline(always)]
    fn keep_axes(&self, axis: usize, count: usize, out: &mut View<P>) -> usize {
        for a in axis..axis + count {
            out.push_axis(self.shape[a], self.strides[a], self.kept_suboffset(a));
        }
        axis + count
    }
}
