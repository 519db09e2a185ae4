#!/usr/bin/env python3
"""Every typed Cython helper of every dtype against NumPy.

For each module ops_<code> (built from gen_ops.py's wrappers: each calls one helper inside
`with nogil:`), every helper is called on random NumPy sources (C and F order, sliced with
steps, flipped, broadcast with stride 0) with random arguments, valid and invalid, and
compared with NumPy doing the same: the result's data address, shape and strides (except the
free choices: strides of length-1 axes, address and strides of empty results), that it shares
the source's memory (a write through the result is seen in the source), and on failure the
exception type: IndexError where NumPy raises IndexError, ValueError otherwise (also when the
result's ndim is not the helper's).

    PYTHONPATH=build/cython_tests python tests/cython/test_ops.py [--cases N] [--seed S] [CODE ...]
"""

import argparse
import importlib
import pathlib
import random
import sys

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
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


def compare(got, exp):
    """Problems of the helper's result (a Cython memoryview) against NumPy's array `exp`."""
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
        if not problems:  # the same memory: a write through the result is seen in the source
            first = (0,) * g.ndim
            old = exp[first]
            g[first] = 7
            seen = exp[first] == 7
            g[first] = old
            if not seen:
                problems.append("a write through the result is not seen in the source")
    return problems


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
            bad = rng.choice(["extent", "order", "null"]) if k % 3 == 0 else None
            for fn, args, exp in tests:
                calls += 1
                if bad == "extent":
                    args = args[:2] + ((-1,) + tuple(shape[1:]),) + args[3:]
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


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("codes", nargs="*", default=list(DTYPES))
    p.add_argument("--cases", type=int, default=6, help="cases per helper and dtype")
    p.add_argument("--seed", type=int, default=20261130)
    args = p.parse_args()

    helpers = gen_pxd.helpers()
    failures, calls, errors = 0, 0, 0
    for code in args.codes:
        mod = importlib.import_module(f"ops_{code}")
        rng = random.Random(f"{args.seed}-{code}")
        c = Cases(rng, DTYPES[code])
        for h in helpers:
            family = h.name.split(f"_{h.src}d")[0]
            wrapper = getattr(mod, h.name)
            for k in range(args.cases):
                src, call_args, fn = case(c, family, h.src, h.dst, contiguous_src=(family == "subview" and k % 4))
                exp = expect(fn, h.dst)
                calls += 1
                try:
                    got = wrapper(src, *call_args)
                except (IndexError, ValueError) as e:
                    errors += 1
                    problems = [] if exp is type(e) else [f"raised {type(e).__name__}: {e}; NumPy: "
                                                          + (exp.__name__ if isinstance(exp, type) else f"shape {exp.shape} strides {exp.strides}")]
                    if not str(e):
                        problems.append("exception without a message")
                else:
                    problems = ([f"returned a view; NumPy raises {exp.__name__}"] if isinstance(exp, type)
                                else compare(got, exp))
                if problems:
                    failures += 1
                    if failures <= 20:
                        print(f"FAIL {code}.{h.name}{tuple(call_args)} on shape {src.shape} strides {src.strides}: "
                              + "; ".join(problems))
        raw_calls, raw_failures = raw_memory(mod, code, rng, 4 * args.cases)
        calls, failures = calls + raw_calls, failures + raw_failures
    print(f"{len(args.codes)} dtypes x {len(helpers)} helpers and the views of raw memory: {calls} calls "
          f"({errors} expected errors of the helpers), {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
