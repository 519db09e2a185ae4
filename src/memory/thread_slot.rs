//! Small numbers for threads: each thread that asks gets a slot in `0..SLOTS` that no other
//! live thread holds, kept until the thread exits. A pool keeps one cache of free arrays per
//! slot, which only the slot's holder touches, so a thread reaches its own cache with plain
//! loads and stores.
//!
//! A thread is known by an identity the caller gives, unique among live threads and neither
//! 0 nor 1: the C layer passes the thread pointer (one instruction to read), [`this_thread`]
//! gives the address of a thread-local (slower in a shared library, where every thread-local
//! access is a call). `OWNER[slot]` holds the identity of the slot's holder (0: free; 1: held
//! for a moment by [`each_free_slot`]). A thread first tries the slot its identity hashes to,
//! so that finding its slot is a load and a compare; a thread whose home slot is another's
//! finds its own through a thread-local.
//!
//! A thread claims its slot with a compare-exchange (Acquire) and gives it back at exit
//! (Release), so everything the last holder did to a slot's caches happens before the next
//! holder's use.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering::*};

/// The number of slots; threads beyond that many at once get none.
pub(crate) const SLOTS: usize = 64;

/// No holder.
const FREE: usize = 0;
/// Held by [`each_free_slot`].
const SWEEPING: usize = 1;

/// The identity of each slot's holder.
static OWNER: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(FREE) }; SLOTS];

/// This thread has not claimed a slot yet (or found none free: it asks again next time).
const UNCLAIMED: usize = usize::MAX;
/// This thread is exiting: its slot went back, and it gets no other.
const EXITED: usize = usize::MAX - 1;

thread_local! {
    /// This thread's slot, `UNCLAIMED` or `EXITED`. No destructor, so it stays readable while
    /// the thread's other thread-locals are destroyed.
    static SLOT: Cell<usize> = const { Cell::new(UNCLAIMED) };
    /// Gives the slot back when the thread exits.
    static GIVE_BACK: GiveBack = const { GiveBack };
}

struct GiveBack;

impl Drop for GiveBack {
    fn drop(&mut self) {
        let slot = SLOT.with(|s| s.replace(EXITED));
        if slot < SLOTS {
            OWNER[slot].store(FREE, Release);
        }
    }
}

/// An identity of the calling thread for [`slot`]: the address of one of its thread-locals.
/// The C layer's where it cannot read the thread pointer, and the tests'.
#[allow(dead_code)]
pub fn this_thread() -> usize {
    SLOT.with(|s| s as *const Cell<usize> as usize)
}

/// The slot `thread`'s identity tries first.
#[inline(always)]
fn home(thread: usize) -> usize {
    thread.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (usize::BITS - SLOTS.trailing_zeros())
}

/// The slot of the calling thread, whose identity is `thread`, when it is the thread's home
/// slot (the common case): a load and a compare, with no call.
#[inline(always)]
pub fn home_slot(thread: usize) -> Option<usize> {
    let h = home(thread);
    (OWNER[h].load(Relaxed) == thread).then_some(h)
}

/// The slot of the calling thread, whose identity is `thread`, claimed on first use; `None`
/// when every slot is held by another live thread, or the thread is exiting.
#[inline(always)]
pub fn slot(thread: usize) -> Option<usize> {
    home_slot(thread).or_else(|| slot_elsewhere(thread, home(thread)))
}

/// `slot` when the home slot `h` is not the thread's.
#[cold]
#[inline(never)]
fn slot_elsewhere(thread: usize, h: usize) -> Option<usize> {
    match SLOT.with(Cell::get) {
        s if s < SLOTS => Some(s),
        EXITED => None,
        _ => {
            // Registering the destructor first; it fails once the thread's destructors run.
            GIVE_BACK.try_with(|_| ()).ok()?;
            let claimed = (0..SLOTS)
                .map(|k| (h + k) % SLOTS)
                .find(|&s| OWNER[s].compare_exchange(FREE, thread, Acquire, Relaxed).is_ok())?;
            SLOT.with(|s| s.set(claimed));
            Some(claimed)
        }
    }
}

/// Calls `f` with each slot that no thread holds, holding it meanwhile (no thread can claim it
/// during the call).
pub fn each_free_slot(mut f: impl FnMut(usize)) {
    for (slot, owner) in OWNER.iter().enumerate() {
        if owner.compare_exchange(FREE, SWEEPING, Acquire, Relaxed).is_ok() {
            f(slot);
            owner.store(FREE, Release);
        }
    }
}
