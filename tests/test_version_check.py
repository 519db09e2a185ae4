#!/usr/bin/env python3
"""A module compiled against memviewslice's .pxd files imports only with the package version
they came from: built against the installed files it imports; built against a copy of them
that says another version (as if compiled against an older package), its import fails with
ImportError naming both versions, rather than crashing.

    python tests/test_version_check.py WORKDIR     (with memviewslice installed in that Python)
"""

import importlib
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig

import memviewslice

MODULE = '''from memviewslice.owners cimport BufferExport

def owner_type():
    return BufferExport
'''


def build(work, name, include=None):
    """Compiles MODULE as `name` in `work`, Cython searching `include` first."""
    pyx = work / f"{name}.pyx"
    pyx.write_text(MODULE)
    cython = [sys.executable, "-m", "cython", "-3", str(pyx)] + (["-I", str(include)] if include else [])
    subprocess.run(cython, check=True)
    ext = work / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(["cc", "-shared", "-fPIC", "-I", sysconfig.get_paths()["include"], "-I", memviewslice.get_include(),
                    str(work / f"{name}.c"), "-o", str(ext)], check=True)


def main():
    work = pathlib.Path(sys.argv[1]).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    sys.path.insert(0, str(work))

    build(work, "same_version")
    assert importlib.import_module("same_version").owner_type() is memviewslice.BufferExport

    other = work / "other" / "memviewslice"
    shutil.copytree(pathlib.Path(memviewslice.__file__).parent, other,
                    ignore=shutil.ignore_patterns("*.so", "*.py", "*.pyi", "__pycache__", "lib", "include"))
    abi = other / "_abi.pxd"
    text, n = re.subn(r"memviewslice\.abi_\w+", "memviewslice.abi_0_0_9", abi.read_text())
    assert n == 1, "the version type is not where this test expects it"
    abi.write_text(text)
    build(work, "other_version", include=other.parent)
    try:
        importlib.import_module("other_version")
    except ImportError as e:
        message = str(e)
    else:
        sys.exit("a module compiled against memviewslice 0.0.9 imported with " + memviewslice.__version__)
    expected = f"compiled against memviewslice 0.0.9, but memviewslice {memviewslice.__version__} is installed"
    assert expected in message, message
    print(f"version check: same version imports; 0.0.9 against {memviewslice.__version__}: ImportError: {message}")


if __name__ == "__main__":
    main()
