"""Tours: validation names every problem; conversions round-trip; the JSON contract holds."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

import knightstour as kt
from knightstour import Board, InvalidTourError, KnightsTourError, Tour, find_problems, notation


@pytest.fixture(scope="module")
def tour8() -> Tour:
    return kt.solve("8x8", start="a1", closed=True)


def kinds(problems: list[kt.Problem]) -> list[str]:
    return [p.kind for p in problems]


def test_valid_tour_has_no_problems(tour8: Tour) -> None:
    assert find_problems(tour8.board, tour8.indices, closed=True) == []


def test_each_problem_kind_is_detected(tour8: Tour) -> None:
    b, seq = tour8.board, tour8.indices.astype(np.int64)
    off = seq.copy()
    off[5] = 99
    assert "off-board" in kinds(find_problems(b, off))
    swapped = seq.copy()
    swapped[[10, 11]] = swapped[[11, 10]]
    probs = find_problems(b, swapped)
    assert "not-a-move" in kinds(probs)
    assert any("move 11" in p.message or "move 12" in p.message for p in probs)
    rep = seq.copy()
    rep[-1] = rep[0]
    ps = find_problems(b, rep)
    assert {"repeated", "missing"} <= set(kinds(ps))
    assert any("visited twice" in p.message and "a1" in p.message for p in ps)
    short = seq[:-1]
    ps = find_problems(b, short)
    assert kinds(ps) == ["missing"] and b.square_name(int(seq[-1])) in ps[0].message
    # a valid open tour that is not closed
    open_tour = kt.solve("8x8", start="a1", method="warnsdorff", tiebreak="first")
    if not b.is_move(int(open_tour.indices[-1]), 0):
        assert kinds(find_problems(b, open_tour.indices, closed=True)) == ["not-closed"]
    assert kinds(find_problems(b, [])) == ["empty"]


def test_every_problem_named_at_once() -> None:
    b = Board(5, 5)
    ps = find_problems(b, [0, 1, 1, 99], closed=True)
    assert {"off-board", "not-a-move", "repeated", "missing"} <= set(kinds(ps))


def test_many_problems_are_summarised() -> None:
    b = Board(100, 100)
    ps = find_problems(b, np.arange(b.area))  # row by row: every move is wrong
    msgs = [p.message for p in ps if p.kind == "not-a-move"]
    assert len(msgs) == 11 and "more moves that are not knight's moves" in msgs[-1]


def test_dict_round_trip_and_contract(tour8: Tour) -> None:
    d = tour8.to_dict()
    assert list(d) == ["width", "height", "closed", "method", "path", "xy"]
    assert d["path"][0] == "a1" and d["xy"][0] == [0, 0] and d["closed"] is True
    assert all(
        Board(8, 8).parse_square(n) == y * 8 + x
        for n, (x, y) in zip(d["path"], d["xy"], strict=True)
    )
    back = Tour.from_dict(json.loads(json.dumps(d)))
    assert back == tour8 and back.method == tour8.method
    assert Tour.from_dict({k: v for k, v in d.items() if k != "xy"}) == tour8
    assert Tour.from_dict({k: v for k, v in d.items() if k != "path"}) == tour8


def test_write_json_streams_the_same_text(tour8: Tour) -> None:
    import io

    f = io.StringIO()
    notation.write_tour_json(f, tour8.board, tour8.indices, tour8.closed, tour8.method)
    assert f.getvalue() == tour8.to_json()
    assert Tour.from_dict(json.loads(f.getvalue())) == tour8


def test_one_constructor_takes_indices_names_and_pairs(tour8: Tour) -> None:
    for squares in (tour8.indices, tour8.indices.tolist(), tour8.path, tour8.xy):
        assert Tour(tour8.board, squares, closed=True) == tour8
    assert Tour("8x8", [tuple(p) for p in tour8.xy], closed=True) == tour8
    assert Tour("8x8", iter(tour8.path), closed=True) == tour8


def test_constructor_always_validates(tour8: Tour) -> None:
    with pytest.raises(InvalidTourError, match="never visited"):
        Tour(tour8.board, tour8.indices[:-1])
    with pytest.raises(InvalidTourError) as e:
        Tour("3x4", ["a1", "b3", "a9"])
    assert any("a9" in str(p) and "off the 3x4 board" in str(p) for p in e.value.problems)
    with pytest.raises(InvalidTourError, match="off the"):
        Tour("3x4", [(0, 0), (1, 2), (5, 5)])
    assert "validate" not in inspect.signature(Tour).parameters


def test_square_names_round_trip_over_the_whole_board() -> None:
    for b in (Board(8, 8), Board(30, 3), Board(1, 1)):
        every = np.arange(b.area)
        names = list(notation.iter_names(b, every))
        assert [b.square_name(q) for q in every.tolist()] == names
        assert notation.square_indices(b, names).tolist() == every.tolist()
        assert notation.square_indices(b, notation.xy_pairs(b, every)).tolist() == every.tolist()


@pytest.mark.parametrize(
    "data,words",
    [
        ({"width": 8}, "lacks 'height'"),
        ({"width": 8, "height": 8}, "neither 'path' nor 'xy'"),
        ({"width": 8, "height": 8, "path": "a1"}, "must be a list"),
        ({"width": 0, "height": 8, "path": []}, "at least 1"),
        ({"width": 3, "height": 4, "path": ["a1", "zz9"]}, "off the 3x4 board"),
        ({"width": 3, "height": 4, "path": ["a1", "zz"]}, "not a square"),
        ([1, 2], "JSON object"),
        ({"width": 8, "height": 8, "path": ["a1"], "closed": "yes"}, "true or false"),
    ],
)
def test_from_dict_errors(data: object, words: str) -> None:
    with pytest.raises(KnightsTourError, match=words):
        Tour.from_dict(data)  # type: ignore[arg-type]


def test_off_board_names_kept_in_messages() -> None:
    with pytest.raises(InvalidTourError) as e:
        Tour.from_dict({"width": 3, "height": 4, "path": ["a1", "b3", "a9"]})
    assert any("a9" in str(p) and "off the 3x4 board" in str(p) for p in e.value.problems)


def test_matrix_and_board_text(tour8: Tour) -> None:
    m = tour8.matrix()
    assert m.shape == (8, 8) and sorted(m.ravel().tolist()) == list(range(1, 65))
    assert m[0, 0] == 1  # a1 is row 0, column 0
    lines = tour8.board_text().splitlines()
    assert len(lines) == 8
    assert lines[-1].split()[0] == "1"  # a1 is printed bottom-left
    assert [int(v) for v in lines[0].split()] == m[7].tolist()


def test_rotate_and_reverse(tour8: Tour) -> None:
    r = tour8.rotated("e4")
    assert r.start == "e4" and r.closed
    kt.validate(r.board, r.indices, closed=True)
    assert tour8.reversed().reversed() == tour8
    with pytest.raises(KnightsTourError):
        kt.solve("5x5", start="a1", method="warnsdorff").rotated("c3")


@pytest.mark.parametrize("closed", [True, False])
def test_reverse_and_rotate_are_tours_without_validating_again(
    monkeypatch: pytest.MonkeyPatch, closed: bool
) -> None:
    from knightstour import tour as tour_module

    t = kt.solve("6x6", start="a1", closed=closed)

    def no_second_look(*args: object, **kwargs: object) -> list[object]:
        raise AssertionError("a valid tour was validated again")

    monkeypatch.setattr(tour_module, "find_problems", no_second_look)
    made = [t.reversed()] + ([t.rotated(q) for q in ("c3", t.end)] if closed else [])
    monkeypatch.undo()
    for r in made:
        assert find_problems(r.board, r.indices, closed=r.closed) == []
        assert (r.closed, r.method, r.indices.flags.writeable) == (closed, t.method, False)
        assert sorted(r.indices.tolist()) == list(range(36))
    assert made[0].path == t.path[::-1]


def test_tour_indices_read_only(tour8: Tour) -> None:
    assert tour8.indices.dtype == np.int32
    with pytest.raises(ValueError):
        tour8.indices[0] = 5


def test_huge_tour_validated_vectorised() -> None:
    t = kt.solve("1000x1000", start="a1", method="warnsdorff", tiebreak="center")
    assert len(t) == 10**6
    bad = t.indices.copy()
    bad[500_000] = bad[0]
    assert {"repeated", "not-a-move", "missing"} <= set(kinds(find_problems(t.board, bad)))


# -- issue 11: wrong types named (item 12), every problem named (item 20), work sized (item 8) --


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"squares": [0.5, 1.0]}, "squares must be square indices"),
        ({"squares": [[0.5, 0]]}, "squares must be square indices"),
        ({"squares": [True]}, "squares must be square indices"),
        ({"squares": None}, "squares must be a sequence"),
        ({"squares": "a1"}, "squares must be a sequence"),
        ({"squares": [None]}, "squares item 1: not a square"),
        ({"squares": [0], "closed": "x"}, "closed must be True or False"),
        ({"squares": [0], "method": 5}, "method must be a string"),
    ],
)
def test_tour_refuses_wrong_types(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(kt.InvalidInputError, match=words) as e:
        Tour("1x1", **kwargs)  # type: ignore[arg-type]
    assert not isinstance(e.value, InvalidTourError)  # bad input, not "not a tour"


@pytest.mark.parametrize(
    "change,words",
    [
        ({"xy": [[0.5, 0]]}, "'xy' item 1 must be an \\[x, y\\] pair of integers"),
        ({"xy": [[True, False]]}, "'xy' item 1"),
        ({"xy": [[0, 0, 0]]}, "'xy' item 1"),
        ({"method": ["auto"]}, "'method' must be a string"),
        ({"width": 1.0}, "'width' must be an integer"),
        ({"path": ["a1", 7]}, "'path' item 2 must be a square name"),
    ],
)
def test_from_dict_names_the_field(change: dict[str, object], words: str) -> None:
    data: dict[str, object] = {"width": 1, "height": 1, "path": ["a1"]}
    data.update(change)
    if "xy" in change:
        del data["path"]
    with pytest.raises(kt.InvalidInputError, match=words):
        Tour.from_dict(data)


def test_from_dict_names_every_disagreement_of_path_and_xy() -> None:
    t = kt.solve("5x5", start="a1", method="warnsdorff").to_dict()
    t["xy"][2], t["xy"][5] = t["xy"][5], t["xy"][2]
    t["xy"] = t["xy"][:-1]
    with pytest.raises(InvalidTourError) as e:
        Tour.from_dict(t)
    kinds = [p.kind for p in e.value.problems]
    assert kinds == ["disagree"] * 3, e.value.problems
    assert [p.move for p in e.value.problems] == [None, 3, 6]
    assert "'path' has 25 squares but 'xy' has 24" in str(e.value.problems[0])


def test_missing_squares_of_a_short_path_on_a_huge_board() -> None:
    b = Board(10_000, 10_000, holes=frozenset({1, 2}))
    problems = find_problems(b, [0, 10_001, 0])
    by_kind = {p.kind: str(p) for p in problems}
    assert by_kind["repeated"] == "square a1 is visited twice (moves 1 and 3)"
    assert by_kind["missing"].startswith("99,999,996 squares are never visited: d1, e1, f1")


def test_print_shows_the_board_of_move_numbers() -> None:
    tour = kt.solve("6x6", start="a1")
    assert str(tour) == tour.board_text(labels=True) and str(tour) != repr(tour)
    assert str(tour).splitlines()[-1].split() == list("abcdef")
    from knightstour.tour import PartialTour

    partial = PartialTour("3x3", [0, 5])
    assert str(partial).splitlines()[:3] == ["3 | . . .", "2 | . . 2", "1 | 1 . ."]
