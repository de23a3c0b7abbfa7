"""``knightstour warm``: compile every kernel into the cache, once after install."""

from __future__ import annotations

import argparse
import time

from knightstour.cli._options import EXIT_OK, add_options
from knightstour.cli._output import capped_workers
from knightstour.cli.progress import progress_bar

NAME = "warm"
HELP = (
    "compile every kernel into the cache so that no first call pays for compilation "
    "(run once after install)"
)


DESCRIPTION = HELP[0].upper() + HELP[1:] + "."


def add(p: argparse.ArgumentParser) -> None:
    """The options of ``warm``."""
    add_options(
        p, workers={"help": "processes compiling at once (default and at most: one per core)"}
    )
    add_options(p, "quiet")


def run(args: argparse.Namespace) -> int:
    """Compile, printing each step with its seconds and the total."""
    from knightstour.arguments import cores
    from knightstour.warm import warm

    workers = capped_workers(args.workers, cores()) or cores()
    began = time.perf_counter()
    with progress_bar("warm", unit="steps", delay=0, quiet=args.quiet) as bar:
        steps = warm(progress=bar, workers=workers)
    wall = time.perf_counter() - began
    width = max((len(name) for name, _ in steps), default=5)
    for name, seconds in steps:
        print(f"{name:<{width}}  {seconds:6.2f} s")
    print(f"{'total':<{width}}  {sum(s for _, s in steps):6.2f} s")
    if workers > 1:
        print(f"{'wall clock':<{width}}  {wall:6.2f} s ({workers} processes)")
    return EXIT_OK
