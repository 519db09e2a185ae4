//! Exported reference-counted buffers: `mvs_buffer`, its constructors, retain and release, its
//! attachments, its queries, and contiguous views over it.
//!
//! The reference counts and the attachments are the core's ([`memory::Ownership`], which
//! decides when to detach and when to free, and whose tests run under Miri); this file
//! allocates and frees the buffers, calls the C callbacks, checks arguments and maps errors.

use core::ffi::{c_int, c_void};
use std::alloc::{GlobalAlloc, Layout, System};

use super::*;
use crate::memory::{self, blocks::BLOCKS};

/// Flag of `mvs_buffer_alloc`: fill the memory with zero bytes.
pub const MVS_BUFFER_ZEROED: c_int = 1;
/// Flag of `mvs_buffer_wrap`: the memory is read-only (for example a `const void *` from
/// another library). `mvs_buffer_readonly` reports it, and consumers that honour it (the
/// Python buffer protocol) export the memory read-only. The library itself never writes.
pub const MVS_BUFFER_READONLY: c_int = 2;

/// The deallocation callback of `mvs_buffer_wrap`: called exactly once, with the wrapped data
/// pointer and the context pointer given to `mvs_buffer_wrap`, on the thread that releases the
/// last reference. It must not call back into the buffer (it is already gone).
pub type mvs_dealloc_fn = Option<unsafe extern "C" fn(data: *mut c_void, ctx: *mut c_void)>;

/// The detach callback of `mvs_buffer_attach`: called exactly once with the attached value, on
/// the thread that releases the buffer's last reference, before the memory is freed. It may
/// call `mvs_buffer_release_memory` (and the queries) on the buffer, nothing else.
pub type mvs_detach_fn = Option<unsafe extern "C" fn(value: *mut c_void)>;

/// An opaque, atomically reference-counted owner of a memory block: either allocated by the
/// library (`mvs_buffer_alloc`) or foreign memory with a deallocation callback
/// (`mvs_buffer_wrap`). A new buffer has one reference, owned by the caller. Every reference
/// is given back with `mvs_buffer_release`; the memory is freed (or the callback runs) exactly
/// once, when the last reference goes, on the thread that releases it. References may be
/// retained and released from any thread without locks and without the GIL. The data pointer,
/// size and read-only flag never change.
///
/// A buffer also has attachments (`mvs_buffer_attach`: a language binding's owner objects,
/// found again from the buffer) and memory references (`mvs_buffer_retain_memory`), which
/// keep only the memory alive: see `mvs_buffer_attach`.
pub struct mvs_buffer {
    /// The references, memory references and attachments (values under keys).
    own: memory::Ownership<*const c_void, Attached>,
    data: *mut c_void,
    nbytes: isize,
    readonly: bool,
    owner: Owner,
}

#[derive(Clone, Copy)]
enum Owner {
    /// The `mvs_buffer` and its data are one block from the system allocator, at `base`, of
    /// this layout (`memory::Block`: the header is not necessarily at its start).
    Block { base: *mut u8, layout: Layout },
    /// Foreign data, freed by `dealloc(data, ctx)` (nothing when NULL); the `mvs_buffer`
    /// itself comes from `try_box`.
    Foreign { dealloc: mvs_dealloc_fn, ctx: *mut c_void },
}

/// A value attached to a buffer (`mvs_buffer_attach`), with its detach callback.
#[derive(Clone, Copy)]
struct Attached {
    value: *mut c_void,
    detach: mvs_detach_fn,
}

impl mvs_buffer {
    /// The memory's address.
    pub(super) fn data(&self) -> *mut c_void {
        self.data
    }

    /// The memory's size in bytes.
    pub(super) fn nbytes(&self) -> isize {
        self.nbytes
    }

    /// Whether the memory is read-only.
    pub(super) fn readonly(&self) -> bool {
        self.readonly
    }

    /// Adds a reference (`mvs_buffer_retain`), for an object of the C layer that keeps one.
    pub(super) fn retain(&self) -> Result<(), Failure> {
        Ok(self.own.retain()?)
    }

    /// A new buffer's header: one reference, no attachments.
    fn new(data: *mut c_void, nbytes: isize, readonly: bool, owner: Owner) -> mvs_buffer {
        mvs_buffer { own: memory::Ownership::new(), data, nbytes, readonly, owner }
    }

    /// The value attached under `key`, or NULL.
    pub(super) fn attached(&self, key: *const c_void) -> *mut c_void {
        self.own.attached(key).map_or(core::ptr::null_mut(), |a| a.value)
    }
}

/// The buffer at `buffer`, checked non-NULL.
///
/// # Safety
/// `buffer` is NULL or a live buffer on which the caller holds a reference.
pub(super) unsafe fn buffer_arg<'a>(buffer: *const mvs_buffer) -> Result<&'a mvs_buffer, Failure> {
    // SAFETY: per this function's contract, a live buffer when not NULL; the caller's
    // reference keeps it alive for the call.
    unsafe { buffer.as_ref() }.ok_or(Failure::Null("buffer"))
}

/// The ownership part of the buffer at `buffer`, borrowed for a count change that may let
/// another thread free the buffer: only that field (atomics) is borrowed, as `Arc` does.
///
/// # Safety
/// `buffer` is a live buffer, and the caller holds a reference or a memory reference that it
/// gives up or keeps through the borrow.
unsafe fn own<'a>(buffer: *const mvs_buffer) -> &'a memory::Ownership<*const c_void, Attached> {
    // SAFETY: per this function's contract; `addr_of!` makes no reference to the whole buffer.
    unsafe { &*core::ptr::addr_of!((*buffer).own) }
}

/// Calls the detach callback of an attached value (at the buffer's last reference).
fn detach(attached: Attached) {
    if let Some(detach) = attached.detach {
        // SAFETY: the caller of `mvs_buffer_attach` promised that `detach(value)` may be called
        // once, when the last reference goes, which is now (`Ownership::release` calls this
        // once per attached value).
        unsafe { detach(attached.value) };
    }
}

/// Frees `buffer`, its attachments' nodes and its memory (or calls its deallocation callback).
///
/// # Safety
/// `buffer`'s last memory reference was just given back (`Ownership::release` or
/// `release_memory` returned true): this thread owns it.
#[inline]
unsafe fn destroy(buffer: *mut mvs_buffer) {
    // SAFETY: per this function's contract, no other reference exists.
    let (data, owner) = unsafe { ((*buffer).data, (*buffer).owner) };
    match owner {
        Owner::Block { base, layout } => {
            // SAFETY: the block was allocated with this layout by `alloc_block`, which wrote
            // the header in it; dropped once (the attachments' nodes), then given back.
            unsafe {
                buffer.drop_in_place();
                free_block(base, layout);
            }
        }
        Owner::Foreign { dealloc, ctx } => {
            // SAFETY: made by `try_box` in `wrap`; not used again.
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
/// The buffer and its memory are one allocation from the system allocator: `malloc` (or
/// `calloc`) for alignments up to 256, the data aligned inside the block, `aligned_alloc`'s
/// family beyond; release it with `mvs_buffer_release`, never `free`. Small blocks (a header
/// and up to 256 bytes of data aligned to at most 64, in 6 size classes) are not freed at the
/// last release but kept by the releasing thread for its next allocations, up to 7 per class
/// and thread (a thread's are kept for the next thread after it exits): an allocation and
/// release then costs about what `malloc` and `free` do (`make bench-alloc`). Thread-safe.
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
        let buffer = alloc_block(memory::data_layout(nbytes, alignment)?, flags & MVS_BUFFER_ZEROED != 0)?;
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, buffer) };
        Ok(())
    })
}

/// A new writable buffer with one reference, whose header and memory (of layout `data`,
/// zero-filled when `zeroed`) are one block (`mvs_buffer_alloc`, and the slabs of pools).
#[inline]
pub(super) fn alloc_block(data: Layout, zeroed: bool) -> memory::Result<*mut mvs_buffer> {
    let block = memory::Block::new(Layout::new::<mvs_buffer>(), data)?;
    // A small block comes from this thread's kept ones when it has one (then it is zeroed
    // here, as its data only), else from the allocator.
    let class = memory::blocks::class(block.layout);
    let (base, layout) = match class {
        Some((class, layout)) => match BLOCKS.take(thread_id(), class) {
            // A block that `free_block` kept: of this class, allocated from `System` with
            // `layout`; `as` takes back the provenance that `free_block` exposed.
            Some(addr) => (addr as *mut u8, layout),
            None => (system_alloc(layout, false)?, layout),
        },
        None => (system_alloc(block.layout, zeroed)?, block.layout),
    };
    let at = base as usize;
    // In bounds (`memory::Block`; a block of a class is at least as large): the header, then
    // `data.size()` bytes of data.
    let (header, data_at) = (base.wrapping_add(block.header(at) - at), base.wrapping_add(block.data(at) - at));
    if zeroed && class.is_some() {
        // SAFETY: the block's `data.size()` bytes at `data_at`, this thread's.
        unsafe { data_at.write_bytes(0, data.size()) };
    }
    let buffer = header.cast::<mvs_buffer>();
    // SAFETY: the block has room for the header there, aligned to 16 bytes, enough for it.
    unsafe {
        buffer.write(mvs_buffer::new(data_at.cast(), data.size() as isize, false, Owner::Block { base, layout }))
    };
    Ok(buffer)
}

/// A block of `layout` (non-zero size) from the system allocator, zero-filled when `zeroed`:
/// straight from `System`, not through the global allocator's shims.
fn system_alloc(layout: Layout, zeroed: bool) -> memory::Result<*mut u8> {
    // SAFETY: `layout` has a non-zero size.
    let base = unsafe {
        if zeroed {
            System.alloc_zeroed(layout)
        } else {
            System.alloc(layout)
        }
    };
    if base.is_null() {
        return Err(memory::Error::Alloc { nbytes: layout.size(), alignment: layout.align() });
    }
    Ok(base)
}

/// Gives back the block at `base` of `layout`, from `alloc_block`: kept for this thread's next
/// allocations when it is small (`memory::blocks`), else freed.
///
/// # Safety
/// The block is this thread's, and no longer used.
unsafe fn free_block(base: *mut u8, layout: Layout) {
    // Not under Miri, whose leak check cannot follow blocks kept as addresses (the keeping is
    // `memory::blocks`', tested there).
    if let Some((class, _)) = memory::blocks::class(layout).filter(|_| !cfg!(miri)) {
        // `as usize` exposes the block's provenance, which `alloc_block` takes back.
        if BLOCKS.keep(thread_id(), class, base as usize) {
            return;
        }
    }
    // SAFETY: per this function's contract, allocated from `System` with `layout`.
    unsafe { System.dealloc(base, layout) };
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
        let buffer = wrap(data, nbytes, dealloc, ctx, flags & MVS_BUFFER_READONLY != 0)?;
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, buffer) };
        Ok(())
    })
}

/// A new buffer with one reference over the `nbytes` (>= 0) bytes of foreign memory at `data`,
/// freed by `dealloc(data, ctx)` at the last release (`mvs_buffer_wrap`, and DLPack imports).
/// On failure nothing is called: the memory is still the caller's.
pub(super) fn wrap(
    data: *mut c_void,
    nbytes: isize,
    dealloc: mvs_dealloc_fn,
    ctx: *mut c_void,
    readonly: bool,
) -> Result<*mut mvs_buffer, Failure> {
    debug_assert!(nbytes >= 0);
    try_box(mvs_buffer::new(data, nbytes, readonly, Owner::Foreign { dealloc, ctx }))
}

/// Adds a reference to `buffer`, to be given back with `mvs_buffer_release`. Lock-free,
/// callable from any thread (a relaxed atomic increment).
///
/// Errors: `MVS_ERR_NULL` (`buffer` is NULL), `MVS_ERR_OVERFLOW` (the count would exceed
/// `PTRDIFF_MAX`; nothing changes).
///
/// # Safety
/// `buffer` is NULL or a live buffer on which the calling thread holds a reference (or one that
/// another reference keeps alive for the duration of the call); a memory reference is not
/// enough.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_retain(buffer: *mut mvs_buffer) -> mvs_status {
    run(|| {
        // SAFETY: per this function's contract.
        unsafe { buffer_arg(buffer)? }.retain()
    })
}

/// Gives back one reference to `buffer`. When it was the last, detaches the buffer's
/// attachments (each detach callback runs once, on this thread), then, unless memory
/// references remain (`mvs_buffer_retain_memory`), frees the memory (a buffer from
/// `mvs_buffer_alloc`; a small one is kept for this thread's next allocations, see there) or calls the deallocation callback (from `mvs_buffer_wrap`, unless it
/// is NULL), exactly once, on this thread, before returning; the buffer, its memory and every
/// view of it are then invalid. `buffer` NULL is a no-op. Lock-free, callable from any thread:
/// a Release decrement, and an Acquire fence before detaching or freeing, so that every
/// thread's use of the memory before its release happens before the deallocation.
///
/// # Safety
/// `buffer` is NULL or a live buffer, and the caller gives up one reference it holds (releasing
/// more references than were taken is undefined behaviour, as with `free`).
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_release(buffer: *mut mvs_buffer) {
    let _ = run(|| {
        if buffer.is_null() {
            return Ok(());
        }
        // SAFETY: per this function's contract, live, and the caller gives up a reference.
        if unsafe { own(buffer) }.release(detach) {
            // SAFETY: that was the last memory reference.
            unsafe { destroy(buffer) };
        }
        Ok(())
    });
}

/// Adds a memory reference to `buffer`: it keeps the memory (data, size, read-only flag)
/// valid, but not the buffer's attachments, and gives no right to retain, attach or view; give
/// it back with `mvs_buffer_release_memory`. For an object that an attachment owns and that
/// needs the memory (a binding's owner object, see `mvs_buffer_attach`): holding a reference
/// instead would keep the attachment, hence itself, alive forever. Lock-free, callable from
/// any thread.
///
/// Errors: `MVS_ERR_NULL` (`buffer` is NULL), `MVS_ERR_OVERFLOW` (the count would exceed
/// `PTRDIFF_MAX`; nothing changes).
///
/// # Safety
/// `buffer` is NULL or a live buffer on which the calling thread holds a reference or a memory
/// reference.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_retain_memory(buffer: *mut mvs_buffer) -> mvs_status {
    run(|| {
        // SAFETY: per this function's contract.
        Ok(unsafe { buffer_arg(buffer)? }.own.retain_memory()?)
    })
}

/// Gives back a memory reference to `buffer` (from `mvs_buffer_retain_memory`). When it was
/// the last and no reference remains, frees the memory or calls the deallocation callback, as
/// `mvs_buffer_release` does. `buffer` NULL is a no-op. Lock-free, callable from any thread,
/// also from a detach callback.
///
/// # Safety
/// `buffer` is NULL or a live buffer, and the caller gives up one memory reference it holds.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_release_memory(buffer: *mut mvs_buffer) {
    let _ = run(|| {
        // SAFETY: per this function's contract, live when not NULL, and the caller gives up a
        // memory reference.
        if !buffer.is_null() && unsafe { own(buffer) }.release_memory() {
            // SAFETY: that was the last memory reference.
            unsafe { destroy(buffer) };
        }
        Ok(())
    });
}

/// Attaches `value` to `buffer` under `key`, unless a value is attached under `key` already;
/// `*out_value` receives the value that is attached under `key` after the call: `value`, or
/// the one attached before (then `value` is not attached, and stays the caller's). When the
/// buffer's last reference is released, `detach(value)` is called exactly once for each
/// attached value, on the releasing thread, before the memory is freed.
///
/// This is how a language binding keeps one owner object per buffer, found again from the
/// buffer alone (`mvs_buffer_attached`) without locks: memviewslice's Cython helpers attach a
/// memoryview object that keeps the memory alive through a memory reference
/// (`mvs_buffer_retain_memory`), so that views made from it outlive the buffer's references,
/// and detach it (release the binding's hold on it) at the last reference.
///
/// - `key`: any address that identifies the kind of value (for example that of a static
///   variable of the caller's); non-NULL.
/// - `value`: non-NULL. `detach`: may be NULL (nothing is called).
///
/// Errors: `MVS_ERR_NULL` (`buffer`, `key`, `value` or `out_value` is NULL), `MVS_ERR_ALLOC`
/// (no memory for the attachment's small node). Lock-free; allocates one node. Values are
/// never removed before the last reference is released.
///
/// # Safety
/// `buffer` is NULL or a live buffer on which the calling thread holds a reference;
/// `out_value` is NULL or points to a writable `void *`; `detach(value)` may be called once,
/// from any thread.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_attach(
    buffer: *mut mvs_buffer,
    key: *const c_void,
    value: *mut c_void,
    detach: mvs_detach_fn,
    out_value: *mut *mut c_void,
) -> mvs_status {
    run(|| {
        let out_value = out_arg(out_value, "out_value")?;
        // SAFETY: per this function's contract.
        let b = unsafe { buffer_arg(buffer)? };
        if key.is_null() {
            return Err(Failure::Null("key"));
        }
        if value.is_null() {
            return Err(Failure::Null("value"));
        }
        let attached = b.own.attach(key, Attached { value, detach })?.value;
        // SAFETY: `out_value` is non-NULL and writable per this function's contract.
        unsafe { write_out(out_value, attached) };
        Ok(())
    })
}

/// The value attached to `buffer` under `key` (`mvs_buffer_attach`), or NULL when there is
/// none, into `*out`. Lock-free: a walk of the buffer's attachments, newest first.
///
/// Errors: `MVS_ERR_NULL` (`buffer` or `out` is NULL). Thread-safe.
///
/// # Safety
/// `buffer` is NULL or a live buffer on which the calling thread holds a reference; `out` is
/// NULL or points to a writable `void *`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_attached(
    buffer: *const mvs_buffer,
    key: *const c_void,
    out: *mut *mut c_void,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { buffer_query(buffer, out, |b| b.attached(key)) }
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
    unsafe { buffer_query(buffer, out, |b| b.own.refcount() as isize) }
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
    // SAFETY: per this function's contract.
    unsafe { view_in(buffer, 0, itemsize, ndim, shape, order, false, out) }
}

/// A contiguous view of `shape` in C or F order starting `offset` items into the buffer's
/// memory, as `mvs_buffer_view` builds it (its `memview` is the buffer, borrowed), and refused
/// when `writable` is nonzero and the buffer is read-only. For bindings that hand out views of
/// a buffer with their own owner object (memviewslice's Cython helpers `from_buffer_Nd`).
///
/// - `offset`: >= 0, in items of `itemsize` bytes.
/// - the other arguments as for `mvs_buffer_view`.
///
/// Errors: those of `mvs_buffer_view`, and `MVS_ERR_SHAPE` (`offset` < 0), `MVS_ERR_VALUE`
/// (`writable` and the buffer is read-only), `MVS_ERR_OVERFLOW` (`offset` in bytes does not fit
/// in `ptrdiff_t`), `MVS_ERR_BOUNDS` (the view, `offset` items in, needs more bytes than the
/// buffer has). Does not allocate; thread-safe.
///
/// # Safety
/// As for `mvs_buffer_view`.
#[no_mangle]
pub unsafe extern "C" fn mvs_buffer_view_at(
    buffer: *mut mvs_buffer,
    offset: isize,
    itemsize: isize,
    ndim: c_int,
    shape: *const isize,
    order: c_int,
    writable: c_int,
    out: *mut mvs_slice,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { view_in(buffer, offset, itemsize, ndim, shape, order, writable != 0, out) }
}

/// `mvs_buffer_view_at`.
///
/// # Safety
/// As for `mvs_buffer_view`.
#[allow(clippy::too_many_arguments)]
unsafe fn view_in(
    buffer: *mut mvs_buffer,
    offset: isize,
    itemsize: isize,
    ndim: c_int,
    shape: *const isize,
    order: c_int,
    writable: bool,
    out: *mut mvs_slice,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let b = unsafe { buffer_arg(buffer)? };
        if writable && b.readonly {
            return Err(memory::Error::ReadOnly.into());
        }
        // SAFETY: per this function's contract.
        let v = unsafe { contiguous_arg(RawPtr(b.data.cast()), itemsize, ndim, shape, order)? };
        let skip = memory::offset_bytes(offset, itemsize)?;
        let bytes = v.byte_count(itemsize)?;
        if bytes.checked_add(skip).ok_or(memory::Error::TooLarge)? > b.nbytes {
            return Err(memory::Error::ViewTooLarge { bytes, offset: skip, have: b.nbytes }.into());
        }
        let mut view = to_slice(&v, buffer.cast());
        // In bounds: `skip + the view's bytes <= nbytes`.
        view.data = view.data.wrapping_add(skip as usize);
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { write_out(out, view) };
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
    use core::sync::atomic::{AtomicUsize, Ordering};

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
            (*b).own.set_refcount(isize::MAX as usize);
            assert_eq!(mvs_buffer_retain(b), MVS_ERR_OVERFLOW);
            assert_eq!(refs(b), isize::MAX);
            (*b).own.set_refcount(isize::MAX as usize - 1);
            assert_eq!(mvs_buffer_retain(b), MVS_OK);
            assert_eq!(mvs_buffer_retain(b), MVS_ERR_OVERFLOW);
            (*b).own.set_refcount(1);
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

    static DETACHED: AtomicUsize = AtomicUsize::new(0);
    static FREED: AtomicUsize = AtomicUsize::new(0);
    static KEY_A: u8 = 0;
    static KEY_B: u8 = 0;
    unsafe extern "C" fn detach(value: *mut c_void) {
        DETACHED.fetch_add(value as usize, Ordering::SeqCst);
    }
    unsafe extern "C" fn freed(_: *mut c_void, _: *mut c_void) {
        FREED.fetch_add(1, Ordering::SeqCst);
    }

    /// Attachments: one value per key, found again; detached once at the last reference, while
    /// a memory reference keeps the memory until it goes too.
    #[test]
    fn attachments_detach_at_the_last_reference_and_memory_refs_keep_the_memory() {
        let (a, b) = (&KEY_A as *const u8 as *const c_void, &KEY_B as *const u8 as *const c_void);
        let mut buf: *mut mvs_buffer = core::ptr::null_mut();
        let mut got: *mut c_void = core::ptr::null_mut();
        // SAFETY: valid pointers; the "values" are small integers that `detach` only adds up;
        // the buffer wraps no memory (size 0).
        unsafe {
            assert_eq!(
                mvs_buffer_wrap(core::ptr::null_mut(), 0, Some(freed), core::ptr::null_mut(), 0, &mut buf),
                MVS_OK
            );
            assert_eq!(mvs_buffer_attached(buf, a, &mut got), MVS_OK);
            assert!(got.is_null());
            assert_eq!(mvs_buffer_attach(buf, a, 1 as *mut c_void, Some(detach), &mut got), MVS_OK);
            assert_eq!(got as usize, 1);
            // the key is taken: the first value stays
            assert_eq!(mvs_buffer_attach(buf, a, 100 as *mut c_void, Some(detach), &mut got), MVS_OK);
            assert_eq!(got as usize, 1);
            assert_eq!(mvs_buffer_attach(buf, b, 10 as *mut c_void, Some(detach), &mut got), MVS_OK);
            assert_eq!(got as usize, 10);
            assert_eq!(mvs_buffer_attached(buf, a, &mut got), MVS_OK);
            assert_eq!(got as usize, 1);
            assert_eq!(mvs_buffer_attach(buf, a, core::ptr::null_mut(), None, &mut got), MVS_ERR_NULL);
            assert_eq!(mvs_buffer_attach(buf, core::ptr::null(), 5 as *mut c_void, None, &mut got), MVS_ERR_NULL);
            assert_eq!(mvs_buffer_retain_memory(buf), MVS_OK);
            assert_eq!(mvs_buffer_retain(buf), MVS_OK);
            mvs_buffer_release(buf);
            assert_eq!(DETACHED.load(Ordering::SeqCst), 0);
            mvs_buffer_release(buf);
            assert_eq!((DETACHED.load(Ordering::SeqCst), FREED.load(Ordering::SeqCst)), (11, 0));
            mvs_buffer_release_memory(buf);
            assert_eq!((DETACHED.load(Ordering::SeqCst), FREED.load(Ordering::SeqCst)), (11, 1));
        }
    }
}
