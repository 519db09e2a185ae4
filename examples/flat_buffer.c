/* One flat buffer, several views: the 14 doubles of `buf` seen as a (2,3) matrix at item 0 and
 * as a (2,2,2) cube at item 6. Writing through a view writes the buffer; nothing is copied. */
#include "common.h"

/* The address of v[i, j, ...]: data plus index times stride, summed over the axes. */
#define AT2(v, i, j) ((double *)((v).data + (i) * (v).strides[0] + (j) * (v).strides[1]))
#define AT3(v, i, j, k) \
    ((double *)((v).data + (i) * (v).strides[0] + (j) * (v).strides[1] + (k) * (v).strides[2]))

int main(void)
{
    double buf[14] = {0};
    const ptrdiff_t n = 14, mat_shape[] = {2, 3}, cube_shape[] = {2, 2, 2};
    mvs_slice flat, mat, cube;

    /* The whole buffer as a 1-D view, then C-ordered views of parts of it. */
    check(mvs_view_contiguous(buf, sizeof(double), 1, &n, 'C', &flat), "mvs_view_contiguous");
    check(mvs_subview(&flat, 1, sizeof(double), 0, 2, mat_shape, 'C', &mat), "mvs_subview (2,3)");
    check(mvs_subview(&flat, 1, sizeof(double), 6, 3, cube_shape, 'C', &cube), "mvs_subview (2,2,2)");

    /* Number the items of each view in index order. */
    double next = 0;
    for (ptrdiff_t i = 0; i < mat.shape[0]; i++)
        for (ptrdiff_t j = 0; j < mat.shape[1]; j++)
            *AT2(mat, i, j) = next++;
    for (ptrdiff_t i = 0; i < cube.shape[0]; i++)
        for (ptrdiff_t j = 0; j < cube.shape[1]; j++)
            for (ptrdiff_t k = 0; k < cube.shape[2]; k++)
                *AT3(cube, i, j, k) = next++;

    print_view("mat (2,3) at item 0", &mat, 2);
    print_view("cube (2,2,2) at item 6", &cube, 3);
    /* Both views are C-contiguous pieces of buf, so it now reads 0, 1, ..., 13. */
    print_view("buf", &flat, 1);
    printf("mat.data = buf + %td items, cube.data = buf + %td items\n",
           (double *)mat.data - buf, (double *)cube.data - buf);
    return 0;
}
