"""Number puzzles on paper: SVG and PNG pictures of a puzzle and of its solution, and a PDF
booklet of many, the answers at the back (docs/puzzles.md, "Printing").

The pictures are the render package's (:func:`~knightstour.render.svg.numbers_svg`,
:func:`~knightstour.render.raster.numbers_image`): the board as every picture draws it, in the
printable look, the given numbers bold and a solution's other numbers lighter. The booklet's
pages are drawn with Pillow at ``dpi`` dots an inch and written as a PDF by Pillow: no other
dependency.

>>> from knightstour.numberpuzzles.make import make
>>> p = make("5x5", level="easy", seed=4)
>>> svg = puzzle_svg(p)
>>> svg.count('class="given"') == len(p.givens), 'class="filled"' in svg
(True, False)
>>> puzzle_svg(p, solution=True).count('class="filled"') == 25 - len(p.givens)
True
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from knightstour.errors import InvalidInputError
from knightstour.numberpuzzles.grid import NumberPuzzle
from knightstour.progress import Progress
from knightstour.render.style import NumberSheet

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["PAPERS", "book_pages", "puzzle_image", "puzzle_sheet", "puzzle_svg", "write_book"]

#: Paper sizes of a booklet, in millimetres (width, height), portrait.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: The booklet's title when none is given.
TITLE = "Knight's tour number puzzles"
#: The margin of a booklet's page, in millimetres.
MARGIN_MM = 15.0


def puzzle_sheet(
    puzzle: NumberPuzzle, *, solution: bool = False, path: bool = False, coordinates: bool = True
) -> NumberSheet:
    """What a picture of ``puzzle`` shows: its given numbers in their squares, the blanks
    empty; with ``solution``, every number, the givens bold and the rest lighter; with ``path``
    (a solution only), the tour drawn pale under the numbers. ``coordinates``: the file and
    rank labels.

    >>> from knightstour.numberpuzzles.make import make
    >>> p = make("5x5", level="easy", seed=4)
    >>> len(puzzle_sheet(p).numbers) == len(p.givens), len(puzzle_sheet(p, solution=True).numbers)
    (True, 25)
    """
    if path and not solution:
        raise InvalidInputError("the path is drawn on a solution only: ask for the solution too")
    if not solution:
        numbers = dict(puzzle.givens)
    elif puzzle.solution is None:
        raise InvalidInputError("this puzzle carries no solution to draw")
    else:
        numbers = {s: k for k, s in enumerate(puzzle.solution, start=1)}
    return NumberSheet(
        puzzle.board,
        numbers,
        strong=frozenset(puzzle.givens),
        path=puzzle.solution if path else None,
        closed=puzzle.closed,
        coordinates=coordinates,
    )


def puzzle_svg(puzzle: NumberPuzzle, *, size: float | None = None, **options: bool) -> str:
    """An SVG of ``puzzle``, ``size`` pixels on its longest side: its :func:`puzzle_sheet`
    (``options``: ``solution``, ``path``, ``coordinates``)."""
    from knightstour.render.svg import numbers_svg

    return numbers_svg(puzzle_sheet(puzzle, **options), size)


def puzzle_image(puzzle: NumberPuzzle, *, size: int | None = None, **options: bool) -> Image.Image:
    """An RGB picture of ``puzzle`` (Pillow), as :func:`puzzle_svg` draws it.

    >>> from knightstour.numberpuzzles.make import make
    >>> puzzle_image(make("5x5", level="easy", seed=4), size=250).size
    (250, 250)
    """
    from knightstour.render.raster import numbers_image

    return numbers_image(puzzle_sheet(puzzle, **options), size)


def _grid(board_side: int, answers: bool) -> tuple[int, int]:
    """(columns, rows) of puzzles on a page: fewer, bigger ones on big boards; the answers
    smaller than the puzzles."""
    if board_side <= 10:
        return (3, 4) if answers else (2, 3)
    if board_side <= 16:
        return (2, 3) if answers else (1, 2)
    return (1, 2) if answers else (1, 1)


def book_pages(
    puzzles: Sequence[NumberPuzzle],
    *,
    paper: str = "a4",
    title: str | None = None,
    dpi: int = 300,
    progress: Progress | None = None,
) -> list[Image.Image]:
    """The pages of a booklet of ``puzzles`` (each with its solution: made puzzles carry it),
    as greyscale pictures of ``paper`` (``a4`` or ``letter``) at ``dpi``: the title on the
    first page, several puzzles a page, numbered, then the answers, smaller, under an
    "Answers" heading; every page numbered ("page 3 of 14"). ``progress(done, total)`` is
    called after each puzzle and answer drawn.

    >>> from knightstour.numberpuzzles.make import make_many
    >>> pages = book_pages(list(make_many("5x5", 7, level="easy", seed=1)), dpi=50)
    >>> len(pages), pages[0].size
    (3, (413, 585))
    """
    from PIL import Image, ImageDraw

    from knightstour.render.raster import label_font

    if paper not in PAPERS:
        raise InvalidInputError(f"unknown paper {paper!r} (expected one of {', '.join(PAPERS)})")
    if not puzzles:
        raise InvalidInputError("a booklet needs at least one puzzle")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 50 <= dpi <= 600:
        raise InvalidInputError(f"dpi must be a whole number from 50 to 600, got {dpi!r}")
    if any(p.solution is None for p in puzzles):
        raise InvalidInputError("a booklet's puzzles need their solutions for the answers")
    title = TITLE if title is None else title
    mm = dpi / 25.4
    pw, ph = (round(v * mm) for v in PAPERS[paper])
    margin = round(MARGIN_MM * mm)
    side = max(max(p.board.width, p.board.height) for p in puzzles)
    big, small, tiny = (
        label_font(round(7 * mm)),
        label_font(round(4 * mm)),
        label_font(round(3 * mm)),
    )

    def centred(d: ImageDraw.ImageDraw, x: float, y: float, text: str, font: Any) -> None:
        left, top, right, _ = d.textbbox((0, 0), text, font=font)
        d.text((x - (left + right) / 2, y - top), text, fill=0, font=font)

    def heights(font: Any) -> int:
        return round(ImageDraw.Draw(Image.new("L", (1, 1))).textbbox((0, 0), "Ag", font=font)[3])

    line, title_h = heights(small), heights(big)
    pages: list[tuple[Image.Image, ImageDraw.ImageDraw, int]] = []  # (page, its pen, top of cells)

    def new_page(heading: str | None, subtitle: Sequence[str] = ()) -> tuple[Image.Image, int]:
        page = Image.new("L", (pw, ph), 255)
        d = ImageDraw.Draw(page)
        y = margin
        if heading is not None:
            centred(d, pw / 2, y, heading, big)
            y += round(title_h * 1.5)
            for text in subtitle:
                centred(d, pw / 2, y, text, small)
                y += round(line * 1.4)
            y += round(line * 0.8) if subtitle else 0
        else:
            centred(d, pw / 2, y, title, tiny)
            y += round(line * 1.6)
        pages.append((page, d, y))
        return page, y

    sizes = sorted({p.board.spec for p in puzzles})
    levels = sorted({str(p.level) for p in puzzles if p.level})
    counts = sorted({p.size for p in puzzles})
    last = str(counts[0]) if len(counts) == 1 else "N (the squares of the board)"
    subtitle = (
        f"{len(puzzles)} {'/'.join(levels)} puzzle{'s' if len(puzzles) != 1 else ''} on "
        f"{', '.join(sizes)}; the answers at the back.",
        f"Write the numbers 1 to {last}, one a square, each a knight's move from the next.",
    )
    total = 2 * len(puzzles)
    done = 0
    for answers in (False, True):
        cols, rows = _grid(side, answers)
        per_page = cols * rows
        for first in range(0, len(puzzles), per_page):
            if not answers and first == 0:
                _, top = new_page(title, subtitle)
            elif answers and first == 0:
                _, top = new_page("Answers")
            else:
                _, top = new_page(None)
            page, d, _ = pages[-1]
            cell_w = (pw - 2 * margin) / cols
            cell_h = (ph - margin - line * 2 - top) / rows
            caption = line * 1.5
            pic = math.floor(min(cell_w * 0.92, cell_h - caption - line))
            for i, p in enumerate(puzzles[first : first + per_page]):
                n = first + i + 1
                cx = margin + (i % cols + 0.5) * cell_w
                y = top + (i // cols) * cell_h
                words = f"{'Answer' if answers else 'Puzzle'} {n}"
                if not answers:
                    extra = [p.level or "", "closed" if p.closed else ""]
                    words += "".join(f" · {e}" for e in extra if e)
                centred(d, cx, y, words, small)
                image = puzzle_image(p, solution=answers, size=pic, coordinates=False)
                image = image.convert("L")
                page.paste(image, (round(cx - image.width / 2), round(y + caption)))
                done += 1
                if progress:
                    progress(done, total)
    out = []
    for k, (page, d, _) in enumerate(pages, start=1):
        centred(d, pw / 2, ph - margin, f"page {k} of {len(pages)}", tiny)
        out.append(page)
    return out


def write_book(
    puzzles: Sequence[NumberPuzzle],
    file: str | IO[bytes],
    *,
    paper: str = "a4",
    title: str | None = None,
    dpi: int = 300,
    progress: Progress | None = None,
) -> int:
    """Write the booklet of :func:`book_pages` (same options) as a PDF to a path or a binary
    file; returns its number of pages.

    >>> import io
    >>> from knightstour.numberpuzzles.make import make_many
    >>> buf = io.BytesIO()
    >>> write_book(list(make_many("5x5", 3, level="easy", seed=1)), buf, dpi=50)
    2
    >>> buf.getvalue()[:5]
    b'%PDF-'
    """
    pages = book_pages(puzzles, paper=paper, title=title, dpi=dpi, progress=progress)
    data = io.BytesIO()
    pages[0].save(
        data,
        format="PDF",
        save_all=True,
        append_images=pages[1:],
        resolution=float(dpi),
        quality=90,
        title=title or TITLE,
        producer="knightstour",
    )
    if isinstance(file, str):
        with open(file, "wb") as f:
            f.write(data.getvalue())
    else:
        file.write(data.getvalue())
    return len(pages)
