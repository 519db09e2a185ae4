#!/usr/bin/env python3
"""Differential test of libmemviewslice's view operations, with NumPy as the oracle.

    python -m pytest tests/test_numpy_oracle.py [-n 2] [-k reshape] [--mvs-lib PATH] [--seed N] [--cases N]

runs one pytest test per operation (tests/test_numpy_oracle.py; the library is
target/release/libmemviewslice.so unless --mvs-lib or $MVS_LIB says otherwise). The script
itself still runs every case at once, and reproduces one case alone:

    python tests/numpy_oracle.py target/release/libmemviewslice.so [--seed N] [--cases N] [--only OP] [--case I]

Every case builds a real NumPy array (C- or F-contiguous, sliced with steps, flipped,
broadcast, transposed, or with arbitrary strides over a buffer; itemsizes 1 to 16; ndim 0 to
8), describes it as an `mvs_slice`, calls one exported function through ctypes, and compares
the result with what NumPy computes on the same array (the header says so): data address, shape
and strides; for errors, the error kind.

Comparison rules (the header's "free choices", where NumPy's values address nothing):
- the stride of a result axis of length 1 is not compared;
- a zero-size result is compared by shape only (not its data address, not its strides);
- everything else is exact, plus: entries past ndim are shape 0, stride 0, suboffset -1;
  suboffsets within ndim are -1; `memview` is the source's token (a sentinel pointer).
Failing calls must leave every output untouched (outputs are pre-filled with a sentinel
pattern) and leave a non-empty message in mvs_last_error().
mvs_view_as documents NumPy's values where they are free (the last stride is the new item size,
whatever its extent), so its results are compared exactly. Its item sizes come from NumPy's void
types (np.dtype(('V', k))); besides its random cases, every pair of item sizes 1..16 is swept on
six layouts (sweep_view_as).

Expected error codes come from NumPy's behaviour, mapped by what the generated case is
(the mapping is in the `classify` function of each `op_*` method below). The library's 8-dimension limit is the
one addition: where NumPy succeeds with a result of more than 8 dimensions, the expected code
is MVS_ERR_NDIM. Where NumPy itself checks its dimension limit before other errors (basic
indexing checks it while parsing the index, before bounds and steps; reshape checks the length
of the shape argument first), the same order is expected with the limit 8. Cases that would
combine the 8-dimension limit with another error where NumPy has no such order to follow,
and a few inputs where the header deliberately departs from NumPy, are not generated (see
the notes printed at the end of the output).
"""

import argparse
import ctypes as C
import functools
import math
import random
import sys
import time

import numpy as np
from numpy.exceptions import AxisError
from numpy.lib.array_utils import byte_bounds, normalize_axis_index
from numpy.lib.stride_tricks import sliding_window_view

DEFAULT_SEED = 20240531
DEFAULT_CASES = 30000
SHOW_MISMATCHES = 8

# --- the C API ------------------------------------------------------------------------------

MAX_DIMS = 8
MAX_INDEX_ITEMS = 17
NONE = -(2**63)  # MVS_NONE == PTRDIFF_MIN
PTRDIFF_MAX = 2**63 - 1

OK, ERR_NULL, ERR_NDIM, ERR_AXIS, ERR_ITEMSIZE, ERR_SHAPE, ERR_INDEX, ERR_STEP = range(8)
ERR_OVERFLOW, ERR_NEEDS_COPY, ERR_INDIRECT, ERR_BOUNDS, ERR_BROADCAST = range(8, 13)
ERR_NOT_CONTIGUOUS, ERR_VALUE, ERR_INTERNAL, ERR_ALLOC = range(13, 17)
ERR_DEVICE, ERR_DTYPE, ERR_VERSION, ERR_OVERLAP, ERR_PRODUCER = range(17, 22)
STATUS = {
    OK: "MVS_OK", ERR_NULL: "MVS_ERR_NULL", ERR_NDIM: "MVS_ERR_NDIM", ERR_AXIS: "MVS_ERR_AXIS",
    ERR_ITEMSIZE: "MVS_ERR_ITEMSIZE", ERR_SHAPE: "MVS_ERR_SHAPE", ERR_INDEX: "MVS_ERR_INDEX",
    ERR_STEP: "MVS_ERR_STEP", ERR_OVERFLOW: "MVS_ERR_OVERFLOW",
    ERR_NEEDS_COPY: "MVS_ERR_NEEDS_COPY", ERR_INDIRECT: "MVS_ERR_INDIRECT",
    ERR_BOUNDS: "MVS_ERR_BOUNDS", ERR_BROADCAST: "MVS_ERR_BROADCAST",
    ERR_NOT_CONTIGUOUS: "MVS_ERR_NOT_CONTIGUOUS", ERR_VALUE: "MVS_ERR_VALUE",
    ERR_INTERNAL: "MVS_ERR_INTERNAL", ERR_ALLOC: "MVS_ERR_ALLOC",
    ERR_DEVICE: "MVS_ERR_DEVICE", ERR_DTYPE: "MVS_ERR_DTYPE", ERR_VERSION: "MVS_ERR_VERSION",
    ERR_OVERLAP: "MVS_ERR_OVERLAP", ERR_PRODUCER: "MVS_ERR_PRODUCER",
}

ITEM_INDEX, ITEM_SLICE, ITEM_NEWAXIS, ITEM_ELLIPSIS = range(4)
CONTIG_NUMPY, CONTIG_CYTHON = 0, 1

ssize = C.c_ssize_t
P = C.POINTER


class Slice(C.Structure):
    _fields_ = [
        ("memview", C.c_void_p),
        ("data", C.c_void_p),
        ("shape", ssize * MAX_DIMS),
        ("strides", ssize * MAX_DIMS),
        ("suboffsets", ssize * MAX_DIMS),
    ]


class IndexItem(C.Structure):
    _fields_ = [("kind", C.c_int), ("start", ssize), ("stop", ssize), ("step", ssize)]


assert C.sizeof(Slice) == 208 and C.sizeof(ssize) == 8, "64-bit platform expected"
SLICE_SENTINEL = bytes([0xA5]) * C.sizeof(Slice)
INT_SENTINEL = -0x5A5A5A5A
SSIZE_SENTINEL = -0x5A5A5A5A5A5A5A5A

S = P(Slice)
PROTOTYPES = {
    "mvs_subview": [S, C.c_int, ssize, ssize, C.c_int, P(ssize), C.c_int, S],
    "mvs_slice_axis": [S, C.c_int, C.c_int, ssize, ssize, ssize, S],
    "mvs_index_axis": [S, C.c_int, C.c_int, ssize, S],
    "mvs_index": [S, C.c_int, P(IndexItem), C.c_int, S, P(C.c_int)],
    "mvs_reshape": [S, C.c_int, ssize, C.c_int, P(ssize), C.c_int, S],
    "mvs_transpose": [S, C.c_int, S],
    "mvs_permute": [S, C.c_int, P(C.c_int), S],
    "mvs_swap_axes": [S, C.c_int, C.c_int, C.c_int, S],
    "mvs_move_axes": [S, C.c_int, P(C.c_int), P(C.c_int), C.c_int, S],
    "mvs_broadcast_to": [S, C.c_int, C.c_int, P(ssize), S],
    "mvs_expand_dims": [S, C.c_int, C.c_int, S],
    "mvs_squeeze_axis": [S, C.c_int, C.c_int, S],
    "mvs_squeeze": [S, C.c_int, S, P(C.c_int)],
    "mvs_diagonal": [S, C.c_int, ssize, C.c_int, C.c_int, S],
    "mvs_flip_axis": [S, C.c_int, C.c_int, S],
    "mvs_flip": [S, C.c_int, S],
    "mvs_sliding_window": [S, C.c_int, C.c_int, ssize, ssize, S],
    "mvs_view_as": [S, C.c_int, ssize, ssize, S],
    "mvs_split_sections": [S, C.c_int, C.c_int, ssize, C.c_int, S, ssize],
    "mvs_split_at": [S, C.c_int, C.c_int, P(ssize), ssize, S],
    "mvs_is_contiguous": [S, C.c_int, ssize, C.c_int, C.c_int, P(C.c_int)],
    "mvs_item_count": [S, C.c_int, P(ssize)],
    "mvs_byte_count": [S, C.c_int, ssize, P(ssize)],
    "mvs_byte_extent": [S, C.c_int, ssize, P(ssize), P(ssize)],
    "mvs_element_ptr": [S, C.c_int, P(ssize), P(C.c_void_p)],
}


def load_library(path):
    lib = C.CDLL(path)
    for name, argtypes in PROTOTYPES.items():
        f = getattr(lib, name)
        f.argtypes = argtypes
        f.restype = C.c_int
    lib.mvs_last_error.argtypes = []
    lib.mvs_last_error.restype = C.c_char_p
    return lib


def ssize_array(values):
    """A ctypes array of ptrdiff_t, or None (NULL) for an empty list half of the time."""
    return (ssize * len(values))(*values) if values or random.random() < 0.5 else None


def int_array(values):
    return (C.c_int * len(values))(*values) if values or random.random() < 0.5 else None


def order_code(order):
    return ord(order)


# --- results ----------------------------------------------------------------------------------


class Err:
    """An expected failure: the status code and why (NumPy's exception, or the rule used)."""

    def __init__(self, code, why):
        self.code, self.why = code, why

    def __repr__(self):
        return f"{STATUS[self.code]} ({self.why})"


def addr(a):
    return a.__array_interface__["data"][0]


def view_info(r):
    """(ndim, data address, shape, strides) of a NumPy result, which must be an array."""
    if not isinstance(r, np.ndarray):
        raise OracleBug(f"NumPy returned {type(r).__name__}, not an ndarray")
    return (r.ndim, addr(r), tuple(r.shape), tuple(r.strides))


def describe_info(info):
    nd, data, shape, strides = info
    return f"ndim={nd} data={data:#x} shape={shape} strides={strides}"


def limit(info):
    """The library's documented 8-dimension limit applied to a NumPy result."""
    if info[0] > MAX_DIMS:
        return Err(ERR_NDIM, f"NumPy succeeds with {info[0]} dimensions; the limit is 8")
    return info


class OracleBug(Exception):
    """The test itself is wrong (NumPy did something the generator did not foresee)."""


def slice_fields(s, nd=None):
    if nd is None:
        nd = MAX_DIMS
    return (
        f"memview={s.memview or 0:#x} data={s.data or 0:#x} "
        f"shape={list(s.shape)} strides={list(s.strides)} suboffsets={list(s.suboffsets)}"
    )


def check_view(out, exp, token, label="out", exact=False):
    """Problems of `out` (an mvs_slice) against the NumPy result `exp` = view_info(...). With
    `exact`, the free choices too (for an operation documented to make NumPy's)."""
    nd, data, shape, strides = exp
    problems = []
    got_shape = tuple(out.shape[:nd])
    if got_shape != shape:
        problems.append(f"{label}: shape {got_shape} != NumPy {shape}")
    zero = 0 in shape
    if exact:
        got = ((out.data or 0), tuple(out.strides[:nd]))
        if got != (data, strides):
            problems.append(f"{label}: data {got[0]:#x} strides {got[1]} != NumPy's {data:#x} {strides} "
                            "(documented as NumPy's, also where free)")
    elif not zero:
        if (out.data or 0) != data:
            problems.append(f"{label}: data {out.data or 0:#x} != NumPy {data:#x} "
                            f"(difference {(out.data or 0) - data:+d} bytes)")
        for i in range(nd):
            if shape[i] != 1 and out.strides[i] != strides[i]:
                problems.append(f"{label}: stride[{i}] {out.strides[i]} != NumPy {strides[i]}")
    for i in range(nd):
        if out.suboffsets[i] != -1:
            problems.append(f"{label}: suboffset[{i}] {out.suboffsets[i]} != -1")
    for i in range(nd, MAX_DIMS):
        if (out.shape[i], out.strides[i], out.suboffsets[i]) != (0, 0, -1):
            problems.append(f"{label}: entry {i} past ndim is shape {out.shape[i]}, stride "
                            f"{out.strides[i]}, suboffset {out.suboffsets[i]}; expected 0, 0, -1")
    if (out.memview or 0) != token:
        problems.append(f"{label}: memview {out.memview or 0:#x} != source token {token:#x}")
    return problems


# --- sources ----------------------------------------------------------------------------------

DTYPES = [np.dtype(t) for t in (np.int8, np.int16, np.float32, np.float64, np.complex128)]
KINDS = ["C", "F", "sliced", "flipped", "broadcast", "transposed", "mixed", "strided"]


class Source:
    """A NumPy array under test, with how it was made (for reports)."""

    def __init__(self, arr, kind, keep):
        self.a = arr
        self.kind = kind
        self.keep = keep  # arrays the view depends on, kept alive for the case

    def describe(self):
        a = self.a
        return (f"{self.kind} array dtype={a.dtype} itemsize={a.itemsize} ndim={a.ndim} "
                f"shape={a.shape} strides={a.strides} data={addr(a):#x} "
                f"C={a.flags.c_contiguous} F={a.flags.f_contiguous}")



def small_shape(r, nd, top, most):
    """A random shape of `nd` extents: 5% zeros, 25% ones, the rest 2..`top`, shrunk until the
    item count is at most `most` (shared with numpy_copy.py)."""
    shape = []
    for _ in range(nd):
        x = r.random()
        if x < 0.05:
            shape.append(0)
        elif x < 0.30:
            shape.append(1)
        else:
            shape.append(r.randint(2, top))
    while math.prod(shape) > most:
        i = max(range(nd), key=lambda k: shape[k])
        shape[i] -= 1
    return shape

class Gen:
    def __init__(self, rng):
        self.rng = rng

    # shapes

    def ndim(self, lo=0, hi=MAX_DIMS):
        r = self.rng
        weights = [3, 6, 8, 8, 6, 4, 3, 3, 3][lo:hi + 1]
        return r.choices(range(lo, hi + 1), weights=weights)[0]

    def shape(self, nd):
        return small_shape(self.rng, nd, 4 if nd <= 3 else 3, 96)

    def source(self, nd=None, kinds=None, shape=None, dtype=None):
        r = self.rng
        if shape is None:
            nd = self.ndim() if nd is None else nd
            shape = self.shape(nd)
        nd = len(shape)
        dtype = dtype or r.choice(DTYPES)
        kind = r.choice(kinds or KINDS)
        a, keep = self.build(kind, shape, dtype)
        assert isinstance(a, np.ndarray) and a.shape == tuple(shape), (kind, type(a), a.shape, shape)
        return Source(a, kind, keep)

    def build(self, kind, shape, dtype):
        r = self.rng
        nd = len(shape)
        if kind == "C":
            a = np.empty(shape, dtype)
            return a, [a]
        if kind == "F":
            a = np.empty(shape, dtype, order="F")
            return a, [a]
        if kind == "sliced":
            steps = [r.choice([1, 1, 2, 3]) for _ in range(nd)]
            starts = [r.randint(0, 2) for _ in range(nd)]
            base = np.empty([s * st + o + r.randint(0, 1) for s, st, o in zip(shape, steps, starts)],
                            dtype, order=r.choice("CF"))
            a = base[tuple(slice(o, o + s * st, st) for s, st, o in zip(shape, steps, starts)) + (Ellipsis,)]
            return a, [base]
        if kind == "flipped":
            a, keep = self.build(r.choice(["C", "F", "sliced"]), shape, dtype)
            flips = tuple(slice(None, None, -1) if r.random() < 0.6 else slice(None) for _ in range(nd))
            return a[flips + (Ellipsis,)], keep
        if kind == "broadcast":
            lead = r.randint(0, nd)
            sub = [1 if (s == 1 or r.random() < 0.5) else s for s in shape[lead:]]
            base, keep = self.build(r.choice(["C", "F", "sliced", "flipped"]), sub, dtype)
            return np.broadcast_to(base, shape), keep
        if kind == "transposed":
            perm = list(range(nd))
            r.shuffle(perm)
            base_shape = [0] * nd
            for j, p in enumerate(perm):
                base_shape[p] = shape[j]
            base, keep = self.build(r.choice(["C", "F", "sliced"]), base_shape, dtype)
            return base.transpose(perm), keep
        if kind == "mixed":
            a, keep = self.build(r.choice(["transposed", "broadcast"]), shape, dtype)
            flips = tuple(slice(None, None, -1) if r.random() < 0.4 else slice(None) for _ in range(nd))
            return a[flips + (Ellipsis,)], keep
        if kind == "strided":
            return self.strided(shape, dtype)
        raise ValueError(kind)

    def strided(self, shape, dtype):
        """Arbitrary strides over a buffer: contiguous in a random axis order with gaps and
        signs, or fully random (zero, overlapping, not multiples of the itemsize)."""
        r = self.rng
        nd, item = len(shape), dtype.itemsize
        strides = [0] * nd
        if r.random() < 0.6:
            order = list(range(nd))
            r.shuffle(order)
            step = item * r.choice([1, 1, 1, 2])
            for axis in reversed(order):
                strides[axis] = step * r.choice([1, 1, 1, -1])
                step *= max(shape[axis], 1) * r.choice([1, 1, 1, 1, 2])
        else:
            for i in range(nd):
                x = r.random()
                if x < 0.15:
                    strides[i] = 0
                elif x < 0.85:
                    strides[i] = item * r.randint(-6, 6)
                else:
                    strides[i] = r.randint(-40, 40)
        if 0 in shape:
            lo, hi = 0, item
        else:
            lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
            hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides)) + item
        buf = np.empty(hi - lo + r.randint(0, 8), np.uint8)
        a = np.ndarray(shape, dtype, buffer=buf, offset=-lo, strides=strides)
        return a, [buf]

    # arguments

    def axis(self, nd, bad=0.07):
        r = self.rng
        if nd == 0 or r.random() < bad:
            return r.choice([nd, nd + 1, -nd - 1, -nd - 2, 2**31 - 1, -(2**31), 9, -9, 100])
        return r.randint(-nd, nd - 1)

    def bound(self, n):
        r = self.rng
        x = r.random()
        if x < 0.2:
            return NONE
        if x < 0.93:
            return r.randint(-n - 3, n + 3)
        return r.choice([2**62, -(2**62), PTRDIFF_MAX, NONE + 1])

    def step(self):
        r = self.rng
        x = r.random()
        if x < 0.2:
            return NONE
        if x < 0.24:
            return 0
        if x < 0.96:
            return r.choice([1, 1, 2, 3, 4, -1, -1, -2, -3, -4])
        return r.choice([2**62, -(2**62), PTRDIFF_MAX, NONE + 1])

    def factor_shape(self, size, k):
        """A random shape of k extents whose product is `size` (when possible)."""
        r = self.rng
        if k == 0:
            return []
        if size == 0:
            shape = [r.randint(0, 3) for _ in range(k)]
            shape[r.randrange(k)] = 0
            return shape
        shape = [1] * k
        n, p = size, 2
        while n > 1:
            while n % p == 0:
                shape[r.randrange(k)] *= p
                n //= p
            p += 1
        return shape

    def regroup(self, shape):
        """A reshape target made by merging adjacent axes and splitting axes of `shape`
        (after dropping its 1s), with 1s inserted: the cases NumPy's no-copy rule is about."""
        r = self.rng
        dims = [d for d in shape if d != 1]
        out = []
        i = 0
        while i < len(dims):
            x = r.random()
            if x < 0.3 and i + 1 < len(dims):
                out.append(dims[i] * dims[i + 1])
                i += 2
                continue
            if x < 0.55 and dims[i] > 1:
                out.extend(self.factor_shape(dims[i], 2))
            else:
                out.append(dims[i])
            i += 1
        while r.random() < 0.3 and len(out) < MAX_DIMS:
            out.insert(r.randint(0, len(out)), 1)
        return out


# --- the runner -------------------------------------------------------------------------------


class Runner:
    def __init__(self, lib, rng):
        self.lib = lib
        self.rng = rng
        self.gen = Gen(rng)
        self.stats = {}
        self.mismatches = []
        self.case_no = 0

    # bookkeeping

    def stat(self, op):
        return self.stats.setdefault(op, {"cases": 0, "errors": 0, "mismatches": 0, "codes": {}})

    def report(self, op, src, args, expected, problems, got):
        st = self.stat(op)
        st["cases"] += 1
        if isinstance(expected, Err):
            st["errors"] += 1
            name = STATUS[expected.code][len("MVS_ERR_"):]
            st["codes"][name] = st["codes"].get(name, 0) + 1
        if problems:
            st["mismatches"] += 1
            if len(self.mismatches) < 200:
                self.mismatches.append(
                    f"case #{self.case_no} op={op}\n"
                    f"  source:   {src.describe()}\n"
                    f"  args:     {args}\n"
                    f"  expected: {expected}\n"
                    f"  got:      {got}\n"
                    + "".join(f"  problem:  {p}\n" for p in problems))

    def token(self):
        return 0x7EAD00000000 | (self.rng.getrandbits(28) << 4)

    def make_src(self, src, token):
        a = src.a
        s = Slice()
        s.memview = token
        s.data = addr(a)
        junk = self.rng.random() < 0.5
        for i in range(MAX_DIMS):
            if i < a.ndim:
                s.shape[i], s.strides[i], s.suboffsets[i] = a.shape[i], a.strides[i], -1
            elif junk:
                # Entries past ndim are not part of the view; the library must ignore them.
                s.shape[i], s.strides[i], s.suboffsets[i] = -7, 12345, 3
            else:
                s.shape[i], s.strides[i], s.suboffsets[i] = 0, 0, -1
        return s

    def last_error_problems(self):
        msg = self.lib.mvs_last_error()
        if not msg or msg == b"no error":
            return [f"mvs_last_error() is {msg!r} after a failure"]
        return []

    def got_status(self, st):
        return f"{STATUS.get(st, st)}" + (
            f" last_error={self.lib.mvs_last_error().decode(errors='replace')!r}" if st else "")

    # NumPy outcomes

    def numpy(self, fn, classify):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 - every exception is classified or a test bug
            code = classify(e)
            if code is None:
                raise OracleBug(f"unexpected NumPy exception {type(e).__name__}: {e}") from e
            return Err(code, f"NumPy: {type(e).__name__}: {e}")

    # executors

    def derive(self, op, src, args, expected, invoke, out_ndim=False, exact=False):
        """Runs one derivation. `expected` is view_info(...) or Err; `invoke(srcp, outp, ndp)`
        calls the library; `exact` compares the free choices too (see check_view)."""
        token = self.token()
        s = self.make_src(src, token)
        alias = self.rng.random() < 0.2
        if alias:
            out = s  # out == src: update in place
        else:
            out = Slice()
            C.memmove(C.addressof(out), SLICE_SENTINEL, len(SLICE_SENTINEL))
        before = bytes(out)
        nd = C.c_int(INT_SENTINEL)
        st = invoke(C.byref(s), C.byref(out), C.byref(nd) if out_ndim else None)
        got = self.got_status(st) + ("" if st else f" out: {slice_fields(out)}"
                                     + (f" out_ndim={nd.value}" if out_ndim else ""))
        problems = []
        if isinstance(expected, Err):
            if st != expected.code:
                problems.append(f"status {STATUS.get(st, st)} != expected {STATUS[expected.code]}")
            if st != OK:
                if bytes(out) != before:
                    problems.append("a failing call modified its output" + (" (aliased src)" if alias else ""))
                if out_ndim and nd.value != INT_SENTINEL:
                    problems.append("a failing call modified out_ndim")
                problems += self.last_error_problems()
        else:
            if st != OK:
                problems.append(f"status {STATUS.get(st, st)} != MVS_OK")
            else:
                problems += check_view(out, expected, token, exact=exact)
                if out_ndim and nd.value != expected[0]:
                    problems.append(f"out_ndim {nd.value} != NumPy ndim {expected[0]}")
        exp = expected if isinstance(expected, Err) else describe_info(expected)
        self.report(op, src, args + (" [out aliases src]" if alias else ""), exp, problems, got)

    def split(self, op, src, args, expected, nouts, invoke):
        """Runs one split into `nouts` outputs. `expected` is a list of view_info or Err."""
        token = self.token()
        s = self.make_src(src, token)
        outs = (Slice * nouts)()
        C.memset(C.addressof(outs), 0xA5, C.sizeof(outs))
        before = bytes(outs)
        st = invoke(C.byref(s), outs)
        got = self.got_status(st)
        problems = []
        if isinstance(expected, Err):
            if st != expected.code:
                problems.append(f"status {STATUS.get(st, st)} != expected {STATUS[expected.code]}")
            if st != OK:
                if bytes(outs) != before:
                    problems.append("a failing call modified its outputs")
                problems += self.last_error_problems()
            exp = expected
        else:
            if st != OK:
                problems.append(f"status {STATUS.get(st, st)} != MVS_OK")
            else:
                for i, e in enumerate(expected):
                    problems += check_view(outs[i], e, token, label=f"outs[{i}]")
                got += "".join(f"\n            outs[{i}]: {slice_fields(o)}" for i, o in enumerate(outs))
            exp = "".join(f"\n            [{i}] {describe_info(e)}" for i, e in enumerate(expected))
        self.report(op, src, args, exp, problems, got)

    def query(self, op, src, args, expected, invoke, outs):
        """Runs one query; `outs` are ctypes scalars pre-set to sentinels, `expected` is the
        tuple of their expected values or Err."""
        token = self.token()
        s = self.make_src(src, token)
        before = [o.value for o in outs]
        src_before = bytes(s)
        st = invoke(C.byref(s), *[C.byref(o) for o in outs])
        vals = tuple(o.value for o in outs)
        got = self.got_status(st) + ("" if st else f" values={vals}")
        problems = []
        if isinstance(expected, Err):
            if st != expected.code:
                problems.append(f"status {STATUS.get(st, st)} != expected {STATUS[expected.code]}")
            if st != OK:
                if list(vals) != before:
                    problems.append("a failing call modified its output")
                problems += self.last_error_problems()
        elif st != OK:
            problems.append(f"status {STATUS.get(st, st)} != MVS_OK")
        elif vals != expected:
            problems.append(f"values {vals} != expected {expected}")
        if bytes(s) != src_before:
            problems.append("a query modified its source")
        self.report(op, src, args, expected, problems, got)

    # --- derivations ---

    def op_slice_axis(self):
        g, r = self.gen, self.rng
        src = g.source(g.ndim(lo=0))
        a, nd = src.a, src.a.ndim
        axis = g.axis(nd)
        n = a.shape[axis] if -nd <= axis < nd else 3
        start, stop, step = g.bound(n), g.bound(n), g.step()
        py = [None if v == NONE else v for v in (start, stop, step)]

        def fn():
            ax = normalize_axis_index(axis, nd)
            return a[(slice(None),) * ax + (slice(*py), Ellipsis)]

        def classify(e):
            if isinstance(e, AxisError):
                return ERR_AXIS
            if isinstance(e, ValueError) and "step cannot be zero" in str(e):
                return ERR_STEP
            return None

        exp = self.numpy(fn, classify)
        exp = exp if isinstance(exp, Err) else limit(view_info(exp))
        args = f"axis={axis} start={fmt(start)} stop={fmt(stop)} step={fmt(step)}"
        self.derive("mvs_slice_axis", src, args, exp,
                    lambda sp, op, _: self.lib.mvs_slice_axis(sp, nd, axis, start, stop, step, op))

    def op_index_axis(self):
        g, r = self.gen, self.rng
        src = g.source(g.ndim(lo=0))
        a, nd = src.a, src.a.ndim
        axis = g.axis(nd)
        n = a.shape[axis] if -nd <= axis < nd else 3
        x = r.random()
        if x < 0.75 and n:
            index = r.randint(-n, n - 1)
        elif x < 0.93:
            index = r.randint(-n - 2, n + 1)
        else:
            index = r.choice([2**62, -(2**62), PTRDIFF_MAX, NONE, NONE + 1])

        def fn():
            ax = normalize_axis_index(axis, nd)
            return a[(slice(None),) * ax + (index, Ellipsis)]

        def classify(e):
            if isinstance(e, AxisError):
                return ERR_AXIS
            if isinstance(e, IndexError) and "out of bounds" in str(e):
                return ERR_INDEX
            return None

        exp = self.numpy(fn, classify)
        exp = exp if isinstance(exp, Err) else limit(view_info(exp))
        self.derive("mvs_index_axis", src, f"axis={axis} index={fmt(index)}", exp,
                    lambda sp, op, _: self.lib.mvs_index_axis(sp, nd, axis, index, op))

    def op_index(self):
        g, r = self.gen, self.rng
        src = g.source(g.ndim(lo=0))
        a, nd = src.a, src.a.ndim
        # How many items of each kind: mostly no more indices than axes.
        consumed = r.randint(0, nd) if r.random() < 0.9 else nd + r.randint(1, 2)
        ints = sum(r.random() < 0.4 for _ in range(consumed))
        x = r.random()
        newaxes = r.randint(0, 3) if x < 0.85 else r.randint(4, 10)
        ellipses = r.choices([0, 1, 2], weights=[45, 50, 5])[0]
        kinds = [ITEM_INDEX] * ints + [ITEM_SLICE] * (consumed - ints) \
            + [ITEM_NEWAXIS] * newaxes + [ITEM_ELLIPSIS] * ellipses
        r.shuffle(kinds)
        kinds = kinds[:MAX_INDEX_ITEMS]
        # The source axis each integer or slice meets (when the index is well-formed), so that
        # most values are in range.
        used = sum(k in (ITEM_INDEX, ITEM_SLICE) for k in kinds)
        axes, front = [], 0
        after = used
        for k in kinds:
            if k == ITEM_ELLIPSIS:
                front = nd - after
            if k in (ITEM_INDEX, ITEM_SLICE):
                axes.append(front)
                front += 1
                after -= 1
            else:
                axes.append(None)
        items, py = [], []
        for k, ax in zip(kinds, axes):
            n = a.shape[ax] if ax is not None and 0 <= ax < nd else 3
            if k == ITEM_INDEX:
                v = r.randint(-n, n - 1) if (n > 0 and r.random() < 0.93) else r.randint(-n - 2, n + 1)
                items.append(IndexItem(ITEM_INDEX, v, 0, 0))
                py.append(v)
            elif k == ITEM_SLICE:
                b = (g.bound(n), g.bound(n), g.step() if r.random() < 0.8 else NONE)
                items.append(IndexItem(ITEM_SLICE, *b))
                py.append(slice(*[None if v == NONE else v for v in b]))
            elif k == ITEM_NEWAXIS:
                items.append(IndexItem(ITEM_NEWAXIS, r.randint(-5, 5), 0, 0))  # values ignored
                py.append(None)
            else:
                items.append(IndexItem(ITEM_ELLIPSIS, 0, 0, 0))
                py.append(Ellipsis)
        # NumPy returns a scalar for a full integer index: an explicit trailing ellipsis keeps
        # the 0-d view (the same address) and changes nothing else.
        key = tuple(py) if Ellipsis in py else tuple(py) + (Ellipsis,)
        result_ndim = nd - kinds.count(ITEM_INDEX) + kinds.count(ITEM_NEWAXIS)

        def classify(e):
            if isinstance(e, IndexError):
                return ERR_INDEX
            if isinstance(e, ValueError) and "step cannot be zero" in str(e):
                return ERR_STEP
            return None

        exp = self.numpy(lambda: a[key], classify)
        parse_error = isinstance(exp, Err) and exp.code == ERR_INDEX and (
            "ellipsis" in exp.why or "too many indices" in exp.why)
        if not parse_error and result_ndim > MAX_DIMS:
            # NumPy checks its dimension limit while parsing the index, after the ellipsis
            # and "too many indices" checks and before any bound or step (prepare_index).
            exp = Err(ERR_NDIM, f"the result would have {result_ndim} dimensions "
                                f"(NumPy: {exp.why if isinstance(exp, Err) else 'succeeds'})")
        elif not isinstance(exp, Err):
            exp = view_info(exp)
        arr = (IndexItem * len(items))(*items) if items or r.random() < 0.5 else None
        self.derive("mvs_index", src, f"a[{fmt_key(py)}]", exp,
                    lambda sp, op, ndp: self.lib.mvs_index(sp, nd, arr, len(items), op, ndp),
                    out_ndim=True)

    def op_reshape(self):
        # NumPy infers any negative extent, conventionally -1.
        def unknown():
            return self.rng.choice([-1, -1, -1, -2, -9])

        g, r = self.gen, self.rng
        src = g.source(g.ndim(lo=0))
        a, nd = src.a, src.a.ndim
        size = a.size
        order = r.choice("CF")
        x = r.random()
        if x < 0.45:
            shape = g.regroup(a.shape) if size else g.factor_shape(0, r.randint(1, 4))
        elif x < 0.70:
            shape = g.factor_shape(size, r.randint(0, 5))
        elif x < 0.74:
            shape = g.factor_shape(size, r.randint(9, 10))  # more than 8 dimensions
        elif x < 0.84:  # a different item count
            shape = g.factor_shape(size, r.randint(1, 4))
            if size == 0:
                shape = [d if d else r.randint(1, 3) for d in shape]
            else:
                shape[r.randrange(len(shape))] *= r.choice([2, 3])
                if r.random() < 0.3:
                    shape.append(0)
        elif x < 0.88:  # two unknowns
            shape = g.factor_shape(size, r.randint(2, 4))
            i, j = r.sample(range(len(shape)), 2)
            shape[i], shape[j] = unknown(), unknown()
        elif x < 0.92:  # an unknown beside a zero extent
            shape = [0, unknown()] if r.random() < 0.5 else [unknown(), r.randint(1, 2), 0]
        elif x < 0.94:  # an unknown order
            shape = g.regroup(a.shape) if size else [0]
            order = r.choice("XZ")
        else:
            shape = g.factor_shape(size, r.randint(0, 8))
        if min(shape, default=0) >= 0 and shape and size and (x < 0.70 or x >= 0.94) and r.random() < 0.3:
            shape[r.randrange(len(shape))] = unknown()

        def classify(e):
            m = str(e)
            if isinstance(e, ValueError):
                if "avoid creating a copy" in m:
                    return ERR_NEEDS_COPY
                if "cannot reshape" in m or "one unknown dimension" in m:
                    return ERR_SHAPE
                if "order must be one of" in m:
                    return ERR_VALUE
            return None

        if len(shape) > MAX_DIMS:
            # NumPy converts the shape argument first, refusing more than its limit.
            exp = Err(ERR_NDIM, f"a shape of {len(shape)} extents")
        else:
            exp = self.numpy(lambda: np.reshape(a, shape, order=order, copy=False), classify)
            exp = exp if isinstance(exp, Err) else limit(view_info(exp))
        arr = ssize_array(shape)
        self.derive("mvs_reshape", src, f"shape={shape} order={order!r}", exp,
                    lambda sp, op, _: self.lib.mvs_reshape(sp, nd, a.itemsize, len(shape), arr,
                                                           order_code(order), op))

    def op_transpose(self):
        src = self.gen.source()
        a, nd = src.a, src.a.ndim
        exp = view_info(np.transpose(a))
        self.derive("mvs_transpose", src, "", exp, lambda sp, op, _: self.lib.mvs_transpose(sp, nd, op))

    def op_permute(self):
        g, r = self.gen, self.rng
        src = g.source()
        a, nd = src.a, src.a.ndim
        axes = list(range(nd))
        r.shuffle(axes)
        axes = [ax - nd if r.random() < 0.3 else ax for ax in axes]
        x = r.random()
        if nd >= 2 and x < 0.08:  # repeated
            i, j = r.sample(range(nd), 2)
            axes[i] = axes[j] if r.random() < 0.5 else (axes[j] + nd) % nd - (nd if r.random() < 0.5 else 0)
        elif nd >= 1 and x < 0.16:  # out of range
            axes[r.randrange(nd)] = g.axis(nd, bad=1.0)

        def classify(e):
            if isinstance(e, AxisError) or (isinstance(e, ValueError) and "repeated axis" in str(e)):
                return ERR_AXIS
            return None

        exp = self.numpy(lambda: np.transpose(a, axes), classify)
        exp = exp if isinstance(exp, Err) else view_info(exp)
        arr = int_array(axes)
        self.derive("mvs_permute", src, f"axes={axes}", exp,
                    lambda sp, op, _: self.lib.mvs_permute(sp, nd, arr, op))

    def op_swap_axes(self):
        g = self.gen
        src = g.source()
        a, nd = src.a, src.a.ndim
        a1, a2 = g.axis(nd), g.axis(nd)
        exp = self.numpy(lambda: np.swapaxes(a, a1, a2), lambda e: ERR_AXIS if isinstance(e, AxisError) else None)
        exp = exp if isinstance(exp, Err) else view_info(exp)
        self.derive("mvs_swap_axes", src, f"axis1={a1} axis2={a2}", exp,
                    lambda sp, op, _: self.lib.mvs_swap_axes(sp, nd, a1, a2, op))

    def op_move_axes(self):
        g, r = self.gen, self.rng
        src = g.source()
        a, nd = src.a, src.a.ndim
        # count stays within 0..=ndim: a larger count cannot name distinct axes, and NumPy's
        # error for it (repeated/out of range: AXIS) differs from the library's documented
        # MVS_ERR_VALUE for "count out of range" (see precedence notes).
        k = r.randint(0, nd)
        source = [ax - nd if r.random() < 0.3 else ax for ax in r.sample(range(nd), k)]
        dest = [ax - nd if r.random() < 0.3 else ax for ax in r.sample(range(nd), k)]
        x = r.random()
        if k >= 2 and x < 0.08:
            lst = r.choice([source, dest])
            i, j = r.sample(range(k), 2)
            lst[i] = lst[j]
        elif k >= 1 and x < 0.16:
            r.choice([source, dest])[r.randrange(k)] = g.axis(nd, bad=1.0)

        def classify(e):
            if isinstance(e, AxisError) or (isinstance(e, ValueError) and "repeated axis" in str(e)):
                return ERR_AXIS
            return None

        exp = self.numpy(lambda: np.moveaxis(a, source, dest), classify)
        exp = exp if isinstance(exp, Err) else view_info(exp)
        sa, da = int_array(source), int_array(dest)
        self.derive("mvs_move_axes", src, f"source={source} destination={dest}", exp,
                    lambda sp, op, _: self.lib.mvs_move_axes(sp, nd, sa, da, k, op))

    def op_broadcast_to(self):
        g, r = self.gen, self.rng
        src = g.source(g.ndim(hi=6))
        a, nd = src.a, src.a.ndim
        tgt = [r.randint(0, 4) if (d == 1 and r.random() < 0.6) else d for d in a.shape]
        x = r.random()
        if x < 0.05:
            lead = MAX_DIMS + r.randint(1, 2) - nd  # more than 8 dimensions, valid
        else:
            lead = r.randint(0, max(0, min(3, MAX_DIMS - nd)))
        tgt = [r.randint(0, 3) for _ in range(lead)] + tgt
        non1 = [i for i in range(nd) if a.shape[i] != 1]
        if 0.05 <= x < 0.15 and non1:  # incompatible extent
            i = r.choice(non1)
            tgt[lead + i] = r.choice([v for v in (0, 1, 2, 3, 5) if v != a.shape[i]])
        elif 0.15 <= x < 0.20 and nd:  # fewer dimensions than the source
            tgt = tgt[lead + r.randint(1, nd):]
        elif 0.20 <= x < 0.24 and tgt:  # a negative extent
            tgt[r.randrange(len(tgt))] = r.choice([-1, -2, NONE])

        def classify(e):
            if isinstance(e, ValueError):
                if "non-negative" in str(e):
                    return ERR_SHAPE
                if "broadcast" in str(e) or "more dimensions" in str(e):
                    return ERR_BROADCAST
            return None

        exp = self.numpy(lambda: np.broadcast_to(a, tgt), classify)
        exp = exp if isinstance(exp, Err) else limit(view_info(exp))
        arr = ssize_array(tgt)
        self.derive("mvs_broadcast_to", src, f"shape={tgt}", exp,
                    lambda sp, op, _: self.lib.mvs_broadcast_to(sp, nd, len(tgt), arr, op))

    def op_expand_dims(self):
        g, r = self.gen, self.rng
        src = g.source()
        a, nd = src.a, src.a.ndim
        if nd == MAX_DIMS or r.random() > 0.08:
            # At ndim 8 only valid axes: the header makes MVS_ERR_NDIM unconditional there,
            # while NumPy would report the axis first (see precedence notes).
            axis = r.randint(-nd - 1, nd)
        else:
            axis = r.choice([nd + 1, -nd - 2, 100, -(2**31)])
        exp = self.numpy(lambda: np.expand_dims(a, axis), lambda e: ERR_AXIS if isinstance(e, AxisError) else None)
        exp = exp if isinstance(exp, Err) else limit(view_info(exp))
        self.derive("mvs_expand_dims", src, f"axis={axis}", exp,
                    lambda sp, op, _: self.lib.mvs_expand_dims(sp, nd, axis, op))

    def op_squeeze_axis(self):
        g, r = self.gen, self.rng
        src = g.source()
        a, nd = src.a, src.a.ndim
        ones = [i for i in range(nd) if a.shape[i] == 1]
        # Note: NumPy lets axis 0 and -1 through for 0-d arrays ("for backwards compatibility",
        # PyArray_ConvertMultiAxis) and returns the array unchanged; g.axis() generates them.
        if ones and r.random() < 0.75:
            axis = r.choice(ones)
            axis = axis - nd if r.random() < 0.4 else axis
        else:
            axis = g.axis(nd, bad=0.3)

        def classify(e):
            if isinstance(e, AxisError):
                return ERR_AXIS
            if isinstance(e, ValueError) and "size not equal to one" in str(e):
                return ERR_SHAPE
            return None

        exp = self.numpy(lambda: np.squeeze(a, axis=axis), classify)
        exp = exp if isinstance(exp, Err) else view_info(exp)
        self.derive("mvs_squeeze_axis", src, f"axis={axis}", exp,
                    lambda sp, op, _: self.lib.mvs_squeeze_axis(sp, nd, axis, op))

    def op_squeeze(self):
        src = self.gen.source()
        a, nd = src.a, src.a.ndim
        exp = view_info(np.squeeze(a))
        self.derive("mvs_squeeze", src, "", exp,
                    lambda sp, op, ndp: self.lib.mvs_squeeze(sp, nd, op, ndp), out_ndim=True)

    def op_diagonal(self):
        g, r = self.gen, self.rng
        src = g.source(g.ndim(lo=0) if r.random() < 0.15 else g.ndim(lo=2))
        a, nd = src.a, src.a.ndim
        if nd >= 2:
            a1, a2 = r.sample(range(nd), 2)
            a1, a2 = (a1 - nd if r.random() < 0.3 else a1), (a2 - nd if r.random() < 0.3 else a2)
        else:
            a1, a2 = r.randint(-2, 1), r.randint(-2, 1)
        x = r.random()
        if x < 0.07:
            a2 = a1 if r.random() < 0.5 else (a1 + nd if a1 < 0 else a1 - nd)
        elif x < 0.14:
            if r.random() < 0.5:
                a1 = g.axis(nd, bad=1.0)
            else:
                a2 = g.axis(nd, bad=1.0)
        n = max(a.shape) if nd else 1
        # NumPy takes the offset as a C int.
        offset = r.randint(-n - 1, n + 1) if r.random() < 0.93 else r.choice([2**31 - 1, -(2**31 - 1), 2**20])

        def classify(e):
            if isinstance(e, AxisError):
                return ERR_AXIS
            if isinstance(e, ValueError):
                if "at least two dimensions" in str(e):
                    return ERR_NDIM
                if "cannot be the same" in str(e):
                    return ERR_AXIS
            return None

        exp = self.numpy(lambda: np.diagonal(a, offset, a1, a2), classify)
        exp = exp if isinstance(exp, Err) else view_info(exp)
        self.derive("mvs_diagonal", src, f"offset={offset} axis1={a1} axis2={a2}", exp,
                    lambda sp, op, _: self.lib.mvs_diagonal(sp, nd, offset, a1, a2, op))

    def op_flip_axis(self):
        g = self.gen
        src = g.source()
        a, nd = src.a, src.a.ndim
        axis = g.axis(nd)
        exp = self.numpy(lambda: np.flip(a, axis), lambda e: ERR_AXIS if isinstance(e, AxisError) else None)
        exp = exp if isinstance(exp, Err) else view_info(exp)
        self.derive("mvs_flip_axis", src, f"axis={axis}", exp,
                    lambda sp, op, _: self.lib.mvs_flip_axis(sp, nd, axis, op))

    def op_flip(self):
        src = self.gen.source()
        a, nd = src.a, src.a.ndim
        # np.flip of a 0-d array indexes it with () and returns a scalar; a[...] is its view.
        exp = view_info(np.flip(a) if nd else a[...])
        self.derive("mvs_flip", src, "", exp, lambda sp, op, _: self.lib.mvs_flip(sp, nd, op))

    def op_sliding_window(self):
        g, r = self.gen, self.rng
        src = g.source()
        a, nd = src.a, src.a.ndim
        axis = g.axis(nd, bad=0.0)
        n = a.shape[axis] if nd else 2
        window, step = r.randint(0, n), r.choice([1, 1, 1, 2, 3, 4, 7])
        # One error at a time: NumPy checks a negative window before the axis, the library
        # the axis first; and at ndim 8 the library's limit comes before the window checks.
        x = r.random()
        if nd == 0 or x < 0.05:
            axis = g.axis(nd, bad=1.0)
        elif nd < MAX_DIMS and x < 0.10:
            window = n + r.randint(1, 3)
        elif nd < MAX_DIMS and x < 0.13:
            window = r.choice([-1, -2, NONE])
        elif nd < MAX_DIMS and x < 0.17:
            step = 0

        def fn():
            w = sliding_window_view(a, window, axis=axis)
            ax = normalize_axis_index(axis, nd)
            return w[(slice(None),) * ax + (slice(None, None, step), Ellipsis)]

        def classify(e):
            if isinstance(e, AxisError):
                return ERR_AXIS
            if isinstance(e, ValueError):
                if "step cannot be zero" in str(e):
                    return ERR_STEP
                if "window" in str(e):
                    return ERR_VALUE
            return None

        exp = self.numpy(fn, classify)
        exp = exp if isinstance(exp, Err) else limit(view_info(exp))
        self.derive("mvs_sliding_window", src, f"axis={axis} window={fmt(window)} step={step}", exp,
                    lambda sp, op, _: self.lib.mvs_sliding_window(sp, nd, axis, window, step, op))

    def op_split_sections(self):
        g, r = self.gen, self.rng
        src = g.source(g.ndim(lo=0) if r.random() < 0.1 else g.ndim(lo=1))
        a, nd = src.a, src.a.ndim
        axis = g.axis(nd, bad=0.06)
        n = a.shape[axis] if -nd <= axis < nd else 3
        uneven = r.random() < 0.4
        x = r.random()
        if x < 0.06:
            sections = r.choice([0, -1, -2, -3])
        elif x < 0.5 and n:
            sections = r.choice([d for d in range(1, n + 1) if n % d == 0])
        else:
            sections = r.randint(1, n + 3)

        def fn():
            if uneven:
                return np.array_split(a, sections, axis=axis)
            return np.split(a, sections, axis=axis)

        def classify(e):
            # The axis is looked up first (`ary.shape[axis]`), so an IndexError is the axis.
            if isinstance(e, IndexError) and "tuple index out of range" in str(e):
                return ERR_AXIS
            if isinstance(e, ZeroDivisionError) and sections == 0:
                return ERR_VALUE  # np.split(a, 0): `N % 0`
            if isinstance(e, ValueError) and ("equal division" in str(e) or "larger than 0" in str(e)):
                return ERR_VALUE
            return None

        exp = self.numpy(fn, classify)
        if not isinstance(exp, Err):
            exp = [view_info(p) for p in exp]
        nouts = max(sections, 1)
        self.split("mvs_split_sections", src, f"axis={axis} sections={sections} uneven={int(uneven)} "
                   f"({'np.array_split' if uneven else 'np.split'})", exp, nouts,
                   lambda sp, outs: self.lib.mvs_split_sections(sp, nd, axis, sections, int(uneven), outs, nouts))

    def op_split_at(self):
        g, r = self.gen, self.rng
        src = g.source(g.ndim(lo=0) if r.random() < 0.1 else g.ndim(lo=1))
        a, nd = src.a, src.a.ndim
        axis = g.axis(nd, bad=0.06)
        n = a.shape[axis] if -nd <= axis < nd else 3
        k = r.randint(0, 4)
        indices = [r.randint(0, n) if r.random() < 0.7 else r.randint(-n - 2, n + 2) for _ in range(k)]
        if r.random() < 0.6:
            indices.sort()
        if k and r.random() < 0.05:
            indices[r.randrange(k)] = r.choice([2**62, -(2**62), PTRDIFF_MAX, NONE + 1])

        def classify(e):
            if isinstance(e, IndexError) and "tuple index out of range" in str(e):
                return ERR_AXIS
            return None

        exp = self.numpy(lambda: np.split(a, indices, axis=axis), classify)
        if not isinstance(exp, Err):
            exp = [view_info(p) for p in exp]
        arr = ssize_array(indices)
        self.split("mvs_split_at", src, f"axis={axis} indices={indices}", exp, k + 1,
                   lambda sp, outs: self.lib.mvs_split_at(sp, nd, axis, arr, k, outs))

    def op_subview(self):
        g, r = self.gen, self.rng
        kinds = ["C", "F"] if r.random() < 0.85 else KINDS
        src = g.source(kinds=kinds)
        a, nd = src.a, src.a.ndim
        size = a.size
        order = r.choice("CF")
        x = r.random()
        offset = r.randint(0, size)
        need = r.randint(0, size - offset)
        shape = g.factor_shape(need, r.randint(1 if need != 1 else 0, 4))
        if x < 0.04:
            shape = g.factor_shape(need, r.randint(9, 10))  # more than 8 dimensions
        elif x < 0.10:
            offset = r.choice([-1, -3, NONE])
        elif x < 0.18:
            shape = g.factor_shape(r.randint(size - offset + 1, size + 4), r.randint(1, 3))
        elif x < 0.20:
            offset = size + r.randint(1, 3)
            shape = []
        elif x < 0.22 and (a.flags.c_contiguous or a.flags.f_contiguous):
            order = r.choice("XZ")  # one error at a time: the library reads the order first
        n = math.prod(shape)

        def fn():
            if not (a.flags.c_contiguous or a.flags.f_contiguous):
                return Err(ERR_NOT_CONTIGUOUS, "NumPy: neither c_contiguous nor f_contiguous")
            flat = np.reshape(a, -1, order="C" if a.flags.c_contiguous else "F", copy=False)
            assert flat.size <= 1 or flat.strides == (a.itemsize,), flat.strides
            if offset < 0:
                return Err(ERR_BOUNDS, f"offset {offset} is negative")
            if offset > size:
                return Err(ERR_BOUNDS, f"offset {offset} is past the {size} items")
            return np.reshape(flat[offset:offset + n], shape, order=order, copy=False)

        def classify(e):
            if isinstance(e, ValueError):
                if "cannot reshape array of size" in str(e):
                    return ERR_BOUNDS  # flat[offset:offset + n] is shorter than n
                if "order must be one of" in str(e):
                    return ERR_VALUE
            return None

        if len(shape) > MAX_DIMS:
            exp = Err(ERR_NDIM, f"a shape of {len(shape)} extents")
        else:
            exp = self.numpy(fn, classify)
            exp = exp if isinstance(exp, Err) else limit(view_info(exp))
        arr = ssize_array(shape)
        self.derive("mvs_subview", src, f"offset={fmt(offset)} shape={shape} order={order!r} "
                    "(oracle: flat[offset:offset+n].reshape(shape, order))", exp,
                    lambda sp, op, _: self.lib.mvs_subview(sp, nd, a.itemsize, offset, len(shape), arr,
                                                           order_code(order), op))

    def op_view_as(self):
        """a.view(np.dtype(('V', new))), the items of `a` being ('V', itemsize): NumPy's void
        types give every item size. Most sources have a contiguous last axis (or one of extent 1,
        `a[..., None]`), most new sizes divide, so that each rule is met both ways."""
        g, r = self.gen, self.rng
        isz = r.randint(1, 16)
        kinds = ["C", "C", "C", "sliced", "strided", "strided"] if r.random() < 0.7 else KINDS
        src = g.source(g.ndim(lo=0, hi=MAX_DIMS - 1), kinds=kinds, dtype=np.dtype(("V", isz)))
        if src.a.ndim < MAX_DIMS and r.random() < 0.15:
            src = Source(src.a[..., None], src.kind + "[..., None]", src.keep)
        a, nd = src.a, src.a.ndim
        nbytes = (a.shape[-1] if nd else 1) * isz
        x = r.random()
        if x < 0.35:
            new = r.randint(1, 16)
        elif x < 0.55:
            new = r.choice([d for d in range(1, isz + 1) if isz % d == 0])
        elif x < 0.80:
            new = r.choice([d for d in range(isz, nbytes + 1) if nbytes % d == 0] or [isz])
        elif x < 0.92:
            new = isz
        else:
            new = r.randint(1, 64)
        itemsize = isz
        if r.random() < 0.03:  # not positive: the library's own refusal, before NumPy's rules
            if r.random() < 0.5:
                itemsize = r.choice([0, -1, -isz, NONE])
            else:
                new = r.choice([0, -1, -isz, NONE])

        if itemsize <= 0 or new <= 0:
            exp = Err(ERR_ITEMSIZE, f"itemsize {fmt(itemsize)} or new_itemsize {fmt(new)} not positive")
        else:
            exp = self.numpy(lambda: a.view(np.dtype(("V", new))), view_as_refusal)
            exp = exp if isinstance(exp, Err) else view_info(exp)
        self.derive("mvs_view_as", src, f"itemsize={fmt(itemsize)} new_itemsize={fmt(new)}", exp,
                    lambda sp, op, _: self.lib.mvs_view_as(sp, nd, itemsize, new, op), exact=True)

    def sweep_view_as(self):
        """Every pair of item sizes 1..16 on one source of each layout the rule tells apart:
        contiguous, 0-d, empty with a non-contiguous last axis, a non-contiguous last axis, a last
        axis of extent 1 and odd stride, F order."""
        k = 0
        for isz in range(1, 17):
            dt = np.dtype(("V", isz))
            c = np.empty((2, 3), dt)
            z = np.empty((0, 6), dt)[:, ::2]
            odd = np.lib.stride_tricks.as_strided(np.empty(16, dt), (3, 1), (5 * isz, 7))
            layouts = [(c, "C"), (np.empty((), dt), "0-d"), (z, "empty, a[:, ::2]"),
                       (np.empty((3, 4), dt)[:, ::2], "a[:, ::2]"), (odd, "extent 1, stride 7"),
                       (np.empty((2, 3), dt, order="F"), "F")]
            for new in range(1, 17):
                for a, kind in layouts:
                    self.case_no = f"sweep-{k}"
                    k += 1
                    src = Source(a, kind + " (item size sweep)", [a])
                    nd = a.ndim

                    exp = self.numpy(lambda: a.view(np.dtype(("V", new))), view_as_refusal)
                    exp = exp if isinstance(exp, Err) else view_info(exp)
                    self.derive("mvs_view_as (every pair 1..16)", src, f"itemsize={isz} new_itemsize={new}", exp,
                                lambda sp, op, _: self.lib.mvs_view_as(sp, nd, isz, new, op), exact=True)
        return k

    # --- queries ---

    def op_is_contiguous(self):
        r = self.rng
        src = self.gen.source()
        a, nd = src.a, src.a.ndim
        order, rule = r.choice("CF"), r.choice([CONTIG_NUMPY, CONTIG_NUMPY, CONTIG_CYTHON])
        if rule == CONTIG_NUMPY:
            exp = (int(a.flags.c_contiguous if order == "C" else a.flags.f_contiguous),)
            op = "mvs_is_contiguous(NUMPY)"
        else:
            exp = (int(cython_is_contig(a.shape, a.strides, a.itemsize, order)),)
            op = "mvs_is_contiguous(CYTHON)"
        out = C.c_int(INT_SENTINEL)
        self.query(op, src, f"order={order!r} rule={rule}", exp,
                   lambda sp, o: self.lib.mvs_is_contiguous(sp, nd, a.itemsize, order_code(order), rule, o), [out])

    def op_item_count(self):
        src = self.gen.source()
        a, nd = src.a, src.a.ndim
        out = ssize(SSIZE_SENTINEL)
        self.query("mvs_item_count", src, "", (a.size,),
                   lambda sp, o: self.lib.mvs_item_count(sp, nd, o), [out])

    def op_byte_count(self):
        src = self.gen.source()
        a, nd = src.a, src.a.ndim
        out = ssize(SSIZE_SENTINEL)
        self.query("mvs_byte_count", src, f"itemsize={a.itemsize}", (a.nbytes,),
                   lambda sp, o: self.lib.mvs_byte_count(sp, nd, a.itemsize, o), [out])

    def op_byte_extent(self):
        src = self.gen.source()
        a, nd = src.a, src.a.ndim
        if a.size == 0:
            exp = (0, 0)  # documented: a zero-size view addresses nothing
        else:
            lo, hi = byte_bounds(a)
            exp = (lo - addr(a), hi - addr(a))
        outs = [ssize(SSIZE_SENTINEL), ssize(SSIZE_SENTINEL)]
        self.query("mvs_byte_extent", src, f"itemsize={a.itemsize} (oracle: np.lib.array_utils.byte_bounds)",
                   exp, lambda sp, lo, hi: self.lib.mvs_byte_extent(sp, nd, a.itemsize, lo, hi), outs)

    def op_element_ptr(self):
        r = self.rng
        src = self.gen.source()
        a, nd = src.a, src.a.ndim
        idx = []
        for n in a.shape:
            if n and r.random() < 0.95:
                idx.append(r.randint(-n, n - 1))
            else:
                idx.append(r.choice([n, n + 1, -n - 1, 2**62, NONE]))

        def classify(e):
            return ERR_INDEX if isinstance(e, IndexError) else None

        exp = self.numpy(lambda: a[tuple(idx) + (Ellipsis,)], classify)
        exp = exp if isinstance(exp, Err) else (addr(exp),)
        arr = ssize_array(idx)
        out = C.c_void_p(0x5A5A5A5A5A5A5A5A)
        self.query("mvs_element_ptr", src, f"index={idx}", exp,
                   lambda sp, o: self.lib.mvs_element_ptr(sp, nd, arr, o), [out])


def view_as_refusal(e):
    """The library's status for NumPy's refusal `e` of a.view(dtype) (None: not one of its)."""
    m = str(e)
    if isinstance(e, ValueError):
        if "0d array" in m:
            return ERR_NDIM
        if "must be contiguous" in m:
            return ERR_NOT_CONTIGUOUS
        if "must be a divisor" in m:
            return ERR_VALUE
    return None


def cython_is_contig(shape, strides, itemsize, order):
    """Cython's `slice_is_contig` (View.MemoryView): every stride, extent-1 axes included,
    equals the product of the inner extents times the itemsize."""
    nd = len(shape)
    expected = itemsize
    for i in (reversed(range(nd)) if order == "C" else range(nd)):
        if strides[i] != expected:
            return False
        expected *= shape[i]
    return True


def fmt(v):
    if v == NONE:
        return "MVS_NONE"
    return str(v)


def fmt_key(py):
    parts = []
    for v in py:
        if v is None:
            parts.append("np.newaxis")
        elif v is Ellipsis:
            parts.append("...")
        elif isinstance(v, slice):
            parts.append(":".join("" if b is None else str(b) for b in (v.start, v.stop, v.step)))
        else:
            parts.append(str(v))
    return ", ".join(parts) if len(parts) != 1 else parts[0] + ","


OPS = {
    "mvs_slice_axis": ("op_slice_axis", 3),
    "mvs_index_axis": ("op_index_axis", 2),
    "mvs_index": ("op_index", 5),
    "mvs_reshape": ("op_reshape", 5),
    "mvs_transpose": ("op_transpose", 1),
    "mvs_permute": ("op_permute", 2),
    "mvs_swap_axes": ("op_swap_axes", 1.5),
    "mvs_move_axes": ("op_move_axes", 2),
    "mvs_broadcast_to": ("op_broadcast_to", 2.5),
    "mvs_expand_dims": ("op_expand_dims", 1.5),
    "mvs_squeeze_axis": ("op_squeeze_axis", 1.5),
    "mvs_squeeze": ("op_squeeze", 1),
    "mvs_diagonal": ("op_diagonal", 2.5),
    "mvs_flip_axis": ("op_flip_axis", 1.5),
    "mvs_flip": ("op_flip", 1),
    "mvs_sliding_window": ("op_sliding_window", 2.5),
    "mvs_split_sections": ("op_split_sections", 2.5),
    "mvs_split_at": ("op_split_at", 2),
    "mvs_subview": ("op_subview", 2.5),
    "mvs_view_as": ("op_view_as", 2.5),
    "mvs_is_contiguous": ("op_is_contiguous", 2),
    "mvs_item_count": ("op_item_count", 1),
    "mvs_byte_count": ("op_byte_count", 1),
    "mvs_byte_extent": ("op_byte_extent", 1.5),
    "mvs_element_ptr": ("op_element_ptr", 2),
}

PRECEDENCE_NOTES = """\
notes: inputs not generated (error precedence NumPy cannot decide, or documented departures):
  - mvs_expand_dims at ndim 8 with a bad axis: the header makes MVS_ERR_NDIM unconditional at
    ndim 8; NumPy would report the axis first.
  - mvs_sliding_window at ndim 8 with a bad window or step: the library checks its limit first.
  - mvs_sliding_window with a negative window and a bad axis: NumPy checks the window first
    (ValueError), the library the axis (MVS_ERR_AXIS).
  - mvs_move_axes with count > ndim: NumPy reports a repeated axis (AXIS), the library documents
    MVS_ERR_VALUE for a count out of range.
  - mvs_sliding_window with a negative step: NumPy's [..., ::step] accepts it; the library
    follows torch.Tensor.unfold (step must be positive, MVS_ERR_STEP)."""


SWEEP_VIEW_AS = "mvs_view_as (every pair 1..16)"
OP_NAMES = list(OPS)
OP_WEIGHTS = [OPS[k][1] for k in OP_NAMES]


@functools.lru_cache(maxsize=None)
def case_numbers(seed, cases):
    """{operation: the numbers of its cases} among `cases` cases of `seed`: each case draws its
    operation first from its own generator state, as main() does."""
    rng, numbers = random.Random(), {k: [] for k in OPS}
    for i in range(cases):
        rng.seed(seed * 1_000_003 + i)
        numbers[rng.choices(OP_NAMES, weights=OP_WEIGHTS)[0]].append(i)
    return numbers


def run_op(lib, name, seed=DEFAULT_SEED, cases=DEFAULT_CASES):
    """The cases of one operation of OPS among the `cases` cases of `seed` drawn over every
    operation (the very cases that main() runs for it without --only: each case has its own
    generator state), or with name SWEEP_VIEW_AS the item-size sweep of mvs_view_as. Returns
    the runner (its stats and mismatches) and the oracle errors (bugs in this test). Used by
    tests/test_numpy_oracle.py, one pytest test per operation."""
    rng = random.Random(seed)
    runner = Runner(lib, rng)
    oracle_bugs = []
    if name == SWEEP_VIEW_AS:
        rng.seed(seed * 1_000_003 - 1)
        random.seed(seed * 1_000_003 - 2)
        try:
            runner.sweep_view_as()
        except OracleBug as e:
            oracle_bugs.append(f"{runner.case_no} op=mvs_view_as: {e}")
        return runner, oracle_bugs
    for i in case_numbers(seed, cases)[name]:
        rng.seed(seed * 1_000_003 + i)
        random.seed(seed * 1_000_003 + i + 1)
        rng.choices(OP_NAMES, weights=OP_WEIGHTS)  # the draw that chose this operation
        runner.case_no = i
        try:
            getattr(runner, OPS[name][0])()
        except OracleBug as e:
            oracle_bugs.append(f"case #{i} op={name}: {e}")
    return runner, oracle_bugs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library", help="path to libmemviewslice.so")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--cases", type=int, default=DEFAULT_CASES)
    ap.add_argument("--only", action="append", help="run only this operation (repeatable)")
    ap.add_argument("--case", type=int, help="run only case number CASE of this seed (to reproduce it)")
    ns = ap.parse_args()

    if tuple(int(x) for x in np.__version__.split(".")[:2]) < (2, 1):
        sys.exit(f"NumPy >= 2.1 is needed (reshape's copy=False); found {np.__version__}")
    lib = load_library(ns.library)
    print(f"numpy_oracle: seed={ns.seed} cases={ns.cases} numpy={np.__version__} library={ns.library}")

    rng = random.Random(ns.seed)
    runner = Runner(lib, rng)
    ops = {k: v for k, v in OPS.items() if not ns.only or k in ns.only}
    if not ops:
        sys.exit(f"no operation matches {ns.only}; known: {', '.join(OPS)}")
    names = list(ops)
    weights = [ops[k][1] for k in names]
    t0 = time.perf_counter()
    oracle_bugs = []
    first_mismatch = None
    for i in ([ns.case] if ns.case is not None else range(ns.cases)):
        # Each case has its own generator state, so that one case reproduces alone (--case).
        rng.seed(ns.seed * 1_000_003 + i)
        random.seed(ns.seed * 1_000_003 + i + 1)  # NULL-or-empty choices for empty arrays
        runner.case_no = i
        before = len(runner.mismatches)
        name = rng.choices(names, weights=weights)[0]
        try:
            getattr(runner, ops[name][0])()
        except OracleBug as e:
            oracle_bugs.append(f"case #{i} op={name}: {e}")
        if first_mismatch is None and len(runner.mismatches) > before:
            first_mismatch = i
    if ns.case is None and "mvs_view_as" in ops:
        # Every pair of item sizes, whatever the random cases drew (deterministic).
        rng.seed(ns.seed * 1_000_003 - 1)
        random.seed(ns.seed * 1_000_003 - 2)
        try:
            runner.sweep_view_as()
        except OracleBug as e:
            oracle_bugs.append(f"{runner.case_no} op=mvs_view_as: {e}")
    elapsed = time.perf_counter() - t0

    total = {"cases": 0, "errors": 0, "mismatches": 0}
    print(f"\n{'operation':<28}{'cases':>8}{'errors':>9}{'mismatches':>12}  expected errors by kind")
    for op in sorted(runner.stats):
        st = runner.stats[op]
        for k in total:
            total[k] += st[k]
        kinds = " ".join(f"{k}:{v}" for k, v in sorted(st["codes"].items()))
        print(f"{op:<28}{st['cases']:>8}{st['errors']:>9}{st['mismatches']:>12}  {kinds}")
    print(f"{'total':<28}{total['cases']:>8}{total['errors']:>9}{total['mismatches']:>12}")
    print(f"\n{total['cases']} cases in {elapsed:.1f} s (seed {ns.seed}); 'errors' counts cases expected to fail")
    print(PRECEDENCE_NOTES)

    failed = False
    if oracle_bugs:
        failed = True
        print(f"\n{len(oracle_bugs)} oracle errors (bugs in this test):")
        for b in oracle_bugs[:SHOW_MISMATCHES]:
            print("  " + b)
    if runner.mismatches:
        failed = True
        print(f"\nFAILED: {total['mismatches']} mismatches; the first {min(SHOW_MISMATCHES, len(runner.mismatches))}:")
        for m in runner.mismatches[:SHOW_MISMATCHES]:
            print(m)
        only = "".join(f" --only {o}" for o in ns.only or [])
        print(f"reproduce one: {sys.executable} {sys.argv[0]} {ns.library} --seed {ns.seed}{only} --case {first_mismatch}")
    if failed:
        return 1
    print("\nOK: the library agrees with NumPy on every case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
