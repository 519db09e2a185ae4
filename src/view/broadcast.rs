//! Broadcasting to a larger shape with zero strides. Direct views only.

use super::*;

impl<P: Addr> View<P> {
    /// `np.broadcast_to(a, shape)`: axes are aligned from the end; each source extent must
    /// equal the target's or be 1 (then its stride becomes 0); new leading axes get stride 0.
    pub fn broadcast_to(&mut self, shape: &[isize]) -> Result<()> {
        self.direct()?;
        check_extents(shape)?;
        let target = padded(shape);
        let n = shape.len();
        if n < self.ndim {
            return Err(Error::BroadcastRank { from: self.ndim, to: n });
        }
        let lead = n - self.ndim;
        let mut strides = [0; MAX_DIMS];
        for axis in 0..self.ndim {
            let (from, to) = (self.shape[axis], target[lead + axis]);
            strides[lead + axis] = if from == to {
                self.strides[axis]
            } else if from == 1 {
                0
            } else {
                return Err(Error::Broadcast { axis, from, to });
            };
        }
        self.set_direct_layout(n, target, strides);
        Ok(())
    }
}
