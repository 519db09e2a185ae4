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
# - The module's dicts (_COMPLEX_SIZES, _DL_CODES, _DL_FORMATS) and _FORMATS_BY_INDEX are never
#   written after import; _ndarray is written once from None to a tuple made before, so a racing
#   reader sees one or the other (and racing writers at worst leak a reference to one).

cimport cython
from cpython.pyport cimport PY_SSIZE_T_MAX

import struct
import sys

from cpython.pycapsule cimport PyCapsule_New, PyCapsule_IsValid, PyCapsule_GetPointer, PyCapsule_SetName
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
        if self.buffer == NULL:
            raise BufferError("this BufferExport exports nothing: it was not made by export()")
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
        if self.memory_only:
            raise BufferError("an owner of typed memoryviews cannot be exported through DLPack: "
                              "export the buffer itself (memviewslice.owners.export)")
        use_versioned = max_version is not None and max_version[0] >= 1
        code, bits = _dl_dtype(self.format, self.itemsize)
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


# The DLPack type (code, bits) of a struct-module or PEP 3118 format's type character, and back.
_DL_CODES = {
    **dict.fromkeys("bhilqn", MVS_DL_INT), **dict.fromkeys("BHILQN", MVS_DL_UINT),
    **dict.fromkeys("efd", MVS_DL_FLOAT), **dict.fromkeys(("F", "D", "Zf", "Zd"), MVS_DL_COMPLEX),
    "?": MVS_DL_BOOL,
}
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


def _dl_dtype(format, Py_ssize_t itemsize):
    """(code, bits) of items of `format` (bytes) and `itemsize` bytes; BufferError when DLPack
    has no such type (non-native byte order included)."""
    f = format.decode()
    native = "<" if sys.byteorder == "little" else ">"
    if f[:1] in ("@", "=", native):
        f = f[1:]
    code = _DL_CODES.get(f)
    if code is None or itemsize * 8 > 255:
        raise BufferError(f"format {format!r} ({itemsize}-byte items) has no DLPack type")
    return code, itemsize * 8


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
    (a NumPy array, a PyTorch CPU tensor, a BufferExport), without copying: `np.asarray(obj)`,
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
    if hasattr(x, "__dlpack_device__"):
        _check_cpu(x)
    try:
        capsule = x.__dlpack__(max_version=(1, 1))
    except TypeError:
        capsule = x.__dlpack__()
    return from_dlpack_capsule(capsule)


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


cdef BufferExport from_dlpack_capsule(capsule):
    """from_dlpack() of a capsule of an unconsumed DLPack tensor ("dltensor_versioned" or
    "dltensor"), which it consumes (renames "used_...") when the import succeeds."""
    cdef mvs_dl_managed_tensor_versioned *versioned = NULL
    cdef mvs_dl_managed_tensor *legacy = NULL
    cdef mvs_slice view
    cdef int ndim
    cdef Py_ssize_t itemsize
    cdef mvs_buffer *buffer = NULL
    cdef mvs_status st = MVS_OK
    cdef int code = 0, bits = 0
    cdef bint found = True
    cdef int tensor_ndim = 0
    # One consumer per capsule: the name's check, the import and the renaming are one step for
    # other threads (without a GIL, two threads given one capsule would both import its tensor).
    with cython.critical_section(capsule):
        if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
            versioned = <mvs_dl_managed_tensor_versioned *>PyCapsule_GetPointer(capsule, b"dltensor_versioned")
            code, bits = versioned.dl_tensor.dtype.code, versioned.dl_tensor.dtype.bits
            st = mvs_dlpack_import(versioned, &view, &ndim, &itemsize, &buffer)
            if st != MVS_OK:
                tensor_ndim = versioned.dl_tensor.ndim
        elif PyCapsule_IsValid(capsule, b"dltensor"):
            legacy = <mvs_dl_managed_tensor *>PyCapsule_GetPointer(capsule, b"dltensor")
            code, bits = legacy.dl_tensor.dtype.code, legacy.dl_tensor.dtype.bits
            st = mvs_dlpack_import_legacy(legacy, &view, &ndim, &itemsize, &buffer)
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
    if st != MVS_OK:
        if tensor_ndim > 8:
            # what the array API asks of a consumer that cannot take the tensor (NumPy takes
            # up to 64 dimensions; views here have at most 8)
            raise BufferError(f"the tensor has {tensor_ndim} dimensions; memviewslice's views have at most 8")
        if st in (MVS_ERR_DEVICE, MVS_ERR_DTYPE, MVS_ERR_VERSION):
            raise BufferError(mvs_last_error().decode())
        mvs_pyx_check(st)
    cdef Py_ssize_t index = _format_index(code, bits)
    format = _FORMATS_BY_INDEX[index] if index >= 0 else None
    if format is None:
        mvs_buffer_release(buffer)
        raise BufferError(f"DLPack type (code {code}, {bits} bits) has no buffer-protocol format")
    return _export_imported(buffer, &view, ndim, itemsize, format)


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
