"""``knightstour count``: the exact number of tours, remembered in a tour library.

The number is printed alone on the first line (for scripts), then what it counts and where it
came from: computed, remembered, known without counting (a theorem's 0, the theorem named) or
published (a figure of ``knightstour.published`` this machine cannot count or would take long
over, labelled with its source, and a third line saying why; exit 0). With ``--db FILE`` (or when ``tours.db``, the library ``generate`` fills by default,
exists here) the count is looked up first, and remembered after it is computed, so asking again
is instant; ``--table`` prints every count the library remembers.

>>> import os, tempfile
>>> from knightstour.cli import main
>>> here = os.getcwd()
>>> os.chdir(tempfile.mkdtemp())
>>> main(["count", "5x5", "--db", "t.db"])
1728
directed open tours on 5x5 (each path counted in both directions): computed in ... s (frontier); remembered in t.db
0
>>> main(["count", "5x5", "--db", "t.db"])
1728
directed open tours on 5x5 (each path counted in both directions): remembered in t.db (frontier, ... s, ...)
0
>>> main(["count", "--table", "--db", "t.db"])
board  kind  start  end  directed  count  method    seconds  counted
5x5    open  any    any  yes       1,728  frontier  ...
0
>>> os.chdir(here)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from knightstour.cli._options import (
    EXIT_GAVE_UP,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    add_board_options,
    add_options,
    board_of,
)
from knightstour.cli._output import compiling_said, err
from knightstour.cli.progress import progress_bar
from knightstour.errors import InputLimitError, InvalidInputError, SearchFailedError
from knightstour.notation import digits, json_counts

if TYPE_CHECKING:
    from knightstour.counting import CountRequest, Tally
    from knightstour.library.store import KnownCount

NAME = "count"
HELP = "count the tours of a board exactly"
DESCRIPTION = (
    "Print the exact number of knight's tours on BOARD: closed or open, from a start square, "
    "to an end square. The number comes first, alone on its line; the next line says what it "
    "counts and where it comes from. Counts are remembered in a tour library (--db), so asking "
    "again is instant. A theorem's 0 comes at once, the theorem named. A count this machine "
    "cannot make (8x8: its memory) or would take minutes and gigabytes over (7x7 open, 7x8 "
    "closed) prints the published figure instead, labelled with its source and why it was not "
    "counted (exit 0); --method frontier counts it where it fits."
)
#: The options that --table does not take (it lists what is known): attribute, flag.
_NOT_WITH_TABLE = (
    ("closed", "--closed"),
    ("start", "--start"),
    ("end", "--end"),
    ("time_limit", "--time-limit"),
    ("scheduler", "--scheduler"),
    ("checkpoint", "--checkpoint"),
    ("memory", "--memory"),
    ("workdir", "--workdir"),
)


class _Formatter(argparse.HelpFormatter):
    """Help that wraps the text's lines but keeps the indented ones (a table) as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        for line in text.splitlines():
            if not line or line.startswith(" "):
                out.append(indent + line)
            else:
                out += textwrap.wrap(line, width, initial_indent=indent, subsequent_indent=indent)
        return "\n".join(out)


def _conventions() -> str:
    """The help's table of what each number counts (:data:`knightstour.counting.CONVENTIONS`)."""
    from knightstour.counting import CONVENTIONS

    width = max(len(name) for name, _ in CONVENTIONS)
    lines = [
        "What the number counts (directed, the default, counts each tour once per direction; "
        "--undirected counts each path or cycle once):"
    ]
    for name, text in CONVENTIONS:
        body = textwrap.wrap(text, 78 - width - 4) or [""]
        lines.append(f"  {name.ljust(width)}  {body[0]}")
        lines.extend(f"  {'':{width}}  {more}" for more in body[1:])
    from knightstour import published
    from knightstour.board import Board

    five, six = published.find(Board(5, 5), closed=False), published.find(Board(6, 6), closed=True)
    if five is not None and six is not None:  # the published figures, with their sources
        lines += [
            "",
            f"Examples: 'count 5x5' prints {five.count} (directed open tours, {five.source}); "
            f"'count 6x6 --closed --undirected' prints {six.count} ({six.source}).",
        ]
    return "\n".join(lines)


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``count``."""
    from knightstour.counting import METHODS

    p.formatter_class = _Formatter
    p.epilog = _conventions()
    add_board_options(p)
    add_options(
        p,
        closed={"help": "closed tours (Hamiltonian cycles); default: open tours (paths)"},
        start={"help": "count the tours that begin on this square"},
        end={"help": "count the tours that end on this square"},
    )
    p.add_argument(
        "--undirected",
        dest="directed",
        action="store_false",
        help="count each path or cycle once, not once per direction (directed is the default)",
    )
    p.add_argument(
        "--method",
        default="auto",
        choices=METHODS,
        help="auto (default: frontier), frontier (dynamic programming) or enumerate "
        "(exhaustive, small boards); an explicit method counts again even when the number "
        "is remembered",
    )
    add_options(
        p,
        "time_limit",
        "db",
        "scheduler",
        "format",
        "quiet",
        db={
            "default": None,
            "help": "tour library that remembers counts (default: tours.db when it exists here)",
        },
        format={"choices": ("text", "json")},
    )
    p.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="save the sweep to FILE every minute (less often when a save takes long, so that "
        "saving takes at most a tenth of the time) and when the time limit stops it; after "
        "Ctrl-C, a crash or the time limit, the same command goes on from it (removed when the "
        "count is done). FILE is checked before counting (its folder must exist and be "
        "writable), verified before it is used (a damaged one is refused), and used by one "
        "count at a time",
    )
    p.add_argument(
        "--memory",
        metavar="SIZE",
        help="memory the sweep's states may take, such as 20G or 512M (default: 80%% of what "
        "the machine has available); from the square whose states would not fit, they are "
        "spilled to disk in hash partitions and added up a partition at a time (the same "
        "number, more slowly). A count whose partitions would not fit on the disk either is "
        "refused before it starts, with the estimate",
    )
    p.add_argument(
        "--workdir",
        metavar="DIR",
        help="folder for the spilled partitions (default: FILE.parts beside the --checkpoint, "
        "which a stopped count goes on from; else a folder of its own in the system's "
        "temporary folder, removed at the end)",
    )
    p.add_argument(
        "--table",
        action="store_true",
        help="print the counts the library remembers (of BOARD if given) instead of counting",
    )


def run(args: argparse.Namespace) -> int:
    """Count (or recall, or quote the published figure) and print; exit 0, 2 (bad input) or 3
    (the time limit was hit)."""
    if args.table:
        return _table(args)
    if args.board is None and args.mask is None:
        raise UsageError("give a BOARD to count, or --table (see 'knightstour count --help')")
    from knightstour import arguments
    from knightstour.counting import count_request, tally

    memory = arguments.memory(args.memory, "--memory")
    workdir = None if args.workdir is None else arguments.folder(args.workdir, "--workdir")
    request = count_request(
        board_of(args),
        closed=args.closed,
        start=args.start,
        end=args.end,
        directed=args.directed,
        method=args.method,
    )
    db = _library_path(args.db)
    t0 = time.perf_counter()
    try:
        label = f"{request.board.spec} {request.kind}"
        with progress_bar(label, unit="sq", quiet=args.quiet) as bar, _warnings_said() as said:
            result = tally(
                request,
                library=None if db is None else _LibraryFile(db),
                quote=True,
                progress=bar,
                scheduler=args.scheduler,
                time_limit=args.time_limit,
                checkpoint=args.checkpoint,
                memory=memory,
                workdir=workdir,
            )
    except InputLimitError as e:
        near = _whole_board_figure(request)
        if near is None:
            raise
        err(str(e).splitlines()[0])  # the refusal first, as it was; then the figure near it
        err(near)
        return EXIT_USAGE
    except SearchFailedError as e:
        if args.format == "json":
            data = _data(request, None, request.method_used, time.perf_counter() - t0)
            print(json.dumps({**data, "reason": str(e).splitlines()[0]}))
        else:
            err(str(e).splitlines()[0])
        return EXIT_GAVE_UP
    except KeyboardInterrupt:
        if args.checkpoint is not None and os.path.exists(args.checkpoint):
            err(f"stopped; the sweep so far is in {args.checkpoint}: run the same command to go on")
        else:
            err("stopped; nothing was counted" + ("" if db is None else f" or stored in {db}"))
        return 130
    for line in said:
        err(f"warning: {line}")
    if result.replaced is not None:
        err(
            f"warning: {db} remembered {digits(result.replaced.count)} ({result.replaced.method}) "
            f"for this count; replaced by {digits(result.number)} ({result.method})"
        )
    if result.not_stored is not None:
        err(f"the count was not remembered: {result.not_stored}")
    _print(args, result, db if result.stored or result.recalled else None, found=args.db is None)
    return EXIT_OK


def _whole_board_figure(request: CountRequest) -> str | None:
    """For a count from a start (or to an end) with no published figure of its own, the one line
    naming the whole board's published figure, labelled as published with its source; else
    None."""
    from knightstour.counting.known import by_publication, publication_near

    if (request.start is None and request.end is None) or by_publication(request) is not None:
        return None
    near = publication_near(request)
    if near is None:
        return None
    return (
        f"no published figure from {_ends(request)}; the whole board's: {digits(near.count, ',')} "
        f"{near.convention}, published, not computed here ({near.citation})"
    )


def _ends(request: CountRequest) -> str:
    """``a1``, ``a1 to h8``, ``any square to h8``: the squares a count is from and to."""
    b = request.board
    start = "any square" if request.start is None else b.square_name(request.start)
    return start if request.end is None else f"{start} to {b.square_name(request.end)}"


@contextmanager
def _warnings_said() -> Iterator[list[str]]:
    """The checkpoint's warnings (a file that could not be removed) caught as lines to print
    once the answer is out, each one line."""
    from knightstour.counting.checkpoint import CheckpointWarning

    said: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CheckpointWarning)
        yield said
    for w in caught:
        if issubclass(w.category, CheckpointWarning):
            said.append(str(w.message).splitlines()[0])
        else:  # not ours: as Python would have shown it
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _data(request: CountRequest, number: int | None, method: str, seconds: float) -> dict[str, Any]:
    """The JSON answer: the board, what was counted, the number (a JSON integer, any size)."""
    from knightstour.counting import describe

    name = request.board.square_name
    return {
        "width": request.board.width,
        "height": request.board.height,
        "kind": request.kind,
        "start": None if request.start is None else name(request.start),
        "end": None if request.end is None else name(request.end),
        "directed": request.directed,
        "count": number,
        "convention": describe(request),
        "method": method,
        "seconds": round(seconds, 3),
    }


def _print(args: argparse.Namespace, result: Tally, db: str | None, *, found: bool) -> None:
    """The number, then what it counts and where it came from (or the JSON answer): a
    theorem's 0 names the theorem, a published figure its source and why it was not counted,
    and a library the count was remembered in is named (``found``: the ``tours.db`` found in
    this folder, not given with --db)."""
    from knightstour.counting import describe

    request = result.request
    here = ", the tour library found in this folder" if found else ""
    if args.format == "json":
        if result.known is not None and result.source == "published":  # as /api/count
            data = _data(request, None, result.method, 0.0)
            extra = {"published": result.known.published_fields(), "reason": result.unmade}
        else:
            data = _data(request, result.number, result.method, result.seconds)
            extra = {"reason": result.known.citation} if result.known is not None else {}
        remembered = result.recalled is not None
        print(
            json_counts(
                {**data, "source": result.source, **extra, "remembered": remembered, "db": db}
            )
        )
        return
    lines = [digits(result.number)]
    if result.known is not None and result.source == "theory":
        lines.append(f"{describe(request)}: known without counting: {result.known.citation}")
    elif result.known is not None:
        lines.append(f"{describe(request)}: published, not computed here: {result.known.citation}")
        lines.append(f"not computed: {result.unmade}")
    elif result.recalled is not None:
        citation = result.recalled.citation
        lines.append(f"{describe(request)}: remembered in {db} ({citation}){here}")
    else:
        source = f"computed in {result.seconds:.2f} s ({result.method})"
        source += compiling_said(result.compiling)
        if db is not None:
            source += f"; remembered in {db}{here}"
        lines.append(f"{describe(request)}: {source}")
    print("\n".join(lines))


# -- the library ------------------------------------------------------------------------------


def _library_path(given: str | None) -> str | None:
    """The library that remembers counts: ``--db``, else ``tours.db`` when it exists here, else
    none. A ``--db`` that cannot be made is refused before any counting."""
    from knightstour.library import DEFAULT_DB

    if given is None:
        return DEFAULT_DB if os.path.isfile(DEFAULT_DB) else None
    if given == ":memory:" or os.path.exists(given):
        return given
    folder = os.path.dirname(os.path.abspath(given))
    if not os.path.isdir(folder):
        raise InvalidInputError(f"cannot make the tour library {given}: no folder {folder}")
    return given


class _LibraryFile:
    """The tour library at ``path`` as the memory of counts: read without writing (nothing
    remembered when the file is new), opened for writing (made or migrated if need be) only
    to remember a count made."""

    def __init__(self, path: str) -> None:
        self.path = path

    def known_count(self, key: tuple[str, str, str, str, bool]) -> KnownCount | None:
        from knightstour.library import Library

        if self.path == ":memory:" or not os.path.exists(self.path):
            return None
        with Library(self.path, readonly=True) as lib:
            return lib.counts.known_count(key)

    def remember_count(
        self, key: tuple[str, str, str, str, bool], number: int, *, method: str, seconds: float
    ) -> None:
        from knightstour.library import Library

        with Library(self.path) as lib:
            lib.counts.remember_count(key, number, method=method, seconds=seconds)


# -- the table --------------------------------------------------------------------------------


def _table(args: argparse.Namespace) -> int:
    """Print the remembered counts: a table, or one JSON object a line."""
    from knightstour.library import DEFAULT_DB, Library

    given = [flag for attr, flag in _NOT_WITH_TABLE if getattr(args, attr)]
    if not args.directed:
        given.append("--undirected")
    if args.method != "auto":
        given.append("--method")
    if given:
        raise UsageError(f"--table lists what is remembered: drop {', '.join(given)}")
    board = None if args.board is None and args.mask is None else board_of(args).key
    with Library(args.db or DEFAULT_DB, readonly=True) as lib:
        known = lib.counts.known_counts(board)
        path = lib.path
    if args.format == "json":
        for k in known:
            print(json_counts(_known_dict(k)))
        return EXIT_OK
    if not known:
        print(f"no counts remembered in {path}" + ("" if board is None else f" for {board}"))
        return EXIT_OK
    from knightstour import notation

    columns = ("board", "kind", "start", "end", "directed", "count", "method", "seconds")
    rows = [(*columns, "counted")]
    for k in known:
        rows.append(
            (
                k.board, k.kind, k.start or "any", k.end or "any", "yes" if k.directed else "no",
                digits(k.number, ","), k.method, f"{k.seconds:.2f}", k.created_iso,
            )
        )  # fmt: skip
    sys.stdout.write("\n".join(notation.table_lines(rows, right=(5, 7))) + "\n")
    return EXIT_OK


def _known_dict(k: KnownCount) -> dict[str, Any]:
    """A remembered count as JSON, with what it counts in words (when this version can say)."""
    from knightstour.counting import count_request, describe

    try:
        convention: str | None = describe(
            count_request(
                k.board,
                closed=k.kind == "closed",
                start=k.start or None,
                end=k.end or None,
                directed=k.directed,
            )
        )
    except InvalidInputError:
        convention = None
    return {
        "board": k.board,
        "kind": k.kind,
        "start": k.start or None,
        "end": k.end or None,
        "directed": k.directed,
        "count": k.number,
        "convention": convention,
        "method": k.method,
        "seconds": round(k.seconds, 3),
        "created": k.created_iso,
    }
