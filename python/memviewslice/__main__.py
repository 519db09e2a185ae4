"""python -m memviewslice [--cflags] [--libs] [--version]: the compiler and linker flags of a
C or Cython build against the installed package, as pkg-config prints them."""

import argparse

import memviewslice


def main():
    parser = argparse.ArgumentParser(prog="python -m memviewslice", description=__doc__.splitlines()[0])
    parser.add_argument("--cflags", action="store_true", help="the include flag of memviewslice.h and mvs_pyx.h")
    parser.add_argument("--libs", action="store_true", help="the link flags of the static library")
    parser.add_argument("--version", action="store_true", help="the package's version")
    args = parser.parse_args()
    flags = []
    if args.version:
        flags.append(memviewslice.__version__)
    if args.cflags:
        flags.append("-I" + memviewslice.get_include())
    if args.libs:
        flags += ["-L" + d for d in memviewslice.get_library_dirs()] + ["-l" + n for n in memviewslice.get_libraries()]
    if not flags:
        parser.error("give --cflags, --libs or --version")
    print(" ".join(flags))


if __name__ == "__main__":
    main()
