"""Random tours of shaped boards for :func:`~knightstour.library.generate.generate`.

A shaped board (holes, another leaper, a cylinder or a torus, layers: anything but the plain
knight's rectangle, which has compiled batch kernels) is walked here, in plain Python on its
neighbour table (:attr:`~knightstour.board.Board.neighbours`), which serves every shape alike:

- :func:`walk`: Warnsdorff's rule with random ties; its first ``slack`` moves go to a random
  candidate among those within one onward move of the fewest (as the plain board's walks do, so
  that the walks do not repeat themselves), never into a square with no moves left while others
  remain. A closed walk keeps a neighbour of the start, chosen at random, for the last move.
- :func:`search`: depth-first search that tries the candidates of its first ``free`` squares in a
  random order and then fewest onward moves first (ties at random), cuts a branch that strands a
  square (or, closed, spends the start's last free neighbour early), and goes on past each tour it
  finds, up to ``per_search`` tours or ``node_limit`` moves tried: on small boards it finds every
  tour there is.

Walk or search ``j`` of a run uses the seed :func:`walk_seed` ``(seed, j)`` (the plain board's
walks use the same), so a run gives the same tours wherever its batches are made.

>>> from knightstour.board import Board
>>> b = Board(6, 6, wrap="torus")
>>> t = walk(Table.of(b), 0, False, 10, random.Random(1))
>>> len(t), len(set(t)), all(b.is_move(p, q) for p, q in zip(t, t[1:]))
(36, 36, True)
>>> b = Board(6, 6, holes=["a1", "b1"])
>>> tours = search(Table.of(b), 2, True, 0, 10_000, 8, random.Random(2))
>>> len(tours), all(len(set(t)) == 34 and b.is_move(t[-1], t[0]) for t in tours)
(8, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from knightstour.board import Board

__all__ = ["Table", "search", "walk", "walk_seed"]

_M64 = (1 << 64) - 1


def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def walk_seed(seed: int, j: int) -> int:
    """The seed of walk ``j`` of a run seeded ``seed``: the batch kernels' own
    (:func:`knightstour.kernels.library.walk_seed`), in Python integers.

    >>> walk_seed(1, 0), walk_seed(1, 1) != walk_seed(1, 0)
    (6791897765849424158, True)
    """
    return _splitmix(_splitmix(seed & _M64) ^ j) & ((1 << 63) - 1)


@dataclass(frozen=True)
class Table:
    """A board's moves as Python lists, for the walks: ``moves[s]`` the squares a move from
    ``s`` (none from a hole, none into one), ``degree[s]`` how many."""

    board: Board
    moves: tuple[tuple[int, ...], ...]
    degree: tuple[int, ...]

    @staticmethod
    @lru_cache(maxsize=8)
    def of(board: Board) -> Table:
        """The table of ``board``, made once per process."""
        rows = board.neighbours.tolist()
        moves = tuple(tuple(q for q in row if q >= 0) for row in rows)
        return Table(board, moves, tuple(len(m) for m in moves))


def walk(
    table: Table, start: int, closed: bool, slack: int, rng: random.Random
) -> list[int] | None:
    """One random Warnsdorff walk from ``start``: the tour, or None when it got stuck (or, closed,
    did not close)."""
    moves, n = table.moves, table.board.size
    deg = list(table.degree)
    seen = bytearray(len(moves))
    keep = -1
    if closed and n > 1:
        if not moves[start]:
            return None
        keep = rng.choice(moves[start])
    seen[start] = 1
    for q in moves[start]:
        deg[q] -= 1
    path = [start]
    cur = start
    for k in range(1, n):
        last = k == n - 1
        cands = [q for q in moves[cur] if not seen[q] and (last or q != keep)]
        if not last:
            cands = [q for q in cands if deg[q] > 0] or cands
        if not cands:
            return None
        low = min(deg[q] for q in cands)
        reach = low + 1 if k < slack else low
        cands = [q for q in cands if deg[q] <= reach]
        cur = cands[rng.randrange(len(cands))] if len(cands) > 1 else cands[0]
        seen[cur] = 1
        for q in moves[cur]:
            deg[q] -= 1
        path.append(cur)
    if closed and n > 1 and start not in moves[cur]:
        return None
    return path


def search(
    table: Table,
    start: int,
    closed: bool,
    free: int,
    node_limit: int,
    per_search: int,
    rng: random.Random,
) -> list[list[int]]:
    """Up to ``per_search`` tours from ``start`` by a randomised depth-first search of at most
    ``node_limit`` moves (see the module's notes)."""
    moves, n = table.moves, table.board.size
    deg = list(table.degree)
    seen = bytearray(len(moves))
    closing = bytearray(len(moves))
    close_left = 0
    if closed and n > 1:
        for q in moves[start]:
            closing[q] = 1
            close_left += 1
    seen[start] = 1
    for q in moves[start]:
        deg[q] -= 1
    path = [start]
    tours: list[list[int]] = []
    if n == 1:
        return [path]

    def order(cur: int, depth: int) -> list[int]:
        cands = [q for q in moves[cur] if not seen[q]]
        rng.shuffle(cands)
        if depth >= free:  # tried from the end: fewest onward moves last in the list
            cands.sort(key=deg.__getitem__, reverse=True)  # stable: ties stay shuffled
        return cands

    stack = [order(start, 0)]
    nodes = 0
    while stack and nodes <= node_limit and len(tours) < per_search:
        cands = stack[-1]
        if not cands:  # every candidate tried: back to the square before
            stack.pop()
            if len(path) > 1:
                q = path.pop()
                seen[q] = 0
                for r in moves[q]:
                    deg[r] += 1
                close_left += closing[q]
            continue
        q = cands.pop()
        nodes += 1
        left = n - len(path) - 1  # squares unvisited once q is
        seen[q] = 1
        for r in moves[q]:
            deg[r] -= 1
        ok = not (left > 1 and any(not seen[r] and deg[r] == 0 for r in moves[q]))
        if ok and closing[q] and close_left == 1 and left > 0:
            ok = False
        if ok and left == 0:
            if not closed or closing[q]:
                tours.append([*path, q])
            ok = False  # a full path: nothing further
        if ok:
            close_left -= closing[q]
            path.append(q)
            stack.append(order(q, len(path) - 1))
            continue
        seen[q] = 0
        for r in moves[q]:
            deg[r] += 1
    return tours
