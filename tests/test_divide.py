"""The divide method: its stored base tours, every board shape class, huge-board paths.

The base tours in ``data/divide_tours.npz`` are checked here independently of the code that
uses them (plain Python, not find_problems); every constructed tour goes through
``assert_is_tour`` (small) or an independent vectorised check (large).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import knightstour as kt
from conftest import assert_is_tour
from knightstour.board import Board
from knightstour.existence import exists
from knightstour.solvers import SolveRequest
from knightstour.solvers import divide as D
from knightstour.solvers.divide import GRID_SIZES, SMALL_THIN, THIN, grid_edges, thin_jumps
from knightstour.theory import verdict
from tiers import sample

DATA = D._data()


def divide(board: Board, start: int, closed: bool = False) -> np.ndarray:
    """The divide method's indices for one request."""
    return D.divide(SolveRequest(board, start, closed=closed)).indices


def is_move(w: int, a: int, b: int) -> bool:
    return sorted((abs(a % w - b % w), abs(a // w - b // w))) == [1, 2]


def check_cover(
    w: int,
    h: int,
    seq: np.ndarray,
    start: int,
    end: int,
    jumps: list,
    closed: bool = False,
    forced: list = (),
) -> None:
    """``seq`` visits every square of the w x h block once, by knight's moves except the given
    jumps (each taken straight from its first square to its second), from start to end."""
    s = [int(v) for v in seq]
    assert sorted(s) == list(range(w * h))
    assert s[0] == start
    if end >= 0:
        assert s[-1] == end
    jump_set = {tuple(j) for j in jumps}
    taken = set()
    for a, b in itertools.pairwise(s):
        if (a, b) in jump_set:
            taken.add((a, b))
        else:
            assert is_move(w, a, b), f"{a}->{b}"
    assert taken == jump_set
    pairs = set(itertools.pairwise(s))
    if closed:
        assert is_move(w, s[-1], s[0])
        pairs.add((s[-1], s[0]))
    for a, b in forced:
        assert (a, b) in pairs or (b, a) in pairs, f"missing move {a}-{b}"


def check_large(board: Board, p: np.ndarray, closed: bool, start: int) -> None:
    """Independent vectorised check for big tours."""
    assert p.dtype == np.int32 and p.size == board.size and int(p[0]) == start
    assert np.array_equal(np.sort(p), np.arange(board.size, dtype=np.int32))
    q = p.astype(np.int64)
    x, y = q % board.width, q // board.width
    dx, dy = np.abs(np.diff(x)), np.abs(np.diff(y))
    assert np.all(((dx == 1) & (dy == 2)) | ((dx == 2) & (dy == 1)))
    if closed:
        assert board.is_move(int(p[-1]), int(p[0]))


# -- the stored base tours -------------------------------------------------------------------


def test_grid_closed_base_tours() -> None:
    for w in GRID_SIZES:
        for h in GRID_SIZES:
            if w % 2 and h % 2:
                assert f"grid_closed/{w}x{h}" not in DATA
                continue
            seq = DATA[f"grid_closed/{w}x{h}"]
            e = grid_edges(w, h)
            check_cover(w, h, seq, int(seq[0]), -1, [], closed=True, forced=list(e.values()))


def test_grid_open_base_tours_from_every_corner_coloured_square() -> None:
    for w in (5, 7, 9, 11):
        for h in (5, 7, 9, 11):
            e = grid_edges(w, h)
            for v, names in ((0, ("BR", "TL", "BLV")), (1, ("BLH", "BR"))):
                rows = DATA[f"grid_path/{w}x{h}/{v}"]
                for s in range(w * h):
                    if (s % w + s // w) % 2:
                        assert rows[s, 0] == -1
                        continue
                    check_cover(w, h, rows[s], s, -1, [], forced=[e[k] for k in names])


def test_thin_lane_blocks() -> None:
    for h, spec in THIN.items():
        for kind, widths in spec["blocks"].items():
            for k in widths:
                start, end, jumps = thin_jumps(h, kind, k)
                check_cover(k, h, DATA[f"thin{h}/{kind}/{k}"], start, end, jumps)


def test_thin_start_blocks() -> None:
    for h, spec in THIN.items():
        for kind, widths in spec["starts"].items():
            for k in widths:
                rows = DATA[f"thin{h}/M/{kind}/{k}"]
                for s in range(h * k):
                    if rows[s, 0] < 0:
                        continue
                    start, end, jumps = thin_jumps(h, kind, k, s)
                    check_cover(k, h, rows[s], start, end, jumps)


def test_small_thin_boards_settle_every_start() -> None:
    """Stored whole: a tour from every square that has one; the rest proved or ruled out."""
    for h, widths in SMALL_THIN.items():
        for w in widths:
            rows, status = DATA[f"small/{w}x{h}"], DATA[f"small_status/{w}x{h}"]
            for s in range(w * h):
                theory = exists(Board(w, h), s).exists
                if status[s] == 1:
                    check_cover(w, h, rows[s], s, -1, [])
                    assert theory is not False
                elif status[s] == -1:
                    assert theory is False  # excluded by colour or the outer-line rule
            if f"small_closed/{w}x{h}" in DATA:
                seq = DATA[f"small_closed/{w}x{h}"]
                check_cover(w, h, seq, int(seq[0]), -1, [], closed=True)
    # the small-board exceptions found by exhaustive search
    none = {(w, int(s)) for w in (7, 8) for s in np.flatnonzero(DATA[f"small_status/{w}x3"] == 0)}
    assert none == {(7, 10), (8, 10), (8, 13)}  # 3x7 d2; 3x8 c2 and f2


# -- every board shape class on moderate sizes -------------------------------------------------


def starts(board: Board, drawn: int) -> list[int]:
    """Every square with --all; else the four corners and ``drawn`` more, with a fixed seed."""
    w, n = board.width, board.size
    corners = [0, w - 1, n - w, n - 1]
    return sample(range(n), drawn + 4, seed=n, keep=corners)


@pytest.mark.parametrize(
    "w,h",
    [
        (5, 5),
        (6, 6),
        (5, 6),
        (6, 5),
        (8, 8),
        (7, 9),
        (12, 10),
        (10, 12),
        (13, 11),
        (11, 13),
        (15, 15),
        (16, 9),
        (9, 16),
        (17, 19),
    ],
)
def test_every_start_on_grid_boards(w: int, h: int) -> None:
    """Every start with --all; else the corners and 20 drawn."""
    board = Board(w, h)
    for closed in (False, True):
        if closed and not exists(board, closed=True).exists:
            with pytest.raises(kt.NoTourError):
                divide(board, 0, closed=True)
            continue
        for s in starts(board, 20):
            if exists(board, s, closed=closed).exists is False:
                with pytest.raises(kt.NoTourError):
                    divide(board, s, closed=closed)
                continue
            assert_is_tour(board, divide(board, s, closed=closed), closed=closed, start=s)


@pytest.mark.parametrize("h", [3, 4])
@pytest.mark.parametrize("w", [*range(1, 25), 29, 30, 37])
def test_every_start_on_thin_boards(w: int, h: int) -> None:
    """Every start with --all; else the corners and 10 drawn."""
    for board in (Board(w, h), Board(h, w)):
        for closed in (False, True):
            for s in starts(board, 10):
                answer = exists(board, s, closed=closed).exists
                try:
                    path = divide(board, s, closed=closed)
                except kt.NoTourError:
                    assert answer is not True, (board, s, closed)
                    continue
                assert answer is not False
                assert_is_tour(board, path, closed=closed, start=s)


def test_solve_uses_divide_and_validates() -> None:
    t = kt.solve("30x31", start="c3", method="divide")
    assert t.method == "divide" and t.start == "c3" and len(t) == 930
    with pytest.raises(kt.NoTourError):
        kt.solve("7x3", start="d2", method="divide")  # exhaustive search: none from the centre
    between = kt.solve("8x8", start="a1", end="h7", method="divide")  # the ends construction
    assert between.method == "divide" and between.path[0] == "a1" and between.path[-1] == "h7"
    with pytest.raises(kt.InvalidInputError, match="both sides at least 6"):
        kt.solve("5x8", start="a1", end="b1", method="divide")
    for option in ({"tiebreak": "first"}, {"seed": 3}):  # refused, not ignored
        with pytest.raises(kt.InvalidInputError, match="the divide method takes no"):
            kt.solve("8x8", start="a1", method="divide", **option)


# -- large boards: random start squares, the compiled path -------------------------------------


@pytest.mark.parametrize(
    "w,h,closed",
    [
        (301, 299, False),
        (300, 299, True),
        (299, 300, False),
        (256, 256, True),
        (3, 20001, False),
        (20000, 3, True),
        (4, 30001, False),
        (30000, 4, False),
        (5, 9001, False),
        (9000, 6, True),
    ],
)
def test_large_boards_random_starts(w: int, h: int, closed: bool) -> None:
    board = Board(w, h)
    rng = random.Random(w * 7 + h)
    corners = [0, w - 1, (h - 1) * w, h * w - 1]  # roots at every end of the joining tree
    starts = [s for s in corners if exists(board, s, closed=closed).exists is not False]
    while len(starts) < 7:
        s = rng.randrange(board.size)
        if exists(board, s, closed=closed).exists is not False:
            starts.append(s)
    for s in starts:
        check_large(board, divide(board, s, closed=closed), closed, s)


def test_auto_picks_divide_on_large_boards() -> None:
    t = kt.solve("600x601", start="e5")
    assert t.method == "divide" and t.start == "e5"


def test_cli_writes_npy(tmp_path) -> None:
    from knightstour.cli import main

    out = tmp_path / "t.npy"
    rc = main(
        [
            "solve",
            "250x251",
            "--closed",
            "--method",
            "divide",
            "--format",
            "npy",
            "--output",
            str(out),
        ]
    )
    assert rc == 0
    p = np.load(out)
    check_large(Board(250, 251), p, True, 0)


def test_npy_is_streamed_when_divide_builds_it(tmp_path, monkeypatch) -> None:
    """The CLI's --format npy goes through solve_to_npy: where auto puts divide first, the tour is
    streamed by divide_to_npy, and the file holds the same tour as solve() returns."""
    from knightstour.cli import main

    calls: list[int] = []
    real = D.divide_to_npy
    from knightstour.solvers import files

    monkeypatch.setattr(
        files, "divide_to_npy", lambda r, f: (calls.append(r.board.size), real(r, f))
    )
    out = tmp_path / "t.npy"
    assert main(["solve", "120x121", "--closed", "--start", "c3", "--format", "npy",
                 "--output", str(out)]) == 0  # fmt: skip
    assert calls == [120 * 121]
    assert np.array_equal(np.load(out), kt.solve("120x121", "c3", closed=True).indices)
    # a request auto gives to Warnsdorff is solved and saved whole, the same tour as solve()
    assert kt.solve_to_npy("30x30", tmp_path / "w.npy", "a1") == "warnsdorff"
    assert calls == [120 * 121]
    assert np.array_equal(np.load(tmp_path / "w.npy"), kt.solve("30x30", "a1").indices)


def test_npy_answers_no_without_leaving_a_file(tmp_path, capsys) -> None:
    from knightstour.cli import main

    out = tmp_path / "t.npy"
    assert main(["solve", "301x301", "--closed", "--format", "npy", "--output", str(out)]) == 1
    assert "no closed tour on 301x301" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(kt.NoTourError):
        kt.solve_to_npy("301x301", out, closed=True, method="divide")
    assert list(tmp_path.iterdir()) == []


def test_a_missing_block_plan_is_a_bug_not_a_failed_search(monkeypatch) -> None:
    """Theory promises a tour by construction from every allowed square: no plan is a bug."""
    board = Board(4, 30)
    assert verdict(board, 0).exists is True
    monkeypatch.setattr(D, "_thin_plan", lambda *args: None)
    with pytest.raises(kt.InternalError, match="no block plan for a tour from a1 on 4x30"):
        divide(board, 0)


# -- issue 11, item 8: refused up front with a true estimate of the memory the construction needs


@pytest.mark.parametrize("spec", ["3x700000000", "700000000x3", "4x500000000", "40000x40000"])
def test_divide_refuses_up_front_with_its_true_need(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thin boards need ~11 B a square (a successor array and the path), not 9: 3x700000000 was
    let through by a 9 B estimate and ran out of memory at 3.65 GB under a 4 GB limit."""
    import knightstour.board as board_module
    from knightstour.solvers import divide as divide_module

    board = kt.parse_board(spec)
    need = divide_module.memory_needed(board)
    assert need >= (15 if min(board.width, board.height) < 5 else 4) * board.area
    monkeypatch.setattr(board_module, "available_memory", lambda: int(need * 0.95))
    monkeypatch.setattr(divide_module, "_process_limit", lambda: None)
    with pytest.raises(kt.InvalidInputError, match="too large: the divide construction needs"):
        kt.solve(board, method="divide")
    monkeypatch.setattr(board_module, "available_memory", lambda: 2**62)
    monkeypatch.setattr(divide_module, "_process_limit", lambda: int(need * 0.95))
    with pytest.raises(kt.InvalidInputError, match="its memory limit"):
        kt.solve(board, method="divide")


def test_divide_memory_estimate_bounds_the_measured_peak() -> None:
    """The estimate is at least the traced peak of solve() on a thin and a wide board."""
    import tracemalloc

    from knightstour.solvers.divide import memory_needed

    for spec in ("3x400000", "4x300001", "600x700"):
        board = kt.parse_board(spec)
        kt.solve(board, method="divide")  # load the kernels outside the measurement
        tracemalloc.start()
        try:
            kt.solve(board, method="divide")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak <= memory_needed(board), (spec, peak / board.area)


# -- issue 11, item 13: a time limit stops the construction, not only its start


def test_divide_is_stopped_by_its_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled kernels are stopped at the deadline (they ran on, 1.45 s for 0.2 s)."""
    import time

    from knightstour.solvers import SolveRequest
    from knightstour.solvers import divide as divide_module

    stops: list[int] = []
    real = divide_module._until

    def slow(deadline: float | None, fn: object, *args: object) -> object:
        def kernel(*a: object) -> object:
            stop = a[-1]
            while not stop[0]:  # type: ignore[index]
                time.sleep(0.001)
            stops.append(1)
            return 0

        return real(deadline, kernel, *args)

    monkeypatch.setattr(divide_module, "_until", slow)
    for spec in ("30x30", "3x40"):
        request = SolveRequest(kt.parse_board(spec), start=0, deadline=time.monotonic() + 0.1)
        with pytest.raises(kt.SearchFailedError, match="stopped by the time limit"):
            divide_module.divide(request)
    assert len(stops) == 2  # each kernel was told to stop (how soon: benchmarks/bench_overhead.py)
