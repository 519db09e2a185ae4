/* mvs_buffer, single-threaded:
 * - mvs_buffer_alloc: alignment of the data for every power of two up to 4096 and sizes
 *   around it, zeroed memory, size 0, all bytes writable (ASan checks the bounds);
 * - small blocks kept for reuse: a released small buffer's block comes back to the thread's
 *   next allocation of its size class, zero-filled when asked, aligned, whole;
 * - mvs_buffer_wrap: the callback runs exactly once, with data and ctx, at the last release,
 *   not before; NULL callback; read-only flag; zero-size wrap of NULL;
 * - views: mvs_buffer_view in C and F order, memview is the buffer, derived views carry it,
 *   mvs_buffer_of finds it, views take no reference;
 * - 100,000 hand-offs of wrapped and allocated buffers: retain chains, views of views,
 *   slices, transposes, references recovered from views, released in every order, each
 *   counted: every callback exactly once, and ASan/valgrind see no leak or double free;
 * - every error code and every NULL argument of the buffer functions, outputs untouched. */
#include <limits.h>

#include "owner.h"

static void test_alloc(void) {
  ptrdiff_t align, n;
  for (align = 1; align <= 4096; align *= 2) {
    ptrdiff_t sizes[5] = {0, 1, align - 1 > 0 ? align - 1 : 2, align, 3 * align + 5};
    int k;
    for (k = 0; k < 5; k++) {
      mvs_buffer *b = NULL;
      void *p = NULL;
      ptrdiff_t got = -1;
      int ro = -1;
      if (!CHECK_ST(mvs_buffer_alloc(sizes[k], align, 0, &b), MVS_OK)) continue;
      CHECK_ST(mvs_buffer_data(b, &p), MVS_OK);
      CHECK(p != NULL);
      CHECK_EQ(ADDR(p) % (uintptr_t)align, 0);
      CHECK_ST(mvs_buffer_size(b, &got), MVS_OK);
      CHECK_EQ(got, sizes[k]);
      CHECK_ST(mvs_buffer_readonly(b, &ro), MVS_OK);
      CHECK_EQ(ro, 0);
      CHECK_EQ(refs(b), 1);
      memset(p, 0x5A, (size_t)sizes[k]); /* every byte is ours */
      mvs_buffer_release(b);
    }
  }
  /* zeroed, large enough for calloc's mmap path and small */
  for (n = 1; n <= (1 << 22); n *= 64) {
    mvs_buffer *b = NULL;
    unsigned char *p = NULL;
    ptrdiff_t i, nonzero = 0;
    if (!CHECK_ST(mvs_buffer_alloc(n, 64, MVS_BUFFER_ZEROED, &b), MVS_OK)) continue;
    CHECK_ST(mvs_buffer_data(b, (void **)&p), MVS_OK);
    for (i = 0; i < n; i++) nonzero += p[i] != 0;
    CHECK_EQ(nonzero, 0);
    CHECK_EQ(ADDR(p) % 64, 0);
    mvs_buffer_release(b);
  }
  /* two zero-size buffers have distinct data pointers */
  {
    mvs_buffer *a = NULL, *b = NULL;
    void *pa = NULL, *pb = NULL;
    CHECK_ST(mvs_buffer_alloc(0, 1, 0, &a), MVS_OK);
    CHECK_ST(mvs_buffer_alloc(0, 1, 0, &b), MVS_OK);
    mvs_buffer_data(a, &pa);
    mvs_buffer_data(b, &pb);
    CHECK(pa != NULL && pb != NULL && pa != pb);
    mvs_buffer_release(a);
    mvs_buffer_release(b);
  }
}

/* Small buffers' blocks are kept by the releasing thread and come back to its next allocations
   of their size class: zeroed when asked (the block is dirty), aligned, every byte writable. */
static void test_reuse(void) {
  static const ptrdiff_t sizes[] = {0, 1, 72, 100, 200, 256, 257, 1000};
  static const ptrdiff_t aligns[] = {1, 8, 16, 32, 64, 128};
  size_t i, j;
  for (i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    for (j = 0; j < sizeof aligns / sizeof *aligns; j++) {
      ptrdiff_t n = sizes[i], k, nonzero = 0;
      mvs_buffer *a = NULL, *b = NULL, *c = NULL;
      unsigned char *p = NULL;
      if (!CHECK_ST(mvs_buffer_alloc(n, aligns[j], 0, &a), MVS_OK)) continue;
      mvs_buffer_data(a, (void **)&p);
      memset(p, 0xab, (size_t)n);
      mvs_buffer_release(a);
      if (!CHECK_ST(mvs_buffer_alloc(n, aligns[j], MVS_BUFFER_ZEROED, &b), MVS_OK)) continue;
      /* Kept: up to 256 bytes at alignments up to 64. */
      if (n <= 256 && aligns[j] <= 64) CHECK_PTR(b, a);
      mvs_buffer_data(b, (void **)&p);
      CHECK_EQ(ADDR(p) % (uintptr_t)aligns[j], 0);
      for (k = 0; k < n; k++) nonzero += p[k] != 0;
      CHECK_EQ(nonzero, 0);
      memset(p, 0xcd, (size_t)n);
      mvs_buffer_release(b);
      /* A smaller request of the same class gets the same block, data aligned and writable. */
      if (!CHECK_ST(mvs_buffer_alloc(n / 2, aligns[j], 0, &c), MVS_OK)) continue;
      mvs_buffer_data(c, (void **)&p);
      CHECK_EQ(ADDR(p) % (uintptr_t)aligns[j], 0);
      memset(p, 0xef, (size_t)(n / 2));
      mvs_buffer_release(c);
    }
  }
}

static void test_wrap(void) {
  counter c;
  mvs_buffer *b = NULL;
  void *p = NULL;
  ptrdiff_t n = -1;
  int ro = -1;
  double *mem = (double *)malloc(10 * sizeof(double));
  memset(&c, 0, sizeof c);
  c.expect = mem;
  c.free_data = 1;
  CHECK_ST(mvs_buffer_wrap(mem, 10 * sizeof(double), counting_dealloc, &c, 0, &b), MVS_OK);
  CHECK_ST(mvs_buffer_data(b, &p), MVS_OK);
  CHECK_PTR(p, mem);
  CHECK_ST(mvs_buffer_size(b, &n), MVS_OK);
  CHECK_EQ(n, 80);
  CHECK_ST(mvs_buffer_readonly(b, &ro), MVS_OK);
  CHECK_EQ(ro, 0);
  CHECK_ST(mvs_buffer_retain(b), MVS_OK);
  CHECK_ST(mvs_buffer_retain(b), MVS_OK);
  CHECK_EQ(refs(b), 3);
  mvs_buffer_release(b);
  mvs_buffer_release(b);
  CHECK_EQ(calls_of(&c), 0);
  CHECK_EQ(refs(b), 1);
  mvs_buffer_release(b);
  CHECK_EQ(calls_of(&c), 1);
  CHECK(!c.bad);
  CHECK(pthread_equal(c.thread, pthread_self()));
  mvs_buffer_release(NULL); /* no-op */

  /* NULL callback: the memory stays the caller's */
  {
    static const char text[] = "read-only bytes";
    CHECK_ST(mvs_buffer_wrap((void *)text, (ptrdiff_t)sizeof text, NULL, NULL, MVS_BUFFER_READONLY, &b), MVS_OK);
    CHECK_ST(mvs_buffer_readonly(b, &ro), MVS_OK);
    CHECK_EQ(ro, 1);
    CHECK_ST(mvs_buffer_data(b, &p), MVS_OK);
    CHECK_PTR(p, text);
    mvs_buffer_release(b);
  }
  /* zero bytes at NULL, with a callback: it still runs once, with NULL */
  memset(&c, 0, sizeof c);
  CHECK_ST(mvs_buffer_wrap(NULL, 0, counting_dealloc, &c, 0, &b), MVS_OK);
  CHECK_ST(mvs_buffer_data(b, &p), MVS_OK);
  CHECK_PTR(p, NULL);
  mvs_buffer_release(b);
  CHECK_EQ(calls_of(&c), 1);
  CHECK(!c.bad);
}

static void test_views(void) {
  mvs_buffer *b = NULL, *found = NULL;
  mvs_slice v, w, t;
  ptrdiff_t shape[2] = {3, 4};
  double *p = NULL;
  int i;
  CHECK_ST(mvs_buffer_alloc(12 * sizeof(double), 64, 0, &b), MVS_OK);
  CHECK_ST(mvs_buffer_data(b, (void **)&p), MVS_OK);
  for (i = 0; i < 12; i++) p[i] = i;
  region_add(p, 12 * sizeof(double));

  CHECK_ST(mvs_buffer_view(b, 8, 2, shape, 'C', &v), MVS_OK);
  CHECK_VIEW(&v, 2, p, "3 4", "32 8");
  CHECK_PTR(v.memview, b);
  CHECK_ELEMS(&v, 2, "0 1 2 3 4 5 6 7 8 9 10 11");
  CHECK_ST(mvs_buffer_view(b, 8, 2, shape, 'F', &w), MVS_OK);
  CHECK_VIEW(&w, 2, p, "3 4", "8 24");
  CHECK_PTR(w.memview, b);
  CHECK_EQ(refs(b), 1); /* views borrow */

  /* derived views carry the buffer; mvs_buffer_of finds it */
  CHECK_ST(mvs_slice_axis(&v, 2, 1, 1, MVS_NONE, 2, &t), MVS_OK);
  CHECK_ST(mvs_transpose(&t, 2, &t), MVS_OK);
  CHECK_PTR(t.memview, b);
  CHECK_ELEMS(&t, 2, "1 5 9 3 7 11");
  CHECK_ST(mvs_buffer_of(&t, &found), MVS_OK);
  CHECK_PTR(found, b);
  CHECK_EQ(refs(b), 1);

  /* a view smaller than the buffer, a 0-d view, a zero-size view */
  {
    ptrdiff_t s1 = 5, s0 = 0;
    CHECK_ST(mvs_buffer_view(b, 16, 1, &s1, 'C', &w), MVS_OK);
    CHECK_VIEW(&w, 1, p, "5", "16");
    CHECK_ST(mvs_buffer_view(b, 96, 0, NULL, 'C', &w), MVS_OK);
    CHECK_VIEW(&w, 0, p, "", "");
    CHECK_ST(mvs_buffer_view(b, 8, 1, &s0, 'F', &w), MVS_OK);
    CHECK_VIEW(&w, 1, p, "0", "8");
    CHECK_PTR(w.memview, b);
  }
  regions_clear();
  mvs_buffer_release(b);
}

/* ---- 100,000 hand-offs ---------------------------------------------------------------------- */

#define HANDOFFS 100000
#define NREF 4

/* the 24 orders of releasing 4 references */
static void permutation(int k, int *order) {
  int pool[NREF] = {0, 1, 2, 3}, n = NREF, i;
  for (i = 0; i < NREF; i++) {
    int f = 1, j, pick;
    for (j = 2; j < n; j++) f *= j;
    pick = k / f;
    k %= f;
    order[i] = pool[pick];
    for (j = pick; j < n - 1; j++) pool[j] = pool[j + 1];
    n--;
  }
}

static counter g_counters[HANDOFFS];

static void test_handoffs(void) {
  int i, bad = 0, early = 0, wrong_refs = 0, view_bad = 0;
  for (i = 0; i < HANDOFFS; i++) {
    counter *c = &g_counters[i];
    mvs_buffer *b = NULL, *held[NREF];
    mvs_slice v, d;
    ptrdiff_t shape[3] = {2, 3, 1 + i % 4};
    ptrdiff_t nitems = 6 * shape[2];
    int order[NREF], k, wrapped = i % 5 != 4;
    if (wrapped) {
      double *mem = (double *)malloc((size_t)nitems * sizeof(double));
      c->expect = mem;
      c->free_data = 1;
      if (mvs_buffer_wrap(mem, nitems * 8, counting_dealloc, c, i % 3 == 0 ? MVS_BUFFER_READONLY : 0, &b) != MVS_OK) {
        bad++;
        free(mem);
        continue;
      }
    } else if (mvs_buffer_alloc(nitems * 8, 8 << (i % 4), i % 2 ? MVS_BUFFER_ZEROED : 0, &b) != MVS_OK) {
      bad++;
      continue;
    }
    /* the first reference, and three more taken in different ways */
    held[0] = b;
    switch (i % 3) {
      case 0: /* a retain chain */
        for (k = 1; k < NREF; k++) {
          mvs_buffer_retain(held[k - 1]);
          held[k] = held[k - 1];
        }
        break;
      case 1: /* from views of views: a view, a slice of it, a transpose of that */
        mvs_buffer_view(b, 8, 3, shape, i % 2 ? 'C' : 'F', &v);
        for (k = 1; k < NREF; k++) {
          mvs_buffer *from = NULL;
          if (k == 2) mvs_slice_axis(&v, 3, 1, 1, MVS_NONE, 1, &v);
          if (k == 3) mvs_transpose(&v, 3, &v);
          if (mvs_buffer_of(&v, &from) != MVS_OK || from != b) view_bad++;
          mvs_buffer_retain(from);
          held[k] = from;
        }
        break;
      default: /* views derived from a subview and an index, each retaining */
        mvs_buffer_view(b, 8, 3, shape, 'C', &v);
        for (k = 1; k < NREF; k++) {
          mvs_buffer *from = NULL;
          mvs_index_axis(&v, 3, 0, k % 2, &d);
          mvs_buffer_of(&d, &from);
          if (from != b) view_bad++;
          mvs_buffer_retain(from);
          held[k] = from;
        }
    }
    if (refs(b) != NREF) wrong_refs++;
    /* release in one of the 24 orders; the callback must not run before the last */
    permutation(i % 24, order);
    for (k = 0; k < NREF; k++) {
      if (wrapped && k < NREF - 1) {
        if (refs(b) != NREF - k) wrong_refs++;
        if (calls_of(c) != 0) early++;
      }
      mvs_buffer_release(held[order[k]]);
    }
    if (wrapped && (calls_of(c) != 1 || c->bad)) bad++;
  }
  CHECK_EQ(bad, 0);
  CHECK_EQ(early, 0);
  CHECK_EQ(wrong_refs, 0);
  CHECK_EQ(view_bad, 0);
  {
    long total = 0;
    for (i = 0; i < HANDOFFS; i++) total += calls_of(&g_counters[i]);
    CHECK_EQ(total, HANDOFFS - HANDOFFS / 5); /* one call per wrapped buffer, none for allocated */
  }
}

/* ---- errors ------------------------------------------------------------------------------------- */

static void test_errors(void) {
  mvs_buffer *b = NULL, *out;
  mvs_slice view, sv;
  void *p;
  ptrdiff_t n, shape[2] = {2, 3};
  int ro;
  counter c;
  char mem[16];
  memset(&c, 0, sizeof c);

  SENT(out);
  CHECK_ERR(mvs_buffer_alloc(8, 8, 0, NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_buffer_alloc(-1, 8, 0, &out), MVS_ERR_SHAPE, "byte count -1 is negative");
  CHECK_ERR(mvs_buffer_alloc(PTRDIFF_MIN, 8, 0, &out), MVS_ERR_SHAPE, "negative");
  CHECK_ERR(mvs_buffer_alloc(8, 0, 0, &out), MVS_ERR_VALUE, "alignment 0 is not a power of two");
  CHECK_ERR(mvs_buffer_alloc(8, 3, 0, &out), MVS_ERR_VALUE, "alignment 3");
  CHECK_ERR(mvs_buffer_alloc(8, -8, 0, &out), MVS_ERR_VALUE, "alignment -8");
  CHECK_ERR(mvs_buffer_alloc(8, PTRDIFF_MIN, 0, &out), MVS_ERR_VALUE, "alignment");
  CHECK_ERR(mvs_buffer_alloc(8, 8, MVS_BUFFER_READONLY, &out), MVS_ERR_VALUE, "flags 0x2");
  CHECK_ERR(mvs_buffer_alloc(8, 8, 4, &out), MVS_ERR_VALUE, "flags");
  CHECK_ERR(mvs_buffer_alloc(8, 8, -1, &out), MVS_ERR_VALUE, "flags");
  CHECK_ERR(mvs_buffer_alloc(PTRDIFF_MAX, 1, 0, &out), MVS_ERR_OVERFLOW, "PTRDIFF_MAX");
  CHECK_ERR(mvs_buffer_alloc(PTRDIFF_MAX - 100, 4096, 0, &out), MVS_ERR_OVERFLOW, "PTRDIFF_MAX");
  CHECK_ERR(mvs_buffer_alloc((ptrdiff_t)1 << 62, 8, 0, &out), MVS_ERR_ALLOC, "allocation of");
  CHECK_ERR(mvs_buffer_alloc((ptrdiff_t)1 << 62, 8, MVS_BUFFER_ZEROED, &out), MVS_ERR_ALLOC, "failed");
  CHECK_UNTOUCHED(out);

  CHECK_ERR(mvs_buffer_wrap(mem, 16, counting_dealloc, &c, 0, NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_buffer_wrap(NULL, 16, counting_dealloc, &c, 0, &out), MVS_ERR_NULL, "`data`");
  CHECK_ERR(mvs_buffer_wrap(mem, -1, counting_dealloc, &c, 0, &out), MVS_ERR_SHAPE, "-1");
  CHECK_ERR(mvs_buffer_wrap(mem, 16, counting_dealloc, &c, MVS_BUFFER_ZEROED, &out), MVS_ERR_VALUE, "flags 0x1");
  CHECK_ERR(mvs_buffer_wrap(mem, 16, counting_dealloc, &c, 8, &out), MVS_ERR_VALUE, "flags");
  CHECK_UNTOUCHED(out);
  CHECK_EQ(calls_of(&c), 0); /* a failed wrap never calls the callback */

  CHECK_ERR(mvs_buffer_retain(NULL), MVS_ERR_NULL, "`buffer`");

  CHECK_ST(mvs_buffer_alloc(48, 16, 0, &b), MVS_OK);
  SENT(p);
  SENT(n);
  SENT(ro);
  CHECK_ERR(mvs_buffer_data(NULL, &p), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_buffer_data(b, NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_buffer_size(NULL, &n), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_buffer_size(b, NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_buffer_readonly(NULL, &ro), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_buffer_readonly(b, NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_buffer_refcount(NULL, &n), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_buffer_refcount(b, NULL), MVS_ERR_NULL, "`out`");
  CHECK_UNTOUCHED(p);
  CHECK_UNTOUCHED(n);
  CHECK_UNTOUCHED(ro);

  SENT(view);
  CHECK_ERR(mvs_buffer_view(NULL, 8, 2, shape, 'C', &view), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_buffer_view(b, 8, 2, NULL, 'C', &view), MVS_ERR_NULL, "`shape`");
  CHECK_ERR(mvs_buffer_view(b, 8, 2, shape, 'C', NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_buffer_view(b, 8, 9, shape, 'C', &view), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_buffer_view(b, 8, -1, shape, 'C', &view), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_buffer_view(b, 0, 2, shape, 'C', &view), MVS_ERR_ITEMSIZE, "itemsize 0");
  {
    ptrdiff_t neg[2] = {2, -3}, big[2] = {PTRDIFF_MAX / 4, 3}, over[2] = {2, 4};
    CHECK_ERR(mvs_buffer_view(b, 8, 2, neg, 'C', &view), MVS_ERR_SHAPE, "extent -3 of axis 1");
    CHECK_ERR(mvs_buffer_view(b, 8, 2, big, 'C', &view), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_buffer_view(b, 8, 2, over, 'C', &view), MVS_ERR_BOUNDS, "a view of 64 bytes does not fit in a buffer of 48 bytes");
  }
  CHECK_ERR(mvs_buffer_view(b, 8, 2, shape, 'X', &view), MVS_ERR_VALUE, "order 88");
  CHECK_UNTOUCHED(view);

  SENT(out);
  CHECK_ST(mvs_view_contiguous(mem, 8, 2, shape, 'C', &sv), MVS_OK); /* memview NULL */
  CHECK_ERR(mvs_buffer_of(&sv, &out), MVS_ERR_VALUE, "carries no buffer");
  CHECK_ERR(mvs_buffer_of(NULL, &out), MVS_ERR_NULL, "`view`");
  CHECK_ERR(mvs_buffer_of(&sv, NULL), MVS_ERR_NULL, "`out`");
  CHECK_UNTOUCHED(out);

  CHECK_EQ(refs(b), 1); /* no failed call changed the count */
  mvs_buffer_release(b);
  CHECK_STR(mvs_status_str(MVS_ERR_ALLOC), "memory allocation failed");
}

int main(void) {
  test_alloc();
  test_reuse();
  test_wrap();
  test_views();
  test_handoffs();
  test_errors();
  return check_summary("test_buffer");
}
