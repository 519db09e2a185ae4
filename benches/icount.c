/* Instructions per call of the hot derivations, counted by valgrind's callgrind: a figure that
 * does not move with machine load, unlike criterion's nanoseconds (`make icount`).
 *
 *   icount OP N   calls OP N times on a 4-D C-contiguous float64 view of shape (8, 16, 32, 64),
 *                 the same source as benches/views.rs. `make icount` runs it under callgrind with
 *                 N and 2N and prints the difference divided by N: the cost of one call.
 * OP: floor (a 208-byte struct copy plus two dims, as the criterion floor), slice_axis,
 * index_axis, transpose, reshape, index (4 items), subview. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memviewslice.h"

static double buf[8 * 16 * 32 * 64];

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s OP N\n", argv[0]);
        return 2;
    }
    const char *op = argv[1];
    long n = atol(argv[2]);
    ptrdiff_t shape[4] = {8, 16, 32, 64}, flat[2] = {128, 2048}, sub[3] = {4, 8, 16};
    mvs_index_item items[4] = {
        {MVS_ITEM_INDEX, 1, 0, 0},
        {MVS_ITEM_SLICE, 2, 10, 2},
        {MVS_ITEM_ELLIPSIS, 0, 0, 0},
        {MVS_ITEM_SLICE, MVS_NONE, MVS_NONE, -1},
    };
    mvs_slice src, out;
    int nd;
    if (mvs_view_contiguous(buf, sizeof(double), 4, shape, 'C', &src) != MVS_OK) return 1;
    static const char *const ops[] = {"floor", "slice_axis", "index_axis", "transpose", "reshape", "index", "subview"};
    int k = 0;
    while (k < 7 && strcmp(op, ops[k])) k++;
    if (k == 7) {
        fprintf(stderr, "unknown op %s\n", op);
        return 2;
    }
    long failures = 0;
    for (long i = 0; i < n; i++) {
        mvs_status st = MVS_OK;
        switch (k) { /* chosen once, so that every op pays the same loop overhead */
        case 0:
            memcpy(&out, &src, sizeof out);
            out.shape[0] = 4;
            out.strides[0] = 16;
            out.shape[1] = 2;
            out.strides[1] = 8;
            break;
        case 1: st = mvs_slice_axis(&src, 4, 1, 2, 10, 2, &out); break;
        case 2: st = mvs_index_axis(&src, 4, 1, 3, &out); break;
        case 3: st = mvs_transpose(&src, 4, &out); break;
        case 4: st = mvs_reshape(&src, 4, sizeof(double), 2, flat, 'C', &out); break;
        case 5: st = mvs_index(&src, 4, items, 4, &out, &nd); break;
        default: st = mvs_subview(&src, 4, sizeof(double), 64, 3, sub, 'C', &out); break;
        }
        failures += st != MVS_OK;
        __asm__ volatile("" : : "r"(&out) : "memory"); /* keep every call */
    }
    return failures != 0;
}
