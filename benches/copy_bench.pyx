# cython: boundscheck=False, wraparound=False, initializedcheck=False
# The compiled loops of copy_bench.py: 8 MiB of float64 moved `n` times by memviewslice's typed
# helpers in nogil code, by Cython's own `d[...] = s` and `.copy()`, and by memcpy / memset.
from libc.string cimport memcpy, memset
from memviewslice cimport f64
from time import perf_counter_ns


def helper_copy(const double[:, :] src, double[:, :] dst, Py_ssize_t n):
    """ns for n rounds of f64.copy_2d(src, dst), in nogil code."""
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            f64.copy_2d(src, dst)
    return perf_counter_ns() - t


def cython_copy(double[:, :] src, double[:, :] dst, Py_ssize_t n):
    """ns for n rounds of Cython's own dst[...] = src, in nogil code."""
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            dst[...] = src
    return perf_counter_ns() - t


def helper_copy_c(const double[:, :] src, Py_ssize_t n):
    """ns for n rounds of f64.copy_c_2d(src) (a new owned C-contiguous array), in nogil code."""
    cdef Py_ssize_t i
    cdef double[:, ::1] out
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            out = f64.copy_c_2d(src)
    return perf_counter_ns() - t


def cython_copy_c(double[:, :] src, Py_ssize_t n):
    """ns for n rounds of Cython's own src.copy() (needs the GIL: it makes a Python object)."""
    cdef Py_ssize_t i
    cdef double[:, ::1] out
    t = perf_counter_ns()
    for i in range(n):
        out = src.copy()
    return perf_counter_ns() - t


def helper_fill(double[:] dst, double value, Py_ssize_t n):
    """ns for n rounds of f64.fill_1d(dst, value), in nogil code."""
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            f64.fill_1d(dst, value)
    return perf_counter_ns() - t


def c_memcpy(double[::1] src, double[::1] dst, Py_ssize_t n):
    """ns for n rounds of memcpy of src into dst."""
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            memcpy(&dst[0], &src[0], dst.shape[0] * sizeof(double))
    return perf_counter_ns() - t


def c_memset(double[::1] dst, Py_ssize_t n):
    """ns for n rounds of memset of dst to 0."""
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            memset(&dst[0], 0, dst.shape[0] * sizeof(double))
    return perf_counter_ns() - t
