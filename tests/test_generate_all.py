"""Complete libraries: ``generate --all`` stores every tour of a board once up to symmetry, and
``library stats`` says whether a board's collection is complete."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import knightstour as kt
from knightstour.cli import main
from knightstour.counting.enumerate import representatives
from knightstour.errors import InputLimitError, NoTourError
from knightstour.library import Library
from knightstour.library import complete as cp
from knightstour.library.canonical import canonical_form, symmetries
from knightstour.library.generate import generate
from procs import interrupt_group

KT = [sys.executable, "-m", "knightstour"]


@pytest.fixture
def lib() -> Library:
    with Library(":memory:") as lib:
        yield lib


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "closed", "classes"),
    [
        ("5x5", False, 112),
        ("6x6", True, 1245),
        ("3x10", True, 6),
        ("3x12", True, 44),
        ("3x14", True, 396),
        ("4x5", False, 22),
        ("4x6", False, 186),
        ("4x7", False, 1603),
    ],
)
def test_every_tour_once(lib: Library, board: str, closed: bool, classes: int) -> None:
    r = cp.generate_all(board, closed=closed, db=lib)
    directed = kt.count(board, closed=closed)
    assert (r.added, r.classes, r.tours, r.count) == (classes, classes, directed, directed)
    assert lib.tours.count(board, closed) == r.library_count == classes
    c = cp.completeness_of(lib, board, closed)
    assert c.complete and c.tours == c.count == directed and c.classes == classes
    assert c.text() == f"complete: {directed:,} of {directed:,} tours"


@pytest.mark.parametrize("board", ["3x11", "3x13"])
def test_odd_boards_have_no_closed_tour(lib: Library, board: str) -> None:
    with pytest.raises(NoTourError, match="odd"):
        cp.generate_all(board, closed=True, db=lib)


def test_orbit_sizes_sum_to_the_count() -> None:
    """The classes' orbits, from the library's reference definition of the images."""
    b = kt.Board(5, 5)
    tours = np.concatenate(list(representatives(b, False)))
    sizes = cp.orbit_sizes(b, False, tours)
    assert sizes.sum() == 1728 and set(sizes.tolist()) <= {8, 16}
    perms, _ = symmetries(5, 5)
    for t, size in zip(tours, sizes, strict=True):  # distinct images, counted plainly
        images = {tuple(perms[g][t][::d]) for g in range(8) for d in (1, -1)}
        assert len(images) == size
    assert cp.orbit_sizes(b, False, tours, start=0).sum() == 304
    assert cp.orbit_sizes(b, False, tours, start=12).sum() == 64


def test_orbit_sizes_of_cycles_wherever_they_start() -> None:
    t = kt.solve("6x6", start="a1", closed=True)
    size = cp.orbit_sizes(t.board, True, t.indices[None, :])
    rotated = t.rotated("c3")
    assert cp.orbit_sizes(t.board, True, rotated.indices[None, :]) == size
    assert cp.orbit_sizes(t.board, True, rotated.reversed().indices[None, :]) == size
    assert size[0] in (4, 8, 16)


def test_again_adds_nothing_and_completes_a_partial_library(lib: Library) -> None:
    generate("5x5", 30, seed=1, db=lib, workers=1)
    c = cp.completeness_of(lib, "5x5", False)
    assert c.complete is False and 0 < c.tours < 1728  # type: ignore[operator]
    assert re.fullmatch(r"[\d,]+ of 1,728 tours known", c.text())
    r = cp.generate_all("5x5", db=lib)
    assert r.added == 112 - 30 and lib.tours.count("5x5") == 112
    assert cp.completeness_of(lib, "5x5", False).complete
    assert cp.generate_all("5x5", db=lib).added == 0


@pytest.mark.slow
def test_from_a_start(lib: Library) -> None:
    r = cp.generate_all("5x5", start="c3", db=lib)
    assert (r.classes, r.tours, r.count, r.start) == (8, 64, 64, "c3")
    stored = list(lib.tours.iter_tours("5x5"))
    assert len(stored) == 8 and all(t.start == "c3" for t in stored)
    r = cp.generate_all("6x6", closed=True, start="d4", db=lib)
    assert (r.classes, r.tours) == (1245, 19724)
    assert all(t.start == "d4" for t in lib.tours.iter_tours("6x6", closed=True))


@pytest.mark.slow
def test_streams_in_batches(lib: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    real = lib.tours.add_batch

    def add_batch(batch, **kw):  # type: ignore[no-untyped-def]
        sizes.append(len(batch))
        return real(batch, **kw)

    monkeypatch.setattr(lib.tours, "add_batch", add_batch)
    seen: list[tuple[int, int]] = []
    cp.generate_all("4x7", db=lib, batch=100, progress=lambda d, t: seen.append((d, t)))
    assert sum(sizes) == 1603 and max(sizes) <= 100 and len(sizes) >= 17
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] == seen[0][1] > 100
    assert all(a[0] <= b[0] for a, b in itertools.pairwise(seen))


def test_stored_tours_are_canonical_and_valid(lib: Library) -> None:
    cp.generate_all("3x12", closed=True, db=lib)
    keys = set()
    for t in lib.tours.iter_tours("3x12", closed=True):
        assert t.method == "enumerate" and t.tour.closed
        keys.add(canonical_form(t.board, t.tour.indices, True)[0])
    assert len(keys) == 44


def test_too_many_tours_are_refused(lib: Library) -> None:
    with pytest.raises(InputLimitError, match=r"273,895,232 closed tours.*--count N"):
        cp.generate_all("3x24", closed=True, db=lib)
    with pytest.raises(InputLimitError, match="cannot count"):
        cp.generate_all("6x6", db=lib, count_seconds=0.01)
    assert lib.tours.count() == 0


def test_completeness_says_nothing_when_the_count_is_slow(lib: Library) -> None:
    lib.tours.add([kt.solve("7x10", start="a1")])  # no published figure, no quick count
    c = cp.completeness_of(lib, "7x10", False)
    assert (c.complete, c.tours, c.count, c.text()) == (None, None, None, "")
    assert c.to_dict() == {"complete": None, "represented": None, "count": None, "published": None}
    assert [x.board for x in cp.completeness(lib)] == ["7x10"]


# -- the command line ----------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_all_then_stats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    code, out, err = run(capsys, "generate", "5x5", "--all", "--db", db)
    assert code == 0, err
    assert out.startswith("added 112 new 5x5 open tours in ")
    assert "112 up to symmetry, standing for all 1,728 directed ones" in out
    code, out, _ = run(capsys, "generate", "4x6", "--all", "--db", db, "-q")
    assert code == 0 and "186 of them" in out
    code, out, _ = run(capsys, "library", "stats", "--db", db)
    assert code == 0
    lines = out.splitlines()
    i = lines.index("5x5 open: 112 tours (enumerate 112)")
    assert lines[i + 1] == "  complete: 1,728 of 1,728 tours"
    assert "  complete: 1,488 of 1,488 tours" in lines
    code, out, _ = run(capsys, "library", "stats", "--db", db, "--format", "json")
    kinds = json.loads(out)["kinds"]
    assert [k["completeness"] for k in kinds] == [
        {"complete": True, "represented": 1488, "count": 1488, "published": None},
        {"complete": True, "represented": 1728, "count": 1728, "published": None},
    ]


@pytest.mark.parametrize(
    ("argv", "code", "words"),
    [
        (["3x24", "--all", "--closed"], 2, "more than the 10,000,000"),
        (["5x5", "--all", "--seed", "3"], 2, "takes no --seed"),
        (["5x5", "--all", "--workers", "1", "--method", "backtrack"], 2, "--workers, --method"),
        (["5x5", "--all", "--count", "3"], 2, "not allowed with"),
        (["5x5"], 2, "--all"),
        (["4x4", "--all"], 1, "no tour on 4x4"),
        (["5x5", "--all", "--closed"], 1, "no closed tour"),
    ],
)
def test_cli_refusals_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], code: int, words: str
) -> None:
    got, out, err = run(capsys, "generate", *argv, "--db", str(tmp_path / "r.db"))
    assert got == code and out == ""
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_keeps_what_is_stored(tmp_path: Path) -> None:
    """A long enumeration (3x20 closed: about 100 s) stopped by Ctrl-C a few seconds in."""
    db = tmp_path / "c.db"
    argv = [*KT, "generate", "3x20", "--closed", "--all", "-q", "--db", str(db)]
    proc = subprocess.Popen(
        argv, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not db.exists() or _stored(db) == 0):
        time.sleep(0.2)  # until the first batch is stored
    _out, err = interrupt_group(proc)  # how soon it stops: benchmarks/bench_stops.py
    assert proc.returncode == 130, err
    m = re.fullmatch(r"knightstour: stopped; ([\d,]+) tours kept\n", err)
    assert m, err
    kept = int(m.group(1).replace(",", ""))
    assert 0 < kept == _stored(db) < 362_192


def _stored(db: Path) -> int:
    try:
        with Library(db, readonly=True) as lib:
            return lib.tours.count()
    except kt.KnightsTourError:  # not made yet
        return 0


@pytest.mark.sweep  # every 6x6 open tour: make test-all (the smaller boards above in make test)
def test_six_by_six_open(lib: Library) -> None:
    """415k classes, every one of 16 tours (the count first: given time on a busy machine)."""
    r = cp.generate_all("6x6", db=lib, count_seconds=600)
    assert (r.classes, r.tours) == (414_870, 6_637_920) == (r.added, r.count)
    assert cp.completeness_of(lib, "6x6", False).complete


@pytest.mark.slow
def test_count_past_a_complete_library_says_so_and_is_not_a_stop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`generate 5x5 --count 500` on a library holding every 5x5 tour stopped with exit 3 and
    "may reach no more": it is an answer (every tour is there), exit 0 (issue 30, item 10).
    A start square's run is not judged by the whole board's completeness: still a stop."""
    db = str(tmp_path / "all.db")
    assert main(["generate", "3x4", "--all", "--db", db, "-q"]) == 0
    capsys.readouterr()
    assert main(["generate", "3x4", "--count", "50", "--db", db, "-q"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("added 0 new 3x4 open tours in ")
    assert line.endswith(
        f"{db} holds 3 of them, every 3x4 open tour up to symmetry (complete: 16 of 16 tours): "
        "no new one is left to add"
    )
    with Library(db) as lib:
        result = generate("3x4", 5, db=lib, seed=1)
        assert (result.added, result.stalled) == (0, False)
        assert result.complete == "complete: 16 of 16 tours"


@pytest.mark.slow
def test_a_start_square_whose_every_tour_is_held_says_so_and_is_not_a_stop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`generate 5x5 --start a1` on a library holding every tour from a1 (as many as
    ``kt.count(board, start=...)`` says) stopped with exit 3: an answer, exit 0 (issue 30,
    item 10). A library holding a few of them is not complete from there."""
    import knightstour as kt

    db = str(tmp_path / "a1.db")
    assert main(["generate", "5x5", "--all", "--start", "a1", "--db", db, "-q"]) == 0
    capsys.readouterr()
    assert main(["generate", "5x5", "--start", "a1", "--count", "50", "--db", db, "-q"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("added 0 new 5x5 open tours in ")
    assert line.endswith(
        f"{db} holds 112 of them, every 5x5 open tour from a1 up to symmetry (complete: 304 of "
        "304 tours from a1): no new one is left to add"
    )
    with Library(db) as lib:
        board = kt.Board(5, 5)
        whole = cp.completeness_from(lib, board, False, board.parse_square("a1"))
        assert whole.complete and whole.count == kt.count("5x5", start="a1") == 304
        corner = cp.completeness_from(lib, board, False, board.parse_square("e5"))
        assert corner.complete  # a1's classes hold every tour from e5 too: their images
    with Library(":memory:") as few:
        generate("5x5", 3, db=few, start="a1", seed=1)
        some = cp.completeness_from(few, board, False, board.parse_square("a1"))
        assert some.count == 304 and some.tours is not None and some.tours < 304
        assert some.complete is False and some.text().endswith("of 304 tours from a1 known")
