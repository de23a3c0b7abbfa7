"""Magic sums of a numbering: hand-made squares, Beverley's semi-magic tour, rectangles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import knightstour as kt
from knightstour.errors import InvalidInputError
from knightstour.numbering import analyse, from_grid

#: W. Beverley's semi-magic knight's tour (1848), rank 8 first.
BEVERLEY = [
    [18, 35, 64, 13, 60, 37, 22, 11],
    [63, 14, 17, 36, 21, 12, 59, 38],
    [16, 19, 34, 61, 40, 57, 10, 23],
    [33, 62, 15, 20, 9, 24, 39, 58],
    [50, 3, 32, 45, 56, 41, 26, 7],
    [31, 46, 49, 4, 25, 8, 55, 42],
    [48, 51, 2, 29, 44, 53, 6, 27],
    [1, 30, 47, 52, 5, 28, 43, 54],
]
#: Dürer's magic square (Melencolia I, 1514): magic, but not a knight's tour.
DURER = [[16, 3, 2, 13], [5, 10, 11, 8], [9, 6, 7, 12], [4, 15, 14, 1]]


def beverley_tour() -> kt.Tour:
    squares = {k: (x, 7 - i) for i, row in enumerate(BEVERLEY) for x, k in enumerate(row)}
    path = [kt.Board(8, 8).index(*squares[k]) for k in range(1, 65)]
    return kt.Tour(kt.Board(8, 8), path)


def test_beverleys_tour_is_a_semi_magic_knights_tour() -> None:
    tour = beverley_tour()  # validated on construction: a real knight's tour
    m = tour.magic()
    assert m.verdict == "semi-magic" and m.semi_magic and not m.magic
    assert m.ranks == (260,) * 8 and m.files == (260,) * 8
    assert m.diagonals == (282, 210) and m.diagonal_constant == 260
    assert m.summary() == (
        "semi-magic: every rank and file adds up to 260; the diagonal from a1 adds up to 282, "
        "not 260; the other diagonal adds up to 210, not 260"
    )
    assert m == from_grid(BEVERLEY)


def test_durers_square_is_magic() -> None:
    m = from_grid(DURER)
    assert m.verdict == "magic" and m.row_constant == 34 and m.misses() == []
    assert m.summary() == "magic: every rank, file and long diagonal adds up to 34"
    assert m.to_dict()["diagonals"] == [34, 34]


def test_an_ordinary_tour_is_neither_and_says_what_misses() -> None:
    m = kt.solve("8x8", start="a1", method="warnsdorff").magic()
    assert m.verdict == "neither" and m.row_constant == 260
    assert sum(m.ranks) == sum(m.files) == 64 * 65 // 2
    assert any(x.startswith("ranks should add up to 260") for x in m.misses())


def test_rectangles_have_their_own_constants() -> None:
    m = kt.solve("3x4", start="a1").magic()  # 78 in all: files (4 squares) 26, ranks none
    assert (m.row_constant, m.column_constant, m.diagonals) == (None, 26, None)
    assert "no rank constant: 78 is not divisible by 4 ranks" in m.misses()
    assert "not a square board: no diagonal constant" in m.misses()
    m = analyse(4, 2, [0, 1, 2, 3, 7, 6, 5, 4])  # boustrophedon 1..8: ranks 10, 26
    assert (m.row_constant, m.column_constant, m.ranks, m.files) == (18, 9, (10, 26), (9,) * 4)
    assert m.verdict == "neither"


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.randoms(use_true_random=False))
def test_sums_add_up_to_the_total(w: int, h: int, rnd: object) -> None:
    order = list(range(w * h))
    rnd.shuffle(order)  # type: ignore[attr-defined]
    m = analyse(w, h, order)
    total = w * h * (w * h + 1) // 2
    assert sum(m.ranks) == sum(m.files) == total
    if m.row_constant is not None:
        assert m.row_constant * h == total


def test_bad_numberings_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="visits each of its 4 squares once"):
        analyse(2, 2, [0, 1, 1, 2])
    with pytest.raises(InvalidInputError, match="holds 1 to 4 once each"):
        from_grid([[1, 2], [2, 4]])
    with pytest.raises(InvalidInputError, match="equal length"):
        from_grid([[1, 2], [3]])


def test_the_command_line_shows_the_sums(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    from pathlib import Path

    from knightstour.cli import main

    path = Path(str(tmp_path)) / "beverley.json"
    path.write_text(json.dumps(beverley_tour().to_dict()))
    assert main(["validate", str(path), "--magic"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "8 | 18 35 64 13 60 37 22 11  = 260"
    assert (
        out[10] == "files: " + ", ".join(f"{f} 260" for f in "abcdefgh") + " (should add up to 260)"
    )
    assert out[-1].startswith("semi-magic: every rank and file adds up to 260")
    assert main(["validate", str(path), "--magic", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["magic"]["verdict"] == "semi-magic" and data["magic"]["diagonals"] == [282, 210]
    assert main(["solve", "5x5", "--start", "a1", "--format", "board", "--magic"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("5 | ") and " = " in out[0] and len(out) == 9
    assert out[-2].endswith("(should add up to 65)")  # the diagonals of a 5x5 board
    assert main(["solve", "5x5", "--format", "json", "--magic"]) == 2
    assert "--magic shows the sums" in capsys.readouterr().err


def test_batch_counts_agree_with_the_analysis() -> None:
    from knightstour.numbering import count_magic

    tours = [beverley_tour().indices, kt.solve("8x8", start="a1", method="warnsdorff").indices]
    assert count_magic(8, 8, tours) == (1, 0)
    durer = [
        kt.Board(4, 4).index(x, 3 - i)
        for k in range(1, 17)
        for i, row in enumerate(DURER)
        for x, v in enumerate(row)
        if v == k
    ]
    assert count_magic(4, 4, [durer]) == (1, 1)
    assert count_magic(3, 4, [kt.solve("3x4", start="a1").indices]) == (0, 0)  # no rank constant


def test_the_library_lists_and_counts_semi_magic_tours(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    from pathlib import Path

    from knightstour.cli import main

    db = str(Path(str(tmp_path)) / "t.db")
    lines = Path(str(tmp_path)) / "t.jsonl"
    ordinary = kt.solve("8x8", start="a1", method="warnsdorff")
    lines.write_text("\n".join(json.dumps(t.to_dict()) for t in (ordinary, beverley_tour())) + "\n")
    assert main(["library", "import", str(lines), "--db", db, "--format", "jsonl"]) == 0
    capsys.readouterr()
    assert main(["library", "list", "--db", db, "--magic", "--format", "json"]) == 0
    found = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["magic"] for x in found] == ["semi-magic"]
    assert main(["library", "stats", "--db", db]) == 0
    assert "  semi-magic: 1 (magic, the diagonals too: 0)" in capsys.readouterr().out
    assert main(["library", "stats", "--db", db, "--format", "json"]) == 0
    kinds = json.loads(capsys.readouterr().out)["kinds"]
    assert (kinds[0]["semi_magic"], kinds[0]["magic"]) == (1, 0)


def test_the_packaged_beverley_tour_is_the_published_one() -> None:
    from knightstour import numbering

    assert [list(r) for r in numbering.BEVERLEY] == BEVERLEY
