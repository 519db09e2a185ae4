/* PEP 3118 indirect views (suboffsets >= 0), built by hand:
 * - A: a 3x4 array of doubles stored as row pointers (suboffset on axis 0). The rows are
 *   permuted: row i of the view is rows[perm[i]], and rows[r][c] = 100 r + c.
 * - B: a 2x3 array of pointers to doubles (suboffset on axis 1). */
#include "check.h"

#define PS ((ptrdiff_t)sizeof(double *))

static double rows[3][4];
static double *ptrs[3];
static double *cells[2][3];
static int token;

static void setup(void) {
  int r, c;
  for (r = 0; r < 3; r++)
    for (c = 0; c < 4; c++) rows[r][c] = 100 * r + c;
  ptrs[0] = rows[2];
  ptrs[1] = rows[0];
  ptrs[2] = rows[1];
  /* B[i][j] = rows[j][i] (a transposed gather) */
  for (r = 0; r < 2; r++)
    for (c = 0; c < 3; c++) cells[r][c] = &rows[c][r];
  regions_clear();
  region_add(rows, sizeof rows);
  region_add(ptrs, sizeof ptrs);
  region_add(cells, sizeof cells);
}

static mvs_slice view_a(ptrdiff_t suboffset0) {
  mvs_slice v;
  int i;
  memset(&v, 0, sizeof v);
  v.memview = &token;
  v.data = (char *)ptrs;
  v.shape[0] = 3;
  v.shape[1] = 4;
  v.strides[0] = PS;
  v.strides[1] = sizeof(double);
  for (i = 0; i < MVS_MAX_DIMS; i++) v.suboffsets[i] = -1;
  v.suboffsets[0] = suboffset0;
  garble_tail(&v, 2);
  return v;
}

static mvs_slice view_b(void) {
  mvs_slice v;
  int i;
  memset(&v, 0, sizeof v);
  v.memview = &token;
  v.data = (char *)cells;
  v.shape[0] = 2;
  v.shape[1] = 3;
  v.strides[0] = 3 * PS;
  v.strides[1] = PS;
  for (i = 0; i < MVS_MAX_DIMS; i++) v.suboffsets[i] = -1;
  v.suboffsets[1] = 0;
  garble_tail(&v, 2);
  return v;
}

static void test_element_ptr(void) {
  mvs_slice a = view_a(0), b = view_b();
  ptrdiff_t idx[2];
  void *p;
  idx[0] = 0;
  idx[1] = 0;
  SENT(p);
  CHECK_ST(mvs_element_ptr(&a, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, &rows[2][0]);
  idx[0] = 1;
  idx[1] = 3;
  CHECK_ST(mvs_element_ptr(&a, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, &rows[0][3]);
  idx[0] = -1;
  idx[1] = -2;
  CHECK_ST(mvs_element_ptr(&a, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, &rows[1][2]);
  CHECK_ELEMS(&a, 2, "200 201 202 203 0 1 2 3 100 101 102 103");
  /* a suboffset of one double */
  a = view_a(sizeof(double));
  a.shape[1] = 3;
  idx[0] = 2;
  idx[1] = 0;
  CHECK_ST(mvs_element_ptr(&a, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, &rows[1][1]);
  CHECK_ELEMS(&a, 2, "201 202 203 1 2 3 101 102 103");
  /* B: the indirect axis is the last */
  idx[0] = 1;
  idx[1] = 2;
  CHECK_ST(mvs_element_ptr(&b, 2, idx, &p), MVS_OK);
  CHECK_PTR(p, &rows[2][1]);
  CHECK_ELEMS(&b, 2, "0 100 200 1 101 201");
  /* still bounds-checked */
  idx[0] = 3;
  idx[1] = 0;
  SENT(p);
  CHECK_ERR(mvs_element_ptr(&a, 2, idx, &p), MVS_ERR_INDEX, "index 3 is out of range for axis 0 of size 3");
  CHECK_UNTOUCHED(p);
}

static void test_index_axis(void) {
  mvs_slice a = view_a(0), out, w;
  /* axis 0 dereferences: the result is a direct row */
  SENT(out);
  CHECK_ST(mvs_index_axis(&a, 2, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, rows[0], "4", "8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 1, "0 1 2 3");
  SENT(out);
  CHECK_ST(mvs_index_axis(&a, 2, -2, -1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, rows[1], "4", "8");
  CHECK_ELEMS(&out, 1, "100 101 102 103");
  /* with a suboffset, it is added after the dereference */
  {
    mvs_slice a8 = view_a(2 * sizeof(double));
    a8.shape[1] = 2;
    SENT(out);
    CHECK_ST(mvs_index_axis(&a8, 2, 0, 0, &out), MVS_OK);
    CHECK_VIEW(&out, 1, &rows[2][2], "2", "8");
    CHECK_ELEMS(&out, 1, "202 203");
  }
  /* in place */
  w = a;
  CHECK_ST(mvs_index_axis(&w, 2, 0, 2, &w), MVS_OK);
  CHECK_VIEW(&w, 1, rows[1], "4", "8");
  CHECK_PTR(w.memview, &token);
  /* axis 1 (direct, behind the indirect axis 0): the offset goes into suboffsets[0] */
  SENT(out);
  CHECK_ST(mvs_index_axis(&a, 2, 1, 2, &out), MVS_OK);
  CHECK_VIEW_SUB(&out, 1, ptrs, "3", "8", "16");
  CHECK_ELEMS(&out, 1, "202 2 102");
  SENT(out);
  CHECK_ST(mvs_index_axis(&a, 2, 1, -1, &out), MVS_OK);
  CHECK_VIEW_SUB(&out, 1, ptrs, "3", "8", "24");
  CHECK_ELEMS(&out, 1, "203 3 103");
  /* then index the (still indirect) axis 0: deref + 24 */
  CHECK_ST(mvs_index_axis(&out, 1, 0, 1, &out), MVS_OK);
  CHECK_VIEW(&out, 0, &rows[0][3], "", "");
  CHECK_ELEMS(&out, 0, "3");

  /* B: the indirect axis 1 is not first: it cannot be indexed */
  {
    mvs_slice b = view_b();
    SENT(out);
    CHECK_ERR(mvs_index_axis(&b, 2, 1, 0, &out), MVS_ERR_INDIRECT, "axis 1 is indirect");
    CHECK_ERR(mvs_index_axis(&b, 2, -1, 2, &out), MVS_ERR_INDIRECT, "axis 1");
    CHECK_UNTOUCHED(out);
    /* indexing axis 0 makes it first */
    CHECK_ST(mvs_index_axis(&b, 2, 0, 1, &out), MVS_OK);
    CHECK_VIEW_SUB(&out, 1, cells[1], "3", "8", "0");
    CHECK_ELEMS(&out, 1, "1 101 201");
    CHECK_ST(mvs_index_axis(&out, 1, 0, 2, &out), MVS_OK);
    CHECK_VIEW(&out, 0, &rows[2][1], "", "");
    CHECK_ELEMS(&out, 0, "201");
  }
}

static void test_slice_axis(void) {
  mvs_slice a = view_a(0), out, w;
  /* axis 1 slices move suboffsets[0], not data */
  SENT(out);
  CHECK_ST(mvs_slice_axis(&a, 2, 1, 1, 3, MVS_NONE, &out), MVS_OK);
  CHECK_VIEW_SUB(&out, 2, ptrs, "3 2", "8 8", "8 -1");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 2, "201 202 1 2 101 102");
  SENT(out);
  CHECK_ST(mvs_slice_axis(&a, 2, -1, MVS_NONE, MVS_NONE, -1, &out), MVS_OK);
  CHECK_VIEW_SUB(&out, 2, ptrs, "3 4", "8 -8", "24 -1");
  CHECK_ELEMS(&out, 2, "203 202 201 200 3 2 1 0 103 102 101 100");
  SENT(out);
  CHECK_ST(mvs_slice_axis(&a, 2, 1, 3, 0, -2, &out), MVS_OK);
  CHECK_VIEW_SUB(&out, 2, ptrs, "3 2", "8 -16", "24 -1");
  CHECK_ELEMS(&out, 2, "203 201 3 1 103 101");
  /* an empty slice changes nothing */
  SENT(out);
  CHECK_ST(mvs_slice_axis(&a, 2, 1, 2, 2, MVS_NONE, &out), MVS_OK);
  CHECK_VIEW_SUB(&out, 2, ptrs, "3 0", "8 8", "0 -1");
  /* axis 0 slices move data along the pointer array */
  SENT(out);
  CHECK_ST(mvs_slice_axis(&a, 2, 0, 1, MVS_NONE, MVS_NONE, &out), MVS_OK);
  CHECK_VIEW_SUB(&out, 2, ptrs + 1, "2 4", "8 8", "0 -1");
  CHECK_ELEMS(&out, 2, "0 1 2 3 100 101 102 103");
  SENT(out);
  CHECK_ST(mvs_slice_axis(&a, 2, 0, MVS_NONE, MVS_NONE, -1, &out), MVS_OK);
  CHECK_VIEW_SUB(&out, 2, ptrs + 2, "3 4", "-8 8", "0 -1");
  CHECK_ELEMS(&out, 2, "100 101 102 103 0 1 2 3 200 201 202 203");
  /* both, in place */
  w = a;
  CHECK_ST(mvs_slice_axis(&w, 2, 0, MVS_NONE, MVS_NONE, 2, &w), MVS_OK);
  CHECK_ST(mvs_slice_axis(&w, 2, 1, 1, MVS_NONE, 2, &w), MVS_OK);
  CHECK_VIEW_SUB(&w, 2, ptrs, "2 2", "16 16", "8 -1");
  CHECK_PTR(w.memview, &token);
  CHECK_ELEMS(&w, 2, "201 203 101 103");
  /* overflow of the suboffset is an error */
  {
    mvs_slice h = view_a(PTRDIFF_MAX - 8);
    SENT(out);
    CHECK_ERR(mvs_slice_axis(&h, 2, 1, 2, MVS_NONE, MVS_NONE, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_index_axis(&h, 2, 1, 3, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(out);
    SENT(out);
    CHECK_ST(mvs_slice_axis(&h, 2, 1, 1, MVS_NONE, MVS_NONE, &out), MVS_OK);
    CHECK_EQ(out.suboffsets[0], PTRDIFF_MAX);
  }
  /* Offsets behind an indirect axis must keep its suboffset >= 0 (a negative one would read
   * as "direct"): A2 has row pointers to the row ends and walks axis 1 backwards. */
  {
    static double *ends[3];
    mvs_slice a2 = view_a(0);
    ends[0] = &rows[2][3];
    ends[1] = &rows[0][3];
    ends[2] = &rows[1][3];
    region_add(ends, sizeof ends);
    a2.data = (char *)ends;
    a2.strides[1] = -(ptrdiff_t)sizeof(double);
    CHECK_ELEMS(&a2, 2, "203 202 201 200 3 2 1 0 103 102 101 100");
    SENT(out);
    CHECK_ERR(mvs_slice_axis(&a2, 2, 1, 1, MVS_NONE, MVS_NONE, &out), MVS_ERR_INDIRECT, "negative");
    CHECK_ERR(mvs_index_axis(&a2, 2, 1, 2, &out), MVS_ERR_INDIRECT, "axis 0");
    {
      mvs_index_item it2[2];
      int nd;
      it2[0].kind = MVS_ITEM_ELLIPSIS;
      it2[0].start = it2[0].stop = it2[0].step = 0;
      it2[1].kind = MVS_ITEM_INDEX;
      it2[1].start = -1;
      it2[1].stop = it2[1].step = 0;
      SENT(nd);
      CHECK_ERR(mvs_index(&a2, 2, it2, 2, &out, &nd), MVS_ERR_INDIRECT, "negative");
      CHECK_UNTOUCHED(nd);
    }
    CHECK_UNTOUCHED(out);
    /* offsets of 0 are fine, and reversing walks forwards from the row end minus 3 */
    SENT(out);
    CHECK_ST(mvs_index_axis(&a2, 2, 1, 0, &out), MVS_OK);
    CHECK_VIEW_SUB(&out, 1, ends, "3", "8", "0");
    CHECK_ELEMS(&out, 1, "203 3 103");
    SENT(out);
    CHECK_ERR(mvs_slice_axis(&a2, 2, 1, MVS_NONE, MVS_NONE, -1, &out), MVS_ERR_INDIRECT, "negative");
    /* splits along axis 1: a piece that starts further in would have a negative suboffset */
    {
      mvs_slice outs[3];
      ptrdiff_t at[1];
      SENT(outs);
      at[0] = 1;
      CHECK_ERR(mvs_split_at(&a2, 2, 1, at, 1, outs), MVS_ERR_INDIRECT, "negative");
      CHECK_ERR(mvs_split_sections(&a2, 2, 1, 2, 0, outs, 2), MVS_ERR_INDIRECT, "negative");
      CHECK_ERR(mvs_split_sections(&a2, 2, 1, 3, 1, outs, 3), MVS_ERR_INDIRECT, "negative");
      CHECK_UNTOUCHED(outs);
      /* ... but pieces that all start at offset 0 are fine: np.split(a2, 1, 1) is [a2],
       * np.split(a2, [], 1) too, and np.split(a2, [4], 1) adds an empty piece, which slicing
       * to length 0 does not move (as a2[:, 0:4] and a2[:, 4:] are fine with mvs_slice_axis) */
      SENT(out);
      CHECK_ST(mvs_slice_axis(&a2, 2, 1, 0, 4, MVS_NONE, &out), MVS_OK);
      CHECK_VIEW_SUB(&out, 2, ends, "3 4", "8 -8", "0 -1");
      SENT(out);
      CHECK_ST(mvs_slice_axis(&a2, 2, 1, 4, MVS_NONE, MVS_NONE, &out), MVS_OK);
      CHECK_VIEW_SUB(&out, 2, ends, "3 0", "8 -8", "0 -1");
      SENT(outs);
      CHECK_ST(mvs_split_sections(&a2, 2, 1, 1, 0, outs, 1), MVS_OK);
      CHECK_VIEW_SUB(&outs[0], 2, ends, "3 4", "8 -8", "0 -1");
      SENT(outs);
      CHECK_ST(mvs_split_at(&a2, 2, 1, NULL, 0, outs), MVS_OK);
      CHECK_VIEW_SUB(&outs[0], 2, ends, "3 4", "8 -8", "0 -1");
      SENT(outs);
      at[0] = 4;
      CHECK_ST(mvs_split_at(&a2, 2, 1, at, 1, outs), MVS_OK);
      CHECK_VIEW_SUB(&outs[0], 2, ends, "3 4", "8 -8", "0 -1");
      CHECK_VIEW_SUB(&outs[1], 2, ends, "3 0", "8 -8", "0 -1");
      /* and along axis 0, pieces move data, not the suboffset */
      SENT(outs);
      at[0] = 2;
      CHECK_ST(mvs_split_at(&a2, 2, 0, at, 1, outs), MVS_OK);
      CHECK_VIEW_SUB(&outs[0], 2, ends, "2 4", "8 -8", "0 -1");
      CHECK_VIEW_SUB(&outs[1], 2, ends + 2, "1 4", "8 -8", "0 -1");
      CHECK_ELEMS(&outs[1], 2, "103 102 101 100");
    }
    /* a suboffset of 24 leaves room for three steps back */
    a2.suboffsets[0] = 24;
    a2.data = (char *)ptrs;
    SENT(out);
    CHECK_ST(mvs_slice_axis(&a2, 2, 1, 1, 3, MVS_NONE, &out), MVS_OK);
    CHECK_VIEW_SUB(&out, 2, ptrs, "3 2", "8 -8", "16 -1");
    CHECK_ELEMS(&out, 2, "202 201 2 1 102 101");
    SENT(out);
    CHECK_ST(mvs_index_axis(&a2, 2, -1, -1, &out), MVS_OK);
    CHECK_VIEW_SUB(&out, 1, ptrs, "3", "8", "0");
    CHECK_ELEMS(&out, 1, "200 0 100");
    { /* np.split(a2, 2, 1): pieces at suboffsets 24 and 8 */
      mvs_slice outs[2];
      SENT(outs);
      CHECK_ST(mvs_split_sections(&a2, 2, 1, 2, 0, outs, 2), MVS_OK);
      CHECK_VIEW_SUB(&outs[0], 2, ptrs, "3 2", "8 -8", "24 -1");
      CHECK_VIEW_SUB(&outs[1], 2, ptrs, "3 2", "8 -8", "8 -1");
      CHECK_ELEMS(&outs[0], 2, "203 202 3 2 103 102");
      CHECK_ELEMS(&outs[1], 2, "201 200 1 0 101 100");
    }
  }
  /* B: slicing either axis moves data (no indirect axis before them) */
  {
    mvs_slice b = view_b();
    SENT(out);
    CHECK_ST(mvs_slice_axis(&b, 2, 1, 1, MVS_NONE, MVS_NONE, &out), MVS_OK);
    CHECK_VIEW_SUB(&out, 2, &cells[0][1], "2 2", "24 8", "-1 0");
    CHECK_ELEMS(&out, 2, "100 200 101 201");
  }
}

static mvs_index_item item(int kind, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step) {
  mvs_index_item it;
  it.kind = kind;
  it.start = start;
  it.stop = stop;
  it.step = step;
  return it;
}

static void test_index(void) {
  mvs_slice a = view_a(0), out;
  mvs_index_item it[4];
  int nd;
  /* a[1, 1:3] */
  it[0] = item(MVS_ITEM_INDEX, 1, 0, 0);
  it[1] = item(MVS_ITEM_SLICE, 1, 3, MVS_NONE);
  SENT(out);
  SENT(nd);
  CHECK_ST(mvs_index(&a, 2, it, 2, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 1);
  CHECK_VIEW(&out, 1, &rows[0][1], "2", "8");
  CHECK_PTR(out.memview, &token);
  CHECK_ELEMS(&out, 1, "1 2");
  /* a[0:2, 1:3] */
  it[0] = item(MVS_ITEM_SLICE, 0, 2, MVS_NONE);
  SENT(out);
  CHECK_ST(mvs_index(&a, 2, it, 2, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 2);
  CHECK_VIEW_SUB(&out, 2, ptrs, "2 2", "8 8", "8 -1");
  CHECK_ELEMS(&out, 2, "201 202 1 2");
  /* a[..., 3] */
  it[0] = item(MVS_ITEM_ELLIPSIS, 0, 0, 0);
  it[1] = item(MVS_ITEM_INDEX, 3, 0, 0);
  SENT(out);
  CHECK_ST(mvs_index(&a, 2, it, 2, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 1);
  CHECK_VIEW_SUB(&out, 1, ptrs, "3", "8", "24");
  CHECK_ELEMS(&out, 1, "203 3 103");
  /* a[-1] */
  it[0] = item(MVS_ITEM_INDEX, -1, 0, 0);
  SENT(out);
  CHECK_ST(mvs_index(&a, 2, it, 1, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 1);
  CHECK_VIEW(&out, 1, rows[1], "4", "8");
  /* a[::2, np.newaxis, -1] */
  it[0] = item(MVS_ITEM_SLICE, MVS_NONE, MVS_NONE, 2);
  it[1] = item(MVS_ITEM_NEWAXIS, 0, 0, 0);
  it[2] = item(MVS_ITEM_INDEX, -1, 0, 0);
  SENT(out);
  CHECK_ST(mvs_index(&a, 2, it, 3, &out, &nd), MVS_OK);
  CHECK_EQ(nd, 2);
  CHECK_VIEW_SUB(&out, 2, ptrs, "2 1", "16 0", "24 -1");
  CHECK_ELEMS(&out, 2, "203 103");
  /* a[2, ::-1], in place */
  {
    mvs_slice w = a;
    it[0] = item(MVS_ITEM_INDEX, 2, 0, 0);
    it[1] = item(MVS_ITEM_SLICE, MVS_NONE, MVS_NONE, -1);
    CHECK_ST(mvs_index(&w, 2, it, 2, &w, &nd), MVS_OK);
    CHECK_EQ(nd, 1);
    CHECK_VIEW(&w, 1, &rows[1][3], "4", "-8");
    CHECK_ELEMS(&w, 1, "103 102 101 100");
  }
  /* B[1, 2]: indexing axis 0 first makes the indirect axis 1 the first kept one */
  {
    mvs_slice b = view_b();
    it[0] = item(MVS_ITEM_INDEX, 1, 0, 0);
    it[1] = item(MVS_ITEM_INDEX, 2, 0, 0);
    SENT(out);
    CHECK_ST(mvs_index(&b, 2, it, 2, &out, &nd), MVS_OK);
    CHECK_EQ(nd, 0);
    CHECK_VIEW(&out, 0, &rows[2][1], "", "");
    /* B[:, 0]: an indirect axis behind a kept axis */
    it[0] = item(MVS_ITEM_SLICE, MVS_NONE, MVS_NONE, MVS_NONE);
    it[1] = item(MVS_ITEM_INDEX, 0, 0, 0);
    SENT(out);
    SENT(nd);
    CHECK_ERR(mvs_index(&b, 2, it, 2, &out, &nd), MVS_ERR_INDIRECT, "axis 1 is indirect");
    CHECK_UNTOUCHED(out);
    CHECK_UNTOUCHED(nd);
  }
  /* a[np.newaxis, 1]: the new axis is kept before the indirect one */
  it[0] = item(MVS_ITEM_NEWAXIS, 0, 0, 0);
  it[1] = item(MVS_ITEM_INDEX, 1, 0, 0);
  SENT(out);
  SENT(nd);
  CHECK_ERR(mvs_index(&a, 2, it, 2, &out, &nd), MVS_ERR_INDIRECT, "axis 0 is indirect");
  CHECK_UNTOUCHED(out);
  CHECK_UNTOUCHED(nd);
}

/* Every operation that does not support indirect axes refuses A (axis 0) and B (axis 1). */
static void test_refused(void) {
  mvs_slice views[2], out, outs[2];
  const char *msg[2] = {"axis 0 is indirect", "axis 1 is indirect"};
  int k;
  views[0] = view_a(0);
  views[1] = view_b();
  for (k = 0; k < 2; k++) {
    const mvs_slice *v = &views[k];
    int ax[2] = {1, 0}, src1 = 0, dst1 = 1, r, nd;
    ptrdiff_t t[3], lo, hi;
    SENT(out);
    SENT(r);
    SENT(nd);
    SENT(lo);
    SENT(hi);
    CHECK_ERR(mvs_transpose(v, 2, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_permute(v, 2, ax, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_swap_axes(v, 2, 0, 1, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_move_axes(v, 2, &src1, &dst1, 1, &out), MVS_ERR_INDIRECT, msg[k]);
    t[0] = 5;
    t[1] = v->shape[0];
    t[2] = v->shape[1];
    CHECK_ERR(mvs_broadcast_to(v, 2, 3, t, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_expand_dims(v, 2, 0, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_squeeze_axis(v, 2, 0, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_squeeze(v, 2, &out, &nd), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_diagonal(v, 2, 0, 0, 1, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_flip_axis(v, 2, 0, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_flip_axis(v, 2, 1, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_flip(v, 2, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_sliding_window(v, 2, 1, 2, 1, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_view_as(v, 2, 8, 4, &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_view_as(v, 2, 8, 8, &out), MVS_ERR_INDIRECT, msg[k]);
    t[0] = -1;
    CHECK_ERR(mvs_reshape(v, 2, 8, 1, t, 'C', &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_subview(v, 2, 8, 0, 0, NULL, 'C', &out), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_byte_extent(v, 2, 8, &lo, &hi), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_check_bounds(v, 2, 8, rows, sizeof rows), MVS_ERR_INDIRECT, msg[k]);
    CHECK_ERR(mvs_may_overlap(v, 2, 8, &r), MVS_ERR_INDIRECT, msg[k]);
    CHECK_UNTOUCHED(out);
    CHECK_UNTOUCHED(r);
    CHECK_UNTOUCHED(nd);
    CHECK_UNTOUCHED(lo);
    CHECK_UNTOUCHED(hi);
    /* never contiguous; counts work */
    {
      int c;
      ptrdiff_t n;
      CHECK_ST(mvs_is_contiguous(v, 2, 8, 'C', MVS_CONTIG_NUMPY, &c), MVS_OK);
      CHECK_EQ(c, 0);
      CHECK_ST(mvs_is_contiguous(v, 2, 8, 'F', MVS_CONTIG_CYTHON, &c), MVS_OK);
      CHECK_EQ(c, 0);
      CHECK_ST(mvs_item_count(v, 2, &n), MVS_OK);
      CHECK_EQ(n, v->shape[0] * v->shape[1]);
      CHECK_ST(mvs_byte_count(v, 2, 8, &n), MVS_OK);
      CHECK_EQ(n, 8 * v->shape[0] * v->shape[1]);
    }
  }
  /* the common errors still come first */
  SENT(out);
  CHECK_ERR(mvs_transpose(&views[0], 9, &out), MVS_ERR_NDIM, "ndim 9");
  CHECK_ERR(mvs_flip_axis(&views[0], 2, 2, &out), MVS_ERR_AXIS, "axis 2");
  CHECK_UNTOUCHED(out);
  /* the span rule holds for indirect views too, counting strides only: row pointers 2^62
   * bytes apart span 2^63 + 24 bytes, and nothing is read through them */
  {
    mvs_slice h = view_a(0);
    ptrdiff_t idx[2] = {0, 0}, n;
    void *p;
    int nd, c;
    mvs_index_item it;
    h.strides[0] = (ptrdiff_t)1 << 62;
    it.kind = MVS_ITEM_INDEX;
    it.start = 0;
    it.stop = it.step = 0;
    SENT(out);
    SENT(p);
    SENT(nd);
    SENT(n);
    SENT(c);
    CHECK_ERR(mvs_element_ptr(&h, 2, idx, &p), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_index_axis(&h, 2, 0, 0, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_index(&h, 2, &it, 1, &out, &nd), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_slice_axis(&h, 2, 1, 1, MVS_NONE, MVS_NONE, &out), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_item_count(&h, 2, &n), MVS_ERR_OVERFLOW, "overflow");
    CHECK_ERR(mvs_is_contiguous(&h, 2, 8, 'C', MVS_CONTIG_NUMPY, &c), MVS_ERR_OVERFLOW, "overflow");
    CHECK_UNTOUCHED(out);
    CHECK_UNTOUCHED(p);
    CHECK_UNTOUCHED(nd);
    CHECK_UNTOUCHED(n);
    CHECK_UNTOUCHED(c);
    /* a suboffset of PTRDIFF_MAX is not part of the span */
    h = view_a(PTRDIFF_MAX);
    CHECK_ST(mvs_item_count(&h, 2, &n), MVS_OK);
    CHECK_EQ(n, 12);
    CHECK_ST(mvs_slice_axis(&h, 2, 0, 1, MVS_NONE, MVS_NONE, &out), MVS_OK);
    CHECK_VIEW_SUB(&out, 2, ptrs + 1, "2 4", "8 8", "9223372036854775807 -1");
  }
  /* a direct view with 0-d... and with the indirect axis past ndim is direct */
  SENT(out);
  CHECK_ST(mvs_transpose(&views[1], 1, &out), MVS_OK);
  CHECK_VIEW(&out, 1, cells, "2", "24");
  /* suboffsets below -1 also mean direct, and come out as -1 */
  {
    mvs_slice d = view_a(-5);
    d.data = (char *)rows;
    d.strides[0] = 32;
    SENT(out);
    CHECK_ST(mvs_transpose(&d, 2, &out), MVS_OK);
    CHECK_VIEW(&out, 2, rows, "4 3", "8 32");
    d.suboffsets[0] = PTRDIFF_MIN;
    SENT(out);
    CHECK_ST(mvs_flip(&d, 2, &out), MVS_OK);
    CHECK_VIEW(&out, 2, &rows[2][3], "3 4", "-32 -8");
    CHECK_ELEMS(&out, 2, "203 202 201 200 103 102 101 100 3 2 1 0");
    {
      mvs_index_item items[2] = {{MVS_ITEM_SLICE, 1, MVS_NONE, 1}, {MVS_ITEM_ELLIPSIS, 0, 0, 0}};
      int nd;
      d.suboffsets[1] = -7;
      SENT(out);
      CHECK_ST(mvs_index(&d, 2, items, 2, &out, &nd), MVS_OK);
      CHECK_EQ(nd, 2);
      CHECK_VIEW(&out, 2, &rows[1][0], "2 4", "32 8");
    }
  }
  /* splits follow the suboffsets like slices */
  {
    ptrdiff_t at = 1;
    SENT(outs);
    CHECK_ST(mvs_split_sections(&views[0], 2, 1, 2, 0, outs, 2), MVS_OK);
    CHECK_VIEW_SUB(&outs[0], 2, ptrs, "3 2", "8 8", "0 -1");
    CHECK_VIEW_SUB(&outs[1], 2, ptrs, "3 2", "8 8", "16 -1");
    CHECK_ELEMS(&outs[1], 2, "202 203 2 3 102 103");
    CHECK_PTR(outs[1].memview, &token);
    SENT(outs);
    CHECK_ST(mvs_split_at(&views[0], 2, 0, &at, 1, outs), MVS_OK);
    CHECK_VIEW_SUB(&outs[0], 2, ptrs, "1 4", "8 8", "0 -1");
    CHECK_VIEW_SUB(&outs[1], 2, ptrs + 1, "2 4", "8 8", "0 -1");
    CHECK_ELEMS(&outs[1], 2, "0 1 2 3 100 101 102 103");
  }
}

int main(void) {
  setup();
  test_element_ptr();
  test_index_axis();
  test_slice_axis();
  test_index();
  test_refused();
  return check_summary("test_indirect");
}
