//! A stack of up to `N` free addresses that one thread keeps for its own reuse: the per-thread
//! caches of the pools' arrays ([`FreeList`](super::FreeList)) and of small buffer blocks
//! ([`blocks`](super::blocks)). Only the thread holding the cache's slot
//! ([`thread_slot`](super::thread_slot)) touches it, with plain loads and stores (relaxed
//! atomics, so that a bug here cannot be undefined behaviour): no locked instruction. A slot's
//! next holder claims it with Acquire after the last one gave it up with Release, so it sees
//! the cache as the last holder left it.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Up to `N` addresses, the one given back last on top; a cache line or more of its own.
#[repr(align(64))]
pub(crate) struct Cache<const N: usize> {
    len: AtomicUsize,
    addrs: [AtomicUsize; N],
}

impl<const N: usize> Cache<N> {
    // A constant to repeat in arrays of caches, each its own atomics.
    #[allow(clippy::declare_interior_mutable_const)]
    pub(crate) const EMPTY: Self = Cache { len: AtomicUsize::new(0), addrs: [const { AtomicUsize::new(0) }; N] };

    /// The address given back last, left in the cache.
    #[inline(always)]
    pub(crate) fn top(&self) -> Option<usize> {
        let len = self.len.load(Relaxed);
        Some(self.addrs.get(len.checked_sub(1)?)?.load(Relaxed))
    }

    /// The address given back last, taken out of the cache.
    #[inline(always)]
    pub(crate) fn pop(&self) -> Option<usize> {
        let addr = self.top()?;
        self.drop_top();
        Some(addr)
    }

    /// Takes the top out of the cache, which is not empty.
    #[inline(always)]
    pub(crate) fn drop_top(&self) {
        self.len.store(self.len.load(Relaxed) - 1, Relaxed);
    }

    /// Whether another address fits.
    #[inline(always)]
    pub(crate) fn has_room(&self) -> bool {
        self.len.load(Relaxed) < N
    }

    /// Whether `addr` fitted.
    #[inline(always)]
    pub(crate) fn push(&self, addr: usize) -> bool {
        let len = self.len.load(Relaxed);
        let Some(cell) = self.addrs.get(len) else { return false };
        cell.store(addr, Relaxed);
        self.len.store(len + 1, Relaxed);
        true
    }
}
