/* Helpers shared by the examples: exit on error with the library's message, and print a
 * float64 view the way NumPy's str() does. */
#ifndef MVS_EXAMPLES_COMMON_H
#define MVS_EXAMPLES_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "memviewslice.h"

/* Exits with the library's message when a call failed. */
static inline void check(mvs_status status, const char *what)
{
    if (status != MVS_OK) {
        fprintf(stderr, "%s failed: %s\n", what, mvs_last_error());
        exit(1);
    }
}

/* Printing like NumPy's str(a) for whole numbers: "3.", columns padded to the widest. */
static inline int widest(const mvs_slice *v, int ndim, int axis, const char *p)
{
    if (axis == ndim)
        return snprintf(NULL, 0, "%g", *(const double *)p);
    int w = 0;
    for (ptrdiff_t i = 0; i < v->shape[axis]; i++) {
        int wi = widest(v, ndim, axis + 1, p + i * v->strides[axis]);
        w = wi > w ? wi : w;
    }
    return w;
}

static inline void print_rec(const mvs_slice *v, int ndim, int axis, const char *p, int width)
{
    if (axis == ndim) {
        printf("%*g.", width, *(const double *)p);
        return;
    }
    putchar('[');
    for (ptrdiff_t i = 0; i < v->shape[axis]; i++) {
        if (i > 0 && axis == ndim - 1)
            putchar(' ');
        else if (i > 0) { /* a new line per inner level, then indent under the bracket */
            for (int k = axis + 1; k < ndim; k++)
                putchar('\n');
            printf("%*s", axis + 1, "");
        }
        print_rec(v, ndim, axis + 1, p + i * v->strides[axis], width);
    }
    putchar(']');
}

static inline void print_view(const char *name, const mvs_slice *v, int ndim)
{
    printf("%s =\n", name);
    print_rec(v, ndim, 0, v->data, widest(v, ndim, 0, v->data));
    printf("\n\n");
}

#endif
