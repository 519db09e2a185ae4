# cython: boundscheck=False, wraparound=False
# DLPack: a C producer hands a view of its memory to NumPy (np.from_dlpack shares it, and the
# memory is freed once, by the producer's deallocator, after NumPy's last user), and a NumPy
# array comes back as a typed memoryview used in nogil code, sharing the array's memory and
# keeping it alive.
from libc.stdlib cimport malloc, free
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_buffer_wrap, mvs_buffer_view, mvs_buffer_release, mvs_transpose,
    mvs_pyx_check,
)
from memviewslice.owners cimport BufferExport, export
from memviewslice.owners import from_dlpack

cdef extern from *:
    """
    /* A C library's deallocator, counting its calls. */
    static long dlpack_frees = 0;
    static void dlpack_free(void *data, void *ctx) { (void)ctx; dlpack_frees++; free(data); }
    """
    long dlpack_frees
    void dlpack_free(void *data, void *ctx) noexcept nogil


def frees():
    """How many times dlpack_free has run."""
    return dlpack_frees


def c_producer(Py_ssize_t rows, Py_ssize_t cols):
    """The transpose of a (rows, cols) int32 matrix that C allocates and fills in nogil code, as
    an object with __dlpack__: np.from_dlpack(it) shares the memory, which dlpack_free frees
    once, after the last user."""
    cdef Py_ssize_t shape[2]
    cdef mvs_slice view
    cdef mvs_buffer *buffer
    cdef int *data = <int *>malloc(rows * cols * sizeof(int))
    cdef Py_ssize_t i
    if data == NULL:
        raise MemoryError()
    shape[0], shape[1] = rows, cols
    with nogil:
        for i in range(rows * cols):
            data[i] = <int>i
    try:
        mvs_pyx_check(mvs_buffer_wrap(data, rows * cols * sizeof(int), dlpack_free, NULL, 0, &buffer))
    except:
        free(data)  # not wrapped: still ours
        raise
    try:
        mvs_pyx_check(mvs_buffer_view(buffer, sizeof(int), 2, shape, b'C', &view))
        mvs_pyx_check(mvs_transpose(&view, 2, &view))
        return export(buffer, &view, 2, sizeof(int), b'i')  # __dlpack__ and the buffer protocol
    finally:
        mvs_buffer_release(buffer)  # ours; the export holds its own


cdef double trace_nogil(double[:, :] m) noexcept nogil:
    cdef double total = 0
    cdef Py_ssize_t i
    for i in range(min(m.shape[0], m.shape[1])):
        total += m[i, i]
    return total


def trace(x):
    """The trace of any 2-d float64 DLPack producer (a NumPy array), computed in nogil code on a
    typed memoryview that shares its memory (no copy; strides of any sign)."""
    cdef double[:, :] m = from_dlpack(x)  # with the GIL, once
    cdef double t
    with nogil:
        t = trace_nogil(m)
    return t


def scale(x, double factor):
    """Multiplies a 2-d float64 producer's items by `factor` in place, in nogil code."""
    cdef double[:, :] m = from_dlpack(x)
    cdef Py_ssize_t i, j
    with nogil:
        for i in range(m.shape[0]):
            for j in range(m.shape[1]):
                m[i, j] *= factor
