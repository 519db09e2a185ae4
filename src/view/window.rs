//! Sliding windows, as `torch.Tensor.unfold`. Direct views only.

use super::*;

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// Windows of `window` consecutive positions along `axis`, starting every `step`
    /// positions: `axis` becomes the window count `(len - window) / step + 1` and a new last
    /// axis of length `window` walks inside a window (`np.lib.stride_tricks.
    /// sliding_window_view(a, window, axis)[..., ::step, ...]`).
    #[inline(always)]
    pub fn sliding_window(&self, axis: isize, window: isize, step: isize) -> Result<WithAxis<P>> {
        let axis = self.axis(axis)?;
        let p = self.direct()?;
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
        let counted = if count > 1 { mul(stride, step)? } else { stride };
        // The source's axes and, at `ndim`, the window's (its stride is the axis's own).
        let n = self.ndim;
        let mut view = p.gather(n + 1, |i| if i == n { axis } else { i });
        view.shape[n] = window;
        Ok(WithAxis { view, axis, len: count, stride: counted })
    }
}
