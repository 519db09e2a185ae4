#!/usr/bin/env python3
"""Drift check of the hand-written copies of the C surface against the header that cbindgen
generates from the Rust sources:

- python/memviewslice/__init__.pxd declares every function of include/memviewslice.h, with the
  same return and parameter types (ptrdiff_t written Py_ssize_t), and nothing else; every
  constant it names is the header's, and it names every one;
- tests/numpy_oracle.py's status codes (OK, ERR_*) have the header's values.

    python3 tools/check_decls.py include/memviewslice.h python/memviewslice/__init__.pxd tests/numpy_oracle.py

Prints what differs and exits 1, or one line saying all agree.
"""

import ast
import re
import sys


def normalize(ctype):
    """A C type as the two files may spell it, in one spelling."""
    t = re.sub(r"\bstruct\s+", "", ctype)
    t = re.sub(r"\bptrdiff_t\b", "Py_ssize_t", t)
    t = re.sub(r"\s*\*\s*", " *", t)
    return re.sub(r"\s+", " ", t).strip().replace(" *", "*")


def param_type(param):
    """The type of one declared parameter (its name dropped)."""
    param = param.strip()
    m = re.match(r"(.*?)(\w+)(\[\d*\])?$", param)
    if not m or not m.group(1).strip():
        return normalize(param)
    return normalize(m.group(1) + ("*" if m.group(3) else ""))


def signature(ret, params):
    params = params.strip()
    types = [] if params in ("", "void") else [param_type(p) for p in params.split(",")]
    return normalize(ret), tuple(types)


def header(path):
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    constants = {m.group(1): m.group(2).strip() for m in re.finditer(r"^#define (MVS_\w+)\s+(.*)$", text, re.M)}
    functions = {m.group(2): signature(m.group(1), m.group(3))
                 for m in re.finditer(r"^([A-Za-z_][\w \*]*?)\b(mvs_\w+)\(([^;]*?)\);", text, re.M | re.S)}
    return constants, functions


def pxd(path):
    """The constants and functions declared in the `cdef extern from "memviewslice.h"` block."""
    lines = open(path).read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('cdef extern from "memviewslice.h"'))
    names, functions = set(), {}
    for line in lines[start + 1:]:
        if line and not line.startswith((" ", "#")):
            break
        code = line.split("#")[0].rstrip()
        if m := re.match(r"^\s+(.+?)\b(mvs_\w+)\((.*)\)\s*$", code):
            functions[m.group(2)] = signature(m.group(1), m.group(3))
        elif m := re.match(r"^\s+(?:const [\w ]*?\*?\s*)?(MVS_\w+)\s*$", code):
            names.add(m.group(1))
    return names, functions


def oracle(path):
    """The status codes of the oracle script: names OK and ERR_* bound to integers, alone or in
    `A, B, ... = range(a, b)`."""
    codes = {}
    for node in ast.parse(open(path).read()).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        names = [e.id for e in target.elts] if isinstance(target, ast.Tuple) else [getattr(target, "id", "")]
        if not all(n == "OK" or n.startswith("ERR_") for n in names):
            continue
        if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "range":
            values = list(range(*[ast.literal_eval(a) for a in value.args]))
        else:
            values = [ast.literal_eval(value)]
        codes.update(zip(names, values))
    return codes


def main(header_path, pxd_path, oracle_path):
    constants, functions = header(header_path)
    names, declared = pxd(pxd_path)
    problems = []
    for name in sorted(set(functions) - set(declared)):
        problems.append(f"{pxd_path}: {name} is not declared")
    for name in sorted(set(declared) - set(functions)):
        problems.append(f"{pxd_path}: {name} is not in the header")
    for name in sorted(set(functions) & set(declared)):
        if functions[name] != declared[name]:
            problems.append(f"{pxd_path}: {name} is declared {declared[name]}, the header has {functions[name]}")
    # The header's own helper macro for its layout assertions is not part of the API.
    wanted = set(constants) - {"MVS_STATIC_ASSERT"}
    for name in sorted(wanted - names):
        problems.append(f"{pxd_path}: constant {name} is not declared")
    for name in sorted(names - wanted):
        problems.append(f"{pxd_path}: constant {name} is not in the header")
    codes = oracle(oracle_path)
    statuses = {k: int(v) for k, v in constants.items() if k == "MVS_OK" or k.startswith("MVS_ERR_")}
    for name, value in sorted(statuses.items(), key=lambda kv: kv[1]):
        short = name[len("MVS_"):]
        if short not in codes:
            problems.append(f"{oracle_path}: {short} ({name} = {value}) is missing")
        elif codes[short] != value:
            problems.append(f"{oracle_path}: {short} is {codes[short]}, the header's {name} is {value}")
    for short in sorted(set(codes) - {k[len("MVS_"):] for k in statuses}):
        problems.append(f"{oracle_path}: {short} is not a status of the header")
    if problems:
        print("\n".join(problems))
        print(f"{len(problems)} declarations differ from {header_path}: fix them")
        return 1
    print(f"{pxd_path} and {oracle_path} agree with {header_path}: "
          f"{len(functions)} functions, {len(constants)} constants, {len(statuses)} status codes")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
