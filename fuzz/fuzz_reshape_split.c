/* Fuzzing reshape, subview, split_sections and split_at: the models and the calls. */
#include "harness.h"

/* NumPy's rule for a reshape without a copy (numpy's _attempt_nocopy_reshape), on the axes in
 * walk order (C order; F order walks the reversed axes). */
static unsigned m_reshape(const mvs_slice *s, int n, ptrdiff_t isz, int on, const ptrdiff_t *shape, int order, mvs_slice *r,
                          unsigned *tol, unsigned *free) {
  unsigned m = 0;
  int k, neg = 0, mo = 0, ni = 0, oi = 0;
  i128 known = 1, partial = 1, size, inferred = 0, olen[MAXD], ost[MAXD], nlen[MAXD], nst[MAXD];
  ptrdiff_t dims[MAXD], st[MAXD];
  *free = 0;
  if (isz <= 0) m |= M_ITEM;
  if (order != 'C' && order != 'F') m |= M_VALUE;
  if (!direct_of(s, n)) m |= M_IND;
  if (on < 0 || on > MAXD) return m | M_NDIM;
  if (on > 0 && !shape) return m | M_NULL;
  for (k = 0; k < on; k++) {
    if (shape[k] < 0) {
      neg++;
      continue;
    }
    partial = smul(partial, shape[k]);
    if (partial > PMAX) *tol |= M_OVF; /* the product of the extents so far overflows */
    known = smul(known, shape[k]);
  }
  if (neg > 1) m |= M_SHAPE;
  if (known > PMAX) {
    m |= M_OVF;
    *tol |= M_SHAPE;
  }
  size = items_of(s->shape, n);
  if (size > PMAX) m |= M_OVF;
  if (!(m & (M_SHAPE | M_OVF))) {
    if (neg) {
      if (known == 0 || size % known != 0)
        m |= M_SHAPE;
      else
        inferred = size / known;
    } else if (known != size) {
      m |= M_SHAPE;
    }
  }
  if (m) return m;
  for (k = 0; k < on; k++) dims[k] = shape[k] < 0 ? (ptrdiff_t)inferred : shape[k];
  *r = empty_view(s->data, s->memview);
  for (k = 0; k < on; k++) r->shape[k] = dims[k];
  if (contig_rule(s, n, isz, order, 0)) {
    if (!contig_strides(dims, on, isz, order, st)) return M_OVF;
    for (k = 0; k < on; k++) {
      r->strides[k] = st[k];
      if (dims[k] == 1 && size > 0) *free |= 1u << k;
    }
    return 0;
  }
  for (k = 0; k < n; k++) {
    int a = order == 'C' ? k : n - 1 - k;
    if (s->shape[a] != 1) {
      olen[mo] = s->shape[a];
      ost[mo] = s->strides[a];
      mo++;
    }
  }
  for (k = 0; k < on; k++) nlen[k] = dims[order == 'C' ? k : on - 1 - k];
  while (ni < on && oi < mo) {
    int nj = ni + 1, oj = oi + 1;
    i128 np = nlen[ni], op = olen[oi];
    while (np != op) {
      if (np < op) {
        if (nj >= on) return M_COPY;
        np *= nlen[nj++];
      } else {
        if (oj >= mo) return M_COPY;
        op *= olen[oj++];
      }
    }
    for (k = oi; k < oj - 1; k++)
      if (olen[k + 1] * ost[k + 1] != ost[k]) return M_COPY;
    nst[nj - 1] = ost[oj - 1];
    for (k = nj - 1; k > ni; k--) {
      nst[k - 1] = nst[k] * nlen[k];
      if (!FITS(nst[k - 1])) return M_OVF;
    }
    ni = nj;
    oi = oj;
  }
  for (k = ni; k < on; k++) nst[k] = 0; /* trailing extents of 1: free */
  for (k = 0; k < on; k++) {
    int w = order == 'C' ? k : on - 1 - k;
    r->strides[k] = (ptrdiff_t)nst[w];
    if (dims[k] == 1) *free |= 1u << k;
  }
  return 0;
}

/* The items of a reshape, in `order`, are the source's: checked at the first, the last and a
 * few positions between (independently of the model's strides). */
static void check_reshape_items(const mvs_slice *s, int n, const mvs_slice *r, int rn, int order) {
  i128 size = items_of(s->shape, n), t;
  int probe, k;
  if (size <= 0 || !direct_of(s, n)) return;
  for (probe = 0; probe < 6; probe++) {
    ptrdiff_t si[MAXD], ri[MAXD];
    i128 q;
    t = probe == 0 ? 0 : probe == 1 ? size - 1 : (i128)(xrand() % (uint64_t)size);
    for (q = t, k = 0; k < n; k++) {
      int a = order == 'C' ? n - 1 - k : k;
      si[a] = (ptrdiff_t)(q % s->shape[a]);
      q /= s->shape[a];
    }
    for (q = t, k = 0; k < rn; k++) {
      int a = order == 'C' ? rn - 1 - k : k;
      ri[a] = (ptrdiff_t)(q % r->shape[a]);
      q /= r->shape[a];
    }
    if (elem_addr(s, n, si) != elem_addr(r, rn, ri))
      fail("item %lld in %c order is at %p in the result, at %p in the source", (long long)t, order, (void *)elem_addr(r, rn, ri),
           (void *)elem_addr(s, n, si));
  }
}

static unsigned m_subview(const mvs_slice *s, int n, ptrdiff_t isz, ptrdiff_t offset, int on, const ptrdiff_t *shape, int order,
                          mvs_slice *r, unsigned *tol) {
  unsigned m = 0;
  int k;
  i128 have, need, bytes;
  ptrdiff_t st[MAXD];
  if (isz <= 0) m |= M_ITEM;
  if (order != 'C' && order != 'F') m |= M_VALUE;
  if (!direct_of(s, n)) m |= M_IND;
  if (isz > 0 && direct_of(s, n) && !contig_rule(s, n, isz, 'C', 0) && !contig_rule(s, n, isz, 'F', 0)) m |= M_NCONTIG;
  if (offset < 0) m |= M_BOUNDS;
  if (on < 0 || on > MAXD) return m | M_NDIM;
  if (on > 0 && !shape) return m | M_NULL;
  for (k = 0; k < on; k++)
    if (shape[k] < 0) m |= M_SHAPE;
  if (m) return m;
  have = items_of(s->shape, n);
  need = items_of(shape, on);
  if (need > PMAX) {
    *tol |= M_BOUNDS;
    return M_OVF;
  }
  if (offset > have || need > have - offset) return M_BOUNDS;
  bytes = (i128)offset * isz;
  if (!FITS(bytes)) return M_OVF;
  if (!contig_strides(shape, on, isz, order, st)) return M_OVF;
  *r = empty_view(addr_add(s->data, bytes), s->memview);
  for (k = 0; k < on; k++) {
    r->shape[k] = shape[k];
    r->strides[k] = st[k];
  }
  return 0;
}

/* A target shape for a reshape of `size` items: its prime factors spread over on extents, with
 * extents of 1 and perhaps one -1; sometimes anything. */
static void gen_reshape_shape(i128 size, int on, ptrdiff_t *shape) {
  int k, m = on < 0 ? 0 : on > 16 ? 16 : on;
  for (k = 0; k < m; k++) shape[k] = 1;
  if (m == 0) return;
  if (one_in(6) || size < 0 || size > 1000000) {
    for (k = 0; k < m; k++) shape[k] = one_in(3) ? gen_extent() : 1 + (ptrdiff_t)below(4);
  } else if (size == 0) {
    for (k = 0; k < m; k++) shape[k] = one_in(3) ? 0 : one_in(8) ? huge() : 1 + (ptrdiff_t)below(5);
    if (one_in(2)) shape[below((unsigned)m)] = 0;
  } else {
    ptrdiff_t q = (ptrdiff_t)size, p;
    for (p = 2; q > 1 && p * p <= q; p++)
      while (q % p == 0) {
        shape[below((unsigned)m)] *= p;
        q /= p;
      }
    if (q > 1) shape[below((unsigned)m)] *= q;
  }
  if (one_in(3)) shape[below((unsigned)m)] = one_in(4) ? -1 - (ptrdiff_t)below(5) : -1;
  if (one_in(12)) shape[below((unsigned)m)] = -1;
}

void op_reshape(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  ptrdiff_t *shape = NULL, isz, tmp[16];
  int on, order, st, k, m;
  unsigned must, tol = 0, free = 0;
  dc_begin(&d, "mvs_reshape");
  isz = one_in(16) ? gen_itemsize() : d.isz;
  on = one_in(16) ? gen_ndim() : (int)below(5);
  order = gen_order();
  m = on < 0 ? 0 : on > 16 ? 16 : on;
  gen_reshape_shape(d.valid ? items_of(d.sv.shape, d.ndim) : 6, on, tmp);
  shape = shape_arg(tmp, m);
  ctx_i("itemsize", isz), ctx_i("out_ndim", on), ctx_i("order", order);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  must = dc_errs(&d);
  if (d.valid) must |= m_reshape(&d.sv, d.ndim, isz, on, shape, order, &e, &tol, &free);
  pre_call();
  st = mvs_reshape(d.src, d.ndim, isz, on, shape, order, d.out);
  if (st == MVS_OK && !must) check_reshape_items(&d.sv, d.ndim, d.out, on, order);
  d.isz = isz;
  dc_end(&d, st, must, tol, &e, on, free);
}

void op_subview(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  ptrdiff_t *shape = NULL, isz, offset, tmp[16];
  int on, order, st, k, m;
  unsigned must, tol = 0;
  i128 have, need = 1;
  dc_begin(&d, "mvs_subview");
  isz = one_in(16) ? gen_itemsize() : d.isz;
  on = one_in(16) ? gen_ndim() : (int)below(4);
  order = gen_order();
  m = on < 0 ? 0 : on > 16 ? 16 : on;
  for (k = 0; k < m; k++) {
    tmp[k] = one_in(10) ? 0 : one_in(16) ? gen_extent() : 1 + (ptrdiff_t)below(4);
    need = smul(need, tmp[k]);
  }
  have = d.valid ? items_of(d.sv.shape, d.ndim) : 8;
  offset = have >= need && have - need < 60000 && !one_in(5) ? (ptrdiff_t)below((unsigned)(have - need + 2)) : gen_bound(have > 1000 ? 8 : (ptrdiff_t)have);
  shape = shape_arg(tmp, m);
  ctx_i("itemsize", isz), ctx_i("offset", offset), ctx_i("out_ndim", on), ctx_i("order", order);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  must = dc_errs(&d);
  if (d.valid) must |= m_subview(&d.sv, d.ndim, isz, offset, on, shape, order, &e, &tol);
  pre_call();
  st = mvs_subview(d.src, d.ndim, isz, offset, on, shape, order, d.out);
  inline_subview(&d, isz, offset, on, shape, order, st);
  d.isz = isz;
  dc_end(&d, st, must, tol, &e, on, 0);
}

/* ---- splits -------------------------------------------------------------------------------- */

/* The outputs of a split: n slices in SL_OUTS filled with the sentinel, the source maybe
 * among them (*at, or -1); for a count that no array can have, 1 slice; NULL sometimes. */
static mvs_slice *split_outs(ptrdiff_t n, const mvs_slice *sv, int *at, mvs_slice **src) {
  mvs_slice *o;
  ptrdiff_t k = n > 0 && n <= MAXOUTS ? n : n > IMPOSSIBLE ? 1 : 0;
  *at = -1;
  if (one_in(48)) return NULL;
  if (k == 0) return empty_arr(SL_OUTS);
  o = slot_put(SL_OUTS, (size_t)k * sizeof *o, 8);
  memset(o, SENT, (size_t)k * sizeof *o);
  if (*src && n <= MAXOUTS && one_in(8)) {
    *at = (int)below((unsigned)k);
    o[*at] = *sv;
    *src = &o[*at];
  }
  return o;
}
static void split_end(int st, unsigned must, mvs_slice *outs, ptrdiff_t nouts, int at, const mvs_slice *src, const mvs_slice *sv,
                      int n, const mvs_slice *exp, ptrdiff_t isz) {
  ptrdiff_t k, real = nouts > 0 && nouts <= MAXOUTS ? nouts : nouts > IMPOSSIBLE ? 1 : 0;
  check_status(st, must, 0);
  if (st != MVS_OK) {
    for (k = 0; outs && k < real; k++)
      if (k != at && !is_sent(&outs[k], sizeof outs[k])) fail("failed with %s and wrote outs[%td]", stname(st), k);
    if (src && memcmp(src, sv, sizeof *sv) != 0) fail("failed with %s and changed its source", stname(st));
  } else if (!must) {
    if (at < 0 && memcmp(src, sv, sizeof *sv) != 0) fail("changed its source");
    for (k = 0; k < nouts; k++) {
      mvs_slice e = exp[k];
      ctx_i("piece", k);
      check_view_result(sv, n, &outs[k], &e, n, 0, isz, "a piece");
      g_c.ni--;
    }
    if (nouts > 0) store_view(&outs[below((unsigned)(nouts < 65536 ? nouts : 65536))], n, isz);
  }
  slots_done();
}
static mvs_slice g_pieces[MAXOUTS];

void op_split_sections(void) {
  const pv_t *v = &g_pv[below(NV)];
  mvs_slice sv = v->s, *src, *outs;
  int n = one_in(24) ? gen_ndim() : v->ndim, axis = gen_axis(n), a, uneven = one_in(2) ? 0 : one_in(4) ? -7 : 1, at, st;
  ptrdiff_t sections, nouts, len, k;
  unsigned must = 0, r = below(32);
  ctx("mvs_split_sections");
  a = view_errs(&sv, n) ? -1 : norm_axis(axis, n);
  len = a >= 0 ? sv.shape[a] : 6;
  if (r < 20) {
    sections = 1 + (ptrdiff_t)below(6);
  } else if (r < 24 && len > 0 && len <= 64) {
    for (sections = 1 + (ptrdiff_t)below((unsigned)len); len % sections; sections--) {}
  } else if (r < 26) {
    sections = (ptrdiff_t)below(3) - 2;
  } else if (r < 27) {
    sections = 100 + (ptrdiff_t)below(2900); /* O(sections): a few thousand at most */
  } else {
    sections = huge();
  }
  r = below(32);
  nouts = r < 24 ? sections : r < 28 ? (sections > -1000 && sections < 1000 ? sections + small_signed(1) : sections) : r < 30 ? IMPOSSIBLE + 1 + (ptrdiff_t)below(1000) : PTRDIFF_MAX - (ptrdiff_t)below(3);
  if (nouts > MAXOUTS && nouts <= IMPOSSIBLE) nouts = (ptrdiff_t)below(8);
  src = slot_put(SL_SRC, sizeof *src, 8);
  *src = sv;
  if (one_in(48)) src = NULL;
  outs = split_outs(nouts, &sv, &at, &src);
  ctx_v("src", src ? &sv : NULL, n);
  ctx_i("axis", axis), ctx_i("sections", sections), ctx_i("uneven", uneven), ctx_i("nouts", nouts), ctx_i("src at outs[]", at);
  if (nouts > IMPOSSIBLE) {
    must = M_VALUE;
  } else {
    if (!outs && nouts != 0) must |= M_NULL;
    must |= src ? view_errs(&sv, n) : M_NULL;
    if (!(must & (M_NDIM | M_SHAPE | M_OVF)) && src) {
      if (a < 0) must |= M_AXIS;
      if (sections <= 0) must |= M_VALUE;
      if (a >= 0 && sections > 0 && len % sections != 0 && !uneven) must |= M_VALUE;
      if (nouts != sections) must |= M_VALUE;
      if (!must)
        for (k = 0; k < sections; k++) {
          ptrdiff_t each = len / sections, extra = len % sections;
          ptrdiff_t b0 = k * each + (k < extra ? k : extra), b1 = (k + 1) * each + (k + 1 < extra ? k + 1 : extra);
          must |= m_slice(&sv, n, axis, b0, b1, 1, &g_pieces[k]);
        }
    }
  }
  pre_call();
  st = mvs_split_sections(src, n, axis, sections, uneven, outs, nouts);
  split_end(st, must, outs, nouts, at, src, &sv, n, g_pieces, v->isz);
}

void op_split_at(void) {
  const pv_t *v = &g_pv[below(NV)];
  mvs_slice sv = v->s, *src, *outs;
  int n = one_in(24) ? gen_ndim() : v->ndim, axis = gen_axis(n), a, at, st;
  ptrdiff_t nind, *ind = NULL, tmp[64], len, k, nouts, m;
  unsigned must = 0, r = below(32);
  ctx("mvs_split_at");
  a = view_errs(&sv, n) ? -1 : norm_axis(axis, n);
  len = a >= 0 ? sv.shape[a] : 6;
  nind = r < 26 ? (ptrdiff_t)below(6) : r < 28 ? 6 + (ptrdiff_t)below(58) : r < 30 ? -1 - (ptrdiff_t)below(3)
         : r == 30 ? ((ptrdiff_t)1 << 61) : IMPOSSIBLE + (ptrdiff_t)below(3) - 1;
  if (nind == IMPOSSIBLE - 1) nind = PTRDIFF_MAX;
  m = nind > 64 ? 2 : nind < 0 ? 0 : nind; /* an impossible count gets a 2-entry array */
  for (k = 0; k < m; k++) tmp[k] = one_in(2) && k > 0 && tmp[k - 1] < PTRDIFF_MAX - 2 ? tmp[k - 1] + (ptrdiff_t)below(3) : gen_bound(len);
  if (m > 0) {
    ind = slot_put(SL_ARR1, (size_t)m * sizeof *ind, sizeof *ind);
    memcpy(ind, tmp, (size_t)m * sizeof *ind);
    if (one_in(48)) ind = NULL;
  } else if (one_in(2)) {
    ind = empty_arr(SL_ARR1);
  }
  nouts = nind == PTRDIFF_MAX ? PTRDIFF_MAX : nind + 1;
  src = slot_put(SL_SRC, sizeof *src, 8);
  *src = sv;
  if (one_in(48)) src = NULL;
  outs = split_outs(nouts, &sv, &at, &src);
  ctx_v("src", src ? &sv : NULL, n);
  ctx_i("axis", axis), ctx_i("nindices", nind), ctx_i("src at outs[]", at);
  for (k = 0; k < m && k < 8; k++) ctx_i("  indices[k]", tmp[k]);
  if (nouts > IMPOSSIBLE) {
    must = M_VALUE;
  } else {
    if (!outs && nouts != 0) must |= M_NULL;
    must |= src ? view_errs(&sv, n) : M_NULL;
    if (nind < 0) {
      must |= M_VALUE;
    } else if (!(must & (M_NDIM | M_SHAPE | M_OVF)) && src) {
      if (nind > 0 && !ind) must |= M_NULL;
      if (a < 0) must |= M_AXIS;
      if (!must)
        for (k = 0; k <= nind; k++) must |= m_slice(&sv, n, axis, k == 0 ? 0 : tmp[k - 1], k == nind ? MVS_NONE : tmp[k], 1, &g_pieces[k]);
    }
  }
  pre_call();
  st = mvs_split_at(src, n, axis, ind, nind, outs);
  check_same(ind, tmp, (size_t)m * sizeof *ind, "indices");
  split_end(st, must, outs, nouts, at, src, &sv, n, g_pieces, v->isz);
}
