# cython: boundscheck=False, wraparound=False
# The ownership test of the Cython layer (driven by test_own.py): BufferExport, typed
# memoryviews of buffers (f64.from_buffer_2d) and mvs_pool from Cython, with a counting
# deallocator.
from cpython.buffer cimport (
    PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS,
    PyBUF_ANY_CONTIGUOUS,
)
from cython.parallel cimport prange
from libc.stdlib cimport malloc, free
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_pool, mvs_buffer_wrap, mvs_buffer_view, mvs_buffer_release,
    mvs_buffer_refcount, mvs_pool_create, mvs_pool_acquire, mvs_pool_release, mvs_pool_counts,
    mvs_pool_destroy, mvs_pyx_check, MVS_BUFFER_READONLY, mvs_slice_axis, mvs_buffer_retain,
)
from memviewslice cimport f64
from memviewslice cimport mvs_dl_data_type
from memviewslice.owners cimport BufferExport, export, exchange_api, import_dlpack

cdef extern from *:
    """
    static long own_test_frees = 0;
    static void own_test_free(void *data, void *ctx) {
        __atomic_fetch_add(&own_test_frees, 1, __ATOMIC_SEQ_CST);
        free(data);
    }
    static long own_test_freed(void) { return __atomic_load_n(&own_test_frees, __ATOMIC_SEQ_CST); }
    """
    void own_test_free(void *data, void *ctx) noexcept nogil
    long own_test_freed() noexcept nogil


def freed():
    """How many blocks the counting deallocator has freed so far."""
    return own_test_freed()


cdef extern from *:
    """
    /* Bytes of the C heap in use (glibc's mallinfo2: the arenas' allocated chunks and the
       mmapped ones), or -1 where there is no mallinfo2. The contiguous copies' memory is the
       library's own, allocated and freed inside memviewslice.owners' copy of it (the last
       memory reference is the owner's export's): this sees it come and go. */
    #if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    #include <malloc.h>
    static long long own_test_heap_in_use(void) {
        struct mallinfo2 m = mallinfo2();
        return (long long)(m.uordblks + m.hblkhd);
    }
    #else
    static long long own_test_heap_in_use(void) { return -1; }
    #endif
    """
    long long own_test_heap_in_use() noexcept nogil


def heap_in_use():
    """Bytes of the C heap in use (-1: unknown, not glibc)."""
    return own_test_heap_in_use()


def handoff(Py_ssize_t rows, Py_ssize_t cols, bint readonly=False, int first=0, order='C'):
    """A (rows, cols) float64 matrix in malloc'd memory (item k = first + k), owned by an
    export; the creator's buffer reference is released before returning. Also returns the
    buffer's reference count as seen just before that release (2: creator and export)."""
    cdef Py_ssize_t shape[2]
    cdef mvs_slice view
    cdef mvs_buffer *buffer
    cdef Py_ssize_t i, count
    cdef double *data = <double *>malloc(max(rows * cols, 1) * sizeof(double))
    for i in range(rows * cols):
        data[i] = first + i
    shape[0], shape[1] = rows, cols
    mvs_pyx_check(mvs_buffer_wrap(data, rows * cols * sizeof(double), own_test_free, NULL,
                                  MVS_BUFFER_READONLY if readonly else 0, &buffer))
    try:
        mvs_pyx_check(mvs_buffer_view(buffer, sizeof(double), 2, shape, ord(order), &view))
        e = export(buffer, &view, 2, sizeof(double), b'd')
        mvs_pyx_check(mvs_buffer_refcount(buffer, &count))
        return e, count
    finally:
        mvs_buffer_release(buffer)


def export_errors():
    """The error messages of export()'s refusals: a view past the buffer's end, a format
    of the wrong size; the block is freed once all the same."""
    cdef Py_ssize_t shape[2]
    cdef mvs_slice view
    cdef mvs_buffer *buffer
    messages = []
    mvs_pyx_check(mvs_buffer_wrap(malloc(64), 64, own_test_free, NULL, 0, &buffer))
    shape[0], shape[1] = 4, 2
    mvs_pyx_check(mvs_buffer_view(buffer, sizeof(double), 2, shape, b'C', &view))
    view.shape[0] = 5  # now 80 bytes over a 64-byte buffer
    messages.append(export_message(buffer, &view, b'd'))
    view.shape[0] = 4
    messages.append(export_message(buffer, &view, b'f'))
    mvs_buffer_release(buffer)
    return messages


def writable_request(obj):
    """Requests a writable buffer from obj (PyBUF_WRITABLE); raises what obj raises."""
    cdef Py_buffer view
    PyObject_GetBuffer(obj, &view, PyBUF_WRITABLE)
    PyBuffer_Release(&view)


def contiguous_request(obj, order):
    """Requests a C-, F- or any-contiguous buffer ('C', 'F', 'A') from obj; raises what obj
    raises, else returns the strides it got."""
    cdef Py_buffer view
    cdef int flags = {'C': PyBUF_C_CONTIGUOUS, 'F': PyBUF_F_CONTIGUOUS, 'A': PyBUF_ANY_CONTIGUOUS}[order]
    PyObject_GetBuffer(obj, &view, flags)
    strides = tuple(view.strides[i] for i in range(view.ndim))
    PyBuffer_Release(&view)
    return strides


def typed(double[:, :] m):
    """A typed memoryview consumer that stays alive: Cython's memoryview of m."""
    return m


def sum_rows(double[:, :] m):
    """A typed memoryview consumer: the sum of m, read in nogil code."""
    cdef double total = 0
    cdef Py_ssize_t i, j
    with nogil:
        for i in range(m.shape[0]):
            for j in range(m.shape[1]):
                total += m[i, j]
    return total


def pool_hammer(int threads, Py_ssize_t n, Py_ssize_t capacity):
    """`threads` threads, `n` acquire/write/check/release rounds in all, on one pool of (3, 3)
    float64 arrays: each thread writes its round number into every item of the array it holds
    and checks it reads it back (another holder of the same array would break that). Returns
    (bad reads, arrays in the pool, arrays still acquired)."""
    cdef mvs_pool *pool
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t i, bad = 0, arrays, acquired
    shape[0], shape[1] = 3, 3
    mvs_pyx_check(mvs_pool_create(sizeof(double), 2, shape, b'C', capacity, &pool))
    try:
        for i in prange(n, nogil=True, num_threads=threads, schedule='static', chunksize=64):
            bad += pool_round(pool, i)
        mvs_pyx_check(mvs_pool_counts(pool, &arrays, &acquired))
        return bad, arrays, acquired
    finally:
        mvs_pool_destroy(pool)


cdef Py_ssize_t pool_round(mvs_pool *pool, Py_ssize_t round) noexcept nogil:
    """One acquire/write/check/release round (its locals are this thread's own): the number
    of failures."""
    cdef mvs_slice v
    cdef Py_ssize_t k, bad = 0
    if mvs_pool_acquire(pool, &v) != 0:
        return 1
    cdef double *p = <double *>v.data
    for k in range(9):
        p[k] = round
    for k in range(9):
        if p[k] != round:
            bad += 1
    if mvs_pool_release(pool, &v) != 0:
        bad += 1
    return bad


def pool_errors():
    """The errors of releasing a view the pool did not hand out, and of releasing twice."""
    cdef mvs_pool *pool
    cdef Py_ssize_t shape[2]
    cdef mvs_slice v, other
    shape[0], shape[1] = 3, 3
    mvs_pyx_check(mvs_pool_create(sizeof(double), 2, shape, b'C', 2, &pool))
    messages = []
    try:
        mvs_pyx_check(mvs_pool_acquire(pool, &v))
        other = v
        other.data = other.data + 8  # inside the pool's array, but not one it handed out
        messages.append(release_message(pool, &other))
        messages.append(release_message(pool, &v))
        messages.append(release_message(pool, &v))
    finally:
        mvs_pool_destroy(pool)
    return messages


cdef str release_message(mvs_pool *pool, mvs_slice *view):
    try:
        mvs_pyx_check(mvs_pool_release(pool, view))
        return "ok"
    except ValueError as e:
        return str(e)


cdef str export_message(mvs_buffer *buffer, mvs_slice *view, fmt):
    try:
        export(buffer, view, 2, sizeof(double), fmt)
        return "ok"
    except ValueError as e:
        return str(e)


# --- views of buffers: from_buffer_2d and from_buffer_const_2d -----------------------------------

cdef class Holder:
    """One reference to a buffer of float64 items, for Python to make more views of it; released
    when the Holder goes."""
    cdef mvs_buffer *buffer

    def __dealloc__(self):
        mvs_buffer_release(self.buffer)  # NULL is a no-op

    def view(self, Py_ssize_t offset, Py_ssize_t rows, Py_ssize_t cols, order='C'):
        """f64.from_buffer_2d of the buffer (in nogil): a writable (rows, cols) view, C or F
        order, from item `offset`. (The order as an int: the deprecated spelling, which works
        for one more release; const_view gives it as a Py_UCS4, test_ops.py's test_units the
        literals.)"""
        cdef Py_ssize_t shape[2]
        cdef int o = ord(order)
        cdef double[:, :] v
        shape[0], shape[1] = rows, cols
        with nogil:
            v = f64.from_buffer_2d(self.buffer, offset, shape, o)
        return v

    def const_view(self, Py_ssize_t offset, Py_ssize_t rows, Py_ssize_t cols, order='C'):
        """f64.from_buffer_const_2d of the buffer (in nogil), as view()."""
        cdef Py_ssize_t shape[2]
        cdef Py_UCS4 o = order
        cdef const double[:, :] v
        shape[0], shape[1] = rows, cols
        with nogil:
            v = f64.from_buffer_const_2d(self.buffer, offset, shape, o)
        return v


def buffer_handoff(Py_ssize_t rows, Py_ssize_t cols, int first=0, bint readonly=False, bint keep=False):
    """A (rows, cols) float64 matrix in malloc'd memory (item k = first + k, freed by
    own_test_free) handed to Python as a typed memoryview of its buffer: f64.from_buffer_2d
    (from_buffer_const_2d for read-only memory), made in nogil; the creator's reference is
    released before returning. Returns (the view, a Holder of another reference when keep, else
    None)."""
    cdef Py_ssize_t shape[2]
    cdef mvs_buffer *buffer
    cdef Py_ssize_t i
    cdef double[:, :] v
    cdef const double[:, :] cv
    cdef Holder holder = None
    cdef double *data = <double *>malloc(max(rows * cols, 1) * sizeof(double))
    if data == NULL:
        raise MemoryError()
    for i in range(rows * cols):
        data[i] = first + i
    shape[0], shape[1] = rows, cols
    try:
        mvs_pyx_check(mvs_buffer_wrap(data, rows * cols * sizeof(double), own_test_free, NULL,
                                      MVS_BUFFER_READONLY if readonly else 0, &buffer))
    except BaseException:
        free(data)
        raise
    try:
        if keep:
            holder = Holder.__new__(Holder)
            mvs_pyx_check(mvs_buffer_retain(buffer))
            holder.buffer = buffer
        if readonly:
            with nogil:
                cv = f64.from_buffer_const_2d(buffer, 0, shape, 'C')
            return cv, holder
        with nogil:
            v = f64.from_buffer_2d(buffer, 0, shape, 'C')
        return v, holder
    finally:
        mvs_buffer_release(buffer)


def cy_slice(const double[:, :] m):
    """Cython's own slicing of a typed memoryview: m[1:, ::-1]."""
    return m[1:, ::-1]


def cy_transpose(const double[:, :] m):
    """Cython's own transpose of a typed memoryview: m.T."""
    return m.T


def mvs_transpose(double[:, :] m):
    """f64.transpose_2d of a writable typed memoryview, in nogil."""
    cdef double[:, :] t
    with nogil:
        t = f64.transpose_2d(m)
    return t


def corner(const double[:, :] m):
    """m[0, 0], read through a typed memoryview."""
    return m[0, 0]


# --- contiguous copies: copy_c_2d and copy_f_2d ------------------------------------------------

def copy_handoff(const double[:, :] src, order='C'):
    """f64.copy_c_2d(src) (copy_f_2d for order 'F'), made in nogil: a new buffer that nothing
    but the returned copy holds."""
    cdef double[:, ::1] c
    cdef double[::1, :] f
    if order == 'C':
        with nogil:
            c = f64.copy_c_2d(src)
        return c
    with nogil:
        f = f64.copy_f_2d(src)
    return f


cdef double copy_and_drop(const double[:, :] src, Py_ssize_t i) except? -1 nogil:
    """A copy of src (C order for even i, F for odd), one item read through a derived view, then
    dropped in nogil code at return (its last view: Cython takes the GIL to free it)."""
    cdef double[:, ::1] c
    cdef double[::1, :] f
    cdef double[:, :] t
    if i % 2:
        f = f64.copy_f_2d(src)
        t = f64.transpose_2d(f)
    else:
        c = f64.copy_c_2d(src)
        t = f64.transpose_2d(c)
    return t[t.shape[0] - 1, 0]


def copies_dropped_in_nogil(const double[:, :] src, Py_ssize_t n):
    """n copies of src, each made, read and dropped in nogil code: the sum of the items read
    (src[0, -1] each)."""
    cdef double total = 0
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            total += copy_and_drop(src, i)
    return total


def imported(x):
    """owners.import_dlpack(x) as (data address, shape, byte strides, itemsize, DLPack code,
    bits, whether x's type has an exchange API, and for float64 the item at the buffer's start,
    its lowest address, read through a typed view of the buffer made in nogil code); the buffer
    released before returning."""
    cdef mvs_slice view
    cdef int ndim, k
    cdef Py_ssize_t itemsize
    cdef mvs_dl_data_type dtype
    cdef mvs_buffer *buffer = NULL
    cdef double first = 0
    cdef Py_ssize_t shape[1]
    import_dlpack(x, &view, &ndim, &itemsize, &dtype, &buffer)
    try:
        if dtype.code == 2 and dtype.bits == 64 and ndim > 0 and view.shape[0] > 0:
            shape[0] = 1
            with nogil:
                first = f64.from_buffer_1d(buffer, 0, shape, 'C')[0]
        return (<Py_ssize_t>view.data, tuple(view.shape[k] for k in range(ndim)),
                tuple(view.strides[k] for k in range(ndim)), itemsize, dtype.code, dtype.bits,
                exchange_api(type(x)) != NULL, first)
    finally:
        mvs_buffer_release(buffer)
