# cython: boundscheck=False, wraparound=False
# A user's module built against the installed memviewslice package (see README.md here).
# Problem 1: views of one flat buffer, made inside nogil. Problem 2: a sliced memoryview
# returned from a noexcept nogil function. And C memory handed to NumPy, freed once.
from libc.stdlib cimport malloc, free
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_index_item, mvs_buffer_wrap, mvs_buffer_view, mvs_buffer_release,
    mvs_pyx_check, MVS_ITEM_SLICE, MVS_NONE,
)
from memviewslice cimport f64
from memviewslice.owners cimport export


def views_of(double[::1] buf):
    """A (2, 3) view at item 0 and a (2, 2, 2) view at item 6 of `buf`, each element set to
    100 * view number + its flat position."""
    cdef Py_ssize_t shape2[2]
    cdef Py_ssize_t shape3[3]
    cdef double[:, :] a
    cdef double[:, :, :] b
    cdef Py_ssize_t i, j, k
    shape2[:] = [2, 3]
    shape3[:] = [2, 2, 2]
    with nogil:
        a = f64.subview_1d_2d(buf, 0, shape2, 'C')
        b = f64.subview_1d_3d(buf, 6, shape3, 'C')
        for i in range(2):
            for j in range(3):
                a[i, j] = 100 + 3 * i + j
        for i in range(2):
            for j in range(2):
                for k in range(2):
                    b[i, j, k] = 200 + 4 * i + 2 * j + k
    return a, b


cdef double[:, :] corner(double[:, :] a) noexcept nogil:
    """a[:-1, :-1]: no GIL, no copy."""
    cdef mvs_index_item items[2]
    items[0] = mvs_index_item(MVS_ITEM_SLICE, MVS_NONE, -1, 1)
    items[1] = items[0]
    return f64.index_2d_2d(a, items, 2)


def corner_of(double[:, :] a):
    """corner(a), called from nogil code."""
    cdef double[:, :] c
    with nogil:
        c = corner(a)
    return c


cdef extern from *:
    """
    static long grids_frees = 0;
    static void grids_free(void *data, void *ctx) { (void)ctx; grids_frees++; free(data); }
    """
    long grids_frees
    void grids_free(void *data, void *ctx) noexcept nogil


def frees():
    """How many blocks grids_free has freed."""
    return grids_frees


def c_matrix(Py_ssize_t rows, Py_ssize_t cols):
    """A (rows, cols) float64 matrix in memory from malloc, handed to Python: the result owns
    it, and grids_free frees it once the last user is gone."""
    cdef Py_ssize_t shape[2]
    cdef mvs_slice view
    cdef mvs_buffer *buffer
    cdef double *data = <double *>malloc(rows * cols * sizeof(double))
    cdef Py_ssize_t i
    if data == NULL:
        raise MemoryError()
    for i in range(rows * cols):
        data[i] = i
    shape[0], shape[1] = rows, cols
    try:
        mvs_pyx_check(mvs_buffer_wrap(data, rows * cols * sizeof(double), grids_free, NULL, 0, &buffer))
    except:
        free(data)
        raise
    try:
        mvs_pyx_check(mvs_buffer_view(buffer, sizeof(double), 2, shape, b'C', &view))
        return export(buffer, &view, 2, sizeof(double), b'd')
    finally:
        mvs_buffer_release(buffer)  # ours; the export holds its own
