/* A fuzz target over every exported function of memviewslice (include/memviewslice.h).
 *
 * Coverage: LLVMFuzzerTestOneInput decodes its bytes into a program of up to 64 calls of the 65
 * exported functions: constructors, derivations, splits, queries, mvs_copy / mvs_fill /
 * mvs_copy_contiguous, buffers (alloc, wrap, retain and release, memory references,
 * attachments, queries, views, buffer_of), pools (create, acquire, acquire_slab, release,
 * counts, destroy), mvs_status_str and mvs_last_error, and DLPack: random tensors imported
 * (versioned and legacy), each success exported again and imported again, the deleter counted
 * (op_dlpack_import; the exports see only views of imports), and the same tensors handed out by
 * fake producers through random exchange API tables (op_dlpack_import_object: version chains,
 * cycles, NULL functions, failing producers). A program keeps 8 views, 6 buffers and
 * 3 pools, so that calls build on earlier results (a split piece gets reshaped, then copied).
 * Arguments are mostly plausible (small shapes, strides of either sign and any size, ndim
 * -1..9, axes out of range, MVS_NONE, values near PTRDIFF_MAX and PTRDIFF_MIN, NULL for each
 * pointer, impossible counts) and sometimes wild. Views that a call reads or writes through lie
 * in two 8 KiB arenas (indirect views that a call dereferences, in a table of pointers), or are
 * ones the library must refuse before touching memory; views for the other calls may point
 * anywhere, since the library never dereferences them. The bugs fixed before this target
 * existed (mvs_split_at's impossible nindices, mvs_split_sections' impossible sections,
 * mvs_flip / mvs_index on zero-size views whose total move overflows) are checked once per run.
 *
 * Guard pages: every object the library reads or writes through a pointer (source and
 * destination mvs_slice structs, outputs, shape/strides/axes/index/items arrays, split outputs,
 * fill items, the arenas, the pointer table) lies flush against a PROT_NONE page, at the end of
 * its region (mostly) or at its start, so that a one-byte overrun faults; the bytes around an
 * object are a canary, checked after every call.
 *
 * Oracles, after every call (abort() after printing the call and what failed):
 * - the status is MVS_OK or one of the errors the header gives for the function in that case,
 *   never MVS_ERR_INTERNAL: a model written here from the header gives either the exact result
 *   or the set of errors that apply (any of them may be returned: the header gives no order,
 *   except mvs_index's first failing item);
 * - on failure every output is byte-identical to its pre-filled sentinel (an in-place source
 *   unchanged), and mvs_last_error() is a message of at most 255 bytes; on success the message
 *   is unchanged; the inputs never change; mvs_status_str knows every returned code;
 * - results equal the model's byte for byte, entries past ndim (shape 0, stride 0, suboffset
 *   -1), direct suboffsets (-1) and memview included: slice_axis against Python's slice
 *   arithmetic (CPython's PySlice_AdjustIndices), index_axis / index / element_ptr through PEP
 *   3118 suboffsets, transpose, permute, swap and move (NumPy's moveaxis), broadcast_to,
 *   expand_dims, squeezes, diagonal, flips, sliding windows, both splits (as slices), subview,
 *   reshape (NumPy's no-copy rule, and its items checked again one by one), view_as (NumPy's
 *   rule for another item size: the new last extent and stride, the span), the constructors,
 *   the queries against products, byte extents, the bounds rule and ndarray's overlap rule;
 * - a derived direct view of nonzero size lies inside its source's byte extent, as the model
 *   and mvs_byte_extent (which must agree) give it (for view_as, its items of the new size
 *   inside the source's items of the old);
 * - mvs_copy and mvs_fill against an element-by-element reference on a snapshot of the arenas
 *   (the source read first, as the header promises): every byte outside the destination
 *   unchanged, every other as the reference wrote it (where destination items overlap each
 *   other, one of the values written there); on failure nothing written; mvs_copy_contiguous's
 *   new buffer (64-byte aligned, exactly the items' bytes, one reference) holds the items in
 *   order, its view contiguous in the order asked;
 * - buffers: reference counts as modelled; attachments found under their keys, detached exactly
 *   once at the last reference and before the memory goes; the memory freed (the counting
 *   deallocation callback of mvs_buffer_wrap run) exactly once, only when no reference or
 *   memory reference remains, never on a failed wrap; alloc'd memory aligned, zeroed when
 *   asked, writable to its end; pools: counts, the last array given back handed out first,
 *   arrays 64-byte aligned, a slot apart, writable and undisturbed while acquired, kept alive
 *   by a retained slab after mvs_pool_destroy; ASan's leak check at the end;
 * - include/mvs_inline.h: each MVS_INLINE_* macro and mvs_inline_view_contiguous run beside
 *   the library's call on the same arguments (the ops' and op_inline's hostile sources at the
 *   usual bounds): a macro takes the case exactly when its comment says so, then gives the
 *   library's bytes (and out_ndim); when it declines it writes nothing (fuzz_inline.c).
 *
 * Files: harness.h / harness.c the shared harness (the current call and its report, the input
 * decoder and argument generators, guarded slots, arenas and pointer table, the model's
 * arithmetic on views, the program's views, the checks every call shares); fuzz_index.c
 * (slice_axis, index_axis, index), fuzz_reshape_split.c (reshape, subview, splits),
 * fuzz_axes.c (the axis derivations and view_as), fuzz_construct.c, fuzz_query.c, fuzz_copy.c
 * (copy, fill), fuzz_buffer.c (buffers, attachments, copy_contiguous), fuzz_pool.c,
 * fuzz_dlpack.c, fuzz_inline.c (mvs_inline.h); this file: status strings, the regressions,
 * the programs (the table of operations and their weights) and the entry point.
 *
 * Running it: `make fuzz FUZZ_SECONDS=N` (libFuzzer through clang when clang is on PATH, with a
 * coverage-instrumented copy of the library; else the seeded driver fuzz/driver.c) and `make
 * fuzz-smoke` (the driver for 60 s with a fixed seed; part of `make test`); ASan and UBSan
 * either way. By hand: build/fuzz/driver SECONDS [SEED], build/fuzz/driver --replay FILE...,
 * build/fuzz/fuzz_api [libFuzzer options] [corpus or crash file]. An input that fails is saved
 * in build/fuzz/. While a finding awaits its fix, MVS_FUZZ_SKIP="substring;substring" reports
 * each failure whose line contains one of the substrings once and goes on;
 * MVS_FUZZ_STATS=1 makes the driver print the statuses each function returned.
 */
#include "harness.h"

/* ---- mvs_status_str, mvs_last_error ------------------------------------------------------- */

static void op_status(void) {
  int code = one_in(2) ? (int)below(26) - 3 : (int)u64();
  const char *s, *m;
  ctx("mvs_status_str");
  ctx_i("status", code);
  pre_call();
  s = mvs_status_str(code);
  if (!s || !s[0]) fail("gave an empty description");
  if ((code >= 0 && code <= LAST_STATUS) != (strcmp(s, "unknown status code") != 0)) fail("describes %d as \"%s\"", code, s);
  check_void_call();
  ctx("mvs_last_error");
  m = mvs_last_error();
  if (!m || strlen(m) > 255) fail("gave %s", m ? "a message of more than 255 bytes" : "NULL");
}

/* ---- the bugs fixed before this target existed, checked once per run ---------------------- */

/* Room for len bytes flush against the upper guard of slot k (deterministic). */
static void *slot_end(int k, size_t len) {
  slot_t *s = &g_sl[k];
  s->off = s->cap - len;
  s->len = len;
  s->used = 1;
  return s->lo + s->off;
}
static void regressions(void) {
  static const ptrdiff_t shape0[3] = {2, 2, 0}, strides0[3] = {(ptrdiff_t)1 << 62, (ptrdiff_t)1 << 62, 8};
  mvs_slice *src, *outs, v;
  ptrdiff_t *ind, six = 6, counts[2] = {(ptrdiff_t)1 << 61, PTRDIFF_MAX};
  mvs_index_item *items;
  int k, st, *on;
  clock_t t0;
  /* mvs_split_at with an impossible count read past its 2-entry array. */
  for (k = 0; k < 2; k++) {
    ctx("mvs_split_at (regression: impossible nindices)");
    ctx_i("nindices", counts[k]);
    src = slot_end(SL_SRC, sizeof *src);
    if (mvs_view_contiguous(g_ar[0], 8, 1, &six, 'C', src) != MVS_OK) fail("cannot build the view");
    ind = slot_end(SL_ARR1, 2 * sizeof *ind);
    ind[0] = 1, ind[1] = 3;
    outs = slot_end(SL_OUTS, sizeof *outs);
    memset(outs, SENT, sizeof *outs);
    pre_call();
    st = mvs_split_at(src, 1, 0, ind, counts[k], outs);
    check_status(st, M_VALUE, 0);
    if (!is_sent(outs, sizeof *outs)) fail("wrote its output");
    slots_done();
  }
  /* mvs_split_sections with sections == nouts past PTRDIFF_MAX / sizeof(mvs_slice) took hours. */
  for (k = 0; k < 3; k++) {
    ptrdiff_t n = k == 0 ? IMPOSSIBLE + 1 : k == 1 ? PTRDIFF_MAX : IMPOSSIBLE + 1000;
    ctx("mvs_split_sections (regression: impossible sections)");
    ctx_i("sections = nouts", n);
    src = slot_end(SL_SRC, sizeof *src);
    if (mvs_view_contiguous(g_ar[0], 8, 1, &six, 'C', src) != MVS_OK) fail("cannot build the view");
    outs = slot_end(SL_OUTS, sizeof *outs);
    memset(outs, SENT, sizeof *outs);
    t0 = clock();
    pre_call();
    st = mvs_split_sections(src, 1, 0, n, 1, outs, n);
    check_status(st, M_VALUE, 0);
    if ((double)(clock() - t0) / CLOCKS_PER_SEC > 1.0) fail("took %.1f s to refuse", (double)(clock() - t0) / CLOCKS_PER_SEC);
    if (!is_sent(outs, sizeof *outs)) fail("wrote its output");
    slots_done();
  }
  /* mvs_flip and mvs_index moved a zero-size view's data address by 2^63 and said MVS_OK. */
  v = empty_view((char *)g_ar[0] + 64, NULL);
  for (k = 0; k < 3; k++) v.shape[k] = shape0[k], v.strides[k] = strides0[k];
  ctx("mvs_flip (regression: zero-size view, total move 2^63)");
  ctx_v("src", &v, 3);
  src = slot_end(SL_SRC, sizeof *src);
  *src = v;
  outs = slot_end(SL_OUT, sizeof *outs);
  memset(outs, SENT, sizeof *outs);
  pre_call();
  st = mvs_flip(src, 3, outs);
  check_status(st, M_OVF, 0);
  if (!is_sent(outs, sizeof *outs)) fail("wrote its output");
  slots_done();
  ctx("mvs_index (regression: zero-size view, total move 2^63)");
  ctx_v("src", &v, 3);
  src = slot_end(SL_SRC, sizeof *src);
  *src = v;
  items = slot_end(SL_ARR1, 2 * sizeof *items);
  memset(items, 0, 2 * sizeof *items);
  items[0].kind = items[1].kind = MVS_ITEM_INDEX;
  items[0].start = items[1].start = 1;
  outs = slot_end(SL_OUT, sizeof *outs);
  memset(outs, SENT, sizeof *outs);
  on = slot_end(SL_OUT2, sizeof *on);
  memset(on, SENT, sizeof *on);
  pre_call();
  st = mvs_index(src, 3, items, 2, outs, on);
  check_status(st, M_OVF, 0);
  if (!is_sent(outs, sizeof *outs) || !is_sent(on, sizeof *on)) fail("wrote its output");
  slots_done();
}

/* ---- programs ---------------------------------------------------------------------------------- */

/* Gives back everything a program still holds, checking that each wrapped block is freed
 * exactly once. */
static void cleanup(void) {
  int i;
  ctx("end of the program");
  for (i = 0; i < NPL; i++)
    if (g_p[i].live) destroy_pool(&g_p[i]);
  for (i = 0; i < NB; i++) {
    brec_t *r = &g_b[i];
    ctx_i("buffer record", i);
    while (r->state == 1 && r->held > 0) {
      r->held--;
      release_ref(r);
    }
    while (r->state == 2 && r->mrefs > 0) release_mem(r);
    if (r->state == 1) fail("fuzzer: buffer record %d still has %td references", i, r->refs);
    if (r->has_dealloc && r->deallocs != 1) fail("a wrapped block was freed %d times", r->deallocs);
    r->state = 0;
    g_c.ni--;
  }
}

typedef void (*op_fn)(void);
static const struct {
  op_fn f;
  int weight;
} OPS[] = {
    {op_new_view, 6},      {op_view_contiguous, 2}, {op_view_strided, 2},   {op_subview, 3},       {op_slice_axis, 5},
    {op_index_axis, 3},    {op_index, 5},           {op_reshape, 4},        {op_transpose, 1},     {op_permute, 2},
    {op_swap_axes, 1},     {op_move_axes, 2},       {op_broadcast_to, 2},   {op_expand_dims, 1},   {op_squeeze_axis, 1},
    {op_squeeze, 1},       {op_diagonal, 2},        {op_flip, 2},           {op_sliding_window, 2}, {op_split_sections, 2},
    {op_split_at, 2},      {op_is_contiguous, 2},   {op_counts, 1},         {op_byte_extent, 1},   {op_check_bounds, 2},
    {op_may_overlap, 2},   {op_element_ptr, 3},     {op_copy, 7},           {op_fill, 3},          {op_copy_contiguous, 2},
    {op_buffer_new, 2},    {op_buffer_ref, 2},      {op_buffer_attach, 1},  {op_buffer_query, 1},  {op_buffer_view, 2},
    {op_buffer_of, 1},     {op_pool_create, 1},     {op_pool_acquire, 2},   {op_pool_release, 2},  {op_pool_counts, 1},
    {op_pool_destroy, 1},  {op_status, 1},          {op_dlpack_import, 3}, {op_view_as, 2},
    {op_inline, 4},        {op_iter, 3},            {op_dlpack_import_object, 2}};
#define NOPS (sizeof OPS / sizeof OPS[0])
static unsigned char g_optab[256];
static unsigned g_nopt;
static int g_ready;

static void init(void) {
  size_t k, i;
  int a, b;
  g_page = (size_t)sysconf(_SC_PAGESIZE);
  memset(g_canary, CANARY, sizeof g_canary);
  for (k = 0; k < NSLOT; k++) {
    g_sl[k].cap = k == SL_OUTS ? (size_t)1 << 20 : g_page;
    g_sl[k].lo = map_guarded(g_sl[k].cap);
    memset(g_sl[k].lo, CANARY, g_sl[k].cap);
  }
  g_ar[0] = map_guarded(ARENA);
  g_ar[1] = map_guarded(ARENA);
  g_table = map_guarded(TABLE);
  for (k = 0; k < NOPS; k++)
    for (i = 0; i < (size_t)OPS[k].weight; i++) g_optab[g_nopt++] = (unsigned char)k;
  g_skip = getenv("MVS_FUZZ_SKIP");
  for (a = 0; a <= LAST_STATUS; a++)
    for (b = 0; b < a; b++)
      if (strcmp(mvs_status_str(a), mvs_status_str(b)) == 0) fail("mvs_status_str gives %d and %d the same description", a, b);
  regressions();
}

/* The program's start: arenas and table filled from a seed the input gives, eight views made
 * from the same seed (so that even a short input has material). */
static void begin(const uint8_t *data, size_t size) {
  static uint8_t seedbytes[768];
  size_t i;
  g_in = data;
  g_len = size;
  g_pos = 0;
  g_rng = 0x9E3779B97F4A7C15ull ^ ((uint64_t)u8() | (uint64_t)u8() << 8 | (uint64_t)u8() << 16);
  for (i = 0; i < ARENA; i++) g_ar[0][i] = (unsigned char)xrand(), g_ar[1][i] = (unsigned char)xrand();
  for (i = 0; i + sizeof(char *) <= TABLE; i += sizeof(char *)) {
    uint64_t r = xrand();
    char *p = r % 4 == 0 ? (char *)(uintptr_t)(r >> 8) : r % 4 == 1 ? (char *)g_ar[r >> 62 & 1] + (r >> 20) % ARENA : (char *)g_table + (r >> 20) % TABLE;
    memcpy(g_table + i, &p, sizeof p);
  }
  for (i = 0; i < sizeof seedbytes; i++) seedbytes[i] = (uint8_t)xrand();
  g_in = seedbytes;
  g_len = sizeof seedbytes;
  g_pos = 0;
  for (i = 0; i < NV; i++) gen_view(&g_pv[i]);
  g_in = data;
  g_len = size;
  g_pos = size < 3 ? size : 3;
  memset(g_b, 0, sizeof g_b);
  memset(g_p, 0, sizeof g_p);
}

unsigned long fuzz_calls(void);
unsigned long fuzz_calls(void) { return g_calls; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int nops = 0;
  if (!g_ready) {
    g_ready = 1;
    init();
  }
  begin(data, size);
  while (g_pos < g_len && nops++ < 64) OPS[g_optab[below(g_nopt)]].f();
  cleanup();
  return 0;
}
