/* A fuzz target over every exported function of memviewslice (include/memviewslice.h).
 *
 * Coverage: LLVMFuzzerTestOneInput decodes its bytes into a program of up to 64 calls of the 59
 * exported functions: constructors, derivations, splits, queries, mvs_copy / mvs_fill /
 * mvs_copy_contiguous, buffers (alloc, wrap, retain and release, memory references,
 * attachments, queries, views, buffer_of), pools (create, acquire, acquire_slab, release,
 * counts, destroy), mvs_status_str and mvs_last_error, and DLPack: random tensors imported
 * (versioned and legacy), each success exported again and imported again, the deleter counted
 * (op_dlpack_import; the exports see only views of imports). A program keeps 8 views, 6 buffers and
 * 3 pools, so that calls build on earlier results (a split piece gets reshaped, then copied).
 * Arguments are mostly plausible (small shapes, strides of either sign and any size, ndim
 * -1..9, axes out of range, MVS_NONE, values near PTRDIFF_MAX and PTRDIFF_MIN, NULL for each
 * pointer, impossible counts) and sometimes wild. Views that a call reads or writes through lie
 * in two 8 KiB arenas (indirect views that a call dereferences, in a table of pointers), or are
 * ones the library must refuse before touching memory; views for the other calls may point
 * anywhere, since the library never dereferences them. The bugs fixed before this target
 * existed (mvs_split_at's impossible nindices, mvs_split_sections' impossible sections,
 * mvs_flip / mvs_index on zero-size views whose total move overflows) are checked once per run.
 *
 * Guard pages: every object the library reads or writes through a pointer (source and
 * destination mvs_slice structs, outputs, shape/strides/axes/index/items arrays, split outputs,
 * fill items, the arenas, the pointer table) lies flush against a PROT_NONE page, at the end of
 * its region (mostly) or at its start, so that a one-byte overrun faults; the bytes around an
 * object are a canary, checked after every call.
 *
 * Oracles, after every call (abort() after printing the call and what failed):
 * - the status is MVS_OK or one of the errors the header gives for the function in that case,
 *   never MVS_ERR_INTERNAL: a model written here from the header gives either the exact result
 *   or the set of errors that apply (any of them may be returned: the header gives no order,
 *   except mvs_index's first failing item);
 * - on failure every output is byte-identical to its pre-filled sentinel (an in-place source
 *   unchanged), and mvs_last_error() is a message of at most 255 bytes; on success the message
 *   is unchanged; the inputs never change; mvs_status_str knows every returned code;
 * - results equal the model's byte for byte, entries past ndim (shape 0, stride 0, suboffset
 *   -1), direct suboffsets (-1) and memview included: slice_axis against Python's slice
 *   arithmetic (CPython's PySlice_AdjustIndices), index_axis / index / element_ptr through PEP
 *   3118 suboffsets, transpose, permute, swap and move (NumPy's moveaxis), broadcast_to,
 *   expand_dims, squeezes, diagonal, flips, sliding windows, both splits (as slices), subview,
 *   reshape (NumPy's no-copy rule, and its items checked again one by one), view_as (NumPy's
 *   rule for another item size: the new last extent and stride, the span), the constructors,
 *   the queries against products, byte extents, the bounds rule and ndarray's overlap rule;
 * - a derived direct view of nonzero size lies inside its source's byte extent, as the model
 *   and mvs_byte_extent (which must agree) give it (for view_as, its items of the new size
 *   inside the source's items of the old);
 * - mvs_copy and mvs_fill against an element-by-element reference on a snapshot of the arenas
 *   (the source read first, as the header promises): every byte outside the destination
 *   unchanged, every other as the reference wrote it (where destination items overlap each
 *   other, one of the values written there); on failure nothing written; mvs_copy_contiguous's
 *   new buffer (64-byte aligned, exactly the items' bytes, one reference) holds the items in
 *   order, its view contiguous in the order asked;
 * - buffers: reference counts as modelled; attachments found under their keys, detached exactly
 *   once at the last reference and before the memory goes; the memory freed (the counting
 *   deallocation callback of mvs_buffer_wrap run) exactly once, only when no reference or
 *   memory reference remains, never on a failed wrap; alloc'd memory aligned, zeroed when
 *   asked, writable to its end; pools: counts, the last array given back handed out first,
 *   arrays 64-byte aligned, a slot apart, writable and undisturbed while acquired, kept alive
 *   by a retained slab after mvs_pool_destroy; ASan's leak check at the end.
 *
 * Running it: `make fuzz FUZZ_SECONDS=N` (libFuzzer through clang when clang is on PATH, with a
 * coverage-instrumented copy of the library; else the seeded driver fuzz/driver.c) and `make
 * fuzz-smoke` (the driver for 60 s with a fixed seed; part of `make test`); ASan and UBSan
 * either way. By hand: build/fuzz/driver SECONDS [SEED], build/fuzz/driver --replay FILE...,
 * build/fuzz/fuzz_api [libFuzzer options] [corpus or crash file]. An input that fails is saved
 * in build/fuzz/. While a finding awaits its fix, MVS_FUZZ_SKIP="substring;substring" reports
 * each failure whose line contains one of the substrings once and goes on;
 * MVS_FUZZ_STATS=1 makes the driver print the statuses each function returned.
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
/* Set by the standalone driver: try, rarely, allocations no allocator can satisfy (2^46 bytes
 * and more: MVS_ERR_ALLOC). ASan warns of each; libFuzzer, which keeps such inputs in its corpus
 * and replays them, would print thousands of warnings. */
int fuzz_huge_allocs;
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
#define M_DEVICE B(MVS_ERR_DEVICE)
#define M_DTYPE B(MVS_ERR_DTYPE)
#define M_VERSION B(MVS_ERR_VERSION)
/* The last status code. */
#define LAST_STATUS MVS_ERR_VERSION

#define MAXD MVS_MAX_DIMS
#define SL_BYTES ((ptrdiff_t)sizeof(mvs_slice))

static const char *stname(int s) {
  static const char *const names[] = {
      "MVS_OK",           "MVS_ERR_NULL",     "MVS_ERR_NDIM",      "MVS_ERR_AXIS",
      "MVS_ERR_ITEMSIZE", "MVS_ERR_SHAPE",    "MVS_ERR_INDEX",     "MVS_ERR_STEP",
      "MVS_ERR_OVERFLOW", "MVS_ERR_NEEDS_COPY", "MVS_ERR_INDIRECT", "MVS_ERR_BOUNDS",
      "MVS_ERR_BROADCAST", "MVS_ERR_NOT_CONTIGUOUS", "MVS_ERR_VALUE", "MVS_ERR_INTERNAL",
      "MVS_ERR_ALLOC",    "MVS_ERR_DEVICE",   "MVS_ERR_DTYPE",     "MVS_ERR_VERSION"};
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

static void fail(const char *fmt, ...) {
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
  if (n < 0 || n > MAXD + 1) n = 3;
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

/* ---- the model: arithmetic on views, in 128 bits ----------------------------------------- */

static i128 sat(i128 v) { return v > LIM ? LIM : v < -LIM ? -LIM : v; }
static i128 iabs(i128 v) { return v < 0 ? -v : v; }
static i128 smul(i128 a, i128 b) {
  if (a == 0 || b == 0) return 0;
  if (iabs(a) > LIM / iabs(b)) return (a < 0) != (b < 0) ? -LIM : LIM;
  return a * b;
}
/* p + off as an address, wrapping like the library's (off must fit in ptrdiff_t). */
static char *addr_add(const char *p, i128 off) { return (char *)((uintptr_t)p + (uintptr_t)(ptrdiff_t)off); }
/* The signed distance b - a between two addresses. */
static i128 addr_diff(const void *b, const void *a) { return (i128)(intptr_t)((uintptr_t)b - (uintptr_t)a); }

static int zero_size(const mvs_slice *s, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (s->shape[i] == 0) return 1;
  return 0;
}
/* The item count (saturated); 0 when an extent is 0. */
static i128 items_of(const ptrdiff_t *shape, int n) {
  i128 p = 1;
  int i;
  for (i = 0; i < n; i++) p = smul(p, shape[i]);
  return p;
}
/* The span: sum of (len - 1) * |stride|, 0 for a zero-size view (saturated). */
static i128 span_of(const mvs_slice *s, int n) {
  i128 t = 0;
  int i;
  if (zero_size(s, n)) return 0;
  for (i = 0; i < n; i++) t = sat(t + smul(s->shape[i] - 1, iabs(s->strides[i])));
  return t;
}
static int direct_of(const mvs_slice *s, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (s->suboffsets[i] >= 0) return 0;
  return 1;
}
/* The common errors of a view: NULL, ndim outside 0..8, a negative extent, a span past
 * PTRDIFF_MAX; 0 for a valid view. */
static unsigned view_errs(const mvs_slice *s, int n) {
  int i;
  if (!s) return M_NULL;
  if (n < 0 || n > MAXD) return M_NDIM;
  for (i = 0; i < n; i++)
    if (s->shape[i] < 0) return M_SHAPE;
  return span_of(s, n) > PMAX ? M_OVF : 0;
}
/* The byte extent [lo, hi) of a valid view, relative to its data address ([0, 0) when it is
 * zero-size); whether both ends fit in ptrdiff_t. */
static int extent_of(const mvs_slice *s, int n, ptrdiff_t isz, i128 *lo, i128 *hi) {
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
static int norm_axis(long long axis, int n) {
  long long a = axis < 0 ? axis + n : axis;
  return a >= 0 && a < n ? (int)a : -1;
}
static ptrdiff_t kept_sub(ptrdiff_t s) { return s < 0 ? -1 : s; }
/* A view with no axis at `data`. */
static mvs_slice empty_view(char *data, void *memview) {
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
static mvs_slice norm_copy(const mvs_slice *s, int n) {
  mvs_slice r = empty_view(s->data, s->memview);
  int i;
  for (i = 0; i < n; i++) {
    r.shape[i] = s->shape[i];
    r.strides[i] = s->strides[i];
    r.suboffsets[i] = kept_sub(s->suboffsets[i]);
  }
  return r;
}
static void push_axis(mvs_slice *r, int *n, ptrdiff_t len, ptrdiff_t stride, ptrdiff_t sub) {
  r->shape[*n] = len;
  r->strides[*n] = stride;
  r->suboffsets[*n] = sub;
  (*n)++;
}
static void remove_axis(mvs_slice *r, int n, int a) {
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
static unsigned m_shift(mvs_slice *r, int at, i128 move, i128 *moved) {
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
static int py_slice(i128 len, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, i128 *first, i128 *count, i128 *stepv) {
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
static int contig_strides(const ptrdiff_t *shape, int n, ptrdiff_t isz, int order, ptrdiff_t *st) {
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
static int contig_rule(const mvs_slice *s, int n, ptrdiff_t isz, int order, int strict) {
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
static int next_idx(ptrdiff_t *idx, const ptrdiff_t *shape, int n) {
  int i;
  for (i = n - 1; i >= 0; i--) {
    if (++idx[i] < shape[i]) return 1;
    idx[i] = 0;
  }
  return 0;
}
/* The address of element idx (in range) of a view, following indirect axes through the
 * table. */
static char *elem_addr(const mvs_slice *s, int n, const ptrdiff_t *idx) {
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
static int deref_safe(const mvs_slice *s, int n) {
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

#define NV 8
typedef struct {
  mvs_slice s;
  int ndim;
  ptrdiff_t isz;
} pv_t;
static pv_t g_pv[NV];
static const ptrdiff_t ISZ[] = {1, 2, 4, 8, 16, 8, 4, 8, 3, 5, 12, 24, 6, 7};
static ptrdiff_t pick_isz(void) { return ISZ[below(sizeof ISZ / sizeof ISZ[0])]; }

static void garble_tail(mvs_slice *s, int n) {
  int i;
  if (!one_in(3)) return;
  for (i = n < 0 ? 0 : n; i < MAXD; i++) {
    s->shape[i] = (ptrdiff_t)u64();
    s->strides[i] = huge();
    s->suboffsets[i] = one_in(2) ? (ptrdiff_t)below(100) : -1;
  }
}
static void *gen_token(void) {
  static const char tokens[4] = {0};
  unsigned r = below(8);
  if (r < 5) return NULL;
  if (r < 7) return (void *)&tokens[below(4)];
  return (void *)(uintptr_t)u64();
}
/* A data address for a view that nothing dereferences. */
static char *gen_wild_data(void) {
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
static void place_arena(mvs_slice *s, int n, ptrdiff_t isz, int w) {
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
static void gen_arena_view_n(pv_t *v, int n, ptrdiff_t isz) {
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
static void gen_view(pv_t *v) {
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

static void pre_call(void) {
  const char *m = mvs_last_error();
  if (!m) fail("mvs_last_error() returned NULL");
  snprintf(g_lasterr, sizeof g_lasterr, "%s", m ? m : "");
  g_calls++;
}
/* A function without a status (the releases): the message is unchanged. */
static void check_void_call(void) {
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
  for (i = 0; i < NSTAT && g_stat[i].fn; i++) {
    fprintf(stderr, "  %-34s", g_stat[i].fn);
    for (k = 0; k <= LAST_STATUS; k++)
      if (g_stat[i].n[k]) fprintf(stderr, " %s:%lu", k ? stname(k) + 8 : "OK", g_stat[i].n[k]);
    fprintf(stderr, "\n");
  }
}

/* The status is MVS_OK when `must` is empty (or one of `tol`), else one of `must` or `tol`;
 * a failure leaves a message, a success the previous one. */
static void check_status(int st, unsigned must, unsigned tol) {
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
static void check_view_result(const mvs_slice *src, int sn, const mvs_slice *got, mvs_slice *exp, int en, unsigned free, ptrdiff_t isz, const char *what) {
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
static void store_view(const mvs_slice *s, int n, ptrdiff_t isz) {
  pv_t *v = &g_pv[below(NV)];
  v->s = *s;
  v->ndim = n;
  v->isz = isz;
}

/* A derivation's call: the source (a program view, sometimes with another ndim) in SL_SRC,
 * NULL, or the output itself; the output in SL_OUT filled with the sentinel, or NULL. */
typedef struct {
  mvs_slice *src, *out;
  mvs_slice sv; /* the source's value before the call */
  int ndim, inplace, valid;
  ptrdiff_t isz;
  ptrdiff_t out_isz; /* the result's item size when it differs (view_as), else 0 */
} dc_t;

static void dc_begin(dc_t *d, const char *fn) {
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
static unsigned dc_errs(const dc_t *d) { return (d->out ? 0 : M_NULL) | (d->src ? view_errs(&d->sv, d->ndim) : M_NULL); }

/* After a derivation: the status; on failure the output untouched and the source unchanged;
 * on success the result as the model's, kept as a program view. */
static void dc_end(dc_t *d, int st, unsigned must, unsigned tol, mvs_slice *exp, int en, unsigned free) {
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

/* ---- derivations: the models --------------------------------------------------------------
 * Each takes a valid source (view_errs == 0) and the call's other arguments, and gives the
 * set of errors that apply (all those it can tell apart), or 0 and the result. */

static unsigned m_slice(const mvs_slice *s, int n, int axis, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, mvs_slice *r) {
  int a = norm_axis(axis, n);
  i128 first, count, sv, ns, mv, moved;
  unsigned m = 0;
  if (a < 0) return M_AXIS;
  if (py_slice(s->shape[a], start, stop, step, &first, &count, &sv)) return M_STEP;
  *r = norm_copy(s, n);
  ns = count > 1 ? sv * s->strides[a] : s->strides[a];
  if (!FITS(ns)) m |= M_OVF;
  if (count > 0) {
    mv = first * s->strides[a];
    m |= FITS(mv) ? m_shift(r, a, mv, &moved) : M_OVF;
  }
  if (m) return m;
  r->shape[a] = (ptrdiff_t)count;
  r->strides[a] = (ptrdiff_t)ns;
  return 0;
}

static unsigned m_index_axis(const mvs_slice *s, int n, int axis, ptrdiff_t index, mvs_slice *r) {
  int a = norm_axis(axis, n);
  i128 i, mv, moved;
  unsigned m = 0;
  if (a < 0) return M_AXIS;
  i = index < 0 ? (i128)index + s->shape[a] : index;
  if (s->suboffsets[a] >= 0 && a > 0) m |= M_IND;
  if (i < 0 || i >= s->shape[a]) return m | M_INDEX;
  *r = norm_copy(s, n);
  mv = i * s->strides[a];
  if (!FITS(mv)) return m | M_OVF;
  m |= m_shift(r, a, mv, &moved);
  if (m) return m;
  if (s->suboffsets[a] >= 0) r->data = addr_add(load_ptr((uintptr_t)r->data), s->suboffsets[a]);
  remove_axis(r, n, a);
  return 0;
}

/* mvs_index's items applied in order to r (an empty view at the source's address): the errors
 * of the first failing item, or 0. Stops quietly where the items do not fit the source (the
 * structural errors, counted by the caller). */
static unsigned apply_items(const mvs_slice *s, int n, const mvs_index_item *it, int nit, int ell, int rest, mvs_slice *r, int *rn) {
  int k, ax = 0, j;
  i128 total = 0;
  for (k = 0; k < nit; k++) {
    int kind = it[k].kind;
    unsigned m = 0;
    i128 mv, moved;
    if ((kind == MVS_ITEM_INDEX || kind == MVS_ITEM_SLICE) && ax >= n) return 0;
    if ((kind == MVS_ITEM_SLICE || kind == MVS_ITEM_NEWAXIS) && *rn >= MAXD) return 0;
    if (kind == MVS_ITEM_INDEX) {
      i128 len = s->shape[ax], i = it[k].start < 0 ? (i128)it[k].start + len : it[k].start;
      if (s->suboffsets[ax] >= 0 && *rn > 0) m |= M_IND;
      if (i < 0 || i >= len) return m | M_INDEX;
      mv = i * s->strides[ax];
      if (!FITS(mv)) return m | M_OVF;
      m |= m_shift(r, *rn, mv, &moved);
      total += moved;
      if (!m && !FITS(total)) m |= M_OVF;
      if (m) return m;
      if (s->suboffsets[ax] >= 0) r->data = addr_add(load_ptr((uintptr_t)r->data), s->suboffsets[ax]);
      ax++;
    } else if (kind == MVS_ITEM_SLICE) {
      i128 first, count, sv, ns;
      if (py_slice(s->shape[ax], it[k].start, it[k].stop, it[k].step, &first, &count, &sv)) return M_STEP;
      ns = count > 1 ? sv * s->strides[ax] : s->strides[ax];
      if (!FITS(ns)) m |= M_OVF;
      if (count > 0) {
        mv = first * s->strides[ax];
        if (!FITS(mv)) {
          m |= M_OVF;
        } else {
          unsigned e = m_shift(r, *rn, mv, &moved);
          total += moved;
          if (!e && !FITS(total)) e = M_OVF;
          m |= e;
        }
      }
      if (m) return m;
      push_axis(r, rn, (ptrdiff_t)count, (ptrdiff_t)ns, kept_sub(s->suboffsets[ax]));
      ax++;
    } else if (kind == MVS_ITEM_NEWAXIS) {
      push_axis(r, rn, 1, 0, -1);
    } else if (kind == MVS_ITEM_ELLIPSIS && ell == 1) {
      for (j = 0; j < rest; j++) {
        if (*rn >= MAXD || ax >= n) return 0;
        push_axis(r, rn, s->shape[ax], s->strides[ax], kept_sub(s->suboffsets[ax]));
        ax++;
      }
    } else {
      return 0;
    }
  }
  if (!ell)
    while (ax < n) {
      if (*rn >= MAXD) return 0;
      push_axis(r, rn, s->shape[ax], s->strides[ax], kept_sub(s->suboffsets[ax]));
      ax++;
    }
  return 0;
}
/* Structural errors first (an unknown kind, two ellipses, more indices than dimensions, too
 * many result dimensions); without them, exactly the first failing item's. */
static unsigned m_index(const mvs_slice *s, int n, const mvs_index_item *it, int nit, mvs_slice *r, int *rn) {
  unsigned st = 0, e;
  int k, ell = 0, cons = 0, add = 0;
  for (k = 0; k < nit; k++) {
    switch (it[k].kind) {
      case MVS_ITEM_INDEX: cons++; break;
      case MVS_ITEM_SLICE: cons++; add++; break;
      case MVS_ITEM_NEWAXIS: add++; break;
      case MVS_ITEM_ELLIPSIS: ell++; break;
      default: st |= M_VALUE;
    }
  }
  if (ell > 1) st |= M_INDEX;
  if (cons > n)
    st |= M_INDEX;
  else if (n - cons + add > MAXD)
    st |= M_NDIM;
  *r = empty_view(s->data, s->memview);
  *rn = 0;
  e = apply_items(s, n, it, nit, ell, n - cons, r, rn);
  return st ? st | e : e;
}

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

static unsigned m_transpose(const mvs_slice *s, int n, mvs_slice *r) {
  int i;
  if (!direct_of(s, n)) return M_IND;
  *r = empty_view(s->data, s->memview);
  for (i = 0; i < n; i++) {
    r->shape[i] = s->shape[n - 1 - i];
    r->strides[i] = s->strides[n - 1 - i];
  }
  return 0;
}
static unsigned m_permute(const mvs_slice *s, int n, const int *axes, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  int i, seen[MAXD] = {0};
  if (n > 0 && !axes) return m | M_NULL;
  *r = empty_view(s->data, s->memview);
  for (i = 0; i < n; i++) {
    int a = norm_axis(axes[i], n);
    if (a < 0 || seen[a]) {
      m |= M_AXIS;
      continue;
    }
    seen[a] = 1;
    r->shape[i] = s->shape[a];
    r->strides[i] = s->strides[a];
  }
  return m;
}
static unsigned m_swap(const mvs_slice *s, int n, int a1, int a2, mvs_slice *r) {
  int a = norm_axis(a1, n), b = norm_axis(a2, n);
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  ptrdiff_t t;
  if (a < 0 || b < 0) return m | M_AXIS;
  if (m) return m;
  *r = norm_copy(s, n);
  t = r->shape[a], r->shape[a] = r->shape[b], r->shape[b] = t;
  t = r->strides[a], r->strides[a] = r->strides[b], r->strides[b] = t;
  return 0;
}
/* np.moveaxis: the sources at their destinations, the other axes in order around them. */
static unsigned m_move(const mvs_slice *s, int n, const int *src, const int *dst, int k, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  int i, j, p, sa[MAXD], da[MAXD], order[MAXD], used[MAXD] = {0}, taken[MAXD] = {0};
  if (k < 0 || k > n) return m | M_VALUE;
  if (k > 0 && (!src || !dst)) return m | M_NULL;
  for (i = 0; i < k; i++) {
    int a = norm_axis(src[i], n), b = norm_axis(dst[i], n);
    if (a < 0 || used[a]) m |= M_AXIS; else used[a] = 1, sa[i] = a;
    if (b < 0 || taken[b]) m |= M_AXIS; else taken[b] = 1, da[i] = b;
  }
  if (m) return m;
  for (p = 0; p < n; p++) order[p] = -1;
  for (i = 0; i < k; i++) order[da[i]] = sa[i];
  for (p = 0, j = 0; p < n; p++)
    if (order[p] < 0) {
      while (used[j]) j++;
      order[p] = j++;
    }
  *r = empty_view(s->data, s->memview);
  for (p = 0; p < n; p++) {
    r->shape[p] = s->shape[order[p]];
    r->strides[p] = s->strides[order[p]];
  }
  return 0;
}
static unsigned m_broadcast(const mvs_slice *s, int n, int on, const ptrdiff_t *shape, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  int k, lead;
  if (on < 0 || on > MAXD) return m | M_NDIM;
  if (on > 0 && !shape) return m | M_NULL;
  for (k = 0; k < on; k++)
    if (shape[k] < 0) m |= M_SHAPE;
  if (on < n) return m | M_BCAST;
  lead = on - n;
  *r = empty_view(s->data, s->memview);
  for (k = 0; k < on; k++) r->shape[k] = shape[k];
  for (k = 0; k < n; k++) {
    ptrdiff_t from = s->shape[k], to = shape[lead + k];
    if (from == to)
      r->strides[lead + k] = s->strides[k];
    else if (from == 1)
      r->strides[lead + k] = 0;
    else
      m |= M_BCAST;
  }
  return m;
}
static unsigned m_expand(const mvs_slice *s, int n, int axis, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  int a = norm_axis(axis, n + 1), i;
  if (n == MAXD) m |= M_NDIM;
  if (a < 0) m |= M_AXIS;
  if (m) return m;
  *r = empty_view(s->data, s->memview);
  for (i = 0; i < n; i++) {
    int to = i < a ? i : i + 1;
    r->shape[to] = s->shape[i];
    r->strides[to] = s->strides[i];
  }
  r->shape[a] = 1;
  r->strides[a] = 0;
  return 0;
}
static unsigned m_squeeze_axis(const mvs_slice *s, int n, int axis, mvs_slice *r) {
  int a = norm_axis(axis, n);
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  if (n == 0 && (axis == 0 || axis == -1)) {
    *r = norm_copy(s, n);
    return 0;
  }
  if (a < 0) return m | M_AXIS;
  if (s->shape[a] != 1) m |= M_SHAPE;
  if (m) return m;
  *r = norm_copy(s, n);
  remove_axis(r, n, a);
  return 0;
}
static unsigned m_squeeze(const mvs_slice *s, int n, mvs_slice *r, int *rn) {
  int i;
  if (!direct_of(s, n)) return M_IND;
  *r = empty_view(s->data, s->memview);
  *rn = 0;
  for (i = 0; i < n; i++)
    if (s->shape[i] != 1) push_axis(r, rn, s->shape[i], s->strides[i], -1);
  return 0;
}
static unsigned m_diagonal(const mvs_slice *s, int n, ptrdiff_t offset, int axis1, int axis2, mvs_slice *r) {
  int a1 = norm_axis(axis1, n), a2 = norm_axis(axis2, n), rn, i;
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  i128 skip, along, other, len, start, ds;
  if (n < 2) return m | M_NDIM;
  if (a1 < 0 || a2 < 0 || a1 == a2) return m | M_AXIS;
  if (m) return m;
  skip = iabs(offset);
  along = offset >= 0 ? s->shape[a2] : s->shape[a1];
  other = offset >= 0 ? s->shape[a1] : s->shape[a2];
  len = skip >= along ? 0 : along - skip < other ? along - skip : other;
  start = len > 0 ? skip * (offset >= 0 ? s->strides[a2] : s->strides[a1]) : 0;
  ds = len > 1 ? (i128)s->strides[a1] + s->strides[a2] : s->strides[a1];
  if (!FITS(start) || !FITS(ds)) return M_OVF;
  *r = empty_view(addr_add(s->data, start), s->memview);
  for (i = 0, rn = 0; i < n; i++)
    if (i != a1 && i != a2) push_axis(r, &rn, s->shape[i], s->strides[i], -1);
  push_axis(r, &rn, (ptrdiff_t)len, (ptrdiff_t)ds, -1);
  return 0;
}
static unsigned m_flip(const mvs_slice *s, int n, int only, mvs_slice *r) {
  int i;
  i128 moved = 0;
  if (!direct_of(s, n)) return M_IND;
  *r = norm_copy(s, n);
  for (i = 0; i < n; i++) {
    i128 mv;
    if ((only >= 0 && i != only) || s->shape[i] <= 1) continue;
    mv = (i128)(s->shape[i] - 1) * s->strides[i];
    if (!FITS(mv) || s->strides[i] == PTRDIFF_MIN) return M_OVF;
    moved += mv;
    if (!FITS(moved)) return M_OVF;
    r->strides[i] = -s->strides[i];
  }
  r->data = addr_add(s->data, moved);
  return 0;
}
static unsigned m_window(const mvs_slice *s, int n, int axis, ptrdiff_t window, ptrdiff_t step, mvs_slice *r) {
  int a = norm_axis(axis, n), rn = n;
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  i128 count, ns;
  if (n == MAXD) m |= M_NDIM;
  if (step <= 0) m |= M_STEP;
  if (a < 0) return m | M_AXIS;
  if (window < 0 || window > s->shape[a]) m |= M_VALUE;
  if (m) return m;
  count = ((i128)s->shape[a] - window) / step + 1;
  if (!FITS(count)) return M_OVF;
  ns = count > 1 ? (i128)s->strides[a] * step : s->strides[a];
  if (!FITS(ns)) return M_OVF;
  *r = norm_copy(s, n);
  r->shape[a] = (ptrdiff_t)count;
  r->strides[a] = (ptrdiff_t)ns;
  push_axis(r, &rn, window, s->strides[a], -1);
  return 0;
}

/* NumPy's rule for another item size (array_descr_set), and the library's own refusals: a size
 * not positive, an indirect axis (also for equal sizes), a new extent or a span past
 * PTRDIFF_MAX. */
static unsigned m_view_as(const mvs_slice *s, int n, ptrdiff_t isz, ptrdiff_t nisz, mvs_slice *r) {
  unsigned m = direct_of(s, n) ? 0 : M_IND;
  i128 len, nl;
  if (isz <= 0 || nisz <= 0) m |= M_ITEM;
  if (m) return m;
  *r = norm_copy(s, n);
  if (isz == nisz) return 0;
  if (n == 0) return M_NDIM;
  len = s->shape[n - 1];
  if (len != 1 && !zero_size(s, n) && s->strides[n - 1] != isz) return M_NCONTIG;
  if (nisz < isz) {
    if (isz % nisz) return M_VALUE;
    nl = len * (isz / nisz);
  } else {
    if ((len * isz) % nisz) return M_VALUE;
    nl = len * isz / nisz;
  }
  if (!FITS(nl)) return M_OVF;
  r->shape[n - 1] = (ptrdiff_t)nl;
  r->strides[n - 1] = nisz;
  return span_of(r, n) > PMAX ? M_OVF : 0;
}

/* ---- derivations: the calls ------------------------------------------------------------------ */

/* n + k for a result's ndim (only used when n is valid). */
static int nd_add(int n, int k) { return n >= 0 && n <= MAXD ? n + k : 0; }

static int *gen_axes_arr(int n, int perm) {
  int k = n < 0 ? 0 : n > 16 ? 16 : n, i, *a;
  if (k == 0) return empty_arr(SL_ARR1);
  a = slot_put(SL_ARR1, (size_t)k * sizeof(int), sizeof(int));
  for (i = 0; i < k; i++) a[i] = i;
  if (perm) {
    for (i = k - 1; i > 0; i--) {
      int j = (int)below((unsigned)i + 1), t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    for (i = 0; i < k; i++)
      if (one_in(4)) a[i] -= n;
  } else {
    for (i = 0; i < k; i++) a[i] = gen_axis(n);
  }
  if (one_in(48)) return NULL;
  return a;
}

static void op_slice_axis(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  int axis, a, st;
  ptrdiff_t start, stop, step, len;
  unsigned must;
  dc_begin(&d, "mvs_slice_axis");
  axis = gen_axis(d.ndim);
  a = d.valid ? norm_axis(axis, d.ndim) : -1;
  len = a >= 0 ? d.sv.shape[a] : 4;
  start = gen_bound(len);
  stop = gen_bound(len);
  step = gen_step();
  ctx_i("axis", axis), ctx_i("start", start), ctx_i("stop", stop), ctx_i("step", step);
  must = dc_errs(&d);
  if (d.valid) must |= m_slice(&d.sv, d.ndim, axis, start, stop, step, &e);
  pre_call();
  st = mvs_slice_axis(d.src, d.ndim, axis, start, stop, step, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

static void op_index_axis(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  int axis, a, st;
  ptrdiff_t index;
  unsigned must;
  dc_begin(&d, "mvs_index_axis");
  if (d.src && d.sv.suboffsets[0] >= 0 && !deref_safe(&d.sv, d.ndim)) d.sv.suboffsets[0] = -1, *d.src = d.sv;
  axis = gen_axis(d.ndim);
  a = d.valid ? norm_axis(axis, d.ndim) : -1;
  index = gen_bound(a >= 0 ? d.sv.shape[a] : 4);
  ctx_i("axis", axis), ctx_i("index", index);
  g_c.v[0] = d.sv;
  must = dc_errs(&d);
  if (d.valid) must |= m_index_axis(&d.sv, d.ndim, axis, index, &e);
  pre_call();
  st = mvs_index_axis(d.src, d.ndim, axis, index, d.out);
  dc_end(&d, st, must, 0, &e, nd_add(d.ndim, -1), 0);
}

static void op_index(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  mvs_index_item *items = NULL;
  int nit, k, st, en = 0, *on, ax = 0;
  unsigned must;
  dc_begin(&d, "mvs_index");
  if (d.src && !deref_safe(&d.sv, d.ndim)) {
    for (k = 0; k < MAXD; k++) d.sv.suboffsets[k] = -1;
    *d.src = d.sv;
    g_c.v[0] = d.sv;
  }
  {
    unsigned r = below(32);
    nit = r < 26 ? (int)below(6) : r < 29 ? 6 + (int)below(12) : r == 29 ? 18 + (int)below(3) : r == 30 ? -1 - (int)below(3) : INT_MIN;
  }
  if (nit > 0) {
    items = slot_put(SL_ARR1, (size_t)nit * sizeof *items, sizeof(ptrdiff_t));
    for (k = 0; k < nit; k++) {
      unsigned r = below(32);
      ptrdiff_t len = d.valid && ax < d.ndim ? d.sv.shape[ax] : 4;
      memset(&items[k], 0, sizeof items[k]);
      items[k].kind = r < 13 ? MVS_ITEM_INDEX : r < 25 ? MVS_ITEM_SLICE : r < 28 ? MVS_ITEM_NEWAXIS : r < 31 ? MVS_ITEM_ELLIPSIS : (one_in(2) ? 4 : -1);
      items[k].start = gen_bound(len);
      items[k].stop = gen_bound(len);
      items[k].step = gen_step();
      if (items[k].kind <= MVS_ITEM_SLICE) ax++;
    }
    if (one_in(48)) items = NULL;
  } else if (one_in(2)) {
    items = empty_arr(SL_ARR1);
  }
  on = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof(int), sizeof(int));
  if (on) memset(on, SENT, sizeof *on);
  ctx_i("nitems", nit);
  for (k = 0; k < nit && k < 6 && items; k++) {
    ctx_i("item kind", items[k].kind);
    ctx_i("  start", items[k].start);
    if (items[k].kind == MVS_ITEM_SLICE) ctx_i("  stop", items[k].stop), ctx_i("  step", items[k].step);
  }
  must = dc_errs(&d) | (on ? 0 : M_NULL);
  if (nit < 0 || nit > MVS_MAX_INDEX_ITEMS)
    must |= M_VALUE;
  else if (nit > 0 && !items)
    must |= M_NULL;
  else if (d.valid)
    must |= m_index(&d.sv, d.ndim, items, nit, &e, &en);
  pre_call();
  st = mvs_index(d.src, d.ndim, items, nit, d.out, on);
  if (st != MVS_OK && on && !is_sent(on, sizeof *on)) fail("failed with %s and wrote out_ndim", stname(st));
  if (st == MVS_OK && !must && *on != en) fail("out_ndim is %d, the model's %d", *on, en);
  dc_end(&d, st, must, 0, &e, en, 0);
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

static void op_reshape(void) {
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
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    memcpy(shape, tmp, (size_t)m * sizeof *shape);
    if (one_in(48)) shape = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
  }
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

static void op_subview(void) {
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
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    memcpy(shape, tmp, (size_t)m * sizeof *shape);
    if (one_in(48)) shape = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
  }
  ctx_i("itemsize", isz), ctx_i("offset", offset), ctx_i("out_ndim", on), ctx_i("order", order);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  must = dc_errs(&d);
  if (d.valid) must |= m_subview(&d.sv, d.ndim, isz, offset, on, shape, order, &e, &tol);
  pre_call();
  st = mvs_subview(d.src, d.ndim, isz, offset, on, shape, order, d.out);
  d.isz = isz;
  dc_end(&d, st, must, tol, &e, on, 0);
}

static void op_transpose(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st;
  dc_begin(&d, "mvs_transpose");
  must = dc_errs(&d);
  if (d.valid) must |= m_transpose(&d.sv, d.ndim, &e);
  pre_call();
  st = mvs_transpose(d.src, d.ndim, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

static void op_permute(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, *axes, k;
  dc_begin(&d, "mvs_permute");
  axes = gen_axes_arr(d.ndim, !one_in(4));
  for (k = 0; axes && k < d.ndim && k < 8; k++) ctx_i("  axes[k]", axes[k]);
  must = dc_errs(&d);
  if (d.valid) must |= m_permute(&d.sv, d.ndim, axes, &e);
  pre_call();
  st = mvs_permute(d.src, d.ndim, axes, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

static void op_swap_axes(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, a1, a2;
  dc_begin(&d, "mvs_swap_axes");
  a1 = gen_axis(d.ndim);
  a2 = gen_axis(d.ndim);
  ctx_i("axis1", a1), ctx_i("axis2", a2);
  must = dc_errs(&d);
  if (d.valid) must |= m_swap(&d.sv, d.ndim, a1, a2, &e);
  pre_call();
  st = mvs_swap_axes(d.src, d.ndim, a1, a2, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

static void op_move_axes(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, k, count, *sa = NULL, *da = NULL, i, n;
  dc_begin(&d, "mvs_move_axes");
  n = d.ndim < 0 ? 0 : d.ndim > 8 ? 8 : d.ndim;
  count = one_in(10) ? (int)below(12) - 2 : (int)below((unsigned)n + 1);
  k = count < 0 ? 0 : count > 16 ? 16 : count;
  if (k > 0) {
    sa = slot_put(SL_ARR1, (size_t)k * sizeof(int), sizeof(int));
    da = slot_put(SL_ARR2, (size_t)k * sizeof(int), sizeof(int));
    for (i = 0; i < k; i++) {
      sa[i] = one_in(6) ? gen_axis(n) : (int)below((unsigned)(n ? n : 1));
      da[i] = one_in(6) ? gen_axis(n) : (int)below((unsigned)(n ? n : 1));
    }
    if (n > 0 && !one_in(3)) { /* distinct: a prefix of two shuffles */
      int ps[MAXD], pd[MAXD], j, t;
      for (i = 0; i < n; i++) ps[i] = pd[i] = i;
      for (i = n - 1; i > 0; i--) {
        j = (int)below((unsigned)i + 1), t = ps[i], ps[i] = ps[j], ps[j] = t;
        j = (int)below((unsigned)i + 1), t = pd[i], pd[i] = pd[j], pd[j] = t;
      }
      for (i = 0; i < k && i < n; i++) sa[i] = ps[i] - (one_in(4) ? n : 0), da[i] = pd[i] - (one_in(4) ? n : 0);
    }
    if (one_in(48)) sa = NULL;
    if (one_in(48)) da = NULL;
  } else if (one_in(2)) {
    sa = empty_arr(SL_ARR1);
    da = empty_arr(SL_ARR2);
  }
  ctx_i("count", count);
  for (i = 0; i < k && i < 6; i++) {
    if (sa) ctx_i("  source[i]", sa[i]);
    if (da) ctx_i("  destination[i]", da[i]);
  }
  must = dc_errs(&d);
  if (d.valid) must |= m_move(&d.sv, d.ndim, sa, da, count, &e);
  pre_call();
  st = mvs_move_axes(d.src, d.ndim, sa, da, count, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

static void op_broadcast_to(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, on, k, m, n;
  ptrdiff_t *shape = NULL, tmp[16];
  dc_begin(&d, "mvs_broadcast_to");
  n = d.ndim < 0 ? 0 : d.ndim > 8 ? 8 : d.ndim;
  on = one_in(10) ? gen_ndim() : n + (int)below((unsigned)(9 - n));
  m = on < 0 ? 0 : on > 16 ? 16 : on;
  for (k = 0; k < m; k++) {
    int sa = k - (on - n);
    ptrdiff_t from = sa >= 0 && sa < n ? d.sv.shape[sa] : 1;
    tmp[k] = one_in(8) ? gen_extent() : from == 1 ? (one_in(2) ? 1 + (ptrdiff_t)below(4) : one_in(8) ? huge() : 0) : from;
  }
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    memcpy(shape, tmp, (size_t)m * sizeof *shape);
    if (one_in(48)) shape = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
  }
  ctx_i("out_ndim", on);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  must = dc_errs(&d);
  if (d.valid) must |= m_broadcast(&d.sv, d.ndim, on, shape, &e);
  pre_call();
  st = mvs_broadcast_to(d.src, d.ndim, on, shape, d.out);
  dc_end(&d, st, must, 0, &e, on, 0);
}

static void op_expand_dims(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, axis;
  dc_begin(&d, "mvs_expand_dims");
  axis = gen_axis(nd_add(d.ndim, 1));
  ctx_i("axis", axis);
  must = dc_errs(&d);
  if (d.valid) must |= m_expand(&d.sv, d.ndim, axis, &e);
  pre_call();
  st = mvs_expand_dims(d.src, d.ndim, axis, d.out);
  dc_end(&d, st, must, 0, &e, nd_add(d.ndim, 1), 0);
}

static void op_squeeze_axis(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, axis, en;
  dc_begin(&d, "mvs_squeeze_axis");
  axis = gen_axis(d.ndim);
  ctx_i("axis", axis);
  must = dc_errs(&d);
  if (d.valid) must |= m_squeeze_axis(&d.sv, d.ndim, axis, &e);
  en = d.ndim == 0 ? 0 : nd_add(d.ndim, -1);
  pre_call();
  st = mvs_squeeze_axis(d.src, d.ndim, axis, d.out);
  dc_end(&d, st, must, 0, &e, en, 0);
}

static void op_squeeze(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, en = 0, *on;
  dc_begin(&d, "mvs_squeeze");
  on = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof(int), sizeof(int));
  if (on) memset(on, SENT, sizeof *on);
  must = dc_errs(&d) | (on ? 0 : M_NULL);
  if (d.valid) must |= m_squeeze(&d.sv, d.ndim, &e, &en);
  pre_call();
  st = mvs_squeeze(d.src, d.ndim, d.out, on);
  if (st != MVS_OK && on && !is_sent(on, sizeof *on)) fail("failed with %s and wrote out_ndim", stname(st));
  if (st == MVS_OK && !must && *on != en) fail("out_ndim is %d, the model's %d", *on, en);
  dc_end(&d, st, must, 0, &e, en, 0);
}

static void op_diagonal(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, a1, a2;
  ptrdiff_t offset;
  dc_begin(&d, "mvs_diagonal");
  a1 = gen_axis(d.ndim);
  a2 = one_in(3) || a1 == INT_MAX ? gen_axis(d.ndim) : a1 + 1;
  offset = one_in(6) ? huge() : small_signed(5);
  ctx_i("offset", offset), ctx_i("axis1", a1), ctx_i("axis2", a2);
  must = dc_errs(&d);
  if (d.valid) must |= m_diagonal(&d.sv, d.ndim, offset, a1, a2, &e);
  pre_call();
  st = mvs_diagonal(d.src, d.ndim, offset, a1, a2, d.out);
  dc_end(&d, st, must, 0, &e, nd_add(d.ndim, -1), 0);
}

static void op_flip(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, axis = 0, one = one_in(2);
  dc_begin(&d, one ? "mvs_flip_axis" : "mvs_flip");
  if (one) axis = gen_axis(d.ndim), ctx_i("axis", axis);
  must = dc_errs(&d);
  if (d.valid) {
    int a = norm_axis(axis, d.ndim);
    if (one && a < 0)
      must |= M_AXIS | (direct_of(&d.sv, d.ndim) ? 0 : M_IND);
    else
      must |= m_flip(&d.sv, d.ndim, one ? a : -1, &e);
  }
  pre_call();
  st = one ? mvs_flip_axis(d.src, d.ndim, axis, d.out) : mvs_flip(d.src, d.ndim, d.out);
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

static void op_sliding_window(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st, axis, a;
  ptrdiff_t window, step;
  dc_begin(&d, "mvs_sliding_window");
  axis = gen_axis(d.ndim);
  a = d.valid ? norm_axis(axis, d.ndim) : -1;
  window = one_in(6) ? gen_bound(4) : a >= 0 && d.sv.shape[a] < 1000 ? (ptrdiff_t)below((unsigned)d.sv.shape[a] + 2) : (ptrdiff_t)below(4);
  step = one_in(6) ? gen_step() : 1 + (ptrdiff_t)below(3);
  ctx_i("axis", axis), ctx_i("window", window), ctx_i("step", step);
  must = dc_errs(&d);
  if (d.valid) must |= m_window(&d.sv, d.ndim, axis, window, step, &e);
  pre_call();
  st = mvs_sliding_window(d.src, d.ndim, axis, window, step, d.out);
  dc_end(&d, st, must, 0, &e, nd_add(d.ndim, 1), 0);
}

/* A new item size for a view of items of `isz` bytes whose last extent is `len`: often one
 * that divides `isz`, or a multiple of `isz` dividing the last axis's bytes, or `isz` itself. */
static ptrdiff_t gen_new_itemsize(ptrdiff_t isz, ptrdiff_t len) {
  unsigned r = below(16);
  if (r < 4) return pick_isz();
  if (r < 7 && isz > 0 && isz <= 4096) {
    ptrdiff_t d = 1 + (ptrdiff_t)below((unsigned)isz);
    while (isz % d) d--;
    return d;
  }
  if (r < 10 && isz > 0 && isz <= 4096 && len > 0 && len <= 4096) {
    ptrdiff_t d = 1 + (ptrdiff_t)below((unsigned)len);
    while (len % d) d--;
    return isz * d;
  }
  if (r < 12) return isz;
  if (r < 14) return gen_itemsize();
  return one_in(2) ? huge() : 1 + (ptrdiff_t)below(64);
}

static void op_view_as(void) {
  dc_t d;
  mvs_slice e = empty_view(NULL, NULL);
  unsigned must;
  int st;
  ptrdiff_t isz, nisz;
  dc_begin(&d, "mvs_view_as");
  isz = one_in(16) ? gen_itemsize() : d.isz;
  nisz = gen_new_itemsize(isz, d.valid && d.ndim > 0 ? d.sv.shape[d.ndim - 1] : 1);
  ctx_i("itemsize", isz), ctx_i("new_itemsize", nisz);
  must = dc_errs(&d);
  if (d.valid) must |= m_view_as(&d.sv, d.ndim, isz, nisz, &e);
  pre_call();
  st = mvs_view_as(d.src, d.ndim, isz, nisz, d.out);
  d.isz = isz;
  d.out_isz = nisz;
  dc_end(&d, st, must, 0, &e, d.ndim, 0);
}

/* ---- constructors ------------------------------------------------------------------------- */

static void check_same(const void *p, const void *copy, size_t n, const char *what) {
  if (n && p && memcmp(p, copy, n) != 0) fail("changed its input %s", what);
}
/* An output slice in SL_OUT filled with the sentinel, or NULL. */
static mvs_slice *out_slice(void) {
  mvs_slice *o;
  if (one_in(48)) return NULL;
  o = slot_put(SL_OUT, sizeof *o, 8);
  memset(o, SENT, sizeof *o);
  return o;
}
static void check_out_failed(int st, const void *out, size_t n, const char *what) {
  if (st != MVS_OK && out && !is_sent(out, n)) fail("failed with %s and wrote %s", stname(st), what);
}

static void op_view_contiguous(void) {
  ptrdiff_t isz = one_in(4) ? gen_itemsize() : pick_isz(), tmp[16], *shape = NULL, st_[MAXD];
  int n = gen_ndim(), order = gen_order(), m = n < 0 ? 0 : n > 16 ? 16 : n, k, st;
  char *data = one_in(2) ? (char *)g_ar[below(2)] + below(ARENA) : gen_wild_data();
  mvs_slice *out, e = empty_view(data, NULL);
  unsigned must = 0;
  ctx("mvs_view_contiguous");
  for (k = 0; k < m; k++) tmp[k] = one_in(6) ? gen_extent() : (ptrdiff_t)below(5);
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    memcpy(shape, tmp, (size_t)m * sizeof *shape);
    if (one_in(48)) shape = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
  }
  out = out_slice();
  ctx_i("data", (long long)(uintptr_t)data), ctx_i("itemsize", isz), ctx_i("ndim", n), ctx_i("order", order);
  for (k = 0; k < m && k < 8; k++) ctx_i("  shape[k]", tmp[k]);
  if (!out) must |= M_NULL;
  if (n < 0 || n > MAXD) {
    must |= M_NDIM;
  } else if (n > 0 && !shape) {
    must |= M_NULL;
  } else {
    if (isz <= 0) must |= M_ITEM;
    if (order != 'C' && order != 'F') must |= M_VALUE;
    for (k = 0; k < n; k++)
      if (tmp[k] < 0) must |= M_SHAPE;
    if (!must) {
      if (!contig_strides(tmp, n, isz, order, st_)) must |= M_OVF;
      for (k = 0; k < n; k++) e.shape[k] = tmp[k], e.strides[k] = st_[k];
    }
  }
  pre_call();
  st = mvs_view_contiguous(data, isz, n, shape, order, out);
  check_status(st, must, 0);
  check_same(shape, tmp, (size_t)m * sizeof *shape, "shape");
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must) {
    check_view_result(NULL, 0, out, &e, n, 0, isz, "the view");
    store_view(out, n, isz);
  }
  slots_done();
}

static void op_view_strided(void) {
  pv_t v;
  ptrdiff_t *shape = NULL, *strides = NULL;
  int n, m, k, st;
  mvs_slice *out, e;
  unsigned must = 0;
  i128 lo, hi;
  ctx("mvs_view_strided");
  gen_view(&v);
  if (one_in(8)) v.isz = gen_itemsize();
  n = v.ndim;
  m = n < 0 ? 0 : n > 16 ? 16 : n;
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    strides = slot_put(SL_ARR2, (size_t)m * sizeof *strides, sizeof *strides);
    for (k = 0; k < m; k++) shape[k] = k < MAXD ? v.s.shape[k] : 1, strides[k] = k < MAXD ? v.s.strides[k] : 8;
    if (one_in(48)) shape = NULL;
    if (one_in(48)) strides = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
    strides = empty_arr(SL_ARR2);
  }
  out = out_slice();
  ctx_v("as view", &v.s, n);
  ctx_i("itemsize", v.isz);
  if (!out) must |= M_NULL;
  e = norm_copy(&v.s, m > MAXD ? MAXD : m);
  e.memview = NULL;
  for (k = 0; k < MAXD; k++) e.suboffsets[k] = -1;
  if (n < 0 || n > MAXD) {
    must |= M_NDIM;
  } else if (n > 0 && (!shape || !strides)) {
    must |= M_NULL;
  } else {
    if (v.isz <= 0) must |= M_ITEM;
    must |= view_errs(&v.s, n);
    if (!must && (!extent_of(&v.s, n, v.isz, &lo, &hi) || hi > PMAX)) must |= M_OVF;
  }
  pre_call();
  st = mvs_view_strided(v.s.data, v.isz, n, shape, strides, out);
  check_status(st, must, 0);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must) {
    check_view_result(NULL, 0, out, &e, n, 0, v.isz, "the view");
    store_view(out, n, v.isz);
  }
  slots_done();
}

/* A new program view, made here (arena, pointer table or wild). */
static void op_new_view(void) {
  pv_t *v = &g_pv[below(NV)];
  gen_view(v);
}

/* ---- queries ------------------------------------------------------------------------------ */

/* The source of a query: a program view in SL_SRC (or NULL), and its value. */
static const mvs_slice *query_src(mvs_slice *sv, int *n, ptrdiff_t *isz, const char *fn) {
  const pv_t *v = &g_pv[below(NV)];
  mvs_slice *s;
  ctx(fn);
  *sv = v->s;
  *n = one_in(24) ? gen_ndim() : v->ndim;
  *isz = one_in(10) ? gen_itemsize() : v->isz;
  ctx_v("src", sv, *n);
  ctx_i("itemsize", *isz);
  if (one_in(48)) {
    g_c.vnull[0] = 1;
    return NULL;
  }
  s = slot_put(SL_SRC, sizeof *s, 8);
  *s = *sv;
  return s;
}
static void query_end(const mvs_slice *src, const mvs_slice *sv) {
  if (src && memcmp(src, sv, sizeof *sv) != 0) fail("changed its source");
  slots_done();
}

static void op_is_contiguous(void) {
  static const int rules[] = {MVS_CONTIG_NUMPY, MVS_CONTIG_CYTHON, 2, -1, INT_MAX};
  mvs_slice sv;
  int n, order = gen_order(), rule = one_in(12) ? rules[below(5)] : (int)below(2), *out, st, want = 0;
  ptrdiff_t isz;
  const mvs_slice *src = query_src(&sv, &n, &isz, "mvs_is_contiguous");
  unsigned must;
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof(int), sizeof(int));
  if (out) memset(out, SENT, sizeof *out);
  ctx_i("order", order), ctx_i("rule", rule);
  must = (src ? view_errs(&sv, n) : M_NULL) | (out ? 0 : M_NULL);
  if (isz <= 0) must |= M_ITEM;
  if (order != 'C' && order != 'F') must |= M_VALUE;
  if (rule != MVS_CONTIG_NUMPY && rule != MVS_CONTIG_CYTHON) must |= M_VALUE;
  if (!must) want = contig_rule(&sv, n, isz, order, rule == MVS_CONTIG_CYTHON);
  pre_call();
  st = mvs_is_contiguous(src, n, isz, order, rule, out);
  check_status(st, must, 0);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && *out != want) fail("gave %d, the model %d", *out, want);
  query_end(src, &sv);
}

static void op_counts(void) {
  mvs_slice sv;
  int n, st, bytes = one_in(2);
  ptrdiff_t isz, *out;
  const mvs_slice *src = query_src(&sv, &n, &isz, bytes ? "mvs_byte_count" : "mvs_item_count");
  unsigned must;
  i128 want = 0;
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *out, sizeof *out);
  if (out) memset(out, SENT, sizeof *out);
  must = (src ? view_errs(&sv, n) : M_NULL) | (out ? 0 : M_NULL);
  if (bytes && isz <= 0) must |= M_ITEM;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE))) {
    i128 items = items_of(sv.shape, n);
    want = bytes ? smul(items, isz) : items;
    if (items > PMAX || want > PMAX) must |= M_OVF;
  }
  pre_call();
  st = bytes ? mvs_byte_count(src, n, isz, out) : mvs_item_count(src, n, out);
  check_status(st, must, 0);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && *out != want) fail("gave %td, the product %lld", *out, (long long)want);
  query_end(src, &sv);
}

static void op_byte_extent(void) {
  mvs_slice sv;
  int n, st;
  ptrdiff_t isz, *lo, *hi;
  const mvs_slice *src = query_src(&sv, &n, &isz, "mvs_byte_extent");
  unsigned must;
  i128 wlo = 0, whi = 0;
  lo = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *lo, sizeof *lo);
  hi = one_in(48) ? NULL : slot_put(SL_OUT3, sizeof *hi, sizeof *hi);
  if (lo) memset(lo, SENT, sizeof *lo);
  if (hi) memset(hi, SENT, sizeof *hi);
  must = (src ? view_errs(&sv, n) : M_NULL) | (lo && hi ? 0 : M_NULL);
  if (isz <= 0) must |= M_ITEM;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    if (!direct_of(&sv, n)) must |= M_IND;
    if (isz > 0 && !extent_of(&sv, n, isz, &wlo, &whi)) must |= M_OVF;
  }
  pre_call();
  st = mvs_byte_extent(src, n, isz, lo, hi);
  check_status(st, must, 0);
  check_out_failed(st, lo, sizeof *lo, "lo");
  check_out_failed(st, hi, sizeof *hi, "hi");
  if (st == MVS_OK && !must) {
    if (*lo != wlo || *hi != whi) fail("gave [%td, %td), the model [%lld, %lld)", *lo, *hi, (long long)wlo, (long long)whi);
    if (!zero_size(&sv, n) && !(*lo <= 0 && 0 < *hi)) fail("gave [%td, %td) for a view with items", *lo, *hi);
  }
  query_end(src, &sv);
}

static void op_check_bounds(void) {
  mvs_slice sv;
  int n, st;
  ptrdiff_t isz, nbytes;
  const mvs_slice *src = query_src(&sv, &n, &isz, "mvs_check_bounds");
  const char *base;
  unsigned must, r = below(8);
  i128 lo, hi;
  if (r < 5) {
    int w = (int)below(2);
    base = (const char *)g_ar[w] + (one_in(2) ? 0 : below(64));
    nbytes = one_in(8) ? gen_bound(ARENA) : ARENA - (ptrdiff_t)below(80);
  } else if (r < 7) {
    i128 l2, h2;
    base = sv.data;
    nbytes = 8;
    if (n >= 0 && n <= MAXD && !view_errs(&sv, n) && extent_of(&sv, n, isz > 0 ? isz : 1, &l2, &h2)) {
      base = (const char *)addr_add(sv.data, l2 + small_signed(1));
      nbytes = (ptrdiff_t)(h2 - l2 < PMAX ? h2 - l2 + small_signed(1) : PMAX);
    }
  } else {
    base = one_in(8) ? NULL : gen_wild_data();
    nbytes = huge();
  }
  ctx_i("base", (long long)(uintptr_t)base), ctx_i("nbytes", nbytes);
  must = src ? view_errs(&sv, n) : M_NULL;
  if (!base) must |= M_NULL;
  if (isz <= 0) must |= M_ITEM;
  if (nbytes < 0) must |= M_SHAPE;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF | M_ITEM))) {
    if (!direct_of(&sv, n))
      must |= M_IND;
    else if (!extent_of(&sv, n, isz, &lo, &hi))
      must |= M_OVF;
    else if (!zero_size(&sv, n)) {
      i128 off = (i128)(uintptr_t)sv.data - (i128)(uintptr_t)base;
      if (off + lo < 0 || off + hi > nbytes) must |= M_BOUNDS;
    }
  }
  pre_call();
  st = mvs_check_bounds(src, n, isz, base, nbytes);
  check_status(st, must, 0);
  query_end(src, &sv);
}

/* ndarray's rule: the axes of extent > 1 sorted by |stride|, each must step past everything
 * the smaller ones span plus one item. *tol receives OVERFLOW when that sum passes
 * PTRDIFF_MAX. */
static int overlap_rule(const mvs_slice *s, int n, ptrdiff_t isz, unsigned *tol) {
  int ax[MAXD], c = 0, i, j;
  i128 span = 0;
  if (zero_size(s, n)) return 0;
  for (i = 0; i < n; i++)
    if (s->shape[i] > 1) ax[c++] = i;
  for (i = 1; i < c; i++)
    for (j = i; j > 0 && iabs(s->strides[ax[j]]) < iabs(s->strides[ax[j - 1]]); j--) {
      int t = ax[j];
      ax[j] = ax[j - 1];
      ax[j - 1] = t;
    }
  for (i = 0; i < c; i++) {
    i128 st = iabs(s->strides[ax[i]]);
    if (span + isz > PMAX) *tol |= M_OVF;
    if (st < span + isz) return 1;
    span += (s->shape[ax[i]] - 1) * st;
  }
  return 0;
}

static void op_may_overlap(void) {
  mvs_slice sv;
  int n, st, *out, want = 0;
  ptrdiff_t isz;
  const mvs_slice *src = query_src(&sv, &n, &isz, "mvs_may_overlap");
  unsigned must, tol = 0;
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof(int), sizeof(int));
  if (out) memset(out, SENT, sizeof *out);
  must = (src ? view_errs(&sv, n) : M_NULL) | (out ? 0 : M_NULL);
  if (isz <= 0) must |= M_ITEM;
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    if (!direct_of(&sv, n)) must |= M_IND;
    if (!must) want = overlap_rule(&sv, n, isz, &tol);
  }
  pre_call();
  st = mvs_may_overlap(src, n, isz, out);
  check_status(st, must, tol);
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && *out != want) fail("gave %d, the ndarray rule %d", *out, want);
  query_end(src, &sv);
}

static void op_element_ptr(void) {
  mvs_slice sv, *s;
  const pv_t *v = &g_pv[below(NV)];
  int n, st, k, m;
  ptrdiff_t *idx = NULL, tmp[16];
  void **out;
  unsigned must = 0;
  char *want = NULL;
  ctx("mvs_element_ptr");
  sv = v->s;
  n = one_in(24) ? gen_ndim() : v->ndim;
  if (!deref_safe(&sv, n))
    for (k = 0; k < MAXD; k++) sv.suboffsets[k] = -1;
  ctx_v("src", &sv, n);
  s = slot_put(SL_SRC, sizeof *s, 8);
  *s = sv;
  if (one_in(48)) s = NULL, g_c.vnull[0] = 1;
  m = n < 0 ? 0 : n > 16 ? 16 : n;
  for (k = 0; k < m; k++) {
    ptrdiff_t len = k < MAXD ? sv.shape[k] : 4;
    tmp[k] = one_in(6) ? gen_bound(len) : len > 0 && len < 65536 ? (ptrdiff_t)below((unsigned)len) - (one_in(4) ? len : 0) : gen_bound(len);
    if (k < 8) ctx_i("  index[k]", tmp[k]);
  }
  if (m > 0) {
    idx = slot_put(SL_ARR1, (size_t)m * sizeof *idx, sizeof *idx);
    memcpy(idx, tmp, (size_t)m * sizeof *idx);
    if (one_in(48)) idx = NULL;
  } else if (one_in(2)) {
    idx = empty_arr(SL_ARR1);
  }
  out = one_in(48) ? NULL : slot_put(SL_OUT2, sizeof *out, sizeof *out);
  if (out) memset(out, SENT, sizeof *out);
  must = (s ? view_errs(&sv, n) : M_NULL) | (out ? 0 : M_NULL);
  if (!(must & (M_NULL | M_NDIM | M_SHAPE | M_OVF))) {
    if (n > 0 && !idx) {
      must |= M_NULL;
    } else {
      ptrdiff_t w[MAXD];
      for (k = 0; k < n; k++) {
        i128 i = tmp[k] < 0 ? (i128)tmp[k] + sv.shape[k] : tmp[k];
        if (i < 0 || i >= sv.shape[k])
          must |= M_INDEX;
        else if (!FITS(i * sv.strides[k]))
          must |= M_OVF;
        w[k] = (ptrdiff_t)i;
      }
      if (!must) want = elem_addr(&sv, n, w);
    }
  }
  pre_call();
  st = mvs_element_ptr(s, n, idx, out);
  check_status(st, must, 0);
  check_same(idx, tmp, (size_t)m * sizeof *idx, "index");
  check_out_failed(st, out, sizeof *out, "its output");
  if (st == MVS_OK && !must && *out != (void *)want) fail("gave %p, the model %p", *out, (void *)want);
  query_end(s, &sv);
}

/* ---- splits -------------------------------------------------------------------------------- */

#define IMPOSSIBLE (PTRDIFF_MAX / (ptrdiff_t)sizeof(mvs_slice))

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

static void op_split_sections(void) {
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

static void op_split_at(void) {
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
static void mem_view(pv_t *v, ptrdiff_t isz, int once0) {
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
static void snapshot(void) {
  memcpy(g_snap[0], g_ar[0], ARENA);
  memcpy(g_snap[1], g_ar[1], ARENA);
}
/* After a copy or fill: on failure (or `none`) the arenas as before; on success, each byte as
 * the reference wrote it, or as before where nothing was written, or (written several times)
 * one of the values written there. */
static void check_arenas(int wrote, const mvs_slice *s, int sn, const mvs_slice *d, int dn, ptrdiff_t isz, const unsigned char *item, int once0) {
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

static void op_copy(void) {
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

static void op_fill(void) {
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

/* ---- buffers: the model ---------------------------------------------------------------------- */

#define NB 6
#define NATT 4
enum { BK_ALLOC, BK_WRAP, BK_COPY, BK_SLAB };
typedef struct att_s {
  const void *key;
  int owner, memref, calls, has_detach;
} att_t;
typedef struct {
  mvs_buffer *b;
  int state; /* 0 unused, 1 referenced, 2 only memory references left */
  int kind, readonly, has_dealloc, deallocs, expect_free, pool;
  ptrdiff_t refs, mrefs; /* references, and memory references beyond the one all references share */
  ptrdiff_t held;        /* the references this program holds (a slab's: refs less the pool's) */
  char *data;
  ptrdiff_t nbytes;
  int natt;
  att_t att[NATT];
} brec_t;
static brec_t g_b[NB];
static const char g_keys[4] = {0};

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

static brec_t *free_brec(void) {
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
static brec_t *brec_of(const mvs_buffer *b) {
  int i;
  for (i = 0; i < NB; i++)
    if (g_b[i].state && g_b[i].b == b) return &g_b[i];
  return NULL;
}
static brec_t *init_brec(brec_t *r, mvs_buffer *b, int kind, void *data, ptrdiff_t nbytes, int readonly) {
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
static void release_ref(brec_t *r) {
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
static void release_mem(brec_t *r) {
  int last = r->state == 2 && r->mrefs == 1;
  r->expect_free = last;
  r->mrefs--;
  pre_call();
  mvs_buffer_release_memory(r->b);
  check_void_call();
  if (r->has_dealloc && r->deallocs != (last ? 1 : 0)) fail("the deallocation callback ran %d times (last memory reference: %d)", r->deallocs, last);
  if (last) r->state = 0;
}

static void op_buffer_new(void) {
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

static void op_buffer_new(void);
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
static void op_buffer_ref(void) {
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

static void op_buffer_attach(void) {
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

static void op_buffer_query(void) {
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

static void op_buffer_view(void) {
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
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    memcpy(shape, tmp, (size_t)m * sizeof *shape);
    if (one_in(48)) shape = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
  }
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

static void op_buffer_of(void) {
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

static void op_copy_contiguous(void) {
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

/* ---- pools ------------------------------------------------------------------------------------ */

#define NPL 3
#define NARR 48
typedef struct {
  mvs_pool *p;
  int live, ndim, order, nslabs, narr, nstack;
  ptrdiff_t isz, bytes, slot, cap, total, acquired, shape[MAXD];
  struct {
    char *data;
    int acq;
    unsigned char tag;
    brec_t *slab; /* known from mvs_pool_acquire_slab */
  } arr[NARR];
  int stack[NARR]; /* arrays given back, the last on top (indices into arr) */
} prec_t;
static prec_t g_p[NPL];
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

static void op_pool_create(void) {
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
  if (m > 0) {
    shape = slot_put(SL_ARR1, (size_t)m * sizeof *shape, sizeof *shape);
    memcpy(shape, tmp, (size_t)m * sizeof *shape);
    if (one_in(48)) shape = NULL;
  } else if (one_in(2)) {
    shape = empty_arr(SL_ARR1);
  }
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

static void op_pool_acquire(void) {
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

static void op_pool_release(void) {
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

static void op_pool_counts(void) {
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
static void destroy_pool(prec_t *p) {
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
static void op_pool_destroy(void) {
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

/* ---- mvs_status_str, mvs_last_error ------------------------------------------------------- */

static void op_status(void) {
  int code = one_in(2) ? (int)below(26) - 3 : (int)u64();
  const char *s, *m;
  ctx("mvs_status_str");
  ctx_i("status", code);
  pre_call();
  s = mvs_status_str(code);
  if (!s || !s[0]) fail("gave an empty description");
  if ((code >= 0 && code <= LAST_STATUS) != (strcmp(s, "unknown status code") != 0)) fail("describes %d as \"%s\"", code, s);
  check_void_call();
  ctx("mvs_last_error");
  m = mvs_last_error();
  if (!m || strlen(m) > 255) fail("gave %s", m ? "a message of more than 255 bytes" : "NULL");
}

/* ---- the bugs fixed before this target existed, checked once per run ---------------------- */

/* Room for len bytes flush against the upper guard of slot k (deterministic). */
static void *slot_end(int k, size_t len) {
  slot_t *s = &g_sl[k];
  s->off = s->cap - len;
  s->len = len;
  s->used = 1;
  return s->lo + s->off;
}
static void regressions(void) {
  static const ptrdiff_t shape0[3] = {2, 2, 0}, strides0[3] = {(ptrdiff_t)1 << 62, (ptrdiff_t)1 << 62, 8};
  mvs_slice *src, *outs, v;
  ptrdiff_t *ind, six = 6, counts[2] = {(ptrdiff_t)1 << 61, PTRDIFF_MAX};
  mvs_index_item *items;
  int k, st, *on;
  clock_t t0;
  /* mvs_split_at with an impossible count read past its 2-entry array. */
  for (k = 0; k < 2; k++) {
    ctx("mvs_split_at (regression: impossible nindices)");
    ctx_i("nindices", counts[k]);
    src = slot_end(SL_SRC, sizeof *src);
    if (mvs_view_contiguous(g_ar[0], 8, 1, &six, 'C', src) != MVS_OK) fail("cannot build the view");
    ind = slot_end(SL_ARR1, 2 * sizeof *ind);
    ind[0] = 1, ind[1] = 3;
    outs = slot_end(SL_OUTS, sizeof *outs);
    memset(outs, SENT, sizeof *outs);
    pre_call();
    st = mvs_split_at(src, 1, 0, ind, counts[k], outs);
    check_status(st, M_VALUE, 0);
    if (!is_sent(outs, sizeof *outs)) fail("wrote its output");
    slots_done();
  }
  /* mvs_split_sections with sections == nouts past PTRDIFF_MAX / sizeof(mvs_slice) took hours. */
  for (k = 0; k < 3; k++) {
    ptrdiff_t n = k == 0 ? IMPOSSIBLE + 1 : k == 1 ? PTRDIFF_MAX : IMPOSSIBLE + 1000;
    ctx("mvs_split_sections (regression: impossible sections)");
    ctx_i("sections = nouts", n);
    src = slot_end(SL_SRC, sizeof *src);
    if (mvs_view_contiguous(g_ar[0], 8, 1, &six, 'C', src) != MVS_OK) fail("cannot build the view");
    outs = slot_end(SL_OUTS, sizeof *outs);
    memset(outs, SENT, sizeof *outs);
    t0 = clock();
    pre_call();
    st = mvs_split_sections(src, 1, 0, n, 1, outs, n);
    check_status(st, M_VALUE, 0);
    if ((double)(clock() - t0) / CLOCKS_PER_SEC > 1.0) fail("took %.1f s to refuse", (double)(clock() - t0) / CLOCKS_PER_SEC);
    if (!is_sent(outs, sizeof *outs)) fail("wrote its output");
    slots_done();
  }
  /* mvs_flip and mvs_index moved a zero-size view's data address by 2^63 and said MVS_OK. */
  v = empty_view((char *)g_ar[0] + 64, NULL);
  for (k = 0; k < 3; k++) v.shape[k] = shape0[k], v.strides[k] = strides0[k];
  ctx("mvs_flip (regression: zero-size view, total move 2^63)");
  ctx_v("src", &v, 3);
  src = slot_end(SL_SRC, sizeof *src);
  *src = v;
  outs = slot_end(SL_OUT, sizeof *outs);
  memset(outs, SENT, sizeof *outs);
  pre_call();
  st = mvs_flip(src, 3, outs);
  check_status(st, M_OVF, 0);
  if (!is_sent(outs, sizeof *outs)) fail("wrote its output");
  slots_done();
  ctx("mvs_index (regression: zero-size view, total move 2^63)");
  ctx_v("src", &v, 3);
  src = slot_end(SL_SRC, sizeof *src);
  *src = v;
  items = slot_end(SL_ARR1, 2 * sizeof *items);
  memset(items, 0, 2 * sizeof *items);
  items[0].kind = items[1].kind = MVS_ITEM_INDEX;
  items[0].start = items[1].start = 1;
  outs = slot_end(SL_OUT, sizeof *outs);
  memset(outs, SENT, sizeof *outs);
  on = slot_end(SL_OUT2, sizeof *on);
  memset(on, SENT, sizeof *on);
  pre_call();
  st = mvs_index(src, 3, items, 2, outs, on);
  check_status(st, M_OVF, 0);
  if (!is_sent(outs, sizeof *outs) || !is_sent(on, sizeof *on)) fail("wrote its output");
  slots_done();
}

/* ---- programs ---------------------------------------------------------------------------------- */

/* Gives back everything a program still holds, checking that each wrapped block is freed
 * exactly once. */
static void cleanup(void) {
  int i;
  ctx("end of the program");
  for (i = 0; i < NPL; i++)
    if (g_p[i].live) destroy_pool(&g_p[i]);
  for (i = 0; i < NB; i++) {
    brec_t *r = &g_b[i];
    ctx_i("buffer record", i);
    while (r->state == 1 && r->held > 0) {
      r->held--;
      release_ref(r);
    }
    while (r->state == 2 && r->mrefs > 0) release_mem(r);
    if (r->state == 1) fail("fuzzer: buffer record %d still has %td references", i, r->refs);
    if (r->has_dealloc && r->deallocs != 1) fail("a wrapped block was freed %d times", r->deallocs);
    r->state = 0;
    g_c.ni--;
  }
}

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
static void op_dlpack_import(void) {
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

typedef void (*op_fn)(void);
static const struct {
  op_fn f;
  int weight;
} OPS[] = {
    {op_new_view, 6},      {op_view_contiguous, 2}, {op_view_strided, 2},   {op_subview, 3},       {op_slice_axis, 5},
    {op_index_axis, 3},    {op_index, 5},           {op_reshape, 4},        {op_transpose, 1},     {op_permute, 2},
    {op_swap_axes, 1},     {op_move_axes, 2},       {op_broadcast_to, 2},   {op_expand_dims, 1},   {op_squeeze_axis, 1},
    {op_squeeze, 1},       {op_diagonal, 2},        {op_flip, 2},           {op_sliding_window, 2}, {op_split_sections, 2},
    {op_split_at, 2},      {op_is_contiguous, 2},   {op_counts, 1},         {op_byte_extent, 1},   {op_check_bounds, 2},
    {op_may_overlap, 2},   {op_element_ptr, 3},     {op_copy, 7},           {op_fill, 3},          {op_copy_contiguous, 2},
    {op_buffer_new, 2},    {op_buffer_ref, 2},      {op_buffer_attach, 1},  {op_buffer_query, 1},  {op_buffer_view, 2},
    {op_buffer_of, 1},     {op_pool_create, 1},     {op_pool_acquire, 2},   {op_pool_release, 2},  {op_pool_counts, 1},
    {op_pool_destroy, 1},  {op_status, 1},          {op_dlpack_import, 3}, {op_view_as, 2}};
#define NOPS (sizeof OPS / sizeof OPS[0])
static unsigned char g_optab[256];
static unsigned g_nopt;
static int g_ready;

static void init(void) {
  size_t k, i;
  int a, b;
  g_page = (size_t)sysconf(_SC_PAGESIZE);
  memset(g_canary, CANARY, sizeof g_canary);
  for (k = 0; k < NSLOT; k++) {
    g_sl[k].cap = k == SL_OUTS ? (size_t)1 << 20 : g_page;
    g_sl[k].lo = map_guarded(g_sl[k].cap);
    memset(g_sl[k].lo, CANARY, g_sl[k].cap);
  }
  g_ar[0] = map_guarded(ARENA);
  g_ar[1] = map_guarded(ARENA);
  g_table = map_guarded(TABLE);
  for (k = 0; k < NOPS; k++)
    for (i = 0; i < (size_t)OPS[k].weight; i++) g_optab[g_nopt++] = (unsigned char)k;
  g_skip = getenv("MVS_FUZZ_SKIP");
  for (a = 0; a <= LAST_STATUS; a++)
    for (b = 0; b < a; b++)
      if (strcmp(mvs_status_str(a), mvs_status_str(b)) == 0) fail("mvs_status_str gives %d and %d the same description", a, b);
  regressions();
}

/* The program's start: arenas and table filled from a seed the input gives, eight views made
 * from the same seed (so that even a short input has material). */
static void begin(const uint8_t *data, size_t size) {
  static uint8_t seedbytes[768];
  size_t i;
  g_in = data;
  g_len = size;
  g_pos = 0;
  g_rng = 0x9E3779B97F4A7C15ull ^ ((uint64_t)u8() | (uint64_t)u8() << 8 | (uint64_t)u8() << 16);
  for (i = 0; i < ARENA; i++) g_ar[0][i] = (unsigned char)xrand(), g_ar[1][i] = (unsigned char)xrand();
  for (i = 0; i + sizeof(char *) <= TABLE; i += sizeof(char *)) {
    uint64_t r = xrand();
    char *p = r % 4 == 0 ? (char *)(uintptr_t)(r >> 8) : r % 4 == 1 ? (char *)g_ar[r >> 62 & 1] + (r >> 20) % ARENA : (char *)g_table + (r >> 20) % TABLE;
    memcpy(g_table + i, &p, sizeof p);
  }
  for (i = 0; i < sizeof seedbytes; i++) seedbytes[i] = (uint8_t)xrand();
  g_in = seedbytes;
  g_len = sizeof seedbytes;
  g_pos = 0;
  for (i = 0; i < NV; i++) gen_view(&g_pv[i]);
  g_in = data;
  g_len = size;
  g_pos = size < 3 ? size : 3;
  memset(g_b, 0, sizeof g_b);
  memset(g_p, 0, sizeof g_p);
}

unsigned long fuzz_calls(void);
unsigned long fuzz_calls(void) { return g_calls; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int nops = 0;
  if (!g_ready) {
    g_ready = 1;
    init();
  }
  begin(data, size);
  while (g_pos < g_len && nops++ < 64) OPS[g_optab[below(g_nopt)]].f();
  cleanup();
  return 0;
}
