"""The arithmetic of a tour's numbering: row, column and diagonal sums, and whether it is magic.

Number the squares 1, 2, ..., N in the order the knight visits them. When every rank and every
file adds up to the same number the tour is *semi-magic*; when both long diagonals do too, it is
*magic*. On an n x n board the constant is n(n² + 1)/2 (260 on 8x8). On a w x h rectangle the
ranks (w squares each) and the files (h squares each) have their own constants, N(N + 1)/(2h)
and N(N + 1)/(2w), and exist only when those are whole numbers.

>>> beverley = [                      # W. Beverley's semi-magic tour (1848), rank 8 first
...     [18, 35, 64, 13, 60, 37, 22, 11], [63, 14, 17, 36, 21, 12, 59, 38],
...     [16, 19, 34, 61, 40, 57, 10, 23], [33, 62, 15, 20, 9, 24, 39, 58],
...     [50, 3, 32, 45, 56, 41, 26, 7], [31, 46, 49, 4, 25, 8, 55, 42],
...     [48, 51, 2, 29, 44, 53, 6, 27], [1, 30, 47, 52, 5, 28, 43, 54]]
>>> m = from_grid(beverley)
>>> m.verdict, m.row_constant, m.diagonals
('semi-magic', 260, (282, 210))
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from knightstour.errors import InvalidInputError

__all__ = ["BEVERLEY", "Magic", "analyse", "count_magic", "from_grid", "grid_order", "magic_masks"]

#: William Beverley's semi-magic tour (1848), the first published, as a board of move numbers is
#: printed: rank 8 first. Every rank and file adds up to 260.
BEVERLEY: tuple[tuple[int, ...], ...] = (
    (18, 35, 64, 13, 60, 37, 22, 11), (63, 14, 17, 36, 21, 12, 59, 38),
    (16, 19, 34, 61, 40, 57, 10, 23), (33, 62, 15, 20, 9, 24, 39, 58),
    (50, 3, 32, 45, 56, 41, 26, 7), (31, 46, 49, 4, 25, 8, 55, 42),
    (48, 51, 2, 29, 44, 53, 6, 27), (1, 30, 47, 52, 5, 28, 43, 54),
)  # fmt: skip


@dataclass(frozen=True)
class Magic:
    """The sums of a numbering of a ``width`` x ``height`` board (squares numbered from 1).

    ``ranks[y]`` is the sum of rank ``y + 1`` (``ranks[0]`` the bottom rank), ``files[x]`` of
    file ``x`` (``a`` first); ``diagonals`` is (a1 to the top right, top left to the bottom
    right) on a square board, else None. ``row_constant``/``column_constant``: what every rank /
    file must add up to (None when no whole number can), ``diagonal_constant`` on a square board.
    """

    width: int
    height: int
    ranks: tuple[int, ...]
    files: tuple[int, ...]
    diagonals: tuple[int, int] | None
    row_constant: int | None
    column_constant: int | None
    diagonal_constant: int | None

    @property
    def semi_magic(self) -> bool:
        """Every rank adds up to the row constant and every file to the column constant."""
        return (
            self.row_constant is not None
            and self.column_constant is not None
            and all(s == self.row_constant for s in self.ranks)
            and all(s == self.column_constant for s in self.files)
        )

    @property
    def magic(self) -> bool:
        """Semi-magic, on a square board, with both long diagonals adding up as well."""
        return (
            self.semi_magic
            and self.diagonals is not None
            and all(s == self.diagonal_constant for s in self.diagonals)
        )

    @property
    def verdict(self) -> str:
        """``magic``, ``semi-magic`` or ``neither``."""
        return "magic" if self.magic else "semi-magic" if self.semi_magic else "neither"

    def misses(self) -> list[str]:
        """What keeps the numbering from being magic, one phrase each (empty when it is magic).

        >>> from_grid([[1, 2], [3, 4]]).misses()[:2]
        ['ranks should add up to 5: rank 1 adds up to 7, rank 2 to 3', 'files should add up to 5: file a adds up to 4, file b to 6']
        """
        from knightstour.board import file_name

        total = self.width * self.height * (self.width * self.height + 1) // 2
        out = []
        lines = (
            ("rank", self.height, self.row_constant, self.ranks, lambda y: str(y + 1)),
            ("file", self.width, self.column_constant, self.files, file_name),
        )
        for kind, count, constant, sums, line_name in lines:
            if constant is None:
                out.append(f"no {kind} constant: {total} is not divisible by {count} {kind}s")
                continue
            bad = [(line_name(i), s) for i, s in enumerate(sums) if s != constant]
            if bad:
                out.append(_line(f"{kind}s", constant, bad))
        if self.diagonals is None:
            out.append("not a square board: no diagonal constant")
        else:
            names = ("the diagonal from a1", "the other diagonal")
            for name, s in zip(names, self.diagonals, strict=True):
                if s != self.diagonal_constant:
                    out.append(f"{name} adds up to {s}, not {self.diagonal_constant}")
        return out

    def summary(self) -> str:
        """One line: the verdict and what misses.

        >>> from_grid([[1, 2], [3, 4]]).summary().split(":")[0]
        'neither magic nor semi-magic'
        """
        if self.magic:
            return f"magic: every rank, file and long diagonal adds up to {self.row_constant}"
        if self.semi_magic:
            rows = (
                f"{self.row_constant}"
                if self.row_constant == self.column_constant
                else f"{self.row_constant} (ranks) and {self.column_constant} (files)"
            )
            rest = "; ".join(m for m in self.misses() if "diagonal" in m)
            return f"semi-magic: every rank and file adds up to {rows}; {rest}"
        return "neither magic nor semi-magic: " + "; ".join(self.misses())

    def to_dict(self) -> dict[str, object]:
        """The sums and the verdict, for JSON."""
        return {
            "verdict": self.verdict,
            "ranks": list(self.ranks),
            "files": list(self.files),
            "diagonals": None if self.diagonals is None else list(self.diagonals),
            "rank_constant": self.row_constant,
            "file_constant": self.column_constant,
            "diagonal_constant": self.diagonal_constant,
        }


def _line(what: str, constant: int, bad: list[tuple[str, int]]) -> str:
    """``ranks should add up to 260: rank 1 adds up to 250, rank 2 to 270``."""
    singular = what[:-1]
    first, rest = bad[0], bad[1:4]
    shown = [f"{singular} {first[0]} adds up to {first[1]}"]
    shown += [f"{singular} {name} to {total}" for name, total in rest]
    more = f" and {len(bad) - 4} more" if len(bad) > 4 else ""
    return f"{what} should add up to {constant}: {', '.join(shown)}{more}"


def analyse(width: int, height: int, order: Sequence[int]) -> Magic:
    """The sums of the numbering that visits square ``order[k]`` (``y * width + x``) as k + 1.

    >>> analyse(2, 2, [0, 3, 1, 2]).ranks      # a1=1, b2=2, b1=3, a2=4
    (4, 6)
    """
    n = width * height
    if len(order) != n or sorted(int(s) for s in order) != list(range(n)):
        raise InvalidInputError(
            f"a numbering of {width}x{height} visits each of its {n} squares once"
        )
    ranks = [0] * height
    files = [0] * width
    main = anti = 0
    for k, s in enumerate(order, 1):
        x, y = int(s) % width, int(s) // width
        ranks[y] += k
        files[x] += k
        if width == height:
            if x == y:
                main += k
            if x + y == width - 1:
                anti += k
    total = n * (n + 1) // 2
    return Magic(
        width,
        height,
        tuple(ranks),
        tuple(files),
        (main, anti) if width == height else None,
        total // height if total % height == 0 else None,
        total // width if total % width == 0 else None,
        total // width if width == height else None,
    )


def grid_order(rows: Sequence[Sequence[int]]) -> list[int]:
    """The squares (``y * width + x``) in the order a board of move numbers numbers them, the
    board as it is written: the top rank first.

    >>> grid_order([[2, 3], [1, 4]])      # a1=1, a2=2, b2=3, b1=4
    [0, 2, 3, 1]

    Each number is an integer (NumPy's too): a string, None, NaN, ``1.5`` or ``True`` is refused,
    never read as another number.

    >>> grid_order([[1.5]])
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: a board of move numbers holds integers, got 1.5 on rank 1, file a
    """
    from knightstour.board import brief, file_name

    if isinstance(rows, str | bytes) or not isinstance(rows, Sequence | np.ndarray):
        raise InvalidInputError(
            f"rows must be a board of move numbers (a list of ranks), got {brief(rows)}"
        )
    height = len(rows)
    first = rows[0] if height else ()
    width = len(first) if isinstance(first, Sequence | np.ndarray) else 0
    if not width or any(
        isinstance(r, str | bytes) or not isinstance(r, Sequence | np.ndarray) or len(r) != width
        for r in rows
    ):
        raise InvalidInputError("a board of numbers needs ranks of equal length")
    order = [0] * (width * height)
    seen: set[int] = set()
    for i, row in enumerate(rows):
        y = height - 1 - i
        for x, k in enumerate(row):
            if not isinstance(k, numbers.Integral) or isinstance(k, bool | np.bool_):
                raise InvalidInputError(
                    f"a board of move numbers holds integers, got {brief(k)} on rank {y + 1}, "
                    f"file {file_name(x)}"
                )
            k = int(k)
            if not 1 <= k <= width * height or k in seen:
                raise InvalidInputError(
                    f"a board of {width}x{height} numbers holds 1 to {width * height} once each"
                )
            seen.add(k)
            order[k - 1] = y * width + x
    return order


def from_grid(rows: Sequence[Sequence[int]]) -> Magic:
    """The sums of a board of move numbers as it is written: the top rank first.

    >>> from_grid([[2, 3], [1, 4]]).files      # a1=1, a2=2, b2=3, b1=4
    (3, 7)
    >>> from_grid(BEVERLEY).verdict
    'semi-magic'
    """
    order = grid_order(rows)
    return analyse(len(rows[0]), len(rows), order)


def count_magic(width: int, height: int, tours: object) -> tuple[int, int]:
    """How many of ``tours`` (rows of square indices in visiting order) are semi-magic, and how
    many of those magic: the sums of a whole batch at once.

    >>> count_magic(2, 2, [[0, 3, 1, 2], [0, 1, 3, 2]])
    (0, 0)
    """
    semi, magic = magic_masks(width, height, tours)
    return int(semi.sum()), int(magic.sum())


def magic_masks(width: int, height: int, tours: object) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``tours`` (rows of square indices in visiting order) are semi-magic, and which
    magic (semi-magic with both long diagonals too): two boolean arrays, a whole batch at once.

    >>> semi, magic = magic_masks(8, 8, [grid_order(BEVERLEY), list(range(64))])
    >>> semi.tolist(), magic.tolist()
    ([True, False], [False, False])
    """
    paths = np.asarray(tours, dtype=np.int64)
    n = width * height
    none = np.zeros(paths.shape[0] if paths.ndim == 2 else 0, dtype=np.bool_)
    if paths.ndim != 2 or paths.shape[1] != n or paths.shape[0] == 0:
        return none, none
    total = n * (n + 1) // 2
    if total % width or total % height:
        return none, none
    numbers = np.empty_like(paths)
    rows = np.arange(paths.shape[0])[:, None]
    numbers[rows, paths] = np.arange(1, n + 1)
    grid = numbers.reshape(-1, height, width)
    semi = (grid.sum(axis=2) == total // height).all(axis=1) & (
        grid.sum(axis=1) == total // width
    ).all(axis=1)
    if width != height:
        return semi, none
    c = total // width
    i = np.arange(width)
    diagonal = (grid[:, i, i].sum(axis=1) == c) & (grid[:, i, width - 1 - i].sum(axis=1) == c)
    return semi, semi & diagonal
