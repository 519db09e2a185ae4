//! Exported data movement: copies between views, fills, contiguous copies into new buffers.
//! The loops are in [`crate::copy`]; this file reads the arguments and gives the kernels the
//! memory ([`Raw`]), the one place they touch it.

use core::ffi::{c_char, c_int, c_void};

use super::*;
use crate::copy::{self, Memory, Tile};
use crate::memory;
use crate::view::Order;

/// Copies every item of `src` into `dst`, as if `src` were first copied to a temporary:
/// `np.copyto(dst, src.copy())`. Strides of any sign; `src` broadcasts as in Cython's
/// `dst[...] = src`: the shapes are aligned from the end, missing leading axes count as extent
/// 1, leading axes of `src` beyond `dst`'s must have extent 1 (they are dropped, as NumPy's
/// `copyto` does), and a source axis of extent 1 repeats along a longer destination axis; any
/// other difference is an error.
///
/// - `src`, `src_ndim`: the source view (0..=8 dimensions).
/// - `dst`, `dst_ndim`: the destination view (0..=8 dimensions), written in place; `dst` itself
///   is only read.
/// - `itemsize`: bytes per item of both, > 0. Any size; 1, 2, 4, 8 and 16 take fast paths.
///
/// Memory: when the byte extents of `src` and `dst` are disjoint, when they are the same items
/// (the copy does nothing), or when both are one contiguous run of bytes (copied as by
/// `memmove`), the copy is direct. Otherwise, where they may overlap, `src` is first copied to
/// a temporary of its own size, allocated and freed by this call (`MVS_ERR_ALLOC` if that
/// fails, with `dst` unchanged). Nothing outside the two views is read or written. A `dst` whose
/// distinct items overlap each other otherwise (hand-made strides) is written in an unspecified
/// order.
///
/// Errors: `MVS_ERR_NULL` (`src` or `dst` NULL), `MVS_ERR_NDIM`, `MVS_ERR_ITEMSIZE`,
/// `MVS_ERR_SHAPE` (a negative extent), `MVS_ERR_OVERFLOW` (a view's byte extent does not fit
/// in `ptrdiff_t`), `MVS_ERR_INDIRECT` (either view has an indirect axis: copy it with element
/// pointers instead), `MVS_ERR_BROADCAST` (the shapes differ other than as above),
/// `MVS_ERR_VALUE` (`dst` has items and an axis of stride 0 and extent > 1: its items alias
/// each other), `MVS_ERR_ALLOC`. On error nothing is written.
///
/// Takes no lock; thread-safe as long as no other thread writes the two views' memory.
///
/// # Safety
/// `src` and `dst` point to readable `mvs_slice`s; every item of `src` is readable and every
/// item of `dst` writable memory.
#[no_mangle]
pub unsafe extern "C" fn mvs_copy(
    src: *const mvs_slice,
    src_ndim: c_int,
    dst: *const mvs_slice,
    dst_ndim: c_int,
    itemsize: isize,
) -> mvs_status {
    run(|| {
        // SAFETY: per this function's contract, both are readable when not NULL.
        let (s, d) = unsafe { (src.as_ref(), dst.as_ref()) };
        if let (Some(s), Some(d)) = (s, d) {
            let n = if src_ndim == dst_ndim { src_ndim as u32 as usize } else { usize::MAX };
            if copy::copy_small(&mut Raw, stored(s), stored(d), n, itemsize) {
                return Ok(());
            }
        }
        // SAFETY: per this function's contract.
        let (s, d) = unsafe { (view_arg(src, src_ndim, "src")?, view_arg(dst, dst_ndim, "dst")?) };
        Ok(copy::copy(&mut Raw, &s, &d, itemsize)?)
    })
}

/// Sets every item of `dst` to the `itemsize` bytes at `item` (which may be an item of `dst`
/// itself). An axis of stride 0 is allowed: its items are one item, set once. Items of `dst`
/// that partly overlap each other (hand-made strides) are written in an unspecified order, and
/// for items of more than 256 bytes get unspecified contents.
///
/// - `dst`, `ndim`: the destination view (0..=8 dimensions), written in place.
/// - `itemsize`: bytes per item, > 0; 1, 2, 4, 8 and 16 take fast paths, and an item whose
///   bytes are all equal (zero, say) is written with `memset`.
/// - `item`: the item's bytes, read before anything is written.
///
/// Errors: `MVS_ERR_NULL` (`dst` or `item` NULL), `MVS_ERR_NDIM`, `MVS_ERR_ITEMSIZE`,
/// `MVS_ERR_SHAPE`, `MVS_ERR_OVERFLOW`, `MVS_ERR_INDIRECT`. On error nothing is written. Does not
/// allocate.
///
/// # Safety
/// `dst` points to a readable `mvs_slice` whose every item is writable memory; `item` points to
/// `itemsize` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn mvs_fill(
    dst: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    item: *const c_void,
) -> mvs_status {
    run(|| {
        // SAFETY: per this function's contract.
        let d = unsafe { view_arg(dst, ndim, "dst")? };
        if item.is_null() {
            return Err(Failure::Null("item"));
        }
        Ok(copy::fill(&mut Raw, &d, itemsize, RawPtr(item.cast_mut().cast()))?)
    })
}

/// Copies `src` into a new buffer, contiguous in `order`, and gives the buffer and a view of it
/// that has `src`'s shape: `np.array(src, order=...)`.
///
/// - `src`, `ndim`: the source view (0..=8 dimensions), read only.
/// - `itemsize`: bytes per item, > 0.
/// - `order`: `'C'` or `'F'`.
/// - `out_buffer`: receives the new buffer (one reference, the caller's: give it back with
///   `mvs_buffer_release`); its memory is aligned to 64 bytes and holds exactly the items.
/// - `out_view`: receives the view, as `mvs_buffer_view` makes it (its `memview` is the
///   buffer, borrowed).
///
/// Errors: `MVS_ERR_NULL` (any pointer NULL), `MVS_ERR_NDIM`, `MVS_ERR_ITEMSIZE`,
/// `MVS_ERR_SHAPE`, `MVS_ERR_OVERFLOW`, `MVS_ERR_INDIRECT`, `MVS_ERR_VALUE` (unknown order),
/// `MVS_ERR_ALLOC`. On error nothing is written and nothing is allocated.
///
/// # Safety
/// `src` points to a readable `mvs_slice` whose every item is readable; `out_buffer` points to
/// a writable `mvs_buffer *`, `out_view` to a writable `mvs_slice`.
#[no_mangle]
pub unsafe extern "C" fn mvs_copy_contiguous(
    src: *const mvs_slice,
    ndim: c_int,
    itemsize: isize,
    order: c_int,
    out_buffer: *mut *mut mvs_buffer,
    out_view: *mut mvs_slice,
) -> mvs_status {
    run(|| {
        let out_buffer = out_arg(out_buffer, "out_buffer")?;
        let out_view = out_arg(out_view, "out_view")?;
        // SAFETY: per this function's contract.
        let s = unsafe { view_arg(src, ndim, "src")? };
        let order = Order::from_char(order)?;
        copy::check_source(&s, itemsize)?;
        // The source's own extent is checked before anything is allocated.
        s.extent(itemsize)?;
        let nbytes = s.byte_count(itemsize)?;
        let buffer = alloc_block(memory::data_layout(nbytes, memory::POOL_ALIGN as isize)?, false)?;
        // SAFETY: `alloc_block` gave a live buffer with one reference, ours.
        let data = unsafe { (*buffer).data() };
        let built = View::contiguous(RawPtr(data.cast()), itemsize, &s.shape()[..s.ndim()], order)
            .map_err(Failure::from)
            .and_then(|d| Ok(copy::copy(&mut Raw, &s, &d, itemsize).map(|()| d)?));
        let d = match built {
            Ok(d) => d,
            Err(e) => {
                // SAFETY: the reference `alloc_block` gave, not handed out.
                unsafe { mvs_buffer_release(buffer) };
                return Err(e);
            }
        };
        // SAFETY: both non-NULL and writable per this function's contract.
        unsafe {
            write_out(out_view, to_slice(&d, buffer.cast()));
            write_out(out_buffer, buffer);
        }
        Ok(())
    })
}

/// `v` as the kernels read it unchecked.
fn stored(v: &mvs_slice) -> copy::Stored<'_, RawPtr> {
    copy::Stored { data: RawPtr(v.data), shape: &v.shape, strides: &v.strides, suboffsets: &v.suboffsets }
}

/// The view at `src` with `ndim` dimensions, checked, as a [`View`]; `name` names `src` in the
/// NULL message.
///
/// # Safety
/// `src` is NULL or points to a readable `mvs_slice`.
unsafe fn view_arg(src: *const mvs_slice, ndim: c_int, name: &'static str) -> Result<View<RawPtr>, Failure> {
    if src.is_null() {
        return Err(Failure::Null(name));
    }
    // SAFETY: per this function's contract.
    Ok(unsafe { parts_arg(src, ndim)? }.0.view())
}

/// The memory of the exported functions' views, for [`crate::copy`]: raw pointers.
///
/// Every method is called only by the kernels, on addresses of items of the views that the
/// exported function was given (or of a temporary from [`Memory::alloc`]), which its caller
/// promised readable (a source) or writable (a destination): that is the `SAFETY` of each.
struct Raw;

impl Memory<RawPtr> for Raw {
    #[inline(always)]
    fn move_bytes(&mut self, dst: RawPtr, src: RawPtr, nbytes: usize) {
        // SAFETY: see `Raw`; `copy` allows the ranges to overlap.
        unsafe { core::ptr::copy(src.0, dst.0, nbytes) }
    }

    #[inline(always)]
    fn load<const N: usize>(&mut self, src: RawPtr) -> [u8; N] {
        // SAFETY: see `Raw`; `[u8; N]` has alignment 1.
        unsafe { src.0.cast::<[u8; N]>().read() }
    }

    #[inline(always)]
    fn copy_items<const N: usize>(&mut self, dst: RawPtr, dst_step: isize, src: RawPtr, src_step: isize, count: usize) {
        let (mut d, mut s) = (dst.0, src.0);
        for _ in 0..count {
            // SAFETY: see `Raw`: `count` items from each, `*_step` bytes apart.
            unsafe { d.cast::<[u8; N]>().write(s.cast::<[u8; N]>().read()) };
            d = d.wrapping_offset(dst_step);
            s = s.wrapping_offset(src_step);
        }
    }

    fn copy_tile<const N: usize>(&mut self, tile: &Tile<RawPtr>, stream: bool) {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        // SAFETY: see `Raw`: the tile's items are the views'.
        if let Some((rows, cols)) = unsafe { super::transpose::blocks::<N>(tile, stream) } {
            // the columns right of the blocks, then the rows below them, in narrower blocks
            // where they fit
            self.copy_tile::<N>(&Tile { rows, ..tile.from(0, cols) }, stream);
            self.copy_tile::<N>(&tile.from(rows, 0), stream);
            return;
        }
        let _ = stream;
        tile.copy_items::<N, Self>(self);
    }

    fn tile_shape<const N: usize>(&self) -> (isize, isize) {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        if matches!(N, 1 | 2 | 4 | 8 | 16) {
            return super::transpose::tile_shape::<N>();
        }
        (copy::TILE, copy::TILE)
    }

    fn end_stream(&mut self) {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        super::transpose::end_stream();
    }

    #[inline(always)]
    fn fill_items<const N: usize>(&mut self, dst: RawPtr, step: isize, item: [u8; N], count: usize) {
        if step == N as isize {
            // SAFETY: see `Raw`: `count` adjacent items; `[u8; N]` has alignment 1.
            unsafe { core::slice::from_raw_parts_mut(dst.0.cast::<[u8; N]>(), count) }.fill(item);
            return;
        }
        let mut d = dst.0;
        for _ in 0..count {
            // SAFETY: see `Raw`: `count` items, `step` bytes apart.
            unsafe { d.cast::<[u8; N]>().write(item) };
            d = d.wrapping_offset(step);
        }
    }

    #[inline(always)]
    fn set_bytes(&mut self, dst: RawPtr, byte: u8, nbytes: usize) {
        // SAFETY: see `Raw`.
        unsafe { dst.0.write_bytes(byte, nbytes) }
    }

    #[inline(always)]
    fn read_into(&mut self, src: RawPtr, out: &mut [u8]) {
        // SAFETY: see `Raw`; `out` is the kernel's own memory, apart from the views'.
        unsafe { core::ptr::copy_nonoverlapping(src.0.cast::<u8>(), out.as_mut_ptr(), out.len()) }
    }

    #[inline(always)]
    fn write_from(&mut self, dst: RawPtr, bytes: &[u8]) {
        // SAFETY: see `Raw`; `bytes` is the kernel's own memory, apart from the views'.
        unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.0.cast::<u8>(), bytes.len()) }
    }

    fn alloc(&mut self, nbytes: usize) -> Option<RawPtr> {
        let layout = temporary_layout(nbytes)?;
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { std::alloc::alloc(layout) };
        (!p.is_null()).then_some(RawPtr(p.cast::<c_char>()))
    }

    fn position(&self, p: RawPtr) -> usize {
        p.0 as usize
    }

    fn free(&mut self, p: RawPtr, nbytes: usize) {
        let layout = temporary_layout(nbytes).expect("as in alloc");
        // SAFETY: `p` came from `alloc` with this size, per `Memory::free`'s contract.
        unsafe { std::alloc::dealloc(p.0.cast(), layout) }
    }
}

/// The layout of a copy's temporary of `nbytes` bytes (at least one, cache-line aligned), for
/// both [`Raw::alloc`] and [`Raw::free`]; `None` when it cannot exist.
fn temporary_layout(nbytes: usize) -> Option<std::alloc::Layout> {
    std::alloc::Layout::from_size_align(nbytes.max(1), memory::POOL_ALIGN).ok()
}
