"""Batch kernels of the tour library: many random walks or searches, canonical forms, packing.

Plain Python in the subset Numba compiles, loaded (compiled, cached on disk) through the one
kernel loader, :func:`knightstour.kernels.jit.load`; importing this module imports no Numba.
One call does a whole batch, so the Python overhead is paid once per thousands of tours:

- :func:`warnsdorff_batch`: random-tie Warnsdorff walks (the foundation's
  :func:`~knightstour.kernels.walk.warnsdorff_walk` itself), each finished tour put in
  canonical form and packed;
- :func:`backtrack_batch`: randomised depth-first search with Warnsdorff ordering, for boards
  and closed tours where the walks rarely succeed;
- :func:`canonical_batch`: canonical forms of given tours (for import);
- :func:`decode_keys`: packed canonical forms and transform codes back to tours, each checked
  (what :func:`knightstour.library.canonical.decode_batch` does in NumPy: validation of every
  batch made or read, at a fraction of a microsecond a tour);
- :func:`jsonl_lines`: the tour JSON lines of a chunk of tours, written into one byte buffer
  (the exporter's hot loop).

The canonical form, the transform code and the packed layout are defined in
:mod:`knightstour.library.canonical`, whose pure NumPy reference the tests hold these kernels to.
The batch walks call the foundation's walk itself (the loader hands a compiled kernel the
compiled versions of the kernels it calls), so a stored seed reproduces its tour through
:func:`knightstour.solve`. (Numba's disk cache does not see changes to that callee;
``tests/test_library.py`` checks the seeds still reproduce.)

>>> import knightstour.kernels.library as mod
>>> from knightstour.kernels import jit
>>> k = jit.load(mod, compiled=False)     # plain Python: the same results, slowly
>>> int(k.xorshift(np.uint64(1)))
33554433
>>> "warnsdorff_batch" in k.names()
True
"""

from __future__ import annotations

import numpy as np

from knightstour.kernels.walk import (
    STATE_SIZE,
    TAKEN,
    TB_RANDOM,
    image_index,
    visit,
    warnsdorff_walk,
)

__kernels__ = (
    "splitmix",
    "walk_seed",
    "xorshift",
    "canonicalize",
    "pack",
    "keep",
    "knight_apart",
    "canonical_batch",
    "warnsdorff_batch",
    "backtrack_batch",
    "decode_keys",
    "jsonl_lines",
)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MASK63 = np.uint64(0x7FFFFFFFFFFFFFFF)


def splitmix(x: np.uint64) -> np.uint64:
    """One step of SplitMix64 (Steele, Lea and Flood 2014): a well-mixed 64-bit hash of ``x``."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def walk_seed(seed: int, j: int) -> np.int64:
    """The seed of walk ``j`` of a run seeded ``seed``: a 63-bit hash, so walks are independent."""
    return np.int64(splitmix(splitmix(np.uint64(seed)) ^ np.uint64(j)) & _MASK63)


def canonicalize(
    p: np.ndarray,
    closed: bool,
    perms: np.ndarray,
    invs: np.ndarray,
    pos: np.ndarray,
    best: np.ndarray,
) -> int:
    """Write the canonical form of tour ``p`` into ``best``; return its transform code.

    Of the images of ``p`` under each board symmetry ``g``, walked forwards or backwards
    (``d``), and for closed tours started from ``a1`` (a rotation by ``r``), the lexicographically
    smallest sequence of square indices. The code is ``g + 8 * d + 16 * r``.
    """
    n = p.size
    for i in range(n):
        pos[p[i]] = i
    have = False
    code = 0
    for g in range(perms.shape[0]):
        pg = perms[g]
        k = pos[invs[g, 0]] if closed else 0
        for d in range(2):
            # the image against the best so far: past their first difference, a smaller image
            # is written over it (the first image is written whole)
            less = not have
            for i in range(n):
                v = pg[p[image_index(i, k, d, n, closed)]]
                if not less:
                    if v > best[i]:
                        break
                    if v == best[i]:
                        continue
                    less = True
                best[i] = v
            if not less:
                continue
            have = True
            r = 0
            if closed:
                r = k if d == 0 else n - 1 - k
            code = g + 8 * d + 16 * r
    return code


def pack(c: np.ndarray, width: int, header: int, code_of: np.ndarray, out: np.ndarray) -> None:
    """Pack squares ``c`` into ``out``: the first square in ``header`` bytes (little-endian), then
    each move's code (0-7, :attr:`Board.deltas` order) in 3 bits, least significant bit first."""
    out[:] = 0
    v = c[0]
    for b in range(header):
        out[b] = (v >> (8 * b)) & 255
    bit = header * 8
    for i in range(c.size - 1):
        a = c[i]
        b2 = c[i + 1]
        dx = b2 % width - a % width
        dy = b2 // width - a // width
        code = code_of[(dy + 2) * 5 + dx + 2]
        byte = bit >> 3
        sh = bit & 7
        out[byte] |= (code << sh) & 255
        if sh > 5:
            out[byte + 1] |= code >> (8 - sh)
        bit += 3


def canonical_batch(
    paths: np.ndarray,
    closed: bool,
    perms: np.ndarray,
    invs: np.ndarray,
    width: int,
    header: int,
    code_of: np.ndarray,
    keys: np.ndarray,
    xforms: np.ndarray,
) -> None:
    """Canonical forms (packed into ``keys``) and transform codes of the tours in ``paths``."""
    n = paths.shape[1]
    pos = np.empty(n, dtype=np.int64)
    best = np.empty(n, dtype=np.int64)
    for t in range(paths.shape[0]):
        xforms[t] = canonicalize(paths[t], closed, perms, invs, pos, best)
        pack(best, width, header, code_of, keys[t])


def keep(
    outs: tuple,
    row: int,
    path: np.ndarray,
    closed: bool,
    width: int,
    seed: int | np.int64,
    pos: np.ndarray,
    best: np.ndarray,
) -> None:
    """Put tour ``path`` (found by walk ``seed``) into row ``row`` of a batch's outputs.

    ``outs`` is ``(perms, invs, header, code_of, keys, xforms, s_out, e_out, seeds_out)``: the
    board's symmetries and packing (as :func:`canonical_batch` takes them), then the packed
    canonical forms, their transform codes, the tours' first and last squares and the seeds.
    ``pos`` and ``best`` are room for :func:`canonicalize`.
    """
    perms, invs, header, code_of, keys, xforms, s_out, e_out, seeds_out = outs
    xforms[row] = canonicalize(path, closed, perms, invs, pos, best)
    pack(best, width, header, code_of, keys[row])
    s_out[row] = path[0]
    e_out[row] = path[path.size - 1]
    seeds_out[row] = seed


def knight_apart(a: int, b: int, width: int) -> bool:
    """Whether squares ``a`` and ``b`` of a board ``width`` wide are a knight's move apart
    (the ends of a closed tour).

    >>> knight_apart(0, 10, 8), knight_apart(0, 9, 8)
    (True, False)
    """
    dx = abs(a % width - b % width)
    dy = abs(a // width - b // width)
    return (dx == 1 and dy == 2) or (dx == 2 and dy == 1)


def xorshift(state: np.uint64) -> np.uint64:
    """The next state of a xorshift generator (Marsaglia 2003; never 0 from a non-zero state)."""
    state ^= state >> np.uint64(12)
    state ^= state << np.uint64(25)
    state ^= state >> np.uint64(27)
    return state


def warnsdorff_batch(
    cells0: np.ndarray,
    offsets: np.ndarray,
    moves: np.ndarray,
    dxs: np.ndarray,
    dys: np.ndarray,
    pad: int,
    pwidth: int,
    width: int,
    height: int,
    starts: np.ndarray,
    closed: bool,
    slack_moves: int,
    seed: int,
    first: int,
    count: int,
    outs: tuple,
) -> int:
    """Walks ``first`` … ``first + count - 1`` of a run; the tours found, canonical and packed.

    Walk ``j`` has seed :func:`walk_seed` ``(seed, j)`` and starts on ``starts[seed % len]``. Its
    first ``slack_moves`` moves go to a random candidate among those with at most one onward
    move more than the fewest (never to a square with none left); the rest of the walk is the
    foundation's Warnsdorff walk with random ties. A closed walk keeps a neighbour of the start
    (chosen by the seed) for the last move and counts only if it closes. With
    ``slack_moves <= 1`` an open walk is exactly ``Walker.walk(start, tiebreak="random",
    seed=walk_seed)``. The tours found go to ``outs`` (:func:`keep`); returns how many (the
    other walks got stuck).
    """
    n = width * height
    switch_at = np.full(1, -1, dtype=np.int64)
    table = np.zeros((0, 0), dtype=np.int64)
    key = np.zeros(0, dtype=np.int64)
    cells = np.empty_like(cells0)
    path = np.empty(n, dtype=np.int32)
    pos = np.empty(n, dtype=np.int64)
    best = np.empty(n, dtype=np.int64)
    cand = np.empty(offsets.size, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    found = 0
    for j in range(first, first + count):
        ws = walk_seed(seed, j)
        s = starts[ws % starts.size]
        ps = (s // width + pad) * pwidth + s % width + pad
        pe = -1
        if closed:
            m = 0
            for k in range(offsets.size):
                q = ps + offsets[k]
                if cells0[q] < TAKEN:
                    cand[m] = q
                    m += 1
            if m == 0:
                continue
            pe = cand[(ws >> 20) % m]
        cells[:] = cells0
        # the slack moves, kept in step with warnsdorff_walk's bookkeeping of onward counts
        cur = ps
        cells[cur] = TAKEN
        path[0] = s
        k = 1
        rs = np.uint64(ws) | np.uint64(1)
        while k < slack_moves:
            m = 0
            dmin = np.int64(1 << 30)
            for t in range(offsets.size):
                q = cur + offsets[t]
                if cells[q] < TAKEN:
                    cells[q] -= 1
                    if q != pe and cells[q] > 0:
                        cand[m] = q
                        m += 1
                        dmin = min(dmin, np.int64(cells[q]))
            if m == 0:
                break
            m2 = 0
            for t in range(m):
                if cells[cand[t]] <= dmin + 1:
                    cand[m2] = cand[t]
                    m2 += 1
            rs = xorshift(rs)
            cur = cand[np.int64(rs % np.uint64(m2))]
            cells[cur] = TAKEN
            path[k] = (cur // pwidth - pad) * width + cur % pwidth - pad
            k += 1
        if k < slack_moves:
            continue
        left = n - k + 1
        st[:] = 0  # a walk from its beginning
        got = warnsdorff_walk(
            cells,
            moves,
            table,
            dxs,
            dys,
            key,
            offsets.size,
            switch_at,
            cur,
            pe,
            left,
            np.int64(TB_RANDOM),  # not a literal: the same specialisation as solve()
            ws,
            pwidth,
            pad,
            width,
            height,
            path[k - 1 :],
            st,
            left,
        )
        if got < left:
            continue
        if closed and not knight_apart(path[0], path[n - 1], width):
            continue
        keep(outs, found, path, closed, width, ws, pos, best)
        found += 1
    return found


def backtrack_batch(
    nbr: np.ndarray,
    starts: np.ndarray,
    closed: bool,
    seed: int,
    first: int,
    count: int,
    node_limit: int,
    per_search: int,
    free_depth: int,
    width: int,
    outs: tuple,
) -> int:
    """Randomised depth-first searches ``first`` … ``first + count - 1``; the tours they find.

    Search ``j`` (seed :func:`walk_seed` ``(seed, j)``) starts on ``starts[seed % len]``. It tries
    the candidates of its first ``free_depth`` squares in an order drawn from the seed, and after
    that fewest onward moves first, ties in a random order; a branch that
    strands an unvisited square, or (closed) uses up the start's last free neighbour early, is
    cut. It goes on past each tour it finds, up to ``per_search`` tours or ``node_limit`` moves
    tried. ``nbr`` is the board's ``(n, 8)`` neighbour table (-1 padded). The tours go to
    ``outs`` (:func:`keep`), which needs room for ``count * per_search``; returns how many.
    """
    n = nbr.shape[0]
    m = nbr.shape[1]
    vis = np.zeros(n, dtype=np.uint8)
    deg = np.zeros(n, dtype=np.int64)
    deg0 = np.zeros(n, dtype=np.int64)
    closing = np.zeros(n, dtype=np.uint8)
    for v in range(n):
        for k in range(m):
            if nbr[v, k] >= 0:
                deg0[v] += 1
    cand = np.empty((n, m), dtype=np.int64)
    ncand = np.zeros(n, dtype=np.int64)
    ci = np.zeros(n, dtype=np.int64)
    rkeys = np.empty(m, dtype=np.int64)
    path = np.empty(n, dtype=np.int32)  # as the walks: one specialisation of canonicalize
    pos = np.empty(n, dtype=np.int64)
    best = np.empty(n, dtype=np.int64)
    found = 0
    for j in range(first, first + count):
        ws = walk_seed(seed, j)
        start = starts[ws % starts.size]
        state = np.uint64(ws) | np.uint64(1)
        vis[:] = 0
        deg[:] = deg0
        closing[:] = 0
        close_left = 0
        if closed:
            for k in range(m):
                q = nbr[start, k]
                if q >= 0:
                    closing[q] = 1
                    close_left += 1
        path[0] = start
        visit(start, nbr, vis, deg, 1)
        depth = 0
        nodes = 0
        tours = 0
        fresh = True
        while nodes <= node_limit and tours < per_search:
            cur = path[depth]
            if fresh:
                c = 0
                if depth == n - 1:
                    if not closed or closing[cur]:
                        keep(outs, found, path, closed, width, ws, pos, best)
                        found += 1
                        tours += 1
                else:
                    for k in range(m):
                        q = nbr[cur, k]
                        if q >= 0 and not vis[q]:
                            state = xorshift(state)
                            cand[depth, c] = q
                            rkeys[c] = np.int64(state & np.uint64(1023))
                            if depth >= free_depth:
                                rkeys[c] += deg[q] * 1024
                            c += 1
                    for a in range(1, c):  # insertion sort, at most 8 items
                        kq = rkeys[a]
                        vq = cand[depth, a]
                        b = a - 1
                        while b >= 0 and rkeys[b] > kq:
                            rkeys[b + 1] = rkeys[b]
                            cand[depth, b + 1] = cand[depth, b]
                            b -= 1
                        rkeys[b + 1] = kq
                        cand[depth, b + 1] = vq
                ncand[depth] = c
                ci[depth] = 0
            moved = False
            while ci[depth] < ncand[depth]:
                q = cand[depth, ci[depth]]
                ci[depth] += 1
                nodes += 1
                visit(q, nbr, vis, deg, 1)
                left = n - depth - 2  # squares unvisited once q is
                ok = True
                if left > 1:
                    for k in range(m):
                        r = nbr[q, k]
                        if r >= 0 and not vis[r] and deg[r] == 0:
                            ok = False
                            break
                if ok and closing[q] and close_left == 1 and left > 0:
                    ok = False
                if ok:
                    if closing[q]:
                        close_left -= 1
                    depth += 1
                    path[depth] = q
                    moved = True
                    break
                visit(q, nbr, vis, deg, 0)
            if moved:
                fresh = True
                continue
            if depth == 0:
                break
            q = path[depth]  # undo the current square, back to the one before
            visit(q, nbr, vis, deg, 0)
            if closing[q]:
                close_left += 1
            depth -= 1
            fresh = False
    return found


_KDX = np.array([2, 1, -1, -2, -2, -1, 1, 2], dtype=np.int64)
_KDY = np.array([1, 2, 2, 1, -1, -2, -2, -1], dtype=np.int64)


def decode_keys(
    keys: np.ndarray,
    codes: np.ndarray,
    width: int,
    height: int,
    header: int,
    invs: np.ndarray,
    closed: bool,
    tours: np.ndarray,
    ok: np.ndarray,
) -> int:
    """Decode packed canonical forms ``keys`` with transform ``codes`` into ``tours``, row by row;
    ``ok[t]`` is False for a damaged row. Returns the number of damaged rows.

    The layout is :func:`pack`'s (and :func:`knightstour.library.canonical.pack`'s): the first
    square in ``header`` bytes, then 3-bit move codes. A row is damaged when its first square is
    off the board, a move leaves it or lands on a square already visited, its code names no
    symmetry (``invs`` has one row per symmetry) or rotation, or, for a closed tour, its ends
    are not a knight's move apart. A damaged key decodes as ``0, 1, 2, …`` (and a bad code as
    code 0), as :func:`~knightstour.library.canonical.decode_batch` has it.
    """
    rows = keys.shape[0]
    n = width * height
    seen = np.zeros(n, dtype=np.int64)
    canon = np.empty(n, dtype=np.int64)
    bad = 0
    for t in range(rows):
        good = True
        s = np.int64(0)
        for b in range(header):
            s |= np.int64(keys[t, b]) << np.int64(8 * b)
        stamp = t + 1
        if s >= n:
            good = False
        else:
            x = s % width
            y = s // width
            canon[0] = s
            seen[s] = stamp
            bit = header * 8
            for i in range(1, n):
                byte = bit >> 3
                sh = bit & 7
                v = np.int64(keys[t, byte]) >> sh
                if sh > 5:
                    v |= np.int64(keys[t, byte + 1]) << (8 - sh)
                c = v & 7
                x += _KDX[c]
                y += _KDY[c]
                if x < 0 or x >= width or y < 0 or y >= height:
                    good = False
                    break
                q = y * width + x
                if seen[q] == stamp:
                    good = False
                    break
                seen[q] = stamp
                canon[i] = q
                bit += 3
        if not good:
            for i in range(n):
                canon[i] = i
        code = np.int64(codes[t])
        if code < 0 or (code & 7) >= invs.shape[0] or (code >> 4) >= n:
            good = False
            code = np.int64(0)
        g = code & 7
        d = (code >> 3) & 1
        r = code >> 4
        for i in range(n):
            j = n - 1 - i if d == 1 else i  # reversal after the rotation
            k = j - r
            if k < 0:
                k += n
            tours[t, i] = invs[g, canon[k]]
        if closed and n > 1 and not knight_apart(tours[t, 0], tours[t, n - 1], width):
            good = False
        ok[t] = good
        if not good:
            bad += 1
    return bad


def jsonl_lines(
    tours: np.ndarray,
    which: np.ndarray,
    heads: np.ndarray,
    head_len: np.ndarray,
    names: np.ndarray,
    name_len: np.ndarray,
    xys: np.ndarray,
    xy_len: np.ndarray,
    out: np.ndarray,
) -> int:
    """Write the tour JSON line of each row of ``tours`` (square indices) into ``out``; return
    the bytes written.

    A line is head ``which[t]`` (``heads[h, :head_len[h]]``: ``{"width":..,"path":[``), the
    quoted square names separated by commas (``names[s, :name_len[s]]``: a name and its comma),
    ``],"xy":[``, the ``[x,y]`` pairs (``xys``, ``xy_len``) likewise, and ``]}`` and a
    newline: exactly :meth:`knightstour.Tour.to_json`. Every table is a multiple of 8 bytes
    wide and copied 8 bytes at a time (the bytes past a fragment are overwritten by the next),
    so ``out`` must hold the lines and one table row more (the caller sizes it).
    """
    rows, n = tours.shape
    hw = heads.shape[1]
    p = 0
    for t in range(rows):
        h = which[t]
        for c in range(0, hw, 8):
            for k in range(8):
                out[p + c + k] = heads[h, c + k]
        p += head_len[h]
        for part in range(2):  # the square names, then the [x,y] pairs
            table = names if part == 0 else xys
            lens = name_len if part == 0 else xy_len
            w = table.shape[1]
            for i in range(n):
                s = tours[t, i]
                for c in range(0, w, 8):
                    for k in range(8):
                        out[p + c + k] = table[s, c + k]
                p += lens[s]
            p -= 1  # over the last comma
            if part == 0:
                out[p] = 93  # ]
                out[p + 1] = 44  # ,
                out[p + 2] = 34  # "
                out[p + 3] = 120  # x
                out[p + 4] = 121  # y
                out[p + 5] = 34  # "
                out[p + 6] = 58  # :
                out[p + 7] = 91  # [
                p += 8
        out[p] = 93  # ]
        out[p + 1] = 125  # }
        out[p + 2] = 10  # newline
        p += 3
    return p
