"""Board specs and square notation: round trips over the whole domain, and clear errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knightstour import Board, KnightsTourError, parse_board
from knightstour.board import MAX_SQUARES, file_name, parse_file


def test_file_names_round_trip_over_three_letters() -> None:
    names = [file_name(x) for x in range(26 + 26**2 + 26**3)]
    assert len(set(names)) == len(names)
    assert [parse_file(n) for n in names] == list(range(len(names)))
    assert names[:3] == ["a", "b", "c"] and names[25:28] == ["z", "aa", "ab"]
    assert names[701:703] == ["zz", "aaa"]
    # spreadsheet order: shorter names first, then alphabetical
    assert names == sorted(names, key=lambda s: (len(s), s))


@pytest.mark.parametrize("w,h", [(1, 1), (8, 8), (3, 10), (10, 3), (27, 5), (30, 30), (703, 2)])
def test_every_square_round_trips(w: int, h: int) -> None:
    b = Board(w, h)
    for sq in range(b.area):
        name = b.square_name(sq)
        x, y = b.xy(sq)
        assert b.parse_square(name) == sq
        assert b.parse_square(f"{x},{y}") == sq
        assert b.parse_square((x, y)) == sq
        assert b.index(x, y) == sq == y * w + x
        assert name == f"{file_name(x)}{y + 1}"


@given(st.integers(1, 5000), st.integers(1, 5000), st.data())
def test_round_trip_random_boards(w: int, h: int, data: st.DataObject) -> None:
    b = Board(w, h)
    sq = data.draw(st.integers(0, b.area - 1))
    assert b.parse_square(b.square_name(sq)) == sq


def test_corners_and_orientation() -> None:
    b = Board(3, 10)  # 3 wide (files a-c), 10 tall (ranks 1-10)
    assert b.square_name(0) == "a1"
    assert b.square_name(2) == "c1"
    assert b.square_name(29) == "c10"
    assert parse_board("3x10") == b and parse_board("3x10").width == 3


@pytest.mark.parametrize(
    "spec,expected",
    [
        ("8x8", (8, 8)),
        ("8", (8, 8)),
        ("3x10", (3, 10)),
        (" 10X3 ", (10, 3)),
        ((5, 6), (5, 6)),
        (7, (7, 7)),
        ("4×5", (4, 5)),
    ],
)
def test_parse_board(spec: object, expected: tuple[int, int]) -> None:
    b = parse_board(spec)  # type: ignore[arg-type]
    assert (b.width, b.height) == expected


@pytest.mark.parametrize(
    "spec,words",
    [
        ("", "not a board spec"),
        ("8y8", "not a board spec"),
        ("0x5", "width must be at least 1"),
        ("5x0", "height must be at least 1"),
        ("-3x3", "not a board spec"),
        ("axb", "not a board spec"),
        ("100000x100000", "more than"),
        ("99999999999x2", "too large"),
        (True, "not a board spec"),
    ],
)
def test_bad_board_specs(spec: object, words: str) -> None:
    with pytest.raises(KnightsTourError, match=words):
        parse_board(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text,words",
    [
        ("i1", "off the 8x8 board"),
        ("a9", "off the 8x8 board"),
        ("a0", "not a square"),
        ("8,0", "off the 8x8 board"),
        ("-1,0", "off the 8x8 board"),
        ("", "not a square"),
        ("hello", "not a square"),
        ("zz99", "off the 8x8 board"),
        ("1a", "not a square"),
        (64, "off the 8x8 board"),
    ],
)
def test_bad_squares(text: object, words: str) -> None:
    with pytest.raises(KnightsTourError, match=words):
        Board(8, 8).parse_square(text)  # type: ignore[arg-type]


def test_huge_board_refused_before_allocation() -> None:
    b = Board(46000, 46000)
    assert b.area <= MAX_SQUARES
    with pytest.raises(KnightsTourError, match="too large"):
        b.require_memory(1e6, "this")


def test_moves_and_neighbour_table_agree() -> None:
    b = Board(7, 5)
    table = b.neighbour_table()
    for sq in range(b.area):
        assert [int(t) for t in table[sq] if t >= 0] == b.moves(sq)
        for t in b.moves(sq):
            assert b.is_move(sq, t) and b.is_move(t, sq)
    assert sum(len(b.moves(s)) for s in range(b.area)) % 2 == 0


def test_padded_grid_maps_back() -> None:
    b = Board(6, 4)
    g = b.padded()
    idx = np.arange(b.area)
    p = (idx // b.width + g.pad) * g.pwidth + idx % b.width + g.pad  # the docstring's formula
    assert (g.blocked[p] == 0).all() and len(set(p.tolist())) == b.area
    assert int((g.blocked == 0).sum()) == b.area
    for d in g.offsets:  # a move from a square lands on the board or the border, never past it
        assert ((p + d >= 0) & (p + d < g.blocked.size)).all()


def test_holes_and_other_leapers() -> None:
    b = Board(4, 4, holes=frozenset({5}))
    assert b.size == 15 and 5 not in set(b.squares())
    assert all(5 not in b.moves(s) for s in b.squares())
    with pytest.raises(KnightsTourError, match="hole"):
        b.parse_square("b2")
    camel = Board(8, 8, leaper=(1, 3))
    assert camel.moves(0) == [camel.parse_square("d2"), camel.parse_square("b4")]


# -- issue 11, item 12: wrong types are named, never guessed at -------------------------------


@pytest.mark.parametrize(
    "value", [(0.5, 0), (True, 0), (0, 1.0), 3.0, None, b"c3", {0, 1}, (1, 2, 3), [0.5, 0]]
)
def test_parse_square_refuses_wrong_types(value: object) -> None:
    """(0.5, 0) silently became a1, (True, 0) b1, b'c3' a square off the board."""
    with pytest.raises(KnightsTourError, match="start must be a square"):
        Board(8, 8).parse_square(value, argument="start")  # type: ignore[arg-type]


def test_numpy_integers_are_integers() -> None:
    b = Board(np.int64(8), np.int32(8))  # type: ignore[arg-type]
    assert b == Board(8, 8) and type(b.width) is int
    assert b.parse_square(np.int64(3)) == 3 and b.parse_square((np.int8(1), np.int64(2))) == 17
    assert parse_board(np.int64(5)) == Board(5, 5)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Board(10**5000, 1),
        lambda: parse_board("9" * 5000),
        lambda: parse_board("8x" + "9" * 5000),
        lambda: Board(8, 8).parse_square("a" + "1" * 100_000),
        lambda: Board(8, 8).parse_square("a" * 100_000 + "1"),
        lambda: Board(8, 8).parse_square("1" * 5000 + ",0"),
        lambda: Board(8, 8).parse_square(10**5000),
        lambda: Board(8, 8, holes=frozenset({0.5})),  # type: ignore[arg-type]
        lambda: Board(8, 8, leaper=(1.0, 2)),  # type: ignore[arg-type]
    ],
)
def test_huge_and_odd_values_are_short_clean_errors(make: object) -> None:
    """Python's 4,300-digit limit once escaped as a bare ValueError (exit 70)."""
    with pytest.raises(KnightsTourError) as e:
        make()  # type: ignore[operator]
    assert len(str(e.value)) < 200, str(e.value)


def test_repr_names_the_holes_and_reads_back() -> None:
    b = Board(8, 8, holes=frozenset({27, 36}))
    assert repr(b) == "Board(width=8, height=8, holes=['d4', 'e5'])"
    assert eval(repr(b), {"Board": Board}) == b
    cube = Board(3, 3, depth=3, holes=frozenset({13}))
    assert eval(repr(cube), {"Board": Board}) == cube
