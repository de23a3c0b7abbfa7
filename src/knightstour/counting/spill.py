"""A sweep's states on disk: hash partitions of raw 64-bit words, for counts whose states do
not fit in memory (``knightstour count --memory SIZE``, docs/counting.md, "Past the memory").

The states after a square are a *generation*: ``s{done}/p{q}.keys`` (one ``uint64`` a state)
and ``s{done}/p{q}.counts`` (its count's 64-bit limbs, least significant first) for each
partition ``q``. While a square is swept, the new states each partition of the square before
makes are added up in memory and appended to the file of the partition that owns them
(``new/q{q}.keys`` and ``.counts``, in segments of any number of limbs); then each of those is
added up in memory, one partition at a time, and written as a partition of the next
generation. Only the sweep (:mod:`knightstour.counting.frontier`) knows what the words mean;
this module writes and reads them back, and says how much room they take.

With a checkpoint, a generation is kept until the checkpoint names the next one (each
partition's rows, limbs and BLAKE2b digest are in it: :mod:`knightstour.counting.checkpoint`),
so a stopped count goes on from the last finished square; a partition is verified against its
digest when it is read back, before its states are used.

>>> import tempfile
>>> disk = Spill(tempfile.mkdtemp())
>>> disk.append(0, np.array([7, 9], dtype=np.uint64), np.array([[1], [2]], dtype=np.uint64))
>>> disk.append(0, np.array([7], dtype=np.uint64), np.array([[3, 0]], dtype=np.uint64))
>>> [(k.tolist(), c.tolist()) for k, c in disk.segments(0)]
[([7, 9], [[1], [2]]), ([7], [[3, 0]])]
>>> part = disk.write(1, 0, np.array([7, 9], dtype=np.uint64), np.array([[4], [2]], dtype=np.uint64))
>>> keys, counts = disk.read(1, 0, part)
>>> keys.tolist(), counts.tolist()
([7, 9], [[4], [2]])
>>> disk.remove()
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass

import numpy as np

from knightstour.errors import InvalidInputError

__all__ = ["Partition", "Spill", "free_bytes"]

#: Rows read back at once from a file of new states (a few megabytes).
CHUNK = 1 << 18


@dataclass(frozen=True)
class Partition:
    """One partition of a generation as written: its states, their limbs, its digest (hex, or
    empty when none was taken)."""

    rows: int
    limbs: int
    digest: str = ""


def free_bytes(folder: str) -> int:
    """The bytes free on the disk that holds ``folder`` (or its nearest folder that exists).

    >>> free_bytes(os.curdir) > 0
    True
    """
    path = os.path.abspath(folder)
    while not os.path.isdir(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return shutil.disk_usage(path).free


def _digest(keys: np.ndarray, counts: np.ndarray) -> str:
    h = hashlib.blake2b(digest_size=16)
    for a in (keys, counts):
        if a.size:  # the array's own bytes, not a copy
            h.update(memoryview(np.ascontiguousarray(a, dtype="<u8")).cast("B"))  # type: ignore[arg-type]
    return h.hexdigest()


class Spill:
    """The partition files of one count in ``folder`` (made when missing).

    ``verify``: take a digest of each partition written, and check it when it is read back
    (a checkpoint's partitions; a count without one reads back only what it wrote itself).
    """

    def __init__(self, folder: str, *, verify: bool = False) -> None:
        self.folder, self.verify = folder, verify
        try:
            os.makedirs(os.path.join(folder, "new"), exist_ok=True)
        except OSError as e:
            raise InvalidInputError(
                f"cannot keep the count's states in {folder}: {e.strerror or e}"
            ) from None
        #: the segments appended to each partition of new states: (rows, limbs)
        self._segments: dict[int, list[tuple[int, int]]] = {}
        #: the bytes of the files written here (those found here counted once, by :meth:`used`)
        self._bytes = self._walk()

    # -- the new states of the square being swept ----------------------------------------

    def _new(self, q: int, what: str) -> str:
        return os.path.join(self.folder, "new", f"q{q}.{what}")

    def append(self, q: int, keys: np.ndarray, counts: np.ndarray) -> None:
        """Append the states ``keys`` with ``counts`` (any number of limbs) to partition ``q``
        of the new states."""
        if not keys.shape[0]:
            return
        for what, a in (("keys", keys), ("counts", counts)):
            with open(self._new(q, what), "ab") as f:
                np.ascontiguousarray(a, dtype="<u8").tofile(f)
        self._segments.setdefault(q, []).append((int(keys.shape[0]), int(counts.shape[1])))
        self._bytes += 8 * int(keys.shape[0]) * (1 + int(counts.shape[1]))

    def new_rows(self, q: int) -> int:
        """The states appended to partition ``q`` of the new states (equal ones not added up)."""
        return sum(rows for rows, _ in self._segments.get(q, []))

    def new_limbs(self, q: int) -> int:
        """The most limbs a count appended to partition ``q`` has (1 when none)."""
        return max((limbs for _, limbs in self._segments.get(q, [])), default=1)

    def segments(self, q: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """The states appended to partition ``q``, read back :data:`CHUNK` rows at a time."""
        segments = self._segments.get(q, [])
        if not segments:
            return
        with open(self._new(q, "keys"), "rb") as fk, open(self._new(q, "counts"), "rb") as fc:
            for rows, limbs in segments:
                left = rows
                while left:
                    n = min(CHUNK, left)
                    keys = np.fromfile(fk, dtype="<u8", count=n)
                    counts = np.fromfile(fc, dtype="<u8", count=n * limbs).reshape(n, limbs)
                    if keys.shape[0] != n or counts.shape[0] != n:
                        raise InvalidInputError(
                            f"the new states in {self.folder} were cut short (the disk full?)"
                        )
                    yield keys.astype(np.uint64, copy=False), counts.astype(np.uint64, copy=False)
                    left -= n

    def drop_new(self, q: int) -> None:
        """Remove partition ``q`` of the new states (added up and written)."""
        self._segments.pop(q, None)
        for what in ("keys", "counts"):
            self._remove(self._new(q, what))

    def _remove(self, path: str) -> None:
        with suppress(FileNotFoundError):
            size = os.path.getsize(path)
            os.remove(path)
            self._bytes -= size

    def clear_new(self) -> None:
        """Remove every file of new states (those of a square not finished)."""
        self._segments.clear()
        folder = os.path.join(self.folder, "new")
        for name in os.listdir(folder):
            self._remove(os.path.join(folder, name))

    # -- the generations: the states after a square ------------------------------------

    def _part(self, done: int, q: int, what: str) -> str:
        return os.path.join(self.folder, f"s{done}", f"p{q}.{what}")

    def write(self, done: int, q: int, keys: np.ndarray, counts: np.ndarray) -> Partition:
        """Write partition ``q`` of the states after ``done`` squares; synced to the disk when
        it is a checkpoint's."""
        os.makedirs(os.path.join(self.folder, f"s{done}"), exist_ok=True)
        for what, a in (("keys", keys), ("counts", counts)):
            with open(self._part(done, q, what), "wb") as f:
                np.ascontiguousarray(a, dtype="<u8").tofile(f)
                if self.verify:
                    f.flush()
                    os.fsync(f.fileno())
        self._bytes += 8 * int(keys.shape[0]) * (1 + int(counts.shape[1]))
        digest = _digest(keys, counts) if self.verify else ""
        return Partition(int(keys.shape[0]), int(counts.shape[1]), digest)

    def read(self, done: int, q: int, part: Partition) -> tuple[np.ndarray, np.ndarray]:
        """Partition ``q`` of the states after ``done`` squares, as it was written: of the size
        ``part`` says, and of its digest when one was taken; else one line naming the file."""
        out = []
        for what, words in (("keys", part.rows), ("counts", part.rows * part.limbs)):
            path = self._part(done, q, what)
            try:
                size = os.path.getsize(path)
                if size != 8 * words:
                    raise InvalidInputError(
                        f"the count's partition {path} holds {size:,} bytes, not {8 * words:,}: "
                        "delete the checkpoint and its partitions, and count again"
                    )
                out.append(np.fromfile(path, dtype="<u8").astype(np.uint64, copy=False))
            except OSError as e:
                raise InvalidInputError(
                    f"cannot read the count's partition {path}: {e.strerror or e} (delete the "
                    "checkpoint and its partitions, and count again)"
                ) from None
        keys, counts = out[0], out[1].reshape(part.rows, part.limbs)
        if part.digest and _digest(keys, counts) != part.digest:
            raise InvalidInputError(
                f"the count's partition {self._part(done, q, 'keys')} is damaged: its digest "
                "does not match the checkpoint's (delete the checkpoint and its partitions, "
                "and count again)"
            )
        return keys, counts

    def drop(self, done: int, q: int | None = None) -> None:
        """Remove partition ``q`` of the states after ``done`` squares (every one: None)."""
        if q is None:
            self._rmtree(os.path.join(self.folder, f"s{done}"))
            return
        for what in ("keys", "counts"):
            self._remove(self._part(done, q, what))

    def _rmtree(self, folder: str) -> None:
        if os.path.isdir(folder):
            for name in os.listdir(folder):
                self._remove(os.path.join(folder, name))
            shutil.rmtree(folder, ignore_errors=True)

    def keep_only(self, done: int) -> None:
        """Remove every generation but the states after ``done`` squares, and any new states
        (what a stopped count left of a square it had not finished)."""
        self.clear_new()
        for name in os.listdir(self.folder):
            if name.startswith("s") and name != f"s{done}":
                self._rmtree(os.path.join(self.folder, name))

    def used(self) -> int:
        """The bytes the files here take."""
        return self._bytes

    def _walk(self) -> int:
        total = 0
        for root, _, names in os.walk(self.folder):
            for name in names:
                with suppress(OSError):
                    total += os.path.getsize(os.path.join(root, name))
        return total

    def remove(self) -> None:
        """Remove the folder and every file in it."""
        shutil.rmtree(self.folder, ignore_errors=True)
