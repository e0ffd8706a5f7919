"""The history misses nothing: a nineteen, an over-count taken back whole and a Hoyle
penalty each leave a line, with their cards; each line is said in every language."""

import pytest
from game_bot import open_table
from test_i18n_calls import english_left

from pegboard.game import Settings
from pegboard.i18n import LANGUAGES
from pegboard.statistics import tally

NOTHING = "QH KC AS 9D"  # with the starter 7C: nineteen
HAND = "5H 5C 10D 10S"  # with the starter 5D: 22


@pytest.fixture
def table():
    with open_table() as table:
        yield table


def to_show(table, starter="7C", **settings):
    """Ann deals; the play pegged by hand (nothing); Bob's hand is due."""
    table.new_game(Settings(players=("Ann", "Bob"), **settings), dealer="Ann")
    table.turn_starter(starter)
    return table.advance()


def cards(entry):
    return " ".join(map(str, entry.cards))


def test_a_nineteen_is_a_line_of_no_points_with_its_cards(table):
    to_show(table)
    state = table.claim("Bob", 0, cards=NOTHING)
    line = state.history[-1]
    assert (line.side, line.kind, line.points, line.score, line.why) == (
        1,
        "hand",
        0,
        0,
        "Bob's hand",
    )
    assert cards(line) == "Q♥ K♣ A♠ 9♦"
    assert state.scores == (0, 0) and state.backs == (0, 0)  # the pegs did not move
    state = table.claim("Ann", 0)  # unchecked: a line without cards
    assert [(e.why, e.points, e.cards) for e in state.history[-1:]] == [("Ann's hand", 0, ())]
    assert table.undo().history[-1].why == "Bob's hand"  # a line like any other


def test_an_over_count_taken_back_whole_leaves_a_trace(table):
    to_show(table)
    state = table.claim("Bob", 2, cards=NOTHING)
    line = state.history[-1]
    assert (line.points, line.why, cards(line)) == (
        0,
        "Bob's hand (claimed 2, 2 taken back)",
        "Q♥ K♣ A♠ 9♦",
    )
    assert state.scores == (0, 0) and state.claims[-1].verdict == "over"


def test_a_hoyle_penalty_line_carries_the_cards_of_the_count(table):
    to_show(table, starter="5D", over_count="penalise")
    state = table.claim("Bob", 24, cards=HAND)
    count, penalty = state.history[-2:]
    assert (count.side, count.points, count.why) == (1, 22, "Bob's hand (claimed 24, 2 taken back)")
    assert (penalty.side, penalty.kind, penalty.points, penalty.why) == (
        0,
        "penalty",
        2,
        "over-count of Bob's hand",
    )
    assert cards(penalty) == cards(count) == "5♥ 5♣ 10♦ 10♠"
    # fully taken back: the opponent pegs the whole claim, with the cards
    to_show(table, over_count="penalise")
    state = table.claim("Bob", 4, cards=NOTHING)
    assert [(e.side, e.points, cards(e)) for e in state.history[-2:]] == [
        (1, 0, "Q♥ K♣ A♠ 9♦"),
        (0, 4, "Q♥ K♣ A♠ 9♦"),
    ]


def test_statistics_count_a_nineteen_as_a_hand_of_no_points(table):
    to_show(table)
    table.claim("Bob", 0, cards=NOTHING)
    state = table.claim("Ann", 4)
    bob, ann = tally(state)["Bob"], tally(state)["Ann"]
    assert (bob.hands, bob.hand_points, bob.over) == (1, 0, 0)
    assert (ann.hands, ann.hand_points) == (1, 4)
    assert len(state.history) == 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_line_is_said_in_each_language(table, lang):
    table.new_game(
        Settings(players=("Ann", "Bob"), muggins=True, over_count="penalise"), dealer="Ann"
    )
    table.turn_starter("JD")  # his heels
    for card, seat in (("10H", "Bob"), ("5C", "Ann"), ("6S", "Bob"), ("9C", "Ann")):
        table.lay(card, seat)
    table.go("Bob")  # Ann's nine made 30: one for the go when she cannot go on either
    table.go("Ann")
    table.advance()
    table.claim("Bob", 6, cards="10H 6S 2C 3D")  # four: two too many, pegged as claimed
    table.challenge("Ann")  # the cards show it: taken back, and the two to Ann
    table.claim("Ann", 0)
    table.muggins("Bob", 2)  # Ann's hand: unchecked, so the two stand
    said = [entry.said.say(lang) for entry in table.state.history]
    assert len(said) == 7 and all(said) and not any("{" in line for line in said)
    if lang == "en":
        assert said == [
            "two for his heels",
            "5♣: fifteen for two",  # a card that scores nothing is no line
            "one for the go",
            "Bob's hand (claimed 6, 2 taken back)",
            "over-count of Bob's hand",
            "Ann's hand",
            "muggins on Ann's hand",
        ]
    else:
        assert not any(english_left(line, lang) for line in said), said
