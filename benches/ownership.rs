//! Cost of the ownership functions through the exported `extern "C"` functions, each next to
//! its baseline in the same criterion group and run:
//! - `pool_acquire_release`: `mvs_pool_acquire` + `mvs_pool_release` of a (3, 3) float64 array
//!   (72 bytes), against `malloc_free_72`: `malloc(72)` + `free` (glibc, the same size);
//! - `buffer_alloc_release`: `mvs_buffer_alloc(72, 8)` + `mvs_buffer_release` (one allocation
//!   with the header), against the same `malloc_free_72`;
//! - `buffer_retain_release`: `mvs_buffer_retain` + `mvs_buffer_release` on a live buffer (two
//!   uncontended atomic operations);
//! - `buffer_wrap_release`: `mvs_buffer_wrap` of existing memory with no callback + release.
//!
//! Run: `cargo bench -p memviewslice-benches --bench ownership` (part of `make bench`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use memviewslice::ffi::*;
use memviewslice_benches::{ok, C};

fn ownership(c: &mut Criterion) {
    let mut g = c.benchmark_group("ownership");
    g.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));

    g.bench_function("malloc_free_72", |b| {
        // SAFETY: malloc's pointer goes to free once.
        b.iter(|| unsafe {
            let p = libc::malloc(black_box(72));
            libc::free(black_box(p));
        })
    });

    let shape = [3isize, 3];
    let mut pool: *mut mvs_pool = core::ptr::null_mut();
    // SAFETY: `shape` holds 2 extents; `pool` is a local.
    ok(unsafe { mvs_pool_create(8, 2, shape.as_ptr(), C, 16, &mut pool) });
    let mut view = mvs_slice::default();
    g.bench_function("pool_acquire_release", |b| {
        // SAFETY: `pool` is live (destroyed after the group); `view` is a local.
        b.iter(|| unsafe {
            mvs_pool_acquire(black_box(pool), &mut view);
            black_box(&mut view);
            mvs_pool_release(black_box(pool), &view)
        })
    });
    // SAFETY: `pool` is live and no longer used after this.
    unsafe { mvs_pool_destroy(pool) };

    // Contended: 4 threads share one pool (and, for comparison, call malloc/free); the time
    // is wall time per acquire+release pair over all threads (so, with 2 cores, the ideal is
    // half the single-thread time).
    for threads in [2usize, 4] {
        let mut pool: *mut mvs_pool = core::ptr::null_mut();
        // SAFETY: `shape` holds 2 extents; `pool` is a local.
        ok(unsafe { mvs_pool_create(8, 2, shape.as_ptr(), C, 16, &mut pool) });
        let shared = SendPtr(pool);
        g.bench_function(format!("pool_acquire_release_{threads}threads"), |b| {
            b.iter_custom(|iters| {
                // SAFETY: `p` is the live shared pool (thread-safe); `view` is the thread's own.
                contended(threads, iters, shared, |p, view| unsafe {
                    mvs_pool_acquire(black_box(p.0), view);
                    black_box(&mut *view);
                    mvs_pool_release(black_box(p.0), view);
                })
            })
        });
        g.bench_function(format!("malloc_free_72_{threads}threads"), |b| {
            b.iter_custom(|iters| {
                // SAFETY: malloc's pointer goes to free once.
                contended(threads, iters, shared, |_, _| unsafe {
                    let p = libc::malloc(black_box(72));
                    libc::free(black_box(p));
                })
            })
        });
        // SAFETY: `pool` is live and no longer used after this.
        unsafe { mvs_pool_destroy(pool) };
    }

    g.bench_function("buffer_alloc_release", |b| {
        // SAFETY: each iteration releases the buffer it allocated.
        b.iter(|| unsafe {
            let mut buf: *mut mvs_buffer = core::ptr::null_mut();
            mvs_buffer_alloc(black_box(72), 8, 0, &mut buf);
            mvs_buffer_release(black_box(buf));
        })
    });

    let mut buf: *mut mvs_buffer = core::ptr::null_mut();
    // SAFETY: `buf` is a local.
    ok(unsafe { mvs_buffer_alloc(72, 8, 0, &mut buf) });
    g.bench_function("buffer_retain_release", |b| {
        // SAFETY: `buf` is live: each retain is balanced by a release.
        b.iter(|| unsafe {
            mvs_buffer_retain(black_box(buf));
            mvs_buffer_release(black_box(buf));
        })
    });
    // SAFETY: `buf`'s last reference, no longer used after this.
    unsafe { mvs_buffer_release(buf) };

    let mut memory = [0u8; 72];
    g.bench_function("buffer_wrap_release", |b| {
        // SAFETY: `memory` outlives each wrapped buffer, released in the same iteration.
        b.iter(|| unsafe {
            let mut w: *mut mvs_buffer = core::ptr::null_mut();
            mvs_buffer_wrap(black_box(memory.as_mut_ptr().cast()), 72, None, core::ptr::null_mut(), 0, &mut w);
            mvs_buffer_release(black_box(w));
        })
    });
    g.finish();
}

#[derive(Clone, Copy)]
struct SendPtr(*mut mvs_pool);
// SAFETY: the pool is thread-safe; the pointer is only passed to its functions.
unsafe impl Send for SendPtr {}
// SAFETY: as for Send: the pool's functions may be called from any thread at once.
unsafe impl Sync for SendPtr {}

/// Runs `op` `iters` times in total, split over `threads` threads started together, each with
/// a view of its own made before the clock starts (as the single-thread case has); returns
/// the wall time.
fn contended(threads: usize, iters: u64, p: SendPtr, op: impl Fn(SendPtr, &mut mvs_slice) + Sync) -> Duration {
    let start = std::sync::Barrier::new(threads + 1);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut view = mvs_slice::default();
                start.wait();
                for _ in 0..iters / threads as u64 {
                    op(p, &mut view);
                }
            });
        }
        start.wait();
        let t = std::time::Instant::now();
        // The scope joins the threads on exit; time until then.
        t
    })
    .elapsed()
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = ownership
}
criterion_main!(benches);
