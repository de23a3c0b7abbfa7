"""Make number puzzles: a tour picked with a seed, its numbers thinned while the solver by logic
still fills the grid at the level asked, then the completion proved unique by the exact search.

The thinning takes the numbers away one at a time in an order drawn from the seed, and keeps a
number only when the grid cannot be filled without it by that level's deductions. What is left
is a puzzle of that level from which no number can be taken away; it is graded (the hardest
deduction its solving needed) and a few orders (and tours) are tried to reach the level asked,
the hardest found kept. The logic proves the solution unique (its deductions are sound); the
exact search, which knows nothing of them, proves it again, stopping at a second solution; a
puzzle it cannot prove in :data:`PROOF_SECONDS` is not published (another try is made).

``time_limit`` bounds the whole making (the web board gives it a request's time): the clock is
looked at between the thinning's steps and between slices of the exact search, and past it the
maker stops with :class:`OutOfTime` rather than try another order, so that a board, level and
seed make one puzzle or none, never another one because the machine was slow.

>>> p = make("6x6", level="easy", seed=1)
>>> p.level, len(p.givens) < 36
('easy', True)
>>> from knightstour.numberpuzzles.exact import completions
>>> completions(p).unique
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from knightstour import arguments
from knightstour.board import Board, BoardLike, parse_board
from knightstour.errors import InternalError, InvalidInputError, NoTourError, SearchFailedError
from knightstour.numberpuzzles.exact import completions
from knightstour.numberpuzzles.grid import LEVELS, MAX_SIDE, NumberPuzzle
from knightstour.numberpuzzles.logic import solve_logically
from knightstour.solvers._clock import expired

__all__ = ["ATTEMPTS", "OutOfTime", "make", "make_many", "pick_tour"]

#: Orders of thinning tried to reach the level asked (with a proof of uniqueness).
ATTEMPTS = 6
#: A new tour is drawn after this many orders.
TOUR_EVERY = 3
#: Seconds the exact search may take to prove a puzzle unique before another try is made.
PROOF_SECONDS = 10.0
#: Tries at a tour from a random start before the solver picks its own start.
TOUR_TRIES = 6
#: Seconds the solver may take to pick its own tour where Warnsdorff's rule got stuck.
TOUR_SECONDS = 30.0


class OutOfTime(SearchFailedError):
    """The maker's time limit passed before a puzzle was made: exit code 3, as any search that
    stopped without an answer, and HTTP 503 (the server's time ran out, not the request's fault:
    another seed, or the same later, may be made in time).

    >>> make("10x10", level="expert", seed=10, time_limit=1e-9)
    Traceback (most recent call last):
    ...
    knightstour.numberpuzzles.make.OutOfTime: no expert puzzle on 10x10 was made within its time limit (1e-09 s): try another seed
    """

    http_status = 503


class _Clock:
    """The maker's deadline (``time.monotonic()``; None: none): what is left of it, and
    :class:`OutOfTime` once it has passed (or the web's client has gone:
    :func:`~knightstour.solvers.cancellable`)."""

    def __init__(self, time_limit: float | None, message: str) -> None:
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.message = message

    def cap(self, seconds: float) -> float:
        """``seconds``, or less when less is left before the deadline."""
        return seconds if self.deadline is None else min(seconds, self.deadline - time.monotonic())

    def check(self) -> None:
        """Raise :class:`OutOfTime` when the deadline has passed."""
        if expired(self.deadline):
            raise OutOfTime(self.message)


def pick_tour(
    board: Board, closed: bool, rng: random.Random, *, time_limit: float = TOUR_SECONDS
) -> tuple[int, ...]:
    """A tour of ``board`` drawn with ``rng``: Warnsdorff's rule with random ties from a random
    start, or the solver's own choice where that gets stuck (within ``time_limit`` seconds,
    else :class:`~knightstour.errors.SearchFailedError`); validated (a :class:`Tour`).

    >>> len(pick_tour(Board(5, 5), False, random.Random(3)))
    25
    """
    from knightstour.solvers import solve

    squares = list(board.squares())
    for _ in range(TOUR_TRIES):
        start = rng.choice(squares)
        try:
            tour = solve(
                board,
                start=None if closed else start,
                closed=closed,
                method="warnsdorff",
                tiebreak="random",
                seed=rng.randrange(2**31),
            )
        except (NoTourError, SearchFailedError):
            continue
        path = tuple(int(s) for s in tour.indices)
        if closed:  # any square of a closed tour may be its 1
            i = rng.randrange(len(path))
            path = path[i:] + path[:i]
        return path if rng.random() < 0.5 else path[::-1]
    tour = solve(board, closed=closed, time_limit=time_limit)  # NoTourError when there is none
    return tuple(int(s) for s in tour.indices)


def _tour(board: Board, closed: bool, rng: random.Random, clock: _Clock) -> tuple[int, ...]:
    """:func:`pick_tour` within what is left of the maker's time."""
    clock.check()
    cap = clock.cap(TOUR_SECONDS)
    try:
        return pick_tour(board, closed, rng, time_limit=max(cap, 0.001))
    except SearchFailedError:
        if cap < TOUR_SECONDS:  # the maker's deadline cut the solver short
            raise OutOfTime(clock.message) from None
        raise


def _thin(
    solution: tuple[int, ...], puzzle: NumberPuzzle, level: str, rng: random.Random, clock: _Clock
) -> NumberPuzzle:
    """The puzzle with every number it can lose at ``level`` taken away, in a random order."""
    givens = {s: k for k, s in enumerate(solution, start=1)}
    order = list(givens)
    rng.shuffle(order)
    for s in order:
        clock.check()
        k = givens.pop(s)
        if not solve_logically(puzzle.with_givens(givens), level=level).solved:
            givens[s] = k
    return puzzle.with_givens(givens)


def make(
    board: BoardLike | Board,
    *,
    level: str = "medium",
    closed: bool = False,
    seed: int | None = None,
    time_limit: float | None = None,
) -> NumberPuzzle:
    """A number puzzle on ``board`` with exactly one solution, that the deductions of ``level``
    solve (and, as far as a few tries reach, need).

    Raises :class:`~knightstour.errors.NoTourError` when the board has no tour (closed, if
    asked), :class:`~knightstour.errors.InvalidInputError` for a board no puzzle is made on,
    :class:`OutOfTime` when ``time_limit`` seconds (None: no limit) pass first: with time to
    spare, the puzzle is the one made without a limit.

    >>> make("5x5", level="easy", seed=3, time_limit=60) == make("5x5", level="easy", seed=3)
    True
    """
    if level not in LEVELS:
        raise InvalidInputError(f"the level is one of {', '.join(LEVELS)}, not {level!r}")
    b = board if isinstance(board, Board) else parse_board(board)
    if b.leaper != (1, 2) or not b.is_flat:
        raise InvalidInputError("number puzzles are made on flat boards with a knight's moves")
    if max(b.width, b.height) > MAX_SIDE:
        raise InvalidInputError(
            f"{b.spec}: the largest side a number puzzle may have is {MAX_SIDE}"
        )
    limit = arguments.time_limit(time_limit)
    clock = _Clock(
        limit,
        f"no {level} puzzle on {b.description} was made within its time limit "
        f"({limit or 0:.2g} s): try another seed",
    )
    rng = random.Random(seed)
    solution = _tour(b, closed, rng, clock)
    blank = NumberPuzzle(b, {}, closed)
    best: NumberPuzzle | None = None
    best_rank = -1
    wanted = LEVELS.index(level)
    for attempt in range(ATTEMPTS):
        if attempt and attempt % TOUR_EVERY == 0:
            solution = _tour(b, closed, rng, clock)
        thinned = _thin(solution, blank, level, rng, clock)
        result = solve_logically(thinned, level=level)
        if not result.solved or result.grade is None:  # the full grid is solved at any level
            raise InternalError(f"the thinned puzzle is not solved at {level}")
        rank = LEVELS.index(result.grade)
        if rank <= best_rank:
            continue
        clock.check()
        given = clock.cap(PROOF_SECONDS)
        proof = completions(thinned, limit=2, time_limit=max(given, 0.001))
        if not proof.complete:  # too long to prove: another order, or another tour
            if given < PROOF_SECONDS:  # cut short by the deadline: another try would make
                raise OutOfTime(clock.message)  # another puzzle than this seed's
            continue
        if not proof.unique or proof.solutions[0] != solution:
            raise InternalError(
                f"the exact search finds {proof.count} completions of a puzzle the logic solved"
            )
        best, best_rank = _published(thinned, solution, result.grade, result.needed()), rank
        if rank == wanted:
            break
    if best is None:
        raise SearchFailedError(
            f"no {level} puzzle on {b.description} was proved unique by the exact search within "
            f"{PROOF_SECONDS:g} s in {ATTEMPTS} tries: try another seed"
        )
    return best


def _published(
    puzzle: NumberPuzzle, solution: tuple[int, ...], grade: str, needed: dict[str, int]
) -> NumberPuzzle:
    return NumberPuzzle(puzzle.board, dict(puzzle.givens), puzzle.closed, solution, grade, needed)


def make_many(
    board: BoardLike | Board,
    count: int,
    *,
    level: str = "medium",
    closed: bool = False,
    seed: int | None = None,
) -> Iterator[NumberPuzzle]:
    """``count`` puzzles, each from its own seed drawn from ``seed`` (the same run again gives
    the same puzzles).

    >>> [len(p.givens) > 0 for p in make_many("5x5", 2, level="easy", seed=4)]
    [True, True]
    """
    if count < 1:
        raise InvalidInputError(f"the count is at least 1, got {count}")
    rng = random.Random(seed)
    b = board if isinstance(board, Board) else parse_board(board)
    for _ in range(count):
        yield make(b, level=level, closed=closed, seed=rng.randrange(2**63))
