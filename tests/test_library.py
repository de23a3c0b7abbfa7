"""The tour library: canonical forms, storage, generation, kill -9 and resume, export and import."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import knightstour as kt
from conftest import assert_is_tour
from knightstour.board import Board
from knightstour.errors import KnightsTourError, NoTourError
from knightstour.kernels import jit
from knightstour.kernels import library as _kernels
from knightstour.library import Library, canonical_form
from knightstour.library import canonical as cf
from knightstour.library.generate import Plan, generate, run_batch, walk_starts
from knightstour.library.io import ImportRejectedError, export, import_tours
from knightstour.library.store import MIGRATIONS, canonical_batch

# -- an independent statement of the symmetries -------------------------------------------------


def images(board: Board, path: list[int], closed: bool) -> list[tuple[int, ...]]:
    """Every tour equal to ``path`` up to symmetry, reversal and (closed) rotation, computed
    plainly from coordinates, independently of the library's permutation tables."""
    w, h = board.width, board.height
    maps = [
        lambda x, y: (x, y),
        lambda x, y: (w - 1 - x, y),
        lambda x, y: (x, h - 1 - y),
        lambda x, y: (w - 1 - x, h - 1 - y),
    ]
    if w == h:
        maps += [
            lambda x, y: (y, x),
            lambda x, y: (h - 1 - y, x),
            lambda x, y: (y, w - 1 - x),
            lambda x, y: (h - 1 - y, w - 1 - x),
        ]
    out = []
    for f in maps:
        img = [f(s % w, s // w) for s in path]
        seq = [y * w + x for x, y in img]
        for walk in (seq, seq[::-1]):
            if closed:
                out += [tuple(walk[i:] + walk[:i]) for i in range(len(walk))]
            else:
                out.append(tuple(walk))
    return out


def tours_of(spec: str, closed: bool, n: int, seed: int = 1, method: str = "warnsdorff") -> list:
    """``n`` tours found by the generation kernels (duplicates possible)."""
    board = kt.parse_board(spec)
    plan = Plan(
        board.width,
        board.height,
        closed,
        walk_starts(board, None, closed),
        method,
        seed,
        batch=n,
        slack_moves=board.area // 2,
        per_search=4,
    )
    batch = run_batch(plan, 0)
    tours, ok = cf.decode_batch(board, batch.keys, batch.codes, closed)
    assert ok.all()
    return [t.tolist() for t in tours[:n]]


def all_5x5_tours() -> list[list[int]]:
    """Every directed open tour of 5x5 (1,728 of them, the published count), by exhaustive search."""
    board = Board(5, 5)
    plan = Plan(5, 5, False, tuple(range(25)), "backtrack", 0, batch=1, node_limit=10**9)
    out = []
    for s in range(25):
        p = Plan(**{**plan.__dict__, "starts": (s,), "per_search": 10**6})
        batch = run_batch(p, 0)
        tours, ok = cf.decode_batch(board, batch.keys, batch.codes, False)
        assert ok.all()
        out += [t.tolist() for t in tours]
    return out


# -- canonical forms ------------------------------------------------------------------------------


CASES = [
    ("8x8", False),
    ("8x8", True),
    ("6x8", False),
    ("6x8", True),
    ("5x5", False),
    ("3x10", True),
]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "closed"), CASES)
def test_every_image_shares_one_form(spec: str, closed: bool) -> None:
    board = kt.parse_board(spec)
    method = "backtrack" if spec in ("5x5", "3x10") else "warnsdorff"
    rng = np.random.default_rng(0)
    for path in tours_of(spec, closed, 12, method=method)[:4]:
        key, code = canonical_form(board, np.array(path), closed)
        assert (cf.apply_transform(board, cf.unpack(board, key), code) == path).all()
        imgs = images(board, path, closed)
        assert len(imgs) == (2 if closed is False else 2 * board.area) * (
            8 if board.width == board.height else 4
        )
        if len(imgs) > 100:  # closed: a sample of the rotations of every image
            imgs = [imgs[i] for i in rng.choice(len(imgs), 100, replace=False)]
        for img in imgs:
            k2, c2 = canonical_form(board, np.array(img), closed)
            assert k2 == key
            assert tuple(cf.apply_transform(board, cf.unpack(board, k2), c2)) == img


def test_canonical_form_is_the_smallest_image() -> None:
    board = Board(8, 8)
    for closed in (False, True):
        for path in tours_of("8x8", closed, 5):
            key, _ = canonical_form(board, np.array(path), closed)
            smallest = min(img for img in images(board, path, closed) if not closed or img[0] == 0)
            assert tuple(cf.unpack(board, key)) == smallest


@pytest.mark.slow
def test_5x5_tours_fall_into_112_classes_exactly() -> None:
    """The 1,728 directed open tours of 5x5 form 112 classes up to symmetry and reversal: tours
    share a form exactly when the independent images() relate them."""
    board = Board(5, 5)
    tours = all_5x5_tours()
    assert len(tours) == 1728 and len(set(map(tuple, tours))) == 1728
    batch = canonical_batch(board, False, np.array(tours))
    keys = [bytes(k) for k in batch.keys]
    # independent classes: union of each tour with all its images
    index = {tuple(t): i for i, t in enumerate(tours)}
    parent = list(range(len(tours)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, t in enumerate(tours):
        for img in images(board, t, False):
            parent[find(index[img])] = find(i)
    classes = {find(i) for i in range(len(tours))}
    assert len(classes) == 112 == len(set(keys))
    for i in range(len(tours)):
        for j in (0, 1, 500, 1727):
            assert (keys[i] == keys[j]) == (find(i) == find(j))


def test_kernel_matches_reference() -> None:
    for spec, closed in CASES:
        board = kt.parse_board(spec)
        method = "backtrack" if spec in ("5x5", "3x10") else "warnsdorff"
        paths = np.array(tours_of(spec, closed, 40, seed=3, method=method), dtype=np.int32)
        k = jit.load(_kernels, compiled=True)
        perms, invs = cf.symmetries(board.width, board.height)
        keys = np.zeros((len(paths), cf.key_length(board)), dtype=np.uint8)
        codes = np.zeros(len(paths), dtype=np.int64)
        k.canonical_batch(
            paths, closed, perms, invs, board.width, cf.header_bytes(board), cf.CODE_OF, keys, codes
        )
        for p, key, code in zip(paths, keys, codes, strict=True):
            assert canonical_form(board, p, closed) == (key.tobytes(), code)


def test_pack_round_trip_and_damage() -> None:
    board = Board(8, 8)
    path = kt.solve(board, start="a1", method="warnsdorff").indices
    key = cf.pack(board, path)
    assert len(key) == cf.key_length(board) == 25
    assert (cf.unpack(board, key) == path).all()
    damaged = bytearray(key)
    damaged[10] ^= 0x3F
    _, ok = cf.unpack_batch(board, np.frombuffer(bytes(damaged), dtype=np.uint8)[None, :])
    assert not ok[0]
    with pytest.raises(KnightsTourError, match="not a knight's move"):
        cf.pack(board, np.array([0, 1]))


def test_symmetries_are_permutations() -> None:
    for w, h in ((8, 8), (3, 4), (1, 1), (5, 2)):
        perms, invs = cf.symmetries(w, h)
        assert len(perms) == (8 if w == h else 4)
        for p, q in zip(perms, invs, strict=True):
            assert sorted(p) == list(range(w * h))
            assert (p[q] == np.arange(w * h)).all()


# -- the store ------------------------------------------------------------------------------------


def test_store_keeps_one_of_each_tour() -> None:
    lib = Library(":memory:")
    t = kt.solve("8x8", start="a1", closed=True)
    same = [t, t.reversed(), t.rotated("h8")]
    assert lib.tours.add(same, method="test") == 1
    assert lib.tours.add(same) == 0
    other = kt.solve("8x8", start="a1", method="warnsdorff", tiebreak="first")
    assert lib.tours.add([other]) == 1
    assert lib.tours.count() == 2 and lib.tours.count("8x8", closed=True) == 1
    stored = lib.tours.get(1)
    assert stored.tour == t and stored.method == "test" and stored.closed
    assert [s.id for s in lib.tours.list()] == [1, 2]
    with pytest.raises(KnightsTourError, match="no tour 9"):
        lib.tours.get(9)


def test_same_squares_on_other_board_or_kind_are_other_tours() -> None:
    lib = Library(":memory:")
    closed = kt.solve("6x6", start="a1", closed=True)
    as_open = kt.Tour(closed.board, closed.indices, closed=False)
    assert lib.tours.add([closed, as_open]) == 2


def test_schema_version_and_foreign_files(tmp_path: Path) -> None:
    path = tmp_path / "lib.db"
    Library(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(KnightsTourError, match="newer than this knightstour"):
        Library(path)
    other = tmp_path / "other.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.close()
    with pytest.raises(KnightsTourError, match="not a tour library"):
        Library(other)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(KnightsTourError, match="not a tour library"):
        Library(junk)
    with pytest.raises(KnightsTourError, match="no tour library"):
        Library(tmp_path / "missing.db", create=False)


def test_stored_bytes_per_tour(tmp_path: Path) -> None:
    path = tmp_path / "size.db"
    generate("8x8", 20_000, seed=2, db=path, workers=1)
    with Library(path) as lib:
        lib.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = lib.db.execute("PRAGMA page_count").fetchone()[0]
        page = lib.db.execute("PRAGMA page_size").fetchone()[0]
        row = lib.db.execute("SELECT avg(length(canon)) FROM tours").fetchone()[0]
    assert row == 25
    assert pages * page / 20_000 < 120  # the row, the unique key and the page slack


# -- generation -----------------------------------------------------------------------------------


def test_generate_adds_distinct_valid_tours() -> None:
    lib = Library(":memory:")
    r = generate("8x8", 300, seed=7, db=lib, workers=1)
    assert r.added == 300 == lib.tours.count("8x8", closed=False)
    r2 = generate("8x8", 200, closed=True, start="c3", seed=7, db=lib, workers=1)
    assert r2.added == 200
    keys = {k for (k,) in lib.db.execute("SELECT canon FROM tours")}
    assert len(keys) == 500
    for st in lib.tours.iter_tours():
        assert_is_tour(st.board, st.tour.indices, st.closed)
        if st.closed:
            assert st.start == "c3"


@pytest.mark.parametrize(
    ("board", "closed"),
    [
        (Board(4, 1_201), False),  # these three: past theory.PER_SQUARE_AREA squares
        (Board(1_201, 4), False),
        (Board(67, 67), False),
        (Board(4, 9), False),
        (Board(5, 5), False),
        (Board(3, 8), False),
        (Board(8, 8), True),
    ],
    ids=str,
)
def test_walks_start_only_where_theory_allows_a_tour(board: Board, closed: bool) -> None:
    """Every start square the theory rules out is left out, on big boards too (4 x n: the inner
    lines; odd boards: the other colour), and every other square is in."""
    starts = walk_starts(board, None, closed)
    allowed = [q for q in range(board.area) if kt.exists(board, q, closed=closed).exists]
    assert list(starts) == allowed
    assert walk_starts(board, 1, closed) == (1,)


@pytest.mark.slow  # starts a pool of worker processes: make test, not make test-fast
def test_same_seed_same_tours_whatever_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers started at once (not only for long runs) store the tours one process stores."""
    import knightstour.library.generate as gen

    monkeypatch.setattr(gen, "POOL_AFTER_SECONDS", 0.0)
    got = []
    for workers in (1, 2):
        lib = Library(tmp_path / f"w{workers}.db")
        r = generate("8x8", 40_000, seed=11, db=lib, workers=workers)
        assert (r.added, r.workers) == (40_000, 0 if workers == 1 else 2)
        got.append([bytes(k) for (k,) in lib.db.execute("SELECT canon FROM tours ORDER BY canon")])
        lib.close()
    assert got[0] == got[1]


def test_a_commit_stored_as_one_batch_stores_what_batch_by_batch_would() -> None:
    """A commit's batches go in as one sorted batch only when every tour is new (a tour held
    rolls it back, nothing stored, and the batches go one by one), at most the count asked,
    and no batch among them that ends the run for finding nothing."""
    import knightstour.library.generate as gen

    plan = gen.make_plan(Board(8, 8), False, (0,), "warnsdorff", seed=2)
    todo = [(50 * j, 50, run_batch(plan, 50 * j, 50)) for j in range(3)]
    sizes = [len(b) for _, _, b in todo]
    keys = {bytes(k) for _, _, b in todo for k in b.keys}
    assert min(sizes) > 0 and len(keys) == sum(sizes)  # distinct tours, as a big board's walks
    assert gen._can_merge(todo, sum(sizes), 0, plan)
    assert not gen._can_merge(todo, sum(sizes) - 1, 0, plan)  # the count would cut a batch
    assert not gen._can_merge(todo[:1], sizes[0], 0, plan)  # one batch: nothing to merge
    empty = todo[0][2].head(0)
    stalled = gen.STALL_BATCHES * plan.batch - 1  # walks without a new tour before them
    assert not gen._can_merge([(0, 1, empty), *todo[1:]], 10**9, stalled, plan)
    with Library(":memory:") as lib:
        assert gen._store_merged(lib, todo, plan, run=0) == sizes
        assert lib.tours.count() == sum(sizes)
    with Library(":memory:") as lib:
        lib.tours.add_batch(todo[1][2].head(1), method="backtrack")  # one tour held already
        assert gen._store_merged(lib, todo, plan, run=0) is None
        assert lib.tours.count() == 1  # rolled back: nothing of the merged batch kept


def test_a_method_named_in_a_batch_rolled_back_is_named_again() -> None:
    """The first batch of a method, rolled back (the savepoint of a merged batch with a tour
    held already), takes the method's row with it; the batches stored after it name it anew, so
    that every tour keeps its method's name."""
    import knightstour.library.generate as gen

    plan = gen.make_plan(Board(8, 8), False, (0,), "warnsdorff", seed=2)
    todo = [(50 * j, 50, run_batch(plan, 50 * j, 50)) for j in range(2)]
    with Library(":memory:") as lib:
        lib.tours.add_batch(todo[1][2].head(1), method="backtrack")  # one tour held already
        assert gen._store_merged(lib, todo, plan, run=0) is None  # "warnsdorff" rolled back
        added = sum(lib.tours.add_batch(b, method=plan.method) for _, _, b in todo)
        assert added == sum(len(b) for _, _, b in todo) - 1
        named = lib.db.execute(
            "SELECT m.name, count(*) FROM tours t JOIN methods m ON m.id = t.method GROUP BY 1"
        ).fetchall()
        assert sorted(named) == [("backtrack", 1), ("warnsdorff", added)]


def test_a_method_s_name_read_before_a_rollback_is_not_kept_for_its_id() -> None:
    """A name read while its row was in a transaction later rolled back is not kept: the next
    method added takes the same id, and that id then names the new method."""
    with Library(":memory:") as lib:
        try:
            with lib.atomic():
                gone = lib.tours.method_id("divide")
                assert lib.tours.method_name(gone) == "divide"  # read, and kept for a while
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        again = lib.tours.method_id("backtrack")
        assert again == gone  # SQLite hands out the same id again
        assert lib.tours.method_name(again) == "backtrack"
        assert lib.tours.method_names() == {again: "backtrack"}


def test_short_runs_start_no_workers_and_report_progress() -> None:
    lib = Library(":memory:")
    seen: list[tuple[int, int]] = []
    r = generate("8x8", 2000, seed=4, db=lib, workers=4, progress=lambda *a: seen.append(a))
    assert r.workers == 0 and r.added == 2000
    assert seen[0] == (0, 2000) and seen[-1] == (2000, 2000)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_classic_walk_seed_reproduces_through_solve() -> None:
    lib = Library(":memory:")
    generate("8x8", 20, start="a1", seed=5, slack_moves=0, db=lib, workers=1)
    for st in lib.tours.list(limit=20):
        again = kt.solve(
            "8x8", start=st.start, method="warnsdorff", tiebreak="random", seed=st.seed
        )
        assert again == st.tour


@pytest.mark.slow
def test_small_board_runs_out_and_says_so() -> None:
    """Every tour found: the library is complete, an answer (issue 30, item 10); from a start
    square, every tour from there found is an answer too."""
    lib = Library(":memory:")
    result = generate("5x5", 200, seed=1, db=lib, workers=1)
    assert (result.added, result.stalled, result.complete) == (
        112,
        False,
        "complete: 1,728 of 1,728 tours",
    )
    assert lib.tours.count("5x5") == 112  # every open 5x5 tour up to symmetry and reversal
    # from a start square: complete when every tour from there is held (kt.count from a1: 304)
    result = generate("5x5", 500, start="a1", seed=1, db=Library(":memory:"), workers=1)
    assert (result.stalled, result.complete) == (False, "complete: 304 of 304 tours from a1")


def test_generate_refuses_impossible_and_bad_input() -> None:
    lib = Library(":memory:")
    with pytest.raises(NoTourError, match="no closed tour on 5x5"):
        generate("5x5", 1, closed=True, db=lib)
    with pytest.raises(KnightsTourError, match="count must be a positive"):
        generate("8x8", 0, db=lib)
    with pytest.raises(KnightsTourError, match="unknown generation method"):
        generate("8x8", 1, method="magic", db=lib)


def test_resume_continues_the_unfinished_run(tmp_path: Path) -> None:
    path = tmp_path / "resume.db"
    with Library(path) as lib:
        generate("8x8", 5000, seed=3, db=lib, workers=1)
        # pretend the run stopped after its first batch
        lib.db.execute("DELETE FROM tours WHERE id > 1000")
        lib.db.execute("UPDATE runs SET added = 1000, finished = 0, next_walk = 1500")
    r = generate("8x8", 5000, seed=3, db=path, workers=2)
    assert (r.resumed_from, r.added, r.run) == (1000, 4000, 1)
    with Library(path) as lib:
        assert lib.tours.count() == 5000


# -- kill -9 and resume, with a real process ------------------------------------------------------


@pytest.mark.slow
def test_kill_dash_9_loses_at_most_a_second_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "killed.db"
    # long enough (a few seconds: 300,000 tours) that the kill lands mid-run on a fast machine
    cmd = [sys.executable, "-m", "knightstour", "generate", "8x8", "--count", "300000",
           "--seed", "9", "--db", str(path), "--workers", "2", "-q"]  # fmt: skip
    proc = subprocess.Popen(cmd, start_new_session=True, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            time.sleep(0.2)
            if path.exists() and proc.poll() is None:
                try:
                    with sqlite3.connect(path, timeout=5) as db:
                        n = db.execute("SELECT count(*) FROM tours").fetchone()[0]
                except sqlite3.OperationalError:
                    continue
                if n >= 10_000:
                    break
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, mid-batch
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        added, finished = db.execute("SELECT added, finished FROM runs").fetchone()
        assert db.execute("SELECT count(*) FROM tours").fetchone()[0] == added >= 10_000
        assert finished == 0 and added < 300_000
    with Library(path) as lib:  # every stored tour decodes and is valid
        assert sum(len(rows) for _, _, rows, _ in lib.tours.iter_decoded()) == added
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"resuming run 1 at {added:,}" in done.stdout
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM tours").fetchone()[0] == 300_000
        assert db.execute("SELECT added, finished FROM runs").fetchone() == (300_000, 1)


# -- export and import ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_lib() -> Library:
    """A library the tests only read."""
    lib = Library(":memory:")
    generate("8x8", 30, seed=1, db=lib, workers=1)
    generate("6x6", 10, closed=True, seed=1, db=lib, workers=1)
    return lib


def test_export_jsonl_is_the_tour_json(small_lib: Library) -> None:
    out = io.StringIO()
    assert export(small_lib, out, fmt="jsonl") == 40
    lines = out.getvalue().splitlines()
    stored = list(small_lib.tours.iter_tours())
    assert [line for line in lines] == [s.tour.to_json() for s in stored]
    for line in lines:
        t = kt.Tour.from_dict(json.loads(line))
        assert set(json.loads(line)) == {"width", "height", "closed", "method", "path", "xy"}
        assert_is_tour(t.board, t.indices, t.closed)
    out = io.StringIO()
    assert export(small_lib, out, fmt="jsonl", board="6x6") == 10


def test_export_csv(small_lib: Library) -> None:
    out = io.StringIO()
    assert export(small_lib, out, fmt="csv", closed=True) == 10
    rows = out.getvalue().splitlines()
    assert rows[0] == "id,width,height,closed,method,start,end,seed,created,path"
    first = rows[1].split(",")
    assert first[1:4] == ["6", "6", "true"] and len(first[-1].split()) == 36


def test_round_trip_through_jsonl_and_csv(small_lib: Library) -> None:
    for fmt in ("jsonl", "csv"):
        out = io.StringIO()
        export(small_lib, out, fmt=fmt)
        fresh = Library(":memory:")
        r = import_tours(fresh, io.StringIO(out.getvalue()), fmt=fmt)
        assert (r.read, r.added) == (40, 40)
        again = import_tours(fresh, io.StringIO(out.getvalue()), fmt=fmt)
        assert (again.read, again.added, again.duplicates) == (40, 0, 40)
        assert [s.tour for s in fresh.tours.iter_tours()] == [
            s.tour for s in small_lib.tours.iter_tours()
        ]


def _line(tour: kt.Tour, **change: object) -> str:
    d = tour.to_dict()
    d.update(change)
    return json.dumps(d)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: [*p[:5], p[6], p[5], *p[7:]], "line 2: not a valid tour: move 6"),
        (lambda p: [*p[:-1], p[0]], "square a1 is visited twice"),
        (lambda p: p[:-1], "square"),
        (lambda p: [*p[:-1], "z9"], "is off the 8x8 board"),
    ],
)
def test_import_rejects_broken_tours_naming_the_problem(change, message: str) -> None:
    lib = Library(":memory:")
    good = kt.solve("8x8", start="a1", method="warnsdorff")
    lines = [_line(good), _line(good, path=change(good.path), xy=None), _line(good)]
    with pytest.raises(ImportRejectedError, match=message) as e:
        import_tours(lib, lines, source="t.jsonl")
    assert "t.jsonl line 2" in str(e.value) and "nothing imported" in str(e.value)
    assert e.value.exit_code == 1
    assert lib.tours.count() == 0


def test_import_rejects_bad_json_and_not_closed() -> None:
    lib = Library(":memory:")
    good = kt.solve("8x8", start="a1", method="warnsdorff")
    with pytest.raises(ImportRejectedError, match="line 1: not JSON") as e:
        import_tours(lib, ["{oops"])
    assert e.value.exit_code == 2
    with pytest.raises(ImportRejectedError, match="not closed"):
        import_tours(lib, [_line(good, closed=True)])
    # the fast path's batch check catches it too, among many good lines
    closed = kt.solve("8x8", start="a1", closed=True)
    bad = closed.path
    bad[10], bad[11] = bad[11], bad[10]
    lines = [_line(closed)] * 50 + [_line(closed, path=bad, xy=None)]
    with pytest.raises(ImportRejectedError, match="line 51: not a valid tour"):
        import_tours(lib, lines)
    assert lib.tours.count() == 0


def test_export_streams_in_chunks(small_lib: Library) -> None:
    seen = [len(rows) for rows in small_lib.tours.iter_rows(chunk=7)]
    assert seen == [7, 7, 7, 7, 7, 5]


# -- command line ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_cli_generate_and_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from knightstour.cli import main

    db = str(tmp_path / "cli.db")
    assert (
        main(["generate", "6x6", "--count", "5", "--seed", "1", "--db", db, "--workers", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("added 5 new 6x6 open tours") and "holds 5" in out
    assert main(["library", "list", "--db", db]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 6
    assert main(["library", "show", "3", "--db", db, "--format", "json"]) == 0
    assert kt.Tour.from_dict(json.loads(capsys.readouterr().out)).board.spec == "6x6"
    assert main(["library", "stats", "--db", db, "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["tours"] == 5 and sum(stats["kinds"][0]["starts"].values()) == 5
    out_file = tmp_path / "all.jsonl"
    assert main(["library", "export", "--db", db, "--output", str(out_file)]) == 0
    capsys.readouterr()
    assert main(["library", "import", str(out_file), "--db", str(tmp_path / "b.db")]) == 0
    assert "5 new" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    first = json.loads(out_file.read_text().splitlines()[0])
    first["path"][3], first["path"][4] = first["path"][4], first["path"][3]
    del first["xy"]
    bad.write_text(out_file.read_text() + json.dumps(first) + "\n")
    assert main(["library", "import", str(bad), "--db", str(tmp_path / "b.db")]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("knightstour: ") and "bad.jsonl line" in err and len(err.splitlines()) == 1
    )
    assert main(["library", "show", "99", "--db", db]) == 2
    assert main(["library", "stats", "--db", str(tmp_path / "none.db")]) == 2
    assert "no tour library" in capsys.readouterr().err
    assert main(["generate", "5x5", "--closed", "--count", "3", "--db", db]) == 1
    assert main(["generate", "8x8", "--count", "0", "--db", db]) == 2


def test_cli_help_for_every_library_command(capsys: pytest.CaptureFixture[str]) -> None:
    from knightstour.cli import main

    actions = ("list", "show", "stats", "export", "import")
    for argv in (["generate"], ["library"], *(["library", a] for a in actions)):
        with pytest.raises(SystemExit) as e:
            main([*argv, "--help"])
        out = capsys.readouterr().out
        assert e.value.code == 0 and out.startswith("usage:")
        assert "--db" in out or argv == ["library"]


def test_stats_quote_a_published_count_labelled_when_counting_is_long() -> None:
    """6x6 open tours take the counters longer than stats waits, 8x8 far longer: the published
    figure stands for the count, labelled with its source; 5x5 is counted here."""
    from knightstour.counting import known
    from knightstour.library.complete import completeness_of

    lib = Library(":memory:")
    generate("6x6", 3, seed=1, db=lib, workers=1)
    generate("8x8", 3, seed=1, db=lib, workers=1)
    generate("5x5", 3, seed=1, db=lib, workers=1)
    six, eight, five = (completeness_of(lib, b, False) for b in ("6x6", "8x8", "5x5"))
    for c, side in ((six, 6), (eight, 8)):
        figure = known(f"{side}x{side}")  # directed, as kt.count counts
        assert figure is not None and figure.source == "published"
        assert c.count == figure.count and c.complete is False
        assert c.published and "published, not computed here" in c.text()
        assert c.to_dict()["published"] == c.published
    assert five.count == 1728 and five.published is None and "published" not in five.text()
