/* Buffer attachments and memory references, mvs_buffer_view_at, mvs_pool_acquire_slab:
 * - attach/attached: one value per key (a second attach keeps and returns the first, whose
 *   refused value is never detached), keys coexist, absent keys give NULL, reference count
 *   unchanged, every NULL argument (MVS_ERR_NULL naming it, outputs untouched, nothing
 *   attached);
 * - detach: exactly once per attached value, only at the last mvs_buffer_release, before the
 *   memory is freed (an event clock, and the detach callback reading the memory under ASan);
 *   memory references keep the memory (and the dealloc callback waiting) past the last
 *   reference; the Cython pattern: an attached owner object holding a memory reference that
 *   it gives back from the detach callback, or later when its last user goes;
 * - 4 threads racing to attach under one key, each holding a reference and a memory reference
 *   for its candidate: all see the same value, exactly one wins, one detach, one dealloc after
 *   it; 4 threads attaching 32 keys each while looking up every key;
 * - mvs_buffer_view_at: offsets in C and F order, 0-d and zero-size views at the end, data,
 *   shapes, strides and elements computed by hand, every error with its message, read-only
 *   buffers refused only for writable views;
 * - mvs_pool_acquire_slab: layout mismatches (nothing acquired, outputs untouched), 'C' and
 *   'F' both accepted for 0-d and 1-d pools, each array inside its slab, the slabs of a grown
 *   pool distinct and sized as documented, a retained slab's memory valid and writable after
 *   mvs_pool_destroy and freed at its release (ASan/valgrind see use-after-free and leaks),
 *   attachments of slabs detached at the slab's last reference, the value attached under a
 *   key given to mvs_pool_acquire_slab read into the view's memview.
 * MVS_TEST_ATTACH_ROUNDS (environment) overrides the rounds of the same-key race. */
#include <limits.h>

#include "owner.h"

/* ---- counting callbacks, with an event clock -------------------------------------------------- */

static long g_clock = 0;
static long tick(void) { return __atomic_add_fetch(&g_clock, 1, __ATOMIC_SEQ_CST); }

/* An attached value that counts its detaches. */
typedef struct {
  long calls; /* atomic */
  long when;  /* the clock at the last detach */
} dval;

static void counting_detach(void *value) {
  dval *d = (dval *)value;
  d->when = tick();
  __atomic_fetch_add(&d->calls, 1, __ATOMIC_SEQ_CST);
}
static long detaches(dval *d) { return __atomic_load_n(&d->calls, __ATOMIC_SEQ_CST); }

/* counting_dealloc's context with the clock at the call (the counter comes first). */
typedef struct {
  counter c;
  long when;
} timed_counter;

static void timed_dealloc(void *data, void *ctx) {
  ((timed_counter *)ctx)->when = tick();
  counting_dealloc(data, ctx);
}

/* A wrapped malloc'd block of n bytes, freed by timed_dealloc. */
static mvs_buffer *wrap_counted(timed_counter *t, size_t n) {
  mvs_buffer *b = NULL;
  void *mem = malloc(n);
  memset(t, 0, sizeof *t);
  t->c.expect = mem;
  t->c.free_data = 1;
  if (!CHECK_ST(mvs_buffer_wrap(mem, (ptrdiff_t)n, timed_dealloc, t, 0, &b), MVS_OK)) {
    free(mem);
    return NULL;
  }
  return b;
}

/* Keys: addresses of distinct statics. */
static char g_key_a, g_key_b, g_key_c, g_key_d, g_key_absent;
#define KEY_A ((const void *)&g_key_a)
#define KEY_B ((const void *)&g_key_b)
#define KEY_C ((const void *)&g_key_c)
#define KEY_D ((const void *)&g_key_d)

/* ---- 1. attach / attached ----------------------------------------------------------------------- */

static void test_attach_semantics(void) {
  mvs_buffer *b = NULL;
  dval v1, v2, v3, loser, unused;
  void *got = NULL;
  memset(&v1, 0, sizeof v1);
  memset(&v2, 0, sizeof v2);
  memset(&v3, 0, sizeof v3);
  memset(&loser, 0, sizeof loser);
  memset(&unused, 0, sizeof unused);
  if (!CHECK_ST(mvs_buffer_alloc(64, 64, 0, &b), MVS_OK)) return;

  got = &unused; /* overwritten with NULL */
  CHECK_ST(mvs_buffer_attached(b, KEY_A, &got), MVS_OK);
  CHECK_PTR(got, NULL);

  got = NULL;
  CHECK_ST(mvs_buffer_attach(b, KEY_A, &v1, counting_detach, &got), MVS_OK);
  CHECK_PTR(got, &v1);
  /* the key is taken: the first value stays and is returned, with either detach */
  got = NULL;
  CHECK_ST(mvs_buffer_attach(b, KEY_A, &loser, counting_detach, &got), MVS_OK);
  CHECK_PTR(got, &v1);
  got = NULL;
  CHECK_ST(mvs_buffer_attach(b, KEY_A, &loser, NULL, &got), MVS_OK);
  CHECK_PTR(got, &v1);
  /* other keys coexist; a NULL detach is allowed */
  CHECK_ST(mvs_buffer_attach(b, KEY_B, &v2, counting_detach, &got), MVS_OK);
  CHECK_PTR(got, &v2);
  CHECK_ST(mvs_buffer_attach(b, KEY_C, &v3, NULL, &got), MVS_OK);
  CHECK_PTR(got, &v3);
  /* the same value under two keys: two attachments */
  CHECK_ST(mvs_buffer_attach(b, KEY_D, &v2, counting_detach, &got), MVS_OK);
  CHECK_PTR(got, &v2);

  CHECK_ST(mvs_buffer_attached(b, KEY_A, &got), MVS_OK);
  CHECK_PTR(got, &v1);
  CHECK_ST(mvs_buffer_attached(b, KEY_B, &got), MVS_OK);
  CHECK_PTR(got, &v2);
  CHECK_ST(mvs_buffer_attached(b, KEY_C, &got), MVS_OK);
  CHECK_PTR(got, &v3);
  CHECK_ST(mvs_buffer_attached(b, KEY_D, &got), MVS_OK);
  CHECK_PTR(got, &v2);
  got = &unused;
  CHECK_ST(mvs_buffer_attached(b, &g_key_absent, &got), MVS_OK);
  CHECK_PTR(got, NULL);
  got = &unused;
  CHECK_ST(mvs_buffer_attached(b, NULL, &got), MVS_OK); /* a NULL key is never attached */
  CHECK_PTR(got, NULL);
  /* found again from a view of the buffer */
  {
    mvs_slice v;
    mvs_buffer *from = NULL;
    ptrdiff_t n = 8;
    CHECK_ST(mvs_buffer_view(b, 8, 1, &n, 'C', &v), MVS_OK);
    CHECK_ST(mvs_buffer_of(&v, &from), MVS_OK);
    CHECK_ST(mvs_buffer_attached(from, KEY_A, &got), MVS_OK);
    CHECK_PTR(got, &v1);
  }
  CHECK_EQ(refs(b), 1); /* attachments take no reference */

  /* NULL arguments: MVS_ERR_NULL naming them, output untouched, nothing attached */
  SENT(got);
  CHECK_ERR(mvs_buffer_attach(NULL, &g_key_absent, &unused, counting_detach, &got), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_buffer_attach(b, NULL, &unused, counting_detach, &got), MVS_ERR_NULL, "`key`");
  CHECK_ERR(mvs_buffer_attach(b, &g_key_absent, NULL, counting_detach, &got), MVS_ERR_NULL, "`value`");
  CHECK_ERR(mvs_buffer_attach(b, &g_key_absent, &unused, counting_detach, NULL), MVS_ERR_NULL, "`out_value`");
  CHECK_ERR(mvs_buffer_attached(NULL, KEY_A, &got), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_buffer_attached(b, KEY_A, NULL), MVS_ERR_NULL, "`out`");
  CHECK_UNTOUCHED(got);
  got = &v1;
  CHECK_ST(mvs_buffer_attached(b, &g_key_absent, &got), MVS_OK);
  CHECK_PTR(got, NULL);
  CHECK_ERR(mvs_buffer_retain_memory(NULL), MVS_ERR_NULL, "`buffer`");
  mvs_buffer_release_memory(NULL); /* no-op */
  CHECK_EQ(refs(b), 1);

  CHECK_EQ(detaches(&v1) + detaches(&v2) + detaches(&v3), 0);
  mvs_buffer_release(b);
  CHECK_EQ(detaches(&v1), 1);
  CHECK_EQ(detaches(&v2), 2); /* under KEY_B and KEY_D */
  CHECK_EQ(detaches(&v3), 0); /* NULL detach */
  CHECK_EQ(detaches(&loser), 0); /* refused values stay the caller's */
  CHECK_EQ(detaches(&unused), 0);
}

/* ---- 2. when detach and dealloc run -------------------------------------------------------------- */

/* A binding's owner object (as the Cython layer's): attached to the buffer, owning a memory
 * reference; `users` counts the attachment and whoever else holds the owner. */
typedef struct {
  mvs_buffer *buffer;
  long users;
  long detached;      /* detach calls */
  long freed_memory;  /* memory references given back */
  long dealloc_calls; /* the buffer's dealloc calls seen when the memory reference was given back */
  timed_counter *tc;
} owner_obj;

static void owner_drop(owner_obj *o) {
  if (--o->users == 0) {
    o->dealloc_calls = o->tc ? calls_of(&o->tc->c) : -1;
    o->freed_memory++;
    mvs_buffer_release_memory(o->buffer); /* may free the memory, also from a detach callback */
  }
}
static void owner_detach(void *value) {
  owner_obj *o = (owner_obj *)value;
  o->detached++;
  owner_drop(o);
}

/* A detach callback that reads the memory and the buffer's queries (ASan: still allocated). */
typedef struct {
  mvs_buffer *buffer;
  long calls;
  long sum;           /* of the memory's bytes, read in the callback */
  ptrdiff_t size;     /* mvs_buffer_size in the callback */
  void *data;         /* mvs_buffer_data in the callback */
  void *found;        /* mvs_buffer_attached(KEY_A) in the callback */
} reader;

static void reading_detach(void *value) {
  reader *r = (reader *)value;
  unsigned char *p = NULL;
  ptrdiff_t i;
  r->calls++;
  r->size = -1;
  if (mvs_buffer_data(r->buffer, (void **)&p) != MVS_OK || mvs_buffer_size(r->buffer, &r->size) != MVS_OK) return;
  r->data = p;
  for (i = 0; i < r->size; i++) r->sum += p[i];
  mvs_buffer_attached(r->buffer, KEY_A, &r->found);
}

static void test_detach_timing(void) {
  /* detach once each, at the last reference, before the dealloc callback */
  {
    timed_counter t;
    dval a, c;
    void *got;
    mvs_buffer *b = wrap_counted(&t, 64);
    memset(&a, 0, sizeof a);
    memset(&c, 0, sizeof c);
    if (b != NULL) {
      CHECK_ST(mvs_buffer_attach(b, KEY_A, &a, counting_detach, &got), MVS_OK);
      CHECK_ST(mvs_buffer_attach(b, KEY_B, &c, counting_detach, &got), MVS_OK);
      CHECK_ST(mvs_buffer_retain(b), MVS_OK);
      CHECK_ST(mvs_buffer_retain(b), MVS_OK);
      mvs_buffer_release(b);
      mvs_buffer_release(b);
      CHECK_EQ(detaches(&a) + detaches(&c), 0);
      CHECK_EQ(calls_of(&t.c), 0);
      mvs_buffer_release(b);
      CHECK_EQ(detaches(&a), 1);
      CHECK_EQ(detaches(&c), 1);
      CHECK_EQ(calls_of(&t.c), 1);
      CHECK(!t.c.bad);
      CHECK(a.when > 0 && a.when < t.when);
      CHECK(c.when > 0 && c.when < t.when);
    }
  }
  /* the detach callback sees the memory and the queries (an allocated buffer: freed with the
   * buffer, so ASan would see a read after the free) */
  {
    mvs_buffer *b = NULL;
    void *p = NULL, *got = NULL;
    reader r;
    dval a;
    memset(&r, 0, sizeof r);
    memset(&a, 0, sizeof a);
    if (CHECK_ST(mvs_buffer_alloc(100, 16, 0, &b), MVS_OK)) {
      CHECK_ST(mvs_buffer_data(b, &p), MVS_OK);
      memset(p, 3, 100);
      r.buffer = b;
      CHECK_ST(mvs_buffer_attach(b, KEY_A, &a, counting_detach, &got), MVS_OK);
      CHECK_ST(mvs_buffer_attach(b, KEY_B, &r, reading_detach, &got), MVS_OK);
      mvs_buffer_release(b);
      CHECK_EQ(r.calls, 1);
      CHECK_EQ(r.size, 100);
      CHECK_PTR(r.data, p);
      CHECK_EQ(r.sum, 300);
      CHECK_PTR(r.found, &a); /* attachments are still listed while detaching */
      CHECK_EQ(detaches(&a), 1);
    }
  }
  /* memory references keep the memory past the last reference; the dealloc callback runs at
   * the last memory reference */
  {
    timed_counter t;
    dval a;
    void *got;
    unsigned char *p = NULL;
    mvs_buffer *b = wrap_counted(&t, 32);
    memset(&a, 0, sizeof a);
    if (b != NULL) {
      CHECK_ST(mvs_buffer_data(b, (void **)&p), MVS_OK);
      CHECK_ST(mvs_buffer_attach(b, KEY_A, &a, counting_detach, &got), MVS_OK);
      CHECK_ST(mvs_buffer_retain_memory(b), MVS_OK);
      CHECK_ST(mvs_buffer_retain_memory(b), MVS_OK);
      CHECK_EQ(refs(b), 1); /* memory references are not references */
      /* a memory reference given back while references remain changes nothing */
      mvs_buffer_release_memory(b);
      CHECK_EQ(calls_of(&t.c), 0);
      CHECK_EQ(detaches(&a), 0);
      mvs_buffer_release(b); /* the last reference: detached, memory kept */
      CHECK_EQ(detaches(&a), 1);
      CHECK_EQ(calls_of(&t.c), 0);
      memset(p, 0x77, 32); /* still ours */
      CHECK_EQ(p[31], 0x77);
      {
        void *q = NULL;
        ptrdiff_t n = -1;
        CHECK_ST(mvs_buffer_data(b, &q), MVS_OK);
        CHECK_PTR(q, p);
        CHECK_ST(mvs_buffer_size(b, &n), MVS_OK);
        CHECK_EQ(n, 32);
      }
      mvs_buffer_release_memory(b); /* the last memory reference */
      CHECK_EQ(calls_of(&t.c), 1);
      CHECK_EQ(detaches(&a), 1);
      CHECK(!t.c.bad);
    }
  }
  /* the Cython pattern, the owner's only user being the attachment: the detach callback gives
   * back the owner's memory reference, and the memory goes in the same release, after it */
  {
    timed_counter t;
    owner_obj o;
    void *got = NULL;
    mvs_buffer *b = wrap_counted(&t, 48);
    memset(&o, 0, sizeof o);
    if (b != NULL) {
      o.buffer = b;
      o.users = 1;
      o.tc = &t;
      CHECK_ST(mvs_buffer_retain_memory(b), MVS_OK);
      CHECK_ST(mvs_buffer_attach(b, KEY_A, &o, owner_detach, &got), MVS_OK);
      CHECK_PTR(got, &o);
      mvs_buffer_release(b);
      CHECK_EQ(o.detached, 1);
      CHECK_EQ(o.freed_memory, 1);
      CHECK_EQ(o.dealloc_calls, 0); /* not freed while the detach callback ran */
      CHECK_EQ(calls_of(&t.c), 1);
      CHECK(!t.c.bad);
    }
  }
  /* ... and with another user of the owner (a view handed out from it): the memory outlives
   * the buffer's references and goes when that user drops the owner */
  {
    timed_counter t;
    owner_obj o;
    void *got = NULL;
    mvs_slice v;
    ptrdiff_t shape[2] = {2, 3};
    mvs_buffer *b = wrap_counted(&t, 6 * sizeof(double));
    memset(&o, 0, sizeof o);
    if (b != NULL) {
      o.buffer = b;
      o.users = 2;
      o.tc = &t;
      CHECK_ST(mvs_buffer_retain_memory(b), MVS_OK);
      CHECK_ST(mvs_buffer_attach(b, KEY_A, &o, owner_detach, &got), MVS_OK);
      CHECK_ST(mvs_buffer_view(b, 8, 2, shape, 'C', &v), MVS_OK);
      region_add(v.data, 48);
      mvs_buffer_release(b);
      CHECK_EQ(o.detached, 1);
      CHECK_EQ(o.freed_memory, 0);
      CHECK_EQ(calls_of(&t.c), 0);
      /* the view is still usable: the owner's memory reference keeps its memory */
      CHECK_EQ(fill_through(&v, 2, 40), 6);
      CHECK_ELEMS(&v, 2, "40 41 42 43 44 45");
      owner_drop(&o); /* the other user goes */
      CHECK_EQ(o.freed_memory, 1);
      CHECK_EQ(calls_of(&t.c), 1);
      CHECK(!t.c.bad);
      regions_clear();
    }
  }
  /* an allocated buffer with only a NULL-detach attachment and a memory reference */
  {
    mvs_buffer *b = NULL;
    void *got = NULL;
    char *p = NULL;
    if (CHECK_ST(mvs_buffer_alloc(16, 8, MVS_BUFFER_ZEROED, &b), MVS_OK)) {
      CHECK_ST(mvs_buffer_attach(b, KEY_A, &g_key_absent, NULL, &got), MVS_OK);
      CHECK_ST(mvs_buffer_retain_memory(b), MVS_OK);
      CHECK_ST(mvs_buffer_data(b, (void **)&p), MVS_OK);
      mvs_buffer_release(b);
      p[15] = 1; /* the memory is still allocated (ASan) */
      mvs_buffer_release_memory(b); /* freed here (ASan/valgrind: no leak) */
    }
  }
}

/* ---- 3. threads ------------------------------------------------------------------------------- */

#define NT 4
static start_line g_start;
static long g_rounds = 2000;
static char g_race_key;

/* A candidate owner for the raced key: it owns a memory reference of the buffer. */
typedef struct {
  mvs_buffer *buffer;
  int thread;
} race_value;

static long g_race_detaches;
static int g_race_detached_thread;
static long g_race_detach_when;

static void race_detach(void *value) {
  race_value *v = (race_value *)value;
  g_race_detached_thread = v->thread;
  g_race_detach_when = tick();
  __atomic_fetch_add(&g_race_detaches, 1, __ATOMIC_SEQ_CST);
  mvs_buffer_release_memory(v->buffer);
  free(v);
}

typedef struct {
  mvs_buffer *buffer; /* this thread's reference */
  int index;
  int won;
  int seen_thread; /* the thread of the value it got back */
  long failures;
} race_job;

static void *race_attach(void *arg) {
  race_job *j = (race_job *)arg;
  race_value *mine = (race_value *)malloc(sizeof *mine);
  void *got = NULL, *again = NULL;
  mine->buffer = j->buffer;
  mine->thread = j->index;
  j->seen_thread = -1;
  if (mvs_buffer_retain_memory(j->buffer) != MVS_OK) j->failures++;
  start_line_wait(&g_start, NT);
  if (mvs_buffer_attach(j->buffer, &g_race_key, mine, race_detach, &got) != MVS_OK || got == NULL) {
    j->failures++;
    got = NULL;
  }
  j->won = got == (void *)mine;
  /* the attached value lives while this thread holds a reference */
  if (got != NULL) j->seen_thread = ((race_value *)got)->thread;
  if (mvs_buffer_attached(j->buffer, &g_race_key, &again) != MVS_OK || again != got) j->failures++;
  if (!j->won) { /* not attached: still ours */
    mvs_buffer_release_memory(j->buffer);
    free(mine);
  }
  mvs_buffer_release(j->buffer); /* maybe the last: then the winner is detached here */
  return NULL;
}

static void test_race_same_key(void) {
  long round, bad_wins = 0, bad_seen = 0, failures = 0, bad_detach = 0, bad_dealloc = 0;
  long wins_by[NT] = {0, 0, 0, 0};
  for (round = 0; round < g_rounds; round++) {
    timed_counter t;
    race_job jobs[NT];
    pthread_t th[NT];
    int k, wins = 0, winner = -1;
    mvs_buffer *b = wrap_counted(&t, 64);
    if (b == NULL) return;
    g_race_detaches = 0;
    g_race_detached_thread = -1;
    g_race_detach_when = 0;
    memset(&g_start, 0, sizeof g_start);
    for (k = 0; k < NT; k++) {
      if (mvs_buffer_retain(b) != MVS_OK) failures++;
      memset(&jobs[k], 0, sizeof jobs[k]);
      jobs[k].buffer = b;
      jobs[k].index = k;
      if (pthread_create(&th[k], NULL, race_attach, &jobs[k]) != 0) failures++;
    }
    mvs_buffer_release(b); /* ours: the last release is a worker's */
    for (k = 0; k < NT; k++) {
      pthread_join(th[k], NULL);
      failures += jobs[k].failures;
      if (jobs[k].won) {
        wins++;
        winner = k;
      }
    }
    if (wins != 1) bad_wins++;
    if (winner >= 0) wins_by[winner]++;
    for (k = 0; k < NT; k++)
      if (jobs[k].seen_thread != winner) bad_seen++;
    if (g_race_detaches != 1 || g_race_detached_thread != winner) bad_detach++;
    if (calls_of(&t.c) != 1 || t.c.bad || t.when <= g_race_detach_when) bad_dealloc++;
  }
  CHECK_EQ(failures, 0);
  CHECK_EQ(bad_wins, 0);   /* exactly one attach won each round */
  CHECK_EQ(bad_seen, 0);   /* every thread got the winner's value */
  CHECK_EQ(bad_detach, 0); /* detached once: the winner */
  CHECK_EQ(bad_dealloc, 0); /* freed once, after the detach */
  printf("test_attach: %ld rounds of %d threads racing on one key; wins by thread %ld %ld %ld %ld\n", g_rounds,
         NT, wins_by[0], wins_by[1], wins_by[2], wins_by[3]);
}

#define NKEYS 32
static char g_keys[NT][NKEYS];
static dval g_vals[NT][NKEYS];

typedef struct {
  mvs_buffer *buffer;
  int index;
  long failures, wrong, missing, seen_others;
} keys_job;

static void *attach_and_look(void *arg) {
  keys_job *j = (keys_job *)arg;
  int i, u, k, t = j->index;
  start_line_wait(&g_start, NT);
  for (i = 0; i < NKEYS; i++) {
    void *got = NULL;
    if (mvs_buffer_attach(j->buffer, &g_keys[t][i], &g_vals[t][i], counting_detach, &got) != MVS_OK) j->failures++;
    if (got != (void *)&g_vals[t][i]) j->wrong++;
    for (u = 0; u < NT; u++)
      for (k = 0; k < NKEYS; k++) {
        void *v = &g_key_absent;
        if (mvs_buffer_attached(j->buffer, &g_keys[u][k], &v) != MVS_OK) {
          j->failures++;
          continue;
        }
        if (v != NULL && v != (void *)&g_vals[u][k]) j->wrong++; /* never another key's value */
        if (u == t && k <= i && v == NULL) j->missing++;          /* our own stay found */
        if (u == t && k > i && v != NULL) j->wrong++;             /* not attached yet */
        if (u != t && v != NULL) j->seen_others++;
      }
  }
  return NULL;
}

static void test_concurrent_lookups(void) {
  int round, k, u, i;
  long failures = 0, wrong = 0, missing = 0, seen_others = 0, final_bad = 0, detach_bad = 0;
  for (round = 0; round < 20; round++) {
    mvs_buffer *b = NULL;
    keys_job jobs[NT];
    pthread_t th[NT];
    memset(g_vals, 0, sizeof g_vals);
    memset(&g_start, 0, sizeof g_start);
    if (!CHECK_ST(mvs_buffer_alloc(64, 64, 0, &b), MVS_OK)) return;
    for (k = 0; k < NT; k++) {
      memset(&jobs[k], 0, sizeof jobs[k]);
      jobs[k].buffer = b;
      jobs[k].index = k;
      if (pthread_create(&th[k], NULL, attach_and_look, &jobs[k]) != 0) failures++;
    }
    for (k = 0; k < NT; k++) {
      pthread_join(th[k], NULL);
      failures += jobs[k].failures;
      wrong += jobs[k].wrong;
      missing += jobs[k].missing;
      seen_others += jobs[k].seen_others;
    }
    for (u = 0; u < NT; u++)
      for (i = 0; i < NKEYS; i++) {
        void *v = NULL;
        if (mvs_buffer_attached(b, &g_keys[u][i], &v) != MVS_OK || v != (void *)&g_vals[u][i]) final_bad++;
        if (detaches(&g_vals[u][i]) != 0) detach_bad++;
      }
    if (refs(b) != 1) failures++;
    mvs_buffer_release(b);
    for (u = 0; u < NT; u++)
      for (i = 0; i < NKEYS; i++)
        if (detaches(&g_vals[u][i]) != 1) detach_bad++;
  }
  CHECK_EQ(failures, 0);
  CHECK_EQ(wrong, 0);
  CHECK_EQ(missing, 0);
  CHECK_EQ(final_bad, 0);
  CHECK_EQ(detach_bad, 0);
  printf("test_attach: %d threads x %d keys attached while looking up all; %ld lookups found another thread's key\n",
         NT, NKEYS, seen_others);
}

/* ---- 4. mvs_buffer_view_at ------------------------------------------------------------------------- */

static void test_view_at(void) {
  mvs_buffer *b = NULL, *r = NULL;
  double *p = NULL;
  mvs_slice v, w;
  ptrdiff_t s34[2] = {3, 4}, s232[3] = {2, 3, 2}, s23[2] = {2, 3}, s5 = 5, s1 = 1, s0 = 0;
  char msg[128];
  if (!CHECK_ST(mvs_buffer_alloc(24 * sizeof(double), 64, 0, &b), MVS_OK)) return;
  CHECK_ST(mvs_buffer_data(b, (void **)&p), MVS_OK);
  iota(p, 24, 0);
  region_add(p, 24 * sizeof(double));

  /* offset 0 is mvs_buffer_view */
  CHECK_ST(mvs_buffer_view_at(b, 0, 8, 2, s34, 'C', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 2, p, "3 4", "32 8");
  CHECK_PTR(v.memview, b);
  CHECK_ST(mvs_buffer_view(b, 8, 2, s34, 'C', &w), MVS_OK);
  CHECK(memcmp(&v, &w, sizeof v) == 0);

  /* 5 items in, C and F */
  CHECK_ST(mvs_buffer_view_at(b, 5, 8, 2, s34, 'C', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 2, p + 5, "3 4", "32 8");
  CHECK_PTR(v.memview, b);
  CHECK_ELEMS(&v, 2, "5 6 7 8 9 10 11 12 13 14 15 16");
  CHECK_ST(mvs_buffer_view_at(b, 5, 8, 2, s34, 'F', 0, &v), MVS_OK);
  CHECK_VIEW(&v, 2, p + 5, "3 4", "8 24");
  CHECK_PTR(v.memview, b);
  CHECK_ELEMS(&v, 2, "5 8 11 14 6 9 12 15 7 10 13 16");
  /* 3-d, 1 item in: [i][j][k] is 1 + 6i + 2j + k (C), 1 + i + 2j + 6k (F) */
  CHECK_ST(mvs_buffer_view_at(b, 1, 8, 3, s232, 'C', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 3, p + 1, "2 3 2", "48 16 8");
  CHECK_ELEMS(&v, 3, "1 2 3 4 5 6 7 8 9 10 11 12");
  CHECK_ST(mvs_buffer_view_at(b, 1, 8, 3, s232, 'F', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 3, p + 1, "2 3 2", "8 16 48");
  CHECK_ELEMS(&v, 3, "1 7 3 9 5 11 2 8 4 10 6 12");
  /* the last 12 items exactly */
  CHECK_ST(mvs_buffer_view_at(b, 12, 8, 2, s34, 'C', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 2, p + 12, "3 4", "32 8");
  CHECK_ELEMS(&v, 2, "12 13 14 15 16 17 18 19 20 21 22 23");
  /* the offset counts items of this itemsize: 3 items of 4 bytes, 2 items of 16 bytes */
  CHECK_ST(mvs_buffer_view_at(b, 3, 4, 1, &s5, 'C', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 1, (char *)p + 12, "5", "4");
  CHECK_ST(mvs_buffer_view_at(b, 2, 16, 2, s23, 'F', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 2, (char *)p + 32, "2 3", "16 32");
  CHECK_ST(mvs_buffer_view_at(b, 2, 16, 2, s23, 'C', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 2, (char *)p + 32, "2 3", "48 16");
  /* 1-d: C and F are the same */
  CHECK_ST(mvs_buffer_view_at(b, 7, 8, 1, &s5, 'F', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 1, p + 7, "5", "8");
  CHECK_ELEMS(&v, 1, "7 8 9 10 11");
  /* writes through the view land at the offset */
  CHECK_EQ(fill_through(&v, 1, 100), 5);
  CHECK(p[6] == 6 && p[7] == 100 && p[11] == 104 && p[12] == 12);
  /* a 0-d view of the last item; a zero-size view at the end */
  CHECK_ST(mvs_buffer_view_at(b, 23, 8, 0, NULL, 'C', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 0, p + 23, "", "");
  CHECK_ST(mvs_buffer_view_at(b, 24, 8, 1, &s0, 'C', 1, &v), MVS_OK);
  CHECK_VIEW(&v, 1, p + 24, "0", "8");
  CHECK_EQ(refs(b), 1); /* views borrow */

  /* errors, output untouched */
  SENT(w);
  CHECK_ERR(mvs_buffer_view_at(b, 13, 8, 2, s34, 'C', 1, &w), MVS_ERR_BOUNDS,
            "a view of 96 bytes at byte offset 104 (ending at byte 200) does not fit in a buffer of 192 bytes");
  CHECK_ERR(mvs_buffer_view_at(b, 24, 8, 0, NULL, 'C', 1, &w), MVS_ERR_BOUNDS,
            "a view of 8 bytes at byte offset 192 (ending at byte 200) does not fit in a buffer of 192 bytes");
  CHECK_ERR(mvs_buffer_view_at(b, 25, 8, 1, &s0, 'C', 1, &w), MVS_ERR_BOUNDS,
            "a view of 0 bytes at byte offset 200 (ending at byte 200) does not fit in a buffer of 192 bytes");
  CHECK_ERR(mvs_buffer_view_at(b, 1000, 8, 1, &s1, 'C', 0, &w), MVS_ERR_BOUNDS, "at byte offset 8000 (ending at byte 8008)");
  CHECK_ERR(mvs_buffer_view_at(b, -1, 8, 1, &s1, 'C', 1, &w), MVS_ERR_SHAPE, "offset -1 is negative");
  CHECK_ERR(mvs_buffer_view_at(b, PTRDIFF_MIN, 8, 1, &s1, 'C', 1, &w), MVS_ERR_SHAPE, "offset -9223372036854775808 is negative");
  snprintf(msg, sizeof msg, "offset %td items of 8 bytes is more than PTRDIFF_MAX bytes", PTRDIFF_MAX / 4);
  CHECK_ERR(mvs_buffer_view_at(b, PTRDIFF_MAX / 4, 8, 1, &s1, 'C', 1, &w), MVS_ERR_OVERFLOW, msg);
  snprintf(msg, sizeof msg, "offset %td items of 2 bytes", PTRDIFF_MAX);
  CHECK_ERR(mvs_buffer_view_at(b, PTRDIFF_MAX, 2, 0, NULL, 'C', 0, &w), MVS_ERR_OVERFLOW, msg);
  /* the offset fits in bytes (PTRDIFF_MAX - 7), the end does not */
  CHECK_ERR(mvs_buffer_view_at(b, PTRDIFF_MAX / 8, 8, 0, NULL, 'C', 1, &w), MVS_ERR_OVERFLOW, "PTRDIFF_MAX");
  CHECK_ERR(mvs_buffer_view_at(b, PTRDIFF_MAX, 1, 1, &s1, 'C', 1, &w), MVS_ERR_OVERFLOW, "PTRDIFF_MAX");
  /* one item less: the end is PTRDIFF_MAX - 7, no overflow, but out of bounds */
  snprintf(msg, sizeof msg, "at byte offset %td (ending at byte %td) does not fit in a buffer of 192 bytes",
           PTRDIFF_MAX - 15, PTRDIFF_MAX - 7);
  CHECK_ERR(mvs_buffer_view_at(b, PTRDIFF_MAX / 8 - 1, 8, 0, NULL, 'C', 1, &w), MVS_ERR_BOUNDS, msg);
  /* mvs_buffer_view's errors */
  CHECK_ERR(mvs_buffer_view_at(NULL, 0, 8, 2, s34, 'C', 0, &w), MVS_ERR_NULL, "`buffer`");
  CHECK_ERR(mvs_buffer_view_at(b, 0, 8, 2, NULL, 'C', 0, &w), MVS_ERR_NULL, "`shape`");
  CHECK_ERR(mvs_buffer_view_at(b, 0, 8, 2, s34, 'C', 0, NULL), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_buffer_view_at(b, 0, 8, 9, s34, 'C', 0, &w), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_buffer_view_at(b, 1, 0, 2, s34, 'C', 0, &w), MVS_ERR_ITEMSIZE, "itemsize 0");
  CHECK_ERR(mvs_buffer_view_at(b, 1, -8, 2, s34, 'C', 0, &w), MVS_ERR_ITEMSIZE, "itemsize -8");
  CHECK_ERR(mvs_buffer_view_at(b, 1, 8, 2, s34, 'X', 0, &w), MVS_ERR_VALUE, "order 88");
  {
    ptrdiff_t neg[2] = {2, -3}, big[2] = {PTRDIFF_MAX / 4, 3};
    CHECK_ERR(mvs_buffer_view_at(b, 1, 8, 2, neg, 'C', 0, &w), MVS_ERR_SHAPE, "extent -3 of axis 1");
    CHECK_ERR(mvs_buffer_view_at(b, 1, 8, 2, big, 'C', 0, &w), MVS_ERR_OVERFLOW, "overflow");
  }
  CHECK_UNTOUCHED(w);
  regions_clear();
  CHECK_EQ(refs(b), 1);
  mvs_buffer_release(b);

  /* read-only: refused only for writable views */
  {
    static const double ro_mem[6] = {0, 1, 2, 3, 4, 5};
    int ro = 0;
    if (!CHECK_ST(mvs_buffer_wrap((void *)ro_mem, sizeof ro_mem, NULL, NULL, MVS_BUFFER_READONLY, &r), MVS_OK)) return;
    CHECK_ST(mvs_buffer_readonly(r, &ro), MVS_OK);
    CHECK_EQ(ro, 1);
    region_add(ro_mem, sizeof ro_mem);
    CHECK_ST(mvs_buffer_view_at(r, 1, 8, 1, &s5, 'C', 0, &v), MVS_OK);
    CHECK_VIEW(&v, 1, ro_mem + 1, "5", "8");
    CHECK_PTR(v.memview, r);
    CHECK_ELEMS(&v, 1, "1 2 3 4 5");
    CHECK_ST(mvs_buffer_view(r, 8, 1, &s5, 'C', &v), MVS_OK); /* no writable flag: fine */
    SENT(w);
    CHECK_ERR(mvs_buffer_view_at(r, 1, 8, 1, &s5, 'C', 1, &w), MVS_ERR_VALUE, "read-only");
    CHECK_ERR(mvs_buffer_view_at(r, 0, 8, 1, &s1, 'C', 2, &w), MVS_ERR_VALUE, "read-only");
    CHECK_ERR(mvs_buffer_view_at(r, 0, 8, 1, &s1, 'F', -1, &w), MVS_ERR_VALUE, "read-only");
    CHECK_UNTOUCHED(w);
    regions_clear();
    mvs_buffer_release(r);
  }
}

/* ---- 5. mvs_pool_acquire_slab ----------------------------------------------------------------- */

/* The view's data lies in the slab: an array of `array_bytes` from a multiple of `slot` on. */
static int in_slab(const mvs_slice *v, mvs_buffer *slab, size_t array_bytes, size_t slot) {
  void *base = NULL;
  ptrdiff_t size = -1;
  uintptr_t off;
  if (mvs_buffer_data(slab, &base) != MVS_OK || mvs_buffer_size(slab, &size) != MVS_OK) return 0;
  if (ADDR(v->data) < ADDR(base)) return 0;
  off = ADDR(v->data) - ADDR(base);
  return off < (uintptr_t)size && off + array_bytes <= (uintptr_t)size && off % slot == 0;
}

static void test_slab_layout_errors(void) {
  mvs_pool *p = NULL;
  mvs_slice v;
  mvs_buffer *slab;
  ptrdiff_t shape[2] = {3, 3};
  if (!CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 2, &p), MVS_OK)) return;
  SENT(v);
  SENT(slab);
  CHECK_ERR(mvs_pool_acquire_slab(p, 4, 2, 'C', NULL, &v, &slab), MVS_ERR_VALUE,
            "the pool holds 2-d arrays of 8-byte items, C-contiguous; 2-d arrays of 4-byte items, C-contiguous were requested");
  CHECK_ERR(mvs_pool_acquire_slab(p, 16, 2, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "the pool holds 2-d arrays of 8-byte items, C-contiguous");
  CHECK_ERR(mvs_pool_acquire_slab(p, 0, 2, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "the pool holds 2-d arrays of 8-byte items, C-contiguous");
  CHECK_ERR(mvs_pool_acquire_slab(p, -8, 2, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "the pool holds 2-d arrays of 8-byte items");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 1, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "the pool holds 2-d arrays of 8-byte items, C-contiguous");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 3, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "; 3-d arrays of 8-byte items, C-contiguous were requested");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 0, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "the pool holds 2-d arrays");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, -1, 'C', NULL, &v, &slab), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 9, 'C', NULL, &v, &slab), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'F', NULL, &v, &slab), MVS_ERR_VALUE,
            "the pool holds 2-d arrays of 8-byte items, C-contiguous; 2-d arrays of 8-byte items, F-contiguous were requested");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'X', NULL, &v, &slab), MVS_ERR_VALUE, "order 88");
  CHECK_ERR(mvs_pool_acquire_slab(NULL, 8, 2, 'C', NULL, &v, &slab), MVS_ERR_NULL, "`pool`");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, NULL, &slab), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v, NULL), MVS_ERR_NULL, "`out_slab`");
  CHECK_UNTOUCHED(v);
  CHECK_UNTOUCHED(slab);
  CHECK_COUNTS(p, 2, 0); /* nothing acquired by a failure */
  /* the right layout */
  CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v, &slab), MVS_OK);
  CHECK_VIEW(&v, 2, v.data, "3 3", "24 8");
  CHECK_PTR(v.memview, NULL);
  CHECK(in_slab(&v, slab, 72, 128));
  CHECK_COUNTS(p, 2, 1);
  CHECK_ST(mvs_pool_release(p, &v), MVS_OK);
  CHECK_COUNTS(p, 2, 0);
  /* the same refusals with an array in this thread's cache (the inline path's case) */
  SENT(v);
  SENT(slab);
  CHECK_ERR(mvs_pool_acquire_slab(p, 4, 2, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "2-d arrays of 4-byte items");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 1, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "1-d arrays of 8-byte items");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, -1, 'C', NULL, &v, &slab), MVS_ERR_NDIM, "ndim -1");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'F', NULL, &v, &slab), MVS_ERR_VALUE, "F-contiguous were requested");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'C' + 256, NULL, &v, &slab), MVS_ERR_VALUE, "order 323");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, NULL, &slab), MVS_ERR_NULL, "`out`");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v, NULL), MVS_ERR_NULL, "`out_slab`");
  CHECK_UNTOUCHED(v);
  CHECK_UNTOUCHED(slab);
  CHECK_COUNTS(p, 2, 0);
  CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v, &slab), MVS_OK);
  CHECK_VIEW(&v, 2, v.data, "3 3", "24 8");
  CHECK(in_slab(&v, slab, 72, 128));
  CHECK_COUNTS(p, 2, 1);
  CHECK_ST(mvs_pool_release(p, &v), MVS_OK);
  mvs_pool_destroy(p);

  /* an F pool: 'C' refused, 'F' accepted */
  {
    ptrdiff_t s3[3] = {2, 3, 4};
    CHECK_ST(mvs_pool_create(4, 3, s3, 'F', 1, &p), MVS_OK);
  }
  CHECK_ERR(mvs_pool_acquire_slab(p, 4, 3, 'C', NULL, &v, &slab), MVS_ERR_VALUE,
            "the pool holds 3-d arrays of 4-byte items, F-contiguous; 3-d arrays of 4-byte items, C-contiguous were requested");
  CHECK_COUNTS(p, 1, 0);
  CHECK_ST(mvs_pool_acquire_slab(p, 4, 3, 'F', NULL, &v, &slab), MVS_OK);
  CHECK_VIEW(&v, 3, v.data, "2 3 4", "4 8 24");
  CHECK(in_slab(&v, slab, 96, 128));
  mvs_pool_destroy(p);

  /* 1-d and 0-d pools: 'C' and 'F' both; the message has no order */
  {
    ptrdiff_t n = 5;
    mvs_slice a, c;
    mvs_buffer *sa = NULL, *sc = NULL;
    CHECK_ST(mvs_pool_create(8, 1, &n, 'C', 2, &p), MVS_OK);
    CHECK_ST(mvs_pool_acquire_slab(p, 8, 1, 'F', NULL, &a, &sa), MVS_OK);
    CHECK_VIEW(&a, 1, a.data, "5", "8");
    CHECK_ST(mvs_pool_acquire_slab(p, 8, 1, 'C', NULL, &c, &sc), MVS_OK);
    CHECK_PTR(sa, sc);
    CHECK(a.data != c.data);
    CHECK_COUNTS(p, 2, 2);
    CHECK_ERR(mvs_pool_acquire_slab(p, 4, 1, 'F', NULL, &v, &slab), MVS_ERR_VALUE,
              "the pool holds 1-d arrays of 8-byte items; 1-d arrays of 4-byte items, F-contiguous were requested");
    CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "the pool holds 1-d arrays of 8-byte items;");
    CHECK_COUNTS(p, 2, 2);
    mvs_pool_destroy(p);

    CHECK_ST(mvs_pool_create(8, 1, &n, 'F', 1, &p), MVS_OK);
    CHECK_ST(mvs_pool_acquire_slab(p, 8, 1, 'C', NULL, &a, &sa), MVS_OK);
    mvs_pool_destroy(p);

    CHECK_ST(mvs_pool_create(16, 0, NULL, 'F', 1, &p), MVS_OK);
    CHECK_ST(mvs_pool_acquire_slab(p, 16, 0, 'C', NULL, &a, &sa), MVS_OK);
    CHECK_VIEW(&a, 0, a.data, "", "");
    CHECK_ST(mvs_pool_acquire_slab(p, 16, 0, 'F', NULL, &c, &sc), MVS_OK);
    CHECK_ERR(mvs_pool_acquire_slab(p, 16, 1, 'C', NULL, &v, &slab), MVS_ERR_VALUE, "the pool holds 0-d arrays of 16-byte items;");
    CHECK_COUNTS(p, 2, 2);
    mvs_pool_destroy(p);
  }
}

/* 'A' is neither 'C' nor 'F', and an order is an int: these are refused (the header:
 * "`order` ('C' or 'F'; either for 0 or 1 dimensions)"), also by 1-d pools, which take both. */
static void test_slab_odd_orders(void) {
  mvs_pool *p = NULL;
  mvs_slice v;
  mvs_buffer *slab;
  ptrdiff_t shape[2] = {3, 3}, n = 4;
  if (!CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 2, &p), MVS_OK)) return;
  SENT(v);
  SENT(slab);
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'A', NULL, &v, &slab), MVS_ERR_VALUE, "order 65");
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 2, 'C' + 256, NULL, &v, &slab), MVS_ERR_VALUE, "order 323");
  CHECK_UNTOUCHED(v);
  CHECK_UNTOUCHED(slab);
  CHECK_COUNTS(p, 2, 0);
  mvs_pool_destroy(p);
  /* a 1-d pool takes 'C' and 'F', not any order */
  CHECK_ST(mvs_pool_create(8, 1, &n, 'C', 2, &p), MVS_OK);
  CHECK_ERR(mvs_pool_acquire_slab(p, 8, 1, 'X', NULL, &v, &slab), MVS_ERR_VALUE, "order 88");
  CHECK_COUNTS(p, 2, 0);
  mvs_pool_destroy(p);
}

/* With a key, the acquired view's memview is the value attached to its slab under the key
 * (NULL before anything is attached, and for another key). */
static void test_slab_key(void) {
  static const char key = 0, other = 0;
  mvs_pool *p = NULL;
  mvs_slice v, w;
  mvs_buffer *slab, *slab2;
  void *got = NULL;
  ptrdiff_t shape[2] = {3, 3};
  if (!CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 2, &p), MVS_OK)) return;
  CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', &key, &v, &slab), MVS_OK);
  CHECK_PTR(v.memview, NULL);
  CHECK_ST(mvs_buffer_attach(slab, &key, (void *)0x40, NULL, &got), MVS_OK);
  CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', &key, &w, &slab2), MVS_OK);
  CHECK_PTR(slab2, slab);
  CHECK_PTR(w.memview, (void *)0x40);
  CHECK_ST(mvs_pool_release(p, &w), MVS_OK);
  CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', &other, &w, &slab2), MVS_OK);
  CHECK_PTR(w.memview, NULL);
  CHECK_ST(mvs_pool_release(p, &w), MVS_OK);
  CHECK_ST(mvs_pool_release(p, &v), MVS_OK);
  mvs_pool_destroy(p);
}

static void test_slabs_of_grown_pool(void) {
  mvs_pool *p = NULL;
  ptrdiff_t shape[2] = {3, 3};
  mvs_slice v[8];
  mvs_buffer *slab[8], *distinct[3];
  ptrdiff_t sizes[3] = {0, 0, 0};
  int i, j, ok_in = 0;
  if (!CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 2, &p), MVS_OK)) return;
  /* 2 arrays, then +2, then +4: three slabs of 256, 256 and 512 bytes (arrays 128 apart) */
  for (i = 0; i < 8; i++) {
    if (!CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v[i], &slab[i]), MVS_OK)) return;
    CHECK_PTR(v[i].memview, NULL);
    ok_in += in_slab(&v[i], slab[i], 72, 128);
    memset(v[i].data, i, 72); /* all ours (ASan) */
  }
  CHECK_EQ(ok_in, 8);
  CHECK_COUNTS(p, 8, 8);
  CHECK_PTR(slab[1], slab[0]);
  CHECK_PTR(slab[3], slab[2]);
  for (i = 5; i < 8; i++) CHECK_PTR(slab[i], slab[4]);
  CHECK(slab[0] != slab[2] && slab[2] != slab[4] && slab[0] != slab[4]);
  distinct[0] = slab[0];
  distinct[1] = slab[2];
  distinct[2] = slab[4];
  for (i = 0; i < 3; i++) {
    CHECK_ST(mvs_buffer_size(distinct[i], &sizes[i]), MVS_OK);
    CHECK_EQ(refs(distinct[i]), 1); /* the pool's; acquiring borrows */
  }
  CHECK_EQ(sizes[0], 256);
  CHECK_EQ(sizes[1], 256);
  CHECK_EQ(sizes[2], 512);
  /* given back and taken again in another order: each array still comes with its own slab */
  for (i = 0; i < 8; i++) CHECK_ST(mvs_pool_release(p, &v[(i * 3) % 8]), MVS_OK);
  CHECK_COUNTS(p, 8, 0);
  ok_in = 0;
  for (i = 0; i < 8; i++) {
    mvs_buffer *s = NULL;
    int owner = -1;
    if (!CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v[i], &s), MVS_OK)) return;
    for (j = 0; j < 3; j++)
      if (in_slab(&v[i], distinct[j], 72, 128)) owner = j;
    ok_in += owner >= 0 && s == distinct[owner];
  }
  CHECK_EQ(ok_in, 8);
  CHECK_COUNTS(p, 8, 8);
  mvs_pool_destroy(p); /* with everything acquired: all freed (leak checkers) */
}

static void test_retained_slab(void) {
  mvs_pool *p = NULL;
  ptrdiff_t shape[2] = {3, 3};
  mvs_slice v0, v1, v2, w;
  mvs_buffer *sa = NULL, *sa1 = NULL, *sb = NULL;
  dval da, db;
  void *got = NULL, *base = NULL;
  ptrdiff_t size = 0;
  memset(&da, 0, sizeof da);
  memset(&db, 0, sizeof db);
  if (!CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 2, &p), MVS_OK)) return;
  CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v0, &sa), MVS_OK);
  CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v1, &sa1), MVS_OK);
  CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &v2, &sb), MVS_OK); /* the pool grows */
  CHECK_PTR(sa1, sa);
  CHECK(sa != sb);
  CHECK_ST(mvs_buffer_attach(sa, KEY_A, &da, counting_detach, &got), MVS_OK);
  CHECK_ST(mvs_buffer_attach(sb, KEY_A, &db, counting_detach, &got), MVS_OK);
  CHECK_ST(mvs_buffer_retain(sa), MVS_OK);
  CHECK_EQ(refs(sa), 2);
  CHECK_ST(mvs_buffer_data(sa, &base), MVS_OK);
  CHECK_ST(mvs_buffer_size(sa, &size), MVS_OK);
  CHECK_EQ(size, 256);
  region_add(base, (size_t)size);
  CHECK_EQ(fill_through(&v0, 2, 100), 9);
  CHECK_EQ(fill_through(&v1, 2, 200), 9);

  mvs_pool_destroy(p);
  CHECK_EQ(detaches(&db), 1); /* the pool held sb's last reference */
  CHECK_EQ(detaches(&da), 0);
  CHECK_EQ(refs(sa), 1);
  /* the retained slab's memory is still valid: the arrays' content, and all of it writable */
  CHECK_ELEMS(&v0, 2, "100 101 102 103 104 105 106 107 108");
  CHECK_ELEMS(&v1, 2, "200 201 202 203 204 205 206 207 208");
  memset(base, 0x5C, (size_t)size);
  CHECK_EQ(((unsigned char *)v1.data)[71], 0x5C);
  CHECK_EQ(fill_through(&v1, 2, 7), 9);
  /* a view of the second array, from the slab itself */
  CHECK_ST(mvs_buffer_view_at(sa, (ptrdiff_t)((ADDR(v1.data) - ADDR(base)) / 8), 8, 2, shape, 'C', 1, &w), MVS_OK);
  CHECK_VIEW(&w, 2, v1.data, "3 3", "24 8");
  CHECK_PTR(w.memview, sa);
  CHECK_ELEMS(&w, 2, "7 8 9 10 11 12 13 14 15");
  regions_clear();
  mvs_buffer_release(sa); /* the last reference: detached and freed (leak checkers) */
  CHECK_EQ(detaches(&da), 1);

  /* the Cython pattern on a slab: an owner holding a memory reference, attached to the slab,
   * and used by a view: the pool's destruction detaches it, the memory stays until the view's
   * user drops the owner */
  {
    owner_obj o;
    mvs_buffer *s = NULL;
    mvs_slice a;
    memset(&o, 0, sizeof o);
    CHECK_ST(mvs_pool_create(8, 2, shape, 'C', 1, &p), MVS_OK);
    if (CHECK_ST(mvs_pool_acquire_slab(p, 8, 2, 'C', NULL, &a, &s), MVS_OK)) {
      void *val = NULL;
      o.buffer = s;
      o.users = 2;
      CHECK_ST(mvs_buffer_attached(s, KEY_A, &val), MVS_OK);
      CHECK_PTR(val, NULL);
      CHECK_ST(mvs_buffer_retain_memory(s), MVS_OK);
      CHECK_ST(mvs_buffer_attach(s, KEY_A, &o, owner_detach, &val), MVS_OK);
      CHECK_PTR(val, &o);
      region_add(a.data, 72);
      mvs_pool_destroy(p);
      CHECK_EQ(o.detached, 1);
      CHECK_EQ(o.freed_memory, 0);
      CHECK_EQ(fill_through(&a, 2, 1), 9); /* still ours (ASan/valgrind) */
      CHECK_ELEMS(&a, 2, "1 2 3 4 5 6 7 8 9");
      regions_clear();
      owner_drop(&o); /* frees the slab (leak checkers) */
      CHECK_EQ(o.freed_memory, 1);
    }
  }
}

int main(void) {
  const char *env = getenv("MVS_TEST_ATTACH_ROUNDS");
  if (env != NULL && atol(env) > 0) g_rounds = atol(env);
  test_attach_semantics();
  test_detach_timing();
  test_race_same_key();
  test_concurrent_lookups();
  test_view_at();
  test_slab_layout_errors();
  test_slab_odd_orders();
  test_slab_key();
  test_slabs_of_grown_pool();
  test_retained_slab();
  return check_summary("test_attach");
}
