"""Exact search: depth-first backtracking in Warnsdorff order that proves absence.

The classic Java and Qt programs back up Warnsdorff's rule with a depth-first search whose
candidates are sorted by Warnsdorff's count. This is that search, compiled
(:mod:`knightstour.kernels.search`, loaded by :mod:`knightstour.kernels.jit`), with pruning that makes it prove absence quickly: squares
left with no way in or out, more than one square forced to be the last, unvisited squares cut off
from the knight, and colour counts; on other boards also forced moves, lines that no move
joins (cut in halves where they hold half the board) and a table of dead positions. It never
guesses: it returns a tour, raises
:class:`~knightstour.errors.NoTourError` ("proved none", with the number of positions examined) or,
when a ``deadline`` or ``node_limit`` stops it first,
:class:`~knightstour.errors.SearchFailedError` ("gave up").

>>> import knightstour as kt
>>> kt.solve("3x4", start="a1", method="backtrack").path[:3]
['a1', 'b3', 'c1']
>>> backtrack(SolveRequest(kt.Board(3, 7), start=kt.Board(3, 7).parse_square("b4")))
Traceback (most recent call last):
...
knightstour.errors.NoTourError: exhaustive search: no tour from b4 on 3x7 (... positions examined)

A closed tour is searched from the square with the fewest moves (a corner: both its moves are
forced) and then rotated to begin on the requested square; an open tour to a given ``end`` with
no start is searched backwards from the end.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from knightstour.board import Board
from knightstour.errors import InvalidInputError, NoTourError, SearchFailedError
from knightstour.kernels import jit
from knightstour.kernels import search as _search
from knightstour.kernels.search import EXHAUSTED, FOUND
from knightstour.solvers import Solution, SolveRequest
from knightstour.solvers._clock import expired
from knightstour.theory import (
    Lines,
    colour_parity,
    describe_tour,
    four_wide,
    independent_lines,
    line_places,
    obstruction,
    on_outer_line,
    tight_table,
)
from knightstour.tour import search_failed

__all__ = ["Search", "backtrack", "exact_search", "luby", "slack_sets"]

#: Positions examined between two looks at the clock.
SLICE = 200_000
#: Positions of the shortest random restart (restarts get multiples of it, in Luby's sequence).
PROBE_UNIT = 1_000
#: A position costs time in proportion to the board (the connectivity check), so on big boards
#: slices and restarts shrink to keep about this much work (positions x squares) between two
#: looks at the clock: a time limit or Ctrl-C is then honoured within a fraction of a second.
SLICE_WORK = 50_000_000
#: Slots of the table of dead positions (boards of at most 64 squares other than the plain
#: knight's; 16 bytes a slot, pages touched only as used).
MEMO_SLOTS = 1 << 18
#: Open tours with a free end on boards other than the plain knight's: positions of the search
#: with the end free before the search goes one pair of ends at a time (:func:`_ends_search`) ...
FREE_NODES = 50_000
#: ... on boards of up to this many squares with a given start or end (one search a last square)
ENDS_SQUARES = 1024
#: ... and up to this many with neither (one search a pair of squares).
PAIRS_SQUARES = 64
#: The halves of an open tour (:func:`_split_search`) are searched with the end free for this
#: many positions before one pair of ends at a time.
HALF_FREE_NODES = 5_000
#: Positions each pair of ends gets in the first round (each round doubles it).
PAIR_UNIT = 256
#: Boards up to this many squares start their search interpreted (see :meth:`Search.advance`) ...
INTERPRETED_SQUARES = 256
#: ... for at most this many seconds (a search still running then switches to compiled code) ...
INTERPRETED_SECONDS = 0.05
#: ... in steps of at most this many positions between two looks at the clock.
INTERPRETED_CHUNK = 256


class Search:
    """The exact search on one board: arrays allocated once, reused for every start and end.

    :meth:`begin` sets up a search from one square (to an end square), :meth:`advance` runs it
    for a budget of positions and can be called again to go on where it stopped. ``compiled``
    chooses the kernels (default: compiled if already loaded or on a board of more than
    :data:`INTERPRETED_SQUARES` squares; else interpreted at first). ``link`` keeps only that
    move of the moves between two squares off the independent lines (see :func:`_links`).

    >>> s = Search(Board(5, 5))
    >>> s.begin(0, None)
    >>> s.advance(10**6) == FOUND, s.path[:3].tolist()
    (True, [0, 7, 4])
    """

    def __init__(
        self,
        board: Board,
        *,
        closed: bool = False,
        compiled: bool | None = None,
        start: int | None = None,
        end: int | None = None,
        link: tuple[int, int] | None = None,
    ) -> None:
        self.board = board
        #: the independent set A of the pruning (``info[2]``) and what is asked of it
        self.spacing = _search.NO_SET
        #: whether the search checks the moves forced by squares with two ways left
        self.forcing = not board.is_plain_knight
        table = None
        lines = None
        if four_wide(board) and board.is_plain_knight:
            self.spacing = _search.ALTERNATION
        elif not board.is_plain_knight:
            lines = independent_lines(board)
            if lines is not None and 2 * lines.count + 1 >= board.size:
                self.spacing = _search.ALTERNATION if board.alternates_colours else _search.SPACING
                # at the bound, moves between two squares off the lines are never used (given
                # ends off the lines count: see theory.line_places)
                table = tight_table(board, closed, start, end)
        if table is None:
            table = board.neighbour_table()
        if link is not None:  # the one move between two squares off the lines: see _links
            assert lines is not None
            table = _one_link(table, lines.mask, link)
        self.nbr = np.ascontiguousarray(table)
        n, size = board.area, max(board.size, 1)
        self.base_vis = np.zeros(n, dtype=np.uint8)
        if board.holes:
            self.base_vis[list(board.holes)] = 1
        self.vis = self.base_vis.copy()
        self.deg = np.zeros(n, dtype=np.int32)
        self.low_list = np.zeros(n, dtype=np.int32)
        self.low_pos = np.full(n, -1, dtype=np.int32)
        self.path = np.zeros(size, dtype=np.int32)
        self.cand = np.zeros((size, self.nbr.shape[1]), dtype=np.int32)
        self.ncand = np.zeros(size, dtype=np.int32)
        self.ci = np.zeros(size, dtype=np.int32)
        self.work = np.zeros((_search.WORK_ROWS, n), dtype=np.int32)
        self.mark = np.zeros(n, dtype=np.int64)
        #: dead positions are remembered on boards of at most 64 squares (the visited squares are
        #: one 64-bit word), but not the plain knight's, whose search is fast without
        self.memoise = memoise = not board.is_plain_knight and board.area <= 64
        #: the search follows the moves forced at every position through (see
        #: ``_search._propagate``) on the boards whose dead positions it remembers, when each
        #: move of the table is a move back too (the reverse slot of each move: ``edges[0]``)
        self.edges = np.zeros((3, n, self.nbr.shape[1]), dtype=np.int32)
        rev = _reverse_slots(self.nbr)
        self.propagate = memoise and rev is not None
        if rev is not None:
            self.edges[0] = rev
        idx = np.arange(n)
        #: the sets whose neighbours' moves the search counts (see ``_search._slack``)
        self.sets = _no_sets(n) if rev is None or not memoise else slack_sets(board)
        self.info = np.zeros((_search.INFO_ROWS + len(self.sets), n), dtype=np.int32)
        self.info[_search.INFO_ROWS :] = self.sets
        self.info[0] = idx  # tie-break among equal Warnsdorff counts: lower rank first
        self.info[1] = board.colour(idx)
        if lines is not None and self.spacing:  # lines that no move joins
            self.info[2] = lines.mask
        elif self.spacing:  # the outer lines of a board four wide: no move joins two of them
            self.info[2] = on_outer_line(board, idx)
        self.meta = np.zeros(_search.META_SLOTS, dtype=np.int64)
        #: the arrays above as the one tuple the kernels take (``_search.ARRAYS``)
        self.arrays = tuple(getattr(self, name) for name in _search.ARRAYS)
        #: the table of dead positions, which another search of the board may share
        self.memo = np.zeros((MEMO_SLOTS if self.memoise else 1, 2), dtype=np.int64)
        #: positions examined by every search so far
        self.nodes = 0
        #: seconds spent in the interpreted kernels (see :meth:`advance`)
        self.interpreted_seconds = 0.0
        if compiled is None:  # compiled when already loaded, or on a big board
            warm = _search.__name__ in jit.compiled_modules()
            compiled = warm or board.size > INTERPRETED_SQUARES
        self._kernels = jit.load(_search, compiled=compiled)

    @property
    def compiled(self) -> bool:
        """Whether the search runs compiled (else interpreted, until :data:`INTERPRETED_SECONDS`)."""
        return bool(self._kernels.compiled)

    def degree(self, square: int) -> int:
        """The number of moves from ``square``."""
        return int(np.count_nonzero(self.nbr[square] >= 0))

    def shuffle(self, rng: np.random.Generator) -> None:
        """Break ties between equal Warnsdorff counts at random from now on."""
        self.info[0] = rng.permutation(self.board.area).astype(np.int32)

    def begin(self, first: int, end: int | None, avoid: tuple[int, ...] = ()) -> None:
        """Set up a search for a path from ``first`` through every square (ending on ``end``),
        whose second square is none of ``avoid``."""
        meta = self.meta
        self.vis[:] = self.base_vis
        # the stamp goes on from the last search: ``mark`` still holds that search's stamps, and
        # a stamp used again would make squares look already reached by the cut-square check
        stamp = int(meta[_search._STAMP])
        meta[:] = 0
        meta[_search._STAMP] = stamp
        meta[_search._SIZE] = self.board.size
        meta[_search._END] = -1 if end is None else end
        meta[_search._USEA] = self.spacing
        meta[_search._FORCE] = self.forcing
        meta[_search._MEMO] = self.memoise
        meta[_search._PROP] = self.propagate
        meta[_search._NSETS] = len(self.sets)
        meta[_search._PROBE] = PROBE_SLACK
        meta[_search._PARITY] = self.propagate and not self.board.alternates_colours
        self._kernels.start(self.arrays, first)
        if avoid:
            kept = [q for q in self.cand[0, : self.ncand[0]].tolist() if q not in avoid]
            self.cand[0, : len(kept)] = kept
            self.ncand[0] = len(kept)

    def advance(self, budget: int) -> int:
        """Search on for at most ``budget`` positions: FOUND (see :attr:`path`), EXHAUSTED or BUDGET.

        On a small board the search starts interpreted (no Numba import: most small searches end
        in a few thousand positions, sooner than compiled code loads) and switches to the
        compiled kernels, on the same arrays, once it has run :data:`INTERPRETED_SECONDS`.
        """
        before = int(self.meta[_search._NODES])
        status = _search.BUDGET
        left = budget
        while left > 0 and not self.compiled:
            chunk = min(left, INTERPRETED_CHUNK)
            t0 = time.perf_counter()
            at = int(self.meta[_search._NODES])
            status = int(self._kernels.run(self.arrays, self.memo, chunk))
            self.interpreted_seconds += time.perf_counter() - t0
            left -= int(self.meta[_search._NODES]) - at
            if status != _search.BUDGET:
                break
            if self.interpreted_seconds > INTERPRETED_SECONDS:
                self._kernels = jit.load(_search, compiled=True)
        if left > 0 and self.compiled and status == _search.BUDGET:
            status = int(self._kernels.run(self.arrays, self.memo, left))
        self.nodes += int(self.meta[_search._NODES]) - before
        return status

    @property
    def partial(self) -> np.ndarray:
        """The path the search is on."""
        return self.path[: int(self.meta[_search._DEPTH]) + 1].copy()


#: The search tries the moves out of the neighbours of a set of :func:`slack_sets` one by one
#: (``_search._probe``) when the set has at most this many such moves left to make, counted at
#: both ends (one move between two neighbours counts twice; 0: never).
PROBE_SLACK = 2
#: :func:`slack_sets` keeps the sets whose neighbours have at most this many more moves to give
#: than the set needs (two a square; the tour's ends change it by one each) ...
SLACK_MOST = 4
#: ... and at most this many of them (the fewest to spare first) ...
SLACK_SETS = 8
#: ... made of at most this many lines (every union of them is tried).
SLACK_LINES = 10


def _no_sets(n: int) -> np.ndarray:
    return np.zeros((0, n), dtype=np.int32)


@lru_cache(maxsize=64)
def slack_sets(board: Board) -> np.ndarray:
    """Unions of the independent lines whose neighbours have few moves to spare: one row a set.

    No move joins two squares S of the independent lines
    (:func:`~knightstour.theory.independent_lines`), so a tour's moves at S all go to the squares
    N that S's moves reach: N needs 2 moves a square and S takes 2 a square of them, and
    2 |N| - 2 |S| (give or take the ends) go elsewhere. Where that is small the search counts
    them (``_search._slack``). The unions of the lines with at most :data:`SLACK_MOST` to spare,
    the fewest first, at most :data:`SLACK_SETS` of them; none on boards of more than 64 squares.

    On the antelope's 5x12 cylinder, ranks 3 and 10 reach only ranks 6 and 7, as many squares:

    >>> sets = slack_sets(Board(5, 12, leaper="antelope", wrap="cylinder"))
    >>> sorted({q // 5 + 1 for q in np.flatnonzero(sets[0]).tolist()})
    [3, 10]
    """
    n = board.area
    lines = independent_lines(board)
    if lines is None or n > 64 or len(lines.lines) > SLACK_LINES:
        return _no_sets(n)
    idx = np.arange(n)
    w, h = board.width, board.height
    line = {"ranks": idx // w % h, "files": idx % w, "layers": idx // (w * h)}[lines.axis]
    table = board.neighbours
    reach = np.zeros((n, n), dtype=bool)
    src = np.repeat(idx, table.shape[1])
    dst = table.reshape(-1)
    reach[src[dst >= 0], dst[dst >= 0]] = True
    found: dict[bytes, tuple[int, int, np.ndarray]] = {}
    chosen = lines.lines
    for m in range(1, 1 << len(chosen)):
        s = lines.mask & np.isin(line, [chosen[i] for i in range(len(chosen)) if m >> i & 1])
        if not s.any():
            continue
        spare = 2 * int(reach[s].any(axis=0).sum()) - 2 * int(s.sum())
        if spare <= SLACK_MOST:
            found.setdefault(s.tobytes(), (spare, int(s.sum()), s))
    best = sorted(found.values(), key=lambda t: (t[0], t[1]))[:SLACK_SETS]
    if not best:
        return _no_sets(n)
    return np.array([s for _, _, s in best], dtype=np.int32)


def _one_link(table: np.ndarray, on_lines: np.ndarray, link: tuple[int, int]) -> np.ndarray:
    """``table`` without the moves between two squares off the lines, but for ``link``."""
    table = table.copy()
    off = ~on_lines
    both = off[:, None] & off[np.maximum(table, 0)] & (table >= 0)
    a, b = link
    both[a] &= table[a] != b
    both[b] &= table[b] != a
    table[both] = -1
    return table


def _reverse_slots(table: np.ndarray) -> np.ndarray | None:
    """For each move of ``table`` (square q, slot j, to r), the slot of the move r -> q in r's
    row (0 where there is no move); None when some move has no way back.

    >>> _reverse_slots(Board(3, 3).neighbour_table())[0].tolist()
    [4, 5, 0, 0, 0, 0, 0, 0]
    """
    n, nn = table.shape
    rev = np.zeros((n, nn), dtype=np.int32)
    step = max(1, (1 << 20) // max(1, nn * nn))  # rows at a time: a few MiB of work arrays
    for lo in range(0, n, step):
        rows = table[lo : lo + step]
        present = rows >= 0
        # the rows of each move's far square, and where in them the near square stands
        back = table[np.where(present, rows, 0)] == np.arange(lo, lo + len(rows))[:, None, None]
        if np.any(back.sum(axis=2)[present] != 1):
            return None
        rev[lo : lo + step] = np.where(present, back.argmax(axis=2), 0)
    return rev


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's universal restart sequence: 1 1 2 1 1 2 4 1 1 2 ...

    >>> [luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)


class _Portfolio:
    """A complete search interleaved with short restarts that break ties at random.

    Depth-first search is heavy-tailed: one bad early choice can cost millions of positions while
    most orderings find a tour in a few hundred. So the complete search (which alone can prove
    absence) gets half of the work, in growing slices, and the other half goes to restarts with
    random tie-breaks and budgets in Luby's sequence. Either may answer: a restart that runs to
    the end without a tour is a proof too.
    """

    def __init__(
        self,
        board: Board,
        deadline: float | None,
        node_limit: int | None,
        seed: int,
        closed: bool = False,
        start: int | None = None,
        end: int | None = None,
    ) -> None:
        self.main = Search(board, closed=closed, start=start, end=end)
        self.probe = Search(board, closed=closed, start=start, end=end)
        self.probe.memo = self.main.memo  # dead positions are dead for both
        self.rng = np.random.default_rng(seed)
        self.deadline = deadline
        self.node_limit = node_limit
        self.restarts = 0
        self.slice_cap = max(20, min(SLICE, SLICE_WORK // max(board.size, 1)))
        self.unit = max(5, min(PROBE_UNIT, SLICE_WORK // 10 // max(board.size, 1)))

    @property
    def nodes(self) -> int:
        return self.main.nodes + self.probe.nodes

    def _step(self, search: Search, budget: int) -> int:
        if self.node_limit is not None:
            budget = min(budget, self.node_limit - self.nodes)
            if budget <= 0:
                raise self.gave_up("the node limit was reached", search)
        return search.advance(budget)

    def solve(self, first: int, end: int | None, avoid: tuple[int, ...] = ()) -> np.ndarray | None:
        """A path from ``first`` (to ``end``, its second square none of ``avoid``) through every
        square, or None if there is none."""
        self.main.begin(first, end, avoid)
        slice_ = min(PROBE_UNIT, self.slice_cap)
        while True:
            status = self._step(self.main, slice_)
            if status == FOUND:
                return self.main.path.copy()
            if status == EXHAUSTED:
                return None
            self._check_clock()
            spent = 0
            while spent < slice_:
                self.restarts += 1
                self.probe.shuffle(self.rng)
                self.probe.begin(first, end, avoid)
                before = self.probe.nodes
                status = self._step(self.probe, self.unit * luby(self.restarts))
                spent += self.probe.nodes - before
                if status == FOUND:
                    return self.probe.path.copy()
                if status == EXHAUSTED:
                    return None
                self._check_clock()
            slice_ = min(2 * slice_, self.slice_cap)

    def _check_clock(self) -> None:
        if expired(self.deadline):
            raise self.gave_up("the time limit was reached", self.main)

    def gave_up(self, why: str, search: Search) -> SearchFailedError:
        return search_failed(
            f"exact search gave up: {why} after {self.nodes:,} positions, with neither a tour "
            f"nor a proof that none exists",
            search.board,
            search.partial,
            "backtrack",
        )


@dataclass(frozen=True)
class _Plan:
    first: int
    end: int | None
    avoid: tuple[int, ...] = ()


def _plans(search: Search, start: int | None, end: int | None, closed: bool) -> Iterator[_Plan]:
    """The (first square, last square) searches that together cover every possible tour."""
    b = search.board
    if start is not None and (end is not None or not closed):
        yield _Plan(start, end)
        return
    if closed:
        # any closed tour passes through the square with fewest moves, v, and leaves it by two of
        # its moves: search paths from v that end on each neighbour in turn, then rotate; the
        # path to the i-th neighbour does not begin with an earlier one (that pair of moves was
        # the earlier search's), so the last search is left out
        pivot = min(b.squares(), key=lambda q: (search.degree(q), q))
        ends = [e for e in search.nbr[pivot].tolist() if e >= 0]
        for i, e in enumerate(ends[:-1]):
            yield _Plan(pivot, e, tuple(ends[:i]))
        return
    if end is not None:  # searched backwards from the end
        yield _Plan(end, None)
        return
    squares = list(b.squares())
    forced = [q for q in squares if search.degree(q) <= 1]
    if forced:  # a square with one move is an end of every tour
        yield from (_Plan(q, None) for q in forced[:1])
        return
    # a corner-like square first: fewest moves, nearest a1; none that colour parity rules out
    for q in sorted(squares, key=lambda q: (search.degree(q), q)):
        if colour_parity(b, q) is None:
            yield _Plan(q, None)


def _orient(
    b: Board, path: np.ndarray, start: int | None, end: int | None, closed: bool
) -> np.ndarray:
    """The found path turned to begin on ``start`` / end on ``end`` (rotating a closed tour)."""
    if closed and (start is not None or end is not None):
        if start is not None:
            i = int(np.flatnonzero(path == start)[0])
            path = np.roll(path, -i)
            if end is not None and int(path[-1]) != end:
                path = np.roll(path[::-1], 1)
        else:
            i = int(np.flatnonzero(path == end)[0])
            path = np.roll(path, -(i + 1))
        return np.ascontiguousarray(path)
    if start is None and end is not None and int(path[0]) == end:
        return path[::-1].copy()
    return path


@dataclass(frozen=True)
class _Halves:
    """An open tour that must run through ``first`` (its start on the lines) and then ``second``.

    See :func:`_halves`: ``first`` and ``second`` are masks of squares; a tour is a path through
    all of ``first`` that ends off the lines, one move to a square of ``second`` off the lines,
    and a path through all of ``second``.
    """

    first: np.ndarray
    second: np.ndarray


def _halves(board: Board, start: int | None, end: int | None, closed: bool) -> list[_Halves] | None:
    """The two ways to cut an open tour in halves, when independent lines hold half the squares.

    On a board whose leaper always changes colour, let the independent lines A
    (:func:`~knightstour.theory.independent_lines`) hold exactly half the squares, of both
    colours. An open tour never visits two squares of A in a row, so it alternates between A and
    the rest B but for at most one move between two squares of B. It cannot alternate all the way
    (A's squares would all be one colour), so it starts and ends on A and makes that one move:
    before it the tour alternates through A's squares of its first square's colour c and B's of
    the other colour; after it through the rest. None when this does not apply; else a list of
    the halves for each colour c that the given start and end allow (possibly empty: no tour).
    """
    if closed or board.is_plain_knight or not board.alternates_colours or board.size < 4:
        return None
    lines = independent_lines(board)
    if lines is None or 2 * lines.count != board.size:
        return None
    a = lines.mask
    idx = np.arange(board.area)
    colour = board.colour(idx) == 1
    if not (a & colour).any() or not (a & ~colour).any():
        return None
    free = np.ones(board.area, dtype=bool)
    if board.holes:
        free[list(board.holes)] = False
    out = []
    for c in (False, True):
        first = free & np.where(a, colour == c, colour != c)
        second = free & ~first
        if start is not None and not (a[start] and first[start]):
            continue
        if end is not None and not (a[end] and second[end]):
            continue
        out.append(_Halves(first, second))
    return out


def _half_board(board: Board, keep: np.ndarray) -> Board:
    """``board`` with every square outside ``keep`` made a hole."""
    holes = frozenset(np.flatnonzero(~keep).tolist())
    return Board(
        board.width, board.height, leaper=board.leaper, holes=holes, wrap=board.wrap,
        depth=board.depth,
    )  # fmt: skip


def _split_search(
    board: Board,
    halves: list[_Halves],
    start: int | None,
    end: int | None,
    deadline: float | None,
    node_limit: int | None,
    seed: int,
) -> tuple[np.ndarray | None, int]:
    """A tour made of two halves (see :func:`_halves`), or None; and the positions examined.

    For each move b1-b2 between the halves (both off the lines), a path through the first half
    that ends on b1 and one through the second that starts on b2: each half is searched alone,
    once for each square b1 or b2, so the search never pairs every path of one half with every
    path of the other. A path with one end free is searched as a whole board is
    (:func:`_from_square`): the theory, a short search with the end free, then one pair of ends
    at a time.
    """
    lines = independent_lines(board)
    assert lines is not None
    off = ~lines.mask
    table = board.neighbours
    portfolios: list[_Portfolio] = []
    spent = [0]  # positions of the searches with one end free

    def nodes() -> int:
        return sum(p.nodes for p in portfolios) + spent[0]

    def from_square(keep: np.ndarray, square: int) -> np.ndarray | None:
        left = None if node_limit is None else max(node_limit - nodes(), 1)
        path, positions = _from_square(_half_board(board, keep), square, deadline, left, seed)
        spent[0] += positions
        return path

    def half(keep: np.ndarray) -> _Portfolio:
        limit = None if node_limit is None else max(node_limit - nodes(), 1)
        portfolios.append(_Portfolio(_half_board(board, keep), deadline, limit, seed))
        return portfolios[-1]

    for h in halves:
        first, second = half(h.first), half(h.second)
        tails: dict[int, np.ndarray | None] = {}  # paths through the first half to b1
        heads: dict[int, np.ndarray | None] = {}  # paths through the second half from b2
        for b1 in np.flatnonzero(h.first & off).tolist():
            for b2 in table[b1].tolist():
                if b2 < 0 or not (h.second[b2] and off[b2]):
                    continue
                if b1 not in tails:
                    tails[b1] = (
                        first.solve(start, b1) if start is not None
                        else _reverse(from_square(h.first, b1))
                    )  # fmt: skip
                if tails[b1] is None:
                    break
                if b2 not in heads:
                    heads[b2] = (
                        second.solve(b2, end) if end is not None
                        else from_square(h.second, b2)
                    )  # fmt: skip
                if heads[b2] is not None:
                    path = np.concatenate([tails[b1], heads[b2]])
                    return path.astype(np.int32), nodes()
    return None, nodes()


def _from_square(
    board: Board, square: int, deadline: float | None, node_limit: int | None, seed: int
) -> tuple[np.ndarray | None, int]:
    """A path from ``square`` through every square of ``board``, its last square free, or None;
    and the positions examined (those of a path found by pairs of ends not counted).

    As :func:`exact_search` goes about an open tour from a given start: the theory, then
    :data:`HALF_FREE_NODES` positions with the end free, then one pair of ends at a time.
    """
    if obstruction(board, square, None, False) is not None:
        return None, 0
    first = HALF_FREE_NODES if node_limit is None else min(HALF_FREE_NODES, node_limit)
    try:
        return _free_search(board, square, None, deadline, first, seed), 0
    except NoTourError as no:
        return None, no.positions or 0
    except SearchFailedError:
        if expired(deadline) or (node_limit is not None and node_limit <= first):
            raise
    left = None if node_limit is None else node_limit - first
    try:
        return _ends_search(board, square, None, deadline, left, first), first
    except NoTourError as no:
        return None, no.positions or first


def _reverse(path: np.ndarray | None) -> np.ndarray | None:
    return None if path is None else path[::-1].copy()


def exact_search(
    board: Board,
    start: int | None = None,
    end: int | None = None,
    closed: bool = False,
    *,
    deadline: float | None = None,
    node_limit: int | None = None,
    seed: int | None = None,
) -> np.ndarray:
    """A tour found by exhaustive search, as square indices in visit order.

    Raises :class:`NoTourError` when the search proves there is none (the reason says so, with
    the number of positions examined) and :class:`SearchFailedError` when ``deadline``
    (``time.monotonic()`` seconds) or ``node_limit`` (positions) stops it first.

    >>> b = Board(5, 5)
    >>> exact_search(b, 0, 24).tolist()[-1]
    24
    >>> exact_search(Board(4, 4))
    Traceback (most recent call last):
    ...
    knightstour.errors.NoTourError: exhaustive search: no tour on 4x4 (... positions examined)
    """
    ruled_out = obstruction(board, start, end, closed)
    if ruled_out is not None:
        raise NoTourError(ruled_out.reason)
    if board.size == 1:
        return np.array([next(board.squares())], dtype=np.int32)
    board.require_memory(160, "the exact search")
    halves = _halves(board, start, end, closed)
    if halves is not None:
        path, nodes = _split_search(
            board, halves, start, end, deadline, node_limit, 0 if seed is None else seed
        )
        if path is not None:
            return path
        raise NoTourError(
            f"exhaustive search: no {describe_tour(board, start, end, closed)}: it would "
            f"start and end on the independent lines and make one move between two squares off "
            f"them, and no such pair of halves joins up ({nodes:,} positions examined)",
            positions=nodes,
        )
    seed = 0 if seed is None else seed
    if _by_ends(board, start, end, closed):
        # a short search with a free end first (most tours are found in a few thousand
        # positions), then one search for each pair of ends
        first = FREE_NODES if node_limit is None else min(FREE_NODES, node_limit)
        try:
            return _free_search(board, start, end, deadline, first, seed)
        except SearchFailedError:
            if expired(deadline) or (node_limit is not None and node_limit <= first):
                raise
        left = None if node_limit is None else node_limit - first
        return _ends_search(board, start, end, deadline, left, first)
    return _free_search(board, start, end, deadline, node_limit, seed, closed)


def _free_search(
    board: Board,
    start: int | None,
    end: int | None,
    deadline: float | None,
    node_limit: int | None,
    seed: int,
    closed: bool = False,
) -> np.ndarray:
    """The search of each plan (:func:`_plans`) in turn, each with the last square it is given."""
    portfolio = _Portfolio(board, deadline, node_limit, seed, closed, start, end)
    for plan in _plans(portfolio.main, start, end, closed):
        path = portfolio.solve(plan.first, plan.end, plan.avoid)
        if path is not None:
            return _orient(board, path, start, end, closed)
    raise NoTourError(
        f"exhaustive search: no {describe_tour(board, start, end, closed)} "
        f"({portfolio.nodes:,} positions examined)",
        positions=portfolio.nodes,
    )


def _by_ends(board: Board, start: int | None, end: int | None, closed: bool) -> bool:
    """Whether an open tour with a free end is searched one pair of ends at a time."""
    if closed or board.is_plain_knight or (start is not None and end is not None):
        return False
    return board.size <= (PAIRS_SQUARES if start is None and end is None else ENDS_SQUARES)


def _end_pairs(board: Board, start: int | None, end: int | None) -> list[tuple[int, int]]:
    """The (first, last) squares of the searches of :func:`_ends_search`.

    With a start: every last square; with an end: every first square, searched backwards from
    the end; with neither, every pair of squares once (a tour reversed is a tour). Pairs that
    colour parity or the independent lines rule out are left out; the squares with fewest moves
    come first (they are the likeliest ends).
    """
    squares = list(board.squares())
    degree = (board.neighbours >= 0).sum(axis=1)
    squares.sort(key=lambda q: (int(degree[q]), q))
    lines = independent_lines(board)

    def allowed(a: int, b: int) -> bool:
        if colour_parity(board, a, b) is not None:
            return False
        return lines is None or lines.count <= line_places(board, lines, a, b, False)[0]

    if start is not None or end is not None:
        fixed = start if start is not None else end
        assert fixed is not None
        return [(fixed, q) for q in squares if q != fixed and allowed(fixed, q)]
    pairs = []
    for i, a in enumerate(squares):
        pairs += [(a, b) for b in squares[i + 1 :] if allowed(a, b)]
    pairs.sort(key=lambda p: (int(degree[p[0]]) + int(degree[p[1]]), p))
    return pairs


def _links(board: Board, lines: Lines | None) -> list[tuple[int, int]]:
    """The moves between two squares off the independent lines, each once (lower square first).

    >>> b = Board(7, 8, leaper="zebra", wrap="cylinder", holes=["a1", "c1", "e3", "a6", "g7", "d8"])
    >>> len(_links(b, independent_lines(b)))
    22
    """
    if lines is None:
        return []
    table = board.neighbours
    out = []
    for q in board.squares():
        if lines.mask[q]:
            continue
        for r in table[q].tolist():
            if r > q and not lines.mask[r]:
                out.append((q, r))
    return out


def _link_moves(board: Board, lines: Lines, a: int, b: int) -> int:
    """How many moves between two squares off the lines an open tour from ``a`` to ``b`` makes.

    Its n - 1 moves each join two squares off the lines or one on them and one off (no move
    joins two on them); a square on the lines is at 2 of them, 1 at an end. So those joining two
    squares off the lines are n - 1 - (2 count - [a on them] - [b on them]).

    >>> b = Board(7, 8, leaper="zebra", wrap="cylinder", holes=["a1", "c1", "e3", "a6", "g7", "d8"])
    >>> lines = independent_lines(b)
    >>> _link_moves(b, lines, b.parse_square("e8"), b.parse_square("a2"))
    1
    """
    return board.size - 1 - 2 * lines.count + int(lines.mask[a]) + int(lines.mask[b])


def _ends_search(
    board: Board,
    start: int | None,
    end: int | None,
    deadline: float | None,
    node_limit: int | None,
    spent: int,
) -> np.ndarray:
    """An open tour found by one search for each pair of ends, or :class:`NoTourError`.

    With both ends fixed the pruning is far stronger (the unvisited squares must nest around
    the last square, a forced move into it names the next square), so a board whose free-end
    search runs for millions of positions is often settled in a few thousand a pair. The pairs
    (:func:`_end_pairs`) are searched in rounds, each with twice the budget of positions of the
    last, until one finds a tour or every one is exhausted. Dead positions are remembered
    across pairs (a pair with an end off the independent lines searches a narrower table, with
    its own memory). A dead position is one of a path to a given last square, so each pair is
    searched from its other square towards the given start or end, the last square of every
    search: the pairs then share their dead positions (from d4 on the holed 6x9 torus of the
    (0, 1) leaper, 0.2 million positions in all instead of 0.5 million).

    When the independent lines hold so many squares that a tour between two ends makes just
    one move between two squares off them (:func:`_link_moves`), the pair is searched once for
    each such move (:func:`_links`), on the table without the others: each tour is found by
    the search of its own move, and there every other square off the lines must alternate with
    the lines, which the search's reasoning on forced moves settles mostly at once.
    """
    searches: dict[tuple[bool, int], Search] = {}
    lines = independent_lines(board)
    links = _links(board, lines)
    alive = []
    for a, b in _end_pairs(board, start, end):
        if lines is not None and links and _link_moves(board, lines, a, b) == 1:
            alive += [(a, b, i) for i in range(len(links))]
        else:
            alive.append((a, b, -1))
    nodes = spent
    budget = PAIR_UNIT
    slice_cap = max(20, min(SLICE, SLICE_WORK // max(board.size, 1)))
    search: Search | None = None

    def gave_up(why: str) -> SearchFailedError:
        return search_failed(
            f"exact search gave up: {why} after {nodes:,} positions, with neither a tour "
            f"nor a proof that none exists",
            board,
            [] if search is None else search.partial,
            "backtrack",
        )

    while alive:
        later = []
        for a, b, i in alive:
            tight = lines is not None and line_places(board, lines, a, b, False)[1]
            if (tight, i) not in searches:
                link = None if i < 0 else links[i]
                searches[tight, i] = Search(board, start=a, end=b, link=link)
            search = searches[tight, i]
            search.begin(b, a)  # towards the fixed square: see above
            used = 0
            status = _search.BUDGET
            while used < budget:
                if expired(deadline):
                    raise gave_up("the time limit was reached")
                step = min(slice_cap, budget - used)
                if node_limit is not None:
                    step = min(step, node_limit - (nodes - spent))
                    if step <= 0:
                        raise gave_up("the node limit was reached")
                before = search.nodes
                status = search.advance(step)
                used += search.nodes - before
                nodes += search.nodes - before
                if status != _search.BUDGET:
                    break
            if status == FOUND:
                return _orient(board, search.path[::-1].copy(), start, end, False)
            if status != EXHAUSTED:
                later.append((a, b, i))
        alive = later
        budget *= 2
    raise NoTourError(
        f"exhaustive search: no {describe_tour(board, start, end, False)}: every pair of ends "
        f"searched ({nodes:,} positions examined)",
        positions=nodes,
    )


def backtrack(request: SolveRequest, /, *, node_limit: int | None = None) -> Solution:
    """The ``backtrack`` method: :func:`exact_search`; the request's seed steers its restarts.

    It takes no tie-break (ties between equal counts go by square, then at random), and
    ``node_limit`` bounds the positions it examines.

    >>> int(backtrack(SolveRequest(Board(5, 5), start=12, seed=2)).indices[0])
    12
    """
    if node_limit is not None and (
        isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 1
    ):
        raise InvalidInputError(f"node limit must be a positive integer, got {node_limit!r}")
    r = request
    path = exact_search(
        r.board, r.start, r.end, r.closed, deadline=r.deadline, node_limit=node_limit, seed=r.seed
    )
    return Solution(path, "backtrack")
