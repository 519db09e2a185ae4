/* Fuzzing the derivations that move, add or remove axes (transpose, permute, swap, move,
 * broadcast_to, expand_dims, squeezes, diagonal, flips, sliding windows) and view_as. */
#include "harness.h"

static unsigned m_transpose(const mvs_slice *s, int n, mvs_slice *r) {
  int i;
  if (!direct_of(s, n)) return M_IND;
  *r = empty_view(s->data, s->memview);
  for (i = 0; i < n; i++) {
    r->shape[i] = s->shape[n - 1 - i];
    r->strides[i] = s->strides[n - 1 - i];
  }
  return 0;
}
static unsigned m_permute(const mvs_slice *s, int n, const int *axes, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  int i, seen[MAXD] = {0};
  if (n > 0 && !axes) return m | M_NULL;
  *r = empty_view(s->data, s->memview);
  for (i = 0; i < n; i++) {
    int a = norm_axis(axes[i], n);
    if (a < 0 || seen[a]) {
      m |= M_AXIS;
      continue;
    }
    seen[a] = 1;
    r->shape[i] = s->shape[a];
    r->strides[i] = s->strides[a];
  }
  return m;
}
static unsigned m_swap(const mvs_slice *s, int n, int a1, int a2, mvs_slice *r) {
  int a = norm_axis(a1, n), b = norm_axis(a2, n);
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  ptrdiff_t t;
  if (a < 0 || b < 0) return m | M_AXIS;
  if (m) return m;
  *r = norm_copy(s, n);
  t = r->shape[a], r->shape[a] = r->shape[b], r->shape[b] = t;
  t = r->strides[a], r->strides[a] = r->strides[b], r->strides[b] = t;
  return 0;
}
/* np.moveaxis: the sources at their destinations, the other axes in order around them. */
static unsigned m_move(const mvs_slice *s, int n, const int *src, const int *dst, int k, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  int i, j, p, sa[MAXD], da[MAXD], order[MAXD], used[MAXD] = {0}, taken[MAXD] = {0};
  if (k < 0 || k > n) return m | M_VALUE;
  if (k > 0 && (!src || !dst)) return m | M_NULL;
  for (i = 0; i < k; i++) {
    int a = norm_axis(src[i], n), b = norm_axis(dst[i], n);
    if (a < 0 || used[a]) m |= M_AXIS; else used[a] = 1, sa[i] = a;
    if (b < 0 || taken[b]) m |= M_AXIS; else taken[b] = 1, da[i] = b;
  }
  if (m) return m;
  for (p = 0; p < n; p++) order[p] = -1;
  for (i = 0; i < k; i++) order[da[i]] = sa[i];
  for (p = 0, j = 0; p < n; p++)
    if (order[p] < 0) {
      while (used[j]) j++;
      order[p] = j++;
    }
  *r = empty_view(s->data, s->memview);
  for (p = 0; p < n; p++) {
    r->shape[p] = s->shape[order[p]];
    r->strides[p] = s->strides[order[p]];
  }
  return 0;
}
static unsigned m_broadcast(const mvs_slice *s, int n, int on, const ptrdiff_t *shape, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  int k, lead;
  if (on < 0 || on > MAXD) return m | M_NDIM;
  if (on > 0 && !shape) return m | M_NULL;
  for (k = 0; k < on; k++)
    if (shape[k] < 0) m |= M_SHAPE;
  if (on < n) return m | M_BCAST;
  lead = on - n;
  *r = empty_view(s->data, s->memview);
  for (k = 0; k < on; k++) r->shape[k] = shape[k];
  for (k = 0; k < n; k++) {
    ptrdiff_t from = s->shape[k], to = shape[lead + k];
    if (from == to)
      r->strides[lead + k] = s->strides[k];
    else if (from == 1)
      r->strides[lead + k] = 0;
    else
      m |= M_BCAST;
  }
  return m;
}
static unsigned m_expand(const mvs_slice *s, int n, int axis, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  int a = norm_axis(axis, n + 1), i;
  if (n == MAXD) m |= M_NDIM;
  if (a < 0) m |= M_AXIS;
  if (m) return m;
  *r = empty_view(s->data, s->memview);
  for (i = 0; i < n; i++) {
    int to = i < a ? i : i + 1;
    r->shape[to] = s->shape[i];
    r->strides[to] = s->strides[i];
  }
  r->shape[a] = 1;
  r->strides[a] = 0;
  return 0;
}
static unsigned m_squeeze_axis(const mvs_slice *s, int n, int axis, mvs_slice *r) {
  int a = norm_axis(axis, n);
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  if (n == 0 && (axis == 0 || axis == -1)) {
    *r = norm_copy(s, n);
    return 0;
  }
  if (a < 0) return m | M_AXIS;
  if (s->shape[a] != 1) m |= M_SHAPE;
  if (m) return m;
  *r = norm_copy(s, n);
  remove_axis(r, n, a);
  return 0;
}
static unsigned m_squeeze(const mvs_slice *s, int n, mvs_slice *r, int *rn) {
  int i;
  if (!direct_of(s, n)) return M_IND;
  *r = empty_view(s->data, s->memview);
  *rn = 0;
  for (i = 0; i < n; i++)
    if (s->shape[i] != 1) push_axis(r, rn, s->shape[i], s->strides[i], -1);
  return 0;
}
static unsigned m_diagonal(const mvs_slice *s, int n, ptrdiff_t offset, int axis1, int axis2, mvs_slice *r) {
  int a1 = norm_axis(axis1, n), a2 = norm_axis(axis2, n), rn, i;
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  i128 skip, along, other, len, start, ds;
  if (n < 2) return m | M_NDIM;
  if (a1 < 0 || a2 < 0 || a1 == a2) return m | M_AXIS;
  if (m) return m;
  skip = iabs(offset);
  along = offset >= 0 ? s->shape[a2] : s->shape[a1];
  other = offset >= 0 ? s->shape[a1] : s->shape[a2];
  len = skip >= along ? 0 : along - skip < other ? along - skip : other;
  start = len > 0 ? skip * (offset >= 0 ? s->strides[a2] : s->strides[a1]) : 0;
  ds = len > 1 ? (i128)s->strides[a1] + s->strides[a2] : s->strides[a1];
  if (!FITS(start) || !FITS(ds)) return M_OVF;
  *r = empty_view(addr_add(s->data, start), s->memview);
  for (i = 0, rn = 0; i < n; i++)
    if (i != a1 && i != a2) push_axis(r, &rn, s->shape[i], s->strides[i], -1);
  push_axis(r, &rn, (ptrdiff_t)len, (ptrdiff_t)ds, -1);
  return 0;
}
static unsigned m_flip(const mvs_slice *s, int n, int only, mvs_slice *r) {
  int i;
  i128 moved = 0;
  if (!direct_of(s, n)) return M_IND;
  *r = norm_copy(s, n);
  for (i = 0; i < n; i++) {
    i128 mv;
    if ((only >= 0 && i != only) || s->shape[i] <= 1) continue;
    mv = (i128)(s->shape[i] - 1) * s->strides[i];
    if (!FITS(mv) || s->strides[i] == PTRDIFF_MIN) return M_OVF;
    moved += mv;
    if (!FITS(moved)) return M_OVF;
    r->strides[i] = -s->strides[i];
  }
  r->data = addr_add(s->data, moved);
  return 0;
}
static unsigned m_window(const mvs_slice *s, int n, int axis, ptrdiff_t window, ptrdiff_t step, mvs_slice *r) {
  int a = norm_axis(axis, n), rn = n;
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  i128 count, ns;
  if (n == MAXD) m |= M_NDIM;
  if (step <= 0) m |= M_STEP;
  if (a < 0) return m | M_AXIS;
  if (window < 0 || window > s->shape[a]) m |= M_VALUE;
  if (m) return m;
  count = ((i128)s->shape[a] - window) / step + 1;
  if (!FITS(count)) return M_OVF;
  ns = count > 1 ? (i128)s->strides[a] * step : s->strides[a];
  if (!FITS(ns)) return M_OVF;
  *r = norm_copy(s, n);
  r->shape[a] = (ptrdiff_t)count;
  r->strides[a] = (ptrdiff_t)ns;
  push_axis(r, &rn, window, s->strides[a], -1);
  return 0;
}

/* NumPy's rule for another item size (array_descr_set), and the library's own refusals: a size
 * not positive, an indirect axis (also for equal sizes), a new extent or a span past
 * PTRDIFF_MAX. */
static unsigned m_view_as(const mvs_slice *s, int n, ptrdiff_t isz, ptrdiff_t nisz, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  i128 len, nl;
  if (isz <= 0 || nisz <= 0) m |= M_ITEM;
  if (m) return m;
  *r = norm_copy(s, n);
  if (isz == nisz) return 0;
  if (n == 0) return M_NDIM;
  len = s->shape[n - 1];
  if (len != 1 && !zero_size(s, n) && s->strides[n - 1] != isz) return M_NCONTIG;
  if (nisz < isz) {
    if (isz % nisz) return M_VALUE;
    nl = len * (isz / nisz);
  } else {
    if ((len * isz) % nisz) return M_VALUE;
    nl = len * isz / nisz;
  }
  if (!FITS(nl)) return M_OVF;
  r->shape[n - 1] = (ptrdiff_t)nl;
  r->strides[n - 1] = nisz;
  return span_of(r, n) > PMAX ? M_OVF : 0;
}

/* ---- derivations: the calls ------------------------------------------------------------------ */

/* n + k for a result's ndim (only used when n is valid). */
int nd_add(int n, int k) { return n >= 0 && n <= MAXD ? n + k : 0; }

static int *gen_axes_arr(int n, int perm) {
  int k = n < 0 ? 0 : n > 16 ? 16 : n, i, *a;
  if (k == 0) return empty_arr(SL_ARR1);
  a = slot_put(SL_ARR1, (size_t)k * sizeof(int), sizeof(int));
  for (i = 0; i < k; i++) a[i] = i;
  if (perm) {
    for (i = k - 1; i > 0; i--) {
      int j = (int)below((unsigned)i + 1), t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    for (i = 0; i < k; i++)
      if (one_in(4)) a[i] -= n;
  } else {
    for (i = 0; i < k; i++) a[i] = gen_axis(n);
  }
  if (one_in(48)) return NULL;
  return a;
}

void op_transpose(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st;
  dc_begin(&d, "mvs_transpose");
  must = dc_errs(&d);
  if (d.valid) must |= m_transpose(&d.sv, d.ndim, &e);
  pre_call();
  st = mvs_transpose(d.src, d.ndim, d.out);
  inline_transpose(&d, st);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

void op_permute(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, *axes, k;
  dc_begin(&d, "mvs_permute");
  axes = gen_axes_arr(d.ndim, !one_in(4));
  for (k = 0; axes && k < d.ndim && k < 8; k++) ctx_i("  axes[k]", axes[k]);
  must = dc_errs(&d);
  if (d.valid) must |= m_permute(&d.sv, d.ndim, axes, &e);
  pre_call();
  st = mvs_permute(d.src, d.ndim, axes, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

void op_swap_axes(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, a1, a2;
  dc_begin(&d, "mvs_swap_axes");
  a1 = gen_axis(d.ndim);
  a2 = gen_axis(d.ndim);
  ctx_i("axis1", a1), ctx_i("axis2", a2);
  must = dc_errs(&d);
  if (d.valid) must |= m_swap(&d.sv, d.ndim, a1, a2, &e);
  pre_call();
  st = mvs_swap_axes(d.src, d.ndim, a1, a2, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

void op_move_axes(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, k, count, *sa = NULL, *da = NULL, i, n;
  dc_begin(&d, "mvs_move_axes");
  n = d.ndim < 0 ? 0 : d.ndim > 8 ? 8 : d.ndim;
  count = one_in(10) ? (int)below(12) - 2 : (int)below((unsigned)n + 1);
  k = count < 0 ? 0 : count > 16 ? 16 : count;
  if (k > 0) {
    sa = slot_put(SL_ARR1, (size_t)k * sizeof(int), sizeof(int));
    da = slot_put(SL_ARR2, (size_t)k * sizeof(int), sizeof(int));
    for (i = 0; i < k; i++) {
      sa[i] = one_in(6) ? gen_axis(n) : (int)below((unsigned)(n ? n : 1));
      da[i] = one_in(6) ? gen_axis(n) : (int)below((unsigned)(n ? n : 1));
    }
    if (n > 0 && !one_in(3)) { /* distinct: a prefix of two shuffles */
      int ps[MAXD], pd[MAXD], j, t;
      for (i = 0; i < n; i++) ps[i] = pd[i] = i;
      for (i = n - 1; i > 0; i--) {
        j = (int)below((unsigned)i + 1), t = ps[i], ps[i] = ps[j], ps[j] = t;
        j = (int)below((unsigned)i + 1), t = pd[i], pd[i] = pd[j], pd[j] = t;
      }
      for (i = 0; i < k && i < n; i++) sa[i] = ps[i] - (one_in(4) ? n : 0), da[i] = pd[i] - (one_in(4) ? n : 0);
    }
    if (one_in(48)) sa = NULL;
    if (one_in(48)) da = NULL;
  } else if (one_in(2)) {
    sa = empty_arr(SL_ARR1);
    da = empty_arr(SL_ARR2);
  }
  ctx_i("count", count);
  for (i = 0; i < k && i < 6; i++) {
    if (sa) ctx_i("  source[i]", sa[i]);
    if (da) ctx_i("  destination[i]", da[i]);
  }
  must = dc_errs(&d);
  if (d.valid) must |= m_move(&d.sv, d.ndim, sa, da, count, &e);
  pre_call();
  st = mvs_move_axes(d.src, d.ndim, sa, da, count, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

void op_broadcast_to(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, on, k, m, n;
  ptrdiff_t *shape = NULL, tmp[16];
  dc_begin(&d, "mvs_broadcast_to");
  n = d.ndim < 0 ? 0 : d.ndim > 8 ? 8 : d.ndim;
  on = one_in(10) ? gen_ndim() : n + (int)below((unsigned)(9 - n));
  m = on < 0 ? 0 : on > 16 ? 16 : on;
  for (k = 0; k < m; k++) {
    int sa = k - (on - n);
    ptrdiff_t from = sa >= 0 && sa < n ? d.sv.shape[sa] : 1;
    tmp[k] = one_in(8) ? gen_extent() : from == 1 ? (one_in(2) ? 1 + (ptrdiff_t)below(4) : one_in(8) ? huge() : 0) : from;
  }
  shape = shape_arg(tmp, m);
  ctx_i("out_ndim", on);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  must = dc_errs(&d);
  if (d.valid) must |= m_broadcast(&d.sv, d.ndim, on, shape, &e);
  pre_call();
  st = mvs_broadcast_to(d.src, d.ndim, on, shape, d.out);
  dc_end(&d, st, must, 0, &e, on, 0);
}

void op_expand_dims(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, axis;
  dc_begin(&d, "mvs_expand_dims");
  axis = gen_axis(nd_add(d.ndim, 1));
  ctx_i("axis", axis);
  must = dc_errs(&d);
  if (d.valid) must |= m_expand(&d.sv, d.ndim, axis, &e);
  pre_call();
  st = mvs_expand_dims(d.src, d.ndim, axis, d.out);
  dc_end(&d, st, must, 0, &e, nd_add(d.ndim, 1), 0);
}

void op_squeeze_axis(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, axis, en;
  dc_begin(&d, "mvs_squeeze_axis");
  axis = gen_axis(d.ndim);
  ctx_i("axis", axis);
  must = dc_errs(&d);
  if (d.valid) must |= m_squeeze_axis(&d.sv, d.ndim, axis, &e);
  en = d.ndim == 0 ? 0 : nd_add(d.ndim, -1);
  pre_call();
  st = mvs_squeeze_axis(d.src, d.ndim, axis, d.out);
  dc_end(&d, st, must, 0, &e, en, 0);
}

void op_squeeze(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, en = 0, *on;
  dc_begin(&d, "mvs_squeeze");
  on = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof(int), sizeof(int));
  if (on) memset(on, SENT, sizeof *on);
  must = dc_errs(&d) | (on ? 0 : M_NULL);
  if (d.valid) must |= m_squeeze(&d.sv, d.ndim, &e, &en);
  pre_call();
  st = mvs_squeeze(d.src, d.ndim, d.out, on);
  if (st != MVS_OK && on && !is_sent(on, sizeof *on)) fail("failed with %s and wrote out_ndim", stname(st));
  if (st == MVS_OK && !must && *on != en) fail("out_ndim is %d, the model's %d", *on, en);
  dc_end(&d, st, must, 0, &e, en, 0);
}

void op_diagonal(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, a1, a2;
  ptrdiff_t offset;
  dc_begin(&d, "mvs_diagonal");
  a1 = gen_axis(d.ndim);
  a2 = one_in(3) || a1 == INT_MAX ? gen_axis(d.ndim) : a1 + 1;
  offset = one_in(6) ? huge() : small_signed(5);
  ctx_i("offset", offset), ctx_i("axis1", a1), ctx_i("axis2", a2);
  must = dc_errs(&d);
  if (d.valid) must |= m_diagonal(&d.sv, d.ndim, offset, a1, a2, &e);
  pre_call();
  st = mvs_diagonal(d.src, d.ndim, offset, a1, a2, d.out);
  dc_end(&d, st, must, 0, &e, nd_add(d.ndim, -1), 0);
}

void op_flip(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, axis = 0, one = one_in(2);
  dc_begin(&d, one ? "mvs_flip_axis" : "mvs_flip");
  if (one) axis = gen_axis(d.ndim), ctx_i("axis", axis);
  must = dc_errs(&d);
  if (d.valid) {
    int a = norm_axis(axis, d.ndim);
    if (one && a < 0)
      must |= M_AXIS | (direct_of(&d.sv, d.ndim) ? 0 : M_IND);
    else
      must |= m_flip(&d.sv, d.ndim, one ? a : -1, &e);
  }
  pre_call();
  st = one ? mvs_flip_axis(d.src, d.ndim, axis, d.out) : mvs_flip(d.src, d.ndim, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

void op_sliding_window(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, axis, a;
  ptrdiff_t window, step;
  dc_begin(&d, "mvs_sliding_window");
  axis = gen_axis(d.ndim);
  a = d.valid ? norm_axis(axis, d.ndim) : -1;
  window = one_in(6) ? gen_bound(4) : a >= 0 && d.sv.shape[a] < 1000 ? (ptrdiff_t)below((unsigned)d.sv.shape[a] + 2) : (ptrdiff_t)below(4);
  step = one_in(6) ? gen_step() : 1 + (ptrdiff_t)below(3);
  ctx_i("axis", axis), ctx_i("window", window), ctx_i("step", step);
  must = dc_errs(&d);
  if (d.valid) must |= m_window(&d.sv, d.ndim, axis, window, step, &e);
  pre_call();
  st = mvs_sliding_window(d.src, d.ndim, axis, window, step, d.out);
  dc_end(&d, st, must, 0, &e, nd_add(d.ndim, 1), 0);
}

/* A new item size for a view of items of `isz` bytes whose last extent is `len`: often one
 * that divides `isz`, or a multiple of `isz` dividing the last axis's bytes, or `isz` itself. */
static ptrdiff_t gen_new_itemsize(ptrdiff_t isz, ptrdiff_t len) {
  unsigned r = below(16);
  if (r < 4) return pick_isz();
  if (r < 7 && isz > 0 && isz <= 4096) {
    ptrdiff_t d = 1 + (ptrdiff_t)below((unsigned)isz);
    while (isz % d) d--;
    return d;
  }
  if (r < 10 && isz > 0 && isz <= 4096 && len > 0 && len <= 4096) {
    ptrdiff_t d = 1 + (ptrdiff_t)below((unsigned)len);
    while (len % d) d--;
    return isz * d;
  }
  if (r < 12) return isz;
  if (r < 14) return gen_itemsize();
  return one_in(2) ? huge() : 1 + (ptrdiff_t)below(64);
}

void op_view_as(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st;
  ptrdiff_t isz, nisz;
  dc_begin(&d, "mvs_view_as");
  isz = one_in(16) ? gen_itemsize() : d.isz;
  nisz = gen_new_itemsize(isz, d.valid && d.ndim > 0 ? d.sv.shape[d.ndim - 1] : 1);
  ctx_i("itemsize", isz), ctx_i("new_itemsize", nisz);
  must = dc_errs(&d);
  if (d.valid) must |= m_view_as(&d.sv, d.ndim, isz, nisz, &e);
  pre_call();
  st = mvs_view_as(d.src, d.ndim, isz, nisz, d.out);
  d.isz = isz;
  d.out_isz = nisz;
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}
