/* Moving data between views: a transposed copy, a row broadcast over a matrix, and a
 * contiguous copy into a new buffer. Unlike the views of tour.c, these write memory. */
#include "common.h"

int main(void)
{
    double m[12], t[12], rows[12], row[4] = {1, 2, 3, 4};
    const ptrdiff_t shape34[] = {3, 4}, shape43[] = {4, 3}, four = 4;
    mvs_slice mv, mtv, tv, rowv, rowsv, cv;
    mvs_buffer *buffer;
    ptrdiff_t nbytes;

    for (int i = 0; i < 12; i++)
        m[i] = i;
    check(mvs_view_contiguous(m, sizeof(double), 2, shape34, 'C', &mv), "mvs_view_contiguous");
    print_view("m = np.arange(12.).reshape(3, 4)", &mv, 2);

    /* t[...] = m.T: the transposed view's items, written into a C-contiguous 4x3 array. */
    check(mvs_transpose(&mv, 2, &mtv), "mvs_transpose");
    check(mvs_view_contiguous(t, sizeof(double), 2, shape43, 'C', &tv), "mvs_view_contiguous");
    check(mvs_copy(&mtv, 2, &tv, 2, sizeof(double)), "mvs_copy");
    print_view("t = np.empty((4, 3)); t[...] = m.T", &tv, 2);

    /* rows[...] = row: a 1-d source of 4 items repeated along the 3 rows of the destination. */
    check(mvs_view_contiguous(row, sizeof(double), 1, &four, 'C', &rowv), "mvs_view_contiguous");
    check(mvs_view_contiguous(rows, sizeof(double), 2, shape34, 'C', &rowsv), "mvs_view_contiguous");
    check(mvs_copy(&rowv, 1, &rowsv, 2, sizeof(double)), "mvs_copy");
    print_view("rows = np.empty((3, 4)); rows[...] = [1., 2., 3., 4.]", &rowsv, 2);

    /* np.ascontiguousarray(m.T): a new buffer (ours: one reference), C-contiguous. */
    check(mvs_copy_contiguous(&mtv, 2, sizeof(double), 'C', &buffer, &cv), "mvs_copy_contiguous");
    check(mvs_buffer_size(buffer, &nbytes), "mvs_buffer_size");
    printf("c = np.ascontiguousarray(m.T): %td bytes, shape (%td, %td), strides (%td, %td)\n", nbytes,
           cv.shape[0], cv.shape[1], cv.strides[0], cv.strides[1]);
    print_view("c", &cv, 2);
    mvs_buffer_release(buffer);
    return 0;
}
