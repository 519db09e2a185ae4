/* The layout check of mvs_pyx_runtime.h (make layout-check): a module-like translation unit
 * that defines Cython's __Pyx_memviewslice as Cython does, or, with -DMVS_PLANT_LOCK, with a
 * lock in front of it (what a Cython for free-threaded CPython might add, Cython's discussion
 * #6215), and expands the helpers' __mvs_pyx_src on it. It must compile as written and fail
 * with the header's message when planted. */
#include "mvs_pyx_runtime.h"

struct __pyx_memoryview_obj;
typedef struct {
#ifdef MVS_PLANT_LOCK
    void *lock;
#endif
    struct __pyx_memoryview_obj *memview;
    char *data;
    Py_ssize_t shape[8];
    Py_ssize_t strides[8];
    Py_ssize_t suboffsets[8];
} __Pyx_memviewslice;

const mvs_slice *source_of(const __Pyx_memviewslice *view);
const mvs_slice *source_of(const __Pyx_memviewslice *view) { return __mvs_pyx_src(*view); }
