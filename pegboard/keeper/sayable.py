"""What the board says, as values said later in the hearer's language: a number in
words, a card by its name, cards as a list, who scored what (the parts of the phrases
:mod:`pegboard.keeper.aloud` makes), and each sentence to say with its kind."""

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


# The kinds of announcement, each switched on or off in the config's [voice] events;
# "cards" (every card by its name: the starter, each lay, each show) is for a player who
# cannot see the cards, and off unless asked for (the players say their own cards).
EVENTS = ("counts", "pegging", "heels", "muggins", "skunk", "win", "refusals", "game", "cards")
SAID = tuple(event for event in EVENTS if event != "cards")  # the board's voice unless told


CARDS = "cards"  # the cards by name: the starter, each lay, each show (see above)


LAID = "laid"  # a phone's kind only: whose turn (see :mod:`pegboard.keeper.aloud`)


@dataclass(frozen=True, slots=True)
class Announcement:
    """One sentence to say: ``event`` is its kind (one of :data:`EVENTS`); a
    ``fleeting`` one is true only while play stays where it was (a play's call, a
    refusal): it is dropped, unsaid, once a later entry is made."""

    event: str
    said: Sayable
    fleeting: bool = False
    scorer: str | None = None  # who scored, for a score in the play (see :func:`.aloud.merged`)
    points: int = 0
    seen: Sayable | None = None  # a phone's words to show of a lay that scored (see below)

    def say(self, lang: str = "en") -> str:
        return self.said.say(lang)

    def shown(self, lang: str = "en") -> str | None:
        """What a phone shows of it at the action: the sentence itself, but for a
        phone's words of a card laid, shown as the board says its score ("Ann: fifteen
        for two") or not at all (a lay that scored nothing, the starter, whose turn)."""
        if self.event not in (CARDS, LAID):
            return self.say(lang)
        return None if self.seen is None else self.seen.say(lang)

    @property
    def scores(self) -> tuple[tuple[str | None, int], ...]:
        """Who scored what in the play, said in this sentence."""
        if isinstance(self.said, Scores):
            return self.said.scores
        return ((self.scorer, self.points),) if self.points else ()

    def __str__(self) -> str:
        return self.say()
