/* Fuzzing the inline paths of include/mvs_inline.h beside the library's calls: every MVS_INLINE_*
 * derivation and mvs_inline_view_contiguous, run on the same arguments as the library's call
 * just made, both from the derivation ops (program views, the fuzzer's arguments: the hooks
 * below) and from op_inline (hostile sources: extents at MVS_USUAL_EXTENT_LIMIT and around it,
 * strides at and around +-MVS_USUAL_STRIDE_LIMIT and near +-2^62, indirect and junk
 * suboffsets, ndim and nitems out of range, junk past ndim). Oracles, for each macro:
 * - it takes the case (ok = 1) exactly when its comment in mvs_inline.h says so, on the
 *   usual view as memviewslice.h defines it with MVS_USUAL_EXTENT_LIMIT and
 *   MVS_USUAL_STRIDE_LIMIT (a bound off by one in the header's test is a failure even where
 *   the library would give the same bytes);
 * - when it takes the case, the library's call succeeded, and the destination holds exactly
 *   the library's 208 bytes (and MVS_INLINE_INDEX's out_ndim is the library's);
 * - when it declines, every byte of the destination (and out_ndim) is unchanged;
 * - the source is unchanged (unless it is the destination), and neither object is overrun (both
 *   lie flush against guard pages like the library's);
 * - `dst` is `src` (in place) as often as the library's call is in place, but for the
 *   transpose, whose header forbids it.
 * mvs_inline_view_contiguous: the library's status, output bytes (from the same sentinel) and
 * mvs_last_error() message. The macros do C pointer arithmetic on `data`, which a view of real
 * memory never makes wrap: they run on sources whose data address is in the arenas or the
 * pointer table, or in op_inline at 2^62 (no offset of a usual view wraps it). */
#include "harness.h"
#include "mvs_inline.h"

enum { IN_SLICE_AXIS, IN_INDEX_AXIS, IN_INDEX, IN_TRANSPOSE, IN_SUBVIEW, IN_CONTIGUOUS, NIN };
static const char *const IN_NAME[NIN] = {"MVS_INLINE_SLICE_AXIS", "MVS_INLINE_INDEX_AXIS", "MVS_INLINE_INDEX",
                                         "MVS_INLINE_TRANSPOSE",  "MVS_INLINE_SUBVIEW",    "mvs_inline_view_contiguous"};
/* Cases taken inline, declined, and not run (a source the macros may not be given). */
static unsigned long g_taken[NIN], g_declined[NIN], g_notrun[NIN];

/* The usual view of memviewslice.h: 0..=8 axes, each direct with an extent in
 * 0..MVS_USUAL_EXTENT_LIMIT and a stride in -MVS_USUAL_STRIDE_LIMIT..MVS_USUAL_STRIDE_LIMIT. */
static int usual(const mvs_slice *s, int n) {
  int k;
  if (n < 0 || n > MAXD) return 0;
  for (k = 0; k < n; k++)
    if (s->suboffsets[k] >= 0 || s->shape[k] < 0 || s->shape[k] >= MVS_USUAL_EXTENT_LIMIT ||
        s->strides[k] < -(ptrdiff_t)MVS_USUAL_STRIDE_LIMIT || s->strides[k] >= MVS_USUAL_STRIDE_LIMIT)
      return 0;
  return 1;
}

/* Whether the macros may be given this source: its data address in memory of the program (or
 * op_inline's middle of the address space), so that their pointer arithmetic cannot wrap. */
static int real_data(const mvs_slice *s) {
  size_t off;
  uintptr_t p = (uintptr_t)s->data, mid = (uintptr_t)1 << 62;
  return arena_at(s->data, 1, &off) >= 0 || (p >= (uintptr_t)g_table && p < (uintptr_t)g_table + TABLE) ||
         (p >= mid && p - mid < 4096);
}

/* The inline side of a case: its source (a copy of the library's source before the call, in
 * SL_SRC2) and its destination (the source itself when the library's call was in place, but for
 * the transpose; else SL_OUT3 filled with the sentinel, as the library's output was). */
typedef struct {
  const dc_t *d;
  int which;
  mvs_slice *src, *dst, before;
} icase_t;

static int in_begin(icase_t *c, const dc_t *d, int which) {
  c->d = d;
  c->which = which;
  if (!real_data(&d->sv)) {
    g_notrun[which]++;
    return 0;
  }
  c->src = slot_put(SL_SRC2, sizeof *c->src, 8);
  *c->src = d->sv;
  if (d->inplace && which != IN_TRANSPOSE) {
    c->dst = c->src;
  } else {
    c->dst = slot_put(SL_OUT3, sizeof *c->dst, 8);
    memset(c->dst, SENT, sizeof *c->dst);
  }
  c->before = *c->dst;
  return 1;
}

/* Names the first field where two views' bytes differ. */
static const char *field_at(const mvs_slice *a, const mvs_slice *b, int *k) {
  const ptrdiff_t *x = (const ptrdiff_t *)(const void *)a, *y = (const ptrdiff_t *)(const void *)b;
  int i;
  for (i = 0; i < (int)(sizeof *a / sizeof *x); i++)
    if (memcmp(&x[i], &y[i], sizeof *x) != 0) break;
  *k = i < 2 ? 0 : (i - 2) % MAXD;
  return i == 0 ? "memview" : i == 1 ? "data" : i < 2 + MAXD ? "shape" : i < 2 + 2 * MAXD ? "strides" : "suboffsets";
}

/* The oracles, once the macro has run: `ok` its verdict, `want` the header's, `st` the library's
 * status; `on`/`lib_on` the out_ndim of MVS_INLINE_INDEX (else NULL). */
static void in_end(icase_t *c, int ok, int want, int st, const int *on, int on_before, const int *lib_on) {
  const dc_t *d = c->d;
  const char *name = IN_NAME[c->which];
  int k;
  if (ok != 0 && ok != 1) fail("%s set ok to %d", name, ok);
  if (ok != want)
    fail("%s %s the case, which its comment in mvs_inline.h says it %s", name, ok ? "took" : "declined",
         want ? "takes" : "declines");
  if (!ok) {
    g_declined[c->which]++;
    if (memcmp(c->dst, &c->before, sizeof *c->dst) != 0) fail("%s declined and wrote its destination", name);
    if (on && *on != on_before) fail("%s declined and wrote out_ndim", name);
  } else {
    g_taken[c->which]++;
    /* The library's result is there to compare when it had a source and outputs. */
    if (d->src && d->out && (!on || lib_on)) {
      if (st != MVS_OK) fail("%s took a case the library refuses with %s", name, stname(st));
      if (memcmp(c->dst, d->out, sizeof *c->dst) != 0) {
        const char *f = field_at(c->dst, d->out, &k);
        fail("%s gave other bytes than the library: %s[%d] (axis %d)", name, f, k, k);
      }
      if (on && lib_on && *on != *lib_on) fail("%s gave out_ndim %d, the library %d", name, *on, *lib_on);
    }
  }
  if (c->dst != c->src && memcmp(c->src, &d->sv, sizeof d->sv) != 0) fail("%s changed its source", name);
}

static int axis_of(int axis, int n, int *a) {
  *a = axis < 0 ? (int)((long long)axis + n) : axis;
  return *a >= 0 && *a < n;
}

/* ---- the hooks: each runs one macro beside the library's call that an op just made ---------- */

void inline_slice_axis(const dc_t *d, int axis, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, int st) {
  icase_t c;
  int ok, a, n = d->ndim, want;
  if (!in_begin(&c, d, IN_SLICE_AXIS)) return;
  want = n >= 1 && axis_of(axis, n, &a) && step != 0 && usual(&d->sv, n);
  if (c.dst == c.src) MVS_INLINE_SLICE_AXIS(*c.dst, *c.dst, n, axis, start, stop, step, ok);
  else MVS_INLINE_SLICE_AXIS(*c.dst, *c.src, n, axis, start, stop, step, ok);
  in_end(&c, ok, want, st, NULL, 0, NULL);
}

void inline_index_axis(const dc_t *d, int axis, ptrdiff_t index, int st) {
  icase_t c;
  int ok, a, n = d->ndim, want;
  if (!in_begin(&c, d, IN_INDEX_AXIS)) return;
  want = n >= 1 && axis_of(axis, n, &a) && usual(&d->sv, n);
  if (want) {
    ptrdiff_t i = index < 0 ? index + d->sv.shape[a] : index;
    want = i >= 0 && i < d->sv.shape[a];
  }
  if (c.dst == c.src) MVS_INLINE_INDEX_AXIS(*c.dst, *c.dst, n, axis, index, ok);
  else MVS_INLINE_INDEX_AXIS(*c.dst, *c.src, n, axis, index, ok);
  in_end(&c, ok, want, st, NULL, 0, NULL);
}

void inline_index(const dc_t *d, const mvs_index_item *items, int nitems, int st, const int *lib_on) {
  icase_t c;
  int ok, k, n = d->ndim, want, on = -12345;
  if (!in_begin(&c, d, IN_INDEX)) return;
  want = nitems >= 0 && nitems <= n && (nitems == 0 || items) && usual(&d->sv, n);
  for (k = 0; want && k < nitems; k++) {
    if (items[k].kind == MVS_ITEM_INDEX) {
      ptrdiff_t len = d->sv.shape[k], i = items[k].start < 0 ? items[k].start + len : items[k].start;
      want = i >= 0 && i < len;
    } else {
      want = items[k].kind == MVS_ITEM_SLICE && items[k].step != 0;
    }
  }
  if (c.dst == c.src) MVS_INLINE_INDEX(*c.dst, *c.dst, n, items, nitems, on, ok);
  else MVS_INLINE_INDEX(*c.dst, *c.src, n, items, nitems, on, ok);
  in_end(&c, ok, want, st, &on, -12345, lib_on);
}

void inline_transpose(const dc_t *d, int st) {
  icase_t c;
  int ok, n = d->ndim;
  if (!in_begin(&c, d, IN_TRANSPOSE)) return;
  MVS_INLINE_TRANSPOSE(*c.dst, *c.src, n, ok);
  in_end(&c, ok, usual(&d->sv, n), st, NULL, 0, NULL);
}

/* MVS_INLINE_SUBVIEW's case, as its comment gives it. */
static int subview_taken(const mvs_slice *s, int n, ptrdiff_t isz, ptrdiff_t offset, int m, const ptrdiff_t *ext, int order) {
  i128 run = isz;
  int k, i;
  if (n < 1 || isz < 1 || isz > ((ptrdiff_t)1 << 20) || offset < 0 || offset >= ((ptrdiff_t)1 << 40) || m < 0 || m > MAXD ||
      (m > 0 && !ext) || (order != 'C' && order != 'F') || !usual(s, n))
    return 0;
  for (k = 0; k < n; k++) /* strictly C-contiguous */
    if ((i128)s->strides[k] != (k == n - 1 ? (i128)isz : (i128)s->strides[k + 1] * s->shape[k + 1])) return 0;
  for (i = 0; i < m; i++) { /* from the innermost axis out */
    k = order == 'C' ? m - 1 - i : i;
    if (ext[k] < 1 || ext[k] >= MVS_USUAL_EXTENT_LIMIT || run >= ((i128)1 << 32)) return 0;
    run *= ext[k];
  }
  return (i128)offset * isz + run <= (i128)s->shape[0] * s->strides[0];
}

void inline_subview(const dc_t *d, ptrdiff_t isz, ptrdiff_t offset, int m, const ptrdiff_t *ext, int order, int st) {
  icase_t c;
  int ok, n = d->ndim, want = subview_taken(&d->sv, d->ndim, isz, offset, m, ext, order);
  if (!in_begin(&c, d, IN_SUBVIEW)) return;
  if (c.dst == c.src) MVS_INLINE_SUBVIEW(*c.dst, *c.dst, n, isz, offset, m, ext, order, ok);
  else MVS_INLINE_SUBVIEW(*c.dst, *c.src, n, isz, offset, m, ext, order, ok);
  in_end(&c, ok, want, st, NULL, 0, NULL);
}

/* mvs_inline_view_contiguous beside the library's mvs_view_contiguous, just called with these
 * arguments (status st, output `out`, pre-filled with the sentinel, or NULL). */
void inline_view_contiguous(void *data, ptrdiff_t isz, int n, const ptrdiff_t *shape, int order, const mvs_slice *out, int st) {
  char msg[300];
  mvs_slice *o2 = NULL;
  int st2;
  snprintf(msg, sizeof msg, "%s", mvs_last_error());
  if (out) {
    o2 = slot_put(SL_OUT3, sizeof *o2, 8);
    memset(o2, SENT, sizeof *o2);
  }
  st2 = mvs_inline_view_contiguous(data, isz, n, shape, order, o2);
  if (st2 != st) fail("mvs_inline_view_contiguous returned %s, the library %s", stname(st2), stname(st));
  if (out && memcmp(o2, out, sizeof *o2) != 0) {
    int k;
    const char *f = field_at(o2, out, &k);
    fail("mvs_inline_view_contiguous wrote other bytes than the library: %s[%d]", f, k);
  }
  if (strcmp(msg, mvs_last_error()) != 0)
    fail("mvs_inline_view_contiguous left mvs_last_error() \"%s\", the library \"%s\"", mvs_last_error(), msg);
  if (st == MVS_OK) g_taken[IN_CONTIGUOUS]++;
  else g_declined[IN_CONTIGUOUS]++;
}

/* ---- op_inline: hostile sources, each path --------------------------------------------------- */

/* An extent: mostly small, often at the usual bound or beside it, sometimes negative or huge. */
static ptrdiff_t bound_extent(void) {
  unsigned r = below(16);
  if (r < 7) return (ptrdiff_t)below(5);
  if (r < 12) return (ptrdiff_t)MVS_USUAL_EXTENT_LIMIT - 1 + (ptrdiff_t)below(3);
  if (r == 12) return -1 - (ptrdiff_t)below(2);
  if (r == 13) return ((ptrdiff_t)1 << 32) + (ptrdiff_t)below(3) - 1;
  return gen_extent();
}

/* A stride: mostly a small multiple of the item size, often at +-MVS_USUAL_STRIDE_LIMIT or
 * beside it, sometimes near +-2^62 or any. */
static ptrdiff_t bound_stride(ptrdiff_t isz) {
  unsigned r = below(16);
  ptrdiff_t lim = MVS_USUAL_STRIDE_LIMIT, e = (ptrdiff_t)below(3) - 1;
  if (r < 6) return isz * small_signed(4);
  if (r < 9) return lim + e;
  if (r < 12) return -lim + e;
  if (r == 12) return ((ptrdiff_t)1 << 62) + e;
  if (r == 13) return -((ptrdiff_t)1 << 62) + e;
  if (r == 14) return 0;
  return huge();
}

/* A source of n axes (junk past them), strictly C-contiguous when `contig`. */
static void bound_source(mvs_slice *s, int n, ptrdiff_t isz, int contig) {
  int k, m = n < 0 ? 0 : n > MAXD ? MAXD : n;
  size_t run = (size_t)isz;
  s->memview = gen_token();
  s->data = (char *)((uintptr_t)1 << 62) + below(64) * 8;
  for (k = 0; k < MAXD; k++) {
    s->shape[k] = k < m ? bound_extent() : (ptrdiff_t)u64();
    s->strides[k] = k < m ? bound_stride(isz) : huge();
    s->suboffsets[k] = one_in(12) ? (ptrdiff_t)below(64) : one_in(12) ? MVS_NONE + (ptrdiff_t)below(4) : -1;
  }
  if (contig)
    for (k = m - 1; k >= 0; k--) { /* wraps for huge extents: a junk stride */
      s->strides[k] = (ptrdiff_t)run;
      run *= (size_t)s->shape[k];
    }
}

/* A call of the library on a hostile source (SL_SRC; the output in SL_OUT, or in place), its
 * status checked only for being a status (the model ops check the library's results), then the
 * macro beside it. */
void op_inline(void) {
  static const ptrdiff_t iszs[] = {1, 2, 4, 8, 16, 8, 3, (ptrdiff_t)1 << 20, ((ptrdiff_t)1 << 20) + 8, 0, -8};
  int path = (int)below(6), n = one_in(8) ? gen_ndim() : 1 + (int)below(MAXD), st, k, axis;
  ptrdiff_t isz = iszs[below(sizeof iszs / sizeof iszs[0])];
  dc_t d;
  mvs_slice *s;
  ctx("inline (a hostile source)");
  memset(&d, 0, sizeof d);
  bound_source(&d.sv, n, isz > 0 && isz <= 64 ? isz : 8, path == IN_SUBVIEW && !one_in(6));
  d.ndim = n;
  d.isz = isz;
  if (path == IN_INDEX_AXIS || path == IN_INDEX) /* no pointer stored behind an indirect axis */
    for (k = 0; k < MAXD; k++) d.sv.suboffsets[k] = d.sv.suboffsets[k] >= 0 ? -1 : d.sv.suboffsets[k];
  s = slot_put(SL_SRC, sizeof *s, 8);
  *s = d.sv;
  d.src = s;
  d.inplace = one_in(4);
  if (d.inplace) {
    d.out = s;
  } else {
    d.out = slot_put(SL_OUT, sizeof *d.out, 8);
    memset(d.out, SENT, sizeof *d.out);
  }
  ctx_v("src", &d.sv, n);
  ctx_i("path", path), ctx_i("in place", d.inplace);
  axis = gen_axis(n);
  switch (path) {
    case IN_SLICE_AXIS: {
      ptrdiff_t len = n >= 1 && n <= MAXD ? d.sv.shape[((axis % n) + n) % n] : 4;
      ptrdiff_t start = gen_bound(len), stop = gen_bound(len), step = one_in(4) ? huge() : gen_step();
      ctx_i("axis", axis), ctx_i("start", start), ctx_i("stop", stop), ctx_i("step", step);
      pre_call();
      st = mvs_slice_axis(d.src, n, axis, start, stop, step, d.out);
      check_status(st, 0, ~0u);
      inline_slice_axis(&d, axis, start, stop, step, st);
      break;
    }
    case IN_INDEX_AXIS: {
      ptrdiff_t len = n >= 1 && n <= MAXD ? d.sv.shape[((axis % n) + n) % n] : 4, index = gen_bound(len);
      ctx_i("axis", axis), ctx_i("index", index);
      pre_call();
      st = mvs_index_axis(d.src, n, axis, index, d.out);
      check_status(st, 0, ~0u);
      inline_index_axis(&d, axis, index, st);
      break;
    }
    case IN_INDEX: {
      int nit = one_in(8) ? (int)below(20) - 2 : n < 0 || n > MAXD ? 2 : (int)below((unsigned)n + 1), *on;
      mvs_index_item *items = NULL;
      if (nit > 0) {
        items = slot_put(SL_ARR1, (size_t)nit * sizeof *items, sizeof(ptrdiff_t));
        for (k = 0; k < nit; k++) {
          ptrdiff_t len = k < n && k < MAXD ? d.sv.shape[k] : 4;
          unsigned r = below(16);
          memset(&items[k], 0, sizeof items[k]);
          items[k].kind = r < 7 ? MVS_ITEM_INDEX : r < 14 ? MVS_ITEM_SLICE : r == 14 ? MVS_ITEM_NEWAXIS : MVS_ITEM_ELLIPSIS;
          items[k].start = gen_bound(len);
          items[k].stop = gen_bound(len);
          items[k].step = one_in(8) ? huge() : gen_step();
        }
        if (one_in(32)) items = NULL;
      }
      on = slot_put(SL_OUT2, sizeof *on, sizeof *on);
      memset(on, SENT, sizeof *on);
      ctx_i("nitems", nit);
      for (k = 0; k < nit && k < 6 && items; k++) ctx_i("item kind", items[k].kind), ctx_i("  start", items[k].start);
      pre_call();
      st = mvs_index(d.src, n, items, nit, d.out, on);
      check_status(st, 0, ~0u);
      inline_index(&d, items, nit, st, on);
      break;
    }
    case IN_TRANSPOSE:
      pre_call();
      st = mvs_transpose(d.src, n, d.out);
      check_status(st, 0, ~0u);
      inline_transpose(&d, st);
      break;
    case IN_SUBVIEW: {
      static const ptrdiff_t offs[] = {0, 1, 2, ((ptrdiff_t)1 << 40) - 1, (ptrdiff_t)1 << 40, -1, PTRDIFF_MAX};
      ptrdiff_t ext[16], offset = one_in(3) ? offs[below(7)] : (ptrdiff_t)below(64);
      int m = one_in(8) ? gen_ndim() : (int)below(MAXD + 1), order = one_in(8) ? gen_order() : one_in(2) ? 'C' : 'F';
      const ptrdiff_t *shape = NULL;
      for (k = 0; k < 16; k++) ext[k] = one_in(2) ? 1 + (ptrdiff_t)below(4) : bound_extent();
      if (m > 0) { /* up to 16 entries, flush against a guard page */
        size_t len = (size_t)(m < 16 ? m : 16) * sizeof *ext;
        ptrdiff_t *p = slot_put(SL_ARR1, len, sizeof *p);
        memcpy(p, ext, len);
        shape = one_in(32) ? NULL : p;
      }
      ctx_i("itemsize", isz), ctx_i("offset", offset), ctx_i("out_ndim", m), ctx_i("order", order);
      for (k = 0; k < m && k < MAXD; k++) ctx_i("  shape[k]", ext[k]);
      pre_call();
      st = mvs_subview(d.src, n, isz, offset, m, shape, order, d.out);
      check_status(st, 0, ~0u);
      inline_subview(&d, isz, offset, m, shape, order, st);
      break;
    }
    default: {
      ptrdiff_t *shape = NULL, ext[MAXD];
      int order = one_in(8) ? gen_order() : one_in(2) ? 'C' : 'F', m = n < 0 ? 0 : n > MAXD ? MAXD : n;
      mvs_slice *out = d.inplace ? NULL : d.out; /* in place: a NULL output */
      for (k = 0; k < MAXD; k++) ext[k] = bound_extent();
      if (m > 0) {
        shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
        memcpy(shape, ext, (size_t)m * sizeof *shape);
      }
      ctx_i("itemsize", isz), ctx_i("ndim", n), ctx_i("order", order);
      for (k = 0; k < m; k++) ctx_i("  shape[k]", ext[k]);
      pre_call();
      st = mvs_view_contiguous(d.sv.data, isz, n, shape, order, out);
      check_status(st, 0, ~0u);
      inline_view_contiguous(d.sv.data, isz, n, shape, order, out, st);
      break;
    }
  }
  slots_done();
}

void inline_report(void) {
  int k;
  for (k = 0; k < NIN; k++)
    fprintf(stderr, "  %-34s taken %lu, declined %lu, not run %lu\n", IN_NAME[k], g_taken[k], g_declined[k], g_notrun[k]);
}
