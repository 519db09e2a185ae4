/* The shared part of the fuzz target over memviewslice's exported functions (fuzz/fuzz_api.c
 * describes the target, its oracles and its files): the macros and types, and the functions
 * and state each file shares, each defined in the file named above its declarations. */
#ifndef MVS_FUZZ_HARNESS_H
#define MVS_FUZZ_HARNESS_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS under -std=c11 */
#endif
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "memviewslice.h"

/* ---- the model's numbers and error sets ------------------------------------------------------ */

__extension__ typedef __int128 i128;
#define PMAX ((i128)PTRDIFF_MAX)
#define PMIN ((i128)PTRDIFF_MIN)
#define FITS(v) ((v) >= PMIN && (v) <= PMAX)
/* Error sets: bit k stands for status k. */
#define B(st) (1u << (st))
#define M_NULL B(MVS_ERR_NULL)
#define M_NDIM B(MVS_ERR_NDIM)
#define M_AXIS B(MVS_ERR_AXIS)
#define M_ITEM B(MVS_ERR_ITEMSIZE)
#define M_SHAPE B(MVS_ERR_SHAPE)
#define M_INDEX B(MVS_ERR_INDEX)
#define M_STEP B(MVS_ERR_STEP)
#define M_OVF B(MVS_ERR_OVERFLOW)
#define M_COPY B(MVS_ERR_NEEDS_COPY)
#define M_IND B(MVS_ERR_INDIRECT)
#define M_BOUNDS B(MVS_ERR_BOUNDS)
#define M_BCAST B(MVS_ERR_BROADCAST)
#define M_NCONTIG B(MVS_ERR_NOT_CONTIGUOUS)
#define M_VALUE B(MVS_ERR_VALUE)
#define M_ALLOC B(MVS_ERR_ALLOC)
#define M_DEVICE B(MVS_ERR_DEVICE)
#define M_DTYPE B(MVS_ERR_DTYPE)
#define M_VERSION B(MVS_ERR_VERSION)
#define M_OVERLAP B(MVS_ERR_OVERLAP)
#define M_PRODUCER B(MVS_ERR_PRODUCER)
/* The last status code. */
#define LAST_STATUS MVS_ERR_PRODUCER
#define MAXD MVS_MAX_DIMS

/* ---- the current call (harness.c) --------------------------------------------------------- */

#define NCV 4
#define NCI 16

/* ---- guarded slots, arenas, the pointer table (harness.c) --------------------------------- */

enum { SL_SRC, SL_SRC2, SL_OUT, SL_OUT2, SL_OUT3, SL_ARR1, SL_ARR2, SL_ARR3, SL_ITEM, SL_OUTS, NSLOT };
#define CANARY 0x5C
#define SENT 0xAB
#define MAXOUTS 4096 /* split outputs in SL_OUTS */
typedef struct {
  unsigned char *lo;
  size_t cap, off, len;
  int used;
} slot_t;
/* The arenas: memory the data-movement functions read and write; the pointer table: what
 * indirect dimensions point at. */
#define ARENA 8192
#define TABLE 4096
#define MAXITEMS 4096

/* ---- the views a program works on, and a derivation's call (harness.c) -------------------- */

#define NV 8
typedef struct {
  mvs_slice s;
  int ndim;
  ptrdiff_t isz;
} pv_t;
/* A derivation's call: the source (a program view, sometimes with another ndim) in SL_SRC,
 * NULL, or the output itself; the output in SL_OUT filled with the sentinel, or NULL. */
typedef struct {
  mvs_slice *src, *out;
  mvs_slice sv; /* the source's value before the call */
  int ndim, inplace, valid;
  ptrdiff_t isz;
  ptrdiff_t out_isz; /* the result's item size when it differs (view_as), else 0 */
} dc_t;

/* ---- splits (fuzz_reshape_split.c; the regressions use it) -------------------------------- */

#define IMPOSSIBLE (PTRDIFF_MAX / (ptrdiff_t)sizeof(mvs_slice))

/* ---- the buffers' model (fuzz_buffer.c) ---------------------------------------------------- */

#define NB 6
#define NATT 4
enum { BK_ALLOC, BK_WRAP, BK_COPY, BK_SLAB };
typedef struct att_s {
  const void *key;
  int owner, memref, calls, has_detach;
} att_t;
typedef struct {
  mvs_buffer *b;
  int state; /* 0 unused, 1 referenced, 2 only memory references left */
  int kind, readonly, has_dealloc, deallocs, expect_free, pool;
  ptrdiff_t refs, mrefs; /* references, and memory references beyond the one all references share */
  ptrdiff_t held;        /* the references this program holds (a slab's: refs less the pool's) */
  char *data;
  ptrdiff_t nbytes;
  int natt;
  att_t att[NATT];
} brec_t;

/* ---- the pools' model (fuzz_pool.c) -------------------------------------------------------- */

#define NPL 3
#define NARR 48
typedef struct {
  mvs_pool *p;
  int live, ndim, order, nslabs, narr, nstack;
  ptrdiff_t isz, bytes, slot, cap, total, acquired, shape[MAXD];
  struct {
    char *data;
    int acq;
    unsigned char tag;
    brec_t *slab; /* known from mvs_pool_acquire_slab */
  } arr[NARR];
  int stack[NARR]; /* arrays given back, the last on top (indices into arr) */
} prec_t;

/* ---- harness.c ------------------------------------------------------------------------------- */

extern int fuzz_huge_allocs;
const char *stname(int s);
struct call_ctx {
  const char *fn;
  int nv, ni;
  const char *vname[NCV];
  mvs_slice v[NCV];
  int vnd[NCV], vnull[NCV];
  const char *iname[NCI];
  long long ival[NCI];
};
extern struct call_ctx g_c;
extern unsigned long g_calls;
void ctx(const char *fn);
void ctx_v(const char *name, const mvs_slice *s, int ndim);
void ctx_i(const char *name, long long v);
extern const char *g_skip;
void fail(const char *fmt, ...);
extern const uint8_t *g_in;
extern size_t g_len, g_pos;
unsigned u8(void);
uint64_t u64(void);
unsigned below(unsigned n);
int one_in(unsigned k);
ptrdiff_t huge(void);
ptrdiff_t small_signed(int m);
int gen_ndim(void);
ptrdiff_t gen_extent(void);
ptrdiff_t gen_itemsize(void);
int gen_axis(int n);
ptrdiff_t gen_bound(ptrdiff_t len);
ptrdiff_t gen_step(void);
int gen_order(void);
extern size_t g_page;
unsigned char *map_guarded(size_t bytes);
extern slot_t g_sl[NSLOT];
extern unsigned char g_canary[4096];
void *slot_put(int k, size_t len, size_t align);
void *empty_arr(int k);
ptrdiff_t *shape_arg(const ptrdiff_t *extents, int m);
void slots_done(void);
int is_sent(const void *p, size_t n);
extern unsigned char *g_ar[2];
extern unsigned char *g_table;
extern unsigned char g_snap[2][ARENA], g_exp[2][ARENA], g_cov[2][ARENA], g_okb[2][ARENA];
extern uint64_t g_rng;
uint64_t xrand(void);
int arena_at(const char *p, size_t n, size_t *off);
char *load_ptr(uintptr_t addr);
i128 iabs(i128 v);
i128 smul(i128 a, i128 b);
char *addr_add(const char *p, i128 off);
i128 addr_diff(const void *b, const void *a);
int zero_size(const mvs_slice *s, int n);
i128 items_of(const ptrdiff_t *shape, int n);
i128 span_of(const mvs_slice *s, int n);
int direct_of(const mvs_slice *s, int n);
unsigned view_errs(const mvs_slice *s, int n);
int extent_of(const mvs_slice *s, int n, ptrdiff_t isz, i128 *lo, i128 *hi);
int norm_axis(long long axis, int n);
ptrdiff_t kept_sub(ptrdiff_t s);
mvs_slice empty_view(char *data, void *memview);
mvs_slice norm_copy(const mvs_slice *s, int n);
void push_axis(mvs_slice *r, int *n, ptrdiff_t len, ptrdiff_t stride, ptrdiff_t sub);
void remove_axis(mvs_slice *r, int n, int a);
unsigned m_shift(mvs_slice *r, int at, i128 move, i128 *moved);
int py_slice(i128 len, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, i128 *first, i128 *count, i128 *stepv);
int contig_strides(const ptrdiff_t *shape, int n, ptrdiff_t isz, int order, ptrdiff_t *st);
int contig_rule(const mvs_slice *s, int n, ptrdiff_t isz, int order, int strict);
int next_idx(ptrdiff_t *idx, const ptrdiff_t *shape, int n);
char *elem_addr(const mvs_slice *s, int n, const ptrdiff_t *idx);
int deref_safe(const mvs_slice *s, int n);
extern pv_t g_pv[NV];
ptrdiff_t pick_isz(void);
void *gen_token(void);
char *gen_wild_data(void);
void place_arena(mvs_slice *s, int n, ptrdiff_t isz, int w);
void gen_arena_view_n(pv_t *v, int n, ptrdiff_t isz);
void gen_view(pv_t *v);
void pre_call(void);
void check_void_call(void);
void check_status(int st, unsigned must, unsigned tol);
void check_view_result(const mvs_slice *src, int sn, const mvs_slice *got, mvs_slice *exp, int en, unsigned free, ptrdiff_t isz, const char *what);
void store_view(const mvs_slice *s, int n, ptrdiff_t isz);
void dc_begin(dc_t *d, const char *fn);
unsigned dc_errs(const dc_t *d);
void dc_end(dc_t *d, int st, unsigned must, unsigned tol, mvs_slice *exp, int en, unsigned free);

/* ---- fuzz_index.c ---------------------------------------------------------------------------- */

unsigned m_slice(const mvs_slice *s, int n, int axis, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, mvs_slice *r);
void op_slice_axis(void);
void op_index_axis(void);
void op_index(void);

/* ---- fuzz_reshape_split.c -------------------------------------------------------------------- */

void op_reshape(void);
void op_subview(void);
void op_split_sections(void);
void op_split_at(void);

/* ---- fuzz_axes.c ----------------------------------------------------------------------------- */

int nd_add(int n, int k);
void op_transpose(void);
void op_permute(void);
void op_swap_axes(void);
void op_move_axes(void);
void op_broadcast_to(void);
void op_expand_dims(void);
void op_squeeze_axis(void);
void op_squeeze(void);
void op_diagonal(void);
void op_flip(void);
void op_sliding_window(void);
void op_view_as(void);

/* ---- fuzz_construct.c ------------------------------------------------------------------------ */

void check_same(const void *p, const void *copy, size_t n, const char *what);
mvs_slice *out_slice(void);
void check_out_failed(int st, const void *out, size_t n, const char *what);
void op_view_contiguous(void);
void op_view_strided(void);
void op_new_view(void);

/* ---- fuzz_query.c ---------------------------------------------------------------------------- */

void op_is_contiguous(void);
void op_counts(void);
void op_byte_extent(void);
void op_check_bounds(void);
void op_may_overlap(void);
void op_element_ptr(void);

/* ---- fuzz_copy.c ----------------------------------------------------------------------------- */

void mem_view(pv_t *v, ptrdiff_t isz, int once0);
void snapshot(void);
void check_arenas(int wrote, const mvs_slice *s, int sn, const mvs_slice *d, int dn, ptrdiff_t isz, const unsigned char *item, int once0);
void op_copy(void);
void op_fill(void);

/* ---- fuzz_buffer.c --------------------------------------------------------------------------- */

extern brec_t g_b[NB];
extern const char g_keys[4];
brec_t *free_brec(void);
brec_t *brec_of(const mvs_buffer *b);
brec_t *init_brec(brec_t *r, mvs_buffer *b, int kind, void *data, ptrdiff_t nbytes, int readonly);
void release_ref(brec_t *r);
void release_mem(brec_t *r);
void op_buffer_new(void);
void op_buffer_ref(void);
void op_buffer_attach(void);
void op_buffer_query(void);
void op_buffer_view(void);
void op_buffer_of(void);
void op_copy_contiguous(void);

/* ---- fuzz_pool.c ----------------------------------------------------------------------------- */

extern prec_t g_p[NPL];
void op_pool_create(void);
void op_pool_acquire(void);
void op_pool_release(void);
void op_pool_counts(void);
void destroy_pool(prec_t *p);
void op_pool_destroy(void);

/* ---- fuzz_dlpack.c --------------------------------------------------------------------------- */

void op_dlpack_import(void);
void op_dlpack_import_object(void);

/* ---- fuzz_iter.c ----------------------------------------------------------------------------- */

void op_iter(void);

/* ---- fuzz_inline.c ---------------------------------------------------------------------- */
/* The inline paths of mvs_inline.h beside the library's call an op just made (d: its source
 * before the call, ndim, output, in place or not; st: the library's status). */
void inline_slice_axis(const dc_t *d, int axis, ptrdiff_t start, ptrdiff_t stop, ptrdiff_t step, int st);
void inline_index_axis(const dc_t *d, int axis, ptrdiff_t index, int st);
void inline_index(const dc_t *d, const mvs_index_item *items, int nitems, int st, const int *lib_on);
void inline_transpose(const dc_t *d, int st);
void inline_subview(const dc_t *d, ptrdiff_t isz, ptrdiff_t offset, int m, const ptrdiff_t *ext, int order, int st);
void inline_view_contiguous(void *data, ptrdiff_t isz, int n, const ptrdiff_t *shape, int order, const mvs_slice *out, int st);
void op_inline(void);
void inline_report(void);

#endif /* MVS_FUZZ_HARNESS_H */
