# cython: boundscheck=False, wraparound=False
# Problem 1: one flat float64 buffer, several views of different shapes and offsets, built
# and written inside `with nogil:`, then seen by NumPy in the original buffer.
from memviewslice cimport f64

# A helper the f64 file lacks, as memviewslice.pxd shows: one declaration giving a macro of
# mvs_pyx.h (here subview_1d_2d's) a C-contiguous result type, which mvs_subview guarantees in
# C order, so that Cython indexes the result as such.
cdef extern from "mvs_pyx.h" nogil:
    double[:, ::1] rows_c "__mvs_pyx_f64_subview_1d_2d"(double[::1] a, Py_ssize_t offset_items, const Py_ssize_t *shape, Py_UCS4 order)


def views_of(double[::1] buf):
    """A (2, 3) view at item 0 and a (2, 2, 2) view at item 6 of `buf` (14 items), each
    element set to 100 * view number + its flat position, returned to Python."""
    cdef Py_ssize_t shape2[2]
    cdef Py_ssize_t shape3[3]
    cdef double[:, ::1] a
    cdef double[:, :, :] b
    cdef Py_ssize_t i, j, k
    shape2[:] = [2, 3]
    shape3[:] = [2, 2, 2]
    with nogil:
        a = rows_c(buf, 0, shape2, 'C')
        b = f64.subview_1d_3d(buf, 6, shape3, 'C')
        for i in range(2):
            for j in range(3):
                a[i, j] = 100 + 3 * i + j
        for i in range(2):
            for j in range(2):
                for k in range(2):
                    b[i, j, k] = 200 + 4 * i + 2 * j + k
    return a, b
