"""The longest uncrossed knight's path and cycle (issue 33, items 3 and 4; items 1 and 2, the
metrics of a tour and the library, are done: tests/test_geometry.py, tests/test_library_metrics.py).

Every length is held to the published one (OEIS A003192, A157416: the default tier takes the
small boards, the slow and sweep tiers the larger ones) or to a plain exhaustive search written
here, and every path returned is checked here, independently of the code under test: squares on
the board and distinct, each a knight's move from the last (a cycle's last from its first), no
two moves crossing (every pair of moves intersected with the integer orientation test), and as
many moves as the length claimed.
"""

from __future__ import annotations

import itertools
import json
import signal
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from knightstour import published
from knightstour.board import Board
from knightstour.cli import main
from knightstour.counting import uncrossed
from knightstour.counting.uncrossed import longest_uncrossed, plan
from knightstour.errors import InvalidInputError, SearchFailedError

Point = tuple[int, int]


# -- the independent checks -------------------------------------------------------------------


def _orient(p: Point, q: Point, r: Point) -> int:
    v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (v > 0) - (v < 0)


def _meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd have a point in common (by exact fractions when collinear)."""
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, d), _orient(c, d, a), _orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    if o1 == o2 == o3 == o4 == 0:  # collinear: overlapping parameter ranges
        ab = (b[0] - a[0], b[1] - a[1])
        den = ab[0] * ab[0] + ab[1] * ab[1]
        t = sorted(Fraction((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1], den) for p in (c, d))
        return t[0] <= 1 and t[1] >= 0
    for p, q, r, o in ((a, b, c, o1), (a, b, d, o2), (c, d, a, o3), (c, d, b, o4)):
        inside = min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(
            p[1], q[1]
        )
        if o == 0 and inside:
            return True
    return False


def check_uncrossed(board: Board, path: list[Point], closed: bool, length: int) -> None:
    """Assert that ``path`` is an uncrossed knight's path (cycle) of ``length`` moves."""
    legs = sorted(board.leaper)
    assert len(set(path)) == len(path), "a square visited twice"
    for x, y in path:
        assert 0 <= x < board.width and 0 <= y < board.height
        assert board.index(x, y) not in board.holes
    moves = list(itertools.pairwise(path))
    if closed:
        moves.append((path[-1], path[0]))
    for a, b in moves:
        assert sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == legs, f"{a}-{b} is no move"
    assert len(moves) == length
    for i in range(len(moves)):
        for j in range(i + 1, len(moves)):
            (a, b), (c, d) = moves[i], moves[j]
            if {a, b} & {c, d}:
                continue
            assert not _meet(a, b, c, d), f"moves {a}-{b} and {c}-{d} cross"


def brute_force(board: Board, closed: bool) -> int:
    """The longest uncrossed path (cycle) by trying every one: a plain depth-first search."""
    legs = sorted(board.leaper)
    squares = [board.xy(s) for s in board.squares()]
    on = set(squares)

    def nbrs(p: Point) -> list[Point]:
        out = []
        for dx, dy in {
            (a * sx, b * sy) for a, b in (legs, legs[::-1]) for sx in (1, -1) for sy in (1, -1)
        }:
            q = (p[0] + dx, p[1] + dy)
            if q in on:
                out.append(q)
        return out

    def free(moves: list[tuple[Point, Point]], a: Point, b: Point) -> bool:
        return all({a, b} & {c, d} or not _meet(a, b, c, d) for c, d in moves)

    best = 0

    def dfs(path: list[Point], moves: list[tuple[Point, Point]]) -> None:
        nonlocal best
        if not closed:
            best = max(best, len(moves))
        here = path[-1]
        for q in nbrs(here):
            if closed and q == path[0] and len(path) >= 3 and free(moves, here, q):
                best = max(best, len(moves) + 1)
            if q in path or not free(moves, here, q):
                continue
            path.append(q)
            moves.append((here, q))
            dfs(path, moves)
            moves.pop()
            path.pop()

    for s in squares:
        dfs([s], [])
    return best


def solved(spec: str | Board, closed: bool) -> int:
    """The sweep's length, its path checked independently; 0 when there is no cycle."""
    best = longest_uncrossed(spec, closed=closed)
    if best.length is None:
        assert closed and best.path == ()
        return 0
    board = best.board
    check_uncrossed(board, [board.xy(s) for s in best.path], closed, best.length)
    return best.length


def _small() -> list[published.Longest]:
    """The figures the default tier takes: up to 7x7 but 7x7 open (slow: test_published_larger)."""
    return [
        f
        for f in published.longest_uncrossed()
        if f.width * f.height <= 49 and not (f.spec == "7x7" and not f.closed)
    ]


# -- the published values ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "figure", _small(), ids=lambda f: f"{f.spec}-{'closed' if f.closed else 'open'}"
)
def test_published_small(figure: published.Longest) -> None:
    assert solved(figure.spec, figure.closed) == figure.length


@pytest.mark.slow
@pytest.mark.parametrize("spec,closed", [("7x7", False), ("8x8", True), ("8x8", False)])
def test_published_larger(spec: str, closed: bool) -> None:
    (figure,) = [f for f in published.longest_uncrossed() if f.spec == spec and f.closed == closed]
    assert solved(spec, closed) == figure.length


@pytest.mark.sweep  # a minute or two: make test-all (9x9 open, 6 minutes: bench_uncrossed --nine)
@pytest.mark.parametrize("spec,closed", [("9x9", True)])
def test_published_sweep(spec: str, closed: bool) -> None:
    (figure,) = [f for f in published.longest_uncrossed() if f.spec == spec and f.closed == closed]
    assert solved(spec, closed) == figure.length


def test_published_file() -> None:
    """The file's figures: A003192 for n = 1..9, A157416 for n = 1..10, each with its source."""
    got = {(f.spec, f.closed): (f.length, f.source) for f in published.longest_uncrossed()}
    assert got[("8x8", False)] == (35, "OEIS A003192")
    assert got[("10x10", True)] == (54, "OEIS A157416")
    oeis = [f for f in published.longest_uncrossed() if f.source.startswith("OEIS")]
    assert all(f.width == f.height for f in oeis)
    assert all(f.url == f"https://oeis.org/{f.source.split()[1]}" for f in oeis)


def _icpc(lo: int, hi: int) -> list[published.Longest]:
    """The rectangles of the ICPC World Finals 2018 table with lo < width * height <= hi."""
    return [
        f
        for f in published.longest_uncrossed()
        if f.source == "ICPC WF 2018 solution" and lo < f.width * f.height <= hi
    ]


def test_icpc_table_labelled() -> None:
    """The rectangles (issue 33, item 3): widths 3 to 8, every one a closed figure with its
    source, no square among them (those are OEIS's)."""
    table = _icpc(0, 10**6)
    assert len(table) == 39 and all(f.closed and f.width < f.height for f in table)
    assert all("SnapDragon64/ACMFinalsSolutions" in f.url for f in table)


@pytest.mark.slow
@pytest.mark.parametrize("figure", _icpc(49, 60), ids=lambda f: f.spec)
def test_icpc_table(figure: published.Longest) -> None:
    assert solved(figure.spec, True) == figure.length


@pytest.mark.sweep  # the larger rectangles, up to a minute each: make test-all
@pytest.mark.parametrize("figure", _icpc(60, 84), ids=lambda f: f.spec)
def test_icpc_table_larger(figure: published.Longest) -> None:
    assert solved(figure.spec, True) == figure.length


@pytest.mark.sweep
@pytest.mark.parametrize("figure", _icpc(84, 96), ids=lambda f: f.spec)
def test_icpc_table_sweep(figure: published.Longest) -> None:
    assert solved(figure.spec, True) == figure.length


# -- against a plain exhaustive search --------------------------------------------------------


@pytest.mark.parametrize(
    "board",
    [
        Board(3, 4),
        Board(4, 3),
        Board(2, 5),
        Board(3, 5),
        Board(4, 4),
        Board(3, 6),
        Board(4, 4, holes=frozenset({5})),
        Board(4, 4, leaper=(1, 3)),
        Board(5, 3, leaper=(1, 1)),
    ],
    ids=lambda b: b.description if hasattr(b, "description") else str(b),
)
@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.parametrize("beam", [uncrossed.BEAM, 1, 0])
def test_brute_force(
    board: Board, closed: bool, beam: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against the plain search; ``beam`` 1 makes the first sweep's length a poor one (so the
    exact sweep finds the answer under the bound), 0 turns the bound and the first sweep off."""
    if beam == 0:
        monkeypatch.setattr(uncrossed, "_bounds", lambda p, watch=None: [10**6] * len(p.order))
        monkeypatch.setattr(uncrossed, "BEAM", 1)
        monkeypatch.setattr(uncrossed, "_run", _without_floor(uncrossed._run))
    else:
        monkeypatch.setattr(uncrossed, "BEAM", beam)
    assert solved(board, closed) == brute_force(board, closed)


def _without_floor(run: Callable[..., Any]) -> Callable[..., Any]:
    def plain(*args: Any, **kw: Any) -> Any:
        kw["floor"] = -1
        return run(*args, **kw)

    return plain


@pytest.mark.parametrize("spec,closed", [("6x6", False), ("7x7", True), ("5x9", False)])
def test_bound_holds_along_an_optimal_path(spec: str, closed: bool) -> None:
    """The bound on what the steps after each step can add is never below what an optimal
    path (found by the sweep, checked here) adds after that step."""
    best = longest_uncrossed(spec, closed=closed)
    p = plan(spec)
    rest = uncrossed._bounds(p)
    step = {s: t for t, s in enumerate(p.order)}
    ends = list(itertools.pairwise(best.path))
    if closed:
        ends.append((best.path[-1], best.path[0]))
    decided = [max(step[a], step[b]) for a, b in ends]
    for t in range(len(p.order)):
        assert sum(d > t for d in decided) <= rest[t]
    assert rest[-1] == 0 and rest[0] < len(p.order)  # a bound that cuts


def test_proof_names_the_first_length() -> None:
    best = longest_uncrossed("6x6")
    assert best.floor == best.length == 17
    assert "more than 17 moves" in best.proof and "none has more than 17" in best.proof


def test_turned_boards_agree() -> None:
    """A board and its transpose (swept the other way) have the same longest path."""
    for w, h in ((3, 7), (4, 6), (5, 4)):
        for closed in (False, True):
            assert solved(f"{w}x{h}", closed) == solved(f"{h}x{w}", closed)


def test_checker_catches_a_crossing() -> None:
    """The independent check fails on a crossed path (so it can fail)."""
    board = Board(3, 3)
    with pytest.raises(AssertionError, match="cross"):
        check_uncrossed(board, [(0, 0), (2, 1), (0, 2), (1, 0)], False, 3)
    with pytest.raises(AssertionError, match="no move"):
        check_uncrossed(board, [(0, 0), (1, 1)], False, 1)


# -- the plan, the front door and the command line -------------------------------------------


def test_plan_sizes_grow_with_the_short_side() -> None:
    a, b = plan("8x8"), plan("8x30")
    assert (a.frontier, a.pending) == (b.frontier, b.pending)
    assert plan("30x8").frontier == a.frontier  # swept file by file


def test_refused_before_any_memory() -> None:
    with pytest.raises(InvalidInputError, match="short side of 11"):
        longest_uncrossed("11x11")
    with pytest.raises(InvalidInputError, match="flat"):
        longest_uncrossed("4x4x4")
    with pytest.raises(InvalidInputError, match="more than 64 pending moves"):
        longest_uncrossed(Board(10, 10, leaper=(1, 4)))  # its plan's bits would overflow


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["uncrossed", "5x5", "--format", "json", "--quiet"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["width"], d["height"], d["closed"], d["length"]) == (5, 5, False, 10)
    board = Board(5, 5)
    assert [board.square_name(board.index(x, y)) for x, y in d["xy"]] == d["path"]
    check_uncrossed(board, [tuple(p) for p in d["xy"]], False, d["length"])


def test_json_closed_and_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["uncrossed", "6x6", "--closed", "--format", "json", "--quiet"]) == 0
    d = json.loads(capsys.readouterr().out)
    check_uncrossed(Board(6, 6), [tuple(p) for p in d["xy"]], True, d["length"])
    assert d["length"] == 12 and "exact" in d["proof"]
    assert main(["uncrossed", "3x3", "--closed", "--format", "json", "--quiet"]) == 1
    d = json.loads(capsys.readouterr().out)
    assert d["exists"] is False and "no uncrossed cycle" in d["reason"]


def test_svg(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "u.svg"
    assert main(["uncrossed", "5x5", "--closed", "--svg", str(out), "--quiet"]) == 0
    text = out.read_text()
    assert text.startswith("<svg") and text.count('class="closing"') == 1
    assert main(["uncrossed", "5x5", "--svg", str(out), "--quiet"]) == 2  # no silent overwrite


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv,what",
    [
        (["12x12"], "short side of 12"),
        (["5x5", "--wrap", "torus"], "flat boards"),
        (["0x5"], ""),
    ],
)
def test_bad_input_one_line(argv: list[str], what: str) -> None:
    """As a program: one line on stderr, exit 2, no traceback."""
    r = subprocess.run(
        [sys.executable, "-m", "knightstour", "uncrossed", *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert what in r.stderr and "Traceback" not in r.stderr


# -- long runs: the time limit, the progress, Ctrl-C (issue 33, item 4) ------------------------


def test_time_limit_stops_a_long_sweep() -> None:
    """8x8 open takes many steps of seconds: a short limit stops it with the project's
    SearchFailedError, the step it reached named, and the progress it reported short of done."""
    seen: list[tuple[int, int]] = []
    with pytest.raises(
        SearchFailedError, match=r"on 8x8 stopped at the time limit, square \d+ of 64"
    ):
        longest_uncrossed("8x8", time_limit=0.2, progress=lambda d, t: seen.append((d, t)))
    assert all(t == 128 for _, t in seen) and (not seen or seen[-1][0] < 128)


def test_progress_counts_both_sweeps() -> None:
    seen: list[tuple[int, int]] = []
    longest_uncrossed("5x5", progress=lambda d, t: seen.append((d, t)))
    assert seen == [(d, 50) for d in range(1, 51)]


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "2", True])
def test_bad_time_limit_refused(bad: object) -> None:
    with pytest.raises(InvalidInputError, match="time_limit must be a positive"):
        longest_uncrossed("4x4", time_limit=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="progress must be a function"):
        longest_uncrossed("4x4", progress=5)  # type: ignore[arg-type]


def test_time_limit_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["uncrossed", "8x8", "--time-limit", "0.2", "--quiet"]) == 3
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "stopped at the time limit" in err
    assert main(["uncrossed", "8x8", "--time-limit", "0.2", "-q", "--format", "json"]) == 3
    d = json.loads(capsys.readouterr().out)
    assert d["exists"] is None and "stopped at the time limit" in d["reason"]
    assert main(["uncrossed", "5x5", "--time-limit", "60", "--quiet"]) == 0  # time enough


def test_a_sweep_that_would_outgrow_the_memory_stops_before_it_asks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With 256 KiB free (as the system reports it), 6x6 open stops in one line once a table
    would take more (a table of 2^14 rows is 384 KiB), naming the square and the sizes; exit 3."""
    asked: list[int] = []
    real = uncrossed._table

    def table(size: int):  # type: ignore[no-untyped-def]
        asked.append(size * uncrossed._ROW_BYTES)
        return real(size)

    monkeypatch.setattr(uncrossed, "available_memory", lambda: 2**18)
    monkeypatch.setattr(uncrossed, "_table", table)
    with pytest.raises(SearchFailedError, match=r"6x6 stopped at square \d+ of 36 of the") as e:
        longest_uncrossed("6x6")
    assert "GiB, more than the 0.0 GiB this machine has free" in str(e.value)
    assert asked and max(asked) <= 0.9 * 2**18  # nothing bigger was asked for
    assert main(["uncrossed", "6x6", "--quiet"]) == 3
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "this machine has free" in err
    monkeypatch.undo()
    assert longest_uncrossed("6x6").length == 17


@pytest.mark.parametrize("bad", ["0", "-3", "nan", "inf", "soon", ""])
def test_bad_time_limit_exit_2(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["uncrossed", "5x5", "--time-limit", bad, "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--time-limit" in err and "Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_stops_cleanly() -> None:
    """A real process, interrupted in the middle of 8x8 open: one line, exit 130 (as every
    command on Ctrl-C), no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "knightstour", "uncrossed", "8x8", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        proc.wait(timeout=3)  # under way (the sweep takes longer than this)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    if proc.returncode == 0:  # finished before the signal came
        assert out.startswith("longest uncrossed path on 8x8: 35 moves")
        return
    assert proc.returncode == 130, err
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "stopped" in err


@pytest.mark.parametrize(("spec", "closed"), [("6x6", False), ("7x6", True), ("5x8", False)])
def test_the_mirror_keeps_one_state_of_each_pair(spec: str, closed: bool) -> None:
    """At the end of each line a state and its mirror image are one state: the same length as
    the sweep that keeps both, fewer states, and a path walked back through mirrored states
    that is still an uncrossed path of that length."""
    import dataclasses

    p = plan(spec)
    assert any(len(m) for m in p.mirror_slot)
    plain = dataclasses.replace(p, mirror_slot=(), mirror_pending=())
    both, one = uncrossed._run(plain, closed), uncrossed._run(p, closed)
    assert one.best[0] == both.best[0]
    assert sum(one.states) < 0.75 * sum(both.states)
    mirrored = sum(int((c & 128).any()) for c in one.choices)
    assert mirrored > 0
    best = longest_uncrossed(spec, closed=closed)
    assert best.length == int(both.best[0])
    check_uncrossed(best.board, [best.board.xy(s) for s in best.path], closed, best.length)
    holed = plan(Board(6, 6, holes=["a1"]))
    assert holed.mirror_of == () and not any(len(m) for m in holed.mirror_slot)  # no mirror


def test_a_row_keeps_moves_past_65535_and_a_board_past_its_field_is_refused() -> None:
    """The table row's moves field holds more than 16 bits (a path of 65,536 moves on a long
    narrow board must not wrap), compares by it, and the sweep refuses a board whose moves it
    could not count, in one line, before any memory is spent."""
    from knightstour.kernels import jit

    k = jit.load(uncrossed._KERNELS, compiled=True)
    tab = uncrossed._table(1024)
    key = np.array([12345, 678], dtype=np.uint64)
    h = np.int64(k.mix2(key[0], key[1]) & np.uint64(1023))

    def meta(moves: int, pred: int, choice: int) -> np.uint64:
        return np.uint64(pred << 32 | moves << 8 | choice)

    used = k.put_at(tab, 0, key[0], key[1], h, meta(70_000, 5, 3))
    used = k.put_at(tab, used, key[0], key[1], h, meta(65_535, 6, 1))  # fewer: kept out
    used = k.put_at(tab, used, key[0], key[1], h, meta(70_001, 2**31 - 1, 128 | 2))
    keys, vals = np.empty((1, 2), np.uint64), np.empty(1, np.int32)
    pred, choice = np.empty(1, np.int32), np.empty(1, np.uint8)
    assert used == 1 and k.compact(tab, keys, vals, pred, choice) == 1
    assert (int(vals[0]), int(pred[0]), int(choice[0])) == (70_001, 2**31 - 1, 130)
    with pytest.raises(InvalidInputError, match="more than the sweep counts moves for"):
        longest_uncrossed(Board(2, 2**23))
