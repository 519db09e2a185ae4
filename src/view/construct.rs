//! Building views: contiguous and strided layouts, subviews of a contiguous block.

use super::*;

impl<P: Addr> View<P> {
    /// A contiguous view of `shape` at `data`, in C or F order. Zero extents count as 1 when
    /// computing strides (as NumPy does), so strides stay meaningful.
    pub fn contiguous(data: P, itemsize: isize, shape: &[isize], order: Order) -> Result<Self> {
        let itemsize = check_itemsize(itemsize)?;
        check_extents(shape)?;
        let mut v = View::empty(data);
        v.set_contiguous(itemsize, shape, order)?;
        Ok(v)
    }

    /// A view with explicit `shape` and byte `strides` (any sign, 0 allowed) at `data`. Fails
    /// when its span or byte extent is not representable.
    pub fn strided(data: P, itemsize: isize, shape: &[isize], strides: &[isize]) -> Result<Self> {
        let itemsize = check_itemsize(itemsize)?;
        let dims = check_shape(shape)?;
        let ndim = shape.len();
        if strides.len() != ndim {
            return Err(Error::Count { what: "stride count", count: strides.len() as isize });
        }
        let mut v = View { data, ndim, shape: dims, strides: [0; MAX_DIMS], suboffsets: [-1; MAX_DIMS] };
        v.strides[..ndim].copy_from_slice(strides);
        span(shape, strides)?;
        v.extent(itemsize)?;
        Ok(v)
    }

    /// A contiguous view of `shape` (in `order`) starting `offset` items into this view, which
    /// must be contiguous (NumPy's rule, either order) and direct. Fails when it does not fit.
    pub fn subview(&mut self, itemsize: isize, offset: isize, shape: &[isize], order: Order) -> Result<()> {
        let itemsize = check_itemsize(itemsize)?;
        self.direct()?;
        if !self.is_contiguous(itemsize, Order::C, false)? && !self.is_contiguous(itemsize, Order::F, false)? {
            return Err(Error::NotContiguous);
        }
        if offset < 0 {
            return Err(Error::NegativeOffset { offset });
        }
        let have = self.item_count()?;
        check_extents(shape)?;
        let need = product(shape)?;
        if offset > have || need > have - offset {
            return Err(Error::SubviewTooLarge { offset, need, have });
        }
        let data = self.data.byte_offset(mul(offset, itemsize)?);
        self.set_contiguous(itemsize, shape, order)?;
        self.data = data;
        Ok(())
    }

    /// Makes the axes a contiguous layout of `shape` in `order`, all direct, keeping the data
    /// address; `itemsize` and `shape` were checked ([`check_extents`]). Zero extents count as 1
    /// when computing strides (as NumPy does). On error the view is unchanged. Written entry by
    /// entry into the view: a whole-array copy of just-written locals would stall on store
    /// forwarding.
    pub(super) fn set_contiguous(&mut self, itemsize: isize, shape: &[isize], order: Order) -> Result<()> {
        // Every stride is a partial product of the extents times `itemsize`: when the full
        // product fits, they all do.
        shape.iter().try_fold(itemsize, |acc, &len| acc.checked_mul(len.max(1))).ok_or(Error::Overflow)?;
        let n = shape.len();
        let mut stride = itemsize;
        for k in 0..n {
            let axis = match order {
                Order::C => n - 1 - k,
                Order::F => k,
            };
            self.strides[axis] = stride;
            stride = stride.wrapping_mul(shape[axis].max(1));
        }
        for axis in n..MAX_DIMS {
            self.strides[axis] = 0;
        }
        for (axis, len) in self.shape.iter_mut().enumerate() {
            *len = shape.get(axis).copied().unwrap_or(0);
        }
        self.suboffsets = [-1; MAX_DIMS];
        self.ndim = n;
        Ok(())
    }
}
