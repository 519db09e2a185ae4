//! Sliding windows, as `torch.Tensor.unfold`. Direct views only.

use super::*;

impl<P: Addr> View<P> {
    /// Windows of `window` consecutive positions along `axis`, starting every `step`
    /// positions: `axis` becomes the window count `(len - window) / step + 1` and a new last
    /// axis of length `window` walks inside a window (`np.lib.stride_tricks.
    /// sliding_window_view(a, window, axis)[..., ::step, ...]`).
    pub fn sliding_window(&mut self, axis: isize, window: isize, step: isize) -> Result<()> {
        let axis = self.axis(axis)?;
        self.direct()?;
        if self.ndim == MAX_DIMS {
            return Err(Error::TooManyDims { ndim: MAX_DIMS + 1 });
        }
        let (len, stride) = (self.shape[axis], self.strides[axis]);
        if !(0..=len).contains(&window) {
            return Err(Error::Window { window, axis, len });
        }
        if step <= 0 {
            return Err(Error::WindowStep { step });
        }
        // Overflows only for `window == 0` on an axis of `isize::MAX` positions (a zero-size
        // view may have one).
        let count = add((len - window) / step, 1)?;
        if count > 1 {
            self.strides[axis] = mul(stride, step)?;
        }
        self.shape[axis] = count;
        self.push_axis(window, stride, -1);
        Ok(())
    }
}
