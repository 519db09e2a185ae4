#!/usr/bin/env python3
"""Writes the typed Cython helpers: include/mvs_helpers.pxi and one file per dtype,
include/mvs_<code>.pxd.

The helpers are every derivation of memviewslice.h as a `cdef inline ... nogil` function from a
typed memoryview to a typed memoryview, for every combination of source and result dimensions
(1 to 7) that the operation allows, written once in mvs_helpers.pxi for an element type `T`;
each dtype file defines `T` and includes it. Run `python3 tools/gen_pxd.py` after
changing this script; `make test` fails when the checked-in files differ from its output
(`--out DIR` writes them to DIR instead, for that comparison).
"""

import argparse
import pathlib

DTYPES = [
    ("i8", "int8_t"), ("i16", "int16_t"), ("i32", "int32_t"), ("i64", "int64_t"),
    ("u8", "uint8_t"), ("u16", "uint16_t"), ("u32", "uint32_t"), ("u64", "uint64_t"),
    ("f32", "float"), ("f64", "double"), ("c64", "float complex"), ("c128", "double complex"),
]
NDIMS = range(1, 8)  # Cython's typed memoryviews have at most 7 dimensions.


class Helper:
    """One helper: `name` from an `src`-d view to a `dst`-d one. `params` are its C parameters
    after the view; `call` is the library call, naming the source `{s}`, the source ndim `{n}`
    and the output `{o}`; `check_ndim` for calls that report the result's ndim."""

    def __init__(self, name, src, dst, params, call, doc, check_ndim=False):
        self.name, self.src, self.dst, self.params = name, src, dst, params
        self.call, self.doc, self.check_ndim = call, doc, check_ndim

    def pxd(self):
        args = ", ".join([f"view_{self.src}d a"] + self.params)
        out = "<mvs_slice *>&out, &out_ndim" if self.check_ndim else "<mvs_slice *>&out"
        lines = [
            f"cdef inline view_{self.dst}d {self.name}({args}) nogil:",
            f'    """{self.doc}"""',
            "    cdef mvs_pyx_slice out",
        ]
        if self.check_ndim:
            lines.append("    cdef int out_ndim")
        lines.append(f"    mvs_pyx_check({self.call.format(s='mvs_pyx_src(a)', n=self.src, o=out)})")
        if self.check_ndim:
            lines.append(f"    mvs_pyx_check_ndim(out_ndim, {self.dst})")
        lines.append(f"    return (<view_{self.dst}d *>&out)[0]")
        return "\n".join(lines) + "\n"


def helpers():
    """Every helper of one dtype (the dtype only enters through the view_Nd ctypedefs and
    `sizeof(T)`), sources of 1 dimension first."""
    out = []
    H = lambda *args, **kw: out.append(Helper(*args, **kw))
    for n in NDIMS:
        H(f"slice_axis_{n}d", n, n, ["int axis", "Py_ssize_t start", "Py_ssize_t stop", "Py_ssize_t step=1"],
          "mvs_slice_axis({s}, {n}, axis, start, stop, step, {o})",
          "a[..., start:stop:step, ...] on `axis` (MVS_NONE for an omitted bound).")
        H(f"flip_axis_{n}d", n, n, ["int axis"], "mvs_flip_axis({s}, {n}, axis, {o})", "a reversed along `axis`.")
        H(f"flip_{n}d", n, n, [], "mvs_flip({s}, {n}, {o})", "a reversed along every axis.")
        H(f"transpose_{n}d", n, n, [], "mvs_transpose({s}, {n}, {o})", "a.T")
        H(f"permute_{n}d", n, n, ["const int *axes"], "mvs_permute({s}, {n}, axes, {o})",
          f"a.transpose(axes): `axes` holds {n} axes.")
        H(f"swap_axes_{n}d", n, n, ["int axis1", "int axis2"], "mvs_swap_axes({s}, {n}, axis1, axis2, {o})",
          "np.swapaxes(a, axis1, axis2)")
        H(f"move_axes_{n}d", n, n, ["const int *source", "const int *destination", "int count"],
          "mvs_move_axes({s}, {n}, source, destination, count, {o})",
          "np.moveaxis(a, source[:count], destination[:count])")
        if n >= 2:
            H(f"index_axis_{n}d", n, n - 1, ["int axis", "Py_ssize_t index"], "mvs_index_axis({s}, {n}, axis, index, {o})",
              "a[..., index, ...] on `axis`; IndexError when out of range.")
            H(f"squeeze_axis_{n}d", n, n - 1, ["int axis"], "mvs_squeeze_axis({s}, {n}, axis, {o})",
              "np.squeeze(a, axis): `axis` must have length 1.")
            H(f"diagonal_{n}d", n, n - 1, ["Py_ssize_t offset=0", "int axis1=0", "int axis2=1"],
              "mvs_diagonal({s}, {n}, offset, axis1, axis2, {o})", "np.diagonal(a, offset, axis1, axis2)")
        if n <= 6:
            H(f"expand_dims_{n}d", n, n + 1, ["int axis"], "mvs_expand_dims({s}, {n}, axis, {o})", "np.expand_dims(a, axis)")
            H(f"sliding_window_{n}d", n, n + 1, ["int axis", "Py_ssize_t window", "Py_ssize_t step=1"],
              "mvs_sliding_window({s}, {n}, axis, window, step, {o})",
              "Windows of `window` items along `axis`, every `step` items, as a new last axis.")
        for m in NDIMS:
            H(f"index_{n}d_{m}d", n, m, ["const mvs_index_item *items", "int nitems"],
              "mvs_index({s}, {n}, items, nitems, {o})",
              f"a[items[0], ..., items[nitems - 1]] (NumPy's basic indexing); ValueError unless the result has {m} "
              "dimensions.", check_ndim=True)
            H(f"reshape_{n}d_{m}d", n, m, ["const Py_ssize_t *shape", "int order=b'C'"],
              f"mvs_reshape({{s}}, {{n}}, sizeof(T), {m}, shape, order, {{o}})",
              f"a.reshape(shape[:{m}], order) with no copy (one -1 allowed); ValueError when NumPy would copy.")
            H(f"subview_{n}d_{m}d", n, m, ["Py_ssize_t offset", "const Py_ssize_t *shape", "int order=b'C'"],
              f"mvs_subview({{s}}, {{n}}, sizeof(T), offset, {m}, shape, order, {{o}})",
              f"A contiguous view of shape[:{m}] starting `offset` items into the contiguous a.")
            if m >= n:
                H(f"broadcast_to_{n}d_{m}d", n, m, ["const Py_ssize_t *shape"],
                  f"mvs_broadcast_to({{s}}, {{n}}, {m}, shape, {{o}})", f"np.broadcast_to(a, shape[:{m}])")
            if m <= n:
                H(f"squeeze_{n}d_{m}d", n, m, [], "mvs_squeeze({s}, {n}, {o})",
                  f"np.squeeze(a); ValueError unless the result has {m} dimensions.", check_ndim=True)
    return out


def helpers_file():
    """include/mvs_helpers.pxi: every helper, written once for the element type `T` that the
    dtype file including it defines."""
    views = "".join(f"ctypedef T[{', '.join([':'] * n)}] view_{n}d\n" for n in NDIMS)
    from_slice = "".join(
        f"cdef inline view_{n}d from_slice_{n}d(const mvs_slice *s) nogil:\n"
        f"    cdef mvs_pyx_slice out\n"
        f"    memcpy(&out, s, sizeof(out))\n"
        f"    return (<view_{n}d *>&out)[0]\n"
        for n in NDIMS
    )
    return f'''# The typed memoryview helpers of memviewslice, for the element type T of the mvs_<dtype>.pxd
# file that includes this one (use those files, not this one).
# Generated by tools/gen_pxd.py: do not edit.
#
# Every helper takes a T memoryview of the dimensions its name says (C- or F-contiguous ones
# are accepted too), returns a view of the same memory, takes no GIL unless it fails, and then
# raises IndexError (index out of range) or ValueError with the library's message. Names:
# `op_Nd` for a source of N dimensions when the result's are implied, `op_Nd_Md` for a result
# of M. See memviewslice.pxd for how the glue works and how to add a combination missing here,
# memviewslice.h for every operation's exact rules.

from libc.string cimport memcpy
from memviewslice cimport (
    mvs_slice, mvs_index_item, mvs_pyx_slice, mvs_pyx_src, mvs_pyx_check, mvs_pyx_check_ndim,
    mvs_subview, mvs_slice_axis, mvs_index_axis, mvs_index, mvs_reshape, mvs_transpose,
    mvs_permute, mvs_swap_axes, mvs_move_axes, mvs_broadcast_to, mvs_expand_dims,
    mvs_squeeze_axis, mvs_squeeze, mvs_diagonal, mvs_flip_axis, mvs_flip, mvs_sliding_window,
)

{views}
# A library output derived from a typed memoryview (its memview copied from one, as every
# derivation does), read back as a typed memoryview; for example each piece written by
# mvs_split_sections. Never pass a view built by mvs_view_contiguous or mvs_view_strided. (Copied
# into Cython's own struct first: reading an mvs_slice through a __Pyx_memviewslice pointer would
# break C's aliasing rules.)
{from_slice}
{''.join(h.pxd() for h in helpers())}'''


def dtype_file(code, ctype):
    stdint = "from libc.stdint cimport " + ctype + "\n" if ctype.endswith("_t") else ""
    return f'''# Typed memoryview helpers of memviewslice for {ctype} (`cimport mvs_{code}`): every
# derivation, from a {ctype} memoryview of 1 to 7 dimensions to another (mvs_helpers.pxi lists
# them and their rules). Generated by tools/gen_pxd.py: do not edit.
{stdint}
ctypedef {ctype} T
include "mvs_helpers.pxi"
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent / "include",
                        help="directory to write to (default: include/)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "mvs_helpers.pxi").write_text(helpers_file())
    for code, ctype in DTYPES:
        (args.out / f"mvs_{code}.pxd").write_text(dtype_file(code, ctype))


if __name__ == "__main__":
    main()
