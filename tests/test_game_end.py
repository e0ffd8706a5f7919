"""The end of a game and the calls around it, as the seeds play them: the winner stands
at the target however the last points came, an over-count proven by a Muggins call is
taken back, lowball's Muggins is reversed, and refusals name only what exists."""

import pathlib
import tempfile

import pytest
from game_bot import open_table, refuse

from pegboard.board.layout import load_layout
from pegboard.game import Mugging, Settings, Table
from pegboard.keeper import Scorekeeper
from pegboard.keeper.aloud import announcements

ANNS = "5D 6H 4H 3C"  # with the starter J♥: fifteen two, fifteen four, a run of four: 8


@pytest.fixture
def keeper():
    with tempfile.TemporaryDirectory() as folder:
        table = Table(pathlib.Path(folder) / "games.db")
        yield Scorekeeper(table, load_layout("two-track-121"))
        table.close()


def at(keeper, ann, bob, *, dealer, **settings):
    """Ann at ``ann`` and Bob at ``bob``, with ``dealer`` dealing the deal now due (its
    starter not yet turned). Points are pegged by hand in a first deal's play."""
    first = 1 - dealer  # the deal after the first passes to ``dealer``
    keeper.new_game({"players": ["Ann", "Bob"], **settings}, dealer=first)
    keeper.turn_starter(None)
    for seat, points in ((0, ann), (1, bob)):
        while points:
            keeper.claim(seat, min(points, 15))
            points -= min(points, 15)
    keeper.advance()
    for _ in range(3):
        keeper.claim(keeper.state.due.seat, 0)
    keeper.advance()
    assert keeper.state.scores == (ann, bob) and keeper.state.dealer == dealer


def heels(keeper):
    at(keeper, 120, 91, dealer=0)
    return keeper.turn_starter("JH")


def play_by_cards(keeper):
    at(keeper, 120, 91, dealer=1)
    keeper.turn_starter("2C")
    keeper.lay("10H", "Ann")
    keeper.lay("4S", "Bob")
    return keeper.lay("AD", "Ann")  # fifteen for two, from 120


def play_by_hand(keeper):
    at(keeper, 120, 91, dealer=1)
    keeper.turn_starter(None)
    return keeper.claim("Ann", 5)


def dial(keeper):
    at(keeper, 120, 91, dealer=1)
    keeper.turn_starter(None)
    keeper.turn_dial(0, 6)
    return keeper.peg_dial(0)


def under_claim(keeper):
    at(keeper, 120, 91, dealer=1)
    keeper.turn_starter("JH")  # heels for Bob: 93
    keeper.advance()
    return keeper.claim("Ann", 6, cards=ANNS)  # short of her 8, and past 121 either way


def muggins_call_on_bob(keeper):
    at(keeper, 120, 91, dealer=0, muggins=True)
    keeper.turn_starter("5S")
    keeper.advance()
    keeper.claim("Bob", 0, cards="5C 6H 4H 3C")  # with 5♠ his hand holds 14
    return keeper.muggins("Ann", 8)  # the call: eight missed, from 120


@pytest.mark.parametrize(
    ("way", "ended"),
    [
        (heels, "two for his heels: the game ended at 1 of 2"),
        (play_by_cards, "A♦: fifteen for two: the game ended at 1 of 2"),
        (play_by_hand, "the play: the game ended at 1 of 5"),
        (dial, "the play: the game ended at 1 of 6"),
        (under_claim, "Ann's hand: the game ended at 1 of 6"),
        (muggins_call_on_bob, "muggins on Bob's hand: the game ended at 1 of 8"),
    ],
)
def test_the_winner_stands_at_the_target_however_the_last_points_came(keeper, way, ended):
    change = way(keeper)
    state = keeper.state
    bob = state.scores[1]
    assert state.scores == (121, bob) and state.winner == 0 and state.pegs[0].front == 121
    assert state.margin == 121 - bob and state.skunk == 0  # no skunk at 91 or more
    assert state.history[-1].why == ended and state.history[-1].score == 121
    won = [a.say() for a in announcements(change) if a.event == "win"]
    words = {91: "thirty", 93: "twenty-eight"}
    assert won == [f"Ann wins by {words[bob]}."]
    assert state.results[-1].scores == (121, bob) and state.results[-1].margin == 121 - bob


def test_a_skunk_is_counted_from_the_target(keeper):
    at(keeper, 120, 60, dealer=0)
    change = keeper.turn_starter("JD")
    assert keeper.state.scores == (121, 60) and keeper.state.margin == 61
    assert keeper.state.skunk == 2  # 60: below the double skunk line at 61
    won = [a.say() for a in announcements(change) if a.event == "win"]
    assert won == ["Ann wins by sixty-one, with a double skunk."]


# --- an over-count proven by a Muggins call ----------------------------------------------


@pytest.fixture
def table():
    with open_table() as table:
        yield table


def kings_show(table, **settings):
    """Starter K♣, the play ended: Bob's hand is due."""
    table.new_game(Settings(players=("Ann", "Bob"), muggins=True, **settings), dealer="Ann")
    table.turn_starter("KC")
    return table.advance()


BOBS = "2H 3S 9D QC"  # with K♣: fifteen two (2-3-Q), fifteen four (2-3-K): four


@pytest.mark.parametrize(("rule", "scores"), [("correct", (0, 4)), ("penalise", (8, 4))])
def test_a_call_whose_cards_show_an_over_count_takes_it_back_and_costs_the_caller_nothing(
    table, rule, scores
):
    kings_show(table, over_count=rule)
    table.claim("Bob", 12)  # no cards: nobody can tell, until Ann shows them
    state = table.muggins("Ann", 2, cards=BOBS)
    assert state.scores == scores
    claim = state.claims[-1]
    assert (claim.verdict, claim.actual, claim.pegged) == ("over", 4, 4)
    assert claim.muggins == Mugging(seat=0, called=2, side=1, points=0, right=True)
    assert not any(e.kind == "muggins" and e.points for e in state.history)
    assert state.history[0].why == "Bob's hand (claimed 12, 8 taken back)"
    assert state.window is None and state.disputable is None
    refuse(table, "muggins", "Ann", 1, match="nothing to mug")


def test_a_dispute_whose_cards_show_an_over_count_takes_it_back(table):
    kings_show(table)
    table.claim("Bob", 12)
    table.muggins("Ann", 2)  # without the cards: it stands, Ann 2
    state = table.dispute_muggins("Bob", BOBS)  # Bob's own cards: he counted 8 too many
    assert state.scores == (0, 4) and state.claims[-1].muggins.disputed


def test_a_muggins_call_on_an_over_count_given_with_its_cards_takes_it_back(table):
    kings_show(table)
    state = table.claim("Bob", 12, cards=BOBS)  # Muggins on: pegged as claimed, and kept
    assert state.scores == (0, 12) and state.told.claims[-1].verdict == "kept"
    state = table.muggins("Ann", 2)  # any call: the cards show the count over
    assert state.scores == (0, 4)  # taken back; Ann, proved right, pays nothing
    assert state.claims[-1].muggins == Mugging(seat=0, called=2, side=1, points=0, right=True)


# --- lowball: every score reversed ---------------------------------------------------------


def lowball_show(table, **settings):
    table.new_game(
        Settings(players=("Ann", "Bob"), variant="lowball", muggins=True, **settings),
        dealer="Ann",
    )
    table.turn_starter("JH")  # heels: Ann 2
    return table.advance()


BOB_EIGHT = "5D 6H 4H 3C"  # with J♥: eight


def test_lowball_missed_points_are_pegged_onto_who_missed_them(table):
    lowball_show(table)
    table.claim("Bob", 4, cards=BOB_EIGHT)  # Bob hides 4 of his 8: points hurt in lowball
    state = table.muggins("Ann", 6)
    assert state.scores == (2, 8)  # Bob pegs the 4 he missed; Ann pegs nothing
    assert state.claims[-1].muggins == Mugging(seat=0, called=6, side=1, points=4, right=True)


def test_lowball_a_false_call_costs_the_caller(table):
    lowball_show(table)
    table.claim("Bob", 8, cards=BOB_EIGHT)
    state = table.muggins("Ann", 2)
    assert state.scores == (4, 8) and not state.claims[-1].muggins.right


def test_lowball_an_over_count_penalty_is_pegged_by_who_over_counted(table):
    lowball_show(table, over_count="penalise")
    table.claim("Bob", 10, cards=BOB_EIGHT)
    state = table.challenge("Ann")
    assert state.scores == (2, 10)  # his 8, and the 2 he invented as the penalty
    assert [(e.kind, e.side, e.points) for e in state.history[-2:]] == [
        ("hand", 1, 8),
        ("penalty", 1, 2),
    ]


# --- refusals name only what exists --------------------------------------------------------


def test_a_crib_claimed_for_a_player_who_has_none(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    table.turn_starter("5D")
    table.advance()
    refuse(table, "claim", "Bob", 4, kind="crib", match="^Bob has no crib: the crib is Ann's$")
    table.new_game(Settings(players=("Ann", "Bob"), variant="shotgun"), dealer="Ann")
    table.turn_starter("5D")
    table.advance()
    refuse(table, "claim", "Ann", 4, kind="crib", match="there is no crib in shotgun")


# --- the cut for the third game, on the board's dials --------------------------------------


def one_game_each(keeper):
    keeper.new_game({"players": ["Ann", "Bob"], "match_games": 3, "target": 31}, dealer=0)
    for winner in (1, 0):
        keeper.turn_starter(None)
        keeper.claim(winner, 15)
        keeper.claim(winner, 15)
        keeper.claim(winner, 1)
        if winner:
            keeper.press_advance()  # the second game: its first deal passes on
    assert keeper.state.cut_customary and keeper.state.match.points == (1, 1)


def test_the_third_game_is_cut_for_on_the_dials(keeper):
    one_game_each(keeper)
    with pytest.raises(ValueError, match="the third game is cut for"):
        keeper.next_game()
    keeper.turn_dial(0, 9)  # Ann cut a nine
    with pytest.raises(ValueError, match="dial the card you cut"):
        keeper.peg_dial(0)  # a press is no cut: the dial keeps its nine
    assert keeper.dials[0] == 9
    with pytest.raises(ValueError, match="ace 1 to king 13, not 0"):
        keeper.press_advance()  # Bob has dialled nothing
    keeper.turn_dial(1, 9)
    with pytest.raises(ValueError, match="Ann, Bob cut the same rank: cut again"):
        keeper.press_advance()
    keeper.turn_dial(1, -6)  # Bob's three
    change = keeper.press_advance()
    assert (change.state.game, change.state.dealer) == (3, 1) and keeper.dials == (0, 0, 0, 0)
    assert str(change.said) == "New game: Bob cut the lowest card and deals first."
