"""Regenerate the pictures of ``docs/boards.md`` (``docs/boards/*.svg``) from code.

    .venv/bin/python tools/make_board_pictures.py

Each picture is a tour that ``kt.solve`` finds with a fixed method (the exact search, whose
answer depends on nothing random) on one of the boards the page describes, drawn by
:func:`knightstour.render.svg.tour_svg`. ``tests/test_render_shapes.py`` draws them again and
checks that the files are exactly what this script writes, so a change to the solver or the
pictures that alters one of them asks for this script to be run again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import knightstour as kt
from knightstour.render.svg import tour_svg

#: Where the pictures go.
FOLDER = Path(__file__).resolve().parents[1] / "docs" / "boards"
#: Each picture: file name -> (board, start square, closed, method).
PICTURES: dict[str, tuple[kt.Board, str, bool, str]] = {
    "holes.svg": (kt.Board(8, 8, holes=["d4", "d5", "e4", "e5"]), "a1", True, "warnsdorff"),
    "torus.svg": (kt.Board(6, 6, wrap="torus"), "a1", True, "backtrack"),
    "layers.svg": (kt.Board(4, 4, depth=3), "a1:1", False, "backtrack"),
    "wrapped-layers.svg": (kt.Board(4, 4, depth=3, wrap="cylinder"), "a1:1", True, "backtrack"),
}
#: The pictures' longest side, in pixels.
SIZE = 480


def pictures() -> dict[str, str]:
    """Each picture's file name and SVG text, as the docs hold them."""
    out = {}
    for name, (board, start, closed, method) in PICTURES.items():
        tour = kt.solve(board, start=start, closed=closed, method=method)
        out[name] = tour_svg(tour, size=SIZE)
    return out


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name, svg in pictures().items():
        (FOLDER / name).write_text(svg)
        print(f"wrote {FOLDER / name}", file=sys.stderr)


if __name__ == "__main__":
    main()
