#!/usr/bin/env python3
"""Every typed Cython helper of every dtype against NumPy.

For each module ops_<code> (built from gen_ops.py's wrappers: each calls one helper inside
`with nogil:`), every helper of the table (tools/ops.py), and its const form on a read-only view
of the same source, is called on random NumPy sources (C and F order, sliced with steps,
flipped, broadcast with stride 0) with random arguments, valid and invalid, and
compared with NumPy doing the same: the result's data address, shape and strides (except the
free choices: strides of length-1 axes, address and strides of empty results), that it shares
the source's memory (a write through the result is seen in the source), and on failure the
exception type: IndexError where NumPy raises IndexError, ValueError otherwise (also when the
result's ndim is not the helper's); a const form's result stays read-only in np.asarray. Then the views of raw memory (from_pointer_*), of
mvs_buffers over a NumPy array's memory (from_buffer_*, against np.ndarray(buffer=, offset=);
const ones read-only), the arrays of pools (pool_acquire_*, pool_release_*), valid and
invalid, the data movement (copy_*, fill_*, copy_c_*, copy_f_*: against np.copyto,
dst[...] = value, np.ascontiguousarray and np.asfortranarray, errors against mvs_copy's own
status and message) and the views of other dtypes (from_<other>_*: against a.view(dtype));
failures of those four are printed a few per kind, and all counted.

    .venv/bin/python -m pytest tests/cython/test_ops.py -q --cy-build build/cython_ops \
        [--cy-codes f64,i8] [--cy-view-codes f64] [--cases N] [--seed S] [-k reshape]

One test per dtype and helper family (test_helpers[f64-reshape]) and one per dtype for the
other sections (test_memory[f64]); see the end of this file. The view helpers are tested for
the dtypes of --cy-view-codes, and so are the operand helpers of iterations (test_iteration;
every dtype by default; the modules of the others are built with
gen_ops.py --no-views).
"""

import functools
import importlib
import pathlib
import random
import sys

import numpy as np
import pytest
from memviewslice.owners import Pool
from numpy.lib.stride_tricks import as_strided, sliding_window_view

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import gen_ops  # noqa: E402
import gen_pxd  # noqa: E402

NONE = -(2**63)  # MVS_NONE
ITEM_INDEX, ITEM_SLICE, ITEM_NEWAXIS, ITEM_ELLIPSIS = range(4)
DTYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
          "f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}


class Cases:
    """Random sources and arguments; `expect` runs NumPy and gives the result or the exception
    type the helper must raise."""

    def __init__(self, rng, dtype):
        self.r, self.dtype = rng, np.dtype(dtype)

    def shape(self, nd, lo=0):
        return tuple(self.r.choice([lo, 1, 2, 3, 3, 4]) if self.r.random() < 0.9 else lo for _ in range(nd))

    def source(self, nd, contiguous=False):
        r = self.r
        shape = self.shape(nd)
        kind = "C" if contiguous else r.choice(["C", "F", "sliced", "flipped", "broadcast"])
        if kind == "F":
            return np.asfortranarray(self.filled(shape))
        if kind == "sliced":
            steps = [r.choice([1, 2, 3]) for _ in shape]
            base = self.filled(tuple(n * s for n, s in zip(shape, steps)))
            return base[tuple(slice(None, None, s) for s in steps)]
        if kind == "flipped":
            return self.filled(shape)[tuple(slice(None, None, r.choice([1, -1])) for _ in shape)]
        if kind == "broadcast" and nd:
            base = self.filled(shape)
            axis = r.randrange(nd)
            return as_strided(base, shape, tuple(0 if i == axis else s for i, s in enumerate(base.strides)), writeable=True)
        return self.filled(shape)

    def filled(self, shape):
        return np.arange(int(np.prod(shape)), dtype=np.int64).astype(self.dtype).reshape(shape)

    def axis(self, nd, bad=0.08):
        if self.r.random() < bad:
            return self.r.choice([nd, -nd - 1, nd + 3])
        return self.r.randrange(-nd, nd)

    def bound(self, n):
        return self.r.choice([NONE, self.r.randint(-n - 2, n + 2)])

    def step(self):
        return self.r.choice([NONE, 1, 1, 2, -1, -2, 3, 0] if self.r.random() < 0.1 else [NONE, 1, 1, 2, -1, -2, 3])

    def items(self, nd):
        """Random basic-indexing items for an nd-d source, mostly valid, with no more than 8
        dimensions in all (past 8 the library's documented limit, tested in the core, decides)."""
        r, out, newaxes, ellipsis = self.r, [], 0, False
        for _ in range(r.randint(0, nd + 2)):
            x = r.random()
            if x < 0.4:
                out.append((ITEM_INDEX, r.randint(-3, 3), 0, 0))
            elif x < 0.75:
                out.append((ITEM_SLICE, self.bound(3), self.bound(3), self.r.choice([NONE, 1, 2, -1])))
            elif x < 0.9 and nd + newaxes < 8:
                out.append((ITEM_NEWAXIS, 0, 0, 0))
                newaxes += 1
            elif x >= 0.9 and (not ellipsis or r.random() < 0.1):
                out.append((ITEM_ELLIPSIS, 0, 0, 0))
                ellipsis = True
        return out

    def target_shape(self, a, m):
        """A shape of m dims with a's size, when one exists by splitting and merging, else random."""
        r, size = self.r, a.size
        if size == 0 or r.random() < 0.15:
            return list(self.shape(m))
        factors = []
        for p in (2, 3, 5, 7):
            while size % p == 0:
                factors.append(p)
                size //= p
        factors.append(size)
        shape = [1] * m
        for f in factors:
            shape[r.randrange(m)] *= f
        if r.random() < 0.3:
            shape[r.randrange(m)] = -1
        return shape


def py_bound(v):
    return None if v == NONE else v


def np_items(items):
    out = []
    for kind, b, e, s in items:
        out.append({ITEM_INDEX: lambda: b, ITEM_SLICE: lambda: slice(py_bound(b), py_bound(e), py_bound(s)),
                    ITEM_NEWAXIS: lambda: None, ITEM_ELLIPSIS: lambda: Ellipsis}[kind]())
    return tuple(out)


def on_axis(a, axis, item):
    nd = a.ndim
    ax = np.lib.array_utils.normalize_axis_index(axis, nd)
    return a[(slice(None),) * ax + (item, Ellipsis)]


def case(c, family, n, m, contiguous_src=False):
    """(source, wrapper args, NumPy callable) for one call of `family`."""
    r = c.r
    a = c.source(n, contiguous=contiguous_src)
    if family == "slice_axis":
        axis = c.axis(n)
        ln = a.shape[axis] if -n <= axis < n else 3
        start, stop, step = c.bound(ln), c.bound(ln), c.step()
        return a, (axis, start, stop, step), lambda: on_axis(a, axis, slice(py_bound(start), py_bound(stop), py_bound(step)))
    if family == "flip_axis":
        axis = c.axis(n)
        return a, (axis,), lambda: np.flip(a, axis)
    if family == "flip":
        return a, (), lambda: np.flip(a)
    if family == "transpose":
        return a, (), lambda: a.T
    if family == "permute":
        axes = r.sample(range(n), n)
        if r.random() < 0.1:
            axes[0] = axes[-1] if n > 1 else n
        return a, (axes,), lambda: a.transpose(axes)
    if family == "swap_axes":
        a1, a2 = c.axis(n), c.axis(n)
        return a, (a1, a2), lambda: np.swapaxes(a, a1, a2)
    if family == "move_axes":
        k = r.randint(0, n)
        src, dst = r.sample(range(n), k), r.sample(range(n), k)
        if k and r.random() < 0.1:
            src[0] = src[-1] if k > 1 else n
        return a, (src, dst, k), lambda: np.moveaxis(a, src, dst)
    if family == "index_axis":
        axis = c.axis(n)
        ln = a.shape[axis] if -n <= axis < n else 3
        index = r.randint(-ln - 1, ln)
        return a, (axis, index), lambda: on_axis(a, axis, index)
    if family == "squeeze_axis":
        if r.random() < 0.8:
            a = np.expand_dims(c.source(n - 1), r.randrange(n))
        axis = c.axis(n)
        return a, (axis,), lambda: np.squeeze(a, axis)
    if family == "diagonal":
        a1, a2 = c.axis(n), c.axis(n)
        offset = r.randint(-4, 4)
        return a, (offset, a1, a2), lambda: np.diagonal(a, offset, a1, a2)
    if family == "expand_dims":
        axis = c.axis(n + 1)
        return a, (axis,), lambda: np.expand_dims(a, axis)
    if family == "sliding_window":
        axis = c.axis(n, bad=0.05)
        ln = a.shape[axis] if -n <= axis < n else 2
        window, step = r.randint(0, ln + (r.random() < 0.1)), r.choice([1, 1, 2, 3])

        def fn():
            w = sliding_window_view(a, window, axis=axis)
            return on_axis(w, np.lib.array_utils.normalize_axis_index(axis, n), slice(None, None, step))
        return a, (axis, window, step), fn
    if family == "index":
        items = c.items(n)
        return a, (items, len(items)), lambda: a[np_items(items)]
    if family == "reshape":
        order = r.choice("CF")
        shape = c.target_shape(a, m)
        return a, (shape, order), lambda: np.reshape(a, shape, order=order, copy=False)
    if family == "subview":
        order = r.choice("CF")
        shape = c.target_shape(a, m) if r.random() < 0.5 else list(c.shape(m))
        shape = [abs(s) for s in shape]
        size = int(np.prod(shape))
        offset = r.randint(0, max(0, a.size - size) + (r.random() < 0.1))

        def fn():  # the source's items in memory order, when it is contiguous in either order
            if not (a.flags.c_contiguous or a.flags.f_contiguous) or offset + size > a.size:
                raise ValueError("not contiguous, or does not fit")
            return a.ravel(order="K")[offset:offset + size].reshape(shape, order=order)
        return a, (offset, shape, order), fn
    if family == "broadcast_to":
        shape = list(c.shape(m - n, lo=1)) + [s if s != 1 or r.random() < 0.5 else r.choice([0, 1, 3]) for s in a.shape]
        if r.random() < 0.1 and shape:
            shape[-1] += 1
        return a, (shape,), lambda: np.broadcast_to(a, shape)
    if family == "squeeze":
        return a, (), lambda: np.squeeze(a)
    raise AssertionError(f"no cases for {family}")


def expect(fn, ndim):
    """NumPy's result, or the exception type the helper must raise."""
    try:
        e = fn()
    except IndexError as x:
        # NumPy's AxisError is both a ValueError and an IndexError; the library calls it ValueError.
        return ValueError if isinstance(x, ValueError) else IndexError
    except (ValueError, TypeError):
        return ValueError
    if e.ndim != ndim:
        return ValueError
    return e


def compare(got, exp, readonly=False):
    """Problems of the helper's result (a Cython memoryview) against NumPy's array `exp`; for
    a `readonly` result the shared memory is checked by a write through `exp`."""
    g = np.asarray(got)
    problems = []
    if g.shape != exp.shape:
        return [f"shape {g.shape} != NumPy {exp.shape}"]
    if g.dtype != exp.dtype:
        problems.append(f"dtype {g.dtype} != {exp.dtype}")
    if exp.size:
        gaddr, eaddr = g.__array_interface__["data"][0], exp.__array_interface__["data"][0]
        if gaddr != eaddr:
            problems.append(f"data {gaddr:#x} != NumPy {eaddr:#x}")
        for i, (gs, es, n) in enumerate(zip(g.strides, exp.strides, exp.shape)):
            if n != 1 and gs != es:
                problems.append(f"stride[{i}] {gs} != NumPy {es}")
        # The same memory: a write through the result is seen in the source (for a read-only
        # result, a write through NumPy's is seen in it; NumPy's own read-only views, of
        # broadcast_to and sliding_window_view, are left to the address check).
        if not problems and (exp.flags.writeable or not readonly):
            first = (0,) * g.ndim
            old = exp[first]
            target = exp if readonly else g
            target[first] = 7
            seen = (g if readonly else exp)[first] == 7
            target[first] = old
            if not seen:
                problems.append("a write through the result is not seen in the source")
    return problems


def check_view(fail, kind, what, call, exp, readonly=False):
    """One call of a helper, call(), against NumPy's array `exp` (or the exception type NumPy
    raises: the helper must raise it, with a message): compare(), the items' values, and a
    read-only result for a `readonly` (const) one. Failures go to `fail` as `kind` ...."""
    try:
        got = call()
    except (IndexError, ValueError) as e:
        if not isinstance(exp, type):
            fail(f"{kind} raised", f"{what}: {type(e).__name__}({e}); NumPy gives shape {exp.shape} strides {exp.strides}")
        elif not isinstance(e, exp):
            fail(f"{kind} raised", f"{what}: {type(e).__name__}({e}); NumPy raises {exp.__name__}")
        elif not str(e):
            fail(f"{kind} message", f"{what}: {type(e).__name__} without a message")
        return
    if isinstance(exp, type):
        fail(f"{kind} no error", f"{what}: returned a view; NumPy raises {exp.__name__}")
        return
    problems = compare(got, exp, readonly=readonly)
    if readonly and np.asarray(got).flags.writeable:
        problems.append("the const form's result is writable in np.asarray")
    if not problems and np.asarray(got).tobytes() != exp.tobytes():
        problems.append(f"values {np.asarray(got).tolist()} != NumPy {exp.tolist()}")
    if problems:
        fail(f"{kind} result", f"{what}: " + "; ".join(problems))


def raw_memory(mod, code, rng, cases):
    """from_pointer_Nd and from_pointer_strided_Nd over a NumPy array's memory against the NumPy
    array of the same memory, shape and order or strides; bad input raises ValueError with a
    message. Returns (calls, failures)."""
    dtype = np.dtype(DTYPES[code])
    calls = failures = 0
    for n in gen_pxd.NDIMS:
        for k in range(cases):
            shape = tuple(rng.randint(0, 4) for _ in range(n))
            strides = tuple(rng.choice([-3, -1, 0, 1, 2, 5]) * dtype.itemsize for _ in range(n))
            # The first item far enough in for every negative stride, the buffer long enough.
            before = sum((s - 1) * -st for s, st in zip(shape, strides) if st < 0 and s) // dtype.itemsize
            after = sum((s - 1) * st for s, st in zip(shape, strides) if st > 0 and s) // dtype.itemsize
            count = int(np.prod(shape))
            # Long enough for the contiguous view and for the strided one.
            buf = np.arange(max(before + after + 1, count) + rng.randint(0, 3)).astype(dtype)
            order = rng.choice("CF")
            tests = [(getattr(mod, f"from_pointer_{n}d"), (buf, 0, shape, order),
                      np.ndarray(shape, dtype, buffer=buf, order=order)),
                     (getattr(mod, f"from_pointer_strided_{n}d"), (buf, before, shape, strides),
                      as_strided(buf[before:], shape, strides))]
            bad = rng.choice(["extent", "order", "null", "overflow"]) if k % 3 == 0 else None
            if k % 5 == 1 and n >= 2 and bad is None:
                # An extent past the inline path's (2^30), in an empty view: the library's view.
                big = (2 ** 31,) + (0,) + tuple(shape[2:])
                tests[0] = (tests[0][0], (buf, 0, big, order), np.ndarray(big, dtype, buffer=buf, order=order))
            for fn, args, exp in tests:
                calls += 1
                if bad == "extent":
                    args = args[:2] + ((-1,) + tuple(shape[1:]),) + args[3:]
                elif bad == "overflow" and n >= 2 and "strided" not in fn.__name__:  # strides past ptrdiff_t
                    args = args[:2] + ((2 ** 40, 2 ** 40) + tuple(shape[2:]),) + args[3:]
                elif bad == "order" and "strided" not in fn.__name__:
                    args = args[:3] + ("X",)
                elif bad == "null" and count:  # NULL data is refused for a view of one item or more
                    args = (args[0], -1) + args[2:]
                else:
                    problems = compare(fn(*args), exp)
                    if problems:
                        failures += 1
                        print(f"FAIL {code}.{fn.__name__}{args[1:]}: " + "; ".join(problems))
                    continue
                try:
                    fn(*args)
                except ValueError as e:
                    if not str(e):
                        failures += 1
                        print(f"FAIL {code}.{fn.__name__}{args[1:]}: ValueError without a message")
                else:
                    failures += 1
                    print(f"FAIL {code}.{fn.__name__}{args[1:]} ({bad}): returned a view, not ValueError")
    return calls, failures


class Failures:
    """Failures of the buffer and pool sections, by kind: the first few of each kind printed,
    all counted."""

    SHOWN = 3

    def __init__(self):
        self.kinds = {}

    def __call__(self, kind, message):
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if self.kinds[kind] <= self.SHOWN:
            print(f"FAIL ({kind}) {message}")

    def summary(self):
        for kind, n in self.kinds.items():
            if n > self.SHOWN:
                print(f"FAIL ({kind}): {n} in all")
        return sum(self.kinds.values())


def expect_value_error(fail, kind, what, fn, *args, **kw):
    """One call that must raise ValueError with a message; True when it did."""
    try:
        fn(*args, **kw)
    except ValueError as e:
        if str(e):
            return True
        fail("no message", f"{what}: ValueError without a message")
    except Exception as e:  # noqa: BLE001 - any other exception is a failure of the test
        fail("exception type", f"{what}: {type(e).__name__}: {e}; ValueError expected")
    else:
        fail("no error", f"{what}: returned; ValueError expected")
    return False


def buffer_memory(mod, code, rng, cases, fail):
    """from_buffer_Nd and from_buffer_const_Nd over a NumPy array's memory (wrapped in an
    mvs_buffer, the wrapper's reference released right after the call) against
    np.ndarray(shape, dtype, buffer, offset, order) over the same memory: address, shape,
    strides, dtype, shared memory; const views read-only as NumPy arrays, the others writable;
    with a counting deallocator, the buffer freed once, when the last view (or NumPy array made
    from one) goes, and right after a failed call. Bad input raises ValueError with a message.
    Returns the number of calls."""
    dtype = np.dtype(DTYPES[code])
    calls = 0
    for n in gen_pxd.NDIMS:
        for k in range(cases):
            const = k % 2 == 1
            fn = getattr(mod, f"from_buffer_{'const_' if const else ''}{n}d")
            shape = [rng.randint(0, 3) for _ in range(n)]
            count = int(np.prod(shape))
            offset = rng.randint(0, 3)
            # Never empty: an empty buffer has NULL data (mvs_buffer_wrap), tested on its own below.
            length = max(1, offset + count + rng.randint(0, 2))
            order = rng.choice("CF")
            readonly = const and rng.random() < 0.5
            kwargs = {"readonly": readonly}
            bad = rng.choice(["extent", "order", "big", "offset", "readonly", "null"]) if k % 3 == 0 else None
            if bad == "extent":
                shape[rng.randrange(n)] = rng.choice([-1, -3])
            elif bad == "order":
                order = rng.choice(["X", "c", "f", "A"])
            elif bad == "big":  # one item short, or a zero-size view past the end
                if count:
                    length = offset + count - 1
                else:
                    offset = length + 1
            elif bad == "offset":
                offset = rng.choice([-1, -2, -(2**40)])
            elif bad == "readonly":
                if const:  # a const view of a read-only buffer is fine: a writable one instead
                    fn = getattr(mod, f"from_buffer_{n}d")
                kwargs["readonly"] = True
            elif bad == "null":
                kwargs["null"] = True
            buf = np.arange(length).astype(dtype)
            track = k % 4 < 2 and bad != "null"
            what = f"{code}.{fn.__name__}(offset={offset}, shape={tuple(shape)}, order={order!r}, {kwargs}) of {length} items"
            calls += 1
            before = mod.deallocs()
            if bad:
                expect_value_error(fail, bad, what, fn, buf, offset, shape, order, track=track, **kwargs)
                if track and mod.deallocs() != before + 1:
                    fail("lifetime", f"{what}: failed, and freed the buffer {mod.deallocs() - before} times (1 expected)")
                continue
            exp = np.ndarray(tuple(shape), dtype, buffer=buf, offset=offset * dtype.itemsize, order=order)
            try:
                got = fn(buf, offset, shape, order, track=track, **kwargs)
            except ValueError as e:
                fail("refused", f"{what}: raised ValueError: {e}; NumPy: strides {exp.strides}")
                continue
            problems = compare(got, exp, readonly=const)
            if problems:
                fail("compare", f"{what}: " + "; ".join(problems))
            writeable = np.asarray(got).flags.writeable
            if writeable == const:
                fail("const" if const else "writable",
                     f"{what}: np.asarray(result).flags.writeable is {writeable}")
            if track:
                arr = np.asarray(got)
                del got
                if mod.deallocs() != before:
                    fail("lifetime", f"{what}: the buffer was freed while a NumPy array of its view lives")
                del arr
                if mod.deallocs() != before + 1:
                    fail("lifetime", f"{what}: freed {mod.deallocs() - before} times after the last view (1 expected)")
    # An empty buffer: a valid mvs_buffer (NULL data, 0 bytes), of which zero-size views fit.
    for const in (False, True):
        n = rng.choice(gen_pxd.NDIMS)
        fn = getattr(mod, f"from_buffer_{'const_' if const else ''}{n}d")
        shape = [rng.randint(0, 3) for _ in range(n)]
        shape[rng.randrange(n)] = 0
        calls += 1
        what = f"{code}.{fn.__name__}(offset=0, shape={tuple(shape)}) of an empty buffer (NULL data, 0 bytes)"
        try:
            got = fn(np.zeros(0, dtype), 0, shape)
        except ValueError as e:
            fail("empty buffer", f"{what}: raised ValueError: {e}; NumPy gives shape {tuple(shape)}")
        else:
            if np.asarray(got).shape != tuple(shape):
                fail("empty buffer", f"{what}: shape {np.asarray(got).shape}")
    return calls


def pool_arrays(mod, code, rng, fail):
    """Pools (memviewslice.owners.Pool) of 2-D and 3-D arrays in C and F order, and of one other
    ndim, of random shapes and capacities: the arrays pool_acquire(_f)_Nd gives (with nogil)
    have the pool's shape, np.empty's strides and the dtype, start on 64 bytes, are distinct
    and do not overlap, share memory with np.asarray(view); acquiring with the wrong item size,
    ndim or order raises ValueError (acquiring nothing), as does releasing a foreign array, an
    array of another pool, a view not at an array's start, or an array twice; the array given
    back last is handed out first; arrays outlive their pool. Returns the number of calls."""
    dtype = np.dtype(DTYPES[code])
    other_format = "h" if dtype.itemsize == 1 else "b"  # another item size
    calls = 0

    def acquirer(nd, order):
        return getattr(mod, f"pool_acquire_{'f_' if order == 'F' and nd > 1 else ''}{nd}d")

    layouts = [(2, "C"), (2, "F"), (3, "C"), (3, "F"), (rng.choice([1, 4, 5, 6, 7]), rng.choice("CF"))]
    for i, (nd, order) in enumerate(layouts):
        shape = tuple(rng.randint(0, 3) for _ in range(nd))
        capacity = rng.choice([0, 1, 2, 16])
        fmt = DTYPES[code] if i % 2 else gen_pxd.FORMATS[code]
        pool = Pool(fmt, shape, order, capacity)
        what = f"{code} Pool({fmt!r}, {shape}, {order!r}, capacity={capacity})"
        acquire, release = acquirer(nd, order), getattr(mod, f"pool_release_{nd}d")
        k = rng.randint(1, 5)
        calls += 1
        got = acquire(pool, k)
        exp = np.empty(shape, dtype, order=order)
        if not exp.size:  # NumPy's strides of an empty array are 0; those of the contiguous layout:
            exp = np.ndarray(shape, dtype, buffer=bytearray(0), order=order)
        spans = []
        for j, (view, addr) in enumerate(got):
            a = np.asarray(view)
            if (a.shape, a.strides, a.dtype) != (exp.shape, exp.strides, exp.dtype):
                fail("pool layout", f"{what}: array {j} has shape {a.shape} strides {a.strides} dtype {a.dtype}; "
                                    f"np.empty: {exp.shape} {exp.strides} {exp.dtype}")
            if addr % 64:
                fail("pool alignment", f"{what}: array {j} at {addr:#x}, not on 64 bytes")
            if a.__array_interface__["data"][0] != addr:
                fail("pool memory", f"{what}: np.asarray(array {j}) at {a.__array_interface__['data'][0]:#x}, "
                                    f"the view at {addr:#x}")
            if not a.flags.writeable:
                fail("pool memory", f"{what}: np.asarray(array {j}) is read-only")
            spans.append((addr, addr + max(exp.nbytes, 1)))
            if a.size:
                a[...] = j + 1
                first = (0,) * nd
                view[first] = 100 + j  # through the Cython memoryview object
                if a[first] != 100 + j:
                    fail("pool memory", f"{what}: a write through array {j} is not seen in np.asarray of it")
                a[first] = j + 1
        spans.sort()
        if any(hi > lo2 for (_, hi), (lo2, _) in zip(spans, spans[1:])):
            fail("pool overlap", f"{what}: arrays overlap or coincide: {[hex(lo) for lo, _ in spans]}")
        for j, (view, _) in enumerate(got):
            if exp.size and not (np.asarray(view) == j + 1).all():
                fail("pool overlap", f"{what}: array {j} was overwritten by another array")
        arrays, acquired = pool.counts
        if acquired != k or arrays < k:
            fail("pool counts", f"{what}: counts {pool.counts} after {k} acquires")

        # Acquires of another layout: nothing acquired.
        wrong = [(f"{nd + 1}-d", acquirer(nd + 1, order), pool) if nd < 7 else None,
                 (f"{nd - 1}-d", acquirer(nd - 1, order), pool) if nd > 1 else None,
                 ("order", acquirer(nd, "C" if order == "F" else "F"), pool) if nd > 1 else None,
                 ("item size", acquire, Pool(other_format, shape, order))]
        for kind, fn, p in filter(None, wrong):
            calls += 1
            if expect_value_error(fail, f"pool {kind}", f"{what}: {fn.__name__} of {p!r}", fn, p, 1) \
                    and p.counts[1] != (k if p is pool else 0):
                fail("pool counts", f"{what}: {fn.__name__} failed, and counts are {p.counts}")

        # Releases that must fail.
        other = Pool(fmt, shape, order, capacity)
        (foreign, _), = acquire(other, 1)
        bad = [("foreign", np.zeros(shape, dtype, order=order)), ("other pool", foreign)]
        if shape[0] > 1 and exp.size:
            bad.append(("not at the start", np.asarray(got[0][0])[1:]))
        for kind, view in bad:
            calls += 1
            expect_value_error(fail, f"pool release {kind}", f"{what}: release of {kind} array", release, pool, view)
        calls += 1
        release(other, foreign)

        # Release every array (one as a NumPy array, one transposed: only the data address
        # counts), then one twice; the last given back is the next handed out.
        for j, (view, addr) in enumerate(got):
            calls += 1
            try:
                release(pool, np.asarray(view) if j == 1 else np.asarray(view).T if j == 2 else view)
            except ValueError as e:
                fail("pool release", f"{what}: release of array {j}: {e}")
        calls += 1
        expect_value_error(fail, "pool release twice", f"{what}: second release of array 0", release, pool, got[0][0])
        if pool.counts[1] != 0:
            fail("pool counts", f"{what}: counts {pool.counts} after releasing every array")
        calls += 1
        (again, addr), = acquire(pool, 1)
        if addr != got[-1][1]:
            fail("pool lifo", f"{what}: acquired {addr:#x}; the last given back was {got[-1][1]:#x}")

        # The array outlives the pool: its memory stays while np.asarray(again) lives.
        a = np.asarray(again)
        a[...] = 42
        del pool, again, got, view, other, foreign
        (fresh, _), = acquire(Pool(fmt, shape, order, capacity), 1)
        np.asarray(fresh)[...] = 7
        if a.size and not (a == 42).all():
            fail("pool lifetime", f"{what}: an array changed after its pool was destroyed")
    return calls


MVS_ERR_BROADCAST, MVS_ERR_VALUE = 12, 14


class Data:
    """Random arrays and views for the data movement tests: values drawn from 0..99 (exact in
    every dtype; complex ones with an imaginary part), views with permuted axes, steps of
    either sign and offsets into a larger base, so that writes outside a view are seen."""

    def __init__(self, rng, dtype):
        self.r, self.dtype = rng, np.dtype(dtype)
        self.np_rng = np.random.default_rng(rng.getrandbits(32))

    def values(self, shape):
        v = self.np_rng.integers(0, 100, size=shape)
        if self.dtype.kind == "c":
            v = v + 1j * self.np_rng.integers(0, 100, size=shape)
        return v.astype(self.dtype)

    def scalar(self):
        return self.values(()).item()

    def shape(self, nd):
        shape = [self.r.choice([1, 2, 3]) if self.r.random() < 0.9 else self.r.choice([0, 1]) for _ in range(nd)]
        while int(np.prod(shape)) > 200:
            i = self.r.randrange(nd)
            shape[i] = max(1, shape[i] - 1)
        return shape

    def viewer(self, shape, base_shape=None):
        """(f, base shape): f(base) is a view of `shape` of an array of the base shape, with the
        axes permuted, steps among 1, 2, -1, -2, at a random offset; the base shape is made to
        fit (one item of slack per axis) unless given, and then None when the view does not fit."""
        r, nd = self.r, len(shape)
        perm = r.sample(range(nd), nd) if r.random() < 0.6 else list(range(nd))
        steps = [r.choice([1, 1, 2, -1, -2]) for _ in range(nd)]
        spans = [(k - 1) * abs(st) + 1 if k else 0 for k, st in zip(shape, steps)]
        need = [0] * nd
        for i in range(nd):
            need[perm[i]] = spans[i]
        if base_shape is None:
            base_shape = tuple(k + r.randint(0, 1) for k in need)
        elif any(b < k for b, k in zip(base_shape, need)):
            return None
        idx = []
        for i in range(nd):
            length, st, k, span = base_shape[perm[i]], steps[i], shape[i], spans[i]
            start = r.randint(0, length - span)
            if not k:
                idx.append(slice(start, start))
            elif st > 0:
                idx.append(slice(start, start + span, st))
            else:
                idx.append(slice(start + span - 1, start - 1 if start else None, st))
        idx = tuple(idx)
        return (lambda base: base.transpose(perm)[idx]), base_shape

    def view(self, shape):
        """(base, f): a fresh base array and f, as viewer."""
        f, base_shape = self.viewer(shape)
        return self.values(base_shape), f

    def source(self, shape):
        """A source of `shape`: a view of a larger array, sometimes read-only, sometimes with an
        axis of stride 0 (as np.broadcast_to makes), sometimes C- or F-contiguous."""
        r = self.r
        kind = r.random()
        if kind < 0.15:
            a = self.values(shape)
            return np.asfortranarray(a) if r.random() < 0.5 else a
        base, f = self.view(shape)
        a = f(base)
        if kind < 0.3 and a.ndim:
            axis = r.randrange(a.ndim)
            row = a[(slice(None),) * axis + (slice(0, 1),)]
            a = np.broadcast_to(row, a.shape)  # read-only, stride 0 on `axis`
        elif kind < 0.5:
            a.flags.writeable = False
        return a


def data_movement(mod, code, rng, cases, fail):
    """copy_Nd and copy_Md_Nd, fill_Nd, copy_c_Nd and copy_f_Nd against NumPy: every item of the
    destination's base array after the call equals NumPy's (np.copyto(dst, src.copy()), dst[...]
    = value) on a copy of it, for sources and destinations with permuted axes, negative steps and
    offsets, sources broadcast (stride 0, fewer dimensions, extent-1 axes) and read-only, and
    sources that overlap the destination in the same base; copies whose shapes do not broadcast,
    or into a destination with a repeated item (stride 0, extent > 1), raise ValueError with the
    library's message (mvs_copy's own, called directly) and change nothing. copy_c and copy_f
    against np.ascontiguousarray and np.asfortranarray: values, shape, dtype, strides, a new
    writable array 64-byte aligned. Returns the number of calls."""
    d = Data(rng, DTYPES[code])
    r = rng
    calls = 0

    def empty_repeating(dst):
        """An empty dst with an axis of stride 0 and extent > 1: no item, so nothing repeats. (As
        Cython's typed memoryview of an empty NumPy array often is: NumPy exports an empty array
        with C strides, np.empty((3, 0)) with (0, 8), which memoryview() shows too.)"""
        return dst.size == 0 and any(st == 0 and x > 1 for st, x in zip(memoryview(dst).strides, dst.shape))

    def check_copy(what, name, src, dst, base, exp_base):
        nonlocal calls
        calls += 1
        try:
            getattr(mod, name)(src, dst)
        except ValueError as e:
            fail("copy refused, empty dst with a stride-0 axis" if empty_repeating(dst) else "copy refused",
                 f"{what}: raised ValueError: {e}")
            return
        if not np.array_equal(base, exp_base):
            bad = np.argwhere(base != exp_base)
            fail("copy", f"{what}: {len(bad)} items of the destination's base differ from NumPy's, first at "
                         f"{tuple(bad[0])}: {base[tuple(bad[0])]!r} != {exp_base[tuple(bad[0])]!r}")

    def check_error(what, name, src, dst, base, statuses):
        nonlocal calls
        calls += 1
        before = base.copy()
        status, message = getattr(mod, f"{name}_status")(src, dst)
        if status not in statuses or not message:
            fail("copy status, empty dst with a stride-0 axis" if empty_repeating(dst) else "copy status",
                 f"{what}: mvs_copy gave status {status} ({message!r}), not one of {statuses}")
        try:
            getattr(mod, name)(src, dst)
        except ValueError as e:
            if str(e) != message:
                fail("copy message", f"{what}: ValueError({str(e)!r}); the library says {message!r}")
        except Exception as e:  # noqa: BLE001 - any other exception is a failure of the test
            fail("copy exception type", f"{what}: {type(e).__name__}: {e}; ValueError expected")
        else:
            fail("copy no error", f"{what}: returned; ValueError expected")
        if not np.array_equal(base, before):
            fail("copy wrote on error", f"{what}: the destination changed on error")

    for m, n in gen_pxd.copy_pairs():
        name = gen_pxd.copy_name(m, n)
        for k in range(cases):
            # Separate arrays: the source's axes are dst's last m, some of extent 1.
            shape = d.shape(n)
            base, f = d.view(shape)
            src_shape = [1 if r.random() < 0.2 else x for x in shape[n - m:]]
            src = d.source(src_shape)
            exp_base = base.copy()
            np.copyto(f(exp_base), src.copy())
            what = (f"{code}.{name}: src shape {src.shape} strides {src.strides}, dst shape {tuple(shape)} "
                    f"strides {f(base).strides}")
            check_copy(what, name, src, f(base), base, exp_base)

            # Overlapping views of one base: the result is as if src were copied first.
            # (The source: a view of base[lead], lead an index of dst's base's first n - m axes.)
            base, f = d.view(shape)
            viewer = d.viewer(shape[n - m:], base.shape[n - m:])
            if viewer is not None and all(base.shape[:n - m]):
                lead = tuple(r.randrange(x) for x in base.shape[:n - m])
                src = viewer[0](base[lead])
                exp_base = base.copy()
                np.copyto(f(exp_base), src.copy())
                what = (f"{code}.{name} in one base {base.shape}: src shape {src.shape} strides {src.strides}, "
                        f"dst shape {tuple(shape)} strides {f(base).strides}, may share memory: "
                        f"{np.may_share_memory(src, f(base))}")
                check_copy(what, name, src, f(base), base, exp_base)

            # Shapes that do not broadcast: one source axis differs from dst's and is not 1.
            base, f = d.view(shape)
            bad_shape = list(shape[n - m:])
            axis = r.randrange(m)
            bad_shape[axis] = shape[n - m + axis] + (2 if shape[n - m + axis] == 0 else 1)
            src = d.source(bad_shape)
            dst = f(base)
            what = f"{code}.{name}: src shape {src.shape} into dst shape {tuple(shape)} strides {dst.strides}"
            # (Either error when dst also repeats an item.)
            repeats = any(st == 0 and x > 1 for st, x in zip(memoryview(dst).strides, dst.shape))
            check_error(what, name, src, dst, base, (MVS_ERR_BROADCAST, MVS_ERR_VALUE) if repeats else (MVS_ERR_BROADCAST,))

            # A destination that repeats an item: stride 0 on an axis of extent > 1.
            if k % 2 == 0:
                rep = [max(x, 2) for x in shape]
                axis = r.randrange(n)
                base = d.values(rep)
                dst = as_strided(base, rep, tuple(0 if i == axis else st for i, st in enumerate(base.strides)),
                                 writeable=True)
                src = d.source(rep[n - m:])
                what = f"{code}.{name}: src shape {src.shape} into dst shape {tuple(rep)} strides {dst.strides}"
                check_error(what, name, src, dst, base, (MVS_ERR_VALUE,))

    for n in gen_pxd.NDIMS:
        fill = getattr(mod, f"fill_{n}d")
        for k in range(cases):
            shape = d.shape(n)
            value = d.scalar()
            if k % 3 == 2:  # a repeated item (stride 0) is allowed: it is set once
                rep = [max(x, 2) for x in shape]
                axis = r.randrange(n)
                base = d.values(rep)
                f = (lambda b, rep=rep, axis=axis:
                     as_strided(b, rep, tuple(0 if i == axis else st for i, st in enumerate(b.strides)), writeable=True))
            else:
                base, f = d.view(shape)
            exp_base = base.copy()
            f(exp_base)[...] = value
            what = f"{code}.fill_{n}d({value!r}): dst shape {f(base).shape} strides {f(base).strides}"
            calls += 1
            try:
                fill(f(base), value)
            except ValueError as e:
                fail("fill refused", f"{what}: raised ValueError: {e}")
                continue
            if not np.array_equal(base, exp_base):
                fail("fill", f"{what}: {int((base != exp_base).sum())} items of the base differ from NumPy's")

        for order in ("CF" if n > 1 else "C"):
            copy = getattr(mod, f"copy_{order.lower()}_{n}d")
            for k in range(cases):
                src = d.source(d.shape(n))
                exp = np.ascontiguousarray(src) if order == "C" else np.asfortranarray(src)
                what = f"{code}.{copy.__name__}: src shape {src.shape} strides {src.strides}"
                calls += 1
                try:
                    got = np.asarray(copy(src))
                except ValueError as e:
                    fail("contiguous copy refused", f"{what}: raised ValueError: {e}")
                    continue
                problems = []
                if got.shape != exp.shape or got.dtype != exp.dtype or not np.array_equal(got, exp):
                    problems.append(f"shape {got.shape} dtype {got.dtype} values {got.ravel()[:4]}; NumPy: "
                                    f"{exp.shape} {exp.dtype} {exp.ravel()[:4]}")
                elif got.size and any(gs != es for gs, es, x in zip(got.strides, exp.strides, exp.shape) if x > 1):
                    problems.append(f"strides {got.strides}; NumPy's {exp.strides}")
                if not got.flags.writeable:
                    problems.append("read-only")
                if got.size and (np.shares_memory(got, src) or got.__array_interface__["data"][0] % 64):
                    problems.append(f"shares the source's memory, or is not 64-byte aligned "
                                    f"({got.__array_interface__['data'][0]:#x})")
                if got.size and not (got.flags.c_contiguous if order == "C" else got.flags.f_contiguous):
                    problems.append(f"not {order}-contiguous")
                if problems:
                    fail("contiguous copy", f"{what}: " + "; ".join(problems))
    return calls


def reinterpreted(mod, code, rng, cases, fail):
    """from_<other>_Nd and from_<other>_const_Nd (a view of another dtype's memoryview as this
    dtype) against NumPy's a.view(dtype): sources C-contiguous, with a sliced, flipped or
    broadcast last axis, with the last axis of extent 1, empty; the result's address, shape,
    strides and dtype, its memory shared (a write through it seen in the source), a const
    form's result read-only; ValueError where NumPy refuses. Returns the number of calls."""
    dtype = np.dtype(DTYPES[code])
    calls = 0
    for op in gen_pxd.view_as_ops():
        for other in DTYPES:
            if other == code:
                continue
            c = Cases(rng, DTYPES[other])
            for n in gen_ops.VIEW_AS_NDIMS:
                for k in range(cases):
                    shape = list(c.shape(n))
                    if k % 3 == 0:  # a last axis whose bytes this dtype's items divide, mostly
                        shape[-1] = max(1, dtype.itemsize // np.dtype(DTYPES[other]).itemsize) * rng.choice([1, 2, 3])
                    a = c.filled(tuple(shape))
                    layout = rng.choice(["C", "C", "sliced", "flipped", "broadcast", "rows"])
                    if layout == "sliced":
                        a = c.filled(tuple(shape[:-1]) + (2 * shape[-1],))[..., ::2]
                    elif layout == "flipped":
                        a = a[..., ::-1]
                    elif layout == "broadcast" and a.size:
                        a = as_strided(a, a.shape, a.strides[:-1] + (0,), writeable=True)
                    elif layout == "rows" and n > 1:
                        a = c.filled((2 * shape[0],) + tuple(shape[1:]))[::2]
                    exp = expect(lambda: a.view(dtype), n)
                    ro = a.view()
                    ro.flags.writeable = False
                    for const, source in ((False, a), (True, ro)):
                        name = gen_pxd.view_as_name(op, other, n, const)
                        what = f"{code}.{name} on shape {a.shape} strides {a.strides}"
                        calls += 1
                        check_view(fail, "view_as", what, lambda: getattr(mod, name)(source), exp, readonly=const)
    return calls


MVS_ITER_READ, MVS_ITER_WRITE, MVS_ITER_READWRITE, MVS_ITER_REDUCE = 1, 2, 3, 4


class Operands:
    """The operands of one iteration of the ops module's run(), set through its typed helpers:
    operand_Nd(k, view, flags) for an N-d array (operand_const_Nd for a read-only one, and at
    random for a read one; for a 1-d one, at random, mvs_pyx_operand), operand_0d for a 0-d
    operand, given as a 1-item array."""

    def __init__(self, mod, rng):
        self.mod, self.r, self.arrays = mod, rng, []

    def add(self, a, flags, item=False):
        """Operand len(arrays): `a`, or its one item as a 0-d operand when `item`. Returns the
        array NumPy sees (a 0-d one for an item)."""
        k, n = len(self.arrays), 0 if item else a.ndim
        if not a.flags.writeable or (flags == MVS_ITER_READ and self.r.random() < 0.3):
            getattr(self.mod, f"operand_const_{n}d")(k, a)
        elif n == 1 and self.r.random() < 0.3:
            self.mod.operand_slice_1d(k, a, flags)
        else:
            getattr(self.mod, f"operand_{n}d")(k, a, flags)
        self.arrays.append(a.reshape(()) if item else a)
        return self.arrays[-1]


def iteration(mod, code, rng, cases, fail):
    """The operands of elementwise iterations (operand_Nd, operand_const_Nd, operand_0d, N from
    0 to 7; mvs_pyx_operand) summed by the module's run() into the last one, against NumPy: 1 to 3 inputs of 0
    to 7 dimensions broadcast together (extent-1 and missing axes; read-only, stride-0,
    permuted, stepped and flipped views; now and then the output itself, in place), into an
    output of every ndim from 0 to 7 (a view with permuted axes and steps of either sign into a
    larger base: every item of the base after the call equals NumPy's), by mvs_pyx_apply, by
    an iterator, and by copies of one restricted to ranges split at random points; in K, C and
    F order; a reduction (MVS_ITER_REDUCE: the output with extent-1 or missing axes, added to,
    as np.sum over those axes). Errors: an operand index outside 0..7, shapes that do not
    broadcast, a written operand broadcast without MVS_ITER_REDUCE, 9 operands: ValueError with
    the library's message, the output unchanged. Returns the number of runs."""
    d, r = Data(rng, DTYPES[code]), rng
    calls = 0
    for k in range(cases):
        nd = k % 8
        full = d.shape(nd)
        reduce = r.random() < 0.3
        ops = Operands(mod, r)
        if reduce:
            m = r.randint(0, nd)
            out_shape = [1 if r.random() < 0.5 else s for s in full[nd - m:]]
        else:
            out_shape = full
        if out_shape:
            base, view = d.view(out_shape)
            out = view(base)
        else:  # a 0-d output: a 1-item base
            base = d.values((1,))
            out = base
        before = base.copy()
        inputs = []
        for _ in range(r.randint(1, 3)):
            if not reduce and r.random() < 0.1:  # in place: the output's own view, read
                inputs.append(ops.add(out, MVS_ITER_READ, item=not out_shape))
                continue
            m = r.randint(0, nd)
            shape = [1 if r.random() < 0.25 else s for s in full[nd - m:]]
            if shape:
                inputs.append(ops.add(d.source(shape), MVS_ITER_READ))
            else:
                item = d.values((1,))
                item.flags.writeable = r.random() < 0.7
                inputs.append(ops.add(item, MVS_ITER_READ, item=True))
        # (in place, NumPy reads the output before it is written: copies)
        inputs = [x.copy() for x in inputs]
        flags = MVS_ITER_READWRITE | MVS_ITER_REDUCE if reduce else r.choice([MVS_ITER_WRITE, MVS_ITER_READWRITE])
        target = ops.add(out, flags, item=not out_shape)
        it_shape = np.broadcast_shapes(target.shape, *(x.shape for x in inputs))
        total = np.broadcast_to(functools.reduce(np.add, inputs), it_shape)
        if reduce:
            lead = len(it_shape) - target.ndim
            axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(target.shape) if s == 1)
            result = target + total.sum(axis=axes, dtype=total.dtype).reshape(target.shape)
        else:
            result = total
        expected = before.copy()
        (view(expected) if out_shape else expected.reshape(()))[...] = result
        how, order = k % 3, r.choice("KCF")
        size = int(np.prod(it_shape))
        splits = sorted(r.randint(0, size) for _ in range(r.randint(0, 3)))
        what = (f"{code}: run(how {how}, order {order}, splits {splits}) of {[x.shape for x in inputs]} into "
                f"{target.shape}{' (reduce)' if reduce else ''}")
        calls += 1
        try:
            got = mod.run(len(ops.arrays), order, how, reduce, splits)
        except ValueError as e:
            fail("iteration raised", f"{what}: ValueError({e})")
            continue
        if how and got != size:
            fail("iteration size", f"{what}: size {got}, NumPy's {size}")
        if not np.array_equal(base, expected):
            fail("iteration result", f"{what}: {base!r}, NumPy's {expected!r}")

    # Errors: ValueError with the library's message, nothing written.
    a, b, c = d.values((2, 3)), d.values((4,)), d.values((2, 3))
    c0 = c.copy()

    def operands(*pairs):
        ops = Operands(mod, r)
        for x, flags in pairs:
            ops.add(x, flags)

    index = "is out of range: an iteration has at most 8 operands"
    errors = [("index", lambda how: mod.operand_2d(-1, a, MVS_ITER_READ), f"operand -1 {index}"),
              ("index", lambda how: mod.operand_const_0d(8, a[0]), f"operand 8 {index}"),
              ("shapes", lambda how: operands((a, MVS_ITER_READ), (b, MVS_ITER_READ), (c, MVS_ITER_WRITE))
               or mod.run(3, "K", how), "operands could not be broadcast together with shapes (2, 3) (4,) (2, 3)"),
              ("written broadcast", lambda how: operands((a, MVS_ITER_READ), (c[:1], MVS_ITER_WRITE))
               or mod.run(2, "K", how), "is broadcast to (2, 3): a reduction into it needs the REDUCE flag"),
              ("operands", lambda how: operands((a, MVS_ITER_READ)) or mod.run(9, "K", how),
               "9 operands; an iteration takes 1 to 8")]
    for kind, call, message in errors:
        for how in (0, 1):
            calls += 1
            try:
                call(how)
            except ValueError as e:
                if message not in str(e):
                    fail(f"iteration {kind}", f"{code}: {kind} (how {how}): ValueError({e}); {message!r} expected")
            else:
                fail(f"iteration {kind}", f"{code}: {kind} (how {how}): returned; ValueError expected")
            if not np.array_equal(c, c0):
                fail(f"iteration {kind}", f"{code}: {kind} (how {how}) wrote {c!r}")
    return calls


# --- pytest ----------------------------------------------------------------------------------
# test_helpers[<code>-<family>]: the helpers of one family (every N, and their const forms) on
# one dtype; test_memory[<code>]: that dtype's views of raw memory and of buffers, pools, copies
# and fills, and views of other dtypes. One generator per dtype (seeded "<seed>-<code>") runs
# through the helpers in the table's order, then the other sections, as the script did: each
# test starts from the generator's state at its first helper (or after the last), found by
# drawing the earlier cases without calling anything (helper_states), so that every test runs
# the very cases of the whole run. The options (tests/conftest.py): --cy-build (the directory of
# the ops_<code> modules), --cy-codes, --cy-view-codes (the dtypes whose view helpers are
# tested; their modules are built without --no-views), --cases (per helper and dtype, default
# 6), --seed.

DEFAULT_SEED = 20261130
DEFAULT_CASES = 6
HELPERS, CONST_HELPERS = gen_pxd.helpers(), gen_pxd.helpers(const=True)
FAMILIES = list(dict.fromkeys(h.family for h in HELPERS))


def settings(config):
    seed, cases = config.getoption("--seed"), config.getoption("--cases")
    return (DEFAULT_SEED if seed is None else seed), (DEFAULT_CASES if cases is None else cases)


def codes(config, option):
    return config.getoption(option).replace(",", " ").split() or list(DTYPES)


def pytest_generate_tests(metafunc):
    if "family" in metafunc.fixturenames:
        views = codes(metafunc.config, "--cy-view-codes")
        metafunc.parametrize("code, family", [(c, f) for c in views for f in FAMILIES],
                             ids=[f"{c}-{f}" for c in views for f in FAMILIES])
    elif "view_code" in metafunc.fixturenames:
        metafunc.parametrize("view_code", codes(metafunc.config, "--cy-view-codes"))
    elif "code" in metafunc.fixturenames:
        metafunc.parametrize("code", codes(metafunc.config, "--cy-codes"))


@functools.lru_cache(maxsize=None)
def helper_states(code, seed, cases):
    """The state of dtype `code`'s generator before each helper of HELPERS, and after the last."""
    rng = random.Random(f"{seed}-{code}")
    c = Cases(rng, DTYPES[code])
    states = []
    for h in HELPERS:
        states.append(rng.getstate())
        for k in range(cases):
            case(c, h.family, h.src, h.dst, contiguous_src=(h.family == "subview" and k % 4))
    states.append(rng.getstate())
    return states


def run_helper(mod, code, c, h, hc, cases):
    """`cases` calls of helper h and of its const form hc: (calls, expected errors, failures)."""
    family = h.family
    wrapper, const_wrapper = getattr(mod, h.name), getattr(mod, hc.name)
    calls = errors = 0
    failures = []
    for k in range(cases):
        src, call_args, fn = case(c, family, h.src, h.dst, contiguous_src=(family == "subview" and k % 4))
        exp = expect(fn, h.dst)
        # The const form on a read-only view of the same source (NumPy's result, from the
        # writable source, is written to check that the memory is shared).
        ro = src.view()
        ro.flags.writeable = False
        for name, w, source, const in ((h.name, wrapper, src, False), (hc.name, const_wrapper, ro, True)):
            calls += 1
            try:
                got = w(source, *call_args)
            except (IndexError, ValueError) as e:
                errors += 1
                problems = [] if exp is type(e) else [f"raised {type(e).__name__}: {e}; NumPy: "
                                                      + (exp.__name__ if isinstance(exp, type) else f"shape {exp.shape} strides {exp.strides}")]
                if not str(e):
                    problems.append("exception without a message")
            else:
                problems = ([f"returned a view; NumPy raises {exp.__name__}"] if isinstance(exp, type)
                            else compare(got, exp, readonly=const))
                if const and np.asarray(got).flags.writeable:
                    problems.append("the const form's result is writable in np.asarray")
            if problems:
                failures.append(f"FAIL {code}.{name}{tuple(call_args)} on shape {src.shape} strides {src.strides}: "
                                + "; ".join(problems))
    return calls, errors, failures


def test_helpers(code, family, request, record_property):
    seed, cases = settings(request.config)
    mod = importlib.import_module(f"ops_{code}")
    states = helper_states(code, seed, cases)
    rng = random.Random()
    c = Cases(rng, DTYPES[code])
    calls = errors = 0
    failures = []
    for i, (h, hc) in enumerate(zip(HELPERS, CONST_HELPERS)):
        if h.family != family:
            continue
        rng.setstate(states[i])
        n_calls, n_errors, fails = run_helper(mod, code, c, h, hc, cases)
        calls, errors, failures = calls + n_calls, errors + n_errors, failures + fails
    record_property("summary", f"{calls} calls, {errors} expected errors, {len(failures)} mismatches")
    assert calls
    assert not failures, f"{code} {family}: {len(failures)} mismatches:\n" + "\n".join(failures)


def test_memory(code, request, record_property, capsys):
    seed, cases = settings(request.config)
    mod = importlib.import_module(f"ops_{code}")
    rng = random.Random()
    rng.setstate(helper_states(code, seed, cases)[-1])
    fail = Failures()
    raw_calls, raw_failures = raw_memory(mod, code, rng, 4 * cases)
    buffer_calls = buffer_memory(mod, code, rng, 4 * cases, fail)
    pool_calls = pool_arrays(mod, code, rng, fail)
    movement_calls = data_movement(mod, code, rng, cases, fail)
    view_as_calls = reinterpreted(mod, code, rng, cases, fail)
    failures = raw_failures + fail.summary()
    record_property("summary", f"{raw_calls} calls of raw memory, {buffer_calls} of buffers, {pool_calls} of pools, "
                               f"{movement_calls} of copies and fills, {view_as_calls} of views of other dtypes, "
                               f"{failures} mismatches")
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL")]
    assert not failures, f"{code}: {failures} mismatches (the first few of each kind):\n" + "\n".join(printed)


def test_iteration(view_code, request, record_property, capsys):
    """The operand helpers, of the dtypes whose modules have them (--cy-view-codes)."""
    code = view_code
    seed, cases = settings(request.config)
    mod = importlib.import_module(f"ops_{code}")
    fail = Failures()
    calls = iteration(mod, code, random.Random(f"{seed}-{code}-iteration"), 40 * cases, fail)
    failures = fail.summary()
    record_property("summary", f"{calls} iterations and failing calls, {failures} mismatches")
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL")]
    assert not failures, f"{code}: {failures} mismatches (the first few of each kind):\n" + "\n".join(printed)



def units(mod, code, rng, cases, views, fail):
    """The helpers with parameters that carry units or an order, called by name (offset_items=,
    strides_bytes=, shape=, order=) with the order spelled each way of gen_ops.SPELLINGS (the
    str literals 'C' and 'F'; the deprecated ord('C') and int variable): from_pointer_Nd,
    from_pointer_strided_Nd, from_buffer_Nd, from_buffer_const_Nd and, with `views`,
    subview_1d_Md and reshape_2d_Md, against NumPy's array of the same memory (an offset in
    items, strides in bytes): shape, strides, data address, shared memory and values; an order
    other than 'C' or 'F' (given as a variable) raises ValueError. Returns the number of calls."""
    dtype = np.dtype(DTYPES[code])
    isz = dtype.itemsize
    calls = 0

    def check(what, call, exp, readonly=False):
        nonlocal calls
        calls += 1
        check_view(fail, "units", what, call, exp, readonly)

    for n in gen_pxd.NDIMS:
        for k in range(cases):
            spelling = gen_ops.SPELLINGS[k % len(gen_ops.SPELLINGS)]
            order = rng.choice("CF")
            shape = [rng.randint(1 if k % 4 else 0, 3) for _ in range(n)]
            count = int(np.prod(shape))
            offset = rng.randint(0, 4)
            buf = np.arange(1, offset + count + rng.randint(1, 3) + 1).astype(dtype)
            exp = np.ndarray(tuple(shape), dtype, buffer=buf, offset=offset * isz, order=order)
            args = (buf, offset, shape, order, spelling)
            what = f"(offset_items={offset}, shape={tuple(shape)}, order={order!r} spelled {spelling})"
            check(f"{code}.from_pointer_{n}d{what}", lambda: getattr(mod, f"units_from_pointer_{n}d")(*args), exp)
            check(f"{code}.from_buffer_{n}d{what}", lambda: getattr(mod, f"units_from_buffer_{n}d")(*args), exp)
            check(f"{code}.from_buffer_const_{n}d{what}", lambda: getattr(mod, f"units_from_buffer_const_{n}d")(*args),
                  exp, readonly=True)
            if spelling in ("int", "ucs4"):  # an order other than 'C' or 'F', given by a variable
                for name in (f"from_pointer_{n}d", f"from_buffer_{n}d"):
                    bad = rng.choice(["X", "c", "f", "A"])
                    calls += 1
                    expect_value_error(fail, "order", f"{code}.{name}(order={bad!r} spelled {spelling})",
                                       getattr(mod, f"units_{name}"), buf, offset, shape, bad, spelling)
            # Strides in bytes, any sign: the first item far enough in for the negative ones.
            strides = [rng.choice([-3, -1, 0, 1, 2]) * isz for _ in range(n)]
            before = sum((s - 1) * -st for s, st in zip(shape, strides) if st < 0 and s) // isz
            after = sum((s - 1) * st for s, st in zip(shape, strides) if st > 0 and s) // isz
            sbuf = np.arange(1, before + after + offset + 3).astype(dtype)
            exp = as_strided(sbuf[before + offset:], tuple(shape), tuple(strides))
            check(f"{code}.from_pointer_strided_{n}d(offset_items={before + offset}, shape={tuple(shape)}, "
                  f"strides_bytes={tuple(strides)})",
                  lambda: getattr(mod, f"units_from_pointer_strided_{n}d")(sbuf, before + offset, shape, strides), exp)
    if not views:
        return calls
    for m in gen_pxd.NDIMS:
        for k in range(cases):
            spelling = gen_ops.SPELLINGS[k % len(gen_ops.SPELLINGS)]
            order = rng.choice("CF")
            shape = [rng.randint(1, 3) for _ in range(m)]
            size = int(np.prod(shape))
            offset = rng.randint(0, 3)
            length = offset + size + (-1 if k % 5 == 4 else rng.randint(0, 2))  # one item short, now and then
            a = np.arange(1, length + 1).astype(dtype)
            exp = (a[offset:offset + size].reshape(shape, order=order) if offset + size <= a.size else ValueError)
            check(f"{code}.subview_1d_{m}d(offset_items={offset}, shape={tuple(shape)}, order={order!r} spelled {spelling})"
                  f" of {a.size} items", lambda: getattr(mod, f"units_subview_1d_{m}d")(a, offset, shape, order, spelling),
                  exp)
            # A 2-D source in either order, reshaped in either order: NumPy's view, or a copy
            # that the helper refuses.
            rows = shape[0]
            src = np.arange(1, size + 1).astype(dtype).reshape((rows, size // rows), order=rng.choice("CF"))
            src_order = "C" if src.flags.c_contiguous else "F"
            exp = expect(lambda: np.reshape(src, shape, order=order, copy=False), m)
            check(f"{code}.reshape_2d_{m}d(shape={tuple(shape)}, order={order!r} spelled {spelling}) of a {src_order}-order "
                  f"{src.shape}", lambda: getattr(mod, f"units_reshape_2d_{m}d")(src, shape, order, spelling), exp)
    return calls


def test_units(code, request, record_property, capsys):
    """The units and orders of the helpers' parameters (issue 36 item 5): units()."""
    seed, cases = settings(request.config)
    mod = importlib.import_module(f"ops_{code}")
    views = code in codes(request.config, "--cy-view-codes")
    fail = Failures()
    calls = units(mod, code, random.Random(f"{seed}-{code}-units"), 2 * cases, views, fail)
    failures = fail.summary()
    record_property("summary", f"{calls} calls by keyword, {failures} mismatches")
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL")]
    assert calls
    assert not failures, f"{code}: {failures} mismatches (the first few of each kind):\n" + "\n".join(printed)


def main():
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
