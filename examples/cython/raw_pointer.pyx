# cython: boundscheck=False, wraparound=False
# A C library's pointer seen as a 2-D typed memoryview in nogil code (Cython's own
# `<double[:3, :4]> ptr` needs the GIL), derived from and returned to NumPy, with no copy.
from memviewslice cimport f64

cdef extern from *:
    """
    /* A C library's table, which it keeps alive. */
    static double raw_pointer_table[12] = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23};
    static double *c_library_table(void) { return raw_pointer_table; }
    """
    double *c_library_table() nogil


def table():
    """The C library's (3, 4) table as a typed memoryview, and its column 2."""
    cdef Py_ssize_t shape[2]
    cdef double[:, :] m
    cdef double[:] col
    shape[0], shape[1] = 3, 4
    with nogil:
        m = f64.from_pointer_2d(c_library_table(), shape, 'C')    # a C library's (3, 4) table
        col = f64.index_axis_2d(m, 1, 2)                          # any helper derives from it
    return m, col
