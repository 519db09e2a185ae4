/* The inline constructors of mvs_inline.h against the library's: for 1,000,000 random inputs
 * (valid and not: negative, zero and huge extents, strides that overflow, every ndim from -1 to
 * 9, item sizes from -1 up, orders 'C', 'F' and others, NULL shape and output), the same
 * status, the same output bytes (both outputs start from the same random bytes, so an output
 * written on failure, or a field left unwritten, differs) and the same last-error message.
 * MVS_TEST_INLINE_CASES (environment) overrides the number of cases. */
#include "check.h"
#include "mvs_inline.h"

static uint64_t g_rng = 0x9E3779B97F4A7C15u;
static uint64_t next_random(void) { /* xorshift64* */
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return g_rng * 2685821657736338717u;
}
static long pick(long n) { return (long)(next_random() % (uint64_t)n); }

/* An extent: mostly small, sometimes 0, negative or huge (to overflow the strides). */
static ptrdiff_t extent(void) {
  switch (pick(12)) {
    case 0: return 0;
    case 1: return -1 - pick(3);
    case 2: return (ptrdiff_t)1 << (20 + pick(24));
    case 3: return PTRDIFF_MAX - pick(2);
    default: return 1 + pick(6);
  }
}

int main(void) {
  long cases = getenv("MVS_TEST_INLINE_CASES") ? atol(getenv("MVS_TEST_INLINE_CASES")) : 1000000;
  static const int orders[] = {'C', 'F', 'C', 'F', 'A', 0, 'C' + 256, 'c'};
  long statuses[MVS_ERR_ALLOC + 1] = {0};
  long mismatches = 0, k;
  char data[8];
  for (k = 0; k < cases; k++) {
    ptrdiff_t shape[9];
    mvs_slice a, b;
    int i, ndim = (int)pick(11) - 1; /* -1 ..= 9 */
    ptrdiff_t itemsize = pick(20) == 0 ? (ptrdiff_t)pick(3) - 1 : ((ptrdiff_t)1 << pick(5));
    int order = orders[pick(8)];
    int null_shape = pick(50) == 0, null_out = pick(50) == 0;
    mvs_status sa, sb;
    char msg[512];
    for (i = 0; i < 9; i++) shape[i] = extent();
    for (i = 0; i < (int)sizeof a; i++) ((unsigned char *)&a)[i] = (unsigned char)next_random();
    memcpy(&b, &a, sizeof a);
    sa = mvs_view_contiguous(data, itemsize, ndim, null_shape ? NULL : shape, order, null_out ? NULL : &a);
    snprintf(msg, sizeof msg, "%s", sa == MVS_OK ? "" : mvs_last_error());
    sb = mvs_inline_view_contiguous(data, itemsize, ndim, null_shape ? NULL : shape, order, null_out ? NULL : &b);
    if (sa != sb || memcmp(&a, &b, sizeof a) != 0 || (sa != MVS_OK && strcmp(msg, mvs_last_error()) != 0)) {
      if (++mismatches <= 10)
        fprintf(stderr, "MISMATCH case %ld: ndim %d itemsize %td order %d: library %d, inline %d (%s / %s)\n", k, ndim,
                itemsize, order, sa, sb, msg, sb == MVS_OK ? "" : mvs_last_error());
    }
    if (sa >= 0 && sa <= MVS_ERR_ALLOC) statuses[sa]++;
  }
  CHECK_EQ(mismatches, 0);
  /* The cases reach the inline path and the library's refusals alike. */
  CHECK(statuses[MVS_OK] > cases / 10);
  CHECK(statuses[MVS_ERR_SHAPE] > 0 && statuses[MVS_ERR_OVERFLOW] > 0 && statuses[MVS_ERR_NDIM] > 0);
  CHECK(statuses[MVS_ERR_VALUE] > 0 && statuses[MVS_ERR_ITEMSIZE] > 0 && statuses[MVS_ERR_NULL] > 0);
  printf("test_inline: %ld cases of mvs_inline_view_contiguous: %ld OK, %ld shape, %ld overflow, %ld ndim, %ld value (order), "
         "%ld itemsize, %ld NULL errors; %ld mismatches\n",
         cases, statuses[MVS_OK], statuses[MVS_ERR_SHAPE], statuses[MVS_ERR_OVERFLOW], statuses[MVS_ERR_NDIM],
         statuses[MVS_ERR_VALUE], statuses[MVS_ERR_ITEMSIZE], statuses[MVS_ERR_NULL], mismatches);
  return check_summary("test_inline");
}
