#!/usr/bin/env python3
"""DLPack imports from Python: memviewslice.from_dlpack(x) against np.from_dlpack(x) of the same
NumPy array x, the result dropped at once (so each round is an import and its release: the
producer's deleter runs), and x.__dlpack__(max_version=(1, 1)) alone, the producer's share of
both (its capsule, deleted unconsumed).

One process, the cases interleaved in each of --reps rounds (so that drift on a shared machine
reaches all alike), the best (minimum) round in ns per import. Target (issue 35):
memviewslice.from_dlpack no slower than np.from_dlpack, printed as met or missed (a missed
target is a result, not an error).

    .venv/bin/python benches/dlpack_bench.py      # make bench-cython runs it
"""

import argparse
import os

import numpy as np

import memviewslice
from timing import python_loop


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("-n", type=int, default=100_000, help="imports per round")
    args = p.parse_args()
    cases = {}
    for shape in [(3, 3), (1000, 1000)]:
        x = np.ones(shape)
        cases[f"memviewslice.from_dlpack(x), x {shape} float64"] = python_loop(lambda x=x: memviewslice.from_dlpack(x))
        cases[f"np.from_dlpack(x), x {shape} float64"] = python_loop(lambda x=x: np.from_dlpack(x))
    x = np.ones((3, 3))
    cases["x.__dlpack__(max_version=(1, 1)) alone, unconsumed"] = python_loop(lambda: x.__dlpack__(max_version=(1, 1)))
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(args.reps):
        for name, f in cases.items():
            best[name] = min(best[name], f(args.n) / args.n)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; NumPy {np.__version__}; "
          f"best of {args.reps} interleaved rounds of {args.n:,} imports\n")
    print("| case | ns per import + release |")
    print("|---|---:|")
    for name, ns in best.items():
        print(f"| {name} | {ns:.0f} |")
    print()
    for shape in [(3, 3), (1000, 1000)]:
        ours = best[f"memviewslice.from_dlpack(x), x {shape} float64"]
        numpy = best[f"np.from_dlpack(x), x {shape} float64"]
        print(f"target, memviewslice.from_dlpack no slower than np.from_dlpack, x {shape}: {ours / numpy:.2f}x, "
              + ("met" if ours <= numpy else "missed"))


if __name__ == "__main__":
    main()
