# cython: boundscheck=False, wraparound=False
# The real and imaginary parts of a read-only complex128 array, in nogil code: its items viewed
# as float64 (NumPy's z.view(np.float64): a last axis twice as long), then every other column.
from memviewslice cimport MVS_NONE
from memviewslice cimport f64


cdef double trace_abs2(const double complex[:, ::1] z) noexcept nogil:
    """sum(|z[i, i]|^2), reading z's real and imaginary parts as float64 views."""
    cdef const double[:, :] parts = f64.from_c128_const_2d(z)      # shape (n, 2m), stride 8
    cdef const double[:, :] re = f64.slice_axis_const_2d(parts, 1, 0, MVS_NONE, 2)
    cdef const double[:, :] im = f64.slice_axis_const_2d(parts, 1, 1, MVS_NONE, 2)
    cdef double total = 0
    cdef Py_ssize_t i
    for i in range(min(re.shape[0], re.shape[1])):
        total += re[i, i] * re[i, i] + im[i, i] * im[i, i]
    return total


def parts_of(const double complex[:, ::1] z):
    """(z.real, z.imag) as read-only float64 views of z's memory, made in nogil code, and
    trace_abs2(z). The views do not keep z alive: the caller keeps z (from_<other>_Nd's rule)."""
    cdef const double[:, :] re, im
    cdef double t
    with nogil:
        re = f64.slice_axis_const_2d(f64.from_c128_const_2d(z), 1, 0, MVS_NONE, 2)
        im = f64.slice_axis_const_2d(f64.from_c128_const_2d(z), 1, 1, MVS_NONE, 2)
        t = trace_abs2(z)
    return re, im, t
