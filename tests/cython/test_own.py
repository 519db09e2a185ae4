#!/usr/bin/env python3
"""Ownership through the Cython layer: C memory handed to NumPy is freed exactly once, by the
caller's deallocator, over 100,000 hand-offs with views of views, slices, memoryview and
typed-memoryview consumers released in every order; read-only memory is exported read-only;
export() refuses views outside their buffer; the pool under threads, and its errors.

    PYTHONPATH=build/cython_own python tests/cython/test_own.py [--handoffs N]
"""

import argparse
import gc
import random
import sys

import numpy as np

import own_test

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL", what)


def consumers(export, r):
    """Users of one export, made in a random order and chained (views of views)."""
    made = []
    kinds = ["asarray", "slice", "view_of_view", "memoryview", "mv_slice", "typed", "frombuffer"]
    for kind in r.sample(kinds, r.randint(1, len(kinds))):
        if kind == "asarray":
            made.append(np.asarray(export))
        elif kind == "slice":
            made.append(np.asarray(export)[1:, ::2])
        elif kind == "view_of_view":
            base = made[-1] if made and isinstance(made[-1], np.ndarray) else np.asarray(export)
            made.append(base.T[::-1])
        elif kind == "memoryview":
            made.append(memoryview(export))
        elif kind == "mv_slice":
            made.append(memoryview(export)[1:])
        elif kind == "typed":
            made.append(own_test.typed(export))
        elif kind == "frombuffer":
            made.append(np.frombuffer(export, dtype=np.float64))
    return made


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--handoffs", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=20261130)
    args = p.parse_args()
    r = random.Random(args.seed)
    gc.disable()  # reference counting alone must free everything, at the right moment

    # 1. Exactly once, at the last release, whatever the order.
    base = own_test.freed()
    early = late = 0
    for i in range(args.handoffs):
        export, count = own_test.handoff(3, 4, first=i)
        if count != 2:
            check(False, f"hand-off {i}: buffer reference count {count} before the creator's release, not 2")
        users = [export] + consumers(export, r)
        del export
        check(own_test.sum_rows(users[0]) == 12 * i + 66, f"hand-off {i}: wrong contents")
        r.shuffle(users)
        while users:
            if own_test.freed() != base + i:
                early += 1
            users.pop()
        if own_test.freed() != base + i + 1:
            late += 1
    check(early == 0, f"memory freed while a user was alive, {early} times")
    check(late == 0, f"memory not freed once after its last user, {late} times")
    print(f"hand-offs: {args.handoffs}, frees: {own_test.freed() - base} (early {early}, late {late})")

    # 2. Read-only memory is exported read-only.
    ro, _ = own_test.handoff(2, 2, readonly=True)
    check(memoryview(ro).readonly, "a read-only buffer exported writable")
    check(not np.asarray(ro).flags.writeable, "NumPy got a writable array of read-only memory")
    for request in (lambda: own_test.writable_request(ro), lambda: own_test.sum_rows(ro)):
        try:
            request()
            check(False, "a writable request on read-only memory succeeded")
        except BufferError as e:
            check("read-only" in str(e), f"BufferError without the reason: {e}")
    rw, _ = own_test.handoff(2, 2)
    own_test.writable_request(rw)
    n = own_test.freed()
    del ro, rw
    check(own_test.freed() == n + 2, "read-only or writable exports not freed")

    # Contiguity requests are honoured: an F-ordered (3, 4) export is F- but not C-contiguous.
    fe, _ = own_test.handoff(3, 4, order="F")
    check(np.asarray(fe).flags.f_contiguous and np.asarray(fe).strides == (8, 24), "F export layout")
    check(own_test.contiguous_request(fe, "F") == (8, 24), "F request on an F export")
    check(own_test.contiguous_request(fe, "A") == (8, 24), "any-contiguous request on an F export")
    try:
        own_test.contiguous_request(fe, "C")
        check(False, "a C-contiguous request on an F export succeeded")
    except BufferError as e:
        check("C-contiguous" in str(e), f"BufferError without the reason: {e}")
    check(own_test.contiguous_request(own_test.handoff(3, 4)[0], "C") == (32, 8), "C request on a C export")
    n = own_test.freed()
    del fe
    check(own_test.freed() == n + 1, "the F export not freed")

    # 3. export() refuses what it cannot export, and frees the block anyway.
    n = own_test.freed()
    messages = own_test.export_errors()
    print("export errors:", messages)
    check(len(messages) == 2 and "ok" not in messages, f"export errors: {messages}")
    check(own_test.freed() == n + 1, "a refused export leaked its block")

    # 4. The pool under threads; its errors.
    for threads in (1, 2, 4, 8):
        bad, arrays, acquired = own_test.pool_hammer(threads, 400_000, 2)
        print(f"pool, {threads} threads x 400,000 rounds: {bad} bad reads, {arrays} arrays, {acquired} still out")
        check(bad == 0 and acquired == 0 and arrays <= 2 * max(threads, 2), f"pool with {threads} threads")
    messages = own_test.pool_errors()
    print("pool errors:", messages)
    check(messages[0] != "ok" and messages[1] == "ok" and messages[2] != "ok", f"pool releases: {messages}")

    print("ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
