# cython: show_performance_hints=False
# cython: boundscheck=False, initializedcheck=False
# The timed loops of benches/bridge_bench.py (its docstring says what is measured and how this
# file is built). For each kind of view, `run_cy_<kind>` makes it with Cython's own operation
# and `run_mvs_<kind>` with the typed helper, `n` times, in one of three forms, the way users
# write them:
#
# - FRESH: a `cdef inline noexcept nogil` function per iteration, whose fresh local takes the
#   view and returns one item of it;
# - LOOP: the view reassigned to the same local in the loop;
# - RETURN: a `noexcept nogil` function returning the view (the README's problem 2), assigned
#   to the loop's local.
#
# Every iteration first makes the source opaque (`opaque_a`, `opaque_buf`: an empty asm
# statement that takes the memoryview's address and clobbers memory, as criterion's black_box),
# so that no compiler hoists the derivation out of the loop. Each loop adds one item of each view
# to an accumulator, which it returns.
from memviewslice cimport mvs_index_item, MVS_ITEM_SLICE, MVS_NONE
from memviewslice cimport f64

cdef extern from *:
    """
    #define BRIDGE_BENCH_OPAQUE(mv) __asm__ volatile("" : : "r"(&(mv)) : "memory")
    """
    void opaque_a "BRIDGE_BENCH_OPAQUE"(double[:, :] a) nogil
    void opaque_buf "BRIDGE_BENCH_OPAQUE"(double[::1] buf) nogil

cdef enum:
    FRESH = 0
    LOOP = 1
    RETURN = 2

FORMS = {"fresh": FRESH, "loop": LOOP, "return": RETURN}

cdef mvs_index_item ITEMS[2]                     # [:-1, :-1]
ITEMS[0] = mvs_index_item(MVS_ITEM_SLICE, MVS_NONE, -1, MVS_NONE)
ITEMS[1] = ITEMS[0]
cdef Py_ssize_t SUB_SHAPE[2]                     # buf[64:] as (63, 64)
SUB_SHAPE[0] = 63
SUB_SHAPE[1] = 64

cdef inline double fresh_cy_rows_cols(double[:, :] a) noexcept nogil:
    cdef double[:, :] r = a[:-1, :-1]
    return r[0, 0]

cdef double[:, :] ret_cy_rows_cols(double[:, :] a) noexcept nogil:
    return a[:-1, :-1]

def run_cy_rows_cols(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """a[:-1, :-1], Cython: a[:-1, :-1]"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_a(a)
                acc += fresh_cy_rows_cols(a)
        elif form == LOOP:
            for i in range(n):
                opaque_a(a)
                r = a[:-1, :-1]
                acc += r[0, 0]
        else:
            for i in range(n):
                opaque_a(a)
                r = ret_cy_rows_cols(a)
                acc += r[0, 0]
    return acc

cdef inline double fresh_mvs_rows_cols(double[:, :] a) noexcept nogil:
    cdef double[:, :] r = f64.index_2d_2d(a, ITEMS, 2)
    return r[0, 0]

cdef double[:, :] ret_mvs_rows_cols(double[:, :] a) noexcept nogil:
    return f64.index_2d_2d(a, ITEMS, 2)

def run_mvs_rows_cols(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """a[:-1, :-1], the bridge: f64.index_2d_2d(a, ITEMS, 2)"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_a(a)
                acc += fresh_mvs_rows_cols(a)
        elif form == LOOP:
            for i in range(n):
                opaque_a(a)
                r = f64.index_2d_2d(a, ITEMS, 2)
                acc += r[0, 0]
        else:
            for i in range(n):
                opaque_a(a)
                r = ret_mvs_rows_cols(a)
                acc += r[0, 0]
    return acc

cdef inline double fresh_cy_rows(double[:, :] a) noexcept nogil:
    cdef double[:, :] r = a[:-1]
    return r[0, 0]

cdef double[:, :] ret_cy_rows(double[:, :] a) noexcept nogil:
    return a[:-1]

def run_cy_rows(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """a[:-1], Cython: a[:-1]"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_a(a)
                acc += fresh_cy_rows(a)
        elif form == LOOP:
            for i in range(n):
                opaque_a(a)
                r = a[:-1]
                acc += r[0, 0]
        else:
            for i in range(n):
                opaque_a(a)
                r = ret_cy_rows(a)
                acc += r[0, 0]
    return acc

cdef inline double fresh_mvs_rows(double[:, :] a) noexcept nogil:
    cdef double[:, :] r = f64.slice_axis_2d(a, 0, MVS_NONE, -1, MVS_NONE)
    return r[0, 0]

cdef double[:, :] ret_mvs_rows(double[:, :] a) noexcept nogil:
    return f64.slice_axis_2d(a, 0, MVS_NONE, -1, MVS_NONE)

def run_mvs_rows(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """a[:-1], the bridge: f64.slice_axis_2d(a, 0, MVS_NONE, -1, MVS_NONE)"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_a(a)
                acc += fresh_mvs_rows(a)
        elif form == LOOP:
            for i in range(n):
                opaque_a(a)
                r = f64.slice_axis_2d(a, 0, MVS_NONE, -1, MVS_NONE)
                acc += r[0, 0]
        else:
            for i in range(n):
                opaque_a(a)
                r = ret_mvs_rows(a)
                acc += r[0, 0]
    return acc

cdef inline double fresh_cy_row(double[:, :] a) noexcept nogil:
    cdef double[:] r = a[3]
    return r[0]

cdef double[:] ret_cy_row(double[:, :] a) noexcept nogil:
    return a[3]

def run_cy_row(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """a[3], Cython: a[3]"""
    cdef double[:] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_a(a)
                acc += fresh_cy_row(a)
        elif form == LOOP:
            for i in range(n):
                opaque_a(a)
                r = a[3]
                acc += r[0]
        else:
            for i in range(n):
                opaque_a(a)
                r = ret_cy_row(a)
                acc += r[0]
    return acc

cdef inline double fresh_mvs_row(double[:, :] a) noexcept nogil:
    cdef double[:] r = f64.index_axis_2d(a, 0, 3)
    return r[0]

cdef double[:] ret_mvs_row(double[:, :] a) noexcept nogil:
    return f64.index_axis_2d(a, 0, 3)

def run_mvs_row(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """a[3], the bridge: f64.index_axis_2d(a, 0, 3)"""
    cdef double[:] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_a(a)
                acc += fresh_mvs_row(a)
        elif form == LOOP:
            for i in range(n):
                opaque_a(a)
                r = f64.index_axis_2d(a, 0, 3)
                acc += r[0]
        else:
            for i in range(n):
                opaque_a(a)
                r = ret_mvs_row(a)
                acc += r[0]
    return acc

cdef inline double fresh_cy_T(double[:, :] a) noexcept nogil:
    cdef double[:, :] r = a.T
    return r[0, 0]

cdef double[:, :] ret_cy_T(double[:, :] a) noexcept nogil:
    return a.T

def run_cy_T(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """a.T, Cython: a.T"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_a(a)
                acc += fresh_cy_T(a)
        elif form == LOOP:
            for i in range(n):
                opaque_a(a)
                r = a.T
                acc += r[0, 0]
        else:
            for i in range(n):
                opaque_a(a)
                r = ret_cy_T(a)
                acc += r[0, 0]
    return acc

cdef inline double fresh_mvs_T(double[:, :] a) noexcept nogil:
    cdef double[:, :] r = f64.transpose_2d(a)
    return r[0, 0]

cdef double[:, :] ret_mvs_T(double[:, :] a) noexcept nogil:
    return f64.transpose_2d(a)

def run_mvs_T(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """a.T, the bridge: f64.transpose_2d(a)"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_a(a)
                acc += fresh_mvs_T(a)
        elif form == LOOP:
            for i in range(n):
                opaque_a(a)
                r = f64.transpose_2d(a)
                acc += r[0, 0]
        else:
            for i in range(n):
                opaque_a(a)
                r = ret_mvs_T(a)
                acc += r[0, 0]
    return acc

cdef inline double fresh_cy_subview(double[::1] buf) noexcept nogil:
    cdef double[:] r = buf[64:]
    return r[0]

cdef double[:] ret_cy_subview(double[::1] buf) noexcept nogil:
    return buf[64:]

def run_cy_subview(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """buf as (63, 64), Cython: buf[64:]"""
    cdef double[:] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_buf(buf)
                acc += fresh_cy_subview(buf)
        elif form == LOOP:
            for i in range(n):
                opaque_buf(buf)
                r = buf[64:]
                acc += r[0]
        else:
            for i in range(n):
                opaque_buf(buf)
                r = ret_cy_subview(buf)
                acc += r[0]
    return acc

cdef inline double fresh_mvs_subview(double[::1] buf) noexcept nogil:
    cdef double[:, :] r = f64.subview_1d_2d(buf, 64, SUB_SHAPE, b'C')
    return r[0, 0]

cdef double[:, :] ret_mvs_subview(double[::1] buf) noexcept nogil:
    return f64.subview_1d_2d(buf, 64, SUB_SHAPE, b'C')

def run_mvs_subview(double[:, :] a, double[::1] buf, int form, Py_ssize_t n):
    """buf as (63, 64), the bridge: f64.subview_1d_2d(buf, 64, SUB_SHAPE, b'C')"""
    cdef double[:, :] r
    cdef double acc = 0
    cdef Py_ssize_t i
    with nogil:
        if form == FRESH:
            for i in range(n):
                opaque_buf(buf)
                acc += fresh_mvs_subview(buf)
        elif form == LOOP:
            for i in range(n):
                opaque_buf(buf)
                r = f64.subview_1d_2d(buf, 64, SUB_SHAPE, b'C')
                acc += r[0, 0]
        else:
            for i in range(n):
                opaque_buf(buf)
                r = ret_mvs_subview(buf)
                acc += r[0, 0]
    return acc

