# cython: boundscheck=False, wraparound=False
# DLPack: a C producer hands a view of its memory to NumPy (np.from_dlpack shares it, and the
# memory is freed once, after NumPy's last user), and a NumPy array comes back as a typed
# memoryview used in nogil code, sharing the array's memory and keeping it alive.
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_buffer_alloc, mvs_buffer_attach, mvs_buffer_data, mvs_buffer_view,
    mvs_buffer_release, mvs_transpose, mvs_pyx_check,
)
from memviewslice.owners cimport BufferExport, export
from memviewslice.owners import from_dlpack

cdef extern from *:
    """
    /* Counts the buffers whose last reference is gone (a detach callback of mvs_buffer_attach). */
    static long dlpack_released = 0;
    static char dlpack_key;
    static void dlpack_count(void *value) { (void)value; dlpack_released++; }
    """
    long dlpack_released
    char dlpack_key
    void dlpack_count(void *value) noexcept nogil


def released():
    """How many of c_producer's buffers have been released by their last user."""
    return dlpack_released


def c_producer(Py_ssize_t rows, Py_ssize_t cols):
    """The transpose of a (rows, cols) int32 matrix that C allocates (a buffer of the library)
    and fills in nogil code, as an object with __dlpack__: np.from_dlpack(it) shares the
    memory, which is freed once, after the last user (dlpack_count then runs)."""
    cdef Py_ssize_t shape[2]
    cdef mvs_slice view
    cdef mvs_buffer *buffer
    cdef int *data
    cdef void *attached
    cdef Py_ssize_t i
    shape[0], shape[1] = rows, cols
    mvs_pyx_check(mvs_buffer_alloc(rows * cols * sizeof(int), sizeof(int), 0, &buffer))
    try:
        mvs_pyx_check(mvs_buffer_attach(buffer, &dlpack_key, <void *>1, dlpack_count, &attached))
        mvs_pyx_check(mvs_buffer_data(buffer, <void **>&data))
        with nogil:
            for i in range(rows * cols):
                data[i] = <int>i
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
