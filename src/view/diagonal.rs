//! Diagonals, as `np.diagonal`. Direct views only.

use super::*;

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// `np.diagonal(a, offset, axis1, axis2)`: the two axes are removed and the diagonal
    /// becomes the last axis, of stride `stride1 + stride2`. `offset > 0` starts above the main
    /// diagonal (along `axis2`), `offset < 0` below it.
    #[inline(always)]
    pub fn diagonal(&self, offset: isize, axis1: isize, axis2: isize) -> Result<WithAxis<P>> {
        if self.ndim < 2 {
            return Err(Error::TooFewDims { ndim: self.ndim, min: 2 });
        }
        let (a1, a2) = (self.axis(axis1)?, self.axis(axis2)?);
        if a1 == a2 {
            return Err(Error::RepeatedAxis { axis: a1 });
        }
        let p = self.direct()?;
        let (n1, n2) = (self.shape[a1], self.shape[a2]);
        let (s1, s2) = (self.strides[a1], self.strides[a2]);
        // Walk `skip` positions along the offset axis, then pair the rest.
        let (skip, along, stride, other) =
            if offset >= 0 { (offset.unsigned_abs(), n2, s2, n1) } else { (offset.unsigned_abs(), n1, s1, n2) };
        let len = if skip >= along as usize { 0 } else { (along - skip as isize).min(other) };
        // An empty diagonal adds no offset (a free choice: it addresses nothing). The start is
        // below the extent's span, and so is the stride's sum times the length.
        let (start, diag_stride) = match (len > 0, len > 1) {
            (false, _) => (0, s1),
            (true, false) => (mul(skip as isize, stride)?, s1),
            (true, true) => (mul(skip as isize, stride)?, add(s1, s2)?),
        };
        let (lo, hi) = (a1.min(a2), a1.max(a2));
        // Entry `i` of the result is the source's axis `i`, `i + 1` past `lo` and `i + 2` past
        // `hi`, and the diagonal at `ndim - 2`.
        let n = self.ndim - 1;
        let view = p.gather(n, |i| i + (i >= lo) as usize + (i + 1 >= hi) as usize);
        let data = self.data.byte_offset(start);
        Ok(WithAxis { view: View { data, ..view }, axis: n - 1, len, stride: diag_stride })
    }
}
