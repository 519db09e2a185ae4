//! Building views: contiguous and strided layouts, subviews of a contiguous block.

use super::*;

impl<P: Addr> View<P> {
    /// A contiguous view of `shape` at `data`, in C or F order. Zero extents count as 1 when
    /// computing strides (as NumPy does), so strides stay meaningful.
    pub fn contiguous(data: P, itemsize: isize, shape: &[isize], order: Order) -> Result<Self> {
        let itemsize = check_itemsize(itemsize)?;
        let dims = check_shape(shape)?;
        let strides = contiguous_strides(itemsize, &dims, shape.len(), order)?;
        Ok(View { data, ndim: shape.len(), shape: dims, strides, suboffsets: [-1; MAX_DIMS] })
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
        v.span()?;
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
        let (dims, n) = (check_shape(shape)?, shape.len());
        let need = product(&dims[..n])?;
        if offset > have || need > have - offset {
            return Err(Error::SubviewTooLarge { offset, need, have });
        }
        let strides = contiguous_strides(itemsize, &dims, n, order)?;
        self.data = self.data.byte_offset(mul(offset, itemsize)?);
        self.set_direct_layout(n, dims, strides);
        Ok(())
    }
}

/// The strides of a contiguous layout of `dims[..ndim]` in `order`, checked. Zero extents count
/// as 1.
pub(super) fn contiguous_strides(itemsize: isize, dims: &[isize; MAX_DIMS], ndim: usize, order: Order) -> Result<[isize; MAX_DIMS]> {
    let mut strides = [0; MAX_DIMS];
    let mut stride = itemsize;
    let mut set = |axis: usize| -> Result<()> {
        strides[axis] = stride;
        stride = mul(stride, dims[axis].max(1))?;
        Ok(())
    };
    match order {
        Order::C => (0..ndim).rev().try_for_each(&mut set)?,
        Order::F => (0..ndim).try_for_each(&mut set)?,
    }
    Ok(strides)
}
