/* Fuzzing the elementwise iteration (mvs_iter_init, mvs_iter_size, mvs_iter_range,
 * mvs_iter_next, mvs_apply) on the program's views, hostile ones included. The oracles: a
 * refusal has a documented status, a message and leaves the iterator untouched; a view the
 * model refuses (invalid, indirect, a bad item size) is never accepted; an accepted iteration
 * has the broadcast shape's size, its ranges visit that many elements in runs whose every
 * element lies inside its operand's bytes (nothing is dereferenced), and mvs_apply calls its
 * loop for the same elements. */
#include "harness.h"

static ptrdiff_t g_applied;

static void count_loop(char **args, const ptrdiff_t *dimensions, const ptrdiff_t *steps, void *data) {
  (void)args, (void)steps, (void)data;
  g_applied += dimensions[0];
}

/* The broadcast size of the operands (-1 when they do not broadcast, -2 past ptrdiff_t). */
static i128 broadcast_size(const mvs_slice *const *ops, const int *nd, int nop) {
  int a, k, n = 0;
  i128 size = 1;
  for (k = 0; k < nop; k++) n = nd[k] > n ? nd[k] : n;
  for (a = 0; a < n; a++) {
    ptrdiff_t len = 1;
    for (k = 0; k < nop; k++) {
      int ka = a - (n - nd[k]);
      ptrdiff_t e = ka >= 0 ? ops[k]->shape[ka] : 1;
      if (e == 1 || e == len) continue;
      if (len != 1) return -1;
      len = e;
    }
    size = smul(size, len);
  }
  return size > PMAX ? -2 : size;
}

void op_iter(void) {
  mvs_slice views[9];
  const mvs_slice *ops[9];
  int nd[9], k, st, nop = 1 + (int)below(4), model_bad = 0;
  ptrdiff_t isz[9], size = -1, start, end, count, strides[9], visited = 0;
  uint32_t flags[9];
  i128 lo[9], hi[9], want;
  char *ptrs[9];
  mvs_iter it, before;
  const int orders[4] = {'K', 'C', 'F', 'X'};
  int order = orders[below(16) == 0 ? 3 : below(3)];
  ctx("mvs_iter_init");
  if (one_in(32)) nop = one_in(2) ? 0 : 9;
  for (k = 0; k < 9; k++) {
    pv_t v = g_pv[below(NV)];
    views[k] = v.s;
    nd[k] = v.ndim;
    isz[k] = one_in(16) ? gen_itemsize() : v.isz;
    ops[k] = &views[k];
    flags[k] = one_in(32) ? (uint32_t)u64() : (uint32_t[]){MVS_ITER_READ, MVS_ITER_READ, MVS_ITER_WRITE, MVS_ITER_READWRITE,
                                                            MVS_ITER_WRITE | MVS_ITER_REDUCE}[below(5)];
    if (k < nop) {
      ctx_v("op", &views[k], nd[k]);
      ctx_i("itemsize", isz[k]), ctx_i("flags", flags[k]);
      if (view_errs(&views[k], nd[k]) || !direct_of(&views[k], nd[k]) || isz[k] <= 0 ||
          !extent_of(&views[k], nd[k], isz[k], &lo[k], &hi[k]))
        model_bad = 1;
    }
  }
  ctx_i("order", order);
  memset(&it, SENT, sizeof it);
  before = it;
  pre_call();
  st = mvs_iter_init(&it, nop, ops, nd, isz, flags, order);
  check_status(st, 0, M_NDIM | M_ITEM | M_SHAPE | M_OVF | M_IND | M_VALUE | M_BCAST | M_OVERLAP);
  if (st != MVS_OK) {
    if (memcmp(&it, &before, sizeof it) != 0) fail("failed with %s and wrote the iterator", stname(st));
    return;
  }
  if (model_bad || nop < 1 || nop > 8 || order == 'X') fail("accepted operands the model refuses");
  want = broadcast_size(ops, nd, nop);
  if (want < 0) fail("accepted operands that do not broadcast together");
  if (mvs_iter_size(&it, &size) != MVS_OK || (i128)size != want) fail("size %td, the broadcast shape has %lld", size, (long long)want);
  if (size > 65536) return;
  /* a range, then the rest: every element once, each inside its operand's bytes */
  start = (ptrdiff_t)below((unsigned)size + 1);
  end = start + (ptrdiff_t)below((unsigned)(size - start) + 1);
  before = it;
  if (mvs_iter_range(&it, start, end) != MVS_OK) fail("refused the range %td..%td of %td", start, end, size);
  if (mvs_iter_range(&before, end, size) != MVS_OK) fail("refused the range %td..%td of %td", end, size, size);
  for (k = 0; k < 2; k++) {
    mvs_iter *piece = k ? &before : &it;
    while (mvs_iter_next(piece, ptrs, &count, strides)) {
      int o;
      if (count <= 0) fail("a run of %td elements", count);
      for (o = 0; o < nop; o++) {
        /* (addresses wrap as the library's offsets do: the difference modulo 2^64) */
        i128 first = (ptrdiff_t)((uintptr_t)ptrs[o] - (uintptr_t)views[o].data), last = first + (i128)(count - 1) * strides[o];
        i128 mn = first < last ? first : last, mx = first < last ? last : first;
        if (mn < lo[o] || mx + isz[o] > hi[o]) fail("operand %d's run leaves its bytes", o);
      }
      visited += count;
      if (visited > size) break;
    }
  }
  if (visited != size - start) fail("visited %td of the %td elements from %td", visited, size - start, start);
  if (mvs_iter_range(&it, 0, size + 1) == MVS_OK) fail("accepted a range past the size");
  g_applied = 0;
  if (mvs_apply(nop, ops, nd, isz, flags, order, count_loop, NULL) != MVS_OK || g_applied != size)
    fail("mvs_apply visited %td of %td elements", g_applied, size);
}
