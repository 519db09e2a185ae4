//! Questions about a view: contiguity, counts, byte extent, bounds, overlap, element address.

use super::*;

impl<P: Addr> View<P> {
    /// Whether the view is contiguous in `order`. `strict == false` is NumPy's relaxed rule
    /// (length-1 axes are ignored, zero-size views are contiguous); `strict == true` is
    /// Cython's rule (every axis's stride must equal the product of the inner extents times
    /// `itemsize`). Views with an indirect axis are never contiguous.
    pub fn is_contiguous(&self, itemsize: isize, order: Order, strict: bool) -> Result<bool> {
        let itemsize = check_itemsize(itemsize)?;
        let parts = self.parts();
        Ok(parts.all_direct() && parts.contiguous_items(itemsize, order, strict).is_some())
    }

    /// The number of items, checked.
    pub fn item_count(&self) -> Result<isize> {
        product(&self.shape[..self.ndim])
    }

    /// The number of bytes the items occupy (`item_count * itemsize`), checked.
    pub fn byte_count(&self, itemsize: isize) -> Result<isize> {
        mul(self.item_count()?, check_itemsize(itemsize)?)
    }

    /// The byte range `[lo, hi)` the view can address, relative to its data address; `(0, 0)`
    /// for a zero-size view. Direct views only.
    pub fn extent(&self, itemsize: isize) -> Result<(isize, isize)> {
        let itemsize = check_itemsize(itemsize)?;
        self.direct()?;
        if self.is_empty() {
            return Ok((0, 0));
        }
        let (mut lo, mut hi) = (0isize, itemsize);
        for axis in 0..self.ndim {
            let span = mul(self.shape[axis] - 1, self.strides[axis])?;
            if span < 0 {
                lo = add(lo, span)?;
            } else {
                hi = add(hi, span)?;
            }
        }
        Ok((lo, hi))
    }

    /// Whether every byte the view can address lies in `[base, base + nbytes)`, where `data -
    /// base` is `offset` bytes.
    pub fn check_bounds(&self, itemsize: isize, offset: i128, nbytes: isize) -> Result<()> {
        if nbytes < 0 {
            return Err(Error::NegativeSize { size: nbytes });
        }
        let (lo, hi) = self.extent(itemsize)?;
        if lo == hi || (offset + lo as i128 >= 0 && offset + hi as i128 <= nbytes as i128) {
            Ok(())
        } else {
            Err(Error::OutOfBounds)
        }
    }

    /// Whether two distinct indices may address overlapping items: `false` proves they cannot.
    /// The rule is ndarray's (what `ArrayViewMut` refuses): sort the axes of extent > 1 by
    /// |stride|; each |stride| must reach past everything the smaller axes span plus one item.
    /// A few exotic interleaved layouts that do not overlap are reported as `true`.
    pub fn may_overlap(&self, itemsize: isize) -> Result<bool> {
        let itemsize = check_itemsize(itemsize)?;
        self.direct()?;
        if self.is_empty() {
            return Ok(false);
        }
        let mut axes = [0usize; MAX_DIMS];
        let mut count = 0;
        for axis in (0..self.ndim).filter(|&a| self.shape[a] > 1) {
            axes[count] = axis;
            count += 1;
        }
        let axes = &mut axes[..count];
        axes.sort_unstable_by_key(|&a| self.strides[a].unsigned_abs());
        let mut span = 0isize;
        for &axis in axes.iter() {
            let stride = self.strides[axis].checked_abs().ok_or(Error::Overflow)?;
            if stride < add(span, itemsize)? {
                return Ok(true);
            }
            span = add(span, mul(self.shape[axis] - 1, stride)?)?;
        }
        Ok(false)
    }

    /// The address of the element at `index` (negatives count from the end), following
    /// suboffsets: after each indirect axis the address is replaced by `deref(address)` plus
    /// the suboffset.
    pub fn element(&self, index: &[isize], mut deref: impl FnMut(P) -> P) -> Result<P> {
        if index.len() != self.ndim {
            return Err(Error::Count { what: "index length", count: index.len() as isize });
        }
        let mut p = self.data;
        for (axis, &i) in index.iter().enumerate() {
            let i = bounds::wrap_index(i, axis, self.shape[axis])?;
            p = p.byte_offset(mul(i, self.strides[axis])?);
            if self.suboffsets[axis] >= 0 {
                p = deref(p).byte_offset(self.suboffsets[axis]);
            }
        }
        Ok(p)
    }
}
