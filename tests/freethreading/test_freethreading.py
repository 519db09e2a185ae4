"""Free-threaded CPython (3.13t): importing the package, and a module built against it, keeps
the GIL off; threads share its objects in parallel, and nothing is freed twice, early, or handed
to two holders. The stress test runs under the normal GIL build too.

    python -m pytest tests/freethreading/test_freethreading.py --cy-build DIR [--ft-seconds 20]
        [--ft-threads 8]

DIR holds ft_stress (tests/freethreading/ft_stress.pyx, built against the installed package).
The stress test: --ft-threads threads (8), first racing behind a barrier to make the first
owners (of raw memory per dtype, of one buffer shared by all, of a pool's slabs), to drop a
shared buffer's last reference while they hold its views, and to import one DLPack capsule
(one import consumes it); then --ft-seconds (20) of mixed work:
views of raw memory, buffers made, viewed and released, a shared pool, exports to NumPy and
back (from_dlpack, np.from_dlpack, the exchange API), transposed copies. On a free-threaded
CPython it also checks that the GIL stayed off and that the threads ran at once: the wall time of the mixed work is
below 0.75 times the threads' CPU time (2 cores at least; the machine otherwise idle, which is
why `make test` runs it last, alone). The nogil parts run at once under a GIL too: that check
fails when something serializes the threads (a lock in the helpers, or in the package's
objects), and the GIL's state says that the Python parts ran without it.
"""

import os
import subprocess
import sys
import sysconfig
import threading
import time

import numpy as np
import pytest
from memviewslice.owners import Pool, from_dlpack

FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
RACE_ROUNDS = 30


def test_import_keeps_the_gil_off(request):
    """A fresh process imports memviewslice, its compiled module and a module built against it
    (declared free-threading compatible) with RuntimeWarning as an error (CPython warns when it
    turns the GIL on for a module), and the GIL is still off."""
    if not FREE_THREADED:
        pytest.skip("not a free-threaded CPython: its GIL cannot be off")
    code = ("import sys, memviewslice, memviewslice.owners, ft_stress\n"
            "assert not sys._is_gil_enabled(), 'the GIL is on'\n"
            "print('GIL off after importing', memviewslice.owners.__name__, 'and', ft_stress.__name__)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}  # no forcing it off
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    run = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code], env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    print(run.stdout.strip())


def test_gil_state():
    """The build under test: free-threaded with the GIL off, or the normal build."""
    if FREE_THREADED:
        assert not sys._is_gil_enabled(), "the GIL was turned on in this process"


class Worker:
    """One thread's part of the stress test: its mismatches per kind of work, and its CPU time
    in the mixed phase."""

    def __init__(self, k, shared):
        self.k, self.s = k, shared
        self.bad = {}
        self.buffers = 0  # buffers of ft_stress's counting deallocator it made
        self.cpu = 0.0

    def count(self, kind, bad):
        self.bad[kind] = self.bad.get(kind, 0) + bad

    def races(self, m):
        s, first = self.s, self.k == 0
        s.barrier.wait()
        self.count("raw owners", m.raw_views(1))  # every dtype's first raw view, at once
        self.count("pool slabs", m.pool_rounds(s.pool, 1, 1000.0 * self.k))
        for r in range(RACE_ROUNDS):
            if first:
                s.box = m.Shared(16, 16, 1000.0 * r)
                self.buffers += 1
            s.barrier.wait()
            view, bad = s.box.view()  # the buffer's first view, at once: one owner is kept
            self.count("shared buffer owners", bad)
            s.barrier.wait()
            if first:
                s.freed_before = m.freed()
                s.box.release()  # the last reference: the views keep the memory
                s.box = None
            s.barrier.wait()
            self.count("shared buffer freed early", m.check(view, 1000.0 * r))
            s.barrier.wait()
            if first and m.freed() != s.freed_before:
                self.count("shared buffer freed early", 1)
            s.barrier.wait()
            del view
            s.barrier.wait()
            if first and m.freed() != s.freed_before + 1:
                self.count("shared buffer not freed once", 1)
            # One DLPack capsule given to every thread at once: one import consumes it.
            if first:
                s.capsule = OneCapsule(np.arange(6.0) + r)
            s.barrier.wait()
            try:
                e = from_dlpack(s.capsule)
                s.wins[self.k] = 1
                self.count("capsule imports", int(not np.array_equal(np.asarray(e), np.arange(6.0) + r)))
            except ValueError:
                s.wins[self.k] = 0
            s.barrier.wait()
            if first and sum(s.wins) != 1:
                self.count("capsule imports", 1)

    def mixed(self, m, deadline):
        rng = np.random.default_rng(self.k)
        start = time.thread_time()
        while time.monotonic() < deadline:
            self.count("raw views", m.raw_views(200))
            self.count("own buffers", m.own_buffers(50))
            self.buffers += 50
            self.count("pool", m.pool_rounds(self.s.pool, 200, 1000.0 * self.k))
            a = rng.standard_normal((7, 5))
            e = from_dlpack(a)  # NumPy to memviewslice: the export shares a's memory
            b = np.from_dlpack(e)  # and back to NumPy, through the export's __dlpack__
            f = from_dlpack(e)  # an export of the export, through its C exchange API
            self.count("exports", int(not np.shares_memory(a, b)) + int(not np.array_equal(np.asarray(e), a))
                       + int(not np.shares_memory(a, np.asarray(f))))
            self.count("copies", int(not np.array_equal(np.asarray(m.copy_transposed(b)), a.T)))
        self.cpu = time.thread_time() - start


class OneCapsule:
    """A producer that gives the same capsule to every __dlpack__ call."""

    def __init__(self, a):
        self.capsule = a.__dlpack__(max_version=(1, 1))

    def __dlpack__(self, **kwargs):
        return self.capsule


class Shared:
    def __init__(self, n):
        self.barrier = threading.Barrier(n)
        self.wins = [0] * n
        self.capsule = None
        self.pool = Pool("d", (3, 3), capacity=4)  # fewer arrays than threads: it grows
        self.box = None
        self.freed_before = 0


def test_stress(request, record_property):
    import ft_stress as m
    seconds, n = request.config.getoption("--ft-seconds"), request.config.getoption("--ft-threads")
    shared, freed_before = Shared(n), m.freed()
    workers = [Worker(k, shared) for k in range(n)]
    errors, times = [], {}

    def run(w):
        try:
            w.races(m)
            shared.barrier.wait()
            if w.k == 0:
                times["start"] = time.monotonic()
            w.mixed(m, time.monotonic() + seconds)
            shared.barrier.wait()
            if w.k == 0:
                times["end"] = time.monotonic()
        except BaseException as e:  # noqa: BLE001: reported below, with the thread
            errors.append(f"thread {w.k}: {type(e).__name__}: {e}")
            shared.barrier.abort()

    threads = [threading.Thread(target=run, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, "\n".join(errors)
    bad = {}
    for w in workers:
        for kind, b in w.bad.items():
            bad[kind] = bad.get(kind, 0) + b
    made, cpu = sum(w.buffers for w in workers), sum(w.cpu for w in workers)
    wall = times["end"] - times["start"]
    del workers, shared  # the last views and the pool
    freed = m.freed() - freed_before
    record_property("summary", f"{n} threads, {wall:.1f} s of mixed work using {cpu:.1f} s of CPU, "
                               f"{made} buffers freed {freed} times, mismatches {bad}")
    assert not any(bad.values()), f"mismatches: {bad}"
    assert freed == made, f"{made} buffers made, {freed} freed"
    if FREE_THREADED:
        assert not sys._is_gil_enabled(), "the GIL was on during the stress test"
    if FREE_THREADED and (os.cpu_count() or 1) >= 2:
        assert wall < 0.75 * cpu, (f"the threads did not run at once: {wall:.1f} s of wall time for "
                                   f"{cpu:.1f} s of CPU time")
