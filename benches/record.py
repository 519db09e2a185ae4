#!/usr/bin/env python3
"""The benchmarks' record: benches/results/<name>.json, committed, which the README's figures
are rendered from (tools/readme_figures.py). Each file holds the command that measured it, the
machine (core count, CPU model from /proc/cpuinfo, load average at the end, UTC date) and a
flat map of figures, name to number.

The Python benchmarks call save(). From the command line:

    python3 benches/record.py NAME COMMAND FILE     # a C benchmark's `name value` lines
    python3 benches/record.py criterion GROUP...    # criterion's medians

The first records FILE as benches/results/NAME.json; the second records the median ns of every
benchmark of the criterion GROUPs (target/criterion, or under $CARGO_TARGET_DIR) as
`<group>/<function>` in benches/results/criterion.json, and, for a benchmark with a throughput
in bytes, its GB/s as `<group>/<function> GB/s`.
"""

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benches" / "results"


def machine():
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = " ".join(line.split(":", 1)[1].split())
                break
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "load": round(os.getloadavg()[0], 2),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
    }


def save(name, command, figures):
    """Writes benches/results/<name>.json: `command`, this machine, and `figures` (name to
    number, rounded to 4 significant digits)."""
    RESULTS.mkdir(exist_ok=True)
    record = {
        "command": command,
        "machine": machine(),
        "figures": {k: float(f"{v:.4g}") for k, v in figures.items()},
    }
    (RESULTS / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"(recorded in benches/results/{name}.json)")


def criterion(groups):
    """The figures of criterion's last run of `groups`."""
    root = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "criterion"
    figures = {}
    for group in groups:
        found = sorted((root / group).glob("*/new/estimates.json"))
        if not found:
            sys.exit(f"no criterion results in {root / group}: run `cargo bench` first")
        for est in found:
            meta = json.loads((est.parent / "benchmark.json").read_text())
            key = f"{group}/{meta['function_id']}"
            figures[key] = json.loads(est.read_text())["median"]["point_estimate"]
            nbytes = (meta.get("throughput") or {}).get("Bytes")
            if nbytes:
                figures[f"{key} GB/s"] = nbytes / figures[key]
    return figures


def main(argv):
    if len(argv) >= 3 and argv[1] == "criterion":
        save("criterion", "make bench-criterion", criterion(argv[2:]))
    elif len(argv) == 4:
        figures = {}
        for line in Path(argv[3]).read_text().splitlines():
            key, value = line.rsplit(None, 1)
            figures[key] = float(value)
        save(argv[1], argv[2], figures)
    else:
        sys.exit(f"usage: {argv[0]} NAME COMMAND FILE | {argv[0]} criterion GROUP...")


if __name__ == "__main__":
    main(sys.argv)
