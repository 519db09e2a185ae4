# cython: boundscheck=False, wraparound=False
# The compiled loops of pool_bench.py: mvs_pool acquire + write + release of a (3, 3) float64
# array from nogil Cython, and mvs_buffer_alloc + release of the same size for comparison.
from libc.stdint cimport int64_t
from memviewslice cimport (
    mvs_slice, mvs_pool, mvs_buffer, mvs_pool_create, mvs_pool_acquire, mvs_pool_release,
    mvs_pool_destroy, mvs_buffer_alloc, mvs_buffer_release, mvs_buffer_data, mvs_pyx_check,
)
from time import perf_counter_ns


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
