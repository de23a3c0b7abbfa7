"""Tours between two given squares by construction (issue 16, item 5): divide's ends construction.

Every tour made here is validated: through :func:`knightstour.solve` (which validates every
answer) or by the independent vectorised check of ``check_path``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import knightstour as kt
from knightstour.board import Board
from knightstour.existence import exists
from knightstour.solvers import SolveRequest
from knightstour.solvers import _divide_ends as E
from knightstour.solvers.divide import divide, plan_between
from tiers import sample


def allowed(w: int, h: int, s: int, t: int) -> bool:
    """Colour parity: different colours on an even board, both of the corners' colour on odd."""
    cs, ct = (s % w + s // w) % 2, (t % w + t // w) % 2
    return cs != ct if (w * h) % 2 == 0 else cs == ct == 0


def check_path(w: int, h: int, p: np.ndarray, s: int, t: int) -> None:
    """An open tour of the w x h board from s to t (independent of the package's validation)."""
    assert p.dtype == np.int32 and p.size == w * h and int(p[0]) == s and int(p[-1]) == t
    assert np.array_equal(np.sort(p), np.arange(w * h, dtype=np.int32))
    q = p.astype(np.int64)
    dx, dy = np.abs(np.diff(q % w)), np.abs(np.diff(q // w))
    assert np.all(((dx == 1) & (dy == 2)) | ((dx == 2) & (dy == 1)))


def pairs(w: int, h: int) -> list[tuple[int, int]]:
    return [(s, t) for s in range(w * h) for t in range(s + 1, w * h) if allowed(w, h, s, t)]


# -- every pair on small boards, against the exact search ------------------------------------------


@pytest.mark.parametrize("n", [6, 7])
def test_every_pair_on_6x6_and_7x7_agrees_with_the_exact_search(n: int) -> None:
    """Each pair colour parity allows is built (both ways round) and validated, and the exact
    search (``exists`` on a board this small) finds a tour for exactly those pairs. Every start
    with --all; else a1 and 11 drawn, each to every end."""
    board = Board(n, n)
    for s in sample(range(board.size), 12, seed=n, keep=[0]):
        for t in range(board.size):
            if s == t:
                continue
            ok = allowed(n, n, s, t)
            assert E.plan(board, s, t) is not None if ok else E.plan(board, s, t) is None
            if s < t:
                assert exists(board, s, end=t).exists is ok
            if ok:
                check_path(n, n, E.ends_tour(board, s, t), s, t)


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec", ["8x8", "9x9", "6x7", "7x10", "10x7", "9x12", "13x10", "12x15", "17x12"]
)
def test_every_pair_on_small_boards_is_built(spec: str) -> None:
    """Every pair (without --all: 120 drawn, those from the corner a1 among them)."""
    board = kt.parse_board(spec)
    w, h = board.width, board.height
    every = pairs(w, h)
    for s, t in sample(every, 120, seed=w * h, keep=[p for p in every if p[0] == 0]):
        check_path(w, h, E.ends_tour(board, s, t), s, t)


def test_colour_parity_refuses_the_rest() -> None:
    board = Board(8, 8)
    for s in range(64):
        for t in range(64):
            if s != t and not allowed(8, 8, s, t):
                assert E.plan(board, s, t) is None
                assert exists(board, s, end=t).exists is False


# -- random pairs on many sizes -------------------------------------------------------------------


@pytest.mark.slow
def test_random_pairs_on_boards_6_to_60() -> None:
    rng = random.Random(16)
    done = 0
    while done < 400:
        w, h = rng.randrange(6, 61), rng.randrange(6, 61)
        s, t = rng.randrange(w * h), rng.randrange(w * h)
        if s == t or not allowed(w, h, s, t):
            continue
        board = Board(w, h)
        if w == h:  # Conrad et al. 1994: every allowed pair, and the construction builds it
            assert E.plan(board, s, t) is not None, (w, h, s, t)
        elif E.plan(board, s, t) is None:
            continue
        check_path(w, h, E.ends_tour(board, s, t), s, t)
        done += 1


@pytest.mark.slow
def test_square_boards_every_pair_near_the_corners_and_edges() -> None:
    """Ends near corners and edges, and next to each other, on square boards 12 to 30 (without
    --all: the smallest, the largest and one drawn)."""
    for n in sample(range(12, 31, 3), 3, seed=12, keep=[12, 30]):
        board = Board(n, n)
        near = [x + y * n for x in (0, 1, 2, n - 3, n - 2, n - 1) for y in (0, 1, 2, n - 2)]
        for s in near:
            for t in near:
                if s != t and allowed(n, n, s, t):
                    check_path(n, n, E.ends_tour(board, s, t), s, t)


# -- through solve and exists -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec,start,end",
    [
        ("150x150", "a1", "b1"),
        ("100x100", "a1", "c2"),
        ("151x151", "a1", "c1"),
        ("151x149", "e5", "eu141"),
        ("600x9", "a1", "b1"),
        ("9x600", "i600", "a1"),
        ("1000x1000", "j10", "ala990"),
    ],
)
def test_solve_builds_tours_between_given_ends(spec: str, start: str, end: str) -> None:
    tour = kt.solve(spec, start=start, end=end)  # validated by solve
    assert tour.method == "divide" and tour.start == start and tour.end == end
    assert len(tour) == tour.board.size


def test_exists_never_unknown_for_pairs_on_square_boards() -> None:
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randrange(6, 200)
        board = Board(n, n)
        s, t = rng.randrange(n * n), rng.randrange(n * n)
        if s != t:
            assert exists(board, s, end=t).exists is allowed(n, n, s, t)


def test_exists_on_rectangles_by_construction() -> None:
    answer = exists("60x41", start="a1", end="b3")
    assert answer.exists is True and "by construction" in answer.reason
    assert exists("60x41", start="a1", end="c1").exists is False  # colour parity
    assert plan_between(Board(3000, 2999), 0, 1) is True


def test_divide_takes_ends_when_handed_them_closed_too() -> None:
    board = Board(21, 21)
    sol = divide(SolveRequest(board, start=0, end=2))
    check_path(21, 21, np.asarray(sol.indices), 0, 2)
    with pytest.raises(kt.NoTourError, match="21x21"):  # Schwenk: odd by odd, no closed tour
        divide(SolveRequest(board, start=0, end=2, closed=True))
    # a closed tour whose end is a move from its start is a path between them (issue 30, item 13)
    even = Board(20, 20)
    sol = divide(SolveRequest(even, start=0, end=41, closed=True))  # a1 to b3
    check_path(20, 20, np.asarray(sol.indices), 0, 41)
    assert kt.Tour(even, sol.indices, closed=True).closed
    with pytest.raises(kt.NoTourError, match="knight's move from its start"):
        divide(SolveRequest(even, start=0, end=43, closed=True))  # a1 to d3: not a move
    with pytest.raises(kt.InvalidInputError, match="both sides at least 6"):
        divide(SolveRequest(Board(5, 30), start=0, end=1))
    with pytest.raises(kt.NoTourError):
        divide(SolveRequest(board, start=0, end=1))  # colour parity on an odd board


def test_a_deadline_stops_the_ends_construction() -> None:
    import time

    request = SolveRequest(Board(400, 400), start=0, end=1, deadline=time.monotonic() - 1)
    with pytest.raises(kt.SearchFailedError):
        divide(request)


# -- the pieces ------------------------------------------------------------------------------------


def test_every_frame_maps_back() -> None:
    """The construction in each of the 16 frames (symmetries, ends swapped), mapped back."""
    w, h, s, t = 23, 17, 5 + 3 * 23, 20 + 14 * 23
    assert allowed(w, h, s, t)
    for code, fw, fh, fs, ft in E._frames(w, h, s, t):
        p = E._plan_frame(fw, fh, fs, ft)
        assert p is not None, code
        check_path(w, h, E._from_frame(E.build(p), w, h, code), s, t)


@pytest.mark.slow
def test_a_detour_joins_ends_that_share_a_block() -> None:
    """b3 and e3 of 12 x 15 lie in one block whatever the cut, and no path of that block joins
    them keeping its joins: the path jumps, and the next block holds the detour."""
    board = Board(12, 15)
    for s, t in ((25, 28), (31, 34)):
        assert E._planned(12, 15, s, t)[1].detour is not None
        check_path(12, 15, E.ends_tour(board, s, t), s, t)
        check_path(12, 15, E.ends_tour(board, t, s), t, s)


def test_block_search_keeps_forced_moves() -> None:
    j = E._joins(8, 8)
    forced = (j["BR"], j["TL"], j["BLV"])
    path = E.block_search(8, 8, 27, 36 + 1, forced)
    assert path is not None
    links = {frozenset(p) for p in zip(path[:-1].tolist(), path[1:].tolist(), strict=True)}
    assert all(frozenset(e) in links for e in forced)
    check_path(8, 8, path.astype(np.int32), 27, 37)


# -- issue 16, item 2: two cores, and a tour written to a file in pieces ----------------------------


@pytest.mark.parametrize("piece", [1 << 24, 5000, 777])
def test_tours_written_to_a_file_in_pieces_are_the_tours_built_in_memory(
    piece: int, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from knightstour.solvers import divide as D

    monkeypatch.setattr(D, "PIECE", piece)
    for w, h, s, closed in [
        (100, 90, 0, True),
        (101, 103, 5 * 101 + 7, False),
        (37, 400, 0, True),
        (9, 1000, 3, False),
        (1000, 8, 0, True),
        (1030, 1030, 1030 * 500 + 7, True),
    ]:
        request = SolveRequest(Board(w, h), start=s, closed=closed)
        path = tmp_path / f"{w}x{h}.npy"
        D.divide_to_npy(request, path)
        assert np.array_equal(np.load(path), D.divide(request).indices)


def test_two_cores_build_the_one_core_tour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows written on two cores at the places the first pass recorded: the same tour as
    one pass, on boards over the threshold (closed, open from a start, odd x odd)."""
    from knightstour.solvers import divide as D

    cases = [(1100, 1000, 0, True), (1031, 1029, 1031 * 600 + 502, False), (1024, 1030, 77, True)]
    for w, h, s, closed in cases:
        request = SolveRequest(Board(w, h), start=s, closed=closed)
        assert w * h >= D.PARALLEL_SQUARES
        two = D.divide(request).indices
        monkeypatch.setattr(D, "PARALLEL_SQUARES", 1 << 62)
        one = D.divide(request).indices
        monkeypatch.undo()
        assert np.array_equal(one, two)
        kt.Tour(Board(w, h), two, closed=closed)  # validated
