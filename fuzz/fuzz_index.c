/* Fuzzing slice_axis, index_axis and mvs_index (basic indexing): the models and the calls. */
#include "harness.h"

/* ---- derivations: the models --------------------------------------------------------------
 * Each takes a valid source (view_errs == 0) and the call's other arguments, and gives the
 * set of errors that apply (all those it can tell apart), or 0 and the result. */

unsigned m_slice(const mvs_slice *s, int n, int axis, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, mvs_slice *r) {
  int a = norm_axis(axis, n);
  i128 first, count, sv, ns, mv, moved;
  unsigned m = 0;
  if (a < 0) return M_AXIS;
  if (py_slice(s->shape[a], start, stop, step, &first, &count, &sv)) return M_STEP;
  *r = norm_copy(s, n);
  ns = count > 1 ? sv * s->strides[a] : s->strides[a];
  if (!FITS(ns)) m |= M_OVF;
  if (count > 0) {
    mv = first * s->strides[a];
    m |= FITS(mv) ? m_shift(r, a, mv, &moved) : M_OVF;
  }
  if (m) return m;
  r->shape[a] = (ptrdiff_t)count;
  r->strides[a] = (ptrdiff_t)ns;
  return 0;
}

static unsigned m_index_axis(const mvs_slice *s, int n, int axis, ptrdiff_t index, mvs_slice *r) {
  int a = norm_axis(axis, n);
  i128 i, mv, moved;
  unsigned m = 0;
  if (a < 0) return M_AXIS;
  i = index < 0 ? (i128)index + s->shape[a] : index;
  if (s->suboffsets[a] >= 0 && a > 0) m |= M_IND;
  if (i < 0 || i >= s->shape[a]) return m | M_INDEX;
  *r = norm_copy(s, n);
  mv = i * s->strides[a];
  if (!FITS(mv)) return m | M_OVF;
  m |= m_shift(r, a, mv, &moved);
  if (m) return m;
  if (s->suboffsets[a] >= 0) r->data = addr_add(load_ptr((uintptr_t)r->data), s->suboffsets[a]);
  remove_axis(r, n, a);
  return 0;
}

/* mvs_index's items applied in order to r (an empty view at the source's address): the errors
 * of the first failing item, or 0. Stops quietly where the items do not fit the source (the
 * structural errors, counted by the caller). */
static unsigned apply_items(const mvs_slice *s, int n, const mvs_index_item *it, int nit, int ell, int rest, mvs_slice *r, int *rn) {
  int k, ax = 0, j;
  i128 total = 0;
  for (k = 0; k < nit; k++) {
    int kind = it[k].kind;
    unsigned m = 0;
    i128 mv, moved;
    if ((kind == MVS_ITEM_INDEX || kind == MVS_ITEM_SLICE) && ax >= n) return 0;
    if ((kind == MVS_ITEM_SLICE || kind == MVS_ITEM_NEWAXIS) && *rn >= MAXD) return 0;
    if (kind == MVS_ITEM_INDEX) {
      i128 len = s->shape[ax], i = it[k].start < 0 ? (i128)it[k].start + len : it[k].start;
      if (s->suboffsets[ax] >= 0 && *rn > 0) m |= M_IND;
      if (i < 0 || i >= len) return m | M_INDEX;
      mv = i * s->strides[ax];
      if (!FITS(mv)) return m | M_OVF;
      m |= m_shift(r, *rn, mv, &moved);
      total += moved;
      if (!m && !FITS(total)) m |= M_OVF;
      if (m) return m;
      if (s->suboffsets[ax] >= 0) r->data = addr_add(load_ptr((uintptr_t)r->data), s->suboffsets[ax]);
      ax++;
    } else if (kind == MVS_ITEM_SLICE) {
      i128 first, count, sv, ns;
      if (py_slice(s->shape[ax], it[k].start, it[k].stop, it[k].step, &first, &count, &sv)) return M_STEP;
      ns = count > 1 ? sv * s->strides[ax] : s->strides[ax];
      if (!FITS(ns)) m |= M_OVF;
      if (count > 0) {
        mv = first * s->strides[ax];
        if (!FITS(mv)) {
          m |= M_OVF;
        } else {
          unsigned e = m_shift(r, *rn, mv, &moved);
          total += moved;
          if (!e && !FITS(total)) e = M_OVF;
          m |= e;
        }
      }
      if (m) return m;
      push_axis(r, rn, (ptrdiff_t)count, (ptrdiff_t)ns, kept_sub(s->suboffsets[ax]));
      ax++;
    } else if (kind == MVS_ITEM_NEWAXIS) {
      push_axis(r, rn, 1, 0, -1);
    } else if (kind == MVS_ITEM_ELLIPSIS && ell == 1) {
      for (j = 0; j < rest; j++) {
        if (*rn >= MAXD || ax >= n) return 0;
        push_axis(r, rn, s->shape[ax], s->strides[ax], kept_sub(s->suboffsets[ax]));
        ax++;
      }
    } else {
      return 0;
    }
  }
  if (!ell)
    while (ax < n) {
      if (*rn >= MAXD) return 0;
      push_axis(r, rn, s->shape[ax], s->strides[ax], kept_sub(s->suboffsets[ax]));
      ax++;
    }
  return 0;
}
/* Structural errors first (an unknown kind, two ellipses, more indices than dimensions, too
 * many result dimensions); without them, exactly the first failing item's. */
static unsigned m_index(const mvs_slice *s, int n, const mvs_index_item *it, int nit, mvs_slice *r, int *rn) {
  unsigned st = 0, e;
  int k, ell = 0, cons = 0, add = 0;
  for (k = 0; k < nit; k++) {
    switch (it[k].kind) {
      case MVS_ITEM_INDEX: cons++; break;
      case MVS_ITEM_SLICE: cons++; add++; break;
      case MVS_ITEM_NEWAXIS: add++; break;
      case MVS_ITEM_ELLIPSIS: ell++; break;
      default: st |= M_VALUE;
    }
  }
  if (ell > 1) st |= M_INDEX;
  if (cons > n)
    st |= M_INDEX;
  else if (n - cons + add > MAXD)
    st |= M_NDIM;
  *r = empty_view(s->data, s->memview);
  *rn = 0;
  e = apply_items(s, n, it, nit, ell, n - cons, r, rn);
  return st ? st | e : e;
}

void op_slice_axis(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  int axis, a, st;
  ptrdiff_t start, stop, step, len;
  unsigned must;
  dc_begin(&d, "mvs_slice_axis");
  axis = gen_axis(d.ndim);
  a = d.valid ? norm_axis(axis, d.ndim) : -1;
  len = a >= 0 ? d.sv.shape[a] : 4;
  start = gen_bound(len);
  stop = gen_bound(len);
  step = gen_step();
  ctx_i("axis", axis), ctx_i("start", start), ctx_i("stop", stop), ctx_i("step", step);
  must = dc_errs(&d);
  if (d.valid) must |= m_slice(&d.sv, d.ndim, axis, start, stop, step, &e);
  pre_call();
  st = mvs_slice_axis(d.src, d.ndim, axis, start, stop, step, d.out);
  inline_slice_axis(&d, axis, start, stop, step, st);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

void op_index_axis(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  int axis, a, st;
  ptrdiff_t index;
  unsigned must;
  dc_begin(&d, "mvs_index_axis");
  if (d.src && d.sv.suboffsets[0] >= 0 && !deref_safe(&d.sv, d.ndim)) d.sv.suboffsets[0] = -1, *d.src = d.sv;
  axis = gen_axis(d.ndim);
  a = d.valid ? norm_axis(axis, d.ndim) : -1;
  index = gen_bound(a >= 0 ? d.sv.shape[a] : 4);
  ctx_i("axis", axis), ctx_i("index", index);
  g_c.v[0] = d.sv;
  must = dc_errs(&d);
  if (d.valid) must |= m_index_axis(&d.sv, d.ndim, axis, index, &e);
  pre_call();
  st = mvs_index_axis(d.src, d.ndim, axis, index, d.out);
  inline_index_axis(&d, axis, index, st);
  dc_end(&d, st, must, 0, &e, nd_add(d.ndim, -1), 0);
}

void op_index(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  mvs_index_item *items = NULL;
  int nit, k, st, en = 0, *on, ax = 0;
  unsigned must;
  dc_begin(&d, "mvs_index");
  if (d.src && !deref_safe(&d.sv, d.ndim)) {
    for (k = 0; k < MAXD; k++) d.sv.suboffsets[k] = -1;
    *d.src = d.sv;
    g_c.v[0] = d.sv;
  }
  {
    unsigned r = below(32);
    nit = r < 26 ? (int)below(6) : r < 29 ? 6 + (int)below(12) : r == 29 ? 18 + (int)below(3) : r == 30 ? -1 - (int)below(3) : INT_MIN;
  }
  if (nit > 0) {
    items = slot_put(SL_ARR1, (size_t)nit * sizeof *items, sizeof(ptrdiff_t));
    for (k = 0; k < nit; k++) {
      unsigned r = below(32);
      ptrdiff_t len = d.valid && ax < d.ndim ? d.sv.shape[ax] : 4;
      memset(&items[k], 0, sizeof items[k]);
      items[k].kind = r < 13 ? MVS_ITEM_INDEX : r < 25 ? MVS_ITEM_SLICE : r < 28 ? MVS_ITEM_NEWAXIS : r < 31 ? MVS_ITEM_ELLIPSIS : (one_in(2) ? 4 : -1);
      items[k].start = gen_bound(len);
      items[k].stop = gen_bound(len);
      items[k].step = gen_step();
      if (items[k].kind <= MVS_ITEM_SLICE) ax++;
    }
    if (one_in(48)) items = NULL;
  } else if (one_in(2)) {
    items = empty_arr(SL_ARR1);
  }
  on = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof(int), sizeof(int));
  if (on) memset(on, SENT, sizeof *on);
  ctx_i("nitems", nit);
  for (k = 0; k < nit && k < 6 && items; k++) {
    ctx_i("item kind", items[k].kind);
    ctx_i("  start", items[k].start);
    if (items[k].kind == MVS_ITEM_SLICE) ctx_i("  stop", items[k].stop), ctx_i("  step", items[k].step);
  }
  must = dc_errs(&d) | (on ? 0 : M_NULL);
  if (nit < 0 || nit > MVS_MAX_INDEX_ITEMS)
    must |= M_VALUE;
  else if (nit > 0 && !items)
    must |= M_NULL;
  else if (d.valid)
    must |= m_index(&d.sv, d.ndim, items, nit, &e, &en);
  pre_call();
  st = mvs_index(d.src, d.ndim, items, nit, d.out, on);
  inline_index(&d, items, nit, st, on);
  if (st != MVS_OK && on && !is_sent(on, sizeof *on)) fail("failed with %s and wrote out_ndim", stname(st));
  if (st == MVS_OK && !must && *on != en) fail("out_ndim is %d, the model's %d", *on, en);
  dc_end(&d, st, must, 0, &e, en, 0);
}
