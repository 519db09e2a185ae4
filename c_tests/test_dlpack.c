/* DLPack (mvs_dlpack_export, mvs_dlpack_import and their legacy forms):
 * - the mvs_dl_ structs and constants have DLPack 1.1's sizes, offsets and values, so a
 *   DLManagedTensorVersioned * converts with a cast;
 * - export: the tensor's fields, strides in items, one buffer reference that the deleter gives
 *   back; read-only buffers give read-only tensors; every error, nothing allocated or retained
 *   on failure, outputs untouched;
 * - import: 0-d to 8-d tensors with NULL (row-major) strides, negative and zero strides and byte
 *   offsets become the right view; the deleter runs exactly once, at the buffer's last release,
 *   in every release order and from another thread;
 * - round trips export -> import -> export -> import, versioned and legacy;
 * - malformed tensors (NULL data with items, NULL shape, ndim < 0 or > 8, a negative extent, a
 *   device other than the CPU or unknown, an unknown type code, a sub-byte width, vector lanes,
 *   an unsupported major version, strides or byte offsets that overflow) give distinct errors,
 *   write nothing, and never call the deleter: the tensor stays the caller's, whose one call of
 *   the deleter is then the only one;
 * - the exchange API (mvs_dlpack_import_object) with fake producers in C: the view, item type
 *   and shared memory of the producer's export, its deleter once at the last release (on
 *   another thread too), read-only sources, the prev_api chain walked to major version 1 (a
 *   chain without one, a cycle included, refused before any call), NULL arguments and a NULL
 *   function, failed producers (MVS_ERR_PRODUCER), and tensors the import refuses, which the
 *   library deletes once; outputs untouched on every failure. */
#include <limits.h>

#include "owner.h"

/* ---- the layout is DLPack 1.1's ------------------------------------------------------------ */

/* The sizes, offsets and values of DLPack 1.1's specification (dlpack.h: DLPackVersion, DLDevice,
   DLDataType, DLTensor, DLManagedTensor, DLManagedTensorVersioned, their flags and codes), as
   numbers for a 64-bit target; and dlpack.h 1.3's exchange API table (DLPackExchangeAPIHeader,
   DLPackExchangeAPI): a program's own dlpack.h structs convert with a cast. NumPy's
   from_dlpack and __dlpack__, built against dlpack.h, exchange tensors with these structs in
   tests/test_dlpack.py. */
static void test_layout(void) {
  if (sizeof(void *) != 8) return;
  CHECK_EQ(sizeof(mvs_dl_version), 8);
  CHECK_EQ(offsetof(mvs_dl_version, minor), 4);
  CHECK_EQ(sizeof(mvs_dl_device), 8);
  CHECK_EQ(offsetof(mvs_dl_device, device_id), 4);
  CHECK_EQ(sizeof(mvs_dl_data_type), 4);
  CHECK(offsetof(mvs_dl_data_type, bits) == 1 && offsetof(mvs_dl_data_type, lanes) == 2);
  CHECK_EQ(sizeof(mvs_dl_tensor), 48);
  CHECK(offsetof(mvs_dl_tensor, device) == 8 && offsetof(mvs_dl_tensor, ndim) == 16 &&
        offsetof(mvs_dl_tensor, dtype) == 20 && offsetof(mvs_dl_tensor, shape) == 24 &&
        offsetof(mvs_dl_tensor, strides) == 32 && offsetof(mvs_dl_tensor, byte_offset) == 40);
  CHECK_EQ(sizeof(mvs_dl_managed_tensor), 64);
  CHECK(offsetof(mvs_dl_managed_tensor, manager_ctx) == 48 && offsetof(mvs_dl_managed_tensor, deleter) == 56);
  CHECK_EQ(sizeof(mvs_dl_managed_tensor_versioned), 80);
  CHECK(offsetof(mvs_dl_managed_tensor_versioned, manager_ctx) == 8 &&
        offsetof(mvs_dl_managed_tensor_versioned, deleter) == 16 &&
        offsetof(mvs_dl_managed_tensor_versioned, flags) == 24 &&
        offsetof(mvs_dl_managed_tensor_versioned, dl_tensor) == 32);
  CHECK(MVS_DLPACK_MAJOR_VERSION == 1 && MVS_DLPACK_MINOR_VERSION == 1);
  CHECK(MVS_DLPACK_FLAG_READ_ONLY == 1 && MVS_DLPACK_FLAG_IS_COPIED == 2 && MVS_DLPACK_FLAG_IS_SUBBYTE_TYPE_PADDED == 4);
  CHECK_EQ(MVS_DL_CPU, 1);
  CHECK(MVS_DL_INT == 0 && MVS_DL_UINT == 1 && MVS_DL_FLOAT == 2 && MVS_DL_OPAQUE_HANDLE == 3 && MVS_DL_BFLOAT == 4 &&
        MVS_DL_COMPLEX == 5 && MVS_DL_BOOL == 6);
  CHECK(strstr(mvs_status_str(MVS_ERR_DEVICE), "device") != NULL);
  CHECK(strstr(mvs_status_str(MVS_ERR_DTYPE), "type") != NULL);
  CHECK(strstr(mvs_status_str(MVS_ERR_VERSION), "version") != NULL);
  /* dlpack.h 1.3's DLPackExchangeAPIHeader and DLPackExchangeAPI */
  CHECK_EQ(sizeof(mvs_dlpack_exchange_api_header), 16);
  CHECK(offsetof(mvs_dlpack_exchange_api_header, version) == 0 && offsetof(mvs_dlpack_exchange_api_header, prev_api) == 8);
  CHECK_EQ(sizeof(mvs_dlpack_exchange_api), 56);
  CHECK(offsetof(mvs_dlpack_exchange_api, header) == 0 && offsetof(mvs_dlpack_exchange_api, managed_tensor_allocator) == 16 &&
        offsetof(mvs_dlpack_exchange_api, managed_tensor_from_py_object_no_sync) == 24 &&
        offsetof(mvs_dlpack_exchange_api, managed_tensor_to_py_object_no_sync) == 32 &&
        offsetof(mvs_dlpack_exchange_api, dltensor_from_py_object_no_sync) == 40 &&
        offsetof(mvs_dlpack_exchange_api, current_work_stream) == 48);
  CHECK(strstr(mvs_status_str(MVS_ERR_PRODUCER), "producer") != NULL);
}

/* DLPack 1.1's codes that the header does not name: devices kDLCUDA and kDLCUDAHost, types
   kDLFloat8_e4m3fn and kDLFloat4_e2m1fn. */
enum { DL_CUDA = 2, DL_CUDA_HOST = 3, DL_FLOAT8_E4M3FN = 10, DL_FLOAT4_E2M1FN = 17 };

/* ---- a producer of its own: DLPack's structs with a counting deleter ---------------------- */

typedef struct {
  mvs_dl_managed_tensor_versioned t; /* first: the deleter's argument is the block */
  int64_t shape[9], strides[9];
  long deleted;               /* calls of the deleter, atomically */
} producer;

static void producer_delete(mvs_dl_managed_tensor_versioned *t) {
  producer *p = (producer *)t;
  __atomic_fetch_add(&p->deleted, 1, __ATOMIC_SEQ_CST);
}

typedef struct {
  mvs_dl_managed_tensor t;
  int64_t shape[8];
  long deleted;
} legacy_producer;

static void legacy_delete(mvs_dl_managed_tensor *t) {
  legacy_producer *p = (legacy_producer *)t;
  __atomic_fetch_add(&p->deleted, 1, __ATOMIC_SEQ_CST);
}

static long deleted(producer *p) { return __atomic_load_n(&p->deleted, __ATOMIC_SEQ_CST); }

/* A versioned tensor over `data`: `ndim` extents, strides in items (NULL: none), float64. */
static void make(producer *p, void *data, int ndim, const int64_t *shape, const int64_t *strides,
                 uint64_t byte_offset) {
  int i;
  memset(p, 0, sizeof *p);
  p->t.version.major = MVS_DLPACK_MAJOR_VERSION;
  p->t.version.minor = MVS_DLPACK_MINOR_VERSION;
  p->t.manager_ctx = p;
  p->t.deleter = producer_delete;
  p->t.dl_tensor.data = data;
  p->t.dl_tensor.device.device_type = MVS_DL_CPU;
  p->t.dl_tensor.device.device_id = 0;
  p->t.dl_tensor.ndim = ndim;
  p->t.dl_tensor.dtype.code = MVS_DL_FLOAT;
  p->t.dl_tensor.dtype.bits = 64;
  p->t.dl_tensor.dtype.lanes = 1;
  for (i = 0; i < ndim && i < 9; i++) {
    p->shape[i] = shape[i];
    if (strides) p->strides[i] = strides[i];
  }
  p->t.dl_tensor.shape = p->shape;
  p->t.dl_tensor.strides = strides ? p->strides : NULL;
  p->t.dl_tensor.byte_offset = byte_offset;
}

static mvs_dl_managed_tensor_versioned *mvs_of(producer *p) { return (mvs_dl_managed_tensor_versioned *)&p->t; }

/* Imports p, expecting success; returns the buffer, the view in *v. */
static mvs_buffer *import_ok(producer *p, mvs_slice *v, int ndim) {
  int n = -1;
  ptrdiff_t itemsize = -1;
  mvs_buffer *b = NULL;
  if (!CHECK_ST(mvs_dlpack_import(mvs_of(p), v, &n, &itemsize, &b), MVS_OK)) return NULL;
  CHECK_EQ(n, ndim);
  CHECK_EQ(itemsize, 8);
  CHECK_PTR(v->memview, b);
  CHECK_EQ(deleted(p), 0);
  return b;
}

/* ---- import ----------------------------------------------------------------------------- */

static double g_mem[4096];

static void test_import_views(void) {
  mvs_slice v;
  mvs_buffer *b;
  producer p;
  void *start = NULL;
  ptrdiff_t size = -1;
  int ro = -1;
  /* row-major from NULL strides, with a byte offset */
  {
    const int64_t shape[3] = {2, 3, 4};
    make(&p, g_mem, 3, shape, NULL, 16);
    b = import_ok(&p, &v, 3);
    CHECK_VIEW(&v, 3, g_mem + 2, "2 3 4", "96 32 8");
    mvs_buffer_data(b, &start);
    mvs_buffer_size(b, &size);
    mvs_buffer_readonly(b, &ro);
    CHECK_PTR(start, g_mem + 2);
    CHECK_EQ(size, 24 * 8);
    CHECK_EQ(ro, 0);
    mvs_buffer_release(b);
    CHECK_EQ(deleted(&p), 1);
  }
  /* negative and zero strides: the buffer starts at the lowest byte addressed */
  {
    const int64_t shape[3] = {3, 2, 5}, strides[3] = {-10, 0, 2};
    make(&p, g_mem, 3, shape, strides, 8 * 100);
    b = import_ok(&p, &v, 3);
    CHECK_VIEW(&v, 3, g_mem + 100, "3 2 5", "-80 0 16");
    mvs_buffer_data(b, &start);
    mvs_buffer_size(b, &size);
    CHECK_PTR(start, g_mem + 80);
    CHECK_EQ(size, (20 + 8 + 1) * 8);
    mvs_buffer_release(b);
    CHECK_EQ(deleted(&p), 1);
  }
  /* 0-d to 8-d, extents 2, strides 1 item apart reversed, and each with a zero extent */
  {
    int ndim, zero;
    for (ndim = 0; ndim <= 8; ndim++)
      for (zero = 0; zero <= (ndim > 0); zero++) {
        int64_t shape[8], strides[8];
        ptrdiff_t want_shape[8], want_strides[8];
        int64_t step = 1;
        int i;
        for (i = ndim - 1; i >= 0; i--) {
          shape[i] = (zero && i == 0) ? 0 : 2;
          strides[i] = (i % 2) ? -step : step;
          want_shape[i] = (ptrdiff_t)shape[i];
          want_strides[i] = (ptrdiff_t)strides[i] * 8;
          step *= 2;
        }
        make(&p, g_mem, ndim, shape, strides, 8 * 1024);
        b = import_ok(&p, &v, ndim);
        if (!b) continue;
        CHECK_VIEW_ARR(&v, ndim, g_mem + 1024, want_shape, want_strides);
        mvs_buffer_size(b, &size);
        CHECK_EQ(size, zero ? 0 : (ptrdiff_t)(step * 8));
        mvs_buffer_release(b);
        CHECK_EQ(deleted(&p), 1);
      }
  }
  /* NULL data is fine for a tensor with no item */
  {
    const int64_t shape[2] = {0, 5};
    make(&p, NULL, 2, shape, NULL, 0);
    b = import_ok(&p, &v, 2);
    mvs_buffer_size(b, &size);
    CHECK_EQ(size, 0);
    mvs_buffer_release(b);
    CHECK_EQ(deleted(&p), 1);
  }
  /* a deleter of NULL: nothing is called */
  {
    const int64_t shape[1] = {3};
    make(&p, g_mem, 1, shape, NULL, 0);
    p.t.deleter = NULL;
    b = import_ok(&p, &v, 1);
    mvs_buffer_release(b);
    CHECK_EQ(deleted(&p), 0);
  }
  /* any minor version of major 1; other flags are ignored */
  {
    const int64_t shape[1] = {3};
    make(&p, g_mem, 1, shape, NULL, 0);
    p.t.version.minor = 7;
    p.t.flags = MVS_DLPACK_FLAG_IS_COPIED | (1ULL << 40);
    b = import_ok(&p, &v, 1);
    mvs_buffer_readonly(b, &ro);
    CHECK_EQ(ro, 0);
    mvs_buffer_release(b);
    CHECK_EQ(deleted(&p), 1);
  }
  /* item types: every width that is a multiple of 8 */
  {
    const int64_t shape[1] = {4};
    static const int codes[][3] = {{MVS_DL_INT, 8, 1}, {MVS_DL_UINT, 16, 2}, {MVS_DL_FLOAT, 16, 2}, {MVS_DL_BFLOAT, 16, 2},
                                   {MVS_DL_COMPLEX, 128, 16}, {MVS_DL_BOOL, 8, 1}, {DL_FLOAT8_E4M3FN, 8, 1},
                                   {MVS_DL_OPAQUE_HANDLE, 64, 8}, {MVS_DL_INT, 128, 16}};
    size_t k;
    for (k = 0; k < sizeof codes / sizeof codes[0]; k++) {
      int n = -1;
      ptrdiff_t itemsize = -1;
      make(&p, g_mem, 1, shape, NULL, 0);
      p.t.dl_tensor.dtype.code = (uint8_t)codes[k][0];
      p.t.dl_tensor.dtype.bits = (uint8_t)codes[k][1];
      b = NULL;
      if (!CHECK_ST(mvs_dlpack_import(mvs_of(&p), &v, &n, &itemsize, &b), MVS_OK)) continue;
      CHECK_EQ(itemsize, codes[k][2]);
      CHECK_EQ(v.strides[0], codes[k][2]);
      mvs_buffer_release(b);
      CHECK_EQ(deleted(&p), 1);
    }
  }
}

/* The deleter runs once, after the last of several references, in every release order. */
static void test_import_release_orders(void) {
  int order;
  for (order = 0; order < 6; order++) {
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int64_t shape[2] = {4, 4};
    producer p;
    mvs_slice v, w;
    mvs_buffer *b, *held[3];
    mvs_dl_managed_tensor_versioned *out = NULL;
    int k;
    make(&p, g_mem, 2, shape, NULL, 0);
    b = import_ok(&p, &v, 2);
    if (!b) continue;
    /* a second reference, and a re-export (which holds a third) */
    CHECK_ST(mvs_buffer_retain(b), MVS_OK);
    CHECK_ST(mvs_transpose(&v, 2, &w), MVS_OK);
    CHECK_ST(mvs_dlpack_export(b, &w, 2, MVS_DL_FLOAT, 64, 0, &out), MVS_OK);
    CHECK_EQ(refs(b), 3);
    held[0] = b;
    held[1] = b;
    held[2] = NULL; /* the export's, given back by its deleter */
    for (k = 0; k < 3; k++) {
      CHECK_EQ(deleted(&p), 0);
      if (perms[order][k] == 2)
        out->deleter(out);
      else
        mvs_buffer_release(held[perms[order][k]]);
    }
    CHECK_EQ(deleted(&p), 1);
  }
}

typedef struct {
  mvs_buffer *b;
  int n;
} releaser;

static void *release_n(void *arg) {
  releaser *r = (releaser *)arg;
  int i;
  for (i = 0; i < r->n; i++) mvs_buffer_release(r->b);
  return NULL;
}

/* Four threads give back 1000 references each, the main thread its own: one deletion. */
static void test_import_threads(void) {
  const int64_t shape[1] = {16};
  producer p;
  mvs_slice v;
  mvs_buffer *b;
  pthread_t th[4];
  releaser r[4];
  int i, k;
  make(&p, g_mem, 1, shape, NULL, 0);
  b = import_ok(&p, &v, 1);
  if (!b) return;
  for (i = 0; i < 4; i++) {
    for (k = 0; k < 1000; k++) mvs_buffer_retain(b);
    r[i].b = b;
    r[i].n = 1000;
    pthread_create(&th[i], NULL, release_n, &r[i]);
  }
  mvs_buffer_release(b);
  for (i = 0; i < 4; i++) pthread_join(th[i], NULL);
  CHECK_EQ(deleted(&p), 1);
}

/* Read-only tensors give read-only buffers, which refuse writable views and re-export as
 * read-only (and not at all in the legacy form). */
static void test_import_readonly(void) {
  const int64_t shape[2] = {2, 3};
  const ptrdiff_t vshape[2] = {2, 3};
  producer p;
  mvs_slice v, w;
  mvs_buffer *b;
  int ro = -1;
  mvs_dl_managed_tensor_versioned *out = NULL;
  mvs_dl_managed_tensor *legacy = NULL;
  make(&p, g_mem, 2, shape, NULL, 0);
  p.t.flags = MVS_DLPACK_FLAG_READ_ONLY;
  b = import_ok(&p, &v, 2);
  if (!b) return;
  mvs_buffer_readonly(b, &ro);
  CHECK_EQ(ro, 1);
  SENT(w);
  CHECK_ERR(mvs_buffer_view_at(b, 0, 8, 2, vshape, 'C', 1, &w), MVS_ERR_VALUE, "read-only");
  CHECK_UNTOUCHED(w);
  CHECK_ST(mvs_buffer_view_at(b, 0, 8, 2, vshape, 'C', 0, &w), MVS_OK);
  CHECK_ST(mvs_dlpack_export(b, &v, 2, MVS_DL_FLOAT, 64, 0, &out), MVS_OK);
  CHECK_EQ(out->flags, MVS_DLPACK_FLAG_READ_ONLY);
  SENT(legacy);
  CHECK_ERR(mvs_dlpack_export_legacy(b, &v, 2, MVS_DL_FLOAT, 64, &legacy), MVS_ERR_VALUE, "read-only");
  CHECK_UNTOUCHED(legacy);
  CHECK_EQ(refs(b), 2);
  mvs_buffer_release(b);
  CHECK_EQ(deleted(&p), 0);
  out->deleter(out);
  CHECK_EQ(deleted(&p), 1);
}

/* ---- malformed tensors ------------------------------------------------------------------ */

/* Import fails with `want` and a message containing `part`, writes nothing and does not call
 * the deleter; the caller's own call is then the one and only. */
static void refused(producer *p, int want, const char *part, int line) {
  mvs_slice v;
  int n;
  ptrdiff_t itemsize;
  mvs_buffer *b;
  SENT(v);
  SENT(n);
  SENT(itemsize);
  SENT(b);
  if (!CHECK_ERR(mvs_dlpack_import(mvs_of(p), &v, &n, &itemsize, &b), want, part))
    fprintf(stderr, "    (case of line %d)\n", line);
  CHECK_UNTOUCHED(v);
  CHECK_UNTOUCHED(n);
  CHECK_UNTOUCHED(itemsize);
  CHECK_UNTOUCHED(b);
  CHECK_EQ(deleted(p), 0);
  p->t.deleter(&p->t);
  CHECK_EQ(deleted(p), 1);
}
#define REFUSED(p, want, part) refused((p), (want), (part), __LINE__)

static void test_import_errors(void) {
  const int64_t shape[2] = {2, 3};
  producer p;
  int ns = 0;
  mvs_slice v;
  int n;
  ptrdiff_t itemsize;
  mvs_buffer *b;
#define CASE(setup, want, part)        \
  do {                                 \
    make(&p, g_mem, 2, shape, NULL, 0); \
    setup;                             \
    REFUSED(&p, want, part);           \
    ns++;                              \
  } while (0)
  CASE(p.t.dl_tensor.data = NULL, MVS_ERR_NULL, "data is NULL but it has 6 items");
  CASE(p.t.dl_tensor.ndim = -1, MVS_ERR_NDIM, "ndim -1");
  CASE(p.t.dl_tensor.ndim = 9, MVS_ERR_NDIM, "ndim 9");
  CASE(p.shape[1] = -3, MVS_ERR_SHAPE, "extent -3 along axis 1 is negative");
  CASE(p.t.dl_tensor.device.device_type = DL_CUDA, MVS_ERR_DEVICE, "not the CPU");
  CASE(p.t.dl_tensor.device.device_type = 5, MVS_ERR_DEVICE, "device type 5 is not a DLPack device");
  CASE(p.t.dl_tensor.dtype.code = 18, MVS_ERR_DTYPE, "type code 18 is unknown");
  CASE(p.t.dl_tensor.dtype.bits = 4, MVS_ERR_DTYPE, "4 bits");
  CASE((p.t.dl_tensor.dtype.code = DL_FLOAT4_E2M1FN, p.t.dl_tensor.dtype.bits = 4), MVS_ERR_DTYPE, "sub-byte");
  CASE(p.t.dl_tensor.dtype.lanes = 4, MVS_ERR_DTYPE, "4 lanes");
  CASE(p.t.version.major = 2, MVS_ERR_VERSION, "version 2.1 is not supported");
  CASE(p.t.version.major = 0, MVS_ERR_VERSION, "version 0.1");
  CASE((p.t.dl_tensor.strides = p.strides, p.strides[0] = INT64_MAX / 4, p.strides[1] = 1), MVS_ERR_OVERFLOW,
       "does not fit in ptrdiff_t bytes");
  CASE((p.t.dl_tensor.strides = p.strides, p.strides[0] = INT64_MIN, p.strides[1] = 1), MVS_ERR_OVERFLOW, "stride");
  CASE(p.t.dl_tensor.byte_offset = UINT64_MAX - 8, MVS_ERR_OVERFLOW, "byte offset");
  CASE(p.t.dl_tensor.shape = NULL, MVS_ERR_NULL, "shape");
  CASE((p.t.dl_tensor.strides = p.strides, p.strides[0] = (int64_t)1 << 59, p.strides[1] = (int64_t)1 << 58),
       MVS_ERR_OVERFLOW, "overflows ptrdiff_t");
  /* a span that fits (PTRDIFF_MAX - 7), whose bytes (the span plus one item) do not */
  CASE((p.t.dl_tensor.data = (void *)((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1)), p.t.dl_tensor.ndim = 1, p.shape[0] = 2,
        p.t.dl_tensor.strides = p.strides, p.strides[0] = -(((int64_t)1 << 60) - 1)),
       MVS_ERR_OVERFLOW, "overflows ptrdiff_t");
#undef CASE
  /* the malformed tensors of the issue each have their own status */
  CHECK(ns == 18);
  CHECK(MVS_ERR_NULL != MVS_ERR_NDIM && MVS_ERR_SHAPE != MVS_ERR_DEVICE && MVS_ERR_DTYPE != MVS_ERR_VERSION &&
        MVS_ERR_VERSION != MVS_ERR_OVERFLOW && MVS_ERR_DEVICE != MVS_ERR_DTYPE);
  /* NULL arguments: the tensor stays the caller's */
  make(&p, g_mem, 2, shape, NULL, 0);
  SENT(v);
  SENT(n);
  SENT(itemsize);
  SENT(b);
  CHECK_ERR(mvs_dlpack_import(NULL, &v, &n, &itemsize, &b), MVS_ERR_NULL, "`tensor`");
  CHECK_ERR(mvs_dlpack_import(mvs_of(&p), NULL, &n, &itemsize, &b), MVS_ERR_NULL, "`out_view`");
  CHECK_ERR(mvs_dlpack_import(mvs_of(&p), &v, NULL, &itemsize, &b), MVS_ERR_NULL, "`out_ndim`");
  CHECK_ERR(mvs_dlpack_import(mvs_of(&p), &v, &n, NULL, &b), MVS_ERR_NULL, "`out_itemsize`");
  CHECK_ERR(mvs_dlpack_import(mvs_of(&p), &v, &n, &itemsize, NULL), MVS_ERR_NULL, "`out_buffer`");
  CHECK_ERR(mvs_dlpack_import_legacy(NULL, &v, &n, &itemsize, &b), MVS_ERR_NULL, "`tensor`");
  CHECK_UNTOUCHED(v);
  CHECK_UNTOUCHED(n);
  CHECK_UNTOUCHED(itemsize);
  CHECK_UNTOUCHED(b);
  CHECK_EQ(deleted(&p), 0);
}

/* ---- export ----------------------------------------------------------------------------- */

static void test_export(void) {
  counter c;
  mvs_buffer *b = NULL;
  double *mem = (double *)malloc(24 * sizeof(double));
  const ptrdiff_t shape[2] = {4, 6};
  mvs_slice v, w;
  mvs_dl_managed_tensor_versioned *t = NULL;
  memset(&c, 0, sizeof c);
  c.expect = mem;
  c.free_data = 1;
  if (!CHECK_ST(mvs_buffer_wrap(mem, 24 * sizeof(double), counting_dealloc, &c, 0, &b), MVS_OK)) return;
  CHECK_ST(mvs_buffer_view(b, 8, 2, shape, 'C', &v), MVS_OK);
  /* w = v[::-2, 1::2] */
  CHECK_ST(mvs_slice_axis(&v, 2, 0, MVS_NONE, MVS_NONE, -2, &w), MVS_OK);
  CHECK_ST(mvs_slice_axis(&w, 2, 1, 1, MVS_NONE, 2, &w), MVS_OK);
  if (!CHECK_ST(mvs_dlpack_export(b, &w, 2, MVS_DL_FLOAT, 64, MVS_DLPACK_FLAG_IS_COPIED, &t), MVS_OK)) return;
  CHECK_EQ(refs(b), 2);
  CHECK_EQ(t->version.major, 1);
  CHECK_EQ(t->version.minor, 1);
  CHECK_EQ(t->flags, MVS_DLPACK_FLAG_IS_COPIED);
  CHECK(t->manager_ctx == NULL);
  CHECK(t->deleter != NULL);
  CHECK_PTR(t->dl_tensor.data, mem + 19);
  CHECK_EQ(t->dl_tensor.device.device_type, MVS_DL_CPU);
  CHECK_EQ(t->dl_tensor.device.device_id, 0);
  CHECK_EQ(t->dl_tensor.ndim, 2);
  CHECK_EQ(t->dl_tensor.dtype.code, MVS_DL_FLOAT);
  CHECK_EQ(t->dl_tensor.dtype.bits, 64);
  CHECK_EQ(t->dl_tensor.dtype.lanes, 1);
  CHECK_EQ(t->dl_tensor.shape[0], 2);
  CHECK_EQ(t->dl_tensor.shape[1], 3);
  CHECK_EQ(t->dl_tensor.strides[0], -12);
  CHECK_EQ(t->dl_tensor.strides[1], 2);
  CHECK_EQ(t->dl_tensor.byte_offset, 0);
  /* the caller's reference first, then the tensor's: freed at the deleter */
  mvs_buffer_release(b);
  CHECK_EQ(calls_of(&c), 0);
  t->deleter(t);
  CHECK_EQ(calls_of(&c), 1);
}

/* Round trips, in both release orders: export -> import (legacy and versioned) -> export again. */
static void test_round_trip(void) {
  int order, legacy;
  for (legacy = 0; legacy <= 1; legacy++)
    for (order = 0; order < 2; order++) {
      counter c;
      mvs_buffer *b = NULL, *b2 = NULL;
      float *mem = (float *)malloc(60 * sizeof(float));
      const ptrdiff_t shape[3] = {3, 4, 5};
      mvs_slice v, w, back;
      int n = -1;
      ptrdiff_t itemsize = -1;
      memset(&c, 0, sizeof c);
      c.expect = mem;
      c.free_data = 1;
      mvs_buffer_wrap(mem, 60 * sizeof(float), counting_dealloc, &c, 0, &b);
      mvs_buffer_view(b, 4, 3, shape, 'F', &v);
      CHECK_ST(mvs_flip_axis(&v, 3, 1, &w), MVS_OK);
      if (legacy) {
        mvs_dl_managed_tensor *t = NULL;
        CHECK_ST(mvs_dlpack_export_legacy(b, &w, 3, MVS_DL_FLOAT, 32, &t), MVS_OK);
        CHECK_ST(mvs_dlpack_import_legacy(t, &back, &n, &itemsize, &b2), MVS_OK);
      } else {
        mvs_dl_managed_tensor_versioned *t = NULL;
        CHECK_ST(mvs_dlpack_export(b, &w, 3, MVS_DL_FLOAT, 32, 0, &t), MVS_OK);
        CHECK_ST(mvs_dlpack_import(t, &back, &n, &itemsize, &b2), MVS_OK);
      }
      CHECK_EQ(n, 3);
      CHECK_EQ(itemsize, 4);
      CHECK_VIEW(&back, 3, w.data, "3 4 5", "4 -12 48");
      CHECK_PTR(back.memview, b2);
      /* the import's buffer is writable and covers exactly the view */
      {
        mvs_slice again;
        const ptrdiff_t all[1] = {60};
        CHECK_ST(mvs_buffer_view_at(b2, 0, 4, 1, all, 'C', 1, &again), MVS_OK);
        CHECK_PTR(again.data, mem);
      }
      if (order == 0) {
        mvs_buffer_release(b);
        CHECK_EQ(calls_of(&c), 0);
        mvs_buffer_release(b2);
      } else {
        mvs_buffer_release(b2);
        CHECK_EQ(calls_of(&c), 0);
        CHECK_EQ(refs(b), 1);
        mvs_buffer_release(b);
      }
      CHECK_EQ(calls_of(&c), 1);
    }
  /* legacy producer of its own */
  {
    legacy_producer p;
    mvs_slice v;
    int n = -1;
    ptrdiff_t itemsize = -1;
    mvs_buffer *b = NULL;
    int ro = -1;
    memset(&p, 0, sizeof p);
    p.shape[0] = 5;
    p.t.dl_tensor.data = g_mem;
    p.t.dl_tensor.device.device_type = MVS_DL_CPU;
    p.t.dl_tensor.ndim = 1;
    p.t.dl_tensor.dtype.code = MVS_DL_INT;
    p.t.dl_tensor.dtype.bits = 16;
    p.t.dl_tensor.dtype.lanes = 1;
    p.t.dl_tensor.shape = p.shape;
    p.t.deleter = legacy_delete;
    p.t.dl_tensor.device.device_type = DL_CUDA_HOST;
    CHECK_ERR(mvs_dlpack_import_legacy((mvs_dl_managed_tensor *)&p.t, &v, &n, &itemsize, &b), MVS_ERR_DEVICE, "not the CPU");
    CHECK_EQ(p.deleted, 0);
    p.t.dl_tensor.device.device_type = MVS_DL_CPU;
    CHECK_ST(mvs_dlpack_import_legacy((mvs_dl_managed_tensor *)&p.t, &v, &n, &itemsize, &b), MVS_OK);
    CHECK_VIEW(&v, 1, g_mem, "5", "2");
    mvs_buffer_readonly(b, &ro);
    CHECK_EQ(ro, 0);
    CHECK_EQ(p.deleted, 0);
    mvs_buffer_release(b);
    CHECK_EQ(p.deleted, 1);
  }
}

static void test_export_errors(void) {
  mvs_buffer *b = NULL, *ro = NULL;
  const ptrdiff_t shape[2] = {4, 6};
  mvs_slice v, odd, outside, indirect;
  mvs_dl_managed_tensor_versioned *t;
  mvs_dl_managed_tensor *lt;
  CHECK_ST(mvs_buffer_alloc(24 * 8, 8, 0, &b), MVS_OK);
  CHECK_ST(mvs_buffer_view(b, 8, 2, shape, 'C', &v), MVS_OK);
  odd = v;
  odd.shape[1] = 3;
  odd.strides[1] = 12; /* inside the buffer, but not a multiple of 8 */
  outside = v;
  outside.data += 8;
  indirect = v;
  indirect.suboffsets[0] = 0;
  SENT(t);
  SENT(lt);
  CHECK_ERR(mvs_dlpack_export(NULL, &v, 2, MVS_DL_FLOAT, 64, 0, &t), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_dlpack_export(b, NULL, 2, MVS_DL_FLOAT, 64, 0, &t), MVS_ERR_NULL, "`src`");
  CHECK_ERR(mvs_dlpack_export(b, &v, 2, MVS_DL_FLOAT, 64, 0, NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_dlpack_export(b, &v, 9, MVS_DL_FLOAT, 64, 0, &t), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_dlpack_export(b, &v, 2, 18, 64, 0, &t), MVS_ERR_DTYPE, "type code 18");
  CHECK_ERR(mvs_dlpack_export(b, &v, 2, 256 + MVS_DL_FLOAT, 64, 0, &t), MVS_ERR_DTYPE, "type code 258");
  CHECK_ERR(mvs_dlpack_export(b, &v, 2, MVS_DL_FLOAT, 4, 0, &t), MVS_ERR_DTYPE, "4 bits");
  CHECK_ERR(mvs_dlpack_export(b, &v, 2, MVS_DL_FLOAT, 64 + 256, 0, &t), MVS_ERR_DTYPE, "320 bits");
  CHECK_ERR(mvs_dlpack_export(b, &v, 2, MVS_DL_BOOL, 64, 0, &t), MVS_ERR_DTYPE, "code 6 with 64 bits");
  CHECK_ERR(mvs_dlpack_export(b, &v, 2, MVS_DL_FLOAT, 64, 4, &t), MVS_ERR_VALUE, "flags 0x4");
  CHECK_ERR(mvs_dlpack_export(b, &odd, 2, MVS_DL_FLOAT, 64, 0, &t), MVS_ERR_VALUE, "stride 12 bytes along axis 1");
  CHECK_ERR(mvs_dlpack_export(b, &outside, 2, MVS_DL_FLOAT, 64, 0, &t), MVS_ERR_BOUNDS, "");
  CHECK_ERR(mvs_dlpack_export(b, &indirect, 2, MVS_DL_FLOAT, 64, 0, &t), MVS_ERR_INDIRECT, "");
  CHECK_ERR(mvs_dlpack_export_legacy(b, &odd, 2, MVS_DL_FLOAT, 64, &lt), MVS_ERR_VALUE, "not a multiple");
  CHECK_UNTOUCHED(t);
  CHECK_UNTOUCHED(lt);
  CHECK_EQ(refs(b), 1);
  /* 0-d, and a zero-size view whose strides address nothing */
  {
    mvs_slice z;
    const ptrdiff_t zshape[2] = {0, 3};
    CHECK_ST(mvs_buffer_view(b, 8, 0, NULL, 'C', &z), MVS_OK);
    CHECK_ST(mvs_dlpack_export(b, &z, 0, MVS_DL_INT, 64, 0, &t), MVS_OK);
    CHECK_EQ(t->dl_tensor.ndim, 0);
    CHECK(t->dl_tensor.shape != NULL && t->dl_tensor.strides != NULL);
    t->deleter(t);
    CHECK_ST(mvs_view_strided(v.data, 8, 2, zshape, shape, &z), MVS_OK);
    CHECK_ST(mvs_dlpack_export(b, &z, 2, MVS_DL_UINT, 64, 0, &t), MVS_OK);
    t->deleter(t);
  }
  /* a read-only buffer: the tensor says so */
  CHECK_ST(mvs_buffer_wrap(g_mem, 64, NULL, NULL, MVS_BUFFER_READONLY, &ro), MVS_OK);
  CHECK_ST(mvs_buffer_view(ro, 1, 1, shape, 'C', &v), MVS_OK);
  CHECK_ST(mvs_dlpack_export(ro, &v, 1, MVS_DL_UINT, 8, 0, &t), MVS_OK);
  CHECK_EQ(t->flags, MVS_DLPACK_FLAG_READ_ONLY);
  mvs_buffer_release(ro);
  t->deleter(t);
  CHECK_EQ(refs(b), 1);
  mvs_buffer_release(b);
}

/* ---- the exchange API (DLPack 1.3's DLPackExchangeAPI) ------------------------------------ */

/* Fake producers in C. `object` points to a tensor object of their own: an array (a buffer and
 * a view, exported with mvs_dlpack_export, so that an import shares its memory, the deleter
 * counted), or a hand-made tensor (a `producer`, handed out as it is). Each function counts
 * its calls. */
typedef struct {
  mvs_buffer *buffer;
  mvs_slice view;
  int ndim, code, bits;
  long deleted;     /* runs of the deleter of the tensors made, atomically */
  pthread_t thread; /* the thread of the last run */
} array_object;

enum { F_ARRAY, F_HAND, F_FAIL, F_NOTHING, NFAKE };
static long g_fake_calls[NFAKE];
static long fake_calls(int f) { return __atomic_load_n(&g_fake_calls[f], __ATOMIC_SEQ_CST); }
static long all_fake_calls(void) {
  long n = 0;
  int f;
  for (f = 0; f < NFAKE; f++) n += fake_calls(f);
  return n;
}
static void fake_called(int f) { __atomic_fetch_add(&g_fake_calls[f], 1, __ATOMIC_SEQ_CST); }

/* The library's deleter of its exports, which array_delete calls after counting. */
static mvs_dl_versioned_deleter_fn g_export_deleter;

static void array_delete(mvs_dl_managed_tensor_versioned *t) {
  array_object *o = (array_object *)t->manager_ctx;
  o->thread = pthread_self();
  __atomic_fetch_add(&o->deleted, 1, __ATOMIC_SEQ_CST);
  g_export_deleter(t);
}
static long array_deleted(array_object *o) { return __atomic_load_n(&o->deleted, __ATOMIC_SEQ_CST); }

/* managed_tensor_from_py_object_no_sync of array objects: an export of the view. */
static int from_array(void *object, mvs_dl_managed_tensor_versioned **out) {
  array_object *o = (array_object *)object;
  fake_called(F_ARRAY);
  if (mvs_dlpack_export(o->buffer, &o->view, o->ndim, o->code, o->bits, 0, out) != MVS_OK) return -1;
  g_export_deleter = (*out)->deleter;
  (*out)->manager_ctx = o;
  (*out)->deleter = array_delete;
  return 0;
}
/* ... of hand-made tensors: `object` is a producer. */
static int from_hand(void *object, mvs_dl_managed_tensor_versioned **out) {
  fake_called(F_HAND);
  *out = mvs_of((producer *)object);
  return 0;
}
/* A failure (a Python producer has set an exception), with a tensor left in *out all the same,
 * which is not the caller's to delete. */
static int from_fail(void *object, mvs_dl_managed_tensor_versioned **out) {
  fake_called(F_FAIL);
  *out = mvs_of((producer *)object);
  return -1;
}
/* Success without a tensor. */
static int from_nothing(void *object, mvs_dl_managed_tensor_versioned **out) {
  (void)object;
  fake_called(F_NOTHING);
  *out = NULL;
  return 0;
}

/* A table of major version `major` with `f` as managed_tensor_from_py_object_no_sync, whose
 * prev_api is `prev`'s header (NULL: none); its other functions are NULL, never called. */
static mvs_dlpack_exchange_api table(uint32_t major, mvs_dlpack_managed_tensor_from_py_object_fn f,
                                     mvs_dlpack_exchange_api *prev) {
  mvs_dlpack_exchange_api a;
  memset(&a, 0, sizeof a);
  a.header.version.major = major;
  a.header.version.minor = 3;
  a.header.prev_api = prev ? &prev->header : NULL;
  a.managed_tensor_from_py_object_no_sync = f;
  return a;
}

/* An array object over a new buffer wrapping `n` doubles (freed by counting_dealloc with `c`),
 * its view the 1-d view of them all. */
static void array_init(array_object *o, counter *c, size_t n) {
  double *mem = (double *)malloc(n * sizeof(double));
  const ptrdiff_t shape[1] = {(ptrdiff_t)n};
  memset(o, 0, sizeof *o);
  memset(c, 0, sizeof *c);
  c->expect = mem;
  c->free_data = 1;
  iota(mem, (int)n, 0);
  o->ndim = 1;
  o->code = MVS_DL_FLOAT;
  o->bits = 64;
  if (CHECK_ST(mvs_buffer_wrap(mem, n * sizeof(double), counting_dealloc, c, 0, &o->buffer), MVS_OK))
    CHECK_ST(mvs_buffer_view(o->buffer, 8, 1, shape, 'C', &o->view), MVS_OK);
}

/* The outputs of mvs_dlpack_import_object, each filled with the sentinel before the call. */
typedef struct {
  mvs_slice v;
  int ndim;
  ptrdiff_t itemsize;
  mvs_dl_data_type dtype;
  mvs_buffer *b;
} object_outs;

static int import_object(const mvs_dlpack_exchange_api *api, void *object, object_outs *o) {
  SENT(*o);
  return mvs_dlpack_import_object(api, object, &o->v, &o->ndim, &o->itemsize, &o->dtype, &o->b);
}

/* mvs_dlpack_import_object fails with `want` and a message containing `part`, having called
 * the fake producers `calls` times in all, and writes no output. */
static void object_refused(const mvs_dlpack_exchange_api *api, void *object, long calls, int want, const char *part,
                           int line) {
  object_outs o;
  long before = all_fake_calls();
  int ok = CHECK_ERR(import_object(api, object, &o), want, part);
  ok &= CHECK_EQ(all_fake_calls() - before, calls);
  ok &= CHECK_UNTOUCHED(o.v);
  ok &= CHECK_UNTOUCHED(o.ndim);
  ok &= CHECK_UNTOUCHED(o.itemsize);
  ok &= CHECK_UNTOUCHED(o.dtype);
  ok &= CHECK_UNTOUCHED(o.b);
  if (!ok) fprintf(stderr, "    (case of line %d)\n", line);
}
#define OBJECT_REFUSED(api, object, calls, want, part) object_refused((api), (object), (calls), (want), (part), __LINE__)

/* Success: the view is the exported one (a 3x4 view, its rows reversed, every other column),
 * the buffer shares the memory, the item type is told; the producer's deleter runs exactly once,
 * at the last release of the buffer, which holds the source buffer until then. */
static void test_object_import(void) {
  mvs_dlpack_exchange_api api = table(1, from_array, NULL);
  const ptrdiff_t shape[2] = {3, 4};
  array_object a;
  counter c;
  object_outs o;
  mvs_slice v;
  void *start = NULL;
  ptrdiff_t size = -1;
  int ro = -1;
  long before = fake_calls(F_ARRAY);
  array_init(&a, &c, 12);
  a.ndim = 2;
  CHECK_ST(mvs_buffer_view(a.buffer, 8, 2, shape, 'C', &v), MVS_OK);
  CHECK_ST(mvs_slice_axis(&v, 2, 0, MVS_NONE, MVS_NONE, -1, &a.view), MVS_OK);
  CHECK_ST(mvs_slice_axis(&a.view, 2, 1, 1, MVS_NONE, 2, &a.view), MVS_OK);
  if (!CHECK_ST(import_object(&api, &a, &o), MVS_OK)) return;
  CHECK_EQ(fake_calls(F_ARRAY) - before, 1);
  CHECK_EQ(o.ndim, 2);
  CHECK_EQ(o.itemsize, 8);
  CHECK_VIEW(&o.v, 2, a.view.data, "3 2", "-32 16");
  CHECK_PTR(a.view.data, v.data + 8 * 9);
  CHECK_PTR(o.v.memview, o.b);
  CHECK(o.dtype.code == MVS_DL_FLOAT && o.dtype.bits == 64 && o.dtype.lanes == 1);
  /* the memory is the source's: written through the import, read through the source's view
   * of it all */
  mvs_buffer_data(o.b, &start);
  mvs_buffer_size(o.b, &size);
  mvs_buffer_readonly(o.b, &ro);
  CHECK_PTR(start, v.data + 8);
  CHECK_EQ(size, (8 + 2 + 1) * 8);
  CHECK_EQ(ro, 0);
  regions_clear();
  region_add(v.data, 12 * sizeof(double));
  CHECK_EQ(fill_through(&o.v, 2, 100), 6);
  CHECK_ELEMS(&v, 2, "0 104 2 105 4 102 6 103 8 100 10 101");
  /* the export holds the source buffer; the import's last release deletes it, once */
  CHECK_EQ(refs(a.buffer), 2);
  mvs_buffer_release(a.buffer);
  CHECK_ST(mvs_buffer_retain(o.b), MVS_OK);
  mvs_buffer_release(o.b);
  CHECK_EQ(array_deleted(&a), 0);
  CHECK_EQ(calls_of(&c), 0);
  mvs_buffer_release(o.b);
  CHECK_EQ(array_deleted(&a), 1);
  CHECK_EQ(calls_of(&c), 1);
  /* item types other than float64: the dtype is the exported one */
  {
    static const int types[][3] = {{MVS_DL_INT, 16, 2}, {MVS_DL_UINT, 8, 1}, {MVS_DL_COMPLEX, 128, 16}, {MVS_DL_BOOL, 8, 1}};
    size_t k;
    for (k = 0; k < sizeof types / sizeof types[0]; k++) {
      const ptrdiff_t n[1] = {4};
      array_init(&a, &c, 8);
      a.code = types[k][0];
      a.bits = types[k][1];
      CHECK_ST(mvs_buffer_view(a.buffer, types[k][2], 1, n, 'C', &a.view), MVS_OK);
      if (!CHECK_ST(import_object(&api, &a, &o), MVS_OK)) continue;
      CHECK(o.dtype.code == types[k][0] && o.dtype.bits == types[k][1] && o.dtype.lanes == 1);
      CHECK_EQ(o.itemsize, types[k][2]);
      CHECK_VIEW1(&o.v, a.view.data, 4, types[k][2]);
      mvs_buffer_release(a.buffer);
      mvs_buffer_release(o.b);
      CHECK_EQ(array_deleted(&a), 1);
      CHECK_EQ(calls_of(&c), 1);
    }
  }
}

/* The last release on another thread: the deleter runs there, once. */
static void test_object_thread(void) {
  mvs_dlpack_exchange_api api = table(1, from_array, NULL);
  array_object a;
  counter c;
  object_outs o;
  releaser r;
  pthread_t th;
  array_init(&a, &c, 16);
  if (!CHECK_ST(import_object(&api, &a, &o), MVS_OK)) return;
  mvs_buffer_release(a.buffer); /* the export's reference keeps it */
  r.b = o.b;
  r.n = 1;
  pthread_create(&th, NULL, release_n, &r);
  pthread_join(th, NULL);
  CHECK_EQ(array_deleted(&a), 1);
  CHECK(pthread_equal(a.thread, th));
  CHECK_EQ(calls_of(&c), 1);
}

/* A read-only source gives a read-only tensor, and so a read-only buffer. */
static void test_object_readonly(void) {
  mvs_dlpack_exchange_api api = table(1, from_array, NULL);
  const ptrdiff_t shape[1] = {8};
  array_object a;
  object_outs o;
  mvs_slice w;
  int ro = -1;
  memset(&a, 0, sizeof a);
  a.ndim = 1;
  a.code = MVS_DL_FLOAT;
  a.bits = 64;
  CHECK_ST(mvs_buffer_wrap(g_mem, 64, NULL, NULL, MVS_BUFFER_READONLY, &a.buffer), MVS_OK);
  CHECK_ST(mvs_buffer_view(a.buffer, 8, 1, shape, 'C', &a.view), MVS_OK);
  if (!CHECK_ST(import_object(&api, &a, &o), MVS_OK)) return;
  mvs_buffer_readonly(o.b, &ro);
  CHECK_EQ(ro, 1);
  CHECK_ERR(mvs_buffer_view_at(o.b, 0, 8, 1, shape, 'C', 1, &w), MVS_ERR_VALUE, "read-only");
  mvs_buffer_release(o.b);
  CHECK_EQ(array_deleted(&a), 1);
  CHECK_EQ(refs(a.buffer), 1);
  mvs_buffer_release(a.buffer);
}

/* The table of major version 1 is found along prev_api, and only its function is called; a
 * chain without one (a cycle included) is refused before any call. */
static void test_object_versions(void) {
  mvs_dlpack_exchange_api v1 = table(1, from_array, NULL), v2 = table(2, from_fail, &v1), v3 = table(3, from_fail, &v2);
  mvs_dlpack_exchange_api v2null = table(2, NULL, &v1), alone2 = table(2, from_array, NULL), alone0 = table(0, from_array, NULL);
  mvs_dlpack_exchange_api cycle = table(2, from_array, NULL), ping = table(2, from_array, NULL), pong = table(3, from_array, &ping);
  const mvs_dlpack_exchange_api *heads[3];
  array_object a;
  counter c;
  object_outs o;
  size_t k;
  /* 2 -> 1, 3 -> 2 -> 1, and 2 (its function NULL, never looked at) -> 1 */
  heads[0] = &v2;
  heads[1] = &v3;
  heads[2] = &v2null;
  array_init(&a, &c, 4);
  for (k = 0; k < 3; k++) {
    long arrays = fake_calls(F_ARRAY), fails = fake_calls(F_FAIL);
    if (!CHECK_ST(import_object(heads[k], &a, &o), MVS_OK)) continue;
    CHECK_EQ(fake_calls(F_ARRAY) - arrays, 1);
    CHECK_EQ(fake_calls(F_FAIL) - fails, 0);
    CHECK_VIEW1(&o.v, a.view.data, 4, 8);
    mvs_buffer_release(o.b);
    CHECK_EQ(array_deleted(&a), (long)k + 1);
  }
  /* any minor version of major 1 */
  v1.header.version.minor = 0;
  if (CHECK_ST(import_object(&v1, &a, &o), MVS_OK)) mvs_buffer_release(o.b);
  cycle.header.prev_api = &cycle.header;
  ping.header.prev_api = &pong.header;
  OBJECT_REFUSED(&alone2, &a, 0, MVS_ERR_VERSION, "version 2.3 is not supported");
  OBJECT_REFUSED(&alone0, &a, 0, MVS_ERR_VERSION, "version 0.3 is not supported");
  OBJECT_REFUSED(&cycle, &a, 0, MVS_ERR_VERSION, "version 2.3");
  OBJECT_REFUSED(&pong, &a, 0, MVS_ERR_VERSION, "version 3.3");
  CHECK_EQ(array_deleted(&a), 4);
  mvs_buffer_release(a.buffer);
  CHECK_EQ(calls_of(&c), 1);
}

/* NULL arguments and a NULL function (the producer not called), failed producers, and imports
 * that fail after the producer made a tensor (the library deletes it, once); no output written. */
static void test_object_errors(void) {
  mvs_dlpack_exchange_api api = table(1, from_hand, NULL), fail = table(1, from_fail, NULL);
  mvs_dlpack_exchange_api nothing = table(1, from_nothing, NULL), none = table(1, NULL, NULL);
  mvs_dlpack_exchange_api none2 = table(2, NULL, NULL);
  const int64_t shape[2] = {2, 3};
  producer p;
  object_outs o;
  long before = all_fake_calls(), hand = fake_calls(F_HAND);
  make(&p, g_mem, 2, shape, NULL, 0);
  SENT(o);
  CHECK_ERR(mvs_dlpack_import_object(NULL, &p, &o.v, &o.ndim, &o.itemsize, &o.dtype, &o.b), MVS_ERR_NULL, "`api`");
  CHECK_ERR(mvs_dlpack_import_object(&api, NULL, &o.v, &o.ndim, &o.itemsize, &o.dtype, &o.b), MVS_ERR_NULL, "`object`");
  CHECK_ERR(mvs_dlpack_import_object(&api, &p, NULL, &o.ndim, &o.itemsize, &o.dtype, &o.b), MVS_ERR_NULL, "`out_view`");
  CHECK_ERR(mvs_dlpack_import_object(&api, &p, &o.v, NULL, &o.itemsize, &o.dtype, &o.b), MVS_ERR_NULL, "`out_ndim`");
  CHECK_ERR(mvs_dlpack_import_object(&api, &p, &o.v, &o.ndim, NULL, &o.dtype, &o.b), MVS_ERR_NULL, "`out_itemsize`");
  CHECK_ERR(mvs_dlpack_import_object(&api, &p, &o.v, &o.ndim, &o.itemsize, NULL, &o.b), MVS_ERR_NULL, "`out_dtype`");
  CHECK_ERR(mvs_dlpack_import_object(&api, &p, &o.v, &o.ndim, &o.itemsize, &o.dtype, NULL), MVS_ERR_NULL, "`out_buffer`");
  CHECK_UNTOUCHED(o.v);
  CHECK_UNTOUCHED(o.ndim);
  CHECK_UNTOUCHED(o.itemsize);
  CHECK_UNTOUCHED(o.dtype);
  CHECK_UNTOUCHED(o.b);
  CHECK_EQ(all_fake_calls() - before, 0);
  OBJECT_REFUSED(&none, &p, 0, MVS_ERR_NULL, "`api->managed_tensor_from_py_object_no_sync`");
  OBJECT_REFUSED(&none2, &p, 0, MVS_ERR_VERSION, "version 2.3"); /* the version first */
  /* the producer fails: its exception is the error; what it left in *out is not deleted */
  OBJECT_REFUSED(&fail, &p, 1, MVS_ERR_PRODUCER, "managed_tensor_from_py_object_no_sync failed (returned -1)");
  OBJECT_REFUSED(&nothing, &p, 1, MVS_ERR_PRODUCER, "managed_tensor_from_py_object_no_sync returned 0 but no tensor");
  CHECK_EQ(deleted(&p), 0);
  CHECK_EQ(fake_calls(F_HAND) - hand, 0);
  /* the producer made a tensor the import refuses: the import's error, the tensor deleted once */
#define CASE(setup, want, part)                 \
  do {                                          \
    make(&p, g_mem, 2, shape, NULL, 0);         \
    setup;                                      \
    OBJECT_REFUSED(&api, &p, 1, want, part);    \
    CHECK_EQ(deleted(&p), 1);                   \
  } while (0)
  CASE(p.t.dl_tensor.device.device_type = DL_CUDA, MVS_ERR_DEVICE, "not the CPU");
  CASE(p.t.dl_tensor.dtype.code = 18, MVS_ERR_DTYPE, "type code 18 is unknown");
  CASE(p.t.dl_tensor.dtype.lanes = 2, MVS_ERR_DTYPE, "2 lanes");
  CASE(p.t.version.major = 2, MVS_ERR_VERSION, "version 2.1 is not supported");
  CASE(p.shape[0] = -1, MVS_ERR_SHAPE, "negative");
#undef CASE
  /* a refused tensor without a deleter: nothing to call */
  make(&p, g_mem, 2, shape, NULL, 0);
  p.t.dl_tensor.device.device_type = DL_CUDA;
  p.t.deleter = NULL;
  OBJECT_REFUSED(&api, &p, 1, MVS_ERR_DEVICE, "not the CPU");
  CHECK_EQ(deleted(&p), 0);
  /* and the same producer's good tensor: imported, deleted at the release */
  make(&p, g_mem, 2, shape, NULL, 8);
  if (CHECK_ST(import_object(&api, &p, &o), MVS_OK)) {
    CHECK_VIEW(&o.v, 2, g_mem + 1, "2 3", "24 8");
    CHECK_EQ(deleted(&p), 0);
    mvs_buffer_release(o.b);
    CHECK_EQ(deleted(&p), 1);
  }
}

int main(void) {
  test_layout();
  test_import_views();
  test_import_release_orders();
  test_import_threads();
  test_import_readonly();
  test_import_errors();
  test_export();
  test_round_trip();
  test_export_errors();
  test_object_import();
  test_object_thread();
  test_object_readonly();
  test_object_versions();
  test_object_errors();
  return check_summary("test_dlpack");
}
