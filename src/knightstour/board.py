"""Boards, squares and algebraic notation.

A square is a plain ``int``: its index ``y * width + x``, where ``x`` is the file (column) and
``y`` the rank (row), both zero-based, so ``a1`` (bottom-left) is 0. Names and indices convert
both ways with :meth:`Board.square_name` and :meth:`Board.parse_square`; files past ``z`` go
``aa``, ``ab``, ... like spreadsheet columns.

>>> b = Board(8, 8)
>>> b.parse_square("c3"), b.square_name(18), b.xy(18)
(18, 'c3', (2, 2))
>>> file_name(25), file_name(26), parse_file("ab")
('z', 'aa', 27)
>>> parse_board("3x10")
Board(width=3, height=10)

The board is the only place that knows the geometry: solvers work on its neighbour tables or on
its padded grid (:meth:`Board.padded`), so a board with removed squares (``holes``) or another
leaper (``leaper=(1, 3)``, the camel) needs no change to them.
"""

from __future__ import annotations

import operator
import os
import re
import reprlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from knightstour.errors import InvalidInputError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "MAX_SQUARES",
    "Board",
    "BoardLike",
    "PaddedGrid",
    "brief",
    "file_name",
    "parse_board",
    "parse_file",
    "parse_name",
    "symmetries",
]

#: Square indices are int32, so a board holds at most this many squares.
MAX_SQUARES = 2**31 - 1
#: The longest side accepted; a spec longer than this is a typo, not a board.
MAX_SIDE = 2**31 - 1
#: Letters of the longest file name and digits of the highest rank on any board (MAX_SIDE):
#: a name with more is off every board, and is not converted (a 100,000-digit rank would be).
_MAX_FILE_LETTERS, _MAX_RANK_DIGITS = 7, 10

_BOARD_RE = re.compile(r"^\s*(\d+)\s*(?:[x×X*]\s*(\d+))?\s*$", re.ASCII)
_SQUARE_RE = re.compile(r"^([a-z]+)([1-9][0-9]*)$", re.ASCII)
_XY_RE = re.compile(r"^\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*$", re.ASCII)


class _Brief(reprlib.Repr):
    """:func:`brief`'s repr: short strings, few items, no huge integers written out."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxstring, self.maxother = 3, 32, 32
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 4

    def repr_int(self, x: int, level: int) -> str:
        if abs(x) >= 10**30:  # Python refuses to write out more than 4,300 digits
            return f"<an integer of about {round(x.bit_length() * 0.30103):,} digits>"
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        if len(x) > self.maxstring:
            return f"{x[:20]!r}... ({len(x):,} characters)"
        return super().repr_str(x, level)


_BRIEF = _Brief()


def brief(value: object) -> str:
    """A short repr of ``value`` for an error message, whatever the user handed in.

    Long strings and lists are cut, huge integers not written out, deep nesting elided.

    >>> brief((0.5, 0)), brief("a" + "1" * 100_000), brief(10**5000)
    ('(0.5, 0)', "'a1111111111111111111'... (100,001 characters)", '<an integer of about 5,000 digits>')
    >>> brief([[[[[1]]]]])
    '[[[[...]]]]'
    """
    try:
        return _BRIEF.repr(value)
    except Exception:  # a repr that fails: the type still says what it was
        return f"<{type(value).__name__}>"


def _as_int(value: object, what: str) -> int:
    """``value`` as an int: Python and NumPy integers, never bools, floats or strings."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        raise InvalidInputError(f"{what} must be an integer, got {brief(value)}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInputError(f"{what} must be an integer, got {brief(value)}") from None


def file_name(x: int) -> str:
    """The letters of file ``x`` (zero-based): ``a`` … ``z``, then ``aa``, ``ab``, …

    >>> [file_name(x) for x in (0, 1, 25, 26, 27, 51, 52, 701, 702)]
    ['a', 'b', 'z', 'aa', 'ab', 'az', 'ba', 'zz', 'aaa']
    """
    if x < 0:
        raise InvalidInputError(f"file index must be >= 0, got {x}")
    letters = []
    n = x + 1
    while n:
        n, r = divmod(n - 1, 26)
        letters.append(chr(ord("a") + r))
    return "".join(reversed(letters))


def parse_file(letters: str) -> int:
    """The zero-based file index of ``letters``, the inverse of :func:`file_name`.

    >>> parse_file("a"), parse_file("z"), parse_file("aa"), parse_file("zz")
    (0, 25, 26, 701)
    """
    if not letters or not letters.isascii() or not letters.isalpha():
        raise InvalidInputError(f"not a file name: {letters!r} (expected letters a-z)")
    n = 0
    for ch in letters.lower():
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def parse_name(text: str) -> tuple[int, int] | None:
    """Zero-based ``(x, y)`` of an algebraic name (``'c3'``, any case, spaces around), on no
    board in particular; None when ``text`` is not one. :meth:`Board.parse_square` and the
    reading of tour files (:mod:`knightstour.notation`) both parse names here.

    A coordinate longer than any board's (more than 7 letters, or 10 digits) is given as
    :data:`MAX_SIDE`, off every board, without converting it.

    >>> parse_name("c3"), parse_name(" AB10 "), parse_name("2,2"), parse_name("a0")
    ((2, 2), (27, 9), None, None)
    >>> parse_name("a" + "1" * 100_000) == (0, MAX_SIDE)
    True
    """
    m = _SQUARE_RE.match(text.strip().lower())
    if m is None:
        return None
    letters, digits = m.group(1), m.group(2)
    x = parse_file(letters) if len(letters) <= _MAX_FILE_LETTERS else MAX_SIDE
    y = int(digits) - 1 if len(digits) <= _MAX_RANK_DIGITS else MAX_SIDE
    return x, y


@dataclass(frozen=True)
class PaddedGrid:
    """The board inside a border of blocked cells, for compiled solvers.

    Cell ``(x, y)`` of the board is padded index ``(y + pad) * pwidth + x + pad``; ``blocked``
    is 1 on the border and on holes, and ``offsets`` are the leaper's moves as padded-index
    differences, so a move never needs a bounds check.
    """

    pad: int
    pwidth: int
    pheight: int
    blocked: np.ndarray  # uint8, pwidth * pheight
    offsets: np.ndarray  # int64, one per move direction

    def to_padded(self, index: np.ndarray | int, width: int) -> np.ndarray | int:
        """Board index (or array of them) to padded index."""
        y, x = index // width, index % width
        return (y + self.pad) * self.pwidth + x + self.pad

    def from_padded(self, p: np.ndarray | int, width: int) -> np.ndarray | int:
        """Padded index (or array of them) to board index."""
        y, x = p // self.pwidth - self.pad, p % self.pwidth - self.pad
        return y * width + x


@dataclass(frozen=True)
class Board:
    """A ``width`` × ``height`` board (files × ranks), optionally with holes and another leaper.

    ``leaper=(a, b)`` is the piece: ``(1, 2)`` is the knight, ``(1, 3)`` the camel. ``holes``
    are square indices removed from the board. The existence theory and the divide-and-conquer
    construction cover the plain knight board; the search methods work on any board.

    >>> Board(5, 5).size, Board(3, 4).square_name(11)
    (25, 'c4')
    >>> Board(0, 3)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: board width must be at least 1, got 0
    """

    width: int
    height: int
    leaper: tuple[int, int] = field(default=(1, 2), repr=False)
    holes: frozenset[int] = field(default=frozenset(), repr=False)

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = _as_int(getattr(self, name), f"board {name}")
            if value < 1:
                raise InvalidInputError(f"board {name} must be at least 1, got {brief(value)}")
            if value > MAX_SIDE:
                raise InvalidInputError(
                    f"board {name} {brief(value)} is too large: a side may be at most {MAX_SIDE}"
                )
            object.__setattr__(self, name, value)
        if self.width * self.height > MAX_SQUARES:
            raise InvalidInputError(
                f"board {self.width}x{self.height} has {self.width * self.height:,} squares, "
                f"more than the {MAX_SQUARES:,} that int32 square indices can number"
            )
        try:
            a, b = (_as_int(v, "a leaper's leg") for v in self.leaper)
        except (TypeError, ValueError):
            a = b = -1
        if a < 0 or b < 1 or a > b:
            raise InvalidInputError(
                f"leaper must be (a, b) with 0 <= a <= b, b >= 1: {brief(self.leaper)}"
            )
        object.__setattr__(self, "leaper", (a, b))
        if self.holes:
            try:
                holes = frozenset(_as_int(h, "a hole") for h in self.holes)
            except TypeError:
                raise InvalidInputError(
                    f"holes must be a set of square indices, got {brief(self.holes)}"
                ) from None
            object.__setattr__(self, "holes", holes)
            bad = [h for h in self.holes if not 0 <= h < self.width * self.height]
            if bad:
                raise InvalidInputError(f"hole {bad[0]} is off the {self.spec} board")

    # -- identity -------------------------------------------------------------------------

    @property
    def spec(self) -> str:
        """The board spec, ``WxH``.

        >>> Board(3, 10).spec
        '3x10'
        """
        return f"{self.width}x{self.height}"

    @property
    def is_plain_knight(self) -> bool:
        """True for a knight on a full rectangle: the case the theorems speak of."""
        return self.leaper == (1, 2) and not self.holes

    @property
    def area(self) -> int:
        """``width * height``, holes included."""
        return self.width * self.height

    @property
    def size(self) -> int:
        """The number of squares a tour must visit (holes excluded)."""
        return self.width * self.height - len(self.holes)

    def __str__(self) -> str:
        return self.spec

    def _repr_svg_(self) -> str:
        """The board as an SVG, for Jupyter (the renderer is imported only when asked)."""
        from knightstour.render.svg import board_svg

        return board_svg(self)

    # -- squares --------------------------------------------------------------------------

    def index(self, x: int, y: int) -> int:
        """The square index of zero-based ``(x, y)``, checked to be on the board."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise InvalidInputError(f"square ({x}, {y}) is off the {self.spec} board")
        return y * self.width + x

    def xy(self, square: int) -> tuple[int, int]:
        """Zero-based ``(x, y)`` of a square index."""
        return square % self.width, square // self.width

    def square_name(self, square: int) -> str:
        """The algebraic name of a square index: file letters then rank number.

        >>> Board(30, 30).square_name(29 + 30 * 29)
        'ad30'
        """
        if not 0 <= square < self.area:
            raise InvalidInputError(f"square index {square} is off the {self.spec} board")
        x, y = square % self.width, square // self.width
        return f"{file_name(x)}{y + 1}"

    def parse_square(
        self,
        text: str | int | tuple[int, int] | Iterable[int],
        *,
        argument: str | None = None,
    ) -> int:
        """A square index from ``'c3'``, ``'2,2'``, ``(2, 2)`` or an index, checked on the board.

        ``argument`` names what the square was given as (``"start"``), for the messages. Only
        integers make an index or a pair: ``(0.5, 0)`` is refused, not rounded to ``a1``.

        >>> b = Board(8, 8)
        >>> b.parse_square("h8"), b.parse_square("7,7"), b.parse_square((0, 1)), b.parse_square(5)
        (63, 63, 8, 5)
        >>> b.parse_square("i1")
        Traceback (most recent call last):
        ...
        knightstour.errors.InvalidInputError: square i1 is off the 8x8 board (files a-h, ranks 1-8)
        >>> b.parse_square((0.5, 0), argument="start")
        Traceback (most recent call last):
        ...
        knightstour.errors.InvalidInputError: start must be a square (a name like 'c3', 'x,y', an (x, y) pair of integers or an index), got (0.5, 0)
        """
        label = "square" if argument is None else f"{argument} square"
        if isinstance(text, str):
            s = text.strip().lower()
            name = parse_name(s)
            if name is not None:
                x, y = name
                if not (x < self.width and y < self.height):
                    raise InvalidInputError(
                        f"{label} {_shown_text(s)} is off the {self.spec} board (files a-"
                        f"{file_name(self.width - 1)}, ranks 1-{self.height})"
                    )
                return self._check_hole(y * self.width + x, s)
            m = _XY_RE.match(s)
            if m:
                x, y = (int(g) if len(g) <= _MAX_RANK_DIGITS + 1 else MAX_SIDE for g in m.groups())
                if not (0 <= x < self.width and 0 <= y < self.height):
                    raise InvalidInputError(
                        f"{label} {_shown_text(s)} is off the {self.spec} board"
                    )
                return self._check_hole(y * self.width + x, s)
            what = "not a square" if argument is None else f"{argument} is not a square"
            raise InvalidInputError(
                f"{what}: {brief(text)} (expected algebraic like 'c3' or zero-based 'x,y')"
            )
        index = _square_ints(text)
        if isinstance(index, int):
            if not 0 <= index < self.area:
                raise InvalidInputError(
                    f"{label} index {brief(index)} is off the {self.spec} board"
                )
            return self._check_hole(index, str(index))
        if index is None:
            expected = "a name like 'c3', 'x,y', an (x, y) pair of integers or an index"
            if argument is None:
                raise InvalidInputError(f"not a square: {brief(text)} (expected {expected})")
            raise InvalidInputError(f"{argument} must be a square ({expected}), got {brief(text)}")
        x, y = index
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise InvalidInputError(
                f"{label} ({brief(x)}, {brief(y)}) is off the {self.spec} board"
            )
        return self._check_hole(y * self.width + x, f"({x}, {y})")

    def _check_hole(self, square: int, shown: str) -> int:
        if square in self.holes:
            raise InvalidInputError(f"square {shown} is a hole of this board")
        return square

    def squares(self) -> Iterator[int]:
        """Every square index on the board, holes excluded, in index order."""
        holes = self.holes
        return (s for s in range(self.area) if s not in holes)

    def colour(self, square: int) -> int:
        """0 for the colour of ``a1`` (the corner colour), 1 for the other.

        >>> Board(8, 8).colour(0), Board(8, 8).colour(1)
        (0, 1)
        """
        x, y = square % self.width, square // self.width
        return (x + y) & 1

    # -- moves ----------------------------------------------------------------------------

    @cached_property
    def deltas(self) -> tuple[tuple[int, int], ...]:
        """The leaper's moves as ``(dx, dy)`` in the fixed order that tie-breaks refer to.

        For the knight, counter-clockwise from two right, one up:

        >>> Board(8, 8).deltas
        ((2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))
        """
        a, b = self.leaper
        out: list[tuple[int, int]] = []
        for dx, dy in ((b, a), (a, b), (-a, b), (-b, a), (-b, -a), (-a, -b), (a, -b), (b, -a)):
            if (dx, dy) not in out:
                out.append((dx, dy))
        return tuple(out)

    def moves(self, square: int) -> list[int]:
        """The squares a leaper move away from ``square``, in the fixed move order.

        >>> b = Board(8, 8)
        >>> [b.square_name(s) for s in b.moves(b.parse_square("a1"))]
        ['c2', 'b3']
        """
        x, y = square % self.width, square // self.width
        out = []
        for dx, dy in self.deltas:
            nx, ny = x + dx, y + dy
            if 0 <= nx < self.width and 0 <= ny < self.height:
                t = ny * self.width + nx
                if t not in self.holes:
                    out.append(t)
        return out

    def is_move(self, a: int, b: int) -> bool:
        """True when ``b`` is one leaper move from ``a``."""
        ax, ay = a % self.width, a // self.width
        bx, by = b % self.width, b // self.width
        d = sorted((abs(ax - bx), abs(ay - by)))
        return tuple(d) == tuple(sorted(self.leaper))

    def neighbour_table(self) -> np.ndarray:
        """An ``(area, 8)`` int32 table of neighbour squares, ``-1`` where there is none.

        Rows of holes are all ``-1``. For small-board searches; large boards use
        :meth:`padded`.
        """
        import numpy as np

        self.require_memory(40, "a neighbour table")
        n = self.area
        idx = np.arange(n, dtype=np.int64)
        x, y = idx % self.width, idx // self.width
        table = np.full((n, len(self.deltas)), -1, dtype=np.int32)
        hole_mask = np.zeros(n, dtype=bool)
        if self.holes:
            hole_mask[list(self.holes)] = True
        for k, (dx, dy) in enumerate(self.deltas):
            nx, ny = x + dx, y + dy
            ok = (nx >= 0) & (nx < self.width) & (ny >= 0) & (ny < self.height) & ~hole_mask
            t = ny * self.width + nx
            ok[ok] &= ~hole_mask[t[ok]]
            table[ok, k] = t[ok]
        return table

    def padded(self) -> PaddedGrid:
        """The board inside a blocked border as wide as the leaper's longest leg."""
        import numpy as np

        pad = max(self.leaper)
        pw, ph = self.width + 2 * pad, self.height + 2 * pad
        blocked = np.ones((ph, pw), dtype=np.uint8)
        blocked[pad : pad + self.height, pad : pad + self.width] = 0
        blocked = blocked.reshape(-1)
        if self.holes:
            h = np.fromiter(self.holes, dtype=np.int64)
            blocked[(h // self.width + pad) * pw + h % self.width + pad] = 1
        offsets = np.array([dy * pw + dx for dx, dy in self.deltas], dtype=np.int64)
        return PaddedGrid(pad, pw, ph, blocked, offsets)

    # -- resources ------------------------------------------------------------------------

    def require_memory(self, bytes_per_square: float, what: str = "this") -> None:
        """Refuse, before allocating, work that needs more memory than this machine has.

        >>> Board(8, 8).require_memory(100)
        >>> Board(46000, 46000).require_memory(1e6, "a tour")
        Traceback (most recent call last):
        ...
        knightstour.errors.InvalidInputError: board 46000x46000 is too large: a tour needs ...
        """
        need = bytes_per_square * self.area
        have = available_memory()
        if need > have:
            raise InvalidInputError(
                f"board {self.spec} is too large: {what} needs {_human_bytes(need)}, "
                f"more than the {_human_bytes(have)} of memory available"
            )


def _square_ints(value: object) -> int | tuple[int, int] | None:
    """An index, or an ``(x, y)`` pair, of Python or NumPy integers; None for anything else."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return None
    if not isinstance(value, (str, bytes)):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    if isinstance(value, (tuple, list)) or type(value).__name__ == "ndarray":
        items = list(value)  # type: ignore[call-overload]
        if len(items) == 2:
            try:
                x, y = (_as_int(v, "a coordinate") for v in items)
            except InvalidInputError:
                return None
            return x, y
    return None


def _shown_text(s: str) -> str:
    """A square's text as typed, cut short when it is long (as in :func:`brief`)."""
    return s if len(s) <= 32 else f"{s[:20]}... ({len(s):,} characters)"


BoardLike = Board | str | int | tuple[int, int]


def parse_board(spec: BoardLike) -> Board:
    """A :class:`Board` from ``'WxH'``, ``'N'`` (``NxN``), ``(W, H)``, ``N`` or a Board.

    >>> parse_board("8"), parse_board((3, 4)), parse_board(" 10 x 3 ")
    (Board(width=8, height=8), Board(width=3, height=4), Board(width=10, height=3))
    >>> parse_board("8y8")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: not a board spec: '8y8' (expected WxH like 8x8, or N)
    """
    if isinstance(spec, Board):
        return spec
    expected = "(expected WxH like 8x8, or N)"
    if isinstance(spec, bool) or type(spec).__name__ == "bool_":
        raise InvalidInputError(f"not a board spec: {brief(spec)} {expected}")
    if isinstance(spec, str):
        m = _BOARD_RE.match(spec)
        if not m:
            raise InvalidInputError(f"not a board spec: {brief(spec)} {expected}")
        sides = [g for g in m.groups() if g is not None]
        if any(len(g.lstrip("0")) > _MAX_RANK_DIGITS for g in sides):
            raise InvalidInputError(
                f"board {_shown_text(spec.strip())} is too large: a side may be at most {MAX_SIDE}"
            )
        w = int(sides[0])
        h = int(sides[1]) if len(sides) > 1 else w
        if w > MAX_SIDE or h > MAX_SIDE:
            raise InvalidInputError(f"board {w}x{h} is too large: a side may be at most {MAX_SIDE}")
        return Board(w, h)
    if isinstance(spec, tuple | list) and len(spec) == 2:
        return Board(*spec)
    try:
        n = operator.index(spec)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInputError(f"not a board spec: {brief(spec)} {expected}") from None
    return Board(n, n)


def available_memory() -> int:
    """Bytes of memory this process may reasonably use: what the system reports available."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 0.8)
    except (ValueError, OSError, AttributeError):
        return 8 * 2**30


def _human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    raise AssertionError  # pragma: no cover


@lru_cache(maxsize=64)
def symmetries(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """``(perms, invs)``: each symmetry of the board as a permutation of square indices.

    ``perms[g][s]`` is the image of square ``s`` under symmetry ``g`` and ``invs[g]`` its inverse.
    Symmetry 0 is the identity, 1 reflects the files, 2 the ranks, 3 is the half turn; on a square
    board 4 reflects in the diagonal a1-h8, 5 and 6 are the quarter turns, 7 reflects in the other
    diagonal.

    >>> perms, invs = symmetries(8, 8)
    >>> perms.shape, int(perms[1][0]), int(perms[4][1])   # a1 -> h1; b1 -> a2
    ((8, 64), 7, 8)
    >>> symmetries(3, 4)[0].shape
    (4, 12)
    """
    import numpy as np

    s = np.arange(width * height, dtype=np.int64)
    x, y = s % width, s // width
    xr, yr = width - 1 - x, height - 1 - y
    images = [(x, y), (xr, y), (x, yr), (xr, yr)]
    if width == height:
        images += [(y, x), (yr, x), (y, xr), (yr, xr)]
    perms = np.stack([iy * width + ix for ix, iy in images]).astype(np.int64)
    invs = np.argsort(perms, axis=1).astype(np.int64)
    perms.flags.writeable = invs.flags.writeable = False
    return perms, invs
