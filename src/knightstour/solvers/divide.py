"""Divide and conquer: tours on boards of any size in linear time, from small base tours.

The board is cut into blocks whose tours are stored data (``data/divide_tours.npz``, made by
``tools/make_divide_data.py`` and checked by ``tests/test_divide.py``); the block tours are then
joined into one tour by exchanging a few moves where blocks meet. The idea is Parberry's (1997) and
Lin & Wei's (2005): a *structured* tour of a block contains fixed moves near its corners, and two
neighbouring blocks' tours become one tour by removing one such move from each and adding the two
knight's moves that cross between them.

>>> import knightstour as kt
>>> t = kt.solve("12x10", start="c3", closed=True, method="divide")
>>> t.closed, len(t), t.start
(True, 120, 'c3')
>>> kt.solve("4x31", start="a5", method="divide").start
'a5'

Boards with both sides at least 5 (:func:`grid_plan`): columns and rows are cut into widths of
5 to 11, every block with a closed tour except, on an odd × odd board, the one block where the
odd column meets the odd row, which holds an open tour from the start square; both are chosen to
contain the start. Blocks in a row are joined left to right (move BR of the left block with BLH of
the right one), and the blocks of the first column bottom to top (TL with BLV): a spanning tree,
so the cycles and the path merge into one.

Boards 3 or 4 wide (:func:`thin_plan`) have no closed tours to join (4 × n none at all), so they
are built from *lanes*: the start block holds the start and sends the tour out to the left and to
the right, where it runs to the end of the board and back along two lanes (three on one side of a
4 × n board, where a tour keeps its single inner-to-inner move for one far end: Schwenk's
colouring argument). Lane blocks hold one path per lane; a cut between blocks is crossed by one
knight's move per lane, always at the same squares. Short thin boards are stored whole, with
every start square either toured or proved to have none.

Memory: the tour is assembled as a successor array (int32 per square) by compiled code and then
walked into the path (int32 per square): 8 bytes a square at the peak.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from knightstour.board import Board
from knightstour.errors import KnightsTourError, NoTourError, SearchFailedError

__all__ = ["GRID_SIZES", "SMALL_THIN", "THIN", "divide", "grid_edges", "thin_jumps"]

#: Block sides of the grid construction.
GRID_SIZES = (5, 6, 7, 8, 9, 10, 11)
_EVEN = (6, 8, 10)
_ODD = (5, 7, 9, 11)


def grid_edges(w: int, h: int) -> dict[str, tuple[int, int]]:
    """The four join moves of a ``w`` × ``h`` grid block, as local square pairs ``(a1, a2)``.

    ``BR`` (bottom right) meets ``BLH`` of the block to the right, ``TL`` (top left) meets ``BLV``
    of the block above: ``a1`` of one is a knight's move from ``a1`` of the other, and so are the
    ``a2``.

    >>> grid_edges(6, 5)
    {'BR': (5, 16), 'BLH': (7, 18), 'TL': (24, 20), 'BLV': (7, 3)}
    """
    return {
        "BR": (w - 1, 2 * w + w - 2),
        "BLH": (w + 1, 3 * w),
        "TL": ((h - 1) * w, (h - 2) * w + 2),
        "BLV": (w + 1, 3),
    }


# Thin boards. A cut between two lane blocks is crossed by one knight's move per lane, from
# square p of the block nearer the start block (x < 0: counted from its far side) to square q of
# the block beyond it (x >= 0), or back. "out" lanes run away from the start block.
THIN: dict[int, dict] = {
    3: {
        "lanes": {"out": ((-2, 1), (0, 0)), "back": ((-1, 0), (1, 1))},
        "blocks": {"I2": (4, 6, 8), "E2": (7, 9), "H": (7, 9)},
        "starts": {"both": tuple(range(3, 12)), "left": tuple(range(3, 12)),
                   "right": tuple(range(3, 12))},
    },
    4: {
        "lanes": {"out": ((-1, 1), (0, 3)), "back": ((-1, 2), (0, 0))},
        "lanes3": {"out1": ((-1, 0), (0, 2)), "back1": ((-1, 1), (1, 0)),
                   "out2": ((-1, 3), (0, 1))},
        "blocks": {"I2": (4, 6, 8), "E2": (5, 6, 7, 8, 9, 10), "I3": (4, 6, 8),
                   "E3": (5, 6, 7, 8)},
        "starts": {"mid": tuple(range(3, 10)), "left2": tuple(range(3, 11)),
                   "right2": tuple(range(3, 11)), "left3": tuple(range(3, 11)),
                   "right3": tuple(range(3, 11))},
    },
}

#: Thin boards stored whole (rows x widths), every start square settled.
SMALL_THIN: dict[int, tuple[int, ...]] = {3: (4, 7, 8, 9, 10, 11, 12, 13), 4: tuple(range(5, 13))}


def _far(k: int, p: tuple[int, int]) -> int:
    return p[1] * k + k + p[0]


def _near(k: int, q: tuple[int, int]) -> int:
    return q[1] * k + q[0]


def _mirror(k: int, p: tuple[int, int]) -> int:
    return p[1] * k - 1 - p[0]


def thin_jumps(h: int, kind: str, k: int, s: int | None = None) -> tuple[int, int, list]:
    """``(start, end, jumps)`` of the cover that block ``kind`` of width ``k`` must have.

    The cover is one path through the block with *jumps* (pairs of squares it leaves by a lane
    and re-enters by the next), from ``start`` to ``end`` (-1: anywhere). Start blocks (``s``
    given) begin at ``s``. Raises ``ValueError`` when the ports collide or ``s`` is a port that
    cannot start the cover.
    """
    spec = THIN[h]
    lo, lb = spec["lanes"]["out"], spec["lanes"]["back"]
    l3 = spec.get("lanes3", {})
    if kind == "I2":
        start, end, jumps = _near(k, lo[1]), _near(k, lb[1]), [(_far(k, lo[0]), _far(k, lb[0]))]
    elif kind == "E2":
        start, end, jumps = _near(k, lo[1]), _near(k, lb[1]), []
    elif kind == "H":
        start, end, jumps = _far(k, lb[0]), _far(k, lo[0]), []
    elif kind == "I3":
        o1, b1, o2 = l3["out1"], l3["back1"], l3["out2"]
        start, end = _near(k, o1[1]), _far(k, o2[0])
        jumps = [(_far(k, o1[0]), _far(k, b1[0])), (_near(k, b1[1]), _near(k, o2[1]))]
    elif kind == "E3":
        o1, b1, o2 = l3["out1"], l3["back1"], l3["out2"]
        start, end, jumps = _near(k, o1[1]), -1, [(_near(k, b1[1]), _near(k, o2[1]))]
    else:
        if s is None:
            raise ValueError(f"start block {kind} needs a start square")
        start = s
        left2 = (_mirror(k, lo[0]), _mirror(k, lb[0]))
        right2 = (_far(k, lo[0]), _far(k, lb[0]))
        if kind in ("left", "left2"):
            end, jumps = -1, [left2]
        elif kind in ("right", "right2"):
            end, jumps = -1, [right2]
        elif kind == "both":
            end, jumps = -1, [left2, right2]
        else:
            o1, b1, o2 = l3["out1"], l3["back1"], l3["out2"]
            side = _far if kind == "right3" else _mirror
            three = [(side(k, o1[0]), side(k, b1[0]))]
            end = side(k, o2[0])
            if kind == "mid":
                jumps = [(_mirror(k, o1[0]), _mirror(k, b1[0])), right2]
                end = _mirror(k, o2[0])
            elif kind in ("left3", "right3"):
                jumps = three
            else:
                raise ValueError(f"unknown block kind {kind!r}")
    ports = [p for j in jumps for p in j] + ([end] if end >= 0 else [])
    if len(set(ports)) != len(ports) or min(ports, default=0) < 0 or max(ports, default=0) >= h * k:
        raise ValueError(f"the ports of {kind} collide on a block {k} wide")
    if s is not None and s in ports and s != (jumps[0][0] if jumps else end):
        raise ValueError(f"start {s} is a port of {kind}")
    if s is None and start in ports:
        raise ValueError(f"the ports of {kind} collide on a block {k} wide")
    return start, end, jumps


def divide(board, start=None, **kwargs):  # replaced below
    raise NotImplementedError
