"""The NumPy differential oracle of the C API (tests/numpy_oracle.py) under pytest: one test per
operation, test_op[<operation>] (test_op[reshape] runs mvs_reshape's cases), plus
test_view_as_sweep (every pair of item sizes 1..16 on six layouts).

Each test runs that operation's share of the oracle's random cases (30,000 cases of seed
20240531 drawn over every operation with the oracle's weights: the very cases the script runs)
and asserts that none mismatches and that the oracle raised no error of its own; the assertion
message lists the mismatches, each with its case number.

    .venv/bin/python -m pytest tests/test_numpy_oracle.py -q -n 2 [--mvs-lib PATH] [--seed N] [--cases N]
    .venv/bin/python -m pytest tests/test_numpy_oracle.py -k reshape

One case alone: `python tests/numpy_oracle.py LIB --seed N --case I` (the case numbers are the
same).
"""

import numpy as np
import pytest

import numpy_oracle as oracle


@pytest.fixture(scope="module")
def lib(request):
    if tuple(int(x) for x in np.__version__.split(".")[:2]) < (2, 1):
        pytest.fail(f"NumPy >= 2.1 is needed (reshape's copy=False); found {np.__version__}", pytrace=False)
    return oracle.load_library(request.config.getoption("--mvs-lib"))


def settings(config):
    seed = config.getoption("--seed")
    cases = config.getoption("--cases")
    return (oracle.DEFAULT_SEED if seed is None else seed), (oracle.DEFAULT_CASES if cases is None else cases)


def check(runner, bugs, record_property, what, seed, cases):
    lines = []
    for op, st in sorted(runner.stats.items()):
        kinds = " ".join(f"{k}:{v}" for k, v in sorted(st["codes"].items()))
        lines.append(f"{op}: {st['cases']} cases, {st['errors']} errors, {st['mismatches']} mismatches"
                     + (f" ({kinds})" if kinds else ""))
    record_property("summary", "; ".join(lines) or "0 cases")
    mismatches = sum(st["mismatches"] for st in runner.stats.values())
    message = []
    if bugs:
        message.append(f"{len(bugs)} oracle errors (bugs in this test):")
        message += ["  " + b for b in bugs]
    if mismatches:
        message.append(f"{what}: {mismatches} mismatches (seed {seed}, {cases} cases)"
                       + (f"; the first {len(runner.mismatches)}:" if len(runner.mismatches) < mismatches else ":"))
        message += runner.mismatches
    assert not bugs and not mismatches, "\n".join(message)


@pytest.mark.parametrize("op", list(oracle.OPS), ids=lambda name: name.removeprefix("mvs_"))
def test_op(op, lib, request, record_property):
    seed, cases = settings(request.config)
    runner, bugs = oracle.run_op(lib, op, seed, cases)
    check(runner, bugs, record_property, op, seed, cases)


def test_view_as_sweep(lib, request, record_property):
    seed, cases = settings(request.config)
    runner, bugs = oracle.run_op(lib, oracle.SWEEP_VIEW_AS, seed, cases)
    check(runner, bugs, record_property, oracle.SWEEP_VIEW_AS, seed, cases)
