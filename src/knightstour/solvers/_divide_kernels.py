"""Compiled loops of the divide method (Numba), imported only for large boards."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def follow(nxt: np.ndarray, start: int, out: np.ndarray) -> int:
    """Walk the successor array ``nxt`` from ``start`` into ``out``; the squares written.

    Stops after ``out.size`` squares or at a square whose successor is off the board (-1).
    """
    n = out.size
    p = start
    out[0] = p
    count = 1
    while count < n:
        p = nxt[p]
        if p < 0 or p >= n:
            break
        out[count] = p
        count += 1
    return count


@njit(cache=True, nogil=True)
def fill(nxt: np.ndarray, origins: np.ndarray, src: np.ndarray, dst: np.ndarray) -> None:
    """``nxt[o + src[t]] = o + dst[t]`` for every block origin ``o``."""
    m = src.size
    for i in range(origins.size):
        o = origins[i]
        for t in range(m):
            nxt[o + src[t]] = o + dst[t]
