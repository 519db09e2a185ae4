"""Copy bandwidth against array size, float64, one thread, in one process: destinations of 4 KiB
to 256 MiB (a C-contiguous (rows, cols) array, rows = cols or cols / 2), filled from a
contiguous source, a strided one (every other item of each row of a (rows, 2 cols) array) and
a transposed one (a (cols, rows) array's .T) by mvs_copy (through f64.copy_2d, from nogil
Cython: copy_bench.pyx's loop) and by NumPy's np.copyto (from Python), beside memcpy of the
destination's bytes. GB/s of destination bytes, best of ROUNDS rounds of about ROUND_MS each,
every series' rounds interleaved. Prints a table and records the figures in
benches/results/bandwidth.json as `<series>/<bytes>`; benches/plot_bandwidth.py draws them.
Run: `make bench-bandwidth`."""

import numpy as np

import copy_bench_ext as ext
from record import save
from timing import python_loop

ROUNDS, ROUND_MS = 5, 10
SIZES = [1 << k for k in range(12, 29)]  # bytes of the destination: 4 KiB to 256 MiB
SERIES = ["memcpy", "mvs_contiguous", "mvs_strided", "mvs_transposed",
          "numpy_contiguous", "numpy_strided", "numpy_transposed"]


def shape(nbytes):
    items = nbytes // 8
    rows = 1 << ((items.bit_length() - 1) // 2)
    return rows, items // rows


def main():
    top = SIZES[-1] // 8
    pool = np.empty(2 * top)  # the sources' memory, every page touched
    pool[...] = np.arange(2 * top) % 1000
    dst_pool = np.ones(top)
    figures = {"rounds": ROUNDS}
    print(f"copy bandwidth, float64, GB/s of the destination (best of {ROUNDS} rounds of about {ROUND_MS} ms)")
    print(f"{'bytes':>10} {'(rows, cols)':>14} " + " ".join(f"{s:>16}" for s in SERIES))
    for nbytes in SIZES:
        rows, cols = shape(nbytes)
        items = rows * cols
        dst, flat_dst = dst_pool[:items].reshape(rows, cols), dst_pool[:items]
        sources = {
            "contiguous": pool[:items].reshape(rows, cols),
            "strided": pool[:2 * items].reshape(rows, 2 * cols)[:, ::2],
            "transposed": pool[:items].reshape(cols, rows).T,
        }
        loops = {"memcpy": lambda n: ext.c_memcpy(pool[:items], flat_dst, n)}
        for name, src in sources.items():
            loops[f"mvs_{name}"] = lambda n, src=src: ext.helper_copy(src, dst, n)
            loops[f"numpy_{name}"] = python_loop(lambda src=src: np.copyto(dst, src))
        reps, best = {}, {}
        for key in SERIES:
            t = max(loops[key](1), 1)  # also faults in the destination's pages
            reps[key] = max(1, int(ROUND_MS * 1e6 / t))
            if key != "memcpy":
                assert np.array_equal(dst, sources[key.split("_")[1]]), key
        for _ in range(ROUNDS):
            for key in SERIES:
                t = loops[key](reps[key]) / reps[key]
                best[key] = min(best.get(key, t), t)
        for key in SERIES:
            figures[f"{key}/{nbytes}"] = nbytes / best[key]
        print(f"{nbytes:>10} {str((rows, cols)):>14} " + " ".join(f"{nbytes / best[s]:16.1f}" for s in SERIES))
    save("bandwidth", "make bench-bandwidth", figures)


if __name__ == "__main__":
    main()
