"""Elementwise iteration from nogil Cython (mvs_apply with a ufunc-style add loop, mvs_iter_init,
mvs_iter_next; benches/iter_bench.pyx) against a hand-written C loop, the plain Cython nested
loops over typed memoryviews, NumPy's ufuncs (timed from Python) and NumPy's iterator
(NpyIter_MultiNew + NpyIter_Deallocate through its C API), all in one process, on float64.
Each figure is a time per operation: the best (and the median) of ROUNDS rounds of a few
repetitions each, the implementations' rounds interleaved. Prints a table and, for each of issue 34's speed targets, whether it is met
(a missed target is a result, not an error); records each implementation's best time, ns, in
benches/results/iter.json, with the driver's cost per run. Run: `make bench-iter`."""

import os
import statistics

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS threads spinning on a core
import numpy as np  # noqa: E402

import iter_bench_ext as ext  # noqa: E402
from record import save  # noqa: E402
from timing import python_loop  # noqa: E402

ROUNDS = 9



def main():
    rng = np.random.default_rng(34)
    rows, t = [], {}

    def measure(case, impls, reps, unit=1e3):
        """Times each (key, label, f, check) of impls: f(reps) returns ns; the rounds of the
        implementations are interleaved, so that load from elsewhere on the machine falls on
        all of them alike; check() (if any) runs after each implementation's first round."""
        per_op = {key: [] for key, *_ in impls}
        for r in range(ROUNDS):
            for key, _, f, check in impls:
                per_op[key].append(f(reps) / reps)
                if r == 0 and check:
                    check()
        for key, label, *_ in impls:
            t[key] = (min(per_op[key]), statistics.median(per_op[key]))
            rows.append((case, label, t[key][0] / unit, t[key][1] / unit, "us" if unit == 1e3 else "ns"))

    # c = a + b, contiguous, 1000x1000
    a, b = rng.random((1000, 1000)), rng.random((1000, 1000))
    c = np.empty_like(a)
    want = a + b
    fa, fb, fc = a.reshape(-1), b.reshape(-1), c.reshape(-1)

    def check():
        assert np.array_equal(c, want)
        c[...] = 0

    measure("c = a + b, 1000x1000", [
        ("add mvs", "mvs_apply, add loop", lambda n: ext.mvs_add_2d(a, b, c, n), check),
        ("add next", "mvs_iter_next + add loop", lambda n: ext.mvs_next_add(a, b, c, n), check),
        ("add C", "C loop over flat arrays", lambda n: ext.c_add_flat(fa, fb, fc, n), check),
        ("add np", "np.add(a, b, out=c)", python_loop(lambda: np.add(a, b, out=c)), check),
        ("add cy", "Cython c[i,j] = a[i,j] + b[i,j]", lambda n: ext.cython_add(a, b, c, n), check),
    ], 20)

    def transposed(n, key, label, with_next, reps):
        """c = a + b.T, n x n: the number of runs of mvs_apply's iteration and the first's count."""
        a2, b2 = rng.random((n, n)), rng.random((n, n))
        c2 = np.empty_like(a2)
        want2 = a2 + b2.T

        def check2():
            assert np.array_equal(c2, want2)
            c2[...] = 0

        impls = [
            (f"{key} mvs", "mvs_apply, add loop", lambda n: ext.mvs_add_2d(a2, b2.T, c2, n), check2),
            (f"{key} next", "mvs_iter_next + add loop", lambda n: ext.mvs_next_add(a2, b2.T, c2, n), check2),
            (f"{key} np", "np.add(a, b.T, out=c)", python_loop(lambda: np.add(a2, b2.T, out=c2)), check2),
            (f"{key} cy", "Cython c[i,j] = a[i,j] + b[j,i]", lambda n: ext.cython_add_t(a2, b2, c2, n), check2),
        ]
        measure(label, [i for i in impls if with_next or not i[0].endswith("next")], reps)
        return ext.mvs_runs(a2, b2.T, c2)

    t_runs = transposed(2000, "T", "c = a + b.T, 2000x2000", True, 3)
    # rows long enough for K order's tiles (no target: how they pay)
    t4_runs = transposed(4000, "T4", "c = a + b.T, 4000x4000 (tiled)", False, 1)

    # s[i] += x[i, j], 1000x1000
    x = rng.random((1000, 1000))
    s = np.empty(1000)
    want_s = x.sum(axis=1)

    def check_s():
        assert np.allclose(s, want_s, rtol=1e-12)
        s[...] = -1

    measure("s[i] += x[i, j], 1000x1000", [
        ("sum mvs", "mvs_apply, add loop (reduce)", lambda n: ext.mvs_sum_rows(x, s, n), check_s),
        ("sum np", "np.sum(x, axis=1, out=s)", python_loop(lambda: np.sum(x, axis=1, out=s)), check_s),
        ("sum cy", "Cython s[i] += x[i, j]", lambda n: ext.cython_sum_rows(x, s, n), check_s),
    ], 20)

    # Setting up c = a + b over (8, 8, 8, 8): b contiguous, transposed, broadcast.
    a4 = rng.random((8, 8, 8, 8))
    c4 = np.empty_like(a4)
    bs = {
        "contiguous": rng.random((8, 8, 8, 8)),
        "b transposed": rng.random((8, 8, 8, 8)).transpose(3, 1, 2, 0),
        "b broadcast": np.broadcast_to(rng.random((8, 1, 8, 1)), (8, 8, 8, 8)),
    }
    for name, b4 in bs.items():
        measure(f"init 3 ops (8,8,8,8), {name}", [
            (f"init mvs {name}", "mvs_iter_init", lambda n: ext.mvs_init_4d(a4, b4, c4, n), None),
            (f"init np {name}", "NpyIter_MultiNew + Deallocate", lambda n: ext.npyiter_init(a4, b4, c4, n), None),
        ], 20000, 1)

    # The driver's own cost per run: 100,000 runs of 2 elements (x[:, :2], x (100000, 3)).
    ar, br, cr = (rng.random((100_000, 3))[:, :2] for _ in range(3))
    assert ext.mvs_next_nop(ar, br, cr, 1)[1] == 200_000

    def check_r():
        assert np.array_equal(cr, ar + br)
        cr[...] = 0

    measure("100,000 runs of 2, 3 ops", [
        ("runs apply nop", "mvs_apply, empty loop", lambda n: ext.mvs_apply_nop(ar, br, cr, n), None),
        ("runs next nop", "mvs_iter_next, nothing done", lambda n: ext.mvs_next_nop(ar, br, cr, n)[0], None),
        ("runs apply add", "mvs_apply, add loop", lambda n: ext.mvs_add_2d(ar, br, cr, n), check_r),
        ("runs np", "np.add(a, b, out=c)", python_loop(lambda: np.add(ar, br, out=cr)), check_r),
    ], 20)

    print(f"elementwise iteration, float64: time per operation, best and median of {ROUNDS} rounds")
    print(f"{'case':36} {'implementation':34} {'best':>10} {'median':>10}")
    last = None
    for case, what, best, med, unit in rows:
        print(f"{case if case != last else '':36} {what:34} {best:7.1f} {unit} {med:7.1f} {unit}")
        last = case
    print(f"(a + b.T: {t_runs[0]} runs of {t_runs[1]} at 2000x2000, {t4_runs[0]} runs of {t4_runs[1]} at 4000x4000; per run over 100,000 runs of 2: mvs_apply "
          f"{t['runs apply nop'][0] / 1e5:.1f} ns, mvs_iter_next {t['runs next nop'][0] / 1e5:.1f} ns)")

    # speedup = baseline time / memviewslice time, from the best times and from the medians
    targets = [
        ("a + b: mvs_apply >= 0.9x the C loop", "add C", "add mvs", 0.9),
        ("a + b: mvs_apply >= 1x np.add", "add np", "add mvs", 1.0),
        ("a + b.T: mvs_apply >= 3x np.add", "T np", "T mvs", 3.0),
        ("a + b.T: mvs_apply >= 2x Cython's loop", "T cy", "T mvs", 2.0),
        ("sum rows: mvs_apply >= 1x np.sum", "sum np", "sum mvs", 1.0),
        ("init, b transposed: <= 1/5 NpyIter's", "init np b transposed", "init mvs b transposed", 5.0),
        ("init, b broadcast: <= 1/5 NpyIter's", "init np b broadcast", "init mvs b broadcast", 5.0),
    ]
    print(f"{'target':42} {'best':>6} {'median':>7}")
    for what, base, mine, want in targets:
        r_best, r_med = t[base][0] / t[mine][0], t[base][1] / t[mine][1]
        print(f"{what:42} {r_best:5.2f}x {r_med:6.2f}x  {'met' if r_best >= want else 'MISSED'}"
              f"{'' if (r_best >= want) == (r_med >= want) else ' (median: the other way)'}")
    figures = {key: best for key, (best, _) in t.items()}
    figures["rounds"] = ROUNDS
    figures["per run apply"], figures["per run next"] = t["runs apply nop"][0] / 1e5, t["runs next nop"][0] / 1e5
    save("iter", "make bench-iter", figures)


if __name__ == "__main__":
    main()
