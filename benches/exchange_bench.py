#!/usr/bin/env python3
"""DLPack's C exchange API against __dlpack__: a tensor object imported and released at once,

- at C level, from Cython (benches/exchange_bench.pyx): mvs_dlpack_import_object through the
  table of the object's type (found once, as a C consumer keeps it per type), against the
  object's __dlpack__(max_version=(1, 1)) capsule imported by mvs_dlpack_import; and
  memviewslice.owners.import_dlpack, which finds the table on each call;
- from Python: memviewslice.from_dlpack(x) (through the table) against np.from_dlpack(x)
  (through __dlpack__: NumPy 2.4 does not use the exchange API);

for a BufferExport (memviewslice's own table) and, where PyTorch is installed (make
bench-exchange runs this in build/venv-torch when it is there), a torch.Tensor (PyTorch's
table), both 3x3 float64. One process, the cases interleaved in each of --reps rounds, the best
round in ns per import. The figures are recorded in benches/results/exchange.json.

    PYTHONPATH=build/benches/exchange python benches/exchange_bench.py
"""

import argparse
import os

import numpy as np

import exchange_bench_ext as ext
import memviewslice
from record import save
from timing import python_loop


def producers():
    yield "export", "BufferExport", memviewslice.from_dlpack(np.ones((3, 3)))
    try:
        import torch
    except ImportError:
        print("PyTorch is not installed: BufferExport only\n")
        return
    yield "torch", f"torch.Tensor (PyTorch {torch.__version__.split('+')[0]})", torch.ones((3, 3), dtype=torch.float64)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=9)
    p.add_argument("-n", type=int, default=100_000, help="imports per round")
    args = p.parse_args()
    cases, names = {}, {}
    for key, name, x in producers():
        names[key] = name
        cases[f"{key}/exchange"] = lambda n, x=x: ext.exchange_loop(x, n)
        cases[f"{key}/import_dlpack"] = lambda n, x=x: ext.import_dlpack_loop(x, n)
        cases[f"{key}/capsule"] = lambda n, x=x: ext.capsule_loop(x, n)
        cases[f"{key}/from_dlpack"] = python_loop(lambda x=x: memviewslice.from_dlpack(x))
        cases[f"{key}/np_from_dlpack"] = python_loop(lambda x=x: np.from_dlpack(x))
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(args.reps):
        for key, f in cases.items():
            best[key] = min(best[key], f(args.n) / args.n)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; NumPy {np.__version__}; "
          f"best of {args.reps} interleaved rounds of {args.n:,} imports (each released)\n")
    print("| producer | C: exchange API | C: `__dlpack__` capsule | C: `import_dlpack` "
          "| `from_dlpack(x)` | `np.from_dlpack(x)` |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, name in names.items():
        row = [best[f"{key}/{c}"] for c in ("exchange", "capsule", "import_dlpack", "from_dlpack", "np_from_dlpack")]
        print(f"| {name} | " + " | ".join(f"{v:.0f} ns" for v in row) + " |")
    print()
    for key, name in names.items():
        print(f"{name}: the exchange API {best[f'{key}/capsule'] / best[f'{key}/exchange']:.1f}x faster than "
              f"__dlpack__ at C level; from_dlpack {best[f'{key}/np_from_dlpack'] / best[f'{key}/from_dlpack']:.1f}x "
              "faster than np.from_dlpack")
    save("exchange", "make bench-exchange", {**best, "rounds": args.reps})


if __name__ == "__main__":
    main()
