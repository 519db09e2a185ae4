//! Exported constructors: contiguous and strided views, subviews.

use core::ffi::{c_int, c_void};

use super::*;
use crate::view::Order;

/// Builds a contiguous view of `shape` over `data`, in C (row-major) or F (column-major) order.
///
/// - `data`: the element at index [0, ...]; not dereferenced, may be NULL for a zero-size view.
/// - `itemsize`: bytes per item, > 0.
/// - `ndim`: 0..=8; `shape` holds `ndim` extents, each >= 0 (may be NULL when `ndim` is 0).
/// - `order`: `'C'` or `'F'`.
/// - `out`: receives the view; its memview is set to NULL.
///
/// Errors: `MVS_ERR_NULL` (`shape` or `out` NULL), `MVS_ERR_NDIM`, `MVS_ERR_ITEMSIZE`,
/// `MVS_ERR_SHAPE` (a negative extent), `MVS_ERR_VALUE` (unknown order), `MVS_ERR_OVERFLOW`
/// (the byte size does not fit in `ptrdiff_t`). Zero extents count as 1 when computing
/// strides, as in NumPy: a zero-size shape whose other extents times `itemsize` overflow is
/// refused too, as NumPy refuses it.
///
/// # Safety
/// `shape` points to `ndim` readable extents; `out` points to a writable `mvs_slice`.
#[no_mangle]
pub unsafe extern "C" fn mvs_view_contiguous(
    data: *mut c_void,
    itemsize: isize,
    ndim: c_int,
    shape: *const isize,
    order: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let v = unsafe { contiguous_arg(RawPtr(data.cast()), itemsize, ndim, shape, order)? };
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, to_slice(&v, core::ptr::null_mut())) };
        Ok(())
    })
}

/// Builds a view with explicit extents and byte strides over `data` (all suboffsets -1).
///
/// - `data`: the element at index [0, ...]; not dereferenced.
/// - `itemsize`: bytes per item, > 0.
/// - `ndim`: 0..=8; `shape` and `strides` hold `ndim` entries each. Extents are >= 0; strides
///   may have any sign, and 0 repeats an element (broadcast).
/// - `out`: receives the view; its memview is set to NULL.
///
/// Errors: `MVS_ERR_NULL`, `MVS_ERR_NDIM`, `MVS_ERR_ITEMSIZE`, `MVS_ERR_SHAPE` (a negative
/// extent), `MVS_ERR_OVERFLOW` (the byte extent of the view does not fit in `ptrdiff_t`). The
/// memory is not checked; use `mvs_check_bounds` for that.
///
/// # Safety
/// `shape` and `strides` point to `ndim` readable entries; `out` to a writable `mvs_slice`.
#[no_mangle]
pub unsafe extern "C" fn mvs_view_strided(
    data: *mut c_void,
    itemsize: isize,
    ndim: c_int,
    shape: *const isize,
    strides: *const isize,
    out: *mut mvs_slice,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        let n = ndim_arg(ndim)?;
        // SAFETY: per this function's contract.
        let (shape, strides) = unsafe { (array_arg(shape, n, "shape")?, array_arg(strides, n, "strides")?) };
        let v = View::strided(RawPtr(data.cast()), itemsize, shape, strides)?;
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, to_slice(&v, core::ptr::null_mut())) };
        Ok(())
    })
}

/// Builds a contiguous view of `shape` (in `order`) starting `offset` items into `src`, which
/// must be contiguous in either order (NumPy's rule) and direct: one flat buffer, many views.
///
/// - `src`, `ndim`: the source view; `itemsize` (> 0) its bytes per item.
/// - `offset`: items to skip, >= 0.
/// - `out_ndim`: 0..=8; `shape` holds `out_ndim` extents >= 0; `order` is `'C'` or `'F'`.
/// - `out`: receives the view, with `src`'s memview. May alias `src`.
///
/// Errors: the common ones, `MVS_ERR_ITEMSIZE`, `MVS_ERR_VALUE` (unknown order),
/// `MVS_ERR_INDIRECT`, `MVS_ERR_NOT_CONTIGUOUS`, `MVS_ERR_BOUNDS` (negative `offset`, or
/// `offset` plus the item count of `shape` exceeds the source's item count), `MVS_ERR_OVERFLOW`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `shape` to `out_ndim` extents, `out` to a writable
/// `mvs_slice`.
#[no_mangle]
pub unsafe extern "C" fn mvs_subview(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    offset: isize,
    out_ndim: c_int,
    shape: *const isize,
    order: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [itemsize: isize, offset: isize, out_ndim: c_int, shape: *const isize, order: c_int],
        out, out_ndim => |p| {
        // SAFETY: per this function's contract.
        let shape = unsafe { array_arg(shape, ndim_arg(out_ndim)?, "shape")? };
        Ok(p.subview(itemsize, offset, shape, Order::from_char(order)?)?)
    }; quick |s| {
        // SAFETY: per this function's contract.
        let shape = unsafe { array_arg(shape, out_ndim as usize, "shape") }.ok()?;
        let order = Order::from_char(order).ok()?;
        let v = view::quick_subview(|| RawPtr(s.data), ndim, &s.shape, &s.strides, &s.suboffsets, itemsize, offset, shape, order);
        v.map(|v| (v, shape.as_ptr()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &mvs_slice, b: &mvs_slice) -> bool {
        (a.memview, a.data, a.shape, a.strides, a.suboffsets) == (b.memview, b.data, b.shape, b.strides, b.suboffsets)
    }

    /// The usual path copies the result's extents from the caller's array before it writes
    /// anything else: right when that array lies in `out`, in any field the result overwrites
    /// (and, run under Miri, with no access that the aliasing rules forbid).
    #[test]
    fn subview_reads_extents_given_inside_its_output() {
        let (mut buf, items) = ([0f64; 24], 24isize);
        let mut flat = mvs_slice::default();
        // SAFETY: `buf` holds 24 items; the pointers are to locals.
        unsafe {
            let c = b'C' as c_int;
            assert_eq!(mvs_view_contiguous(buf.as_mut_ptr().cast(), 8, 1, &items, c, &mut flat), MVS_OK);
            let mut want = mvs_slice::default();
            assert_eq!(mvs_subview(&flat, 1, 8, 2, 2, [3, 4].as_ptr(), c, &mut want), MVS_OK);
            for field in 0..3 {
                for at in 0..MVS_MAX_DIMS - 1 {
                    let mut out = mvs_slice { memview: core::ptr::null_mut(), data: core::ptr::null_mut(), ..want };
                    let o: *mut mvs_slice = &mut out;
                    let array = match field {
                        0 => core::ptr::addr_of_mut!((*o).shape),
                        1 => core::ptr::addr_of_mut!((*o).strides),
                        _ => core::ptr::addr_of_mut!((*o).suboffsets),
                    };
                    let extents = array.cast::<isize>().add(at);
                    extents.write(3);
                    extents.add(1).write(4);
                    assert_eq!(mvs_subview(&flat, 1, 8, 2, 2, extents, c, o), MVS_OK);
                    assert!(same(&out, &want), "extents in field {field} at {at}: {out:?}");
                }
            }
            // In place, with the source's own extents: the same view.
            let mut v = want;
            let o: *mut mvs_slice = &mut v;
            assert_eq!(mvs_subview(o, 2, 8, 0, 2, core::ptr::addr_of!((*o).shape).cast(), c, o), MVS_OK);
            assert!(same(&v, &want), "{v:?}");
        }
    }
}
