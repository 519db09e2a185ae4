/* mvs_pool:
 * - acquired views: shape, strides (C and F), memview NULL, 64-byte aligned, never
 *   overlapping, writable over their whole size (ASan checks the bounds);
 * - capacity, growth beyond it (the pool doubles), counts, LIFO reuse, capacity 0, 0-d and
 *   zero-size arrays;
 * - release of foreign views (another pool's, a stack array, an address inside an array) and
 *   double releases: MVS_ERR_VALUE, pool unchanged;
 * - destroy with arrays still acquired frees everything (the leak checker watches);
 * - every error code and NULL argument of the pool functions, outputs untouched;
 * - the pool hammered from 6 threads (acquire 1-3 arrays, write, check, release), with an
 *   owner word per array proving that no two threads hold the same array at once.
 * MVS_TEST_POOL_ITERS (environment) overrides the iterations per thread. */
#include "owner.h"

static void test_basics(void) {
  mvs_pool *p = NULL;
  mvs_slice v[8];
  ptrdiff_t shape[2] = {3, 3};
  int i, j;
  CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 4, &p), MVS_OK);
  CHECK_COUNTS(p, 4, 0);
  for (i = 0; i < 8; i++) {
    if (!CHECK_ST(mvs_pool_acquire(p, &v[i]), MVS_OK)) return;
    CHECK_VIEW(&v[i], 2, v[i].data, "3 3", "24 8");
    CHECK_PTR(v[i].memview, NULL);
    CHECK_EQ(ADDR(v[i].data) % 64, 0);
    memset(v[i].data, i, 72);
  }
  /* 4 up front, then +4 (doubling) */
  CHECK_COUNTS(p, 8, 8);
  for (i = 0; i < 8; i++)
    for (j = 0; j < i; j++) {
      uintptr_t a = ADDR(v[i].data), b = ADDR(v[j].data);
      CHECK(a + 72 <= b || b + 72 <= a);
    }
  /* the first slab's arrays are spaced 128 bytes apart (72 rounded up to 64s) */
  CHECK_EQ(ADDR(v[1].data) - ADDR(v[0].data), 128);
  {
    mvs_slice extra;
    CHECK_ST(mvs_pool_acquire(p, &extra), MVS_OK);
    CHECK_COUNTS(p, 16, 9);
    CHECK_ST(mvs_pool_release(p, &extra), MVS_OK);
  }
  /* LIFO: the array released last comes back first */
  CHECK_ST(mvs_pool_release(p, &v[5]), MVS_OK);
  CHECK_ST(mvs_pool_release(p, &v[2]), MVS_OK);
  CHECK_COUNTS(p, 16, 6);
  {
    mvs_slice a, b;
    CHECK_ST(mvs_pool_acquire(p, &a), MVS_OK);
    CHECK_ST(mvs_pool_acquire(p, &b), MVS_OK);
    CHECK_PTR(a.data, v[2].data);
    CHECK_PTR(b.data, v[5].data);
    CHECK_EQ((unsigned char)a.data[71], 2); /* content is what the last user left */
  }
  /* a derived view with the same data address releases the array */
  CHECK_ST(mvs_transpose(&v[0], 2, &v[0]), MVS_OK);
  for (i = 0; i < 8; i++) CHECK_ST(mvs_pool_release(p, &v[i]), MVS_OK);
  CHECK_COUNTS(p, 16, 0);
  mvs_pool_destroy(p);

  /* F order, capacity 0 (grows 1, 1, 2, 4), a 0-d pool and a zero-size pool */
  {
    ptrdiff_t s3[3] = {2, 3, 4}, zero[2] = {5, 0};
    mvs_slice a[5];
    CHECK_ST(mvs_pool_create(4, 3, s3, 'F', 0, &p), MVS_OK);
    CHECK_COUNTS(p, 0, 0);
    for (i = 0; i < 5; i++) {
      CHECK_ST(mvs_pool_acquire(p, &a[i]), MVS_OK);
      CHECK_VIEW(&a[i], 3, a[i].data, "2 3 4", "4 8 24");
      memset(a[i].data, 0, 96);
    }
    CHECK_COUNTS(p, 8, 5);
    mvs_pool_destroy(p); /* with 5 arrays out: all memory is freed */

    CHECK_ST(mvs_pool_create(16, 0, NULL, 'C', 2, &p), MVS_OK);
    CHECK_ST(mvs_pool_acquire(p, &a[0]), MVS_OK);
    CHECK_VIEW(&a[0], 0, a[0].data, "", "");
    mvs_pool_destroy(p);

    CHECK_ST(mvs_pool_create(8, 2, zero, 'C', 2, &p), MVS_OK);
    CHECK_ST(mvs_pool_acquire(p, &a[0]), MVS_OK);
    CHECK_ST(mvs_pool_acquire(p, &a[1]), MVS_OK);
    CHECK_VIEW(&a[0], 2, a[0].data, "5 0", "8 8"); /* zero extents count as 1 for strides */
    CHECK(a[0].data != a[1].data); /* zero-size arrays still have their own address */
    CHECK_ST(mvs_pool_release(p, &a[1]), MVS_OK);
    CHECK_ST(mvs_pool_release(p, &a[0]), MVS_OK);
    mvs_pool_destroy(p);
  }
  mvs_pool_destroy(NULL); /* no-op */
}

static void test_errors(void) {
  mvs_pool *p = NULL, *q = NULL, *out;
  mvs_slice v, w, view;
  ptrdiff_t shape[2] = {3, 3}, n1, n2;
  double local[9];

  SENT(out);
  CHECK_ERR(mvs_pool_create(8, 2, shape, 'C', 4, NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_pool_create(8, 2, NULL, 'C', 4, &out), MVS_ERR_NULL, "`shape`");
  CHECK_ERR(mvs_pool_create(8, 9, shape, 'C', 4, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_pool_create(8, -1, shape, 'C', 4, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_pool_create(0, 2, shape, 'C', 4, &out), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_pool_create(-8, 2, shape, 'C', 4, &out), MVS_ERR_ITEMSIZE, "itemsize -8");
  {
    ptrdiff_t neg[2] = {3, -1}, big[2] = {PTRDIFF_MAX / 2, 3}, edge[1] = {PTRDIFF_MAX / 8};
    CHECK_ERR(mvs_pool_create(8, 2, neg, 'C', 4, &out), MVS_ERR_SHAPE, "extent -1 of axis 1");
    CHECK_ERR(mvs_pool_create(8, 2, big, 'C', 4, &out), MVS_ERR_OVERFLOW, "overflow");
    /* an array of almost PTRDIFF_MAX bytes: rounding it to 64s, or two of them, overflows */
    CHECK_ERR(mvs_pool_create(8, 1, edge, 'C', 2, &out), MVS_ERR_OVERFLOW, "PTRDIFF_MAX");
  }
  CHECK_ERR(mvs_pool_create(8, 2, shape, 'Q', 4, &out), MVS_ERR_VALUE, "order 81");
  CHECK_ERR(mvs_pool_create(8, 2, shape, 'C', -1, &out), MVS_ERR_VALUE, "capacity -1 is negative");
  CHECK_ERR(mvs_pool_create(8, 2, shape, 'C', PTRDIFF_MIN, &out), MVS_ERR_VALUE, "capacity");
  CHECK_ERR(mvs_pool_create(8, 2, shape, 'C', PTRDIFF_MAX, &out), MVS_ERR_OVERFLOW, "PTRDIFF_MAX");
  CHECK_ERR(mvs_pool_create(8, 2, shape, 'C', (ptrdiff_t)1 << 32, &out), MVS_ERR_OVERFLOW, "at most 4294967295 arrays");
  {
    /* 4 arrays of 4 TiB, more than any allocator gives: 17592186044416 bytes and the slab's
       buffer header */
    ptrdiff_t huge = (ptrdiff_t)1 << 42;
    CHECK_ERR(mvs_pool_create(1, 1, &huge, 'C', 4, &out), MVS_ERR_ALLOC, "allocation of 17592186044");
  }
  CHECK_UNTOUCHED(out);

  CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 2, &p), MVS_OK);
  CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 2, &q), MVS_OK);
  SENT(view);
  CHECK_ERR(mvs_pool_acquire(NULL, &view), MVS_ERR_NULL, "`pool`");
  CHECK_ERR(mvs_pool_acquire(p, NULL), MVS_ERR_NULL, "`out`");
  CHECK_UNTOUCHED(view);
  CHECK_COUNTS(p, 2, 0);

  CHECK_ST(mvs_pool_acquire(p, &v), MVS_OK);
  CHECK_ST(mvs_pool_acquire(q, &w), MVS_OK);
  CHECK_ERR(mvs_pool_release(NULL, &v), MVS_ERR_NULL, "`pool`");
  CHECK_ERR(mvs_pool_release(p, NULL), MVS_ERR_NULL, "`view`");
  /* another pool's array, a stack array, an address inside an array, next to the slab */
  CHECK_ERR(mvs_pool_release(p, &w), MVS_ERR_VALUE, "not the start of an array of this pool");
  CHECK_ST(mvs_view_contiguous(local, 8, 2, shape, 'C', &view), MVS_OK);
  CHECK_ERR(mvs_pool_release(p, &view), MVS_ERR_VALUE, "not the start");
  CHECK_ST(mvs_index_axis(&v, 2, 0, 1, &view), MVS_OK); /* v[1]: data 24 bytes in */
  CHECK_ERR(mvs_pool_release(p, &view), MVS_ERR_VALUE, "not the start");
  view.data = (char *)(ADDR(v.data) - 128);
  CHECK_ERR(mvs_pool_release(p, &view), MVS_ERR_VALUE, "not the start");
  view.data = (char *)(ADDR(v.data) + 2 * 128);
  CHECK_ERR(mvs_pool_release(p, &view), MVS_ERR_VALUE, "not the start");
  /* never handed out, then released twice */
  view.data = (char *)(ADDR(v.data) + 128);
  CHECK_ERR(mvs_pool_release(p, &view), MVS_ERR_VALUE, "not acquired");
  CHECK_COUNTS(p, 2, 1);
  CHECK_ST(mvs_pool_release(p, &v), MVS_OK);
  CHECK_ERR(mvs_pool_release(p, &v), MVS_ERR_VALUE, "released twice");
  CHECK_COUNTS(p, 2, 0);

  SENT(n1);
  SENT(n2);
  CHECK_ERR(mvs_pool_counts(NULL, &n1, &n2), MVS_ERR_NULL, "`pool`");
  CHECK_ERR(mvs_pool_counts(p, NULL, &n2), MVS_ERR_NULL, "`out_arrays`");
  CHECK_ERR(mvs_pool_counts(p, &n1, NULL), MVS_ERR_NULL, "`out_acquired`");
  CHECK_UNTOUCHED(n1);
  CHECK_UNTOUCHED(n2);
  mvs_pool_destroy(p);
  mvs_pool_destroy(q); /* with w still acquired */
}

/* ---- the hammer --------------------------------------------------------------------------------- */

#define NWORKERS 6
static long g_iters = 200000;
static start_line g_start;

typedef struct {
  mvs_pool *pool;
  long token_base;
  long failures, overlaps, bad_views;
} worker;

/* Each array of shape (3, 3) float64 is used as 9 longs: word 0 is the owner word. */
static void *hammer(void *arg) {
  worker *w = (worker *)arg;
  long i;
  start_line_wait(&g_start, NWORKERS);
  for (i = 0; i < g_iters; i++) {
    mvs_slice v[3];
    long token = w->token_base + i;
    int n = 1 + (int)(i % 3), k, e;
    for (k = 0; k < n; k++) {
      long *a;
      if (mvs_pool_acquire(w->pool, &v[k]) != MVS_OK) {
        w->failures++;
        n = k;
        break;
      }
      if (v[k].shape[0] != 3 || v[k].strides[0] != 24 || ADDR(v[k].data) % 64 != 0) w->bad_views++;
      a = (long *)(void *)v[k].data;
      /* claim it: whoever else holds it now will find their token gone */
      __atomic_store_n(&a[0], token * 4 + k, __ATOMIC_SEQ_CST);
      for (e = 1; e < 9; e++) a[e] = token;
    }
    if (i % 64 == 0) sched_yield(); /* let others run while we hold arrays */
    for (k = 0; k < n; k++) {
      long *a = (long *)(void *)v[k].data;
      int changed = __atomic_load_n(&a[0], __ATOMIC_SEQ_CST) != token * 4 + k;
      for (e = 1; e < 9; e++) changed |= a[e] != token;
      if (changed) w->overlaps++;
    }
    for (k = n - 1; k >= 0; k--)
      if (mvs_pool_release(w->pool, &v[(k + (int)i) % n]) != MVS_OK) w->failures++;
  }
  return NULL;
}

static void test_hammer(void) {
  mvs_pool *p = NULL;
  ptrdiff_t shape[2] = {3, 3};
  worker w[NWORKERS];
  pthread_t t[NWORKERS];
  int k;
  memset(&g_start, 0, sizeof g_start);
  /* capacity 4 < 6 threads x up to 3 arrays: the pool grows while hammered */
  CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 4, &p), MVS_OK);
  for (k = 0; k < NWORKERS; k++) {
    memset(&w[k], 0, sizeof w[k]);
    w[k].pool = p;
    w[k].token_base = (long)(k + 1) << 40;
    CHECK_EQ(pthread_create(&t[k], NULL, hammer, &w[k]), 0);
  }
  for (k = 0; k < NWORKERS; k++) {
    CHECK_EQ(pthread_join(t[k], NULL), 0);
    CHECK_EQ(w[k].failures, 0);
    CHECK_EQ(w[k].overlaps, 0);
    CHECK_EQ(w[k].bad_views, 0);
  }
  CHECK_ST(mvs_pool_counts(p, &g_arrays, &g_acquired), MVS_OK);
  CHECK_EQ(g_acquired, 0);
  CHECK(g_arrays >= 4 && g_arrays <= 32); /* at most 18 held at once, doubling from 4 */
  printf("test_pool: %d threads x %ld iterations, the pool grew to %td arrays\n", NWORKERS, g_iters, g_arrays);
  mvs_pool_destroy(p);
}

int main(void) {
  const char *env = getenv("MVS_TEST_POOL_ITERS");
  if (env != NULL && atol(env) > 0) g_iters = atol(env);
  test_basics();
  test_errors();
  test_hammer();
  return check_summary("test_pool");
}
