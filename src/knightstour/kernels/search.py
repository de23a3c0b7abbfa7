"""The depth-first search behind ``method="backtrack"``: kernels in the subset Numba compiles.

Plain Python listed in ``__kernels__``; :mod:`knightstour.solvers.backtrack` loads them compiled
through :mod:`knightstour.kernels.jit` (no Numba import here). The search works on a neighbour
table (one row of up to eight squares per square, ``-1`` for none), so holes and other leapers
need nothing special.

It is an explicit-stack search whose whole state lives in arrays (held by
:class:`knightstour.solvers.backtrack.Search`), so it can stop
after a budget of positions and resume where it was: the Python side checks the clock between
slices, and a node limit is just a budget.

Pruning, checked at every position (the path so far ends on ``cur``; ``U`` is the set of unvisited
squares, which the rest of the path must cover, entering at a neighbour of ``cur``):

- degrees: ``deg[q]`` counts the unvisited neighbours of ``q``. A square of ``U`` with none is dead
  (no way in and out); one with a single one must be an end of the rest of the path: its first
  square (a neighbour of ``cur``) or its last. So at most two such squares, at most one of them
  away from ``cur``, and with a fixed end square only that square may be the last;
- connectivity: ``U`` must stay connected. When ``c`` leaves ``U`` every piece it leaves behind
  holds a neighbour of ``c``, so a search from one neighbour that reaches all the others proves
  connectivity, usually after a few steps;
- the end square: with a fixed last square, at most one of its unvisited neighbours may have
  only two ways in and out (both moves are forced, one into the last square, entered once);
- alternation: on a board four wide the two outer lines hold half the squares and no move joins
  two of them, so the path alternates between outer and inner lines but for one move; on other
  boards, any such independent set A of whole lines (:func:`knightstour.theory.independent_lines`)
  that holds about half the squares: A's squares are never two in a row (spacing), and with the
  colours alternating, they are spaced by colour too;
- forced moves (``meta[_FORCE]``, boards other than the plain knight's): an unvisited square with
  only two ways left uses both, and no square takes more of these moves than it has room for
  (:func:`_forced_ok`);
- counted moves (:func:`_slack`, :func:`_parity`, with the forced moves followed through): the
  moves out of the neighbours of a union of independent lines, and the moves between two
  squares of one colour where an odd side wraps round, are exactly as many as the squares'
  needs say; the few that must be taken are tried one by one (:func:`_probe`,
  :func:`_probe_colour`);
- dead positions (``meta[_MEMO]``, boards of up to 64 squares other than the plain knight's): a
  position every move from which failed is remembered in a table keyed by the visited squares
  (one 64-bit word), the square and the fixed last square, and skipped when met again;
- ordering: candidates by Warnsdorff's count (fewest onward moves first), ties in move order.
"""

from __future__ import annotations

import numpy as np

#: Every array argument: int32 (int64 for ``mark`` and ``meta``, uint8 for ``vis``). Scalar
#: squares are int32 and depths int64 in every call between kernels, so each compiles once.
Array = np.ndarray
#: The arrays the propagation of :func:`_propagate` reads and writes, as one tuple:
#: ``(nbr, vis, work, edges, meta, info)``.
Props = tuple[Array, Array, Array, Array, Array, Array]

__kernels__ = (
    "_low_add",
    "_low_remove",
    "_visit",
    "_unvisit",
    "_adjacent",
    "_blocks_ok",
    "_end_ok",
    "_alternation_ok",
    "_spacing_ok",
    "_forced_ok",
    "_enqueue",
    "_drop",
    "_choose",
    "_settle",
    "_mark_near",
    "_moves_out",
    "_slack",
    "_parity",
    "_closure",
    "_keep",
    "_try",
    "_probe",
    "_probe_colour",
    "_propagate",
    "_memo_slot",
    "_expand",
    "start",
    "run",
)

#: The arrays of a search (held by :class:`knightstour.solvers.backtrack.Search` from one search
#: to the next), handed to :func:`start` and :func:`run` as one tuple ``arrays`` in this order:
#: the neighbour table, the visited squares, each square's unvisited neighbours, the squares
#: with at most one (a list and each square's place in it), the path, the candidates at each
#: depth (their number, the next to try), the scratch rows (``work``, :data:`WORK_ROWS`), the
#: marks of the cut-square check, the squares' fixed data (``info``), the slots of
#: :data:`META_SLOTS` (``meta``) and the moves' planes (``edges``). The table of dead positions
#: ``memo``, which searches of one board may share, is :func:`run`'s own argument.
ARRAYS = (
    "nbr", "vis", "deg", "low_list", "low_pos", "path", "cand", "ncand", "ci", "work", "mark",
    "info", "meta", "edges",
)  # fmt: skip

#: Status codes returned by :func:`run`.
FOUND, EXHAUSTED, BUDGET = 1, 0, 2
#: What ``meta[_USEA]`` asks of the independent set A: nothing, :func:`_alternation_ok` (the
#: leaper always changes colour) or :func:`_spacing_ok` (it need not).
NO_SET, ALTERNATION, SPACING = 0, 1, 2

# slots of the int64 ``meta`` array
_DEPTH, _NLOW, _STAMP, _NODES, _END, _SIZE, _USEA, _A0, _A1, _FORCE = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
_MASK, _MEMO, _PROP, _QHEAD, _QLEN, _BB, _BBTAKEN = 10, 11, 12, 13, 14, 15, 16
_NSETS, _PROBE, _PARITY = 17, 18, 19
#: Slots of ``meta``.
META_SLOTS = 20
#: :func:`_probe_colour` tries the moves between two squares of one colour when at most this many
#: are left.
PROBE_MOVES = 8
#: Positions with fewer squares left than this are not remembered (they are cheap to redo).
MEMO_LEFT = 4
#: Rows of the int32 ``work`` array: Tarjan's search uses rows 0-4, :func:`_forced_ok` rows 5-9,
#: :func:`_propagate` rows 10-16, :func:`_slack` row 17, :func:`_probe` rows 18-22.
WORK_ROWS = 23
# the three planes of the int32 ``edges`` array (n x moves each): the slot of each move in its far
# square's row, the state of the move during :func:`_propagate`, and that state saved by
# :func:`_probe`
_REV, _STATE, _SAVED = 0, 1, 2
# the states: not a move of the rest of the path, a move it may use, a move it must use
_GONE, _FREE, _TAKEN = 0, 1, 2
# rows of the int32 ``info`` array: per-square data that never changes during a search (rows
# _SETS.. hold the sets of :func:`_slack`, ``meta[_NSETS]`` of them)
_PRIO, _COLOUR, _INA, _SETS = 0, 1, 2, 3
#: Rows of ``info`` before the sets of :func:`_slack`.
INFO_ROWS = 3


def _low_add(q: int | np.int32, low_list: Array, low_pos: Array, meta: Array) -> None:
    if low_pos[q] < 0:
        n = meta[_NLOW]
        low_list[n] = q
        low_pos[q] = n
        meta[_NLOW] = n + 1


def _low_remove(q: int, low_list: Array, low_pos: Array, meta: Array) -> None:
    p = low_pos[q]
    if p >= 0:
        n = meta[_NLOW] - 1
        last = low_list[n]
        low_list[p] = last
        low_pos[last] = p
        low_pos[q] = -1
        meta[_NLOW] = n


def _visit(c: int, arrays: tuple[Array, ...]) -> None:
    """Mark ``c`` visited: its neighbours lose a way in (:data:`ARRAYS` in ``arrays``)."""
    nbr, vis, deg, low_list, low_pos = arrays[:5]
    info, meta = arrays[11], arrays[12]
    vis[c] = 1
    if info[_INA, c]:
        meta[_A0 + info[_COLOUR, c]] -= 1
    _low_remove(c, low_list, low_pos, meta)
    for j in range(nbr.shape[1]):
        q = nbr[c, j]
        if q < 0 or vis[q]:
            continue
        deg[q] -= 1
        if deg[q] == 1:
            _low_add(q, low_list, low_pos, meta)


def _unvisit(c: int, arrays: tuple[Array, ...]) -> None:
    """Undo :func:`_visit` of ``c``."""
    nbr, vis, deg, low_list, low_pos = arrays[:5]
    info, meta = arrays[11], arrays[12]
    for j in range(nbr.shape[1]):
        q = nbr[c, j]
        if q < 0 or vis[q]:
            continue
        deg[q] += 1
        if deg[q] == 2:
            _low_remove(q, low_list, low_pos, meta)
    vis[c] = 0
    if info[_INA, c]:
        meta[_A0 + info[_COLOUR, c]] += 1
    if deg[c] <= 1:
        _low_add(c, low_list, low_pos, meta)


def _adjacent(a: int, b: int, nbr: Array) -> bool:
    for j in range(nbr.shape[1]):  # noqa: SIM110 (a generator would not compile)
        if nbr[a, j] == b:
            return True
    return False


def _blocks_ok(
    cur: int,
    end: int,
    k: int,
    nbr: Array,
    vis: Array,
    work: Array,
    mark: Array,
    meta: Array,
    edges: Array,
    prop: bool,
) -> bool:
    """Whether the unvisited squares still admit a path from ``cur`` through all of them.

    Tarjan's depth-first search over the unvisited squares and ``cur`` (``k`` + 1 squares), rooted
    at ``cur``, finds every cut square. A path that starts at ``cur`` and passes a cut square
    ``v`` whose far side is the subtree of ``w`` can never come back: it must end in that subtree.
    So the unvisited squares must be connected, ``cur`` must not be a cut square, the far sides
    must nest (they all hold the last square) and a fixed ``end`` must lie in the innermost.
    With ``prop``, the moves that :func:`_propagate` ruled out are left out.
    """
    meta[_STAMP] += 1
    stamp = meta[_STAMP]
    disc = work[0]
    low = work[1]
    it = work[2]
    parent = work[3]
    stack = work[4]
    nn = nbr.shape[1]
    t = 0
    disc[cur] = 0
    low[cur] = 0
    it[cur] = 0
    parent[cur] = -1
    mark[cur] = stamp
    stack[0] = cur
    sp = 1
    root_children = 0
    maxstart = -1
    minend = 1 << 30
    while sp > 0:
        v = stack[sp - 1]
        j = it[v]
        if j < nn:
            it[v] = j + 1
            w = nbr[v, j]
            if w < 0 or (vis[w] and w != cur) or (prop and edges[_STATE, v, j] == _GONE):
                continue
            if mark[w] != stamp:
                mark[w] = stamp
                t += 1
                disc[w] = t
                low[w] = t
                it[w] = 0
                parent[w] = v
                stack[sp] = w
                sp += 1
                if v == cur:
                    root_children += 1
                    if root_children > 1:
                        return False
            elif w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
        else:
            sp -= 1
            if sp > 0:
                p = stack[sp - 1]
                if low[v] < low[p]:
                    low[p] = low[v]
                if p != cur and low[v] >= disc[p]:
                    # p cuts off the subtree of v, numbered disc[v]..t: the path ends there
                    if disc[v] > maxstart:
                        maxstart = disc[v]
                    if t < minend:
                        minend = t
                    if maxstart > minend:
                        return False
    if t != k:
        return False
    return end < 0 or maxstart < 0 or maxstart <= disc[end] <= minend


def _end_ok(cur: int, end: int, nbr: Array, vis: Array, deg: Array) -> bool:
    """Whether the fixed last square can take every move forced into it.

    An unvisited neighbour of ``end`` with exactly two unvisited neighbours must use both moves,
    one of them into ``end``, unless it is the next square (a neighbour of ``cur``). The last
    square is entered once, so two such neighbours are one too many.
    """
    forced = 0
    for j in range(nbr.shape[1]):
        q = nbr[end, j]
        if q < 0 or vis[q] or deg[q] != 2 or _adjacent(q, cur, nbr):
            continue
        forced += 1
        if forced > 1:
            return False
    return True


def _alternation_ok(cur: int, end: int, k: int, info: Array, meta: Array) -> bool:
    """Whether the unvisited squares of the independent set A can still be spaced out.

    Used when the leaper always changes colour and A (``info[_INA]``) is a set of squares no two
    of which are a move apart, such as the two outer lines of a board four wide. The rest of the
    path, squares 1..k after ``cur``, alternates colours, so A's squares of the other colour than
    ``cur`` take odd places and the others even places, never two in a row: each switch between
    odd and even places wastes one place.
    """
    colour = info[_COLOUR, cur]
    odd = meta[_A0 + 1 - colour]
    even = meta[_A0 + colour]
    cur_in = info[_INA, cur]
    places = k
    if end >= 0 and info[_INA, end] == 0:
        places = k - 1
    if even == 0:
        return odd <= (places + 1) // 2 - cur_in
    if odd == 0:
        return even <= places // 2
    # odd places first then even (after a wasted place), or the other way round
    return 2 * (odd + even) + cur_in <= places


def _spacing_ok(cur: int, end: int, k: int, info: Array, meta: Array) -> bool:
    """Whether the unvisited squares of the independent set A can still be spaced out.

    No two squares of A are a move apart, so the rest of the path, squares 1..k after ``cur``,
    never holds two of them in a row: not square 1 when ``cur`` is in A, not square k when a
    fixed last square is not. Of a run of L places at most ceil(L / 2) are A's.
    """
    left = k - info[_INA, cur]
    if end >= 0 and info[_INA, end] == 0:
        left -= 1
    return meta[_A0] + meta[_A1] <= (left + 1) // 2


def _forced_ok(cur: int, end: int, nbr: Array, vis: Array, deg: Array, work: Array) -> int:
    """Whether the squares with only two ways left can all use both; -1 if not, else the square
    the path must enter next (or -2 when none is forced).

    An unvisited square v other than the last, with exactly two ways in and out left (unvisited
    neighbours, and ``cur`` if it is one), must use both: they are forced moves. A square takes at
    most two of them, ``cur`` and a fixed last square one. Without a fixed last square, one
    square of the rest is the last and uses only one of its two ways: one square over its share
    is then allowed, or two that are the two ways of one such v. With a fixed last square, a
    forced move into ``cur`` names the next square.
    """
    nn = nbr.shape[1]
    near = work[5]  # 1 on the unvisited neighbours of cur (zeroed again before returning)
    count = work[6]  # forced moves into each square (zeroed again before returning)
    one = work[7]  # the forced squares v (who) and their two ways (one, two)
    two = work[8]
    who = work[9]
    for j in range(nn):
        q = nbr[cur, j]
        if q >= 0 and not vis[q]:
            near[q] = 1
    nf = 0
    for v in range(nbr.shape[0]):
        if vis[v] or v == end or deg[v] + near[v] != 2:
            continue
        a = cur if near[v] else -1
        b = -1
        for j in range(nn):
            q = nbr[v, j]
            if q >= 0 and not vis[q]:
                if a < 0:
                    a = q
                else:
                    b = q
        one[nf] = a
        two[nf] = b
        who[nf] = v
        nf += 1
        count[a] += 1
        count[b] += 1
    status = -2
    bad1 = -1
    bad2 = -1
    for i in range(nf):
        for side in range(2):
            u = one[i] if side == 0 else two[i]
            cap = 1 if u == cur or u == end else 2  # noqa: SIM109 (compiled: no tuples)
            over = count[u] - cap
            if over <= 0 or u == bad1 or u == bad2:  # noqa: SIM109
                continue
            if over > 1 or end >= 0 or bad2 >= 0:
                status = -1
            elif bad1 < 0:
                bad1 = u
            else:
                bad2 = u
        if end >= 0 and one[i] == cur and status == -2:
            status = who[i]
    if status != -1 and bad2 >= 0:  # two squares over: the last square must be a v between them
        status = -1
        for i in range(nf):
            if (one[i] == bad1 and two[i] == bad2) or (one[i] == bad2 and two[i] == bad1):
                status = -2
    for i in range(nf):
        count[one[i]] = 0
        count[two[i]] = 0
    for j in range(nn):
        q = nbr[cur, j]
        if q >= 0:
            near[q] = 0
    return status


def _enqueue(v: int, work: Array, meta: Array) -> None:
    """Queue ``v`` for :func:`_propagate`: a ring of n slots (row 15), each square at most once
    (row 16), its head and length in ``meta``."""
    if work[16, v]:
        return
    work[16, v] = 1
    n = work.shape[1]
    work[15, (meta[_QHEAD] + meta[_QLEN]) % n] = v
    meta[_QLEN] += 1


def _drop(v: int, j: int, nbr: Array, work: Array, edges: Array, meta: Array) -> None:
    """Rule out the move in slot ``j`` of ``v`` (at both of its squares), and queue them."""
    w = nbr[v, j]
    edges[_STATE, v, j] = _GONE
    edges[_STATE, w, edges[_REV, v, j]] = _GONE
    work[10, v] -= 1
    work[10, w] -= 1
    _enqueue(v, work, meta)
    _enqueue(w, work, meta)


def _choose(v: int, j: int, cur: int, end: int, k: int, pa: Props) -> bool:
    """Make the move in slot ``j`` of ``v`` part of the path; False if that contradicts.

    The moves taken so far form paths (fragments); row 13 names the far end of each fragment
    at its two ends, row 14 its number of squares. A move joining the two ends of one fragment
    would close a cycle; a fragment from ``cur`` to ``end`` must hold every square. A move
    between two squares off the independent set A is one of the ``meta[_BB]`` the rest of the
    path makes (when that is known, else -1); once it has them all, their other moves go.
    """
    nbr, _, work, edges, meta, info = pa
    w = nbr[v, j]
    chosen = work[11]
    req = work[12]
    oth = work[13]
    fsize = work[14]
    if chosen[v] >= req[v] or chosen[w] >= req[w]:
        return False
    ev = oth[v]
    ew = oth[w]
    if ev == w:  # v and w are the two ends of one fragment: a cycle
        return False
    edges[_STATE, v, j] = _TAKEN
    edges[_STATE, w, edges[_REV, v, j]] = _TAKEN
    chosen[v] += 1
    chosen[w] += 1
    if meta[_BB] >= 0 and info[_INA, v] == 0 and info[_INA, w] == 0:
        meta[_BBTAKEN] += 1
        if meta[_BBTAKEN] > meta[_BB]:
            return False
        if meta[_BBTAKEN] == meta[_BB]:
            for u in range(nbr.shape[0]):
                if info[_INA, u]:
                    continue
                for jj in range(nbr.shape[1]):
                    x = nbr[u, jj]
                    if edges[_STATE, u, jj] == _FREE and info[_INA, x] == 0:
                        _drop(u, jj, nbr, work, edges, meta)
    size = fsize[ev] + fsize[ew]
    oth[ev] = ew
    oth[ew] = ev
    fsize[ev] = size
    fsize[ew] = size
    if size < k + 1:
        if (ev == cur and ew == end) or (ev == end and ew == cur):
            return False
        for jj in range(nbr.shape[1]):  # the move between the new ends would close a cycle
            if nbr[ev, jj] == ew and edges[_STATE, ev, jj] == _FREE:
                _drop(ev, jj, nbr, work, edges, meta)
    _enqueue(v, work, meta)
    _enqueue(w, work, meta)
    return True


def _settle(cur: int, end: int, k: int, pa: Props) -> bool:
    """The queue of :func:`_propagate` worked through to a fixed point; False on a contradiction.

    A square with just as many moves left as it needs uses them all; one that has all it needs
    rules out its others; one left with fewer than it needs is a contradiction.
    """
    nbr, _, work, edges, meta, _ = pa
    n, nn = nbr.shape
    avail, chosen, req = work[10], work[11], work[12]
    inq = work[16]
    state = edges[_STATE]
    while meta[_QLEN] > 0:
        v = work[15, meta[_QHEAD]]
        meta[_QHEAD] = (meta[_QHEAD] + 1) % n
        meta[_QLEN] -= 1
        inq[v] = 0
        if avail[v] < req[v]:
            return False
        if chosen[v] < req[v] and avail[v] == req[v]:
            for j in range(nn):
                if state[v, j] == _FREE and not _choose(v, j, cur, end, k, pa):
                    return False
        elif chosen[v] == req[v] and avail[v] > req[v]:
            for j in range(nn):
                if state[v, j] == _FREE:
                    _drop(v, j, nbr, work, edges, meta)
    return True


def _mark_near(
    row: Array, cur: int, nbr: Array, vis: Array, req: Array, state: Array, near: Array
) -> tuple[int, bool]:
    """For a set S of :func:`_slack` (``row``: the squares the rest of the path visits, ``cur``
    counted), mark T, the squares a move left joins to S, with 1 in ``near``; S's need (the
    moves of the rest at S, row 12 of the work) and whether no move left joins two of S."""
    need = 0
    apart = True
    for v in range(nbr.shape[0]):
        if not row[v] or (vis[v] and v != cur):
            continue
        need += req[v]
        for j in range(nbr.shape[1]):
            if state[v, j] != _GONE:
                w = nbr[v, j]
                if row[w]:
                    apart = False
                near[w] = 1
    return need, apart


def _moves_out(
    row: Array, nbr: Array, req: Array, state: Array, near: Array
) -> tuple[int, int, int]:
    """The moves of the squares marked in ``near`` (T of :func:`_slack`) to squares off ``row``
    (S): ``(room, taken, free)``, the moves T's squares need in all, and of their moves
    elsewhere than S, those taken and those still free."""
    room = 0
    taken = 0
    free = 0
    for u in range(nbr.shape[0]):
        if not near[u]:
            continue
        room += req[u]
        for j in range(nbr.shape[1]):
            if state[u, j] != _GONE and not row[nbr[u, j]]:
                if state[u, j] == _TAKEN:
                    taken += 1
                else:
                    free += 1
    return room, taken, free


def _slack(cur: int, end: int, k: int, pa: Props) -> int:
    """The moves out of the neighbours of each independent set, counted; -1 on a contradiction,
    1 when moves were taken or ruled out (queued for :func:`_settle`), else 0.

    Take a set S of the squares the rest of the path visits (``info[_SETS + s]``, left out while
    a move still joins two of them), and T the squares it visits that a move left joins to S.
    Every move of the rest at S goes to T, so of the moves of the rest at T (each square's need,
    row 12, summed: a move between two squares of T counts twice) exactly need(T) - need(S) go
    elsewhere than S. More taken, or fewer left, is a contradiction; when the taken ones are
    that many the others are ruled out, and when only that many are left they are all taken.
    With S the independent lines this is the count of the moves between two squares off them.
    """
    nbr, vis, work, edges, meta, info = pa
    n = nbr.shape[0]
    nn = nbr.shape[1]
    req = work[12]
    near = work[17]  # 1 on T (zeroed again after each set)
    state = edges[_STATE]
    acted = 0
    for s in range(meta[_NSETS]):
        row = info[_SETS + s]
        need, apart = _mark_near(row, cur, nbr, vis, req, state, near)
        room, taken, free = _moves_out(row, nbr, req, state, near)
        out = room - need
        if apart and free > 0 and (taken == out or taken + free == out):
            take = taken < out
            for u in range(n):
                if not near[u]:
                    continue
                for j in range(nn):
                    if state[u, j] != _FREE or row[nbr[u, j]]:
                        continue
                    if not take:
                        _drop(u, j, nbr, work, edges, meta)
                    elif not _choose(u, j, cur, end, k, pa):
                        taken = -1
                        break
                if taken < 0:
                    break
            acted = 1
        for u in range(n):
            near[u] = 0
        if apart and (taken < 0 or taken > out or taken + free < out):
            return -1
        if acted:
            return 1
    return 0


def _parity(cur: int, end: int, k: int, pa: Props, act: bool) -> int:
    """The moves between two squares of one colour, counted; -1 on a contradiction, 1 when moves
    were taken or ruled out (queued for :func:`_settle`), else 0. Without ``act``, only
    whether more of them must be taken: 1 for the first colour (0), 2 for the other, else 0.

    On a board whose leaper does not always change colour (an odd side wraps round), the rest
    of the path's moves at the squares of colour 0 add up to their need (row 12): twice the
    moves between two of them, plus the moves between the colours; and so at colour 1. So the
    moves between two squares of colour 0 outnumber those between two of colour 1 by exactly
    half the difference of the two needs. The range each count may take (from the moves taken
    and those left) must meet that; at an end of the range, all or none of the rest are taken.
    """
    nbr, vis, work, edges, meta, info = pa
    n = nbr.shape[0]
    nn = nbr.shape[1]
    req = work[12]
    state = edges[_STATE]
    colour = info[_COLOUR]
    diff = 0
    taken0 = 0
    free0 = 0
    taken1 = 0
    free1 = 0
    for v in range(n):
        if vis[v] and v != cur:
            continue
        c = colour[v]
        diff += req[v] if c == 0 else -req[v]
        for j in range(nn):
            st = state[v, j]
            if st == _GONE or colour[nbr[v, j]] != c:
                continue
            if c == 0:
                if st == _TAKEN:
                    taken0 += 1
                else:
                    free0 += 1
            elif st == _TAKEN:
                taken1 += 1
            else:
                free1 += 1
    if diff % 2:
        return -1
    d = diff // 2
    # each move counted at both of its squares
    taken0 //= 2
    free0 //= 2
    taken1 //= 2
    free1 //= 2
    low = max(taken0, taken1 + d)
    high = min(taken0 + free0, taken1 + free1 + d)
    if low > high:
        return -1
    if not act:
        if low > taken0 and free0 > 0:
            return 1
        if low - d > taken1 and free1 > 0:
            return 2
        return 0
    for c in range(2):
        free = free0 if c == 0 else free1
        taken = taken0 if c == 0 else taken1
        shift = 0 if c == 0 else d
        if free == 0 or (low - shift < taken + free and high - shift > taken):
            continue
        take = low - shift == taken + free
        for v in range(n):
            if (vis[v] and v != cur) or colour[v] != c:
                continue
            for j in range(nn):
                w = nbr[v, j]
                if state[v, j] != _FREE or colour[w] != c:
                    continue
                if not take:
                    _drop(v, j, nbr, work, edges, meta)
                elif not _choose(v, j, cur, end, k, pa):
                    return -1
        return 1
    return 0


def _closure(cur: int, end: int, k: int, pa: Props) -> bool:
    """:func:`_settle` and :func:`_slack` in turn up to a fixed point; False on a contradiction."""
    meta = pa[4]
    while True:
        if not _settle(cur, end, k, pa):
            return False
        acted = 0
        if meta[_NSETS] > 0:
            acted = _slack(cur, end, k, pa)
        if acted == 0 and meta[_PARITY]:
            acted = _parity(cur, end, k, pa, True)
        if acted < 0:
            return False
        if acted == 0:
            return True


def _keep(work: Array, edges: Array, back: bool) -> None:
    """Save the state of :func:`_propagate` for :func:`_probe` (``back``: put it back, with an
    empty queue)."""
    state = edges[_STATE]
    saved = edges[_SAVED]
    for v in range(state.shape[0]):
        for j in range(state.shape[1]):
            if back:
                state[v, j] = saved[v, j]
            else:
                saved[v, j] = state[v, j]
        if back:
            work[10, v] = work[18, v]
            work[11, v] = work[19, v]
            work[13, v] = work[20, v]
            work[14, v] = work[21, v]
            work[16, v] = 0
        else:
            work[18, v] = work[10, v]
            work[19, v] = work[11, v]
            work[20, v] = work[13, v]
            work[21, v] = work[14, v]


def _probe(cur: int, end: int, k: int, pa: Props) -> bool:
    """Each move out of the neighbours T of a set of :func:`_slack` that has at most
    ``meta[_PROBE]`` such moves left to make (counted at both ends), tried (:func:`_try`): a
    move whose taking leads :func:`_closure` to a contradiction is ruled out; False when that
    leads to one. (A "failed literal" of SAT solvers.)
    """
    nbr, vis, work, edges, meta, info = pa
    n = nbr.shape[0]
    nn = nbr.shape[1]
    req = work[12]
    near = work[22]
    state = edges[_STATE]
    again = True
    while again:
        again = False
        for s in range(meta[_NSETS]):
            row = info[_SETS + s]
            need, apart = _mark_near(row, cur, nbr, vis, req, state, near)
            room, taken, _ = _moves_out(row, nbr, req, state, near)
            if apart and 0 < room - need - taken <= meta[_PROBE]:
                for u in range(n):
                    for j in range(nn):
                        if near[u] and state[u, j] == _FREE and not row[nbr[u, j]]:
                            tried = _try(u, j, cur, end, k, pa)
                            if tried < 0:
                                near[:] = 0
                                return False
                            again = again or tried > 0
            for u in range(n):
                near[u] = 0
    return True


def _try(u: int, j: int, cur: int, end: int, k: int, pa: Props) -> int:
    """Take the move in slot ``j`` of ``u`` on trial: if :func:`_closure` then finds a
    contradiction, rule it out for good. -1 when that leads to a contradiction, 1 when the move
    was ruled out, else 0 (the state as before).

    The state of :func:`_propagate` (``edges[_STATE]``, rows 10, 11, 13 and 14 of ``work``) is
    saved in ``edges[_SAVED]`` and rows 18 to 21 before the trial and put back after it.
    """
    nbr, _, work, edges, meta, _ = pa
    _keep(work, edges, False)
    bbtaken = meta[_BBTAKEN]
    ok = _choose(u, j, cur, end, k, pa)
    ok = ok and _closure(cur, end, k, pa)
    _keep(work, edges, True)
    meta[_BBTAKEN] = bbtaken
    meta[_QHEAD] = 0
    meta[_QLEN] = 0
    if ok:
        return 0
    _drop(u, j, nbr, work, edges, meta)
    if not _closure(cur, end, k, pa):
        return -1
    return 1


def _probe_colour(cur: int, end: int, k: int, pa: Props) -> bool:
    """When the rest must take more moves between two squares of one colour (:func:`_parity`),
    and at most :data:`PROBE_MOVES` of them are left, each is tried (:func:`_try`); False on a
    contradiction."""
    nbr, vis, _, edges, _, info = pa
    n = nbr.shape[0]
    nn = nbr.shape[1]
    state = edges[_STATE]
    colour = info[_COLOUR]
    again = True
    while again:
        again = False
        need = _parity(cur, end, k, pa, False)
        if need <= 0:
            return need == 0
        c = need - 1
        free = 0
        for v in range(n):
            if colour[v] == c and (not vis[v] or v == cur):
                for j in range(nn):
                    if state[v, j] == _FREE and colour[nbr[v, j]] == c:
                        free += 1
        if free > 2 * PROBE_MOVES:
            return True
        for v in range(n):
            if colour[v] != c or (vis[v] and v != cur):
                continue
            for j in range(nn):
                if state[v, j] != _FREE or colour[nbr[v, j]] != c:
                    continue
                tried = _try(v, j, cur, end, k, pa)
                if tried < 0:
                    return False
                if tried > 0:
                    again = True
    return True


def _propagate(cur: int, end: int, k: int, pa: Props, bb: int) -> int:
    """The moves the rest of the path must use, followed through; -1 on a contradiction, else
    the square the path must enter next (or -2 when none is forced).

    The rest of the path runs from ``cur`` through every unvisited square to the fixed last
    square ``end``: it uses one move at ``cur`` and at ``end``, two at every other square
    (row 12). A square with just as many moves left (row 10) uses them all; a square that has
    all its moves (row 11) rules out its others; a move that would close a cycle of taken
    moves is ruled out, and one that joins ``cur`` to ``end`` before every square is on the
    way is a contradiction. Each rule may set off others, up to a fixed point; a square left
    with fewer moves than it needs, or given more, is a contradiction. This is the edge-based
    reasoning of Hamiltonian cycle solvers (Vandegriend and Culberson, JAIR 9, 1998) on the
    squares the path has still to visit.

    With an independent set A (no move joins two of its squares), ``bb`` is the number of moves
    between two squares off A that the rest makes (:func:`_expand` counts it: every other move
    has one end on A); -1 without A. It uses no more of them (none at all when ``bb`` is 0),
    and each square off A that has fewer moves to A left than it needs takes the rest from
    them: at most 2 ``bb`` such ends. The sets of :func:`_slack` count the moves out of their
    neighbours, and :func:`_probe` tries those moves one by one when few are left to make.
    """
    nbr, vis, work, edges, meta, info = pa
    n, nn = nbr.shape
    avail, chosen, req = work[10], work[11], work[12]
    oth = work[13]
    fsize = work[14]
    inq = work[16]
    state = edges[_STATE]
    meta[_QHEAD] = 0
    meta[_QLEN] = 0
    meta[_BB] = bb
    meta[_BBTAKEN] = 0
    for v in range(n):
        inq[v] = 0
    for v in range(n):
        if vis[v] and v != cur:  # no move of the rest (rules that scan every square skip it)
            for j in range(nn):
                state[v, j] = _GONE
            avail[v] = 0
            req[v] = 0
            continue
        a = 0
        for j in range(nn):
            w = nbr[v, j]
            s = _GONE
            if (
                w >= 0
                and (not vis[w] or w == cur)
                and not ((v == cur and w == end) or (v == end and w == cur))
                and not (bb == 0 and info[_INA, v] == 0 and info[_INA, w] == 0)
            ):
                s = _FREE
                a += 1
            state[v, j] = s
        avail[v] = a
        chosen[v] = 0
        req[v] = 1 if (v == cur or v == end) else 2  # noqa: SIM109 (compiled: no tuples)
        oth[v] = v
        fsize[v] = 1
        _enqueue(v, work, meta)
    if not _closure(cur, end, k, pa):
        return -1
    if meta[_PROBE] > 0 and not _probe(cur, end, k, pa):
        return -1
    if meta[_PARITY] and not _probe_colour(cur, end, k, pa):
        return -1
    if bb > 0:  # the squares off A short of moves to A: 2 bb ends of such moves at most
        short = 0
        for v in range(n):
            if (vis[v] and v != cur) or info[_INA, v]:
                continue
            to_a = 0
            for j in range(nn):
                if state[v, j] != _GONE and info[_INA, nbr[v, j]]:
                    to_a += 1
            if to_a < req[v]:
                short += req[v] - to_a
        if short > 2 * bb:
            return -1
    if chosen[cur] == 1:
        for j in range(nn):
            if state[cur, j] == _TAKEN:
                return nbr[cur, j]
    return -2


def _memo_slot(mask: int, cur: int, end: int, memo: Array) -> int:
    """The slot of the position (visited squares ``mask``, on ``cur``, to ``end``) in ``memo``."""
    h = mask ^ (mask >> 23) ^ (mask >> 41) ^ (np.int64(cur) * 40503) ^ (np.int64(end) * 22643)
    h ^= h >> 13
    return h & (memo.shape[0] - 1)


def _expand(
    depth: int,
    nbr: Array,
    vis: Array,
    deg: Array,
    low_list: Array,
    low_pos: Array,
    path: Array,
    cand: Array,
    work: Array,
    mark: Array,
    info: Array,
    meta: Array,
    edges: Array,
) -> int:
    """Fill ``cand[depth]`` with the moves worth trying from ``path[depth]``; their number."""
    cur = path[depth]
    size = meta[_SIZE]
    end = meta[_END]
    k = size - depth - 1  # squares still to visit
    nn = nbr.shape[1]
    prio = info[_PRIO]
    nprio = prio.size
    if k == 1:
        for j in range(nn):
            q = nbr[cur, j]
            if q >= 0 and not vis[q] and (end < 0 or q == end):
                cand[depth, 0] = q
                return 1
        return 0
    nlow = meta[_NLOW]
    if nlow > 2:
        return 0
    forced = -1
    restrict = False
    nonadj = 0
    for i in range(nlow):
        x = low_list[i]
        if deg[x] == 0:
            return 0
        adj = _adjacent(cur, x, nbr)
        if end >= 0:
            if x == end:
                continue
            if not adj or forced >= 0:
                return 0
            forced = x
        elif not adj:
            nonadj += 1
    if end < 0:
        if nonadj > 1:
            return 0
        if nlow == 2:
            if nonadj == 1:
                for i in range(2):
                    x = low_list[i]
                    if _adjacent(cur, x, nbr):
                        forced = x
            else:
                restrict = True
    if meta[_USEA] == ALTERNATION and not _alternation_ok(cur, end, k, info, meta):
        return 0
    if meta[_USEA] == SPACING and not _spacing_ok(cur, end, k, info, meta):
        return 0
    # with a fixed last square, _propagate does what _end_ok and _forced_ok do, and more
    prop = meta[_PROP] != 0 and end >= 0
    must = -2  # the square the checks force next (-1: a contradiction, -2: none)
    if prop:
        bb = -1
        if meta[_USEA] != NO_SET:
            # the rest's k moves: A's squares take 2 each (1 at cur and end), all to squares
            # off A; the others join two squares off A
            bb = k - info[_INA, cur] - 2 * (meta[_A0] + meta[_A1]) + info[_INA, end]
            if bb < 0:
                return 0
        must = _propagate(cur, end, k, (nbr, vis, work, edges, meta, info), bb)
    else:
        if end >= 0 and not _end_ok(cur, end, nbr, vis, deg):
            return 0
        if meta[_FORCE]:
            must = _forced_ok(cur, end, nbr, vis, deg, work)
    if must == -1:
        return 0
    if must >= 0:
        if forced >= 0 and forced != must:
            return 0
        forced = must
    if not _blocks_ok(cur, end, k, nbr, vis, work, mark, meta, edges, prop):
        return 0
    # candidates in Warnsdorff order (insertion sort on the onward count, stable)
    n = 0
    for j in range(nn):
        q = nbr[cur, j]
        if q < 0 or vis[q] or q == end or (prop and edges[_STATE, cur, j] == _GONE):
            continue
        if forced >= 0 and q != forced:
            continue
        if restrict and deg[q] > 1:
            continue
        d = deg[q] * nprio + prio[q]
        i = n
        while i > 0 and deg[cand[depth, i - 1]] * nprio + prio[cand[depth, i - 1]] > d:
            cand[depth, i] = cand[depth, i - 1]
            i -= 1
        cand[depth, i] = q
        n += 1
    return n


def start(arrays: tuple[Array, ...], first: int) -> None:
    """Set up the search in ``arrays`` (:data:`ARRAYS`) from square ``first`` (``vis`` marks
    holes; ``meta`` holds size, end)."""
    nbr, vis, deg, low_list, low_pos, path, cand, ncand, ci, work, mark, info, meta, edges = arrays
    n = nbr.shape[0]
    meta[_NLOW] = 0
    meta[_A0] = 0
    meta[_A1] = 0
    for q in range(n):
        low_pos[q] = -1
        if not vis[q] and info[_INA, q]:
            meta[_A0 + info[_COLOUR, q]] += 1
    for q in range(n):
        if vis[q]:
            deg[q] = 0
            continue
        d = 0
        for j in range(nbr.shape[1]):
            r = nbr[q, j]
            if r >= 0 and not vis[r]:
                d += 1
        deg[q] = d
        if d <= 1:
            _low_add(np.int32(q), low_list, low_pos, meta)
    path[0] = first
    if meta[_MEMO]:  # the visited squares as bits (boards of at most 64 squares)
        mask = np.int64(1) << np.int64(first)
        for q in range(n):
            if vis[q]:
                mask |= np.int64(1) << np.int64(q)
        meta[_MASK] = mask
    # squares are int32 (read from the tables) and depths int64 (from ``meta``) in every call,
    # so each kernel compiles once
    _visit(path[0], arrays)
    meta[_DEPTH] = 0
    ci[0] = 0
    size = meta[_SIZE]
    if size == 1:
        ncand[0] = 0
        return
    depth = meta[_DEPTH]
    ncand[0] = _expand(
        depth, nbr, vis, deg, low_list, low_pos, path, cand, work, mark, info, meta, edges
    )


def run(arrays: tuple[Array, ...], memo: Array, budget: int) -> int:
    """Search on from the state in ``arrays`` (:data:`ARRAYS`) for at most ``budget`` positions:
    FOUND, EXHAUSTED or BUDGET.

    On FOUND, ``path`` holds the tour. ``meta[_NODES]`` counts positions examined in all calls.

    With ``meta[_MEMO]`` set (boards of at most 64 squares), positions proved dead (every move
    from them tried in vain) are remembered in ``memo``, a table of (visited squares, square,
    last square) that later visits skip: a dead position stays dead, however the path got there,
    so the table may be shared by every search of one board. A new entry overwrites an old one.
    """
    nbr, vis, deg, low_list, low_pos, path, cand, ncand, ci, work, mark, info, meta, edges = arrays
    size = meta[_SIZE]
    depth = meta[_DEPTH]
    end = meta[_END]
    use_memo = meta[_MEMO] != 0
    tag_end = (end + 2) * 256
    if size == 1:
        return FOUND
    nodes = 0
    while True:
        if ci[depth] < ncand[depth]:
            if nodes >= budget:
                meta[_DEPTH] = depth
                meta[_NODES] += nodes
                return BUDGET
            c = cand[depth, ci[depth]]
            ci[depth] += 1
            if use_memo and size - depth - 2 >= MEMO_LEFT:
                mask = meta[_MASK] | (np.int64(1) << np.int64(c))
                slot = _memo_slot(mask, c, end, memo)
                if memo[slot, 0] == mask and memo[slot, 1] == tag_end + c:
                    nodes += 1
                    continue
                meta[_MASK] = mask
            elif use_memo:
                meta[_MASK] |= np.int64(1) << np.int64(c)
            _visit(c, arrays)
            depth += 1
            path[depth] = c
            nodes += 1
            if depth == size - 1:
                meta[_DEPTH] = depth
                meta[_NODES] += nodes
                return FOUND
            ci[depth] = 0
            ncand[depth] = _expand(
                depth, nbr, vis, deg, low_list, low_pos, path, cand, work, mark, info, meta, edges
            )
        else:
            if depth == 0:
                meta[_DEPTH] = 0
                meta[_NODES] += nodes
                return EXHAUSTED
            c = path[depth]
            if use_memo:
                mask = meta[_MASK]
                if size - depth - 1 >= MEMO_LEFT:
                    slot = _memo_slot(mask, c, end, memo)
                    memo[slot, 0] = mask
                    memo[slot, 1] = tag_end + c
                meta[_MASK] = mask ^ (np.int64(1) << np.int64(c))
            _unvisit(c, arrays)
            depth -= 1
