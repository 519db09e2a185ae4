#!/usr/bin/env python3
"""Compares the instruction counts of `make icount` with the checked-in baseline: prints both
and the change for every operation, and exits 1 when any grew by more than 3%, or when the two
lists name different operations.

    python3 tools/check_icount.py benches/icount.baseline build/icount.txt
"""

import re
import sys

TOLERANCE = 0.03


def counts(path):
    """{operation: instructions per call} from lines 'op: N instructions per call'."""
    out = {}
    for line in open(path):
        if m := re.match(r"^(\w+): (\d+) instructions per call$", line.strip()):
            out[m.group(1)] = int(m.group(2))
    return out


def main(baseline_path, now_path):
    base, now = counts(baseline_path), counts(now_path)
    failed = []
    if set(base) != set(now):
        failed.append(f"the operations differ: baseline {sorted(base)}, now {sorted(now)}")
    for op in sorted(set(base) & set(now), key=list(now).index):
        change = now[op] / base[op] - 1
        grown = change > TOLERANCE
        print(f"{op}: {now[op]} instructions per call (baseline {base[op]}, {change:+.1%}){'  GREW' if grown else ''}")
        if grown:
            failed.append(f"{op} grew from {base[op]} to {now[op]} instructions per call")
    if failed:
        print("\n".join(failed))
        print(f"icount: more than {TOLERANCE:.0%} above {baseline_path}; if accepted, `make icount-baseline` and commit")
        return 1
    print(f"icount: every operation within {TOLERANCE:.0%} of {baseline_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
