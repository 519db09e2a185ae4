//! One axis's bounds: Python's slice bounds and NumPy's index wrapping, and what indexing needs
//! to know of a source axis. Below `parts` and `index`, which both use them.

use super::*;

/// Python's `slice(start, stop, step).indices(len)` for a length `len >= 0`, reduced to the
/// first position and the number of positions. [`NONE`] means "not given" for each of the three.
#[inline(always)]
pub fn slice_indices(len: isize, start: isize, stop: isize, step: isize) -> Result<(isize, isize, isize)> {
    let step = if step == NONE { 1 } else { step };
    if step == 0 {
        return Err(Error::StepZero);
    }
    // A bound, negatives counting from the end, clamped to `lower..=upper`. `NONE`, the most
    // negative number, lands on `lower` (`len` is not negative: the sum does not overflow),
    // which is its meaning for a start when stepping forward and a stop when stepping back.
    let clamp = |bound: isize, lower: isize, upper: isize| {
        if bound < 0 {
            (bound + len).max(lower)
        } else {
            bound.min(upper)
        }
    };
    let or_end = |bound: isize, end: isize, lower: isize, upper: isize| {
        if bound == NONE {
            end
        } else {
            clamp(bound, lower, upper)
        }
    };
    // The number of positions `ahead` of the first (none when not positive), taken every
    // `every`: a shift for steps of ±1 and other powers of two (the common ones), which spares a
    // division's latency.
    let count = |ahead: isize, every: usize| {
        if ahead <= 0 {
            return 0;
        }
        let gaps = (ahead - 1) as usize;
        let taken = if every.is_power_of_two() { gaps >> every.trailing_zeros() } else { gaps / every };
        taken as isize + 1
    };
    // One path for each direction: merged, every choice between them costs a conditional move.
    Ok(if step > 0 {
        let (start, stop) = (clamp(start, 0, len), or_end(stop, len, 0, len));
        (start, count(stop - start, step as usize), step)
    } else {
        let (start, stop) = (or_end(start, len - 1, -1, len - 1), clamp(stop, -1, len - 1));
        (start, count(start - stop, step.unsigned_abs()), step)
    })
}

/// What indexing needs to know of one source axis.
#[derive(Clone, Copy)]
pub(super) struct SourceAxis {
    pub(super) axis: usize,
    pub(super) len: isize,
    pub(super) stride: isize,
    pub(super) suboffset: isize,
    /// Whether the extent is known to be within the usual limits (`MVS_USUAL_EXTENT_LIMIT`).
    pub(super) small: bool,
}

impl SourceAxis {
    /// The stride times `k`, whose magnitude is below the extent: not checked for overflow when
    /// the axis is known small (the product is then below 2^59). (The span does not bound it: a
    /// zero-size view spans 0 bytes whatever its strides.)
    #[inline(always)]
    pub(super) fn stride_times(&self, k: isize) -> Result<isize> {
        if self.small {
            Ok(self.stride.wrapping_mul(k))
        } else {
            mul(self.stride, k)
        }
    }
}

/// `index` in `0..len` (`len >= 0`), negatives counting from the end.
pub(super) fn wrap_index(index: isize, axis: usize, len: isize) -> Result<isize> {
    let i = if index < 0 { index + len } else { index };
    // One unsigned comparison: a negative `i` is above every extent as an unsigned number.
    if (i as usize) < len as usize {
        Ok(i)
    } else {
        Err(Error::Index { index, axis, len })
    }
}
