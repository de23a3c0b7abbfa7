"""A part's saved walk: what the semi-magic search keeps of a part stopped before its end, and
how it is read back.

A walk is kept as the few numbers it is made of, not as the compiled walk's arrays: the squares
(or quads) placed since the range's ends (``path``), the next candidate to try at the depth it
stopped at (``cursor``), and the part's nodes, tours and seconds of walking so far (``nodes``,
``found``, ``seconds``: over every call that walked it, so that a part stopped again and again
is timed whole). Saved, it
is an archive (:mod:`knightstour.archive`): format :data:`FORMAT`, version :data:`VERSION`, an
``identity`` naming the board, the walk's scheme, the range and the part it belongs to, the
``path`` (int32) and the ``counters`` (cursor, nodes, found, microseconds: four int64, or the
first three in a walk saved before its time was kept, taken as 0 s; a program from before then
refuses a walk of four, in one line, as damaged; one array, so that no
two arrays of one dtype and shape can be mixed up), and a BLAKE2b checksum over the arrays. :func:`decode` checks all of that before anything else sees
the arrays; the walker then rebuilds its state from the path, move by move, through the same
cuts the walk makes (:meth:`knightstour.magic.search.Walker.restore`,
:meth:`knightstour.magic.quads.QuadWalker.restore`), and refuses a path that is not a walk of
its part. So a damaged walk is refused in one line, never walked.

>>> import numpy as np
>>> from knightstour.errors import InvalidInputError
>>> refuse = lambda problem: InvalidInputError(f"the saved walk {problem}")
>>> walk = {"path": np.array([5, 9], np.int32), "cursor": 1, "nodes": 40, "found": 0,
...         "seconds": 2.5}
>>> blob = encode("8x8 two-ended/1 range 1 part 7", walk)
>>> back = decode(blob, "8x8 two-ended/1 range 1 part 7", refuse)
>>> back["path"].tolist(), back["seconds"]
([5, 9], 2.5)
>>> decode(blob, "8x8 two-ended/1 range 1 part 8", refuse)
Traceback (most recent call last):
...
knightstour.errors.InvalidInputError: the saved walk is the walk of 8x8 two-ended/1 range 1 part 7, not of this part
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import numpy as np

from knightstour import archive
from knightstour.archive import Refuse

__all__ = ["FORMAT", "LAYOUT", "VERSION", "decode", "encode", "identity"]

#: The ``format`` array of every saved walk.
FORMAT = "knightstour magic walk"
#: The layout written now. A walk saved before walks had a version (the compiled walk's arrays
#: whole, with no checksum) is not trusted: its part is walked again from its start.
VERSION = 1
#: Each array's dtype and number of dimensions.
LAYOUT = archive.layout(path=("<i4", 1), counters=("<i8", 1))
#: The numbers of the ``counters`` array, in order (the seconds as microseconds).
_COUNTERS = ("cursor", "nodes", "found", "micros")
#: The arrays a walk saved before versions holds (the two-ended walk's or the quad walk's).
_OLDER = "meta"


def identity(board: str, scheme: str, range_no: int, part: int) -> str:
    """The name a saved walk carries of what it belongs to.

    >>> identity("8x8", "quads/3", 0, 12)
    '8x8 quads/3 range 0 part 12'
    """
    return f"{board} {scheme} range {int(range_no)} part {int(part)}"


def encode(ident: str, walk: Mapping[str, Any]) -> bytes:
    """The saved form of ``walk`` (``path``, ``cursor``, ``nodes``, ``found``, and ``seconds``
    when it has them) of ``ident``."""
    micros = round(float(walk.get("seconds", 0.0)) * 1e6)
    fields = {
        "identity": np.array(ident),
        "path": np.asarray(walk["path"]),
        "counters": np.array([int(walk[name]) for name in _COUNTERS[:3]] + [micros]),
    }
    return archive.to_bytes(archive.pack(FORMAT, VERSION, LAYOUT, fields))


def decode(blob: bytes, ident: str, refuse: Refuse) -> dict[str, Any] | None:
    """The walk saved as ``blob`` for ``ident``, its arrays checked (:mod:`knightstour.archive`)
    and its numbers in range; None for a walk saved before versions (walk the part again).
    Anything else is ``refuse(problem)``."""
    try:
        arrays = archive.read(
            io.BytesIO(blob), len(blob), LAYOUT, FORMAT, VERSION, refuse, what="a saved walk",
            older=lambda names: _OLDER in names,
        )  # fmt: skip
    except archive.OlderFormat:
        return None
    saved_as = archive.text(arrays["identity"])
    if saved_as != ident:
        raise refuse(f"is the walk of {saved_as[:80]}, not of this part")
    counters = arrays["counters"]
    if counters.shape not in ((3,), (len(_COUNTERS),)):
        raise refuse(f"is damaged: it has {counters.size} counters, not 3 or {len(_COUNTERS)}")
    values = counters.tolist() + [0] * (len(_COUNTERS) - counters.size)  # no time kept: 0 s
    walk = {name: int(v) for name, v in zip(_COUNTERS, values, strict=True)}
    for name, value in walk.items():
        if not 0 <= value < 2**62:
            raise refuse(f"is damaged: its {name} is {value}")
    if walk["found"] > walk["nodes"]:
        raise refuse(f"is damaged: {walk['found']} tours found in {walk['nodes']} nodes")
    seconds = walk.pop("micros") / 1e6
    return {"path": np.array(arrays["path"], dtype=np.int32), **walk, "seconds": seconds}
