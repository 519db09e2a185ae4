//! Exported queries: contiguity, counts, byte extent, bounds, overlap, element address.
//!
//! Common to all: `src` and `ndim` describe the view; results go through the output pointers,
//! written only on success. Common errors: `MVS_ERR_NULL`, `MVS_ERR_NDIM`, `MVS_ERR_SHAPE` (the
//! view has a negative extent).

use core::ffi::{c_int, c_void};

use super::*;
use crate::view::Order;

/// Contiguity rule of `mvs_is_contiguous`: NumPy's relaxed rule. Axes of extent 1 are ignored
/// and zero-size views are contiguous.
pub const MVS_CONTIG_NUMPY: c_int = 0;
/// Contiguity rule of `mvs_is_contiguous`: Cython's strict rule. Every axis's stride must equal
/// the product of the inner extents times the itemsize, extent-1 axes included.
pub const MVS_CONTIG_CYTHON: c_int = 1;

/// Reads `src`, computes a value with `op` and writes it to `out`.
///
/// # Safety
/// `src` is NULL or points to a readable `mvs_slice`; `out` is NULL or points to a writable `T`.
unsafe fn query<T>(
    src: *const mvs_slice,
    ndim: c_int,
    out: *mut T,
    op: impl FnOnce(&View<RawPtr>) -> Result<T, Failure>,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let (parts, _) = unsafe { parts_arg(src, ndim)? };
        let value = op(&parts.view())?;
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, value) };
        Ok(())
    })
}

/// Whether the view is contiguous in `order` (`'C'` or `'F'`) under `rule`
/// (`MVS_CONTIG_NUMPY` or `MVS_CONTIG_CYTHON`); `*out` receives 1 or 0. A view with an
/// indirect axis is never contiguous.
///
/// Errors: the common ones, `MVS_ERR_ITEMSIZE`, `MVS_ERR_VALUE` (unknown order or rule).
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable int.
#[no_mangle]
pub unsafe extern "C" fn mvs_is_contiguous(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    order: c_int,
    rule: c_int,
    out: *mut c_int,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe {
        query(src, ndim, out, |v| {
            let strict = match rule {
                MVS_CONTIG_NUMPY => false,
                MVS_CONTIG_CYTHON => true,
                rule => return Err(view::Error::Rule { rule }.into()),
            };
            Ok(v.is_contiguous(itemsize, Order::from_char(order)?, strict)? as c_int)
        })
    }
}

/// The number of items (the product of the extents; 1 for `ndim == 0`) into `*out`.
///
/// Errors: the common ones, `MVS_ERR_OVERFLOW`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable `ptrdiff_t`.
#[no_mangle]
pub unsafe extern "C" fn mvs_item_count(src: *const mvs_slice, ndim: c_int, out: *mut isize) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { query(src, ndim, out, |v| Ok(v.item_count()?)) }
}

/// The number of bytes of the items (`item count * itemsize`) into `*out`.
///
/// Errors: the common ones, `MVS_ERR_ITEMSIZE`, `MVS_ERR_OVERFLOW`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable `ptrdiff_t`.
#[no_mangle]
pub unsafe extern "C" fn mvs_byte_count(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    out: *mut isize,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { query(src, ndim, out, |v| Ok(v.byte_count(itemsize)?)) }
}

/// The byte range `[*lo, *hi)` the view can address, as offsets from `src->data` (`lo <= 0 <
/// hi` unless the view is zero-size, which gives `[0, 0)`).
///
/// Errors: the common ones, `MVS_ERR_NULL` (`lo` or `hi` NULL), `MVS_ERR_ITEMSIZE`,
/// `MVS_ERR_INDIRECT`, `MVS_ERR_OVERFLOW`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `lo` and `hi` to writable `ptrdiff_t`s.
#[no_mangle]
pub unsafe extern "C" fn mvs_byte_extent(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    lo: *mut isize,
    hi: *mut isize,
) -> mvs_status {
    let mut range = (0, 0);
    // SAFETY: per this function's contract.
    let status = unsafe {
        query(src, ndim, &mut range, |v| {
            out_arg(lo, "lo")?;
            out_arg(hi, "hi")?;
            Ok(v.extent(itemsize)?)
        })
    };
    if status == MVS_OK {
        // SAFETY: both checked non-NULL (the call failed otherwise); writable per contract.
        unsafe {
            write_out(lo, range.0);
            write_out(hi, range.1);
        }
    }
    status
}

/// Checks that every byte the view can address lies inside `[base, base + nbytes)`: returns
/// `MVS_OK` when it does (a zero-size view always does), `MVS_ERR_BOUNDS` when not. Use it
/// before trusting strides from elsewhere (NumPy's `as_strided` does not check).
///
/// Errors: the common ones, `MVS_ERR_NULL` (`base` NULL), `MVS_ERR_ITEMSIZE`, `MVS_ERR_SHAPE`
/// (`nbytes < 0`), `MVS_ERR_INDIRECT`, `MVS_ERR_OVERFLOW`, `MVS_ERR_BOUNDS`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`. Neither `base` nor the view's memory is read.
#[no_mangle]
pub unsafe extern "C" fn mvs_check_bounds(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    base: *const c_void,
    nbytes: isize,
) -> mvs_status {
    let mut unit = ();
    // SAFETY: per this function's contract.
    unsafe {
        query(src, ndim, &mut unit, |v| {
            if base.is_null() {
                return Err(Failure::Null("base"));
            }
            let offset = v.data().0 as usize as i128 - base as usize as i128;
            Ok(v.check_bounds(itemsize, offset, nbytes)?)
        })
    }
}

/// Whether two distinct indices of the view may address overlapping items (`*out` = 1), or
/// provably cannot (`*out` = 0); a view that may overlap must not be written through in
/// parallel or used as a copy destination. The test is ndarray's (what `ArrayViewMut` refuses):
/// sorted by |stride|, each axis of extent > 1 must step past everything the smaller axes
/// span plus one item. A few interleaved layouts that do not overlap give 1.
///
/// Errors: the common ones, `MVS_ERR_ITEMSIZE`, `MVS_ERR_INDIRECT`, `MVS_ERR_OVERFLOW`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable int.
#[no_mangle]
pub unsafe extern "C" fn mvs_may_overlap(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    out: *mut c_int,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { query(src, ndim, out, |v| Ok(v.may_overlap(itemsize)? as c_int)) }
}

/// The address of the element at `index` (`ndim` entries; negatives count from the end) into
/// `*out`, following suboffsets as PEP 3118 describes: after each indirect axis, the pointer
/// stored at the address reached is read and the suboffset added.
///
/// Errors: the common ones, `MVS_ERR_INDEX` (out of range), `MVS_ERR_OVERFLOW`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `index` to `ndim` entries, `out` to a writable
/// pointer. Wherever an indirect axis is reached, the address holds a readable pointer.
#[no_mangle]
pub unsafe extern "C" fn mvs_element_ptr(
    src: *const mvs_slice,
    ndim: c_int,
    index: *const isize,
    out: *mut *mut c_void,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe {
        query(src, ndim, out, |v| {
            let index = array_arg(index, v.ndim(), "index")?;
            Ok(v.element(index, load_pointer)?.0.cast())
        })
    }
}
