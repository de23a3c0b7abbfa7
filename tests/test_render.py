"""Pictures: structure, not pixels. The SVG parses and has one segment per move; the PNG has the
asked size; the GIF has the right frames and timings and is written as it is drawn."""

from __future__ import annotations

import io
import itertools
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image

import knightstour as kt
from knightstour.board import Board
from knightstour.cli import main
from knightstour.cli.progress import progress_bar
from knightstour.render import style
from knightstour.render.raster import board_image, frame_count, tour_image, write_gif, write_png
from knightstour.render.svg import board_svg, tour_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}{tag}") if cls in (e.get("class") or "").split()]


def segments(root: ET.Element) -> list[tuple[str, str]]:
    """Every move drawn, as pairs of point strings, in order."""
    (group,) = by_class(root, "g", "path")
    out = []
    for line in group.iter(f"{NS}polyline"):
        pts = line.get("points").split()
        out += list(itertools.pairwise(pts))
    return out


@pytest.fixture(scope="module")
def closed8() -> kt.Tour:
    return kt.solve("8x8", start="a1", closed=True)


@pytest.fixture(scope="module")
def open5() -> kt.Tour:
    return kt.solve("5x5", start="a1", method="warnsdorff")


# -- SVG ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["5x5", "8x8", "3x10", "12x5", "50x50", "200x200"])
def test_svg_one_segment_per_move(spec: str) -> None:
    tour = kt.solve(spec, start="a1")
    root = parse(tour_svg(tour))
    segs = segments(root)
    assert len(segs) == len(tour) - 1
    # Consecutive segments join, and the polylines' move ranges cover 1..moves once.
    assert all(a[1] == b[0] for a, b in itertools.pairwise(segs))
    ranges = [tuple(map(int, p.get("data-moves").split("-"))) for p in root.iter(f"{NS}polyline")]
    assert ranges[0][0] == 1 and ranges[-1][1] == len(tour) - 1
    assert all(b[0] == a[1] + 1 for a, b in itertools.pairwise(ranges))
    assert len(ranges) <= style.MAX_BANDS
    # The segments are the tour's moves, in square centres (10 units a square).
    lay_left = min(float(p.split(",")[0]) for s in segs for p in s) - 5
    first = tuple(float(v) for v in segs[0][0].split(","))
    assert first[0] == lay_left + 5  # starts on file a


def test_svg_geometry_matches_the_tour(open5: kt.Tour) -> None:
    root = parse(tour_svg(open5))
    pts = [segments(root)[0][0]] + [b for _a, b in segments(root)]
    xy = [tuple(map(float, p.split(","))) for p in pts]
    xs = sorted({x for x, _ in xy})
    ys = sorted({y for _, y in xy}, reverse=True)  # rank 1 at the bottom: the largest y
    assert len(xs) == len(ys) == 5 and xs[1] - xs[0] == 10
    got = [f"{'abcde'[xs.index(x)]}{ys.index(y) + 1}" for x, y in xy]
    assert got == open5.path


def test_svg_parts(closed8: kt.Tour, open5: kt.Tour) -> None:
    root = parse(tour_svg(closed8, size=400))
    assert root.get("width") == "400" and root.get("height") == "400"
    assert len(by_class(root, "line", "closing")) == 1
    assert len(by_class(root, "circle", "start")) == 1 and len(by_class(root, "rect", "end")) == 1
    assert [t.text for t in by_class(root, "text", "file")] == list("abcdefgh")
    assert [t.text for t in by_class(root, "text", "rank")] == [str(r) for r in range(1, 9)]
    assert not by_class(root, "text", "n")
    # Open tours have no closing move; nor do closed ones when asked.
    assert not by_class(parse(tour_svg(open5)), "line", "closing")
    assert not by_class(parse(tour_svg(closed8, closing=False)), "line", "closing")
    assert not by_class(parse(tour_svg(closed8, markers=False)), "circle", "start")


def test_svg_numbers(closed8: kt.Tour) -> None:
    root = parse(tour_svg(closed8, numbers=True))
    numbers = {t.text for t in by_class(root, "text", "n")}
    assert numbers == {str(k) for k in range(1, 65)}


def test_svg_gradient_and_colours(closed8: kt.Tour) -> None:
    lines = list(parse(tour_svg(closed8)).iter(f"{NS}polyline"))
    cols = [p.get("stroke") for p in lines]
    assert cols[0] == style.GRADIENT[0] and cols[-1] == style.GRADIENT[-1]
    assert len(set(cols)) > 10
    plain = parse(tour_svg(closed8, gradient=False, colors={"path": "#123456"}))
    assert {p.get("stroke") for p in plain.iter(f"{NS}polyline")} == {"#123456"}
    two = parse(tour_svg(closed8, gradient=["#000000", "#ffffff"]))
    assert [p.get("stroke") for p in two.iter(f"{NS}polyline")][-1] == "#ffffff"
    with pytest.raises(kt.KnightsTourError, match="unknown colour name 'drak'"):
        tour_svg(closed8, colors={"drak": "#000000"})
    with pytest.raises(kt.KnightsTourError, match="not a colour"):
        tour_svg(closed8, colors={"dark": "brown"})
    with pytest.raises(kt.KnightsTourError, match="unknown style"):
        tour_svg(closed8, style="fancy")


@pytest.mark.slow
def test_svg_large_boards_thin_labels_and_path_style() -> None:
    t200 = kt.solve("200x200", start="a1", method="warnsdorff")
    root = parse(tour_svg(t200))
    files = [t.text for t in by_class(root, "text", "file")]
    assert files[:3] == ["a", "e", "j"] and 30 <= len(files) <= 50  # every 5th
    assert root.find(f".//{NS}pattern") is not None
    path_only = parse(tour_svg(t200, style="path"))
    assert path_only.find(f".//{NS}pattern") is None and not by_class(path_only, "text", "file")
    assert len(segments(path_only)) == len(t200) - 1
    t250 = kt.solve("250x250", start="a1", method="warnsdorff", tiebreak="squirrel")
    svg = tour_svg(t250)  # auto: path only above 200 a side
    assert "<pattern" not in svg and len(segments(parse(svg))) == len(t250) - 1


def test_board_svg_and_jupyter(closed8: kt.Tour) -> None:
    root = parse(board_svg(Board(8, 8)))
    assert not by_class(root, "g", "path") and by_class(root, "rect", "border")
    holes = parse(board_svg(Board(5, 5, holes=frozenset({12}))))
    assert by_class(holes, "path", "holes")
    assert parse(Board(6, 4)._repr_svg_()).get("viewBox")
    assert len(segments(parse(closed8._repr_svg_()))) == 63


def test_svg_single_square() -> None:
    tour = kt.solve("1x1")
    root = parse(tour_svg(tour))
    assert segments(root) == [] and len(by_class(root, "circle", "start")) == 1


def test_animated_svg(closed8: kt.Tour) -> None:
    svg = tour_svg(closed8, animated=True, frame_ms=100, final_ms=2000)
    root = parse(svg)
    css = root.find(f"{NS}style").text
    lines = list(root.iter(f"{NS}polyline"))
    # One keyframes rule a band, plus the end marker's; each band's pathLength is its moves.
    assert css.count("@keyframes") == len(lines) + 1
    assert sum(int(p.get("pathLength")) for p in lines) == 63
    assert "animation-duration:8300ms" in css  # 63 moves x 100 ms + 2000 ms
    assert len(segments(root)) == 63
    assert "prefers-reduced-motion" in css
    with pytest.raises(kt.KnightsTourError):
        tour_svg(closed8, animated=True, frame_ms=0)


# -- PNG ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "size"), [("8x8", 300), ("3x10", 500), ("12x5", 257)])
def test_png_has_the_asked_size(spec: str, size: int, tmp_path) -> None:
    tour = kt.solve(spec, start="a1")
    out = tmp_path / "t.png"
    write_png(tour, out, size=size)
    with Image.open(out) as im:
        assert im.format == "PNG" and max(im.size) == size
        w, h = tour.board.width, tour.board.height
        assert (im.width >= im.height) == (w >= h)
    assert not list(tmp_path.glob(".*part"))


def test_png_default_size_and_numbers(closed8: kt.Tour) -> None:
    assert tour_image(closed8).size == (style.default_size(8, 8),) * 2
    assert max(tour_image(closed8, numbers=True).size) == style.default_size(8, 8, numbers=True)
    with pytest.raises(kt.KnightsTourError, match="size"):
        tour_image(closed8, size=3)


def test_png_squares_are_where_they_belong() -> None:
    """a1 is dark and at the bottom left, on a board taller than wide."""
    img = board_image(Board(3, 10), size=400)
    lay = style.layout(3, 10, 400)
    c = style.colors()
    a1, b1, a10 = (img.getpixel(tuple(map(round, lay.centre(s)))) for s in (0, 1, 27))
    assert a1 == style.hex_rgb(c["dark"]) and b1 == style.hex_rgb(c["light"])
    assert a10 == style.hex_rgb(c["light"])  # a10: file 0 + rank 9 is odd


def test_png_path_is_drawn(closed8: kt.Tour) -> None:
    plain = np.asarray(board_image(Board(8, 8), size=400)).astype(int)
    drawn = np.asarray(tour_image(closed8, size=400, markers=False)).astype(int)
    changed = np.abs(drawn - plain).sum(axis=2) > 60
    assert 0.03 < changed.mean() < 0.5
    lay = style.layout(8, 8, 400)
    # The middle of the first move is on the line; a square the path skips near is not.
    (ax, ay), (bx, by) = lay.centre(int(closed8.indices[0])), lay.centre(int(closed8.indices[1]))
    assert changed[round((ay + by) / 2), round((ax + bx) / 2)]


# -- GIF ----------------------------------------------------------------------------------------


def gif_frames(data: bytes) -> tuple[Image.Image, list[int]]:
    im = Image.open(io.BytesIO(data))
    durations = []
    for k in range(im.n_frames):
        im.seek(k)
        durations.append(im.info["duration"])
    return im, durations


def test_gif_frames_and_timings(closed8: kt.Tour) -> None:
    buf = io.BytesIO()
    assert write_gif(closed8, buf, size=240) == 64
    im, durations = gif_frames(buf.getvalue())
    assert im.n_frames == 64 and im.size == (240, 240) and im.info.get("loop") == 0
    assert durations == [420] * 63 + [3000]  # 500 ms a move would last 34.5 s in all
    buf = io.BytesIO()
    n = write_gif(closed8, buf, size=240, moves_per_frame=10, frame_ms=120, final_ms=1000)
    im, durations = gif_frames(buf.getvalue())
    assert n == im.n_frames == frame_count(63, 10) == 8
    assert durations == [120] * 7 + [1000]


@pytest.mark.parametrize(("spec", "size", "per_frame"), [("8x8", 300, 1), ("30x30", 200, 7)])
def test_gif_incremental_frames_add_up(spec: str, size: int, per_frame: int) -> None:
    """Frames that redraw only what changed compose to the same picture as one big step
    (markers on top of the path included, even where squares are smaller than markers)."""
    tour = kt.solve(spec, start="a1", closed=True)
    step, whole = io.BytesIO(), io.BytesIO()
    write_gif(tour, step, size=size, moves_per_frame=per_frame)
    write_gif(tour, whole, size=size, moves_per_frame=len(tour), knight=False)
    a, b = Image.open(step), Image.open(whole)
    a.seek(a.n_frames - 1)
    b.seek(b.n_frames - 1)
    assert b.n_frames == 2
    assert np.array_equal(np.asarray(a.convert("RGB")), np.asarray(b.convert("RGB")))
    # The knight's ring is on the picture while the knight moves, and gone at the end.
    a.seek(10)
    assert not np.array_equal(np.asarray(a.convert("RGB")), np.asarray(b.convert("RGB")))


def test_gif_is_written_as_it_is_drawn() -> None:
    tour = kt.solve("20x20", start="a1", method="warnsdorff")
    sink = io.BytesIO()
    seen: list[tuple[int, int]] = []
    n = write_gif(
        tour, sink, size=300, progress=lambda done, total: seen.append((done, sink.tell()))
    )
    assert n == 400 and seen[-1][0] == 400
    sizes = [s for _d, s in seen]
    assert sizes[0] > 0 and sizes == sorted(sizes) and sizes[len(sizes) // 2] < sizes[-1] * 0.8
    # Later frames are small rectangles, not whole pictures.
    assert (sizes[-2] - sizes[1]) / (n - 3) < sizes[0] / 10


def test_gif_single_square_and_errors(closed8: kt.Tour) -> None:
    buf = io.BytesIO()
    assert write_gif(kt.solve("1x1"), buf) == 1
    assert gif_frames(buf.getvalue())[1] == [3000]
    with pytest.raises(kt.KnightsTourError, match="frame_ms must be 20"):
        write_gif(closed8, io.BytesIO(), frame_ms=10)
    with pytest.raises(kt.KnightsTourError, match="moves_per_frame"):
        write_gif(closed8, io.BytesIO(), moves_per_frame=0)


def test_gif_to_path_replaces_only_when_done(closed8: kt.Tour, tmp_path) -> None:
    out = tmp_path / "t.gif"
    out.write_bytes(b"old")
    with pytest.raises(kt.KnightsTourError):
        write_gif(closed8, out, final_ms=1)
    assert out.read_bytes() == b"old" and not list(tmp_path.glob(".*part"))
    write_gif(closed8, out, size=100)
    assert Image.open(out).n_frames == 64


def test_render_package_is_lazy() -> None:
    import subprocess
    import sys

    code = "import knightstour.render, sys; print('PIL' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    from knightstour import render

    assert render.write_gif is write_gif


# -- CLI ----------------------------------------------------------------------------------------


def test_cli_pictures(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    svg, anim, png, gif = (tmp_path / n for n in ("t.svg", "a.svg", "t.png", "t.gif"))
    argv = [
        "solve",
        "6x6",
        "--start",
        "a1",
        "--format",
        "moves",
        "--svg",
        str(svg),
        "--svg-animated",
        str(anim),
        "--png",
        str(png),
        "--gif",
        str(gif),
        "--size",
        "200",
        "--numbers",
        "--moves-per-frame",
        "5",
        "--frame-ms",
        "100",
    ]
    assert main(argv) == 0
    assert len(segments(parse(svg.read_text()))) == 35
    assert "@keyframes" in anim.read_text()
    assert Image.open(png).size == (200, 200)
    g = Image.open(gif)
    assert g.n_frames == 1 + 7 and g.info["duration"] == 100
    capsys.readouterr()
    # An existing file is kept, with a one-line error naming it and --force; --force overwrites.
    png.write_bytes(b"keep")
    assert main(["solve", "6x6", "--png", str(png)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(png) in err and "--force" in err
    assert png.read_bytes() == b"keep"
    assert main(["solve", "6x6", "--png", str(png), "--force"]) == 0
    assert Image.open(png).format == "PNG"


def test_cli_picture_usage(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    assert main(["solve", "6x6", "--numbers"]) == 2
    assert "--svg" in capsys.readouterr().err
    assert main(["solve", "6x6", "--gif", str(tmp_path / "g.gif"), "--frame-ms", "5"]) == 2
    assert "--frame-ms" in capsys.readouterr().err
    assert not (tmp_path / "g.gif").exists()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    with progress_bar("GIF", stream=io.StringIO()) as bar:
        assert bar is None
    term = _Terminal()
    with progress_bar("GIF", stream=term, delay=0) as bar:
        assert bar is not None
        bar(5, 10)
        bar(10, 10)
    text = term.getvalue()
    assert "GIF" in text and "10/10" in text and text.endswith("\n")
