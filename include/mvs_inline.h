/* Inline versions of memviewslice's constructors of views and of its commonest derivations, for
 * bindings that make views in a hot loop (memviewslice's Cython helpers use them): the same
 * result as the library's function, computed inline for the common case, and the library for
 * everything else, so that every error and message is the library's (c_tests/test_inline.c
 * compares them with the library on 1,000,000 random cases each). The constructor is a
 * function that calls the library itself; the derivations are statement macros that decline
 * what they do not take, for the caller to call the library. Valid C99 and C++11; needs
 * memviewslice.h. */
#ifndef MVS_INLINE_H
#define MVS_INLINE_H

#include <stdint.h>
#include "memviewslice.h"

/* `p` moved by `bytes`, wrapping as the library's offsets do: a view's data address plus an
   offset the view allows. Computed on integers, so that a hostile view (a data address and
   strides that no allocation could have) is not undefined behaviour in C. */
#define MVS_INLINE_OFFSET_(p, bytes) ((char *)((uintptr_t)(p) + (uintptr_t)(bytes)))

/* mvs_view_contiguous(data, itemsize, ndim, shape, order, out). Inline when `itemsize` > 0,
   `ndim` in 0..=8, `order` 'C' or 'F', every extent >= 0 and the strides fit in ptrdiff_t (the
   product of the extents, zeros counted as 1, times `itemsize`); `out` is written only then, or
   by the library. */
static inline mvs_status mvs_inline_view_contiguous(void *data, ptrdiff_t itemsize, int ndim, const ptrdiff_t *shape,
                                                    int order, mvs_slice *out) {
    ptrdiff_t strides[8];
    ptrdiff_t stride = itemsize;
    int k;
    if (itemsize <= 0 || ndim < 0 || ndim > 8 || (order != 'C' && order != 'F') || (ndim && !shape) || !out)
        return mvs_view_contiguous(data, itemsize, ndim, shape, order, out);
    for (k = 0; k < ndim; k++) {
        int i = order == 'C' ? ndim - 1 - k : k;
        ptrdiff_t len = shape[i] > 1 ? shape[i] : 1;
        if (shape[i] < 0 || stride > PTRDIFF_MAX / len)
            return mvs_view_contiguous(data, itemsize, ndim, shape, order, out);
        strides[i] = stride;
        stride *= len;
    }
    out->memview = NULL;
    out->data = (char *)data;
    for (k = 0; k < 8; k++) {
        out->shape[k] = k < ndim ? shape[k] : 0;
        out->strides[k] = k < ndim ? strides[k] : 0;
        out->suboffsets[k] = -1;
    }
    return MVS_OK;
}

/* F(dst, src, k) for each axis k of a view, 0 to 7, written out: gcc -O2 leaves a loop over the
   8 axes rolled, so the entries are not known constants and the result cannot stay in
   registers, as Cython's own slicing into a fresh local does (make bench-bridge measures it). */
#define MVS_INLINE_EACH_AXIS_(F, dst, src) \
    F(dst, src, 0) F(dst, src, 1) F(dst, src, 2) F(dst, src, 3) F(dst, src, 4) F(dst, src, 5) F(dst, src, 6) F(dst, src, 7)

/* MVS_INLINE_EACH_AXIS_ from axis 7 down to 0. */
#define MVS_INLINE_EACH_AXIS_REV_(F, dst, src) \
    F(dst, src, 7) F(dst, src, 6) F(dst, src, 5) F(dst, src, 4) F(dst, src, 3) F(dst, src, 2) F(dst, src, 1) F(dst, src, 0)

/* Sets `ok` to 0 unless the first `ndim` (in 0..=8) axes of `src` are usual (memviewslice.h's
   MVS_USUAL_EXTENT_LIMIT): direct, with an extent in 0..MVS_USUAL_EXTENT_LIMIT and a stride in
   -MVS_USUAL_STRIDE_LIMIT..MVS_USUAL_STRIDE_LIMIT, so that no offset the inline derivations
   compute can overflow (the library takes every other view). Tested axis by axis at fixed
   positions: in a loop, the fields are read at variable indices, so the source must be in
   memory, where the compiler copies it first (make bench-bridge measures it). */
#define MVS_INLINE_USUAL(src, ndim, ok)                                                                          \
    do {                                                                                                         \
        (ok) = (ok) && (ndim) >= 0 && (ndim) <= 8 && (1 MVS_INLINE_EACH_AXIS_(MVS_INLINE_USUAL_K_, src, ndim)); \
    } while (0)

#define MVS_INLINE_USUAL_K_(src, ndim, k)                                                                        \
    &((k) >= (ndim) || (((src).suboffsets[k] < 0) & ((size_t)(src).shape[k] < (size_t)MVS_USUAL_EXTENT_LIMIT) & \
                        ((size_t)(src).strides[k] + (size_t)MVS_USUAL_STRIDE_LIMIT < (size_t)MVS_USUAL_EXTENT_LIMIT)))

/* The inline part of mvs_slice_axis(src, ndim, axis, start, stop, step, dst), on any struct with
   mvs_slice's fields (an mvs_slice, or Cython's __Pyx_memviewslice): when `ndim` is in 1..=8,
   `axis` names an axis, `step` is not 0 and the view is usual (MVS_INLINE_USUAL), writes the library's result to `dst` field by field (not through a
   pointer, so that a compiler can keep both in registers) and sets `ok` to 1; otherwise sets `ok` to 0 and writes nothing, and the library must be called.
   `dst` may be `src`. c_tests/test_inline.c compares it with the library. */
#define MVS_INLINE_SLICE_AXIS(dst, src, ndim, axis, start, stop, step, ok)                                      \
    do {                                                                                                         \
        int mvs_n_ = (ndim), mvs_ax_ = (axis) < 0 && mvs_n_ >= 0 ? (axis) + mvs_n_ : (axis);                                   \
        ptrdiff_t mvs_st_ = (step), mvs_first_, mvs_count_, mvs_stride_;                                        \
        (ok) = mvs_n_ >= 1 && mvs_ax_ >= 0 && mvs_ax_ < mvs_n_ && mvs_st_ != 0;                               \
        MVS_INLINE_USUAL(src, mvs_n_, ok);                                                                       \
        if (ok) {                                                                                                \
            mvs_stride_ = (src).strides[mvs_ax_];                                                                \
            MVS_INLINE_SLICE_BOUNDS_((src).shape[mvs_ax_], (start), (stop), mvs_st_, mvs_first_, mvs_count_);  \
            (dst).memview = (src).memview;                                                                       \
            (dst).data = mvs_count_ > 0 ? MVS_INLINE_OFFSET_((src).data, mvs_first_ * mvs_stride_) : (src).data; \
            MVS_INLINE_EACH_AXIS_(MVS_INLINE_SLICE_AXIS_K_, dst, src)                                            \
        }                                                                                                        \
    } while (0)

/* Python's slice(start, stop, step).indices(len) for an extent `len` in
   0..MVS_USUAL_EXTENT_LIMIT and a `step`
   other than 0 (MVS_NONE for 1): sets `first` to the first position and `count` to the number
   of positions, and `step` to the step. Steps of 1 and -1 need no division (its latency is
   most of the cost when the step is not a constant). */
#define MVS_INLINE_SLICE_BOUNDS_(len, start, stop, step, first, count)                                           \
    do {                                                                                                         \
        ptrdiff_t mvs_len_ = (len), mvs_b0_ = (start), mvs_b1_ = (stop), mvs_last_;                             \
        (count) = 0;                                                                                             \
        if ((step) == MVS_NONE) (step) = 1;                                                                      \
        if ((step) > 0) {                                                                                        \
            (first) = mvs_b0_ < 0 ? (mvs_b0_ + mvs_len_ > 0 ? mvs_b0_ + mvs_len_ : 0)                           \
                                  : (mvs_b0_ < mvs_len_ ? mvs_b0_ : mvs_len_);                                   \
            mvs_last_ = mvs_b1_ == MVS_NONE ? mvs_len_                                                           \
                        : mvs_b1_ < 0   ? (mvs_b1_ + mvs_len_ > 0 ? mvs_b1_ + mvs_len_ : 0)                     \
                                        : (mvs_b1_ < mvs_len_ ? mvs_b1_ : mvs_len_);                             \
            if (mvs_last_ > (first))                                                                             \
                (count) = (step) == 1 ? mvs_last_ - (first) : (mvs_last_ - (first) - 1) / (step) + 1;            \
        } else {                                                                                                 \
            (first) = mvs_b0_ == MVS_NONE ? mvs_len_ - 1                                                         \
                      : mvs_b0_ < 0      ? (mvs_b0_ + mvs_len_ > -1 ? mvs_b0_ + mvs_len_ : -1)                  \
                                         : (mvs_b0_ < mvs_len_ - 1 ? mvs_b0_ : mvs_len_ - 1);                    \
            mvs_last_ = mvs_b1_ < 0 ? (mvs_b1_ + mvs_len_ > -1 ? mvs_b1_ + mvs_len_ : -1)                       \
                                    : (mvs_b1_ < mvs_len_ - 1 ? mvs_b1_ : mvs_len_ - 1);                         \
            if ((first) > mvs_last_)                                                                             \
                (count) = (step) == -1 ? (first) - mvs_last_ : ((first) - mvs_last_ - 1) / -(step) + 1;          \
        }                                                                                                        \
    } while (0)

#define MVS_INLINE_SLICE_AXIS_K_(dst, src, k)                                                                   \
    (dst).shape[k] = (k) == mvs_ax_ ? mvs_count_ : (k) < mvs_n_ ? (src).shape[k] : 0;                            \
    (dst).strides[k] = (k) == mvs_ax_ && mvs_count_ > 1 ? mvs_stride_ * mvs_st_ : (k) < mvs_n_ ? (src).strides[k] : 0; \
    (dst).suboffsets[k] = -1;

/* The inline part of mvs_index_axis(src, ndim, axis, index, dst), as MVS_INLINE_SLICE_AXIS:
   for usual views (MVS_INLINE_USUAL), an axis and an index in range. */
#define MVS_INLINE_INDEX_AXIS(dst, src, ndim, axis, index, ok)                                                   \
    do {                                                                                                         \
        int mvs_n_ = (ndim), mvs_ax_ = (axis) < 0 && mvs_n_ >= 0 ? (axis) + mvs_n_ : (axis);                          \
        ptrdiff_t mvs_i_ = (index);                                                                              \
        (ok) = mvs_n_ >= 1 && mvs_ax_ >= 0 && mvs_ax_ < mvs_n_;                                                 \
        MVS_INLINE_USUAL(src, mvs_n_, ok);                                                                       \
        if (ok) {                                                                                                \
            if (mvs_i_ < 0) mvs_i_ += (src).shape[mvs_ax_];                                                      \
            (ok) = mvs_i_ >= 0 && mvs_i_ < (src).shape[mvs_ax_];                                                 \
        }                                                                                                        \
        if (ok) {                                                                                                \
            (dst).memview = (src).memview;                                                                       \
            (dst).data = MVS_INLINE_OFFSET_((src).data, mvs_i_ * (src).strides[mvs_ax_]);                        \
            MVS_INLINE_EACH_AXIS_(MVS_INLINE_INDEX_AXIS_K_, dst, src)                                            \
        }                                                                                                        \
    } while (0)

#define MVS_INLINE_INDEX_AXIS_K_(dst, src, k)                                                                   \
    (dst).shape[k] = (k) < mvs_n_ - 1 ? (src).shape[(k) + ((k) >= mvs_ax_)] : 0;                                  \
    (dst).strides[k] = (k) < mvs_n_ - 1 ? (src).strides[(k) + ((k) >= mvs_ax_)] : 0;                              \
    (dst).suboffsets[k] = -1;

/* The inline part of mvs_index(src, ndim, items, nitems, dst, &out_ndim), as
   MVS_INLINE_SLICE_AXIS: for usual views (MVS_INLINE_USUAL), `nitems` in 0..=`ndim` items that
   are integers in range and slices with a step other than 0 (no new axis, no ellipsis). Sets
   `out_ndim` (an int lvalue) to the result's number of dimensions when it takes the case. The
   result is gathered first, then written: `dst` may be `src`. */
#define MVS_INLINE_INDEX(dst, src, ndim, items, nitems, out_ndim, ok)                                            \
    do {                                                                                                         \
        int mvs_n_ = (ndim), mvs_ni_ = (nitems), mvs_o_ = 0;                                                     \
        const mvs_index_item *mvs_it_ = (items);                                                                 \
        ptrdiff_t mvs_moved_ = 0, mvs_sh_[8], mvs_sd_[8];                                                        \
        (ok) = mvs_ni_ >= 0 && mvs_ni_ <= mvs_n_ && (mvs_ni_ == 0 || mvs_it_);                                  \
        MVS_INLINE_USUAL(src, mvs_n_, ok);                                                                       \
        if (ok) {                                                                                                \
            MVS_INLINE_EACH_AXIS_(MVS_INLINE_INDEX_K_, ok, src)                                                  \
        }                                                                                                        \
        if (ok) {                                                                                                \
            (dst).memview = (src).memview;                                                                       \
            (dst).data = MVS_INLINE_OFFSET_((src).data, mvs_moved_);                                             \
            MVS_INLINE_EACH_AXIS_(MVS_INLINE_INDEX_OUT_K_, dst, mvs_o_)                                          \
            (out_ndim) = mvs_o_;                                                                                 \
        }                                                                                                        \
    } while (0)

/* Source axis k of MVS_INLINE_INDEX: its item applied (an integer moves the data address and
   drops the axis, a slice moves it and keeps the axis, sliced), or the axis kept whole. */
#define MVS_INLINE_INDEX_K_(ok, src, k)                                                                          \
    if ((ok) && (k) < mvs_n_) {                                                                                  \
        ptrdiff_t mvs_l_ = (src).shape[k], mvs_s_ = (src).strides[k], mvs_i_, mvs_c_, mvs_t_;                    \
        if ((k) >= mvs_ni_) {                                                                                    \
            mvs_sh_[mvs_o_] = mvs_l_;                                                                            \
            mvs_sd_[mvs_o_++] = mvs_s_;                                                                          \
        } else if (mvs_it_[k].kind == MVS_ITEM_INDEX) {                                                          \
            mvs_i_ = mvs_it_[k].start < 0 ? mvs_it_[k].start + mvs_l_ : mvs_it_[k].start;                        \
            (ok) = mvs_i_ >= 0 && mvs_i_ < mvs_l_;                                                               \
            if (ok) mvs_moved_ += mvs_i_ * mvs_s_;                                                               \
        } else if (mvs_it_[k].kind == MVS_ITEM_SLICE && mvs_it_[k].step != 0) {                                  \
            mvs_t_ = mvs_it_[k].step;                                                                            \
            MVS_INLINE_SLICE_BOUNDS_(mvs_l_, mvs_it_[k].start, mvs_it_[k].stop, mvs_t_, mvs_i_, mvs_c_);        \
            if (mvs_c_ > 0) mvs_moved_ += mvs_i_ * mvs_s_;                                                       \
            mvs_sh_[mvs_o_] = mvs_c_;                                                                            \
            mvs_sd_[mvs_o_++] = mvs_c_ > 1 ? mvs_s_ * mvs_t_ : mvs_s_;                                           \
        } else {                                                                                                 \
            (ok) = 0;                                                                                            \
        }                                                                                                        \
    }

#define MVS_INLINE_INDEX_OUT_K_(dst, o, k)                                                                      \
    (dst).shape[k] = (k) < (o) ? mvs_sh_[k] : 0;                                                                 \
    (dst).strides[k] = (k) < (o) ? mvs_sd_[k] : 0;                                                               \
    (dst).suboffsets[k] = -1;

/* The inline part of mvs_transpose(src, ndim, dst), as MVS_INLINE_SLICE_AXIS: for usual views
   (MVS_INLINE_USUAL). `dst` must not be `src` (the axes are exchanged). */
#define MVS_INLINE_TRANSPOSE(dst, src, ndim, ok)                                                                 \
    do {                                                                                                         \
        int mvs_n_ = (ndim);                                                                                    \
        (ok) = 1;                                                                                                \
        MVS_INLINE_USUAL(src, mvs_n_, ok);                                                                       \
        if (ok) {                                                                                                \
            (dst).memview = (src).memview;                                                                       \
            (dst).data = (src).data;                                                                             \
            MVS_INLINE_EACH_AXIS_(MVS_INLINE_TRANSPOSE_K_, dst, src)                                             \
        }                                                                                                        \
    } while (0)

#define MVS_INLINE_TRANSPOSE_K_(dst, src, k)                                                                    \
    (dst).shape[k] = (k) < mvs_n_ ? (src).shape[mvs_n_ - 1 - (k)] : 0;                                            \
    (dst).strides[k] = (k) < mvs_n_ ? (src).strides[mvs_n_ - 1 - (k)] : 0;                                        \
    (dst).suboffsets[k] = -1;

/* The inline part of mvs_subview(src, ndim, itemsize, offset, out_ndim, extents, order, dst), as
   MVS_INLINE_SLICE_AXIS: for a usual source (MVS_INLINE_USUAL) of 1 to 8 axes that is
   C-contiguous by Cython's strict rule (the innermost stride is `itemsize`, each outer one the
   inner stride times the inner extent), `itemsize` in 1..=2^20, `offset` in 0..2^40, `order`
   'C' or 'F', and a result of one item or more that fits, with extents below
   MVS_USUAL_EXTENT_LIMIT and a
   stride product below 2^32 before its last factor. Other contiguous sources, zero-size
   results and every error are the library's. `dst` may be `src`. */
#define MVS_INLINE_SUBVIEW(dst, src, ndim, itemsize, offset, out_ndim, extents, order, ok)                      \
    do {                                                                                                         \
        int mvs_n_ = (ndim), mvs_m_ = (out_ndim), mvs_ord_ = (order);                                           \
        ptrdiff_t mvs_isz_ = (itemsize), mvs_off_ = (offset), mvs_run_, mvs_sd_[8] = {0}, mvs_min_ = 1;          \
        const ptrdiff_t *mvs_ext_ = (extents);                                                                   \
        (ok) = mvs_n_ >= 1 && mvs_isz_ >= 1 && mvs_isz_ <= ((ptrdiff_t)1 << 20) && mvs_off_ >= 0 &&              \
               mvs_off_ < ((ptrdiff_t)1 << 40) && mvs_m_ >= 0 && mvs_m_ <= 8 && (mvs_m_ == 0 || mvs_ext_) &&     \
               (mvs_ord_ == 'C' || mvs_ord_ == 'F');                                                            \
        MVS_INLINE_USUAL(src, mvs_n_, ok);                                                                       \
        if (ok) {                                                                                                \
            MVS_INLINE_EACH_AXIS_(MVS_INLINE_SUBVIEW_CHAIN_K_, ok, src)                                          \
        }                                                                                                        \
        if (ok) {                                                                                                \
            mvs_run_ = mvs_isz_;                                                                                 \
            if (mvs_ord_ == 'C') {                                                                               \
                MVS_INLINE_EACH_AXIS_REV_(MVS_INLINE_SUBVIEW_STRIDE_K_, ok, mvs_ext_)                            \
            } else {                                                                                             \
                MVS_INLINE_EACH_AXIS_(MVS_INLINE_SUBVIEW_STRIDE_K_, ok, mvs_ext_)                                \
            }                                                                                                    \
            /* The source's bytes: its outermost extent times its outermost stride. */                          \
            (ok) = (ok) && mvs_off_ * mvs_isz_ + mvs_run_ <= (src).shape[0] * (src).strides[0];                 \
        }                                                                                                        \
        if (ok) {                                                                                                \
            (dst).memview = (src).memview;                                                                       \
            (dst).data = MVS_INLINE_OFFSET_((src).data, mvs_off_ * mvs_isz_);                                    \
            MVS_INLINE_EACH_AXIS_(MVS_INLINE_SUBVIEW_OUT_K_, dst, mvs_ext_)                                      \
        }                                                                                                        \
    } while (0)

/* Axis k of a strictly C-contiguous source: its stride is the next axis's bytes, or the item
   size for the innermost. */
#define MVS_INLINE_SUBVIEW_CHAIN_K_(ok, src, k)                                                                  \
    if ((k) < mvs_n_)                                                                                            \
        (ok) = (ok) && (src).strides[k] == ((k) == mvs_n_ - 1 ? mvs_isz_                                        \
                                            : (src).strides[(k) < 7 ? (k) + 1 : 7] * (src).shape[(k) < 7 ? (k) + 1 : 7]);

/* Axis k of a contiguous result (of MVS_INLINE_SUBVIEW, MVS_INLINE_CONTIGUOUS), taken from the
   innermost out: its stride, then the running product times its extent (zero counted as 1),
   which must be in mvs_min_..MVS_USUAL_EXTENT_LIMIT, with the product below 2^32 before it. */
#define MVS_INLINE_SUBVIEW_STRIDE_K_(ok, ext, k)                                                                 \
    if ((k) < mvs_m_) {                                                                                          \
        mvs_sd_[k] = mvs_run_;                                                                                   \
        (ok) = (ok) && (ext)[k] >= mvs_min_ && (ext)[k] < (ptrdiff_t)MVS_USUAL_EXTENT_LIMIT &&                   \
               mvs_run_ < ((ptrdiff_t)1 << 32);                                                                  \
        if (ok) mvs_run_ *= (ext)[k] > 1 ? (ext)[k] : 1;                                                         \
    }

#define MVS_INLINE_SUBVIEW_OUT_K_(dst, ext, k)                                                                   \
    (dst).shape[k] = (k) < mvs_m_ ? (ext)[k] : 0;                                                                \
    (dst).strides[k] = (k) < mvs_m_ ? mvs_sd_[k] : 0;                                                            \
    (dst).suboffsets[k] = -1;

/* mvs_view_contiguous(ptr, itemsize, ndim, extents, order, dst) as a statement macro, as
   MVS_INLINE_SLICE_AXIS: when `ndim` is in 0..=8, `itemsize` in 1..=2^20, `order` 'C' or 'F',
   every extent in 0..MVS_USUAL_EXTENT_LIMIT and the stride product below 2^32 before each
   factor, writes the library's result to `dst` field by field (memview NULL) and sets `ok` to
   1; otherwise sets `ok` to 0 and writes nothing, and the library must be called. Unlike
   mvs_inline_view_contiguous, which writes through a pointer, it lets a compiler keep a view of
   a constant `ndim` in registers. c_tests/test_inline.c compares it with the library. */
#define MVS_INLINE_CONTIGUOUS(dst, ptr, itemsize, ndim, extents, order, ok)                                     \
    do {                                                                                                         \
        int mvs_m_ = (ndim), mvs_ord_ = (order);                                                                \
        ptrdiff_t mvs_isz_ = (itemsize), mvs_run_ = mvs_isz_, mvs_sd_[8] = {0}, mvs_min_ = 0;                    \
        const ptrdiff_t *mvs_ext_ = (extents);                                                                   \
        (ok) = mvs_m_ >= 0 && mvs_m_ <= 8 && mvs_isz_ >= 1 && mvs_isz_ <= ((ptrdiff_t)1 << 20) &&               \
               (mvs_m_ == 0 || mvs_ext_) && (mvs_ord_ == 'C' || mvs_ord_ == 'F');                               \
        if (ok) {                                                                                                \
            if (mvs_ord_ == 'C') {                                                                               \
                MVS_INLINE_EACH_AXIS_REV_(MVS_INLINE_SUBVIEW_STRIDE_K_, ok, mvs_ext_)                            \
            } else {                                                                                             \
                MVS_INLINE_EACH_AXIS_(MVS_INLINE_SUBVIEW_STRIDE_K_, ok, mvs_ext_)                                \
            }                                                                                                    \
        }                                                                                                        \
        if (ok) {                                                                                                \
            (dst).memview = NULL;                                                                                \
            (dst).data = (char *)(ptr);                                                                          \
            MVS_INLINE_EACH_AXIS_(MVS_INLINE_SUBVIEW_OUT_K_, dst, mvs_ext_)                                      \
        }                                                                                                        \
    } while (0)

#endif /* MVS_INLINE_H */
