# cython: boundscheck=False, wraparound=False, initializedcheck=False
# The compiled loops of benches/iter_bench.py (issue 34's speed targets): memviewslice's
# elementwise iteration (mvs_apply with a ufunc-style inner loop, mvs_iter_init, mvs_iter_next)
# against a hand-written C loop over the flat arrays, the plain Cython nested loops a user writes
# over typed memoryviews, and NumPy's own iterator (NpyIter, through NumPy's C API). Every
# function returns the ns of `n` rounds; each round first makes its inputs opaque to the
# compiler (an empty asm statement with a memory clobber, as criterion's black_box), so nothing
# is hoisted out of the rounds. The C parts are verbatim blocks, built at the same -O level as
# the rest of the module (tools/build_ext.py).
from libc.stdint cimport uint32_t
from time import perf_counter_ns

cimport memviewslice as mvs

cdef extern from *:
    """
    #define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
    #include <numpy/arrayobject.h>

    /* A pointer the compiler must assume changed, and all memory with it. */
    static inline void *iter_bench_opaque(void *p) {
        __asm__ volatile("" : "+r"(p) : : "memory");
        return p;
    }

    /* The baseline: c = a + b over the flat arrays, as one writes it in C. */
    static void iter_bench_c_add(const double *a, const double *b, double *c, ptrdiff_t n) {
        for (ptrdiff_t i = 0; i < n; i++) c[i] = a[i] + b[i];
    }

    /* out = in1 + in2 as a NumPy ufunc inner loop (args: in1, in2, out), the way NumPy's own
       double add loop is laid out: a contiguous fast path the compiler vectorizes, the reduce
       layout (out is in1, neither moves: NumPy's IS_BINARY_REDUCE), which accumulates in
       registers with several partial sums as NumPy's loops do (its add.reduce uses 8 partial
       sums, pairwise), and the general strided loop. */
    static void iter_bench_add(char **args, const ptrdiff_t *dimensions, const ptrdiff_t *steps,
                               void *data) {
        ptrdiff_t n = dimensions[0];
        char *ip1 = args[0], *ip2 = args[1], *op = args[2];
        ptrdiff_t is1 = steps[0], is2 = steps[1], os = steps[2];
        (void)data;
        if (ip1 == op && is1 == 0 && os == 0) {
            double r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;
            ptrdiff_t i = 0;
            if (is2 == sizeof(double)) {
                const double *x = (const double *)ip2;
                for (; i + 8 <= n; i += 8) {
                    r0 += x[i]; r1 += x[i + 1]; r2 += x[i + 2]; r3 += x[i + 3];
                    r4 += x[i + 4]; r5 += x[i + 5]; r6 += x[i + 6]; r7 += x[i + 7];
                }
                for (; i < n; i++) r0 += x[i];
            } else {
                for (; i < n; i++, ip2 += is2) r0 += *(const double *)ip2;
            }
            *(double *)op += ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
            return;
        }
        if (is1 == sizeof(double) && is2 == sizeof(double) && os == sizeof(double)) {
            const double *a = (const double *)ip1, *b = (const double *)ip2;
            double *c = (double *)op;
            for (ptrdiff_t i = 0; i < n; i++) c[i] = a[i] + b[i];
            return;
        }
        for (ptrdiff_t i = 0; i < n; i++, ip1 += is1, ip2 += is2, op += os)
            *(double *)op = *(const double *)ip1 + *(const double *)ip2;
    }

    /* A loop that does nothing: the driver's own cost per run. */
    static void iter_bench_nop(char **args, const ptrdiff_t *dimensions, const ptrdiff_t *steps,
                               void *data) {
        (void)args; (void)dimensions; (void)steps; (void)data;
        __asm__ volatile("");
    }
    """
    void *opaque "iter_bench_opaque"(void *p) nogil
    void c_add "iter_bench_c_add"(const double *a, const double *b, double *c, Py_ssize_t n) nogil
    void add_loop "iter_bench_add"(char **args, const Py_ssize_t *dimensions, const Py_ssize_t *steps, void *data) noexcept nogil
    void nop_loop "iter_bench_nop"(char **args, const Py_ssize_t *dimensions, const Py_ssize_t *steps, void *data) noexcept nogil

    # NumPy's iterator (numpy/ndarraytypes.h, numpy/__multiarray_api.h)
    ctypedef struct NpyIter:
        pass
    ctypedef struct PyArrayObject:
        pass
    ctypedef struct PyArray_Descr:
        pass
    enum:
        NPY_ITER_EXTERNAL_LOOP
        NPY_ITER_READONLY
        NPY_ITER_WRITEONLY
        NPY_KEEPORDER
        NPY_NO_CASTING
    NpyIter *NpyIter_MultiNew(Py_ssize_t nop, PyArrayObject **op, uint32_t flags, int order, int casting,
                              uint32_t *op_flags, PyArray_Descr **op_dtypes)
    int NpyIter_Deallocate(NpyIter *it)
    int _import_array() except -1

_import_array()

cdef Py_ssize_t ITEMSIZES[3]
ITEMSIZES[:] = [8, 8, 8]
cdef uint32_t FLAGS_ADD[3]                       # c = a + b
FLAGS_ADD[:] = [mvs.MVS_ITER_READ, mvs.MVS_ITER_READ, mvs.MVS_ITER_WRITE]
cdef uint32_t FLAGS_REDUCE[3]                    # s = s + x, s broadcast
FLAGS_REDUCE[:] = [mvs.MVS_ITER_READ, mvs.MVS_ITER_READ, mvs.MVS_ITER_WRITE | mvs.MVS_ITER_REDUCE]
cdef int K = c'K'


# --- c = a + b --------------------------------------------------------------------------------

def mvs_add_2d(const double[:, :] a, const double[:, :] b, double[:, :] c, Py_ssize_t n):
    """n rounds of mvs_apply(c = a + b) with the add loop, in nogil code."""
    cdef const mvs.mvs_slice *ops[3]
    cdef int ndims[3]
    ndims[:] = [2, 2, 2]
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            ops[0] = mvs.mvs_pyx_src(a)
            ops[1] = mvs.mvs_pyx_src(b)
            ops[2] = mvs.mvs_pyx_src(c)
            opaque(ops)
            mvs.mvs_pyx_check(mvs.mvs_apply(3, ops, ndims, ITEMSIZES, FLAGS_ADD, K, add_loop, NULL))
    return perf_counter_ns() - t


def c_add_flat(const double[::1] a, const double[::1] b, double[::1] c, Py_ssize_t n):
    """n rounds of the hand-written C loop over the flat arrays."""
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            c_add(<const double *>opaque(<void *>&a[0]), <const double *>opaque(<void *>&b[0]),
                  <double *>opaque(&c[0]), c.shape[0])
    return perf_counter_ns() - t


def cython_add(const double[:, ::1] a, const double[:, ::1] b, double[:, ::1] c, Py_ssize_t n):
    """n rounds of the plain Cython nested loop c[i, j] = a[i, j] + b[i, j]."""
    cdef Py_ssize_t r, i, j
    t = perf_counter_ns()
    with nogil:
        for r in range(n):
            opaque(&c[0, 0])
            for i in range(c.shape[0]):
                for j in range(c.shape[1]):
                    c[i, j] = a[i, j] + b[i, j]
    return perf_counter_ns() - t


def cython_add_t(const double[:, ::1] a, const double[:, ::1] b, double[:, ::1] c, Py_ssize_t n):
    """n rounds of the plain Cython nested loop c[i, j] = a[i, j] + b[j, i]."""
    cdef Py_ssize_t r, i, j
    t = perf_counter_ns()
    with nogil:
        for r in range(n):
            opaque(&c[0, 0])
            for i in range(c.shape[0]):
                for j in range(c.shape[1]):
                    c[i, j] = a[i, j] + b[j, i]
    return perf_counter_ns() - t


# --- s[i] += x[i, j] ------------------------------------------------------------------------

def mvs_sum_rows(const double[:, :] x, double[:] s, Py_ssize_t n):
    """n rounds of s[:] = 0 then mvs_apply(s = s + x) over s[:, None] (a reduction), in nogil
    code."""
    cdef double[:, :] s2 = s[:, None]
    cdef const mvs.mvs_slice *ops[3]
    cdef int ndims[3]
    ndims[:] = [2, 2, 2]
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            s[:] = 0
            ops[0] = mvs.mvs_pyx_src(s2)
            ops[1] = mvs.mvs_pyx_src(x)
            ops[2] = mvs.mvs_pyx_src(s2)
            opaque(ops)
            mvs.mvs_pyx_check(mvs.mvs_apply(3, ops, ndims, ITEMSIZES, FLAGS_REDUCE, K, add_loop, NULL))
    return perf_counter_ns() - t


def cython_sum_rows(const double[:, ::1] x, double[::1] s, Py_ssize_t n):
    """n rounds of the plain Cython nested loop s[i] += x[i, j] (s zeroed first)."""
    cdef Py_ssize_t r, i, j
    t = perf_counter_ns()
    with nogil:
        for r in range(n):
            opaque(&s[0])
            for i in range(x.shape[0]):
                s[i] = 0
                for j in range(x.shape[1]):
                    s[i] += x[i, j]
    return perf_counter_ns() - t


# --- setting up an iteration ----------------------------------------------------------------

def mvs_init_4d(const double[:, :, :, :] a, const double[:, :, :, :] b, double[:, :, :, :] c, Py_ssize_t n):
    """n rounds of mvs_iter_init(c = a + b) (flags read, read, write; order K), in nogil code."""
    cdef mvs.mvs_iter it
    cdef const mvs.mvs_slice *ops[3]
    cdef int ndims[3]
    ndims[:] = [4, 4, 4]
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            ops[0] = mvs.mvs_pyx_src(a)
            ops[1] = mvs.mvs_pyx_src(b)
            ops[2] = mvs.mvs_pyx_src(c)
            opaque(ops)
            mvs.mvs_pyx_check(mvs.mvs_iter_init(&it, 3, ops, ndims, ITEMSIZES, FLAGS_ADD, K))
            opaque(&it)
    return perf_counter_ns() - t


def npyiter_init(a, b, c, Py_ssize_t n):
    """n rounds of NpyIter_MultiNew + NpyIter_Deallocate on the same ndarrays with the same
    meaning as mvs_init_4d's flags: EXTERNAL_LOOP; READONLY, READONLY, WRITEONLY; order K;
    casting no."""
    cdef PyArrayObject *ops[3]
    ops[0] = <PyArrayObject *>a
    ops[1] = <PyArrayObject *>b
    ops[2] = <PyArrayObject *>c
    cdef uint32_t op_flags[3]
    op_flags[:] = [NPY_ITER_READONLY, NPY_ITER_READONLY, NPY_ITER_WRITEONLY]
    cdef NpyIter *it
    cdef Py_ssize_t i
    t = perf_counter_ns()
    for i in range(n):
        opaque(ops)
        it = NpyIter_MultiNew(3, ops, NPY_ITER_EXTERNAL_LOOP, NPY_KEEPORDER, NPY_NO_CASTING, op_flags, NULL)
        if it == NULL:
            raise RuntimeError("NpyIter_MultiNew failed")
        NpyIter_Deallocate(it)
    return perf_counter_ns() - t


# --- the driver's own costs -----------------------------------------------------------------

def mvs_apply_nop(const double[:, :] a, const double[:, :] b, double[:, :] c, Py_ssize_t n):
    """n rounds of mvs_apply(c = a + b) with a loop that does nothing, in nogil code."""
    cdef const mvs.mvs_slice *ops[3]
    cdef int ndims[3]
    ndims[:] = [2, 2, 2]
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            ops[0] = mvs.mvs_pyx_src(a)
            ops[1] = mvs.mvs_pyx_src(b)
            ops[2] = mvs.mvs_pyx_src(c)
            opaque(ops)
            mvs.mvs_pyx_check(mvs.mvs_apply(3, ops, ndims, ITEMSIZES, FLAGS_ADD, K, nop_loop, NULL))
    return perf_counter_ns() - t


def mvs_next_add(const double[:, :] a, const double[:, :] b, double[:, :] c, Py_ssize_t n):
    """n rounds of c = a + b by mvs_iter_init then mvs_iter_next, the add loop called on each
    run, in nogil code (what mvs_apply does, written by the user)."""
    cdef mvs.mvs_iter it
    cdef const mvs.mvs_slice *ops[3]
    cdef char *ptrs[3]
    cdef Py_ssize_t count
    cdef Py_ssize_t strides[3]
    cdef int ndims[3]
    ndims[:] = [2, 2, 2]
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            ops[0] = mvs.mvs_pyx_src(a)
            ops[1] = mvs.mvs_pyx_src(b)
            ops[2] = mvs.mvs_pyx_src(c)
            opaque(ops)
            mvs.mvs_pyx_check(mvs.mvs_iter_init(&it, 3, ops, ndims, ITEMSIZES, FLAGS_ADD, K))
            while mvs.mvs_iter_next(&it, ptrs, &count, strides):
                add_loop(ptrs, &count, strides, NULL)
    return perf_counter_ns() - t


def mvs_next_nop(const double[:, :] a, const double[:, :] b, double[:, :] c, Py_ssize_t n):
    """n rounds of mvs_iter_init then mvs_iter_next to the end, nothing done with the runs but
    counting their elements (returned with the ns), in nogil code."""
    cdef mvs.mvs_iter it
    cdef const mvs.mvs_slice *ops[3]
    cdef char *ptrs[3]
    cdef Py_ssize_t count, total = 0
    cdef Py_ssize_t strides[3]
    cdef int ndims[3]
    ndims[:] = [2, 2, 2]
    cdef Py_ssize_t i
    t = perf_counter_ns()
    with nogil:
        for i in range(n):
            ops[0] = mvs.mvs_pyx_src(a)
            ops[1] = mvs.mvs_pyx_src(b)
            ops[2] = mvs.mvs_pyx_src(c)
            opaque(ops)
            mvs.mvs_pyx_check(mvs.mvs_iter_init(&it, 3, ops, ndims, ITEMSIZES, FLAGS_ADD, K))
            while mvs.mvs_iter_next(&it, ptrs, &count, strides):
                total += count
    return perf_counter_ns() - t, total


def mvs_runs(const double[:, :] a, const double[:, :] b, double[:, :] c):
    """The number of runs of mvs_apply(c = a + b) and the inner count of the first."""
    cdef mvs.mvs_iter it
    cdef const mvs.mvs_slice *ops[3]
    cdef char *ptrs[3]
    cdef Py_ssize_t count, first = -1, runs = 0
    cdef Py_ssize_t strides[3]
    cdef int ndims[3]
    ndims[:] = [2, 2, 2]
    ops[0] = mvs.mvs_pyx_src(a)
    ops[1] = mvs.mvs_pyx_src(b)
    ops[2] = mvs.mvs_pyx_src(c)
    mvs.mvs_pyx_check(mvs.mvs_iter_init(&it, 3, ops, ndims, ITEMSIZES, FLAGS_ADD, K))
    while mvs.mvs_iter_next(&it, ptrs, &count, strides):
        if first < 0:
            first = count
        runs += 1
    return runs, first
