"""Games played round the English board (60 holes a track) on the simulated board: the LEDs
show each score in its hole and its lap, and the game's own skunk lines."""

from __future__ import annotations

import pytest
from waiting import eventually

ENGLISH = pytest.mark.parametrize("board", ["two-track-61"], indirect=True)


def deal(keeper, points: dict[int, int]) -> None:
    """A deal with no play points: the starter, then each count due claimed as ``points``."""
    keeper.turn_starter(None)
    keeper.advance()
    while keeper.state.due is not None and keeper.state.winner is None:
        due = keeper.state.due
        keeper.claim(due.seat, points[due.seat])
    if keeper.state.winner is None:
        keeper.advance()


def lit_once(keeper, want: dict[str, bool]) -> bool:
    lit = keeper.lit()
    return all((hole in lit) == on for hole, on in want.items())


@ENGLISH
def test_a_game_to_121_goes_round_twice_and_the_lap_mark_lights(board):
    keeper = board.keeper
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    while keeper.state.scores[1] <= 60:
        deal(keeper, {0: 4, 1: 24})
    ann, bob = keeper.state.scores
    assert bob > 60 and ann <= 60
    # Bob's front peg on his second lap: hole (score - 60), and his lap-2 mark lit.
    want = {f"t1h{bob - 60}": True, "t1l2": True, "t0l2": False, f"t0h{ann}": True}
    eventually(lambda: lit_once(keeper, want), board=keeper)
    assert "t1l3" not in keeper.lit()
    # The game's skunk lines (91 and 61) lie on holes 31 and 1 of every track.
    lit = keeper.lit()
    assert lit["t0h31"] == lit["t1h31"] == lit["t0h1"]
    while keeper.state.winner is None:
        deal(keeper, {0: 4, 1: 24})
    assert keeper.state.scores[1] >= 121
    eventually(lambda: lit_once(keeper, {"t1h61": True, "t1l2": True}), board=keeper)


@ENGLISH
def test_the_five_card_game_goes_round_once(board):
    keeper = board.keeper
    keeper.new_game({"players": ["Ann", "Bob"], "variant": "five-card"}, dealer=0)
    while keeper.state.winner is None:
        deal(keeper, {0: 2, 1: 20})
    assert keeper.state.scores[1] >= 61
    eventually(lambda: lit_once(keeper, {"t1h61": True, "t1l2": False}), board=keeper)
