//! Diagonals, as `np.diagonal`. Direct views only.

use super::*;

impl<P: Addr> View<P> {
    /// `np.diagonal(a, offset, axis1, axis2)`: the two axes are removed and the diagonal
    /// becomes the last axis, of stride `stride1 + stride2`. `offset > 0` starts above the main
    /// diagonal (along `axis2`), `offset < 0` below it.
    pub fn diagonal(&mut self, offset: isize, axis1: isize, axis2: isize) -> Result<()> {
        if self.ndim < 2 {
            return Err(Error::TooFewDims { ndim: self.ndim, min: 2 });
        }
        let (a1, a2) = (self.axis(axis1)?, self.axis(axis2)?);
        if a1 == a2 {
            return Err(Error::RepeatedAxis { axis: a1 });
        }
        self.direct()?;
        let (n1, n2) = (self.shape[a1], self.shape[a2]);
        let (s1, s2) = (self.strides[a1], self.strides[a2]);
        // Walk `skip` positions along the offset axis, then pair the rest.
        let (skip, along, stride, other) =
            if offset >= 0 { (offset.unsigned_abs(), n2, s2, n1) } else { (offset.unsigned_abs(), n1, s1, n2) };
        let len = if skip >= along as usize { 0 } else { (along - skip as isize).min(other) };
        // An empty diagonal adds no offset (a free choice: it addresses nothing).
        let start = if len > 0 { mul(skip as isize, stride)? } else { 0 };
        let diag_stride = if len > 1 { add(s1, s2)? } else { s1 };
        self.data = self.data.byte_offset(start);
        let (hi, lo) = (a1.max(a2), a1.min(a2));
        self.remove_axis(hi);
        self.remove_axis(lo);
        self.push_axis(len, diag_stride, -1);
        Ok(())
    }
}
