//! Building views: contiguous and strided layouts, subviews of a contiguous block.

use super::parts::chain;
use super::*;

/// The contiguous view of the first `ndim` extents of `shape` (checked by [`check_extents`]; the
/// entries past `ndim` are 0) at `data`, in `order`. Zero extents count as 1 when computing
/// strides (as NumPy does), so strides stay meaningful. With `fits`, the caller knows that the
/// strides fit in `isize` and that no extent is 0 (the result has one item or more): neither is
/// checked.
///
/// Built at fixed indices (over the first 4 entries, or all 8), so that the view can stay in
/// registers: with strides written at variable indices it lives in memory, and copying it to
/// the caller's output stalls on store forwarding. Built that way, and derived in place in a
/// local view, a subview and a reshape measured slower (`make besttime`).
#[inline(always)]
pub(super) fn contiguous_view<P>(
    data: P,
    itemsize: isize,
    ndim: usize,
    shape: [isize; MAX_DIMS],
    order: Order,
    fits: bool,
) -> Result<View<P>> {
    // Every stride is a partial product of the extents times `itemsize`: when the full product
    // fits, they all do.
    let next = |stride: isize, i: usize| match fits {
        true => Some(stride.wrapping_mul(shape[i])),
        false => stride.checked_mul(shape[i].max(1)),
    };
    // Views of up to 4 dimensions (most) need the first 4 strides only.
    let walked = match ndim <= 4 {
        true => strides_walk::<4>(itemsize, ndim, order, next),
        false => strides_walk::<MAX_DIMS>(itemsize, ndim, order, next),
    };
    let strides = walked.ok_or(Error::Overflow)?.0;
    Ok(View { data, ndim, shape, strides, suboffsets: [-1; MAX_DIMS] })
}

/// The stride loop of a contiguous layout of `ndim` axes (at most `N`) in `order`: the
/// innermost axis's stride is `itemsize`, each outer one `next(stride, i)` of the one inside it
/// (axis `i`). `None` when `next` gives `None`; else the strides, 0 from `ndim` on, and
/// `next` of the outermost, the layout's bytes.
#[inline(always)]
fn strides_walk<const N: usize>(
    itemsize: isize,
    ndim: usize,
    order: Order,
    mut next: impl FnMut(isize, usize) -> Option<isize>,
) -> Option<([isize; MAX_DIMS], isize)> {
    let (mut strides, mut stride) = ([0; MAX_DIMS], itemsize);
    // Over fixed positions, skipping those from `ndim` on: the strides stay at fixed indices.
    let mut step = |i: usize| {
        if i < ndim {
            strides[i] = stride;
            stride = next(stride, i)?;
        }
        Some(())
    };
    match order {
        Order::C => {
            for i in (0..N).rev() {
                step(i)?;
            }
        }
        Order::F => {
            for i in 0..N {
                step(i)?;
            }
        }
    }
    Some((strides, stride))
}

impl<P: Addr> View<P> {
    /// A contiguous view of `shape` at `data`, in C or F order. Zero extents count as 1 when
    /// computing strides (as NumPy does), so strides stay meaningful.
    pub fn contiguous(data: P, itemsize: isize, shape: &[isize], order: Order) -> Result<Self> {
        let itemsize = check_itemsize(itemsize)?;
        check_extents(shape)?;
        contiguous_view(data, itemsize, shape.len(), padded(shape), order, false)
    }

    /// A view with explicit `shape` and byte `strides` (any sign, 0 allowed) at `data`. Fails
    /// when its span or byte extent is not representable.
    pub fn strided(data: P, itemsize: isize, shape: &[isize], strides: &[isize]) -> Result<Self> {
        let itemsize = check_itemsize(itemsize)?;
        check_extents(shape)?;
        let dims = padded(shape);
        let ndim = shape.len();
        if strides.len() != ndim {
            return Err(Error::Count { what: "stride count", count: strides.len() as isize });
        }
        let mut v = View { data, ndim, shape: dims, strides: [0; MAX_DIMS], suboffsets: [-1; MAX_DIMS] };
        v.strides[..ndim].copy_from_slice(strides);
        span(shape, strides)?;
        v.extent(itemsize)?;
        Ok(v)
    }
}

/// [`Parts::subview`] of a source read as stored, with nothing checked before: the C layer's
/// usual path. `ndim` (at most [`MAX_DIMS`]) counts the source's axes; entries past it are
/// ignored. `data` gives the source's data address, read once the result is known (read
/// first, it held a register through the checks and measured slower: `make icount`). `None`
/// when the checked path must run: for any argument it refuses, an indirect or non-contiguous
/// source, a zero-size result, or a product that overflows; otherwise what
/// [`Parts::subview`] gives.
///
/// Shorter than [`Parts::new`] followed by [`Parts::subview`]: the source's contiguity and its
/// bytes, multiplied out with checks, bound every stride, so the range test of [`Parts::new`]
/// is not needed; and the checks work in bytes, so that the result's strides double as the
/// product of its extents. Measured faster for subviews of 4-D and 1-D sources (`make icount`
/// guards it).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn quick_subview<P: Addr>(
    data: impl FnOnce() -> P,
    ndim: usize,
    src_shape: &[isize; MAX_DIMS],
    src_strides: &[isize; MAX_DIMS],
    suboffsets: &[isize; MAX_DIMS],
    itemsize: isize,
    offset: isize,
    shape: &[isize],
    order: Order,
) -> Option<View<P>> {
    let (src_shape, src_strides) = (&src_shape[..ndim], &src_strides[..ndim]);
    // Negative when every axis is direct and no extent negative.
    let usual = suboffsets[..ndim].iter().zip(src_shape).fold(-1, |all, (&s, &len)| all & s & !len);
    if itemsize <= 0 || usual >= 0 {
        return None;
    }
    // Most sources are C-contiguous with the strides a constructor gives: the strict rule,
    // which does not test extents against 1, accepts them with less work, and implies the
    // relaxed one with the same bytes.
    let chained = |order, strict| chain(src_shape, src_strides, itemsize, order, strict, false).and_then(|(b, _)| b);
    let have = chained(Order::C, true).or_else(|| chained(Order::C, false)).or_else(|| chained(Order::F, false))?;
    if offset < 0 || or_all(shape) < 0 || shape.len() > MAX_DIMS {
        return None;
    }
    // The result's strides (at fixed indices, see [`contiguous_view`]), and its bytes, zero
    // extents kept (a zero-size result is left to the checked path, below).
    let (strides, need) = strides_walk::<MAX_DIMS>(itemsize, shape.len(), order, |s, i| s.checked_mul(shape[i]))?;
    let start = offset.checked_mul(itemsize)?;
    // A zero-size result counts its zero extents as 1 in its strides: left to the checked path.
    if need == 0 || start.checked_add(need)? > have {
        return None;
    }
    Some(View {
        data: data().byte_offset(start),
        ndim: shape.len(),
        shape: padded(shape),
        strides,
        suboffsets: [-1; MAX_DIMS],
    })
}

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// A contiguous view of `shape` (in `order`) starting `offset` items into this view, which
    /// must be contiguous (NumPy's rule, either order) and direct. Fails when it does not fit.
    #[inline(always)]
    pub fn subview(&self, itemsize: isize, offset: isize, shape: &[isize], order: Order) -> Result<View<P>> {
        let itemsize = check_itemsize(itemsize)?;
        // On two paths, as in `slice_axis`.
        let have = match self.usual() {
            Some(usual) => usual.block_items(itemsize),
            None => self.block_items(itemsize),
        }?;
        if offset < 0 {
            return Err(Error::NegativeOffset { offset });
        }
        let have = have?;
        check_extents(shape)?;
        let dims = padded(shape);
        let need = product(shape)?;
        if offset > have || need > have - offset {
            return Err(Error::SubviewTooLarge { offset, need, have });
        }
        // A source known small holds below 2^59 bytes (its outermost stride times its extent),
        // or one item: its items, at most, are offset, and a subview of one item or more has
        // strides below its bytes.
        let (bytes, fits) = if self.known_small() {
            (offset.wrapping_mul(itemsize), need > 0)
        } else {
            (mul(offset, itemsize)?, false)
        };
        contiguous_view(self.data.byte_offset(bytes), itemsize, shape.len(), dims, order, fits)
    }

    /// The item count of these parts as the source of a subview: an error when they are
    /// indirect or not contiguous in either order (NumPy's rule), else the count, or the error
    /// of its overflow.
    #[inline(always)]
    fn block_items(&self, itemsize: isize) -> Result<Result<isize>> {
        self.direct()?;
        match self.contiguous_items(itemsize, Order::C, false) {
            Some(count) => Ok(count),
            None => self.contiguous_items(itemsize, Order::F, false).ok_or(Error::NotContiguous),
        }
    }
}
