"""Cards: small immutable values that print as ``5♥`` and parse from any common form.

>>> Card.parse("10s")
Card.parse('10♠')
>>> str(Card.parse("ah")), str(Card.parse("TD")), Card.parse("J♣").value
('A♥', '10♦', 10)
>>> [str(c) for c in parse_cards(["5H", "qc"])]
['5♥', 'Q♣']
>>> [card_name(Card.parse("5H")), card_name(Card.parse("JS"), "de"), card_name(DECK[25], "fi")]
['five of hearts', 'Pik-Bube', 'ruutukuningas']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pegboard.errors import CardError
from pegboard.i18n import N_, Phrase, translations


class Suit(enum.IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        return "CDHS"[self]


RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ACE, JACK, KING = 1, 11, 13

# Every spelling a player may type, upper-cased; suits also as emoji-free symbols.
_RANK_TOKENS = {name: rank for rank, name in enumerate(RANK_NAMES, start=1)} | {
    "T": 10,
    "1": ACE,
    "ACE": ACE,
    "JACK": JACK,
    "QUEEN": 12,
    "KING": KING,
}
_SUIT_TOKENS = {
    **{s.letter: s for s in Suit},
    **{s.symbol: s for s in Suit},
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card; ``rank`` 1 (ace) to 13 (king)."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardError(f"rank {self.rank} is not between 1 (ace) and 13 (king)")
        object.__setattr__(self, "suit", Suit(self.suit))

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read ``5H``, ``5h``, ``10S``, ``TS``, ``JD``, ``A♠``, ``10♥``, ``ah``."""
        text = token.strip().upper().replace("\ufe0f", "")
        if not text:
            raise CardError(Phrase(N_("empty card: type a rank and a suit, like 5H or 10♠")))
        suit = _SUIT_TOKENS.get(text[-1])
        rank_text = text[:-1]
        if suit is None:
            if text in _RANK_TOKENS or text[-1].isdigit():
                raise CardError(
                    Phrase.of(
                        N_("card {token} has no suit: add one of C D H S (or ♣ ♦ ♥ ♠)"),
                        token=repr(token),
                    )
                )
            raise CardError(
                Phrase.of(
                    N_("card {token}: {suit} is not a suit (use C D H S or ♣ ♦ ♥ ♠)"),
                    token=repr(token),
                    suit=repr(text[-1]),
                )
            )
        rank = _RANK_TOKENS.get(rank_text)
        if rank is None:
            if not rank_text:
                raise CardError(
                    Phrase.of(N_("card {token} has no rank: use A 2-10 J Q K"), token=repr(token))
                )
            raise CardError(
                Phrase.of(
                    N_("card {token}: {rank} is not a rank (use A 2-10 J Q K)"),
                    token=repr(token),
                    rank=repr(rank_text),
                )
            )
        return cls(rank, suit)

    @property
    def value(self) -> int:
        """Count value: ace 1, face cards 10."""
        return min(self.rank, 10)

    @property
    def index(self) -> int:
        """0..51, suit-major; ``DECK[card.index] == card``."""
        return self.suit * 13 + self.rank - 1

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank - 1]

    def __str__(self) -> str:
        return f"{self.rank_name}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(1, 14))


def parse_cards(tokens: Iterable[str | Card]) -> list[Card]:
    """Parse several cards; a card given twice is an error."""
    cards: list[Card] = []
    for token in tokens:
        card = token if isinstance(token, Card) else Card.parse(token)
        if card in cards:
            raise CardError(Phrase.of(N_("{card} is given twice"), card=str(card)))
        cards.append(card)
    return cards


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise CardError naming the first card that appears twice."""
    parse_cards(cards)


# --- names in words, in each language the board speaks (pegboard/locale) ------------------


def card_name(card: Card, lang: str = "en") -> str:
    """The card in words, for a screen reader or a call: "five of hearts", "schoppenboer"."""
    ranks, suits, template = _card_words(lang)
    return template.format(rank=ranks[card.rank - 1], suit=suits[card.suit])


def rank_word(rank: int, lang: str = "en") -> str:
    """A rank in words: 1 "ace" .. 13 "king"; "Bube", "knægt", "sotamies", "knekt"."""
    if not 1 <= rank <= 13:
        raise CardError(f"rank {rank} is not between 1 (ace) and 13 (king)")
    return _card_words(lang)[0][rank - 1]


def suit_name(suit: Suit, lang: str = "en") -> str:
    """A suit in words: "hearts", "harten", "hjerter", "Herz", "hertta", "hjärter"."""
    return _card_words(lang)[1][Suit(suit)]


@cache
def _card_words(lang: str) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """(rank words ace..king, suit names in Suit order, card template) in ``lang``."""
    t = translations(lang)
    ranks = (
        t.pgettext("rank", "ace"),
        t.pgettext("rank", "two"),
        t.pgettext("rank", "three"),
        t.pgettext("rank", "four"),
        t.pgettext("rank", "five"),
        t.pgettext("rank", "six"),
        t.pgettext("rank", "seven"),
        t.pgettext("rank", "eight"),
        t.pgettext("rank", "nine"),
        t.pgettext("rank", "ten"),
        t.pgettext("rank", "jack"),
        t.pgettext("rank", "queen"),
        t.pgettext("rank", "king"),
    )
    suits = (
        t.pgettext("suit", "clubs"),
        t.pgettext("suit", "diamonds"),
        t.pgettext("suit", "hearts"),
        t.pgettext("suit", "spades"),
    )
    return ranks, suits, t.pgettext("card", "{rank} of {suit}")
