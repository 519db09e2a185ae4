#!/usr/bin/env python3
"""Generates memviewslice's typed Cython helpers from the table of operations (tools/ops.py):
mvs_pyx.h (a C macro per helper, on top of the hand-written include/mvs_pyx_runtime.h) and, for
the Python package, one <dtype>.pxd per dtype (`from memviewslice cimport f64`); also the
package's version files, _version.py and _abi.pxd, from Cargo.toml's version.

The build runs it (meson.build's custom_target for the wheel, the Makefile for `make install`);
nothing it writes is committed.

    python3 tools/gen_pxd.py --out DIR     # DIR/mvs_pyx.h, DIR/<dtype>.pxd, DIR/_version.py, DIR/_abi.pxd
    python3 tools/gen_pxd.py --icount      # the icount cases of the table's operations
    python3 tools/gen_pxd.py --dtypes      # the dtypes' codes

The helpers are every operation of the table from a typed memoryview to a typed memoryview,
for every combination of source and result dimensions (1 to 7) that the operation allows, and
its const form (read-only source and result); the data movement between typed memoryviews
(copy_Nd, copy_Md_Nd, fill_Nd in place; copy_c_Nd, copy_f_Nd into new buffers); the views of
raw memory (from_pointer_Nd, from_pointer_strided_Nd), of buffers (from_buffer_Nd,
from_buffer_const_Nd) and of pools (pool_acquire_Nd); the operands of elementwise iterations
(operand_Nd, operand_const_Nd, 0 to 7 dimensions: not derivations, so the generator's own, as
the views of raw memory, rather than the table's). Each is a C macro of mvs_pyx.h (the
library call, then Cython's acquisition of the result, or the Python exception) that the .pxd
files declare as an extern function returning a typed memoryview: Cython's own `cdef inline`
functions pay its memoryview-return protocol (zero-filled and copied 208-byte structs, an extra
acquisition and release), which took half the time of a helper. Each dtype file declares every
helper with its memoryview types spelled out (Cython 0.29 accepts no ctypedef'd memoryview
there); the helpers that do not depend on the item size share one macro across dtypes.

Const forms have names of their own (`slice_axis_const_2d`): no Cython of the supported range
can give one name both forms. An extern function cannot be fused ("Fused types not allowed
here") nor, in C, overloaded; a `cdef inline` function fused over `double` and `const double`
cannot be called ("ambiguous overloaded method", Cython 3.3.1: its fused dispatch does not tell
const apart), and would pay the return protocol.
"""

import argparse
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from ops import DTYPES, OPS  # noqa: E402

NDIMS = range(1, 8)  # Cython's typed memoryviews have at most 7 dimensions.
# The C type of an item in the module's C code, where fill_Nd converts its value: Cython's own
# types for complex items (float complex is __pyx_t_float_complex in C and in C++).
ITEM_CTYPES = {"c64": "__pyx_t_float_complex", "c128": "__pyx_t_double_complex"}
# The parameters of the helpers of raw memory and buffers that carry a unit or an order, named
# for it: offsets count items, strides count bytes; an order is the character 'C' or 'F', a
# Py_UCS4, so that Cython takes the str literal 'C' (every supported Cython; it refuses a bytes
# literal b'C' there) and, deprecated, an int (ord('C'), an int variable); the C macros see the
# same integer. The table's helpers (tools/ops.py) name theirs the same way.
OFFSET, STRIDES, ORDER = "Py_ssize_t offset_items", "const Py_ssize_t *strides_bytes", "Py_UCS4 order"
# The PEP 3118 format of each dtype, for the exports that owners of buffers are made from.
FORMATS = {"i8": "b", "i16": "h", "i32": "i", "i64": "q", "u8": "B", "u16": "H", "u32": "I", "u64": "Q",
           "f32": "f", "f64": "d", "c64": "Zf", "c128": "Zd"}


class TableError(Exception):
    """An entry of tools/ops.py that the generator cannot understand."""

    def __init__(self, entry, field, problem):
        super().__init__(f"tools/ops.py: the entry {entry!r}: field {field!r}: {problem}")


KINDS = ("view", "copy", "fill", "copy_contiguous", "split", "view_as")
# The (N, M) pairs of each dims rule.
DIMS = {
    "same": [(n, n) for n in NDIMS],
    "drop": [(n, n - 1) for n in NDIMS if n >= 2],
    "add": [(n, n + 1) for n in NDIMS if n <= 6],
    "any": [(n, m) for n in NDIMS for m in NDIMS],
    "up": [(n, m) for n in NDIMS for m in NDIMS if m >= n],
    "down": [(n, m) for n in NDIMS for m in NDIMS if m <= n],
}
FIELDS = {"name": str, "kind": str, "c": str, "args": str, "params": list, "dims": str, "check_ndim": bool,
          "doc": str, "fast": str, "icount": list}
REQUIRED = ("name", "c", "args", "params", "dims", "doc")
PLACEHOLDERS = {"s", "n", "m", "isz", "new_isz", "o"}


def checked(entry):
    """The entry with its defaults, or TableError naming the entry and the field."""
    name = entry.get("name", "?")
    for field, value in entry.items():
        if field not in FIELDS:
            raise TableError(name, field, f"unknown field (known: {', '.join(FIELDS)})")
        if not isinstance(value, FIELDS[field]):
            raise TableError(name, field, f"a {FIELDS[field].__name__} is needed, not {value!r}")
    for field in REQUIRED:
        if field not in entry:
            raise TableError(name, field, "missing")
    op = {"kind": "view", "check_ndim": False, "fast": None, "icount": [], **entry}
    if not re.fullmatch(r"[a-z][a-z0-9_]*", op["name"]):
        raise TableError(name, "name", "lowercase letters, digits and _ only")
    if op["kind"] not in KINDS:
        raise TableError(name, "kind", f"{op['kind']!r} is none of {', '.join(KINDS)}")
    if op["dims"] not in DIMS:
        raise TableError(name, "dims", f"{op['dims']!r} is none of {', '.join(DIMS)}")
    if not op["c"].startswith("mvs_"):
        raise TableError(name, "c", f"{op['c']!r} is not a function of memviewslice.h (mvs_...)")
    param_names = []
    for p in op["params"]:
        m = re.fullmatch(r"(?:[A-Za-z_][\w ]*?[\s*]+)?\**(\w+)", p) if isinstance(p, str) else None
        if not m:
            raise TableError(name, "params", f"{p!r} is not a C parameter declaration")
        param_names.append(m.group(1))
    for field in ("args", "fast", "doc"):
        text = op[field] or ""
        for ph in re.findall(r"(?<!\{)\{(\w*)\}(?!\})", text):
            if ph not in PLACEHOLDERS and ph not in param_names:
                raise TableError(name, field, f"{{{ph}}} names neither a placeholder ({', '.join(sorted(PLACEHOLDERS))}) "
                                 "nor a parameter")
    for a in (x.strip() for x in op["args"].split(",")):
        if not re.fullmatch(r"\{\w+\}|[A-Za-z_]\w*", a):
            raise TableError(name, "args", f"{a!r} is neither a placeholder nor a parameter's name")
    if op["kind"] == "view" and "{o}" not in op["args"]:
        raise TableError(name, "args", "a view needs the output {o}")
    if op["check_ndim"] and op["dims"] not in ("any", "up", "down"):
        raise TableError(name, "check_ndim", "only for helpers named _Nd_Md (dims any, up or down)")
    return op


def table():
    """The operations of tools/ops.py, checked."""
    ops = [checked(e) for e in OPS]
    names = [op["name"] for op in ops]
    for n in names:
        if names.count(n) > 1:
            raise TableError(n, "name", "more than one entry has it")
    return ops


def named_md(op):
    """Whether the helpers are named _Nd_Md (the result's dimensions are not implied)."""
    return op["dims"] in ("any", "up", "down")


def memoryview(ctype, ndim):
    """The typed memoryview type, spelled out: Cython 0.29 converts no memoryview to or from a
    ctypedef'd one ("not conformable"), even of the same type."""
    return f"{ctype}[{', '.join([':'] * ndim)}]"


class Helper:
    """One helper of a "view" operation: `name` from an `src`-d view to a `dst`-d one, `const`
    for the read-only form. Its C macro is the same for both forms."""

    def __init__(self, op, n, m, const=False):
        self.op, self.src, self.dst, self.const = op, n, m, const
        suffix = f"_{n}d_{m}d" if named_md(op) else f"_{n}d"
        self.family = op["name"]
        self.name = op["name"] + ("_const" if const else "") + suffix
        self.params, self.check_ndim = op["params"], op["check_ndim"]
        self.per_dtype = "{isz}" in op["args"]
        self.doc = op["doc"].format(n=n, m=m)
        self.macro_name = f"{op['name']}{suffix}"

    def cname(self, code=None):
        """The C macro's name; helpers that depend on the item size have one per dtype."""
        return f"__mvs_pyx_{code}_{self.macro_name}" if self.per_dtype else f"__mvs_pyx_{self.macro_name}"

    def call(self, src, size):
        out = "(mvs_slice *)&__mvs_r, &__mvs_nd" if self.check_ndim else "(mvs_slice *)&__mvs_r"
        return f"{self.op['c']}({self.op['args'].format(s=src, n=self.src, m=self.dst, isz=size, o=out)})"

    def macro(self, code=None, size=None):
        """The C macro: the library call into Cython's struct, then the acquisition."""
        names = ["a"] + [p.split()[-1].lstrip("*") for p in self.params]
        expected = self.dst if self.check_ndim else -1
        if self.op["fast"]:
            slow = self.call("__mvs_pyx_src(__mvs_a)", size)
            fast = self.op["fast"].format(n=self.src, m=self.dst, isz=size)
            return f"#define {self.cname(code)}({', '.join(names)}) __MVS_PYX_FAST(a, {slow}, {expected}, {fast})\n"
        return f"#define {self.cname(code)}({', '.join(names)}) __MVS_PYX_VIEW({self.call('__mvs_pyx_src(a)', size)}, {expected})\n"

    def pxd(self, code, ctype):
        """The Cython declaration (inside a `cdef extern` block), after a comment line."""
        const = "const " if self.const else ""
        args = ", ".join([f"{const}{memoryview(ctype, self.src)} a"] + self.params)
        return f"    # {self.doc}\n    {const}{memoryview(ctype, self.dst)} {self.name} \"{self.cname(code)}\"({args})\n"


def helpers(const=False):
    """Every helper of the view operations for one dtype (the dtype only enters through the
    types and the item size), sources of 1 dimension first; the const forms when `const`."""
    ops = [op for op in table() if op["kind"] == "view"]
    return [Helper(op, n, m, const) for n in NDIMS for op in ops for (sn, m) in DIMS[op["dims"]] if sn == n]


def icount_cases():
    """The benches/icount.c cases of the table's operations, in table order."""
    return [c for op in table() for c in op["icount"]]


def raw_memory(code, ctype, size):
    """The helpers of raw memory for one dtype (see mvs_pyx_runtime.h): this module's owners,
    made by _make_owner (a cdef inline function that C calls by the name Cython gives it), and
    the declarations of from_pointer_Nd and from_pointer_strided_Nd."""
    make = f"__pyx_f_12memviewslice_{len(code)}{code}__make_owner"
    pins = "".join(f'    int _pin{n} "__mvs_pyx_pin"(void *slot, {memoryview(ctype, n)} view)\n' for n in NDIMS)
    decls = "".join(
        f"    # A C- ('C') or F- ('F') contiguous view of shape[:{n}] items at `data`, as `<T[...]> data`.\n"
        f'    {memoryview(ctype, n)} from_pointer_{n}d "__mvs_pyx_{code}_from_pointer_{n}d"'
        f"({ctype} *data, const Py_ssize_t *shape, {ORDER})\n"
        f"    # A view of shape[:{n}] items at `data` with the strides strides_bytes[:{n}], in bytes (any sign, 0 repeats).\n"
        f'    {memoryview(ctype, n)} from_pointer_strided_{n}d "__mvs_pyx_{code}_from_pointer_strided_{n}d"'
        f"({ctype} *data, const Py_ssize_t *shape, {STRIDES})\n" for n in NDIMS)
    locals_ = "".join(f"    cdef {memoryview(ctype, n)} t{n}\n" for n in NDIMS)
    cases = "".join(f"    {'if' if n == 1 else 'elif'} ndim == {n}:\n"
                    f"        t{n} = <{ctype}[{', '.join([':1'] * n)}]> <{ctype} *> _dummy\n"
                    f"        _pin{n}(_owners[{n}], t{n})\n" for n in NDIMS)
    return f'''
# Views of raw memory, made in nogil code: what `<{ctype}[:n, :m]> data` gives, without the GIL.
# The caller keeps the memory alive, as with Cython's cast; the views are writable. They are
# owned by one memoryview object of this module per number of dimensions (mvs_pyx_runtime.h says how):
# the first view of each number of dimensions takes the GIL once, to make it. ValueError with
# the library's message for NULL data, a negative extent, an order other than 'C' or 'F', or
# strides whose span overflows.
cdef extern from *:
    """
    #include "mvs_pyx.h"
    __MVS_PYX_RAW_OWNERS({code}, {make})
    """
    void *_owners "__mvs_pyx_owners_{code}"[8]
    double _dummy "__mvs_pyx_dummy_{code}"[2]
    void *_owner_load "__mvs_pyx_owner_load"(void **slot)
{pins}
cdef extern from * nogil:
{decls}

cdef inline void *_make_owner(int ndim) except NULL:
    """This module's owner of {ctype} views of `ndim` dimensions, made and pinned on the first
    call (with the GIL; C calls it as {make})."""
    cdef void *owner = _owner_load(&_owners[ndim])
    if owner != NULL:
        return owner
{locals_}{cases}    return _owner_load(&_owners[ndim])
'''


def owned_memory(code, ctype, size):
    """The helpers of buffers and pools for one dtype (see mvs_pyx_runtime.h): the keys of this
    module's owners, _make_buffer_owner (which C calls by the name Cython gives it) and
    _release_owner (the detach callback), and the declarations."""
    make = f"__pyx_f_12memviewslice_{len(code)}{code}__make_buffer_owner"
    attach = "".join(
        f'    void *_attach{"_c" if c else ""}{n} "__mvs_pyx_attach"(mvs_buffer *buffer, const void *key, '
        f'{"const " if c else ""}{memoryview(ctype, n)} view, mvs_detach_fn detach) except NULL\n'
        for n in NDIMS for c in (0, 1))
    c_order = lambda n: f"{ctype}[{', '.join([':'] * (n - 1) + ['::1'])}]"
    f_order = lambda n: f"{ctype}[{', '.join(['::1'] + [':'] * (n - 1))}]"
    decls = "".join(
        f"    # A C- ('C') or F- ('F') contiguous view of shape[:{n}] items starting `offset_items` items into the buffer.\n"
        f'    {memoryview(ctype, n)} from_buffer_{n}d "__mvs_pyx_{code}_from_buffer_{n}d"'
        f"(mvs_buffer *buffer, {OFFSET}, const Py_ssize_t *shape, {ORDER})\n"
        f'    const {memoryview(ctype, n)} from_buffer_const_{n}d "__mvs_pyx_{code}_from_buffer_const_{n}d"'
        f"(mvs_buffer *buffer, {OFFSET}, const Py_ssize_t *shape, {ORDER})\n"
        f"    # An array of a pool of {n}-d {ctype} arrays (memviewslice.owners.Pool), and giving it back.\n"
        f'    {c_order(n)} pool_acquire_{n}d "__mvs_pyx_{code}_pool_acquire_{n}d"(mvs_pool *pool)\n'
        + (f'    {f_order(n)} pool_acquire_f_{n}d "__mvs_pyx_{code}_pool_acquire_f_{n}d"(mvs_pool *pool)\n' if n > 1 else "")
        + f'    int pool_release_{n}d "__mvs_pyx_pool_release"(mvs_pool *pool, {memoryview(ctype, n)} view) except -1\n'
        for n in NDIMS)
    locals_ = "".join(f"    cdef {memoryview(ctype, n)} t{n}\n    cdef const {memoryview(ctype, n)} c{n}\n" for n in NDIMS)
    cases = "".join(f"    {'if' if n == 1 else 'elif'} ndim == {n}:\n"
                    f"        if is_const:\n"
                    f"            c{n} = e\n"
                    f"            return _attach_c{n}(buffer, key, c{n}, _release_owner)\n"
                    f"        t{n} = e\n"
                    f"        return _attach{n}(buffer, key, t{n}, _release_owner)\n" for n in NDIMS)
    return f'''
# Views of mvs_buffers and arrays of pools, made in nogil code; each keeps its memory alive (the
# buffer's deallocator runs once, after the last view, NumPy array or memoryview made from it).
# from_buffer_Nd needs a writable buffer; from_buffer_const_Nd takes any, and its views (and
# NumPy arrays made from them) are read-only. The caller holds a reference to the buffer during
# the call, and may release it right after: the views keep the memory, not the reference. The
# owner of a buffer's views is one memoryview object of this module per buffer, number of
# dimensions and constness, attached to the buffer (mvs_pyx_runtime.h says how): the first view
# of each kind of a buffer (of each slab, for a pool) takes the GIL once, to make it; the others
# take none while the buffer has references. Const views derive through the helpers' const
# forms (`slice_axis_const_2d`). ValueError with the library's message for a NULL buffer,
# a negative offset or extent, an order other than 'C' or 'F', a shape that does not fit the
# buffer, a writable view of a read-only buffer; for a pool of other arrays, an array given
# back twice or not from the pool.

cdef extern from *:
    """
    __MVS_PYX_BUFFER_OWNERS({code}, {make})
    """
    char _keys "__mvs_pyx_keys_{code}"[2][8]
{attach}
cdef extern from * nogil:
    {ctype}[:] _adopt "__mvs_pyx_adopt"(void *owner)
{decls}

cdef inline void _release_owner(void *owner) noexcept nogil:
    """The detach callback of this module's owners: releases the attachment's acquisition of
    `owner`, as the end of a typed memoryview's life does."""
    cdef {ctype}[:] v = _adopt(owner)


cdef inline void *_make_buffer_owner(mvs_buffer *buffer, int ndim, int is_const) except NULL:
    """This module's owner of {ctype} views of `buffer` of `ndim` dimensions, const ones when
    `is_const`: made and attached on the first call (with the GIL; C calls it as
    {make})."""
    cdef const void *key = &_keys[is_const][ndim]
{locals_}    e = _owner_export(buffer, ndim, {size}, b"{FORMATS[code]}", is_const)
{cases}    return NULL
'''




def raw_memory_macros(code, size):
    """The macros of from_pointer_Nd and from_pointer_strided_Nd for one dtype (mvs_pyx.h)."""
    return "".join(
        f"#define __mvs_pyx_{code}_from_pointer_{n}d(data, shape, order) "
        f"__MVS_PYX_FROM_POINTER({size}, {n}, (data), (shape), (order), &__mvs_pyx_owners_{code}[{n}], "
        f"__mvs_pyx_owner_{code}({n}))\n"
        f"#define __mvs_pyx_{code}_from_pointer_strided_{n}d(data, shape, strides_bytes) "
        f"__MVS_PYX_VIEW(__mvs_pyx_owned(mvs_view_strided((void *)(data), {size}, {n}, (shape), (strides_bytes), "
        f"(mvs_slice *)&__mvs_r), (mvs_slice *)&__mvs_r, {n}, (data), __mvs_pyx_owner_{code}({n})), -1)\n" for n in NDIMS)


def owned_memory_macros(code, size):
    """The macros of from_buffer_Nd, from_buffer_const_Nd, pool_acquire_Nd, pool_acquire_f_Nd,
    copy_c_Nd and copy_f_Nd for one dtype (mvs_pyx.h)."""
    key = f"&__mvs_pyx_keys_{code}"
    macros = "".join(
        f"#define __mvs_pyx_{code}_from_buffer{'_const' if c else ''}_{n}d(buffer, offset_items, shape, order) "
        f"__MVS_PYX_VIEW(__mvs_pyx_buffer_owned(mvs_buffer_view_at((buffer), (offset_items), {size}, {n}, (shape), (order), "
        f"{1 - c}, (mvs_slice *)&__mvs_r), (mvs_slice *)&__mvs_r, (buffer), {key}[{c}][{n}], {n}, {c}, "
        f"__mvs_pyx_make_buffer_owner_{code}), -1)\n" for n in NDIMS for c in (0, 1))
    macros += "".join(
        f"#define __mvs_pyx_{code}_pool_acquire{'_f' if o == 'F' else ''}_{n}d(pool) "
        f"__MVS_PYX_POOL({size}, {n}, '{o}', (pool), {key}[0][{n}], __mvs_pyx_make_buffer_owner_{code})\n"
        for n in NDIMS for o in ("CF" if n > 1 else "C"))
    return macros


def copy_name(n, m):
    """copy_Nd for sources and destinations of N dimensions, copy_Nd_Md from N < M."""
    return f"copy_{n}d" if n == m else f"copy_{n}d_{m}d"


def copy_pairs():
    """The (source, destination) dimensions of the copy helpers."""
    return [pair for op in table() if op["kind"] == "copy" for pair in DIMS[op["dims"]]]


def movement_macros(op, code, ctype, size):
    """The macros of a data-movement operation for one dtype (mvs_pyx.h)."""
    pairs = DIMS[op["dims"]]
    if op["kind"] == "copy":
        return "".join(f"#define __mvs_pyx_{code}_{copy_name(n, m)}(src, dst) __mvs_pyx_check_status("
                       f"{op['c']}({op['args'].format(s='__mvs_pyx_src(src)', n=n, m=m, isz=size)}))\n"
                       .replace(" dst,", " __mvs_pyx_src(dst),") for n, m in pairs)
    if op["kind"] == "fill":
        item = ITEM_CTYPES.get(code, ctype)
        return "".join(f"#define __mvs_pyx_{code}_fill_{n}d(dst, value) __MVS_PYX_FILL(dst, {n}, {item}, value)\n"
                       for n, _ in pairs)
    key = f"&__mvs_pyx_keys_{code}"
    return "".join(
        f"#define __mvs_pyx_{code}_copy_{o.lower()}_{n}d(src) __MVS_PYX_COPY(src, {n}, {size}, '{o}', {key}[0][{n}], "
        f"__mvs_pyx_make_buffer_owner_{code})\n" for n, _ in pairs for o in ("CF" if n > 1 else "C"))


MOVEMENT_DOCS = {
    "copy": """
    # Data movement, in place. copy_Nd(src, dst) is `dst[...] = src` for N-d src and dst, where
    # an axis of extent 1 of src repeats along dst's; copy_Nd_Md(src, dst) the same for a src of
    # N < M dimensions, its axes aligned with dst's last N (NumPy's and Cython's broadcasting).
    # src is read as if copied to a temporary first, so any overlap with dst is fine (the library
    # allocates that temporary only where the two may overlap); src may be const. Each returns
    # 0, takes no GIL unless it fails, and raises ValueError with the library's message
    # (mvs_copy): for shapes that do not broadcast, or a dst that repeats items (an axis of
    # stride 0 and extent > 1).
""",
    "fill": """
    # fill_Nd(dst, value) sets every item of dst to value (mvs_fill; dst may repeat items). It
    # returns 0, takes no GIL unless it fails, and then raises ValueError with the library's
    # message.
""",
    "copy_contiguous": """
    # Contiguous copies, made in nogil code: copy_c_Nd(src) is np.ascontiguousarray(src), a new
    # T[..., ::1], and copy_f_Nd(src) (N >= 2) np.asfortranarray(src), a new T[::1, ...]; src may
    # be const, the copy is writable. Each is a new mvs_buffer (mvs_copy_contiguous: 64-byte
    # aligned, exactly the items) whose only owner is the copy: its memory is freed once, after
    # the last view, NumPy array or memoryview made from the copy. As for any buffer's first view,
    # each call takes the GIL once, to make the new buffer's owner (one memoryview object per
    # buffer); derived views take none. The copy's last view, dropped in nogil code, takes the GIL
    # once more to free it, as the last release of any Cython memoryview object does (none when
    # dropped with the GIL). ValueError with the library's message when the copy's size overflows
    # or its memory cannot be allocated.
""",
}


def movement_decls(op, code, ctype):
    """The declarations of a data-movement operation for one dtype (.pxd)."""
    mv, pairs = memoryview, DIMS[op["dims"]]
    if op["kind"] == "copy":
        out = "".join(f'    int {copy_name(n, m)} "__mvs_pyx_{code}_{copy_name(n, m)}"'
                      f"(const {mv(ctype, n)} src, {mv(ctype, m)} dst) except -1\n" for n, m in pairs)
    elif op["kind"] == "fill":
        out = "".join(f'    int fill_{n}d "__mvs_pyx_{code}_fill_{n}d"({mv(ctype, n)} dst, {ctype} value) except -1\n'
                      for n, _ in pairs)
    else:
        c_order = lambda n: f"{ctype}[{', '.join([':'] * (n - 1) + ['::1'])}]"
        f_order = lambda n: f"{ctype}[{', '.join(['::1'] + [':'] * (n - 1))}]"
        out = "".join(
            f'    {c_order(n)} copy_c_{n}d "__mvs_pyx_{code}_copy_c_{n}d"(const {mv(ctype, n)} src)\n'
            + (f'    {f_order(n)} copy_f_{n}d "__mvs_pyx_{code}_copy_f_{n}d"(const {mv(ctype, n)} src)\n' if n > 1 else "")
            for n, _ in pairs)
    return MOVEMENT_DOCS[op["kind"]] + out


ITERATION_DOC = """
    # Operands of an elementwise iteration (mvs_pyx_iter_init, mvs_pyx_apply of __init__.pxd):
    # operand_Nd(&ops, k, view, flags) stores a copy of an N-d view as operand k of `ops` (an
    # mvs_operands on the stack), with this dtype's item size and `flags` (MVS_ITER_READ,
    # MVS_ITER_WRITE, MVS_ITER_READWRITE, with MVS_ITER_REDUCE for a written operand that may
    # be broadcast); operand_const_Nd(&ops, k, view) a read-only one, read; operand_0d(&ops, k,
    # &item, flags) and operand_const_0d(&ops, k, &item) the one item at a pointer, as a 0-d
    # operand (a scalar). Each returns 0, takes no GIL unless it fails, and then raises
    # ValueError: k not in 0..MVS_ITER_MAX_OPERANDS - 1, a NULL item. The iteration checks the
    # rest (shapes, flags, overlap). No acquisition is taken: keep the views alive while
    # iterating.
"""


def iteration_decls(code, ctype):
    """The declarations of the operand helpers for one dtype (.pxd)."""
    ops = "mvs_operands *ops, int k"
    out = (f'    int operand_0d "__mvs_pyx_operand_0d"({ops}, {ctype} *item, uint32_t flags) except -1\n'
           f'    int operand_const_0d "__mvs_pyx_operand_const_0d"({ops}, const {ctype} *item) except -1\n')
    out += "".join(f'    int operand_{n}d "__mvs_pyx_{code}_operand_{n}d"({ops}, {memoryview(ctype, n)} view, '
                   f"uint32_t flags) except -1\n"
                   f'    int operand_const_{n}d "__mvs_pyx_{code}_operand_const_{n}d"({ops}, '
                   f"const {memoryview(ctype, n)} view) except -1\n" for n in NDIMS)
    return ITERATION_DOC + out


def iteration_macros(code, size):
    """The macros of operand_Nd and operand_const_Nd for one dtype (mvs_pyx.h; those of 0-d
    operands are the runtime's, for every dtype)."""
    return "".join(f"#define __mvs_pyx_{code}_operand_{n}d(ops, k, view, flags) "
                   f"__MVS_PYX_OPERAND(ops, k, view, {n}, {size}, flags)\n"
                   f"#define __mvs_pyx_{code}_operand_const_{n}d(ops, k, view) "
                   f"__MVS_PYX_OPERAND(ops, k, view, {n}, {size}, MVS_ITER_READ)\n" for n in NDIMS)


def movement_ops():
    return [op for op in table() if op["kind"] in ("copy", "fill", "copy_contiguous")]


def view_as_ops():
    return [op for op in table() if op["kind"] == "view_as"]


def view_as_name(op, source, n, const):
    """<dtype>.from_<source>_Nd: a view of a `source` typed memoryview as this dtype."""
    return f"from_{source}{'_const' if const else ''}_{n}d"


def view_as_macros(op, code, size):
    """The macros of the reinterpreting helpers whose results are of dtype `code` (mvs_pyx.h):
    the library's view, given this module's owner of raw views of `code` (the const one for
    the const forms)."""
    out = []
    for source, _, source_size in DTYPES:
        if source == code:
            continue
        for n, _ in DIMS[op["dims"]]:
            for const in (False, True):
                call = op["args"].format(s="__mvs_pyx_src(a)", n=n, isz=source_size, new_isz=size,
                                         o="(mvs_slice *)&__mvs_r")
                owner = f"__mvs_pyx_{'const_' if const else ''}owner_{code}"
                out.append(f"#define __mvs_pyx_{code}_{view_as_name(op, source, n, const)}(a) __MVS_PYX_VIEW("
                           f"__mvs_pyx_reinterpreted({op['c']}({call}), (mvs_slice *)&__mvs_r, (a).memview, {owner}, {n}), -1)\n")
    return "".join(out)


def view_as_decls(op, code, ctype):
    """The declarations of the reinterpreting helpers into dtype `code` (.pxd)."""
    out = [f"""
    # Views of another dtype's typed memoryview as {ctype}: from_<other>_Nd(a) is
    # a.view({ctype}) in NumPy ({op['c']}: the same memory, the last axis rescaled; it must be
    # contiguous unless the item sizes are equal), from_<other>_const_Nd(a) the same for a
    # read-only a, read-only. Like from_pointer_Nd's, the result is a view of raw memory with
    # this module's owner: it does not keep a's memory alive (keep a, or what a views, while
    # it is used); the first view of each number of dimensions (and constness) takes the GIL
    # once, to make the owner. ValueError with the library's message where NumPy refuses.
"""]
    for source, source_ctype, _ in DTYPES:
        if source == code:
            continue
        for n, _ in DIMS[op["dims"]]:
            for const in (False, True):
                c = "const " if const else ""
                name = view_as_name(op, source, n, const)
                out.append(f'    {c}{memoryview(ctype, n)} {name} "__mvs_pyx_{code}_{name}"'
                           f"({c}{memoryview(source_ctype, n)} a)\n")
    return "".join(out)


def dtype_file(code, ctype, size):
    """memviewslice/<code>.pxd: every helper for one element type."""
    # The integer types of this dtype and of the sources of its reinterpreting helpers, and the
    # operand helpers' flags.
    ints = [t for c, t, _ in DTYPES if t.endswith("_t") and (t == ctype or view_as_ops())]
    stdint = f"from libc.stdint cimport {', '.join(dict.fromkeys(ints + ['uint32_t']))}\n"
    views = "".join(f"ctypedef {memoryview(ctype, n)} view_{n}d\n" for n in NDIMS)
    from_slice = "".join(f'    {memoryview(ctype, n)} from_slice_{n}d "__mvs_pyx_from_slice"(const mvs_slice *s)\n'
                         for n in NDIMS)
    views_decls = "".join(h.pxd(code, ctype) for h in helpers())
    const_decls = "".join(h.pxd(code, ctype) for h in helpers(const=True))
    movement = "".join(movement_decls(op, code, ctype) for op in movement_ops())
    movement += "".join(view_as_decls(op, code, ctype) for op in view_as_ops()) + iteration_decls(code, ctype)
    return f'''# Typed memoryview helpers of memviewslice for {ctype} (`from memviewslice cimport {code}`):
# every derivation, from a {ctype} memoryview of 1 to 7 dimensions to another; copies and fills;
# the operands of elementwise iterations.
# Generated by the build (tools/gen_pxd.py, from the table tools/ops.py).
#
# Every derivation takes a memoryview of the dimensions its name says (C- or F-contiguous ones
# are accepted too), returns a view of the same memory, takes no GIL unless it fails, and then
# raises IndexError (index out of range) or ValueError with the library's message. Names:
# `op_Nd` for a source of N dimensions when the result's are implied, `op_Nd_Md` for a result
# of M; `op_const_Nd` and `op_const_Nd_Md` take and return read-only views (const {ctype}[...]),
# of read-only NumPy arrays or of from_buffer_const_Nd, say: the same macro, at the same speed.
# Every parameter is required (MVS_NONE for an omitted slice bound), and may be given by name.
# Each helper is a C macro of mvs_pyx.h, declared here as an extern function. See __init__.pxd
# for how the glue works and how to add a combination missing here, memviewslice.h for every
# operation's exact rules.
#
# Units: offsets into memory are in items (`offset_items`), strides in bytes (`strides_bytes`);
# slice bounds, indices, windows and steps count items along an axis, and diagonal_Nd's
# `offset` is NumPy's (which diagonal). An order is the character 'C' or 'F', given as the str
# literal (a Py_UCS4 parameter): `{code}.subview_1d_2d(buf, offset_items=6, shape=s, order='C')`.
# Deprecated: the order as an int (`ord('C')`, or an int variable holding it) still works in
# this release and will be removed in the next; the bytes literal `b'C'` of earlier releases
# no longer compiles (Cython refuses a bytes literal for a Py_UCS4 parameter): write 'C'.

{stdint}from memviewslice cimport mvs_slice, mvs_index_item, mvs_buffer, mvs_pool, mvs_detach_fn, mvs_operands
from memviewslice.owners cimport owner_export as _owner_export

# Names of the memoryview types, for pointer casts such as `(<view_2d *>&out)[0]` (Cython 0.29
# converts no memoryview to or from them: declare variables with the type spelled out there).
{views}
cdef extern from "mvs_pyx.h" nogil:
    # A library output derived from a typed memoryview (its memview copied from one, as every
    # derivation does), read back as a typed memoryview; for example each piece written by
    # mvs_split_sections. ValueError for a view built by mvs_view_contiguous or
    # mvs_view_strided (their memview is NULL).
{from_slice}
{views_decls}
    # The same derivations of read-only views.
{const_decls}{movement}{raw_memory(code, ctype, size)}{owned_memory(code, ctype, size)}'''


def header_file():
    """mvs_pyx.h: the macro of every helper; those that depend on the item size once per
    dtype."""
    shared = [h for h in helpers() if not h.per_dtype]
    sized = [h for h in helpers() if h.per_dtype]
    per_dtype = "".join(f"\n/* {ctype} */\n" + "".join(h.macro(code, size) for h in sized)
                        + "".join(movement_macros(op, code, ctype, size) for op in movement_ops())
                        + "".join(view_as_macros(op, code, size) for op in view_as_ops())
                        + raw_memory_macros(code, size) + owned_memory_macros(code, size) + iteration_macros(code, size)
                        for code, ctype, size in DTYPES)
    return ("/* The typed Cython helpers of memviewslice: one C macro per helper of the <dtype>.pxd files, on\n"
            " * top of mvs_pyx_runtime.h. Generated by the build (tools/gen_pxd.py, from the table\n"
            " * tools/ops.py). */\n#ifndef MVS_PYX_H\n#define MVS_PYX_H\n\n#include \"mvs_pyx_runtime.h\"\n\n"
            + "".join(h.macro() for h in shared) + per_dtype + "\n#endif /* MVS_PYX_H */\n")


def version():
    """The crate's version, the one version of everything."""
    text = (HERE.parent / "Cargo.toml").read_text()
    return re.search(r'^version = "([^"]+)"$', text, re.MULTILINE).group(1)


def version_files(v):
    """_version.py and _abi.pxd: the type that every module cimporting memviewslice.owners
    imports at its own import, named for the version its .pxd files came from. The package
    (__init__.py) defines that name only for its own version, and refuses any other."""
    token = re.sub(r"[^0-9A-Za-z]", "_", v)
    py = f'''"""The package's version (generated by the build from Cargo.toml, tools/gen_pxd.py)."""

__version__ = "{v}"
# The name of the type that modules compiled against this version import (_abi.pxd).
ABI_TYPE = "abi_{token}"
'''
    pxd = f'''# Generated by the build from Cargo.toml's version (tools/gen_pxd.py).
#
# The version check of modules built against memviewslice: a module that cimports
# memviewslice.owners imports this type when it is imported. The installed package defines it
# only if it is the version these files came from; otherwise the import fails with ImportError,
# naming both versions (memviewslice/__init__.py).
cdef extern from *:
    ctypedef class memviewslice.abi_{token} [object PyObject, check_size ignore]:
        pass
'''
    return py, pxd


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", type=pathlib.Path, help="the directory to write the files in")
    what.add_argument("--icount", action="store_true", help="print the icount cases of the table's operations")
    what.add_argument("--dtypes", action="store_true", help="print the dtypes' codes")
    args = parser.parse_args()
    try:
        if args.icount or args.dtypes:
            print(" ".join(icount_cases() if args.icount else [code for code, _, _ in DTYPES]))
            return 0
        files = {"mvs_pyx.h": header_file()}
        files.update({f"{code}.pxd": dtype_file(code, ctype, size) for code, ctype, size in DTYPES})
        files["_version.py"], files["_abi.pxd"] = version_files(version())
    except TableError as e:
        print(f"gen_pxd: {e}", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.out / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
