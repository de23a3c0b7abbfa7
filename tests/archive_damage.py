"""Generated damage to a checked archive (:mod:`knightstour.archive`), for the fuzz tests of its
two readers: the count checkpoints and the magic search's saved walks."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import numpy as np
from hypothesis import strategies as st

from knightstour import archive

DTYPES = ("<i4", "<i8", "<u8", "<f8", "|u1", "|b1", "<U3")


def arrays(blob: bytes) -> dict[str, np.ndarray]:
    """The named arrays of an archive's bytes."""
    with np.load(io.BytesIO(blob), allow_pickle=False) as z:
        return {name: z[name] for name in z.files}


@st.composite
def damage(
    draw: st.DrawFn,
    blob: bytes,
    names: Sequence[str],
    shapes: Sequence[tuple[int, ...]],
    values: Callable[[st.DrawFn, dict[str, np.ndarray]], None] | None = None,
) -> tuple[str, bytes]:
    """``(kind, bytes)``: the archive ``blob`` cut, with bytes changed, with one of ``names``
    given another dtype and one of ``shapes``, with two of them swapped, or (when ``values``
    is given) with ``values(draw, arrays)`` changing what they hold. The checksum is made anew
    for the last three, so that the reader's own checks are what must catch them."""
    kinds = ["truncate", "flip", "shape", "swap"] + (["values"] if values else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "truncate":
        return kind, blob[: draw(st.integers(0, len(blob) - 1))]
    if kind == "flip":
        out = bytearray(blob)
        for _ in range(draw(st.integers(1, 3))):
            out[draw(st.integers(0, len(out) - 1))] ^= draw(st.integers(1, 255))
        return kind, bytes(out)
    data = arrays(blob)
    if kind == "shape":
        name = draw(st.sampled_from(list(names)))
        dtype = np.dtype(draw(st.sampled_from(DTYPES)))
        shape = draw(st.sampled_from(list(shapes)))
        value = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape).astype(dtype)
        if value.dtype == data[name].dtype and value.shape == data[name].shape:
            return kind, blob  # the same dtype and shape: another value, not damage
        data[name] = value
    elif kind == "swap":
        a, b = draw(st.permutations(list(names)))[:2]
        data[a], data[b] = data[b], data[a]
    else:
        assert values is not None
        values(draw, data)
    data["checksum"] = np.array(archive.checksum(data))
    return kind, archive.to_bytes(data)
