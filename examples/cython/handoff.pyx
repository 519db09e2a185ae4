# cython: boundscheck=False, wraparound=False
# Problems 3 and 4: memory that C allocated becomes a NumPy array, or typed memoryviews made in
# nogil code, that free it exactly once, with the caller's deallocator, when the last user lets
# go; a const pointer and length from a C library become a read-only bytes-like object, with no
# copy.
from libc.stdlib cimport malloc, free
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_buffer_wrap, mvs_buffer_view, mvs_buffer_release, mvs_pyx_check,
    MVS_BUFFER_READONLY, f64,
)
from memviewslice.owners cimport BufferExport, export

cdef extern from *:
    """
    /* A C library's deallocator, counting its calls, and a C library's constant data. */
    static long handoff_frees = 0;
    static void handoff_free(void *data, void *ctx) { (void)ctx; handoff_frees++; free(data); }
    static const char handoff_greeting[] = "memory from a C library, read-only";
    """
    long handoff_frees
    void handoff_free(void *data, void *ctx) noexcept nogil
    const char handoff_greeting[]


def frees():
    """How many times handoff_free has run."""
    return handoff_frees


def c_matrix(Py_ssize_t rows, Py_ssize_t cols):
    """A (rows, cols) float64 matrix in memory from malloc, filled in nogil code, handed to
    Python: the result owns it, and handoff_free frees it once the last user is gone. Every
    error path frees the memory or releases the buffer that owns it."""
    cdef Py_ssize_t shape[2]
    cdef mvs_slice view
    cdef mvs_buffer *buffer
    cdef double *data = <double *>malloc(rows * cols * sizeof(double))
    cdef Py_ssize_t i
    if data == NULL:
        raise MemoryError()
    shape[0], shape[1] = rows, cols
    with nogil:
        for i in range(rows * cols):
            data[i] = i
    try:
        mvs_pyx_check(mvs_buffer_wrap(data, rows * cols * sizeof(double), handoff_free, NULL, 0, &buffer))
    except:
        free(data)  # not wrapped: still ours
        raise
    try:
        mvs_pyx_check(mvs_buffer_view(buffer, sizeof(double), 2, shape, b'C', &view))
        return export(buffer, &view, 2, sizeof(double), b'd')  # np.asarray(...) shares it
    finally:
        mvs_buffer_release(buffer)  # our reference; the export holds its own


def c_matrix_views(Py_ssize_t rows, Py_ssize_t cols):
    """The same matrix, handed out as typed memoryviews made in nogil code: the whole matrix
    and its last row. The buffer's reference is released at once; the views (and any NumPy
    array made from them) keep the memory, which handoff_free frees once, after the last."""
    cdef Py_ssize_t shape[2]
    cdef mvs_buffer *buffer
    cdef double *data = <double *>malloc(rows * cols * sizeof(double))
    cdef double[:, :] m
    cdef double[:] last
    cdef Py_ssize_t i
    if data == NULL:
        raise MemoryError()
    shape[0], shape[1] = rows, cols
    for i in range(rows * cols):
        data[i] = i
    try:
        mvs_pyx_check(mvs_buffer_wrap(data, rows * cols * sizeof(double), handoff_free, NULL, 0, &buffer))
    except:
        free(data)
        raise
    try:
        with nogil:
            m = f64.from_buffer_2d(buffer, 0, shape, 'C')   # the first view of the buffer takes
            last = f64.index_axis_2d(m, 0, rows - 1)        # the GIL once; the rest, none
    finally:
        mvs_buffer_release(buffer)  # the views keep the memory
    return m, last


def greeting():
    """The C library's constant string as a read-only bytes-like object (no copy; the memory
    is the library's own, so there is no deallocator)."""
    cdef Py_ssize_t n = sizeof(handoff_greeting) - 1
    cdef mvs_slice view
    cdef mvs_buffer *buffer
    mvs_pyx_check(mvs_buffer_wrap(<void *>handoff_greeting, n, NULL, NULL, MVS_BUFFER_READONLY, &buffer))
    try:
        mvs_pyx_check(mvs_buffer_view(buffer, 1, 1, &n, b'C', &view))
        return export(buffer, &view, 1, 1, b'B')
    finally:
        mvs_buffer_release(buffer)
