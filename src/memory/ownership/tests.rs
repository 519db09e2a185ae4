//! Unit tests of [`Ownership`]: the counts, their limit, attachments, and the races of the C
//! tests (`c_tests/test_buffer_threads.c`, `c_tests/test_attach.c`) on a heap object shared by
//! raw pointer, as the C layer shares an `mvs_buffer`. They run under Miri too (fewer rounds,
//! `make miri`), which checks what the counts promise: no use after free (freed early), no
//! double free, no leak, and no data race between a thread's last use of the object and its
//! free (the Release decrements and the Acquire fence).

use super::*;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Barrier, Mutex};

type Own = Ownership<usize, usize>;

/// Rounds of a race, fewer under Miri.
fn rounds(native: usize, miri: usize) -> usize {
    if cfg!(miri) {
        miri
    } else {
        native
    }
}

// ---- one thread --------------------------------------------------------------------------------

#[test]
fn the_last_release_frees_and_only_it() {
    let own = Own::new();
    assert_eq!(own.refcount(), 1);
    own.retain().unwrap();
    own.retain().unwrap();
    assert_eq!(own.refcount(), 3);
    assert!(!own.release(|_| panic!("no attachments")));
    assert!(!own.release(|_| panic!("no attachments")));
    assert_eq!(own.refcount(), 1);
    assert!(own.release(|_| panic!("no attachments")));
    assert_eq!(own.refcount(), 0);
}

#[test]
fn retains_stop_at_the_limit_and_change_nothing() {
    let own = Own::new();
    own.set_refcount(MAX_REFS);
    assert_eq!(own.retain(), Err(Error::RefCount));
    assert_eq!(own.refcount(), MAX_REFS);
    own.set_refcount(MAX_REFS - 1);
    assert_eq!(own.retain(), Ok(()));
    assert_eq!(own.retain(), Err(Error::RefCount));
    assert_eq!(own.refcount(), MAX_REFS);
    own.set_refcount(1);

    own.memory_refs.store(MAX_REFS, SeqCst);
    assert_eq!(own.retain_memory(), Err(Error::RefCount));
    assert_eq!(own.memory_refs.load(SeqCst), MAX_REFS);
    own.memory_refs.store(1, SeqCst);
    assert!(own.release(|_| {}));
}

#[test]
fn attach_keeps_the_first_value_per_key() {
    let own = Own::new();
    assert_eq!(own.attached(1), None);
    assert_eq!(own.attach(1, 10), Ok(10));
    assert_eq!(own.attach(1, 20), Ok(10), "the key is taken: the first value stays");
    assert_eq!(own.attach(2, 30), Ok(30));
    assert_eq!(own.attach(3, 10), Ok(10), "one value under two keys: two attachments");
    assert_eq!(
        (own.attached(1), own.attached(2), own.attached(3), own.attached(4)),
        (Some(10), Some(30), Some(10), None)
    );
    assert_eq!(own.refcount(), 1, "attachments take no reference");
    own.retain().unwrap();
    let mut detached = Vec::new();
    assert!(!own.release(|v| detached.push(v)));
    assert!(detached.is_empty(), "detached only at the last reference");
    assert!(own.release(|v| detached.push(v)));
    assert_eq!(detached, [10, 30, 10], "each attached value once, newest first; 20 never");
}

/// Memory references keep the memory past the last reference; the Cython pattern: the
/// attached value holds a memory reference and gives it back from its detach.
#[test]
fn memory_references_outlive_the_last_reference() {
    let own = Own::new();
    own.retain_memory().unwrap(); // the attached value's
    own.retain_memory().unwrap(); // a view's, made from the attached value
    assert_eq!(own.attach(7, 70), Ok(70));
    let mut detached = Vec::new();
    assert!(!own.release(|v| {
        detached.push(v);
        // Not the last: the references still hold theirs while detaching.
        assert!(!own.release_memory());
    }));
    assert_eq!(detached, [70]);
    assert_eq!(own.attached(7), Some(70), "the nodes stay while the memory does");
    assert!(own.release_memory(), "the view's, the last");
}

#[test]
fn the_references_memory_reference_goes_last_when_no_other_is_held() {
    let own = Own::new();
    own.retain_memory().unwrap();
    assert!(!own.release_memory());
    assert!(own.release(|_| {}));
}

// ---- threads, on a shared heap object ----------------------------------------------------------

/// An object on the heap with an [`Ownership`] and a slot per thread that the thread writes
/// without atomics: the free reads every slot, so that Miri reports a data race if a thread's
/// last write does not happen before the free.
struct Obj {
    own: Own,
    slots: Vec<UnsafeCell<usize>>,
}

/// A raw pointer to an [`Obj`], shared between threads as the C layer shares an `mvs_buffer`.
#[derive(Clone, Copy)]
struct Ptr(*mut Obj);
// SAFETY: the object is only reached through its atomic counts, and each slot is written by
// one thread only, before that thread gives up its reference.
unsafe impl Send for Ptr {}
// SAFETY: as above.
unsafe impl Sync for Ptr {}

/// What the frees of a test did: how many, and what each read in the slots.
#[derive(Default)]
struct Frees {
    count: AtomicUsize,
    slots: Mutex<Vec<usize>>,
}

impl Ptr {
    fn new(threads: usize) -> Ptr {
        Ptr(Box::into_raw(Box::new(Obj { own: Own::new(), slots: (0..threads).map(|_| UnsafeCell::new(0)).collect() })))
    }

    /// The counts (the caller holds a reference or a memory reference).
    fn own<'a>(self) -> &'a Own {
        // SAFETY: live while the caller holds a count; only the atomics field is borrowed, so
        // another thread may free the object once this thread's count is given back (as the
        // C layer's `own`).
        unsafe { &*core::ptr::addr_of!((*self.0).own) }
    }

    /// Writes this thread's slot (the caller holds a count, and is the slot's only writer).
    fn write(self, slot: usize, value: usize) {
        // SAFETY: as above; the slots' storage is freed only with the object, and only the
        // `slots` field is borrowed.
        unsafe { *(&(*self.0).slots)[slot].get() = value };
    }

    /// Frees the object when `last`, reading every slot.
    fn free_if(self, last: bool, frees: &Frees) {
        if last {
            // SAFETY: the last memory reference was just given back: this thread owns the
            // object; it came from `Box::into_raw` in `new`.
            let obj = unsafe { Box::from_raw(self.0) };
            let seen = obj.slots.iter().map(|s| *unsafe_cell_read(s)).collect();
            *frees.slots.lock().unwrap() = seen;
            frees.count.fetch_add(1, SeqCst);
        }
    }

    /// Gives back a reference, `detach` at the last.
    fn release(self, frees: &Frees, detach: impl FnMut(usize)) {
        let last = self.own().release(detach);
        self.free_if(last, frees);
    }

    /// Gives back a memory reference.
    fn release_memory(self, frees: &Frees) {
        let last = self.own().release_memory();
        self.free_if(last, frees);
    }
}

/// The value in a cell that no other thread can reach any more.
fn unsafe_cell_read(cell: &UnsafeCell<usize>) -> &usize {
    // SAFETY: called on an object this thread owns (see `free_if`).
    unsafe { &*cell.get() }
}

/// Each thread holds a reference, the main thread gives its own up at once, the threads
/// retain and release many times, writing their slot, then give theirs up: the object is
/// freed exactly once, after every thread's last write (never early: Miri would see a use
/// after free or a race with the free), by whichever thread released last.
#[test]
fn concurrent_last_release_frees_once_never_early() {
    let threads = if cfg!(miri) { 3 } else { 8 };
    for _ in 0..rounds(200, 4) {
        let p = Ptr::new(threads);
        let frees = Frees::default();
        let start = Barrier::new(threads);
        std::thread::scope(|scope| {
            for t in 0..threads {
                p.own().retain().unwrap(); // this thread's, taken by the main thread
                let (frees, start) = (&frees, &start);
                scope.spawn(move || {
                    start.wait();
                    for i in 1..=rounds(2000, 10) {
                        p.own().retain().unwrap();
                        p.write(t, i);
                        p.release(frees, |_| {});
                    }
                    p.write(t, usize::MAX);
                    p.release(frees, |_| {});
                });
            }
            p.release(&frees, |_| {}); // the main thread's: the object is the threads' now
        });
        assert_eq!(frees.count.load(SeqCst), 1);
        assert_eq!(*frees.slots.lock().unwrap(), vec![usize::MAX; threads], "every last write seen by the free");
    }
}

/// Threads race to attach their own value under one key, each holding a reference: all get
/// the same value, exactly one gets its own, and at the last release (on whichever thread)
/// only that value is detached, once, before the free.
#[test]
fn concurrent_attach_of_one_key_has_one_winner() {
    const KEY: usize = 0x5eed;
    let threads = if cfg!(miri) { 3 } else { 4 };
    for _ in 0..rounds(500, 4) {
        let p = Ptr::new(threads);
        let frees = Frees::default();
        let detached = Mutex::new(Vec::new());
        let got: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
        let start = Barrier::new(threads);
        std::thread::scope(|scope| {
            for t in 0..threads {
                p.own().retain().unwrap();
                let (frees, start, got, detached) = (&frees, &start, &got, &detached);
                scope.spawn(move || {
                    start.wait();
                    let value = p.own().attach(KEY, 100 + t).unwrap();
                    assert_eq!(p.own().attached(KEY), Some(value));
                    got[t].store(value, SeqCst);
                    p.write(t, 1);
                    p.release(frees, |v| {
                        assert_eq!(frees.count.load(SeqCst), 0, "detached before the free");
                        detached.lock().unwrap().push(v);
                    });
                });
            }
            p.release(&frees, |v| detached.lock().unwrap().push(v));
        });
        let got: Vec<usize> = got.iter().map(|g| g.load(SeqCst)).collect();
        let winner = got[0];
        assert!(got.iter().all(|&g| g == winner), "one value for all: {got:?}");
        assert_eq!((0..threads).filter(|&t| got[t] == 100 + t).count(), 1, "exactly one winner: {got:?}");
        assert_eq!(*detached.lock().unwrap(), [winner], "the winner detached once, no loser");
        assert_eq!(frees.count.load(SeqCst), 1);
    }
}

/// Threads attach keys of their own while looking up every key: a thread always finds its
/// own keys, finds others' with their value or not yet, and at the last release each value is
/// detached exactly once.
#[test]
fn concurrent_attach_of_many_keys_while_looking_up() {
    let (threads, keys) = if cfg!(miri) { (3, 6) } else { (4, 32) };
    let key = |t: usize, k: usize| 1000 * (t + 1) + k;
    for _ in 0..rounds(50, 1) {
        let p = Ptr::new(threads);
        let frees = Frees::default();
        let start = Barrier::new(threads);
        std::thread::scope(|scope| {
            for t in 0..threads {
                p.own().retain().unwrap();
                let (frees, start) = (&frees, &start);
                scope.spawn(move || {
                    start.wait();
                    for k in 0..keys {
                        assert_eq!(p.own().attach(key(t, k), key(t, k) + 1), Ok(key(t, k) + 1), "a new key");
                        for other in 0..threads {
                            for j in 0..keys {
                                let found = p.own().attached(key(other, j));
                                if other == t && j <= k {
                                    assert_eq!(found, Some(key(t, j) + 1));
                                } else if other == t {
                                    assert_eq!(found, None);
                                } else {
                                    assert!(found.is_none_or(|v| v == key(other, j) + 1));
                                }
                            }
                        }
                    }
                    p.write(t, keys);
                    p.release(frees, |_| panic!("the main thread releases last"));
                });
            }
        });
        let mut detached = Vec::new();
        p.release(&frees, |v| detached.push(v));
        detached.sort_unstable();
        let mut want: Vec<usize> = (0..threads).flat_map(|t| (0..keys).map(move |k| key(t, k) + 1)).collect();
        want.sort_unstable();
        assert_eq!(detached, want, "each value detached once");
        assert_eq!(frees.count.load(SeqCst), 1);
        assert_eq!(*frees.slots.lock().unwrap(), vec![keys; threads]);
    }
}

/// The Cython pattern across threads: the main thread attaches a value that holds a memory
/// reference, and views made from it (memory references) go to other threads. The last
/// reference goes first: the value is detached (giving back its memory reference) while the
/// threads still use the memory, which is freed once, by the last of them, after all their
/// writes and after the detach.
#[test]
fn memory_references_keep_the_memory_after_the_last_reference() {
    let threads = if cfg!(miri) { 3 } else { 4 };
    for _ in 0..rounds(500, 4) {
        let p = Ptr::new(threads);
        let frees = Frees::default();
        let detached = AtomicBool::new(false);
        let start = Barrier::new(threads + 1);
        p.own().retain_memory().unwrap(); // the attached value's
        assert_eq!(p.own().attach(1, 10), Ok(10));
        std::thread::scope(|scope| {
            for t in 0..threads {
                p.own().retain_memory().unwrap(); // this thread's view
                let (frees, start, detached) = (&frees, &start, &detached);
                scope.spawn(move || {
                    start.wait();
                    for i in 0..rounds(100, 5) {
                        p.own().retain_memory().unwrap();
                        p.write(t, i);
                        p.release_memory(frees);
                    }
                    p.write(t, usize::MAX);
                    p.release_memory(frees);
                    assert!(frees.count.load(SeqCst) == 0 || detached.load(SeqCst), "freed after the detach");
                });
            }
            start.wait();
            p.release(&frees, |v| {
                assert_eq!(v, 10);
                assert!(!detached.swap(true, SeqCst), "detached once");
                p.release_memory(&frees); // the value's memory reference
            });
        });
        assert!(detached.load(SeqCst));
        assert_eq!(frees.count.load(SeqCst), 1);
        assert_eq!(*frees.slots.lock().unwrap(), vec![usize::MAX; threads]);
    }
}
