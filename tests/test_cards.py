"""Cards parse from every common form and print as players write them."""

import pytest

from pegboard.errors import CardError
from pegboard.rules.cards import DECK, Card, Suit, parse_cards


@pytest.mark.parametrize(
    ("token", "printed"),
    [
        ("5H", "5♥"),
        ("5h", "5♥"),
        ("10S", "10♠"),
        ("TS", "10♠"),
        ("ts", "10♠"),
        ("JD", "J♦"),
        ("A♠", "A♠"),
        ("10♥", "10♥"),
        ("ah", "A♥"),
        ("qc", "Q♣"),
        ("K♣", "K♣"),
        (" 7d ", "7♦"),
        ("♥️", None),
    ],
)
def test_parses_common_forms(token, printed):
    if printed is None:
        with pytest.raises(CardError):
            Card.parse(token)
    else:
        assert str(Card.parse(token)) == printed


def test_every_card_round_trips():
    assert len(set(DECK)) == 52
    for card in DECK:
        assert Card.parse(str(card)) == card
        assert Card.parse(card.rank_name + card.suit.letter.lower()) == card
        assert DECK[card.index] == card


@pytest.mark.parametrize(
    ("token", "says"),
    [
        ("5X", "'X' is not a suit"),
        ("11H", "'11' is not a rank"),
        ("H", "has no rank"),
        ("5", "has no suit"),
        ("", "empty card"),
        ("ZZ", "'Z' is not a suit"),
        ("0S", "'0' is not a rank"),
    ],
)
def test_wrong_tokens_are_named(token, says):
    with pytest.raises(CardError) as error:
        Card.parse(token)
    assert says in str(error.value)
    if token:
        assert repr(token) in str(error.value)


def test_card_given_twice_is_an_error():
    with pytest.raises(CardError, match="5♥ is given twice"):
        parse_cards(["5H", "5c", "5♥"])


def test_card_values():
    assert [Card(rank, Suit.HEARTS).value for rank in range(1, 14)] == [
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        10,
        10,
        10,
    ]
    assert isinstance(CardError("x"), ValueError)
