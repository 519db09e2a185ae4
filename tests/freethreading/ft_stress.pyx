# cython: freethreading_compatible = True, boundscheck = False, wraparound = False
# The free-threading stress module (driven by test_freethreading.py): the work one thread does
# on memory it shares with the others, through the typed helpers of the package, in nogil code
# where the helpers allow it. Declared free-threading compatible, as a user's module would be:
# importing it must leave the GIL off on a free-threaded CPython.
from libc.stdint cimport int32_t, uint8_t
from libc.stdlib cimport malloc, free
from memviewslice cimport mvs_buffer, mvs_buffer_wrap, mvs_buffer_retain, mvs_buffer_release, mvs_pyx_check
from memviewslice cimport f64, i32, u8, c128
from memviewslice.owners cimport Pool

cdef extern from *:
    """
    #include <string.h>
    /* The counting deallocator: it poisons the block first (all bytes 0xFF: NaN as a double),
       so that a view still reading the memory after it ran sees the poison, not its pattern. */
    static long ft_frees = 0;
    static void ft_free(void *data, void *ctx) {
        memset(data, 0xFF, (size_t)ctx);
        __atomic_fetch_add(&ft_frees, 1, __ATOMIC_SEQ_CST);
        free(data);
    }
    static long ft_freed(void) { return __atomic_load_n(&ft_frees, __ATOMIC_SEQ_CST); }
    """
    void ft_free(void *data, void *ctx) noexcept nogil
    long ft_freed() noexcept nogil


def freed():
    """How many blocks the counting deallocator has freed."""
    return ft_freed()


cdef mvs_buffer *new_buffer(Py_ssize_t n, double first) except NULL:
    """A buffer over n malloc'd float64 items first, first + 1, ... (freed by ft_free)."""
    cdef mvs_buffer *buffer
    cdef Py_ssize_t i
    cdef double *data = <double *>malloc(n * sizeof(double))
    if data == NULL:
        raise MemoryError()
    for i in range(n):
        data[i] = first + i
    try:
        mvs_pyx_check(mvs_buffer_wrap(data, n * sizeof(double), ft_free, <void *><size_t>(n * sizeof(double)), 0, &buffer))
    except BaseException:
        free(data)
        raise
    return buffer


cdef Py_ssize_t check_pattern(const double[:, :] v, double first, Py_ssize_t cols) noexcept nogil:
    """How many items of v (a (rows, cols) C-order view from item 0) are not their pattern."""
    cdef Py_ssize_t i, j, bad = 0
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            if v[i, j] != first + i * cols + j:
                bad += 1
    return bad


cdef class Shared:
    """One reference to a (rows, cols) float64 buffer of the pattern first + k, which threads
    make views of; release() gives the reference back (the views keep the memory)."""
    cdef mvs_buffer *buffer
    cdef readonly Py_ssize_t rows, cols
    cdef readonly double first

    def __cinit__(self, Py_ssize_t rows, Py_ssize_t cols, double first):
        self.rows, self.cols, self.first = rows, cols, first
        self.buffer = new_buffer(rows * cols, first)

    def __dealloc__(self):
        mvs_buffer_release(self.buffer)  # NULL is a no-op

    def release(self):
        mvs_buffer_release(self.buffer)
        self.buffer = NULL

    def view(self):
        """A typed memoryview of the whole buffer (f64.from_buffer_2d, in nogil: the first view
        of the buffer makes its owner, which racing threads make at once) and the number of its
        items that are not the pattern, read through a transposed and a const view of it."""
        cdef Py_ssize_t shape[2]
        cdef double[:, :] v
        cdef double[:, :] t
        cdef const double[:, :] c
        cdef Py_ssize_t bad = 0
        shape[0], shape[1] = self.rows, self.cols
        with nogil:
            v = f64.from_buffer_2d(self.buffer, 0, shape, 'C')
            c = f64.from_buffer_const_2d(self.buffer, 0, shape, 'C')
            t = f64.transpose_2d(v)
            bad = check_pattern(v, self.first, self.cols) + check_pattern(c, self.first, self.cols)
            bad += check_pattern(f64.transpose_2d(t), self.first, self.cols)
        return v, bad


def check(const double[:, :] v, double first):
    """How many items of a view that Shared.view gave are not their pattern (in nogil)."""
    cdef Py_ssize_t bad
    with nogil:
        bad = check_pattern(v, first, v.shape[1])
    return bad


def raw_views(Py_ssize_t rounds):
    """`rounds` views of raw memory in four dtypes (from_pointer_2d: each dtype's first view in
    this module makes its owner), each derived and read back, in nogil; the mismatches."""
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t r, i, j, bad = 0
    cdef double[:, :] d
    cdef int32_t[:, :] n
    cdef uint8_t[:, :] b
    cdef double complex[:, :] z
    cdef double *dm = <double *>malloc(12 * sizeof(double))
    cdef int32_t *nm = <int32_t *>malloc(12 * sizeof(int32_t))
    cdef uint8_t *bm = <uint8_t *>malloc(12)
    cdef double complex *zm = <double complex *>malloc(12 * sizeof(double complex))
    if not (dm and nm and bm and zm):
        free(dm); free(nm); free(bm); free(zm)
        raise MemoryError()
    for i in range(12):
        dm[i], nm[i], bm[i], zm[i] = i, i, i, i
    shape[0], shape[1] = 3, 4
    try:
        with nogil:
            for r in range(rounds):
                d = f64.from_pointer_2d(dm, shape, 'C')
                n = i32.transpose_2d(i32.from_pointer_2d(nm, shape, 'C'))
                b = u8.from_pointer_2d(bm, shape, 'F')
                z = c128.from_pointer_2d(zm, shape, 'C')
                for i in range(3):
                    for j in range(4):
                        bad += (d[i, j] != i * 4 + j) + (n[j, i] != i * 4 + j) + (b[i, j] != i + 3 * j)
                        bad += z[i, j].real != i * 4 + j
    finally:
        free(dm); free(nm); free(bm); free(zm)
    return bad


def own_buffers(Py_ssize_t rounds):
    """`rounds` buffers of this thread's own: made, viewed (the first view makes the owner), the
    reference released while the views live, the views read back and dropped: the memory is
    freed then, once each. The mismatches."""
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t r, bad = 0
    cdef mvs_buffer *buffer
    cdef double[:, :] v
    cdef const double[:, :] c
    shape[0], shape[1] = 4, 5
    for r in range(rounds):
        buffer = new_buffer(20, r)
        with nogil:
            v = f64.from_buffer_2d(buffer, 0, shape, 'C')
            c = f64.slice_axis_const_2d(f64.from_buffer_const_2d(buffer, 0, shape, 'C'), 1, 1, 5, 2)
            mvs_buffer_release(buffer)
            bad += check_pattern(v, r, 5)
            bad += (c[3, 1] != r + 3 * 5 + 3)
            v = f64.copy_c_2d(f64.transpose_2d(v))  # drops the buffer's view
            bad += (v[4, 3] != r + 3 * 5 + 4)
            c = v  # drops the last view of the buffer
    return bad


def pool_rounds(Pool pool not None, Py_ssize_t rounds, double tag):
    """`rounds` arrays of a shared pool of (3, 3) float64 arrays (pool_acquire_2d, in nogil):
    each filled with `tag` (distinct per thread), read back after the others had time to
    write theirs, and given back. An array handed to two holders breaks the read-back; the
    mismatches."""
    cdef Py_ssize_t r, i, j, bad = 0
    cdef double[:, ::1] a
    with nogil:
        for r in range(rounds):
            a = f64.pool_acquire_2d(pool.pool)
            for i in range(3):
                for j in range(3):
                    a[i, j] = tag + r
            for i in range(3):
                for j in range(3):
                    bad += a[i, j] != tag + r
            f64.pool_release_2d(pool.pool, a)
    return bad


def copy_transposed(double[:, :] src):
    """A C-contiguous copy of src.T (f64.copy_c_2d, in nogil)."""
    cdef double[:, ::1] r
    with nogil:
        r = f64.copy_c_2d(f64.transpose_2d(src))
    return r
