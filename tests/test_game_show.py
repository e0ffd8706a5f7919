"""The show: counting order, impossible counts, counts checked by their cards, Muggins."""

import pytest
from game_bot import open_table, peg_play, refuse

from pegboard.game import Count, Mugging, Phase, Settings
from pegboard.rules.cards import Card

HAND = "5H 5C 10D 10S"  # with the starter 5D: twelve in fifteens, a pair royal, a pair: 22


@pytest.fixture
def table():
    with open_table() as table:
        yield table


def to_show(table, players=("Ann", "Bob"), starter="5D", **settings):
    """A deal with Ann dealing, its play pegged by hand (nothing), now at the show."""
    table.new_game(Settings(players=players, **settings), dealer="Ann")
    table.turn_starter(starter)
    return table.advance()


def test_two_players_count_pone_dealer_crib_then_the_deal_passes(table):
    state = to_show(table)
    assert state.order == (Count(1, "hand"), Count(0, "hand"), Count(0, "crib"))
    refuse(table, "claim", "Ann", 8, match="out of order: Bob's hand counts now, not Ann's hand")
    refuse(table, "claim", "Ann", 4, kind="crib", match="out of order: Bob's hand counts now")
    refuse(table, "advance", match="Bob's hand has not been counted yet")
    table.claim("Bob", 8)
    state = table.claim("Ann", 0)  # "nineteen"
    assert state.due == Count(0, "crib")
    state = table.claim("Ann", 4)
    assert state.scores == (4, 8) and state.due is None
    assert [(e.kind, e.why, e.points) for e in state.history] == [
        ("hand", "Bob's hand", 8),
        ("hand", "Ann's hand", 0),  # a nineteen is a line of the history too
        ("crib", "Ann's crib", 4),
    ]
    refuse(table, "claim", "Bob", 2, match="the show is done: advance to the next deal")
    state = table.advance()
    assert (state.deal, state.dealer, state.phase, state.due) == (
        2,
        1,
        Phase.DISCARD,
        Count(1, "starter"),
    )
    assert state.pegs[1].front == 8 and state.pegs[0].back == 0


def test_three_and_four_players_count_clockwise_from_the_dealers_left_crib_last(table):
    state = to_show(table, players=("Ann", "Bob", "Cat"))
    assert [(state.players[c.seat], c.kind) for c in state.order] == [
        ("Bob", "hand"),
        ("Cat", "hand"),
        ("Ann", "hand"),
        ("Ann", "crib"),
    ]
    state = to_show(table, players=("Ann", "Bob", "Cat", "Dan"))
    assert [c.seat for c in state.order] == [1, 2, 3, 0, 0]
    for points in (2, 4, 6, 8, 10):
        state = table.claim(state.due.seat, points)
    assert state.scores == (4 + 8 + 10, 2 + 6)  # Ann & Cat: Cat's, Ann's and the crib


def test_shotgun_has_no_crib(table):
    state = to_show(table, variant="shotgun")
    assert state.order == (Count(1, "hand"), Count(0, "hand"))
    table.claim("Bob", 10)
    refuse(table, "claim", "Ann", 2, kind="crib", match="there is no crib in shotgun")
    table.claim("Ann", 72)  # the most six cards and a starter can score
    assert table.state.due is None


@pytest.mark.parametrize(
    ("variant", "impossible", "possible"),
    [
        ("standard", [19, 25, 26, 27, 30], [0, 24, 28, 29]),
        ("five-card", [16, 17, 18, 19, 21], [15, 20]),
        ("seven-card", [35, 41, 45, 47], [34, 46]),
        ("shotgun", [53, 55, 61, 73], [52, 72]),
    ],
)
def test_a_count_no_hand_of_the_variant_can_score_is_refused(table, variant, impossible, possible):
    to_show(table, variant=variant)
    size = table.state.hand_size
    for points in impossible:
        message = refuse(table, "claim", "Bob", points, match=f"no hand of {size} cards can score")
    assert message.endswith(f"score {impossible[-1]}")
    before = table.state.scores[1]  # the five-card game: three for last
    for points in possible:
        assert table.claim("Bob", points).scores[1] == before + points
        table.undo()


def test_nineteen_is_a_word_not_a_count(table):
    to_show(table)
    message = refuse(table, "claim", "Bob", 19, match="nineteen")
    assert message == (
        "no hand of 4 cards can score 19 (a hand with nothing is called nineteen: peg 0)"
    )
    table.claim("Bob", 0)
    table.claim("Ann", 0)
    refuse(table, "claim", "Ann", 30, match="no crib can score 30")


def test_a_count_with_its_cards_is_checked_exact_under_over(table):
    to_show(table)
    claim = table.claim("Bob", 22, cards=HAND).claims[-1]
    assert (claim.verdict, claim.actual, claim.difference, claim.pegged) == ("exact", 22, 0, 22)
    assert claim.show.pairs == 8 and claim.show.fifteens == 14
    claim = table.undo() and table.claim("Bob", 20, cards=HAND.split()).claims[-1]
    assert (claim.verdict, claim.difference, claim.pegged) == ("under", -2, 20)
    assert table.state.scores == (0, 20)  # missed points are lost without Muggins
    claim = table.undo() and table.claim("Bob", 24, cards=HAND).claims[-1]
    assert (claim.verdict, claim.difference, claim.pegged) == ("over", 2, 22)
    assert table.state.scores == (0, 22)  # ACC: the excess is taken back
    assert table.state.history[-1].why == "Bob's hand (claimed 24, 2 taken back)"
    assert claim.as_dict()["show"]["total"] == 22


def test_an_over_count_is_penalised_when_the_house_says_so(table):
    to_show(table, over_count="penalise")
    state = table.claim("Bob", 24, cards=HAND)
    assert state.scores == (2, 22)
    assert (state.history[-1].kind, state.history[-1].why) == (
        "penalty",
        "over-count of Bob's hand",
    )


def test_a_false_claim_of_game_is_an_over_count(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    table.turn_starter("5D")
    peg_play(table, 1, 110)
    table.advance()
    state = table.claim("Bob", 12, cards="5H 6C 9D KS")  # with 5D: three fifteens and a pair
    assert state.scores == (0, 118) and not state.over
    assert state.due == Count(0, "hand")


def test_cards_that_do_not_fit_the_deal_are_refused(table):
    to_show(table)
    refuse(table, "claim", "Bob", 8, cards="5H 5C 10D", match="Bob's hand has 4 cards, not 3")
    refuse(table, "claim", "Bob", 8, cards="5H 5C 10D 5D", match="5♦ is the starter")
    refuse(table, "claim", "Bob", 8, cards="5H 5C 10D 5H", match="5♥ is given twice")
    table.claim("Bob", 22, cards=HAND)
    refuse(table, "claim", "Ann", 4, cards="5H 6C 7C 8C", match="5♥ is in Bob's hand")
    table.claim("Ann", 12, cards="6C 7C 8C 9C")
    refuse(table, "claim", "Ann", 0, cards="6C AH AS 2D", match="6♣ is in Ann's hand")


def test_a_hand_laid_in_the_play_is_checked_without_retyping_it(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    table.turn_starter("5D")
    for entry in "10D 6C 10S AS go AH go 5H 6D 5C".split():
        table.go() if entry == "go" else table.lay(entry)
    claim = table.claim("Bob", 20).claims[-1]  # Bob laid 5H 5C 10D 10S: 22
    assert (claim.verdict, claim.actual) == ("under", 22)
    refuse(
        table,
        "claim",
        "Ann",
        4,
        cards="6C 6D AS 2H",
        match="Ann's hand laid 6♣ A♠ A♥ 6♦ in the play, not 6♣ 6♦ A♠ 2♥",
    )


def test_cards_cannot_be_checked_without_the_starter(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    table.turn_starter(None)
    table.advance()
    refuse(table, "claim", "Bob", 8, cards=HAND, match="the starter was not entered")
    assert table.claim("Bob", 8).claims[-1].verdict == "unchecked"


def test_a_starter_turned_unentered_is_named_later_and_then_the_cards_are_checked(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    refuse(table, "name_starter", "5D", match="the starter is not turned yet")
    table.turn_starter(None)
    before = table.advance()
    refuse(table, "claim", "Bob", 20, cards=HAND, match="the starter was not entered: name it")
    refuse(table, "name_starter", "XY", match="XY")
    state = table.name_starter("5D")
    assert (state.starter, state.scores, state.history) == (Card.parse("5D"), (0, 0), ())
    assert table.reload() == state  # stored, and checked again on replay
    refuse(table, "name_starter", "6D", match="the starter is 5♦: it was entered at the turn")
    state = table.claim("Bob", 20, cards=HAND)
    assert (state.claims[-1].actual, state.claims[-1].verdict) == (22, "under")
    refuse(table, "claim", "Ann", 4, cards="5D 2C 3C 4C", match="5♦ is the starter")
    table.undo()
    assert table.undo() == before  # the naming is an entry, taken back like any other


def test_the_starter_named_fits_the_deal(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    table.turn_starter(None, heels=True)
    refuse(table, "name_starter", "5D", match="his heels was pegged at the turn: the starter")
    assert table.name_starter("JD").scores == (2, 0)  # heels pegged once, at the turn
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    table.turn_starter(None)
    table.lay("5H", "Bob")
    refuse(table, "name_starter", "5H", match="5♥ is in Bob's hand")
    state = table.name_starter("JC")  # "not a jack" said at the turn: heels is lost
    assert state.scores == (0, 0) and state.starter == Card.parse("JC")


def test_the_game_ends_in_the_show_and_later_counts_are_not_scored(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    peg_play(table, 0, 119)
    peg_play(table, 1, 115)
    table.advance()
    state = table.claim("Bob", 6)  # the pone counts first and goes out
    assert state.winner == 1 and state.phase is Phase.OVER and state.due is None
    assert state.skunk == 0
    refuse(table, "claim", "Ann", 20, match="the game is over: Bob won")
    refuse(table, "muggins", "Ann", 2, match="Muggins is off")


def to_show_at(table, bob, **settings):
    """Bob, the pone, at ``bob`` when the show begins (the starter 5D)."""
    table.new_game(Settings(players=("Ann", "Bob"), **settings), dealer="Ann")
    table.turn_starter("5D")
    peg_play(table, 1, bob)
    return table.advance()


def test_the_game_ends_in_the_middle_of_a_count_whose_cards_are_known(table):
    to_show_at(table, 115)
    state = table.claim("Bob", 22, cards=HAND)  # fifteen two, four, six: 121
    assert state.scores == (0, 121) and state.winner == 1
    assert state.claims[-1].pegged == 6 and state.claims[-1].verdict == "exact"
    assert state.history[-1].why == "Bob's hand: the game ended at 6 of 22"
    table.undo()
    state = table.claim("Bob", 24, cards=HAND)  # an over-count ends it at the same place
    assert state.scores == (0, 121) and state.history[-1].points == 6


def test_a_count_given_as_one_number_ends_the_game_at_the_target(table):
    to_show_at(table, 115)
    state = table.claim("Bob", 22)  # where inside it 121 was passed is not known
    assert state.scores == (0, 121) and state.claims[-1].pegged == 6
    assert state.history[-1].why == "Bob's hand: the game ended at 6 of 22"
    table.undo()
    state = table.claim("Bob", 20, cards=HAND)  # an under-count: Bob's own count of 20
    assert state.scores == (0, 121) and state.claims[-1].verdict == "under"
    assert state.history[-1].points == 6 and state.margin == 121


def test_an_over_count_that_wins_pegs_no_penalty_after_it(table):
    to_show_at(table, 100, over_count="penalise")
    state = table.claim("Bob", 24, cards=HAND)  # 22: Bob is out before Ann's two
    assert state.scores == (0, 121) and state.winner == 1
    assert [e.kind for e in state.history][-1] == "hand"
    ended = "Bob's hand (claimed 24, 2 taken back): the game ended at 21 of 22"
    assert state.history[-1].why == ended


# --- Muggins -----------------------------------------------------------------------------


def test_muggins_takes_the_lesser_of_the_call_and_the_points_missed(table):
    to_show(table, muggins=True)
    table.claim("Bob", 18, cards=HAND)  # missed 4
    state = table.muggins("Ann", 6)
    assert state.scores == (4, 18)
    assert state.history[-1].why == "muggins on Bob's hand"
    assert state.claims[-1].muggins.points == 4
    refuse(table, "muggins", "Ann", 1, match="nothing to mug")  # one call per count


def test_a_false_muggins_call_gives_the_points_to_the_other_side(table):
    to_show(table, muggins=True)
    table.claim("Bob", 22, cards=HAND)
    state = table.muggins("Ann", 2)
    assert state.scores == (0, 24)
    assert (state.history[-1].side, state.history[-1].why) == (1, "false muggins on Bob's hand")


def test_muggins_with_the_cards_named_by_the_caller(table):
    to_show(table, muggins=True)
    table.claim("Bob", 20)
    state = table.muggins("Ann", 2, cards=HAND)
    assert state.scores == (2, 20)
    assert state.claims[-1].verdict == "under" and state.claims[-1].actual == 22


def test_muggins_window_and_who_may_call(table):
    to_show(table, players=("Ann", "Bob", "Cat", "Dan"), muggins=True)
    refuse(table, "muggins", "Ann", 2, match="nothing to mug: call Muggins after a count")
    table.claim("Bob", 10)
    refuse(table, "muggins", "Dan", 2, match="Dan cannot mug their own side")
    refuse(table, "muggins", "Ann", 20, match="Bob's hand cannot have missed 20: no hand of 4")
    refuse(table, "muggins", "Ann", 0, match="points must be a whole number of at least 1")
    table.claim("Cat", 4)  # the next count is pegged: Bob's hand can no longer be mugged
    state = table.muggins("Bob", 2)  # Cat's can, by the other side
    assert state.scores == (4, 12)


def test_heels_cannot_be_mugged(table):
    table.new_game(Settings(players=("Ann", "Bob"), muggins=True), dealer="Ann")
    table.turn_starter("JD")
    refuse(table, "muggins", "Bob", 2, match="nothing to mug")


def test_play_points_pegged_by_hand_can_be_mugged(table):
    table.new_game(Settings(players=("Ann", "Bob"), muggins=True), dealer="Ann")
    table.turn_starter("5D")
    table.claim("Bob", 2)
    refuse(table, "muggins", "Ann", 14, match="one card scores at most 15 in the play")
    refuse(table, "muggins", "Ann", 1, cards="5H", match="cannot be checked after it")
    assert table.muggins("Ann", 1).scores == (1, 2)


def test_a_play_ended_early_still_knows_the_cards_laid(table):
    table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
    table.turn_starter("5D")
    table.lay("10D")
    table.lay("6C")
    table.advance()  # the rest of the play was not entered
    refuse(table, "claim", "Bob", 2, cards="2H 3H 4H 6H", match="Bob's hand laid 10♦ in the play")
    assert table.claim("Bob", 22, cards=HAND).claims[-1].verdict == "exact"


# --- Muggins: the cards decide the call ---------------------------------------------------

FOURTEEN = "5H 10D QS KC"  # with the starter 5D: six fifteens and a pair


def test_a_call_over_the_points_missed_pegs_what_was_missed(table):
    to_show(table, muggins=True)
    table.claim("Bob", 12, cards=FOURTEEN)
    state = table.muggins("Ann", 7)  # 12 + 7 is no hand's total, but the cards say 2
    assert state.scores == (2, 12)
    assert state.claims[-1].muggins == Mugging(seat=0, called=7, side=0, points=2)
    assert state.history[-1].why == "muggins on Bob's hand"


def test_a_call_over_the_points_missed_with_the_cards_named_by_the_caller(table):
    to_show(table, muggins=True)
    table.claim("Bob", 12)
    message = refuse(table, "muggins", "Ann", 7, match="Bob's hand cannot have missed 7")
    assert message.endswith(
        "no hand of 4 cards can score 19 (a hand with nothing is called nineteen: peg 0)"
    )
    state = table.muggins("Ann", 7, cards=FOURTEEN)
    assert state.scores == (2, 12) and state.claims[-1].actual == 14


def test_a_call_without_the_cards_stands_unless_the_mugged_side_shows_them(table):
    to_show(table, muggins=True)
    table.claim("Bob", 12)
    state = table.muggins("Ann", 3)  # 15 can be right: taken as made
    assert state.scores == (3, 12) and state.disputable == 0
    assert state.as_dict()["muggins_disputable"] == 0
    refuse(table, "dispute_muggins", "Ann", FOURTEEN, match="only the side of Bob's hand can")
    refuse(table, "dispute_muggins", "Bob", None, match="show Bob's hand to dispute the call")
    refuse(table, "dispute_muggins", "Bob", "5H 10D QS", match="Bob's hand has 4 cards, not 3")
    state = table.dispute_muggins("Bob", FOURTEEN)  # 14: two were missed, not three
    assert state.scores == (2, 12) and state.disputable is None
    assert state.claims[-1].muggins == Mugging(0, 3, 0, 2, disputed=True)
    assert state.claims[-1].verdict == "under"
    assert [e.why for e in state.history] == ["Bob's hand", "muggins on Bob's hand"]
    assert table.undo().scores == (3, 12)  # back to the call as made


def test_a_disputed_call_that_missed_nothing_pegs_for_the_mugged_side(table):
    to_show(table, muggins=True)
    table.claim("Bob", 14)
    table.muggins("Ann", 2)
    state = table.dispute_muggins("Bob", FOURTEEN)
    assert state.scores == (0, 16)
    assert state.history[-1].why == "false muggins on Bob's hand"


def test_a_call_disputed_once_the_starter_is_named(table):
    to_show(table, muggins=True, starter=None)
    table.claim("Bob", 12)
    table.muggins("Ann", 3)
    refuse(table, "dispute_muggins", "Bob", FOURTEEN, match="the starter was not entered")
    named = table.name_starter("5D")
    assert named.disputable == 0 and named.scores == (3, 12)
    state = table.dispute_muggins("Bob", FOURTEEN)  # 14: two were missed, not three
    assert state.scores == (2, 12) and state.claims[-1].actual == 14
    assert table.reload() == state
    assert table.undo() == named


def test_the_next_count_ends_the_time_to_dispute(table):
    to_show(table, muggins=True)
    table.claim("Bob", 12)
    table.muggins("Ann", 2)
    state = table.claim("Ann", 4)
    assert state.disputable is None
    refuse(table, "dispute_muggins", "Bob", FOURTEEN, match="nothing to dispute")


def test_a_call_with_the_cards_known_cannot_be_disputed(table):
    to_show(table, muggins=True)
    table.claim("Bob", 12, cards=FOURTEEN)
    assert table.muggins("Ann", 2).disputable is None
    refuse(table, "dispute_muggins", "Bob", FOURTEEN, match="nothing to dispute")


def test_a_call_that_won_the_game_can_still_be_disputed(table):
    table.new_game(Settings(players=("Ann", "Bob"), muggins=True), dealer="Ann")
    table.turn_starter("5D")
    peg_play(table, 0, 119)
    table.advance()
    table.claim("Bob", 14)
    state = table.muggins("Ann", 2)
    assert state.winner == 0 and state.disputable == len(state.claims) - 1
    state = table.dispute_muggins("Bob", FOURTEEN)  # exact: the call was false
    assert not state.over and state.scores == (119, 16) and state.results == ()
    assert state.due == Count(0, "hand")
