/* Axis shuffles: mvs_transpose, mvs_permute, mvs_swap_axes, mvs_move_axes, mvs_broadcast_to,
 * mvs_expand_dims, mvs_squeeze_axis, mvs_squeeze, mvs_diagonal, mvs_sliding_window.
 * x = np.arange(24.).reshape(2, 3, 4), m = np.arange(12.).reshape(3, 4), a = np.arange(10.). */
#include "check.h"

static const ptrdiff_t P62 = (ptrdiff_t)1 << 62;

static double buf[24];
static int token;

static mvs_slice make_c(int ndim, ptrdiff_t s0, ptrdiff_t s1, ptrdiff_t s2) {
  mvs_slice v;
  ptrdiff_t sh[3];
  sh[0] = s0;
  sh[1] = s1;
  sh[2] = s2;
  CHECK_ST(mvs_view_contiguous(buf, 8, ndim, sh, 'C', &v), MVS_OK);
  garble_tail(&v, ndim);
  v.memview = &token;
  return v;
}

/* an 8-d view of 6 items: shape (2,1,1,1,1,1,1,3), C strides (24,24,...,24,8) */
static mvs_slice make_8d(void) {
  mvs_slice v;
  ptrdiff_t s8[8] = {2, 1, 1, 1, 1, 1, 1, 3};
  CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v), MVS_OK);
  v.memview = &token;
  return v;
}

static void test_transpose_permute(void) {
  mvs_slice x = make_c(3, 2, 3, 4), out, w, v8, s0;
  int ax[3];
  SENT(out);
  CHECK_ST(mvs_transpose(&x, 3, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "4 3 2", "8 32 96");
  CHECK_PTR(out.memview, &token);
  /* T[i,j,k] = x[k,j,i] = 12k + 4j + i */
  CHECK_ELEMS(&out, 3, "0 12 4 16 8 20 1 13 5 17 9 21 2 14 6 18 10 22 3 15 7 19 11 23");
  w = x;
  CHECK_ST(mvs_transpose(&w, 3, &w), MVS_OK);
  CHECK(memcmp(&w, &out, sizeof w) == 0);
  CHECK_ST(mvs_transpose(&w, 3, &w), MVS_OK);
  CHECK_VIEW(&w, 3, buf, "2 3 4", "96 32 8");

  ax[0] = 1;
  ax[1] = 2;
  ax[2] = 0;
  SENT(out);
  CHECK_ST(mvs_permute(&x, 3, ax, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "3 4 2", "32 8 96");
  CHECK_PTR(out.memview, &token);
  /* out[i,j,k] = x[k,i,j] = 12k + 4i + j */
  CHECK_ELEMS(&out, 3, "0 12 1 13 2 14 3 15 4 16 5 17 6 18 7 19 8 20 9 21 10 22 11 23");
  ax[0] = -1;
  ax[1] = 0;
  ax[2] = -2;
  SENT(out);
  CHECK_ST(mvs_permute(&x, 3, ax, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "4 2 3", "8 96 32");
  w = x;
  CHECK_ST(mvs_permute(&w, 3, ax, &w), MVS_OK);
  CHECK(memcmp(&w, &out, sizeof w) == 0);

  /* 0-d (arrays may be NULL) and 8-d */
  CHECK_ST(mvs_view_contiguous(buf + 2, 8, 0, NULL, 'C', &s0), MVS_OK);
  SENT(out);
  CHECK_ST(mvs_transpose(&s0, 0, &out), MVS_OK);
  CHECK_VIEW(&out, 0, buf + 2, "", "");
  SENT(out);
  CHECK_ST(mvs_permute(&s0, 0, NULL, &out), MVS_OK);
  CHECK_VIEW(&out, 0, buf + 2, "", "");
  v8 = make_8d();
  SENT(out);
  CHECK_ST(mvs_transpose(&v8, 8, &out), MVS_OK);
  CHECK_VIEW(&out, 8, buf, "3 1 1 1 1 1 1 2", "8 24 24 24 24 24 24 24");
  CHECK_ELEMS(&out, 8, "0 3 1 4 2 5");
  {
    int p8[8] = {7, 1, 2, 3, 4, 5, 6, 0};
    SENT(out);
    CHECK_ST(mvs_permute(&v8, 8, p8, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf, "3 1 1 1 1 1 1 2", "8 24 24 24 24 24 24 24");
    p8[7] = 7; /* axis 7 twice */
    SENT(out);
    CHECK_ERR(mvs_permute(&v8, 8, p8, &out), MVS_ERR_AXIS, "axis 7 is given more than once");
    CHECK_UNTOUCHED(out);
  }

  SENT(out);
  ax[0] = 0;
  ax[1] = 0;
  ax[2] = 1;
  CHECK_ERR(mvs_permute(&x, 3, ax, &out), MVS_ERR_AXIS, "axis 0 is given more than once");
  ax[0] = 2;
  ax[1] = 0;
  ax[2] = -3; /* -3 is axis 0 */
  CHECK_ERR(mvs_permute(&x, 3, ax, &out), MVS_ERR_AXIS, "axis 0");
  ax[2] = 3;
  CHECK_ERR(mvs_permute(&x, 3, ax, &out), MVS_ERR_AXIS, "axis 3 is out of bounds for a view of 3 dimensions");
  ax[2] = -4;
  CHECK_ERR(mvs_permute(&x, 3, ax, &out), MVS_ERR_AXIS, "axis -4");
  ax[2] = 1;
  CHECK_ERR(mvs_permute(&x, -1, ax, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_permute(&x, 9, ax, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_permute(NULL, 3, ax, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_permute(&x, 3, NULL, &out), MVS_ERR_NULL, "axes");
  CHECK_ERR(mvs_permute(&x, 3, ax, NULL), MVS_ERR_NULL, "out");
  CHECK_ERR(mvs_transpose(&x, -1, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_transpose(&x, 9, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_transpose(NULL, 3, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_transpose(&x, 3, NULL), MVS_ERR_NULL, "out");
  {
    mvs_slice bad = x;
    bad.shape[2] = -4;
    CHECK_ERR(mvs_transpose(&bad, 3, &out), MVS_ERR_SHAPE, "-4");
    CHECK_ERR(mvs_permute(&bad, 3, ax, &out), MVS_ERR_SHAPE, "-4");
  }
  CHECK_UNTOUCHED(out);
}

static void test_swap_move(void) {
  mvs_slice x = make_c(3, 2, 3, 4), out, w;
  int src[3], dst[3];

  SENT(out);
  CHECK_ST(mvs_swap_axes(&x, 3, 0, 2, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "4 3 2", "8 32 96");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 3, "0 12 4 16 8 20 1 13 5 17 9 21 2 14 6 18 10 22 3 15 7 19 11 23");
  SENT(out);
  CHECK_ST(mvs_swap_axes(&x, 3, -1, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "2 4 3", "96 8 32");
  SENT(out);
  CHECK_ST(mvs_swap_axes(&x, 3, -2, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "2 3 4", "96 32 8");
  w = x;
  CHECK_ST(mvs_swap_axes(&w, 3, 1, 0, &w), MVS_OK);
  CHECK_VIEW(&w, 3, buf, "3 2 4", "32 96 8");
  CHECK_PTR(w.memview, &token);
  {
    mvs_slice v8 = make_8d();
    SENT(out);
    CHECK_ST(mvs_swap_axes(&v8, 8, 0, -1, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf, "3 1 1 1 1 1 1 2", "8 24 24 24 24 24 24 24");
    CHECK_ERR(mvs_swap_axes(&v8, 8, 0, 8, &out), MVS_ERR_AXIS, "axis 8");
  }
  SENT(out);
  CHECK_ERR(mvs_swap_axes(&x, 3, 3, 0, &out), MVS_ERR_AXIS, "axis 3");
  CHECK_ERR(mvs_swap_axes(&x, 3, 0, -4, &out), MVS_ERR_AXIS, "axis -4");
  CHECK_ERR(mvs_swap_axes(&x, 0, 0, 0, &out), MVS_ERR_AXIS, "0 dimensions");
  CHECK_ERR(mvs_swap_axes(&x, -1, 0, 0, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_swap_axes(&x, 9, 0, 0, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_swap_axes(NULL, 3, 0, 1, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_swap_axes(&x, 3, 0, 1, NULL), MVS_ERR_NULL, "out");
  CHECK_UNTOUCHED(out);

  /* np.moveaxis(x, 0, -1).shape == (3, 4, 2) */
  src[0] = 0;
  dst[0] = -1;
  SENT(out);
  CHECK_ST(mvs_move_axes(&x, 3, src, dst, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "3 4 2", "32 8 96");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 3, "0 12 1 13 2 14 3 15 4 16 5 17 6 18 7 19 8 20 9 21 10 22 11 23");
  /* np.moveaxis(x, [0, 1], [-1, -2]).shape == (4, 3, 2) */
  src[0] = 0;
  src[1] = 1;
  dst[0] = -1;
  dst[1] = -2;
  SENT(out);
  CHECK_ST(mvs_move_axes(&x, 3, src, dst, 2, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "4 3 2", "8 32 96");
  /* np.moveaxis(x, 2, 0).shape == (4, 2, 3) */
  src[0] = 2;
  dst[0] = 0;
  SENT(out);
  CHECK_ST(mvs_move_axes(&x, 3, src, dst, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "4 2 3", "8 96 32");
  /* np.moveaxis(x, [2, 0, 1], [0, 1, 2]) == np.transpose(x, (2, 0, 1)) */
  src[0] = 2;
  src[1] = 0;
  src[2] = 1;
  dst[0] = 0;
  dst[1] = 1;
  dst[2] = 2;
  SENT(out);
  CHECK_ST(mvs_move_axes(&x, 3, src, dst, 3, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "4 2 3", "8 96 32");
  /* count 0: arrays may be NULL; identity; in place */
  w = x;
  CHECK_ST(mvs_move_axes(&w, 3, NULL, NULL, 0, &w), MVS_OK);
  CHECK_VIEW(&w, 3, buf, "2 3 4", "96 32 8");
  CHECK_PTR(w.memview, &token);
  src[0] = 1;
  dst[0] = 2;
  CHECK_ST(mvs_move_axes(&w, 3, src, dst, 1, &w), MVS_OK);
  CHECK_VIEW(&w, 3, buf, "2 4 3", "96 8 32");
  {
    mvs_slice s0, v8 = make_8d();
    int s8[1] = {0}, d8[1] = {7};
    CHECK_ST(mvs_view_contiguous(buf + 1, 8, 0, NULL, 'C', &s0), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_move_axes(&s0, 0, NULL, NULL, 0, &out), MVS_OK);
    CHECK_VIEW(&out, 0, buf + 1, "", "");
    SENT(out);
    CHECK_ST(mvs_move_axes(&v8, 8, s8, d8, 1, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf, "1 1 1 1 1 1 3 2", "24 24 24 24 24 24 8 24");
  }

  SENT(out);
  src[0] = 0;
  src[1] = 0;
  dst[0] = 1;
  dst[1] = 2;
  CHECK_ERR(mvs_move_axes(&x, 3, src, dst, 2, &out), MVS_ERR_AXIS, "axis 0 is given more than once");
  src[1] = 1;
  dst[1] = -2; /* -2 is axis 1 */
  CHECK_ERR(mvs_move_axes(&x, 3, src, dst, 2, &out), MVS_ERR_AXIS, "axis 1 is given more than once");
  dst[1] = 3;
  CHECK_ERR(mvs_move_axes(&x, 3, src, dst, 2, &out), MVS_ERR_AXIS, "axis 3");
  src[1] = -4;
  dst[1] = 2;
  CHECK_ERR(mvs_move_axes(&x, 3, src, dst, 2, &out), MVS_ERR_AXIS, "axis -4");
  CHECK_ERR(mvs_move_axes(&x, 3, src, dst, 4, &out), MVS_ERR_VALUE, "moved axis count 4");
  CHECK_ERR(mvs_move_axes(&x, 3, src, dst, -1, &out), MVS_ERR_VALUE, "-1");
  src[1] = 1;
  CHECK_ERR(mvs_move_axes(&x, -1, src, dst, 2, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_move_axes(&x, 9, src, dst, 2, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_move_axes(NULL, 3, src, dst, 2, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_move_axes(&x, 3, NULL, dst, 2, &out), MVS_ERR_NULL, "source");
  CHECK_ERR(mvs_move_axes(&x, 3, src, NULL, 2, &out), MVS_ERR_NULL, "destination");
  CHECK_ERR(mvs_move_axes(&x, 3, src, dst, 2, NULL), MVS_ERR_NULL, "out");
  {
    mvs_slice bad = x;
    bad.shape[0] = -2;
    CHECK_ERR(mvs_swap_axes(&bad, 3, 0, 1, &out), MVS_ERR_SHAPE, "-2");
    CHECK_ERR(mvs_move_axes(&bad, 3, src, dst, 2, &out), MVS_ERR_SHAPE, "-2");
  }
  CHECK_UNTOUCHED(out);
}

static void test_broadcast(void) {
  mvs_slice a3 = make_c(1, 3, 0, 0), col, out, w;
  ptrdiff_t t[8];
  SENT(out);
  t[0] = 2;
  t[1] = 3;
  CHECK_ST(mvs_broadcast_to(&a3, 1, 2, t, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "2 3", "0 8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 2, "0 1 2 0 1 2");
  /* a (3,1) column to (2,3,4) */
  col = make_c(2, 3, 1, 0);
  t[0] = 2;
  t[1] = 3;
  t[2] = 4;
  SENT(out);
  CHECK_ST(mvs_broadcast_to(&col, 2, 3, t, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "2 3 4", "0 8 0");
  CHECK_ELEMS(&out, 3, "0 0 0 0 1 1 1 1 2 2 2 2 0 0 0 0 1 1 1 1 2 2 2 2");
  /* to the same shape: unchanged; in place */
  w = col;
  t[0] = 3;
  t[1] = 1;
  CHECK_ST(mvs_broadcast_to(&w, 2, 2, t, &w), MVS_OK);
  CHECK_VIEW(&w, 2, buf, "3 1", "8 8");
  CHECK_PTR(w.memview, &token);
  t[0] = 3;
  t[1] = 5;
  CHECK_ST(mvs_broadcast_to(&w, 2, 2, t, &w), MVS_OK);
  CHECK_VIEW(&w, 2, buf, "3 5", "8 0");
  /* extent 1 to 0 */
  {
    mvs_slice one = make_c(1, 1, 0, 0);
    t[0] = 4;
    t[1] = 0;
    SENT(out);
    CHECK_ST(mvs_broadcast_to(&one, 1, 2, t, &out), MVS_OK);
    CHECK_VIEW(&out, 2, buf, "4 0", "0 0");
    CHECK_ELEMS(&out, 2, "");
  }
  /* 0-d to () (shape may be NULL) and to 8 dims; a 0-d source */
  {
    mvs_slice s0;
    CHECK_ST(mvs_view_contiguous(buf + 7, 8, 0, NULL, 'C', &s0), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_broadcast_to(&s0, 0, 0, NULL, &out), MVS_OK);
    CHECK_VIEW(&out, 0, buf + 7, "", "");
    {
      ptrdiff_t t8[8] = {1, 2, 1, 1, 1, 1, 1, 2};
      SENT(out);
      CHECK_ST(mvs_broadcast_to(&s0, 0, 8, t8, &out), MVS_OK);
      CHECK_VIEW(&out, 8, buf + 7, "1 2 1 1 1 1 1 2", "0 0 0 0 0 0 0 0");
      CHECK_ELEMS(&out, 8, "7 7 7 7");
      /* huge extents are fine with stride 0 */
      t8[0] = PTRDIFF_MAX;
      t8[1] = PTRDIFF_MAX;
      SENT(out);
      CHECK_ST(mvs_broadcast_to(&s0, 0, 8, t8, &out), MVS_OK);
      CHECK_EQ(out.shape[0], PTRDIFF_MAX);
      CHECK_EQ(out.strides[0], 0);
    }
  }

  SENT(out);
  t[0] = 4;
  CHECK_ERR(mvs_broadcast_to(&a3, 1, 1, t, &out), MVS_ERR_BROADCAST, "axis 0 of extent 3 cannot be broadcast to extent 4");
  t[0] = 3;
  t[1] = 0;
  CHECK_ERR(mvs_broadcast_to(&a3, 1, 2, t, &out), MVS_ERR_BROADCAST, "extent 3 cannot be broadcast to extent 0");
  CHECK_ERR(mvs_broadcast_to(&col, 2, 1, t, &out), MVS_ERR_BROADCAST, "2 dimensions");
  CHECK_ERR(mvs_broadcast_to(&col, 2, 0, NULL, &out), MVS_ERR_BROADCAST, "0 dimensions");
  t[0] = -1;
  t[1] = 3;
  CHECK_ERR(mvs_broadcast_to(&a3, 1, 2, t, &out), MVS_ERR_SHAPE, "extent -1 of axis 0");
  t[0] = 2;
  CHECK_ERR(mvs_broadcast_to(&a3, 1, -1, t, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_broadcast_to(&a3, 1, 9, t, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_broadcast_to(&a3, -1, 2, t, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_broadcast_to(&a3, 9, 2, t, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_broadcast_to(NULL, 1, 2, t, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_broadcast_to(&a3, 1, 2, NULL, &out), MVS_ERR_NULL, "shape");
  CHECK_ERR(mvs_broadcast_to(&a3, 1, 2, t, NULL), MVS_ERR_NULL, "out");
  {
    mvs_slice bad = a3;
    bad.shape[0] = -3;
    CHECK_ERR(mvs_broadcast_to(&bad, 1, 2, t, &out), MVS_ERR_SHAPE, "-3");
  }
  CHECK_UNTOUCHED(out);
}

static void test_expand_squeeze(void) {
  mvs_slice m = make_c(2, 3, 4, 0), out, w;
  int nd;
  SENT(out);
  CHECK_ST(mvs_expand_dims(&m, 2, 0, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "1 3 4", "0 32 8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 3, "0 1 2 3 4 5 6 7 8 9 10 11");
  SENT(out);
  CHECK_ST(mvs_expand_dims(&m, 2, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "3 1 4", "32 0 8");
  SENT(out);
  CHECK_ST(mvs_expand_dims(&m, 2, 2, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "3 4 1", "32 8 0");
  SENT(out);
  CHECK_ST(mvs_expand_dims(&m, 2, -1, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "3 4 1", "32 8 0");
  SENT(out);
  CHECK_ST(mvs_expand_dims(&m, 2, -3, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "1 3 4", "0 32 8");
  /* up to 8 dims, in place, then squeeze back */
  w = m;
  {
    int k;
    for (k = 2; k < 8; k++) CHECK_ST(mvs_expand_dims(&w, k, k % 2 ? -1 : 1, &w), MVS_OK);
  }
  /* k=2: axis 1 -> (3,1,4); k=3: -1 -> (3,1,4,1); k=4: 1 -> (3,1,1,4,1); k=5: -1 -> (3,1,1,4,1,1);
   * k=6: 1 -> (3,1,1,1,4,1,1); k=7: -1 -> (3,1,1,1,4,1,1,1) */
  CHECK_VIEW(&w, 8, buf, "3 1 1 1 4 1 1 1", "32 0 0 0 8 0 0 0");
  CHECK_PTR(w.memview, &token);
  SENT(out);
  CHECK_ERR(mvs_expand_dims(&w, 8, 0, &out), MVS_ERR_NDIM, "9 dimensions");
  CHECK_UNTOUCHED(out);
  SENT(out);
  SENT(nd);
  CHECK_ST(mvs_squeeze(&w, 8, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 2);
  CHECK_VIEW(&out, 2, buf, "3 4", "32 8");
  CHECK_PTR(out.memview, &token);
  SENT(out);
  CHECK_ST(mvs_squeeze_axis(&w, 8, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 7, buf, "3 1 1 4 1 1 1", "32 0 0 8 0 0 0");
  SENT(out);
  CHECK_ST(mvs_squeeze_axis(&w, 8, -1, &out), MVS_OK);
  CHECK_VIEW(&out, 7, buf, "3 1 1 1 4 1 1", "32 0 0 0 8 0 0");
  CHECK_ELEMS(&out, 7, "0 1 2 3 4 5 6 7 8 9 10 11");
  CHECK_ST(mvs_squeeze_axis(&w, 8, 7, &w), MVS_OK);
  CHECK_ST(mvs_squeeze(&w, 7, &w, &nd), MVS_OK);
  CHECK_EQ(nd, 2);
  CHECK_VIEW(&w, 2, buf, "3 4", "32 8");
  CHECK_PTR(w.memview, &token);
  /* squeeze keeps axes of extent 0; all-ones squeezes to 0-d */
  {
    ptrdiff_t sh[5] = {1, 3, 1, 0, 1};
    mvs_slice v;
    CHECK_ST(mvs_view_contiguous(buf, 8, 5, sh, 'C', &v), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_squeeze(&v, 5, &out, &nd), MVS_OK);
    CHECK_EQ(nd, 2);
    CHECK_VIEW(&out, 2, buf, "3 0", "8 8");
    sh[1] = 1;
    sh[3] = 1;
    CHECK_ST(mvs_view_contiguous(buf + 9, 8, 5, sh, 'C', &v), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_squeeze(&v, 5, &out, &nd), MVS_OK);
    CHECK_EQ(nd, 0);
    CHECK_VIEW(&out, 0, buf + 9, "", "");
    CHECK_ELEMS(&out, 0, "9");
  }
  /* 0-d */
  {
    mvs_slice s0;
    CHECK_ST(mvs_view_contiguous(buf + 4, 8, 0, NULL, 'C', &s0), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_expand_dims(&s0, 0, 0, &out), MVS_OK);
    CHECK_VIEW(&out, 1, buf + 4, "1", "0");
    SENT(out);
    CHECK_ST(mvs_expand_dims(&s0, 0, -1, &out), MVS_OK);
    CHECK_VIEW(&out, 1, buf + 4, "1", "0");
    SENT(out);
    CHECK_ST(mvs_squeeze(&s0, 0, &out, &nd), MVS_OK);
    CHECK_EQ(nd, 0);
    CHECK_VIEW(&out, 0, buf + 4, "", "");
    /* as in NumPy, np.squeeze(scalar, axis=0) and axis=-1 return the scalar view */
    SENT(out);
    CHECK_ST(mvs_squeeze_axis(&s0, 0, 0, &out), MVS_OK);
    CHECK_VIEW(&out, 0, buf + 4, "", "");
    SENT(out);
    CHECK_ST(mvs_squeeze_axis(&s0, 0, -1, &out), MVS_OK);
    CHECK_VIEW(&out, 0, buf + 4, "", "");
    SENT(out);
    CHECK_ERR(mvs_expand_dims(&s0, 0, 1, &out), MVS_ERR_AXIS, "axis 1");
    CHECK_ERR(mvs_expand_dims(&s0, 0, -2, &out), MVS_ERR_AXIS, "axis -2");
    CHECK_ERR(mvs_squeeze_axis(&s0, 0, 1, &out), MVS_ERR_AXIS, "axis 1");
    CHECK_ERR(mvs_squeeze_axis(&s0, 0, -2, &out), MVS_ERR_AXIS, "axis -2");
    CHECK_UNTOUCHED(out);
  }

  SENT(out);
  SENT(nd);
  CHECK_ERR(mvs_expand_dims(&m, 2, 3, &out), MVS_ERR_AXIS, "axis 3 is out of bounds for a view of 3 dimensions");
  CHECK_ERR(mvs_expand_dims(&m, 2, -4, &out), MVS_ERR_AXIS, "axis -4");
  CHECK_ERR(mvs_expand_dims(&m, -1, 0, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_expand_dims(&m, 9, 0, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_expand_dims(NULL, 2, 0, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_expand_dims(&m, 2, 0, NULL), MVS_ERR_NULL, "out");
  CHECK_ERR(mvs_squeeze_axis(&m, 2, 0, &out), MVS_ERR_SHAPE, "cannot squeeze axis 0 of extent 3");
  CHECK_ERR(mvs_squeeze_axis(&m, 2, -1, &out), MVS_ERR_SHAPE, "axis 1 of extent 4");
  CHECK_ERR(mvs_squeeze_axis(&m, 2, 2, &out), MVS_ERR_AXIS, "axis 2");
  CHECK_ERR(mvs_squeeze_axis(&m, 2, -3, &out), MVS_ERR_AXIS, "axis -3");
  CHECK_ERR(mvs_squeeze_axis(&m, -1, 0, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_squeeze_axis(&m, 9, 0, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_squeeze_axis(NULL, 2, 0, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_squeeze_axis(&m, 2, 0, NULL), MVS_ERR_NULL, "out");
  CHECK_ERR(mvs_squeeze(&m, -1, &out, &nd), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_squeeze(&m, 9, &out, &nd), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_squeeze(NULL, 2, &out, &nd), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_squeeze(&m, 2, NULL, &nd), MVS_ERR_NULL, "out");
  CHECK_ERR(mvs_squeeze(&m, 2, &out, NULL), MVS_ERR_NULL, "out_ndim");
  {
    mvs_slice bad = m;
    bad.shape[1] = -1;
    CHECK_ERR(mvs_expand_dims(&bad, 2, 0, &out), MVS_ERR_SHAPE, "-1");
    CHECK_ERR(mvs_squeeze_axis(&bad, 2, 0, &out), MVS_ERR_SHAPE, "-1");
    CHECK_ERR(mvs_squeeze(&bad, 2, &out, &nd), MVS_ERR_SHAPE, "-1");
  }
  CHECK_UNTOUCHED(out);
  CHECK_UNTOUCHED(nd);
}

static void test_diagonal(void) {
  mvs_slice m = make_c(2, 3, 4, 0), x = make_c(3, 2, 3, 4), out, w;
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, 0, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "3", "40");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 1, "0 5 10");
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, 1, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 1, "3", "40");
  CHECK_ELEMS(&out, 1, "1 6 11");
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, 2, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 2, "2", "40");
  CHECK_ELEMS(&out, 1, "2 7");
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, 3, -2, -1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 3, "1", "32"); /* length 1: the stride of axis1 */
  CHECK_ELEMS(&out, 1, "3");
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, -1, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 4, "2", "40");
  CHECK_ELEMS(&out, 1, "4 9");
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, -2, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 8, "1", "32");
  CHECK_ELEMS(&out, 1, "8");
  /* past the edge: empty, data kept */
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, 4, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "0", "32");
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, -3, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "0", "32");
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, PTRDIFF_MAX, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "0", "32");
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, PTRDIFF_MIN, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "0", "32");
  /* swapped axes: np.diagonal(m, 1, 1, 0) == [4, 9] */
  SENT(out);
  CHECK_ST(mvs_diagonal(&m, 2, 1, 1, 0, &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 4, "2", "40");
  CHECK_ELEMS(&out, 1, "4 9");
  /* 3-D: np.diagonal(x, 0, 1, 2) == [[0,5,10],[12,17,22]] */
  SENT(out);
  CHECK_ST(mvs_diagonal(&x, 3, 0, 1, 2, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "2 3", "96 40");
  CHECK_ELEMS(&out, 2, "0 5 10 12 17 22");
  /* np.diagonal(x, 0, 0, 2) == [[0,13],[4,17],[8,21]] */
  SENT(out);
  CHECK_ST(mvs_diagonal(&x, 3, 0, 0, 2, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "3 2", "32 104");
  CHECK_ELEMS(&out, 2, "0 13 4 17 8 21");
  /* np.diagonal(x, 1, 2, 0) == [[12],[16],[20]]: offset along axis 0 */
  SENT(out);
  CHECK_ST(mvs_diagonal(&x, 3, 1, 2, 0, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf + 12, "3 1", "32 8");
  CHECK_ELEMS(&out, 2, "12 16 20");
  /* in place; 8-d */
  w = m;
  CHECK_ST(mvs_diagonal(&w, 2, 0, 1, 0, &w), MVS_OK);
  CHECK_VIEW(&w, 1, buf, "3", "40");
  CHECK_PTR(w.memview, &token);
  {
    mvs_slice v8 = make_8d();
    SENT(out);
    CHECK_ST(mvs_diagonal(&v8, 8, 1, 0, 7, &out), MVS_OK);
    /* v8[i,0,...,0,i+1] for i in 0..2: items 1, 5 */
    CHECK_VIEW(&out, 7, buf + 1, "1 1 1 1 1 1 2", "24 24 24 24 24 24 32");
    CHECK_ELEMS(&out, 7, "1 5");
  }

  SENT(out);
  {
    mvs_slice a = make_c(1, 10, 0, 0), s0;
    CHECK_ERR(mvs_diagonal(&a, 1, 0, 0, 0, &out), MVS_ERR_NDIM, "at least 2 dimensions");
    CHECK_ST(mvs_view_contiguous(buf, 8, 0, NULL, 'C', &s0), MVS_OK);
    CHECK_ERR(mvs_diagonal(&s0, 0, 0, 0, 1, &out), MVS_ERR_NDIM, "the view has 0");
  }
  CHECK_ERR(mvs_diagonal(&m, 2, 0, 1, 1, &out), MVS_ERR_AXIS, "axis 1 is given more than once");
  CHECK_ERR(mvs_diagonal(&m, 2, 0, 0, -2, &out), MVS_ERR_AXIS, "axis 0");
  CHECK_ERR(mvs_diagonal(&m, 2, 0, 0, 2, &out), MVS_ERR_AXIS, "axis 2");
  CHECK_ERR(mvs_diagonal(&m, 2, 0, -3, 1, &out), MVS_ERR_AXIS, "axis -3");
  CHECK_ERR(mvs_diagonal(&m, -1, 0, 0, 1, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_diagonal(&m, 9, 0, 0, 1, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_diagonal(NULL, 2, 0, 0, 1, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_diagonal(&m, 2, 0, 0, 1, NULL), MVS_ERR_NULL, "out");
  {
    mvs_slice bad = m;
    bad.shape[0] = -3;
    CHECK_ERR(mvs_diagonal(&bad, 2, 0, 0, 1, &out), MVS_ERR_SHAPE, "-3");
  }
  { /* sources spanning more than PTRDIFF_MAX bytes are refused, whatever the offset */
    ptrdiff_t sh[2] = {2, 2}, st[2];
    mvs_slice h;
    st[0] = P62;
    st[1] = P62; /* span 2^63; the diagonal stride would not fit */
    h = hand_view(NULL, 2, sh, st);
    CHECK_ERR(mvs_diagonal(&h, 2, 0, 0, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_diagonal(&h, 2, 1, 0, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    st[1] = -P62; /* span 2^63; the diagonal stride 0 would */
    h = hand_view(NULL, 2, sh, st);
    CHECK_ERR(mvs_diagonal(&h, 2, 0, 0, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    sh[0] = 3;
    sh[1] = 3;
    st[0] = 8;
    st[1] = P62; /* span 16 + 2^63 */
    h = hand_view(NULL, 2, sh, st);
    CHECK_ERR(mvs_diagonal(&h, 2, 2, 0, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_diagonal(&h, 2, 1, 0, 1, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_diagonal(&h, 2, 5, 0, 1, &out), MVS_ERR_OVERFLOW, "overflow"); /* even empty */
  }
  CHECK_UNTOUCHED(out);
  { /* span exactly PTRDIFF_MAX: (2, 2) with strides (P62, P62 - 1); the diagonal's stride is
     * PTRDIFF_MAX and its second item is the far corner */
    ptrdiff_t sh[2] = {2, 2}, st[2];
    mvs_slice h;
    st[0] = P62;
    st[1] = P62 - 1;
    h = hand_view(NULL, 2, sh, st);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, 0, 0, 1, &w), MVS_OK);
    CHECK_VIEW1(&w, NULL, 2, PTRDIFF_MAX);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, 0, 1, 0, &w), MVS_OK);
    CHECK_VIEW1(&w, NULL, 2, PTRDIFF_MAX);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, 1, 0, 1, &w), MVS_OK); /* h[0, 1] alone: axis1's stride */
    CHECK_VIEW1(&w, addr_at(NULL, P62 - 1), 1, P62);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, -1, 0, 1, &w), MVS_OK); /* h[1, 0] alone */
    CHECK_VIEW1(&w, addr_at(NULL, P62), 1, P62);
    st[0] = -P62;
    st[1] = 1 - P62; /* the same below data */
    h = hand_view(NULL, 2, sh, st);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, 0, 0, 1, &w), MVS_OK);
    CHECK_VIEW1(&w, NULL, 2, -PTRDIFF_MAX);
    /* (3, 3) with strides (2^61, 2^61 - 1): span PTRDIFF_MAX - 1 */
    sh[0] = 3;
    sh[1] = 3;
    st[0] = P62 / 2;
    st[1] = P62 / 2 - 1;
    h = hand_view(NULL, 2, sh, st);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, 0, 0, 1, &w), MVS_OK);
    CHECK_VIEW1(&w, NULL, 3, P62 - 1);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, 1, 0, 1, &w), MVS_OK); /* h[0, 1], h[1, 2] */
    CHECK_VIEW1(&w, addr_at(NULL, P62 / 2 - 1), 2, P62 - 1);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, -2, 0, 1, &w), MVS_OK); /* h[2, 0] */
    CHECK_VIEW1(&w, addr_at(NULL, P62), 1, P62 / 2);
  }
  { /* length-1 axes add nothing to the span, and a diagonal of length 1 adds no strides */
    ptrdiff_t sh[2] = {1, 1}, st[2];
    mvs_slice h;
    st[0] = PTRDIFF_MAX;
    st[1] = PTRDIFF_MAX;
    h = hand_view(buf, 2, sh, st);
    SENT(w);
    CHECK_ST(mvs_diagonal(&h, 2, 0, 0, 1, &w), MVS_OK);
    CHECK_VIEW1(&w, buf, 1, PTRDIFF_MAX);
    CHECK_ELEMS(&w, 1, "0");
  }
  /* A diagonal of length 0 adds no offset to the data address (the header's free choice:
   * "slicing (or taking a diagonal) to length 0 adds no offset"), also when the offset is
   * within the other axis: np.diagonal(np.empty((0, 4)), 2) is empty. */
  {
    mvs_slice z = make_c(2, 0, 4, 0); /* strides (32, 8) */
    SENT(w);
    CHECK_ST(mvs_diagonal(&z, 2, 2, 0, 1, &w), MVS_OK);
    CHECK_VIEW(&w, 1, buf, "0", "32");
    SENT(w);
    CHECK_ST(mvs_diagonal(&z, 2, -2, 1, 0, &w), MVS_OK);
    CHECK_VIEW(&w, 1, buf, "0", "8");
    SENT(w);
    CHECK_ST(mvs_diagonal(&z, 2, 5, 0, 1, &w), MVS_OK); /* past the edge */
    CHECK_VIEW(&w, 1, buf, "0", "32");
    {
      ptrdiff_t sh[2] = {0, 3}, st[2] = {8, 0};
      st[1] = P62; /* a zero-size view spans 0 bytes, whatever its strides */
      z = hand_view(buf, 2, sh, st);
      SENT(w);
      CHECK_ST(mvs_diagonal(&z, 2, 2, 0, 1, &w), MVS_OK);
      CHECK_VIEW(&w, 1, buf, "0", "8");
    }
  }
}

static void test_sliding_window(void) {
  mvs_slice a = make_c(1, 10, 0, 0), m = make_c(2, 3, 4, 0), out, w;
  SENT(out);
  CHECK_ST(mvs_sliding_window(&a, 1, 0, 3, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "8 3", "8 8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 2, "0 1 2 1 2 3 2 3 4 3 4 5 4 5 6 5 6 7 6 7 8 7 8 9");
  SENT(out);
  CHECK_ST(mvs_sliding_window(&a, 1, -1, 3, 2, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "4 3", "16 8");
  CHECK_ELEMS(&out, 2, "0 1 2 2 3 4 4 5 6 6 7 8");
  SENT(out);
  CHECK_ST(mvs_sliding_window(&a, 1, 0, 4, 3, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "3 4", "24 8");
  CHECK_ELEMS(&out, 2, "0 1 2 3 3 4 5 6 6 7 8 9");
  /* the whole axis: one window, source stride kept */
  SENT(out);
  CHECK_ST(mvs_sliding_window(&a, 1, 0, 10, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "1 10", "8 8");
  SENT(out);
  CHECK_ST(mvs_sliding_window(&a, 1, 0, 2, 100, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "1 2", "8 8");
  SENT(out);
  CHECK_ST(mvs_sliding_window(&a, 1, 0, 2, PTRDIFF_MAX, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "1 2", "8 8");
  /* empty windows */
  SENT(out);
  CHECK_ST(mvs_sliding_window(&a, 1, 0, 0, 5, &out), MVS_OK);
  CHECK_VIEW(&out, 2, buf, "3 0", "40 8");
  /* 2-D, along axis 1; in place */
  SENT(out);
  CHECK_ST(mvs_sliding_window(&m, 2, 1, 2, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 3, buf, "3 3 2", "32 8 8");
  CHECK_ELEMS(&out, 3, "0 1 1 2 2 3 4 5 5 6 6 7 8 9 9 10 10 11");
  w = m;
  CHECK_ST(mvs_sliding_window(&w, 2, 0, 2, 1, &w), MVS_OK);
  CHECK_VIEW(&w, 3, buf, "2 4 2", "32 8 32");
  CHECK_PTR(w.memview, &token);
  CHECK_ELEMS(&w, 3, "0 4 1 5 2 6 3 7 4 8 5 9 6 10 7 11");
  /* 7-d to 8-d works, 8-d does not */
  {
    ptrdiff_t s7[7] = {1, 1, 1, 1, 1, 1, 6};
    mvs_slice v7;
    CHECK_ST(mvs_view_contiguous(buf, 8, 7, s7, 'C', &v7), MVS_OK);
    SENT(out);
    CHECK_ST(mvs_sliding_window(&v7, 7, 6, 5, 1, &out), MVS_OK);
    CHECK_VIEW(&out, 8, buf, "1 1 1 1 1 1 2 5", "48 48 48 48 48 48 8 8");
    CHECK_ELEMS(&out, 8, "0 1 2 3 4 1 2 3 4 5");
    {
      mvs_slice v8 = make_8d();
      SENT(out);
      CHECK_ERR(mvs_sliding_window(&v8, 8, 7, 2, 1, &out), MVS_ERR_NDIM, "9 dimensions");
      CHECK_UNTOUCHED(out);
    }
  }

  SENT(out);
  CHECK_ERR(mvs_sliding_window(&a, 1, 0, 11, 1, &out), MVS_ERR_VALUE, "window 11 does not fit in axis 0 of extent 10");
  CHECK_ERR(mvs_sliding_window(&a, 1, 0, -1, 1, &out), MVS_ERR_VALUE, "window -1");
  CHECK_ERR(mvs_sliding_window(&a, 1, 0, PTRDIFF_MIN, 1, &out), MVS_ERR_VALUE, "-9223372036854775808");
  CHECK_ERR(mvs_sliding_window(&a, 1, 0, 3, 0, &out), MVS_ERR_STEP, "window step 0");
  CHECK_ERR(mvs_sliding_window(&a, 1, 0, 3, -1, &out), MVS_ERR_STEP, "window step -1");
  CHECK_ERR(mvs_sliding_window(&a, 1, 0, 3, MVS_NONE, &out), MVS_ERR_STEP, "-9223372036854775808");
  CHECK_ERR(mvs_sliding_window(&a, 1, 1, 3, 1, &out), MVS_ERR_AXIS, "axis 1");
  CHECK_ERR(mvs_sliding_window(&a, 1, -2, 3, 1, &out), MVS_ERR_AXIS, "axis -2");
  CHECK_ERR(mvs_sliding_window(&a, 0, 0, 1, 1, &out), MVS_ERR_AXIS, "0 dimensions");
  CHECK_ERR(mvs_sliding_window(&a, -1, 0, 3, 1, &out), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_sliding_window(&a, 9, 0, 3, 1, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_sliding_window(NULL, 1, 0, 3, 1, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_sliding_window(&a, 1, 0, 3, 1, NULL), MVS_ERR_NULL, "out");
  {
    mvs_slice bad = a;
    bad.shape[0] = -10;
    CHECK_ERR(mvs_sliding_window(&bad, 1, 0, 3, 1, &out), MVS_ERR_SHAPE, "-10");
  }
  { /* a source spanning 3 * 2^62 bytes is refused, even for a single window */
    ptrdiff_t sh = 4, st = P62;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    CHECK_ERR(mvs_sliding_window(&h, 1, 0, 1, 2, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_sliding_window(&h, 1, 0, 4, 2, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_sliding_window(&h, 1, 0, 0, 1, &out), MVS_ERR_OVERFLOW, "overflow");
  }
  CHECK_UNTOUCHED(out);
  { /* span exactly PTRDIFF_MAX: 8 items PTRDIFF_MAX / 7 apart */
    const ptrdiff_t s7 = PTRDIFF_MAX / 7;
    ptrdiff_t sh = 8, st = s7;
    mvs_slice h = hand_view(NULL, 1, &sh, &st);
    const ptrdiff_t sh22[2] = {2, 1}, st22[2] = {PTRDIFF_MAX, PTRDIFF_MAX / 7};
    const ptrdiff_t sh32[2] = {3, 2}, st32[2] = {3 * (PTRDIFF_MAX / 7), PTRDIFF_MAX / 7};
    const ptrdiff_t sh18[2] = {1, 8}, st18[2] = {PTRDIFF_MAX / 7, PTRDIFF_MAX / 7};
    SENT(w);
    CHECK_ST(mvs_sliding_window(&h, 1, 0, 1, 7, &w), MVS_OK); /* windows at 0 and 7 */
    CHECK_VIEW_ARR(&w, 2, NULL, sh22, st22);
    SENT(w);
    CHECK_ST(mvs_sliding_window(&h, 1, 0, 2, 3, &w), MVS_OK); /* at 0, 3, 6; the last ends at 7 */
    CHECK_VIEW_ARR(&w, 2, NULL, sh32, st32);
    SENT(w);
    CHECK_ST(mvs_sliding_window(&h, 1, 0, 8, PTRDIFF_MAX, &w), MVS_OK); /* one window */
    CHECK_VIEW_ARR(&w, 2, NULL, sh18, st18);
    st = -s7; /* the same walking down */
    h = hand_view(NULL, 1, &sh, &st);
    SENT(w);
    CHECK_ST(mvs_sliding_window(&h, 1, 0, 1, 7, &w), MVS_OK);
    CHECK_EQ(w.shape[0], 2);
    CHECK_EQ(w.strides[0], -PTRDIFF_MAX);
  }
}

int main(void) {
  iota(buf, 24, 0);
  region_add(buf, sizeof buf);
  test_transpose_permute();
  test_swap_move();
  test_broadcast();
  test_expand_squeeze();
  test_diagonal();
  test_sliding_window();
  return check_summary("test_axes");
}
