//! Exported derivations: each reads a view and writes a new one, with no allocation and no copy.
//!
//! Common to all: `src` and `ndim` describe the source view; `out` receives the result, with
//! `src`'s memview, and may be the same pointer as `src`. Common errors: `MVS_ERR_NULL` (`src`,
//! `out` or a required array is NULL), `MVS_ERR_NDIM` (`ndim` outside 0..=8, or a result of more
//! than 8 dimensions), `MVS_ERR_SHAPE` (the source has a negative extent), `MVS_ERR_OVERFLOW`.
//! On failure nothing is written.

use core::ffi::c_int;

use super::*;
use crate::view::{Item, Order};

/// `mvs_index_item` kind: an integer index (`start`): selects one position and drops the axis.
pub const MVS_ITEM_INDEX: c_int = 0;
/// `mvs_index_item` kind: a slice `start:stop:step` (each may be `MVS_NONE`).
pub const MVS_ITEM_SLICE: c_int = 1;
/// `mvs_index_item` kind: a new axis of length 1 (`np.newaxis`).
pub const MVS_ITEM_NEWAXIS: c_int = 2;
/// `mvs_index_item` kind: an ellipsis (`...`), as many full slices as the other items leave axes; at most one.
pub const MVS_ITEM_ELLIPSIS: c_int = 3;
/// Most items `mvs_index` takes (8 indices or slices, 8 new axes, one ellipsis).
pub const MVS_MAX_INDEX_ITEMS: c_int = 17;

/// One item of a basic index, for `mvs_index`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_index_item {
    /// `MVS_ITEM_INDEX`, `MVS_ITEM_SLICE`, `MVS_ITEM_NEWAXIS` or `MVS_ITEM_ELLIPSIS`.
    pub kind: c_int,
    /// The index (`MVS_ITEM_INDEX`) or the slice start (`MVS_ITEM_SLICE`); else ignored.
    pub start: isize,
    /// The slice stop (`MVS_ITEM_SLICE`); else ignored.
    pub stop: isize,
    /// The slice step (`MVS_ITEM_SLICE`); else ignored.
    pub step: isize,
}

/// Slices one axis: `src[..., start:stop:step, ...]` with Python's semantics (negative bounds
/// count from the end, out-of-range bounds clamp as `slice.indices` does, negative steps walk
/// backwards; `MVS_NONE` for any of the three means "not given"). Indirect axes follow PEP 3118.
///
/// Free choices: a result of length 0 keeps `src`'s data address; a result of length 0 or 1
/// keeps the source stride.
///
/// Errors: the common ones, `MVS_ERR_AXIS`, `MVS_ERR_STEP` (step 0), `MVS_ERR_INDIRECT` (the
/// offset would make the suboffset of an earlier indirect axis negative).
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_slice_axis(
    src: *const mvs_slice,
    ndim: c_int,
    axis: c_int,
    start: isize,
    stop: isize,
    step: isize,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [axis: c_int, start: isize, stop: isize, step: isize], out => |p| {
        Ok(p.slice_axis(axis as isize, start, stop, step)?)
    })
}

/// Indexes one axis: `src[..., index, ...]`; the result has `ndim - 1` dimensions. A negative
/// index counts from the end. An indirect axis can be indexed only when it is the first: the
/// pointer stored at the selected position is read and its suboffset added.
///
/// Errors: the common ones, `MVS_ERR_AXIS`, `MVS_ERR_INDEX` (out of range), `MVS_ERR_INDIRECT`
/// (an indirect axis that is not the first, or an offset that would make the suboffset of an
/// earlier indirect axis negative).
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same). When
/// the indexed axis is indirect, the selected position holds a readable pointer.
#[no_mangle]
pub unsafe extern "C" fn mvs_index_axis(
    src: *const mvs_slice,
    ndim: c_int,
    axis: c_int,
    index: isize,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [axis: c_int, index: isize], out => |p| {
        Ok(p.index_axis(axis as isize, index, load_pointer)?)
    })
}

/// NumPy's basic indexing in one call: `src[items[0], ..., items[nitems - 1]]` with integers,
/// slices, new axes and at most one ellipsis (an implicit one at the end when absent). Indirect
/// axes follow PEP 3118 as in `mvs_slice_axis` and `mvs_index_axis`. New axes get stride 0.
///
/// - `items`: `nitems` items (0..=`MVS_MAX_INDEX_ITEMS`; may be NULL when 0).
/// - `out_ndim`: receives the result's number of dimensions.
///
/// Errors: the common ones, `MVS_ERR_INDEX` (an index out of range, more integers and slices
/// than dimensions, two ellipses), `MVS_ERR_STEP`, `MVS_ERR_INDIRECT` (as in `mvs_index_axis`
/// and `mvs_slice_axis`), `MVS_ERR_VALUE` (unknown item kind, `nitems` out of range). Items are
/// applied in order; the first failing one decides the error.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `items` to `nitems` readable items, `out` to a
/// writable `mvs_slice` (it may be `src`), `out_ndim` to a writable int. Indexed indirect axes
/// hold readable pointers at the selected positions.
#[no_mangle]
pub unsafe extern "C" fn mvs_index(
    src: *const mvs_slice,
    ndim: c_int,
    items: *const mvs_index_item,
    nitems: c_int,
    out: *mut mvs_slice,
    out_ndim: *mut c_int,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe {
        derive_ndim(src, ndim, out, out_ndim, |src, result| {
            let count = usize::try_from(nitems)
                .ok()
                .filter(|&n| n <= MVS_MAX_INDEX_ITEMS as usize)
                .ok_or(view::Error::Count { what: "item count", count: nitems as isize })?;
            let items = array_arg(items, count, "items")?;
            // An item of unknown kind reads as an ellipsis (`to_item`), which the one pass
            // refuses; the kinds are then checked before the checked pass. (Checked before the
            // one pass, in a loop of their own, or counted as the items came, they measured
            // slower: `make icount` guards it.)
            if src.index_usual(items.iter().map(to_item), load_pointer, result) {
                return Ok(());
            }
            if let Some(position) = items.iter().position(|i| !(MVS_ITEM_INDEX..=MVS_ITEM_ELLIPSIS).contains(&i.kind)) {
                return Err(view::Error::ItemKind { position, kind: items[position].kind }.into());
            }
            Ok(src.index_checked(items.iter().map(to_item), load_pointer, result)?)
        })
    }
}

/// Reshapes without copying: `src.reshape(shape, order=order)` whenever NumPy can do it without
/// a copy, including many non-contiguous sources; otherwise `MVS_ERR_NEEDS_COPY`. One extent
/// may be -1 (inferred; as in NumPy, any negative extent means the same). A zero-size source
/// always reshapes, to contiguous strides.
///
/// - `itemsize`: bytes per item (> 0); strides of trailing length-1 axes and zero-size results
///   are derived from it.
/// - `out_ndim`: 0..=8; `shape` holds `out_ndim` extents (>= 0, and at most one negative).
/// - `order`: `'C'` or `'F'`: the index order in which items are read and placed.
///
/// Errors: the common ones, `MVS_ERR_ITEMSIZE`, `MVS_ERR_SHAPE` (a different item count, two
/// negative extents, a negative extent beside a zero extent), `MVS_ERR_VALUE` (unknown
/// order), `MVS_ERR_INDIRECT`, `MVS_ERR_NEEDS_COPY`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `shape` to `out_ndim` extents, `out` to a writable
/// `mvs_slice` (it may be `src`).
#[no_mangle]
pub unsafe extern "C" fn mvs_reshape(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    out_ndim: c_int,
    shape: *const isize,
    order: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [itemsize: isize, out_ndim: c_int, shape: *const isize, order: c_int], out, out_ndim => |p| {
        // SAFETY: per this function's contract.
        let shape = unsafe { array_arg(shape, ndim_arg(out_ndim)?, "shape")? };
        Ok(p.reshape(itemsize, shape, Order::from_char(order)?)?)
    })
}

/// Reverses the axes (`src.T`).
///
/// Errors: the common ones, `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_transpose(src: *const mvs_slice, ndim: c_int, out: *mut mvs_slice) -> mvs_status {
    derivation!(src, ndim, [], out => |p| {
        Ok(p.transpose()?)
    })
}

/// Permutes the axes: axis `i` of the result is axis `axes[i]` of `src`
/// (`np.transpose(src, axes)`). `axes` holds `ndim` entries naming every axis once; negative
/// entries count from the end.
///
/// Errors: the common ones, `MVS_ERR_AXIS` (out of range or repeated), `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `axes` to `ndim` ints, `out` to a writable
/// `mvs_slice` (it may be `src`).
#[no_mangle]
pub unsafe extern "C" fn mvs_permute(
    src: *const mvs_slice,
    ndim: c_int,
    axes: *const c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [axes: *const c_int], out => |p| {
        // SAFETY: per this function's contract.
        Ok(p.permute(unsafe { array_arg(axes, p.ndim(), "axes")? })?)
    })
}

/// Exchanges axes `axis1` and `axis2` (`np.swapaxes`).
///
/// Errors: the common ones, `MVS_ERR_AXIS`, `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_swap_axes(
    src: *const mvs_slice,
    ndim: c_int,
    axis1: c_int,
    axis2: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [axis1: c_int, axis2: c_int], out => |p| Ok(p.swap_axes(axis1 as isize, axis2 as isize)?))
}

/// Moves axes to new positions (`np.moveaxis(src, source, destination)`): axis `source[i]` of
/// `src` becomes axis `destination[i]` of the result; the other axes keep their order.
///
/// - `source`, `destination`: `count` axes each (0..=`ndim`), distinct within each array.
///
/// Errors: the common ones, `MVS_ERR_AXIS` (out of range or repeated), `MVS_ERR_VALUE` (`count`
/// out of range), `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `source` and `destination` to `count` ints each,
/// `out` to a writable `mvs_slice` (it may be `src`).
#[no_mangle]
pub unsafe extern "C" fn mvs_move_axes(
    src: *const mvs_slice,
    ndim: c_int,
    source: *const c_int,
    destination: *const c_int,
    count: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [source: *const c_int, destination: *const c_int, count: c_int], out => |p| {
        let k = usize::try_from(count)
            .ok()
            .filter(|&k| k <= p.ndim())
            .ok_or(view::Error::Count { what: "moved axis count", count: count as isize })?;
        // SAFETY: per this function's contract.
        let (s, d) = unsafe { (array_arg(source, k, "source")?, array_arg(destination, k, "destination")?) };
        Ok(p.move_axes(s, d)?)
    })
}

/// Broadcasts to `shape` (`np.broadcast_to`): axes align from the end; each source extent must
/// equal the target's or be 1 (its stride becomes 0); new leading axes get stride 0.
///
/// - `out_ndim`: `ndim..=8`; `shape` holds `out_ndim` extents >= 0.
///
/// Errors: the common ones, `MVS_ERR_SHAPE` (a negative target extent), `MVS_ERR_BROADCAST`
/// (incompatible extents, or `out_ndim < ndim`), `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `shape` to `out_ndim` extents, `out` to a writable
/// `mvs_slice` (it may be `src`).
#[no_mangle]
pub unsafe extern "C" fn mvs_broadcast_to(
    src: *const mvs_slice,
    ndim: c_int,
    out_ndim: c_int,
    shape: *const isize,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [out_ndim: c_int, shape: *const isize], out => |p| {
        // SAFETY: per this function's contract.
        let shape = unsafe { array_arg(shape, ndim_arg(out_ndim)?, "shape")? };
        Ok(p.broadcast_to(shape)?)
    })
}

/// Inserts an axis of length 1 and stride 0 at position `axis` of the result
/// (`np.expand_dims`); `axis` ranges over `-(ndim + 1)..=ndim`.
///
/// Errors: the common ones (`MVS_ERR_NDIM` when `ndim` is 8), `MVS_ERR_AXIS`, `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_expand_dims(
    src: *const mvs_slice,
    ndim: c_int,
    axis: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [axis: c_int], out => |p| Ok(p.expand_dims(axis as isize)?))
}

/// Removes `axis`, whose extent must be 1 (`np.squeeze(src, axis)`). As in NumPy, a 0-d view
/// accepts axis 0 or -1 and is returned unchanged.
///
/// Errors: the common ones, `MVS_ERR_AXIS`, `MVS_ERR_SHAPE` (extent not 1), `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_squeeze_axis(
    src: *const mvs_slice,
    ndim: c_int,
    axis: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [axis: c_int], out => |p| Ok(p.squeeze_axis(axis as isize)?))
}

/// Removes every axis of extent 1 (`np.squeeze(src)`); `out_ndim` receives the result's number
/// of dimensions.
///
/// Errors: the common ones, `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same),
/// `out_ndim` to a writable int.
#[no_mangle]
pub unsafe extern "C" fn mvs_squeeze(
    src: *const mvs_slice,
    ndim: c_int,
    out: *mut mvs_slice,
    out_ndim: *mut c_int,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe {
        derive_ndim(src, ndim, out, out_ndim, |src, result| {
            *result = src.view();
            Ok(result.squeeze()?)
        })
    }
}

/// A diagonal (`np.diagonal(src, offset, axis1, axis2)`): `axis1` and `axis2` are removed and
/// the diagonal becomes the last axis, of stride `strides[axis1] + strides[axis2]`; the result
/// has `ndim - 1` dimensions. `offset > 0` starts above the main diagonal (along `axis2`),
/// `offset < 0` below it; an offset past the edge gives an empty diagonal.
///
/// Errors: the common ones (`MVS_ERR_NDIM` when `ndim < 2`), `MVS_ERR_AXIS` (out of range or
/// equal), `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_diagonal(
    src: *const mvs_slice,
    ndim: c_int,
    offset: isize,
    axis1: c_int,
    axis2: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [offset: isize, axis1: c_int, axis2: c_int], out => |p| {
        Ok(p.diagonal(offset, axis1 as isize, axis2 as isize)?)
    })
}

/// Reverses one axis (`src[..., ::-1, ...]`).
///
/// Errors: the common ones, `MVS_ERR_AXIS`, `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_flip_axis(
    src: *const mvs_slice,
    ndim: c_int,
    axis: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [axis: c_int], out => |p| Ok(p.flip_axis(axis as isize)?))
}

/// Reverses every axis (`np.flip(src)`).
///
/// Errors: the common ones, `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_flip(src: *const mvs_slice, ndim: c_int, out: *mut mvs_slice) -> mvs_status {
    derivation!(src, ndim, [], out => |p| Ok(p.flip()?))
}

/// Sliding windows along `axis` (`torch.Tensor.unfold(axis, window, step)`): `axis` becomes the
/// window count `(len - window) / step + 1` with stride `stride * step`, and a new last axis of
/// length `window` walks inside a window. Same as NumPy's
/// `sliding_window_view(src, window, axis=axis)[..., ::step, ...]`.
///
/// Errors: the common ones (`MVS_ERR_NDIM` when `ndim` is 8), `MVS_ERR_AXIS`, `MVS_ERR_VALUE`
/// (`window` negative or larger than the axis), `MVS_ERR_STEP` (`step <= 0`), `MVS_ERR_INDIRECT`.
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_sliding_window(
    src: *const mvs_slice,
    ndim: c_int,
    axis: c_int,
    window: isize,
    step: isize,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [axis: c_int, window: isize, step: isize], out => |p| {
        Ok(p.sliding_window(axis as isize, window, step)?)
    })
}

/// Views the items as items of another size: `src.view(dtype)` in NumPy, `src`'s items being
/// of `itemsize` bytes and the dtype's of `new_itemsize` (NumPy's rule for a change of item
/// size, `ndarray.dtype`'s setter):
///
/// - equal sizes change nothing: the result is `src` as it is, for any `ndim` (0 included);
/// - otherwise only the last axis changes, and it must be contiguous (stride `itemsize`) unless
///   its extent is 1 or the view is empty (an extent is 0). A smaller `new_itemsize` must divide
///   `itemsize`: the last extent is multiplied by `itemsize / new_itemsize`. A larger one must
///   divide the last axis's bytes (its extent times `itemsize`): the last extent becomes those
///   bytes divided by `new_itemsize`.
///
/// The last stride becomes `new_itemsize`, also when the new extent is 0 or 1 (as NumPy's);
/// the data address does not move. So `complex128` items (16 bytes) viewed as `float64` (8)
/// give a last axis twice as long, whose slices `0::2` and `1::2` are the real and imaginary
/// parts (`.real`, `.imag`).
///
/// Errors, in the order they are checked: the common ones; `MVS_ERR_ITEMSIZE` (`itemsize` or
/// `new_itemsize` not positive); `MVS_ERR_INDIRECT` (an indirect axis, also for equal sizes);
/// then NumPy's refusals, in NumPy's order, each with the status the library gives the same
/// kind of refusal elsewhere: `MVS_ERR_NDIM` (a 0-d view and sizes that differ: the operation
/// needs a dimension the view lacks), `MVS_ERR_NOT_CONTIGUOUS` (the last axis is not
/// contiguous, as for a subview of a non-contiguous source), `MVS_ERR_VALUE` (a smaller size
/// that does not divide `itemsize`, or a larger one that does not divide the last axis's
/// bytes, as for sections that do not divide an axis); last, `MVS_ERR_OVERFLOW` (the new last
/// extent, or the result's span, which grows by `itemsize - new_itemsize` for a smaller size,
/// does not fit in `ptrdiff_t`).
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `out` to a writable one (they may be the same).
#[no_mangle]
pub unsafe extern "C" fn mvs_view_as(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    new_itemsize: isize,
    out: *mut mvs_slice,
) -> mvs_status {
    derivation!(src, ndim, [itemsize: isize, new_itemsize: isize], out => |p| {
        Ok(p.view_as(itemsize, new_itemsize)?)
    })
}

/// Splits `axis` into `sections` pieces: equal ones (`np.split`, `uneven == 0`) or, with
/// `uneven != 0`, as `np.array_split` (the first `len % sections` pieces get one more).
///
/// - `outs`: `nouts` slices, which must equal `sections`; each receives a piece with `src`'s
///   memview. Written only on success. `outs` may include `src`.
///
/// Errors: the common ones, `MVS_ERR_AXIS`, `MVS_ERR_INDIRECT`, `MVS_ERR_VALUE` (`sections <=
/// 0`, `nouts != sections`, an uneven split with `uneven == 0`, or `nouts` slices that could not
/// exist: more than `PTRDIFF_MAX` bytes, refused before anything is read).
///
/// # Safety
/// `src` points to a readable `mvs_slice`; `outs` to `nouts` writable ones.
#[no_mangle]
pub unsafe extern "C" fn mvs_split_sections(
    src: *const mvs_slice,
    ndim: c_int,
    axis: c_int,
    sections: isize,
    uneven: c_int,
    outs: *mut mvs_slice,
    nouts: isize,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { split(src, ndim, outs, nouts, |v| Ok(v.split_sections(axis as isize, sections, uneven != 0)?)) }
}

/// Splits `axis` at `indices` (`np.split(src, indices, axis)`): the pieces are `[:indices[0]]`,
/// `[indices[0]:indices[1]]`, ..., `[indices[n - 1]:]`, each with Python's slice semantics
/// (negative indices count from the end, bounds clamp, decreasing indices give empty pieces).
///
/// - `indices`: `nindices` positions (>= 0; may be NULL when 0).
/// - `outs`: `nindices + 1` slices, each receiving a piece with `src`'s memview. Written only on
///   success. `outs` may include `src`.
///
/// Errors: the common ones, `MVS_ERR_AXIS`, `MVS_ERR_INDIRECT`, `MVS_ERR_VALUE` (`nindices`
/// negative, or so large that `nindices + 1` slices could not exist: more than `PTRDIFF_MAX`
/// bytes, refused before anything is read).
///
/// # Safety
/// `src` points to a readable `mvs_slice`, `indices` to `nindices` readable entries, `outs` to
/// `nindices + 1` writable slices.
#[no_mangle]
pub unsafe extern "C" fn mvs_split_at(
    src: *const mvs_slice,
    ndim: c_int,
    axis: c_int,
    indices: *const isize,
    nindices: isize,
    outs: *mut mvs_slice,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe {
        split(src, ndim, outs, nindices.saturating_add(1), |v| {
            let n =
                usize::try_from(nindices).map_err(|_| view::Error::Count { what: "index count", count: nindices })?;
            Ok(v.split_at(axis as isize, array_arg(indices, n, "indices")?)?)
        })
    }
}

/// The core's form of an item. An unknown kind reads as an ellipsis, which [`Parts::index_usual`]
/// refuses; [`Parts::index_checked`] is given known kinds only.
fn to_item(item: &mvs_index_item) -> Item {
    match item.kind {
        MVS_ITEM_INDEX => Item::Index(item.start),
        MVS_ITEM_SLICE => Item::Slice { start: item.start, stop: item.stop, step: item.step },
        MVS_ITEM_NEWAXIS => Item::NewAxis,
        _ => Item::Ellipsis,
    }
}
