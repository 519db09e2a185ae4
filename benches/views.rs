//! Cost of every view derivation through the exported `extern "C"` functions, each measured in
//! the same criterion group as a floor: a plain copy of the 208-byte `mvs_slice` from `src` to
//! `out` plus writing two dimensions of the copy, in a non-inlined function taking the same
//! pointers. Every operation works on a 4-D C-contiguous float64 view of shape (8, 16, 32, 64).
//!
//! Run: `make bench-criterion` (part of `make bench`), which records the medians in
//! benches/results/criterion.json and prints `python3 benches/report.py`'s table of medians,
//! ratios to the floor and targets.

use std::hint::black_box;
use std::time::Duration;

use core::ffi::{c_int, c_void};
use criterion::{criterion_group, criterion_main, Criterion};
use memviewslice::ffi::*;
use memviewslice_benches::{check, C};

const ITEMSIZE: isize = 8;
const SHAPE: [isize; 4] = [8, 16, 32, 64];

/// The floor: what any derivation must at least do (read the source, write a result with two
/// changed dimensions).
#[inline(never)]
unsafe extern "C" fn floor(src: *const mvs_slice, ndim: c_int, out: *mut mvs_slice) -> mvs_status {
    let _ = ndim;
    // SAFETY: both pointers are valid, distinct `mvs_slice`s (the benchmark's own locals).
    unsafe {
        // Field by field, copied inline as a C compiler copies the struct: `*out = *src`
        // compiles to a call to `memmove` (the pointers may alias, and 208 bytes is past what
        // the compiler copies inline), 0.05 to 1.1 ns slower in six paired runs.
        let s = &*src;
        let o = &mut *out;
        o.memview = s.memview;
        o.data = s.data;
        o.shape = s.shape;
        o.strides = s.strides;
        o.suboffsets = s.suboffsets;
        o.shape[0] = 4;
        o.strides[0] = 16;
        o.shape[1] = 2;
        o.strides[1] = 8;
    }
    MVS_OK
}

/// An `mvs_slice` at the start of a cache line, so that every run moves the same lines (on the
/// stack, its place would vary with the process's stack address, and with it how many of the
/// 16-byte moves straddle two lines).
#[repr(C, align(64))]
#[derive(Default)]
struct Line(mvs_slice);

fn views(c: &mut Criterion) {
    let mut buffer = vec![0f64; SHAPE.iter().product::<isize>() as usize];
    let mut src = Line::default();
    check(
        // SAFETY: `buffer` holds the SHAPE's items; `src` is a local.
        unsafe {
            mvs_view_contiguous(buffer.as_mut_ptr().cast::<c_void>(), ITEMSIZE, 4, SHAPE.as_ptr(), C, &mut src.0)
        },
        "mvs_view_contiguous",
    );
    // A non-contiguous source, src[:, :, :16, :], of shape (8, 16, 16, 64): it still reshapes to
    // (128, 1024) without a copy (axes 0-1 and 2-3 merge), as NumPy's reshape does.
    let mut strided = Line::default();
    // SAFETY: `src` is a valid 4-d view; `strided` is a local.
    check(unsafe { mvs_slice_axis(&src.0, 4, 2, 0, 16, 1, &mut strided.0) }, "mvs_slice_axis");

    let mut g = c.benchmark_group("views");
    g.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(1));

    // Every derivation writing one `out`: `$call` gets (src pointer, out pointer), made opaque
    // with `black_box`. The other arguments are plain constants, passed in registers as a C
    // caller passes them: the library is a separate crate built without LTO, so nothing is
    // folded into its functions. (Through `black_box`, each argument would also be stored and
    // reloaded on every call.)
    let mut out = Line::default();
    macro_rules! bench {
        ($name:literal, $src:expr, |$s:ident, $o:ident| $call:expr) => {{
            let src_ptr: *const mvs_slice = $src;
            let out_ptr: *mut mvs_slice = &mut out.0;
            // The call must succeed: a fast error path would make a meaningless number.
            {
                let $s = src_ptr;
                let $o = out_ptr;
                // SAFETY: `$s` and `$o` point to the benchmark's views, alive for the group.
                check(unsafe { $call }, $name);
            }
            g.bench_function($name, |b| {
                b.iter(|| {
                    let $s = black_box(src_ptr);
                    let $o = black_box(out_ptr);
                    // SAFETY: as above: the views outlive the benchmark.
                    let status = unsafe { $call };
                    black_box(status);
                    // SAFETY: `$o` points to the output view, alive and not borrowed elsewhere.
                    black_box(unsafe { &*$o });
                })
            });
        }};
    }

    let s: *const mvs_slice = &src.0;
    bench!("floor", s, |s, o| floor(s, 4, o));

    // Targets: within 2x of the floor.
    bench!("slice_axis", s, |s, o| mvs_slice_axis(s, 4, 2, 3, -2, 2, o));
    bench!("index_axis", s, |s, o| mvs_index_axis(s, 4, 1, -3, o));
    let sub_shape: [isize; 4] = [4, 8, 16, 32];
    bench!("subview", s, |s, o| mvs_subview(s, 4, ITEMSIZE, 64, 4, sub_shape.as_ptr(), C, o));
    // The same subview from the flat 1-D view of the buffer: one flat buffer, many views.
    let count = SHAPE.iter().product::<isize>();
    let mut flat = Line::default();
    check(
        // SAFETY: `buffer` holds `count` items; `flat` is a local.
        unsafe { mvs_view_contiguous(buffer.as_mut_ptr().cast::<c_void>(), ITEMSIZE, 1, &count, C, &mut flat.0) },
        "mvs_view_contiguous",
    );
    bench!("subview_flat", &flat.0, |s, o| mvs_subview(s, 1, ITEMSIZE, 64, 4, sub_shape.as_ptr(), C, o));
    bench!("transpose", s, |s, o| mvs_transpose(s, 4, o));

    // Targets: within 5x of the floor.
    let flat: [isize; 2] = [128, 2048];
    bench!("reshape", s, |s, o| mvs_reshape(s, 4, ITEMSIZE, 2, flat.as_ptr(), C, o));
    let half_flat: [isize; 2] = [128, 1024];
    bench!("reshape_noncontig", &strided.0, |s, o| mvs_reshape(s, 4, ITEMSIZE, 2, half_flat.as_ptr(), C, o));
    // src[3, 2:14:3, ::-1, -5]
    let items = [
        mvs_index_item { kind: MVS_ITEM_INDEX, start: 3, stop: 0, step: 0 },
        mvs_index_item { kind: MVS_ITEM_SLICE, start: 2, stop: 14, step: 3 },
        mvs_index_item { kind: MVS_ITEM_SLICE, start: MVS_NONE, stop: MVS_NONE, step: -1 },
        mvs_index_item { kind: MVS_ITEM_INDEX, start: -5, stop: 0, step: 0 },
    ];
    let mut out_ndim: c_int = 0;
    let out_ndim_ptr: *mut c_int = &mut out_ndim;
    bench!("index", s, |s, o| mvs_index(s, 4, items.as_ptr(), 4, o, out_ndim_ptr));

    // Targets: within 2x of the floor, and no slower than ndarray's `permuted_axes` (below).
    let axes: [c_int; 4] = [2, 0, 3, 1];
    bench!("permute", s, |s, o| mvs_permute(s, 4, axes.as_ptr(), o));
    bench!("swap_axes", s, |s, o| mvs_swap_axes(s, 4, 0, 3, o));
    // In statics, as a C caller's constant arrays usually are: as one-entry arrays on the
    // stack beside `out`, move_axes measured half as slow again, with the same code.
    static MOVE_FROM: [c_int; 1] = [0];
    static MOVE_TO: [c_int; 1] = [-1];
    let (from, to) = (&MOVE_FROM, &MOVE_TO);
    bench!("move_axes", s, |s, o| mvs_move_axes(s, 4, from.as_ptr(), to.as_ptr(), 1, o));
    // What a Rust user writes instead: the same permutations of an ndarray view of the same
    // buffer, of a static number of dimensions (its fastest form) and of a dynamic one (as
    // ours), each from an opaque source, the result made opaque.
    let nd = ndarray::ArrayView4::from_shape(SHAPE.map(|n| n as usize), &buffer[..]).unwrap();
    let nd_dyn = nd.into_dyn();
    let ax = axes.map(|a| a as usize);
    g.bench_function("ndarray_permuted_axes", |b| b.iter(|| black_box((*black_box(&nd)).permuted_axes(ax))));
    g.bench_function("ndarray_swap_axes", |b| {
        b.iter(|| {
            let mut v = *black_box(&nd);
            v.swap_axes(0, 3);
            black_box(v)
        })
    });
    g.bench_function("ndarray_dyn_permuted_axes", |b| {
        b.iter(|| black_box(black_box(&nd_dyn).clone().permuted_axes(&ax[..])))
    });

    // No target: reported for completeness.
    let wide: [isize; 5] = [3, 8, 16, 32, 64];
    bench!("broadcast_to", s, |s, o| mvs_broadcast_to(s, 4, 5, wide.as_ptr(), o));
    bench!("diagonal", s, |s, o| mvs_diagonal(s, 4, 1, 2, 3, o));
    bench!("flip_axis", s, |s, o| mvs_flip_axis(s, 4, 1, o));
    bench!("flip", s, |s, o| mvs_flip(s, 4, o));
    bench!("sliding_window", s, |s, o| mvs_sliding_window(s, 4, 3, 5, 2, o));
    bench!("expand_dims", s, |s, o| mvs_expand_dims(s, 4, 2, o));
    // The float64 items as 4-byte ones (shape (8, 16, 32, 128)), as benches/icount.c.
    bench!("view_as", s, |s, o| mvs_view_as(s, 4, 8, 4, o));
    // Squeeze needs an extent-1 axis: squeeze the (8, 16, 1, 32, 64) view expand_dims makes.
    let mut expanded = Line::default();
    // SAFETY: `src` is a valid 4-d view; `expanded` is a local.
    check(unsafe { mvs_expand_dims(&src.0, 4, 2, &mut expanded.0) }, "mvs_expand_dims");
    bench!("squeeze_axis", &expanded.0, |s, o| mvs_squeeze_axis(s, 5, 2, o));
    bench!("squeeze", &expanded.0, |s, o| mvs_squeeze(s, 5, o, out_ndim_ptr));
    // Four outputs: `o` is unused, the pieces go to `pieces`.
    let mut pieces = [mvs_slice::default(); 4];
    let pieces_ptr: *mut mvs_slice = pieces.as_mut_ptr();
    bench!("split_sections_4", s, |s, _o| mvs_split_sections(s, 4, 1, 4, 0, pieces_ptr, 4));
    let cuts: [isize; 3] = [4, 8, 12];
    bench!("split_at_3", s, |s, _o| mvs_split_at(s, 4, 1, cuts.as_ptr(), 3, pieces_ptr));

    g.finish();
    black_box(&pieces);
    drop(buffer);
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = views
}
criterion_main!(benches);
