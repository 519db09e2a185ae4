//! Shared ownership of a block of memory, lock-free: the reference counts and the attachments
//! of a buffer (the C layer's `mvs_buffer` embeds an [`Ownership`] and does the allocating and
//! freeing; this module decides when).
//!
//! Two counts, as `std::sync::Arc`'s strong and weak ones: *references* keep the owner and its
//! attachments; *memory references* keep the memory, and all references together hold one of
//! them. When the last reference goes, each attachment is detached (the caller's `detach`
//! runs once per attached value), then the references' memory reference is given back; when
//! the last memory reference goes, the caller frees the memory, exactly once.
//!
//! Increments are Relaxed (a new reference is made from an existing one, which already keeps
//! the owner alive), decrements are Release, and the thread that takes a count to zero issues
//! an Acquire fence before detaching or freeing, so that every other thread's use happens
//! before.
//!
//! The methods take `&self`, and [`Ownership`] holds only atomics (the attachments' nodes are
//! separate allocations), so a thread whose decrement was not the last may still be inside
//! the method when another thread frees the owner: as in `Arc`, nothing of `self` is touched
//! after the decrement.

mod attachments;

use core::sync::atomic::{fence, AtomicUsize, Ordering};

use self::attachments::Attachments;
use super::{Error, Result};

/// Counts stop here: a retain fails rather than letting a count wrap.
const MAX_REFS: usize = isize::MAX as usize;

/// The reference counts and attachments (values of type `V` under keys of type `K`, one per
/// key) of an owner of memory. See the module's documentation.
pub struct Ownership<K, V> {
    refs: AtomicUsize,
    /// References to the memory alone, plus one for all of `refs` together.
    memory_refs: AtomicUsize,
    attachments: Attachments<K, V>,
}

impl<K: Copy + Eq, V: Copy> Ownership<K, V> {
    /// One reference (the creator's), the memory reference that all references hold together,
    /// no attachments.
    pub const fn new() -> Self {
        Ownership { refs: AtomicUsize::new(1), memory_refs: AtomicUsize::new(1), attachments: Attachments::new() }
    }

    /// The number of references: a snapshot, other threads may change it at any time.
    pub fn refcount(&self) -> usize {
        self.refs.load(Ordering::Relaxed)
    }

    /// Adds a reference. The caller holds one (a memory reference is not enough: the last
    /// reference may be gone). [`Error::RefCount`] at [`MAX_REFS`], changing nothing.
    pub fn retain(&self) -> Result<()> {
        increment(&self.refs)
    }

    /// Adds a memory reference. The caller holds a reference or a memory reference.
    /// [`Error::RefCount`] at [`MAX_REFS`], changing nothing.
    pub fn retain_memory(&self) -> Result<()> {
        increment(&self.memory_refs)
    }

    /// Gives back one reference. At the last, calls `detach` once with each attached value
    /// (newest first, on this thread), then gives back the memory reference of all
    /// references. True when that was the last memory reference: the caller then frees the
    /// memory and drops this `Ownership`, and no other thread touches either again.
    ///
    /// The caller gives up a reference it holds; each reference is given back once (a count
    /// that went to zero and up again would detach twice). `detach` may give back memory
    /// references (`release_memory`) and read the attachments; not the last one: the
    /// references still hold theirs while it runs.
    #[must_use = "at the last memory reference the caller frees the memory"]
    pub fn release(&self, detach: impl FnMut(V)) -> bool {
        if !decrement(&self.refs) {
            return false;
        }
        // No reference remains: nothing attaches any more, and the nodes stay until the
        // memory reference below goes.
        self.attachments.each(detach);
        self.release_memory()
    }

    /// Gives back one memory reference; true when it was the last (see [`release`](Self::release)).
    #[must_use = "at the last memory reference the caller frees the memory"]
    pub fn release_memory(&self) -> bool {
        decrement(&self.memory_refs)
    }

    /// Attaches `value` under `key` unless a value is attached under `key` already; returns the
    /// value attached under `key` after the call: `value`, or the earlier one (then `value` is
    /// not attached and will not be detached). The caller holds a reference. Lock-free;
    /// allocates one small node ([`Error::Alloc`] when that fails). Values are never removed:
    /// [`release`](Self::release) detaches them at the last reference.
    pub fn attach(&self, key: K, value: V) -> Result<V> {
        self.attachments.attach(key, value)
    }

    /// The value attached under `key`. Lock-free: a walk of the attachments, newest first.
    pub fn attached(&self, key: K) -> Option<V> {
        self.attachments.find(key)
    }

    /// Sets the reference count (tests of the limit).
    #[cfg(test)]
    pub(crate) fn set_refcount(&self, refs: usize) {
        self.refs.store(refs, Ordering::Relaxed);
    }
}

impl<K: Copy + Eq, V: Copy> Default for Ownership<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

/// Adds one to `count` unless it is at [`MAX_REFS`].
fn increment(count: &AtomicUsize) -> Result<()> {
    // Relaxed, as in `Arc::clone`: the caller's reference already keeps the owner alive, and
    // the new reference is handed to other threads only through their own synchronization.
    if count.fetch_add(1, Ordering::Relaxed) >= MAX_REFS {
        count.fetch_sub(1, Ordering::Relaxed);
        return Err(Error::RefCount);
    }
    Ok(())
}

/// Subtracts one from `count`; true when that was the last (then, after an Acquire fence,
/// every other thread's decrement happens before what the caller does next).
fn decrement(count: &AtomicUsize) -> bool {
    if count.fetch_sub(1, Ordering::Release) != 1 {
        return false;
    }
    fence(Ordering::Acquire);
    true
}

#[cfg(test)]
mod tests;
