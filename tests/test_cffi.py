"""The header as cffi users read it (ABI mode, `ffi.dlopen`), against NumPy.

include/memviewslice.h preprocessed as its top comment says (`$CC -E -P -DMVS_CDEF`) must go
through `ffi.cdef()` whole: every function of the header declared, the integer constants read
back from the enum MVS_CDEF adds, the structs laid out as the C compiler lays them out. Then
views over a NumPy array's memory, built, sliced, indexed, transposed and copied through the
shared library, must have NumPy's addresses, shapes, strides and bytes.

    .venv/bin/python -m pytest tests/test_cffi.py -q [--mvs-lib PATH]
"""

import os
import re
import shlex
import subprocess

import cffi
import numpy as np
import pytest

from conftest import ROOT

HEADER = ROOT / "include" / "memviewslice.h"


@pytest.fixture(scope="module")
def ffi():
    cc = shlex.split(os.environ.get("CC", "cc"))
    cdef = subprocess.run(cc + ["-E", "-P", "-DMVS_CDEF", str(HEADER)], check=True, capture_output=True,
                          text=True).stdout
    ffi = cffi.FFI()
    ffi.cdef(cdef)
    return ffi


@pytest.fixture(scope="module")
def lib(ffi, request):
    return ffi.dlopen(request.config.getoption("--mvs-lib"))


def test_cdef_declares_the_header(ffi, lib):
    text = HEADER.read_text()
    functions = set(re.findall(r"^[a-z][\w ]*?\**(mvs_\w+)\(", text, re.MULTILINE))
    assert len(functions) > 50
    assert functions <= set(dir(lib)), sorted(functions - set(dir(lib)))
    constants = dict(re.findall(r"^#define (MVS_\w+) (\d+)$", text, re.MULTILINE))
    assert len(constants) > 40
    assert {name: getattr(lib, name) for name in constants} == {k: int(v) for k, v in constants.items()}
    assert lib.MVS_NONE == -(1 << (8 * ffi.sizeof("ptrdiff_t") - 1))
    assert lib.MVS_DLPACK_FLAG_IS_COPIED == 2
    # The layout assertions that MVS_CDEF leaves out, as cffi computed the layout.
    ptr, word = ffi.sizeof("void *"), ffi.sizeof("ptrdiff_t")
    assert ffi.sizeof("mvs_slice") == 2 * ptr + 24 * word
    assert [ffi.offsetof("mvs_slice", f) for f in ("data", "shape", "strides", "suboffsets")] == \
        [ptr, 2 * ptr, 2 * ptr + 8 * word, 2 * ptr + 16 * word]
    assert ffi.sizeof("mvs_iter") == lib.MVS_ITER_BYTES
    assert ffi.string(lib.mvs_status_str(lib.MVS_OK)) != b""


class Views:
    """Calls into the library through cffi, checking each status."""

    def __init__(self, ffi, lib):
        self.ffi, self.lib = ffi, lib

    def call(self, fn, *args):
        st = getattr(self.lib, fn)(*args)
        assert st == self.lib.MVS_OK, f"{fn}: {st} {self.ffi.string(self.lib.mvs_last_error()).decode()}"

    def of(self, a):
        out = self.ffi.new("mvs_slice *")
        self.call("mvs_view_strided", self.ffi.cast("void *", a.ctypes.data), a.itemsize, a.ndim,
                  list(a.shape), list(a.strides), out)
        return out

    def slice_axis(self, src, ndim, axis, start, stop, step):
        out = self.ffi.new("mvs_slice *")
        none = self.lib.MVS_NONE
        self.call("mvs_slice_axis", src, ndim, axis, none if start is None else start,
                  none if stop is None else stop, none if step is None else step, out)
        return out

    def transpose(self, src, ndim):
        out = self.ffi.new("mvs_slice *")
        self.call("mvs_transpose", src, ndim, out)
        return out

    def index_axis(self, src, ndim, axis, index):
        out = self.ffi.new("mvs_slice *")
        self.call("mvs_index_axis", src, ndim, axis, index, out)
        return out

    def check(self, view, ndim, expected):
        """view has expected's address, shape and strides."""
        assert int(self.ffi.cast("uintptr_t", view.data)) == expected.__array_interface__["data"][0]
        assert tuple(view.shape[0:ndim]) == expected.shape
        assert tuple(view.strides[0:ndim]) == expected.strides
        assert all(s == -1 for s in view.suboffsets[0:ndim])


@pytest.mark.parametrize("dtype", ["int8", "float64", "complex128"])
def test_views_against_numpy(ffi, lib, dtype):
    v = Views(ffi, lib)
    a = np.arange(4 * 7 * 5).astype(dtype).reshape(4, 7, 5)[:, :, 1:]
    src = v.of(a)
    v.check(src, 3, a)

    s = v.slice_axis(src, 3, 1, 6, 0, -2)
    v.check(s, 3, a[:, 6:0:-2])
    s2 = v.slice_axis(s, 3, -1, None, None, 3)
    v.check(s2, 3, a[:, 6:0:-2, ::3])
    t = v.transpose(s2, 3)
    expected = a[:, 6:0:-2, ::3].T
    v.check(t, 3, expected)
    i = v.index_axis(t, 3, -1, -1)
    v.check(i, 2, expected[..., -1])
    empty = v.slice_axis(t, 3, 0, 5, 1, None)
    assert tuple(empty.shape[0:3]) == expected[5:1].shape

    # A contiguous copy in a new buffer of the library's, in either order.
    for order in "CF":
        buf = ffi.new("struct mvs_buffer **")
        c = ffi.new("mvs_slice *")
        v.call("mvs_copy_contiguous", t, 3, a.itemsize, ord(order), buf, c)
        try:
            want = np.asarray(expected, order=order)
            assert tuple(c.shape[0:3]) == want.shape and tuple(c.strides[0:3]) == want.strides
            assert bytes(ffi.buffer(c.data, want.nbytes)) == want.tobytes(order="A")
        finally:
            lib.mvs_buffer_release(buf[0])

    # A copy into NumPy's memory, through a view of it.
    dst = np.zeros(expected.shape, dtype)
    v.call("mvs_copy", t, 3, v.of(dst), 3, a.itemsize)
    assert np.array_equal(dst, expected)


def test_errors_through_cffi(ffi, lib):
    a = np.zeros((3, 4))
    src = Views(ffi, lib).of(a)
    out = ffi.new("mvs_slice *")
    assert lib.mvs_slice_axis(src, 2, 2, 0, 1, 1, out) == lib.MVS_ERR_AXIS
    assert b"axis" in ffi.string(lib.mvs_last_error())
    assert out.data == ffi.NULL  # written only on success
    assert lib.mvs_slice_axis(src, 2, 0, 0, 1, 0, out) == lib.MVS_ERR_STEP
