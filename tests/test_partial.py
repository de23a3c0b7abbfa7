"""The path of a search that stopped is a first-class :class:`PartialTour` (issue 11, item 15):
every output shows it, the JSON answer carries it, and every renderer draws it."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import knightstour as kt
from conftest import assert_is_partial_path
from knightstour.cli import main
from knightstour.render import style
from knightstour.render.raster import tour_image, write_gif, write_png
from knightstour.render.svg import tour_svg
from knightstour.tour import PartialTour, search_failed

STUCK = ["solve", "7x7", "--start", "c3", "--method", "warnsdorff", "--tiebreak", "first"]


@pytest.fixture(scope="module")
def stuck() -> kt.SearchFailedError:
    with pytest.raises(kt.SearchFailedError) as info:
        kt.solve("7x7", start="c3", method="warnsdorff", tiebreak="first")
    return info.value


def test_search_failed_error_carries_a_partial_tour(stuck: kt.SearchFailedError) -> None:
    p = stuck.partial
    assert isinstance(p, PartialTour)
    assert p.board == kt.Board(7, 7) and p.start == "c3" and 0 < len(p) < 49
    assert p.reason == str(stuck) and p.unvisited == 49 - len(p)
    assert_is_partial_path(p.board, p)  # still usable as the array it was
    assert np.asarray(p).tolist() == p.indices.tolist() == list(p)
    assert p.to_dict() == {"path": p.path, "xy": p.xy}
    assert p.end in str(stuck)


def test_partial_tour_is_validated() -> None:
    assert PartialTour("5x5", [(0, 0), (1, 2)]).path == ["a1", "b3"]
    for bad in ([], ["a1", "a2"], ["a1", "b3", "a1"], [0, 99]):
        with pytest.raises(kt.InvalidInputError, match="not a partial path"):
            PartialTour("5x5", bad)
    with pytest.raises(kt.InternalError):  # a solver's broken path is a bug, not an answer
        search_failed("stuck", kt.Board(5, 5), np.array([0, 1]), "warnsdorff")
    assert search_failed("stuck", kt.Board(5, 5), np.zeros(0, int), "warnsdorff").partial is None


def test_json_answer_has_the_partial_path(capsys: pytest.CaptureFixture) -> None:
    assert main([*STUCK, "--format", "json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["exists"] is None and set(data) == {
        "width",
        "height",
        "exists",
        "reason",
        "partial",
    }
    part = data["partial"]
    assert set(part) == {"path", "xy"} and part["path"][0] == "c3" and part["xy"][0] == [2, 2]
    board = kt.Board(7, 7)
    assert [board.parse_square(s) for s in part["path"]] == [y * 7 + x for x, y in part["xy"]]
    assert_is_partial_path(board, [board.parse_square(s) for s in part["path"]])


def test_pictures_of_a_stuck_search_are_written(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    png, svg, gif = tmp_path / "s.png", tmp_path / "s.svg", tmp_path / "s.gif"
    argv = [*STUCK, "--png", str(png), "--svg", str(svg), "--gif", str(gif), "--size", "200"]
    assert main(argv) == 3
    assert "partial path" in capsys.readouterr().out
    assert Image.open(png).size == (200, 200)
    assert 'class="unvisited"' in svg.read_text()
    assert Image.open(gif).n_frames > 2


def test_renderers_draw_the_unvisited_squares(stuck: kt.SearchFailedError) -> None:
    p = stuck.partial
    root = ET.fromstring(tour_svg(p, numbers=True))
    ns = "{http://www.w3.org/2000/svg}"
    texts = [e for e in root.iter(f"{ns}text") if e.get("class") == "n"]
    assert len(texts) == len(p)
    (unvisited,) = [e for e in root.iter(f"{ns}path") if e.get("class") == "unvisited"]
    assert unvisited.get("d").count("M") >= 1
    assert p._repr_svg_() == tour_svg(p)
    # In the PNG an unvisited square is tinted with colors["unvisited"] over its own colour.
    img = tour_image(p, size=280)
    lay = style.layout(7, 7, 280)
    visited = set(p.indices.tolist())
    for free in (s for s in range(49) if s not in visited):
        x0, y0 = lay.corner(free)
        light = sum(kt.Board(7, 7).xy(free)) % 2 == 1
        ground = style.DEFAULT_COLORS["light" if light else "dark"]
        want = style.hex_rgb(
            style.ramp((ground, style.DEFAULT_COLORS["unvisited"]), style.UNVISITED_OPACITY)
        )
        got = img.getpixel((round(x0 + 3), round(y0 + 3)))
        assert max(abs(g - w) for g, w in zip(got, want, strict=True)) <= 8
    buf = io.BytesIO()
    write_png(p, buf, size=100)
    assert Image.open(io.BytesIO(buf.getvalue())).format == "PNG"
    buf = io.BytesIO()
    assert write_gif(p, buf, size=120) == len(p)
