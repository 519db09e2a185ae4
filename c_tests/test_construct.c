/* Constructors: mvs_view_contiguous, mvs_view_strided, mvs_subview. */
#include "check.h"

static const ptrdiff_t P62 = (ptrdiff_t)1 << 62; /* PTRDIFF_MAX / 2 + 1 */

static void test_contiguous(void) {
  double buf[14];
  mvs_slice a, b, f, z, out;
  ptrdiff_t sh23[2] = {2, 3}, sh222[3] = {2, 2, 2};
  int k;

  regions_clear();
  region_add(buf, sizeof buf);
  for (k = 0; k < 14; k++) buf[k] = -1;

  /* (2,3) C at item 0 and (2,2,2) C at item 6 tile the 14-double buffer exactly. */
  SENT(a);
  SENT(b);
  CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh23, 'C', &a), MVS_OK);
  CHECK_VIEW(&a, 2, buf, "2 3", "24 8");
  CHECK_PTR(a.memview, NULL);
  CHECK_ST(mvs_view_contiguous(buf + 6, sizeof(double), 3, sh222, 'C', &b), MVS_OK);
  CHECK_VIEW(&b, 3, buf + 6, "2 2 2", "32 16 8");
  CHECK_PTR(b.memview, NULL);
  CHECK_EQ(fill_through(&a, 2, 0), 6);
  CHECK_EQ(fill_through(&b, 3, 100), 8);
  {
    mvs_slice all;
    ptrdiff_t n14 = 14;
    CHECK_ST(mvs_view_contiguous(buf, 8, 1, &n14, 'C', &all), MVS_OK);
    CHECK_ELEMS(&all, 1, "0 1 2 3 4 5 100 101 102 103 104 105 106 107");
  }
  CHECK_ELEMS(&a, 2, "0 1 2 3 4 5");
  CHECK_ELEMS(&b, 3, "100 101 102 103 104 105 106 107");

  /* F order: element [i, j] is buf[i + 2 j]. */
  SENT(f);
  CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh23, 'F', &f), MVS_OK);
  CHECK_VIEW(&f, 2, buf, "2 3", "8 16");
  CHECK_ELEMS(&f, 2, "0 2 4 1 3 5");
  SENT(f);
  CHECK_ST(mvs_view_contiguous(buf + 6, 8, 3, sh222, 'F', &f), MVS_OK);
  CHECK_VIEW(&f, 3, buf + 6, "2 2 2", "8 16 32");
  /* f[i,j,k] = buf[6 + i + 2j + 4k]; C-order read. */
  CHECK_ELEMS(&f, 3, "100 104 102 106 101 105 103 107");

  /* Zero extents count as 1 when computing strides (NumPy: np.empty((3,0,2)).strides). */
  {
    ptrdiff_t s302[3] = {3, 0, 2}, s03[2] = {0, 3};
    SENT(z);
    CHECK_ST(mvs_view_contiguous(buf, 8, 3, s302, 'C', &z), MVS_OK);
    CHECK_VIEW(&z, 3, buf, "3 0 2", "16 16 8");
    CHECK_ELEMS(&z, 3, "");
    SENT(z);
    CHECK_ST(mvs_view_contiguous(buf, 8, 3, s302, 'F', &z), MVS_OK);
    CHECK_VIEW(&z, 3, buf, "3 0 2", "8 24 24");
    SENT(z);
    CHECK_ST(mvs_view_contiguous(buf, 8, 2, s03, 'C', &z), MVS_OK);
    CHECK_VIEW(&z, 2, buf, "0 3", "24 8");
    /* data may be NULL for a zero-size view. */
    SENT(z);
    CHECK_ST(mvs_view_contiguous(NULL, 8, 2, s03, 'C', &z), MVS_OK);
    CHECK_VIEW(&z, 2, NULL, "0 3", "24 8");
  }

  /* ndim 0: a scalar; shape may be NULL. All 8 entries are "past ndim". */
  SENT(z);
  CHECK_ST(mvs_view_contiguous(buf + 3, 8, 0, NULL, 'C', &z), MVS_OK);
  CHECK_VIEW(&z, 0, buf + 3, "", "");
  CHECK_ELEMS(&z, 0, "3");
  SENT(z);
  CHECK_ST(mvs_view_contiguous(buf + 3, 8, 0, NULL, 'F', &z), MVS_OK);
  CHECK_VIEW(&z, 0, buf + 3, "", "");

  /* ndim 8 (the maximum), itemsize 4. */
  {
    ptrdiff_t s8[8] = {1, 2, 1, 2, 1, 2, 1, 2};
    SENT(z);
    CHECK_ST(mvs_view_contiguous(buf, 4, 8, s8, 'C', &z), MVS_OK);
    CHECK_VIEW(&z, 8, buf, "1 2 1 2 1 2 1 2", "64 32 32 16 16 8 8 4");
    SENT(z);
    CHECK_ST(mvs_view_contiguous(buf, 4, 8, s8, 'F', &z), MVS_OK);
    CHECK_VIEW(&z, 8, buf, "1 2 1 2 1 2 1 2", "4 4 8 8 16 16 32 32");
  }

  /* Odd itemsizes. */
  {
    ptrdiff_t s[2] = {4, 5};
    SENT(z);
    CHECK_ST(mvs_view_contiguous(buf, 3, 2, s, 'C', &z), MVS_OK);
    CHECK_VIEW(&z, 2, buf, "4 5", "15 3");
    SENT(z);
    CHECK_ST(mvs_view_contiguous(buf, 1, 2, s, 'F', &z), MVS_OK);
    CHECK_VIEW(&z, 2, buf, "4 5", "1 4");
  }

  /* Errors; the output stays untouched. */
  SENT(out);
  CHECK_ERR(mvs_view_contiguous(buf, 0, 2, sh23, 'C', &out), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_view_contiguous(buf, -8, 2, sh23, 'C', &out), MVS_ERR_ITEMSIZE, "-8");
  CHECK_ERR(mvs_view_contiguous(buf, PTRDIFF_MIN, 2, sh23, 'C', &out), MVS_ERR_ITEMSIZE, "-9223372036854775808");
  {
    ptrdiff_t neg[2] = {2, -3};
    CHECK_ERR(mvs_view_contiguous(buf, 8, 2, neg, 'C', &out), MVS_ERR_SHAPE, "extent -3 of axis 1");
  }
  CHECK_ERR(mvs_view_contiguous(buf, 8, 2, sh23, 'A', &out), MVS_ERR_VALUE, "65");
  CHECK_ERR(mvs_view_contiguous(buf, 8, 2, sh23, 0, &out), MVS_ERR_VALUE, "order 0");
  CHECK_ERR(mvs_view_contiguous(buf, 8, 2, sh23, 'C' + 256, &out), MVS_ERR_VALUE, "323");
  CHECK_ERR(mvs_view_contiguous(buf, 8, -1, sh23, 'C', &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_view_contiguous(buf, 8, 9, sh23, 'C', &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_view_contiguous(buf, 8, 2, NULL, 'C', &out), MVS_ERR_NULL, "shape");
  CHECK_ERR(mvs_view_contiguous(buf, 8, 2, sh23, 'C', NULL), MVS_ERR_NULL, "out");
  CHECK_UNTOUCHED(out);

  /* Overflow of the byte size is an error, at the exact boundary. */
  {
    ptrdiff_t big[3];
    big[0] = PTRDIFF_MAX / 8;
    SENT(z);
    CHECK_ST(mvs_view_contiguous(NULL, 8, 1, big, 'C', &z), MVS_OK);
    CHECK_EQ(z.shape[0], PTRDIFF_MAX / 8);
    CHECK_EQ(z.strides[0], 8);
    big[0] = PTRDIFF_MAX / 8 + 1;
    CHECK_ERR(mvs_view_contiguous(NULL, 8, 1, big, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    big[0] = PTRDIFF_MAX;
    CHECK_ST(mvs_view_contiguous(NULL, 1, 1, big, 'C', &z), MVS_OK);
    CHECK_ST(mvs_view_contiguous(NULL, 2, 1, big, 'C', &out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_view_contiguous(NULL, PTRDIFF_MAX, 1, big, 'F', &out), MVS_ERR_OVERFLOW);
    big[0] = PTRDIFF_MAX;
    big[1] = 2;
    CHECK_ST(mvs_view_contiguous(NULL, 1, 2, big, 'C', &out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_view_contiguous(NULL, 1, 2, big, 'F', &out), MVS_ERR_OVERFLOW);
    big[0] = 2;
    big[1] = P62;
    CHECK_ST(mvs_view_contiguous(NULL, 1, 2, big, 'C', &out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_view_contiguous(NULL, 1, 2, big, 'F', &out), MVS_ERR_OVERFLOW);
    big[1] = P62 - 1; /* 2 * (2^62 - 1) = PTRDIFF_MAX - 1 bytes: fits */
    SENT(z);
    CHECK_ST(mvs_view_contiguous(NULL, 1, 2, big, 'C', &z), MVS_OK);
    CHECK_EQ(z.strides[0], P62 - 1);
    CHECK_EQ(z.strides[1], 1);
    big[0] = (ptrdiff_t)1 << 21;
    big[1] = (ptrdiff_t)1 << 21;
    big[2] = (ptrdiff_t)1 << 21; /* 2^63 items */
    CHECK_ST(mvs_view_contiguous(NULL, 1, 3, big, 'C', &out), MVS_ERR_OVERFLOW);
    CHECK_UNTOUCHED(out);
  }
}

static void test_strided(void) {
  double buf[14];
  mvs_slice v, out;
  regions_clear();
  region_add(buf, sizeof buf);
  iota(buf, 14, 0);

  {
    ptrdiff_t sh[2] = {2, 3}, st[2] = {8, 16};
    SENT(v);
    CHECK_ST(mvs_view_strided(buf, 8, 2, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 2, buf, "2 3", "8 16");
    CHECK_PTR(v.memview, NULL);
    CHECK_ELEMS(&v, 2, "0 2 4 1 3 5");
  }
  { /* negative strides walk backwards */
    ptrdiff_t sh[2] = {3, 2}, st[2] = {-32, -8};
    SENT(v);
    CHECK_ST(mvs_view_strided(buf + 13, 8, 2, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 2, buf + 13, "3 2", "-32 -8");
    CHECK_ELEMS(&v, 2, "13 12 9 8 5 4");
  }
  { /* stride 0 repeats (broadcast) */
    ptrdiff_t sh[2] = {3, 2}, st[2] = {0, 8};
    SENT(v);
    CHECK_ST(mvs_view_strided(buf + 4, 8, 2, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 2, buf + 4, "3 2", "0 8");
    CHECK_ELEMS(&v, 2, "4 5 4 5 4 5");
  }
  { /* strides not multiples of the itemsize are allowed (bytes) */
    ptrdiff_t sh[1] = {3}, st[1] = {3};
    SENT(v);
    CHECK_ST(mvs_view_strided(buf, 2, 1, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 1, buf, "3", "3");
  }
  /* ndim 0 and ndim 8 */
  SENT(v);
  CHECK_ST(mvs_view_strided(buf + 7, 8, 0, NULL, NULL, &v), MVS_OK);
  CHECK_VIEW(&v, 0, buf + 7, "", "");
  CHECK_ELEMS(&v, 0, "7");
  {
    ptrdiff_t sh[8] = {1, 1, 1, 1, 1, 1, 2, 2}, st[8] = {-5, 0, 7, 999, 1, -1, 8, 16};
    SENT(v);
    CHECK_ST(mvs_view_strided(buf, 8, 8, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 8, buf, "1 1 1 1 1 1 2 2", "-5 0 7 999 1 -1 8 16");
    CHECK_ELEMS(&v, 8, "0 2 1 3");
  }

  /* Errors */
  {
    ptrdiff_t sh[2] = {2, 3}, st[2] = {24, 8}, neg[2] = {-1, 3};
    SENT(out);
    CHECK_ERR(mvs_view_strided(buf, 8, 2, neg, st, &out), MVS_ERR_SHAPE, "extent -1 of axis 0");
    CHECK_ERR(mvs_view_strided(buf, 0, 2, sh, st, &out), MVS_ERR_ITEMSIZE, "itemsize 0");
    CHECK_ERR(mvs_view_strided(buf, -1, 2, sh, st, &out), MVS_ERR_ITEMSIZE, "itemsize -1");
    CHECK_ERR(mvs_view_strided(buf, 8, -1, sh, st, &out), MVS_ERR_NDIM, "ndim -1");
    CHECK_ERR(mvs_view_strided(buf, 8, 9, sh, st, &out), MVS_ERR_NDIM, "ndim 9");
    CHECK_ERR(mvs_view_strided(buf, 8, 2, NULL, st, &out), MVS_ERR_NULL, "shape");
    CHECK_ERR(mvs_view_strided(buf, 8, 2, sh, NULL, &out), MVS_ERR_NULL, "strides");
    CHECK_ERR(mvs_view_strided(buf, 8, 2, sh, st, NULL), MVS_ERR_NULL, "out");
    CHECK_UNTOUCHED(out);
  }

  /* Overflow of the byte extent: an error, not a wrong view; boundaries exact. */
  {
    ptrdiff_t sh[2] = {2, 2}, st[2];
    SENT(out);
    st[0] = PTRDIFF_MAX; /* span PTRDIFF_MAX fits, but hi = 1 + PTRDIFF_MAX */
    CHECK_ERR(mvs_view_strided(NULL, 1, 1, sh, st, &out), MVS_ERR_OVERFLOW, "overflow");
    st[0] = PTRDIFF_MAX - 7; /* hi = 8 + PTRDIFF_MAX - 7 */
    CHECK_ST(mvs_view_strided(NULL, 8, 1, sh, st, &out), MVS_ERR_OVERFLOW);
    CHECK_UNTOUCHED(out);
    st[0] = PTRDIFF_MAX - 8; /* hi = PTRDIFF_MAX exactly */
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 8, 1, sh, st, &v), MVS_OK);
    CHECK_EQ(v.strides[0], PTRDIFF_MAX - 8);
    {
      ptrdiff_t lo = 0, hi = 0;
      CHECK_ST(mvs_byte_extent(&v, 1, 8, &lo, &hi), MVS_OK);
      CHECK_EQ(lo, 0);
      CHECK_EQ(hi, PTRDIFF_MAX);
    }
    st[0] = -PTRDIFF_MAX; /* span PTRDIFF_MAX, lo = -PTRDIFF_MAX, hi = 1: fits */
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 1, 1, sh, st, &v), MVS_OK);
    CHECK_VIEW1(&v, NULL, 2, -PTRDIFF_MAX);
    {
      ptrdiff_t lo = 0, hi = 0;
      CHECK_ST(mvs_byte_extent(&v, 1, 1, &lo, &hi), MVS_OK);
      CHECK_EQ(lo, -PTRDIFF_MAX);
      CHECK_EQ(hi, 1);
    }
    st[0] = PTRDIFF_MIN;
    st[1] = -1; /* lo = PTRDIFF_MIN - 1 */
    CHECK_ST(mvs_view_strided(NULL, 1, 2, sh, st, &out), MVS_ERR_OVERFLOW);
    st[0] = P62;
    st[1] = P62; /* hi = 1 + 2^63 */
    CHECK_ST(mvs_view_strided(NULL, 1, 2, sh, st, &out), MVS_ERR_OVERFLOW);
    sh[0] = 3;
    st[0] = P62; /* (3 - 1) * 2^62 overflows */
    CHECK_ST(mvs_view_strided(NULL, 1, 1, sh, st, &out), MVS_ERR_OVERFLOW);
    sh[0] = PTRDIFF_MAX;
    st[0] = 2;
    CHECK_ST(mvs_view_strided(NULL, 1, 1, sh, st, &out), MVS_ERR_OVERFLOW);
    st[0] = 0; /* PTRDIFF_MAX copies of one item: fine */
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 1, 1, sh, st, &v), MVS_OK);
    /* a zero-size view addresses nothing, whatever its strides */
    sh[0] = 0;
    sh[1] = PTRDIFF_MAX;
    st[0] = PTRDIFF_MAX;
    st[1] = PTRDIFF_MAX;
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 1, 2, sh, st, &v), MVS_OK);
    st[0] = PTRDIFF_MIN;
    st[1] = PTRDIFF_MIN;
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 1, 2, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 2, NULL, "0 9223372036854775807", "-9223372036854775808 -9223372036854775808");
    CHECK_UNTOUCHED(out);
  }

  /* The span, sum of (shape[i] - 1) * |strides[i]|, must fit in ptrdiff_t even when the byte
   * extent [lo, hi) would: with negative strides lo can reach PTRDIFF_MIN while hi stays 1. */
  {
    ptrdiff_t sh[3] = {2, 2, 8}, st[3];
    const ptrdiff_t s7 = PTRDIFF_MAX / 7; /* 7 * s7 == PTRDIFF_MAX exactly */
    SENT(out);
    st[0] = PTRDIFF_MIN; /* span 2^63; lo = PTRDIFF_MIN would fit */
    CHECK_ERR(mvs_view_strided(NULL, 1, 1, sh, st, &out), MVS_ERR_OVERFLOW, "overflow");
    st[0] = -P62;
    st[1] = -P62; /* span 2^63 again, lo = PTRDIFF_MIN */
    CHECK_ERR(mvs_view_strided(NULL, 1, 2, sh, st, &out), MVS_ERR_OVERFLOW, "overflow");
    st[1] = -(P62 - 1); /* span PTRDIFF_MAX: accepted */
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 1, 2, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 2, NULL, "2 2", "-4611686018427387904 -4611686018427387903");
    {
      ptrdiff_t lo = 0, hi = 0;
      void *p = NULL;
      ptrdiff_t idx[2] = {1, 1};
      CHECK_ST(mvs_byte_extent(&v, 2, 1, &lo, &hi), MVS_OK);
      CHECK_EQ(lo, -PTRDIFF_MAX);
      CHECK_EQ(hi, 1);
      CHECK_ST(mvs_element_ptr(&v, 2, idx, &p), MVS_OK);
      CHECK_PTR(p, addr_at(NULL, -PTRDIFF_MAX));
    }
    sh[0] = 3;
    st[0] = -P62; /* (3 - 1) * 2^62 = 2^63: lo = PTRDIFF_MIN would fit, the span does not */
    CHECK_ST(mvs_view_strided(NULL, 1, 1, sh, st, &out), MVS_ERR_OVERFLOW);
    st[0] = -(P62 - 1); /* span PTRDIFF_MAX - 1 */
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 1, 1, sh, st, &v), MVS_OK);
    CHECK_VIEW1(&v, NULL, 3, -(P62 - 1));
    /* 8 items s7 bytes apart span 7 * s7 = PTRDIFF_MAX exactly; one byte more per step does not fit */
    st[0] = -s7;
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 1, 1, sh + 2, st, &v), MVS_OK);
    CHECK_VIEW1(&v, NULL, 8, -1317624576693539401);
    st[0] = -(s7 + 1);
    CHECK_ST(mvs_view_strided(NULL, 1, 1, sh + 2, st, &out), MVS_ERR_OVERFLOW);
    /* a 3-d view whose terms each fit, whose sum does not: 2^62 + (2^62 - 1) + 1 */
    sh[0] = 2;
    sh[1] = 2;
    sh[2] = 2;
    st[0] = -P62;
    st[1] = -(P62 - 1);
    st[2] = -1;
    CHECK_ST(mvs_view_strided(NULL, 1, 3, sh, st, &out), MVS_ERR_OVERFLOW);
    st[2] = 0; /* a broadcast axis adds nothing */
    SENT(v);
    CHECK_ST(mvs_view_strided(NULL, 1, 3, sh, st, &v), MVS_OK);
    /* entries past ndim are not part of the span */
    SENT(v);
    st[2] = PTRDIFF_MIN;
    sh[2] = 3;
    CHECK_ST(mvs_view_strided(NULL, 1, 2, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 2, NULL, "2 2", "-4611686018427387904 -4611686018427387903");
    CHECK_UNTOUCHED(out);
  }

  /* A length-1 axis adds (1 - 1) * |stride| = 0 to the span, whatever its stride, PTRDIFF_MIN
   * included (the header's formula; the rule refuses |PTRDIFF_MIN| only for extents >= 2). */
  {
    ptrdiff_t sh[2] = {1, 3}, st[2] = {PTRDIFF_MIN, 8}, lo = 0, hi = 0;
    mvs_slice h;
    SENT(v);
    CHECK_ST(mvs_view_strided(buf, 8, 1, sh, st, &v), MVS_OK);
    CHECK_ST(mvs_view_strided(buf, 8, 2, sh, st, &v), MVS_OK);
    h = hand_view(buf, 2, sh, st);
    CHECK_ST(mvs_byte_extent(&h, 2, 8, &lo, &hi), MVS_OK);
    CHECK_EQ(lo, 0);
    CHECK_EQ(hi, 24);
    st[0] = PTRDIFF_MAX; /* the same with PTRDIFF_MAX, whose absolute value exists */
    SENT(v);
    CHECK_ST(mvs_view_strided(buf, 8, 2, sh, st, &v), MVS_OK);
    CHECK_VIEW(&v, 2, buf, "1 3", "9223372036854775807 8");
  }
}

static void test_subview(void) {
  double buf[14];
  int token;
  mvs_slice flat, v, out;
  ptrdiff_t n14 = 14, sh23[2] = {2, 3}, sh222[3] = {2, 2, 2};

  regions_clear();
  region_add(buf, sizeof buf);
  iota(buf, 14, -50);
  CHECK_ST(mvs_view_contiguous(buf, 8, 1, &n14, 'C', &flat), MVS_OK);
  flat.memview = &token;

  /* one flat buffer, two views: (2,3) at item 0, (2,2,2) at item 6 */
  SENT(v);
  CHECK_ST(mvs_subview(&flat, 1, 8, 0, 2, sh23, 'C', &v), MVS_OK);
  CHECK_VIEW(&v, 2, buf, "2 3", "24 8");
  CHECK_PTR(v.memview, &token);
  CHECK_EQ(fill_through(&v, 2, 0), 6);
  SENT(v);
  CHECK_ST(mvs_subview(&flat, 1, 8, 6, 3, sh222, 'C', &v), MVS_OK);
  CHECK_VIEW(&v, 3, buf + 6, "2 2 2", "32 16 8");
  CHECK_PTR(v.memview, &token);
  CHECK_EQ(fill_through(&v, 3, 6), 8);
  CHECK_ELEMS(&flat, 1, "0 1 2 3 4 5 6 7 8 9 10 11 12 13");
  SENT(v);
  CHECK_ST(mvs_subview(&flat, 1, 8, 6, 3, sh222, 'F', &v), MVS_OK);
  CHECK_VIEW(&v, 3, buf + 6, "2 2 2", "8 16 32");
  CHECK_ELEMS(&v, 3, "6 10 8 12 7 11 9 13");
  SENT(out);
  CHECK_ERR(mvs_subview(&flat, 1, 8, 7, 3, sh222, 'F', &out), MVS_ERR_BOUNDS, "8 items at item 7");
  CHECK_UNTOUCHED(out);

  /* a 2-D source (F-contiguous is accepted too); in place */
  {
    mvs_slice src;
    ptrdiff_t sh27[2] = {2, 7}, s7 = 7;
    CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh27, 'F', &src), MVS_OK);
    src.memview = &token;
    SENT(v);
    CHECK_ST(mvs_subview(&src, 2, 8, 7, 1, &s7, 'C', &v), MVS_OK);
    CHECK_VIEW(&v, 1, buf + 7, "7", "8");
    CHECK_ELEMS(&v, 1, "7 8 9 10 11 12 13");
    CHECK_ST(mvs_subview(&src, 2, 8, 2, 2, sh23, 'C', &src), MVS_OK);
    CHECK_VIEW(&src, 2, buf + 2, "2 3", "24 8");
    CHECK_PTR(src.memview, &token);
    CHECK_ELEMS(&src, 2, "2 3 4 5 6 7");
    /* the extents given in the source itself, written in place */
    CHECK_ST(mvs_subview(&src, 2, 8, 0, 2, src.shape, 'C', &src), MVS_OK);
    CHECK_VIEW(&src, 2, buf + 2, "2 3", "24 8");
  }

  /* the extents given inside `out`, in each field the result overwrites: read before any write */
  {
    int field;
    for (field = 0; field < 3; field++) {
      ptrdiff_t *extents;
      SENT(out);
      extents = field == 0 ? out.shape + 1 : field == 1 ? out.strides : out.suboffsets;
      extents[0] = 2;
      extents[1] = 3;
      CHECK_ST(mvs_subview(&flat, 1, 8, 0, 2, extents, 'C', &out), MVS_OK);
      CHECK_VIEW(&out, 2, buf, "2 3", "24 8");
    }
  }

  /* out_ndim 0 (shape may be NULL) and 8; offset right at the end with zero items */
  SENT(v);
  CHECK_ST(mvs_subview(&flat, 1, 8, 13, 0, NULL, 'C', &v), MVS_OK);
  CHECK_VIEW(&v, 0, buf + 13, "", "");
  CHECK_ELEMS(&v, 0, "13");
  {
    ptrdiff_t s8[8] = {1, 1, 1, 1, 1, 1, 2, 7}, zero = 0;
    SENT(v);
    CHECK_ST(mvs_subview(&flat, 1, 8, 0, 8, s8, 'C', &v), MVS_OK);
    CHECK_VIEW(&v, 8, buf, "1 1 1 1 1 1 2 7", "112 112 112 112 112 112 56 8");
    SENT(v);
    CHECK_ST(mvs_subview(&flat, 1, 8, 14, 1, &zero, 'C', &v), MVS_OK);
    CHECK_VIEW(&v, 1, buf + 14, "0", "8");
  }
  /* a 0-d source: one item */
  {
    mvs_slice scalar;
    ptrdiff_t one = 1;
    CHECK_ST(mvs_view_contiguous(buf + 4, 8, 0, NULL, 'C', &scalar), MVS_OK);
    SENT(v);
    CHECK_ST(mvs_subview(&scalar, 0, 8, 0, 1, &one, 'F', &v), MVS_OK);
    CHECK_VIEW(&v, 1, buf + 4, "1", "8");
    CHECK_ST(mvs_subview(&scalar, 0, 8, 1, 1, &one, 'F', &v), MVS_ERR_BOUNDS);
  }

  /* Errors */
  SENT(out);
  CHECK_ERR(mvs_subview(&flat, 1, 8, -1, 2, sh23, 'C', &out), MVS_ERR_BOUNDS, "offset -1");
  CHECK_ERR(mvs_subview(&flat, 1, 8, 9, 2, sh23, 'C', &out), MVS_ERR_BOUNDS, "6 items at item 9");
  CHECK_MSG("14 items");
  CHECK_ERR(mvs_subview(&flat, 1, 8, 15, 0, NULL, 'C', &out), MVS_ERR_BOUNDS, "15");
  CHECK_ERR(mvs_subview(&flat, 1, 8, PTRDIFF_MAX, 2, sh23, 'C', &out), MVS_ERR_BOUNDS, "9223372036854775807");
  CHECK_ERR(mvs_subview(&flat, 1, 8, PTRDIFF_MIN, 2, sh23, 'C', &out), MVS_ERR_BOUNDS, "-9223372036854775808");
  CHECK_ERR(mvs_subview(&flat, 1, 0, 0, 2, sh23, 'C', &out), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_subview(&flat, 1, 8, 0, 2, sh23, 'X', &out), MVS_ERR_VALUE, "88");
  CHECK_ERR(mvs_subview(&flat, 1, 8, 0, -1, sh23, 'C', &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_subview(&flat, 1, 8, 0, 9, sh23, 'C', &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_subview(&flat, -1, 8, 0, 2, sh23, 'C', &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_subview(&flat, 9, 8, 0, 2, sh23, 'C', &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_subview(NULL, 1, 8, 0, 2, sh23, 'C', &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_subview(&flat, 1, 8, 0, 2, NULL, 'C', &out), MVS_ERR_NULL, "shape");
  CHECK_ERR(mvs_subview(&flat, 1, 8, 0, 2, sh23, 'C', NULL), MVS_ERR_NULL, "out");
  {
    ptrdiff_t neg[2] = {2, -3};
    CHECK_ERR(mvs_subview(&flat, 1, 8, 0, 2, neg, 'C', &out), MVS_ERR_SHAPE, "-3");
  }
  { /* a source that is not contiguous in either order */
    mvs_slice s2;
    CHECK_ST(mvs_slice_axis(&flat, 1, 0, MVS_NONE, MVS_NONE, 2, &s2), MVS_OK);
    CHECK_ERR(mvs_subview(&s2, 1, 8, 0, 0, NULL, 'C', &out), MVS_ERR_NOT_CONTIGUOUS, "not contiguous");
    /* contiguous as bytes, but the itemsize says otherwise */
    CHECK_ST(mvs_subview(&flat, 1, 4, 0, 0, NULL, 'C', &out), MVS_ERR_NOT_CONTIGUOUS);
  }
  { /* an indirect source */
    mvs_slice ind = flat;
    ind.suboffsets[0] = 0;
    CHECK_ERR(mvs_subview(&ind, 1, 8, 0, 0, NULL, 'C', &out), MVS_ERR_INDIRECT, "axis 0");
  }
  { /* a source with a negative extent */
    mvs_slice bad = flat;
    bad.shape[0] = -2;
    CHECK_ERR(mvs_subview(&bad, 1, 8, 0, 0, NULL, 'C', &out), MVS_ERR_SHAPE, "-2");
  }
  { /* a source whose span exceeds PTRDIFF_MAX is refused: 2^62 items of 8 bytes, 8 apart */
    ptrdiff_t sh = P62, st = 8, big[2];
    mvs_slice huge = hand_view(NULL, 1, &sh, &st);
    CHECK_ERR(mvs_subview(&huge, 1, 8, P62 / 2, 1, &sh23[0], 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_subview(&huge, 1, 8, 0, 1, &sh23[0], 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    /* the product of the target shape overflows */
    big[0] = P62;
    big[1] = 4;
    CHECK_ERR(mvs_subview(&flat, 1, 8, 0, 2, big, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ST(mvs_subview(&flat, 1, 8, 0, 2, big, 'F', &out), MVS_ERR_OVERFLOW);
    /* a contiguous source of span exactly PTRDIFF_MAX, (2^62, 2) bytes with strides (2, 1),
     * has 2^63 items: its item count overflows */
    {
      ptrdiff_t bst[2];
      mvs_slice h3;
      big[0] = P62;
      big[1] = 2;
      bst[0] = 2;
      bst[1] = 1;
      h3 = hand_view(NULL, 2, big, bst);
      CHECK_ST(mvs_subview(&h3, 2, 1, 0, 0, NULL, 'C', &out), MVS_ERR_OVERFLOW);
      CHECK_ST(mvs_subview(&h3, 2, 1, 0, 1, &sh23[0], 'C', &out), MVS_ERR_OVERFLOW);
    }
  }
  { /* PTRDIFF_MAX bytes of 1: the last one is PTRDIFF_MAX - 1 bytes in, exactly */
    ptrdiff_t sh = PTRDIFF_MAX, st = 1, one = 1, two[2] = {2, 3};
    mvs_slice bytes = hand_view(NULL, 1, &sh, &st);
    SENT(v);
    CHECK_ST(mvs_subview(&bytes, 1, 1, PTRDIFF_MAX - 1, 1, &one, 'C', &v), MVS_OK);
    CHECK_VIEW1(&v, addr_at(NULL, PTRDIFF_MAX - 1), 1, 1);
    SENT(v);
    CHECK_ST(mvs_subview(&bytes, 1, 1, PTRDIFF_MAX - 6, 2, two, 'F', &v), MVS_OK);
    CHECK_VIEW(&v, 2, addr_at(NULL, PTRDIFF_MAX - 6), "2 3", "1 2"); /* items up to PTRDIFF_MAX - 1 */
    CHECK_ERR(mvs_subview(&bytes, 1, 1, PTRDIFF_MAX - 5, 2, two, 'F', &out), MVS_ERR_BOUNDS, "6 items");
  }
  CHECK_UNTOUCHED(out);
}

int main(void) {
  test_contiguous();
  test_strided();
  test_subview();
  return check_summary("test_construct");
}
