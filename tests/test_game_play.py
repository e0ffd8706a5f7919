"""The play, entered card by card or pegged by hand: what the board pegs and what it refuses."""

import pytest
from game_bot import open_table, peg_play, refuse

from pegboard.game import Count, Phase, Settings
from pegboard.rules.cards import Card


@pytest.fixture
def table():
    with open_table() as table:
        yield table


def deal(table, players=("Ann", "Bob"), starter="5D", **settings):
    table.new_game(Settings(players=players, **settings), dealer="Ann")
    return table.turn_starter(starter)


def lay_all(table, entries):
    """Lay cards ("go" for a go); return the state after each entry."""
    return [table.go() if entry == "go" else table.lay(entry) for entry in entries.split()]


def test_two_players_pone_leads_and_the_game_scores_every_card(table):
    deal(table)
    assert table.state.due == Count(1, "play")  # Bob, the pone, leads
    states = lay_all(table, "10H 5S 5C 6H go 4D go KC KS AS")
    assert [s.scores for s in states] == [
        (0, 0),
        (2, 0),
        (2, 2),
        (2, 2),  # fifteen two for Ann; a pair for Bob
        (2, 2),
        (5, 2),
        (6, 2),  # Bob says go; Ann runs 4-5-6 to 30, then pegs one for the go
        (6, 2),
        (8, 2),
        (8, 3),  # the count starts again: Bob leads; a pair; the last card
    ]
    assert [e.why for e in states[-1].history] == [
        "5♠: fifteen for two",
        "5♣: twenty for two",
        "4♦: thirty for three",
        "one for the go",
        "K♠: twenty for two",
        "A♠: twenty-one, and one for the last card",
    ]
    assert states[6].play.turn == 1 and states[6].play.count == 0
    final = states[-1]
    assert final.phase is Phase.SHOW and final.due == Count(1, "hand")
    assert final.hand_of(1) == tuple(Card.parse(c) for c in "10H 5C KC AS".split())


def test_thirty_one_pegs_two_and_starts_a_new_count(table):
    deal(table)
    states = lay_all(table, "KH QC JD AS")
    assert states[2].scores == (0, 3)  # K Q J: a run of three for Bob
    assert states[-1].scores == (2, 3) and states[-1].history[-1].why == "A♠: thirty-one for two"
    assert states[-1].play.count == 0 and states[-1].play.turn == 1  # left of Ann leads


def test_the_last_card_at_thirty_one_scores_two_not_three(table):
    deal(table, starter="2C")
    states = lay_all(table, "KH QC 9D go 2H 10S AH KD QD")
    assert states[3].play.turn == 1  # Ann cannot go on: Bob lays again
    assert states[4].scores == (0, 2) and states[4].play.turn == 0
    assert states[-1].scores == (2, 2)
    assert states[-1].history[-1].why == "Q♦: thirty-one for two"
    assert states[-1].phase is Phase.SHOW


def test_three_players_go_passes_clockwise_and_out_of_cards_is_passed_over(table):
    deal(table, players=("Ann", "Bob", "Cat"), starter="2D")
    states = lay_all(table, "10H 10C 9S go go 2H")
    # Bob leads, Cat pairs, Ann to 29; Bob and Cat say go; Ann lays on to 31.
    assert states[2].play.turn == 1
    assert [s.play.turn for s in states[3:5]] == [2, 0]
    assert states[-1].scores == (2, 0, 2) and states[-1].play.turn == 1  # left of Ann leads
    states = lay_all(table, "KC QC 5S go go 6S")
    assert states[-1].scores == (4, 0, 2)  # Ann again, and now she is out of cards
    assert table.state.hand_of(0) is not None
    states = lay_all(table, "AH AC")
    assert states[-1].play.turn == 1  # after Cat, Ann has no cards: Bob lays
    states = lay_all(table, "AS 2C")
    assert states[0].scores == (4, 6, 4)  # a pair royal for Bob
    assert states[-1].scores == (4, 6, 5) and states[-1].phase is Phase.SHOW
    assert states[-1].history[-1].why == "2♣: five, and one for the last card"


def test_go_for_one_with_three_players(table):
    deal(table, players=("Ann", "Bob", "Cat"), starter="2D")
    state = lay_all(table, "KC QC JS go go go")[-1]
    assert state.scores == (4, 0, 0)  # a run of three, then one for the go
    assert state.history[-1].why == "one for the go" and state.play.turn == 1


def test_four_players_partners_share_one_score(table):
    deal(table, players=("Ann", "Bob", "Cat", "Dan"), starter="KD")
    states = lay_all(table, "7H 8C 8S 7D")  # Bob, Cat, Dan, Ann
    assert [s.scores for s in states] == [(0, 0), (2, 0), (2, 2), (2, 2)]
    assert states[-1].history[-1].side == 1 and states[-1].history[-1].seat == 3
    assert table.state.settings.side_names == ("Ann & Cat", "Bob & Dan")


def test_play_pegged_by_hand(table):
    deal(table)
    state = table.claim("Bob", 2)
    state = table.claim("Ann", 3)
    assert state.scores == (3, 2) and state.due == Count(None, "play")
    assert [c.verdict for c in state.claims] == ["unchecked", "unchecked"]
    state = table.advance()
    assert state.phase is Phase.SHOW and state.due == Count(1, "hand")


def test_refusals_in_the_play(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    assert "turn the starter first" in refuse(table, "lay", "5H", match="starter first")
    table.turn_starter("5D")
    refuse(table, "lay", "5H", seat="Ann", match="it is Bob's turn to lay")
    refuse(table, "lay", "5D", match="5♦ is the starter")
    refuse(table, "lay", "5X", match="'X' is not a suit")
    refuse(table, "go", match="Bob leads: any card can be laid")
    table.lay("KH")
    refuse(table, "lay", "KH", match="K♥ was laid already")
    table.lay("QH")
    table.lay("QS")
    refuse(table, "lay", "2C", match="2♣ would make the count 32: it may not pass 31")
    refuse(table, "claim", "Ann", 2, match="scored from the cards laid")
    refuse(table, "turn_starter", "6D", match="the starter is turned already")
    refuse(table, "claim", "Ann", 8, kind="hand", match="the play is not over")


def test_refusals_of_play_points(table):
    deal(table)
    refuse(table, "claim", "Bob", 16, match="one card scores 1 to 15 in the play, not 16")
    refuse(table, "claim", "Bob", 0, match="one card scores 1 to 15")
    refuse(table, "claim", "Bob", -2, match="points must be a whole number of at least 0")
    refuse(table, "claim", "Bob", "two", match="points must be a whole number")
    refuse(table, "claim", "Eve", 2, match="no player 'Eve' at this table")
    refuse(table, "claim", 5, 2, match="no player 5")
    refuse(table, "claim", "Bob", 2, kind="nobs", match="a count is for play, hand, crib")
    refuse(table, "claim", "Bob", 2, cards="5H 6H", match="cards of the play are laid one by one")
    table.claim("Bob", 15)
    refuse(table, "lay", "5H", match="pegged by hand")
    refuse(table, "go", match="pegged by hand")


def test_starter_not_entered_with_heels(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Bob")
    refuse(table, "turn_starter", "JH", heels=True, match="give the card or heels, not both")
    state = table.turn_starter(None, heels=True)
    assert state.scores == (0, 2) and state.history[0].kind == "heels"
    assert state.starter is None


def test_heels_can_win_the_game_and_then_only_undo_is_possible(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    peg_play(table, 1, 119)
    table.advance()
    for _ in range(3):  # Bob's hand, Ann's hand, Ann's crib
        table.claim(table.state.due.seat, 0)
    state = table.advance()
    assert state.dealer == 1 and state.phase is Phase.DISCARD
    state = table.turn_starter("JH")
    assert state.scores == (0, 121) and state.winner == 1 and state.phase is Phase.OVER
    assert state.skunk == 2  # Ann never reached 61
    message = refuse(table, "claim", "Ann", 2, match="the game is over")
    assert message == "the game is over: Bob won (121-0); only undo is possible"
    refuse(table, "advance", match="the game is over")
    assert table.undo().scores == (0, 119)


def test_first_go_ends_the_play_at_the_go(table):
    deal(table, variant="five-card", first_go_ends=True)  # Bob pegs three for last
    states = lay_all(table, "KH QC 9D go go")
    assert states[-2].phase is Phase.PLAY and states[-2].play.turn == 1  # Ann's go: Bob's turn
    final = states[-1]
    assert final.scores == (0, 4) and final.history[-1].why == "one for the go"
    assert final.phase is Phase.SHOW and final.due == Count(1, "hand")  # no second count


@pytest.mark.parametrize(("first_go_ends", "phase"), [(True, Phase.SHOW), (False, Phase.PLAY)])
def test_first_go_ends_the_play_at_thirty_one(table, first_go_ends, phase):
    deal(table, variant="five-card", first_go_ends=first_go_ends)
    state = lay_all(table, "KH QC JD AS")[-1]
    assert state.scores == (2, 6) and state.history[-1].why == "A♠: thirty-one for two"
    assert state.phase is phase
    if not first_go_ends:  # a new count: left of Ann leads
        assert state.play.count == 0 and state.play.turn == 1


# --- the game ends the moment a side reaches the target ------------------------------------


def to_second_deal(table, ann, bob):
    """A first deal (Ann dealt) pegged by hand to ``ann`` and ``bob``; now Bob deals."""
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    peg_play(table, 0, ann)
    peg_play(table, 1, bob)
    table.advance()
    for _ in range(3):  # Bob's hand, Ann's hand, Ann's crib: nothing
        table.claim(table.state.due.seat, 0)
    table.advance()
    return table.turn_starter("QD")


def test_a_last_card_that_reaches_the_target_pegs_no_point_for_the_last_card(table):
    to_second_deal(table, ann=90, bob=119)
    # Ann leads: K 9 8 A 3 is thirty-one for Ann; Bob leads again: 7 2 6 is fifteen.
    state = lay_all(table, "KH 9C 8H AC 3H 7C 2H 6C")[-1]
    assert state.scores == (92, 121) and state.winner == 1
    line = state.history[-1]
    assert (line.points, line.why) == (2, "6♣: fifteen for two")


def test_a_card_that_reaches_the_target_pegs_no_go_after_it(table):
    to_second_deal(table, ann=50, bob=119)
    # Ann cannot lay her Q on 26 and says go; Bob's last card pairs the 2 and wins.
    state = lay_all(table, "2H AC 10H AD KH 2C go 2D")[-1]
    assert state.scores == (50, 121) and state.winner == 1
    assert [e.why for e in state.history if e.deal == 2] == ["2♦: twenty-eight for two"]


def test_a_last_card_short_of_the_target_still_pegs_its_point(table):
    to_second_deal(table, ann=90, bob=118)
    state = lay_all(table, "KH 9C 8H AC 3H 7C 2H 6C")[-1]
    assert state.scores == (92, 121) and state.winner == 1
    assert state.history[-1].why == "6♣: fifteen for two, and one for the last card"
