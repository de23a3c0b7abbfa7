"""Tours: validation that names every problem, and conversions (path, matrix, text, JSON).

A :class:`Tour` is validated when it is made, so every tour that leaves the program is a tour.

>>> from knightstour.board import Board
>>> b = Board(3, 4)
>>> t = Tour.from_path(b, "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split())
>>> t.end, len(t)
('b1', 12)
>>> Tour.from_path(b, "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 c1".split())
Traceback (most recent call last):
...
knightstour.errors.InvalidTourError: not a valid tour: move 12 (c3 to c1) is not a knight's move (and 2 more problems)
>>> problems = find_problems(b, [0, 1, 99])
>>> [p.kind for p in problems]
['off-board', 'not-a-move', 'missing']
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from knightstour.board import Board, BoardLike, file_name, parse_board, parse_file
from knightstour.errors import InvalidInputError, InvalidTourError

__all__ = ["Problem", "Tour", "find_problems", "validate"]

#: At most this many problems of each kind are listed one by one; the rest are counted.
MAX_LISTED = 10


@dataclass(frozen=True)
class Problem:
    """One reason why a sequence of squares is not a tour.

    ``kind`` is one of ``off-board``, ``not-a-move``, ``repeated``, ``missing``, ``not-closed``
    and ``empty``; ``move`` is the 1-based position in the sequence where it shows, if any.
    """

    kind: str
    message: str
    move: int | None = None

    def __str__(self) -> str:
        return self.message


def _name(board: Board, sq: int, shown: dict[int, str] | None = None) -> str:
    if shown and int(sq) in shown:
        return shown[int(sq)]
    if 0 <= sq < board.area:
        return board.square_name(int(sq))
    return f"#{int(sq)}"


def _listed(kind: str, items: list[Problem], total: int, noun: str) -> list[Problem]:
    if total > len(items):
        items = [*items, Problem(kind, f"... and {total - len(items):,} more {noun}")]
    return items


def find_problems(
    board: Board,
    indices: Sequence[int] | np.ndarray,
    closed: bool = False,
    shown: dict[int, str] | None = None,
) -> list[Problem]:
    """Every problem that stops ``indices`` (square indices in visit order) being a tour.

    Vectorised: a tour of 10^8 squares is checked in about a second. An empty list means valid.

    >>> b = Board(5, 5)
    >>> for p in find_problems(b, [0, 7, 1, 7]):
    ...     print(p.kind, "|", p)
    not-a-move | move 3 (c2 to b1) is not a knight's move
    not-a-move | move 4 (b1 to c2) is not a knight's move
    repeated | square c2 is visited twice (moves 2 and 4)
    missing | 22 squares are never visited: c1, d1, e1, a2, b2, d2, e2, a3, b3, c3 and 12 more
    """
    seq = np.asarray(indices)
    name = (lambda sq: _name(board, sq, shown)) if shown else (lambda sq: _name(board, sq))
    if seq.ndim != 1:
        return [Problem("empty", "a tour is a flat sequence of squares")]
    if seq.size == 0:
        return [Problem("empty", "the tour has no squares")]
    if not np.issubdtype(seq.dtype, np.integer):
        return [Problem("empty", f"square indices must be integers, not {seq.dtype}")]
    problems: list[Problem] = []
    n = board.area
    # in chunks (and two threads for long sequences), so that a tour of 10^8 squares is checked
    # in about a second with little more memory than the tour itself
    complete = seq.size == board.size
    seen = np.zeros(n, dtype=bool) if complete else None
    halves = [(0, seq.size)]
    if seq.size >= _THREADED:
        halves = [(0, seq.size // 2), (seq.size // 2, seq.size)]
    if len(halves) == 1:
        scans = [_scan(board, seq, 0, seq.size, seen)]
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(len(halves)) as pool:
            scans = list(pool.map(lambda h: _scan(board, seq, h[0], h[1], seen), halves))
    off_at = [i for sc in scans for i in sc[0]][:MAX_LISTED]
    move_at = [i for sc in scans for i in sc[2]][:MAX_LISTED]
    n_off = sum(sc[1] for sc in scans)
    n_moves = sum(sc[3] for sc in scans)
    problems += _listed(
        "off-board",
        [
            Problem(
                "off-board", f"move {i + 1} ({name(seq[i])}) is off the {board.spec} board", i + 1
            )
            for i in off_at
        ],
        n_off,
        "squares off the board",
    )
    problems += _listed(
        "not-a-move",
        [
            Problem(
                "not-a-move",
                f"move {i + 2} ({name(seq[i])} to {name(seq[i + 1])}) is not a knight's move",
                i + 2,
            )
            for i in move_at
        ],
        n_moves,
        "moves that are not knight's moves",
    )
    first_off = bool(off_at and off_at[0] == 0)
    last_off = bool(scans[-1][4])

    # repeated and missing squares: a tour of board.size squares on the board that reaches
    # every square is a permutation; only otherwise are the problems looked for one by one
    complete = complete and n_off == 0 and int(np.count_nonzero(seen)) == board.size
    if not complete:
        problems += _repeated_and_missing(board, seq, name)

    ends_on_board = seq.size and not first_off and not last_off
    if (
        closed
        and ends_on_board
        and (board.size < 2 or not board.is_move(int(seq[-1]), int(seq[0])))
    ):
        problems.append(
            Problem(
                "not-closed",
                f"not closed: the last square {name(seq[-1])} is not a knight's "
                f"move from the first {name(seq[0])}",
                int(seq.size),
            )
        )
    return problems


#: Squares checked at a time by :func:`find_problems`, and the length from which two threads do.
_CHUNK = 1 << 18
_THREADED = 1 << 22


def _unsigned(a: np.ndarray) -> type:
    return np.uint32 if a.dtype == np.int32 else np.uint64


def _scan(
    board: Board,
    seq: np.ndarray,
    lo: int,
    hi: int,
    seen: np.ndarray | None,
) -> tuple[list[int], int, list[int], int, bool]:
    """Off-board squares and non-moves of ``seq[lo:hi]`` (and the move into it), marking the
    squares on the board in ``seen``: (first off-board positions, their number, first non-move
    positions, their number, whether the last square is off the board)."""
    n, w = board.area, board.width
    p, q = board.leaper
    holes = np.fromiter(board.holes, dtype=np.int64) if board.holes else None
    small = np.int32 if n < 2**30 and (p + q) * w < 2**30 else np.int64
    span = (p + q) * w  # |dx| * w + |dy| * w of a leaper move
    off_at: list[int] = []
    move_at: list[int] = []
    n_off = n_moves = 0
    prev = prev_off = None
    if lo > 0:
        first = seq[lo - 1 : lo]
        prev = np.where((first < 0) | (first >= n), 0, first).astype(small)
        prev_off = (first < 0) | (first >= n)
        if holes is not None:
            prev_off |= np.isin(first, holes)
    for i0 in range(lo, hi, _CHUNK):
        c = seq[i0 : min(i0 + _CHUNK, hi)]
        if c.dtype == small:
            off = c.view(_unsigned(c)) >= n  # negatives wrap round to large
        else:
            off = (c < 0) | (c >= n)
            c = np.where(off, 0, c).astype(small)
        if holes is not None:
            off |= np.isin(c, holes)
        any_off = bool(off.any())
        if any_off:
            bad = np.flatnonzero(off)
            n_off += bad.size
            off_at += (bad[: MAX_LISTED - len(off_at)] + i0).tolist()
        if seen is not None:
            seen[c[~off] if any_off else c] = True
        # consecutive squares a leaper move apart (only between squares on the board)
        if prev is not None:
            c, off, base = np.concatenate([prev, c]), np.concatenate([prev_off, off]), i0 - 1
            any_off = any_off or bool(off[0])
        else:
            base = i0
        prev, prev_off = c[-1:], off[-1:]
        if c.size > 1:
            cs = np.where(off, 0, c) if any_off else c
            x = cs % w
            adx = np.abs(np.diff(x))
            ady = np.abs(np.diff(cs) - np.diff(x))  # |dy| * w
            move = adx * w + ady == span
            move &= (
                (adx == p) | (adx == q) if q - p > 1 else (adx - p).view(_unsigned(adx)) <= q - p
            )
            if any_off:
                move |= off[:-1] | off[1:]
            if not move.all():
                bad = np.flatnonzero(~move)
                n_moves += bad.size
                move_at += (bad[: MAX_LISTED - len(move_at)] + base).tolist()
    return off_at, n_off, move_at, n_moves, bool(prev_off is not None and prev_off[0])


def _repeated_and_missing(board: Board, seq: np.ndarray, name: Any) -> list[Problem]:
    """The repeated and missing squares of a sequence (the slow, exact count)."""
    problems: list[Problem] = []
    n = board.area
    seq = seq.astype(np.int64, copy=False)
    off = (seq < 0) | (seq >= n)
    if board.holes:
        off |= np.isin(seq, np.fromiter(board.holes, dtype=np.int64))
    # repeated and missing squares
    on = seq[~off]
    counts = np.bincount(on, minlength=n) if on.size else np.zeros(n, dtype=np.int64)
    rep = np.flatnonzero(counts > 1)
    listed = []
    for sq in rep[:MAX_LISTED]:
        where = np.flatnonzero(seq == sq)[:2] + 1
        listed.append(
            Problem(
                "repeated",
                f"square {name(sq)} is visited twice (moves {where[0]} and {where[1]})",
                int(where[1]),
            )
        )
    problems += _listed("repeated", listed, rep.size, "repeated squares")
    missing_mask = counts == 0
    if board.holes:
        missing_mask[np.fromiter(board.holes, dtype=np.int64)] = False
    miss = np.flatnonzero(missing_mask)
    if miss.size:
        names = ", ".join(name(s) for s in miss[:MAX_LISTED])
        more = f" and {miss.size - MAX_LISTED:,} more" if miss.size > MAX_LISTED else ""
        problems.append(
            Problem(
                "missing",
                f"{miss.size:,} square{'s are' if miss.size > 1 else ' is'} never visited: "
                f"{names}{more}",
            )
        )

    return problems


def validate(board: Board, indices: Sequence[int] | np.ndarray, closed: bool = False) -> None:
    """Raise :class:`InvalidTourError` listing every problem, or return quietly."""
    problems = find_problems(board, indices, closed)
    if problems:
        raise InvalidTourError(problems)


class Tour:
    """A validated knight's tour: a board, the squares in visit order, and how it was made.

    >>> import knightstour as kt
    >>> t = kt.solve("5x5", start="a1", method="warnsdorff")
    >>> t.path[:3], t.indices[:3].tolist(), len(t)
    (['a1', 'c2', 'e1'], [0, 7, 4], 25)
    >>> print(Tour.from_dict(t.to_dict()).board_text())
     7 20  9 14  5
    10 15  6 19 24
    21  8 25  4 13
    16 11  2 23 18
     1 22 17 12  3
    """

    __slots__ = ("_indices", "board", "closed", "method")

    def __init__(
        self,
        board: BoardLike,
        indices: Sequence[int] | np.ndarray,
        *,
        closed: bool = False,
        method: str = "",
        validate: bool = True,
    ) -> None:
        self.board = parse_board(board)
        arr = np.asarray(indices)
        if validate:
            problems = find_problems(self.board, arr, closed)
            if problems:
                raise InvalidTourError(problems)
        self._indices = np.ascontiguousarray(arr, dtype=np.int32)
        self._indices.flags.writeable = False
        self.closed = bool(closed)
        self.method = method

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_path(
        cls,
        board: BoardLike,
        path: Iterable[str | tuple[int, int]],
        *,
        closed: bool = False,
        method: str = "",
    ) -> Tour:
        """A tour from square names (or ``(x, y)`` pairs), validated."""
        b = parse_board(board)
        idx = [_parse_any_square(b, s) for s in path]
        return cls(b, np.array(idx, dtype=np.int64), closed=closed, method=method)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tour:
        """A tour from the JSON contract's dictionary (``path`` or ``xy``), validated.

        >>> Tour.from_dict({"width": 3, "height": 3, "path": ["a1"]})
        Traceback (most recent call last):
        ...
        knightstour.errors.InvalidTourError: not a valid tour: 8 squares are never visited: ...
        """
        if not isinstance(data, dict):
            raise InvalidInputError("a tour must be a JSON object with width, height and path")
        for key in ("width", "height"):
            if key not in data:
                raise InvalidInputError(f"tour JSON lacks {key!r}")
        board = Board(data["width"], data["height"])
        closed = data.get("closed", False)
        if not isinstance(closed, bool):
            raise InvalidInputError(f"'closed' must be true or false, got {closed!r}")
        method = data.get("method") or ""
        path, xy = data.get("path"), data.get("xy")
        if path is None and xy is None:
            raise InvalidInputError("tour JSON has neither 'path' nor 'xy'")
        idx_path = idx_xy = None
        shown: dict[int, str] = {}
        if path is not None:
            if not isinstance(path, list):
                raise InvalidInputError("'path' must be a list of squares")
            idx_path = [_parse_any_square(board, s, shown) for s in path]
        if xy is not None:
            if not isinstance(xy, list):
                raise InvalidInputError("'xy' must be a list of [x, y] pairs")
            idx_xy = [
                _parse_any_square(board, tuple(p) if isinstance(p, list) else p, shown) for p in xy
            ]
        if idx_path is not None and idx_xy is not None and idx_path != idx_xy:
            raise InvalidInputError("'path' and 'xy' disagree")
        idx = np.array(idx_path if idx_path is not None else idx_xy, dtype=np.int64)
        problems = find_problems(board, idx, closed, shown)
        if problems:
            raise InvalidTourError(problems)
        return cls(board, idx, closed=closed, method=str(method), validate=False)

    @classmethod
    def from_json(cls, text: str) -> Tour:
        """A tour from JSON text (see :meth:`from_dict`)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidInputError(
                f"not JSON: {e.msg} at line {e.lineno} column {e.colno}"
            ) from None
        return cls.from_dict(data)

    # -- views ----------------------------------------------------------------------------

    @property
    def indices(self) -> np.ndarray:
        """Square indices (``y * width + x``) in visit order, a read-only int32 array."""
        return self._indices

    def __len__(self) -> int:
        return int(self._indices.size)

    @property
    def start(self) -> str:
        """The name of the first square."""
        return self.board.square_name(int(self._indices[0]))

    @property
    def end(self) -> str:
        """The name of the last square."""
        return self.board.square_name(int(self._indices[-1]))

    def iter_path(self) -> Iterator[str]:
        """Square names in visit order, made one at a time (for huge tours)."""
        return iter_names(self.board, self._indices)

    @property
    def path(self) -> list[str]:
        """Square names in visit order: ``['a1', 'b3', ...]``."""
        return list(self.iter_path())

    @property
    def xy(self) -> list[list[int]]:
        """Zero-based ``[x, y]`` pairs in visit order."""
        w = self.board.width
        a = self._indices.astype(np.int64)
        return np.stack([a % w, a // w], axis=1).tolist()

    def matrix(self) -> np.ndarray:
        """The board of move numbers (1-based) as a ``(height, width)`` array, row 0 = rank 1.

        Holes hold 0.
        """
        m = np.zeros(self.board.area, dtype=np.int64)
        m[self._indices] = np.arange(1, len(self) + 1)
        return m.reshape(self.board.height, self.board.width)

    def board_text(self, labels: bool = False) -> str:
        """The board of move numbers as text, top rank first, as the classic programs print it.

        With ``labels``, rank numbers down the left and file letters along the bottom.

        >>> import knightstour as kt
        >>> print(kt.solve("5x5", start="c3", method="warnsdorff").board_text(labels=True))
        5 | 25 14  3  8 19
        4 |  4  9 18 13  2
        3 | 15 24  1 20  7
        2 | 10  5 22 17 12
        1 | 23 16 11  6 21
             a  b  c  d  e
        """
        return "\n".join(self.iter_board_lines(labels))

    def iter_board_lines(self, labels: bool = False) -> Iterator[str]:
        """The lines of :meth:`board_text`, made one at a time (int32 move numbers: 4 bytes a
        square, however long the tour)."""
        return board_lines(self.board, self._indices, labels)

    def iter_moves_lines(self, per_line: int = 16) -> Iterator[str]:
        """The move list in algebraic notation, ``per_line`` squares a line."""
        return moves_lines(self.board, self._indices, per_line)

    def moves_text(self, per_line: int = 16) -> str:
        """The move list in algebraic notation, ``per_line`` squares a line.

        >>> import knightstour as kt
        >>> kt.solve("5x5", start="a1", method="warnsdorff").moves_text(per_line=8).splitlines()[0]
        'a1 c2 e1 d3 e5 c4 a5 b3'
        """
        return "\n".join(self.iter_moves_lines(per_line))

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract's dictionary: width, height, closed, method, path, xy."""
        return {
            "width": self.board.width,
            "height": self.board.height,
            "closed": self.closed,
            "method": self.method,
            "path": self.path,
            "xy": self.xy,
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as compact JSON text."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def write_json(self, f: Any) -> None:
        """Write the tour JSON to a text stream piece by piece (constant extra memory)."""
        head = {k: v for k, v in self.to_dict_head().items()}
        f.write(json.dumps(head, separators=(",", ":"))[:-1])
        f.write(',"path":[')
        first = True
        for chunk_names in _chunked(self.iter_path(), 65536):
            f.write(("" if first else ",") + ",".join(f'"{n}"' for n in chunk_names))
            first = False
        f.write('],"xy":[')
        w = self.board.width
        first = True
        for chunk in _chunks(self._indices):
            c = chunk.astype(np.int64)
            f.write(
                ("" if first else ",")
                + ",".join(
                    f"[{x},{y}]" for x, y in zip((c % w).tolist(), (c // w).tolist(), strict=True)
                )
            )
            first = False
        f.write("]}")

    def to_dict_head(self) -> dict[str, Any]:
        """The contract's dictionary without the (possibly huge) path and xy."""
        return {
            "width": self.board.width,
            "height": self.board.height,
            "closed": self.closed,
            "method": self.method,
        }

    # -- transformations ------------------------------------------------------------------

    def reversed(self) -> Tour:
        """The same tour walked backwards."""
        return Tour(
            self.board, self._indices[::-1], closed=self.closed, method=self.method, validate=False
        )

    def rotated(self, start: int | str) -> Tour:
        """A closed tour started from another square of its cycle."""
        if not self.closed:
            raise InvalidInputError("only a closed tour can be started from another square")
        s = self.board.parse_square(start)
        pos = int(np.flatnonzero(self._indices == s)[0])
        return Tour(
            self.board,
            np.roll(self._indices, -pos),
            closed=True,
            method=self.method,
            validate=False,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tour):
            return NotImplemented
        return (
            self.board == other.board
            and self.closed == other.closed
            and np.array_equal(self._indices, other._indices)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        return f"<Tour {kind} {self.board.spec} {self.start}->{self.end} method={self.method!r}>"

    def _repr_svg_(self) -> str:
        from knightstour.render.svg import tour_svg

        return tour_svg(self)


def iter_names(board: Board, indices: np.ndarray) -> Iterator[str]:
    """Algebraic names of square indices, one at a time (for huge sequences)."""
    w = board.width
    files: dict[int, str] = {}
    for chunk in _chunks(np.asarray(indices)):
        for s in chunk.tolist():
            x = s % w
            f = files.get(x)
            if f is None:
                f = files[x] = file_name(x)
            yield f"{f}{s // w + 1}"


def board_lines(board: Board, indices: np.ndarray, labels: bool = False) -> Iterator[str]:
    """The board of move numbers of a path (a tour or a partial path), top rank first.

    Unvisited squares show dots. With ``labels``, rank numbers and file letters.

    >>> for line in board_lines(Board(3, 3), [0, 5]):
    ...     print(line)
    . . .
    . . 2
    1 . .
    """
    n = len(indices)
    m = np.zeros(board.area, dtype=np.int32 if n < 2**31 - 1 else np.int64)
    m[np.asarray(indices)] = np.arange(1, n + 1, dtype=m.dtype)
    m = m.reshape(board.height, board.width)
    cw = len(str(n))
    rw = len(str(board.height))
    for y in range(board.height - 1, -1, -1):
        cells = " ".join(f"{v:>{cw}}" if v else "." * cw for v in m[y].tolist())
        yield f"{y + 1:>{rw}} | {cells}" if labels else cells
    if labels:
        files = " ".join(f"{file_name(x):>{cw}}" for x in range(board.width))
        yield " " * (rw + 3) + files


def moves_lines(board: Board, indices: np.ndarray, per_line: int = 16) -> Iterator[str]:
    """The move list of a path in algebraic notation, ``per_line`` squares a line."""
    line: list[str] = []
    for name in iter_names(board, indices):
        line.append(name)
        if len(line) == per_line:
            yield " ".join(line)
            line = []
    if line:
        yield " ".join(line)


def _parse_any_square(board: Board, s: Any, shown: dict[int, str] | None = None) -> int:
    """A square index from a name, ``(x, y)`` or int.

    With ``shown``, a well-formed square off the board gets a negative stand-in index, recorded
    in ``shown`` with its text, so that validation reports it with the other problems.
    """
    is_pair = isinstance(s, tuple) and len(s) == 2
    if is_pair and all(isinstance(v, int) and not isinstance(v, bool) for v in s):
        x, y = s
        if 0 <= x < board.width and 0 <= y < board.height:
            return y * board.width + x
        text = f"({x}, {y})"
    elif isinstance(s, str):
        m = re.match(r"^\s*([a-zA-Z]+)([1-9][0-9]*)\s*$", s)
        if not m:
            return board.parse_square(s)  # raises, naming the bad text unless it is x,y
        x, y = parse_file(m.group(1)), int(m.group(2)) - 1
        if x < board.width and y < board.height:
            return board.parse_square(s)
        text = s.strip().lower()
    else:
        raise InvalidInputError(f"not a square: {s!r}")
    if shown is None:
        raise InvalidInputError(f"square {text} is off the {board.spec} board")
    stand_in = -2 - len(shown)
    shown[stand_in] = text
    return stand_in


def _chunks(a: np.ndarray, size: int = 1 << 20) -> Iterator[np.ndarray]:
    for i in range(0, a.size, size):
        yield a[i : i + size]


def _chunked(it: Iterable[str], size: int) -> Iterator[list[str]]:
    buf: list[str] = []
    for x in it:
        buf.append(x)
        if len(buf) == size:
            yield buf
            buf = []
    if buf:
        yield buf
