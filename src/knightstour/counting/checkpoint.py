"""The file a long count saves its sweep to (``knightstour count --checkpoint FILE``): written
whole or not at all, read back only when it proves intact, and used by one count at a time.

A checkpoint is an ``.npz`` archive (uncompressed) of named arrays: ``format`` (the text
:data:`FORMAT`), ``version`` (:data:`VERSION`), ``identity`` (what is counted), ``done``
(squares swept), ``squares`` (the states after each of them), ``total`` (tours finished so
far, as 64-bit limbs, least significant first), ``keys`` and ``counts`` (the states held in
memory), ``parts`` and ``digests`` (a count that spilled its states to disk: each partition
file's rows and limbs, and its BLAKE2b digest; :mod:`knightstour.counting.spill`) and ``checksum``: BLAKE2b over every other array's name,
dtype, shape and bytes. :func:`read` takes nothing on trust: before any array is built, the
archive's members are checked against the file (stored, within it, of the size their headers
imply, each of its expected dtype and number of dimensions, no objects, no pickles), then every
byte is checked against the zip's CRCs and the checksum (:mod:`knightstour.archive`, the format the
magic search's saved walks share). Anything else is an
:class:`~knightstour.errors.InvalidInputError` of one line naming the file and the problem. The
checks that need the sweep (the count it belongs to, ``done`` within its squares, the states'
keys and shapes) are :func:`knightstour.counting.frontier.run`'s.

The checksum detects damage (a truncated, cut or altered file), not forgery: a file made with
a matching checksum is checked only as far as its shapes and ranges.

>>> import os, tempfile
>>> import numpy as np
>>> path = os.path.join(tempfile.mkdtemp(), "c.npz")
>>> fields = {"identity": np.array("5x5"), "done": np.array(3), "total": limbs(2**70),
...           "keys": np.arange(4, dtype=np.uint64), "counts": np.ones((4, 1), dtype=np.uint64)}
>>> write(path, fields)
>>> saved = read(path)
>>> int(saved["done"]), number(saved["total"]) == 2**70, saved["counts"].shape
(3, True, (4, 1))
>>> with open(path, "r+b") as f:
...     _ = f.seek(300)
...     _ = f.write(b"?")
>>> read(path)
Traceback (most recent call last):
...
knightstour.errors.InvalidInputError: the checkpoint ... is damaged: ...
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress

import numpy as np

from knightstour import archive
from knightstour.archive import text
from knightstour.errors import InvalidInputError

__all__ = [
    "FORMAT",
    "VERSION",
    "CheckpointWarning",
    "check_path",
    "held",
    "limbs",
    "number",
    "read",
    "text",
    "write",
]

#: The ``format`` array of every checkpoint.
FORMAT = "knightstour counting checkpoint"
#: The layout written now (4: the states after each square done, so that a sweep that goes on
#: judges its next square's memory as the whole sweep would; 3 had none, 2 no partitions).
#: Checkpoints of another version, or without one (written before versions, with no
#: checksum), are refused: a count is recomputable, a checkpoint that cannot be verified is not
#: worth the risk of a wrong count.
VERSION = 4


class CheckpointWarning(RuntimeWarning):
    """A checkpoint could not be tidied up after its count was done (the count stands)."""


#: Each array's dtype (a kind for text) and number of dimensions.
_LAYOUT = archive.layout(
    done=("<i8", 0),
    squares=("<i8", 1),
    total=("<u8", 1),
    keys=("<u8", 1),
    counts=("<u8", 2),
    parts=("<i8", 2),
    digests=("U", 1),
)


def check_path(path: object) -> str:
    """``path`` as a checkpoint's file name, if a count can use it: a file name (text, not
    empty), a regular file or none yet, in a folder that exists and can be written (the
    checkpoint is saved beside it and replaces it whole). Else one line saying why.

    >>> check_path("")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the checkpoint file name is empty
    >>> check_path(os.sep)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the checkpoint / is a folder, not a file
    """
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise InvalidInputError(f"checkpoint must be a file name, got {path!r}")
    if not path:
        raise InvalidInputError("the checkpoint file name is empty")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise InvalidInputError(f"cannot use the checkpoint {path}: {e.strerror or e}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise InvalidInputError(f"the checkpoint {path} is a folder, not a file")
    if mode is not None and not stat.S_ISREG(mode):
        raise InvalidInputError(f"the checkpoint {path} is not a regular file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InvalidInputError(f"cannot save the checkpoint {path}: no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InvalidInputError(f"cannot save the checkpoint {path}: {folder} cannot be written")
    return path


@contextmanager
def held(path: str) -> Iterator[None]:
    """Hold ``path`` for this count alone (a lock on ``path.lock``, released and removed at
    the end); a second count of the same file is refused with one line.

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "c.npz")
    >>> with held(path):
    ...     with held(path):
    ...         pass
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the checkpoint ... is in use by another count ...
    """
    try:
        import fcntl
    except ImportError:  # no POSIX locks here (Windows): one count a file is the user's care
        yield
        return
    lock = f"{path}.lock"
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise InvalidInputError(f"cannot lock the checkpoint {path}: {e.strerror or e}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            same = os.path.samestat(os.fstat(fd), os.stat(lock))  # not one just removed
        except OSError:
            same = False
        if not same:
            raise InvalidInputError(
                f"the checkpoint {path} is in use by another count (wait for it, or choose "
                "another file)"
            )
        try:
            yield
        finally:
            with suppress(OSError):  # while locked: a count that opened it first finds it gone
                os.remove(lock)
    finally:
        os.close(fd)


def limbs(value: int) -> np.ndarray:
    """``value`` (a count, any size) as 64-bit limbs, least significant first.

    >>> limbs(2**64 + 5).tolist(), number(limbs(2**64 + 5)) == 2**64 + 5
    ([5, 1], True)
    """
    n = max(1, (value.bit_length() + 63) // 64)
    return np.array([(value >> (64 * j)) & 0xFFFFFFFFFFFFFFFF for j in range(n)], dtype="<u8")


def number(limbs: np.ndarray) -> int:
    """The count written as ``limbs`` (64-bit, least significant first)."""
    return sum(int(v) << (64 * j) for j, v in enumerate(limbs.tolist()))


def write(path: str, fields: Mapping[str, np.ndarray | archive.Parts]) -> None:
    """Save ``fields`` (``identity``, ``done``, ``total``, ``keys``, ``counts``, and ``parts``
    and ``digests`` when the states are on disk: none else) to ``path``
    with the format, version and checksum: written beside it, synced, then put in its place,
    so that ``path`` holds the old checkpoint or the new one whole, never a part. The states
    may be given in pieces (:class:`knightstour.archive.Parts`): they are written one after
    the other, never copied into one array."""
    fields = {
        "squares": np.zeros(0, dtype="<i8"),
        "parts": np.zeros((0, 2), dtype="<i8"),
        "digests": np.array([], dtype="U32"),
        **fields,
    }
    arrays = archive.pack(FORMAT, VERSION, _LAYOUT, fields)
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "wb") as f:
            archive.save(f, arrays)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        with suppress(OSError):
            os.remove(tmp)
        raise InvalidInputError(f"cannot write the checkpoint {path}: {e.strerror or e}") from None
    except BaseException:  # Ctrl-C while writing: the old checkpoint stays, no half file beside it
        with suppress(OSError):
            os.remove(tmp)
        raise


def read(path: str) -> dict[str, np.ndarray]:
    """The arrays of the checkpoint ``path``, once every check above has passed."""

    def refuse(problem: str) -> InvalidInputError:
        return InvalidInputError(f"the checkpoint {path} {problem}")

    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise refuse("is not a regular file")
            head = f.read(6)
            if not head:
                raise refuse("is empty: delete it and count again")
            if head == b"\x93NUMPY":
                raise refuse("is one array (.npy), not a checkpoint (.npz): delete it")
            f.seek(0)
            return archive.read(
                f, size, _LAYOUT, FORMAT, VERSION, refuse, what="a counting checkpoint",
                remedy="delete it and count again", older=lambda names: "identity" in names,
            )  # fmt: skip
    except InvalidInputError:
        raise
    except OSError as e:
        raise refuse(f"cannot be read: {e.strerror or e}") from None
