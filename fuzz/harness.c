/* The fuzz target's shared harness (declared in harness.h): the current call and its report
 * when an oracle fails, the input decoder and the argument generators, the guarded memory
 * (slots against PROT_NONE pages, the arenas, the pointer table), the model's arithmetic on
 * views, the views a program works on, and the checks every call shares. */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Set by the standalone driver: saves the current input before an oracle failure aborts. */
void (*fuzz_on_fail)(void);
/* Set by the standalone driver: try, rarely, allocations no allocator can satisfy (2^46 bytes
 * and more: MVS_ERR_ALLOC). ASan warns of each; libFuzzer, which keeps such inputs in its corpus
 * and replays them, would print thousands of warnings. */
int fuzz_huge_allocs;
/* Huge allocations (2^45 bytes and more) must come back as MVS_ERR_ALLOC, not as an ASan
 * report; ASAN_OPTIONS still overrides this. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1:detect_leaks=1"; }

/* Saturation bound of the model's arithmetic: far past ptrdiff_t, far from i128's limits. */
#define LIM ((i128)1 << 100)

#define SL_BYTES ((ptrdiff_t)sizeof(mvs_slice))

const char *stname(int s) {
  static const char *const names[] = {
      "MVS_OK",           "MVS_ERR_NULL",     "MVS_ERR_NDIM",      "MVS_ERR_AXIS",
      "MVS_ERR_ITEMSIZE", "MVS_ERR_SHAPE",    "MVS_ERR_INDEX",     "MVS_ERR_STEP",
      "MVS_ERR_OVERFLOW", "MVS_ERR_NEEDS_COPY", "MVS_ERR_INDIRECT", "MVS_ERR_BOUNDS",
      "MVS_ERR_BROADCAST", "MVS_ERR_NOT_CONTIGUOUS", "MVS_ERR_VALUE", "MVS_ERR_INTERNAL",
      "MVS_ERR_ALLOC",    "MVS_ERR_DEVICE",   "MVS_ERR_DTYPE",     "MVS_ERR_VERSION",
      "MVS_ERR_OVERLAP",  "MVS_ERR_PRODUCER"};
  return s >= 0 && s <= LAST_STATUS ? names[s] : "(not a status code)";
}

/* "MVS_ERR_AXIS or MVS_ERR_NULL" for a set. */
static const char *setname(unsigned m) {
  static char buf[400];
  size_t n = 0;
  int k;
  buf[0] = 0;
  for (k = 0; k <= LAST_STATUS; k++)
    if (m & B(k)) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? " or " : "", stname(k));
  return m ? buf : "(none)";
}

/* ---- the current call, printed when an oracle fails ------------------------------------- */

struct call_ctx g_c;
static char g_note[256];
unsigned long g_calls; /* library calls made, for the statistics */

void ctx(const char *fn) {
  g_c.fn = fn;
  g_c.nv = g_c.ni = 0;
  g_note[0] = 0;
}
void ctx_v(const char *name, const mvs_slice *s, int ndim) {
  if (g_c.nv >= NCV) return;
  g_c.vname[g_c.nv] = name;
  g_c.vnull[g_c.nv] = s == NULL;
  if (s) g_c.v[g_c.nv] = *s;
  g_c.vnd[g_c.nv] = ndim;
  g_c.nv++;
}
void ctx_i(const char *name, long long v) {
  if (g_c.ni >= NCI) return;
  g_c.iname[g_c.ni] = name;
  g_c.ival[g_c.ni] = v;
  g_c.ni++;
}

static void print_arr(const char *what, const ptrdiff_t *a, int ndim) {
  int i;
  fprintf(stderr, "    %-10s", what);
  for (i = 0; i < MAXD; i++) fprintf(stderr, "%s%td", i == ndim ? " | " : i ? " " : "", a[i]);
  fprintf(stderr, "\n");
}
static void print_view(const char *name, const mvs_slice *s, int ndim) {
  fprintf(stderr, "  %s (ndim %d): memview %p, data %p\n", name, ndim, s->memview, (void *)s->data);
  print_arr("shape", s->shape, ndim);
  print_arr("strides", s->strides, ndim);
  print_arr("suboffsets", s->suboffsets, ndim);
}

/* MVS_FUZZ_SKIP: failures whose line contains one of these ';'-separated substrings are
 * reported once and skipped. */
const char *g_skip;
static unsigned long g_skipped;

static int skipped(const char *line) {
  static unsigned char seen[64];
  const char *p = g_skip;
  int k = 0;
  while (p && *p) {
    const char *e = strchr(p, ';');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char pat[256];
    if (n >= sizeof pat) n = sizeof pat - 1;
    memcpy(pat, p, n);
    pat[n] = 0;
    if (n > 0 && strstr(line, pat)) {
      if (k < 64 && !seen[k] && (seen[k] = 1)) fprintf(stderr, "fuzz: MVS_FUZZ_SKIP sets aside (reported once): %s\n", line);
      return 1;
    }
    p = e ? e + 1 : NULL;
    k++;
  }
  return 0;
}

void fail(const char *fmt, ...) {
  char line[1400];
  va_list ap;
  int i, n = snprintf(line, sizeof line, "%s: ", g_c.fn ? g_c.fn : "(setup)");
  if (n < 0 || (size_t)n >= sizeof line) n = 0;
  va_start(ap, fmt);
  vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
  va_end(ap);
  if (skipped(line)) {
    g_skipped++;
    return;
  }
  fprintf(stderr, "\n==== memviewslice fuzz: ORACLE FAILED\n%s\n", line);
  for (i = 0; i < g_c.nv; i++) {
    if (g_c.vnull[i])
      fprintf(stderr, "  %s: NULL (ndim %d)\n", g_c.vname[i], g_c.vnd[i]);
    else
      print_view(g_c.vname[i], &g_c.v[i], g_c.vnd[i]);
  }
  for (i = 0; i < g_c.ni; i++) fprintf(stderr, "  %s = %lld (%#llx)\n", g_c.iname[i], g_c.ival[i], (unsigned long long)g_c.ival[i]);
  if (g_note[0]) fprintf(stderr, "  note: %s\n", g_note);
  fprintf(stderr, "  mvs_last_error() (the message of the last failing call): \"%s\"\n", mvs_last_error());
  fflush(stderr);
  if (fuzz_on_fail) fuzz_on_fail();
  abort();
}
#define ORACLE(cond, ...) \
  do {                    \
    if (!(cond)) fail(__VA_ARGS__); \
  } while (0)

/* ---- the input: bytes read on demand, zeros once exhausted ------------------------------ */

const uint8_t *g_in;
size_t g_len, g_pos;

unsigned u8(void) { return g_pos < g_len ? g_in[g_pos++] : 0; }
uint64_t u64(void) {
  uint64_t v = 0;
  int i;
  for (i = 0; i < 8; i++) v |= (uint64_t)u8() << (8 * i);
  return v;
}
/* A number in 0..n-1 (n <= 65536). */
unsigned below(unsigned n) {
  if (n <= 1) return 0;
  if (n <= 256) return u8() % n;
  return (u8() | u8() << 8) % n;
}
/* True one time in k; false once the input is exhausted. */
int one_in(unsigned k) { return k <= 1 || u8() % k == k - 1; }

/* ---- argument values -------------------------------------------------------------------- */

static const ptrdiff_t HUGE_V[] = {
    PTRDIFF_MAX, PTRDIFF_MIN, PTRDIFF_MAX - 1, PTRDIFF_MIN + 1, PTRDIFF_MAX / 2, PTRDIFF_MAX / 2 + 1,
    PTRDIFF_MAX / 3, PTRDIFF_MAX / 7, PTRDIFF_MAX / 208, PTRDIFF_MAX / 208 + 1, (ptrdiff_t)1 << 62,
    -((ptrdiff_t)1 << 62), (ptrdiff_t)1 << 61, (ptrdiff_t)1 << 32, ((ptrdiff_t)1 << 32) - 1,
    (ptrdiff_t)1 << 31, (ptrdiff_t)1 << 30, ((ptrdiff_t)1 << 30) - 1, (ptrdiff_t)1 << 29,
    -((ptrdiff_t)1 << 29), 3037000499, 3037000500, -3037000500, PTRDIFF_MAX / 8 + 1, -1, -2};
#define NHUGE (sizeof HUGE_V / sizeof HUGE_V[0])

ptrdiff_t huge(void) {
  unsigned k = below(NHUGE + 3);
  if (k < NHUGE) return HUGE_V[k];
  if (k == NHUGE) return (ptrdiff_t)u64();
  if (k == NHUGE + 1) return (ptrdiff_t)(u64() >> below(64));
  return -(ptrdiff_t)(u64() >> (1 + below(63)));
}
ptrdiff_t small_signed(int m) { return (ptrdiff_t)below((unsigned)(2 * m + 1)) - m; }

int gen_ndim(void) {
  static const int wild[] = {-1, 9, 10, -2, INT_MIN, INT_MAX, 100, -9};
  unsigned r = below(32);
  if (r < 26) return (int)below(5);
  if (r < 29) return 5 + (int)below(4);
  return wild[below(8)];
}
ptrdiff_t gen_extent(void) {
  unsigned r = below(32);
  if (r < 3) return 0;
  if (r < 24) return 1 + (ptrdiff_t)below(4);
  if (r < 27) return 5 + (ptrdiff_t)below(40);
  if (r == 27) return -1 - (ptrdiff_t)below(3);
  return huge();
}
static ptrdiff_t gen_stride(ptrdiff_t isz) {
  unsigned r = below(16);
  if (isz <= 0 || isz > 64) isz = 8;
  if (r < 7) return isz * small_signed(4);
  if (r < 9) return small_signed(24);
  if (r == 9) return 0;
  if (r < 12) return isz * small_signed(100);
  return huge();
}
ptrdiff_t gen_itemsize(void) {
  static const ptrdiff_t odd[] = {3, 5, 6, 7, 12, 24, 32, 9};
  static const ptrdiff_t bad[] = {0, -1, -8, PTRDIFF_MIN, PTRDIFF_MAX, (ptrdiff_t)1 << 40, PTRDIFF_MAX / 2 + 1, (ptrdiff_t)1 << 62};
  static const ptrdiff_t good[] = {1, 2, 4, 8, 16};
  unsigned r = below(32);
  if (r < 24) return good[below(5)];
  if (r < 29) return odd[below(8)];
  return bad[below(8)];
}
/* An axis argument for a view of n dimensions. */
int gen_axis(int n) {
  static const int wild[] = {INT_MIN, INT_MAX, INT_MIN + 1, -100, 100, 8, -9};
  unsigned r = below(16);
  if (n < 0 || n > MAXD + 1) n = 3;
  if (r < 13) return (int)below((unsigned)(2 * n + 2)) - n - 1;
  if (r < 15) return (int)below((unsigned)(2 * n + 6)) - n - 3;
  return wild[below(7)];
}
/* A slice bound or an index near an extent. */
ptrdiff_t gen_bound(ptrdiff_t len) {
  unsigned r = below(16);
  ptrdiff_t l = len < 0 || len > 1000 ? 8 : len;
  if (r < 9) return (ptrdiff_t)below((unsigned)(2 * l + 5)) - l - 2;
  if (r < 11) return MVS_NONE;
  if (r == 11 && len > 0) return len - 1 - (ptrdiff_t)below(2);
  if (r == 12 && len > 0) return -len + (ptrdiff_t)below(2);
  return huge();
}
ptrdiff_t gen_step(void) {
  unsigned r = below(16);
  if (r < 6) return 1;
  if (r < 8) return -1;
  if (r == 8) return MVS_NONE;
  if (r == 9) return 0;
  if (r < 13) return (one_in(2) ? 1 : -1) * (2 + (ptrdiff_t)below(4));
  return huge();
}
int gen_order(void) {
  static const int wild[] = {'A', 'c', 'f', 0, -1, 'K', 'C' + 256, INT_MIN};
  unsigned r = below(32);
  if (r < 15) return 'C';
  if (r < 29) return 'F';
  return wild[below(8)];
}
static ptrdiff_t gen_sub(void) {
  unsigned r = below(8);
  if (r < 3) return (ptrdiff_t)below(64);
  if (r == 3) return one_in(2) ? PTRDIFF_MAX : (ptrdiff_t)1 << 62;
  if (r == 4) return (ptrdiff_t)(u64() >> 1);
  if (r == 5) return -2 - (ptrdiff_t)below(100); /* another negative: direct */
  if (r == 6) return PTRDIFF_MIN;                 /* direct too */
  return 0;
}

/* ---- guarded memory ------------------------------------------------------------------------
 * Each region is mapped with a PROT_NONE page on each side. Objects are placed flush against
 * one of the guards; the rest of a slot holds a canary, checked after every call. */

size_t g_page;

unsigned char *map_guarded(size_t bytes) {
  size_t n = (bytes + g_page - 1) / g_page * g_page;
  unsigned char *p = mmap(NULL, n + 2 * g_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    perror("fuzz: mmap");
    abort();
  }
  if (mprotect(p, g_page, PROT_NONE) != 0 || mprotect(p + g_page + n, g_page, PROT_NONE) != 0) {
    perror("fuzz: mprotect");
    abort();
  }
  return p + g_page;
}

slot_t g_sl[NSLOT];
unsigned char g_canary[4096];

/* Room for `len` bytes in slot k, flush against its upper guard (most often) or its lower
 * one, or (rarely) inside; `align` divides `len` where flushness matters. */
void *slot_put(int k, size_t len, size_t align) {
  slot_t *s = &g_sl[k];
  unsigned w = below(16);
  size_t off;
  if (len > s->cap) {
    fprintf(stderr, "fuzz: object of %zu bytes for a slot of %zu\n", len, s->cap);
    abort();
  }
  if (w < 10)
    off = s->cap - len;
  else if (w < 14)
    off = 0;
  else
    off = (size_t)below((unsigned)((s->cap - len) / align + 1 > 65536 ? 65536 : (s->cap - len) / align + 1)) * align;
  off -= off % align;
  s->off = off;
  s->len = len;
  s->used = 1;
  return s->lo + off;
}
/* An empty array: NULL, or the address of a guard page (nothing may be read there). */
void *empty_arr(int k) {
  if (one_in(2)) return NULL;
  return one_in(2) ? g_sl[k].lo + g_sl[k].cap : g_sl[k].lo;
}

/* A shape argument of `m` extents: a copy of `extents` placed in SL_ARR1 (NULL once in 48);
   for m <= 0, NULL or, half the time, an empty array (empty_arr). */
ptrdiff_t *shape_arg(const ptrdiff_t *extents, int m) {
  ptrdiff_t *shape = NULL;
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    memcpy(shape, extents, (size_t)m * sizeof *shape);
    if (one_in(48)) shape = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
  }
  return shape;
}

/* The canary around every placed object is intact; then every slot is reset. */
void slots_done(void) {
  int k;
  for (k = 0; k < NSLOT; k++) {
    slot_t *s = &g_sl[k];
    size_t a, b;
    if (!s->used) continue;
    a = s->off > sizeof g_canary ? s->off - sizeof g_canary : 0;
    b = s->off + s->len + sizeof g_canary < s->cap ? s->off + s->len + sizeof g_canary : s->cap;
    if (memcmp(s->lo + a, g_canary, s->off - a) != 0 || memcmp(s->lo + s->off + s->len, g_canary, b - s->off - s->len) != 0) {
      size_t i;
      for (i = a; i < b; i++)
        if ((i < s->off || i >= s->off + s->len) && s->lo[i] != CANARY) break;
      fail("wrote outside an object of %zu bytes: byte %td from its start is 0x%02x", s->len,
           (ptrdiff_t)i - (ptrdiff_t)s->off, s->lo[i]);
    }
    memset(s->lo + s->off, CANARY, s->len);
    s->used = 0;
  }
}

int is_sent(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  size_t i;
  for (i = 0; i < n; i++)
    if (b[i] != SENT) return 0;
  return 1;
}

unsigned char *g_ar[2];
unsigned char *g_table;
unsigned char g_snap[2][ARENA], g_exp[2][ARENA], g_cov[2][ARENA], g_okb[2][ARENA];
uint64_t g_rng;

uint64_t xrand(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

/* Which arena holds [p, p + n), and where; -1 when none does. */
int arena_at(const char *p, size_t n, size_t *off) {
  int w;
  for (w = 0; w < 2; w++) {
    uintptr_t lo = (uintptr_t)g_ar[w], a = (uintptr_t)p;
    if (a >= lo && a - lo <= ARENA && n <= ARENA - (a - lo)) {
      *off = a - lo;
      return w;
    }
  }
  return -1;
}

/* The pointer stored at `addr`, which must lie in the table (the model's dereference). */
char *load_ptr(uintptr_t addr) {
  char *p;
  uintptr_t lo = (uintptr_t)g_table;
  if (addr < lo || addr - lo > TABLE - sizeof p) fail("fuzzer: the model would read a pointer outside the table at %#lx", (unsigned long)addr);
  memcpy(&p, (const void *)addr, sizeof p);
  return p;
}

/* ---- the model: arithmetic on views, in 128 bits ----------------------------------------- */

static i128 sat(i128 v) { return v > LIM ? LIM : v < -LIM ? -LIM : v; }
i128 iabs(i128 v) { return v < 0 ? -v : v; }
i128 smul(i128 a, i128 b) {
  if (a == 0 || b == 0) return 0;
  if (iabs(a) > LIM / iabs(b)) return (a < 0) != (b < 0) ? -LIM : LIM;
  return a * b;
}
/* p + off as an address, wrapping like the library's (off must fit in ptrdiff_t). */
char *addr_add(const char *p, i128 off) { return (char *)((uintptr_t)p + (uintptr_t)(ptrdiff_t)off); }
/* The signed distance b - a between two addresses. */
i128 addr_diff(const void *b, const void *a) { return (i128)(intptr_t)((uintptr_t)b - (uintptr_t)a); }

int zero_size(const mvs_slice *s, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (s->shape[i] == 0) return 1;
  return 0;
}
/* The item count (saturated); 0 when an extent is 0. */
i128 items_of(const ptrdiff_t *shape, int n) {
  i128 p = 1;
  int i;
  for (i = 0; i < n; i++) p = smul(p, shape[i]);
  return p;
}
/* The span: sum of (len - 1) * |stride|, 0 for a zero-size view (saturated). */
i128 span_of(const mvs_slice *s, int n) {
  i128 t = 0;
  int i;
  if (zero_size(s, n)) return 0;
  for (i = 0; i < n; i++) t = sat(t + smul(s->shape[i] - 1, iabs(s->strides[i])));
  return t;
}
int direct_of(const mvs_slice *s, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (s->suboffsets[i] >= 0) return 0;
  return 1;
}
/* The common errors of a view: NULL, ndim outside 0..8, a negative extent, a span past
 * PTRDIFF_MAX; 0 for a valid view. */
unsigned view_errs(const mvs_slice *s, int n) {
  int i;
  if (!s) return M_NULL;
  if (n < 0 || n > MAXD) return M_NDIM;
  for (i = 0; i < n; i++)
    if (s->shape[i] < 0) return M_SHAPE;
  return span_of(s, n) > PMAX ? M_OVF : 0;
}
/* The byte extent [lo, hi) of a valid view, relative to its data address ([0, 0) when it is
 * zero-size); whether both ends fit in ptrdiff_t. */
int extent_of(const mvs_slice *s, int n, ptrdiff_t isz, i128 *lo, i128 *hi) {
  int i;
  *lo = *hi = 0;
  if (zero_size(s, n)) return 1;
  *hi = isz;
  for (i = 0; i < n; i++) {
    i128 t = smul(s->shape[i] - 1, s->strides[i]);
    if (t < 0)
      *lo = sat(*lo + t);
    else
      *hi = sat(*hi + t);
  }
  return FITS(*lo) && FITS(*hi);
}
int norm_axis(long long axis, int n) {
  long long a = axis < 0 ? axis + n : axis;
  return a >= 0 && a < n ? (int)a : -1;
}
ptrdiff_t kept_sub(ptrdiff_t s) { return s < 0 ? -1 : s; }
/* A view with no axis at `data`. */
mvs_slice empty_view(char *data, void *memview) {
  mvs_slice r;
  int i;
  r.memview = memview;
  r.data = data;
  for (i = 0; i < MAXD; i++) {
    r.shape[i] = 0;
    r.strides[i] = 0;
    r.suboffsets[i] = -1;
  }
  return r;
}
/* `s` as results store it: entries past n cleared, direct suboffsets -1. */
mvs_slice norm_copy(const mvs_slice *s, int n) {
  mvs_slice r = empty_view(s->data, s->memview);
  int i;
  for (i = 0; i < n; i++) {
    r.shape[i] = s->shape[i];
    r.strides[i] = s->strides[i];
    r.suboffsets[i] = kept_sub(s->suboffsets[i]);
  }
  return r;
}
void push_axis(mvs_slice *r, int *n, ptrdiff_t len, ptrdiff_t stride, ptrdiff_t sub) {
  r->shape[*n] = len;
  r->strides[*n] = stride;
  r->suboffsets[*n] = sub;
  (*n)++;
}
void remove_axis(mvs_slice *r, int n, int a) {
  int i;
  for (i = a; i < n - 1; i++) {
    r->shape[i] = r->shape[i + 1];
    r->strides[i] = r->strides[i + 1];
    r->suboffsets[i] = r->suboffsets[i + 1];
  }
  r->shape[n - 1] = 0;
  r->strides[n - 1] = 0;
  r->suboffsets[n - 1] = -1;
}
/* The origin of `r` moved by `move` bytes along an axis at position `at` of r: into the
 * suboffset of the last indirect axis before it (PEP 3118), or the data address; *moved, the
 * bytes the data address moved. */
unsigned m_shift(mvs_slice *r, int at, i128 move, i128 *moved) {
  int j;
  *moved = 0;
  for (j = at - 1; j >= 0; j--)
    if (r->suboffsets[j] >= 0) break;
  if (j >= 0) {
    i128 ns = (i128)r->suboffsets[j] + move;
    if (!FITS(ns)) return M_OVF;
    if (ns < 0) return M_IND;
    r->suboffsets[j] = (ptrdiff_t)ns;
    return 0;
  }
  r->data = addr_add(r->data, move);
  *moved = move;
  return 0;
}
/* Python's slice(start, stop, step).indices(len), as CPython's PySlice_AdjustIndices: the
 * first position, the count and the step; 1 for a step of 0. */
int py_slice(i128 len, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, i128 *first, i128 *count, i128 *stepv) {
  i128 st = step == MVS_NONE ? 1 : step, b, e;
  if (st == 0) return 1;
  if (st > 0) {
    b = start == MVS_NONE ? 0 : start;
    e = stop == MVS_NONE ? len : stop;
    if (b < 0) { b += len; if (b < 0) b = 0; } else if (b > len) b = len;
    if (e < 0) { e += len; if (e < 0) e = 0; } else if (e > len) e = len;
    *count = e > b ? (e - b - 1) / st + 1 : 0;
  } else {
    b = start == MVS_NONE ? len - 1 : start;
    e = stop == MVS_NONE ? -1 : stop;
    if (start != MVS_NONE) { if (b < 0) { b += len; if (b < 0) b = -1; } else if (b >= len) b = len - 1; }
    if (stop != MVS_NONE) { if (e < 0) { e += len; if (e < 0) e = -1; } else if (e >= len) e = len - 1; }
    *count = b > e ? (b - e - 1) / (-st) + 1 : 0;
  }
  *first = b;
  *stepv = st;
  return 0;
}
/* The contiguous strides of `shape` in `order`, zero extents counting as 1; 0 when the
 * product of all extents times isz does not fit. */
int contig_strides(const ptrdiff_t *shape, int n, ptrdiff_t isz, int order, ptrdiff_t *st) {
  i128 s = isz;
  int k;
  for (k = 0; k < MAXD; k++) st[k] = 0;
  for (k = 0; k < n; k++) {
    int a = order == 'F' ? k : n - 1 - k;
    st[a] = (ptrdiff_t)s;
    s = smul(s, shape[a] > 1 ? shape[a] : 1);
    if (s > PMAX) return 0;
  }
  return 1;
}
/* Contiguity in order: NumPy's relaxed rule (extent-1 axes ignored, zero-size views
 * contiguous) or Cython's strict one; indirect views never are. */
int contig_rule(const mvs_slice *s, int n, ptrdiff_t isz, int order, int strict) {
  i128 e = isz;
  int k;
  if (!direct_of(s, n)) return 0;
  for (k = 0; k < n; k++) {
    int a = order == 'F' ? k : n - 1 - k;
    if ((strict || s->shape[a] != 1) && (i128)s->strides[a] != e) return !strict && zero_size(s, n);
    e = smul(e, s->shape[a]);
  }
  return 1;
}
int next_idx(ptrdiff_t *idx, const ptrdiff_t *shape, int n) {
  int i;
  for (i = n - 1; i >= 0; i--) {
    if (++idx[i] < shape[i]) return 1;
    idx[i] = 0;
  }
  return 0;
}
/* The address of element idx (in range) of a view, following indirect axes through the
 * table. */
char *elem_addr(const mvs_slice *s, int n, const ptrdiff_t *idx) {
  char *p = s->data;
  int i;
  for (i = 0; i < n; i++) {
    p = addr_add(p, (i128)idx[i] * s->strides[i]);
    if (s->suboffsets[i] >= 0) p = addr_add(load_ptr((uintptr_t)p), s->suboffsets[i]);
  }
  return p;
}
/* Whether every dereference a call may make through `s` lands in the table: at most one
 * indirect axis j, the axes before it of stride 0 or extent 1, and every position along j
 * holding a pointer inside the table. Views that the library must refuse are safe too. */
int deref_safe(const mvs_slice *s, int n) {
  int i, j = -1;
  i128 a, b;
  if (view_errs(s, n)) return 1;
  for (i = 0; i < n; i++)
    if (s->suboffsets[i] >= 0) {
      if (j >= 0) return 0;
      j = i;
    }
  if (j < 0) return 1;
  for (i = 0; i < j; i++)
    if (s->strides[i] != 0 && s->shape[i] > 1) return 0;
  if (s->shape[j] == 0) return 1;
  a = addr_diff(s->data, g_table);
  b = a + (i128)(s->shape[j] - 1) * s->strides[j];
  return a >= 0 && b >= 0 && a <= TABLE - 8 && b <= TABLE - 8;
}

/* ---- the views a program works on ---------------------------------------------------------- */

pv_t g_pv[NV];
static const ptrdiff_t ISZ[] = {1, 2, 4, 8, 16, 8, 4, 8, 3, 5, 12, 24, 6, 7};
ptrdiff_t pick_isz(void) { return ISZ[below(sizeof ISZ / sizeof ISZ[0])]; }

static void garble_tail(mvs_slice *s, int n) {
  int i;
  if (!one_in(3)) return;
  for (i = n < 0 ? 0 : n; i < MAXD; i++) {
    s->shape[i] = (ptrdiff_t)u64();
    s->strides[i] = huge();
    s->suboffsets[i] = one_in(2) ? (ptrdiff_t)below(100) : -1;
  }
}
void *gen_token(void) {
  static const char tokens[4] = {0};
  unsigned r = below(8);
  if (r < 5) return NULL;
  if (r < 7) return (void *)&tokens[below(4)];
  return (void *)(uintptr_t)u64();
}
/* A data address for a view that nothing dereferences. */
char *gen_wild_data(void) {
  switch (below(8)) {
    case 0: return NULL;
    case 1: return (char *)g_ar[below(2)] + below(ARENA);
    case 2: return (char *)(uintptr_t)below(65536);
    case 3: return (char *)(uintptr_t)(UINTPTR_MAX - below(65536));
    case 4: return (char *)(uintptr_t)((uintptr_t)1 << 63);
    default: return (char *)(uintptr_t)u64();
  }
}

/* Extents shrunk until the view has at most MAXITEMS items and its extent fits an arena. */
static void fit_arena(mvs_slice *s, int n, ptrdiff_t isz) {
  for (;;) {
    i128 lo, hi, best = -1;
    int i, a = -1;
    if (items_of(s->shape, n) <= MAXITEMS && extent_of(s, n, isz, &lo, &hi) && hi - lo <= ARENA) return;
    for (i = 0; i < n; i++) {
      i128 w = smul(s->shape[i] - 1, iabs(s->strides[i])) + s->shape[i];
      if (s->shape[i] > 1 && w > best) {
        best = w;
        a = i;
      }
    }
    if (a < 0) {
      fprintf(stderr, "fuzz: cannot fit a view in an arena\n");
      abort();
    }
    s->shape[a] /= 2;
  }
}
/* The data address of a view that fits an arena: flush against either end of arena w, or
 * anywhere inside. */
void place_arena(mvs_slice *s, int n, ptrdiff_t isz, int w) {
  i128 lo, hi;
  size_t width, off;
  unsigned r = below(4);
  extent_of(s, n, isz, &lo, &hi);
  if (zero_size(s, n)) {
    s->data = (char *)g_ar[w] + below(ARENA + 1);
    return;
  }
  width = (size_t)(hi - lo);
  off = r == 0 ? 0 : r == 1 ? ARENA - width : below((unsigned)(ARENA - width + 1));
  s->data = (char *)g_ar[w] + off + (size_t)(-lo);
}
/* A direct view inside an arena: of n dimensions (n < 0: chosen here), items of isz bytes. */
void gen_arena_view_n(pv_t *v, int n, ptrdiff_t isz) {
  mvs_slice *s = &v->s;
  int i, layout;
  *s = empty_view(NULL, gen_token());
  if (n < 0) n = one_in(12) ? 5 + (int)below(4) : (int)below(5);
  for (i = 0; i < n; i++) {
    unsigned r = below(16);
    s->shape[i] = r == 0 ? 0 : r < 12 ? 1 + (ptrdiff_t)below(4) : 1 + (ptrdiff_t)below(12);
  }
  layout = (int)below(6);
  if (layout < 3) {
    ptrdiff_t st[MAXD];
    contig_strides(s->shape, n, isz, layout == 2 ? 'F' : 'C', st);
    for (i = 0; i < n; i++) s->strides[i] = st[i];
    if (one_in(3))
      for (i = 0; i < n; i++)
        if (one_in(3)) s->strides[i] = -s->strides[i];
    if (one_in(4) && n >= 2) {
      int a = (int)below((unsigned)n), b = (int)below((unsigned)n);
      ptrdiff_t t = s->strides[a];
      s->strides[a] = s->strides[b];
      s->strides[b] = t;
      t = s->shape[a];
      s->shape[a] = s->shape[b];
      s->shape[b] = t;
    }
    if (one_in(4) && n >= 1) s->strides[below((unsigned)n)] *= 2;
  } else {
    for (i = 0; i < n; i++) {
      unsigned r = below(8);
      s->strides[i] = r == 0 ? 0 : r < 6 ? isz * (1 + (ptrdiff_t)below(6)) * (one_in(2) ? 1 : -1) : r == 6 ? small_signed(40) : isz * (ptrdiff_t)(1 + below(20));
    }
  }
  for (i = 0; i < n; i++)
    if (one_in(12)) s->suboffsets[i] = one_in(2) ? PTRDIFF_MIN : -2 - (ptrdiff_t)below(50);
  fit_arena(s, n, isz);
  place_arena(s, n, isz, (int)below(2));
  garble_tail(s, n);
  v->ndim = n;
  v->isz = isz;
}
static void gen_arena_view(pv_t *v) { gen_arena_view_n(v, -1, pick_isz()); }

/* An indirect view over the pointer table: axis j (0, or 1 after an axis of stride 0 or
 * extent 1) indirect, every position along it holding a pointer of the table; the other
 * axes direct (the addresses they reach are never read). */
static void gen_table_view(pv_t *v) {
  static const ptrdiff_t tstrides[] = {8, -8, 16, -16, 24, 3, -5, 9, 0, 8};
  mvs_slice *s = &v->s;
  ptrdiff_t isz = pick_isz(), len, st;
  int n = 1 + (int)below(4), j = n > 1 && one_in(4) ? 1 : 0, i;
  i128 lo, hi;
  size_t off;
  *s = empty_view(NULL, gen_token());
  for (i = 0; i < n; i++) {
    s->shape[i] = one_in(10) ? 0 : 1 + (ptrdiff_t)below(4);
    s->strides[i] = one_in(8) ? huge() : isz * small_signed(5);
  }
  if (j == 1) {
    s->shape[0] = 1 + (ptrdiff_t)below(3);
    if (s->shape[0] > 1) s->strides[0] = 0;
  }
  len = one_in(10) ? 0 : 1 + (ptrdiff_t)below(8);
  st = tstrides[below(sizeof tstrides / sizeof tstrides[0])];
  s->shape[j] = len;
  s->strides[j] = st;
  s->suboffsets[j] = gen_sub();
  if (s->suboffsets[j] < 0) s->suboffsets[j] = (ptrdiff_t)below(32);
  lo = len > 0 && (len - 1) * st < 0 ? (len - 1) * st : 0;
  hi = (len > 0 && (len - 1) * st > 0 ? (len - 1) * st : 0) + 8;
  switch (below(4)) {
    case 0: off = 0; break;
    case 1: off = TABLE - (size_t)(hi - lo); break;
    default: off = below((unsigned)(TABLE - (size_t)(hi - lo) + 1));
  }
  s->data = (char *)g_table + off + (size_t)(-lo);
  garble_tail(s, n);
  v->ndim = n;
  v->isz = isz;
}
/* A view of anything: ndim possibly out of range, extents and strides possibly huge or
 * negative, suboffsets anywhere, any data address. */
static void gen_wild_view(pv_t *v) {
  mvs_slice *s = &v->s;
  int n = gen_ndim(), i, m = n < 0 ? 0 : n > MAXD ? MAXD : n;
  ptrdiff_t isz = one_in(8) ? gen_itemsize() : pick_isz();
  *s = empty_view(gen_wild_data(), gen_token());
  for (i = 0; i < m; i++) {
    s->shape[i] = gen_extent();
    s->strides[i] = gen_stride(isz);
    s->suboffsets[i] = one_in(6) ? gen_sub() : -1;
  }
  garble_tail(s, m);
  v->ndim = n;
  v->isz = isz;
}
void gen_view(pv_t *v) {
  unsigned r = below(16);
  if (r < 8)
    gen_arena_view(v);
  else if (r < 10)
    gen_table_view(v);
  else
    gen_wild_view(v);
}

/* ---- calls ---------------------------------------------------------------------------------- */

static char g_lasterr[300];

void pre_call(void) {
  const char *m = mvs_last_error();
  if (!m) fail("mvs_last_error() returned NULL");
  snprintf(g_lasterr, sizeof g_lasterr, "%s", m ? m : "");
  g_calls++;
}
/* A function without a status (the releases): the message is unchanged. */
void check_void_call(void) {
  const char *m = mvs_last_error();
  if (!m || strcmp(m, g_lasterr) != 0) fail("changed mvs_last_error() from \"%s\" to \"%s\"", g_lasterr, m ? m : "(null)");
}
/* Statistics: the statuses each function returned (MVS_FUZZ_STATS=1 prints them at exit). */
#define NSTAT 64
static struct {
  const char *fn;
  unsigned long n[LAST_STATUS + 1];
} g_stat[NSTAT];
static void count_status(int st) {
  int i;
  if (st < 0 || st > LAST_STATUS) return;
  for (i = 0; i < NSTAT && g_stat[i].fn; i++)
    if (g_stat[i].fn == g_c.fn) break;
  if (i == NSTAT) return;
  g_stat[i].fn = g_c.fn;
  g_stat[i].n[st]++;
}
void fuzz_report(void);
void fuzz_report(void) {
  int i, k;
  inline_report();
  for (i = 0; i < NSTAT && g_stat[i].fn; i++) {
    fprintf(stderr, "  %-34s", g_stat[i].fn);
    for (k = 0; k <= LAST_STATUS; k++)
      if (g_stat[i].n[k]) fprintf(stderr, " %s:%lu", k ? stname(k) + 8 : "OK", g_stat[i].n[k]);
    fprintf(stderr, "\n");
  }
}

/* The status is MVS_OK when `must` is empty (or one of `tol`), else one of `must` or `tol`;
 * a failure leaves a message, a success the previous one. */
void check_status(int st, unsigned must, unsigned tol) {
  const char *m, *d;
  count_status(st);
  if (st < 0 || st > LAST_STATUS) fail("returned %d, which is not a status code", st);
  d = mvs_status_str(st);
  if (!d || !d[0] || strcmp(d, "unknown status code") == 0) fail("mvs_status_str(%d) is \"%s\"", st, d ? d : "(null)");
  if (st == MVS_ERR_INTERNAL) {
    fail("returned MVS_ERR_INTERNAL: \"%s\"", mvs_last_error());
    return; /* set aside by MVS_FUZZ_SKIP */
  }
  if (must) {
    if (st == MVS_OK) fail("returned MVS_OK, expected %s", setname(must));
    if (!(B(st) & (must | tol))) fail("returned %s, expected %s", stname(st), setname(must | tol));
  } else if (st != MVS_OK && !(B(st) & tol)) {
    fail("returned %s, expected MVS_OK", stname(st));
  }
  m = mvs_last_error();
  if (st != MVS_OK) {
    size_t n = m ? strlen(m) : 0;
    if (!m || n == 0 || n > 255 || strcmp(m, "no error") == 0)
      fail("failed with %s and mvs_last_error() \"%s\"", stname(st), m ? m : "(null)");
  } else if (!m || strcmp(m, g_lasterr) != 0) {
    fail("succeeded and changed mvs_last_error() from \"%s\" to \"%s\"", g_lasterr, m ? m : "(null)");
  }
}

/* A derived direct view of nonzero size lies inside its source's byte extent (the model's,
 * and mvs_byte_extent's, which must agree): the result's items of `risz` bytes inside the
 * source's of `sisz` (the same but for view_as). */
static void check_inside(const mvs_slice *src, int sn, ptrdiff_t sisz, const mvs_slice *r, int rn, ptrdiff_t risz) {
  i128 slo, shi, rlo, rhi, rel;
  ptrdiff_t lo = 0, hi = 0;
  int st;
  if (view_errs(src, sn) || !direct_of(src, sn) || !direct_of(r, rn) || zero_size(r, rn)) return;
  if (sisz <= 0 || sisz > 64 || risz <= 0 || risz > 64) {
    if (sisz != risz) return;
    sisz = risz = 1;
  }
  if (!extent_of(src, sn, sisz, &slo, &shi) || !extent_of(r, rn, risz, &rlo, &rhi)) return;
  rel = addr_diff(r->data, src->data);
  if (rel + rlo < slo || rel + rhi > shi)
    fail("the result addresses bytes [%lld, %lld) from the source's data address, outside its extent [%lld, %lld) (items of %td bytes, %td in the source)",
         (long long)(rel + rlo), (long long)(rel + rhi), (long long)slo, (long long)shi, risz, sisz);
  st = mvs_byte_extent(r, rn, risz, &lo, &hi);
  if (st != MVS_OK || lo != rlo || hi != rhi)
    fail("mvs_byte_extent of the result gave %s [%td, %td), the model [%lld, %lld)", stname(st), lo, hi, (long long)rlo, (long long)rhi);
  st = mvs_byte_extent(src, sn, sisz, &lo, &hi);
  if (st != MVS_OK || lo != slo || hi != shi)
    fail("mvs_byte_extent of the source gave %s [%td, %td), the model [%lld, %lld)", stname(st), lo, hi, (long long)slo, (long long)shi);
}

/* A result against the model's, byte for byte (strides of the axes in `free` excepted: they
 * are a free choice), then inside its source. */
void check_view_result(const mvs_slice *src, int sn, const mvs_slice *got, mvs_slice *exp, int en, unsigned free, ptrdiff_t isz, const char *what) {
  int i;
  for (i = 0; i < en && i < MAXD; i++)
    if (free & (1u << i)) exp->strides[i] = got->strides[i];
  if (memcmp(got, exp, sizeof *got) != 0) {
    ctx_v("result", got, en);
    ctx_v("expected", exp, en);
    fail("%s differs from the model", what);
  }
  if (src) check_inside(src, sn, isz, got, en, isz);
}
void store_view(const mvs_slice *s, int n, ptrdiff_t isz) {
  pv_t *v = &g_pv[below(NV)];
  v->s = *s;
  v->ndim = n;
  v->isz = isz;
}

void dc_begin(dc_t *d, const char *fn) {
  const pv_t *v = &g_pv[below(NV)];
  mvs_slice *s;
  ctx(fn);
  d->sv = v->s;
  d->ndim = one_in(24) ? gen_ndim() : v->ndim;
  d->isz = v->isz;
  d->out_isz = 0;
  s = slot_put(SL_SRC, sizeof *s, 8);
  *s = d->sv;
  d->src = one_in(48) ? NULL : s;
  d->inplace = d->src && one_in(6);
  if (d->inplace) {
    d->out = s;
  } else if (one_in(48)) {
    d->out = NULL;
  } else {
    d->out = slot_put(SL_OUT, sizeof *d->out, 8);
    memset(d->out, SENT, sizeof *d->out);
  }
  ctx_v("src", d->src ? &d->sv : NULL, d->ndim);
  d->valid = d->src && view_errs(&d->sv, d->ndim) == 0;
}
/* The errors of every derivation: a NULL source or output, the source's own. */
unsigned dc_errs(const dc_t *d) { return (d->out ? 0 : M_NULL) | (d->src ? view_errs(&d->sv, d->ndim) : M_NULL); }

/* After a derivation: the status; on failure the output untouched and the source unchanged;
 * on success the result as the model's, kept as a program view. */
void dc_end(dc_t *d, int st, unsigned must, unsigned tol, mvs_slice *exp, int en, unsigned free) {
  check_status(st, must, tol);
  if (st != MVS_OK) {
    if (d->out && !d->inplace && !is_sent(d->out, sizeof *d->out)) fail("failed with %s and wrote its output", stname(st));
    if (d->src && memcmp(d->src, &d->sv, sizeof d->sv) != 0) fail("failed with %s and changed its source", stname(st));
  } else if (!must) {
    ptrdiff_t risz = d->out_isz ? d->out_isz : d->isz;
    if (!d->inplace && memcmp(d->src, &d->sv, sizeof d->sv) != 0) fail("changed its source");
    check_view_result(NULL, 0, d->out, exp, en, free, d->isz, "the result");
    check_inside(&d->sv, d->ndim, d->isz, d->out, en, risz);
    store_view(d->out, en, risz);
  }
  slots_done();
}
