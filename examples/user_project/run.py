"""Runs the installed grids module (from outside the source tree) and checks it against NumPy."""
import gc

import numpy as np

import grids

buf = np.zeros(14)
a, b = (np.asarray(v) for v in grids.views_of(buf))
assert a.shape == (2, 3) and b.shape == (2, 2, 2)
assert np.shares_memory(a, buf) and np.shares_memory(b, buf)
assert buf.tolist() == [100, 101, 102, 103, 104, 105, 200, 201, 202, 203, 204, 205, 206, 207]

x = np.arange(25.0).reshape(5, 5)
c = np.asarray(grids.corner_of(x))
assert c.shape == (4, 4) and c.strides == x.strides and np.shares_memory(c, x)
assert (c == x[:-1, :-1]).all()
view = np.asarray(grids.corner_of(x.T))
assert view.strides == x.T.strides and (view == x.T[:-1, :-1]).all()

gc.disable()
m = np.asarray(grids.c_matrix(3, 4))
assert m.tolist() == np.arange(12.0).reshape(3, 4).tolist() and grids.frees() == 0
del m
assert grids.frees() == 1
print(f"grids ({grids.__file__}): views, corner and hand-off all match NumPy")
