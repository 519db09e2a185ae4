//! Reordering, inserting and removing axes. Direct views only.

use super::*;

/// An axis number in an array of them (negatives count from the end): `isize`, or C's `int`
/// (an array the C caller gives, read in place).
pub trait Axis: Copy {
    /// The axis number.
    fn index(self) -> isize;
}

impl Axis for isize {
    fn index(self) -> isize {
        self
    }
}

impl Axis for i32 {
    fn index(self) -> isize {
        self as isize
    }
}

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// The axes in reverse order (`a.T`).
    #[inline(always)]
    pub fn transpose(&self) -> Result<View<P>> {
        let n = self.ndim;
        Ok(self.direct()?.gather(n, |i| n.wrapping_sub(1 + i)))
    }

    /// Axis `i` of the result is axis `axes[i]` of this view (`np.transpose(a, axes)`); `axes`
    /// must name every axis once, negatives counting from the end.
    #[inline(always)]
    pub fn permute(&self, axes: &[impl Axis]) -> Result<View<P>> {
        let p = self.direct()?;
        if axes.len() != self.ndim {
            return Err(Error::Count { what: "axis count", count: axes.len() as isize });
        }
        let (from, _) = self.distinct_axes(axes)?;
        Ok(p.gather(self.ndim, |i| from[i]))
    }

    /// Axes `a` and `b` exchanged (`np.swapaxes`).
    #[inline(always)]
    pub fn swap_axes(&self, a: isize, b: isize) -> Result<View<P>> {
        let (a, b) = (self.axis(a)?, self.axis(b)?);
        let p = self.direct()?;
        Ok(p.gather(self.ndim, |i| {
            if i == a {
                b
            } else if i == b {
                a
            } else {
                i
            }
        }))
    }

    /// `np.moveaxis(a, source, destination)`: each `source[i]` moves to `destination[i]`, the
    /// other axes keep their order.
    #[inline(always)]
    pub fn move_axes(&self, source: &[impl Axis], destination: &[impl Axis]) -> Result<View<P>> {
        if source.len() != destination.len() || source.len() > self.ndim {
            return Err(Error::Count { what: "moved axis count", count: source.len() as isize });
        }
        if let ([s], [d]) = (source, destination) {
            // One axis (the common case): the axes between `s` and `d` shift by one towards `s`.
            let (s, d) = (self.axis(s.index())?, self.axis(d.index())?);
            let (lo, hi) = (s.min(d), s.max(d));
            let shift = |i: usize| if s < d { i + 1 } else { i.wrapping_sub(1) };
            return Ok(self.direct()?.gather(self.ndim, |i| match i {
                _ if i == d => s,
                _ if lo <= i && i <= hi => shift(i),
                _ => i,
            }));
        }
        let ((src, moved), (dst, placed)) = (self.distinct_axes(source)?, self.distinct_axes(destination)?);
        let p = self.direct()?;
        // The moved axes at their destinations, then the others, in order, in the free slots.
        let mut from = [0; MAX_DIMS];
        for i in 0..source.len() {
            from[dst[i]] = src[i];
        }
        let mut next = 0;
        for (slot, from) in from[..self.ndim].iter_mut().enumerate() {
            if placed & (1 << slot) == 0 {
                next += (moved >> next).trailing_ones() as usize;
                *from = next;
                next += 1;
            }
        }
        Ok(p.gather(self.ndim, |i| from[i]))
    }

    /// `axes` normalized, each named once, and the set of them (bit `a` for axis `a`).
    #[inline(always)]
    fn distinct_axes(&self, axes: &[impl Axis]) -> Result<([usize; MAX_DIMS], u32)> {
        let (mut out, mut seen) = ([0usize; MAX_DIMS], 0u32);
        for (i, &axis) in axes.iter().enumerate() {
            let a = self.axis(axis.index())?;
            if seen & (1 << a) != 0 {
                return Err(Error::RepeatedAxis { axis: a });
            }
            seen |= 1 << a;
            out[i] = a;
        }
        Ok((out, seen))
    }

    /// A new axis of length 1 (stride 0) at `axis` of the result (`np.expand_dims`): `axis`
    /// ranges over `-(ndim + 1)..=ndim`.
    #[inline(always)]
    pub fn expand_dims(&self, axis: isize) -> Result<WithAxis<P>> {
        let p = self.direct()?;
        if self.ndim == MAX_DIMS {
            return Err(Error::TooManyDims { ndim: MAX_DIMS + 1 });
        }
        let axis = normalize_axis(axis, self.ndim + 1)?;
        let view = p.gather(self.ndim + 1, |i| i - (i > axis) as usize);
        Ok(WithAxis { view, axis, len: 1, stride: 0 })
    }

    /// `axis`, which must have length 1, removed (`np.squeeze(a, axis)`). As in NumPy, a 0-d
    /// view accepts axis 0 or -1 and is left as it is.
    #[inline(always)]
    pub fn squeeze_axis(&self, axis: isize) -> Result<View<P>> {
        if self.ndim == 0 && (axis == 0 || axis == -1) {
            return Ok(self.view());
        }
        let axis = self.axis(axis)?;
        let p = self.direct()?;
        if self.shape[axis] != 1 {
            return Err(Error::NotSqueezable { axis, len: self.shape[axis] });
        }
        Ok(p.without_axis(axis))
    }
}

impl<P: Addr> View<P> {
    /// Every axis of length 1 removed (`np.squeeze(a)`). In place: the result's number of
    /// dimensions depends on the extents, so it is built at variable indices, in memory.
    pub fn squeeze(&mut self) -> Result<()> {
        self.direct()?;
        for axis in (0..self.ndim).rev() {
            if self.shape[axis] == 1 {
                // Direct, as checked above.
                *self = self.parts_direct(true).without_axis(axis);
            }
        }
        Ok(())
    }
}
