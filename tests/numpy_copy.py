#!/usr/bin/env python3
"""Differential test of libmemviewslice's data movement (mvs_copy, mvs_fill,
mvs_copy_contiguous), with NumPy as the oracle.

    python -m pytest tests/test_numpy_copy.py [-n 2] [-k fill] [--mvs-lib PATH] [--seed N] [--cases N]

runs one pytest test per function's random cases (test_random[copy|fill|contiguous]) and per
named test (test_named[<name>]); the script itself still runs everything at once, and
reproduces one case alone:

    python tests/numpy_copy.py target/release/libmemviewslice.so [--seed N] [--cases N]
                               [--only copy|fill|contiguous] [--case I]

Every random case makes a base buffer of random bytes (a NumPy uint8 array) and views of it
as the item type (itemsizes 1 to 16: unsigned integers, void dtypes 'V<k>', structured dtypes
of 3 and 12 bytes, complex128), built the way NumPy users build them: a parent array over the
base (C or F order, items packed or with gaps), sliced with steps of either sign, integer
indexed, its axes permuted, then axes broadcast (stride 0, with np.broadcast_to or as_strided
on the same base) or given arbitrary strides where the extent is 1; for sources, also fully
arbitrary strides (zero, negative, not multiples of the itemsize, overlapping themselves).
ndim 0 to 5, zero-size and 0-d views included. Source and destination of mvs_copy are views
of the SAME base most of the time, so they overlap in every way; a share of the cases copies
between two different bases.

Oracles (each run on a copy of the base bytes, with the same views rebuilt on it):
- mvs_copy(src, dst):        np.copyto(dst, src.copy())   (the copy first: NumPy's in-place
                             assignment of overlapping views is not "as if through a
                             temporary", see the named test issue_19_strided_from_prefix)
- mvs_fill(dst, item):       dst[...] = item              (item read before any write; the
                             item pointer is sometimes an item of dst itself)
- mvs_copy_contiguous(src):  np.array(src, order=...)     (bytes, shape and strides of the
                             new view; memview == the buffer, data aligned to 64,
                             mvs_buffer_size == nbytes, reference count 1)
The comparison is of the ENTIRE base buffer(s), byte for byte, after the call: every byte
outside the destination must be unchanged. For mvs_copy_contiguous the strides of length-1
axes are not compared, and a zero-size result is compared by shape only.

Expected errors: MVS_ERR_BROADCAST where the shapes do not broadcast (the expected status is
what NumPy's np.copyto does, cross-checked against /tmp/contract.md's rule, Cython's
`dst[...] = src`: shapes aligned from the end, missing leading axes of either count as 1, a
source extent of 1 repeats; NumPy's copyto strips leading unit axes of a source with more
dimensions than the destination, which is the same rule; a disagreement is reported as an
oracle error); MVS_ERR_VALUE for a destination of mvs_copy with items and a stride-0 axis of
extent > 1 (NumPy accepts those, the contract refuses them: the contract is followed; a
zero-size destination copies nothing and is accepted); MVS_ERR_VALUE for
an unknown order. On every error the base buffers must be unchanged, outputs untouched, and
mvs_last_error() non-empty. Argument errors (NULL, ndim, itemsize, negative extent, indirect
axes, overflow) are covered by named tests.

Named tests (always run, reported by name) cover the issue's case and other overlapping
in-place copies with known results.
"""

import argparse
import ctypes as C
import functools
import math
import os
import random
import sys
import time

import numpy as np
from numpy.lib.stride_tricks import as_strided

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# numpy_oracle.py is importable without side effects (its main() runs only as a script): the
# mvs_slice struct, the status codes and the library loader are shared.
from numpy_oracle import (  # noqa: E402
    ERR_BROADCAST, ERR_INDIRECT, ERR_ITEMSIZE, ERR_NDIM, ERR_NULL, ERR_OVERFLOW, ERR_SHAPE,
    ERR_VALUE, MAX_DIMS, OK, STATUS, Slice, addr, load_library, small_shape,
)

DEFAULT_SEED = 20250619
DEFAULT_CASES = 50000
SHOW_MISMATCHES = 6
OPS = {"copy": 6, "fill": 2, "contiguous": 2}  # weights of the random cases
LARGE_SHARE = 0.05  # share of views with large extents (tiles, long runs)
ALIGN = 64
STATUS.setdefault(16, "MVS_ERR_ALLOC")

ssize = C.c_ssize_t
P = C.POINTER
S = P(Slice)


def load(path):
    lib = load_library(path)
    protos = {
        "mvs_copy": ([S, C.c_int, S, C.c_int, ssize], C.c_int),
        "mvs_fill": ([S, C.c_int, ssize, C.c_void_p], C.c_int),
        "mvs_copy_contiguous": ([S, C.c_int, ssize, C.c_int, P(C.c_void_p), S], C.c_int),
        "mvs_buffer_size": ([C.c_void_p, P(ssize)], C.c_int),
        "mvs_buffer_data": ([C.c_void_p, P(C.c_void_p)], C.c_int),
        "mvs_buffer_refcount": ([C.c_void_p, P(ssize)], C.c_int),
        "mvs_buffer_release": ([C.c_void_p], None),
    }
    for name, (argtypes, restype) in protos.items():
        f = getattr(lib, name)
        f.argtypes, f.restype = argtypes, restype
    return lib


def sname(st):
    return STATUS.get(st, str(st))


# --- item types -------------------------------------------------------------------------------

STRUCT3 = np.dtype([("a", "u1"), ("b", "<u2")])  # packed, 3 bytes
STRUCT12 = np.dtype([("a", "<u4"), ("b", "<u8")])  # packed, 12 bytes
assert STRUCT3.itemsize == 3 and STRUCT12.itemsize == 12
ITEMSIZES = list(range(1, 17)) + [24, 33]
ITEMSIZE_WEIGHTS = [4 if k in (1, 2, 3, 4, 8, 12, 16) else 1 for k in ITEMSIZES[:16]] + [0.5, 0.5]


def item_dtype(r, k):
    x = r.random()
    if k in (1, 2, 4, 8) and x < 0.75:
        return np.dtype(f"<u{k}")
    if k == 16 and x < 0.4:
        return np.dtype(np.complex128)
    if k == 12 and x < 0.5:
        return STRUCT12
    if k == 3 and x < 0.5:
        return STRUCT3
    return np.dtype(f"V{k}")


# --- views of a base --------------------------------------------------------------------------


class Plan:
    """How to build one view of a base buffer, so that the same view can be built on the
    library's base and on the oracle's copy of it. Made by `plan_view`; `place` fixes where
    it lies in a base of `length` bytes; `build(base)` makes the NumPy view."""

    def __init__(self, dtype, shape):
        self.dtype, self.shape = dtype, tuple(shape)
        self.mode = None
        self.span = 0      # bytes of the base the view needs (from its parent's start)
        self.offset = None
        self.how = ""

    def place(self, r, length, aligned):
        room = length - self.span
        assert room >= 0
        off = r.randint(0, room)
        if aligned:
            off -= off % self.dtype.itemsize
        self.offset = off + self.lead

    def build(self, base):
        return self._build(base, self.offset)


def random_shape(r, nd):
    if nd and r.random() < LARGE_SHARE:
        return large_shape(r, nd)
    return small_shape(r, nd, 5 if nd <= 2 else 3, 72)


def large_shape(r, nd):
    """Extents past the kernels' tile side (32 items) and short-run limit (64 bytes)."""
    nd = min(nd, 3)
    shape = [r.randint(1, 80) for _ in range(nd)]
    while math.prod(shape) > 4000:
        i = max(range(nd), key=lambda j: shape[j])
        shape[i] = max(1, shape[i] // 2)
    return shape


def random_ndim(r, lo=0, hi=5):
    weights = [3, 8, 8, 6, 4, 3][lo:hi + 1]
    return r.choices(range(lo, hi + 1), weights=weights)[0]


def junk_stride(r, k):
    return r.choice([0, 0, k, -k, k * r.randint(-50, 50), r.randint(-(10**6), 10**6), 2**40])


def plan_view(r, shape, dtype, bcast=(), writable=True, strided_ok=False, mode=None):
    """A plan for a view of `shape` items of `dtype`; axes in `bcast` (extent > 1) get stride 0.
    `writable`: stride-0 axes made with as_strided (writable), never np.broadcast_to.
    `strided_ok`: fully arbitrary strides allowed (the view may overlap itself)."""
    k = dtype.itemsize
    nd = len(shape)
    bcast = set(bcast)
    p = Plan(dtype, shape)
    if mode is None:
        modes, weights = ["contig", "sliced"], [3, 6]
        if strided_ok:
            modes, weights = modes + ["strided"], weights + [2]
        mode = r.choices(modes, weights)[0]
    p.mode = mode

    if mode == "strided":
        strides = []
        for i in range(nd):
            x = r.random()
            if i in bcast or x < 0.12:
                strides.append(0)
            elif x < 0.85:
                strides.append(k * r.randint(-4, 4))
            else:
                strides.append(r.randint(-3 * k, 3 * k))
        if 0 in shape:
            lo, hi = 0, k
        else:
            lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
            hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides)) + k
        p.span, p.lead = hi - lo, -lo
        p.how = f"strided strides={tuple(strides)}"

        def build(base, off, shape=tuple(shape), strides=tuple(strides)):
            return as_strided(np.ndarray((), dtype, buffer=base, offset=off), shape, strides)

        p._build = build
        return p

    real = [1 if i in bcast else shape[i] for i in range(nd)]
    perm = list(range(nd))
    if mode == "sliced":
        r.shuffle(perm)  # parent axis j is view axis perm[j]
    order = r.choice("CF")
    steps, pext = {}, {}
    for i in range(nd):
        e = real[i]
        if mode == "contig":
            s, n = 1, e
        else:
            s = r.choice([1, 1, 2, 3, -1, -1, -2, -3])
            n = (abs(s) * (e - 1) + 1 + r.choice([0, 0, 1, 2])) if e > 0 else r.randint(0, 3)
        steps[i], pext[i] = s, n
    pshape = [pext[perm[j]] for j in range(nd)]
    index = []
    for j in range(nd):
        i = perm[j]
        e, s, n = real[i], steps[i], pext[i]
        if e == 0:
            a = r.randint(0, n)
            index.append(slice(a, a, s))
        elif s > 0:
            span = s * (e - 1) + 1
            a = r.randint(0, n - span)
            index.append(slice(a, a + span, s))
        else:
            span = -s * (e - 1) + 1
            a = r.randint(span - 1, n - 1)
            index.append(slice(a, a - span if a - span >= 0 else None, s))
    if mode == "sliced" and r.random() < 0.25:
        # an extra parent axis, indexed away by an integer (gaps between the view's items)
        q = r.randint(1, 3)
        j = r.randint(0, nd)
        ix = r.randrange(q)
        pshape.insert(j, q)
        index.insert(j, ix - q if r.random() < 0.3 else ix)
    pitch = k if mode == "contig" or r.random() < 0.75 else k + r.randint(1, 3)
    pstrides = [0] * len(pshape)
    cur = pitch
    inner_to_outer = range(len(pshape) - 1, -1, -1) if order == "C" else range(len(pshape))
    for j in inner_to_outer:
        pstrides[j] = cur
        gap = 0 if mode == "contig" or r.random() < 0.7 else k * r.randint(1, 2)
        cur = cur * max(pshape[j], 1) + gap
    p.span = sum(max(n - 1, 0) * st for n, st in zip(pshape, pstrides)) + k
    p.lead = 0
    inverse = [perm.index(i) for i in range(nd)]

    final = None  # strides to impose with as_strided (broadcast axes, junk on extent-1 axes)
    use_broadcast_to = False
    if bcast or nd:
        junk = {i for i in range(nd) if shape[i] == 1 and r.random() < 0.3}
        if bcast or junk:
            final = {i: 0 for i in bcast}
            for i in junk:
                final[i] = junk_stride(r, k)
            use_broadcast_to = bool(bcast) and not junk and not writable and r.random() < 0.5
    p.how = (f"{mode} order={order} parent={tuple(pshape)} pstrides={tuple(pstrides)} "
             f"index={tuple(index)} axes={tuple(inverse)}"
             + (f" broadcast_to{tuple(shape)}" if use_broadcast_to else "")
             + (f" as_strided {final}" if final and not use_broadcast_to else ""))

    def build(base, off, index=tuple(index) + (Ellipsis,), shape=tuple(shape)):
        v = np.ndarray(tuple(pshape), dtype, buffer=base, offset=off, strides=tuple(pstrides))
        v = v[index].transpose(inverse)
        if final is not None:
            if use_broadcast_to:
                v = np.broadcast_to(v, shape)
            else:
                st = list(v.strides)
                for i, s in final.items():
                    st[i] = s
                v = as_strided(v, shape, st)
        assert v.shape == shape, (v.shape, shape, p.how)
        return v

    p._build = build
    return p


def random_bytes(r, n):
    return np.frombuffer(bytearray(r.randbytes(n)), np.uint8)


def new_base(r, plans, aligned):
    need = max([pl.span for pl in plans] + [1])
    base = random_bytes(r, need + r.choice([0, 0, 1, 3, 8, 2 * need]))
    for pl in plans:
        pl.place(r, len(base), aligned)
    return base


def byte_range(v):
    """[lo, hi) of the bytes a view touches (None when it has no item)."""
    if v.size == 0:
        return None
    d = addr(v)
    lo = d + sum(min(0, (n - 1) * s) for n, s in zip(v.shape, v.strides))
    hi = d + sum(max(0, (n - 1) * s) for n, s in zip(v.shape, v.strides)) + v.itemsize
    return lo, hi


def overlaps(a, b):
    ra, rb = byte_range(a), byte_range(b)
    return ra is not None and rb is not None and ra[0] < rb[1] and rb[0] < ra[1]


def to_slice(r, v, token=0):
    s = Slice()
    s.memview = token or None
    s.data = addr(v)
    junk = r is not None and r.random() < 0.5
    for i in range(MAX_DIMS):
        if i < v.ndim:
            s.shape[i], s.strides[i], s.suboffsets[i] = v.shape[i], v.strides[i], -1
        elif junk:  # entries past ndim are not part of the view
            s.shape[i], s.strides[i], s.suboffsets[i] = -7, 12345, 3
        else:
            s.shape[i], s.strides[i], s.suboffsets[i] = 0, 0, -1
    return s


def describe(v, base, name):
    return (f"{name}: dtype={v.dtype} shape={v.shape} strides={v.strides} "
            f"offset={addr(v) - addr(base)} (base of {len(base)} bytes)")


def diff_bytes(got, exp, limit=6):
    g, e = np.frombuffer(got, np.uint8), np.frombuffer(exp, np.uint8)
    where = np.flatnonzero(g != e)
    shown = ", ".join(f"[{i}] {g[i]:#04x} != {e[i]:#04x}" for i in where[:limit])
    return f"{len(where)} bytes differ: {shown}" + (" ..." if len(where) > limit else "")


def contract_broadcasts(src_shape, dst_shape):
    """/tmp/contract.md's rule (Cython's dst[...] = src)."""
    n = max(len(src_shape), len(dst_shape))
    s = [1] * (n - len(src_shape)) + list(src_shape)
    d = [1] * (n - len(dst_shape)) + list(dst_shape)
    return all(a == b or a == 1 for a, b in zip(s, d))


def last_error_problems(lib):
    msg = lib.mvs_last_error()
    if not msg or msg == b"no error":
        return [f"mvs_last_error() is {msg!r} after a failure"]
    return []


class OracleBug(Exception):
    """The test itself is wrong (NumPy did something the generator did not foresee)."""


# --- the runner --------------------------------------------------------------------------------


class Runner:
    def __init__(self, lib):
        self.lib = lib
        self.stats = {op: {"cases": 0, "errors": 0, "mismatches": 0, "tags": {}} for op in OPS}
        self.mismatches = []
        self.case_no = None
        self.first_mismatch = None

    def record(self, op, tags, expected_error, problems, details):
        st = self.stats[op]
        st["cases"] += 1
        if expected_error:
            st["errors"] += 1
        for t in tags:
            st["tags"][t] = st["tags"].get(t, 0) + 1
        if problems:
            st["mismatches"] += 1
            if self.first_mismatch is None:
                self.first_mismatch = self.case_no
            if len(self.mismatches) < 100:
                self.mismatches.append(
                    f"case #{self.case_no} {op} [{' '.join(tags)}]\n"
                    + "".join(f"  {d}\n" for d in details)
                    + "".join(f"  problem: {p}\n" for p in problems))

    # mvs_copy ------------------------------------------------------------------------------

    def case_copy(self, r):
        k = r.choices(ITEMSIZES, ITEMSIZE_WEIGHTS)[0]
        dtype = item_dtype(r, k)
        tags = []
        dshape = random_shape(r, random_ndim(r))
        nd = len(dshape)

        # the source's shape: the destination's, with leading axes dropped, extents of 1
        # (real length-1 axes or stride-0 broadcast axes), extra leading 1s
        drop = r.choices(range(nd + 1), [6] + [2] * nd)[0] if nd else 0
        sshape = list(dshape[drop:])
        sb = set()
        for i in range(len(sshape)):
            if sshape[i] != 1 and r.random() < 0.2:
                if r.random() < 0.5:
                    sshape[i] = 1
                else:
                    sb.add(i)
        if r.random() < 0.08 and len(sshape) < 6:
            m = r.randint(1, 2)
            sshape = [1] * m + sshape
            sb = {i + m for i in sb}
        if drop:
            tags.append("src-fewer-dims")
        if sb or 1 in sshape:
            tags.append("src-broadcast" if sb else "src-len1")
        bad_kind = None
        x = r.random()
        if x < 0.08:
            bad_kind = "broadcast"
            # a shape that does not broadcast (or, rarely, still does: NumPy decides)
            if sshape and r.random() < 0.8:
                i = r.randrange(len(sshape))
                sb.discard(i)
                sshape[i] = r.choice([v for v in (0, 2, 3, 4, 5) if v != sshape[i]])
            else:
                sshape = [r.choice([0, 2, 3])] + sshape
                sb = {i + 1 for i in sb}
        dzero = set()
        if x >= 0.08 and x < 0.14:
            # (also when dst is zero-size: the contract's rule has no exception for it)
            cand = [i for i in range(nd) if dshape[i] > 1]
            if cand:
                bad_kind = "dst-stride0"
                dzero = set(r.sample(cand, r.randint(1, len(cand))))

        two_bases = r.random() < 0.2
        same_view = not two_bases and bad_kind is None and r.random() < 0.04
        dplan = plan_view(r, dshape, dtype, bcast=dzero, writable=True)
        if same_view:
            splan = dplan
            sshape = dshape
            tags.append("same-view")
        else:
            splan = plan_view(r, sshape, dtype, bcast=sb, writable=False, strided_ok=True)
        aligned = r.random() < 0.5
        if two_bases:
            base = new_base(r, [dplan], aligned)
            sbase = new_base(r, [splan], aligned)
            tags.append("two-bases")
        else:
            base = new_base(r, [dplan] if same_view else [dplan, splan], aligned)
            sbase = base

        dst = dplan.build(base)
        src = splan.build(sbase)
        overlap = not two_bases and overlaps(src, dst)
        if not two_bases:
            tags.append("overlap" if overlap else "disjoint")
        if dst.size == 0:
            tags.append("zero-size")
        if dst.ndim == 0:
            tags.append("0-d")
        if max(dst.size, src.size) > 200:
            tags.append("large")
        if overlap and bad_kind is None and 0 < dst.size <= 72:
            # does the result depend on the order of the writes? (a plain item-by-item copy
            # in C order, without a temporary, on yet another copy of the base)
            nbase = base.copy()
            ndst, nsrc = dplan.build(nbase), splan.build(nbase)
            nsrc = np.broadcast_to(nsrc.reshape(nsrc.shape[max(0, nsrc.ndim - ndst.ndim):]), ndst.shape) \
                if nsrc.ndim >= ndst.ndim else np.broadcast_to(nsrc, ndst.shape)
            for idx in np.ndindex(ndst.shape):
                ndst[idx] = nsrc[idx]
            naive = nbase.tobytes()
        else:
            naive = None

        # the oracle, on copies of the bases
        obase = base.copy()
        osbase = obase if not two_bases else sbase.copy()
        odst, osrc = dplan.build(obase), splan.build(osbase)
        numpy_ok = True
        try:
            tmp = osrc.copy()
            if bad_kind != "dst-stride0":
                np.copyto(odst, tmp)
        except ValueError as e:
            numpy_ok = False
            numpy_msg = str(e)
        rule_ok = contract_broadcasts(sshape, dshape)
        if numpy_ok != rule_ok:
            raise OracleBug(f"np.copyto {'accepts' if numpy_ok else 'refuses'} src {tuple(sshape)} "
                            f"into dst {tuple(dshape)}, the contract's rule says the opposite")
        if naive is not None and numpy_ok and naive != obase.tobytes():
            tags.append("order-sensitive")
        if not rule_ok:
            expected = ERR_BROADCAST
            tags.append("BROADCAST")
        elif bad_kind == "dst-stride0" and math.prod(dshape) > 0:
            expected = ERR_VALUE
            tags.append("VALUE")
        else:
            expected = OK
        if bad_kind == "dst-stride0" and not rule_ok:
            raise OracleBug("a stride-0 destination with a shape mismatch was generated")

        before = base.tobytes()
        sbefore = sbase.tobytes()
        ss, ds = to_slice(r, src, 0x5EC0), to_slice(r, dst, 0xD570)
        st = self.lib.mvs_copy(C.byref(ss), src.ndim, C.byref(ds), dst.ndim, k)
        after = base.tobytes()

        problems = []
        if st != expected:
            problems.append(f"status {sname(st)} != expected {sname(expected)}")
        if expected == OK:
            want = obase.tobytes()
            if after != want:
                problems.append("base after mvs_copy != np.copyto(dst, src.copy()): " + diff_bytes(after, want))
        else:
            if after != before:
                problems.append("a failing call changed the base: " + diff_bytes(after, before))
            if st != OK:
                problems += last_error_problems(self.lib)
        if two_bases and sbase.tobytes() != sbefore:
            problems.append("the source's base changed: " + diff_bytes(sbase.tobytes(), sbefore))
        details = [
            f"itemsize={k} dtype={dtype}",
            describe(dst, base, "dst") + f"  [{dplan.how}]",
            describe(src, sbase, "src") + f"  [{splan.how}]" + (" (other base)" if two_bases else ""),
            f"expected {sname(expected)}, got {sname(st)}"
            + (f" last_error={self.lib.mvs_last_error().decode(errors='replace')!r}" if st else ""),
        ]
        if not numpy_ok:
            details.append(f"NumPy: {numpy_msg}")
        self.record("copy", tags, expected != OK, problems, details)

    # mvs_fill ------------------------------------------------------------------------------

    def case_fill(self, r):
        k = r.choices(ITEMSIZES, ITEMSIZE_WEIGHTS)[0]
        dtype = item_dtype(r, k)
        tags = []
        dshape = random_shape(r, random_ndim(r))
        cand = [i for i in range(len(dshape)) if dshape[i] > 1]
        bcast = set()
        if cand and r.random() < 0.2:
            bcast = set(r.sample(cand, r.randint(1, len(cand))))
            tags.append("dst-stride0")
        plan = plan_view(r, dshape, dtype, bcast=bcast, writable=True)
        base = new_base(r, [plan], r.random() < 0.5)
        dst = plan.build(base)
        before = base.tobytes()
        if dst.size == 0:
            tags.append("zero-size")
        if dst.ndim == 0:
            tags.append("0-d")

        x = r.random()
        keep = None
        if x < 0.4 and dst.size:
            idx = [r.randrange(n) for n in dst.shape]
            off = addr(dst) - addr(base) + sum(i * s for i, s in zip(idx, dst.strides))
            item_ptr = addr(base) + off
            item = before[off:off + k]
            tags.append("item-in-dst")
        elif x < 0.55 and len(base) >= k:
            off = r.randint(0, len(base) - k)
            item_ptr = addr(base) + off
            item = before[off:off + k]
            tags.append("item-in-base")
        else:
            if r.random() < 0.25:
                item = bytes([r.choice([0, 0xFF, r.randrange(256)])]) * k
                tags.append("item-uniform")
            else:
                item = r.randbytes(k)
            keep = C.create_string_buffer(item, k)
            item_ptr = C.addressof(keep)

        obase = base.copy()
        odst = plan.build(obase)
        odst[...] = np.frombuffer(item, dtype).reshape(())
        want = obase.tobytes()

        ds = to_slice(r, dst, 0xD570)
        st = self.lib.mvs_fill(C.byref(ds), dst.ndim, k, item_ptr)
        after = base.tobytes()
        problems = []
        if st != OK:
            problems.append(f"status {sname(st)} != MVS_OK")
        if after != want:
            problems.append("base after mvs_fill != dst[...] = item: " + diff_bytes(after, want))
        details = [
            f"itemsize={k} dtype={dtype} item={item.hex()}",
            describe(dst, base, "dst") + f"  [{plan.how}]",
            f"got {sname(st)}" + (f" last_error={self.lib.mvs_last_error().decode(errors='replace')!r}" if st else ""),
        ]
        self.record("fill", tags, False, problems, details)

    # mvs_copy_contiguous -----------------------------------------------------------------

    def case_contiguous(self, r):
        k = r.choices(ITEMSIZES, ITEMSIZE_WEIGHTS)[0]
        dtype = item_dtype(r, k)
        tags = []
        shape = random_shape(r, random_ndim(r))
        cand = [i for i in range(len(shape)) if shape[i] > 1]
        bcast = set(r.sample(cand, r.randint(1, len(cand)))) if cand and r.random() < 0.15 else set()
        plan = plan_view(r, shape, dtype, bcast=bcast, writable=False, strided_ok=True)
        base = new_base(r, [plan], r.random() < 0.5)
        src = plan.build(base)
        before = base.tobytes()
        x = r.random()
        if x < 0.45:
            order = "C"
        elif x < 0.9:
            order = "F"
        else:
            order = r.choice(["A", "K", "c", "f", "\0", "\x43\x01", "-1"])
        code = {"\x43\x01": 0x143, "-1": -1}.get(order, None)
        code = ord(order) if code is None else code
        tags.append(order if order in "CF" else "bad-order")
        if src.size == 0:
            tags.append("zero-size")
        if src.ndim == 0:
            tags.append("0-d")
        if bcast:
            tags.append("src-broadcast")

        good = order in ("C", "F")
        exp = np.array(src, order=order) if good else None
        ss = to_slice(r, src, 0x5EC0)
        SENT = 0x5A5A5A5A5A5A5A50
        outbuf = C.c_void_p(SENT)
        view = Slice()
        C.memset(C.addressof(view), 0xA5, C.sizeof(view))
        vbefore = bytes(view)
        st = self.lib.mvs_copy_contiguous(C.byref(ss), src.ndim, k, code, C.byref(outbuf), C.byref(view))
        problems = []
        got = sname(st)
        if base.tobytes() != before:
            problems.append("mvs_copy_contiguous changed its source's base: " + diff_bytes(base.tobytes(), before))
        if not good:
            if st != ERR_VALUE:
                problems.append(f"status {sname(st)} != expected MVS_ERR_VALUE (order {code:#x})")
            if st != OK:
                if outbuf.value != SENT:
                    problems.append("a failing call wrote *out_buffer")
                if bytes(view) != vbefore:
                    problems.append("a failing call wrote *out_view")
                problems += last_error_problems(self.lib)
            else:
                self.release(outbuf.value, problems)
        elif st != OK:
            problems.append(f"status {sname(st)} != MVS_OK")
            got += f" last_error={self.lib.mvs_last_error().decode(errors='replace')!r}"
        else:
            problems += self.check_contiguous(outbuf.value, view, exp, order, k)
            got += f" view: data={view.data or 0:#x} shape={list(view.shape)} strides={list(view.strides)}"
        details = [
            f"itemsize={k} dtype={dtype} order={order!r} ({code:#x})",
            describe(src, base, "src") + f"  [{plan.how}]",
            (f"expected: shape={exp.shape} strides={exp.strides} nbytes={exp.nbytes}" if good
             else "expected: MVS_ERR_VALUE"),
            f"got {got}",
        ]
        self.record("contiguous", tags, not good, problems, details)

    def release(self, buf, problems):
        if buf:
            self.lib.mvs_buffer_release(buf)

    def check_contiguous(self, buf, view, exp, order, k):
        lib = self.lib
        problems = []
        nd = exp.ndim
        if not buf:
            return ["MVS_OK with *out_buffer NULL"]
        size, data, refs = ssize(-1), C.c_void_p(), ssize(-1)
        if lib.mvs_buffer_size(buf, C.byref(size)) != OK:
            problems.append("mvs_buffer_size failed")
        if lib.mvs_buffer_data(buf, C.byref(data)) != OK:
            problems.append("mvs_buffer_data failed")
        if lib.mvs_buffer_refcount(buf, C.byref(refs)) != OK:
            problems.append("mvs_buffer_refcount failed")
        if size.value != exp.nbytes:
            problems.append(f"mvs_buffer_size {size.value} != nbytes {exp.nbytes}")
        if refs.value != 1:
            problems.append(f"the new buffer has {refs.value} references, not 1")
        if (view.memview or 0) != buf:
            problems.append(f"view.memview {view.memview or 0:#x} != the buffer {buf:#x}")
        if (view.data or 0) != (data.value or 0):
            problems.append(f"view.data {view.data or 0:#x} != mvs_buffer_data {data.value or 0:#x}")
        if not view.data or view.data % ALIGN:
            problems.append(f"view.data {view.data or 0:#x} is not aligned to {ALIGN}")
        shape = tuple(view.shape[:nd])
        if shape != exp.shape:
            problems.append(f"view shape {shape} != NumPy {exp.shape}")
        elif exp.size:
            for i in range(nd):
                if exp.shape[i] != 1 and view.strides[i] != exp.strides[i]:
                    problems.append(f"view stride[{i}] {view.strides[i]} != NumPy {exp.strides[i]}")
        for i in range(nd):
            if view.suboffsets[i] != -1:
                problems.append(f"view suboffset[{i}] {view.suboffsets[i]} != -1")
        for i in range(nd, MAX_DIMS):
            if (view.shape[i], view.strides[i], view.suboffsets[i]) != (0, 0, -1):
                problems.append(f"view entry {i} past ndim is ({view.shape[i]}, {view.strides[i]}, "
                                f"{view.suboffsets[i]}), not (0, 0, -1)")
        if not problems and exp.nbytes:
            got = C.string_at(view.data, exp.nbytes)
            want = exp.tobytes(order=order)
            if got != want:
                problems.append(f"buffer bytes != np.array(src, order={order!r}): " + diff_bytes(got, want))
        self.release(buf, problems)
        return problems


# --- named tests ----------------------------------------------------------------------------


def f64_base(values, extra=16):
    """A uint8 base holding float64 `values` after `extra` guard bytes, and the float64 view."""
    vals = np.asarray(values, np.float64)
    base = random_bytes(random.Random(len(vals)), vals.nbytes + 2 * extra)
    a = base[extra:extra + vals.nbytes].view(np.float64).reshape(vals.shape)
    a[...] = vals
    return base, a


def run_copy(lib, src, dst, itemsize=None):
    ss, ds = to_slice(None, src), to_slice(None, dst)
    return lib.mvs_copy(C.byref(ss), src.ndim, C.byref(ds), dst.ndim, itemsize or dst.itemsize)


def named_copy(lib, values, make, expected=None):
    """mvs_copy of make(a) = (dst, src) on a float64 base; checks against `expected` (the
    values of a afterwards) and against np.copyto(dst, src.copy()) on the whole base."""
    base, a = f64_base(values)
    obase, oa = f64_base(values)
    obase[...] = base
    odst, osrc = make(oa)
    np.copyto(odst, osrc.copy())
    dst, src = make(a)
    st = run_copy(lib, src, dst)
    problems = []
    if st != OK:
        problems.append(f"status {sname(st)} ({lib.mvs_last_error().decode(errors='replace')})")
    if expected is not None:
        if not np.array_equal(oa, np.asarray(expected)):
            problems.append(f"(test bug) the oracle gives {oa.ravel().tolist()}")
        if not np.array_equal(a, np.asarray(expected)):
            problems.append(f"got {a.ravel().tolist()}, expected {np.asarray(expected).ravel().tolist()}")
    if base.tobytes() != obase.tobytes():
        problems.append("base != oracle: " + diff_bytes(base.tobytes(), obase.tobytes()))
    return problems


def t_issue_19_strided_from_prefix(lib):
    # a = np.arange(8.); a[0::2] = a[0:4]  ->  [0 1 1 3 2 5 3 7]
    probs = named_copy(lib, np.arange(8.0), lambda a: (a[0::2], a[0:4]), [0, 1, 1, 3, 2, 5, 3, 7])
    n = np.arange(8.0)
    n[0::2] = n[0:4]
    note = f"(NumPy {np.__version__}'s own a[0::2] = a[0:4] gives {n.astype(int).tolist()})"
    return probs, note


def t_shift_right(lib):
    return named_copy(lib, np.arange(8.0), lambda a: (a[1:], a[:-1]), [0, 0, 1, 2, 3, 4, 5, 6])


def t_shift_left(lib):
    return named_copy(lib, np.arange(8.0), lambda a: (a[:-1], a[1:]), [1, 2, 3, 4, 5, 6, 7, 7])


def t_shift_right_strided(lib):
    return named_copy(lib, np.arange(9.0), lambda a: (a[2::2], a[:-2:2]), [0, 1, 0, 3, 2, 5, 4, 7, 6])


def t_reverse_in_place(lib):
    return named_copy(lib, np.arange(8.0), lambda a: (a[::-1], a), np.arange(8.0)[::-1])


def t_transpose_in_place(lib):
    v = np.arange(16.0).reshape(4, 4)
    return named_copy(lib, v, lambda a: (a[...], a.T), v.T)


def t_permute_3d_in_place(lib):
    v = np.arange(27.0).reshape(3, 3, 3)
    return named_copy(lib, v, lambda a: (a, a.transpose(1, 2, 0)), v.transpose(1, 2, 0))


def t_row_broadcast_from_self(lib):
    v = np.arange(12.0).reshape(3, 4)
    return named_copy(lib, v, lambda a: (a, a[1]), np.broadcast_to(v[1], (3, 4)))


def t_identical_view(lib):
    v = np.arange(6.0)
    return named_copy(lib, v, lambda a: (a[::-1], a[::-1]), v)


def t_zero_size_and_0d(lib):
    probs = []
    probs += named_copy(lib, np.arange(6.0), lambda a: (a[3:3], a[:0]), np.arange(6.0))
    probs += named_copy(lib, np.arange(6.0), lambda a: (a.reshape(2, 3)[:0], a[:3]), np.arange(6.0))
    probs += named_copy(lib, np.arange(6.0), lambda a: (a[0, ...], a[5, ...]), [5, 1, 2, 3, 4, 5])
    probs += named_copy(lib, np.arange(6.0), lambda a: (a[1:5], a[0, ...]), [0, 0, 0, 0, 0, 5])
    probs += named_copy(lib, np.arange(6.0), lambda a: (a[2, ...], a[4:5].reshape(1, 1)), [0, 1, 4, 3, 4, 5])
    # zero-size: the broadcast rules still apply
    base, a = f64_base(np.arange(6.0))
    before = base.tobytes()
    for dst, src, what in [(a[:0], a[:2], "(2,) into (0,)"), (a[:1], a[:0], "(0,) into (1,)"),
                           (a.reshape(2, 3)[:, :0], a[:2], "(2,) into (2, 0)")]:
        st = run_copy(lib, src, dst)
        if st != ERR_BROADCAST:
            probs.append(f"{what}: status {sname(st)} != MVS_ERR_BROADCAST")
        elif base.tobytes() != before:
            probs.append(f"{what}: a failing call changed the base")
    return probs


def t_fill_from_own_item(lib):
    probs = []
    for itemsize, make in [(8, lambda b: b[16:80].view(np.uint64)), (3, lambda b: b[5:50].view("V3")),
                           (12, lambda b: b[4:100].view("V12").reshape(2, 4)[:, ::-1])]:
        base = random_bytes(random.Random(itemsize), 128)
        obase = base.copy()
        dst, odst = make(base), make(obase)
        pos = tuple(n // 2 for n in dst.shape)
        item = odst[pos].tobytes()
        odst[...] = np.frombuffer(item, dst.dtype).reshape(())
        ptr = addr(dst) + sum(i * s for i, s in zip(pos, dst.strides))
        ds = to_slice(None, dst)
        st = lib.mvs_fill(C.byref(ds), dst.ndim, itemsize, ptr)
        if st != OK:
            probs.append(f"itemsize {itemsize}: status {sname(st)}")
        if base.tobytes() != obase.tobytes():
            probs.append(f"itemsize {itemsize}: " + diff_bytes(base.tobytes(), obase.tobytes()))
    return probs


def t_fill_stride0_and_0d(lib):
    probs = []
    base = random_bytes(random.Random(7), 64)
    obase = base.copy()
    mk = [lambda b: as_strided(b[8:16].view(np.uint32), (5, 2), (0, 4)),
          lambda b: b[20:24].view(np.uint32)[0, ...],
          lambda b: b[30:30].view("V5").reshape(0, 3)]
    for i, make in enumerate(mk):
        dst, odst = make(base), make(obase)
        item = bytes([0x11 * (i + 1)] * dst.itemsize)
        odst[...] = np.frombuffer(item, dst.dtype).reshape(())
        ds = to_slice(None, dst)
        keep = C.create_string_buffer(item, len(item))
        st = lib.mvs_fill(C.byref(ds), dst.ndim, dst.itemsize, C.addressof(keep))
        if st != OK:
            probs.append(f"view {i}: status {sname(st)}")
    if base.tobytes() != obase.tobytes():
        probs.append(diff_bytes(base.tobytes(), obase.tobytes()))
    return probs


def t_contiguous_transposed(lib):
    probs = []
    runner = Runner(lib)
    v = np.arange(24, dtype=np.uint16).reshape(2, 3, 4)
    for src in (v.transpose(2, 0, 1), v[:, ::-1, ::2], v[1, 2, ...], v[:, :0]):
        for order in "CF":
            exp = np.array(src, order=order)
            ss = to_slice(None, src)
            buf, view = C.c_void_p(), Slice()
            st = lib.mvs_copy_contiguous(C.byref(ss), src.ndim, 2, ord(order), C.byref(buf), C.byref(view))
            if st != OK:
                probs.append(f"{src.shape} {order}: status {sname(st)}")
                continue
            probs += [f"{src.shape} {order}: {p}" for p in runner.check_contiguous(buf.value, view, exp, order, 2)]
    return probs


def t_argument_errors(lib):
    """Argument errors of the three functions: status, nothing written, a message."""
    probs = []
    base = random_bytes(random.Random(3), 64)
    a = base[8:40].view(np.uint32)  # 8 items
    before = base.tobytes()
    item = C.create_string_buffer(b"\x01\x02\x03\x04", 4)

    def sl(v, **kw):
        s = to_slice(None, v)
        for field, (i, x) in kw.items():
            getattr(s, field)[i] = x
        return s

    good = sl(a)
    copy_cases = [
        ("copy NULL src", None, 1, good, 1, 4, ERR_NULL),
        ("copy NULL dst", good, 1, None, 1, 4, ERR_NULL),
        ("copy src ndim 9", good, 9, sl(a), 1, 4, ERR_NDIM),
        ("copy dst ndim -1", sl(a), 1, good, -1, 4, ERR_NDIM),
        ("copy itemsize 0", sl(a), 1, sl(a[::-1]), 1, 0, ERR_ITEMSIZE),
        ("copy itemsize -4", sl(a), 1, sl(a[::-1]), 1, -4, ERR_ITEMSIZE),
        ("copy negative src extent", sl(a, shape=(0, -1)), 1, sl(a), 1, 4, ERR_SHAPE),
        ("copy negative dst extent", sl(a), 1, sl(a, shape=(0, -8)), 1, 4, ERR_SHAPE),
        ("copy indirect src", sl(a, suboffsets=(0, 0)), 1, sl(a[::-1]), 1, 4, ERR_INDIRECT),
        ("copy indirect dst", sl(a[::-1]), 1, sl(a, suboffsets=(0, 4)), 1, 4, ERR_INDIRECT),
        ("copy overflowing src", sl(a, shape=(0, 2**62)), 1, sl(a), 1, 4, ERR_OVERFLOW),
        ("copy overflowing dst", sl(a), 1, sl(a, shape=(0, 2**61), strides=(0, -16)), 1, 4, ERR_OVERFLOW),
        ("copy shape mismatch", sl(a[:3]), 1, sl(a[::-1]), 1, 4, ERR_BROADCAST),
        ("copy src more dims", sl(a.reshape(2, 4)), 2, sl(a[:4]), 1, 4, ERR_BROADCAST),
        ("copy dst stride 0", sl(a[:1]), 1, sl(a, strides=(0, 0)), 1, 4, ERR_VALUE),
    ]
    for name, s, sn, d, dn, k, want in copy_cases:
        st = lib.mvs_copy(C.byref(s) if s is not None else None, sn, C.byref(d) if d is not None else None, dn, k)
        probs += check_error(lib, name, st, want, base, before)
    fill_cases = [
        ("fill NULL dst", None, 1, 4, C.addressof(item), ERR_NULL),
        ("fill NULL item", sl(a), 1, 4, None, ERR_NULL),
        ("fill ndim 9", sl(a), 9, 4, C.addressof(item), ERR_NDIM),
        ("fill itemsize 0", sl(a), 1, 0, C.addressof(item), ERR_ITEMSIZE),
        ("fill negative extent", sl(a, shape=(0, -2)), 1, 4, C.addressof(item), ERR_SHAPE),
        ("fill indirect", sl(a, suboffsets=(0, 0)), 1, 4, C.addressof(item), ERR_INDIRECT),
        ("fill overflowing", sl(a, shape=(0, 2**62)), 1, 4, C.addressof(item), ERR_OVERFLOW),
    ]
    for name, d, n, k, it, want in fill_cases:
        st = lib.mvs_fill(C.byref(d) if d is not None else None, n, k, it)
        probs += check_error(lib, name, st, want, base, before)
    SENT = 0x5A5A5A5A5A5A5A50
    cont_cases = [
        ("contiguous NULL src", None, 1, 4, ord("C"), True, True, ERR_NULL),
        ("contiguous NULL out_buffer", sl(a), 1, 4, ord("C"), False, True, ERR_NULL),
        ("contiguous NULL out_view", sl(a), 1, 4, ord("F"), True, False, ERR_NULL),
        ("contiguous ndim 9", sl(a), 9, 4, ord("C"), True, True, ERR_NDIM),
        ("contiguous itemsize 0", sl(a), 1, 0, ord("C"), True, True, ERR_ITEMSIZE),
        ("contiguous negative extent", sl(a, shape=(0, -1)), 1, 4, ord("C"), True, True, ERR_SHAPE),
        ("contiguous indirect", sl(a, suboffsets=(0, 0)), 1, 4, ord("C"), True, True, ERR_INDIRECT),
        ("contiguous overflowing", sl(a, shape=(0, 2**62)), 1, 4, ord("C"), True, True, ERR_OVERFLOW),
        ("contiguous order 'A'", sl(a), 1, 4, ord("A"), True, True, ERR_VALUE),
    ]
    for name, s, n, k, order, ob, ov, want in cont_cases:
        buf = C.c_void_p(SENT)
        view = Slice()
        C.memset(C.addressof(view), 0xA5, C.sizeof(view))
        vb = bytes(view)
        st = lib.mvs_copy_contiguous(C.byref(s) if s is not None else None, n, k, order,
                                     C.byref(buf) if ob else None, C.byref(view) if ov else None)
        probs += check_error(lib, name, st, want, base, before)
        if st == OK and buf.value and buf.value != SENT:
            lib.mvs_buffer_release(buf.value)
        elif buf.value != SENT or bytes(view) != vb:
            probs.append(f"{name}: a failing call wrote an output")
    return probs


def check_error(lib, name, st, want, base, before):
    probs = []
    if st != want:
        probs.append(f"{name}: status {sname(st)} != {sname(want)}")
    if base.tobytes() != before:
        probs.append(f"{name}: the base changed")
        base[...] = np.frombuffer(before, np.uint8)
    if st != OK:
        probs += [f"{name}: {p}" for p in last_error_problems(lib)]
    return probs


STREAM_BYTES = 12 << 20  # src/copy/mod.rs: transposed copies' tiles stream from this size


def t_large_transposes(lib):
    """dst[...] = src.T (src a C array, so the copy is tiled) for items of 1 to 16 bytes: odd
    sizes (edge tiles, and blocks of AVX2 and SSE2 vectors and items at their edges),
    destinations large enough to stream (12 MiB, rows of whole lines) and not, rows a multiple
    of 512 bytes apart on either side (staged through buffers), both sides at
    every 8-byte offset from a 32-byte boundary and at an odd one (the first tile of each row is
    then narrower, and wide stores aligned or not); the whole base, guard bytes included, equals
    NumPy's np.copyto."""
    probs = []
    r = random.Random(35)
    for itemsize in (1, 2, 4, 8, 16):
        dt = np.dtype((np.void, itemsize))
        # destination rows of whole cache lines over STREAM_BYTES: the blocks' stores stream
        lines = (STREAM_BYTES // 4096 + 3, 4096 // itemsize)
        cases = [(1500, 1447, 0), (1447, 1501, 8), (1450, 1447, 16), (1031, 1029, 24), (67, 131, 8), (70, 45, 3)]
        # rows of either side a multiple of 512 bytes apart: the tiles are staged
        cases += [(517, 1024 // itemsize, 8), (1024 // itemsize, 301, 24), (2048 // itemsize, 1536 // itemsize, 5)]
        # (the last: source rows 4096 items apart, so staged too)
        streamed = [(*lines, 0), (*lines, 8), (lines[0] - 2, lines[1], 16), (lines[0] - 1, lines[1] + 1, 16), (4096, lines[1], 16)]
        for rows, cols, off in cases + streamed:
            nbytes = rows * cols * itemsize
            raw = random_bytes(r, 2 * nbytes + 6 * 64)
            at = (-addr(raw)) % 32  # the first 32-byte boundary in raw
            src = raw[at + 64 + off:at + 64 + off + nbytes].view(dt).reshape(cols, rows)
            start = at + 64 + nbytes + (-nbytes) % 32 + 64 + off
            dst = raw[start:start + nbytes].view(dt).reshape(rows, cols)
            want = raw.copy()
            np.copyto(want[start:start + nbytes].view(dt).reshape(rows, cols), src.T)
            st = run_copy(lib, src.T, dst)
            name = f"{rows} x {cols}, {itemsize}-byte items, offset {off}"
            if st != OK:
                probs.append(f"{name}: status {sname(st)} ({lib.mvs_last_error().decode(errors='replace')})")
            elif raw.tobytes() != want.tobytes():
                probs.append(f"{name}: " + diff_bytes(raw.tobytes(), want.tobytes()))
    return probs


NAMED = [
    t_issue_19_strided_from_prefix, t_shift_right, t_shift_left, t_shift_right_strided,
    t_reverse_in_place, t_transpose_in_place, t_permute_3d_in_place, t_row_broadcast_from_self,
    t_identical_view, t_zero_size_and_0d, t_fill_from_own_item, t_fill_stride0_and_0d,
    t_contiguous_transposed, t_argument_errors, t_large_transposes,
]


def run_named(lib):
    failed = 0
    print("named tests:")
    for t in NAMED:
        probs, note = named_result(lib, t)
        name = t.__name__[2:]
        print(f"  {'ok  ' if not probs else 'FAIL'} {name}" + (f"  {note}" if note else ""))
        for p in probs[:SHOW_MISMATCHES]:
            print(f"         {p}")
        failed += bool(probs)
    return failed


def named_result(lib, t):
    """(problems, note) of one named test; an exception of the test is a problem too."""
    try:
        res = t(lib)
    except Exception as e:  # noqa: BLE001 - a test bug is a failure too
        res = [f"(test error) {type(e).__name__}: {e}"]
    return res if isinstance(res, tuple) else (res, "")


# --- one function's random cases (tests/test_numpy_copy.py) -------------------------------------


@functools.lru_cache(maxsize=None)
def case_numbers(seed, cases):
    """{function: the numbers of its random cases} among `cases` cases of `seed`: each case
    draws its function first from its own generator, as main() does without --only."""
    names, weights = list(OPS), list(OPS.values())
    numbers = {k: [] for k in OPS}
    for i in range(cases):
        numbers[random.Random(seed * 1_000_003 + i).choices(names, weights)[0]].append(i)
    return numbers


def run_kind(lib, op, seed=DEFAULT_SEED, cases=DEFAULT_CASES, part=0, parts=1):
    """The random cases of one function ("copy", "fill" or "contiguous") among the `cases` cases
    of `seed` (the very cases main() runs for it without --only), or every `parts`-th of them
    from the `part`-th (so that the parts together are those cases). Returns the runner (stats,
    mismatches) and the oracle errors."""
    runner = Runner(lib)
    names, weights = list(OPS), list(OPS.values())
    oracle_bugs = []
    for i in case_numbers(seed, cases)[op][part::parts]:
        r = random.Random(seed * 1_000_003 + i)
        runner.case_no = i
        r.choices(names, weights)  # the draw that chose this function
        try:
            getattr(runner, "case_" + op)(r)
        except OracleBug as e:
            oracle_bugs.append(f"case #{i} {op}: {e}")
    return runner, oracle_bugs


# --- main ---------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library", help="path to libmemviewslice.so")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--cases", type=int, default=DEFAULT_CASES)
    ap.add_argument("--only", action="append", choices=list(OPS), help="run only this function's cases")
    ap.add_argument("--case", type=int, help="run only random case CASE of this seed (to reproduce it)")
    ns = ap.parse_args()

    lib = load(ns.library)
    print(f"numpy_copy: seed={ns.seed} cases={ns.cases} numpy={np.__version__} library={ns.library}")
    named_failed = run_named(lib)

    runner = Runner(lib)
    names = [k for k in OPS if not ns.only or k in ns.only]
    weights = [OPS[k] for k in names]
    oracle_bugs = []
    t0 = time.perf_counter()
    for i in ([ns.case] if ns.case is not None else range(ns.cases)):
        r = random.Random(ns.seed * 1_000_003 + i)  # each case reproduces alone (--case)
        runner.case_no = i
        op = r.choices(names, weights)[0]
        try:
            getattr(runner, "case_" + op)(r)
        except OracleBug as e:
            oracle_bugs.append(f"case #{i} {op}: {e}")
    elapsed = time.perf_counter() - t0

    print(f"\n{'function':<22}{'cases':>8}{'errors':>8}{'mismatches':>12}  case kinds")
    tot = {"cases": 0, "errors": 0, "mismatches": 0}
    for op, st in runner.stats.items():
        for key in tot:
            tot[key] += st[key]
        kinds = " ".join(f"{t}:{n}" for t, n in sorted(st["tags"].items()))
        print(f"{'mvs_' + op if op != 'contiguous' else 'mvs_copy_contiguous':<22}"
              f"{st['cases']:>8}{st['errors']:>8}{st['mismatches']:>12}  {kinds}")
    print(f"({tot['cases']} random cases in {elapsed:.1f} s; 'errors' counts cases expected to fail)")

    failed = bool(named_failed or oracle_bugs or runner.mismatches)
    if oracle_bugs:
        print(f"\n{len(oracle_bugs)} oracle errors (bugs in this test):")
        for b in oracle_bugs[:SHOW_MISMATCHES]:
            print("  " + b)
    if runner.mismatches:
        print(f"\nthe first {min(SHOW_MISMATCHES, len(runner.mismatches))} mismatches:")
        for m in runner.mismatches[:SHOW_MISMATCHES]:
            print(m, end="")
        print(f"reproduce one: {sys.executable} {sys.argv[0]} {ns.library} --seed {ns.seed} "
              f"--case {runner.first_mismatch}")
    print(f"\nnumpy_copy: {'FAILED' if failed else 'OK'}: {tot['cases']} random cases, "
          f"{tot['mismatches']} mismatches, {len(oracle_bugs)} oracle errors; "
          f"{len(NAMED)} named tests, {named_failed} failed (seed {ns.seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
