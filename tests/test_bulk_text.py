"""The bulk text writers make exactly the bytes the line writers make, on every kind of flat board:
tours and partial paths, holes, wide files (aa, aaa), tall ranks, every width of move number, and
in chunks of any size."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import knightstour as kt
from knightstour import notation
from knightstour.board import Board, file_name
from knightstour.notation import board_chunks, board_lines, moves_chunks, moves_lines
from knightstour.solvers.warnsdorff import Walker, default_start
from tiers import sample


def lines_bytes(lines: object) -> bytes:
    return "".join(line + "\n" for line in lines).encode()  # type: ignore[attr-defined]


def path_of(board: Board) -> np.ndarray:
    """A Warnsdorff walk on ``board``: a tour, or a path with unvisited squares (dots)."""
    return Walker(board).walk(default_start(board)).copy()


TEXT_CHUNK = notation.TEXT_CHUNK
BOARDS = [
    Board(1, 1),
    Board(5, 5),
    Board(8, 8),
    Board(3, 4),
    Board(4, 3),
    Board(3, 40),
    Board(40, 3),
    Board(27, 27),  # files aa
    Board(31, 4),  # 124 squares: three-digit numbers
    Board(100, 100),  # five digits
    Board(703, 5),  # files aaa
    Board(5, 2100),  # four-digit ranks
    Board(12, 12, holes=frozenset({0, 13, 77, 143})),
    Board(9, 9, leaper=(2, 3)),
]


MAKERS = ("numpy", "compiled")
#: Every board with both makers in one chunk (the writers' own size); in chunks of 64 bytes and of
#: one byte, every board with --all, else a fixed-seed sample (the small boards always among them).
CASES = sample(
    [
        (board, chunk, maker)
        for board in BOARDS
        for chunk in (TEXT_CHUNK, 64, 1)
        for maker in MAKERS
    ],
    44,
    seed=14,
    keep=[(board, TEXT_CHUNK, maker) for board in BOARDS for maker in MAKERS]
    + [(board, chunk, maker) for board in BOARDS[:2] for chunk in (64, 1) for maker in MAKERS],
)


@pytest.mark.parametrize(
    ("board", "chunk", "maker"), CASES, ids=[f"{m}-{c}-{b}" for b, c, m in CASES]
)
def test_same_bytes_as_the_lines(
    board: Board,
    chunk: int,
    maker: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(notation, "TEXT_CHUNK", chunk)
    compiled = maker == "compiled"
    path = path_of(board).astype(np.int32)
    got = b"".join(board_chunks(board, path, compiled=compiled))
    assert got == lines_bytes(board_lines(board, path))
    for per_line in (1, 3, 16, 1000):
        got = b"".join(moves_chunks(board, path, per_line, compiled=compiled))
        assert got == lines_bytes(moves_lines(board, path, per_line))


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 9, 10, 11, 99, 100, 9999, 10000, 10001, 123457])
def test_every_width_of_move_number(n: int) -> None:
    """A partial path of n squares on a board with room: numbers of every width, dots."""
    board = Board(400, 400)
    path = np.arange(n, dtype=np.int32) * 3 % board.area  # not a path: the text does not care
    path = np.unique(path)[:n]
    for compiled in (False, True):
        want = lines_bytes(board_lines(board, path))
        assert b"".join(board_chunks(board, path, compiled=compiled)) == want
        want = lines_bytes(moves_lines(board, path))
        assert b"".join(moves_chunks(board, path, 16, compiled=compiled)) == want


def test_decimal_in_groups() -> None:
    v = np.array([1, 9, 10, 9999, 10000, 10001, 99999999, 100000000, 123456789012 % 10**11])
    for width in (12, 11):
        got = notation._decimal(v, width, ord(" ")).tobytes().decode()
        assert got == "".join(f"{x:>{width}}" for x in v.tolist())


def test_letters_beyond_the_table() -> None:
    x = np.array([0, 25, 26, 701, 702, 18277, 18278, 2**20, 10**8])
    got = notation._letters(x, 6)
    names = [bytes(row[row != 0]).decode() for row in got]
    assert names == [file_name(int(v)) for v in x]


def test_wide_board_moves_without_a_table() -> None:
    board = Board(70000, 3)
    path = np.array([0, 69999, 70000 * 2 + 123, 18277], dtype=np.int32)
    want = lines_bytes(moves_lines(board, path))
    assert b"".join(moves_chunks(board, path, compiled=False)) == want
    assert b"".join(moves_chunks(board, path, 16, compiled=True)) == want


def test_three_dimensional_boards_are_line_by_line() -> None:
    board = Board(3, 3, depth=3)
    assert not notation.bulk_text(board)
    with pytest.raises(kt.InvalidInputError):
        next(moves_chunks(board, [0]))


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "8x8", "--start", "a1"],
        ["solve", "30x12", "--method", "warnsdorff"],
        ["solve", "12x12", "--holes", "a1,b1", "--start", "c1"],
        ["solve", "5x5", "--leaper", "1,2", "--start", "c3"],
    ],
    ids=lambda a: " ".join(a[1:]),
)
@pytest.mark.parametrize("fmt", ["board", "moves"])
def test_the_command_writes_the_same_bytes(
    argv: list[str], fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """To a file and to stdout, the bytes of the line writers (today's output)."""
    from knightstour.cli import main

    out = tmp_path / "out.txt"
    assert main([*argv, "--format", fmt, "--output", str(out)]) == 0
    assert main([*argv, "--format", "json"]) == 0
    tour = kt.Tour.from_dict(json.loads(capsys.readouterr().out))
    lines = board_lines if fmt == "board" else moves_lines
    want = lines_bytes(lines(tour.board, tour.indices))
    assert out.read_bytes() == want
    assert main([*argv, "--format", fmt]) == 0
    assert capsys.readouterr().out.encode() == want


def test_the_command_uses_the_compiled_kernels_for_big_tours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from knightstour.cli import main

    monkeypatch.setattr(notation, "COMPILED_TEXT", 0)
    calls: list[int] = []
    made = notation.text_makers

    def spy(squares: int, compiled: bool | None = None) -> Any:
        made_here = made(squares, compiled)
        calls.append(squares if made_here else -squares)
        return made_here

    monkeypatch.setattr(notation, "text_makers", spy)
    out = tmp_path / "b.txt"
    assert main(["solve", "30x30", "--format", "board", "--output", str(out)]) == 0
    assert calls == [900]
    assert out.read_bytes().count(b"\n") == 30
