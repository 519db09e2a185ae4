/* Elementwise iteration: mvs_iter_init, mvs_iter_size, mvs_iter_range, mvs_iter_next, mvs_apply.
 * - c = a + b.T with mvs_apply and a ufunc-style loop, in K, C and F order; a row sum as a
 *   reduction; a 0-d and a zero-size iteration;
 * - a contiguous 4-d iteration is one run; ranges split one iteration between copies of it;
 * - every refusal with its status and message, the iterator untouched and the loop never
 *   called: NULL arguments, operand count, flags, order, item size, shapes that do not
 *   broadcast, a written operand broadcast without MVS_ITER_REDUCE, overlap. */
#include "check.h"

static mvs_slice view2(double *data, ptrdiff_t rows, ptrdiff_t cols, ptrdiff_t rs, ptrdiff_t cs) {
  ptrdiff_t shape[2] = {rows, cols}, strides[2] = {rs, cs};
  return hand_view(data, 2, shape, strides);
}

static int g_calls;

static void add_loop(char **args, const ptrdiff_t *dimensions, const ptrdiff_t *steps, void *data) {
  ptrdiff_t i;
  (void)data;
  g_calls++;
  for (i = 0; i < dimensions[0]; i++)
    *(double *)(args[2] + i * steps[2]) = *(double *)(args[0] + i * steps[0]) + *(double *)(args[1] + i * steps[1]);
}

static void sum_loop(char **args, const ptrdiff_t *dimensions, const ptrdiff_t *steps, void *data) {
  ptrdiff_t i;
  (void)data;
  g_calls++;
  for (i = 0; i < dimensions[0]; i++) *(double *)(args[1] + i * steps[1]) += *(double *)(args[0] + i * steps[0]);
}

static void test_add_transposed(void) {
  double a[12], b[12], c[12];
  int i, k;
  const int orders[3] = {'K', 'C', 'F'};
  for (i = 0; i < 12; i++) a[i] = i, b[i] = 100 * i;
  for (k = 0; k < 3; k++) {
    mvs_slice va = view2(a, 3, 4, 32, 8), vb = view2(b, 3, 4, 8, 24) /* b (4, 3) transposed */,
              vc = view2(c, 3, 4, 32, 8);
    const mvs_slice *ops[3] = {&va, &vb, &vc};
    int ndims[3] = {2, 2, 2};
    ptrdiff_t sizes[3] = {8, 8, 8};
    uint32_t flags[3] = {MVS_ITER_READ, MVS_ITER_READ, MVS_ITER_WRITE};
    memset(c, 0, sizeof c);
    CHECK_ST(mvs_apply(3, ops, ndims, sizes, flags, orders[k], add_loop, NULL), MVS_OK);
    for (i = 0; i < 12; i++) CHECK_EQ((long long)c[i], (long long)(i + 100 * ((i % 4) * 3 + i / 4)));
  }
}

static void test_reduction(void) {
  double x[12], s[3] = {0, 0, 0};
  int i;
  ptrdiff_t sshape[2] = {3, 1}, sstrides[2] = {8, 0};
  mvs_slice vx, vs = hand_view(s, 2, sshape, sstrides);
  const mvs_slice *ops[2] = {&vx, &vs};
  int ndims[2] = {2, 2};
  ptrdiff_t sizes[2] = {8, 8};
  uint32_t flags[2] = {MVS_ITER_READ, MVS_ITER_READWRITE | MVS_ITER_REDUCE};
  for (i = 0; i < 12; i++) x[i] = i;
  vx = view2(x, 3, 4, 32, 8);
  CHECK_ST(mvs_apply(2, ops, ndims, sizes, flags, 'K', sum_loop, NULL), MVS_OK);
  CHECK_EQ((long long)s[0], 6);
  CHECK_EQ((long long)s[1], 22);
  CHECK_EQ((long long)s[2], 38);
  flags[1] = MVS_ITER_READWRITE; /* without REDUCE: refused, nothing called */
  g_calls = 0;
  CHECK_ERR(mvs_apply(2, ops, ndims, sizes, flags, 'K', sum_loop, NULL), MVS_ERR_BROADCAST, "REDUCE");
  CHECK_EQ(g_calls, 0);
}

static void test_runs_and_ranges(void) {
  double a[120];
  ptrdiff_t shape[4] = {2, 3, 4, 5}, strides[4] = {480, 160, 40, 8}, size = -1, count, st[1];
  mvs_slice v = hand_view(a, 4, shape, strides);
  const mvs_slice *ops[1] = {&v};
  int ndims[1] = {4}, seen[120], i, nruns = 0;
  ptrdiff_t sizes[1] = {8};
  uint32_t flags[1] = {MVS_ITER_READ};
  mvs_iter it, piece;
  char *p[1];
  CHECK_ST(mvs_iter_init(&it, 1, ops, ndims, sizes, flags, 'K'), MVS_OK);
  CHECK_ST(mvs_iter_size(&it, &size), MVS_OK);
  CHECK_EQ(size, 120);
  piece = it;
  while (mvs_iter_next(&piece, p, &count, st)) nruns++, CHECK_EQ(count, 120);
  CHECK_EQ(nruns, 1);
  /* every other item, as a (3, 4, 5) view, in pieces [0, 7), [7, 41), [41, 60) */
  shape[0] = 3, shape[1] = 4, shape[2] = 5;
  strides[0] = 320, strides[1] = 80, strides[2] = 16;
  ndims[0] = 3;
  v = hand_view(a, 3, shape, strides);
  CHECK_ST(mvs_iter_init(&it, 1, ops, ndims, sizes, flags, 'C'), MVS_OK);
  memset(seen, 0, sizeof seen);
  {
    const ptrdiff_t cuts[4] = {0, 7, 41, 60};
    int k;
    for (k = 0; k < 3; k++) {
      piece = it;
      CHECK_ST(mvs_iter_range(&piece, cuts[k], cuts[k + 1]), MVS_OK);
      while (mvs_iter_next(&piece, p, &count, st))
        for (i = 0; i < count; i++) seen[(p[0] + i * st[0] - (char *)a) / 8]++;
    }
  }
  for (i = 0; i < 120; i++) CHECK_EQ(seen[i], i % 2 == 0 ? 1 : 0);
  piece = it;
  SENT(piece);
  memcpy(&piece, &it, sizeof it);
  CHECK_ERR(mvs_iter_range(&piece, 5, 61), MVS_ERR_VALUE, "range 5..61");
  CHECK_ERR(mvs_iter_range(&piece, 6, 5), MVS_ERR_VALUE, "range 6..5");
}

static void test_0d_and_empty(void) {
  double a = 5, b[1];
  ptrdiff_t shape0[1] = {0}, strides0[1] = {8}, count, st[1];
  mvs_slice s = hand_view(&a, 0, NULL, NULL), e = hand_view(b, 1, shape0, strides0);
  const mvs_slice *ops[1] = {&s};
  int ndims[1] = {0};
  ptrdiff_t sizes[1] = {8};
  uint32_t flags[1] = {MVS_ITER_READ};
  mvs_iter it;
  char *p[1];
  CHECK_ST(mvs_iter_init(&it, 1, ops, ndims, sizes, flags, 'K'), MVS_OK);
  CHECK_EQ(mvs_iter_next(&it, p, &count, st), 1);
  CHECK_PTR(p[0], &a);
  CHECK_EQ(count, 1);
  CHECK_EQ(mvs_iter_next(&it, p, &count, st), 0);
  ops[0] = &e;
  ndims[0] = 1;
  CHECK_ST(mvs_iter_init(&it, 1, ops, ndims, sizes, flags, 'K'), MVS_OK);
  CHECK_EQ(mvs_iter_next(&it, p, &count, st), 0);
  CHECK_EQ(mvs_iter_next(NULL, p, &count, st), 0);
}

static void test_refusals(void) {
  double a[12], b[4], c[12];
  mvs_slice va = view2(a, 3, 4, 32, 8), vc = view2(c, 3, 4, 32, 8), vb, shifted;
  ptrdiff_t bshape[1] = {4}, bstrides[1] = {8};
  const mvs_slice *ops[9] = {&va, &vc, &va, &va, &va, &va, &va, &va, &va};
  int ndims[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
  ptrdiff_t sizes[9] = {8, 8, 8, 8, 8, 8, 8, 8, 8};
  uint32_t flags[9] = {MVS_ITER_READ, MVS_ITER_WRITE, 1, 1, 1, 1, 1, 1, 1};
  mvs_iter it;
  vb = hand_view(b, 1, bshape, bstrides);
  SENT(it);
  CHECK_ERR(mvs_iter_init(NULL, 2, ops, ndims, sizes, flags, 'K'), MVS_ERR_NULL, "it");
  CHECK_ERR(mvs_iter_init(&it, 2, NULL, ndims, sizes, flags, 'K'), MVS_ERR_NULL, "ops");
  CHECK_ERR(mvs_iter_init(&it, 0, ops, ndims, sizes, flags, 'K'), MVS_ERR_VALUE, "0 operands");
  CHECK_ERR(mvs_iter_init(&it, 9, ops, ndims, sizes, flags, 'K'), MVS_ERR_VALUE, "9 operands");
  CHECK_ERR(mvs_iter_init(&it, 2, ops, ndims, sizes, flags, 'X'), MVS_ERR_VALUE, "order 88");
  flags[0] = 8;
  CHECK_ERR(mvs_iter_init(&it, 2, ops, ndims, sizes, flags, 'K'), MVS_ERR_VALUE, "operand 0 has flags 0x8");
  flags[0] = MVS_ITER_READ | MVS_ITER_REDUCE;
  CHECK_ERR(mvs_iter_init(&it, 2, ops, ndims, sizes, flags, 'K'), MVS_ERR_VALUE, "REDUCE (4) only with WRITE");
  flags[0] = MVS_ITER_READ;
  sizes[0] = 0;
  CHECK_ST(mvs_iter_init(&it, 2, ops, ndims, sizes, flags, 'K'), MVS_ERR_ITEMSIZE);
  sizes[0] = 8;
  ops[1] = &vb;
  ndims[1] = 1;
  flags[1] = MVS_ITER_READ;
  ops[0] = &va;
  {
    double d[6];
    mvs_slice vd = view2(d, 2, 3, 24, 8);
    ops[0] = &vd;
    CHECK_ERR(mvs_iter_init(&it, 2, ops, ndims, sizes, flags, 'K'), MVS_ERR_SHAPE,
              "operands could not be broadcast together with shapes (2, 3) (4,)");
  }
  ops[0] = &va;
  flags[1] = MVS_ITER_WRITE; /* (4,) written, broadcast to (3, 4) */
  CHECK_ERR(mvs_iter_init(&it, 2, ops, ndims, sizes, flags, 'K'), MVS_ERR_BROADCAST, "shape (4,) is broadcast to (3, 4)");
  /* overlap: a written view shifted by one item over a read one; in place is fine */
  shifted = view2(a + 1, 3, 3, 32, 8);
  va = view2(a, 3, 3, 32, 8);
  ops[1] = &shifted;
  ndims[1] = 2;
  CHECK_ERR(mvs_iter_init(&it, 2, ops, ndims, sizes, flags, 'K'), MVS_ERR_OVERLAP, "shares memory with operand 0");
  CHECK_UNTOUCHED(it);
  ops[1] = &va;
  CHECK_ST(mvs_iter_init(&it, 2, ops, ndims, sizes, flags, 'K'), MVS_OK);
  g_calls = 0;
  CHECK_ERR(mvs_apply(2, ops, ndims, sizes, flags, 'K', NULL, NULL), MVS_ERR_NULL, "loop");
}

int main(void) {
  test_add_transposed();
  test_reduction();
  test_runs_and_ranges();
  test_0d_and_empty();
  test_refusals();
  return check_summary("test_iter");
}
