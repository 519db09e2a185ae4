/* The standalone driver of fuzz/fuzz_api.c, for machines without libFuzzer: random inputs from
 * a seed (xorshift64*), each run through LLVMFuzzerTestOneInput, for as long as asked; the same
 * seed gives the same inputs.
 *
 *   driver SECONDS [SEED]       fuzz for SECONDS (SEED: from the clock when not given); prints
 *                               the executions and the seed at the end
 *   driver --replay FILE...     runs saved inputs (the driver's; libFuzzer's replay the same
 *                               except where the driver's rare huge allocations differ)
 *
 * When an oracle fails, or an input hangs (30 s), the input is saved as crash-SEED-N.bin in
 * MVS_FUZZ_CRASH_DIR (default build/fuzz) before the target aborts. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, alarm under -std=c11 */
#endif
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern void (*fuzz_on_fail)(void);
extern int fuzz_huge_allocs;
unsigned long fuzz_calls(void);
void fuzz_report(void);

#define MAXLEN 4096
static uint8_t g_buf[MAXLEN];
static size_t g_n;
static unsigned long long g_seed, g_iter, g_state;

static uint64_t next(void) {
  g_state ^= g_state >> 12;
  g_state ^= g_state << 25;
  g_state ^= g_state >> 27;
  return g_state * 0x2545F4914F6CDD1Dull;
}

static void save_input(void) {
  const char *dir = getenv("MVS_FUZZ_CRASH_DIR");
  char path[512];
  FILE *f;
  snprintf(path, sizeof path, "%s/crash-%llu-%llu.bin", dir && *dir ? dir : "build/fuzz", g_seed, g_iter);
  f = fopen(path, "wb");
  if (f && fwrite(g_buf, 1, g_n, f) == g_n && fclose(f) == 0)
    fprintf(stderr, "fuzz: seed %llu, input %llu (%zu bytes) saved to %s; replay: driver --replay %s\n", g_seed, g_iter, g_n, path, path);
  else
    fprintf(stderr, "fuzz: seed %llu, input %llu: could not save it to %s\n", g_seed, g_iter, path);
}

/* An input that runs for more than 30 seconds is a hang (one split took hours once). */
static void on_alarm(int sig) {
  (void)sig;
  fprintf(stderr, "\n==== memviewslice fuzz: input %llu has run for more than 30 s\n", g_iter);
  save_input();
  abort();
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int replay(int argc, char **argv) {
  int i;
  for (i = 2; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      return 2;
    }
    g_n = fread(g_buf, 1, MAXLEN, f);
    fclose(f);
    fprintf(stderr, "fuzz: replaying %s (%zu bytes)\n", argv[i], g_n);
    LLVMFuzzerTestOneInput(g_buf, g_n);
  }
  printf("fuzz: replayed %d inputs, no oracle failed\n", argc - 2);
  return 0;
}

int main(int argc, char **argv) {
  double seconds, start, t;
  fuzz_huge_allocs = 1;
  if (argc >= 2 && strcmp(argv[1], "--replay") == 0) return replay(argc, argv);
  if (argc < 2 || argc > 3 || (seconds = atof(argv[1])) <= 0) {
    fprintf(stderr, "usage: %s SECONDS [SEED] | --replay FILE...\n", argv[0]);
    return 2;
  }
  g_seed = argc == 3 ? strtoull(argv[2], NULL, 0) : (unsigned long long)time(NULL);
  g_state = g_seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  if (!g_state) g_state = 1;
  fuzz_on_fail = save_input;
  signal(SIGALRM, on_alarm);
  printf("fuzz: seed %llu, %g seconds\n", g_seed, seconds);
  fflush(stdout);
  start = now();
  for (t = start; t - start < seconds;) {
    uint64_t r = next();
    size_t i;
    g_n = r % 8 < 2 ? 1 + (size_t)(r >> 8) % 64 : r % 8 < 6 ? 64 + (size_t)(r >> 8) % 448 : 512 + (size_t)(r >> 8) % (MAXLEN - 512);
    for (i = 0; i < g_n; i += 8) {
      uint64_t v = next();
      size_t k;
      for (k = 0; k < 8 && i + k < g_n; k++) g_buf[i + k] = (uint8_t)(v >> (8 * k));
    }
    g_iter++;
    if (g_iter % 32 == 1) alarm(30); /* re-armed every 32 inputs, which take milliseconds */
    LLVMFuzzerTestOneInput(g_buf, g_n);
    if (g_iter % 32 == 0) t = now();
  }
  alarm(0);
  t = now();
  if (getenv("MVS_FUZZ_STATS")) fuzz_report();
  printf("fuzz: %llu executions (%lu library calls) in %.1f s, seed %llu: no oracle failed\n", g_iter, fuzz_calls(), t - start, g_seed);
  return 0;
}
