/* A fuzz target over every exported function of memviewslice (include/memviewslice.h).
 *
 * LLVMFuzzerTestOneInput decodes its bytes into a program of up to 64 calls: constructors,
 * derivations, queries, splits, mvs_copy / mvs_fill / mvs_copy_contiguous, buffers (alloc,
 * wrap, retain, release, memory references, attachments, queries, views), pools (create,
 * acquire, acquire_slab, release, counts, destroy), mvs_status_str and mvs_last_error. A
 * program keeps 8 views, 6 buffers and 3 pools, so that calls build on earlier results.
 * Arguments are mostly plausible (small shapes and strides of either sign, ndim -1..9, axes
 * out of range, MVS_NONE, values near PTRDIFF_MAX and PTRDIFF_MIN, NULL pointers, impossible
 * counts) and sometimes wild. Views that a call reads or writes through lie inside two
 * 8 KiB arenas (or a table of pointers, for indirect views that are dereferenced); the
 * others may point anywhere, since the library never dereferences them.
 *
 * Every object the library reads or writes through a pointer (source and destination
 * mvs_slice structs, outputs, shape/strides/axes/index/items arrays, split outputs, fill
 * items, the arenas, the pointer table) lies flush against a PROT_NONE guard page, at the end
 * of its region or at its start, so a one-byte overrun faults; the bytes around it are a
 * canary, checked after every call.
 *
 * Oracles, after every call:
 * - the status is MVS_OK or one of the errors the header gives for the function in that case
 *   (never MVS_ERR_INTERNAL): each call is run on a model written here from the header,
 *   which gives the exact result, or the set of errors that apply;
 * - on failure every output is byte-identical to its pre-filled sentinel (an in-place source
 *   unchanged), the inputs are unchanged, and mvs_last_error() is a message; on success the
 *   message is unchanged, and mvs_status_str() knows every returned code;
 * - results equal the model's, byte for byte (every entry past ndim shape 0, stride 0,
 *   suboffset -1, direct suboffsets -1, the source's memview): slice_axis against Python's
 *   slice arithmetic, index/index_axis/element_ptr (through suboffsets), transpose, permute,
 *   swap, move, broadcast, expand/squeeze, diagonal, flip, sliding windows, splits, subviews,
 *   reshape (NumPy's no-copy rule, checked again element by element), the queries against
 *   products, extents and the ndarray overlap rule;
 * - a derived direct view of nonzero size lies inside its source's byte extent;
 * - mvs_copy and mvs_fill against an element-by-element reference on a snapshot of the arenas
 *   (the source copied first): every byte outside the destination unchanged; where a
 *   destination's items overlap each other, each byte holds one of the values written there;
 *   mvs_copy_contiguous's new buffer holds the items in order;
 * - buffers: reference counts as modelled, attachments found and detached exactly once at
 *   the last reference, memory freed (the counting deallocation callback run) exactly once,
 *   after the detaches, and only when no reference remains; pools: counts, the last array
 *   given back handed out first, arrays 64-byte aligned, disjoint, writable, kept alive by a
 *   retained slab after mvs_pool_destroy.
 * An oracle failure prints what failed, the call's arguments and the last error, then
 * abort()s (libFuzzer saves the input; the driver saves it under build/fuzz/). Known findings
 * can be set aside while looking for others: MVS_FUZZ_SKIP="substring;substring" reports each
 * matching failure once and goes on.
 *
 * Run: `make fuzz FUZZ_SECONDS=N` (libFuzzer through clang when clang is on PATH, else the
 * seeded driver fuzz/driver.c; ASan and UBSan either way), `make fuzz-smoke` (the driver for
 * 60 s with a fixed seed, part of `make test`). By hand: build/fuzz/driver SECONDS [SEED], or
 * build/fuzz/driver --replay FILE...; build/fuzz/fuzz_api [libFuzzer options] [corpus].
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS under -std=c11 */
#endif
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "memviewslice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Set by the standalone driver: saves the current input before an oracle failure aborts. */
void (*fuzz_on_fail)(void);
/* Huge allocations (2^45 bytes and more) must come back as MVS_ERR_ALLOC, not as an ASan
 * report; ASAN_OPTIONS still overrides this. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1:detect_leaks=1"; }

__extension__ typedef __int128 i128;
#define PMAX ((i128)PTRDIFF_MAX)
#define PMIN ((i128)PTRDIFF_MIN)
#define FITS(v) ((v) >= PMIN && (v) <= PMAX)
/* Saturation bound of the model's arithmetic: far past ptrdiff_t, far from i128's limits. */
#define LIM ((i128)1 << 100)

/* Error sets: bit k stands for status k. */
#define B(st) (1u << (st))
#define M_NULL B(MVS_ERR_NULL)
#define M_NDIM B(MVS_ERR_NDIM)
#define M_AXIS B(MVS_ERR_AXIS)
#define M_ITEM B(MVS_ERR_ITEMSIZE)
#define M_SHAPE B(MVS_ERR_SHAPE)
#define M_INDEX B(MVS_ERR_INDEX)
#define M_STEP B(MVS_ERR_STEP)
#define M_OVF B(MVS_ERR_OVERFLOW)
#define M_COPY B(MVS_ERR_NEEDS_COPY)
#define M_IND B(MVS_ERR_INDIRECT)
#define M_BOUNDS B(MVS_ERR_BOUNDS)
#define M_BCAST B(MVS_ERR_BROADCAST)
#define M_NCONTIG B(MVS_ERR_NOT_CONTIGUOUS)
#define M_VALUE B(MVS_ERR_VALUE)
#define M_ALLOC B(MVS_ERR_ALLOC)

#define MAXD MVS_MAX_DIMS
#define SL_BYTES ((ptrdiff_t)sizeof(mvs_slice))

static const char *stname(int s) {
  static const char *const names[] = {
      "MVS_OK",           "MVS_ERR_NULL",     "MVS_ERR_NDIM",      "MVS_ERR_AXIS",
      "MVS_ERR_ITEMSIZE", "MVS_ERR_SHAPE",    "MVS_ERR_INDEX",     "MVS_ERR_STEP",
      "MVS_ERR_OVERFLOW", "MVS_ERR_NEEDS_COPY", "MVS_ERR_INDIRECT", "MVS_ERR_BOUNDS",
      "MVS_ERR_BROADCAST", "MVS_ERR_NOT_CONTIGUOUS", "MVS_ERR_VALUE", "MVS_ERR_INTERNAL",
      "MVS_ERR_ALLOC"};
  return s >= 0 && s <= MVS_ERR_ALLOC ? names[s] : "(not a status code)";
}

/* "MVS_ERR_AXIS or MVS_ERR_NULL" for a set. */
static const char *setname(unsigned m) {
  static char buf[400];
  size_t n = 0;
  int k;
  buf[0] = 0;
  for (k = 0; k <= MVS_ERR_ALLOC; k++)
    if (m & B(k)) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? " or " : "", stname(k));
  return m ? buf : "(none)";
}

/* ---- the current call, printed when an oracle fails ------------------------------------- */

#define NCV 4
#define NCI 16
static struct {
  const char *fn;
  int nv, ni;
  const char *vname[NCV];
  mvs_slice v[NCV];
  int vnd[NCV], vnull[NCV];
  const char *iname[NCI];
  long long ival[NCI];
} g_c;
static char g_note[256];
static unsigned long g_calls; /* library calls made, for the statistics */

static void ctx(const char *fn) {
  g_c.fn = fn;
  g_c.nv = g_c.ni = 0;
  g_note[0] = 0;
}
static void ctx_v(const char *name, const mvs_slice *s, int ndim) {
  if (g_c.nv >= NCV) return;
  g_c.vname[g_c.nv] = name;
  g_c.vnull[g_c.nv] = s == NULL;
  if (s) g_c.v[g_c.nv] = *s;
  g_c.vnd[g_c.nv] = ndim;
  g_c.nv++;
}
static void ctx_i(const char *name, long long v) {
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
static const char *g_skip;
static unsigned long g_skipped;

static int skipped(const char *line) {
  const char *p = g_skip;
  while (p && *p) {
    const char *e = strchr(p, ';');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char pat[256];
    if (n >= sizeof pat) n = sizeof pat - 1;
    memcpy(pat, p, n);
    pat[n] = 0;
    if (n > 0 && strstr(line, pat)) return 1;
    p = e ? e + 1 : NULL;
  }
  return 0;
}

static void fail(const char *fmt, ...) {
  char line[1400];
  va_list ap;
  int i, n = snprintf(line, sizeof line, "%s: ", g_c.fn ? g_c.fn : "(setup)");
  if (n < 0 || (size_t)n >= sizeof line) n = 0;
  va_start(ap, fmt);
  vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
  va_end(ap);
  if (skipped(line)) {
    if (g_skipped++ == 0) fprintf(stderr, "fuzz: MVS_FUZZ_SKIP set aside: %s\n", line);
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
  fprintf(stderr, "  mvs_last_error(): \"%s\"\n", mvs_last_error());
  fflush(stderr);
  if (fuzz_on_fail) fuzz_on_fail();
  abort();
}
#define ORACLE(cond, ...) \
  do {                    \
    if (!(cond)) fail(__VA_ARGS__); \
  } while (0)

/* ---- the input: bytes read on demand, zeros once exhausted ------------------------------ */

static const uint8_t *g_in;
static size_t g_len, g_pos;

static unsigned u8(void) { return g_pos < g_len ? g_in[g_pos++] : 0; }
static uint64_t u64(void) {
  uint64_t v = 0;
  int i;
  for (i = 0; i < 8; i++) v |= (uint64_t)u8() << (8 * i);
  return v;
}
/* A number in 0..n-1 (n <= 65536). */
static unsigned below(unsigned n) {
  if (n <= 1) return 0;
  if (n <= 256) return u8() % n;
  return (u8() | u8() << 8) % n;
}
/* True one time in k; false once the input is exhausted. */
static int one_in(unsigned k) { return k <= 1 || u8() % k == k - 1; }

/* ---- argument values -------------------------------------------------------------------- */

static const ptrdiff_t HUGE_V[] = {
    PTRDIFF_MAX, PTRDIFF_MIN, PTRDIFF_MAX - 1, PTRDIFF_MIN + 1, PTRDIFF_MAX / 2, PTRDIFF_MAX / 2 + 1,
    PTRDIFF_MAX / 3, PTRDIFF_MAX / 7, PTRDIFF_MAX / 208, PTRDIFF_MAX / 208 + 1, (ptrdiff_t)1 << 62,
    -((ptrdiff_t)1 << 62), (ptrdiff_t)1 << 61, (ptrdiff_t)1 << 32, ((ptrdiff_t)1 << 32) - 1,
    (ptrdiff_t)1 << 31, (ptrdiff_t)1 << 30, ((ptrdiff_t)1 << 30) - 1, (ptrdiff_t)1 << 29,
    -((ptrdiff_t)1 << 29), 3037000499, 3037000500, -3037000500, PTRDIFF_MAX / 8 + 1, -1, -2};
#define NHUGE (sizeof HUGE_V / sizeof HUGE_V[0])

static ptrdiff_t huge(void) {
  unsigned k = below(NHUGE + 3);
  if (k < NHUGE) return HUGE_V[k];
  if (k == NHUGE) return (ptrdiff_t)u64();
  if (k == NHUGE + 1) return (ptrdiff_t)(u64() >> below(64));
  return -(ptrdiff_t)(u64() >> (1 + below(63)));
}
static ptrdiff_t small_signed(int m) { return (ptrdiff_t)below((unsigned)(2 * m + 1)) - m; }

static int gen_ndim(void) {
  static const int wild[] = {-1, 9, 10, -2, INT_MIN, INT_MAX, 100, -9};
  unsigned r = below(32);
  if (r < 26) return (int)below(5);
  if (r < 29) return 5 + (int)below(4);
  return wild[below(8)];
}
static ptrdiff_t gen_extent(void) {
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
static ptrdiff_t gen_itemsize(void) {
  static const ptrdiff_t odd[] = {3, 5, 6, 7, 12, 24, 32, 9};
  static const ptrdiff_t bad[] = {0, -1, -8, PTRDIFF_MIN, PTRDIFF_MAX, (ptrdiff_t)1 << 40, PTRDIFF_MAX / 2 + 1, (ptrdiff_t)1 << 62};
  static const ptrdiff_t good[] = {1, 2, 4, 8, 16};
  unsigned r = below(32);
  if (r < 24) return good[below(5)];
  if (r < 29) return odd[below(8)];
  return bad[below(8)];
}
/* An axis argument for a view of n dimensions. */
static int gen_axis(int n) {
  static const int wild[] = {INT_MIN, INT_MAX, INT_MIN + 1, -100, 100, 8, -9};
  unsigned r = below(16);
  if (n < 0 || n > MAXD) n = 3;
  if (r < 13) return (int)below((unsigned)(2 * n + 2)) - n - 1;
  if (r < 15) return (int)below((unsigned)(2 * n + 6)) - n - 3;
  return wild[below(7)];
}
/* A slice bound or an index near an extent. */
static ptrdiff_t gen_bound(ptrdiff_t len) {
  unsigned r = below(16);
  ptrdiff_t l = len < 0 || len > 1000 ? 8 : len;
  if (r < 9) return (ptrdiff_t)below((unsigned)(2 * l + 5)) - l - 2;
  if (r < 11) return MVS_NONE;
  if (r == 11 && len > 0) return len - 1 - (ptrdiff_t)below(2);
  if (r == 12 && len > 0) return -len + (ptrdiff_t)below(2);
  return huge();
}
static ptrdiff_t gen_step(void) {
  unsigned r = below(16);
  if (r < 6) return 1;
  if (r < 8) return -1;
  if (r == 8) return MVS_NONE;
  if (r == 9) return 0;
  if (r < 13) return (one_in(2) ? 1 : -1) * (2 + (ptrdiff_t)below(4));
  return huge();
}
static int gen_order(void) {
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

static size_t g_page;

static unsigned char *map_guarded(size_t bytes) {
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

enum { SL_SRC, SL_SRC2, SL_OUT, SL_OUT2, SL_OUT3, SL_ARR1, SL_ARR2, SL_ARR3, SL_ITEM, SL_OUTS, NSLOT };
#define CANARY 0x5C
#define SENT 0xAB
#define MAXOUTS 4096 /* split outputs in SL_OUTS */
typedef struct {
  unsigned char *lo;
  size_t cap, off, len;
  int used;
} slot_t;
static slot_t g_sl[NSLOT];
static unsigned char g_canary[4096];

/* Room for `len` bytes in slot k, flush against its upper guard (most often) or its lower
 * one, or (rarely) inside; `align` divides `len` where flushness matters. */
static void *slot_put(int k, size_t len, size_t align) {
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
static void *empty_arr(int k) {
  if (one_in(2)) return NULL;
  return one_in(2) ? g_sl[k].lo + g_sl[k].cap : g_sl[k].lo;
}

/* The canary around every placed object is intact; then every slot is reset. */
static void slots_done(void) {
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

static int is_sent(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  size_t i;
  for (i = 0; i < n; i++)
    if (b[i] != SENT) return 0;
  return 1;
}

/* The arenas: memory the data-movement functions read and write; the pointer table: what
 * indirect dimensions point at. */
#define ARENA 8192
#define TABLE 4096
#define MAXITEMS 4096
static unsigned char *g_ar[2];
static unsigned char *g_table;
static unsigned char g_snap[2][ARENA], g_exp[2][ARENA], g_cov[2][ARENA], g_okb[2][ARENA];
static uint64_t g_rng;

static uint64_t xrand(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

/* Which arena holds [p, p + n), and where; -1 when none does. */
static int arena_at(const char *p, size_t n, size_t *off) {
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
static char *load_ptr(uintptr_t addr) {
  char *p;
  uintptr_t lo = (uintptr_t)g_table;
  if (addr < lo || addr - lo > TABLE - sizeof p) fail("fuzzer: the model would read a pointer outside the table at %#lx", (unsigned long)addr);
  memcpy(&p, (const void *)addr, sizeof p);
  return p;
}
