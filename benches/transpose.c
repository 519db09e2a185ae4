/* Transposed and permuted copies (mvs_copy) against memcpy of the same bytes, one thread, in one
   process: the figures of issue 35's first target (0.8x memcpy or better), for items of 1, 2,
   4, 8 and 16 bytes, 2-d transposes from 1000 x 1000 to 4096 x 4096 and the 3-d permutation
   (2, 0, 1) of 200 x 200 x 200, and the contiguous copy. The arrays are where NumPy puts large
   ones: 16 bytes into memory that asks for transparent huge pages. Each figure is the best of
   ROUNDS, the two copies' rounds interleaved. Run: `make bench-transpose`, which records the
   `name value` lines written to the file named by the first argument (ms, best of ROUNDS) in
   benches/results/transpose.json. */
#define _GNU_SOURCE /* madvise, clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "memviewslice.h"

#define ROUNDS 9
#define HUGE_PAGE ((size_t)2 << 20)

static FILE *record; /* the `name value` lines, or NULL */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* `nbytes` bytes 16 bytes into a block of whole huge pages, touched. */
static char *numpy_like(size_t nbytes) {
    size_t size = (nbytes + 16 + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    char *block = aligned_alloc(HUGE_PAGE, size);
    if (!block) {
        perror("aligned_alloc");
        exit(1);
    }
    madvise(block, size, MADV_HUGEPAGE);
    memset(block, 1, size);
    return block + 16;
}

/* A pointer the compiler must assume changed, and all memory with it. */
static void *opaque(void *p) {
    __asm__ volatile("" : "+r"(p) : : "memory");
    return p;
}

/* The best seconds of mvs_copy(src, dst) and of memcpy of dst's bytes, interleaved; recorded
   as `key/mvs_copy_ms` and `key/memcpy_ms`. */
static void measure(const char *what, const char *key, const mvs_slice *src, const mvs_slice *dst, int ndim,
                    ptrdiff_t itemsize, size_t nbytes) {
    double copy = 1e9, mc = 1e9;
    for (int r = 0; r < ROUNDS; r++) {
        double t = now();
        if (mvs_copy(opaque((void *)src), ndim, opaque((void *)dst), ndim, itemsize) != MVS_OK) {
            fprintf(stderr, "%s: %s\n", what, mvs_last_error());
            exit(1);
        }
        t = now() - t;
        copy = t < copy ? t : copy;
        t = now();
        memcpy(opaque(dst->data), opaque(src->data), nbytes);
        t = now() - t;
        mc = t < mc ? t : mc;
    }
    printf("%-44s %9.3f ms %9.3f ms   %5.2fx\n", what, copy * 1e3, mc * 1e3, mc / copy);
    if (record) fprintf(record, "%s/mvs_copy_ms %.6g\n%s/memcpy_ms %.6g\n", key, copy * 1e3, key, mc * 1e3);
}

/* dst (n x m, C order) = src.T, src (m x n, C order), items of `itemsize` bytes. */
static void transpose2d(ptrdiff_t n, ptrdiff_t m, ptrdiff_t itemsize) {
    size_t nbytes = (size_t)(n * m * itemsize);
    char *a = numpy_like(nbytes), *b = numpy_like(nbytes);
    ptrdiff_t shape[2] = {n, m}, tstrides[2] = {itemsize, n * itemsize}, strides[2] = {m * itemsize, itemsize};
    mvs_slice src, dst;
    mvs_view_strided(a, itemsize, 2, shape, tstrides, &src);
    mvs_view_strided(b, itemsize, 2, shape, strides, &dst);
    char what[64], key[64];
    snprintf(what, sizeof what, "transpose %td x %td, %td-byte items", n, m, itemsize);
    snprintf(key, sizeof key, "transpose/%td/%td", n, itemsize);
    measure(what, key, &src, &dst, 2, itemsize, nbytes);
    free(a - 16);
    free(b - 16);
}

int main(int argc, char **argv) {
    if (argc > 1) {
        if (!(record = fopen(argv[1], "w"))) {
            perror(argv[1]);
            return 1;
        }
        fprintf(record, "rounds %d\n", ROUNDS);
    }
    printf("%-44s %12s %12s %8s\n", "copy", "mvs_copy", "memcpy", "speed");
    {
        size_t nbytes = (size_t)2000 * 2000 * 8;
        char *a = numpy_like(nbytes), *b = numpy_like(nbytes);
        ptrdiff_t n = 2000 * 2000;
        mvs_slice src, dst;
        mvs_view_contiguous(a, 8, 1, &n, 'C', &src);
        mvs_view_contiguous(b, 8, 1, &n, 'C', &dst);
        measure("contiguous, 2000 x 2000 float64", "contiguous/2000/8", &src, &dst, 1, 8, nbytes);
        free(a - 16);
        free(b - 16);
    }
    static const ptrdiff_t sizes[] = {1000, 2000, 2048, 4096};
    static const ptrdiff_t itemsizes[] = {1, 2, 4, 8, 16};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t i = 0; i < sizeof itemsizes / sizeof *itemsizes; i++) transpose2d(sizes[s], sizes[s], itemsizes[i]);
    {
        /* dst (200, 200, 200) C order = src.transpose(2, 0, 1), src C order, float64 */
        const ptrdiff_t k = 200, isz = 8;
        size_t nbytes = (size_t)(k * k * k * isz);
        char *a = numpy_like(nbytes), *b = numpy_like(nbytes);
        ptrdiff_t shape[3] = {k, k, k}, strides[3] = {k * k * isz, k * isz, isz};
        ptrdiff_t permuted[3] = {isz, k * k * isz, k * isz}; /* axes (2, 0, 1) of a C array */
        mvs_slice src, dst;
        mvs_view_strided(a, isz, 3, shape, permuted, &src);
        mvs_view_strided(b, isz, 3, shape, strides, &dst);
        measure("permute (2, 0, 1) of 200^3 float64", "permute/200/8", &src, &dst, 3, isz, nbytes);
        free(a - 16);
        free(b - 16);
    }
    return record && fclose(record) != 0;
}
