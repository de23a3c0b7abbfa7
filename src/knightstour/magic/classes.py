"""The classes of semi-magic tours: each class's canonical numbering, family and range.

A *class* is a semi-magic numbering up to the 16 maps that keep it semi-magic: the board's
symmetries (8 on a square board, 4 on a rectangle) times the reversed numbering (``k`` becomes
``N + 1 - k``). Its *canonical numbering* is the image whose squares, in the order of their
numbers, are the lexicographically least: the tour library's canonical form of the numbering
taken as an open tour, so 1 stands on ``a1`` whenever an image puts it there.

The *family* says which of the search's structured passes walks the class, the narrowest first
(:data:`FAMILIES`; boards of 4m x 4n squares, cut into 4 x 4 blocks):

- ``quads``: every run of four numbers 4j + 1 ... 4j + 4 is a *quad* of its block: a knight path
  with one square in each rank and each file of the block (48 of them, the 32 ways round the
  block's four 4-cycles among them; :mod:`knightstour.magic.quads`); Beverley's tour of 1848 is
  one;
- ``quarters``: every such run stays inside one block, on any knight path of four squares
  (:mod:`knightstour.magic.quarters`), and some run is not a quad;
- ``irregular``: some run leaves its block. Only the general search finds them: the start passes
  (:mod:`knightstour.magic.starts`), or the numbered ranges of the two-ended walk.

Other boards have no blocks: their family is ``None``. The *range* of a class on a board the
search takes (at most 64 squares) is the numbered range of its ends, the squares of 1 and N
(:func:`knightstour.magic.search.ranges`): the part of the two-ended walk that holds it. The
same for every numbering of a class, so it is the class's.

>>> from knightstour.tour import Tour
>>> beverley = [  # Beverley's semi-magic tour (1848), from rank 1 up
...     [1, 30, 47, 52, 5, 28, 43, 54], [48, 51, 2, 29, 44, 53, 6, 27],
...     [31, 46, 49, 4, 25, 8, 55, 42], [50, 3, 32, 45, 56, 41, 26, 7],
...     [33, 62, 15, 20, 9, 24, 39, 58], [16, 19, 34, 61, 40, 57, 10, 23],
...     [63, 14, 17, 36, 21, 12, 59, 38], [18, 35, 64, 13, 60, 37, 22, 11]]
>>> tour = Tour(Board(8, 8), np.argsort(np.ravel(beverley)), method="magic")
>>> c = describe(tour)
>>> c.family, c.closed, c.range, c.verdict
('quads', False, 10, 'semi-magic')
>>> c.numbering[0][:4], c.ends
((1, 30, 47, 52), ('a1', 'c8'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from knightstour.board import Board

if TYPE_CHECKING:
    from knightstour.published import Census
    from knightstour.tour import Tour

__all__ = [
    "FAMILIES",
    "MagicClass",
    "Tally",
    "canonical_numbering",
    "classify",
    "describe",
    "family",
    "has_blocks",
    "is_current",
    "range_name",
    "range_of",
    "tally",
]

#: The families, narrowest first: each holds the ones before it.
FAMILIES = ("quads", "quarters", "irregular")


def family(board: Board, order: np.ndarray) -> str | None:
    """The narrowest family (:data:`FAMILIES`) of the numbering that visits ``order``, or None
    on a board that is not cut into 4 x 4 blocks (a side not a multiple of 4).

    >>> import knightstour as kt
    >>> family(Board(8, 8), kt.solve("8x8", start="a1").indices)
    'irregular'
    >>> family(Board(6, 6), kt.solve("6x6", start="a1").indices) is None
    True
    """
    w = board.width
    if not has_blocks(board):
        return None
    order = np.asarray(order, dtype=np.int64)
    x, y = order % w, order // w
    block = (y // 4) * (w // 4) + x // 4
    runs = block.reshape(-1, 4)
    if not (runs == runs[:, :1]).all():
        return "irregular"
    files = (1 << (x % 4)).reshape(-1, 4).sum(axis=1)
    ranks = (1 << (y % 4)).reshape(-1, 4).sum(axis=1)
    return "quads" if ((files == 15) & (ranks == 15)).all() else "quarters"


def has_blocks(board: Board) -> bool:
    """Whether ``board`` is cut into 4 x 4 blocks (both sides multiples of 4): the boards whose
    semi-magic tours have a family.

    >>> has_blocks(Board(8, 12)), has_blocks(Board(6, 6))
    (True, False)
    """
    return board.area > 0 and board.width % 4 == 0 and board.height % 4 == 0


def range_of(board: Board, first: int, last: int) -> int | None:
    """The numbered range of the semi-magic search that holds the numberings with 1 on
    ``first`` and N on ``last`` (None on a board the search does not take, or for two squares of
    one colour, which no tour of an even board joins).

    >>> from knightstour.magic.search import ranges
    >>> b = Board(8, 8)
    >>> range_of(b, 0, 1), ranges(8, 8)[0].first, ranges(8, 8)[0].last
    (1, 0, 1)
    >>> range_of(b, 7, 6), range_of(b, 0, 2)   # h1-g1 is a1-b1 reflected; a1-c1: one colour
    (1, None)
    """
    from knightstour.magic.search import MAX_AREA

    if not 1 < board.area <= MAX_AREA or board.holes or not board.is_plain_knight:
        return None
    from knightstour.magic.search import range_numbers

    return range_numbers(board.width, board.height).get((int(first), int(last)))


def canonical_numbering(board: Board, order: np.ndarray) -> np.ndarray:
    """The class's canonical visiting order: of the numbering's images under the board's
    symmetries and reversal, the one whose squares in number order are the least (the tour
    library's canonical form of an open tour: the tests hold the two equal).

    >>> import knightstour as kt
    >>> t = kt.solve("5x5", start="e5")
    >>> int(t.indices[0]), int(canonical_numbering(t.board, t.indices)[0])
    (24, 0)
    """
    from knightstour.board import symmetries

    perms, _ = symmetries(board.width, board.height)
    images = perms[:, np.asarray(order, dtype=np.int64)]
    images = np.concatenate([images, images[:, ::-1]])
    least = min(images.tolist())
    return np.asarray(least, dtype=np.int32)


@dataclass(frozen=True)
class MagicClass:
    """One class of semi-magic tours: its canonical numbering and what it is.

    ``order``: the canonical numbering's squares in number order; ``closed``: N is a move from 1
    (the tour is reentrant); ``family``: :func:`family`; ``range``: :func:`range_of` its ends;
    ``verdict``: ``semi-magic``, or ``magic`` when both long diagonals add up too; ``id``: the
    library's id of the stored tour, when it came from a library; ``start_pass``: the start
    pass that walks the class (:func:`start_pass_of`; None on a board the search does not take).
    """

    board: Board
    order: tuple[int, ...]
    closed: bool
    family: str | None
    range: int | None
    verdict: str
    id: int | None = None
    start_pass: int | None = None

    @property
    def numbering(self) -> tuple[tuple[int, ...], ...]:
        """The canonical numbering, rank by rank from rank 1 (``numbering[y][x]``)."""
        w, h = self.board.width, self.board.height
        grid = [[0] * w for _ in range(h)]
        for k, s in enumerate(self.order):
            grid[s // w][s % w] = k + 1
        return tuple(tuple(row) for row in grid)

    @property
    def ends(self) -> tuple[str, str]:
        """The squares of 1 and N in the canonical numbering."""
        return self.board.square_name(self.order[0]), self.board.square_name(self.order[-1])

    def summary(self) -> str:
        """What the class is, in one line: closed or open, family, range and ends, verdict.

        >>> import knightstour as kt
        >>> from knightstour.magic import find
        >>> from knightstour.library.magic import MagicJournal
        >>> from knightstour.library.store import Library
        >>> tour = find("12x12", MagicJournal(Library(":memory:"), 12, 12)).tours[0].tour
        >>> describe(tour).summary()
        'open, quads, 1 on f5 and 144 on g5, semi-magic'
        """
        kind = "closed" if self.closed else "open"
        fam = f"{self.family}, " if self.family else ""
        rng = f"range {self.range}: " if self.range is not None else ""
        first, last = self.ends
        start = ""
        if self.start_pass is not None:
            from knightstour.magic.starts import FIRST_START, start_walker

            sq = start_walker(self.board.width, self.board.height).starts
            name = self.board.square_name(sq[FIRST_START - self.start_pass])
            start = f", start pass {self.start_pass} ({name})"
        return (
            f"{kind}, {fam}{rng}1 on {first} and {len(self.order)} on {last}, {self.verdict}{start}"
        )

    def text(self) -> str:
        """The numbering as a board of numbers, the top rank first (as ``board_text``)."""
        wide = len(str(len(self.order)))
        return "\n".join(" ".join(f"{v:>{wide}}" for v in row) for row in self.numbering[::-1])

    def to_dict(self) -> dict[str, Any]:
        """The class as JSON: the tour JSON's fields of its canonical numbering (an open path,
        ``"method": "magic"``), ``numbering`` (ranks from rank 1), ``reentrant``, ``family``,
        ``range``, ``verdict`` and the library ``id``."""
        b = self.board
        return {
            "id": self.id,
            "width": b.width,
            "height": b.height,
            "closed": False,
            "method": "magic",
            "path": [b.square_name(s) for s in self.order],
            "xy": [list(b.xy(s)) for s in self.order],
            "numbering": [list(row) for row in self.numbering],
            "reentrant": self.closed,
            "family": self.family,
            "range": self.range,
            "verdict": self.verdict,
            "start_pass": self.start_pass,
        }


def _searched(board: Board) -> bool:
    """Whether the search takes ``board`` (and so has start passes)."""
    from knightstour.magic.search import MAX_AREA, refusal

    return 1 < board.area <= MAX_AREA and refusal(board.width, board.height) is None


def start_pass_of(board: Board, order: Sequence[int] | np.ndarray) -> int | None:
    """The start pass (:mod:`knightstour.magic.starts`, range -2, -3, ...) that walks the tour
    visiting ``order`` or one of its images; None on a board the search does not take.

    >>> from knightstour.numbering import BEVERLEY, grid_order
    >>> start_pass_of(Board(8, 8), grid_order(BEVERLEY)), start_pass_of(Board(12, 12), [0])
    (-2, None)
    """
    from knightstour.magic.starts import FIRST_START, start_walker

    if not _searched(board):
        return None
    home = start_walker(board.width, board.height).home([int(s) for s in order])
    return None if home is None else FIRST_START - home[0]


def describe(tour: Tour, *, tour_id: int | None = None) -> MagicClass:
    """The class of a semi-magic tour (read as the numbering it is, 1 on its first square).

    Refuses a tour that is not semi-magic with :class:`~knightstour.errors.InvalidInputError`,
    naming the first line that misses its constant.

    >>> import knightstour as kt
    >>> describe(kt.solve("5x5", start="a1"))
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the tour on 5x5 is not semi-magic: ranks should add up to 65: rank 1 adds up to 55, ...
    """
    from knightstour.errors import InvalidInputError

    sums = tour.magic()
    if sums.verdict == "neither":
        why = sums.misses()[0]  # its ranks or its files: a semi-magic tour's diagonals are free
        raise InvalidInputError(f"the tour on {tour.board.spec} is not semi-magic: {why}")
    return classify(tour.board, tour.indices, str(sums.verdict), tour_id=tour_id)


def classify(
    board: Board, order: np.ndarray, verdict: str, *, tour_id: int | None = None
) -> MagicClass:
    """The class of the numbering that visits ``order``, already known to be ``verdict``
    (``semi-magic`` or ``magic``): what :func:`describe` gives once the sums are checked, for
    callers that check a whole batch at once (:func:`knightstour.numbering.magic_masks`).

    >>> import knightstour as kt
    >>> from knightstour.magic.construct import construct
    >>> c = classify(Board(12, 12), construct(12, 12, seed=1), "semi-magic")
    >>> c.family, c.range, len(c.order)
    ('quads', None, 144)
    """
    least = canonical_numbering(board, order)
    return MagicClass(
        board=board,
        order=tuple(int(s) for s in least),
        closed=bool(board.is_move(int(least[-1]), int(least[0]))),
        family=family(board, least),
        range=range_of(board, int(least[0]), int(least[-1])),
        verdict=verdict,
        id=tour_id,
        start_pass=start_pass_of(board, least),
    )


@dataclass(frozen=True)
class Tally:
    """How many classes a listing holds, by family (``(classes, closed)`` each; empty on a board
    not cut into blocks), and the published census where there is one (8x8). ``closed`` and
    ``diagonal``: the listing keeps only the closed (reentrant) or the magic classes.

    >>> t = tally(Board(8, 8), [])
    >>> t.classes, t.families["quads"], t.published().closed
    (0, (0, 0), 63)
    """

    board: Board
    families: dict[str, tuple[int, int]]
    classes: int
    reentrant: int
    closed: bool = False
    diagonal: bool = False
    #: the classes by the start pass that walks them (:attr:`MagicClass.start_pass`), by the
    #: pass's start square; empty on a board the search does not take
    starts: dict[str, int] = field(default_factory=dict)
    #: what the search's journal holds of the board: each range walked whole or in part
    #: (:meth:`knightstour.library.store.journal.Journal.walked`)
    searched: list[dict[str, Any]] = field(default_factory=list)

    def published(self) -> Census | None:
        """The published census of the board's semi-magic tours (None: none is published)."""
        from knightstour.published import census

        c = census()
        return c if c.board == self.board.spec else None

    def family_line(self) -> str | None:
        """The classes by family in one line (None on a board not cut into blocks).

        >>> tally(Board(8, 8), []).family_line()
        'by family: quads 0, quarters 0, irregular 0'
        """
        if not self.families:
            return None
        return "by family: " + ", ".join(
            f"{f} {n}" + (f" ({m} closed)" if n and not self.closed else "")
            for f, (n, m) in self.families.items()
        )

    def text(self, db: str) -> str:
        """The listing's first lines: the classes held, by family, and the published census.

        >>> print(tally(Board(6, 6), []).text("tours.db"))
        0 classes of semi-magic tours of 6x6 in tours.db, 0 of them closed
        """
        kind = "magic" if self.diagonal else "semi-magic"
        what = ("closed " if self.closed else "") + f"{kind} tours"
        noun = "class" if self.classes == 1 else "classes"
        line = f"{self.classes} {noun} of {what} of {self.board.spec} in {db}"
        if not self.closed:
            line += f", {self.reentrant} of them closed"
        c = self.published()
        if c is not None:
            line += (f"; the published census ({', '.join(c.authors)}, {c.year}) has "
                     f"{c.classes}, {c.closed} closed, {c.magic} magic")  # fmt: skip
        fams = self.family_line()
        if fams is not None:
            line += f"\n{fams}"
        if self.classes and self.starts:
            line += "\nby start pass: " + ", ".join(f"{k} {n}" for k, n in self.starts.items())
        walked = self.searched_line()
        if walked is not None:
            line += f"\n{walked}"
        return line

    def searched_line(self) -> str | None:
        """How far the search got, in one line (None when the journal holds nothing): each
        pass walked whole or under way (its parts walked, and the walks of parts stopped on the
        way), the numbered ranges counted, the nodes and the parts' own time summed over the
        workers; walks by earlier versions of the search are counted apart.

        >>> rows = [{"scheme": "quads/3", "range": 0, "whole": True, "parts": 192, "saved": 0,
        ...          "found": 1680, "nodes": 296786104, "seconds": 178.6},
        ...         {"scheme": "starts/1", "range": -9, "whole": False, "parts": 1273, "saved": 2,
        ...          "found": 0, "nodes": 38895103849, "seconds": 12000.0},
        ...         {"scheme": "quads/2", "range": 0, "whole": True, "parts": 1, "saved": 0,
        ...          "found": 0, "nodes": 5, "seconds": 1.0}]
        >>> print(tally(Board(8, 8), [], searched=rows).searched_line())
        searched so far: the quad pass whole; start pass c3 under way (1,273 parts, 2 walks stopped on the way); 39,191,889,953 nodes in 3.4 hours of walking (1 range walked by an earlier version of the search apart)
        """
        if not self.searched:
            return None
        current = [r for r in self.searched if is_current(r["scheme"])]
        older = len(self.searched) - len(current)
        said, numbered = [], [0, 0, 0]
        for r in current:
            name = range_name(self.board, r["scheme"], r["range"])
            if name is None:  # a numbered range: counted
                numbered[0 if r["whole"] else 1] += 1
                numbered[2] += 0 if r["whole"] else r["parts"]
                continue
            stopped = r.get("saved", 0)
            way = _parts(r["parts"]) + (
                f", {stopped:,} walk{'' if stopped == 1 else 's'} stopped on the way"
                if stopped
                else ""
            )
            said.append(f"{name} whole" if r["whole"] else f"{name} under way ({way})")
        if any(numbered[:2]):
            said.append(
                f"numbered ranges: {numbered[0]} whole, {numbered[1]} under way"
                + (f" ({_parts(numbered[2])})" if numbered[1] else "")
            )
        nodes = sum(r["nodes"] for r in current)
        seconds = sum(r["seconds"] for r in current)
        spent = f"{seconds / 3600:.1f} hours" if seconds >= 360 else f"{seconds:.0f} s"
        line = f"searched so far: {'; '.join(said) or 'nothing'}; {nodes:,} nodes in {spent} of walking"
        if older:
            line += (f" ({older} range{'' if older == 1 else 's'} walked by an earlier version of "
                     "the search apart)")  # fmt: skip
        return line

    def to_dict(self) -> dict[str, Any]:
        """The tally as JSON: the board, the classes and the closed ones (``reentrant``: 1 and
        N a move apart, as in each class's JSON, whose ``closed`` is false: a numbering is an
        open path), by family (empty on a board not cut into blocks), the filters, and the
        published census (or null).

        >>> tally(Board(6, 6), []).to_dict()["families"], tally(Board(8, 8), []).to_dict()["filters"]
        ({}, {'closed': False, 'diagonal': False})
        """
        c = self.published()
        return {
            "width": self.board.width,
            "height": self.board.height,
            "classes": self.classes,
            "reentrant": self.reentrant,
            "families": {
                f: {"classes": n, "reentrant": m} for f, (n, m) in self.families.items()
            },
            "filters": {"closed": self.closed, "diagonal": self.diagonal},
            "start_passes": self.starts,
            "searched": [
                {**r, "name": range_name(self.board, r["scheme"], r["range"])} for r in self.searched
            ],
            "published": None if c is None else {
                "classes": c.classes, "reentrant": c.closed, "magic": c.magic,
                "source": f"{', '.join(c.authors)} ({c.year}), {c.url}",
            },
        }  # fmt: skip


def _parts(n: int) -> str:
    return f"{n:,} part{'' if n == 1 else 's'}"


def is_current(scheme: str) -> bool:
    """Whether a journal's scheme is one this version of the search walks (a pass or the
    numbered ranges, of closed tours or not), not an earlier version's.

    >>> is_current("starts/1/closed"), is_current("quads/2")
    (True, False)
    """
    from knightstour.magic._parts import SCHEME as NUMBERED
    from knightstour.magic.quads import SCHEME as QUADS
    from knightstour.magic.quarters import SCHEME as QUARTERS
    from knightstour.magic.starts import SCHEME as STARTS

    return scheme.removesuffix("/closed") in {NUMBERED, QUADS, QUARTERS, STARTS}


def range_name(board: Board, scheme: str, number: int) -> str | None:
    """The name of a pass of the search (None for a numbered range), from its journal's scheme
    and number.

    >>> range_name(Board(8, 8), "starts/1/closed", -9), range_name(Board(8, 8), "two-ended/1", 5)
    ('start pass c3 of closed tours', None)
    """
    closed = " of closed tours" if scheme.endswith("/closed") else ""
    if scheme.startswith("quads/"):
        return f"the quad pass{closed}"
    if scheme.startswith("quarters/"):
        return f"the quarter pass{closed}"
    if scheme.startswith("starts/"):
        from knightstour.magic.starts import FIRST_START, start_walker

        starts = start_walker(board.width, board.height).starts
        i = FIRST_START - number
        where = board.square_name(starts[i]) if 0 <= i < len(starts) else str(number)
        return f"start pass {where}{closed}"
    return None


def tally(
    board: Board,
    classes: list[MagicClass],
    *,
    closed: bool = False,
    diagonal: bool = False,
    searched: list[dict[str, Any]] | None = None,
) -> Tally:
    """Count ``classes`` by family (every family of the board, those with none too), beside
    what the search's journal holds of the board (``searched``).

    >>> tally(Board(8, 8), []).text("tours.db").splitlines()[1]
    'by family: quads 0, quarters 0, irregular 0'
    """
    counts = {f: (0, 0) for f in FAMILIES} if has_blocks(board) else {}
    for c in classes:
        if c.family is not None:
            n, m = counts[c.family]
            counts[c.family] = (n + 1, m + int(c.closed))
    reentrant = sum(int(c.closed) for c in classes)
    starts: dict[str, int] = {}
    if _searched(board):
        from knightstour.magic.starts import FIRST_START, start_walker

        squares = start_walker(board.width, board.height).starts
        for i, sq in enumerate(squares):
            starts[board.square_name(sq)] = sum(c.start_pass == FIRST_START - i for c in classes)
    return Tally(board, counts, len(classes), reentrant, closed, diagonal, starts, searched or [])
