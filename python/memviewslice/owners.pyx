# memviewslice.owners: the Python objects that own memory for Python (see owners.pxd).

import struct

from cpython.buffer cimport (
    PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_ND, PyBUF_STRIDES, PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS,
    PyBUF_ANY_CONTIGUOUS,
)
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_buffer_retain, mvs_buffer_release, mvs_buffer_retain_memory,
    mvs_buffer_release_memory, mvs_buffer_data, mvs_buffer_size, mvs_buffer_readonly,
    mvs_buffer_view_at, mvs_check_bounds, mvs_byte_count, mvs_is_contiguous, mvs_pyx_check,
    mvs_pool_create, mvs_pool_counts, mvs_pool_destroy, MVS_CONTIG_NUMPY,
)

# Item sizes of the formats that struct.calcsize does not know: NumPy's complex codes and
# PEP 3118's.
_COMPLEX_SIZES = {b"F": 8, b"D": 16, b"Zf": 8, b"Zd": 16}


def _itemsize(format):
    """The item size of a struct-module or PEP 3118 format (bytes)."""
    return _COMPLEX_SIZES.get(format) or struct.calcsize(format)


def _format(dtype):
    """`dtype` as a format (bytes): a struct-module format such as 'd' (str or bytes), or
    anything else NumPy takes as a dtype (np.float64, np.dtype('f8')), by its type character."""
    if isinstance(dtype, str):
        return dtype.encode()
    if isinstance(dtype, bytes):
        return dtype
    import numpy
    return numpy.dtype(dtype).char.encode()


cdef class BufferExport:
    """One view of an mvs_buffer, exported through the buffer protocol (np.asarray(obj),
    memoryview(obj)), holding a reference to the buffer. Made by export() (from Cython; Python
    cannot make one)."""

    def __cinit__(self):
        self.buffer = NULL

    def __dealloc__(self):
        # NULL (a failed export) is a no-op
        if self.memory_only:
            mvs_buffer_release_memory(self.buffer)
        else:
            mvs_buffer_release(self.buffer)

    def __getbuffer__(self, Py_buffer *view, int flags):
        if self.buffer == NULL:
            raise BufferError("this BufferExport exports nothing: it was not made by export()")
        if flags & PyBUF_WRITABLE and self.readonly:
            raise BufferError("the buffer is read-only")
        if (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS and not self.c_contiguous:
            raise BufferError("a C-contiguous buffer was requested; the view is not C-contiguous")
        if (flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS and not self.f_contiguous:
            raise BufferError("an F-contiguous buffer was requested; the view is not F-contiguous")
        if (flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS and not (self.c_contiguous or self.f_contiguous):
            raise BufferError("a contiguous buffer was requested; the view is not contiguous")
        if not flags & PyBUF_STRIDES and not self.c_contiguous:
            raise BufferError("the view is not C-contiguous and the consumer cannot take strides")
        view.buf = self.data
        view.obj = self
        view.len = self.nbytes
        view.readonly = self.readonly
        view.itemsize = self.itemsize
        view.format = NULL
        if flags & PyBUF_FORMAT:
            view.format = self.format
        view.ndim = self.ndim
        view.shape = self.shape if flags & PyBUF_ND else NULL
        view.strides = self.strides if flags & PyBUF_STRIDES else NULL
        view.suboffsets = NULL
        view.internal = NULL

    def __releasebuffer__(self, Py_buffer *view):
        pass


cdef BufferExport export(mvs_buffer *buffer, const mvs_slice *view, int ndim, Py_ssize_t itemsize, format):
    """An export of `view` (`ndim` dimensions, direct, items of `itemsize` bytes described by
    the struct-module `format`, e.g. b'd') over `buffer`, which gains a reference. Raises
    ValueError when the view addresses bytes outside the buffer or is not direct, or when
    `format` does not describe `itemsize` bytes."""
    format = format.encode() if isinstance(format, str) else bytes(format)
    if _itemsize(format) != itemsize:
        raise ValueError(f"format {format!r} describes {_itemsize(format)} bytes, not {itemsize}")
    return _export(buffer, view, ndim, itemsize, format, False, False)


cdef BufferExport owner_export(mvs_buffer *buffer, int ndim, Py_ssize_t itemsize, bytes format, bint readonly):
    """The export that a Cython helper's owner memoryview of `buffer` is made from (mvs_pyx.h):
    `ndim` dimensions of extent 1 at the buffer's start (0 when the buffer holds no item), of
    `format` (PEP 3118), read-only when `readonly` (the owner of const views) or the buffer is,
    holding a memory reference to `buffer` (mvs_buffer_retain_memory), so that the owner, which
    the buffer's attachment keeps, does not keep the buffer's references itself."""
    cdef mvs_slice view
    cdef Py_ssize_t shape[8]
    cdef Py_ssize_t size
    cdef int i
    mvs_pyx_check(mvs_buffer_size(buffer, &size))
    for i in range(ndim):
        shape[i] = 1 if size >= itemsize else 0
    mvs_pyx_check(mvs_buffer_view_at(buffer, 0, itemsize, ndim, shape, b'C', 0, &view))
    return _export(buffer, &view, ndim, itemsize, format, True, readonly)


cdef BufferExport _export(mvs_buffer *buffer, const mvs_slice *view, int ndim, Py_ssize_t itemsize, bytes format,
                          bint memory_only, bint readonly_view):
    """export() and owner_export(): the export holds a reference, or a memory reference; it is
    read-only when `readonly_view` or the buffer is."""
    cdef BufferExport e = BufferExport.__new__(BufferExport)
    cdef void *data
    cdef Py_ssize_t size
    cdef int readonly
    cdef int i
    mvs_pyx_check(mvs_buffer_data(buffer, &data))
    mvs_pyx_check(mvs_buffer_size(buffer, &size))
    mvs_pyx_check(mvs_buffer_readonly(buffer, &readonly))
    for i in range(ndim):
        if view.suboffsets[i] >= 0:
            raise ValueError(f"axis {i} of the view is indirect; only direct views can be exported")
    mvs_pyx_check(mvs_byte_count(view, ndim, itemsize, &e.nbytes))
    if data != NULL or e.nbytes:  # a buffer of 0 bytes may have NULL data, for empty views only
        mvs_pyx_check(mvs_check_bounds(view, ndim, itemsize, data, size))
    mvs_pyx_check(mvs_is_contiguous(view, ndim, itemsize, b'C', MVS_CONTIG_NUMPY, &e.c_contiguous))
    mvs_pyx_check(mvs_is_contiguous(view, ndim, itemsize, b'F', MVS_CONTIG_NUMPY, &e.f_contiguous))
    mvs_pyx_check(mvs_buffer_retain_memory(buffer) if memory_only else mvs_buffer_retain(buffer))
    e.buffer = buffer
    e.memory_only = memory_only
    e.data = view.data
    e.ndim = ndim
    e.readonly = readonly or readonly_view
    e.itemsize = itemsize
    e.format = format
    for i in range(ndim):
        e.shape[i] = view.shape[i]
        e.strides[i] = view.strides[i]
    return e


cdef class Pool:
    """A pool of arrays of one dtype, shape and order, for nogil code (see owners.pxd)."""

    def __cinit__(self, dtype, shape, order="C", Py_ssize_t capacity=16):
        cdef Py_ssize_t extents[8]
        cdef int i
        self.pool = NULL
        self.format = _format(dtype)
        self.itemsize = _itemsize(self.format)
        self.shape = tuple(int(n) for n in shape)
        if len(self.shape) > 8:
            raise ValueError(f"a pool's arrays have at most 8 dimensions, not {len(self.shape)}")
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', not {order!r}")
        self.order = order
        for i in range(len(self.shape)):
            extents[i] = self.shape[i]
        mvs_pyx_check(mvs_pool_create(self.itemsize, len(self.shape), extents, ord(order), capacity, &self.pool))

    def __dealloc__(self):
        mvs_pool_destroy(self.pool)  # NULL (a failed creation) is a no-op

    @property
    def counts(self):
        """(arrays, acquired): how many arrays the pool has, and how many are handed out."""
        cdef Py_ssize_t arrays, acquired
        mvs_pyx_check(mvs_pool_counts(self.pool, &arrays, &acquired))
        return arrays, acquired

    def __repr__(self):
        return f"Pool({self.format.decode()!r}, {self.shape}, order={self.order!r}, counts={self.counts})"
