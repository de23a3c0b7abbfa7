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
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from knightstour.board import Board, symmetries
from knightstour.errors import InvalidInputError

__all__ = [
    "apply_transform",
    "canonical_form",
    "header_bytes",
    "key_length",
    "pack",
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
    """The board, if the library can hold its tours: a plain knight on a rectangle."""
    if not board.is_plain_knight:
        raise InvalidInputError("the tour library holds knight's tours on plain rectangular boards")
    return board


def header_bytes(board: Board) -> int:
    """Bytes for the first square of a packed tour: enough for any square index of ``board``.

    >>> header_bytes(Board(8, 8)), header_bytes(Board(16, 16)), header_bytes(Board(17, 16))
    (1, 1, 2)
    """
    return max(1, ((board.area - 1).bit_length() + 7) // 8)


def key_length(board: Board) -> int:
    """The length of a packed tour on ``board``: 25 bytes on 8 × 8.

    >>> key_length(Board(8, 8)), key_length(Board(5, 5))
    (25, 10)
    """
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

    The plain NumPy reference; :mod:`knightstour.library._kernels` computes the same for batches.
    The tour is assumed valid (validate it first).
    """
    check_board(board)
    p = np.asarray(indices, dtype=np.int64)
    best, code = min(_variants(board, p, closed), key=lambda v: v[0])  # first of equals
    return pack(board, np.array(best, dtype=np.int64)), code


def apply_transform(board: Board, canon: np.ndarray, code: int) -> np.ndarray:
    """The tour that transform ``code`` names, from its canonical squares ``canon``."""
    return _apply_batch(board, np.asarray(canon, dtype=np.int64)[None, :], np.array([code]))[0]


def _apply_batch(board: Board, canon: np.ndarray, codes: np.ndarray) -> np.ndarray:
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


def decode_batch(
    board: Board, keys: np.ndarray, codes: np.ndarray, closed: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``(tours, ok)``: the stored tours from their packed canonical forms and transform codes,
    validated (``ok`` False for a damaged row)."""
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
