"""exists() against exhaustive search: every board up to area 30 by plain enumeration, every board
up to area 64 by the exact search, start and end pairs, and the CLI's map of start squares."""

from __future__ import annotations

import json

import pytest

import knightstour as kt
from enumerator import tour_ends, tour_exists
from knightstour import Board, NoTourError, exists, theory
from knightstour.cli import main as cli_main
from knightstour.existence import start_squares
from knightstour.solvers.backtrack import exact_search
from knightstour.theory import THREE_WIDE_EXCEPTIONS, VERIFIED_AREA, start_mask, verdict
from tiers import sample


def boards(max_area: int) -> list[Board]:
    return [Board(w, h) for w in range(1, max_area + 1) for h in range(1, max_area // w + 1)]


def _search(board: Board, start=None, end=None, closed=False) -> bool:
    try:
        exact_search(board, start, end, closed)
    except NoTourError:
        return False
    return True


#: Boards up to area 30 (one orientation): those up to area 24 and 3 more drawn (all with --all).
UP_TO_30 = [b for b in boards(30) if b.width <= b.height]
SMALLER = [b for b in UP_TO_30 if b.area <= 24]
UP_TO_30 = sample(UP_TO_30, len(SMALLER) + 3, seed=30, keep=SMALLER)


@pytest.mark.parametrize("board", UP_TO_30, ids=str)
def test_exists_matches_enumeration_up_to_area_30(board: Board) -> None:
    """Both orientations: the turned board's answers must be the same squares turned. Every
    square with --all; else the corners and 6 drawn."""
    turned = Board(board.height, board.width)
    closed = tour_exists(board, closed=True)
    assert kt.exists(board, closed=True).exists is closed
    assert kt.exists(turned, closed=True).exists is closed
    assert kt.exists(board).exists is tour_exists(board)
    w, n = board.width, board.size
    for s in sample(range(n), 10, seed=n, keep=[0, w - 1, n - w, n - 1]):
        truth = tour_exists(board, s)
        answer = kt.exists(board, s)
        assert answer.exists is truth, (board.square_name(s), answer.reason)
        x, y = board.xy(s)
        assert kt.exists(turned, turned.index(y, x)).exists is truth
        assert kt.exists(board, s, closed=True).exists is closed
        assert kt.exists(board, end=s).exists is truth  # a tour reversed


def test_start_square_facts_hold_up_to_the_verified_area() -> None:
    """The facts table (no search) agrees with the exact search on every board of area <= 64,
    from every square (without --all: 300 of those requests drawn, corners among them)."""
    asks = [(b, s) for b in boards(VERIFIED_AREA) for s in b.squares()]
    corners = [(b, s) for b, s in asks if b.area in (63, 64) and s in (0, b.area - 1)]
    for b, s in sample(asks, 300, seed=64, keep=corners):
        answer = verdict(b, s)
        assert answer.exists is _search(b, s), (b.spec, b.square_name(s), answer.reason)


def test_three_wide_exceptions_are_exactly_those() -> None:
    for n, squares in THREE_WIDE_EXCEPTIONS.items():
        b = Board(3, n)
        none = {b.xy(s) for s in b.squares() if not _search(b, s) and (sum(b.xy(s)) % 2 == 0)}
        if n % 2 == 0:
            none = {b.xy(s) for s in b.squares() if not _search(b, s)}
        assert none == set(squares), n


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["3x4", "3x7", "4x5", "5x5", "3x8", "4x6"])
def test_start_and_end_pairs_match_enumeration(spec: str) -> None:
    """Every start (without --all: a1 and 4 drawn) to every end."""
    b = kt.parse_board(spec)
    for s in sample(b.squares(), 5, seed=b.area, keep=[0]):
        ends = tour_ends(b, s)
        for e in b.squares():
            if e == s:  # bad input, not a question with answer no (issue 11, item 20)
                with pytest.raises(kt.InvalidInputError, match="same square"):
                    kt.exists(b, s, end=e)
                continue
            answer = kt.exists(b, s, end=e)
            assert answer.exists is bool(ends[e]), (b.square_name(s), b.square_name(e))


def test_conrad_pairs_on_square_boards() -> None:
    """Every pair colour parity allows is joined by a tour on 6x6 and 7x7 (Conrad et al. 1994);
    without --all, 150 pairs of each drawn, the corners among them."""
    for n in (6, 7):
        b = Board(n, n)
        pairs = [(s, e) for s in b.squares() for e in b.squares() if e != s]
        for s, e in sample(pairs, 150, seed=n, keep=[(0, n * n - 1), (0, 1), (0, n + 2)]):
            answer = kt.exists(b, s, end=e)
            if answer.exists:
                assert "Conrad" in answer.reason
                assert _search(b, s, e), (n, b.square_name(s), b.square_name(e))
            else:
                assert answer.exists is False and not _search(b, s, e)


def test_closed_through_a_move_is_swept_on_narrow_boards() -> None:
    b = Board(3, 10)
    for s in (0, 4):
        ends = tour_ends(b, s, closed=True)
        for e in b.moves(s):
            answer = kt.exists(b, s, end=e, closed=True)
            assert answer.exists is bool(ends[e]), answer.reason
            assert "exact sweep" in answer.reason


def test_holey_boards_are_searched() -> None:
    b = Board(5, 5, holes=frozenset({12}))
    for s in b.squares():
        answer = kt.exists(b, s)
        assert answer.exists is tour_exists(b, s), answer.reason


def test_huge_boards_answer_instantly_without_search() -> None:
    big = kt.exists("1001x1001", start="b2")  # by construction, not by search
    assert big.exists is True and "by construction" in big.reason
    assert kt.exists("1001x1001", start="b1").exists is False  # colour parity
    assert kt.exists("1000x1000", start="b2", end="c4").exists is True
    assert kt.exists("1000x1000", start="a1", end="h8").exists is False
    built = kt.exists("300x301", start="a1", end="b3")  # divide's ends construction (issue 16)
    assert built.exists is True and "by construction" in built.reason
    # a side under 6: no construction, and without search the sweep is not asked either
    undecided = kt.exists("5x1000", start="a1", end="b3", search=False)
    assert undecided.exists is None and "no theorem decides" in undecided.reason
    assert kt.exists("3x999", start="b2").exists is True
    closed = kt.exists("1000x1000", start="a1", end="b3", closed=True)  # issue 30, item 13
    assert closed.exists is True and "by construction" in closed.reason


def test_start_squares_map() -> None:
    answers = start_squares("3x7")
    yes = {kt.Board(3, 7).square_name(q) for q, a in answers.items() if a}
    assert "b4" not in yes and "a1" in yes and "b2" in yes and len(yes) == 10


def test_cli_all_starts(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_main(["exists", "3x7", "--all-starts"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[1] == "7 | Y . Y" and out[4] == "4 | . . ." and out[-1].split() == ["a", "b", "c"]
    # --closed maps the start squares of closed tours, not the open map (issue 30, item 9)
    code = cli_main(["exists", "7x7", "--all-starts", "--closed"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1 and out[0].startswith("start squares of closed tours on 7x7")
    assert out[1:8] == [f"{r} | " + " ".join("." * 7) for r in range(7, 0, -1)]
    assert out[-1].startswith("closed tour: no closed tour on 7x7: ") and "Schwenk" in out[-1]
    code = cli_main(["exists", "6x6", "--all-starts", "--closed"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0 and out[1] == "6 | Y Y Y Y Y Y" and out[-1].startswith("closed tour: yes: ")
    code = cli_main(["exists", "4x5", "--all-starts", "--closed", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["kind"] == "closed" and data["map"][0] == "...."
    assert data["starts"]["a1"] is False and data["closed"]["exists"] is False
    code = cli_main(["exists", "4x5", "--all-starts", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["kind"] == "open" and data["map"][0] == "Y..Y"
    assert cli_main(["exists", "3x3", "--all-starts"]) == 1
    capsys.readouterr()
    assert cli_main(["exists", "3x4", "--all-starts", "--start", "a1"]) == 2


@pytest.mark.parametrize("w,h", [(3, 23), (31, 3), (4, 17), (40, 4), (9, 11), (13, 7), (5, 15)])
def test_constructive_answers_beyond_the_verified_area(w: int, h: int) -> None:
    """Where exists() answers yes by construction, divide builds a tour from every such square."""
    from knightstour.solvers import SolveRequest
    from knightstour.solvers.divide import divide

    b = Board(w, h)
    assert b.size > VERIFIED_AREA
    for s in range(b.area):
        answer = exists(b, s)
        assert answer.exists is not None, answer.reason
        if answer.exists:
            kt.Tour(b, divide(SolveRequest(b, s)).indices)
        else:
            assert "colour" in answer.reason or "outer line" in answer.reason


@pytest.mark.parametrize(
    "board",
    [
        Board(3, 4),
        Board(3, 7),
        Board(4, 4),
        Board(5, 5),
        Board(4, 17),
        Board(17, 4),
        Board(9, 9),
        Board(8, 9),
        Board(3, 23),
        Board(6, 6),
        Board(2, 40),
        Board(1, 70),
        Board(9, 9, holes=frozenset({0, 40})),
        Board(10, 9, holes=frozenset({5})),
        Board(9, 11, leaper=(2, 3)),
        Board(8, 10, leaper=(1, 3)),
    ],
    ids=str,
)
@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.parametrize("per_square_area", [theory.PER_SQUARE_AREA, VERIFIED_AREA])
def test_start_mask_is_the_verdict_of_every_square(
    board: Board, closed: bool, per_square_area: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per square or once per class of squares (beyond the verified area), the same answers."""
    monkeypatch.setattr(theory, "PER_SQUARE_AREA", per_square_area)
    mask = start_mask(board, closed)
    truth = [
        q not in board.holes and verdict(board, q, closed=closed).exists is not False
        for q in range(board.area)
    ]
    assert mask.tolist() == truth


def test_start_mask_on_long_four_wide_boards_keeps_to_the_outer_lines() -> None:
    b = Board(4, 1_201)  # past PER_SQUARE_AREA: the mask asks once for each class of squares
    assert b.area > theory.PER_SQUARE_AREA
    mask = start_mask(b)
    assert mask.tolist() == [verdict(b, q).exists is True for q in range(b.area)]
    assert mask.sum() == 2 * 1_201 and not mask[1] and not mask[2]


# -- issue 11: bad input named (item 12); start == end is bad input (item 20) -----------------


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"start": (0.5, 0)}, "start must be a square"),
        ({"end": (1, 2.0)}, "end must be a square"),
        ({"closed": "x"}, "closed must be True or False"),
        ({"closed": None}, "closed must be True or False"),
        ({"search": 1}, "search must be True or False"),
        ({"start": "a1", "end": "a1"}, "same square, a1"),
        ({"start": "a1", "end": (0, 0), "closed": True}, "same square, a1"),
    ],
)
def test_exists_refuses_bad_arguments(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(kt.InvalidInputError, match=words):
        kt.exists("8x8", **kwargs)  # type: ignore[arg-type]


def test_start_equal_to_end_is_bad_input_in_solve_and_theory() -> None:
    from knightstour.theory import obstruction

    for call in (
        lambda: kt.solve("4x4", start="a1", end="a1"),  # before "no tour on 4x4"
        lambda: verdict(Board(5, 5), 0, 0),
        lambda: obstruction(Board(5, 5, holes=frozenset({12})), 0, 0),
    ):
        with pytest.raises(kt.InvalidInputError, match="same square"):
            call()
    assert kt.exists("1x1", start="a1", end="a1").exists is True
