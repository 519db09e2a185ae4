/* The upper-left corner a[:-1, :-1] of a 2-D view, as a view of the same memory (no copy). */
#include <stdio.h>
#include <stdlib.h>

#include "memviewslice.h"

/* Exits with the library's message when a call failed. */
static void check(mvs_status status, const char *what)
{
    if (status != MVS_OK) {
        fprintf(stderr, "%s failed: %s\n", what, mvs_last_error());
        exit(1);
    }
}

/* Printing like NumPy's str(a) for whole numbers: "3.", columns padded to the widest. */
static int widest(const mvs_slice *v, int ndim, int axis, const char *p)
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

static void print_rec(const mvs_slice *v, int ndim, int axis, const char *p, int width)
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

static void print_view(const char *name, const mvs_slice *v, int ndim)
{
    printf("%s =\n", name);
    print_rec(v, ndim, 0, v->data, widest(v, ndim, 0, v->data));
    printf("\n\n");
}

/* a[:-1, :-1]: two slice items, each "start omitted, stop -1, step omitted". The status is
 * MVS_OK or an error code, as for every library call. */
static int corner(const mvs_slice *a, mvs_slice *out)
{
    const mvs_index_item items[] = {
        {MVS_ITEM_SLICE, MVS_NONE, -1, MVS_NONE},
        {MVS_ITEM_SLICE, MVS_NONE, -1, MVS_NONE},
    };
    int out_ndim; /* 2: slices keep their axes */
    return mvs_index(a, 2, items, 2, out, &out_ndim);
}

int main(void)
{
    double buf[25];
    const ptrdiff_t shape[] = {5, 5};
    mvs_slice a, c;

    for (int i = 0; i < 25; i++)
        buf[i] = i;
    check(mvs_view_contiguous(buf, sizeof(double), 2, shape, 'C', &a), "mvs_view_contiguous");
    check(corner(&a, &c), "corner");

    print_view("a", &a, 2);
    print_view("corner(a)", &c, 2);
    /* Same data address and strides as a, one row and one column fewer. */
    printf("a: shape (%td, %td), strides (%td, %td)\n", a.shape[0], a.shape[1], a.strides[0], a.strides[1]);
    printf("c: shape (%td, %td), strides (%td, %td)\n", c.shape[0], c.shape[1], c.strides[0], c.strides[1]);
    printf("c.data == a.data: %s\n\n", c.data == a.data ? "yes" : "no");

    /* The corner shares a's memory: zero it through c, and a changes. */
    for (ptrdiff_t i = 0; i < c.shape[0]; i++)
        for (ptrdiff_t j = 0; j < c.shape[1]; j++)
            *(double *)(c.data + i * c.strides[0] + j * c.strides[1]) = 0;
    print_view("a after zeroing corner(a)", &a, 2);
    return 0;
}
