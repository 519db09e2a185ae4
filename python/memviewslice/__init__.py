"""memviewslice: strided views over raw memory, laid out like Cython's typed memoryviews.

The Cython API is in the .pxd files of this package (``cimport memviewslice``, ``from
memviewslice cimport f64``, ``from memviewslice.owners cimport BufferExport, export``); this
module tells a build where the C parts are, and hosts the Python-facing types.

A setuptools build of a Cython module that uses it::

    Extension("mod", ["mod.pyx"],
              include_dirs=[memviewslice.get_include()],
              library_dirs=memviewslice.get_library_dirs(),
              libraries=memviewslice.get_libraries())
"""

import os as _os

from ._version import ABI_TYPE, __version__

# The version check of modules built against this package (_abi.pxd): such a module imports
# the type named for the version it was compiled against, which exists only for this version.
# Defined before .owners is imported, since owners itself checks it.
globals()[ABI_TYPE] = type("abi", (), {})


def __getattr__(name):
    if name.startswith("abi_"):
        raise ImportError(
            f"a module was compiled against memviewslice {name[4:].replace('_', '.')}, but memviewslice "
            f"{__version__} is installed: rebuild that module against the installed version, or install "
            f"the version it was built with")
    raise AttributeError(f"module 'memviewslice' has no attribute {name!r}")


from .owners import BufferExport, Pool, from_dlpack  # noqa: E402  (after the version type, see above)

_HERE = _os.path.dirname(_os.path.abspath(__file__))


def get_include() -> str:
    """The directory of memviewslice.h and mvs_pyx.h, for the C compiler (``-I``)."""
    return _os.path.join(_HERE, "include")


def get_library_dirs() -> "list[str]":
    """The directories to link from (``-L``): the one holding the static libmemviewslice.a."""
    return [_os.path.join(_HERE, "lib")]


def get_libraries() -> "list[str]":
    """The libraries to link (``-l``), in order: memviewslice, then what it needs of the system."""
    return ["memviewslice", "pthread", "dl", "m"]


__all__ = ["BufferExport", "Pool", "from_dlpack", "get_include", "get_library_dirs", "get_libraries", "__version__"]
