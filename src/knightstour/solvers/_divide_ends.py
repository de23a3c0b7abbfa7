"""Open tours between two given squares, built in linear time: divide and conquer with the ends.

The board is cut into blocks 6 to 11 squares on a side. A *corridor* of blocks runs from the
block S holding the start ``s`` along its row of blocks to the column of blocks of the end ``t``,
then along that column to the block T holding ``t``. Each corridor block holds a Hamiltonian path
of the block, found by a small exact search (:func:`knightstour.kernels.divide.
block_path`): S from ``s`` to a square next to the following block, the blocks after it from the
square a knight's move across the cut to one next to the block after, and T on to ``t``. Every
other block holds its stored closed tour (the divide data), and those cycles are *absorbed*: a
cycle with a move ``a1 - a2`` next to a path (or a cycle) with a move ``b1 - b2``, where ``a1 -
b1`` and ``a2 - b2`` are knight's moves, becomes one with it when the two moves are exchanged for
the two crossing moves. A path that absorbs a cycle keeps its two ends. The blocks are absorbed
along a spanning tree: up and down each column of blocks to the corridor's row, and along that
row to the corridor (the columns of the corridor's vertical leg to its two ends); the corridor
blocks' searches are made to keep the moves their neighbours join with (``grid_edges``).

When both sides are odd the one block that is odd by odd is placed on the corridor (it has no
closed tour). Where a block search fails (rare: an end next to a join move, say), another cut of
the board is tried, then the board's symmetries (reflections, the transpose, the two ends
swapped). When both ends share a block whose paths cannot join them, the block's path takes a
jump and a neighbouring block holds the detour (:func:`_try_detour`); a board of at most
:data:`WHOLE_AREA` squares may fall back to the package's exact search. :func:`plan` decides
whether a tour is built without building it (linear in the sides, not the area), so ``exists``
answers by it. docs/divide.md has what is proved and what is tested.

>>> import numpy as np
>>> from knightstour.board import Board
>>> p = ends_tour(Board(20, 20), 0, 1)
>>> int(p[0]), int(p[-1]), len(set(p.tolist()))
(0, 1, 400)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from knightstour.board import Board
from knightstour.kernels import divide as _divide_kernels
from knightstour.kernels import jit

__all__ = ["MIN_SIDE", "Plan", "ends_tour", "plan"]

#: Both sides of a board at least this: the blocks are 6 to 11 squares on a side.
MIN_SIDE = 6
_EVEN = (8, 6, 10)
_ODD = (7, 9, 11)
#: Positions the block search may examine, for each seed it tries.
SEARCH_LIMIT = 20_000
SEEDS = (1, 2, 3)
#: On a board of at most this many squares, where every cut and symmetry failed, the package's
#: exact search gets the whole board, for this many positions.
WHOLE_AREA = 144
WHOLE_LIMIT = 2_000_000
#: Partitions of the board tried before the next symmetry.
TRIES = 40
KNIGHT = ((2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))


@functools.cache
def _data() -> dict[str, np.ndarray]:
    """The stored closed block tours (``grid_closed/WxH`` of divide's data file)."""
    from importlib.resources import files

    with files("knightstour").joinpath("data/divide_tours.npz").open("rb") as f, np.load(f) as z:
        return {k: z[k] for k in z.files if k.startswith("grid_closed/")}


def _kernels() -> jit.Kernels:
    return jit.load(_divide_kernels, compiled=True)


# -- the small exact search, remembered -------------------------------------------------------------


@functools.cache
def _moves(w: int, h: int) -> np.ndarray:
    nb = np.full((w * h, 8), -1, dtype=np.int32)
    for y in range(h):
        for x in range(w):
            k = 0
            for dx, dy in KNIGHT:
                if 0 <= x + dx < w and 0 <= y + dy < h:
                    nb[y * w + x, k] = (y + dy) * w + x + dx
                    k += 1
    return nb


def _colour(w: int, q: int) -> int:
    return (q % w + q // w) % 2


@functools.lru_cache(maxsize=1 << 12)
def block_search(
    w: int,
    h: int,
    a: int,
    b: int,
    forced: tuple[tuple[int, int], ...],
    jump: tuple[int, int] | None = None,
) -> np.ndarray | None:
    """A Hamiltonian path of the w x h block from ``a`` to ``b`` (local squares ``y * w + x``)
    keeping the ``forced`` moves, or None (colour parity, or the search gave up). With a
    ``jump`` (two squares that are not a knight's move apart) the path takes it as one step: a
    detour through a neighbouring block replaces it.

    >>> block_search(6, 6, 0, 1, ()).size
    36
    """
    n = w * h
    ca, cb = _colour(w, a), _colour(w, b)
    if jump is None and n % 2 == 0 and ca == cb:
        return None
    if jump is None and n % 2 == 1 and (ca or cb):
        return None
    moves = _moves(w, h)
    if jump is not None:
        moves = np.concatenate([moves, np.full((n, 1), -1, dtype=np.int32)], axis=1)
        moves[jump[0], 8], moves[jump[1], 8] = jump[1], jump[0]
        forced = (*forced, jump)
    fz = np.full((n, 2), -1, dtype=np.int32)
    for p, q in forced:
        for u, v in ((p, q), (q, p)):
            if fz[u, 0] < 0:
                fz[u, 0] = v
            elif fz[u, 1] < 0:
                fz[u, 1] = v
            else:
                return None
    path = np.zeros(n, dtype=np.int32)
    k = _kernels()
    for seed in SEEDS:
        status = k.block_path(moves, n, a, b, fz, SEARCH_LIMIT, seed, path)
        if status == 1:
            path.flags.writeable = False
            return path.copy()
        if status == 0:
            return None
    return None


# -- the join moves ---------------------------------------------------------------------------------


def _joins(w: int, h: int) -> dict[str, tuple[int, int]]:
    """The join moves of a block (as ``grid_edges``): BR, BLH, TL, BLV."""
    return {
        "BR": (w - 1, 3 * w - 2),
        "BLH": (w + 1, 3 * w),
        "TL": ((h - 1) * w, (h - 2) * w + 2),
        "BLV": (w + 1, 3),
    }


# -- cutting the sides ----------------------------------------------------------------------------


def _even_fill(g: int) -> list[int] | None:
    """Even parts of 6 to 10 (mostly 8) making up ``g``, or None."""
    if g == 0:
        return []
    if g % 2 or g < 6:
        return None
    parts = []
    while g > 10:
        take = 8 if g - 8 >= 6 else 6
        parts.append(take)
        g -= take
    return [*parts, g]


def _sizes(odd: bool) -> tuple[int, ...]:
    return _ODD if odd else _EVEN


def _offsets(c: int, k: int, n: int) -> list[int]:
    """Origins of a part ``k`` long holding ``c``, the most central first."""
    xs = [x for x in range(max(0, c - k + 1), min(c, n - k) + 1)]
    return sorted(xs, key=lambda x: (abs(2 * (c - x) - (k - 1)), x))


def _cuts(n: int, a: int, b: int, odd_at: str, big: bool = False) -> Iterator[list[int]]:
    """Ways to cut a side ``n`` into parts of 6 to 11, each but one even; the odd one (when ``n``
    is odd) holds ``a`` (``odd_at='a'``) or ``b``. Parts holding ``a`` and ``b`` vary. With
    ``big`` (the other side is one part), last, a part of 12 to 22 holding both."""
    yield from _small_cuts(n, a, b, odd_at)
    if not big or n <= 11:
        return
    lo, hi = min(a, b), max(a, b)
    for k in range(12, min(n, 22) + 1):
        if k % 2 != n % 2:
            continue
        for x in _offsets(lo, k, n):
            if hi >= x + k:
                continue
            left, right = _even_fill(x), _even_fill(n - x - k)
            if left is not None and right is not None:
                yield [*left, k, *right]


def _small_cuts(n: int, a: int, b: int, odd_at: str) -> Iterator[list[int]]:
    if MIN_SIDE <= n <= 11:
        yield [n]
        return
    odd = n % 2 == 1
    lo, hi = (a, b) if a <= b else (b, a)
    lo_odd = odd and ((odd_at == "a") == (a <= b))
    hi_odd = odd and not lo_odd
    seen = set()
    for k1 in _sizes(lo_odd):
        for x1 in _offsets(lo, k1, n):
            left = _even_fill(x1)
            if left is None:
                continue
            end1 = x1 + k1
            if hi < end1:  # both in one part
                if hi_odd:
                    continue
                right = _even_fill(n - end1)
                if right is not None:
                    parts = [*left, k1, *right]
                    if tuple(parts) not in seen:
                        seen.add(tuple(parts))
                        yield parts
                continue
            for k2 in _sizes(hi_odd):
                for x2 in _offsets(hi, k2, n):
                    if x2 < end1:
                        continue
                    mid, right = _even_fill(x2 - end1), _even_fill(n - x2 - k2)
                    if mid is None or right is None:
                        continue
                    parts = [*left, k1, *mid, k2, *right]
                    if tuple(parts) not in seen:
                        seen.add(tuple(parts))
                        yield parts


# -- the plan ---------------------------------------------------------------------------------------


@dataclass
class Plan:
    """How a tour from ``s`` to ``t`` on a ``W`` x ``H`` board is built (in the plan's own frame).

    ``cols``/``rows``: the block sides; ``corridor``: the corridor's blocks ``(i, j)`` in order;
    ``paths``: each corridor block's path (local squares); ``forced``: the join moves each
    corridor block keeps (``BR``, ``BLH``, ``TL``, ``BLV``) for the cycles absorbed into it.
    """

    W: int
    H: int
    s: int
    t: int
    cols: list[int]
    rows: list[int]
    corridor: list[tuple[int, int]]
    paths: list[np.ndarray]
    forced: dict[tuple[int, int], tuple[str, ...]]
    #: When ``s`` and ``t`` share block S and no path of S joins them: S's path takes a jump
    #: ``(p, q)``, and the second corridor block N holds a path ``p2 -> q2`` (``p - p2`` and
    #: ``q - q2`` knight's moves): ``(join slot of S, slot of N, (p, q), (p2, q2))``.
    detour: tuple[int, int, tuple[int, int], tuple[int, int]] | None = None


@functools.lru_cache(maxsize=4096)
def _crossings(wa: int, ha: int, wb: int, hb: int, di: int, dj: int) -> list[tuple[int, int]]:
    """Knight's moves from block A into the neighbouring block B (``(di, dj)`` from A to B), as
    ``(local square in A, local square in B)``, the ones near the middle of the cut first."""
    if dj != 0:  # side by side, one height: across the cut is x
        out = [(v * wa + ua, v2 * wb + ub, c) for ua, v, ub, v2, c in _across(wa, wb, ha, dj > 0)]
    else:  # one above the other, one width: across the cut is y
        out = [(ua * wa + v, ub * wa + v2, c) for ua, v, ub, v2, c in _across(ha, hb, wa, di > 0)]
    out.sort(key=lambda c: (c[2], c[0], c[1]))
    return [(a, b) for a, b, _ in out]


def _across(la: int, lb: int, n: int, forward: bool) -> list[tuple[int, int, int, int, int]]:
    """Knight's moves across the cut between A (``la`` squares across it) and B (``lb``), both
    ``n`` squares along it, B after A when ``forward``: ``(across in A, along in A, across in
    B, along in B, how far the move is from the middle of the cut)``."""
    out = []
    for v in range(n):
        for du, dv in KNIGHT:  # the moves are the same with the axes swapped
            v2 = v + dv
            if not 0 <= v2 < n:
                continue
            for ua in (la - 1, la - 2) if forward else (0, 1):
                ub = ua + du - la if forward else ua + du + lb
                if 0 <= ub < lb and (ua + du >= la if forward else ua + du < 0):
                    out.append((ua, v, ub, v2, abs(2 * v - n + 1)))
    return out


def _corridor(i_s: int, j_s: int, i_t: int, j_t: int) -> list[tuple[int, int]]:
    step = 1 if j_t >= j_s else -1
    blocks = [(i_s, j) for j in range(j_s, j_t + step, step)]
    step = 1 if i_t >= i_s else -1
    blocks += [(i, j_t) for i in range(i_s + step, i_t + step, step)]
    return blocks


def _forced_sides(
    nr: int, nc: int, corridor: list[tuple[int, int]]
) -> dict[tuple[int, int], tuple[str, ...]]:
    """The join moves each corridor block keeps for the cycles absorbed into it (see the tree)."""
    on = set(corridor)
    i_s = corridor[0][0]
    js = [j for i, j in corridor if i == i_s]
    jmin, jmax = min(js), max(js)
    out: dict[tuple[int, int], tuple[str, ...]] = {}
    for i, j in corridor:
        names = []
        if i == i_s:  # the corridor's row: the columns of blocks join it from above and below
            if i + 1 < nr and (i + 1, j) not in on:
                names.append("TL")
            if i - 1 >= 0 and (i - 1, j) not in on:
                names.append("BLV")
            if j == jmin and j > 0:
                names.append("BLH")
            if j == jmax and j + 1 < nc:
                names.append("BR")
        elif (i, j) == corridor[-1]:  # the end of the vertical leg: the rest of its column
            if i + 1 < nr and (i + 1, j) not in on:
                names.append("TL")
            if i - 1 >= 0 and (i - 1, j) not in on:
                names.append("BLV")
        out[(i, j)] = tuple(names)
    return out


def _try(W: int, H: int, s: int, t: int, cols: list[int], rows: list[int]) -> Plan | None:
    """The plan with these cuts: the corridor's paths, or a detour when both ends share a block."""
    p = _try_corridor(W, H, s, t, cols, rows)
    return p if p is not None else _try_detour(W, H, s, t, cols, rows)


def _try_corridor(W: int, H: int, s: int, t: int, cols: list[int], rows: list[int]) -> Plan | None:
    X0 = np.concatenate([[0], np.cumsum(cols)]).tolist()
    Y0 = np.concatenate([[0], np.cumsum(rows)]).tolist()
    sx, sy, tx, ty = s % W, s // W, t % W, t // W
    j_s = int(np.searchsorted(X0, sx, side="right")) - 1
    i_s = int(np.searchsorted(Y0, sy, side="right")) - 1
    j_t = int(np.searchsorted(X0, tx, side="right")) - 1
    i_t = int(np.searchsorted(Y0, ty, side="right")) - 1
    corridor = _corridor(i_s, j_s, i_t, j_t)
    on = set(corridor)
    for i, r in enumerate(rows):  # no odd x odd block may be a cycle
        if r % 2:
            for j, c in enumerate(cols):
                if c % 2 and (i, j) not in on:
                    return None
    forced_sides = _forced_sides(len(rows), len(cols), corridor)

    def local(i: int, j: int, q: int) -> int:
        return (q // W - Y0[i]) * cols[j] + (q % W - X0[j])

    # the corridor's blocks in order, each from its entry to an exit that crosses into the next
    entry = local(i_s, j_s, s)
    last = len(corridor) - 1
    paths: list[np.ndarray] = []
    # a depth-first choice of crossings, remembering (block, entry) pairs that lead nowhere
    stack: list[tuple[int, int, list[tuple[int, int]], int]] = []
    dead: set[tuple[int, int]] = set()
    k = 0
    while True:
        i, j = corridor[k]
        w, h = cols[j], rows[i]
        jn = _joins(w, h)
        forced = tuple(jn[name] for name in forced_sides[(i, j)])
        keep = {q for pair in forced for q in pair}
        if k == last:
            path = block_search(w, h, entry, local(i, j, t), forced)
            if path is not None:
                paths.append(path)
                return Plan(W, H, s, t, cols, rows, corridor, paths, forced_sides)
            options: list[tuple[int, int]] = []
            at = 0
        else:
            if (k, entry) in dead:
                options, at = [], 0
            else:
                ni, nj = corridor[k + 1]
                nw, nh = cols[nj], rows[ni]
                nkeep = {q for name in forced_sides[(ni, nj)] for q in _joins(nw, nh)[name]}
                options = [
                    (a, b)
                    for a, b in _crossings(w, h, nw, nh, ni - i, nj - j)
                    if a != entry
                    and a not in keep
                    and b not in nkeep
                    and not (k + 1 == last and b == local(ni, nj, t))
                ]
                at = 0
        # try the options at this level (or pop back)
        while True:
            advanced = False
            while at < len(options):
                a, b = options[at]
                at += 1
                path = block_search(w, h, entry, a, forced)
                if path is None:
                    continue
                stack.append((k, entry, options, at))
                paths.append(path)
                k += 1
                entry = b
                advanced = True
                break
            if advanced:
                break
            dead.add((k, entry))
            if not stack:
                return None
            k, entry, options, at = stack.pop()
            paths.pop()
            i, j = corridor[k]
            w, h = cols[j], rows[i]
            forced = tuple(_joins(w, h)[name] for name in forced_sides[(i, j)])
            if len(dead) > 64:
                return None


#: A detour tries at most this many pairs of crossings into each neighbouring block.
DETOUR_PAIRS = 12


def _try_detour(W: int, H: int, s: int, t: int, cols: list[int], rows: list[int]) -> Plan | None:
    """Both ends in block S, and no path of S joins them: S's path jumps from ``p`` to ``q`` and
    a neighbouring block N, made a corridor block, holds a path between the squares a knight's
    move across the cut from them."""
    X0 = np.concatenate([[0], np.cumsum(cols)]).tolist()
    Y0 = np.concatenate([[0], np.cumsum(rows)]).tolist()
    i = int(np.searchsorted(Y0, s // W, side="right")) - 1
    j = int(np.searchsorted(X0, s % W, side="right")) - 1
    if (i, j) != (
        int(np.searchsorted(Y0, t // W, side="right")) - 1,
        int(np.searchsorted(X0, t % W, side="right")) - 1,
    ):
        return None
    w, h = cols[j], rows[i]
    a = (s // W - Y0[i]) * w + (s % W - X0[j])
    b = (t // W - Y0[i]) * w + (t % W - X0[j])
    nr, nc = len(rows), len(cols)
    # (di, dj), S's join slot toward N, N's slot toward S (BR 0, BLH 1, TL 2, BLV 3)
    for di, dj, slot in ((0, 1, 0), (1, 0, 2), (0, -1, 1), (-1, 0, 3)):
        ni, nj = i + di, j + dj
        if not (0 <= ni < nr and 0 <= nj < nc):
            continue
        corridor = [(i, j), (ni, nj)]
        odd = [
            (r, c)
            for r in range(nr)
            for c in range(nc)
            if rows[r] % 2 and cols[c] % 2 and (r, c) not in corridor
        ]
        if odd:
            continue
        sides = _forced_sides(nr, nc, corridor)
        nw, nh = cols[nj], rows[ni]
        forced = tuple(_joins(w, h)[name] for name in sides[(i, j)])
        nforced = tuple(_joins(nw, nh)[name] for name in sides[(ni, nj)])
        keep = {q for pair in forced for q in pair} | {a, b}
        nkeep = {q for pair in nforced for q in pair}
        cross = [
            (p, p2)
            for p, p2 in _crossings(w, h, nw, nh, di, dj)
            if p not in keep and p2 not in nkeep
        ]
        tried = 0
        for x in range(len(cross)):
            for y in range(x + 1, len(cross)):
                (p, p2), (q, q2) = cross[x], cross[y]
                if p == q or p2 == q2 or (_colour(nw, p2) == _colour(nw, q2) and nw * nh % 2 == 0):
                    continue
                if nw * nh % 2 == 1 and (_colour(nw, p2) or _colour(nw, q2)):
                    continue
                tried += 1
                if tried > DETOUR_PAIRS:
                    break
                inner = block_search(nw, nh, p2, q2, nforced)
                if inner is None:
                    continue
                outer = block_search(w, h, a, b, forced, (p, q))
                if outer is None:
                    continue
                return Plan(
                    W,
                    H,
                    s,
                    t,
                    cols,
                    rows,
                    corridor,
                    [outer, inner],
                    sides,
                    (slot, slot ^ 1, (p, q), (p2, q2)),
                )
            if tried > DETOUR_PAIRS:
                break
    return None


def _plan_frame(W: int, H: int, s: int, t: int) -> Plan | None:
    """The first cut of the board (of at most :data:`TRIES`) whose corridor searches succeed."""
    sx, sy, tx, ty = s % W, s // W, t % W, t // W
    tries = 0
    for odd_c, odd_r in (("a", "a"), ("b", "b"), ("b", "a"), ("a", "b")):
        if (W % 2 == 0 and odd_c == "b") or (H % 2 == 0 and odd_r == "b"):
            continue
        cols = _some(_cuts(W, sx, tx, odd_c, H <= 11))
        rows = _some(_cuts(H, sy, ty, odd_r, W <= 11))
        pairs = sorted(
            ((i, j) for i in range(len(cols)) for j in range(len(rows))),
            key=lambda ij: (ij[0] + ij[1], ij),
        )
        for i, j in pairs:
            p = _try(W, H, s, t, cols[i], rows[j])
            if p is not None:
                return p
            tries += 1
            if tries >= TRIES:
                return None
    return None


def _some(cuts: Iterator[list[int]], small: int = 6, big: int = 3) -> list[list[int]]:
    """The first ``small`` cuts into parts of at most 11, and the first ``big`` with a longer
    part."""
    out: list[list[int]] = []
    n_small = n_big = 0
    for c in cuts:
        if max(c) <= 11:
            if n_small < small:
                out.append(c)
                n_small += 1
        elif n_big < big:
            out.append(c)
            n_big += 1
        if n_small >= small and n_big >= big:
            break
    return out


def _frames(W: int, H: int, s: int, t: int) -> Iterator[tuple[int, int, int, int, int]]:
    """The board's symmetries, each as (code, W', H', s', t'): the code's bits are transpose (4),
    mirror x (1), mirror y (2); 8 more swap the ends."""
    for swap in (False, True):
        a, b = (t, s) if swap else (s, t)
        for code in (0, 1, 2, 3, 4, 5, 6, 7):
            yield (code | (8 if swap else 0), *_to_frame(W, H, a, b, code))


def _to_frame(W: int, H: int, s: int, t: int, code: int) -> tuple[int, int, int, int]:
    def f(q: int) -> int:
        x, y = q % W, q // W
        if code & 1:
            x = W - 1 - x
        if code & 2:
            y = H - 1 - y
        if code & 4:
            return x * H + y
        return y * W + x

    return (H, W, f(s), f(t)) if code & 4 else (W, H, f(s), f(t))


@functools.lru_cache(maxsize=4096)
def _planned(W: int, H: int, s: int, t: int) -> tuple[int, Plan] | None:
    for code, w2, h2, s2, t2 in _frames(W, H, s, t):
        p = _plan_frame(w2, h2, s2, t2)
        if p is not None:
            return code, p
    if W * H <= WHOLE_AREA:  # a small board: the exact search on the whole of it
        from knightstour.errors import NoTourError, SearchFailedError
        from knightstour.solvers.backtrack import exact_search

        try:
            path = exact_search(Board(W, H), s, t, node_limit=WHOLE_LIMIT)
        except (NoTourError, SearchFailedError):
            return None
        path = path.astype(np.int32)
        path.flags.writeable = False
        return 0, Plan(W, H, s, t, [W], [H], [(0, 0)], [path], {(0, 0): ()})
    return None


def plan(board: Board, s: int, t: int) -> Plan | None:
    """The plan of a tour from ``s`` to ``t`` on a plain board with both sides at least
    :data:`MIN_SIDE`, or None when the construction finds none (colour parity forbids it, or
    every cut and symmetry tried failed). Linear in the board's sides, not its area.

    >>> plan(Board(8, 8), 0, 63) is None, plan(Board(8, 8), 0, 1).corridor
    (True, [(0, 0)])
    """
    W, H = board.width, board.height
    if min(W, H) < MIN_SIDE or s == t:
        return None
    n = W * H
    cs, ct = (s % W + s // W) % 2, (t % W + t // W) % 2
    if n % 2 == 0 and cs == ct:
        return None
    if n % 2 == 1 and (cs or ct):
        return None
    found = _planned(W, H, s, t)
    return None if found is None else found[1]


# -- building the tour -------------------------------------------------------------------------------


def _goff(w: int, W: int, size: int) -> np.ndarray:
    loc = np.arange(size, dtype=np.int64)
    return (loc // w) * W + loc % w


def build(p: Plan, run: Callable[..., Any] | None = None) -> np.ndarray:
    """The tour of plan ``p`` in its frame, as int32 square indices from ``s`` to ``t``.

    Written block by block in tour order by the compiled walk over the tree of blocks
    (:func:`knightstour.kernels.divide.tree_walk`): 4 bytes a square. ``run(kernel,
    *args)`` calls the kernel with its ``stop`` flag appended (divide's ``_until``, which stops it
    at a deadline); by default it runs to the end.
    """
    from knightstour.errors import InternalError

    W, H = p.W, p.H
    n = W * H
    cols, rows = np.array(p.cols, dtype=np.int64), np.array(p.rows, dtype=np.int64)
    X0 = np.concatenate([[0], np.cumsum(cols)[:-1]]).astype(np.int64)
    Y0 = np.concatenate([[0], np.cumsum(rows)[:-1]]).astype(np.int64)
    nr, nc = len(rows), len(cols)
    # block types: the stored closed tours of each size, then each distinct corridor path
    tours: list[tuple[int, int, np.ndarray]] = []
    kind: dict[tuple[int, int], int] = {}
    for h in sorted(set(p.rows)):
        for w in sorted(set(p.cols)):
            if (w % 2 and h % 2) or max(w, h) > 11:  # no cycle: only ever a corridor block
                continue
            kind[(w, h)] = len(tours)
            tours.append((w, h, _data()[f"grid_closed/{w}x{h}"]))
    table = np.full((23, 23), -1, dtype=np.int64)  # [h, w]: the type of a cycle block
    for (w, h), t in kind.items():
        table[h, w] = t
    typ = table[rows[:, None], cols[None, :]].ravel()
    seen: dict[tuple[int, int, bytes], int] = {}
    chain = np.empty(len(p.corridor), dtype=np.int64)
    for c, ((i, j), path) in enumerate(zip(p.corridor, p.paths, strict=True)):
        key = (
            int(cols[j]),
            int(rows[i]),
            path.tobytes() + (b"" if p.detour is None else b"%d" % c),
        )
        if key not in seen:
            seen[key] = len(tours)
            tours.append((int(cols[j]), int(rows[i]), path))
        b = i * nc + j
        typ[b] = seen[key]
        chain[c] = b
    if (typ < 0).any():  # pragma: no cover - the plan puts every odd x odd block on the corridor
        raise InternalError("an odd x odd block is not on the corridor")
    nt = len(tours)
    most = max(w * h for w, h, _ in tours)
    seqs = np.zeros((nt, most), dtype=np.int64)
    posof = np.zeros((nt, most), dtype=np.int64)
    goff = np.zeros((nt, most), dtype=np.int64)
    lens = np.zeros(nt, dtype=np.int64)
    joins = np.zeros((nt, 8), dtype=np.int64)
    for t, (w, h, seq) in enumerate(tours):
        m = w * h
        seqs[t, :m] = seq
        posof[t, seq.astype(np.int64)] = np.arange(m)
        goff[t, :m] = _goff(w, W, m)
        lens[t] = m
        joins[t] = [q for pair in _joins(w, h).values() for q in pair]
    if p.detour is not None:  # S's jump and N's path: a join of their own, in free slots
        slot, nslot, (a, b), (a2, b2) = p.detour
        ts, tn = typ[chain[0]], typ[chain[1]]
        joins[ts, 2 * slot : 2 * slot + 2] = (a, b)
        joins[tn, 2 * nslot : 2 * nslot + 2] = (a2, b2)
    org = (Y0[:, None] * W + X0[None, :]).ravel()
    # the tree: vertical joins in every column, horizontal ones along the corridor's row
    on = np.zeros((nr, nc), dtype=bool)
    for i, j in p.corridor:
        on[i, j] = True
    jb = np.full((nr * nc, 4), -1, dtype=np.int64)
    li, lj = np.nonzero(~(on[:-1, :] & on[1:, :]))
    lower, upper = li * nc + lj, (li + 1) * nc + lj
    jb[lower, 2], jb[upper, 3] = upper, lower
    i_s = p.corridor[0][0]
    js = [j for i, j in p.corridor if i == i_s]
    jmin, jmax = min(js), max(js)
    hj = np.array([j for j in range(nc - 1) if j + 1 <= jmin or j >= jmax], dtype=np.int64)
    left, right = i_s * nc + hj, i_s * nc + hj + 1
    jb[left, 0], jb[right, 1] = right, left
    if p.detour is not None:
        jb[chain[0], p.detour[0]], jb[chain[1], p.detour[1]] = chain[1], chain[0]
        chain = chain[:1]
    out = np.empty(n, dtype=np.int32)
    ones = np.ones(chain.size, dtype=np.int64)
    if run is None:

        def run(fn: Callable[..., Any], *args: Any) -> Any:
            return fn(*args, np.zeros(1, dtype=np.uint8))

    count = run(
        _kernels().tree_walk,
        typ,
        org,
        jb,
        seqs,
        posof,
        lens,
        goff,
        joins,
        chain,
        0 * ones,
        ones,
        out,
        0,
    )
    if count != n or int(out[0]) != p.s or int(out[-1]) != p.t:  # pragma: no cover - a bug
        raise InternalError(f"the ends construction covered {count} of {n} squares")
    return out


def _reverse(a: np.ndarray, step: int = 1 << 20) -> None:
    """Reverse ``a`` in place, a chunk from each end at a time (no second array).

    >>> a = np.arange(7); _reverse(a, 2); a.tolist()
    [6, 5, 4, 3, 2, 1, 0]
    """
    n = a.size
    half = n // 2
    for i in range(0, half, step):
        j = min(i + step, half)
        lo = a[i:j].copy()
        a[i:j] = a[n - j : n - i][::-1]
        a[n - j : n - i] = lo[::-1]


def _from_frame(path: np.ndarray, W: int, H: int, code: int) -> np.ndarray:
    """Square indices of the frame ``code`` back on the W x H board (in place, in chunks)."""
    if code & 8:
        _reverse(path)
    if not code & 7:
        return path
    fw = H if code & 4 else W  # a transposed frame is H wide: its x is the board's y
    step = 1 << 20
    for i in range(0, path.size, step):
        c = path[i : i + step].astype(np.int64)
        x, y = c % fw, c // fw
        if code & 4:
            x, y = y, x
        if code & 1:
            x = W - 1 - x
        if code & 2:
            y = H - 1 - y
        path[i : i + step] = y * W + x
    return path


def ends_tour(board: Board, s: int, t: int, run: Callable[..., Any] | None = None) -> np.ndarray:
    """An open tour from ``s`` to ``t`` (square indices) on a plain board with both sides at least
    :data:`MIN_SIDE`, by construction; raises ``ValueError`` when :func:`plan` finds none.
    ``run``: as for :func:`build`."""
    W, H = board.width, board.height
    found = None if plan(board, s, t) is None else _planned(W, H, s, t)
    if found is None:
        raise ValueError(f"no construction of a tour from {s} to {t} on {W}x{H}")
    code, p = found
    return _from_frame(build(p, run), W, H, code)
