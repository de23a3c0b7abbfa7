"""``parse_board``, the one reader of shaped boards (docs/boards.md, "The specs"): every board
written as text reads back as itself, whichever separators and spellings the command line and the
web take; the two faces build the same board from the same text; bad text is one clear error."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from knightstour import Board, InvalidInputError, parse_board
from knightstour.board import LEAPERS
from knightstour.cli._options import board_of
from knightstour.web.app import create_app
from knightstour.web.queries import ShapeQuery
from tiers import examples

SEPARATORS = [",", ";", " ", ", ", " ; ", ";;", "\t", " ,\n"]


@st.composite
def boards(draw: st.DrawFn, flat: bool = False) -> Board:
    """A board of up to 12x12 (or 4x4x3): any leaper with legs up to 4, any wrap, any holes."""
    depth = 1 if flat else draw(st.sampled_from([1, 1, 1, 2, 3]))
    w = draw(st.integers(1, 12 if depth == 1 else 4))
    h = draw(st.integers(1, 12 if depth == 1 else 4))
    b = draw(st.integers(1, 4))
    leaper = (draw(st.integers(0, b)), b)
    wrap = draw(st.sampled_from([None, "cylinder", "torus"]))
    area = w * h * depth
    holes = draw(st.sets(st.integers(0, area - 1), max_size=area - 1))
    return Board(w, h, leaper=leaper, holes=frozenset(holes), wrap=wrap, depth=depth)


@st.composite
def spec_text(draw: st.DrawFn, board: Board) -> str:
    """The board's spec as a person might type it: ``8x8``, `` 8 X 8``, ``8×8``, ``8*8`` or ``8``."""
    sides = [board.width, board.height] + ([board.depth] if board.depth > 1 else [])
    if len(set(sides)) == 1 and board.depth == 1 and draw(st.booleans()):
        return f"{board.width}"
    by = draw(st.sampled_from(["x", "X", "×", "*", " x ", "x "]))
    return draw(st.sampled_from(["", " "])) + by.join(map(str, sides))


@st.composite
def holes_text(draw: st.DrawFn, board: Board) -> str:
    """The board's holes as text: their names in any order, between any separators."""
    names = draw(st.permutations([board.square_name(h) for h in board.holes]))
    text = ""
    for name in names:
        text += draw(st.sampled_from(SEPARATORS)) + name
    return text + draw(st.sampled_from(["", *SEPARATORS]))


def leaper_text(draw: st.DrawFn, board: Board) -> str:
    """The leaper by its name where it has one, else its legs in either order."""
    a, b = board.leaper
    names = [name for name, legs in LEAPERS.items() if legs == (a, b)]
    choices = [f"{a},{b}", f"{b}, {a}", f" {a} ,{b} "] + [n.upper() for n in names] + names
    return draw(st.sampled_from(choices))


def mask_text(board: Board, sep: str) -> str:
    """The flat ``board`` drawn as a mask, top rank first: ``.`` a square, ``#`` a hole."""
    ranks = [
        "".join("#" if y * board.width + x in board.holes else "." for x in range(board.width))
        for y in reversed(range(board.height))
    ]
    return sep.join(ranks)


# -- round trips ------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(st.data())
def test_every_board_written_as_text_reads_back(data: st.DataObject) -> None:
    board = data.draw(boards())
    got = parse_board(
        data.draw(spec_text(board)),
        holes=data.draw(holes_text(board)),
        leaper=leaper_text(data.draw, board),
        wrap=data.draw(st.sampled_from(["", None])) if board.wrap is None else board.wrap.upper(),
    )
    assert got == board, (got.key, board.key)
    assert parse_board(board.spec, holes=[board.square_name(h) for h in board.holes]) == Board(
        board.width, board.height, holes=board.holes, depth=board.depth
    )


@settings(max_examples=examples(200))
@given(st.data())
def test_every_flat_board_drawn_as_a_mask_reads_back(data: st.DataObject) -> None:
    board = data.draw(boards(flat=True))
    sep = data.draw(st.sampled_from(["\n", "/", "\r\n"]))
    text = mask_text(board, sep)
    legs = leaper_text(data.draw, board)
    assert parse_board(None, mask=text, leaper=legs, wrap=board.wrap) == board
    assert parse_board(board.spec, mask=text, leaper=legs, wrap=board.wrap) == board
    assert Board.from_mask(text, leaper=board.leaper, wrap=board.wrap) == board
    # naming a hole the mask already has, or cutting corners it has cut, changes nothing
    again = [board.square_name(h) for h in sorted(board.holes)[:3]]
    assert (
        parse_board(None, mask=text, holes=",".join(again), leaper=legs, wrap=board.wrap) == board
    )


@settings(max_examples=examples(100))
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 8), st.data())
def test_holes_mask_and_corners_add_up(w: int, h: int, r: int, data: st.DataObject) -> None:
    plain = Board(w, h)
    holes = data.draw(st.sets(st.integers(0, w * h - 1), max_size=w * h // 3))
    drawn = data.draw(st.sets(st.integers(0, w * h - 1), max_size=w * h // 3))
    names = ";".join(plain.square_name(s) for s in holes)
    mask = mask_text(Board(w, h, holes=frozenset(drawn)), "/")
    try:
        want = Board(w, h, holes=frozenset(holes | drawn)).with_corners(r)
    except InvalidInputError:
        with pytest.raises(InvalidInputError, match=r"whole|no squares"):
            parse_board(f"{w}x{h}", holes=names, mask=mask, corners=str(r))
        return
    assert parse_board(f"{w}x{h}", holes=names, mask=mask, corners=str(r)) == want
    assert parse_board(f"{w}x{h}", holes=names, mask=mask, corners=r) == want


@settings(max_examples=examples(100))
@given(
    st.text(max_size=12),
    st.text(max_size=30),
    st.one_of(st.none(), st.text(max_size=30)),
    st.text(max_size=2),  # corners: a cut of R squares makes about 2 R**2 holes
    st.text(max_size=8),
    st.text(max_size=8),
)
def test_any_text_is_a_board_or_one_clear_error(
    spec: str, holes: str, mask: str | None, corners: str, leaper: str, wrap: str
) -> None:
    try:
        board = parse_board(spec, holes=holes, mask=mask, corners=corners, leaper=leaper, wrap=wrap)
    except InvalidInputError as e:
        message = str(e)
        assert message and "\n" not in message and "Traceback" not in message
    else:
        assert isinstance(board, Board) and board.size >= 1


# -- the rules, one by one --------------------------------------------------------------------


@pytest.mark.parametrize(
    "holes",
    [
        "d4,e5",
        "d4;e5",
        "d4 e5",
        "d4, e5",
        "d4 ; e5",
        " d4\te5 ",
        "e5,d4,",
        ";d4;;e5;",
        ["d4", "e5"],
    ],
)
def test_holes_take_commas_semicolons_and_spaces(holes: object) -> None:
    assert parse_board("8x8", holes=holes).holes == Board(8, 8, holes=["d4", "e5"]).holes  # type: ignore[arg-type]


def test_holes_of_a_3d_board_take_semicolons_too() -> None:
    want = Board(4, 4, depth=2, holes=["a1:1", "b3:2"])
    for text in ("a1:1,b3:2", "a1:1;b3:2", "a1:1 b3:2"):
        assert parse_board("4x4x2", holes=text) == want


@pytest.mark.parametrize("blank", [None, "", "  "])
def test_blank_text_is_an_option_not_given(blank: str | None) -> None:
    board = parse_board("8x8", holes=blank, mask=blank, corners=blank, leaper=blank, wrap=blank)
    assert board == Board(8, 8) and board.is_plain_knight


def test_a_board_given_keeps_its_options_and_takes_more() -> None:
    base = Board(6, 6, leaper="zebra", holes=["a1"])
    assert parse_board(base) is base
    more = parse_board(base, holes="b1", wrap="torus")
    assert more == Board(6, 6, leaper="zebra", holes=["a1", "b1"], wrap="torus")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"spec": None}, "no board: give a spec"),
        ({"spec": None, "mask": "   "}, "no board: give a spec"),
        ({"spec": "8y8"}, "not a board spec: '8y8'"),
        ({"spec": "8x8", "holes": "i9"}, "hole square i9 is off the 8x8 board"),
        ({"spec": "8x8", "holes": "d4,zz9x"}, "hole is not a square: 'zz9x'"),
        ({"spec": "8x8", "holes": 5}, "holes must be squares"),
        ({"spec": "2x1", "holes": "a1 b1"}, "the holes cover the whole 2x1 board"),
        ({"spec": "6x6", "mask": ".#./..."}, "the mask draws a 3x2 board, not 6x6"),
        ({"spec": "3x2x2", "mask": ".#./..."}, "the mask draws a 3x2 board, not 3x2x2"),
        ({"spec": None, "mask": "###/# #"}, "the mask has no squares"),
        ({"spec": None, "mask": ".x."}, "the mask has 'x' in line 1"),
        ({"spec": "8x8", "corners": "two"}, "corners must be a whole number of squares"),
        ({"spec": "8x8", "corners": -1}, "corners must be at least 0"),
        ({"spec": "3x3", "corners": "3"}, "corners 3 cut away the whole 3x3 board"),
        ({"spec": "8x8", "leaper": "wizard"}, "unknown leaper 'wizard'"),
        ({"spec": "8x8", "wrap": "sphere"}, "unknown wrap 'sphere'"),
        ({"spec": "8x8", "wrap": 3}, "wrap must be cylinder or torus"),
    ],
)
def test_bad_specs_name_the_problem(kwargs: dict[str, object], words: str) -> None:
    spec = kwargs.pop("spec")
    with pytest.raises(InvalidInputError, match="^" + re.escape(words)):
        parse_board(spec, **kwargs)  # type: ignore[arg-type]


# -- the faces: the command line and the web read boards alike --------------------------------

EXAMPLES = [
    {"board": "8x8", "holes": "d4,d5,e4,e5"},
    {"board": "8x8", "holes": "d4; d5 e4,e5", "leaper": "zebra"},
    {"board": "10x10", "corners": "2", "wrap": "cylinder"},
    {"board": "4x4x3", "holes": "a1:1;b3:2", "leaper": "1,3"},
    {"board": "3x2", "mask": ".#./...", "holes": "a1"},
    {"board": "6x6", "wrap": "torus", "holes": "c3 d4"},
]


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_command_line_and_the_web_build_the_same_board(
    example: dict[str, str], tmp_path: Path
) -> None:
    want = parse_board(
        example["board"],
        holes=example.get("holes"),
        mask=example.get("mask"),
        corners=example.get("corners"),
        leaper=example.get("leaper"),
        wrap=example.get("wrap"),
    )
    mask_file = None
    if "mask" in example:
        mask_file = tmp_path / "mask.txt"
        mask_file.write_text(example["mask"].replace("/", "\n"))
    args = argparse.Namespace(
        board=example["board"],
        holes=example.get("holes"),
        mask=None if mask_file is None else str(mask_file),
        corners=int(example["corners"]) if "corners" in example else None,
        leaper=example.get("leaper"),
        wrap=example.get("wrap"),
    )
    assert board_of(args) == want
    assert ShapeQuery(**example).shaped() == want
    with TestClient(create_app(warm=False)) as client:
        answer = client.get("/api/exists", params=example)
    assert answer.status_code == 200, answer.text
    assert sorted(answer.json().get("holes", [])) == sorted(want.square_name(h) for h in want.holes)


def test_a_mask_file_without_a_board_and_with_a_matching_one(tmp_path: Path) -> None:
    mask = tmp_path / "mask.txt"
    mask.write_text("\n .#\n...\n\n")
    args = argparse.Namespace(
        board=None, holes=None, mask=str(mask), corners=None, leaper=None, wrap=None
    )
    want = Board(3, 2, holes=["a2", "c2"])  # a space and a "#"
    assert board_of(args) == want
    assert board_of(argparse.Namespace(**{**vars(args), "board": "3x2"})) == want
