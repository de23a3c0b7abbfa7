"""Shaped boards, other leapers, wrapped and 3-D boards: specs, answers, and theory against search."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

import knightstour as kt
from enumerator import tour_exists
from knightstour.board import LEAPERS, Board, parse_board, parse_leaper
from knightstour.cli import main
from knightstour.theory import verdict
from tiers import sample

CROSS = """\
  ....
  ....
........
........
........
........
  ....
  ....
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def solved(capsys: pytest.CaptureFixture[str], *argv: str) -> kt.Tour:
    """Run ``solve ... --format json``; the tour it printed, validated afresh."""
    code, out, err = run(capsys, "solve", *argv, "--format", "json")
    assert code == 0, (out, err)
    return kt.Tour.from_dict(json.loads(out))


# -- the commands a newcomer runs -----------------------------------------------------------------


def test_holes_in_the_middle_closed(capsys: pytest.CaptureFixture[str]) -> None:
    tour = solved(capsys, "8x8", "--holes", "d4,d5,e4,e5", "--closed")
    assert tour.closed and len(tour) == 60
    assert {"d4", "d5", "e4", "e5"}.isdisjoint(tour.path)
    assert tour.board.is_move(int(tour.indices[-1]), int(tour.indices[0]))


def test_rounded_corners(capsys: pytest.CaptureFixture[str]) -> None:
    tour = solved(capsys, "10x10", "--corners", "2", "--start", "c1")
    assert tour.start == "c1" and len(tour) == 100 - 4 * 3
    assert {"a1", "b1", "a2", "j10", "i10", "j9"}.isdisjoint(tour.path)


def test_the_camel_is_refused_with_the_colour_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "8x8", "--leaper", "camel")
    assert code == 1
    assert "never changes colour" in out and "\n" not in out.strip()
    code, out, _ = run(capsys, "exists", "8x8", "--leaper", "1,3", "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["exists"] is False and data["leaper"] == [1, 3]


def test_the_zebra(capsys: pytest.CaptureFixture[str]) -> None:
    tour = solved(capsys, "10x10", "--leaper", "zebra", "--start", "a1")
    assert tour.board.leaper == (2, 3) and len(tour) == 100
    for a, b in itertools.pairwise(tour.indices.tolist()):
        (ax, ay), (bx, by) = tour.board.xy(a), tour.board.xy(b)
        assert sorted((abs(ax - bx), abs(ay - by))) == [2, 3]


def test_the_torus(capsys: pytest.CaptureFixture[str]) -> None:
    tour = solved(capsys, "6x6", "--wrap", "torus", "--closed")
    assert tour.closed and tour.board.wrap == "torus" and len(tour) == 36
    wrapped = 0
    for a, b in itertools.pairwise([*tour.indices.tolist(), int(tour.indices[0])]):
        (ax, ay), (bx, by) = tour.board.xy(a), tour.board.xy(b)
        dx, dy = (bx - ax) % 6, (by - ay) % 6
        assert sorted((min(dx, 6 - dx), min(dy, 6 - dy))) == [1, 2]
        wrapped += abs(bx - ax) > 2 or abs(by - ay) > 2
    assert wrapped  # the tour does use the seams
    code, out, _ = run(capsys, "exists", "6x6", "--wrap", "torus", "--closed")
    assert code == 0 and "Watkins" in out


def test_three_dimensions(capsys: pytest.CaptureFixture[str]) -> None:
    tour = solved(capsys, "4x4x4", "--start", "0,0,0")
    assert tour.board.depth == 4 and len(tour) == 64 and tour.start == "a1:1"
    for a, b in itertools.pairwise(tour.indices.tolist()):
        d = sorted(abs(p - q) for p, q in zip(tour.board.xyz(a), tour.board.xyz(b), strict=True))
        assert d == [0, 1, 2]
    code, out, _ = run(capsys, "solve", "4x4x4", "--start", "a1:1", "--format", "board")
    assert code == 0 and out.startswith("layer 1:") and out.count("layer") == 4


def test_a_mask_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mask = tmp_path / "cross.txt"
    mask.write_text(CROSS)
    tour = solved(capsys, "--mask", str(mask))
    assert tour.board.spec == "8x8" and len(tour) == 48
    assert "a1" not in tour.path and "c1" in tour.path and "a3" in tour.path
    code, out, _ = run(capsys, "exists", "--mask", str(mask), "--closed")
    assert code in (0, 3) and out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", "8x8", "--holes", "i9"], "off the 8x8 board"),
        (["solve", "8x8", "--holes", "e4,e4,zz"], "not a square"),
        (["solve", "--mask", "EMPTY"], "no squares"),
        (["solve", "--mask", "MISSING"], "cannot read the mask"),
        (["solve", "8x8", "--leaper", "wizard"], "unknown leaper"),
        (["solve", "4x4x0"], "depth must be at least 1"),
        (["solve", "0x4x4"], "width must be at least 1"),
        (["solve", "8x8", "--wrap", "sphere"], "invalid choice"),
        (["solve"], "BOARD argument is required"),
        (["solve", "6x6", "--mask", "CROSS"], "draws a 8x8 board"),
        (["solve", "8x8", "--holes", "a1", "--start", "a1"], "is a hole"),
        (["solve", "3x3", "--corners", "3"], "cut away the whole"),
    ],
)
def test_bad_specs_get_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], words: str
) -> None:
    (tmp_path / "empty.txt").write_text("###\n# #\n")
    (tmp_path / "cross.txt").write_text(CROSS)
    swap = {
        "EMPTY": str(tmp_path / "empty.txt"),
        "MISSING": str(tmp_path / "missing.txt"),
        "CROSS": str(tmp_path / "cross.txt"),
    }
    try:
        code = main([swap.get(a, a) for a in argv])
    except SystemExit as e:  # argparse's own refusals
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert words in err and len(err.strip().splitlines()) <= 2 and "Traceback" not in err


# -- the board in Python and in JSON --------------------------------------------------------------


def test_three_d_names_round_trip_over_the_whole_board() -> None:
    b = Board(3, 4, depth=2)
    names = [b.square_name(s) for s in range(b.area)]
    assert len(set(names)) == b.area
    for s, name in enumerate(names):
        x, y, z = b.xyz(s)
        assert (
            b.parse_square(name) == s == b.parse_square(f"{x},{y},{z}") == b.parse_square((x, y, z))
        )
    assert names[:4] == ["a1:1", "b1:1", "c1:1", "a2:1"] and names[-1] == "c4:2"


def test_specs_and_descriptions() -> None:
    assert parse_board("4x4x4") == Board(4, 4, depth=4)
    assert (
        parse_board("8x8") == Board(8, 8) and repr(parse_board("8")) == "Board(width=8, height=8)"
    )
    b = Board(8, 8, holes=["d4", "e5"], leaper="giraffe", wrap="cylinder")
    assert b.description == "8x8 leaper=1,4 wrap=cylinder holes=d4,e5" and b.spec == "8x8"
    assert {name: parse_leaper(name) for name in LEAPERS} == LEAPERS
    assert parse_leaper("4,3") == (3, 4)
    for bad in ("1", "a,b", "0,0"):
        with pytest.raises(kt.InvalidInputError):
            parse_leaper(bad)


def test_masks_and_corners() -> None:
    b = Board.from_mask(".#\n..\n")
    assert b.spec == "2x2" and [b.square_name(h) for h in b.holes] == ["b2"]
    assert Board.from_mask(CROSS).size == 48
    with pytest.raises(kt.InvalidInputError, match="no squares"):
        Board.from_mask("  \n##\n")
    with pytest.raises(kt.InvalidInputError, match="'x' in line 1"):
        Board.from_mask(".x.\n")
    assert Board(10, 10).with_corners(2).size == 88
    assert Board(5, 5).with_corners(0) == Board(5, 5)
    for w, h, r in itertools.product(range(1, 8), range(1, 8), range(4)):
        near = {
            y * w + x
            for y in range(h)
            for x in range(w)
            if min(x, w - 1 - x) + min(y, h - 1 - y) < r
        }
        if len(near) < w * h:
            assert Board(w, h).with_corners(r).holes == near
        else:
            with pytest.raises(kt.InvalidInputError, match="cut away"):
                Board(w, h).with_corners(r)
    assert Board(10_000, 10_000).with_corners(3).size == 10**8 - 24  # only the corners are visited


@pytest.mark.parametrize(
    "board",
    [
        Board(8, 8),
        Board(8, 8, holes=["d4", "d5", "e4", "e5"]),
        Board(6, 6, wrap="torus"),
        Board(7, 5, wrap="cylinder"),
        Board(10, 10, leaper="zebra"),
        Board(4, 4, depth=4),
    ],
)
def test_json_carries_the_board(board: Board) -> None:
    tour = kt.solve(board, closed=board.wrap == "torus")
    data = tour.to_dict()
    again = kt.Tour.from_dict(json.loads(json.dumps(data)))
    assert again == tour and again.board == board
    extra = set(data) - {"width", "height", "closed", "method", "path", "xy"}
    assert extra == {
        key
        for key, has in (
            ("holes", bool(board.holes)),
            ("wrap", board.wrap is not None),
            ("leaper", board.leaper != (1, 2)),
            ("depth", board.depth > 1),
        )
        if has
    }
    if board.depth > 1:
        assert all(len(xyz) == 3 for xyz in data["xy"])


def test_a_tour_file_without_the_options_reads_as_a_plain_board() -> None:
    data = kt.solve("6x6", start="a1").to_dict()
    data["path"] = data["path"]
    with pytest.raises(kt.InvalidTourError):
        kt.Tour.from_dict({**data, "wrap": "torus", "path": data["path"][:-1], "xy": None})
    assert kt.Tour.from_dict(data).board == Board(6, 6)


@pytest.mark.parametrize("tiebreak", ["first", "center", "random", "lookahead"])
@pytest.mark.parametrize(
    "board", [Board(10, 10, wrap="torus"), Board(5, 5, depth=5), Board(12, 9, wrap="cylinder")]
)
def test_every_tie_break_walks_wrapped_and_3d_boards(board: Board, tiebreak: str) -> None:
    try:
        tour = kt.solve(board, method="warnsdorff", tiebreak=tiebreak)
    except kt.SearchFailedError as e:  # a heuristic may get stuck; its path is still checked
        assert e.partial is not None and len(e.partial) > board.size // 2
        return
    assert len(tour) == board.size  # validated by Tour itself


def test_divide_refuses_what_it_cannot_build() -> None:
    for board in (Board(10, 10, wrap="torus"), Board(8, 8, depth=2), Board(10, 10, leaper="zebra")):
        with pytest.raises(kt.InvalidInputError, match="divide"):
            kt.solve(board, method="divide")


# -- theory against the plain enumerator ---------------------------------------------------------


def _agrees(board: Board, closed: bool) -> str:
    """The theory's verdict on ``board``, checked against plain enumeration: 'yes', 'no' or '?'."""
    answer = verdict(board, closed=closed)
    if answer.exists is None:
        return "?"
    assert tour_exists(board, closed=closed) is answer.exists, (board.description, answer.reason)
    return "yes" if answer.exists else "no"


@pytest.mark.slow
def test_theory_on_every_hole_set_of_3x4_and_4x4_with_up_to_3_holes() -> None:
    """Theory against the enumerator (without --all: 200 of the boards drawn)."""
    said = {"yes": 0, "no": 0, "?": 0}
    boards = [
        Board(3, 4, holes=frozenset(h))
        for k in range(12)
        for h in itertools.combinations(range(12), k)
    ]
    boards += [
        Board(4, 4, holes=frozenset(h))
        for k in range(4)
        for h in itertools.combinations(range(16), k)
    ]
    boards = sample(boards, 200, seed=12, keep=boards[:1])  # all 4,793 with --all
    for board in boards:
        for closed in (False, True):
            said[_agrees(board, closed)] += 1
    assert said["no"] > len(boards)  # the theory speaks on most of them


@pytest.mark.slow
def test_theory_on_every_leaper_with_legs_up_to_4_on_boards_up_to_6x6() -> None:
    for a, b in itertools.combinations_with_replacement(range(5), 2):
        if b == 0:
            continue
        for w, h in itertools.combinations_with_replacement(range(1, 7), 2):
            board = Board(w, h, leaper=(a, b))
            if math.gcd(a, b) > 1 or (a + b) % 2 == 0:
                assert verdict(board).exists is False or board.size == 1
            if board.size <= 20:
                for closed in (False, True):
                    _agrees(board, closed)


def test_tori_and_cylinders_up_to_30_squares_against_the_exact_search() -> None:
    for wrap in ("torus", "cylinder"):
        for w, h in itertools.product(range(1, 7), repeat=2):
            if w * h > 30:
                continue
            board = Board(w, h, wrap=wrap)
            for closed in (False, True):
                answer = verdict(board, closed=closed)
                if answer.exists is None:
                    continue
                try:
                    kt.solve(board, closed=closed, method="backtrack")
                    found = True
                except kt.NoTourError:
                    found = False
                assert found is answer.exists, (board.description, closed, answer.reason)
                if wrap == "torus" and w * h >= 3:
                    assert answer.exists and "Watkins" in answer.reason


def test_three_d_boards_against_the_enumerator() -> None:
    for w, h, d in [(2, 2, 2), (2, 2, 3), (2, 3, 3), (2, 2, 4), (2, 2, 5), (1, 3, 4), (1, 4, 4)]:
        board = Board(w, h, depth=d)
        for closed in (False, True):
            answer = kt.exists(board, closed=closed)
            assert answer.exists is tour_exists(board, closed=closed), (board.spec, answer.reason)
    assert "b2:2 has no move" in verdict(Board(3, 3, depth=3)).reason


def test_centre_square_and_one_move_squares() -> None:
    lonely = Board(5, 5, holes=["b3", "c2", "e5", "e3", "c5"])  # colours balanced: 10 and 10
    assert verdict(lonely).reason.endswith("a1 has no move at all")
    assert not tour_exists(lonely)
    # the wazir (0, 1) on 2x3 with a hole: a1's only move is to a2, b3's to a3, b1's to a1 ...
    ends = Board(3, 3, holes=["b2"], leaper=(0, 1))
    assert "has only one move" not in verdict(ends).reason  # a ring of 8: no square of degree 1
    comb = Board(4, 2, holes=["b2", "c2"], leaper=(0, 1))  # a2 - a1 - b1 - c1 - d1 - d2
    assert verdict(comb, closed=True).reason.endswith(
        "a closed tour enters and leaves every square"
    )
    assert verdict(comb, 1).reason.startswith("no tour from b1")
    assert tour_exists(comb) and not tour_exists(comb, start=1)
    assert np.all(Board(6, 6, wrap="torus").neighbour_table() >= 0)


def test_pictures_of_wrapped_and_3d_boards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for argv in (["6x6", "--wrap", "torus", "--closed"], ["4x4x4"], ["8x8", "--holes", "d4,e4"]):
        code, _out, err = run(capsys, "solve", *argv, "--svg", str(tmp_path / "t.svg"), "--force")
        assert code == 0 and (tmp_path / "t.svg").read_text().count("<svg") == 1, err
    code, _out, err = run(
        capsys, "solve", "4x4x3", "--wrap", "torus", "--svg", str(tmp_path / "u.svg")
    )
    assert code == 0 and (tmp_path / "u.svg").read_text().count('class="layer"') == 3, err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("params", "size"),
    [
        ({"board": "8x8", "holes": "d4,d5,e4,e5", "closed": "true"}, 60),
        ({"board": "10x10", "leaper": "zebra", "start": "a1"}, 100),
        ({"board": "6x6", "wrap": "torus", "closed": "true"}, 36),
        ({"board": "4x4x4", "start": "0,0,0"}, 64),
        ({"board": "4x4x4", "start": "b2:3"}, 64),
    ],
)
def test_the_web_api_solves_shaped_boards(params: dict[str, str], size: int) -> None:
    from fastapi.testclient import TestClient

    from knightstour.web.app import Limits, create_app

    # the searches' cap is the server's (bench_web_page.py times it): this test asks for answers
    with TestClient(create_app(Limits(time_limit=600), warm=False)) as client:
        r = client.get("/api/solve", params=params)
        assert r.status_code == 200, r.text
        tour = kt.Tour.from_dict(r.json())
        assert len(tour) == size and tour.board.description.startswith(params["board"])
        r = client.get("/api/exists", params={**params, "leaper": "camel"})
        assert r.status_code == 200 and r.json()["exists"] is False
        for bad in ({"holes": "z99"}, {"leaper": "wizard"}, {"board": "4x4x0"}):
            r = client.get("/api/solve", params={**params, **bad})
            assert r.status_code in (400, 422) and "error" in r.json()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["count", "2x2x2"], "counting covers flat boards"),
        (["magic", "4x4x4"], "flat boards"),
        (["exists", "4x4x4", "--all-starts"], "flat map"),
    ],
)
def test_commands_for_flat_boards_refuse_3d_ones(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and words in err and not out


def test_counting_refuses_wrapped_boards() -> None:
    with pytest.raises(kt.InvalidInputError, match="flat boards"):
        kt.count(Board(6, 6, wrap="torus"))


def test_auto_bounds_the_exact_search_on_shaped_boards() -> None:
    """Past 64 squares auto gives up (with the reason) rather than search without end; a time
    limit bounds it. (The 7x7 zebra cylinder that used to give up is now a proved no.)"""
    board = Board(10, 8, wrap="cylinder", leaper=(3, 4))
    with pytest.raises(kt.SearchFailedError, match="time limit"):
        kt.solve(board, start=0, time_limit=1)
    with pytest.raises(kt.NoTourError, match="no move joins"):
        kt.solve(Board(7, 7, wrap="cylinder", leaper="zebra"), start=0, closed=True)


def test_descriptions_of_many_holes_stay_short() -> None:
    b = Board(100, 100).with_corners(5)
    assert b.description.endswith(f"and {len(b.holes) - 12:,} more") and len(b.description) < 120


def test_a_rank_of_spaces_at_the_edge_is_a_rank_of_holes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`printf '..\\n..\\n  \\n' > m.txt`: the drawing is 2x3 (a space is a hole, docs/boards.md),
    not 2x2; only empty lines around it are dropped (issue 30, item 15)."""
    assert Board.from_mask("..\n..\n  \n").spec == "2x3"
    assert Board.from_mask("  \n..\n..").holes == frozenset({4, 5})  # the top rank
    assert Board.from_mask("\n\n..\n..\n\n").spec == "2x2"
    mask = tmp_path / "m.txt"
    mask.write_text("..\n..\n  \n")
    assert (
        main(
            [
                "exists",
                "--mask",
                str(mask),
                "--wrap",
                "torus",
                "--leaper",
                "zebra",
                "--format",
                "json",
            ]
        )
        == 1
    )  # the drawn board is cut apart
    data = json.loads(capsys.readouterr().out)
    assert (data["width"], data["height"], data["holes"]) == (2, 3, ["a1", "b1"])
