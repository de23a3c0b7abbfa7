"""Output files of the command line: checked before any work, written atomically, never
overwritten without ``--force``; and the tour in the format asked for.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "t.txt")
>>> with open_output(path, force=False) as f:
...     _ = f.write("tour")
>>> open(path).read(), os.listdir(folder)
('tour', ['t.txt'])
>>> check_target(path, force=False)
Traceback (most recent call last):
...
knightstour.cli._options.UsageError: ... exists; use --force to overwrite it
"""

from __future__ import annotations

import argparse
import itertools
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from knightstour import notation
from knightstour.cli._options import PICTURE_FILES, PROG, UsageError
from knightstour.cli.progress import progress_bar

if TYPE_CHECKING:
    from knightstour.tour import PartialTour, Tour

__all__ = [
    "check_source",
    "check_target",
    "err",
    "open_output",
    "precheck_outputs",
    "stdout_use",
    "write_pictures",
    "write_tour",
]

#: Tours with more squares than this are not printed to a terminal unless --output is given.
TERMINAL_LIMIT = 250_000


def _special(mode: int) -> str | None:
    """What a file that is neither a regular file nor a folder is, or None."""
    for test, name in (
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISSOCK, "socket"),
    ):
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else "special file"


def _streamed(path: str) -> bool:
    """Whether ``path`` is (or links to) a FIFO or a character device: written into, as a
    stream, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def check_target(path: str, force: bool) -> None:
    """Refuse, before any work, an output path that cannot or must not be written.

    A regular file is replaced whole (through a temporary file), and only with ``force``; a
    symbolic link is followed (its target is written, the link kept), and needs ``force`` as
    its target would; a FIFO or a character device (``/dev/null``, ``/dev/stdout``) is written
    into, never replaced; a block device, a socket and an empty name are refused.

    >>> check_target("/dev/null", force=False)
    >>> check_target("", force=True)
    Traceback (most recent call last):
    ...
    knightstour.cli._options.UsageError: an empty file name: give a file name
    """
    if not path:
        raise UsageError("an empty file name: give a file name")
    p = Path(path)
    try:
        mode = os.stat(p).st_mode
    except FileNotFoundError:
        mode = None  # nothing there, or a link to nothing
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise UsageError(f"{path} is a folder: give a file name")
    kind = _special(mode) if mode is not None else None
    if kind in ("FIFO", "character device"):
        if not os.access(p, os.W_OK):
            raise UsageError(f"cannot write {path}: permission denied")
        return
    if kind is not None:
        raise UsageError(f"{path} is a {kind}: refusing to write to it; give a file name")
    if os.path.lexists(p) and not force:
        raise UsageError(f"{path} exists; use --force to overwrite it")
    real = Path(os.path.realpath(p))
    if not real.parent.is_dir():
        raise UsageError(f"cannot write {path}: folder {real.parent} does not exist")
    if not os.access(real.parent, os.W_OK) or (real.exists() and not os.access(real, os.W_OK)):
        raise UsageError(f"cannot write {path}: permission denied")


#: The longest error line printed; a longer message (a path or a value thousands of characters
#: long) is cut in the middle.
ERROR_LINE = 400


def err(message: str) -> None:
    """Say one line on stderr, after the program's name (cut in the middle when very long)."""
    line = " ".join(message.splitlines())
    if len(line) > ERROR_LINE:
        half = ERROR_LINE // 2
        line = f"{line[:half]} ... {line[-half:]} ({len(line):,} characters)"
    print(f"{PROG}: {line}", file=sys.stderr)


def compiling_said(seconds: float) -> str:
    """What an "in X s" line adds when kernels were compiled on the way (the seconds of
    :class:`knightstour.kernels.jit.Stopwatch`), or nothing.

    >>> compiling_said(2.5), compiling_said(0.0)
    (', after 2.50 s compiling its kernels (once an install)', '')
    """
    return f", after {seconds:.2f} s compiling its kernels (once an install)" if seconds else ""


def capped_workers(asked: int | None, cores: int) -> int | None:
    """``--workers``, at most ``cores``: more is said in one line (the work is the same, on the
    same cores, but more workers take longer to start and to stop).

    >>> capped_workers(3, 8), capped_workers(None, 8)
    (3, None)
    """
    if asked is not None and asked > cores:
        err(f"--workers {asked}: this machine has {cores} cores; using {cores}")
        return cores
    return asked


def check_source(path: str, what: str) -> Path:
    """The path of an input file that exists and is no folder; ``what`` names what it holds."""
    if not path:
        raise UsageError(f"an empty file name is not {what}")
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{brief_path(path)} is a folder, not {what}")
    if not p.exists():
        raise UsageError(f"no such file: {brief_path(path)}")
    if not (p.is_file() or p.is_fifo() or p.is_char_device()):  # a pipe, as in <(...), is read
        raise UsageError(f"{brief_path(path)} is not {what}")
    return p


def brief_path(path: str, limit: int = 200) -> str:
    """``path`` for an error line: cut in the middle when it is very long.

    >>> brief_path("a" * 1000)[:12], len(brief_path("a" * 1000)) < 260
    ('aaaaaaaaaaaa', True)
    """
    if len(path) <= limit:
        return path
    return f"{path[: limit // 2]}...{path[-limit // 2 :]} ({len(path):,} characters)"


@contextmanager
def open_output(path: str | None, force: bool, binary: bool = False) -> Iterator[IO[Any]]:
    """The file to write (whole or not at all: through a temporary file), or stdout for
    None and ``-``; a FIFO or a device is written into (:func:`check_target`)."""
    if path is None or path == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        return
    check_target(path, force)
    if _streamed(path):  # a FIFO or a device: written into, never replaced
        with open(path, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f
        return
    p = Path(os.path.realpath(path))  # a link's target is written; the link stays
    tmp = p.with_name(f".{p.name}.part")
    try:
        with open(tmp, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f
        os.replace(tmp, p)
    finally:
        if tmp.exists():
            tmp.unlink()


def precheck_outputs(args: argparse.Namespace) -> str:
    """Refuse existing output files, picture files named for another format, and picture
    options without a picture, before any work; say what stdout carries (:func:`stdout_use`)."""
    from knightstour.errors import InvalidInputError
    from knightstour.render import check_picture_name

    asked = [getattr(args, name, None) for name in PICTURE_FILES]
    for name, path in zip(PICTURE_FILES, asked, strict=True):
        if path:
            try:
                check_picture_name(path, "svg" if name.startswith("svg") else name)
            except InvalidInputError as e:
                raise UsageError(f"{_flag(name)}: {e}") from None
    for name in (*PICTURE_FILES, "output"):
        if getattr(args, name, None) == "":
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} has an empty file name: give a file name")
    targets = [p for p in [*asked, args.output] if p and p != "-" and not _streamed(p)]
    if len({str(Path(p).resolve()) for p in targets}) < len(targets):
        raise UsageError("two outputs name the same file: give each its own")
    for path in targets:
        check_target(path, args.force)
    if not any(asked):
        given = [
            option
            for option, on in (
                ("--size", args.size is not None),
                ("--numbers", args.numbers),
                ("--style", args.style != "auto"),
            )
            if on
        ]
        if given:
            raise UsageError(f"{given[0]} shapes a picture: add --svg, --png or --gif FILE")
    return stdout_use(args)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def stdout_use(args: argparse.Namespace) -> str:
    """What stdout carries, by the outputs asked for: ``picture`` (a picture asked for as
    ``-``: its bytes alone, nothing else), ``summary`` (a picture or ``--output FILE`` is the
    output asked for, and no ``--format``: one line saying what was found and written, not the
    whole tour) or ``tour`` (the tour in its format: the default, and whenever ``--format`` is
    given, as the contract says). A picture and the tour both asked to stdout are refused.

    >>> ns = argparse.Namespace(svg=None, svg_animated=None, png="t.png", gif=None, output=None)
    >>> stdout_use(argparse.Namespace(**{**vars(ns), "format_given": False}))
    'summary'
    >>> stdout_use(argparse.Namespace(**{**vars(ns), "format_given": True}))
    'tour'
    >>> stdout_use(argparse.Namespace(**{**vars(ns), "png": "-", "format_given": True}))
    Traceback (most recent call last):
    ...
    knightstour.cli._options.UsageError: --png - writes the picture alone to stdout: give the tour --output FILE, or drop --format
    """
    explicit = getattr(args, "format_given", True)
    piped = [_flag(name) for name in PICTURE_FILES if getattr(args, name, None) == "-"]
    if len(piped) > 1:
        raise UsageError(f"{piped[0]} - and {piped[1]} - both write to stdout: name a file for one")
    if piped:
        if args.output == "-" or (explicit and args.output is None):
            raise UsageError(
                f"{piped[0]} - writes the picture alone to stdout: give the tour --output FILE, "
                "or drop --format"
            )
        return "picture"
    files = any(getattr(args, name, None) for name in PICTURE_FILES)
    if (files or args.output not in (None, "-")) and not explicit:
        return "summary"
    return "tour"


def written(args: argparse.Namespace, *, tour: bool = True) -> list[str]:
    """The files the tour (unless not ``tour``) and its pictures are written to (stdout
    aside)."""
    paths = [args.output if tour else None, *(getattr(args, n, None) for n in PICTURE_FILES)]
    return [p for p in paths if p and p != "-"]


def write_tour(args: argparse.Namespace, tour: Tour) -> None:
    """Print or write the tour in ``args.format`` (a huge tour reaches a terminal only when
    ``--output -`` asks for it)."""
    fmt = args.format
    if fmt == "npy":
        import numpy as np

        with open_output(args.output, args.force, binary=True) as f:
            np.save(f, tour.indices, allow_pickle=False)
        return
    if args.output is None and sys.stdout.isatty() and len(tour) > TERMINAL_LIMIT:
        summary = notation.summary_line(tour.board, tour.indices, tour.closed, tour.method)
        print(
            f"{summary}; too long to print: use --output FILE (or --format npy), or --output - "
            "to print it all the same"
        )
        return
    b, idx = tour.board, tour.indices
    shape = tour.metrics() if getattr(args, "metrics", False) else None
    with open_output(args.output, args.force) as f:
        if fmt == "json":
            extra = {"metrics": shape.to_dict()} if shape is not None else None
            notation.write_tour_json(f, b, idx, tour.closed, tour.method, extra)
            f.write("\n")
            return
        if (
            fmt in ("board", "moves")
            and not getattr(args, "magic", False)
            and notation.bulk_text(b)
        ):
            # the same bytes as the lines below, made a chunk at a time (vectorised or compiled)
            if fmt == "board":
                write_chunks(f, notation.board_chunks(b, idx))
            else:
                write_chunks(f, notation.moves_chunks(b, idx, 16))
            for line in shape.lines() if shape is not None else ():
                f.write(line + "\n")
            return
        lines = {
            "board": lambda: notation.board_lines(b, idx),
            "moves": lambda: notation.moves_lines(b, idx),
            "text": lambda: notation.text_lines(b, idx, tour.closed, tour.method),
        }[fmt]()
        if getattr(args, "magic", False):  # the board of numbers with its sums instead
            tour.magic()  # a board with holes has none: bad input
            lines = (
                notation.magic_lines(b, idx)
                if fmt == "board"
                else itertools.chain(lines, notation.magic_lines(b, idx))
            )
        if shape is not None:
            lines = itertools.chain(lines, shape.lines())
        for line in lines:
            f.write(line + "\n")


def write_chunks(f: IO[str], chunks: Iterable[bytes | memoryview]) -> None:
    """Write UTF-8 ``chunks`` to the text stream ``f``: to its byte buffer when it has one (after
    what is pending in the text layer), else decoded. A chunk is written while the next is made
    (the compiled kernels and the write both let go of the GIL): two chunks in memory at most."""
    buffer = getattr(f, "buffer", None)
    if buffer is None:
        for chunk in chunks:
            f.write(bytes(chunk).decode())
        return
    f.flush()
    from concurrent.futures import Future, ThreadPoolExecutor

    with ThreadPoolExecutor(1) as writer:
        pending: Future[int] | None = None
        for chunk in chunks:
            if pending is not None:
                pending.result()
            pending = writer.submit(buffer.write, chunk)
        if pending is not None:
            pending.result()
    buffer.flush()


def write_pictures(args: argparse.Namespace, tour: Tour | PartialTour) -> None:
    """Write the pictures asked for with --svg, --svg-animated, --png and --gif: of a tour, or
    of the partial path of a search that stopped (its unvisited squares shown)."""
    look = {"size": args.size, "style": args.style}
    timing = {"frame_ms": args.frame_ms, "final_ms": args.final_ms}
    for path, animated in ((args.svg, False), (args.svg_animated, True)):
        if path:
            from knightstour.render.svg import tour_svg

            text = tour_svg(tour, numbers=args.numbers, animated=animated, **timing, **look)
            with open_output(path, args.force) as f:
                f.write(text)
    if args.png:
        from knightstour.render.raster import write_png

        with open_output(args.png, args.force, binary=True) as f, progress_bar("PNG") as bar:
            write_png(tour, f, numbers=args.numbers, progress=bar, **look)
    if args.gif:
        from knightstour.render.raster import write_gif

        with open_output(args.gif, args.force, binary=True) as f, progress_bar("GIF") as bar:
            write_gif(tour, f, moves_per_frame=args.moves_per_frame, progress=bar, **timing, **look)


def read_input(file: str, what: str) -> str:
    """The text of ``file`` (``-``: standard input), read with a limit: never more than this
    machine can parse, and no further than the first NUL byte (``/dev/zero``); ``what`` names
    what the file should hold in the errors (``"a tour file"``).

    >>> read_input("/no/such/file", "a puzzle file")
    Traceback (most recent call last):
    ...
    knightstour.cli._options.UsageError: no such file: /no/such/file
    """
    from knightstour.board import brief

    if file == "-":
        return notation.read_text(sys.stdin.buffer, "standard input")
    if not file:
        raise UsageError(f"an empty file name is not {what}")
    p = Path(file)
    try:
        if p.is_dir():
            raise UsageError(f"{file} is a folder, not {what}")
        if not p.exists():
            raise UsageError(f"no such file: {file}")
        with open(p, "rb") as f:
            return notation.read_text(f, file)
    except OSError as e:  # unreadable, or a name too long: said briefly
        raise UsageError(f"cannot read {brief(file)}: {e.strerror or e}") from None
