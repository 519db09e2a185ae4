#!/usr/bin/env python3
"""Writes ops_<code>.pyx for the NumPy comparison test (test_ops.py): for one dtype, a Python
wrapper `def` per typed helper of memviewslice/<code>.pxd (the table's, tools/ops.py; const
forms included, taking and returning read-only views), which converts its arguments, calls
the helper inside `with nogil:` and returns the resulting typed memoryview (or raises); also
wrappers of the views of raw memory (from_pointer_*), of mvs_buffers (from_buffer_*, over a
NumPy array's memory), of pools (pool_acquire_*, pool_release_*) and of the data movement
(copy_*, fill_*, copy_c_*, copy_f_*; copy_*_status calls mvs_copy itself), of the views of
another dtype's memoryview (from_<other>_*) and of the operands of an elementwise iteration
(operand_*, with run(): a sum over them by mvs_pyx_apply, by an iterator, or by ranges of one).

    python tests/cython/gen_ops.py CODE OUT.pyx [--no-views]

--no-views leaves out the wrappers of the table's view helpers (the bulk of the module) and of
the iteration's operands: the oldest Cythons' runs test those on a few dtypes only (see the
Makefile's CYTHON_OLDEST_VIEW_CODES). Like a view helper, an operand helper is one macro for
every dtype but the item size.
"""

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import gen_pxd  # noqa: E402

CTYPES = {code: ctype for code, ctype, _ in gen_pxd.DTYPES}
# C arrays behind pointer parameters, filled from Python sequences: their lengths, and the
# module's function that fills one (one loop per module, not one per wrapper; a module has those
# its wrappers call).
ARRAY_LEN = {"int": 8, "Py_ssize_t": 8, "mvs_index_item": 17}
FILL = {"int": "fill_ints", "Py_ssize_t": "fill_sizes", "mvs_index_item": "fill_items"}
FILLERS = {
    "fill_sizes": "for i, x in enumerate(seq): out[i] = x",
    "fill_ints": "for i, x in enumerate(seq): out[i] = x",
    "fill_items": "for i, x in enumerate(seq): out[i] = mvs_index_item(x[0], x[1], x[2], x[3])",
}


def fillers(body):
    """The definitions of the fill functions that `body` calls."""
    out = []
    for elem, name in FILL.items():
        if f"{name}(" in body:
            out += [f"cdef int {name}(seq, {elem} *out) except -1:", "    cdef Py_ssize_t i", f"    {FILLERS[name]}",
                    "    return 0", "", ""]
    return "\n".join(out) + ("\n" if out else "")


def returning(signature, result_type, call, setup=()):
    """The lines of `def signature:` that runs `setup`, then `r = call` with nogil, and returns
    r, a `result_type` (a typed memoryview)."""
    return ([f"def {signature}:", f"    cdef {result_type} r", *setup, "    with nogil:", f"        r = {call}",
             "    return r", ""])


def wrapper(code, h):
    params, decls, fill, call_args = [], [], [], []
    for p in h.params:
        ctype, name = p.rsplit(" ", 1)
        if name.startswith("*"):  # `const T *name`: a sequence
            name, elem = name[1:], ctype.removeprefix("const ")
            params.append(name)
            decls.append(f"    cdef {elem} {name}_c[{ARRAY_LEN[elem]}]")
            fill.append(f"    {FILL[elem]}({name}, {name}_c)")
            call_args.append(f"{name}={name}_c")
        elif name == "order":  # a character, given as 'C' or 'F'
            params.append("Py_UCS4 order='C'")
            call_args.append("order=order")
        else:
            params.append(f"{ctype} {name}")
            call_args.append(f"{name}={name}")
    ctype = CTYPES[code]
    const = "const " if h.const else ""
    args = ", ".join([f"{const}{gen_pxd.memoryview(ctype, h.src)} a"] + params)
    return "\n".join(returning(f"{h.name}({args})", f"{const}{gen_pxd.memoryview(ctype, h.dst)}",
                                f"{code}.{h.name}({', '.join(['a'] + call_args)})", decls + fill))


def raw_wrappers(code):
    """from_pointer_Nd(buf, offset, shape, order) and from_pointer_strided_Nd(buf, offset, shape,
    strides) over the memory of a 1-D array, `offset` items in (NULL data for offset -1); the
    helper's parameters given by name."""
    ctype = CTYPES[code]
    out = []
    for n in gen_pxd.NDIMS:
        for name, last, decl, arg in [(f"from_pointer_{n}d", "Py_UCS4 order", "", "order=order"),
                                      (f"from_pointer_strided_{n}d", "strides", "    cdef Py_ssize_t strides_c[8]\n"
                                       "    fill_sizes(strides, strides_c)", "strides_bytes=strides_c")]:
            out += [f"def {name}({ctype}[::1] buf, Py_ssize_t offset, shape, {last}):",
                    f"    cdef {gen_pxd.memoryview(ctype, n)} r",
                    f"    cdef {ctype} *data = NULL if offset < 0 else &buf[0] + offset",
                    "    cdef Py_ssize_t shape_c[8]",
                    "    fill_sizes(shape, shape_c)",
                    decl,
                    "    with nogil:",
                    f"        r = {code}.{name}(data=data, shape=shape_c, {arg})",
                    "    return r", "", ""]
    return "\n".join(out)


BUFFER_PROLOGUE = '''
cdef extern from *:
    """
    static long ops_deallocs = 0;
    static void ops_count_dealloc(void *data, void *ctx) { __atomic_fetch_add(&ops_deallocs, 1, __ATOMIC_SEQ_CST); }
    static long ops_dealloc_count(void) { return __atomic_load_n(&ops_deallocs, __ATOMIC_SEQ_CST); }
    """
    void ops_count_dealloc(void *data, void *ctx) noexcept nogil
    long ops_dealloc_count() noexcept nogil


def deallocs():
    """How many times the counting deallocator (from_buffer_*d(..., track=True)) has run."""
    return ops_dealloc_count()


'''


def c_order(ctype, n):
    return f"{ctype}[{', '.join([':'] * (n - 1) + ['::1'])}]"


def f_order(ctype, n):
    return f"{ctype}[{', '.join(['::1'] + [':'] * (n - 1))}]"


def buffer_wrappers(code):
    """from_buffer_Nd and from_buffer_const_Nd(buf, offset, shape, order, readonly, null, track,
    nbytes) over the memory of a 1-D array: wrapped (mvs_buffer_wrap: its first `nbytes` bytes,
    all by default, NULL data when it is empty; no deallocator, or a counting one when `track`;
    MVS_BUFFER_READONLY when `readonly`) for the call, which is made with nogil; the wrapper's
    buffer reference is released right after, so that the result alone keeps the buffer (the
    caller keeps the array). A NULL buffer when `null`."""
    ctype = CTYPES[code]
    out = []
    for n in gen_pxd.NDIMS:
        for const in ("", "const "):
            name = f"from_buffer_{'const_' if const else ''}{n}d"
            out += [f"def {name}(const {ctype}[::1] buf, Py_ssize_t offset, shape, Py_UCS4 order='C', bint readonly=False, "
                    "bint null=False, bint track=False, Py_ssize_t nbytes=-1):",
                    f"    cdef {const}{gen_pxd.memoryview(ctype, n)} r",
                    "    cdef mvs_buffer *b = NULL",
                    "    cdef void *data = NULL",
                    "    cdef mvs_dealloc_fn dealloc = NULL",
                    "    cdef Py_ssize_t shape_c[8]",
                    "    fill_sizes(shape, shape_c)",
                    "    if track:",
                    "        dealloc = ops_count_dealloc",
                    "    if buf.shape[0]:",
                    "        data = <void *> &buf[0]",
                    "    if not null:",
                    f"        mvs_pyx_check(mvs_buffer_wrap(data, buf.shape[0] * sizeof({ctype}) if nbytes < 0 else nbytes, "
                    "dealloc, NULL, "
                    "MVS_BUFFER_READONLY if readonly else 0, &b))",
                    "    with nogil:",
                    "        try:",
                    f"            r = {code}.{name}(b, offset_items=offset, shape=shape_c, order=order)",
                    "        finally:",
                    "            mvs_buffer_release(b)",
                    "    return r", "", ""]
    return "\n".join(out)


def pool_wrappers(code):
    """pool_acquire_Nd(pool, k) and pool_acquire_f_Nd(pool, k): k arrays of the pool, each
    acquired with nogil, as a list of (view, data address); pool_release_Nd(pool, view), with
    nogil."""
    ctype = CTYPES[code]
    out = []
    for n in gen_pxd.NDIMS:
        for f in ("", "f_") if n > 1 else ("",):
            name = f"pool_acquire_{f}{n}d"
            out += [f"def {name}(Pool pool not None, int k):",
                    f"    cdef {(f_order if f else c_order)(ctype, n)} r",
                    "    out = []",
                    "    for _ in range(k):",
                    "        with nogil:",
                    f"            r = {code}.{name}(pool.pool)",
                    "        out.append((r, <size_t> mvs_pyx_src(r).data))",
                    "    return out", "", ""]
        out += [f"def pool_release_{n}d(Pool pool not None, {gen_pxd.memoryview(ctype, n)} view):",
                "    with nogil:",
                f"        {code}.pool_release_{n}d(pool.pool, view)", "", ""]
    return "\n".join(out)


def movement_wrappers(code):
    """copy_Nd and copy_Md_Nd(src, dst), fill_Nd(dst, value), copy_c_Nd and copy_f_Nd(src), each
    called with nogil (the sources const: NumPy's read-only arrays are accepted); and
    copy_..._status(src, dst): mvs_copy called directly, for the library's own status and
    message, (status, message), to compare a helper's exception with."""
    ctype = CTYPES[code]
    mv = gen_pxd.memoryview
    out = []
    for m, n in gen_pxd.copy_pairs():
        name = gen_pxd.copy_name(m, n)
        out += [f"def {name}(const {mv(ctype, m)} src, {mv(ctype, n)} dst):",
                "    with nogil:",
                f"        {code}.{name}(src, dst)", "", "",
                f"def {name}_status(const {mv(ctype, m)} src, {mv(ctype, n)} dst):",
                "    cdef mvs_status status",
                "    with nogil:",
                f"        status = mvs_copy(mvs_pyx_src(src), {m}, mvs_pyx_src(dst), {n}, sizeof({ctype}))",
                "    return status, (mvs_last_error().decode() if status else '')", "", ""]
    for n in gen_pxd.NDIMS:
        out += [f"def fill_{n}d({mv(ctype, n)} dst, {ctype} value):",
                "    with nogil:",
                f"        {code}.fill_{n}d(dst, value)", "", ""]
        for o, layout in (("c", c_order), ("f", f_order)) if n > 1 else (("c", c_order),):
            out += returning(f"copy_{o}_{n}d(const {mv(ctype, n)} src)", layout(ctype, n),
                             f"{code}.copy_{o}_{n}d(src)") + [""]
    return "\n".join(out)


# The numbers of dimensions whose reinterpreting helpers (from_<other>_Nd) are tested: the
# generator writes every one the same way.
VIEW_AS_NDIMS = (1, 2, 3)


def view_as_wrappers(code):
    """from_<other>_Nd(a) and from_<other>_const_Nd(a) of the table's "view_as" operation, for
    every other dtype and N in VIEW_AS_NDIMS, each called with nogil."""
    ctype = CTYPES[code]
    mv = gen_pxd.memoryview
    out = []
    for op in gen_pxd.view_as_ops():
        for other, other_ctype, _ in gen_pxd.DTYPES:
            if other == code:
                continue
            for n in VIEW_AS_NDIMS:
                for const in ("", "const "):
                    name = gen_pxd.view_as_name(op, other, n, bool(const))
                    out += returning(f"{name}({const}{mv(other_ctype, n)} a)", f"{const}{mv(ctype, n)}",
                                     f"{code}.{name}(a)") + [""]
    return "\n".join(out)


ITERATION = '''
# The operands of the iteration wrappers: set by operand_*, used by run().
cdef mvs_operands _ops


cdef struct _Sum:
    int nop
    bint accumulate


cdef void _sum_loop(char **args, const Py_ssize_t *dimensions, const Py_ssize_t *steps, void *data) noexcept nogil:
    """A ufunc inner loop: the last operand is set to (itself plus, when accumulating) the sum
    of the others, along one run."""
    cdef _Sum *s = <_Sum *> data
    cdef int k, last = s.nop - 1
    cdef Py_ssize_t i
    cdef {ctype} acc
    for i in range(dimensions[0]):
        acc = 0
        if s.accumulate:
            acc = (<{ctype} *> (args[last] + i * steps[last]))[0]
        for k in range(last):
            acc = acc + (<{ctype} *> (args[k] + i * steps[k]))[0]
        (<{ctype} *> (args[last] + i * steps[last]))[0] = acc


cdef void _sum_runs(mvs_iter *it, _Sum *s) noexcept nogil:
    """_sum_loop over every run of `it`, from mvs_iter_next."""
    cdef char *ptrs[8]
    cdef Py_ssize_t strides[8]
    cdef Py_ssize_t count
    while mvs_iter_next(it, ptrs, &count, strides):
        _sum_loop(ptrs, &count, strides, s)


def run(int nop, Py_UCS4 order="K", int how=0, bint accumulate=False, splits=()):
    """Operand nop - 1 = (itself +) the sum of operands 0 .. nop - 2, over the operands set by
    operand_*: by mvs_pyx_apply (how 0), by mvs_pyx_iter_init and mvs_iter_next (1), or by copies
    of the iterator restricted to the ranges between `splits` (2). Returns the iteration's
    size (None for how 0)."""
    cdef _Sum s
    cdef mvs_iter it, part
    cdef Py_ssize_t size, start = 0, end
    s.nop, s.accumulate = nop, accumulate
    if how == 0:
        with nogil:
            mvs_pyx_apply(&_ops, nop, order, _sum_loop, &s)
        return None
    with nogil:
        mvs_pyx_iter_init(&it, &_ops, nop, order)
        mvs_pyx_check(mvs_iter_size(&it, &size))
    if how == 1:
        _sum_runs(&it, &s)
        return size
    for end in list(splits) + [size]:
        part = it
        mvs_pyx_check(mvs_iter_range(&part, start, end))
        _sum_runs(&part, &s)
        start = end
    return size


def operand_slice_1d(int k, {ctype}[:] view, uint32_t flags):
    """view as operand k through mvs_pyx_operand, given its struct, ndim and item size."""
    with nogil:
        mvs_pyx_operand(&_ops, k, mvs_pyx_src(view), 1, sizeof({ctype}), flags)


def operand_0d(int k, {ctype}[::1] item, uint32_t flags):
    """item[0] as operand k, 0-d."""
    with nogil:
        {code}.operand_0d(&_ops, k, &item[0], flags)


def operand_const_0d(int k, const {ctype}[::1] item):
    with nogil:
        {code}.operand_const_0d(&_ops, k, &item[0])
'''


def iteration_wrappers(code):
    """run(nop, order, how, accumulate, splits): a sum over the operands set by operand_Nd(k,
    view, flags), operand_const_Nd(k, view) (N from 0 to 7: for N = 0, a 1-item array's item)
    or operand_slice_1d(k, view, flags) (mvs_pyx_operand), each called with nogil."""
    ctype, mv = CTYPES[code], gen_pxd.memoryview
    out = [ITERATION.format(code=code, ctype=ctype)]
    for n in gen_pxd.NDIMS:
        out += ["", f"def operand_{n}d(int k, {mv(ctype, n)} view, uint32_t flags):", "    with nogil:",
                f"        {code}.operand_{n}d(&_ops, k, view, flags)", "", "",
                f"def operand_const_{n}d(int k, const {mv(ctype, n)} view):", "    with nogil:",
                f"        {code}.operand_const_{n}d(&_ops, k, view)", ""]
    return "\n".join(out)



# The spellings of an order argument that the units_* wrappers call the helpers with: the
# plain str literal 'C' or 'F' (Py_UCS4 parameters), and the deprecated int ones, ord('C') and
# an int variable holding the character; then a Py_UCS4 variable (what a caller computes).
SPELLINGS = ("str", "ord", "int", "ucs4")
SPELLING_SETUP = ["    cdef int sp = SPELLINGS.index(spelling)", "    cdef bint is_c = order == 'C'",
                  "    cdef int order_i = ord(order)", "    cdef Py_UCS4 order_u = order"]


def order_spelled(call, indent="        "):
    """The lines that set `r = call`, its `{order}` spelled as the wrapper's `spelling` says
    (see SPELLING_SETUP)."""
    branches = [("sp == 0 and is_c", "'C'"), ("sp == 0", "'F'"), ("sp == 1 and is_c", "ord('C')"),
                ("sp == 1", "ord('F')"), ("sp == 2", "order_i"), (None, "order_u")]
    out = []
    for i, (cond, arg) in enumerate(branches):
        out.append(f"{indent}{'else' if cond is None else ('if ' if i == 0 else 'elif ') + cond}:")
        out.append(f"{indent}    r = {call.format(order=arg)}")
    return out


def units_wrappers(code, views):
    """The helpers called with their parameters' names as keywords and the order spelled each
    way of SPELLINGS, for test_ops.py's test_units: units_from_pointer_Nd(buf, offset_items,
    shape, order, spelling) and units_from_pointer_strided_Nd(buf, offset_items, shape,
    strides_bytes) over the memory of a 1-D array; units_from_buffer_Nd and
    units_from_buffer_const_Nd(buf, offset_items, shape, order, spelling) over an mvs_buffer
    wrapping it; with `views`, units_subview_1d_Md(a, offset_items, shape, order, spelling) and
    units_reshape_2d_Md(a, shape, order, spelling). Each helper is called with nogil."""
    ctype, mv = CTYPES[code], gen_pxd.memoryview
    shape_setup = ["    cdef Py_ssize_t shape_c[8]", "    fill_sizes(shape, shape_c)"]
    out = ['SPELLINGS = ("' + '", "'.join(SPELLINGS) + '")', "", ""]
    for n in gen_pxd.NDIMS:
        out += [f"def units_from_pointer_{n}d({ctype}[::1] buf, Py_ssize_t offset_items, shape, order, spelling):",
                f"    cdef {mv(ctype, n)} r", f"    cdef {ctype} *data = &buf[0] + offset_items",
                *SPELLING_SETUP, *shape_setup, "    with nogil:",
                *order_spelled(f"{code}.from_pointer_{n}d(data=data, shape=shape_c, order={{order}})"),
                "    return r", "", "",
                f"def units_from_pointer_strided_{n}d({ctype}[::1] buf, Py_ssize_t offset_items, shape, strides_bytes):",
                f"    cdef {mv(ctype, n)} r", f"    cdef {ctype} *data = &buf[0] + offset_items",
                "    cdef Py_ssize_t strides_c[8]", *shape_setup, "    fill_sizes(strides_bytes, strides_c)",
                "    with nogil:",
                f"        r = {code}.from_pointer_strided_{n}d(data, shape=shape_c, strides_bytes=strides_c)",
                "    return r", "", ""]
        for const in ("", "const "):
            name = f"from_buffer_{'const_' if const else ''}{n}d"
            out += [f"def units_{name}(const {ctype}[::1] buf, Py_ssize_t offset_items, shape, order, spelling):",
                    f"    cdef {const}{mv(ctype, n)} r", "    cdef mvs_buffer *b = NULL", *SPELLING_SETUP, *shape_setup,
                    f"    mvs_pyx_check(mvs_buffer_wrap(<void *> &buf[0], buf.shape[0] * sizeof({ctype}), NULL, NULL, "
                    "MVS_BUFFER_READONLY, &b))" if const else
                    f"    mvs_pyx_check(mvs_buffer_wrap(<void *> &buf[0], buf.shape[0] * sizeof({ctype}), NULL, NULL, 0, &b))",
                    "    try:", "        with nogil:",
                    *order_spelled(f"{code}.{name}(b, offset_items=offset_items, shape=shape_c, order={{order}})",
                                   indent="            "),
                    "    finally:", "        mvs_buffer_release(b)", "    return r", "", ""]
    if views:
        for m in gen_pxd.NDIMS:
            out += [f"def units_subview_1d_{m}d({ctype}[::1] a, Py_ssize_t offset_items, shape, order, spelling):",
                    f"    cdef {mv(ctype, m)} r", *SPELLING_SETUP, *shape_setup, "    with nogil:",
                    *order_spelled(f"{code}.subview_1d_{m}d(a, offset_items=offset_items, shape=shape_c, "
                                   "order={order})"),
                    "    return r", "", "",
                    f"def units_reshape_2d_{m}d({mv(ctype, 2)} a, shape, order, spelling):",
                    f"    cdef {mv(ctype, m)} r", *SPELLING_SETUP, *shape_setup, "    with nogil:",
                    *order_spelled(f"{code}.reshape_2d_{m}d(a, shape=shape_c, order={{order}})"),
                    "    return r", "", ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description="Writes the wrapper module of one dtype for test_ops.py.")
    parser.add_argument("code")
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--no-views", action="store_true",
                        help="without the wrappers of the view helpers and of the iteration's operands")
    args = parser.parse_args()
    code, out = args.code, args.out
    helpers = [] if args.no_views else gen_pxd.helpers() + gen_pxd.helpers(const=True)
    body = ("".join(wrapper(code, h) + "\n" for h in helpers) + raw_wrappers(code)
            + BUFFER_PROLOGUE + buffer_wrappers(code) + pool_wrappers(code) + movement_wrappers(code)
            + view_as_wrappers(code) + ("" if args.no_views else iteration_wrappers(code))
            + "\n\n" + units_wrappers(code, not args.no_views))
    stdint = f"from libc.stdint cimport {', '.join(c for c in CTYPES.values() if c.endswith('_t'))}\n"
    out.write_text(f"# Generated by tests/cython/gen_ops.py for memviewslice.{code}.\n{stdint}"
                   "from memviewslice cimport (\n    mvs_index_item, mvs_buffer, mvs_buffer_wrap, mvs_buffer_release, "
                   "mvs_pyx_check, mvs_pyx_src,\n    mvs_dealloc_fn, MVS_BUFFER_READONLY, mvs_status, mvs_copy, mvs_last_error,\n"
                   "    mvs_operands, mvs_pyx_operand, mvs_pyx_apply, mvs_pyx_iter_init, mvs_iter, mvs_iter_size, mvs_iter_range,\n"
                   "    mvs_iter_next,\n)\n"
                   f"from memviewslice.owners cimport Pool\nfrom memviewslice cimport {code}\n\n\n" + fillers(body) + body)


if __name__ == "__main__":
    main()
