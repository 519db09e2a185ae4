/* Fuzzing buffers (alloc, wrap, references, attachments, queries, views, buffer_of) and
 * mvs_copy_contiguous, against a model of their reference counts. */
#include "harness.h"

/* ---- buffers: the model ---------------------------------------------------------------------- */

brec_t g_b[NB];
const char g_keys[4] = {0};

static void on_dealloc(void *data, void *ctxp) {
  brec_t *r = (brec_t *)ctxp;
  int i;
  if (r < g_b || r >= g_b + NB) fail("the deallocation callback got a context %p that is no buffer's", ctxp);
  if (data != (void *)r->data) fail("the deallocation callback got data %p, the buffer wraps %p", data, (void *)r->data);
  if (!r->expect_free) fail("the deallocation callback ran while the buffer had references (%td, memory %td)", r->refs, r->mrefs);
  for (i = 0; i < r->natt; i++)
    if (r->att[i].has_detach && r->att[i].calls != 1) fail("the memory was freed before attachment %d was detached", i);
  r->deallocs++;
}
static void on_detach(void *value) {
  att_t *a = (att_t *)value;
  brec_t *r;
  if ((void *)a < (void *)g_b || (void *)a >= (void *)(g_b + NB)) fail("a detach callback got %p, not an attached value", value);
  r = &g_b[a->owner];
  if (r->refs != 0) fail("a detach callback ran while the buffer had %td references", r->refs);
  if (r->deallocs) fail("a detach callback ran after the memory was freed");
  a->calls++;
  if (a->calls > 1) fail("a detach callback ran twice");
  if (a->memref) { /* the value held a memory reference: give it back, as a binding's owner does */
    a->memref = 0;
    r->mrefs--;
    mvs_buffer_release_memory(r->b);
  }
}

brec_t *free_brec(void) {
  int i;
  for (i = 0; i < NB; i++)
    if (g_b[i].state == 0) return &g_b[i];
  return NULL;
}
/* A buffer this program holds a reference to (state 1, held > 0), or NULL. */
static brec_t *pick_held(void) {
  int i, k = (int)below(NB);
  for (i = 0; i < NB; i++) {
    brec_t *r = &g_b[(k + i) % NB];
    if (r->state == 1 && r->held > 0) return r;
  }
  return NULL;
}
brec_t *brec_of(const mvs_buffer *b) {
  int i;
  for (i = 0; i < NB; i++)
    if (g_b[i].state && g_b[i].b == b) return &g_b[i];
  return NULL;
}
brec_t *init_brec(brec_t *r, mvs_buffer *b, int kind, void *data, ptrdiff_t nbytes, int readonly) {
  memset(r, 0, sizeof *r);
  r->b = b;
  r->state = 1;
  r->kind = kind;
  r->refs = r->held = 1;
  r->data = (char *)data;
  r->nbytes = nbytes;
  r->readonly = readonly;
  r->pool = -1;
  return r;
}
/* The queries of a referenced buffer against the model. */
static void check_buffer(const brec_t *r) {
  void *d = NULL;
  ptrdiff_t n = -1, c = -1;
  int ro = -1, st;
  st = mvs_buffer_data(r->b, &d);
  if (st != MVS_OK || d != (void *)r->data) fail("mvs_buffer_data gave %s %p, the model %p", stname(st), d, (void *)r->data);
  st = mvs_buffer_size(r->b, &n);
  if (st != MVS_OK || n != r->nbytes) fail("mvs_buffer_size gave %s %td, the model %td", stname(st), n, r->nbytes);
  st = mvs_buffer_readonly(r->b, &ro);
  if (st != MVS_OK || ro != r->readonly) fail("mvs_buffer_readonly gave %s %d, the model %d", stname(st), ro, r->readonly);
  if (r->state == 1) {
    st = mvs_buffer_refcount(r->b, &c);
    if (st != MVS_OK || c != r->refs) fail("mvs_buffer_refcount gave %s %td, the model %td", stname(st), c, r->refs);
  }
}
/* Gives back one reference, the model's expectations of a last release set first. */
void release_ref(brec_t *r) {
  int i, pending = 0, last = r->refs == 1;
  ctx_i("refs before", r->refs);
  if (last) {
    for (i = 0; i < r->natt; i++) pending += r->att[i].memref && r->att[i].has_detach;
    r->expect_free = r->mrefs - pending == 0;
  }
  r->refs--;
  pre_call();
  mvs_buffer_release(r->b);
  check_void_call();
  if (!last) {
    if (r->deallocs) fail("freed the memory with %td references left", r->refs);
    return;
  }
  for (i = 0; i < r->natt; i++)
    if (r->att[i].has_detach && r->att[i].calls != 1) fail("attachment %d was detached %d times at the last release", i, r->att[i].calls);
  if (r->has_dealloc && r->deallocs != (r->expect_free ? 1 : 0))
    fail("the deallocation callback ran %d times at the last release (memory references left: %td)", r->deallocs, r->mrefs);
  r->state = r->mrefs > 0 ? 2 : 0;
}
void release_mem(brec_t *r) {
  int last = r->state == 2 && r->mrefs == 1;
  r->expect_free = last;
  r->mrefs--;
  pre_call();
  mvs_buffer_release_memory(r->b);
  check_void_call();
  if (r->has_dealloc && r->deallocs != (last ? 1 : 0)) fail("the deallocation callback ran %d times (last memory reference: %d)", r->deallocs, last);
  if (last) r->state = 0;
}

void op_buffer_new(void) {
  /* Sizes refused before any allocation; and, rarely (ASan warns of each), sizes the allocator
   * refuses (MVS_ERR_ALLOC). */
  static const ptrdiff_t bad_n[] = {-1, -5, PTRDIFF_MAX, PTRDIFF_MAX - 63, PTRDIFF_MIN, PTRDIFF_MAX - 8};
  static const ptrdiff_t bad_a[] = {0, -8, 3, 12, (ptrdiff_t)1 << 62, PTRDIFF_MIN, PTRDIFF_MAX, 48};
  static const ptrdiff_t huge_n[] = {(ptrdiff_t)1 << 62, (ptrdiff_t)1 << 47, PTRDIFF_MAX - 4096};
  mvs_buffer **out;
  unsigned must = 0, tol = 0;
  int st, wrap = one_in(2), flags, use_dealloc = 0;
  ptrdiff_t nbytes, align = 1;
  char *data = NULL;
  brec_t *r = NULL;
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *out, sizeof *out);
  if (out) memset(out, SENT, sizeof *out);
  if (!out) must |= M_NULL;
  if (!wrap) {
    i128 rounded, a;
    ctx("mvs_buffer_alloc");
    nbytes = one_in(8) ? bad_n[below(6)] : one_in(4) ? (ptrdiff_t)below(8192) : (ptrdiff_t)below(512);
    align = one_in(10) ? bad_a[below(8)] : (ptrdiff_t)1 << below(13);
    if (one_in(64) && one_in(128) && fuzz_huge_allocs) nbytes = huge_n[below(3)];
    if (one_in(64) && one_in(128) && fuzz_huge_allocs) align = (ptrdiff_t)1 << 47;
    flags = one_in(12) ? (int)below(8) - 1 : (int)below(2);
    ctx_i("nbytes", nbytes), ctx_i("alignment", align), ctx_i("flags", flags);
    if (flags & ~MVS_BUFFER_ZEROED) must |= M_VALUE;
    if (nbytes < 0) must |= M_SHAPE;
    if (align <= 0 || (align & (align - 1))) must |= M_VALUE;
    if (!(must & (M_SHAPE | M_VALUE))) {
      a = align;
      rounded = ((i128)nbytes + a - 1) / a * a;
      if (rounded > PMAX) must |= M_OVF;
      else if (rounded + a + 256 > PMAX) tol |= M_OVF;
      if (!(must & M_OVF) && rounded + a >= ((i128)1 << 46)) must |= M_ALLOC, tol |= M_OVF;
    }
    pre_call();
    st = mvs_buffer_alloc(nbytes, align, flags, out);
  } else {
    unsigned rr = below(8);
    ctx("mvs_buffer_wrap");
    if (rr < 5) {
      size_t off = below(ARENA);
      data = (char *)g_ar[below(2)] + off;
      nbytes = (ptrdiff_t)below((unsigned)(ARENA - off + 1));
    } else if (rr == 5) {
      data = NULL;
      nbytes = one_in(3) ? 1 + (ptrdiff_t)below(9) : 0;
    } else if (rr == 6) {
      data = gen_wild_data();
      nbytes = (ptrdiff_t)(u64() >> 1); /* never touched: views of it are for derivations only */
    } else {
      data = (char *)g_ar[0];
      nbytes = one_in(2) ? -1 : huge();
    }
    flags = one_in(12) ? (int)below(8) - 1 : one_in(3) ? MVS_BUFFER_READONLY : 0;
    ctx_i("data", (long long)(uintptr_t)data), ctx_i("nbytes", nbytes), ctx_i("flags", flags);
    if (flags & ~MVS_BUFFER_READONLY) must |= M_VALUE;
    if (nbytes < 0) must |= M_SHAPE;
    if (!data && nbytes > 0) must |= M_NULL;
    tol |= M_ALLOC;
    r = free_brec(); /* the record the callback counts in (NULL: no callback) */
    use_dealloc = r && !one_in(4);
    if (r) {
      memset(r, 0, sizeof *r);
      r->data = data;
    }
    pre_call();
    st = mvs_buffer_wrap(data, nbytes, use_dealloc ? on_dealloc : NULL, r, flags, out);
    if (r && r->deallocs) fail("called the deallocation callback inside mvs_buffer_wrap");
  }
  check_status(st, must, tol);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must) {
    mvs_buffer *b = *out;
    if (!b) fail("gave a NULL buffer");
    if (!wrap) {
      void *d = NULL;
      if (mvs_buffer_data(b, &d) != MVS_OK || ((uintptr_t)d & (uintptr_t)(align - 1))) fail("the data pointer %p is not aligned to %td", d, align);
      if (flags & MVS_BUFFER_ZEROED) {
        ptrdiff_t i;
        for (i = 0; i < nbytes; i++)
          if (((unsigned char *)d)[i]) fail("byte %td of a zeroed buffer is 0x%02x", i, ((unsigned char *)d)[i]);
      }
      memset(d, 0x3C, (size_t)nbytes); /* writable, all of it (ASan knows where the block ends) */
      r = free_brec();
      if (r) init_brec(r, b, BK_ALLOC, d, nbytes, 0);
    } else if (r) {
      init_brec(r, b, BK_WRAP, data, nbytes, (flags & MVS_BUFFER_READONLY) != 0);
      r->has_dealloc = use_dealloc;
    }
    if (r) {
      check_buffer(r);
    } else {
      pre_call();
      mvs_buffer_release(b); /* no record left: given back at once (no callback) */
      check_void_call();
    }
  }
  slots_done();
}

/* A held buffer, made first when there is none (most of the time). */
static brec_t *want_held(void) {
  brec_t *r = pick_held();
  int tries;
  for (tries = 0; !r && tries < 3 && !one_in(8); tries++) {
    op_buffer_new();
    r = pick_held();
  }
  return r;
}

/* retain, release, retain_memory, release_memory (also of NULL). */
void op_buffer_ref(void) {
  brec_t *r = want_held();
  unsigned k = below(8);
  int st, i;
  if (k == 0 || !r) { /* the NULL cases */
    ctx(k & 1 ? "mvs_buffer_retain" : "mvs_buffer_retain_memory");
    pre_call();
    st = k & 1 ? mvs_buffer_retain(NULL) : mvs_buffer_retain_memory(NULL);
    check_status(st, M_NULL, 0);
    ctx("mvs_buffer_release(NULL)");
    pre_call();
    mvs_buffer_release(NULL);
    mvs_buffer_release_memory(NULL);
    check_void_call();
    return;
  }
  ctx_i("buffer record", r - g_b);
  if (k < 3) {
    ctx("mvs_buffer_retain");
    pre_call();
    st = mvs_buffer_retain(r->b);
    check_status(st, 0, 0);
    r->refs++, r->held++;
  } else if (k < 5) {
    ctx("mvs_buffer_release");
    r->held--;
    release_ref(r);
    if (r->state == 2)
      while (r->mrefs > 0 && one_in(2)) release_mem(r);
    return;
  } else if (k < 7) {
    ctx("mvs_buffer_retain_memory");
    pre_call();
    st = mvs_buffer_retain_memory(r->b);
    check_status(st, 0, 0);
    r->mrefs++;
  } else {
    ptrdiff_t owned = 0;
    ctx("mvs_buffer_release_memory");
    for (i = 0; i < r->natt; i++) owned += r->att[i].memref; /* those are the attachments' */
    if (r->mrefs > owned) release_mem(r);
  }
  if (r->state) check_buffer(r);
}

void op_buffer_attach(void) {
  brec_t *r = want_held();
  const void *key = &g_keys[below(4)];
  void *value, **out;
  att_t *a;
  int st, i, found = -1, detach = !one_in(4), memref = 0, nullb = one_in(32);
  unsigned must = 0;
  ctx("mvs_buffer_attach");
  if (!r || r->natt >= NATT) return;
  a = &r->att[r->natt];
  memset(a, 0, sizeof *a);
  a->key = key;
  a->owner = (int)(r - g_b);
  a->has_detach = detach;
  value = a;
  if (one_in(32)) key = NULL;
  if (one_in(32)) value = NULL;
  out = one_in(32) ? NULL : slot_put(SL_OUT2, sizeof *out, sizeof *out);
  if (out) memset(out, SENT, sizeof *out);
  for (i = 0; i < r->natt; i++)
    if (r->att[i].key == key) found = i;
  if (nullb || !key || !value || !out) must |= M_NULL;
  if (!must && found < 0 && detach && one_in(2)) { /* the value will own a memory reference */
    pre_call();
    st = mvs_buffer_retain_memory(r->b);
    check_status(st, 0, 0);
    r->mrefs++;
    a->memref = memref = 1;
  }
  ctx_i("buffer record", r - g_b), ctx_i("key", key ? (const char *)key - g_keys : -1), ctx_i("detach", detach), ctx_i("already attached at", found);
  pre_call();
  st = mvs_buffer_attach(nullb ? NULL : r->b, key, value, detach ? on_detach : NULL, out);
  check_status(st, must, M_ALLOC);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must) {
    void *want = found >= 0 ? (void *)&r->att[found] : value;
    if (*out != want) fail("gave %p, the value attached under the key is %p", *out, want);
    if (found < 0) r->natt++;
  }
  if (memref && (st != MVS_OK || found >= 0)) { /* not attached: the reference is ours to give back */
    a->memref = 0;
    release_mem(r);
  }
  slots_done();
}

void op_buffer_query(void) {
  static const char *const names[] = {"mvs_buffer_data", "mvs_buffer_size", "mvs_buffer_readonly", "mvs_buffer_refcount", "mvs_buffer_attached", "mvs_buffer_attached"};
  brec_t *r = want_held();
  unsigned k = below(6);
  int st, i, nullb = one_in(24) || !r, nullo = one_in(24), *oi = NULL;
  const void *key = &g_keys[below(4)];
  void **op = NULL, *want = NULL;
  ptrdiff_t *on = NULL;
  size_t n = k == 2 ? sizeof(int) : sizeof(void *);
  void *o = nullo ? NULL : slot_put(SL_OUT2, n, n);
  mvs_buffer *b = nullb ? NULL : r->b;
  ctx(names[k]);
  if (o) memset(o, SENT, n);
  if (k == 1 || k == 3) on = (ptrdiff_t *)o; else if (k == 2) oi = (int *)o; else op = (void **)o;
  if (k == 5) key = one_in(2) ? NULL : &g_keys[below(4)];
  pre_call();
  switch (k) {
    case 0: st = mvs_buffer_data(b, op); break;
    case 1: st = mvs_buffer_size(b, on); break;
    case 2: st = mvs_buffer_readonly(b, oi); break;
    case 3: st = mvs_buffer_refcount(b, on); break;
    default: st = mvs_buffer_attached(b, key, op); break;
  }
  check_status(st, nullb || nullo ? M_NULL : 0, 0);
  check_out_failed(st, o, n, "its output");
  if (st == MVS_OK && !nullb && !nullo) {
    switch (k) {
      case 0: if (*op != (void *)r->data) fail("gave %p, the model %p", *op, (void *)r->data); break;
      case 1: if (*on != r->nbytes) fail("gave %td, the model %td", *on, r->nbytes); break;
      case 2: if (*oi != r->readonly) fail("gave %d, the model %d", *oi, r->readonly); break;
      case 3: if (*on != r->refs) fail("gave %td, the model %td", *on, r->refs); break;
      default:
        for (i = 0; i < r->natt; i++)
          if (r->att[i].key == key) want = &r->att[i];
        if (*op != want) fail("gave %p under key %p, the model %p", *op, key, want);
    }
  }
  slots_done();
}

void op_buffer_view(void) {
  brec_t *r = want_held();
  int at = one_in(2), n = one_in(12) ? gen_ndim() : (int)below(4), order = gen_order(), writable = one_in(2) ? 0 : one_in(4) ? -3 : 1;
  int m = n < 0 ? 0 : n > 16 ? 16 : n, k, st, nullb = one_in(32) || !r;
  ptrdiff_t isz = one_in(12) ? gen_itemsize() : pick_isz(), offset = 0, tmp[16], *shape = NULL, cs[MAXD];
  mvs_slice *out, e;
  unsigned must = 0;
  i128 need;
  ctx(at ? "mvs_buffer_view_at" : "mvs_buffer_view");
  if (at) offset = one_in(8) ? gen_bound(8) : (ptrdiff_t)below(8);
  for (k = 0; k < m; k++) tmp[k] = one_in(10) ? gen_extent() : (ptrdiff_t)below(6);
  shape = shape_arg(tmp, m);
  out = out_slice();
  ctx_i("buffer record", r ? r - g_b : -1), ctx_i("itemsize", isz), ctx_i("ndim", n), ctx_i("order", order), ctx_i("offset", offset), ctx_i("writable", writable);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  if (nullb || !out) must |= M_NULL;
  if (r && at && writable && r->readonly) must |= M_VALUE;
  if (n < 0 || n > MAXD) {
    must |= M_NDIM;
  } else if (n > 0 && !shape) {
    must |= M_NULL;
  } else {
    if (isz <= 0) must |= M_ITEM;
    if (order != 'C' && order != 'F') must |= M_VALUE;
    int negext = 0;
    for (k = 0; k < n; k++)
      if (tmp[k] < 0) must |= M_SHAPE, negext = 1;
    if (offset < 0) must |= M_SHAPE;
    if (isz > 0 && !negext) {
      i128 skip = (i128)offset * isz;
      if (!contig_strides(tmp, n, isz, order == 'F' ? 'F' : 'C', cs)) must |= M_OVF;
      need = smul(items_of(tmp, n), isz);
      if ((offset >= 0 && !FITS(skip)) || need > PMAX || (offset >= 0 && need + skip > PMAX)) must |= M_OVF;
      if (!must && r && !nullb && need + skip > r->nbytes) must |= M_BOUNDS;
      if (!must) {
        e = empty_view(addr_add(r->data, skip), r->b);
        for (k = 0; k < n; k++) e.shape[k] = tmp[k], e.strides[k] = cs[k];
      }
    }
  }
  pre_call();
  st = at ? mvs_buffer_view_at(nullb ? NULL : r->b, offset, isz, n, shape, order, writable, out) : mvs_buffer_view(nullb ? NULL : r->b, isz, n, shape, order, out);
  check_status(st, must, 0);
  check_same(shape, tmp, (size_t)m * sizeof *shape, "shape");
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must) {
    check_view_result(NULL, 0, out, &e, n, 0, isz, "the view");
    store_view(out, n, isz);
  }
  slots_done();
}

void op_buffer_of(void) {
  const pv_t *v = &g_pv[below(NV)];
  mvs_slice *s;
  mvs_buffer **out;
  unsigned must = 0;
  int st;
  ctx("mvs_buffer_of");
  s = slot_put(SL_SRC, sizeof *s, 8);
  *s = v->s;
  if (one_in(32)) s = NULL;
  if (one_in(8) && s) s->memview = NULL;
  out = one_in(32) ? NULL : slot_put(SL_OUT2, sizeof *out, sizeof *out);
  if (out) memset(out, SENT, sizeof *out);
  if (!s || !out) must |= M_NULL;
  if (s && !s->memview) must |= M_VALUE;
  ctx_i("memview", s ? (long long)(uintptr_t)s->memview : 0);
  pre_call();
  st = mvs_buffer_of(s, out);
  check_status(st, must, 0);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && (void *)*out != s->memview) fail("gave %p, the view's memview is %p", (void *)*out, s->memview);
  slots_done();
}

void op_copy_contiguous(void) {
  pv_t S;
  ptrdiff_t isz = one_in(16) ? gen_itemsize() : g_pv[below(NV)].isz, cs[MAXD];
  int order = gen_order(), st, k;
  mvs_slice *src, *ov;
  mvs_buffer **ob;
  unsigned must = 0;
  i128 lo, hi, bytes = 0;
  ctx("mvs_copy_contiguous");
  mem_view(&S, isz, 0);
  src = slot_put(SL_SRC, sizeof *src, 8);
  *src = S.s;
  if (one_in(48)) src = NULL;
  ov = out_slice();
  ob = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *ob, sizeof *ob);
  if (ob) memset(ob, SENT, sizeof *ob);
  ctx_v("src", src ? &S.s : NULL, S.ndim);
  ctx_i("itemsize", isz), ctx_i("order", order);
  must = (src ? view_errs(&S.s, S.ndim) : M_NULL) | (ov && ob ? 0 : M_NULL);
  if (isz <= 0) must |= M_ITEM;
  if (order != 'C' && order != 'F') must |= M_VALUE;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    if (!direct_of(&S.s, S.ndim)) must |= M_IND;
    if (isz > 0) {
      bytes = smul(items_of(S.s.shape, S.ndim), isz);
      if (!extent_of(&S.s, S.ndim, isz, &lo, &hi) || bytes > PMAX || !contig_strides(S.s.shape, S.ndim, isz, 'C', cs)) must |= M_OVF;
      if (!must && (order == 'C' || order == 'F')) contig_strides(S.s.shape, S.ndim, isz, order, cs);
    }
  }
  snapshot();
  pre_call();
  st = mvs_copy_contiguous(src, S.ndim, isz, order, ob, ov);
  check_status(st, must, M_ALLOC);
  if (src) check_same(src, &S.s, sizeof S.s, "src");
  check_out_failed(st, ov, sizeof *ov, "out_view");
  check_out_failed(st, ob, sizeof *ob, "out_buffer");
  check_arenas(0, NULL, 0, NULL, 0, 0, NULL, 0);
  if (st == MVS_OK && !must) {
    mvs_buffer *b = *ob;
    mvs_slice e = empty_view(NULL, b);
    ptrdiff_t idx[MAXD] = {0}, size = -1, refs = -1;
    void *d = NULL;
    brec_t *r;
    if (mvs_buffer_data(b, &d) != MVS_OK || mvs_buffer_size(b, &size) != MVS_OK || mvs_buffer_refcount(b, &refs) != MVS_OK)
      fail("the new buffer does not answer its queries");
    if ((uintptr_t)d % 64) fail("the new buffer's memory at %p is not aligned to 64 bytes", d);
    if (size != bytes || refs != 1) fail("the new buffer has %td bytes and %td references, want %lld and 1", size, refs, (long long)bytes);
    e.data = (char *)d;
    for (k = 0; k < S.ndim; k++) e.shape[k] = S.s.shape[k], e.strides[k] = cs[k];
    check_view_result(NULL, 0, ov, &e, S.ndim, 0, isz, "the view of the copy");
    if (!zero_size(&S.s, S.ndim)) do { /* every item, in order */
        size_t off = 0;
        const char *sp = elem_addr(&S.s, S.ndim, idx), *dp = elem_addr(ov, S.ndim, idx);
        int w = arena_at(sp, (size_t)isz, &off);
        if (w < 0) fail("fuzzer: a source item is outside the arenas");
        if (dp < (const char *)d || dp + isz > (const char *)d + size) fail("an item of the copy's view lies outside its buffer");
        if (memcmp(dp, &g_snap[w][off], (size_t)isz) != 0) fail("an item of the copy differs from the source's");
      } while (next_idx(idx, S.s.shape, S.ndim));
    r = free_brec();
    if (r) {
      init_brec(r, b, BK_COPY, d, size, 0);
      store_view(ov, S.ndim, isz);
    } else {
      pre_call();
      mvs_buffer_release(b);
      check_void_call();
    }
  }
  slots_done();
}
