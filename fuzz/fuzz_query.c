/* Fuzzing the queries: contiguity, counts, byte extent, bounds, self-overlap, element_ptr. */
#include "harness.h"

/* ---- queries ------------------------------------------------------------------------------ */

/* The source of a query: a program view in SL_SRC (or NULL), and its value. */
static const mvs_slice *query_src(mvs_slice *sv, int *n, ptrdiff_t *isz, const char *fn) {
  const pv_t *v = &g_pv[below(NV)];
  mvs_slice *s;
  ctx(fn);
  *sv = v->s;
  *n = one_in(24) ? gen_ndim() : v->ndim;
  *isz = one_in(10) ? gen_itemsize() : v->isz;
  ctx_v("src", sv, *n);
  ctx_i("itemsize", *isz);
  if (one_in(48)) {
    g_c.vnull[0] = 1;
    return NULL;
  }
  s = slot_put(SL_SRC, sizeof *s, 8);
  *s = *sv;
  return s;
}
static void query_end(const mvs_slice *src, const mvs_slice *sv) {
  if (src && memcmp(src, sv, sizeof *sv) != 0) fail("changed its source");
  slots_done();
}

void op_is_contiguous(void) {
  static const int rules[] = {MVS_CONTIG_NUMPY, MVS_CONTIG_CYTHON, 2, -1, INT_MAX};
  mvs_slice sv;
  int n, order = gen_order(), rule = one_in(12) ? rules[below(5)] : (int)below(2), *out, st, want = 0;
  ptrdiff_t isz;
  const mvs_slice *src = query_src(&sv, &n, &isz, "mvs_is_contiguous");
  unsigned must;
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof(int), sizeof(int));
  if (out) memset(out, SENT, sizeof *out);
  ctx_i("order", order), ctx_i("rule", rule);
  must = (src ? view_errs(&sv, n) : M_NULL) | (out ? 0 : M_NULL);
  if (isz <= 0) must |= M_ITEM;
  if (order != 'C' && order != 'F') must |= M_VALUE;
  if (rule != MVS_CONTIG_NUMPY && rule != MVS_CONTIG_CYTHON) must |= M_VALUE;
  if (!must) want = contig_rule(&sv, n, isz, order, rule == MVS_CONTIG_CYTHON);
  pre_call();
  st = mvs_is_contiguous(src, n, isz, order, rule, out);
  check_status(st, must, 0);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && *out != want) fail("gave %d, the model %d", *out, want);
  query_end(src, &sv);
}

void op_counts(void) {
  mvs_slice sv;
  int n, st, bytes = one_in(2);
  ptrdiff_t isz, *out;
  const mvs_slice *src = query_src(&sv, &n, &isz, bytes ? "mvs_byte_count" : "mvs_item_count");
  unsigned must;
  i128 want = 0;
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *out, sizeof *out);
  if (out) memset(out, SENT, sizeof *out);
  must = (src ? view_errs(&sv, n) : M_NULL) | (out ? 0 : M_NULL);
  if (bytes && isz <= 0) must |= M_ITEM;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE))) {
    i128 items = items_of(sv.shape, n);
    want = bytes ? smul(items, isz) : items;
    if (items > PMAX || want > PMAX) must |= M_OVF;
  }
  pre_call();
  st = bytes ? mvs_byte_count(src, n, isz, out) : mvs_item_count(src, n, out);
  check_status(st, must, 0);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && *out != want) fail("gave %td, the product %lld", *out, (long long)want);
  query_end(src, &sv);
}

void op_byte_extent(void) {
  mvs_slice sv;
  int n, st;
  ptrdiff_t isz, *lo, *hi;
  const mvs_slice *src = query_src(&sv, &n, &isz, "mvs_byte_extent");
  unsigned must;
  i128 wlo = 0, whi = 0;
  lo = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *lo, sizeof *lo);
  hi = one_in(48) ? NULL : slot_put(SL_OUT3, sizeof *hi, sizeof *hi);
  if (lo) memset(lo, SENT, sizeof *lo);
  if (hi) memset(hi, SENT, sizeof *hi);
  must = (src ? view_errs(&sv, n) : M_NULL) | (lo && hi ? 0 : M_NULL);
  if (isz <= 0) must |= M_ITEM;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    if (!direct_of(&sv, n)) must |= M_IND;
    if (isz > 0 && !extent_of(&sv, n, isz, &wlo, &whi)) must |= M_OVF;
  }
  pre_call();
  st = mvs_byte_extent(src, n, isz, lo, hi);
  check_status(st, must, 0);
  check_out_failed(st, lo, sizeof *lo, "lo");
  check_out_failed(st, hi, sizeof *hi, "hi");
  if (st == MVS_OK && !must) {
    if (*lo != wlo || *hi != whi) fail("gave [%td, %td), the model [%lld, %lld)", *lo, *hi, (long long)wlo, (long long)whi);
    if (!zero_size(&sv, n) && !(*lo <= 0 && 0 < *hi)) fail("gave [%td, %td) for a view with items", *lo, *hi);
  }
  query_end(src, &sv);
}

void op_check_bounds(void) {
  mvs_slice sv;
  int n, st;
  ptrdiff_t isz, nbytes;
  const mvs_slice *src = query_src(&sv, &n, &isz, "mvs_check_bounds");
  const char *base;
  unsigned must, r = below(8);
  i128 lo, hi;
  if (r < 5) {
    int w = (int)below(2);
    base = (const char *)g_ar[w] + (one_in(2) ? 0 : below(64));
    nbytes = one_in(8) ? gen_bound(ARENA) : ARENA - (ptrdiff_t)below(80);
  } else if (r < 7) {
    i128 l2, h2;
    base = sv.data;
    nbytes = 8;
    if (n >= 0 && n <= MAXD && !view_errs(&sv, n) && extent_of(&sv, n, isz > 0 ? isz : 1, &l2, &h2)) {
      base = (const char *)addr_add(sv.data, l2 + small_signed(1));
      nbytes = (ptrdiff_t)(h2 - l2 < PMAX ? h2 - l2 + small_signed(1) : PMAX);
    }
  } else {
    base = one_in(8) ? NULL : gen_wild_data();
    nbytes = huge();
  }
  ctx_i("base", (long long)(uintptr_t)base), ctx_i("nbytes", nbytes);
  must = src ? view_errs(&sv, n) : M_NULL;
  if (!base) must |= M_NULL;
  if (isz <= 0) must |= M_ITEM;
  if (nbytes < 0) must |= M_SHAPE;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF | M_ITEM))) {
    if (!direct_of(&sv, n))
      must |= M_IND;
    else if (!extent_of(&sv, n, isz, &lo, &hi))
      must |= M_OVF;
    else if (!zero_size(&sv, n)) {
      i128 off = (i128)(uintptr_t)sv.data - (i128)(uintptr_t)base;
      if (off + lo < 0 || off + hi > nbytes) must |= M_BOUNDS;
    }
  }
  pre_call();
  st = mvs_check_bounds(src, n, isz, base, nbytes);
  check_status(st, must, 0);
  query_end(src, &sv);
}

/* ndarray's rule: the axes of extent > 1 sorted by |stride|, each must step past everything
 * the smaller ones span plus one item. *tol receives OVERFLOW when that sum passes
 * PTRDIFF_MAX. */
static int overlap_rule(const mvs_slice *s, int n, ptrdiff_t isz, unsigned *tol) {
  int ax[MAXD], c = 0, i, j;
  i128 span = 0;
  if (zero_size(s, n)) return 0;
  for (i = 0; i < n; i++)
    if (s->shape[i] > 1) ax[c++] = i;
  for (i = 1; i < c; i++)
    for (j = i; j > 0 && iabs(s->strides[ax[j]]) < iabs(s->strides[ax[j - 1]]); j--) {
      int t = ax[j];
      ax[j] = ax[j - 1];
      ax[j - 1] = t;
    }
  for (i = 0; i < c; i++) {
    i128 st = iabs(s->strides[ax[i]]);
    if (span + isz > PMAX) *tol |= M_OVF;
    if (st < span + isz) return 1;
    span += (s->shape[ax[i]] - 1) * st;
  }
  return 0;
}

void op_may_overlap(void) {
  mvs_slice sv;
  int n, st, *out, want = 0;
  ptrdiff_t isz;
  const mvs_slice *src = query_src(&sv, &n, &isz, "mvs_may_overlap");
  unsigned must, tol = 0;
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof(int), sizeof(int));
  if (out) memset(out, SENT, sizeof *out);
  must = (src ? view_errs(&sv, n) : M_NULL) | (out ? 0 : M_NULL);
  if (isz <= 0) must |= M_ITEM;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    if (!direct_of(&sv, n)) must |= M_IND;
    if (!must) want = overlap_rule(&sv, n, isz, &tol);
  }
  pre_call();
  st = mvs_may_overlap(src, n, isz, out);
  check_status(st, must, tol);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && *out != want) fail("gave %d, the ndarray rule %d", *out, want);
  query_end(src, &sv);
}

void op_element_ptr(void) {
  mvs_slice sv, *s;
  const pv_t *v = &g_pv[below(NV)];
  int n, st, k, m;
  ptrdiff_t *idx = NULL, tmp[16];
  void **out;
  unsigned must = 0;
  char *want = NULL;
  ctx("mvs_element_ptr");
  sv = v->s;
  n = one_in(24) ? gen_ndim() : v->ndim;
  if (!deref_safe(&sv, n))
    for (k = 0; k < MAXD; k++) sv.suboffsets[k] = -1;
  ctx_v("src", &sv, n);
  s = slot_put(SL_SRC, sizeof *s, 8);
  *s = sv;
  if (one_in(48)) s = NULL, g_c.vnull[0] = 1;
  m = n < 0 ? 0 : n > 16 ? 16 : n;
  for (k = 0; k < m; k++) {
    ptrdiff_t len = k < MAXD ? sv.shape[k] : 4;
    tmp[k] = one_in(6) ? gen_bound(len) : len > 0 && len < 65536 ? (ptrdiff_t)below((unsigned)len) - (one_in(4) ? len : 0) : gen_bound(len);
    if (k < 8) ctx_i("  index[k]", tmp[k]);
  }
  if (m > 0) {
    idx = slot_put(SL_ARR1, (size_t)m * sizeof *idx, sizeof *idx);
    memcpy(idx, tmp, (size_t)m * sizeof *idx);
    if (one_in(48)) idx = NULL;
  } else if (one_in(2)) {
    idx = empty_arr(SL_ARR1);
  }
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *out, sizeof *out);
  if (out) memset(out, SENT, sizeof *out);
  must = (s ? view_errs(&sv, n) : M_NULL) | (out ? 0 : M_NULL);
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    if (n > 0 && !idx) {
      must |= M_NULL;
    } else {
      ptrdiff_t w[MAXD];
      for (k = 0; k < n; k++) {
        i128 i = tmp[k] < 0 ? (i128)tmp[k] + sv.shape[k] : tmp[k];
        if (i < 0 || i >= sv.shape[k])
          must |= M_INDEX;
        else if (!FITS(i * sv.strides[k]))
          must |= M_OVF;
        w[k] = (ptrdiff_t)i;
      }
      if (!must) want = elem_addr(&sv, n, w);
    }
  }
  pre_call();
  st = mvs_element_ptr(s, n, idx, out);
  check_status(st, must, 0);
  check_same(idx, tmp, (size_t)m * sizeof *idx, "index");
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && *out != (void *)want) fail("gave %p, the model %p", *out, (void *)want);
  query_end(s, &sv);
}
