/* A tour of derived views over one 12-item buffer: reshape, transpose, broadcast, sliding
 * windows. Each is a new shape and new strides over the same memory; nothing is copied. */
#include "common.h"

/* Prints a tuple the Python way: (3, 4), (12,), (). */
static void print_tuple(const ptrdiff_t *xs, int n)
{
    putchar('(');
    for (int d = 0; d < n; d++)
        printf("%s%td", d > 0 ? ", " : "", xs[d]);
    printf(n == 1 ? ",)" : ")");
}

/* Prints the title, the shape and strides, and the elements of views of up to 32 items. */
static void show(const char *title, const mvs_slice *v, int ndim)
{
    ptrdiff_t items;
    check(mvs_item_count(v, ndim, &items), "mvs_item_count");
    printf("%s\n  shape ", title);
    print_tuple(v->shape, ndim);
    printf(", strides ");
    print_tuple(v->strides, ndim);
    printf("\n");
    if (items <= 32) {
        print_rec(v, ndim, 0, v->data, widest(v, ndim, 0, v->data));
        printf("\n");
    }
    printf("\n");
}

int main(void)
{
    double buf[12];
    const ptrdiff_t n = 12, shape34[] = {3, 4}, tall[] = {1000000, 4};
    mvs_slice a, m, t, flat, row, rows, windows, patches;

    for (int i = 0; i < 12; i++)
        buf[i] = i;
    check(mvs_view_contiguous(buf, sizeof(double), 1, &n, 'C', &a), "mvs_view_contiguous");
    show("a = np.arange(12.)", &a, 1);

    /* Reshape: the same items in a new shape. */
    check(mvs_reshape(&a, 1, sizeof(double), 2, shape34, 'C', &m), "mvs_reshape");
    show("m = a.reshape(3, 4)", &m, 2);

    /* Transpose: the strides swap, so t is F-contiguous, not C-contiguous. */
    check(mvs_transpose(&m, 2, &t), "mvs_transpose");
    show("t = m.T", &t, 2);

    /* Reading t flat in C order would need a copy, which the library never makes... */
    mvs_status status = mvs_reshape(&t, 2, sizeof(double), 1, &n, 'C', &flat);
    printf("t.reshape(12)\n  %s: %s\n\n", mvs_status_str(status), mvs_last_error());
    if (status != MVS_ERR_NEEDS_COPY)
        return 1; /* not what this tour expects */
    /* ...but in F order it is a plain view. */
    check(mvs_reshape(&t, 2, sizeof(double), 1, &n, 'F', &flat), "mvs_reshape");
    show("t.reshape(12, order='F')", &flat, 1);

    /* Broadcast: stride 0 repeats the row, at any size, in no memory. */
    check(mvs_index_axis(&m, 2, 0, 1, &row), "mvs_index_axis");
    check(mvs_broadcast_to(&row, 1, 2, shape34, &rows), "mvs_broadcast_to");
    show("np.broadcast_to(m[1], (3, 4))", &rows, 2);
    check(mvs_broadcast_to(&row, 1, 2, tall, &rows), "mvs_broadcast_to");
    show("np.broadcast_to(m[1], (1000000, 4))", &rows, 2);

    /* Sliding windows: the window axis reuses the stride of the axis it slides along. */
    check(mvs_sliding_window(&a, 1, 0, 4, 2, &windows), "mvs_sliding_window");
    show("sliding_window_view(a, 4)[::2]", &windows, 2);
    /* Along both axes of m: every 2x2 patch. */
    check(mvs_sliding_window(&m, 2, 0, 2, 1, &patches), "mvs_sliding_window");
    check(mvs_sliding_window(&patches, 3, 1, 2, 1, &patches), "mvs_sliding_window");
    show("sliding_window_view(m, (2, 2))", &patches, 4);
    return 0;
}
