#!/usr/bin/env python3
"""DLPack through the Python package (memviewslice.owners): BufferExport.__dlpack__ /
__dlpack_device__ and memviewslice.from_dlpack, against NumPy (the required peer; PyTorch is
not installed in CI: too large).

- round trips NumPy -> from_dlpack -> np.from_dlpack and -> from_dlpack again, for every dtype
  NumPy exports through DLPack and views of 0 to 8 dimensions with negative and zero strides:
  address, shape, strides and dtype equal, memory shared;
- a producer of its own (ctypes, DLPack 1.1 structs) with a counting deleter, byte offsets and
  NULL strides: the deleter runs exactly once, after the last user, in every release order of
  the owner, a NumPy array of it, a memoryview, np.from_dlpack of it and from_dlpack of it
  (gc disabled, so that only reference counts free them);
- read-only tensors give read-only owners, which refuse writable use and legacy export;
- contiguous buffer requests of imports succeed exactly when NumPy's flags say so;
- malformed tensors are refused with their errors and the deleter still runs once (by the
  capsule, which keeps the tensor on failure); other devices, streams, copies, legacy capsules.

Under pytest, one test per scenario; the round trips and the byte offsets one per dtype
(test_round_trips[float64], test_byte_offsets_and_null_strides[int8], ...), the malformed tensors
one per kind (test_malformed_tensor[ndim 9], ...). A failing test lists every failed check.

    .venv/bin/python -m pytest tests/test_dlpack.py -q [-k round_trips]
    .venv/bin/python tests/test_dlpack.py    (the same, through pytest.main)
"""

import ctypes
import gc
import itertools
import os
import pathlib
import subprocess
import sys
import sysconfig
import tempfile
import weakref

import numpy as np
import pytest

import memviewslice
from memviewslice import from_dlpack

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL", what)


@pytest.fixture(autouse=True)
def checks(record_property):
    """Each test starts with no failed check; `checks(note)` at its end asserts that none failed
    (listing them) and records the note (what it counted)."""
    failures.clear()

    def done(note=""):
        if note:
            record_property("summary", note)
        assert not failures, f"{len(failures)} failed checks:\n" + "\n".join(failures)

    return done


def raises(exc, fn, what, part=""):
    try:
        fn()
    except exc as e:
        check(part in str(e), f"{what}: message {str(e)!r} should mention {part!r}")
        return
    except Exception as e:  # noqa: BLE001
        check(False, f"{what}: raised {type(e).__name__}: {e}, not {exc.__name__}")
        return
    check(False, f"{what}: did not raise {exc.__name__}")


def layout(a):
    """(address, shape, strides, dtype) of anything NumPy can view."""
    a = np.asarray(a)
    return a.__array_interface__["data"][0], a.shape, a.strides, a.dtype


# ---- round trips with NumPy ------------------------------------------------------------------

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128]


def views(dtype, ndim):
    """Views of `ndim` dimensions over one base: reversed axes (negative strides), a broadcast
    axis (zero stride), steps, an offset start, and a zero-size one."""
    shape = (3, 2, 2, 1, 2, 2, 1, 2)[:ndim]
    base = (np.arange(4 * int(np.prod([s + 1 for s in shape])), dtype=np.int64) % 7).astype(dtype)
    big = base[: int(np.prod([s + 1 for s in shape]))].reshape([s + 1 for s in shape])
    out = [big, big[(Ellipsis,) + tuple(slice(None, None, -1) for _ in range(ndim))]]
    if ndim:
        out.append(big[(slice(1, None, 2),) + (slice(None, None, -1),) * (ndim - 1)])
        out.append(np.broadcast_to(big[:1], (4,) + big.shape[1:]))
        out.append(big[tuple(slice(1, None) for _ in range(ndim))])
        out.append(big[:0])
    return out


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
def test_round_trips(dtype, checks):
    n = 0
    for ndim in range(9):
        for a in views(dtype, ndim):
            o = from_dlpack(a)
            check(layout(o) == layout(a), f"{dtype.__name__} {a.shape} {a.strides}: from_dlpack {layout(o)} != {layout(a)}")
            check(np.array_equal(np.asarray(o), a), f"{dtype.__name__} {a.shape}: values")
            b = np.from_dlpack(o)
            check(layout(b) == layout(a), f"{dtype.__name__} {a.shape}: np.from_dlpack {layout(b)} != {layout(a)}")
            c = from_dlpack(o)
            check(layout(c) == layout(a), f"{dtype.__name__} {a.shape}: from_dlpack of an owner")
            check(np.asarray(o).flags.writeable == a.flags.writeable, f"{dtype.__name__} {a.shape}: writeable")
            check(b.flags.writeable == a.flags.writeable, f"{dtype.__name__} {a.shape}: np.from_dlpack writeable")
            n += 1
    checks(f"round trips: {n} views of {dtype.__name__}, 0-d to 8-d")


def buffer_request(obj, flags):
    """Whether PyObject_GetBuffer(obj, flags) succeeds (the buffer is released at once)."""
    get, release = ctypes.pythonapi.PyObject_GetBuffer, ctypes.pythonapi.PyBuffer_Release
    get.argtypes, release.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int], [ctypes.c_void_p]
    buf = (ctypes.c_byte * 256)()
    try:
        get(obj, buf, flags)
    except BufferError:
        return False
    release(buf)
    return True


def test_contiguity_and_bytes(checks):
    """from_dlpack computes an import's byte count and NumPy-rule contiguity itself (not through
    the library's queries): a C-, F- or any-contiguous buffer request succeeds exactly when
    NumPy's flags say so, and the byte count is NumPy's, for views of 0 to 8 dimensions
    (transposed, stepped, broadcast, zero-size, with axes of extent 1)."""
    # PyBUF_STRIDES (PyBUF_ND included) and the contiguous requests, which include it
    strides = 0x0010 | 0x0008
    c_contig, f_contig, any_contig = 0x0020 | strides, 0x0040 | strides, 0x0080 | strides
    n = 0
    for dtype in (np.int8, np.float64, np.complex128):
        for ndim in range(9):
            # views, their transposes, and axes of extent 1 whose strides a strict rule refuses
            ones = np.ones((3, 4), dtype)
            for a in views(dtype, ndim) + [v.T for v in views(dtype, ndim)] + [ones[1:2], ones[1:2].T, ones[:, 1:2]]:
                o = from_dlpack(a)
                what = f"{np.dtype(dtype).name} {a.shape} {a.strides}"
                check(memoryview(o).nbytes == a.nbytes, f"{what}: nbytes {memoryview(o).nbytes} != {a.nbytes}")
                check(buffer_request(o, c_contig) == a.flags.c_contiguous, f"{what}: C-contiguous request")
                check(buffer_request(o, f_contig) == a.flags.f_contiguous, f"{what}: F-contiguous request")
                check(buffer_request(o, any_contig) == (a.flags.c_contiguous or a.flags.f_contiguous),
                      f"{what}: any-contiguous request")
                check(buffer_request(o, strides), f"{what}: strided request")
                n += 1
    checks(f"contiguity and bytes: {n} imports")


def test_write_through_owner(checks):
    # writes through the owner land in the producer's memory
    a = np.zeros((3, 4))
    np.asarray(from_dlpack(a[::-1, 1::2]))[0, 1] = 5
    check(a[2, 3] == 5, "a write through the owner reaches the array")
    checks()


def test_producer_kept_alive(checks):
    gc.disable()
    try:
        a = np.arange(12.0).reshape(3, 4).copy()  # owns its memory
        ref = weakref.ref(a)
        o = from_dlpack(a.T)
        del a
        check(ref() is not None, "the owner keeps the array alive")
        check(np.asarray(o)[1, 2] == 9.0, "values after the producer's name is gone")
        b = np.from_dlpack(o)
        del o
        check(ref() is not None, "np.from_dlpack of the owner keeps the array alive")
        del b
        check(ref() is None, "the array goes with the last user")
    finally:
        gc.enable()
    checks()


# ---- a producer of its own, with a counting deleter ------------------------------------------

class Version(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", Device), ("ndim", ctypes.c_int32), ("dtype", DataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class Versioned(ctypes.Structure):
    pass


Versioned._fields_ = [("version", Version), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                      ("flags", ctypes.c_uint64), ("dl_tensor", Tensor)]

PyCapsule_IsValid = ctypes.pythonapi.PyCapsule_IsValid
PyCapsule_IsValid.restype = ctypes.c_int
PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]

# The producer's C side: a deleter that counts its calls (in the long at manager_ctx), and a
# capsule whose destructor deletes an unconsumed tensor, keeping any pending exception (as
# NumPy's does: a capsule may be freed while an exception propagates, where no Python code, a
# ctypes callback included, may run).
PRODUCER_C = r"""
#include <Python.h>
#include <stdint.h>
typedef struct tensor { uint32_t version[2]; void *ctx; void (*deleter)(struct tensor *); } tensor;
void count_delete(tensor *t) { __atomic_fetch_add((long *)t->ctx, 1, __ATOMIC_SEQ_CST); }
static void destroy(PyObject *capsule) {
  PyObject *type, *value, *tb;
  if (!PyCapsule_IsValid(capsule, "dltensor_versioned")) return;
  PyErr_Fetch(&type, &value, &tb);
  tensor *t = (tensor *)PyCapsule_GetPointer(capsule, "dltensor_versioned");
  if (t->deleter) t->deleter(t);
  PyErr_Restore(type, value, tb);
}
PyObject *new_capsule(void *t) { return PyCapsule_New(t, "dltensor_versioned", destroy); }

/* DLPack 1.3's exchange API, as a producer publishes it (written from dlpack.h's description):
 * from_object gives the tensor at the object's `_tensor_address` (an int), or fails with the
 * attribute's exception set. Three tables: 0 of version 1.3; 1 of version 2.0 chained to 0
 * (whose own function must not be called); 2 of version 2.0 alone. */
typedef struct api { uint32_t version[2]; struct api *prev_api; void *allocator;
                     int (*from_object)(PyObject *, tensor **); void *to_object, *dltensor, *stream; } api;
static int from_object(PyObject *obj, tensor **out) {
  PyObject *address = PyObject_GetAttrString(obj, "_tensor_address");
  if (address == NULL) return -1;
  *out = (tensor *)PyLong_AsVoidPtr(address);
  Py_DECREF(address);
  return PyErr_Occurred() ? -1 : 0;
}
static int wrong_table(PyObject *obj, tensor **out) {
  (void)obj; (void)out;
  PyErr_SetString(PyExc_AssertionError, "the table of major version 2 was used");
  return -1;
}
static api tables[3] = {{{1, 3}, NULL, NULL, from_object, NULL, NULL, NULL},
                        {{2, 0}, &tables[0], NULL, wrong_table, NULL, NULL, NULL},
                        {{2, 0}, NULL, NULL, wrong_table, NULL, NULL, NULL}};
PyObject *api_capsule(int which) { return PyCapsule_New(&tables[which], "dlpack_exchange_api", NULL); }
"""


def build_producer():
    out = pathlib.Path(tempfile.mkdtemp(prefix="mvs_dlpack_test_"))
    (out / "producer.c").write_text(PRODUCER_C)
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", f"-I{sysconfig.get_paths()['include']}", str(out / "producer.c"),
                    "-o", str(out / "producer.so")], check=True)
    lib = ctypes.PyDLL(str(out / "producer.so"))
    lib.new_capsule.restype = ctypes.py_object
    lib.new_capsule.argtypes = [ctypes.c_void_p]
    lib.api_capsule.restype = ctypes.py_object
    lib.api_capsule.argtypes = [ctypes.c_int]
    return lib


PRODUCER = build_producer()


class Producer:
    """A DLPack 1.1 producer of its own, over NumPy memory it keeps: __dlpack__ gives a capsule
    of a ctypes tensor whose deleter counts its calls; the capsule deletes an unconsumed tensor,
    as producers do."""

    def __init__(self, memory, shape, strides=None, byte_offset=0, code=2, bits=64, flags=0):
        self.memory = memory
        self.count = ctypes.c_long(0)
        self.shape = (ctypes.c_int64 * 9)(*shape)
        self.strides = (ctypes.c_int64 * 9)(*strides) if strides is not None else None
        t = Versioned()
        t.version = Version(1, 1)
        t.manager_ctx = ctypes.addressof(self.count)
        t.deleter = ctypes.cast(PRODUCER.count_delete, ctypes.c_void_p).value
        t.flags = flags
        t.dl_tensor.data = memory.__array_interface__["data"][0]
        t.dl_tensor.device = Device(1, 0)
        t.dl_tensor.ndim = len(shape)
        t.dl_tensor.dtype = DataType(code, bits, 1)
        t.dl_tensor.shape = ctypes.cast(self.shape, ctypes.POINTER(ctypes.c_int64))
        if self.strides is not None:
            t.dl_tensor.strides = ctypes.cast(self.strides, ctypes.POINTER(ctypes.c_int64))
        t.dl_tensor.byte_offset = byte_offset
        self.tensor = t

    @property
    def deleted(self):
        return self.count.value

    def __dlpack_device__(self):
        return (1, 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return PRODUCER.new_capsule(ctypes.addressof(self.tensor))


def test_deleter_once_after_the_last_user(checks):
    """Every order in which five users of one import let go: the deleter runs once, after the
    last."""
    mem = np.arange(64.0)
    kinds = ["owner", "asarray", "memoryview", "np_from_dlpack", "from_dlpack"]
    gc.disable()
    try:
        orders = 0
        for order in itertools.permutations(range(len(kinds))):
            p = Producer(mem, (3, 4), strides=(-8, 2), byte_offset=8 * 40)
            o = from_dlpack(p)
            users = [o, np.asarray(o)[::2], memoryview(o)[1:], np.from_dlpack(o), from_dlpack(o)]
            check(layout(users[0]) == (mem.__array_interface__["data"][0] + 8 * 40, (3, 4), (-64, 16), np.float64),
                  f"the import's view: {layout(users[0])}")
            del o
            check(p.deleted == 0, "the deleter did not run while the users live")
            for k, i in enumerate(order):
                users[i] = None
                check(p.deleted == (1 if k == len(order) - 1 else 0),
                      f"order {order}: after releasing {kinds[i]} ({k + 1} of {len(order)}), {p.deleted} deletions")
            orders += 1
    finally:
        gc.enable()
    checks(f"deleter: exactly once after the last of {len(kinds)} users, in {orders} orders")


DL_TYPES = {np.bool_: (6, 8), np.int8: (0, 8), np.int16: (0, 16), np.int32: (0, 32), np.int64: (0, 64),
            np.uint8: (1, 8), np.uint16: (1, 16), np.uint32: (1, 32), np.uint64: (1, 64), np.float16: (2, 16),
            np.float32: (2, 32), np.float64: (2, 64), np.complex64: (5, 64), np.complex128: (5, 128)}


@pytest.mark.parametrize("dtype", list(DL_TYPES), ids=lambda t: t.__name__)
def test_byte_offsets_and_null_strides(dtype, checks):
    """A producer's tensors with byte offsets and NULL strides (row-major), or strides of any
    sign, of every dtype and 0 to 8 dimensions: the owner and NumPy's array of it are at data +
    byte_offset with the right shape, strides and dtype; each deleted once."""
    mem = np.arange(4096, dtype=np.uint8)
    base = mem.__array_interface__["data"][0]
    n = 0
    code, bits = DL_TYPES[dtype]
    size = bits // 8
    for ndim in range(9):
        for strided in (False, True):
            shape = (2,) * ndim
            strides = tuple((-1) ** k * 2 ** (ndim - 1 - k) for k in range(ndim)) if strided else None
            offset = size * (3 + 2 ** ndim)
            p = Producer(mem, shape, strides, byte_offset=offset, code=code, bits=bits)
            o = from_dlpack(p)
            want_strides = tuple(s * size for s in strides) if strided else np.empty(shape, dtype).strides
            want = (base + offset, shape, want_strides, np.dtype(dtype))
            check(layout(o) == want, f"{dtype.__name__} {ndim}-d offset {offset}: {layout(o)} != {want}")
            b = np.from_dlpack(o)
            check(layout(b) == want, f"{dtype.__name__} {ndim}-d: np.from_dlpack {layout(b)} != {want}")
            del o
            check(p.deleted == 0, f"{dtype.__name__} {ndim}-d: deleted while NumPy's array lives")
            del b
            check(p.deleted == 1, f"{dtype.__name__} {ndim}-d: deleted {p.deleted} times, not once")
            n += 1
    checks(f"byte offsets: {n} tensors of {dtype.__name__}, 0-d to 8-d, NULL and signed strides")


def test_read_only(checks):
    a = np.arange(6.0).reshape(2, 3)
    a.flags.writeable = False
    o = from_dlpack(a)
    check(not np.asarray(o).flags.writeable, "a read-only array gives a read-only owner")
    check(memoryview(o).readonly, "memoryview of a read-only owner is read-only")
    raises(ValueError, lambda: np.asarray(o).__setitem__((0, 0), 1.0), "writing a read-only owner's array")
    raises(BufferError, lambda: o.__dlpack__(), "legacy export of read-only memory", "read-only")
    check(not np.from_dlpack(o).flags.writeable, "np.from_dlpack of a read-only owner is read-only")
    c = np.from_dlpack(o, copy=True)
    check(c.flags.writeable and not np.shares_memory(c, a) and np.array_equal(c, a), "copy=True: a writable copy")
    # a read-only tensor of a producer of its own, and a writable request through ctypes
    mem = np.zeros(8)
    p = Producer(mem, (8,), flags=1)
    o = from_dlpack(p)
    view = ctypes.py_object(o)
    buf = (ctypes.c_byte * 128)()
    get = ctypes.pythonapi.PyObject_GetBuffer
    get.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
    raises(BufferError, lambda: get(view, buf, 0x0001 | 0x0008 | 0x0010), "a writable buffer of a read-only tensor",
           "read-only")
    check(not np.asarray(o).flags.writeable, "a read-only tensor gives a read-only owner")
    del o, view
    check(p.deleted == 1, "read-only: deleted once")
    checks()


MALFORMED = [
    (dict(data=None), ValueError, "data is NULL"),
    (dict(ndim=-1), ValueError, "ndim -1"),
    (dict(ndim=9), BufferError, "9 dimensions"),  # the array API's error for what a consumer cannot take
    (dict(shape=(2, -3)), ValueError, "negative"),
    (dict(device=Device(2, 0)), BufferError, "not the CPU"),
    (dict(device=Device(5, 0)), BufferError, "not a DLPack device"),
    (dict(code=18), BufferError, "type code 18"),
    (dict(bits=4), BufferError, "4 bits"),
    (dict(version=Version(2, 0)), BufferError, "version 2.0"),
    (dict(strides=(2 ** 62, 1)), ValueError, "does not fit"),
    (dict(byte_offset=2 ** 64 - 8), ValueError, "byte offset"),
    (dict(code=4, bits=16), BufferError, "no buffer-protocol format"),  # bfloat16 imports, has no format
]


@pytest.mark.parametrize("fields, exc, part", MALFORMED, ids=[part for _, _, part in MALFORMED])
def test_malformed_tensor(fields, exc, part, checks):
    """Each is refused; the library does not call the deleter, the capsule does, once."""
    mem = np.zeros(16)
    fields = dict(fields)
    shape = fields.pop("shape", (2, 3))
    strides = fields.pop("strides", None)
    code, bits = fields.pop("code", 2), fields.pop("bits", 64)
    p = Producer(mem, shape, strides, code=code, bits=bits, byte_offset=fields.pop("byte_offset", 0))
    for name, value in fields.items():
        if name in ("version",):
            setattr(p.tensor, name, value)
        elif name == "data":
            p.tensor.dl_tensor.data = value
        else:
            setattr(p.tensor.dl_tensor, name, value)
    raises(exc, lambda: from_dlpack(p), f"malformed {fields or (code, bits, shape, strides)}", part)
    check(p.deleted == 1, f"malformed {fields or (code, bits)}: deleter ran {p.deleted} times, not once")
    checks()


def test_protocol(checks):
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    o = from_dlpack(a)
    check(o.__dlpack_device__() == (1, 0), "__dlpack_device__")
    check(PyCapsule_IsValid(o.__dlpack__(max_version=(1, 1)), b"dltensor_versioned"), "versioned capsule")
    check(PyCapsule_IsValid(o.__dlpack__(max_version=(1, 0)), b"dltensor_versioned"), "versioned capsule for 1.0")
    check(PyCapsule_IsValid(o.__dlpack__(), b"dltensor"), "legacy capsule without max_version")
    check(PyCapsule_IsValid(o.__dlpack__(max_version=(0, 8)), b"dltensor"), "legacy capsule for 0.8")
    check(layout(from_dlpack(type("Legacy", (), {"__dlpack__": lambda self: o.__dlpack__()})())) == layout(a),
          "a legacy producer")
    check(layout(np.from_dlpack(o, device="cpu")) == layout(a), "np.from_dlpack(device='cpu')")
    check(layout(np.from_dlpack(o, copy=False)) == layout(a), "copy=False shares")
    c = np.from_dlpack(o, copy=True)
    check(np.array_equal(c, a) and not np.shares_memory(c, a) and c.flags.c_contiguous, "copy=True copies")
    t = from_dlpack(type("Copy", (), {"__dlpack__": lambda self, **kw: o.__dlpack__(copy=True, **kw)})())
    check(np.array_equal(np.asarray(t), a) and not np.shares_memory(np.asarray(t), a), "from_dlpack of a copy")
    raises(RuntimeError, lambda: o.__dlpack__(stream=1), "a stream", "stream")  # NumPy's type
    raises(BufferError, lambda: o.__dlpack__(dl_device=(2, 0)), "another device", "device")
    check(PyCapsule_IsValid(o.__dlpack__(dl_device=(1, 0), max_version=(1, 1)), b"dltensor_versioned"), "dl_device cpu")
    raises(BufferError, lambda: from_dlpack(type("Gpu", (), {"__dlpack_device__": lambda self: (2, 0),
                                                             "__dlpack__": lambda self, **kw: None})()),
           "a GPU producer", "not the CPU")
    raises(ValueError, lambda: memviewslice.owners.from_dlpack(type("Bad", (), {"__dlpack__": lambda self, **kw: 3})()),
           "not a capsule", "not a DLPack capsule")
    # a consumed capsule cannot be consumed again
    cap = o.__dlpack__(max_version=(1, 1))
    one = from_dlpack(type("Once", (), {"__dlpack__": lambda self, **kw: cap})())
    check(PyCapsule_IsValid(cap, b"used_dltensor_versioned"), "the capsule is renamed when consumed")
    raises(ValueError, lambda: from_dlpack(type("Twice", (), {"__dlpack__": lambda self, **kw: cap})()),
           "a consumed capsule", "consumed")
    del one
    # a type with no buffer-protocol format here (NumPy exports long double as 128-bit float, or
    # refuses it)
    raises(BufferError, lambda: from_dlpack(np.zeros(3, dtype=np.longdouble)), "long double")
    checks()


# ---- DLPack 1.3's C exchange API -----------------------------------------------------------------

def exchange_producer(table):
    """A Producer type publishing the exchange table `table` of the C producer (see
    PRODUCER_C), whose __dlpack__ fails: from_dlpack must take its tensors through the table."""
    def no_dlpack(self, **kw):
        raise AssertionError("__dlpack__ was called: the exchange API should have been used")

    return type(f"Exchange{table}", (Producer,), {
        "__dlpack_c_exchange_api__": PRODUCER.api_capsule(table),
        "__dlpack__": no_dlpack,
        "_tensor_address": property(lambda self: ctypes.addressof(self.tensor)),
    })


def test_exchange_import(checks):
    """from_dlpack takes a tensor through its type's exchange API (never __dlpack__): the same
    view as NumPy's, the producer's deleter once after the last user; the table of major version 1
    along a chain; the producer's own exception when its function fails."""
    mem = np.arange(64.0)
    shapes = [((4, 4), None, 0), ((3, 2), (-4, 2), 8 * 20), ((2, 3, 2), (24, 1, 6), 0), ((), None, 8)]
    for table in (0, 1):  # 1: version 2.0, chained to 0
        kind = exchange_producer(table)
        for shape, strides, offset in shapes:
            p = kind(mem, shape, strides, offset)
            o = from_dlpack(p)
            expect = np.lib.stride_tricks.as_strided(
                mem[offset // 8:], shape, [8 * s for s in strides] if strides else None)
            check(layout(o) == layout(expect), f"table {table} {shape} {strides}: {layout(o)} != {layout(expect)}")
            check(p.deleted == 0, f"table {table} {shape}: deleted while in use")
            a = np.asarray(o)
            del o
            check(p.deleted == 0, f"table {table} {shape}: deleted while a NumPy array uses it")
            del a
            gc.collect()
            check(p.deleted == 1, f"table {table} {shape}: deleted {p.deleted} times, not once")
    p = exchange_producer(0)(mem, (4,), flags=1)  # read-only
    check(not np.asarray(from_dlpack(p)).flags.writeable, "a read-only tensor gives a read-only owner")
    raises(BufferError, lambda: from_dlpack(exchange_producer(2)(mem, (4,))), "no table of major version 1",
           "DLPack version 2.0")
    missing = exchange_producer(0)
    missing._tensor_address = property(lambda self: self.no_such_attribute)
    raises(AttributeError, lambda: from_dlpack(missing(mem, (4,))), "the producer's exception", "no_such_attribute")
    gpu = exchange_producer(0)(mem, (4,))
    gpu.tensor.dl_tensor.device = Device(2, 0)
    raises(BufferError, lambda: from_dlpack(gpu), "a GPU tensor through the exchange API", "not the CPU")
    check(gpu.deleted == 1, f"a refused tensor is deleted once by the import, not {gpu.deleted} times")
    # a type whose attribute is not an exchange capsule is asked through __dlpack__
    legacy = type("NotACapsule", (Producer,), {"__dlpack_c_exchange_api__": 12345})(mem, (4,))
    check(layout(from_dlpack(legacy)) == layout(mem[:4]), "an attribute that is not a capsule: __dlpack__")
    # BufferExport's table refuses another type with the producer's TypeError
    proxy = type("Proxy", (), {"__dlpack_c_exchange_api__": type(from_dlpack(mem)).__dlpack_c_exchange_api__})
    raises(TypeError, lambda: from_dlpack(proxy()), "BufferExport's table given another object", "takes a BufferExport")
    checks()


class ExchangeAPI(ctypes.Structure):
    pass


SET_ERROR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p)
# PYFUNCTYPE: called with the GIL held, and a Python exception the function sets is raised.
ExchangeAPI._fields_ = [
    ("version", Version), ("prev_api", ctypes.c_void_p),
    ("managed_tensor_allocator", ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.POINTER(Tensor),
                                                   ctypes.POINTER(ctypes.POINTER(Versioned)), ctypes.c_void_p,
                                                   SET_ERROR)),
    ("managed_tensor_from_py_object_no_sync", ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object,
                                                                ctypes.POINTER(ctypes.POINTER(Versioned)))),
    ("managed_tensor_to_py_object_no_sync", ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.POINTER(Versioned),
                                                              ctypes.POINTER(ctypes.c_void_p))),
    ("dltensor_from_py_object_no_sync", ctypes.c_void_p),
    ("current_work_stream", ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_int32, ctypes.c_int32,
                                              ctypes.POINTER(ctypes.c_void_p))),
]


def owner_table():
    """BufferExport's exchange table, read through its capsule."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    capsule = type(from_dlpack(np.zeros(1))).__dlpack_c_exchange_api__
    return ctypes.cast(get(capsule, b"dlpack_exchange_api"), ctypes.POINTER(ExchangeAPI)).contents


def take_object(api, tensor):
    """managed_tensor_to_py_object_no_sync(tensor): the new object (its reference taken over)."""
    out = ctypes.c_void_p()
    check(api.managed_tensor_to_py_object_no_sync(tensor, ctypes.byref(out)) == 0, "to_py_object returns 0")
    obj = ctypes.cast(out, ctypes.py_object).value
    ctypes.pythonapi.Py_DecRef(ctypes.py_object(obj))  # the new reference the function gave
    return obj


def test_exchange_owner_table(checks):
    """BufferExport's published table, called as a C consumer calls it: the header (1.3, no older
    table), the tensor of an export (as __dlpack__'s), an object from a tensor, a new tensor from
    a prototype, the CPU's stream."""
    api = owner_table()
    check((api.version.major, api.version.minor, api.prev_api) == (1, 3, None), "version 1.3, no prev_api")
    check(api.dltensor_from_py_object_no_sync is None, "dltensor_from_py_object_no_sync: NULL (optional)")
    for a in (np.arange(24, dtype=np.int16).reshape(2, 3, 4)[:, ::-1, 1:], np.zeros((0, 3), np.complex64),
              np.array(7.0, np.float32), np.arange(6.0)[::2]):
        o = from_dlpack(a)
        t = ctypes.POINTER(Versioned)()
        check(api.managed_tensor_from_py_object_no_sync(o, ctypes.byref(t)) == 0, f"{a.shape}: from_py_object")
        d = t.contents.dl_tensor
        shape = tuple(d.shape[i] for i in range(d.ndim))
        strides = tuple(d.strides[i] * a.itemsize for i in range(d.ndim))
        check((t.contents.version.major, t.contents.version.minor) == (1, 1), f"{a.shape}: a DLPack 1.1 tensor")
        check((d.data, shape, strides) == layout(a)[:3], f"{a.shape}: tensor {d.data, shape, strides} != {layout(a)[:3]}")
        check(d.dtype.bits == 8 * a.itemsize, f"{a.shape}: bits")
        back = take_object(api, t)  # the tensor now belongs to `back`
        check(layout(back) == layout(a) and type(back) is type(o), f"{a.shape}: to_py_object of it: {layout(back)}")
    raises(TypeError, lambda: api.managed_tensor_from_py_object_no_sync(3, ctypes.byref(ctypes.POINTER(Versioned)())),
           "from_py_object of an int", "takes a BufferExport")
    errors = []
    set_error = SET_ERROR(lambda ctx, kind, message: errors.append((kind.decode(), message.decode())))
    for dtype, shape in ((np.float32, (2, 3)), (np.int8, (5,)), (np.complex128, ()), (np.uint16, (0, 4))):
        proto = Tensor()
        proto.device = Device(1, 0)
        proto.ndim = len(shape)
        proto.dtype = DataType({"f": 2, "i": 0, "c": 5, "u": 1}[np.dtype(dtype).kind], 8 * np.dtype(dtype).itemsize, 1)
        extents = (ctypes.c_int64 * 8)(*shape)
        proto.shape = ctypes.cast(extents, ctypes.POINTER(ctypes.c_int64))
        t = ctypes.POINTER(Versioned)()
        check(api.managed_tensor_allocator(ctypes.byref(proto), ctypes.byref(t), None, set_error) == 0,
              f"allocator {dtype.__name__} {shape}")
        a = np.asarray(take_object(api, t))
        check((a.shape, a.dtype, a.flags.c_contiguous, a.flags.writeable) == (shape, np.dtype(dtype), True, True),
              f"allocator {dtype.__name__} {shape}: {a.shape} {a.dtype} {a.flags}")
        check(a.__array_interface__["data"][0] % 64 == 0, f"allocator {dtype.__name__} {shape}: 64-byte aligned")
        a[...] = 1  # writable memory of the whole shape (valgrind, ASan builds would see otherwise)
    proto.device = Device(2, 0)
    check(api.managed_tensor_allocator(ctypes.byref(proto), ctypes.byref(t), None, set_error) == -1
          and errors and errors[-1][0] == "BufferError" and "CPU" in errors[-1][1], f"allocator on a GPU: {errors}")
    proto.device = Device(1, 0)
    proto.dtype = DataType(2, 12, 1)
    check(api.managed_tensor_allocator(ctypes.byref(proto), ctypes.byref(t), None, set_error) == -1
          and errors[-1][0] == "BufferError", f"allocator of 12-bit floats: {errors[-1:]}")
    proto.dtype = DataType(2, 32, 4)
    check(api.managed_tensor_allocator(ctypes.byref(proto), ctypes.byref(t), None, set_error) == -1
          and "lanes" in errors[-1][1], f"allocator of float32x4 vectors: {errors[-1:]}")
    stream = ctypes.c_void_p(1)
    check(api.current_work_stream(1, 0, ctypes.byref(stream)) == 0 and stream.value is None, "the CPU's stream: NULL")
    checks()


# ---- the array API's keywords, against NumPy's own from_dlpack and __dlpack__ ------------------

def outcome(fn):
    """("ok", result) or (exception type, message) of fn()."""
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)


def same_outcome(ours, theirs, what):
    """Both succeeded, or both raised the same exception type; True when both succeeded."""
    kind = lambda o: "ok" if o[0] == "ok" else o[0].__name__  # noqa: E731
    check(kind(ours) == kind(theirs), f"{what}: ours {kind(ours)} {ours[1] if ours[0] != 'ok' else ''}, "
                                      f"NumPy's {kind(theirs)} {theirs[1] if theirs[0] != 'ok' else ''}")
    return ours[0] == theirs[0] == "ok"


def keyword_inputs():
    """Arrays of several layouts (name, array): each is given to both from_dlpacks."""
    base = np.arange(24.0).reshape(2, 3, 4)
    ro = base.copy()
    ro.flags.writeable = False
    return [("C 3-d", base.copy()), ("reversed, stepped", base[::-1, :, ::2]), ("transposed", base.T),
            ("read-only", ro), ("0-d", np.array(5, np.int32)), ("zero-size", np.zeros((0, 3), np.int16)),
            ("broadcast", np.broadcast_to(np.arange(3.0), (4, 3))), ("owner", from_dlpack(base.copy()))]


DEVICES = [None, "cpu", "CPU", "cuda", "gpu", (1, 0), (2, 0), 0, 1]


def test_from_dlpack_device(checks):
    """device=: each value against np.from_dlpack on the same input; both accept it or both raise
    the same type (ValueError naming the device); accepted, the memory is shared as NumPy's."""
    n = 0
    for name, a in keyword_inputs():
        for device in DEVICES + [np.zeros(1).device]:
            what = f"{name}, device={device!r}"
            ours = outcome(lambda: from_dlpack(a, device=device))
            theirs = outcome(lambda: np.from_dlpack(a, device=device))
            if same_outcome(ours, theirs, what):
                check(layout(ours[1]) == layout(theirs[1]), f"{what}: {layout(ours[1])} != NumPy's {layout(theirs[1])}")
            elif ours[0] is ValueError:
                check(repr(device) in ours[1], f"{what}: the message {ours[1]!r} does not name the device")
            n += 1
    # a producer whose memory is elsewhere but that moves it to the CPU when asked (dl_device)
    a = np.arange(6.0)
    gpu = type("Gpu", (), {"__dlpack_device__": lambda self: (2, 0),
                           "__dlpack__": lambda self, *, dl_device=None, copy=None, **kw:
                           a.__dlpack__(copy=True if dl_device == (1, 0) else copy, **kw)})()
    ours, theirs = outcome(lambda: from_dlpack(gpu, device="cpu")), outcome(lambda: np.from_dlpack(gpu, device="cpu"))
    if same_outcome(ours, theirs, "a producer asked for the CPU"):
        check(np.array_equal(np.asarray(ours[1]), a), "a producer asked for the CPU: values")
    # without device=, ours asks __dlpack_device__ first (NumPy asks the producer for its
    # tensor and lets the import refuse another device): BufferError from both for a real GPU
    # tensor; here, where the producer lies, only ours refuses
    raises(BufferError, lambda: from_dlpack(gpu), "a producer on device (2, 0), no device=", "not the CPU")
    checks(f"device=: {n} cases against np.from_dlpack")


COPIES = [None, True, False, 1, 0, "x", "if_needed"]


def test_from_dlpack_copy(checks):
    """copy=: each value against np.from_dlpack on the same input: the same outcome; copy=True a
    writable copy in new memory, equal, independent of the source (a write to it leaves the
    source alone); copy=None and False share the memory, as NumPy's."""
    n = 0
    for name, a in keyword_inputs():
        src = np.asarray(a)
        for copy in COPIES:
            what = f"{name}, copy={copy!r}"
            ours = outcome(lambda: from_dlpack(a, copy=copy))
            theirs = outcome(lambda: np.from_dlpack(a, copy=copy))
            n += 1
            if not same_outcome(ours, theirs, what):
                continue
            o, t = np.asarray(ours[1]), theirs[1]
            check(np.array_equal(o, t) and o.dtype == t.dtype and o.shape == t.shape, f"{what}: values")
            check(np.shares_memory(o, src) == np.shares_memory(t, src), f"{what}: shares memory "
                  f"{np.shares_memory(o, src)}, NumPy's {np.shares_memory(t, src)}")
            check(o.flags.writeable == t.flags.writeable, f"{what}: writeable {o.flags.writeable}, NumPy's "
                  f"{t.flags.writeable}")
            if copy and not isinstance(copy, str):
                check(not np.shares_memory(o, src) and o.flags.writeable, f"{what}: not a writable copy")
                if o.size:
                    before = src.copy()
                    o[...] = 99
                    check(np.array_equal(src, before), f"{what}: a write to the copy changed the source")
            else:
                check(layout(o) == layout(src), f"{what}: {layout(o)}, not the source's {layout(src)}")
    checks(f"copy=: {n} cases against np.from_dlpack")


class Recorder:
    """A producer over `a` that records the keywords __dlpack__ is given."""

    def __init__(self, a):
        self.a, self.calls = a, []

    def __dlpack_device__(self):
        return (1, 0)

    def __dlpack__(self, **kw):
        self.calls.append(kw)
        return self.a.__dlpack__(**kw)


def test_keywords_passed_to_the_producer(checks):
    """The producer's __dlpack__ gets the dl_device and copy that NumPy's from_dlpack passes, and a
    max_version (ours asks for 1.1, NumPy for 1.0). Where both are None, ours passes neither
    (the same meaning, and the default path stays as fast as before); NumPy passes both."""
    a = np.arange(6.0)
    for device in (None, "cpu"):
        for copy in (None, True, False):
            ours, theirs = Recorder(a), Recorder(a)
            from_dlpack(ours, device=device, copy=copy)
            np.from_dlpack(theirs, device=device, copy=copy)
            strip = lambda calls: [{k: v for k, v in c.items() if k != "max_version" and v is not None}  # noqa: E731
                                   for c in calls]
            check(strip(ours.calls) == strip(theirs.calls), f"device={device!r}, copy={copy}: given {ours.calls}, "
                                                            f"NumPy gives {theirs.calls}")
            check(all(c.get("max_version") == (1, 1) for c in ours.calls), f"max_version: {ours.calls}")
    checks()


def test_copy_false_producer_must_copy(checks):
    """copy=False and a producer that cannot share: its BufferError, from ours as from NumPy's. A
    producer that copies anyway (its tensor flagged copied): BufferError from ours (NumPy takes
    the copy)."""
    a = np.arange(6.0)

    class MustCopy:
        def __dlpack_device__(self):
            return (1, 0)

        def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
            if copy is False:
                raise BufferError("this producer cannot share its memory")
            return a.__dlpack__(max_version=max_version, copy=True)

    for copy in (None, True, False):
        ours = outcome(lambda: from_dlpack(MustCopy(), copy=copy))
        theirs = outcome(lambda: np.from_dlpack(MustCopy(), copy=copy))
        if same_outcome(ours, theirs, f"a producer that must copy, copy={copy}"):
            check(not np.shares_memory(np.asarray(ours[1]), a), f"copy={copy}: the producer's copy")
    copies = type("CopiesAnyway", (), {"__dlpack__": lambda self, **kw: a.__dlpack__(max_version=(1, 1), copy=True)})()
    raises(BufferError, lambda: from_dlpack(copies, copy=False), "a producer that copies although copy=False", "copied")
    checks()


def test_copy_true_producer_that_shares(checks):
    """copy=True and a producer that takes the keyword but shares anyway (its tensor not
    flagged copied, or a legacy one): ours copies it (NumPy would share): new memory, and the
    producer's tensor deleted once, at once."""
    mem = np.arange(16.0)
    for flags in (0, 2):  # 2: DLPACK_FLAG_BITMASK_IS_COPIED, which the producer says it copied
        p = Producer(mem, (4, 4), flags=flags)
        c = np.asarray(from_dlpack(p, copy=True))
        check(np.array_equal(c, mem.reshape(4, 4)), f"flags {flags}: values")
        check(np.shares_memory(c, mem) == bool(flags), f"flags {flags}: shares memory {np.shares_memory(c, mem)}")
        check(c.flags.writeable, f"flags {flags}: writable")
        del c
        check(p.deleted == 1, f"flags {flags}: the producer's tensor deleted {p.deleted} times")
    checks()


def test_producer_without_keywords(checks):
    """A producer whose __dlpack__ takes no keyword (before the array API's 2023.12): asked again
    with none. With no keyword, as NumPy; with copy= or device=, NumPy gives up with the
    TypeError, ours goes on (deliberately): copy=True copies, copy=False and None share,
    device='cpu' takes its CPU tensor."""
    a = np.arange(12.0).reshape(3, 4)
    old = type("Old", (), {"__dlpack__": lambda self: a.__dlpack__()})()
    ours, theirs = outcome(lambda: from_dlpack(old)), outcome(lambda: np.from_dlpack(old))
    if same_outcome(ours, theirs, "no keyword"):
        check(layout(ours[1]) == layout(theirs[1]) == layout(a), "no keyword: shares")
    for kw, shares in ((dict(copy=True), False), (dict(copy=False), True), (dict(copy=None), True),
                       (dict(device="cpu"), True), (dict(device="cpu", copy=True), False)):
        got = outcome(lambda: from_dlpack(old, **kw))
        check(got[0] == "ok", f"{kw}: {got}")
        if got[0] == "ok":
            o = np.asarray(got[1])
            check(np.array_equal(o, a) and np.shares_memory(o, a) == shares, f"{kw}: shares {np.shares_memory(o, a)}")
    checks()


def test_more_than_8_dimensions(checks):
    """A tensor of 9 or more dimensions: BufferError (the array API's error for a tensor the
    consumer cannot take; NumPy takes up to 64 dimensions, so np.from_dlpack succeeds)."""
    for ndim in (9, 12, 32):
        a = np.zeros((1,) * ndim)
        raises(BufferError, lambda: from_dlpack(a), f"{ndim}-d NumPy array", f"{ndim} dimensions")
        raises(BufferError, lambda: from_dlpack(a, copy=True), f"{ndim}-d, copy=True", f"{ndim} dimensions")
        check(np.from_dlpack(a).ndim == ndim, f"{ndim}-d: NumPy takes it")
        legacy = type("Legacy", (), {"__dlpack__": lambda self: a.__dlpack__()})()
        raises(BufferError, lambda: from_dlpack(legacy), f"{ndim}-d legacy tensor", f"{ndim} dimensions")
    checks()


OWNER_KEYWORDS = (
    [dict(stream=s) for s in (None, 0, 1, -1, 2)]
    + [dict(max_version=v) for v in (None, (0, 8), (1, 0), (1, 1), (1, 3), (2, 0), 1, [1, 1], (1,))]
    + [dict(dl_device=d, max_version=(1, 1)) for d in (None, (1, 0), (1, 1), (2, 0), (13, 0), "cpu", [1, 0], 1)]
    + [dict(copy=c, max_version=(1, 1)) for c in (None, True, False, 1, "x")]
    + [dict(copy=True), dict(copy=False), dict(stream=None, max_version=(1, 1), dl_device=(1, 0), copy=True)]
)


@pytest.mark.parametrize("kw", OWNER_KEYWORDS, ids=repr)
def test_owner_dlpack_keywords(kw, checks):
    """BufferExport.__dlpack__(**kw) against numpy.ndarray.__dlpack__(**kw) of the same memory:
    the same outcome (exception type), the same capsule name, and a copy exactly when NumPy's
    is one."""
    a = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]
    o = from_dlpack(a)
    ours, theirs = outcome(lambda: o.__dlpack__(**kw)), outcome(lambda: a.__dlpack__(**kw))
    if same_outcome(ours, theirs, f"__dlpack__({kw})"):
        names = [n for n in (b"dltensor_versioned", b"dltensor") if PyCapsule_IsValid(ours[1], n)]
        check(names and PyCapsule_IsValid(theirs[1], names[0]), f"{kw}: capsule {names}, not NumPy's")
        wrap = lambda cap: type("Cap", (), {"__dlpack__": lambda self, **k: cap})()  # noqa: E731
        mine, numpys = np.from_dlpack(wrap(ours[1])), np.from_dlpack(wrap(theirs[1]))
        check(np.array_equal(mine, a) and np.shares_memory(mine, a) == np.shares_memory(numpys, a),
              f"{kw}: shares {np.shares_memory(mine, a)}, NumPy's {np.shares_memory(numpys, a)}")
    checks()


def main():
    print(f"numpy {np.__version__}, memviewslice {memviewslice.__version__}")
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
