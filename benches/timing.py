"""What the Python-side benchmarks share (they run as `python benches/<name>.py`, so this
directory is on sys.path)."""

from time import perf_counter_ns


def python_loop(op):
    """f(n): the ns of n calls of op() from Python, the compiled loops' measure for a call that
    users make from Python (NumPy's)."""
    def f(n):
        t = perf_counter_ns()
        for _ in range(n):
            op()
        return perf_counter_ns() - t
    return f
