//! Reshaping without a copy, by NumPy's rule. Direct views only.

use super::construct::contiguous_view;
use super::*;

impl<P: Addr, const USUAL: bool> Parts<'_, P, USUAL> {
    /// `a.reshape(shape, order=order)` when NumPy can do it without a copy; otherwise
    /// [`Error::NeedsCopy`]. One entry of `shape` may be negative (conventionally -1): it is
    /// inferred, as NumPy does for any negative entry. A zero-size view always
    /// reshapes, to contiguous strides.
    ///
    /// The rule: axes of length 1 are dropped; old and new axes are walked together, the side
    /// with the smaller product growing until the products match; each such group of old axes
    /// must chain (C order: `stride[k] == shape[k+1] * stride[k+1]`, F order the mirror); the
    /// innermost new axis of a group takes the innermost old stride and each outer one
    /// multiplies by the next extent. Trailing new axes of length 1 continue the last stride.
    #[inline(always)]
    pub fn reshape(&self, itemsize: isize, shape: &[isize], order: Order) -> Result<View<P>> {
        let itemsize = check_itemsize(itemsize)?;
        self.direct()?;
        // A zero-size view, or one contiguous in `order` (as NumPy checks first too), takes
        // contiguous strides: what the walk below gives them, for less work.
        let contiguous = self.contiguous_items(itemsize, order, false);
        let size = match contiguous {
            Some(count) => count,
            None => product(&self.shape[..self.ndim]),
        };
        let inferred = inferred_extent(shape, size)?;
        // The target extents at fixed indices, outside any `Result` (see [`padded`]). In one
        // loop: `padded` followed by a pass replacing the negative entry measured slower
        // (`make icount` guards it).
        let mut dims = [0; MAX_DIMS];
        for (i, dim) in dims.iter_mut().enumerate() {
            *dim = match shape.get(i) {
                Some(&len) if len < 0 => inferred,
                Some(&len) => len,
                None => 0,
            };
        }
        let n = shape.len();
        if let Some(size) = contiguous {
            // A source known small holds below 2^59 bytes (or one item), and a result of one
            // item or more has strides below its bytes (as in `subview`).
            let fits = self.known_small() && size.is_ok_and(|size| size > 0);
            return contiguous_view(self.data, itemsize, n, dims, order, fits);
        }
        // The source without its length-1 axes, in the order the walk visits them: C order
        // walks from the outermost axis, F order from the innermost, so F reuses C's walk on
        // reversed axes.
        let (mut old_len, mut old_stride, mut m) = ([0isize; MAX_DIMS], [0isize; MAX_DIMS], 0);
        let mut new_len = [0isize; MAX_DIMS];
        for k in 0..self.ndim {
            let a = if order == Order::C { k } else { self.ndim - 1 - k };
            if self.shape[a] != 1 {
                old_len[m] = self.shape[a];
                old_stride[m] = self.strides[a];
                m += 1;
            }
        }
        for k in 0..n {
            new_len[k] = dims[if order == Order::C { k } else { n - 1 - k }];
        }
        let mut new_stride = [0isize; MAX_DIMS];
        let (mut ni, mut oi) = (0, 0);
        while ni < n && oi < m {
            let (mut nj, mut oj) = (ni + 1, oi + 1);
            let (mut np, mut op) = (new_len[ni], old_len[oi]);
            while np != op {
                if np < op {
                    np *= new_len.get(nj).copied().ok_or(Error::NeedsCopy)?;
                    nj += 1;
                } else {
                    op *= old_len.get(oj).copied().ok_or(Error::NeedsCopy)?;
                    oj += 1;
                }
            }
            for k in oi..oj - 1 {
                if old_len[k + 1].checked_mul(old_stride[k + 1]) != Some(old_stride[k]) {
                    return Err(Error::NeedsCopy);
                }
            }
            new_stride[nj - 1] = old_stride[oj - 1];
            for k in (ni + 1..nj).rev() {
                new_stride[k - 1] = mul(new_stride[k], new_len[k])?;
            }
            ni = nj;
            oi = oj;
        }
        let last = if ni > 0 { new_stride[ni - 1] } else { itemsize };
        new_stride[ni..n].fill(last);
        let mut v = View::empty(self.data);
        v.ndim = n;
        for a in 0..MAX_DIMS {
            // Walk position of axis `a` (entries past `n` of the walk arrays are 0).
            let k = if a < n && order == Order::F { n - 1 - a } else { a };
            v.shape[a] = new_len[k];
            v.strides[a] = new_stride[k];
        }
        Ok(v)
    }
}

/// The extent of the negative entry of `shape` (if any; 0 otherwise) that keeps the item count
/// `size`, after checking `shape` (at most 8 extents, at most one negative, the product of the
/// others within `isize`). `size` is an error when the source's item count overflows, reported
/// after the errors of `shape`.
#[inline(always)]
fn inferred_extent(shape: &[isize], size: Result<isize>) -> Result<isize> {
    if shape.len() > MAX_DIMS {
        return Err(Error::TooManyDims { ndim: shape.len() });
    }
    let mut unknown = false;
    let mut known = 1isize;
    for &len in shape {
        if len < 0 {
            if unknown {
                return Err(Error::MultipleUnknown);
            }
            unknown = true;
        } else {
            known = mul(known, len)?;
        }
    }
    let size = size?;
    match unknown {
        true if known == 0 => Err(Error::UnknownWithZero),
        true if size % known == 0 => Ok(size / known),
        false if known == size => Ok(0),
        _ => Err(Error::SizeMismatch { from: size, to: if unknown { -1 } else { known } }),
    }
}
