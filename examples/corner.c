/* The upper-left corner a[:-1, :-1] of a 2-D view, as a view of the same memory (no copy). */
#include "common.h"

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
