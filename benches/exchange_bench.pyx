# cython: boundscheck=False, wraparound=False
# The compiled loops of exchange_bench.py: a tensor object imported at C level (a view and a
# buffer owning the tensor) and released, through the DLPack C exchange API of its type and
# through its __dlpack__ capsule, with the GIL (the producers' functions need it).
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_SetName
from memviewslice cimport (
    mvs_slice, mvs_buffer, mvs_dl_data_type, mvs_dl_managed_tensor_versioned, mvs_dlpack_exchange_api,
    mvs_dlpack_import, mvs_dlpack_import_object, mvs_buffer_release, mvs_pyx_check,
)
from memviewslice.owners cimport exchange_api, import_dlpack
from time import perf_counter_ns


def exchange_loop(x, Py_ssize_t n):
    """ns for n imports of x through its type's exchange table (found once, as a C consumer
    keeps it per type), each released at once."""
    cdef const mvs_dlpack_exchange_api *api = exchange_api(type(x))
    cdef mvs_slice view
    cdef int ndim
    cdef Py_ssize_t itemsize, i
    cdef mvs_dl_data_type dtype
    cdef mvs_buffer *buffer
    if api == NULL:
        raise TypeError(f"{type(x).__name__} has no DLPack exchange API")
    t = perf_counter_ns()
    for i in range(n):
        mvs_pyx_check(mvs_dlpack_import_object(api, <void *>x, &view, &ndim, &itemsize, &dtype, &buffer))
        mvs_buffer_release(buffer)
    return perf_counter_ns() - t


def import_dlpack_loop(x, Py_ssize_t n):
    """ns for n owners.import_dlpack(x) (the type's table looked up each time, else
    __dlpack__), each released at once."""
    cdef mvs_slice view
    cdef int ndim
    cdef Py_ssize_t itemsize, i
    cdef mvs_dl_data_type dtype
    cdef mvs_buffer *buffer
    t = perf_counter_ns()
    for i in range(n):
        import_dlpack(x, &view, &ndim, &itemsize, &dtype, &buffer)
        mvs_buffer_release(buffer)
    return perf_counter_ns() - t


def capsule_loop(x, Py_ssize_t n):
    """ns for n imports of x through x.__dlpack__(max_version=(1, 1)): the capsule's tensor
    imported and the capsule consumed, as a C consumer without the exchange API does, each
    released at once."""
    cdef mvs_slice view
    cdef int ndim
    cdef Py_ssize_t itemsize, i
    cdef mvs_buffer *buffer
    cdef mvs_dl_managed_tensor_versioned *tensor
    method = x.__dlpack__
    t = perf_counter_ns()
    for i in range(n):
        capsule = method(max_version=(1, 1))
        tensor = <mvs_dl_managed_tensor_versioned *>PyCapsule_GetPointer(capsule, "dltensor_versioned")
        mvs_pyx_check(mvs_dlpack_import(tensor, &view, &ndim, &itemsize, &buffer))
        PyCapsule_SetName(capsule, "used_dltensor_versioned")
        mvs_buffer_release(buffer)
    return perf_counter_ns() - t
