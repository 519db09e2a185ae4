/* Cross-cutting error behaviour of every exported function:
 * - mvs_status_str for every code, MVS_ERR_INTERNAL and unknown codes; the ABI constants;
 * - mvs_last_error: "no error" at start, unchanged by successes, per thread;
 * - NULL for every pointer argument (MVS_ERR_NULL, outputs untouched, message names it);
 * - ndim and out_ndim of -1, 9, INT_MIN, INT_MAX (MVS_ERR_NDIM, message has the number);
 * - a negative extent in the source (MVS_ERR_SHAPE);
 * - the span rule: a source spanning more than PTRDIFF_MAX bytes (MVS_ERR_OVERFLOW), one
 *   spanning exactly PTRDIFF_MAX (exact results);
 * - each error code MVS_ERR_NULL .. MVS_ERR_VALUE produced at least once, with its message. */
#include <limits.h>
#include <pthread.h>

#include "check.h"

static double buf[24];
static mvs_slice g_src;             /* shape (3, 1, 4), C order, over buf */
static mvs_slice g_out, g_outs[3];  /* every output lives here, pre-filled with 0xAB */
static int g_oi;
static ptrdiff_t g_on, g_lo, g_hi;
static void *g_op;

static void sent_all(void) {
  SENT(g_out);
  SENT(g_outs);
  SENT(g_oi);
  SENT(g_on);
  SENT(g_lo);
  SENT(g_hi);
  SENT(g_op);
}
static int untouched_all(void) {
  return is_sentinel_(&g_out, sizeof g_out) && is_sentinel_(g_outs, sizeof g_outs) &&
         is_sentinel_(&g_oi, sizeof g_oi) && is_sentinel_(&g_on, sizeof g_on) &&
         is_sentinel_(&g_lo, sizeof g_lo) && is_sentinel_(&g_hi, sizeof g_hi) &&
         is_sentinel_(&g_op, sizeof g_op);
}

#define NFN 29
#define NO_SUCH (-100)
static const char *const fn_name[NFN] = {
    "mvs_view_contiguous", "mvs_view_strided", "mvs_subview",      "mvs_slice_axis",
    "mvs_index_axis",      "mvs_index",        "mvs_reshape",      "mvs_transpose",
    "mvs_permute",         "mvs_swap_axes",    "mvs_move_axes",    "mvs_broadcast_to",
    "mvs_expand_dims",     "mvs_squeeze_axis", "mvs_squeeze",      "mvs_diagonal",
    "mvs_flip_axis",       "mvs_flip",         "mvs_sliding_window", "mvs_split_sections",
    "mvs_split_at",        "mvs_is_contiguous", "mvs_item_count",  "mvs_byte_count",
    "mvs_byte_extent",     "mvs_check_bounds", "mvs_may_overlap",  "mvs_element_ptr",
    "mvs_view_as"};
/* the pointer parameters of each function, in order (names as in the header) */
static const char *const fn_ptrs[NFN] = {
    "shape out", "shape strides out", "src shape out", "src out",
    "src out", "src items out out_ndim", "src shape out", "src out",
    "src axes out", "src out", "src source destination out", "src shape out",
    "src out", "src out", "src out out_ndim", "src out",
    "src out", "src out", "src out", "src outs",
    "src indices outs", "src out", "src out", "src out",
    "src lo hi", "src base", "src out", "src index out",
    "src out"};
/* functions with an out_ndim argument: mvs_subview, mvs_reshape, mvs_broadcast_to */
static int has_out_ndim(int fn) { return fn == 2 || fn == 6 || fn == 11; }

/* Calls function `fn` with good arguments for g_src, except `ndim` (the source's, or the
 * constructed view's), `out_ndim`, and pointer parameter number `null_arg` (1-based; 0 for
 * none), which is passed as NULL. Returns NO_SUCH when there is no such parameter. */
static int call(int fn, int ndim, int out_ndim, int null_arg) {
#define NUL(k, p) (null_arg == (k) ? NULL : (p))
  static const ptrdiff_t shape3[3] = {3, 1, 4}, strides3[3] = {32, 32, 8};
  static const ptrdiff_t reshape3[3] = {4, 3, 1}, bshape3[3] = {3, 5, 4}, idx3[3] = {2, 0, 3};
  static const ptrdiff_t at[1] = {1};
  static const int axes3[3] = {2, 1, 0}, src1[1] = {0}, dst1[1] = {2};
  mvs_index_item items[1];
  int nptrs = 1;
  const char *p;
  items[0].kind = MVS_ITEM_INDEX;
  items[0].start = 1;
  items[0].stop = 0;
  items[0].step = 0;
  for (p = fn_ptrs[fn]; *p; p++) nptrs += *p == ' ';
  if (null_arg > nptrs) return NO_SUCH;
  switch (fn) {
    case 0: return mvs_view_contiguous(buf, 8, ndim, NUL(1, shape3), 'C', NUL(2, &g_out));
    case 1: return mvs_view_strided(buf, 8, ndim, NUL(1, shape3), NUL(2, strides3), NUL(3, &g_out));
    case 2: return mvs_subview(NUL(1, &g_src), ndim, 8, 0, out_ndim, NUL(2, shape3), 'C', NUL(3, &g_out));
    case 3: return mvs_slice_axis(NUL(1, &g_src), ndim, 2, 1, 3, 1, NUL(2, &g_out));
    case 4: return mvs_index_axis(NUL(1, &g_src), ndim, 0, 1, NUL(2, &g_out));
    case 5: return mvs_index(NUL(1, &g_src), ndim, NUL(2, items), 1, NUL(3, &g_out), NUL(4, &g_oi));
    case 6: return mvs_reshape(NUL(1, &g_src), ndim, 8, out_ndim, NUL(2, reshape3), 'C', NUL(3, &g_out));
    case 7: return mvs_transpose(NUL(1, &g_src), ndim, NUL(2, &g_out));
    case 8: return mvs_permute(NUL(1, &g_src), ndim, NUL(2, axes3), NUL(3, &g_out));
    case 9: return mvs_swap_axes(NUL(1, &g_src), ndim, 0, 2, NUL(2, &g_out));
    case 10: return mvs_move_axes(NUL(1, &g_src), ndim, NUL(2, src1), NUL(3, dst1), 1, NUL(4, &g_out));
    case 11: return mvs_broadcast_to(NUL(1, &g_src), ndim, out_ndim, NUL(2, bshape3), NUL(3, &g_out));
    case 12: return mvs_expand_dims(NUL(1, &g_src), ndim, 0, NUL(2, &g_out));
    case 13: return mvs_squeeze_axis(NUL(1, &g_src), ndim, 1, NUL(2, &g_out));
    case 14: return mvs_squeeze(NUL(1, &g_src), ndim, NUL(2, &g_out), NUL(3, &g_oi));
    case 15: return mvs_diagonal(NUL(1, &g_src), ndim, 0, 0, 2, NUL(2, &g_out));
    case 16: return mvs_flip_axis(NUL(1, &g_src), ndim, 2, NUL(2, &g_out));
    case 17: return mvs_flip(NUL(1, &g_src), ndim, NUL(2, &g_out));
    case 18: return mvs_sliding_window(NUL(1, &g_src), ndim, 2, 2, 1, NUL(2, &g_out));
    case 19: return mvs_split_sections(NUL(1, &g_src), ndim, 2, 2, 0, NUL(2, g_outs), 2);
    case 20: return mvs_split_at(NUL(1, &g_src), ndim, 0, NUL(2, at), 1, NUL(3, g_outs));
    case 21: return mvs_is_contiguous(NUL(1, &g_src), ndim, 8, 'C', MVS_CONTIG_NUMPY, NUL(2, &g_oi));
    case 22: return mvs_item_count(NUL(1, &g_src), ndim, NUL(2, &g_on));
    case 23: return mvs_byte_count(NUL(1, &g_src), ndim, 8, NUL(2, &g_on));
    case 24: return mvs_byte_extent(NUL(1, &g_src), ndim, 8, NUL(2, &g_lo), NUL(3, &g_hi));
    case 25: return mvs_check_bounds(NUL(1, &g_src), ndim, 8, NUL(2, (const void *)buf), (ptrdiff_t)sizeof buf);
    case 26: return mvs_may_overlap(NUL(1, &g_src), ndim, 8, NUL(2, &g_oi));
    case 27: return mvs_element_ptr(NUL(1, &g_src), ndim, NUL(2, idx3), NUL(3, &g_op));
    case 28: return mvs_view_as(NUL(1, &g_src), ndim, 8, 4, NUL(2, &g_out));
    default: return NO_SUCH;
  }
#undef NUL
}

static void make_src(void) {
  ptrdiff_t sh[3] = {3, 1, 4};
  CHECK_ST(mvs_view_contiguous(buf, 8, 3, sh, 'C', &g_src), MVS_OK);
  garble_tail(&g_src, 3);
}

/* The k-th space-separated word of s, into out. */
static void word(const char *s, int k, char *out, size_t n) {
  size_t len;
  while (k-- > 0) {
    s = strchr(s, ' ');
    if (!s) {
      out[0] = 0;
      return;
    }
    s++;
  }
  len = strcspn(s, " ");
  if (len >= n) len = n - 1;
  memcpy(out, s, len);
  out[len] = 0;
}

static void test_all_calls_succeed(void) {
  int fn;
  make_src();
  for (fn = 0; fn < NFN; fn++) {
    int st;
    sent_all();
    st = call(fn, 3, 3, 0);
    if (!CHECK_EQ(st, MVS_OK)) fprintf(stderr, "    (%s with good arguments: %s)\n", fn_name[fn], mvs_last_error());
  }
  /* spot-check that the good calls computed what NumPy says */
  sent_all();
  CHECK_ST(call(27, 3, 3, 0), MVS_OK); /* element [2, 0, 3] */
  CHECK_PTR(g_op, buf + 11);
  CHECK_ST(call(24, 3, 3, 0), MVS_OK);
  CHECK_EQ(g_lo, 0);
  CHECK_EQ(g_hi, 96);
  CHECK_ST(call(15, 3, 3, 0), MVS_OK); /* np.diagonal(x, 0, 0, 2) of x (3,1,4) */
  CHECK_VIEW(&g_out, 2, buf, "1 3", "32 40");
  CHECK_ST(call(14, 3, 3, 0), MVS_OK);
  CHECK_EQ(g_oi, 2);
  CHECK_VIEW(&g_out, 2, buf, "3 4", "32 8");
  CHECK_ST(call(6, 3, 3, 0), MVS_OK);
  CHECK_VIEW(&g_out, 3, buf, "4 3 1", "24 8 8");
  CHECK_ST(call(11, 3, 3, 0), MVS_OK);
  CHECK_VIEW(&g_out, 3, buf, "3 5 4", "32 0 8");
  CHECK_ST(call(28, 3, 3, 0), MVS_OK); /* x.view(np.int32) */
  CHECK_VIEW(&g_out, 3, buf, "3 1 8", "32 32 4");
}

static void test_null_matrix(void) {
  int fn, k, total = 0;
  make_src();
  for (fn = 0; fn < NFN; fn++) {
    for (k = 1;; k++) {
      char name[32];
      int st;
      sent_all();
      st = call(fn, 3, 3, k);
      if (st == NO_SUCH) break;
      total++;
      word(fn_ptrs[fn], k - 1, name, sizeof name);
      if (!(CHECK_EQ(st, MVS_ERR_NULL) && CHECK_MSG(name) && CHECK(untouched_all())))
        fprintf(stderr, "    (%s with `%s` NULL)\n", fn_name[fn], name);
    }
  }
  CHECK_EQ(total, 71); /* every pointer parameter of all 29 functions that take one */
  /* arrays of length 0 may be NULL */
  {
    mvs_slice s0, out;
    int nd;
    void *p;
    CHECK_ST(mvs_view_contiguous(buf, 8, 0, NULL, 'C', &s0), MVS_OK);
    CHECK_ST(mvs_view_strided(buf, 8, 0, NULL, NULL, &out), MVS_OK);
    CHECK_ST(mvs_subview(&s0, 0, 8, 0, 0, NULL, 'C', &out), MVS_OK);
    CHECK_ST(mvs_index(&s0, 0, NULL, 0, &out, &nd), MVS_OK);
    CHECK_ST(mvs_reshape(&s0, 0, 8, 0, NULL, 'C', &out), MVS_OK);
    CHECK_ST(mvs_permute(&s0, 0, NULL, &out), MVS_OK);
    CHECK_ST(mvs_move_axes(&g_src, 3, NULL, NULL, 0, &out), MVS_OK);
    CHECK_ST(mvs_broadcast_to(&s0, 0, 0, NULL, &out), MVS_OK);
    CHECK_ST(mvs_split_at(&g_src, 3, 0, NULL, 0, &out), MVS_OK);
    /* outs of length 0 may be NULL too: the error is then the count, not the pointer */
    CHECK_ERR(mvs_split_sections(&g_src, 3, 2, 2, 0, g_outs, 0), MVS_ERR_VALUE, "output count 0");
    CHECK_ERR(mvs_split_sections(&g_src, 3, 2, 2, 0, NULL, 0), MVS_ERR_VALUE, "output count 0");
    CHECK_ERR(mvs_split_sections(&g_src, 3, 2, 0, 0, NULL, 0), MVS_ERR_VALUE, "sections 0");
    CHECK_ST(mvs_element_ptr(&s0, 0, NULL, &p), MVS_OK);
    CHECK_PTR(p, buf);
    /* constructors do not dereference data */
    CHECK_ST(mvs_view_contiguous(NULL, 8, 0, NULL, 'C', &out), MVS_OK);
    CHECK_PTR(out.data, NULL);
    CHECK_ST(mvs_view_strided(NULL, 8, 0, NULL, NULL, &out), MVS_OK);
    CHECK_PTR(out.data, NULL);
  }
}

static void test_ndim_matrix(void) {
  static const int bad[4] = {-1, 9, INT_MIN, INT_MAX};
  static const char *const bad_msg[4] = {"ndim -1", "ndim 9", "ndim -2147483648", "ndim 2147483647"};
  int fn, b, total = 0;
  make_src();
  for (fn = 0; fn < NFN; fn++) {
    for (b = 0; b < 4; b++) {
      int st;
      sent_all();
      st = call(fn, bad[b], 3, 0);
      total++;
      if (!(CHECK_EQ(st, MVS_ERR_NDIM) && CHECK_MSG(bad_msg[b]) && CHECK(untouched_all())))
        fprintf(stderr, "    (%s with ndim %d)\n", fn_name[fn], bad[b]);
      if (has_out_ndim(fn)) {
        sent_all();
        st = call(fn, 3, bad[b], 0);
        total++;
        if (!(CHECK_EQ(st, MVS_ERR_NDIM) && CHECK_MSG(bad_msg[b]) && CHECK(untouched_all())))
          fprintf(stderr, "    (%s with out_ndim %d)\n", fn_name[fn], bad[b]);
      }
    }
  }
  CHECK_EQ(total, 4 * (NFN + 3));
}

static void test_negative_extent(void) {
  int fn;
  for (fn = 0; fn < NFN; fn++) {
    int st;
    make_src();
    g_src.shape[1] = -1;
    sent_all();
    if (fn <= 1) { /* the constructors: a negative extent in their shape */
      ptrdiff_t sh[2] = {3, -1}, st2[2] = {8, 8};
      st = fn == 0 ? mvs_view_contiguous(buf, 8, 2, sh, 'C', &g_out)
                   : mvs_view_strided(buf, 8, 2, sh, st2, &g_out);
    } else {
      st = call(fn, 3, 3, 0);
    }
    if (!(CHECK_EQ(st, MVS_ERR_SHAPE) && CHECK_MSG("extent -1 of axis 1") && CHECK(untouched_all())))
      fprintf(stderr, "    (%s with a negative extent)\n", fn_name[fn]);
    /* the same extent past ndim is ignored */
    if (fn > 1) {
      sent_all();
      st = call(fn, 1, 1, 0);
      (void)st; /* any result but MVS_ERR_SHAPE about axis 1 */
      if (st == MVS_ERR_SHAPE) {
        CHECK(strstr(mvs_last_error(), "axis 1") == NULL);
      }
    }
  }
}

/* The 0-d and 8-d cases not covered by the other test programs. */
static void test_ndim_0_8(void) {
  ptrdiff_t s8[8] = {2, 1, 1, 1, 1, 1, 1, 3}, t8[8] = {4, 1, 1, 1, 1, 1, 1, 3}, at = 1, six = 6, four = 4;
  mvs_slice v8, out, outs[2];
  CHECK_ST(mvs_view_contiguous(buf, 8, 8, s8, 'C', &v8), MVS_OK);
  SENT(out);
  CHECK_ST(mvs_subview(&v8, 8, 8, 0, 1, &six, 'C', &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf, "6", "8");
  SENT(out);
  CHECK_ST(mvs_subview(&v8, 8, 8, 2, 1, &four, 'F', &out), MVS_OK);
  CHECK_VIEW(&out, 1, buf + 2, "4", "8");
  CHECK_ERR(mvs_subview(&v8, 8, 8, 1, 1, &six, 'C', &out), MVS_ERR_BOUNDS, "6 items at item 1");
  CHECK_ERR(mvs_broadcast_to(&v8, 8, 8, t8, &out), MVS_ERR_BROADCAST, "axis 0 of extent 2 cannot be broadcast to extent 4");
  t8[0] = 2;
  t8[2] = 7;
  SENT(out);
  CHECK_ST(mvs_broadcast_to(&v8, 8, 8, t8, &out), MVS_OK);
  CHECK_VIEW(&out, 8, buf, "2 1 7 1 1 1 1 3", "24 24 0 24 24 24 24 8");
  SENT(outs);
  CHECK_ST(mvs_split_at(&v8, 8, 0, &at, 1, outs), MVS_OK);
  CHECK_VIEW(&outs[0], 8, buf, "1 1 1 1 1 1 1 3", "24 24 24 24 24 24 24 8");
  CHECK_VIEW(&outs[1], 8, buf + 3, "1 1 1 1 1 1 1 3", "24 24 24 24 24 24 24 8");
  CHECK_ST(mvs_check_bounds(&v8, 8, 8, buf, 48), MVS_OK);
  CHECK_ERR(mvs_check_bounds(&v8, 8, 8, buf, 47), MVS_ERR_BOUNDS, "outside");
  {
    mvs_slice s0;
    CHECK_ST(mvs_view_contiguous(buf + 1, 8, 0, NULL, 'C', &s0), MVS_OK);
    CHECK_ST(mvs_check_bounds(&s0, 0, 8, buf, 16), MVS_OK);
    CHECK_ST(mvs_check_bounds(&s0, 0, 8, buf, 15), MVS_ERR_BOUNDS);
    SENT(outs);
    CHECK_ERR(mvs_split_at(&s0, 0, 0, &at, 1, outs), MVS_ERR_AXIS, "0 dimensions");
    CHECK_ERR(mvs_split_sections(&s0, 0, 0, 1, 0, outs, 1), MVS_ERR_AXIS, "0 dimensions");
    CHECK_UNTOUCHED(outs);
  }
}

static void test_each_error_code(void) {
  mvs_slice v, out;
  ptrdiff_t sh[2] = {3, 5}, n;
  int r;
  CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh, 'C', &v), MVS_OK);
  SENT(out);
  SENT(n);
  SENT(r);
  CHECK_ERR(mvs_transpose(NULL, 2, &out), MVS_ERR_NULL, "src");
  CHECK_ERR(mvs_transpose(&v, 9, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_slice_axis(&v, 2, 5, 0, 1, 1, &out), MVS_ERR_AXIS, "axis 5 is out of bounds for a view of 2 dimensions");
  CHECK_ERR(mvs_byte_count(&v, 2, 0, &n), MVS_ERR_ITEMSIZE, "itemsize 0 is not positive");
  CHECK_ERR(mvs_squeeze_axis(&v, 2, 1, &out), MVS_ERR_SHAPE, "cannot squeeze axis 1 of extent 5");
  CHECK_ST(mvs_index_axis(&v, 2, 1, 7, &out), MVS_ERR_INDEX);
  CHECK_STR(mvs_last_error(), "index 7 is out of range for axis 1 of size 5");
  CHECK_ERR(mvs_slice_axis(&v, 2, 1, 0, 1, 0, &out), MVS_ERR_STEP, "step");
  {
    ptrdiff_t big[2];
    big[0] = PTRDIFF_MAX;
    big[1] = 3;
    CHECK_ERR(mvs_view_contiguous(buf, 8, 2, big, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
  }
  {
    mvs_slice t;
    CHECK_ST(mvs_transpose(&v, 2, &t), MVS_OK);
    n = 15;
    CHECK_ERR(mvs_reshape(&t, 2, 8, 1, &n, 'C', &out), MVS_ERR_NEEDS_COPY, "copy");
    SENT(n);
  }
  {
    mvs_slice ind = v;
    ind.suboffsets[0] = 0;
    CHECK_ERR(mvs_transpose(&ind, 2, &out), MVS_ERR_INDIRECT, "axis 0 is indirect");
  }
  CHECK_ERR(mvs_check_bounds(&v, 2, 8, buf, 119), MVS_ERR_BOUNDS, "outside");
  {
    ptrdiff_t t[2] = {3, 4};
    CHECK_ERR(mvs_broadcast_to(&v, 2, 2, t, &out), MVS_ERR_BROADCAST, "axis 1 of extent 5 cannot be broadcast to extent 4");
  }
  {
    mvs_slice s;
    CHECK_ST(mvs_slice_axis(&v, 2, 1, MVS_NONE, MVS_NONE, 2, &s), MVS_OK);
    CHECK_ERR(mvs_subview(&s, 2, 8, 0, 0, NULL, 'C', &out), MVS_ERR_NOT_CONTIGUOUS, "not contiguous");
  }
  CHECK_ERR(mvs_is_contiguous(&v, 2, 8, 'Z', MVS_CONTIG_NUMPY, &r), MVS_ERR_VALUE, "order 90 is neither 'C' (67) nor 'F' (70)");
  CHECK_UNTOUCHED(out);
  CHECK_UNTOUCHED(n);
  CHECK_UNTOUCHED(r);
}

static void test_status_str(void) {
  int s, t;
  const char *unknown = mvs_status_str(MVS_ERR_PRODUCER + 1);
  CHECK_EQ(MVS_OK, 0);
  CHECK_EQ(MVS_ERR_NULL, 1);
  CHECK_EQ(MVS_ERR_NDIM, 2);
  CHECK_EQ(MVS_ERR_AXIS, 3);
  CHECK_EQ(MVS_ERR_ITEMSIZE, 4);
  CHECK_EQ(MVS_ERR_SHAPE, 5);
  CHECK_EQ(MVS_ERR_INDEX, 6);
  CHECK_EQ(MVS_ERR_STEP, 7);
  CHECK_EQ(MVS_ERR_OVERFLOW, 8);
  CHECK_EQ(MVS_ERR_NEEDS_COPY, 9);
  CHECK_EQ(MVS_ERR_INDIRECT, 10);
  CHECK_EQ(MVS_ERR_BOUNDS, 11);
  CHECK_EQ(MVS_ERR_BROADCAST, 12);
  CHECK_EQ(MVS_ERR_NOT_CONTIGUOUS, 13);
  CHECK_EQ(MVS_ERR_VALUE, 14);
  CHECK_EQ(MVS_ERR_INTERNAL, 15);
  CHECK_EQ(MVS_ERR_ALLOC, 16);
  CHECK_EQ(MVS_ERR_DEVICE, 17);
  CHECK_EQ(MVS_ERR_DTYPE, 18);
  CHECK_EQ(MVS_ERR_VERSION, 19);
  CHECK_EQ(MVS_ERR_OVERLAP, 20);
  CHECK_EQ(MVS_ERR_PRODUCER, 21);
  CHECK(MVS_NONE == PTRDIFF_MIN);
  CHECK_EQ(MVS_MAX_DIMS, 8);
  CHECK_EQ(MVS_MAX_INDEX_ITEMS, 17);
  CHECK_EQ(MVS_ITEM_INDEX, 0);
  CHECK_EQ(MVS_ITEM_SLICE, 1);
  CHECK_EQ(MVS_ITEM_NEWAXIS, 2);
  CHECK_EQ(MVS_ITEM_ELLIPSIS, 3);
  CHECK_EQ(MVS_CONTIG_NUMPY, 0);
  CHECK_EQ(MVS_CONTIG_CYTHON, 1);
  CHECK(strlen(MVS_VERSION) > 0);
  CHECK_EQ(sizeof(mvs_slice), 2 * sizeof(void *) + 24 * sizeof(ptrdiff_t));

  CHECK_STR(unknown, "unknown status code");
  CHECK_STR(mvs_status_str(-1), "unknown status code");
  CHECK_STR(mvs_status_str(22), "unknown status code");
  CHECK_STR(mvs_status_str(1000), "unknown status code");
  CHECK_STR(mvs_status_str(INT_MIN), "unknown status code");
  CHECK_STR(mvs_status_str(INT_MAX), "unknown status code");
  /* every known code, MVS_ERR_PRODUCER (the last) included, has its own non-empty description */
  for (s = MVS_OK; s <= MVS_ERR_PRODUCER; s++) {
    const char *d = mvs_status_str(s);
    if (!CHECK(d != NULL && strlen(d) > 0 && strcmp(d, "unknown status code") != 0))
      fprintf(stderr, "    (status %d)\n", s);
    for (t = MVS_OK; t < s; t++)
      if (!CHECK(d != NULL && strcmp(d, mvs_status_str(t)) != 0))
        fprintf(stderr, "    (statuses %d and %d share \"%s\")\n", s, t, d ? d : "(null)");
  }
  CHECK_STR(mvs_status_str(MVS_OK), "success");
  CHECK(strstr(mvs_status_str(MVS_ERR_INTERNAL), "internal") != NULL);
  CHECK(strstr(mvs_status_str(MVS_ERR_ALLOC), "allocation") != NULL);
  CHECK(strstr(mvs_status_str(MVS_ERR_NULL), "NULL") != NULL);
  CHECK(strstr(mvs_status_str(MVS_ERR_OVERFLOW), "overflow") != NULL);
  /* static strings: the same pointer every time */
  CHECK_PTR(mvs_status_str(MVS_ERR_AXIS), mvs_status_str(MVS_ERR_AXIS));
}

/* ---- the last-error message ---------------------------------------------------------------- */

/* The span rule: every function that takes a source view refuses, with MVS_ERR_OVERFLOW and
 * untouched outputs, a source whose span, the sum of (shape[i] - 1) * |strides[i]|, exceeds
 * PTRDIFF_MAX, whatever the signs of the strides. A span of exactly PTRDIFF_MAX is accepted,
 * and then every result is exact, up to the far end PTRDIFF_MAX bytes from data. */
static void set_src(ptrdiff_t t0, ptrdiff_t t1, ptrdiff_t t2) {
  ptrdiff_t sh[3] = {3, 1, 4}, st[3];
  st[0] = t0;
  st[1] = t1;
  st[2] = t2;
  g_src = hand_view(buf, 3, sh, st);
  garble_tail(&g_src, 3);
}

static void test_span(void) {
  const ptrdiff_t P62 = (ptrdiff_t)1 << 62;
  const ptrdiff_t T0 = P62 - 15; /* 2 * T0 + 3 * 10 == 2^63 == PTRDIFF_MAX + 1 */
  const ptrdiff_t S0 = P62 - 14; /* 2 * S0 + 3 * 9 == PTRDIFF_MAX */
  int fn, sg, st;
  CHECK_EQ(2 * T0 + 29, PTRDIFF_MAX); /* the arithmetic above, within ptrdiff_t */
  CHECK_EQ(2 * S0 + 27, PTRDIFF_MAX);

  /* (3, 1, 4) with strides (+-T0, +-32, +-10): span PTRDIFF_MAX + 1 (the extent-1 axis adds 0) */
  for (sg = 0; sg < 4; sg++) {
    ptrdiff_t t0 = sg & 1 ? -T0 : T0, t2 = sg & 2 ? -10 : 10;
    set_src(t0, sg == 1 ? -32 : 32, t2);
    for (fn = 2; fn < NFN; fn++) {
      sent_all();
      st = call(fn, 3, 3, 0);
      if (!(CHECK_EQ(st, MVS_ERR_OVERFLOW) && CHECK_MSG("overflow") && CHECK(untouched_all())))
        fprintf(stderr, "    (%s with a span of PTRDIFF_MAX + 1, strides %td 32 %td)\n", fn_name[fn], t0, t2);
    }
    /* mvs_view_strided does not build it either (with both strides negative, its byte extent
     * [PTRDIFF_MIN, 8) would be representable) */
    sent_all();
    CHECK_ERR(mvs_view_strided(buf, 8, 3, g_src.shape, g_src.strides, &g_out), MVS_ERR_OVERFLOW, "overflow");
    CHECK(untouched_all());
  }

  /* strides (S0, 32, 9): span PTRDIFF_MAX exactly. Each function's result, by hand. */
  set_src(S0, 32, 9);
  for (fn = 2; fn < NFN; fn++) {
    int want = fn == 2    ? MVS_ERR_NOT_CONTIGUOUS /* strides are not (32, 32, 8) */
               : fn == 6  ? MVS_ERR_NEEDS_COPY     /* (3,4) items S0 and 9 apart into rows of 3 */
               : fn == 24 ? MVS_ERR_OVERFLOW       /* hi = PTRDIFF_MAX + 8 */
               : fn == 25 ? MVS_ERR_OVERFLOW
               : fn == 28 ? MVS_ERR_NOT_CONTIGUOUS /* the last stride is 9, not 8 */
                          : MVS_OK;
    int before = g_failures;
    sent_all();
    st = call(fn, 3, 3, 0);
    CHECK_EQ(st, want);
    if (st != MVS_OK) {
      CHECK(untouched_all());
    } else {
      switch (fn) {
        case 3: { /* x[:, :, 1:3] */
          const ptrdiff_t sh[3] = {3, 1, 2}, t[3] = {S0, 32, 9};
          CHECK_VIEW_ARR(&g_out, 3, addr_at(buf, 9), sh, t);
          break;
        }
        case 4:
        case 5: { /* x[1] */
          const ptrdiff_t sh[2] = {1, 4}, t[2] = {32, 9};
          CHECK_VIEW_ARR(&g_out, 2, addr_at(buf, S0), sh, t);
          if (fn == 5) CHECK_EQ(g_oi, 2);
          break;
        }
        case 7:
        case 8:
        case 9: { /* x.T, np.transpose(x, (2, 1, 0)), np.swapaxes(x, 0, 2) */
          const ptrdiff_t sh[3] = {4, 1, 3}, t[3] = {9, 32, S0};
          CHECK_VIEW_ARR(&g_out, 3, buf, sh, t);
          break;
        }
        case 10: { /* np.moveaxis(x, 0, 2) */
          const ptrdiff_t sh[3] = {1, 4, 3}, t[3] = {32, 9, S0};
          CHECK_VIEW_ARR(&g_out, 3, buf, sh, t);
          break;
        }
        case 11: { /* np.broadcast_to(x, (3, 5, 4)) */
          const ptrdiff_t sh[3] = {3, 5, 4}, t[3] = {S0, 0, 9};
          CHECK_VIEW_ARR(&g_out, 3, buf, sh, t);
          break;
        }
        case 12: { /* np.expand_dims(x, 0) */
          const ptrdiff_t sh[4] = {1, 3, 1, 4}, t[4] = {0, S0, 32, 9};
          CHECK_VIEW_ARR(&g_out, 4, buf, sh, t);
          break;
        }
        case 13:
        case 14: { /* np.squeeze(x, 1), np.squeeze(x) */
          const ptrdiff_t sh[2] = {3, 4}, t[2] = {S0, 9};
          CHECK_VIEW_ARR(&g_out, 2, buf, sh, t);
          if (fn == 14) CHECK_EQ(g_oi, 2);
          break;
        }
        case 15: { /* np.diagonal(x, 0, 0, 2): x[i, :, i] for i < 3 */
          const ptrdiff_t sh[2] = {1, 3}, t[2] = {32, S0 + 9};
          CHECK_VIEW_ARR(&g_out, 2, buf, sh, t);
          break;
        }
        case 16: { /* x[:, :, ::-1] */
          const ptrdiff_t sh[3] = {3, 1, 4}, t[3] = {S0, 32, -9};
          CHECK_VIEW_ARR(&g_out, 3, addr_at(buf, 27), sh, t);
          break;
        }
        case 17: { /* np.flip(x): data at the far end, 2 * S0 + 3 * 9 bytes in */
          const ptrdiff_t sh[3] = {3, 1, 4}, t[3] = {-S0, 32, -9};
          CHECK_VIEW_ARR(&g_out, 3, addr_at(buf, PTRDIFF_MAX), sh, t);
          break;
        }
        case 18: { /* windows of 2 along axis 2 */
          const ptrdiff_t sh[4] = {3, 1, 3, 2}, t[4] = {S0, 32, 9, 9};
          CHECK_VIEW_ARR(&g_out, 4, buf, sh, t);
          break;
        }
        case 19: { /* np.split(x, 2, 2) */
          const ptrdiff_t sh[3] = {3, 1, 2}, t[3] = {S0, 32, 9};
          CHECK_VIEW_ARR(&g_outs[0], 3, buf, sh, t);
          CHECK_VIEW_ARR(&g_outs[1], 3, addr_at(buf, 18), sh, t);
          break;
        }
        case 20: { /* np.split(x, [1], 0) */
          const ptrdiff_t sh0[3] = {1, 1, 4}, sh1[3] = {2, 1, 4}, t[3] = {S0, 32, 9};
          CHECK_VIEW_ARR(&g_outs[0], 3, buf, sh0, t);
          CHECK_VIEW_ARR(&g_outs[1], 3, addr_at(buf, S0), sh1, t);
          break;
        }
        case 21: CHECK_EQ(g_oi, 0); break;
        case 22: CHECK_EQ(g_on, 12); break;
        case 23: CHECK_EQ(g_on, 96); break;
        case 26: CHECK_EQ(g_oi, 0); break; /* 9 >= 8 and S0 >= 3 * 9 + 8 */
        case 27: CHECK_PTR(g_op, addr_at(buf, PTRDIFF_MAX)); break; /* x[2, 0, 3] */
        default: CHECK(0); break;
      }
    }
    if (g_failures != before) fprintf(stderr, "    (%s with a span of PTRDIFF_MAX)\n", fn_name[fn]);
  }
  /* the same with negative strides reaches PTRDIFF_MAX bytes below data */
  set_src(-S0, 32, -9);
  sent_all();
  CHECK_ST(call(27, 3, 3, 0), MVS_OK);
  CHECK_PTR(g_op, addr_at(buf, -PTRDIFF_MAX));
  CHECK_ST(call(17, 3, 3, 0), MVS_OK);
  CHECK_PTR(g_out.data, addr_at(buf, -PTRDIFF_MAX));
  CHECK_ST(call(24, 3, 3, 0), MVS_OK); /* now [lo, hi) = [-PTRDIFF_MAX, 8) */
  CHECK_EQ(g_lo, -PTRDIFF_MAX);
  CHECK_EQ(g_hi, 8);
  CHECK_ERR(call(25, 3, 3, 0), MVS_ERR_BOUNDS, "outside");

  /* spans that wrap around in 64-bit or 128-bit arithmetic: 2^64 + 5 and 2^128 + 5 */
  {
    ptrdiff_t sh[6], t[6], idx[6] = {0, 0, 0, 0, 0, 0};
    mvs_slice h;
    int k, nd;
    for (k = 0; k < 2; k++) {
      if (k == 0) { /* (2, 2, 6) with strides (MIN, MIN, 1) */
        nd = 3;
        sh[0] = sh[1] = 2;
        t[0] = t[1] = PTRDIFF_MIN;
        sh[2] = 6;
        t[2] = 1;
      } else { /* 4 * (PTRDIFF_MAX - 1) * 2^63 + 8 * 2^63 + 5 * 1 */
        nd = 6;
        sh[0] = sh[1] = sh[2] = sh[3] = PTRDIFF_MAX;
        sh[4] = 9;
        t[0] = t[1] = t[2] = t[3] = t[4] = PTRDIFF_MIN;
        sh[5] = 6;
        t[5] = 1;
      }
      h = hand_view(buf, nd, sh, t);
      sent_all();
      CHECK_ERR(mvs_transpose(&h, nd, &g_out), MVS_ERR_OVERFLOW, "overflow");
      CHECK_ERR(mvs_flip(&h, nd, &g_out), MVS_ERR_OVERFLOW, "overflow");
      CHECK_ERR(mvs_slice_axis(&h, nd, 0, 0, 1, 1, &g_out), MVS_ERR_OVERFLOW, "overflow");
      CHECK_ERR(mvs_index_axis(&h, nd, 0, 0, &g_out), MVS_ERR_OVERFLOW, "overflow");
      CHECK_ERR(mvs_is_contiguous(&h, nd, 1, 'C', MVS_CONTIG_NUMPY, &g_oi), MVS_ERR_OVERFLOW, "overflow");
      CHECK_ERR(mvs_may_overlap(&h, nd, 1, &g_oi), MVS_ERR_OVERFLOW, "overflow");
      CHECK_ERR(mvs_element_ptr(&h, nd, idx, &g_op), MVS_ERR_OVERFLOW, "overflow");
      CHECK_ERR(mvs_view_strided(buf, 1, nd, sh, t, &g_out), MVS_ERR_OVERFLOW, "overflow");
      CHECK(untouched_all());
    }
  }

  /* zero-size views: each offset fits, their sum does not (fuzzing found mvs_flip returning OK
     with data moved by -2^63, and mvs_index accepting the sum) */
  {
    ptrdiff_t sh[3] = {2, 2, 0}, t[3] = {P62, P62, 8};
    mvs_index_item two[2];
    mvs_slice h = hand_view(buf, 3, sh, t);
    int nd = -1;
    two[0].kind = two[1].kind = MVS_ITEM_INDEX;
    two[0].start = two[1].start = 1;
    two[0].stop = two[1].stop = two[0].step = two[1].step = 0;
    sent_all();
    CHECK_ERR(mvs_flip(&h, 3, &g_out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_index(&h, 3, two, 2, &g_out, &nd), MVS_ERR_OVERFLOW, "overflow");
    two[1].kind = MVS_ITEM_SLICE;
    two[1].stop = MVS_NONE;
    two[1].step = MVS_NONE;
    CHECK_ERR(mvs_index(&h, 3, two, 2, &g_out, &nd), MVS_ERR_OVERFLOW, "overflow");
    CHECK(untouched_all());
    CHECK_EQ(nd, -1);
    /* one axis alone fits */
    CHECK_ST(mvs_flip_axis(&h, 3, 0, &g_out), MVS_OK);
    CHECK_ST(mvs_index(&h, 3, two, 1, &g_out, &nd), MVS_OK);
  }

  /* entries past ndim are not part of the span */
  {
    ptrdiff_t sh[2] = {3, 4}, t[2];
    mvs_slice h;
    t[0] = 8;
    t[1] = P62;
    h = hand_view(buf, 2, sh, t);
    SENT(g_out);
    CHECK_ST(mvs_transpose(&h, 2, &g_out), MVS_ERR_OVERFLOW);
    CHECK_ST(mvs_transpose(&h, 1, &g_out), MVS_OK);
    CHECK_VIEW(&g_out, 1, buf, "3", "8");
  }
  make_src();
}

struct thread_result {
  int id;
  char initial[64];
  int failures; /* iterations where the thread saw a message other than its own */
  char last[256];
};

static void *thread_main(void *arg) {
  struct thread_result *r = (struct thread_result *)arg;
  mvs_slice v, out;
  ptrdiff_t n = 4;
  char want[128];
  int i;
  strncpy(r->initial, mvs_last_error(), sizeof r->initial - 1);
  r->initial[sizeof r->initial - 1] = 0;
  if (mvs_view_contiguous(buf, 8, 1, &n, 'C', &v) != MVS_OK) r->failures++;
  for (i = 0; i < 2000; i++) {
    ptrdiff_t index = 100 * r->id + i % 50 + 4;
    snprintf(want, sizeof want, "index %td is out of range for axis 0 of size 4", index);
    if (mvs_index_axis(&v, 1, 0, index, &out) != MVS_ERR_INDEX) r->failures++;
    if (mvs_transpose(&v, 1, &out) != MVS_OK) r->failures++; /* a success in between */
    if (strcmp(mvs_last_error(), want) != 0) r->failures++;
  }
  strncpy(r->last, mvs_last_error(), sizeof r->last - 1);
  r->last[sizeof r->last - 1] = 0;
  return NULL;
}

static void test_last_error(void) {
  mvs_slice v, out;
  ptrdiff_t sh[2] = {3, 5}, n;
  const char *p;
  char saved[256];
  int nd;
  CHECK_ST(mvs_view_contiguous(buf, 8, 2, sh, 'C', &v), MVS_OK);
  /* a failure, then successes of every kind: the message stays */
  CHECK_ST(mvs_slice_axis(&v, 2, 3, 0, 1, 1, &out), MVS_ERR_AXIS);
  p = mvs_last_error();
  strcpy(saved, p);
  CHECK_STR(saved, "axis 3 is out of bounds for a view of 2 dimensions");
  {
    int fn;
    make_src();
    for (fn = 0; fn < NFN; fn++) CHECK_ST(call(fn, 3, 3, 0), MVS_OK);
    CHECK_ST(mvs_index(&v, 2, NULL, 0, &out, &nd), MVS_OK);
    (void)mvs_status_str(MVS_ERR_AXIS);
  }
  CHECK_STR(mvs_last_error(), saved);
  CHECK_STR(p, saved); /* the pointer stays valid until the next failure */
  /* the next failure replaces it */
  CHECK_ST(mvs_byte_count(&v, 2, -3, &n), MVS_ERR_ITEMSIZE);
  CHECK_STR(mvs_last_error(), "itemsize -3 is not positive");
  /* messages with long numbers stay well under 256 bytes and are complete */
  CHECK_ST(mvs_subview(&v, 2, 8, PTRDIFF_MIN, 0, NULL, 'C', &out), MVS_ERR_BOUNDS);
  CHECK_STR(mvs_last_error(), "item offset -9223372036854775808 is negative");
  {
    mvs_slice h = v;
    h.shape[0] = PTRDIFF_MAX;
    h.shape[1] = 1;
    n = PTRDIFF_MAX - 1;
    /* with strides (40, 8) the source spans (PTRDIFF_MAX - 1) * 40 bytes: refused */
    CHECK_ERR(mvs_subview(&h, 2, 1, n, 1, &n, 'C', &out), MVS_ERR_OVERFLOW, "overflow");
    h.strides[0] = 0; /* span 0, but not contiguous */
    CHECK_ST(mvs_subview(&h, 2, 1, n, 1, &n, 'C', &out), MVS_ERR_NOT_CONTIGUOUS);
    h.strides[0] = 1;
    h.strides[1] = 1;
    CHECK_ST(mvs_subview(&h, 2, 1, n, 1, &n, 'C', &out), MVS_ERR_BOUNDS);
    CHECK_STR(mvs_last_error(),
              "a subview of 9223372036854775806 items at item 9223372036854775806 does not fit in a "
              "source of 9223372036854775807 items");
  }

  /* per thread: a new thread starts with "no error"; threads do not see each other's errors */
  {
    pthread_t th[4];
    struct thread_result res[4];
    int k;
    CHECK_ST(mvs_transpose(NULL, 0, &out), MVS_ERR_NULL);
    strcpy(saved, mvs_last_error());
    for (k = 0; k < 4; k++) {
      memset(&res[k], 0, sizeof res[k]);
      res[k].id = k + 1;
      CHECK_EQ(pthread_create(&th[k], NULL, thread_main, &res[k]), 0);
    }
    for (k = 0; k < 4; k++) {
      char want[128];
      CHECK_EQ(pthread_join(th[k], NULL), 0);
      CHECK_STR(res[k].initial, "no error");
      CHECK_EQ(res[k].failures, 0);
      snprintf(want, sizeof want, "index %d is out of range for axis 0 of size 4", 100 * (k + 1) + 1999 % 50 + 4);
      CHECK_STR(res[k].last, want);
    }
    CHECK_STR(mvs_last_error(), saved);
  }
}

int main(void) {
  /* before anything fails on this thread */
  CHECK_STR(mvs_last_error(), "no error");
  iota(buf, 24, 0);
  region_add(buf, sizeof buf);
  make_src();
  CHECK_STR(mvs_last_error(), "no error");
  test_status_str();
  test_all_calls_succeed();
  test_null_matrix();
  test_ndim_matrix();
  test_negative_extent();
  test_ndim_0_8();
  test_each_error_code();
  test_span();
  test_last_error();
  {
    int code;
    for (code = MVS_ERR_NULL; code <= MVS_ERR_VALUE; code++)
      if (!CHECK(g_statuses_seen & (1UL << code)))
        fprintf(stderr, "    (no check in this program produced %s)\n", status_name(code));
  }
  return check_summary("test_errors");
}
