"""What a number puzzle's solver says: solved (one solution), none, several, or unknown (the
search stopped), with the reason and the exit code's answer; the text and JSON that
``knightstour puzzle solve`` prints.

Exit codes (docs/puzzles.md): a puzzle is a question, "what is its one completion?". One
solution answers it (0); no solution and several solutions both say the puzzle is not a proper
one, the answer is no (1), and the text says which; a search that stopped answers nothing (3).

>>> from knightstour.numberpuzzles.grid import parse_puzzle
>>> v = judge(parse_puzzle("1 . .\\n. . .\\n. . ."))
>>> v.status, v.answer
('none', False)
>>> print(v.reason)
no solution: b2 has no way in or out left
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from knightstour.numberpuzzles.exact import completions
from knightstour.numberpuzzles.grid import NumberPuzzle, grid_text
from knightstour.numberpuzzles.logic import Deduction, LogicResult, next_deduction, solve_logically

__all__ = ["STATUSES", "Verdict", "hint", "judge"]

#: What :func:`judge` can say of a puzzle.
STATUSES = ("solved", "none", "several", "unknown")


@dataclass(frozen=True)
class Verdict:
    """A puzzle judged: ``status`` (one of :data:`STATUSES`), up to two ``solutions`` (the
    squares of 1..N), the ``grade`` by logic when solved (None: logic alone does not solve
    it), the deductions that needed, and the ``reason`` in words."""

    puzzle: NumberPuzzle
    status: str
    solutions: tuple[tuple[int, ...], ...]
    grade: str | None
    needed: dict[str, int]
    reason: str
    positions: int

    @property
    def answer(self) -> bool | None:
        """True: one solution; False: none or several; None: the search stopped."""
        return {"solved": True, "none": False, "several": False, "unknown": None}[self.status]

    def solution_text(self, i: int = 0, labels: bool = False) -> str:
        """Solution ``i`` in the text form."""
        cells = self.puzzle.cells()
        for k, s in enumerate(self.solutions[i], start=1):
            cells[s] = k
        return grid_text(self.puzzle.board, cells, labels)

    def lines(self, labels: bool = False) -> list[str]:
        """The text that ``puzzle solve`` prints: the reason, then the solution(s)."""
        out = [self.reason]
        for i in range(len(self.solutions) if self.status != "none" else 0):
            if self.status == "several":
                out.append(f"solution {i + 1}:")
            out.append(self.solution_text(i, labels))
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the puzzle's, with the status, the reason, the grade and the
        solutions by square name (a solved puzzle's one also as the tour's ``path``)."""
        b = self.puzzle.board
        out = self.puzzle.to_dict()
        out |= {"status": self.status, "reason": self.reason, "grade": self.grade}
        if self.needed:
            out["deductions"] = self.needed
        out["solutions"] = [[b.square_name(s) for s in sol] for sol in self.solutions]
        if self.status == "solved":
            out["method"] = "numbers"
            out["path"] = out["solutions"][0]
            out["xy"] = [list(b.xy(s)) for s in self.solutions[0]]
        return out


def judge(puzzle: NumberPuzzle, *, time_limit: float | None = None) -> Verdict:
    """Judge ``puzzle``: the exact search counts its completions up to two (within
    ``time_limit`` seconds), and the solver by logic grades a puzzle with one.

    >>> from knightstour.numberpuzzles.grid import parse_puzzle
    >>> judge(parse_puzzle(". . .\\n. . .\\n. . .\\n. . 1"), time_limit=10).status
    'several'
    """
    logic = solve_logically(puzzle)
    found = completions(puzzle, limit=2, time_limit=time_limit)
    grade, needed = (logic.grade, logic.needed()) if logic.solved else (None, {})
    n = found.positions
    proof = f"the exact search proves it ({n:,} positions examined)"
    if found.count >= 2:
        return Verdict(
            puzzle, "several", found.solutions, None, {}, f"several solutions: {proof}; two:", n
        )
    if not found.complete:
        return Verdict(
            puzzle,
            "unknown",
            found.solutions,
            None,
            {},
            f"the search stopped after {time_limit:g} s without deciding whether the puzzle "
            "has one solution",
            n,
        )
    if found.count == 0:
        why = logic.contradiction or proof
        return Verdict(puzzle, "none", (), None, {}, f"no solution: {why}", n)
    if grade is not None:
        said = f"level {grade}, by logic alone"
    else:
        said = "beyond the four levels: logic alone does not fill it"
    return Verdict(puzzle, "solved", found.solutions, grade, needed, f"one solution ({said}):", n)


def hint(puzzle: NumberPuzzle) -> Deduction | LogicResult:
    """The next deduction for ``puzzle`` (or the solver's result when there is none):
    :func:`knightstour.numberpuzzles.logic.next_deduction`."""
    return next_deduction(puzzle)
