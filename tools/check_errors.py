#!/usr/bin/env python3
"""The header documents every error the C tests see: for each `CHECK_ERR(mvs_f(...), MVS_ERR_X,
...)` in c_tests/*.c, mvs_f's doc comment in include/memviewslice.h names MVS_ERR_X, or says
"the common ones" for the errors common to every view function (MVS_ERR_NULL, MVS_ERR_NDIM,
MVS_ERR_SHAPE, MVS_ERR_OVERFLOW), or refers to another function's errors ("those of `mvs_g`"),
whose doc names it (followed transitively).

    python3 tools/check_errors.py include/memviewslice.h c_tests
"""

import re
import sys
from pathlib import Path

COMMON = {"MVS_ERR_NULL", "MVS_ERR_NDIM", "MVS_ERR_SHAPE", "MVS_ERR_OVERFLOW"}
DOC = re.compile(r"/\*\*((?:(?!\*/).)*)\*/\s*\n[\w\s*]*?\b(mvs_\w+)\(", re.S)
CALL = re.compile(r"CHECK_ERR\(\s*(mvs_\w+)\(.*?,\s*(MVS_ERR_\w+)\s*,", re.S)
REFERENCE = re.compile(r"those of `(mvs_\w+)`")


def documents(docs, fn, status, seen=()):
    doc = docs.get(fn, "")
    if re.search(rf"\b{status}\b", doc) or (status in COMMON and "common ones" in doc):
        return True
    return any(documents(docs, other, status, seen + (fn,))
               for other in REFERENCE.findall(doc) if other not in seen)


def main(header, tests):
    docs = {m.group(2): m.group(1) for m in DOC.finditer(Path(header).read_text())}
    seen = {}
    for path in sorted(Path(tests).glob("*.c")):
        for m in CALL.finditer(path.read_text()):
            seen.setdefault((m.group(1), m.group(2)), path.name)
    problems = [f"{fn} returns {status} in {where}, which its doc in {header} does not list"
                for (fn, status), where in sorted(seen.items())
                if fn in docs and not documents(docs, fn, status)]
    problems += [f"{fn} (called in {where}) has no doc comment in {header}"
                 for (fn, _), where in sorted(seen.items()) if fn not in docs]
    if problems:
        print("\n".join(problems))
        return 1
    print(f"{header} documents all {len(seen)} (function, error) pairs that {tests}/*.c checks, "
          f"across {len({fn for fn, _ in seen})} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
