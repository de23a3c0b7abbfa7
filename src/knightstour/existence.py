"""Whether a tour can exist, and why not: theorems, colour parity, and a bounded exact search.

:func:`exists` answers ``True``, ``False`` or ``None`` (undecided) with a human reason. Theorems
and parity answer instantly on any board. Where they are silent (given start and end squares, a
closed tour through a given move, boards with holes), a board of at most :data:`SEARCH_AREA`
squares is settled by the exact search of :mod:`knightstour.solvers.backtrack` within
:data:`SEARCH_NODES` positions; ``None`` means that bound was hit, or the board is too large to
search.

>>> exists("4x4").exists, exists("5x5", closed=True).reason.split(":")[0]
(False, 'no closed tour on 5x5')
>>> exists("8x8", start="a1", end="h8").reason
'no tour from a1 to h8: a1 and h8 have the same colour, but on a board with an even number of squares a tour starts and ends on different colours'

Sources:

- Schwenk, A. J. (1991). Which rectangular chessboards have a knight's tour? *Mathematics
  Magazine* 64(5), 325-332: closed tours on m × n (m ≤ n) exist unless m and n are both odd,
  m ∈ {1, 2, 4}, or m = 3 and n ∈ {4, 6, 8}.
- Conrad, A., Hindrichs, T., Morsy, H., Wegener, I. (1994). Solution of the knight's Hamiltonian
  path problem on chessboards. *Discrete Applied Mathematics* 50, 125-134: open tours exist
  unless the board is 1 × n (n > 1), 2 × n, 3 × 3, 3 × 5, 3 × 6 or 4 × 4.
- Colour parity: a knight's move always changes the colour of its square, so a tour alternates
  colours. The 4 × n argument colours the two outer lines A and the two inner lines B: every move
  from A lands on B, and with the chessboard colouring this forces both ends of an open tour onto
  the outer lines (and rules out closed tours).
- Start squares on boards without closed tours (3 × n, 4 × n, odd × odd): on every board of area
  <= 64 (:data:`VERIFIED_AREA`), every start square allowed by colour parity and the 4 × n rule
  admits an open tour, except the squares of the two middle ranks of 3 × 4 (Euler's three 3 × 4
  tours all run between the end ranks, Euler 1759), the centre of 3 × 7, and b3, b6 of 3 × 8
  (see Jelliss, *Knight's Tour Notes* 3a, "Open knight's tours of three-rank boards", 2000).
  Verified by this package's exhaustive search on every such board and square
  (``tests/test_existence.py``), and against a plain enumerator up to area 30.
- Beyond that area, every start square that colour parity and the 4 × n rule allow admits a tour
  by construction: the ``divide`` method assembles one from stored block tours (odd × odd
  boards: an open block tour from every corner-coloured square; 3 × n and 4 × n: lanes), and
  ``tests/test_existence.py`` builds and validates them from every such square on a range of
  larger boards.
- Given start and end squares on n × n boards, n >= 6: Conrad et al. (1994) show a tour runs
  between any two squares that colour parity allows (checked here by exhaustive search on 6 × 6,
  7 × 7 and 8 × 8 for every pair; 5 × 5 has exceptions).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from knightstour.board import Board, BoardLike, parse_board

__all__ = [
    "SEARCH_AREA",
    "SEARCH_NODES",
    "VERIFIED_AREA",
    "Existence",
    "closed_tour_exists",
    "colour_obstruction",
    "exists",
    "open_tour_exists",
    "start_squares",
]

#: Boards up to this many squares are settled by the exact search where theory is silent ...
SEARCH_AREA = 100
#: ... within this many positions (about a second at most).
SEARCH_NODES = 1_000_000
#: The start-square facts of boards without closed tours are verified up to this area.
VERIFIED_AREA = 64
#: Start squares with no open tour on 3 x n boards beyond colour parity, as (x, y) with the board
#: turned 3 wide: x across, y along the long side. Every other square colour parity allows
#: admits a tour on 3 x n boards of area <= VERIFIED_AREA.
THREE_WIDE_EXCEPTIONS: dict[int, frozenset[tuple[int, int]]] = {
    4: frozenset((x, y) for x in range(3) for y in (1, 2)),
    7: frozenset({(1, 3)}),
    8: frozenset({(1, 2), (1, 5)}),
}


@dataclass(frozen=True)
class Existence:
    """An answer from :func:`exists`: ``exists`` is True, False or None (unknown), with a reason.

    ``bool(answer)`` is True only when a tour is known to exist.
    """

    exists: bool | None
    reason: str

    def __bool__(self) -> bool:
        return self.exists is True

    def to_dict(self) -> dict[str, object]:
        """``{"exists": ..., "reason": ...}``."""
        return {"exists": self.exists, "reason": self.reason}


def _sides(board: Board) -> tuple[int, int]:
    return min(board.width, board.height), max(board.width, board.height)


def closed_tour_exists(board: BoardLike) -> Existence:
    """Schwenk's theorem: whether the board has a closed tour, with the reason.

    >>> closed_tour_exists("3x10").exists, closed_tour_exists("3x8").exists
    (True, False)
    """
    b = parse_board(board)
    if not b.is_plain_knight:
        return _generic(b, None, None, closed=True)
    m, n = _sides(b)
    spec = b.spec
    if b.size == 1:
        return Existence(False, f"no closed tour on {spec}: one square has no move to close")
    if m % 2 and n % 2:
        return Existence(
            False,
            f"no closed tour on {spec}: it has {b.size} squares, an odd number, but a knight's "
            f"move always changes colour, so a closed tour covers as many light squares as dark "
            f"(Schwenk 1991)",
        )
    if m == 1:
        return Existence(False, f"no closed tour on {spec}: a knight cannot move on a board 1 wide")
    if m == 2:
        return Existence(
            False,
            f"no closed tour on {spec}: on a board 2 wide the corner squares have at most one move, "
            f"and a closed tour enters and leaves every square (Schwenk 1991)",
        )
    if m == 4:
        return Existence(
            False,
            f"no closed tour on {spec}: every move from the two outer lines lands on the two "
            f"inner lines, so a closed tour would alternate outer and inner squares and put all "
            f"outer squares on one colour, but they are half light and half dark (Schwenk 1991)",
        )
    if m == 3 and n in (4, 6, 8):
        return Existence(
            False,
            f"no closed tour on {spec}: 3x4, 3x6 and 3x8 are the exceptions of Schwenk's theorem "
            f"(Schwenk 1991)",
        )
    return Existence(
        True,
        f"{spec} has a closed tour (Schwenk 1991: every m x n board with m <= n has one unless "
        f"both are odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8)",
    )


def open_tour_exists(board: BoardLike) -> Existence:
    """The open-tour theorem: whether the board has any tour, with the reason.

    >>> open_tour_exists("3x4").exists, open_tour_exists("3x5").exists, open_tour_exists("1x1").exists
    (True, False, True)
    """
    b = parse_board(board)
    if not b.is_plain_knight:
        return _generic(b, None, None, closed=False)
    m, n = _sides(b)
    spec = b.spec
    if b.size == 1:
        return Existence(True, "a 1x1 board is toured by standing on its one square")
    if m == 1:
        return Existence(False, f"no tour on {spec}: a knight cannot move on a board 1 wide")
    if m == 2:
        return Existence(
            False,
            f"no tour on {spec}: on a board 2 wide every move changes the long coordinate by 2, "
            f"so squares an odd distance apart along it are never connected",
        )
    if (m, n) == (3, 3):
        return Existence(False, "no tour on 3x3: the centre square has no knight's move at all")
    if (m, n) in ((3, 5), (3, 6), (4, 4)):
        return Existence(
            False,
            f"no tour on {spec}: one of the four exceptions of the open-tour theorem "
            f"(3x3, 3x5, 3x6, 4x4; Conrad et al. 1994), confirmed by exhaustive search",
        )
    return Existence(
        True,
        f"{spec} has a tour (Conrad et al. 1994: every board has one except 1xn, 2xn, "
        f"3x3, 3x5, 3x6 and 4x4)",
    )


def exists(
    board: BoardLike,
    start: str | int | tuple[int, int] | None = None,
    *,
    end: str | int | tuple[int, int] | None = None,
    closed: bool = False,
    search: bool = True,
) -> Existence:
    """Whether a tour exists on ``board`` (from ``start``, to ``end``, closed), with the reason.

    Theorems and parity first, instantly. Where they are silent, on boards of at most
    :data:`SEARCH_AREA` squares, the exact search decides within :data:`SEARCH_NODES`
    positions (about a second at most) unless ``search=False``; ``exists`` is ``None`` when
    neither decides.

    >>> exists("5x5", start="b1").reason
    'no tour from b1 on 5x5: the board has 13 squares of the corner colour and 12 of the other; a knight alternates colours, so a tour starts and ends on the corner colour, and b1 is not'
    >>> exists("8x8", start="e4", closed=True).exists
    True
    >>> exists("4x5", start="b2").exists
    False
    """
    b = parse_board(board)
    s = None if start is None else b.parse_square(start)
    e = None if end is None else b.parse_square(end)
    if not b.is_plain_knight:
        verdict = _generic(b, s, e, closed)
        if verdict.exists is None:
            return _by_search(search, b, s, e, closed, verdict.reason)
        return verdict
    whole = closed_tour_exists(b) if closed else open_tour_exists(b)
    if not whole.exists:
        return whole
    if s is None and e is None:
        return whole
    name = b.square_name
    if s is not None and e is not None:
        if s == e and b.size > 1:
            return Existence(
                False, f"no tour from {name(s)} to itself: a tour visits each square once"
            )
        verdict = _colour_ends(b, s, e)
        if verdict is not None:
            return verdict
    if closed:
        if s is not None and e is not None:
            if not b.is_move(s, e):
                return Existence(
                    False,
                    f"no closed tour from {name(s)} to {name(e)}: a closed tour ends a knight's "
                    f"move from its start, and {name(e)} is not",
                )
            return _by_search(
                search,
                b,
                s,
                e,
                closed,
                f"{b.spec} has closed tours, but no theorem decides whether one uses the move "
                f"{name(e)}-{name(s)}",
            )
        sq = s if s is not None else e
        return Existence(
            True,
            f"{b.spec} has a closed tour (Schwenk 1991), and a closed tour can start from any "
            f"square of its cycle, {name(sq)} included",
        )

    # open tours with a given start and/or end, on a board that has open tours
    for sq, role in ((s, "from"), (e, "to")):
        if sq is not None:
            verdict = _single_end(b, sq, role)
            if verdict is not None and verdict.exists is False:
                return verdict
    if s is not None and e is not None:
        m, n = _sides(b)
        if m == n >= 6:
            return Existence(
                True,
                f"a tour runs from {name(s)} to {name(e)} on {b.spec}: on n x n boards with "
                f"n >= 6 a tour joins any two squares that colour parity allows (Conrad et al. "
                f"1994)",
            )
        return _by_search(
            search,
            b,
            s,
            e,
            False,
            f"no theorem decides whether a tour runs from {name(s)} to {name(e)} on {b.spec}",
        )
    sq, role = (s, "from") if s is not None else (e, "to")
    assert sq is not None
    if closed_tour_exists(b).exists:
        return Existence(
            True,
            f"{b.spec} has a closed tour (Schwenk 1991); cut open at {name(sq)}, it is an open "
            f"tour {role} {name(sq)}",
        )
    verdict = _single_end(b, sq, role)
    if verdict is not None:
        return verdict
    return _by_search(
        search,
        b,
        s,
        e,
        False,
        f"no theorem decides whether a tour runs {role} {name(sq)} on {b.spec}",
    )


def _colour_ends(b: Board, s: int, e: int) -> Existence | None:
    """Colour parity of a tour's two ends (knight: every move changes colour)."""
    name = b.square_name
    cs, ce = b.colour(s), b.colour(e)
    if b.size % 2 == 0 and cs == ce:
        return Existence(
            False,
            f"no tour from {name(s)} to {name(e)}: {name(s)} and {name(e)} have the same colour, "
            f"but on a board with an even number of squares a tour starts and ends on different "
            f"colours",
        )
    if b.size % 2 == 1 and (cs or ce):
        bad = name(s) if cs else name(e)
        return Existence(
            False,
            f"no tour from {name(s)} to {name(e)}: the board has one more square of the corner "
            f"colour than of the other, so a tour starts and ends on the corner colour, and "
            f"{bad} is not",
        )
    return None


def _on_outer_line(b: Board, sq: int) -> bool:
    x, y = b.xy(sq)
    if b.height == 4 and b.width >= 4:
        return y in (0, 3)
    return x in (0, 3)


def _single_end(b: Board, sq: int, role: str) -> Existence | None:
    """What theory says of a tour with ``sq`` as its start (``role='from'``) or end (``'to'``).

    Only called for boards that have an open tour.
    """
    name = b.square_name(sq)
    m, _n = _sides(b)
    if b.size % 2 == 1 and b.colour(sq) == 1:
        odd = (b.size + 1) // 2
        return Existence(
            False,
            f"no tour {role} {name} on {b.spec}: the board has {odd} squares of the corner colour "
            f"and {odd - 1} of the other; a knight alternates colours, so a tour starts and ends "
            f"on the corner colour, and {name} is not",
        )
    if m == 4 and not _on_outer_line(b, sq):
        return Existence(
            False,
            f"no tour {role} {name} on {b.spec}: every move from the two outer lines lands on the "
            f"inner two, so with the colours alternating both ends of a tour lie on an outer "
            f"line, and {name} is on an inner one",
        )
    return _small_board_fact(b, sq, role)


def _small_board_fact(b: Board, sq: int, role: str) -> Existence | None:
    """Start squares on boards without closed tours that admit a tour, where known.

    Called after colour parity and the 4 x n rule, for boards with open but no closed tours.
    """
    m, n = _sides(b)
    name = b.square_name(sq)
    x, y = b.xy(sq)
    if b.width > b.height:
        x, y = y, x
    if m == 3 and (x, y) in THREE_WIDE_EXCEPTIONS.get(n, ()):
        return Existence(
            False,
            f"no tour {role} {name} on {b.spec}: exhaustive search finds none (3x4, 3x7 and 3x8 "
            f"have start squares without a tour beyond colour parity; Jelliss 2000)",
        )
    if b.size <= VERIFIED_AREA:
        return Existence(
            True,
            f"a tour runs {role} {name} on {b.spec}: on every board of up to {VERIFIED_AREA} "
            f"squares, each square that colour parity (and the 4 x n rule) allows is the end of "
            f"a tour, but for a few on 3x4, 3x7 and 3x8 (verified by exhaustive search)",
        )
    if m >= 3:
        return Existence(
            True,
            f"a tour runs {role} {name} on {b.spec}, by construction: the divide-and-conquer "
            f"method builds one from every square that colour parity (and the 4 x n rule) "
            f"allows on boards larger than {VERIFIED_AREA} squares, from stored block tours "
            f"(Parberry 1997; see docs/divide.md)",
        )
    return None


def _by_search(
    search: bool, b: Board, s: int | None, e: int | None, closed: bool, silent: str
) -> Existence:
    """The exact search's answer on a small board, within a bound; ``silent`` when not asked."""
    if not search:
        return Existence(None, silent)
    if b.size > SEARCH_AREA:
        return Existence(
            None, f"{silent} (and {b.spec} is too large for a quick exhaustive search)"
        )
    return _search_answer(b, s, e, closed, silent)


@lru_cache(maxsize=4096)
def _search_answer(b: Board, s: int | None, e: int | None, closed: bool, silent: str) -> Existence:
    from knightstour.errors import NoTourError, SearchFailedError
    from knightstour.solvers.backtrack import exact_search

    try:
        exact_search(b, s, e, closed, node_limit=SEARCH_NODES)
    except NoTourError as err:
        return Existence(False, err.reason)
    except SearchFailedError:
        return Existence(
            None, f"{silent}, and an exhaustive search gave up after {SEARCH_NODES:,} positions"
        )
    name = b.square_name
    what = "a closed tour" if closed else "a tour"
    where = "".join(f" {word} {name(q)}" for word, q in (("from", s), ("to", e)) if q is not None)
    return Existence(True, f"exhaustive search finds {what}{where} on {b.spec}")


def start_squares(board: BoardLike, *, closed: bool = False) -> dict[int, Existence]:
    """For every square, whether a tour starts there (:func:`exists` with that start).

    >>> m = start_squares("3x4")
    >>> "".join("Y" if m[q] else "." for q in sorted(m))
    'YYY......YYY'
    """
    b = parse_board(board)
    return {q: exists(b, q, closed=closed) for q in b.squares()}


def colour_obstruction(
    board: Board, start: int | None, end: int | None, closed: bool
) -> str | None:
    """Why colour counts rule a tour out, or None (only for leapers that always change colour).

    Works on any board, holes included: a path alternates colours, so a closed tour needs as many
    squares of each colour, an open one needs them within one, with both ends on the majority
    colour when they differ, and ends of different colours when they are equal.

    >>> colour_obstruction(Board(5, 5), 1, None, False)
    'b1 has the minority colour: the board has 13 squares of one colour and 12 of the other, and a path that alternates colours starts and ends on the majority colour'
    """
    a, c = board.leaper
    if (a + c) % 2 == 0:
        return None
    ones = sum(board.colour(q) for q in board.squares())
    zeros = board.size - ones
    if closed and ones != zeros:
        return (
            f"the board has {zeros} squares of one colour and {ones} of the other, and a closed "
            f"tour alternates colours, so it needs as many of each"
        )
    if abs(ones - zeros) > 1:
        return (
            f"the board has {zeros} squares of one colour and {ones} of the other, and a path "
            f"that alternates colours needs them within one"
        )
    name = board.square_name
    if ones != zeros:
        minority = 1 if ones < zeros else 0
        for sq in (start, end):
            if sq is not None and board.colour(sq) == minority:
                return (
                    f"{name(sq)} has the minority colour: the board has {max(ones, zeros)} "
                    f"squares of one colour and {min(ones, zeros)} of the other, and a path that "
                    f"alternates colours starts and ends on the majority colour"
                )
    elif start is not None and end is not None and board.colour(start) == board.colour(end):
        return (
            f"{name(start)} and {name(end)} have the same colour, but a path that alternates "
            f"colours over an even number of squares ends on the other colour"
        )
    return None


def _generic(b: Board, s: int | None, e: int | None, closed: bool) -> Existence:
    """Boards with holes or other leapers: only counting and colour arguments apply."""
    if b.size == 0:
        return Existence(False, "the board has no squares")
    why = colour_obstruction(b, s, e, closed)
    if why is not None:
        return Existence(False, f"no {'closed ' if closed else ''}tour: {why}")
    return Existence(None, "no theorem covers this board")
