/* Fuzzing mvs_copy and mvs_fill against an element-by-element reference on the arenas. */
#include "harness.h"

/* ---- data movement -------------------------------------------------------------------------- */

/* Whether a call that reads or writes through `s` with items of isz bytes is safe to make: the
 * library must refuse it (invalid, indirect, a bad item size, an extent past ptrdiff_t), it
 * addresses nothing (zero-size), or all its bytes lie in an arena; and its items, stride-0
 * axes counted once when `once0`, are few enough to model. */
static int mem_safe(const mvs_slice *s, int n, ptrdiff_t isz, int once0) {
  i128 lo, hi, items = 1;
  size_t off;
  int i;
  if (view_errs(s, n) || !direct_of(s, n) || isz <= 0 || zero_size(s, n)) return 1;
  items = smul(items_of(s->shape, n), isz);
  if (items > ((i128)1 << 24) && items <= PMAX) return 0; /* mvs_copy_contiguous may allocate that first */
  items = 1;
  if (!extent_of(s, n, isz, &lo, &hi)) return 1;
  for (i = 0; i < n; i++) items = smul(items, once0 && s->strides[i] == 0 ? 1 : s->shape[i]);
  if (items > 65536) return 0;
  return arena_at(addr_add(s->data, lo), (size_t)(hi - lo), &off) >= 0;
}
/* A program view that is safe for memory, or a new arena view. Items of more than 64 bytes
 * (which mvs_view_as can give a program view) only in views the library refuses or zero-size
 * ones: op_fill's item holds 64 bytes. */
void mem_view(pv_t *v, ptrdiff_t isz, int once0) {
  *v = g_pv[below(NV)];
  if (one_in(24)) v->ndim = gen_ndim();
  if (!mem_safe(&v->s, v->ndim, isz, once0) || (isz > 64 && !view_errs(&v->s, v->ndim) && !zero_size(&v->s, v->ndim)) ||
      one_in(4)) {
    if (isz > 0 && isz <= 64)
      gen_arena_view_n(v, -1, isz);
    else
      gen_arena_view_n(v, 1 + (int)below(3), 8), v->s.shape[0] = 0; /* zero-size: safe at any item size */
  }
}

/* Visits every item of dst (n = max(sn, dn) axes, dst's leading missing axes of extent 1,
 * stride-0 axes once when `once0`), with src broadcast along it (src NULL: the fill item). mode
 * 0 writes the reference into g_exp and counts writers in g_cov; mode 1 marks in g_okb the
 * bytes of several writers that hold one writer's value. */
static void visit(const mvs_slice *s, int sn, const mvs_slice *d, int dn, ptrdiff_t isz, const unsigned char *item, int once0, int mode) {
  int n = sn > dn ? sn : dn, a;
  ptrdiff_t len[MAXD], idx[MAXD];
  for (a = 0; a < n; a++) {
    int da = a - (n - dn);
    len[a] = da >= 0 ? (once0 && d->strides[da] == 0 && d->shape[da] > 1 ? 1 : d->shape[da]) : 1;
    idx[a] = 0;
    if (len[a] == 0) return;
  }
  do {
    i128 doff = 0, soff = 0;
    size_t o = 0, os = 0;
    int w, ws = 0;
    ptrdiff_t b;
    for (a = 0; a < n; a++) {
      int da = a - (n - dn), sa = a - (n - sn);
      if (da >= 0) doff += (i128)idx[a] * d->strides[da];
      if (s && sa >= 0 && s->shape[sa] != 1) soff += (i128)idx[a] * s->strides[sa];
    }
    w = arena_at(addr_add(d->data, doff), (size_t)isz, &o);
    if (w < 0) fail("fuzzer: a destination item at %p is outside the arenas", (void *)addr_add(d->data, doff));
    if (s) {
      ws = arena_at(addr_add(s->data, soff), (size_t)isz, &os);
      if (ws < 0) fail("fuzzer: a source item at %p is outside the arenas", (void *)addr_add(s->data, soff));
    }
    for (b = 0; b < isz; b++) {
      unsigned char v = s ? g_snap[ws][os + (size_t)b] : item[b];
      if (mode == 0) {
        g_exp[w][o + (size_t)b] = v;
        if (g_cov[w][o + (size_t)b] < 2) g_cov[w][o + (size_t)b]++;
      } else if (g_ar[w][o + (size_t)b] == v) {
        g_okb[w][o + (size_t)b] = 1;
      }
    }
  } while (next_idx(idx, len, n));
}
void snapshot(void) {
  memcpy(g_snap[0], g_ar[0], ARENA);
  memcpy(g_snap[1], g_ar[1], ARENA);
}
/* After a copy or fill: on failure (or `none`) the arenas as before; on success, each byte as
 * the reference wrote it, or as before where nothing was written, or (written several times)
 * one of the values written there. */
void check_arenas(int wrote, const mvs_slice *s, int sn, const mvs_slice *d, int dn, ptrdiff_t isz, const unsigned char *item, int once0) {
  int w, multi = 0;
  size_t i;
  if (!wrote) {
    for (w = 0; w < 2; w++)
      if (memcmp(g_ar[w], g_snap[w], ARENA) != 0) {
        for (i = 0; i < ARENA && g_ar[w][i] == g_snap[w][i]; i++) {}
        fail("changed memory it must not write: arena %d byte %zu (0x%02x, was 0x%02x)", w, i, g_ar[w][i], g_snap[w][i]);
      }
    return;
  }
  for (w = 0; w < 2; w++)
    for (i = 0; i < ARENA; i++) {
      unsigned c = g_cov[w][i];
      if (c == 2) {
        multi = 1;
      } else if (g_ar[w][i] != (c ? g_exp[w][i] : g_snap[w][i])) {
        fail("arena %d byte %zu is 0x%02x, the reference 0x%02x (%s; was 0x%02x)", w, i, g_ar[w][i], c ? g_exp[w][i] : g_snap[w][i],
             c ? "written once" : "not to be written", g_snap[w][i]);
      }
    }
  if (!multi) return;
  memset(g_okb, 0, sizeof g_okb);
  visit(s, sn, d, dn, isz, item, once0, 1);
  for (w = 0; w < 2; w++)
    for (i = 0; i < ARENA; i++)
      if (g_cov[w][i] == 2 && !g_okb[w][i])
        fail("arena %d byte %zu is 0x%02x, which none of the items written there holds", w, i, g_ar[w][i]);
}

/* Extents small enough to build another view of the same shape from. */
static int modest(const mvs_slice *s, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (s->shape[i] > 4096) return 0;
  return items_of(s->shape, n) <= MAXITEMS;
}
/* A source for dst: broadcastable to it (leading axes missing or of extent 1, extents equal or
 * 1), in an arena. */
static void gen_compatible(pv_t *S, const pv_t *D, ptrdiff_t isz) {
  int dn = D->ndim, sn, b;
  mvs_slice *s = &S->s;
  gen_arena_view_n(S, 0, isz);
  sn = one_in(4) ? dn + (int)below(2) : dn - (int)below((unsigned)dn + 1);
  if (sn > MAXD) sn = MAXD;
  for (b = 0; b < sn; b++) {
    int a = b + dn - sn;
    s->shape[b] = a < 0 || one_in(5) ? 1 : D->s.shape[a];
  }
  {
    ptrdiff_t st[MAXD];
    contig_strides(s->shape, sn, isz, one_in(3) ? 'F' : 'C', st);
    for (b = 0; b < sn; b++) {
      unsigned r = below(8);
      s->strides[b] = r == 0 ? -st[b] : r == 1 ? 0 : r == 2 ? st[b] * 2 : r == 3 ? small_signed(24) : st[b];
    }
  }
  for (;;) {
    i128 lo, hi;
    int i, a = -1;
    if (extent_of(s, sn, isz, &lo, &hi) && hi - lo <= ARENA) break;
    for (i = 0; i < sn; i++)
      if (s->shape[i] > 1 && (a < 0 || iabs(s->strides[i]) * s->shape[i] > iabs(s->strides[a]) * s->shape[a])) a = i;
    s->shape[a] = 1;
  }
  place_arena(s, sn, isz, (int)below(2));
  S->ndim = sn;
  S->isz = isz;
}

void op_copy(void) {
  pv_t S, D;
  ptrdiff_t isz = one_in(16) ? gen_itemsize() : g_pv[below(NV)].isz;
  mvs_slice *src, *dst;
  unsigned must = 0, mode;
  int st, k;
  ctx("mvs_copy");
  mem_view(&D, isz, 0);
  mode = below(16);
  if (mode < 8 && !view_errs(&D.s, D.ndim) && isz > 0 && isz <= 64 && modest(&D.s, D.ndim)) {
    gen_compatible(&S, &D, isz);
  } else if (mode < 10) {
    S = D;
  } else if (mode < 13 && !view_errs(&D.s, D.ndim) && isz > 0 && isz <= 64 && modest(&D.s, D.ndim) && !zero_size(&D.s, D.ndim) &&
             direct_of(&D.s, D.ndim)) {
    S = D; /* the same layout, moved a little, or reversed: overlaps */
    if (mode == 12) {
      i128 moved = 0;
      for (k = 0; k < S.ndim; k++)
        if (S.s.shape[k] > 1) moved += (i128)(S.s.shape[k] - 1) * S.s.strides[k], S.s.strides[k] = -S.s.strides[k];
      S.s.data = addr_add(S.s.data, moved);
    } else {
      S.s.data = addr_add(S.s.data, small_signed(2 * (int)isz));
    }
    if (!mem_safe(&S.s, S.ndim, isz, 0)) S = D;
  } else {
    mem_view(&S, isz, 0);
  }
  if (one_in(24)) S.ndim = gen_ndim();
  if (!mem_safe(&S.s, S.ndim, isz, 0)) S = D;
  src = slot_put(SL_SRC, sizeof *src, 8);
  dst = slot_put(SL_SRC2, sizeof *dst, 8);
  *src = S.s;
  *dst = D.s;
  if (one_in(48)) src = NULL;
  if (one_in(48)) dst = NULL;
  ctx_v("src", src ? &S.s : NULL, S.ndim);
  ctx_v("dst", dst ? &D.s : NULL, D.ndim);
  ctx_i("itemsize", isz);
  must = (src ? view_errs(&S.s, S.ndim) : M_NULL) | (dst ? view_errs(&D.s, D.ndim) : M_NULL);
  if (isz <= 0) must |= M_ITEM;
  if (src && !view_errs(&S.s, S.ndim) && !direct_of(&S.s, S.ndim)) must |= M_IND;
  if (dst && !view_errs(&D.s, D.ndim) && !direct_of(&D.s, D.ndim)) must |= M_IND;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    int n = S.ndim > D.ndim ? S.ndim : D.ndim, a;
    i128 lo, hi;
    for (a = 0; a < n; a++) {
      int sa = a - (n - S.ndim), da = a - (n - D.ndim);
      ptrdiff_t sl = sa >= 0 ? S.s.shape[sa] : 1, dl = da >= 0 ? D.s.shape[da] : 1;
      if (sl != dl && sl != 1) must |= M_BCAST;
    }
    if (isz > 0 && (!extent_of(&S.s, S.ndim, isz, &lo, &hi) || !extent_of(&D.s, D.ndim, isz, &lo, &hi))) must |= M_OVF;
    if (!zero_size(&D.s, D.ndim))
      for (a = 0; a < D.ndim; a++)
        if (D.s.strides[a] == 0 && D.s.shape[a] > 1) must |= M_VALUE;
  }
  snapshot();
  if (!must) {
    memcpy(g_exp, g_snap, sizeof g_exp);
    memset(g_cov, 0, sizeof g_cov);
    visit(&S.s, S.ndim, &D.s, D.ndim, isz, NULL, 0, 0);
  }
  pre_call();
  st = mvs_copy(src, S.ndim, dst, D.ndim, isz);
  check_status(st, must, M_ALLOC);
  if (src) check_same(src, &S.s, sizeof S.s, "src");
  if (dst) check_same(dst, &D.s, sizeof D.s, "dst");
  check_arenas(st == MVS_OK && !must, &S.s, S.ndim, &D.s, D.ndim, isz, NULL, 0);
  slots_done();
}

void op_fill(void) {
  pv_t D;
  ptrdiff_t isz = one_in(16) ? gen_itemsize() : g_pv[below(NV)].isz;
  mvs_slice *dst;
  unsigned char item[64];
  const unsigned char *ip;
  unsigned must = 0, r;
  int st, k;
  ctx("mvs_fill");
  mem_view(&D, isz, 1);
  for (k = 0; k < 8; k++) { /* zero bytes often: memset's path */
    uint64_t w = one_in(3) ? 0 : u64();
    memcpy(item + 8 * k, &w, sizeof w);
  }
  r = below(8);
  if (isz > 0 && isz <= 64 && r < 5) {
    unsigned char *p = slot_put(SL_ITEM, (size_t)isz, 1);
    memcpy(p, item, (size_t)isz);
    ip = p;
  } else if (isz > 0 && isz <= 64 && r < 7) { /* an item in the arenas, maybe one of dst */
    size_t off;
    int w = !view_errs(&D.s, D.ndim) && !zero_size(&D.s, D.ndim) && D.s.data && arena_at(D.s.data, (size_t)isz, &off) >= 0 && one_in(2)
                ? arena_at(D.s.data, (size_t)isz, &off)
                : (off = below((unsigned)(ARENA - (size_t)isz + 1)), (int)below(2));
    ip = g_ar[w] + off;
    memcpy(item, ip, (size_t)isz);
  } else {
    ip = one_in(4) ? NULL : item;
  }
  dst = slot_put(SL_SRC2, sizeof *dst, 8);
  *dst = D.s;
  if (one_in(48)) dst = NULL;
  ctx_v("dst", dst ? &D.s : NULL, D.ndim);
  ctx_i("itemsize", isz), ctx_i("item", (long long)(uintptr_t)ip);
  must = dst ? view_errs(&D.s, D.ndim) : M_NULL;
  if (!ip) must |= M_NULL;
  if (isz <= 0) must |= M_ITEM;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    i128 lo, hi;
    if (!direct_of(&D.s, D.ndim)) must |= M_IND;
    if (isz > 0 && !extent_of(&D.s, D.ndim, isz, &lo, &hi)) must |= M_OVF;
  }
  snapshot();
  if (!must) {
    memcpy(g_exp, g_snap, sizeof g_exp);
    memset(g_cov, 0, sizeof g_cov);
    visit(NULL, 0, &D.s, D.ndim, isz, item, 1, 0);
  }
  pre_call();
  st = mvs_fill(dst, D.ndim, isz, ip);
  check_status(st, must, 0);
  if (dst) check_same(dst, &D.s, sizeof D.s, "dst");
  check_arenas(st == MVS_OK && !must, NULL, 0, &D.s, D.ndim, isz, item, 1);
  slots_done();
}
