# cython: boundscheck=False, wraparound=False
# Problem 1: one flat float64 buffer, several views of different shapes and offsets, built
# and written inside `with nogil:`, then seen by NumPy in the original buffer.
cimport memviewslice as mvs
cimport mvs_f64

# A helper the mvs_f64 file lacks, as memviewslice.pxd shows: a subview typed C-contiguous
# (mvs_subview guarantees it), so that Cython indexes it as such.
ctypedef double[:, ::1] d2c
cdef inline d2c rows_c(double[::1] a, Py_ssize_t offset, Py_ssize_t *shape) nogil:
    cdef mvs.mvs_pyx_slice out
    mvs.mvs_pyx_check(mvs.mvs_subview(mvs.mvs_pyx_src(a), 1, sizeof(double), offset, 2, shape, b'C', <mvs.mvs_slice *>&out))
    return (<d2c *>&out)[0]


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
        a = rows_c(buf, 0, shape2)
        b = mvs_f64.subview_1d_3d(buf, 6, shape3)
        for i in range(2):
            for j in range(3):
                a[i, j] = 100 + 3 * i + j
        for i in range(2):
            for j in range(2):
                for k in range(2):
                    b[i, j, k] = 200 + 4 * i + 2 * j + k
    return a, b
