"""The table of memviewslice's operations on typed memoryviews: one entry per exported view
derivation and data-movement function of memviewslice.h (`make check-decls` fails when a
derivation of the header has none), most with typed Cython helpers.

The build generates from it (tools/gen_pxd.py) the typed helpers of every dtype
(memviewslice/<dtype>.pxd) and their C macros (mvs_pyx.h); the Cython helper tests
(tests/cython/gen_ops.py, test_ops.py) and `make icount` take their lists of operations from
it; `make check-decls` checks each entry's C call against the header. Adding an operation with
typed helpers is one entry here (see src/ffi/mod.rs for the rest of the path).

Each entry is a dict with these fields:

- `name`: the helper's name stem; the helpers are `<name>_Nd` (or `<name>_Nd_Md`, see `dims`)
  and their const forms `<name>_const_Nd` (`<name>_const_Nd_Md`), which take and return
  read-only views.
- `kind`: "view" (a view of the source's memory, the default), "copy" (copy_Nd and copy_Nd_Md:
  mvs_copy between views of N dimensions, or from N into M > N), "fill" (fill_Nd), "copy_contiguous"
  (copy_c_Nd and copy_f_Nd: a copy in a new buffer), "view_as" (a view of another dtype's
  view: <dtype>.from_<other>_Nd, `{isz}` the other's item size and `{new_isz}` this one's) or
  "split" (a derivation into an array of views: no typed helper, each piece is read back with
  from_slice_Nd).
- `c`: the library function.
- `args`: its arguments, a format string over `{s}` (the source), `{n}` (its number of
  dimensions), `{m}` (the result's), `{isz}` (the item size: the helper is then one macro per
  dtype) and `{o}` (the output; with `check_ndim`, the output and the result's ndim), and the
  helper's parameters by name; each other argument is named as the header names it, or with a
  unit added (see `params`; `make check-decls` compares them). The macros of "fill" and "copy_contiguous" are the
  runtime's (mvs_pyx_runtime.h): their `args` are checked, not used.
- `params`: the helper's C parameters after the source view, as C declarations (those of
  copy_Nd, fill_Nd and copy_c_Nd are the generator's: a destination view, a value). Named as
  the header names them, or with the unit added where the name alone does not say it
  (`offset_items` for an offset in items, `strides_bytes` for strides in bytes); an order is
  `Py_UCS4 order` where the header takes `int order` (Cython then takes the literal 'C'; the
  C side sees the same integer). `make check-decls` accepts exactly these differences.
- `dims`: the numbers of dimensions of source (N) and result (M), N and M from 1 to 7 (Cython's
  limit): "same" (M = N), "drop" (M = N - 1), "add" (M = N + 1), or, for helpers named
  `_Nd_Md`, "any", "up" (M >= N) or "down" (M <= N).
- `check_ndim`: the library reports the result's ndim, which must be M (ValueError otherwise).
- `doc`: the helper's one-line doc (`{n}` and `{m}` are replaced).
- `fast`: an inline fast path of mvs_inline.h, tried before the library call, over `{n}`, `{m}`
  and `{isz}` (see __MVS_PYX_FAST_BODY in mvs_pyx_runtime.h).
- `icount`: the cases of benches/icount.c that measure the operation (`make icount`).
"""

OPS = [
    dict(name="slice_axis", c="mvs_slice_axis", args="{s}, {n}, axis, start, stop, step, {o}",
         params=["int axis", "Py_ssize_t start", "Py_ssize_t stop", "Py_ssize_t step"], dims="same",
         doc="a[..., start:stop:step, ...] on `axis` (MVS_NONE for an omitted bound).",
         fast="MVS_INLINE_SLICE_AXIS(__mvs_f, (a), {n}, (axis), (start), (stop), (step), __mvs_ok)",
         icount=["slice_axis", "c_slice_axis"]),
    dict(name="flip_axis", c="mvs_flip_axis", args="{s}, {n}, axis, {o}", params=["int axis"], dims="same",
         doc="a reversed along `axis`.", icount=["flip_axis"]),
    dict(name="flip", c="mvs_flip", args="{s}, {n}, {o}", params=[], dims="same",
         doc="a reversed along every axis.", icount=["flip"]),
    dict(name="transpose", c="mvs_transpose", args="{s}, {n}, {o}", params=[], dims="same", doc="a.T",
         fast="MVS_INLINE_TRANSPOSE(__mvs_f, (a), {n}, __mvs_ok)", icount=["transpose", "c_transpose"]),
    dict(name="permute", c="mvs_permute", args="{s}, {n}, axes, {o}", params=["const int *axes"], dims="same",
         doc="a.transpose(axes): `axes` holds {n} axes.", icount=["permute"]),
    dict(name="swap_axes", c="mvs_swap_axes", args="{s}, {n}, axis1, axis2, {o}", params=["int axis1", "int axis2"],
         dims="same", doc="np.swapaxes(a, axis1, axis2)", icount=["swap_axes"]),
    dict(name="move_axes", c="mvs_move_axes", args="{s}, {n}, source, destination, count, {o}",
         params=["const int *source", "const int *destination", "int count"], dims="same",
         doc="np.moveaxis(a, source[:count], destination[:count])", icount=["move_axes"]),
    dict(name="index_axis", c="mvs_index_axis", args="{s}, {n}, axis, index, {o}",
         params=["int axis", "Py_ssize_t index"], dims="drop",
         doc="a[..., index, ...] on `axis`; IndexError when out of range.",
         fast="MVS_INLINE_INDEX_AXIS(__mvs_f, (a), {n}, (axis), (index), __mvs_ok)",
         icount=["index_axis", "c_index_axis"]),
    dict(name="squeeze_axis", c="mvs_squeeze_axis", args="{s}, {n}, axis, {o}", params=["int axis"], dims="drop",
         doc="np.squeeze(a, axis): `axis` must have length 1.", icount=["squeeze_axis"]),
    dict(name="diagonal", c="mvs_diagonal", args="{s}, {n}, offset, axis1, axis2, {o}",
         params=["Py_ssize_t offset", "int axis1", "int axis2"], dims="drop",
         doc="np.diagonal(a, offset, axis1, axis2)", icount=["diagonal"]),
    dict(name="expand_dims", c="mvs_expand_dims", args="{s}, {n}, axis, {o}", params=["int axis"], dims="add",
         doc="np.expand_dims(a, axis)", icount=["expand_dims"]),
    dict(name="sliding_window", c="mvs_sliding_window", args="{s}, {n}, axis, window, step, {o}",
         params=["int axis", "Py_ssize_t window", "Py_ssize_t step"], dims="add",
         doc="Windows of `window` items along `axis`, every `step` items, as a new last axis.",
         icount=["sliding_window"]),
    dict(name="index", c="mvs_index", args="{s}, {n}, items, nitems, {o}",
         params=["const mvs_index_item *items", "int nitems"], dims="any", check_ndim=True,
         doc="a[items[0], ..., items[nitems - 1]] (NumPy's basic indexing); ValueError unless the result has {m} "
             "dimensions.",
         fast="{{ int __mvs_fnd = -1; MVS_INLINE_INDEX(__mvs_f, (a), {n}, (items), (nitems), __mvs_fnd, __mvs_ok); "
              "__mvs_ok = __mvs_ok && __mvs_fnd == {m}; }}",
         icount=["index", "c_index"]),
    dict(name="reshape", c="mvs_reshape", args="{s}, {n}, {isz}, {m}, shape, order, {o}",
         params=["const Py_ssize_t *shape", "Py_UCS4 order"], dims="any",
         doc="a.reshape(shape[:{m}], order) with no copy (one -1 allowed); ValueError when NumPy would copy.",
         icount=["reshape", "c_reshape", "reshape_noncontig"]),
    dict(name="subview", c="mvs_subview", args="{s}, {n}, {isz}, offset_items, {m}, shape, order, {o}",
         params=["Py_ssize_t offset_items", "const Py_ssize_t *shape", "Py_UCS4 order"], dims="any",
         doc="A contiguous view of shape[:{m}] starting `offset_items` items into the contiguous a.",
         fast="MVS_INLINE_SUBVIEW(__mvs_f, (a), {n}, {isz}, (offset_items), {m}, (shape), (order), __mvs_ok)",
         icount=["subview", "c_subview", "subview_flat"]),
    dict(name="broadcast_to", c="mvs_broadcast_to", args="{s}, {n}, {m}, shape, {o}",
         params=["const Py_ssize_t *shape"], dims="up", doc="np.broadcast_to(a, shape[:{m}])",
         icount=["broadcast_to"]),
    dict(name="squeeze", c="mvs_squeeze", args="{s}, {n}, {o}", params=[], dims="down", check_ndim=True,
         doc="np.squeeze(a); ValueError unless the result has {m} dimensions.", icount=["squeeze"]),
    dict(name="view_as", kind="view_as", c="mvs_view_as", args="{s}, {n}, {isz}, {new_isz}, {o}", params=[],
         dims="same", doc="a.view(T): the items of another dtype's view as this one's.", icount=["view_as"]),
    dict(name="split_sections", kind="split", c="mvs_split_sections",
         args="{s}, {n}, axis, sections, uneven, {o}, nouts",
         params=["int axis", "Py_ssize_t sections", "int uneven", "Py_ssize_t nouts"], dims="same",
         doc="np.array_split(a, sections, axis): no typed helper (the pieces are an array of views; read each "
             "back with from_slice_Nd).", icount=["split"]),
    dict(name="split_at", kind="split", c="mvs_split_at", args="{s}, {n}, axis, indices, nindices, {o}",
         params=["int axis", "const Py_ssize_t *indices", "Py_ssize_t nindices"], dims="same",
         doc="np.split(a, indices, axis): no typed helper, as split_sections."),
    dict(name="copy", kind="copy", c="mvs_copy", args="{s}, {n}, dst, {m}, {isz}", params=[], dims="up",
         doc="dst[...] = src", icount=["copy_small"]),
    dict(name="fill", kind="fill", c="mvs_fill", args="dst, {n}, {isz}, item", params=[], dims="same",
         doc="dst[...] = value"),
    dict(name="copy_contiguous", kind="copy_contiguous", c="mvs_copy_contiguous",
         args="{s}, {n}, {isz}, order, out_buffer, {o}", params=[], dims="same",
         doc="np.ascontiguousarray(a) (copy_c_Nd), np.asfortranarray(a) (copy_f_Nd): a copy in a new buffer."),
]

# The dtypes of the typed helpers: (code, Cython type, C expression of its size: Cython's
# complex types are not C's).
DTYPES = [
    ("i8", "int8_t", "1"), ("i16", "int16_t", "2"), ("i32", "int32_t", "4"), ("i64", "int64_t", "8"),
    ("u8", "uint8_t", "1"), ("u16", "uint16_t", "2"), ("u32", "uint32_t", "4"), ("u64", "uint64_t", "8"),
    ("f32", "float", "sizeof(float)"), ("f64", "double", "sizeof(double)"),
    ("c64", "float complex", "(2 * sizeof(float))"), ("c128", "double complex", "(2 * sizeof(double))"),
]
