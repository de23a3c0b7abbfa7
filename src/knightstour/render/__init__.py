"""Pictures of boards and tours: SVG (no dependencies), PNG and animated GIF (Pillow).

>>> import knightstour as kt
>>> from knightstour.render import tour_svg
>>> tour_svg(kt.solve("5x5", start="a1")).count("<polyline") > 0
True

The SVG functions are imported with this package; the raster ones (:func:`tour_image`,
:func:`board_image`, :func:`write_png`, :func:`write_gif`) import Pillow only when first used.
"""

from __future__ import annotations

import mimetypes
import os
from typing import Any

from knightstour.errors import InvalidInputError
from knightstour.render.svg import board_svg, tour_svg

__all__ = [
    "SUFFIXES",
    "board_image",
    "board_svg",
    "check_picture_name",
    "tour_image",
    "tour_svg",
    "write_gif",
    "write_png",
]

#: The file name ending of each kind of picture written.
SUFFIXES = {"svg": ".svg", "png": ".png", "gif": ".gif"}


def check_picture_name(path: str, kind: str) -> None:
    """Refuse a file name whose ending names another format than the picture ``kind``
    (``svg``, ``png`` or ``gif``) written into it: PNG bytes in ``t.jpg`` would be a file that
    says it is what it is not. A name with no ending, an ending that names no known type of
    file (``tour.final``), or ``-`` (stdout), is taken as it is.

    >>> check_picture_name("tour.PNG", "png"), check_picture_name("tour.final", "png")
    (None, None)
    >>> check_picture_name("tour.jpg", "png")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: tour.jpg ends in .jpg, but the picture is PNG: name the file .png
    """
    suffix = os.path.splitext(os.path.basename(path))[1]
    wanted = SUFFIXES[kind]
    if path == "-" or not suffix or suffix.lower() == wanted:
        return
    if mimetypes.guess_type("x" + suffix.lower())[0] is None:
        return  # an ending of the user's own: no format claimed
    raise InvalidInputError(
        f"{path} ends in {suffix}, but the picture is {kind.upper()}: name the file {wanted}"
    )


_RASTER = ("board_image", "tour_image", "write_gif", "write_png")


def __getattr__(name: str) -> Any:
    if name in _RASTER:
        from knightstour.render import raster

        return getattr(raster, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
