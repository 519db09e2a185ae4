"""Data movement from nogil Cython (memviewslice's typed helpers) against NumPy, Cython's own
copies and memcpy/memset, in one process, on the same 8 MiB of float64: GB/s of destination
bytes, best of ROUNDS rounds. Prints a table and, for each of issue 19's targets, whether it is
met, and records the figures in benches/results/cython_copy.json. Run: `make bench-cython`."""

import numpy as np

import copy_bench_ext as ext
from record import save
from timing import python_loop

ROUNDS, REPS = 7, 10
N = 1024
NBYTES = N * N * 8
# The rows' keys in the record, and their labels in the table.
LABELS = {"contiguous": "copy contiguous", "strided": "copy strided src[:, ::2]", "transposed": "copy transposed src.T",
          "copy_c": "new C copy of src.T", "fill": "fill 1.5", "fill0": "fill 0.0"}


def best(f):
    """GB/s of the best round of f(REPS) (which returns ns)."""
    return max(NBYTES * REPS / f(REPS) for _ in range(ROUNDS))



def main():
    big = np.arange(2 * N * N, dtype=np.float64).reshape(N, 2 * N)
    a = big[:, :N].copy()
    dst = np.zeros((N, N))
    flat_src, flat_dst = a.reshape(-1), dst.reshape(-1)
    cases = {
        "contiguous": a,
        "strided": big[:, ::2],
        "transposed": a.T,
    }
    rows = []
    results = {}
    for name, src in cases.items():
        mvs = best(lambda n: ext.helper_copy(src, dst, n))
        np_ = best(python_loop(lambda: dst.__setitem__(Ellipsis, src)))
        cy = best(lambda n: ext.cython_copy(src, dst, n))
        assert np.array_equal(dst, src)
        results[name] = (mvs, np_, cy)
        rows.append((name, mvs, np_, cy))
    memcpy = best(lambda n: ext.c_memcpy(flat_src, flat_dst, n))
    mvs_c = best(lambda n: ext.helper_copy_c(a.T, n))
    np_c = best(python_loop(lambda: np.ascontiguousarray(a.T)))
    cy_c = best(lambda n: ext.cython_copy_c(a.T, n))
    rows.append(("copy_c", mvs_c, np_c, cy_c))
    fill = best(lambda n: ext.helper_fill(flat_dst, 1.5, n))
    np_fill = best(python_loop(lambda: flat_dst.fill(1.5)))
    fill0 = best(lambda n: ext.helper_fill(flat_dst, 0.0, n))
    memset = best(lambda n: ext.c_memset(flat_dst, n))
    rows.append(("fill", fill, np_fill, float("nan")))
    rows.append(("fill0", fill0, float("nan"), float("nan")))

    print(f"data movement, 8 MiB of float64, GB/s (best of {ROUNDS} rounds of {REPS})")
    print(f"{'operation':28} {'memviewslice':>12} {'NumPy':>8} {'Cython':>8}")
    for name, m, n, c in rows:
        print(f"{LABELS[name]:28} {m:12.1f} {n:8.1f} {c:8.1f}")
    print(f"{'memcpy':28} {memcpy:12.1f}")
    print(f"{'memset 0':28} {memset:12.1f}")

    contiguous, strided, transposed = (results[k] for k in cases)
    targets = [
        ("contiguous copy >= 0.95x memcpy", contiguous[0] / memcpy, 0.95),
        ("strided copy >= 1.0x NumPy", strided[0] / strided[1], 1.0),
        ("strided copy >= 2x Cython", strided[0] / strided[2], 2.0),
        ("transposed copy >= 3x NumPy", transposed[0] / transposed[1], 3.0),
        ("fill >= 1.0x NumPy's fill", fill / np_fill, 1.0),
        ("zero fill >= 0.95x memset", fill0 / memset, 0.95),
    ]
    for what, ratio, want in targets:
        print(f"{what:34} {ratio:5.2f}x  {'met' if ratio >= want else 'MISSED'}")
    print(f"transposed copy: {transposed[0] / memcpy:.0%} of memcpy")
    figures = {"memcpy": memcpy, "memset": memset, "rounds": ROUNDS}
    for name, *gbs in rows:
        figures.update({f"{name}/{who}": x for who, x in zip(("helper", "numpy", "cython"), gbs) if x == x})
    save("cython_copy", "make bench-cython", figures)


if __name__ == "__main__":
    main()
