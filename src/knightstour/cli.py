"""The command line: a thin layer that parses, calls the library, and turns errors into one line.

Exit codes (the contract): 0 success; 1 the answer is no (no tour exists, a file is not a tour);
2 bad input or usage; 3 the search stopped without an answer.

Each subcommand is a pair: ``_add_NAME(subparsers)`` declares it and ``cmd_NAME(args)`` runs it
and returns the exit code. :data:`COMMANDS` lists them; add a pair to add a command.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, NoReturn

from knightstour.errors import (
    InternalError,
    InvalidInputError,
    KnightsTourError,
    NoTourError,
    SearchFailedError,
)
from knightstour.solvers.warnsdorff import TIEBREAKS

PROG = "knightstour"
FORMATS = ("text", "moves", "board", "json", "npy")


def _method_names() -> tuple[str, ...]:
    from knightstour.solvers import METHODS

    return ("auto", *sorted(m for m in METHODS if m != "auto"))


METHOD_NAMES = _method_names()
TIEBREAK_NAMES = TIEBREAKS
#: Tours with more squares than this are not printed to a terminal unless --output is given.
TERMINAL_LIMIT = 250_000

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_GAVE_UP = 0, 1, 2, 3


class UsageError(InvalidInputError):
    """Bad command-line usage (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one clean line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


# -- output helpers ---------------------------------------------------------------------------


def _out() -> IO[str]:
    return sys.stdout


def _err(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


@contextmanager
def _open_output(path: str | None, force: bool, binary: bool = False) -> Any:
    """The file to write (refusing to overwrite without --force), or stdout."""
    if path is None or path == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        return
    p = Path(path)
    _check_target(path, force)
    if p.parent and not p.parent.exists():
        raise UsageError(f"cannot write {path}: folder {p.parent} does not exist")
    tmp = p.with_name(f".{p.name}.part")
    try:
        with open(tmp, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f
        os.replace(tmp, p)
    finally:
        if tmp.exists():
            tmp.unlink()


# -- solve ------------------------------------------------------------------------------------


def _add_tour_request(p: argparse.ArgumentParser) -> None:
    """The arguments that say which tours are meant: BOARD, --start, --end, --closed."""
    p.add_argument("board", metavar="BOARD", help="board spec WxH (width x height) or N for NxN")
    p.add_argument("--start", metavar="SQ", help="start square: algebraic (c3) or zero-based x,y")
    p.add_argument("--end", metavar="SQ", help="end square of the tour")
    p.add_argument(
        "--closed", action="store_true", help="closed tours (ending a move from the start)"
    )


def _add_solve(sub: Any) -> None:
    p = sub.add_parser(
        "solve",
        help="find a tour and print it",
        description="Find an open or closed knight's tour on BOARD and print it.",
    )
    _add_tour_request(p)
    p.add_argument("--method", default="auto", choices=METHOD_NAMES, help="method (default auto)")
    p.add_argument("--tiebreak", choices=TIEBREAK_NAMES, help="Warnsdorff tie-break")
    p.add_argument("--seed", type=_nonneg_int, help="seed for random tie-breaks")
    p.add_argument("--time-limit", type=_pos_float, metavar="SECONDS", help="give up after this")
    p.add_argument("--format", default="text", choices=FORMATS, help="output format (default text)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the tour to FILE")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.add_argument("--time", action="store_true", help="print the time taken")
    _add_picture_options(p)


def _add_picture_options(p: Any) -> None:
    g = p.add_argument_group("pictures")
    g.add_argument("--svg", metavar="FILE", help="draw the tour as an SVG")
    g.add_argument(
        "--svg-animated",
        metavar="FILE",
        help="an SVG that draws the tour a move at a time (CSS, no script)",
    )
    g.add_argument("--png", metavar="FILE", help="draw the tour as a PNG")
    g.add_argument("--gif", metavar="FILE", help="an animated GIF, one move a frame")
    g.add_argument(
        "--size",
        type=_int_range(16, 32768),
        metavar="PX",
        help="longest side of the pictures in pixels (default: from the board)",
    )
    g.add_argument(
        "--numbers", action="store_true", help="write move numbers on the squares (SVG, PNG)"
    )
    g.add_argument(
        "--style",
        choices=("auto", "full", "path"),
        default="auto",
        help="full: squares and labels; path: the path alone (default: full up to 200x200)",
    )
    g.add_argument(
        "--moves-per-frame",
        type=_int_range(1, 10**9),
        default=1,
        metavar="N",
        help="moves added by each GIF frame (default 1)",
    )
    g.add_argument(
        "--frame-ms",
        type=_int_range(20, 655350),
        default=500,
        metavar="MS",
        help="how long each frame shows (default 500)",
    )
    g.add_argument(
        "--final-ms",
        type=_int_range(20, 655350),
        default=3000,
        metavar="MS",
        help="how long the last frame shows (default 3000)",
    )


def _int_range(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"must be {lo} to {hi}, got {v}")
        return v

    return parse


def _check_target(path: str, force: bool) -> None:
    """Refuse, before any work, an output path that cannot or must not be written."""
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{path} is a folder: give a file name")
    if p.exists() and not force:
        raise UsageError(f"{path} exists; use --force to overwrite it")
    if not p.parent.is_dir():
        raise UsageError(f"cannot write {path}: folder {p.parent} does not exist")
    if not os.access(p.parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UsageError(f"cannot write {path}: permission denied")


def _nonneg_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {v}")
    return v


def _pos_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return v


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve, print or write the tour; 'no' and 'gave up' answers in the requested format."""
    import knightstour as kt

    board = kt.parse_board(args.board)
    if args.format == "npy" and args.output is None:
        raise UsageError("--format npy writes binary: give --output FILE")
    if args.output and args.output != "-":
        _check_target(args.output, args.force)
    _precheck_outputs(args)
    t0 = time.perf_counter()
    try:
        tour = kt.solve(
            board,
            args.start,
            end=args.end,
            closed=args.closed,
            method=args.method,
            tiebreak=args.tiebreak,
            seed=args.seed,
            time_limit=args.time_limit,
        )
    except NoTourError as e:
        _no_tour(args, board, False, e.reason)
        return EXIT_NO
    except SearchFailedError as e:
        _no_tour(args, board, None, str(e))
        if args.format in ("text", "board", "moves") and e.partial is not None and len(e.partial):
            _print_partial(board, e.partial)
        return EXIT_GAVE_UP
    elapsed = time.perf_counter() - t0
    _write_tour(args, tour)
    _write_pictures(args, tour)
    if args.time:
        line = f"solved in {elapsed:.3f} s"
        if args.format == "text" and args.output is None:
            print(line)
        else:
            print(line, file=sys.stderr)
    return EXIT_OK


PICTURES = ("svg", "svg_animated", "png", "gif")


def _precheck_outputs(args: argparse.Namespace) -> None:
    """Refuse existing picture files, and picture options without a picture, before any work."""
    asked = [getattr(args, opt, None) for opt in PICTURES]
    targets = [p for p in [*asked, args.output] if p and p != "-"]
    same = {str(Path(p).resolve()) for p in targets}
    if len(same) < len(targets):
        raise UsageError("two outputs name the same file: give each its own")
    for path in asked:
        if path and path != "-":
            _check_target(path, args.force)
    if not any(asked):
        given = [
            o
            for o, on in (
                ("--size", args.size is not None),
                ("--numbers", args.numbers),
                ("--style", args.style != "auto"),
            )
            if on
        ]
        if given:
            raise UsageError(f"{given[0]} shapes a picture: add --svg, --png or --gif FILE")


def _write_pictures(args: argparse.Namespace, tour: Any) -> None:
    """Write the pictures asked for with --svg, --svg-animated, --png and --gif."""
    look = {"size": args.size, "style": args.style}
    if args.svg or args.svg_animated:
        from knightstour.render.svg import tour_svg

        for path, animated in ((args.svg, False), (args.svg_animated, True)):
            if path:
                text = tour_svg(
                    tour,
                    numbers=args.numbers,
                    animated=animated,
                    frame_ms=args.frame_ms,
                    final_ms=args.final_ms,
                    **look,
                )
                with _open_output(path, args.force) as f:
                    f.write(text)
    if args.png:
        from knightstour.render.raster import write_png

        with _open_output(args.png, args.force, binary=True) as f, _progress("PNG") as bar:
            write_png(tour, f, numbers=args.numbers, progress=bar, **look)
    if args.gif:
        from knightstour.render.raster import write_gif

        with _open_output(args.gif, args.force, binary=True) as f, _progress("GIF") as bar:
            write_gif(
                tour,
                f,
                frame_ms=args.frame_ms,
                final_ms=args.final_ms,
                moves_per_frame=args.moves_per_frame,
                progress=bar,
                **look,
            )


@contextmanager
def _progress(label: str, stream: IO[str] | None = None) -> Any:
    """A progress callback ``(done, total)`` drawing a bar on stderr, or None when stderr is
    not a terminal. The bar shows only for work that lasts more than half a second."""
    out = stream or sys.stderr
    if not out.isatty():
        yield None
        return
    t0 = time.perf_counter()
    last = [0.0, False]

    def bar(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - t0 < 0.5 or (now - last[0] < 0.1 and done < total):
            return
        last[0], last[1] = now, True
        width = 30
        filled = width * done // max(total, 1)
        out.write(
            f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {now - t0:.1f} s"
        )
        out.flush()

    try:
        yield bar
    finally:
        if last[1]:
            out.write("\n")
            out.flush()


def _no_tour(args: argparse.Namespace, board: Any, answer: bool | None, reason: str) -> None:
    if args.format == "json":
        data = {"width": board.width, "height": board.height, "exists": answer, "reason": reason}
        print(json.dumps(data, separators=(",", ":")))
    elif answer is False:
        print(f"no tour: {reason}")
    else:
        print(f"gave up: {reason}")


def _print_partial(board: Any, partial: Any) -> None:
    from knightstour.tour import board_lines, moves_lines

    if board.size <= 4096:
        print(f"partial path ({len(partial)} of {board.size} squares):")
        print("\n".join(board_lines(board, partial, labels=True)))
        print("\n".join(moves_lines(board, partial)))
    else:
        end = board.square_name(int(partial[-1]))
        print(f"partial path: {len(partial)} of {board.size} squares, ending on {end}")


def _write_tour(args: argparse.Namespace, tour: Any) -> None:
    fmt = args.format
    # a huge tour goes to a terminal only when asked for by --output -
    to_terminal = args.output is None and sys.stdout.isatty()
    if fmt == "npy":
        import numpy as np

        with _open_output(args.output, args.force, binary=True) as f:
            np.save(f, tour.indices, allow_pickle=False)
        return
    if to_terminal and len(tour) > TERMINAL_LIMIT:
        print(
            f"found a{' closed' if tour.closed else 'n open'} tour of {len(tour):,} squares "
            f"from {tour.start} to {tour.end} ({tour.method}); too long to print: use "
            f"--output FILE (or --format npy), or --output - to print it all the same"
        )
        return
    with _open_output(args.output, args.force) as f:
        if fmt == "json":
            tour.write_json(f)
            f.write("\n")
        elif fmt == "board":
            for line in tour.iter_board_lines():
                f.write(line + "\n")
        elif fmt == "moves":
            for line in tour.iter_moves_lines():
                f.write(line + "\n")
        else:
            kind = "Closed" if tour.closed else "Open"
            f.write(
                f"{kind} tour on {tour.board.spec} from {tour.start} to {tour.end}, "
                f"{len(tour)} square{'s' if len(tour) != 1 else ''} ({tour.method})\n"
            )
            if tour.board.width <= 60 and tour.board.size <= 10_000:
                f.write(tour.board_text(labels=True) + "\n")
            f.write("\nmoves:\n")
            for line in tour.iter_moves_lines():
                f.write(line + "\n")


# -- exists -----------------------------------------------------------------------------------


def _add_exists(sub: Any) -> None:
    p = sub.add_parser(
        "exists",
        help="say whether a tour can exist, and why",
        description="Say whether a tour exists on BOARD (from/to given squares), with the reason.",
    )
    _add_tour_request(p)
    p.add_argument(
        "--all-starts",
        action="store_true",
        help="print the board map of start squares that admit a tour (Y yes, . no, ? unknown)",
    )
    p.add_argument("--format", default="text", choices=("text", "json"), help="output format")


#: --all-starts prints a character per square: boards up to this many squares
ALL_STARTS_MAX = 40_000


def _all_starts(board: Any, args: argparse.Namespace) -> int:
    """The map of start squares with an open tour, top rank first; with --closed, the closed answer."""
    import knightstour as kt

    if args.start or args.end:
        raise UsageError("--all-starts maps every start square: give no --start or --end")
    if board.area > ALL_STARTS_MAX or board.width > 200:
        raise UsageError(
            f"--all-starts prints one character per square: {board.spec} is too large "
            f"(at most 200 wide and {ALL_STARTS_MAX:,} squares)"
        )
    answers = kt.existence.start_squares(board)
    mark = {True: "Y", False: ".", None: "?"}
    rows = [
        " ".join(mark[answers[y * board.width + x].exists] for x in range(board.width))
        for y in range(board.height - 1, -1, -1)
    ]
    closed = kt.exists(board, closed=True) if args.closed else None
    known = [a.exists for a in answers.values()]
    if args.format == "json":
        data: dict[str, Any] = {
            "width": board.width,
            "height": board.height,
            "map": [r.replace(" ", "") for r in rows],
            "starts": {board.square_name(q): a.exists for q, a in answers.items()},
        }
        if closed is not None:
            data["closed"] = closed.to_dict()
        print(json.dumps(data, separators=(",", ":")))
    else:
        rw = len(str(board.height))
        print(
            f"start squares of open tours on {board.spec} (Y a tour starts there, . none, ? unknown):"
        )
        for y, row in zip(range(board.height, 0, -1), rows, strict=True):
            print(f"{y:>{rw}} | {row}")
        print(" " * (rw + 3) + " ".join(kt.board.file_name(x) for x in range(board.width)))
        if closed is not None:
            word = {True: "yes", False: "no", None: "unknown"}[closed.exists]
            print(f"closed tour: {word}: {closed.reason}")
    overall = (
        closed.exists
        if closed is not None
        else (True if True in known else None if None in known else False)
    )
    return {True: EXIT_OK, False: EXIT_NO, None: EXIT_GAVE_UP}[overall]


def cmd_exists(args: argparse.Namespace) -> int:
    """Print yes/no/unknown with the reason; exit 0, 1 or 3."""
    import knightstour as kt

    board = kt.parse_board(args.board)
    if args.all_starts:
        return _all_starts(board, args)
    answer = kt.exists(board, args.start, end=args.end, closed=args.closed)
    if args.format == "json":
        print(
            json.dumps(
                {"width": board.width, "height": board.height, **answer.to_dict()},
                separators=(",", ":"),
            )
        )
    else:
        word = {True: "yes", False: "no", None: "unknown"}[answer.exists]
        print(f"{word}: {answer.reason}")
    return {True: EXIT_OK, False: EXIT_NO, None: EXIT_GAVE_UP}[answer.exists]


# -- validate ---------------------------------------------------------------------------------


def _add_validate(sub: Any) -> None:
    p = sub.add_parser(
        "validate",
        help="check that a file holds a valid tour",
        description="Check a tour file: the contract's tour JSON, or a .npy of square indices "
        "(with --board). Lists every problem found.",
    )
    p.add_argument("file", metavar="FILE", help="tour JSON file ('-' for standard input) or .npy")
    p.add_argument("--board", metavar="WxH", help="the board, for a .npy file")
    p.add_argument("--closed", action="store_true", help="for a .npy file: require a closed tour")
    p.add_argument("--format", default="text", choices=("text", "json"), help="output format")


def cmd_validate(args: argparse.Namespace) -> int:
    """Validate a tour file; exit 0 when valid, 1 listing every problem when not."""
    import numpy as np

    import knightstour as kt
    from knightstour.errors import InvalidTourError

    try:
        if args.file.endswith(".npy"):
            if not args.board:
                raise UsageError("a .npy file holds only square indices: give --board WxH")
            board = kt.parse_board(args.board)
            try:
                arr = np.load(args.file, allow_pickle=False, mmap_mode="r")
            except (ValueError, OSError) as e:
                raise UsageError(f"cannot read {args.file}: {e}") from None
            tour = kt.Tour(board, np.asarray(arr), closed=args.closed, method="")
        else:
            text = sys.stdin.read() if args.file == "-" else _read_text(args.file)
            try:
                data = json.loads(text)
            except json.JSONDecodeError as e:
                raise UsageError(
                    f"{args.file} is not JSON: {e.msg} at line {e.lineno} column {e.colno}"
                ) from None
            try:
                tour = kt.Tour.from_dict(data)
            except InvalidTourError:
                raise
            except InvalidInputError as e:  # parsed, but not a tour: the answer is no
                raise InvalidTourError([str(e)]) from None
    except InvalidTourError as e:
        if args.format == "json":
            print(json.dumps({"valid": False, "problems": [str(p) for p in e.problems]}))
        else:
            print(f"{args.file}: not a valid tour")
            for problem in e.problems:
                print(f"  {problem}")
        return EXIT_NO
    kind = "closed" if tour.closed else "open"
    if args.format == "json":
        print(
            json.dumps(
                {
                    "valid": True,
                    "width": tour.board.width,
                    "height": tour.board.height,
                    "closed": tour.closed,
                    "squares": len(tour),
                }
            )
        )
    else:
        print(
            f"{args.file}: valid {kind} tour on {tour.board.spec}, "
            f"{len(tour)} square{'s' if len(tour) != 1 else ''}, "
            f"{tour.start} to {tour.end}"
        )
    return EXIT_OK


def _read_text(path: str) -> str:
    p = Path(path)
    if not p.exists():
        raise UsageError(f"no such file: {path}")
    if p.is_dir():
        raise UsageError(f"{path} is a folder, not a tour file")
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a text (JSON) file") from None


# -- serve ------------------------------------------------------------------------------------


def _add_serve(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run the interactive web board",
        description="Serve the interactive board, puzzle mode and the JSON API (/api/solve, "
        "/api/exists, /api/puzzle; schema at /docs). Needs the 'web' extra.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free)")
    p.add_argument(
        "--max-squares",
        type=_pos_int,
        default=10_000,
        metavar="N",
        help="largest board the page solves, in squares (default 10000)",
    )
    p.add_argument(
        "--time-limit",
        type=_pos_float,
        default=5.0,
        metavar="SECONDS",
        help="cap on any one search (default 5)",
    )


def _port(text: str) -> int:
    v = _nonneg_int(text)
    if v > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {v}")
    return v


def _pos_int(text: str) -> int:
    v = _nonneg_int(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {v}")
    return v


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web board until interrupted."""
    try:
        from knightstour.web.app import Limits, create_app
        from knightstour.web.server import serve
    except ImportError as e:
        raise UsageError(
            f"the web board needs FastAPI and uvicorn ({e.name} is missing): "
            f"pip install 'knightstour[web]'"
        ) from None
    app = create_app(Limits(max_squares=args.max_squares, time_limit=args.time_limit))
    serve(app, args.host, args.port, log_level="warning")
    return EXIT_OK


# -- generate and library ---------------------------------------------------------------------


def _add_generate(sub: Any) -> None:
    from knightstour.generate import GENERATE_METHODS
    from knightstour.library import DEFAULT_DB

    p = sub.add_parser(
        "generate",
        help="add many distinct tours to a tour library",
        description="Add N new tours of BOARD to the tour library, each distinct from every "
        "tour it holds up to the board's symmetries, reversal and (closed tours) the start "
        "square. Runs worker processes on every core; a run stopped at any point continues "
        "when the same command is run again.",
    )
    p.add_argument("board", metavar="BOARD", help="board spec WxH or N")
    p.add_argument(
        "--count", "-n", type=_pos_int, required=True, metavar="N", help="how many new tours to add"
    )
    p.add_argument("--closed", action="store_true", help="closed tours")
    p.add_argument("--start", metavar="SQ", help="start every tour on this square")
    p.add_argument("--seed", type=_nonneg_int, help="seed (default: random, kept in the library)")
    p.add_argument(
        "--db", default=DEFAULT_DB, metavar="FILE", help=f"library file (default {DEFAULT_DB})"
    )
    p.add_argument(
        "--workers", type=_pos_int, metavar="K", help="worker processes (default: one per core)"
    )
    p.add_argument(
        "--method",
        default="auto",
        choices=GENERATE_METHODS,
        help="auto (default), warnsdorff (random walks) or backtrack (random search)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def cmd_generate(args: argparse.Namespace) -> int:
    """Generate, store and report; exit 3 when the run stopped short of N new tours."""
    from knightstour.generate import generate

    try:
        r = generate(
            args.board,
            args.count,
            closed=args.closed,
            start=args.start,
            seed=args.seed,
            db=args.db,
            workers=args.workers,
            method=args.method,
            progress=False if args.quiet else None,
        )
    except KeyboardInterrupt:
        _err("interrupted: the tours stored so far are kept; run the same command to continue")
        return 130
    kind = "closed" if args.closed else "open"
    resumed = f", resuming run {r.run} at {r.resumed_from:,}" if r.resumed_from else ""
    print(
        f"added {r.added:,} new {args.board} {kind} tours in {r.seconds:.2f} s "
        f"({r.rate:,.0f} a second; {r.method}, seed {r.seed}{resumed}); "
        f"{args.db} holds {r.library_count:,} of them"
    )
    return EXIT_OK


def _add_library(sub: Any) -> None:
    from knightstour.library import DEFAULT_DB
    from knightstour.library.io import EXPORT_FORMATS

    p = sub.add_parser(
        "library",
        help="list, show, count, export and import the tours of a tour library",
        description="Work with a tour library (an SQLite file made by 'generate' or 'import').",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)

    def action(name: str, help_text: str) -> Any:
        a = actions.add_parser(
            name, help=help_text, description=help_text[0].upper() + help_text[1:] + "."
        )
        a.add_argument(
            "--db", default=DEFAULT_DB, metavar="FILE", help=f"library file (default {DEFAULT_DB})"
        )
        return a

    def filters(a: Any) -> None:
        a.add_argument("--board", metavar="WxH", help="only tours on this board")
        kind = a.add_mutually_exclusive_group()
        kind.add_argument(
            "--closed", dest="kind", action="store_const", const=True, help="only closed tours"
        )
        kind.add_argument(
            "--open", dest="kind", action="store_const", const=False, help="only open tours"
        )

    a = action("list", "list the tours, their boards, squares, methods and seeds")
    filters(a)
    a.add_argument("--after", type=_nonneg_int, default=0, metavar="ID", help="ids above this")
    a.add_argument("--limit", type=_pos_int, default=20, metavar="N", help="at most N (20)")
    a.add_argument("--format", default="text", choices=("text", "json"), help="output format")

    a = action("show", "print one tour (and draw it)")
    a.add_argument("id", type=_pos_int, metavar="ID", help="the tour's id (see 'library list')")
    a.add_argument(
        "--format",
        default="text",
        choices=("text", "moves", "board", "json"),
        help="output format (default text)",
    )
    a.add_argument("--output", "-o", metavar="FILE", help="write the tour to FILE")
    a.add_argument("--force", action="store_true", help="overwrite existing output files")
    _add_picture_options(a)

    a = action("stats", "count the tours per board, open and closed, and per start and end square")
    a.add_argument("--board", metavar="WxH", help="only this board")
    a.add_argument("--format", default="text", choices=("text", "json"), help="output format")

    a = action("export", "write the tours one a line: JSON lines (the tour JSON) or CSV")
    filters(a)
    a.add_argument(
        "--format", default="jsonl", choices=EXPORT_FORMATS, help="jsonl (default) or csv"
    )
    a.add_argument("--output", "-o", metavar="FILE", help="write to FILE (default standard output)")
    a.add_argument("--force", action="store_true", help="overwrite an existing FILE")

    a = action("import", "add the tours of a JSON lines or CSV file, every one validated")
    a.add_argument("file", metavar="FILE", help="file to read ('-' for standard input)")
    a.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        help="jsonl or csv (default: csv for a .csv file, else jsonl)",
    )


def cmd_library(args: argparse.Namespace) -> int:
    """Run one library action."""
    from knightstour.library import Library

    if not args.action:
        raise UsageError(
            "give an action: list, show, stats, export, import (see 'knightstour library --help')"
        )
    with Library(args.db, create=args.action == "import") as lib:
        return {
            "list": _library_list,
            "show": _library_show,
            "stats": _library_stats,
            "export": _library_export,
            "import": _library_import,
        }[args.action](lib, args)


def _library_list(lib: Any, args: argparse.Namespace) -> int:
    tours = lib.list(args.board, args.kind, after=args.after, limit=args.limit)
    if args.format == "json":
        for t in tours:
            print(json.dumps(t.info()))
        return EXIT_OK
    if not tours:
        print("no tours")
        return EXIT_OK
    rows = [("id", "board", "kind", "start", "end", "method", "seed", "created")]
    for t in tours:
        i = t.info()
        seed = "" if i["seed"] is None else str(i["seed"])
        rows.append(
            (
                str(i["id"]),
                i["board"],
                "closed" if i["closed"] else "open",
                i["start"],
                i["end"],
                i["method"],
                seed,
                i["created"],
            )
        )
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    for r in rows:
        print(
            "  ".join(
                v.rjust(w) if k == 0 else v.ljust(w)
                for k, (v, w) in enumerate(zip(r, widths, strict=True))
            ).rstrip()
        )
    return EXIT_OK


def _library_show(lib: Any, args: argparse.Namespace) -> int:
    _precheck_outputs(args)
    stored = lib.get(args.id)
    if args.format == "text" and args.output is None:
        i = stored.info()
        seed = "" if i["seed"] is None else f", seed {i['seed']}"
        print(f"tour {i['id']} of {lib.path}{seed}, stored {i['created']}")
    _write_tour(args, stored.tour)
    _write_pictures(args, stored.tour)
    return EXIT_OK


def _library_stats(lib: Any, args: argparse.Namespace) -> int:
    from knightstour.board import parse_board

    stats = lib.stats(args.board)
    total = sum(s["tours"] for s in stats)
    if args.format == "json":
        print(json.dumps({"db": lib.path, "tours": total, "kinds": stats}))
        return EXIT_OK
    print(f"{lib.path}: {total:,} tours")
    for s in stats:
        kind = "closed" if s["closed"] else "open"
        methods = ", ".join(f"{m} {n:,}" for m, n in sorted(s["methods"].items()))
        print(f"\n{s['board']} {kind}: {s['tours']:,} tours ({methods})")
        b = parse_board(s["board"])
        for label, counts in (("start", s["starts"]), ("end", s["ends"])):
            if b.width > 16 or b.height > 16:
                top = sorted(counts.items(), key=lambda kv: -kv[1])[:10]
                print(f"  most common {label} squares: " + ", ".join(f"{k} {v:,}" for k, v in top))
                continue
            print(f"  by {label} square:")
            cw = max(len(f"{v:,}") for v in counts.values())
            rw = len(str(b.height))
            for y in range(b.height - 1, -1, -1):
                names = (b.square_name(y * b.width + x) for x in range(b.width))
                cells = (f"{counts[n]:,}" if n in counts else "." for n in names)
                print(f"  {y + 1:>{rw}} | " + " ".join(c.rjust(cw) for c in cells))
    return EXIT_OK


def _library_export(lib: Any, args: argparse.Namespace) -> int:
    from knightstour.library.io import export

    with _open_output(args.output, args.force) as f:
        n = export(lib, f, fmt=args.format, board=args.board, closed=args.kind)
    if args.output not in (None, "-"):
        print(f"exported {n:,} tours to {args.output}", file=sys.stderr)
    return EXIT_OK


def _library_import(lib: Any, args: argparse.Namespace) -> int:
    from knightstour.library.io import import_tours

    fmt = args.format or ("csv" if args.file.lower().endswith(".csv") else "jsonl")
    if args.file == "-":
        r = import_tours(lib, sys.stdin, fmt=fmt, source="<stdin>")
    else:
        p = Path(args.file)
        if p.is_dir():
            raise UsageError(f"{args.file} is a folder, not a file of tours")
        if not p.is_file():
            raise UsageError(f"no such file: {args.file}")
        try:
            with open(p, encoding="utf-8", newline="" if fmt == "csv" else None) as f:
                r = import_tours(lib, f, fmt=fmt, source=args.file)
        except UnicodeDecodeError:
            raise UsageError(f"{args.file} is not a text file of tours ({fmt})") from None
    print(f"imported {r.read:,} tours: {r.added:,} new, {r.duplicates:,} already in {lib.path}")
    return EXIT_OK


# -- entry point ------------------------------------------------------------------------------

COMMANDS: list[tuple[str, Callable[[Any], None], Callable[[argparse.Namespace], int]]] = [
    ("solve", _add_solve, cmd_solve),
    ("exists", _add_exists, cmd_exists),
    ("validate", _add_validate, cmd_validate),
    ("generate", _add_generate, cmd_generate),
    ("library", _add_library, cmd_library),
    ("serve", _add_serve, cmd_serve),
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    from knightstour import __version__

    parser = _Parser(
        prog=PROG,
        description="Knight's tours on any board: solve, explain, show and collect them.",
        epilog="Exit codes: 0 success, 1 no (no tour / not a tour), 2 bad input, 3 gave up.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for _name, add, _run in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (and never shows a traceback)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not args.command:
            names = ", ".join(name for name, _add, _run in COMMANDS)
            raise UsageError(f"give a command: {names} (see '{PROG} --help')")
        run = {name: fn for name, _add, fn in COMMANDS}[args.command]
        return run(args)
    except InternalError as e:  # a bug, never the user's input nor an answer
        _err(f"internal error ({e}); please report it")
        return e.exit_code
    except KnightsTourError as e:
        _err(str(e).splitlines()[0] if str(e) else type(e).__name__)
        return e.exit_code
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except MemoryError:
        _err("out of memory: try a smaller board or --format npy --output FILE")
        return EXIT_USAGE
    except OSError as e:
        _err(f"{e.strerror or e}: {e.filename}" if getattr(e, "filename", None) else str(e))
        return EXIT_USAGE
    except Exception as e:  # a bug: still one line, and a code that no contract answer uses
        _err(f"internal error ({type(e).__name__}: {e}); please report it")
        return 70


if __name__ == "__main__":
    sys.exit(main())
