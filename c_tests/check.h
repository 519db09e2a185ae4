/*
 * Tiny check framework shared by the C tests (each c_tests/NAME.c is its own program, so
 * everything here is static inline). Compiles as C11 and as C++17.
 *
 * Every CHECK_* macro counts one check, prints file:line and the values on failure, and
 * evaluates to 1 (pass) or 0 (fail). A test program ends with `return check_summary("name");`,
 * which prints one line and returns non-zero when any check failed.
 */
#ifndef MVS_C_TESTS_CHECK_H
#define MVS_C_TESTS_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memviewslice.h"

/* An address as an integer, for results of arithmetic on fake (e.g. NULL-based) pointers. */
#define ADDR(p) ((uintptr_t)(const void *)(p))

static int g_checks = 0;
static int g_failures = 0;
/* Bit k set: a check expected (and got) status k. test_errors.c checks it covers 1..14. */
static unsigned long g_statuses_seen = 0;

/* ---- basic checks ------------------------------------------------------------------------ */

static inline int check_true_(int ok, const char *file, int line, const char *expr) {
  g_checks++;
  if (!ok) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, expr);
  }
  return ok;
}

static inline int check_int_(long long got, long long want, const char *file, int line,
                             const char *egot, const char *ewant) {
  g_checks++;
  if (got != want) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: %s == %s: got %lld, want %lld\n", file, line, egot, ewant,
            got, want);
    return 0;
  }
  return 1;
}

static inline int check_ptr_(const void *got, const void *want, const char *file, int line,
                             const char *egot, const char *ewant) {
  g_checks++;
  if (got != want) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: %s == %s: got %p, want %p (diff %lld bytes)\n", file, line,
            egot, ewant, got, want, (long long)(ADDR(got) - ADDR(want)));
    return 0;
  }
  return 1;
}

static inline int check_str_(const char *got, const char *want, const char *file, int line,
                             const char *egot) {
  g_checks++;
  if (got == NULL || strcmp(got, want) != 0) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: %s: got \"%s\", want \"%s\"\n", file, line, egot,
            got ? got : "(null)", want);
    return 0;
  }
  return 1;
}

#define CHECK(cond) check_true_((cond) ? 1 : 0, __FILE__, __LINE__, #cond)
#define CHECK_EQ(got, want) \
  check_int_((long long)(got), (long long)(want), __FILE__, __LINE__, #got, #want)
#define CHECK_PTR(got, want) \
  check_ptr_((const void *)(got), (const void *)(want), __FILE__, __LINE__, #got, #want)
#define CHECK_STR(got, want) check_str_((got), (want), __FILE__, __LINE__, #got)

/* ---- statuses and error messages --------------------------------------------------------- */

static inline const char *status_name(int s) {
  switch (s) {
    case MVS_OK: return "MVS_OK";
    case MVS_ERR_NULL: return "MVS_ERR_NULL";
    case MVS_ERR_NDIM: return "MVS_ERR_NDIM";
    case MVS_ERR_AXIS: return "MVS_ERR_AXIS";
    case MVS_ERR_ITEMSIZE: return "MVS_ERR_ITEMSIZE";
    case MVS_ERR_SHAPE: return "MVS_ERR_SHAPE";
    case MVS_ERR_INDEX: return "MVS_ERR_INDEX";
    case MVS_ERR_STEP: return "MVS_ERR_STEP";
    case MVS_ERR_OVERFLOW: return "MVS_ERR_OVERFLOW";
    case MVS_ERR_NEEDS_COPY: return "MVS_ERR_NEEDS_COPY";
    case MVS_ERR_INDIRECT: return "MVS_ERR_INDIRECT";
    case MVS_ERR_BOUNDS: return "MVS_ERR_BOUNDS";
    case MVS_ERR_BROADCAST: return "MVS_ERR_BROADCAST";
    case MVS_ERR_NOT_CONTIGUOUS: return "MVS_ERR_NOT_CONTIGUOUS";
    case MVS_ERR_VALUE: return "MVS_ERR_VALUE";
    case MVS_ERR_INTERNAL: return "MVS_ERR_INTERNAL";
    case MVS_ERR_ALLOC: return "MVS_ERR_ALLOC";
    case MVS_ERR_DEVICE: return "MVS_ERR_DEVICE";
    case MVS_ERR_DTYPE: return "MVS_ERR_DTYPE";
    case MVS_ERR_VERSION: return "MVS_ERR_VERSION";
    case MVS_ERR_OVERLAP: return "MVS_ERR_OVERLAP";
    case MVS_ERR_PRODUCER: return "MVS_ERR_PRODUCER";
    default: return "(unknown status)";
  }
}

static inline int check_status_(int got, int want, const char *file, int line,
                                const char *expr) {
  g_checks++;
  if (got != want) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: %s\n    returned %d (%s), want %d (%s); last error: \"%s\"\n",
            file, line, expr, got, status_name(got), want, status_name(want), mvs_last_error());
    return 0;
  }
  if (want > 0 && want < 64) g_statuses_seen |= 1UL << want;
  return 1;
}

/* Checks that the last error message is non-empty, not "no error", at most 255 bytes, and
 * contains `part` (pass "" to check only that it is a real message). */
static inline int check_msg_(const char *part, const char *file, int line) {
  const char *m = mvs_last_error();
  size_t n = m ? strlen(m) : 0;
  int ok = m != NULL && n > 0 && n <= 255 && strcmp(m, "no error") != 0 && strstr(m, part) != NULL;
  g_checks++;
  if (!ok) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: last error \"%s\" should mention \"%s\"\n", file, line,
            m ? m : "(null)", part);
  }
  return ok;
}

/* CHECK_ST(call, status): the call returns exactly `status`. */
#define CHECK_ST(call, want) check_status_((call), (want), __FILE__, __LINE__, #call)
/* CHECK_ERR(call, status, part): fails with `status`, and the message mentions `part`. */
static inline int check_err_(int got, int want, const char *part, const char *file, int line,
                             const char *expr) {
  return check_status_(got, want, file, line, expr) && check_msg_(part, file, line);
}
#define CHECK_ERR(call, want, part) check_err_((call), (want), (part), __FILE__, __LINE__, #call)
#define CHECK_MSG(part) check_msg_((part), __FILE__, __LINE__)

/* ---- sentinels: outputs are pre-filled with 0xAB and must stay so after a failure ----------- */

#define SENTINEL_BYTE 0xAB
#define SENT(x) memset((void *)&(x), SENTINEL_BYTE, sizeof(x))

static inline int is_sentinel_(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  size_t i;
  for (i = 0; i < n; i++)
    if (b[i] != SENTINEL_BYTE) return 0;
  return 1;
}

#define CHECK_UNTOUCHED(x) \
  check_true_(is_sentinel_((const void *)&(x), sizeof(x)), __FILE__, __LINE__, "output untouched: " #x)

/* ---- views ------------------------------------------------------------------------------- */

/* Parses up to `max` integers separated by spaces or commas; returns how many. */
static inline int parse_list_(const char *s, long long *out, int max) {
  int n = 0;
  char *end;
  while (s && *s) {
    long long v;
    while (*s == ' ' || *s == ',') s++;
    if (!*s) break;
    v = strtoll(s, &end, 10);
    if (end == s) break;
    if (n < max) out[n] = v;
    n++;
    s = end;
  }
  return n;
}

/* The view has `ndim` dims with `data`, shape and strides as listed, suboffsets as listed
 * (NULL: all -1), and entries past ndim are shape 0, stride 0, suboffset -1. */
static inline int check_view_(const mvs_slice *s, int ndim, const void *data, const char *shape,
                              const char *strides, const char *subs, const char *file, int line,
                              const char *expr) {
  long long sh[16], st[16], so[16];
  int nsh = parse_list_(shape, sh, 16), nst = parse_list_(strides, st, 16);
  int nso = subs ? parse_list_(subs, so, 16) : ndim;
  int i, ok = 1;
  char why[256] = "";
  if (nsh != ndim || nst != ndim || nso != ndim) {
    ok = 0;
    snprintf(why, sizeof why, "bad expectation: ndim %d but %d extents, %d strides, %d suboffsets",
             ndim, nsh, nst, nso);
  }
  if (ok && (const void *)s->data != data) {
    ok = 0;
    snprintf(why, sizeof why, "data %p, want %p (diff %lld bytes)", (void *)s->data, data,
             (long long)(ADDR(s->data) - ADDR(data)));
  }
  for (i = 0; ok && i < ndim; i++) {
    long long want_so = subs ? so[i] : -1;
    if (s->shape[i] != sh[i] || s->strides[i] != st[i] || s->suboffsets[i] != want_so) {
      ok = 0;
      snprintf(why, sizeof why, "axis %d: shape %td stride %td suboffset %td, want %lld %lld %lld",
               i, s->shape[i], s->strides[i], s->suboffsets[i], sh[i], st[i], want_so);
    }
  }
  for (i = ndim < 0 ? 0 : ndim; ok && i < MVS_MAX_DIMS; i++) {
    if (s->shape[i] != 0 || s->strides[i] != 0 || s->suboffsets[i] != -1) {
      ok = 0;
      snprintf(why, sizeof why, "entry %d past ndim: shape %td stride %td suboffset %td, want 0 0 -1",
               i, s->shape[i], s->strides[i], s->suboffsets[i]);
    }
  }
  g_checks++;
  if (!ok) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: view %s: %s\n", file, line, expr, why);
  }
  return ok;
}

#define CHECK_VIEW(s, ndim, data, shape, strides) \
  check_view_((s), (ndim), (const void *)(data), (shape), (strides), NULL, __FILE__, __LINE__, #s)
#define CHECK_VIEW_SUB(s, ndim, data, shape, strides, subs) \
  check_view_((s), (ndim), (const void *)(data), (shape), (strides), (subs), __FILE__, __LINE__, #s)

/* ---- views near the limits ---------------------------------------------------------------- */

/* base + off as an address, computed in uintptr_t (wrapping like the library's addresses), for
 * views whose offsets reach PTRDIFF_MAX: nothing is ever read there. */
static inline const void *addr_at(const void *base, ptrdiff_t off) {
  return (const void *)(ADDR(base) + (uintptr_t)off);
}

/* CHECK_VIEW with extents and strides given as arrays of ndim numbers (for values such as
 * PTRDIFF_MAX / 7 that are computed, not spelled out). */
static inline int check_view_arr_(const mvs_slice *s, int ndim, const void *data, const ptrdiff_t *shape,
                                  const ptrdiff_t *strides, const char *file, int line, const char *expr) {
  char sh[256] = "", st[256] = "";
  size_t a = 0, b = 0;
  int i;
  for (i = 0; i < ndim && i < MVS_MAX_DIMS; i++) {
    a += (size_t)snprintf(sh + a, sizeof sh - a, "%s%td", i ? " " : "", shape[i]);
    b += (size_t)snprintf(st + b, sizeof st - b, "%s%td", i ? " " : "", strides[i]);
  }
  return check_view_(s, ndim, data, sh, st, NULL, file, line, expr);
}
#define CHECK_VIEW_ARR(s, ndim, data, shape, strides) \
  check_view_arr_((s), (ndim), (const void *)(data), (shape), (strides), __FILE__, __LINE__, #s)

/* A 1-d view: data, extent and stride as numbers. */
static inline int check_view1_(const mvs_slice *s, const void *data, ptrdiff_t len, ptrdiff_t stride,
                               const char *file, int line, const char *expr) {
  return check_view_arr_(s, 1, data, &len, &stride, file, line, expr);
}
#define CHECK_VIEW1(s, data, len, stride) \
  check_view1_((s), (const void *)(data), (len), (stride), __FILE__, __LINE__, #s)

/* Memory regions the tests may read or write through views (guards against wild addresses
 * when a library result is wrong, so a failure is reported instead of crashing). */
static struct { const char *lo; size_t n; } g_regions[16];
static int g_nregions = 0;

static inline void region_add(const void *p, size_t n) {
  if (g_nregions < 16) {
    g_regions[g_nregions].lo = (const char *)p;
    g_regions[g_nregions].n = n;
    g_nregions++;
  }
}
static inline void regions_clear(void) { g_nregions = 0; }
static inline int in_region_(const void *p, size_t n) {
  int i;
  for (i = 0; i < g_nregions; i++) {
    uintptr_t lo = ADDR(g_regions[i].lo), a = ADDR(p);
    if (a >= lo && a - lo <= g_regions[i].n && n <= g_regions[i].n - (a - lo)) return 1;
  }
  return 0;
}

/* The address of the element at `idx`, computed by hand (PEP 3118, following suboffsets), or
 * NULL when an address falls outside the registered regions. */
static inline char *elem_addr_(const mvs_slice *s, int ndim, const ptrdiff_t *idx, size_t itemsize) {
  char *p = s->data;
  int i;
  for (i = 0; i < ndim; i++) {
    p = (char *)(ADDR(p) + (uintptr_t)idx[i] * (uintptr_t)s->strides[i]);
    if (s->suboffsets[i] >= 0) {
      char *q;
      if (!in_region_(p, sizeof(char *))) return NULL;
      memcpy(&q, p, sizeof q);
      p = (char *)(ADDR(q) + (uintptr_t)s->suboffsets[i]);
    }
  }
  return in_region_(p, itemsize) ? p : NULL;
}

/* Advances a C-order multi-index; returns 0 after the last. */
static inline int next_index_(ptrdiff_t *idx, const mvs_slice *s, int ndim) {
  int i;
  for (i = ndim - 1; i >= 0; i--) {
    if (++idx[i] < s->shape[i]) return 1;
    idx[i] = 0;
  }
  return 0;
}

static inline long long item_total_(const mvs_slice *s, int ndim) {
  long long n = 1;
  int i;
  for (i = 0; i < ndim; i++) {
    if (s->shape[i] < 0 || s->shape[i] > 10000) return -1;
    n *= s->shape[i];
    if (n > 10000) return -1;
  }
  return n;
}

/* Reads every element (doubles) in C order through hand-computed addresses, checks that
 * mvs_element_ptr agrees on each address, and compares with the expected values. */
static inline int check_elems_(const mvs_slice *s, int ndim, const char *expected,
                               const char *file, int line, const char *expr) {
  long long want[1024];
  int nwant = parse_list_(expected, want, 1024);
  long long total = item_total_(s, ndim);
  ptrdiff_t idx[MVS_MAX_DIMS] = {0, 0, 0, 0, 0, 0, 0, 0};
  char why[256] = "";
  int ok = 1, k = 0;
  if (ndim < 0 || ndim > MVS_MAX_DIMS || total < 0 || total != nwant) {
    ok = 0;
    snprintf(why, sizeof why, "view has %lld items (ndim %d), expected list has %d", total, ndim, nwant);
  }
  if (ok && total > 0) {
    do {
      char *p = elem_addr_(s, ndim, idx, sizeof(double));
      void *q = NULL;
      double v;
      int st = mvs_element_ptr(s, ndim, idx, &q);
      if (p == NULL) {
        ok = 0;
        snprintf(why, sizeof why, "item %d: address outside the buffers", k);
        break;
      }
      if (st != MVS_OK || q != (void *)p) {
        ok = 0;
        snprintf(why, sizeof why, "item %d: mvs_element_ptr returned %d, %p; by hand %p", k, st,
                 q, (void *)p);
        break;
      }
      memcpy(&v, p, sizeof v);
      if (v != (double)want[k]) {
        ok = 0;
        snprintf(why, sizeof why, "item %d: %g, want %lld", k, v, want[k]);
        break;
      }
      k++;
    } while (next_index_(idx, s, ndim));
  }
  g_checks++;
  if (!ok) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: elements of %s: %s\n", file, line, expr, why);
  }
  return ok;
}

#define CHECK_ELEMS(s, ndim, expected) \
  check_elems_((s), (ndim), (expected), __FILE__, __LINE__, #s)

/* Writes first, first + 1, ... (doubles) through the view in C order; returns the count, or
 * -1 when an address falls outside the registered regions. */
static inline long long fill_through(const mvs_slice *s, int ndim, double first) {
  ptrdiff_t idx[MVS_MAX_DIMS] = {0, 0, 0, 0, 0, 0, 0, 0};
  long long total = item_total_(s, ndim), k = 0;
  if (total <= 0) return total;
  do {
    char *p = elem_addr_(s, ndim, idx, sizeof(double));
    double v = first + (double)k;
    if (p == NULL) return -1;
    memcpy(p, &v, sizeof v);
    k++;
  } while (next_index_(idx, s, ndim));
  return k;
}

/* Gives the entries past `ndim` junk values, which every function must ignore. */
static inline void garble_tail(mvs_slice *s, int ndim) {
  int i;
  for (i = ndim; i < MVS_MAX_DIMS; i++) {
    s->shape[i] = -7;
    s->strides[i] = 12345;
    s->suboffsets[i] = 3;
  }
}

/* A view built by hand (no checks), for sizes and strides the constructors refuse. */
static inline mvs_slice hand_view(void *data, int ndim, const ptrdiff_t *shape, const ptrdiff_t *strides) {
  mvs_slice s;
  int i;
  memset(&s, 0, sizeof s);
  s.data = (char *)data;
  for (i = 0; i < MVS_MAX_DIMS; i++) s.suboffsets[i] = -1;
  for (i = 0; i < ndim; i++) {
    s.shape[i] = shape[i];
    s.strides[i] = strides[i];
  }
  return s;
}

static inline void iota(double *p, int n, double first) {
  int i;
  for (i = 0; i < n; i++) p[i] = first + i;
}

static inline int check_summary(const char *name) {
  printf("%s: %d checks, %d failed -> %s\n", name, g_checks, g_failures, g_failures ? "FAIL" : "ok");
  return g_failures ? 1 : 0;
}

#endif /* MVS_C_TESTS_CHECK_H */
