/* Hand-written C references for the benchmark (benches/icount.c): slice_axis, index_axis,
 * transpose, subview, reshape and basic indexing on direct views, doing the work the library's
 * contract asks on the benchmarked path and nothing more:
 *
 *   - the same validation of the source: ndim in 0..8, extents >= 0 and the span within isize,
 *     through the same fast test (extents below 2^30, strides within +-2^29);
 *   - the same semantics: Python's slice rules, negative axes and indices, NumPy's relaxed
 *     contiguity, one inferred extent, overflow checks on every product, refusal of indirect
 *     views (the library handles them; the benchmarked view is direct, where both take the same
 *     one-test path). Reshape covers sources contiguous in the requested order, the benchmarked
 *     case, and returns 2 for the others, which the library reshapes by NumPy's general rule;
 *   - the same output: all 8 entries written, those past ndim as shape 0, stride 0, suboffset -1;
 *     `out` may be `src`.
 *
 * They return a nonzero code on error but record no message, so error paths are not comparable;
 * only the success path is measured. They are in their own file so that the compiler cannot
 * specialise them for the benchmark's constant arguments, which the library's calls do not allow
 * either. What they show: how close to the floor this work can get when written directly. */
#include <stddef.h>
#include <stdint.h>

#include "memviewslice.h"
#include "reference.h"

enum { DIMS = MVS_MAX_DIMS };

/* All ones for the axes below `ndim`, 0 past them. */
static ptrdiff_t keep(int axis, int ndim) { return axis < ndim ? -1 : 0; }

/* Whether `s` is a valid `ndim`-dimensional view under the fast test; the library falls back to
 * an exact span computation when it fails, which the benchmarked view never needs. */
static int valid(const mvs_slice *s, int ndim) {
    if (!s || ndim < 0 || ndim > DIMS) return 0;
    uint64_t large = 0;
    for (int i = 0; i < DIMS; i++)
        large |= (uint64_t)(s->shape[i] & keep(i, ndim)) | (uint64_t)((s->strides[i] & keep(i, ndim)) + (1 << 29));
    return large < (1u << 30);
}

/* Whether every axis is direct (all 8 suboffsets negative, as a valid slice has past ndim). */
static int direct(const mvs_slice *s) {
    ptrdiff_t all = -1;
    for (int i = 0; i < DIMS; i++) all &= s->suboffsets[i];
    return all < 0;
}

/* `*o = *s` for a direct `s`, with the entries past `ndim` normalised (every suboffset of a
 * direct view becomes -1). `o` may be `s`. */
static void copy_direct(const mvs_slice *s, int ndim, mvs_slice *o) {
    o->memview = s->memview;
    o->data = s->data;
    for (int i = 0; i < DIMS; i++) {
        o->shape[i] = s->shape[i] & keep(i, ndim);
        o->strides[i] = s->strides[i] & keep(i, ndim);
        o->suboffsets[i] = -1;
    }
}

/* Python's clamping of a slice bound to `lo..=hi`, `len` added to negatives. */
static ptrdiff_t clamp(ptrdiff_t bound, ptrdiff_t fallback, ptrdiff_t len, ptrdiff_t lo, ptrdiff_t hi) {
    if (bound == MVS_NONE) return fallback;
    if (bound < 0) return bound + len > lo ? bound + len : lo;
    return bound < hi ? bound : hi;
}

/* The slice start:stop:step of an axis of `len` positions and byte stride `*stride`, by
 * Python's rules: its count in `*count`, its stride in `*stride` (kept when the count is 0 or 1),
 * the byte offset of its first position in `*offset` (0 when the count is 0). 1 on a zero step or
 * an overflow. Always inlined: called, with its results through pointers, it made
 * ref_slice_axis 2 ns slower. */
static inline __attribute__((always_inline)) int slice_range(ptrdiff_t len, ptrdiff_t start, ptrdiff_t stop,
                                                             ptrdiff_t step, ptrdiff_t *count, ptrdiff_t *stride,
                                                             ptrdiff_t *offset) {
    if (step == MVS_NONE) step = 1;
    if (step == 0) return 1;
    ptrdiff_t lo = step > 0 ? 0 : -1, hi = step > 0 ? len : len - 1;
    ptrdiff_t first = clamp(start, step > 0 ? lo : hi, len, lo, hi);
    ptrdiff_t last = clamp(stop, step > 0 ? hi : lo, len, lo, hi);
    ptrdiff_t n = 0;
    if (step > 0 && last > first) n = (last - first - 1) / step + 1;
    if (step < 0 && first > last) n = (first - last - 1) / -step + 1;
    *offset = 0;
    if (n > 0 && __builtin_mul_overflow(first, *stride, offset)) return 1;
    if (n > 1 && __builtin_mul_overflow(*stride, step, stride)) return 1;
    *count = n;
    return 0;
}

int ref_slice_axis(const mvs_slice *src, int ndim, int axis, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step,
                   mvs_slice *out) {
    if (!out || !valid(src, ndim)) return 1;
    int a = axis < 0 ? axis + ndim : axis;
    if (a < 0 || a >= ndim || !direct(src)) return 1;
    ptrdiff_t count, stride = src->strides[a], offset;
    if (slice_range(src->shape[a], start, stop, step, &count, &stride, &offset)) return 1;
    char *data = (char *)src->data + offset;
    copy_direct(src, ndim, out);
    out->data = data;
    out->shape[a] = count;
    out->strides[a] = stride;
    return 0;
}

int ref_index_axis(const mvs_slice *src, int ndim, int axis, ptrdiff_t index, mvs_slice *out) {
    if (!out || !valid(src, ndim)) return 1;
    int a = axis < 0 ? axis + ndim : axis;
    if (a < 0 || a >= ndim || !direct(src)) return 1;
    ptrdiff_t len = src->shape[a], i = index < 0 ? index + len : index, offset;
    if (i < 0 || i >= len || __builtin_mul_overflow(i, src->strides[a], &offset)) return 1;
    out->memview = src->memview;
    out->data = (char *)src->data + offset;
    /* Axis `a` removed: entry k takes entry k + 1 from `a` on (read before written). */
    for (int k = 0; k < DIMS - 1; k++) {
        int from = k + (k >= a);
        out->shape[k] = src->shape[from] & keep(k, ndim - 1);
        out->strides[k] = src->strides[from] & keep(k, ndim - 1);
        out->suboffsets[k] = -1;
    }
    out->shape[DIMS - 1] = 0;
    out->strides[DIMS - 1] = 0;
    out->suboffsets[DIMS - 1] = -1;
    return 0;
}

int ref_transpose(const mvs_slice *src, int ndim, mvs_slice *out) {
    if (!out || !valid(src, ndim)) return 1;
    /* Axes reversed, through locals: `out` may be `src`. */
    ptrdiff_t shape[DIMS], strides[DIMS], suboffsets[DIMS];
    for (int k = 0; k < DIMS; k++) {
        int from = k < ndim ? ndim - 1 - k : k;
        shape[k] = src->shape[from] & keep(k, ndim);
        strides[k] = src->strides[from] & keep(k, ndim);
        suboffsets[k] = src->suboffsets[from] | (src->suboffsets[from] >> 63) | ~keep(k, ndim);
    }
    out->memview = src->memview;
    out->data = src->data;
    for (int k = 0; k < DIMS; k++) {
        out->shape[k] = shape[k];
        out->strides[k] = strides[k];
        out->suboffsets[k] = suboffsets[k];
    }
    return 0;
}

/* The item count of `s` when it is contiguous in `order` by NumPy's relaxed rule (length-1 axes
 * ignored, every zero-size view contiguous): 0 and `*count` set, or 1 when it is not contiguous
 * or its count overflows. */
static int contiguous_count(const mvs_slice *s, int ndim, ptrdiff_t itemsize, char order, ptrdiff_t *count) {
    ptrdiff_t expected = itemsize, n = 1;
    int fits = 1, zero = 0, ok = 1;
    for (int k = 0; k < ndim; k++) {
        int a = order == 'C' ? ndim - 1 - k : k;
        ptrdiff_t len = s->shape[a];
        zero |= len == 0;
        if (__builtin_mul_overflow(n, len, &n)) return 1;
        if (len != 1) {
            ok &= fits && s->strides[a] == expected;
            fits = !__builtin_mul_overflow(s->strides[a], len, &expected);
        }
    }
    if (!ok && !zero) return 1;
    *count = zero ? 0 : n;
    return 0;
}

/* Writes the contiguous view of `shape` (n extents, checked >= 0) in `order` at `data` to `out`,
 * or returns 1, writing nothing, when a stride overflows. */
static int write_contiguous(mvs_slice *out, void *memview, char *data, ptrdiff_t itemsize, int n,
                            const ptrdiff_t *shape, char order) {
    ptrdiff_t dims[DIMS], strides[DIMS], stride = itemsize;
    for (int k = 0; k < DIMS; k++) dims[k] = k < n ? shape[k] : 0;
    for (int k = 0; k < n; k++) {
        int a = order == 'C' ? n - 1 - k : k;
        strides[a] = stride;
        if (__builtin_mul_overflow(stride, dims[a] > 1 ? dims[a] : 1, &stride)) return 1;
    }
    out->memview = memview;
    out->data = data;
    for (int k = 0; k < DIMS; k++) {
        out->shape[k] = dims[k];
        out->strides[k] = k < n ? strides[k] : 0;
        out->suboffsets[k] = -1;
    }
    return 0;
}

/* Whether `order` is 'C' or 'F' and `shape` holds `n` extents >= 0 (n in 0..8), one of them
 * possibly negative when `unknown` is allowed; the product of the others in `*known`, and the
 * position of the negative one in `*at` (-1 when none). */
static int valid_shape(int n, const ptrdiff_t *shape, int order, int unknown, ptrdiff_t *known, int *at) {
    if ((order != 'C' && order != 'F') || n < 0 || n > DIMS || (n > 0 && !shape)) return 0;
    ptrdiff_t p = 1;
    int zero = 0, overflow = 0;
    *at = -1;
    for (int k = 0; k < n; k++) {
        if (shape[k] < 0) {
            if (!unknown || *at >= 0) return 0;
            *at = k;
            continue;
        }
        zero |= shape[k] == 0;
        overflow |= __builtin_mul_overflow(p, shape[k], &p);
    }
    if (overflow && !zero) return 0;
    *known = zero ? 0 : p;
    return 1;
}

int ref_subview(const mvs_slice *src, int ndim, ptrdiff_t itemsize, ptrdiff_t offset, int out_ndim,
                const ptrdiff_t *shape, int order, mvs_slice *out) {
    ptrdiff_t have, need, bytes;
    int at;
    if (!out || !valid(src, ndim) || itemsize <= 0 || !direct(src)) return 1;
    if (contiguous_count(src, ndim, itemsize, 'C', &have) && contiguous_count(src, ndim, itemsize, 'F', &have))
        return 1;
    if (offset < 0 || !valid_shape(out_ndim, shape, order, 0, &need, &at)) return 1;
    if (offset > have || need > have - offset || __builtin_mul_overflow(offset, itemsize, &bytes)) return 1;
    return write_contiguous(out, src->memview, (char *)src->data + bytes, itemsize, out_ndim, shape, (char)order);
}

int ref_reshape(const mvs_slice *src, int ndim, ptrdiff_t itemsize, int out_ndim, const ptrdiff_t *shape, int order,
                mvs_slice *out) {
    ptrdiff_t size, known, dims[DIMS];
    int at;
    if (!out || !valid(src, ndim) || itemsize <= 0 || !direct(src)) return 1;
    if (!valid_shape(out_ndim, shape, order, 1, &known, &at)) return 1;
    if (contiguous_count(src, ndim, itemsize, (char)order, &size)) return 2;
    for (int k = 0; k < out_ndim; k++) dims[k] = shape[k];
    if (at >= 0) {
        if (known == 0 || size % known) return 1;
        dims[at] = size / known;
    } else if (known != size) {
        return 1;
    }
    return write_contiguous(out, src->memview, src->data, itemsize, out_ndim, dims, (char)order);
}

int ref_index(const mvs_slice *src, int ndim, const mvs_index_item *items, int nitems, mvs_slice *out, int *out_ndim) {
    if (!out || !out_ndim || !valid(src, ndim) || nitems < 0 || nitems > MVS_MAX_INDEX_ITEMS || (nitems && !items))
        return 1;
    int consumed = 0, ints = 0, ellipses = 0, newaxes = 0;
    for (int k = 0; k < nitems; k++) {
        switch (items[k].kind) {
        case MVS_ITEM_INDEX: consumed++, ints++; break;
        case MVS_ITEM_SLICE: consumed++; break;
        case MVS_ITEM_NEWAXIS: newaxes++; break;
        case MVS_ITEM_ELLIPSIS: ellipses++; break;
        default: return 1;
        }
    }
    if (ellipses > 1 || consumed > ndim || ndim - ints + newaxes > DIMS || !direct(src)) return 1;
    /* Built in locals, entry by entry: `out` may be `src`. */
    ptrdiff_t shape[DIMS] = {0}, strides[DIMS] = {0}, offset = 0;
    int axis = 0, n = 0, rest = ndim - consumed;
    for (int k = 0; k <= nitems; k++) {
        int kind = k < nitems ? items[k].kind : ellipses ? -1 : MVS_ITEM_ELLIPSIS; /* implicit ... */
        ptrdiff_t bytes = 0;
        if (kind == MVS_ITEM_INDEX) {
            ptrdiff_t len = src->shape[axis], i = items[k].start < 0 ? items[k].start + len : items[k].start;
            if (i < 0 || i >= len || __builtin_mul_overflow(i, src->strides[axis], &bytes)) return 1;
            axis++;
        } else if (kind == MVS_ITEM_SLICE) {
            ptrdiff_t count, stride = src->strides[axis];
            if (slice_range(src->shape[axis], items[k].start, items[k].stop, items[k].step, &count, &stride, &bytes))
                return 1;
            shape[n] = count;
            strides[n] = stride;
            axis++, n++;
        } else if (kind == MVS_ITEM_NEWAXIS) {
            shape[n++] = 1;
        } else if (kind == MVS_ITEM_ELLIPSIS) {
            for (int r = 0; r < rest; r++, axis++, n++) {
                shape[n] = src->shape[axis];
                strides[n] = src->strides[axis];
            }
        }
        offset += bytes; /* within the source's span, which fits */
    }
    out->memview = src->memview;
    out->data = (char *)src->data + offset;
    for (int k = 0; k < DIMS; k++) {
        out->shape[k] = shape[k];
        out->strides[k] = strides[k];
        out->suboffsets[k] = -1;
    }
    *out_ndim = n;
    return 0;
}
