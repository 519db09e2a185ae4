/* Hand-written C references for benches/icount.c; see benches/reference.c. Each returns 0 on
 * success, nonzero on error (no message). */
#ifndef MVS_BENCH_REFERENCE_H
#define MVS_BENCH_REFERENCE_H

#include "memviewslice.h"

int ref_slice_axis(const mvs_slice *src, int ndim, int axis, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step,
                   mvs_slice *out);
int ref_index_axis(const mvs_slice *src, int ndim, int axis, ptrdiff_t index, mvs_slice *out);
int ref_transpose(const mvs_slice *src, int ndim, mvs_slice *out);
int ref_subview(const mvs_slice *src, int ndim, ptrdiff_t itemsize, ptrdiff_t offset, int out_ndim,
                const ptrdiff_t *shape, int order, mvs_slice *out);
int ref_index(const mvs_slice *src, int ndim, const mvs_index_item *items, int nitems, mvs_slice *out, int *out_ndim);
int ref_reshape(const mvs_slice *src, int ndim, ptrdiff_t itemsize, int out_ndim, const ptrdiff_t *shape, int order,
                mvs_slice *out);

#endif
