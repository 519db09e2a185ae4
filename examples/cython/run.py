"""The Cython examples (`make demo`): problem 1 (views of one flat buffer) and problem 2 (a
sliced memoryview returned from nogil code)."""

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
