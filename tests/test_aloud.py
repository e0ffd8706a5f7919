"""What the board says aloud of each change (the voice, and each phone): pure (a change in,
sentences out), checked
on games played through a real front door over a real game file, with no audio."""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from pegboard.i18n import LANGUAGES, N_, Phrase
from pegboard.keeper.aloud import EVENTS, announcements, spoken


@pytest.fixture
def heard(keeper):
    """Every announcement of every change from here on, in order."""
    said = []
    keeper.subscribe(lambda change: said.extend(announcements(change)))
    return said


def texts(said, lang="en"):
    return [a.say(lang) for a in said]


def to_the_show(keeper, dealer=1, **settings):
    """A game of Ann and Bob (Bob deals, so Ann counts first), the starter J♥ (his heels
    for Bob) and the play ended: Ann's hand is due."""
    keeper.new_game({"players": ["Ann", "Bob"], **settings}, dealer=dealer)
    keeper.turn_starter("JH")
    keeper.advance()


ANNS = "5D 6H 4H 3C"  # with J♥: fifteen two, fifteen four and a run of four is eight


@pytest.mark.parametrize(
    ("claimed", "cards", "sentence"),
    [
        (8, ANNS, "Ann's hand: eight… exact."),
        (6, ANNS, "Ann's hand: six… under by two."),
        (12, ANNS, "Ann's hand: twelve… over by four, eight pegged."),
        (12, None, "Ann's hand: twelve."),  # no cards: nothing to check it by
    ],
)
def test_a_count_is_said_as_claimed_then_its_verdict(keeper, heard, claimed, cards, sentence):
    to_the_show(keeper)
    heard.clear()
    keeper.claim("Ann", claimed, cards=cards)
    assert texts(heard) == [sentence]
    assert [a.event for a in heard] == ["counts"]


def test_with_muggins_on_a_count_is_said_as_claimed_and_its_verdict_waits(keeper, heard):
    """Nothing is said of a hand until its owner pegs it (the play laid all its cards,
    so the board knows it); then only the claim: what was missed is the opponents' to
    spot. The call is answered with what the cards held."""
    heard.clear()
    to_the_show(keeper, muggins=True)
    assert not [a for a in heard if a.event == "counts"]
    assert not any("eight" in text for text in texts(heard))  # Ann's true count
    keeper.claim("Ann", 6, cards=ANNS)
    assert texts(heard)[-1] == "Ann's hand: six."
    assert not any("eight" in text or "under" in text for text in texts(heard))
    heard.clear()
    keeper.muggins("Bob", 2)
    assert texts(heard) == ["Muggins! Bob takes two.", "Ann's hand held eight: two missed."]
    assert {a.event for a in heard} == {"muggins"}


def test_a_window_closed_without_a_call_says_what_was_missed_as_a_lesson(keeper, heard):
    to_the_show(keeper, muggins=True)
    keeper.claim("Ann", 6, cards=ANNS)
    heard.clear()
    keeper.claim("Bob", 2)  # the dealer's hand: the window on Ann's closes
    assert texts(heard) == ["Bob's hand: two.", "Ann's hand held eight: two missed."]


def test_without_lessons_a_missed_count_stays_unsaid(keeper, heard):
    to_the_show(keeper, muggins=True, lessons=False)
    keeper.claim("Ann", 6, cards=ANNS)
    heard.clear()
    keeper.claim("Bob", 2)
    assert texts(heard) == ["Bob's hand: two."]
    assert keeper.state.claims[-2].verdict == "kept"


def test_a_false_muggins_pegs_for_the_side_it_named(keeper, heard):
    to_the_show(keeper, muggins=True)
    keeper.claim("Ann", 8, cards=ANNS)
    heard.clear()
    keeper.muggins("Bob", 2)
    assert texts(heard) == ["False Muggins! Ann takes two.", "Ann's hand held eight."]


def test_a_muggins_call_settled_by_the_cards_is_said_again_as_settled(keeper, heard):
    """A call made without the cards stands as made until the mugged side shows them."""
    to_the_show(keeper, muggins=True)
    keeper.claim("Ann", 8)  # her cards not given: nobody can tell
    keeper.muggins("Bob", 2)
    heard.clear()
    keeper.dispute_muggins("Ann", "5D 6H 4H 3C")  # eight it was: nothing missed
    assert texts(heard) == ["False Muggins! Ann takes two."]


def test_the_play_is_called_as_it_is_pegged(keeper, heard):
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    keeper.turn_starter("2C")
    heard.clear()
    for card, seat in [("10H", "Bob"), ("10D", "Ann"), ("AH", "Bob"), ("KS", "Ann")]:
        keeper.lay(card, seat)
    # 10, 20 (a pair: twenty for two), 21, 31 (thirty-one for two)
    assert texts(heard) == ["Ann: twenty for two", "Ann: thirty-one for two"]
    assert {a.event for a in heard} == {"pegging"} and all(a.fleeting for a in heard)


def test_a_play_pegged_by_hand_says_who_pegged_what(keeper, heard):
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    keeper.turn_starter(None)
    heard.clear()
    keeper.claim("Bob", 2)
    assert texts(heard) == ["Bob pegs two."]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_his_heels_names_the_dealer_who_pegs_it(keeper, heard, lang):
    keeper.new_game({"players": ["Ann", "Bob", "Cat", "Dan"]}, dealer=2)
    heard.clear()
    change = keeper.turn_starter("JS")
    aloud, board = texts(heard, lang), change.said.say(lang)
    assert len(aloud) == 1 and aloud[0].startswith("Cat: ") and "Cat" in board
    assert "Ann" not in aloud[0] + board and "Dan" not in aloud[0] + board
    if lang == "en":
        assert (aloud, board) == (["Cat: two for his heels"], "Cat pegs two for his heels.")


def test_three_for_last_is_said_with_the_new_game(keeper, heard):
    keeper.new_game({"players": ["Ann", "Bob"], "variant": "five-card"}, dealer=0)
    assert texts(heard) == ["New game: Ann deals first.", "Bob: three for last"]
    assert [a.event for a in heard] == ["game", "heels"]


def test_the_over_count_penalty_is_said(keeper, heard):
    to_the_show(keeper, over_count="penalise")
    heard.clear()
    keeper.claim("Ann", 10, cards=ANNS)
    assert texts(heard) == [
        "Ann's hand: ten… over by two, eight pegged.",
        "Bob pegs two for the over-count.",
    ]


def deal(keeper, *counts):
    """A deal with no starter and no play: the show's counts in order, then on."""
    keeper.turn_starter(None)
    keeper.advance()
    for points in counts:
        keeper.claim(keeper.state.due.seat, points)
    keeper.advance()


@pytest.mark.parametrize("games", [1, 3])
def test_a_side_past_a_skunk_line_and_the_win_with_its_skunk(keeper, heard, games):
    """In a match of three, a double skunk counts four games (home scoring): the match."""
    keeper.new_game({"players": ["Ann", "Bob"], "match_games": games}, dealer=0)
    deal(keeper, 28, 0, 0)  # Bob 28
    heard.clear()
    deal(keeper, 0, 28, 24)  # Ann deals first; Bob counts 28, crib 24: Bob 80, past 61
    assert texts(heard)[-1] == "Bob is past the double skunk line."
    heard.clear()
    deal(keeper, 28, 0, 0)  # Bob 108, past 91
    assert texts(heard)[:2] == ["Bob's hand: twenty-eight.", "Bob is past the skunk line."]
    assert heard[1].event == "skunk"
    heard.clear()
    keeper.turn_starter(None)
    keeper.advance()
    keeper.claim("Ann", 4)
    keeper.claim("Bob", 14)  # 122: the game ends at 121; Ann has 4
    match = ["Bob wins the match."] if games > 1 else []
    assert texts(heard)[-2 - len(match) :] == [
        "Bob's hand: fourteen.",
        "Bob wins by one hundred seventeen, with a double skunk.",
        *match,
    ]
    assert heard[-1].event == "win"


def test_a_win_with_no_skunk_and_no_match_yet(keeper, heard):
    keeper.new_game({"players": ["Ann", "Bob"], "match_games": 3}, dealer=0)
    for _ in range(4):
        deal(keeper, 28, 0, 0)  # the pone counts 28: each 56 after four deals
    deal(keeper, 10, 0, 0)  # Bob 66
    deal(keeper, 29, 0, 0)  # Ann 85
    heard.clear()
    deal(keeper, 29, 0, 0)  # Bob 95, past 91
    assert texts(heard) == [
        "Bob's hand: twenty-nine.",
        "Bob is past the skunk line.",
        "Ann's hand: zero.",
        "Ann's crib: zero.",
    ]
    heard.clear()
    keeper.turn_starter(None)
    keeper.advance()
    keeper.claim("Ann", 24)  # Ann 109
    keeper.claim("Bob", 24)  # Bob 119
    keeper.claim("Bob", 2, kind="crib")  # Bob 121, Ann 109: no skunk
    assert texts(heard)[-1] == "Bob wins by twelve."
    assert "wins the match" not in " ".join(texts(heard))


def test_refusals_of_the_boards_own_controls_are_said_with_numbers_in_words(keeper, heard):
    to_the_show(keeper)
    heard.clear()
    with pytest.raises(RuleError):
        keeper.claim("Ann", 19)  # from a phone: that phone shows why
    assert heard == []
    keeper.turn_dial(0, 19)
    with pytest.raises(RuleError):
        keeper.peg_dial(0)
    assert texts(heard) == [
        "no hand of four cards can score nineteen (a hand with nothing is called nineteen: peg 0)"
    ]
    assert heard[0].event == "refusals" and heard[0].fleeting
    assert texts(heard, "sv") == [
        "ingen hand med fyra kort kan ge nitton poäng (en hand utan poäng: notera 0)"
    ]


def test_an_undo_says_only_that_and_a_redo_says_the_entry_again(keeper, heard):
    to_the_show(keeper)
    keeper.claim("Ann", 6, cards=ANNS)
    heard.clear()
    keeper.undo()
    assert texts(heard) == ["Undone."]
    heard.clear()
    keeper.redo()
    assert texts(heard) == ["Ann's hand: six… under by two."]


def test_dials_and_lights_say_nothing(keeper, heard):
    to_the_show(keeper)
    heard.clear()
    keeper.turn_dial(0, 5)
    keeper.set_brightness(0.5)
    keeper.show_lit({"t0h1": "#ffffff"})
    assert heard == []


def test_every_announcement_kind_is_a_config_choice():
    assert set(EVENTS) == {
        "counts",
        "pegging",
        "heels",
        "muggins",
        "skunk",
        "win",
        "refusals",
        "game",
        "cards",
    }


def test_the_board_says_the_cards_by_name_only_when_its_config_asks():
    from pegboard.config import load_config

    assert "cards" not in load_config(text="").voice["events"]  # the players say their own
    asked = load_config(text='[voice]\nevents = ["counts", "cards"]\n')
    assert asked.voice["events"] == ["counts", "cards"]


def test_numbers_inside_a_refusal_are_said_in_words_and_nothing_else_changes():
    said = spoken(Phrase.of(N_("no crib can score {points}"), points=26))
    assert said.say("de") == "keine Krippe kann sechsundzwanzig Punkte bringen"
    text = Phrase.of(N_("{card} is the starter"), card="5♥")
    assert spoken(text) == text


# Each sentence of the voice's own, in every language (written by hand).
OWN = {
    ("{name} is past the skunk line.", "Ann"): {
        "en": "Ann is past the skunk line.",
        "nl": "Ann is voorbij de skunklijn.",
        "da": "Ann er forbi skunklinjen.",
        "de": "Ann ist aus dem Schneider.",
        "fi": "Ann on ohittanut skunkkirajan.",
        "sv": "Ann är förbi skunkgränsen.",
    },
    ("{winner} wins by {margin}, with a skunk.", 23): {
        "en": "Bob wins by twenty-three, with a skunk.",
        "nl": "Bob wint met drieëntwintig punten verschil, met een skunk.",
        "da": "Bob vinder med treogtyve, med skunk.",
        "de": "Bob gewinnt mit dreiundzwanzig Punkten Vorsprung, mit Schneider.",
        "fi": "Bob voittaa, ero kaksikymmentäkolme, ja häviäjä skunkattiin.",
        "sv": "Bob vinner med tjugotre, med skunk.",
    },
    ("{winner} wins the match.", None): {
        "en": "Bob wins the match.",
        "nl": "Bob wint de wedstrijd.",
        "da": "Bob vinder matchen.",
        "de": "Bob gewinnt die Serie.",
        "fi": "Bob voittaa ottelun.",
        "sv": "Bob vinner matchen.",
    },
    ("{name} says go.", "Ann"): {
        "en": "Ann says go.",
        "nl": "Ann zegt Go.",
        "da": "Ann siger go.",
        "de": "Ann sagt passe.",
        "fi": "Ann sanoo go.",  # the seed's word, not "passi"
        "sv": "Ann säger stopp.",
    },
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_voices_own_sentences_in_every_language(lang):
    from pegboard.keeper.sayable import Number

    for (message, value), said in OWN.items():
        if "{margin}" in message:
            phrase = Phrase.of(message, winner="Bob", margin=Number(value))
        elif "{winner}" in message:
            phrase = Phrase.of(message, winner="Bob")
        else:
            phrase = Phrase.of(message, name=value)
        assert phrase.say(lang) == said[lang]
