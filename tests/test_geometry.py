"""The shape of a tour (issue 33, item 1): crossings, turns, directions, symmetries and end
displacement, held to a plain independent count written here (every pair of moves tested, an
O(n^2) segment intersection in exact integers), on open and closed tours, partial paths, boards
with holes and other leapers."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

import knightstour as kt
from knightstour.board import Board
from knightstour.geometry import SYMMETRY_NAMES, metrics
from knightstour.tour import PartialTour

# -- the independent count ------------------------------------------------------------------


def _meet(p, q, r, s) -> bool:
    """Whether closed segments pq and rs share a point: solved as two lines with fractions,
    or, when parallel, by overlapping projections on a common line."""
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = p, q, r, s
    den = (x2 - x1) * (y4 - y3) - (y2 - y1) * (x4 - x3)
    if den:
        t = Fraction((x3 - x1) * (y4 - y3) - (y3 - y1) * (x4 - x3), den)
        u = Fraction((x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1), den)
        return 0 <= t <= 1 and 0 <= u <= 1
    if (x3 - x1) * (y2 - y1) - (y3 - y1) * (x2 - x1):
        return False  # parallel, on different lines
    # on one line: project on the axis along which the first segment moves
    ax = 0 if x1 != x2 else 1
    a, b = sorted((p[ax], q[ax]))
    c, d = sorted((r[ax], s[ax]))
    return max(a, c) <= min(b, d)


def plain_metrics(board: Board, squares: list[int], closed: bool) -> dict:
    """Every metric counted the slow, obvious way."""
    w, h = board.width, board.height
    pts = [(s % w, s // w) for s in squares]
    n = len(pts)
    moves = [(pts[i], pts[i + 1]) for i in range(n - 1)]
    if closed:
        moves.append((pts[-1], pts[0]))
    crossings = 0
    for (p, q), (r, s) in itertools.combinations(moves, 2):
        if {p, q} & {r, s}:
            continue
        crossings += _meet(p, q, r, s)
    vecs = [(q[0] - p[0], q[1] - p[1]) for p, q in moves]
    pairs = list(itertools.pairwise(vecs))
    if closed:
        pairs.append((vecs[-1], vecs[0]))
    turns = sum(a != b for a, b in pairs)
    directions = {f"{dx},{dy}": vecs.count((dx, dy)) for dx, dy in board.deltas}
    # symmetries: the image of the path, compared as a sequence, a reversed sequence, or a
    # cycle (as its set of undirected moves)
    images = [
        lambda x, y: (x, y),
        lambda x, y: (w - 1 - x, y),
        lambda x, y: (x, h - 1 - y),
        lambda x, y: (w - 1 - x, h - 1 - y),
        lambda x, y: (y, x),
        lambda x, y: (h - 1 - y, x),
        lambda x, y: (y, w - 1 - x),
        lambda x, y: (h - 1 - y, w - 1 - x),
    ]
    holes = {(s % w, s // w) for s in board.holes}
    found = []
    for g, f in enumerate(images[: 8 if w == h else 4]):
        if {f(*p) for p in holes} != holes:
            continue
        img = [f(*p) for p in pts]
        if closed:
            edges = {frozenset(m) for m in moves}
            ok = {frozenset((f(*p), f(*q))) for p, q in moves} == edges
        else:
            ok = img == pts or img == pts[::-1]
        if ok:
            found.append(SYMMETRY_NAMES[g])
    return {
        "squares": n,
        "moves": len(moves),
        "closed": closed,
        "crossings": crossings,
        "turns": turns,
        "directions": directions,
        "symmetries": found,
        "displacement": [pts[-1][0] - pts[0][0], pts[-1][1] - pts[0][1]],
    }


def random_path(board: Board, rng: random.Random, start: int | None = None) -> list[int]:
    """A random self-avoiding walk of the board's leaper, until it is stuck."""
    squares = [s for s in range(board.area) if s not in board.holes]
    path = [rng.choice(squares) if start is None else start]
    seen = {path[0]}
    while True:
        nxt = [t for t in board.moves(path[-1]) if t not in seen]
        if not nxt:
            return path
        path.append(rng.choice(nxt))
        seen.add(path[-1])


def check(board: Board, squares: list[int], closed: bool, *, kernels: bool = False) -> dict:
    seq = np.array(squares, dtype=np.int32)
    got = metrics(board, seq, closed, compiled=kernels).to_dict()
    assert got == plain_metrics(board, squares, closed)
    return got


# -- tours and paths against the plain count ------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "closed", "seed"),
    [
        ("5x5", False, 1),
        ("6x6", True, 2),
        ("8x8", True, 3),
        ("8x8", False, 4),
        ("7x9", False, 5),
        ("6x8", True, 6),
        ("10x10", True, 7),
        ("3x4", False, 8),
    ],
)
def test_tours_match_the_plain_count(spec: str, closed: bool, seed: int) -> None:
    tour = (
        kt.solve(spec, closed=closed, method="warnsdorff", tiebreak="random", seed=seed)
        if spec != "3x4"
        else kt.solve(spec, start="a1", method="backtrack")
    )
    got = check(tour.board, tour.indices.tolist(), closed)
    assert got["crossings"] > 0 and got["moves"] == len(tour) - (not closed)
    assert tour.metrics().to_dict() == got


@pytest.mark.parametrize(
    ("leaper", "size"),
    [
        ((1, 2), 9),
        ((1, 3), 10),
        ((2, 3), 11),
        ((0, 1), 6),
        ((1, 1), 7),
        ((0, 2), 8),
        ((2, 2), 9),
        ((2, 4), 12),
        ((1, 4), 10),
        ((3, 3), 10),
    ],
)
def test_random_paths_of_other_leapers_match_the_plain_count(leaper, size) -> None:
    """Leapers with a common factor (0,2), (2,2), (2,4), (3,3) can touch and overlap: the
    plain count and the kernels agree on what counts (a shared point, no shared square)."""
    board = Board(size, size, leaper=leaper)
    rng = random.Random(hash(leaper) & 0xFFFF)
    for trial in range(6):
        path = random_path(board, rng)
        got = check(board, path, False, kernels=trial % 2 == 1)
        assert PartialTour(board, path).metrics().to_dict() == got


def test_paths_on_boards_with_holes_match_the_plain_count() -> None:
    rng = random.Random(33)
    for trial in range(8):
        w, h = rng.randint(5, 11), rng.randint(5, 11)
        holes = frozenset(rng.sample(range(w * h), rng.randint(1, 6)))
        board = Board(w, h, holes=holes)
        path = random_path(board, rng)
        check(board, path, False, kernels=trial % 2 == 0)


def test_closed_tours_with_holes_match_the_plain_count() -> None:
    board = kt.Board(8, 8, holes=frozenset({27, 28, 35, 36}))  # the centre taken out
    tour = kt.solve(board, closed=True, method="backtrack")
    check(board, tour.indices.tolist(), True, kernels=True)


def test_knight_moves_meet_only_where_both_cross() -> None:
    """A knight's move holds no square but its ends (its legs 1 and 2 have no common factor),
    so two knight's moves that share no square never touch at an end nor overlap: wherever
    their segments meet, the point is inside both. Checked over every pair of moves near one."""
    half = [(2, 1), (1, 2), (-1, 2), (-2, 1)]
    met = 0
    for (ax, ay), (ox, oy), (bx, by) in itertools.product(
        half, itertools.product(range(-4, 5), repeat=2), half
    ):
        p, q, r, s = (0, 0), (ax, ay), (ox, oy), (ox + bx, oy + by)
        if {p, q} & {r, s} or not _meet(p, q, r, s):
            continue
        met += 1
        den = ax * by - ay * bx
        assert den != 0  # never parallel (so never overlapping)
        t = Fraction(ox * by - oy * bx, den)
        u = Fraction(ox * ay - oy * ax, den)
        assert 0 < t < 1 and 0 < u < 1  # inside both: no end on the other move
    assert met > 0


@pytest.mark.parametrize("leaper", [(0, 1), (1, 1), (1, 3), (0, 2), (2, 2), (2, 4), (3, 3)])
def test_every_leaper_meets_only_where_both_cross(leaper) -> None:
    """Leapers whose legs share a factor g (0,2), (2,2), (2,4), (3,3) pass over squares, but a
    path of one only reaches squares g apart both ways (it moves as the smaller leaper, scaled
    up), so no move of it passes over another's end or overlaps it: in random paths every pair
    of moves that meet (sharing no square) meet at a point inside both."""
    board = Board(12, 12, leaper=leaper)
    rng = random.Random(sum(leaper))
    met = 0
    for _ in range(5):
        path = random_path(board, rng)
        pts = [(s % 12, s // 12) for s in path]
        moves = list(itertools.pairwise(pts))
        for (p, q), (r, s) in itertools.combinations(moves, 2):
            if {p, q} & {r, s} or not _meet(p, q, r, s):
                continue
            met += 1
            (ax, ay), (bx, by) = (q[0] - p[0], q[1] - p[1]), (s[0] - r[0], s[1] - r[1])
            ox, oy = r[0] - p[0], r[1] - p[1]
            den = ax * by - ay * bx
            assert den != 0, (p, q, r, s)  # overlapping along a line: never
            assert 0 < Fraction(ox * by - oy * bx, den) < 1, (p, q, r, s)
            assert 0 < Fraction(ox * ay - oy * ax, den) < 1, (p, q, r, s)
    # the wazir's moves never cross; the ferz's keep to one colour, where no two of its
    # diagonals cross (an X takes both colours); so for their scaled-up cousins
    assert (met > 0) == (0 < leaper[0] < leaper[1])
