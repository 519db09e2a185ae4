//! Reinterpreting the item size, as NumPy's `ndarray.view(dtype)` for a dtype of another size.
//! Direct views only.

use super::*;

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// `a.view(dtype)`, `a`'s items being of `itemsize` bytes and the dtype's of `new_itemsize`
    /// (NumPy's rule, `array_descr_set`): equal sizes change nothing, for any number of
    /// dimensions; otherwise a 0-d view is refused, the last axis must be contiguous (stride
    /// `itemsize`) unless its extent is 1 or the view is empty, a smaller size must divide
    /// `itemsize` (the last extent is multiplied by the ratio), a larger one must divide the
    /// last axis's bytes (its extent times `itemsize`; the last extent becomes those bytes
    /// divided by the new size). The last stride becomes `new_itemsize`, whatever the new
    /// extent (as NumPy's); the data address does not move.
    ///
    /// Checked in this order: the item sizes, indirect axes (refused even for equal sizes, as
    /// every operation but slicing and indexing refuses them), the number of dimensions, the
    /// last axis's contiguity, divisibility, then [`Error::Overflow`] when the new extent or the
    /// result's span (which grows by `itemsize - new_itemsize` for a smaller size) does not fit
    /// in `isize`.
    #[inline(always)]
    pub fn view_as(&self, itemsize: isize, new_itemsize: isize) -> Result<WithAxis<P>> {
        let (from, to) = (check_itemsize(itemsize)?, check_itemsize(new_itemsize)?);
        let p = self.direct()?;
        let view = p.view();
        let n = self.ndim;
        // The axis that changes: the last. A 0-d view has none: entry 0, past every axis, is
        // then written back as it is (shape 0, stride 0).
        let last = n.saturating_sub(1);
        let (len, stride) = (view.shape[last], view.strides[last]);
        if from == to {
            return Ok(WithAxis { view, axis: last, len, stride });
        }
        if n == 0 {
            return Err(Error::ItemsizeOf0d { itemsize: from, new_itemsize: to });
        }
        // Whether the view is empty is asked last: rarely needed.
        if len != 1 && stride != from && !self.is_empty() {
            return Err(Error::LastAxisNotContiguous { axis: last, stride, itemsize: from });
        }
        let new_len = if to < from {
            if from % to != 0 {
                return Err(Error::SmallerItemsize { itemsize: from, new_itemsize: to });
            }
            let new_len = mul(len, from / to)?;
            // Past an empty view, the result spans `from - to` bytes more than the source: its
            // last item ends where the source's did. On the fast path the source spans below
            // 2^62 bytes, so a size below 2^32 cannot make it overflow.
            let small = self.known_small() && from < 1 << 32;
            if !small && !self.is_empty() {
                add(span(&self.shape[..n], &self.strides[..n])?, from - to)?;
            }
            new_len
        } else {
            // The last axis's bytes, exact: in a zero-size view they may pass `isize`, though the
            // new extent, below the old one, fits.
            let (rest, new_len) = match len.checked_mul(from) {
                Some(bytes) => (bytes % to, bytes / to),
                None => {
                    let (bytes, to) = (len as u128 * from as u128, to as u128);
                    ((bytes % to) as isize, (bytes / to) as isize)
                }
            };
            if rest != 0 {
                return Err(Error::LargerItemsize { len, itemsize: from, new_itemsize: to });
            }
            new_len
        };
        Ok(WithAxis { view, axis: last, len: new_len, stride: to })
    }

    /// Whether an extent is 0: a loop over the axes, which the fast path unrolls (`contains`
    /// stays a call, and the registers it needs are saved on every path).
    #[inline(always)]
    fn is_empty(&self) -> bool {
        let mut empty = false;
        for &len in &self.shape[..self.ndim] {
            empty |= len == 0;
        }
        empty
    }
}
