#!/usr/bin/env python3
"""Drift check of the hand-written copies of the C surface against the header that cbindgen
generates from the Rust sources:

- python/memviewslice/__init__.pxd declares every function of include/memviewslice.h, with the
  same return and parameter types (ptrdiff_t written Py_ssize_t), and nothing else; every
  constant it names is the header's, and it names every one;
- tests/numpy_oracle.py's status codes (OK, ERR_*) have the header's values;
- the table of operations (tools/ops.py) has an entry for every view derivation of the header
  (a function from a `const mvs_slice *src` to an `mvs_slice *out`), and each entry's C call
  names the header's parameters in order, its helper's parameters with the header's types.

    python3 tools/check_decls.py include/memviewslice.h python/memviewslice/__init__.pxd tests/numpy_oracle.py

Prints what differs and exits 1, or one line saying all agree.
"""

import ast
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import gen_pxd  # noqa: E402


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
    """The header's constants, its functions' signatures, and their parameters as (type,
    name) pairs."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    constants = {m.group(1): m.group(2).strip() for m in re.finditer(r"^#define (MVS_\w+)\s+(.*)$", text, re.M)}
    found = list(re.finditer(r"^([A-Za-z_][\w \*]*?)\b(mvs_\w+)\(([^;]*?)\);", text, re.M | re.S))
    functions = {m.group(2): signature(m.group(1), m.group(3)) for m in found}
    params = {m.group(2): [(param_type(p), re.search(r"(\w+)(\[\d*\])?$", p.strip()).group(1))
                           for p in m.group(3).split(",") if p.strip() not in ("", "void")] for m in found}
    return constants, functions, params


# The header's names of the table's placeholders (tools/ops.py).
PLACEHOLDER_NAMES = {"s": {"src"}, "n": {"ndim", "src_ndim"}, "m": {"out_ndim", "dst_ndim"}, "isz": {"itemsize"},
                     "new_isz": {"new_itemsize"}, "o": {"out", "outs", "out_view"}}


# The helpers' own spellings of a header parameter (tools/ops.py, `params`): the unit added to
# its name, and an int order taken as a character.
UNIT_SUFFIXES = ("_items", "_bytes")
HELPER_TYPES = {("Py_UCS4", "int")}


def table_problems(params):
    """What the table of operations says that the header does not, and the header's view
    derivations that the table lacks."""
    problems, ops = [], gen_pxd.table()
    for op in ops:
        where = f"tools/ops.py: {op['name']}"
        if op["c"] not in params:
            problems.append(f"{where}: {op['c']} is not in the header")
            continue
        header_params = params[op["c"]]
        tokens = [t.strip() for t in op["args"].split(",")]
        if op["check_ndim"]:
            tokens.insert(tokens.index("{o}") + 1, "out_ndim")
        if len(tokens) != len(header_params):
            problems.append(f"{where}: {len(tokens)} arguments, {op['c']} takes {len(header_params)}")
            continue
        helper_types = {p.split()[-1].lstrip("*"): param_type(p) for p in op["params"]}
        for token, (ctype, name) in zip(tokens, header_params):
            placeholder = re.fullmatch(r"\{(\w+)\}", token)
            if placeholder and name not in PLACEHOLDER_NAMES[placeholder.group(1)]:
                problems.append(f"{where}: {token} stands where {op['c']} takes {name}")
            elif not placeholder and token not in [name] + [name + u for u in UNIT_SUFFIXES]:
                problems.append(f"{where}: argument {token} stands where {op['c']} takes {name}")
            elif token in helper_types and helper_types[token] != ctype and (helper_types[token], ctype) not in HELPER_TYPES:
                problems.append(f"{where}: parameter {token} is {helper_types[token]}, {op['c']} takes {ctype}")
    in_table = {op["c"] for op in ops}
    for name, ps in sorted(params.items()):
        if ps and ps[0] == ("const mvs_slice*", "src") and ("mvs_slice*", "out") in ps + [
                (t, "out") for t, n in ps if n == "outs"] and name not in in_table:
            problems.append(f"tools/ops.py: the view derivation {name} has no entry")
    return problems


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
    constants, functions, params = header(header_path)
    names, declared = pxd(pxd_path)
    problems = table_problems(params)
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
    print(f"{pxd_path}, {oracle_path} and tools/ops.py agree with {header_path}: "
          f"{len(functions)} functions, {len(constants)} constants, {len(statuses)} status codes, "
          f"{len(gen_pxd.table())} operations")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
