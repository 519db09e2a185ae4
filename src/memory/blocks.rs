//! Small blocks of buffers (`mvs_buffer_alloc`), kept by each thread for its own next
//! allocations instead of going back to `malloc`: an allocation and release of a small buffer
//! then costs a few loads and stores where `malloc` and `free` take about 120 instructions.
//!
//! Blocks are sorted by size into classes of [`CLASS_BYTES`]; a block of a class has the
//! largest size of its class, so that it serves any request of the class. Each thread slot
//! ([`thread_slot`]) keeps up to [`PER_CLASS`] blocks of each class ([`Cache`]): a block
//! released on one thread serves that thread's next allocations. A thread that exits leaves
//! its blocks to its slot's next holder; so at most `SLOTS * CLASSES * PER_CLASS` blocks
//! (2,688, 0.6 MiB) are kept, and those stay allocated until the process exits. Addresses
//! only: the C layer allocates and frees.

use core::alloc::Layout;

use super::cache::Cache;
use super::thread_slot::{self, SLOTS};
use super::SYSTEM_ALIGN;

/// The size step between classes.
pub(crate) const CLASS_BYTES: usize = 64;
/// Classes: blocks of up to `CLASSES * CLASS_BYTES` bytes (a buffer of 256 bytes at any
/// alignment up to 64 with its header) are kept.
pub(crate) const CLASSES: usize = 6;
/// Blocks of each class kept per thread: with the count, a cache line.
pub(crate) const PER_CLASS: usize = 7;

/// Each thread slot's caches of blocks, by class. The C layer's is [`BLOCKS`].
pub struct Blocks {
    caches: [[Cache<PER_CLASS>; CLASSES]; SLOTS],
}

/// The buffers' blocks.
pub static BLOCKS: Blocks = Blocks::new();

/// The class of blocks of `layout`, and the layout of the blocks of that class (which is what
/// to allocate and free); `None` for blocks that are not kept (large, or aligned beyond
/// `SYSTEM_ALIGN`).
#[inline(always)]
pub fn class(layout: Layout) -> Option<(usize, Layout)> {
    if layout.align() != SYSTEM_ALIGN || layout.size() == 0 || layout.size() > CLASSES * CLASS_BYTES {
        return None;
    }
    let class = (layout.size() - 1) / CLASS_BYTES;
    Some((class, Layout::from_size_align((class + 1) * CLASS_BYTES, SYSTEM_ALIGN).ok()?))
}

impl Blocks {
    /// No blocks.
    pub const fn new() -> Self {
        Blocks { caches: [const { [Cache::EMPTY; CLASSES] }; SLOTS] }
    }

    /// A kept block of class `class` (from [`class`]) for the calling thread, whose identity
    /// is `thread` (see [`thread_slot`]), taken out of its cache; `None` when it has none.
    #[inline(always)]
    pub fn take(&self, thread: usize, class: usize) -> Option<usize> {
        self.caches[thread_slot::slot(thread)?].get(class)?.pop()
    }

    /// Keeps the free block at `addr` of class `class` for the calling thread, whose identity
    /// is `thread`; false when its cache of that class is full (or it has no slot): the caller
    /// frees the block.
    #[inline(always)]
    pub fn keep(&self, thread: usize, class: usize, addr: usize) -> bool {
        thread_slot::slot(thread).and_then(|slot| self.caches[slot].get(class)).is_some_and(|cache| cache.push(addr))
    }

    /// Every kept block of class `class`, in every slot (while no thread is at work).
    #[cfg(test)]
    fn kept(&self, class: usize) -> Vec<usize> {
        self.caches.iter().flat_map(|slot| core::iter::from_fn(|| slot[class].pop())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_small_blocks_at_the_system_alignment() {
        let of = |size, align| class(Layout::from_size_align(size, align).unwrap());
        assert_eq!(of(1, 16), Some((0, Layout::from_size_align(64, 16).unwrap())));
        assert_eq!(of(64, 16).unwrap().0, 0);
        assert_eq!(of(65, 16).unwrap().0, 1);
        assert_eq!(of(152, 16), Some((2, Layout::from_size_align(192, 16).unwrap())));
        assert_eq!(of(384, 16).unwrap().0, 5);
        assert_eq!(of(385, 16), None);
        assert_eq!(of(64, 64), None);
        assert_eq!(of(64, 8), None);
        for size in 1..=CLASSES * CLASS_BYTES {
            let (k, l) = of(size, 16).unwrap();
            assert!(l.size() >= size && l.size() - size < CLASS_BYTES && k < CLASSES, "{size}");
        }
    }

    /// Every kept block is taken again once, by its thread, and a thread that exits leaves
    /// its blocks in its slot's cache: none is lost or handed out twice.
    #[test]
    fn blocks_are_kept_per_thread_and_outlive_the_thread() {
        use std::collections::HashSet;
        let blocks = Box::new(Blocks::new());
        let threads = if cfg!(miri) { 3 } else { 8 };
        let (kept, taken): (Vec<Vec<usize>>, Vec<Vec<usize>>) = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let blocks = &blocks;
                    s.spawn(move || {
                        let me = thread_slot::this_thread();
                        let mine = (0..PER_CLASS + 2).map(|i| (t + 1) << 20 | i << 6);
                        // All, unless another test holds every slot for a while.
                        let kept: Vec<usize> = mine.filter(|&a| blocks.keep(me, 3, a)).collect();
                        assert!(kept.len() <= PER_CLASS, "a full cache refuses");
                        let Some(&last) = kept.last() else { return (kept, vec![]) };
                        // The last kept comes back first.
                        assert_eq!(blocks.take(me, 3), Some(last));
                        assert!(blocks.keep(me, 3, last));
                        assert_eq!(blocks.take(me, 2), None, "classes apart");
                        // Half are taken again, half left behind at exit.
                        let taken = (0..kept.len() / 2).map(|_| blocks.take(me, 3).unwrap()).collect();
                        (kept, taken)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).unzip()
        });
        let mut all: Vec<usize> = taken.into_iter().flatten().chain(blocks.kept(3)).collect();
        let unique: HashSet<usize> = all.iter().copied().collect();
        assert_eq!(unique.len(), all.len(), "a block handed out twice");
        all.sort_unstable();
        let mut want: Vec<usize> = kept.into_iter().flatten().collect();
        want.sort_unstable();
        assert_eq!(all, want, "a block lost");
    }
}
