"""What the board says, as values said later in the hearer's language: a number in
words, a card by its name, cards as a list, who scored what (the parts of the phrases
:mod:`pegboard.keeper.aloud` makes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from babel.lists import format_list

from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import Card, card_name
from pegboard.rules.speech import number_words


class Sayable(Protocol):
    def say(self, lang: str = ...) -> str: ...


@dataclass(frozen=True, slots=True)
class Number:
    """A number said in words in the hearer's language."""

    n: int

    def say(self, lang: str = "en") -> str:
        return number_words(self.n, lang)


@dataclass(frozen=True, slots=True)
class CardName:
    """A card said in words in the hearer's language: "seven of diamonds"."""

    card: Card

    @classmethod
    def of(cls, text: str) -> CardName:
        return cls(Card.parse(text))

    def say(self, lang: str = "en") -> str:
        return card_name(self.card, lang)


@dataclass(frozen=True, slots=True)
class CardNames:
    """Cards said in words, as a list in the hearer's language: "five of hearts, five of
    clubs and jack of diamonds"."""

    cards: tuple[Card, ...]

    def say(self, lang: str = "en") -> str:
        return format_list([card_name(card, lang) for card in self.cards], locale=lang)


@dataclass(frozen=True, slots=True)
class Scores:
    """Who scored what, in order, said as one list in the hearer's language."""

    scores: tuple[tuple[str | None, int], ...]

    def say(self, lang: str = "en") -> str:
        items = [
            Phrase.of(N_("{name} {points}"), name=name or "", points=Number(points)).say(lang)
            for name, points in self.scores
        ]
        return format_list(items, locale=lang)
