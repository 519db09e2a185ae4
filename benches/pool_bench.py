#!/usr/bin/env python3
"""Small scratch arrays from Python's side: a (3, 3) float64 array obtained, its 9 items
written, and given up, n times, by

- mvs_pool acquire + release from nogil Cython (benches/pool_bench.pyx);
- mvs_buffer_alloc + release from nogil Cython, for comparison;
- np.empty((3, 3)) in a Python loop (the array dropped at the next iteration);
- a Python list of preallocated arrays used as a pool (pop, write, append).

The figure is the best (minimum) of --reps runs, in ns per round. The target (issue 4): the
pool from nogil Cython at least 5x faster than np.empty, taken conservatively against
np.empty alone (no writes); printed as met or missed (a missed target is a result, not an
error).

    PYTHONPATH=build/benches/pool python benches/pool_bench.py
"""

import argparse
import os
import time

import numpy as np

import pool_bench_ext as ext


def numpy_empty(n):
    t = time.perf_counter_ns()
    for _ in range(n):
        a = np.empty((3, 3))
        a[...] = 1.0
    return time.perf_counter_ns() - t


def numpy_empty_only(n):
    t = time.perf_counter_ns()
    for _ in range(n):
        a = np.empty((3, 3))
    return time.perf_counter_ns() - t


def list_pool(n):
    pool = [np.empty((3, 3)) for _ in range(4)]
    t = time.perf_counter_ns()
    for _ in range(n):
        a = pool.pop()
        a[...] = 1.0
        pool.append(a)
    return time.perf_counter_ns() - t


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=7)
    args = p.parse_args()
    cases = [
        ("mvs_pool acquire + release (nogil Cython)", ext.pool_loop, 2_000_000),
        ("mvs_buffer_alloc + release (nogil Cython)", ext.buffer_loop, 2_000_000),
        ("np.empty((3, 3)) (Python)", numpy_empty, 200_000),
        ("np.empty((3, 3)) without the writes (Python)", numpy_empty_only, 200_000),
        ("list pool pop + append (Python)", list_pool, 200_000),
    ]
    print(f"load average {os.getloadavg()[0]:.2f}; each round also writes the 9 items\n")
    best = {}
    for name, fn, n in cases:
        best[name] = min(fn(n) for _ in range(args.reps)) / n
    empty = best["np.empty((3, 3)) without the writes (Python)"]
    print("| case | ns per round | speed-up over np.empty alone |")
    print("|---|---:|---:|")
    for name, ns in best.items():
        print(f"| {name} | {ns:.1f} | {empty / ns:.1f}x |")
    pool = best["mvs_pool acquire + release (nogil Cython)"]
    print(f"\ntarget, pool >= 5x faster than np.empty: {empty / pool:.1f}x, "
          + ("met" if empty / pool >= 5 else "missed"))


if __name__ == "__main__":
    main()
