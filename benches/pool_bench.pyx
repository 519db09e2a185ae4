# cython: boundscheck=False, wraparound=False, cdivision=True
# The compiled loops of pool_bench.py: a (3, 3) float64 array obtained, its 9 items written, and
# given up: from mvs_pool (raw and as typed memoryviews), mvs_buffer_alloc, a preallocated slab,
# and with the GIL from np.empty, cython.view.array and a cast of pooled memory.
from cython.view cimport array as cvarray
from libc.stdint cimport int64_t
from memviewslice cimport (
    mvs_slice, mvs_pool, mvs_buffer, mvs_pool_create, mvs_pool_acquire, mvs_pool_release,
    mvs_pool_destroy, mvs_buffer_alloc, mvs_buffer_release, mvs_buffer_data, mvs_pyx_check, f64,
)
from memviewslice.owners cimport Pool
import numpy as np
from time import perf_counter_ns

cdef extern from *:
    """
    /* An empty asm statement on the address: the compiler must assume the pointer (and what it
       points to) changed, so nothing is hoisted out of the loop (criterion's black_box). */
    #define pool_bench_opaque(p) __asm__ volatile("" : : "r"(p) : "memory")
    """
    void opaque "pool_bench_opaque"(void *p) nogil


def pool_loop(Py_ssize_t n):
    """ns for n rounds of: acquire a (3, 3) float64 array, write its 9 items, release it."""
    cdef mvs_pool *pool
    cdef Py_ssize_t shape[2]
    cdef mvs_slice v
    cdef Py_ssize_t i, k
    cdef double *p
    cdef int failures = 0
    shape[0], shape[1] = 3, 3
    mvs_pyx_check(mvs_pool_create(sizeof(double), 2, shape, b'C', 4, &pool))
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            failures += mvs_pool_acquire(pool, &v)
            p = <double *>v.data
            for k in range(9):
                p[k] = i
            failures += mvs_pool_release(pool, &v)
    t = perf_counter_ns() - t
    mvs_pool_destroy(pool)
    assert failures == 0
    return t


def buffer_loop(Py_ssize_t n):
    """ns for n rounds of: allocate a 72-byte mvs_buffer, write its 9 doubles, release it."""
    cdef mvs_buffer *b
    cdef void *data
    cdef Py_ssize_t i, k
    cdef int failures = 0
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            failures += mvs_buffer_alloc(72, 16, 0, &b)
            failures += mvs_buffer_data(b, &data)
            for k in range(9):
                (<double *>data)[k] = i
            mvs_buffer_release(b)
    t = perf_counter_ns() - t
    assert failures == 0
    return t


def typed_pool_loop(Py_ssize_t n):
    """ns for n rounds of: f64.pool_acquire_2d (a typed memoryview), write its 9 items,
    f64.pool_release_2d; the first acquire, which makes the slab's owner, is before the clock."""
    cdef Pool pool = Pool('d', (3, 3), capacity=4)
    cdef mvs_pool *p = pool.pool
    cdef double[:, ::1] m
    cdef Py_ssize_t i, j, k
    m = f64.pool_acquire_2d(p)
    f64.pool_release_2d(p, m)
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            opaque(p)
            m = f64.pool_acquire_2d(p)
            for j in range(3):
                for k in range(3):
                    m[j, k] = i
            f64.pool_release_2d(p, m)
    t = perf_counter_ns() - t
    assert pool.counts[1] == 0
    return t


def slab_loop(Py_ssize_t n):
    """ns for n rounds of: slab[i % 64] of a preallocated (64, 3, 3) float64 slab into a typed
    memoryview (Cython's own indexing), write its 9 items."""
    cdef double[:, :, ::1] slab = np.empty((64, 3, 3))
    cdef double[:, ::1] m
    cdef Py_ssize_t i, j, k
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            opaque(&slab[0, 0, 0])
            m = slab[i % 64]
            for j in range(3):
                for k in range(3):
                    m[j, k] = i
    t = perf_counter_ns() - t
    return t


def numpy_empty_loop(Py_ssize_t n):
    """ns for n rounds of: np.empty((3, 3)) called from Cython, as a typed memoryview, write its
    9 items (the array is dropped at the next round)."""
    cdef double[:, ::1] m
    cdef Py_ssize_t i, j, k
    empty = np.empty
    t = perf_counter_ns()
    for i in range(n):
        m = empty((3, 3))
        for j in range(3):
            for k in range(3):
                m[j, k] = i
    return perf_counter_ns() - t


def view_array_loop(Py_ssize_t n):
    """ns for n rounds of: cython.view.array((3, 3), 8, 'd') as a typed memoryview, write its 9
    items."""
    cdef double[:, ::1] m
    cdef Py_ssize_t i, j, k
    t = perf_counter_ns()
    for i in range(n):
        m = cvarray(shape=(3, 3), itemsize=sizeof(double), format="d")
        for j in range(3):
            for k in range(3):
                m[j, k] = i
    return perf_counter_ns() - t


def pool_cast_loop(Py_ssize_t n):
    """ns for n rounds of: mvs_pool_acquire, the typed memoryview <double[:3, :3]> of its
    memory (Cython's cast, with the GIL), write its 9 items, release."""
    cdef mvs_pool *pool
    cdef Py_ssize_t shape[2]
    cdef mvs_slice v
    cdef double[:, ::1] m
    cdef Py_ssize_t i, j, k
    cdef int failures = 0
    shape[0], shape[1] = 3, 3
    mvs_pyx_check(mvs_pool_create(sizeof(double), 2, shape, b'C', 4, &pool))
    t = perf_counter_ns()
    for i in range(n):
        failures += mvs_pool_acquire(pool, &v)
        m = <double[:3, :3]> <double *> v.data
        for j in range(3):
            for k in range(3):
                m[j, k] = i
        failures += mvs_pool_release(pool, &v)
    t = perf_counter_ns() - t
    m = None
    mvs_pool_destroy(pool)
    assert failures == 0
    return t
