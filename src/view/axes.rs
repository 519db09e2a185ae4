//! Reordering, inserting and removing axes. Direct views only.

use super::*;

impl<P: Addr> View<P> {
    /// The axes in reverse order (`a.T`).
    #[cfg(test)] // The in-place form, for the tests; the C layer derives from `Parts`.
    pub fn transpose(&mut self) -> Result<()> {
        *self = self.parts().transpose()?;
        Ok(())
    }

    /// Axis `i` of the result is axis `axes[i]` of this view (`np.transpose(a, axes)`); `axes`
    /// must name every axis once, negatives counting from the end.
    pub fn permute(&mut self, axes: &[isize]) -> Result<()> {
        self.direct()?;
        if axes.len() != self.ndim {
            return Err(Error::Count { what: "axis count", count: axes.len() as isize });
        }
        let mut seen = [false; MAX_DIMS];
        let (mut shape, mut strides) = ([0; MAX_DIMS], [0; MAX_DIMS]);
        for (i, &axis) in axes.iter().enumerate() {
            let a = self.axis(axis)?;
            if core::mem::replace(&mut seen[a], true) {
                return Err(Error::RepeatedAxis { axis: a });
            }
            shape[i] = self.shape[a];
            strides[i] = self.strides[a];
        }
        self.set_direct_layout(self.ndim, shape, strides);
        Ok(())
    }

    /// Axes `a` and `b` exchanged (`np.swapaxes`).
    pub fn swap_axes(&mut self, a: isize, b: isize) -> Result<()> {
        let (a, b) = (self.axis(a)?, self.axis(b)?);
        self.direct()?;
        self.shape.swap(a, b);
        self.strides.swap(a, b);
        Ok(())
    }

    /// `np.moveaxis(a, source, destination)`: each `source[i]` moves to `destination[i]`, the
    /// other axes keep their order.
    pub fn move_axes(&mut self, source: &[isize], destination: &[isize]) -> Result<()> {
        if source.len() != destination.len() || source.len() > self.ndim {
            return Err(Error::Count { what: "moved axis count", count: source.len() as isize });
        }
        let (src, dst) = (self.distinct_axes(source)?, self.distinct_axes(destination)?);
        let k = source.len();
        // Fill the destinations first, then the remaining slots with the other axes in order.
        let mut axes = [-1isize; MAX_DIMS];
        for i in 0..k {
            axes[dst[i]] = src[i] as isize;
        }
        let mut rest = (0..self.ndim).filter(|a| !src[..k].contains(a));
        for slot in axes[..self.ndim].iter_mut().filter(|s| **s < 0) {
            *slot = rest.next().map_or(0, |a| a as isize);
        }
        self.permute(&axes[..self.ndim])
    }

    /// `axes` normalized, each named once.
    fn distinct_axes(&self, axes: &[isize]) -> Result<[usize; MAX_DIMS]> {
        let mut out = [0usize; MAX_DIMS];
        for (i, &axis) in axes.iter().enumerate() {
            let a = self.axis(axis)?;
            if out[..i].contains(&a) {
                return Err(Error::RepeatedAxis { axis: a });
            }
            out[i] = a;
        }
        Ok(out)
    }

    /// A new axis of length 1 (stride 0) at `axis` of the result (`np.expand_dims`): `axis`
    /// ranges over `-(ndim + 1)..=ndim`.
    pub fn expand_dims(&mut self, axis: isize) -> Result<()> {
        self.direct()?;
        if self.ndim == MAX_DIMS {
            return Err(Error::TooManyDims { ndim: MAX_DIMS + 1 });
        }
        let axis = normalize_axis(axis, self.ndim + 1)?;
        self.insert_axis(axis, 1, 0);
        Ok(())
    }

    /// `axis`, which must have length 1, removed (`np.squeeze(a, axis)`). As in NumPy, a 0-d
    /// view accepts axis 0 or -1 and is left as it is.
    pub fn squeeze_axis(&mut self, axis: isize) -> Result<()> {
        if self.ndim == 0 && (axis == 0 || axis == -1) {
            return Ok(());
        }
        let axis = self.axis(axis)?;
        self.direct()?;
        if self.shape[axis] != 1 {
            return Err(Error::NotSqueezable { axis, len: self.shape[axis] });
        }
        self.remove_axis(axis);
        Ok(())
    }

    /// Every axis of length 1 removed (`np.squeeze(a)`).
    pub fn squeeze(&mut self) -> Result<()> {
        self.direct()?;
        for axis in (0..self.ndim).rev() {
            if self.shape[axis] == 1 {
                self.remove_axis(axis);
            }
        }
        Ok(())
    }
}

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// [`View::transpose`] of these parts.
    #[inline(always)]
    pub fn transpose(&self) -> Result<View<P>> {
        self.direct()?;
        let n = self.ndim;
        let reversed = |a: &[isize; MAX_DIMS]| core::array::from_fn(|i| if i < n { a[n - 1 - i] } else { 0 });
        Ok(View {
            data: self.data,
            ndim: n,
            shape: reversed(self.shape),
            strides: reversed(self.strides),
            suboffsets: [-1; MAX_DIMS],
        })
    }
}
