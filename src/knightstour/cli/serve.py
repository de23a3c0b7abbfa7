"""``knightstour serve``: the interactive web board, puzzle mode and the JSON API."""

from __future__ import annotations

import argparse

from knightstour.cli._options import EXIT_OK, UsageError, add_options, int_range, port

NAME = "serve"
HELP = "run the interactive web board"
DESCRIPTION = (
    "Serve the interactive board, puzzle mode and the JSON API (/api/solve, "
    "/api/exists, /api/puzzle; schema at /docs); with --db, the gallery of a tour library "
    "(/gallery, /api/library). Needs the 'web' extra."
)


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``serve``."""
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=port, default=8000, help="port (default 8000; 0: any free)")
    p.add_argument(
        "--max-squares",
        type=int_range(1),
        default=10_000,
        metavar="N",
        help="largest board the page solves, in squares (default 10000)",
    )
    p.add_argument(
        "--db",
        metavar="FILE",
        default=None,
        help="a tour library to show in the gallery (/gallery), read-only",
    )
    add_options(p, time_limit={"default": 5.0, "help": "cap on any one search (default 5)"})


def run(args: argparse.Namespace) -> int:
    """Run the web board until interrupted."""
    try:
        from knightstour.web.app import Limits, create_app
        from knightstour.web.server import serve
    except ImportError as e:
        raise UsageError(
            f"the web board needs FastAPI and uvicorn ({e.name} is missing): "
            f"pip install 'knightstour[web]'"
        ) from None
    from knightstour.errors import InvalidInputError

    try:
        app = create_app(
            Limits(max_squares=args.max_squares, time_limit=args.time_limit), library=args.db
        )
    except InvalidInputError as e:
        raise UsageError(f"--db: {e}") from None
    serve(app, args.host, args.port, log_level="warning", library=args.db)
    return EXIT_OK
