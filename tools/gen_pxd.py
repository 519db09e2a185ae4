#!/usr/bin/env python3
"""Writes the typed Cython helpers: include/mvs_pyx.h (their C side), and in the Python package
python/memviewslice/ one file per dtype, <code>.pxd (`from memviewslice cimport f64`); also the
package's version files, _version.py and _abi.pxd, from Cargo.toml's version.

The helpers are every derivation of memviewslice.h from a typed memoryview to a typed
memoryview, for every combination of source and result dimensions (1 to 7) that the operation
allows, and the data movement between typed memoryviews (copy_Nd, copy_Md_Nd, fill_Nd in place;
copy_c_Nd, copy_f_Nd into new buffers). Each is a C macro in mvs_pyx.h (the library call, then Cython's acquisition of the
result, or the Python exception) that the .pxd files declare as an extern function returning a
typed memoryview: Cython's own `cdef inline` functions pay its memoryview-return protocol
(zero-filled and copied 208-byte structs, an extra acquisition and release), which took half
the time of a helper. Each dtype file declares every helper with its memoryview types spelled
out (Cython 0.29 accepts no ctypedef'd memoryview there); the helpers that do not depend on
the item size share one macro across dtypes. Each dtype file also has the views of raw memory,
from_pointer_Nd and from_pointer_strided_Nd, with the owners they need (raw_memory below, and
mvs_pyx.h). Run `python3 tools/gen_pxd.py` after changing this script or the version; `make
test` fails when the checked-in files differ from its output (`--out DIR` writes them under DIR
instead of the repository, for that comparison).
"""

import argparse
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent

# (code, Cython type, C expression of its size: Cython's complex types are not C's).
DTYPES = [
    ("i8", "int8_t", "1"), ("i16", "int16_t", "2"), ("i32", "int32_t", "4"), ("i64", "int64_t", "8"),
    ("u8", "uint8_t", "1"), ("u16", "uint16_t", "2"), ("u32", "uint32_t", "4"), ("u64", "uint64_t", "8"),
    ("f32", "float", "sizeof(float)"), ("f64", "double", "sizeof(double)"),
    ("c64", "float complex", "(2 * sizeof(float))"), ("c128", "double complex", "(2 * sizeof(double))"),
]
NDIMS = range(1, 8)  # Cython's typed memoryviews have at most 7 dimensions.
# The C type of an item in the module's C code, where fill_Nd converts its value: Cython's own
# types for complex items (float complex is __pyx_t_float_complex in C and in C++).
ITEM_CTYPES = {"c64": "__pyx_t_float_complex", "c128": "__pyx_t_double_complex"}
# The PEP 3118 format of each dtype, for the exports that owners of buffers are made from.
FORMATS = {"i8": "b", "i16": "h", "i32": "i", "i64": "q", "u8": "B", "u16": "H", "u32": "I", "u64": "Q",
           "f32": "f", "f64": "d", "c64": "Zf", "c128": "Zd"}


class Helper:
    """One helper: `name` from an `src`-d view to a `dst`-d one. `params` are its C parameters
    after the view; `call` is the library call, naming the source `{s}`, the source ndim `{n}`,
    the item size `{isz}` (for helpers declared per dtype) and the output `{o}`; `check_ndim`
    for calls that report the result's ndim; `fast`, an inline fast path of mvs_inline.h (naming
    the source ndim `{n}`, the result's `{m}` and the item size `{isz}`) tried before the call
    (see __MVS_PYX_FAST_BODY)."""

    def __init__(self, name, src, dst, params, call, doc, check_ndim=False, fast=None):
        self.name, self.src, self.dst, self.params = name, src, dst, params
        self.call, self.doc, self.check_ndim, self.fast = call, doc, check_ndim, fast
        self.per_dtype = "{isz}" in call

    def cname(self, code=None):
        """The C macro's name; helpers that depend on the item size have one per dtype."""
        return f"__mvs_pyx_{code}_{self.name}" if self.per_dtype else f"__mvs_pyx_{self.name}"

    def macro(self, code=None, size=None):
        """The C macro: the library call into Cython's struct, then the acquisition."""
        names = ["a"] + [p.split()[-1].lstrip("*") for p in self.params]
        out = "(mvs_slice *)&__mvs_r, &__mvs_nd" if self.check_ndim else "(mvs_slice *)&__mvs_r"
        call = self.call.format(s="__mvs_pyx_src(a)", n=self.src, isz=size, o=out)
        expected = self.dst if self.check_ndim else -1
        if self.fast:
            slow = self.call.format(s="__mvs_pyx_src(__mvs_a)", n=self.src, isz=size, o=out)
            fast = self.fast.format(n=self.src, m=self.dst, isz=size)
            return f"#define {self.cname(code)}({', '.join(names)}) __MVS_PYX_FAST(a, {slow}, {expected}, {fast})\n"
        return f"#define {self.cname(code)}({', '.join(names)}) __MVS_PYX_VIEW({call}, {expected})\n"

    def pxd(self, code, ctype):
        """The Cython declaration (inside a `cdef extern` block), after a comment line."""
        args = ", ".join([f"{memoryview(ctype, self.src)} a"] + self.params)
        cname = self.cname(code if self.per_dtype else None)
        return f"    # {self.doc}\n    {memoryview(ctype, self.dst)} {self.name} \"{cname}\"({args})\n"


def memoryview(ctype, ndim):
    """The typed memoryview type, spelled out: Cython 0.29 converts no memoryview to or from a
    ctypedef'd one ("not conformable"), even of the same type."""
    return f"{ctype}[{', '.join([':'] * ndim)}]"


def helpers():
    """Every helper of one dtype (the dtype only enters through the view_Nd ctypedefs and
    the item size), sources of 1 dimension first."""
    out = []
    H = lambda *args, **kw: out.append(Helper(*args, **kw))
    for n in NDIMS:
        H(f"slice_axis_{n}d", n, n, ["int axis", "Py_ssize_t start", "Py_ssize_t stop", "Py_ssize_t step"],
          "mvs_slice_axis({s}, {n}, axis, start, stop, step, {o})",
          "a[..., start:stop:step, ...] on `axis` (MVS_NONE for an omitted bound).",
          fast="MVS_INLINE_SLICE_AXIS(__mvs_f, (a), {n}, (axis), (start), (stop), (step), __mvs_ok)")
        H(f"flip_axis_{n}d", n, n, ["int axis"], "mvs_flip_axis({s}, {n}, axis, {o})", "a reversed along `axis`.")
        H(f"flip_{n}d", n, n, [], "mvs_flip({s}, {n}, {o})", "a reversed along every axis.")
        H(f"transpose_{n}d", n, n, [], "mvs_transpose({s}, {n}, {o})", "a.T",
          fast="MVS_INLINE_TRANSPOSE(__mvs_f, (a), {n}, __mvs_ok)")
        H(f"permute_{n}d", n, n, ["const int *axes"], "mvs_permute({s}, {n}, axes, {o})",
          f"a.transpose(axes): `axes` holds {n} axes.")
        H(f"swap_axes_{n}d", n, n, ["int axis1", "int axis2"], "mvs_swap_axes({s}, {n}, axis1, axis2, {o})",
          "np.swapaxes(a, axis1, axis2)")
        H(f"move_axes_{n}d", n, n, ["const int *source", "const int *destination", "int count"],
          "mvs_move_axes({s}, {n}, source, destination, count, {o})",
          "np.moveaxis(a, source[:count], destination[:count])")
        if n >= 2:
            H(f"index_axis_{n}d", n, n - 1, ["int axis", "Py_ssize_t index"], "mvs_index_axis({s}, {n}, axis, index, {o})",
              "a[..., index, ...] on `axis`; IndexError when out of range.",
              fast="MVS_INLINE_INDEX_AXIS(__mvs_f, (a), {n}, (axis), (index), __mvs_ok)")
            H(f"squeeze_axis_{n}d", n, n - 1, ["int axis"], "mvs_squeeze_axis({s}, {n}, axis, {o})",
              "np.squeeze(a, axis): `axis` must have length 1.")
            H(f"diagonal_{n}d", n, n - 1, ["Py_ssize_t offset", "int axis1", "int axis2"],
              "mvs_diagonal({s}, {n}, offset, axis1, axis2, {o})", "np.diagonal(a, offset, axis1, axis2)")
        if n <= 6:
            H(f"expand_dims_{n}d", n, n + 1, ["int axis"], "mvs_expand_dims({s}, {n}, axis, {o})", "np.expand_dims(a, axis)")
            H(f"sliding_window_{n}d", n, n + 1, ["int axis", "Py_ssize_t window", "Py_ssize_t step"],
              "mvs_sliding_window({s}, {n}, axis, window, step, {o})",
              "Windows of `window` items along `axis`, every `step` items, as a new last axis.")
        for m in NDIMS:
            H(f"index_{n}d_{m}d", n, m, ["const mvs_index_item *items", "int nitems"],
              "mvs_index({s}, {n}, items, nitems, {o})",
              f"a[items[0], ..., items[nitems - 1]] (NumPy's basic indexing); ValueError unless the result has {m} "
              "dimensions.", check_ndim=True,
              fast="{{ int __mvs_fnd = -1; MVS_INLINE_INDEX(__mvs_f, (a), {n}, (items), (nitems), __mvs_fnd, __mvs_ok); "
                   "__mvs_ok = __mvs_ok && __mvs_fnd == {m}; }}")
            H(f"reshape_{n}d_{m}d", n, m, ["const Py_ssize_t *shape", "int order"],
              f"mvs_reshape({{s}}, {{n}}, {{isz}}, {m}, shape, order, {{o}})",
              f"a.reshape(shape[:{m}], order) with no copy (one -1 allowed); ValueError when NumPy would copy.")
            H(f"subview_{n}d_{m}d", n, m, ["Py_ssize_t offset", "const Py_ssize_t *shape", "int order"],
              f"mvs_subview({{s}}, {{n}}, {{isz}}, offset, {m}, shape, order, {{o}})",
              f"A contiguous view of shape[:{m}] starting `offset` items into the contiguous a.",
              fast="MVS_INLINE_SUBVIEW(__mvs_f, (a), {n}, {isz}, (offset), {m}, (shape), (order), __mvs_ok)")
            if m >= n:
                H(f"broadcast_to_{n}d_{m}d", n, m, ["const Py_ssize_t *shape"],
                  f"mvs_broadcast_to({{s}}, {{n}}, {m}, shape, {{o}})", f"np.broadcast_to(a, shape[:{m}])")
            if m <= n:
                H(f"squeeze_{n}d_{m}d", n, m, [], "mvs_squeeze({s}, {n}, {o})",
                  f"np.squeeze(a); ValueError unless the result has {m} dimensions.", check_ndim=True)
    return out


HEADER = r"""/* The C side of memviewslice's typed Cython helpers (memviewslice/<dtype>.pxd) and of the
 * glue in memviewslice/__init__.pxd. Generated by tools/gen_pxd.py: do not edit.
 *
 * Every helper is a macro that Cython's generated C expands inside the module, where Cython's
 * __Pyx_memviewslice and __PYX_INC_MEMVIEW are defined (this header is included before them).
 * It evaluates to a __Pyx_memviewslice holding the library's result and one more acquisition of
 * the source's memoryview object (an atomic increment with no GIL: the source holds one), or,
 * when the call fails, to one whose memview is NULL with the Python exception set; Cython reads
 * that NULL as the error. (The in-place copies and fills evaluate to 0, or to -1 with the
 * exception set.) The macros need GCC's or Clang's statement expressions, or C++11. */
#ifndef MVS_PYX_H
#define MVS_PYX_H

#include <stddef.h>
#include <Python.h>
#include "memviewslice.h"
#include "mvs_inline.h"

/* The Cythons the helpers are tested with (make cython-oldest): 0.29.37, and 3.0.11 or newer.
   Cython 3.0.0 to 3.0.10 take the GIL at the exit of every nogil function holding a
   memoryview. */
#if defined(CYTHON_HEX_VERSION) && (CYTHON_HEX_VERSION < 0x001D25F0 || \
    (CYTHON_HEX_VERSION >= 0x03000000 && CYTHON_HEX_VERSION < 0x03000BF0))
#error "memviewslice's Cython helpers need Cython 0.29.37, or 3.0.11 or newer"
#endif

/* Cython's __Pyx_memviewslice and mvs_slice have one layout: checked wherever __mvs_pyx_src is
   expanded. */
#define __MVS_PYX_SAME_LAYOUT \
    (sizeof(__Pyx_memviewslice) == sizeof(mvs_slice) && \
     offsetof(__Pyx_memviewslice, memview) == offsetof(mvs_slice, memview) && \
     offsetof(__Pyx_memviewslice, data) == offsetof(mvs_slice, data) && \
     offsetof(__Pyx_memviewslice, shape) == offsetof(mvs_slice, shape) && \
     offsetof(__Pyx_memviewslice, strides) == offsetof(mvs_slice, strides) && \
     offsetof(__Pyx_memviewslice, suboffsets) == offsetof(mvs_slice, suboffsets) && \
     sizeof(Py_ssize_t) == sizeof(ptrdiff_t))

/* The address of a typed memoryview as a library source; a compile error (array of size -1)
   when the layouts differ. Valid C11 and C++11. Reached through the shape array rather than
   `&(view)`, so that it works without a copy on a variable and also on what has no address:
   Cython passes a memoryview converted to a helper's type (double[::1] to double[:]) as a cast,
   whose array member designates a temporary that lives until the end of the call. */
#define __mvs_pyx_src(view) \
    ((void)sizeof(char[__MVS_PYX_SAME_LAYOUT ? 1 : -1]), \
     (const mvs_slice *)(const void *)((const char *)(view).shape - offsetof(mvs_slice, shape)))

/* Sets the Python exception for a failed call, taking the GIL: IndexError for MVS_ERR_INDEX,
   ValueError otherwise, with this thread's mvs_last_error() message. Returns -1. */
static inline int __mvs_pyx_raise(mvs_status status) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyErr_SetString(status == MVS_ERR_INDEX ? PyExc_IndexError : PyExc_ValueError, mvs_last_error());
    PyGILState_Release(gil);
    return -1;
}

/* 0 when a result has the number of dimensions its typed memoryview expects; otherwise sets
   ValueError, taking the GIL, and returns -1. */
static inline int __mvs_pyx_check_ndim(int got, int expected) {
    if (got == expected) return 0;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyErr_Format(PyExc_ValueError, "the result has %d dimensions; the typed memoryview expects %d", got, expected);
    PyGILState_Release(gil);
    return -1;
}

/* Sets ValueError for a result with no memoryview object (its source was not a Cython
   memoryview, or was not initialized), taking the GIL, unless an exception is set already (an
   owner of raw memory could not be made). Returns -1. */
static inline int __mvs_pyx_raise_unowned(void) {
    PyGILState_STATE gil = PyGILState_Ensure();
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "the source has no memoryview object: it is not a typed memoryview, "
                                          "or is not initialized");
    PyGILState_Release(gil);
    return -1;
}

/* Typed memoryviews of raw memory (from_pointer_Nd, from_pointer_strided_Nd of the <dtype>.pxd
   files). Cython takes the GIL only when a memoryview object's acquisition count goes 0 -> 1 or
   1 -> 0; so each module has, per dtype and number of dimensions, one owner: a memoryview object
   made by the module's own Cython (its type, layout, format and item size; its ndim too, which
   Cython's `.T` reads from the object) over a dummy item, with one acquisition that is never
   released. A view of raw memory is the library's view (built inline by mvs_inline.h) with
   that owner in `memview`: its acquisition and release are atomic additions, with no GIL. The
   owners are made on the first view of each kind, taking the GIL once, and live as long as the
   process. */

/* `status` of the library call that wrote the `ndim`-d view `r` of `data`, with `owner` put in
   r's memview on success. Left NULL, with the exception set, for NULL data under a view of one
   item or more (as Cython's cast refuses it) or when the owner could not be made; the helper
   raises that exception. */
static inline mvs_status __mvs_pyx_owned(mvs_status status, mvs_slice *r, int ndim, const void *data, void *owner) {
    if (status != MVS_OK) return status;
    if (!data) {
        Py_ssize_t items = 1;
        for (int i = 0; i < ndim; i++) items *= r->shape[i];
        if (items) {
            PyGILState_STATE gil = PyGILState_Ensure();
            PyErr_Format(PyExc_ValueError, "the data pointer is NULL for a view of %zd items", items);
            PyGILState_Release(gil);
            return MVS_OK;
        }
    }
    r->memview = owner;
    return MVS_OK;
}

/* The owner in `*slot`, or NULL when none is published yet. */
static inline void *__mvs_pyx_owner_load(void *const *slot) { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); }

/* With the GIL: publishes `view`'s memoryview object as the owner in `slot` unless another
   thread did first, then pins it with an acquisition that is never released. */
static inline int __mvs_pyx_publish(void **slot, void *memview) {
    void *expected = NULL;
    return __atomic_compare_exchange_n(slot, &expected, memview, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
#define __mvs_pyx_pin(slot, view) \
    (__mvs_pyx_publish(&(slot), (void *)(view).memview) ? (__PYX_INC_MEMVIEW(&(view), 1), 1) : 0)

/* Typed memoryviews of buffers and pools (from_buffer_Nd, from_buffer_const_Nd,
   pool_acquire_Nd and pool_acquire_f_Nd of the <dtype>.pxd files). A view's owner is a
   memoryview object made by the module's own Cython over an export of the buffer
   (memviewslice.owners.owner_export) that holds a memory reference to it
   (mvs_buffer_retain_memory). The owner is attached to the buffer (mvs_buffer_attach) under a
   key per module, dtype, ndim and constness, and the attachment holds one acquisition of it.
   So while the buffer has references, its views are made and dropped with atomic additions:
   only the first view of each kind takes the GIL, once, to make the owner. At the buffer's
   last reference the attachment's acquisition is released (the detach callback): the owner,
   hence the memory, lives on while views made from it (typed memoryviews, NumPy arrays,
   memoryviews) do, and the last of them frees it, taking the GIL as any Cython memoryview's
   last release does. A pool's slabs are buffers, of which the pool holds the references. */

/* Makes the owner of `buffer`'s views of `ndim` dimensions (const ones when `is_const`),
   taking the GIL; NULL with the exception set when it cannot. */
typedef void *(*__mvs_pyx_make_fn)(mvs_buffer *buffer, int ndim, int is_const);

/* `status` of the library call that wrote the view `r` of `buffer`, with the owner attached
   under `key` (made by `make` when there is none yet) put in r's memview on success. Left
   NULL, with the exception set, when the owner could not be made. */
static inline mvs_status __mvs_pyx_buffer_owned(mvs_status status, mvs_slice *r, mvs_buffer *buffer, const void *key,
                                                int ndim, int is_const, __mvs_pyx_make_fn make) {
    if (status != MVS_OK) return status;
    void *owner = NULL;
    (void)mvs_buffer_attached(buffer, key, &owner); /* cannot fail: buffer is not NULL */
    r->memview = owner ? owner : make(buffer, ndim, is_const);
    return MVS_OK;
}

/* An array of `pool` checked to be `ndim`-d, of `itemsize`-byte items, contiguous in `order`,
   into `r`, with its slab's owner (as __mvs_pyx_buffer_owned). An array whose owner could not
   be made is given back. */
static inline mvs_status __mvs_pyx_pool_owned(mvs_pool *pool, ptrdiff_t itemsize, int ndim, int order, mvs_slice *r,
                                              const void *key, __mvs_pyx_make_fn make) {
    mvs_buffer *slab = NULL;
    mvs_status status = mvs_pool_acquire_slab(pool, itemsize, ndim, order, key, r, &slab);
    if (status == MVS_OK && !r->memview && !(r->memview = make(slab, ndim, 0)))
        (void)mvs_pool_release(pool, r);
    return status;
}

/* With the GIL: attaches the memoryview object in `slot` (the memview field of a typed
   memoryview variable) to `buffer` under `key`, unless an owner is attached already, and
   returns the owner attached. When the variable's object is attached, its acquisition moves to
   the attachment (the variable is left empty, and `detach` releases the acquisition). NULL with
   ValueError on failure. The field is read and cleared with memcpy and memset: its type is
   Cython's. */
static inline void *__mvs_pyx_attach_owner(mvs_buffer *buffer, const void *key, void *slot, mvs_detach_fn detach) {
    void *memview, *owner = NULL;
    memcpy(&memview, slot, sizeof memview);
    mvs_status status = mvs_buffer_attach(buffer, key, memview, detach, &owner);
    if (status != MVS_OK) {
        PyErr_SetString(PyExc_ValueError, mvs_last_error());
        return NULL;
    }
    if (owner == memview) memset(slot, 0, sizeof memview);
    return owner;
}
#define __mvs_pyx_attach(buffer, key, view, detach) \
    __mvs_pyx_attach_owner((buffer), (key), (void *)&(view).memview, (detach))

/* A typed memoryview holding the acquisition of `owner` that an attachment held, for the detach
   callback to release it as Cython releases any view. */
#define __mvs_pyx_adopt_body(owner) \
    __Pyx_memviewslice __mvs_a; \
    void *__mvs_o = (owner); \
    memset(&__mvs_a, 0, sizeof __mvs_a); \
    memcpy(&__mvs_a.memview, &__mvs_o, sizeof __mvs_o);

/* 0 for MVS_OK; otherwise raises as __mvs_pyx_raise does, and returns -1. */
static inline int __mvs_pyx_check_status(mvs_status status) { return status == MVS_OK ? 0 : __mvs_pyx_raise(status); }

/* Gives an array acquired with pool_acquire_Nd back to `pool` (only view.data is read). */
#define __mvs_pyx_pool_release(pool, view) __mvs_pyx_check_status(mvs_pool_release((pool), __mvs_pyx_src(view)))

/* Data movement (copy_Nd, copy_Md_Nd, fill_Nd, copy_c_Nd and copy_f_Nd of the <dtype>.pxd
   files). copy and fill are the library call, then 0, or -1 with the exception set as
   __mvs_pyx_raise does (taking the GIL on that path only); they touch no memoryview object. */
#define __mvs_pyx_copy(src, src_ndim, dst, dst_ndim, itemsize) \
    __mvs_pyx_check_status(mvs_copy(__mvs_pyx_src(src), (src_ndim), __mvs_pyx_src(dst), (dst_ndim), (itemsize)))

/* fill's item: `value` converted to the item's C type `T` (Cython's own type for complex items:
   the macro is expanded where Cython has defined it) in a local, whose address the library
   reads. The conversion is needed: Cython passes a literal as written (`0` for a double). */
#define __MVS_PYX_FILL_BODY(dst, ndim, T, value) \
    T __mvs_v = (value); \
    int __mvs_rc = __mvs_pyx_check_status(mvs_fill(__mvs_pyx_src(dst), (ndim), (ptrdiff_t)sizeof(T), &__mvs_v));

/* copy_c_Nd and copy_f_Nd: mvs_copy_contiguous makes a new buffer, with one reference (the
   call's), and a view of it into `r`; the buffer's owner is made (taking the GIL once: a new
   buffer has none) and attached as for from_buffer_Nd, and put in r's memview. The helper then
   takes r's acquisition (the attachment holds one: an atomic increment), and only then releases
   the call's reference (__MVS_PYX_COPY_BODY): that was the buffer's last, so the attachment's
   acquisition is released by the detach callback (an atomic decrement: r holds another), and
   the result alone keeps the memory, freed once after its last view. When the owner cannot be
   made, r's memview is left NULL with the exception set, and the release frees the buffer. */
static inline mvs_status __mvs_pyx_copy_owned(const mvs_slice *src, int ndim, ptrdiff_t itemsize, int order,
                                              mvs_slice *r, mvs_buffer **buffer, const void *key,
                                              __mvs_pyx_make_fn make) {
    mvs_status status = mvs_copy_contiguous(src, ndim, itemsize, order, buffer, r);
    return __mvs_pyx_buffer_owned(status, r, *buffer, key, ndim, 0, make);
}
#define __MVS_PYX_COPY_BODY(src, ndim, itemsize, order, key, make) \
    mvs_buffer *__mvs_b = NULL; \
    __MVS_PYX_BODY(__mvs_pyx_copy_owned(__mvs_pyx_src(src), (ndim), (itemsize), (order), (mvs_slice *)&__mvs_r, \
                                        &__mvs_b, (key), (make)), -1) \
    mvs_buffer_release(__mvs_b);

/* The body of every helper: `call` writes into __mvs_r (and the result's ndim into __mvs_nd);
   `expected` is the ndim the result must have, or -1. */
#define __MVS_PYX_BODY(call, expected) \
    __Pyx_memviewslice __mvs_r; \
    int __mvs_nd = -1; \
    mvs_status __mvs_status = (call); \
    if (__mvs_status != MVS_OK ? __mvs_pyx_raise(__mvs_status) : \
        ((expected) >= 0 && __mvs_pyx_check_ndim(__mvs_nd, (expected))) || \
        (!__mvs_r.memview && __mvs_pyx_raise_unowned())) { \
        __mvs_r.memview = NULL; \
        __mvs_r.data = NULL; \
    } else { \
        __PYX_INC_MEMVIEW(&__mvs_r, 0); \
    }

/* The body of a helper with an inline fast path (mvs_inline.h): the fast path (the variable
   arguments, as they expand to commas) writes __mvs_f from the fields of `a` and sets __mvs_ok,
   or declines; then `slow`, the library's call, runs as in __MVS_PYX_BODY (with `expected`) on
   __mvs_a, a copy of `a`. Neither takes the address of `a` or of __mvs_f
   (but for the acquisition, inline), so the compiler can keep both in registers, as it does
   Cython's own slicing. A view with no memview is the library's to refuse. */
#define __MVS_PYX_FAST_BODY(a, slow, expected, ...) \
    __Pyx_memviewslice __mvs_f; \
    int __mvs_ok = 0; \
    if ((a).memview) __VA_ARGS__; \
    if (__mvs_ok) { \
        __PYX_INC_MEMVIEW(&__mvs_f, 0); \
    } else { \
        __Pyx_memviewslice __mvs_a = (a); \
        __mvs_f = __MVS_PYX_VIEW(slow, expected); \
    }

/* MVS_PYX_NO_STATEMENT_EXPRESSIONS selects the C++11 form where both exist (tested that way). */
#if defined(__GNUC__) && !(defined(__cplusplus) && defined(MVS_PYX_NO_STATEMENT_EXPRESSIONS))
#define __MVS_PYX_VIEW(call, expected) __extension__({ __MVS_PYX_BODY(call, expected) __mvs_r; })
#define __MVS_PYX_FAST(a, slow, expected, ...) \
    __extension__({ __MVS_PYX_FAST_BODY(a, slow, expected, __VA_ARGS__) __mvs_f; })
#define __mvs_pyx_adopt(owner) __extension__({ __mvs_pyx_adopt_body(owner) __mvs_a; })
#define __MVS_PYX_FILL(dst, ndim, T, value) __extension__({ __MVS_PYX_FILL_BODY(dst, ndim, T, value) __mvs_rc; })
#define __MVS_PYX_COPY(src, ndim, itemsize, order, key, make) \
    __extension__({ __MVS_PYX_COPY_BODY(src, ndim, itemsize, order, key, make) __mvs_r; })
#elif defined(__cplusplus)
#define __MVS_PYX_VIEW(call, expected) \
    ([&]() -> __Pyx_memviewslice { __MVS_PYX_BODY(call, expected) return __mvs_r; }())
#define __MVS_PYX_FAST(a, slow, expected, ...) \
    ([&]() -> __Pyx_memviewslice { __MVS_PYX_FAST_BODY(a, slow, expected, __VA_ARGS__) return __mvs_f; }())
#define __mvs_pyx_adopt(owner) ([&]() -> __Pyx_memviewslice { __mvs_pyx_adopt_body(owner) return __mvs_a; }())
#define __MVS_PYX_FILL(dst, ndim, T, value) ([&]() -> int { __MVS_PYX_FILL_BODY(dst, ndim, T, value) return __mvs_rc; }())
#define __MVS_PYX_COPY(src, ndim, itemsize, order, key, make) \
    ([&]() -> __Pyx_memviewslice { __MVS_PYX_COPY_BODY(src, ndim, itemsize, order, key, make) return __mvs_r; }())
#else
#error "memviewslice's Cython helpers need GCC's or Clang's statement expressions, or C++11"
#endif

/* A piece written by mvs_split_sections or mvs_split_at (any slice derived from a typed
   memoryview), read back as a typed memoryview. */
#define __mvs_pyx_from_slice(s) __MVS_PYX_VIEW((memcpy(&__mvs_r, (s), sizeof __mvs_r), MVS_OK), -1)

"""


def movement_pairs():
    """The (source, destination) dimensions of the copy helpers: copy_Nd for both N, then
    copy_Md_Nd for a source of M < N dimensions, broadcast."""
    return [(n, n) for n in NDIMS] + [(m, n) for n in NDIMS for m in NDIMS if m < n]


def copy_name(m, n):
    return f"copy_{n}d" if m == n else f"copy_{m}d_{n}d"


def movement_macros(code, ctype, size):
    """The macros of copy_Nd, copy_Md_Nd and fill_Nd for one dtype (mvs_pyx.h)."""
    item = ITEM_CTYPES.get(code, ctype)
    out = "".join(f"#define __mvs_pyx_{code}_{copy_name(m, n)}(src, dst) __mvs_pyx_copy(src, {m}, dst, {n}, {size})\n"
                  for m, n in movement_pairs())
    return out + "".join(f"#define __mvs_pyx_{code}_fill_{n}d(dst, value) __MVS_PYX_FILL(dst, {n}, {item}, value)\n"
                         for n in NDIMS)


def movement_decls(code, ctype):
    """The declarations of copy_Nd, copy_Md_Nd and fill_Nd for one dtype (.pxd)."""
    doc = """
    # Data movement, in place. copy_Nd(src, dst) is `dst[...] = src` for N-d src and dst, where
    # an axis of extent 1 of src repeats along dst's; copy_Md_Nd(src, dst) the same for a src of
    # M < N dimensions, its axes aligned with dst's last M (NumPy's and Cython's broadcasting).
    # src is read as if copied to a temporary first, so any overlap with dst is fine (the library
    # allocates that temporary only where the two may overlap); src may be const. fill_Nd(dst,
    # value) sets every item of dst to value. Each returns 0, takes no GIL unless it fails, and
    # raises ValueError with the library's message (mvs_copy, mvs_fill): for copies whose shapes
    # do not broadcast, or into a dst that repeats items (an axis of stride 0 and extent > 1,
    # which fill_Nd allows).
"""
    out = "".join(f'    int {copy_name(m, n)} "__mvs_pyx_{code}_{copy_name(m, n)}"'
                  f"(const {memoryview(ctype, m)} src, {memoryview(ctype, n)} dst) except -1\n"
                  for m, n in movement_pairs())
    out += "".join(f'    int fill_{n}d "__mvs_pyx_{code}_fill_{n}d"({memoryview(ctype, n)} dst, {ctype} value) except -1\n'
                   for n in NDIMS)
    return doc + out


def header_file():
    """include/mvs_pyx.h: the macro of every helper; those that depend on the item size once
    per dtype."""
    shared = [h for h in helpers() if not h.per_dtype]
    sized = [h for h in helpers() if h.per_dtype]
    per_dtype = "".join(f"\n/* {ctype} */\n" + "".join(h.macro(code, size) for h in sized)
                        + movement_macros(code, ctype, size) for code, ctype, size in DTYPES)
    return HEADER + "".join(h.macro() for h in shared) + per_dtype + "\n#endif /* MVS_PYX_H */\n"


def raw_memory(code, ctype, size):
    """The helpers of raw memory for one dtype (see mvs_pyx.h): this module's owners, made by
    _make_owner (a cdef inline function that C calls by the name Cython gives it), and the
    macros of from_pointer_Nd and from_pointer_strided_Nd."""
    make = f"__pyx_f_12memviewslice_{len(code)}{code}__make_owner"
    pins = "".join(f'    int _pin{n} "__mvs_pyx_pin"(void *slot, {memoryview(ctype, n)} view)\n' for n in NDIMS)
    macros = "".join(
        f"    #define __mvs_pyx_{code}_from_pointer_{n}d(data, shape, order) "
        f"__MVS_PYX_VIEW(__mvs_pyx_owned(mvs_inline_view_contiguous((void *)(data), {size}, {n}, shape, order, "
        f"(mvs_slice *)&__mvs_r), (mvs_slice *)&__mvs_r, {n}, (data), __mvs_pyx_owner_{code}({n})), -1)\n"
        f"    #define __mvs_pyx_{code}_from_pointer_strided_{n}d(data, shape, strides) "
        f"__MVS_PYX_VIEW(__mvs_pyx_owned(mvs_view_strided((void *)(data), {size}, {n}, shape, strides, "
        f"(mvs_slice *)&__mvs_r), (mvs_slice *)&__mvs_r, {n}, (data), __mvs_pyx_owner_{code}({n})), -1)\n" for n in NDIMS)
    decls = "".join(
        f"    # A C- (b'C') or F- (b'F') contiguous view of shape[:{n}] items at `data`, as `<T[...]> data`.\n"
        f'    {memoryview(ctype, n)} from_pointer_{n}d "__mvs_pyx_{code}_from_pointer_{n}d"'
        f"({ctype} *data, const Py_ssize_t *shape, int order)\n"
        f"    # A view of shape[:{n}] items at `data` with the byte strides strides[:{n}] (any sign, 0 repeats).\n"
        f'    {memoryview(ctype, n)} from_pointer_strided_{n}d "__mvs_pyx_{code}_from_pointer_strided_{n}d"'
        f"({ctype} *data, const Py_ssize_t *shape, const Py_ssize_t *strides)\n" for n in NDIMS)
    locals_ = "".join(f"    cdef {memoryview(ctype, n)} t{n}\n" for n in NDIMS)
    cases = "".join(f"    {'if' if n == 1 else 'elif'} ndim == {n}:\n"
                    f"        t{n} = <{ctype}[{', '.join([':1'] * n)}]> <{ctype} *> _dummy\n"
                    f"        _pin{n}(_owners[{n}], t{n})\n" for n in NDIMS)
    return f'''
# Views of raw memory, made in nogil code: what `<{ctype}[:n, :m]> data` gives, without the GIL.
# The caller keeps the memory alive, as with Cython's cast; the views are writable. They are
# owned by one memoryview object of this module per number of dimensions (mvs_pyx.h says how):
# the first view of each number of dimensions takes the GIL once, to make it. ValueError with
# the library's message for NULL data, a negative extent, an order other than b'C' or b'F', or
# strides whose span overflows.
cdef extern from *:
    """
    #include "mvs_pyx.h"
    static void *__mvs_pyx_owners_{code}[8];
    static double __mvs_pyx_dummy_{code}[2];
    static CYTHON_INLINE void *{make}(int);
    static void *__mvs_pyx_make_owner_{code}(int ndim) {{
        PyGILState_STATE gil = PyGILState_Ensure();
        void *owner = {make}(ndim);
        PyGILState_Release(gil);
        return owner;
    }}
    static inline void *__mvs_pyx_owner_{code}(int ndim) {{
        void *owner = __mvs_pyx_owner_load(&__mvs_pyx_owners_{code}[ndim]);
        return owner ? owner : __mvs_pyx_make_owner_{code}(ndim);
    }}
{macros}    """
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
    """The helpers of buffers and pools for one dtype (see mvs_pyx.h): the keys of this
    module's owners, _make_buffer_owner (which C calls by the name Cython gives it) and
    _release_owner (the detach callback), and the macros."""
    make = f"__pyx_f_12memviewslice_{len(code)}{code}__make_buffer_owner"
    key = f"&__mvs_pyx_keys_{code}"
    macros = "".join(
        f"    #define __mvs_pyx_{code}_from_buffer{'_const' if c else ''}_{n}d(buffer, offset, shape, order) "
        f"__MVS_PYX_VIEW(__mvs_pyx_buffer_owned(mvs_buffer_view_at((buffer), (offset), {size}, {n}, (shape), (order), "
        f"{1 - c}, (mvs_slice *)&__mvs_r), (mvs_slice *)&__mvs_r, (buffer), {key}[{c}][{n}], {n}, {c}, "
        f"__mvs_pyx_make_buffer_owner_{code}), -1)\n" for n in NDIMS for c in (0, 1))
    macros += "".join(
        f"    #define __mvs_pyx_{code}_pool_acquire{'_f' if o == 'F' else ''}_{n}d(pool) "
        f"__MVS_PYX_VIEW(__mvs_pyx_pool_owned((pool), {size}, {n}, '{o}', (mvs_slice *)&__mvs_r, {key}[0][{n}], "
        f"__mvs_pyx_make_buffer_owner_{code}), -1)\n" for n in NDIMS for o in ("CF" if n > 1 else "C"))
    macros += "".join(
        f"    #define __mvs_pyx_{code}_copy_{o.lower()}_{n}d(src) __MVS_PYX_COPY(src, {n}, {size}, '{o}', {key}[0][{n}], "
        f"__mvs_pyx_make_buffer_owner_{code})\n" for n in NDIMS for o in ("CF" if n > 1 else "C"))
    attach = "".join(
        f'    void *_attach{"_c" if c else ""}{n} "__mvs_pyx_attach"(mvs_buffer *buffer, const void *key, '
        f'{"const " if c else ""}{memoryview(ctype, n)} view, mvs_detach_fn detach) except NULL\n'
        for n in NDIMS for c in (0, 1))
    c_order = lambda n: f"{ctype}[{', '.join([':'] * (n - 1) + ['::1'])}]"
    f_order = lambda n: f"{ctype}[{', '.join(['::1'] + [':'] * (n - 1))}]"
    decls = "".join(
        f"    # A C- (b'C') or F- (b'F') contiguous view of shape[:{n}] items starting `offset` items into the buffer.\n"
        f'    {memoryview(ctype, n)} from_buffer_{n}d "__mvs_pyx_{code}_from_buffer_{n}d"'
        f"(mvs_buffer *buffer, Py_ssize_t offset, const Py_ssize_t *shape, int order)\n"
        f'    const {memoryview(ctype, n)} from_buffer_const_{n}d "__mvs_pyx_{code}_from_buffer_const_{n}d"'
        f"(mvs_buffer *buffer, Py_ssize_t offset, const Py_ssize_t *shape, int order)\n"
        f"    # An array of a pool of {n}-d {ctype} arrays (memviewslice.owners.Pool), and giving it back.\n"
        f'    {c_order(n)} pool_acquire_{n}d "__mvs_pyx_{code}_pool_acquire_{n}d"(mvs_pool *pool)\n'
        + (f'    {f_order(n)} pool_acquire_f_{n}d "__mvs_pyx_{code}_pool_acquire_f_{n}d"(mvs_pool *pool)\n' if n > 1 else "")
        + f'    int pool_release_{n}d "__mvs_pyx_pool_release"(mvs_pool *pool, {memoryview(ctype, n)} view) except -1\n'
        for n in NDIMS)
    copies = "".join(
        f"    # np.ascontiguousarray(src){', np.asfortranarray(src)' if n > 1 else ''}: a copy in a new buffer.\n"
        f'    {c_order(n)} copy_c_{n}d "__mvs_pyx_{code}_copy_c_{n}d"(const {memoryview(ctype, n)} src)\n'
        + (f'    {f_order(n)} copy_f_{n}d "__mvs_pyx_{code}_copy_f_{n}d"(const {memoryview(ctype, n)} src)\n' if n > 1 else "")
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
# dimensions and constness, attached to the buffer (mvs_pyx.h says how): the first view of each
# kind of a buffer (of each slab, for a pool) takes the GIL once, to make it; the others take
# none while the buffer has references. Derivations of const views: Cython's own slicing (the
# helpers above take writable views). ValueError with the library's message for a NULL buffer,
# a negative offset or extent, an order other than b'C' or b'F', a shape that does not fit the
# buffer, a writable view of a read-only buffer; for a pool of other arrays, an array given
# back twice or not from the pool.
#
# Contiguous copies, made in nogil code: copy_c_Nd(src) is np.ascontiguousarray(src), a new
# {ctype}[..., ::1], and copy_f_Nd(src) (N >= 2) np.asfortranarray(src), a new {ctype}[::1, ...]; src
# may be const, the copy is writable. Each is a new mvs_buffer (mvs_copy_contiguous: 64-byte
# aligned, exactly the items) whose only owner is the copy: its memory is freed once, after the
# last view, NumPy array or memoryview made from the copy. As for any buffer's first view, each
# call takes the GIL once, to make the new buffer's owner (one memoryview object per buffer);
# derived views take none. The copy's last view, dropped in nogil code, takes the GIL once more
# to free it, as the last release of any Cython memoryview object does (none when dropped with
# the GIL). ValueError with the library's message when the copy's size overflows or its memory
# cannot be allocated.
cdef extern from *:
    """
    static char __mvs_pyx_keys_{code}[2][8];
    static CYTHON_INLINE void *{make}(mvs_buffer *, int, int);
    static void *__mvs_pyx_make_buffer_owner_{code}(mvs_buffer *buffer, int ndim, int is_const) {{
        PyGILState_STATE gil = PyGILState_Ensure();
        void *owner = {make}(buffer, ndim, is_const);
        PyGILState_Release(gil);
        return owner;
    }}
{macros}    """
    char _keys "__mvs_pyx_keys_{code}"[2][8]
{attach}
cdef extern from * nogil:
    {ctype}[:] _adopt "__mvs_pyx_adopt"(void *owner)
{decls}{copies}

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


def dtype_file(code, ctype, size):
    """memviewslice/<code>.pxd: every helper for one element type."""
    stdint = "from libc.stdint cimport " + ctype + "\n" if ctype.endswith("_t") else ""
    views = "".join(f"ctypedef {memoryview(ctype, n)} view_{n}d\n" for n in NDIMS)
    from_slice = "".join(f'    {memoryview(ctype, n)} from_slice_{n}d "__mvs_pyx_from_slice"(const mvs_slice *s)\n'
                         for n in NDIMS)
    return f'''# Typed memoryview helpers of memviewslice for {ctype} (`from memviewslice cimport {code}`):
# every derivation, from a {ctype} memoryview of 1 to 7 dimensions to another; copies and fills.
# Generated by tools/gen_pxd.py: do not edit.
#
# Every derivation takes a memoryview of the dimensions its name says (C- or F-contiguous ones
# are accepted too), returns a view of the same memory, takes no GIL unless it fails, and then
# raises IndexError (index out of range) or ValueError with the library's message. Names:
# `op_Nd` for a source of N dimensions when the result's are implied, `op_Nd_Md` for a result
# of M. Every parameter is required (MVS_NONE for an omitted slice bound). Each helper is a C
# macro of mvs_pyx.h, declared here as an extern function. See __init__.pxd for how the glue
# works and how to add a combination missing here, memviewslice.h for every operation's exact
# rules.

{stdint}from memviewslice cimport mvs_slice, mvs_index_item, mvs_buffer, mvs_pool, mvs_detach_fn
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
{''.join(h.pxd(code, ctype) for h in helpers())}{movement_decls(code, ctype)}{raw_memory(code, ctype, size)}{owned_memory(code, ctype, size)}'''


def version():
    """The crate's version, the one version of everything."""
    text = (ROOT / "Cargo.toml").read_text()
    return re.search(r'^version = "([^"]+)"$', text, re.MULTILINE).group(1)


def version_files(v):
    """_version.py and _abi.pxd: the type that every module cimporting memviewslice.owners
    imports at its own import, named for the version its .pxd files came from. The package
    (__init__.py) defines that name only for its own version, and refuses any other."""
    token = re.sub(r"[^0-9A-Za-z]", "_", v)
    py = f'''"""The package's version (generated by tools/gen_pxd.py from Cargo.toml: do not edit)."""

__version__ = "{v}"
# The name of the type that modules compiled against this version import (_abi.pxd).
ABI_TYPE = "abi_{token}"
'''
    pxd = f'''# Generated by tools/gen_pxd.py from Cargo.toml's version: do not edit.
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
    parser.add_argument("--out", type=pathlib.Path, default=ROOT,
                        help="root to write under (default: the repository)")
    args = parser.parse_args()
    include, package = args.out / "include", args.out / "python" / "memviewslice"
    include.mkdir(parents=True, exist_ok=True)
    package.mkdir(parents=True, exist_ok=True)
    (include / "mvs_pyx.h").write_text(header_file())
    for code, ctype, size in DTYPES:
        (package / f"{code}.pxd").write_text(dtype_file(code, ctype, size))
    py, pxd = version_files(version())
    (package / "_version.py").write_text(py)
    (package / "_abi.pxd").write_text(pxd)


if __name__ == "__main__":
    main()
