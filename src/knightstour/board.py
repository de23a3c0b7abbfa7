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

import itertools
import operator
import os
import re
import reprlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

from knightstour.errors import InvalidInputError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "LEAPERS",
    "MAX_SQUARES",
    "WRAPS",
    "Board",
    "BoardLike",
    "PaddedGrid",
    "brief",
    "file_name",
    "parse_board",
    "parse_file",
    "parse_leaper",
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

_BOARD_RE = re.compile(r"^\s*(\d+)\s*(?:[x×X*]\s*(\d+)\s*(?:[x×X*]\s*(\d+))?)?\s*$", re.ASCII)

#: Holes named by :attr:`Board.description` before it says how many more there are.
HOLES_SHOWN = 12

#: The named leapers: (a, b) legs of each move.
LEAPERS: dict[str, tuple[int, int]] = {
    "knight": (1, 2),
    "camel": (1, 3),
    "zebra": (2, 3),
    "giraffe": (1, 4),
    "antelope": (3, 4),
}
#: The topologies: edges (None), left and right edges joined, both pairs joined.
WRAPS: tuple[str | None, ...] = (None, "cylinder", "torus")


def parse_leaper(text: str | tuple[int, int]) -> tuple[int, int]:
    """A leaper's legs ``(a, b)``, a <= b, from a name or ``'a,b'``.

    >>> parse_leaper("camel"), parse_leaper("3, 2"), parse_leaper((2, 1))
    ((1, 3), (2, 3), (1, 2))
    >>> parse_leaper("wizard")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: unknown leaper 'wizard': expected a name (knight, camel, zebra, giraffe, antelope) or two legs like 1,3
    """
    if isinstance(text, str):
        key = text.strip().lower()
        if key in LEAPERS:
            return LEAPERS[key]
        m = re.fullmatch(r"\(?\s*(\d{1,6})\s*,\s*(\d{1,6})\s*\)?", key)
        if not m:
            raise InvalidInputError(
                f"unknown leaper {brief(text)}: expected a name ({', '.join(LEAPERS)}) or two "
                f"legs like 1,3"
            )
        a, b = sorted(int(g) for g in m.groups())
    else:
        try:
            a, b = sorted(_as_int(v, "a leaper's leg") for v in text)
        except (TypeError, ValueError):
            raise InvalidInputError(f"a leaper is two legs (a, b), got {brief(text)}") from None
    if b < 1:
        raise InvalidInputError(f"a leaper needs a leg of at least 1, got {a},{b}")
    return a, b


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

    Long strings and lists are cut, huge integers not written out, deep nesting elided, and the
    whole kept to :data:`BRIEF_MOST` characters (a few short levels can still multiply).

    >>> brief((0.5, 0)), brief("a" + "1" * 100_000), brief(10**5000)
    ('(0.5, 0)', "'a1111111111111111111'... (100,001 characters)", '<an integer of about 5,000 digits>')
    >>> brief([[[[[1]]]]])
    '[[[[...]]]]'
    >>> len(brief([{str(i) * 30: [None] * 9 for i in range(9)}] * 9)) <= BRIEF_MOST + 30
    True
    """
    try:
        text = _BRIEF.repr(value)
    except Exception:  # a repr that fails: the type still says what it was
        return f"<{type(value).__name__}>"
    if len(text) > BRIEF_MOST:
        text = f"{text[:BRIEF_MOST]}... ({len(text):,} characters)"
    return text


#: The most characters of a value :func:`brief` writes.
BRIEF_MOST = 200


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
    wrap: str | None = field(default=None, repr=False)
    depth: int = field(default=1, repr=False)

    def __post_init__(self) -> None:
        depth = _as_int(self.depth, "board depth")
        if depth < 1:
            raise InvalidInputError(f"board depth must be at least 1, got {brief(depth)}")
        object.__setattr__(self, "depth", depth)
        if self.wrap not in WRAPS:
            raise InvalidInputError(
                f"unknown wrap {brief(self.wrap)}: expected one of {', '.join(map(str, WRAPS[1:]))}"
            )
        for name in ("width", "height"):
            value = _as_int(getattr(self, name), f"board {name}")
            if value < 1:
                raise InvalidInputError(f"board {name} must be at least 1, got {brief(value)}")
            if value > MAX_SIDE:
                raise InvalidInputError(
                    f"board {name} {brief(value)} is too large: a side may be at most {MAX_SIDE}"
                )
            object.__setattr__(self, name, value)
        if self.width * self.height * depth > MAX_SQUARES:
            raise InvalidInputError(
                f"board {self.spec} has {self.width * self.height * depth:,} squares, "
                f"more than the {MAX_SQUARES:,} that int32 square indices can number"
            )
        leaper = self.leaper
        if isinstance(leaper, str):
            leaper = parse_leaper(leaper)
        try:
            a, b = sorted(_as_int(v, "a leaper's leg") for v in leaper)
        except (TypeError, ValueError, InvalidInputError):
            a = b = -1
        if a < 0 or b < 1 or a > b:
            raise InvalidInputError(
                f"leaper must be (a, b) with 0 <= a <= b, b >= 1: {brief(self.leaper)}"
            )
        object.__setattr__(self, "leaper", (a, b))
        if self.holes:
            if isinstance(self.holes, (str, int)) and not isinstance(self.holes, bool):
                raise InvalidInputError(
                    f"holes must be a collection of squares, got {brief(self.holes)}"
                )
            try:
                given = list(self.holes)
            except TypeError:
                raise InvalidInputError(
                    f"holes must be a collection of squares, got {brief(self.holes)}"
                ) from None
            plain = replace(self, holes=frozenset())
            holes = frozenset(
                plain.parse_square(h, argument="hole") if not isinstance(h, int) else h
                for h in given
            )
            bad = [h for h in holes if not 0 <= h < self.area]
            if bad:
                raise InvalidInputError(f"hole {bad[0]} is off the {self.spec} board")
            object.__setattr__(self, "holes", holes)
            if len(holes) >= self.area:
                raise InvalidInputError(f"the holes cover the whole {self.spec} board")

    # -- identity -------------------------------------------------------------------------

    @property
    def spec(self) -> str:
        """The board spec, ``WxH`` (``WxHxD`` in three dimensions).

        >>> Board(3, 10).spec, Board(4, 4, depth=3).spec
        ('3x10', '4x4x3')
        """
        if self.depth > 1:
            return f"{self.width}x{self.height}x{self.depth}"
        return f"{self.width}x{self.height}"

    @property
    def description(self) -> str:
        """The spec with every option that differs from the plain knight's board, for messages
        (holes past the first :data:`HOLES_SHOWN` are counted, not named).

        >>> Board(8, 8).description
        '8x8'
        >>> Board(6, 6, leaper="zebra", wrap="torus", holes=["a1"]).description
        '6x6 leaper=2,3 wrap=torus holes=a1'
        """
        parts = self._options()
        if self.holes:
            shown = sorted(self.holes)[:HOLES_SHOWN]
            more = len(self.holes) - len(shown)
            parts.append(
                "holes="
                + ",".join(self.square_name(h) for h in shown)
                + (f" and {more:,} more" if more else "")
            )
        return " ".join(parts)

    def _options(self) -> list[str]:
        """The spec, then the leaper and the wrap where they differ from the plain board's."""
        parts = [self.spec]
        if self.leaper != (1, 2):
            parts.append(f"leaper={self.leaper[0]},{self.leaper[1]}")
        if self.wrap is not None:
            parts.append(f"wrap={self.wrap}")
        return parts

    @property
    def key(self) -> str:
        """The board's exact identity as one compact string: the spec, then ``leaper=a,b``,
        ``wrap=...`` and ``holes=...`` when they differ from the plain knight's board, the holes
        complete and sorted, each run of consecutive square indices written ``first-last``. A
        plain board's key is its spec. :meth:`from_key` reads it back.

        Unlike :attr:`description` (for messages, which shortens long hole lists) the key names
        every hole, so two boards have the same key exactly when they are equal.

        >>> Board(8, 8).key, Board(4, 4, depth=3).key
        ('8x8', '4x4x3')
        >>> Board(8, 8, leaper="camel", wrap="torus", holes=["a1", "b1", "c1", "h8"]).key
        '8x8 leaper=1,3 wrap=torus holes=a1-c1,h8'
        >>> b = Board(8, 8).with_corners(2)
        >>> Board.from_key(b.key) == b
        True
        """
        parts = self._options()
        if self.holes:
            runs: list[str] = []
            holes = sorted(self.holes)
            i = 0
            while i < len(holes):
                j = i
                while j + 1 < len(holes) and holes[j + 1] == holes[j] + 1:
                    j += 1
                first = self.square_name(holes[i])
                runs.append(first if i == j else f"{first}-{self.square_name(holes[j])}")
                i = j + 1
            parts.append("holes=" + ",".join(runs))
        return " ".join(parts)

    @classmethod
    def from_key(cls, text: str) -> Board:
        """The board of a :attr:`key` (a spec, then ``leaper=``, ``wrap=`` and ``holes=`` in
        any order, separated by spaces); bad text is an :class:`InvalidInputError`.

        >>> Board.from_key("6x6 wrap=torus holes=a1-b1")
        Board(width=6, height=6, wrap='torus', holes=['a1', 'b1'])
        >>> Board.from_key("6x6 colour=red")
        Traceback (most recent call last):
        ...
        knightstour.errors.InvalidInputError: not a board key: '6x6 colour=red' (expected a spec like 8x8, then leaper=A,B, wrap=cylinder|torus or holes=a1-c1,h8)
        """
        expected = (
            "(expected a spec like 8x8, then leaper=A,B, wrap=cylinder|torus or holes=a1-c1,h8)"
        )
        if not isinstance(text, str) or not text.strip():
            raise InvalidInputError(f"not a board key: {brief(text)} {expected}")
        spec, *rest = text.split()
        base = parse_board(spec)
        options: dict[str, str] = {}
        for item in rest:
            name, eq, value = item.partition("=")
            if not eq or name not in ("leaper", "wrap", "holes") or name in options or not value:
                raise InvalidInputError(f"not a board key: {brief(text)} {expected}")
            options[name] = value
        board = cls(
            base.width,
            base.height,
            depth=base.depth,
            leaper=parse_leaper(options.get("leaper", "knight")),
            wrap=options.get("wrap"),
        )
        if "holes" not in options:
            return board
        holes: set[int] = set()
        for run in options["holes"].split(","):
            first, dash, last = run.partition("-")
            a = board.parse_square(first, argument="hole")
            b = board.parse_square(last, argument="hole") if dash else a
            if b < a:
                raise InvalidInputError(f"holes {run}: the run goes backwards")
            holes.update(range(a, b + 1))
        return replace(board, holes=frozenset(holes))

    @property
    def is_plain_knight(self) -> bool:
        """True for a knight on a full flat rectangle: the case the theorems speak of."""
        return self.leaper == (1, 2) and not self.holes and self.is_flat

    @property
    def alternates_colours(self) -> bool:
        """True when every move changes the colour of its square (:meth:`colour`): the leaper's
        legs add up to an odd number, and no wrapped side has odd length (a move across the seam
        of an odd side keeps its colour).

        >>> Board(5, 5).alternates_colours, Board(5, 5, wrap="torus").alternates_colours
        (True, False)
        >>> Board(8, 8, leaper="camel").alternates_colours
        False
        """
        a, b = self.leaper
        if (a + b) % 2 == 0:
            return False
        if self.wrap is not None and self.width % 2:
            return False
        return not (self.wrap == "torus" and self.height % 2)

    @property
    def is_flat(self) -> bool:
        """True for a board with edges (no wrap) in two dimensions: what :meth:`padded` serves."""
        return self.wrap is None and self.depth == 1

    @property
    def area(self) -> int:
        """``width * height * depth``, holes included."""
        return self.width * self.height * self.depth

    @classmethod
    def from_mask(cls, text: str, **options: object) -> Board:
        """A board from a picture of it: one line a rank (or ranks separated by ``/``, as in a
        web address), top rank first; ``.`` a square, ``#`` or a space a hole. The board is as
        wide as the longest line; short lines end in holes.

        >>> b = Board.from_mask('''
        ... .#.
        ... ...
        ... ''')
        >>> b.spec, [b.square_name(h) for h in sorted(b.holes)]
        ('3x2', ['b2'])
        >>> Board.from_mask(".#./...") == b
        True
        >>> Board.from_mask("../../  ").spec        # the bottom rank: two holes, as drawn
        '2x3'
        """
        lines = [line.rstrip("\r") for line in text.replace("/", "\n").split("\n")]
        while lines and not lines[0]:  # empty lines around the drawing are no ranks; a line of
            lines.pop(0)  # spaces is a rank of holes, as drawn (a space is a hole)
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise InvalidInputError("the mask has no squares: draw one line a rank, '.' a square")
        width = max(len(line) for line in lines)
        height = len(lines)
        holes = []
        for row, line in enumerate(lines):
            y = height - 1 - row
            for x in range(width):
                ch = line[x] if x < len(line) else " "
                if ch in "#  ":
                    holes.append(y * width + x)
                elif ch not in ".":
                    raise InvalidInputError(
                        f"the mask has {ch!r} in line {row + 1}: use '.' for a square and '#' or "
                        f"a space for a hole"
                    )
        if len(holes) == width * height:
            raise InvalidInputError("the mask has no squares: draw one line a rank, '.' a square")
        return cls(width, height, holes=frozenset(holes), **options)  # type: ignore[arg-type]

    def with_corners(self, r: int) -> Board:
        """This board with its four corners cut off, rounded by ``r`` squares: the squares with
        x + y < r measured from each corner.

        >>> [Board(4, 4).square_name(h) for h in sorted(Board(4, 4).with_corners(1).holes)]
        ['a1', 'd1', 'a4', 'd4']
        """
        r = _as_int(r, "corners")
        if r < 0:
            raise InvalidInputError(f"corners must be at least 0, got {r}")
        holes = set(self.holes)
        w, h = self.width, self.height
        for z in range(self.depth):  # only the corners' squares are visited: O(r^2) a layer
            for dy in range(min(r, h)):
                for dx in range(min(r - dy, w)):
                    for x in {dx, w - 1 - dx}:
                        for y in {dy, h - 1 - dy}:
                            if min(x, w - 1 - x) + min(y, h - 1 - y) < r:
                                holes.add(z * w * h + y * w + x)
        if len(holes) >= self.area:
            raise InvalidInputError(f"corners {r} cut away the whole {self.spec} board")
        return replace(self, holes=frozenset(holes))

    @property
    def size(self) -> int:
        """The number of squares a tour must visit (holes excluded)."""
        return self.area - len(self.holes)

    def __str__(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        extra = "".join(
            f", {name}={getattr(self, name)!r}"
            for name, plain in (("depth", 1), ("leaper", (1, 2)), ("wrap", None))
            if getattr(self, name) != plain
        )
        names = [self.square_name(h) for h in sorted(self.holes)]
        holes = f", holes={names!r}" if self.holes else ""
        return f"Board(width={self.width}, height={self.height}{extra}{holes})"

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
        x, y = square % self.width, square // self.width % self.height
        if self.depth > 1:
            return f"{file_name(x)}{y + 1}:{square // (self.width * self.height) + 1}"
        return f"{file_name(x)}{y + 1}"

    def xyz(self, square: int) -> tuple[int, int, int]:
        """Zero-based ``(x, y, z)`` of a square index: file, rank and layer.

        >>> Board(4, 4, depth=4).xyz(21), Board(4, 4, depth=4).square_name(21)
        ((1, 1, 1), 'b2:2')
        """
        plane = self.width * self.height
        return square % self.width, square % plane // self.width, square // plane

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
        index = None if isinstance(text, str) else _square_ints(text)
        if isinstance(index, int):  # an index, on any board
            if not 0 <= index < self.area:
                raise InvalidInputError(
                    f"{label} index {brief(index)} is off the {self.spec} board"
                )
            return self._check_hole(index, str(index))
        if self.depth > 1:
            return self._parse_square_3d(text, label, argument)
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

    def _parse_square_3d(self, text: object, label: str, argument: str | None) -> int:
        """A square of a 3-D board from ``'c3:2'`` (layer 2), ``'x,y,z'``, a triple or an index."""
        w, h, d = self.width, self.height, self.depth
        expected = "a name like 'c3:2' (file, rank, layer), zero-based 'x,y,z' or an index"
        if isinstance(text, str):
            s = text.strip().lower()
            name, _, layer = s.partition(":")
            xy = parse_name(name) if layer else None
            if xy is not None and layer.isdigit() and len(layer) <= _MAX_RANK_DIGITS:
                x, y, z = xy[0], xy[1], int(layer) - 1
            else:
                parts = [p.strip() for p in s.strip("()").split(",")]
                if len(parts) != 3 or not all(re.fullmatch(r"-?\d{1,11}", p) for p in parts):
                    what = label if argument is None else argument
                    raise InvalidInputError(f"{what} is not a square: {brief(text)} ({expected})")
                x, y, z = (int(p) for p in parts)
            shown = _shown_text(s)
        else:
            try:
                x, y, z = (_as_int(v, "a coordinate") for v in cast("Iterable[object]", text))
            except (TypeError, ValueError, InvalidInputError):
                raise InvalidInputError(f"{label} must be {expected}, got {brief(text)}") from None
            shown = f"({x}, {y}, {z})"
        if not (0 <= x < w and 0 <= y < h and 0 <= z < d):
            raise InvalidInputError(f"{label} {shown} is off the {self.spec} board")
        return self._check_hole((z * h + y) * w + x, shown)

    def _check_hole(self, square: int, shown: str) -> int:
        if square in self.holes:
            raise InvalidInputError(f"square {shown} is a hole of this board")
        return square

    def squares(self) -> Iterator[int]:
        """Every square index on the board, holes excluded, in index order."""
        holes = self.holes
        return (s for s in range(self.area) if s not in holes)

    @overload
    def colour(self, square: int) -> int: ...
    @overload
    def colour(self, square: np.ndarray) -> np.ndarray: ...

    def colour(self, square: int | np.ndarray) -> int | np.ndarray:
        """0 for the colour of ``a1`` (the corner colour), 1 for the other; of each square of an
        array of squares, elementwise.

        >>> import numpy as np
        >>> Board(8, 8).colour(0), Board(8, 8).colour(1), Board(3, 3).colour(np.arange(3))
        (0, 1, array([0, 1, 0]))
        """
        x, y = square % self.width, square // self.width
        if self.depth > 1:
            y, z = y % self.height, y // self.height
            return (x + y + z) & 1
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

    @cached_property
    def deltas3(self) -> tuple[tuple[int, int, int], ...]:
        """The leaper's moves as ``(dx, dy, dz)``: on a 3-D board the permutations of
        ``(0, a, b)`` with every sign (24 for the knight); on a flat board ``dz`` is 0.

        >>> len(Board(4, 4, depth=4).deltas3), Board(4, 4, depth=4).deltas3[:2]
        (24, ((2, 1, 0), (1, 2, 0)))
        """
        if self.depth == 1:
            return tuple((dx, dy, 0) for dx, dy in self.deltas)
        out = [(dx, dy, 0) for dx, dy in self.deltas]
        a, b = self.leaper
        for legs in sorted(set(itertools.permutations((0, a, b)))):
            for sx, sy, sz in itertools.product((1, -1), repeat=3):
                d = (sx * legs[0], sy * legs[1], sz * legs[2])
                if d not in out and d != (0, 0, 0):
                    out.append(d)
        return tuple(out)

    def moves(self, square: int) -> list[int]:
        """The squares a leaper move away from ``square``, in the fixed move order.

        >>> b = Board(8, 8)
        >>> [b.square_name(s) for s in b.moves(b.parse_square("a1"))]
        ['c2', 'b3']
        """
        if not self.is_flat:
            row = self.neighbours[square]
            return [int(t) for t in row if t >= 0]
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
        if not self.is_flat:
            return b in self.moves(a) or a in self.moves(b)
        ax, ay = a % self.width, a // self.width
        bx, by = b % self.width, b // self.width
        d = sorted((abs(ax - bx), abs(ay - by)))
        return tuple(d) == tuple(sorted(self.leaper))

    @cached_property
    def neighbours(self) -> np.ndarray:
        """:meth:`neighbour_table`, made once per board and read-only (shared by the theory,
        the walk and validation)."""
        table = self.neighbour_table()
        table.flags.writeable = False
        return table

    def neighbour_table(self) -> np.ndarray:
        """An ``(area, 8)`` int32 table of neighbour squares, ``-1`` where there is none.

        Rows of holes are all ``-1``. For small-board searches; large boards use
        :meth:`padded`.
        """
        import numpy as np

        deltas = self.deltas3
        self.require_memory(8 + 4 * len(deltas), "a neighbour table")
        n = self.area
        w, h, d = self.width, self.height, self.depth
        idx: np.ndarray = np.arange(n, dtype=np.int64 if n > 2**30 else np.int32)
        x, y, z = idx % w, idx // w % h, idx // (w * h)
        table = np.full((n, len(deltas)), -1, dtype=np.int32)
        hole_mask = np.zeros(n, dtype=bool)
        if self.holes:
            hole_mask[list(self.holes)] = True
        for k, (dx, dy, dz) in enumerate(deltas):
            nx, ny, nz = x + dx, y + dy, z + dz
            if self.wrap is not None:
                nx %= w
            if self.wrap == "torus":
                ny %= h
            ok = (nx >= 0) & (nx < w) & (ny >= 0) & (ny < h) & (nz >= 0) & (nz < d) & ~hole_mask
            t = (nz * h + ny) * w + nx
            ok[ok] &= ~hole_mask[t[ok]]
            ok &= t != idx  # a wrapped move that lands where it began is no move
            table[ok, k] = t[ok]
        small = self.width <= 2 * max(self.leaper) or (
            self.wrap == "torus" and self.height <= 2 * max(self.leaper)
        )
        if self.wrap is not None and small:  # two wrapped moves may land on one square: once
            for k in range(1, len(deltas)):
                dup = (table[:, k : k + 1] == table[:, :k]).any(axis=1) & (table[:, k] >= 0)
                table[dup, k] = -1
        return table

    def padded(self) -> PaddedGrid:
        """The board inside a blocked border as wide as the leaper's longest leg (flat boards)."""
        import numpy as np

        if not self.is_flat:
            raise InvalidInputError(
                f"a padded grid serves flat boards only, not {self.description}: use the "
                f"neighbour table"
            )

        pad = max(self.leaper)
        pw, ph = self.width + 2 * pad, self.height + 2 * pad
        blocked = np.ones((ph, pw), dtype=np.uint8)
        blocked[pad : pad + self.height, pad : pad + self.width] = 0
        flat = blocked.reshape(-1)
        if self.holes:
            h = np.fromiter(self.holes, dtype=np.int64)
            flat[(h // self.width + pad) * pw + h % self.width + pad] = 1
        offsets = np.array([dy * pw + dx for dx, dy in self.deltas], dtype=np.int64)
        return PaddedGrid(pad, pw, ph, flat, offsets)

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
#: A square as the Python API takes it: a name (``'c3'``), an index, or an ``(x, y)`` pair.
SquareLike = str | int | tuple[int, int]
#: The squares of a list of holes: a zero-based ``x,y`` pair (``x,y,z`` on a 3-D board; its
#: comma is part of the square, parentheses around it allowed), or anything else up to the next
#: separator: a comma, a semicolon or white space, in any mix.
_HOLE_ITEMS = {
    flat: re.compile(
        r"\(?\s*-?\d+(?:\s*,\s*-?\d+){" + str(1 if flat else 2) + r"}\s*\)?(?![^,;\s])|[^,;\s]+",
        re.ASCII,
    )
    for flat in (True, False)
}
_T = TypeVar("_T")


def parse_board(
    spec: BoardLike | None,
    *,
    holes: str | Iterable[SquareLike] | None = None,
    mask: str | None = None,
    corners: int | str | None = None,
    leaper: str | tuple[int, int] | None = None,
    wrap: str | None = None,
) -> Board:
    """A :class:`Board` from a spec and the options that shape it: the one parser of boards,
    for the command line, the web and the Python API alike (docs/boards.md, "The specs").

    ``spec`` is ``'WxH'``, ``'WxHxD'``, ``'N'`` (``NxN``), ``(W, H)``, ``N`` or a Board (the
    options then apply on top of it); it may be None when a ``mask`` draws the board. An option
    left out (None, or blank text) leaves the board as the spec gives it:

    - ``holes``: squares removed, as text (names separated by commas, semicolons or spaces, in
      any mix: ``'d4,e5'``, ``'d4; e5'``, ``'d4 e5'``; ``'c3:2'`` on a 3-D board; zero-based
      ``x,y`` squares too, whose comma joins the two numbers: ``'3,3 4,4'``, ``'3,3;4,4'``,
      ``'(3,3),(4,4)'``, ``x,y,z`` on a 3-D board) or as a collection of names, indices or
      ``(x, y)`` pairs;
    - ``mask``: the board drawn as text (:meth:`Board.from_mask`): one rank a line, or ranks
      separated by ``/``, top rank first; ``.`` a square, ``#`` or a space a hole. With a spec
      too, the spec must be the mask's ``WxH``;
    - ``corners``: a whole number R (or its digits): the four corners cut off, rounded by R
      squares (:meth:`Board.with_corners`; 0 cuts nothing);
    - ``leaper``: a name (``'zebra'``) or legs (``'2,3'``, ``(2, 3)``): :func:`parse_leaper`;
    - ``wrap``: ``'cylinder'`` or ``'torus'``, in any case.

    The holes named, the mask's holes and the corners add up (a square removed twice is one
    hole). Bad input is an :class:`InvalidInputError` naming the problem.

    >>> parse_board("8"), parse_board((3, 4)), parse_board(" 10 x 3 ")
    (Board(width=8, height=8), Board(width=3, height=4), Board(width=10, height=3))
    >>> parse_board("8x8", holes="d4; e5 d5,e4", leaper="zebra").description
    '8x8 leaper=2,3 holes=d4,e4,d5,e5'
    >>> parse_board("8x8", holes="3,3; 4,4 d1").description
    '8x8 holes=d1,d4,e5'
    >>> parse_board(None, mask=".#./...").description, parse_board("4x4", corners="1").key
    ('3x2 holes=b2', '4x4 holes=a1,d1,a4,d4')
    >>> parse_board("8y8")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: not a board spec: '8y8' (expected WxH like 8x8, WxHxD like 4x4x4, or N)
    >>> parse_board("5x4", mask=".#./...")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the mask draws a 3x2 board, not 5x4
    """
    holes, mask, corners = _unless_blank(holes), _unless_blank(mask), _unless_blank(corners)
    leaper, wrap = _unless_blank(leaper), _unless_blank(wrap)
    base = None if spec is None else _parse_spec(spec)
    if mask is None:
        if base is None:
            raise InvalidInputError(
                "no board: give a spec (WxH like 8x8, WxHxD like 4x4x4, or N), or a mask that "
                "draws one"
            )
        if holes is None and corners is None and leaper is None and wrap is None:
            return base
    options: dict[str, Any] = {}
    if leaper is not None:
        options["leaper"] = parse_leaper(leaper)
    if wrap is not None:
        if not isinstance(wrap, str):
            raise InvalidInputError(f"wrap must be cylinder or torus, got {brief(wrap)}")
        options["wrap"] = wrap.strip().lower()
    if mask is None:
        assert base is not None  # refused above
        board = replace(base, **options)
    else:
        if not isinstance(mask, str):
            raise InvalidInputError(f"a mask is text, one line a rank; got {brief(mask)}")
        board = Board.from_mask(mask, **options)
        if base is not None:
            if (base.width, base.height, base.depth) != (board.width, board.height, 1):
                raise InvalidInputError(f"the mask draws a {board.spec} board, not {base.spec}")
            board = replace(board, holes=board.holes | base.holes)
    if holes is not None:
        board = replace(board, holes=board.holes | _parse_holes(board, holes))
    if corners is not None:
        board = board.with_corners(_parse_corners(corners))
    return board


def _unless_blank(value: _T) -> _T | None:
    """``value``, or None for blank text: an option of :func:`parse_board` not given."""
    return None if isinstance(value, str) and not value.strip() else value


def _parse_holes(board: Board, holes: str | Iterable[SquareLike]) -> frozenset[int]:
    """The squares that ``holes`` names (text or a collection) on ``board``, holes or not."""
    if isinstance(holes, str):
        items: list[object] = _HOLE_ITEMS[board.depth == 1].findall(holes)
    else:
        try:
            if isinstance(holes, bytes | int):
                raise TypeError
            items = list(holes)
        except TypeError:
            raise InvalidInputError(
                f"holes must be squares (text like 'd4,e5', or a collection), got {brief(holes)}"
            ) from None
    plain = replace(board, holes=frozenset())
    return frozenset(plain.parse_square(h, argument="hole") for h in items)  # type: ignore[arg-type]


def _parse_corners(corners: int | str) -> int:
    """The R of ``corners``: a whole number of squares, or its digits."""
    if not isinstance(corners, str):
        return _as_int(corners, "corners")
    text = corners.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > _MAX_RANK_DIGITS:
        raise InvalidInputError(
            f"corners must be a whole number of squares, like 2; got {brief(corners)}"
        )
    return int(text)


def _parse_spec(spec: BoardLike) -> Board:
    """The board of a spec alone: :func:`parse_board` without options."""
    if isinstance(spec, Board):
        return spec
    expected = "(expected WxH like 8x8, WxHxD like 4x4x4, or N)"
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
        if len(sides) == 3:
            if int(sides[2]) < 1:
                raise InvalidInputError(f"board depth must be at least 1, got {int(sides[2])}")
            return Board(w, h, depth=int(sides[2]))
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
