"""Every theorem and parity argument about tours: a verdict with a reason from a Board, no search.

:func:`verdict` answers ``True``, ``False`` or ``None`` (theory is silent) with a human reason, in
microseconds on any board. It never searches: :func:`knightstour.exists` adds a bounded exact
search where theory is silent, and the exact search itself starts from :func:`obstruction`, the
part of the theory that holds on every board (holes and other leapers included).
:func:`start_mask` gives the verdict for every start square at once, quickly on any board.

>>> from knightstour.board import Board
>>> verdict(Board(4, 4)).exists, verdict(Board(5, 5), closed=True).reason.split(":")[0]
(False, 'no closed tour on 5x5')
>>> verdict(Board(8, 8), 0, 63).reason
'no tour from a1 to h8: a1 and h8 have the same colour, but on a board with an even number of squares a tour starts and ends on different colours'
>>> print(verdict(Board(3, 10), 0, 7, closed=True).exists)
None

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
  between any two squares that colour parity allows (checked here by exhaustive search on 6 × 6
  and 7 × 7 for every pair, ``tests/test_existence.py``; 5 × 5 has exceptions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from knightstour.board import Board, file_name
from knightstour.errors import InvalidInputError

__all__ = [
    "PER_SQUARE_AREA",
    "THREE_WIDE_EXCEPTIONS",
    "VERIFIED_AREA",
    "Existence",
    "check_ends",
    "closed_tour_theorem",
    "colour_parity",
    "describe_tour",
    "four_wide",
    "independent_lines",
    "island_obstruction",
    "line_obstruction",
    "line_places",
    "obstruction",
    "on_outer_line",
    "open_tour_theorem",
    "semi_magic_obstruction",
    "semi_magic_verdict",
    "start_mask",
    "tight_table",
    "verdict",
]

#: The start-square facts of boards without closed tours are verified up to this area.
VERIFIED_AREA = 64
#: Up to this many squares :func:`start_mask` asks :func:`verdict` of every square; beyond, once
#: for each class of squares.
PER_SQUARE_AREA = 4096
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
    """An answer: ``exists`` is True, False or None (unknown), with a reason.

    ``bool(answer)`` is True only when a tour is known to exist.

    >>> answer = Existence(None, "no theorem covers this board")
    >>> bool(answer), answer.to_dict()
    (False, {'exists': None, 'reason': 'no theorem covers this board'})
    """

    exists: bool | None
    reason: str

    def __bool__(self) -> bool:
        return self.exists is True

    def to_dict(self) -> dict[str, object]:
        """``{"exists": ..., "reason": ...}``.

        >>> Existence(True, "yes").to_dict()
        {'exists': True, 'reason': 'yes'}
        """
        return {"exists": self.exists, "reason": self.reason}


def _sides(board: Board) -> tuple[int, int]:
    return min(board.width, board.height), max(board.width, board.height)


def describe_tour(
    board: Board, start: int | None = None, end: int | None = None, closed: bool = False
) -> str:
    """The tour asked for, in words, as answers name it (``no …``, ``finds a …``).

    >>> describe_tour(Board(8, 8), 0, 10, closed=True), describe_tour(Board(3, 7), end=1)
    ('closed tour from a1 to c2 on 8x8', 'tour to b1 on 3x7')
    """
    name = board.square_name
    where = "".join(
        f" {word} {name(q)}" for word, q in (("from", start), ("to", end)) if q is not None
    )
    return f"{'closed tour' if closed else 'tour'}{where} on {board.description}"


# -- the whole board ------------------------------------------------------------------------------


def closed_tour_theorem(board: Board) -> Existence:
    """Schwenk's theorem: whether a plain knight's board has a closed tour, with the reason.

    On other boards (holes, other leapers) only :func:`obstruction` speaks; else it is silent.

    >>> closed_tour_theorem(Board(3, 10)).exists, closed_tour_theorem(Board(3, 8)).exists
    (True, False)
    """
    if not board.is_plain_knight:
        return _generic(board, None, None, closed=True)
    m, n = _sides(board)
    return _theorem(
        board,
        "closed tour",
        (
            (board.size == 1, "one square has no move to close"),
            (
                m % 2 == 1 and n % 2 == 1,
                "it has {size} squares, an odd number, but a knight's move always changes "
                "colour, so a closed tour covers as many light squares as dark (Schwenk's theorem, 1991)",
            ),
            (m == 1, "a knight cannot move on a board 1 wide"),
            (
                m == 2,
                "on a board 2 wide the corner squares have at most one move, and a closed tour "
                "enters and leaves every square (Schwenk's theorem, 1991)",
            ),
            (
                m == 4,
                "every move from the two outer lines lands on the two inner lines, so a closed "
                "tour would alternate outer and inner squares and put all outer squares on one "
                "colour, but they are half light and half dark (Schwenk's theorem, 1991)",
            ),
            (
                m == 3 and n in (4, 6, 8),
                "3x4, 3x6 and 3x8 are the exceptions of Schwenk's theorem (Schwenk 1991)",
            ),
        ),
        "Schwenk 1991: every m x n board with m <= n has one unless both are odd, m is 1, 2 "
        "or 4, or m = 3 and n is 4, 6 or 8",
    )


def open_tour_theorem(board: Board) -> Existence:
    """The open-tour theorem: whether a plain knight's board has any tour, with the reason.

    >>> [open_tour_theorem(Board(3, n)).exists for n in (4, 5)], open_tour_theorem(Board(1, 1))
    ([True, False], Existence(exists=True, reason='a 1x1 board is toured by standing on its one square'))
    """
    if not board.is_plain_knight:
        return _generic(board, None, None, closed=False)
    if board.size == 1:
        return Existence(True, "a 1x1 board is toured by standing on its one square")
    m, n = _sides(board)
    return _theorem(
        board,
        "tour",
        (
            (m == 1, "a knight cannot move on a board 1 wide"),
            (
                m == 2,
                "on a board 2 wide every move changes the long coordinate by 2, so squares an "
                "odd distance apart along it are never connected",
            ),
            ((m, n) == (3, 3), "the centre square has no knight's move at all"),
            (
                (m, n) in ((3, 5), (3, 6), (4, 4)),
                "one of the four exceptions of the open-tour theorem (3x3, 3x5, 3x6, 4x4; "
                "Conrad et al. 1994), confirmed by exhaustive search",
            ),
        ),
        "Conrad et al. 1994: every board has one except 1xn, 2xn, 3x3, 3x5, 3x6 and 4x4",
    )


def _theorem(
    board: Board, what: str, exceptions: tuple[tuple[bool, str], ...], rule: str
) -> Existence:
    """A theorem's verdict: no ``what`` on ``board`` by the first of its ``exceptions`` that
    holds (its reason, ``{size}`` filled in), else yes by the ``rule``."""
    for holds, why in exceptions:
        if holds:
            return Existence(False, f"no {what} on {board.spec}: " + why.format(size=board.size))
    return Existence(True, f"{board.spec} has a {what} ({rule})")


def semi_magic_verdict(board: Board) -> Existence | None:
    """Why no tour of ``board`` is semi-magic (an :class:`Existence` saying no), or None.

    The one gate of the magic search, the constructions and :func:`knightstour.magic.find`; None
    when no theorem rules the board out.

    Theorems, in order (plain knight's boards only; theory is silent on the others):

    1. *A board with no knight's tour* (the open-tour theorem: 1 x n, 2 x n, 3 x 3, 3 x 5,
       3 x 6, 4 x 4) has no semi-magic one.
    2. *A side of odd length rules a semi-magic tour out* (colour parity). The knight changes
       colour every move, so the odd numbers all stand on one colour. A rank of odd length holds
       one more square of one colour than of the other, and the next rank the reverse, so the two
       hold different numbers of odd numbers: their sums differ in parity. Files likewise. (The
       rank and file constants, N(N + 1)/(2 x height) and N(N + 1)/(2 x width), are whole
       numbers whenever both sides are even; so a board whose constants are not whole numbers
       has a side of odd length, and this theorem covers it.)
    3. *Both sides 2 more than a multiple of 4* (:func:`semi_magic_obstruction`, Jelliss 2003).

    >>> semi_magic_verdict(Board(5, 6)).reason
    'no semi-magic tour on 5x6: its ranks have an odd number of squares, so neighbouring ranks hold different numbers of odd numbers (the knight changes colour every move) and their sums differ in parity'
    >>> semi_magic_verdict(Board(4, 4)).reason.split(":")[0]
    "no semi-magic tour on 4x4, as it has no knight's tour at all"
    >>> semi_magic_verdict(Board(6, 10)).reason.split(" (")[0]
    'no semi-magic tour on 6x10: both sides are 2 more than a multiple of 4'
    >>> semi_magic_verdict(Board(8, 8)) is None, semi_magic_verdict(Board(1, 1)) is None
    (True, True)
    """
    if not board.is_plain_knight:
        return None
    spec = board.spec
    existence = open_tour_theorem(board)
    if existence.exists is False:
        why = existence.reason.removeprefix(f"no tour on {spec}: ")
        return Existence(
            False, f"no semi-magic tour on {spec}, as it has no knight's tour at all: {why}"
        )
    if board.size > 1 and (board.width % 2 or board.height % 2):
        lines = "ranks" if board.width % 2 else "files"
        return Existence(
            False,
            f"no semi-magic tour on {spec}: its {lines} have an odd number of squares, so "
            f"neighbouring {lines} hold different numbers of odd numbers (the knight changes "
            "colour every move) and their sums differ in parity",
        )
    reason = semi_magic_obstruction(board)
    return None if reason is None else Existence(False, reason)


def semi_magic_obstruction(board: Board) -> str | None:
    """Why no knight's tour of ``board`` is semi-magic, for boards with both sides 2 more than a
    multiple of 4 (6x6, 6x10, 10x10, ...), as Jelliss showed (2003); else None.

    The argument: split the squares into four classes by the parities of (file, rank). Every
    rank of one parity holds the squares of two classes, and both parities hold half the ranks,
    so a semi-magic numbering gives equal sums to (even, even) + (odd, even) and to (even, odd) +
    (odd, odd); the files likewise give (even, even) + (even, odd) = (odd, even) + (odd, odd).
    Together: the classes (even, even) and (odd, odd) add up to the same, and so do (odd, even)
    and (even, odd). The knight changes colour every move, so the odd numbers 1, 3, ..., N - 1
    fill the two classes of one colour, and each class holds half their sum, (N/2)^2 / 2: an even
    number, as N/2 is even. But each class has (width/2)(height/2) squares, an odd number when
    both sides are 2 more than a multiple of 4, and an odd count of odd numbers has an odd sum.

    >>> semi_magic_obstruction(Board(6, 10)).split(" (")[0]
    'no semi-magic tour on 6x10: both sides are 2 more than a multiple of 4'
    >>> semi_magic_obstruction(Board(8, 10)) is None, semi_magic_obstruction(Board(6, 8)) is None
    (True, True)
    """
    width, height = board.width, board.height
    if not board.is_plain_knight or width % 4 != 2 or height % 4 != 2:
        return None
    cells = (width // 2) * (height // 2)
    return (
        f"no semi-magic tour on {width}x{height}: both sides are 2 more than a multiple of 4 "
        f"(Jelliss 2003): equal rank and file sums would share the odd numbers equally between "
        f"the {cells} squares of even file and rank and the {cells} of odd file and rank (or the "
        f"other colour's two classes), {(width * height // 2) ** 2 // 2} each, an even number, "
        f"but {cells} odd numbers always add up to an odd number"
    )


# -- facts that hold on every board ---------------------------------------------------------------


def _colour_counts(board: Board) -> tuple[int, int]:
    """Squares of the corner colour (0) and of the other (1), holes excluded, in O(holes)."""
    zeros = (board.area + 1) // 2
    ones = board.area - zeros
    for h in board.holes:
        if board.colour(h):
            ones -= 1
        else:
            zeros -= 1
    return zeros, ones


def colour_parity(
    board: Board, start: int | None = None, end: int | None = None, closed: bool = False
) -> Existence | None:
    """What colour counts rule out, or None: the one colour-parity argument of the package.

    A path alternates colours when every move changes colour (the knight, any leaper whose two
    steps add up to an odd number). So a closed tour needs as many squares of each colour, an open
    one needs them within one, with both ends on the majority colour when they differ, and ends
    of different colours when they are equal. Holes count. On a plain board the majority colour is
    the corner's, and the reason says so.

    >>> colour_parity(Board(5, 5), 1).reason
    'no tour from b1 on 5x5: the board has 13 squares of the corner colour and 12 of the other; a knight alternates colours, so a tour starts and ends on the corner colour, and b1 is not'
    >>> colour_parity(Board(5, 5, holes=frozenset({1})), 0).reason
    'no tour: the board has 13 squares of one colour and 11 of the other, and a path that alternates colours needs them within one'
    >>> print(colour_parity(Board(8, 8), 0, 1))
    None
    """
    if not board.alternates_colours:
        return None
    zeros, ones = _colour_counts(board)
    plain = board.is_plain_knight
    name = board.square_name
    no = f"no {'closed ' if closed else ''}tour: "
    if closed and ones != zeros:
        return Existence(
            False,
            f"{no}the board has {zeros} squares of one colour and {ones} of the other, and a "
            f"closed tour alternates colours, so it needs as many of each",
        )
    if abs(ones - zeros) > 1:
        return Existence(
            False,
            f"{no}the board has {zeros} squares of one colour and {ones} of the other, and a path "
            f"that alternates colours needs them within one",
        )
    if ones != zeros:
        minority = 1 if ones < zeros else 0
        for sq, role in ((start, "from"), (end, "to")):
            if sq is None or board.colour(sq) != minority:
                continue
            big, small = max(ones, zeros), min(ones, zeros)
            if not plain:
                return Existence(
                    False,
                    f"{no}{name(sq)} has the minority colour: the board has {big} squares of one "
                    f"colour and {small} of the other, and a path that alternates colours starts "
                    f"and ends on the majority colour",
                )
            if start is not None and end is not None:
                return Existence(
                    False,
                    f"no tour from {name(start)} to {name(end)}: the board has one more square "
                    f"of the corner colour than of the other, so a tour starts and ends on the "
                    f"corner colour, and {name(sq)} is not",
                )
            return Existence(
                False,
                f"no tour {role} {name(sq)} on {board.spec}: the board has {big} squares of the "
                f"corner colour and {small} of the other; a knight alternates colours, so a tour "
                f"starts and ends on the corner colour, and {name(sq)} is not",
            )
    elif start is not None and end is not None and board.colour(start) == board.colour(end):
        s, e = name(start), name(end)
        if not plain:
            return Existence(
                False,
                f"{no}{s} and {e} have the same colour, but a path that alternates colours over "
                f"an even number of squares ends on the other colour",
            )
        return Existence(
            False,
            f"no tour from {s} to {e}: {s} and {e} have the same colour, but on a board with an "
            f"even number of squares a tour starts and ends on different colours",
        )
    return None


def check_ends(board: Board, start: int | None, end: int | None) -> None:
    """Refuse an end square that is the start square: bad input, not a question with answer no.

    A tour visits each square once, so it cannot end where it starts (a closed tour ends a move
    from its start). Only the one square of a 1 x 1 board is both ends of its tour.
    :func:`verdict` and :func:`obstruction` check it first, so :func:`knightstour.solve`,
    :func:`knightstour.exists` and the exact search all refuse it alike.

    >>> check_ends(Board(8, 8), 0, 0)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: start and end are the same square, a1: a tour visits each square once, so it cannot end where it starts
    >>> check_ends(Board(1, 1), 0, 0)
    """
    if start is not None and start == end and board.size > 1:
        raise InvalidInputError(
            f"start and end are the same square, {board.square_name(start)}: a tour visits each "
            "square once, so it cannot end where it starts"
        )


def obstruction(
    board: Board, start: int | None = None, end: int | None = None, closed: bool = False
) -> Existence | None:
    """Why no tour can exist on any board (holes, other leapers), or None: the exact search's check.

    In order: no squares; a closed tour on fewer than 3 squares; :func:`colour_parity`; a closed
    tour whose end is not a move from its start. A tour from a square to itself is bad input
    (:func:`check_ends` raises :class:`~knightstour.errors.InvalidInputError`).

    >>> obstruction(Board(8, 8), 0, 1, closed=True).reason
    "no closed tour from a1 to b1: a closed tour ends a knight's move from its start, and b1 is not"
    >>> print(obstruction(Board(8, 8), 0, 17, closed=True))
    None
    """
    name = board.square_name
    check_ends(board, start, end)
    if board.size == 0:
        return Existence(False, "the board has no squares")
    if closed and board.size < 3:
        return Existence(
            False, f"no closed tour on {board.spec}: a closed tour needs at least 3 squares"
        )
    colour = colour_parity(board, start, end, closed)
    if colour is not None:
        return colour
    if closed and start is not None and end is not None and not board.is_move(start, end):
        move = "a knight's move" if board.leaper == (1, 2) else "a move"
        return Existence(
            False,
            f"no closed tour from {name(start)} to {name(end)}: a closed tour ends {move} from "
            f"its start, and {name(end)} is not",
        )
    return None


def _generic(b: Board, s: int | None, e: int | None, closed: bool) -> Existence:
    """Boards with holes, other leapers, wraps or depth: :func:`obstruction`, the graph's own
    facts (:func:`graph_obstruction`), then the torus theorem; else silent."""
    ruled_out = obstruction(b, s, e, closed)
    if ruled_out is None:
        ruled_out = graph_obstruction(b, s, e, closed)
    if ruled_out is None:
        ruled_out = line_obstruction(b, s, e, closed)
    if ruled_out is None:
        ruled_out = island_obstruction(b, s, e, closed)
    if ruled_out is not None:
        return ruled_out
    if b.wrap == "torus" and b.leaper == (1, 2) and not b.holes and b.depth == 1 and e is None:
        what = "a closed tour" if closed else "a tour"
        where = (
            ""
            if s is None
            else f", and a closed tour can start from any square ({b.square_name(s)} too)"
        )
        return Existence(
            True,
            f"the {b.spec} torus has {what}: every m x n torus of at least 3 squares has a closed "
            f"knight's tour (Watkins 1997){where}",
        )
    return Existence(None, f"no theorem covers {b.description}")


#: Boards up to this many squares get the graph's facts (:func:`graph_obstruction`).
GRAPH_AREA = 2_000_000


def _reached(table: np.ndarray, first: int) -> np.ndarray:
    """The squares that chains of moves of ``table`` join to ``first`` (by frontier sweeps)."""
    seen = np.zeros(table.shape[0], dtype=bool)
    seen[first] = True
    frontier = np.array([first])
    slot = np.empty(table.shape[0], dtype=np.int64)
    while frontier.size:
        nxt = table[frontier].reshape(-1)
        nxt = nxt[nxt >= 0]
        nxt = nxt[~seen[nxt]]
        order = np.arange(nxt.size)
        slot[nxt] = order  # a square reached twice in one sweep: the last write keeps it once
        nxt = nxt[slot[nxt] == order]
        seen[nxt] = True
        frontier = nxt
    return seen


def graph_obstruction(
    board: Board, start: int | None = None, end: int | None = None, closed: bool = False
) -> Existence | None:
    """What the leaper's graph itself rules out on any board, or None: a square with no move,
    squares that no chain of moves joins, squares with only one move (a tour can only end on
    them). The reason names the cause where it is a theorem: a leaper (a, b) with
    gcd(a, b) = g > 1 moves every coordinate by multiples of g; with a + b even it never changes
    colour. Skipped (None) on boards of more than :data:`GRAPH_AREA` squares.

    >>> graph_obstruction(Board(8, 8, leaper=(1, 3))).reason
    'no tour on 8x8 leaper=1,3: a leaper whose legs 1 and 3 add up to an even number never changes colour, so it never reaches the squares of the other colour'
    >>> graph_obstruction(Board(6, 6, leaper=(2, 2))).reason.split(":")[1]
    ' gcd(2, 2) = 2, so every move changes each coordinate by a multiple of 2, and a1 never reaches b1'
    >>> print(graph_obstruction(Board(5, 5, holes=frozenset({12}))))
    None
    """
    if board.area > GRAPH_AREA or board.size <= 1:
        return None
    table = board.neighbours
    name = board.square_name
    kind = "closed tour" if closed else "tour"
    head = f"no {kind} on {board.description}: "
    free, degree, lonely = _free_squares(board, table)
    if lonely.size:
        return Existence(False, f"{head}{name(int(lonely[0]))} has no move at all")
    first = int(np.argmax(free))
    seen = _reached(table, first)
    unreached = np.flatnonzero(free & ~seen)
    if unreached.size:
        a, c = board.leaper
        g = math.gcd(a, c)
        far = name(int(unreached[0]))
        if g > 1 and board.is_flat:
            return Existence(
                False,
                f"{head}gcd({a}, {c}) = {g}, so every move changes each coordinate by a multiple "
                f"of {g}, and {name(first)} never reaches {far}",
            )
        reached = np.flatnonzero(seen)
        w, h = board.width, board.height
        colours = (reached % w + reached // w % h + reached // (w * h)) % 2
        if (a + c) % 2 == 0 and (colours == board.colour(first)).all():
            return Existence(
                False,
                f"{head}a leaper whose legs {a} and {c} add up to an even number never changes "
                f"colour, so it never reaches the squares of the other colour",
            )
        cause = "the holes cut the board apart" if board.holes else "no chain of moves joins them"
        return Existence(False, f"{head}{name(first)} never reaches {far}: {cause}")
    ends = np.flatnonzero(free & (degree == 1))
    if closed and ends.size:
        return Existence(
            False,
            f"{head}{name(int(ends[0]))} has only one move, and a closed tour enters and leaves "
            f"every square",
        )
    if ends.size > 2:
        listed = ", ".join(name(int(q)) for q in ends[:3])
        return Existence(
            False,
            f"{head}{ends.size} squares have only one move ({listed}{'...' if ends.size > 3 else ''}), "
            f"and a tour can pass through none of them: only its two ends may have one move",
        )
    for sq, role in ((start, "from"), (end, "to")):
        if sq is not None and ends.size == 2 and sq not in ends.tolist():
            pair = " and ".join(name(int(q)) for q in ends)
            return Existence(
                False,
                f"no tour {role} {name(sq)} on {board.description}: {pair} have only one move "
                f"each, so they are the tour's two ends",
            )
    return None


# -- lines that no move joins ---------------------------------------------------------------------

#: Lines of one direction are searched for an independent union when there are at most this many.
MAX_LINES = 16


@dataclass(frozen=True)
class Lines:
    """A union of whole lines (ranks, files or layers) of which no two squares are a move apart.

    ``count`` of the board's squares lie on them; ``mask[q]`` says whether square ``q`` does.
    """

    axis: str
    lines: tuple[int, ...]
    count: int
    mask: np.ndarray

    @property
    def names(self) -> str:
        """The lines in words: ``ranks 1, 2, 6 and 7``, ``files a and b``, ``layer 2``."""
        label = {"ranks": str, "layers": str}.get(self.axis)
        words = [file_name(i) if label is None else label(i + 1) for i in self.lines]
        listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
        return f"{self.axis if len(words) > 1 else self.axis[:-1]} {listed}"


def _axes(board: Board) -> list[tuple[str, np.ndarray]]:
    """Each direction's line of every square: (name, line index per square)."""
    idx = np.arange(board.area)
    w, h = board.width, board.height
    axes = [("ranks", idx // w % h), ("files", idx % w)]
    if board.depth > 1:
        axes.append(("layers", idx // (w * h)))
    return axes


def independent_lines(board: Board) -> Lines | None:
    """The largest union of whole ranks, files or layers with no move between two of its squares.

    A tour visits two squares of such a set never in a row, so it holds at most half the squares
    of a closed tour and one more than the rest on an open one (:func:`line_obstruction`). Only
    directions of at most :data:`MAX_LINES` lines are searched (every subset of lines); None when
    no line is free of moves, or on boards of more than :data:`GRAPH_AREA` squares.

    >>> lines = independent_lines(Board(7, 7, leaper="zebra", wrap="cylinder"))
    >>> lines.names, lines.count
    ('ranks 1, 2, 6 and 7', 28)
    >>> independent_lines(Board(4, 9)).names
    'files a and d'
    """
    if board.area > GRAPH_AREA:
        return None
    b = board
    return _independent_lines(b.width, b.height, b.leaper, frozenset(b.holes), b.wrap, b.depth)


@lru_cache(maxsize=256)
def _independent_lines(
    width: int,
    height: int,
    leaper: tuple[int, int],
    holes: frozenset[int],
    wrap: str | None,
    depth: int,
) -> Lines | None:
    board = Board(width, height, leaper=leaper, holes=holes, wrap=wrap, depth=depth)
    table = board.neighbours
    free = np.ones(board.area, dtype=bool)
    if board.holes:
        free[list(board.holes)] = False
    src = np.repeat(np.arange(board.area), table.shape[1])
    dst = table.reshape(-1)
    ok = dst >= 0
    src, dst = src[ok], dst[ok]
    best: Lines | None = None
    for axis, line in _axes(board):
        c = int(line.max()) + 1
        if c > MAX_LINES:
            continue
        # bit j of near[i]: a move joins line i and line j (j = i: a move within line i)
        near = np.zeros(c, dtype=np.int64)
        np.bitwise_or.at(near, line[src], np.left_shift(1, line[dst]).astype(np.int64))
        weight = np.bincount(line[free], minlength=c)
        subsets = np.arange(1 << c, dtype=np.int64)
        good = np.ones(subsets.size, dtype=bool)
        total = np.zeros(subsets.size, dtype=np.int64)
        for i in range(c):
            has = (subsets >> i) & 1 == 1
            good &= ~has | (subsets & near[i] == 0)
            total += has * weight[i]
        total[~good] = -1
        pick = int(np.argmax(total))
        if total[pick] > 0 and (best is None or total[pick] > best.count):
            chosen = tuple(i for i in range(c) if pick >> i & 1)
            mask = np.isin(line, chosen) & free
            best = Lines(axis, chosen, int(total[pick]), mask)
    return best


def line_places(
    board: Board, lines: Lines, start: int | None, end: int | None, closed: bool
) -> tuple[int, bool]:
    """The most squares of ``lines`` a tour can visit, and whether it must then alternate.

    A tour never visits two squares of the lines in a row. A closed tour of n squares holds at
    most n / 2 of them, and alternates when it holds that many. An open tour is a row of n
    places; a given start or end off the lines takes a place at an end of the row that no
    square of the lines can take, so the lines share the L places left, at most ceil(L / 2),
    and when L is odd and they hold (L + 1) / 2 the row alternates all the way (A B A ... B A,
    with the given ends off the lines added outside): no move joins two squares off the lines.

    >>> b = Board(7, 6, leaper="zebra", wrap="cylinder")
    >>> lines = independent_lines(b)
    >>> line_places(b, lines, None, None, False), line_places(b, lines, b.parse_square("g3"), None, False)
    ((21, False), (21, True))
    """
    n = board.size
    if closed:
        return n // 2, 2 * lines.count == n
    places = n - sum(1 for sq in (start, end) if sq is not None and not lines.mask[sq])
    most = (places + 1) // 2
    return most, places % 2 == 1 and lines.count == most


def tight_table(
    board: Board, closed: bool, start: int | None = None, end: int | None = None
) -> np.ndarray | None:
    """The moves a tour can still use when :func:`independent_lines` holds as many squares as a
    tour can take (:func:`line_places`, given its ends), or None when it does not.

    A closed tour of a board whose independent lines hold half its squares alternates between
    them and the rest, and so does an open tour when they hold one square more than the rest,
    or half the squares with a given start or end off them: no move between two squares off the
    lines is ever used. The neighbour table without those moves (``-1`` in their place); the
    exact search runs on it.

    >>> t = tight_table(Board(8, 8, leaper="zebra", wrap="cylinder"), closed=True)
    >>> int((t >= 0).sum()) < int((Board(8, 8, leaper="zebra", wrap="cylinder").neighbours >= 0).sum())
    True
    >>> print(tight_table(Board(8, 8, leaper="zebra", wrap="cylinder"), closed=False))
    None
    >>> tight_table(Board(8, 8, leaper="zebra", wrap="cylinder"), False, start=16) is None
    False
    """
    lines = independent_lines(board)
    if lines is None or board.size < 3:
        return None
    if not line_places(board, lines, start, end, closed)[1]:
        return None
    table = board.neighbour_table()
    off = ~lines.mask
    both = off[:, None] & off[np.maximum(table, 0)] & (table >= 0)
    table[both] = -1
    return table


def line_obstruction(
    board: Board, start: int | None = None, end: int | None = None, closed: bool = False
) -> Existence | None:
    """What :func:`independent_lines` rules out, or None.

    A path never visits two squares of the lines in a row, so of its n squares at most
    ceil(n / 2) lie on them, and at most n / 2 on a closed tour; a given start or end off the
    lines leaves one place fewer (:func:`line_places`). At the bound the tour alternates
    between the lines and the rest: an open one starts and ends on the lines unless told
    otherwise, and neither uses a move between two squares off the lines
    (:func:`tight_table`); what the graph without those moves rules out (a square left without
    moves, squares no chain joins, squares with one move) rules out the tour. This is the
    argument behind the 4 x n case of Schwenk's theorem, on any board.

    >>> line_obstruction(Board(7, 7, leaper="zebra", wrap="cylinder"), closed=True).reason
    'no closed tour on 7x7 leaper=2,3 wrap=cylinder: no move joins two squares of ranks 1, 2, 6 and 7, which hold 28 of the 49 squares, and a closed tour never visits two of them in a row, so it visits at most 24'
    >>> line_obstruction(Board(8, 8, leaper="zebra", wrap="cylinder"), closed=True).reason.split("; ")[1]
    'without those moves, a1 never reaches b1'
    >>> line_obstruction(Board(7, 6, leaper="zebra", wrap="cylinder"), 20, 19).reason.split(": ")[1]
    'no move joins two squares of ranks 1, 2 and 6, which hold 21 of the 42 squares, and a tour never visits two of them in a row; it starts on g3 and ends on f3, off them, so it visits at most 20'
    """
    lines = independent_lines(board)
    if lines is None or board.size <= 1:
        return None
    n, a = board.size, lines.count
    kind = "closed tour" if closed else "tour"
    name = board.square_name
    head = f"no {kind}{_ends_words(board, start, end)} on {board.description}: no move joins two squares of {lines.names}"
    most, tight = line_places(board, lines, start, end, closed)
    if a > most:
        off = [] if closed else [
            (role, sq) for role, sq in (("starts on", start), ("ends on", end))
            if sq is not None and not lines.mask[sq]
        ]  # fmt: skip
        if not off:
            return Existence(
                False,
                f"{head}, which hold {a} of the {n} squares, and a {kind} never visits two of "
                f"them in a row, so it visits at most {most}",
            )
        said = " and ".join(f"{role} {name(sq)}" for role, sq in off)
        return Existence(
            False,
            f"{head}, which hold {a} of the {n} squares, and a {kind} never visits two of "
            f"them in a row; it {said}, off them, so it visits at most {most}",
        )
    if not tight:
        return None
    table = tight_table(board, closed, start, end)
    if table is None:
        return None
    if closed:
        share = "half the squares"
    elif a == n - a + 1:
        share = "one square more than the rest"
    else:
        share = "half the squares, and the tour has an end off them"
    why = _table_obstruction(board, table, closed, start, end)
    if why is None:
        return None
    return Existence(
        False,
        f"{head}, which hold {share} ({a} of {n}), so a {kind} alternates between them and the "
        f"rest and never moves between two squares off them; without those moves, {why}",
    )


#: :func:`island_obstruction` looks at boards of up to this many squares ...
ISLAND_AREA = 64
#: ... and at the unions of up to this many lines of one direction (every subset of them).
ISLAND_LINES = 12


def island_obstruction(
    board: Board, start: int | None = None, end: int | None = None, closed: bool = False
) -> Existence | None:
    """A set of squares whose moves all lead into too few squares: no tour, or None.

    When every move the tour may use joins two sides (the colours, for a leaper that always
    changes colour; the independent lines and the rest, when the tour must alternate between
    them, :func:`tight_table`), take the squares X of one side on a union of whole lines, and
    the squares N that their moves reach. The tour enters and leaves each square of X: 2 moves
    a square, 1 at an end of the tour, all of them into N. The squares of N take at most 2 moves
    each (1 at a given end). So X needs no more moves than N can take; and if it needs exactly
    as many, every move at N joins it to X, so X and N are a piece of the tour with no move out:
    the tour is not in one piece unless they are the whole board. Ends not given are counted
    where colour parity (or the lines) allow them. Boards of up to :data:`ISLAND_AREA` squares,
    lines of a direction with at most :data:`ISLAND_LINES` of them.

    >>> print(island_obstruction(Board(7, 6, leaper="zebra", wrap="cylinder"), 20).reason)
    no tour from g3 on 7x6 leaper=2,3 wrap=cylinder: the tour alternates between ranks 1, 2 and 6 and the rest (see the lines argument), and the 7 squares of rank 5 off the lines have moves only to the 7 squares a2, b2, c2, d2, e2, f2, ...; the tour needs 14 moves at the first, all into the second, which take at most 14, so together they would be a piece of the tour that no move leaves
    """
    if board.area > ISLAND_AREA or board.size < 3 or (start is not None and start == end):
        return None
    free = np.ones(board.area, dtype=bool)
    if board.holes:
        free[list(board.holes)] = False
    ends = [] if closed else [q for q in (start, end) if q is not None]
    unknown = 0 if closed else 2 - len(ends)
    lines = independent_lines(board)
    table = None if lines is None else tight_table(board, closed, start, end)
    if table is not None:
        assert lines is not None
        side = lines.mask.astype(np.int64)
        may_end = (0, unknown)  # unknown ends lie on the lines (side 1): see line_places
        how = f"the tour alternates between {lines.names} and the rest (see the lines argument)"
        sides = ("off the lines", "on the lines")
    elif board.alternates_colours:
        table = board.neighbours
        side = np.asarray(board.colour(np.arange(board.area)), np.int64)
        zeros, ones = _colour_counts(board)
        if zeros != ones:
            big = 0 if zeros > ones else 1
            may_end = (unknown, 0) if big == 0 else (0, unknown)
        elif unknown == 2:
            may_end = (1, 1)
        elif unknown == 1:
            c = int(side[ends[0]])
            may_end = (1, 0) if c == 1 else (0, 1)
        else:
            may_end = (0, 0)
        how = "every move changes colour"
        sides = ("of a1's colour", "of the other colour")
    else:
        return None
    need = np.where(free, 2, 0)
    for q in ends:
        need[q] = 1
    bit = [1 << q for q in range(board.area)]
    reach = [0] * board.area
    for q in np.flatnonzero(free).tolist():
        for r in table[q].tolist():
            if r >= 0:
                reach[q] |= bit[r]
    everything = sum(bit[q] for q in np.flatnonzero(free).tolist())
    weights = {q: int(need[q]) for q in np.flatnonzero(free).tolist()}

    def total(mask: int) -> int:
        out = 0
        while mask:
            low = mask & -mask
            out += weights[low.bit_length() - 1]
            mask ^= low
        return out

    for axis, line in _axes(board):
        c = int(line.max()) + 1
        if c > ISLAND_LINES:
            continue
        for s in (0, 1):
            own = [0] * c
            near = [0] * c
            for q in np.flatnonzero(free & (side == s)).tolist():
                own[int(line[q])] |= bit[q]
                near[int(line[q])] |= reach[q]
            xs = [0] * (1 << c)
            ns = [0] * (1 << c)
            for m in range(1, 1 << c):
                low = (m & -m).bit_length() - 1
                xs[m] = xs[m & (m - 1)] | own[low]
                ns[m] = ns[m & (m - 1)] | near[low]
                x, n = xs[m], ns[m]
                if not x or (m & (m - 1) and xs[m & (m - 1)] == x):
                    continue
                want = total(x) - may_end[s]
                room = total(n)
                if want > room or (want == room and x | n != everything):
                    return Existence(
                        False,
                        f"no {'closed tour' if closed else 'tour'}{_ends_words(board, start, end)} "
                        f"on {board.description}: "
                        + _island_words(board, how, sides[s], axis, m, x, n, want, room),
                    )
    return None


def _island_words(
    board: Board, how: str, side: str, axis: str, lines: int, x: int, n: int, want: int, room: int
) -> str:
    """The reason of :func:`island_obstruction` in words."""
    label = (lambda i: file_name(i)) if axis == "files" else (lambda i: str(i + 1))
    chosen = [label(i) for i in range(lines.bit_length()) if lines >> i & 1]
    which = chosen[0] if len(chosen) == 1 else f"{', '.join(chosen[:-1])} and {chosen[-1]}"
    where = f"{axis if len(chosen) > 1 else axis[:-1]} {which}"
    nx, nn = bin(x).count("1"), bin(n).count("1")
    squares = [board.square_name(q) for q in range(n.bit_length()) if n >> q & 1]
    shown = ", ".join(squares[:6]) + (", ..." if len(squares) > 6 else "")
    head = (
        f"{how}, and the {nx} squares of {where} {side} have moves only to the {nn} "
        f"squares {shown}; the tour needs {want} moves at the first, all into the second, which "
        f"take at most {room}"
    )
    if want > room:
        return head
    return f"{head}, so together they would be a piece of the tour that no move leaves"


def _ends_words(board: Board, start: int | None, end: int | None) -> str:
    """`` from a1 to b2`` (the given ends), or ''."""
    name = board.square_name
    words = "" if start is None else f" from {name(start)}"
    return words + ("" if end is None else f" to {name(end)}")


def _free_squares(board: Board, table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The squares that are not holes (a mask), each square's number of moves in ``table``, and
    the squares with none."""
    free = np.ones(board.area, dtype=bool)
    if board.holes:
        free[list(board.holes)] = False
    degree = (table >= 0).sum(axis=1)
    return free, degree, np.flatnonzero(free & (degree == 0))


def _table_obstruction(
    board: Board, table: np.ndarray, closed: bool, start: int | None, end: int | None
) -> str | None:
    """What the moves of ``table`` rule out (in words), or None: the facts of
    :func:`graph_obstruction` on any table."""
    name = board.square_name
    free, degree, lonely = _free_squares(board, table)
    if lonely.size:
        return f"{name(int(lonely[0]))} has no move at all"
    first = int(np.argmax(free))
    unreached = np.flatnonzero(free & ~_reached(table, first))
    if unreached.size:
        return f"{name(first)} never reaches {name(int(unreached[0]))}"
    ends = np.flatnonzero(free & (degree == 1)).tolist()
    if closed and ends:
        return (
            f"{name(ends[0])} has only one move, and a closed tour enters and leaves every square"
        )
    if len(ends) > 2:
        return f"{len(ends)} squares have only one move, and only a tour's two ends may"
    for sq in (start, end):
        if sq is not None and len(ends) == 2 and sq not in ends:
            return (
                f"{name(ends[0])} and {name(ends[1])} have only one move each, so they are the ends"
            )
    return None


# -- start and end squares of plain boards --------------------------------------------------------


def four_wide(board: Board) -> bool:
    """Whether ``board`` is a knight's board four wide (either way), with two outer lines.

    >>> four_wide(Board(4, 9)), four_wide(Board(9, 4)), four_wide(Board(5, 5))
    (True, True, False)
    """
    return board.leaper == (1, 2) and 4 in (board.width, board.height)


def on_outer_line(board: Board, squares: int | np.ndarray) -> bool | np.ndarray:
    """Whether ``squares`` (an index, or an array of them) lie on an outer line of a board 4 wide.

    The outer lines are the first and last of the four lines across the narrow side (the ranks
    of a board four tall, else the files). On a knight's board (:func:`four_wide`) no move joins
    two of their squares, which are half the board: the 4 x n argument, used by :func:`verdict`
    and by the exact search to prune.

    >>> b = Board(4, 6)
    >>> on_outer_line(b, 0), on_outer_line(b, 1), on_outer_line(b, np.arange(4)).tolist()
    (True, False, [True, False, False, True])
    """
    line = squares // board.width if board.height == 4 else squares % board.width
    return (line == 0) | (line == 3)


def _end_square(b: Board, sq: int, role: str) -> Existence | None:
    """The 4 x n rule and the small-board facts for ``sq`` as a tour's start (``role='from'``) or
    end (``'to'``), on a plain board that has an open tour, after colour parity."""
    m, n = _sides(b)
    name = b.square_name(sq)
    if m == 4 and not on_outer_line(b, sq):
        return Existence(
            False,
            f"no tour {role} {name} on {b.spec}: every move from the two outer lines lands on the "
            f"inner two, so with the colours alternating both ends of a tour lie on an outer "
            f"line, and {name} is on an inner one",
        )
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


def verdict(
    board: Board, start: int | None = None, end: int | None = None, closed: bool = False
) -> Existence:
    """What theory says of a tour on ``board`` from ``start`` to ``end`` (square indices), closed.

    ``exists`` is True or False with the theorem or argument that decides it, or None where
    theory is silent (the reason then says what is undecided). Never searches.

    >>> verdict(Board(5, 5), 1).exists, verdict(Board(8, 8), 28, closed=True).exists
    (False, True)
    >>> verdict(Board(4, 5), 5).reason.split(":")[0]
    'no tour from b2 on 4x5'
    >>> verdict(Board(5, 5, holes=frozenset({12}))).reason
    'no theorem covers 5x5 holes=c3'
    """
    b, s, e = board, start, end
    check_ends(b, s, e)
    if not b.is_plain_knight:
        return _generic(b, s, e, closed)
    whole = closed_tour_theorem(b) if closed else open_tour_theorem(b)
    if not whole.exists or (s is None and e is None):
        return whole
    name = b.square_name
    ruled_out = obstruction(b, s, e, closed)
    if ruled_out is not None:
        return ruled_out
    if closed:
        if s is not None and e is not None:
            return Existence(
                None,
                f"{b.spec} has closed tours, but no theorem decides whether one uses the move "
                f"{name(e)}-{name(s)}",
            )
        sq = s if s is not None else e
        assert sq is not None
        return Existence(
            True,
            f"{b.spec} has a closed tour (Schwenk 1991), and a closed tour can start from any "
            f"square of its cycle, {name(sq)} included",
        )
    # open tours with a given start and/or end, on a board that has open tours
    if s is not None and e is not None:
        for sq, role in ((s, "from"), (e, "to")):
            fact = _end_square(b, sq, role)
            if fact is not None and fact.exists is False:
                return fact
        m, n = _sides(b)
        if m == n >= 6:
            return Existence(
                True,
                f"a tour runs from {name(s)} to {name(e)} on {b.spec}: on n x n boards with "
                f"n >= 6 a tour joins any two squares that colour parity allows (Conrad et al. "
                f"1994)",
            )
        return Existence(
            None, f"no theorem decides whether a tour runs from {name(s)} to {name(e)} on {b.spec}"
        )
    sq, role = (s, "from") if s is not None else (e, "to")
    assert sq is not None
    if closed_tour_theorem(b).exists:
        return Existence(
            True,
            f"{b.spec} has a closed tour (Schwenk 1991); cut open at {name(sq)}, it is an open "
            f"tour {role} {name(sq)}",
        )
    fact = _end_square(b, sq, role)
    if fact is not None:
        return fact
    return Existence(None, f"no theorem decides whether a tour runs {role} {name(sq)} on {b.spec}")


def start_mask(board: Board, closed: bool = False) -> np.ndarray:
    """For every square index, whether theory leaves a tour from it possible: a boolean mask.

    ``mask[q]`` is ``verdict(board, q, closed=closed).exists is not False``: True where a tour
    from ``q`` exists or theory is silent (boards with holes, other leapers), False where it is
    ruled out, and on holes. Fast on any board: up to :data:`PER_SQUARE_AREA` squares it asks
    :func:`verdict` of every square; beyond, once for each class of squares, because there the
    verdict for a start square alone depends on the square only through its class:

    - its colour (colour parity; every other argument is about the whole board, and the
      small-board facts, :data:`THREE_WIDE_EXCEPTIONS` and the :data:`VERIFIED_AREA`, lie far
      below :data:`PER_SQUARE_AREA`);
    - on boards four wide, whether it lies on an outer line (:func:`on_outer_line`).

    >>> start_mask(Board(5, 5))[:5].tolist(), start_mask(Board(4, 5))[:8].tolist()
    ([True, False, True, False, True], [True, False, False, True, True, False, False, True])
    >>> m = start_mask(Board(4, 10_001))    # 40,004 squares: four verdicts
    >>> int(m.sum()), bool(m[4 * 5000]), bool(m[4 * 5000 + 1])
    (20002, True, False)
    """
    n = board.area
    free = np.ones(n, dtype=bool)
    if board.holes:
        free[list(board.holes)] = False
    mask = np.zeros(n, dtype=bool)
    if n <= PER_SQUARE_AREA:
        for q in np.flatnonzero(free).tolist():
            mask[q] = verdict(board, q, None, closed).exists is not False
        return mask
    squares = np.arange(n, dtype=np.int64)
    cls = np.asarray(board.colour(squares))
    if four_wide(board):
        cls = cls + 2 * on_outer_line(board, squares)
    for c in np.unique(cls[free]).tolist():
        members = free & (cls == c)
        rep = int(np.argmax(members))
        mask[members] = verdict(board, rep, None, closed).exists is not False
    return mask
