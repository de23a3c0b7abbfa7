"""Notation: the text and JSON forms of tours and answers, read and written, streaming where big.

Square names, the board of move numbers, move lists, the tour JSON of the contract (built as a
dictionary, or written piece by piece in constant memory), the answer JSON, the map of start
squares and the tour library's tables. Imports only :mod:`knightstour.board`: the
:class:`~knightstour.tour.Tour` and the command line call into it.

>>> from knightstour.board import parse_leaper, Board
>>> b = Board(3, 4)
>>> path = square_indices(b, "a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1".split())
>>> path.tolist()[:4], list(iter_names(b, path))[-2:]
([0, 7, 2, 3], ['c3', 'b1'])
>>> print("\\n".join(board_lines(b, path, labels=True)))
4 | 10  5  8
3 |  7  2 11
2 |  4  9  6
1 |  1 12  3
     a  b  c
>>> compact_json(answer_dict(Board(4, 4), False, "no tour on 4x4"))
'{"width":4,"height":4,"exists":false,"reason":"no tour on 4x4"}'
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import IO, TYPE_CHECKING, Any, NamedTuple

import numpy as np

from knightstour.board import (
    Board,
    available_memory,
    brief,
    file_name,
    parse_board,
    parse_leaper,
    parse_name,
)
from knightstour.errors import InputLimitError, InvalidInputError
from knightstour.kernels import jit
from knightstour.kernels import text as _text

if TYPE_CHECKING:
    from knightstour.tour import PartialTour

__all__ = [
    "ANSWER_WORDS",
    "MAX_NAME_CHARS",
    "InputLimitError",
    "TourFields",
    "answer_dict",
    "answer_line",
    "board_chunks",
    "board_lines",
    "bulk_text",
    "compact_json",
    "digits",
    "from_digits",
    "iter_names",
    "json_counts",
    "load_json",
    "moves_chunks",
    "moves_lines",
    "partial_lines",
    "read_limit",
    "read_text",
    "read_tour_dict",
    "square_index",
    "square_indices",
    "start_map_lines",
    "start_map_rows",
    "stats_lines",
    "summary_line",
    "table_lines",
    "text_lines",
    "tour_dict",
    "write_tour_json",
    "xy_pairs",
]

#: Squares converted at a time when a long sequence is written out.
CHUNK = 1 << 16
#: The word for each answer of :func:`knightstour.exists`: True, False, None (unknown).
ANSWER_WORDS: dict[bool | None, str] = {True: "yes", False: "no", None: "unknown"}


def answer_line(word: str, reason: str) -> str:
    """An answer and its reason in one line, the answer said once: ``word`` (``yes``, ``no``,
    ``unknown``, ``no tour``, ``gave up``) before the reason, unless the reason already
    begins with the same word.

    >>> answer_line("no", "no tour from b1 on 5x5: the colours")
    'no tour from b1 on 5x5: the colours'
    >>> answer_line("no tour", "no closed tour on 5x5: odd"), answer_line("yes", "8x8 has one")
    ('no closed tour on 5x5: odd', 'yes: 8x8 has one')
    """
    if reason.split(" ", 1)[0] == word.split(" ", 1)[0]:
        return reason
    return f"{word}: {reason}"


#: The text format prints the board of move numbers up to this width and this many squares.
TEXT_BOARD_MAX = (60, 10_000)
#: The longest text read as one square name: the longest name on any board has 17 characters.
MAX_NAME_CHARS = 64


# -- squares ----------------------------------------------------------------------------------


def _chunks(a: np.ndarray, size: int = CHUNK) -> Iterator[np.ndarray]:
    for i in range(0, a.size, size):
        yield a[i : i + size]


def iter_names(board: Board, indices: Sequence[int] | np.ndarray) -> Iterator[str]:
    """Algebraic names of square indices, made one at a time (for huge sequences).

    >>> list(iter_names(Board(30, 2), [0, 29, 59]))
    ['a1', 'ad1', 'ad2']
    """
    if board.depth > 1:
        for chunk in _chunks(np.asarray(indices)):
            yield from (board.square_name(s) for s in chunk.tolist())
        return
    w = board.width
    files: dict[int, str] = {}
    for chunk in _chunks(np.asarray(indices)):
        for s in chunk.tolist():
            x = s % w
            f = files.get(x)
            if f is None:
                f = files[x] = file_name(x)
            yield f"{f}{s // w + 1}"


def xy_pairs(board: Board, indices: Sequence[int] | np.ndarray) -> list[list[int]]:
    """Zero-based ``[x, y]`` pairs of square indices.

    >>> xy_pairs(Board(8, 8), [0, 17])
    [[0, 0], [1, 2]]
    """
    a = np.asarray(indices, dtype=np.int64)
    if board.depth > 1:  # [x, y, z]
        w, h = board.width, board.height
        return np.stack([a % w, a // w % h, a // (w * h)], axis=1).tolist()
    return np.stack([a % board.width, a // board.width], axis=1).tolist()


def square_index(board: Board, s: Any, shown: dict[int, str] | None = None) -> int:
    """A square index from a name (``'c3'``), an ``(x, y)`` pair or an index.

    Names are read by :meth:`Board.parse_square`. With ``shown``, a well-formed square off the
    board gets a negative stand-in index, recorded in ``shown`` with its text, so that
    validation reports it with the other problems. A name longer than :data:`MAX_NAME_CHARS`
    is refused (:class:`InputLimitError`): no board has it.

    >>> b, shown = Board(3, 4), {}
    >>> square_index(b, "c2"), square_index(b, (1, 2)), square_index(b, "d9", shown), shown
    (5, 7, -2, {-2: 'd9'})
    >>> square_index(b, "d9")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: square d9 is off the 3x4 board (files a-c, ranks 1-4)
    >>> square_index(b, (0.5, 0))
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: not a square: (0.5, 0) (expected a name like 'c3', 'x,y', an (x, y) pair of integers or an index)
    """
    if _is_int(s):
        v = int(s)
        if -(2**62) < v < 2**62:  # off the board ones are named by validation
            return v
        text = brief(v)
    elif isinstance(s, (list, tuple)) and len(s) == 3 and board.depth > 1:
        return board.parse_square(s)
    elif isinstance(s, (list, tuple)) and len(s) == 2 and all(_is_int(v) for v in s):
        x, y = (int(v) for v in s)
        if 0 <= x < board.width and 0 <= y < board.height:
            return y * board.width + x
        text = f"({brief(x)}, {brief(y)})"
    elif isinstance(s, str):
        if len(s) > MAX_NAME_CHARS:
            raise InputLimitError(_too_long(s, "a square name"))
        try:
            return board.parse_square(s)
        except InvalidInputError:
            name = None if shown is None else parse_name(s)
            if name is None or (name[0] < board.width and name[1] < board.height):
                raise  # not a name, or a hole: the board's message says which
        text = s.strip().lower()
    else:
        return board.parse_square(s)  # not a square: its message says what is expected
    if shown is None:
        raise InvalidInputError(f"square {text} is off the {board.spec} board")
    stand_in = -2 - len(shown)
    shown[stand_in] = text
    return stand_in


def _too_long(s: str, what: str) -> str:
    return (
        f"{what} of {len(s):,} characters ({s[:20]!r}...): no square's name is longer than "
        f"{MAX_NAME_CHARS}"
    )


def _is_int(v: object) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def square_indices(
    board: Board,
    squares: Iterable[Any] | np.ndarray,
    shown: dict[int, str] | None = None,
    what: str = "squares",
) -> np.ndarray:
    """Square indices from indices, names or ``(x, y)`` pairs (vectorised for numbers).

    Off-board squares are handled as in :func:`square_index`; indices pass through unchecked
    (validation names those off the board). Anything else is refused, naming ``what`` (the
    argument) and the item: numbers that are not integers are never rounded to a square.

    >>> b = Board(5, 5)
    >>> square_indices(b, [0, 7]).tolist(), square_indices(b, [(0, 0), (1, 2)]).tolist()
    ([0, 7], [0, 11])
    >>> square_indices(b, ["a1", (2, 1), 14]).tolist()
    [0, 7, 14]
    >>> square_indices(b, [0.5, 1.0])
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: squares must be square indices, names or (x, y) pairs of integers, got float64 numbers
    """
    if isinstance(squares, (str, bytes)) or not isinstance(squares, Iterable):
        raise InvalidInputError(
            f"{what} must be a sequence of squares (indices, names or (x, y) pairs), "
            f"got {brief(squares)}"
        )
    if isinstance(squares, np.ndarray):
        arr = squares
    else:
        items = squares if isinstance(squares, Sequence) else list(squares)
        if not items:
            return np.zeros(0, dtype=np.int64)
        try:
            arr = np.asarray(items)
        except (ValueError, OverflowError, TypeError, RecursionError):  # ragged, or huge ints
            arr = np.empty(len(items), dtype=object)
            arr[:] = list(items)
    if arr.dtype.kind in "iu":
        if arr.ndim == 1:
            return arr
        if arr.ndim == 2 and arr.shape[1] == 3 and board.depth > 1:  # (x, y, z) triples
            x, y, z = (arr[:, k].astype(np.int64) for k in range(3))
            w, h, d = board.width, board.height, board.depth
            if ((x >= 0) & (x < w) & (y >= 0) & (y < h) & (z >= 0) & (z < d)).all():
                return (z * h + y) * w + x
        if arr.ndim == 2 and arr.shape[1] == 2 and board.depth == 1:  # (x, y) pairs
            x, y = arr[:, 0].astype(np.int64), arr[:, 1].astype(np.int64)
            if ((x >= 0) & (x < board.width) & (y >= 0) & (y < board.height)).all():
                return y * board.width + x
        elif arr.size:
            raise InvalidInputError(
                f"{what} must be a flat sequence of squares or of (x, y) pairs, got an array of "
                f"shape {arr.shape}"
            )
    elif arr.dtype.kind not in "OUS":
        kind = arr.dtype.kind
        values = (
            "booleans" if kind == "b" else f"{arr.dtype} {'numbers' if kind in 'fc' else 'values'}"
        )
        raise InvalidInputError(
            f"{what} must be square indices, names or (x, y) pairs of integers, got {values}"
        )
    if arr.ndim == 0:
        arr = arr.reshape(1)
    items = arr.tolist() if arr.dtype.kind != "O" or arr.ndim != 1 else list(arr)
    out = np.empty(len(items), dtype=np.int64)
    for i, s in enumerate(items):
        try:
            out[i] = square_index(board, s, shown)
        except InputLimitError as e:
            raise InputLimitError(f"{what} item {i + 1}: {e}") from None
        except InvalidInputError as e:
            raise InvalidInputError(f"{what} item {i + 1}: {e}") from None
    return out


# -- text -------------------------------------------------------------------------------------


def _rank_lines(board: Board, rows: Iterable[str], files_width: int | None) -> Iterator[str]:
    """Rows (top rank first) behind their rank numbers; file letters below when asked."""
    rw = len(str(board.height))
    for y, row in zip(range(board.height, 0, -1), rows, strict=False):
        yield f"{y:>{rw}} | {row}"
    if files_width is not None:
        yield " " * (rw + 3) + " ".join(
            f"{file_name(x):>{files_width}}" for x in range(board.width)
        )


def board_lines(
    board: Board, indices: Sequence[int] | np.ndarray, labels: bool = False
) -> Iterator[str]:
    """The board of move numbers of a path (a tour or a partial path), top rank first.

    Unvisited squares show dots. With ``labels``, rank numbers and file letters. Int32 move
    numbers: 4 bytes a square, however long the tour.

    >>> for line in board_lines(Board(3, 3), [0, 5]):
    ...     print(line)
    . . .
    . . 2
    1 . .
    """
    n = len(indices)
    m = np.zeros(board.area, dtype=np.int32 if n < 2**31 - 1 else np.int64)
    m[np.asarray(indices)] = np.arange(1, n + 1, dtype=m.dtype)
    if board.holes:
        m[np.fromiter(board.holes, dtype=np.int64)] = -1
    layers = m.reshape(board.depth, board.height, board.width)
    cw = len(str(n))
    for z, grid in enumerate(layers):
        if board.depth > 1:
            if z:
                yield ""
            yield f"layer {z + 1}:"
        rows = (
            " ".join(
                f"{v:>{cw}}" if v > 0 else ("." if v == 0 else "#") * cw for v in grid[y].tolist()
            )
            for y in range(board.height - 1, -1, -1)
        )
        yield from _rank_lines(board, rows, cw) if labels else rows


def magic_lines(board: Board, indices: Sequence[int] | np.ndarray) -> Iterator[str]:
    """The board of move numbers with each rank's sum on its right and each file's beneath,
    the long diagonals' sums on a square board, and the verdict (:mod:`knightstour.numbering`).

    >>> for line in magic_lines(Board(3, 4), [0, 7, 2, 3, 10, 5, 6, 11, 4, 9, 8, 1]):
    ...     print(line)
    4 | 10  5  8  = 23 (ranks should add up to 19.5: none can)
    3 |  7  2 11  = 20
    2 |  4  9  6  = 19
    1 |  1 12  3  = 16
         a  b  c
    files: a 22, b 28, c 28 (should add up to 26)
    neither magic nor semi-magic: no rank constant: 78 is not divisible by 4 ranks; files should add up to 26: file a adds up to 22, file b to 28, file c to 28; not a square board: no diagonal constant
    """
    from knightstour.numbering import analyse

    m = analyse(board.width, board.height, [int(x) for x in indices])
    grid = list(board_lines(board, indices, labels=True))
    files_row = grid.pop()
    total = board.area * (board.area + 1) // 2
    rank_note = (
        f" (ranks should add up to {total / board.height:g}: none can)"
        if m.row_constant is None
        else ""
    )
    for i, line in enumerate(grid):
        y = board.height - 1 - i
        yield f"{line}  = {m.ranks[y]}" + (rank_note if i == 0 else "")
    yield files_row

    sums = ", ".join(f"{file_name(x)} {v}" for x, v in enumerate(m.files))
    want = "none can" if m.column_constant is None else f"{m.column_constant}"
    yield f"files: {sums} (should add up to {want})"
    if m.diagonals is not None:
        yield (
            f"diagonals: from a1 {m.diagonals[0]}, from the top left {m.diagonals[1]} "
            f"(should add up to {m.diagonal_constant})"
        )
    yield m.summary()


def moves_lines(
    board: Board, indices: Sequence[int] | np.ndarray, per_line: int = 16
) -> Iterator[str]:
    """The move list of a path in algebraic notation, ``per_line`` squares a line.

    >>> list(moves_lines(Board(3, 4), [0, 7, 2, 3], per_line=3))
    ['a1 b3 c1', 'a2']
    """
    names = iter_names(board, indices)
    while line := list(islice(names, per_line)):
        yield " ".join(line)


def summary_line(
    board: Board, indices: Sequence[int] | np.ndarray, closed: bool, method: str
) -> str:
    """What a tour is, in one line: the first line of the text format, and what the command
    line prints when a picture or a file is the output asked for.

    >>> summary_line(Board(3, 4), [0, 7, 2, 3, 10, 5, 6, 11, 4, 9, 8, 1], False, "backtrack")
    'Open tour on 3x4 from a1 to b1, 12 squares (backtrack)'
    """
    n = len(indices)
    first, last = iter_names(board, [indices[0], indices[-1]])
    return (
        f"{'Closed' if closed else 'Open'} tour on {board.description} from {first} to {last}, "
        f"{n} square{'s' if n != 1 else ''} ({method})"
    )


def text_lines(
    board: Board, indices: Sequence[int] | np.ndarray, closed: bool, method: str
) -> Iterator[str]:
    """The text format: what the tour is, its board of move numbers (when it fits), its moves.

    >>> print("\\n".join(text_lines(Board(3, 4), [0, 7, 2, 3, 10, 5, 6, 11, 4, 9, 8, 1],
    ...                             False, "backtrack")))
    Open tour on 3x4 from a1 to b1, 12 squares (backtrack)
    4 | 10  5  8
    3 |  7  2 11
    2 |  4  9  6
    1 |  1 12  3
         a  b  c
    <BLANKLINE>
    moves:
    a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1
    """
    yield summary_line(board, indices, closed, method)
    if board.width <= TEXT_BOARD_MAX[0] and board.size <= TEXT_BOARD_MAX[1]:
        yield from board_lines(board, indices, labels=True)
    yield ""
    yield "moves:"
    yield from moves_lines(board, indices)


# -- text in bulk: the same bytes, made a chunk at a time by vectorised NumPy -----------------

#: Bytes of text made at a time by :func:`board_chunks` and :func:`moves_chunks` (about).
TEXT_CHUNK = 1 << 23
_GROUP = 10_000  # decimal digits are looked up 4 at a time
_tables: dict[int, np.ndarray] = {}


def _digit_table(lead: int) -> np.ndarray:
    """4 ASCII bytes (as one uint32) for each k < 10,000: first with ``lead`` bytes before its
    first digit, then with leading zeros; the last entry is 4 ``lead`` bytes."""
    table = _tables.get(lead)
    if table is None:
        k = np.arange(_GROUP)
        digits = np.stack([k // 1000, k // 100 % 10, k // 10 % 10, k % 10], axis=1) + ord("0")
        ndig = 1 + (k >= 10).astype(int) + (k >= 100) + (k >= 1000)
        spaced = np.where(np.arange(4)[None, :] < (4 - ndig)[:, None], lead, digits)
        rows = np.concatenate([spaced, digits, np.full((1, 4), lead)]).astype(np.uint8)
        table = _tables[lead] = np.ascontiguousarray(rows).view(np.uint32).reshape(-1)
    return table


def _decimal(v: np.ndarray, width: int, lead: int) -> np.ndarray:
    """Positive integers ``v`` (below 10^12) as ``width`` ASCII bytes each, right-aligned with
    ``lead`` bytes before the first digit: an array of shape ``(len(v), width)``.

    >>> _decimal(np.array([7, 12345, 100000000]), 9, ord(" ")).tobytes()
    b'        7    12345100000000'
    """
    table = _digit_table(lead)
    blank = 2 * _GROUP
    v = v.astype(np.int64, copy=False)
    groups = -(-width // 4)
    if groups == 1:
        idx = v[:, None]
    elif groups == 2:
        hi, lo = np.divmod(v, _GROUP)
        idx = np.stack([np.where(hi > 0, hi, blank), lo + _GROUP * (hi > 0)], axis=1)
    else:
        top, rest = np.divmod(v, _GROUP * _GROUP)
        mid, lo = np.divmod(rest, _GROUP)
        idx = np.stack(
            [
                np.where(top > 0, top, blank),
                np.where(top > 0, mid + _GROUP, np.where(mid > 0, mid, blank)),
                lo + _GROUP * (v >= _GROUP),
            ],
            axis=1,
        )
    text = table[idx].view(np.uint8).reshape(v.size, 4 * groups)
    return text[:, 4 * groups - width :]


def _letters(x: np.ndarray, width: int) -> np.ndarray:
    """File letters of zero-based files ``x`` (:func:`~knightstour.board.file_name`), ``width``
    bytes each, right-aligned after zero bytes: shape ``(len(x), width)``."""
    out = np.zeros((x.size, width), dtype=np.uint8)
    n = x.astype(np.int64) + 1
    for pos in range(width - 1, -1, -1):
        on = n > 0
        q, r = np.divmod(n - 1, 26)
        out[:, pos] = np.where(on, r + ord("a"), 0)
        n = np.where(on, q, 0)
    return out


def bulk_text(board: Board) -> bool:
    """Whether :func:`board_chunks` and :func:`moves_chunks` write ``board``'s tours (flat
    boards: 3-D boards name their layers, and are written line by line)."""
    return board.depth == 1


#: Squares from which the text of a tour is made by compiled kernels (loading them costs about
#: what vectorised NumPy takes for this many).
COMPILED_TEXT = 1 << 20

BandText = Callable[[np.ndarray, int, int], bytes | memoryview]
NamesText = Callable[[np.ndarray, int, int, int, int, int, bool], bytes | memoryview]


def text_makers(squares: int, compiled: bool | None = None) -> tuple[BandText, NamesText] | None:
    """The compiled makers of board and move-list text (None: vectorised NumPy does it).

    ``compiled`` None chooses: compiled for :data:`COMPILED_TEXT` squares or more, or once this
    process has loaded the kernels anyway.

    ``band_text(band, width, cw)`` makes the text of a band of ranks (its move numbers, top
    rank first, 0 unvisited, -1 a hole; ``cw`` characters a number);
    ``names_text(squares, width, fw, rw, per_line, first, last)`` the text of a chunk of the
    move list (``fw``, ``rw``: the most letters of a file and digits of a rank; ``first``: the
    number of the chunk's first name in the whole list; ``last``: whether it ends the list).

    >>> text_makers(100, compiled=False) is None
    True
    >>> band_text, names_text = text_makers(100, compiled=True)
    >>> bytes(band_text(np.array([2, 0, 1], dtype=np.int32), 3, 1)).decode()
    '2 . 1\\n'
    """
    if compiled is None:
        compiled = squares >= COMPILED_TEXT or _text.__name__ in jit.compiled_modules()
    if not compiled:
        return None
    k = jit.load(_text, compiled=True)

    def band_text(band: np.ndarray, width: int, cw: int) -> memoryview:
        out = np.empty(band.size * (cw + 1), dtype=np.uint8)
        return out.data[: k.board_band(np.ascontiguousarray(band), width, cw, out)]

    def names_text(
        seq: np.ndarray, width: int, fw: int, rw: int, per_line: int, first: int, last: bool
    ) -> memoryview:
        out = np.empty(seq.size * (fw + rw + 1), dtype=np.uint8)
        return out.data[: k.move_names(seq, width, fw, rw, per_line, first, last, out)]

    return band_text, names_text


def board_chunks(
    board: Board, indices: Sequence[int] | np.ndarray, *, compiled: bool | None = None
) -> Iterator[bytes | memoryview]:
    """The board of move numbers of :func:`board_lines` (no labels), each line ended by a
    newline, as UTF-8 bytes made a band of ranks at a time.

    A band's text is made by vectorised NumPy (:func:`_band_text`) or by the compiled kernel of
    :mod:`knightstour.kernels.text`: ``compiled`` says which, None chooses by the tour's length
    (:func:`text_makers`). Memory: the move number
    of each square (4 bytes a square, as :func:`board_lines`) and one band of text
    (:data:`TEXT_CHUNK` bytes).

    >>> b"".join(board_chunks(Board(3, 3), [0, 5])).decode()
    '. . .\\n. . 2\\n1 . .\\n'
    """
    if not bulk_text(board):
        raise InvalidInputError("the board text of a 3-D board is written line by line")
    n = len(indices)
    makers = text_makers(n, compiled)
    text = makers[0] if makers else _band_text
    w, h = board.width, board.height
    m = np.zeros(board.area, dtype=np.int32 if n < 2**31 - 1 else np.int64)
    seq = np.asarray(indices)
    for i0 in range(0, n, CHUNK):  # a chunk at a time: no second array of the tour's length
        part = seq[i0 : i0 + CHUNK]
        m[part] = np.arange(i0 + 1, i0 + 1 + part.size, dtype=m.dtype)
    if board.holes:
        m[np.fromiter(board.holes, dtype=np.int64)] = -1
    grid = m.reshape(h, w)
    cw = len(str(n))
    rows = max(1, TEXT_CHUNK // (w * (cw + 1)))
    for top in range(h, 0, -rows):
        yield text(grid[max(0, top - rows) : top][::-1].reshape(-1), w, cw)  # top rank first


def _band_text(band: np.ndarray, w: int, cw: int) -> bytes:
    """:func:`board_chunks`' text of a band, by vectorised NumPy."""
    out = np.empty((band.size, cw + 1), dtype=np.uint8)
    out[:, :cw] = _decimal(np.maximum(band, 1), cw, ord(" "))
    if band.min() <= 0:
        out[band == 0, :cw] = ord(".")
        out[band < 0, :cw] = ord("#")
    out[:, cw] = ord(" ")
    out[w - 1 :: w, cw] = ord("\n")
    return out.tobytes()


def moves_chunks(
    board: Board,
    indices: Sequence[int] | np.ndarray,
    per_line: int = 16,
    *,
    compiled: bool | None = None,
) -> Iterator[bytes | memoryview]:
    """The move list of :func:`moves_lines`, each line ended by a newline, as UTF-8 bytes made
    a chunk of squares at a time, in constant memory.

    A chunk's text is made by vectorised NumPy (:func:`_names_text`) or by the compiled kernel
    of :mod:`knightstour.kernels.text`: ``compiled`` says which, None chooses by the tour's
    length (:func:`text_makers`).

    >>> b"".join(moves_chunks(Board(30, 12), [0, 29, 359], per_line=2)).decode()
    'a1 ad1\\nad12\\n'
    """
    if not bulk_text(board):
        raise InvalidInputError("the move list of a 3-D board is written line by line")
    seq = np.asarray(indices)
    makers = text_makers(seq.size, compiled)
    text = makers[1] if makers else _names_text
    w, h = board.width, board.height
    fw, rw = len(file_name(w - 1)), len(str(h))
    step = max(per_line, TEXT_CHUNK // (fw + rw + 1) // per_line * per_line)
    for i0 in range(0, seq.size, step):
        chunk = seq[i0 : i0 + step]
        yield text(chunk, w, fw, rw, per_line, i0, i0 + chunk.size == seq.size)


def _names_text(
    seq: np.ndarray, w: int, fw: int, rw: int, per_line: int, first: int, last: bool
) -> bytes:
    """:func:`moves_chunks`' text of a chunk, by vectorised NumPy (``first`` is a multiple of
    ``per_line``)."""
    y, x = np.divmod(seq.astype(np.int64), w)
    out = np.zeros((x.size, fw + rw + 1), dtype=np.uint8)
    out[:, :fw] = _file_table(w, fw)[x] if w <= 1 << 16 else _letters(x, fw)
    out[:, fw : fw + rw] = _decimal(y + 1, rw, 0)
    out[:, -1] = ord(" ")
    out[per_line - 1 - first % per_line :: per_line, -1] = ord("\n")
    if last:
        out[-1, -1] = ord("\n")
    return out[out != 0].tobytes()


def _file_table(w: int, fw: int) -> np.ndarray:
    key = -w * 16 - fw
    table = _tables.get(key)
    if table is None:
        table = _tables[key] = _letters(np.arange(w), fw)
    return table


def partial_lines(board: Board, partial: Sequence[int] | np.ndarray) -> Iterator[str]:
    """How far a search that stopped got: its board and moves, or one line on a huge board.

    >>> print("\\n".join(partial_lines(Board(3, 3), [0, 5])))
    partial path (2 of 9 squares):
    3 | . . .
    2 | . . 2
    1 | 1 . .
        a b c
    a1 c2
    """
    if board.size <= 4096:
        yield f"partial path ({len(partial)} of {board.size} squares):"
        yield from board_lines(board, partial, labels=True)
        yield from moves_lines(board, partial)
    else:
        end = board.square_name(int(partial[-1]))
        yield f"partial path: {len(partial)} of {board.size} squares, ending on {end}"


# -- JSON -------------------------------------------------------------------------------------


def compact_json(data: Any) -> str:
    """JSON text without spaces, as every JSON answer of knightstour is written.

    >>> compact_json({"a": [1, 2]})
    '{"a":[1,2]}'
    """
    return json.dumps(data, separators=(",", ":"))


def digits(n: int, sep: str = "") -> str:
    """The decimal digits of ``n``, of any length (``str`` refuses ints of more digits than
    ``sys.get_int_max_str_digits()``, a guard for reading untrusted text, not for writing
    counts); ``sep`` between groups of three.

    >>> digits(10**5000 + 7)[-3:], len(digits(10**5000)), digits(1234567, ",")
    ('007', 5001, '1,234,567')
    """
    if n < 0:
        return "-" + digits(-n, sep)
    try:
        text = str(n)
    except ValueError:  # longer than Python converts at once: halves, padded, joined
        k = max(1, int(n.bit_length() * 0.30102999566398120) // 2)
        high, low = divmod(n, 10**k)
        text = digits(high) + digits(low).rjust(k, "0")
    if not sep:
        return text
    head = len(text) % 3 or 3
    return sep.join([text[:head], *(text[i : i + 3] for i in range(head, len(text), 3))])


def from_digits(text: str) -> int:
    """The integer written by the ASCII decimal ``text``, of any length: for numbers this
    program wrote (a remembered count), not untrusted input (:func:`load_json` keeps Python's
    limit).

    >>> from_digits("1" + "0" * 5000) == 10**5000, from_digits("0042")
    (True, 42)
    >>> from_digits("12a")
    Traceback (most recent call last):
    ...
    ValueError: not decimal digits: '12a'
    """
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"not decimal digits: {text[:20]!r}")
    most = sys.get_int_max_str_digits() or len(text)
    if len(text) <= most:
        return int(text)
    k = len(text) // 2
    return from_digits(text[:-k]) * 10**k + from_digits(text[-k:])


def json_counts(data: Mapping[str, Any], **dumps: Any) -> str:
    """``json.dumps(data, **dumps)`` for an object whose top-level numbers may be integers of
    any length (exact counts), written as JSON integers in full.

    >>> text = json_counts({"count": 10**5000, "n": 1})
    >>> len(text), text[:12], text[-9:]
    (5020, '{"count": 10', ', "n": 1}')
    """
    marks: dict[str, str] = {}
    shown = {}
    for key, value in data.items():
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1000:
            mark = f"\x00count {len(marks)}\x00"
            marks[json.dumps(mark)] = digits(value)
            value = mark
        shown[key] = value
    text = json.dumps(shown, **dumps)
    for mark, number in marks.items():
        text = text.replace(mark, number, 1)
    return text


def board_fields(board: Board) -> dict[str, Any]:
    """The JSON fields of a board: width and height, then only the options it has (``depth``,
    ``leaper``, ``wrap``, ``holes``), so that a plain board's JSON stays as it always was.

    >>> board_fields(Board(8, 8))
    {'width': 8, 'height': 8}
    >>> board_fields(Board(4, 4, depth=2, leaper=(1, 3), wrap="torus", holes=["a1:1"]))
    {'width': 4, 'height': 4, 'depth': 2, 'leaper': [1, 3], 'wrap': 'torus', 'holes': ['a1:1']}
    """
    out: dict[str, Any] = {"width": board.width, "height": board.height}
    if board.depth > 1:
        out["depth"] = board.depth
    if board.leaper != (1, 2):
        out["leaper"] = list(board.leaper)
    if board.wrap is not None:
        out["wrap"] = board.wrap
    if board.holes:
        out["holes"] = [board.square_name(h) for h in sorted(board.holes)]
    return out


def board_from_fields(data: dict[str, Any]) -> Board:
    """The board of a JSON object: :func:`board_fields` read back, each field checked.

    >>> board_from_fields({"width": 6, "height": 6, "wrap": "torus"}).description
    '6x6 wrap=torus'
    >>> board_from_fields({"width": 3, "height": 3, "leaper": "bishop"})
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: 'leaper': unknown leaper 'bishop': expected a name (knight, camel, zebra, giraffe, antelope) or two legs like 1,3
    """
    for key in ("width", "height"):
        if key not in data:
            raise InvalidInputError(f"tour JSON lacks {key!r}")
        if isinstance(data[key], bool) or not isinstance(data[key], int | np.integer):
            raise InvalidInputError(f"{key!r} must be an integer, got {brief(data[key])}")
    options: dict[str, Any] = {}
    depth = data.get("depth", 1)
    if isinstance(depth, bool) or not isinstance(depth, int | np.integer):
        raise InvalidInputError(f"'depth' must be an integer, got {brief(depth)}")
    options["depth"] = int(depth)
    if data.get("leaper") is not None:
        try:
            options["leaper"] = parse_leaper(data["leaper"])
        except InvalidInputError as e:
            raise InvalidInputError(f"'leaper': {e}") from None
    if data.get("wrap") is not None:
        options["wrap"] = data["wrap"]
    if data.get("holes") is not None:
        if not isinstance(data["holes"], list):
            raise InvalidInputError(
                f"'holes' must be a list of squares, got {brief(data['holes'])}"
            )
        options["holes"] = data["holes"]
    return Board(data["width"], data["height"], **options)


def _tour_head(board: Board, closed: bool, method: str) -> dict[str, Any]:
    return {**board_fields(board), "closed": closed, "method": method}


def tour_dict(
    board: Board, indices: Sequence[int] | np.ndarray, closed: bool, method: str
) -> dict[str, Any]:
    """The tour JSON of the contract: width, height, closed, method, path, xy.

    >>> tour_dict(Board(1, 1), [0], False, "")
    {'width': 1, 'height': 1, 'closed': False, 'method': '', 'path': ['a1'], 'xy': [[0, 0]]}
    """
    return {
        **_tour_head(board, closed, method),
        "path": list(iter_names(board, indices)),
        "xy": xy_pairs(board, indices),
    }


def write_tour_json(
    f: IO[str],
    board: Board,
    indices: np.ndarray,
    closed: bool,
    method: str,
    extra: dict[str, Any] | None = None,
) -> None:
    """Write :func:`tour_dict` as compact JSON, piece by piece in constant extra memory.

    The text is that of ``compact_json(tour_dict(...))``, without holding it; ``extra`` fields
    (optional ones asked for, such as ``"metrics"``) follow ``xy``.

    >>> import io
    >>> f, b = io.StringIO(), Board(3, 4)
    >>> idx = np.array([0, 7, 2, 3, 10, 5, 6, 11, 4, 9, 8, 1])
    >>> write_tour_json(f, b, idx, False, "x")
    >>> f.getvalue() == compact_json(tour_dict(b, idx, False, "x"))
    True
    """
    f.write(compact_json(_tour_head(board, closed, method))[:-1] + ',"path":[')
    names = iter_names(board, indices)
    sep = ""
    while chunk := list(islice(names, CHUNK)):
        f.write(sep + ",".join(f'"{n}"' for n in chunk))
        sep = ","
    f.write('],"xy":[')
    sep = ""
    for part in _chunks(np.asarray(indices)):
        if board.depth > 1:
            f.write(sep + ",".join(f"[{x},{y},{z}]" for x, y, z in xy_pairs(board, part)))
        else:
            f.write(sep + ",".join(f"[{x},{y}]" for x, y in xy_pairs(board, part)))
        sep = ","
    f.write("]")
    if extra:
        f.write("," + compact_json(extra)[1:-1])
    f.write("}")


def read_limit() -> int:
    """The most characters of JSON read at once: what this machine's memory can parse.

    Parsed JSON takes up to about 24 times its text in Python objects (``[[],[],...]``), so a
    file or a line longer than a 24th of the memory available is refused before it is read
    through. A tour that large is better kept as ``.npy`` (``validate FILE.npy --board WxH``).

    >>> 10**6 < read_limit() < 2**31
    True
    """
    return max(2**20, min(available_memory() // 24, 2**31 - 1))


def read_text(stream: IO[bytes], where: str, limit: int | None = None) -> str:
    """All of a binary stream as UTF-8 text, read a piece at a time up to ``limit`` bytes.

    Refuses (:class:`InputLimitError`) more than ``limit`` (default :func:`read_limit`) and,
    at once, NUL bytes (``/dev/zero``, binary files: never JSON text); bytes that are not
    UTF-8 are an :class:`~knightstour.errors.InvalidInputError`.

    >>> import io
    >>> read_text(io.BytesIO(b'{"width": 1}'), "t.json")
    '{"width": 1}'
    >>> read_text(io.BytesIO(bytes(10**6)), "/dev/zero")
    Traceback (most recent call last):
    ...
    knightstour.errors.InputLimitError: /dev/zero holds NUL bytes: binary data, not JSON text
    >>> read_text(io.BytesIO(b" " * 100), "t.json", limit=10)
    Traceback (most recent call last):
    ...
    knightstour.errors.InputLimitError: t.json is larger than 10 bytes, the most JSON read at once on this machine (keep a tour that large as .npy)
    """
    limit = read_limit() if limit is None else limit
    pieces: list[bytes] = []
    size = 0
    while piece := stream.read(min(1 << 20, limit + 1 - size) or 1):
        if b"\0" in piece:
            raise InputLimitError(f"{where} holds NUL bytes: binary data, not JSON text")
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            raise InputLimitError(
                f"{where} is larger than {limit:,} bytes, the most JSON read at once on this "
                "machine (keep a tour that large as .npy)"
            )
    try:
        return b"".join(pieces).decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidInputError(
            f"{where} is not UTF-8 text (byte {e.start:,} is {e.object[e.start]:#04x})"
        ) from None


def load_json(text: str | bytes) -> Any:
    """JSON text parsed, every failure one :class:`~knightstour.errors.InvalidInputError`.

    Nesting too deep for the parser and integers longer than Python reads are
    :class:`InputLimitError`: bad input, never a crash.

    >>> load_json('{"width": 8}')
    {'width': 8}
    >>> load_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    knightstour.errors.InputLimitError: nested too deeply to read (a tour JSON is 3 levels deep)
    >>> load_json("9" * 5000)
    Traceback (most recent call last):
    ...
    knightstour.errors.InputLimitError: an integer of 5,000 digits, longer than the 4,300 that are read
    >>> load_json("{nope")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: not JSON: Expecting property name enclosed in double quotes at line 1 column 2
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidInputError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise InputLimitError("nested too deeply to read (a tour JSON is 3 levels deep)") from None
    except ValueError as e:  # Python's limit on the digits of an integer read from text
        digits = re.search(r"value has (\d+) digits", str(e))
        most = sys.get_int_max_str_digits()
        what = f"an integer of {int(digits.group(1)):,} digits" if digits else "an integer"
        raise InputLimitError(f"{what}, longer than the {most:,} that are read") from None


class TourFields(NamedTuple):
    """What the tour JSON holds (:func:`read_tour_dict`), before the tour is validated."""

    board: Board
    indices: np.ndarray
    closed: bool
    method: str
    #: stand-in indices of squares off the board -> their text (see :func:`square_index`)
    shown: dict[int, str]
    #: where ``path`` and ``xy`` disagree: (1-based move or None, message), every one
    disagreements: list[tuple[int | None, str]]


def read_tour_dict(data: Any) -> TourFields:
    """Board, square indices, closed and method from the tour JSON (``path`` or ``xy``).

    Not yet validated (:class:`~knightstour.tour.Tour` does that, naming every problem, the
    places where ``path`` and ``xy`` disagree included). A field of the wrong type is an
    :class:`~knightstour.errors.InvalidInputError` naming the field.

    >>> f = read_tour_dict({"width": 3, "height": 4, "path": ["a1", "b3", "z9"]})
    >>> f.board.spec, f.indices.tolist(), f.closed, f.shown
    ('3x4', [0, 7, -2], False, {-2: 'z9'})
    >>> read_tour_dict({"width": 3, "height": 4, "path": ["a1", "b3"],
    ...                 "xy": [[0, 0], [2, 1]]}).disagreements
    [(2, "move 2: 'path' says b3, 'xy' says [2, 1] (c2)")]
    >>> read_tour_dict({"width": 3})
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: tour JSON lacks 'height'
    >>> read_tour_dict({"width": 3, "height": 4, "xy": [[0.5, 0]]})
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: 'xy' item 1 must be an [x, y] pair of integers, got [0.5, 0]
    """
    if not isinstance(data, dict):
        raise InvalidInputError("a tour must be a JSON object with width, height and path")
    board = board_from_fields(data)
    closed = data.get("closed", False)
    if not isinstance(closed, bool):
        raise InvalidInputError(f"'closed' must be true or false, got {brief(closed)}")
    method = data.get("method")
    if method is None:
        method = ""
    if not isinstance(method, str):
        raise InvalidInputError(f"'method' must be a string, got {brief(method)}")
    path, xy = data.get("path"), data.get("xy")
    if path is None and xy is None:
        raise InvalidInputError("tour JSON has neither 'path' nor 'xy'")
    shown: dict[int, str] = {}
    found = []
    for key, value, what in (("path", path, "square names"), ("xy", xy, "[x, y] pairs")):
        if value is None:
            continue
        if not isinstance(value, list):
            raise InvalidInputError(f"{key!r} must be a list of {what}, got {brief(value)}")
        for i, item in enumerate(value, 1):
            if key == "path" and not isinstance(item, str):
                raise InvalidInputError(
                    f"'path' item {i} must be a square name like 'c3', got {brief(item)}"
                )
            if key == "path" and len(item) > MAX_NAME_CHARS:
                raise InputLimitError(_too_long(item, f"'path' item {i} is a string"))
            arity = 3 if board.depth > 1 else 2
            if key == "xy" and not (
                isinstance(item, list) and len(item) == arity and all(_is_int(v) for v in item)
            ):
                pair = "an [x, y, z] triple" if arity == 3 else "an [x, y] pair"
                raise InvalidInputError(
                    f"'xy' item {i} must be {pair} of integers, got {brief(item)}"
                )
        found.append(square_indices(board, value, shown, repr(key)).astype(np.int64))
    disagreements = []
    if path is not None and xy is not None:  # both given: they must name the same squares
        disagreements = _disagreements(board, path, xy, found)
    return TourFields(board, found[0], closed, method, shown, disagreements)


def _disagreements(
    board: Board, path: list[str], xy: list[list[int]], found: list[np.ndarray]
) -> list[tuple[int | None, str]]:
    """Every move where ``path`` and ``xy`` name different squares (the first ten listed)."""
    a, b = found
    out: list[tuple[int | None, str]] = []
    if a.size != b.size:
        out.append((None, f"'path' has {a.size:,} squares but 'xy' has {b.size:,}"))
    k = min(a.size, b.size)
    differ = np.flatnonzero(a[:k] != b[:k])
    for i in differ[:10].tolist():
        name = ""
        if int(b[i]) >= 0:
            name = f" ({board.square_name(int(b[i]))})"
        said = f"'xy' says [{', '.join(brief(v) for v in xy[i])}]{name}"
        out.append((i + 1, f"move {i + 1}: 'path' says {path[i].strip()}, {said}"))
    if differ.size > 10:
        out.append(
            (None, f"... and {differ.size - 10:,} more moves where 'path' and 'xy' disagree")
        )
    return out


def answer_dict(
    board: Board,
    exists: bool | None,
    reason: str,
    partial: Sequence[int] | np.ndarray | PartialTour | None = None,
) -> dict[str, Any]:
    """The JSON answer to "is there a tour?": ``exists`` true, false or null (unknown, or the
    search gave up), with the reason; and when a search gave up with a ``partial`` path (square
    indices, or a :class:`~knightstour.tour.PartialTour`), how far it got:
    ``"partial": {"path": [...], "xy": [[x, y], ...]}``.

    ``knightstour exists --format json`` and ``/api/exists`` print it for every answer, and
    ``knightstour solve --format json`` and ``/api/solve`` in place of a tour when none is given.

    >>> answer_dict(Board(5, 5), None, "stuck")
    {'width': 5, 'height': 5, 'exists': None, 'reason': 'stuck'}
    >>> compact_json(answer_dict(Board(8, 8), True, "Schwenk"))
    '{"width":8,"height":8,"exists":true,"reason":"Schwenk"}'
    >>> compact_json(answer_dict(Board(3, 3), None, "stuck", partial=[0, 5]))
    '{"width":3,"height":3,"exists":null,"reason":"stuck","partial":{"path":["a1","c2"],"xy":[[0,0],[2,1]]}}'
    """
    out: dict[str, Any] = {**board_fields(board), "exists": exists, "reason": reason}
    if partial is not None and len(partial):
        idx = np.asarray(partial)
        out["partial"] = {"path": list(iter_names(board, idx)), "xy": xy_pairs(board, idx)}
    return out


# -- maps and tables --------------------------------------------------------------------------

_MARKS = {True: "Y", False: ".", None: "?"}


def start_map_rows(board: Board, answers: Mapping[int, bool | None]) -> list[str]:
    """One character a square, top rank first: Y a tour starts there, . none, ? unknown.

    >>> start_map_rows(Board(3, 4), {q: q < 3 or q > 8 for q in range(12)})
    ['YYY', '...', '...', 'YYY']
    """
    w = board.width
    return [
        "".join(_MARKS[answers.get(y * w + x)] for x in range(w))
        for y in range(board.height - 1, -1, -1)
    ]


def start_map_lines(
    board: Board, answers: Mapping[int, bool | None], *, closed: bool = False
) -> Iterator[str]:
    """:func:`start_map_rows` as a labelled map (of the start squares of open tours, or of
    closed ones with ``closed``).

    >>> print("\\n".join(start_map_lines(Board(3, 3), {q: q != 4 for q in range(9)})))
    start squares of open tours on 3x3 (Y a tour starts there, . none, ? unknown):
    3 | Y Y Y
    2 | Y . Y
    1 | Y Y Y
        a b c
    """
    kind = "closed" if closed else "open"
    yield f"start squares of {kind} tours on {board.spec} (Y a tour starts there, . none, ? unknown):"
    rows = (" ".join(row) for row in start_map_rows(board, answers))
    yield from _rank_lines(board, rows, 1)


def table_lines(rows: Sequence[Sequence[str]], right: Iterable[int] = (0,)) -> Iterator[str]:
    """Columns aligned, the ``right`` ones to the right, trailing spaces cut.

    >>> print("\\n".join(table_lines([("id", "board"), ("12", "8x8")])))
    id  board
    12  8x8
    """
    right = set(right)
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    for r in rows:
        cells = (
            v.rjust(w) if k in right else v.ljust(w)
            for k, (v, w) in enumerate(zip(r, widths, strict=True))
        )
        yield "  ".join(cells).rstrip()


def _square_counts(board: Board, label: str, counts: Mapping[str, int]) -> Iterator[str]:
    if board.width > 16 or board.height > 16:
        top = sorted(counts.items(), key=lambda kv: -kv[1])[:10]
        yield f"  most common {label} squares: " + ", ".join(f"{k} {v:,}" for k, v in top)
        return
    yield f"  by {label} square:"
    cw = max((len(f"{v:,}") for v in counts.values()), default=1)
    cell: Callable[[str], str] = lambda n: f"{counts[n]:,}" if n in counts else "."  # noqa: E731
    names = list(iter_names(board, np.arange(board.area)))
    rows = (
        " ".join(cell(names[y * board.width + x]).rjust(cw) for x in range(board.width))
        for y in range(board.height - 1, -1, -1)
    )
    yield from ("  " + line for line in _rank_lines(board, rows, None))


def stats_lines(db: str, stats: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    """The tour library's counts as text: per board and kind, then per start and end square.

    ``stats`` is what :meth:`knightstour.library.Library.stats` returns.

    >>> s = {"board": "3x4", "closed": False, "tours": 2, "methods": {"backtrack": 2},
    ...      "starts": {"a1": 2}, "ends": {"b1": 1, "c4": 1}}
    >>> print("\\n".join(stats_lines("tours.db", [s])))
    tours.db: 2 tours
    <BLANKLINE>
    3x4 open: 2 tours (backtrack 2)
      by start square:
      4 | . . .
      3 | . . .
      2 | . . .
      1 | 2 . .
      by end square:
      4 | . . 1
      3 | . . .
      2 | . . .
      1 | . 1 .
    """
    yield f"{db}: {sum(s['tours'] for s in stats):,} tours"
    for s in stats:
        kind = "closed" if s["closed"] else "open"
        methods = ", ".join(f"{m} {n:,}" for m, n in sorted(s["methods"].items()))
        yield ""
        yield f"{s['board']} {kind}: {s['tours']:,} tours ({methods})"
        b = parse_board(s["board"])
        for label in ("start", "end"):
            yield from _square_counts(b, label, s[f"{label}s"])
