/* Small arrays obtained and given up in a tight loop, against the allocator a C user calls
   instead, in PROCESSES separate processes (each its own address layout): the figures of issue
   35's second and third targets.

   - pool: mvs_pool_acquire + mvs_pool_release of a (3, 3) float64 array against malloc(72) +
     free, bare and with the 9 items written, on 1, 2, 4, 8 and 16 threads that share one pool
     (malloc's threads share its arenas). Target: at most 0.7x, in every process.
   - buffer: mvs_buffer_alloc(72, 16) + mvs_buffer_release against malloc(72) + free (at most
     1.3x), and mvs_buffer_alloc(72, 64) + release against aligned_alloc(64, 72) + free (at
     most 1.0x), one thread.

   Each figure is the best of ROUNDS rounds, the two loops' rounds interleaved in one process, in
   ns per pair and thread (the wall time of a round times the threads that run at once, divided
   by the pairs). The table shows, for each row, the ratio in every process and the worst. With
   a file named as the first argument, each row's best ns over the processes and worst ratio
   are also written there as `<row>/ours`, `<row>/theirs` and `<row>/worst` lines (`make
   bench-alloc` records them in benches/results/alloc.json). Run: `make bench-alloc`. */
#define _GNU_SOURCE /* posix_spawn's environ, clock_gettime */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "memviewslice.h"

#define ROUNDS 45
#define PROCESSES 5
#define MAX_THREADS 16
#define ITEMS 9
#define NBYTES (ITEMS * sizeof(double))

extern char **environ;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* A pointer the compiler must assume read and changed, and all memory with it. */
static void *opaque(void *p) {
    __asm__ volatile("" : "+r"(p) : : "memory");
    return p;
}

static void fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, mvs_last_error());
    exit(1);
}

static void write_items(double *a, long i) {
    for (int k = 0; k < ITEMS; k++) a[k] = (double)(i + k);
}

/* One loop of `n` pairs; `write` writes the array's items each time. */
typedef void loop_fn(long n, int write);

static mvs_pool *pool;

static void pool_loop(long n, int write) {
    mvs_slice v;
    for (long i = 0; i < n; i++) {
        if (mvs_pool_acquire(opaque(pool), &v) != MVS_OK) fail("mvs_pool_acquire");
        if (write) write_items((double *)v.data, i);
        if (mvs_pool_release(opaque(pool), opaque(&v)) != MVS_OK) fail("mvs_pool_release");
    }
}

static void malloc_loop(long n, int write) {
    for (long i = 0; i < n; i++) {
        double *a = opaque(malloc(NBYTES));
        if (!a) fail("malloc");
        if (write) write_items(a, i);
        free(opaque(a));
    }
}

static void buffer_loop(long n, ptrdiff_t alignment) {
    mvs_buffer *b;
    for (long i = 0; i < n; i++) {
        if (mvs_buffer_alloc((ptrdiff_t)NBYTES, alignment, 0, opaque(&b)) != MVS_OK) fail("mvs_buffer_alloc");
        mvs_buffer_release(opaque(b));
    }
}

static void buffer16_loop(long n, int write) {
    (void)write;
    buffer_loop(n, 16);
}

static void buffer64_loop(long n, int write) {
    (void)write;
    buffer_loop(n, 64);
}

static void aligned_loop(long n, int write) {
    (void)write;
    for (long i = 0; i < n; i++) {
        void *a = opaque(aligned_alloc(64, NBYTES));
        if (!a) fail("aligned_alloc");
        free(opaque(a));
    }
}

/* Threads that run the rounds of one row together: each round, every thread runs `ours`, then
   every thread runs `base`, all starting at a barrier. */
struct row {
    const char *name;
    loop_fn *ours, *base;
    int write, threads;
    long pairs; /* per thread and round */
    double target;
};

static pthread_barrier_t start;
/* Each thread's start and end of the current round. */
static double began[MAX_THREADS], ended[MAX_THREADS];

struct worker {
    const struct row *row;
    int index;
};

static void *worker(void *arg) {
    const struct worker *w = arg;
    const struct row *r = w->row;
    for (int k = 0; k < 2 * ROUNDS; k++) {
        pthread_barrier_wait(&start);
        began[w->index] = now();
        (k % 2 ? r->base : r->ours)(r->pairs, r->write);
        ended[w->index] = now();
        pthread_barrier_wait(&start);
    }
    return NULL;
}

/* The best ns per pair and thread of `ours` and of `base`: a round lasts from the first
   thread's start to the last one's end. */
static void run_row(const struct row *r, double best[2]) {
    pthread_t t[MAX_THREADS];
    struct worker w[MAX_THREADS];
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int at_once = r->threads < cpus ? r->threads : (int)cpus;
    pthread_barrier_init(&start, NULL, (unsigned)r->threads + 1);
    for (int i = 0; i < r->threads; i++) {
        w[i] = (struct worker){r, i};
        if (pthread_create(&t[i], NULL, worker, &w[i])) fail("pthread_create");
    }
    best[0] = best[1] = 1e30;
    for (int k = 0; k < 2 * ROUNDS; k++) {
        pthread_barrier_wait(&start);
        pthread_barrier_wait(&start);
        double first = began[0], last = ended[0];
        for (int i = 1; i < r->threads; i++) {
            first = began[i] < first ? began[i] : first;
            last = ended[i] > last ? ended[i] : last;
        }
        double ns = (last - first) * at_once / ((double)r->pairs * r->threads);
        if (ns < best[k % 2]) best[k % 2] = ns;
    }
    for (int i = 0; i < r->threads; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
}

#define NROWS 12
static const struct row rows[NROWS] = {
    {"pool, bare, 1 thread", pool_loop, malloc_loop, 0, 1, 400000, 0.7},
    {"pool, bare, 2 threads", pool_loop, malloc_loop, 0, 2, 200000, 0.7},
    {"pool, bare, 4 threads", pool_loop, malloc_loop, 0, 4, 100000, 0.7},
    {"pool, bare, 8 threads", pool_loop, malloc_loop, 0, 8, 50000, 0.7},
    {"pool, bare, 16 threads", pool_loop, malloc_loop, 0, 16, 25000, 0.7},
    {"pool, writing, 1 thread", pool_loop, malloc_loop, 1, 1, 400000, 0.7},
    {"pool, writing, 2 threads", pool_loop, malloc_loop, 1, 2, 200000, 0.7},
    {"pool, writing, 4 threads", pool_loop, malloc_loop, 1, 4, 100000, 0.7},
    {"pool, writing, 8 threads", pool_loop, malloc_loop, 1, 8, 50000, 0.7},
    {"pool, writing, 16 threads", pool_loop, malloc_loop, 1, 16, 25000, 0.7},
    {"mvs_buffer_alloc(72, 16) / malloc", buffer16_loop, malloc_loop, 0, 1, 400000, 1.3},
    {"mvs_buffer_alloc(72, 64) / aligned_alloc", buffer64_loop, aligned_loop, 0, 1, 400000, 1.0},
};

/* The child: one line per row, "ours base" in ns. */
static int child(void) {
    static const ptrdiff_t shape[2] = {3, 3};
    if (mvs_pool_create(sizeof(double), 2, shape, 'C', 16, &pool) != MVS_OK) fail("mvs_pool_create");
    for (int i = 0; i < NROWS; i++) {
        double best[2];
        run_row(&rows[i], best);
        printf("%.3f %.3f\n", best[0], best[1]);
    }
    mvs_pool_destroy(pool);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child();
    FILE *record = NULL;
    if (argc > 1 && !(record = fopen(argv[1], "w"))) {
        perror(argv[1]);
        return 1;
    }
    double ours[PROCESSES][NROWS], base[PROCESSES][NROWS];
    for (int p = 0; p < PROCESSES; p++) {
        int fd[2];
        pid_t pid;
        posix_spawn_file_actions_t fa;
        char *args[] = {argv[0], "--child", NULL};
        if (pipe(fd)) fail("pipe");
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
        posix_spawn_file_actions_addclose(&fa, fd[0]);
        if (posix_spawn(&pid, "/proc/self/exe", &fa, NULL, args, environ)) fail("posix_spawn");
        close(fd[1]);
        FILE *in = fdopen(fd[0], "r");
        for (int i = 0; i < NROWS; i++)
            if (fscanf(in, "%lf %lf", &ours[p][i], &base[p][i]) != 2) fail("a child's output");
        fclose(in);
        int status;
        if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) fail("a child");
        posix_spawn_file_actions_destroy(&fa);
    }
    printf("%ld cores; ns per pair and thread, best of %d rounds; ratio in each of %d processes\n\n",
           sysconf(_SC_NPROCESSORS_ONLN), ROUNDS, PROCESSES);
    printf("| | ours, best (ns) | theirs, best (ns) | ratio per process | worst | target |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < NROWS; i++) {
        double worst = 0, lo = 1e30, hi = 1e30;
        char per[PROCESSES * 8 + 1] = "";
        for (int p = 0; p < PROCESSES; p++) {
            double r = ours[p][i] / base[p][i];
            worst = r > worst ? r : worst;
            lo = ours[p][i] < lo ? ours[p][i] : lo;
            hi = base[p][i] < hi ? base[p][i] : hi;
            snprintf(per + strlen(per), 8, "%s%.2f", p ? " " : "", r);
        }
        printf("| %s | %.1f | %.1f | %s | %.2fx | %.1fx %s |\n", rows[i].name, lo, hi, per, worst, rows[i].target,
               worst <= rows[i].target ? "met" : "MISSED");
        if (record)
            fprintf(record, "%s/ours %.4g\n%s/theirs %.4g\n%s/worst %.4g\n", rows[i].name, lo, rows[i].name, hi,
                    rows[i].name, worst);
    }
    if (record) fprintf(record, "rounds %d\nprocesses %d\n", ROUNDS, PROCESSES);
    return record && fclose(record) != 0;
}
