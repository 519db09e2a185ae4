//! The bookkeeping of a pool, lock-free: which arrays exist (slabs of arrays spaced
//! `slot_bytes` apart, at addresses the caller allocates), which are free, and which are
//! acquired (to refuse foreign and double releases).
//!
//! Arrays have ids (`u32`, numbering all arrays of all slabs in order). The free arrays are in
//! two places:
//! - **A cache per thread** ([`thread_slot`]): up to [`CACHED`] arrays that the thread gave
//!   back, which it takes again first. Only the thread holding the slot touches its cache, with
//!   plain loads and stores (relaxed atomics, so that a bug here cannot be undefined
//!   behaviour), so a take from it and a give-back to it need no locked instruction.
//! - **A shared stack** for the rest: a Treiber stack linked through a `next` id per array,
//!   with its top in one 64-bit word: the top id and a 32-bit tag that every push and pop
//!   increments. The tag defeats ABA: a pop that read the top and its `next`, and is overtaken
//!   by pops and pushes that bring the same id back on top, fails its compare-exchange because
//!   the tag moved (it would take 2^32 operations during the window to wrap). Node metadata is
//!   never freed while the list lives, so reading a stale `next` is harmless (it is atomic, and
//!   the compare-exchange then fails).
//!
//! Each array has an `acquired` flag: a release swaps it from true to false, exactly one of
//! two racing releases of the same array sees true, so double releases are always refused,
//! whichever thread makes them.
//!
//! Memory ordering: a give-back to the shared stack pushes with a Release compare-exchange and
//! a take pops with an Acquire one, so everything the releasing thread did to the array (and
//! the `next` link it wrote) happens before the next owner's use; an array given back to a
//! cache is next used by the same thread, or by the slot's next holder, which claimed it with
//! Acquire after the last holder gave it up with Release. Slabs are published through
//! `OnceLock` (Release on set, Acquire on get) before any of their ids is pushed.
//!
//! Growth (a new slab when no array is free) is serialized by a mutex, taken only then. It
//! first empties the caches of slots that no live thread holds (threads that exited), so
//! arrays are not stranded there; the caches of live threads hold at most [`CACHED`] arrays
//! each, which other threads do not see.
//!
//! Costs: a take and give-back through the cache is one locked instruction (the give-back's
//! swap of the `acquired` flag); through the shared stack, one compare-exchange for a take and
//! a swap and a compare-exchange for a give-back. Measured with `cargo bench --bench
//! ownership` and `make besttime` (the `pool` row against `malloc_free`).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::*};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::cache::Cache;
use super::thread_slot::{self, SLOTS};
use super::{Error, Result};

/// Most slabs: each doubles the pool, so 33 reach the id limit of 2^32 - 1 arrays.
const MAX_SLABS: usize = 40;
/// "No array": the end of the stack.
const NIL: u32 = u32::MAX;
/// Most arrays a pool holds: ids are `u32`, and `NIL` is not one.
const MAX_ARRAYS: usize = NIL as usize;

/// Most arrays in one thread's cache: with its length, two cache lines.
pub(crate) const CACHED: usize = 15;

/// An array's bookkeeping, a cache line of its own: the threads releasing different arrays
/// each swap their own array's flag, and flags sharing a line made two threads' releases
/// three times slower than one thread's.
#[repr(align(64))]
struct Node {
    next: AtomicU32,
    acquired: AtomicBool,
}

struct Slab {
    base: usize,
    /// What the caller's allocator returned with `base` (the C layer's slab buffer).
    tag: usize,
    first: u32,
    nodes: Box<[Node]>,
}

pub struct FreeList {
    slot_bytes: usize,
    /// log2 of `slot_bytes` when it is a power of two: a shift instead of a division.
    slot_shift: Option<u32>,
    /// The top of the stack: `tag << 32 | id`, id `NIL` when empty.
    head: AtomicU64,
    slabs: [OnceLock<Slab>; MAX_SLABS],
    grow: Mutex<()>,
    /// By thread slot.
    caches: [Cache<CACHED>; SLOTS],
}

/// The head word with `id` on top and the tag after `head`'s.
fn next_head(head: u64, id: u32) -> u64 {
    ((head >> 32).wrapping_add(1) << 32) | id as u64
}

impl FreeList {
    /// No arrays yet; arrays will be `slot_bytes` (> 0) apart.
    pub fn new(slot_bytes: usize) -> Self {
        assert!(slot_bytes > 0, "slot_bytes is positive");
        FreeList {
            slot_bytes,
            slot_shift: slot_bytes.is_power_of_two().then(|| slot_bytes.trailing_zeros()),
            head: AtomicU64::new(NIL as u64),
            slabs: core::array::from_fn(|_| OnceLock::new()),
            grow: Mutex::new(()),
            caches: [Cache::EMPTY; SLOTS],
        }
    }

    /// The published slabs, in order.
    fn slabs(&self) -> impl Iterator<Item = &Slab> {
        self.slabs.iter().map_while(OnceLock::get)
    }

    /// The tag of every slab, in order (to free them).
    pub fn slab_tags(&self) -> impl Iterator<Item = usize> + '_ {
        self.slabs().map(|s| s.tag)
    }

    /// Arrays in all slabs.
    pub fn total(&self) -> usize {
        self.slabs().map(|s| s.nodes.len()).sum()
    }

    /// Arrays acquired and not yet given back (a snapshot when other threads are at work).
    pub fn in_use(&self) -> usize {
        self.slabs().flat_map(|s| s.nodes.iter()).filter(|n| n.acquired.load(Relaxed)).count()
    }

    /// The slab and node of array `id`, which is in a published slab.
    #[inline]
    fn node(&self, id: u32) -> (&Slab, &Node) {
        let slab = self
            .slabs()
            .find(|s| id.wrapping_sub(s.first) < s.nodes.len() as u32)
            .expect("ids on the stack are in published slabs");
        (slab, &slab.nodes[(id - slab.first) as usize])
    }

    /// The address of array `id`.
    #[inline]
    fn addr(&self, slab: &Slab, id: u32) -> usize {
        slab.base + (id - slab.first) as usize * self.slot_bytes
    }

    /// The cache of the calling thread, whose identity is `thread` (see [`thread_slot`]), if
    /// it has a slot.
    #[inline(always)]
    fn cache(&self, thread: usize) -> Option<&Cache<CACHED>> {
        thread_slot::slot(thread).map(|slot| &self.caches[slot])
    }

    /// Takes a free array (of the calling thread's cache, the one it gave back last; `thread`
    /// is its identity, see [`thread_slot`]) and returns its address and its slab's tag, or
    /// `None` when none is free to this thread. Lock-free.
    #[inline]
    pub fn take(&self, thread: usize) -> Option<(usize, usize)> {
        self.take_cached(thread).or_else(|| {
            let id = self.pop()?;
            let (slab, _) = self.acquire(id);
            Some((self.addr(slab, id), slab.tag))
        })
    }

    /// The common case of [`take`](Self::take), with no call, so that its caller needs no
    /// stack frame: the array on top of the cache of the thread's home slot, when it is in
    /// the first slab; its address and the slab's tag, as `take`. `None` (not that case)
    /// changes nothing. No locked instruction.
    #[inline(always)]
    pub fn take_quick(&self, thread: usize) -> Option<(usize, usize)> {
        let cache = &self.caches[thread_slot::home_slot(thread)?];
        let addr = cache.top()?;
        let (slab, shift) = (self.slabs[0].get()?, self.slot_shift?);
        // A cached address is the start of an array (no alignment test, unlike a give-back's);
        // of the first slab, when in its range.
        let node = slab.nodes.get(addr.wrapping_sub(slab.base) >> shift)?;
        cache.drop_top();
        node.acquired.store(true, Relaxed);
        Some((addr, slab.tag))
    }

    /// The common case of [`give_back`](Self::give_back), with no call (as `take_quick`): an
    /// array of the first slab into the cache of the thread's home slot, which has room.
    /// `None` (not that case) changes nothing; `Some(false)` is `give_back`'s
    /// `Error::NotAcquired`, `Some(true)` its success. One locked instruction, the swap of the
    /// `acquired` flag.
    #[inline(always)]
    pub fn give_back_quick(&self, addr: usize, thread: usize) -> Option<bool> {
        let cache = &self.caches[thread_slot::home_slot(thread)?];
        let (slab, shift) = (self.slabs[0].get()?, self.slot_shift?);
        let delta = addr.wrapping_sub(slab.base);
        let node = slab.nodes.get(delta >> shift).filter(|_| delta & (self.slot_bytes - 1) == 0)?;
        if !cache.has_room() {
            return None;
        }
        if !node.acquired.swap(false, Relaxed) {
            return Some(false);
        }
        // There is room, checked above.
        let pushed = cache.push(addr);
        debug_assert!(pushed, "the cache had room");
        Some(true)
    }

    /// `take` from the calling thread's cache only: no locked instruction.
    #[inline(always)]
    fn take_cached(&self, thread: usize) -> Option<(usize, usize)> {
        let addr = self.cache(thread)?.pop()?;
        let (id, _) = self.find(addr).expect("cached arrays are the pool's");
        Some((addr, self.acquire(id).0.tag))
    }

    /// Marks the free array `id`, just taken off a cache or the stack, acquired; its slab and
    /// node.
    #[inline(always)]
    fn acquire(&self, id: u32) -> (&Slab, &Node) {
        let (slab, node) = self.node(id);
        // The array is this thread's now: no one else can reach its flag, except an erroneous
        // release, which sees false until here and is refused.
        node.acquired.store(true, Relaxed);
        (slab, node)
    }

    /// Pops an id off the shared stack, or `None` when it is empty.
    #[inline]
    fn pop(&self) -> Option<u32> {
        let mut head = self.head.load(Acquire);
        loop {
            let id = head as u32;
            if id == NIL {
                return None;
            }
            let next = self.node(id).1.next.load(Relaxed);
            match self.head.compare_exchange_weak(head, next_head(head, next), Acquire, Acquire) {
                Ok(_) => return Some(id),
                Err(current) => head = current,
            }
        }
    }

    /// Pushes the one id `id` on the stack, out of line: a give-back to a full cache, or from a
    /// thread with no slot.
    #[inline(never)]
    fn push_shared(&self, id: u32, node: &Node) {
        self.push_chain(id, node);
    }

    /// Pushes the chain of ids `first..=last` (linked already) on the stack.
    fn push_chain(&self, first: u32, last: &Node) {
        let mut head = self.head.load(Relaxed);
        loop {
            last.next.store(head as u32, Relaxed);
            match self.head.compare_exchange_weak(head, next_head(head, first), Release, Relaxed) {
                Ok(_) => return,
                Err(current) => head = current,
            }
        }
    }

    /// Gives back the acquired array at address `addr`, from the thread whose identity is
    /// `thread`. Lock-free.
    #[inline(always)]
    pub fn give_back(&self, addr: usize, thread: usize) -> Result<()> {
        let (id, node) = self.find(addr).ok_or(Error::NotFromPool)?;
        if !node.acquired.swap(false, Relaxed) {
            return Err(Error::NotAcquired);
        }
        if !self.cache(thread).is_some_and(|c| c.push(addr)) {
            self.push_shared(id, node);
        }
        Ok(())
    }

    /// The id and node of the array that starts at `addr`, if any.
    #[inline]
    fn find(&self, addr: usize) -> Option<(u32, &Node)> {
        self.slabs().find_map(|s| {
            let delta = addr.checked_sub(s.base)?;
            let (index, rest) = match self.slot_shift {
                Some(shift) => (delta >> shift, delta & (self.slot_bytes - 1)),
                None => (delta / self.slot_bytes, delta % self.slot_bytes),
            };
            let node = s.nodes.get(index).filter(|_| rest == 0)?;
            Some((s.first + index as u32, node))
        })
    }

    /// Takes a free array, adding a slab when none is free: `alloc(count)` must return the
    /// address of room for `count` arrays and a tag for the slab (it is called under the growth
    /// mutex, at most once). The first slab holds `capacity` arrays (at least 1), later ones as
    /// many as exist (the pool doubles). Returns what `take` does.
    #[inline(always)]
    pub fn take_or_grow(
        &self,
        thread: usize,
        capacity: usize,
        alloc: impl FnOnce(usize) -> Result<(usize, usize)>,
    ) -> Result<(usize, usize)> {
        match self.take(thread) {
            Some(taken) => Ok(taken),
            None => self.grow(thread, capacity, alloc),
        }
    }

    /// `take_or_grow` when no array was free: under the growth mutex, takes one if another
    /// thread gave one back or grew the pool meanwhile, or adds a slab.
    #[cold]
    #[inline(never)]
    fn grow(
        &self,
        thread: usize,
        capacity: usize,
        alloc: impl FnOnce(usize) -> Result<(usize, usize)>,
    ) -> Result<(usize, usize)> {
        let _guard = self.grow.lock().unwrap_or_else(PoisonError::into_inner);
        // Another thread may have grown the pool, or given arrays back, meanwhile; threads
        // that exited may have left arrays in their caches.
        thread_slot::each_free_slot(|slot| {
            while let Some(addr) = self.caches[slot].pop() {
                let (id, node) = self.find(addr).expect("cached arrays are the pool's");
                self.push_chain(id, node);
            }
        });
        if let Some(taken) = self.take(thread) {
            return Ok(taken);
        }
        let taken = self.add_slab(capacity, true, alloc)?;
        Ok(taken.expect("the new slab's first array was kept"))
    }

    /// Adds the first slab, of `capacity` (> 0) arrays, all free.
    pub fn add_first_slab(&self, capacity: usize, alloc: impl FnOnce(usize) -> Result<(usize, usize)>) -> Result<()> {
        let _guard = self.grow.lock().unwrap_or_else(PoisonError::into_inner);
        self.add_slab(capacity, false, alloc).map(|_| ())
    }

    /// Adds a slab (under the growth mutex); when `keep_first`, its first array is returned
    /// acquired (with the slab's tag) instead of pushed.
    fn add_slab(
        &self,
        capacity: usize,
        keep_first: bool,
        alloc: impl FnOnce(usize) -> Result<(usize, usize)>,
    ) -> Result<Option<(usize, usize)>> {
        let k = self.slabs().count();
        let total = self.total();
        let count = if k == 0 { capacity.max(1) } else { total.max(1) };
        if k == MAX_SLABS || total.checked_add(count).map_or(true, |end| end > MAX_ARRAYS) {
            return Err(Error::TooManyArrays { max: MAX_ARRAYS });
        }
        let first = total as u32;
        let mut nodes = Vec::new();
        nodes.try_reserve_exact(count).map_err(|_| Error::Alloc {
            nbytes: count * core::mem::size_of::<Node>(),
            alignment: core::mem::align_of::<Node>(),
        })?;
        nodes.extend((0..count).map(|i| Node {
            next: AtomicU32::new(if i + 1 < count { first + i as u32 + 1 } else { NIL }),
            acquired: AtomicBool::new(keep_first && i == 0),
        }));
        let (base, tag) = alloc(count)?;
        if self.slabs[k].set(Slab { base, tag, first, nodes: nodes.into_boxed_slice() }).is_err() {
            unreachable!("slabs are added under the growth mutex");
        }
        let slab = self.slabs[k].get().expect("just set");
        let chain = if keep_first { 1 } else { 0 };
        if chain < count {
            self.push_chain(first + chain as u32, &slab.nodes[count - 1]);
        }
        Ok(keep_first.then_some((base, tag)))
    }
}
