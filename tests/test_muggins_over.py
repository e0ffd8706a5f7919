"""With Muggins on every claim is kept: an over-count is pegged as claimed and told as
nothing more while its window is open (a board that took it back at once would tell the
table that every other claim was not over, and pay a player who claims 29 every time the
exact count); an opponent shows it over with the cards, or it stands. A claim of game
waits for its window the same way, and a false claim of game can be shown wrong with the
cards, Muggins or not. Played through a real front door over a real game file."""

from __future__ import annotations

import pytest
from game_bot import game_dir, peg_play, refuse

from pegboard.board.layout import load_layout
from pegboard.game import Mugging, Settings, Table
from pegboard.game.events import Claimed, GameStarted, PlayEnded, StarterTurned
from pegboard.game.fold import replay
from pegboard.keeper import Scorekeeper
from pegboard.keeper.aloud import announcements
from pegboard.panel.view import game_view
from pegboard.rules.cards import Card, parse_cards

BOBS = "2H 3S 9D QC"  # with the starter K♣: fifteen two (2-3-Q), fifteen four (2-3-K): four
ANNS = "4D 6C 8S AH"  # with K♣: nothing: nineteen
# Words that tell a verdict or the win, in English.
TELLS = ("over", "taken back", "exact", "under", "held", "missed", "four", "wins", "won")


@pytest.fixture
def table():
    with game_dir() as folder, Table(folder / "games.db") as table:
        yield table


@pytest.fixture
def keeper(table):
    return Scorekeeper(table, load_layout("two-track-121"))


def kings_show(keeper, ann=0, bob=0, **settings):
    """Ann deals, the starter K♣; Ann at ``ann`` and Bob at ``bob`` from the play (pegged
    by hand); the play ended: Bob's hand is due."""
    keeper.new_game({"players": ["Ann", "Bob"], **settings}, dealer=0)
    keeper.turn_starter("KC")
    for seat, points in ((0, ann), (1, bob)):
        while points:
            keeper.claim(seat, min(points, 15))
            points -= min(points, 15)
    keeper.advance()


def said(change) -> list[str]:
    """The board's words of a change, and what it says aloud."""
    return [str(change.said), *(a.say() for a in announcements(change))]


def told_nothing_more(keeper, claimed: int) -> None:
    """The table as it may know it holds the claim and nothing more: no verdict, no true
    total, no lines but the count, no win."""
    state = keeper.state
    claim = state.claims[-1]
    assert (claim.verdict, claim.actual, claim.show, claim.rule) == ("kept", None, None, None)
    assert claim.claimed == claimed and claim.difference == 0
    assert [line.why for line in state.history[-1:]] == ["Bob's hand"]
    view = game_view(state, "en", keeper.layout)
    assert view["winner"] is None and view["result"] is None and view["phase"] != "over"
    assert view["lesson"] is None and view["muggins_open"]["missed"] is None
    assert view["claims"][-1]["actual"] is None and view["claims"][-1]["show"] is None
    assert all(line.kind != "penalty" for line in state.history)


@pytest.mark.parametrize("claimed", [12, 29])  # 29: claimed at its most, a free counter
def test_an_over_claim_is_pegged_as_claimed_and_told_as_nothing_more(keeper, table, claimed):
    kings_show(keeper, muggins=True)
    change = keeper.claim("Bob", claimed, cards=BOBS)
    assert table.state.scores == (0, claimed)  # the board knows the cards hold 4 ...
    assert table.state.claims[-1].actual == 4
    told_nothing_more(keeper, claimed)  # ... and tells nobody
    assert keeper.state.scores == (0, claimed) and keeper.state.pegs[1].front == claimed
    words = said(change)
    assert words[0] == f"Pegged {claimed}."
    assert not any(tell in word for word in words for tell in TELLS), words
    assert keeper.state.challengeable == 0  # an opponent may show it over with the cards


def test_an_over_claim_nobody_challenged_stands_and_the_lesson_says_what_it_held(keeper):
    kings_show(keeper, muggins=True)
    keeper.claim("Bob", 12, cards=BOBS)
    change = keeper.claim("Ann", 0, cards=ANNS)  # the next count closes Bob's window
    state = keeper.state
    assert state.scores == (0, 12)  # it stands, as at a real table
    assert (state.claims[0].verdict, state.claims[0].actual) == ("over", 4)
    assert "Bob's hand held four: eight over, and it stands." in said(change)
    assert state.challengeable == 1  # Ann's count, now: Bob's can no longer be challenged


@pytest.mark.parametrize(("rule", "scores"), [("correct", (0, 4)), ("penalise", (8, 4))])
def test_a_challenge_with_the_cards_corrects_an_over_claim_by_the_rule(keeper, rule, scores):
    kings_show(keeper, muggins=True, over_count=rule)
    keeper.claim("Bob", 12, cards=BOBS)
    change = keeper.challenge("Ann")  # the cards were given: the board counts them
    state = keeper.state
    assert state.scores == scores
    claim = state.claims[-1]
    assert (claim.verdict, claim.actual, claim.pegged) == ("over", 4, 4)
    assert claim.muggins == Mugging(seat=0, called=0, side=1, points=0, right=True)
    assert state.history[0].why == "Bob's hand (claimed 12, 8 taken back)"
    assert str(change.said) == "12: over by 8; pegged 4."
    assert "Bob's hand: twelve… over by eight, four pegged." in said(change)
    assert state.window is None and state.challengeable is None


def test_a_challenge_names_the_cards_of_a_claim_made_without_them(keeper, table):
    kings_show(keeper, muggins=True)
    keeper.claim("Bob", 12)
    refuse(table, "challenge", "Ann", match="show Bob's hand to challenge it")
    refuse(table, "challenge", "Bob", BOBS, match="Bob cannot challenge their own side's count")
    refuse(table, "challenge", "Ann", "2H 3S 9D KC", match="K♣ is the starter")
    assert keeper.challenge("Ann", BOBS).state.scores == (0, 4)


def test_a_challenge_the_cards_do_not_bear_out_closes_the_window(keeper, table):
    kings_show(keeper, muggins=True, over_count="penalise")
    keeper.claim("Bob", 4, cards=BOBS)  # exact
    change = keeper.challenge("Ann")
    assert keeper.state.scores == (0, 4)  # the count stands, and costs the caller nothing
    assert keeper.state.claims[-1].verdict == "exact" and keeper.state.window is None
    assert str(change.said) == "4: exact."
    refuse(table, "muggins", "Ann", 2, match="nothing to mug")


def test_with_lessons_off_an_over_claim_that_stood_is_told_only_when_the_game_ends(keeper):
    kings_show(keeper, ann=110, muggins=True, lessons=False)
    keeper.claim("Bob", 12, cards=BOBS)
    keeper.claim("Ann", 0, cards=ANNS)  # the window closes: it stands, still untold
    assert keeper.state.claims[-2].verdict == "kept" and keeper.state.scores == (110, 12)
    keeper.claim("Ann", 12)  # her crib, into the game: held until the advance
    keeper.advance()
    assert keeper.state.over and keeper.state.claims[-3].verdict == "over"


def test_with_three_players_a_challenges_penalty_goes_to_the_caller(table):
    rules = Settings(players=("Ann", "Bob", "Cat"), muggins=True, over_count="penalise")
    table.new_game(rules, dealer=0)
    table.turn_starter("KC")
    table.advance()
    table.claim("Bob", 12, cards=BOBS)
    assert table.challenge("Cat").scores == (0, 4, 8)  # Cat showed it: Ann pegs nothing


def test_a_muggins_call_on_a_kept_over_claim_takes_it_back(keeper):
    kings_show(keeper, muggins=True)
    keeper.claim("Bob", 12, cards=BOBS)
    assert keeper.muggins("Ann", 2).state.scores == (0, 4)  # the cards decide any call


def test_with_muggins_off_a_known_over_count_is_taken_back_at_once(keeper):
    kings_show(keeper)
    change = keeper.claim("Bob", 12, cards=BOBS)
    assert keeper.state.scores == (0, 4) and keeper.state.claims[-1].verdict == "over"
    assert str(change.said) == "12: over by 8; pegged 4."


def test_the_phones_are_told_of_a_count_open_to_a_challenge_in_any_deal(keeper):
    kings_show(keeper, muggins=True)
    for seat, points in ((1, 4), (0, 0), (0, 2)):
        keeper.claim(seat, points)
    keeper.advance()
    keeper.turn_starter("KC")  # deal 2, Bob deals: the counts of deal 1 are not shown
    keeper.advance()
    keeper.claim("Ann", 12, cards=BOBS)
    view = game_view(keeper.state, "en", keeper.layout)
    assert [claim["claimed"] for claim in view["claims"]] == [12]
    assert view["challenge"] == view["challenge"] | {"name": "Ann's hand", "claimed": 12}
    assert view["challenge"]["callers"] == [1]
    assert view["challenge"]["cards"] == ["2♥", "3♠", "9♦", "Q♣"]


# --- a claim of game ------------------------------------------------------------------------


def test_a_claim_of_game_is_held_until_its_window_closes(keeper, table):
    kings_show(keeper, ann=95, bob=110, muggins=True)
    change = keeper.claim("Bob", 12)  # without its cards: worth 4, but who knows?
    state = keeper.state
    assert state.scores == (95, 121) and not state.over and state.winner is None
    assert table.state.winner is None and table.state.held == 1
    assert state.history[-1].why == "Bob's hand"  # not "the game ended"
    assert state.as_dict()["winner"] is None and state.as_dict()["phase"] == "show"
    assert not any(tell in word for word in said(change) for tell in TELLS), said(change)
    assert state.due.seat == 0  # the next count is Ann's
    change = keeper.claim("Ann", 0)  # the next entry closes the window: the win stands
    state = keeper.state
    assert state.over and state.winner == 1 and state.scores == (95, 121)
    assert state.claims[-1].seat == 1  # Ann's count came after the game ended: not scored
    assert said(change) == ["The count stands: Bob wins.", "Bob wins by twenty-six."]
    assert state.history[-1].why == "Bob's hand: the game ended at 11 of 12"


def test_the_advance_after_the_last_count_closes_a_claim_of_games_window(keeper):
    kings_show(keeper, ann=110, bob=0, muggins=True)
    keeper.claim("Bob", 0)
    keeper.claim("Ann", 6)
    keeper.claim("Ann", 8)  # her crib: the last count, to 124
    assert not keeper.state.over
    change = keeper.advance()
    assert keeper.state.winner == 0 and keeper.state.deal == 1  # no next deal
    assert said(change) == [
        "The count stands: Ann wins.",
        "Ann wins by one hundred twenty-one, with a double skunk.",
    ]


def test_a_false_claim_of_game_is_undone_by_a_call_with_the_cards(keeper):
    kings_show(keeper, ann=95, bob=110, muggins=True)
    keeper.claim("Bob", 12)
    change = keeper.challenge("Ann", BOBS)
    state = keeper.state
    assert not state.over and state.scores == (95, 114) and state.due.seat == 0
    assert state.results == () and not any("wins" in word for word in said(change))
    assert keeper.claim("Ann", 0).state.scores == (95, 114)  # the game goes on


def test_a_muggins_call_on_a_true_claim_of_game_lets_the_win_stand(keeper):
    kings_show(keeper, ann=95, bob=117, muggins=True)
    keeper.claim("Bob", 4, cards=BOBS)
    change = keeper.muggins("Ann", 2)  # false: the win stands, and nothing is pegged after
    assert keeper.state.winner == 1 and keeper.state.scores == (95, 121)
    assert keeper.state.claims[-1].muggins == Mugging(0, 2, 1, 0, right=False)
    assert "Bob wins by twenty-six." in said(change)


@pytest.mark.parametrize("muggins", [False, True])
def test_a_false_claim_of_game_can_be_shown_wrong_until_the_next_entry(keeper, table, muggins):
    """95-110, Bob claims 12 on a hand worth 4 without its cards (issue 29)."""
    kings_show(keeper, ann=95, bob=110, muggins=muggins)
    keeper.claim("Bob", 12)
    assert table.state.over is not muggins  # Muggins off: the game ends at once
    state = keeper.challenge("Ann", BOBS).state
    assert not state.over and state.scores == (95, 114) and state.results == ()
    claim = state.claims[-1]
    assert (claim.verdict, claim.pegged) == ("over", 4)


def test_with_muggins_off_a_claim_of_game_is_open_only_until_the_next_entry(keeper, table):
    kings_show(keeper, ann=110, bob=95, match_games=3)
    keeper.claim("Bob", 12, cards=BOBS)  # with its cards: taken back at once
    assert keeper.state.scores == (110, 99)
    refuse(table, "challenge", "Ann", BOBS, match="nothing to challenge")
    keeper.claim("Ann", 14, cards="5D 5S 10H JD")  # with K♣: fourteen, and the game
    assert keeper.state.winner == 0
    refuse(table, "challenge", "Bob", match="nothing to challenge")  # its cards were given
    keeper.undo()
    keeper.claim("Ann", 14)  # without them: open to a challenge until the next entry
    keeper.next_game()
    refuse(table, "challenge", "Bob", "5D 5S 10H JD", match="nothing to challenge")


def test_a_claim_of_game_made_with_the_starter_unnamed_can_be_checked_once_it_is_named(
    keeper, table
):
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    keeper.turn_starter(None)  # a starter turned without entering it
    peg_play(table, 0, 95)
    peg_play(table, 1, 110)
    keeper.advance()
    keeper.claim("Bob", 12)
    assert keeper.state.over
    keeper.name_starter("KC")  # allowed after the game: the claim can still be challenged
    assert keeper.challenge("Ann", BOBS).state.scores == (95, 114)


# --- games stored before -----------------------------------------------------------------


def test_a_game_stored_before_editions_keeps_its_rules():
    """Stored without an edition, a Muggins game is replayed by the first: an over-count
    given with its cards was taken back at once, and is still."""
    stored = Settings.stored({"players": ["Ann", "Bob"], "muggins": True})
    assert stored.edition == 1 and Settings(players=("Ann", "Bob")).edition == 2
    cards = tuple(parse_cards(BOBS.split()))
    events = [
        GameStarted(stored, dealer=0),
        StarterTurned(Card.parse("KC")),
        PlayEnded(),
        Claimed(1, "hand", 12, cards),
    ]
    assert replay(events).scores == (0, 4)
    events[0] = GameStarted(Settings(players=("Ann", "Bob"), muggins=True), dealer=0)
    assert replay(events).scores == (0, 12)
