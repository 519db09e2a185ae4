# cython: boundscheck=False, wraparound=False
# Problem 2: a `noexcept nogil` function returning a sliced memoryview, with no GIL and no copy.
from memviewslice cimport mvs_index_item, MVS_ITEM_SLICE, MVS_NONE
from memviewslice cimport f64


cdef double[:, :] corner(double[:, ::1] a) noexcept nogil:
    """a[:-1, :-1], through the library."""
    cdef mvs_index_item items[2]
    items[0] = mvs_index_item(MVS_ITEM_SLICE, MVS_NONE, -1, 1)
    items[1] = items[0]
    return f64.index_2d_2d(a, items, 2)


def corner_sums(double[:, ::1] a, int rounds):
    """The sum of corner(a) computed `rounds` times in a nogil loop, and the last corner."""
    cdef double total = 0
    cdef double[:, :] c
    cdef Py_ssize_t r, i, j
    with nogil:
        for r in range(rounds):
            c = corner(a)
            for i in range(c.shape[0]):
                for j in range(c.shape[1]):
                    total += c[i, j]
    return total, c
