# cython: show_performance_hints=False
# cython: boundscheck=False, initializedcheck=False
# The timed loops of benches/cython_bench.py (see its docstring for the scenario, and for how
# this file is built, as the module cython_bench_ext, and run). Every `run_*` function makes one
# view `n` times into the same local typed memoryview r and adds r[0, 0] (or r[1, 0]) to an
# accumulator, which it returns with the last r so that nothing is optimised away and the
# caller can check the view. Assigning a bridge helper's result to r acquires the new view and
# releases the old one each time; Cython's own `r = a[...]` skips both once r holds a's memview.
#
# The scenario: `buf`, 4096 float64 items, and `a`, the same memory as a (64, 64) C-contiguous
# 2-D memoryview. View A is a[1:-1] (62, 64), which is also buf[64:4032].reshape(62, 64); view B
# is a[1:-1, 1:-1] (62, 62).
from memviewslice cimport (
    mvs_slice, mvs_index_item, mvs_pyx_slice, mvs_pyx_src, mvs_pyx_check,
    mvs_slice_axis, mvs_index, mvs_subview, MVS_ITEM_SLICE,
)
from memviewslice cimport f64

cdef extern from *:
    """
    /* The pointer, made opaque to the compiler each iteration (as criterion's black_box). */
    static inline double *cython_bench_opaque(double *p) { __asm__ volatile("" : "+r"(p)); return p; }
    """
    double *opaque "cython_bench_opaque"(double *p) nogil

cdef enum:
    ROWS = 64
    COLS = 64

cdef Py_ssize_t SHAPE_A[2]
SHAPE_A[0] = ROWS - 2
SHAPE_A[1] = COLS
cdef Py_ssize_t FLAT_A_START = COLS              # buf[64:4032] is a[1:-1], flat
cdef Py_ssize_t FLAT_A_STOP = (ROWS - 1) * COLS
cdef mvs_index_item ITEMS_B[2]                   # [1:-1, 1:-1]
ITEMS_B[0] = mvs_index_item(MVS_ITEM_SLICE, 1, -1, 1)
ITEMS_B[1] = ITEMS_B[0]

SCENARIO = dict(rows=ROWS, cols=COLS, shape_a=(ROWS - 2, COLS), shape_b=(ROWS - 2, COLS - 2),
                flat_a=(COLS, (ROWS - 1) * COLS))


# --- (a) the bridge: view A -----------------------------------------------------------------

def run_bridge_slice_axis_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = f64.slice_axis_2d(a, 0, 1, -1, 1): a[1:-1], one library call."""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = f64.slice_axis_2d(a, 0, 1, -1, 1)
            acc += r[0, 0]
    return acc, r


def run_bridge_subview_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = f64.subview_1d_2d(buf, 64, (62, 64), 'C'): buf[64:4032].reshape(62, 64), one call."""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = f64.subview_1d_2d(buf, FLAT_A_START, SHAPE_A, 'C')
            acc += r[0, 0]
    return acc, r


def run_bridge_slice_reshape_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = reshape_1d_2d(slice_axis_1d(buf, 0, 64, 4032, 1), (62, 64), 'C'): NumPy's slice-and-reshape
    step by step, two library calls and a 1-D intermediate view."""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = f64.reshape_1d_2d(f64.slice_axis_1d(buf, 0, FLAT_A_START, FLAT_A_STOP, 1), SHAPE_A, 'C')
            acc += r[0, 0]
    return acc, r


# --- (a) the bridge: view B -----------------------------------------------------------------

def run_bridge_index_B(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = f64.index_2d_2d(a, [1:-1, 1:-1], 2): one library call."""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = f64.index_2d_2d(a, ITEMS_B, 2)
            acc += r[0, 0]
    return acc, r


def run_bridge_slice_axis_twice_B(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = slice_axis_2d(slice_axis_2d(a, 0, 1, -1, 1), 1, 1, -1, 1): two calls, one intermediate."""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = f64.slice_axis_2d(f64.slice_axis_2d(a, 0, 1, -1, 1), 1, 1, -1, 1)
            acc += r[0, 0]
    return acc, r


# --- (b) Cython's own slicing ---------------------------------------------------------------

def run_cython_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = a[1:-1]"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = a[1:-1]
            acc += r[0, 0]
    return acc, r


def run_cython_B(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = a[1:-1, 1:-1]"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = a[1:-1, 1:-1]
            acc += r[0, 0]
    return acc, r


# Cython's slicing done inside a function that returns the view (as examples/cython/corner.pyx
# does, and as every bridge helper does): the function's fresh result pays the acquisition that
# the in-loop `r = a[1:-1]` above skips (Cython 3 leaves the count alone when the assigned slice
# has the memview r already holds).

cdef inline double[:, :] cy_rows(double[:, :] a) nogil:
    return a[1:-1]


cdef inline double[:, :] cy_interior(double[:, :] a) nogil:
    return a[1:-1, 1:-1]


def run_cython_fn_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = cy_rows(a), which returns a[1:-1]"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = cy_rows(a)
            acc += r[0, 0]
    return acc, r


def run_cython_fn_B(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = cy_interior(a), which returns a[1:-1, 1:-1]"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = cy_interior(a)
            acc += r[0, 0]
    return acc, r


# --- (d) casting a raw pointer, with the GIL ------------------------------------------------

def run_pointer_cast_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = <double[:62, :64]> &buf[64]: a new cython.array (and memoryview object) each time.
    Unlike every other case, r does not keep buf alive."""
    cdef double *p = &buf[FLAT_A_START]
    cdef double[:, ::1] r
    cdef double acc = 0
    cdef Py_ssize_t i
    for i in range(n):
        r = <double[:ROWS - 2, :COLS]> p
        acc += r[0, 0]
    return acc, r


def run_from_pointer_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = f64.from_pointer_2d(&buf[64], (62, 64), 'C'): the same view as the cast, in nogil."""
    cdef double *p = &buf[FLAT_A_START]
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = f64.from_pointer_2d(opaque(p), SHAPE_A, 'C')
            acc += r[0, 0]
    return acc, r


# --- breakdown of the bridge's cost ---------------------------------------------------------

def run_floor(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """The loop alone: acc += a[1, 0], no view made."""
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            acc += a[1, 0]
    return acc, a


def run_acquire_release(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = a: the acquisition of the new view and release of the old one (atomic increment and
    decrement of the memoryview's count) that every case pays, and nothing else."""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = a
            acc += r[1, 0]
    return acc, r


cdef inline double[:, :] cy_same(double[:, :] a) nogil:
    return a


def run_return_protocol(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """r = cy_same(a), a `cdef inline` function returning its argument: what returning a typed
    memoryview from a function costs (Cython's zeroed result struct, the copies, one
    acquisition and one release), with no slicing; the bridge's helpers, C macros, avoid all but
    the acquisition and release."""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            r = cy_same(a)
            acc += r[1, 0]
    return acc, r


def run_bare_slice_axis_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """mvs_slice_axis(mvs_pyx_src(a), 2, 0, 1, -1, 1, &out) into a stack slice, checked, not
    read back as a memoryview (no acquisition)."""
    cdef mvs_slice out
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            mvs_pyx_check(mvs_slice_axis(mvs_pyx_src(a), 2, 0, 1, -1, 1, &out))
            acc += (<double *>out.data)[0]
    return acc, None


def run_bare_subview_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """mvs_subview(mvs_pyx_src(buf), 1, 8, 64, 2, (62, 64), 'C', &out), not read back."""
    cdef mvs_slice out
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            mvs_pyx_check(mvs_subview(mvs_pyx_src(buf), 1, sizeof(double), FLAT_A_START, 2, SHAPE_A, b'C', &out))
            acc += (<double *>out.data)[0]
    return acc, None


def run_bare_index_B(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """mvs_index(mvs_pyx_src(a), 2, [1:-1, 1:-1], 2, &out, &ndim), not read back."""
    cdef mvs_slice out
    cdef int ndim
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            mvs_pyx_check(mvs_index(mvs_pyx_src(a), 2, ITEMS_B, 2, &out, &ndim))
            acc += (<double *>out.data)[0]
    return acc, None


def run_bare_slice_axis_readback_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """The bare call, then out read back as the typed memoryview r (the pattern for an
    operation without a helper macro, written out in the loop)."""
    cdef mvs_pyx_slice out
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            mvs_pyx_check(mvs_slice_axis(mvs_pyx_src(a), 2, 0, 1, -1, 1, <mvs_slice *>&out))
            r = (<f64.view_2d *>&out)[0]
            acc += r[0, 0]
    return acc, r


def run_inplace_slice_axis_A(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """An experiment, not in the bridge: when r already holds a's memview, the library writes
    a[1:-1] straight into r (its output may be any mvs_slice, and is untouched on failure), so
    no acquisition changes hands: what Cython's own slicing does in this loop."""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            if mvs_pyx_src(r).memview == mvs_pyx_src(a).memview:
                mvs_pyx_check(mvs_slice_axis(mvs_pyx_src(a), 2, 0, 1, -1, 1, <mvs_slice *>mvs_pyx_src(r)))
            else:
                r = f64.slice_axis_2d(a, 0, 1, -1, 1)
            acc += r[0, 0]
    return acc, r


def run_inplace_index_B(double[:, :] a, double[::1] buf, Py_ssize_t n):
    """The same experiment for index_2d_2d(a, [1:-1, 1:-1])."""
    cdef double[:, :] r
    cdef int ndim
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            if mvs_pyx_src(r).memview == mvs_pyx_src(a).memview:
                mvs_pyx_check(mvs_index(mvs_pyx_src(a), 2, ITEMS_B, 2, <mvs_slice *>mvs_pyx_src(r), &ndim))
            else:
                r = f64.index_2d_2d(a, ITEMS_B, 2)
            acc += r[0, 0]
    return acc, r
