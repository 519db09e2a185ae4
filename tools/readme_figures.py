#!/usr/bin/env python3
"""The README's measured figures, rendered from the benchmarks' record (benches/results/*.json,
written by `make bench`; benches/record.py).

Each figure block of README.md sits between `<!-- figures:NAME -->` and `<!-- /figures -->`
and is the output of RENDER[NAME] on the record: a line naming the command, the machine and
the date, then a table (or the picture, docs/copy_bandwidth.png). Every number in a block is
formatted from the record; a figure that the record lacks stops the rendering, naming the file
and the key. The picture carries the SHA-256 of the figures it was drawn from (its PNG `Source`
text, benches/plot_bandwidth.py), which must be the record's.

The rule, which --check enforces:
- each block equals what the record renders it to (so every figure in it has a source there);
- outside the blocks, the README states no measured figure: no number followed by a unit of
  time (ns, us, µs, ms) or of bandwidth (GB/s, MB/s), no ratio (`0.75x`, `2.6 times`), no
  percentage followed by faster, slower or of, and no table with a cell that is a number. A
  size (`1000x1000`), a count, a bound (a number after `at most`, `at least`, `within`, `more
  than`, `less than`, `<=` or `>=`: a target or a threshold) are not figures. A figure that prose
  wants to quote goes into a block.

    python3 tools/readme_figures.py            # rewrites README.md's blocks (make bench does)
    python3 tools/readme_figures.py --check    # fails when README.md is not what the record gives

--check needs only Python (make test runs it as check-figures). It also plants two faults in a
copy of the README, a figure of a block changed and a figure written in prose, and fails unless
it finds both.
"""

import hashlib
import json
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RESULTS = ROOT / "benches" / "results"
PICTURE = "docs/copy_bandwidth.png"

BLOCK = re.compile(r"(<!-- figures:([\w-]+) -->\n)(.*?)(<!-- /figures -->)", re.S)
NUMBER = r"\d(?:[\d,]*\d)?(?:\.\d+)?"
STRAY = re.compile(NUMBER + r"(?:\s?(?:ns|us|µs|ms|GB/s|MB/s)\b|x(?![\w\d])| times\b|%\s+(?:faster|slower|of)\b)")
NUMBER_CELL = re.compile(r"\|\s*" + NUMBER + r"\s*(?=\|)")
BOUND = re.compile(r"(?:at most|at least|within|more than|less than|<=|>=)\s*$")


class NoSource(Exception):
    pass


class Record:
    """One benches/results/<name>.json; [key] is a figure, or NoSource."""

    def __init__(self, name):
        path = RESULTS / f"{name}.json"
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError:
            raise NoSource(f"{path.relative_to(ROOT)} is missing: run `make bench`") from None
        self.name, self.command, self.machine, self.figures = name, data["command"], data["machine"], data["figures"]

    def __getitem__(self, key):
        try:
            return self.figures[key]
        except KeyError:
            raise NoSource(f"benches/results/{self.name}.json has no figure {key!r}") from None

    def keys(self):
        return self.figures.keys()

    def source(self):
        m = self.machine
        return f"`{self.command}` on {m['cores']} cores, {m['cpu']}, load {m['load']:g}, {m['date']}"


def fmt(x):
    """117, 17.0, 4.1, 0.20, 0.050: 1 decimal from 1 to 100, 2 significant digits below."""
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.1f}" if x >= 1 else f"{x:#.2g}"


def fmt_time(ns):
    for unit, scale in (("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{fmt(ns / scale)} {unit}"
    return f"{fmt(ns)} ns"


def prose(text):
    """text wrapped as the README's paragraphs are (write `plus`, not `+`: a line may start there)."""
    return textwrap.fill(text, 100, break_long_words=False, break_on_hyphens=False)


def table(header, rows, align):
    def line(cells):
        return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"
    return "\n".join([line(header), "|" + "|".join(align) + "|"] + [line(r) for r in rows])


def bridge():
    r = Record("bridge")
    compilers = sorted({k.split("/")[0] for k in r.keys()}, key=lambda c: c != "gcc")
    views = [("rows_cols", "`a[:-1, :-1]` (`index_2d_2d`)"), ("rows", "`a[:-1]` (`slice_axis_2d`)"),
             ("row", "`a[3]` (`index_axis_2d`)"), ("T", "`a.T` (`transpose_2d`)"),
             ("subview", "a subview of a flat buffer (`subview_1d_2d`; Cython: `buf[64:]`)")]
    forms = [("loop", "reassigned in a loop"), ("fresh", "a fresh local of a `cdef inline` function"),
             ("return", "returned from a `noexcept nogil` function")]
    rows = [[view, cc] + [f"{fmt(r[f'{cc}/{kind}/{form}/mvs'])} / {fmt(r[f'{cc}/{kind}/{form}/cy'])}"
                          for form, _ in forms]
            for kind, view in views for cc in compilers]
    return (prose(f"{r.source()}, ns per view, the helper's / Cython's own:") + "\n\n"
            + table(["view", "C compiler"] + [as_ for _, as_ in forms], rows, ["---", "---"] + ["---:"] * 3))


def pool():
    r = Record("pool")
    rows = [("typed pool, `pool_acquire_2d` + `pool_release_2d` (nogil)", "typed_pool"),
            ("the C pool underneath, `mvs_pool_acquire` + `mvs_pool_release` (nogil)", "c_pool"),
            ("`slab[i]` of a preallocated (64, 3, 3) slab, Cython's own indexing (nogil)", "slab"),
            ("`np.empty((3, 3))` alone, from Python, no writes (with the GIL)", "np_empty_only"),
            ("`cython.view.array((3, 3))` (with the GIL)", "view_array"),
            ("`np.empty((3, 3))` into a typed memoryview, from Cython (with the GIL)", "np_empty_cython"),
            ("the C pool's memory cast with `<double[:3, :3]>` (with the GIL)", "pool_cast")]
    typed = r["typed_pool"]
    return (prose(f"{r.source()}, best of {r['rounds']:g} runs:") + "\n\n"
            + table(["", "ns per array"], [(label, fmt(r[key])) for label, key in rows], ["---", "---:"]) + "\n\n"
            + prose(f"The typed pool is {fmt(r['np_empty_cython'] / typed)}x as fast as `np.empty` into a typed "
                    f"memoryview ({fmt(r['np_empty_only'] / typed)}x `np.empty` alone)."))


def alloc():
    r = Record("alloc")
    rows = [[name, fmt(r[f"{name}/ours"]), fmt(r[f"{name}/theirs"]), f"{r[f'{name}/worst']:.2f}x"]
            for name in (k[:-len("/ours")] for k in r.keys() if k.endswith("/ours"))]
    return (prose(f"{r.source()}, ns per pair and thread, the best of {r['rounds']:g} rounds in each of "
                  f"{r['processes']:g} processes; pool rows against `malloc(72)` plus `free`:") + "\n\n"
            + table(["", "memviewslice", "baseline", f"ratio, the worst of {r['processes']:g} processes"], rows,
                    ["---", "---:", "---:", "---:"]))


def cython_copy():
    r = Record("cython_copy")
    rows = [(f"contiguous (`memcpy`: {fmt(r['memcpy'])})", "contiguous"),
            ("`src[:, ::2]` of (1024, 2048) into (1024, 1024)", "strided"),
            ("`src.T`, (1024, 1024)", "transposed"),
            ("a new C-contiguous copy of `src.T` (`copy_c_2d`; `np.ascontiguousarray`; `.copy()`)", "copy_c"),
            ("fill with 1.5 (`fill_1d`; `a.fill(1.5)`)", "fill"),
            (f"fill with 0.0 (`memset`: {fmt(r['memset'])})", "fill0")]
    cells = [[label] + [fmt(r[f"{key}/{who}"]) if f"{key}/{who}" in r.keys() else ""
                        for who in ("helper", "numpy", "cython")] for label, key in rows]
    return (prose(f"{r.source()}, GB/s of the destination, best of {r['rounds']:g} rounds:") + "\n\n"
            + table(["", "helpers", "NumPy `dst[...] = src`", "Cython `d[...] = s`"], cells,
                    ["---", "---:", "---:", "---:"]))


def copy():
    r = Record("criterion")
    rows = [("contiguous copy, against `memcpy`", "contiguous/mvs_copy", "contiguous/memcpy"),
            ("`src[:, ::2]` of (1024, 2048) into (1024, 1024), against a plain loop", "strided/mvs_copy",
             "strided/loop"),
            ("`dst[...] = src.T`, (1024, 1024), against a plain loop in 32 by 32 tiles", "transposed/mvs_copy",
             "transposed/tiled32"),
            ("fill with 1.5, against a plain loop", "fill/mvs_fill", "fill/loop"),
            ("fill with 0.0, against `memset`", "fill/mvs_fill_zero", "fill/memset")]
    small, floor = r["copy_small/mvs_copy"], r["copy_small/floor"]
    return (prose(f"{r.source()}, criterion's medians, GB/s:") + "\n\n"
            + table(["", "memviewslice", "baseline"],
                    [(label, fmt(r[f"copy/{a} GB/s"]), fmt(r[f"copy/{b} GB/s"])) for label, a, b in rows],
                    ["---", "---:", "---:"]) + "\n\n"
            + prose(f"A (3, 3) view copied into a (3, 3) array: {fmt_time(small)}, {fmt(small / floor)} times a "
                    f"208-byte struct copy plus a 72-byte `memcpy` ({fmt_time(floor)})."))


def transpose():
    r = Record("transpose")
    itemsizes = (1, 2, 4, 8, 16)

    def speed(key):
        return f"{r[key + '/memcpy_ms'] / r[key + '/mvs_copy_ms']:.2f}x"

    def times(key):
        return f"{fmt(r[key + '/mvs_copy_ms'])} / {fmt(r[key + '/memcpy_ms'])} ms"

    rows = [[f"`src.T`, {n} x {n}"] + [speed(f"transpose/{n}/{i}") for i in itemsizes] + [times(f"transpose/{n}/8")]
            for n in (1000, 2000, 2048, 4096)]
    rows.append(["`src.transpose(2, 0, 1)`, 200 x 200 x 200"] + [""] * 3 + [speed("permute/200/8"), "",
                                                                        times("permute/200/8")])
    rows.append(["contiguous, 2000 x 2000"] + [""] * 3 + [speed("contiguous/2000/8"), "", times("contiguous/2000/8")])
    header = ["into a C-contiguous array"] + [f"{i} B" for i in itemsizes] + ["float64: `mvs_copy` / `memcpy`"]
    return (prose(f"{r.source()}, best of {r['rounds']:g} rounds, `mvs_copy`'s speed as a fraction of "
                  "`memcpy`'s on the same bytes, by item size:") + "\n\n"
            + table(header, rows, ["---"] + ["---:"] * 6))


def iteration():
    r = Record("iter")

    def span(keys):
        lo, hi = fmt_time(min(r[k] for k in keys)), fmt_time(max(r[k] for k in keys))
        if lo == hi:
            return lo
        (a, unit_a), unit_b = lo.split(), hi.split()[1]
        return f"{a} to {hi}" if unit_a == unit_b else f"{lo} to {hi}"

    layouts = ("contiguous", "b transposed", "b broadcast")
    rows = [
        ("`c = a + b`, 1000x1000", fmt_time(r["add mvs"]), f"the same loop in C over the flat arrays "
         f"{fmt_time(r['add C'])}; `np.add(a, b, out=c)` {fmt_time(r['add np'])}"),
        ("`c = a + b.T`, 2000x2000", fmt_time(r["T mvs"]),
         f"`np.add` {fmt_time(r['T np'])}; Cython's nested loop {fmt_time(r['T cy'])}"),
        ("`c = a + b.T`, 4000x4000 (in tiles)", fmt_time(r["T4 mvs"]),
         f"`np.add` {fmt_time(r['T4 np'])}; Cython's nested loop {fmt_time(r['T4 cy'])}"),
        ("`s[i] += x[i, j]`, 1000x1000 (a reduction)", fmt_time(r["sum mvs"]),
         f"`np.sum(x, axis=1, out=s)` {fmt_time(r['sum np'])}; Cython's nested loop {fmt_time(r['sum cy'])}"),
        ("setting up a 3-operand (8, 8, 8, 8) iteration", span([f"init mvs {b}" for b in layouts]),
         f"`NpyIter_MultiNew` plus `NpyIter_Deallocate` {span([f'init np {b}' for b in layouts])}"),
        ("each run (each call of the inner loop)", fmt_time(r["per run apply"]), ""),
    ]
    return (prose(f"{r.source()}, float64, best of {r['rounds']:g} interleaved rounds:") + "\n\n"
            + table(["", "memviewslice", "baselines"], rows, ["---", "---:", "---"]))


def bandwidth():
    r = Record("bandwidth")
    sizes = sorted({int(k.rsplit("/", 1)[1]) for k in r.keys() if k != "rounds"})
    if not sizes:
        raise NoSource("benches/results/bandwidth.json has no figures")
    digest = hashlib.sha256(json.dumps(r.figures, sort_keys=True).encode()).hexdigest()
    if png_text(ROOT / PICTURE).get("Source") != digest:
        raise NoSource(f"{PICTURE} is missing or was not drawn from benches/results/bandwidth.json: "
                       "run `make bench-bandwidth`")
    return (f"![Copy bandwidth against the destination's size: mvs_copy and np.copyto from contiguous, strided "
            f"and transposed float64 sources, and memcpy]({PICTURE})\n\n"
            + prose(f"{r.source()}: GB/s of the destination, {sizes[0] // 1024} KiB to {sizes[-1] >> 20} MiB, "
                    f"best of {r['rounds']:g} rounds; `mvs_copy` through `f64.copy_2d` from `nogil` Cython, "
                    "`np.copyto` from Python; strided sources take every other item of each row."))


def png_text(path):
    """The tEXt entries of a PNG file (none when it is missing)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    text, pos = {}, 8
    while pos + 8 <= len(data):
        length, kind = int.from_bytes(data[pos:pos + 4], "big"), data[pos + 4:pos + 8]
        if kind == b"tEXt":
            key, _, value = data[pos + 8:pos + 8 + length].partition(b"\0")
            text[key.decode("latin-1")] = value.decode("latin-1")
        pos += 12 + length
    return text


def dlpack():
    r = Record("dlpack")
    rows = [[f"x {size} float64", fmt(r[f"ours/{size}"]), fmt(r[f"numpy/{size}"]), f"{r[f'ours/{size}'] / r[f'numpy/{size}']:.2f}x"]
            for size in ("3x3", "1000x1000")]
    return (prose(f"{r.source()}, ns per import and release, best of {r['rounds']:g} interleaved rounds "
                  f"(`x.__dlpack__()` alone, the producer's share: {fmt(r['dlpack_alone'])} ns):") + "\n\n"
            + table(["", "`memviewslice.from_dlpack(x)`", "`np.from_dlpack(x)`", "ratio"], rows,
                    ["---", "---:", "---:", "---:"]))


def exchange():
    r = Record("exchange")
    producers = [("export", "a `BufferExport`"), ("torch", "a `torch.Tensor`")]
    columns = ["exchange", "capsule", "import_dlpack", "from_dlpack", "np_from_dlpack"]
    rows = [[name] + [fmt(r[f"{key}/{c}"]) for c in columns] for key, name in producers if f"{key}/exchange" in r.keys()]
    return (prose(f"{r.source()}, ns per import and release of a 3x3 float64 tensor, best of {r['rounds']:g} "
                  "interleaved rounds:") + "\n\n"
            + table(["", "C: `mvs_dlpack_import_object`", "C: `__dlpack__` capsule", "C: `import_dlpack`",
                     "`from_dlpack(x)`", "`np.from_dlpack(x)`"], rows, ["---"] + ["---:"] * 5))


RENDER = {"bridge": bridge, "pool": pool, "alloc": alloc, "dlpack": dlpack, "exchange": exchange, "cython-copy": cython_copy, "copy": copy, "transpose": transpose,
          "iter": iteration, "bandwidth": bandwidth}


def render(text):
    """README text with every block rendered from the record, and the list of problems."""
    problems = []

    def block(m):
        name = m.group(2)
        if "<!-- figures:" in m.group(3):
            problems.append(f"figures:{name}: not closed by `<!-- /figures -->` before the next block")
            return m.group(0)
        if name not in RENDER:
            problems.append(f"figures:{name}: no such block (known: {', '.join(RENDER)})")
            return m.group(0)
        try:
            return f"{m.group(1)}{RENDER[name]()}\n{m.group(4)}"
        except NoSource as e:
            problems.append(f"figures:{name}: {e}")
            return m.group(0)

    out = BLOCK.sub(block, text)
    found = [m.group(2) for m in BLOCK.finditer(text)]
    problems += [f"figures:{name}: not in README.md" for name in RENDER if name not in found]
    problems += [f"figures:{name}: twice in README.md" for name in set(found) if found.count(name) > 1]
    return out, problems


def strays(text):
    """The measured figures of README text outside the blocks: (line number, line)."""
    outside = BLOCK.sub(lambda m: m.group(1) + "\n" * m.group(3).count("\n") + m.group(4), text)
    in_code = False
    found = []
    for n, line in enumerate(outside.splitlines(), 1):
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (any(not BOUND.search(line[:m.start()]) for m in STRAY.finditer(line))
                              or line.startswith("|") and NUMBER_CELL.search(line)):
            found.append((n, line))
    return found


def planted_faults(text):
    """The faults that --check fails to see in `text` with one of them planted (none, when it sees
    both)."""
    missed = []
    block = next(BLOCK.finditer(text))
    digit = re.search(r"(\d)[^|\n]*\|$", block.group(3), re.M)  # in the last cell of a table's row
    start = block.start(3) + digit.start(1)
    changed = text[:start] + str((int(digit.group(1)) + 1) % 10) + text[start + 1:]
    if render(changed)[0] == changed:
        missed.append("a figure changed in the block " + block.group(2))
    if not strays(text[:block.start()] + "It takes 4.2 ns.\n\n" + text[block.start():]):
        missed.append("a figure written in prose")
    return missed


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] not in ([], ["--check"]):
        sys.exit(f"usage: {argv[0]} [--check]")
    text = README.read_text()
    new, problems = render(text)
    problems += [f"README.md:{n}: a measured figure outside the figure blocks: {line.strip()}"
                 for n, line in strays(text)]
    if check and new != text:
        changed = [m.group(2) for m, o in zip(BLOCK.finditer(text), BLOCK.finditer(new)) if m.group(0) != o.group(0)]
        problems.append(f"README.md's figure blocks that differ from what benches/results renders: "
                        f"{', '.join(changed)}; run `python3 tools/readme_figures.py` (or `make bench`) and commit")
    if check:
        problems += [f"--check did not notice {fault} in a copy of README.md" for fault in planted_faults(new)]
    if not check and new != text:
        README.write_text(new)
        print("README.md: figure blocks rewritten from benches/results")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    if check:
        print(f"check-figures: README.md's {len(RENDER)} figure blocks are what benches/results gives, "
              "no measured figure stands outside them, and planted faults are noticed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
