# cython: show_performance_hints=False
# The GIL and reference-count test of the Cython bridge (driven by tests/cython/test_gil.py).
#
# Built with `tools/build_ext.py --wrap-gil --openmp`: the link renames every call this module
# makes to PyGILState_Ensure (Cython's `with gil`, and its own acquisitions when a memoryview's
# acquisition count goes 0 -> 1 or 1 -> 0 without the GIL) to __wrap_PyGILState_Ensure below,
# which counts it. The same source is built as C and C++, with boundscheck/initializedcheck on
# and off (directives on the command line), under distinct module names.
cimport cython
from libc.string cimport memcpy
from libc.stdlib cimport malloc, free
from cython.parallel cimport prange
cimport openmp
cimport memviewslice as mvs
from memviewslice cimport mvs_slice, mvs_index_item, MVS_ITEM_INDEX, MVS_ITEM_SLICE, MVS_NONE
from memviewslice cimport mvs_buffer, mvs_pool, mvs_buffer_wrap, mvs_buffer_release
from memviewslice cimport f64
from memviewslice.owners cimport Pool

cdef extern from *:
    """
    #ifdef __cplusplus
    extern "C" {
    #endif
    PyGILState_STATE __real_PyGILState_Ensure(void);
    PyGILState_STATE __wrap_PyGILState_Ensure(void);
    #ifdef __cplusplus
    }
    #endif
    static long gil_test_ensure_calls = 0;
    /* Not static: the linker's --wrap=PyGILState_Ensure sends this module's calls here. */
    #ifdef __cplusplus
    extern "C"
    #endif
    PyGILState_STATE __wrap_PyGILState_Ensure(void) {
        __atomic_fetch_add(&gil_test_ensure_calls, 1, __ATOMIC_SEQ_CST);
        return __real_PyGILState_Ensure();
    }
    static long gil_test_ensures(void) {
        return __atomic_load_n(&gil_test_ensure_calls, __ATOMIC_SEQ_CST);
    }
    /* Cython 3 keeps a memoryview object's slice count in the `acquisition_count` field of
       struct __pyx_memoryview_obj, reached through __pyx_get_slice_count_pointer (there is no
       __pyx_get_slice_count in 3.3.1); Cython 0.29 in an aligned slot of an array, which
       __pyx_get_slice_count_pointer gives too. -1 for an unset view. Macros: expanded where
       used, after Cython's definitions. */
    #if CYTHON_HEX_VERSION < 0x03000000
    #define gil_test_acq_of(mv) ((long)*__pyx_get_slice_count_pointer(mv))
    #elif CYTHON_ATOMICS
    #define gil_test_acq_of(mv) ((long)__pyx_atomic_load(__pyx_get_slice_count_pointer(mv)))
    #else
    #define gil_test_acq_of(mv) ((long)(mv)->acquisition_count)
    #endif
    #define gil_test_acq(view) ((view).memview ? gil_test_acq_of((view).memview) : -1L)
    #define gil_test_memview_refcnt(view) \\
        ((view).memview ? (long)Py_REFCNT((PyObject *)(view).memview) : -1L)
    /* The deallocator of the buffers made here (malloc'd memory): counts, then frees. */
    static long gil_test_frees = 0;
    static void gil_test_free(void *data, void *ctx) {
        (void)ctx;
        __atomic_fetch_add(&gil_test_frees, 1, __ATOMIC_SEQ_CST);
        free(data);
    }
    static long gil_test_freed(void) { return __atomic_load_n(&gil_test_frees, __ATOMIC_SEQ_CST); }
    """
    void gil_test_free(void *data, void *ctx) noexcept nogil
    long gil_test_freed() nogil
    long gil_test_ensures() nogil
    long gil_test_acq(...) nogil
    long gil_test_memview_refcnt(...)


def ensures():
    """How many times this module has called PyGILState_Ensure so far."""
    return gil_test_ensures()


# --- 1. every helper kind, on success -------------------------------------------------------

KINDS = ("slice_axis", "index_axis", "index", "reshape", "subview", "transpose", "permute",
         "swap_axes", "move_axes", "broadcast_to", "expand_dims", "squeeze_axis", "squeeze",
         "diagonal", "flip_axis", "flip", "sliding_window", "from_slice")
# The source each kind derives from (test_gil.py builds the NumPy expectation from it).
SOURCES = ("a2", "a3", "a3", "a2", "a1", "a2", "a3", "a3", "a3", "a2", "a2", "s3", "s3", "a2",
           "a2", "a2", "a2", "a2")

cdef inline mvs_index_item index_item(int kind, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t step) noexcept nogil:
    """An index item, field by field: Cython 0.29 builds a struct literal only with the GIL."""
    cdef mvs_index_item item
    item.kind, item.start, item.stop, item.step = kind, start, stop, step
    return item


cdef int run_kind(int kind, double[::1] a1, double[:, ::1] a2, double[:, :, ::1] a3,
                  double[:, :, ::1] s3, Py_ssize_t n, mvs_slice *last, int *last_ndim,
                  double *first) except -1 nogil:
    """Derives a view of kind `kind` n times, each into the kind's own typed local (the previous
    result dropped by the assignment, the last one when this function returns), and copies the
    last result's struct (no acquisition) into *last (memcpy: no type-punned dereference) and
    its first element into *first. That read follows a loop that may run 0 times, so Cython
    checks it (the view's initialization, with initializedcheck; the index, with boundscheck)."""
    cdef Py_ssize_t i
    cdef mvs_index_item items[3]
    cdef Py_ssize_t shape[3]
    cdef int axes[3]
    cdef int source[1]
    cdef int destination[1]
    cdef mvs_slice pieces[3]
    cdef double[:, :] r_slice_axis
    cdef double[:, :] r_index_axis
    cdef double[:, :] r_index
    cdef double[:, :, :] r_reshape
    cdef double[:, :] r_subview
    cdef double[:, :] r_transpose
    cdef double[:, :, :] r_permute
    cdef double[:, :, :] r_swap_axes
    cdef double[:, :, :] r_move_axes
    cdef double[:, :, :] r_broadcast_to
    cdef double[:, :, :] r_expand_dims
    cdef double[:, :] r_squeeze_axis
    cdef double[:, :] r_squeeze
    cdef double[:] r_diagonal
    cdef double[:, :] r_flip_axis
    cdef double[:, :] r_flip
    cdef double[:, :, :] r_sliding_window
    cdef double[:, :] r_from_slice

    if kind == 0:    # a2[:, 1:5:2]
        for i in range(n):
            r_slice_axis = f64.slice_axis_2d(a2, 1, 1, 5, 2)
        memcpy(last, mvs.mvs_pyx_src(r_slice_axis), sizeof(mvs_slice))
        first[0] = r_slice_axis[0, 0]
        last_ndim[0] = 2
    elif kind == 1:  # a3[:, 2, :]
        for i in range(n):
            r_index_axis = f64.index_axis_3d(a3, 1, 2)
        memcpy(last, mvs.mvs_pyx_src(r_index_axis), sizeof(mvs_slice))
        first[0] = r_index_axis[0, 0]
        last_ndim[0] = 2
    elif kind == 2:  # a3[-1, ::2, 1:4]
        items[0] = index_item(MVS_ITEM_INDEX, -1, 0, 0)
        items[1] = index_item(MVS_ITEM_SLICE, MVS_NONE, MVS_NONE, 2)
        items[2] = index_item(MVS_ITEM_SLICE, 1, 4, MVS_NONE)
        for i in range(n):
            r_index = f64.index_3d_2d(a3, items, 3)
        memcpy(last, mvs.mvs_pyx_src(r_index), sizeof(mvs_slice))
        first[0] = r_index[0, 0]
        last_ndim[0] = 2
    elif kind == 3:  # a2.reshape(3, -1, 2)
        shape[0] = 3
        shape[1] = -1
        shape[2] = 2
        for i in range(n):
            r_reshape = f64.reshape_2d_3d(a2, shape, 'C')
        memcpy(last, mvs.mvs_pyx_src(r_reshape), sizeof(mvs_slice))
        first[0] = r_reshape[0, 0, 0]
        last_ndim[0] = 3
    elif kind == 4:  # a1[4:24].reshape(4, 5)
        shape[0] = 4
        shape[1] = 5
        for i in range(n):
            r_subview = f64.subview_1d_2d(a1, 4, shape, 'C')
        memcpy(last, mvs.mvs_pyx_src(r_subview), sizeof(mvs_slice))
        first[0] = r_subview[0, 0]
        last_ndim[0] = 2
    elif kind == 5:  # a2.T
        for i in range(n):
            r_transpose = f64.transpose_2d(a2)
        memcpy(last, mvs.mvs_pyx_src(r_transpose), sizeof(mvs_slice))
        first[0] = r_transpose[0, 0]
        last_ndim[0] = 2
    elif kind == 6:  # a3.transpose(2, 0, 1)
        axes[0] = 2
        axes[1] = 0
        axes[2] = 1
        for i in range(n):
            r_permute = f64.permute_3d(a3, axes)
        memcpy(last, mvs.mvs_pyx_src(r_permute), sizeof(mvs_slice))
        first[0] = r_permute[0, 0, 0]
        last_ndim[0] = 3
    elif kind == 7:  # np.swapaxes(a3, 0, 2)
        for i in range(n):
            r_swap_axes = f64.swap_axes_3d(a3, 0, 2)
        memcpy(last, mvs.mvs_pyx_src(r_swap_axes), sizeof(mvs_slice))
        first[0] = r_swap_axes[0, 0, 0]
        last_ndim[0] = 3
    elif kind == 8:  # np.moveaxis(a3, 0, -1)
        source[0] = 0
        destination[0] = -1
        for i in range(n):
            r_move_axes = f64.move_axes_3d(a3, source, destination, 1)
        memcpy(last, mvs.mvs_pyx_src(r_move_axes), sizeof(mvs_slice))
        first[0] = r_move_axes[0, 0, 0]
        last_ndim[0] = 3
    elif kind == 9:  # np.broadcast_to(a2, (4, 5, 6))
        shape[0] = 4
        shape[1] = 5
        shape[2] = 6
        for i in range(n):
            r_broadcast_to = f64.broadcast_to_2d_3d(a2, shape)
        memcpy(last, mvs.mvs_pyx_src(r_broadcast_to), sizeof(mvs_slice))
        first[0] = r_broadcast_to[0, 0, 0]
        last_ndim[0] = 3
    elif kind == 10:  # np.expand_dims(a2, 1)
        for i in range(n):
            r_expand_dims = f64.expand_dims_2d(a2, 1)
        memcpy(last, mvs.mvs_pyx_src(r_expand_dims), sizeof(mvs_slice))
        first[0] = r_expand_dims[0, 0, 0]
        last_ndim[0] = 3
    elif kind == 11:  # np.squeeze(s3, 1)
        for i in range(n):
            r_squeeze_axis = f64.squeeze_axis_3d(s3, 1)
        memcpy(last, mvs.mvs_pyx_src(r_squeeze_axis), sizeof(mvs_slice))
        first[0] = r_squeeze_axis[0, 0]
        last_ndim[0] = 2
    elif kind == 12:  # np.squeeze(s3)
        for i in range(n):
            r_squeeze = f64.squeeze_3d_2d(s3)
        memcpy(last, mvs.mvs_pyx_src(r_squeeze), sizeof(mvs_slice))
        first[0] = r_squeeze[0, 0]
        last_ndim[0] = 2
    elif kind == 13:  # np.diagonal(a2, 1)
        for i in range(n):
            r_diagonal = f64.diagonal_2d(a2, 1, 0, 1)
        memcpy(last, mvs.mvs_pyx_src(r_diagonal), sizeof(mvs_slice))
        first[0] = r_diagonal[0]
        last_ndim[0] = 1
    elif kind == 14:  # a2[::-1]
        for i in range(n):
            r_flip_axis = f64.flip_axis_2d(a2, 0)
        memcpy(last, mvs.mvs_pyx_src(r_flip_axis), sizeof(mvs_slice))
        first[0] = r_flip_axis[0, 0]
        last_ndim[0] = 2
    elif kind == 15:  # a2[::-1, ::-1]
        for i in range(n):
            r_flip = f64.flip_2d(a2)
        memcpy(last, mvs.mvs_pyx_src(r_flip), sizeof(mvs_slice))
        first[0] = r_flip[0, 0]
        last_ndim[0] = 2
    elif kind == 16:  # sliding_window_view(a2, 3, axis=1)[:, ::2]
        for i in range(n):
            r_sliding_window = f64.sliding_window_2d(a2, 1, 3, 2)
        memcpy(last, mvs.mvs_pyx_src(r_sliding_window), sizeof(mvs_slice))
        first[0] = r_sliding_window[0, 0, 0]
        last_ndim[0] = 3
    elif kind == 17:  # np.split(a2, 3, axis=1)[i % 3]
        for i in range(n):
            mvs.mvs_pyx_check(mvs.mvs_split_sections(mvs.mvs_pyx_src(a2), 2, 1, 3, 0, pieces, 3))
            r_from_slice = f64.from_slice_2d(&pieces[i % 3])
        memcpy(last, mvs.mvs_pyx_src(r_from_slice), sizeof(mvs_slice))
        first[0] = r_from_slice[0, 0]
        last_ndim[0] = 2
    return 0


def success(int kind, Py_ssize_t n, double[::1] a1, double[:, ::1] a2, double[:, :, ::1] a3,
            double[:, :, ::1] s3):
    """Runs kind `kind` n times with no GIL. Returns (PyGILState_Ensure calls during the run,
    change of each source's acquisition count across the run (a1, a2, a3, s3), the last result
    as a typed memoryview, its first element as read in nogil code)."""
    cdef mvs_slice last
    cdef int last_ndim = 0
    cdef double first = 0
    cdef long g0, g1
    acq0 = (gil_test_acq(a1), gil_test_acq(a2), gil_test_acq(a3), gil_test_acq(s3))
    g0 = gil_test_ensures()
    with nogil:
        run_kind(kind, a1, a2, a3, s3, n, &last, &last_ndim, &first)
    g1 = gil_test_ensures()
    acq1 = (gil_test_acq(a1), gil_test_acq(a2), gil_test_acq(a3), gil_test_acq(s3))
    # The result's memview is its source's, still held by this function's argument.
    if last_ndim == 1:
        result = f64.from_slice_1d(&last)
    elif last_ndim == 2:
        result = f64.from_slice_2d(&last)
    else:
        result = f64.from_slice_3d(&last)
    return g1 - g0, tuple(y - x for x, y in zip(acq0, acq1)), result, first


# --- 2. a mix of kinds: creations and drops balance --------------------------------------------

def mix(Py_ssize_t n, double[::1] a1, double[:, ::1] a2, double[:, :, ::1] a3,
        double[:, :, ::1] s3):
    """n views, kind i % 18 for the i-th, each made in a fresh call of run_kind (a fresh local,
    dropped at its return) with no GIL. Returns (PyGILState_Ensure calls, acquisition counts
    of a1, a2, a3, s3 before, the same after, the memoryview objects' refcounts before, after)."""
    cdef mvs_slice last
    cdef int last_ndim
    cdef double first
    cdef Py_ssize_t i
    cdef int nkinds = len(KINDS)
    cdef long g0, g1
    acq0 = (gil_test_acq(a1), gil_test_acq(a2), gil_test_acq(a3), gil_test_acq(s3))
    ref0 = (gil_test_memview_refcnt(a1), gil_test_memview_refcnt(a2),
            gil_test_memview_refcnt(a3), gil_test_memview_refcnt(s3))
    g0 = gil_test_ensures()
    with nogil:
        for i in range(n):
            run_kind(<int>(i % nkinds), a1, a2, a3, s3, 1, &last, &last_ndim, &first)
    g1 = gil_test_ensures()
    acq1 = (gil_test_acq(a1), gil_test_acq(a2), gil_test_acq(a3), gil_test_acq(s3))
    ref1 = (gil_test_memview_refcnt(a1), gil_test_memview_refcnt(a2),
            gil_test_memview_refcnt(a3), gil_test_memview_refcnt(s3))
    return g1 - g0, acq0, acq1, ref0, ref1


# --- 2a. const derivations: read-only sources ----------------------------------------------

cdef int const_round(const double[:, ::1] a2, const double[:, :, ::1] a3, double *total) except -1 nogil:
    """One round of const derivations, each into a fresh const local (dropped at the return):
    a2[1:4:2] (inline path), a3[:, 2] (inline path), a2.T, a3[-1, ::2, 1:4] (basic indexing),
    a2.reshape(3, -1, 2), np.flip(a2); adds one element of each to *total."""
    cdef mvs_index_item items[3]
    cdef Py_ssize_t shape[3]
    cdef const double[:, :] s = f64.slice_axis_const_2d(a2, 0, 1, 4, 2)
    cdef const double[:, :] i = f64.index_axis_const_3d(a3, 1, 2)
    cdef const double[:, :] t = f64.transpose_const_2d(a2)
    items[0] = index_item(MVS_ITEM_INDEX, -1, 0, 0)
    items[1] = index_item(MVS_ITEM_SLICE, MVS_NONE, MVS_NONE, 2)
    items[2] = index_item(MVS_ITEM_SLICE, 1, 4, 1)
    cdef const double[:, :] x = f64.index_const_3d_2d(a3, items, 3)
    shape[0], shape[1], shape[2] = 3, -1, 2
    cdef const double[:, :, :] r = f64.reshape_const_2d_3d(a2, shape, 'C')
    cdef const double[:, :] f = f64.flip_const_2d(a2)
    total[0] += s[1, 2] + i[1, 3] + t[4, 1] + x[1, 2] + r[2, 4, 1] + f[0, 0]
    return 0


def const_derivations(Py_ssize_t n, const double[:, ::1] a2, const double[:, :, ::1] a3):
    """n rounds of const_round with no GIL, on read-only sources. Returns (PyGILState_Ensure
    calls, acquisition counts of a2 and a3 before, after, the total read)."""
    cdef double total = 0
    cdef Py_ssize_t k
    cdef long g0, g1
    acq0 = (gil_test_acq(a2), gil_test_acq(a3))
    g0 = gil_test_ensures()
    with nogil:
        for k in range(n):
            const_round(a2, a3, &total)
    g1 = gil_test_ensures()
    return g1 - g0, acq0, (gil_test_acq(a2), gil_test_acq(a3)), total


# --- views of raw memory ---------------------------------------------------------------------

cdef int raw_views(double *data, Py_ssize_t *shape, Py_ssize_t *strides, double *total) noexcept nogil:
    """One view of raw memory of each kind, each derived from and dropped at return."""
    cdef double[:, :] v = f64.from_pointer_2d(data, shape, 'C')
    cdef double[:, :] w = f64.from_pointer_strided_2d(data, shape, strides)
    cdef double[:, :] d = f64.slice_axis_2d(f64.transpose_2d(v), 0, 1, MVS_NONE, 1)
    total[0] += d[0, 0] + w[1, 0]
    return 0


def raw_memory(Py_ssize_t n, double[:, ::1] a2):
    """n rounds of raw_views over a2's memory (shape (2, 3): F-order strides for the strided
    view) in nogil, after one view that makes the owner. Returns (PyGILState_Ensure calls of the
    first view, of the n rounds, the owner's acquisition count before and after the rounds,
    the sum the rounds read)."""
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t strides[2]
    cdef double total = 0
    cdef double[:, :] first
    cdef Py_ssize_t i
    cdef long g0, g1, g2
    shape[0], shape[1] = 2, 3
    strides[0], strides[1] = sizeof(double), 2 * sizeof(double)
    g0 = gil_test_ensures()
    with nogil:
        first = f64.from_pointer_2d(&a2[0, 0], shape, 'C')
    g1 = gil_test_ensures()
    acq0 = gil_test_acq(first)
    with nogil:
        for i in range(n):
            raw_views(&a2[0, 0], shape, strides, &total)
    g2 = gil_test_ensures()
    return g1 - g0, g2 - g1, acq0, gil_test_acq(first), total


# --- views of buffers and arrays of pools ------------------------------------------------------

cdef mvs_buffer *counted_buffer(double[:, ::1] a) except NULL:
    """A buffer over a malloc'd copy of a's items, freed by the counting deallocator; the caller
    holds its one reference."""
    cdef Py_ssize_t n = a.shape[0] * a.shape[1]
    cdef mvs_buffer *b = NULL
    cdef double *data = <double *>malloc(max(n, 1) * sizeof(double))
    if data == NULL:
        raise MemoryError()
    if n:
        memcpy(data, &a[0, 0], n * sizeof(double))
    try:
        mvs.mvs_pyx_check(mvs_buffer_wrap(data, n * sizeof(double), gil_test_free, NULL, 0, &b))
    except BaseException:
        free(data)
        raise
    return b


cdef int buffer_views(mvs_buffer *b, const Py_ssize_t *shape, const Py_ssize_t *shape_f, double *total) except -1 nogil:
    """One round over the (5, 6) buffer b: two views of it (all of it, C order; 6 items from item
    6 as (2, 3), F order), two derivations of the first, each dropped at return."""
    cdef double[:, :] v = f64.from_buffer_2d(b, 0, shape, 'C')
    cdef double[:, :] w = f64.from_buffer_2d(b, 6, shape_f, 'F')
    cdef double[:] d = f64.slice_axis_1d(f64.index_axis_2d(v, 0, 2), 0, 1, MVS_NONE, 2)
    total[0] += d[1] + w[1, 2]
    return 0


def buffer_memory(Py_ssize_t n, double[:, ::1] a2, bint release_first):
    """n rounds of buffer_views over a buffer holding a copy of a2 (shape (5, 6)) in nogil, the
    creator's reference held, after one view that makes the buffer's owner. Then the first view
    is dropped and the buffer's reference released, in either order (the buffer's release first
    when release_first). Returns (PyGILState_Ensure calls of the first view, of the n rounds,
    the owner's acquisition count before and after the rounds, its memoryview object's refcount
    before and after, the sum the rounds read, frees when the first of the two was done, frees
    when the second, (with release_first) the owner's acquisition count after the buffer's
    release, else -1, PyGILState_Ensure calls of the buffer's release, made in nogil)."""
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t shape_f[2]
    cdef double total = 0
    cdef double[:, :] first
    cdef Py_ssize_t i
    cdef long g0, g1, g2, g3, f0, f1, f2
    cdef long acq_released = -1
    cdef mvs_buffer *b
    if a2.shape[0] != 5 or a2.shape[1] != 6:
        raise ValueError("a2 must be (5, 6)")
    shape[0], shape[1] = 5, 6
    shape_f[0], shape_f[1] = 2, 3
    b = counted_buffer(a2)
    f0 = gil_test_freed()
    g0 = gil_test_ensures()
    with nogil:
        first = f64.from_buffer_2d(b, 0, shape, 'C')
    g1 = gil_test_ensures()
    acq0 = gil_test_acq(first)
    ref0 = gil_test_memview_refcnt(first)
    with nogil:
        for i in range(n):
            buffer_views(b, shape, shape_f, &total)
    g2 = gil_test_ensures()
    acq1 = gil_test_acq(first)
    ref1 = gil_test_memview_refcnt(first)
    if release_first:
        with nogil:
            # The detach callback releases the attachment's acquisition (2 -> 1: no GIL); `first`
            # keeps the owner, hence the memory.
            mvs_buffer_release(b)
        g3 = gil_test_ensures()
        acq_released = gil_test_acq(first)
        f1 = gil_test_freed()
        first = None  # the owner's last acquisition (Cython has the GIL here)
    else:
        first = None  # the attachment keeps the owner
        f1 = gil_test_freed()
        with nogil:
            # The detach callback releases the owner's last acquisition: Cython takes the GIL
            # for that (1 -> 0), once.
            mvs_buffer_release(b)
        g3 = gil_test_ensures()
    f2 = gil_test_freed()
    return g1 - g0, g2 - g1, acq0, acq1, ref0, ref1, total, f1 - f0, f2 - f0, acq_released, g3 - g2


cdef int pool_views(mvs_pool *pool, bint fortran, Py_ssize_t k, double *total) except -1 nogil:
    """One round on a pool of (3, 3) arrays (order F when fortran): acquire, write item [i, j] =
    k + 3 i + j, read [1, 1] through the diagonal and [0, 2] through the transpose, give back."""
    cdef double[:, ::1] c
    cdef double[::1, :] f
    cdef double[:, :] m
    cdef double[:] d
    cdef double[:, :] t
    cdef Py_ssize_t i, j
    if fortran:
        f = f64.pool_acquire_f_2d(pool)
        m = f
    else:
        c = f64.pool_acquire_2d(pool)
        m = c
    for i in range(3):
        for j in range(3):
            m[i, j] = k + 3 * i + j
    d = f64.diagonal_2d(m, 0, 0, 1)
    t = f64.transpose_2d(m)
    total[0] += d[1] + t[2, 0]
    f64.pool_release_2d(pool, m)
    return 0


def pool_memory(Py_ssize_t n, order):
    """n rounds of pool_views in nogil on a Pool('d', (3, 3), order, capacity=16), after one
    acquire that makes the slab's owner (held over the rounds). Returns (PyGILState_Ensure
    calls of the first acquire, of the n rounds, the owner's acquisition count before and after
    the rounds, its memoryview object's refcount before and after, the sum the rounds read, the
    pool's counts (arrays, acquired) after the rounds, after the first array is given back)."""
    cdef Pool p = Pool('d', (3, 3), order=order, capacity=16)
    cdef bint fortran = order == 'F'
    cdef double[:, :] first
    cdef double total = 0
    cdef Py_ssize_t i
    cdef long g0, g1, g2
    g0 = gil_test_ensures()
    with nogil:
        if fortran:
            first = f64.pool_acquire_f_2d(p.pool)
        else:
            first = f64.pool_acquire_2d(p.pool)
    g1 = gil_test_ensures()
    acq0 = gil_test_acq(first)
    ref0 = gil_test_memview_refcnt(first)
    with nogil:
        for i in range(n):
            pool_views(p.pool, fortran, i, &total)
    g2 = gil_test_ensures()
    acq1 = gil_test_acq(first)
    ref1 = gil_test_memview_refcnt(first)
    counts = p.counts
    f64.pool_release_2d(p.pool, first)
    return g1 - g0, g2 - g1, acq0, acq1, ref0, ref1, total, counts, p.counts


# --- data movement: copies and fills in place, contiguous copies into new buffers ---------------

cdef int movement_round(double[:, ::1] a2, double[:, :] b, double k, double *total) except -1 nogil:
    """One round on a2 (5, 6) and b (6, 5): b filled with k, b = a2.T (a const source from a
    writable view), b reversed along axis 0 in place (overlapping: through a temporary), b =
    a2[:, 3] broadcast along b's rows (a 1-d source), each followed by a read of b."""
    f64.fill_2d(b, k)
    total[0] += b[4, 4]
    f64.copy_2d(f64.transpose_2d(a2), b)
    total[0] += b[1, 2]
    f64.copy_2d(f64.flip_axis_2d(b, 0), b)
    total[0] += b[0, 1]
    f64.copy_1d_2d(f64.index_axis_2d(f64.transpose_2d(a2), 0, 3), b)
    total[0] += b[2, 4]
    return 0


def movement(Py_ssize_t n, double[:, ::1] a2, double[:, :] b):
    """n rounds of movement_round (4 calls of copy_Nd, copy_Md_Nd and fill_Nd each) in nogil.
    Returns (PyGILState_Ensure calls, acquisition counts of a2 and b before, after, their
    memoryview objects' refcounts before, after, the sum the rounds read)."""
    cdef double total = 0
    cdef Py_ssize_t i
    cdef long g0, g1
    acq0 = (gil_test_acq(a2), gil_test_acq(b))
    ref0 = (gil_test_memview_refcnt(a2), gil_test_memview_refcnt(b))
    g0 = gil_test_ensures()
    with nogil:
        for i in range(n):
            movement_round(a2, b, <double>i, &total)
    g1 = gil_test_ensures()
    acq1 = (gil_test_acq(a2), gil_test_acq(b))
    ref1 = (gil_test_memview_refcnt(a2), gil_test_memview_refcnt(b))
    return g1 - g0, acq0, acq1, ref0, ref1, total


cdef double copy_round(double[:, ::1] a2, Py_ssize_t i) except? -1 nogil:
    """A C-contiguous copy of a2.T made, read through a derived view, and dropped (the copy's
    last view, released in nogil code) at return."""
    cdef double[:, ::1] c = f64.copy_c_2d(f64.transpose_2d(a2))
    cdef double[:] col = f64.index_axis_2d(c, 1, i % 5)
    return col[i % 6]


def copy_contiguous(Py_ssize_t n, double[:, ::1] a2):
    """copy_c_2d and copy_f_2d of a2 (5, 6) and of a2.T in nogil. Returns a dict: PyGILState_Ensure
    calls of one copy_c_2d and one copy_f_2d (results kept), each copy's acquisition count and
    its memoryview object's refcount after the call (the copy alone holds it), Ensure calls of
    n rounds of derivations of a kept copy, of n copies each dropped with the GIL, of n copies
    each dropped in nogil code (copy_round), a2's acquisition count and refcount before and
    after, the copies and the sums read."""
    cdef double[:, ::1] c
    cdef double[::1, :] f
    cdef double[:, :] t
    cdef double total_derived = 0, total_kept = 0, total_dropped = 0
    cdef Py_ssize_t i
    cdef long g0, g1, g2, g3, g4, g5
    out = {"acq a2": [gil_test_acq(a2)], "refcount a2": [gil_test_memview_refcnt(a2)]}
    g0 = gil_test_ensures()
    with nogil:
        c = f64.copy_c_2d(f64.transpose_2d(a2))
    g1 = gil_test_ensures()
    with nogil:
        f = f64.copy_f_2d(a2)
    g2 = gil_test_ensures()
    out["copy_c"], out["copy_f"] = g1 - g0, g2 - g1
    out["acq copy_c"], out["refcount copy_c"] = gil_test_acq(c), gil_test_memview_refcnt(c)
    out["acq copy_f"], out["refcount copy_f"] = gil_test_acq(f), gil_test_memview_refcnt(f)
    with nogil:
        for i in range(n):
            t = f64.transpose_2d(c)
            total_derived += t[i % 5, i % 6]
    g3 = gil_test_ensures()
    t = None
    out["derived"] = g3 - g2
    out["acq copy_c after derived"] = gil_test_acq(c)
    kept_c, kept_f = c, f  # (Python objects, returned: they keep the first two copies)
    c = None
    f = None
    for i in range(n):
        with nogil:
            c = f64.copy_c_2d(a2)  # c is None: nothing dropped here
            total_kept += c[i % 5, i % 6]
        c = None  # the copy's last view, dropped with the GIL
    g4 = gil_test_ensures()
    out["kept"] = g4 - g3
    with nogil:
        for i in range(n):
            total_dropped += copy_round(a2, i)
    g5 = gil_test_ensures()
    out["dropped"] = g5 - g4
    out["acq a2"].append(gil_test_acq(a2))
    out["refcount a2"].append(gil_test_memview_refcnt(a2))
    out["copies"] = (kept_c, kept_f)
    out["sums"] = (total_derived, total_kept, total_dropped)
    return out


# --- positive controls: the counter sees acquisitions ------------------------------------------

def with_gil_control(Py_ssize_t n):
    """n `with gil:` blocks inside nogil code: returns the PyGILState_Ensure calls counted."""
    cdef Py_ssize_t i
    cdef long g0 = gil_test_ensures()
    with nogil:
        for i in range(n):
            with gil:
                pass
    return gil_test_ensures() - g0


# --- 3. prange: many threads derive views of one shared array ----------------------------------

cdef int row_sum(double[:, ::1] a, Py_ssize_t i, double *out) except -1 nogil:
    """*out = sum(a[i, 1::2]) through index_axis_2d and slice_axis_1d, each a fresh local."""
    cdef double[:] row = f64.index_axis_2d(a, 0, i)
    cdef double[:] part = f64.slice_axis_1d(row, 0, 1, MVS_NONE, 2)
    cdef double s = 0
    cdef Py_ssize_t j
    for j in range(part.shape[0]):
        s += part[j]
    out[0] = s
    return 0


cdef double row_sum_noexcept(double[:, ::1] a, Py_ssize_t i) noexcept nogil:
    """sum(a[i, 1::2]) as row_sum, for a prange body that cannot raise (an exception here
    would be printed as unraisable, taking the GIL, and give 0)."""
    cdef double[:] row = f64.index_axis_2d(a, 0, i)
    cdef double[:] part = f64.slice_axis_1d(row, 0, 1, MVS_NONE, 2)
    cdef double s = 0
    cdef Py_ssize_t j
    for j in range(part.shape[0]):
        s += part[j]
    return s


@cython.cdivision(True)  # `i % rows` cannot raise ZeroDivisionError (rows > 0 is checked)
def prange_sum(double[:, ::1] a, int nthreads, Py_ssize_t rounds, bint can_raise):
    """The sum over i < rounds * rows of a[i % rows, 1::2].sum(), in a prange of nthreads
    threads sharing `a`: through row_sum (errors propagate out of the prange) when can_raise,
    else row_sum_noexcept. Returns (total, PyGILState_Ensure calls, acquisition count of a
    before, after, the number of distinct threads that ran iterations)."""
    cdef Py_ssize_t rows = a.shape[0]
    cdef Py_ssize_t i
    cdef double total = 0
    cdef double s
    cdef long g0, g1, acq0, acq1
    cdef int ran[64]
    cdef int t
    cdef int threads = 0
    if rows == 0:
        raise ValueError("a has no rows")
    for t in range(64):
        ran[t] = 0
    acq0 = gil_test_acq(a)
    g0 = gil_test_ensures()
    with nogil:
        if can_raise:
            for i in prange(rows * rounds, num_threads=nthreads, schedule='static'):
                s = 0  # assigned in the body: private to each thread
                row_sum(a, i % rows, &s)
                total += s
                t = openmp.omp_get_thread_num()
                if t < 64:
                    ran[t] = 1
        else:
            for i in prange(rows * rounds, num_threads=nthreads, schedule='static'):
                total += row_sum_noexcept(a, i % rows)
                t = openmp.omp_get_thread_num()
                if t < 64:
                    ran[t] = 1
    g1 = gil_test_ensures()
    acq1 = gil_test_acq(a)
    for t in range(64):
        threads += ran[t]
    return total, g1 - g0, acq0, acq1, threads


cdef double raw_row_sum(double *data, Py_ssize_t cols, Py_ssize_t i) noexcept nogil:
    """Row i of the (rows, cols) C-contiguous memory at data, as a 3-D view of raw memory
    (shape (1, 1, cols)), every other item from 1 summed."""
    cdef Py_ssize_t shape[3]
    cdef Py_ssize_t j
    cdef double s = 0
    shape[0], shape[1], shape[2] = 1, 1, cols
    cdef double[:, :, :] v = f64.from_pointer_3d(data + i * cols, shape, 'C')
    for j in range(1, cols, 2):
        s += v[0, 0, j]
    return s


@cython.cdivision(True)  # `i % rows` cannot raise, so that the prange needs no thread states
def prange_raw(double[:, ::1] a, int nthreads, Py_ssize_t rounds):
    """prange_sum's sum through views of raw memory of 3 dimensions, whose owner the first
    views make, concurrently. Returns (total, PyGILState_Ensure calls: one per thread at most,
    the owner's acquisition count after (its pinned one), the same sum again with the owner
    made: total, Ensure calls)."""
    cdef Py_ssize_t rows = a.shape[0], cols = a.shape[1]
    cdef double *data = &a[0, 0]
    cdef Py_ssize_t i
    cdef double total = 0, again = 0
    cdef long g0, g1, g2
    cdef Py_ssize_t shape[3]
    cdef double[:, :, :] probe
    if rows == 0:
        raise ValueError("a has no rows")
    g0 = gil_test_ensures()
    with nogil:
        for i in prange(rows * rounds, num_threads=nthreads, schedule='static'):
            total += raw_row_sum(data, cols, i % rows)
    g1 = gil_test_ensures()
    with nogil:
        for i in prange(rows * rounds, num_threads=nthreads, schedule='static'):
            again += raw_row_sum(data, cols, i % rows)
    g2 = gil_test_ensures()
    shape[0], shape[1], shape[2] = 1, 1, cols
    probe = f64.from_pointer_3d(data, shape, 'C')
    return total, g1 - g0, gil_test_acq(probe) - 1, again, g2 - g1


cdef double buffer_row_sum(mvs_buffer *b, Py_ssize_t cols, Py_ssize_t i) noexcept nogil:
    """Row i of the (rows, cols) buffer b as a view of the buffer (shape (1, cols), i * cols
    items in), every other item from 1 summed through index_axis_2d and slice_axis_1d."""
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t j
    cdef double s = 0
    shape[0], shape[1] = 1, cols
    cdef double[:, :] v = f64.from_buffer_2d(b, i * cols, shape, 'C')
    cdef double[:] part = f64.slice_axis_1d(f64.index_axis_2d(v, 0, 0), 0, 1, MVS_NONE, 2)
    for j in range(part.shape[0]):
        s += part[j]
    return s


@cython.cdivision(True)  # `i % rows` cannot raise, so that the prange needs no thread states
def prange_buffer(double[:, ::1] a, int nthreads, Py_ssize_t rounds):
    """prange_sum's sum through views of a buffer holding a copy of a, whose owner the first
    views make, concurrently; the creator's reference is held throughout. Returns (total,
    PyGILState_Ensure calls: one per thread at most, the owner's acquisition count after (the
    attachment's), the same sum again with the owner made: total, Ensure calls, frees before
    the buffer's release (no view left), after it)."""
    cdef Py_ssize_t rows = a.shape[0], cols = a.shape[1]
    cdef Py_ssize_t i
    cdef double total = 0, again = 0
    cdef long g0, g1, g2, f0, f1, f2
    cdef Py_ssize_t shape[2]
    cdef double[:, :] probe
    cdef mvs_buffer *b
    if rows == 0:
        raise ValueError("a has no rows")
    b = counted_buffer(a)
    f0 = gil_test_freed()
    g0 = gil_test_ensures()
    with nogil:
        for i in prange(rows * rounds, num_threads=nthreads, schedule='static'):
            total += buffer_row_sum(b, cols, i % rows)
    g1 = gil_test_ensures()
    with nogil:
        for i in prange(rows * rounds, num_threads=nthreads, schedule='static'):
            again += buffer_row_sum(b, cols, i % rows)
    g2 = gil_test_ensures()
    shape[0], shape[1] = rows, cols
    probe = f64.from_buffer_2d(b, 0, shape, 'C')
    owner_acq = gil_test_acq(probe) - 1
    probe = None
    f1 = gil_test_freed()
    mvs_buffer_release(b)
    f2 = gil_test_freed()
    return total, g1 - g0, owner_acq, again, g2 - g1, f1 - f0, f2 - f0


cdef double pool_row_sum(mvs_pool *pool, const double *data, Py_ssize_t cols, Py_ssize_t i) noexcept nogil:
    """An array of the pool of (2, cols) arrays filled with row i of the (rows, cols) memory at
    data and twice it; twice the row's every other item from 1 summed through index_axis_2d and
    slice_axis_1d of the array, then the array given back."""
    cdef Py_ssize_t j
    cdef double s = 0
    cdef double[:, ::1] m = f64.pool_acquire_2d(pool)
    for j in range(cols):
        m[0, j] = data[i * cols + j]
        m[1, j] = 2 * data[i * cols + j]
    cdef double[:] part = f64.slice_axis_1d(f64.index_axis_2d(m, 0, 1), 0, 1, MVS_NONE, 2)
    for j in range(part.shape[0]):
        s += part[j]
    f64.pool_release_2d(pool, m)
    return s


@cython.cdivision(True)  # `i % rows` cannot raise, so that the prange needs no thread states
def prange_pool(double[:, ::1] a, int nthreads, Py_ssize_t rounds):
    """Twice prange_sum's sum through arrays of one Pool('d', (2, cols), capacity=16) that the
    threads acquire, fill, derive views of and give back; the first acquires make the slab's
    owner, concurrently. Returns (total, PyGILState_Ensure calls: one per thread at most, the
    owner's acquisition count after (the attachment's), the same sum again with the owner made:
    total, Ensure calls, the pool's counts (arrays, acquired) after)."""
    cdef Py_ssize_t rows = a.shape[0], cols = a.shape[1]
    cdef const double *data = &a[0, 0]
    cdef Pool p = Pool('d', (2, cols), order='C', capacity=16)
    cdef mvs_pool *pool = p.pool
    cdef Py_ssize_t i
    cdef double total = 0, again = 0
    cdef long g0, g1, g2
    cdef double[:, ::1] probe
    if rows == 0:
        raise ValueError("a has no rows")
    g0 = gil_test_ensures()
    with nogil:
        for i in prange(rows * rounds, num_threads=nthreads, schedule='static'):
            total += pool_row_sum(pool, data, cols, i % rows)
    g1 = gil_test_ensures()
    with nogil:
        for i in prange(rows * rounds, num_threads=nthreads, schedule='static'):
            again += pool_row_sum(pool, data, cols, i % rows)
    g2 = gil_test_ensures()
    counts = p.counts
    probe = f64.pool_acquire_2d(pool)
    owner_acq = gil_test_acq(probe) - 1
    f64.pool_release_2d(pool, probe)
    return total, g1 - g0, owner_acq, again, g2 - g1, counts


# --- elementwise iteration: inits, and a prange split by ranges -----------------------------------

def iterator_inits(Py_ssize_t n, double[:, :] a, double[::1] b, double[:, ::1] c):
    """n rounds in nogil of 3 operands stored by the typed helpers (a and b read, b broadcast;
    c, converted to the helper's double[:, :], written) and mvs_pyx_iter_init over them.
    Returns (PyGILState_Ensure calls, acquisition counts of a, b, c before, after, the last
    iterator's size)."""
    cdef mvs.mvs_operands ops
    cdef mvs.mvs_iter it
    cdef Py_ssize_t i, size = -1
    cdef long g0, g1
    acq0 = (gil_test_acq(a), gil_test_acq(b), gil_test_acq(c))
    g0 = gil_test_ensures()
    with nogil:
        for i in range(n):
            f64.operand_2d(&ops, 0, a, mvs.MVS_ITER_READ)
            f64.operand_const_1d(&ops, 1, b)
            f64.operand_2d(&ops, 2, c, mvs.MVS_ITER_WRITE)
            mvs.mvs_pyx_iter_init(&it, &ops, 3, 'K')
        mvs.mvs_pyx_check(mvs.mvs_iter_size(&it, &size))
    g1 = gil_test_ensures()
    return g1 - g0, acq0, (gil_test_acq(a), gil_test_acq(b), gil_test_acq(c)), size


cdef Py_ssize_t add_range(const mvs.mvs_iter *it, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    """c += a + b over the iteration indices [start, end) of the iterator `it` over (a, b, c),
    on a copy of it. Returns the number of elements visited, or -1 when the range is refused."""
    cdef mvs.mvs_iter mine = it[0]
    cdef char *p[3]
    cdef Py_ssize_t s[3]
    cdef Py_ssize_t count, i, visited = 0
    if mvs.mvs_iter_range(&mine, start, end) != mvs.MVS_OK:
        return -1
    while mvs.mvs_iter_next(&mine, p, &count, s):
        for i in range(count):
            (<double *>(p[2] + i * s[2]))[0] += (<double *>(p[0] + i * s[0]))[0] + (<double *>(p[1] + i * s[1]))[0]
        visited += count
    return visited


@cython.cdivision(True)  # the bounds cannot raise, so that the prange needs no thread states
def prange_ranges(double[:, :] a, double[:] b, double[:, :] c, int nthreads, int parts):
    """c += a + b (b broadcast along c's rows) split into `parts` ranges of uneven lengths, which
    a prange of nthreads threads runs, each on its own copy of one iterator (add_range).
    Returns (elements visited, the iteration's size, PyGILState_Ensure calls, the number of
    distinct threads that ran ranges)."""
    cdef mvs.mvs_operands ops
    cdef mvs.mvs_iter it
    cdef Py_ssize_t size = 0, k, total = 0
    cdef long g0, g1
    cdef int ran[64]
    cdef int t, threads = 0
    for t in range(64):
        ran[t] = 0
    g0 = gil_test_ensures()
    with nogil:
        f64.operand_2d(&ops, 0, a, mvs.MVS_ITER_READ)
        f64.operand_1d(&ops, 1, b, mvs.MVS_ITER_READ)
        f64.operand_2d(&ops, 2, c, mvs.MVS_ITER_READWRITE)
        mvs.mvs_pyx_iter_init(&it, &ops, 3, 'K')
        mvs.mvs_pyx_check(mvs.mvs_iter_size(&it, &size))
        # Range k is [size * k^2 / parts^2, size * (k + 1)^2 / parts^2): uneven lengths.
        for k in prange(parts, num_threads=nthreads, schedule='static', chunksize=1):
            total += add_range(&it, size * k * k // (parts * parts), size * (k + 1) * (k + 1) // (parts * parts))
            t = openmp.omp_get_thread_num()
            if t < 64:
                ran[t] = 1
    g1 = gil_test_ensures()
    for t in range(64):
        threads += ran[t]
    return total, size, g1 - g0, threads


# --- 4. error paths -----------------------------------------------------------------------------

FAILURES = ("index_out_of_range", "reshape_needs_copy", "bad_axis", "squeeze_ndim", "from_raw_view",
            "copy_shape_mismatch", "copy_repeated_item", "copy_c_too_big")

cdef int fail_once(int which, double[:, ::1] a2, double[:, :, ::1] a3) except -1 nogil:
    """One call that fails: `which` indexes FAILURES."""
    cdef Py_ssize_t shape[1]
    cdef Py_ssize_t shape2[2]
    cdef Py_ssize_t strides2[2]
    cdef Py_ssize_t shape3[3]
    cdef mvs_slice raw
    cdef double[:, :] r2
    cdef double[:, :] t
    cdef double[:] r1
    if which == 0:
        r2 = f64.index_axis_3d(a3, 0, 99)
    elif which == 1:
        t = f64.transpose_2d(a2)
        shape[0] = -1
        r1 = f64.reshape_2d_1d(t, shape, 'C')
    elif which == 2:
        r2 = f64.slice_axis_2d(a2, 5, 0, 1, 1)
    elif which == 3:
        r2 = f64.squeeze_3d_2d(a3)
    elif which == 4:  # a view of raw memory (memview NULL) cannot become a typed memoryview
        shape2[0], shape2[1] = 2, 3
        mvs.mvs_pyx_check(mvs.mvs_view_contiguous(&a2[0, 0], sizeof(double), 2, shape2, b'C', &raw))
        r2 = f64.from_slice_2d(&raw)
    elif which == 5:  # a (5, 6) source into a (6, 5) destination: no broadcast
        f64.copy_2d(a2, f64.transpose_2d(a2))
    elif which == 6:  # into a (4, 5, 6) broadcast of a2 (stride 0): its items repeat
        shape3[0], shape3[1], shape3[2] = 4, 5, 6
        f64.copy_2d_3d(a2, f64.broadcast_to_2d_3d(a2, shape3))
    elif which == 7:  # a copy of 2**31 x 2**31 items (one item repeated: stride 0) overflows
        shape2[0], shape2[1] = 1 << 31, 1 << 31
        strides2[0], strides2[1] = 0, 0
        t = f64.copy_c_2d(f64.from_pointer_strided_2d(&a2[0, 0], shape2, strides2))
    return 0


def failures(int which, Py_ssize_t n, double[:, ::1] a2, double[:, :, ::1] a3):
    """n failing calls, each raising out of a nogil block and caught here. Returns (the number
    caught, the last exception, PyGILState_Ensure calls, acquisition counts of a2 and a3 before
    and after)."""
    cdef Py_ssize_t k
    cdef Py_ssize_t caught = 0
    cdef long g0, g1
    last = None
    acq0 = (gil_test_acq(a2), gil_test_acq(a3))
    g0 = gil_test_ensures()
    for k in range(n):
        try:
            with nogil:
                fail_once(which, a2, a3)
        except (IndexError, ValueError) as e:
            caught += 1
            last = e
    g1 = gil_test_ensures()
    acq1 = (gil_test_acq(a2), gil_test_acq(a3))
    return caught, last, g1 - g0, acq0, acq1
