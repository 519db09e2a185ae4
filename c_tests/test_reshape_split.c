/* mvs_reshape, mvs_view_as, mvs_split_sections, mvs_split_at. buf holds 0, 1, 2, ... */
#include "check.h"

static const ptrdiff_t P62 = (ptrdiff_t)1 << 62;

static double buf[24];
static int token;

static mvs_slice make(int ndim, const ptrdiff_t *shape, int order) {
  mvs_slice v;
  CHECK_ST(mvs_view_contiguous(buf, 8, ndim, shape, order, &v), MVS_OK);
  garble_tail(&v, ndim);
  v.memview = &token;
  return v;
}

static void test_reshape(void) {
  ptrdiff_t s234[3] = {2, 3, 4}, s23[2] = {2, 3}, s46[2] = {4, 6}, t[8];
  mvs_slice x = make(3, s234, 'C'), out, w;

  t[0] = 6;
  t[1] = 4;
  SENT(out);
  CHECK_ST(mvs_reshape(&x, 3, 8, 2, t, 'C', &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "6 4", "32 8");
  CHECK_PTR(out.memview, &token);
  t[0] = 4;
  t[1] = -1;
  SENT(out);
  CHECK_ST(mvs_reshape(&x, 3, 8, 2, t, 'C', &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "4 6", "48 8");
  CHECK_ELEMS(&out, 2, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23");
  t[0] = -1;
  SENT(out);
  CHECK_ST(mvs_reshape(&x, 3, 8, 1, t, 'C', &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "24", "8");
  /* as in NumPy, any negative extent is the unknown one */
  t[0] = -2;
  t[1] = 3;
  SENT(out);
  CHECK_ST(mvs_reshape(&x, 3, 8, 2, t, 'C', &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "8 3", "24 8");
  t[0] = PTRDIFF_MIN;
  SENT(out);
  CHECK_ST(mvs_reshape(&x, 3, 8, 1, t, 'F', &out), MVS_ERR_NEEDS_COPY);
  CHECK_ST(mvs_reshape(&x, 3, 8, 1, t, 'C', &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "24", "8");
  /* F order on an F-contiguous source */
  {
    mvs_slice f = make(2, s23, 'F');
    t[0] = 6;
    SENT(out);
    CHECK_ST(mvs_reshape(&f, 2, 8, 1, t, 'F', &out), MVS_OK);
    CHECK_VIEW(&out, 1, buf, "6", "8");
    t[0] = 3;
    t[1] = 2;
    SENT(out);
    CHECK_ST(mvs_reshape(&f, 2, 8, 2, t, 'F', &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf, "3 2", "8 24");
    /* f.reshape(6, order='C') reads f in C order, which is not memory order: a copy */
    t[0] = 6;
    SENT(out);
    CHECK_ERR(mvs_reshape(&f, 2, 8, 1, t, 'C', &out), MVS_ERR_NEEDS_COPY, "copy");
    CHECK_UNTOUCHED(out);
  }
  /* and C-contiguous read in F order needs a copy; its transpose does not */
  {
    mvs_slice c = make(2, s23, 'C'), tr;
    t[0] = 6;
    SENT(out);
    CHECK_ERR(mvs_reshape(&c, 2, 8, 1, t, 'F', &out), MVS_ERR_NEEDS_COPY, "copy");
    CHECK_UNTOUCHED(out);
    CHECK_ST(mvs_transpose(&c, 2, &tr), MVS_OK);
    CHECK_ERR(mvs_reshape(&tr, 2, 8, 1, t, 'C', &out), MVS_ERR_NEEDS_COPY, "copy");
    CHECK_UNTOUCHED(out);
    SENT(out);
    CHECK_ST(mvs_reshape(&tr, 2, 8, 1, t, 'F', &out), MVS_OK);
    CHECK_VIEW(&out, 1, buf, "6", "8");
    CHECK_ELEMS(&out, 1, "0 1 2 3 4 5");
  }
  /* arange(24).reshape(4,6)[:, ::2] has strides (48, 16) = a uniform stride of 16 */
  {
    mvs_slice s = make(2, s46, 'C');
    CHECK_ST(mvs_slice_axis(&s, 2, 1, MVS_NONE, MVS_NONE, 2, &s), MVS_OK);
    CHECK_VIEW(&s, 2, buf, "4 3", "48 16");
    t[0] = 12;
    SENT(out);
    CHECK_ST(mvs_reshape(&s, 2, 8, 1, t, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 1, buf, "12", "16");
    CHECK_ELEMS(&out, 1, "0 2 4 6 8 10 12 14 16 18 20 22");
    t[0] = 2;
    t[1] = 6;
    SENT(out);
    CHECK_ST(mvs_reshape(&s, 2, 8, 2, t, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf, "2 6", "96 16");
    SENT(out);
    CHECK_ERR(mvs_reshape(&s, 2, 8, 2, t, 'F', &out), MVS_ERR_NEEDS_COPY, "copy");
    CHECK_UNTOUCHED(out);
  }
  /* a non-contiguous source that reshapes only partly: s = arange(24).reshape(4,6)[:, 1:4] */
  {
    mvs_slice s = make(2, s46, 'C');
    CHECK_ST(mvs_slice_axis(&s, 2, 1, 1, 4, MVS_NONE, &s), MVS_OK);
    CHECK_VIEW(&s, 2, buf + 1, "4 3", "48 8");
    t[0] = 2;
    t[1] = 2;
    t[2] = 3;
    SENT(out);
    CHECK_ST(mvs_reshape(&s, 2, 8, 3, t, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 3, buf + 1, "2 2 3", "96 48 8");
    CHECK_PTR(out.memview, &token);
    CHECK_ELEMS(&out, 3, "1 2 3 7 8 9 13 14 15 19 20 21");
    t[0] = 4;
    t[1] = 1;
    t[2] = 3;
    SENT(out);
    CHECK_ST(mvs_reshape(&s, 2, 8, 3, t, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 3, buf + 1, "4 1 3", "48 24 8");
    t[0] = 4;
    t[1] = 3;
    t[2] = 1;
    SENT(out);
    CHECK_ST(mvs_reshape(&s, 2, 8, 3, t, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 3, buf + 1, "4 3 1", "48 8 8");
    /* F order: s.reshape((2, 2, 3), order='F') splits axis 0 as i = a + 2b */
    t[0] = 2;
    t[1] = 2;
    t[2] = 3;
    SENT(out);
    CHECK_ST(mvs_reshape(&s, 2, 8, 3, t, 'F', &out), MVS_OK);
    CHECK_VIEW(&out, 3, buf + 1, "2 2 3", "48 96 8");
    CHECK_ELEMS(&out, 3, "1 2 3 13 14 15 7 8 9 19 20 21");
    /* s.reshape((3, 2, 2), order='F'): 3 does not divide the fastest axis (4): a copy */
    t[0] = 3;
    t[1] = 2;
    t[2] = 2;
    SENT(out);
    CHECK_ERR(mvs_reshape(&s, 2, 8, 3, t, 'F', &out), MVS_ERR_NEEDS_COPY, "copy");
    CHECK_UNTOUCHED(out);
    t[0] = 12;
    SENT(out);
    CHECK_ERR(mvs_reshape(&s, 2, 8, 1, t, 'C', &out), MVS_ERR_NEEDS_COPY, "without a copy");
    CHECK_ST(mvs_reshape(&s, 2, 8, 1, t, 'F', &out), MVS_ERR_NEEDS_COPY);
    t[0] = 2;
    t[1] = 6;
    CHECK_ST(mvs_reshape(&s, 2, 8, 2, t, 'C', &out), MVS_ERR_NEEDS_COPY);
    t[0] = 6;
    t[1] = 2;
    CHECK_ST(mvs_reshape(&s, 2, 8, 2, t, 'C', &out), MVS_ERR_NEEDS_COPY);
    CHECK_UNTOUCHED(out);
    /* in place */
    w = s;
    t[0] = 2;
    t[1] = 2;
    t[2] = 3;
    CHECK_ST(mvs_reshape(&w, 2, 8, 3, t, 'C', &w), MVS_OK);
    CHECK_VIEW(&w, 3, buf + 1, "2 2 3", "96 48 8");
    CHECK_PTR(w.memview, &token);
  }
  /* axes of extent 1 with odd strides are ignored */
  {
    ptrdiff_t sh[3] = {3, 1, 4}, st[3] = {32, 999, 8};
    mvs_slice v;
    CHECK_ST(mvs_view_strided(buf, 8, 3, sh, st, &v), MVS_OK);
    t[0] = 12;
    SENT(out);
    CHECK_ST(mvs_reshape(&v, 3, 8, 1, t, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 1, buf, "12", "8");
    SENT(out);
    CHECK_ST(mvs_reshape(&v, 3, 8, 1, t, 'F', &out), MVS_ERR_NEEDS_COPY);
  }
  /* zero-size sources always reshape, to contiguous strides */
  {
    ptrdiff_t s03[2] = {0, 3};
    mvs_slice z;
    CHECK_ST(mvs_view_strided(buf + 3, 8, 2, s03, s03, &z), MVS_OK); /* strides (0, 3): junk */
    t[0] = 3;
    t[1] = 0;
    t[2] = 5;
    SENT(out);
    CHECK_ST(mvs_reshape(&z, 2, 8, 3, t, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 3, buf + 3, "3 0 5", "40 40 8");
    SENT(out);
    CHECK_ST(mvs_reshape(&z, 2, 8, 3, t, 'F', &out), MVS_OK);
    CHECK_VIEW(&out, 3, buf + 3, "3 0 5", "8 24 24");
    t[0] = -1;
    t[1] = 3;
    SENT(out);
    CHECK_ST(mvs_reshape(&z, 2, 8, 2, t, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf + 3, "0 3", "24 8");
    t[0] = -1;
    t[1] = 0;
    SENT(out);
    CHECK_ERR(mvs_reshape(&z, 2, 8, 2, t, 'C', &out), MVS_ERR_SHAPE, "cannot infer");
    t[0] = -7;
    CHECK_ERR(mvs_reshape(&z, 2, 8, 2, t, 'C', &out), MVS_ERR_SHAPE, "cannot infer");
    CHECK_UNTOUCHED(out);
  }
  /* 0 and 8 dims */
  {
    ptrdiff_t one = 1, six = 6;
    mvs_slice v1, v6, s0;
    CHECK_ST(mvs_view_contiguous(buf + 5, 8, 1, &one, 'C', &v1), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_reshape(&v1, 1, 8, 0, NULL, 'C', &out), MVS_OK);
    CHECK_VIEW(&out, 0, buf + 5, "", "");
    CHECK_ELEMS(&out, 0, "5");
    CHECK_ST(mvs_view_contiguous(buf + 5, 8, 0, NULL, 'C', &s0), MVS_OK);
    {
      ptrdiff_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
      SENT(out);
      CHECK_ST(mvs_reshape(&s0, 0, 8, 8, ones, 'C', &out), MVS_OK);
      CHECK_VIEW(&out, 8, buf + 5, "1 1 1 1 1 1 1 1", "8 8 8 8 8 8 8 8");
      ones[3] = -1;
      SENT(out);
      CHECK_ST(mvs_reshape(&s0, 0, 8, 8, ones, 'F', &out), MVS_OK);
      CHECK_VIEW(&out, 8, buf + 5, "1 1 1 1 1 1 1 1", "8 8 8 8 8 8 8 8");
    }
    CHECK_ST(mvs_view_contiguous(buf, 8, 1, &six, 'C', &v6), MVS_OK);
    {
      ptrdiff_t s8[8] = {1, 1, 1, 2, 1, 3, 1, 1};
      SENT(out);
      CHECK_ST(mvs_reshape(&v6, 1, 8, 8, s8, 'C', &out), MVS_OK);
      CHECK_VIEW(&out, 8, buf, "1 1 1 2 1 3 1 1", "48 48 48 24 24 8 8 8");
      CHECK_ELEMS(&out, 8, "0 1 2 3 4 5");
      SENT(w);
      CHECK_ST(mvs_reshape(&out, 8, 8, 1, &six, 'C', &w), MVS_OK);
      CHECK_VIEW(&w, 1, buf, "6", "8");
    }
    SENT(out);
    CHECK_ERR(mvs_reshape(&v6, 1, 8, 0, NULL, 'C', &out), MVS_ERR_SHAPE, "6 items into a shape of 1 items");
    CHECK_UNTOUCHED(out);
  }

  /* Errors */
  SENT(out);
  t[0] = 5;
  CHECK_ERR(mvs_reshape(&x, 3, 8, 1, t, 'C', &out), MVS_ERR_SHAPE, "cannot reshape a view of 24 items into a shape of 5 items");
  t[0] = -1;
  t[1] = -1;
  CHECK_ERR(mvs_reshape(&x, 3, 8, 2, t, 'C', &out), MVS_ERR_SHAPE, "only one unknown");
  t[0] = -2;
  t[1] = -12;
  CHECK_ERR(mvs_reshape(&x, 3, 8, 2, t, 'C', &out), MVS_ERR_SHAPE, "only one unknown");
  t[0] = -1;
  t[1] = PTRDIFF_MIN;
  CHECK_ERR(mvs_reshape(&x, 3, 8, 2, t, 'C', &out), MVS_ERR_SHAPE, "only one unknown");
  t[0] = 5;
  t[1] = -1;
  CHECK_ERR(mvs_reshape(&x, 3, 8, 2, t, 'C', &out), MVS_ERR_SHAPE, "24 items");
  t[0] = 24;
  CHECK_ERR(mvs_reshape(&x, 3, 8, 1, t, 'K', &out), MVS_ERR_VALUE, "75");
  CHECK_ERR(mvs_reshape(&x, 3, 0, 1, t, 'C', &out), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_reshape(&x, 3, -8, 1, t, 'C', &out), MVS_ERR_ITEMSIZE, "itemsize -8");
  CHECK_ERR(mvs_reshape(&x, 3, 8, -1, t, 'C', &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_reshape(&x, 3, 8, 9, t, 'C', &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_reshape(&x, -1, 8, 1, t, 'C', &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_reshape(&x, 9, 8, 1, t, 'C', &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_reshape(NULL, 3, 8, 1, t, 'C', &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_reshape(&x, 3, 8, 1, NULL, 'C', &out), MVS_ERR_NULL, "shape");
  CHECK_ERR(mvs_reshape(&x, 3, 8, 1, t, 'C', NULL), MVS_ERR_NULL, "out");
  {
    mvs_slice bad = x;
    bad.shape[2] = -4;
    CHECK_ERR(mvs_reshape(&bad, 3, 8, 1, t, 'C', &out), MVS_ERR_SHAPE, "-4");
  }
  /* Overflow: the source's span, its item count, the target's, the chain check */
  {
    ptrdiff_t sh[3], st[3];
    mvs_slice h;
    sh[0] = PTRDIFF_MAX;
    sh[1] = 2;
    st[0] = 16;
    st[1] = 8;
    h = hand_view(NULL, 2, sh, st); /* spans (PTRDIFF_MAX - 1) * 16 + 8 bytes: refused */
    t[0] = -1;
    CHECK_ERR(mvs_reshape(&h, 2, 8, 1, t, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    st[0] = 0;
    st[1] = 0;
    h = hand_view(NULL, 2, sh, st); /* spans 0 bytes, but has 2 * PTRDIFF_MAX items */
    CHECK_ERR(mvs_reshape(&h, 2, 8, 1, t, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    sh[0] = P62;
    st[0] = 2;
    st[1] = 1;
    h = hand_view(NULL, 2, sh, st); /* spans exactly PTRDIFF_MAX bytes, has 2^63 items */
    CHECK_ERR(mvs_reshape(&h, 2, 1, 1, t, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    t[0] = P62;
    t[1] = 4;
    CHECK_ERR(mvs_reshape(&x, 3, 8, 2, t, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    /* (2, 2^61) with strides (3, 4) spans 3 + (2^61 - 1) * 4 = PTRDIFF_MAX bytes; merging its
     * axes needs 3 == 2^61 * 4, a product that does not even fit: a copy, not an overflow */
    sh[0] = 2;
    sh[1] = P62 / 2;
    st[0] = 3;
    st[1] = 4;
    h = hand_view(NULL, 2, sh, st);
    t[0] = P62;
    CHECK_ERR(mvs_reshape(&h, 2, 1, 1, t, 'C', &out), MVS_ERR_NEEDS_COPY, "copy");
    /* 2^62 items 8 apart span more than PTRDIFF_MAX: refused whatever the target */
    sh[0] = P62;
    st[0] = 8;
    h = hand_view(NULL, 1, sh, st);
    t[0] = 2;
    t[1] = P62 / 2;
    CHECK_ERR(mvs_reshape(&h, 1, 8, 2, t, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    t[0] = P62 / 2;
    t[1] = 2;
    CHECK_ERR(mvs_reshape(&h, 1, 8, 2, t, 'F', &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_reshape(&h, 1, 8, 1, sh, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    /* the same with a small enough stride is fine */
    st[0] = 1;
    h = hand_view(NULL, 1, sh, st);
    t[0] = 2;
    t[1] = P62 / 2;
    SENT(w);
    CHECK_ST(mvs_reshape(&h, 1, 1, 2, t, 'C', &w), MVS_OK);
    CHECK_EQ(w.strides[0], P62 / 2);
    CHECK_EQ(w.strides[1], 1);
  }
  CHECK_UNTOUCHED(out);
  /* span exactly PTRDIFF_MAX: 8 items PTRDIFF_MAX / 7 apart, reshaped to (2, 4) and (4, 2) */
  {
    const ptrdiff_t s7 = PTRDIFF_MAX / 7;
    ptrdiff_t n8 = 8, idx[2];
    const ptrdiff_t sh24[2] = {2, 4}, c24[2] = {4 * (PTRDIFF_MAX / 7), PTRDIFF_MAX / 7};
    const ptrdiff_t f24[2] = {PTRDIFF_MAX / 7, 2 * (PTRDIFF_MAX / 7)};
    mvs_slice h = hand_view(NULL, 1, &n8, &s7);
    void *p = NULL;
    t[0] = 2;
    t[1] = 4;
    SENT(w);
    CHECK_ST(mvs_reshape(&h, 1, 8, 2, t, 'C', &w), MVS_OK);
    CHECK_VIEW_ARR(&w, 2, NULL, sh24, c24);
    idx[0] = 1;
    idx[1] = 3;
    CHECK_ST(mvs_element_ptr(&w, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, addr_at(NULL, PTRDIFF_MAX));
    SENT(w);
    CHECK_ST(mvs_reshape(&h, 1, 8, 2, t, 'F', &w), MVS_OK);
    CHECK_VIEW_ARR(&w, 2, NULL, sh24, f24);
    /* and back to 8, from the C-order (2, 4) */
    CHECK_ST(mvs_reshape(&h, 1, 8, 2, t, 'C', &w), MVS_OK);
    CHECK_ST(mvs_reshape(&w, 2, 8, 1, &n8, 'C', &w), MVS_OK);
    CHECK_VIEW1(&w, NULL, 8, s7);
  }
  /* a zero-size source always reshapes, even when its other extents multiply past PTRDIFF_MAX
   * and its strides are anything: (PTRDIFF_MAX, 2, 0) */
  {
    ptrdiff_t sh[3], st[3];
    mvs_slice z;
    sh[0] = PTRDIFF_MAX;
    sh[1] = 2;
    sh[2] = 0;
    st[0] = PTRDIFF_MIN;
    st[1] = PTRDIFF_MAX;
    st[2] = 8;
    z = hand_view(buf, 3, sh, st);
    t[0] = -1;
    SENT(w);
    CHECK_ST(mvs_reshape(&z, 3, 8, 1, t, 'C', &w), MVS_OK);
    CHECK_VIEW(&w, 1, buf, "0", "8");
    t[0] = 0;
    t[1] = 5;
    SENT(w);
    CHECK_ST(mvs_reshape(&z, 3, 8, 2, t, 'C', &w), MVS_OK);
    CHECK_VIEW(&w, 2, buf, "0 5", "40 8");
    SENT(w);
    CHECK_ST(mvs_reshape(&z, 3, 8, 2, t, 'F', &w), MVS_OK);
    CHECK_VIEW(&w, 2, buf, "0 5", "8 8");
    t[0] = 1;
    SENT(out);
    CHECK_ERR(mvs_reshape(&z, 3, 8, 2, t, 'C', &out), MVS_ERR_SHAPE, "5 items");
    CHECK_UNTOUCHED(out);
  }
}

/* mvs_view_as: NumPy's a.view(dtype) for another item size. c = buf as np.complex128 items
 * (16 bytes: pairs of doubles), d = buf as doubles. */
static void test_view_as(void) {
  ptrdiff_t s23[2] = {2, 3}, s46[2] = {4, 6}, idx[2];
  mvs_slice c, d = make(2, s46, 'C'), out, w;
  void *p;
  CHECK_ST(mvs_view_contiguous(buf, 16, 2, s23, 'C', &c), MVS_OK);
  garble_tail(&c, 2);
  c.memview = &token;

  /* c.view(np.float64): (2, 6), strides (48, 8); the doubles 0..11 in order */
  SENT(out);
  CHECK_ST(mvs_view_as(&c, 2, 16, 8, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "2 6", "48 8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 2, "0 1 2 3 4 5 6 7 8 9 10 11");
  /* ... whose [..., 1::2] is c.imag */
  CHECK_ST(mvs_slice_axis(&out, 2, 1, 1, MVS_NONE, 2, &w), MVS_OK);
  CHECK_VIEW(&w, 2, buf + 1, "2 3", "48 16");
  CHECK_ELEMS(&w, 2, "1 3 5 7 9 11");
  /* and back, in place: the doubles as complex128 again */
  CHECK_ST(mvs_view_as(&out, 2, 8, 16, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "2 3", "48 16");
  CHECK_PTR(out.memview, &token);
  /* d.view('V16'), d.view('V48'): the last stride is the new size, even for an extent of 1 */
  SENT(out);
  CHECK_ST(mvs_view_as(&d, 2, 8, 16, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "4 3", "48 16");
  SENT(out);
  CHECK_ST(mvs_view_as(&d, 2, 8, 48, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "4 1", "48 48");
  SENT(out);
  CHECK_ST(mvs_view_as(&d, 2, 8, 24, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "4 2", "48 24");
  /* d.view(np.int32): (4, 12), strides (48, 4); item [1, 5] is 20 bytes into row 1 */
  SENT(out);
  CHECK_ST(mvs_view_as(&d, 2, 8, 4, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "4 12", "48 4");
  idx[0] = 1;
  idx[1] = 5;
  CHECK_ST(mvs_element_ptr(&out, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, (char *)buf + 68);
  SENT(out);
  CHECK_ST(mvs_view_as(&d, 2, 8, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "4 48", "48 1");
  /* equal sizes: the view as it is, whatever its strides, 0-d and 8-d included */
  {
    mvs_slice f = make(2, s23, 'F'), s0, v8;
    ptrdiff_t s8[8] = {2, 1, 1, 1, 1, 1, 1, 3};
    SENT(out);
    CHECK_ST(mvs_view_as(&f, 2, 8, 8, &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf, "2 3", "8 16");
    CHECK_PTR(out.memview, &token);
    CHECK_ST(mvs_view_contiguous(buf + 5, 8, 0, NULL, 'C', &s0), MVS_OK);
    garble_tail(&s0, 0);
    SENT(out);
    CHECK_ST(mvs_view_as(&s0, 0, 8, 8, &out), MVS_OK);
    CHECK_VIEW(&out, 0, buf + 5, "", "");
    CHECK_ELEMS(&out, 0, "5");
    SENT(out);
    CHECK_ERR(mvs_view_as(&s0, 0, 8, 4, &out), MVS_ERR_NDIM, "0-d view");
    CHECK_MSG("(8 bytes, not 4)");
    CHECK_ERR(mvs_view_as(&s0, 0, 8, 16, &out), MVS_ERR_NDIM, "only supported if it is unchanged");
    CHECK_UNTOUCHED(out);
    /* an F-ordered last axis is not contiguous (NumPy 1.23 and later) */
    CHECK_ERR(mvs_view_as(&f, 2, 8, 4, &out), MVS_ERR_NOT_CONTIGUOUS, "axis 1 has stride 16, not the item size 8");
    CHECK_UNTOUCHED(out);
    CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v8), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_view_as(&v8, 8, 8, 2, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf, "2 1 1 1 1 1 1 12", "24 24 24 24 24 24 24 2");
    SENT(out);
    CHECK_ST(mvs_view_as(&v8, 8, 8, 24, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf, "2 1 1 1 1 1 1 1", "24 24 24 24 24 24 24 24");
  }
  /* x = a[::2] (stride 16): refused; x[:, None] (a last axis of extent 1): (n, 2) */
  {
    ptrdiff_t n12 = 12;
    mvs_slice a = make(1, &n12, 'C'), x, col;
    CHECK_ST(mvs_slice_axis(&a, 1, 0, MVS_NONE, MVS_NONE, 2, &x), MVS_OK);
    SENT(out);
    CHECK_ERR(mvs_view_as(&x, 1, 8, 4, &out), MVS_ERR_NOT_CONTIGUOUS, "the last axis must be contiguous");
    CHECK_ERR(mvs_view_as(&x, 1, 8, 16, &out), MVS_ERR_NOT_CONTIGUOUS, "axis 0 has stride 16");
    CHECK_UNTOUCHED(out);
    CHECK_ST(mvs_expand_dims(&x, 1, 1, &col), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_view_as(&col, 2, 8, 4, &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf, "6 2", "16 4");
    SENT(out);
    CHECK_ERR(mvs_view_as(&col, 2, 8, 16, &out), MVS_ERR_VALUE, "16 does not divide 1 items of 8 bytes");
    CHECK_UNTOUCHED(out);
    /* a reversed last axis is not contiguous either */
    CHECK_ST(mvs_flip(&a, 1, &x), MVS_OK);
    CHECK_ERR(mvs_view_as(&x, 1, 8, 4, &out), MVS_ERR_NOT_CONTIGUOUS, "stride -8");
    CHECK_UNTOUCHED(out);
  }
  /* empty views need no contiguous last axis: np.zeros((0, 6))[:, ::2] as np.int32 */
  {
    ptrdiff_t sh[2] = {0, 3}, st[2] = {48, 16};
    mvs_slice z = hand_view(buf, 2, sh, st);
    SENT(out);
    CHECK_ST(mvs_view_as(&z, 2, 8, 4, &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf, "0 6", "48 4");
    SENT(out);
    CHECK_ST(mvs_view_as(&z, 2, 8, 24, &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf, "0 1", "48 24");
    SENT(out);
    CHECK_ERR(mvs_view_as(&z, 2, 8, 16, &out), MVS_ERR_VALUE, "16 does not divide 3 items of 8 bytes");
    CHECK_UNTOUCHED(out);
  }
  /* sizes that do not divide */
  SENT(out);
  CHECK_ERR(mvs_view_as(&d, 2, 8, 3, &out), MVS_ERR_VALUE, "3 does not divide 8");
  CHECK_MSG("smaller item size");
  CHECK_ERR(mvs_view_as(&d, 2, 8, 5, &out), MVS_ERR_VALUE, "5 does not divide 8");
  CHECK_ERR(mvs_view_as(&d, 2, 8, 32, &out), MVS_ERR_VALUE, "32 does not divide 6 items of 8 bytes");
  CHECK_MSG("larger item size");
  CHECK_ERR(mvs_view_as(&d, 2, 8, 96, &out), MVS_ERR_VALUE, "96 does not divide 6 items of 8 bytes");
  /* sizes that are not positive come first, then indirect axes */
  CHECK_ERR(mvs_view_as(&d, 2, 0, 8, &out), MVS_ERR_ITEMSIZE, "itemsize 0 is not positive");
  CHECK_ERR(mvs_view_as(&d, 2, 8, 0, &out), MVS_ERR_ITEMSIZE, "itemsize 0 is not positive");
  CHECK_ERR(mvs_view_as(&d, 2, -8, 4, &out), MVS_ERR_ITEMSIZE, "itemsize -8 is not positive");
  CHECK_ERR(mvs_view_as(&d, 2, 8, PTRDIFF_MIN, &out), MVS_ERR_ITEMSIZE, "not positive");
  {
    mvs_slice ind = d, s0;
    ind.suboffsets[1] = 0;
    CHECK_ERR(mvs_view_as(&ind, 2, 8, 4, &out), MVS_ERR_INDIRECT, "axis 1 is indirect");
    CHECK_ERR(mvs_view_as(&ind, 2, 8, 8, &out), MVS_ERR_INDIRECT, "axis 1 is indirect");
    CHECK_ERR(mvs_view_as(&ind, 2, 8, 3, &out), MVS_ERR_INDIRECT, "axis 1 is indirect");
    CHECK_ERR(mvs_view_as(&ind, 2, 0, 4, &out), MVS_ERR_ITEMSIZE, "itemsize 0");
    ind.suboffsets[1] = -5; /* any negative suboffset is direct, and the result stores -1 */
    SENT(w);
    CHECK_ST(mvs_view_as(&ind, 2, 8, 4, &w), MVS_OK);
    CHECK_VIEW(&w, 2, buf, "4 12", "48 4");
    CHECK_ST(mvs_view_contiguous(buf, 8, 0, NULL, 'C', &s0), MVS_OK);
    CHECK_ERR(mvs_view_as(&s0, 0, 8, -1, &out), MVS_ERR_ITEMSIZE, "itemsize -1");
  }
  /* the common errors */
  CHECK_ERR(mvs_view_as(NULL, 2, 8, 4, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_view_as(&d, 2, 8, 4, NULL), MVS_ERR_NULL, "out");
  CHECK_ERR(mvs_view_as(&d, -1, 8, 4, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_view_as(&d, 9, 8, 4, &out), MVS_ERR_NDIM, "ndim 9");
  {
    mvs_slice bad = d;
    bad.shape[0] = -2;
    CHECK_ERR(mvs_view_as(&bad, 2, 8, 4, &out), MVS_ERR_SHAPE, "extent -2 of axis 0");
  }
  CHECK_UNTOUCHED(out);
  /* a failure in place leaves the source as it was */
  w = c;
  CHECK_ERR(mvs_view_as(&w, 2, 16, 32, &w), MVS_ERR_VALUE, "32 does not divide 3 items of 16 bytes");
  CHECK(memcmp(&w, &c, sizeof w) == 0);

  /* overflow: a new extent past PTRDIFF_MAX (an empty view may have one) */
  {
    ptrdiff_t sh[2] = {0, P62 / 2}, st[2] = {8, 8};
    mvs_slice z = hand_view(buf, 2, sh, st);
    SENT(out);
    CHECK_ERR(mvs_view_as(&z, 2, 8, 2, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(out);
    CHECK_ST(mvs_view_as(&z, 2, 8, 4, &out), MVS_OK);
    CHECK_EQ(out.shape[1], P62);
    /* last-axis bytes past PTRDIFF_MAX, a new extent that fits: computed exactly */
    sh[1] = P62;
    z = hand_view(buf, 2, sh, st);
    SENT(out);
    CHECK_ST(mvs_view_as(&z, 2, 4, 8, &out), MVS_OK);
    CHECK_EQ(out.shape[1], P62 / 2);
    CHECK_EQ(out.strides[1], 8);
    CHECK_ERR(mvs_view_as(&z, 2, 3, 7, &out), MVS_ERR_VALUE, "7 does not divide");
  }
  /* a source spanning exactly PTRDIFF_MAX: a smaller size would make the result span more
   * (its last item ends where the source's did); a larger one spans less */
  {
    ptrdiff_t sh[2] = {2, 2}, st[2] = {PTRDIFF_MAX - 8, 8};
    mvs_slice h = hand_view(NULL, 2, sh, st);
    SENT(out);
    CHECK_ERR(mvs_view_as(&h, 2, 8, 4, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(out);
    CHECK_ST(mvs_view_as(&h, 2, 8, 16, &out), MVS_OK);
    {
      const ptrdiff_t rs[2] = {2, 1}, rt[2] = {PTRDIFF_MAX - 8, 16};
      CHECK_VIEW_ARR(&out, 2, NULL, rs, rt);
    }
    st[0] = PTRDIFF_MAX - 12;
    h = hand_view(NULL, 2, sh, st);
    CHECK_ST(mvs_view_as(&h, 2, 8, 4, &out), MVS_OK);
    idx[0] = 1;
    idx[1] = 3;
    CHECK_ST(mvs_element_ptr(&out, 2, idx, &p), MVS_OK);
    CHECK_PTR(p, addr_at(NULL, PTRDIFF_MAX - 12 + 12));
  }
  /* a huge item on a usual source (small extents and strides): the span grows by the size */
  {
    ptrdiff_t sh[2] = {2, 1};
    mvs_slice u = make(2, sh, 'C');
    SENT(out);
    CHECK_ERR(mvs_view_as(&u, 2, PTRDIFF_MAX, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(out);
    CHECK_ST(mvs_view_as(&u, 2, P62, P62 / 4, &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf, "2 4", "8 1152921504606846976");
  }
}

/* Checks piece i of a 1-D split of buf: data at item `off`, `len` items, stride 8. */
static void check_piece(const mvs_slice *p, int off, ptrdiff_t len, int line) {
  char sh[32];
  int before = g_failures;
  snprintf(sh, sizeof sh, "%td", len);
  CHECK_VIEW(p, 1, buf + off, sh, "8");
  CHECK_PTR(p->memview, &token);
  if (len > 0) {
    char el[256] = "";
    int k;
    for (k = 0; k < len; k++) snprintf(el + strlen(el), sizeof el - strlen(el), "%d ", off + k);
    CHECK_ELEMS(p, 1, el);
  }
  if (g_failures != before) fprintf(stderr, "    (piece checked at line %d)\n", line);
}
#define PIECE(p, off, len) check_piece((p), (off), (len), __LINE__)

static void test_split_sections(void) {
  ptrdiff_t n10 = 10, s34[2] = {3, 4};
  mvs_slice a = make(1, &n10, 'C'), m = make(2, s34, 'C'), outs[12], one[1];
  int k;

  SENT(outs);
  CHECK_ST(mvs_split_sections(&a, 1, 0, 5, 0, outs, 5), MVS_OK);
  for (k = 0; k < 5; k++) PIECE(&outs[k], 2 * k, 2);
  CHECK(is_sentinel_(&outs[5], sizeof outs - 5 * sizeof outs[0]));
  /* np.array_split(a, 3): 4, 3, 3 */
  SENT(outs);
  CHECK_ST(mvs_split_sections(&a, 1, -1, 3, 1, outs, 3), MVS_OK);
  PIECE(&outs[0], 0, 4);
  PIECE(&outs[1], 4, 3);
  PIECE(&outs[2], 7, 3);
  /* np.array_split(a, 4): 3, 3, 2, 2 */
  SENT(outs);
  CHECK_ST(mvs_split_sections(&a, 1, 0, 4, 7, outs, 4), MVS_OK);
  PIECE(&outs[0], 0, 3);
  PIECE(&outs[1], 3, 3);
  PIECE(&outs[2], 6, 2);
  PIECE(&outs[3], 8, 2);
  /* more sections than items: ten of 1, then empty ones (data kept) */
  SENT(outs);
  CHECK_ST(mvs_split_sections(&a, 1, 0, 12, 1, outs, 12), MVS_OK);
  for (k = 0; k < 10; k++) PIECE(&outs[k], k, 1);
  PIECE(&outs[10], 0, 0);
  PIECE(&outs[11], 0, 0);
  /* one section: the whole; an even split of an empty axis */
  SENT(one);
  CHECK_ST(mvs_split_sections(&a, 1, 0, 1, 0, one, 1), MVS_OK);
  PIECE(&one[0], 0, 10);
  {
    ptrdiff_t zero = 0;
    mvs_slice z = make(1, &zero, 'C');
    SENT(outs);
    CHECK_ST(mvs_split_sections(&z, 1, 0, 3, 0, outs, 3), MVS_OK);
    for (k = 0; k < 3; k++) PIECE(&outs[k], 0, 0);
  }
  /* 2-D along each axis */
  SENT(outs);
  CHECK_ST(mvs_split_sections(&m, 2, 1, 2, 0, outs, 2), MVS_OK);
  CHECK_VIEW(&outs[0], 2, buf, "3 2", "32 8");
  CHECK_VIEW(&outs[1], 2, buf + 2, "3 2", "32 8");
  CHECK_ELEMS(&outs[1], 2, "2 3 6 7 10 11");
  SENT(outs);
  CHECK_ST(mvs_split_sections(&m, 2, -2, 3, 0, outs, 3), MVS_OK);
  for (k = 0; k < 3; k++) {
    CHECK_VIEW(&outs[k], 2, buf + 4 * k, "1 4", "32 8");
    CHECK_PTR(outs[k].memview, &token);
  }
  /* outs may include src */
  outs[0] = a;
  CHECK_ST(mvs_split_sections(&outs[0], 1, 0, 2, 0, outs, 2), MVS_OK);
  PIECE(&outs[0], 0, 5);
  PIECE(&outs[1], 5, 5);
  outs[1] = a;
  CHECK_ST(mvs_split_sections(&outs[1], 1, 0, 2, 0, outs, 2), MVS_OK);
  PIECE(&outs[0], 0, 5);
  PIECE(&outs[1], 5, 5);
  /* 8-d */
  {
    ptrdiff_t s8[8] = {1, 1, 1, 1, 1, 1, 2, 3};
    mvs_slice v8 = make(8, s8, 'C');
    SENT(outs);
    CHECK_ST(mvs_split_sections(&v8, 8, 6, 2, 0, outs, 2), MVS_OK);
    CHECK_VIEW(&outs[0], 8, buf, "1 1 1 1 1 1 1 3", "48 48 48 48 48 48 24 8");
    CHECK_VIEW(&outs[1], 8, buf + 3, "1 1 1 1 1 1 1 3", "48 48 48 48 48 48 24 8");
  }

  /* Errors; outs untouched */
  SENT(outs);
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 3, 0, outs, 3), MVS_ERR_VALUE, "an axis of extent 10 does not split into 3 equal sections");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 0, 1, outs, 0), MVS_ERR_VALUE, "number of sections 0");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, -2, 1, outs, 2), MVS_ERR_VALUE, "sections -2");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 5, 0, outs, 4), MVS_ERR_VALUE, "4");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 5, 0, outs, 6), MVS_ERR_VALUE, "6");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 5, 0, outs, -1), MVS_ERR_VALUE, "-1");
  CHECK_ERR(mvs_split_sections(&a, 1, 1, 5, 0, outs, 5), MVS_ERR_AXIS, "axis 1");
  CHECK_ERR(mvs_split_sections(&a, 1, -2, 5, 0, outs, 5), MVS_ERR_AXIS, "axis -2");
  CHECK_ERR(mvs_split_sections(&a, 0, 0, 1, 0, outs, 1), MVS_ERR_AXIS, "0 dimensions");
  CHECK_ERR(mvs_split_sections(&a, -1, 0, 5, 0, outs, 5), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_split_sections(&a, 9, 0, 5, 0, outs, 5), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_split_sections(NULL, 1, 0, 5, 0, outs, 5), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 5, 0, NULL, 5), MVS_ERR_NULL, "outs");
  {
    mvs_slice bad = a;
    bad.shape[0] = -10;
    CHECK_ERR(mvs_split_sections(&bad, 1, 0, 5, 0, outs, 5), MVS_ERR_SHAPE, "-10");
  }
  { /* a source spanning 2^63 bytes is refused, even when split into one piece */
    ptrdiff_t sh = 3, st = P62;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    CHECK_ERR(mvs_split_sections(&h, 1, 0, 3, 0, outs, 3), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_split_sections(&h, 1, 0, 1, 0, outs, 1), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_split_sections(&h, 1, 0, 2, 1, outs, 2), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_split_sections(&h, 1, 0, 3, 0, NULL, 0), MVS_ERR_OVERFLOW, "overflow");
  }
  /* outs of length 0 may be NULL (rule of every array): the count mismatch is reported */
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 5, 0, NULL, 0), MVS_ERR_VALUE, "output count 0");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 1, 1, NULL, 0), MVS_ERR_VALUE, "output count 0");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, 3, 0, NULL, 0), MVS_ERR_VALUE, "");
  CHECK_ERR(mvs_split_sections(&a, 1, 0, -1, 0, NULL, 0), MVS_ERR_VALUE, "sections -1");
  CHECK_ERR(mvs_split_sections(&a, 1, 1, 5, 0, NULL, 0), MVS_ERR_AXIS, "axis 1");
  CHECK_ERR(mvs_split_sections(NULL, 1, 0, 5, 0, NULL, 0), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_split_sections(&a, 9, 0, 5, 0, NULL, 0), MVS_ERR_NDIM, "ndim 9");
  CHECK_UNTOUCHED(outs);
  { /* span exactly PTRDIFF_MAX: the last piece starts at the far end */
    ptrdiff_t sh = 8, st = PTRDIFF_MAX / 7;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    SENT(outs);
    CHECK_ST(mvs_split_sections(&h, 1, 0, 8, 0, outs, 8), MVS_OK);
    CHECK_VIEW1(&outs[0], NULL, 1, st);
    CHECK_VIEW1(&outs[4], addr_at(NULL, 4 * st), 1, st);
    CHECK_VIEW1(&outs[7], addr_at(NULL, PTRDIFF_MAX), 1, st);
    SENT(outs);
    CHECK_ST(mvs_split_sections(&h, 1, 0, 3, 1, outs, 3), MVS_OK); /* 3, 3, 2 */
    CHECK_VIEW1(&outs[0], NULL, 3, st);
    CHECK_VIEW1(&outs[1], addr_at(NULL, 3 * st), 3, st);
    CHECK_VIEW1(&outs[2], addr_at(NULL, 6 * st), 2, st);
    CHECK(is_sentinel_(&outs[3], 5 * sizeof outs[0]));
  }
}

static void test_split_at(void) {
  ptrdiff_t n10 = 10, s34[2] = {3, 4}, idx[4];
  mvs_slice a = make(1, &n10, 'C'), m = make(2, s34, 'C'), outs[6];

  idx[0] = 3;
  idx[1] = 7;
  SENT(outs);
  CHECK_ST(mvs_split_at(&a, 1, 0, idx, 2, outs), MVS_OK);
  PIECE(&outs[0], 0, 3);
  PIECE(&outs[1], 3, 4);
  PIECE(&outs[2], 7, 3);
  CHECK(is_sentinel_(&outs[3], 3 * sizeof outs[0]));
  idx[0] = -2;
  SENT(outs);
  CHECK_ST(mvs_split_at(&a, 1, -1, idx, 1, outs), MVS_OK);
  PIECE(&outs[0], 0, 8);
  PIECE(&outs[1], 8, 2);
  /* decreasing indices: an empty middle piece (data kept) */
  idx[0] = 7;
  idx[1] = 3;
  SENT(outs);
  CHECK_ST(mvs_split_at(&a, 1, 0, idx, 2, outs), MVS_OK);
  PIECE(&outs[0], 0, 7);
  PIECE(&outs[1], 0, 0);
  PIECE(&outs[2], 3, 7);
  /* clamping */
  idx[0] = 20;
  SENT(outs);
  CHECK_ST(mvs_split_at(&a, 1, 0, idx, 1, outs), MVS_OK);
  PIECE(&outs[0], 0, 10);
  PIECE(&outs[1], 0, 0);
  idx[0] = 0;
  idx[1] = 0;
  idx[2] = 10;
  idx[3] = 10;
  SENT(outs);
  CHECK_ST(mvs_split_at(&a, 1, 0, idx, 4, outs), MVS_OK);
  PIECE(&outs[0], 0, 0);
  PIECE(&outs[1], 0, 0);
  PIECE(&outs[2], 0, 10);
  PIECE(&outs[3], 0, 0);
  PIECE(&outs[4], 0, 0);
  idx[0] = PTRDIFF_MIN + 1;
  idx[1] = PTRDIFF_MAX;
  SENT(outs);
  CHECK_ST(mvs_split_at(&a, 1, 0, idx, 2, outs), MVS_OK);
  PIECE(&outs[0], 0, 0);
  PIECE(&outs[1], 0, 10);
  PIECE(&outs[2], 0, 0);
  /* no indices (NULL allowed): the whole */
  SENT(outs);
  CHECK_ST(mvs_split_at(&a, 1, 0, NULL, 0, outs), MVS_OK);
  PIECE(&outs[0], 0, 10);
  CHECK(is_sentinel_(&outs[1], 5 * sizeof outs[0]));
  /* 2-D, axis 1; outs including src */
  idx[0] = 1;
  SENT(outs);
  CHECK_ST(mvs_split_at(&m, 2, 1, idx, 1, outs), MVS_OK);
  CHECK_VIEW(&outs[0], 2, buf, "3 1", "32 8");
  CHECK_VIEW(&outs[1], 2, buf + 1, "3 3", "32 8");
  CHECK_ELEMS(&outs[1], 2, "1 2 3 5 6 7 9 10 11");
  outs[1] = a;
  idx[0] = 4;
  CHECK_ST(mvs_split_at(&outs[1], 1, 0, idx, 1, outs), MVS_OK);
  PIECE(&outs[0], 0, 4);
  PIECE(&outs[1], 4, 6);

  /* Errors */
  SENT(outs);
  CHECK_ERR(mvs_split_at(&a, 1, 0, idx, -1, outs), MVS_ERR_VALUE, "-1");
  CHECK_ERR(mvs_split_at(&a, 1, 0, idx, PTRDIFF_MIN, outs), MVS_ERR_VALUE, "-9223372036854775808");
  CHECK_ERR(mvs_split_at(&a, 1, 0, idx, PTRDIFF_MAX, outs), MVS_ERR_VALUE, "");
  CHECK_ERR(mvs_split_at(&a, 1, 1, idx, 1, outs), MVS_ERR_AXIS, "axis 1");
  CHECK_ERR(mvs_split_at(&a, 1, -2, idx, 1, outs), MVS_ERR_AXIS, "axis -2");
  CHECK_ERR(mvs_split_at(&a, 0, 0, idx, 1, outs), MVS_ERR_AXIS, "0 dimensions");
  CHECK_ERR(mvs_split_at(&a, -1, 0, idx, 1, outs), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_split_at(&a, 9, 0, idx, 1, outs), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_split_at(NULL, 1, 0, idx, 1, outs), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_split_at(&a, 1, 0, NULL, 1, outs), MVS_ERR_NULL, "indices");
  CHECK_ERR(mvs_split_at(&a, 1, 0, idx, 1, NULL), MVS_ERR_NULL, "outs");
  CHECK_ERR(mvs_split_at(&a, 1, 0, NULL, 0, NULL), MVS_ERR_NULL, "outs");
  {
    mvs_slice bad = a;
    bad.shape[0] = -1;
    CHECK_ERR(mvs_split_at(&bad, 1, 0, idx, 1, outs), MVS_ERR_SHAPE, "-1");
  }
  { /* a source spanning 2^63 bytes is refused, however it is split */
    ptrdiff_t sh = 3, st = P62;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    idx[0] = 1;
    CHECK_ERR(mvs_split_at(&h, 1, 0, idx, 1, outs), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_split_at(&h, 1, 0, NULL, 0, outs), MVS_ERR_OVERFLOW, "overflow");
    idx[0] = 0;
    CHECK_ERR(mvs_split_at(&h, 1, 0, idx, 1, outs), MVS_ERR_OVERFLOW, "overflow");
  }
  CHECK_UNTOUCHED(outs);
  { /* span exactly PTRDIFF_MAX: (2, 2) with strides (P62 - 1, P62) split along axis 1 */
    ptrdiff_t sh[2] = {2, 2}, st[2];
    mvs_slice h;
    st[0] = P62 - 1;
    st[1] = P62;
    h = hand_view(NULL, 2, sh, st);
    idx[0] = 1;
    SENT(outs);
    CHECK_ST(mvs_split_at(&h, 2, 1, idx, 1, outs), MVS_OK);
    CHECK_VIEW(&outs[0], 2, NULL, "2 1", "4611686018427387903 4611686018427387904");
    CHECK_VIEW(&outs[1], 2, addr_at(NULL, P62), "2 1", "4611686018427387903 4611686018427387904");
    idx[0] = -1;
    SENT(outs);
    CHECK_ST(mvs_split_at(&h, 2, 0, idx, 1, outs), MVS_OK);
    CHECK_VIEW(&outs[1], 2, addr_at(NULL, P62 - 1), "1 2", "4611686018427387903 4611686018427387904");
    {
      void *p = NULL;
      ptrdiff_t at[2] = {0, 1};
      CHECK_ST(mvs_element_ptr(&outs[1], 2, at, &p), MVS_OK);
      CHECK_PTR(p, addr_at(NULL, PTRDIFF_MAX));
    }
  }
  /* A zero-size view spans 0 bytes whatever its strides, but moving along a non-empty axis
   * still adds offsets: z = (0, 4) with strides (8, PTRDIFF_MAX / 2) moves PTRDIFF_MAX - 1
   * bytes for z[:, 2:] and would overflow for z[:, 3:]. A split only makes the pieces it is
   * asked for, and these fit. */
  {
    ptrdiff_t sh[2] = {0, 4}, st[2] = {8, PTRDIFF_MAX / 2};
    mvs_slice z = hand_view(buf, 2, sh, st);
    SENT(outs);
    CHECK_ST(mvs_slice_axis(&z, 2, 1, 2, MVS_NONE, MVS_NONE, &outs[0]), MVS_OK);
    CHECK_VIEW(&outs[0], 2, addr_at(buf, PTRDIFF_MAX - 1), "0 2", "8 4611686018427387903");
    CHECK_ERR(mvs_slice_axis(&z, 2, 1, 3, MVS_NONE, MVS_NONE, &outs[1]), MVS_ERR_OVERFLOW, "overflow");
    idx[0] = 2;
    SENT(outs);
    CHECK_ST(mvs_split_at(&z, 2, 1, idx, 1, outs), MVS_OK);
    CHECK_VIEW(&outs[0], 2, buf, "0 2", "8 4611686018427387903");
    CHECK_VIEW(&outs[1], 2, addr_at(buf, PTRDIFF_MAX - 1), "0 2", "8 4611686018427387903");
    SENT(outs);
    CHECK_ST(mvs_split_sections(&z, 2, 1, 2, 0, outs, 2), MVS_OK);
    CHECK_VIEW(&outs[1], 2, addr_at(buf, PTRDIFF_MAX - 1), "0 2", "8 4611686018427387903");
    SENT(outs);
    CHECK_ST(mvs_split_at(&z, 2, 1, NULL, 0, outs), MVS_OK); /* the whole, unmoved */
    CHECK_VIEW(&outs[0], 2, buf, "0 4", "8 4611686018427387903");
    SENT(outs);
    idx[0] = 3; /* z[:, 3:] does not fit */
    CHECK_ERR(mvs_split_at(&z, 2, 1, idx, 1, outs), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_split_sections(&z, 2, 1, 4, 0, outs, 4), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(outs);
  }
  /* counts whose arrays could not exist are refused before anything is read (fuzzing found
     mvs_split_at reading a 2-entry array until it faulted with nindices 2^61, and
     mvs_split_sections checking pieces for hours with sections == nouts near
     PTRDIFF_MAX / 208) */
  {
    ptrdiff_t big = (ptrdiff_t)1 << 61, lim = PTRDIFF_MAX / (ptrdiff_t)sizeof(mvs_slice);
    ptrdiff_t zero = 0;
    mvs_slice z = hand_view(buf, 1, &zero, &zero);
    idx[0] = 1;
    idx[1] = 2;
    SENT(outs);
    CHECK_ERR(mvs_split_at(&a, 1, 0, idx, big, outs), MVS_ERR_VALUE, "output count");
    CHECK_ERR(mvs_split_at(&a, 1, 0, idx, lim, outs), MVS_ERR_VALUE, "output count");
    CHECK_ERR(mvs_split_sections(&z, 1, 0, lim + 1, 1, outs, lim + 1), MVS_ERR_VALUE, "output count");
    CHECK_ERR(mvs_split_sections(&a, 1, 0, PTRDIFF_MAX, 1, outs, PTRDIFF_MAX), MVS_ERR_VALUE, "output count");
    CHECK_UNTOUCHED(outs);
  }
}

int main(void) {
  iota(buf, 24, 0);
  region_add(buf, sizeof buf);
  test_reshape();
  test_view_as();
  test_split_sections();
  test_split_at();
  return check_summary("test_reshape_split");
}
