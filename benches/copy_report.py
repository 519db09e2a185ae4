#!/usr/bin/env python3
"""Table of the `copy` benchmark: GB/s (destination bytes per second, median) of each data
movement next to its baselines of the same run, and the ratios issue 19 sets targets on.

Usage (from the repository root, after `make bench-criterion`, which runs it):

    python3 benches/copy_report.py

Reads the record of criterion's last run, benches/results/criterion.json (benches/record.py).
"""

import json
from pathlib import Path


def main():
    figures = json.loads((Path(__file__).resolve().parent / "results" / "criterion.json").read_text())["figures"]
    rows = [
        ("contiguous", ["mvs_copy", "memcpy"]),
        ("strided", ["mvs_copy", "loop"]),
        ("transposed", ["mvs_copy", "tiled32", "loop"]),
        ("fill", ["mvs_fill", "loop", "mvs_fill_zero", "memset"]),
    ]
    gbs = {}
    print("| 8 MiB of float64 | GB/s |\n|---|---:|")
    for case, names in rows:
        for name in names:
            gbs[case, name] = figures[f"copy/{case}/{name} GB/s"]
            print(f"| {case}: {name} | {gbs[case, name]:.1f} |")
    memcpy = gbs["contiguous", "memcpy"]
    floor, small = figures["copy_small/floor"], figures["copy_small/mvs_copy"]
    print()
    print(f"contiguous mvs_copy / memcpy: {gbs['contiguous', 'mvs_copy'] / memcpy:.2f}x (target >= 0.95)")
    print(f"transposed mvs_copy: {gbs['transposed', 'mvs_copy'] / memcpy:.0%} of memcpy, "
          f"{gbs['transposed', 'mvs_copy'] / gbs['transposed', 'loop']:.1f}x the plain loop")
    print(f"zero fill / memset: {gbs['fill', 'mvs_fill_zero'] / gbs['fill', 'memset']:.2f}x (target >= 0.95)")
    print(f"(3, 3) copy: {small:.1f} ns, {small / floor:.1f}x the floor of {floor:.1f} ns (target <= 3)")


if __name__ == "__main__":
    main()
