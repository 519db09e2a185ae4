# cython: boundscheck=False, wraparound=False
# Moving data in nogil code: a transposed copy into an existing array and into a new
# C-contiguous one, a row broadcast down a grid, and fills of a strided part of it.
from memviewslice cimport MVS_NONE
from memviewslice cimport f64


def transposed(double[:, :] a, double[:, :] out):
    """out[...] = a.T in place, and a new C-contiguous copy of a.T, both in nogil code."""
    cdef double[:, ::1] t
    with nogil:
        f64.copy_2d(f64.transpose_2d(a), out)   # no GIL: a strided copy into out
        t = f64.copy_c_2d(f64.transpose_2d(a))  # a new buffer: the GIL once, for its owner
    return t                                    # freed once, after its last view


def framed(const double[:] row, double[:, :] grid, double edge):
    """Every row of grid set to row (broadcast), then grid's border to edge, in nogil code."""
    cdef Py_ssize_t rows = grid.shape[0], cols = grid.shape[1]
    with nogil:
        f64.copy_1d_2d(row, grid)  # grid[...] = row: row repeated down grid
        # grid[::rows - 1] = edge and grid[:, ::cols - 1] = edge: the first and last rows and columns
        f64.fill_2d(f64.slice_axis_2d(grid, 0, MVS_NONE, MVS_NONE, rows - 1), edge)
        f64.fill_2d(f64.slice_axis_2d(grid, 1, MVS_NONE, MVS_NONE, cols - 1), edge)
