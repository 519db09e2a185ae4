/* Data movement: mvs_copy, mvs_fill, mvs_copy_contiguous.
 * - every error of the three, with its exact status: NULL arguments, ndim, itemsize, negative
 *   extents, byte extents and byte counts that overflow ptrdiff_t, indirect axes, broadcast
 *   mismatches, a self-aliasing (stride-0) destination, an unknown order; after each, the
 *   destination bytes and the source unchanged, the outputs untouched, a message set;
 * - the semantics against values worked out by hand: contiguous, strided, transposed,
 *   broadcast, 0-d and zero-size copies; copies between overlapping views (shifts, the
 *   issue's a[0::2] = a[0:4], in-place reversal and transposition); fills of every fast-path
 *   itemsize and odd ones, with an item inside the destination, of stride-0 views;
 *   contiguous copies in C and F order into new buffers;
 * - guard pages: views whose lowest and highest bytes touch PROT_NONE pages (negative
 *   strides, transposes, broadcasts, odd itemsizes, overlaps that need a temporary), checked
 *   byte for byte against a reference written here: any stray access faults. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, sysconf and fork under -std=c11 */
#endif
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

/* ---- helpers ----------------------------------------------------------------------------- */

/* A view over `data` from lists of extents and byte strides ("3 4", "32 8"); the entries past
 * ndim get junk values, which every function must ignore. */
static mvs_slice mkv(const void *data, int ndim, const char *shape, const char *strides) {
  long long sh[MVS_MAX_DIMS], st[MVS_MAX_DIMS];
  ptrdiff_t a[MVS_MAX_DIMS], b[MVS_MAX_DIMS];
  int i, ns = parse_list_(shape, sh, MVS_MAX_DIMS), nt = parse_list_(strides, st, MVS_MAX_DIMS);
  mvs_slice v;
  if (ns != ndim || nt != ndim) {
    fprintf(stderr, "mkv: %d dims but \"%s\" and \"%s\"\n", ndim, shape, strides);
    exit(2);
  }
  for (i = 0; i < ndim; i++) {
    a[i] = (ptrdiff_t)sh[i];
    b[i] = (ptrdiff_t)st[i];
  }
  v = hand_view((void *)data, ndim, a, b);
  garble_tail(&v, ndim);
  return v;
}

static void setv(double *p, int n, double v) {
  int i;
  for (i = 0; i < n; i++) p[i] = v;
}

/* The n doubles at `a` equal the listed whole numbers. */
static int check_arr_(const double *a, int n, const char *want, const char *file, int line, const char *expr) {
  long long w[256];
  int nw = parse_list_(want, w, 256), i, ok = nw == n;
  char why[200] = "";
  if (!ok) snprintf(why, sizeof why, "%d expected values for %d items", nw, n);
  for (i = 0; ok && i < n; i++) {
    if (a[i] != (double)w[i]) {
      ok = 0;
      snprintf(why, sizeof why, "item %d is %g, want %lld", i, a[i], w[i]);
    }
  }
  g_checks++;
  if (!ok) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: %s: %s\n", file, line, expr, why);
  }
  return ok;
}
#define CHECK_ARR(a, n, want) check_arr_((const double *)(a), (n), (want), __FILE__, __LINE__, #a)

/* n bytes equal; `what` says which case. */
static int check_bytes_(const void *got, const void *want, size_t n, const char *what, const char *file, int line) {
  const unsigned char *g = (const unsigned char *)got, *w = (const unsigned char *)want;
  size_t i;
  g_checks++;
  for (i = 0; i < n; i++) {
    if (g[i] != w[i]) {
      g_failures++;
      fprintf(stderr, "%s:%d: FAILED: %s: byte %zu of %zu is 0x%02x, want 0x%02x\n", file, line, what, i, n,
              g[i], w[i]);
      return 0;
    }
  }
  return 1;
}
#define CHECK_BYTES(got, want, n, what) check_bytes_((got), (want), (size_t)(n), (what), __FILE__, __LINE__)

/* The doubles 0, 1, ..., n - 1 at p. */
static int is_iota(const double *p, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (p[i] != (double)i) return 0;
  return 1;
}

/* ---- errors -------------------------------------------------------------------------------- */

static double e_src[64], e_dst[64];
#define E_PAT 0x5C

static void e_reset(void) {
  iota(e_src, 64, 0);
  memset(e_dst, E_PAT, sizeof e_dst);
}

/* The destination holds the pattern and the source its values: nothing was written. */
static int e_intact(void) {
  const unsigned char *b = (const unsigned char *)e_dst;
  size_t i;
  for (i = 0; i < sizeof e_dst; i++)
    if (b[i] != E_PAT) return 0;
  return is_iota(e_src, 64);
}

#define FAILS(call, want, part) \
  do {                          \
    e_reset();                  \
    CHECK_ERR(call, want, part); \
    CHECK(e_intact());          \
  } while (0)

/* For mvs_copy_contiguous, whose outputs are `ob` and `ov` in the caller's scope. */
#define FAILS_CC(call, want, part) \
  do {                             \
    e_reset();                     \
    SENT(ob);                      \
    SENT(ov);                      \
    CHECK_ERR(call, want, part);   \
    CHECK_UNTOUCHED(ob);           \
    CHECK_UNTOUCHED(ov);           \
    CHECK(e_intact());             \
  } while (0)

/* Views whose byte extent does not fit in ptrdiff_t: (len - 1) * |stride| summed is above
 * PTRDIFF_MAX. (Shape {2, 2} with strides {PTRDIFF_MAX / 2 + 1, 8} spans 2^62 + 8 bytes, which
 * fits: its extent is valid.) */
static mvs_slice overflowing(void *data, int which) {
  ptrdiff_t sh[2], st[2];
  mvs_slice v;
  switch (which) {
    case 0: sh[0] = 3; sh[1] = 2; st[0] = PTRDIFF_MAX / 2 + 1; st[1] = 8; break;
    case 1: sh[0] = 3; sh[1] = 2; st[0] = -(PTRDIFF_MAX / 2 + 1); st[1] = 8; break;
    case 2: sh[0] = 2; sh[1] = 2; st[0] = PTRDIFF_MAX; st[1] = 8; break;
    default: sh[0] = 2; sh[1] = 2; st[0] = 8; st[1] = PTRDIFF_MIN; break;
  }
  v = hand_view(data, 2, sh, st);
  garble_tail(&v, 2);
  return v;
}
#define N_OVERFLOWING 4

static void test_copy_errors(void) {
  mvs_slice s = mkv(e_src, 2, "3 4", "32 8"), d = mkv(e_dst, 2, "3 4", "32 8"), x, y;
  int k;

  FAILS(mvs_copy(NULL, 2, &d, 2, 8), MVS_ERR_NULL, "`src`");
  FAILS(mvs_copy(&s, 2, NULL, 2, 8), MVS_ERR_NULL, "`dst`");
  FAILS(mvs_copy(NULL, 2, NULL, 2, 8), MVS_ERR_NULL, "NULL");
  FAILS(mvs_copy(&s, -1, &d, 2, 8), MVS_ERR_NDIM, "");
  FAILS(mvs_copy(&s, 9, &d, 2, 8), MVS_ERR_NDIM, "");
  FAILS(mvs_copy(&s, 2, &d, -1, 8), MVS_ERR_NDIM, "");
  FAILS(mvs_copy(&s, 2, &d, 9, 8), MVS_ERR_NDIM, "");
  FAILS(mvs_copy(&s, INT_MIN, &d, 2, 8), MVS_ERR_NDIM, "");
  FAILS(mvs_copy(&s, 2, &d, INT_MAX, 8), MVS_ERR_NDIM, "");
  FAILS(mvs_copy(&s, 2, &d, 2, 0), MVS_ERR_ITEMSIZE, "");
  FAILS(mvs_copy(&s, 2, &d, 2, -1), MVS_ERR_ITEMSIZE, "");
  FAILS(mvs_copy(&s, 2, &d, 2, PTRDIFF_MIN), MVS_ERR_ITEMSIZE, "");

  /* negative extents, in either view, also beside a zero extent */
  x = s;
  x.shape[1] = -1;
  FAILS(mvs_copy(&x, 2, &d, 2, 8), MVS_ERR_SHAPE, "");
  x = d;
  x.shape[0] = -3;
  FAILS(mvs_copy(&s, 2, &x, 2, 8), MVS_ERR_SHAPE, "");
  x = d;
  x.shape[0] = 0;
  x.shape[1] = -4;
  FAILS(mvs_copy(&s, 2, &x, 2, 8), MVS_ERR_SHAPE, "");
  x = s;
  x.shape[0] = PTRDIFF_MIN;
  FAILS(mvs_copy(&x, 2, &d, 2, 8), MVS_ERR_SHAPE, "");

  /* byte extents beyond ptrdiff_t, in either view (the other has the same shape) */
  for (k = 0; k < N_OVERFLOWING; k++) {
    x = overflowing(e_src, k);
    y = mkv(e_dst, 2, "3 2", "16 8");
    y.shape[0] = x.shape[0];
    FAILS(mvs_copy(&x, 2, &y, 2, 8), MVS_ERR_OVERFLOW, "");
    y = mkv(e_src, 2, "3 2", "16 8");
    x = overflowing(e_dst, k);
    y.shape[0] = x.shape[0];
    FAILS(mvs_copy(&y, 2, &x, 2, 8), MVS_ERR_OVERFLOW, "");
  }

  /* indirect axes (suboffset >= 0) */
  x = s;
  x.suboffsets[0] = 0;
  FAILS(mvs_copy(&x, 2, &d, 2, 8), MVS_ERR_INDIRECT, "");
  x = d;
  x.suboffsets[1] = 0;
  FAILS(mvs_copy(&s, 2, &x, 2, 8), MVS_ERR_INDIRECT, "");
  x = d;
  x.suboffsets[0] = 16;
  FAILS(mvs_copy(&s, 2, &x, 2, 8), MVS_ERR_INDIRECT, "");

  /* broadcast mismatches */
  x = mkv(e_src, 1, "3", "8");
  y = mkv(e_dst, 1, "4", "8");
  FAILS(mvs_copy(&x, 1, &y, 1, 8), MVS_ERR_BROADCAST, "");
  x = mkv(e_src, 2, "2 4", "32 8"); /* an extra leading axis of extent 2 */
  FAILS(mvs_copy(&x, 2, &y, 1, 8), MVS_ERR_BROADCAST, "");
  x = mkv(e_src, 2, "2 1", "8 8");
  FAILS(mvs_copy(&x, 2, &y, 1, 8), MVS_ERR_BROADCAST, "");
  x = mkv(e_src, 2, "0 4", "32 8"); /* extra leading extent 0 */
  FAILS(mvs_copy(&x, 2, &y, 1, 8), MVS_ERR_BROADCAST, "");
  x = mkv(e_src, 1, "0", "8"); /* 0 does not broadcast to 4 */
  FAILS(mvs_copy(&x, 1, &y, 1, 8), MVS_ERR_BROADCAST, "");
  x = mkv(e_src, 1, "4", "8"); /* 4 items into a 0-d view */
  y = mkv(e_dst, 0, "", "");
  FAILS(mvs_copy(&x, 1, &y, 0, 8), MVS_ERR_BROADCAST, "");
  x = mkv(e_src, 2, "2 3", "24 8");
  y = mkv(e_dst, 2, "3 2", "16 8");
  FAILS(mvs_copy(&x, 2, &y, 2, 8), MVS_ERR_BROADCAST, "");
  x = mkv(e_src, 3, "1 3 4", "0 32 8");
  y = mkv(e_dst, 2, "2 4", "32 8");
  FAILS(mvs_copy(&x, 3, &y, 2, 8), MVS_ERR_BROADCAST, "");
  x = mkv(e_src, 1, "3", "8"); /* a zero-size destination is still checked */
  y = mkv(e_dst, 2, "0 2", "16 8");
  FAILS(mvs_copy(&x, 1, &y, 2, 8), MVS_ERR_BROADCAST, "");

  /* a destination axis of stride 0 and extent > 1: its items alias */
  y = mkv(e_dst, 2, "3 4", "0 8");
  FAILS(mvs_copy(&s, 2, &y, 2, 8), MVS_ERR_VALUE, "");
  y = mkv(e_dst, 2, "3 4", "32 0");
  FAILS(mvs_copy(&s, 2, &y, 2, 8), MVS_ERR_VALUE, "");
  x = mkv(e_src, 1, "4", "8");
  y = mkv(e_dst, 1, "4", "0");
  FAILS(mvs_copy(&x, 1, &y, 1, 8), MVS_ERR_VALUE, "");
  /* a bad itemsize is refused for zero-size views too (fuzzing found the small path accept it) */
  x = mkv(e_src, 1, "0", "8");
  y = mkv(e_dst, 1, "0", "8");
  FAILS(mvs_copy(&x, 1, &y, 1, -8), MVS_ERR_ITEMSIZE, "");
  FAILS(mvs_copy(&x, 1, &y, 1, 0), MVS_ERR_ITEMSIZE, "");
  /* but not when the destination has no items (NumPy gives np.empty((3, 0)) strides (0, 8)) */
  e_reset();
  x = mkv(e_src, 2, "3 0", "0 8");
  y = mkv(e_dst, 2, "3 0", "0 8");
  CHECK_ST(mvs_copy(&x, 2, &y, 2, 8), MVS_OK);
  CHECK(e_intact());

  /* the same arguments, corrected, succeed (so the failures above are the ones named) */
  e_reset();
  CHECK_ST(mvs_copy(&s, 2, &d, 2, 8), MVS_OK);
  CHECK_ARR(e_dst, 12, "0 1 2 3 4 5 6 7 8 9 10 11");
  /* a stride-0 axis of extent 1 is fine */
  e_reset();
  y = mkv(e_dst, 2, "1 4", "0 8");
  x = mkv(e_src, 1, "4", "8");
  CHECK_ST(mvs_copy(&x, 1, &y, 2, 8), MVS_OK);
  CHECK_ARR(e_dst, 4, "0 1 2 3");
}

static void test_fill_errors(void) {
  mvs_slice d = mkv(e_dst, 2, "3 4", "32 8"), x;
  double item = 99;
  int k;

  FAILS(mvs_fill(NULL, 2, 8, &item), MVS_ERR_NULL, "`dst`");
  FAILS(mvs_fill(&d, 2, 8, NULL), MVS_ERR_NULL, "`item`");
  FAILS(mvs_fill(NULL, 2, 8, NULL), MVS_ERR_NULL, "NULL");
  FAILS(mvs_fill(&d, -1, 8, &item), MVS_ERR_NDIM, "");
  FAILS(mvs_fill(&d, 9, 8, &item), MVS_ERR_NDIM, "");
  FAILS(mvs_fill(&d, 2, 0, &item), MVS_ERR_ITEMSIZE, "");
  FAILS(mvs_fill(&d, 2, -1, &item), MVS_ERR_ITEMSIZE, "");
  FAILS(mvs_fill(&d, 2, PTRDIFF_MIN, &item), MVS_ERR_ITEMSIZE, "");
  x = d;
  x.shape[1] = -1;
  FAILS(mvs_fill(&x, 2, 8, &item), MVS_ERR_SHAPE, "");
  x = d;
  x.shape[0] = 0;
  x.shape[1] = -2;
  FAILS(mvs_fill(&x, 2, 8, &item), MVS_ERR_SHAPE, "");
  for (k = 0; k < N_OVERFLOWING; k++) {
    x = overflowing(e_dst, k);
    FAILS(mvs_fill(&x, 2, 8, &item), MVS_ERR_OVERFLOW, "");
  }
  x = d;
  x.suboffsets[0] = 0;
  FAILS(mvs_fill(&x, 2, 8, &item), MVS_ERR_INDIRECT, "");
  x = d;
  x.suboffsets[1] = 8;
  FAILS(mvs_fill(&x, 2, 8, &item), MVS_ERR_INDIRECT, "");

  /* stride 0 is refused by mvs_copy, accepted here */
  e_reset();
  x = mkv(e_dst, 2, "3 4", "0 8");
  CHECK_ST(mvs_fill(&x, 2, 8, &item), MVS_OK);
  CHECK_ARR(e_dst, 4, "99 99 99 99");
  CHECK(((const unsigned char *)e_dst)[32] == E_PAT);
  e_reset();
  CHECK_ST(mvs_fill(&d, 2, 8, &item), MVS_OK);
  CHECK_ARR(e_dst, 12, "99 99 99 99 99 99 99 99 99 99 99 99");
  CHECK(((const unsigned char *)e_dst)[96] == E_PAT);
}

static void test_copy_contiguous_errors(void) {
  mvs_slice s = mkv(e_src, 2, "3 4", "32 8"), x, ov;
  mvs_buffer *ob;
  ptrdiff_t sh[2], st[2] = {0, 0};
  int k;

  FAILS_CC(mvs_copy_contiguous(NULL, 2, 8, 'C', &ob, &ov), MVS_ERR_NULL, "`src`");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 8, 'C', NULL, &ov), MVS_ERR_NULL, "`out_buffer`");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 8, 'F', &ob, NULL), MVS_ERR_NULL, "`out_view`");
  FAILS_CC(mvs_copy_contiguous(&s, -1, 8, 'C', &ob, &ov), MVS_ERR_NDIM, "");
  FAILS_CC(mvs_copy_contiguous(&s, 9, 8, 'C', &ob, &ov), MVS_ERR_NDIM, "");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 0, 'C', &ob, &ov), MVS_ERR_ITEMSIZE, "");
  FAILS_CC(mvs_copy_contiguous(&s, 2, -1, 'F', &ob, &ov), MVS_ERR_ITEMSIZE, "");
  x = s;
  x.shape[0] = -1;
  FAILS_CC(mvs_copy_contiguous(&x, 2, 8, 'C', &ob, &ov), MVS_ERR_SHAPE, "");
  for (k = 0; k < N_OVERFLOWING; k++) {
    x = overflowing(e_src, k);
    FAILS_CC(mvs_copy_contiguous(&x, 2, 8, 'C', &ob, &ov), MVS_ERR_OVERFLOW, "");
  }
  x = s;
  x.suboffsets[1] = 0;
  FAILS_CC(mvs_copy_contiguous(&x, 2, 8, 'C', &ob, &ov), MVS_ERR_INDIRECT, "");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 8, 'X', &ob, &ov), MVS_ERR_VALUE, "");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 8, 'c', &ob, &ov), MVS_ERR_VALUE, "");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 8, 'A', &ob, &ov), MVS_ERR_VALUE, "");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 8, 0, &ob, &ov), MVS_ERR_VALUE, "");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 8, -1, &ob, &ov), MVS_ERR_VALUE, "");
  FAILS_CC(mvs_copy_contiguous(&s, 2, 8, 'C' + 256, &ob, &ov), MVS_ERR_VALUE, "");

  /* byte counts beyond ptrdiff_t, of stride-0 views (valid ones: they span no bytes) */
  sh[0] = PTRDIFF_MAX / 4; /* item count 2^64 - 8: overflows */
  sh[1] = 8;
  x = hand_view(e_src, 2, sh, st);
  FAILS_CC(mvs_copy_contiguous(&x, 2, 8, 'C', &ob, &ov), MVS_ERR_OVERFLOW, "");
  sh[0] = PTRDIFF_MAX / 16; /* item count 2^62 - 8 fits; times 8 bytes does not */
  x = hand_view(e_src, 2, sh, st);
  FAILS_CC(mvs_copy_contiguous(&x, 2, 8, 'F', &ob, &ov), MVS_ERR_OVERFLOW, "");
  sh[0] = PTRDIFF_MAX; /* item count overflows with itemsize 1 */
  sh[1] = 2;
  x = hand_view(e_src, 2, sh, st);
  FAILS_CC(mvs_copy_contiguous(&x, 2, 1, 'C', &ob, &ov), MVS_ERR_OVERFLOW, "");
  sh[0] = PTRDIFF_MAX / 2 + 1; /* 2^62 items of 2 bytes: 2^63 */
  x = hand_view(e_src, 1, sh, st);
  FAILS_CC(mvs_copy_contiguous(&x, 1, 2, 'C', &ob, &ov), MVS_ERR_OVERFLOW, "");
}

/* A view whose span fits in ptrdiff_t but whose last byte does not: its second item starts
 * PTRDIFF_MAX - 7 bytes in and has 16 bytes. Accepting it means touching a wild address, so
 * these run in a child process: a crash is reported as a failure, not the end of the test. */
static mvs_slice edge_view(void *data) {
  ptrdiff_t sh = 2, st = PTRDIFF_MAX - 7;
  return hand_view(data, 1, &sh, &st);
}

static int edge_result(int status) {
  if (status != MVS_ERR_OVERFLOW) return status;
  if (!e_intact()) return 100;
  if (mvs_last_error() == NULL || mvs_last_error()[0] == '\0') return 101;
  return status;
}

static int edge_copy_dst(void) {
  mvs_slice s = mkv(e_src, 1, "2", "16"), d = edge_view(e_dst);
  e_reset();
  return edge_result(mvs_copy(&s, 1, &d, 1, 16));
}

static int edge_copy_src(void) {
  mvs_slice s = edge_view(e_src), d = mkv(e_dst, 1, "2", "16");
  e_reset();
  return edge_result(mvs_copy(&s, 1, &d, 1, 16));
}

static int edge_fill(void) {
  mvs_slice d = edge_view(e_dst);
  unsigned char item[16] = {0};
  e_reset();
  return edge_result(mvs_fill(&d, 1, 16, item));
}

static int edge_copy_contiguous(void) {
  mvs_slice s = edge_view(e_src), ov;
  mvs_buffer *ob;
  int st;
  e_reset();
  SENT(ob);
  SENT(ov);
  st = mvs_copy_contiguous(&s, 1, 16, 'C', &ob, &ov);
  if (st == MVS_ERR_OVERFLOW && !(is_sentinel_(&ob, sizeof ob) && is_sentinel_(&ov, sizeof ov))) return 102;
  return edge_result(st);
}

/* Runs fn in a child process; its exit status, or minus the signal that ended it. */
static int in_child(int (*fn)(void)) {
  pid_t pid;
  int st = 0;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) return -1000;
  if (pid == 0) _exit(fn());
  if (waitpid(pid, &st, 0) != pid) return -1001;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) return -WTERMSIG(st);
  return -1002;
}

/* The same view as the source of a copy into a zero-size destination: nothing is read, and
 * the error is still reported (safe to run here: a wrong MVS_OK touches nothing). */
static void test_edge_extent_empty_dst(void) {
  mvs_slice s = edge_view(e_src), d = mkv(e_dst, 2, "0 2", "32 16");
  FAILS(mvs_copy(&s, 1, &d, 2, 16), MVS_ERR_OVERFLOW, "");
}

/* The child's exit status is the call's status, or 100 (the destination or source changed),
 * 101 (no message), 102 (an output written); minus a signal number when a crash killed it
 * (under ASan, which catches the crash, exit status 1). */
#define CHECK_IN_CHILD(fn)                                                                      \
  do {                                                                                        \
    int got_ = in_child(fn);                                                                  \
    if (!CHECK_EQ(got_, MVS_ERR_OVERFLOW))                                                    \
      fprintf(stderr, "    (%s, run in a child process: %s)\n", #fn,                          \
              got_ < 0 ? "killed by a signal" : got_ >= 100 ? "see CHECK_IN_CHILD" : "its exit status"); \
  } while (0)

static void test_edge_extent(void) {
  CHECK_IN_CHILD(edge_copy_dst);
  CHECK_IN_CHILD(edge_copy_src);
  CHECK_IN_CHILD(edge_fill);
  CHECK_IN_CHILD(edge_copy_contiguous);
  test_edge_extent_empty_dst();
}

/* ---- copies -------------------------------------------------------------------------------- */

static void test_copy_basic(void) {
  double s[24], d[24];
  mvs_slice sv, dv;

  /* C-contiguous 3x4 into C-contiguous 3x4 */
  iota(s, 24, 0);
  setv(d, 24, -1);
  sv = mkv(s, 2, "3 4", "32 8");
  dv = mkv(d, 2, "3 4", "32 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 14, "0 1 2 3 4 5 6 7 8 9 10 11 -1 -1");
  CHECK(is_iota(s, 24));
  /* the same mvs_slice as both (identical views): nothing changes */
  CHECK_ST(mvs_copy(&dv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 14, "0 1 2 3 4 5 6 7 8 9 10 11 -1 -1");

  /* src = s.reshape(3, 8)[:, ::2] */
  setv(d, 24, -1);
  sv = mkv(s, 2, "3 4", "64 16");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 14, "0 2 4 6 8 10 12 14 16 18 20 22 -1 -1");

  /* d.reshape(3, 8)[:, 1::2] = s.reshape(3, 4) */
  setv(d, 24, -1);
  sv = mkv(s, 2, "3 4", "32 8");
  dv = mkv(d + 1, 2, "3 4", "64 16");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 24, "-1 0 -1 1 -1 2 -1 3 -1 4 -1 5 -1 6 -1 7 -1 8 -1 9 -1 10 -1 11");

  /* transposed: d (4x3) = s.reshape(3, 4).T */
  setv(d, 24, -1);
  sv = mkv(s, 2, "4 3", "8 32");
  dv = mkv(d, 2, "4 3", "24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 13, "0 4 8 1 5 9 2 6 10 3 7 11 -1");

  /* negative strides both ways: d[::-1, ::-1] = s.reshape(3, 4)[::-1] */
  setv(d, 24, -1);
  sv = mkv(s + 8, 2, "3 4", "-32 8");
  dv = mkv(d + 11, 2, "3 4", "-32 -8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 13, "3 2 1 0 7 6 5 4 11 10 9 8 -1");

  /* 16-byte items (pairs): d[:3] = s.view(complex)[::2] */
  setv(d, 24, -1);
  sv = mkv(s, 1, "3", "32");
  dv = mkv(d, 1, "3", "16");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 1, 16), MVS_OK);
  CHECK_ARR(d, 7, "0 1 4 5 8 9 -1");

  /* 4-byte items */
  {
    int32_t a[6] = {1, 2, 3, 4, 5, 6}, b[7] = {-1, -1, -1, -1, -1, -1, -1};
    sv = mkv(a + 5, 1, "6", "-4");
    dv = mkv(b, 1, "6", "4");
    CHECK_ST(mvs_copy(&sv, 1, &dv, 1, 4), MVS_OK);
    CHECK(b[0] == 6 && b[1] == 5 && b[2] == 4 && b[3] == 3 && b[4] == 2 && b[5] == 1 && b[6] == -1);
  }

  /* 8-d: (2,1,2,1,2,1,1,2) C-contiguous into its F-contiguous counterpart */
  iota(s, 24, 0);
  setv(d, 24, -1);
  sv = mkv(s, 8, "2 1 2 1 2 1 1 2", "64 64 32 32 16 16 16 8");
  dv = mkv(d, 8, "2 1 2 1 2 1 1 2", "8 16 16 32 32 64 64 64");
  CHECK_ST(mvs_copy(&sv, 8, &dv, 8, 8), MVS_OK);
  /* F position i0 + 2 i2 + 4 i4 + 8 i7 holds C value 8 i0 + 4 i2 + 2 i4 + i7 */
  CHECK_ARR(d, 17, "0 8 4 12 2 10 6 14 1 9 5 13 3 11 7 15 -1");
}

static void test_copy_broadcast(void) {
  double s[12], d[16];
  mvs_slice sv, dv;
  iota(s, 12, 10);

  /* (1, 3) into (4, 3); the stride of the extent-1 axis does not matter */
  setv(d, 16, -1);
  sv = mkv(s, 2, "1 3", "12345 8");
  dv = mkv(d, 2, "4 3", "24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 13, "10 11 12 10 11 12 10 11 12 10 11 12 -1");

  /* (3,) into (4, 3), here read backwards */
  setv(d, 16, -1);
  sv = mkv(s + 2, 1, "3", "-8");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 13, "12 11 10 12 11 10 12 11 10 12 11 10 -1");

  /* (4, 1) into (4, 3): a column repeated along the rows */
  setv(d, 16, -1);
  sv = mkv(s, 2, "4 1", "8 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 13, "10 10 10 11 11 11 12 12 12 13 13 13 -1");

  /* extra leading axes of extent 1: (1, 1, 3) into (4, 3) */
  setv(d, 16, -1);
  sv = mkv(s, 3, "1 1 3", "0 96 8");
  CHECK_ST(mvs_copy(&sv, 3, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 13, "10 11 12 10 11 12 10 11 12 10 11 12 -1");

  /* (2, 2) into (2, 2, 2): the source repeats along the new leading axis */
  setv(d, 16, -1);
  sv = mkv(s, 2, "2 2", "16 8");
  dv = mkv(d, 3, "2 2 2", "32 16 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 3, 8), MVS_OK);
  CHECK_ARR(d, 9, "10 11 12 13 10 11 12 13 -1");

  /* a stride-0 source (broadcast view) into (3, 2) */
  setv(d, 16, -1);
  sv = mkv(s, 2, "3 2", "0 8");
  dv = mkv(d, 2, "3 2", "16 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 7, "10 11 10 11 10 11 -1");
}

static void test_copy_0d_and_empty(void) {
  double x = 42, y = -1, d[16];
  mvs_slice sv, dv;

  sv = mkv(&x, 0, "", "");
  dv = mkv(&y, 0, "", "");
  CHECK_ST(mvs_copy(&sv, 0, &dv, 0, 8), MVS_OK);
  CHECK(y == 42);
  CHECK(x == 42);
  /* a 0-d source broadcast to (2, 3) */
  setv(d, 16, -1);
  dv = mkv(d, 2, "2 3", "24 8");
  CHECK_ST(mvs_copy(&sv, 0, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d, 7, "42 42 42 42 42 42 -1");
  /* (1, 1) into 0-d */
  d[0] = 7;
  y = -1;
  sv = mkv(d, 2, "1 1", "8 8");
  dv = mkv(&y, 0, "", "");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 0, 8), MVS_OK);
  CHECK(y == 7);

  /* zero-size destinations: nothing written */
  iota(d, 8, 0);
  setv(d + 8, 8, -1);
  sv = mkv(d, 2, "1 3", "24 8");
  dv = mkv(d + 8, 2, "0 3", "24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(d + 8, 8, "-1 -1 -1 -1 -1 -1 -1 -1");
  sv = mkv(d, 2, "3 0", "8 8");
  dv = mkv(d + 8, 2, "3 0", "8 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  sv = mkv(d, 1, "1", "8"); /* extent 1 broadcasts to 0 */
  dv = mkv(d + 8, 1, "0", "8");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 1, 8), MVS_OK);
  sv = mkv(d, 1, "2", "8");
  dv = mkv(d + 8, 2, "0 2", "16 8");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 2, 8), MVS_OK);
  sv = mkv(d, 2, "0 3", "24 8"); /* zero-size source too */
  dv = mkv(d + 8, 2, "0 3", "24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 3), MVS_OK);
  CHECK_ARR(d + 8, 8, "-1 -1 -1 -1 -1 -1 -1 -1");
  CHECK(is_iota(d, 8));
}

static void test_copy_overlap(void) {
  double a[12];
  mvs_slice sv, dv;

  /* a[1:] = a[:-1] and the reverse: one contiguous run each */
  iota(a, 8, 0);
  sv = mkv(a, 1, "7", "8");
  dv = mkv(a + 1, 1, "7", "8");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 1, 8), MVS_OK);
  CHECK_ARR(a, 8, "0 0 1 2 3 4 5 6");
  iota(a, 8, 0);
  CHECK_ST(mvs_copy(&dv, 1, &sv, 1, 8), MVS_OK);
  CHECK_ARR(a, 8, "1 2 3 4 5 6 7 7");

  /* the issue: a = arange(8.); a[0::2] = a[0:4] */
  iota(a, 8, 0);
  sv = mkv(a, 1, "4", "8");
  dv = mkv(a, 1, "4", "16");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 1, 8), MVS_OK);
  CHECK_ARR(a, 8, "0 1 1 3 2 5 3 7");
  /* and a[0:4] = a[0::2] */
  iota(a, 8, 0);
  CHECK_ST(mvs_copy(&dv, 1, &sv, 1, 8), MVS_OK);
  CHECK_ARR(a, 8, "0 2 4 6 4 5 6 7");

  /* a[2::2] = a[:-2:2] and the reverse */
  iota(a, 8, 0);
  sv = mkv(a, 1, "3", "16");
  dv = mkv(a + 2, 1, "3", "16");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 1, 8), MVS_OK);
  CHECK_ARR(a, 8, "0 1 0 3 2 5 4 7");
  iota(a, 8, 0);
  CHECK_ST(mvs_copy(&dv, 1, &sv, 1, 8), MVS_OK);
  CHECK_ARR(a, 8, "2 1 4 3 6 5 6 7");

  /* a[...] = a[::-1] */
  iota(a, 8, 0);
  sv = mkv(a + 7, 1, "8", "-8");
  dv = mkv(a, 1, "8", "8");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 1, 8), MVS_OK);
  CHECK_ARR(a, 8, "7 6 5 4 3 2 1 0");

  /* m[...] = m.T, 3x3 */
  iota(a, 9, 0);
  sv = mkv(a, 2, "3 3", "8 24");
  dv = mkv(a, 2, "3 3", "24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(a, 9, "0 3 6 1 4 7 2 5 8");

  /* m = arange(12.).reshape(4, 3); m[1:, :2] = m[:-1, :2] (strided, overlapping) */
  iota(a, 12, 0);
  sv = mkv(a, 2, "3 2", "24 8");
  dv = mkv(a + 3, 2, "3 2", "24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(a, 12, "0 1 2 0 1 5 3 4 8 6 7 11");

  /* m[...] = m[2] (a row of m broadcast over m) */
  iota(a, 12, 0);
  sv = mkv(a + 6, 1, "3", "8");
  dv = mkv(a, 2, "4 3", "24 8");
  CHECK_ST(mvs_copy(&sv, 1, &dv, 2, 8), MVS_OK);
  CHECK_ARR(a, 12, "6 7 8 6 7 8 6 7 8 6 7 8");
  /* m[...] = m[:, 1:2] (a column broadcast) */
  iota(a, 12, 0);
  sv = mkv(a + 1, 2, "4 1", "24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(a, 12, "1 1 1 4 4 4 7 7 7 10 10 10");
  /* m[::-1] = m: rows reversed in place */
  iota(a, 12, 0);
  sv = mkv(a, 2, "4 3", "24 8");
  dv = mkv(a + 9, 2, "4 3", "-24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK_ARR(a, 12, "9 10 11 6 7 8 3 4 5 0 1 2");
  /* a view of the same items in the same order (equal views in separate structs) */
  iota(a, 12, 0);
  sv = mkv(a, 2, "4 3", "24 8");
  dv = mkv(a, 2, "4 3", "24 8");
  CHECK_ST(mvs_copy(&sv, 2, &dv, 2, 8), MVS_OK);
  CHECK(is_iota(a, 12));
}

/* ---- fills --------------------------------------------------------------------------------- */

static void test_fill_sizes(void) {
  static const int sizes[7] = {1, 2, 4, 8, 16, 3, 12};
  unsigned char buf[600], want[600], item[16];
  char what[96];
  int z, variant, i, r, c;
  for (z = 0; z < 7; z++) {
    ptrdiff_t k = sizes[z];
    for (variant = 0; variant < 6; variant++) {
      ptrdiff_t st0, st1, base = 0;
      char sts[48];
      mvs_slice v;
      switch (variant) {
        case 0: case 3: st0 = 4 * k; st1 = k; break; /* contiguous */
        case 1: case 4: st0 = 9 * k; st1 = 2 * k; break; /* gaps */
        case 2: st0 = -9 * k; st1 = -2 * k; base = 2 * 9 * k + 3 * 2 * k; break; /* negative */
        default: st0 = k; st1 = 3 * k; break; /* F order */
      }
      for (i = 0; i < 16; i++) item[i] = (unsigned char)(variant == 3 ? 0 : variant == 4 ? 0x7F : 0x10 * z + i + 1);
      memset(buf, 0xEE, sizeof buf);
      memcpy(want, buf, sizeof buf);
      for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++) memcpy(want + base + r * st0 + c * st1, item, (size_t)k);
      snprintf(sts, sizeof sts, "%td %td", st0, st1);
      v = mkv(buf + base, 2, "3 4", sts);
      snprintf(what, sizeof what, "fill 3x4 itemsize %td strides %td %td", k, st0, st1);
      CHECK_ST(mvs_fill(&v, 2, k, item), MVS_OK);
      CHECK_BYTES(buf, want, sizeof buf, what);
    }
    /* 0-d: one item */
    {
      mvs_slice v;
      memset(buf, 0xEE, sizeof buf);
      memcpy(want, buf, sizeof buf);
      memcpy(want + 5, item, (size_t)k);
      v = mkv(buf + 5, 0, "", "");
      snprintf(what, sizeof what, "fill 0-d itemsize %td", k);
      CHECK_ST(mvs_fill(&v, 0, k, item), MVS_OK);
      CHECK_BYTES(buf, want, sizeof buf, what);
      /* zero-size: nothing */
      memset(buf, 0xEE, sizeof buf);
      v = mkv(buf, 2, "3 0", "8 8");
      CHECK_ST(mvs_fill(&v, 2, k, item), MVS_OK);
      memset(want, 0xEE, sizeof want);
      CHECK_BYTES(buf, want, sizeof buf, "fill zero-size");
    }
  }
}

static void test_fill_aliasing(void) {
  double a[12];
  double x;
  unsigned char b[32], orig[32], want[32];
  int i;
  mvs_slice v;

  /* a[...] = a[5] */
  iota(a, 8, 0);
  v = mkv(a, 1, "8", "8");
  CHECK_ST(mvs_fill(&v, 1, 8, &a[5]), MVS_OK);
  CHECK_ARR(a, 8, "5 5 5 5 5 5 5 5");
  /* a[::-2] = a[3], an item the fill writes */
  iota(a, 8, 0);
  v = mkv(a + 7, 1, "4", "-16");
  CHECK_ST(mvs_fill(&v, 1, 8, &a[3]), MVS_OK);
  CHECK_ARR(a, 8, "0 3 2 3 4 3 6 3");
  /* the item straddles two items of dst: bytes 4..11 of a */
  iota(a, 4, 0);
  memcpy(orig, a, 32);
  for (i = 0; i < 4; i++) memcpy(want + 8 * i, orig + 4, 8);
  v = mkv(a, 1, "4", "8");
  CHECK_ST(mvs_fill(&v, 1, 8, (const unsigned char *)a + 4), MVS_OK);
  CHECK_BYTES(a, want, 32, "fill with an item straddling two items of dst");
  /* itemsize 3 with gaps, the item over an item and a gap of dst: bytes 13..15 */
  for (i = 0; i < 32; i++) b[i] = (unsigned char)i;
  memcpy(orig, b, 32);
  memcpy(want, b, 32);
  for (i = 0; i < 5; i++) memcpy(want + 6 * i, orig + 13, 3);
  v = mkv(b, 1, "5", "6");
  CHECK_ST(mvs_fill(&v, 1, 3, b + 13), MVS_OK);
  CHECK_BYTES(b, want, 32, "fill itemsize 3 with an item inside dst");
  /* a 2-d transposed dst, the item its last item */
  iota(a, 12, 0);
  v = mkv(a, 2, "4 3", "8 32");
  CHECK_ST(mvs_fill(&v, 2, 8, &a[11]), MVS_OK);
  CHECK_ARR(a, 12, "11 11 11 11 11 11 11 11 11 11 11 11");

  /* stride-0 views: their items are one item */
  x = 7;
  setv(a, 12, -1);
  v = mkv(a, 2, "4 3", "0 8");
  CHECK_ST(mvs_fill(&v, 2, 8, &x), MVS_OK);
  CHECK_ARR(a, 12, "7 7 7 -1 -1 -1 -1 -1 -1 -1 -1 -1");
  setv(a, 12, -1);
  v = mkv(a, 2, "3 4", "32 0");
  CHECK_ST(mvs_fill(&v, 2, 8, &x), MVS_OK);
  CHECK_ARR(a, 12, "7 -1 -1 -1 7 -1 -1 -1 7 -1 -1 -1");
  setv(a, 12, -1);
  v = mkv(a + 1, 3, "5 2 3", "0 0 0");
  CHECK_ST(mvs_fill(&v, 3, 8, &x), MVS_OK);
  CHECK_ARR(a, 12, "-1 7 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1");
  /* stride 0 with the item inside the view */
  iota(a, 12, 0);
  v = mkv(a, 2, "3 4", "0 8");
  CHECK_ST(mvs_fill(&v, 2, 8, &a[2]), MVS_OK);
  CHECK_ARR(a, 12, "2 2 2 2 4 5 6 7 8 9 10 11");
}

/* ---- contiguous copies --------------------------------------------------------------------- */

/* Checks a result of mvs_copy_contiguous: a buffer of `nbytes` with one reference, 64-aligned
 * data, the view's memview the buffer; then releases it. */
static void check_new_buffer(mvs_buffer *b, const mvs_slice *ov, ptrdiff_t nbytes) {
  ptrdiff_t n = -1, refs = -1;
  void *p = NULL;
  CHECK_PTR(ov->memview, b);
  CHECK_ST(mvs_buffer_size(b, &n), MVS_OK);
  CHECK_EQ(n, nbytes);
  CHECK_ST(mvs_buffer_data(b, &p), MVS_OK);
  CHECK_PTR(p, ov->data);
  CHECK_EQ(ADDR(ov->data) % 64, 0);
  CHECK_ST(mvs_buffer_refcount(b, &refs), MVS_OK);
  CHECK_EQ(refs, 1);
}

static void test_copy_contiguous(void) {
  double s[12];
  mvs_slice t, ov;
  mvs_buffer *b;
  iota(s, 12, 0);

  /* from m.T, m = arange(12.).reshape(3, 4) */
  t = mkv(s, 2, "4 3", "8 32");
  SENT(b);
  SENT(ov);
  if (CHECK_ST(mvs_copy_contiguous(&t, 2, 8, 'C', &b, &ov), MVS_OK)) {
    CHECK_VIEW(&ov, 2, ov.data, "4 3", "24 8");
    check_new_buffer(b, &ov, 96);
    CHECK_ARR(ov.data, 12, "0 4 8 1 5 9 2 6 10 3 7 11");
    mvs_buffer_release(b);
  }
  SENT(b);
  SENT(ov);
  if (CHECK_ST(mvs_copy_contiguous(&t, 2, 8, 'F', &b, &ov), MVS_OK)) {
    CHECK_VIEW(&ov, 2, ov.data, "4 3", "8 32");
    check_new_buffer(b, &ov, 96);
    CHECK_ARR(ov.data, 12, "0 1 2 3 4 5 6 7 8 9 10 11");
    mvs_buffer_release(b);
  }
  CHECK(is_iota(s, 12));

  /* from a reversed, strided 3-d view: s.reshape(2, 3, 2)[::-1, ::2, :] in both orders */
  t = mkv(s + 6, 3, "2 2 2", "-48 32 8");
  if (CHECK_ST(mvs_copy_contiguous(&t, 3, 8, 'C', &b, &ov), MVS_OK)) {
    CHECK_VIEW(&ov, 3, ov.data, "2 2 2", "32 16 8");
    check_new_buffer(b, &ov, 64);
    CHECK_ARR(ov.data, 8, "6 7 10 11 0 1 4 5");
    mvs_buffer_release(b);
  }
  if (CHECK_ST(mvs_copy_contiguous(&t, 3, 8, 'F', &b, &ov), MVS_OK)) {
    CHECK_VIEW(&ov, 3, ov.data, "2 2 2", "8 16 32");
    check_new_buffer(b, &ov, 64);
    CHECK_ARR(ov.data, 8, "6 0 10 4 7 1 11 5");
    mvs_buffer_release(b);
  }

  /* a broadcast source is materialized */
  t = mkv(s + 1, 2, "3 2", "0 8");
  if (CHECK_ST(mvs_copy_contiguous(&t, 2, 8, 'C', &b, &ov), MVS_OK)) {
    CHECK_VIEW(&ov, 2, ov.data, "3 2", "16 8");
    check_new_buffer(b, &ov, 48);
    CHECK_ARR(ov.data, 6, "1 2 1 2 1 2");
    mvs_buffer_release(b);
  }

  /* 0-d: one item */
  t = mkv(s + 5, 0, "", "");
  if (CHECK_ST(mvs_copy_contiguous(&t, 0, 8, 'F', &b, &ov), MVS_OK)) {
    CHECK_VIEW(&ov, 0, ov.data, "", "");
    check_new_buffer(b, &ov, 8);
    CHECK_ARR(ov.data, 1, "5");
    mvs_buffer_release(b);
  }

  /* zero-size: no bytes; zero extents count as 1 in the strides, as in NumPy */
  t = mkv(s, 2, "0 3", "24 8");
  if (CHECK_ST(mvs_copy_contiguous(&t, 2, 8, 'C', &b, &ov), MVS_OK)) {
    CHECK_VIEW(&ov, 2, ov.data, "0 3", "24 8");
    check_new_buffer(b, &ov, 0);
    mvs_buffer_release(b);
  }
  if (CHECK_ST(mvs_copy_contiguous(&t, 2, 8, 'F', &b, &ov), MVS_OK)) {
    CHECK_VIEW(&ov, 2, ov.data, "0 3", "8 8");
    check_new_buffer(b, &ov, 0);
    mvs_buffer_release(b);
  }

  /* 3-byte items, reversed: bytes "abcdefghijkl"[::-1 item] */
  {
    const char text[13] = "abcdefghijkl";
    t = mkv(text + 9, 1, "4", "-3");
    if (CHECK_ST(mvs_copy_contiguous(&t, 1, 3, 'C', &b, &ov), MVS_OK)) {
      CHECK_VIEW(&ov, 1, ov.data, "4", "3");
      check_new_buffer(b, &ov, 12);
      CHECK_BYTES(ov.data, "jklghidefabc", 12, "copy_contiguous of 3-byte items");
      mvs_buffer_release(b);
    }
  }
}

/* ---- guard pages --------------------------------------------------------------------------- */

/* The layout of a view: extents and strides (in units given by the case). */
typedef struct {
  int ndim;
  ptrdiff_t shape[MVS_MAX_DIMS], strides[MVS_MAX_DIMS];
} lay;

static size_t g_page;

typedef struct {
  unsigned char *map;
  size_t len;
} gmap;

/* n > 0 bytes in their own mapping between two PROT_NONE pages, flush against the lower
 * guard (at_end 0) or the upper one (at_end 1). */
static unsigned char *guarded(gmap *m, size_t n, int at_end) {
  size_t pages = (n + g_page - 1) / g_page;
  void *p;
  if (pages == 0) pages = 1;
  m->len = (pages + 2) * g_page;
  p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    perror("mmap");
    exit(2);
  }
  m->map = (unsigned char *)p;
  if (mprotect(m->map, g_page, PROT_NONE) != 0 || mprotect(m->map + (pages + 1) * g_page, g_page, PROT_NONE) != 0) {
    perror("mprotect");
    exit(2);
  }
  return at_end ? m->map + (pages + 1) * g_page - n : m->map + g_page;
}

static void unguard(gmap *m) { munmap(m->map, m->len); }

static void scribble(unsigned char *p, size_t n, unsigned seed) {
  size_t i;
  unsigned x = seed * 2654435761u + 12345u;
  for (i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    p[i] = (unsigned char)(x >> 16);
  }
}

/* The layout with strides in bytes. */
static lay in_bytes(const lay *l, ptrdiff_t unit) {
  lay b = *l;
  int i;
  for (i = 0; i < l->ndim; i++) b.strides[i] = l->strides[i] * unit;
  return b;
}

/* [lo, hi): the bytes a (non-empty) layout's items cover, as offsets from its first item. */
static void lay_extent(const lay *l, ptrdiff_t k, ptrdiff_t *lo, ptrdiff_t *hi) {
  int i;
  *lo = 0;
  *hi = k;
  for (i = 0; i < l->ndim; i++) {
    ptrdiff_t e = (l->shape[i] - 1) * l->strides[i];
    if (e < 0)
      *lo += e;
    else
      *hi += e;
  }
}

static ptrdiff_t lay_items(const lay *l) {
  ptrdiff_t n = 1;
  int i;
  for (i = 0; i < l->ndim; i++) n *= l->shape[i];
  return n;
}

static mvs_slice lay_view(unsigned char *data, const lay *l) {
  mvs_slice v = hand_view(data, l->ndim, l->shape, l->strides);
  garble_tail(&v, l->ndim);
  return v;
}

/* Advances idx over shape, the last axis fastest (C) or the first (F); 0 after the last. */
static int next_idx(ptrdiff_t *idx, const ptrdiff_t *shape, int ndim, int order) {
  int j;
  for (j = 0; j < ndim; j++) {
    int i = order == 'C' ? ndim - 1 - j : j;
    if (++idx[i] < shape[i]) return 1;
    idx[i] = 0;
  }
  return 0;
}

static ptrdiff_t offset_of(const ptrdiff_t *idx, const lay *l) {
  ptrdiff_t off = 0;
  int i;
  for (i = 0; i < l->ndim; i++) off += idx[i] * l->strides[i];
  return off;
}

/* The reference copy: every item of dst from src (read at `src`, a snapshot), broadcast as
 * numpy does. Layouts in bytes. */
static void ref_copy(unsigned char *dst, const lay *d, const unsigned char *src, const lay *s, size_t k) {
  ptrdiff_t idx[MVS_MAX_DIMS] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (lay_items(d) == 0) return;
  do {
    ptrdiff_t soff = 0;
    int j;
    for (j = 0; j < s->ndim; j++) {
      int a = j + d->ndim - s->ndim;
      ptrdiff_t ix = (a < 0 || s->shape[j] == 1) ? 0 : idx[a];
      soff += ix * s->strides[j];
    }
    memcpy(dst + offset_of(idx, d), src + soff, k);
  } while (next_idx(idx, d->shape, d->ndim, 'C'));
}

static void ref_fill(unsigned char *dst, const lay *d, const unsigned char *item, size_t k) {
  ptrdiff_t idx[MVS_MAX_DIMS] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (lay_items(d) == 0) return;
  do {
    memcpy(dst + offset_of(idx, d), item, k);
  } while (next_idx(idx, d->shape, d->ndim, 'C'));
}

/* The items of src in `order`, one after the other. */
static void ref_gather(unsigned char *out, const unsigned char *src, const lay *s, size_t k, int order) {
  ptrdiff_t idx[MVS_MAX_DIMS] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (lay_items(s) == 0) return;
  do {
    memcpy(out, src + offset_of(idx, s), k);
    out += k;
  } while (next_idx(idx, s->shape, s->ndim, order));
}

/* mvs_copy_contiguous of the view `sv` (layout s in bytes, its first item at `snap` in a
 * snapshot) in both orders, against ref_gather. */
static void guard_copy_contiguous(const mvs_slice *sv, const lay *s, const unsigned char *snap, ptrdiff_t k,
                                  const char *name) {
  static const int orders[2] = {'C', 'F'};
  ptrdiff_t n = lay_items(s) * k, strides[MVS_MAX_DIMS] = {0, 0, 0, 0, 0, 0, 0, 0};
  unsigned char *want = (unsigned char *)malloc((size_t)n);
  char what[200];
  int o, i;
  for (o = 0; o < 2; o++) {
    mvs_buffer *b;
    mvs_slice ov;
    ptrdiff_t st = k;
    for (i = 0; i < s->ndim; i++) {
      int a = orders[o] == 'C' ? s->ndim - 1 - i : i;
      strides[a] = st;
      st *= s->shape[a] > 0 ? s->shape[a] : 1;
    }
    ref_gather(want, snap, s, (size_t)k, orders[o]);
    snprintf(what, sizeof what, "%s: copy_contiguous '%c'", name, orders[o]);
    SENT(b);
    SENT(ov);
    if (!CHECK_ST(mvs_copy_contiguous(sv, s->ndim, k, orders[o], &b, &ov), MVS_OK)) {
      fprintf(stderr, "    (%s)\n", what);
      continue;
    }
    CHECK_VIEW_ARR(&ov, s->ndim, ov.data, s->shape, strides);
    check_new_buffer(b, &ov, n);
    CHECK_BYTES(ov.data, want, n, what);
    mvs_buffer_release(b);
  }
  free(want);
}

/* mvs_fill of dst (layout d in bytes, first item at `data`) in the mapped bytes [R, R + rn),
 * with an item flush against a guard page and with dst's lowest and highest addressed items;
 * every byte of the region is compared. */
static void guard_fills(const mvs_slice *dv, const lay *d, unsigned char *data, unsigned char *R, size_t rn,
                        ptrdiff_t k, int item_at_end, const char *name) {
  unsigned char *want = (unsigned char *)malloc(rn), itemcopy[16];
  char what[200];
  gmap gi;
  unsigned char *it = guarded(&gi, (size_t)k, item_at_end);
  ptrdiff_t dlo, dhi;
  int w;
  lay_extent(d, k, &dlo, &dhi);
  scribble(it, (size_t)k, 77);
  memcpy(want, R, rn);
  ref_fill(want + (data - R), d, it, (size_t)k);
  snprintf(what, sizeof what, "%s: fill", name);
  if (!CHECK_ST(mvs_fill(dv, d->ndim, k, it), MVS_OK)) fprintf(stderr, "    (%s)\n", what);
  CHECK_BYTES(R, want, rn, what);
  unguard(&gi);
  for (w = 0; w < 2; w++) {
    unsigned char *ip = w ? data + dhi - k : data + dlo;
    scribble(R, rn, 200 + (unsigned)w);
    memcpy(itemcopy, ip, (size_t)k);
    memcpy(want, R, rn);
    ref_fill(want + (data - R), d, itemcopy, (size_t)k);
    snprintf(what, sizeof what, "%s: fill with its %s item", name, w ? "highest" : "lowest");
    if (!CHECK_ST(mvs_fill(dv, d->ndim, k, ip), MVS_OK)) fprintf(stderr, "    (%s)\n", what);
    CHECK_BYTES(R, want, rn, what);
  }
  free(want);
}

/* Two views in separate mappings. Strides in units of `unit` bytes. fill_only: dst may
 * repeat items (stride 0), so only mvs_fill applies to it. */
typedef struct {
  const char *name;
  ptrdiff_t k, unit;
  int fill_only;
  lay src, dst;
} xcase;

static const xcase XCASES[] = {
    {"C 3x4, itemsize 8", 8, 8, 0, {2, {3, 4}, {4, 1}}, {2, {3, 4}, {4, 1}}},
    {"rows reversed into F, itemsize 3", 3, 3, 0, {2, {4, 5}, {-5, 1}}, {2, {4, 5}, {1, 4}}},
    {"both reversed with a gap into F, itemsize 12", 12, 12, 0, {2, {3, 4}, {-8, -1}}, {2, {3, 4}, {1, 3}}},
    {"reversed, itemsize 16", 16, 16, 0, {1, {5}, {-2}}, {1, {5}, {1}}},
    {"F into reversed C, itemsize 1", 1, 1, 0, {2, {7, 3}, {1, 7}}, {2, {7, 3}, {-3, -1}}},
    {"row broadcast into reversed rows, itemsize 2", 2, 2, 0, {2, {1, 4}, {0, 1}}, {2, {3, 4}, {-4, 1}}},
    {"1-d into 3-d F, itemsize 4", 4, 4, 0, {1, {4}, {1}}, {3, {2, 3, 4}, {1, 2, 6}}},
    {"0-d, itemsize 12", 12, 12, 0, {0, {0}, {0}}, {0, {0}, {0}}},
    {"0-d into 2x3, itemsize 16", 16, 16, 0, {0, {0}, {0}}, {2, {2, 3}, {3, 1}}},
    {"transposed 3-d into reversed C, itemsize 3", 3, 3, 0, {3, {2, 3, 4}, {1, 2, 6}}, {3, {2, 3, 4}, {-12, -4, -1}}},
    {"stride-0 source, itemsize 8", 8, 8, 0, {2, {4, 3}, {0, 1}}, {2, {4, 3}, {3, 1}}},
    {"gaps into reversed, itemsize 5", 5, 5, 0, {1, {6}, {2}}, {1, {6}, {-1}}},
    {"column broadcast, odd stride on extent 1, itemsize 2", 2, 2, 0, {2, {4, 1}, {1, 999}}, {2, {4, 3}, {3, 1}}},
    {"(1,1,3) into (2,3), itemsize 8", 8, 8, 0, {3, {1, 1, 3}, {0, 0, 1}}, {2, {2, 3}, {-3, 1}}},
    {"items 4 bytes apart, itemsize 3", 3, 1, 0, {1, {6}, {4}}, {1, {6}, {-7}}},
    {"8-d C into F, itemsize 2", 2, 2, 0,
     {8, {2, 1, 2, 1, 2, 1, 2, 2}, {16, 16, 8, 8, 4, 4, 2, 1}},
     {8, {2, 1, 2, 1, 2, 1, 2, 2}, {1, 2, 2, 4, 4, 8, 8, 16}}},
    {"fill of a stride-0 view, itemsize 3", 3, 3, 1, {1, {1}, {1}}, {2, {4, 3}, {0, 1}}},
    {"fill of a stride-0 view, itemsize 16", 16, 16, 1, {1, {1}, {1}}, {2, {3, 4}, {1, 0}}},
};

static void guard_disjoint(const xcase *c) {
  lay s = in_bytes(&c->src, c->unit), d = in_bytes(&c->dst, c->unit);
  ptrdiff_t slo, shi, dlo, dhi, k = c->k;
  int p;
  char what[200];
  lay_extent(&s, k, &slo, &shi);
  lay_extent(&d, k, &dlo, &dhi);
  for (p = 0; p < 4; p++) {
    int s_end = p & 1, d_end = (p >> 1) & 1;
    size_t sn = (size_t)(shi - slo), dn = (size_t)(dhi - dlo);
    gmap gs, gd;
    unsigned char *S = guarded(&gs, sn, s_end), *D = guarded(&gd, dn, d_end);
    unsigned char *snap = (unsigned char *)malloc(sn), *want = (unsigned char *)malloc(dn);
    mvs_slice sv = lay_view(S - slo, &s), dv = lay_view(D - dlo, &d);
    snprintf(what, sizeof what, "%s (src at the %s guard, dst at the %s guard)", c->name,
             s_end ? "upper" : "lower", d_end ? "upper" : "lower");
    scribble(S, sn, 1 + (unsigned)p);
    scribble(D, dn, 101 + (unsigned)p);
    memcpy(snap, S, sn);
    if (!c->fill_only) {
      memcpy(want, D, dn);
      ref_copy(want - dlo, &d, snap - slo, &s, (size_t)k);
      if (!CHECK_ST(mvs_copy(&sv, s.ndim, &dv, d.ndim, k), MVS_OK)) fprintf(stderr, "    (%s)\n", what);
      CHECK_BYTES(D, want, dn, what);
      CHECK_BYTES(S, snap, sn, what);
      guard_copy_contiguous(&sv, &s, snap - slo, k, what);
      CHECK_BYTES(S, snap, sn, what);
    }
    guard_fills(&dv, &d, D - dlo, D, dn, k, !d_end, what);
    free(snap);
    free(want);
    unguard(&gs);
    unguard(&gd);
  }
}

/* Two views in one mapping: their first items at soff and doff (in units); the mapping is
 * the union of their bytes, flush against a guard at each end in turn. */
typedef struct {
  const char *name;
  ptrdiff_t k, unit, soff;
  lay src;
  ptrdiff_t doff;
  lay dst;
} ocase;

static const ocase OCASES[] = {
    {"a[0::2] = a[0:4], itemsize 8", 8, 8, 0, {1, {4}, {1}}, 0, {1, {4}, {2}}},
    {"a[0:4] = a[0::2], itemsize 8", 8, 8, 0, {1, {4}, {2}}, 0, {1, {4}, {1}}},
    {"a[...] = a[::-1], itemsize 3", 3, 3, 9, {1, {10}, {-1}}, 0, {1, {10}, {1}}},
    {"m[...] = m.T, itemsize 12", 12, 12, 0, {2, {4, 4}, {1, 4}}, 0, {2, {4, 4}, {4, 1}}},
    {"a[2::2] = a[:-2:2], itemsize 16", 16, 16, 0, {1, {4}, {2}}, 2, {1, {4}, {2}}},
    {"a[:-2:2] = a[2::2], itemsize 16", 16, 16, 2, {1, {4}, {2}}, 0, {1, {4}, {2}}},
    {"a[1:] = a[:-1], itemsize 3", 3, 3, 0, {1, {7}, {1}}, 1, {1, {7}, {1}}},
    {"a[:-1] = a[1:], itemsize 3", 3, 3, 1, {1, {7}, {1}}, 0, {1, {7}, {1}}},
    {"m[:0:-1, ::-1] = m[:-1], itemsize 12", 12, 12, 0, {2, {3, 3}, {3, 1}}, 11, {2, {3, 3}, {-3, -1}}},
    {"m[...] = m[3], itemsize 4", 4, 4, 9, {1, {3}, {1}}, 0, {2, {4, 3}, {3, 1}}},
    {"m[...] = m[:, 2:3], itemsize 4", 4, 4, 2, {2, {4, 1}, {3, 1}}, 0, {2, {4, 3}, {3, 1}}},
    {"identical views, itemsize 3", 3, 3, 0, {2, {4, 5}, {5, 1}}, 0, {2, {4, 5}, {5, 1}}},
    {"transposed, shifted, itemsize 1", 1, 1, 3, {2, {4, 4}, {1, 5}}, 0, {2, {4, 4}, {5, 1}}},
    {"m[...] = m[::-1, ::-1, ::-1], itemsize 2", 2, 2, 23, {3, {2, 3, 4}, {-12, -4, -1}}, 0, {3, {2, 3, 4}, {12, 4, 1}}},
    {"source items overlapping each other, itemsize 3", 3, 1, 0, {1, {5}, {2}}, 4, {1, {5}, {3}}},
    {"0-d onto itself, itemsize 16", 16, 16, 0, {0, {0}, {0}}, 0, {0, {0}, {0}}},
    {"m[1:, :2] = m[:-1, :2], itemsize 8", 8, 8, 0, {2, {3, 2}, {3, 1}}, 3, {2, {3, 2}, {3, 1}}},
};

static void guard_overlap(const ocase *c) {
  lay s = in_bytes(&c->src, c->unit), d = in_bytes(&c->dst, c->unit);
  ptrdiff_t slo, shi, dlo, dhi, lo, hi, k = c->k, soff = c->soff * c->unit, doff = c->doff * c->unit;
  int p;
  char what[200];
  lay_extent(&s, k, &slo, &shi);
  lay_extent(&d, k, &dlo, &dhi);
  lo = soff + slo < doff + dlo ? soff + slo : doff + dlo;
  hi = soff + shi > doff + dhi ? soff + shi : doff + dhi;
  for (p = 0; p < 2; p++) {
    size_t n = (size_t)(hi - lo);
    gmap g;
    unsigned char *R = guarded(&g, n, p);
    unsigned char *snap = (unsigned char *)malloc(n), *want = (unsigned char *)malloc(n);
    unsigned char *sdata = R + (soff - lo), *ddata = R + (doff - lo);
    mvs_slice sv = lay_view(sdata, &s), dv = lay_view(ddata, &d);
    snprintf(what, sizeof what, "%s (at the %s guard)", c->name, p ? "upper" : "lower");
    scribble(R, n, 31 + (unsigned)p);
    memcpy(snap, R, n);
    memcpy(want, R, n);
    ref_copy(want + (doff - lo), &d, snap + (soff - lo), &s, (size_t)k);
    if (!CHECK_ST(mvs_copy(&sv, s.ndim, &dv, d.ndim, k), MVS_OK)) fprintf(stderr, "    (%s)\n", what);
    CHECK_BYTES(R, want, n, what);
    /* the contiguous copy of the source, from the original bytes */
    memcpy(R, snap, n);
    guard_copy_contiguous(&sv, &s, snap + (soff - lo), k, what);
    CHECK_BYTES(R, snap, n, what);
    /* fills of dst, the whole region compared */
    guard_fills(&dv, &d, ddata, R, n, k, !p, what);
    free(snap);
    free(want);
    unguard(&g);
  }
}

static void test_guard_pages(void) {
  size_t i;
  long ps = sysconf(_SC_PAGESIZE);
  g_page = ps > 0 ? (size_t)ps : 4096;
  for (i = 0; i < sizeof XCASES / sizeof XCASES[0]; i++) guard_disjoint(&XCASES[i]);
  for (i = 0; i < sizeof OCASES / sizeof OCASES[0]; i++) guard_overlap(&OCASES[i]);
  /* a view as large as the mapping, both ends flush: 2 pages of 8-byte items, reversed */
  {
    size_t n = 2 * g_page;
    ptrdiff_t items = (ptrdiff_t)(n / 8);
    gmap gs, gd;
    unsigned char *S = guarded(&gs, n, 0), *D = guarded(&gd, n, 1);
    unsigned char *want = (unsigned char *)malloc(n);
    ptrdiff_t st = -8;
    mvs_slice sv, dv;
    scribble(S, n, 5);
    sv = hand_view(S + n - 8, 1, &items, &st);
    st = 8;
    dv = hand_view(D, 1, &items, &st);
    for (i = 0; i < n / 8; i++) memcpy(want + 8 * i, S + n - 8 - 8 * i, 8);
    CHECK_ST(mvs_copy(&sv, 1, &dv, 1, 8), MVS_OK);
    CHECK_BYTES(D, want, n, "two pages, reversed");
    free(want);
    unguard(&gs);
    unguard(&gd);
  }
}

/* dst = src.T of `rows` x `cols` items of `k` bytes, the destination `off` bytes past a 32-byte
   boundary and the source `off` bytes past one; every item compared with the source's, the
   bytes around the destination's items checked untouched. */
static void large_transpose(ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t k, ptrdiff_t off) {
  const ptrdiff_t n = rows * cols, nbytes = n * k;
  unsigned char *sbase = (unsigned char *)aligned_alloc(32, (size_t)((nbytes + off + 31) / 32 * 32));
  unsigned char *dbase = (unsigned char *)malloc((size_t)(nbytes + off + 64)), *dend;
  /* dst at `off` bytes past a 32-byte boundary, its items the allocation's end */
  unsigned char *dstart = dbase + (32 - (uintptr_t)dbase % 32) % 32 + off;
  unsigned char *src = sbase + off, *dst = dstart;
  CHECK(sbase && dbase);
  dend = dstart + nbytes;
  memset(dbase, 0xA5, (size_t)(nbytes + off + 64));
  for (ptrdiff_t b = 0; b < nbytes; b++) src[b] = (unsigned char)(b * 0x9E3779B1u >> 13);
  ptrdiff_t shape[2] = {rows, cols}, sstrides[2] = {k, rows * k}, dstrides[2] = {cols * k, k};
  mvs_slice sv, dv;
  CHECK(mvs_view_strided(src, k, 2, shape, sstrides, &sv) == MVS_OK);
  CHECK(mvs_view_strided(dst, k, 2, shape, dstrides, &dv) == MVS_OK);
  CHECK(mvs_copy(&sv, 2, &dv, 2, k) == MVS_OK);
  ptrdiff_t wrong = 0;
  for (ptrdiff_t i = 0; i < rows; i++)
    for (ptrdiff_t j = 0; j < cols; j++) wrong += memcmp(dst + (i * cols + j) * k, src + (j * rows + i) * k, (size_t)k) != 0;
  if (!CHECK(wrong == 0)) fprintf(stderr, "    %td x %td, %td-byte items, offset %td\n", rows, cols, k, off);
  ptrdiff_t touched = 0;
  for (unsigned char *p = dbase; p < dstart; p++) touched += *p != 0xA5;
  for (unsigned char *p = dend; p < dbase + nbytes + off + 64; p++) touched += *p != 0xA5;
  CHECK(touched == 0);
  free(sbase);
  free(dbase);
}

/* dst = src.T for items of 1, 2, 4, 8 and 16 bytes, large enough to be tiled: odd sizes (edge
   tiles, and the x86-64 kernels' AVX2 and SSE2 blocks and the items at their edges), each side
   at every 8-byte offset from a 32-byte boundary and an odd one (aligned and unaligned
   stores, the narrower first tile of each row), rows of either side a multiple of 512 bytes
   apart (the tiles staged through buffers), and destinations over 12 MiB whose rows are whole
   cache lines (the blocks' stores stream). */
static void test_large_transposes(void) {
  static const ptrdiff_t sizes[] = {1, 2, 4, 8, 16};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    ptrdiff_t k = sizes[i], lines = 4096 / k, streamed = (12 << 20) / 4096 + 3;
    for (ptrdiff_t off = 0; off < 32; off += 8) large_transpose(1031, 1029, k, off);
    large_transpose(70, 45, k, 3);
    large_transpose(517, 1024 / k, k, 8); /* rows a multiple of 512 bytes apart: staged */
    large_transpose(1024 / k, 301, k, 24);
    large_transpose(2048 / k, 1536 / k, k, 5);
    large_transpose(streamed, lines, k, 0);
    large_transpose(streamed - 2, lines, k, 16);
    large_transpose(4096, lines, k, 16); /* the source's rows 4096 items apart: staged, streamed */
  }
  large_transpose(1500, 1447, 8, 8);
}

int main(void) {
  test_large_transposes();
  test_copy_errors();
  test_fill_errors();
  test_copy_contiguous_errors();
  test_edge_extent();
  test_copy_basic();
  test_copy_broadcast();
  test_copy_0d_and_empty();
  test_copy_overlap();
  test_fill_sizes();
  test_fill_aliasing();
  test_copy_contiguous();
  test_guard_pages();
  return check_summary("test_copy");
}
