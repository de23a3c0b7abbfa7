"""Named arrays saved whole and read back only once they prove intact: the format of a count's
checkpoint (:mod:`knightstour.counting.checkpoint`) and of the magic search's saved walks
(:mod:`knightstour.magic.saved`).

An archive is an uncompressed ``.npz`` of named arrays: ``format`` (a text naming what it
is), ``version`` (its layout's number), the caller's arrays, and ``checksum``: BLAKE2b over every
other array's name, dtype, shape and bytes. :func:`read` takes nothing on trust: before any
array is built, the archive's members are checked against the bytes (stored, within them, of the
size their headers imply, each of its expected dtype and number of dimensions, no objects, no
pickles), then every byte against the zip's CRCs and the checksum, then the format and the
version. Anything else is an :class:`~knightstour.errors.InvalidInputError` of one line, made by
the caller's ``refuse`` (which names the file or the record). The checksum detects damage (cut,
altered or mixed-up bytes), not forgery: what a caller builds from the arrays it checks itself.

>>> import io
>>> layout = {"format": ("U", 0), "version": ("<i8", 0), "xs": ("<i4", 1), "checksum": ("U", 0)}
>>> blob = to_bytes(pack("demo", 1, layout, {"xs": np.arange(3)}))
>>> refuse = lambda problem: InvalidInputError(f"the demo {problem}")
>>> read(io.BytesIO(blob), len(blob), layout, "demo", 1, refuse)["xs"].tolist()
[0, 1, 2]
>>> bad = blob[:200] + bytes([blob[200] ^ 1]) + blob[201:]
>>> read(io.BytesIO(bad), len(bad), layout, "demo", 1, refuse)
Traceback (most recent call last):
...
knightstour.errors.InvalidInputError: the demo is damaged: ...
"""

from __future__ import annotations

import hashlib
import io
import struct
import tokenize
import zipfile
from collections.abc import Callable, Mapping, Sequence
from typing import IO

import numpy as np

from knightstour.errors import InvalidInputError

__all__ = [
    "Layout",
    "OlderFormat",
    "Parts",
    "Refuse",
    "checksum",
    "layout",
    "pack",
    "read",
    "save",
    "text",
    "to_bytes",
]

#: Each array's dtype (``"U"`` for text) and number of dimensions, by name; ``format``,
#: ``version`` and ``checksum`` among them.
Layout = Mapping[str, tuple[str, int]]
#: Makes the error of one line about the archive being read.
Refuse = Callable[[str], InvalidInputError]


#: The flag bits of a zip member that mark it encrypted (bit 0) or strongly encrypted (bit 6).
_ENCRYPTED = 0x41


def layout(**arrays: tuple[str, int]) -> Layout:
    """The layout of an archive of ``arrays``: ``format``, ``version`` and ``identity`` (a
    text naming what the arrays belong to) first, ``checksum`` last.

    >>> list(layout(xs=("<i4", 1)))
    ['format', 'version', 'identity', 'xs', 'checksum']
    """
    return {
        "format": ("U", 0),
        "version": ("<i8", 0),
        "identity": ("U", 0),
        **arrays,
        "checksum": ("U", 0),
    }


class OlderFormat(InvalidInputError):
    """An archive without a version, written before archives had one (and a checksum)."""


def text(a: np.ndarray) -> str:
    """The text held by the 0-d text array ``a`` (bytes that are no text read as U+FFFD)."""
    return a.tobytes().decode("utf-32-le", errors="replace").rstrip("\0")


class Parts:
    """One array given as its parts along the first axis, saved (:func:`save`) and checksummed
    as the array they make, without making it (a count's states held in pieces).

    >>> whole = Parts([np.arange(2), np.arange(3)])
    >>> whole.shape, checksum({"x": whole}) == checksum({"x": np.array([0, 1, 0, 1, 2])})
    ((5,), True)
    """

    def __init__(self, parts: Sequence[np.ndarray], dtype: str | None = None) -> None:
        if not parts:
            raise ValueError("an array needs one part at least")
        self.parts = [np.ascontiguousarray(x, dtype=dtype) for x in parts]
        self.dtype = self.parts[0].dtype
        rest = self.parts[0].shape[1:]
        if any(x.dtype != self.dtype or x.shape[1:] != rest for x in self.parts):
            raise ValueError("the parts of an array differ in dtype or in shape")
        self.shape = (sum(int(x.shape[0]) for x in self.parts), *rest)


def checksum(fields: Mapping[str, np.ndarray | Parts]) -> str:
    """BLAKE2b (hex) over every array of ``fields`` but ``checksum``: name, dtype, shape, bytes."""
    h = hashlib.blake2b(digest_size=32)
    for name in sorted(fields):
        if name == "checksum":
            continue
        a = fields[name]
        parts = a.parts if isinstance(a, Parts) else [np.asarray(a, order="C")]
        shape = a.shape if isinstance(a, Parts) else parts[0].shape
        h.update(f"{name}|{parts[0].dtype.str}|{shape}|".encode())
        for part in parts:
            h.update(part.data)
    return h.hexdigest()


def pack(
    kind: str, version: int, layout: Layout, fields: Mapping[str, np.ndarray | Parts]
) -> dict[str, np.ndarray | Parts]:
    """``fields`` in ``layout``'s dtypes, with the format ``kind``, the ``version`` and the
    checksum: the arrays to save (a :class:`Parts` stays in its parts: :func:`save`)."""
    arrays: dict[str, np.ndarray | Parts] = {
        "format": np.array(kind),
        "version": np.array(version, dtype="<i8"),
    }
    for name, (dtype, _) in layout.items():
        if name in fields:
            a = fields[name]
            if isinstance(a, Parts):
                arrays[name] = Parts(a.parts, dtype)
                continue
            a = np.asarray(a)
            arrays[name] = a if dtype == "U" else np.asarray(a, dtype=dtype, order="C")
    arrays["checksum"] = np.array(checksum(arrays))
    return arrays


def save(file: IO[bytes], arrays: Mapping[str, np.ndarray | Parts]) -> None:
    """Write ``arrays`` as an uncompressed ``.npz`` (what ``np.savez`` writes), a
    :class:`Parts` part by part: its bytes are those of the array it makes, never made."""
    with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as z:
        for name, a in arrays.items():
            with z.open(f"{name}.npy", "w", force_zip64=True) as out:
                if not isinstance(a, Parts):
                    np.lib.format.write_array(out, np.asanyarray(a), allow_pickle=False)
                    continue
                header = {
                    "descr": np.lib.format.dtype_to_descr(a.dtype),
                    "fortran_order": False,
                    "shape": a.shape,
                }
                np.lib.format.write_array_header_1_0(out, header)
                for part in a.parts:
                    if part.size:
                        out.write(part.data.cast("B"))


def to_bytes(arrays: Mapping[str, np.ndarray | Parts]) -> bytes:
    """The archive of ``arrays`` (:func:`pack`'s) as bytes."""
    buffer = io.BytesIO()
    save(buffer, arrays)
    return buffer.getvalue()


def read(
    f: IO[bytes],
    size: int,
    layout: Layout,
    kind: str,
    version: int,
    refuse: Refuse,
    *,
    what: str = "archive",
    remedy: str = "",
    older: Callable[[set[str]], bool] = lambda names: False,
) -> dict[str, np.ndarray]:
    """The arrays of the archive ``f`` (``size`` bytes), once every check above has passed.

    ``what`` names the kind of archive in the refusals, ``remedy`` (after a colon) says what
    to do; an archive without a version whose array names satisfy ``older`` is an
    :class:`OlderFormat`."""
    then = f": {remedy}" if remedy else ""
    try:
        try:
            archive = zipfile.ZipFile(f)
        except zipfile.BadZipFile:
            f.seek(0)
            if f.read(2) == b"PK":  # a zip archive's first bytes, without its end
                raise refuse("is damaged: not a whole .npz archive (cut short?)") from None
            raise refuse(f"is not {what} (not an .npz archive)") from None
        with archive:
            members = {i.filename: i for i in archive.infolist()}
            names = {m.removesuffix(".npy") for m in members}
            if "version" not in names and older(names):
                old = refuse(
                    f"was saved by an older version, without a checksum to verify it{then}"
                )
                raise OlderFormat(str(old))
            if names != set(layout) or len(archive.infolist()) != len(layout):
                raise refuse(f"is not {what} (it holds other arrays)")
            out: dict[str, np.ndarray] = {}
            for name, (want, ndim) in layout.items():
                info = members[f"{name}.npy"]
                if (
                    info.compress_type != zipfile.ZIP_STORED
                    or info.file_size != info.compress_size
                    or info.header_offset + info.file_size > size
                ):
                    raise refuse(f"is damaged: its {name} does not fit in the file")
                if info.flag_bits & _ENCRYPTED:  # zipfile would ask for a password
                    raise refuse(f"is damaged: its {name} is marked as encrypted")
                with archive.open(info) as member:
                    out[name] = _array(member, info.file_size, name, want, ndim, refuse)
    except InvalidInputError:
        raise
    except (zipfile.BadZipFile, EOFError, ValueError, struct.error, NotImplementedError) as e:
        raise refuse(f"is damaged: {str(e)[:200]}") from None
    if text(out["checksum"]) != checksum(out):
        raise refuse("is damaged: its checksum does not match its contents")
    if text(out["format"]) != kind or int(out["version"]) != version:
        raise refuse(f"is of format version {int(out['version'])}, not {version}{then}")
    return out


def _array(
    member: IO[bytes], length: int, name: str, want: str, ndim: int, refuse: Refuse
) -> np.ndarray:
    """One member's array, its header checked before its bytes are taken."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(member)
        if version == (1, 0):
            shape, fortran, dtype = fmt.read_array_header_1_0(member)
        elif version == (2, 0):
            shape, fortran, dtype = fmt.read_array_header_2_0(member)
        else:
            raise ValueError(f"array format {version}")
    except (ValueError, SyntaxError, TypeError, tokenize.TokenError) as e:
        raise refuse(f"is damaged: the header of {name}: {e}") from None
    kind_ok = dtype.kind == "U" if want == "U" else dtype.str == want
    if not kind_ok or dtype.hasobject or fortran or len(shape) != ndim:
        raise refuse(f"is damaged: {name} is {dtype.str} of {len(shape)} dimensions")
    nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
    if nbytes != length - member.tell():
        raise refuse(f"is damaged: {name} is not as long as its shape {shape} says")
    buf = bytearray(nbytes)
    if member.readinto(buf) != nbytes or member.read(1):  # type: ignore[attr-defined]
        raise refuse(f"is damaged: {name} is cut short")
    return np.frombuffer(buf, dtype=dtype).reshape(shape)
