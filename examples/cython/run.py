"""The Cython examples (`make demo`): problem 1 (views of one flat buffer), problem 2 (a
sliced memoryview returned from nogil code), a C pointer as a typed memoryview, C memory
handed to NumPy, a typed pool under prange, copies and fills made in nogil code, DLPack both
ways with NumPy, and the real and imaginary parts of a read-only complex array."""

import numpy as np

import corner
import flat_buffer

print("== flat_buffer: a (2,3) view at item 0 and a (2,2,2) view at item 6 of 14 float64")
buf = np.zeros(14)
a, b = flat_buffer.views_of(buf)
print("view a:\n", np.asarray(a))
print("view b:\n", np.asarray(b))
print("buffer:", buf)
assert np.shares_memory(np.asarray(a), buf) and np.shares_memory(np.asarray(b), buf)
assert buf[:6].tolist() == [100, 101, 102, 103, 104, 105]
assert buf[6:].tolist() == [200, 201, 202, 203, 204, 205, 206, 207]

print("== corner: a[:-1, :-1] of a 5x5 array, 1000 times in a nogil loop")
x = np.arange(25.0).reshape(5, 5)
total, c = corner.corner_sums(x, 1000)
c = np.asarray(c)
print(c)
print("shape", c.shape, "strides", c.strides, "shares memory:", np.shares_memory(c, x), "sum x 1000:", total)
assert c.shape == (4, 4) and c.strides == x.strides and np.shares_memory(c, x)
assert total == 1000 * x[:-1, :-1].sum()

print("== raw_pointer: a C library's pointer as a (3, 4) typed memoryview, made without the GIL")
import raw_pointer

m, col = (np.asarray(v) for v in raw_pointer.table())
print(m, "column 2:", col)
assert m.dtype == np.float64 and m.shape == (3, 4) and m.strides == (32, 8)
assert col.tolist() == [2, 12, 22] and np.shares_memory(m, col)

print("== handoff: C memory owned by NumPy, freed once by the C deallocator")
import gc

import handoff

m = handoff.c_matrix(3, 4)
arr = np.asarray(m)
col = arr[:, 1]  # a view of the view
mv = memoryview(m)
del m
print(arr)
print("frees while arrays live:", handoff.frees())
assert handoff.frees() == 0 and col.tolist() == [1.0, 5.0, 9.0]
del arr
gc.collect()
print("after del arr (col and a memoryview still live):", handoff.frees())
assert handoff.frees() == 0
del col, mv
gc.collect()
print("after del col, mv:", handoff.frees())
assert handoff.frees() == 1

print("== handoff: C memory handed out as typed memoryviews made in nogil code, freed once")
m, last = handoff.c_matrix_views(3, 4)
arr = np.asarray(m)
del m
print(arr, "last row:", np.asarray(last))
assert np.asarray(last).tolist() == [8, 9, 10, 11] and np.shares_memory(arr, np.asarray(last))
assert handoff.frees() == 1, "freed while views live"
del arr, last
gc.collect()
print("after del arr, last:", handoff.frees() - 1)
assert handoff.frees() == 2

print("== handoff: a const pointer from a C library as read-only bytes, no copy")
g = handoff.greeting()
view = memoryview(g)
print(bytes(view), "read-only:", view.readonly)
assert view.readonly and bytes(view) == b"memory from a C library, read-only"
assert not np.frombuffer(g, dtype=np.uint8).flags.writeable

print("== pool_prange: a (3, 3) scratch matrix from a typed pool in each iteration of a 4-thread prange")
import pool_prange

angles = np.linspace(0, 6.28, 10000)
total, pool = pool_prange.rotations(angles)
print(f"sum over {len(angles)} matrices of R @ R.T's entries: {total:.6f} (3 each);", pool)
assert abs(total - 3 * len(angles)) < 1e-6 and pool.counts[1] == 0

print("== copy_fill: a transposed copy and a broadcast row and fill, in nogil code")
import copy_fill

a = np.arange(6.0).reshape(2, 3)
out = np.zeros((3, 2))
t = np.asarray(copy_fill.transposed(a, out))
print("out[...] = a.T:\n", out)
print("a new C-contiguous a.T:", t.tolist(), "strides", t.strides, "shares a's memory:", np.shares_memory(t, a))
assert np.array_equal(out, a.T) and np.array_equal(t, a.T) and t.flags.c_contiguous and not np.shares_memory(t, a)
grid = np.zeros((4, 5))
copy_fill.framed(np.arange(1.0, 6.0), grid, -1)
print("grid[...] = [1 .. 5], then its border = -1:\n", grid)
want = np.broadcast_to(np.arange(1.0, 6.0), (4, 5)).copy()
want[[0, -1]] = want[:, [0, -1]] = -1
assert np.array_equal(grid, want)

print("== dlpack: a C producer's view handed to NumPy through DLPack, freed once after NumPy's last user")
import dlpack

arr = np.from_dlpack(dlpack.c_producer(2, 3))
print(arr, "dtype", arr.dtype, "strides", arr.strides)
assert arr.tolist() == [[0, 3], [1, 4], [2, 5]] and arr.dtype == np.int32 and arr.strides == (4, 12)
row = arr[1]
del arr
gc.collect()
print("released while a row lives:", dlpack.released())
assert dlpack.released() == 0
del row
gc.collect()
print("released after the last user:", dlpack.released())
assert dlpack.released() == 1

print("== dlpack: a NumPy array as a typed memoryview in nogil code, through DLPack")
x = np.arange(16.0).reshape(4, 4)[::-1]
print("trace of x[::-1]:", dlpack.trace(x), "(NumPy:", np.trace(x), ")")
assert dlpack.trace(x) == np.trace(x)
dlpack.scale(x[:, 1:3], 10.0)
print("after scale(x[:, 1:3], 10), x is\n", x[::-1])
assert x[::-1][0].tolist() == [0, 10, 20, 3]

print("== real_imag: z.real and z.imag of a read-only complex128 array as float64 views, in nogil code")
import real_imag

z = (np.arange(12.0) + 1j * np.arange(12.0, 24.0)).reshape(3, 4)
z.flags.writeable = False
re, im, t = real_imag.parts_of(z)
re, im = np.asarray(re), np.asarray(im)
print("real:\n", re, "\nimag:\n", im, "\nsum |z[i, i]|^2:", t)
assert re.dtype == np.float64 and np.array_equal(re, z.real) and np.array_equal(im, z.imag)
assert re.strides == z.real.strides and np.shares_memory(re, z) and not re.flags.writeable
assert t == sum(abs(z[i, i]) ** 2 for i in range(3))
