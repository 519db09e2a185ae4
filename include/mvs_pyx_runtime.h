/* The runtime of memviewslice's typed Cython helpers (memviewslice/<dtype>.pxd) and of the
 * glue in memviewslice/__init__.pxd: what every helper expands to. Hand-written; mvs_pyx.h,
 * which the build generates from the table of operations (tools/ops.py), includes it and
 * defines one macro per helper on top of it.
 *
 * Every helper is a macro that Cython's generated C expands inside the module, where Cython's
 * __Pyx_memviewslice and __PYX_INC_MEMVIEW are defined (this header is included before them).
 * It evaluates to a __Pyx_memviewslice holding the library's result and one more acquisition of
 * the source's memoryview object (an atomic increment with no GIL: the source holds one), or,
 * when the call fails, to one whose memview is NULL with the Python exception set; Cython reads
 * that NULL as the error. (The in-place copies and fills evaluate to 0, or to -1 with the
 * exception set.) The macros need GCC's or Clang's statement expressions, or C++11. */
#ifndef MVS_PYX_RUNTIME_H
#define MVS_PYX_RUNTIME_H

#include <stddef.h>
#include <string.h>
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

/* A free-threaded CPython (3.13t; Py_GIL_DISABLED, from Python.h's pyconfig.h) needs Cython 3.1
   or newer, the first whose modules and memoryviews run without the GIL: an older Cython's
   module would turn the GIL back on at import, or count acquisitions unprotected. */
#if defined(Py_GIL_DISABLED) && defined(CYTHON_HEX_VERSION) && CYTHON_HEX_VERSION < 0x030100F0
#error "memviewslice's Cython helpers on a free-threaded CPython (Py_GIL_DISABLED) need Cython 3.1 or newer"
#endif

/* GCC 12 at -O2 (not -O1 or -O3) reports -Wstringop-overflow ("__atomic_fetch_sub_4 writing 4
   bytes into a region of size 0") in Cython's own __Pyx_XCLEAR_MEMVIEW, on the error path of a
   function whose typed memoryview local feeds a helper's inline fast path; that function's
   XCLEAR tests the memview for NULL first. It is GCC's known false positive on atomics through
   a pointer it believes may be NULL. The warning is off from here to the end of the module, so
   that modules build with -Wall -Werror; every other warning stays on. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
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

/* A compile error, with this message, when the layouts differ: in C11 and C++11 a static
   assertion (in C, inside a struct that sizeof names; in C++, a template's), before C11 an
   array of size -1. Checked in every build, free-threaded ones included, where a Cython might
   add a lock to the slice struct (Cython's discussion #6215). */
#define __MVS_PYX_LAYOUT_MESSAGE \
    "memviewslice: Cython's __Pyx_memviewslice is not laid out as mvs_slice (memview, data, shape[8], " \
    "strides[8], suboffsets[8]) in this build; on a free-threaded CPython this Cython may add a lock to " \
    "the slice struct, which this version of memviewslice does not support"
#if defined(__cplusplus)
template <bool Same> struct __mvs_pyx_layout_check {
    static_assert(Same, __MVS_PYX_LAYOUT_MESSAGE);
};
#define __MVS_PYX_CHECK_LAYOUT() ((void)sizeof(__mvs_pyx_layout_check<__MVS_PYX_SAME_LAYOUT>))
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define __MVS_PYX_CHECK_LAYOUT() \
    ((void)sizeof(struct { _Static_assert(__MVS_PYX_SAME_LAYOUT, __MVS_PYX_LAYOUT_MESSAGE); char c; }))
#else
#define __MVS_PYX_CHECK_LAYOUT() ((void)sizeof(char[__MVS_PYX_SAME_LAYOUT ? 1 : -1]))
#endif

/* The address of a typed memoryview as a library source, after the layout check. Reached
   through the shape array rather than `&(view)`, so that it works without a copy on a variable
   and also on what has no address: Cython passes a memoryview converted to a helper's type
   (double[::1] to double[:]) as a cast, whose array member designates a temporary that lives
   until the end of the call. */
#define __mvs_pyx_src(view) \
    (__MVS_PYX_CHECK_LAYOUT(), \
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
   thread did first, then pins it with an acquisition that is never released. Threads racing to
   make the first owner (on a free-threaded CPython, truly at once) each make one: the
   compare-and-swap keeps the first, and the others' are dropped with their local views; until
   the pin, the maker's own view holds an acquisition, so a published owner never drops to 0. */
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

/* `status` of mvs_pool_acquire_slab, which wrote the array `s` of `pool` (`ndim`-d) and its
   `slab`, into `r` with the slab's owner (as __mvs_pyx_buffer_owned): the one attached, or made
   now. An array whose owner could not be made is given back. */
static inline mvs_status __mvs_pyx_pool_owned(mvs_status status, mvs_pool *pool, int ndim, const mvs_slice *s,
                                              mvs_buffer *slab, mvs_slice *r, __mvs_pyx_make_fn make) {
    if (status != MVS_OK) return status;
    memcpy(r, s, sizeof *r);
    if (!r->memview && !(r->memview = make(slab, ndim, 0))) (void)mvs_pool_release(pool, r);
    return MVS_OK;
}

/* The body of pool_acquire_Nd and pool_acquire_f_Nd (the <dtype>.pxd files): an array of `pool`
   checked to be `n`-d, of `isz`-byte items, contiguous in `order`, with the owner attached to
   its slab under `key`. When the slab has one, the first `n` axes of the library's view are
   copied into __mvs_f field by field, and the rest are what every function writes there, so
   that a compiler keeps the result in registers (read back whole, it went through memory and
   three copies: make bench-cython); else __mvs_pyx_pool_owned makes the owner, or raises. */
#define __MVS_PYX_POOL_FIELDS_K_(dst, src, k) \
    (dst).shape[k] = (k) < __mvs_n ? (src).shape[k] : 0; \
    (dst).strides[k] = (k) < __mvs_n ? (src).strides[k] : 0; \
    (dst).suboffsets[k] = -1;
#define __MVS_PYX_POOL_BODY(isz, n, order, pool, key, make) \
    __Pyx_memviewslice __mvs_f; \
    mvs_slice __mvs_s; \
    mvs_buffer *__mvs_slab = NULL; \
    mvs_pool *__mvs_pl = (pool); \
    const int __mvs_n = (n); \
    mvs_status __mvs_st = mvs_pool_acquire_slab(__mvs_pl, (isz), __mvs_n, (order), (key), &__mvs_s, &__mvs_slab); \
    if (__mvs_st == MVS_OK && __mvs_s.memview) { \
        memcpy(&__mvs_f.memview, &__mvs_s.memview, sizeof __mvs_s.memview); \
        __mvs_f.data = __mvs_s.data; \
        MVS_INLINE_EACH_AXIS_(__MVS_PYX_POOL_FIELDS_K_, __mvs_f, __mvs_s) \
        __PYX_INC_MEMVIEW(&__mvs_f, 0); \
    } else { \
        __mvs_f = __MVS_PYX_VIEW(__mvs_pyx_pool_owned(__mvs_st, __mvs_pl, __mvs_n, &__mvs_s, __mvs_slab, \
                                                      (mvs_slice *)&__mvs_r, (make)), -1); \
    }

/* With the GIL: attaches the memoryview object in `slot` (the memview field of a typed
   memoryview variable) to `buffer` under `key`, unless an owner is attached already, and
   returns the owner attached (mvs_buffer_attach keeps the first of threads racing, with or
   without a GIL). When the variable's object is attached, its acquisition moves to
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

/* Data movement (copy_Nd, copy_Nd_Md, fill_Nd, copy_c_Nd and copy_f_Nd of the <dtype>.pxd
   files). copy and fill are the library call through __mvs_pyx_check_status, then 0, or -1
   with the exception set (taking the GIL on that path only); they touch no memoryview
   object. */

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

/* The body of from_pointer_Nd (the <dtype>.pxd files): once the module's owner of views of `n`
   dimensions exists (`slot`), a view of `n` extents of items of `isz` bytes at non-NULL `ptr`
   is built inline by MVS_INLINE_CONTIGUOUS into __mvs_f, field by field, and acquired; so a
   compiler keeps it in registers, as Cython's own slicing (written through a pointer it went
   through memory and three copies, 5x slower: make bench-cython). Everything else (the first
   view, which makes the owner, NULL data, every error) is the call of __mvs_pyx_owned, `slow`
   the owner's expression. */
#define __MVS_PYX_FROM_POINTER_BODY(isz, n, ptr, extents, order, slot, slow) \
    __Pyx_memviewslice __mvs_f; \
    void *__mvs_own = __mvs_pyx_owner_load(slot); \
    char *__mvs_p = (char *)(ptr); \
    const ptrdiff_t *__mvs_e = (extents); \
    int __mvs_o = (order), __mvs_ok = 0; \
    if (__mvs_own && __mvs_p) MVS_INLINE_CONTIGUOUS(__mvs_f, __mvs_p, (isz), (n), __mvs_e, __mvs_o, __mvs_ok); \
    if (__mvs_ok) { \
        memcpy(&__mvs_f.memview, &__mvs_own, sizeof __mvs_own); \
        __PYX_INC_MEMVIEW(&__mvs_f, 0); \
    } else { \
        __mvs_f = __MVS_PYX_VIEW(__mvs_pyx_owned(mvs_inline_view_contiguous(__mvs_p, (isz), (n), __mvs_e, __mvs_o, \
                                                                            (mvs_slice *)&__mvs_r), \
                                                 (mvs_slice *)&__mvs_r, (n), __mvs_p, (slow)), -1); \
    }

/* MVS_PYX_NO_STATEMENT_EXPRESSIONS selects the C++11 form where both exist (tested that way). */
#if defined(__GNUC__) && !(defined(__cplusplus) && defined(MVS_PYX_NO_STATEMENT_EXPRESSIONS))
#define __MVS_PYX_VIEW(call, expected) __extension__({ __MVS_PYX_BODY(call, expected) __mvs_r; })
#define __MVS_PYX_FAST(a, slow, expected, ...) \
    __extension__({ __MVS_PYX_FAST_BODY(a, slow, expected, __VA_ARGS__) __mvs_f; })
#define __MVS_PYX_FROM_POINTER(isz, n, ptr, extents, order, slot, slow) \
    __extension__({ __MVS_PYX_FROM_POINTER_BODY(isz, n, ptr, extents, order, slot, slow) __mvs_f; })
#define __MVS_PYX_POOL(isz, n, order, pool, key, make) \
    __extension__({ __MVS_PYX_POOL_BODY(isz, n, order, pool, key, make) __mvs_f; })
#define __mvs_pyx_adopt(owner) __extension__({ __mvs_pyx_adopt_body(owner) __mvs_a; })
#define __MVS_PYX_FILL(dst, ndim, T, value) __extension__({ __MVS_PYX_FILL_BODY(dst, ndim, T, value) __mvs_rc; })
#define __MVS_PYX_COPY(src, ndim, itemsize, order, key, make) \
    __extension__({ __MVS_PYX_COPY_BODY(src, ndim, itemsize, order, key, make) __mvs_r; })
#elif defined(__cplusplus)
#define __MVS_PYX_VIEW(call, expected) \
    ([&]() -> __Pyx_memviewslice { __MVS_PYX_BODY(call, expected) return __mvs_r; }())
#define __MVS_PYX_FAST(a, slow, expected, ...) \
    ([&]() -> __Pyx_memviewslice { __MVS_PYX_FAST_BODY(a, slow, expected, __VA_ARGS__) return __mvs_f; }())
#define __MVS_PYX_FROM_POINTER(isz, n, ptr, extents, order, slot, slow) \
    ([&]() -> __Pyx_memviewslice { __MVS_PYX_FROM_POINTER_BODY(isz, n, ptr, extents, order, slot, slow) return __mvs_f; }())
#define __MVS_PYX_POOL(isz, n, order, pool, key, make) \
    ([&]() -> __Pyx_memviewslice { __MVS_PYX_POOL_BODY(isz, n, order, pool, key, make) return __mvs_f; }())
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

/* Read-only views of raw memory (the const forms of the reinterpreting helpers, from_<other>_
   const_Nd): their owner is the module's owner of const views of a read-only buffer over the
   dummy item (__mvs_pyx_const_owner_<code>), made and published in `*slot` by the first call,
   as any buffer's (__mvs_pyx_buffer_owned), and never released. NULL with the exception set
   when it cannot be made. */
static inline void *__mvs_pyx_const_owner(mvs_buffer **slot, void *dummy, size_t size, const void *key, int ndim,
                                          __mvs_pyx_make_fn make) {
    mvs_buffer *buffer = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *made = NULL;
    if (!buffer) {
        mvs_status status = mvs_buffer_wrap(dummy, (ptrdiff_t)size, NULL, NULL, MVS_BUFFER_READONLY, &made);
        if (status != MVS_OK) {
            (void)__mvs_pyx_raise(status);
            return NULL;
        }
        if (__atomic_compare_exchange_n(slot, &buffer, made, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            buffer = made;
        } else {
            mvs_buffer_release(made); /* another thread's is published: buffer holds it */
        }
    }
    void *owner = NULL;
    (void)mvs_buffer_attached(buffer, key, &owner); /* cannot fail: buffer is not NULL */
    return owner ? owner : make(buffer, ndim, 1);
}

/* `status` of mvs_view_as, which wrote into `r` a view of the typed memoryview whose memview is
   `source` (of another dtype), with this dtype's owner of `ndim`-d raw views (owner(ndim)) put
   in r's memview on success: the owner's format and item size are the result's, as Cython
   needs when the view goes to Python. Left NULL for a source with no memoryview object (the
   helper raises ValueError), or with the exception set when the owner could not be made. */
static inline mvs_status __mvs_pyx_reinterpreted(mvs_status status, mvs_slice *r, const void *source,
                                                 void *(*owner)(int), int ndim) {
    if (status != MVS_OK) return status;
    r->memview = source ? owner(ndim) : NULL;
    return MVS_OK;
}

/* The C of one dtype's typed views of raw memory (a <dtype>.pxd file expands it in its verbatim
   C, once per module): `code` names the dtype, `make` is the C name Cython gives the file's
   _make_owner. __mvs_pyx_owner_<code>(ndim) is the module's owner of views of `ndim`
   dimensions, made (taking the GIL once) by the first view that needs it. The functions are
   marked unused (first, as C++ wants its [[maybe_unused]]): a module uses only the helpers it
   calls. */
#define __MVS_PYX_RAW_OWNERS(code, make) \
    static void *__mvs_pyx_owners_##code[8]; \
    static double __mvs_pyx_dummy_##code[2]; \
    static CYTHON_INLINE void *make(int); \
    CYTHON_UNUSED static void *__mvs_pyx_make_owner_##code(int ndim) { \
        PyGILState_STATE gil = PyGILState_Ensure(); \
        void *owner = make(ndim); \
        PyGILState_Release(gil); \
        return owner; \
    } \
    CYTHON_UNUSED static CYTHON_INLINE void *__mvs_pyx_owner_##code(int ndim) { \
        void *owner = __mvs_pyx_owner_load(&__mvs_pyx_owners_##code[ndim]); \
        return owner ? owner : __mvs_pyx_make_owner_##code(ndim); \
    }

/* The C of one dtype's typed views of buffers and pools, and of its contiguous copies: the keys
   of the module's owners (one per constness and number of dimensions) and
   __mvs_pyx_make_buffer_owner_<code>, which calls the file's _make_buffer_owner (C name `make`)
   with the GIL. */
#define __MVS_PYX_BUFFER_OWNERS(code, make) \
    static char __mvs_pyx_keys_##code[2][8]; \
    static CYTHON_INLINE void *make(mvs_buffer *, int, int); \
    CYTHON_UNUSED static void *__mvs_pyx_make_buffer_owner_##code(mvs_buffer *buffer, int ndim, int is_const) { \
        PyGILState_STATE gil = PyGILState_Ensure(); \
        void *owner = make(buffer, ndim, is_const); \
        PyGILState_Release(gil); \
        return owner; \
    } \
    static mvs_buffer *__mvs_pyx_readonly_##code; \
    CYTHON_UNUSED static void *__mvs_pyx_const_owner_##code(int ndim) { \
        return __mvs_pyx_const_owner(&__mvs_pyx_readonly_##code, __mvs_pyx_dummy_##code, \
                                     sizeof __mvs_pyx_dummy_##code, __mvs_pyx_keys_##code[1] + ndim, ndim, \
                                     __mvs_pyx_make_buffer_owner_##code); \
    }

/* Elementwise iteration over typed memoryviews (mvs_pyx_iter_init and mvs_pyx_apply of
   __init__.pxd, the operand_Nd helpers of the <dtype>.pxd files). The operands are COPIES of
   the views' structs, with their ndims, item sizes and flags, in a struct on the caller's stack:
   a typed memoryview that Cython converts to a helper's parameter type (double[:, ::1] to
   double[:, :]) is a temporary that dies with the statement, so no pointer to one may be kept.
   The copies take no acquisition of the memoryview objects: the caller keeps the views (or
   what they view) alive until the iteration is done. Nothing here allocates or takes the GIL,
   but to raise. */
typedef struct __mvs_pyx_operands {
    mvs_slice views[MVS_ITER_MAX_OPERANDS];
    int ndims[MVS_ITER_MAX_OPERANDS];
    ptrdiff_t itemsizes[MVS_ITER_MAX_OPERANDS];
    uint32_t flags[MVS_ITER_MAX_OPERANDS];
} __mvs_pyx_operands;

/* Sets ValueError with `message` (a format over `k`), taking the GIL. Returns -1. */
static inline int __mvs_pyx_raise_operand(const char *message, int k) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyErr_Format(PyExc_ValueError, message, k, (int)MVS_ITER_MAX_OPERANDS);
    PyGILState_Release(gil);
    return -1;
}

/* Stores operand `k` of `ops`: a copy of `*view`, of `ndim` dimensions and `itemsize`-byte
   items, with `flags` (MVS_ITER_READ, ...; the library checks them). 0, or -1 with ValueError
   for a NULL argument or `k` out of 0..MVS_ITER_MAX_OPERANDS - 1. */
static inline int __mvs_pyx_operand(__mvs_pyx_operands *ops, int k, const mvs_slice *view, int ndim,
                                    ptrdiff_t itemsize, uint32_t flags) {
    if (!ops || !view) return __mvs_pyx_raise_operand("operand %d: NULL operands or view", k);
    if (k < 0 || k >= MVS_ITER_MAX_OPERANDS)
        return __mvs_pyx_raise_operand("operand %d is out of range: an iteration has at most %d operands", k);
    memcpy(&ops->views[k], view, sizeof *view);
    ops->ndims[k] = ndim;
    ops->itemsizes[k] = itemsize;
    ops->flags[k] = flags;
    return 0;
}

/* Stores operand `k` of `ops` as the 0-d view of the one item at `item` (a scalar, read or
   written), of `itemsize` bytes. As __mvs_pyx_operand, and ValueError for a NULL item. */
static inline int __mvs_pyx_operand_item(__mvs_pyx_operands *ops, int k, const void *item, ptrdiff_t itemsize,
                                         uint32_t flags) {
    mvs_slice view;
    if (!item) return __mvs_pyx_raise_operand("operand %d: the item is NULL", k);
    if (__mvs_pyx_check_status(mvs_inline_view_contiguous((void *)item, itemsize, 0, NULL, 'C', &view)))
        return -1;
    return __mvs_pyx_operand(ops, k, &view, 0, itemsize, flags);
}
/* operand_0d and operand_const_0d of the <dtype>.pxd files: the item's size is its type's. */
#define __mvs_pyx_operand_0d(ops, k, item, flags) \
    __mvs_pyx_operand_item((ops), (k), (item), (ptrdiff_t)sizeof(*(item)), (flags))
#define __mvs_pyx_operand_const_0d(ops, k, item) \
    __mvs_pyx_operand_item((ops), (k), (item), (ptrdiff_t)sizeof(*(item)), MVS_ITER_READ)
/* operand_Nd and operand_const_Nd of the <dtype>.pxd files (mvs_pyx.h: one macro per dtype and
   N, giving `ndim` and `itemsize`). */
#define __MVS_PYX_OPERAND(ops, k, view, ndim, itemsize, flags) \
    __mvs_pyx_operand((ops), (k), __mvs_pyx_src(view), (ndim), (itemsize), (flags))

/* The addresses of the first `nop` operands (at most MVS_ITER_MAX_OPERANDS; the library refuses
   any other count before reading them) into `ptrs`. */
static inline void __mvs_pyx_operand_ptrs(const __mvs_pyx_operands *ops, int nop, const mvs_slice **ptrs) {
    int k;
    for (k = 0; k < nop && k < MVS_ITER_MAX_OPERANDS; k++) ptrs[k] = &ops->views[k];
}

/* mvs_iter_init over the first `nop` operands of `ops` (each stored by an operand helper) in
   `order` ('K', 'C' or 'F'): 0, or -1 with the library's error raised. */
static inline int __mvs_pyx_iter_init(mvs_iter *it, const __mvs_pyx_operands *ops, int nop, int order) {
    const mvs_slice *ptrs[MVS_ITER_MAX_OPERANDS];
    if (!ops) return __mvs_pyx_check_status(mvs_iter_init(it, nop, NULL, NULL, NULL, NULL, order));
    __mvs_pyx_operand_ptrs(ops, nop, ptrs);
    return __mvs_pyx_check_status(mvs_iter_init(it, nop, ptrs, ops->ndims, ops->itemsizes, ops->flags, order));
}

/* mvs_apply over the first `nop` operands of `ops`, as __mvs_pyx_iter_init: `loop` runs once
   per run of the iteration. 0, or -1 with the library's error raised (`loop` never called). */
static inline int __mvs_pyx_apply(const __mvs_pyx_operands *ops, int nop, int order, mvs_loop_fn loop, void *data) {
    const mvs_slice *ptrs[MVS_ITER_MAX_OPERANDS];
    if (!ops) return __mvs_pyx_check_status(mvs_apply(nop, NULL, NULL, NULL, NULL, order, loop, data));
    __mvs_pyx_operand_ptrs(ops, nop, ptrs);
    return __mvs_pyx_check_status(mvs_apply(nop, ptrs, ops->ndims, ops->itemsizes, ops->flags, order, loop, data));
}

#endif /* MVS_PYX_RUNTIME_H */
