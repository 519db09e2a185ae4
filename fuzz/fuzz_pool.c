/* Fuzzing pools (create, acquire, acquire_slab, release, counts, destroy) against a model. */
#include "harness.h"

/* ---- pools ------------------------------------------------------------------------------------ */

prec_t g_p[NPL];
static unsigned char g_tag;

static int find_arr(const prec_t *p, const char *data) {
  int i;
  for (i = 0; i < p->narr; i++)
    if (p->arr[i].data == data) return i;
  return -1;
}
static void check_tag(const prec_t *p, int i, const char *when) {
  ptrdiff_t k;
  for (k = 0; k < p->bytes; k++)
    if ((unsigned char)p->arr[i].data[k] != p->arr[i].tag)
      fail("byte %td of an acquired array was overwritten %s (0x%02x, its holder wrote 0x%02x)", k, when, (unsigned char)p->arr[i].data[k], p->arr[i].tag);
}

void op_pool_create(void) {
  static const ptrdiff_t big[] = {PTRDIFF_MAX, PTRDIFF_MAX / 8 + 1, (ptrdiff_t)1 << 61, (ptrdiff_t)1 << 45, -1, PTRDIFF_MIN};
  /* (huge arrays get a capacity rarely: ASan warns of each allocation it refuses) */
  static const ptrdiff_t bad_cap[] = {-1, PTRDIFF_MIN, (ptrdiff_t)1 << 32, ((ptrdiff_t)1 << 32) + 5, (ptrdiff_t)1 << 40, PTRDIFF_MAX};
  prec_t *p = NULL;
  ptrdiff_t isz = one_in(12) ? gen_itemsize() : pick_isz(), cap, tmp[16], *shape = NULL, cs[MAXD];
  int n = one_in(12) ? gen_ndim() : (int)below(4), order = gen_order(), m = n < 0 ? 0 : n > 16 ? 16 : n, k, st;
  mvs_pool **out;
  unsigned must = 0;
  i128 bytes = 0, slot = 0;
  ctx("mvs_pool_create");
  for (k = 0; k < NPL; k++)
    if (!g_p[k].live) p = &g_p[k];
  if (!p) return;
  for (k = 0; k < m; k++) tmp[k] = one_in(16) ? big[below(6)] : (ptrdiff_t)below(5);
  cap = one_in(10) ? bad_cap[below(6)] : (ptrdiff_t)below(6);
  if (n >= 0 && cap > 0) { /* slabs up to 16 MiB; larger only where no allocator can say yes */
    i128 slab = smul(smul(items_of(tmp, n < MAXD ? n : MAXD), isz > 0 ? isz : 1) + 64, cap);
    if (slab > ((i128)1 << 24) && (slab < ((i128)1 << 46) || !(one_in(64) && one_in(16)) || !fuzz_huge_allocs)) cap = 0;
  }
  shape = shape_arg(tmp, m);
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *out, sizeof *out);
  if (out) memset(out, SENT, sizeof *out);
  ctx_i("itemsize", isz), ctx_i("ndim", n), ctx_i("order", order), ctx_i("capacity", cap);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  if (!out) must |= M_NULL;
  if (n < 0 || n > MAXD) {
    must |= M_NDIM;
  } else if (n > 0 && !shape) {
    must |= M_NULL;
  } else {
    if (isz <= 0) must |= M_ITEM;
    if (order != 'C' && order != 'F') must |= M_VALUE;
    if (cap < 0) must |= M_VALUE;
    for (k = 0; k < n; k++)
      if (tmp[k] < 0) must |= M_SHAPE;
    if (!(must & (M_ITEM | M_SHAPE))) {
      bytes = smul(items_of(tmp, n), isz);
      slot = (bytes + 63) / 64 * 64;
      if (slot < 64) slot = 64;
      if (!contig_strides(tmp, n, isz, 'C', cs) || bytes > PMAX || slot > PMAX) must |= M_OVF;
      else if (cap > 0 && smul(slot, cap) > PMAX) must |= M_OVF;
      else if (cap > ((i128)1 << 32) - 1) must |= M_OVF;
      else if (cap > 0 && smul(slot, cap) >= ((i128)1 << 46) && !(must & M_VALUE)) must |= M_ALLOC;
    }
  }
  pre_call();
  st = mvs_pool_create(isz, n, shape, order, cap, out);
  check_status(st, must, M_ALLOC);
  check_same(shape, tmp, (size_t)m * sizeof *shape, "shape");
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must) {
    ptrdiff_t arrays = -1, acq = -1;
    memset(p, 0, sizeof *p);
    p->p = *out;
    p->live = 1;
    p->isz = isz;
    p->ndim = n;
    p->order = order;
    for (k = 0; k < n; k++) p->shape[k] = tmp[k];
    p->cap = cap;
    p->bytes = (ptrdiff_t)bytes;
    p->slot = (ptrdiff_t)slot;
    p->total = cap;
    p->nslabs = cap > 0;
    if (mvs_pool_counts(p->p, &arrays, &acq) != MVS_OK || arrays != cap || acq != 0)
      fail("a new pool counts %td arrays, %td acquired; want %td, 0", arrays, acq, cap);
    if (p->bytes > 65536) { /* too large to tag: given back at once */
      mvs_pool_destroy(p->p);
      p->live = 0;
    }
  }
  slots_done();
}

static prec_t *pick_pool(void) {
  int i, k = (int)below(NPL), tries;
  for (tries = 0; tries < 4; tries++) {
    for (i = 0; i < NPL; i++)
      if (g_p[(k + i) % NPL].live) return &g_p[(k + i) % NPL];
    if (one_in(8)) break;
    op_pool_create(); /* none live: make one first (most of the time) */
  }
  return NULL;
}

void op_pool_acquire(void) {
  prec_t *p = pick_pool();
  int slab = one_in(2), st, k, nullp = one_in(48) || !p, ndim = 0, order = 'C', grow, want = -1;
  ptrdiff_t isz = 0, cs[MAXD];
  const void *key = NULL;
  mvs_slice *out, e;
  mvs_buffer **os = NULL;
  unsigned must = 0;
  ctx(slab ? "mvs_pool_acquire_slab" : "mvs_pool_acquire");
  if (p && p->narr >= NARR && p->nstack == 0) return;
  out = out_slice();
  if (slab) {
    os = one_in(48) ? NULL : slot_put(SL_OUT3, sizeof *os, sizeof *os);
    if (os) memset(os, SENT, sizeof *os);
    isz = p && !one_in(8) ? p->isz : gen_itemsize();
    ndim = p && !one_in(8) ? p->ndim : gen_ndim();
    order = p && !one_in(8) && p->ndim > 1 ? p->order : gen_order();
    key = one_in(2) ? NULL : &g_keys[below(4)];
    ctx_i("itemsize", isz), ctx_i("ndim", ndim), ctx_i("order", order);
  }
  if (nullp || !out || (slab && !os)) must |= M_NULL;
  if (slab) {
    if (ndim < 0 || ndim > MAXD) must |= M_NDIM;
    if (order != 'C' && order != 'F') must |= M_VALUE;
    if (p && (isz != p->isz || ndim != p->ndim || (p->ndim > 1 && order != p->order))) must |= M_VALUE;
  }
  grow = p && p->nstack == 0 && p->acquired == p->total;
  if (p && !nullp && grow) {
    i128 count = p->nslabs == 0 ? (p->cap > 1 ? p->cap : 1) : p->total;
    if (p->nslabs == 40 || p->total + count > ((i128)1 << 32) - 1 || smul(p->slot, count) > PMAX) must |= M_OVF;
    else if (smul(p->slot, count) >= ((i128)1 << 46) && !must) must |= M_ALLOC;
  }
  if (p && p->nstack > 0) want = p->stack[p->nstack - 1];
  ctx_i("pool", p ? p - g_p : -1), ctx_i("grows", grow);
  pre_call();
  st = slab ? mvs_pool_acquire_slab(nullp ? NULL : p->p, isz, ndim, order, key, out, os) : mvs_pool_acquire(nullp ? NULL : p->p, out);
  check_status(st, must, M_ALLOC);
  check_out_failed(st, out, sizeof *out, "its output");
  if (slab) check_out_failed(st, os, sizeof *os, "out_slab");
  if (st == MVS_OK && !must) {
    int i;
    brec_t *sr = NULL;
    void *memview = NULL;
    if (grow) p->total += p->nslabs == 0 ? (p->cap > 1 ? p->cap : 1) : p->total, p->nslabs++;
    if (slab) {
      mvs_buffer *b = *os;
      sr = brec_of(b);
      if (!sr) {
        sr = free_brec();
        if (sr) {
          void *d = NULL;
          ptrdiff_t size = -1;
          if (mvs_buffer_data(b, &d) != MVS_OK || mvs_buffer_size(b, &size) != MVS_OK) fail("the slab does not answer its queries");
          init_brec(sr, b, BK_SLAB, d, size, 0);
          sr->held = 0;
          sr->pool = (int)(p - g_p);
        }
      }
      if (sr && one_in(3)) { /* keep the slab: a reference of this program's */
        pre_call();
        st = mvs_buffer_retain(b);
        check_status(st, 0, 0);
        sr->refs++, sr->held++;
      }
      if (sr) {
        if (out->data < sr->data || out->data + p->bytes > sr->data + sr->nbytes) fail("the array at %p lies outside its slab [%p, +%td)", (void *)out->data, (void *)sr->data, sr->nbytes);
        for (i = 0; key && i < sr->natt; i++)
          if (sr->att[i].key == key) memview = &sr->att[i];
      }
    }
    e = empty_view(out->data, memview);
    contig_strides(p->shape, p->ndim, p->isz, p->order == 'F' ? 'F' : 'C', cs);
    for (k = 0; k < p->ndim; k++) e.shape[k] = p->shape[k], e.strides[k] = cs[k];
    if (slab && !sr) e.memview = out->memview; /* no record of the slab: its attachments unknown */
    check_view_result(NULL, 0, out, &e, p->ndim, 0, p->isz, "the array's view");
    if ((uintptr_t)out->data % 64) fail("the array at %p is not aligned to 64 bytes", (void *)out->data);
    if (want >= 0) {
      if (out->data != p->arr[want].data) fail("handed out %p, not %p, the array given back last", (void *)out->data, (void *)p->arr[want].data);
      p->nstack--;
      i = want;
    } else {
      if (find_arr(p, out->data) >= 0) fail("handed out %p again, which is acquired or was given back earlier", (void *)out->data);
      i = p->narr++;
      p->arr[i].data = out->data;
    }
    for (k = 0; k < p->narr; k++)
      if (k != i && p->arr[k].acq && p->bytes > 0 && iabs(addr_diff(p->arr[k].data, out->data)) < p->slot)
        fail("the array at %p overlaps the acquired one at %p (arrays %td bytes apart at least)", (void *)out->data, (void *)p->arr[k].data, p->slot);
    p->arr[i].acq = 1;
    p->arr[i].tag = ++g_tag;
    if (sr) p->arr[i].slab = sr;
    memset(p->arr[i].data, p->arr[i].tag, (size_t)p->bytes);
    p->acquired++;
  }
  slots_done();
}

void op_pool_release(void) {
  prec_t *p = pick_pool();
  mvs_slice *v;
  int st, i = -1, k, nullp = one_in(48) || !p;
  unsigned must = 0, r = below(8);
  char *data;
  ctx("mvs_pool_release");
  if (p && p->narr > 0 && r < 5) {
    i = (int)below((unsigned)p->narr);
    for (k = 0; k < p->narr && !p->arr[i].acq && r < 4; k++) i = (i + 1) % p->narr; /* mostly an acquired one */
    data = p->arr[i].data;
  } else if (p && p->narr > 0 && r < 7) {
    data = p->arr[below((unsigned)p->narr)].data + (one_in(2) ? p->slot : one_in(2) ? 1 : -p->slot);
  } else {
    data = gen_wild_data();
  }
  k = p ? find_arr(p, data) : -1;
  v = slot_put(SL_SRC, sizeof *v, 8);
  *v = g_pv[below(NV)].s; /* only data is read */
  v->data = data;
  if (one_in(48)) v = NULL;
  if (nullp || !v) must |= M_NULL;
  else if (k < 0 || !p->arr[k].acq) must |= M_VALUE;
  ctx_i("pool", p ? p - g_p : -1), ctx_i("data", (long long)(uintptr_t)data), ctx_i("known array", k);
  if (!must) check_tag(p, k, "while it was acquired");
  pre_call();
  st = mvs_pool_release(nullp ? NULL : p->p, v);
  check_status(st, must, 0);
  if (st == MVS_OK && !must) {
    p->arr[k].acq = 0;
    p->stack[p->nstack++] = k;
    p->acquired--;
  }
  slots_done();
}

void op_pool_counts(void) {
  prec_t *p = pick_pool();
  ptrdiff_t *a, *q;
  int st, nullp = one_in(24) || !p;
  ctx("mvs_pool_counts");
  a = one_in(32) ? NULL : slot_put(SL_OUT2, sizeof *a, sizeof *a);
  q = one_in(32) ? NULL : slot_put(SL_OUT3, sizeof *q, sizeof *q);
  if (a) memset(a, SENT, sizeof *a);
  if (q) memset(q, SENT, sizeof *q);
  pre_call();
  st = mvs_pool_counts(nullp ? NULL : p->p, a, q);
  check_status(st, nullp || !a || !q ? M_NULL : 0, 0);
  check_out_failed(st, a, sizeof *a, "out_arrays");
  check_out_failed(st, q, sizeof *q, "out_acquired");
  if (st == MVS_OK && (*a != p->total || *q != p->acquired)) fail("counts %td arrays, %td acquired; the model %td, %td", *a, *q, p->total, p->acquired);
  slots_done();
}

/* Destroys a pool: the slabs it alone held are freed (their attachments detached), the ones
 * this program retained stay, with their arrays' contents. */
void destroy_pool(prec_t *p) {
  int i, k;
  for (i = 0; i < NB; i++) {
    brec_t *r = &g_b[i];
    if (r->state && r->kind == BK_SLAB && r->pool == (int)(p - g_p)) {
      r->pool = -1;
      r->refs--;
    }
  }
  pre_call();
  mvs_pool_destroy(p->p);
  check_void_call();
  for (i = 0; i < NB; i++) {
    brec_t *r = &g_b[i];
    if (r->state && r->kind == BK_SLAB && r->pool < 0 && r->refs == 0) {
      for (k = 0; k < r->natt; k++)
        if (r->att[k].has_detach && r->att[k].calls != 1) fail("destroying the pool detached a slab's attachment %d times", r->att[k].calls);
      r->state = r->mrefs > 0 ? 2 : 0;
    }
  }
  for (i = 0; i < p->narr; i++) /* arrays of retained slabs are still there */
    if (p->arr[i].acq && p->arr[i].slab && p->arr[i].slab->state == 1 && p->arr[i].slab->b && p->arr[i].slab->kind == BK_SLAB)
      check_tag(p, i, "after mvs_pool_destroy, in a slab still retained");
  p->live = 0;
}
void op_pool_destroy(void) {
  prec_t *p = pick_pool();
  ctx("mvs_pool_destroy");
  if (!p || one_in(8)) {
    pre_call();
    mvs_pool_destroy(NULL);
    check_void_call();
    return;
  }
  destroy_pool(p);
}
