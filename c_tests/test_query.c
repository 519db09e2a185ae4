/* Queries: mvs_is_contiguous, mvs_item_count, mvs_byte_count, mvs_byte_extent,
 * mvs_check_bounds, mvs_may_overlap, mvs_element_ptr. */
#include "check.h"

static const ptrdiff_t P62 = (ptrdiff_t)1 << 62;
static double buf[24];

static mvs_slice strided(void *data, int ndim, ptrdiff_t s0, ptrdiff_t s1, ptrdiff_t t0, ptrdiff_t t1) {
  mvs_slice v;
  ptrdiff_t sh[2], st[2];
  sh[0] = s0;
  sh[1] = s1;
  st[0] = t0;
  st[1] = t1;
  CHECK_ST(mvs_view_strided(data, 8, ndim, sh, st, &v), MVS_OK);
  garble_tail(&v, ndim);
  return v;
}

/* contiguity under the four (order, rule) combinations: "CN FN CC FC" as 0/1 */
static void contig4(const mvs_slice *v, int ndim, ptrdiff_t itemsize, int cn, int fn, int cc, int fc, int line) {
  int r[4], k, before = g_failures;
  for (k = 0; k < 4; k++) {
    SENT(r[k]);
    CHECK_ST(mvs_is_contiguous(v, ndim, itemsize, k % 2 ? 'F' : 'C', k < 2 ? MVS_CONTIG_NUMPY : MVS_CONTIG_CYTHON, &r[k]), MVS_OK);
  }
  CHECK_EQ(r[0], cn);
  CHECK_EQ(r[1], fn);
  CHECK_EQ(r[2], cc);
  CHECK_EQ(r[3], fc);
  if (g_failures != before) fprintf(stderr, "    (contig4 called from line %d)\n", line);
}
#define CONTIG4(v, nd, is, cn, fn, cc, fc) contig4((v), (nd), (is), (cn), (fn), (cc), (fc), __LINE__)

static void test_is_contiguous(void) {
  mvs_slice v;
  int r;
  ptrdiff_t sh[3] = {2, 3, 4};
  v = strided(buf, 2, 2, 3, 24, 8); /* C */
  CONTIG4(&v, 2, 8, 1, 0, 1, 0);
  CONTIG4(&v, 2, 4, 0, 0, 0, 0); /* wrong itemsize */
  v = strided(buf, 2, 2, 3, 8, 16); /* F */
  CONTIG4(&v, 2, 8, 0, 1, 0, 1);
  CHECK_ST(mvs_view_contiguous(buf, 8, 3, sh, 'C', &v), MVS_OK);
  CONTIG4(&v, 3, 8, 1, 0, 1, 0);
  CHECK_ST(mvs_view_contiguous(buf, 8, 3, sh, 'F', &v), MVS_OK);
  CONTIG4(&v, 3, 8, 0, 1, 0, 1);
  /* extent-1 axes: NumPy ignores their strides, Cython does not */
  v = strided(buf, 2, 1, 3, 999, 8);
  CONTIG4(&v, 2, 8, 1, 1, 0, 0);
  v = strided(buf, 2, 1, 3, 24, 8); /* np.empty((1,3)) */
  CONTIG4(&v, 2, 8, 1, 1, 1, 0);
  v = strided(buf, 2, 3, 1, 8, 8); /* np.empty((3,1)) */
  CONTIG4(&v, 2, 8, 1, 1, 1, 0);
  v = strided(buf, 2, 3, 1, 8, 24); /* np.empty((3,1), order='F') */
  CONTIG4(&v, 2, 8, 1, 1, 0, 1);
  v = strided(buf, 2, 1, 1, 0, 0);
  CONTIG4(&v, 2, 8, 1, 1, 0, 0);
  v = strided(buf, 1, 1, 0, 8, 0);
  CONTIG4(&v, 1, 8, 1, 1, 1, 1);
  /* zero-size: contiguous for NumPy whatever the strides; Cython checks strides */
  v = strided(buf, 2, 0, 3, 5, 7);
  CONTIG4(&v, 2, 8, 1, 1, 0, 0);
  v = strided(buf, 2, 0, 3, 24, 8);
  CONTIG4(&v, 2, 8, 1, 1, 1, 0);
  /* 0-d */
  v = strided(buf, 0, 0, 0, 0, 0);
  CONTIG4(&v, 0, 8, 1, 1, 1, 1);
  /* sliced, negative, broadcast */
  v = strided(buf, 2, 2, 3, 48, 8);
  CONTIG4(&v, 2, 8, 0, 0, 0, 0);
  v = strided(buf + 2, 1, 3, 0, -8, 0);
  CONTIG4(&v, 1, 8, 0, 0, 0, 0);
  v = strided(buf, 2, 2, 3, 0, 8);
  CONTIG4(&v, 2, 8, 0, 0, 0, 0);
  /* 8-d */
  {
    ptrdiff_t s8[8] = {1, 2, 1, 2, 1, 2, 1, 2};
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v), MVS_OK);
    CONTIG4(&v, 8, 8, 1, 0, 1, 0);
  }
  /* huge but valid */
  {
    ptrdiff_t n = PTRDIFF_MAX, one = 1;
    v = hand_view(NULL, 1, &n, &one);
    CONTIG4(&v, 1, 1, 1, 1, 1, 1);
  }
  /* an indirect view is never contiguous */
  v = strided(buf, 2, 2, 3, 24, 8);
  v.suboffsets[0] = 0;
  CONTIG4(&v, 2, 8, 0, 0, 0, 0);

  v = strided(buf, 2, 2, 3, 24, 8);
  SENT(r);
  CHECK_ERR(mvs_is_contiguous(&v, 2, 8, 'X', MVS_CONTIG_NUMPY, &r), MVS_ERR_VALUE, "88");
  CHECK_ERR(mvs_is_contiguous(&v, 2, 8, 'c', MVS_CONTIG_NUMPY, &r), MVS_ERR_VALUE, "99");
  CHECK_ERR(mvs_is_contiguous(&v, 2, 8, 'C', 2, &r), MVS_ERR_VALUE, "contiguity rule 2");
  CHECK_ERR(mvs_is_contiguous(&v, 2, 8, 'C', -1, &r), MVS_ERR_VALUE, "rule -1");
  CHECK_ERR(mvs_is_contiguous(&v, 2, 0, 'C', MVS_CONTIG_NUMPY, &r), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_is_contiguous(&v, 2, -8, 'C', MVS_CONTIG_CYTHON, &r), MVS_ERR_ITEMSIZE, "-8");
  CHECK_ERR(mvs_is_contiguous(&v, -1, 8, 'C', MVS_CONTIG_NUMPY, &r), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_is_contiguous(&v, 9, 8, 'C', MVS_CONTIG_NUMPY, &r), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_is_contiguous(NULL, 2, 8, 'C', MVS_CONTIG_NUMPY, &r), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_is_contiguous(&v, 2, 8, 'C', MVS_CONTIG_NUMPY, NULL), MVS_ERR_NULL, "out");
  v.shape[1] = -3;
  CHECK_ERR(mvs_is_contiguous(&v, 2, 8, 'C', MVS_CONTIG_NUMPY, &r), MVS_ERR_SHAPE, "-3");
  CHECK_UNTOUCHED(r);
}

static void test_counts(void) {
  mvs_slice v;
  ptrdiff_t n, sh[3] = {2, 3, 4};
  CHECK_ST(mvs_view_contiguous(buf, 8, 3, sh, 'C', &v), MVS_OK);
  garble_tail(&v, 3);
  SENT(n);
  CHECK_ST(mvs_item_count(&v, 3, &n), MVS_OK);
  CHECK_EQ(n, 24);
  SENT(n);
  CHECK_ST(mvs_byte_count(&v, 3, 8, &n), MVS_OK);
  CHECK_EQ(n, 192);
  CHECK_ST(mvs_byte_count(&v, 3, 3, &n), MVS_OK);
  CHECK_EQ(n, 72);
  /* fewer dims of the same slice */
  CHECK_ST(mvs_item_count(&v, 2, &n), MVS_OK);
  CHECK_EQ(n, 6);
  CHECK_ST(mvs_item_count(&v, 0, &n), MVS_OK);
  CHECK_EQ(n, 1);
  CHECK_ST(mvs_byte_count(&v, 0, 8, &n), MVS_OK);
  CHECK_EQ(n, 8);
  {
    ptrdiff_t s8[8] = {1, 2, 1, 2, 1, 2, 1, 2};
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v), MVS_OK);
    CHECK_ST(mvs_item_count(&v, 8, &n), MVS_OK);
    CHECK_EQ(n, 16);
    CHECK_ST(mvs_byte_count(&v, 8, 8, &n), MVS_OK);
    CHECK_EQ(n, 128);
  }
  /* zero extents, huge extents */
  {
    ptrdiff_t h[3], st[3] = {0, 0, 0};
    h[0] = 0;
    h[1] = PTRDIFF_MAX;
    v = hand_view(NULL, 2, h, st);
    CHECK_ST(mvs_item_count(&v, 2, &n), MVS_OK);
    CHECK_EQ(n, 0);
    CHECK_ST(mvs_byte_count(&v, 2, PTRDIFF_MAX, &n), MVS_OK);
    CHECK_EQ(n, 0);
    h[0] = PTRDIFF_MAX;
    h[1] = 0;
    v = hand_view(NULL, 2, h, st);
    CHECK_ST(mvs_item_count(&v, 2, &n), MVS_OK);
    CHECK_EQ(n, 0);
    h[0] = PTRDIFF_MAX;
    h[1] = 1;
    v = hand_view(NULL, 2, h, st);
    CHECK_ST(mvs_item_count(&v, 2, &n), MVS_OK);
    CHECK_EQ(n, PTRDIFF_MAX);
    CHECK_ST(mvs_byte_count(&v, 2, 1, &n), MVS_OK);
    CHECK_EQ(n, PTRDIFF_MAX);
    SENT(n);
    CHECK_ERR(mvs_byte_count(&v, 2, 2, &n), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(n);
    h[1] = 2;
    v = hand_view(NULL, 2, h, st);
    CHECK_ERR(mvs_item_count(&v, 2, &n), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_byte_count(&v, 2, 1, &n), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(n);
    h[0] = (ptrdiff_t)1 << 31;
    h[1] = (ptrdiff_t)1 << 31;
    h[2] = 2; /* 2^63 */
    v = hand_view(NULL, 3, h, st);
    CHECK_ERR(mvs_item_count(&v, 3, &n), MVS_ERR_OVERFLOW, "overflow");
    h[2] = 1; /* 2^62: fits, but not as bytes of 2 */
    v = hand_view(NULL, 3, h, st);
    CHECK_ST(mvs_item_count(&v, 3, &n), MVS_OK);
    CHECK_EQ(n, P62);
    CHECK_ST(mvs_byte_count(&v, 3, 1, &n), MVS_OK);
    CHECK_EQ(n, P62);
    SENT(n);
    CHECK_ERR(mvs_byte_count(&v, 3, 2, &n), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(n);
  }
  /* a zero-size view is 0 items even when the other extents multiply past PTRDIFF_MAX,
   * wherever the zero is and whatever the strides (a zero-size view spans 0 bytes) */
  {
    ptrdiff_t h[4], st[4];
    int k;
    for (k = 0; k < 4; k++) {
      int j;
      for (j = 0; j < 4; j++) {
        h[j] = j == k ? 0 : PTRDIFF_MAX;
        st[j] = j % 2 ? PTRDIFF_MIN : PTRDIFF_MAX;
      }
      v = hand_view(NULL, 4, h, st);
      SENT(n);
      CHECK_ST(mvs_item_count(&v, 4, &n), MVS_OK);
      CHECK_EQ(n, 0);
      SENT(n);
      CHECK_ST(mvs_byte_count(&v, 4, PTRDIFF_MAX, &n), MVS_OK);
      CHECK_EQ(n, 0);
    }
    /* ... but only extents within ndim count: without the zero, the product overflows */
    st[0] = st[1] = st[2] = st[3] = 0;
    v = hand_view(NULL, 4, h, st);
    CHECK_ST(mvs_item_count(&v, 4, &n), MVS_OK);
    CHECK_EQ(n, 0);
    CHECK_ERR(mvs_item_count(&v, 3, &n), MVS_ERR_OVERFLOW, "overflow");
  }
  {
    ptrdiff_t h[3], st[3] = {8, 8, 8};
    h[0] = 2;
    h[1] = PTRDIFF_MAX;
    h[2] = 0;
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 8, 3, h, st, &v), MVS_OK);
    SENT(n);
    CHECK_ST(mvs_item_count(&v, 3, &n), MVS_OK);
    CHECK_EQ(n, 0);
    SENT(n);
    CHECK_ST(mvs_byte_count(&v, 3, 8, &n), MVS_OK);
    CHECK_EQ(n, 0);
    { /* "A zero-size source always reshapes, to contiguous strides." */
      ptrdiff_t zero = 0;
      mvs_slice r;
      SENT(r);
      CHECK_ST(mvs_reshape(&v, 3, 8, 1, &zero, 'C', &r), MVS_OK);
      CHECK_VIEW(&r, 1, NULL, "0", "8");
    }
  }

  CHECK_ST(mvs_view_contiguous(buf, 8, 3, sh, 'C', &v), MVS_OK);
  SENT(n);
  CHECK_ERR(mvs_byte_count(&v, 3, 0, &n), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_byte_count(&v, 3, PTRDIFF_MIN, &n), MVS_ERR_ITEMSIZE, "itemsize -9223372036854775808");
  CHECK_ERR(mvs_item_count(&v, -1, &n), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_item_count(&v, 9, &n), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_byte_count(&v, -1, 8, &n), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_byte_count(&v, 9, 8, &n), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_item_count(NULL, 3, &n), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_item_count(&v, 3, NULL), MVS_ERR_NULL, "out");
  CHECK_ERR(mvs_byte_count(NULL, 3, 8, &n), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_byte_count(&v, 3, 8, NULL), MVS_ERR_NULL, "out");
  v.shape[2] = -4;
  CHECK_ERR(mvs_item_count(&v, 3, &n), MVS_ERR_SHAPE, "extent -4 of axis 2");
  CHECK_ERR(mvs_byte_count(&v, 3, 8, &n), MVS_ERR_SHAPE, "-4");
  CHECK_ST(mvs_item_count(&v, 2, &n), MVS_OK); /* the bad extent is past ndim 2 */
  CHECK_EQ(n, 6);
  SENT(n);
  CHECK_ST(mvs_item_count(&v, 3, &n), MVS_ERR_SHAPE);
  CHECK_UNTOUCHED(n);
}

static void test_byte_extent_bounds(void) {
  mvs_slice v;
  ptrdiff_t lo, hi, sh[3] = {2, 3, 0};
  CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh, 'C', &v), MVS_OK);
  garble_tail(&v, 2);
  SENT(lo);
  SENT(hi);
  CHECK_ST(mvs_byte_extent(&v, 2, 8, &lo, &hi), MVS_OK);
  CHECK_EQ(lo, 0);
  CHECK_EQ(hi, 48);
  CHECK_ST(mvs_check_bounds(&v, 2, 8, buf, 48), MVS_OK);
  CHECK_ST(mvs_check_bounds(&v, 2, 8, buf, sizeof buf), MVS_OK);
  CHECK_ST(mvs_check_bounds(&v, 2, 8, buf, PTRDIFF_MAX), MVS_OK);
  CHECK_ERR(mvs_check_bounds(&v, 2, 8, buf, 47), MVS_ERR_BOUNDS, "outside");
  CHECK_ST(mvs_check_bounds(&v, 2, 8, (char *)buf + 1, 200), MVS_ERR_BOUNDS);
  {
    mvs_slice v1 = strided(buf + 1, 2, 2, 3, 24, 8); /* one item in */
    CHECK_ST(mvs_check_bounds(&v1, 2, 8, buf, 56), MVS_OK);
    CHECK_ST(mvs_check_bounds(&v1, 2, 8, (char *)buf + 7, 49), MVS_OK);
    CHECK_ST(mvs_check_bounds(&v1, 2, 8, (char *)buf + 7, 48), MVS_ERR_BOUNDS);
    CHECK_ST(mvs_check_bounds(&v1, 2, 8, buf, 55), MVS_ERR_BOUNDS);
    CHECK_ST(mvs_check_bounds(&v1, 2, 8, buf + 2, 1000), MVS_ERR_BOUNDS);
  }
  /* a larger itemsize reaches further */
  CHECK_ST(mvs_byte_extent(&v, 2, 16, &lo, &hi), MVS_OK);
  CHECK_EQ(lo, 0);
  CHECK_EQ(hi, 56);
  CHECK_ST(mvs_check_bounds(&v, 2, 16, buf, 48), MVS_ERR_BOUNDS);
  /* the (2,2,2) view at item 6 of a 14-double buffer ends exactly at its end */
  {
    ptrdiff_t s222[3] = {2, 2, 2};
    mvs_slice b;
    CHECK_ST(mvs_view_contiguous(buf + 6, 8, 3, s222, 'C', &b), MVS_OK);
    CHECK_ST(mvs_byte_extent(&b, 3, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, 0);
    CHECK_EQ(hi, 64);
    CHECK_ST(mvs_check_bounds(&b, 3, 8, buf, 14 * 8), MVS_OK);
    CHECK_ST(mvs_check_bounds(&b, 3, 8, buf, 14 * 8 - 1), MVS_ERR_BOUNDS);
    CHECK_ST(mvs_check_bounds(&b, 3, 8, buf + 7, 1000), MVS_ERR_BOUNDS);
  }
  /* negative strides reach below data */
  {
    mvs_slice f;
    CHECK_ST(mvs_flip(&v, 2, &f), MVS_OK);
    CHECK_PTR(f.data, buf + 5);
    CHECK_ST(mvs_byte_extent(&f, 2, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, -40);
    CHECK_EQ(hi, 8);
    CHECK_ST(mvs_check_bounds(&f, 2, 8, buf, 48), MVS_OK);
    CHECK_ST(mvs_check_bounds(&f, 2, 8, (char *)buf + 1, 48), MVS_ERR_BOUNDS);
    CHECK_ST(mvs_check_bounds(&f, 2, 8, buf, 47), MVS_ERR_BOUNDS);
  }
  /* broadcast, zero-size, 0-d, 8-d */
  {
    mvs_slice b = strided(buf, 2, 4, 3, 0, 8), z, s0;
    ptrdiff_t s8[8] = {2, 1, 1, 1, 1, 1, 1, 3};
    CHECK_ST(mvs_byte_extent(&b, 2, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, 0);
    CHECK_EQ(hi, 24);
    z = strided((void *)(ADDR(buf) + 800), 2, 3, 0, -999, 999); /* far away, but addresses nothing */
    CHECK_ST(mvs_byte_extent(&z, 2, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, 0);
    CHECK_EQ(hi, 0);
    CHECK_ST(mvs_check_bounds(&z, 2, 8, buf, 0), MVS_OK);
    CHECK_ST(mvs_view_contiguous(buf + 3, 8, 0, NULL, 'C', &s0), MVS_OK);
    CHECK_ST(mvs_byte_extent(&s0, 0, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, 0);
    CHECK_EQ(hi, 8);
    CHECK_ST(mvs_check_bounds(&s0, 0, 8, buf, 32), MVS_OK);
    CHECK_ST(mvs_check_bounds(&s0, 0, 8, buf, 31), MVS_ERR_BOUNDS);
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'F', &s0), MVS_OK); /* strides 8, 16, ..., 16 */
    CHECK_ST(mvs_byte_extent(&s0, 8, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, 0);
    CHECK_EQ(hi, 48);
  }
  /* overflow at the exact boundaries */
  {
    ptrdiff_t h[2] = {2, 2}, st[2];
    mvs_slice x;
    st[0] = PTRDIFF_MAX - 8;
    x = hand_view(NULL, 1, h, st);
    CHECK_ST(mvs_byte_extent(&x, 1, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, 0);
    CHECK_EQ(hi, PTRDIFF_MAX);
    st[0] = PTRDIFF_MAX - 7;
    x = hand_view(NULL, 1, h, st);
    SENT(lo);
    SENT(hi);
    CHECK_ERR(mvs_byte_extent(&x, 1, 8, &lo, &hi), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_check_bounds(&x, 1, 8, buf, PTRDIFF_MAX), MVS_ERR_OVERFLOW, "overflow");
    st[0] = PTRDIFF_MIN;
    st[1] = -1;
    x = hand_view(NULL, 2, h, st);
    CHECK_ERR(mvs_byte_extent(&x, 2, 1, &lo, &hi), MVS_ERR_OVERFLOW, "overflow");
    /* lo = PTRDIFF_MIN alone would fit, but the span 2^63 does not */
    CHECK_ERR(mvs_byte_extent(&x, 1, 1, &lo, &hi), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_check_bounds(&x, 1, 1, buf, PTRDIFF_MAX), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(lo);
    CHECK_UNTOUCHED(hi);
    st[0] = PTRDIFF_MIN + 1; /* span PTRDIFF_MAX */
    x = hand_view(NULL, 1, h, st);
    CHECK_ST(mvs_byte_extent(&x, 1, 1, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, PTRDIFF_MIN + 1);
    CHECK_EQ(hi, 1);
    CHECK_ST(mvs_byte_extent(&x, 1, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, PTRDIFF_MIN + 1);
    CHECK_EQ(hi, 8);
    st[0] = PTRDIFF_MAX; /* span PTRDIFF_MAX too, but hi = PTRDIFF_MAX + 1 */
    x = hand_view(NULL, 1, h, st);
    SENT(lo);
    SENT(hi);
    CHECK_ERR(mvs_byte_extent(&x, 1, 1, &lo, &hi), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(lo);
    CHECK_UNTOUCHED(hi);
    /* -(PTRDIFF_MAX - 1) from PTRDIFF_MAX: bytes [1, PTRDIFF_MAX + 1) */
    st[0] = 1 - PTRDIFF_MAX;
    x = hand_view((void *)addr_at(NULL, PTRDIFF_MAX), 1, h, st);
    CHECK_ST(mvs_check_bounds(&x, 1, 1, addr_at(NULL, 1), PTRDIFF_MAX), MVS_OK);
    CHECK_ERR(mvs_check_bounds(&x, 1, 1, addr_at(NULL, 1), PTRDIFF_MAX - 1), MVS_ERR_BOUNDS, "outside");
    CHECK_ST(mvs_check_bounds(&x, 1, 1, addr_at(NULL, 2), PTRDIFF_MAX), MVS_ERR_BOUNDS);
    CHECK_ST(mvs_check_bounds(&x, 1, 2, addr_at(NULL, 1), PTRDIFF_MAX), MVS_ERR_BOUNDS);
    h[0] = 3;
    st[0] = P62;
    x = hand_view(NULL, 1, h, st);
    SENT(lo);
    CHECK_ERR(mvs_byte_extent(&x, 1, 1, &lo, &hi), MVS_ERR_OVERFLOW, "overflow");
    h[0] = 3;
    st[0] = P62 - 1;
    x = hand_view(NULL, 1, h, st);
    CHECK_ST(mvs_byte_extent(&x, 1, 1, &lo, &hi), MVS_OK);
    CHECK_EQ(hi, PTRDIFF_MAX);
    CHECK_ST(mvs_byte_extent(&x, 1, 2, &lo, &hi), MVS_ERR_OVERFLOW);
  }

  SENT(lo);
  SENT(hi);
  CHECK_ERR(mvs_byte_extent(&v, 2, 0, &lo, &hi), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_byte_extent(&v, -1, 8, &lo, &hi), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_byte_extent(&v, 9, 8, &lo, &hi), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_byte_extent(NULL, 2, 8, &lo, &hi), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_byte_extent(&v, 2, 8, NULL, &hi), MVS_ERR_NULL, "lo");
  CHECK_ERR(mvs_byte_extent(&v, 2, 8, &lo, NULL), MVS_ERR_NULL, "hi");
  CHECK_ERR(mvs_check_bounds(&v, 2, 8, buf, -1), MVS_ERR_SHAPE, "byte count -1");
  CHECK_ERR(mvs_check_bounds(&v, 2, 8, buf, PTRDIFF_MIN), MVS_ERR_SHAPE, "-9223372036854775808");
  CHECK_ERR(mvs_check_bounds(&v, 2, 0, buf, 48), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_check_bounds(&v, -1, 8, buf, 48), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_check_bounds(&v, 9, 8, buf, 48), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_check_bounds(NULL, 2, 8, buf, 48), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_check_bounds(&v, 2, 8, NULL, 48), MVS_ERR_NULL, "base");
  {
    mvs_slice bad = v;
    bad.shape[0] = -2;
    CHECK_ERR(mvs_byte_extent(&bad, 2, 8, &lo, &hi), MVS_ERR_SHAPE, "-2");
    CHECK_ERR(mvs_check_bounds(&bad, 2, 8, buf, 48), MVS_ERR_SHAPE, "-2");
  }
  CHECK_UNTOUCHED(lo);
  CHECK_UNTOUCHED(hi);
}

static void overlap(const mvs_slice *v, int ndim, ptrdiff_t itemsize, int want, int line) {
  int r, before = g_failures;
  SENT(r);
  CHECK_ST(mvs_may_overlap(v, ndim, itemsize, &r), MVS_OK);
  CHECK_EQ(r, want);
  if (g_failures != before) fprintf(stderr, "    (overlap called from line %d)\n", line);
}
#define OVERLAP(v, nd, is, want) overlap((v), (nd), (is), (want), __LINE__)

static void test_may_overlap(void) {
  mvs_slice v, w;
  int r;
  ptrdiff_t sh[2] = {3, 4};
  CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh, 'C', &v), MVS_OK);
  garble_tail(&v, 2);
  OVERLAP(&v, 2, 8, 0);
  OVERLAP(&v, 2, 9, 1); /* items of 9 bytes at a stride of 8 overlap */
  CHECK_ST(mvs_transpose(&v, 2, &w), MVS_OK);
  OVERLAP(&w, 2, 8, 0);
  CHECK_ST(mvs_flip(&v, 2, &w), MVS_OK);
  OVERLAP(&w, 2, 8, 0);
  CHECK_ST(mvs_slice_axis(&v, 2, 1, MVS_NONE, MVS_NONE, 2, &w), MVS_OK);
  OVERLAP(&w, 2, 8, 0);
  OVERLAP(&w, 2, 16, 0);
  OVERLAP(&w, 2, 17, 1);
  CHECK_ST(mvs_sliding_window(&v, 2, 1, 2, 1, &w), MVS_OK);
  OVERLAP(&w, 3, 8, 1);
  CHECK_ST(mvs_sliding_window(&v, 2, 1, 2, 2, &w), MVS_OK); /* non-overlapping windows */
  OVERLAP(&w, 3, 8, 0);
  w = strided(buf, 2, 3, 4, 0, 8); /* broadcast */
  OVERLAP(&w, 2, 8, 1);
  w = strided(buf, 2, 1, 4, 0, 8); /* a stride-0 axis of extent 1 is harmless */
  OVERLAP(&w, 2, 8, 0);
  w = strided(buf, 2, 2, 2, 8, 16);
  OVERLAP(&w, 2, 8, 0);
  w = strided(buf, 2, 2, 2, 8, 15);
  OVERLAP(&w, 2, 8, 1);
  w = strided(buf, 2, 2, 2, -16, 8);
  OVERLAP(&w, 2, 8, 0);
  w = strided(buf, 2, 0, 4, 0, 0); /* zero-size */
  OVERLAP(&w, 2, 8, 0);
  w = strided(buf, 0, 0, 0, 0, 0);
  OVERLAP(&w, 0, 8, 0);
  {
    ptrdiff_t s8[8] = {2, 1, 2, 1, 2, 1, 2, 1};
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'F', &w), MVS_OK);
    OVERLAP(&w, 8, 8, 0);
    w.strides[6] = 16; /* axis 6 now steps like axis 2 */
    OVERLAP(&w, 8, 8, 1);
  }
  /* sources whose span exceeds PTRDIFF_MAX are refused; a span of PTRDIFF_MAX is fine */
  {
    ptrdiff_t h = 2, st = PTRDIFF_MIN, h2[2] = {2, 2}, st2[2];
    mvs_slice x = hand_view(NULL, 1, &h, &st);
    SENT(r);
    CHECK_ERR(mvs_may_overlap(&x, 1, 8, &r), MVS_ERR_OVERFLOW, "overflow");
    h = 3;
    st = P62;
    x = hand_view(NULL, 1, &h, &st);
    CHECK_ERR(mvs_may_overlap(&x, 1, 8, &r), MVS_ERR_OVERFLOW, "overflow");
    st2[0] = P62;
    st2[1] = -P62;
    x = hand_view(NULL, 2, h2, st2);
    CHECK_ERR(mvs_may_overlap(&x, 2, 8, &r), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(r);
    h = 2;
    st = PTRDIFF_MAX;
    x = hand_view(NULL, 1, &h, &st);
    OVERLAP(&x, 1, 8, 0);
    st = PTRDIFF_MIN + 1;
    x = hand_view(NULL, 1, &h, &st);
    OVERLAP(&x, 1, 8, 0);
    /* (2, 2), strides (P62, P62 - 1): the larger step does not clear the smaller axis's
     * span plus an item, P62 - 1 + 8 */
    st2[1] = P62 - 1;
    x = hand_view(NULL, 2, h2, st2);
    OVERLAP(&x, 2, 8, 1);
    OVERLAP(&x, 2, 1, 0);
  }

  SENT(r);
  CHECK_ERR(mvs_may_overlap(&v, 2, 0, &r), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_may_overlap(&v, -1, 8, &r), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_may_overlap(&v, 9, 8, &r), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_may_overlap(NULL, 2, 8, &r), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_may_overlap(&v, 2, 8, NULL), MVS_ERR_NULL, "out");
  v.shape[0] = -1;
  CHECK_ERR(mvs_may_overlap(&v, 2, 8, &r), MVS_ERR_SHAPE, "-1");
  CHECK_UNTOUCHED(r);
}

static void test_element_ptr(void) {
  mvs_slice v;
  void *p;
  ptrdiff_t sh[2] = {3, 5}, idx[8];
  CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh, 'C', &v), MVS_OK);
  garble_tail(&v, 2);
  idx[0] = 1;
  idx[1] = 2;
  SENT(p);
  CHECK_ST(mvs_element_ptr(&v, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, buf + 7);
  idx[0] = -1;
  idx[1] = -1;
  CHECK_ST(mvs_element_ptr(&v, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, buf + 14);
  idx[0] = -3;
  idx[1] = -5;
  CHECK_ST(mvs_element_ptr(&v, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, buf);
  /* the message from the header, verbatim */
  idx[0] = 0;
  idx[1] = 7;
  SENT(p);
  CHECK_ST(mvs_element_ptr(&v, 2, idx, &p), MVS_ERR_INDEX);
  CHECK_STR(mvs_last_error(), "index 7 is out of range for axis 1 of size 5");
  idx[0] = 3;
  idx[1] = 0;
  CHECK_ERR(mvs_element_ptr(&v, 2, idx, &p), MVS_ERR_INDEX, "index 3 is out of range for axis 0 of size 3");
  idx[0] = 0;
  idx[1] = -6;
  CHECK_ERR(mvs_element_ptr(&v, 2, idx, &p), MVS_ERR_INDEX, "index -6 is out of range for axis 1 of size 5");
  idx[1] = PTRDIFF_MIN;
  CHECK_ERR(mvs_element_ptr(&v, 2, idx, &p), MVS_ERR_INDEX, "index -9223372036854775808");
  idx[1] = PTRDIFF_MAX;
  CHECK_ERR(mvs_element_ptr(&v, 2, idx, &p), MVS_ERR_INDEX, "index 9223372036854775807");
  CHECK_UNTOUCHED(p);
  /* strided and negative strides */
  {
    mvs_slice f;
    CHECK_ST(mvs_flip_axis(&v, 2, 1, &f), MVS_OK);
    idx[0] = 2;
    idx[1] = 1;
    CHECK_ST(mvs_element_ptr(&f, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, buf + 13);
  }
  /* 0-d (index may be NULL) and 8-d */
  {
    mvs_slice s0;
    ptrdiff_t s8[8] = {2, 1, 1, 1, 1, 1, 1, 3};
    CHECK_ST(mvs_view_contiguous(buf + 9, 8, 0, NULL, 'C', &s0), MVS_OK);
    SENT(p);
    CHECK_ST(mvs_element_ptr(&s0, 0, NULL, &p), MVS_OK);
    CHECK_PTR(p, buf + 9);
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &s0), MVS_OK);
    idx[0] = 1;
    idx[1] = idx[2] = idx[3] = idx[4] = idx[5] = idx[6] = -1;
    idx[7] = 2;
    CHECK_ST(mvs_element_ptr(&s0, 8, idx, &p), MVS_OK);
    CHECK_PTR(p, buf + 5);
    idx[7] = 3;
    SENT(p);
    CHECK_ERR(mvs_element_ptr(&s0, 8, idx, &p), MVS_ERR_INDEX, "index 3 is out of range for axis 7 of size 3");
    CHECK_UNTOUCHED(p);
  }
  /* a source whose span exceeds PTRDIFF_MAX is refused, whichever element is asked for */
  {
    ptrdiff_t h = 4, st = P62; /* span 3 * 2^62 */
    mvs_slice x = hand_view(NULL, 1, &h, &st);
    SENT(p);
    idx[0] = 2;
    CHECK_ERR(mvs_element_ptr(&x, 1, idx, &p), MVS_ERR_OVERFLOW, "overflow");
    idx[0] = 1; /* 2^62 bytes in would fit */
    CHECK_ERR(mvs_element_ptr(&x, 1, idx, &p), MVS_ERR_OVERFLOW, "overflow");
    idx[0] = 0;
    CHECK_ERR(mvs_element_ptr(&x, 1, idx, &p), MVS_ERR_OVERFLOW, "overflow");
    h = 3;
    st = -P62; /* span 2^63 = PTRDIFF_MAX + 1; x[2] at -2^63 would fit */
    x = hand_view(NULL, 1, &h, &st);
    idx[0] = 2;
    CHECK_ERR(mvs_element_ptr(&x, 1, idx, &p), MVS_ERR_OVERFLOW, "overflow");
    {
      ptrdiff_t h2[2] = {2, 2}, st2[2];
      st2[0] = P62;
      st2[1] = P62; /* each term fits, the sum does not */
      x = hand_view(NULL, 2, h2, st2);
      idx[0] = 1;
      idx[1] = 0;
      CHECK_ERR(mvs_element_ptr(&x, 2, idx, &p), MVS_ERR_OVERFLOW, "overflow");
      idx[1] = 1;
      CHECK_ERR(mvs_element_ptr(&x, 2, idx, &p), MVS_ERR_OVERFLOW, "overflow");
      st2[1] = -P62; /* x[1, 1] is at 0, but the span is still 2^63 */
      x = hand_view(NULL, 2, h2, st2);
      CHECK_ERR(mvs_element_ptr(&x, 2, idx, &p), MVS_ERR_OVERFLOW, "overflow");
    }
    CHECK_UNTOUCHED(p);
  }
  /* span exactly PTRDIFF_MAX: every element is exact, the far one included */
  {
    ptrdiff_t h2[2] = {2, 2}, st2[2];
    mvs_slice x;
    st2[0] = P62;
    st2[1] = P62 - 1;
    x = hand_view(NULL, 2, h2, st2);
    idx[0] = 1;
    idx[1] = 1;
    SENT(p);
    CHECK_ST(mvs_element_ptr(&x, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, addr_at(NULL, PTRDIFF_MAX));
    idx[0] = -1;
    idx[1] = -2;
    CHECK_ST(mvs_element_ptr(&x, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, addr_at(NULL, P62));
    idx[0] = 0;
    idx[1] = 1;
    CHECK_ST(mvs_element_ptr(&x, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, addr_at(NULL, P62 - 1));
    st2[0] = -P62; /* from data: -2^62, 2^62 - 1 and -1 */
    x = hand_view(NULL, 2, h2, st2);
    idx[0] = 1;
    idx[1] = 0;
    CHECK_ST(mvs_element_ptr(&x, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, addr_at(NULL, -P62));
    idx[1] = 1;
    CHECK_ST(mvs_element_ptr(&x, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, addr_at(NULL, -1));
    st2[1] = 1 - P62; /* x[1, 1] is PTRDIFF_MAX below data */
    x = hand_view(buf, 2, h2, st2);
    CHECK_ST(mvs_element_ptr(&x, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, addr_at(buf, -PTRDIFF_MAX));
    {
      ptrdiff_t h = 2, st = PTRDIFF_MIN + 1;
      x = hand_view(NULL, 1, &h, &st);
      idx[0] = 1;
      CHECK_ST(mvs_element_ptr(&x, 1, idx, &p), MVS_OK);
      CHECK_PTR(p, addr_at(NULL, -PTRDIFF_MAX));
      h = 8;
      st = PTRDIFF_MAX / 7; /* 7 * st == PTRDIFF_MAX */
      x = hand_view(NULL, 1, &h, &st);
      idx[0] = 7;
      CHECK_ST(mvs_element_ptr(&x, 1, idx, &p), MVS_OK);
      CHECK_PTR(p, addr_at(NULL, PTRDIFF_MAX));
      idx[0] = -4;
      CHECK_ST(mvs_element_ptr(&x, 1, idx, &p), MVS_OK);
      CHECK_PTR(p, addr_at(NULL, 4 * (PTRDIFF_MAX / 7)));
    }
  }

  idx[0] = 0;
  idx[1] = 0;
  SENT(p);
  CHECK_ERR(mvs_element_ptr(&v, -1, idx, &p), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_element_ptr(&v, 9, idx, &p), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_element_ptr(NULL, 2, idx, &p), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_element_ptr(&v, 2, NULL, &p), MVS_ERR_NULL, "index");
  CHECK_ERR(mvs_element_ptr(&v, 2, idx, NULL), MVS_ERR_NULL, "out");
  v.shape[1] = -5;
  CHECK_ERR(mvs_element_ptr(&v, 2, idx, &p), MVS_ERR_SHAPE, "-5");
  CHECK_UNTOUCHED(p);
}

int main(void) {
  iota(buf, 24, 0);
  region_add(buf, sizeof buf);
  test_is_contiguous();
  test_counts();
  test_byte_extent_bounds();
  test_may_overlap();
  test_element_ptr();
  return check_summary("test_query");
}
