"""The command line: a thin layer that parses, calls the library, and turns errors into one line.

Exit codes (the contract): 0 success; 1 the answer is no (no tour exists, a file is not a tour);
2 bad input or usage; 3 the search stopped without an answer; 70 a bug in knightstour.

One module a command (:mod:`~knightstour.cli.solve`, :mod:`~knightstour.cli.exists`, ...), each
with ``NAME``, ``HELP``, ``DESCRIPTION``, ``add(parser)`` adding its options and ``run(args)``
returning the exit code; :data:`COMMANDS` lists them. Shared options are declared once in :mod:`knightstour.cli._options`,
output files handled in :mod:`knightstour.cli._output`, progress drawn by
:mod:`knightstour.cli.progress`.

>>> main(["exists", "5x5", "--start", "b1"])
no tour from b1 on 5x5: ...
1
>>> main(["solve", "8x8", "--start", "z9"])
2
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from knightstour.cli import (
    count,
    exists,
    generate,
    library,
    magic,
    puzzle,
    serve,
    solve,
    uncrossed,
    validate,
    warm,
)
from knightstour.cli._options import EXIT_USAGE, PROG, Parser, UsageError, add_command
from knightstour.cli._output import err
from knightstour.errors import InternalError, KnightsTourError
from knightstour.kernels import jit

__all__ = ["COMMANDS", "UsageError", "build_parser", "main"]

_MODULES = (
    solve,
    exists,
    count,
    magic,
    uncrossed,
    validate,
    generate,
    library,
    puzzle,
    serve,
    warm,
)
#: Every command: (name, add its options to its parser, run it and return the exit code).
COMMANDS: list[
    tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
] = [(m.NAME, m.add, m.run) for m in _MODULES]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command.

    >>> build_parser().parse_args(["exists", "8x8", "--closed"]).closed
    True
    """
    from knightstour import __version__

    parser = Parser(
        prog=PROG,
        description="Knight's tours on any board: solve, explain, show and collect them.",
        epilog="Exit codes: 0 success, 1 no (no tour / not a tour), 2 bad input, 3 gave up.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for m in _MODULES:
        m.add(add_command(sub, m.NAME, m.HELP, m.DESCRIPTION))
    return parser


def _compile_note() -> None:
    err(jit.COMPILE_NOTE)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (and never shows a traceback)."""
    try:
        if argv is not None and any("\x00" in str(a) for a in argv):
            # a shell cannot pass one; called from Python, it would reach the file system
            raise UsageError("an argument holds a NUL character, which no file name or value can")
        args = build_parser().parse_args(argv)
        if not args.command:
            names = ", ".join(name for name, _add, _run in COMMANDS)
            raise UsageError(f"give a command: {names} (see '{PROG} --help')")
        run = {name: fn for name, _add, fn in COMMANDS}[args.command]
        if args.command != warm.NAME:  # warm compiles, and says so its own way
            jit.on_first_compile(_compile_note)
        return run(args)
    except InternalError as e:  # a bug, never the user's input nor an answer
        err(f"internal error ({e}); please report it")
        return e.exit_code
    except KnightsTourError as e:
        err(str(e).splitlines()[0] if str(e) else type(e).__name__)
        return e.exit_code
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except MemoryError:
        err("out of memory: try a smaller board or --format npy --output FILE")
        return EXIT_USAGE
    except OSError as e:
        from knightstour.cli._output import brief_path

        name = getattr(e, "filename", None)
        err(f"{e.strerror or e}: {brief_path(str(name))}" if name else str(e)[:300])
        return EXIT_USAGE
    except Exception as e:  # a bug: still one line, and a code that no contract answer uses
        err(f"internal error ({type(e).__name__}: {e}); please report it")
        return InternalError.exit_code
