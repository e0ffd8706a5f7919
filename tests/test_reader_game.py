"""The game checks what the camera saw: a photo's cards against the deal (pure checks in
pegboard.game.photo), before they come with a claim."""

import pytest
from game_bot import open_table

from pegboard.errors import RuleError
from pegboard.game import Count, CountKind, Settings
from pegboard.game.photo import shown_cards
from pegboard.rules.cards import Card


@pytest.fixture
def played():
    """Ann deals, the starter is 5D, the whole play laid by cards: Bob laid 5H 5C 10D 10S,
    Ann 6C AS AH 6D."""
    with open_table() as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
        table.turn_starter("5D")
        for entry in "10D 6C 10S AS go AH go 5H 6D 5C".split():
            table.go() if entry == "go" else table.lay(entry)
        yield table.state


def seen(text):
    return [Card.parse(token) for token in text.split()]


def test_a_photo_of_the_hand_laid_gives_its_cards_the_starter_beside_it_or_not(played):
    bob = Count(1, CountKind.HAND)
    assert shown_cards(played, bob, seen("10S 5H 10D 5C")) == tuple(seen("10S 5H 10D 5C"))
    assert shown_cards(played, bob, seen("5D 10S 5H 10D 5C")) == tuple(seen("10S 5H 10D 5C"))


def test_a_card_the_other_player_laid_is_refused_by_name(played):
    with pytest.raises(RuleError, match="6♣ is in Ann's hand"):
        shown_cards(played, Count(1, CountKind.HAND), seen("6C 5H 10D 5C"))


def test_cards_laid_in_the_play_must_be_the_hands(played):
    with pytest.raises(RuleError, match="Bob's hand laid 10♦ 10♠ 5♥ 5♣ in the play, not"):
        shown_cards(played, Count(1, CountKind.HAND), seen("2C 5H 10D 5C"))


def test_the_starter_must_match(played):
    with pytest.raises(RuleError, match="the starter is 5♦, and it is not in the photo"):
        shown_cards(played, Count(1, CountKind.HAND), seen("KD 10S 5H 10D 5C"))


def test_no_card_twice(played):
    with pytest.raises(RuleError, match="5♥ seen twice in one photo"):
        shown_cards(played, Count(1, CountKind.HAND), seen("5H 5H 10D 5C"))
    with pytest.raises(RuleError, match="5♦ is the starter"):  # the crib holds no starter
        shown_cards(played, Count(0, CountKind.CRIB), seen("5D 2C 3C 4C"))
