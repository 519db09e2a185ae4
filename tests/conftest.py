"""pytest configuration of the Python test suites (tests/test_*.py, tests/cython/test_*.py).

Options (each with an environment variable as its default):

  --mvs-lib PATH      the C library for the ctypes suites (test_numpy_oracle.py,
                      test_numpy_copy.py); $MVS_LIB, else target/release/libmemviewslice.so
  --seed N            the seed of a suite's random cases (default: the suite's own, as before)
  --cases N           how many random cases (default: the suite's own; test_ops: per helper
                      and dtype)
  --cy-build DIR      directories (comma-separated) holding the built Cython modules, put
                      first on sys.path; $MVS_CY_BUILD
  --cy-codes CODES    the dtype codes of tests/cython/test_ops.py (ops_<code> modules,
                      comma-separated); $MVS_CY_CODES, else every dtype
  --cy-view-codes CODES
                      the dtype codes whose view helpers test_ops tests (their ops_<code>
                      modules built with them); $MVS_CY_VIEW_CODES, else every dtype
  --gil-modules MODS  the built variants of gil_test.pyx for tests/cython/test_gil.py
                      (comma-separated); $MVS_GIL_MODULES, else gil_test_c_on,gil_test_c_off,
                      gil_test_cpp_on,gil_test_cpp_off
  --handoffs N, --copies N   tests/cython/test_own.py's counts (defaults 100,000 each)
  --ft-seconds S, --ft-threads N   tests/freethreading/test_freethreading.py's stress test: the
                      seconds of mixed work (default 20) and the threads (default 8)

Tests record a summary line (record_property("summary", ...)): the counts of what they ran,
printed at the end of the session, so that a run can be compared with another.
"""

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def pytest_addoption(parser):
    g = parser.getgroup("memviewslice")
    g.addoption("--mvs-lib", default=os.environ.get("MVS_LIB", str(ROOT / "target/release/libmemviewslice.so")),
                help="path to libmemviewslice.so (default $MVS_LIB, else target/release/libmemviewslice.so)")
    g.addoption("--seed", type=int, default=None, help="seed of the random cases (default: each suite's own)")
    g.addoption("--cases", type=int, default=None, help="number of random cases (default: each suite's own)")
    g.addoption("--cy-build", default=os.environ.get("MVS_CY_BUILD", ""),
                help="directories of the built Cython test modules, comma-separated (default $MVS_CY_BUILD)")
    g.addoption("--cy-codes", default=os.environ.get("MVS_CY_CODES", ""),
                help="dtype codes of the ops_<code> modules, comma-separated (default $MVS_CY_CODES, else all)")
    g.addoption("--cy-view-codes", default=os.environ.get("MVS_CY_VIEW_CODES", ""),
                help="dtype codes whose view helpers are tested, comma-separated (default $MVS_CY_VIEW_CODES, else all)")
    g.addoption("--gil-modules", default=os.environ.get("MVS_GIL_MODULES", ""),
                help="built variants of gil_test.pyx, comma-separated (default $MVS_GIL_MODULES, else all four)")
    g.addoption("--handoffs", type=int, default=100_000, help="test_own.py: hand-offs per kind")
    g.addoption("--copies", type=int, default=100_000, help="test_own.py: contiguous copies")
    g.addoption("--ft-seconds", type=float, default=20.0, help="test_freethreading.py: seconds of mixed work")
    g.addoption("--ft-threads", type=int, default=8, help="test_freethreading.py: threads")


def split(value):
    return [v for v in (x.strip() for x in value.replace(" ", ",").split(",")) if v]


def pytest_configure(config):
    # tests/cython/test_gil.py makes a class per module when it is imported, from the environment.
    if config.getoption("--gil-modules"):
        os.environ["MVS_GIL_MODULES"] = config.getoption("--gil-modules")
    for d in reversed(split(config.getoption("--cy-build"))):
        sys.path.insert(0, str(pathlib.Path(d).resolve()))


def pytest_terminal_summary(terminalreporter):
    lines = []
    for key in ("passed", "failed"):
        for rep in terminalreporter.stats.get(key, []):
            if getattr(rep, "when", None) != "call":
                continue
            for name, value in getattr(rep, "user_properties", ()):
                if name == "summary":
                    lines.append((rep.nodeid, value))
    if lines:
        terminalreporter.section("counts")
        for nodeid, value in sorted(lines):
            terminalreporter.write_line(f"{nodeid}: {value}")
