# memviewslice.owners: the Python objects that own memory for Python (see owners.pxd).

import struct

from cpython.buffer cimport (
    PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_ND, PyBUF_STRIDES, PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS,
    PyBUF_ANY_CONTIGUOUS,
)
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_buffer_retain, mvs_buffer_release, mvs_buffer_data, mvs_buffer_size,
    mvs_buffer_readonly, mvs_check_bounds, mvs_byte_count, mvs_is_contiguous, mvs_pyx_check,
    MVS_CONTIG_NUMPY,
)


cdef class BufferExport:
    """One view of an mvs_buffer, exported through the buffer protocol (np.asarray(obj),
    memoryview(obj)), holding a reference to the buffer. Made by export() (from Cython; Python
    cannot make one)."""

    def __cinit__(self):
        self.buffer = NULL

    def __dealloc__(self):
        mvs_buffer_release(self.buffer)  # NULL (a failed export) is a no-op

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

    cdef BufferExport e = BufferExport.__new__(BufferExport)
    cdef void *data
    cdef Py_ssize_t size
    cdef int readonly
    cdef int i
    format = format.encode() if isinstance(format, str) else bytes(format)
    if struct.calcsize(format) != itemsize:
        raise ValueError(f"format {format!r} describes {struct.calcsize(format)} bytes, not {itemsize}")
    mvs_pyx_check(mvs_buffer_data(buffer, &data))
    mvs_pyx_check(mvs_buffer_size(buffer, &size))
    mvs_pyx_check(mvs_buffer_readonly(buffer, &readonly))
    mvs_pyx_check(mvs_check_bounds(view, ndim, itemsize, data, size))
    for i in range(ndim):
        if view.suboffsets[i] >= 0:
            raise ValueError(f"axis {i} of the view is indirect; only direct views can be exported")
    mvs_pyx_check(mvs_byte_count(view, ndim, itemsize, &e.nbytes))
    mvs_pyx_check(mvs_is_contiguous(view, ndim, itemsize, b'C', MVS_CONTIG_NUMPY, &e.c_contiguous))
    mvs_pyx_check(mvs_is_contiguous(view, ndim, itemsize, b'F', MVS_CONTIG_NUMPY, &e.f_contiguous))
    mvs_pyx_check(mvs_buffer_retain(buffer))
    e.buffer = buffer
    e.data = view.data
    e.ndim = ndim
    e.readonly = readonly
    e.itemsize = itemsize
    e.format = format
    for i in range(ndim):
        e.shape[i] = view.shape[i]
        e.strides[i] = view.strides[i]
    return e
