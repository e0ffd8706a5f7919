"""The refusals a player meets at the table, said in every language: each error the rules
raise carries its phrase, a message of the catalogue that says the error's English word for
word, and with no English left in the other languages."""

from __future__ import annotations

import pytest
from game_bot import open_table
from test_i18n_calls import english_left

from pegboard.errors import PegboardError
from pegboard.game import Settings
from pegboard.i18n import LANGUAGES, SOURCE, phrase_of, translations
from pegboard.rules.cards import parse_cards

TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]


def refused(entry) -> PegboardError:
    with pytest.raises(PegboardError) as raised:
        entry()
    return raised.value


@pytest.fixture(scope="module")
def refusals() -> list[PegboardError]:
    """One of each refusal, raised by the real game: (what was tried, the error)."""
    errors = []

    def tried(entry):
        errors.append(refused(entry))

    with open_table() as table:
        tried(lambda: table.claim("Ann", 4))  # no game yet
        tried(lambda: table.new_game(Settings(players=("Ann", "Ann"))))
        tried(lambda: table.new_game(Settings(players=("Ann",))))
        tried(lambda: table.new_game(Settings(players=("Ann", "Bob")), cuts="5H 5C"))
        tried(lambda: table.new_game(Settings(players=("Ann", "Bob")), cuts="5H"))
        tried(lambda: table.new_game(Settings(players=("Ann", "Bob")), dealer=0, cuts="5H 6C"))
        settings = Settings(players=("Ann", "Bob"), muggins=True)
        table.new_game(settings, dealer="Ann")
        tried(lambda: table.claim("Bob", 4))  # turn the starter first
        tried(lambda: table.undo() and table.undo())  # nothing to undo
        tried(lambda: table.redo())
        tried(lambda: table.turn_starter("JD", heels=True))
        tried(lambda: table.turn_starter("5X"))
        tried(lambda: table.turn_starter("Z"))
        tried(lambda: table.turn_starter("5"))
        tried(lambda: table.turn_starter(" "))
        table.turn_starter("5D")
        tried(lambda: table.turn_starter("6D"))  # turned already
        tried(lambda: table.lay("10H", "Ann"))  # Bob's turn
        tried(lambda: table.lay("5D", "Bob"))  # the starter
        tried(lambda: table.go("Bob"))  # leads on 0
        table.lay("10H", "Bob")
        tried(lambda: table.lay("10H", "Ann"))  # laid already
        table.lay("KH", "Ann")
        table.lay("QH", "Bob")
        tried(lambda: table.lay("5C", "Ann"))  # would pass 31
        tried(lambda: table.claim("Bob", 2, kind="play"))  # scored from the cards
        table.advance()
        tried(lambda: table.claim("Bob", 19))
        tried(lambda: table.claim("Ann", 4))  # out of order
        tried(lambda: table.claim("Bob", 4, cards="10H 5H 6H"))  # three cards
        tried(lambda: table.claim("Bob", 4, cards="2C 5H 6H 3D"))  # not the cards laid
        tried(lambda: table.claim("Bob", 4, cards="10H QH KH 3D"))  # Ann's card
        tried(lambda: table.claim("Bob", 4, cards="10H 5H 5H 3D"))  # twice
        tried(lambda: table.muggins("Ann", 2))  # nothing to mug yet
        tried(lambda: table.advance())  # not counted yet
        table.claim("Bob", 2, cards="10H QH 6H 3D")  # four: two missed
        tried(lambda: table.muggins("Bob", 2))  # own side
        tried(lambda: table.muggins("Ann", 2, cards="10H QH 6H 4D"))  # not the cards counted
        tried(lambda: table.dispute_muggins("Bob", "10H QH 6H 3D"))  # nothing to dispute
        table.claim("Ann", 4)
        tried(lambda: table.muggins("Bob", 28))  # cannot have missed: no hand scores 32
        table.muggins("Bob", 2)  # made without the cards: Ann's side may dispute it
        tried(lambda: table.dispute_muggins("Bob", "KH 2C 3C 4C"))  # not the mugged side
        tried(lambda: table.dispute_muggins("Ann", None))  # show the cards
        tried(lambda: table.claim("Ann", 19, kind="crib"))
        tried(lambda: table.claim("Ann", 26, kind="crib"))
        table.claim("Ann", 4, kind="crib")
        tried(lambda: table.claim("Bob", 2))  # the show is done
        tried(lambda: table.next_game())  # not over
        table.new_game(Settings(players=("Ann", "Bob"), target=5), dealer="Ann")
        table.turn_starter(None)
        table.claim("Bob", 3, kind="play")
        tried(lambda: table.lay("5H", "Ann"))  # pegged by hand
        tried(lambda: table.claim("Bob", 30, kind="play"))  # one card scores 1 to ...
        tried(lambda: table.claim("Bob", 2, kind="play", cards="5H"))
        table.claim("Ann", 5, kind="play")  # Ann wins
        tried(lambda: table.claim("Bob", 2, kind="play"))  # game over
        tried(lambda: table.muggins("Bob", 2))  # Muggins is off
    return errors


def test_the_refusals_are_the_ones_a_player_meets(refusals):
    said = {str(error) for error in refusals}
    assert "turn the starter first" in said
    assert "out of order: Bob's hand counts now, not Ann's hand" in said
    assert "it is Bob's turn to lay" in said
    assert any(text.startswith("the game is over: Ann won (5-3)") for text in said)
    assert "no hand of 4 cards can score 19 (a hand with nothing is called nineteen: peg 0)" in said
    assert len(refusals) >= 35


def test_each_refusal_carries_a_message_of_the_catalogue(refusals):
    catalogue = translations("de")
    for error in refusals:
        phrase = phrase_of(error)
        assert catalogue.gettext(phrase.message) != phrase.message, f"no message: {error}"
        assert str(phrase) == str(error)  # said again, word for word


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_refusal_is_said_in_the_language(refusals, lang):
    for error in refusals:
        said = phrase_of(error).say(lang)
        assert said != str(error) or lang == SOURCE
        assert not english_left(said, lang), f"{lang}: {said!r} (for {str(error)!r})"


def test_a_refusal_nested_in_another_is_said_whole():
    error = refused(lambda: parse_cards(["5H", "5H"]))
    assert phrase_of(error).say("de") == "5♥ ist doppelt angegeben"
    with open_table() as table:
        table.new_game(Settings(players=("Ann", "Bob"), muggins=True), dealer="Ann")
        table.turn_starter("5D")
        table.advance()
        table.claim("Bob", 2)
        table.claim("Ann", 2)
        table.claim("Ann", 2, kind="crib")
        nested = refused(lambda: table.muggins("Bob", 24))
    assert str(nested) == "Ann's crib cannot have missed 24: no crib can score 26"
    assert phrase_of(nested).say("nl") == "Anns crib kan geen 24 gemist hebben: " + (
        "geen crib kan 26 punten halen"
    )


def test_a_sentence_of_no_message_is_said_as_it_stands():
    error = PegboardError("a {sentence} nobody wrote a message for")
    assert phrase_of(error).say("fi") == str(error) == "a {sentence} nobody wrote a message for"
