"""The elementwise iteration (mvs_iter_init, mvs_iter_next, mvs_iter_range, mvs_apply) against
NumPy's nditer, through ctypes: random operands (0 to 5 dimensions, zero-size and length-1
axes, negative, zero and transposed strides, broadcast, 1 to 4 operands); the elements visited
in C and F order are nditer's, in its order; K order visits each element once; ranges split
at random points visit every element once; add and a reduction through mvs_apply equal
NumPy's; the refusals are NumPy's (shapes that do not broadcast, a written operand broadcast
without REDUCE) or the library's own (overlap, flags, order, operand count).

    .venv/bin/python -m pytest tests/test_numpy_iter.py -q [--mvs-lib PATH] [--seed N] [--cases N]
"""

import ctypes as C
import random

import numpy as np
import pytest

import numpy_oracle as no

READ, WRITE, READWRITE, REDUCE = 1, 2, 3, 4
ITER_BYTES = 1024
DEFAULT_SEED, DEFAULT_CASES = 20261205, 400
Iter = C.c_uint64 * (ITER_BYTES // 8)
LOOP = C.CFUNCTYPE(None, C.POINTER(C.c_void_p), C.POINTER(C.c_ssize_t), C.POINTER(C.c_ssize_t), C.c_void_p)


@pytest.fixture(scope="module")
def lib(request):
    lib = no.load_library(request.config.getoption("--mvs-lib"))
    S, ssize = C.POINTER(no.Slice), C.c_ssize_t
    for name, args in {
        "mvs_iter_init": [C.c_void_p, C.c_int, C.POINTER(S), C.POINTER(C.c_int), C.POINTER(ssize),
                          C.POINTER(C.c_uint32), C.c_int],
        "mvs_iter_size": [C.c_void_p, C.POINTER(ssize)],
        "mvs_iter_range": [C.c_void_p, ssize, ssize],
        "mvs_iter_next": [C.c_void_p, C.POINTER(C.c_void_p), C.POINTER(ssize), C.POINTER(ssize)],
        "mvs_apply": [C.c_int, C.POINTER(S), C.POINTER(C.c_int), C.POINTER(ssize), C.POINTER(C.c_uint32), C.c_int,
                      LOOP, C.c_void_p],
    }.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = C.c_int
    return lib


def settings(config):
    seed, cases = config.getoption("--seed"), config.getoption("--cases")
    return (DEFAULT_SEED if seed is None else seed), (DEFAULT_CASES if cases is None else cases)


def slice_of(a):
    s = no.Slice()
    s.data = no.addr(a)
    for i in range(no.MAX_DIMS):
        s.shape[i] = a.shape[i] if i < a.ndim else 0
        s.strides[i] = a.strides[i] if i < a.ndim else 0
        s.suboffsets[i] = -1
    return s


class Args:
    """The C arguments of an iteration over `arrays` with `flags`."""

    def __init__(self, arrays, flags):
        n = len(arrays)
        self.slices = [slice_of(a) for a in arrays]
        self.ops = (C.POINTER(no.Slice) * n)(*[C.pointer(s) for s in self.slices])
        self.ndims = (C.c_int * n)(*[a.ndim for a in arrays])
        self.itemsizes = (C.c_ssize_t * n)(*[a.itemsize for a in arrays])
        self.flags = (C.c_uint32 * n)(*flags)
        self.n = n

    def init(self, lib, order):
        it = Iter()
        st = lib.mvs_iter_init(it, self.n, self.ops, self.ndims, self.itemsizes, self.flags, ord(order))
        return st, it


def visits(lib, it, n):
    """The operands' element addresses of every element visited, in order."""
    ptrs, strides, count = (C.c_void_p * n)(), (C.c_ssize_t * n)(), C.c_ssize_t()
    out = []
    while lib.mvs_iter_next(it, ptrs, C.byref(count), strides):
        for i in range(count.value):
            out.append(tuple((ptrs[k] or 0) + i * strides[k] for k in range(n)))
    return out


def nditer_visits(arrays, order):
    """The same from NumPy's nditer: its multi-indices in its order, as addresses."""
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    if 0 in shape:
        return []
    it = np.nditer(arrays, flags=["multi_index", "refs_ok", "zerosize_ok"], order=order,
                   op_flags=[["readonly"]] * len(arrays))
    out = []
    for _ in it:
        idx = it.multi_index
        row = []
        for a in arrays:
            skip = len(shape) - a.ndim
            row.append(no.addr(a) + sum(idx[skip + d] * a.strides[d] for d in range(a.ndim) if a.shape[d] != 1))
        out.append(tuple(row))
    return out


def filled(dims):
    """A C-contiguous float64 array of `dims` holding 0, 1, 2, ..."""
    return np.arange(float(np.prod(dims))).reshape(dims)


def operand(r, shape):
    """A random float64 array that broadcasts to `shape`: some leading axes missing, some axes
    of length 1, strides from slicing, flipping, transposing or a zero stride."""
    skip = r.randrange(len(shape) + 1) if r.random() < 0.3 else 0
    dims = [n if r.random() < 0.8 else 1 for n in shape[skip:]]
    kind = r.choice(["C", "F", "sliced", "flipped", "transposed", "zero"])
    if kind == "F":
        return np.asfortranarray(filled(dims))
    if kind == "sliced":
        steps = [r.choice([1, 2, 3]) for _ in dims]
        base = filled([n * s for n, s in zip(dims, steps)])
        return base[tuple(slice(None, None, s) for s in steps) + (Ellipsis,)]  # (a 0-d view, not a scalar)
    if kind == "flipped":
        return filled(dims)[tuple(slice(None, None, r.choice([1, -1])) for _ in dims) + (Ellipsis,)]
    if kind == "transposed" and len(dims) > 1:
        perm = list(range(len(dims)))
        r.shuffle(perm)
        base = filled([dims[p] for p in perm])
        return base.transpose(np.argsort(perm))
    if kind == "zero" and dims:
        base = filled(dims)
        axis = r.randrange(len(dims))
        return np.lib.stride_tricks.as_strided(base, dims, [0 if i == axis else s for i, s in enumerate(base.strides)])
    return filled(dims)


def random_case(r):
    nd = r.choice([0, 1, 2, 2, 3, 3, 4, 5])
    shape = tuple(r.choice([0, 1, 2, 3, 4]) if r.random() < 0.9 else 1 for _ in range(nd))
    if r.random() < 0.8:
        shape = tuple(max(n, 1) for n in shape)
    return [operand(r, shape) for _ in range(r.randint(1, 4))]


def test_orders_and_ranges(lib, request, record_property):
    seed, cases = settings(request.config)
    r = random.Random(seed)
    counts = {"C": 0, "F": 0, "K": 0, "range": 0}
    for case in range(cases):
        arrays = random_case(r)
        args = Args(arrays, [READ] * len(arrays))
        for order in "CFK":
            st, it = args.init(lib, order)
            assert st == 0, f"case {case}: {order} order: {lib.mvs_last_error()}"
            got = visits(lib, it, len(arrays))
            expected = nditer_visits(arrays, order if order != "K" else "C")
            if order == "K":
                assert sorted(got) == sorted(expected), f"case {case}: K order does not visit each element once"
            else:
                assert got == expected, f"case {case}: {order} order differs from nditer's on {[a.shape for a in arrays]}"
            counts[order] += 1
        # ranges: K order split at random points
        st, it = args.init(lib, "K")
        whole = visits(lib, it, len(arrays))
        cuts = sorted(r.randint(0, len(whole)) for _ in range(r.randint(0, 3)))
        pieces = []
        for start, end in zip([0] + cuts, cuts + [len(whole)]):
            st, it = args.init(lib, "K")
            assert lib.mvs_iter_range(it, start, end) == 0
            pieces += visits(lib, it, len(arrays))
        assert pieces == whole, f"case {case}: ranges at {cuts} do not make the whole iteration"
        counts["range"] += 1
    record_property("summary", f"{counts}")


@LOOP
def add_loop(args, dims, steps, data):
    n = dims[0]
    for i in range(n):
        a = C.c_double.from_address(args[0] + i * steps[0]).value
        b = C.c_double.from_address(args[1] + i * steps[1]).value
        C.c_double.from_address(args[2] + i * steps[2]).value = a + b


@LOOP
def sum_loop(args, dims, steps, data):
    for i in range(dims[0]):
        out = C.c_double.from_address(args[1] + i * steps[1])
        out.value += C.c_double.from_address(args[0] + i * steps[0]).value


def apply(lib, arrays, flags, order, loop):
    args = Args(arrays, flags)
    return lib.mvs_apply(args.n, args.ops, args.ndims, args.itemsizes, args.flags, ord(order), loop, None)


def test_add_and_reduce(lib, request):
    seed, cases = settings(request.config)
    r = random.Random(seed + 1)
    for case in range(cases // 4):
        a, b = random_case(r)[0], None
        b = operand(r, a.shape)
        c = np.full(np.broadcast_shapes(a.shape, b.shape), np.nan)
        if r.random() < 0.5 and c.ndim > 1:
            c = np.full(c.shape[::-1], np.nan).T  # a transposed output
        for order in "KCF":
            assert apply(lib, [a, b, c], [READ, READ, WRITE], order, add_loop) == 0, lib.mvs_last_error()
            np.testing.assert_array_equal(c, a + b, err_msg=f"case {case}, {order} order")
        if a.ndim:
            s = np.zeros(a.shape[:-1] + (1,))
            assert apply(lib, [a, s], [READ, READWRITE | REDUCE], "K", sum_loop) == 0, lib.mvs_last_error()
            np.testing.assert_allclose(s[..., 0], a.sum(axis=-1), err_msg=f"case {case}: the reduction")


def test_tiled_add_and_reduce(lib, request):
    """K order walks a transposed operand in tiles (4 x 128 items, rows longer than 2560 items):
    add and a row-sum over one, with edge tiles and an outer axis, equal NumPy's."""
    seed, _ = settings(request.config)
    r = np.random.default_rng(seed + 2)
    for case in range(3):
        outer, rows, cols = int(r.integers(1, 3)), int(r.integers(8, 14)), int(r.integers(2561, 2900))
        a = r.standard_normal((outer, rows, cols))
        bt = r.standard_normal((cols, rows)).T
        c = np.full(a.shape, np.nan)
        assert apply(lib, [a, bt, c], [READ, READ, WRITE], "K", add_loop) == 0, lib.mvs_last_error()
        np.testing.assert_array_equal(c, a + bt, err_msg=f"case {case}: {a.shape}")
        s = np.zeros((rows, 1))
        assert apply(lib, [bt, s], [READ, READWRITE | REDUCE], "K", sum_loop) == 0, lib.mvs_last_error()
        np.testing.assert_allclose(s[:, 0], bt.sum(axis=1), err_msg=f"case {case}: the reduction")


def status(lib, arrays, flags, order="K", nop=None):
    args = Args(arrays, flags)
    it = Iter()
    return lib.mvs_iter_init(it, args.n if nop is None else nop, args.ops, args.ndims, args.itemsizes, args.flags,
                             ord(order))


def test_refusals_match_numpy(lib):
    a, b = np.zeros((2, 3)), np.zeros(4)
    with pytest.raises(ValueError, match="could not be broadcast"):
        np.nditer([a, b])
    assert status(lib, [a, b], [READ, READ]) == no.ERR_SHAPE
    assert lib.mvs_last_error().decode() == "operands could not be broadcast together with shapes (2, 3) (4,)"
    row = np.zeros(3)
    with pytest.raises(ValueError, match="requires a reduction"):
        np.nditer([a, row], op_flags=[["readonly"], ["writeonly"]])
    assert status(lib, [a, row], [READ, WRITE]) == no.ERR_BROADCAST
    np.nditer([a, row], flags=["reduce_ok"], op_flags=[["readonly"], ["readwrite"]])
    assert status(lib, [a, row], [READ, READWRITE | REDUCE]) == 0
    # the library's own: unknown flags, REDUCE without write, order, operand count, overlap
    assert status(lib, [a], [8]) == no.ERR_VALUE
    assert status(lib, [a], [READ | REDUCE]) == no.ERR_VALUE
    assert status(lib, [a], [READ], order="X") == no.ERR_VALUE
    assert status(lib, [a] * 8 + [np.zeros((2, 3))], [READ] * 9) == no.ERR_VALUE
    base = np.zeros(10)
    assert status(lib, [base[:-1], base[1:]], [READ, WRITE]) == no.ERR_OVERLAP
    assert status(lib, [base, base], [READ, WRITE]) == 0  # in place
    assert status(lib, [base[:5], base[5:]], [READ, WRITE]) == 0  # disjoint
    assert status(lib, [base[1::2], base[::2]], [READ, WRITE]) == 0  # interleaved: no element shared
    assert not np.shares_memory(base[1::2], base[::2])
    assert status(lib, [base[::-2], base[1::2]], [READ, WRITE]) == no.ERR_OVERLAP
    assert np.shares_memory(base[::-2], base[1::2])
