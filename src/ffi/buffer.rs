//! Exported reference-counted buffers: `mvs_buffer`, its constructors, retain and release, its
//! queries, and contiguous views over it.
//!
//! The reference count follows `std::sync::Arc`: increments are Relaxed (a new reference is
//! made from an existing one, which already keeps the buffer alive), decrements are Release,
//! and the thread that takes the count to zero issues an Acquire fence before freeing, so every
//! other thread's use of the memory happens before the deallocation.

use core::ffi::{c_int, c_void};
use core::sync::atomic::{fence, AtomicUsize, Ordering};
use std::alloc::{self, Layout};

use super::*;
use crate::memory;

/// Flag of `mvs_buffer_alloc`: fill the memory with zero bytes.
pub const MVS_BUFFER_ZEROED: c_int = 1;
/// Flag of `mvs_buffer_wrap`: the memory is read-only (for example a `const void *` from
/// another library). `mvs_buffer_readonly` reports it, and consumers that honour it (the
/// Python buffer protocol) export the memory read-only. The library itself never writes.
pub const MVS_BUFFER_READONLY: c_int = 2;

/// Reference counts stop here: `mvs_buffer_retain` fails rather than letting the count wrap.
const MAX_REFS: usize = isize::MAX as usize;

/// The deallocation callback of `mvs_buffer_wrap`: called exactly once, with the wrapped data
/// pointer and the context pointer given to `mvs_buffer_wrap`, on the thread that releases the
/// last reference. It must not call back into the buffer (it is already gone).
pub type mvs_dealloc_fn = Option<unsafe extern "C" fn(data: *mut c_void, ctx: *mut c_void)>;

/// An opaque, atomically reference-counted owner of a memory block: either allocated by the
/// library (`mvs_buffer_alloc`) or foreign memory with a deallocation callback
/// (`mvs_buffer_wrap`). A new buffer has one reference, owned by the caller. Every reference
/// is given back with `mvs_buffer_release`; the memory is freed (or the callback runs) exactly
/// once, when the last reference goes, on the thread that releases it. References may be
/// retained and released from any thread without locks and without the GIL. The data pointer,
/// size and read-only flag never change.
pub struct mvs_buffer {
    refs: AtomicUsize,
    data: *mut c_void,
    nbytes: isize,
    readonly: bool,
    owner: Owner,
}

#[derive(Clone, Copy)]
enum Owner {
    /// The `mvs_buffer` and its data are one block of this layout, from `alloc`.
    Block(Layout),
    /// Foreign data, freed by `dealloc(data, ctx)` (nothing when NULL); the `mvs_buffer`
    /// itself comes from `try_box`.
    Foreign { dealloc: mvs_dealloc_fn, ctx: *mut c_void },
}

/// The buffer at `buffer`, checked non-NULL.
///
/// # Safety
/// `buffer` is NULL or a live buffer on which the caller holds a reference.
unsafe fn buffer_arg<'a>(buffer: *const mvs_buffer) -> Result<&'a mvs_buffer, Failure> {
    // SAFETY: per this function's contract, a live buffer when not NULL; the caller's
    // reference keeps it alive for the call.
    unsafe { buffer.as_ref() }.ok_or(Failure::Null("buffer"))
}

/// Frees `buffer` and its memory (or calls its deallocation callback).
///
/// # Safety
/// `buffer` is a buffer whose reference count just dropped to 0, after an Acquire fence.
unsafe fn destroy(buffer: *mut mvs_buffer) {
    // SAFETY: per this function's contract, no other reference exists: this thread owns it.
    let (data, owner) = unsafe { ((*buffer).data, (*buffer).owner) };
    match owner {
        // SAFETY: the block was allocated with this layout by `mvs_buffer_alloc`, and the
        // buffer has no fields that need dropping.
        Owner::Block(layout) => unsafe { alloc::dealloc(buffer.cast(), layout) },
        Owner::Foreign { dealloc, ctx } => {
            // SAFETY: made by `try_box` in `mvs_buffer_wrap`; not used again.
            unsafe { free_box(buffer) };
            if let Some(dealloc) = dealloc {
                // SAFETY: the caller of `mvs_buffer_wrap` promised that `dealloc(data, ctx)`
                // may be called once, when the last reference goes, which is now.
                unsafe { dealloc(data, ctx) };
            }
        }
    }
}

/// Allocates a buffer of `nbytes` bytes aligned to `alignment`. The new buffer has one
/// reference, owned by the caller; it is writable.
///
/// - `nbytes`: >= 0. A size of 0 still gives a unique, aligned, non-NULL data pointer.
/// - `alignment`: a power of two (1, 2, 4, ...) giving the data pointer's alignment.
/// - `flags`: 0 or `MVS_BUFFER_ZEROED` (the memory is zero-filled; otherwise its content is
///   unspecified, as from `malloc`).
/// - `out`: receives the buffer.
///
/// Errors: `MVS_ERR_NULL` (`out` is NULL), `MVS_ERR_SHAPE` (`nbytes` < 0), `MVS_ERR_VALUE`
/// (`alignment` is not a power of two, or unknown bits in `flags`), `MVS_ERR_OVERFLOW` (the
/// block, `nbytes` rounded up to `alignment` plus a small header, would exceed `PTRDIFF_MAX`
/// bytes), `MVS_ERR_ALLOC` (the allocator refused).
///
/// The buffer and its memory are one allocation from the Rust global allocator (the system
/// `malloc` family); release it with `mvs_buffer_release`, never `free`. Thread-safe.
///
/// # Safety
/// `out` is NULL or points to a writable `mvs_buffer *`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_alloc(
    nbytes: isize,
    alignment: isize,
    flags: c_int,
    out: *mut *mut mvs_buffer,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        memory::check_flags(flags, MVS_BUFFER_ZEROED)?;
        let data = memory::data_layout(nbytes, alignment)?;
        let (block, offset) = memory::header_and_data(Layout::new::<mvs_buffer>(), data)?;
        // SAFETY: `block` has a non-zero size (it holds the header).
        let base = unsafe {
            if flags & MVS_BUFFER_ZEROED != 0 {
                alloc::alloc_zeroed(block)
            } else {
                alloc::alloc(block)
            }
        };
        if base.is_null() {
            return Err(memory::Error::Alloc { nbytes: block.size(), alignment: block.align() }.into());
        }
        let header = mvs_buffer {
            refs: AtomicUsize::new(1),
            // In bounds: `offset + nbytes <= block.size()`.
            data: base.wrapping_add(offset).cast(),
            nbytes,
            readonly: false,
            owner: Owner::Block(block),
        };
        let buffer = base.cast::<mvs_buffer>();
        // SAFETY: the block starts with room for the header, aligned for it (`block.align()` is
        // at least the header's alignment); `out` is non-NULL and writable per the contract.
        unsafe {
            buffer.write(header);
            write_out(out, buffer);
        }
        Ok(())
    })
}

/// Wraps `nbytes` bytes of foreign memory at `data` in a new buffer, without copying. The new
/// buffer has one reference, owned by the caller. When the last reference is released,
/// `dealloc(data, ctx)` is called exactly once, on the releasing thread.
///
/// - `data`: the memory; may be NULL only when `nbytes` is 0. Not read or written by the
///   library.
/// - `nbytes`: >= 0.
/// - `dealloc`: frees the memory; NULL for memory the caller keeps (then the buffer only
///   borrows it, and the caller must keep it valid until the last release).
/// - `ctx`: passed to `dealloc` unchanged (for example an allocator handle, or the owning
///   object of another library); may be NULL.
/// - `flags`: 0 or `MVS_BUFFER_READONLY`.
/// - `out`: receives the buffer.
///
/// Errors: `MVS_ERR_NULL` (`out` is NULL, or `data` is NULL and `nbytes` > 0), `MVS_ERR_SHAPE`
/// (`nbytes` < 0), `MVS_ERR_VALUE` (unknown bits in `flags`), `MVS_ERR_ALLOC` (no memory for
/// the buffer's small header). On failure `dealloc` is not called: the memory is still the
/// caller's. Thread-safe.
///
/// # Safety
/// `data` points to `nbytes` bytes that stay valid (and, unless `MVS_BUFFER_READONLY`,
/// writable) until `dealloc` is called, or until the last release when `dealloc` is NULL;
/// `dealloc(data, ctx)` may be called once from any thread; `out` is NULL or points to a
/// writable `mvs_buffer *`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_wrap(
    data: *mut c_void,
    nbytes: isize,
    dealloc: mvs_dealloc_fn,
    ctx: *mut c_void,
    flags: c_int,
    out: *mut *mut mvs_buffer,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        memory::check_flags(flags, MVS_BUFFER_READONLY)?;
        if nbytes < 0 {
            return Err(memory::Error::NegativeSize { nbytes }.into());
        }
        if data.is_null() && nbytes > 0 {
            return Err(Failure::Null("data"));
        }
        let buffer = try_box(mvs_buffer {
            refs: AtomicUsize::new(1),
            data,
            nbytes,
            readonly: flags & MVS_BUFFER_READONLY != 0,
            owner: Owner::Foreign { dealloc, ctx },
        })?;
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, buffer) };
        Ok(())
    })
}

/// Adds a reference to `buffer`, to be given back with `mvs_buffer_release`. Lock-free,
/// callable from any thread (a relaxed atomic increment).
///
/// Errors: `MVS_ERR_NULL` (`buffer` is NULL), `MVS_ERR_OVERFLOW` (the count would exceed
/// `PTRDIFF_MAX`; nothing changes).
///
/// # Safety
/// `buffer` is NULL or a live buffer on which the calling thread holds a reference (or one that
/// another reference keeps alive for the duration of the call).
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_retain(buffer: *mut mvs_buffer) -> mvs_status {
    run(|| {
        // SAFETY: per this function's contract.
        let b = unsafe { buffer_arg(buffer)? };
        // Relaxed, as in `Arc::clone`: the caller's reference already keeps the buffer alive,
        // and the new reference is handed to other threads only through their own
        // synchronization.
        if b.refs.fetch_add(1, Ordering::Relaxed) >= MAX_REFS {
            b.refs.fetch_sub(1, Ordering::Relaxed);
            return Err(memory::Error::RefCount.into());
        }
        Ok(())
    })
}

/// Gives back one reference to `buffer`. When it was the last, frees the memory (a buffer from
/// `mvs_buffer_alloc`) or calls the deallocation callback (from `mvs_buffer_wrap`, unless it
/// is NULL), exactly once, on this thread, before returning; the buffer, its memory and every
/// view of it are then invalid. `buffer` NULL is a no-op. Lock-free, callable from any thread:
/// a Release decrement, and an Acquire fence before freeing, so that every thread's use of the
/// memory before its release happens before the deallocation.
///
/// # Safety
/// `buffer` is NULL or a live buffer, and the caller gives up one reference it holds (releasing
/// more references than were taken is undefined behaviour, as with `free`).
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_release(buffer: *mut mvs_buffer) {
    let _ = run(|| {
        // SAFETY: per this function's contract, NULL or live.
        let Some(b) = (unsafe { buffer.as_ref() }) else { return Ok(()) };
        if b.refs.fetch_sub(1, Ordering::Release) != 1 {
            return Ok(());
        }
        fence(Ordering::Acquire);
        // SAFETY: the count went from 1 to 0, so this was the last reference, and the fence
        // orders every other thread's release before what follows.
        unsafe { destroy(buffer) };
        Ok(())
    });
}

/// The address of the buffer's memory, into `*out` (aligned as requested for a buffer from
/// `mvs_buffer_alloc`; the wrapped pointer for one from `mvs_buffer_wrap`). It never changes.
///
/// Errors: `MVS_ERR_NULL` (`buffer` or `out` is NULL). Thread-safe.
///
/// # Safety
/// `buffer` is NULL or a live buffer; `out` is NULL or points to a writable `void *`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_data(buffer: *const mvs_buffer, out: *mut *mut c_void) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { buffer_query(buffer, out, |b| b.data) }
}

/// The size of the buffer's memory in bytes, into `*out`. It never changes.
///
/// Errors: `MVS_ERR_NULL` (`buffer` or `out` is NULL). Thread-safe.
///
/// # Safety
/// `buffer` is NULL or a live buffer; `out` is NULL or points to a writable `ptrdiff_t`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_size(buffer: *const mvs_buffer, out: *mut isize) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { buffer_query(buffer, out, |b| b.nbytes) }
}

/// Whether the buffer's memory is read-only (wrapped with `MVS_BUFFER_READONLY`): 1 or 0 into
/// `*out`. It never changes.
///
/// Errors: `MVS_ERR_NULL` (`buffer` or `out` is NULL). Thread-safe.
///
/// # Safety
/// `buffer` is NULL or a live buffer; `out` is NULL or points to a writable int.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_readonly(buffer: *const mvs_buffer, out: *mut c_int) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { buffer_query(buffer, out, |b| b.readonly as c_int) }
}

/// The buffer's current reference count, into `*out` (for tests and debugging: other threads
/// may change it at any time, so it is only a snapshot).
///
/// Errors: `MVS_ERR_NULL` (`buffer` or `out` is NULL). Thread-safe.
///
/// # Safety
/// `buffer` is NULL or a live buffer; `out` is NULL or points to a writable `ptrdiff_t`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_refcount(buffer: *const mvs_buffer, out: *mut isize) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { buffer_query(buffer, out, |b| b.refs.load(Ordering::Relaxed) as isize) }
}

/// Reads a property of `buffer` into `out`.
///
/// # Safety
/// `buffer` is NULL or a live buffer; `out` is NULL or points to a writable `T`.
unsafe fn buffer_query<T>(buffer: *const mvs_buffer, out: *mut T, get: impl FnOnce(&mvs_buffer) -> T) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let b = unsafe { buffer_arg(buffer)? };
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, get(b)) };
        Ok(())
    })
}

/// Builds a contiguous view of `shape` in C or F order over the start of the buffer's memory.
/// Its `memview` is `buffer` itself, so that C code can find the buffer again from the view,
/// or from any view derived from it (derivations copy `memview`), with `mvs_buffer_of`.
///
/// The view BORROWS the buffer: it holds no reference, and building, copying, deriving or
/// dropping a view never changes the count. A view is valid while some reference keeps the
/// buffer alive. To keep the memory alive as long as a view, retain the buffer when storing
/// the view (`mvs_buffer_of` then `mvs_buffer_retain`) and release it when done with the view.
///
/// NEVER hand such a view to Cython as a typed memoryview: Cython reads `memview` as a
/// `PyObject *` memoryview and would use the buffer as one (crash or memory corruption). To
/// reach Python, hand over the buffer (a reference to it), not the view.
///
/// - `buffer`: the buffer; `itemsize`: bytes per item, > 0.
/// - `ndim`: 0..=8; `shape` holds `ndim` extents, each >= 0 (may be NULL when `ndim` is 0).
/// - `order`: `'C'` or `'F'`.
/// - `out`: receives the view.
///
/// Errors: `MVS_ERR_NULL` (`buffer`, `shape` or `out` is NULL), `MVS_ERR_NDIM`,
/// `MVS_ERR_ITEMSIZE`, `MVS_ERR_SHAPE` (a negative extent), `MVS_ERR_VALUE` (unknown order),
/// `MVS_ERR_OVERFLOW` (the byte size does not fit in `ptrdiff_t`), `MVS_ERR_BOUNDS` (the view
/// needs more bytes than the buffer has). The data pointer's alignment is not checked against
/// `itemsize`. A read-only buffer gives a view like any other: the struct has no read-only
/// flag, and writing through it is the caller's error. Does not allocate; thread-safe.
///
/// # Safety
/// `buffer` is NULL or a live buffer; `shape` points to `ndim` readable extents; `out` is NULL
/// or points to a writable `mvs_slice`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_view(
    buffer: *mut mvs_buffer,
    itemsize: isize,
    ndim: c_int,
    shape: *const isize,
    order: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let b = unsafe { buffer_arg(buffer)? };
        // SAFETY: per this function's contract.
        let v = unsafe { contiguous_arg(RawPtr(b.data.cast()), itemsize, ndim, shape, order)? };
        let need = v.byte_count(itemsize)?;
        if need > b.nbytes {
            return Err(memory::Error::ViewTooLarge { need, have: b.nbytes }.into());
        }
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, to_slice(&v, buffer.cast())) };
        Ok(())
    })
}

/// The buffer a view carries in its `memview`, into `*out`: for a view made by
/// `mvs_buffer_view` or derived from one, the buffer. Takes no reference (call
/// `mvs_buffer_retain` to keep it), and does not dereference `memview`, so it cannot tell a
/// buffer from another token: only call it on views that come from `mvs_buffer_view`.
///
/// Errors: `MVS_ERR_NULL` (`view` or `out` is NULL), `MVS_ERR_VALUE` (`memview` is NULL: the
/// view carries no buffer). Thread-safe.
///
/// # Safety
/// `view` is NULL or points to a readable `mvs_slice`; `out` is NULL or points to a writable
/// `mvs_buffer *`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_of(view: *const mvs_slice, out: *mut *mut mvs_buffer) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let v = unsafe { view.as_ref() }.ok_or(Failure::Null("view"))?;
        if v.memview.is_null() {
            return Err(memory::Error::NoBuffer.into());
        }
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, v.memview.cast::<mvs_buffer>()) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(b: *const mvs_buffer) -> isize {
        let mut n = -1;
        // SAFETY: `b` is live in these tests.
        assert_eq!(unsafe { mvs_buffer_refcount(b, &mut n) }, MVS_OK);
        n
    }

    #[test]
    fn retain_refuses_to_pass_the_limit() {
        let mut b: *mut mvs_buffer = core::ptr::null_mut();
        // SAFETY: valid out pointer; `b` is live until the last release below.
        unsafe {
            assert_eq!(mvs_buffer_alloc(16, 8, 0, &mut b), MVS_OK);
            (*b).refs.store(MAX_REFS, Ordering::Relaxed);
            assert_eq!(mvs_buffer_retain(b), MVS_ERR_OVERFLOW);
            assert_eq!(refs(b), isize::MAX);
            (*b).refs.store(MAX_REFS - 1, Ordering::Relaxed);
            assert_eq!(mvs_buffer_retain(b), MVS_OK);
            assert_eq!(mvs_buffer_retain(b), MVS_ERR_OVERFLOW);
            (*b).refs.store(1, Ordering::Relaxed);
            mvs_buffer_release(b);
        }
    }

    static CALLS: AtomicUsize = AtomicUsize::new(0);
    unsafe extern "C" fn count(data: *mut c_void, ctx: *mut c_void) {
        assert_eq!(data as usize, 0x1000);
        assert_eq!(ctx as usize, 0x2000);
        CALLS.fetch_add(1, Ordering::SeqCst);
    }

    #[test]
    fn callback_runs_once_at_the_last_release_from_any_thread() {
        let mut b: *mut mvs_buffer = core::ptr::null_mut();
        // SAFETY: the wrapped "memory" is never touched (size 0 at a fake address) and the
        // callback only counts.
        unsafe {
            assert_eq!(
                mvs_buffer_wrap(0x1000 as *mut c_void, 0, Some(count), 0x2000 as *mut c_void, 0, &mut b),
                MVS_OK
            );
        }
        struct Shared(*mut mvs_buffer);
        // SAFETY: the buffer's reference count is atomic; the pointer is only used through it.
        unsafe impl Send for Shared {}
        let threads: Vec<_> = (0..4)
            .map(|_| {
                // SAFETY: `b` is live (the main thread holds a reference).
                assert_eq!(unsafe { mvs_buffer_retain(b) }, MVS_OK);
                let s = Shared(b);
                std::thread::spawn(move || {
                    let s = s;
                    for _ in 0..10_000 {
                        // SAFETY: this thread holds a reference.
                        unsafe {
                            assert_eq!(mvs_buffer_retain(s.0), MVS_OK);
                            mvs_buffer_release(s.0);
                        }
                    }
                    // SAFETY: gives back this thread's reference.
                    unsafe { mvs_buffer_release(s.0) };
                })
            })
            .collect();
        // SAFETY: gives back the main thread's reference.
        unsafe { mvs_buffer_release(b) };
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(CALLS.load(Ordering::SeqCst), 1);
    }
}
