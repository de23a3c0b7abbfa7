"""The shape of a tour (issue 33, item 1): crossings, turns, directions, symmetries and end
displacement, held to a plain independent count written here (every pair of moves tested, an
O(n^2) segment intersection in exact integers), on open and closed tours, partial paths, boards
with holes and other leapers."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

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
    w = board.width
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
    holes = {(s % w, s // w) for s in board.holes}
    found = []
    for g, f in enumerate(_images(board)):
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
    assert check(tour.board, tour.indices.tolist(), closed, kernels=True) == got
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


def all_pairs_crossings(board: Board, seq: np.ndarray, closed: bool) -> int:
    """The plain count again, vectorised over every pair (orientation signs), for tours too long
    for the loop above: no two knight's moves sharing no square touch or overlap (shown above),
    so a pair crosses exactly when each move's ends lie strictly on either side of the other."""
    w = board.width
    a = np.stack([seq % w, seq // w], axis=1).astype(np.int64)
    b = np.roll(a, -1, axis=0)
    if not closed:
        a, b = a[:-1], b[:-1]
    total = 0
    for i in range(0, len(a), 512):
        p, q = a[i : i + 512, None], b[i : i + 512, None]

        def side(o, e, r):
            return np.sign(
                (e[..., 0] - o[..., 0]) * (r[..., 1] - o[..., 1])
                - (e[..., 1] - o[..., 1]) * (r[..., 0] - o[..., 0])
            )

        cross = (side(p, q, a[None]) * side(p, q, b[None]) < 0) & (
            side(a[None], b[None], p) * side(a[None], b[None], q) < 0
        )
        total += int(cross.sum())
    return total // 2  # each pair met from both moves


@pytest.mark.slow
@pytest.mark.parametrize("closed", [False, True])
def test_a_long_tour_matches_the_plain_count(closed: bool) -> None:
    """A 70x70 tour (4,900 squares: the compiled kernels, by size) against every pair."""
    tour = kt.solve("70x70", start="a1", closed=closed, method="divide")
    m = tour.metrics()
    assert len(tour) >= 4096  # above COMPILED_FROM: the compiled path
    assert m.crossings == all_pairs_crossings(tour.board, tour.indices, closed) > 0
    seq = tour.indices.astype(np.int64)
    vec = np.diff(np.append(seq, seq[0]) if closed else seq)  # a move's flat difference
    joints = np.append(vec, vec[0]) if closed else vec
    assert m.turns == int(np.count_nonzero(joints[1:] != joints[:-1]))


# -- symmetric tours, by construction ----------------------------------------------------------


def _images(board: Board):
    w, h = board.width, board.height
    fs = [
        lambda x, y: (x, y),
        lambda x, y: (w - 1 - x, y),
        lambda x, y: (x, h - 1 - y),
        lambda x, y: (w - 1 - x, h - 1 - y),
        lambda x, y: (y, x),
        lambda x, y: (h - 1 - y, x),
        lambda x, y: (y, w - 1 - x),
        lambda x, y: (h - 1 - y, w - 1 - x),
    ]
    return fs[: 8 if w == h else 4]


def test_a_tour_and_its_images_share_their_shape() -> None:
    """A tour mapped by each symmetry of the board: the same crossings and turns, each
    direction's count carried to its image, the displacement turned, and a symmetric image
    of the tour's own symmetries."""
    tour = kt.solve("8x8", start="b1", closed=True, method="warnsdorff", tiebreak="random", seed=9)
    b = tour.board
    m = tour.metrics()
    for g, f in enumerate(_images(b)):
        img = [f(s % 8, s // 8) for s in tour.indices.tolist()]
        other = kt.Tour(b, img, closed=True).metrics()
        assert (other.crossings, other.turns) == (m.crossings, m.turns)
        lin = lambda v, f=f: (f(*v)[0] - f(0, 0)[0], f(*v)[1] - f(0, 0)[1])  # noqa: E731
        assert dict(other.directions) == {lin(v): c for v, c in m.directions}
        assert other.displacement == lin(m.displacement)
        assert len(other.symmetries) == len(m.symmetries), g


def _symmetric_path(board: Board, g: int, rng: random.Random) -> list[int]:
    """A path that symmetry g (an involution) maps onto itself reversed: P, then g(P) walked
    backwards, where P's last square and its image are a move apart and P meets its image
    nowhere (for the knight, only the half turn of a board with one odd side allows it)."""
    f = _images(board)[g]
    w = board.width
    img = lambda s: f(s % w, s // w)[1] * w + f(s % w, s // w)[0]  # noqa: E731
    while True:
        p = random_path(board, rng)
        for cut in range(len(p), 0, -1):
            head = p[:cut]
            mirror = [img(s) for s in head]
            if not set(head) & set(mirror) and board.is_move(head[-1], mirror[-1]):
                return head + mirror[::-1]


def _symmetric_cycle(board: Board, g: int, rng: random.Random) -> list[int]:
    """A cycle of knight's moves that symmetry g maps onto itself. A rotation of order k: a path
    P whose last square is a move from the image of its first, followed by its k - 1 images.
    A reflection: a path P between two squares on the mirror, then the image of its inside
    walked backwards."""
    f = _images(board)[g]
    w = board.width
    img = lambda s: f(s % w, s // w)[1] * w + f(s % w, s // w)[0]  # noqa: E731
    squares = [s for s in range(board.area) if s not in board.holes]
    axis = [s for s in squares if img(s) == s]
    while True:
        if g in (3, 5, 6):
            p = random_path(board, rng)
            for cut in range(len(p), 1, -1):
                head = p[:cut]
                if not board.is_move(head[-1], img(head[0])):
                    continue
                orbit, cur = list(head), head
                for _ in range(1 if g == 3 else 3):
                    cur = [img(s) for s in cur]
                    orbit += cur
                if len(set(orbit)) == len(orbit):
                    return orbit
        else:
            p = random_path(board, rng, start=rng.choice(axis))
            for cut in range(len(p), 2, -1):
                head = p[:cut]
                inner = head[1:-1]
                if img(head[-1]) != head[-1] or any(img(s) == s for s in inner):
                    continue
                mirror = [img(s) for s in inner]
                if not set(mirror) & set(head):
                    return head + mirror[::-1]


@pytest.mark.parametrize(
    ("spec", "g"),
    [
        ("8x8", 3),
        ("8x8", 5),
        ("10x10", 6),
        ("7x9", 1),
        ("8x9", 2),
        ("10x10", 4),
        ("9x9", 7),
        ("7x7", 5),
    ],
)
def test_symmetric_cycles_by_construction(spec: str, g: int) -> None:
    board = kt.parse_board(spec)
    cycle = _symmetric_cycle(board, g, random.Random(g))
    got = check(board, cycle, True, kernels=True)
    assert SYMMETRY_NAMES[g] in got["symmetries"]
    if g in (5, 6):  # a quarter turn's square, the other quarter turn and the half turn
        assert {"rotate-90", "rotate-180", "rotate-270"} <= set(got["symmetries"])


@pytest.mark.parametrize("spec", ["8x7", "6x9", "10x5"])
def test_symmetric_paths_by_construction(spec: str) -> None:
    board = kt.parse_board(spec)
    path = _symmetric_path(board, 3, random.Random(len(spec)))
    got = check(board, path, False, kernels=True)
    assert "rotate-180" in got["symmetries"]
    assert PartialTour(board, path).metrics().to_dict() == got


def test_a_symmetric_closed_cycle() -> None:
    """a2 c3 e2 c1 on 5x3: a knight's 4-cycle that every symmetry of the board keeps (each
    moves it round the cycle or turns it back); a crossing-free cycle of four turns."""
    board = Board(5, 3)
    cycle = [board.parse_square(s) for s in ("a2", "c3", "e2", "c1")]
    got = check(board, cycle, True, kernels=False)
    assert got["symmetries"] == ["identity", "reflect-files", "reflect-ranks", "rotate-180"]
    assert (got["crossings"], got["turns"], got["moves"]) == (0, 4, 4)


def test_the_published_crossing_bound_holds_for_the_tours_made_here() -> None:
    """Besa, Johnson, Mamano, Osegueda and Williams (Taming the Knight's Tour, FUN 2021,
    arXiv:1904.02824) prove that every closed tour of an n x n board has at least 4n - O(1)
    crossings. Every closed tour made here (Warnsdorff with random ties, divide and conquer)
    has at least 4n, as the bound allows with any nonnegative constant."""
    for n in (6, 8, 10, 12, 16):
        for seed in (1, 2, 3):
            tour = kt.solve(
                f"{n}x{n}",
                start="a1",
                closed=True,
                method="warnsdorff",
                tiebreak="random",
                seed=seed,
            )
            assert tour.metrics().crossings >= 4 * n
    for n in (20, 40, 64):
        assert (
            kt.solve(f"{n}x{n}", start="a1", closed=True, method="divide").metrics().crossings
            >= 4 * n
        )


# -- where the metrics do not apply, and the edges of the domain ----------------------------


@pytest.mark.parametrize(
    "board", [Board(6, 6, wrap="torus"), Board(5, 5, wrap="cylinder"), Board(4, 4, depth=3)]
)
def test_wrapped_and_3d_boards_are_refused_by_name(board: Board) -> None:
    path = [0, *board.moves(0)[:1]]
    with pytest.raises(kt.InvalidInputError, match="tour metrics are for flat boards: on a"):
        PartialTour(board, path).metrics()


def test_one_square_and_one_move() -> None:
    one = PartialTour("3x3", ["b2"]).metrics()
    assert (one.moves, one.crossings, one.turns, one.displacement) == (0, 0, 0, (0, 0))
    assert len(one.symmetries) == 8  # the centre square: every symmetry keeps it
    two = PartialTour("3x3", ["a1", "b3"]).metrics()
    assert (two.moves, two.turns, two.displacement) == (1, 0, (1, 2))
    assert two.symmetries == ("identity",)


def test_a_short_path_on_a_huge_board_costs_its_bounding_box() -> None:
    board = Board(30000, 30000)
    m = PartialTour(board, [(700, 499), (702, 500), (704, 501)]).metrics()
    assert (m.moves, m.crossings, m.turns, m.displacement) == (2, 0, 0, (4, 2))


# -- the command line and the web ------------------------------------------------------------


def test_cli_solve_and_validate_metrics(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    from knightstour.cli import main

    plain = tmp_path / "plain.json"
    assert (
        main(
            [
                "solve",
                "6x6",
                "--start",
                "a1",
                "--closed",
                "--format",
                "json",
                "--output",
                str(plain),
            ]
        )
        == 0
    )
    capsys.readouterr()
    # without --metrics: the contract JSON, byte for byte, with no "metrics"
    tour = kt.Tour.from_dict(json.loads(plain.read_text()))
    assert plain.read_text() == tour.to_json() + "\n"
    assert main(["solve", "6x6", "--start", "a1", "--closed", "--format", "json", "--metrics"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data.pop("metrics") == tour.metrics().to_dict()
    assert data == tour.to_dict()
    assert main(["validate", str(plain), "--metrics"]) == 0
    out = capsys.readouterr().out
    assert f"crossings: {tour.metrics().crossings}" in out and "symmetries: identity" in out
    assert main(["validate", str(plain), "--metrics", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"] == tour.metrics().to_dict()
    assert main(["validate", str(plain), "--format", "json"]) == 0
    assert "metrics" not in json.loads(capsys.readouterr().out)
    assert main(["solve", "6x6", "--start", "a1", "--closed", "--metrics"]) == 0
    assert "turns: " in capsys.readouterr().out


def test_cli_refuses_metrics_where_they_do_not_apply(
    capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    from knightstour.cli import main

    assert main(["solve", "6x6", "--wrap", "torus", "--metrics"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "tour metrics are for flat boards" in err[0]
    assert (
        main(["solve", "6x6", "--metrics", "--format", "npy", "--output", str(tmp_path / "t.npy")])
        == 2
    )
    assert "not with --format npy" in capsys.readouterr().err


def test_cli_metrics_of_a_partial_path(capsys: pytest.CaptureFixture[str]) -> None:
    from knightstour.cli import main

    argv = [
        "solve",
        "7x7",
        "--start",
        "c3",
        "--method",
        "warnsdorff",
        "--tiebreak",
        "first",
        "--metrics",
    ]
    assert main([*argv, "--format", "json"]) == 3
    data = json.loads(capsys.readouterr().out)
    partial = PartialTour("7x7", data["partial"]["path"])
    assert data["metrics"] == partial.metrics().to_dict()


@pytest.mark.slow  # the app's start-up
def test_web_solve_metrics() -> None:
    from fastapi.testclient import TestClient

    from knightstour.web.app import create_app

    with TestClient(create_app(warm=False)) as c:
        q = {"board": "5x5", "start": "a1", "method": "warnsdorff"}
        plain = c.get("/api/solve", params=q).json()
        assert "path" in plain and "metrics" not in plain
        got = c.get("/api/solve", params={**q, "metrics": "true"}).json()
        metrics = got.pop("metrics")
        points = metrics.pop(
            "crossing_points"
        )  # the web board's marks (tests/test_crossing_points.py)
        assert metrics == kt.Tour.from_dict(plain).metrics().to_dict()
        assert len(points) == metrics["crossings"]
        assert got == plain
        r = c.get("/api/solve", params={"board": "6x6", "wrap": "torus", "metrics": "true"})
        assert r.status_code in (400, 422)
        assert "tour metrics are for flat boards" in r.json()["error"]


def test_the_worked_example_of_the_docs() -> None:
    """docs/geometry.md's examples, as the code gives them."""
    doc = (Path(__file__).parents[1] / "docs" / "geometry.md").read_text(encoding="utf-8")
    lines = PartialTour("3x3", ["a1", "c2", "a3", "b1"]).metrics().lines()
    assert "\n".join(lines) in doc
    m = PartialTour("5x5", ["a1", "c2", "e1", "d3", "e5"]).metrics()
    assert (m.crossings, m.turns, m.symmetries) == (0, 3, ("identity", "reflect-antidiagonal"))
    five = kt.solve("5x5", start="a1", method="warnsdorff").metrics()
    assert "\n".join(five.lines()) in doc
