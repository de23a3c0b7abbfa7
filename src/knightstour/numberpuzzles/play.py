"""Number puzzles played on the web board: the boards it takes, the daily puzzle, and the
checks and hints on a grid partly filled by a player (who never holds the solution).

The page holds the puzzle (its board, level, seed and givens) and the player's entries; the
server makes the puzzle from the seed, checks entries against the puzzle's one solution (found
again from the givens, by logic or the exact search) and gives the next deduction in words.

>>> p = make_playable("5x5", level="easy", seed=3)
>>> sol = solution_of(p)
>>> entries = {s: k for k, s in enumerate(sol, start=1) if s not in p.givens}
>>> wrong_entries(p, entries)
[]
>>> s = next(iter(entries))
>>> wrong_entries(p, {**entries, s: entries[s] % 25 + 1}) == [s]
True
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Mapping
from typing import Any

from knightstour.board import Board, BoardLike, brief, parse_board
from knightstour.errors import InvalidInputError, SearchFailedError
from knightstour.numberpuzzles.grid import LEVELS, NumberPuzzle
from knightstour.numberpuzzles.logic import Deduction, next_deduction, solve_logically

__all__ = [
    "DAILY_BOARDS",
    "DAILY_LEVELS",
    "MAX_PLAY_SIDE",
    "MAX_SEED",
    "MIN_PLAY_SIDE",
    "check_entries",
    "daily_day",
    "daily_numbers",
    "hint_for",
    "level_of",
    "make_playable",
    "parse_entries",
    "playable_board",
    "playing_dict",
    "solution_of",
    "wrong_entries",
]

#: The sides of the boards played on the web (the maker makes most of these in about a second;
#: the web gives it a request's time limit, since a few 10x10 expert seeds take over ten).
MIN_PLAY_SIDE, MAX_PLAY_SIDE = 5, 10
#: The boards and levels the daily numbers puzzle is drawn from.
DAILY_BOARDS = ("5x5", "6x6", "7x7", "8x8")
DAILY_LEVELS = ("easy", "medium", "hard")
#: Seconds the exact search may take to find a puzzle's solution from its givens.
SOLUTION_SECONDS = 5.0
#: Seeds are below this: a page holds the seed as a JavaScript number, exact up to 2**53.
MAX_SEED = 2**53


def playable_board(board: BoardLike | Board) -> Board:
    """The board, when a number puzzle is played on it on the web: a plain knight's board of
    sides :data:`MIN_PLAY_SIDE` to :data:`MAX_PLAY_SIDE`.

    >>> playable_board("6x6").spec
    '6x6'
    >>> playable_board("4x9")
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: 4x9: number puzzles are played on boards of sides 5 to 10
    """
    b = board if isinstance(board, Board) else parse_board(board)
    if b.leaper != (1, 2) or not b.is_flat or b.holes or b.wrap:
        raise InvalidInputError(f"{b.spec}: number puzzles are played on plain knight's boards")
    if not (min(b.width, b.height) >= MIN_PLAY_SIDE and max(b.width, b.height) <= MAX_PLAY_SIDE):
        raise InvalidInputError(
            f"{b.spec}: number puzzles are played on boards of sides "
            f"{MIN_PLAY_SIDE} to {MAX_PLAY_SIDE}"
        )
    return b


def make_playable(
    board: BoardLike | Board, *, level: str, seed: int | None, time_limit: float | None = None
) -> NumberPuzzle:
    """The puzzle of ``board``, ``level`` and ``seed`` (open tour): the same arguments make the
    same puzzle, so that a link of board, level and seed reproduces it, or, past ``time_limit``
    seconds, none (:class:`~knightstour.numberpuzzles.make.OutOfTime`, HTTP 503).

    >>> make_playable("5x5", level="easy", seed=3) == make_playable("5x5", level="easy", seed=3)
    True
    >>> make_playable("5x5", level="easy", seed=2**53)
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the seed must be below 2**53 (9007199254740992), got 9007199254740992
    """
    from knightstour.numberpuzzles.make import make

    if seed is not None and not 0 <= seed < MAX_SEED:
        raise InvalidInputError(f"the seed must be below 2**53 ({MAX_SEED}), got {seed}")

    return make(playable_board(board), level=level_of(level), seed=seed, time_limit=time_limit)


def new_seed() -> int:
    """A fresh seed for a new puzzle (below 2**31, so that a link stays short).

    >>> 0 <= new_seed() < 2**31
    True
    """
    import secrets

    return secrets.randbelow(2**31)


def playing_dict(puzzle: NumberPuzzle, seed: int, daily: str | None = None) -> dict[str, Any]:
    """The puzzle as the web page gets it: the board's fields, ``closed``, the level, the seed,
    the givens by square name and N; never the solution.

    >>> d = playing_dict(make_playable("5x5", level="easy", seed=3), 3)
    >>> sorted(d), "path" in d
    (['closed', 'daily', 'givens', 'height', 'level', 'seed', 'size', 'width'], False)
    """
    from knightstour import notation

    b = puzzle.board
    return {
        **notation.board_fields(b),
        "closed": puzzle.closed,
        "level": puzzle.level,
        "seed": seed,
        "givens": {b.square_name(s): k for s, k in sorted(puzzle.givens.items())},
        "size": puzzle.size,
        "daily": daily,
    }


def puzzle_of_play(data: Mapping[str, Any]) -> tuple[NumberPuzzle, dict[int, int]]:
    """The puzzle (board, ``closed``, givens) and the entries of a page's request, checked: the
    board must be one played on the web (:func:`playable_board`).

    >>> p, e = puzzle_of_play({"width": 5, "height": 5, "givens": {"a1": 1}, "entries": {"b3": 2}})
    >>> p.givens, e
    ({0: 1}, {11: 2})
    """
    from knightstour.numberpuzzles.grid import puzzle_from_dict

    puzzle = puzzle_from_dict(
        {k: data[k] for k in ("width", "height", "closed", "givens") if k in data}
    )
    playable_board(puzzle.board)
    return puzzle, parse_entries(puzzle.board, data.get("entries") or {})


def check_entries(
    puzzle: NumberPuzzle, entries: Mapping[int, int], *, time_limit: float | None = SOLUTION_SECONDS
) -> dict[str, Any]:
    """The answer to the page's Check: the squares whose entry is wrong (names), whether every
    square is filled, and whether the grid is solved.

    >>> p = make_playable("5x5", level="easy", seed=3)
    >>> check_entries(p, {})["wrong"], check_entries(p, {})["solved"]
    ([], False)
    """
    b = puzzle.board
    wrong = wrong_entries(puzzle, entries, time_limit=time_limit)
    filled = all(s in puzzle.givens or s in entries for s in b.squares())
    return {
        "wrong": [b.square_name(s) for s in wrong],
        "filled": filled,
        "solved": filled and not wrong,
    }


def daily_numbers(date: datetime.date) -> dict[str, Any]:
    """The daily numbers puzzle of ``date``: a board, a level and a seed from a hash of the date
    (no state, no clock), the same for everyone that day, as the daily game puzzle.

    >>> daily_numbers(datetime.date(2026, 1, 1)) == daily_numbers(datetime.date(2026, 1, 1))
    True
    >>> sorted(daily_numbers(datetime.date(2026, 1, 1)))
    ['board', 'date', 'level', 'seed']
    """
    digest = hashlib.sha256(f"knightstour numbers {date.isoformat()}".encode()).digest()
    h = int.from_bytes(digest)
    board = DAILY_BOARDS[h % len(DAILY_BOARDS)]
    h //= len(DAILY_BOARDS)
    level = DAILY_LEVELS[h % len(DAILY_LEVELS)]
    h //= len(DAILY_LEVELS)
    return {"date": date.isoformat(), "board": board, "level": level, "seed": h % 2**31}


def daily_day(text: str, today: datetime.date) -> datetime.date:
    """The day a link's ``daily=YYYY-MM-DD`` names, up to ``today`` (a later day's puzzle is
    not out yet).

    >>> daily_day("2026-01-01", datetime.date(2026, 11, 29))
    datetime.date(2026, 1, 1)
    >>> daily_day("2027-01-01", datetime.date(2026, 11, 29))
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the daily numbers puzzle of 2027-01-01 is not out yet (today is 2026-11-29 UTC)
    """
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise InvalidInputError(f"daily: {brief(text)} is not a date YYYY-MM-DD") from None
    if day > today:
        raise InvalidInputError(
            f"the daily numbers puzzle of {day.isoformat()} is not out yet "
            f"(today is {today.isoformat()} UTC)"
        )
    return day


def parse_entries(board: Board, entries: Mapping[str, Any]) -> dict[int, int]:
    """A player's entries, square name to number, as square index to number, each checked.

    >>> parse_entries(Board(5, 5), {"a1": 3})
    {0: 3}
    >>> parse_entries(Board(5, 5), {"a1": 26})
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: 26 on a1: the numbers of this board are 1 to 25
    """
    out: dict[int, int] = {}
    for name, k in entries.items():
        s = board.parse_square(str(name))
        if not isinstance(k, int) or isinstance(k, bool):
            raise InvalidInputError(f"the number on {brief(name)} is not a whole number")
        if not 1 <= k <= board.size:
            raise InvalidInputError(
                f"{k} on {board.square_name(s)}: the numbers of this board are 1 to {board.size}"
            )
        out[s] = k
    return out


def solution_of(
    puzzle: NumberPuzzle, *, time_limit: float | None = SOLUTION_SECONDS
) -> tuple[int, ...]:
    """The squares of 1..N of the puzzle's one solution: the one it carries, else found from
    its givens by logic, else by the exact search (which must find exactly one) within
    ``time_limit`` seconds (:class:`SearchFailedError` past it).

    >>> len(solution_of(make_playable("5x5", level="easy", seed=3)))
    25
    """
    if puzzle.solution is not None:
        return puzzle.solution
    result = solve_logically(puzzle)
    if result.solved:
        at = {k: s for s, k in result.filled.items()}
        return tuple(at[k] for k in range(1, puzzle.size + 1))
    from knightstour.numberpuzzles.exact import completions

    found = completions(puzzle, limit=2, time_limit=time_limit)
    if not found.complete:
        raise SearchFailedError("the puzzle's solution was not found in time")
    if not found.unique:
        raise InvalidInputError(
            "these givens have no solution"
            if found.count == 0
            else "these givens have more than one solution"
        )
    return found.solutions[0]


def wrong_entries(
    puzzle: NumberPuzzle, entries: Mapping[int, int], *, time_limit: float | None = SOLUTION_SECONDS
) -> list[int]:
    """The squares whose entry is not the solution's number (givens are not entries), in
    square order.

    >>> p = make_playable("5x5", level="easy", seed=3)
    >>> blank = next(s for s in range(25) if s not in p.givens)
    >>> wrong_entries(p, {blank: solution_of(p).index(blank) + 1}), len(wrong_entries(p, {blank: 99}))
    ([], 1)
    """
    sol = solution_of(puzzle, time_limit=time_limit)
    number = {s: k for k, s in enumerate(sol, start=1)}
    return sorted(s for s, k in entries.items() if s not in puzzle.givens and number[s] != k)


def hint_for(
    puzzle: NumberPuzzle, entries: Mapping[int, int], *, time_limit: float | None = SOLUTION_SECONDS
) -> dict[str, Any]:
    """The next deduction on the puzzle with the player's right ``entries`` written in: the
    reason in words, the squares it concerns (names), or why there is none (``"status"``:
    ``"hint"``, ``"filled"``, ``"contradiction"`` or ``"stuck"``); ``"wrong"``, how many
    entries are wrong (not named: Check names them).

    A wrong entry is left out of the reasoning (a deduction from it would lead the player
    further astray), and the reason says first that some numbers written are wrong.

    >>> p = make_playable("5x5", level="easy", seed=3)
    >>> h = hint_for(p, {})
    >>> h["status"], h["number"] is not None, h["square"] in h["squares"], h["wrong"]
    ('hint', True, True, 0)
    >>> blank = next(s for s in range(25) if s not in p.givens)
    >>> wrong = solution_of(p).index(blank) % 25 + 2  # not the number of that square
    >>> h = hint_for(p, {blank: wrong})
    >>> h["wrong"], h["reason"].startswith("1 number written is wrong")
    (1, True)
    """
    b = puzzle.board
    mine = {s: k for s, k in entries.items() if s not in puzzle.givens}
    bad = set(wrong_entries(puzzle, mine, time_limit=time_limit))
    written = {**{s: k for s, k in mine.items() if s not in bad}, **puzzle.givens}
    step = next_deduction(puzzle.with_givens(written))
    none: dict[str, Any] = {"number": None, "square": None, "squares": [], "kind": None}
    warning = (
        f"{len(bad)} number{'s' if len(bad) > 1 else ''} written "
        f"{'are' if len(bad) > 1 else 'is'} wrong (Check shows where); without "
        f"{'them' if len(bad) > 1 else 'it'}: "
        if bad
        else ""
    )
    if isinstance(step, Deduction):
        return {
            "status": "hint",
            "wrong": len(bad),
            "reason": warning + step.reason,
            "number": step.number,
            "square": b.square_name(step.square),
            "squares": [b.square_name(s) for s in step.squares],
            "kind": step.kind,
        }
    if step.contradiction:  # the right entries and the givens never contradict: a safeguard
        return {
            **none,
            "status": "contradiction",
            "wrong": len(bad),
            "reason": f"the numbers written cannot all be right: {step.contradiction}",
        }
    if step.solved:
        return {
            **none,
            "status": "filled",
            "wrong": len(bad),
            "reason": "every square is filled: use Check",
        }
    return {
        **none,
        "status": "stuck",
        "wrong": len(bad),
        "reason": warning + "no deduction of the solver's places a number from here",
    }


def level_of(level: str) -> str:
    """``level``, checked against :data:`~knightstour.numberpuzzles.grid.LEVELS`.

    >>> level_of("hard")
    'hard'
    """
    if level not in LEVELS:
        raise InvalidInputError(f"level: {brief(level)} is not one of {', '.join(LEVELS)}")
    return level
