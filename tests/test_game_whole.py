"""Whole games and matches for every table and variant; skunks, lowball; undo and redo."""

import random
from itertools import accumulate

import pytest
from game_bot import TABLES, Bot, open_table, peg_play, refuse, stored_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pegboard.game import Phase, Settings, Table, replay
from pegboard.game.events import NextGame
from pegboard.rules.cards import Card

NAMES = ("Ann", "Bob", "Cat", "Dan")


@pytest.fixture
def table():
    with open_table() as table:
        yield table


def check_whole_game(state):
    """What any finished game must show, whoever played it."""
    rules = state.settings.variant_rules
    reached = [side for side, score in enumerate(state.scores) if score >= state.target]
    assert len(reached) == 1, "the game ends the moment one side reaches the target"
    if rules.lowball:
        others = [s for s in range(state.sides) if s not in reached]
        assert state.winner == min(others, key=lambda s: state.scores[s])
    else:
        assert state.winner == reached[0]
    for side in range(state.sides):
        entries = [e for e in state.history if e.side == side]
        assert sum(e.points for e in entries) == state.scores[side]
        assert [e.score for e in entries] == list(accumulate(e.points for e in entries))
    for claim in state.claims:  # the show runs in order, deal by deal
        dealer = (state.first_dealer + claim.deal - 1) % len(state.players)
        if claim.kind != "play":
            order = replay_order(state, dealer)
            assert (claim.seat, claim.kind) in order
    shows = [(c.deal, c.seat, c.kind) for c in state.claims if c.kind != "play"]
    for deal in {d for d, _, _ in shows}:
        dealer = (state.first_dealer + deal - 1) % len(state.players)
        done = [(seat, kind) for d, seat, kind in shows if d == deal]
        assert done == replay_order(state, dealer)[: len(done)]


def replay_order(state, dealer):
    n = len(state.players)
    order = [((dealer + k) % n, "hand") for k in range(1, n + 1)]
    return order + ([(dealer, "crib")] if state.settings.variant_rules.crib else [])


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_whole_games_for_every_table_and_variant(table, players, variant):
    rules = Settings(players=NAMES[:players], variant=variant, muggins=True)
    bot = Bot(table, random.Random(f"{players}{variant}"), settings=rules)
    for _ in range(2):
        state = bot.play_game()
        check_whole_game(state)
        assert state.phase is Phase.OVER and state.due is None
    first, second = table.games()
    assert first.versions + second.versions == len(stored_rows(table.path))
    with Table(table.path) as again:  # the file gives back the same games
        assert again.game_id == second.id and again.state == state
        assert again.state_of(first.id).scores == table.state_of(first.id).scores


def test_five_card_game_three_for_last_to_61(table):
    state = table.new_game(Settings(variant="five-card", players=("Ann", "Bob")), dealer="Ann")
    assert state.target == 61 and state.scores == (0, 3)
    assert state.history[0].why == "three for last"
    table.turn_starter("5D")
    state = table.advance()
    refuse(table, "claim", "Bob", 17, match="no hand of 3 cards can score 17")
    table.claim("Bob", 20, cards="5H 5C 5S")  # three fives and the fourth as starter
    table.claim("Ann", 0)
    table.claim("Ann", 2)
    state = table.advance()
    assert state.scores == (2, 23) and state.dealer == 1  # no three for last again
    peg_play(table, 0, 59)
    assert table.state.winner == 0 and table.state.skunk == 1  # Bob ended at 30 or less


def test_seven_card_game_is_longer(table):
    state = table.new_game(Settings(variant="seven-card", players=("Ann", "Bob")))
    assert state.target == 181 and state.hand_size == 5
    peg_play(table, 1, 150)
    assert not table.state.over
    assert peg_play(table, 1, 31).winner == 1


@pytest.mark.parametrize(
    ("skunk", "loser", "level"),
    [
        ("double", 91, 0),
        ("double", 90, 1),
        ("double", 61, 1),
        ("double", 60, 2),
        ("double", 30, 2),
        ("triple", 30, 3),
        ("triple", 31, 2),
        ("single", 10, 1),
        ("none", 10, 0),
    ],
)
def test_skunk_lines(table, skunk, loser, level):
    table.new_game(Settings(players=("Ann", "Bob"), skunk=skunk))
    peg_play(table, 1, loser)
    state = peg_play(table, 0, 121)
    assert (state.winner, state.skunk) == (0, level)
    assert state.match.points == (2**level, 0)


def test_lowball_first_to_the_target_loses(table):
    table.new_game(Settings(players=("Ann", "Bob", "Cat"), variant="lowball"))
    peg_play(table, 0, 40)
    peg_play(table, 1, 20)
    peg_play(table, 2, 30)
    state = peg_play(table, 0, 81)
    assert state.scores == (121, 20, 30) and state.winner == 1 and state.skunk == 0


def win(table, winner, loser_score):
    peg_play(table, 1 - winner, loser_score)
    return peg_play(table, winner, 121)


def test_match_with_home_scoring_skunks_count_as_extra_games(table):
    table.new_game(Settings(players=("Ann", "Bob"), match_games=3), dealer="Ann")
    state = win(table, 1, 100)
    assert state.match.points == (0, 1) and state.match.winner is None
    state = table.next_game()
    assert (state.game, state.first_dealer, state.dealer, state.scores) == (2, 1, 1, (0, 0))
    state = win(table, 0, 50)  # a double skunk counts four games
    assert state.match.points == (4, 1) and state.match.winner == 0
    refuse(table, "next_game", match="the match is over: Ann won it")
    assert [r.winner for r in state.results] == [1, 0]


def test_match_with_acc_game_points(table):
    table.new_game(Settings(players=("Ann", "Bob"), match_games=3, match_scoring="acc"))
    assert win(table, 0, 80).match.points == (3, 0)  # a skunk: three game points
    table.next_game()
    assert win(table, 1, 100).match.points == (3, 2)
    refuse(table, "claim", 0, 2, match="the game is over")
    table.next_game(cuts="2H 9C")  # the third game is cut for
    state = win(table, 0, 95)
    assert state.match == type(state.match)((5, 2), 4, 0)


def test_the_first_deal_passes_on_from_game_to_game(table):
    """A chosen (or cut) dealer is the first game's only: game 2 of a match goes to the
    other player, and game 1's first dealer is refused with the reason."""
    table.new_game(Settings(players=("Ann", "Bob"), match_games=5), dealer="Ann")
    win(table, 1, 100)
    passes = "the first deal passes on from game to game: Bob deals first in game 2, not Ann"
    refuse(table, "next_game", dealer="Ann", match=passes)
    refuse(table, "next_game", dealer=0, match=passes)
    cut = "game 2 is not cut for: the first deal passes on to Bob"
    refuse(table, "next_game", cuts="KH 3C", match=cut)  # Bob's 3 would deal: still refused
    refuse(table, "next_game", ranks=[13, 3], match=cut)
    assert table.next_game(dealer="Bob").first_dealer == 1  # the one it passes to: taken
    win(table, 0, 100)
    assert table.next_game().first_dealer == 0  # game 3 of 5: back to Ann
    table.undo()
    three = "the first deal passes on from game to game: Ann deals first in game 3, not Bob"
    refuse(table, "next_game", dealer="Bob", match=three)


def test_with_three_players_the_first_deal_passes_to_the_left(table):
    table.new_game(Settings(players=("Ann", "Bob", "Cat"), match_games=3), dealer="Bob")
    win(table, 0, 100)
    refuse(table, "next_game", dealer="Bob", match="Cat deals first in game 2, not Bob")
    assert table.next_game().first_dealer == 2


def test_the_third_game_of_a_match_of_three_is_cut_for(table):
    table.new_game(Settings(players=("Ann", "Bob"), match_games=3), dealer="Ann")
    state = win(table, 1, 100)
    assert not state.cut_customary  # the second game: the first deal passes on
    assert table.next_game().first_dealer == 1
    state = win(table, 0, 100)
    assert state.match.points == (1, 1) and state.cut_customary
    assert state.as_dict()["cut_customary"] is True
    cut = "the third game is cut for: each player cuts, the lowest deals"
    refuse(table, "next_game", match=cut)  # passed on, as game 1 was: refused
    refuse(table, "next_game", dealer="Bob", match=cut)  # or chosen
    refuse(table, "next_game", cuts="5H 5C", match="Ann, Bob cut the same rank: cut again")
    refuse(table, "next_game", cuts="5H 5H", match="given twice")
    refuse(table, "next_game", cuts="5H", match="each of the 2 players cuts one card, not 1")
    refuse(table, "next_game", dealer="Ann", cuts="5H 6C", match="not both")
    refuse(table, "next_game", ranks=[7, 7], match="Ann, Bob cut the same rank: cut again")
    refuse(table, "next_game", ranks=[0, 7], match="ace 1 to king 13, not 0")
    refuse(table, "next_game", ranks=[3], match="each of the 2 players cuts one card, not 1")
    state = table.next_game(cuts="9H 4C")  # Bob cuts low and deals the third game
    assert (state.game, state.first_dealer, state.dealer) == (3, 1, 1)
    assert not state.cut_customary
    assert table.events()[-1] == NextGame(1, (Card.parse("9H"), Card.parse("4C")))
    table.undo()
    state = table.next_game(ranks=[2, 12])  # dialled on the board: Ann's 2 is lowest
    assert state.first_dealer == 0 and table.events()[-1] == NextGame(0, ranks=(2, 12))


def test_next_game_needs_a_finished_game(table):
    table.new_game(Settings(players=("Ann", "Bob"), match_games=3))
    refuse(table, "next_game", match="the game is not over yet")


def test_first_dealer_by_cut(table):
    state = table.new_game(Settings(players=("Ann", "Bob", "Cat")), cuts="9H 3C KD")
    assert state.dealer == 1 and state.pone == 2
    with pytest.raises(Exception, match="Ann, Cat cut the same rank: cut again"):
        table.new_game(Settings(players=("Ann", "Bob", "Cat")), cuts="3H 9C 3D")
    with pytest.raises(Exception, match="each of the 3 players cuts one card, not 2"):
        table.new_game(Settings(players=("Ann", "Bob", "Cat")), cuts="3H 9C")
    with pytest.raises(Exception, match="choose the dealer or cut for it, not both"):
        table.new_game(Settings(players=("Ann", "Bob", "Cat")), dealer=0, cuts="3H 9C 4D")
    assert table.state == state  # refused games leave the current one alone


# --- undo and redo ---------------------------------------------------------------------------


def test_undo_and_redo_any_number_of_steps(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    refuse(table, "undo", match="nothing to undo")
    states = [table.state, table.turn_starter("JD")]
    for entry in "10H 5S 5C 6H".split():
        states.append(table.lay(entry))
    for back in reversed(states[:-1]):
        assert table.undo() == back
    refuse(table, "undo", match="nothing to undo")
    for forward in states[1:]:
        assert table.redo() == forward
    refuse(table, "redo", match="nothing to redo")
    assert table.version == 1 + 5 + 5 + 5  # undo and redo are events too
    table.undo()
    table.lay("6D")  # a new entry forgets what could be redone
    assert not table.state.can_redo


def test_undo_after_the_win(table):
    table.new_game(Settings(players=("Ann", "Bob")))
    peg_play(table, 0, 120)
    assert table.claim(1, 3).scores == (120, 3)
    assert table.claim(0, 1).over
    state = table.undo()
    assert not state.over and state.phase is Phase.PLAY and state.results == ()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 150), back=st.integers(1, 40))
def test_replay_gives_the_same_state_and_undo_redo_restores_it(seed, steps, back):
    with open_table() as table:
        bot = Bot(table, random.Random(seed), undo=0.1)
        for _ in range(steps):
            bot.step()
        state = table.state
        assert replay(table.events()) == state
        with Table(table.path) as again:
            assert again.state == state and again.version == state.version
        undone = 0
        while undone < back and table.state.can_undo:
            table.undo()
            undone += 1
        for _ in range(undone):
            table.redo()
        assert table.state == state
