/* The hot derivations, called from C with the same arguments as benches/views.rs, on a 4-D
 * C-contiguous float64 view of shape (8, 16, 32, 64). Two figures that criterion's medians lack
 * on a noisy machine:
 *
 *   icount OP N   calls OP N times. `make icount` runs it under valgrind's callgrind with N and
 *                 2N and prints the difference divided by N: instructions per call, a figure that
 *                 does not move with machine load.
 *   icount time [FILE]
 *                 times every OP in 30 interleaved rounds of 200,000 calls and prints the best
 *                 round of each in ns per call, with its ratio to the floor's; with FILE, also
 *                 writes `OP ns` lines there (`make besttime` records them in
 *                 benches/results/besttime.json).
 *                 The best of interleaved rounds is what a quiet machine gives; noise only adds.
 *
 * OP: floor (a 208-byte struct copy plus two dims, in a function that is not inlined, as the
 * criterion floor), slice_axis, index_axis, transpose, subview, reshape, index (4 items), and
 * c_slice_axis, c_index_axis, c_transpose, c_subview, c_reshape, c_index: the same six operations
 * written by hand in C with the same checks (benches/reference.c), for what that work costs with
 * no library around it; reshape_noncontig, views.rs's reshape of a non-contiguous view (NumPy's
 * walk over the axes; no C reference); and subview_flat, views.rs's subview of the same shape from
 * the flat 1-D view of the buffer (one flat buffer, many views; no C reference); copy_small,
 * mvs_copy of a (3, 3) view of the buffer into a (3, 3) array (benches/copy.rs's small copy);
 * then the library's other single-view derivations, on the same (8, 16, 32, 64) view unless
 * said (no C reference): permute (axes 2, 0, 3, 1), swap_axes (1, 3), move_axes (axis 0 to -1),
 * expand_dims (axis 2), squeeze_axis (axis 1) and squeeze of src[:, :1] (shape (8, 1, 32, 64)),
 * diagonal (offset 1, axes 2 and 3), flip_axis (axis 1), flip, sliding_window (axis 3, window 4,
 * step 2), broadcast_to (2, 8, 16, 32, 64), split (mvs_split_sections of axis 0 into 4 sections),
 * view_as (the float64 items as 4-byte ones: shape (8, 16, 32, 128));
 * last, the pool: pool, mvs_pool_acquire + mvs_pool_release of a (3, 3) float64 array, against
 * malloc_free, malloc(72) + free, what a C user writes instead (the library's output is the
 * view; malloc's, the pointer). `icount time` also prints their ratio. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memviewslice.h"
#include "reference.h"

enum { NOPS = 31, ROUNDS = 30, CALLS = 200000 };
static const char *const ops[NOPS] = {"floor",        "slice_axis",  "index_axis", "transpose", "subview",
                                      "reshape",      "index",       "c_slice_axis", "c_index_axis",
                                      "c_transpose",  "c_subview",   "c_reshape",  "c_index", "reshape_noncontig",
                                      "subview_flat", "copy_small",  "permute",    "swap_axes", "move_axes",
                                      "expand_dims",  "squeeze_axis", "squeeze",   "diagonal", "flip_axis",
                                      "flip",         "sliding_window", "broadcast_to", "split",
                                      "view_as",      "malloc_free",  "pool"};

static double buf[8 * 16 * 32 * 64];
/* Each at the start of a cache line, as in benches/views.rs. */
static _Alignas(64) mvs_slice src, strided, flat1d, out, small_src, small_dst, unit, parts[4];
static double small[9];
static mvs_pool *pool;

__attribute__((noinline)) static mvs_status floor_op(const mvs_slice *s, mvs_slice *o) {
    memcpy(o, s, sizeof *o);
    o->shape[0] = 4;
    o->strides[0] = 16;
    o->shape[1] = 2;
    o->strides[1] = 8;
    return MVS_OK;
}

/* Calls op `k` n times; the number of failed calls. */
static long run(int k, long n) {
    static const ptrdiff_t flat[2] = {128, 2048}, half_flat[2] = {128, 1024}, sub[4] = {4, 8, 16, 32};
    static const mvs_index_item items[4] = {
        {MVS_ITEM_INDEX, 3, 0, 0},
        {MVS_ITEM_SLICE, 2, 14, 3},
        {MVS_ITEM_SLICE, MVS_NONE, MVS_NONE, -1},
        {MVS_ITEM_INDEX, -5, 0, 0},
    };
    static const int perm[4] = {2, 0, 3, 1}, move_from[1] = {0}, move_to[1] = {-1};
    static const ptrdiff_t wide[5] = {2, 8, 16, 32, 64};
    const mvs_slice *source = k == 13 ? &strided : k == 14 ? &flat1d : k == 15 ? &small_src
                            : k == 20 || k == 21 ? &unit : &src;
    int nd;
    long failures = 0;
    for (long i = 0; i < n; i++) {
        const mvs_slice *s = source;
        mvs_slice *o = &out;
        __asm__ volatile("" : "+r"(s), "+r"(o)); /* opaque pointers, as criterion's black_box */
        mvs_status st;
        switch (k) { /* chosen once per run: every op pays the same loop overhead */
        case 0: st = floor_op(s, o); break;
        case 1: st = mvs_slice_axis(s, 4, 2, 3, -2, 2, o); break;
        case 2: st = mvs_index_axis(s, 4, 1, -3, o); break;
        case 3: st = mvs_transpose(s, 4, o); break;
        case 4: st = mvs_subview(s, 4, sizeof(double), 64, 4, sub, 'C', o); break;
        case 5: st = mvs_reshape(s, 4, sizeof(double), 2, flat, 'C', o); break;
        case 6: st = mvs_index(s, 4, items, 4, o, &nd); break;
        case 7: st = ref_slice_axis(s, 4, 2, 3, -2, 2, o); break;
        case 8: st = ref_index_axis(s, 4, 1, -3, o); break;
        case 9: st = ref_transpose(s, 4, o); break;
        case 10: st = ref_subview(s, 4, sizeof(double), 64, 4, sub, 'C', o); break;
        case 11: st = ref_reshape(s, 4, sizeof(double), 2, flat, 'C', o); break;
        case 12: st = ref_index(s, 4, items, 4, o, &nd); break;
        case 13: st = mvs_reshape(s, 4, sizeof(double), 2, half_flat, 'C', o); break;
        case 14: st = mvs_subview(s, 1, sizeof(double), 64, 4, sub, 'C', o); break;
        case 15: st = mvs_copy(s, 2, &small_dst, 2, sizeof(double)); break;
        case 16: st = mvs_permute(s, 4, perm, o); break;
        case 17: st = mvs_swap_axes(s, 4, 1, 3, o); break;
        case 18: st = mvs_move_axes(s, 4, move_from, move_to, 1, o); break;
        case 19: st = mvs_expand_dims(s, 4, 2, o); break;
        case 20: st = mvs_squeeze_axis(s, 4, 1, o); break;
        case 21: st = mvs_squeeze(s, 4, o, &nd); break;
        case 22: st = mvs_diagonal(s, 4, 1, 2, 3, o); break;
        case 23: st = mvs_flip_axis(s, 4, 1, o); break;
        case 24: st = mvs_flip(s, 4, o); break;
        case 25: st = mvs_sliding_window(s, 4, 3, 4, 2, o); break;
        case 26: st = mvs_broadcast_to(s, 4, 5, wide, o); break;
        case 27: st = mvs_split_sections(s, 4, 0, 4, 0, parts, 4); break;
        case 28: st = mvs_view_as(s, 4, sizeof(double), 4, o); break;
        case 29: {
            void *p = malloc(72);
            __asm__ volatile("" : "+r"(p)); /* opaque, as the view is */
            free(p);
            st = p ? MVS_OK : MVS_ERR_ALLOC;
            break;
        }
        default:
            st = mvs_pool_acquire(pool, o);
            __asm__ volatile("" : : "r"(o) : "memory"); /* the view is used */
            if (st == MVS_OK) st = mvs_pool_release(pool, o);
            break;
        }
        failures += st != MVS_OK;
        __asm__ volatile("" : : "r"(o) : "memory"); /* keep every call */
    }
    return failures;
}

/* Whether each C reference gives what the library gives for the benchmarked call. */
static int references_agree(void) {
    for (int k = 1; k <= 6; k++) { /* the op at k + 6 is the reference of the op at k */
        if (run(k, 1)) return 0;
        mvs_slice lib = out;
        memset(&out, 0xab, sizeof out);
        if (run(k + 6, 1) || memcmp(&lib, &out, sizeof out)) {
            fprintf(stderr, "%s and %s disagree\n", ops[k], ops[k + 6]);
            return 0;
        }
    }
    return 1;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    ptrdiff_t shape[4] = {8, 16, 32, 64};
    if (mvs_view_contiguous(buf, sizeof(double), 4, shape, 'C', &src) != MVS_OK || !references_agree()) return 1;
    /* src[:, :, :16, :], of shape (8, 16, 16, 64): it reshapes to (128, 1024) with no copy. */
    if (mvs_slice_axis(&src, 4, 2, 0, 16, 1, &strided) != MVS_OK) return 1;
    /* src[:, :1], of shape (8, 1, 32, 64): an axis of length 1 to squeeze. */
    if (mvs_slice_axis(&src, 4, 1, 0, 1, 1, &unit) != MVS_OK) return 1;
    ptrdiff_t items = 8 * 16 * 32 * 64;
    if (mvs_view_contiguous(buf, sizeof(double), 1, &items, 'C', &flat1d) != MVS_OK) return 1;
    ptrdiff_t three[2] = {3, 3}, row[2] = {64 * sizeof(double), sizeof(double)};
    if (mvs_view_strided(buf, sizeof(double), 2, three, row, &small_src) != MVS_OK) return 1;
    if (mvs_view_contiguous(small, sizeof(double), 2, three, 'C', &small_dst) != MVS_OK) return 1;
    if (mvs_pool_create(sizeof(double), 2, three, 'C', 16, &pool) != MVS_OK) return 1;
    if ((argc == 2 || argc == 3) && !strcmp(argv[1], "time")) {
        double best[NOPS];
        for (int k = 0; k < NOPS; k++) best[k] = 1e300;
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < NOPS; k++) {
                double t0 = now_ns();
                if (run(k, CALLS)) return 1;
                double t = (now_ns() - t0) / CALLS;
                if (t < best[k]) best[k] = t;
            }
        }
        printf("| op | best ns per call | ratio to floor |\n|---|---:|---:|\n");
        for (int k = 0; k < NOPS; k++) printf("| %s | %.1f | %.2fx |\n", ops[k], best[k], best[k] / best[0]);
        printf("\npool / malloc_free: %.2fx\n", best[NOPS - 1] / best[NOPS - 2]);
        if (argc == 3) {
            FILE *record = fopen(argv[2], "w");
            if (!record) {
                perror(argv[2]);
                return 1;
            }
            fprintf(record, "rounds %d\n", ROUNDS);
            for (int k = 0; k < NOPS; k++) fprintf(record, "%s %.4g\n", ops[k], best[k]);
            return fclose(record) != 0;
        }
        return 0;
    }
    if (argc == 3) {
        for (int k = 0; k < NOPS; k++)
            if (!strcmp(argv[1], ops[k])) return run(k, atol(argv[2])) != 0;
    }
    fprintf(stderr, "usage: %s OP N | %s time [FILE]\n", argv[0], argv[0]);
    return 2;
}
