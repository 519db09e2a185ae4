/* Slicing and indexing: mvs_slice_axis, mvs_index_axis, mvs_index, mvs_flip_axis, mvs_flip.
 * Expected values are NumPy's, worked out by hand (a = np.arange(10.), m = a2d (3,4)). */
#include "check.h"

static const ptrdiff_t P62 = (ptrdiff_t)1 << 62;
/* 7 * S7 == PTRDIFF_MAX exactly: 8 items S7 apart span PTRDIFF_MAX bytes */
static const ptrdiff_t S7 = PTRDIFF_MAX / 7;

static double buf[24];
static int token;

/* a = np.arange(10.) over buf, with junk past ndim and a memview token */
static mvs_slice make_a(void) {
  mvs_slice a;
  ptrdiff_t n = 10;
  CHECK_ST(mvs_view_contiguous(buf, 8, 1, &n, 'C', &a), MVS_OK);
  garble_tail(&a, 1);
  a.memview = &token;
  return a;
}

/* m = np.arange(12.).reshape(3, 4) over buf */
static mvs_slice make_m(void) {
  mvs_slice m;
  ptrdiff_t sh[2] = {3, 4};
  CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh, 'C', &m), MVS_OK);
  garble_tail(&m, 2);
  m.memview = &token;
  return m;
}

/* Runs a[start:stop:step] and checks data offset (items), length, stride and elements. */
static void slice1(ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, int off, ptrdiff_t len,
                   ptrdiff_t stride, const char *elems, int line) {
  mvs_slice a = make_a(), out, inplace;
  char sh[32], st[32];
  int before = g_failures;
  SENT(out);
  CHECK_ST(mvs_slice_axis(&a, 1, 0, start, stop, step, &out), MVS_OK);
  snprintf(sh, sizeof sh, "%td", len);
  snprintf(st, sizeof st, "%td", stride);
  CHECK_VIEW(&out, 1, buf + off, sh, st);
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 1, elems);
  /* the same in place (out aliasing src); axis -1 names the same axis */
  inplace = a;
  CHECK_ST(mvs_slice_axis(&inplace, 1, -1, start, stop, step, &inplace), MVS_OK);
  CHECK(memcmp(&inplace, &out, sizeof out) == 0);
  if (g_failures != before)
    fprintf(stderr, "    (in slice1 called from line %d: a[%td:%td:%td])\n", line, start, stop, step);
}

#define N MVS_NONE
static void test_slice_axis(void) {
  mvs_slice a, m, out, w;
  iota(buf, 24, 0);
  regions_clear();
  region_add(buf, sizeof buf);

  slice1(N, N, N, 0, 10, 8, "0 1 2 3 4 5 6 7 8 9", __LINE__);
  slice1(2, 8, 2, 2, 3, 16, "2 4 6", __LINE__);
  slice1(N, N, -1, 9, 10, -8, "9 8 7 6 5 4 3 2 1 0", __LINE__);
  slice1(8, 2, -3, 8, 2, -24, "8 5", __LINE__);
  slice1(-3, N, N, 7, 3, 8, "7 8 9", __LINE__);
  slice1(N, -7, N, 0, 3, 8, "0 1 2", __LINE__);
  slice1(-100, 100, N, 0, 10, 8, "0 1 2 3 4 5 6 7 8 9", __LINE__);
  slice1(10, -20, -4, 9, 3, -32, "9 5 1", __LINE__);
  slice1(-1, -11, -1, 9, 10, -8, "9 8 7 6 5 4 3 2 1 0", __LINE__);
  slice1(N, -11, -1, 9, 10, -8, "9 8 7 6 5 4 3 2 1 0", __LINE__);
  slice1(-1, -10, -1, 9, 9, -8, "9 8 7 6 5 4 3 2 1", __LINE__);
  slice1(3, N, 3, 3, 3, 24, "3 6 9", __LINE__);
  slice1(N, 3, -3, 9, 2, -24, "9 6", __LINE__);
  /* one element: the source stride is kept */
  slice1(3, 4, 5, 3, 1, 8, "3", __LINE__);
  slice1(1, N, PTRDIFF_MAX, 1, 1, 8, "1", __LINE__);
  slice1(N, N, -PTRDIFF_MAX, 9, 1, 8, "9", __LINE__);
  slice1(-1, N, N, 9, 1, 8, "9", __LINE__);
  /* empty results keep the data address and the source stride */
  slice1(100, N, N, 0, 0, 8, "", __LINE__);
  slice1(5, 5, N, 0, 0, 8, "", __LINE__);
  slice1(7, 2, N, 0, 0, 8, "", __LINE__);
  slice1(2, 7, -1, 0, 0, 8, "", __LINE__);
  slice1(PTRDIFF_MAX, N, N, 0, 0, 8, "", __LINE__);
  slice1(N, PTRDIFF_MIN + 1, N, 0, 0, 8, "", __LINE__);
  slice1(PTRDIFF_MIN + 1, PTRDIFF_MAX, N, 0, 10, 8, "0 1 2 3 4 5 6 7 8 9", __LINE__);
  slice1(PTRDIFF_MAX, PTRDIFF_MIN + 1, -1, 9, 10, -8, "9 8 7 6 5 4 3 2 1 0", __LINE__);
  slice1(PTRDIFF_MIN + 1, N, -1, 0, 0, 8, "", __LINE__);

  /* 2-D: m[:, 1:3] then (chained, in place) m[::-1, ::2] */
  m = make_m();
  SENT(out);
  CHECK_ST(mvs_slice_axis(&m, 2, 1, 1, 3, N, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf + 1, "3 2", "32 8");
  CHECK_ELEMS(&out, 2, "1 2 5 6 9 10");
  w = m;
  CHECK_ST(mvs_slice_axis(&w, 2, 0, N, N, -1, &w), MVS_OK);
  CHECK_ST(mvs_slice_axis(&w, 2, -1, N, N, 2, &w), MVS_OK);
  CHECK_VIEW(&w, 2, buf + 8, "3 2", "-32 16");
  CHECK_PTR(w.memview, &token);
  CHECK_ELEMS(&w, 2, "8 10 4 6 0 2");
  /* m[1:1] is empty: data and stride stay; slicing the empty axis again changes nothing */
  SENT(out);
  CHECK_ST(mvs_slice_axis(&m, 2, 0, 1, 1, N, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "0 4", "32 8");
  CHECK_ST(mvs_slice_axis(&out, 2, 0, N, N, -1, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "0 4", "32 8");
  CHECK_ELEMS(&out, 2, "");

  /* ndim 8 */
  {
    ptrdiff_t s8[8] = {1, 1, 1, 1, 1, 1, 1, 10};
    mvs_slice v8;
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v8), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_slice_axis(&v8, 8, 7, 2, 5, N, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf + 2, "1 1 1 1 1 1 1 3", "80 80 80 80 80 80 80 8");
    CHECK_ELEMS(&out, 8, "2 3 4");
    SENT(out);
    CHECK_ST(mvs_slice_axis(&v8, 8, -8, 1, N, N, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf, "0 1 1 1 1 1 1 10", "80 80 80 80 80 80 80 8");
  }

  /* Errors */
  a = make_a();
  SENT(out);
  CHECK_ERR(mvs_slice_axis(&a, 1, 0, 1, 5, 0, &out), MVS_ERR_STEP, "step");
  CHECK_ERR(mvs_slice_axis(&a, 1, 1, N, N, N, &out), MVS_ERR_AXIS, "axis 1 is out of bounds for a view of 1 dimensions");
  CHECK_ERR(mvs_slice_axis(&a, 1, -2, N, N, N, &out), MVS_ERR_AXIS, "axis -2");
  CHECK_ERR(mvs_slice_axis(&a, 1, 2147483647, N, N, N, &out), MVS_ERR_AXIS, "2147483647");
  CHECK_ERR(mvs_slice_axis(&a, 1, -2147483647 - 1, N, N, N, &out), MVS_ERR_AXIS, "-2147483648");
  CHECK_ERR(mvs_slice_axis(&a, 0, 0, N, N, N, &out), MVS_ERR_AXIS, "0 dimensions");
  CHECK_ERR(mvs_slice_axis(&a, -1, 0, N, N, N, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_slice_axis(&a, 9, 0, N, N, N, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_slice_axis(NULL, 1, 0, N, N, N, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_slice_axis(&a, 1, 0, N, N, N, NULL), MVS_ERR_NULL, "out");
  {
    mvs_slice bad = make_m();
    bad.shape[1] = -4;
    CHECK_ERR(mvs_slice_axis(&bad, 2, 0, N, N, N, &out), MVS_ERR_SHAPE, "extent -4 of axis 1");
  }
  /* a source whose span, sum of (len - 1) * |stride|, exceeds PTRDIFF_MAX is refused, whatever
   * the slice: even one that moves by 2^62 bytes only, the identity, or an empty one */
  {
    ptrdiff_t sh = 4, st = P62; /* span 3 * 2^62 */
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    SENT(out);
    CHECK_ERR(mvs_slice_axis(&h, 1, 0, 2, N, N, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_slice_axis(&h, 1, 0, N, N, 2, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ST(mvs_slice_axis(&h, 1, 0, 3, 0, -1, &out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, 1, 3, 2, &out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, N, N, N, &out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, 2, 2, N, &out), MVS_ERR_OVERFLOW);
    st = PTRDIFF_MIN; /* span 2^63 = PTRDIFF_MAX + 1 */
    sh = 2;
    h = hand_view(NULL, 1, &sh, &st);
    CHECK_ERR(mvs_slice_axis(&h, 1, 0, N, N, -1, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ST(mvs_slice_axis(&h, 1, 0, 0, 1, N, &out), MVS_ERR_OVERFLOW);
    { /* (2, 2) with strides (PTRDIFF_MAX, +-1): span PTRDIFF_MAX + 1; slicing either axis */
      ptrdiff_t sh2[2] = {2, 2}, st2[2];
      st2[0] = PTRDIFF_MAX;
      st2[1] = 1;
      h = hand_view(NULL, 2, sh2, st2);
      CHECK_ERR(mvs_slice_axis(&h, 2, 1, 0, 1, N, &out), MVS_ERR_OVERFLOW, "overflow");
      st2[1] = -1;
      h = hand_view(NULL, 2, sh2, st2);
      CHECK_ERR(mvs_slice_axis(&h, 2, 0, 1, N, N, &out), MVS_ERR_OVERFLOW, "overflow");
    }
    CHECK_UNTOUCHED(out);
  }
  /* span exactly PTRDIFF_MAX: accepted, and every offset and stride is exact. h = 8 items S7
   * bytes apart from address 0, so h[7] is at PTRDIFF_MAX. */
  {
    ptrdiff_t sh = 8, st = S7;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    CHECK_EQ(7 * S7, PTRDIFF_MAX);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, 7, N, N, &w), MVS_OK); /* h[7:] */
    CHECK_VIEW1(&w, addr_at(NULL, PTRDIFF_MAX), 1, S7);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, N, N, 7, &w), MVS_OK); /* h[::7]: h[0], h[7] */
    CHECK_VIEW1(&w, NULL, 2, PTRDIFF_MAX);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, N, N, -1, &w), MVS_OK); /* h[::-1] */
    CHECK_VIEW1(&w, addr_at(NULL, PTRDIFF_MAX), 8, -S7);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, N, N, -7, &w), MVS_OK); /* h[::-7]: h[7], h[0] */
    CHECK_VIEW1(&w, addr_at(NULL, PTRDIFF_MAX), 2, -PTRDIFF_MAX);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, 1, N, 3, &w), MVS_OK); /* h[1::3]: h[1], h[4], h[7] */
    CHECK_VIEW1(&w, addr_at(NULL, S7), 3, 3 * S7);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, -1, 0, -7, &w), MVS_OK); /* h[-1:0:-7]: h[7] alone */
    CHECK_VIEW1(&w, addr_at(NULL, PTRDIFF_MAX), 1, S7);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, 6, N, PTRDIFF_MAX, &w), MVS_OK); /* h[6::MAX]: h[6] */
    CHECK_VIEW1(&w, addr_at(NULL, 6 * S7), 1, S7);
    /* negative strides: the far end is PTRDIFF_MAX bytes below data */
    st = -PTRDIFF_MAX;
    sh = 2;
    h = hand_view(NULL, 1, &sh, &st);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, N, N, -1, &w), MVS_OK);
    CHECK_VIEW1(&w, addr_at(NULL, -PTRDIFF_MAX), 2, PTRDIFF_MAX);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&h, 1, 0, -1, N, N, &w), MVS_OK);
    CHECK_VIEW1(&w, addr_at(NULL, -PTRDIFF_MAX), 1, -PTRDIFF_MAX);
    /* 2-D, span (P62) + (P62 - 1) = PTRDIFF_MAX: the corner h2[1, 1] */
    {
      ptrdiff_t sh2[2] = {2, 2}, st2[2];
      st2[0] = P62;
      st2[1] = P62 - 1;
      h = hand_view(NULL, 2, sh2, st2);
      SENT(w);
      CHECK_ST(mvs_slice_axis(&h, 2, 0, 1, N, N, &w), MVS_OK);
      CHECK_ST(mvs_slice_axis(&w, 2, 1, 1, N, N, &w), MVS_OK);
      CHECK_VIEW(&w, 2, addr_at(NULL, PTRDIFF_MAX), "1 1", "4611686018427387904 4611686018427387903");
      SENT(w);
      CHECK_ST(mvs_slice_axis(&h, 2, 1, N, N, -1, &w), MVS_OK);
      CHECK_VIEW(&w, 2, addr_at(NULL, P62 - 1), "2 2", "4611686018427387904 -4611686018427387903");
    }
  }
  /* zero-size views have span 0 whatever their strides; slicing to length 0 adds nothing */
  {
    ptrdiff_t sh2[2] = {0, 4}, st2[2];
    mvs_slice z;
    st2[0] = PTRDIFF_MIN;
    st2[1] = PTRDIFF_MAX;
    z = hand_view(buf, 2, sh2, st2);
    SENT(w);
    CHECK_ST(mvs_slice_axis(&z, 2, 1, 4, N, N, &w), MVS_OK);
    CHECK_VIEW(&w, 2, buf, "0 0", "-9223372036854775808 9223372036854775807");
    SENT(w);
    CHECK_ST(mvs_slice_axis(&z, 2, 0, N, N, -1, &w), MVS_OK);
    CHECK_VIEW(&w, 2, buf, "0 4", "-9223372036854775808 9223372036854775807");
    SENT(w);
    CHECK_ST(mvs_slice_axis(&z, 2, 1, 1, 2, N, &w), MVS_OK); /* moves by one stride */
    CHECK_VIEW(&w, 2, addr_at(buf, PTRDIFF_MAX), "0 1", "-9223372036854775808 9223372036854775807");
  }
}

static void test_index_axis(void) {
  mvs_slice m, out, w;
  iota(buf, 24, 0);
  regions_clear();
  region_add(buf, sizeof buf);
  m = make_m();

  SENT(out);
  CHECK_ST(mvs_index_axis(&m, 2, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 4, "4", "8"); /* entry 1 (was stride 8) is cleared */
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 1, "4 5 6 7");
  SENT(out);
  CHECK_ST(mvs_index_axis(&m, 2, 1, -1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 3, "3", "32");
  CHECK_ELEMS(&out, 1, "3 7 11");
  SENT(out);
  CHECK_ST(mvs_index_axis(&m, 2, -2, -3, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "4", "8");
  /* down to 0-d, in place */
  w = m;
  CHECK_ST(mvs_index_axis(&w, 2, 1, 2, &w), MVS_OK);
  CHECK_ST(mvs_index_axis(&w, 1, 0, 2, &w), MVS_OK);
  CHECK_VIEW(&w, 0, buf + 10, "", "");
  CHECK_PTR(w.memview, &token);
  CHECK_ELEMS(&w, 0, "10");
  /* ndim 8 */
  {
    ptrdiff_t s8[8] = {1, 1, 1, 2, 1, 1, 1, 5};
    mvs_slice v8;
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v8), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_index_axis(&v8, 8, 3, 1, &out), MVS_OK);
    CHECK_VIEW(&out, 7, buf + 5, "1 1 1 1 1 1 5", "80 80 80 40 40 40 8");
    CHECK_ELEMS(&out, 7, "5 6 7 8 9");
  }

  SENT(out);
  CHECK_ERR(mvs_index_axis(&m, 2, 0, 3, &out), MVS_ERR_INDEX, "index 3 is out of range for axis 0 of size 3");
  CHECK_ERR(mvs_index_axis(&m, 2, 1, 4, &out), MVS_ERR_INDEX, "index 4 is out of range for axis 1 of size 4");
  CHECK_ERR(mvs_index_axis(&m, 2, -1, -5, &out), MVS_ERR_INDEX, "index -5 is out of range for axis 1 of size 4");
  CHECK_ERR(mvs_index_axis(&m, 2, 0, PTRDIFF_MIN, &out), MVS_ERR_INDEX, "index -9223372036854775808");
  CHECK_ERR(mvs_index_axis(&m, 2, 0, PTRDIFF_MAX, &out), MVS_ERR_INDEX, "index 9223372036854775807");
  CHECK_ERR(mvs_index_axis(&m, 2, 2, 0, &out), MVS_ERR_AXIS, "axis 2");
  CHECK_ERR(mvs_index_axis(&m, 2, -3, 0, &out), MVS_ERR_AXIS, "axis -3");
  CHECK_ERR(mvs_index_axis(&m, 0, 0, 0, &out), MVS_ERR_AXIS, "axis 0");
  CHECK_ERR(mvs_index_axis(&m, -1, 0, 0, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_index_axis(&m, 9, 0, 0, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_index_axis(NULL, 2, 0, 0, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_index_axis(&m, 2, 0, 0, NULL), MVS_ERR_NULL, "out");
  {
    ptrdiff_t z[2] = {0, 4};
    mvs_slice e;
    CHECK_ST(mvs_view_contiguous(buf, 8, 2, z, 'C', &e), MVS_OK);
    CHECK_ERR(mvs_index_axis(&e, 2, 0, 0, &out), MVS_ERR_INDEX, "index 0 is out of range for axis 0 of size 0");
    CHECK_ERR(mvs_index_axis(&e, 2, 0, -1, &out), MVS_ERR_INDEX, "size 0");
  }
  {
    mvs_slice bad = m;
    bad.shape[0] = -1;
    CHECK_ERR(mvs_index_axis(&bad, 2, 1, 0, &out), MVS_ERR_SHAPE, "-1");
  }
  { /* span 3 * 2^62: refused, even for h[1] (2^62 bytes in) and h[0] */
    ptrdiff_t sh = 4, st = P62;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    CHECK_ERR(mvs_index_axis(&h, 1, 0, 2, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ST(mvs_index_axis(&h, 1, 0, -1, &out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_index_axis(&h, 1, 0, 1, &out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_index_axis(&h, 1, 0, 0, &out), MVS_ERR_OVERFLOW);
    sh = 2;
    st = PTRDIFF_MIN; /* span PTRDIFF_MAX + 1 (the offset PTRDIFF_MIN itself would fit) */
    h = hand_view(NULL, 1, &sh, &st);
    CHECK_ERR(mvs_index_axis(&h, 1, 0, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ST(mvs_index_axis(&h, 1, 0, 0, &out), MVS_ERR_OVERFLOW);
  }
  { /* span exactly PTRDIFF_MAX */
    ptrdiff_t sh = 8, st = S7;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    SENT(w);
    CHECK_ST(mvs_index_axis(&h, 1, 0, 7, &w), MVS_OK);
    CHECK_VIEW(&w, 0, addr_at(NULL, PTRDIFF_MAX), "", "");
    SENT(w);
    CHECK_ST(mvs_index_axis(&h, 1, 0, -2, &w), MVS_OK);
    CHECK_VIEW(&w, 0, addr_at(NULL, 6 * S7), "", "");
    sh = 2;
    st = PTRDIFF_MIN + 1;
    h = hand_view(NULL, 1, &sh, &st);
    SENT(w);
    CHECK_ST(mvs_index_axis(&h, 1, 0, -1, &w), MVS_OK);
    CHECK_VIEW(&w, 0, addr_at(NULL, -PTRDIFF_MAX), "", "");
    { /* (2, 3) with strides (PTRDIFF_MAX - 2, 1): row 1 starts PTRDIFF_MAX - 2 bytes in */
      ptrdiff_t sh2[2] = {2, 3}, st2[2];
      st2[0] = PTRDIFF_MAX - 2;
      st2[1] = 1;
      h = hand_view(NULL, 2, sh2, st2);
      SENT(w);
      CHECK_ST(mvs_index_axis(&h, 2, 0, 1, &w), MVS_OK);
      CHECK_VIEW(&w, 1, addr_at(NULL, PTRDIFF_MAX - 2), "3", "1");
      CHECK_ST(mvs_index_axis(&w, 1, 0, 2, &w), MVS_OK);
      CHECK_VIEW(&w, 0, addr_at(NULL, PTRDIFF_MAX), "", "");
      st2[1] = 2; /* one more byte of span: refused */
      h = hand_view(NULL, 2, sh2, st2);
      CHECK_ERR(mvs_index_axis(&h, 2, 0, 0, &out), MVS_ERR_OVERFLOW, "overflow");
    }
  }
  CHECK_UNTOUCHED(out);
}

static mvs_index_item item_i(ptrdiff_t i) {
  mvs_index_item it;
  it.kind = MVS_ITEM_INDEX;
  it.start = i;
  it.stop = 0;
  it.step = 0;
  return it;
}
static mvs_index_item item_s(ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step) {
  mvs_index_item it;
  it.kind = MVS_ITEM_SLICE;
  it.start = start;
  it.stop = stop;
  it.step = step;
  return it;
}
static mvs_index_item item_k(int kind) {
  mvs_index_item it;
  it.kind = kind;
  it.start = 99; /* ignored */
  it.stop = -99;
  it.step = 0;
  return it;
}

static void test_index(void) {
  mvs_slice m, out, w;
  mvs_index_item it[MVS_MAX_INDEX_ITEMS + 2];
  int nd;
  iota(buf, 24, 0);
  regions_clear();
  region_add(buf, sizeof buf);
  m = make_m();

  /* m[1, 1:3] */
  it[0] = item_i(1);
  it[1] = item_s(1, 3, N);
  SENT(out);
  SENT(nd);
  CHECK_ST(mvs_index(&m, 2, it, 2, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 1);
  CHECK_VIEW(&out, 1, buf + 5, "2", "8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 1, "5 6");
  /* m[..., 2] */
  it[0] = item_k(MVS_ITEM_ELLIPSIS);
  it[1] = item_i(2);
  SENT(out);
  CHECK_ST(mvs_index(&m, 2, it, 2, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 1);
  CHECK_VIEW(&out, 1, buf + 2, "3", "32");
  CHECK_ELEMS(&out, 1, "2 6 10");
  /* m[np.newaxis, ::-1, np.newaxis, 3] */
  it[0] = item_k(MVS_ITEM_NEWAXIS);
  it[1] = item_s(N, N, -1);
  it[2] = item_k(MVS_ITEM_NEWAXIS);
  it[3] = item_i(3);
  SENT(out);
  CHECK_ST(mvs_index(&m, 2, it, 4, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 3);
  CHECK_VIEW(&out, 3, buf + 11, "1 3 1", "0 -32 0");
  CHECK_ELEMS(&out, 3, "11 7 3");
  /* m[2] (implicit trailing ellipsis) */
  it[0] = item_i(2);
  SENT(out);
  CHECK_ST(mvs_index(&m, 2, it, 1, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 1);
  CHECK_VIEW(&out, 1, buf + 8, "4", "8");
  /* m[-1:0:-1, ..., np.newaxis] */
  it[0] = item_s(-1, 0, -1);
  it[1] = item_k(MVS_ITEM_ELLIPSIS);
  it[2] = item_k(MVS_ITEM_NEWAXIS);
  SENT(out);
  CHECK_ST(mvs_index(&m, 2, it, 3, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 3);
  CHECK_VIEW(&out, 3, buf + 8, "2 4 1", "-32 8 0");
  CHECK_ELEMS(&out, 3, "8 9 10 11 4 5 6 7");
  /* m[...] and m[()] (items NULL when nitems is 0): the same view */
  it[0] = item_k(MVS_ITEM_ELLIPSIS);
  SENT(out);
  CHECK_ST(mvs_index(&m, 2, it, 1, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 2);
  CHECK_VIEW(&out, 2, buf, "3 4", "32 8");
  SENT(out);
  SENT(nd);
  CHECK_ST(mvs_index(&m, 2, NULL, 0, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 2);
  CHECK_VIEW(&out, 2, buf, "3 4", "32 8");
  /* m[1, 2]: a 0-d result; in place */
  w = m;
  it[0] = item_i(-2);
  it[1] = item_i(-2);
  CHECK_ST(mvs_index(&w, 2, it, 2, &w, &nd), MVS_OK);
  CHECK_EQ(nd, 0);
  CHECK_VIEW(&w, 0, buf + 6, "", "");
  CHECK_PTR(w.memview, &token);
  CHECK_ELEMS(&w, 0, "6");
  /* an empty slice keeps the data address */
  it[0] = item_s(1, 1, N);
  it[1] = item_s(2, N, N);
  SENT(out);
  CHECK_ST(mvs_index(&m, 2, it, 2, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 2);
  CHECK_EQ(out.shape[0], 0);
  CHECK_EQ(out.shape[1], 2);
  CHECK_EQ(out.strides[0], 32);
  CHECK_EQ(out.strides[1], 8);
  it[1] = item_i(3);
  SENT(out);
  CHECK_ST(mvs_index(&m, 2, it, 1, &out, &nd), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "0 4", "32 8");
  /* 0-d source: [] and [np.newaxis, ...] */
  {
    mvs_slice s0;
    CHECK_ST(mvs_view_contiguous(buf + 5, 8, 0, NULL, 'C', &s0), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_index(&s0, 0, NULL, 0, &out, &nd), MVS_OK);
    CHECK_EQ(nd, 0);
    CHECK_VIEW(&out, 0, buf + 5, "", "");
    it[0] = item_k(MVS_ITEM_NEWAXIS);
    it[1] = item_k(MVS_ITEM_ELLIPSIS);
    SENT(out);
    CHECK_ST(mvs_index(&s0, 0, it, 2, &out, &nd), MVS_OK);
    CHECK_EQ(nd, 1);
    CHECK_VIEW(&out, 1, buf + 5, "1", "0");
    CHECK_ELEMS(&out, 1, "5");
    it[0] = item_i(0);
    SENT(out);
    CHECK_ERR(mvs_index(&s0, 0, it, 1, &out, &nd), MVS_ERR_INDEX, "too many indices");
    CHECK_UNTOUCHED(out);
  }
  /* ndim 8 and the maximum of 17 items: 8 indices, 8 new axes, one ellipsis */
  {
    ptrdiff_t s8[8] = {2, 1, 1, 1, 1, 1, 1, 3};
    mvs_slice v8;
    int k;
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v8), MVS_OK);
    for (k = 0; k < 8; k++) it[k] = item_k(MVS_ITEM_NEWAXIS);
    it[8] = item_k(MVS_ITEM_ELLIPSIS);
    for (k = 9; k < 17; k++) it[k] = item_i(-1);
    SENT(out);
    CHECK_ST(mvs_index(&v8, 8, it, 17, &out, &nd), MVS_OK);
    CHECK_EQ(nd, 8);
    CHECK_VIEW(&out, 8, buf + 5, "1 1 1 1 1 1 1 1", "0 0 0 0 0 0 0 0");
    CHECK_ELEMS(&out, 8, "5");
    /* all 8 axes kept through an ellipsis */
    SENT(out);
    CHECK_ST(mvs_index(&v8, 8, it + 8, 1, &out, &nd), MVS_OK);
    CHECK_EQ(nd, 8);
    CHECK_VIEW(&out, 8, buf, "2 1 1 1 1 1 1 3", "24 24 24 24 24 24 24 8");
    /* 18 items are too many, even when valid otherwise */
    it[17] = item_k(MVS_ITEM_NEWAXIS);
    SENT(out);
    SENT(nd);
    CHECK_ERR(mvs_index(&v8, 8, it, 18, &out, &nd), MVS_ERR_VALUE, "item count 18");
    /* 9 new axes on top of 8 kept: a result of 16 dims */
    CHECK_ERR(mvs_index(&v8, 8, it, 9, &out, &nd), MVS_ERR_NDIM, "16 dimensions");
    CHECK_UNTOUCHED(out);
    CHECK_UNTOUCHED(nd);
  }

  /* Errors; out and out_ndim stay untouched */
  SENT(out);
  SENT(nd);
  it[0] = item_i(5);
  CHECK_ERR(mvs_index(&m, 2, it, 1, &out, &nd), MVS_ERR_INDEX, "index 5 is out of range for axis 0 of size 3");
  it[0] = item_s(N, N, N);
  it[1] = item_i(-5);
  CHECK_ERR(mvs_index(&m, 2, it, 2, &out, &nd), MVS_ERR_INDEX, "index -5 is out of range for axis 1 of size 4");
  it[0] = item_i(0);
  it[1] = item_i(0);
  it[2] = item_i(0);
  CHECK_ERR(mvs_index(&m, 2, it, 3, &out, &nd), MVS_ERR_INDEX, "too many indices");
  CHECK_MSG("3");
  it[0] = item_k(MVS_ITEM_ELLIPSIS);
  it[1] = item_k(MVS_ITEM_ELLIPSIS);
  CHECK_ERR(mvs_index(&m, 2, it, 2, &out, &nd), MVS_ERR_INDEX, "ellipsis");
  it[0] = item_s(1, 2, 0);
  CHECK_ERR(mvs_index(&m, 2, it, 1, &out, &nd), MVS_ERR_STEP, "zero");
  /* the first failing item decides */
  it[0] = item_i(7);
  it[1] = item_s(1, 2, 0);
  CHECK_ST(mvs_index(&m, 2, it, 2, &out, &nd), MVS_ERR_INDEX);
  it[0] = item_s(1, 2, 0);
  it[1] = item_i(7);
  CHECK_ST(mvs_index(&m, 2, it, 2, &out, &nd), MVS_ERR_STEP);
  it[0] = item_i(0);
  it[1] = item_k(7);
  CHECK_ERR(mvs_index(&m, 2, it, 2, &out, &nd), MVS_ERR_VALUE, "index item 1 has unknown kind 7");
  it[1] = item_k(-1);
  CHECK_ERR(mvs_index(&m, 2, it, 2, &out, &nd), MVS_ERR_VALUE, "kind -1");
  CHECK_ERR(mvs_index(&m, 2, it, -1, &out, &nd), MVS_ERR_VALUE, "-1");
  CHECK_ERR(mvs_index(&m, 2, it, 2147483647, &out, &nd), MVS_ERR_VALUE, "2147483647");
  {
    int k;
    for (k = 0; k < 7; k++) it[k] = item_k(MVS_ITEM_NEWAXIS);
    CHECK_ERR(mvs_index(&m, 2, it, 7, &out, &nd), MVS_ERR_NDIM, "9 dimensions");
  }
  it[0] = item_i(0);
  CHECK_ERR(mvs_index(&m, -1, it, 1, &out, &nd), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_index(&m, 9, it, 1, &out, &nd), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_index(NULL, 2, it, 1, &out, &nd), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_index(&m, 2, NULL, 1, &out, &nd), MVS_ERR_NULL, "items");
  CHECK_ERR(mvs_index(&m, 2, it, 1, NULL, &nd), MVS_ERR_NULL, "out");
  CHECK_ERR(mvs_index(&m, 2, it, 1, &out, NULL), MVS_ERR_NULL, "out_ndim");
  {
    mvs_slice bad = m;
    bad.shape[1] = -9;
    CHECK_ERR(mvs_index(&bad, 2, it, 1, &out, &nd), MVS_ERR_SHAPE, "-9");
  }
  { /* span 3 * 2^62: refused whatever the items, none included */
    ptrdiff_t sh = 4, st = P62;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    it[0] = item_i(2);
    CHECK_ERR(mvs_index(&h, 1, it, 1, &out, &nd), MVS_ERR_OVERFLOW, "overflow");
    it[0] = item_s(N, N, 2);
    CHECK_ERR(mvs_index(&h, 1, it, 1, &out, &nd), MVS_ERR_OVERFLOW, "overflow");
    it[0] = item_i(1);
    CHECK_ERR(mvs_index(&h, 1, it, 1, &out, &nd), MVS_ERR_OVERFLOW, "overflow");
    it[0] = item_k(MVS_ITEM_ELLIPSIS);
    CHECK_ERR(mvs_index(&h, 1, it, 1, &out, &nd), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_index(&h, 1, NULL, 0, &out, &nd), MVS_ERR_OVERFLOW, "overflow");
  }
  CHECK_UNTOUCHED(out);
  CHECK_UNTOUCHED(nd);
  { /* span exactly PTRDIFF_MAX: h[-1], h[::-7], h[np.newaxis, 7], h[..., 1::3] */
    ptrdiff_t sh = 8, st = S7;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    it[0] = item_i(-1);
    SENT(w);
    CHECK_ST(mvs_index(&h, 1, it, 1, &w, &nd), MVS_OK);
    CHECK_EQ(nd, 0);
    CHECK_VIEW(&w, 0, addr_at(NULL, PTRDIFF_MAX), "", "");
    it[0] = item_s(N, N, -7);
    SENT(w);
    CHECK_ST(mvs_index(&h, 1, it, 1, &w, &nd), MVS_OK);
    CHECK_EQ(nd, 1);
    CHECK_VIEW1(&w, addr_at(NULL, PTRDIFF_MAX), 2, -PTRDIFF_MAX);
    it[0] = item_k(MVS_ITEM_NEWAXIS);
    it[1] = item_i(7);
    SENT(w);
    CHECK_ST(mvs_index(&h, 1, it, 2, &w, &nd), MVS_OK);
    CHECK_EQ(nd, 1);
    CHECK_VIEW1(&w, addr_at(NULL, PTRDIFF_MAX), 1, 0);
    it[0] = item_k(MVS_ITEM_ELLIPSIS);
    it[1] = item_s(1, N, 3);
    SENT(w);
    CHECK_ST(mvs_index(&h, 1, it, 2, &w, &nd), MVS_OK);
    CHECK_EQ(nd, 1);
    CHECK_VIEW1(&w, addr_at(NULL, S7), 3, 3 * S7);
  }
}

static void test_flip(void) {
  mvs_slice m, out, w;
  iota(buf, 24, 0);
  regions_clear();
  region_add(buf, sizeof buf);
  m = make_m();

  SENT(out);
  CHECK_ST(mvs_flip_axis(&m, 2, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf + 3, "3 4", "32 -8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 2, "3 2 1 0 7 6 5 4 11 10 9 8");
  SENT(out);
  CHECK_ST(mvs_flip_axis(&m, 2, -2, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf + 8, "3 4", "-32 8");
  CHECK_ELEMS(&out, 2, "8 9 10 11 4 5 6 7 0 1 2 3");
  SENT(out);
  CHECK_ST(mvs_flip(&m, 2, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf + 11, "3 4", "-32 -8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 2, "11 10 9 8 7 6 5 4 3 2 1 0");
  /* flipping twice, in place, gives m back */
  w = m;
  CHECK_ST(mvs_flip(&w, 2, &w), MVS_OK);
  CHECK_ST(mvs_flip_axis(&w, 2, 0, &w), MVS_OK);
  CHECK_ST(mvs_flip_axis(&w, 2, 1, &w), MVS_OK);
  CHECK_VIEW(&w, 2, buf, "3 4", "32 8");
  CHECK_PTR(w.memview, &token);
  /* axes of length 0 or 1 keep data and stride */
  {
    ptrdiff_t sh[3] = {1, 0, 2};
    mvs_slice e;
    CHECK_ST(mvs_view_contiguous(buf, 8, 3, sh, 'C', &e), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_flip(&e, 3, &out), MVS_OK);
    CHECK_EQ(out.shape[1], 0);
    CHECK_EQ(out.strides[0], 16);
    CHECK_EQ(out.strides[1], 16);
    SENT(out);
    CHECK_ST(mvs_flip_axis(&e, 3, 0, &out), MVS_OK);
    CHECK_VIEW(&out, 3, buf, "1 0 2", "16 16 8");
    SENT(out);
    CHECK_ST(mvs_flip_axis(&e, 3, 1, &out), MVS_OK);
    CHECK_VIEW(&out, 3, buf, "1 0 2", "16 16 8");
  }
  /* 0-d and 8-d */
  {
    mvs_slice s0, v8;
    ptrdiff_t s8[8] = {2, 1, 1, 1, 1, 1, 1, 3};
    CHECK_ST(mvs_view_contiguous(buf + 1, 8, 0, NULL, 'C', &s0), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_flip(&s0, 0, &out), MVS_OK);
    CHECK_VIEW(&out, 0, buf + 1, "", "");
    CHECK_ERR(mvs_flip_axis(&s0, 0, 0, &out), MVS_ERR_AXIS, "axis 0");
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v8), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_flip(&v8, 8, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf + 5, "2 1 1 1 1 1 1 3", "-24 24 24 24 24 24 24 -8");
    CHECK_ELEMS(&out, 8, "5 4 3 2 1 0");
    SENT(out);
    CHECK_ST(mvs_flip_axis(&v8, 8, 7, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf + 2, "2 1 1 1 1 1 1 3", "24 24 24 24 24 24 24 -8");
  }

  SENT(out);
  CHECK_ERR(mvs_flip_axis(&m, 2, 2, &out), MVS_ERR_AXIS, "axis 2");
  CHECK_ERR(mvs_flip_axis(&m, 2, -3, &out), MVS_ERR_AXIS, "axis -3");
  CHECK_ERR(mvs_flip_axis(&m, -1, 0, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_flip_axis(&m, 9, 0, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_flip(&m, -1, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_flip(&m, 9, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_flip_axis(NULL, 2, 0, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_flip_axis(&m, 2, 0, NULL), MVS_ERR_NULL, "out");
  CHECK_ERR(mvs_flip(NULL, 2, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_flip(&m, 2, NULL), MVS_ERR_NULL, "out");
  {
    mvs_slice bad = m;
    bad.shape[1] = -1;
    CHECK_ERR(mvs_flip(&bad, 2, &out), MVS_ERR_SHAPE, "-1");
    CHECK_ERR(mvs_flip_axis(&bad, 2, 0, &out), MVS_ERR_SHAPE, "-1");
  }
  {
    ptrdiff_t sh = 3, st = P62; /* span 2^63 */
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    CHECK_ERR(mvs_flip_axis(&h, 1, 0, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_flip(&h, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    sh = 2;
    st = PTRDIFF_MIN; /* span 2^63: the offset PTRDIFF_MIN would fit, not the negated stride */
    h = hand_view(NULL, 1, &sh, &st);
    CHECK_ERR(mvs_flip_axis(&h, 1, 0, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_flip(&h, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    { /* (2, 2) with strides (P62, P62): each offset fits, the far corner does not */
      ptrdiff_t sh2[2] = {2, 2}, st2[2];
      st2[0] = P62;
      st2[1] = P62;
      h = hand_view(NULL, 2, sh2, st2);
      CHECK_ERR(mvs_flip_axis(&h, 2, 0, &out), MVS_ERR_OVERFLOW, "overflow");
      CHECK_ERR(mvs_flip(&h, 2, &out), MVS_ERR_OVERFLOW, "overflow");
      st2[1] = -P62; /* the far corner is data + 0 now, but the span is still 2^63 */
      h = hand_view(NULL, 2, sh2, st2);
      CHECK_ERR(mvs_flip(&h, 2, &out), MVS_ERR_OVERFLOW, "overflow");
    }
    /* span exactly PTRDIFF_MAX */
    st = -PTRDIFF_MAX;
    h = hand_view(NULL, 1, &sh, &st);
    SENT(w);
    CHECK_ST(mvs_flip(&h, 1, &w), MVS_OK);
    CHECK_VIEW1(&w, addr_at(NULL, -PTRDIFF_MAX), 2, PTRDIFF_MAX);
    CHECK_ST(mvs_flip_axis(&w, 1, 0, &w), MVS_OK); /* and back, in place */
    CHECK_VIEW1(&w, NULL, 2, -PTRDIFF_MAX);
    sh = 8;
    st = S7;
    h = hand_view(NULL, 1, &sh, &st);
    SENT(w);
    CHECK_ST(mvs_flip(&h, 1, &w), MVS_OK);
    CHECK_VIEW1(&w, addr_at(NULL, PTRDIFF_MAX), 8, -S7);
    { /* (2, 2) with strides (P62, 1 - P62): corners at 0, P62, 1 - P62 and 1 */
      ptrdiff_t sh2[2] = {2, 2}, st2[2];
      st2[0] = P62;
      st2[1] = 1 - P62;
      h = hand_view(NULL, 2, sh2, st2);
      SENT(w);
      CHECK_ST(mvs_flip(&h, 2, &w), MVS_OK); /* starts at h[1, 1] */
      CHECK_VIEW(&w, 2, addr_at(NULL, 1), "2 2", "-4611686018427387904 4611686018427387903");
      SENT(w);
      CHECK_ST(mvs_flip_axis(&h, 2, 1, &w), MVS_OK);
      CHECK_VIEW(&w, 2, addr_at(NULL, 1 - P62), "2 2", "4611686018427387904 4611686018427387903");
    }
  }
  CHECK_UNTOUCHED(out);
}

int main(void) {
  test_slice_axis();
  test_index_axis();
  test_index();
  test_flip();
  return check_summary("test_index");
}
