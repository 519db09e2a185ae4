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
from memviewslice cimport mvs_slice, mvs_buffer


cdef class BufferExport:
    # One view of an mvs_buffer, exported through the buffer protocol; made by export().
    cdef mvs_buffer *buffer
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
