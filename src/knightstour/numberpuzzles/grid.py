"""A knight's tour number puzzle: its board, its given numbers, and its text and JSON forms.

The text form (a contract, design.md section 2) is one line a rank, the top rank first, the
squares separated by spaces, each a number or a dot for a blank; ``#`` is a hole (as in a
``--mask`` file). Labels may stand on lines of their own: ``closed: yes`` and ``level: medium``
(``key: value``), and a line of file letters (``a b c d e``), which is checked and skipped. A rank
line may begin with its rank label and a bar (``5 | . 3 . . .``), as the printed form has it.

>>> p = parse_puzzle('''
... . . . . 1
... . . . . .
... . . 25 . .
... . . . . .
... . . . . .
... ''')
>>> p.board.spec, p.givens, p.size
('5x5', {12: 25, 24: 1}, 25)
>>> print(p.text())
 .  .  .  .  1
 .  .  .  .  .
 .  . 25  .  .
 .  .  .  .  .
 .  .  .  .  .
>>> parse_puzzle(p.text()) == p
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from knightstour.board import Board, brief, file_name
from knightstour.errors import InvalidInputError

__all__ = [
    "LEVELS",
    "Grid",
    "NumberPuzzle",
    "check_filled",
    "parse_grid",
    "parse_puzzle",
    "puzzle_from_dict",
]

#: The levels of a puzzle, easiest first (docs/puzzles.md says which deductions each allows).
LEVELS = ("easy", "medium", "hard", "expert")
#: The largest side of a puzzle's board (its exact search keeps a table of every two squares).
MAX_SIDE = 32
#: Words read as yes and no in a ``closed:`` label.
_YES, _NO = ("yes", "true", "1", "closed"), ("no", "false", "0", "open")
_LABEL = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*(.*?)\s*$")
_FILES = re.compile(r"^[a-z]+(\s+[a-z]+)*$")


@dataclass(frozen=True)
class Grid:
    """A grid as read from text, before any check of its numbers: ``cells`` holds each
    square's number (square index order, rank 1 first), 0 for a blank; holes are the board's."""

    board: Board
    cells: tuple[int, ...]
    closed: bool = False
    level: str | None = None


@dataclass(frozen=True)
class NumberPuzzle:
    """A number puzzle: a plain knight's board (holes allowed), the given numbers by square,
    whether the tour is closed (N a knight's move from 1), and, when known, its solution (the
    squares of 1..N in order), its level and the deductions its grading needed.

    >>> NumberPuzzle(Board(5, 5), {0: 1}).size
    25
    """

    board: Board
    givens: Mapping[int, int]
    closed: bool = False
    solution: tuple[int, ...] | None = field(default=None, compare=False)
    level: str | None = field(default=None, compare=False)
    deductions: Mapping[str, int] | None = field(default=None, compare=False)

    @property
    def size(self) -> int:
        """N, the largest number: the board's squares, holes aside."""
        return self.board.size

    def cells(self) -> list[int]:
        """Each square's given number (0 blank, -1 a hole), in square index order."""
        out = [0] * self.board.area
        for h in self.board.holes:
            out[h] = -1
        for s, k in self.givens.items():
            out[s] = k
        return out

    def text(self, labels: bool = False) -> str:
        """The text form: top rank first, numbers right-aligned, dots for blanks, ``#`` holes;
        with ``labels``, rank labels and the files' letters (read back alike)."""
        return grid_text(self.board, self.cells(), labels)

    def solution_text(self, labels: bool = False) -> str:
        """The solution in the text form (the puzzle must have one)."""
        if self.solution is None:
            raise InvalidInputError("this puzzle carries no solution")
        cells = self.cells()
        for k, s in enumerate(self.solution, start=1):
            cells[s] = k
        return grid_text(self.board, cells, labels)

    def with_givens(self, givens: Mapping[int, int]) -> NumberPuzzle:
        """The same puzzle with other givens (no solution, level or deductions carried)."""
        return NumberPuzzle(self.board, dict(givens), self.closed)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the board's fields, ``closed``, ``"puzzle": "numbers"``, the givens
        by square name, and when known the level, the deductions and the solution as the tour
        JSON's ``path`` and ``xy`` (so the file is also a tour JSON: ``knightstour validate``
        reads it).

        >>> NumberPuzzle(Board(5, 5), {24: 1}).to_dict()
        {'width': 5, 'height': 5, 'closed': False, 'puzzle': 'numbers', 'givens': {'e5': 1}}
        """
        from knightstour import notation

        b = self.board
        out: dict[str, Any] = {**notation.board_fields(b), "closed": self.closed}
        out["puzzle"] = "numbers"
        out["givens"] = {b.square_name(s): k for s, k in sorted(self.givens.items())}
        if self.level is not None:
            out["level"] = self.level
        if self.deductions is not None:
            out["deductions"] = dict(self.deductions)
        if self.solution is not None:
            out["method"] = "numbers"
            out["path"] = [b.square_name(s) for s in self.solution]
            out["xy"] = [list(b.xy(s)) for s in self.solution]
        return out


def grid_text(board: Board, cells: list[int] | tuple[int, ...], labels: bool = False) -> str:
    """The text form of a grid of numbers (0 a blank, -1 a hole), top rank first.

    >>> print(grid_text(Board(3, 2), [1, 0, -1, 0, 12, 0], labels=True))
    2 |  . 12  .
    1 |  1  .  #
        a  b  c
    """
    wide = max(1, len(str(board.size)))
    rank_w = len(str(board.height))
    lines = []
    for y in range(board.height - 1, -1, -1):
        row = cells[y * board.width : (y + 1) * board.width]
        text = " ".join(("#" if k < 0 else "." if k == 0 else str(k)).rjust(wide) for k in row)
        lines.append(f"{str(y + 1).rjust(rank_w)} | {text}" if labels else text)
    if labels:
        names = " ".join(file_name(x).rjust(wide) for x in range(board.width))
        lines.append(" " * (rank_w + 3) + names)
    return "\n".join(lines)


def parse_grid(text: str) -> Grid:
    """A grid from the text form, each line checked; no check of the numbers themselves
    (:func:`parse_puzzle` checks a puzzle's, :func:`check_filled` a filled grid's).

    >>> parse_grid("closed: yes\\n1 .\\n# 3").cells, parse_grid("closed: yes\\n1 .\\n# 3").closed
    ((0, 3, 1, 0), True)
    >>> parse_grid("1 2\\n3")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: line 2 has 1 square, but line 1 has 2
    """
    closed, level = False, None
    rows: list[list[int]] = []
    row_lines: list[int] = []
    files_line: tuple[int, str] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        label = _LABEL.match(line)
        if label and "|" not in line:
            key, value = label.group(1).lower(), label.group(2).lower()
            if key == "closed":
                if value not in _YES + _NO:
                    raise InvalidInputError(
                        f"line {number}: closed is yes or no, not {brief(value)}"
                    )
                closed = value in _YES
            elif key == "level":
                if value not in LEVELS:
                    raise InvalidInputError(
                        f"line {number}: the level is one of {', '.join(LEVELS)}, not {brief(value)}"
                    )
                level = value
            continue  # another label (a title, a source): kept for the reader
        if _FILES.match(line):
            files_line = (number, line)
            continue
        rank = None
        if "|" in line:
            head, _, line = line.partition("|")
            if not head.strip().isdigit():
                raise InvalidInputError(f"line {number}: {brief(head.strip())} is not a rank label")
            rank = int(head)
        row = [_cell(tok, number) for tok in line.split()]
        if rows and len(row) != len(rows[0]):
            n = len(row)
            raise InvalidInputError(
                f"line {number} has {n} square{'s' if n != 1 else ''}, but line {row_lines[0]} "
                f"has {len(rows[0])}"
            )
        if not row:
            raise InvalidInputError(f"line {number}: a rank label and no squares")
        rows.append(row)
        row_lines.append(number)
        if rank is not None and rank < 1:
            raise InvalidInputError(f"line {number}: rank label {rank} is not a rank")
    if not rows:
        raise InvalidInputError("no squares: a puzzle is one line a rank of numbers and dots")
    width, height = len(rows[0]), len(rows)
    if max(width, height) > MAX_SIDE:
        raise InvalidInputError(
            f"a {width}x{height} puzzle: the largest side a number puzzle may have is {MAX_SIDE}"
        )
    if files_line is not None:
        expected = " ".join(file_name(x) for x in range(width))
        if " ".join(files_line[1].split()) != expected:
            raise InvalidInputError(
                f"line {files_line[0]}: the files of a {width} wide board are {expected}"
            )
    holes = [
        x + (height - 1 - i) * width
        for i, row in enumerate(rows)
        for x, k in enumerate(row)
        if k < 0
    ]
    board = Board(width, height, holes=frozenset(holes))
    if board.size == 0:
        raise InvalidInputError("every square is a hole: no puzzle")
    cells = [0] * (width * height)
    for i, row in enumerate(rows):
        y = height - 1 - i
        for x, k in enumerate(row):
            cells[y * width + x] = max(k, 0)
    return Grid(board, tuple(cells), closed, level)


def _cell(token: str, line: int) -> int:
    if token == ".":
        return 0
    if token == "#":
        return -1
    if token.isdigit() and token.isascii():
        if len(token) > 6 or int(token) == 0:
            raise InvalidInputError(f"line {line}: {brief(token)} is not a number of the puzzle")
        return int(token)
    raise InvalidInputError(
        f"line {line}: {brief(token)} is not a number, a dot (a blank) or # (a hole)"
    )


def puzzle_of_grid(grid: Grid) -> NumberPuzzle:
    """The puzzle a grid holds, its numbers checked: each 1 to N, none twice, a plain knight.

    >>> puzzle_of_grid(parse_grid("1 .\\n. 1"))
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: 1 is given twice, on b1 and a2
    """
    return _checked(
        grid.board, {s: k for s, k in enumerate(grid.cells) if k > 0}, grid.closed, grid.level
    )


def _checked(
    board: Board, givens: Mapping[int, int], closed: bool, level: str | None
) -> NumberPuzzle:
    if board.leaper != (1, 2) or not board.is_flat:
        raise InvalidInputError("a number puzzle is on a flat board with a knight's moves")
    n = board.size
    seen: dict[int, int] = {}
    for s in sorted(givens):
        k = givens[s]
        if s in board.holes or not 0 <= s < board.area:
            raise InvalidInputError(f"a given number on {_name(board, s)}, which is not a square")
        if not 1 <= k <= n:
            raise InvalidInputError(
                f"{k} on {board.square_name(s)}: the numbers of this board are 1 to {n}"
            )
        if k in seen:
            raise InvalidInputError(
                f"{k} is given twice, on {board.square_name(seen[k])} and {board.square_name(s)}"
            )
        seen[k] = s
    return NumberPuzzle(board, dict(givens), closed, level=level)


def _name(board: Board, s: int) -> str:
    return board.square_name(s) if 0 <= s < board.area else str(s)


def parse_puzzle(text: str) -> NumberPuzzle:
    """A puzzle from its text form or its JSON form (text that begins with ``{``), checked.

    >>> parse_puzzle('{"width": 5, "height": 5, "givens": {"a1": 1}}').givens
    {0: 1}
    """
    if text.lstrip().startswith("{"):
        from knightstour import notation

        return puzzle_from_dict(notation.load_json(text))
    return puzzle_of_grid(parse_grid(text))


def puzzle_from_dict(data: Any) -> NumberPuzzle:
    """A puzzle from its JSON form (:meth:`NumberPuzzle.to_dict`), each field checked; a
    solution, when there, must be a tour of the board that keeps every given number.

    >>> puzzle_from_dict({"width": 5, "height": 5, "givens": {"a1": 0}})
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: 0 on a1: the numbers of this board are 1 to 25
    """
    from knightstour import notation
    from knightstour.tour import Tour

    if not isinstance(data, dict):
        raise InvalidInputError("a puzzle's JSON is an object with width, height and givens")
    board = notation.board_from_fields(data)
    givens_in = data.get("givens")
    if not isinstance(givens_in, dict):
        raise InvalidInputError('"givens" must be an object of square names and numbers')
    givens: dict[int, int] = {}
    for name, k in givens_in.items():
        if not isinstance(k, int) or isinstance(k, bool):
            raise InvalidInputError(f'"givens": the number of {brief(name)} is not a whole number')
        try:
            givens[board.parse_square(name)] = k
        except InvalidInputError as e:
            raise InvalidInputError(f'"givens": {e}') from None
    closed = data.get("closed", False)
    if not isinstance(closed, bool):
        raise InvalidInputError('"closed" must be true or false')
    level = data.get("level")
    if level is not None and level not in LEVELS:
        raise InvalidInputError(f'"level" is one of {", ".join(LEVELS)}, not {brief(level)}')
    puzzle = _checked(board, givens, closed, level)
    if "path" not in data and "xy" not in data:
        return puzzle
    tour = Tour.from_dict({k: v for k, v in data.items() if k != "closed"} | {"closed": closed})
    solution = tuple(int(s) for s in tour.indices)
    wrong = [s for s, k in givens.items() if solution[k - 1] != s]
    if wrong:
        s = wrong[0]
        raise InvalidInputError(
            f"the solution does not keep the given {givens[s]} on {board.square_name(s)}"
        )
    deductions = data.get("deductions")
    if deductions is not None and not (
        isinstance(deductions, dict) and all(isinstance(v, int) for v in deductions.values())
    ):
        raise InvalidInputError('"deductions" must be an object of counts')
    return NumberPuzzle(board, givens, closed, solution, level, deductions)


def check_filled(grid: Grid, puzzle: NumberPuzzle | None = None) -> list[str]:
    """Every mistake of a filled grid, in words: blanks, numbers off 1..N, numbers twice or
    missing, consecutive numbers that are no knight's move apart (and N and 1, closed), and
    given numbers changed (when the ``puzzle`` is given). Empty when it is right.

    >>> check_filled(parse_grid("1 2\\n. 3"))
    ['a1 is blank', '4 is missing', "1 on a2 and 2 on b2 are not a knight's move apart", ...]
    """
    b, cells = grid.board, grid.cells
    n = b.size
    name = b.square_name
    mistakes: list[str] = []
    where: dict[int, list[int]] = {}
    for s in b.squares():
        k = cells[s]
        if k == 0:
            mistakes.append(f"{name(s)} is blank")
        elif k > n:
            mistakes.append(f"{k} on {name(s)} is more than {n}, the last number")
        else:
            where.setdefault(k, []).append(s)
    for k, squares in sorted(where.items()):
        if len(squares) > 1:
            mistakes.append(f"{k} is written {len(squares)} times: on {_names(b, squares)}")
    missing = [k for k in range(1, n + 1) if k not in where]
    if missing:
        shown = ", ".join(str(k) for k in missing[:20]) + (", ..." if len(missing) > 20 else "")
        mistakes.append(f"{shown} {'is' if len(missing) == 1 else 'are'} missing")
    pairs = [(k, k + 1) for k in range(1, n)]
    if grid.closed and n > 2:
        pairs.append((n, 1))
    for k, j in pairs:
        if len(where.get(k, ())) == 1 and len(where.get(j, ())) == 1:
            a, c = where[k][0], where[j][0]
            if not b.is_move(a, c):
                mistakes.append(
                    f"{k} on {name(a)} and {j} on {name(c)} are not a knight's move apart"
                )
    if puzzle is not None:
        if puzzle.board != b:
            mistakes.append(
                f"the grid is {b.description}, but the puzzle is {puzzle.board.description}"
            )
        else:
            for s, k in sorted(puzzle.givens.items()):
                if cells[s] != k:
                    shown = "blank" if cells[s] == 0 else str(cells[s])
                    mistakes.append(f"{name(s)} is given {k} in the puzzle, but holds {shown}")
    return mistakes


def _names(board: Board, squares: Iterable[int]) -> str:
    return ", ".join(board.square_name(s) for s in squares)
