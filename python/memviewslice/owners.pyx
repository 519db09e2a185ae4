# cython: freethreading_compatible = True
# memviewslice.owners: the Python objects that own memory for Python (see owners.pxd).
#
# Free-threaded CPython (3.13t and later): the module declares that it runs without the GIL
# (freethreading_compatible, i.e. Py_mod_gil = Py_MOD_GIL_NOT_USED), so importing it, or a
# module built against the package, never turns the GIL back on. What the GIL used to protect,
# and why each holds without it:
# - BufferExport: every field is written by _export before the object is returned to anyone,
#   and only read after (__getbuffer__, __dlpack__); its buffer reference is the library's
#   atomic count, released once by __dealloc__.
# - Pool: the C pool is made in __cinit__ and destroyed in __dealloc__; acquire, release and
#   counts are the library's lock-free operations.
# - DLPack: consuming a capsule (from_dlpack_capsule) checks its name, imports the tensor and
#   renames the capsule inside a critical section on the capsule, so that two threads given one
#   capsule cannot both import (and later delete) its tensor; the capsules' destructors run once.
#   A tensor's deleter is the library's, run once by its atomic count.
# - The owners of typed memoryviews that the helpers of the <dtype>.pxd files make on first use
#   (per module, dtype and ndim; per buffer; the read-only dummy buffer) are published by an
#   atomic compare-and-swap or by mvs_buffer_attach, which keep the first and drop the others
#   (mvs_pyx_runtime.h); this module only exports their memory (owner_export).
# - The exchange APIs found on types (_exchange_apis) are a dict, each access one dict operation
#   (atomic in free-threaded CPython). The module's dicts (_COMPLEX_SIZES, _DL_FORMATS),
#   _FORMATS_BY_INDEX, _NATIVE_ORDER and BufferExport's exchange table are never written after
#   import; _ndarray is written once from None to a tuple made before, so a racing reader sees
#   one or the other (and racing writers at worst leak a reference to one).

cimport cython
from cpython.pyport cimport PY_SSIZE_T_MAX

import struct
import sys

from cpython.pycapsule cimport PyCapsule_New, PyCapsule_IsValid, PyCapsule_GetPointer, PyCapsule_SetName
from cpython.ref cimport Py_INCREF
from cpython.exc cimport PyErr_Occurred
from libc.stdint cimport int32_t
from cpython.buffer cimport (
    PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_ND, PyBUF_STRIDES, PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS,
    PyBUF_ANY_CONTIGUOUS,
)
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_buffer_retain, mvs_buffer_release, mvs_buffer_retain_memory,
    mvs_buffer_release_memory, mvs_buffer_data, mvs_buffer_size, mvs_buffer_readonly,
    mvs_buffer_view_at, mvs_check_bounds, mvs_byte_count, mvs_is_contiguous, mvs_pyx_check,
    mvs_pool_create, mvs_pool_counts, mvs_pool_destroy, MVS_CONTIG_NUMPY, mvs_last_error,
    mvs_copy_contiguous, mvs_dl_managed_tensor, mvs_dl_managed_tensor_versioned, mvs_dlpack_export,
    mvs_dlpack_export_legacy, mvs_dlpack_import, mvs_dlpack_import_legacy, mvs_status, MVS_OK,
    mvs_dl_data_type, mvs_dl_tensor, mvs_dlpack_exchange_api, mvs_dlpack_import_object, mvs_buffer_alloc,
    mvs_dlpack_managed_tensor_from_py_object_fn, mvs_dlpack_managed_tensor_to_py_object_fn, mvs_dlpack_set_error_fn,
    mvs_buffer_view, MVS_ERR_PRODUCER, MVS_ERR_ALLOC, MVS_ERR_NDIM, MVS_DLPACK_MAJOR_VERSION,
    MVS_ERR_DEVICE, MVS_ERR_DTYPE, MVS_ERR_VERSION, MVS_DL_CPU, MVS_DLPACK_FLAG_IS_COPIED,
    MVS_DL_INT, MVS_DL_UINT, MVS_DL_FLOAT, MVS_DL_COMPLEX, MVS_DL_BOOL,
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


# BufferExport's DLPack exchange API (the functions are below __dlpack__).
cdef mvs_dlpack_exchange_api _EXCHANGE_API
_EXCHANGE_API.header.version.major = MVS_DLPACK_MAJOR_VERSION
_EXCHANGE_API.header.version.minor = 3  # the exchange API's layout is DLPack 1.3's
_EXCHANGE_API.header.prev_api = NULL
_EXCHANGE_API.managed_tensor_allocator = _exchange_allocate
# The table's types say noexcept: Cython's `except -1` is DLPack's own protocol (-1 with the
# exception set), which the casts keep.
_EXCHANGE_API.managed_tensor_from_py_object_no_sync = <mvs_dlpack_managed_tensor_from_py_object_fn>_exchange_from_object
_EXCHANGE_API.managed_tensor_to_py_object_no_sync = <mvs_dlpack_managed_tensor_to_py_object_fn>_exchange_to_object
_EXCHANGE_API.dltensor_from_py_object_no_sync = NULL  # optional: a BufferExport keeps byte strides, not DLPack's
_EXCHANGE_API.current_work_stream = _exchange_current_work_stream
_EXCHANGE_CAPSULE = PyCapsule_New(&_EXCHANGE_API, "dlpack_exchange_api", NULL)


@cython.no_gc  # its one object field, format, is bytes: it cannot be part of a cycle
cdef class BufferExport:
    """One view of an mvs_buffer, exported through the buffer protocol (np.asarray(obj),
    memoryview(obj)), holding a reference to the buffer. Made by export() (from Cython; Python
    cannot make one)."""

    # No __cinit__: Cython's allocation zeroes the C fields (buffer NULL until _export), and
    # __cinit__'s argument parsing was a tenth of from_dlpack's time.

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

    # DLPack 1.3's C exchange API (a PyCapsule "dlpack_exchange_api" of the table below): C
    # consumers (memviewslice's own from_dlpack among them) take a BufferExport as a DLPack
    # tensor, or make one from a tensor, with no Python call.
    __dlpack_c_exchange_api__ = _EXCHANGE_CAPSULE

    def __dlpack_device__(self):
        """(device type, device id) of the memory: always (1, 0), the CPU (kDLCPU)."""
        return (MVS_DL_CPU, 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The exported view as a DLPack capsule (the Python array API's protocol), sharing
        the memory: a versioned tensor ("dltensor_versioned", DLPack 1.1) when `max_version` is
        (1, minor) or later, else a legacy one ("dltensor"). The tensor holds a reference to
        the buffer, given back when the consumer is done (or when the capsule goes unused).

        The keywords of the array API standard (2023.12), each refused as NumPy's
        ndarray.__dlpack__ refuses it (tests/test_dlpack.py compares them):
        - stream: None only (CPU memory has no stream): RuntimeError otherwise, -1 included.
        - max_version: None (a legacy tensor) or a (major, minor) tuple: TypeError otherwise.
        - dl_device: None or (1, 0), the CPU: TypeError when not a tuple, BufferError for
          another device.
        - copy: None or False share the memory; True exports a C-contiguous copy (flagged as
          copied, writable); a string is a ValueError.

        Read-only memory gives a read-only versioned tensor; a legacy tensor cannot say it is
        read-only, so read-only memory is refused then. Raises BufferError for what DLPack
        cannot carry: a format with no DLPack type, strides that are not multiples of the item
        size, another device, an owner of a typed memoryview (see owners.pxd)."""
        cdef mvs_slice view
        cdef mvs_slice copied
        cdef mvs_buffer *buffer = self.buffer
        cdef mvs_dl_managed_tensor_versioned *versioned = NULL
        cdef mvs_dl_managed_tensor *legacy = NULL
        cdef mvs_status st
        cdef unsigned long long flags = 0
        if stream is not None:
            # NumPy's type (RuntimeError): a stream is a wrong argument for CPU memory, not an
            # export that DLPack cannot carry
            raise RuntimeError(f"stream must be None for CPU memory, not {stream!r}")
        if max_version is not None and not (isinstance(max_version, tuple) and len(max_version) == 2):
            raise TypeError(f"max_version must be None or a (major, minor) tuple, not {max_version!r}")
        if dl_device is not None:
            if not isinstance(dl_device, tuple):
                raise TypeError(f"dl_device must be None or a (device type, device id) tuple, not {dl_device!r}")
            if dl_device != (MVS_DL_CPU, 0):
                raise BufferError(f"the memory is on the CPU, (1, 0); it cannot be exported to device {dl_device!r}")
        if isinstance(copy, str):
            raise ValueError(f"copy must be True, False or None, not {copy!r}")
        _check_exportable(self)
        use_versioned = max_version is not None and max_version[0] >= 1
        code = _dl_code(self.format, self.itemsize)
        bits = self.itemsize * 8
        view = _view_of(self)
        if copy:
            mvs_pyx_check(mvs_copy_contiguous(&view, self.ndim, self.itemsize, b'C', &buffer, &copied))
            view = copied
            flags = MVS_DLPACK_FLAG_IS_COPIED
        try:
            if use_versioned:
                st = mvs_dlpack_export(buffer, &view, self.ndim, code, bits, flags, &versioned)
            elif self.readonly and not copy:
                raise BufferError("the memory is read-only, which a legacy DLPack tensor cannot say: "
                                  "ask for a versioned one (max_version=(1, 1))")
            else:
                st = mvs_dlpack_export_legacy(buffer, &view, self.ndim, code, bits, &legacy)
            if st != MVS_OK:
                raise BufferError(mvs_last_error().decode())
        finally:
            if copy:
                mvs_buffer_release(buffer)  # the copy's: the tensor holds its own
        try:
            if use_versioned:
                return PyCapsule_New(versioned, "dltensor_versioned", _delete_versioned_capsule)
            return PyCapsule_New(legacy, "dltensor", _delete_legacy_capsule)
        except BaseException:
            if versioned != NULL:
                versioned.deleter(versioned)
            if legacy != NULL:
                legacy.deleter(legacy)
            raise


cdef int _check_exportable(BufferExport e) except -1:
    """BufferError unless `e` can be exported through DLPack."""
    if e.buffer == NULL:
        raise BufferError("this BufferExport exports nothing: it was not made by export()")
    if e.memory_only:
        raise BufferError("an owner of typed memoryviews cannot be exported through DLPack: "
                          "export the buffer itself (memviewslice.owners.export)")
    return 0


# DLPack 1.3's C exchange API of BufferExport (dlpack.h's DLPackExchangeAPI, as
# mvs_dlpack_exchange_api): what __dlpack__ and from_dlpack do, as C functions of the table
# that type(obj).__dlpack_c_exchange_api__ holds. The table is static: it lives as long as the
# process, as DLPack asks. Each function that takes or makes an object runs with the thread
# attached (the GIL held, where there is one) and fails with -1 and a Python exception set,
# which is Cython's `except -1`; the allocator and the stream query use no Python.

cdef int _exchange_from_object(void *obj, mvs_dl_managed_tensor_versioned **out) except -1:
    """managed_tensor_from_py_object_no_sync: the export that `obj` (a BufferExport) makes as
    a versioned tensor, sharing its memory: __dlpack__(max_version=(1, 1)) without a capsule."""
    cdef BufferExport e
    cdef mvs_slice view
    x = <object>obj
    if not isinstance(x, BufferExport):
        raise TypeError(f"memviewslice's DLPack exchange API takes a BufferExport, not {type(x).__name__}")
    e = <BufferExport>x
    _check_exportable(e)
    view = _view_of(e)
    if mvs_dlpack_export(e.buffer, &view, e.ndim, _dl_code(e.format, e.itemsize), e.itemsize * 8, 0, out) != MVS_OK:
        raise BufferError(mvs_last_error().decode())
    return 0


cdef int _exchange_to_object(mvs_dl_managed_tensor_versioned *tensor, void **out_object) except -1:
    """managed_tensor_to_py_object_no_sync: a new BufferExport that owns `tensor`, as
    from_dlpack makes one; the tensor is deleted when that fails (DLPack's "stolen")."""
    cdef mvs_slice view
    cdef int ndim
    cdef Py_ssize_t itemsize
    cdef mvs_buffer *buffer = NULL
    cdef mvs_status st
    if tensor == NULL:
        raise ValueError("managed_tensor_to_py_object_no_sync was given a NULL tensor")
    st = mvs_dlpack_import(tensor, &view, &ndim, &itemsize, &buffer)
    if st != MVS_OK:
        ndim = tensor.dl_tensor.ndim
        if tensor.deleter != NULL:
            tensor.deleter(tensor)
        _check_import(st, ndim)
    result = _export_dlpack(buffer, &view, ndim, itemsize, tensor.dl_tensor.dtype)
    Py_INCREF(result)
    out_object[0] = <void *>result
    return 0


cdef int _exchange_allocate(mvs_dl_tensor *prototype, mvs_dl_managed_tensor_versioned **out, void *error_ctx,
                            mvs_dlpack_set_error_fn set_error) noexcept nogil:
    """managed_tensor_allocator: a new C-contiguous tensor of `prototype`'s item type and shape
    in a new buffer of memviewslice (64-byte aligned, content unspecified), on the CPU."""
    cdef Py_ssize_t shape[8]
    cdef Py_ssize_t itemsize, nbytes
    cdef mvs_buffer *buffer = NULL
    cdef mvs_slice view
    cdef mvs_status st
    cdef int i
    if prototype == NULL or out == NULL:
        set_error(error_ctx, "ValueError", "managed_tensor_allocator was given a NULL prototype or output")
        return -1
    if prototype.device.device_type != MVS_DL_CPU:
        set_error(error_ctx, "BufferError", "memviewslice allocates CPU memory only (device type 1)")
        return -1
    if prototype.ndim < 0 or prototype.ndim > 8 or (prototype.ndim > 0 and prototype.shape == NULL):
        set_error(error_ctx, "BufferError", "memviewslice allocates tensors of 0 to 8 dimensions, with a shape")
        return -1
    if prototype.dtype.lanes != 1:
        set_error(error_ctx, "BufferError", "memviewslice allocates scalar items only (lanes 1)")
        return -1
    itemsize = prototype.dtype.bits // 8
    nbytes = itemsize
    for i in range(prototype.ndim):
        shape[i] = prototype.shape[i]
        if shape[i] < 0 or (shape[i] > 0 and nbytes > PY_SSIZE_T_MAX // shape[i]):
            set_error(error_ctx, "ValueError", "managed_tensor_allocator: a negative extent, or too many bytes")
            return -1
        nbytes *= shape[i]
    st = mvs_buffer_alloc(nbytes, 64, 0, &buffer)
    if st == MVS_OK:
        st = mvs_buffer_view(buffer, itemsize if itemsize > 0 else 1, prototype.ndim, shape, b'C', &view)
        if st == MVS_OK:
            st = mvs_dlpack_export(buffer, &view, prototype.ndim, prototype.dtype.code, prototype.dtype.bits, 0, out)
        mvs_buffer_release(buffer)  # the tensor holds its own reference
    if st != MVS_OK:
        set_error(error_ctx, "MemoryError" if st == MVS_ERR_ALLOC else "BufferError", mvs_last_error())
        return -1
    return 0


cdef int _exchange_current_work_stream(int32_t device_type, int32_t device_id, void **out_stream) noexcept nogil:
    """current_work_stream: CPU memory has no stream (NULL)."""
    out_stream[0] = NULL
    return 0


# The struct-module format of a DLPack type (code, bits) (_dl_code is the way back).
_DL_FORMATS = {
    (MVS_DL_INT, 8): b"b", (MVS_DL_INT, 16): b"h", (MVS_DL_INT, 32): b"i", (MVS_DL_INT, 64): b"q",
    (MVS_DL_UINT, 8): b"B", (MVS_DL_UINT, 16): b"H", (MVS_DL_UINT, 32): b"I", (MVS_DL_UINT, 64): b"Q",
    (MVS_DL_FLOAT, 16): b"e", (MVS_DL_FLOAT, 32): b"f", (MVS_DL_FLOAT, 64): b"d",
    (MVS_DL_COMPLEX, 64): b"Zf", (MVS_DL_COMPLEX, 128): b"Zd", (MVS_DL_BOOL, 8): b"?",
}
# _DL_FORMATS as a tuple indexed by _format_index(code, bits) (None where it has no entry), so
# that an import finds its format without making and hashing a tuple.
cdef enum:
    _FORMAT_CODES = 8
    _FORMAT_BYTES = 17
cdef tuple _FORMATS_BY_INDEX = tuple(
    _DL_FORMATS.get((i // _FORMAT_BYTES, i % _FORMAT_BYTES * 8)) for i in range(_FORMAT_CODES * _FORMAT_BYTES))


cdef inline Py_ssize_t _format_index(int code, int bits) noexcept:
    """The index of DLPack type (code, bits) in _FORMATS_BY_INDEX, or -1 for a type that has no
    entry there."""
    if code < 0 or code >= _FORMAT_CODES or bits <= 0 or bits % 8 or bits // 8 >= _FORMAT_BYTES:
        return -1
    return code * _FORMAT_BYTES + bits // 8


# The machine's byte order as a format prefix ('<' or '>'), which native items may carry.
cdef char _NATIVE_ORDER = b'<' if sys.byteorder == "little" else b'>'


cdef int _dl_code(bytes format, Py_ssize_t itemsize) except -1:
    """The DLPack type code of items of `format` (a struct-module or PEP 3118 format, with a
    native-order prefix or none) and `itemsize` bytes; BufferError when DLPack has no such type
    (non-native byte order included). A C switch: the dict lookup it replaced was a third of
    __dlpack__'s time."""
    cdef const char *f = format
    cdef Py_ssize_t n = len(format)
    cdef int code = -1
    if n > 1 and (f[0] == b'@' or f[0] == b'=' or f[0] == _NATIVE_ORDER):
        f += 1
        n -= 1
    if n == 1:
        if f[0] in b"bhilqn":
            code = MVS_DL_INT
        elif f[0] in b"BHILQN":
            code = MVS_DL_UINT
        elif f[0] in b"efd":
            code = MVS_DL_FLOAT
        elif f[0] in b"FD":
            code = MVS_DL_COMPLEX
        elif f[0] == b'?':
            code = MVS_DL_BOOL
    elif n == 2 and f[0] == b'Z' and (f[1] == b'f' or f[1] == b'd'):
        code = MVS_DL_COMPLEX
    if code < 0 or itemsize * 8 > 255:
        raise BufferError(f"format {format!r} ({itemsize}-byte items) has no DLPack type")
    return code


cdef void _delete_versioned_capsule(object capsule) noexcept:
    # An unconsumed capsule (a consumer renames it used_dltensor_versioned) deletes its tensor.
    cdef mvs_dl_managed_tensor_versioned *t
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        t = <mvs_dl_managed_tensor_versioned *>PyCapsule_GetPointer(capsule, b"dltensor_versioned")
        if t.deleter != NULL:
            t.deleter(t)


cdef void _delete_legacy_capsule(object capsule) noexcept:
    cdef mvs_dl_managed_tensor *t
    if PyCapsule_IsValid(capsule, b"dltensor"):
        t = <mvs_dl_managed_tensor *>PyCapsule_GetPointer(capsule, b"dltensor")
        if t.deleter != NULL:
            t.deleter(t)


def from_dlpack(x, /, *, device=None, copy=None):
    """A BufferExport sharing the memory of `x`, any object with `__dlpack__` of CPU memory
    (a NumPy array, a PyTorch CPU tensor, a BufferExport), without copying (through the C
    exchange API of x's type, DLPack 1.3, when it has one, and the array API's keywords are not
    given; else through x.__dlpack__): `np.asarray(obj)`,
    `memoryview(obj)` and Cython's typed memoryviews (`cdef double[:, :] v = from_dlpack(x)`)
    then share it. The result keeps the producer's tensor, hence `x`'s memory, alive: the
    tensor's deleter runs once, when the last of them is gone. Read-only tensors give read-only
    exports. Asks for a versioned tensor (DLPack 1.1) and takes a legacy one from producers
    that know no other. Raises BufferError for a device other than the CPU, more than 8
    dimensions or an item type with no buffer-protocol format (bool, int and uint 8 to 64
    bits, float 16 to 64, complex 64 and 128 have one), ValueError for a malformed tensor.

    The array API standard's keywords (2023.12), as np.from_dlpack takes them:
    - device: None (the memory stays where `x` has it, which must be the CPU) or "cpu" (asks
      the producer for CPU memory: `dl_device=(1, 0)`); anything else is a ValueError naming
      it, a (1, 0) tuple included, as NumPy has it.
    - copy: None shares when the producer can; True always gives a copy, writable, in new
      memory (the producer's copy when its tensor says it copied, else ours, C-contiguous);
      False never copies: BufferError when the producer cannot share (the producer raises it)
      or copied anyway. A string is a ValueError; other values count as booleans (NumPy's).
    `x.__dlpack__` is given `max_version`, and `dl_device` and `copy` when asked for; a producer
    that takes none of these keywords (TypeError) is asked again with none, and its tensor
    imported as above (where NumPy raises the TypeError when device or copy was given)."""
    method = _ndarray_dlpack(x)
    if device is not None or copy is not None:
        return _from_dlpack_keywords(x, method, device, copy)
    if method is not None:  # numpy.ndarray.__dlpack__ itself, saving the method's lookup on x
        try:
            capsule = method(x, max_version=(1, 1))
        except TypeError:
            capsule = method(x)
        return from_dlpack_capsule(capsule)
    cdef mvs_slice view
    cdef int ndim
    cdef Py_ssize_t itemsize
    cdef mvs_dl_data_type dtype
    cdef mvs_buffer *buffer = NULL
    import_dlpack(x, &view, &ndim, &itemsize, &dtype, &buffer)
    return _export_dlpack(buffer, &view, ndim, itemsize, dtype)


cdef _check_cpu(x):
    """BufferError when `x.__dlpack_device__()` is not the CPU."""
    device = tuple(x.__dlpack_device__())
    if device[0] != MVS_DL_CPU:
        raise BufferError(f"the object's memory is on device {device}, not the CPU (1, 0)")


cdef BufferExport _from_dlpack_keywords(x, method, device, copy):
    """from_dlpack(x, device=device, copy=copy) when either is given (`method`:
    _ndarray_dlpack(x))."""
    if device is not None and not (isinstance(device, str) and device == "cpu"):
        raise ValueError(f"device {device!r} is not supported: only 'cpu' (memviewslice's memory is on the CPU)")
    if copy is not None:
        if isinstance(copy, str):
            raise ValueError(f"copy must be True, False or None, not {copy!r}")
        copy = bool(copy)
    dl_device = None
    if device is not None:
        dl_device = (MVS_DL_CPU, 0)  # the producer may move its memory there
    elif method is None and hasattr(x, "__dlpack_device__"):
        _check_cpu(x)
    try:
        if method is not None:
            capsule = method(x, max_version=(1, 1), dl_device=dl_device, copy=copy)
        else:
            capsule = x.__dlpack__(max_version=(1, 1), dl_device=dl_device, copy=copy)
    except TypeError:
        # a producer older than the keywords (array API 2023.12) takes none of them; its
        # tensor's device is checked by the import, and copy is applied below
        capsule = x.__dlpack__()
    copied = _capsule_copied(capsule)
    if copy is False and copied:
        raise BufferError("copy=False, but the producer copied the tensor (its flags say so)")
    result = from_dlpack_capsule(capsule)
    if copy and not copied:
        return _copy_export(result)
    return result


cdef bint _capsule_copied(capsule):
    """Whether `capsule` holds an unconsumed versioned tensor flagged as copied (a legacy
    tensor cannot say it was)."""
    cdef mvs_dl_managed_tensor_versioned *t
    if not PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        return False
    t = <mvs_dl_managed_tensor_versioned *>PyCapsule_GetPointer(capsule, b"dltensor_versioned")
    return (t.flags & MVS_DLPACK_FLAG_IS_COPIED) != 0


cdef mvs_slice _view_of(BufferExport e):
    """The view that `e` exports, as an mvs_slice (memview NULL, entries past ndim 0 and -1)."""
    cdef mvs_slice view
    cdef int i
    view.memview = NULL
    view.data = e.data
    for i in range(8):
        view.shape[i] = e.shape[i] if i < e.ndim else 0
        view.strides[i] = e.strides[i] if i < e.ndim else 0
        view.suboffsets[i] = -1
    return view


cdef BufferExport _copy_export(BufferExport e):
    """An export of a C-contiguous copy of `e`'s view, in a new buffer (writable)."""
    cdef mvs_slice view = _view_of(e)
    cdef mvs_slice copied
    cdef mvs_buffer *buffer = NULL
    mvs_pyx_check(mvs_copy_contiguous(&view, e.ndim, e.itemsize, b'C', &buffer, &copied))
    try:
        return _export(buffer, &copied, e.ndim, e.itemsize, e.format, False, False)
    finally:
        mvs_buffer_release(buffer)  # the copy's first reference: the export holds its own


# (numpy.ndarray, numpy.ndarray.__dlpack__), once NumPy is imported: NumPy arrays are always in
# CPU memory, so from_dlpack does not ask them (__dlpack_device__ was a tenth of its time), and
# it calls their method without looking it up on each array.
cdef tuple _ndarray = None


cdef inline object _ndarray_dlpack(x):
    """numpy.ndarray.__dlpack__ when `x` is exactly a NumPy array (not a subclass, which may say
    otherwise), else None."""
    global _ndarray
    cdef tuple ndarray = _ndarray
    if ndarray is None:
        numpy = sys.modules.get("numpy")
        if numpy is None:
            return None
        ndarray = _ndarray = (numpy.ndarray, numpy.ndarray.__dlpack__)
    return ndarray[1] if type(x) is ndarray[0] else None


# The exchange APIs found on tensor types (DLPack 1.3: type(x).__dlpack_c_exchange_api__, a
# PyCapsule "dlpack_exchange_api"), as {type: capsule, or None for a type without one}. A
# table lives as long as its process (DLPack's rule), so its pointer stays valid; the capsule is
# kept anyway. At most _EXCHANGE_TYPES types are remembered (a program making types without end
# does not grow it); others are looked up on each call. Thread-safe: one dict operation each.
cdef dict _exchange_apis = {}
cdef enum:
    _EXCHANGE_TYPES = 1024


cdef const mvs_dlpack_exchange_api *exchange_api(type tp) except? NULL:
    """The DLPack C exchange API of tensors of type `tp`, or NULL (no exception) when it has
    none: not a capsule named "dlpack_exchange_api"."""
    capsule = _exchange_apis.get(tp, False)
    if capsule is False:
        capsule = getattr(tp, "__dlpack_c_exchange_api__", None)
        if not PyCapsule_IsValid(capsule, b"dlpack_exchange_api"):
            capsule = None
        if len(_exchange_apis) < _EXCHANGE_TYPES:
            _exchange_apis[tp] = capsule
    if capsule is None:
        return NULL
    return <const mvs_dlpack_exchange_api *>PyCapsule_GetPointer(capsule, b"dlpack_exchange_api")


cdef int import_dlpack(x, mvs_slice *view, int *ndim, Py_ssize_t *itemsize, mvs_dl_data_type *dtype,
                       mvs_buffer **buffer) except -1:
    """`x` (any DLPack producer's tensor of CPU memory) as a view and a buffer that owns its
    tensor, as mvs_dlpack_import gives them: through the C exchange API of x's type when it has
    one (one C call), else through x.__dlpack__ (a versioned tensor asked for, a legacy one
    taken). Raises as from_dlpack does (the producer's own exception when its function fails)."""
    cdef const mvs_dlpack_exchange_api *api = exchange_api(type(x))
    if api != NULL:
        return _import_object(api, x, view, ndim, itemsize, dtype, buffer)
    if hasattr(x, "__dlpack_device__"):
        _check_cpu(x)
    try:
        capsule = x.__dlpack__(max_version=(1, 1))
    except TypeError:
        capsule = x.__dlpack__()
    return _import_capsule(capsule, view, ndim, itemsize, dtype, buffer)


cdef int _import_object(const mvs_dlpack_exchange_api *api, x, mvs_slice *view, int *ndim, Py_ssize_t *itemsize,
                        mvs_dl_data_type *dtype, mvs_buffer **buffer) except -1:
    """mvs_dlpack_import_object of `x` through `api`; a failed producer's exception is raised
    as it set it."""
    cdef mvs_status st = mvs_dlpack_import_object(api, <void *>x, view, ndim, itemsize, dtype, buffer)
    if st == MVS_ERR_PRODUCER and PyErr_Occurred() != NULL:
        return -1  # the producer's exception, left set: Cython's callers propagate it
    if st == MVS_ERR_PRODUCER:
        raise BufferError(mvs_last_error().decode())
    if st == MVS_ERR_NDIM:  # the tensor, which the import deleted, had too many (or negative) dimensions
        raise BufferError(f"{mvs_last_error().decode()}: memviewslice's views have 0 to 8 dimensions")
    return _check_import(st, 0)


cdef BufferExport from_dlpack_capsule(capsule):
    """from_dlpack() of a capsule of an unconsumed DLPack tensor ("dltensor_versioned" or
    "dltensor"), which it consumes (renames "used_...") when the import succeeds."""
    cdef mvs_slice view
    cdef int ndim
    cdef Py_ssize_t itemsize
    cdef mvs_dl_data_type dtype
    cdef mvs_buffer *buffer = NULL
    _import_capsule(capsule, &view, &ndim, &itemsize, &dtype, &buffer)
    return _export_dlpack(buffer, &view, ndim, itemsize, dtype)


cdef int _import_capsule(capsule, mvs_slice *view, int *ndim, Py_ssize_t *itemsize, mvs_dl_data_type *dtype,
                         mvs_buffer **buffer) except -1:
    """mvs_dlpack_import of the tensor of a capsule as from_dlpack_capsule() takes it."""
    cdef mvs_dl_managed_tensor_versioned *versioned = NULL
    cdef mvs_dl_managed_tensor *legacy = NULL
    cdef mvs_status st = MVS_OK
    cdef bint found = True
    cdef int tensor_ndim = 0
    # One consumer per capsule: the name's check, the import and the renaming are one step for
    # other threads (without a GIL, two threads given one capsule would both import its tensor).
    with cython.critical_section(capsule):
        if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
            versioned = <mvs_dl_managed_tensor_versioned *>PyCapsule_GetPointer(capsule, b"dltensor_versioned")
            dtype[0] = versioned.dl_tensor.dtype
            st = mvs_dlpack_import(versioned, view, ndim, itemsize, buffer)
            if st != MVS_OK:
                tensor_ndim = versioned.dl_tensor.ndim
        elif PyCapsule_IsValid(capsule, b"dltensor"):
            legacy = <mvs_dl_managed_tensor *>PyCapsule_GetPointer(capsule, b"dltensor")
            dtype[0] = legacy.dl_tensor.dtype
            st = mvs_dlpack_import_legacy(legacy, view, ndim, itemsize, buffer)
            if st != MVS_OK:
                tensor_ndim = legacy.dl_tensor.ndim
        else:
            found = False
        # On success the buffer owns the tensor: the capsule must not delete it. (The capsule
        # keeps the name's pointer: static strings only.) On failure the tensor is still the
        # capsule's, whose destructor deletes it.
        if versioned != NULL and st == MVS_OK:
            PyCapsule_SetName(capsule, "used_dltensor_versioned")
        elif legacy != NULL and st == MVS_OK:
            PyCapsule_SetName(capsule, "used_dltensor")
    if not found:
        raise ValueError("not a DLPack capsule, or one already consumed")
    return _check_import(st, tensor_ndim)


cdef int _check_import(mvs_status st, int tensor_ndim) except -1:
    """Raises what a failed import (`st`) of a tensor of `tensor_ndim` dimensions means for
    the array API: BufferError for what the tensor holds that a view cannot, ValueError for a
    malformed tensor."""
    if st == MVS_OK:
        return 0
    if tensor_ndim > 8:
        # what the array API asks of a consumer that cannot take the tensor (NumPy takes
        # up to 64 dimensions; views here have at most 8)
        raise BufferError(f"the tensor has {tensor_ndim} dimensions; memviewslice's views have at most 8")
    if st in (MVS_ERR_DEVICE, MVS_ERR_DTYPE, MVS_ERR_VERSION):
        raise BufferError(mvs_last_error().decode())
    return mvs_pyx_check(st)


cdef BufferExport _export_dlpack(mvs_buffer *buffer, const mvs_slice *view, int ndim, Py_ssize_t itemsize,
                                 mvs_dl_data_type dtype):
    """The export of a view that an import just made with `buffer`, of items of DLPack type
    `dtype`, taking over the import's reference (released on failure)."""
    cdef Py_ssize_t index = _format_index(dtype.code, dtype.bits)
    format = _FORMATS_BY_INDEX[index] if index >= 0 else None
    if format is None:
        mvs_buffer_release(buffer)
        raise BufferError(f"DLPack type (code {dtype.code}, {dtype.bits} bits) has no buffer-protocol format")
    return _export_imported(buffer, view, ndim, itemsize, format)


cdef inline bint _numpy_contiguous(const mvs_slice *view, int ndim, Py_ssize_t itemsize, bint c_order) noexcept:
    """NumPy's relaxed contiguity of a direct view whose byte count fits (mvs_is_contiguous
    with MVS_CONTIG_NUMPY): a view with no item is contiguous; otherwise each axis of extent
    other than 1, from the innermost (the last for `c_order`, else the first) out, has the
    stride of the items inside it."""
    cdef Py_ssize_t expected = itemsize
    cdef int k, axis
    for k in range(ndim):
        if view.shape[k] == 0:
            return True
    for k in range(ndim):
        axis = ndim - 1 - k if c_order else k
        if view.shape[axis] != 1:
            if view.strides[axis] != expected:
                return False
            expected *= view.shape[axis]
    return True


cdef BufferExport _export_imported(mvs_buffer *buffer, const mvs_slice *view, int ndim, Py_ssize_t itemsize,
                                   bytes format):
    """_export() of a view that mvs_dlpack_import just made with `buffer` (direct, inside the
    buffer's memory, as the import guarantees: not checked again), taking over the import's
    reference instead of adding one; released on failure."""
    cdef BufferExport e
    cdef int readonly
    cdef int i
    cdef Py_ssize_t items = 1
    for i in range(ndim):
        items *= view.shape[i]  # cannot overflow: the import checked the item count
    try:
        e = BufferExport.__new__(BufferExport)
        mvs_pyx_check(mvs_buffer_readonly(buffer, &readonly))
        if items > PY_SSIZE_T_MAX // itemsize:  # a broadcast tensor's bytes may not fit
            mvs_pyx_check(mvs_byte_count(view, ndim, itemsize, &e.nbytes))
    except BaseException:
        mvs_buffer_release(buffer)
        raise
    # mvs_byte_count and mvs_is_contiguous (MVS_CONTIG_NUMPY) of a view known valid: each call
    # checked the whole view again, and the three were a quarter of from_dlpack's time.
    # tests/test_dlpack.py compares the flags with NumPy's.
    e.nbytes = items * itemsize
    e.c_contiguous = _numpy_contiguous(view, ndim, itemsize, True)
    e.f_contiguous = _numpy_contiguous(view, ndim, itemsize, False)
    return _hold(e, buffer, view, ndim, itemsize, format, False, readonly)


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
    return _hold(e, buffer, view, ndim, itemsize, format, memory_only, readonly or readonly_view)


cdef inline BufferExport _hold(BufferExport e, mvs_buffer *buffer, const mvs_slice *view, int ndim,
                               Py_ssize_t itemsize, bytes format, bint memory_only, bint readonly):
    """`e`, which now holds a reference (or a memory reference) to `buffer`, exporting `view`."""
    cdef int i
    e.buffer = buffer
    e.memory_only = memory_only
    e.data = view.data
    e.ndim = ndim
    e.readonly = readonly
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
