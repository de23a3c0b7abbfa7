"""Pictures of wrapped and 3-D boards: moves across a seam are split lines ending on the board's
edges, the layers of a 3-D board stand side by side, and flat boards draw as before."""

from __future__ import annotations

import io
import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from tests.test_render import NS, by_class, parse

import knightstour as kt
from knightstour.board import Board
from knightstour.render import style
from knightstour.render.raster import board_image, tour_image, write_gif
from knightstour.render.svg import board_svg, tour_svg
from knightstour.tour import PartialTour


def subpaths(d: str) -> list[list[tuple[float, float]]]:
    """The polylines of ``M x yL x y...`` path data."""
    return [[tuple(map(float, p.split())) for p in part.split("L")] for part in d.split("M")[1:]]


def board_box(root: ET.Element) -> tuple[float, float, float, float]:
    (border,) = by_class(root, "rect", "border")
    x, y = float(border.get("x")), float(border.get("y"))
    return x, y, x + float(border.get("width")), y + float(border.get("height"))


def on_edge(p: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y = p
    x0, y0, x1, y1 = box
    inside = x0 - 1e-6 <= x <= x1 + 1e-6 and y0 - 1e-6 <= y <= y1 + 1e-6
    return inside and min(abs(x - x0), abs(x - x1), abs(y - y0), abs(y - y1)) < 0.011


def is_centre(p: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    """On a square's centre: 5 units (half a square) past a multiple of 10 from the corner."""
    return all(abs((v - o) % 10 - 5) < 1e-6 for v, o in zip(p, box[:2], strict=True))


@pytest.fixture(scope="module")
def torus() -> kt.Tour:
    return kt.solve(Board(6, 6, wrap="torus"), closed=True)


@pytest.fixture(scope="module")
def cube() -> kt.Tour:
    return kt.solve(Board(4, 4, depth=4), start=0)


# -- wrapped boards -----------------------------------------------------------------------------


def seam_moves(tour: kt.Tour) -> list[int]:
    """1-based numbers of the moves whose straight line is no leaper move."""
    b = tour.board
    legs = sorted(b.leaper)
    out = []
    for k, (a, c) in enumerate(itertools.pairwise(tour.indices.tolist()), 1):
        (ax, ay), (cx, cy) = b.xy(a), b.xy(c)
        if sorted((abs(ax - cx), abs(ay - cy))) != legs:
            out.append(k)
    return out


@pytest.mark.parametrize("animated", [False, True])
def test_torus_moves_across_a_seam_are_split_lines(torus: kt.Tour, animated: bool) -> None:
    root = parse(tour_svg(torus, animated=animated))
    box = board_box(root)
    seams = by_class(root, "path", "seam")
    expected = seam_moves(torus)
    assert expected, "a torus tour crosses its seams"
    assert [int(p.get("data-moves").split("-")[0]) for p in seams] == expected
    (group,) = by_class(root, "g", "path")
    drawn = 0
    for el in group:
        first, last = map(int, el.get("data-moves").split("-"))
        if el.tag == f"{NS}path":
            parts = subpaths(el.get("d"))
            assert first == last and len(parts) in (2, 3)
            # From the move's first square out to the edge, pieces from edge to edge, and in
            # from the opposite edge to its last square.
            assert is_centre(parts[0][0], box) and is_centre(parts[-1][-1], box)
            ends = [p for part in parts for p in part][1:-1]
            assert all(on_edge(p, box) for p in ends)
            # The pieces add up to one move's length: sqrt(1 + 4) squares.
            length = sum(np.hypot(q[0] - p[0], q[1] - p[1]) for p, q in parts)
            assert length == pytest.approx(10 * np.sqrt(5), abs=0.05)
        else:
            pts = el.get("points").split()
            assert len(pts) == last - first + 2
        drawn += last - first + 1
        assert el.get("stroke")
    assert drawn == len(torus) - 1
    # The closing move, across a seam or not, is drawn once.
    assert len(by_class(root, "line", "closing") + by_class(root, "path", "closing")) == 1
    if animated:
        css = root.find(f"{NS}style").text
        assert css.count("@keyframes") == len(list(group)) + 1
        assert ".path .seam" in css


def test_closing_move_across_a_seam_is_split(torus: kt.Tour) -> None:
    # The same cycle, begun just after a move across a seam: that move closes it.
    k = seam_moves(torus)[0]
    squares = torus.indices.tolist()
    tour = kt.Tour(torus.board, squares[k:] + squares[:k], closed=True)
    assert not _straight(tour)
    root = parse(tour_svg(tour))
    box = board_box(root)
    assert not by_class(root, "line", "closing")
    (closing,) = by_class(root, "path", "closing")
    parts = subpaths(closing.get("d"))
    assert len(parts) >= 2 and closing.get("stroke-dasharray")
    assert is_centre(parts[0][0], box) and is_centre(parts[-1][-1], box)
    assert all(on_edge(p, box) for p in [p for part in parts for p in part][1:-1])
    assert tour_image(tour, size=200).size == (200, 200)


def _straight(tour: kt.Tour) -> bool:
    b = tour.board
    (ax, ay), (cx, cy) = b.xy(int(tour.indices[-1])), b.xy(int(tour.indices[0]))
    return sorted((abs(ax - cx), abs(ay - cy))) == sorted(b.leaper)


def test_cylinder_seams_cross_the_sides_only() -> None:
    tour = kt.solve(Board(5, 5, wrap="cylinder"), start=0)
    root = parse(tour_svg(tour))
    x0, _y0, x1, _y1 = board_box(root)
    seams = by_class(root, "path", "seam")
    assert len(seams) == len(seam_moves(tour)) > 0
    for el in seams:
        parts = subpaths(el.get("d"))
        assert len(parts) == 2
        assert {parts[0][1][0], parts[1][0][0]} == {x0, x1}  # out one side, in the other


def test_style_move_pieces() -> None:
    b = Board(6, 6, wrap="torus")
    # a1 to e6 (dx -2 round the left edge, dy -1 round the bottom): three pieces.
    pieces = style.move_pieces(b, 0, b.parse_square("e6"))
    assert len(pieces) == 3 and pieces[0][0] == (0.5, 5.5) and pieces[-1][1] == (4.5, 0.5)
    assert style.move_pieces(Board(6, 6), 0, 13) is None
    assert style.move_pieces(Board(4, 4, depth=4), 0, 21) is None


def test_wrapped_png_and_gif(torus: kt.Tour) -> None:
    img = tour_image(torus, size=300)
    assert img.size == (300, 300)
    plain = np.asarray(board_image(torus.board, size=300)).astype(int)
    changed = np.abs(np.asarray(img).astype(int) - plain).sum(axis=2) > 60
    # The split line of a seam move is drawn up to the board's edge: near the end of its
    # first piece (centre to edge), the path's ink.
    lay = style.layout(6, 6, 300)
    for k in seam_moves(torus):
        pieces = style.move_pieces(torus.board, int(torus.indices[k - 1]), int(torus.indices[k]))
        (ax, ay), (bx, by) = map(lay.point, pieces[0])
        x, y = ax + 0.9 * (bx - ax), ay + 0.9 * (by - ay)
        assert changed[round(y) - 1 : round(y) + 2, round(x) - 1 : round(x) + 2].any()
    buf = io.BytesIO()
    assert write_gif(torus, buf, size=200) == 36
    gif = Image.open(buf)
    assert gif.n_frames == 36 and gif.size == (200, 200)


# -- 3-D boards ---------------------------------------------------------------------------------


def test_cube_svg_is_four_layers_wide(cube: kt.Tour) -> None:
    # Without labels, the picture is the layers and a thin margin: 19 squares by 4.
    bare = parse(tour_svg(cube, coordinates=False))
    w, h = float(bare.get("width")), float(bare.get("height"))
    assert w / h == pytest.approx((4 * 4 + 3) / 4, rel=0.05)
    root = parse(tour_svg(cube, numbers=True))
    assert float(root.get("width")) / float(root.get("height")) > 3.5  # labels below and left
    borders = by_class(root, "rect", "border")
    assert len(borders) == 4
    xs = sorted(float(b.get("x")) for b in borders)
    assert all(b - a == pytest.approx(50) for a, b in itertools.pairwise(xs))  # 4 squares + 1
    # The layers span 19 squares (10 units each) across, 4 down.
    assert xs[-1] + float(borders[-1].get("width")) - xs[0] == 190
    assert {float(b.get("height")) for b in borders} == {40}
    assert [t.text for t in by_class(root, "text", "file")] == list("abcd") * 4
    assert {t.text for t in by_class(root, "text", "n")} == {str(k) for k in range(1, 65)}
    # Every square's centre is in its layer: move k's end is square indices[k].
    pts = [p for line in root.iter(f"{NS}polyline") for p in line.get("points").split()]
    first = tuple(map(float, pts[0].split(",")))
    assert first == (xs[0] + 5, float(borders[0].get("y")) + 35)  # a1 of layer 1
    top = float(borders[0].get("y"))
    for k, s in enumerate(cube.indices.tolist()):
        x, y, z = cube.board.xyz(s)
        # The polylines share their joining squares: drop the repeats.
        assert (
            pts[k + _joins_before(root, k)] == f"{xs[z] + 10 * x + 5:g},{top + 10 * (3 - y) + 5:g}"
        )


def _joins_before(root: ET.Element, k: int) -> int:
    n = 0
    for line in root.iter(f"{NS}polyline"):
        first = int(line.get("data-moves").split("-")[0])
        if first <= k and first > 1:
            n += 1
    return n


def test_cube_png_is_four_layers_wide(cube: kt.Tour, tmp_path) -> None:
    img = tour_image(cube, size=760)
    assert max(img.size) == 760 == img.width
    bare = tour_image(cube, size=760, coordinates=False)
    assert bare.width / bare.height == pytest.approx((4 * 4 + 3) / 4, rel=0.05)
    # The layers' a1 squares: dark, light, dark, light (a1 is dark; colours alternate by layer).
    empty = board_image(cube.board, size=760)
    lay = style.layout(4, 4, 760, depth=4)
    c = style.colors()
    a1s = [empty.getpixel(tuple(map(round, lay.centre(16 * z)))) for z in range(4)]
    dark, light = style.hex_rgb(c["dark"]), style.hex_rgb(c["light"])
    assert a1s == [dark, light, dark, light]
    gap = empty.getpixel((round(lay.layer_left(1) - lay.square / 2), round(lay.centre(0)[1])))
    assert gap == style.hex_rgb(c["background"])
    buf = io.BytesIO()
    assert write_gif(cube, buf, size=400) == 64
    gif = Image.open(buf)
    assert gif.width == 400 and 3.0 < gif.width / gif.height < 4.75  # labels and layer titles


def test_cube_with_holes_and_partial_path() -> None:
    board = Board(3, 3, depth=3, holes=[13])
    svg = board_svg(board)
    assert len(by_class(parse(svg), "path", "holes")) == 1
    partial = PartialTour(board, [0, 5, 6])
    root = parse(tour_svg(partial))
    (tint,) = by_class(root, "path", "unvisited")
    # 26 squares are neither holes nor visited: 3 of layer 1's 9 are visited.
    runs = re.findall(r"h(\d+)", tint.get("d"))
    assert sum(int(n) for n in runs) // 10 == 27 - 1 - 3
    assert tour_image(partial, size=300).width == 300


def test_wrapped_3d_boards_draw_each_seam_move_into_its_layers() -> None:
    """On a wrapped 3-D board a move across a seam leaves its layer at the edge and comes into
    the other layer from the opposite edge: the first piece ends on an edge of the layer it
    starts from, the last starts on an edge of the layer it ends in."""
    board = Board(4, 4, depth=3, wrap="torus")
    tour = kt.solve(board, start=0)
    root = parse(tour_svg(tour))
    borders = by_class(root, "rect", "border")
    assert len(borders) == 3
    boxes = [
        (x, y, x + float(b.get("width")), y + float(b.get("height")))
        for b in borders
        for x, y in [(float(b.get("x")), float(b.get("y")))]
    ]
    seams = by_class(root, "path", "seam")
    assert seams
    idx = tour.indices.tolist()
    for el in seams:
        k = int(el.get("data-moves").split("-")[0])
        a, b = idx[k - 1], idx[k]
        pieces = subpaths(el.get("d"))
        za, zb = a // 16, b // 16
        assert is_centre(pieces[0][0], boxes[za]) and on_edge(pieces[0][-1], boxes[za])
        assert on_edge(pieces[-1][0], boxes[zb]) and is_centre(pieces[-1][-1], boxes[zb])
    assert board_image(board).width > 0 and tour_image(tour, size=300).width == 300


def test_3d_pictures_title_their_layers(cube: kt.Tour) -> None:
    root = parse(tour_svg(cube))
    titles = by_class(root, "text", "layer")
    assert [t.text for t in titles] == ["layer 1", "layer 2", "layer 3", "layer 4"]
    borders = by_class(root, "rect", "border")
    for title, border in zip(titles, borders, strict=True):
        x0, w = float(border.get("x")), float(border.get("width"))
        assert abs(float(title.get("x")) - (x0 + w / 2)) < 0.01  # centred over its layer
        assert float(title.get("y")) < float(border.get("y"))  # above it
    assert not by_class(parse(tour_svg(cube, coordinates=False)), "text", "layer")
    flat = parse(tour_svg(kt.solve("5x5", start="a1")))
    assert not by_class(flat, "text", "layer")


def test_the_pictures_of_docs_boards_are_what_the_code_draws() -> None:
    """docs/boards/*.svg are written by tools/make_board_pictures.py; run it after a change."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "tools" / "make_board_pictures.py"
    spec = importlib.util.spec_from_file_location("make_board_pictures", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    drawn = module.pictures()
    assert sorted(drawn) == sorted(p.name for p in module.FOLDER.glob("*.svg"))
    for name, svg in drawn.items():
        assert (module.FOLDER / name).read_text() == svg, (
            f"docs/boards/{name} is stale: run .venv/bin/python tools/make_board_pictures.py"
        )
    docs = (module.FOLDER.parent / "boards.md").read_text()
    assert all(f"boards/{name}" in docs for name in drawn)


# -- flat boards: as before ---------------------------------------------------------------------


def test_flat_boards_draw_as_before() -> None:
    """The layout of a flat board is the one of tests/test_render.py's checks: one layer, and
    square centres where the plain formula puts them; no seam paths."""
    tour = kt.solve("8x8", start="a1", closed=True)
    root = parse(tour_svg(tour, size=400))
    assert root.get("width") == root.get("height") == "400"
    assert not by_class(root, "path", "seam") and len(by_class(root, "line", "closing")) == 1
    assert len(by_class(root, "rect", "border")) == 1
    lay = style.layout(8, 8, 400)
    assert lay.columns == 8 and lay.depth == 1
    for s in range(64):
        x, y = s % 8, s // 8
        assert lay.centre(s) == (
            lay.left + (x + 0.5) * lay.square,
            lay.top + (8 - 1 - y + 0.5) * lay.square,
        )
    assert style.default_size(8, 8) == style.default_size(8, 8, depth=1) == 518
