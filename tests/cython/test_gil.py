#!/usr/bin/env python3
"""The GIL and reference-count test of the Cython bridge, on a built variant of
tests/cython/gil_test.pyx:

    .venv/bin/python -m pytest tests/cython/test_gil.py -q -n 2 --dist loadscope \
        --cy-build build/cython_gil [--gil-modules gil_test_c_on,...] [-k "c_on and mix"]

Each MODULE is gil_test.pyx built with `tools/build_ext.py --wrap-gil --openmp` (C or C++,
any directives): its PyGILState_Ensure calls are counted. Checks, on float64 views:
1. every helper kind, 1,000,000 calls each in `with nogil:`: no PyGILState_Ensure, the
   sources' acquisition counts unchanged, the last result equal to NumPy's view (values,
   shape, strides, address); the counter itself counts `with gil:` blocks (positive control);
2. 1,000,000 views of mixed kinds made and dropped: acquisition counts, the memoryview
   objects' and the NumPy arrays' refcounts back where they started; 1,000,000 rounds of views
   of raw memory (from_pointer), of an mvs_buffer (from_buffer, malloc'd memory with a
   counting deallocator) and of a pool's arrays (pool_acquire, pool_release) with derivations:
   one PyGILState_Ensure for the first view (making the owner), none after, the owner's
   acquisition count and refcount balanced, the buffer's memory freed once, after its last
   holder (its reference or its views, in either order); 100,000 rounds of 4 copies and fills
   in place (fill_2d, copy_2d of a transpose and in place, copy_1d_2d): no PyGILState_Ensure,
   counts balanced; contiguous copies (copy_c_2d, copy_f_2d): one PyGILState_Ensure per call
   (making the new buffer's owner), none for views derived from a copy, one more when a copy's
   last view is dropped in nogil code (100,000 calls each way), the copy alone holding its
   owner, the source's counts balanced;
3. prange with 2 and 4 threads deriving views of one shared array: the sum equals NumPy's,
   counts balanced; with 4 threads, views of raw memory, of a buffer and of a pool's arrays,
   whose owners the threads make concurrently (at most one Ensure per thread), then none;
3a. elementwise iteration: 1,000,000 rounds of 3 operands stored by the typed helpers (one
   transposed, one broadcast, one converted to the helper's type) and mvs_pyx_iter_init in
   `with nogil:`: no PyGILState_Ensure (a failing init, the control, raises and takes it),
   acquisition counts unchanged; c += a + b split into uneven ranges run by a prange of 2 and 4
   threads, each on its own copy of one iterator: every element visited once, no
   PyGILState_Ensure;
4. 100,000 calls of each failing kind (also copies whose shapes do not broadcast, into a
   repeated item, and a contiguous copy too big): the right exception and library message,
   counts and refcounts unchanged.
One pytest test per module and section (TestGil_gil_test_c_on::test_section[success], [mix],
[const], [raw_memory], [buffer], [pool], [movement], [copies], [prange], [iteration],
[errors]); see the end of this file.
"""

import importlib
import os
import sys
import time

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

CALLS = 1_000_000        # per helper kind, and for the mix
FAILING_CALLS = 100_000  # per failure kind
PRANGE_ITERATIONS = 1_000_000
MOVEMENT_ROUNDS = 100_000  # of 4 copies and fills
COPIES = 100_000         # per kind of copy_c_2d use

# The view each kind of gil_test.pyx derives (see run_kind there); `last` is the index of the
# last call, for from_slice (which takes piece last % 3).
EXPECTED = {
    "slice_axis": lambda s, last: s["a2"][:, 1:5:2],
    "index_axis": lambda s, last: s["a3"][:, 2, :],
    "index": lambda s, last: s["a3"][-1, ::2, 1:4],
    "reshape": lambda s, last: s["a2"].reshape(3, -1, 2),
    "subview": lambda s, last: s["a1"][4:24].reshape(4, 5),
    "transpose": lambda s, last: s["a2"].T,
    "permute": lambda s, last: s["a3"].transpose(2, 0, 1),
    "swap_axes": lambda s, last: np.swapaxes(s["a3"], 0, 2),
    "move_axes": lambda s, last: np.moveaxis(s["a3"], 0, -1),
    "broadcast_to": lambda s, last: np.broadcast_to(s["a2"], (4, 5, 6)),
    "expand_dims": lambda s, last: np.expand_dims(s["a2"], 1),
    "squeeze_axis": lambda s, last: np.squeeze(s["s3"], 1),
    "squeeze": lambda s, last: np.squeeze(s["s3"]),
    "diagonal": lambda s, last: np.diagonal(s["a2"], 1),
    "flip_axis": lambda s, last: s["a2"][::-1],
    "flip": lambda s, last: s["a2"][::-1, ::-1],
    "sliding_window": lambda s, last: sliding_window_view(s["a2"], 3, axis=1)[:, ::2],
    "from_slice": lambda s, last: np.split(s["a2"], 3, axis=1)[last % 3],
}

# Per failure kind of gil_test.pyx (FAILURES there): the exception and a part of its message.
FAILURE_EXPECTED = {
    "index_out_of_range": (IndexError, "out of range"),
    "reshape_needs_copy": (ValueError, "without a copy"),
    "bad_axis": (ValueError, "out of bounds"),
    "squeeze_ndim": (ValueError, "the result has 3 dimensions"),
    "from_raw_view": (ValueError, "no memoryview object"),
    "copy_shape_mismatch": (ValueError, "cannot be broadcast to extent 6"),
    "copy_repeated_item": (ValueError, "stride 0 and extent 4"),
    "copy_c_too_big": (ValueError, "overflows"),
}


class Checker:
    def __init__(self, name):
        self.name = name
        self.failures = []
        self.reported = 0
        self.lines = []

    def section(self):
        """'ok', or how many checks failed since the last call."""
        new, self.reported = len(self.failures) - self.reported, len(self.failures)
        return "ok" if not new else f"{new} checks FAILED"

    def check(self, ok, what):
        if not ok:
            self.failures.append(what)
            print(f"  FAIL {self.name}: {what}")
        return ok

    def say(self, line):
        """A section's summary line: printed, and kept for the test's summary."""
        self.lines.append(line)
        print(line)


def same_view(got, want):
    """got (a Cython memoryview) is exactly the NumPy view want: shape, values, address, and
    the strides of every axis longer than 1 (the library's stride for extent 0/1 is free)."""
    g = np.asarray(got)
    if g.shape != want.shape or g.dtype != want.dtype or not np.array_equal(g, want):
        return False
    if g.__array_interface__["data"][0] != want.__array_interface__["data"][0]:
        return False
    return all(gs == ws for gs, ws, n in zip(g.strides, want.strides, want.shape) if n > 1)


def refcounts(sources):
    return {k: sys.getrefcount(v) for k, v in sources.items()}


SOURCES = {
    "a1": lambda: np.arange(24.0),
    "a2": lambda: np.arange(30.0).reshape(5, 6),
    "a3": lambda: np.arange(60.0).reshape(3, 4, 5),
    "s3": lambda: np.arange(12.0).reshape(3, 1, 4),
}


def section_success(m, c, sources, args, module_name):
    # Positive control: the counter counts this module's PyGILState_Ensure calls.
    control = m.with_gil_control(1000)
    c.check(control == 1000, f"`with gil:` x1000 in nogil code counted {control} PyGILState_Ensure calls")

    # 1. Every helper kind on success.
    c.check(tuple(EXPECTED) == tuple(m.KINDS), f"kinds differ: {m.KINDS}")
    gil_by_kind = {}
    for kind, name in enumerate(m.KINDS):
        gil, acq_deltas, last, first = m.success(kind, CALLS, *args)
        gil_by_kind[name] = gil
        c.check(gil == 0, f"{name}: {gil} PyGILState_Ensure calls over {CALLS} successful calls")
        c.check(acq_deltas == (0, 0, 0, 0), f"{name}: acquisition counts changed by {acq_deltas}")
        want = EXPECTED[name](sources, CALLS - 1)
        c.check(same_view(last, want), f"{name}: result {np.asarray(last)!r} is not NumPy's {want!r}")
        c.check(first == want[(0,) * want.ndim], f"{name}: first element read in nogil code {first} != {want[(0,) * want.ndim]}")
        del last
    nonzero = ", ".join(f"{k} {v}" for k, v in gil_by_kind.items() if v) or "0 for every kind"
    c.say(f"{module_name}: success: {len(m.KINDS)} kinds x {CALLS:,} calls in nogil: "
          f"PyGILState_Ensure {nonzero}; control: `with gil:` x1000 counted {control} "
          f"[{c.section()}]")


def section_mix(m, c, sources, args, module_name):
    # 2. A mix of kinds, each view made in a fresh call and dropped at its return.
    refs0 = refcounts(sources)
    gil, acq0, acq1, mref0, mref1 = m.mix(CALLS, *args)
    refs1 = refcounts(sources)
    c.check(gil == 0, f"mix: {gil} PyGILState_Ensure calls")
    # Each source is held by its one typed memoryview: a count read from the wrong place (the
    # field moved between Cython versions) would not read 1.
    c.check(acq0 == (1, 1, 1, 1), f"mix: acquisition counts before {acq0}, not one per source")
    c.check(acq0 == acq1, f"mix: acquisition counts {acq0} -> {acq1}")
    c.check(mref0 == mref1, f"mix: memoryview refcounts {mref0} -> {mref1}")
    c.check(refs0 == refs1, f"mix: array refcounts {refs0} -> {refs1}")
    c.say(f"{module_name}: mix: {CALLS:,} views made and dropped, PyGILState_Ensure {gil}, "
          f"acquisition counts {acq0} -> {acq1}, memoryview refcounts {mref0} -> {mref1}, "
          f"array refcounts {tuple(refs0.values())} -> {tuple(refs1.values())} [{c.section()}]")


def section_const(m, c, sources, args, module_name):
    # 2a. Const derivations of read-only arrays: six per round, with no GIL.
    ro2, ro3 = sources["a2"].copy(), sources["a3"].copy()
    ro2.flags.writeable = ro3.flags.writeable = False
    gil, acq0, acq1, total = m.const_derivations(CALLS // 6 + 1, ro2, ro3)
    rounds = CALLS // 6 + 1
    want = rounds * (ro2[1:4:2][1, 2] + ro3[:, 2][1, 3] + ro2.T[4, 1] + ro3[-1, ::2, 1:4][1, 2]
                     + ro2.reshape(3, -1, 2)[2, 4, 1] + np.flip(ro2)[0, 0])
    c.check(gil == 0, f"const: {gil} PyGILState_Ensure calls over {6 * rounds} const derivations")
    c.check(acq0 == (1, 1) and acq1 == acq0, f"const: acquisition counts {acq0} -> {acq1}")
    c.check(total == want, f"const: the views read {total}, NumPy's {want}")
    del ro2, ro3
    c.say(f"{module_name}: const: {6 * rounds:,} derivations of read-only arrays (slice_axis, index_axis, "
          f"transpose, index, reshape, flip; _const forms): PyGILState_Ensure {gil}, acquisition counts "
          f"{acq0} -> {acq1} [{c.section()}]")


def section_raw_memory(m, c, sources, args, module_name):
    # 2b. Views of raw memory: the first makes the module's owner (one GIL acquisition), then
    # none; the owner keeps its pinned acquisition and the first view's.
    first_gil, gil, acq0, acq1, total = m.raw_memory(CALLS, sources["a2"])
    six = sources["a2"].reshape(-1)[:6]
    want = CALLS * (six.reshape(2, 3).T[1, 0] + six.reshape(2, 3, order="F")[1, 0])
    del six  # (the run's refcount check counts references to the sources)
    c.check(first_gil == 1, f"raw memory: the first view made {first_gil} PyGILState_Ensure calls, not 1")
    c.check(gil == 0, f"raw memory: {gil} PyGILState_Ensure calls over {CALLS} rounds")
    c.check(acq0 == 2 and acq1 == 2, f"raw memory: the owner's acquisition count {acq0} -> {acq1}, not 2")
    c.check(total == want, f"raw memory: the views read {total}, NumPy's {want}")
    c.say(f"{module_name}: raw memory: {CALLS:,} rounds of from_pointer_2d, from_pointer_strided_2d and two "
          f"derivations: PyGILState_Ensure {first_gil} for the first view, {gil} after; owner acquisitions "
          f"{acq0} -> {acq1} [{c.section()}]")


def section_buffer(m, c, sources, args, module_name):
    # 2c. Views of a buffer (malloc'd memory, a counting deallocator): the first view makes the
    # buffer's owner (one GIL acquisition), then none while the creator holds its reference; the
    # owner keeps the attachment's acquisition and the first view's; the memory is freed once,
    # after the last of the buffer's reference and the views, whichever goes last.
    a2 = sources["a2"]
    want = CALLS * (a2[2, 1::2][1] + a2.reshape(-1)[6:12].reshape(2, 3, order="F")[1, 2])
    parts = []
    for release_first in (False, True):
        order = "buffer released first" if release_first else "views dropped first"
        (first_gil, gil, acq0, acq1, mref0, mref1, total, freed1, freed2, acq_released,
         release_gil) = m.buffer_memory(CALLS, a2, release_first)
        c.check(first_gil == 1, f"buffer ({order}): the first view made {first_gil} PyGILState_Ensure calls, not 1")
        c.check(gil == 0, f"buffer ({order}): {gil} PyGILState_Ensure calls over {CALLS} rounds")
        c.check(acq0 == 2 and acq1 == 2, f"buffer ({order}): the owner's acquisition count {acq0} -> {acq1}, not 2")
        c.check(mref0 == mref1, f"buffer ({order}): the owner's refcount {mref0} -> {mref1}")
        c.check(total == want, f"buffer ({order}): the views read {total}, NumPy's {want}")
        c.check(freed1 == 0, f"buffer ({order}): {freed1} frees with the memory still held")
        c.check(freed2 == 1, f"buffer ({order}): {freed2} frees after the last holder, not 1")
        if release_first:
            c.check(acq_released == 1, f"buffer ({order}): the owner's acquisition count after the "
                    f"buffer's release {acq_released}, not the first view's 1")
            # The attachment's acquisition released with another left: an atomic decrement.
            c.check(release_gil == 0, f"buffer ({order}): the release made {release_gil} PyGILState_Ensure calls")
        else:
            # The owner's last acquisition released in nogil: Cython takes the GIL, once.
            c.check(release_gil == 1, f"buffer ({order}): the release made {release_gil} PyGILState_Ensure calls, not 1")
        parts.append(f"{order}: Ensure {first_gil} for the first view, {gil} after, {release_gil} for "
                     f"the release in nogil; owner acquisitions {acq0} -> {acq1}, refcount {mref0} -> {mref1}; "
                     f"frees {freed1} then {freed2}")
    del a2  # (the run's refcount check counts references to the sources)
    c.say(f"{module_name}: buffer: {CALLS:,} rounds of 2 from_buffer_2d and 2 derivations: "
          + "; ".join(parts) + f" [{c.section()}]")


def section_pool(m, c, sources, args, module_name):
    # 2d. Arrays of a pool: the first acquire makes the slab's owner (one GIL acquisition), then
    # none; balanced counts.
    want = sum(2 * k + 6 for k in range(CALLS))  # [1, 1] + [0, 2] of k + 3 i + j
    parts = []
    for order in ("C", "F"):
        first_gil, gil, acq0, acq1, mref0, mref1, total, counts, counts_after = m.pool_memory(CALLS, order)
        c.check(first_gil == 1, f"pool {order}: the first acquire made {first_gil} PyGILState_Ensure calls, not 1")
        c.check(gil == 0, f"pool {order}: {gil} PyGILState_Ensure calls over {CALLS} rounds")
        c.check(acq0 == 2 and acq1 == 2, f"pool {order}: the owner's acquisition count {acq0} -> {acq1}, not 2")
        c.check(mref0 == mref1, f"pool {order}: the owner's refcount {mref0} -> {mref1}")
        c.check(total == want, f"pool {order}: the arrays read {total}, expected {want}")
        c.check(counts == (16, 1) and counts_after == (16, 0),
                f"pool {order}: counts {counts} with the first array out, {counts_after} after, not (16, 1), (16, 0)")
        parts.append(f"order {order}: Ensure {first_gil} for the first acquire, {gil} after; owner "
                     f"acquisitions {acq0} -> {acq1}, refcount {mref0} -> {mref1}")
    c.say(f"{module_name}: pool: {CALLS:,} rounds of pool_acquire, 2 derivations, pool_release: "
          + "; ".join(parts) + f" [{c.section()}]")


def section_movement(m, c, sources, args, module_name):
    # 2e. Data movement in place (fill_2d, copy_2d of a transpose and in place, copy_1d_2d):
    # no GIL, balanced counts.
    a2 = sources["a2"]
    b = np.zeros((6, 5))
    gil, acq0, acq1, mref0, mref1, total = m.movement(MOVEMENT_ROUNDS, a2, b)
    want = sum(range(MOVEMENT_ROUNDS)) + MOVEMENT_ROUNDS * (a2[2, 1] + a2[1, 5] + a2[4, 3])
    c.check(gil == 0, f"movement: {gil} PyGILState_Ensure calls over {4 * MOVEMENT_ROUNDS} copies and fills")
    c.check(acq0 == (1, 1) and acq0 == acq1, f"movement: acquisition counts {acq0} -> {acq1}")
    c.check(mref0 == mref1, f"movement: memoryview refcounts {mref0} -> {mref1}")
    c.check(total == want, f"movement: the rounds read {total}, NumPy's {want}")
    c.check(np.array_equal(b, np.broadcast_to(a2[:, 3], (6, 5))), f"movement: b is {b!r}")
    c.say(f"{module_name}: movement: {MOVEMENT_ROUNDS:,} rounds of fill_2d, copy_2d (a transpose; in place, "
          f"overlapping), copy_1d_2d (broadcast): PyGILState_Ensure {gil}, acquisition counts {acq0} -> {acq1}, "
          f"memoryview refcounts {mref0} -> {mref1} [{c.section()}]")


def section_copies(m, c, sources, args, module_name):
    a2 = sources["a2"]
    # 2f. Contiguous copies into new buffers: one GIL acquisition per call (making the buffer's
    # owner), one more when the copy's last view is dropped in nogil code; the copy alone holds
    # its owner; derived views take none.
    out = m.copy_contiguous(COPIES, a2)
    n = COPIES
    for name in ("copy_c", "copy_f"):
        c.check(out[name] == 1, f"{name}_2d: {out[name]} PyGILState_Ensure calls for one call, not 1")
        c.check(out[f"acq {name}"] == 1 and out[f"refcount {name}"] == 1,
                f"{name}_2d: the copy's acquisition count {out[f'acq {name}']}, its memoryview object's refcount "
                f"{out[f'refcount {name}']}, not 1 and 1 (the copy alone holds its owner)")
    c.check(out["derived"] == 0, f"copies: {out['derived']} PyGILState_Ensure calls over {n} derivations of a copy")
    c.check(out["acq copy_c after derived"] == 1, f"copies: acquisition count {out['acq copy_c after derived']} "
            "after the derivations, not 1")
    c.check(out["kept"] == n, f"copies: {out['kept']} PyGILState_Ensure calls over {n} copy_c_2d calls whose copies "
            f"were dropped with the GIL, not {n}")
    c.check(out["dropped"] == 2 * n, f"copies: {out['dropped']} PyGILState_Ensure calls over {n} copy_c_2d calls "
            f"whose copies were dropped in nogil, not {2 * n}")
    c.check(out["acq a2"][0] == out["acq a2"][1] and out["refcount a2"][0] == out["refcount a2"][1],
            f"copies: the source's acquisition count {out['acq a2']}, refcount {out['refcount a2']}")
    kept_c, kept_f = (np.asarray(v) for v in out["copies"])
    c.check(np.array_equal(kept_c, a2.T) and kept_c.strides == (40, 8) and kept_c.flags.writeable,
            f"copy_c_2d(a2.T): {kept_c!r}, strides {kept_c.strides}")
    c.check(np.array_equal(kept_f, a2) and kept_f.strides == (8, 40) and not np.shares_memory(kept_f, a2),
            f"copy_f_2d(a2): {kept_f!r}, strides {kept_f.strides}")
    want = sum(a2[i % 5, i % 6] for i in range(n))
    c.check(out["sums"] == (want, want, want), f"copies: the copies read {out['sums']}, NumPy's {want}")
    c.say(f"{module_name}: copies: PyGILState_Ensure {out['copy_c']} for one copy_c_2d, {out['copy_f']} for one "
          f"copy_f_2d (making the buffer's owner), the copy's acquisition count {out['acq copy_c']}; "
          f"{n:,} derivations of a copy: {out['derived']}; {n:,} copies dropped with the GIL: {out['kept']:,}; "
          f"{n:,} dropped in nogil (the last release takes it too): {out['dropped']:,} [{c.section()}]")
    del kept_c, kept_f, out, a2


def section_prange(m, c, sources, args, module_name):
    # 3. prange: threads derive views of one shared array.
    shared = np.arange(100.0 * 64).reshape(100, 64)
    rounds = PRANGE_ITERATIONS // shared.shape[0]
    want = rounds * shared[:, 1::2].sum()  # integers: every order of summation is exact
    ref0 = sys.getrefcount(shared)
    parts = []
    for threads in (2, 4):
        for can_raise in (False, True):
            total, gil, acq0, acq1, ran = m.prange_sum(shared, threads, rounds, can_raise)
            body = "except -1 body" if can_raise else "noexcept body"
            c.check(total == want, f"prange {threads} threads, {body}: sum {total} != NumPy's {want}")
            c.check(acq0 == acq1, f"prange {threads} threads, {body}: acquisition count {acq0} -> {acq1}")
            c.check(ran == threads, f"prange {threads} threads, {body}: {ran} threads ran iterations")
            # A body that can raise makes Cython's prange take the GIL once per thread when the
            # parallel region starts (PyGILState_Ensure, to give each OpenMP thread a thread
            # state for propagating errors), however many iterations: the helpers take none.
            allowed = threads if can_raise else 0
            c.check(gil == allowed, f"prange {threads} threads, {body}: {gil} PyGILState_Ensure calls, expected {allowed}")
            parts.append(f"{threads} threads {body}: Ensure {gil}")
    # Views of raw memory in the same prange, 4 threads making the owner of 3-D views at once.
    total, first_gil, owner_acq, again, gil = m.prange_raw(shared, 4, rounds)
    c.check(total == want and again == want, f"prange raw memory: sums {total}, {again} != NumPy's {want}")
    c.check(1 <= first_gil <= 4, f"prange raw memory: {first_gil} PyGILState_Ensure calls making the owner, not 1 to 4")
    c.check(gil == 0, f"prange raw memory: {gil} PyGILState_Ensure calls once the owner exists")
    c.check(owner_acq == 1, f"prange raw memory: the owner's acquisition count {owner_acq}, not its pinned 1")
    parts.append(f"4 threads over raw memory: Ensure {first_gil} (making the owner), then {gil}")
    # Views of a buffer (a copy of shared), 4 threads making its owner at once.
    total, first_gil, owner_acq, again, gil, freed1, freed2 = m.prange_buffer(shared, 4, rounds)
    c.check(total == want and again == want, f"prange buffer: sums {total}, {again} != NumPy's {want}")
    c.check(1 <= first_gil <= 4, f"prange buffer: {first_gil} PyGILState_Ensure calls making the owner, not 1 to 4")
    c.check(gil == 0, f"prange buffer: {gil} PyGILState_Ensure calls once the owner exists")
    c.check(owner_acq == 1, f"prange buffer: the owner's acquisition count {owner_acq}, not the attachment's 1")
    c.check(freed1 == 0 and freed2 == 1, f"prange buffer: frees {freed1} before the buffer's release, {freed2} after, not 0, 1")
    parts.append(f"4 threads over a buffer: Ensure {first_gil} (making the owner), then {gil}, frees {freed1} -> {freed2}")
    # Arrays of a pool, 4 threads making the slab's owner at once.
    total, first_gil, owner_acq, again, gil, counts = m.prange_pool(shared, 4, rounds)
    c.check(total == 2 * want and again == 2 * want, f"prange pool: sums {total}, {again} != NumPy's {2 * want}")
    c.check(1 <= first_gil <= 4, f"prange pool: {first_gil} PyGILState_Ensure calls making the owner, not 1 to 4")
    c.check(gil == 0, f"prange pool: {gil} PyGILState_Ensure calls once the owner exists")
    c.check(owner_acq == 1, f"prange pool: the owner's acquisition count {owner_acq}, not the attachment's 1")
    c.check(counts[1] == 0, f"prange pool: counts {counts}: arrays still acquired")
    parts.append(f"4 threads over a pool: Ensure {first_gil} (making the owner), then {gil}, counts {counts}")
    ref1 = sys.getrefcount(shared)
    c.check(ref0 == ref1, f"prange: array refcount {ref0} -> {ref1}")
    c.say(f"{module_name}: prange: {PRANGE_ITERATIONS:,} iterations x 2 views of one (100, 64) array, "
          f"{'; '.join(parts)} [{c.section()}]")


def section_iteration(m, c, sources, args, module_name):
    # 3a. Elementwise iteration: 1,000,000 rounds of 3 typed operand helpers and
    # mvs_pyx_iter_init take no GIL; a prange split by ranges visits every element once.
    a, b = sources["a2"].T, np.arange(5.0)  # a transposed (6, 5), b broadcast along its rows
    out = np.zeros((6, 5))
    init_gil, acq0, acq1, size = m.iterator_inits(CALLS, a, b, out)
    c.check(init_gil == 0, f"iteration: {init_gil} PyGILState_Ensure calls over {CALLS} rounds of 3 operands and an init")
    c.check(acq0 == (1, 1, 1) and acq1 == acq0, f"iteration: acquisition counts {acq0} -> {acq1}")
    c.check(size == 30, f"iteration: size {size}, not 30")
    # Positive control: a failing init raises, taking the GIL, and the counter sees it.
    e0, error = m.ensures(), None
    try:
        m.iterator_inits(1, a, np.arange(4.0), out)
    except ValueError as e:
        error = str(e)
    failing_gil = m.ensures() - e0
    c.check(error and "could not be broadcast together with shapes (6, 5) (4,) (6, 5)" in error and failing_gil > 0,
            f"iteration: a failing init raised {error!r}, counted {failing_gil} PyGILState_Ensure calls")
    del a
    parts = []
    big_a = np.arange(64.0 * 100).reshape(64, 100).T  # (100, 64), transposed: tiled
    big_b = np.arange(64.0)
    for threads, nparts in ((2, 7), (4, 16), (4, 3)):
        big_c = np.zeros((100, 64))
        visited, size, gil, ran = m.prange_ranges(big_a, big_b, big_c, threads, nparts)
        what = f"prange ranges, {threads} threads, {nparts} ranges"
        c.check(visited == size == big_c.size, f"{what}: {visited} elements visited, size {size}, not {big_c.size}")
        c.check(np.array_equal(big_c, big_a + big_b), f"{what}: c is not a + b (an element visited twice or never)")
        c.check(gil == 0, f"{what}: {gil} PyGILState_Ensure calls")
        c.check(ran == min(threads, nparts), f"{what}: {ran} threads ran ranges")
        parts.append(f"{threads} threads, {nparts} ranges: {visited} visited of {size}, Ensure {gil}, {ran} threads ran")
    c.say(f"{module_name}: iteration: {CALLS:,} rounds of 3 typed operands and mvs_pyx_iter_init in nogil: "
          f"PyGILState_Ensure {init_gil} (a failing one: {failing_gil}); a prange by ranges: {'; '.join(parts)} [{c.section()}]")


def section_errors(m, c, sources, args, module_name):
    # 4. Error paths.
    c.check(tuple(FAILURE_EXPECTED) == tuple(m.FAILURES), f"failures differ: {m.FAILURES}")
    parts = []
    for which, name in enumerate(m.FAILURES):
        exc_type, text = FAILURE_EXPECTED[name]
        refs0 = refcounts(sources)
        caught, last, gil, acq0, acq1 = m.failures(which, FAILING_CALLS, sources["a2"], sources["a3"])
        refs1 = refcounts(sources)
        c.check(caught == FAILING_CALLS, f"{name}: caught {caught} of {FAILING_CALLS}")
        c.check(type(last) is exc_type and text in str(last),
                f"{name}: raised {type(last).__name__}({str(last)!r}), expected {exc_type.__name__} with {text!r}")
        c.check(acq0 == acq1, f"{name}: acquisition counts {acq0} -> {acq1}")
        c.check(refs0 == refs1, f"{name}: array refcounts {refs0} -> {refs1}")
        # Positive control: the failure path takes the GIL, and the counter sees it.
        c.check(gil > 0, f"{name}: the failure path counted no PyGILState_Ensure")
        parts.append(f"{name}: {type(last).__name__}({str(last)!r}), Ensure {gil / FAILING_CALLS:g}/call")
        del last
    c.say(f"{module_name}: errors, {FAILING_CALLS:,} calls of each kind: " + "; ".join(parts)
          + f" [{c.section()}]")


# --- pytest ----------------------------------------------------------------------------------
# One class per module (the built variants: --gil-modules or $MVS_GIL_MODULES, default the four
# variants of the Makefile, found on --cy-build / $MVS_CY_BUILD / PYTHONPATH), one test per
# section: TestGil_gil_test_c_on::test_section[mix]. Each section gets new source arrays and
# checks, besides its own checks, that their reference counts are where they started (the script
# checked that over the whole run). The sections of one module run in this order in one process,
# as the script ran them: some check the first view that makes an owner of the module. Under
# xdist, --dist loadscope keeps each class (module) on one worker. (--dist loadgroup with
# xdist_group marks would do the same, but does not group with pytest 9.2 and xdist 3.8:
# pytest-dev/pytest-xdist#1386.)

SECTIONS = {name[len("section_"):]: fn for name, fn in list(globals().items()) if name.startswith("section_")}
DEFAULT_MODULES = ["gil_test_c_on", "gil_test_c_off", "gil_test_cpp_on", "gil_test_cpp_off"]


def run_section(module_name, section, record_property):
    m = importlib.import_module(module_name)
    c = Checker(module_name)
    start = time.perf_counter()
    sources = {k: make() for k, make in SOURCES.items()}
    args = (sources["a1"], sources["a2"], sources["a3"], sources["s3"])
    refs_start = refcounts(sources)
    SECTIONS[section](m, c, sources, args, module_name)
    refs_end = refcounts(sources)
    c.check(refs_start == refs_end, f"array refcounts {refs_start} -> {refs_end} over the section")
    record_property("summary", " | ".join(c.lines) + f" ({time.perf_counter() - start:.1f} s)")
    assert not c.failures, f"{module_name} {section}: {len(c.failures)} failed checks:\n" + "\n".join(c.failures)


def module_class(module_name):
    class TestModule:
        @pytest.mark.parametrize("section", list(SECTIONS))
        def test_section(self, section, record_property):
            run_section(module_name, section, record_property)

    TestModule.__name__ = TestModule.__qualname__ = f"TestGil_{module_name}"
    return TestModule


# (tests/conftest.py puts --gil-modules in $MVS_GIL_MODULES before the collection.)
for _name in os.environ.get("MVS_GIL_MODULES", "").replace(",", " ").split() or DEFAULT_MODULES:
    globals()[f"TestGil_{_name}"] = module_class(_name)


def main():
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
