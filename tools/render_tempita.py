#!/usr/bin/env python3
"""Renders a Tempita template (Cython's own template engine, Cython.Tempita) to a file.

    python tools/render_tempita.py TEMPLATE.pyx.in OUT.pyx
"""

import pathlib
import sys

from Cython import Tempita


def main():
    template, out = map(pathlib.Path, sys.argv[1:3])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(Tempita.sub(template.read_text()))


if __name__ == "__main__":
    main()
