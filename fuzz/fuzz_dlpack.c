/* Fuzzing DLPack import and export (versioned and legacy) and the exchange API's import
 * (mvs_dlpack_import_object through fake producers' tables), the deleters counted. */
#include "harness.h"

/* ---- DLPack ---------------------------------------------------------------------------- */

/* The deleters of the tensors made here: they count their calls. */
static long g_dl_deleted;
static void dl_count(mvs_dl_managed_tensor_versioned *t) { (void)t; g_dl_deleted++; }
static void dl_count_legacy(mvs_dl_managed_tensor *t) { (void)t; g_dl_deleted++; }

/* A type code and width: mostly ones the library views, sometimes any. */
static void gen_dtype(mvs_dl_data_type *d) {
  static const unsigned char good[][2] = {{0, 8}, {0, 16}, {0, 32}, {0, 64}, {1, 8}, {1, 64}, {2, 16}, {2, 32}, {2, 64},
                                          {3, 64}, {4, 16}, {5, 64}, {5, 128}, {6, 8}, {10, 8}, {0, 248}};
  unsigned k = below(sizeof good / sizeof good[0]);
  d->code = one_in(12) ? (uint8_t)below(256) : good[k][0];
  d->bits = one_in(12) ? (uint8_t)below(256) : good[k][1];
  d->lanes = one_in(16) ? (uint16_t)below(4) : 1;
}
/* The item size the header gives for a type, or 0 when it is refused. */
static ptrdiff_t dl_itemsize(int code, int bits, int lanes) {
  if (code < 0 || code > 17 || bits <= 0 || bits > 255 || bits % 8) return 0;
  if ((code == MVS_DL_BOOL || (code >= 7 && code <= 14)) && bits != 8) return 0;
  if (code == MVS_DL_BFLOAT && bits != 16) return 0;
  return lanes == 1 ? bits / 8 : 0;
}

/* A random tensor (versioned, or legacy), in SL_SRC2 with the counting deleter, and the model
 * of its import. */
typedef struct {
  int legacy, n, readonly, zero;
  uint32_t major;
  mvs_dl_tensor dt;
  mvs_dl_managed_tensor_versioned *vt; /* the tensor: vt, or lt when legacy */
  mvs_dl_managed_tensor *lt;
  int64_t *shape, *strides;
  ptrdiff_t isz;    /* the item size the header gives for its type, 0 when refused */
  i128 first, lo, hi; /* the view's data address, the lowest and highest byte from it */
  mvs_slice e;      /* the view of the model (its strides; the rest set by dl_check_import) */
  unsigned must;    /* the import's errors when its arguments are good (the model) */
} dl_case;

/* The errors of importing c's tensor, in the header's order after the arguments; sets c->e's
 * strides, first, lo, hi and zero as it goes. */
static unsigned dl_model(dl_case *c) {
  const mvs_dl_tensor *dt = &c->dt;
  int n = c->n, k;
  i128 items = 1, step, span = 0;
  if (!c->legacy && c->major != 1) return M_VERSION;
  if (dt->device.device_type != MVS_DL_CPU) return M_DEVICE;
  if (!c->isz) return M_DTYPE;
  if (n < 0 || n > MAXD) return M_NDIM;
  if (n > 0 && !c->shape) return M_NULL;
  for (k = 0; k < n; k++)
    if (c->shape[k] < 0) return M_SHAPE;
  for (k = 0; k < n; k++) {
    items *= c->shape[k];
    if (items > PMAX) return M_OVF;
    c->zero |= c->shape[k] == 0;
  }
  if (!dt->data && items > 0) return M_NULL;
  c->first = (i128)(uintptr_t)dt->data + (i128)dt->byte_offset;
  if (c->first > (i128)UINTPTR_MAX) return M_OVF;
  if (!c->strides) { /* row-major: each partial product, the full one included, fits */
    for (k = n - 1, step = c->isz; k >= 0; k--) {
      c->e.strides[k] = (ptrdiff_t)step;
      step *= c->shape[k] > 1 ? c->shape[k] : 1;
      if (step > PMAX) return M_OVF;
    }
  } else {
    for (k = 0; k < n; k++) {
      i128 bs = (i128)c->strides[k] * c->isz;
      if (!FITS(bs)) return M_OVF;
      c->e.strides[k] = (ptrdiff_t)bs;
    }
  }
  if (!c->zero) {
    for (k = 0; k < n; k++) {
      i128 t = (i128)(c->shape[k] - 1) * c->e.strides[k];
      span += t < 0 ? -t : t;
      if (t < 0) c->lo += t;
      else c->hi += t;
    }
    c->hi += c->isz;
    if (span > PMAX || c->hi > PMAX || c->hi - c->lo > PMAX) return M_OVF;
  }
  if (c->first + c->lo < 0 || c->first + c->hi > (i128)UINTPTR_MAX) return M_OVF;
  return 0;
}

/* A random tensor into c (legacy or versioned), with its model. */
static void dl_gen(dl_case *c, int legacy) {
  int m, k, n = gen_ndim();
  memset(c, 0, sizeof *c);
  c->legacy = legacy;
  c->n = n;
  c->major = one_in(16) ? below(4) : 1;
  {
    unsigned r = below(16);
    c->dt.data = r < 12 ? (void *)(g_ar[below(2)] + below(ARENA)) : r < 14 ? NULL : (void *)gen_wild_data();
  }
  c->dt.device.device_type = one_in(16) ? (int32_t)below(21) - 1 : MVS_DL_CPU;
  c->dt.device.device_id = (int32_t)below(3);
  c->dt.ndim = n;
  gen_dtype(&c->dt.dtype);
  m = n < 0 ? 0 : n > 16 ? 16 : n;
  if (m > 0 && !one_in(48)) {
    c->shape = slot_put(SL_ARR1, (size_t)m * sizeof *c->shape, sizeof *c->shape);
    for (k = 0; k < m; k++) c->shape[k] = one_in(24) ? (int64_t)huge() : (int64_t)gen_extent() % 6;
  } else if (m == 0 && one_in(2)) {
    c->shape = empty_arr(SL_ARR1);
  }
  if (!one_in(3) && m > 0) {
    c->strides = slot_put(SL_ARR2, (size_t)m * sizeof *c->strides, sizeof *c->strides);
    for (k = 0; k < m; k++) c->strides[k] = one_in(24) ? (int64_t)huge() : (int64_t)small_signed(6);
  }
  c->dt.shape = c->shape;
  c->dt.strides = c->strides;
  c->dt.byte_offset = one_in(24) ? (uint64_t)huge() : one_in(2) ? 0 : (uint64_t)below(64) * 8;
  if (legacy) {
    c->lt = slot_put(SL_SRC2, sizeof *c->lt, 8);
    c->lt->dl_tensor = c->dt;
    c->lt->manager_ctx = NULL;
    c->lt->deleter = dl_count_legacy;
  } else {
    c->vt = slot_put(SL_SRC2, sizeof *c->vt, 8);
    c->vt->version.major = c->major;
    c->vt->version.minor = below(4);
    c->vt->manager_ctx = NULL;
    c->vt->deleter = dl_count;
    c->vt->flags = one_in(3) ? MVS_DLPACK_FLAG_READ_ONLY : one_in(8) ? (uint64_t)u64() : 0;
    c->vt->dl_tensor = c->dt;
    c->readonly = (c->vt->flags & MVS_DLPACK_FLAG_READ_ONLY) != 0;
  }
  ctx_i("ndim", n), ctx_i("device", c->dt.device.device_type), ctx_i("code", c->dt.dtype.code), ctx_i("bits", c->dt.dtype.bits);
  ctx_i("lanes", c->dt.dtype.lanes), ctx_i("byte_offset", (long long)c->dt.byte_offset), ctx_i("data", (long long)(uintptr_t)c->dt.data);
  ctx_i("major", c->major), ctx_i("null strides", !c->strides);
  c->isz = dl_itemsize(c->dt.dtype.code, c->dt.dtype.bits, c->dt.dtype.lanes);
  c->must = dl_model(c);
}

/* After c's tensor was imported as the model says (the view in *out, ndim_out, isz_out, the
 * buffer b): the view, the buffer's memory, and a round trip through mvs_dlpack_export and a
 * second import; the tensor's deleter runs only at the last release, exactly once. */
static void dl_check_import(dl_case *c, const mvs_slice *out, int ndim_out, ptrdiff_t isz_out, mvs_buffer *b) {
  int n = c->n, k, st, legacy = c->legacy, zero = c->zero;
  ptrdiff_t isz = c->isz;
  const int64_t *shape = c->shape;
  void *bd = NULL;
  ptrdiff_t bn = -1, bshape[MAXD];
  int bro = -1;
  mvs_buffer *b2 = NULL;
  mvs_slice back;
  mvs_dl_managed_tensor_versioned *t2 = NULL;
  mvs_dl_managed_tensor *l2 = NULL;
  int n2 = -1;
  ptrdiff_t isz2 = -1;
  if (ndim_out != n || isz_out != isz) fail("gave ndim %d and itemsize %td, the model %d and %td", ndim_out, isz_out, n, isz);
  c->e.memview = b;
  c->e.data = (char *)(uintptr_t)c->first; /* addresses as integers: the data may be NULL or wild */
  for (k = 0; k < MAXD; k++) {
    c->e.shape[k] = k < n ? (ptrdiff_t)shape[k] : 0;
    if (k >= n) c->e.strides[k] = 0;
    c->e.suboffsets[k] = -1;
  }
  check_view_result(NULL, 0, out, &c->e, n, 0, isz, "the view");
  if (mvs_buffer_data(b, &bd) != MVS_OK || mvs_buffer_size(b, &bn) != MVS_OK || mvs_buffer_readonly(b, &bro) != MVS_OK)
    fail("the imported buffer's queries failed");
  if (zero) c->lo = c->hi = 0;
  if ((i128)(uintptr_t)bd != c->first + c->lo || bn != (ptrdiff_t)(c->hi - c->lo) || bro != c->readonly)
    fail("the buffer is %p, %td bytes, read-only %d; the model %p, %td, %d", bd, bn, bro, (void *)(uintptr_t)(c->first + c->lo),
         (ptrdiff_t)(c->hi - c->lo), c->readonly);
  /* the round trip: exported again (a reference; legacy for a legacy import), imported again,
   * released in either order */
  st = legacy ? mvs_dlpack_export_legacy(b, out, n, c->dt.dtype.code, c->dt.dtype.bits, &l2)
              : mvs_dlpack_export(b, out, n, c->dt.dtype.code, c->dt.dtype.bits, 0, &t2);
  if (st != MVS_OK && st != MVS_ERR_ALLOC) fail("could not export its own view again: %s", stname(st));
  if (st == MVS_OK) {
    const mvs_dl_tensor *d2 = legacy ? &l2->dl_tensor : &t2->dl_tensor;
    if (d2->ndim != n || (!legacy && t2->flags != (c->readonly ? MVS_DLPACK_FLAG_READ_ONLY : 0)) || d2->data != (void *)out->data)
      fail("the export of the imported view differs from it");
    for (k = 0; k < n; k++)
      if (d2->shape[k] != shape[k] || (shape[k] > 1 && !zero && d2->strides[k] * isz != out->strides[k]))
        fail("the export's axis %d is (%lld, %lld), the view's (%td, %td bytes)", k, (long long)d2->shape[k],
             (long long)d2->strides[k], out->shape[k], out->strides[k]);
    st = legacy ? mvs_dlpack_import_legacy(l2, &back, &n2, &isz2, &b2) : mvs_dlpack_import(t2, &back, &n2, &isz2, &b2);
    if (st != MVS_OK && st != MVS_ERR_ALLOC) fail("could not import its own export: %s", stname(st));
    if (st == MVS_OK) {
      for (k = 0; k < MAXD; k++) bshape[k] = out->strides[k];
      if (n2 != n || isz2 != isz || back.data != out->data || memcmp(back.shape, out->shape, sizeof back.shape) != 0 ||
          (!zero && memcmp(back.strides, bshape, sizeof bshape) != 0))
        fail("the round trip changed the view");
      if (one_in(2)) mvs_buffer_release(b2), b2 = NULL;
    } else if (legacy) {
      l2->deleter(l2);
    } else {
      t2->deleter(t2);
    }
  }
  if (g_dl_deleted) fail("deleted the tensor while its buffer lives");
  mvs_buffer_release(b);
  if (b2) {
    if (g_dl_deleted) fail("deleted the tensor while a re-import of it lives");
    mvs_buffer_release(b2);
  }
  if (g_dl_deleted != 1) fail("the tensor's deleter ran %ld times after the last release, not once", g_dl_deleted);
}

/* mvs_dlpack_import and mvs_dlpack_import_legacy of a random tensor, against a model of the
 * header (its checks in the order it gives); on success dl_check_import; the deleter never
 * runs inside the import, and on failure the tensor is still the caller's. */
void op_dlpack_import(void) {
  dl_case c;
  int legacy = one_in(4), st, ndim_out, *pndim;
  mvs_slice *out = out_slice();
  ptrdiff_t isz_out, *pisz = one_in(48) ? NULL : &isz_out;
  mvs_buffer *b = NULL, **pb = one_in(48) ? NULL : &b;
  void *tensor;
  unsigned must;
  pndim = one_in(48) ? NULL : &ndim_out;
  ctx(legacy ? "mvs_dlpack_import_legacy" : "mvs_dlpack_import");
  dl_gen(&c, legacy);
  tensor = one_in(64) ? NULL : legacy ? (void *)c.lt : (void *)c.vt;
  if (pndim) memset(pndim, SENT, sizeof *pndim);
  if (pisz) memset(pisz, SENT, sizeof *pisz);
  if (pb) memset(pb, SENT, sizeof *pb);
  must = !out || !pndim || !pisz || !pb || !tensor ? M_NULL : c.must;
  pre_call();
  g_dl_deleted = 0;
  st = legacy ? mvs_dlpack_import_legacy((mvs_dl_managed_tensor *)tensor, out, pndim, pisz, pb)
              : mvs_dlpack_import((mvs_dl_managed_tensor_versioned *)tensor, out, pndim, pisz, pb);
  check_status(st, must, must ? 0 : M_ALLOC);
  if (g_dl_deleted) fail("called the tensor's deleter inside the import");
  check_out_failed(st, out, sizeof *out, "its view");
  check_out_failed(st, pndim, sizeof *pndim, "its ndim");
  check_out_failed(st, pisz, sizeof *pisz, "its itemsize");
  check_out_failed(st, pb, sizeof *pb, "its buffer");
  if (st == MVS_OK && !must) {
    dl_check_import(&c, out, ndim_out, isz_out, b);
  } else if (st != MVS_OK && tensor) {
    /* nothing changed hands: the tensor is still ours, and our deleter call the only one */
    if (legacy) c.lt->deleter(c.lt);
    else c.vt->deleter(c.vt);
    if (g_dl_deleted != 1) fail("the tensor was deleted %ld times in all", g_dl_deleted);
  }
  slots_done();
}

/* ---- the exchange API (mvs_dlpack_import_object) ----------------------------------------- */

/* The fake producer: what its managed_tensor_from_py_object_no_sync does, the object it
 * expects, and its calls (which table's function: produce0 .. produce3). */
enum { PR_FAIL, PR_NONE, PR_TENSOR };
#define NTABLES 4
static struct {
  int mode;  /* fail with -1 (leaving `tensor` in *out when `leave`), 0 with NULL, 0 with `tensor` */
  int leave;
  void *object;
  mvs_dl_managed_tensor_versioned *tensor;
  int calls, table; /* calls in all, the table of the last */
} g_pr;

static int produce(int table, void *object, mvs_dl_managed_tensor_versioned **out) {
  g_pr.calls++;
  g_pr.table = table;
  if (object != g_pr.object) fail("gave the producer the object %p, not %p", object, g_pr.object);
  if (g_pr.mode == PR_FAIL) {
    if (g_pr.leave) *out = g_pr.tensor;
    return -1;
  }
  *out = g_pr.mode == PR_TENSOR ? g_pr.tensor : NULL;
  return 0;
}
static int produce0(void *object, mvs_dl_managed_tensor_versioned **out) { return produce(0, object, out); }
static int produce1(void *object, mvs_dl_managed_tensor_versioned **out) { return produce(1, object, out); }
static int produce2(void *object, mvs_dl_managed_tensor_versioned **out) { return produce(2, object, out); }
static int produce3(void *object, mvs_dl_managed_tensor_versioned **out) { return produce(3, object, out); }
static const mvs_dlpack_managed_tensor_from_py_object_fn g_produce[NTABLES] = {produce0, produce1, produce2, produce3};

/* mvs_dlpack_import_object through a random table: a chain of 1 to 4 tables along prev_api
 * (sometimes a cycle) of random major versions, each function sometimes NULL (the others never
 * callable: sentinel bytes); a producer failing, succeeding without a tensor, or handing out
 * a random tensor as op_dlpack_import makes one. The model: the arguments, the first table of
 * major version 1 (none: MVS_ERR_VERSION), its function, the producer's failure, then the
 * tensor's errors as op_dlpack_import's model gives them; the producer called once, that
 * table's, exactly when the model reaches it; a tensor handed out is the library's, deleted
 * exactly once (by the library on failure, at the last release on success); outputs untouched
 * on failure. */
void op_dlpack_import_object(void) {
  dl_case c;
  mvs_dlpack_exchange_api *tables = NULL;
  const mvs_dlpack_exchange_api *found = NULL;
  int ntab = 1 + (int)below(NTABLES), k, st, ndim_out, *pndim, cycle = -1, want = -1, owned;
  unsigned nulls = 0, majors = 0, must;
  mvs_slice *out = out_slice();
  ptrdiff_t isz_out, *pisz = one_in(48) ? NULL : &isz_out;
  mvs_dl_data_type dtype_out, *pdtype = one_in(48) ? NULL : &dtype_out;
  mvs_buffer *b = NULL, **pb = one_in(48) ? NULL : &b;
  void *object = one_in(32) ? NULL : (void *)(uintptr_t)(u64() | 1);
  pndim = one_in(48) ? NULL : &ndim_out;
  ctx("mvs_dlpack_import_object");
  dl_gen(&c, 0);
  tables = slot_put(SL_SRC, (size_t)ntab * sizeof *tables, 8);
  memset(tables, SENT, (size_t)ntab * sizeof *tables); /* functions the library must not call */
  for (k = 0; k < ntab; k++) {
    tables[k].header.version.major = one_in(2) ? 1 : one_in(8) ? (uint32_t)u64() : below(4);
    tables[k].header.version.minor = below(8);
    tables[k].header.prev_api = k + 1 < ntab ? &tables[k + 1].header : NULL;
    tables[k].managed_tensor_from_py_object_no_sync = one_in(6) ? NULL : g_produce[k];
    nulls |= (unsigned)!tables[k].managed_tensor_from_py_object_no_sync << k;
    majors |= (tables[k].header.version.major > 0xF ? 0xFu : tables[k].header.version.major) << 4 * k;
  }
  if (one_in(6)) {
    cycle = (int)below((unsigned)ntab);
    tables[ntab - 1].header.prev_api = &tables[cycle].header;
  }
  g_pr.mode = (int)below(8) < 5 ? PR_TENSOR : one_in(2) ? PR_FAIL : PR_NONE;
  g_pr.leave = one_in(2);
  g_pr.object = object;
  g_pr.tensor = c.vt;
  g_pr.calls = 0;
  g_pr.table = -1;
  if (one_in(32)) tables = NULL;
  ctx_i("tables (0: api NULL)", tables ? ntab : 0), ctx_i("majors (4 bits each, table 0 lowest)", majors);
  ctx_i("NULL functions (bit k: table k)", nulls), ctx_i("cycle back to table (-1: none)", cycle);
  ctx_i("producer (0 fails, 1 no tensor, 2 a tensor)", g_pr.mode), ctx_i("object", (long long)(uintptr_t)object);
  if (pndim) memset(pndim, SENT, sizeof *pndim);
  if (pisz) memset(pisz, SENT, sizeof *pisz);
  if (pdtype) memset(pdtype, SENT, sizeof *pdtype);
  if (pb) memset(pb, SENT, sizeof *pb);
  /* the model: every table is reached within ntab steps along prev_api, or never */
  if (!tables || !object || !out || !pndim || !pisz || !pdtype || !pb) {
    must = M_NULL;
  } else {
    const mvs_dlpack_exchange_api_header *h = &tables[0].header;
    for (k = 0; k < ntab && h && !found; k++, h = h->prev_api)
      if (h->version.major == 1) found = (const mvs_dlpack_exchange_api *)h;
    if (!found) must = M_VERSION;
    else if (!found->managed_tensor_from_py_object_no_sync) must = M_NULL;
    else {
      want = (int)(found - tables);
      must = g_pr.mode == PR_TENSOR ? c.must : M_PRODUCER;
    }
  }
  owned = want >= 0 && g_pr.mode == PR_TENSOR;
  pre_call();
  g_dl_deleted = 0;
  st = mvs_dlpack_import_object(tables, object, out, pndim, pisz, pdtype, pb);
  check_status(st, must, must ? 0 : M_ALLOC);
  if (g_pr.calls != (want >= 0) || g_pr.table != want)
    fail("called the producer %d times (the last that of table %d); the model: %s", g_pr.calls, g_pr.table,
         want >= 0 ? "once, table 0 .. 3 as found" : "never");
  if (st != MVS_OK && g_dl_deleted != owned)
    fail("failed with %s and deleted the tensor %ld times, not %d", stname(st), g_dl_deleted, owned);
  if (st == MVS_OK && g_dl_deleted) fail("deleted the tensor inside the import");
  check_out_failed(st, out, sizeof *out, "its view");
  check_out_failed(st, pndim, sizeof *pndim, "its ndim");
  check_out_failed(st, pisz, sizeof *pisz, "its itemsize");
  check_out_failed(st, pdtype, sizeof *pdtype, "its dtype");
  check_out_failed(st, pb, sizeof *pb, "its buffer");
  if (st == MVS_OK && !must) {
    if (memcmp(pdtype, &c.dt.dtype, sizeof *pdtype) != 0)
      fail("gave the item type (%d, %d, %d), the tensor's is (%d, %d, %d)", pdtype->code, pdtype->bits, pdtype->lanes,
           c.dt.dtype.code, c.dt.dtype.bits, c.dt.dtype.lanes);
    dl_check_import(&c, out, ndim_out, isz_out, b);
  }
  slots_done();
}
