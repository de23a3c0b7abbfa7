"""What the pictures share: colours, the colour ramp along a path, and the layout of a board.

Standard library only (and NumPy, which knightstour needs anyway, for partial paths), so that
the SVG renderer stays dependency-free. Every renderer asks
:func:`layout` where things go and :func:`bands` how the path is coloured, so an SVG, a PNG and
a GIF of the same tour look alike.

>>> lay = layout(8, 8, 480)
>>> round(lay.square, 2), lay.image_width, lay.image_height
(55.2, 480.0, 480.0)
>>> bands(63, 64)[:4], len(bands(1000, 64)) - 1
([0, 1, 2, 3], 64)
>>> ramp(("#000000", "#ffffff"), 0.5)
'#808080'
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypedDict

from knightstour.board import Board, file_name
from knightstour.errors import InvalidInputError

__all__ = [
    "DEFAULT_COLORS",
    "GRADIENT",
    "LAYER_GAP",
    "MAX_BANDS",
    "PRINT_COLORS",
    "STYLES",
    "TOUR_LOOK",
    "UNVISITED_OPACITY",
    "Layout",
    "NumberSheet",
    "TourLook",
    "animation_timing",
    "band_colors",
    "bands",
    "colors",
    "default_size",
    "given_font",
    "hex_rgb",
    "label_width",
    "layout",
    "layout_for",
    "line_width",
    "marker_radius",
    "move_pieces",
    "number_font",
    "ramp",
    "require_drawable",
    "resolve_style",
    "strokes",
    "unvisited_runs",
    "web_palette",
]

#: The colours of a picture; pass ``colors={"dark": "#b58863", ...}`` to change any of them.
DEFAULT_COLORS: dict[str, str] = {
    "background": "#ffffff",  # the margin around the board, and the path-only style's ground
    "light": "#f2f0eb",
    "dark": "#cdd4dc",
    "border": "#7d8690",
    "hole": "#4a4f57",
    "coord": "#4d545c",  # file and rank labels
    "path": "#1d4e89",  # the path when it is one colour (``gradient=False``)
    "start": "#1e8c45",
    "end": "#c62828",
    "marker-edge": "#ffffff",
    "knight": "#111111",  # the ring on the knight's square in an animation
    "number": "#222222",
    "number-halo": "#ffffff",
    "unvisited": "#f0a830",  # the squares a partial path never reached (a tint over them)
}

#: The colours of a printable picture (number puzzles): black on white, the dark squares a pale
#: grey that still shows each square's colour, the filled-in numbers of a solution lighter than
#: the given ones (``number`` the givens, ``filled`` the rest), a pale path.
PRINT_COLORS: dict[str, str] = {
    "background": "#ffffff",
    "light": "#ffffff",
    "dark": "#e4e4e4",
    "border": "#000000",
    "hole": "#3c3c3c",
    "coord": "#000000",
    "path": "#b4b4b4",
    "number": "#000000",
    "number-halo": "#ffffff",
}
#: The colour of the numbers a solution fills in (the givens are ``number``).
FILLED_COLOR = "#6b6b6b"

#: How strongly the ``unvisited`` colour tints the squares a partial path never reached.
UNVISITED_OPACITY = 0.45

#: The default ramp of the path from its first move to its last: navy, purple, crimson, orange.
GRADIENT: tuple[str, ...] = ("#1f3c99", "#6f2ea3", "#c0265d", "#e8620c")

#: The path is drawn in at most this many colour bands (one ``<polyline>`` each in SVG).
MAX_BANDS = 64

#: ``style=``: ``full`` draws squares, labels and markers; ``path`` only the path (and markers),
#: for boards too big for squares to show; ``auto`` is ``full`` up to 200 squares a side.
STYLES = ("auto", "full", "path")
FULL_STYLE_LIMIT = 200
#: The margin, in pixels, around a board drawn in the path-only style: room for its markers.
PATH_PAD = 8.0

#: An animation shows a move this long by default, when that keeps it short enough.
DEFAULT_FRAME_MS = 500
#: The last frame, the whole path, is held this long by default.
DEFAULT_FINAL_MS = 3000
#: By default an animation lasts at most this long in all: its moves take what is left after
#: the default hold of the last frame (27 s), with more moves a frame on big boards.
MAX_ANIMATION_MS = 30_000

#: The gap between the layers of a 3-D board drawn side by side, in squares.
LAYER_GAP = 1

_LABEL_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000)


def colors(overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """The default colours with ``overrides`` applied; unknown names are refused.

    >>> colors({"dark": "#b58863"})["dark"]
    '#b58863'
    >>> colors({"drak": "#000"})
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: unknown colour name 'drak' (known: background, ...)
    """
    out = dict(DEFAULT_COLORS)
    for key, value in (overrides or {}).items():
        if key not in out:
            raise InvalidInputError(f"unknown colour name {key!r} (known: {', '.join(out)})")
        hex_rgb(value)
        out[key] = value
    return out


def web_palette() -> dict[str, object]:
    """What the web board draws with, so that the page and a downloaded picture match: the
    colours, the path's ramp and its most colour bands (``/api/palette``).

    >>> sorted(web_palette())
    ['colors', 'gradient', 'max_bands']
    """
    return {"colors": dict(DEFAULT_COLORS), "gradient": list(GRADIENT), "max_bands": MAX_BANDS}


def hex_rgb(color: str) -> tuple[int, int, int]:
    """``'#rrggbb'`` or ``'#rgb'`` as an ``(r, g, b)`` tuple.

    >>> hex_rgb("#1d4e89"), hex_rgb("#fff")
    ((29, 78, 137), (255, 255, 255))
    """
    s = color.strip().lstrip("#") if isinstance(color, str) else ""
    if len(s) == 3:
        s = "".join(c * 2 for c in s)
    try:
        if len(s) != 6:
            raise ValueError
        return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)
    except ValueError:
        raise InvalidInputError(f"not a colour: {color!r} (expected '#rrggbb')") from None


def ramp(stops: Sequence[str], t: float) -> str:
    """The colour a fraction ``t`` (0 to 1) along the ramp through ``stops``, as ``#rrggbb``."""
    if not stops:
        raise InvalidInputError("a colour ramp needs at least one colour")
    if len(stops) == 1:
        return _hex(hex_rgb(stops[0]))
    t = min(max(t, 0.0), 1.0) * (len(stops) - 1)
    i = min(int(t), len(stops) - 2)
    f = t - i
    a, b = hex_rgb(stops[i]), hex_rgb(stops[i + 1])
    return _hex(tuple(round(u + (v - u) * f) for u, v in zip(a, b, strict=True)))


def _hex(rgb: Sequence[int]) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def bands(moves: int, most: int = MAX_BANDS) -> list[int]:
    """Where the colour bands of a path of ``moves`` moves begin, and the end: ``n + 1`` bounds.

    Move ``i`` (0-based) is in band ``i * n // moves``; band ``b`` holds moves
    ``bounds[b]`` to ``bounds[b + 1] - 1``.

    >>> bands(5, 3)
    [0, 2, 4, 5]
    >>> bands(0)
    [0]
    """
    n = min(moves, most)
    if n == 0:
        return [0]
    return [(b * moves + n - 1) // n for b in range(n + 1)]


def band_colors(n: int, gradient: bool | Sequence[str], single: str) -> list[str]:
    """The colours of ``n`` bands: a ramp through ``gradient`` (its stops, or :data:`GRADIENT`
    when it is ``True``), or ``single`` for all when ``gradient`` is false."""
    if not gradient:
        return [single] * n
    stops = GRADIENT if gradient is True else tuple(gradient)
    return [ramp(stops, b / (n - 1) if n > 1 else 0.0) for b in range(n)]


def require_drawable(board: Board) -> None:
    """Refuse a board the pictures cannot show: none is left. Wrapped boards draw their moves
    across a seam as split lines, 3-D boards their layers side by side (both at once on a
    wrapped 3-D board); holes and other leapers draw as usual. Kept as the one place to say
    so, should a board the pictures cannot show come along.

    >>> require_drawable(Board(6, 6, wrap="torus")), require_drawable(Board(4, 4, depth=4, wrap="torus"))
    (None, None)
    """
    del board


Point = tuple[float, float]


def move_pieces(board: Board, a: int, b: int) -> list[tuple[Point, Point]] | None:
    """How the move from ``a`` to ``b`` of a wrapped board crosses its seams: the pieces of
    its line inside the board, in picture units (columns and rows from the top-left corner,
    square centres at halves), or None when it is drawn straight from centre to centre.

    A move whose straight line is a leaper move is drawn straight; any other goes the short
    way round: out to the board's edge and in again from the opposite edge (through a corner,
    three pieces: a bit of it crosses the opposite corner). On a wrapped 3-D board the pieces
    are those of the move's step within a layer: the first in ``a``'s layer, the rest in
    ``b``'s.

    >>> move_pieces(Board(6, 6, wrap="torus"), 5, 7)  # f1 to b2, round the right edge
    [((5.5, 5.5), (6.0, 5.25)), ((0.0, 5.25), (1.5, 4.5))]
    >>> move_pieces(Board(6, 6, wrap="torus"), 0, 13) is None  # a1 to b3: straight
    True
    >>> move_pieces(Board(4, 4, depth=3, wrap="cylinder"), 3, 32)  # d1:1 to a1:3, right edge
    [((3.5, 3.5), (4.0, 3.5)), ((10.0, 3.5), (10.5, 3.5))]
    """
    if board.wrap is None:
        return None
    w, h = board.width, board.height
    plane = w * h
    ax, ay, az = a % w, a // w % h, a // plane
    bx, by, bz = b % w, b // w % h, b // plane
    deltas = board.deltas3
    if any(ax + dx == bx and ay + dy == by and az + dz == bz for dx, dy, dz in deltas):
        return None
    torus = board.wrap == "torus"
    for dx, dy, dz in deltas:
        ny = ay + dy
        if torus:
            ny %= h
        if (ax + dx) % w == bx and ny == by and az + dz == bz:
            break
    else:
        return None  # not a move: drawn straight, as any other line
    x0, y0 = ax + 0.5, ay + 0.5
    cuts = {0.0, 1.0}
    for c0, d, side in ((x0, dx, w), (y0, dy, h if torus else 0)):
        if d and side:
            lo, hi = sorted((c0, c0 + d))
            cuts.update(
                (k * side - c0) / d for k in range(math.ceil(lo / side), int(hi // side) + 1)
            )
    ts = sorted(cuts)
    pieces = []
    for i, (t0, t1) in enumerate(itertools.pairwise(ts)):
        mid = (t0 + t1) / 2
        ox = math.floor((x0 + mid * dx) / w) * w
        oy = math.floor((y0 + mid * dy) / h) * h if torus else 0
        layer = (az if i == 0 else bz) * (w + LAYER_GAP)
        ends = []
        for t in (t0, t1):
            x = round(x0 + t * dx - ox, 9)
            y = round(y0 + t * dy - oy, 9)
            ends.append((x + layer + 0.0, h - y + 0.0))
        pieces.append((ends[0], ends[1]))
    return pieces


def strokes(
    board: Board, indices: Sequence[int], lo: int, hi: int
) -> list[tuple[int, int, list[list[Point]]]]:
    """Moves ``lo + 1`` to ``hi`` (1-based) of a path as ``(first, last, lines)``: a run of
    moves drawn as one polyline through square centres, or one move across a seam
    (:func:`move_pieces`) as its pieces. Points are in picture units (as
    :meth:`Layout.position`, centres at halves). A path on a board without seams is one run.

    >>> strokes(Board(6, 6, wrap="torus"), [0, 13, 5, 7], 0, 3)[1]
    (3, 3, [[(5.5, 5.5), (6.0, 5.25)], [(0.0, 5.25), (1.5, 4.5)]])
    """
    w, h, gap = board.width, board.height, LAYER_GAP

    def centre(s: int) -> Point:
        col, row = grid_position(w, h, gap, s)
        return col + 0.5, row + 0.5

    if board.wrap is None:
        return [(lo + 1, hi, [[centre(s) for s in indices[lo : hi + 1]]])] if hi > lo else []
    out: list[tuple[int, int, list[list[Point]]]] = []
    start = lo
    for i in range(lo, hi):
        pieces = move_pieces(board, indices[i], indices[i + 1])
        if pieces is None:
            continue
        if i > start:
            out.append((start + 1, i, [[centre(s) for s in indices[start : i + 1]]]))
        out.append((i + 1, i + 1, [list(p) for p in pieces]))
        start = i + 1
    if hi > start:
        out.append((start + 1, hi, [[centre(s) for s in indices[start : hi + 1]]]))
    return out


def grid_position(width: int, height: int, gap: int, square: int) -> tuple[int, int]:
    """``(column, row)`` of a square index in a picture, row 0 at the top: file ``x`` and rank
    ``y`` of layer ``z`` are at ``(z * (width + gap) + x, height - 1 - y)``.

    >>> grid_position(8, 8, 1, 0), grid_position(4, 4, 1, 21)
    ((0, 7), (6, 2))
    """
    plane = width * height
    return square // plane * (width + gap) + square % width, height - 1 - square % plane // width


def resolve_style(style: str, width: int, height: int) -> str:
    """``full`` or ``path``: what ``style`` (one of :data:`STYLES`) means on this board.

    >>> resolve_style("auto", 200, 200), resolve_style("auto", 201, 5)
    ('full', 'path')
    """
    if style not in STYLES:
        raise InvalidInputError(f"unknown style {style!r} (expected one of {', '.join(STYLES)})")
    if style == "auto":
        return "full" if max(width, height) <= FULL_STYLE_LIMIT else "path"
    return style


def default_size(
    width: int, height: int, style: str = "full", numbers: bool = False, depth: int = 1
) -> int:
    """The longest side of a picture, in pixels, when none is asked for.

    Squares of 60 pixels on small boards, shrinking to keep the picture near 720 pixels, but
    never under 4 pixels (so a 200 × 200 board is 800 pixels plus its labels); 1000 pixels for
    the path-only style. With move ``numbers``, squares big enough for numbers 8 pixels high
    (up to a picture of 8000 pixels). A 3-D board of ``depth`` layers is as wide as its layers
    side by side.

    >>> default_size(8, 8), default_size(50, 50), default_size(200, 200), default_size(5, 5)
    (518, 746, 831, 338)
    >>> default_size(50, 50, numbers=True)
    1203
    """
    if style == "path":
        return 1000
    n = max(_columns(width, depth), height)
    sq = min(max(720 / n, 4.0), 60.0)
    if numbers:
        need = 8.0 / number_font(1.0, width * height * depth)
        sq = max(sq, min(need, 8000 / n))
    lay = _solve(width, height, sq, coordinates=True, depth=depth)
    return round(max(lay.image_width, lay.image_height))


@dataclass(frozen=True)
class Layout:
    """Where the board and its labels go, in output units (pixels unless rescaled).

    The board's top-left corner is at ``(left, top)``; square ``(x, y)`` (``y`` the rank index,
    rank 1 at the bottom) spans ``left + x * square`` to ``left + (x + 1) * square``
    horizontally and ``top + (height - 1 - y) * square`` onwards vertically. The layers of a
    3-D board (``depth`` of them) stand side by side, ``gap`` squares apart, layer 1 first:
    :attr:`columns` squares across.
    """

    width: int
    height: int
    square: float
    left: float
    top: float
    right: float
    bottom: float
    font: float  # label font size; 0 when there are no labels
    every: int  # label every this many files and ranks
    depth: int = 1
    gap: int = LAYER_GAP

    @property
    def columns(self) -> int:
        """The picture's width in squares: the layers and the gaps between them."""
        return _columns(self.width, self.depth, self.gap)

    def layer_left(self, z: int) -> float:
        """The left edge of layer ``z`` (0-based)."""
        return self.left + z * (self.width + self.gap) * self.square

    @property
    def image_width(self) -> float:
        return self.left + self.columns * self.square + self.right

    @property
    def image_height(self) -> float:
        return self.top + self.height * self.square + self.bottom

    def position(self, square: int) -> tuple[int, int]:
        """``(column, row)`` of a square index, row 0 at the top (:func:`grid_position`)."""
        return grid_position(self.width, self.height, self.gap, square)

    def point(self, p: Point) -> tuple[float, float]:
        """A point in picture units (columns and rows from the top-left corner) in pixels."""
        return self.left + p[0] * self.square, self.top + p[1] * self.square

    def centre(self, square: int) -> tuple[float, float]:
        """The centre of a square index."""
        col, row = self.position(square)
        return self.left + (col + 0.5) * self.square, self.top + (row + 0.5) * self.square

    def corner(self, square: int) -> tuple[float, float]:
        """The top-left corner of a square index."""
        col, row = self.position(square)
        return self.left + col * self.square, self.top + row * self.square

    def scaled(self, factor: float) -> Layout:
        """The same layout with every length multiplied by ``factor``."""
        return replace(
            self,
            square=self.square * factor,
            left=self.left * factor,
            top=self.top * factor,
            right=self.right * factor,
            bottom=self.bottom * factor,
            font=self.font * factor,
        )

    def file_labels(self) -> Iterator[tuple[float, str]]:
        """``(x centre, text)`` of each file label shown, below the board (each layer)."""
        for z in range(self.depth):
            left = self.layer_left(z)
            for x in _shown(self.width, self.every):
                yield left + (x + 0.5) * self.square, file_name(x)

    def rank_labels(self) -> Iterator[tuple[float, str]]:
        """``(y centre, text)`` of each rank label shown, left of the board."""
        for y in _shown(self.height, self.every):
            yield self.top + (self.height - 1 - y + 0.5) * self.square, str(y + 1)

    def layer_titles(self) -> Iterator[tuple[float, str]]:
        """``(x centre, text)`` of each layer's title above it on a 3-D board with labels:
        ``layer 1``, ``layer 2``, ... (as the text board heads them; the square ``c3:2`` is on
        layer 2), or just the number where the words would not fit over the layer.

        >>> list(layout(2, 2, 300, depth=2).layer_titles())
        [(78.24, 'layer 1'), (235.2, 'layer 2')]
        """
        if not self.font or self.depth < 2:
            return
        room = (self.width + self.gap * 0.8) * self.square
        for z in range(self.depth):
            text = f"layer {z + 1}"
            if label_width(text, self.font) > room:
                text = str(z + 1)
            yield round(self.layer_left(z) + self.width * self.square / 2, 2), text

    @property
    def layer_title_y(self) -> float:
        """The vertical centre of the layers' titles."""
        return self.top - self.font * 0.9

    @property
    def file_label_y(self) -> float:
        """The vertical centre of the file labels."""
        return self.top + self.height * self.square + self.font * 0.9

    @property
    def rank_label_x(self) -> float:
        """The right edge of the rank labels."""
        return self.left - self.font * 0.5


def _columns(width: int, depth: int, gap: int = LAYER_GAP) -> int:
    return depth * width + (depth - 1) * gap


def _shown(n: int, every: int) -> list[int]:
    """Zero-based positions whose label shows: all; every other from the first (a, c, e; 1,
    3, 5); or the first and every ``every``-th 1-based (1, 5, 10, ...). The first file and
    rank are always labelled.

    >>> _shown(6, 1), _shown(6, 2), _shown(12, 5)
    ([0, 1, 2, 3, 4, 5], [0, 2, 4], [0, 4, 9])
    """
    if every <= 2:
        return list(range(0, n, every))
    return [0, *(p - 1 for p in range(every, n + 1, every))]


def _spacing(every: int) -> int:
    """The fewest squares between two labels shown every ``every`` squares (1 to 5 is 4)."""
    return every if every <= 2 else every - 1


#: Widths of characters in label fonts, in font sizes (measured on DejaVu Sans, rounded up);
#: any other letter or digit is at most :data:`_CHAR_WIDTH`.
_WIDE_CHARS = {"m": 1.0, "w": 0.82}
_CHAR_WIDTH = 0.62


def label_width(text: str, font: float) -> float:
    """An upper bound of the width of a label's ``text`` in a font of ``font`` pixels.

    >>> label_width("a", 10), label_width("am", 10)
    (6.2, 16.2)
    """
    return round(sum(_WIDE_CHARS.get(c, _CHAR_WIDTH) for c in text) * font, 6)


def _labels_fit(width: int, height: int, sq: float, font: float, every: int) -> bool:
    """Whether labels shown every ``every`` squares of ``sq`` pixels leave a gap between
    neighbours: file names side by side, rank numbers one above another."""
    gap = 0.4 * font
    if _spacing(every) * sq < 1.15 * font + gap:
        return False
    if width > 26 * 27:  # three letters or more: bound every name as all m's
        return _spacing(every) * sq >= len(file_name(width - 1)) * _WIDE_CHARS["m"] * font + gap
    shown = _shown(width, every)
    sizes = [label_width(file_name(x), font) for x in shown]
    return all(
        (sizes[i] + sizes[i + 1]) / 2 + gap <= (shown[i + 1] - shown[i]) * sq
        for i in range(len(shown) - 1)
    )


def _solve(
    width: int,
    height: int,
    sq: float,
    coordinates: bool,
    pad: float | None = None,
    depth: int = 1,
) -> Layout:
    """The layout of squares of ``sq`` pixels: its margins, label font and label step (a 3-D
    board's labels add a row for the layers' titles on top)."""
    if not coordinates:
        pad = max(2.0, sq * 0.08) if pad is None else pad
        return Layout(width, height, sq, pad, pad, pad, pad, 0.0, 1, depth)
    font = min(max(sq * 0.4, 9.0), 16.0)
    # Neighbouring labels never touch.
    every = next(
        (s for s in _LABEL_STEPS if _labels_fit(width, height, sq, font, s)), _LABEL_STEPS[-1]
    )
    rank_chars = len(str(height))
    left = font * (0.62 * rank_chars + 1.0)
    bottom = font * 1.8
    pad = font * 0.6
    # As much margin across as down, so that a square board makes a square picture.
    right, top = pad + max(0.0, bottom - left), pad + max(0.0, left - bottom)
    if depth > 1:
        top = max(top, pad) + font * 1.8
    return Layout(width, height, sq, left, top, right, bottom, font, int(every), depth)


def layout(
    width: int,
    height: int,
    size: float,
    *,
    coordinates: bool = True,
    pad: float | None = None,
    depth: int = 1,
) -> Layout:
    """The layout whose longest side is ``size`` pixels, labels included when ``coordinates``.

    Label sizes follow the square size (9 to 16 pixels); when squares are too small for every
    label, only every 2nd, 5th, 10th, ... file and rank is labelled. Without labels, the board
    has a margin of ``pad`` pixels (by default a little, for the border line). A 3-D board's
    ``depth`` layers stand side by side, :data:`LAYER_GAP` squares apart.

    >>> lay = layout(200, 200, 822)
    >>> lay.every, round(lay.square, 2)
    (5, 3.95)
    """
    if size <= 0 or not math.isfinite(size):
        raise InvalidInputError(f"picture size must be a positive number of pixels, got {size}")
    columns = _columns(width, depth)
    sq = size / max(columns, height)
    for _ in range(6):
        lay = _solve(width, height, sq, coordinates, pad, depth)
        new = min((size - lay.left - lay.right) / columns, (size - lay.top - lay.bottom) / height)
        if new <= 0:
            raise InvalidInputError(
                f"a picture of {size:g} pixels is too small for a {width}x{height} board "
                f"with labels; ask for a larger size or leave the labels out"
            )
        if abs(new - sq) < 1e-9:
            break
        sq = new
    lay = _solve(width, height, sq, coordinates, pad, depth)
    # The margins were chosen for the last square size: spend any rounding slack on the margins
    # so that the longest side is exactly ``size``.
    return _fit(lay, size)


def _fit(lay: Layout, size: float) -> Layout:
    extra_w = size - lay.image_width
    extra_h = size - lay.image_height
    if lay.image_width >= lay.image_height:
        return replace(lay, right=lay.right + extra_w)
    return replace(lay, bottom=lay.bottom + extra_h)


def snapped(lay: Layout, most_lost: float = 0.08) -> Layout:
    """The layout with whole-pixel squares and margins, the image size unchanged, or the
    layout as it is when whole-pixel squares would shrink the board by more than
    ``most_lost`` (a fraction).

    For pictures that are not smoothed: every square then has the same number of pixels. The
    pixels left over go to the margins, keeping the board centred in its frame of labels.

    >>> snapped(layout(8, 8, 500)).square, round(snapped(layout(200, 200, 822)).square, 2)
    (57.0, 3.95)
    """
    sq = math.floor(lay.square + 1e-9)
    w, h = round(lay.image_width), round(lay.image_height)
    if sq < 2 or sq < lay.square * (1 - most_lost):
        return replace(
            lay,
            right=w - lay.left - lay.columns * lay.square,
            bottom=h - lay.top - lay.height * lay.square,
        )
    left = math.floor(lay.left + (lay.square - sq) * lay.columns / 2)
    top = math.floor(lay.top + (lay.square - sq) * lay.height / 2)
    return replace(
        lay,
        square=float(sq),
        left=float(left),
        top=float(top),
        right=float(w - left - sq * lay.columns),
        bottom=float(h - top - sq * lay.height),
    )


def layout_for(
    width: int, height: int, size: float, style: str, coordinates: bool, depth: int = 1
) -> Layout:
    """:func:`layout` for a picture of ``style`` (``full`` or ``path``): the path-only style has
    no labels, and room around the board for the start and end markers."""
    if style == "path":
        return layout(width, height, size, coordinates=False, pad=PATH_PAD, depth=depth)
    return layout(width, height, size, coordinates=coordinates, depth=depth)


def line_width(square: float, style: str, numbers: bool = False) -> float:
    """The path's stroke width for squares of ``square`` units."""
    if style == "path":
        return max(square * 0.35, 0.5)
    w = max(square * 0.07, min(1.5, square * 0.3))
    return w * 0.7 if numbers else w


def marker_radius(square: float, style: str) -> float:
    """The radius of the start and end markers."""
    if style == "path":
        return max(square * 1.5, 5.0)
    # At least 5.5 pixels to be seen, but never past its square's edges (nor the border's).
    return max(square * 0.28, min(5.5, square * 0.5))


def number_font(square: float, count: int) -> float:
    """The font size of move numbers in squares of ``square`` units, for ``count`` moves."""
    digits = max(len(str(count)), 2)
    return min(square * 0.34, square * 0.85 / (0.6 * digits))


def given_font(square: float, count: int) -> float:
    """The font size of a number puzzle's numbers in squares of ``square`` units, for numbers
    up to ``count``: as big as fits, for print (no path runs under them).

    >>> given_font(10, 64), given_font(10, 144), given_font(10, 1024)
    (5.0, 4.72, 3.54)
    """
    digits = max(len(str(count)), 2)
    return round(min(square * 0.5, square * 0.85 / (0.6 * digits)), 2)


class TourLook(TypedDict, total=False):
    """How a tour is drawn: the options that :func:`~knightstour.render.svg.tour_svg` (which
    says what each does) and :func:`~knightstour.render.raster.tour_image` share; each may be
    left out (:data:`TOUR_LOOK` holds the defaults)."""

    numbers: bool
    coordinates: bool
    gradient: bool | Sequence[str]
    style: str
    markers: bool
    closing: bool
    colors: Mapping[str, str] | None


#: The look of a tour drawn with no options (:class:`TourLook`).
TOUR_LOOK: TourLook = {
    "numbers": False,
    "coordinates": True,
    "gradient": True,
    "style": "auto",
    "markers": True,
    "closing": True,
    "colors": None,
}


@dataclass(frozen=True)
class NumberSheet:
    """Numbers written on the squares of a board (a number puzzle, or its solution): what
    :func:`~knightstour.render.svg.numbers_svg` and :func:`~knightstour.render.raster.numbers_image`
    draw.

    ``numbers`` maps a square to its number; the ``strong`` squares' numbers (the givens) are
    bold, the others lighter; an optional pale ``path`` runs through the squares in order
    (back to the first when ``closed``) under the numbers. ``coordinates``: the file and rank
    labels; ``colors`` overrides any of :data:`PRINT_COLORS`.

    >>> NumberSheet(Board(5, 5), {0: 1}, strong={0}).palette()["number"] == PRINT_COLORS["number"]
    True
    """

    board: Board
    numbers: Mapping[int, int]
    strong: Collection[int] = frozenset()
    path: Sequence[int] | None = None
    closed: bool = False
    coordinates: bool = True
    colors: Mapping[str, str] | None = None

    def palette(self) -> dict[str, str]:
        """The colours of the sheet: the printable ones, with ``colors`` over them."""
        return {**PRINT_COLORS, **(self.colors or {})}


def unvisited_runs(board: Board, indices: Sequence[int]) -> list[tuple[int, int, int]]:
    """The squares that ``indices`` (a path) never visits, holes aside, as runs along the
    ranks: ``(x, y, length)``, ``y`` counting the ranks of every layer of a 3-D board in turn
    (the run starts on square ``y * width + x``). Empty for a tour; for a partial path, what
    it left.

    >>> from knightstour.board import Board
    >>> unvisited_runs(Board(3, 3), [0, 5, 6])
    [(1, 0, 2), (0, 1, 2), (1, 2, 2)]
    """
    if len(indices) >= board.size:
        return []
    import numpy as np  # a light dependency of knightstour already; only partial paths need it

    seen = np.zeros(board.area, dtype=bool)
    seen[np.asarray(indices, dtype=np.int64)] = True
    if board.holes:
        seen[list(board.holes)] = True
    grid = seen.reshape(board.depth * board.height, board.width)
    runs = []
    for y in np.flatnonzero(~grid.all(axis=1)).tolist():
        row = np.concatenate(([True], grid[y], [True]))
        edges = np.flatnonzero(np.diff(row.astype(np.int8)))
        runs += [(int(a), y, int(b - a)) for a, b in zip(edges[::2], edges[1::2], strict=True)]
    return runs


def animation_timing(
    moves: int,
    frame_ms: int | None = None,
    moves_per_frame: int | None = None,
    *,
    min_frame_ms: int = 20,
    tick_ms: int = 10,
) -> tuple[int, int]:
    """``(frame_ms, moves_per_frame)`` of an animation of ``moves`` moves: what is given is kept,
    what is not (None) is chosen so that the moves take at most ``MAX_ANIMATION_MS -
    DEFAULT_FINAL_MS`` (27 s): :data:`DEFAULT_FRAME_MS` (500 ms) a move on small boards,
    shorter frames (down to ``min_frame_ms``, in whole ``tick_ms``) and then more moves a frame
    on big ones.

    >>> animation_timing(24), animation_timing(63), animation_timing(2499)
    ((500, 1), (420, 1), (20, 2))
    >>> animation_timing(2499, frame_ms=100), animation_timing(2499, moves_per_frame=1)
    ((100, 10), (20, 1))
    """
    budget = MAX_ANIMATION_MS - DEFAULT_FINAL_MS
    if moves_per_frame is None:
        slowest = frame_ms if frame_ms is not None else min_frame_ms
        moves_per_frame = max(1, -(-moves * slowest // budget))
    if frame_ms is None:
        frames = max(1, -(-moves // moves_per_frame))
        frame_ms = budget // frames // tick_ms * tick_ms
        frame_ms = min(max(frame_ms, min_frame_ms), DEFAULT_FRAME_MS)
    return frame_ms, moves_per_frame
