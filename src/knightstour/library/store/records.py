"""What the store hands in and out: tours with their metadata, packed batches and rows.

- :class:`StoredTour`: a tour read back, with its id, seed, run and creation time;
- :class:`Batch`: tours of one board and kind, packed (canonical forms and transform codes), as
  generation makes them and :meth:`~knightstour.library.store.tours.Tours.add_batch` stores them;
- :class:`PackedRows`: stored rows as arrays, as the exporter reads them;
- :func:`library_board` and :func:`shape_of`: a board as the library's options name it, and what
  its ``shape`` column holds.

>>> import knightstour as kt
>>> batch = canonical_batch(Board(5, 5), False, kt.solve("5x5", start="a1").indices[None, :])
>>> len(batch), batch.keys.shape, batch.validate().validated
(1, (1, 10), True)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from knightstour.board import Board, BoardLike, parse_board
from knightstour.errors import InternalError, InvalidInputError
from knightstour.geometry import has_metrics, shape_batch
from knightstour.library import canonical as cf
from knightstour.tour import Tour

__all__ = [
    "DEFAULT_DB",
    "MAX_ID",
    "Batch",
    "PackedRows",
    "StoredTour",
    "canonical_batch",
    "iso_time",
    "library_board",
    "row_board",
    "same_kind",
    "shape_of",
]

#: The file ``knightstour generate`` and ``knightstour library`` use unless told otherwise.
DEFAULT_DB = "tours.db"
#: The largest integer SQLite stores (ids, counts, seeds): ``2**63 - 1``.
MAX_ID = (1 << 63) - 1


def iso_time(seconds: int) -> str:
    """Unix ``seconds`` as ISO 8601 in UTC to the second.

    >>> iso_time(0)
    '1970-01-01T00:00:00Z'
    """
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _of_tour(name: str) -> Any:
    """A read-only attribute of a :class:`StoredTour` that is its tour's ``name``."""
    return property(lambda self: getattr(self.tour, name), doc=f"The tour's ``{name}``.")


@dataclass(frozen=True)
class StoredTour:
    """A tour from the library with its metadata.

    >>> import knightstour as kt
    >>> st = StoredTour(7, kt.solve("5x5", start="a1"), seed=None, run=None, created=0)
    >>> st.start, st.closed, st.info()["created"], st.shape()
    ('a1', False, '1970-01-01T00:00:00Z', (39, 23))

    ``crossings`` and ``turns`` are the values stored with the tour (None when the row has none:
    a library from before they were stored, until ``library update``); :meth:`shape` measures
    them when they are not stored.
    """

    id: int
    tour: Tour
    seed: int | None
    run: int | None
    created: int
    crossings: int | None = None
    turns: int | None = None

    board = _of_tour("board")
    closed = _of_tour("closed")
    method = _of_tour("method")
    start = _of_tour("start")
    end = _of_tour("end")

    @property
    def created_iso(self) -> str:
        """The creation time, ISO 8601 in UTC to the second."""
        return iso_time(self.created)

    def shape(self) -> tuple[int | None, int | None]:
        """``(crossings, turns)``: as stored, else measured from the tour (lazily: the library
        stores them with ``library update``); ``(None, None)`` on a wrapped or 3-D board, where
        they are not defined."""
        if self.crossings is not None and self.turns is not None:
            return self.crossings, self.turns
        if not has_metrics(self.board):
            return None, None
        m = self.tour.metrics()
        return m.crossings, m.turns

    def info(self) -> dict[str, Any]:
        """The metadata as a JSON-able dictionary (no path), with the tour's crossings and turns
        (:meth:`shape`)."""
        crossings, turns = self.shape()
        return {
            "id": self.id,
            "board": self.board.key,
            "closed": self.closed,
            "start": self.start,
            "end": self.end,
            "method": self.method,
            "seed": self.seed,
            "run": self.run,
            "created": self.created_iso,
            "crossings": crossings,
            "turns": turns,
        }


@dataclass
class Batch:
    """Tours of one board and kind, packed: what generation produces and the library stores.

    ``keys`` is ``(B, key_length)`` uint8, canonical forms; ``codes`` the transform codes;
    ``starts``/``ends`` the first and last squares of each tour as made; ``seeds`` optional;
    ``crossings`` and ``turns`` the shape of each tour (:func:`knightstour.geometry.shape_batch`),
    measured by :meth:`validate` (None on a wrapped or 3-D board, where they are not defined).
    """

    board: Board
    closed: bool
    keys: np.ndarray
    codes: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    seeds: np.ndarray | None = None
    #: Set by :meth:`validate`: every tour decodes to a valid tour with its start and end.
    validated: bool = False
    crossings: np.ndarray | None = None
    turns: np.ndarray | None = None

    def validate(self) -> Batch:
        """Decode every tour and check it (vectorised), raising if one is damaged; and measure
        the tours' crossings and turns from what was decoded, if not measured yet.

        >>> import knightstour as kt
        >>> t = kt.solve("5x5", start="a1", method="warnsdorff")
        >>> b = canonical_batch(t.board, False, t.indices[None, :]).validate()
        >>> b.crossings.tolist(), b.turns.tolist()
        ([39], [23])
        """
        if len(self) and not (self.validated and self.measured):
            tours, ok = cf.decode_batch(self.board, self.keys, self.codes, self.closed)
            if not self.validated:
                ok &= (tours[:, 0] == self.starts) & (tours[:, -1] == self.ends)
                if not ok.all():
                    bad = int(np.flatnonzero(~ok)[0])
                    raise InternalError(f"tour {bad} of a batch is damaged")
            if not self.measured:
                self.crossings, self.turns = shape_batch(self.board, tours, self.closed)
        self.validated = True
        return self

    @property
    def measured(self) -> bool:
        """Whether the tours' crossings and turns are measured, or have none (a wrapped or 3-D
        board)."""
        return self.crossings is not None or not has_metrics(self.board)

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def sorted(self) -> Batch:
        """The batch in the order of its keys' first 8 bytes, equal ones in the batch's order (the
        library's index takes keys in order faster; a stable sort of one integer a key is
        several times quicker than sorting whole keys, and keeps the first of two equal tours
        first, so it is the one stored)."""
        if len(self) < 2:
            return self
        head = np.zeros((len(self), 8), dtype=np.uint8)
        k = min(8, self.keys.shape[1])
        head[:, :k] = self.keys[:, :k]
        return self._take(np.argsort(head.view(">u8")[:, 0], kind="stable"))

    def head(self, k: int) -> Batch:
        """The first ``k`` tours."""
        return self._take(slice(0, k))

    @staticmethod
    def joined(batches: list[Batch]) -> Batch:
        """The tours of ``batches`` (of one board and kind) in one batch, in order.

        >>> import knightstour as kt
        >>> t = kt.solve("5x5", start="a1")
        >>> b = canonical_batch(t.board, False, t.indices[None, :])
        >>> len(Batch.joined([b, b])), Batch.joined([b]) is b
        (2, True)
        """
        if len(batches) == 1:
            return batches[0]
        first = batches[0]

        def joined(arrays: list[np.ndarray | None]) -> np.ndarray | None:
            if any(a is None for a in arrays):
                return None
            return np.concatenate([a for a in arrays if a is not None])

        return Batch(
            first.board,
            first.closed,
            np.concatenate([b.keys for b in batches]),
            np.concatenate([b.codes for b in batches]),
            np.concatenate([b.starts for b in batches]),
            np.concatenate([b.ends for b in batches]),
            joined([b.seeds for b in batches]),
            all(b.validated for b in batches),
            joined([b.crossings for b in batches]),
            joined([b.turns for b in batches]),
        )

    def pick(self, which: np.ndarray) -> Batch:
        """The tours at the indices ``which``, in that order."""
        return self._take(np.asarray(which, dtype=np.int64))

    def part(self, start: int, stop: int) -> Batch:
        """Tours ``start`` to ``stop - 1`` of the batch, in its order."""
        return self._take(slice(start, stop))

    def _take(self, which: np.ndarray | slice) -> Batch:
        return Batch(
            self.board,
            self.closed,
            self.keys[which],
            self.codes[which],
            self.starts[which],
            self.ends[which],
            None if self.seeds is None else self.seeds[which],
            self.validated,
            None if self.crossings is None else self.crossings[which],
            None if self.turns is None else self.turns[which],
        )


@dataclass
class PackedRows:
    """Consecutive tour rows of one board and kind, as arrays: what the exporter reads
    (:meth:`~knightstour.library.store.tours.Tours.iter_packed`). Nothing is decoded or checked
    yet.

    ``keys`` is ``(rows, key_length)`` uint8, the packed canonical forms; ``codes``, ``starts``
    and ``methods`` (method ids) are int64, one a row, in id order (``ids``).
    """

    board: Board
    closed: bool
    ids: np.ndarray
    keys: np.ndarray
    codes: np.ndarray
    starts: np.ndarray
    methods: np.ndarray

    def __len__(self) -> int:
        return int(self.ids.shape[0])


def shape_of(board: Board) -> str:
    """What the ``shape`` column holds for ``board``: ``''`` for a plain knight's board (so the
    rows of a library made before shaped boards stay as they are), else its
    :attr:`~knightstour.board.Board.key`.

    >>> shape_of(Board(8, 8)), shape_of(Board(8, 8, wrap="torus")), shape_of(Board(3, 3, depth=3))
    ('', '8x8 wrap=torus', '3x3x3')
    """
    return "" if board.is_plain_knight else board.key


def library_board(board: BoardLike) -> Board:
    """A :class:`Board` from a spec (``8x8``), a board key (``8x8 wrap=torus holes=a1``,
    :attr:`~knightstour.board.Board.key`) or a Board: what ``--board`` of the library takes.

    >>> library_board("8x8 wrap=torus holes=a1-b1").description
    '8x8 wrap=torus holes=a1,b1'
    >>> library_board("8x8 leaper=9")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: unknown leaper '9': expected a name (knight, camel, zebra, giraffe, antelope) or two legs like 1,3
    """
    if isinstance(board, str) and "=" in board:
        return Board.from_key(board)
    return parse_board(board)


@functools.lru_cache(maxsize=64)
def row_board(width: int, height: int, shape: str) -> Board:
    """The board of a stored row, made once (its neighbour table too) for all its rows.

    >>> row_board(8, 8, "8x8 wrap=torus").description
    '8x8 wrap=torus'
    """
    if not shape:
        return Board(width, height)
    board = Board.from_key(shape)
    if (board.width, board.height) != (width, height) or board.is_plain_knight:
        raise InvalidInputError(f"the key {shape!r} is not of a {width}x{height} shaped board")
    return board


def canonical_batch(board: Board, closed: bool, paths: np.ndarray) -> Batch:
    """Canonical forms of validated tours ``paths`` (``(B, area)``) as a :class:`Batch`.

    Uses the compiled kernel for big batches and the NumPy reference for small ones (the two
    agree exactly: the tests hold them to it).
    """
    cf.check_library_board(board)
    # int32, as the batch walks: the kernels compile one specialisation for both
    paths = np.ascontiguousarray(paths, dtype=np.int32)
    b, n = paths.shape
    klen = cf.key_length(board)
    keys = np.zeros((b, klen), dtype=np.uint8)
    codes = np.zeros(b, dtype=np.int64)
    if b * n > 20_000 and board.is_plain_knight:
        from knightstour.kernels import jit
        from knightstour.kernels import library as _kernels

        perms, invs = cf.symmetries(board.width, board.height)
        jit.load(_kernels, compiled=True).canonical_batch(
            paths,
            closed,
            perms,
            invs,
            board.width,
            cf.header_bytes(board),
            cf.CODE_OF,
            keys,
            codes,
        )
    else:
        for i in range(b):
            key, codes[i] = cf.canonical_form(board, paths[i], closed)
            keys[i] = np.frombuffer(key, dtype=np.uint8)
    return Batch(board, closed, keys, codes, paths[:, 0].copy(), paths[:, -1].copy())


def same_kind(rows: list[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    """Runs of consecutive rows of the same board and kind (decoded together): rows as
    :data:`~knightstour.library.store.tours.COLS` reads them."""
    i = 0
    while i < len(rows):
        j = i + 1
        while j < len(rows) and rows[j][1:4] == rows[i][1:4] and rows[j][12] == rows[i][12]:
            j += 1
        yield rows[i:j]
        i = j
