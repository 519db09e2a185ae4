/* Fuzzing the constructors: view_contiguous, view_strided, and new views for the program. */
#include "harness.h"

/* ---- constructors ------------------------------------------------------------------------- */

void check_same(const void *p, const void *copy, size_t n, const char *what) {
  if (n && p && memcmp(p, copy, n) != 0) fail("changed its input %s", what);
}
/* An output slice in SL_OUT filled with the sentinel, or NULL. */
mvs_slice *out_slice(void) {
  mvs_slice *o;
  if (one_in(48)) return NULL;
  o = slot_put(SL_OUT, sizeof *o, 8);
  memset(o, SENT, sizeof *o);
  return o;
}
void check_out_failed(int st, const void *out, size_t n, const char *what) {
  if (st != MVS_OK && out && !is_sent(out, n)) fail("failed with %s and wrote %s", stname(st), what);
}

void op_view_contiguous(void) {
  ptrdiff_t isz = one_in(4) ? gen_itemsize() : pick_isz(), tmp[16], *shape = NULL, st_[MAXD];
  int n = gen_ndim(), order = gen_order(), m = n < 0 ? 0 : n > 16 ? 16 : n, k, st;
  char *data = one_in(2) ? (char *)g_ar[below(2)] + below(ARENA) : gen_wild_data();
  mvs_slice *out, e = empty_view(data, NULL);
  unsigned must = 0;
  ctx("mvs_view_contiguous");
  for (k = 0; k < m; k++) tmp[k] = one_in(6) ? gen_extent() : (ptrdiff_t)below(5);
  shape = shape_arg(tmp, m);
  out = out_slice();
  ctx_i("data", (long long)(uintptr_t)data), ctx_i("itemsize", isz), ctx_i("ndim", n), ctx_i("order", order);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  if (!out) must |= M_NULL;
  if (n < 0 || n > MAXD) {
    must |= M_NDIM;
  } else if (n > 0 && !shape) {
    must |= M_NULL;
  } else {
    if (isz <= 0) must |= M_ITEM;
    if (order != 'C' && order != 'F') must |= M_VALUE;
    for (k = 0; k < n; k++)
      if (tmp[k] < 0) must |= M_SHAPE;
    if (!must) {
      if (!contig_strides(tmp, n, isz, order, st_)) must |= M_OVF;
      for (k = 0; k < n; k++) e.shape[k] = tmp[k], e.strides[k] = st_[k];
    }
  }
  pre_call();
  st = mvs_view_contiguous(data, isz, n, shape, order, out);
  check_status(st, must, 0);
  check_same(shape, tmp, (size_t)m * sizeof *shape, "shape");
  check_out_failed(st, out, sizeof *out, "its output");
  inline_view_contiguous(data, isz, n, shape, order, out, st);
  if (st == MVS_OK && !must) {
    check_view_result(NULL, 0, out, &e, n, 0, isz, "the view");
    store_view(out, n, isz);
  }
  slots_done();
}

void op_view_strided(void) {
  pv_t v;
  ptrdiff_t *shape = NULL, *strides = NULL;
  int n, m, k, st;
  mvs_slice *out, e;
  unsigned must = 0;
  i128 lo, hi;
  ctx("mvs_view_strided");
  gen_view(&v);
  if (one_in(8)) v.isz = gen_itemsize();
  n = v.ndim;
  m = n < 0 ? 0 : n > 16 ? 16 : n;
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    strides = slot_put(SL_ARR2, (size_t)m * sizeof *strides, sizeof *strides);
    for (k = 0; k < m; k++) shape[k] = k < MAXD ? v.s.shape[k] : 1, strides[k] = k < MAXD ? v.s.strides[k] : 8;
    if (one_in(48)) shape = NULL;
    if (one_in(48)) strides = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
    strides = empty_arr(SL_ARR2);
  }
  out = out_slice();
  ctx_v("as view", &v.s, n);
  ctx_i("itemsize", v.isz);
  if (!out) must |= M_NULL;
  e = norm_copy(&v.s, m > MAXD ? MAXD : m);
  e.memview = NULL;
  for (k = 0; k < MAXD; k++) e.suboffsets[k] = -1;
  if (n < 0 || n > MAXD) {
    must |= M_NDIM;
  } else if (n > 0 && (!shape || !strides)) {
    must |= M_NULL;
  } else {
    if (v.isz <= 0) must |= M_ITEM;
    must |= view_errs(&v.s, n);
    if (!must && (!extent_of(&v.s, n, v.isz, &lo, &hi) || hi > PMAX)) must |= M_OVF;
  }
  pre_call();
  st = mvs_view_strided(v.s.data, v.isz, n, shape, strides, out);
  check_status(st, must, 0);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must) {
    check_view_result(NULL, 0, out, &e, n, 0, v.isz, "the view");
    store_view(out, n, v.isz);
  }
  slots_done();
}

/* A new program view, made here (arena, pointer table or wild). */
void op_new_view(void) {
  pv_t *v = &g_pv[below(NV)];
  gen_view(v);
}
