#!/usr/bin/env python3
"""Ownership through the Cython layer: C memory handed to NumPy is freed exactly once, by the
caller's deallocator, over 100,000 hand-offs with views of views, slices, memoryview and
typed-memoryview consumers released in every order; the same over 100,000 hand-offs as typed
memoryviews of the buffer (from_buffer_2d), with more from_buffer views, Cython slices and
transposes, NumPy arrays and memoryviews made and deleted at random, and never freed while
one lives; the same over 100,000 contiguous copies (copy_c_2d, copy_f_2d), whose memory is the
library's own (watched through the C heap in use); const views (from_buffer_const_2d) are read-only, and a writable view of read-only
memory is refused; read-only memory is exported read-only;
export() refuses views outside their buffer; the pool under threads, and its errors.

    .venv/bin/python -m pytest tests/cython/test_own.py -q --cy-build build/cython_own \
        [--handoffs N] [--copies N] [--seed S] [-k copies]

One pytest test per section: TestDrawing::test_section[handoffs|buffer_handoffs|copies] (one
random generator, in this order) and test_other[const_views|read_only_exports|contiguity|
export_errors|pool]; see the end of this file.
"""

import gc
import random
import sys

import numpy as np
import pytest

import memviewslice
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


# from_buffer views of a (3, 4) buffer of items i + k: (offset, rows, cols, order).
BUFFER_VIEWS = [(0, 3, 4, "C"), (4, 2, 4, "C"), (0, 4, 3, "F"), (2, 2, 5, "F"), (6, 3, 2, "C"), (11, 1, 1, "F")]


def buffer_user(users, r, i, make):
    """One random step on the users of hand-off i's buffer (users: its Holder, if still held,
    and views: Cython memoryviews, NumPy arrays, memoryviews): when `make`, a new user made
    from one of them or, one time in four, one of them deleted; else one of them deleted.
    Returns the step's kind ('bad' for a view with wrong contents)."""
    holder = next((u for u in users if isinstance(u, own_test.Holder)), None)
    views = [u for u in users if not isinstance(u, own_test.Holder)]
    kinds = []
    if make and holder is not None:
        kinds += ["from_buffer", "from_buffer_const"]
    if make and views:
        kinds += ["cy_slice", "asarray", "memoryview", "transpose"]
    kind = "del" if not kinds or r.random() < 0.25 else r.choice(kinds)
    if kind == "del":
        del users[r.randrange(len(users))]
        return kind
    if kind in ("from_buffer", "from_buffer_const"):
        offset, rows, cols, order = r.choice(BUFFER_VIEWS)
        new_view = holder.view if kind == "from_buffer" else holder.const_view
        v = new_view(offset, rows, cols, order)
        users.append(v)
        return kind if own_test.corner(v) == i + offset else "bad"
    src = r.choice(views)
    if isinstance(src, memoryview):  # (a builtin memoryview of a 2-D array: NumPy's way back)
        src = np.asarray(src)
    if kind == "cy_slice":  # Cython's slicing: at Python level, or of a typed memoryview argument
        if src.shape[0] < 2:
            users.append(src.T)
        else:
            users.append(src[1:, ::2] if r.random() < 0.5 else own_test.cy_slice(src))
    elif kind == "asarray":
        users.append(np.asarray(src))
    elif kind == "memoryview":
        users.append(memoryview(np.asarray(src)))
    else:  # transpose: Cython's or NumPy's .T, Cython's of an argument, or f64.transpose_2d
        how = r.randrange(3)
        if how == 0:
            users.append(src.T)
        elif how == 1:
            users.append(own_test.cy_transpose(src))
        elif np.asarray(src).flags.writeable:
            users.append(own_test.mvs_transpose(src))
        else:
            users.append(own_test.cy_transpose(src))
    return kind


COPY_SHAPE = (128, 256)  # float64: 256 KiB
COPY_BYTES = 8 * COPY_SHAPE[0] * COPY_SHAPE[1]


def copies(r, n):
    """n copies by copy_c_2d or copy_f_2d of a (128, 256) float64 source, writable or read-only,
    transposed or flipped, each with a random mix of users (NumPy arrays, memoryviews, Cython
    and f64 slices and transposes) made and deleted; the memory held while any user lives,
    freed after the last. Then 2,000 copies dropped in nogil code, which leave nothing behind."""
    base = np.arange(float(COPY_SHAPE[0] * COPY_SHAPE[1])).reshape(COPY_SHAPE)
    frozen = base.copy()
    frozen.flags.writeable = False
    sources = {"C": base, "T": base.T, "flipped": base[::-1, ::-1], "read-only": frozen}
    early = late = bad = 0
    ops = {}
    for i in range(n):
        kind = r.choice(list(sources))
        src = sources[kind]
        order = r.choice("CF")
        before = own_test.heap_in_use()
        view = own_test.copy_handoff(src, order)
        arr = np.asarray(view)
        if i % 100 == 0:  # the whole copy, now and then
            exp = np.ascontiguousarray(src) if order == "C" else np.asfortranarray(src)
            if not np.array_equal(arr, exp) or arr.strides != exp.strides or not arr.flags.writeable:
                bad += 1
            del exp  # (freed now: not while a later copy is watched)
        elif own_test.corner(view) != src[0, 0] or arr[-1, -1] != src[-1, -1]:
            bad += 1
        users = [view] if r.random() < 0.5 else [view, arr]  # sometimes a NumPy array from the start
        del view, arr
        steps = r.randint(0, 6)
        while users:
            if own_test.heap_in_use() - before < COPY_BYTES // 2:
                early += 1
            kind = buffer_user(users, r, i, steps > 0)
            steps -= 1
            ops[kind] = ops.get(kind, 0) + 1
        if own_test.heap_in_use() - before >= COPY_BYTES // 2:
            late += 1
    check(early == 0, f"copies: memory freed while a user was alive, {early} times")
    check(late == 0, f"copies: memory not freed after the last user, {late} times")
    check(bad == 0, f"copies: {bad} wrong contents")
    print(f"copies: {n} by copy_c_2d/copy_f_2d of 256 KiB (early frees {early}, late {late}, wrong contents {bad}); "
          "operations: " + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())))

    # The explicit case: a NumPy array made from the copy keeps it after the copy goes.
    before = own_test.heap_in_use()
    view = own_test.copy_handoff(base.T, "F")
    arr = np.asarray(view)
    del view
    held = own_test.heap_in_use() - before
    check(held >= COPY_BYTES // 2 and arr.flags.f_contiguous and np.array_equal(arr, base.T),
          f"copies: np.asarray of a copy, the copy gone: {held} bytes held, F-contiguous {arr.flags.f_contiguous}")
    del arr
    gone = own_test.heap_in_use() - before
    check(gone < COPY_BYTES // 2, f"copies: {gone} bytes still held after the NumPy array went")

    # Copies dropped in nogil code (their last release there) leave nothing behind.
    before = own_test.heap_in_use()
    total = own_test.copies_dropped_in_nogil(base, 2000)
    grown = own_test.heap_in_use() - before
    check(total == 2000 * base[0, -1], f"copies dropped in nogil read {total}, not {2000 * base[0, -1]}")
    check(grown < COPY_BYTES // 2, f"copies dropped in nogil: the heap grew by {grown} bytes over 2000 copies")
    print(f"copies: np.asarray of a copy holds {held} bytes after the copy goes, {gone} after the array; "
          f"2000 copies dropped in nogil code: the heap grew by {grown} bytes")


# --- the sections (each a pytest test: see below) -------------------------------------------


def section_handoffs(r, n):
    # 1. Exactly once, at the last release, whatever the order.
    base = own_test.freed()
    early = late = 0
    for i in range(n):
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
    print(f"hand-offs: {n}, frees: {own_test.freed() - base} (early {early}, late {late})")


def section_buffer_handoffs(r, n):
    # 1b. The same through typed memoryviews of the buffer (from_buffer_2d), with a random mix
    # of users made and deleted in between.
    base = own_test.freed()
    early = late = bad = 0
    ops = {}
    for i in range(n):
        view, holder = own_test.buffer_handoff(3, 4, first=i, keep=r.random() < 0.5)
        if own_test.corner(view) != i or own_test.sum_rows(view) != 12 * i + 66:
            bad += 1
        users = [view] + ([holder] if holder is not None else [])
        del view, holder
        steps = r.randint(1, 8)  # steps that may make users; then the rest are deleted
        while users:
            if own_test.freed() != base + i:
                early += 1
            kind = buffer_user(users, r, i, steps > 0)
            steps -= 1
            ops[kind] = ops.get(kind, 0) + 1
            if kind == "bad":
                bad += 1
        if own_test.freed() != base + i + 1:
            late += 1
    check(early == 0, f"buffer views: memory freed while a user was alive, {early} times")
    check(late == 0, f"buffer views: memory not freed once after its last user, {late} times")
    check(bad == 0, f"buffer views: {bad} wrong contents")
    print(f"buffer hand-offs: {n}, frees: {own_test.freed() - base} (early {early}, "
          f"late {late}, wrong contents {bad}); operations: "
          + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())))


def section_copies(r, n):
    # 1c. Contiguous copies (copy_c_2d, copy_f_2d): each a new buffer of the library's own
    # memory, which nothing but the copy holds. That memory is freed inside
    # memviewslice.owners (its owner's export holds the last memory reference), out of reach
    # of a counting deallocator, so the C heap is watched instead (glibc's mallinfo2): the
    # copies are of COPY_BYTES (256 KiB), and a copy's memory counts as held while the heap in
    # use is at least half of that above what it was before the copy, as freed once it is less
    # (a second free of the block would abort the process in glibc).
    if own_test.heap_in_use() < 0:
        pytest.skip("copies: SKIPPED, no mallinfo2 (not glibc): the copies' frees cannot be seen")
    copies(r, n)


def section_const_views():
    # Const views of read-only memory: read-only all the way; a writable view is refused.
    n = own_test.freed()
    cv, holder = own_test.buffer_handoff(2, 3, first=5, readonly=True, keep=True)
    check(not np.asarray(cv).flags.writeable, "NumPy got a writable array of a const view of read-only memory")
    check(memoryview(np.asarray(cv)).readonly, "a memoryview of a const view of read-only memory is writable")
    cv2 = holder.const_view(1, 2, 2, "F")
    check(not np.asarray(cv2).flags.writeable and np.asarray(cv2).tolist() == [[6.0, 8.0], [7.0, 9.0]],
          f"a const F view of read-only memory: {np.asarray(cv2)!r}, writeable {np.asarray(cv2).flags.writeable}")
    try:
        holder.view(0, 2, 3)
        check(False, "from_buffer_2d (writable) of a read-only buffer succeeded")
    except ValueError as e:
        check("read-only" in str(e), f"from_buffer_2d of a read-only buffer: {e}")
        print("from_buffer_2d of a read-only buffer: ValueError:", e)
    # A writable typed memoryview of NumPy's array of it is refused. (Not of the Cython
    # memoryview object itself: Cython takes its own memoryview objects without checking
    # writability, as for any const view of a read-only NumPy array.)
    try:
        own_test.sum_rows(np.asarray(cv))
        check(False, "a writable typed memoryview of NumPy's array of read-only memory")
    except (ValueError, BufferError) as e:
        check("read-only" in str(e), f"a writable typed memoryview of read-only memory: {e}")
    del holder, cv2
    check(own_test.freed() == n, "read-only memory freed while a const view was alive")
    del cv
    check(own_test.freed() == n + 1, "read-only memory not freed once after its const views")
    # Const views of writable memory are read-only too (their owner is not the writable views').
    v, holder = own_test.buffer_handoff(2, 3, keep=True)
    cv = holder.const_view(0, 2, 3)
    check(not np.asarray(cv).flags.writeable and memoryview(np.asarray(cv)).readonly,
          "NumPy got a writable array of a const view of writable memory")
    check(np.asarray(v).flags.writeable, "NumPy got a read-only array of a writable view")
    del v, holder, cv
    check(own_test.freed() == n + 2, "writable memory with const views not freed once")


def section_read_only_exports():
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


def section_contiguity():
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


def section_export_errors():
    # 3. export() refuses what it cannot export, and frees the block anyway.
    n = own_test.freed()
    messages = own_test.export_errors()
    print("export errors:", messages)
    check(len(messages) == 2 and "ok" not in messages, f"export errors: {messages}")
    check(own_test.freed() == n + 1, "a refused export leaked its block")


def section_pool():
    # 4. The pool under threads; its errors.
    for threads in (1, 2, 4, 8):
        bad, arrays, acquired = own_test.pool_hammer(threads, 400_000, 2)
        print(f"pool, {threads} threads x 400,000 rounds: {bad} bad reads, {arrays} arrays, {acquired} still out")
        check(bad == 0 and acquired == 0 and arrays <= 2 * max(threads, 2), f"pool with {threads} threads")
    messages = own_test.pool_errors()
    print("pool errors:", messages)
    check(messages[0] != "ok" and messages[1] == "ok" and messages[2] != "ok", f"pool releases: {messages}")


# --- pytest ----------------------------------------------------------------------------------
# test_own[<section>]. The first three sections draw from one generator (seeded --seed, default
# 20261130) in this order, as the script did: they share it through the module, and a section
# run without the ones before it (-k copies) runs them first, so that it gets the very cases of
# a whole run (their checks count in its result). They are the methods of one class, which
# --dist loadscope keeps on one worker, in order; the other sections are independent. Garbage
# collection is off for the module: reference counting alone must free everything, at the right
# moment. Options (tests/conftest.py): --cy-build (the directory of own_test), --handoffs,
# --copies, --seed.

DEFAULT_SEED = 20261130
def section_import_dlpack():
    # 5. owners.import_dlpack: a NumPy array through its __dlpack__, an export through its C
    # exchange API, each as NumPy sees it, and a buffer whose typed view reads the memory.
    a = np.arange(30.0).reshape(5, 6)[1:, ::2]
    for x, exchange in ((a, False), (memviewslice.from_dlpack(a), True), (np.arange(4, dtype=np.int16)[::-1], False)):
        y = np.asarray(x)
        got = own_test.imported(x)
        want = (y.__array_interface__["data"][0], y.shape, y.strides, y.itemsize, {"f": 2, "i": 0}[y.dtype.kind],
                8 * y.itemsize, exchange, y[0, 0] if y.dtype == np.float64 else 0.0)
        check(got == want, f"import_dlpack of {type(x).__name__} {y.shape}: {got} != {want}")
    try:
        own_test.imported(type("P", (), {"__dlpack_c_exchange_api__": type(memviewslice.from_dlpack(a)).__dlpack_c_exchange_api__})())
        check(False, "import_dlpack of an object that BufferExport's table refuses succeeded")
    except TypeError as e:
        check("takes a BufferExport" in str(e), f"the producer's TypeError: {e}")


DRAWING = ["handoffs", "buffer_handoffs", "copies"]
OTHERS = ["const_views", "read_only_exports", "contiguity", "export_errors", "pool", "import_dlpack"]
_drawn = {}  # the generator and the drawing sections already run, in this process


@pytest.fixture(scope="module", autouse=True)
def no_gc():
    gc.disable()
    yield
    gc.enable()


@pytest.fixture(autouse=True)
def checks(record_property, capsys):
    """Each test starts with no failed check; `checks(section)` at its end records what the
    section printed (its counts) and asserts that no check failed, listing them."""
    failures.clear()

    def done(section):
        out = capsys.readouterr().out
        sys.stdout.write(out)
        record_property("summary", " | ".join(line for line in out.splitlines() if not line.startswith("FAIL")))
        assert not failures, f"{section}: {len(failures)} failed checks:\n" + "\n".join(failures)

    return done


def counts(config, section):
    return {"handoffs": config.getoption("--handoffs"), "buffer_handoffs": config.getoption("--handoffs"),
            "copies": config.getoption("--copies")}[section]


class TestDrawing:
    @pytest.mark.parametrize("section", DRAWING)
    def test_section(self, section, request, checks):
        drawing(section, request, checks)


def drawing(section, request, checks):
    seed = request.config.getoption("--seed")
    seed = DEFAULT_SEED if seed is None else seed
    if _drawn.get("seed") != seed:
        _drawn.clear()
        _drawn.update(seed=seed, r=random.Random(seed), done=[])
    for earlier in DRAWING[:DRAWING.index(section)]:
        if earlier not in _drawn["done"]:
            print(f"(first the earlier section {earlier}, for the generator's state)")
            _drawn["done"].append(earlier)
            globals()["section_" + earlier](_drawn["r"], counts(request.config, earlier))
    assert section not in _drawn["done"], f"{section} already ran in this process: its cases are drawn once"
    _drawn["done"].append(section)
    globals()["section_" + section](_drawn["r"], counts(request.config, section))
    checks(section)


@pytest.mark.parametrize("section", OTHERS)
def test_other(section, checks):
    globals()["section_" + section]()
    checks(section)


def main():
    return pytest.main([__file__, "-q", "-p", "no:cacheprovider", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
