"""Number puzzles on paper (issue 34, item 4): the SVG and PNG of a puzzle and its solution,
the PDF booklet read back, and the command line's refusals."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, PdfParser

from knightstour.cli import main
from knightstour.numberpuzzles import Grid, check_filled, parse_puzzle
from knightstour.numberpuzzles.make import make, make_many
from knightstour.numberpuzzles.printing import puzzle_image, puzzle_svg, write_book

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str, kind: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == kind]


def test_the_svg_of_a_puzzle_holds_every_given_and_nothing_else() -> None:
    p = make("8x8", level="medium", seed=2)
    svg = puzzle_svg(p)
    assert sorted(map(int, _texts(svg, "given"))) == sorted(p.givens.values())
    assert _texts(svg, "filled") == []
    solved = puzzle_svg(p, solution=True, path=True)
    filled = list(map(int, _texts(solved, "filled")))
    assert sorted(filled + list(p.givens.values())) == list(range(1, 65))
    assert ET.fromstring(solved).find(f".//{SVG}g[@class='path']") is not None


def test_holes_are_drawn_on_a_shaped_puzzle() -> None:
    from knightstour.board import parse_board

    p = make(parse_board("6x6", holes="c3,d3"), level="easy", seed=1)
    root = ET.fromstring(puzzle_svg(p))
    assert root.find(f".//{SVG}path[@class='holes']") is not None
    assert sorted(map(int, _texts(puzzle_svg(p), "given"))) == sorted(p.givens.values())


def test_the_png_has_the_size_asked() -> None:
    p = make("6x6", level="easy", seed=3)
    assert puzzle_image(p, size=300).size == (300, 300)
    assert puzzle_image(p, solution=True, size=211).size == (211, 211)
    with pytest.raises(ValueError, match="solution"):
        puzzle_image(p, path=True)


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def test_the_booklet_has_its_pages_and_its_answers_solve_the_puzzles(tmp_path: Path) -> None:
    puzzles = list(make_many("6x6", 9, level="easy", seed=5))
    out = tmp_path / "b.pdf"
    pages = write_book(puzzles, str(out), paper="letter", dpi=60)
    data = out.read_bytes()
    # 6 puzzles a page (two pages for 9), 12 answers a page (one page).
    assert (pages, _pages(data)) == (3, 3)
    read = PdfParser.PdfParser(buf=data)  # read back: pages, each of Letter size in points
    assert len(read.pages) == 3
    for page in read.pages:
        box = read.read_indirect(page)[b"MediaBox"]
        assert box[2] == pytest.approx(612, abs=1.5) and box[3] == pytest.approx(792, abs=1.5)
    for p in puzzles:  # the answers printed are the puzzles' solutions: each checked
        cells = [0] * p.board.area
        for k, s in enumerate(p.solution or (), start=1):
            cells[s] = k
        assert check_filled(Grid(p.board, tuple(cells), p.closed), p) == []


@pytest.mark.slow  # booklets at 300 dpi: over 2 s of CPU
def test_book_and_pictures_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf = tmp_path / "book.pdf"
    args = ["puzzle", "book", "--count", "7", "--board", "6x6", "--level", "easy", "--seed", "1"]
    assert main([*args, "--pdf", str(pdf), "--paper", "a4"]) == 0
    assert _pages(pdf.read_bytes()) == 3  # 6 + 1 puzzles, then the answers on one page
    assert "3 pages" in capsys.readouterr().err
    before = pdf.read_bytes()
    assert main([*args, "--pdf", str(pdf)]) == 2  # no silent overwrite
    assert "--force" in capsys.readouterr().err and pdf.read_bytes() == before
    assert main([*args, "--count", "2", "--pdf", str(pdf), "--force"]) == 0
    assert _pages(pdf.read_bytes()) == 2

    svg, png = tmp_path / "p.svg", tmp_path / "p.png"
    assert main(["puzzle", "make", "7x7", "--seed", "4", "--format", "svg", "-o", str(svg)]) == 0
    text_out = tmp_path / "p.txt"
    assert main(["puzzle", "make", "7x7", "--seed", "4", "-o", str(text_out)]) == 0
    p = parse_puzzle(text_out.read_text())
    assert sorted(map(int, _texts(svg.read_text(), "given"))) == sorted(p.givens.values())
    png_args = ["puzzle", "make", "7x7", "--seed", "4", "--format", "png", "--output", str(png)]
    assert main([*png_args, "--solution", "--path", "--size", "320"]) == 0
    with Image.open(png) as im:
        assert im.size == (320, 320)
    assert main(png_args) == 2  # exists
    capsys.readouterr()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["book", "--count", "0", "--pdf", "X"], "--count must be at least 1"),
        (["book", "--paper", "a5", "--pdf", "X"], "unknown paper 'a5'"),
        (["book", "--board", "9x9x", "--pdf", "X"], "not a board spec"),
        (["make", "8x8", "--format", "png"], "add --output FILE"),
        (["make", "8x8", "--format", "svg", "--count", "2"], "draws one puzzle"),
        (["make", "8x8", "--format", "svg", "--path"], "add --solution"),
        (["make", "8x8", "--path"], "shapes a picture"),
        (["make", "8x8", "--format", "png", "-o", "X.jpg"], "name the file .png"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(tmp_path / a) if a.startswith("X") else a for a in argv]
    assert main(["puzzle", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0], err
    assert list(tmp_path.iterdir()) == []
