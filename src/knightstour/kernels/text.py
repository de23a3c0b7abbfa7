"""Compiled text of huge tours: the board of move numbers and the move list, a chunk at a time.

Plain Python in the subset that Numba compiles, loaded through
:func:`knightstour.kernels.jit.load`, by :func:`knightstour.notation.text_makers` for
:func:`knightstour.notation.board_chunks` and :func:`~knightstour.notation.moves_chunks`,
which make the same bytes with vectorised NumPy for smaller tours (``tests/test_bulk_text.py``
holds both to the line writers).

>>> import numpy as np
>>> out = np.zeros(64, dtype=np.uint8)
>>> n = board_band(np.array([1, 12, 3, 0, -1, 10]), 3, 2, out)
>>> bytes(out[:n]).decode()
' 1 12  3\\n.. ## 10\\n'
>>> n = move_names(np.array([0, 29, 59]), 30, 2, 1, 2, 0, True, out)
>>> bytes(out[:n]).decode()
'a1 ad1\\nad2\\n'
"""

from __future__ import annotations

import numpy as np

__kernels__ = ("board_band", "move_names", "put_digits")


def board_band(band: np.ndarray, width: int, cw: int, out: np.ndarray) -> int:
    """Ranks of move numbers (``band``: ``width`` values a rank; 0 unvisited, -1 a hole) as
    text, ``cw`` characters a number right-aligned, a space between, a newline after each rank;
    returns the bytes written into ``out`` (``len(band) * (cw + 1)``)."""
    p = 0
    for i in range(band.size):
        v = band[i]
        if v <= 0:
            c = 46 if v == 0 else 35  # '.' or '#'
            for k in range(cw):
                out[p + k] = c
        else:
            k = cw - 1
            while v > 0:
                out[p + k] = 48 + v % 10
                v //= 10
                k -= 1
            while k >= 0:
                out[p + k] = 32
                k -= 1
        p += cw
        out[p] = 10 if (i + 1) % width == 0 else 32
        p += 1
    return p


def move_names(
    seq: np.ndarray,
    width: int,
    fw: int,
    rw: int,
    per_line: int,
    first: int,
    last: bool,
    out: np.ndarray,
) -> int:
    """Algebraic names of squares ``seq`` (file letters, rank number), ``per_line`` a line; the
    chunk begins with the name numbered ``first`` of the whole list, and ``last`` says it ends
    it (a newline after its last name). Returns the bytes written into ``out`` (at most
    ``len(seq) * (fw + rw + 1)``)."""
    p = 0
    buf = np.empty(max(fw, rw), dtype=np.uint8)
    inv = 1.0 / width
    for i in range(seq.size):
        s = np.int64(seq[i])
        y = np.int64(s * inv)  # the rank without a division, corrected by one if need be
        if y * width > s:
            y -= 1
        elif (y + 1) * width <= s:
            y += 1
        x = s - y * width
        p = put_digits(x + 1, 26, 97, 1, buf, out, p)  # the file: a, b, ..., z, aa, ab, ...
        p = put_digits(y + 1, 10, 48, 0, buf, out, p)  # the rank
        out[p] = 10 if (first + i + 1) % per_line == 0 or (last and i == seq.size - 1) else 32
        p += 1
    return p


def put_digits(
    v: np.int64, base: int, zero: int, shift: int, buf: np.ndarray, out: np.ndarray, p: int
) -> int:
    """Write ``v`` (at least 1) into ``out`` at ``p`` in ``base``, the digit d as the byte
    ``zero + d``; ``shift`` 1 makes the numbering bijective, as files are named (1 is ``a``,
    27 is ``aa``), 0 plain. ``buf`` holds the digits meanwhile. Returns where the next byte
    goes."""
    k = 0
    while v > 0:
        v -= shift
        buf[k] = zero + v % base
        v //= base
        k += 1
    while k > 0:
        k -= 1
        out[p] = buf[k]
        p += 1
    return p
