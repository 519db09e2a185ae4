//! Broadcasting to a larger shape with zero strides. Direct views only.

use super::*;

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// `np.broadcast_to(a, shape)`: axes are aligned from the end; each source extent must
    /// equal the target's or be 1 (then its stride becomes 0); new leading axes get stride 0.
    #[inline(always)]
    pub fn broadcast_to(&self, shape: &[isize]) -> Result<View<P>> {
        self.direct()?;
        check_extents(shape)?;
        let target = padded(shape);
        let n = shape.len();
        if n < self.ndim {
            return Err(Error::BroadcastRank { from: self.ndim, to: n });
        }
        let lead = n - self.ndim;
        for axis in 0..self.ndim {
            let (from, to) = (self.shape[axis], target[lead + axis]);
            if from != to && from != 1 {
                return Err(Error::Broadcast { axis, from, to });
            }
        }
        // Entry `i` of the result is the source's axis `i - lead`, if any; its stride is kept
        // where the extents agree, 0 where the source's is 1 (or the axis is new).
        let strides = core::array::from_fn(|i| {
            let axis = i.wrapping_sub(lead) & (MAX_DIMS - 1);
            let kept = i >= lead && i < n && self.shape[axis] == target[i];
            if kept {
                self.strides[axis]
            } else {
                0
            }
        });
        Ok(View { data: self.data, ndim: n, shape: target, strides, suboffsets: [-1; MAX_DIMS] })
    }
}
