"""The search that found the crossed construction's stored turns (research/turns.py)."""

from __future__ import annotations

from knightstour.magic.cross import TURNS
from research.turns import find_turn, short_reach


def test_the_short_board_reaches_six_stored_turns() -> None:
    """20x12 (5 x 3 blocks) gives A the least room: a joint excursion unit and one excursion.
    Six stored turns begin where A can end, with offsets A can leave (the last five were searched
    for it), and the cheapest of those searches is reproduced."""
    reach = short_reach()
    hits = [i for i, t in enumerate(TURNS) if t[0] in reach and (t[1], t[2]) in reach[t[0]]]
    assert hits == [4, 7, 8, 9, 10, 11]
    assert find_turn(13, wanted=reach) == TURNS[11]
