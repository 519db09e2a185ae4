# memviewslice for Cython: the C API of memviewslice.h, and the glue between typed memoryviews
# and `mvs_slice`.
#
#     cimport memviewslice as mvs          # the C API and the glue (this file)
#     cimport mvs_f64                      # typed helpers for double; one file per dtype:
#                                          # mvs_i8 .. mvs_i64, mvs_u8 .. mvs_u64, mvs_f32,
#                                          # mvs_f64, mvs_c64, mvs_c128
#     include "mvs_export.pxi"             # BufferExport: an mvs_buffer for Python (NumPy,
#                                          # memoryview) through the buffer protocol
#
#     cdef double[:, :] corner(double[:, ::1] a) noexcept nogil:
#         return mvs_f64.index_2d_2d(a, ...)    # or mvs_f64.slice_axis_2d twice
#
# Compile with `-I<dir of this file>` (cython and the C compiler) and link `-lmemviewslice`.
# Every declaration here is `nogil`.
#
# How the glue works (SPEC section 6):
# - In: `mvs_pyx_src(view)` is the address of a typed memoryview as a `const mvs_slice *`
#   (a macro: Cython forbids `&view`). The layout of Cython's `__Pyx_memviewslice` is checked
#   against `mvs_slice` at compile time wherever it is used.
# - Out: the library writes its result into an `mvs_pyx_slice` (Cython's own
#   `__Pyx_memviewslice`), which is read back as a typed memoryview through a pointer:
#   `(<T *>&out)[0]`, `T` a ctypedef of the memoryview type. Cython then takes one more
#   acquisition of the source's memoryview object itself: an atomic increment, with no GIL,
#   since the source already holds one. The result keeps the source's memory alive.
# - Only slices derived from a Cython memoryview (whose `memview` was copied from one) may be
#   read back this way. Never read back a view built by `mvs_view_contiguous`,
#   `mvs_view_strided` or `mvs_pool_acquire` (its memview is NULL, which Cython takes as "not
#   initialized") or by `mvs_buffer_view` (its memview is an mvs_buffer, which Cython would use
#   as a memoryview object): hand buffers to Python with mvs_export.pxi instead.
# - Errors: `mvs_pyx_check(status)` raises IndexError (MVS_ERR_INDEX) or ValueError (anything
#   else) with `mvs_last_error()`'s message, taking the GIL on that path only.
#
# Adding a helper that the mvs_<dtype> files lack, for example one with a C-contiguous result
# type: the library call is the one line; around it, a ctypedef of the result type (Cython
# cannot cast to a memoryview type written out) and the two lines every helper has:
#
#     ctypedef double[:, ::1] d2c
#     cdef inline d2c rows_c(double[::1] a, Py_ssize_t offset, Py_ssize_t *shape) nogil:
#         cdef mvs.mvs_pyx_slice out
#         mvs.mvs_pyx_check(mvs.mvs_subview(mvs.mvs_pyx_src(a), 1, sizeof(double), offset, 2, shape, b'C', <mvs.mvs_slice *>&out))
#         return (<d2c *>&out)[0]
#
# (examples/cython/flat_buffer.pyx uses this one.) The result type is a promise to Cython,
# which does not check it: declare `::1` only where the library guarantees contiguity.

cdef extern from "memviewslice.h" nogil:
    const char *MVS_VERSION

    enum:
        MVS_MAX_DIMS
        MVS_MAX_INDEX_ITEMS
        MVS_ITEM_INDEX
        MVS_ITEM_SLICE
        MVS_ITEM_NEWAXIS
        MVS_ITEM_ELLIPSIS
        MVS_CONTIG_NUMPY
        MVS_CONTIG_CYTHON

    const Py_ssize_t MVS_NONE

    ctypedef int mvs_status
    enum:
        MVS_OK
        MVS_ERR_NULL
        MVS_ERR_NDIM
        MVS_ERR_AXIS
        MVS_ERR_ITEMSIZE
        MVS_ERR_SHAPE
        MVS_ERR_INDEX
        MVS_ERR_STEP
        MVS_ERR_OVERFLOW
        MVS_ERR_NEEDS_COPY
        MVS_ERR_INDIRECT
        MVS_ERR_BOUNDS
        MVS_ERR_BROADCAST
        MVS_ERR_NOT_CONTIGUOUS
        MVS_ERR_VALUE
        MVS_ERR_INTERNAL

    ctypedef struct mvs_slice:
        void *memview
        char *data
        Py_ssize_t shape[8]
        Py_ssize_t strides[8]
        Py_ssize_t suboffsets[8]

    ctypedef struct mvs_index_item:
        int kind
        Py_ssize_t start
        Py_ssize_t stop
        Py_ssize_t step

    # ptrdiff_t is written Py_ssize_t here (the same type where CPython runs); the header
    # documents every function.
    mvs_status mvs_view_contiguous(void *data, Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape, int order, mvs_slice *out)
    mvs_status mvs_view_strided(void *data, Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides, mvs_slice *out)
    mvs_status mvs_subview(const mvs_slice *src, int ndim, Py_ssize_t itemsize, Py_ssize_t offset, int out_ndim, const Py_ssize_t *shape, int order, mvs_slice *out)
    mvs_status mvs_slice_axis(const mvs_slice *src, int ndim, int axis, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t step, mvs_slice *out)
    mvs_status mvs_index_axis(const mvs_slice *src, int ndim, int axis, Py_ssize_t index, mvs_slice *out)
    mvs_status mvs_index(const mvs_slice *src, int ndim, const mvs_index_item *items, int nitems, mvs_slice *out, int *out_ndim)
    mvs_status mvs_reshape(const mvs_slice *src, int ndim, Py_ssize_t itemsize, int out_ndim, const Py_ssize_t *shape, int order, mvs_slice *out)
    mvs_status mvs_transpose(const mvs_slice *src, int ndim, mvs_slice *out)
    mvs_status mvs_permute(const mvs_slice *src, int ndim, const int *axes, mvs_slice *out)
    mvs_status mvs_swap_axes(const mvs_slice *src, int ndim, int axis1, int axis2, mvs_slice *out)
    mvs_status mvs_move_axes(const mvs_slice *src, int ndim, const int *source, const int *destination, int count, mvs_slice *out)
    mvs_status mvs_broadcast_to(const mvs_slice *src, int ndim, int out_ndim, const Py_ssize_t *shape, mvs_slice *out)
    mvs_status mvs_expand_dims(const mvs_slice *src, int ndim, int axis, mvs_slice *out)
    mvs_status mvs_squeeze_axis(const mvs_slice *src, int ndim, int axis, mvs_slice *out)
    mvs_status mvs_squeeze(const mvs_slice *src, int ndim, mvs_slice *out, int *out_ndim)
    mvs_status mvs_diagonal(const mvs_slice *src, int ndim, Py_ssize_t offset, int axis1, int axis2, mvs_slice *out)
    mvs_status mvs_flip_axis(const mvs_slice *src, int ndim, int axis, mvs_slice *out)
    mvs_status mvs_flip(const mvs_slice *src, int ndim, mvs_slice *out)
    mvs_status mvs_sliding_window(const mvs_slice *src, int ndim, int axis, Py_ssize_t window, Py_ssize_t step, mvs_slice *out)
    mvs_status mvs_split_sections(const mvs_slice *src, int ndim, int axis, Py_ssize_t sections, int uneven, mvs_slice *outs, Py_ssize_t nouts)
    mvs_status mvs_split_at(const mvs_slice *src, int ndim, int axis, const Py_ssize_t *indices, Py_ssize_t nindices, mvs_slice *outs)
    mvs_status mvs_is_contiguous(const mvs_slice *src, int ndim, Py_ssize_t itemsize, int order, int rule, int *out)
    mvs_status mvs_item_count(const mvs_slice *src, int ndim, Py_ssize_t *out)
    mvs_status mvs_byte_count(const mvs_slice *src, int ndim, Py_ssize_t itemsize, Py_ssize_t *out)
    mvs_status mvs_byte_extent(const mvs_slice *src, int ndim, Py_ssize_t itemsize, Py_ssize_t *lo, Py_ssize_t *hi)
    mvs_status mvs_check_bounds(const mvs_slice *src, int ndim, Py_ssize_t itemsize, const void *base, Py_ssize_t nbytes)
    mvs_status mvs_may_overlap(const mvs_slice *src, int ndim, Py_ssize_t itemsize, int *out)
    mvs_status mvs_element_ptr(const mvs_slice *src, int ndim, const Py_ssize_t *index, void **out)
    const char *mvs_status_str(mvs_status status)
    const char *mvs_last_error()

    # Ownership (SPEC section 5): buffers own memory and count references; views borrow.
    enum:
        MVS_ERR_ALLOC
        MVS_BUFFER_ZEROED
        MVS_BUFFER_READONLY
    ctypedef struct mvs_buffer:
        pass
    ctypedef struct mvs_pool:
        pass
    ctypedef void (*mvs_dealloc_fn)(void *data, void *ctx) noexcept nogil
    mvs_status mvs_buffer_alloc(Py_ssize_t nbytes, Py_ssize_t alignment, int flags, mvs_buffer **out)
    mvs_status mvs_buffer_wrap(void *data, Py_ssize_t nbytes, mvs_dealloc_fn dealloc, void *ctx, int flags, mvs_buffer **out)
    mvs_status mvs_buffer_retain(mvs_buffer *buffer)
    void mvs_buffer_release(mvs_buffer *buffer)
    mvs_status mvs_buffer_data(const mvs_buffer *buffer, void **out)
    mvs_status mvs_buffer_size(const mvs_buffer *buffer, Py_ssize_t *out)
    mvs_status mvs_buffer_readonly(const mvs_buffer *buffer, int *out)
    mvs_status mvs_buffer_refcount(const mvs_buffer *buffer, Py_ssize_t *out)
    mvs_status mvs_buffer_view(mvs_buffer *buffer, Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape, int order, mvs_slice *out)
    mvs_status mvs_buffer_of(const mvs_slice *view, mvs_buffer **out)
    mvs_status mvs_pool_create(Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape, int order, Py_ssize_t capacity, mvs_pool **out)
    mvs_status mvs_pool_acquire(mvs_pool *pool, mvs_slice *out)
    mvs_status mvs_pool_release(mvs_pool *pool, const mvs_slice *view)
    mvs_status mvs_pool_counts(const mvs_pool *pool, Py_ssize_t *out_arrays, Py_ssize_t *out_acquired)
    void mvs_pool_destroy(mvs_pool *pool)

cdef extern from * nogil:
    """
    #include <stddef.h>
    /* Cython's __Pyx_memviewslice and mvs_slice have one layout: checked wherever
       mvs_pyx_src is used (after Cython's typedef, which this block precedes). */
    #define __MVS_PYX_SAME_LAYOUT \\
        (sizeof(__Pyx_memviewslice) == sizeof(mvs_slice) && \\
         offsetof(__Pyx_memviewslice, memview) == offsetof(mvs_slice, memview) && \\
         offsetof(__Pyx_memviewslice, data) == offsetof(mvs_slice, data) && \\
         offsetof(__Pyx_memviewslice, shape) == offsetof(mvs_slice, shape) && \\
         offsetof(__Pyx_memviewslice, strides) == offsetof(mvs_slice, strides) && \\
         offsetof(__Pyx_memviewslice, suboffsets) == offsetof(mvs_slice, suboffsets) && \\
         sizeof(Py_ssize_t) == sizeof(ptrdiff_t))
    /* A compile error (array of size -1) when the layouts differ; valid C and C++. */
    #define __mvs_pyx_src(view) \\
        ((void)sizeof(char[__MVS_PYX_SAME_LAYOUT ? 1 : -1]), (const mvs_slice *)&(view))
    """
    # Cython's own struct behind every typed memoryview: the output of a library call that is
    # read back as a typed memoryview.
    ctypedef struct mvs_pyx_slice "__Pyx_memviewslice":
        pass
    # The address of a typed memoryview (any dtype and ndim) as a library source.
    const mvs_slice *mvs_pyx_src "__mvs_pyx_src"(...)


cdef inline int mvs_pyx_raise(mvs_status status) except -1 nogil:
    """Raises the exception for a failed call: IndexError for MVS_ERR_INDEX, ValueError
    otherwise, with this thread's mvs_last_error() message."""
    with gil:
        message = mvs_last_error().decode('utf-8', 'replace')
        if status == MVS_ERR_INDEX:
            raise IndexError(message)
        raise ValueError(message)


cdef inline int mvs_pyx_check(mvs_status status) except -1 nogil:
    """0 for MVS_OK; raises (taking the GIL) for any other status."""
    if status != MVS_OK:
        return mvs_pyx_raise(status)
    return 0


cdef inline int mvs_pyx_check_ndim(int got, int expected) except -1 nogil:
    """0 when a result has the number of dimensions its typed memoryview expects; raises
    ValueError otherwise (for operations whose result's ndim depends on the input)."""
    if got != expected:
        with gil:
            raise ValueError(f"the result has {got} dimensions; the typed memoryview expects {expected}")
    return 0
