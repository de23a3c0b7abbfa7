"""Number puzzles (issue 34, items 1-3): made puzzles have exactly one solution (counted here by
an independent backtracking counter), the grades hold (a puzzle graded at a level is solved by
that level's deductions and not by the level below), the text and JSON forms read back, bad
input is one line and exit 2, and the commands answer with the contract's exit codes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import knightstour as kt
from knightstour.cli import main
from knightstour.numberpuzzles import (
    LEVELS,
    NumberPuzzle,
    check_filled,
    completions,
    parse_grid,
    parse_puzzle,
)
from knightstour.numberpuzzles.logic import next_deduction, solve_logically
from knightstour.numberpuzzles.make import make
from tiers import examples

# -- an independent counter -------------------------------------------------------------------


def _lower_bound(board: kt.Board, a: int, b: int) -> int:
    """Fewest knight's moves between two squares of an open board, from below (never more)."""
    ax, ay = board.xy(a)
    bx, by = board.xy(b)
    dx, dy = abs(ax - bx), abs(ay - by)
    return max(-(-dx // 2), -(-dy // 2), -(-(dx + dy) // 3))


def count_plain(puzzle: NumberPuzzle, limit: int = 2) -> int:
    """The completions of ``puzzle`` up to ``limit``: numbers placed 1, 2, ... by plain
    backtracking, pruned only by the next given number being out of reach (a lower bound of
    the distance, and the colour)."""
    b, n = puzzle.board, puzzle.size
    where = {k: s for s, k in puzzle.givens.items()}
    moves = {s: b.moves(s) for s in b.squares()}
    given_after = {}
    nxt = None
    for k in range(n, 0, -1):
        given_after[k] = nxt
        if k in where:
            nxt = k
    used: set[int] = set(puzzle.givens)
    found = 0

    def fits(s: int, k: int) -> bool:
        g = given_after[k]
        if g is None:
            return True
        d = g - k
        return _lower_bound(b, s, where[g]) <= d and b.colour(s) ^ b.colour(where[g]) == d % 2

    def place(k: int, s: int, first: int) -> bool:
        nonlocal found
        if k == n:
            if not puzzle.closed or b.is_move(s, first):
                found += 1
            return found < limit
        for t in moves[s]:
            if k + 1 in where:
                if t == where[k + 1] and not place(k + 1, t, first):
                    return False
            elif t not in used and fits(t, k + 1):
                used.add(t)
                going = place(k + 1, t, first)
                used.discard(t)
                if not going:
                    return False
        return True

    starts = [where[1]] if 1 in where else [s for s in b.squares() if s not in used]
    for s in starts:
        if 1 not in where:
            if not fits(s, 1):
                continue
            used.add(s)
        going = place(1, s, s)
        if 1 not in where:
            used.discard(s)
        if not going:
            break
    return found


def test_the_independent_counter_counts() -> None:
    """3x4's 16 directed open tours, counted by both, and a tour's own numbers give one
    completion."""
    assert count_plain(NumberPuzzle(kt.Board(3, 4), {}), limit=10**6) == 16
    assert completions(NumberPuzzle(kt.Board(3, 4), {}), limit=100).count == 16
    tour = kt.solve("5x5", start="a1")
    full = {int(s): k for k, s in enumerate(tour.indices, start=1)}
    assert count_plain(NumberPuzzle(tour.board, full)) == 1


@pytest.mark.parametrize("seed", range(6))
def test_the_exact_search_agrees_with_the_counter(seed: int) -> None:
    """Random givens taken from a tour (so at least one completion): both count alike, up to 3."""
    rng = random.Random(seed)
    board = kt.Board(5, 5) if seed % 2 else kt.Board(6, 5)
    tour = kt.solve(board, start=0)
    numbers = {int(s): k for k, s in enumerate(tour.indices, start=1)}
    keep = rng.sample(sorted(numbers), rng.randrange(6, 10))
    p = NumberPuzzle(board, {s: numbers[s] for s in keep}, closed=False)
    assert completions(p, limit=3).count == count_plain(p, limit=3) >= 1


# -- made puzzles -----------------------------------------------------------------------------

MADE = [
    ("5x5", {}, False, "easy", 1),
    ("5x5", {}, False, "hard", 2),
    ("6x6", {}, False, "medium", 3),
    ("6x6", {}, True, "medium", 4),
    ("5x6", {}, False, "expert", 5),
    ("6x6", {"holes": "c3,d3"}, False, "hard", 6),
    ("6x6", {"corners": 1}, True, "easy", 7),
]


@pytest.fixture(scope="module")
def made() -> list[tuple[NumberPuzzle, str]]:
    out = []
    for spec, shape, closed, level, seed in MADE:
        board = kt.parse_board(spec, **shape)
        out.append((make(board, level=level, closed=closed, seed=seed), level))
    return out


@pytest.mark.slow
def test_made_puzzles_have_exactly_one_solution(made: list[tuple[NumberPuzzle, str]]) -> None:
    for p, _ in made:
        assert count_plain(p) == 1, p.text()
        assert p.solution is not None
        tour = kt.Tour(p.board, list(p.solution), closed=p.closed)  # validated
        assert all(p.solution[k - 1] == s for s, k in p.givens.items())
        assert tour.closed == p.closed


def test_made_puzzles_are_solved_at_their_level_and_not_below(
    made: list[tuple[NumberPuzzle, str]],
) -> None:
    for p, asked in made:
        assert p.level is not None and LEVELS.index(p.level) <= LEVELS.index(asked)
        result = solve_logically(p, level=p.level)
        assert result.solved and result.grade == p.level
        assert result.needed() == p.deductions
        filled = [0] * p.size
        for s, k in result.filled.items():
            filled[k - 1] = s
        assert tuple(filled) == p.solution  # every deduction agrees with the solution
        if p.level != "easy":
            below = LEVELS[LEVELS.index(p.level) - 1]
            assert not solve_logically(p, level=below).solved
        # a puzzle thinned as far as its level goes: no given can be taken away
        for s in list(p.givens)[:5]:
            fewer = {t: k for t, k in p.givens.items() if t != s}
            assert not solve_logically(p.with_givens(fewer), level=p.level).solved


def test_the_levels_differ() -> None:
    """Each level has puzzles that need it: the maker reaches the level asked on 6x6."""
    for level in LEVELS:
        assert make("6x6", level=level, seed=0).level == level


def test_make_is_reproducible_and_refuses_what_it_cannot_make() -> None:
    a, b = make("5x5", level="medium", seed=9), make("5x5", level="medium", seed=9)
    assert a.givens == b.givens and a.solution == b.solution
    with pytest.raises(kt.NoTourError):
        make("5x5", closed=True, seed=1)
    with pytest.raises(kt.InvalidInputError, match="knight"):
        make(kt.parse_board("6x6", leaper="zebra"))
    with pytest.raises(kt.InvalidInputError, match="level"):
        make("6x6", level="fiendish")


def test_make_stops_at_its_time_limit_in_one_line() -> None:
    """Past ``time_limit`` the maker stops with OutOfTime: a search that stopped (exit 3), the
    server's time run out (HTTP 503), one line naming the level and the board."""
    from knightstour.numberpuzzles.make import OutOfTime

    with pytest.raises(OutOfTime) as caught:
        make("10x10", level="expert", seed=10, time_limit=1e-9)  # one of the slow seeds
    e = caught.value
    assert isinstance(e, kt.SearchFailedError) and (e.exit_code, e.http_status) == (3, 503)
    assert "no expert puzzle on 10x10" in str(e) and "try another seed" in str(e)
    assert "\n" not in str(e)
    with pytest.raises(kt.InvalidInputError, match="time_limit must be a positive"):
        make("5x5", level="easy", seed=3, time_limit=0)


def test_a_time_limit_with_time_to_spare_makes_the_seed_s_puzzle() -> None:
    a = make("6x6", level="hard", seed=4)
    b = make("6x6", level="hard", seed=4, time_limit=600)
    assert (a.givens, a.solution, a.level) == (b.givens, b.solution, b.level)


def test_a_proof_cut_short_by_the_time_limit_stops_the_maker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A proof the deadline cut short stops the maker (another order would make another puzzle
    than the seed's); one that had its full PROOF_SECONDS and ran out leads to another try, as
    without a limit. The exact search is replaced by one that never finishes in time."""
    from knightstour.numberpuzzles import make as maker
    from knightstour.numberpuzzles.exact import Completions

    given: list[float | None] = []

    def never_done(puzzle: NumberPuzzle, *, limit: int = 2, time_limit: float | None = None):
        given.append(time_limit)
        return Completions(0, False, (), 0, limit)

    monkeypatch.setattr(maker, "completions", never_done)
    with pytest.raises(kt.SearchFailedError, match="in 6 tries") as caught:
        make("5x5", level="easy", seed=3, time_limit=10 * maker.PROOF_SECONDS)
    assert not isinstance(caught.value, maker.OutOfTime)
    assert given == [maker.PROOF_SECONDS] * maker.ATTEMPTS
    given.clear()
    with pytest.raises(maker.OutOfTime):
        make("5x5", level="easy", seed=3, time_limit=maker.PROOF_SECONDS / 2)
    assert len(given) == 1 and given[0] is not None and given[0] <= maker.PROOF_SECONDS / 2


def test_the_exact_search_stops_when_its_client_has_gone() -> None:
    """Under :func:`~knightstour.solvers.cancellable` (the web's requests), a set event stops
    the search after its current slice, as its clock would."""
    import threading

    from knightstour.numberpuzzles import exact
    from knightstour.solvers import cancellable

    bare = NumberPuzzle(kt.Board(10, 10), {0: 1, 45: 100})  # no quick answer
    gone = threading.Event()
    gone.set()
    with cancellable(gone):
        found = completions(bare, time_limit=60)
    assert not found.complete and found.positions < 2 * exact.SLICE


@pytest.mark.slow
def test_every_5x5_tour_is_a_completion_of_the_empty_puzzle() -> None:
    """5x5's 1,728 directed open tours, counted by the exact search with nothing given."""
    assert completions(NumberPuzzle(kt.Board(5, 5), {}), limit=10**4).count == 1728


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "closed", "level"),
    [
        ("8x8", False, "expert"),
        ("8x8", True, "hard"),
        ("10x7", False, "medium"),
        ("12x12", False, "easy"),
    ],
)
def test_bigger_boards(spec: str, closed: bool, level: str) -> None:
    p = make(spec, level=level, closed=closed, seed=2)
    found = completions(p, limit=2)
    assert found.unique and found.solutions[0] == p.solution
    assert solve_logically(p, level=level).solved


# -- the text and JSON forms ------------------------------------------------------------------


@settings(max_examples=examples(30), deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.data(),
)
def test_text_and_json_read_back(w: int, h: int, data: st.DataObject) -> None:
    area = w * h
    holes = data.draw(st.sets(st.integers(0, area - 1), max_size=area - 1))
    board = kt.Board(w, h, holes=frozenset(holes))
    squares = list(board.squares())
    numbers = data.draw(st.permutations(range(1, board.size + 1)))
    keep = data.draw(st.lists(st.booleans(), min_size=len(squares), max_size=len(squares)))
    givens = {s: k for s, k, kept in zip(squares, numbers, keep, strict=True) if kept}
    closed = data.draw(st.booleans())
    p = NumberPuzzle(board, givens, closed)
    header = "closed: yes\n" if closed else ""
    for labels in (False, True):
        back = parse_puzzle(header + p.text(labels=labels))
        assert back == p and back.board == board
    assert parse_puzzle(json.dumps(p.to_dict())) == p


BAD_TEXT = [
    ("", "no squares"),
    ("1 2\n3", "line 2 has 1 square, but line 1 has 2"),
    ("1 x\n. .", "'x' is not a number, a dot (a blank) or # (a hole)"),
    ("1 .\n. 1", "1 is given twice"),
    ("1 .\n. 5", "5 on b1: the numbers of this board are 1 to 4"),
    ("closed: maybe\n1 .", "closed is yes or no"),
    ("# #\n# #", "the holes cover the whole 2x2 board"),
    ("1 . .\n. . .\na b", "the files of a 3 wide board are a b c"),
    (" 0 .\n. .", "is not a number of the puzzle"),
    ('{"width": 3, "height": 3, "givens": {"z9": 1}}', "givens"),
    ('{"width": 5, "height": 5, "givens": {"a1": 1}, "path": ["a1"]}', "not a valid tour"),
]


@pytest.mark.parametrize(("text", "said"), BAD_TEXT)
def test_bad_puzzles_are_one_line_and_exit_2(
    text: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "bad.txt"
    f.write_text(text)
    for action in ("solve", "hint"):
        assert main(["puzzle", action, str(f)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1 and said in err, err


def test_missing_and_binary_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "solve", str(tmp_path / "none.txt")]) == 2
    (tmp_path / "bin").write_bytes(b"1 2\0")
    assert main(["puzzle", "check", str(tmp_path / "bin")]) == 2
    assert main(["puzzle"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and "no such file" in err[0] and "NUL" in err[1]


# -- the commands -----------------------------------------------------------------------------


def test_make_solve_hint_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    txt, js = tmp_path / "p.txt", tmp_path / "p.json"
    assert main(["puzzle", "make", "6x6", "--level", "hard", "--seed", "5", "-o", str(txt)]) == 0
    assert (
        main(
            [
                "puzzle",
                "make",
                "6x6",
                "--level",
                "hard",
                "--seed",
                "5",
                "--format",
                "json",
                "-o",
                str(js),
            ]
        )
        == 0
    )
    p, q = parse_puzzle(txt.read_text()), parse_puzzle(js.read_text())
    assert p == q and q.solution is not None and q.level == p.level
    assert main(["validate", str(js)]) == 0  # the JSON holds the solution as a tour
    capsys.readouterr()
    assert main(["puzzle", "solve", str(txt)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("one solution (level ") and q.solution_text() in out
    assert main(["puzzle", "solve", str(txt), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "solved" and answer["path"] == json.loads(js.read_text())["path"]
    assert main(["puzzle", "hint", str(txt)]) == 0
    hint = capsys.readouterr().out.splitlines()
    step = next_deduction(p)
    assert hint[0] == getattr(step, "reason", None) and hint[2].startswith("level: ")
    solved = tmp_path / "solved.txt"
    solved.write_text(q.solution_text(labels=True))
    assert main(["puzzle", "check", str(solved), "--puzzle", str(txt)]) == 0
    assert main(["puzzle", "hint", str(solved)]) == 0
    capsys.readouterr()
    # two numbers swapped: every mistake named
    cells = q.solution_text().split("\n")
    first = cells[0].split()
    first[0], first[1] = first[1], first[0]
    cells[0] = " ".join(first)
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("\n".join(cells))
    assert main(["puzzle", "check", str(wrong), "--puzzle", str(txt)]) == 1
    out = capsys.readouterr().out
    assert "mistake" in out and "are not a knight's move apart" in out


def test_solve_says_none_and_several(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    several, none = tmp_path / "several.txt", tmp_path / "none.txt"
    several.write_text(". . .\n. . .\n. . .\n. . 1\n")
    none.write_text("1 . .\n. . .\n. . .\n")
    assert main(["puzzle", "solve", str(several)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("several solutions") and "solution 2:" in out
    grids = [g for g in out.split("solution ")[1:]]
    for g in grids:
        grid = parse_grid("\n".join(g.splitlines()[1:]))
        assert check_filled(grid, parse_puzzle(several.read_text())) == []
    assert main(["puzzle", "solve", str(none)]) == 1
    assert capsys.readouterr().out.startswith("no solution: ")
    assert main(["puzzle", "hint", str(none)]) == 1
    assert "cannot all be right" in capsys.readouterr().out


def test_hint_without_a_deduction_gives_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A puzzle with several solutions has no deduction at some point: exit 3, said."""
    f = tmp_path / "open.txt"
    f.write_text(". . .\n. . .\n. . .\n. . 1\n")
    assert main(["puzzle", "hint", str(f)]) == 3
    assert "needs a guess" in capsys.readouterr().out


def test_check_names_every_mistake() -> None:
    grid = parse_grid("1 9 1\n. 7 .\n3 5 30")
    mistakes = check_filled(grid)
    assert "a2 is blank" in mistakes and "c2 is blank" in mistakes
    assert "30 on c1 is more than 9, the last number" in mistakes
    assert "1 is written 2 times: on a3, c3" in mistakes
    assert any(m.startswith("2, 4, 6, 8 are missing") for m in mistakes)
    assert (
        check_filled(parse_grid("closed: yes\n" + kt.solve("6x6", closed=True).board_text())) == []
    )
