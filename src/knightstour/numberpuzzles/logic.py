"""The solver by human logic: a number puzzle filled in by the deductions a person makes, each
step said in words, graded by the hardest deduction it needed.

The deductions, by level (docs/puzzles.md shows each on a board):

- **easy**, *neighbour*: a missing number is a knight's move from its neighbours in the sequence
  that are written; when only one free square is, the number goes there;
- **medium**, *dead end*: a free square with one way in or out left is an end of the tour (1 or
  N); *two ways*: a free square with only two ways in and out left sits between them in the
  sequence, so a number written on one of them names it; *only number*: a square that only one
  missing number can reach;
- **hard**, *distance*: a number ``g`` moves after one written number and ``h`` before the next
  lies within ``g`` knight's moves of the first and ``h`` of the second, and on the colour those
  counts give (a knight changes colour at every move);
- **expert**, *free paths*: the same counted over free squares only (the written numbers block
  the way), and the short gaps tried path by path.

Each step writes every number that the easiest deduction that finds any can place; a puzzle is
solved at a level when the deductions of that level fill it with no guessing. Deductions are
sound, so a puzzle the solver fills has exactly one solution.

>>> from knightstour.numberpuzzles.grid import parse_puzzle
>>> p = parse_puzzle('''
...  7 20  9 14  5
... 10 15  6  . 24
... 21  8 25  4 13
... 16 11  . 23 18
...  1 22 17 12  3
... ''')
>>> result = solve_logically(p)
>>> result.solved, result.grade, result.needed()
(True, 'easy', {'neighbour': 2})
>>> print(result.steps[0].reason)
2 goes on c2: it is a knight's move from 1 on a1 and from 3 on e1, and no other free square is
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from knightstour.board import Board
from knightstour.errors import InvalidInputError
from knightstour.numberpuzzles.grid import LEVELS, NumberPuzzle

__all__ = ["KINDS", "Deduction", "LogicResult", "next_deduction", "solve_logically"]

#: Each kind of deduction and its level.
KINDS = {
    "neighbour": "easy",
    "dead end": "medium",
    "two ways": "medium",
    "only number": "medium",
    "distance": "hard",
    "only number by distance": "hard",
    "free paths": "expert",
    "only number by free paths": "expert",
}
#: Gaps of at most this many missing numbers are tried path by path at the expert level.
SHORT_GAP = 5
#: The most paths tried in one short gap (beyond, the gap is left to the counted walks).
MAX_PATHS = 20_000


@dataclass(frozen=True)
class Deduction:
    """One step of reasoning: ``number`` goes on ``square``, by a deduction of ``kind`` (its
    level in :data:`KINDS`), with the ``reason`` in words and the ``squares`` it concerns
    (the square filled first)."""

    number: int
    square: int
    kind: str
    reason: str
    squares: tuple[int, ...]

    @property
    def level(self) -> str:
        """The level of the deduction."""
        return KINDS[self.kind]


@dataclass(frozen=True)
class LogicResult:
    """What the solver by logic did: ``solved`` (every square filled), the ``steps`` in order,
    the ``grade`` (the hardest level used; None when not solved), the ``filled`` squares
    (square: number, givens included), and the ``contradiction`` it met, if any (the numbers
    written cannot all be right)."""

    solved: bool
    steps: tuple[Deduction, ...]
    grade: str | None
    filled: dict[int, int]
    contradiction: str | None = None

    def needed(self) -> dict[str, int]:
        """How many steps of each kind, in the order of :data:`KINDS`."""
        counts = {kind: 0 for kind in KINDS}
        for step in self.steps:
            counts[step.kind] += 1
        return {kind: c for kind, c in counts.items() if c}


class Contradiction(Exception):
    """The numbers written cannot all be right (said in words)."""


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@functools.lru_cache(maxsize=16)
def _geometry(board: Board) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Each square's neighbours as a bit mask, and each square's *balls*: ``balls[s][d]`` the
    squares a walk of exactly ``d`` moves from ``s`` can end on (within ``d``, on the colour
    ``d`` gives), for ``d`` up to the board's diameter plus one."""
    from knightstour.numberpuzzles.exact import distance_table

    nb = []
    for s in range(board.area):
        m = 0
        for t in board.moves(s) if s not in board.holes else ():
            m |= 1 << t
        nb.append(m)
    dist = distance_table(board)
    reach = [d for d in dist.reshape(-1).tolist() if d < 1 << 20]
    top = (max(reach) if reach else 0) + 2
    balls: list[tuple[int, ...]] = []
    for s in range(board.area):
        if s in board.holes:
            balls.append(())
            continue
        by = [0] * top
        for t, d in enumerate(dist[s].tolist()):
            if d < top:
                by[d] |= 1 << t
        row: list[int] = []
        acc = [0, 0]
        for d in range(top):
            acc[d % 2] |= by[d]
            row.append(acc[d % 2])
        balls.append(tuple(row))
    return tuple(nb), tuple(balls)


class _State:
    """The grid being filled: numbers by square and squares by number, as bit masks."""

    def __init__(self, puzzle: NumberPuzzle) -> None:
        b = puzzle.board
        self.board, self.n, self.closed = b, b.size, puzzle.closed
        self.nb, self.balls = _geometry(b)
        self.at = [-1] * (self.n + 2)
        self.num = [0] * b.area
        self.empty = 0
        for s in b.squares():
            self.empty |= 1 << s
        self.placed: list[int] = []
        for s, k in puzzle.givens.items():
            self.put(k, s)

    def put(self, k: int, s: int) -> None:
        self.at[k], self.num[s] = s, k
        self.empty &= ~(1 << s)
        bisect.insort(self.placed, k)

    def name(self, s: int) -> str:
        return self.board.square_name(s)

    def pred(self, k: int) -> int:
        return k - 1 if k > 1 else (self.n if self.closed and self.n > 2 else 0)

    def succ(self, k: int) -> int:
        return k + 1 if k < self.n else (1 if self.closed and self.n > 2 else 0)

    def side(self, k: int, before: bool) -> tuple[int, int] | None:
        """The nearest written number before (or after) ``k`` and how many moves away."""
        p = self.placed
        if not p:
            return None
        if before:
            i = bisect.bisect_left(p, k) - 1
            if i >= 0:
                return p[i], k - p[i]
            return (p[-1], k + self.n - p[-1]) if self.closed else None
        i = bisect.bisect_right(p, k)
        if i < len(p):
            return p[i], p[i] - k
        return (p[0], p[0] + self.n - k) if self.closed else None

    def missing(self) -> list[int]:
        return [k for k in range(1, self.n + 1) if self.at[k] < 0]

    def ball(self, s: int, d: int) -> int:
        row = self.balls[s]
        if d >= len(row):
            d = len(row) - 2 + (d - len(row)) % 2
        return row[d]

    def expand(self, mask: int) -> int:
        out = 0
        for s in _bits(mask):
            out |= self.nb[s]
        return out

    def hungry(self) -> int:
        """The squares whose number still misses a neighbour in the sequence."""
        m = 0
        for k in self.placed:
            for j in (self.pred(k), self.succ(k)):
                if j and self.at[j] < 0:
                    m |= 1 << self.at[k]
                    break
        return m


# -- the deductions ---------------------------------------------------------------------------


def _neighbour(st: _State) -> list[Deduction]:
    out = []
    for k in st.missing():
        cand, known = st.empty, []
        for j in (st.pred(k), st.succ(k)):
            if j and st.at[j] >= 0:
                cand &= st.nb[st.at[j]]
                known.append(j)
        if not known:
            continue
        if cand == 0:
            froms = " and from ".join(f"{j} on {st.name(st.at[j])}" for j in known)
            raise Contradiction(f"{k} must be a knight's move from {froms}, and no free square is")
        if cand & (cand - 1) == 0:
            s = cand.bit_length() - 1
            froms = " and from ".join(f"{j} on {st.name(st.at[j])}" for j in known)
            out.append(
                Deduction(
                    k,
                    s,
                    "neighbour",
                    f"{k} goes on {st.name(s)}: it is a knight's move from {froms}, and no other "
                    "free square is",
                    (s, *(st.at[j] for j in known)),
                )
            )
    return out


def _ways(st: _State) -> list[Deduction]:
    out = []
    hungry = st.hungry()
    ends = [k for k in (1, st.n) if st.at[k] < 0] if not st.closed else []
    for s in _bits(st.empty):
        ways = st.nb[s] & (st.empty | hungry)
        count = bin(ways).count("1")
        if count == 0 and st.n > 1:
            raise Contradiction(f"{st.name(s)} has no way in or out left")
        if count == 1:
            t = ways.bit_length() - 1
            options = set(ends)
            if st.num[t]:
                m = st.num[t]
                options &= {j for j in (m - 1, m + 1) if 1 <= j <= st.n}
            if not options:
                raise Contradiction(
                    f"{st.name(s)} has only one way in or out ({st.name(t)}), but cannot be an "
                    "end of the tour"
                )
            if len(options) == 1:
                k = options.pop()
                out.append(
                    Deduction(
                        k,
                        s,
                        "dead end",
                        f"{k} goes on {st.name(s)}: {st.name(s)} has only one way in or out left "
                        f"({st.name(t)}), so it is an end of the tour, and {k} is the end still "
                        "free",
                        (s, t),
                    )
                )
        elif count == 2 and not ends:
            t1, t2 = _bits(ways)
            between: set[int] | None = None
            for t in (t1, t2):
                if st.num[t]:
                    m = st.num[t]
                    free = {j for j in (st.pred(m), st.succ(m)) if j and st.at[j] < 0}
                    between = free if between is None else between & free
            if between is not None and len(between) == 1:
                k = between.pop()
                holders = [t for t in (t1, t2) if st.num[t]]
                said = " and ".join(f"{st.num[t]} on {st.name(t)}" for t in holders)
                out.append(
                    Deduction(
                        k,
                        s,
                        "two ways",
                        f"{k} goes on {st.name(s)}: {st.name(s)} has only two ways in and out "
                        f"left, {st.name(t1)} and {st.name(t2)}, so it sits between them in the "
                        f"sequence, next to {said}",
                        (s, t1, t2),
                    )
                )
    return out


def _anchored(st: _State) -> dict[int, int]:
    """Each missing number's squares by the neighbour deduction (every free square when no
    neighbour in the sequence is written)."""
    cands = {}
    for k in st.missing():
        cand = st.empty
        for j in (st.pred(k), st.succ(k)):
            if j and st.at[j] >= 0:
                cand &= st.nb[st.at[j]]
        cands[k] = cand
    return cands


def _distance(st: _State) -> dict[int, int]:
    """Each missing number's squares by distance and colour from the nearest written numbers."""
    cands = {}
    for k in st.missing():
        cand = st.empty
        for before in (True, False):
            near = st.side(k, before)
            if near is not None:
                cand &= st.ball(st.at[near[0]], near[1])
        cands[k] = cand
    return cands


def _free_paths(st: _State) -> dict[int, int]:
    """Each missing number's squares by walks over free squares from the nearest written
    numbers, and by every path of the short gaps."""
    cands = _distance(st)
    missing = st.missing()
    seen: set[int] = set()
    for k in missing:
        if k in seen:
            continue
        a, b = st.side(k, True), st.side(k, False)
        run = []
        j = k
        while j and st.at[j] < 0 and j not in seen:
            run.append(j)
            seen.add(j)
            j = st.succ(j)
        if a is not None:  # walks from the number before, over free squares
            layer = 1 << st.at[a[0]]
            for j in run:
                layer = st.expand(layer) & st.empty
                cands[j] &= layer
        if b is not None:
            layer = 1 << st.at[b[0]]
            for j in reversed(run):
                layer = st.expand(layer) & st.empty
                cands[j] &= layer
        if a is not None and b is not None and len(run) <= SHORT_GAP:
            used = _paths(st, st.at[a[0]], st.at[b[0]], [cands[j] for j in run])
            if used is not None:
                for j, mask in zip(run, used, strict=True):
                    cands[j] &= mask
    return cands


def _paths(st: _State, first: int, last: int, cands: list[int]) -> list[int] | None:
    """The squares each step of a path from ``first`` to ``last`` through ``cands`` can use
    (a union over every such path), or None when there are too many to try."""
    used = [0] * len(cands)
    path: list[int] = []
    tried = 0

    def walk(at: int, i: int, taken: int) -> bool:
        nonlocal tried
        if i == len(cands):
            tried += 1
            if st.nb[at] >> last & 1:
                for j, s in enumerate(path):
                    used[j] |= 1 << s
            return tried < MAX_PATHS
        for s in _bits(st.nb[at] & cands[i] & ~taken):
            path.append(s)
            going = walk(s, i + 1, taken | 1 << s)
            path.pop()
            if not going:
                return False
        return True

    return used if walk(first, 0, 0) else None


def _singles(
    st: _State, *, cands_of: Callable[[_State], dict[int, int]], kind: str, only: str, why: str
) -> list[Deduction]:
    """The numbers with one square left among their candidates (``cands_of``), then the
    squares with one number left."""
    cands = cands_of(st)
    out = []
    once = twice = 0
    for k, cand in cands.items():
        if cand == 0:
            raise Contradiction(f"{k} has no square left: {why}")
        twice |= once & cand
        once |= cand
        if cand & (cand - 1) == 0:
            s = cand.bit_length() - 1
            out.append(Deduction(k, s, kind, _single_words(st, k, s, kind), (s,)))
    if out:
        return out
    if st.empty & ~once:
        s = (st.empty & ~once).bit_length() - 1
        raise Contradiction(f"no missing number can go on {st.name(s)}: {why}")
    for s in _bits(once & ~twice & st.empty):
        k = next(k for k, cand in cands.items() if cand >> s & 1)
        out.append(
            Deduction(
                k,
                s,
                only,
                f"{st.name(s)} can only hold {k}: every other missing number is {why}",
                (s,),
            )
        )
        break
    return out


def _single_words(st: _State, k: int, s: int, kind: str) -> str:
    a, b = st.side(k, True), st.side(k, False)
    said = []
    for near, word in ((a, "after"), (b, "before")):
        if near is not None:
            moves = f"{near[1]} move{'s' if near[1] != 1 else ''}"
            said.append(f"{moves} {word} {near[0]} on {st.name(st.at[near[0]])}")
    ends = " and ".join(said)
    if kind == "distance":
        return (
            f"{k} goes on {st.name(s)}: it is {ends}, and {st.name(s)} is the only free square "
            "that close to both on the colour those counts give"
        )
    return (
        f"{k} goes on {st.name(s)}: it is {ends}, and every way there over free squares passes "
        f"{st.name(s)} at {k}"
    )


def _medium(st: _State) -> list[Deduction]:
    found = _ways(st)
    if found:
        return found
    cands = _anchored(st)
    out = []
    once = twice = 0
    for cand in cands.values():
        twice |= once & cand
        once |= cand
    for s in _bits(once & ~twice & st.empty):
        k = next(k for k, cand in cands.items() if cand >> s & 1)
        out.append(
            Deduction(
                k,
                s,
                "only number",
                f"{st.name(s)} can only hold {k}: every other missing number must be a knight's "
                f"move from a written neighbour in the sequence that {st.name(s)} is not",
                (s,),
            )
        )
        break
    return out


#: The rules of each level, easiest first.
_RULES: tuple[tuple[str, Callable[[_State], list[Deduction]]], ...] = (
    ("easy", _neighbour),
    ("medium", _medium),
    (
        "hard",
        functools.partial(
            _singles,
            cands_of=_distance,
            kind="distance",
            only="only number by distance",
            why="too far from its written neighbours in the sequence",
        ),
    ),
    (
        "expert",
        functools.partial(
            _singles,
            cands_of=_free_paths,
            kind="free paths",
            only="only number by free paths",
            why="out of reach of its written neighbours over free squares",
        ),
    ),
)


def _step(st: _State, level: str) -> list[Deduction]:
    """The deductions of the easiest rule up to ``level`` that finds any."""
    top = LEVELS.index(level)
    for name, rule in _RULES:
        if LEVELS.index(name) > top:
            break
        found = rule(st)
        if found:
            return found
    return []


def _check_level(level: str) -> str:
    if level not in LEVELS:
        raise InvalidInputError(f"the level is one of {', '.join(LEVELS)}, not {level!r}")
    return level


def solve_logically(puzzle: NumberPuzzle, *, level: str = "expert") -> LogicResult:
    """Fill ``puzzle`` by the deductions of ``level`` and those below, no guessing.

    >>> from knightstour.numberpuzzles.grid import parse_puzzle
    >>> r = solve_logically(parse_puzzle("1 . .\\n. . .\\n. . ."))
    >>> r.solved, r.contradiction
    (False, 'b2 has no way in or out left')
    """
    _check_level(level)
    st = _State(puzzle)
    steps: list[Deduction] = []
    hardest = -1
    try:
        _consistent(st)
        while st.empty:
            found = _step(st, level)
            if not found:
                break
            for d in found:
                if st.at[d.number] >= 0 and st.at[d.number] != d.square:
                    raise Contradiction(
                        f"{d.number} would go on {st.name(st.at[d.number])} and {st.name(d.square)}"
                    )
                if st.num[d.square] and st.num[d.square] != d.number:
                    raise Contradiction(
                        f"{st.name(d.square)} would hold {st.num[d.square]} and {d.number}"
                    )
                if st.at[d.number] < 0:
                    st.put(d.number, d.square)
                    steps.append(d)
                    hardest = max(hardest, LEVELS.index(d.level))
        if not st.empty:
            _consistent(st)
    except Contradiction as e:
        return LogicResult(False, tuple(steps), None, _filled(st), str(e))
    solved = not st.empty
    grade = LEVELS[max(hardest, 0)] if solved else None
    return LogicResult(solved, tuple(steps), grade, _filled(st))


def _consistent(st: _State) -> None:
    """Raise :class:`Contradiction` when two written consecutive numbers are no move apart."""
    for k in st.placed:
        j = st.succ(k)
        if j and st.at[j] >= 0 and not st.nb[st.at[k]] >> st.at[j] & 1:
            raise Contradiction(
                f"{k} on {st.name(st.at[k])} and {j} on {st.name(st.at[j])} are not a knight's "
                "move apart"
            )


def _filled(st: _State) -> dict[int, int]:
    return {st.at[k]: k for k in st.placed}


def next_deduction(puzzle: NumberPuzzle) -> Deduction | LogicResult:
    """The next step a person can take (the easiest deduction that places a number), or the
    solver's result when there is none: solved already, a contradiction, or stuck.

    >>> from knightstour.numberpuzzles.grid import parse_puzzle
    >>> print(next_deduction(parse_puzzle("1 . .\\n. . .\\n. . 2")).contradiction)
    1 on a3 and 2 on c1 are not a knight's move apart
    """
    st = _State(puzzle)
    try:
        _consistent(st)
        if st.empty:
            found = _step(st, "expert")
            if found:
                return found[0]
    except Contradiction as e:
        return LogicResult(False, (), None, _filled(st), str(e))
    solved = not st.empty
    return LogicResult(solved, (), "easy" if solved else None, _filled(st))
