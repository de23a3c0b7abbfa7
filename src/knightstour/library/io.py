"""Export and import: the library as JSON lines or CSV, streamed in constant memory.

``jsonl`` writes one tour a line in the contract's tour JSON (exactly what
:meth:`knightstour.Tour.to_json` gives: a shaped board's tour carries its optional fields,
``depth``, ``leaper``, ``wrap`` and ``holes``); ``csv`` writes one row a tour with its metadata and
the path as square names separated by spaces, and, when the tours written include a shaped
board's, a last column ``board`` with the board's key (:attr:`knightstour.board.Board.key`,
empty for a plain board). Import reads either back and validates every tour: a
broken one rejects the whole file (nothing is stored) with a message naming the line and the
problem.

>>> import io, knightstour as kt
>>> from knightstour.library import Library
>>> lib = Library(":memory:")
>>> _ = lib.tours.add([kt.solve("5x5", start="a1", method="warnsdorff")])
>>> out = io.StringIO()
>>> export(lib, out, fmt="jsonl")
1
>>> out.getvalue()[:60]
'{"width":5,"height":5,"closed":false,"method":"warnsdorff","'
>>> import_tours(Library(":memory:"), ['{"width": 5, "height": 5, "path": ["a1", "b2"]}'])
Traceback (most recent call last):
...
knightstour.library.io.ImportRejectedError: line 1: not a valid tour: move 2 (a1 to b2) is not a knight's move; 23 squares are never visited: ...; nothing imported
"""

from __future__ import annotations

import csv
import json
import os
import queue
import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import IO, Any

import numpy as np

from knightstour import notation
from knightstour.board import Board, BoardLike, brief, file_name
from knightstour.errors import InvalidInputError, InvalidTourError
from knightstour.library import canonical as cf
from knightstour.library.store import Library, PackedRows, canonical_batch, same_kind
from knightstour.tour import Tour

__all__ = ["EXPORT_FORMATS", "ImportRejectedError", "ImportResult", "export", "import_tours"]

EXPORT_FORMATS = ("jsonl", "csv")
#: The optional fields of a shaped board's tour JSON.
_SHAPE_FIELDS = ("depth", "leaper", "wrap", "holes")
CSV_COLUMNS = (
    "id",
    "width",
    "height",
    "closed",
    "method",
    "start",
    "end",
    "seed",
    "created",
    "path",
)


class ImportRejectedError(InvalidInputError):
    """An import found a broken tour or line; nothing was stored. The exit code is the cause's."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass
class ImportResult:
    """What an import did: lines with a tour read, and how many of them were new."""

    read: int = 0
    added: int = 0

    @property
    def duplicates(self) -> int:
        return self.read - self.added


# -- export ----------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _fragments(width: int, height: int) -> tuple[list[str], list[str], list[str]]:
    """Per square: its JSON name ``"a1"``, its JSON ``[x,y]`` and its bare name."""
    names = [f"{file_name(s % width)}{s // width + 1}" for s in range(width * height)]
    xy = [f"[{s % width},{s // width}]" for s in range(width * height)]
    return [f'"{n}"' for n in names], xy, names


def _fragment_table(texts: list[str], sep: str) -> tuple[np.ndarray, np.ndarray]:
    """The ASCII bytes of each text then ``sep``, one fixed-width item each (filled out with zero
    bytes, a multiple of 8 wide, so that a lookup copies one item), and the texts' lengths."""
    width = -(-(max(len(t) for t in texts) + len(sep)) // 8) * 8
    raw = "".join(t + sep + "\0" * (width - len(t) - len(sep)) for t in texts).encode()
    lens = np.array([len(t) for t in texts], dtype=np.int64)
    return np.frombuffer(raw, dtype=np.dtype((np.void, width))), lens


def _jsonl(width: int, height: int, heads: list[str], tours: np.ndarray) -> str:
    """The JSON lines of ``tours`` (rows of square indices) on a plain board, each after its
    head (``{"width":..,"method":..,"path":[``): the bytes of the tour JSON, made for the whole
    chunk at once by vectorised NumPy (fragments looked up, zero bytes squeezed out)."""
    jnames, jxy, _ = _fragments(width, height)
    kinds = sorted(set(heads))
    if len(kinds) == 1 and len({len(t) for t in jnames}) == len({len(t) for t in jxy}) == 1:
        return _jsonl_fixed(kinds[0], jnames, jxy, tours)
    (name_t, name_len), (xy_t, xy_len) = _fragment_table(jnames, ","), _fragment_table(jxy, ",")
    head_t, _ = _fragment_table(kinds, "")
    which = np.array([kinds.index(h) for h in heads], dtype=np.int64)
    rows, n = tours.shape
    mid = np.frombuffer(b'],"xy":[', dtype=np.uint8)
    tail = np.frombuffer(b"]}\n", dtype=np.uint8)
    as_bytes = lambda a: a.view(np.uint8).reshape(rows, -1)  # noqa: E731
    parts = [
        as_bytes(head_t[which]),
        as_bytes(name_t[tours]),
        np.broadcast_to(mid, (rows, mid.size)),
        as_bytes(xy_t[tours]),
        np.broadcast_to(tail, (rows, tail.size)),
    ]
    text = np.concatenate(parts, axis=1)
    # the comma after each list's last square is not JSON
    last = tours[:, -1]
    at = np.arange(rows)
    names_end = head_t.itemsize + name_t.itemsize * (n - 1)
    text[at, names_end + name_len[last]] = 0
    xy_end = names_end + name_t.itemsize + mid.size + xy_t.itemsize * (n - 1)
    text[at, xy_end + xy_len[last]] = 0
    return text[text != 0].tobytes().decode()


def _jsonl_fixed(head: str, jnames: list[str], jxy: list[str], tours: np.ndarray) -> str:
    """:func:`_jsonl` when the chunk has one head and every square's fragments one width (8x8):
    each line is as long as the next, so the text is laid out in place, nothing squeezed out."""
    rows, n = tours.shape
    pieces = []
    for texts in (jnames, jxy):  # each fragment and a comma, 8 bytes an item for the lookup
        size = len(texts[0]) + 1
        table = np.frombuffer("".join(f"{t},".ljust(8, "\0") for t in texts).encode(), np.uint64)
        pieces.append((table[tours].view(np.uint8).reshape(rows, n, 8)[:, :, :size], size))
    h, mid, tail = head.encode(), b'],"xy":[', b"]}\n"
    (names, ln), (xys, lx) = pieces
    line = len(h) + n * ln - 1 + len(mid) + n * lx - 1 + len(tail)
    out = np.empty((rows, line), dtype=np.uint8)
    out[:, : len(h)] = np.frombuffer(h, np.uint8)
    p = len(h)
    out[:, p : p + n * ln].reshape(rows, n, ln)[:] = names
    p += n * ln - 1  # over the last comma
    out[:, p : p + len(mid)] = np.frombuffer(mid, np.uint8)
    p += len(mid)
    out[:, p : p + n * lx].reshape(rows, n, lx)[:] = xys
    p += n * lx - 1
    out[:, p:] = np.frombuffer(tail, np.uint8)
    return out.tobytes().decode()


#: Tours from which an export loads the compiled kernels (about half a second, while a thread
#: reads ahead) rather than decode and format in NumPy.
COMPILE_EXPORT_ROWS = 20_000
#: Chunks a reading thread keeps ready ahead of the formatting (memory: about 1 MB each).
READ_AHEAD = 16


def export(
    lib: Library,
    out: IO[str],
    *,
    fmt: str = "jsonl",
    board: BoardLike | None = None,
    closed: bool | None = None,
    limit: int | None = None,
) -> int:
    """Write every tour (on ``board``, of one kind; the first ``limit``) to ``out``, one a line;
    how many.

    Reads the library a chunk at a time and writes as it goes: memory stays flat. Each chunk is
    decoded and validated before it is written. A long ``jsonl`` export reads in a thread of its
    own while this one decodes and formats each chunk in a compiled kernel and writes its bytes
    (to ``out.buffer`` when ``out`` is a text file that would write the same bytes).
    """
    if fmt not in EXPORT_FORMATS:
        raise InvalidInputError(
            f"unknown export format {fmt!r}: choose one of {', '.join(EXPORT_FORMATS)}"
        )
    if fmt == "jsonl":
        return _export_jsonl(lib, out, board, closed, limit)
    writer = csv.writer(out, lineterminator="\n")
    shapes = lib.tours.holds_shapes(board, closed)
    writer.writerow((*CSV_COLUMNS, "board") if shapes else CSV_COLUMNS)
    n = 0
    for rows in lib.tours.iter_rows(board, closed, limit=limit):
        for group in same_kind(rows):
            b, c, tours = lib.tours.decode_rows(group)
            methods = {r[8]: lib.tours.method_name(r[8]) for r in group}
            if not b.is_plain_knight:
                _export_shaped(out, writer, b, c, group, tours, methods)
                n += len(group)
                continue
            _, _, names = _fragments(b.width, b.height)
            for r, p in zip(group, tours.tolist(), strict=True):
                writer.writerow(
                    (
                        r[0],
                        b.width,
                        b.height,
                        str(c).lower(),
                        methods[r[8]],
                        names[p[0]],
                        names[p[-1]],
                        "" if r[9] is None else r[9],
                        _iso(r[11]),
                        " ".join([names[s] for s in p]),
                        *([""] if shapes else []),
                    )
                )
            n += len(group)
    return n


def _export_jsonl(
    lib: Library,
    out: IO[str],
    board: BoardLike | None,
    closed: bool | None,
    limit: int | None,
) -> int:
    """:func:`export` as JSON lines: chunks of :class:`PackedRows`, decoded and formatted."""
    methods = lib.tours.method_names()
    span = lib.tours.id_span(board, closed)
    if limit is not None:
        span = min(span, limit)
    chunks: Iterable[PackedRows] = lib.tours.iter_packed(board, closed, limit=limit)
    reader = _ReadAhead(chunks) if span > COMPILE_EXPORT_ROWS else None
    sink = _byte_sink(out)
    n = 0
    try:
        # the kernels load (Numba, the cache) while the thread reads the first chunks
        kernels = cf.library_kernels(span, COMPILE_EXPORT_ROWS)
        for packed in reader if reader is not None else chunks:
            b, c = packed.board, packed.closed
            tours = _decode_packed(lib, packed)
            if not b.is_plain_knight:
                for m, p in zip(packed.methods.tolist(), tours.tolist(), strict=True):
                    out.write(notation.compact_json(notation.tour_dict(b, p, c, methods[m])) + "\n")
                n += len(packed)
                continue
            kinds = sorted(set(packed.methods.tolist()))
            heads = [_head(b, c, methods.get(m, "")) for m in kinds]
            if kernels is None:
                which = [heads[kinds.index(m)] for m in packed.methods.tolist()]
                out.write(_jsonl(b.width, b.height, which, tours))
            else:
                text = _jsonl_compiled(kernels, b, heads, kinds, packed.methods, tours)
                if sink is not None:
                    sink.write(text)
                else:
                    out.write(bytes(text).decode())
            n += len(packed)
    finally:
        if reader is not None:
            reader.stop()
    return n


def _head(b: Board, closed: bool, method: str) -> str:
    """The start of a tour's JSON line, up to its path's first square."""
    d = {"width": b.width, "height": b.height, "closed": closed, "method": method}
    return json.dumps(d, separators=(",", ":"))[:-1] + ',"path":['


def _decode_packed(lib: Library, packed: PackedRows) -> np.ndarray:
    """The chunk's tours, decoded and checked (a damaged row names the library and the tour)."""
    tours, ok = cf.decode_batch(packed.board, packed.keys, packed.codes, packed.closed)
    ok &= tours[:, 0] == packed.starts
    if not ok.all():
        bad = int(packed.ids[int(np.flatnonzero(~ok)[0])])
        raise InvalidInputError(f"{lib.path} is damaged: tour {bad} does not decode to a tour")
    return tours


def _byte_table(texts: list[str], sep: str = "") -> tuple[np.ndarray, np.ndarray]:
    """Each text and ``sep`` as a row of bytes (the rows a multiple of 8 wide, zeros after),
    and their lengths: a table of :func:`~knightstour.kernels.library.jsonl_lines`."""
    raw = [(t + sep).encode() for t in texts]
    wide = -(-max(len(r) for r in raw) // 8) * 8
    table = np.zeros((len(raw), wide), dtype=np.uint8)
    for i, r in enumerate(raw):
        table[i, : len(r)] = np.frombuffer(r, dtype=np.uint8)
    return table, np.array([len(r) for r in raw], dtype=np.int64)


@lru_cache(maxsize=16)
def _square_tables(width: int, height: int) -> tuple[np.ndarray, ...]:
    """The quoted square names and ``[x,y]`` pairs of a board, each with its comma, as tables."""
    jnames, jxy, _ = _fragments(width, height)
    return (*_byte_table(jnames, ","), *_byte_table(jxy, ","))


def _jsonl_compiled(
    kernels: Any,
    b: Board,
    heads: list[str],
    kinds: list[int],
    methods: np.ndarray,
    tours: np.ndarray,
) -> memoryview:
    """The JSON lines of a chunk, made by the compiled kernel: a view of its bytes."""
    names, name_len, xys, xy_len = _square_tables(b.width, b.height)
    head_t, head_len = _byte_table(heads)
    which = np.searchsorted(np.array(kinds, dtype=np.int64), methods)
    rows, n = tours.shape
    line = head_t.shape[1] + n * (names.shape[1] + xys.shape[1]) + 16
    buf = np.empty(rows * line + 64, dtype=np.uint8)
    size = kernels.jsonl_lines(tours, which, head_t, head_len, names, name_len, xys, xy_len, buf)
    return memoryview(buf.data)[:size]


def _byte_sink(out: IO[str]) -> Any | None:
    """The binary file under text file ``out`` when writing ASCII bytes to it gives what
    writing the text would (an ASCII-compatible encoding, no newline translation), else None."""
    buffer = getattr(out, "buffer", None)
    encoding = str(getattr(out, "encoding", "") or "").lower().replace("_", "-")
    if buffer is None or os.linesep != "\n" or encoding not in _ASCII_SUPERSETS:
        return None
    out.flush()
    return buffer


_ASCII_SUPERSETS = frozenset(
    ("utf-8", "utf8", "ascii", "us-ascii", "latin-1", "latin1", "iso-8859-1", "cp1252")
)


class _ReadAhead:
    """Iterate ``chunks`` in a thread of its own, up to :data:`READ_AHEAD` ahead: SQLite does its
    work without Python's lock, so reading overlaps the formatting (and the kernels' loading).
    An error of the reading is raised here, in order; :meth:`stop` ends the thread early."""

    _END = object()

    def __init__(self, chunks: Iterable[Any]) -> None:
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=READ_AHEAD)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(chunks,), daemon=True)
        self.thread.start()

    def _run(self, chunks: Iterable[Any]) -> None:
        try:
            for item in chunks:
                if not self._put((item, None)):
                    return
        except BaseException as e:  # handed to the reader, which raises it
            self._put((self._END, e))
            return
        self._put((self._END, None))

    def _put(self, item: tuple[Any, BaseException | None]) -> bool:
        while not self.stopping.is_set():
            try:
                self.queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator[Any]:
        while True:
            item, error = self.queue.get()
            if error is not None:
                raise error
            if item is self._END:
                return
            yield item

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()


def _export_shaped(
    out: IO[str],
    writer: Any,
    b: Board,
    c: bool,
    rows: list[tuple[Any, ...]],
    tours: np.ndarray,
    methods: dict[int, str],
) -> None:
    """Export the tours of a shaped board: JSON with the board's optional fields, or CSV rows
    ending in the board's key."""
    for r, p in zip(rows, tours.tolist(), strict=True):
        if writer is None:
            out.write(notation.compact_json(notation.tour_dict(b, p, c, methods[r[8]])) + "\n")
            continue
        names = [b.square_name(s) for s in p]
        writer.writerow(
            (
                r[0], b.width, b.height, str(c).lower(), methods[r[8]], names[0], names[-1],
                "" if r[9] is None else r[9], _iso(r[11]), " ".join(names), b.key,
            )
        )  # fmt: skip


def _iso(t: int) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- import ----------------------------------------------------------------------------------


def import_tours(
    lib: Library,
    lines: Iterable[str],
    *,
    fmt: str = "jsonl",
    source: str = "",
    method: str | None = None,
    chunk: int = 10_000,
) -> ImportResult:
    """Add the tours in ``lines`` (JSON lines, or CSV as :func:`export` writes it).

    Every tour is validated; the first broken one rejects the whole import (one transaction)
    with an :class:`ImportRejectedError` naming its line and problem. Tours the library already
    holds (up to symmetry) are counted, not stored twice.
    """
    if fmt not in EXPORT_FORMATS:
        raise InvalidInputError(
            f"unknown import format {fmt!r}: choose one of {', '.join(EXPORT_FORMATS)}"
        )
    where = f"{source} line" if source else "line"
    records = _jsonl_records(lines, where) if fmt == "jsonl" else _csv_records(lines, where)
    result = ImportResult()
    pending: dict[tuple[Board, bool, str], list[tuple[int, Any, list[int]]]] = {}
    held = 0
    with lib.atomic():
        for lineno, data, keep in records:
            try:
                key, squares = _fast(data)
            except _Slow:
                key, squares = _slow(data, f"{where} {lineno}")
            if method is not None:
                key = (key[0], key[1], method)
            # keep the line's text, not its parsed objects: a few objects a tour, not hundreds
            pending.setdefault(key, []).append((lineno, keep, squares))
            held += 1
            result.read += 1
            if held >= chunk:
                result.added += _flush(lib, pending, where)
                held = 0
        result.added += _flush(lib, pending, where)
    return result


class _Slow(Exception):
    """The quick parse could not take this record: let Tour.from_dict judge it."""


def _fast(data: Any) -> tuple[tuple[Board, bool, str], list[int]]:
    """Board, kind, method and square indices of a well-formed record (no tour checks yet)."""
    if not isinstance(data, dict):
        raise _Slow
    w, h, c = data.get("width"), data.get("height"), data.get("closed", False)
    path, xy = data.get("path"), data.get("xy")
    if not (type(w) is int and type(h) is int and type(c) is bool and isinstance(path, list)):
        raise _Slow
    if any(data.get(k) is not None for k in _SHAPE_FIELDS):
        raise _Slow  # a shaped board: Tour.from_dict reads its fields
    if not (0 < w <= 1000 and 0 < h <= 1000) or len(path) != w * h:
        raise _Slow  # tables of the board's squares only for a line that holds a whole tour
    index, pairs = _squares(w, h)
    try:
        squares = [index[s] for s in path]
    except (KeyError, TypeError):
        raise _Slow from None
    if xy is not None and xy != [pairs[s] for s in squares]:
        raise _Slow
    method = data.get("method") or "unknown"
    if not isinstance(method, str):
        raise _Slow
    return (_board(w, h), c, method), squares


def _slow(data: Any, where: str) -> tuple[tuple[Board, bool, str], list[int]]:
    try:
        t = Tour.from_dict(data)
    except InvalidTourError as e:
        listed = "; ".join(str(p) for p in e.problems[:3])
        more = f" (and {len(e.problems) - 3} more)" if len(e.problems) > 3 else ""
        raise ImportRejectedError(
            f"{where}: not a valid tour: {listed}{more}; nothing imported", e.exit_code
        ) from None
    except InvalidInputError as e:
        raise ImportRejectedError(f"{where}: {e}; nothing imported", e.exit_code) from None
    return (t.board, t.closed, t.method or "unknown"), t.indices.tolist()


@lru_cache(maxsize=16)
def _squares(width: int, height: int) -> tuple[dict[str, int], list[list[int]]]:
    """Square name -> index, and index -> ``[x, y]``."""
    names = _fragments(width, height)[2]
    pairs = [[s % width, s // width] for s in range(width * height)]
    return {n: i for i, n in enumerate(names)}, pairs


@lru_cache(maxsize=16)
def _board(width: int, height: int) -> Board:
    return Board(width, height)


def _flush(
    lib: Library,
    pending: dict[tuple[Board, bool, str], list[tuple[int, Any, list[int]]]],
    where: str,
) -> int:
    """Validate (vectorised) and store the pending records; the number of new tours."""
    added = 0
    for (board, closed, method), recs in pending.items():
        paths = np.array([r[2] for r in recs], dtype=np.int64)
        ok = _valid_rows(board, paths, closed)
        if not ok.all():
            lineno, keep, _ = recs[int(np.flatnonzero(~ok)[0])]
            _slow(json.loads(keep) if isinstance(keep, str) else keep, f"{where} {lineno}")
            raise ImportRejectedError(f"{where} {lineno}: not a valid tour; nothing imported")
        added += lib.tours.add_batch(canonical_batch(board, closed, paths), method=method)
    pending.clear()
    return added


def _valid_rows(board: Board, paths: np.ndarray, closed: bool) -> np.ndarray:
    """Which rows of ``paths`` are tours: knight's moves, every square once, closed if said
    (on a shaped board: the board's moves, every square but the holes once)."""
    if not board.is_plain_knight:
        table, n = board.neighbours, board.size
        if paths.shape[1] != n or (paths < 0).any() or (paths >= board.area).any():
            return np.zeros(paths.shape[0], dtype=bool)
        ok = (table[paths[:, :-1]] == paths[:, 1:, None]).any(axis=2).all(axis=1)
        ok &= np.array([len(set(p)) == n for p in paths.tolist()], dtype=bool)
        if closed and n > 1:
            ok &= (table[paths[:, -1]] == paths[:, :1]).any(axis=1)
        return ok
    w, n = board.width, board.area
    x, y = paths % w, paths // w
    dx, dy = np.abs(np.diff(x, axis=1)), np.abs(np.diff(y, axis=1))
    ok = (((dx == 1) & (dy == 2)) | ((dx == 2) & (dy == 1))).all(axis=1)
    seen = np.zeros(paths.size, dtype=bool)
    seen[(paths + np.arange(paths.shape[0])[:, None] * n).ravel()] = True
    ok &= seen.reshape(paths.shape).all(axis=1)
    if closed:
        cx, cy = np.abs(x[:, -1] - x[:, 0]), np.abs(y[:, -1] - y[:, 0])
        ok &= ((cx == 1) & (cy == 2)) | ((cx == 2) & (cy == 1))
    return ok


#: Characters of a line read at a time, so that a line is refused as soon as it is too long.
_PIECE = 1 << 20


def _bounded_lines(lines: Iterable[str], where: str, limit: int | None = None) -> Iterator[str]:
    """The lines of ``lines``, each refused once longer than ``limit`` characters (default
    :func:`knightstour.notation.read_limit`), or at its first NUL: a stream is read a piece at
    a time, so ``/dev/zero`` costs a megabyte, not all the memory there is.

    >>> import io
    >>> list(_bounded_lines(io.StringIO("a\\nbb\\n"), "t", limit=5))
    ['a\\n', 'bb\\n']
    >>> import io
    >>> list(_bounded_lines(io.StringIO("a" * 20), "t", limit=5))
    Traceback (most recent call last):
    ...
    knightstour.library.io.ImportRejectedError: t 1: the line is longer than 5 characters, the most read at once on this machine; nothing imported
    """
    limit = notation.read_limit() if limit is None else limit
    readline = getattr(lines, "readline", None)
    source: Iterator[list[str]] = (
        ([line] for line in lines) if readline is None else _pieces(readline, limit)
    )
    lineno = 0
    while True:
        lineno += 1
        try:
            pieces = next(source, None)
        except UnicodeDecodeError as e:
            raise ImportRejectedError(
                f"{where} {lineno}: not UTF-8 text ({e.reason}); nothing imported", 2
            ) from None
        if pieces is None:
            return
        if any("\0" in p for p in pieces):
            raise ImportRejectedError(
                f"{where} {lineno}: a NUL character: binary data, not text; nothing imported", 2
            )
        if sum(map(len, pieces)) > limit:
            raise ImportRejectedError(
                f"{where} {lineno}: the line is longer than {limit:,} characters, the most read at "
                "once on this machine; nothing imported",
                2,
            )
        yield pieces[0] if len(pieces) == 1 else "".join(pieces)


def _pieces(readline: Any, limit: int) -> Iterator[list[str]]:
    """Each line of a stream as pieces, stopping early at ``limit`` characters or a NUL."""
    while first := readline(min(_PIECE, limit + 1)):
        pieces, size = [first], len(first)
        while not pieces[-1].endswith("\n") and size <= limit and "\0" not in pieces[-1]:
            piece = readline(min(_PIECE, limit + 1 - size))
            if not piece:
                break
            pieces.append(piece)
            size += len(piece)
        yield pieces


def _jsonl_records(lines: Iterable[str], where: str) -> Iterator[tuple[int, Any, Any]]:
    """``(line number, parsed record, what to keep to parse it again)`` for each line."""
    for lineno, line in enumerate(_bounded_lines(lines, where), 1):
        if not line.strip():
            continue
        try:
            yield lineno, notation.load_json(line), line
        except InvalidInputError as e:
            raise ImportRejectedError(f"{where} {lineno}: {e}; nothing imported", 2) from None


@contextmanager
def _csv_field_limit(limit: int) -> Iterator[None]:
    """The csv module's (process-wide) field limit raised to ``limit`` while a file is read:
    a path on a big board is longer than its default 131,072 characters."""
    old = csv.field_size_limit()
    csv.field_size_limit(max(old, limit))
    try:
        yield
    finally:
        csv.field_size_limit(old)


_CSV_INT = re.compile(r"^\s*\d{1,10}\s*$", re.ASCII)


def _csv_int(text: str, column: str) -> int:
    """A board side from a CSV cell: plain digits, at most ten (no sign, ``_`` or exponent)."""
    if not _CSV_INT.match(text):
        raise ValueError(f"{column} must be a whole number of at most 10 digits, got {brief(text)}")
    return int(text)


def _csv_records(lines: Iterable[str], where: str) -> Iterator[tuple[int, dict[str, Any], Any]]:
    limit = notation.read_limit()
    with _csv_field_limit(limit):
        reader = csv.reader(_bounded_lines(lines, where, limit))
        try:
            yield from _csv_rows(reader, where)
        except csv.Error as e:
            raise ImportRejectedError(
                f"{where} {reader.line_num}: not CSV: {e}; nothing imported", 2
            ) from None


def _csv_rows(reader: Any, where: str) -> Iterator[tuple[int, dict[str, Any], Any]]:
    header = next(reader, None)
    if header is None:
        return
    missing = [c for c in ("width", "height", "path") if c not in header]
    if missing:
        raise ImportRejectedError(
            f"{where} 1: the CSV header lacks {', '.join(missing)}; nothing imported", 2
        )
    col = {name: i for i, name in enumerate(header)}
    for row in reader:
        lineno = reader.line_num
        if not row:
            continue
        try:
            rec: dict[str, Any] = {
                "width": _csv_int(row[col["width"]], "width"),
                "height": _csv_int(row[col["height"]], "height"),
                "path": row[col["path"]].split(),
            }
            if "closed" in col:
                text = row[col["closed"]].strip().lower()
                if text not in ("true", "false", "1", "0", ""):
                    raise ValueError(f"closed must be true or false, got {brief(text)}")
                rec["closed"] = text in ("true", "1")
            if "method" in col:
                rec["method"] = row[col["method"]]
            if "board" in col and row[col["board"]].strip():
                shaped = Board.from_key(row[col["board"]].strip())
                if (shaped.width, shaped.height) != (rec["width"], rec["height"]):
                    raise ValueError(
                        f"the board {brief(row[col['board']])} is not {rec['width']}x{rec['height']}"
                    )
                rec.update(notation.board_fields(shaped))
        except IndexError:
            raise ImportRejectedError(
                f"{where} {lineno}: {len(row)} fields, fewer than the header's; nothing imported",
                2,
            ) from None
        except ValueError as e:
            raise ImportRejectedError(f"{where} {lineno}: {e}; nothing imported", 2) from None
        yield lineno, rec, rec
