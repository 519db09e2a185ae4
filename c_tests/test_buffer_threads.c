/* mvs_buffer across threads (pthreads):
 * - 8 threads each do 1,000,000 retain/release pairs on buffers shared by all of them (two
 *   wrapped buffers, threads alternating between them); at the end each count is back to 1,
 *   no callback ran early, and the main thread's last release runs each callback once;
 * - hand-off: each of 8 threads gets one reference, the main thread drops its own at once,
 *   the threads churn and then release: the callback runs exactly once, on one of the
 *   workers (the one that dropped the last reference), after every worker's use of the memory.
 * MVS_TEST_PAIRS (environment) overrides the 1,000,000 (the valgrind run uses fewer: it
 * serializes threads and looks for leaks and invalid accesses, not races). */
#include "owner.h"

#define NTHREADS 8

static long g_pairs = 1000000;
static start_line g_start;

typedef struct {
  mvs_buffer *buffers[2];
  int index;
  long failures;
  counter *counters[2];
  long early; /* callbacks seen before the end */
  pthread_t self;
} job;

static void *churn(void *arg) {
  job *j = (job *)arg;
  long i;
  start_line_wait(&g_start, NTHREADS);
  for (i = 0; i < g_pairs; i++) {
    mvs_buffer *b = j->buffers[(i + j->index) & 1];
    if (mvs_buffer_retain(b) != MVS_OK) j->failures++;
    mvs_buffer_release(b);
  }
  if (calls_of(j->counters[0]) != 0 || calls_of(j->counters[1]) != 0) j->early++;
  return NULL;
}

static void test_shared_counts(void) {
  counter c[2];
  mvs_buffer *b[2];
  job jobs[NTHREADS];
  pthread_t t[NTHREADS];
  int k;
  memset(c, 0, sizeof c);
  memset(&g_start, 0, sizeof g_start);
  for (k = 0; k < 2; k++) {
    void *mem = malloc(64);
    c[k].expect = mem;
    c[k].free_data = 1;
    CHECK_ST(mvs_buffer_wrap(mem, 64, counting_dealloc, &c[k], 0, &b[k]), MVS_OK);
  }
  for (k = 0; k < NTHREADS; k++) {
    memset(&jobs[k], 0, sizeof jobs[k]);
    jobs[k].buffers[0] = b[0];
    jobs[k].buffers[1] = b[1];
    jobs[k].counters[0] = &c[0];
    jobs[k].counters[1] = &c[1];
    jobs[k].index = k;
    CHECK_EQ(pthread_create(&t[k], NULL, churn, &jobs[k]), 0);
  }
  for (k = 0; k < NTHREADS; k++) {
    CHECK_EQ(pthread_join(t[k], NULL), 0);
    CHECK_EQ(jobs[k].failures, 0);
    CHECK_EQ(jobs[k].early, 0);
  }
  for (k = 0; k < 2; k++) {
    CHECK_EQ(refs(b[k]), 1);
    CHECK_EQ(calls_of(&c[k]), 0);
    mvs_buffer_release(b[k]);
    CHECK_EQ(calls_of(&c[k]), 1);
    CHECK(!c[k].bad);
    CHECK(pthread_equal(c[k].thread, pthread_self()));
  }
}

/* Each worker owns one reference; it writes its slot of the memory, churns, and releases. */
typedef struct {
  mvs_buffer *buffer;
  int index;
  long failures;
  pthread_t self;
} owner_job;

static void *own_and_release(void *arg) {
  owner_job *j = (owner_job *)arg;
  long *mem = NULL;
  long i;
  j->self = pthread_self();
  start_line_wait(&g_start, NTHREADS);
  if (mvs_buffer_data(j->buffer, (void **)&mem) != MVS_OK) j->failures++;
  for (i = 0; i < g_pairs / 4; i++) {
    if (mvs_buffer_retain(j->buffer) != MVS_OK) j->failures++;
    mem[j->index] += 1; /* the memory is alive while we hold a reference */
    mvs_buffer_release(j->buffer);
  }
  mvs_buffer_release(j->buffer); /* this thread's reference: maybe the last */
  return NULL;
}

/* Checks the workers' writes, then frees: runs when the last reference goes. */
static long g_sum_at_free = -1;
static void summing_dealloc(void *data, void *ctx) {
  long *mem = (long *)data, sum = 0;
  int k;
  for (k = 0; k < NTHREADS; k++) sum += mem[k];
  g_sum_at_free = sum;
  counting_dealloc(data, ctx);
}

static void test_last_release_on_worker(void) {
  int round;
  for (round = 0; round < 4; round++) {
    counter c;
    mvs_buffer *b = NULL;
    owner_job jobs[NTHREADS];
    pthread_t t[NTHREADS];
    long *mem = (long *)calloc(NTHREADS, sizeof(long));
    int k, on_worker = 0;
    memset(&c, 0, sizeof c);
    c.expect = mem;
    c.free_data = 1;
    g_sum_at_free = -1;
    memset(&g_start, 0, sizeof g_start);
    CHECK_ST(mvs_buffer_wrap(mem, NTHREADS * (ptrdiff_t)sizeof(long), summing_dealloc, &c, 0, &b), MVS_OK);
    for (k = 0; k < NTHREADS; k++) {
      CHECK_ST(mvs_buffer_retain(b), MVS_OK); /* the worker's reference */
      jobs[k].buffer = b;
      jobs[k].index = k;
      jobs[k].failures = 0;
    }
    CHECK_EQ(refs(b), NTHREADS + 1);
    for (k = 0; k < NTHREADS; k++) CHECK_EQ(pthread_create(&t[k], NULL, own_and_release, &jobs[k]), 0);
    mvs_buffer_release(b); /* the main thread's reference; b may be gone from here on */
    for (k = 0; k < NTHREADS; k++) {
      CHECK_EQ(pthread_join(t[k], NULL), 0);
      CHECK_EQ(jobs[k].failures, 0);
    }
    CHECK_EQ(calls_of(&c), 1);
    CHECK(!c.bad);
    /* every worker's writes were visible to the thread that freed */
    CHECK_EQ(g_sum_at_free, NTHREADS * (g_pairs / 4));
    for (k = 0; k < NTHREADS; k++) on_worker += pthread_equal(c.thread, jobs[k].self) != 0;
    /* the main thread released first only if every worker was already done: rare but legal */
    CHECK(on_worker == 1 || pthread_equal(c.thread, pthread_self()));
  }
}

int main(void) {
  const char *env = getenv("MVS_TEST_PAIRS");
  if (env != NULL && atol(env) > 0) g_pairs = atol(env);
  test_shared_counts();
  test_last_release_on_worker();
  printf("test_buffer_threads: %d threads x %ld retain/release pairs\n", NTHREADS, g_pairs);
  return check_summary("test_buffer_threads");
}
