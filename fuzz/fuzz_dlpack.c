/* Fuzzing DLPack import and export (versioned and legacy), the deleters counted. */
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

/* mvs_dlpack_import and mvs_dlpack_import_legacy of a random tensor, against a model of the
 * header (its checks in the order it gives); on success the view, the buffer's memory, and a
 * round trip through mvs_dlpack_export and a second import; the tensor's deleter runs only
 * at the last release, exactly once, and never on failure. */
void op_dlpack_import(void) {
  int legacy = one_in(4), n = gen_ndim(), m, k, st, ndim_out;
  mvs_dl_tensor dt;
  mvs_dl_managed_tensor_versioned *vt = NULL;
  mvs_dl_managed_tensor *lt = NULL;
  int64_t *shape = NULL, *strides = NULL;
  uint32_t major = one_in(16) ? below(4) : 1;
  mvs_slice *out = out_slice(), e;
  ptrdiff_t isz_out, *pisz = one_in(48) ? NULL : &isz_out, isz;
  int *pndim = one_in(48) ? NULL : &ndim_out;
  mvs_buffer *b = NULL, **pb = one_in(48) ? NULL : &b;
  unsigned must = 0;
  i128 items = 1, first = 0, lo = 0, hi = 0, step, span = 0;
  int readonly = 0, zero = 0;
  ctx(legacy ? "mvs_dlpack_import_legacy" : "mvs_dlpack_import");
  memset(&dt, 0, sizeof dt);
  {
    unsigned r = below(16);
    dt.data = r < 12 ? (void *)(g_ar[below(2)] + below(ARENA)) : r < 14 ? NULL : (void *)gen_wild_data();
  }
  dt.device.device_type = one_in(16) ? (int32_t)below(21) - 1 : MVS_DL_CPU;
  dt.device.device_id = (int32_t)below(3);
  dt.ndim = n;
  gen_dtype(&dt.dtype);
  m = n < 0 ? 0 : n > 16 ? 16 : n;
  if (m > 0 && !one_in(48)) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    for (k = 0; k < m; k++) shape[k] = one_in(24) ? (int64_t)huge() : (int64_t)gen_extent() % 6;
  } else if (m == 0 && one_in(2)) {
    shape = empty_arr(SL_ARR1);
  }
  if (!one_in(3) && m > 0) {
    strides = slot_put(SL_ARR2, (size_t)m * sizeof *strides, sizeof *strides);
    for (k = 0; k < m; k++) strides[k] = one_in(24) ? (int64_t)huge() : (int64_t)small_signed(6);
  }
  dt.shape = shape;
  dt.strides = strides;
  dt.byte_offset = one_in(24) ? (uint64_t)huge() : one_in(2) ? 0 : (uint64_t)below(64) * 8;
  if (legacy) {
    lt = slot_put(SL_SRC2, sizeof *lt, 8);
    lt->dl_tensor = dt;
    lt->manager_ctx = NULL;
    lt->deleter = dl_count_legacy;
    if (one_in(64)) lt = NULL;
  } else {
    vt = slot_put(SL_SRC2, sizeof *vt, 8);
    vt->version.major = major;
    vt->version.minor = below(4);
    vt->manager_ctx = NULL;
    vt->deleter = dl_count;
    vt->flags = one_in(3) ? MVS_DLPACK_FLAG_READ_ONLY : one_in(8) ? (uint64_t)u64() : 0;
    vt->dl_tensor = dt;
    readonly = (vt->flags & MVS_DLPACK_FLAG_READ_ONLY) != 0;
    if (one_in(64)) vt = NULL;
  }
  if (pndim) memset(pndim, SENT, sizeof *pndim);
  if (pisz) memset(pisz, SENT, sizeof *pisz);
  if (pb) memset(pb, SENT, sizeof *pb);
  ctx_i("ndim", n), ctx_i("device", dt.device.device_type), ctx_i("code", dt.dtype.code), ctx_i("bits", dt.dtype.bits);
  ctx_i("lanes", dt.dtype.lanes), ctx_i("byte_offset", (long long)dt.byte_offset), ctx_i("data", (long long)(uintptr_t)dt.data);
  ctx_i("major", major), ctx_i("null strides", !strides);
  isz = dl_itemsize(dt.dtype.code, dt.dtype.bits, dt.dtype.lanes);
  /* the model, in the header's order */
  if (!out || !pndim || !pisz || !pb || (legacy ? !lt : !vt)) must = M_NULL;
  else if (!legacy && major != 1) must = M_VERSION;
  else if (dt.device.device_type != MVS_DL_CPU) must = M_DEVICE;
  else if (!isz) must = M_DTYPE;
  else if (n < 0 || n > MAXD) must = M_NDIM;
  else if (n > 0 && !shape) must = M_NULL;
  else {
    for (k = 0; k < n && !must; k++)
      if (shape[k] < 0) must = M_SHAPE;
    for (k = 0; k < n && !must; k++) {
      items *= shape[k];
      if (items > PMAX) must = M_OVF;
      zero |= shape[k] == 0;
    }
    if (!must && !dt.data && items > 0) must = M_NULL;
    first = (i128)(uintptr_t)dt.data + (i128)dt.byte_offset;
    if (!must && first > (i128)UINTPTR_MAX) must = M_OVF;
    if (!must && !strides) { /* row-major: each partial product, the full one included, fits */
      e.data = NULL;
      for (k = n - 1, step = isz; k >= 0 && !must; k--) {
        e.strides[k] = (ptrdiff_t)step;
        step *= shape[k] > 1 ? shape[k] : 1;
        if (step > PMAX) must = M_OVF;
      }
    } else if (!must) {
      for (k = 0; k < n && !must; k++) {
        i128 bs = (i128)strides[k] * isz;
        if (!FITS(bs)) must = M_OVF;
        else e.strides[k] = (ptrdiff_t)bs;
      }
    }
    if (!must && !zero) {
      for (k = 0; k < n; k++) {
        i128 t = (i128)(shape[k] - 1) * e.strides[k];
        span += t < 0 ? -t : t;
        if (t < 0) lo += t;
        else hi += t;
      }
      hi += isz;
      if (span > PMAX || hi > PMAX || hi - lo > PMAX) must = M_OVF;
    }
    if (!must && (first + lo < 0 || first + hi > (i128)UINTPTR_MAX)) must = M_OVF;
  }
  pre_call();
  g_dl_deleted = 0;
  st = legacy ? mvs_dlpack_import_legacy(lt, out, pndim, pisz, pb) : mvs_dlpack_import(vt, out, pndim, pisz, pb);
  check_status(st, must, must ? 0 : M_ALLOC);
  if (g_dl_deleted) fail("called the tensor's deleter inside the import");
  check_out_failed(st, out, sizeof *out, "its view");
  check_out_failed(st, pndim, sizeof *pndim, "its ndim");
  check_out_failed(st, pisz, sizeof *pisz, "its itemsize");
  check_out_failed(st, pb, sizeof *pb, "its buffer");
  if (st == MVS_OK && !must) {
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
    e.memview = b;
    e.data = (char *)(uintptr_t)first; /* addresses as integers: the data may be NULL or wild */
    for (k = 0; k < MAXD; k++) {
      e.shape[k] = k < n ? (ptrdiff_t)shape[k] : 0;
      if (k >= n) e.strides[k] = 0;
      e.suboffsets[k] = -1;
    }
    check_view_result(NULL, 0, out, &e, n, 0, isz, "the view");
    if (mvs_buffer_data(b, &bd) != MVS_OK || mvs_buffer_size(b, &bn) != MVS_OK || mvs_buffer_readonly(b, &bro) != MVS_OK)
      fail("the imported buffer's queries failed");
    if (zero) lo = hi = 0;
    if ((i128)(uintptr_t)bd != first + lo || bn != (ptrdiff_t)(hi - lo) || bro != readonly)
      fail("the buffer is %p, %td bytes, read-only %d; the model %p, %td, %d", bd, bn, bro, (void *)(uintptr_t)(first + lo),
           (ptrdiff_t)(hi - lo), readonly);
    /* the round trip: exported again (a reference; legacy for a legacy import), imported again,
     * released in either order */
    st = legacy ? mvs_dlpack_export_legacy(b, out, n, dt.dtype.code, dt.dtype.bits, &l2)
                : mvs_dlpack_export(b, out, n, dt.dtype.code, dt.dtype.bits, 0, &t2);
    if (st != MVS_OK && st != MVS_ERR_ALLOC) fail("could not export its own view again: %s", stname(st));
    if (st == MVS_OK) {
      const mvs_dl_tensor *d2 = legacy ? &l2->dl_tensor : &t2->dl_tensor;
      if (d2->ndim != n || (!legacy && t2->flags != (readonly ? MVS_DLPACK_FLAG_READ_ONLY : 0)) || d2->data != (void *)out->data)
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
  } else if (st != MVS_OK && (legacy ? lt : (void *)vt)) {
    /* nothing changed hands: the tensor is still ours, and our deleter call the only one */
    if (legacy) lt->deleter(lt);
    else vt->deleter(vt);
    if (g_dl_deleted != 1) fail("the tensor was deleted %ld times in all", g_dl_deleted);
  }
  slots_done();
}
