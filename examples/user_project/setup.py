# The build reads everything from the installed memviewslice: Cython finds its .pxd files in
# site-packages, and these three calls give the C compiler and the linker the rest.
import memviewslice
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(ext_modules=cythonize([
    Extension("grids", ["grids.pyx"],
              include_dirs=[memviewslice.get_include()],
              library_dirs=memviewslice.get_library_dirs(),
              libraries=memviewslice.get_libraries()),
], language_level=3))
