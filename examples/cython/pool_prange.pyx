# cython: boundscheck=False, wraparound=False, cdivision=True
# Many small typed memoryviews in a prange loop: each iteration takes a (3, 3) scratch matrix
# from a typed pool and gives it back, with no GIL and no allocation (np.empty((3, 3)) needs
# the GIL, and costs more than ten times as much).
from cython.parallel cimport prange
from libc.math cimport cos, sin
from memviewslice cimport f64, mvs_pool
from memviewslice.owners cimport Pool


def rotations(double[:] angles):
    """Sum of the entries of R(a) @ R(a).T (the identity: 3.0) for every angle a, each product
    computed in a pooled (3, 3) scratch matrix; returns the sum and the pool."""
    cdef Pool pool = Pool('d', (3, 3))
    cdef Py_ssize_t n = angles.shape[0], k
    cdef double total = 0
    with nogil:
        for k in prange(n, num_threads=4):
            total += identity_sum(pool.pool, angles[k])
    return total, pool


cdef double identity_sum(mvs_pool *pool, double a) except? -1 nogil:
    """Fills a pooled (3, 3) matrix r with a rotation by `a` about z, then returns the sum of
    the entries of r @ r.T. (A typed memoryview cannot be private to a prange iteration: it
    lives in a function that the loop calls.)"""
    cdef double[:, ::1] r = f64.pool_acquire_2d(pool)
    cdef double c = cos(a), s = sin(a), acc = 0
    cdef int i, j, k
    r[0, 0], r[0, 1], r[0, 2] = c, -s, 0
    r[1, 0], r[1, 1], r[1, 2] = s, c, 0
    r[2, 0], r[2, 1], r[2, 2] = 0, 0, 1
    for i in range(3):
        for j in range(3):
            for k in range(3):
                acc += r[i, k] * r[j, k]
    f64.pool_release_2d(pool, r)
    return acc
