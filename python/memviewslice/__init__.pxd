# memviewslice for Cython: the C API of memviewslice.h, and the glue between typed memoryviews
# and `mvs_slice`.
#
#     cimport memviewslice as mvs                  # the C API and the glue (this file)
#     from memviewslice cimport f64                # typed helpers for double; one file per
#                                                  # dtype: i8 .. i64, u8 .. u64, f32, f64,
#                                                  # c64, c128
#     from memviewslice.owners cimport BufferExport, export   # an mvs_buffer for Python
#                                                  # (NumPy, memoryview): the buffer protocol
#     from memviewslice.owners cimport Pool        # typed pools of small arrays
#
#     cdef double[:, :] corner(double[:, ::1] a) noexcept nogil:
#         return f64.index_2d_2d(a, ...)           # or f64.slice_axis_2d twice
#
# Cython finds these files in site-packages (pip install memviewslice); the C compiler needs
# `memviewslice.get_include()` and the link `memviewslice.get_library_dirs()` and
# `memviewslice.get_libraries()` (the static library: the module needs nothing at run time,
# unless it cimports memviewslice.owners). Supported Cython: 0.29.37, and 3.0.11 or newer
# (tested with 0.29.37, 3.0.11 and 3.3.1; mvs_pyx.h refuses the others). With 0.29, declare
# memoryview variables with their types spelled out (`double[:, :]`, not `f64.view_2d`: it
# converts no memoryview to or from a ctypedef), and build structs such as mvs_index_item
# field by field in nogil code (it builds struct literals with the GIL). Every declaration
# here is `nogil`.
#
# How the glue works (the C side is in mvs_pyx_runtime.h, and in mvs_pyx.h, which the build
# generates from the table of operations tools/ops.py, one macro per helper):
# - In: `mvs_pyx_src(view)` is the address of a typed memoryview as a `const mvs_slice *`
#   (a macro: Cython forbids `&view`). The layout of Cython's `__Pyx_memviewslice` is checked
#   against `mvs_slice` at compile time wherever it is used.
# - Out: each typed helper of the <dtype>.pxd files is a C macro of mvs_pyx.h, declared as an
#   extern function returning a typed memoryview (and again, for the const forms
#   `op_const_Nd`, taking and returning read-only views). It writes the library's result into Cython's
#   own struct and takes one more acquisition of the source's memoryview object, as Cython does
#   for any view it returns: an atomic increment with no GIL, since the source already holds
#   one. The result keeps the source's memory alive. On failure the macro raises, and Cython
#   reads the result's NULL memview as the error. (The macros need GCC's or Clang's statement
#   expressions, or C++11.) Written as `cdef inline` functions, the helpers took nearly twice as long:
#   Cython's protocol for returning a typed memoryview from a function zero-fills and copies the
#   208-byte struct several times and takes and drops one more acquisition.
# - Only slices derived from a Cython memoryview (whose `memview` was copied from one) may come
#   back as typed memoryviews. Never read back a view built by `mvs_view_contiguous`,
#   `mvs_view_strided` or `mvs_pool_acquire` (its memview is NULL, which Cython takes as "not
#   initialized"; the helpers raise ValueError) or by `mvs_buffer_view` or
#   `mvs_copy_contiguous` (its memview is an mvs_buffer, which Cython would use as a memoryview
#   object): for raw memory use the from_pointer_Nd helpers of the <dtype>.pxd files, which give
#   such a view an owner; for buffers from_buffer_Nd (or memviewslice.owners.export, for
#   Python), for pools a memviewslice.owners.Pool and pool_acquire_Nd, for contiguous copies
#   copy_c_Nd and copy_f_Nd.
# - Units and orders: the helpers' parameters say their units (`offset_items` in items,
#   `strides_bytes` in bytes) and take an order as the character 'C', 'F' (or 'K', for an
#   iteration), a Py_UCS4: write the str literal, `f64.from_pointer_2d(p, shape, 'C')`. The
#   order as an int (`ord('C')`, an int variable) is deprecated: it works in this release and
#   will be removed in the next; the bytes literal `b'C'` no longer compiles there. The library's
#   own functions (mvs_*, below) mirror the C header: an `int order` (`b'C'`), offsets
#   and strides as the header documents them.
# - Errors: the helpers, and `mvs_pyx_check(status)` after a direct call, raise IndexError
#   (MVS_ERR_INDEX) or ValueError (anything else) with `mvs_last_error()`'s message, taking
#   the GIL on that path only.
#
# Adding a helper that the <dtype>.pxd files lack, for example one with a C-contiguous result
# type, is one line: a declaration of an existing macro of mvs_pyx.h (a helper's C name is in
# its declaration) with the types you need.
#
#     cdef extern from "mvs_pyx.h" nogil:
#         double[:, ::1] rows_c "__mvs_pyx_f64_subview_1d_2d"(double[::1] a, Py_ssize_t offset_items, const Py_ssize_t *shape, Py_UCS4 order)
#
# (examples/cython/flat_buffer.pyx uses this one.) The result type is a promise to Cython,
# which does not check it: declare `::1` only where the library guarantees contiguity. For an
# operation with no macro (another element type, say), write the library call into an
# `mvs_pyx_slice` and read it back as the typed memoryview, `T` a ctypedef of its type:
#
#     cdef inline T op(...) nogil:
#         cdef mvs.mvs_pyx_slice out
#         mvs.mvs_pyx_check(mvs.mvs_subview(mvs.mvs_pyx_src(a), ..., <mvs.mvs_slice *>&out))
#         return (<T *>&out)[0]

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

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
        MVS_USUAL_EXTENT_LIMIT
        MVS_USUAL_STRIDE_LIMIT

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
    mvs_status mvs_view_as(const mvs_slice *src, int ndim, Py_ssize_t itemsize, Py_ssize_t new_itemsize, mvs_slice *out)
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

    # Ownership: buffers own memory and count references; views borrow.
    enum:
        MVS_ERR_ALLOC
        MVS_BUFFER_ZEROED
        MVS_BUFFER_READONLY
    ctypedef struct mvs_buffer:
        pass
    ctypedef struct mvs_pool:
        pass
    ctypedef void (*mvs_dealloc_fn)(void *data, void *ctx) noexcept nogil
    ctypedef void (*mvs_detach_fn)(void *value) noexcept nogil
    mvs_status mvs_buffer_alloc(Py_ssize_t nbytes, Py_ssize_t alignment, int flags, mvs_buffer **out)
    mvs_status mvs_buffer_wrap(void *data, Py_ssize_t nbytes, mvs_dealloc_fn dealloc, void *ctx, int flags, mvs_buffer **out)
    mvs_status mvs_buffer_retain(mvs_buffer *buffer)
    void mvs_buffer_release(mvs_buffer *buffer)
    mvs_status mvs_buffer_retain_memory(mvs_buffer *buffer)
    void mvs_buffer_release_memory(mvs_buffer *buffer)
    mvs_status mvs_buffer_attach(mvs_buffer *buffer, const void *key, void *value, mvs_detach_fn detach, void **out_value)
    mvs_status mvs_buffer_attached(const mvs_buffer *buffer, const void *key, void **out)
    mvs_status mvs_buffer_data(const mvs_buffer *buffer, void **out)
    mvs_status mvs_buffer_size(const mvs_buffer *buffer, Py_ssize_t *out)
    mvs_status mvs_buffer_readonly(const mvs_buffer *buffer, int *out)
    mvs_status mvs_buffer_refcount(const mvs_buffer *buffer, Py_ssize_t *out)
    mvs_status mvs_buffer_view(mvs_buffer *buffer, Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape, int order, mvs_slice *out)
    mvs_status mvs_buffer_view_at(mvs_buffer *buffer, Py_ssize_t offset, Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape, int order, int writable, mvs_slice *out)
    mvs_status mvs_buffer_of(const mvs_slice *view, mvs_buffer **out)
    mvs_status mvs_pool_create(Py_ssize_t itemsize, int ndim, const Py_ssize_t *shape, int order, Py_ssize_t capacity, mvs_pool **out)
    mvs_status mvs_pool_acquire(mvs_pool *pool, mvs_slice *out)
    mvs_status mvs_pool_acquire_slab(mvs_pool *pool, Py_ssize_t itemsize, int ndim, int order, const void *key, mvs_slice *out, mvs_buffer **out_slab)
    mvs_status mvs_pool_release(mvs_pool *pool, const mvs_slice *view)
    mvs_status mvs_pool_counts(const mvs_pool *pool, Py_ssize_t *out_arrays, Py_ssize_t *out_acquired)
    void mvs_pool_destroy(mvs_pool *pool)

    # Data movement: copies between views (any overlap), fills, contiguous copies into new
    # buffers (the typed helpers: copy_Nd, copy_Md_Nd, fill_Nd, copy_c_Nd, copy_f_Nd).
    mvs_status mvs_copy(const mvs_slice *src, int src_ndim, const mvs_slice *dst, int dst_ndim, Py_ssize_t itemsize)
    mvs_status mvs_fill(const mvs_slice *dst, int ndim, Py_ssize_t itemsize, const void *item)
    mvs_status mvs_copy_contiguous(const mvs_slice *src, int ndim, Py_ssize_t itemsize, int order, mvs_buffer **out_buffer, mvs_slice *out_view)

    # DLPack 1.1: views of buffers exported as managed tensors, tensors imported as a view and
    # a buffer that owns them (memviewslice.owners: __dlpack__ and from_dlpack for Python).
    # DLPack 1.3's C exchange API: mvs_dlpack_import_object imports a tensor object through
    # the table its type publishes (memviewslice.owners.exchange_api finds it; BufferExport
    # publishes one).
    enum:
        MVS_ERR_DEVICE
        MVS_ERR_DTYPE
        MVS_ERR_VERSION
        MVS_ERR_PRODUCER
        MVS_DLPACK_MAJOR_VERSION
        MVS_DLPACK_MINOR_VERSION
        MVS_DLPACK_FLAG_READ_ONLY
        MVS_DLPACK_FLAG_IS_COPIED
        MVS_DLPACK_FLAG_IS_SUBBYTE_TYPE_PADDED
        MVS_DL_CPU
        MVS_DL_INT
        MVS_DL_UINT
        MVS_DL_FLOAT
        MVS_DL_OPAQUE_HANDLE
        MVS_DL_BFLOAT
        MVS_DL_COMPLEX
        MVS_DL_BOOL
    ctypedef struct mvs_dl_version:
        uint32_t major
        uint32_t minor
    ctypedef struct mvs_dl_device:
        int32_t device_type
        int32_t device_id
    ctypedef struct mvs_dl_data_type:
        uint8_t code
        uint8_t bits
        uint16_t lanes
    ctypedef struct mvs_dl_tensor:
        void *data
        mvs_dl_device device
        int32_t ndim
        mvs_dl_data_type dtype
        int64_t *shape
        int64_t *strides
        uint64_t byte_offset
    ctypedef struct mvs_dl_managed_tensor:
        mvs_dl_tensor dl_tensor
        void *manager_ctx
        void (*deleter)(mvs_dl_managed_tensor *tensor) noexcept nogil
    ctypedef struct mvs_dl_managed_tensor_versioned:
        mvs_dl_version version
        void *manager_ctx
        void (*deleter)(mvs_dl_managed_tensor_versioned *tensor) noexcept nogil
        uint64_t flags
        mvs_dl_tensor dl_tensor
    mvs_status mvs_dlpack_export(mvs_buffer *buffer, const mvs_slice *src, int ndim, int code, int bits, uint64_t flags, mvs_dl_managed_tensor_versioned **out)
    mvs_status mvs_dlpack_export_legacy(mvs_buffer *buffer, const mvs_slice *src, int ndim, int code, int bits, mvs_dl_managed_tensor **out)
    mvs_status mvs_dlpack_import(mvs_dl_managed_tensor_versioned *tensor, mvs_slice *out_view, int *out_ndim, Py_ssize_t *out_itemsize, mvs_buffer **out_buffer)
    mvs_status mvs_dlpack_import_legacy(mvs_dl_managed_tensor *tensor, mvs_slice *out_view, int *out_ndim, Py_ssize_t *out_itemsize, mvs_buffer **out_buffer)
    ctypedef struct mvs_dlpack_exchange_api_header:
        mvs_dl_version version
        mvs_dlpack_exchange_api_header *prev_api
    ctypedef void (*mvs_dlpack_set_error_fn)(void *error_ctx, const char *kind, const char *message) noexcept
    ctypedef int (*mvs_dlpack_managed_tensor_allocator_fn)(mvs_dl_tensor *prototype, mvs_dl_managed_tensor_versioned **out, void *error_ctx, mvs_dlpack_set_error_fn set_error) noexcept
    ctypedef int (*mvs_dlpack_managed_tensor_from_py_object_fn)(void *py_object, mvs_dl_managed_tensor_versioned **out) noexcept
    ctypedef int (*mvs_dlpack_managed_tensor_to_py_object_fn)(mvs_dl_managed_tensor_versioned *tensor, void **out_py_object) noexcept
    ctypedef int (*mvs_dlpack_dltensor_from_py_object_fn)(void *py_object, mvs_dl_tensor *out) noexcept
    ctypedef int (*mvs_dlpack_current_work_stream_fn)(int32_t device_type, int32_t device_id, void **out_current_stream) noexcept
    ctypedef struct mvs_dlpack_exchange_api:
        mvs_dlpack_exchange_api_header header
        mvs_dlpack_managed_tensor_allocator_fn managed_tensor_allocator
        mvs_dlpack_managed_tensor_from_py_object_fn managed_tensor_from_py_object_no_sync
        mvs_dlpack_managed_tensor_to_py_object_fn managed_tensor_to_py_object_no_sync
        mvs_dlpack_dltensor_from_py_object_fn dltensor_from_py_object_no_sync
        mvs_dlpack_current_work_stream_fn current_work_stream
    mvs_status mvs_dlpack_import_object(const mvs_dlpack_exchange_api *api, void *object, mvs_slice *out_view, int *out_ndim, Py_ssize_t *out_itemsize, mvs_dl_data_type *out_dtype, mvs_buffer **out_buffer)

    # Elementwise iteration over 1 to 8 views at once (NumPy's nditer with an external inner
    # loop): an mvs_iter on the stack, mvs_iter_init, then mvs_iter_next until it returns 0;
    # mvs_iter_range restricts a copy to a range of iteration indices (one per thread);
    # mvs_apply runs a ufunc-style inner loop over the whole iteration.
    enum:
        MVS_ERR_OVERLAP
        MVS_ITER_MAX_OPERANDS
        MVS_ITER_READ
        MVS_ITER_WRITE
        MVS_ITER_READWRITE
        MVS_ITER_REDUCE
        MVS_ITER_BYTES
    ctypedef struct mvs_iter:
        pass
    ctypedef void (*mvs_loop_fn)(char **args, const Py_ssize_t *dimensions, const Py_ssize_t *steps, void *data) noexcept nogil
    mvs_status mvs_iter_init(mvs_iter *it, int nop, const mvs_slice *const *ops, const int *ndims, const Py_ssize_t *itemsizes, const uint32_t *flags, int order)
    mvs_status mvs_iter_size(const mvs_iter *it, Py_ssize_t *size)
    mvs_status mvs_iter_range(mvs_iter *it, Py_ssize_t start, Py_ssize_t end)
    int mvs_iter_next(mvs_iter *it, char **ptrs, Py_ssize_t *count, Py_ssize_t *strides)
    mvs_status mvs_apply(int nop, const mvs_slice *const *ops, const int *ndims, const Py_ssize_t *itemsizes, const uint32_t *flags, int order, mvs_loop_fn loop, void *data)

cdef extern from "mvs_pyx.h" nogil:
    # Cython's own struct behind every typed memoryview: the output of a library call that is
    # read back as a typed memoryview.
    ctypedef struct mvs_pyx_slice "__Pyx_memviewslice":
        pass
    # The address of a typed memoryview (any dtype and ndim) as a library source.
    const mvs_slice *mvs_pyx_src "__mvs_pyx_src"(...)
    # Raises the exception for a failed call: IndexError for MVS_ERR_INDEX, ValueError
    # otherwise, with this thread's mvs_last_error() message (taking the GIL).
    int mvs_pyx_raise "__mvs_pyx_raise"(mvs_status status) except -1
    # 0 when a result has the number of dimensions its typed memoryview expects; raises
    # ValueError otherwise (for operations whose result's ndim depends on the input).
    int mvs_pyx_check_ndim "__mvs_pyx_check_ndim"(int got, int expected) except -1
    # 0 for MVS_OK; raises as mvs_pyx_raise does (taking the GIL) for any other status.
    int mvs_pyx_check "__mvs_pyx_check_status"(mvs_status status) except -1

    # Elementwise iteration over typed memoryviews: up to MVS_ITER_MAX_OPERANDS operands on the
    # stack (`cdef mvs_operands ops`), each stored by a typed helper (f64.operand_2d(&ops, k,
    # view, MVS_ITER_READ), operand_const_Nd for read-only views, operand_0d(&ops, k, &x, flags)
    # for one item), then an iterator or a ufunc-style loop over the first nop of them. An
    # operand is a copy of the view's struct (no pointer to Cython's temporaries is kept, no
    # acquisition taken): keep the views alive until the iteration is done. ValueError for k
    # out of range.
    ctypedef struct mvs_operands "__mvs_pyx_operands":
        pass
    # Stores operand k: a view of ndim dimensions and itemsize-byte items (mvs_pyx_src(view),
    # or a library view of raw memory) and its flags.
    int mvs_pyx_operand "__mvs_pyx_operand"(mvs_operands *ops, int k, const mvs_slice *view, int ndim, Py_ssize_t itemsize, uint32_t flags) except -1
    # mvs_iter_init over operands 0..nop-1 in order 'K', 'C' or 'F'; raises the library's
    # error (ValueError: shapes that do not broadcast, overlap, ...) with no GIL taken otherwise.
    int mvs_pyx_iter_init "__mvs_pyx_iter_init"(mvs_iter *it, const mvs_operands *ops, int nop, Py_UCS4 order) except -1
    # mvs_apply over operands 0..nop-1: `loop` once per run, with NumPy's ufunc inner-loop
    # arguments; raises as mvs_pyx_iter_init.
    int mvs_pyx_apply "__mvs_pyx_apply"(const mvs_operands *ops, int nop, Py_UCS4 order, mvs_loop_fn loop, void *data) except -1
