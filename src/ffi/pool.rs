//! Exported pools of same-shape arrays: `mvs_pool`.
//!
//! A pool owns slabs of arrays spaced `slot_bytes` apart (a multiple of 64, so every array is
//! cache-line aligned and no two share a line); the first slab holds `capacity` arrays, and
//! when all are acquired a new slab as large as all previous ones together is added (the pool
//! doubles). Each slab is an `mvs_buffer` of which the pool holds one reference, released by
//! `mvs_pool_destroy`, so that whoever else holds a slab (a typed memoryview's owner) keeps
//! its memory. The bookkeeping is `memory::FreeList`: a cache of free arrays per thread, a
//! lock-free stack of the others (ABA-safe with a tagged top) and one "acquired" flag per
//! array; only growth takes a mutex. The common cases of acquire (also `mvs_pool_acquire_slab`'s,
//! for typed memoryviews) and release (`FreeList::take_quick`, `give_back_quick`) are inline and
//! everything else out of line, so that they need no stack frame: a pair is one locked
//! instruction among about 120 (`make icount`'s `pool`).

use core::ffi::{c_char, c_int, c_void};

use super::*;
use crate::memory::{self, ArrayLayout, FreeList};

/// An opaque pool of arrays of one shape, itemsize and order, for fast acquire and release of
/// scratch arrays from any thread. Made by `mvs_pool_create`, freed by `mvs_pool_destroy`.
pub struct mvs_pool {
    /// Every acquired view is this one with `data` set.
    template: mvs_slice,
    layout: ArrayLayout,
    slot_bytes: usize,
    capacity: usize,
    free: FreeList,
}

impl mvs_pool {
    /// Allocates a slab of `count` arrays, a buffer of which the pool holds the one reference;
    /// for the free list, its memory's address and the buffer's.
    fn alloc_slab(&self, count: usize) -> memory::Result<(usize, usize)> {
        let buffer = alloc_block(memory::slab_layout(self.slot_bytes, count)?, false)?;
        // SAFETY: just made, live.
        let base = unsafe { (*buffer).data() };
        // The free list works on addresses; `as usize` exposes the allocations' provenance,
        // which `mvs_pool_acquire` and `drop` take back with `as *mut _`.
        Ok((base as usize, buffer as usize))
    }

    /// A free array (the pool grows when none is): its data address, and its slab.
    #[inline(always)]
    fn take(&self) -> memory::Result<(*mut c_char, *mut mvs_buffer)> {
        let (addr, slab) = self.free.take_or_grow(thread_id(), self.capacity, |count| self.alloc_slab(count))?;
        // An address inside a slab that `alloc_slab` exposed, and that slab's buffer.
        Ok((addr as *mut c_char, slab as *mut mvs_buffer))
    }
}

impl Drop for mvs_pool {
    fn drop(&mut self) {
        for slab in self.free.slab_tags() {
            // SAFETY: each tag is a buffer made by `alloc_slab` (the free list publishes a slab
            // only after its allocation succeeded), whose reference the pool gives back once.
            unsafe { mvs_buffer_release(slab as *mut mvs_buffer) };
        }
    }
}

/// Writes `template` with `data` and `memview` to `out`, field by field: written whole, the
/// 208-byte view went through a copy on the stack, or a call to `memcpy`, which made an
/// acquire 1.5 times slower.
///
/// # Safety
/// `out` points to a writable `mvs_slice`.
#[inline(always)]
unsafe fn write_view(out: *mut mvs_slice, template: &mvs_slice, data: *mut c_char, memview: *mut c_void) {
    // SAFETY: per this function's contract.
    unsafe {
        (*out).memview = memview;
        (*out).data = data;
        (*out).shape = template.shape;
        (*out).strides = template.strides;
        (*out).suboffsets = template.suboffsets;
    }
}

/// The pool at `pool`, checked non-NULL.
///
/// # Safety
/// `pool` is NULL or a live pool.
unsafe fn pool_arg<'a>(pool: *const mvs_pool) -> Result<&'a mvs_pool, Failure> {
    // SAFETY: per this function's contract.
    unsafe { pool.as_ref() }.ok_or(Failure::Null("pool"))
}

/// Creates a pool of arrays of `shape` items of `itemsize` bytes, contiguous in `order`, with
/// room for `capacity` arrays allocated up front (one slab). Acquiring more than `capacity`
/// at once grows the pool by allocating.
///
/// - `itemsize`: bytes per item, > 0.
/// - `ndim`: 0..=8; `shape` holds `ndim` extents, each >= 0 (may be NULL when `ndim` is 0).
/// - `order`: `'C'` or `'F'`.
/// - `capacity`: >= 0; 0 allocates nothing until the first acquire.
/// - `out`: receives the pool.
///
/// Layout: each array starts on a 64-byte boundary and arrays are spaced by their byte size
/// rounded up to a multiple of 64 (at least 64), so arrays used by different threads never
/// share a cache line. The first slab holds `capacity` arrays; each later slab holds as many
/// as all earlier ones (the pool doubles). Memory returns to the system only at
/// `mvs_pool_destroy`, or later for slabs that someone else keeps (`mvs_pool_acquire_slab`).
///
/// Errors: `MVS_ERR_NULL` (`shape` or `out` is NULL), `MVS_ERR_NDIM`, `MVS_ERR_ITEMSIZE`,
/// `MVS_ERR_SHAPE` (a negative extent), `MVS_ERR_VALUE` (unknown order, or `capacity` < 0),
/// `MVS_ERR_OVERFLOW` (an array, or the first slab, would exceed `PTRDIFF_MAX` bytes, or
/// `capacity` exceeds the most arrays a pool holds, 2^32 - 1), `MVS_ERR_ALLOC`. Thread-safe.
///
/// # Safety
/// `shape` points to `ndim` readable extents; `out` is NULL or points to a writable
/// `mvs_pool *`.
#[no_mangle]
pub unsafe extern "C" fn mvs_pool_create(
    itemsize: isize,
    ndim: c_int,
    shape: *const isize,
    order: c_int,
    capacity: isize,
    out: *mut *mut mvs_pool,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let v = unsafe { contiguous_arg(RawPtr(core::ptr::null_mut()), itemsize, ndim, shape, order)? };
        let capacity = usize::try_from(capacity).map_err(|_| memory::Error::Capacity { capacity })?;
        let slot_bytes = memory::pool_slot_bytes(v.byte_count(itemsize)? as usize)?;
        memory::slab_layout(slot_bytes, capacity)?;
        // Arrays of 0 or 1 dimensions are C- and F-contiguous alike.
        let order = if ndim <= 1 { b'A' } else { order as u8 };
        let layout = ArrayLayout { itemsize, ndim: ndim as usize, order };
        let pool = try_box(mvs_pool {
            template: to_slice(&v, core::ptr::null_mut()),
            layout,
            slot_bytes,
            capacity,
            free: FreeList::new(slot_bytes),
        })?;
        if capacity > 0 {
            // SAFETY: `pool` is the live pool just made, not shared yet.
            let p = unsafe { &*pool };
            if let Err(e) = p.free.add_first_slab(capacity, |count| p.alloc_slab(count)) {
                // SAFETY: made by `try_box` above and not used again.
                unsafe { free_box(pool) };
                return Err(e.into());
            }
        }
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, pool) };
        Ok(())
    })
}

/// Acquires an array of the pool: `*out` receives a contiguous view of it (the pool's shape,
/// itemsize and order; `memview` NULL), for the caller's exclusive use until it gives it back
/// with `mvs_pool_release`. The array this thread gave back last is handed out first (it is
/// likely in cache). Its content is unspecified (not zeroed; what the last user left).
///
/// Each thread keeps up to 15 of the arrays it gave back for its own next acquires, which then
/// take no locked instruction (the first 64 threads at once have such a cache; others share
/// the pool's stack). When no array is free to this thread, the arrays that exited threads
/// left in their caches are taken back, and if none is free either the pool grows by a slab
/// (an allocation, under a mutex that only growth takes); otherwise this neither allocates
/// nor locks. So with several threads the pool may grow while other live threads' caches hold
/// free arrays: at most 15 per thread. Thread-safe and lock-free:
/// any number of threads may acquire and release concurrently; two acquired arrays never
/// overlap, and everything a thread did to an array before releasing it happens before the
/// next acquirer's use.
///
/// The view's `memview` is NULL: never hand it to Cython as a typed memoryview, and do not
/// call `mvs_buffer_of` on it.
///
/// Errors: `MVS_ERR_NULL` (`pool` or `out` is NULL), `MVS_ERR_OVERFLOW` (the pool cannot
/// double again: more than 2^32 - 1 arrays, or a slab larger than `PTRDIFF_MAX` bytes),
/// `MVS_ERR_ALLOC` (growing failed; the pool is unchanged).
///
/// # Safety
/// `pool` is NULL or a live pool; `out` is NULL or points to a writable `mvs_slice`.
#[no_mangle]
pub unsafe extern "C" fn mvs_pool_acquire(pool: *mut mvs_pool, out: *mut mvs_slice) -> mvs_status {
    // The common case (`FreeList::take_quick`), inline and with no error possible, and
    // everything else out of line, so that this path needs no stack frame.
    // SAFETY: per this function's contract.
    if let (Some(p), false) = (unsafe { pool.as_ref() }, out.is_null()) {
        if let Some((addr, _)) = p.free.take_quick(thread_id()) {
            // SAFETY: `out` is non-NULL and writable per this function's contract.
            unsafe { write_view(out, &p.template, addr as *mut c_char, core::ptr::null_mut()) };
            return MVS_OK;
        }
    }
    // SAFETY: per this function's contract.
    unsafe { acquire_general(pool, out) }
}

/// `mvs_pool_acquire` but for its common case: another thread's slot, the shared stack,
/// growth, errors.
///
/// # Safety
/// As `mvs_pool_acquire`.
#[cold]
#[inline(never)]
unsafe fn acquire_general(pool: *mut mvs_pool, out: *mut mvs_slice) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let p = unsafe { pool_arg(pool)? };
        let (data, _) = p.take()?;
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_view(out, &p.template, data, core::ptr::null_mut()) };
        Ok(())
    })
}

/// Acquires an array of the pool as `mvs_pool_acquire` does, after checking that the pool's
/// arrays have `itemsize`, `ndim` and `order` (`'C'` or `'F'`; either for 0 or 1 dimensions),
/// and writes into `*out_slab` the buffer holding the array, of which the pool holds one
/// reference until `mvs_pool_destroy`. The slab is borrowed: retain it (`mvs_buffer_retain`)
/// to keep the array's memory beyond the pool's life. With a non-NULL `key`, `out->memview`
/// receives the value attached to the slab under `key` (`mvs_buffer_attached`, NULL when
/// there is none), saving that call. For bindings that give each slab an owner object
/// (memviewslice's Cython helpers `pool_acquire_Nd`, which attach one with
/// `mvs_buffer_attach`).
///
/// Errors: those of `mvs_pool_acquire`, and `MVS_ERR_NULL` (`out_slab` is NULL),
/// `MVS_ERR_NDIM` (`ndim` outside 0..=8), `MVS_ERR_VALUE` (an order other than `'C'` or `'F'`,
/// or the pool's arrays are not of that item size, dimensions and order; the message says what
/// they are). On error nothing is acquired and nothing is written.
///
/// # Safety
/// `pool` is NULL or a live pool; `out` and `out_slab` are NULL or point to a writable
/// `mvs_slice` and `mvs_buffer *`.
#[no_mangle]
pub unsafe extern "C" fn mvs_pool_acquire_slab(
    pool: *mut mvs_pool,
    itemsize: isize,
    ndim: c_int,
    order: c_int,
    key: *const c_void,
    out: *mut mvs_slice,
    out_slab: *mut *mut mvs_buffer,
) -> mvs_status {
    // The common case inline, as in `mvs_pool_acquire`: the pool's own layout asked for (an
    // order of 'C' or 'F' as an int, not truncated), an array of this thread's cache.
    // SAFETY: per this function's contract.
    if let (Some(p), false, false) = (unsafe { pool.as_ref() }, out.is_null(), out_slab.is_null()) {
        let order_ok = order == b'C' as c_int || order == b'F' as c_int;
        let want = ArrayLayout { itemsize, ndim: ndim as usize, order: order as u8 };
        if order_ok && ndim >= 0 && p.layout.satisfies(&want) {
            if let Some((addr, slab)) = p.free.take_quick(thread_id()) {
                let slab = slab as *mut mvs_buffer;
                // SAFETY: the pool's reference keeps its first slab, whose tag this is, alive.
                let memview = if key.is_null() { core::ptr::null_mut() } else { unsafe { (*slab).attached(key) } };
                // SAFETY: both are non-NULL and writable per this function's contract.
                unsafe {
                    write_view(out, &p.template, addr as *mut c_char, memview);
                    write_out(out_slab, slab);
                }
                return MVS_OK;
            }
        }
    }
    // SAFETY: per this function's contract.
    unsafe { acquire_slab_general(pool, itemsize, ndim, order, key, out, out_slab) }
}

/// `mvs_pool_acquire_slab` but for its common case: checks, another thread's slot, the shared
/// stack, growth, errors.
///
/// # Safety
/// As `mvs_pool_acquire_slab`.
#[cold]
#[inline(never)]
unsafe fn acquire_slab_general(
    pool: *mut mvs_pool,
    itemsize: isize,
    ndim: c_int,
    order: c_int,
    key: *const c_void,
    out: *mut mvs_slice,
    out_slab: *mut *mut mvs_buffer,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        let out_slab = out_arg(out_slab, "out_slab")?;
        // SAFETY: per this function's contract.
        let p = unsafe { pool_arg(pool)? };
        let ndim = ndim_arg(ndim)?;
        view::Order::from_char(order)?;
        let want = ArrayLayout { itemsize, ndim, order: order as u8 };
        if !p.layout.satisfies(&want) {
            return Err(memory::Error::PoolLayout { want, have: p.layout }.into());
        }
        let (data, slab) = p.take()?;
        // SAFETY: the pool's reference keeps the slab alive.
        let memview = if key.is_null() { core::ptr::null_mut() } else { unsafe { (*slab).attached(key) } };
        // SAFETY: both are non-NULL and writable per this function's contract.
        unsafe {
            write_view(out, &p.template, data, memview);
            write_out(out_slab, slab);
        }
        Ok(())
    })
}

/// Gives an array acquired with `mvs_pool_acquire` back to the pool. Only `view->data` is
/// read: it must be the data address `mvs_pool_acquire` wrote (the rest of the view is
/// ignored, so a transposed or reshaped copy with the same data address is fine; a view
/// sliced to a different start is not). Any thread may release an array, not only the one
/// that acquired it; the array goes to the releasing thread's cache (or the pool's stack when
/// that is full), and may be handed out again at once: stop using it first.
///
/// Errors: `MVS_ERR_NULL` (`pool` or `view` is NULL), `MVS_ERR_VALUE` (`view->data` is not the
/// start of an array of this pool, or the array is not acquired: released twice, or never
/// handed out; of two threads racing to release the same array, one gets this error). On
/// error the pool is unchanged. Thread-safe and lock-free (see `mvs_pool_acquire`); does not
/// allocate.
///
/// # Safety
/// `pool` is NULL or a live pool; `view` is NULL or points to a readable `mvs_slice`.
#[no_mangle]
pub unsafe extern "C" fn mvs_pool_release(pool: *mut mvs_pool, view: *const mvs_slice) -> mvs_status {
    // The common case (`FreeList::give_back_quick`) inline, everything else out of line, as in
    // `mvs_pool_acquire`.
    // SAFETY: per this function's contract.
    if let (Some(p), Some(v)) = unsafe { (pool.as_ref(), view.as_ref()) } {
        match p.free.give_back_quick(v.data as usize, thread_id()) {
            Some(true) => return MVS_OK,
            Some(false) => return refused(|| memory::Error::NotAcquired.into()),
            None => {}
        }
    }
    // SAFETY: per this function's contract.
    unsafe { release_general(pool, view) }
}

/// `mvs_pool_release` but for its common case. Not in `run`: nothing here can panic.
///
/// # Safety
/// As `mvs_pool_release`.
#[cold]
#[inline(never)]
unsafe fn release_general(pool: *mut mvs_pool, view: *const mvs_slice) -> mvs_status {
    // SAFETY: per this function's contract.
    match unsafe { (pool.as_ref(), view.as_ref()) } {
        (Some(p), Some(v)) => match p.free.give_back(v.data as usize, thread_id()) {
            Ok(()) => MVS_OK,
            Err(e) => record(&e.into()),
        },
        (None, _) => record(&Failure::Null("pool")),
        (_, None) => record(&Failure::Null("view")),
    }
}

/// Records the failure `make` makes and returns its status, out of line, so that the common
/// case of its caller keeps no `Failure` on the stack.
#[cold]
#[inline(never)]
fn refused(make: impl FnOnce() -> Failure) -> mvs_status {
    record(&make())
}

/// The number of arrays the pool has (free and acquired) into `*out_arrays`, and of those
/// currently acquired into `*out_acquired` (a snapshot when other threads use the pool).
///
/// Errors: `MVS_ERR_NULL` (`pool`, `out_arrays` or `out_acquired` is NULL). Thread-safe.
///
/// # Safety
/// `pool` is NULL or a live pool; `out_arrays` and `out_acquired` are NULL or point to
/// writable `ptrdiff_t`s.
#[no_mangle]
pub unsafe extern "C" fn mvs_pool_counts(
    pool: *const mvs_pool,
    out_arrays: *mut isize,
    out_acquired: *mut isize,
) -> mvs_status {
    run(|| {
        let out_arrays = out_arg(out_arrays, "out_arrays")?;
        let out_acquired = out_arg(out_acquired, "out_acquired")?;
        // SAFETY: per this function's contract.
        let p = unsafe { pool_arg(pool)? };
        let (total, in_use) = (p.free.total() as isize, p.free.in_use() as isize);
        // SAFETY: both are non-NULL and writable per this function's contract.
        unsafe {
            write_out(out_arrays, total);
            write_out(out_acquired, in_use);
        }
        Ok(())
    })
}

/// Destroys the pool and releases its reference to each slab, which frees all of its memory
/// that no one else keeps (a slab retained after `mvs_pool_acquire_slab` stays), including
/// the arrays still acquired: views of them dangle afterwards, and using them (or releasing
/// them) is undefined behaviour. Give every array back first when in doubt (`mvs_pool_counts`
/// tells). `pool` NULL is a no-op.
///
/// Not thread-safe with respect to the same pool: no other call on `pool` may run
/// concurrently or follow.
///
/// # Safety
/// `pool` is NULL or a live pool made by `mvs_pool_create`, not used again.
#[no_mangle]
pub unsafe extern "C" fn mvs_pool_destroy(pool: *mut mvs_pool) {
    let _ = run(|| {
        if !pool.is_null() {
            // SAFETY: per this function's contract, made by `try_box` and not used again.
            unsafe { free_box(pool) };
        }
        Ok(())
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acquire_grow_release_destroy() {
        let shape = [2isize, 5];
        let mut pool: *mut mvs_pool = core::ptr::null_mut();
        let mut views = [mvs_slice::default(); 5];
        let (mut arrays, mut acquired) = (0, 0);
        // SAFETY: valid pointers throughout; the pool is destroyed once, at the end.
        unsafe {
            assert_eq!(mvs_pool_create(4, 2, shape.as_ptr(), b'F' as c_int, 3, &mut pool), MVS_OK);
            for v in views.iter_mut() {
                assert_eq!(mvs_pool_acquire(pool, v), MVS_OK);
                assert_eq!((&v.shape[..2], &v.strides[..2]), (&[2isize, 5][..], &[4isize, 8][..]));
                assert_eq!(v.data as usize % 64, 0);
                v.data.cast::<f32>().write(1.5);
            }
            assert_eq!(mvs_pool_counts(pool, &mut arrays, &mut acquired), MVS_OK);
            assert_eq!((arrays, acquired), (6, 5));
            for v in &views {
                assert_eq!(mvs_pool_release(pool, v), MVS_OK);
            }
            assert_eq!(mvs_pool_release(pool, &views[0]), MVS_ERR_VALUE);
            assert_eq!(mvs_pool_counts(pool, &mut arrays, &mut acquired), MVS_OK);
            assert_eq!((arrays, acquired), (6, 0));
            mvs_pool_destroy(pool);
        }
    }
}
