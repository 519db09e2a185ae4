/* The inline constructors and derivations of mvs_inline.h against the library's. The constructors: for 1,000,000 random inputs
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

/* A stride: mostly a small multiple of 8 of either sign, sometimes 0, odd or huge. */
static ptrdiff_t stride(void) {
  switch (pick(40)) {
    case 0: return 0;
    case 1: return (ptrdiff_t)1 << (28 + pick(8));
    case 2: return -((ptrdiff_t)1 << (28 + pick(8)));
    case 3: return PTRDIFF_MAX - pick(2);
    case 4: return 1 + pick(7);
    default: return 8 * (pick(65) - 32);
  }
}

/* A slice bound: mostly small of either sign, sometimes MVS_NONE or huge. */
static ptrdiff_t bound(void) {
  switch (pick(10)) {
    case 0: return MVS_NONE;
    case 1: return PTRDIFF_MAX - pick(2);
    case 2: return MVS_NONE + 1 + pick(2);
    default: return pick(21) - 10;
  }
}

/* A random source: junk bytes, then on every axis an extent (small, or extent()), a stride
   (stride()) and, once in about `rare` axes each, an indirect suboffset or a junk negative one. */
static void random_source(mvs_slice *src, long rare) {
  int i;
  for (i = 0; i < (int)sizeof *src; i++) ((unsigned char *)src)[i] = (unsigned char)next_random();
  for (i = 0; i < 8; i++) {
    src->shape[i] = pick(8) == 0 ? extent() : 1 + pick(6);
    src->strides[i] = stride();
    src->suboffsets[i] = pick(rare) == 0 ? pick(64) : pick(rare) == 0 ? MVS_NONE + pick(4) : -1;
  }
}

/* MVS_INLINE_SLICE_AXIS, MVS_INLINE_INDEX_AXIS and MVS_INLINE_TRANSPOSE against the library,
   on random sources (direct or not, extents and strides small, zero, negative or huge, junk
   past ndim) and arguments (in range and not): where one takes a case, the library succeeds
   with the same output bytes (also with the output at the source, but for the transpose); where
   it declines, it writes nothing. */
static void derivations(long cases) {
  static const ptrdiff_t steps[] = {MVS_NONE, 0, 1, -1, 2, -2, 3, -3, 7, PTRDIFF_MAX, -PTRDIFF_MAX};
  static const char *names[] = {"slice_axis", "index_axis", "transpose"};
  long taken[3] = {0}, declined[3] = {0}, mismatches = 0, k;
  for (k = 0; k < cases; k++) {
    mvs_slice src, a, b, before;
    int i, ok, op = (int)pick(3), ndim = pick(10) ? (int)pick(5) : (int)pick(11) - 1;
    int in_place = op != 2 && pick(4) == 0;
    int axis = pick(10) ? (int)pick(2 * (ndim > 0 ? ndim : 1) + 1) - ndim : (int)pick(21) - 10;
    ptrdiff_t start = op == 1 && pick(2) ? pick(13) - 6 : bound(), stop = bound(), step = steps[pick(11)];
    mvs_status status;
    random_source(&src, 30);
    /* Indexing an indirect first axis reads the pointer stored there: none is stored here. */
    if (op == 1 && src.suboffsets[0] >= 0) src.suboffsets[0] = -1;
    for (i = 0; i < (int)sizeof a; i++) ((unsigned char *)&a)[i] = (unsigned char)next_random();
    if (in_place) a = src;
    b = before = a;
    switch (op) {
      case 0: status = mvs_slice_axis(in_place ? &a : &src, ndim, axis, start, stop, step, &a); break;
      case 1: status = mvs_index_axis(in_place ? &a : &src, ndim, axis, start, &a); break;
      default: status = mvs_transpose(&src, ndim, &a); break;
    }
    switch (op + 3 * in_place) {
      case 0: MVS_INLINE_SLICE_AXIS(b, src, ndim, axis, start, stop, step, ok); break;
      case 3: MVS_INLINE_SLICE_AXIS(b, b, ndim, axis, start, stop, step, ok); break;
      case 1: MVS_INLINE_INDEX_AXIS(b, src, ndim, axis, start, ok); break;
      case 4: MVS_INLINE_INDEX_AXIS(b, b, ndim, axis, start, ok); break;
      default: MVS_INLINE_TRANSPOSE(b, src, ndim, ok); break;
    }
    if (ok ? status != MVS_OK || memcmp(&a, &b, sizeof a) != 0 : memcmp(&b, &before, sizeof b) != 0) {
      if (++mismatches <= 10)
        fprintf(stderr, "MISMATCH %s case %ld: ndim %d axis %d start %td stop %td step %td: library %d, inline %s\n",
                names[op], k, ndim, axis, start, stop, step, status, ok ? "took it" : "declined and wrote");
    }
    if (ok) taken[op]++; else declined[op]++;
  }
  CHECK_EQ(mismatches, 0);
  for (k = 0; k < 3; k++) CHECK(taken[k] > cases / 20 && declined[k] > cases / 100); /* both paths, each op */
  printf("test_inline: %ld cases of the inline derivations, taken inline / left to the library: slice_axis %ld / %ld, "
         "index_axis %ld / %ld, transpose %ld / %ld; %ld mismatches\n",
         cases, taken[0], declined[0], taken[1], declined[1], taken[2], declined[2], mismatches);
}

/* A random index item: mostly an integer (in range or not) or a slice, sometimes a new axis,
   an ellipsis or an unknown kind. */
static mvs_index_item random_item(void) {
  static const ptrdiff_t steps[] = {MVS_NONE, 0, 1, -1, 2, -2, 3, -3, 7, PTRDIFF_MAX, -PTRDIFF_MAX};
  mvs_index_item item;
  int r = (int)pick(40);
  item.kind = r < 18 ? MVS_ITEM_INDEX : r < 37 ? MVS_ITEM_SLICE : r == 37 ? MVS_ITEM_NEWAXIS : r == 38 ? MVS_ITEM_ELLIPSIS : 7;
  item.start = item.kind == MVS_ITEM_INDEX && pick(4) ? pick(15) - 7 : bound();
  item.stop = bound();
  item.step = steps[pick(11)];
  return item;
}

/* MVS_INLINE_INDEX against mvs_index, as derivations() does: random sources, 0 to ndim + 1
   random items; where the inline path takes a case, the library succeeds with the same output
   bytes and ndim (also in place); where it declines, it writes nothing. */
static void index_items(long cases) {
  long taken = 0, declined = 0, mismatches = 0, k;
  for (k = 0; k < cases; k++) {
    mvs_slice src, a, b, before;
    mvs_index_item items[10];
    int i, j, ok, nd_a = -1, nd_b = -1, ndim = pick(10) ? (int)pick(5) : (int)pick(11) - 1;
    int nitems = pick(20) ? (int)pick(ndim > 0 ? ndim + 2 : 2) : (int)pick(12) - 1, in_place = pick(4) == 0;
    mvs_status status;
    random_source(&src, 40);
    for (i = 0; i < 10; i++) items[i] = random_item();
    /* Indexing an indirect axis reads the pointer stored there, and none is stored here: with
       indirect axes, the integers are made slices. */
    for (i = 0; i < 8; i++)
      if (src.suboffsets[i] >= 0)
        for (j = 0; j < 10; j++)
          if (items[j].kind == MVS_ITEM_INDEX) items[j].kind = MVS_ITEM_SLICE;
    for (i = 0; i < (int)sizeof a; i++) ((unsigned char *)&a)[i] = (unsigned char)next_random();
    if (in_place) a = src;
    b = before = a;
    status = mvs_index(in_place ? &a : &src, ndim, nitems >= 0 ? items : NULL, nitems, &a, &nd_a);
    if (in_place) MVS_INLINE_INDEX(b, b, ndim, nitems >= 0 ? items : NULL, nitems, nd_b, ok);
    else MVS_INLINE_INDEX(b, src, ndim, nitems >= 0 ? items : NULL, nitems, nd_b, ok);
    if (ok ? status != MVS_OK || nd_a != nd_b || memcmp(&a, &b, sizeof a) != 0
           : nd_b != -1 || memcmp(&b, &before, sizeof b) != 0) {
      if (++mismatches <= 10)
        fprintf(stderr, "MISMATCH index case %ld: ndim %d nitems %d: library %d (ndim %d), inline %s (ndim %d)\n", k, ndim,
                nitems, status, nd_a, ok ? "took it" : "declined and wrote", nd_b);
    }
    if (ok) taken++; else declined++;
  }
  CHECK_EQ(mismatches, 0);
  CHECK(taken > cases / 20 && declined > cases / 20);
  printf("test_inline: %ld cases of MVS_INLINE_INDEX, taken inline / left to the library: %ld / %ld; %ld mismatches\n",
         cases, taken, declined, mismatches);
}

/* MVS_INLINE_SUBVIEW against mvs_subview, as derivations() does: sources mostly contiguous in
   C order (sometimes in F order, with a junk stride, an indirect axis, or random bytes), item
   sizes valid and not, offsets and result shapes that fit and not, orders 'C', 'F' and others;
   where the inline path takes a case, the library succeeds with the same output bytes (also in
   place); where it declines, it writes nothing. */
static void subviews(long cases) {
  static const ptrdiff_t itemsizes[] = {1, 2, 4, 8, 16, 3, 0, -1, (ptrdiff_t)1 << 21, 8, 8, 8};
  static const int orders[] = {'C', 'C', 'F', 'A'};
  long taken = 0, declined = 0, mismatches = 0, k;
  for (k = 0; k < cases; k++) {
    mvs_slice src, a, b, before;
    ptrdiff_t extents[8], items = 1, offset, isz = itemsizes[pick(12)];
    int i, ok, ndim = pick(10) ? 1 + (int)pick(4) : (int)pick(11) - 1, out_ndim = pick(10) ? (int)pick(4) : (int)pick(11) - 1;
    int order = orders[pick(4)], in_place = pick(4) == 0;
    mvs_status status;
    random_source(&src, 1000000);
    for (i = 0; i < 8; i++) src.shape[i] = pick(12) ? (ptrdiff_t)pick(7) : extent();
    if (pick(10)) { /* contiguous: C order mostly, else F order, of the extents (0 counted as 1) */
      size_t run = (size_t)isz; /* wraps for huge extents: a junk stride the library refuses */
      for (i = 0; i < ndim && ndim <= 8; i++) {
        int ax = pick(5) ? ndim - 1 - i : i;
        src.strides[ax] = (ptrdiff_t)run;
        run *= src.shape[ax] > 1 ? (size_t)src.shape[ax] : 1;
      }
      i = (int)pick(8);
      if (pick(20) == 0) src.strides[i] = (ptrdiff_t)((size_t)src.strides[i] + 8);
      if (pick(40) == 0) src.suboffsets[pick(8)] = 0;
    }
    for (i = 0; i < ndim && i < 8; i++) items *= src.shape[i] > 0 && src.shape[i] < 64 ? src.shape[i] : 1;
    offset = pick(10) ? (ptrdiff_t)pick(items + 2) : pick(2) ? -1 - pick(3) : ((ptrdiff_t)1 << (30 + pick(30)));
    for (i = 0; i < 8; i++) extents[i] = pick(10) ? 1 + pick(4) : pick(2) ? 0 : extent();
    for (i = 0; i < (int)sizeof a; i++) ((unsigned char *)&a)[i] = (unsigned char)next_random();
    if (in_place) a = src;
    b = before = a;
    status = mvs_subview(in_place ? &a : &src, ndim, isz, offset, out_ndim, extents, order, &a);
    if (in_place) MVS_INLINE_SUBVIEW(b, b, ndim, isz, offset, out_ndim, extents, order, ok);
    else MVS_INLINE_SUBVIEW(b, src, ndim, isz, offset, out_ndim, extents, order, ok);
    if (ok ? status != MVS_OK || memcmp(&a, &b, sizeof a) != 0 : memcmp(&b, &before, sizeof b) != 0) {
      if (++mismatches <= 10)
        fprintf(stderr, "MISMATCH subview case %ld: ndim %d itemsize %td offset %td out_ndim %d order %d: library %d, inline %s\n",
                k, ndim, isz, offset, out_ndim, order, status, ok ? "took it" : "declined and wrote");
    }
    if (ok) taken++; else declined++;
  }
  CHECK_EQ(mismatches, 0);
  CHECK(taken > cases / 20 && declined > cases / 20);
  printf("test_inline: %ld cases of MVS_INLINE_SUBVIEW, taken inline / left to the library: %ld / %ld; %ld mismatches\n",
         cases, taken, declined, mismatches);
}

int main(void) {
  long cases = getenv("MVS_TEST_INLINE_CASES") ? atol(getenv("MVS_TEST_INLINE_CASES")) : 1000000;
  static const int orders[] = {'C', 'F', 'C', 'F', 'A', 0, 'C' + 256, 'c'};
  long statuses[MVS_ERR_ALLOC + 1] = {0};
  long mismatches = 0, taken = 0, k;
  char data[8];
  for (k = 0; k < cases; k++) {
    ptrdiff_t shape[9];
    mvs_slice a, b, c, before;
    int i, ok, ndim = (int)pick(11) - 1; /* -1 ..= 9 */
    ptrdiff_t itemsize = pick(20) == 0 ? (ptrdiff_t)pick(3) - 1 : ((ptrdiff_t)1 << pick(5));
    int order = orders[pick(8)];
    int null_shape = pick(50) == 0, null_out = pick(50) == 0;
    mvs_status sa, sb;
    char msg[512];
    for (i = 0; i < 9; i++) shape[i] = extent();
    for (i = 0; i < (int)sizeof a; i++) ((unsigned char *)&a)[i] = (unsigned char)next_random();
    memcpy(&b, &a, sizeof a);
    c = before = a;
    sa = mvs_view_contiguous(data, itemsize, ndim, null_shape ? NULL : shape, order, null_out ? NULL : &a);
    snprintf(msg, sizeof msg, "%s", sa == MVS_OK ? "" : mvs_last_error());
    sb = mvs_inline_view_contiguous(data, itemsize, ndim, null_shape ? NULL : shape, order, null_out ? NULL : &b);
    if (sa != sb || memcmp(&a, &b, sizeof a) != 0 || (sa != MVS_OK && strcmp(msg, mvs_last_error()) != 0)) {
      if (++mismatches <= 10)
        fprintf(stderr, "MISMATCH case %ld: ndim %d itemsize %td order %d: library %d, inline %d (%s / %s)\n", k, ndim,
                itemsize, order, sa, sb, msg, sb == MVS_OK ? "" : mvs_last_error());
    }
    /* MVS_INLINE_CONTIGUOUS: where it takes a case, the library succeeds with the same bytes;
       where it declines, it writes nothing. */
    MVS_INLINE_CONTIGUOUS(c, data, itemsize, ndim, null_shape ? NULL : shape, order, ok);
    if (ok ? !null_out && (sa != MVS_OK || memcmp(&a, &c, sizeof a) != 0) : memcmp(&c, &before, sizeof c) != 0) {
      if (++mismatches <= 10)
        fprintf(stderr, "MISMATCH MVS_INLINE_CONTIGUOUS case %ld: ndim %d itemsize %td order %d: library %d, inline %s\n", k,
                ndim, itemsize, order, sa, ok ? "took it" : "declined and wrote");
    }
    taken += ok;
    if (sa >= 0 && sa <= MVS_ERR_ALLOC) statuses[sa]++;
  }
  CHECK_EQ(mismatches, 0);
  CHECK(taken > cases / 20 && cases - taken > cases / 20);
  printf("test_inline: %ld cases of MVS_INLINE_CONTIGUOUS, taken inline / left to the library: %ld / %ld\n", cases,
         taken, cases - taken);
  derivations(cases);
  index_items(cases);
  subviews(cases);
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
