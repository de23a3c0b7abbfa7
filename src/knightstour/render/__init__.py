"""Pictures of boards and tours: SVG (no dependencies), PNG and animated GIF (Pillow).

>>> import knightstour as kt
>>> from knightstour.render import tour_svg
>>> tour_svg(kt.solve("5x5", start="a1")).count("<polyline") > 0
True

The SVG functions are imported with this package; the raster ones (:func:`tour_image`,
:func:`board_image`, :func:`write_png`, :func:`write_gif`) import Pillow only when first used.
"""

from __future__ import annotations

from typing import Any

from knightstour.render.svg import board_svg, tour_svg

__all__ = ["board_image", "board_svg", "tour_image", "tour_svg", "write_gif", "write_png"]

_RASTER = ("board_image", "tour_image", "write_gif", "write_png")


def __getattr__(name: str) -> Any:
    if name in _RASTER:
        from knightstour.render import raster

        return getattr(raster, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
