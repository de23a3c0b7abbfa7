"""The library knows the shape of its tours (issue 33, item 2): crossings and turns stored with
each tour as it is stored, equal to ``Tour.metrics()``; an older library migrated, its tours
measured when shown and stored by ``library update`` (Ctrl-C keeps what is done); the tours
ordered and filtered by them (``library list``, the gallery's pages and counts); bad input in
one line.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

import knightstour as kt
from knightstour.board import Board
from knightstour.cli import main
from knightstour.errors import InvalidInputError
from knightstour.geometry import shape_batch
from knightstour.library import metrics as lib_metrics
from knightstour.library.generate import generate
from knightstour.library.store import MIGRATIONS, Library
from knightstour.library.store.gallery import TourFilter
from knightstour.library.store.schema import METRICS_FROM, statements
from knightstour.web.app import create_app
from oldlib import old_library


def _stored(path: Path | str) -> dict[int, tuple[int | None, int | None]]:
    """Each tour's stored (crossings, turns), read with plain SQL."""
    db = sqlite3.connect(path)
    try:
        return {i: (c, t) for i, c, t in db.execute("SELECT id, crossings, turns FROM tours")}
    finally:
        db.close()


def _assert_stored_equal_metrics(lib: Library) -> int:
    stored = _stored(lib.path)
    n = 0
    for st in lib.tours.iter_tours():
        m = st.tour.metrics()
        assert stored[st.id] == (m.crossings, m.turns), st.id
        assert (st.crossings, st.turns) == (m.crossings, m.turns)
        n += 1
    return n


# -- stored as tours are stored -----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "board, closed, count, workers",
    [
        ("8x8", False, 300, 1),
        ("6x6", True, 20, 1),
        ("3x10", True, 5, 1),
    ],
)
def test_generated_tours_store_their_metrics(
    tmp_path: Path, board: str, closed: bool, count: int, workers: int
) -> None:
    with Library(tmp_path / "t.db") as lib:
        generate(board, count, closed=closed, seed=5, db=lib, workers=workers)
        assert _assert_stored_equal_metrics(lib) == count


def test_shaped_boards_store_metrics_where_defined(tmp_path: Path) -> None:
    holed = Board(6, 6, holes=["a1", "b1"])
    torus = Board(6, 6, wrap="torus")
    with Library(tmp_path / "t.db") as lib:
        generate(holed, 10, closed=True, seed=1, db=lib)
        lib.tours.add([kt.solve(torus, start="a1", method="backtrack")])
        n = 0
        for st in lib.tours.iter_tours():
            c, t = _stored(lib.path)[st.id]
            if st.board.wrap is not None:
                assert (c, t) == (None, None) and st.shape() == (None, None)
            else:
                m = st.tour.metrics()
                assert (c, t) == (m.crossings, m.turns)
                n += 1
        assert n == 10


@pytest.mark.slow
def test_shape_batch_equals_metrics_on_random_paths() -> None:
    """The batch kernel, compiled and interpreted, against Tour.metrics() one tour at a time,
    on plain boards, a holed board and another leaper; open and closed."""
    cases = [
        (Board(8, 8), False),
        (Board(8, 8), True),
        (Board(5, 9), False),
        (Board(8, 8, holes=["d4", "e4"]), False),
        (Board(10, 10, leaper="giraffe"), False),
    ]
    for board, closed in cases:
        tours = []
        for seed in range(40):
            try:
                tours.append(
                    kt.solve(
                        board, start=int(seed * 7 % board.area), closed=closed,
                        method="warnsdorff", tiebreak="random", seed=seed,
                    )
                )  # fmt: skip
            except (kt.NoTourError, kt.SearchFailedError, kt.InvalidInputError):
                continue
            if len(tours) == 6:
                break
        assert len(tours) >= 2, board
        paths = np.stack([t.indices for t in tours])
        for compiled in (False, True):
            c, n = shape_batch(board, paths, closed, compiled=compiled)
            want = [(t.metrics().crossings, t.metrics().turns) for t in tours]
            assert list(zip(c.tolist(), n.tolist(), strict=True)) == want, (board, compiled)


# -- an older library -----------------------------------------------------------------------------


def _old(tmp_path: Path, version: int) -> tuple[Path, list[kt.Tour]]:
    """A library of schema ``version`` (plain SQL), holding plain tours and a torus tour."""
    tours = [kt.solve("5x5", start="a1", method="warnsdorff"), kt.solve("6x6", closed=True)]
    tours.append(kt.solve(Board(6, 6, wrap="torus"), start="a1", method="backtrack"))
    path = tmp_path / "old.db"
    old_library(path, tours, version=4)
    db = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[4:version]:  # on to the asked version, as those releases did
        for statement in statements(script):
            db.execute(statement)
    db.execute(f"PRAGMA user_version={version}")
    db.close()
    return path, tours


@pytest.mark.parametrize("version", [4, METRICS_FROM - 1])
def test_an_old_library_is_migrated_and_updated(
    tmp_path: Path, version: int, capsys: pytest.CaptureFixture[str]
) -> None:
    path, tours = _old(tmp_path, version)
    # read-only, as it is: the metrics are measured when shown, but nothing orders by them
    with Library(path, readonly=True) as lib:
        assert lib.version == version
        shown = {st.id: st.shape() for st in lib.tours.iter_tours()}
        assert shown[3] == (tours[0].metrics().crossings, tours[0].metrics().turns)
        assert shown[23] == (None, None)  # the torus: not defined
        with pytest.raises(InvalidInputError, match="library update"):
            lib.gallery.page(TourFilter(order="crossings"))
    assert main(["library", "list", "--db", str(path), "--order", "turns"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "knightstour library update" in err
    # written to: migrated (every row kept, none measured yet), then updated
    assert main(["library", "update", "--db", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "of 2 tours" in out and "1 of wrapped or 3-D boards" in out
    with Library(path) as lib:
        assert lib.version == len(MIGRATIONS)
        stored = _stored(path)
        assert stored[23] == (None, None)
        for st in lib.tours.iter_tours():
            if st.id != 23:
                m = st.tour.metrics()
                assert stored[st.id] == (m.crossings, m.turns)
    assert main(["library", "update", "--db", str(path)]) == 0  # nothing left: says so
    assert "of 0 tours" in capsys.readouterr().out
    assert main(["library", "list", "--db", str(path), "--order", "crossings"]) == 0
    ids = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert sorted(ids) == ["13", "3"]


def test_update_stopped_keeps_what_is_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C (a KeyboardInterrupt from the progress callback) after the first chunk: that
    chunk is stored, the rest is not, and running it again finishes."""
    path = tmp_path / "t.db"
    with Library(path) as lib:
        generate("6x6", 30, closed=True, seed=3, db=lib, workers=1)
        lib.db.execute("UPDATE tours SET crossings = NULL, turns = NULL")
    monkeypatch.setattr(lib_metrics, "CHUNK", 8)

    def stop(done: int, total: int) -> None:
        if done >= 8:
            raise KeyboardInterrupt

    with Library(path) as lib:
        with pytest.raises(lib_metrics.MetricsInterrupted) as e:
            lib_metrics.update_metrics(lib, stop)
        assert e.value.updated == 8
        assert sum(c is not None for c, _ in _stored(path).values()) == 8
        r = lib_metrics.update_metrics(lib)
        assert (r.updated, r.undefined) == (22, 0)
        assert _assert_stored_equal_metrics(lib) == 30


# -- ordering and filtering -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lib_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("metrics") / "tours.db"
    with Library(path) as lib:
        generate("8x8", 120, seed=1, db=lib, workers=1)
        generate("6x6", 40, closed=True, seed=2, db=lib, workers=1)
    return path


def _all(path: Path) -> list[tuple[int, int, int, str, bool]]:
    with Library(path, readonly=True) as lib:
        return [
            (st.id, st.crossings, st.turns, st.board.key, st.closed)
            for st in lib.tours.iter_tours()
        ]  # type: ignore[misc]


@pytest.mark.slow
@pytest.mark.parametrize("order", ["crossings", "turns"])
def test_pages_in_metric_order_both_ways(lib_path: Path, order: str) -> None:
    rows = [r for r in _all(lib_path) if r[3] == "8x8"]
    col = 1 if order == "crossings" else 2
    want = [r[0] for r in sorted(rows, key=lambda r: (r[col], r[0]))]
    kept = TourFilter("8x8", order=order)
    with Library(lib_path, readonly=True) as lib:
        seen: list[int] = []
        tours, earlier, later = lib.gallery.page(kept, limit=25)
        assert not earlier
        while True:
            seen += [t.id for t in tours]
            if not later:
                break
            tours, earlier, later = lib.gallery.page(kept, after=tours[-1].id, limit=25)
            assert earlier
        assert seen == want
        back: list[int] = []
        tours, earlier, later = lib.gallery.page(kept, before=want[-1], limit=25)
        back = [t.id for t in tours]
        while earlier:
            tours, earlier, _ = lib.gallery.page(kept, before=tours[0].id, limit=25)
            back = [t.id for t in tours] + back
        assert [*back, want[-1]] == want
        assert lib.gallery.count(kept) == len(want)


def test_filters_by_at_most(lib_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _all(lib_path)
    crossings = sorted(r[1] for r in rows)
    bound = crossings[len(crossings) // 3]
    turns_bound = sorted(r[2] for r in rows)[len(rows) // 2]
    want = sorted(r[0] for r in rows if r[1] <= bound and r[2] <= turns_bound)
    kept = TourFilter(max_crossings=bound, max_turns=turns_bound)
    with Library(lib_path, readonly=True) as lib:
        got = [t.id for t in lib.gallery.page(kept, limit=500)[0]]
        assert got == want and lib.gallery.count(kept) == len(want)
    argv = ["library", "list", "--db", str(lib_path), "--max-crossings", str(bound)]
    argv += ["--max-turns", str(turns_bound), "--limit", "500", "--format", "json"]
    assert main(argv) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [t["id"] for t in listed] == want
    assert all(t["crossings"] <= bound and t["turns"] <= turns_bound for t in listed)


def test_list_orders_by_crossings_with_a_cursor(
    lib_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [r for r in _all(lib_path) if r[3] == "6x6" and r[4]]
    want = [r[0] for r in sorted(rows, key=lambda r: (r[1], r[0]))]
    base = ["library", "list", "--db", str(lib_path), "--board", "6x6", "--closed"]
    assert main([*base, "--order", "crossings", "--limit", "5", "--format", "json"]) == 0
    first = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    argv = [*base, "--order", "crossings", "--after", str(first[-1]), "--limit", "5"]
    assert main([*argv, "--format", "json"]) == 0
    second = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert first + second == want[:10]


def test_the_gallery_api_orders_filters_and_shows_metrics(lib_path: Path) -> None:
    api = TestClient(create_app(warm=False, library=lib_path))
    rows = {r[0]: r for r in _all(lib_path)}
    page = api.get(
        "/api/library/tours", params={"board": "6x6", "order": "crossings", "limit": 100}
    ).json()
    got = [(t["crossings"], t["id"]) for t in page["tours"]]
    assert got == sorted(got) and len(got) == 40 == page["count"]
    assert all(t["turns"] == rows[t["id"]][2] for t in page["tours"])
    assert page["filters"]["order"] == "crossings"
    low = page["tours"][10]["crossings"]
    few = api.get("/api/library/tours", params={"max_crossings": low, "limit": 100}).json()
    assert few["count"] == sum(1 for r in rows.values() if r[1] <= low)
    one = api.get(f"/api/library/tours/{got[0][1]}").json()
    assert (one["crossings"], one["turns"]) == (got[0][0], rows[got[0][1]][2])
    # bad input: one clear error
    for params, status in (
        ({"order": "shortest"}, 422),
        ({"max_crossings": "-1"}, 422),
        ({"max_turns": "many"}, 422),
        ({"order": "turns", "after": "999999"}, 400),
    ):
        r = api.get("/api/library/tours", params=params)
        assert r.status_code == status, params
        assert set(r.json()) == {"error"}


def test_an_old_library_in_the_gallery(tmp_path: Path) -> None:
    path, tours = _old(tmp_path, METRICS_FROM - 1)
    api = TestClient(create_app(warm=False, library=path))
    page = api.get("/api/library/tours").json()
    by_id = {t["id"]: t for t in page["tours"]}
    assert by_id[3]["crossings"] == tours[0].metrics().crossings  # measured when shown
    assert by_id[23]["crossings"] is None
    r = api.get("/api/library/tours", params={"order": "crossings"})
    assert r.status_code == 400 and "library update" in r.json()["error"]
    assert str(tmp_path) not in r.json()["error"]


@pytest.mark.parametrize(
    "argv",
    [
        ["library", "list", "--order", "shortest"],
        ["library", "list", "--max-crossings", "few"],
        ["library", "list", "--max-turns", "-3"],
        ["library", "list", "--magic", "--order", "crossings"],
        ["library", "update", "--db", "missing.db"],
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path,
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    Library(tmp_path / "tours.db").close()
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("knightstour: "), err
    assert not (tmp_path / "missing.db").exists()


# -- generate --keep-fewest (issue 33, item 2) ------------------------------------------------------


def _made(board: str, closed: bool, seed: int, meet: int) -> list[tuple[bytes, int, int, int]]:
    """What a keep-fewest run of ``meet`` tours meets, made again batch by batch in this process
    (its plan, its walks): (key, crossings, turns, order met) of each distinct tour, first met."""
    from knightstour.library.generate import (
        choose_method,
        make_plan,
        run_batch,
        walk_starts,
    )

    b = Board.from_key(board)
    starts = walk_starts(b, None, closed)
    plan = make_plan(b, closed, starts, choose_method(b, closed, starts, seed), seed)
    out: dict[bytes, tuple[bytes, int, int, int]] = {}
    met, walk = 0, 0
    while met < meet:
        batch = run_batch(plan, walk, plan.batch).head(meet - met)
        walk += plan.batch
        assert batch.crossings is not None and batch.turns is not None
        for i in range(len(batch)):
            key = batch.keys[i].tobytes()
            out.setdefault(key, (key, int(batch.crossings[i]), int(batch.turns[i]), met + i))
        met += len(batch)
    return list(out.values())


@pytest.mark.parametrize("metric, closed", [("crossings", False), ("turns", True)])
def test_keep_fewest_keeps_the_fewest_met(tmp_path: Path, metric: str, closed: bool) -> None:
    """The N kept are the N distinct tours with the fewest of the metric among all those met
    (ties: the other metric, then the first met), as an independent pass over the same walks
    finds them; stored with their metrics; the same seed gives the same tours on 2 workers."""
    from knightstour.library.generate import keep_fewest

    n, meet = 7, 3000
    r = keep_fewest("8x8", n, metric, meet=meet, closed=closed, seed=9, db=tmp_path / "a.db",
                    workers=1)  # fmt: skip
    assert (r.kept, r.added, r.met, r.stopped) == (n, n, meet, False)
    made = _made("8x8", closed, 9, meet)
    assert r.distinct == len(made)
    col, other = (1, 2) if metric == "crossings" else (2, 1)
    best = sorted(made, key=lambda m: (m[col], m[other], m[3]))[:n]
    with Library(tmp_path / "a.db") as lib:
        stored = {st.id: st for st in lib.tours.iter_tours()}
        assert _assert_stored_equal_metrics(lib) == n
    got = sorted(
        (st.crossings, st.turns) if metric == "crossings" else (st.turns, st.crossings)
        for st in stored.values()
    )
    assert got == sorted((m[col], m[other]) for m in best)
    assert (r.least, r.most) == (best[0][col], best[-1][col])
    # every tour met and not kept has at least as many as the most kept
    assert all(m[col] >= r.most for m in made if m not in best)


@pytest.mark.slow
def test_keep_fewest_stores_new_tours_once(tmp_path: Path) -> None:
    from knightstour.library.generate import keep_fewest

    path = tmp_path / "t.db"
    first = keep_fewest("6x6", 3, "crossings", meet=200, closed=True, seed=4, db=path)
    again = keep_fewest("6x6", 3, "crossings", meet=200, closed=True, seed=4, db=path)
    assert (first.added, again.kept, again.added) == (3, 3, 0)
    with Library(path) as lib:
        assert lib.tours.count() == 3


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--keep-fewest", "tangles", "--count", "3"], "invalid choice"),
        (["--keep-fewest", "turns", "--count", "3", "--meet", "2"], "from the count"),
        (["--count", "3", "--meet", "100"], "--meet goes with --keep-fewest"),
        (["--keep-fewest", "turns", "--all"], "keeps no fewest"),
        (["--keep-fewest", "turns", "--count", "3", "--wrap", "torus"], "flat boards"),
    ],
)
def test_keep_fewest_bad_input_is_one_line(
    tmp_path: Path, argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.db"
    assert main(["generate", "8x8", *argv, "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err


def test_keep_fewest_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    argv = ["generate", "8x8", "--count", "4", "--keep-fewest", "crossings", "--meet", "1500"]
    assert main([*argv, "--seed", "2", "--db", db, "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert (
        out.startswith("kept the 4 8x8 open tours with the fewest crossings") and "1,500 met" in out
    )
    assert main(["library", "list", "--db", db, "--order", "crossings", "--format", "json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(listed) == 4
