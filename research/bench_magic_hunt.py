"""The searches for a magic 12x12 tour (docs/magic.md, "Searching for a magic 12x12").

    python -m research.bench_magic_hunt [SECONDS]    # default 120, from the repository's root

Runs ``python -m research.magic_patterns loops --filter --seconds SECONDS --seed 1`` (loop patterns
drawn, filtered by their diagonals, and walked whole by the compiled lockstep walk),
``python -m research.magic_patterns four`` (the four-strand construction walked whole along one
path of each class, in every plan, on both colours) and ``python -m research.magic_patterns pairs
--seconds SECONDS --seed 1`` (pairs of strands on two paths drawn at random), and prints the last
line of each: what was walked, the magic tours found, and the time.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    """The last line ``python -m research.magic_patterns ARGS`` prints."""
    done = subprocess.run(
        [sys.executable, "-m", "research.magic_patterns", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else f"no output (exit {done.returncode}): {done.stderr.strip()}"


def main(seconds: float) -> None:
    print("loop patterns, filtered, each walked whole:")
    print("  " + run("loops", "--filter", "--seconds", str(seconds), "--seed", "1"))
    print("four strands abreast, along every class of side-by-side paths:")
    print("  " + run("four"))
    print("pairs of strands on paths of their own, drawn at random:")
    print("  " + run("pairs", "--seconds", str(seconds), "--seed", "1"))


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 120.0)
