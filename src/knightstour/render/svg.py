"""SVG pictures of boards and tours: pure functions returning a string, standard library only.

>>> import knightstour as kt
>>> svg = tour_svg(kt.solve("5x5", start="a1", method="warnsdorff"))
>>> svg.startswith("<svg") and svg.count("<polyline") == 24
True

The picture has the board's light and dark squares, file letters and rank numbers, the path as
lines coloured from the first move to the last, a disc on the start square, a square on the end
square, the closing move of a closed tour dashed, and optionally the move numbers. Inside the
SVG one square is 10 units, so square centres fall on whole numbers; ``width`` and ``height``
give the size in pixels.

Structure a program can rely on: the path is ``<g class="path">`` holding ``<polyline>``
elements that together have exactly one segment per move (consecutive polylines share their
joining square), each with ``data-moves="FIRST-LAST"`` (1-based move numbers); the closing
move is ``<line class="closing">``; the markers are ``.start`` and ``.end``; the labels are
``.file`` and ``.rank`` texts, and on a 3-D board ``.layer`` texts title the layers.

On a wrapped board a move across a seam is a ``<path class="seam" data-moves="K-K">`` of
its pieces instead (:func:`~knightstour.render.style.move_pieces`: out to the board's edge and
in from the opposite edge), between the polylines of the moves before and after it; a closing
move across a seam is a ``<path class="closing">``. A 3-D board's layers stand side by side,
layer 1 on the left, each titled above (``layer 1``, ...), and a move between layers is a line
from one layer to the other; on a wrapped 3-D board a move across a seam leaves its layer at
the edge and comes into the other layer from the opposite edge.

``animated=True`` draws the path one move at a time with CSS (no script): a few kilobytes
more than the still picture, however long the tour.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from knightstour.errors import InvalidInputError
from knightstour.render import style as st

if TYPE_CHECKING:
    from knightstour.board import Board
    from knightstour.tour import PartialTour, Tour

__all__ = ["board_svg", "numbers_svg", "tour_svg"]

#: Square side in SVG user units.
UNIT = 10
FONT_FAMILY = "DejaVu Sans, Helvetica, Arial, sans-serif"


def board_svg(
    board: Board,
    *,
    size: float | None = None,
    coordinates: bool = True,
    colors: Mapping[str, str] | None = None,
) -> str:
    """An SVG of the empty board: light and dark squares (``a1`` dark), labels, holes.

    ``size`` is the longest side in pixels (default: :func:`~knightstour.render.style.default_size`).

    >>> from knightstour.board import Board
    >>> svg = board_svg(Board(8, 8), size=400)
    >>> 'width="400"' in svg, svg.count('class="file"'), svg.count('class="rank"')
    (True, 8, 8)
    """
    pic = _Picture(board, size, coordinates, "full", colors)
    return pic.finish([])


def tour_svg(
    tour: Tour | PartialTour,
    *,
    size: float | None = None,
    numbers: bool = False,
    coordinates: bool = True,
    gradient: bool | Sequence[str] = True,
    style: str = "auto",
    markers: bool = True,
    closing: bool = True,
    colors: Mapping[str, str] | None = None,
    animated: bool = False,
    frame_ms: int | None = None,
    final_ms: int = st.DEFAULT_FINAL_MS,
    closed: bool | None = None,
) -> str:
    """An SVG of ``tour``: the board, the path, start and end markers, optionally numbers.

    ``tour`` may be a :class:`~knightstour.tour.PartialTour` (how far a search that stopped
    got): the squares it never reached are tinted (``colors['unvisited']``, ``<path
    class="unvisited">``), and its end marker is where it stopped.

    - ``size``: longest side in pixels; by default squares of up to 60 pixels and a picture of
      about 720 (see :func:`~knightstour.render.style.default_size`).
    - ``numbers``: write each square's move number on it.
    - ``gradient``: colour the path from the first move to the last (``True``: the default ramp;
      a sequence of ``'#rrggbb'`` stops: that ramp; ``False``: ``colors['path']``).
    - ``style``: ``'full'``; ``'path'`` (no squares or labels, for huge boards); ``'auto'``
      (the default): ``full`` up to 200 squares a side.
    - ``markers``, ``closing``: the start and end markers; the closing move of a closed tour.
    - ``closed``: draw the path as a cycle (its closing move), whatever ``tour`` says: a
      :class:`~knightstour.tour.PartialTour` that is a cycle, such as an uncrossed one.
    - ``colors``: override any of :data:`~knightstour.render.style.DEFAULT_COLORS`.
    - ``animated``: draw the moves one a ``frame_ms`` with CSS, hold the whole tour
      ``final_ms``, and start again (as the GIF does). By default ``frame_ms`` is 500, shorter
      on big boards so that the moves take at most 27 s
      (:func:`~knightstour.render.style.animation_timing`).

    >>> import knightstour as kt
    >>> t = kt.solve("6x6", start="a1", closed=True)
    >>> svg = tour_svg(t, numbers=True)
    >>> svg.count('class="closing"'), svg.count('class="n"')
    (1, 36)
    """
    pic = _Picture(tour.board, size, coordinates, style, colors, numbers=numbers)
    indices = tour.indices.tolist()
    if frame_ms is None:
        frame_ms, _ = st.animation_timing(len(indices) - 1, None, 1, min_frame_ms=1, tick_ms=1)
    if animated and (frame_ms <= 0 or final_ms < 0):
        raise InvalidInputError(
            f"frame_ms must be > 0 and final_ms >= 0, got {frame_ms} and {final_ms}"
        )
    if closed is None:
        closed = bool(getattr(tour, "closed", False))
    parts = pic.unvisited(indices)
    parts += pic.path(indices, closed and closing, gradient, markers, numbers, animated)
    if animated:
        pic.animate(indices, frame_ms, final_ms)
    return pic.finish(parts)


def numbers_svg(sheet: st.NumberSheet, size: float | None = None) -> str:
    """An SVG of the numbers of ``sheet`` (:class:`~knightstour.render.style.NumberSheet`)
    written on its board, ``size`` on its longest side, in the printable look of
    :data:`~knightstour.render.style.PRINT_COLORS`: the board as every picture draws it
    (squares, holes, labels), each number centred on its square, the givens bold and the
    others lighter, over the sheet's pale path if it has one.

    The numbers are ``<g class="numbers">`` of ``<text class="given">`` and ``<text
    class="filled">``.

    >>> from knightstour.board import Board
    >>> sheet = st.NumberSheet(Board(5, 5), {0: 1, 24: 25, 12: 13}, strong={0, 24})
    >>> svg = numbers_svg(sheet)
    >>> svg.count('class="given"'), svg.count('class="filled"')
    (2, 1)
    """
    board, path = sheet.board, sheet.path
    pic = _Picture(board, size, sheet.coordinates, "full", sheet.palette())
    parts = []
    if path:
        parts += pic.path(list(path), sheet.closed, False, False, False)
    lay, c = pic.lay, pic.colors
    fs = st.given_font(UNIT, board.size)
    groups: dict[str, list[str]] = {"given": [], "filled": []}
    for s, k in sorted(sheet.numbers.items()):
        x, y = lay.centre(s)
        kind = "given" if s in sheet.strong else "filled"
        groups[kind].append(
            f'<text class="{kind}" x="{_num(x)}" y="{_num(y)}" dy=".35em">{k}</text>'
        )
    halo = (
        f' stroke="{c["number-halo"]}" stroke-width="{_num(fs * 0.22)}" paint-order="stroke" '
        f'stroke-linejoin="round"'
        if path
        else ""
    )
    paint = {
        "given": f'font-weight="bold" fill="{c["number"]}"',
        "filled": f'fill="{st.FILLED_COLOR}"',
    }
    parts.append(
        f'<g class="numbers" font-family="{FONT_FAMILY}" font-size="{_num(fs)}" '
        f'text-anchor="middle"{halo}>'
        + "".join(f"<g {paint[kind]}>" + "".join(t) + "</g>" for kind, t in groups.items() if t)
        + "</g>"
    )
    return pic.finish(parts)


def _num(v: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


class _Picture:
    """One SVG being built: the layout in units, the colours, and the elements so far."""

    def __init__(
        self,
        board: Board,
        size: float | None,
        coordinates: bool,
        style: str,
        colors: Mapping[str, str] | None,
        numbers: bool = False,
    ) -> None:
        st.require_drawable(board)
        self.board = board
        self.style = st.resolve_style(style, board.width, board.height)
        self.colors = st.colors(colors)
        if size is None:
            size = st.default_size(board.width, board.height, self.style, numbers, board.depth)
        px = size
        lay_px = st.layout_for(board.width, board.height, px, self.style, coordinates, board.depth)
        self.px = lay_px
        u = UNIT / lay_px.square  # units per pixel
        self.u = u
        lay = lay_px.scaled(u)
        # Whole units for the margins, so square centres are whole numbers.
        left, top = round(lay.left), round(lay.top)
        right = round(lay.left + lay.right) - left
        bottom = round(lay.top + lay.bottom) - top
        self.lay = replace(lay, square=float(UNIT), left=left, top=top, right=right, bottom=bottom)
        w, h = self.lay.image_width, self.lay.image_height
        scale = px / max(w, h)
        self.view = (w, h)
        self.pixels = (round(w * scale), round(h * scale))
        self.numbers = numbers
        self.css: list[str] = []
        self.uid = ""

    # -- the board ------------------------------------------------------------------------

    def _board_parts(self) -> list[str]:
        lay, c, b = self.lay, self.colors, self.board
        bw, bh = b.width * UNIT, b.height * UNIT
        y0 = _num(lay.top)
        out = []
        if self.style == "path":
            for z in range(b.depth):
                x0 = _num(lay.layer_left(z))
                out.append(
                    f'<rect class="border" x="{x0}" y="{y0}" width="{bw}" height="{bh}" '
                    f'fill="none" stroke="{c["border"]}" stroke-width="{_num(self.u)}"/>'
                )
            return out
        for z in range(b.depth):
            x0 = _num(lay.layer_left(z))
            # Dark squares by a 2 x 2 pattern; the top-left square (file a, top rank) is dark
            # when the top rank index (plus the layer) is even, since a1 (of layer 1) is dark.
            pid = f"kt-{self._hash(c['light'], c['dark'], b.height % 2, x0, y0)}"
            top_dark = (b.height - 1 + z) % 2 == 0
            dark_cells = ((0, 0), (1, 1)) if top_dark else ((1, 0), (0, 1))
            cells = "".join(
                f'<rect x="{i * UNIT}" y="{j * UNIT}" width="{UNIT}" height="{UNIT}"/>'
                for i, j in dark_cells
            )
            if z % 2:
                pid += f"-{z % 2}"
            out.append(
                f'<defs><pattern id="{pid}" x="{x0}" y="{y0}" width="{2 * UNIT}" '
                f'height="{2 * UNIT}" patternUnits="userSpaceOnUse"><g fill="{c["dark"]}">'
                f"{cells}</g></pattern></defs>"
            )
            out.append(
                f'<g class="board"><rect x="{x0}" y="{y0}" width="{bw}" height="{bh}" '
                f'fill="{c["light"]}"/><rect x="{x0}" y="{y0}" width="{bw}" height="{bh}" '
                f'fill="url(#{pid})"/>'
            )
            plane = range(z * b.width * b.height, (z + 1) * b.width * b.height)
            holes = sorted(h for h in b.holes if h in plane)
            if holes:
                d = "".join(
                    "M{},{}h{}v{}h-{}z".format(*map(_num, lay.corner(h)), UNIT, UNIT, UNIT)
                    for h in holes
                )
                out.append(f'<path class="holes" fill="{c["hole"]}" d="{d}"/>')
            out.append(
                f'<rect class="border" x="{x0}" y="{y0}" width="{bw}" height="{bh}" fill="none" '
                f'stroke="{c["border"]}" stroke-width="{_num(max(self.u, 0.25))}"/></g>'
            )
        if lay.font:
            fy = _num(lay.file_label_y)
            rx = _num(lay.rank_label_x)
            labels = [
                f'<text class="file" x="{_num(x)}" y="{fy}" dy=".35em">{t}</text>'
                for x, t in lay.file_labels()
            ]
            labels += [
                f'<text class="rank" x="{rx}" y="{_num(y)}" dy=".35em" text-anchor="end">{t}</text>'
                for y, t in lay.rank_labels()
            ]
            ty = _num(lay.layer_title_y)
            labels += [
                f'<text class="layer" x="{_num(x)}" y="{ty}" dy=".35em">{t}</text>'
                for x, t in lay.layer_titles()
            ]
            out.append(
                f'<g class="coords" fill="{c["coord"]}" font-family="{FONT_FAMILY}" '
                f'font-size="{_num(lay.font)}" text-anchor="middle">' + "".join(labels) + "</g>"
            )
        return out

    def _hash(self, *parts: object) -> str:
        return hashlib.sha1(repr(parts).encode()).hexdigest()[:8]

    # -- the path -------------------------------------------------------------------------

    def unvisited(self, indices: list[int]) -> list[str]:
        """A tint over the squares a partial path never reached (nothing for a tour)."""
        runs = st.unvisited_runs(self.board, indices)
        if not runs:
            return []
        lay, w = self.lay, self.board.width
        d = "".join(
            "M{},{}".format(*map(_num, lay.corner(y * w + x))) + f"h{n * UNIT}v{UNIT}h-{n * UNIT}z"
            for x, y, n in runs
        )
        return [
            f'<path class="unvisited" fill="{self.colors["unvisited"]}" '
            f'fill-opacity="{st.UNVISITED_OPACITY}" d="{d}"/>'
        ]

    def path(
        self,
        indices: list[int],
        closing: bool,
        gradient: bool | Sequence[str],
        markers: bool,
        numbers: bool,
        animated: bool = False,
    ) -> list[str]:
        lay, c = self.lay, self.colors
        moves = len(indices) - 1
        self.bounds = st.bands(moves) if moves > 0 else [0]
        nb = len(self.bounds) - 1
        self.band_colors = st.band_colors(nb, gradient, c["path"])
        lw = st.line_width(self.px.square, self.style, numbers) * self.u
        self.lw = lw
        out = []
        opacity = ' stroke-opacity="0.6"' if numbers else ""
        lines = []
        # The elements drawn, as (first move, last move) each: one a band, unless moves cross
        # a seam (their own <path> each, the band's polyline broken around them).
        self.pieces: list[tuple[int, int]] = []
        self.seams = False
        for b in range(nb):
            lo, hi = self.bounds[b], self.bounds[b + 1]
            for first, last, polys in st.strokes(self.board, indices, lo, hi):
                k = len(self.pieces)
                self.pieces.append((first, last))
                anim = f'class="b{k}" pathLength="{last - first + 1}" ' if animated else ""
                col = self.band_colors[b]
                if len(polys) == 1:
                    pts = " ".join(self._pt(p) for p in polys[0])
                    lines.append(
                        f'<polyline {anim}data-moves="{first}-{last}" stroke="{col}" '
                        f'points="{pts}"/>'
                    )
                else:
                    self.seams = True
                    seam = f'class="seam b{k}" pathLength="1" ' if animated else 'class="seam" '
                    lines.append(
                        f'<path {seam}data-moves="{first}-{last}" stroke="{col}" '
                        f'd="{self._d(polys)}"/>'
                    )
        out.append(
            f'<g class="path" fill="none" stroke-width="{_num(lw)}" stroke-linecap="round" '
            f'stroke-linejoin="round"{opacity}>' + "".join(lines) + "</g>"
        )
        if closing and moves > 1 and self.board.is_move(indices[-1], indices[0]):
            col = self.band_colors[-1] if self.band_colors else c["path"]
            pieces = st.move_pieces(self.board, indices[-1], indices[0])
            paint = (
                f'stroke="{col}" stroke-width="{_num(lw)}" '
                f'stroke-dasharray="{_num(lw * 2)} {_num(lw * 1.6)}" stroke-linecap="round"'
                f"{opacity}/>"
            )
            if pieces is None:
                (x1, y1), (x2, y2) = lay.centre(indices[-1]), lay.centre(indices[0])
                out.append(
                    f'<line class="closing" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" '
                    f'y2="{_num(y2)}" {paint}'
                )
            else:
                out.append(f'<path class="closing" fill="none" d="{self._d(pieces)}" {paint}')
        if markers and indices:
            out += self._markers(indices[0], indices[-1])
        if numbers:
            fs = st.number_font(UNIT, len(indices))
            texts = []
            for k, s in enumerate(indices, 1):
                x, y = lay.centre(s)
                texts.append(f'<text class="n" x="{_num(x)}" y="{_num(y)}" dy=".35em">{k}</text>')
            out.append(
                f'<g class="numbers" font-family="{FONT_FAMILY}" font-size="{_num(fs)}" '
                f'text-anchor="middle" fill="{c["number"]}" stroke="{c["number-halo"]}" '
                f'stroke-width="{_num(fs * 0.22)}" paint-order="stroke" '
                f'stroke-linejoin="round">' + "".join(texts) + "</g>"
            )
        return out

    def _pt(self, p: st.Point) -> str:
        x, y = self.lay.point(p)
        return f"{_num(x)},{_num(y)}"

    def _d(self, polys: Sequence[Sequence[st.Point]]) -> str:
        """Path data of separate polylines: ``M`` to the first point of each, ``L`` on."""
        return "".join(
            "M" + "L".join(self._pt(p).replace(",", " ") for p in poly) for poly in polys
        )

    def _markers(self, first: int, last: int) -> list[str]:
        lay, c = self.lay, self.colors
        r = st.marker_radius(self.px.square, self.style) * self.u
        if self.numbers:
            r = UNIT * 0.44  # a ring around the number instead of a disc under it
        edge = max(self.lw * 0.5, 0.6 * self.u)
        sx, sy = lay.centre(first)
        ex, ey = lay.centre(last)
        h = r * 0.85  # the end square's half-side: about the disc's area
        if self.numbers:
            paint = 'fill="none" stroke="{col}" stroke-width="{w}"'
            w = _num(max(self.lw, 1.2 * self.u))
            start = paint.format(col=c["start"], w=w)
            end = paint.format(col=c["end"], w=w)
        else:
            start = f'fill="{c["start"]}" stroke="{c["marker-edge"]}" stroke-width="{_num(edge)}"'
            end = f'fill="{c["end"]}" stroke="{c["marker-edge"]}" stroke-width="{_num(edge)}"'
        out = [f'<circle class="start" cx="{_num(sx)}" cy="{_num(sy)}" r="{_num(r)}" {start}/>']
        if last != first:
            out.append(
                f'<rect class="end" x="{_num(ex - h)}" y="{_num(ey - h)}" width="{_num(2 * h)}" '
                f'height="{_num(2 * h)}" {end}/>'
            )
        return out

    # -- animation ------------------------------------------------------------------------

    def animate(self, indices: list[int], frame_ms: int, final_ms: int) -> None:
        """CSS that draws band ``b``'s moves one a frame, then holds the tour and loops.

        Every move of a leaper is as long as every other, so with ``pathLength`` set to the
        band's number of moves, a dash offset of ``k`` hides exactly the last ``k`` moves and a
        ``steps()`` timing reveals one move a step.
        """
        moves = len(indices) - 1
        self.uid = "kt" + self._hash(indices[:64], len(indices), frame_ms, final_ms)
        total = moves * frame_ms + final_ms
        if moves == 0 or total <= 0:
            return

        def pct(t: float) -> str:
            return f"{100 * t / total:.6f}".rstrip("0").rstrip(".") + "%"

        uid = self.uid
        paths = f"#{uid} .path polyline" + (f",#{uid} .path .seam" if self.seams else "")
        css = [
            f"{paths}{{animation-duration:{total}ms;"
            "animation-iteration-count:infinite;animation-timing-function:linear;"
            "stroke-linecap:butt}",
            f"#{uid} .end,#{uid} .closing{{animation:{uid}-end {total}ms step-end infinite}}",
            f"@keyframes {uid}-end{{0%{{opacity:0}}{pct(moves * frame_ms)}{{opacity:1}}}}",
        ]
        # One rule an element: a band, or (on a wrapped board) a run of a band or a move
        # across a seam, whose pieces each show whole once the dash offset is 0.
        for b, (first, last) in enumerate(self.pieces):
            lo, hi = first - 1, last
            m = hi - lo
            t0, t1 = lo * frame_ms, hi * frame_ms
            css.append(
                f"#{uid} .b{b}{{stroke-dasharray:{m} {m};stroke-dashoffset:{m};"
                f"animation-name:{uid}-{b}}}"
                f"@keyframes {uid}-{b}{{0%,{pct(t0)}{{stroke-dashoffset:{m};"
                f"animation-timing-function:steps({m},end)}}"
                f"{pct(t1)},100%{{stroke-dashoffset:0}}}}"
            )
        css.append(
            "@media (prefers-reduced-motion:reduce){"
            f"{paths},#{uid} .end,#{uid} .closing{{animation:none;"
            "stroke-dashoffset:0;opacity:1}}"
        )
        self.css = css

    # -- assembly -------------------------------------------------------------------------

    def finish(self, path_parts: list[str]) -> str:
        w, h = self.view
        pw, ph = self.pixels
        idattr = f' id="{self.uid}"' if self.uid else ""
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1"{idattr} width="{pw}" '
            f'height="{ph}" viewBox="0 0 {_num(w)} {_num(h)}">'
        )
        body = [head]
        if self.css:
            body.append("<style>" + "".join(self.css) + "</style>")
        body.append(
            f'<rect class="background" width="{_num(w)}" height="{_num(h)}" '
            f'fill="{self.colors["background"]}"/>'
        )
        body += self._board_parts()
        body += path_parts
        body.append("</svg>")
        return "\n".join(body) + "\n"
