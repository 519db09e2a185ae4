#!/usr/bin/env python3
"""Table of the `copy` benchmark: GB/s (destination bytes per second, median) of each data
movement next to its baselines of the same run, and the ratios issue 19 sets targets on.

Usage (from the repository root, after `make bench`, which runs
`cargo bench -p memviewslice-benches --bench copy`):

    python3 benches/copy_report.py

Reads target/criterion/copy*/*/new/estimates.json (or under $CARGO_TARGET_DIR).
"""

import json
import os
from pathlib import Path

NBYTES = 1024 * 1024 * 8
ROOT = Path(os.environ.get("CARGO_TARGET_DIR", "target")) / "criterion"


def ns(group, name):
    path = ROOT / group / name / "new" / "estimates.json"
    return json.loads(path.read_text())["median"]["point_estimate"]


def main():
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
            gbs[case, name] = NBYTES / ns("copy", f"{case}_{name}")
            print(f"| {case}: {name} | {gbs[case, name]:.1f} |")
    memcpy = gbs["contiguous", "memcpy"]
    floor, small = ns("copy_small", "floor"), ns("copy_small", "mvs_copy")
    print()
    print(f"contiguous mvs_copy / memcpy: {gbs['contiguous', 'mvs_copy'] / memcpy:.2f}x (target >= 0.95)")
    print(f"transposed mvs_copy: {gbs['transposed', 'mvs_copy'] / memcpy:.0%} of memcpy, "
          f"{gbs['transposed', 'mvs_copy'] / gbs['transposed', 'loop']:.1f}x the plain loop")
    print(f"zero fill / memset: {gbs['fill', 'mvs_fill_zero'] / gbs['fill', 'memset']:.2f}x (target >= 0.95)")
    print(f"(3, 3) copy: {small:.1f} ns, {small / floor:.1f}x the floor of {floor:.1f} ns (target <= 3)")


if __name__ == "__main__":
    main()
