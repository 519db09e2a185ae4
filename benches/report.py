#!/usr/bin/env python3
"""Table of the `views` benchmark: median ns per call, ratio to the floor, target, pass/fail;
then the operations measured against what a Rust user would write instead (ndarray), in the
same run.

Usage (from the repository root, after `make bench-criterion`, which runs it):

    python3 benches/report.py            # Markdown table on stdout
    python3 benches/report.py --check    # same, and exit 1 if a target is missed

Reads the record of criterion's last run, benches/results/criterion.json (benches/record.py).
The floor is the `floor` benchmark of the same run: a 208-byte mvs_slice copy plus two
dimensions written.
"""

import json
import sys
from pathlib import Path

GROUP = "views"
FLOOR = "floor"
# Most allowed ratio to the floor; operations not listed have no target.
TARGETS = {
    "slice_axis": 2,
    "index_axis": 2,
    "subview": 2,
    "subview_flat": 2,
    "transpose": 2,
    "reshape": 5,
    "reshape_noncontig": 5,
    "index": 5,
    "permute": 2,
    "swap_axes": 2,
    "move_axes": 2,
}
# Operations that must be no slower than what a user would write instead, in the same run:
# ndarray's permuted_axes on a static 4-D view (its fastest form). ndarray's swap_axes, which
# exchanges two entries of a view in place, is reported in the first table.
RIVALS = {
    "permute": "ndarray_permuted_axes",
    "swap_axes": "ndarray_permuted_axes",
    "move_axes": "ndarray_permuted_axes",
}


def main() -> int:
    record = Path(__file__).resolve().parent / "results" / "criterion.json"
    figures = json.loads(record.read_text())["figures"]
    medians = {k.split("/", 1)[1]: ns for k, ns in figures.items() if k.startswith(f"{GROUP}/")}
    if FLOOR not in medians:
        print(f"no {GROUP}/{FLOOR} in {record}: run `make bench-criterion` first", file=sys.stderr)
        return 2

    floor = medians[FLOOR]
    # Targeted operations first, in TARGETS order, then the rest alphabetically.
    names = [FLOOR] + [n for n in TARGETS if n in medians]
    names += sorted(n for n in medians if n not in names)
    failed = []
    print("| op | median ns | ratio to floor | target | result |")
    print("|---|---:|---:|---:|---|")
    for name in names:
        ratio = medians[name] / floor
        limit = TARGETS.get(name)
        if limit is None:
            target_s, result = "-", "-"
        else:
            target_s, result = f"<= {limit}x", "pass" if ratio <= limit else "FAIL"
            if result == "FAIL":
                failed.append(name)
        print(f"| {name} | {medians[name]:.1f} | {ratio:.2f}x | {target_s} | {result} |")
    print("\n| op | median ns | rival | rival ns | ratio | result |")
    print("|---|---:|---|---:|---:|---|")
    for name, rival in RIVALS.items():
        if name in medians and rival in medians:
            ratio = medians[name] / medians[rival]
            result = "pass" if ratio <= 1 else "FAIL"
            if result == "FAIL":
                failed.append(f"{name} (against {rival})")
            print(f"| {name} | {medians[name]:.1f} | {rival} | {medians[rival]:.1f} | {ratio:.2f}x | {result} |")
    if failed:
        print(f"\n{len(failed)} of {len(TARGETS) + len(RIVALS)} targets missed: {', '.join(failed)}")
    return 1 if failed and "--check" in sys.argv[1:] else 0


if __name__ == "__main__":
    sys.exit(main())
