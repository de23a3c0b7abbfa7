"""The start passes of the semi-magic search: Denef's decomposition, one start square a pass.

The numbered ranges fix both ends of a tour. A start pass fixes 1 only, on one square of each
orbit of squares under the board's symmetries (the *starts*, least index first: a1, b1, c1, d1,
b2, c2, d2, c3, d3, d4 on 8x8), and leaves the end free, as Denef's census does. Its walk
(:mod:`knightstour.kernels.magic_starts`) grows one path, and adds two cuts the two-ended walk
lacks:

- **no two numbers of a line are consecutive**: a knight never moves within a rank or a file, so
  the numbers a line still needs are spread out, which raises the least and lowers the most
  they can add up to (:func:`line_tables`);
- **distance**: a square a knight's distance k from the head takes a number at least k above
  the head's, so a line far from the head needs more than the smallest numbers left.

The passes split the census without overlap: the walk from start i may not end on an image of
an earlier start (that tour, reversed and carried back, begins on the earlier start, and is found
there), and a start that a symmetry fixes keeps its second square the least of its images under
those symmetries. Pass i is range ``-2 - i`` (:func:`start_range`): its parts are its walk's
branches a few squares after the start (:data:`SPLIT`), in order.

On 8x8, Knuth's estimate of the whole census is about 10^13 nodes
(``python benchmarks/bench_magic.py --starts``): a fifth of the two-ended walk's.

>>> w = start_walker(4, 6)
>>> [r.first for r in w.ranges], w.ranges[0].number
([0, 1, 4, 5, 8, 9], -2)
>>> sum(w.run(r, part).tours.shape[0] for r in w.ranges for part in range(w.nparts(r)))
0
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

import numpy as np

from knightstour.board import Board, symmetries
from knightstour.errors import InvalidInputError
from knightstour.magic._parts import PartResult, Range

__all__ = [
    "FIRST_START",
    "SCHEME",
    "SPLIT",
    "StartWalker",
    "is_start_range",
    "line_tables",
    "start_range",
    "start_walker",
]

#: The range number of the first start pass; start i is ``FIRST_START - i``.
FIRST_START = -2
#: The version of the one-ended walk and of its parts, as recorded in a journal.
SCHEME = "starts/1"
#: Squares after the start that make a part (fewer on small boards: :meth:`StartWalker.split`).
SPLIT = 7


def is_start_range(number: int) -> bool:
    """Whether range ``number`` is a start pass (numbers -2, -3, ...)."""
    return number <= FIRST_START


def line_tables(n: int, top: int) -> tuple[np.ndarray, np.ndarray]:
    """The line bounds of a board of ``n`` squares whose lines hold at most ``top - 1`` squares
    of each colour: ``(thr, most)``.

    ``thr[a, b, need]`` is the largest ``lo`` from which ``a`` odd and ``b`` even numbers up to
    ``n``, no two consecutive, can add up to as little as ``need`` (-1 when none can);
    ``most[a, b]`` is the most they can add up to (-1 when they do not fit).

    >>> thr, most = line_tables(64, 5)
    >>> int(most[4, 4])          # 64 + 62 + 60 + 58 + 55 + 53 + 51 + 49
    452
    >>> int(thr[4, 4, 68])       # 1 + 3 + 5 + 7 + 10 + 12 + 14 + 16 = 68: from 1 only
    1
    >>> int(thr[1, 0, 63]), int(thr[0, 0, 0]) > 64, int(thr[0, 0, 1])
    (63, True, -1)
    """
    big = 1 << 40
    # least[p, a, b]: the least sum of a odd and b even numbers of p..n, none consecutive
    least = np.full((n + 3, top, top), big, np.int64)
    least[n + 1, 0, 0] = least[n + 2, 0, 0] = 0
    for p in range(n, 0, -1):
        least[p] = least[p + 1]
        k = 1 if p % 2 else 0  # the odd or the even count
        for a in range(top):
            for b in range(top):
                if (a if k else b) == 0:
                    continue
                rest = least[p + 2, a - k, b - (1 - k)]
                if rest < big:
                    least[p, a, b] = min(least[p, a, b], p + rest)
    size = n * (n + 1) // 2 + 1
    thr = np.full((top, top, size), -1, np.int64)
    for a in range(top):
        for b in range(top):
            for lo in range(1, n + 3):
                x = least[lo, a, b]
                if x < size:
                    thr[a, b, x:] = lo  # lo grows, so the last one written is the largest
    thr[0, 0, :] = -1
    thr[0, 0, 0] = big  # a full line at its constant fits from anywhere
    # the most: numbers n, n - 1, ..., none consecutive
    most = np.full((top, top), -1, np.int64)
    high = np.full((n + 1, top, top), -big, np.int64)
    high[:, 0, 0] = 0
    for p in range(1, n + 1):
        high[p] = high[p - 1]
        k = 1 if p % 2 else 0
        for a in range(top):
            for b in range(top):
                if (a if k else b) == 0:
                    continue
                rest = high[max(p - 2, 0), a - k, b - (1 - k)]
                if rest > -big:
                    high[p, a, b] = max(high[p, a, b], p + rest)
    fits = high[n] > -big
    most[fits] = high[n][fits]
    return thr, most


def start_range(width: int, height: int, index: int, closed: bool = False) -> Range:
    """Start pass ``index`` of ``width x height`` as a range: number ``-2 - index``, ``first``
    its start square, ``last`` -1 (free)."""
    starts = start_walker(width, height).starts
    return Range(FIRST_START - index, starts[index], -1, 0, closed)


class StartWalker:
    """The compiled one-ended walk on one board: its starts, their parts, a part walked."""

    scheme_name = SCHEME

    def __init__(self, width: int, height: int, *, compiled: bool = True) -> None:
        from knightstour.kernels import magic_starts as km
        from knightstour.kernels.enumerate import compact_neighbours
        from knightstour.kernels.numbers import FAR, distances

        n = width * height
        if n % 2 or (n * (n + 1) // 2) % width or (n * (n + 1) // 2) % height or n > 64:
            raise InvalidInputError(f"the start passes do not walk {width}x{height}")
        self.width, self.height, self.n = width, height, n
        self.km = km
        self._compiled = compiled
        self._k: Any = None
        self.nbr, self.nn = (a.astype(np.int64) for a in compact_neighbours(
            Board(width, height).neighbour_table()))  # fmt: skip
        idx = np.arange(n)
        x, y = idx % width, idx // width
        self.lines = np.stack([y, height + x], axis=1).astype(np.int64)
        self.colour = (x + y) % 2
        total = n * (n + 1) // 2
        self.const = np.array([total // height] * height + [total // width] * width, np.int64)
        self.thr, self.most = line_tables(n, max(width, height) // 2 + 1)
        kd = distances(np.asarray(Board(width, height).neighbour_table(), np.int32)).astype(
            np.int64
        )
        np.fill_diagonal(kd, FAR)  # a line's other squares: not q itself
        nl = width + height
        on = np.zeros((nl, n), bool)  # each line's squares
        on[self.lines[:, 0], idx] = on[self.lines[:, 1], idx] = True
        dl = np.stack([kd[:, on[li]].min(axis=1) for li in range(nl)], axis=1)
        # what the walk's words hold: line indices masked to 0..31, every distance at most
        # n - 1 (a knight reaches every square: the bytes of the line words stay in 0..255),
        # a line's index of squares by colour in 8 bits
        if nl > 32 or dl.max() >= FAR or self.thr.shape[0] ** 2 > 256:
            raise InvalidInputError(f"the start passes do not walk {width}x{height}")
        self.dl = dl
        self._lb: dict[int, np.ndarray] = {}
        self.nbm = np.array([_mask(self.nbr[q, : self.nn[q]].tolist()) for q in range(n)], np.int64)
        per = km.PER_WORD
        self.words = -(-nl // per)
        self.kq = np.array([_words((127 - dl[q]).tolist(), self.words, 127) for q in range(n)],
                           np.int64)  # fmt: skip
        self.qpos = np.array(
            [[self.lines[q, j] // per if c == 0 else 8 * (self.lines[q, j] % per)
              for j in range(2) for c in range(2)] for q in range(n)], np.int64,
        )  # fmt: skip
        perms, _ = symmetries(width, height)
        self.perms = perms
        self.starts = [q for q in range(n) if q == int(perms[:, q].min())]
        self.ranges = [
            Range(FIRST_START - i, s, -1, 0, False) for i, s in enumerate(self.starts)
        ]  # fmt: skip
        self._parts: dict[tuple[int, bool, tuple[int, ...]], np.ndarray] = {}

    @property
    def k(self) -> Any:
        """The walk's kernels, loaded (compiled) on first use: :meth:`home` needs none."""
        if self._k is None:
            from knightstour.kernels import jit

            self._k = jit.load(self.km, compiled=self._compiled)
        return self._k

    def split(self) -> int:
        """Squares after the start that make a part: :data:`SPLIT` on 8x8, fewer on smaller
        boards."""
        return max(1, min(SPLIT, self.n // 9))

    def index(self, rng: Range) -> int:
        """The start pass ``rng`` is: its index among :attr:`starts`."""
        i = FIRST_START - rng.number
        if not 0 <= i < len(self.starts):
            raise InvalidInputError(
                f"{self.width}x{self.height} has start passes {FIRST_START} to "
                f"{FIRST_START - len(self.starts) + 1}, not {rng.number}"
            )
        return i

    def board(self, i: int, closed: bool) -> tuple[np.ndarray, ...]:
        """The board tuple (``km.BOARD``) of start ``i``: the ends it may have (the last
        number's colour, not an image of an earlier start; a neighbour of the start when
        ``closed``) as a mask, beside the board's own arrays."""
        start = self.starts[i]
        banned = {int(g[s]) for s in self.starts[:i] for g in self.perms}
        ring = set(self.nbr[start, : self.nn[start]].tolist()) if closed else set()
        ends = [
            q for q in range(self.n)
            if self.colour[q] != self.colour[start] and q not in banned
            and (not closed or q in ring)
        ]  # fmt: skip
        masks = np.array([_mask(ends), _mask(ring)], np.int64)
        lb, most = self.line_bytes()
        return (self.nbm, self.lines, self.step(start), masks, lb, most, self.kq,
                self.qpos)  # fmt: skip

    def step(self, start: int) -> np.ndarray:
        """What a number on each square takes from its lines' index of squares (``km.BOARD``'s
        ``step``): ``top`` on the squares of odd numbers (the start's colour), 1 on the others."""
        top = self.thr.shape[0]
        return np.where(self.colour == self.colour[start], top, 1).astype(np.int64)

    def line_bytes(self) -> tuple[np.ndarray, np.ndarray]:
        """The walk's line bytes and most (``km.BOARD``'s ``lb`` and ``most``, by the index
        ``a * top + b``) of every need up to the largest line constant: small enough to stay in
        the first cache."""
        top = int(self.const.max()) + 1
        if top not in self._lb:
            lb = np.minimum(self.thr[:, :, :top], self.km.CAP) + 1
            self._lb[top] = lb.reshape(-1, top).astype(np.int16)
        return self._lb[top], self.most.ravel()

    def state(self, i: int, closed: bool, path: np.ndarray) -> tuple[tuple, tuple] | None:
        """The board and state tuples of start ``i`` with the squares of ``path`` after it, each
        placed through the walk's own candidates and cuts; None when one fails."""
        km, k, n = self.km, self.k, self.n
        start = self.starts[i]
        board = self.board(i, closed)
        ends = int(board[3][km.ENDS])
        top = self.thr.shape[0]
        odd = self.colour == self.colour[start]
        lodd = np.zeros(self.const.size, np.int64)
        leven = np.zeros(self.const.size, np.int64)
        need = self.const.copy()
        for q in range(n):
            for li in self.lines[q]:
                if q == start:
                    need[li] -= 1
                elif odd[q]:
                    lodd[li] += 1
                else:
                    leven[li] += 1
        links = self.nn.tolist()  # every neighbour is empty or the head
        empty = [q for q in range(n) if q != start]
        one = [q for q in empty if links[q] == 1]
        if any(links[q] == 0 for q in empty) or len(one) > 1 or any(not ends >> q & 1 for q in one):
            return None
        bits = np.zeros((n, km.ML + self.words), np.int64)
        bits[0, km.E] = _mask(empty)
        for b in range(4):
            bits[0, km.P0 + b] = _mask([q for q in empty if links[q] >> b & 1])
        ab = (lodd * top + leven).tolist()
        lb = board[4]
        bits[0, km.ML :] = _words(
            [km.line_byte(lb, ab[li], int(need[li])) for li in range(need.size)],
            self.words, km.CAP + 1,
        )  # fmt: skip
        line = np.array([km.line_word(int(need[li]), ab[li]) for li in range(need.size)], np.int64)
        meta = np.zeros(km.META, np.int64)
        meta[km.CLOSED] = int(closed)
        placed = np.zeros(n, np.int64)
        placed[0] = start
        cand = np.zeros((n, 8), np.int64)
        ncand = np.zeros(n, np.int64)
        state = (bits, line, placed, cand, ncand, np.zeros(n, np.int64), meta)
        for d, q in enumerate(np.asarray(path, np.int64).tolist()):
            k.candidates(d, board, state)
            if q not in cand[d, : ncand[d]] or not k.place(q, d, board, state):
                return None
            placed[d + 1] = q
        meta[km.DEPTH] = meta[km.BASE] = len(path)
        k.candidates(len(path), board, state)
        return board, state

    def parts(self, rng: Range) -> np.ndarray:
        """The prefixes of the parts of start pass ``rng`` (squares after the start), in order;
        below ``rng.prefix`` when it has one (for experiments and tests)."""
        i = self.index(rng)
        key = (i, rng.closed, rng.prefix)
        if key not in self._parts:
            cut = len(rng.prefix) + self.split()
            st = self.state(i, rng.closed, np.array(rng.prefix, np.int64))
            rows: list[np.ndarray] = []
            if st is not None:
                out = np.zeros((4096, self.n), np.int64)
                stop = np.zeros(1, np.uint8)
                while True:
                    status = self.k.walk(st[0], st[1], 2**62, stop, cut, out)
                    written = int(st[1][self.km.METAS][self.km.WRITTEN])
                    rows.append(out[:written, 1 : cut + 1].copy())
                    if status == self.km.DONE:
                        break
            got = np.concatenate(rows) if rows else np.zeros((0, cut), np.int64)
            # a start some symmetries fix: its second square the least of its images
            start = self.starts[i]
            fixing = [g for g in self.perms if int(g[start]) == start]
            if len(got):
                second = got[:, 0]
                least = np.min(np.stack([g[second] for g in fixing]), axis=0)
                got = got[second == least]
            self._parts[key] = got
        return self._parts[key]

    def home(self, order: list[int]) -> tuple[int, list[int]] | None:
        """Where the start passes find the tour ``order`` (squares in visiting order): the
        first start pass that walks one of its 16 images (the board's symmetries, either
        direction), and that image; None for a path the passes cannot hold (not a whole tour).

        >>> from knightstour.numbering import BEVERLEY, grid_order
        >>> i, image = start_walker(8, 8).home(grid_order(BEVERLEY))
        >>> i, len(image)
        (0, 64)
        """
        if sorted(order) != list(range(self.n)):
            return None
        best: tuple[int, list[int]] | None = None
        for path in (list(order), list(order)[::-1]):
            for g in self.perms:
                image = [int(g[q]) for q in path]
                if image[0] not in self.starts:
                    continue
                i = self.starts.index(image[0])
                banned = {int(h[s]) for s in self.starts[:i] for h in self.perms}
                fixing = [h for h in self.perms if int(h[image[0]]) == image[0]]
                if image[-1] in banned or image[1] != min(int(h[image[1]]) for h in fixing):
                    continue
                if best is None or (i, image) < best:
                    best = (i, image)
        return best

    def nparts(self, rng: Range) -> int:
        """How many parts start pass ``rng`` has."""
        return len(self.parts(rng))

    def run(
        self,
        rng: Range,
        part: int,
        stop: np.ndarray | None = None,
        budget: int = 2**62,
        state: dict[str, Any] | None = None,
    ) -> PartResult:
        """Walk part ``part`` of start pass ``rng`` to its end (or until ``stop[0]`` is set or
        ``budget`` nodes are spent), from its start or from the ``state`` a stopped walk of it
        left. Closed tours only when ``rng.closed``."""
        km = self.km
        t0 = time.perf_counter()
        stop = np.zeros(1, np.uint8) if stop is None else stop
        st: tuple[tuple, tuple] | None
        if state is not None:
            st = self.restore(rng, part, state)
        else:
            prefix = self.parts(rng)[part]
            st = self.state(self.index(rng), rng.closed, prefix)
        tours = np.zeros((0, self.n), np.int32)
        done = True
        meta = np.zeros(km.META, np.int64) if st is None else st[1][km.METAS]
        before = int(meta[km.NODES])
        if st is not None:
            out = np.zeros((256, self.n), np.int64)
            rows = []
            while True:  # the budget is this call's, over the calls that fill ``out``
                left = budget - (int(meta[km.NODES]) - before)
                status = int(self.k.walk(st[0], st[1], left, stop, -1, out))
                rows.append(out[: int(meta[km.WRITTEN])].astype(np.int32))
                if status != km.FULL:
                    break
            tours = np.concatenate(rows)
            done = status == km.DONE
        return PartResult(
            rng.number, part, tours, int(meta[km.NODES]) - before, time.perf_counter() - t0,
            done, None if done else self.saved(st), int(meta[km.FOUND]), int(meta[km.NODES]),
            self.scheme_name + ("/closed" if rng.closed else ""),
        )  # fmt: skip

    def saved(self, st: tuple[tuple, tuple] | None) -> dict[str, Any]:
        """What a stopped walk keeps (:mod:`knightstour.magic.saved`): the squares after the
        start, the next candidate at the depth it stopped at, its nodes and tours so far."""
        assert st is not None
        state, km = st[1], self.km
        meta = state[km.METAS]
        depth = int(meta[km.DEPTH])
        return {
            "path": np.array(state[km.PLACED][1 : depth + 1], dtype=np.int32),
            "cursor": int(state[km.CI][depth]),
            "nodes": int(meta[km.NODES]),
            "found": int(meta[km.FOUND]),
        }

    def restore(self, rng: Range, part: int, walk: dict[str, Any]) -> tuple[tuple, tuple]:
        """The walk rebuilt from what a stopped walk of ``part`` kept (:meth:`saved`): its path
        placed move by move through the walk's own cuts, then the cursors. A path that is not a
        walk of the part, or a cursor past its candidates, is an :class:`InvalidInputError`."""
        km = self.km
        parts = self.parts(rng)
        if not 0 <= part < len(parts):
            raise InvalidInputError(f"part {part} is not a part of start pass {rng.number}")
        prefix = parts[part]
        path = np.asarray(walk["path"])
        if path.ndim != 1 or not len(prefix) <= len(path) <= self.n - 2:
            raise InvalidInputError(f"its path of {path.size} squares is not a walk of this part")
        path = path.astype(np.int64)
        if not np.array_equal(path[: len(prefix)], prefix):
            raise InvalidInputError("its path does not begin with this part's squares")
        if ((path < 0) | (path >= self.n)).any():
            raise InvalidInputError("its path holds squares off the board")
        st = self.state(self.index(rng), rng.closed, path)
        if st is None:
            raise InvalidInputError("its path is not a walk of this part (a move or a cut fails)")
        state = st[1]
        cand, ncand, ci, meta = state[km.CAND], state[km.NCAND], state[km.CI], state[km.METAS]
        depth = len(path)
        for d in range(depth):  # the candidate after the one placed, at every depth
            ci[d] = int(np.flatnonzero(cand[d, : ncand[d]] == path[d])[0]) + 1
        cursor = int(walk["cursor"])
        if not 0 <= cursor <= ncand[depth]:
            raise InvalidInputError(
                f"its cursor {cursor} is past the {int(ncand[depth])} candidates of its depth"
            )
        ci[depth] = cursor
        meta[km.BASE], meta[km.DEPTH] = len(prefix), depth
        meta[km.NODES], meta[km.FOUND] = int(walk["nodes"]), int(walk["found"])
        return st

    def estimate(self, rng: Range, probes: int, seed: int) -> tuple[float, float]:
        """Knuth's estimate of the nodes of start pass ``rng``: (mean, standard error) over
        ``probes`` random descents from the start."""
        st = self.state(self.index(rng), rng.closed, np.zeros(0, np.int64))
        if st is None:
            return 0.0, 0.0
        out = np.zeros(probes)
        self.k.probe(st[0], st[1], seed, probes, out)
        # a start the symmetries fix walks only the least of its second squares' images
        start = self.starts[self.index(rng)]
        share = 1.0
        fixing = [g for g in self.perms if int(g[start]) == start]
        if len(fixing) > 1:
            seconds = self.nbr[start, : self.nn[start]]
            kept = sum(int(q) == min(int(g[q]) for g in fixing) for q in seconds)
            share = kept / len(seconds)
        return float(out.mean()) * share, float(out.std(ddof=1)) * share / probes**0.5


def _mask(squares: Any) -> int:
    """The 64-bit word (as a signed int64 value) with the bits of ``squares`` set."""
    m = 0
    for q in squares:
        m |= 1 << int(q)
    return m - (1 << 64) if m >> 63 else m


def _words(values: list[int], words: int, pad: int) -> list[int]:
    """``values`` as bytes, :data:`~knightstour.kernels.magic_starts.PER_WORD` a word, the
    bytes past the last value ``pad``."""
    from knightstour.kernels.magic_starts import PER_WORD

    out = []
    for j in range(words):
        w = 0
        for b in range(PER_WORD):
            i = j * PER_WORD + b
            w |= (int(values[i]) if i < len(values) else pad) << (8 * b)
        out.append(w)
    return out


@lru_cache(maxsize=4)
def start_walker(width: int, height: int) -> StartWalker:
    """This process's start walker of ``width x height`` (made once)."""
    return StartWalker(width, height)
