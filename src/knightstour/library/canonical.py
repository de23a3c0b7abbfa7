"""Canonical forms of tours up to symmetry, and their packed bytes.

Two tours are *the same* in the library when one becomes the other by

- a symmetry of the board: the 8 of the square (rotations by 90°, reflections in the axes and
  diagonals) on a square board, the 4 of the rectangle (identity, the two axis reflections, the
  half turn) otherwise;
- walking it backwards (reversal);
- for a closed tour, starting the cycle from another of its squares (rotation).

The *canonical form* of a tour is the lexicographically smallest sequence of square indices among
all those images (for a closed tour, the images started from ``a1``, square 0). A tour is stored as
its canonical form, under a unique constraint, plus the *transform code* that turns the canonical
form back into the tour as it was made: ``g + 8 * d + 16 * r``, where ``g`` numbers the symmetry
(:func:`symmetries`), ``d`` is 1 when the tour was reversed, and ``r`` the rotation.

Note that with a fixed start square, a tour's images under symmetry usually start elsewhere: two
tours from ``a1`` that are mirror images in the long diagonal are one tour in the library, and so
are a tour from ``a1`` and the same tour walked back from its end.

>>> import knightstour as kt
>>> t = kt.solve("5x5", start="a1", method="warnsdorff")
>>> key, code = canonical_form(t.board, t.indices, closed=False)
>>> len(key), key == canonical_form(t.board, t.indices[::-1], closed=False)[0]
(10, True)
>>> bool((apply_transform(t.board, unpack(t.board, key), code) == t.indices).all())
True

The packed bytes are the first square (in :func:`header_bytes` bytes, little-endian) followed by
each move as a 3-bit code, the index of its ``(dx, dy)`` in :attr:`Board.deltas`, least
significant bit first: 25 bytes for an 8 × 8 tour.

**Shaped boards** (holes, other leapers, wrapped and 3-D boards: any board that is not
:attr:`Board.is_plain_knight`) have their own group, :func:`shape_group`: the maps of the box
(the 8 or 4 symmetries of the rectangle, the 48 or fewer of a 3-D box: permutations of equal
sides and reflections), each followed by every translation along the wrapped sides (the files
on a cylinder, files and ranks on a torus), of which it keeps those the code proves map the
board onto itself: the map must carry the hole-free board's neighbour table (the leaper, the
wrap, the layers) onto itself, square by square, and the holes onto the holes. A closed tour's
images start on the board's least square (:attr:`ShapeGroup.first`, ``a1`` unless it is a
hole); the transform code is ``g + G * d + 2 * G * r`` with ``G`` the group's order; and each
move is packed as its column in the board's neighbour table (:attr:`Board.neighbours`), in as
few bits as the table's width needs, so a tour of a board with holes packs only its squares.

>>> b = Board(6, 6, wrap="torus", holes=["a1", "d3"])
>>> shape_group(b).order    # the maps and translations that keep the holes
4
>>> t = kt.solve(b, start="b1", method="backtrack")
>>> key, code = canonical_form(b, t.indices, closed=False)
>>> bool((apply_transform(b, unpack(b, key), code) == t.indices).all())
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from knightstour.board import Board, symmetries
from knightstour.errors import InvalidInputError

__all__ = [
    "ShapeGroup",
    "apply_transform",
    "canonical_form",
    "check_library_board",
    "header_bytes",
    "key_length",
    "pack",
    "shape_group",
    "symmetries",
    "unpack",
    "unpack_batch",
]

_KNIGHT = ((2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))
_DX = np.array([d[0] for d in _KNIGHT], dtype=np.int32)
_DY = np.array([d[1] for d in _KNIGHT], dtype=np.int32)


def _code_of() -> np.ndarray:
    """``code_of[(dy + 2) * 5 + dx + 2]`` is the move code of ``(dx, dy)``."""
    t = np.full(25, 255, dtype=np.uint8)
    for k, (dx, dy) in enumerate(_KNIGHT):
        t[(dy + 2) * 5 + dx + 2] = k
    return t


CODE_OF = _code_of()


def check_board(board: Board) -> Board:
    """The board, if it is a plain knight's rectangle (what the batch kernels, the enumerator and
    the completeness checks take); :func:`check_library_board` takes every board."""
    if not board.is_plain_knight:
        raise InvalidInputError(
            f"this works on knight's tours of plain rectangular boards, not {board.description}"
        )
    return board


def check_library_board(board: Board) -> Board:
    """The board, if the library can hold its tours: any board of at least one square whose
    neighbour table fits in memory (every :class:`Board` has a square).

    >>> check_library_board(Board(4, 4, depth=2)).spec
    '4x4x2'
    """
    if not board.is_plain_knight:
        board.require_memory(8 + 4 * len(board.deltas3), "the library's neighbour table")
    return board


def header_bytes(board: Board) -> int:
    """Bytes for the first square of a packed tour: enough for any square index of ``board``.

    >>> header_bytes(Board(8, 8)), header_bytes(Board(16, 16)), header_bytes(Board(17, 16))
    (1, 1, 2)
    """
    return max(1, ((board.area - 1).bit_length() + 7) // 8)


def key_length(board: Board) -> int:
    """The length of a packed tour on ``board``: 25 bytes on 8 × 8.

    >>> key_length(Board(8, 8)), key_length(Board(5, 5)), key_length(Board(5, 5, holes=[12]))
    (25, 10, 10)
    >>> key_length(Board(4, 4, depth=4))   # 24 moves: 5 bits a move
    41
    """
    if not board.is_plain_knight:
        return header_bytes(board) + (_move_bits(board) * (board.size - 1) + 7) // 8
    return header_bytes(board) + (3 * (board.area - 1) + 7) // 8


def _variants(board: Board, p: np.ndarray, closed: bool) -> list[tuple[tuple[int, ...], int]]:
    """Every image of tour ``p`` as ``(squares, transform code)``: the reference definition."""
    perms, _ = symmetries(board.width, board.height)
    n = p.size
    out = []
    for g in range(perms.shape[0]):
        v = perms[g][p]
        for d in range(2):
            w = v[::-1] if d else v
            r = int(np.flatnonzero(w == 0)[0]) if closed else 0
            c = np.roll(w, -r)
            out.append((tuple(c.tolist()), g + 8 * d + 16 * r))
    assert all(len(c) == n for c, _ in out)
    return out


def canonical_form(board: Board, indices: np.ndarray, closed: bool) -> tuple[bytes, int]:
    """``(key, code)``: the packed canonical form of a tour and the transform code that turns the
    canonical form back into it (see :func:`apply_transform`).

    The plain NumPy reference; :mod:`knightstour.kernels.library` computes the same for batches.
    The tour is assumed valid (validate it first). Shaped boards use their own group
    (:func:`shape_group`) and packing (see the module's notes).
    """
    if not board.is_plain_knight:
        seq, code = _shaped_canonical(board, np.asarray(indices, dtype=np.int64), closed)
        return _pack_shaped(board, seq[None, :])[0].tobytes(), code
    p = np.asarray(indices, dtype=np.int64)
    best, code = min(_variants(board, p, closed), key=lambda v: v[0])  # first of equals
    return pack(board, np.array(best, dtype=np.int64)), code


def apply_transform(board: Board, canon: np.ndarray, code: int) -> np.ndarray:
    """The tour that transform ``code`` names, from its canonical squares ``canon``."""
    return _apply_batch(board, np.asarray(canon, dtype=np.int64)[None, :], np.array([code]))[0]


def _apply_batch(board: Board, canon: np.ndarray, codes: np.ndarray) -> np.ndarray:
    if not board.is_plain_knight:
        return _shaped_apply_batch(board, canon, codes)
    invs = _invs32(board.width, board.height)
    codes = np.asarray(codes, dtype=np.int64)
    n = canon.shape[1]
    g, d, r = codes & 7, (codes >> 3) & 1, codes >> 4
    if (g >= invs.shape[0]).any() or (r >= n).any():
        raise InvalidInputError(f"bad transform code for a {board.spec} tour")
    w = canon
    if r.any():
        idx = np.arange(n, dtype=np.int64)[None, :] - r[:, None]
        idx[idx < 0] += n
        w = np.take_along_axis(canon, idx, axis=1)
    rev = d == 1
    if rev.any():
        w = w.copy() if w is canon else w
        w[rev] = w[rev, ::-1]
    return invs[g[:, None], w]


@lru_cache(maxsize=64)
def _invs32(width: int, height: int) -> np.ndarray:
    return symmetries(width, height)[1].astype(np.int32)


def pack(board: Board, squares: np.ndarray) -> bytes:
    """The packed bytes of a sequence of squares (each step a knight's move).

    >>> b = Board(5, 5)
    >>> pack(b, np.array([0, 7, 4])).hex()   # a1, c2 (code 0), e1 (code 7)
    '0038'
    """
    squares = np.asarray(squares, dtype=np.int64)
    if not board.is_plain_knight:
        return _pack_shaped(board, squares[None, :])[0].tobytes()
    w, hb = board.width, header_bytes(board)
    head = int(squares[0]).to_bytes(hb, "little")
    dx = np.diff(squares % w)
    dy = np.diff(squares // w)
    codes = CODE_OF[(dy + 2) * 5 + dx + 2]
    if (codes == 255).any():
        raise InvalidInputError("cannot pack: a step is not a knight's move")
    bits = ((codes[:, None] >> np.arange(3)) & 1).astype(np.uint8).reshape(-1)
    return head + np.packbits(bits, bitorder="little").tobytes()


def unpack(board: Board, key: bytes) -> np.ndarray:
    """The squares of one packed tour (see :func:`unpack_batch`), unchecked."""
    squares, _ = unpack_batch(board, np.frombuffer(key, dtype=np.uint8)[None, :])
    return squares[0]


def unpack_batch(board: Board, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(squares, ok)`` of a ``(B, key_length)`` uint8 array of packed tours.

    ``squares`` is ``(B, area)`` int32; ``ok`` is False for a row that leaves the board or visits
    a square twice (a damaged key: every step is a knight's move by construction).
    """
    if not board.is_plain_knight:
        return _unpack_shaped(board, keys)
    w, h, n = board.width, board.height, board.area
    hb = header_bytes(board)
    keys = np.asarray(keys, dtype=np.uint8)
    if keys.ndim != 2 or keys.shape[1] != key_length(board):
        raise InvalidInputError(f"a packed {board.spec} tour has {key_length(board)} bytes")
    rows = keys.shape[0]
    start = keys[:, 0].astype(np.int64)
    for b in range(1, hb):
        start |= keys[:, b].astype(np.int64) << (8 * b)
    bits = np.unpackbits(keys[:, hb:], axis=1, bitorder="little")[:, : 3 * (n - 1)]
    bits = bits.reshape(rows, n - 1, 3)
    codes = bits[..., 0] | (bits[..., 1] << 1) | (bits[..., 2] << 2)
    x = np.empty((rows, n), dtype=np.int32)
    y = np.empty_like(x)
    x[:, 0], y[:, 0] = start % w, start // w
    np.cumsum(_DX[codes], axis=1, dtype=np.int32, out=x[:, 1:])
    np.cumsum(_DY[codes], axis=1, dtype=np.int32, out=y[:, 1:])
    x[:, 1:] += x[:, :1]
    y[:, 1:] += y[:, :1]
    ok = (start < n) & ((x >= 0) & (x < w) & (y >= 0) & (y < h)).all(axis=1)
    squares = y
    squares *= w
    squares += x
    squares[~ok] = np.arange(n, dtype=np.int32)
    seen = np.zeros(rows * n, dtype=bool)
    seen[(squares + (np.arange(rows, dtype=np.int64) * n)[:, None]).ravel()] = True
    ok &= seen.reshape(rows, n).all(axis=1)
    return squares, ok


#: Rows from which :func:`decode_batch` loads the compiled kernels when this process has not
#: loaded them yet (loading costs about half a second; NumPy decodes a row in a few microseconds).
COMPILE_DECODE_ROWS = 200_000


def decode_batch(
    board: Board, keys: np.ndarray, codes: np.ndarray, closed: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``(tours, ok)``: the stored tours from their packed canonical forms and transform codes,
    validated (``ok`` False for a damaged row).

    On a plain board this runs the compiled :func:`~knightstour.kernels.library.decode_keys`
    when this process has the library's kernels loaded (generation loads them) or the batch is
    large (:data:`COMPILE_DECODE_ROWS`), else the NumPy reference below (the same answers).
    """
    if not board.is_plain_knight:
        return _shaped_decode_batch(board, keys, codes, closed)
    k = library_kernels(len(keys), COMPILE_DECODE_ROWS)
    if k is not None and np.ndim(keys) == 2 and np.shape(keys)[1] == key_length(board):
        rows = len(keys)
        tours = np.empty((rows, board.area), dtype=np.int32)
        ok = np.empty(rows, dtype=np.bool_)
        k.decode_keys(
            np.ascontiguousarray(keys, dtype=np.uint8),
            np.ascontiguousarray(codes, dtype=np.int64),
            board.width, board.height, header_bytes(board),
            _invs32(board.width, board.height), bool(closed), tours, ok,
        )  # fmt: skip
        return tours, ok
    return _decode_reference(board, keys, codes, closed)


def library_kernels(work: int, threshold: int) -> Any | None:
    """The library's compiled kernels (:mod:`knightstour.kernels.library`) when this process
    has loaded them already or ``work`` exceeds ``threshold``; None when NumPy is the quicker
    choice (loading them costs about half a second)."""
    from knightstour.kernels import jit

    name = "knightstour.kernels.library"
    if name not in jit.compiled_modules() and work <= threshold:
        return None
    return jit.load(name, compiled=True)


def _decode_reference(
    board: Board, keys: np.ndarray, codes: np.ndarray, closed: bool
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`decode_batch` on a plain board in NumPy: the reference of the compiled kernel."""
    canon, ok = unpack_batch(board, keys)
    codes = np.asarray(codes, dtype=np.int64)
    n = board.area
    ok &= ((codes & 7) < symmetries(board.width, board.height)[0].shape[0]) & ((codes >> 4) < n)
    tours = _apply_batch(board, canon, np.where(ok, codes, 0))
    if closed and n > 1:
        a, b = tours[:, 0], tours[:, -1]
        dx = np.abs(a % board.width - b % board.width)
        dy = np.abs(a // board.width - b // board.width)
        ok &= ((dx == 1) & (dy == 2)) | ((dx == 2) & (dy == 1))
    return tours, ok


# -- shaped boards ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ShapeGroup:
    """The symmetries of a shaped board (:func:`shape_group`), element ``g`` a map of the box
    followed by a translation: coordinate ``j`` of the image is coordinate ``axes[g, j]`` of the
    square, reflected (``size - 1 - c``) where ``flips[g, j]``, plus ``shifts[g, j]`` modulo the
    side. Element 0 is the identity; the order is fixed (the maps of the box in the order of
    :func:`itertools.permutations` and :func:`itertools.product`, each with its translations in
    increasing order), so stored transform codes keep their meaning.
    """

    dims: tuple[int, int, int]
    axes: np.ndarray  # (G, 3) int64
    flips: np.ndarray  # (G, 3) bool
    shifts: np.ndarray  # (G, 3) int64
    #: The least square of the board: where a closed tour's canonical form starts.
    first: int

    @property
    def order(self) -> int:
        """The number of symmetries."""
        return int(self.axes.shape[0])

    def apply(self, g: np.ndarray | int, squares: np.ndarray | int) -> np.ndarray:
        """The images of ``squares`` under elements ``g`` (broadcast together).

        >>> grp = shape_group(Board(4, 4, depth=2))
        >>> grp.order, sorted(set(grp.apply(np.arange(grp.order), 0).tolist()))   # the corners
        (16, [0, 3, 12, 15, 16, 19, 28, 31])
        """
        return _move(self, g, squares, inverse=False)

    def unapply(self, g: np.ndarray | int, squares: np.ndarray | int) -> np.ndarray:
        """The squares that elements ``g`` map onto ``squares`` (the inverse of :meth:`apply`)."""
        return _move(self, g, squares, inverse=True)


def _move(
    grp: ShapeGroup, g: np.ndarray | int, squares: np.ndarray | int, inverse: bool
) -> np.ndarray:
    w, h, _ = grp.dims
    g, s = np.broadcast_arrays(np.asarray(g, dtype=np.int64), np.asarray(squares, dtype=np.int64))
    sizes = np.array(grp.dims, dtype=np.int64)
    c = np.stack((s % w, s // w % h, s // (w * h)), axis=-1)
    axes, flips, shifts = grp.axes[g], grp.flips[g], grp.shifts[g]
    if inverse:
        u = (c - shifts) % sizes
        u = np.where(flips, sizes - 1 - u, u)
        out = np.empty_like(u)
        np.put_along_axis(out, axes, u, axis=-1)
    else:
        out = np.take_along_axis(c, axes, axis=-1)
        out = np.where(flips, sizes - 1 - out, out)
        out = (out + shifts) % sizes
    return (out[..., 2] * h + out[..., 1]) * w + out[..., 0]


def _same_graph(table: np.ndarray, perm: np.ndarray) -> bool:
    """Whether ``perm`` (a permutation of the squares) maps the neighbour table onto itself:
    the neighbours of ``perm[s]`` are exactly the images of the neighbours of ``s``."""
    images = np.where(table >= 0, perm[np.maximum(table, 0)], -1)
    return bool((np.sort(images, axis=1) == np.sort(table[perm], axis=1)).all())


@lru_cache(maxsize=32)
def shape_group(board: Board) -> ShapeGroup:
    """The symmetries of ``board`` that the library divides out (see the module's notes).

    Candidates: each map of the box (axis permutations between sides of equal length, with
    reflections) and, on wrapped boards, each translation along the wrapped sides. A map is kept
    when it carries the hole-free board's neighbour table onto itself (so the leaper's moves, the
    wrap and the layers are kept; checked square by square, as are the unit translations, which
    generate the others) and the holes onto the holes: every element kept is proved a symmetry
    of the board.

    >>> shape_group(Board(8, 8, holes=["a1"])).order          # the a1-h8 diagonal only
    2
    >>> shape_group(Board(8, 8, wrap="cylinder")).order       # 4 reflections, 8 turns of files
    32
    >>> shape_group(Board(4, 4, depth=4)).order               # the cube's 48
    48
    >>> shape_group(Board(5, 3, leaper="zebra", wrap="torus")).order
    60
    """
    dims = (board.width, board.height, board.depth)
    area = board.area
    full = replace(board, holes=frozenset())
    table = full.neighbours
    squares = np.arange(area, dtype=np.int64)
    wrapped = [board.wrap is not None, board.wrap == "torus", False]
    holes = np.array(sorted(board.holes), dtype=np.int64)
    first = int(next(board.squares()))

    def unit(axis: int) -> ShapeGroup:
        shift = [[0, 0, 0]]
        shift[0][axis] = 1
        return ShapeGroup(dims, np.array([[0, 1, 2]]), np.zeros((1, 3), bool), np.array(shift), 0)

    translations_ok = all(
        _same_graph(table, unit(j).apply(0, squares)) for j in range(3) if wrapped[j]
    )
    shift_ranges = [
        range(dims[j]) if wrapped[j] and translations_ok else range(1) for j in range(3)
    ]
    axes_list, flips_list, shifts_list = [], [], []
    for perm in itertools.permutations(range(3)):
        # the sides must match; axes of length 1 stay put (moving them changes nothing)
        if any(dims[perm[j]] != dims[j] or (dims[j] == 1 and perm[j] != j) for j in range(3)):
            continue
        for flip in itertools.product((False, True), repeat=3):
            if any(f and dims[j] == 1 for j, f in enumerate(flip)):
                continue
            lin = ShapeGroup(
                dims, np.array([perm]), np.array([flip]), np.zeros((1, 3), np.int64), 0
            )
            if not _same_graph(table, lin.apply(0, squares)):
                continue
            moved = lin.apply(0, holes)
            for shift in itertools.product(*shift_ranges):
                if holes.size:
                    one = ShapeGroup(dims, lin.axes, lin.flips, np.array([shift]), 0)
                    image = one.apply(0, holes) if any(shift) else moved
                    if not np.array_equal(np.sort(image), holes):
                        continue
                axes_list.append(perm)
                flips_list.append(flip)
                shifts_list.append(shift)
    return ShapeGroup(
        dims,
        np.array(axes_list, dtype=np.int64),
        np.array(flips_list, dtype=bool),
        np.array(shifts_list, dtype=np.int64),
        first,
    )


def _move_bits(board: Board) -> int:
    """Bits a packed move of a shaped board takes: enough for a column of its neighbour table."""
    return max(1, (len(board.deltas3) - 1).bit_length())


def _shaped_canonical(board: Board, p: np.ndarray, closed: bool) -> tuple[np.ndarray, int]:
    """The canonical squares of tour ``p`` on a shaped board and its transform code.

    Candidates ``(g, d)`` are narrowed square by square to those whose image is least so far,
    so a big group (a torus's translations) costs one look at each element, not a whole image.
    """
    grp = shape_group(board)
    order, n = grp.order, p.size
    g = np.repeat(np.arange(order, dtype=np.int64), 2)
    d = np.tile(np.array([0, 1], dtype=np.int64), order)
    step = 1 - 2 * d
    if closed:
        pos = np.empty(board.area, dtype=np.int64)
        pos[p] = np.arange(n, dtype=np.int64)
        k = pos[grp.unapply(g, grp.first)]
    else:
        k = np.where(d == 0, 0, n - 1)
    cand = np.arange(g.size)
    for i in range(n):
        v = grp.apply(g[cand], p[(k[cand] + step[cand] * i) % n])
        cand = cand[v == v.min()]
        if cand.size == 1:
            break
    c = int(cand[0])  # of equal images, the first element
    seq = grp.apply(g[c], p[(k[c] + step[c] * np.arange(n)) % n])
    r = int(k[c]) if d[c] == 0 else n - 1 - int(k[c])
    return seq, int(g[c]) + order * int(d[c]) + 2 * order * r


def _shaped_apply_batch(board: Board, canon: np.ndarray, codes: np.ndarray) -> np.ndarray:
    grp = shape_group(board)
    order = grp.order
    codes = np.asarray(codes, dtype=np.int64)
    canon = np.asarray(canon, dtype=np.int64)
    n = canon.shape[1]
    g, d, r = codes % order, (codes // order) % 2, codes // (2 * order)
    if (codes < 0).any() or (r >= n).any():
        raise InvalidInputError(f"bad transform code for a {board.description} tour")
    idx = (np.arange(n, dtype=np.int64)[None, :] - r[:, None]) % n
    w = np.take_along_axis(canon, idx, axis=1)
    rev = d == 1
    if rev.any():
        w[rev] = w[rev, ::-1]
    return grp.unapply(g[:, None], w).astype(np.int32)


def _pack_shaped(board: Board, squares: np.ndarray) -> np.ndarray:
    """``(B, key_length)`` packed tours of a shaped board: the first square, then each move as
    its column in the neighbour table."""
    squares = np.asarray(squares, dtype=np.int64)
    rows, n = squares.shape
    hb, bits = header_bytes(board), _move_bits(board)
    out = np.zeros((rows, key_length(board)), dtype=np.uint8)
    for b in range(hb):
        out[:, b] = (squares[:, 0] >> (8 * b)) & 255
    if n > 1:
        hit = board.neighbours[squares[:, :-1]] == squares[:, 1:, None]
        if not hit.any(axis=2).all():
            raise InvalidInputError(f"cannot pack: a step is not a move of {board.description}")
        codes = hit.argmax(axis=2)
        flat = ((codes[..., None] >> np.arange(bits)) & 1).astype(np.uint8).reshape(rows, -1)
        packed = np.packbits(flat, axis=1, bitorder="little")
        out[:, hb : hb + packed.shape[1]] = packed
    return out


def _unpack_shaped(board: Board, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keys = np.asarray(keys, dtype=np.uint8)
    if keys.ndim != 2 or keys.shape[1] != key_length(board):
        raise InvalidInputError(f"a packed {board.description} tour has {key_length(board)} bytes")
    rows, n, area = keys.shape[0], board.size, board.area
    hb, bits = header_bytes(board), _move_bits(board)
    table = board.neighbours
    cur = np.zeros(rows, dtype=np.int64)
    for b in range(hb):
        cur |= keys[:, b].astype(np.int64) << (8 * b)
    ok = cur < area
    cur[~ok] = 0
    free = np.ones(area, dtype=bool)
    if board.holes:
        free[list(board.holes)] = False
    ok &= free[cur]
    squares = np.empty((rows, n), dtype=np.int32)
    squares[:, 0] = cur
    if n > 1:
        flat = np.unpackbits(keys[:, hb:], axis=1, bitorder="little")[:, : bits * (n - 1)]
        codes = (flat.reshape(rows, n - 1, bits).astype(np.int64) << np.arange(bits)).sum(axis=2)
        ok &= (codes < table.shape[1]).all(axis=1)
        codes = np.minimum(codes, table.shape[1] - 1)
        for i in range(n - 1):
            nxt = table[cur, codes[:, i]].astype(np.int64)
            ok &= nxt >= 0
            cur = np.maximum(nxt, 0)
            squares[:, i + 1] = cur
    squares[~ok] = np.flatnonzero(free)[:n]
    seen = np.zeros((rows, area), dtype=bool)
    seen[np.arange(rows)[:, None], squares] = True
    ok &= seen.sum(axis=1) == n
    return squares, ok


def _shaped_decode_batch(
    board: Board, keys: np.ndarray, codes: np.ndarray, closed: bool
) -> tuple[np.ndarray, np.ndarray]:
    canon, ok = _unpack_shaped(board, keys)
    codes = np.asarray(codes, dtype=np.int64)
    order, n = shape_group(board).order, board.size
    ok &= (codes >= 0) & (codes // (2 * order) < n)
    tours = _shaped_apply_batch(board, canon, np.where(ok, codes, 0))
    if closed and n > 1:
        ok &= (board.neighbours[tours[:, -1]] == tours[:, :1]).any(axis=1)
    return tours, ok
