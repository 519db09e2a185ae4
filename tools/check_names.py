#!/usr/bin/env python3
"""Fails when the header declares a public name that does not start with mvs_ or MVS_: every
macro it defines (asked of the C preprocessor, against the system headers it includes), and
every type, struct, enum and function it declares (read off the header without its comments).
The include guard is the one exception.

    python tools/check_names.py include/memviewslice.h [CC]
"""

import re
import subprocess
import sys

ALLOWED = {"MEMVIEWSLICE_H"}
PREFIX = re.compile(r"^(mvs_|MVS_)")


def macros(cc, source):
    out = subprocess.run([cc, "-dM", "-E", "-x", "c", "-"], input=source, capture_output=True, text=True, check=True)
    return {m.group(1) for m in re.finditer(r"^#define (\w+)", out.stdout, re.MULTILINE)}


def declared(text):
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.DOTALL)
    text = re.sub(r"^#.*$", "", text, flags=re.MULTILINE)
    names = set(re.findall(r"\b(?:struct|enum|union)\s+(\w+)", text))
    names |= set(re.findall(r"typedef[^;{]*?\b(\w+)\s*;", text))       # typedef int mvs_status;
    names |= set(re.findall(r"\}\s*(\w+)\s*;", text))                  # } mvs_slice;
    names |= set(re.findall(r"\(\s*\*\s*(\w+)\s*\)\s*\(", text))       # function pointer typedefs
    names |= set(re.findall(r"^(?!typedef)[\w \t*]*?\b(\w+)\s*\(", text, re.MULTILINE))  # functions
    return names


def main():
    header = sys.argv[1]
    cc = sys.argv[2] if len(sys.argv) > 2 else "cc"
    with open(header) as f:
        text = f.read()
    system = "#include <stddef.h>\n#include <stdint.h>\n"
    names = (macros(cc, system + f'#include "{header}"\n') - macros(cc, system)) | declared(text)
    bad = sorted(n for n in names if not PREFIX.match(n) and n not in ALLOWED)
    if bad:
        sys.exit(f"{header}: public names without the mvs_/MVS_ prefix: {', '.join(bad)}")
    print(f"{header}: {len(names)} public names, all prefixed")


if __name__ == "__main__":
    main()
