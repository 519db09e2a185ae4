#!/usr/bin/env python3
"""DLPack imports from Python: memviewslice.from_dlpack(x) against np.from_dlpack(x) of the same
NumPy array x, the result dropped at once (so each round is an import and its release: the
producer's deleter runs), and x.__dlpack__(max_version=(1, 1)) alone, the producer's share of
both (its capsule, deleted unconsumed).

One process, the cases interleaved in each of --reps rounds (so that drift on a shared machine
reaches all alike), the best (minimum) round in ns per import. Target (issue 35):
memviewslice.from_dlpack no slower than np.from_dlpack, printed as met or missed (a missed
target is a result, not an error). The figures are recorded in benches/results/dlpack.json.

    .venv/bin/python benches/dlpack_bench.py      # make bench-cython runs it
"""

import argparse
import os

import numpy as np

import memviewslice
from record import save
from timing import python_loop


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("-n", type=int, default=100_000, help="imports per round")
    args = p.parse_args()
    cases = {}
    for shape in [(3, 3), (1000, 1000)]:
        x = np.ones(shape)
        size = "x".join(map(str, shape))
        cases[f"ours/{size}"] = (f"memviewslice.from_dlpack(x), x {shape} float64",
                                 python_loop(lambda x=x: memviewslice.from_dlpack(x)))
        cases[f"numpy/{size}"] = (f"np.from_dlpack(x), x {shape} float64", python_loop(lambda x=x: np.from_dlpack(x)))
    x = np.ones((3, 3))
    cases["dlpack_alone"] = ("x.__dlpack__(max_version=(1, 1)) alone, unconsumed",
                             python_loop(lambda: x.__dlpack__(max_version=(1, 1))))
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(args.reps):
        for key, (_, f) in cases.items():
            best[key] = min(best[key], f(args.n) / args.n)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; NumPy {np.__version__}; "
          f"best of {args.reps} interleaved rounds of {args.n:,} imports\n")
    print("| case | ns per import + release |")
    print("|---|---:|")
    for key, (name, _) in cases.items():
        print(f"| {name} | {best[key]:.0f} |")
    print()
    for size in ["3x3", "1000x1000"]:
        ours, numpy = best[f"ours/{size}"], best[f"numpy/{size}"]
        print(f"target, memviewslice.from_dlpack no slower than np.from_dlpack, x {size}: {ours / numpy:.2f}x, "
              + ("met" if ours <= numpy else "missed"))
    save("dlpack", "make bench-cython", {**best, "rounds": args.reps})


if __name__ == "__main__":
    main()
