"""Tours: validation that names every problem, and the :class:`Tour` (its text and JSON forms
are made by :mod:`knightstour.notation`).

A :class:`Tour` is validated when it is made, so every tour that leaves the program is a tour.

>>> from knightstour.board import Board
>>> b = Board(3, 4)
>>> t = Tour(b, "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split())
>>> t.end, len(t)
('b1', 12)
>>> Tour(b, "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 c1".split())
Traceback (most recent call last):
...
knightstour.errors.InvalidTourError: not a valid tour: move 12 (c3 to c1) is not a knight's move (and 2 more problems)
>>> problems = find_problems(b, [0, 1, 99])
>>> [p.kind for p in problems]
['off-board', 'not-a-move', 'missing']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from knightstour import notation
from knightstour.board import Board, BoardLike, brief, parse_board
from knightstour.errors import InternalError, InvalidInputError, InvalidTourError, SearchFailedError
from knightstour.geometry import Metrics
from knightstour.geometry import metrics as _metrics
from knightstour.numbering import Magic, analyse

__all__ = ["PartialTour", "Problem", "Tour", "find_problems", "validate"]

#: At most this many problems of each kind are listed one by one; the rest are counted.
MAX_LISTED = 10

#: Sequences at least this long are offered to :func:`compiled_check` first.
FAST_CHECK_MIN = 1 << 12


#: Sequences from this long are checked by the compiled kernel even when this process has not
#: loaded it yet (loading Numba costs about as much as the vectorised check of that many).
_LOAD_FOR_CHECK = 1 << 26
#: Sequences from this long are checked in two halves at once (the kernel releases the GIL).
_CHECK_IN_HALVES = 1 << 25


def compiled_check(board: Board, seq: np.ndarray) -> np.ndarray | None:
    """The squares ``seq`` visits, flagged (bits a square, or a bool a square from two threads;
    nothing when it visits them all), when it is a path of ``board`` (distinct squares, on the board and off its holes, each a move from the last),
    by the compiled kernel (:func:`~knightstour.kernels.walk.tour_check`, a bit a square):
    about 2 ns a square on one core, where the vectorised check takes 8. None when it cannot tell (a wrapped or 3-D board; kernels not
    loaded and the sequence too short to repay loading them) or finds any problem: then
    :func:`knightstour.tour.find_problems` looks again and names each one.

    >>> from knightstour.kernels import jit, walk as _kernels
    >>> _ = jit.load(_kernels, compiled=True)
    >>> bits = compiled_check(Board(5, 5), np.array([0, 7, 4, 13], dtype=np.int32))
    >>> np.flatnonzero(np.unpackbits(bits, count=25, bitorder="little")).tolist()
    [0, 4, 7, 13]
    >>> tour = "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split()
    >>> compiled_check(Board(3, 4), notation.square_indices(Board(3, 4), tour, {})).size
    0
    >>> print(compiled_check(Board(5, 5), np.array([0, 7, 7], dtype=np.int32)))
    None
    """
    from knightstour.kernels import jit
    from knightstour.kernels import walk as _kernels

    if not board.is_flat or board.area >= 2**31:
        return None
    if _kernels.__name__ not in jit.compiled_modules() and seq.size < _LOAD_FOR_CHECK:
        return None
    k = jit.load(_kernels, compiled=True)
    # one specialisation (the one warm compiles): contiguous int32, copied only if need be
    if seq.dtype != np.int32:
        if seq.min() < 0 or seq.max() >= board.area:
            return None
        seq = seq.astype(np.int32)
    seq = np.ascontiguousarray(seq)
    w, (a, b) = board.width, board.leaper
    span = b * w + b
    dx_of = np.zeros(2 * span + 1, dtype=np.int64)
    for dx, dy in board.deltas:
        dx_of[dy * w + dx + span] = dx
    holes = np.zeros(0, dtype=np.uint8)
    if board.holes:
        holes = np.zeros(board.area, dtype=np.uint8)
        holes[np.fromiter(board.holes, dtype=np.int64)] = 1
    legs = np.array([a, b], dtype=np.int64)
    n = seq.size
    if n < _CHECK_IN_HALVES:  # one thread, a bit a square
        bits = np.zeros((board.area + 7) // 8, dtype=np.uint8)
        if not k.tour_check(seq, 0, n, w, board.area, holes, dx_of, legs, bits, True):
            return None
        if n == board.size:  # nothing missing: no flags needed
            return np.zeros(0, dtype=np.bool_)
        return bits  # unpacked by the caller a stretch at a time, where it looks
    from concurrent.futures import ThreadPoolExecutor

    seen = np.zeros(board.area, dtype=np.uint8)  # a byte a square: the halves write at once

    def part(lo: int, hi: int) -> bool:
        return bool(k.tour_check(seq, lo, hi, w, board.area, holes, dx_of, legs, seen, False))

    with ThreadPoolExecutor(2) as pool:
        ok = all(pool.map(lambda h: part(*h), [(0, n // 2), (n // 2, n)]))
    # the halves may both have visited a square unseen by the other: count the squares
    return seen.view(np.bool_) if ok and int(np.count_nonzero(seen)) == n else None


@dataclass(frozen=True)
class Problem:
    """One reason why a sequence of squares is not a tour.

    ``kind`` is one of ``off-board``, ``not-a-move``, ``repeated``, ``missing``, ``not-closed``,
    ``empty`` and ``disagree`` (the tour JSON's ``path`` and ``xy`` name different squares); ``move`` is the 1-based position in the sequence where it shows, if any.
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
    if seq.size >= FAST_CHECK_MIN:
        flags = compiled_check(board, seq)
        if flags is not None:  # a path: what it misses, and whether it closes
            missing = board.size - seq.size
            found = _missing(missing, _first_unseen(board, flags), name) if missing else []
            return found + _not_closed(board, seq, closed, name)
    problems: list[Problem] = []
    n = board.area
    # in chunks (and two threads for long sequences), so that a tour of 10^8 squares is checked
    # in about a second with little more memory than the tour itself
    # a sequence long enough against the board gets a flag per square: with no square seen
    # twice, the missing ones are read off the flags (a stuck search's partial path is checked
    # as fast as a tour)
    dense = seq.size * 8 >= board.area
    seen = np.zeros(n, dtype=bool) if dense else None
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

    # repeated and missing squares: a sequence on the board whose squares were all flagged once
    # repeats none (and is a tour when it has board.size of them); only otherwise are the
    # problems looked for one by one
    distinct = seen is not None and n_off == 0 and int(np.count_nonzero(seen)) == seq.size
    if distinct and seq.size < board.size:
        assert seen is not None
        problems += _missing(board.size - seq.size, _first_unseen(board, seen), name)
    elif not distinct:
        problems += _repeated_and_missing(board, seq, name)

    if seq.size and not first_off and not last_off:
        problems += _not_closed(board, seq, closed, name)
    return problems


def _not_closed(board: Board, seq: np.ndarray, closed: bool, name: Any) -> list[Problem]:
    """The problem of a sequence (its ends on the board) asked to be closed that is not."""
    if closed and (board.size < 2 or not board.is_move(int(seq[-1]), int(seq[0]))):
        return [
            Problem(
                "not-closed",
                f"not closed: the last square {name(seq[-1])} is not a knight's "
                f"move from the first {name(seq[0])}",
                int(seq.size),
            )
        ]
    return []


def _first_unseen(board: Board, seen: np.ndarray) -> np.ndarray:
    """The first :data:`MAX_LISTED` squares of the board (holes aside) not flagged in ``seen``
    (a bool a square, or uint8 bits a square, least significant first), looked for a stretch at
    a time (a short path on a huge board costs a stretch, not a board)."""
    holes = np.fromiter(board.holes, dtype=np.int64) if board.holes else None
    found: list[np.ndarray] = []
    got = 0
    a, stretch = 0, 1 << 10  # stretches that double: the first misses are usually early
    packed = seen.dtype == np.uint8
    while a < board.area and got < MAX_LISTED:
        if packed:  # a and stretch are multiples of 8
            count = min(stretch, board.area - a)
            bits = seen[a >> 3 : (a + count + 7) >> 3]
            part = np.unpackbits(bits, count=count, bitorder="little").view(np.bool_)
        else:
            part = seen[a : a + stretch]
        if not part.all():
            miss = np.flatnonzero(~part) + a
            if holes is not None:
                miss = miss[~np.isin(miss, holes)]
            found.append(miss[: MAX_LISTED - got])
            got += found[-1].size
        a += stretch
        stretch = min(2 * stretch, _CHUNK)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


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
            if not board.is_flat:  # wrapped or 3-D: look the moves up
                move = (board.neighbours[cs[:-1]] == cs[1:, None]).any(axis=1)
            else:
                x = cs % w
                adx = np.abs(np.diff(x))
                ady = np.abs(np.diff(cs) - np.diff(x))  # |dy| * w
                move = adx * w + ady == span
                move &= (
                    (adx == p) | (adx == q)
                    if q - p > 1
                    else (adx - p).view(_unsigned(adx)) <= q - p
                )
            if any_off:
                move |= off[:-1] | off[1:]
            if not move.all():
                bad = np.flatnonzero(~move)
                n_moves += bad.size
                move_at += (bad[: MAX_LISTED - len(move_at)] + base).tolist()
    return off_at, n_off, move_at, n_moves, bool(prev_off is not None and prev_off[0])


def _repeated_and_missing(board: Board, seq: np.ndarray, name: Any) -> list[Problem]:
    """The repeated and missing squares of a sequence (the slow, exact count).

    Sized by the sequence, not the board, when the sequence is much shorter than the board: two
    squares named on a 10,000 x 10,000 board cost a few bytes, not a table of 10^8 counts.
    """
    problems: list[Problem] = []
    n = board.area
    seq = seq.astype(np.int64, copy=False)
    off = (seq < 0) | (seq >= n)
    holes = np.fromiter(board.holes, dtype=np.int64) if board.holes else None
    if holes is not None:
        off |= np.isin(seq, holes)
    on = seq[~off]
    if on.size * 8 >= n:  # dense: a count per square of the board
        counts = np.bincount(on, minlength=n) if on.size else np.zeros(n, dtype=np.int64)
        rep = np.flatnonzero(counts > 1)
        visited = counts > 0
        if holes is not None:
            visited[holes] = True
        n_missing = int(n - np.count_nonzero(visited))
        miss = np.flatnonzero(~visited)[:MAX_LISTED]
    else:  # sparse: only the squares the sequence holds
        squares, counts = np.unique(on, return_counts=True)
        rep = squares[counts > 1]
        n_missing = board.size - squares.size
        taken = squares if holes is None else np.union1d(squares, holes)
        # the first missing squares lie among the first len(taken) + MAX_LISTED indices
        first = np.arange(min(n, taken.size + MAX_LISTED), dtype=np.int64)
        miss = first[~np.isin(first, taken)][:MAX_LISTED]
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
    return problems + _missing(n_missing, miss, name)


def _missing(n_missing: int, miss: np.ndarray, name: Any) -> list[Problem]:
    """The problem of ``n_missing`` squares never visited, the first of them ``miss``."""
    if not n_missing:
        return []
    names = ", ".join(name(s) for s in miss)
    more = f" and {n_missing - len(miss):,} more" if n_missing > len(miss) else ""
    return [
        Problem(
            "missing",
            f"{n_missing:,} square{'s are' if n_missing > 1 else ' is'} never visited: "
            f"{names}{more}",
        )
    ]


def validate(board: Board, indices: Sequence[int] | np.ndarray, closed: bool = False) -> None:
    """Raise :class:`InvalidTourError` listing every problem, or return quietly."""
    problems = find_problems(board, indices, closed)
    if problems:
        raise InvalidTourError(problems)


class _Path:
    """What a tour and a partial path share: a board and its squares in visit order.

    Subclasses set ``board`` and ``_indices`` (a read-only int32 array).
    """

    __slots__ = ()
    board: Board
    _indices: np.ndarray

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

    @property
    def path(self) -> list[str]:
        """Square names in visit order: ``['a1', 'b3', ...]``."""
        return list(notation.iter_names(self.board, self._indices))

    @property
    def xy(self) -> list[list[int]]:
        """Zero-based ``[x, y]`` pairs in visit order."""
        return notation.xy_pairs(self.board, self._indices)


class Tour(_Path):
    """A validated knight's tour: a board, the squares in visit order, and how it was made.

    The one constructor takes the squares as indices (``y * width + x``), names or ``(x, y)``
    pairs, and always validates: every tour that exists is a tour.

    >>> import knightstour as kt
    >>> t = kt.solve("5x5", start="a1", method="warnsdorff")
    >>> t.path[:3], t.indices[:3].tolist(), len(t)
    (['a1', 'c2', 'e1'], [0, 7, 4], 25)
    >>> Tour("5x5", t.path) == Tour((5, 5), t.xy) == t
    True
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
        squares: Iterable[int | str | tuple[int, int]] | np.ndarray,
        *,
        closed: bool = False,
        method: str = "",
    ) -> None:
        b = parse_board(board)
        if not (isinstance(closed, bool) or type(closed).__name__ == "bool_"):
            raise InvalidInputError(f"closed must be True or False, got {brief(closed)}")
        if not isinstance(method, str):
            raise InvalidInputError(f"method must be a string, got {brief(method)}")
        shown: dict[int, str] = {}
        self._setup(b, notation.square_indices(b, squares, shown), bool(closed), method, shown)

    def _setup(
        self,
        board: Board,
        indices: np.ndarray,
        closed: bool,
        method: str,
        shown: dict[int, str],
        first: Sequence[Problem] = (),
    ) -> None:
        """Validate (naming every problem, after ``first``) and keep the squares as a read-only
        int32 array."""
        problems = [*first, *find_problems(board, indices, closed, shown)]
        if problems:
            raise InvalidTourError(problems)
        self._keep(board, indices, closed, method)

    def _keep(self, board: Board, indices: np.ndarray, closed: bool, method: str) -> None:
        self.board = board
        self._indices = np.ascontiguousarray(indices, dtype=np.int32)
        self._indices.flags.writeable = False
        self.closed = bool(closed)
        self.method = method

    def _rearranged(self, indices: np.ndarray) -> Tour:
        """This tour's squares in another order, kept without validating them again.

        Only for orders that keep a valid tour valid, so that every :class:`Tour` still is
        one: the same squares walked backwards (each move is a knight's move both ways, and the
        closing move of a closed tour joins the same two squares) and a closed tour's cycle
        started elsewhere (the same moves, the old closing move now inside the path). Costs a
        copy, not an O(n) validation with its tables.
        """
        tour = type(self).__new__(type(self))
        tour._keep(self.board, indices, self.closed, self.method)
        return tour

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tour:
        """A tour from the JSON contract's dictionary (``path`` or ``xy``), validated.

        Every problem is named: the moves where ``path`` and ``xy`` disagree, then those of the
        squares in ``path``. A field of the wrong type is an :class:`InvalidInputError` naming it.

        >>> Tour.from_dict({"width": 3, "height": 3, "path": ["a1"]})
        Traceback (most recent call last):
        ...
        knightstour.errors.InvalidTourError: not a valid tour: 8 squares are never visited: ...
        >>> try:
        ...     Tour.from_dict({"width": 3, "height": 4, "path": ["a1", "b3", "c1"],
        ...                     "xy": [[0, 0], [1, 1], [0, 1]]})
        ... except InvalidTourError as e:
        ...     print("\\n".join(str(p) for p in e.problems))
        move 2: 'path' says b3, 'xy' says [1, 1] (b2)
        move 3: 'path' says c1, 'xy' says [0, 1] (a2)
        9 squares are never visited: b1, a2, b2, c2, a3, c3, a4, b4, c4
        """
        fields = notation.read_tour_dict(data)
        first = [Problem("disagree", message, move) for move, message in fields.disagreements]
        tour = cls.__new__(cls)
        tour._setup(fields.board, fields.indices, fields.closed, fields.method, fields.shown, first)
        return tour

    # -- views ----------------------------------------------------------------------------

    def matrix(self) -> np.ndarray:
        """The board of move numbers (1-based) as a ``(height, width)`` array, row 0 = rank 1.

        Holes hold 0.

        >>> Tour("3x4", "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split()).matrix()[0].tolist()
        [1, 12, 3]
        """
        m = np.zeros(self.board.area, dtype=np.int64)
        m[self._indices] = np.arange(1, len(self) + 1)
        return m.reshape(self.board.height, self.board.width)

    def board_text(self, labels: bool = False) -> str:
        """The board of move numbers as text, top rank first, as the classic programs print it.

        With ``labels``, rank numbers down the left and file letters along the bottom
        (:func:`knightstour.notation.board_lines` makes it a line at a time).

        >>> import knightstour as kt
        >>> print(kt.solve("5x5", start="c3", method="warnsdorff").board_text(labels=True))
        5 | 25 14  3  8 19
        4 |  4  9 18 13  2
        3 | 15 24  1 20  7
        2 | 10  5 22 17 12
        1 | 23 16 11  6 21
             a  b  c  d  e
        """
        return "\n".join(notation.board_lines(self.board, self._indices, labels))

    def moves_text(self, per_line: int = 16) -> str:
        """The move list in algebraic notation, ``per_line`` squares a line.

        >>> import knightstour as kt
        >>> kt.solve("5x5", start="a1", method="warnsdorff").moves_text(per_line=8).splitlines()[0]
        'a1 c2 e1 d3 e5 c4 a5 b3'
        """
        return "\n".join(notation.moves_lines(self.board, self._indices, per_line))

    def magic(self) -> Magic:
        """The sums of the tour's numbering (squares numbered 1..N in visiting order): ranks,
        files, long diagonals, the constants, and the verdict (:mod:`knightstour.numbering`).

        >>> import knightstour as kt
        >>> m = kt.solve("8x8", start="a1", method="warnsdorff").magic()
        >>> m.row_constant, m.verdict
        (260, 'neither')
        """
        if self.board.holes:
            raise InvalidInputError("magic sums are for whole boards, without holes")
        return analyse(self.board.width, self.board.height, self._indices.tolist())

    def metrics(self) -> Metrics:
        """The shape of the tour drawn as segments: crossings, turns, the moves of each vector,
        the board's symmetries that map it onto itself (a closed tour as a cycle, an open one
        as a path either way) and the displacement from its first square to its last
        (:mod:`knightstour.geometry` defines each; wrapped and 3-D boards are refused).

        >>> import knightstour as kt
        >>> m = kt.solve("5x5", start="a1", method="warnsdorff").metrics()
        >>> m.moves, m.crossings, m.turns, m.displacement
        (24, 39, 23, (2, 2))
        """
        return _metrics(self.board, self._indices, self.closed)

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract's dictionary: width, height, closed, method, path, xy.

        >>> list(Tour("1x1", [0]).to_dict().items())[:3]
        [('width', 1), ('height', 1), ('closed', False)]
        """
        return notation.tour_dict(self.board, self._indices, self.closed, self.method)

    def to_json(self) -> str:
        """:meth:`to_dict` as compact JSON text (:func:`knightstour.notation.write_tour_json`
        writes the same text to a stream in constant memory).

        >>> Tour("1x1", ["a1"], method="x").to_json()
        '{"width":1,"height":1,"closed":false,"method":"x","path":["a1"],"xy":[[0,0]]}'
        """
        return notation.compact_json(self.to_dict())

    # -- transformations ------------------------------------------------------------------

    def reversed(self) -> Tour:
        """The same tour walked backwards (a tour still: not validated again).

        >>> Tour("3x4", "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split()).reversed().start
        'b1'
        """
        return self._rearranged(self._indices[::-1])

    def rotated(self, start: int | str) -> Tour:
        """A closed tour started from another square of its cycle (not validated again).

        >>> import knightstour as kt
        >>> kt.solve("6x6", start="a1", closed=True).rotated("c3").start
        'c3'
        """
        if not self.closed:
            raise InvalidInputError("only a closed tour can be started from another square")
        s = self.board.parse_square(start)
        pos = int(np.flatnonzero(self._indices == s)[0])
        return self._rearranged(np.roll(self._indices, -pos))

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

    def __str__(self) -> str:
        """The board of move numbers with its labels (what ``print(tour)`` shows).

        >>> import knightstour as kt
        >>> print(kt.solve("3x4", start="a1", method="backtrack"))
        4 | 10  5 12
        3 |  7  2  9
        2 |  4 11  6
        1 |  1  8  3
             a  b  c
        """
        return self.board_text(labels=True)

    def _repr_svg_(self) -> str:
        from knightstour.render.svg import tour_svg

        return tour_svg(self)


class PartialTour(_Path):
    """How far a search that stopped got: a path of distinct squares joined by knight's moves
    that does not (or not as asked) cover the board, with the method and why it stopped.

    A :class:`~knightstour.errors.SearchFailedError` carries one as ``partial``; every output
    draws it (text, JSON's ``"partial"``, SVG, PNG, GIF, Jupyter), the unvisited squares shown.
    Like a :class:`Tour` it is validated when made (as a path, not as a tour), and its squares
    may be indices, names or ``(x, y)`` pairs. It also behaves as the array of its indices
    (``len``, iteration, ``numpy.asarray``), as the bare array it replaces did.

    >>> p = PartialTour("3x3", ["a1", "c2", "a3"], method="warnsdorff", reason="stuck")
    >>> len(p), p.start, p.end, p.unvisited, p.indices.tolist()
    (3, 'a1', 'a3', 6, [0, 5, 6])
    >>> p.to_dict()
    {'path': ['a1', 'c2', 'a3'], 'xy': [[0, 0], [2, 1], [0, 2]]}
    >>> PartialTour("3x3", ["a1", "b1"])
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: not a partial path: move 2 (a1 to b1) is not a knight's move
    """

    __slots__ = ("_indices", "board", "method", "reason")

    def __init__(
        self,
        board: BoardLike,
        squares: Iterable[int | str | tuple[int, int]] | np.ndarray,
        *,
        method: str = "",
        reason: str = "",
    ) -> None:
        b = parse_board(board)
        shown: dict[int, str] = {}
        indices = notation.square_indices(b, squares, shown)
        if len(indices) == 0:
            raise InvalidInputError("not a partial path: it has no squares")
        problems = [p for p in find_problems(b, indices, False, shown) if p.kind != "missing"]
        if problems:
            n = len(problems) - 1
            more = f" (and {n} more problem{'s' if n > 1 else ''})" if n else ""
            raise InvalidInputError(f"not a partial path: {problems[0]}{more}")
        self.board = b
        self._indices = np.ascontiguousarray(indices, dtype=np.int32)
        self._indices.flags.writeable = False
        self.method = str(method)
        self.reason = str(reason)

    def __iter__(self) -> Iterator[int]:
        return iter(self._indices.tolist())

    def __getitem__(self, i: Any) -> Any:
        return self._indices[i]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._indices if dtype is None else self._indices.astype(dtype)

    @property
    def unvisited(self) -> int:
        """How many squares of the board the path never reaches."""
        return self.board.size - len(self)

    def metrics(self) -> Metrics:
        """The shape of the path, as :meth:`Tour.metrics` (an open path: no closing move).

        >>> PartialTour("3x3", ["a1", "c2", "a3"]).metrics().crossings
        0
        """
        return _metrics(self.board, self._indices, False)

    def to_dict(self) -> dict[str, Any]:
        """``{"path": [...], "xy": [...]}``: the ``"partial"`` field of the gave-up JSON."""
        return {"path": self.path, "xy": self.xy}

    def lines(self) -> Iterator[str]:
        """The text form (:func:`knightstour.notation.partial_lines`): board and moves."""
        return notation.partial_lines(self.board, self._indices)

    def board_text(self, labels: bool = False) -> str:
        """The board of move numbers, unvisited squares as dots.

        >>> print(PartialTour("3x3", [0, 5]).board_text())
        . . .
        . . 2
        1 . .
        """
        return "\n".join(notation.board_lines(self.board, self._indices, labels))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PartialTour):
            return NotImplemented
        return self.board == other.board and np.array_equal(self._indices, other._indices)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<PartialTour {self.board.spec} {self.start}->{self.end} "
            f"{len(self)} of {self.board.size} squares method={self.method!r}>"
        )

    def __str__(self) -> str:
        """The board of move numbers with its labels, unvisited squares as dots."""
        return self.board_text(labels=True)

    def _repr_svg_(self) -> str:
        from knightstour.render.svg import tour_svg

        return tour_svg(self)


def search_failed(message: str, board: Board, indices: Any, method: str) -> SearchFailedError:
    """The error of a search that stopped, carrying its path so far as a :class:`PartialTour`.

    An empty path gives no partial tour; a path that is none is a bug in the method.

    >>> e = search_failed("stuck", Board(3, 3), [0, 5], "warnsdorff")
    >>> e.partial
    <PartialTour 3x3 a1->c2 2 of 9 squares method='warnsdorff'>
    >>> e.partial.reason, search_failed("stuck", Board(3, 3), [], "warnsdorff").partial
    ('stuck', None)
    """
    partial = None
    if len(indices):
        try:
            partial = PartialTour(board, np.asarray(indices), method=method, reason=message)
        except InvalidInputError as e:
            raise InternalError(f"a search stopped with a broken partial path: {e}") from None
    return SearchFailedError(message, partial=partial)
