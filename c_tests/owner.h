/*
 * Helpers of the ownership tests (test_buffer*.c, test_pool.c, test_attach.c): a counting
 * deallocator, a check of a pool's counts, and ASan options. Compiles as C11 and as C++17.
 */
#ifndef MVS_C_TESTS_OWNER_H
#define MVS_C_TESTS_OWNER_H

#include <pthread.h>
#include <sched.h>

#include "check.h"

/* The allocation-failure tests ask for more memory than exists: under ASan the allocator must
 * return NULL instead of reporting an error (the library turns NULL into MVS_ERR_ALLOC). Read
 * by ASan only; harmless without it. */
#ifdef __cplusplus
extern "C"
#endif
    const char *
    __asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* Checks that the pool has `arrays` arrays, `acquired` of them handed out. */
static ptrdiff_t g_arrays, g_acquired;
static inline int counts(mvs_pool *p, ptrdiff_t arrays, ptrdiff_t acquired, int line) {
  int ok = mvs_pool_counts(p, &g_arrays, &g_acquired) == MVS_OK && g_arrays == arrays && g_acquired == acquired;
  g_checks++;
  if (!ok) {
    g_failures++;
    fprintf(stderr, "%s:%d: FAILED: pool counts %td arrays, %td acquired; want %td, %td\n", __FILE__, line,
            g_arrays, g_acquired, arrays, acquired);
  }
  return ok;
}
#define CHECK_COUNTS(p, arrays, acquired) counts((p), (arrays), (acquired), __LINE__)

/* The context of counting_dealloc: how often it ran, with which data, on which thread. */
typedef struct {
  long calls;       /* updated atomically */
  void *data;       /* the data pointer of the last call */
  void *expect;     /* the data pointer it must receive */
  int free_data;    /* call free(data) */
  int bad;          /* called with a data pointer other than `expect` */
  pthread_t thread; /* the thread of the last call */
} counter;

static inline void counting_dealloc(void *data, void *ctx) {
  counter *c = (counter *)ctx;
  if (data != c->expect) c->bad = 1;
  c->data = data;
  c->thread = pthread_self();
  __atomic_fetch_add(&c->calls, 1, __ATOMIC_SEQ_CST);
  if (c->free_data) free(data);
}

static inline long calls_of(counter *c) { return __atomic_load_n(&c->calls, __ATOMIC_SEQ_CST); }

/* The reference count of b (-1 on error). */
static inline ptrdiff_t refs(const mvs_buffer *b) {
  ptrdiff_t n = -1;
  if (mvs_buffer_refcount(b, &n) != MVS_OK) return -1;
  return n;
}

/* A start line for threads, so that they run at the same time: each calls start_line_wait,
 * which returns once `n` threads have arrived. */
typedef struct {
  int arrived;
} start_line;

static inline void start_line_wait(start_line *s, int n) {
  __atomic_fetch_add(&s->arrived, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&s->arrived, __ATOMIC_SEQ_CST) < n) sched_yield();
}

#endif /* MVS_C_TESTS_OWNER_H */
