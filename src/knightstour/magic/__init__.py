"""Magic knight's tours: one front door, :func:`find`, that searches small boards and builds big ones.

:func:`find` owns the choice and the gates: a board a theorem rules out is refused with the
theorem's reason (:func:`knightstour.theory.semi_magic_verdict`), boards of up to 64 squares are
searched (:mod:`knightstour.magic.search`, resumable through a journal), bigger 4m x 4n boards are
built (:mod:`knightstour.magic.construct`), and every tour is validated and its sums checked
before it leaves. The analysis of any tour is :mod:`knightstour.numbering` (``Tour.magic()``).

>>> from knightstour.library.magic import MagicJournal
>>> from knightstour.library.store import Library
>>> found = find("12x12", MagicJournal(Library(":memory:"), 12, 12), count=2)
>>> found.outcome, [t.sums.verdict for t in found.tours], found.new
('done', ['semi-magic', 'semi-magic'], 2)
>>> judged("6x10").reason.split(" (")[0]
'no semi-magic tour on 6x10: both sides are 2 more than a multiple of 4'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from knightstour.magic.search import Journal
from knightstour.published import Census, census

if TYPE_CHECKING:
    from knightstour.board import Board, BoardLike
    from knightstour.magic.search import Report
    from knightstour.numbering import Magic
    from knightstour.progress import Progress
    from knightstour.tour import Tour

__all__ = [
    "Census",
    "Found",
    "Keeper",
    "MagicTour",
    "census",
    "find",
    "judged",
    "listing_refusal",
    "no_constant",
    "refusal",
    "ruled_out",
    "searched",
    "start_passes",
    "unnumbered",
]


class Keeper(Journal, Protocol):
    """Where :func:`find` keeps what it does: the search's :class:`~knightstour.magic.search.Journal`,
    and a tour library (:class:`knightstour.library.magic.MagicJournal` is both)."""

    def add(self, tours: Iterable[Tour], *, method: str | None = None) -> int:
        """Store built tours; how many were new classes."""

    def class_of(self, tour: Tour) -> bytes:
        """The library's canonical form of ``tour``: equal for two tours of one class."""

    def classes(self) -> int:
        """How many semi-magic tours (one a class) the library holds on the board."""


@dataclass(frozen=True)
class MagicTour:
    """A tour :func:`find` found or built: validated, with its sums checked (``sums``)."""

    tour: Tour
    sums: Magic

    @property
    def reentrant(self) -> bool:
        """Whether the last square is a knight's move from the first (a closed tour)."""
        order = self.tour.indices
        return self.tour.board.is_move(int(order[-1]), int(order[0]))

    def to_dict(self) -> dict[str, Any]:
        """The tour's JSON with ``"magic"`` (its sums) and ``"reentrant"``."""
        return {**self.tour.to_dict(), "magic": self.sums.to_dict(), "reentrant": self.reentrant}


@dataclass
class Found:
    """What :func:`find` did on ``board``: the tours it found (searched) or built, how many were
    new, and its ``outcome``: ``"none"`` (no semi-magic tour, proved by a theorem, the census
    or a search that walked every range; ``reason`` says which), ``"done"`` (all that was
    asked: ``count`` new classes, or every range asked for walked) or ``"stopped"`` (short of
    it, by the time limit, whatever was found on the way; or, built, because the
    construction's seeds gave no more classes: ``reason`` says so and how many were new).
    A built board names its ``construction`` and whether it closes its tours
    (``all_closed``: True for every tour, False for none;
    :func:`knightstour.magic.construct.construction`)."""

    board: Board
    built: bool
    outcome: Literal["none", "done", "stopped"]
    tours: list[MagicTour] = field(default_factory=list)
    new: int = 0
    #: the search's: what it walked, whether only closed tours, the classes the library holds
    report: Report | None = None
    closed: bool = False
    classes: int = 0
    reason: str | None = None
    construction: str | None = None
    all_closed: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``knightstour magic --format json``."""
        tours = [t.to_dict() for t in self.tours]
        r = self.report
        said = {"outcome": self.outcome, **({"reason": self.reason} if self.reason else {})}
        if r is None:
            return {"board": self.board.spec, "built": len(tours), "new": self.new, **said,
                    "construction": self.construction, "all_closed": self.all_closed,
                    "tours": tours}  # fmt: skip
        return {**said,
            "board": self.board.spec, "closed": self.closed, "ranges": r.ranges,
            "ranges_done": r.ranges_done, "starts": r.starts, "starts_done": r.starts_done,
            "quads": r.quads, "quads_done": r.quads_done, "quarters": r.quarters,
            "quarters_done": r.quarters_done,
            "parts_done": r.parts_done, "found": r.found,
            "new": r.new, "classes_in_library": self.classes, "nodes": r.nodes,
            "seconds": round(r.seconds, 3), "stopped": r.stopped, "tours": tours,
        }  # fmt: skip


def start_passes(board: Board) -> list[int]:
    """The range numbers of ``board``'s start passes (:mod:`knightstour.magic.starts`), in the
    order they are walked; a board the search does not take (it is built, or has no tour) is an
    :class:`InvalidInputError` saying so.

    >>> from knightstour.board import Board
    >>> start_passes(Board(8, 8))
    [-2, -3, -4, -5, -6, -7, -8, -9, -10, -11]
    >>> start_passes(Board(12, 12))
    Traceback (most recent call last):
    ...
    knightstour.errors.InvalidInputError: the start passes are for the search of boards up to 64 squares, not 12x12
    """
    from knightstour.errors import InvalidInputError
    from knightstour.magic import search as ms
    from knightstour.magic.starts import start_walker

    if not searched(board) or ms.refusal(board.width, board.height) is not None:
        raise InvalidInputError(
            f"the start passes are for the search of boards up to {ms.MAX_AREA} squares, "
            f"not {board.spec}"
        )
    return [r.number for r in start_walker(board.width, board.height).ranges]


def searched(board: Board) -> bool:
    """Whether :func:`find` searches ``board`` (2 to 64 squares) rather than building its tours.

    >>> from knightstour.board import Board
    >>> searched(Board(8, 8)), searched(Board(12, 12)), searched(Board(1, 1))
    (True, False, False)
    """
    from knightstour.magic.search import MAX_AREA

    return 1 < board.area <= MAX_AREA


def refusal(
    board: BoardLike,
    *,
    diagonal: bool = False,
    closed: bool = False,
    ranges: Iterable[int] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> str | None:
    """Why :func:`find` refuses ``board`` with these options, or None when it takes them.

    The reasons: a board that is not flat and plain, a board without magic constants
    (:func:`no_constant`), a magic tour asked of a board that is not square, an option of the
    search asked of a board that is built, or a size the constructions do not build
    (:func:`knightstour.magic.construct.constructible`). A board that a theorem or the census
    rules out is not refused: the answer is no (:func:`ruled_out`).

    >>> refusal("8x8"), refusal("4x4x4"), refusal("6x10")
    (None, 'magic tours are numbered on flat boards, not on 4x4x4', None)
    >>> refusal("12x12", closed=True)
    'closed is for the search of boards up to 64 squares, not 12x12 (it is built)'
    """
    from knightstour.board import parse_board
    from knightstour.magic.construct import constructible
    from knightstour.magic.search import MAX_AREA

    b = parse_board(board)
    unfit = unnumbered(b)
    if unfit is not None:
        return unfit
    lacking = no_constant(b)
    if lacking is not None:
        return lacking
    if ruled_out(b, diagonal=diagonal) is not None:
        return None  # an answer (no), not a refusal
    if diagonal:  # the search looks for semi-magic tours: magic ones are the constructions' part
        reason = constructible(b.width, b.height, diagonal=True)
        if reason is not None:
            return reason
    if searched(b):
        return None
    asked = {"closed": closed, "ranges": ranges, "workers": workers, "scheduler": scheduler}
    for name, given in asked.items():
        if given:
            return (
                f"{name} is for the search of boards up to {MAX_AREA} squares, not {b.spec} "
                f"(it is built)"
            )
    return constructible(b.width, b.height, diagonal)


def unnumbered(board: Board) -> str | None:
    """Why ``board``'s tours are not numberings magic sums speak of (a 3-D board, or a shaped
    one or another leaper's), or None for a plain knight's rectangle.

    >>> from knightstour.board import parse_board
    >>> unnumbered(parse_board("8x8")), unnumbered(parse_board("4x4x4"))
    (None, 'magic tours are numbered on flat boards, not on 4x4x4')
    """
    if board.depth > 1:
        return f"magic tours are numbered on flat boards, not on {board.spec}"
    if not board.is_plain_knight:
        return f"magic tours are numbered on plain knight's boards, not on {board.description}"
    return None


def listing_refusal(board: Board, *, diagonal: bool = False) -> str | None:
    """Why a listing of ``board``'s classes (``magic --classes``) is not a question it can
    answer: a board magic sums do not speak of, no magic constant, or magic (``diagonal``)
    tours asked of a board without long diagonals. None when it can be asked.

    >>> from knightstour.board import parse_board
    >>> listing_refusal(parse_board("8x8")), listing_refusal(parse_board("8x6"), diagonal=True)
    (None, 'magic tours add up along both long diagonals, which only a square board has, not 8x6')
    """
    unfit = unnumbered(board) or no_constant(board)
    if unfit is None and diagonal and board.width != board.height:
        unfit = (
            f"magic tours add up along both long diagonals, which only a square board has, "
            f"not {board.spec}"
        )
    return unfit


def no_constant(board: Board) -> str | None:
    """Why ``board`` has no magic constants (its numbers' sum cannot be shared equally by its
    ranks, or by its files), or None: a semi-magic tour is then not a question it can answer.

    >>> from knightstour.board import Board
    >>> no_constant(Board(5, 6))
    '5x6 has no magic constant: its numbers 1 to 30 add up to 465, which its 6 ranks cannot share equally'
    >>> no_constant(Board(5, 5)) is None, no_constant(Board(6, 10)) is None
    (True, True)
    """
    n = board.area
    total = n * (n + 1) // 2
    for lines, count in (("ranks", board.height), ("files", board.width)):
        if total % count:
            return (
                f"{board.spec} has no magic constant: its numbers 1 to {n} add up to {total}, "
                f"which its {count} {lines} cannot share equally"
            )
    return None


def ruled_out(board: BoardLike, *, diagonal: bool = False) -> str | None:
    """Why ``board`` has no semi-magic tour (magic with ``diagonal``), proved without a search:
    a theorem (:func:`knightstour.theory.semi_magic_verdict`), or for magic 8x8 tours the
    published census (:func:`knightstour.published.census`); None when neither rules it out
    (or the question does not apply: :func:`refusal`).

    >>> ruled_out("6x10").split(" (")[0]
    'no semi-magic tour on 6x10: both sides are 2 more than a multiple of 4'
    >>> ruled_out("8x8"), ruled_out("8x8", diagonal=True).split(":")[0]
    (None, 'no magic tour on 8x8')
    """
    from knightstour.board import parse_board
    from knightstour.theory import semi_magic_verdict

    b = parse_board(board)
    if b.depth > 1 or not b.is_plain_knight or no_constant(b) is not None:
        return None
    verdict = semi_magic_verdict(b)
    if verdict is not None:
        return verdict.reason
    if diagonal and b.spec == census().board:
        return census().no_magic_reason
    return None


def judged(board: BoardLike, *, diagonal: bool = False, closed: bool = False) -> Found | None:
    """The answer for ``board`` that needs no search and no library: "none" with the reason
    when :func:`ruled_out` proves it (exit 1, as a search's proof), else None.

    >>> judged("6x10").outcome, judged("8x8") is None
    ('none', True)
    """
    from knightstour.board import parse_board

    b = parse_board(board)
    why = ruled_out(b, diagonal=diagonal)
    if why is None:
        return None
    return Found(b, built=not searched(b), outcome="none", closed=closed, reason=why)


def find(
    board: BoardLike,
    keeper: Keeper,
    *,
    diagonal: bool = False,
    closed: bool = False,
    count: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    ranges: Iterable[int] | None = None,
    progress: Progress | None = None,
    on_found: Callable[[MagicTour], None] | None = None,
    discard_damaged: bool = False,
) -> Found:
    """Semi-magic tours of ``board`` (magic with ``diagonal``), searched or built, kept in ``keeper``.

    Boards of up to 64 squares are searched, bigger ones built. Refuses
    (:class:`~knightstour.errors.InvalidInputError`) what :func:`refusal` names, and arguments
    of the wrong type or range (:mod:`knightstour.arguments`); answers "none" at once for a
    board a theorem or the census rules out (:func:`judged`). The search walks the ranges in
    order (only closed tours with ``closed``, only the range numbers in ``ranges``), recording
    each part in ``keeper``, on ``workers`` threads (default, and at most: one a core) or the
    Dask cluster at ``scheduler``, until ``count`` new classes are found, ``time_limit`` seconds
    pass or every range is walked; run again, it goes on where it stopped. The constructions
    build tours from seeds 0, 1, ... until ``count`` (default 1) are classes new to ``keeper``,
    storing each (tours of a class it holds are not handed over), or stop short when the seeds
    give no more (``reason`` says how many were new). Each tour is validated and its sums checked,
    then handed to ``on_found`` as it comes; ``progress(done, total)`` counts the parts of the
    range under way (search) or the tours built. Ctrl-C stops a search cleanly (what is recorded
    stays) and is raised again. A damaged saved walk in ``keeper`` is refused in one line, or
    with ``discard_damaged`` dropped, its part walked again from its start.

    >>> from knightstour.library.magic import MagicJournal
    >>> from knightstour.library.store import Library
    >>> found = find("16x16", MagicJournal(Library(":memory:"), 16, 16))
    >>> found.built, found.outcome, found.new, found.tours[0].reentrant
    (True, 'done', 1, True)
    """
    from knightstour import arguments
    from knightstour.board import parse_board
    from knightstour.errors import InvalidInputError

    b = parse_board(board)
    time_limit, progress = arguments.time_limit(time_limit), arguments.progress(progress)
    scheduler = arguments.scheduler(scheduler)
    threads = arguments.workers(workers)  # one a core at most: more only share the same cores
    reason = refusal(
        b, diagonal=diagonal, closed=closed, ranges=ranges, workers=workers, scheduler=scheduler
    )
    if reason is not None:
        raise InvalidInputError(reason)
    answer = judged(b, diagonal=diagonal, closed=closed)
    if answer is not None:
        return answer
    found = Found(b, built=not searched(b), outcome="done", closed=closed)
    if found.built and b.area > 1:
        from knightstour.magic.construct import construction

        found.construction, found.all_closed = construction(b.width, b.height)

    def keep(out: MagicTour) -> None:
        found.tours.append(out)
        if on_found is not None:
            on_found(out)

    if found.built:
        _build(found, keeper, diagonal, count or 1, time_limit, progress, keep)
    else:
        _search(found, keeper, count, time_limit, threads, scheduler, ranges, progress,
                lambda order: keep(_checked(b, order, diagonal)), discard_damaged)  # fmt: skip
    return found


def _checked(board: Board, order: Any, diagonal: bool) -> MagicTour:
    """A found or built tour, validated (:class:`~knightstour.tour.Tour`), its sums checked."""
    from knightstour.errors import InternalError
    from knightstour.tour import Tour

    tour = Tour(board, order, closed=False, method="magic")
    sums = tour.magic()
    if not sums.semi_magic or (diagonal and not sums.magic):
        raise InternalError(f"a tour the magic search found is not semi-magic: {sums.summary()}")
    return MagicTour(tour, sums)


#: The constructions' seeds give a board a few classes each, then repeat them: building stops
#: after this many seeds in a row that gave no class unseen in the run.
BARREN_SEEDS = 16


def _build(
    found: Found,
    keeper: Keeper,
    diagonal: bool,
    wanted: int,
    time_limit: float | None,
    progress: Progress | None,
    keep: Callable[[MagicTour], None],
) -> None:
    """Build tours of ``found.board`` from seeds 0, 1, ... until ``wanted`` of them are classes
    new to ``keeper`` (the library's canonical form decides), each stored as it is built, then
    handed to ``keep``; tours of a class the library holds are not handed over. Stops short
    ("stopped", with the reason) at the time limit, or when :data:`BARREN_SEEDS` seeds in a row
    gave no class unseen in this run: the seeds hold no more."""
    from knightstour.magic.construct import construct

    b = found.board
    deadline = None if time_limit is None else time.monotonic() + time_limit
    seen: set[bytes] = set()
    seed = barren = 0
    while found.new < wanted:
        if deadline is not None and time.monotonic() > deadline:
            found.outcome = "stopped"
            found.reason = _short(found, wanted, f"stopped by the time limit after {seed} seeds")
            return
        if barren >= BARREN_SEEDS:
            found.outcome = "stopped"
            found.reason = _short(found, wanted, (
                f"the construction's seeds 0 to {seed - 1} gave {len(seen)} classes of {b.spec} "
                f"in all, the last {barren} only repeats"))  # fmt: skip
            return
        out = _checked(b, construct(b.width, b.height, diagonal=diagonal, seed=seed), diagonal)
        seed += 1
        key = keeper.class_of(out.tour)
        barren = 0 if key not in seen else barren + 1
        seen.add(key)
        if keeper.add([out.tour], method="magic-construct"):  # stored before it is shown
            found.new += 1
            keep(out)
            if progress is not None:
                progress(found.new, wanted)
    found.outcome = "done"


def _short(found: Found, wanted: int, why: str) -> str:
    """The one line of a build that stopped short of ``wanted`` new classes."""
    kind = "magic" if found.tours and found.tours[0].sums.magic else "semi-magic"
    return f"{found.new} new classes of {kind} tours of the {wanted} asked: {why}"


def _search(
    found: Found,
    keeper: Keeper,
    count: int | None,
    time_limit: float | None,
    workers: int | None,
    scheduler: str | None,
    ranges: Iterable[int] | None,
    progress: Progress | None,
    keep: Callable[[Any], None],
    discard_damaged: bool,
) -> None:
    """Search ``found.board``; a complete walk without a tour (every range, open tours too)
    proves there is none."""
    from knightstour.magic import search as ms

    b = found.board
    only = None if ranges is None else list(ranges)
    report = ms.search(
        b.width, b.height, keeper, closed=found.closed, count=count, time_limit=time_limit,
        workers=workers, scheduler=scheduler, only=only, progress=progress, on_found=keep,
        discard_damaged=discard_damaged,
    )  # fmt: skip
    found.report, found.new, found.classes = report, report.new, keeper.classes()
    # a proof needs every tour walked: all the start passes, or all the numbered ranges, of
    # open tours too (whatever ``ranges`` named)
    starts = len(ms.start_walker(b.width, b.height).ranges)
    numbered = len(ms.ranges(b.width, b.height))
    walked = (f"{starts} start passes" if report.starts_done == starts
              else f"{numbered} ranges" if report.ranges_done == numbered else None)  # fmt: skip
    if report.complete and walked and found.classes == 0 and not found.closed:
        found.outcome = "none"
        found.reason = (
            f"no semi-magic tour on {b.spec}: every one of its {walked} was walked to its end "
            f"({report.nodes:,} nodes)"
        )
    elif not report.complete and (count is None or report.new < count):
        found.outcome = "stopped"  # short of what was asked, whatever it found on the way
