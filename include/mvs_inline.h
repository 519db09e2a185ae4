/* Inline versions of memviewslice's constructors of views, for bindings that build views in a
 * hot loop (memviewslice's Cython helpers from_pointer_Nd use them): the same result, status
 * and output as the library's function for every input (c_tests/test_inline.c compares them on
 * 1,000,000 random cases and on every error), computed inline for the common case, and the
 * library's call for everything else, so that every error and message is the library's.
 * Valid C99 and C++11; needs memviewslice.h. */
#ifndef MVS_INLINE_H
#define MVS_INLINE_H

#include <stdint.h>
#include "memviewslice.h"

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

#endif /* MVS_INLINE_H */
