//! Data movement through the exported functions, each next to its baseline in the same
//! criterion group and run, on the same buffers (8 MiB of float64 unless said otherwise;
//! throughput is destination bytes per second):
//! - `contiguous`: `mvs_copy` of 1 Mi items against `memcpy`;
//! - `strided`: `src[:, ::2]` of a (1024, 2048) array into a contiguous (1024, 1024) one, against
//!   the plain double loop a C user writes (and `memcpy` of the same bytes, the ceiling);
//! - `transposed`: `dst[...] = src.T` of (1024, 1024), against the plain double loop and a
//!   32 by 32 tiled one (and `memcpy`);
//! - `fill`: `mvs_fill` with 0.0 against `memset`, with 1.5 against the plain loop;
//! - `small`: a (3, 3) view of an (8, 8) array into a contiguous (3, 3) one, against the floor: a
//!   208-byte struct copy plus `memcpy` of the 72 bytes.
//!
//! Run: `cargo bench -p memviewslice-benches --bench copy` (part of `make bench`). NumPy's and
//! Cython's copies are measured by `make bench-cython`, in one Python process.

use std::hint::black_box;
use std::time::Duration;

use core::ffi::c_void;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use memviewslice::ffi::*;
use memviewslice_benches::ok;

const N: usize = 1024;
const BYTES: u64 = (N * N * 8) as u64;

fn view(data: *mut f64, shape: &[isize], strides_items: &[isize]) -> mvs_slice {
    let strides: Vec<isize> = strides_items.iter().map(|s| s * 8).collect();
    let mut v = mvs_slice::default();
    // SAFETY: `data` is the start of a live allocation that the shape and strides stay inside; `v` is a local.
    ok(unsafe { mvs_view_strided(data.cast(), 8, shape.len() as i32, shape.as_ptr(), strides.as_ptr(), &mut v) });
    v
}

fn copy(src: &mvs_slice, dst: &mvs_slice, ndim: i32) {
    // SAFETY: `src` and `dst` are views of the benchmark's live allocations.
    ok(unsafe { mvs_copy(black_box(src), ndim, black_box(dst), ndim, 8) });
}

fn data_movement(c: &mut Criterion) {
    let mut g = c.benchmark_group("copy");
    g.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2)).sample_size(30);
    g.throughput(Throughput::Bytes(BYTES));

    let mut big: Vec<f64> = (0..2 * N * N).map(|i| i as f64).collect();
    let mut dst = vec![0f64; N * N];
    let (s, d) = (big.as_mut_ptr(), dst.as_mut_ptr());

    g.bench_function("contiguous/memcpy", |b| {
        // SAFETY: `s` and `d` point to live allocations of at least BYTES bytes that do not overlap.
        b.iter(|| unsafe { libc::memcpy(black_box(d).cast(), black_box(s).cast::<c_void>(), BYTES as usize) })
    });
    let (sv, dv) = (view(s, &[(N * N) as isize], &[1]), view(d, &[(N * N) as isize], &[1]));
    g.bench_function("contiguous/mvs_copy", |b| b.iter(|| copy(&sv, &dv, 1)));

    let n = N as isize;
    let (sv, dv) = (view(s, &[n, n], &[2 * n, 2]), view(d, &[n, n], &[n, 1]));
    g.bench_function("strided/loop", |b| {
        // SAFETY: every index stays inside `big` (2 N^2 items) and `dst` (N^2 items), both alive.
        b.iter(|| unsafe {
            let (s, d) = (black_box(s), black_box(d));
            for i in 0..N {
                for j in 0..N {
                    *d.add(i * N + j) = *s.add(i * 2 * N + 2 * j);
                }
            }
        })
    });
    g.bench_function("strided/mvs_copy", |b| b.iter(|| copy(&sv, &dv, 2)));

    let (sv, dv) = (view(s, &[n, n], &[1, n]), view(d, &[n, n], &[n, 1]));
    g.bench_function("transposed/loop", |b| {
        // SAFETY: every index stays inside `big` and `dst`, both alive.
        b.iter(|| unsafe {
            let (s, d) = (black_box(s), black_box(d));
            for i in 0..N {
                for j in 0..N {
                    *d.add(i * N + j) = *s.add(j * N + i);
                }
            }
        })
    });
    g.bench_function("transposed/tiled32", |b| {
        // SAFETY: every index stays inside `big` and `dst`, both alive.
        b.iter(|| unsafe {
            let (s, d) = (black_box(s), black_box(d));
            for i0 in (0..N).step_by(32) {
                for j0 in (0..N).step_by(32) {
                    for i in i0..i0 + 32 {
                        for j in j0..j0 + 32 {
                            *d.add(i * N + j) = *s.add(j * N + i);
                        }
                    }
                }
            }
        })
    });
    g.bench_function("transposed/mvs_copy", |b| b.iter(|| copy(&sv, &dv, 2)));

    let dv = view(d, &[(N * N) as isize], &[1]);
    // SAFETY: `d` points to a live allocation of BYTES bytes.
    g.bench_function("fill/memset", |b| b.iter(|| unsafe { libc::memset(black_box(d).cast(), 0, BYTES as usize) }));
    let zero = 0f64;
    g.bench_function("fill/mvs_fill_zero", |b| {
        // SAFETY: `dv` views `dst`, alive; the item is an 8-byte local.
        b.iter(|| ok(unsafe { mvs_fill(black_box(&dv), 1, 8, black_box(&zero as *const f64).cast()) }))
    });
    g.bench_function("fill/loop", |b| {
        // SAFETY: `d` points to N^2 live f64s, borrowed by nothing else during the call.
        b.iter(|| unsafe { core::slice::from_raw_parts_mut(black_box(d), N * N).fill(black_box(1.5)) })
    });
    let value = 1.5f64;
    g.bench_function("fill/mvs_fill", |b| {
        // SAFETY: `dv` views `dst`, alive; the item is an 8-byte local.
        b.iter(|| ok(unsafe { mvs_fill(black_box(&dv), 1, 8, black_box(&value as *const f64).cast()) }))
    });
    g.finish();

    let mut g = c.benchmark_group("copy_small");
    g.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    let mut a: Vec<f64> = (0..64).map(|i| i as f64).collect();
    let mut out = [0f64; 9];
    let (sv, dv) = (view(a.as_mut_ptr(), &[3, 3], &[8, 1]), view(out.as_mut_ptr(), &[3, 3], &[3, 1]));
    g.bench_function("floor", |b| {
        let mut copy = mvs_slice::default();
        // SAFETY: `out` holds 9 f64s (72 bytes) and `a` 64; `copy` and `sv` are locals.
        b.iter(|| unsafe {
            copy = *black_box(&sv);
            black_box(&mut copy);
            libc::memcpy(black_box(out.as_mut_ptr()).cast(), black_box(a.as_ptr()).cast(), 72)
        })
    });
    g.bench_function("mvs_copy", |b| b.iter(|| copy(&sv, &dv, 2)));
    g.finish();
}

criterion_group!(benches, data_movement);
criterion_main!(benches);
