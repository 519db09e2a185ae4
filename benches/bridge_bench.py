#!/usr/bin/env python3
"""The typed helpers against Cython's own operation, written the way users write them, in one
process: issue 21's honest benchmark.

Views of `a`, a (64, 64) C-contiguous float64 memoryview, and of `buf`, the same 4096 items
flat:

    kind       Cython's own           the helper
    rows_cols  a[:-1, :-1]            f64.index_2d_2d(a, [:-1, :-1], 2)
    rows       a[:-1]                 f64.slice_axis_2d(a, 0, MVS_NONE, -1, MVS_NONE)
    row        a[3]                   f64.index_axis_2d(a, 0, 3)
    T          a.T                    f64.transpose_2d(a)
    subview    buf[64:] (1-D)         f64.subview_1d_2d(buf, 64, (63, 64), 'C')

(Cython cannot make a 2-D view of a flat buffer in nogil code; its nearest operation, a 1-D
slice of the same buffer, is the baseline of `subview`.) Each is timed in three forms
(benches/bridge_bench.pyx.in): `fresh`, a `cdef inline noexcept nogil` function per iteration
whose fresh local takes the view; `loop`, the view reassigned to one local in the loop;
`return`, a `noexcept nogil` function returning the view. The source is made opaque every
iteration (an empty asm statement on its address), so nothing is hoisted.

The module is built once per C compiler (gcc, and clang when installed) at -O2, as
bridge_bench_gcc and bridge_bench_clang; every figure is the best of --reps runs of a loop of
about --target-ms, in ns per view, the cases taken in turn so that drift reaches all alike.
Targets (issue 21): the helper's fresh form at most 2x Cython's fresh form, the loop form at
most 3x Cython's loop form, with gcc; clang and the return form are reported. A missed target
is a result: the script exits nonzero only when a build is missing or the two loops disagree.
Every figure is recorded in benches/results/bridge.json as `<compiler>/<view>/<form>/<cy or mvs>`
(not in a --quick run).

    make bench-bridge        # builds both modules and runs this script
"""

import argparse
import importlib
import sys
import time

import numpy as np

from record import save

KINDS = ["rows_cols", "rows", "row", "T", "subview"]
FORMS = ["fresh", "loop", "return"]
TARGETS = {"fresh": 2.0, "loop": 3.0}


def best_ns(fn, a, buf, form, n, reps):
    best = None
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn(a, buf, form, n)
        dt = (time.perf_counter_ns() - t0) / n
        best = dt if best is None else min(best, dt)
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=11)
    p.add_argument("--target-ms", type=float, default=25)
    p.add_argument("--quick", action="store_true", help="3 reps of about 5 ms")
    args = p.parse_args()
    if args.quick:
        args.reps, args.target_ms = 3, 5

    buf = np.arange(4096, dtype=np.float64)
    a = buf.reshape(64, 64)
    modules = {}
    for cc in ("gcc", "clang"):
        try:
            modules[cc] = importlib.import_module(f"bridge_bench_{cc}")
        except ImportError:
            print(f"(bridge_bench_{cc} is not built: {cc} is not installed, or `make bench-bridge` was not run)")
    if "gcc" not in modules:
        sys.exit("bridge_bench_gcc is not built")

    failed = False
    figures = {}
    for cc, m in modules.items():
        forms = m.FORMS
        # Both loops add the same items: their sums agree, or one of them is not the view.
        for kind in KINDS:
            for form in FORMS:
                cy = getattr(m, f"run_cy_{kind}")(a, buf, forms[form], 10)
                mvs = getattr(m, f"run_mvs_{kind}")(a, buf, forms[form], 10)
                if cy != mvs:
                    print(f"{cc} {kind} {form}: Cython's loop sums {cy}, the helper's {mvs}")
                    failed = True
        # Iterations per run: about target-ms for the slowest case.
        probe = 200000
        t0 = time.perf_counter_ns()
        m.run_mvs_rows_cols(a, buf, forms["return"], probe)
        n = max(1000, int(probe * args.target_ms * 1e6 / max(1, time.perf_counter_ns() - t0)))
        results = {}
        for _ in range(args.reps):
            for kind in KINDS:
                for form in FORMS:
                    for who in ("cy", "mvs"):
                        fn = getattr(m, f"run_{who}_{kind}")
                        t = best_ns(fn, a, buf, forms[form], n, 1)
                        key = (kind, form, who)
                        results[key] = min(results.get(key, t), t)
        print(f"\n{cc} -O2, best of {args.reps} runs of {n} views, ns per view:\n")
        print("| view | form | Cython | helper | ratio | target |")
        print("|---|---|---:|---:|---:|---|")
        for kind in KINDS:
            for form in FORMS:
                cy, mvs = results[(kind, form, "cy")], results[(kind, form, "mvs")]
                ratio = mvs / cy
                limit = TARGETS.get(form)
                verdict = "-" if limit is None else f"<= {limit:g}x: {'met' if ratio <= limit else 'missed'}"
                print(f"| {kind} | {form} | {cy:.1f} | {mvs:.1f} | {ratio:.1f}x | {verdict} |")
        figures.update({f"{cc}/{kind}/{form}/{who}": ns for (kind, form, who), ns in results.items()})
    if not args.quick:
        save("bridge", "make bench-bridge", figures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
