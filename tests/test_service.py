"""Whole deals played on the board's own dials (mock GPIO), seen on the LEDs and in the game."""

from __future__ import annotations

import pytest
from conftest import FAST_PINS, QUIET
from waiting import WAIT, eventually

from pegboard.errors import RuleError
from pegboard.panel.actions import ArgumentError, act


def start(board, players, dealer=0, **settings):
    act(
        board.keeper, "new_game", {"players": list(players), "dealer": dealer, **settings}, sim=True
    )
    return board.keeper.state


def by_hand(board, control, *args):
    """Work one of the board's own controls on its mock pins, as a finger would, then wait
    until the door has made what it posted."""
    getattr(board.controls, control)(*args)
    assert board.keeper.settle(WAIT)


def dial(board, seat, points):
    """Turn ``seat``'s dial to ``points`` and press: one entry."""
    if points:
        by_hand(board, "sim_turn", seat, points)
    by_hand(board, "sim_press", seat)


def lit(board, track, hole):
    return board.keeper.lit().get(f"t{track}h{hole}")


def wait_lit(board, track, hole):
    eventually(lambda: lit(board, track, hole) is not None, board=board.keeper)
    return lit(board, track, hole)


def play_deal(board, play_points, counts):
    """Starter (no heels), play points per seat, then the show counts in the due order."""
    state = board.keeper.state
    dial(board, state.dealer, 0)
    for seat, points in play_points:
        dial(board, seat, points)
    by_hand(board, "sim_advance")
    for points in counts:
        due = board.keeper.state.due
        dial(board, due.seat, points)
    by_hand(board, "sim_advance")


def test_two_players_peg_a_whole_deal_on_the_dials(board):
    state = start(board, ["Ann", "Bob"], dealer=0)
    play_deal(board, [(1, 2), (0, 1)], [8, 12, 4])  # Bob's hand, Ann's hand, Ann's crib
    state = board.keeper.state
    assert state.scores == (1 + 12 + 4, 2 + 8)
    assert state.deal == 2 and state.dealer == 1
    # The LEDs: each front peg bright, each back peg dim, in the side's colour.
    front = wait_lit(board, 0, 17)
    back = wait_lit(board, 0, 13)
    assert front != back
    history = [(e.side, e.points) for e in state.history]
    assert history == [(1, 2), (0, 1), (1, 8), (0, 12), (0, 4)]


def test_the_dial_previews_then_pegs(board):
    start(board, ["Ann", "Bob"], dealer=0)
    dial(board, 0, 0)  # the starter
    by_hand(board, "sim_turn", 1, 3)
    assert board.keeper.dials[1] == 3
    by_hand(board, "sim_turn", 1, -1)
    assert board.keeper.dials[1] == 2
    by_hand(board, "sim_press", 1)
    assert board.keeper.state.scores == (0, 2)
    assert board.keeper.dials[1] == 0


def test_his_heels_from_the_dial(board):
    start(board, ["Ann", "Bob"], dealer=1)
    dial(board, 1, 2)
    assert board.keeper.state.scores == (0, 2)
    assert board.keeper.state.history[-1].kind == "heels"


def test_an_impossible_count_flashes_red_and_pegs_nothing(board):
    start(board, ["Ann", "Bob"], dealer=0)
    dial(board, 0, 0)
    by_hand(board, "sim_advance")  # no play points entered
    before = board.keeper.state
    dial(board, 1, 19)  # nineteen is no hand
    after = board.keeper.state
    assert after.scores == before.scores and after.history == before.history
    assert "19" in str(board.keeper.message)
    # the refused track flashes red for a moment
    eventually(lambda: len(red_holes(board, track=1)) > 30, board=board.keeper)
    assert not red_holes(board, track=0)


def red_holes(board, track):
    """Holes of ``track`` lit pure red (the refused flash)."""
    return [
        hole
        for hole, colour in board.keeper.lit().items()
        if hole.startswith(f"t{track}h") and colour[3:] == "0000" and colour != "#000000"
    ]


def test_a_count_out_of_order_is_refused(board):
    start(board, ["Ann", "Bob"], dealer=0)
    dial(board, 0, 0)
    by_hand(board, "sim_advance")
    dial(board, 0, 6)  # the dealer counts before the pone
    assert board.keeper.state.scores == (0, 0)
    assert "Bob" in str(board.keeper.message)


def test_a_long_press_undoes_the_players_own_last_entry(board):
    start(board, ["Ann", "Bob"], dealer=0)
    dial(board, 0, 0)
    dial(board, 1, 2)
    by_hand(board, "sim_hold", 0)  # not Ann's entry
    assert board.keeper.state.scores == (0, 2)
    by_hand(board, "sim_hold", 1)
    assert board.keeper.state.scores == (0, 0)


@pytest.mark.parametrize("board", ["three-track-121"], indirect=True)
def test_three_players_count_clockwise_crib_last(board):
    start(board, ["Ann", "Bob", "Cat"], dealer=2)
    play_deal(board, [(0, 1)], [5, 6, 7, 8])  # Ann, Bob, Cat's hand, Cat's crib
    assert board.keeper.state.scores == (1 + 5, 6, 7 + 8)


def test_four_players_share_a_score_per_team(board):
    start(board, ["Ann", "Bob", "Cat", "Dan"], dealer=3)
    play_deal(board, [(2, 2)], [4, 6, 8, 10, 2])  # Ann, Bob, Cat, Dan, Dan's crib
    state = board.keeper.state
    assert state.scores == (2 + 4 + 8, 6 + 10 + 2)
    assert wait_lit(board, 0, 14) and wait_lit(board, 1, 18)


def test_after_the_win_entries_are_refused(board):
    start(board, ["Ann", "Bob"], dealer=0, target=10)
    dial(board, 0, 0)
    dial(board, 1, 20)  # the dial stops at the most one card can score: 15
    state = board.keeper.state
    assert state.scores == (0, 10)  # the game ends at its target: 10 of the 15
    assert state.winner == 1 and state.margin == 10  # at once, in the play
    dial(board, 0, 2)
    assert board.keeper.state.scores == state.scores
    assert "over" in str(board.keeper.message)


def test_a_play_claim_beyond_one_card_is_refused(board):
    start(board, ["Ann", "Bob"], dealer=0)
    act(board.keeper, "starter", {"card": None}, sim=True)
    with pytest.raises(RuleError):
        act(board.keeper, "claim", {"seat": 1, "points": 16, "kind": "play"}, sim=True)
    assert board.keeper.state.scores == (0, 0)


def test_a_board_refuses_more_sides_than_tracks(board):
    with pytest.raises(RuleError, match="has 2 tracks"):
        start(board, ["Ann", "Bob", "Cat"])


def test_a_game_the_board_cannot_show_is_refused_naming_the_board(board):
    with pytest.raises(RuleError, match=r"this board \(two-track-121\) shows games up to 121"):
        start(board, ["Ann", "Bob"], variant="seven-card")  # to 181: no laps on this board
    assert board.keeper.state is None


@pytest.mark.parametrize("board", ["two-track-61"], indirect=True)
def test_the_english_board_plays_181_in_laps(board):
    state = start(board, ["Ann", "Bob"], variant="seven-card")
    assert state.target == 181


def test_panel_actions_check_their_arguments(board):
    start(board, ["Ann", "Bob"])
    with pytest.raises(ArgumentError, match="seat is missing"):
        act(board.keeper, "claim", {"points": 2}, sim=True)
    with pytest.raises(ArgumentError, match="claim: seat must be a whole number, not '1'"):
        act(board.keeper, "claim", {"seat": "1", "points": 2}, sim=True)
    with pytest.raises(LookupError):
        act(board.keeper, "explode", {}, sim=True)
    assert board.keeper.state.scores == (0, 0)


def test_the_advance_button_starts_a_game_with_the_house_rules(tmp_path):
    from pegboard.config import load_config
    from pegboard.service import Board

    config = load_config(
        text='[game]\nplayers = ["Ann", "Bob"]\nmuggins = true\n' + FAST_PINS + QUIET
    )
    with Board(config, tmp_path, sim=True) as board:
        by_hand(board, "sim_advance")
        state = board.keeper.state
        assert state is not None and state.players == ("Ann", "Bob") and state.settings.muggins


def test_wrong_house_rules_stop_start_up(tmp_path):
    from pegboard.config import load_config
    from pegboard.errors import ConfigError
    from pegboard.service import Board

    with pytest.raises(ConfigError, match=r"\[game\].*muggings"):
        Board(load_config(text="[game]\nmuggings = true\n"), tmp_path, sim=True)
    assert not (tmp_path / "games.db").exists()
