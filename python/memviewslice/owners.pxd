# memviewslice.owners: the Python objects of memviewslice, hosted by this compiled module of the
# package and cimported by yours (the class is defined once, here, whatever module uses it).
#
#     from memviewslice cimport mvs_buffer, mvs_buffer_wrap, mvs_buffer_release, mvs_pyx_check
#     from memviewslice.owners cimport BufferExport, export
#
#     cdef mvs_buffer *b
#     mvs_pyx_check(mvs_buffer_wrap(ptr, nbytes, my_free, NULL, 0, &b))  # b: one reference
#     arr = np.asarray(export(b, &view, 2, sizeof(double), b'd'))        # the export: another
#     mvs_buffer_release(b)                                              # b's own reference
#
# BufferExport holds one reference to its buffer and exports one view of it (shape, strides,
# itemsize, a struct-module format) through the buffer protocol, so every NumPy array,
# memoryview or typed memoryview made from it keeps it, hence the memory, alive: the memory is
# freed (the buffer's deallocation callback runs) exactly once, when the last of them is gone
# and every other reference to the buffer has been released. Read-only buffers
# (MVS_BUFFER_READONLY) are exported read-only: a writable request raises BufferError.
# Creating an export needs the GIL (it is a Python object); using the memory does not.
#
# A module that cimports this file imports memviewslice.owners when it is imported, and fails
# then, with ImportError naming both versions, if the installed package is not the version it
# was compiled against (_abi.pxd).

cimport memviewslice._abi
from memviewslice cimport mvs_slice, mvs_buffer, mvs_pool, mvs_dl_data_type, mvs_dlpack_exchange_api


cdef class BufferExport:
    # One view of an mvs_buffer, exported through the buffer protocol; made by export().
    cdef mvs_buffer *buffer
    cdef bint memory_only  # holds a memory reference (owner_export), not a reference
    cdef char *data
    cdef int ndim
    cdef bint readonly
    cdef int c_contiguous  # NumPy's relaxed rules, from mvs_is_contiguous
    cdef int f_contiguous
    cdef Py_ssize_t itemsize
    cdef Py_ssize_t nbytes
    cdef Py_ssize_t shape[8]
    cdef Py_ssize_t strides[8]
    cdef bytes format


cdef BufferExport export(mvs_buffer *buffer, const mvs_slice *view, int ndim, Py_ssize_t itemsize, format)
cdef BufferExport owner_export(mvs_buffer *buffer, int ndim, Py_ssize_t itemsize, bytes format, bint readonly)


# DLPack (the Python array API's __dlpack__ protocol, DLPack 1.1): a BufferExport has
# __dlpack__ and __dlpack_device__, so np.from_dlpack(obj) (and torch.from_dlpack, ...) share
# its memory, holding a reference to its buffer; memviewslice.owners.from_dlpack(x) takes any
# object with __dlpack__ of CPU memory (a NumPy array) and gives a BufferExport sharing it,
# which keeps the producer's tensor alive. In Cython, a typed memoryview of it, used in nogil
# code:
#
#     from memviewslice.owners import from_dlpack
#
#     cdef double[:, :] m = from_dlpack(numpy_array)   # with the GIL, once
#     with nogil:
#         ...                                          # m shares the array's memory
#
# from_dlpack_capsule(capsule) is the same for a capsule already obtained from __dlpack__; it
# consumes the capsule (renames it used_...) only when the import succeeds.
cdef BufferExport from_dlpack_capsule(capsule)

# DLPack 1.3's C exchange API. BufferExport publishes one (type(obj).__dlpack_c_exchange_api__,
# a PyCapsule "dlpack_exchange_api"): C consumers take an export as a DLPack tensor with one C
# call. exchange_api(type(x)) is the table of x's type, or NULL when it has none (found once per
# type). from_dlpack(x) goes through it when x's type has one (PyTorch's tensors, BufferExport),
# and so does import_dlpack(x, ...), which gives what mvs_dlpack_import gives (a view, its
# number of dimensions, item size and DLPack type, and a buffer owning the tensor: release it
# with mvs_buffer_release, from any thread, with or without the GIL), falling back to
# x.__dlpack__ for other producers. With a table in hand, mvs_dlpack_import_object(api, <void
# *>x, ...) is the import itself, one C call into the producer; like every use of x it needs
# the thread attached (the GIL held), and MVS_ERR_PRODUCER means the producer's exception is
# set: raise it.
#
#     cdef mvs_slice view
#     cdef int ndim
#     cdef Py_ssize_t itemsize
#     cdef mvs_dl_data_type dtype
#     cdef mvs_buffer *buffer
#     import_dlpack(tensor, &view, &ndim, &itemsize, &dtype, &buffer)
#     cdef double[:, :] m = f64.from_buffer_2d(buffer, ...)   # or use view in nogil code
cdef const mvs_dlpack_exchange_api *exchange_api(type tp) except? NULL
cdef int import_dlpack(x, mvs_slice *view, int *ndim, Py_ssize_t *itemsize, mvs_dl_data_type *dtype,
                       mvs_buffer **buffer) except -1


# Pool(dtype, shape, order='C', capacity=16): arrays of one dtype (a struct-module format such
# as 'd', or anything NumPy takes as a dtype), shape (up to 7 dimensions for typed
# memoryviews) and order ('C' or 'F'), made once with the GIL, from Python or Cython. nogil
# code acquires arrays as typed memoryviews and gives them back, with no GIL:
#
#     from memviewslice cimport f64
#     from memviewslice.owners cimport Pool
#
#     cdef Pool pool = Pool('d', (3, 3))
#     cdef double[:, ::1] m
#     with nogil:
#         m = f64.pool_acquire_2d(pool.pool)   # pool_acquire_f_2d for order 'F' (double[::1, :])
#         ...                                  # m is a (3, 3) array, its content unspecified
#         f64.pool_release_2d(pool.pool, m)    # ValueError if the pool did not hand m out, or
#                                              # m was given back already
#
# A typed acquire checks the pool's item size, dimensions and order (ValueError otherwise). The
# arrays live in slabs, mvs_buffers of which the pool holds references: a view's owner is its
# slab's owner memoryview (see the <dtype>.pxd files), so an array stays valid while any typed
# memoryview or NumPy array made from it lives, even after the pool is gone. The first acquire
# from each slab, in each module and for each dtype and ndim, takes the GIL once, to make
# the owner; a pool grows by a slab as large as all before when every array is out. After
# pool_release, stop using the view: the pool may hand the array to another thread at once.
# Thread-safe: any number of threads may acquire and release at once (a lock-free list).
cdef class Pool:
    cdef mvs_pool *pool
    cdef readonly bytes format
    cdef readonly Py_ssize_t itemsize
    cdef readonly tuple shape
    cdef readonly str order
