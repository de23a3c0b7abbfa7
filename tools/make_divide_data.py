"""Regenerate ``src/knightstour/data/divide_tours.npz``: the base tours of the divide method.

    .venv/bin/python tools/make_divide_data.py          # about ten minutes on two cores

Every tour in the file was found by the depth-first search of ``tools/tour_search.py`` (Warnsdorff
ordering, random ties from a fixed seed sequence, forced edges and jumps), on the block named by its
key, under the constraints written next to each kind below. ``tests/test_divide.py`` checks every
one of them again, independently, so the file can be trusted without trusting this script.

Kinds (square indices are local: ``y * width + x`` in the block; int8, -1 where absent):

``grid_closed/WxH``  closed tour of a W x H block (W, H in 5..11, not both odd) containing the four
                     join moves of :mod:`knightstour.solvers.divide` (BR, BLH, TL, BLV).
``grid_path/WxH/V``  W, H odd: one row per start square, an open tour from it (rows of squares
                     of the other colour are -1). V=0 contains BR, TL, BLV (a block of the first
                     column); V=1 contains BLH, BR (any other block).
``thinH/...``        blocks of the thin boards (H = 3 or 4 rows), see ``THIN`` in divide.py:
                     I2/k, E2/k, H/k (3 rows), I3/k, E3/k (4 rows): lane blocks, one sequence each
                     (the lanes in order, joined by jumps); M/TYPE/k: start blocks, one row per
                     start square.
``small/WxH``        whole thin boards too short to divide (3 or 4 rows): one row per start square;
``small_status/WxH`` 1 a tour is stored, 0 exhaustive search proved none, -1 excluded by theory
                     (colour parity or the 4 x n outer-line rule) and not searched.
``small_closed/WxH`` a closed tour of the thin board 3 x 10 and 3 x 12.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from tour_search import search, solve_retrying  # noqa: E402

from knightstour.solvers.divide import (  # noqa: E402
    GRID_SIZES,
    SMALL_THIN,
    THIN,
    grid_edges,
    thin_jumps,
)

OUT = HERE.parent / "src" / "knightstour" / "data" / "divide_tours.npz"


def _row(path: np.ndarray | None, n: int) -> np.ndarray:
    if path is None:
        return np.full(n, -1, dtype=np.int8)
    return np.asarray(path, dtype=np.int8)


def grid(data: dict[str, np.ndarray]) -> None:
    for w in GRID_SIZES:
        for h in GRID_SIZES:
            n = w * h
            if w % 2 == 0 or h % 2 == 0:
                e = grid_edges(w, h)
                forced = [e["BR"], e["BLH"], e["TL"], e["BLV"]]
                # (1,1) lies on BLH and BLV: start there, end at (3,0) closes through BLV
                st, p = solve_retrying(w, h, 1 * w + 1, end=3, closed=True, forced=forced, tries=60)
                assert st == 1, (w, h)
                data[f"grid_closed/{w}x{h}"] = _row(p, n)
                continue
            e = grid_edges(w, h)
            for v, names in ((0, ("BR", "TL", "BLV")), (1, ("BLH", "BR"))):
                rows = np.full((n, n), -1, dtype=np.int8)
                for s in range(n):
                    if (s % w + s // w) % 2:
                        continue
                    st, p = solve_retrying(w, h, s, forced=[e[k] for k in names], tries=60)
                    assert st == 1, (w, h, v, s)
                    rows[s] = p
                data[f"grid_path/{w}x{h}/{v}"] = rows
            print(f"  grid {w}x{h}", flush=True)


def thin(data: dict[str, np.ndarray]) -> None:
    for h, spec in THIN.items():
        for kind, widths in spec["blocks"].items():
            for k in widths:
                start, end, jumps = thin_jumps(h, kind, k)
                st, p = solve_retrying(k, h, start, end=end, jumps=jumps, tries=60)
                assert st == 1, (h, kind, k)
                data[f"thin{h}/{kind}/{k}"] = _row(p, h * k)
        for mtype, widths in spec["starts"].items():
            for k in widths:
                n = h * k
                rows = np.full((n, n), -1, dtype=np.int8)
                for s in range(n):
                    if h == 4 and s // k not in (0, 3):
                        continue
                    try:
                        start, end, jumps = thin_jumps(h, mtype, k, s)
                    except ValueError:  # s is a port that cannot start this cover
                        continue
                    st, p = solve_retrying(k, h, start, end=end, jumps=jumps, tries=8, limit=60_000)
                    if st == 1:
                        rows[s] = p
                data[f"thin{h}/M/{mtype}/{k}"] = rows
                print(f"  thin{h} M {mtype} {k}: {int((rows[:, 0] >= 0).sum())} starts", flush=True)


def small(data: dict[str, np.ndarray]) -> None:
    for h, widths in SMALL_THIN.items():
        for w in widths:
            n = w * h
            rows = np.full((n, n), -1, dtype=np.int8)
            status = np.full(n, -1, dtype=np.int8)
            for s in range(n):
                x, y = s % w, s // w
                if n % 2 and (x + y) % 2:
                    continue  # colour parity
                if h == 4 and y not in (0, 3):
                    continue  # the outer-line rule
                st, p = solve_retrying(w, h, s, tries=20)
                if st == -1:
                    st, p = search(w, h, s, limit=10**11)  # settle it exhaustively
                assert st >= 0, (w, h, s)
                status[s] = st
                if st == 1:
                    rows[s] = p
            data[f"small/{w}x{h}"] = rows
            data[f"small_status/{w}x{h}"] = status
            print(
                f"  small {w}x{h}: {int((status == 1).sum())} starts, "
                f"{int((status == 0).sum())} proved none",
                flush=True,
            )
            if h == 3 and w in (10, 12):
                st, p = solve_retrying(w, h, 0, end=2 * w + 1, closed=True, tries=60)
                assert st == 1
                data[f"small_closed/{w}x{h}"] = _row(p, n)


def main() -> None:
    t0 = time.time()
    data: dict[str, np.ndarray] = {}
    grid(data)
    thin(data)
    small(data)
    np.savez_compressed(OUT, **data)
    print(
        f"wrote {OUT} ({OUT.stat().st_size:,} bytes, {len(data)} arrays) in {time.time() - t0:.0f} s"
    )


if __name__ == "__main__":
    main()
