"""PNG pictures and animated GIFs of tours, drawn with Pillow.

>>> import io, knightstour as kt
>>> from PIL import Image
>>> tour = kt.solve("8x8", start="a1", closed=True)
>>> tour_image(tour, size=300).size
(300, 300)
>>> buf = io.BytesIO()
>>> write_gif(tour, buf, size=200)
64
>>> gif = Image.open(buf)
>>> gif.n_frames, gif.info["duration"]
(64, 420)

The pictures look like the SVG ones (:mod:`knightstour.render.svg`): the same layout and
colours from :mod:`knightstour.render.style`. The PNG is drawn three times too large and
scaled down, so lines and text are smooth.

The GIF is written as it is drawn, so memory stays flat however long the tour: one palette
image of the whole picture is kept, each frame draws its moves on it, and only the rectangle
that changed is encoded and written (GIF frames may cover part of the picture and leave the
rest as it was). The first frame shows the board and the start square; each later frame adds
``moves_per_frame`` moves and moves a ring to the knight's square; the last frame adds the
closing move of a closed tour and the end marker, and is held ``final_ms``. By default the
whole animation lasts at most 30 seconds (:func:`~knightstour.render.style.animation_timing`):
500 ms a move on small boards, shorter frames and more moves a frame on big ones.

A wrapped board's moves across a seam are split lines (out to the board's edge, in from the
opposite edge); a 3-D board's layers stand side by side, layer 1 on the left, each titled above it,
as in the SVG.

Every picture of a tour is also one of a :class:`~knightstour.tour.PartialTour`, the path of a
search that stopped: the squares it never reached are tinted, and its end marker is where it
stopped.
"""

from __future__ import annotations

import math
import os
import stat
import struct
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from typing import IO, TYPE_CHECKING, Any, Unpack

from PIL import GifImagePlugin, Image, ImageDraw, ImageFont

from knightstour.errors import InvalidInputError
from knightstour.progress import Progress
from knightstour.render import style as st

if TYPE_CHECKING:
    from typing import TypeAlias

    from knightstour.board import Board
    from knightstour.tour import PartialTour, Tour

    Drawable: TypeAlias = Tour | PartialTour

__all__ = [
    "board_image",
    "frame_count",
    "label_font",
    "numbers_image",
    "tour_image",
    "write_gif",
    "write_png",
]

FileLike = str | os.PathLike[str] | IO[bytes]

#: GIF delays are whole hundredths of a second, and browsers show frames shorter than 20 ms
#: for 100 ms, so frames are at least this long.
MIN_FRAME_MS = 20
MAX_FRAME_MS = 655_350


def board_image(
    board: Board,
    *,
    size: int | None = None,
    coordinates: bool = True,
    colors: Mapping[str, str] | None = None,
) -> Image.Image:
    """An RGB picture of the empty board, ``size`` pixels on its longest side."""
    pic = _Raster(board, size, coordinates, "full", colors, supersample=True)
    pic.draw_board()
    return pic.result()


def tour_image(
    tour: Drawable,
    *,
    size: int | None = None,
    progress: Progress | None = None,
    **look: Unpack[st.TourLook],
) -> Image.Image:
    """An RGB picture of ``tour``, ``size`` pixels on its longest side.

    ``look``: the options of :func:`~knightstour.render.svg.tour_svg`
    (:class:`~knightstour.render.style.TourLook`); ``progress(done, total)`` is called as the
    path is drawn.
    """
    unknown = sorted(look.keys() - st.TOUR_LOOK.keys())
    if unknown:
        raise TypeError(f"tour_image() got an unexpected keyword argument {unknown[0]!r}")
    lk: st.TourLook = {**st.TOUR_LOOK, **look}
    numbers = lk["numbers"]
    pic = _Raster(
        tour.board, size, lk["coordinates"], lk["style"], lk["colors"], supersample=True,
        numbers=numbers,
    )  # fmt: skip
    pic.draw_board()
    indices = tour.indices.tolist()
    pic.draw_unvisited(indices)
    pic.draw_path(indices, lk["gradient"], numbers, progress)
    if lk["closing"] and getattr(tour, "closed", False):
        pic.draw_closing(indices)
    if lk["markers"]:
        pic.draw_markers(indices[0], indices[-1], numbers)
    if numbers:
        pic.draw_numbers(indices)
    return pic.result()


def numbers_image(sheet: st.NumberSheet, size: int | None = None) -> Image.Image:
    """An RGB picture of the numbers of ``sheet``, ``size`` pixels on its longest side: the
    picture of :func:`~knightstour.render.svg.numbers_svg`, the givens bold, the others lighter.

    >>> from knightstour.board import Board
    >>> numbers_image(st.NumberSheet(Board(5, 5), {0: 1}, strong={0}), 200).size
    (200, 200)
    """
    path = sheet.path
    pic = _Raster(sheet.board, size, sheet.coordinates, "full", sheet.palette(), supersample=True)
    pic.draw_board()
    if path:
        indices = list(path)
        pic.draw_path(indices, False, False, None)
        if sheet.closed:
            pic.draw_closing(indices)
    pic.draw_given_numbers(sheet.numbers, sheet.strong, halo=bool(path))
    return pic.result()


def label_font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font of the pictures' labels and numbers, ``px`` pixels high (Pillow's own)."""
    return _font(px)


def write_png(tour: Drawable, file: FileLike, **options: Any) -> None:
    """Write :func:`tour_image` (same options) as a PNG to a path or binary file."""
    image = tour_image(tour, **options)
    with _target(file) as f:
        image.save(f, format="PNG", optimize=False, compress_level=6)


def frame_count(moves: int, moves_per_frame: int = 1) -> int:
    """How many frames :func:`write_gif` makes for a path of ``moves`` moves.

    >>> frame_count(63), frame_count(63, 10), frame_count(0)
    (64, 8, 1)
    """
    return 1 + -(-moves // moves_per_frame)


def write_gif(
    tour: Drawable,
    file: FileLike,
    *,
    size: int | None = None,
    coordinates: bool = True,
    gradient: bool | Sequence[str] = True,
    style: str = "auto",
    colors: Mapping[str, str] | None = None,
    frame_ms: int | None = None,
    final_ms: int = st.DEFAULT_FINAL_MS,
    moves_per_frame: int | None = None,
    knight: bool = True,
    loop: int = 0,
    progress: Progress | None = None,
) -> int:
    """Write an animated GIF of ``tour``, one move (or ``moves_per_frame``) a frame.

    Each frame shows ``frame_ms`` milliseconds and the last ``final_ms`` (rounded to tens of
    milliseconds, as GIF counts time); ``knight`` rings the knight's square; ``loop`` is how
    many times to play (0: for ever). ``frame_ms`` and ``moves_per_frame`` left out are chosen
    so that the whole animation lasts at most 30 s (500 ms a move on small boards; see
    :func:`~knightstour.render.style.animation_timing`). Frames are written as they are drawn: the memory needed
    is one byte a pixel of the picture, whatever the length of the tour. Returns the number
    of frames, :func:`frame_count`.
    """
    moves = len(tour) - 1
    if moves_per_frame is not None:
        if isinstance(moves_per_frame, bool) or not isinstance(moves_per_frame, int):
            raise InvalidInputError(f"moves_per_frame must be an integer, got {moves_per_frame!r}")
        if moves_per_frame < 1:
            raise InvalidInputError(f"moves_per_frame must be at least 1, got {moves_per_frame}")
    if frame_ms is not None and (isinstance(frame_ms, bool) or not isinstance(frame_ms, int)):
        raise InvalidInputError(f"frame_ms must be a whole number of milliseconds: {frame_ms!r}")
    frame_ms, moves_per_frame = st.animation_timing(
        moves, frame_ms, moves_per_frame, min_frame_ms=MIN_FRAME_MS
    )
    for name, ms in (("frame_ms", frame_ms), ("final_ms", final_ms)):
        if not MIN_FRAME_MS <= ms <= MAX_FRAME_MS:
            raise InvalidInputError(
                f"{name} must be {MIN_FRAME_MS} to {MAX_FRAME_MS} milliseconds, got {ms} "
                f"(browsers show shorter GIF frames for 100 ms; show more moves a frame instead)"
            )
    if not 0 <= loop <= 65535:
        raise InvalidInputError(f"loop must be 0 (for ever) to 65535, got {loop}")
    indices = tour.indices.tolist()
    anim = _Animation(
        tour.board, size, coordinates, style, colors, gradient=gradient, moves=len(indices) - 1
    )
    with _target(file) as f:
        return anim.write(
            f,
            indices,
            bool(getattr(tour, "closed", False)),
            frame_ms,
            final_ms,
            moves_per_frame,
            knight,
            loop,
            progress,
        )


# -- files ------------------------------------------------------------------------------------


@contextmanager
def _target(file: FileLike) -> Iterator[IO[bytes]]:
    """A binary stream: ``file`` itself, or a path written through a temporary file that
    replaces it only when the writing succeeded. A symbolic link is followed (its target is
    replaced, the link kept); a FIFO or a character device is written into, never replaced;
    any other special file (a block device, a socket) is refused."""
    if hasattr(file, "write"):
        yield file  # type: ignore[misc]
        return
    path = os.fspath(file)  # type: ignore[arg-type]
    if not path:
        raise InvalidInputError("an empty file name: give a file name")
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        with open(path, "wb") as f:
            yield f
        return
    if mode is not None and not stat.S_ISREG(mode):
        raise InvalidInputError(f"{path} is not a regular file: refusing to replace it")
    path = os.path.realpath(path)
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.part")
    try:
        with open(tmp, "wb") as f:
            yield f
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


# -- drawing ----------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=max(px, 1))
    except (TypeError, OSError, ImportError):  # Pillow without FreeType: the bitmap font
        return ImageFont.load_default()


def _supersample(long_side: int) -> int:
    return 3 if long_side <= 1500 else 2 if long_side <= 3000 else 1


class _Raster:
    """A picture being drawn: the pixel layout (times ``ss`` when supersampled) and colours."""

    def __init__(
        self,
        board: Board,
        size: int | None,
        coordinates: bool,
        style: str,
        colors: Mapping[str, str] | None,
        *,
        supersample: bool,
        numbers: bool = False,
    ) -> None:
        st.require_drawable(board)
        self.board = board
        self.style = st.resolve_style(style, board.width, board.height)
        if size is None:
            size = st.default_size(board.width, board.height, self.style, numbers, board.depth)
        if isinstance(size, bool) or not isinstance(size, int) or size < 16:
            raise InvalidInputError(
                f"picture size must be a whole number of pixels >= 16: {size!r}"
            )
        lay = st.layout_for(board.width, board.height, size, self.style, coordinates, board.depth)
        # Smoothed pictures may have squares of fractional size; the GIF's are whole pixels.
        self.px = (
            replace(
                lay,
                right=round(lay.image_width) - lay.image_width + lay.right,
                bottom=round(lay.image_height) - lay.image_height + lay.bottom,
            )
            if supersample
            else st.snapped(lay)
        )
        self.ss = _supersample(size) if supersample else 1
        self.lay = self.px.scaled(self.ss)
        self.colors = st.colors(colors)
        self.rgb = {k: st.hex_rgb(v) for k, v in self.colors.items()}
        w, h = round(self.px.image_width), round(self.px.image_height)
        self.image = Image.new("RGB", (w * self.ss, h * self.ss), self.rgb["background"])
        self.draw = ImageDraw.Draw(self.image)
        self.lw = st.line_width(self.px.square, self.style) * self.ss
        self.path_colors: list[str] = []

    def result(self) -> Image.Image:
        if self.ss == 1:
            return self.image
        return self.image.reduce(self.ss)

    # -- the board ------------------------------------------------------------------------

    def draw_board(self) -> None:
        ink = self.rgb.__getitem__
        lay, b, d = self.lay, self.board, self.draw
        width = max(1, round(self.ss * 0.75)) if self.style == "full" else max(1, self.ss // 2)
        for z in range(b.depth):  # the layers of a 3-D board side by side
            left = lay.layer_left(z)
            x0, y0 = round(left), round(lay.top)
            x1, y1 = round(left + b.width * lay.square), round(lay.top + b.height * lay.square)
            if self.style == "full":
                d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=ink("light"))
                # Squares from rounded edges: squares of fractional size tile without seams.
                xs = [round(left + x * lay.square) for x in range(b.width + 1)]
                ys = [round(lay.top + (b.height - y) * lay.square) for y in range(b.height + 1)]
                for y in range(b.height):
                    for x in range((y + z) & 1, b.width, 2):  # a1 is dark: (x + y + z) even
                        d.rectangle((xs[x], ys[y + 1], xs[x + 1] - 1, ys[y] - 1), fill=ink("dark"))
            d.rectangle(
                (x0 - width, y0 - width, x1 - 1 + width, y1 - 1 + width),
                outline=ink("border"),
                width=width,
            )
        if self.style == "full":
            for h in b.holes:
                d.rectangle(self._cell(h), fill=ink("hole"))
        if lay.font:
            self._labels(ink("coord"))

    def _labels(self, ink: Any) -> None:
        lay = self.lay
        font = _font(round(lay.font))
        fy = lay.file_label_y
        for x, text in lay.file_labels():
            self._text((x, fy), text, font, ink, "m")
        rx = lay.rank_label_x
        for y, text in lay.rank_labels():
            self._text((rx, y), text, font, ink, "r")
        ty = lay.layer_title_y
        for x, text in lay.layer_titles():  # a 3-D board's layers: "layer 1", ...
            self._text((x, ty), text, font, ink, "m")

    def _text(
        self,
        xy: tuple[float, float],
        text: str,
        font: Any,
        ink: Any,
        align: str,
    ) -> None:
        """Draw ``text`` centred vertically on ``xy``, centred (``m``) or ending (``r``) there."""
        left, top, right, bottom = self.draw.textbbox((0, 0), text, font=font)
        x = xy[0] - (right + left) / 2 if align == "m" else xy[0] - right
        self.draw.text((x, xy[1] - (bottom + top) / 2), text, font=font, fill=ink)

    def _cell(self, square: int) -> tuple[int, int, int, int]:
        """The pixel box of a square, from rounded edges (as the board's squares are drawn)."""
        lay = self.lay
        col, row = lay.position(square)
        x0, x1 = round(lay.left + col * lay.square), round(lay.left + (col + 1) * lay.square)
        y0, y1 = round(lay.top + row * lay.square), round(lay.top + (row + 1) * lay.square)
        return x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)

    def move_lines(self, a: int, b: int) -> list[tuple[tuple[float, float], ...]]:
        """The move from ``a`` to ``b`` as lines in pixels: one from centre to centre, or the
        pieces of a move across a seam (:func:`~knightstour.render.style.move_pieces`)."""
        pieces = st.move_pieces(self.board, a, b)
        if pieces is None:
            return [(self.lay.centre(a), self.lay.centre(b))]
        return [tuple(map(self.lay.point, piece)) for piece in pieces]

    # -- the path -------------------------------------------------------------------------

    def unvisited_ink(self, light: bool) -> tuple[int, int, int]:
        """The colour of an unvisited square: its own tinted by ``colors['unvisited']``."""
        c = self.colors
        ground = (c["light"] if light else c["dark"]) if self.style == "full" else c["background"]
        return st.hex_rgb(st.ramp((ground, c["unvisited"]), st.UNVISITED_OPACITY))

    def draw_unvisited(self, indices: list[int], ink: Callable[[bool], Any] | None = None) -> None:
        """Tint the squares a partial path never reached (nothing for a tour)."""
        runs = st.unvisited_runs(self.board, indices)
        if not runs:
            return
        ink = ink or self.unvisited_ink
        lay, b = self.lay, self.board
        if self.style != "full":  # one colour: a rectangle a run
            for x, y, n in runs:
                x0, y0 = lay.corner(y * b.width + x)
                box = (x0, y0, x0 + n * lay.square - 1, y0 + lay.square - 1)
                self.draw.rectangle(tuple(map(round, box)), fill=ink(True))
            return
        for x0, y, n in runs:
            for s in range(y * b.width + x0, y * b.width + x0 + n):
                self.draw.rectangle(self._cell(s), fill=ink(b.colour(s) == 1))

    def band_colors(
        self, moves: int, gradient: bool | Sequence[str]
    ) -> tuple[list[int], list[str]]:
        bounds = st.bands(moves) if moves > 0 else [0]
        return bounds, st.band_colors(len(bounds) - 1, gradient, self.colors["path"])

    def draw_path(
        self,
        indices: list[int],
        gradient: bool | Sequence[str],
        numbers: bool,
        progress: Progress | None,
    ) -> None:
        bounds, cols = self.band_colors(len(indices) - 1, gradient)
        lw = st.line_width(self.px.square, self.style, numbers) * self.ss
        width = max(1, round(lw))
        point = self.lay.point
        nb = len(bounds) - 1
        if numbers:
            # Lighter lines under the numbers, as the SVG's stroke-opacity does.
            cols = [st.ramp((c, self.colors["light"]), 0.35) for c in cols]
        for b in range(nb):
            ink = st.hex_rgb(cols[b])
            for _first, _last, lines in st.strokes(self.board, indices, bounds[b], bounds[b + 1]):
                for line in lines:
                    pts = [point(p) for p in line]
                    self.draw.line(pts, fill=ink, width=width, joint="curve")
                    if width > 2:
                        r = width / 2
                        for x, y in (pts[0], pts[-1]):
                            self.draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
            if progress:
                progress(b + 1, nb)
        self.path_colors = cols

    def draw_closing(self, indices: list[int], ink: Any = None, width: int | None = None) -> None:
        if len(indices) < 3 or not self.board.is_move(indices[-1], indices[0]):
            return
        if ink is None:
            ink = st.hex_rgb(self.path_colors[-1]) if self.path_colors else self.rgb["path"]
        w = width or max(1, round(self.lw))
        for a, b in self.move_lines(indices[-1], indices[0]):
            for p, q in _dashes(a, b, self.lw * 2, self.lw * 1.6):
                self.draw.line((p, q), fill=ink, width=w)

    def marker_boxes(self, first: int, last: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        r = st.marker_radius(self.px.square, self.style) * self.ss
        sx, sy = self.lay.centre(first)
        ex, ey = self.lay.centre(last)
        h = r * 0.85
        return (sx - r, sy - r, sx + r, sy + r), (ex - h, ey - h, ex + h, ey + h)

    def draw_markers(
        self,
        first: int,
        last: int,
        numbers: bool = False,
        ink: Callable[[str], Any] | None = None,
        which: str = "both",
    ) -> None:
        ink = ink or self.rgb.__getitem__
        start, end = self.marker_boxes(first, last)
        edge = max(1, round(max(self.lw * 0.5, 0.6 * self.ss)))
        if numbers:
            r = self.lay.square * 0.44
            sx, sy = self.lay.centre(first)
            ex, ey = self.lay.centre(last)
            w = max(1, round(max(self.lw, 1.2 * self.ss)))
            start, end = (sx - r, sy - r, sx + r, sy + r), (ex - r, ey - r, ex + r, ey + r)
            self.draw.ellipse(start, outline=ink("start"), width=w)
            if last != first:
                self.draw.rectangle(end, outline=ink("end"), width=w)
            return
        if which in ("both", "start"):
            self.draw.ellipse(start, fill=ink("start"), outline=ink("marker-edge"), width=edge)
        if which in ("both", "end") and last != first:
            self.draw.rectangle(end, fill=ink("end"), outline=ink("marker-edge"), width=edge)

    def draw_given_numbers(
        self, numbers: Mapping[int, int], strong: Collection[int], halo: bool
    ) -> None:
        """A number puzzle's numbers, centred on their squares: the ``strong`` ones bold (a
        stroke of their own colour), the others in the lighter ``filled`` colour; with a white
        ``halo`` when a path runs under them."""
        fs = st.given_font(self.lay.square, self.board.size)
        font = _font(max(1, round(fs)))
        bold = max(1, round(fs * 0.025))
        ink, filled = self.rgb["number"], st.hex_rgb(st.FILLED_COLOR)
        for s, k in sorted(numbers.items()):
            x, y = self.lay.centre(s)
            text = str(k)
            width = bold if s in strong else 0
            if halo:
                self._centred((x, y), text, font, self.rgb["number-halo"], width + round(fs * 0.11))
            colour = ink if s in strong else filled
            self._centred((x, y), text, font, colour, width, colour)

    def _centred(
        self,
        xy: tuple[float, float],
        text: str,
        font: Any,
        ink: Any,
        stroke: int = 0,
        stroke_ink: Any = None,
    ) -> None:
        """Draw ``text`` centred on ``xy``, thickened by a ``stroke`` (bold, or a halo)."""
        box = self.draw.textbbox((0, 0), "0123456789", font=font)
        left, _, right, _ = self.draw.textbbox((0, 0), text, font=font)
        x = xy[0] - (right + left) / 2
        y = xy[1] - (box[3] + box[1]) / 2
        self.draw.text(
            (x, y),
            text,
            font=font,
            fill=ink,
            stroke_width=stroke,
            stroke_fill=stroke_ink if stroke_ink is not None else ink,
        )

    def draw_numbers(self, indices: list[int]) -> None:
        fs = st.number_font(self.lay.square, len(indices))
        stamp = _DigitStamp(_font(max(1, round(fs))), max(1, round(fs * 0.11)))
        ink, halo = self.rgb["number"], self.rgb["number-halo"]
        centre = self.lay.centre
        for k, s in enumerate(indices, 1):
            stamp.stamp(self.image, centre(s), str(k), ink, halo)


class _DigitStamp:
    """Move numbers pasted a digit at a time from masks made once: tens of thousands of
    numbers take a second, where drawing each as text (with its halo) takes half a minute."""

    def __init__(self, font: Any, halo_width: int) -> None:
        digits = "0123456789"
        probe = ImageDraw.Draw(Image.new("L", (1, 1)))
        _, top, _, bottom = probe.textbbox((0, 0), digits, font=font, stroke_width=halo_width)
        height = bottom - top
        self.mid = height / 2  # the digits' vertical centre, from the masks' top row
        self.pad = halo_width  # the pen starts this far into each mask
        self.advance = {d: font.getlength(d) for d in digits}
        self.fill: dict[str, Image.Image] = {}
        self.halo: dict[str, Image.Image] = {}
        for d in digits:
            w = math.ceil(self.advance[d]) + 2 * halo_width + 2
            for masks, stroke in ((self.fill, 0), (self.halo, halo_width)):
                m = Image.new("L", (w, math.ceil(height)))
                ImageDraw.Draw(m).text(
                    (halo_width, -top), d, font=font, fill=255, stroke_width=stroke, stroke_fill=255
                )
                masks[d] = m

    def stamp(
        self, image: Image.Image, xy: tuple[float, float], text: str, ink: Any, halo: Any
    ) -> None:
        """Paste ``text`` (digits) centred on ``xy``: all the halos, then the digits."""
        x0 = xy[0] - sum(self.advance[d] for d in text) / 2 - self.pad
        y = round(xy[1] - self.mid)
        for masks, colour in ((self.halo, halo), (self.fill, ink)):
            x = x0
            for d in text:
                image.paste(colour, (round(x), y), masks[d])
                x += self.advance[d]


def _dashes(
    a: tuple[float, float], b: tuple[float, float], on: float, off: float
) -> Iterator[tuple[tuple[float, float], tuple[float, float]]]:
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0 or on <= 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    t = 0.0
    while t < length:
        e = min(t + on, length)
        yield (x0 + ux * t, y0 + uy * t), (x0 + ux * e, y0 + uy * e)
        t = e + off


# -- the animation ----------------------------------------------------------------------------


class _Animation(_Raster):
    """A GIF drawn on one palette image, written a changed rectangle at a time."""

    def __init__(self, *picture: Any, gradient: bool | Sequence[str], moves: int) -> None:
        """``picture``: the board, size, coordinates, style and colours, as for :class:`_Raster`
        (never supersampled: a GIF's squares are whole pixels)."""
        super().__init__(*picture, supersample=False)
        self.bounds, band_cols = self.band_colors(moves, gradient)
        # The palette: the named colours, a ramp for smooth label text, then the bands.
        names = list(self.colors)
        entries = [self.rgb[n] for n in names]
        self.index = {n: i for i, n in enumerate(names)}
        bg, fg = self.colors["background"], self.colors["coord"]
        entries += [st.hex_rgb(st.ramp((bg, fg), k / 7)) for k in range(1, 7)]
        entries += [self.unvisited_ink(True), self.unvisited_ink(False)]
        self.band0 = len(entries)
        entries += [st.hex_rgb(c) for c in band_cols]
        assert len(entries) <= 256
        flat = [v for rgb in entries for v in rgb]
        self.palette = bytes(flat + [0] * (768 - len(flat)))

    def ink(self, name: str) -> int:
        return self.index[name]

    def _background(self, indices: list[int]) -> Image.Image:
        """The first frame's picture as palette indices: the board, labels, the squares a
        partial path never reaches."""
        self.draw_board()  # in RGB, with smooth text
        self.draw_unvisited(indices)
        pal = Image.new("P", (1, 1))
        pal.putpalette(self.palette)
        canvas = self.image.quantize(palette=pal, dither=Image.Dither.NONE)
        self.image = canvas
        self.draw = ImageDraw.Draw(canvas)
        return canvas

    def write(
        self,
        f: IO[bytes],
        indices: list[int],
        closed: bool,
        frame_ms: int,
        final_ms: int,
        per_frame: int,
        knight: bool,
        loop: int,
        progress: Progress | None,
    ) -> int:
        canvas = self._background(indices)
        w, h = canvas.size
        moves = len(indices) - 1
        total = frame_count(moves, per_frame)
        f.write(b"GIF89a" + struct.pack("<HHBBB", w, h, 0xF7, self.ink("background"), 0))
        f.write(self.palette)
        f.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00")

        start_box, end_box = self.marker_boxes(indices[0], indices[-1])
        self.draw_markers(indices[0], indices[-1], ink=self.ink, which="start")
        lw = max(1, round(self.lw))
        r, half = lw / 2, lw / 2 + 1
        ring_r = (
            max(self.lay.square * 0.45, 7.0)
            if self.style == "full"
            else (start_box[2] - start_box[0]) * 0.65
        )
        ring_w = max(2, round(self.lw * 0.8))
        centre = self.lay.centre
        band = 0
        ring: tuple[float, ...] | None = None

        def emit(box: tuple[float, float, float, float], at: int | None, ms: int) -> None:
            nonlocal ring
            new_ring = None
            if knight and at is not None:
                cx, cy = centre(at)
                new_ring = (cx - ring_r, cy - ring_r, cx + ring_r, cy + ring_r)
            boxes = [box] + [b for b in (ring, new_ring) if b is not None]
            x0 = max(0, math.floor(min(b[0] for b in boxes)) - 1)
            y0 = max(0, math.floor(min(b[1] for b in boxes)) - 1)
            x1 = min(w, math.ceil(max(b[2] for b in boxes)) + 2)
            y1 = min(h, math.ceil(max(b[3] for b in boxes)) + 2)
            frame = canvas.crop((x0, y0, x1, y1))
            if new_ring is not None:
                ImageDraw.Draw(frame).ellipse(
                    (new_ring[0] - x0, new_ring[1] - y0, new_ring[2] - x0, new_ring[3] - y0),
                    outline=self.ink("knight"),
                    width=ring_w,
                )
            for chunk in GifImagePlugin.getdata(frame, offset=(x0, y0), duration=ms, disposal=1):
                f.write(chunk)
            ring = new_ring

        first_ms = final_ms if total == 1 else frame_ms
        if total == 1:
            self.draw_markers(indices[0], indices[-1], ink=self.ink, which="end")
        emit((0, 0, w, h), indices[0] if total > 1 else None, first_ms)
        if progress:
            progress(1, total)
        d = self.draw
        for fr in range(1, total):
            lo, hi = (fr - 1) * per_frame, min(fr * per_frame, moves)
            box = [math.inf, math.inf, -math.inf, -math.inf]
            for i in range(lo, hi):
                while self.bounds[band + 1] <= i:
                    band += 1
                lines = self.move_lines(indices[i], indices[i + 1])
                for k, (a, b) in enumerate(lines):
                    d.line((a, b), fill=self.band0 + band, width=lw)
                    if lw > 2:  # round joins (and the first move's round start)
                        ends = (b, a) if i == 0 or k > 0 else (b,)
                        for x, y in ends:
                            d.ellipse((x - r, y - r, x + r, y + r), fill=self.band0 + band)
                    box = _union(box, _segment_box(a, b, half))
            last = fr == total - 1
            if last and closed:
                self.draw_closing(indices, ink=self.band0 + len(self.bounds) - 2, width=lw)
                for a, b in self.move_lines(indices[-1], indices[0]):
                    box = _union(box, _segment_box(a, b, half))
            # Markers stay on top of the path, as in the still pictures.
            if _overlaps(box, start_box):
                self.draw_markers(indices[0], indices[-1], ink=self.ink, which="start")
                box = _union(box, start_box)
            if last:
                self.draw_markers(indices[0], indices[-1], ink=self.ink, which="end")
                box = _union(box, end_box)
            x0, y0, x1, y1 = box
            emit((x0, y0, x1, y1), None if last else indices[hi], final_ms if last else frame_ms)
            if progress:
                progress(fr + 1, total)
        f.write(b";")
        return total


def _segment_box(
    a: tuple[float, float], b: tuple[float, float], half: float
) -> tuple[float, float, float, float]:
    return (
        min(a[0], b[0]) - half,
        min(a[1], b[1]) - half,
        max(a[0], b[0]) + half,
        max(a[1], b[1]) + half,
    )


def _overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _union(a: Sequence[float], b: Sequence[float]) -> list[float]:
    return [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
