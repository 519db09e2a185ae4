#!/usr/bin/env python3
"""Builds one Cython module against the memviewslice package installed in the running Python
(as a user's build does: Cython finds the .pxd files in site-packages, the C compiler and the
linker take what get_include(), get_library_dirs() and get_libraries() say), with cython and
then the C or C++ compiler.

    python tools/build_ext.py SRC.pyx --out DIR [--cplus] [-X directive=value ...]
                              [--name MODULE] [--wrap-gil] [--openmp] [-I DIR ...]

Run it with the Python (the venv's) that will import the module: the extension is built for
that interpreter. `--name` renames the module (SRC's name by default); `--wrap-gil` links with
`-Wl,--wrap=PyGILState_Ensure`, so the module must define `__wrap_PyGILState_Ensure`; `-I`
adds a C include directory (numpy.get_include(), for a module that uses NumPy's C API).
"""

import argparse
import os
import pathlib
import shlex
import subprocess
import sys
import sysconfig

import memviewslice


def run(cmd):
    print(" ".join(shlex.quote(str(c)) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pyx", type=pathlib.Path)
    p.add_argument("--out", type=pathlib.Path, required=True)
    p.add_argument("--name", help="module name (default: the .pyx file's)")
    p.add_argument("--cplus", action="store_true", help="compile as C++")
    p.add_argument("-X", dest="directives", action="append", default=[], help="Cython directive name=value")
    p.add_argument("--wrap-gil", action="store_true", help="link with -Wl,--wrap=PyGILState_Ensure")
    p.add_argument("--openmp", action="store_true", help="compile and link with -fopenmp")
    p.add_argument("-I", dest="includes", action="append", default=[], help="C include directory")
    p.add_argument("-D", dest="defines", action="append", default=[], help="C preprocessor macro NAME[=VALUE]")
    args = p.parse_args()

    name = args.name or args.pyx.stem
    args.out.mkdir(parents=True, exist_ok=True)
    # Cython names the module after the file, so a renamed module is built from a copy.
    pyx = args.pyx.resolve()
    if name != args.pyx.stem:
        pyx = args.out / f"{name}.pyx"
        pyx.write_text(args.pyx.read_text())
    c_file = args.out / f"{name}.{'cpp' if args.cplus else 'c'}"
    cython = [sys.executable, "-m", "cython", "-3", "-I", args.pyx.resolve().parent, "-o", c_file]
    if args.cplus:
        cython.append("--cplus")
    for d in args.directives:
        cython += ["-X", d]
    run(cython + [pyx])

    compiler = os.environ.get("CXX", "c++") if args.cplus else os.environ.get("CC", "cc")
    ext = args.out / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    cmd = [compiler, os.environ.get("MVS_OPT", "-O2"), "-shared", "-fPIC", "-Wall", "-Werror",
           "-I", sysconfig.get_paths()["include"], "-I", memviewslice.get_include(), c_file, "-o", ext]
    cmd += [f"-L{d}" for d in memviewslice.get_library_dirs()] + [f"-l{n}" for n in memviewslice.get_libraries()]
    if args.wrap_gil:
        cmd.append("-Wl,--wrap=PyGILState_Ensure")
    if args.openmp:
        # Cython's own error propagation out of a prange body trips GCC's -Wmaybe-uninitialized
        # on __pyx_clineno in the generated code (not in memviewslice's).
        cmd[1:1] = ["-fopenmp", "-Wno-maybe-uninitialized"]
    cmd[1:1] = [f"-D{d}" for d in args.defines] + [f"-I{d}" for d in args.includes]
    run(cmd)


if __name__ == "__main__":
    main()
