"""The NumPy differential test of the data movement (tests/numpy_copy.py: mvs_copy, mvs_fill,
mvs_copy_contiguous) under pytest: test_random[copy], test_random[fill] and
test_random[contiguous] run each function's share of the random cases (mvs_copy's in two
halves, test_random[copy-part1of2] and [copy-part2of2], for `-n 2`) (50,000 cases of seed
20250619 drawn over the three functions with the script's weights: the very cases the script
runs), and test_named[<name>] runs each named test. Each asserts no mismatch and no oracle error;
the assertion message lists the mismatches, each with its case number.

    .venv/bin/python -m pytest tests/test_numpy_copy.py -q [-n 2] [--mvs-lib PATH] [--seed N] [--cases N]
    .venv/bin/python -m pytest tests/test_numpy_copy.py -k fill
    .venv/bin/python -m pytest "tests/test_numpy_copy.py::test_random[contiguous]"

(`-k copy` selects everything: the module's name has it; `-k "random and part"` selects mvs_copy's
cases.)

One case alone: `python tests/numpy_copy.py LIB --seed N --case I` (the case numbers are the same).
"""

import pytest

import numpy_copy as nc


@pytest.fixture(scope="module")
def lib(request):
    return nc.load(request.config.getoption("--mvs-lib"))


def settings(config):
    seed = config.getoption("--seed")
    cases = config.getoption("--cases")
    return (nc.DEFAULT_SEED if seed is None else seed), (nc.DEFAULT_CASES if cases is None else cases)


def function_name(op):
    return "mvs_copy_contiguous" if op == "contiguous" else "mvs_" + op


# mvs_copy's cases take about 70% of the time: split in two halves (every other case), so that
# `-n 2` keeps both cores busy.
PARTS = {"copy": 2}
RANDOM = [(op, k, PARTS.get(op, 1)) for op in nc.OPS for k in range(PARTS.get(op, 1))]


@pytest.mark.parametrize("op, part, parts", RANDOM,
                         ids=[op if n == 1 else f"{op}-part{k + 1}of{n}" for op, k, n in RANDOM])
def test_random(op, part, parts, lib, request, record_property):
    seed, cases = settings(request.config)
    runner, bugs = nc.run_kind(lib, op, seed, cases, part, parts)
    st = runner.stats[op]
    kinds = " ".join(f"{t}:{n}" for t, n in sorted(st["tags"].items()))
    record_property("summary", f"{function_name(op)}: {st['cases']} cases, {st['errors']} errors, "
                               f"{st['mismatches']} mismatches ({kinds})"
                               + (f" [part {part + 1} of {parts}: every {parts}th case]" if parts > 1 else ""))
    message = []
    if bugs:
        message.append(f"{len(bugs)} oracle errors (bugs in this test):")
        message += ["  " + b for b in bugs]
    if st["mismatches"]:
        shown = len(runner.mismatches)
        message.append(f"{function_name(op)}: {st['mismatches']} mismatches (seed {seed}, {cases} cases)"
                       + (f"; the first {shown}:" if shown < st["mismatches"] else ":"))
        message += [m.rstrip("\n") for m in runner.mismatches]
    assert not bugs and not st["mismatches"], "\n".join(message)


@pytest.mark.parametrize("t", nc.NAMED, ids=lambda t: t.__name__[2:])
def test_named(t, lib, record_property):
    probs, note = nc.named_result(lib, t)
    record_property("summary", ("ok" if not probs else f"{len(probs)} problems") + (f"  {note}" if note else ""))
    assert not probs, f"{t.__name__[2:]}:\n" + "\n".join(f"  {p}" for p in probs)
