#!/usr/bin/env python3
"""Cost of making one 2-D view through the Cython bridge, against Cython's own slicing, NumPy's
Python-level slicing and a raw pointer cast: one process, one buffer, the same views.

The scenario: `buf`, one float64 buffer of 64 * 64 = 4096 items, and `a`, the same memory as a
(64, 64) C-contiguous array. Every case makes one of two views of it:

- view A, a[1:-1]: (62, 64), strides (512, 8), starting at item 64. It is also
  buf[64:4032].reshape(62, 64), NumPy's slice-and-reshape of the flat buffer.
- view B, a[1:-1, 1:-1]: (62, 62), strides (512, 8), starting at item 65 (not contiguous).

Cases (benches/cython_bench.pyx holds the compiled loops):

- bridge: inside `with nogil:`, `r = f64.<helper>(...)` assigned to the same local typed
  memoryview `n` times, adding r[0, 0] to an accumulator: slice_axis_2d(a, 0, 1, -1, 1) and
  subview_1d_2d(buf, 64, (62, 64), 'C') (one call each), reshape_1d_2d(slice_axis_1d(buf,
  ...)) (two calls) for A; index_2d_2d(a, [1:-1, 1:-1]) (one call) and slice_axis_2d twice
  for B. Each helper is a C macro (include/mvs_pyx.h): the library call, then one acquisition
  of the result; assigning it to r releases r's previous one.
- Cython: the same loop with `r = a[1:-1]` / `r = a[1:-1, 1:-1]`. Cython 3 skips the
  acquisition when the slice it assigns has the memview r already holds, which it does from
  the second iteration on, so this loop pays no atomic operation; the bridge's result always
  pays one acquisition and one release. "Cython via function" does the same slicing inside a
  `cdef inline` function returning the view: a fresh result each time, which pays them too
  (and Cython's protocol for returning a typed memoryview from a function, which the bridge's
  macros avoid).
- NumPy: a Python-level loop of buf[64:4032].reshape(62, 64) (A; also a_np[1:-1]) and
  a_np[1:-1, 1:-1] (B), where a_np = buf.reshape(64, 64), timed the same way.
- pointer cast: `r = <double[:62, :64]> &buf[64]` with the GIL, a new cython.array and
  memoryview object each time (A only: a cast makes contiguous views; and r does not keep
  buf alive).
- raw memory: `r = f64.from_pointer_2d(&buf[64], (62, 64), 'C')` in nogil, the pointer made
  opaque each iteration: the same view as the cast, without the GIL (against it: issue 18's
  target, 20x faster).
- breakdown (not views of their own): the loop alone, `r = a` (one acquisition and one
  release, nothing else), `r = cy_same(a)` (what returning a typed memoryview from a `cdef
  inline` function costs, as the helpers did before they were macros), the bare library calls through mvs_pyx_src without reading the
  result back, the call with the read-back written out in the loop, and an experiment that
  writes the result straight into r when r already holds a's memview (no acquisition, as
  Cython's own slicing does).

Each case is timed as a loop of N iterations with time.perf_counter_ns around the whole loop
(one call into the module, which runs the nogil loop), N chosen so one run takes about
--target-ms; the reported figure is the best (minimum) of --reps runs, in ns per view, the
cases taken in turn so that drift reaches all alike. "ratio" is to Cython's own slicing of the
same view (`r = a[...]` in the loop). The two targets (within 1.3x of Cython's own slicing,
judged against both of its forms, >= 15x faster than NumPy's Python-level slice-and-reshape)
are printed as met or missed; a
missed target is a result, not an error: the script exits nonzero only when something fails
(a build missing, a view that differs from NumPy's). The figures are recorded in
benches/results/cython.json under the cases' keys (not in a --quick run).

Run from the repository root (`make lib` first):

    .venv/bin/python tools/build_ext.py benches/cython_bench.pyx --out build/benches/cython --name cython_bench_ext
    PYTHONPATH=build/benches/cython .venv/bin/python benches/cython_bench.py

(The module is built as cython_bench_ext: under its own name it would be this script, which
Python finds first.)

Options: --reps R (default 11), --target-ms T (default 25), --quick (3 reps of about 5 ms, for
a smoke run).
"""

import argparse
import os
import platform
import sys
import time

import numpy as np

from record import save

try:
    import cython_bench_ext as cb
except ImportError as e:
    sys.exit(f"benches/cython_bench.pyx is not built as cython_bench_ext ({e}): see this "
             "script's docstring for the build command")

ROWS, COLS = cb.SCENARIO["rows"], cb.SCENARIO["cols"]
SHAPE_A, SHAPE_B = cb.SCENARIO["shape_a"], cb.SCENARIO["shape_b"]
FLAT_A = cb.SCENARIO["flat_a"]
assert SHAPE_A == (ROWS - 2, COLS) and FLAT_A == (COLS, (ROWS - 1) * COLS)


# --- NumPy's Python-level loops (same signature as the compiled ones) -------------------------

def run_numpy_slice_reshape_A(a_np, buf, n):
    """buf[64:4032].reshape(62, 64)"""
    r = None
    for _ in range(n):
        r = buf[64:4032].reshape(62, 64)
    return 0.0, r


def run_numpy_slice_A(a_np, buf, n):
    """a_np[1:-1]"""
    r = None
    for _ in range(n):
        r = a_np[1:-1]
    return 0.0, r


def run_numpy_slice_B(a_np, buf, n):
    """a_np[1:-1, 1:-1]"""
    r = None
    for _ in range(n):
        r = a_np[1:-1, 1:-1]
    return 0.0, r


# (key, view, label, function, group). Views: "A", "B", or "" for the breakdown rows, which
# return no view (or `a` itself). The numpy loops take the ndarray, the others the same array
# (a typed memoryview is taken from it once per run).
CASES = [
    ("bridge_slice_axis_A", "A", "bridge `slice_axis_2d(a, 0, 1, -1, 1)` (1 call)", cb.run_bridge_slice_axis_A, "bridge"),
    ("bridge_subview_A", "A", "bridge `subview_1d_2d(buf, 64, (62, 64), 'C')` (1 call)", cb.run_bridge_subview_A, "bridge"),
    ("bridge_slice_reshape_A", "A", "bridge `reshape_1d_2d(slice_axis_1d(buf, 0, 64, 4032, 1), (62, 64), 'C')` (2 calls)", cb.run_bridge_slice_reshape_A, "bridge"),
    ("cython_A", "A", "Cython `r = a[1:-1]`", cb.run_cython_A, "cython"),
    ("cython_fn_A", "A", "Cython via function `return a[1:-1]`", cb.run_cython_fn_A, "cython_fn"),
    ("numpy_slice_reshape_A", "A", "NumPy `buf[64:4032].reshape(62, 64)` (Python loop)", run_numpy_slice_reshape_A, "numpy"),
    ("numpy_slice_A", "A", "NumPy `a_np[1:-1]` (Python loop)", run_numpy_slice_A, "numpy_info"),
    ("pointer_cast_A", "A", "pointer cast `<double[:62, :64]> &buf[64]` (GIL)", cb.run_pointer_cast_A, "cast"),
    ("from_pointer_A", "A", "raw memory `f64.from_pointer_2d(&buf[64], (62, 64), 'C')` (nogil)", cb.run_from_pointer_A, "raw"),
    ("bridge_index_B", "B", "bridge `index_2d_2d(a, [1:-1, 1:-1], 2)` (1 call)", cb.run_bridge_index_B, "bridge"),
    ("bridge_slice_axis_twice_B", "B", "bridge `slice_axis_2d(slice_axis_2d(a, 0, 1, -1, 1), 1, 1, -1, 1)` (2 calls)", cb.run_bridge_slice_axis_twice_B, "bridge"),
    ("cython_B", "B", "Cython `r = a[1:-1, 1:-1]`", cb.run_cython_B, "cython"),
    ("cython_fn_B", "B", "Cython via function `return a[1:-1, 1:-1]`", cb.run_cython_fn_B, "cython_fn"),
    ("numpy_slice_B", "B", "NumPy `a_np[1:-1, 1:-1]` (Python loop)", run_numpy_slice_B, "numpy"),
    # breakdown
    ("floor", "", "loop alone: `acc += a[1, 0]`, no view", cb.run_floor, "breakdown"),
    ("acquire_release", "", "`r = a`: one acquisition + one release (atomic inc/dec), no slicing", cb.run_acquire_release, "breakdown"),
    ("return_protocol", "", "`r = cy_same(a)`, an inline function returning its argument: the return of a typed memoryview (incl. acquisition + release), no slicing", cb.run_return_protocol, "breakdown"),
    ("bare_slice_axis_A", "A", "bare `mvs_slice_axis(mvs_pyx_src(a), ...)` into a stack `mvs_slice`, no read-back", cb.run_bare_slice_axis_A, "breakdown"),
    ("bare_subview_A", "A", "bare `mvs_subview(mvs_pyx_src(buf), ...)`, no read-back", cb.run_bare_subview_A, "breakdown"),
    ("bare_index_B", "B", "bare `mvs_index(mvs_pyx_src(a), ...)`, no read-back", cb.run_bare_index_B, "breakdown"),
    ("bare_readback_A", "A", "bare `mvs_slice_axis` + `r = (<view_2d *>&out)[0]` written in the loop", cb.run_bare_slice_axis_readback_A, "breakdown"),
    ("inplace_slice_axis_A", "A", "experiment: `mvs_slice_axis` written straight into r (r holds a's memview: no acquisition)", cb.run_inplace_slice_axis_A, "breakdown"),
    ("inplace_index_B", "B", "experiment: `mvs_index` written straight into r (no acquisition)", cb.run_inplace_index_B, "breakdown"),
]

WITHIN_CYTHON = 1.3
FASTER_THAN_NUMPY = 15.0
FASTER_THAN_CAST = 20.0  # issue 18: from_pointer_2d against the GIL cast


CASES_BY_KEY = {key: label for key, _, label, _, _ in CASES}


def make_data():
    buf = np.arange(float(ROWS * COLS))
    a_np = buf.reshape(ROWS, COLS)
    return buf, a_np


def check_views(buf, a_np):
    """Every case's last view is NumPy's view A or B of the same memory; raises otherwise."""
    expected = {"A": a_np[1:-1], "B": a_np[1:-1, 1:-1]}
    assert np.array_equal(expected["A"], buf[FLAT_A[0]:FLAT_A[1]].reshape(SHAPE_A))
    for key, view, _, fn, group in CASES:
        acc, r = fn(a_np, buf, 3)
        if not view or group == "breakdown" and r is None:
            continue
        got, want = np.asarray(r), expected[view]
        ok = (got.shape == want.shape and got.strides == want.strides
              and got.__array_interface__["data"][0] == want.__array_interface__["data"][0]
              and np.array_equal(got, want))
        if group not in ("numpy", "numpy_info"):
            ok = ok and acc == 3 * want[0, 0]
        if not ok:
            raise AssertionError(f"{key}: got shape {got.shape} strides {got.strides}, "
                                 f"want {want.shape} {want.strides}, acc {acc}")


def run_once(fn, a_np, buf, n):
    t0 = time.perf_counter_ns()
    fn(a_np, buf, n)
    return time.perf_counter_ns() - t0


def calibrate(fn, a_np, buf, target_ns):
    """An iteration count for which one run takes about target_ns."""
    run_once(fn, a_np, buf, 1000)  # warm up: first calls fault pages in and fill caches
    n = 1000
    while True:
        t = run_once(fn, a_np, buf, n)
        if t >= target_ns / 10 or n >= 1 << 30:
            return max(1000, int(n * target_ns / max(t, 1)))
        n *= 10


def measure(buf, a_np, reps, target_ms):
    target_ns = target_ms * 1e6
    counts = {key: calibrate(fn, a_np, buf, target_ns) for key, _, _, fn, _ in CASES}
    best = {key: float("inf") for key in counts}
    for _ in range(reps):
        for key, _, _, fn, _ in CASES:
            n = counts[key]
            best[key] = min(best[key], run_once(fn, a_np, buf, n) / n)
    return best, counts


def fmt_ns(x):
    return f"{x:.1f}" if x < 100 else f"{x:.0f}"


def report(best, counts, reps):
    cython = {view: best[f"cython_{view}"] for view in "AB"}
    cython_fn = {view: best[f"cython_fn_{view}"] for view in "AB"}
    numpy_ref = {"A": best["numpy_slice_reshape_A"], "B": best["numpy_slice_B"]}

    try:
        import Cython
        cython_version = Cython.__version__
    except ImportError:
        cython_version = "?"
    print(f"Views of one float64 buffer of {ROWS * COLS} items, a = (64, 64): "
          f"A = a[1:-1] = buf[64:4032].reshape(62, 64), B = a[1:-1, 1:-1]. "
          f"Best of {reps} runs, ns per view.")
    print()
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, Cython {cython_version}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start "
          f"(other work on the machine inflates every figure).")
    print()
    print("| case | view | ns per view | ratio to Cython's slicing | ratio to Cython via function |")
    print("|---|---|---:|---:|---:|")
    for key, view, label, _, group in CASES:
        if group == "breakdown":
            continue
        ns = best[key]
        print(f"| {label} | {view} | {fmt_ns(ns)} | {ns / cython[view]:.2f}x | {ns / cython_fn[view]:.2f}x |")

    print()
    print("Targets (each bridge case against the same view; missed targets are results, not errors):")
    print()
    print(f"| bridge case | view | within {WITHIN_CYTHON}x of Cython's slicing in the loop (no acquisition) | "
          f"within {WITHIN_CYTHON}x of Cython's slicing via function (a fresh result, one acquisition) | "
          f">= {FASTER_THAN_NUMPY:g}x faster than NumPy's Python-level slicing |")
    print("|---|---|---|---|---|")
    for key, view, label, _, group in CASES:
        if group != "bridge":
            continue
        ratio, ratio_fn = best[key] / cython[view], best[key] / cython_fn[view]
        speedup = numpy_ref[view] / best[key]
        print(f"| {label} | {view} | {ratio:.2f}x: {'met' if ratio <= WITHIN_CYTHON else 'missed'} | "
              f"{ratio_fn:.2f}x: {'met' if ratio_fn <= WITHIN_CYTHON else 'missed'} | "
              f"{speedup:.1f}x: {'met' if speedup >= FASTER_THAN_NUMPY else 'missed'} |")
    speedup = best["pointer_cast_A"] / best["from_pointer_A"]
    print(f"| {CASES_BY_KEY['from_pointer_A']} | A | against the GIL cast `<double[:62, :64]> ptr`: {speedup:.1f}x "
          f"faster (target {FASTER_THAN_CAST:g}x): {'met' if speedup >= FASTER_THAN_CAST else 'missed'} | | |")
    # Any typed memoryview assigned in the loop pays one acquisition and one release; `r = a`
    # also copies a's struct through memory (Cython's code), which a view built in registers
    # does not, so it is a reference, not a ceiling.
    ref = best["pointer_cast_A"] / best["acquire_release"]
    print(f"| `r = a` alone (one acquisition + one release, a's struct copied) | A | against the GIL cast: "
          f"{ref:.1f}x | | |")
    print()
    print("NumPy's reference is its slice-and-reshape `buf[64:4032].reshape(62, 64)` for view A and "
          "`a_np[1:-1, 1:-1]` for view B (no reshape gives B).")

    print()
    print("Breakdown (where the bridge's time goes):")
    print()
    print("| measurement | view | ns per iteration | minus loop alone |")
    print("|---|---|---:|---:|")
    floor = best["floor"]
    for key, view, label, _, group in CASES:
        if group != "breakdown":
            continue
        print(f"| {label} | {view} | {fmt_ns(best[key])} | {best[key] - floor:+.1f} |")
    acq = best["acquire_release"] - floor
    print()
    print("Each bridge helper = its library call + one acquisition and release (the result's) + the rest "
          "(copies of the struct), against Cython's own slicing (ns over the loop alone):")
    print()
    print("| bridge case | total | library call | acquisition + release | rest | Cython's own slicing "
          "| Cython via function |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for view, bridge, bare in (("A", "bridge_slice_axis_A", "bare_slice_axis_A"),
                               ("A", "bridge_subview_A", "bare_subview_A"),
                               ("B", "bridge_index_B", "bare_index_B")):
        total = best[bridge] - floor
        call = best[bare] - floor
        print(f"| `{bridge}` | {total:.1f} | {call:.1f} | {acq:.1f} | {total - call - acq:+.1f} "
              f"| {cython[view] - floor:.1f} | {cython_fn[view] - floor:.1f} |")
    print()
    print("Iterations per run: " + ", ".join(f"{k} {counts[k]}" for k, *_ in CASES))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=11)
    p.add_argument("--target-ms", type=float, default=25.0)
    p.add_argument("--quick", action="store_true", help="3 runs of about 5 ms each")
    args = p.parse_args()
    if args.quick:
        args.reps, args.target_ms = 3, 5.0
    buf, a_np = make_data()
    check_views(buf, a_np)
    best, counts = measure(buf, a_np, args.reps, args.target_ms)
    check_views(buf, a_np)
    report(best, counts, args.reps)
    if not args.quick:
        save("cython", "make bench-cython", best)
    return 0


if __name__ == "__main__":
    sys.exit(main())
