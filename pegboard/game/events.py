"""The events of a game log: small frozen values, stored as JSON with their type name.

Events say what happened at the table; what it scored is worked out by the fold
(:mod:`pegboard.game.fold`), so no fact is stored twice.

>>> from pegboard.rules.cards import parse_cards
>>> event = Claimed(seat=1, kind="hand", points=12, cards=tuple(parse_cards("5H 5C JD 4S".split())))
>>> to_dict(event)
{'type': 'Claimed', 'seat': 1, 'kind': 'hand', 'points': 12, 'cards': ['5♥', '5♣', 'J♦', '4♠']}
>>> from_dict(to_dict(event)) == event
True
"""

from __future__ import annotations

import typing
from dataclasses import MISSING, dataclass, fields
from functools import cache
from typing import Any, Union

from pegboard.errors import RuleError
from pegboard.game.settings import Settings
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import Card
from pegboard.shape import Parsers, Source

KINDS = ("play", "hand", "crib")  # what a claim is for: a CountKind (pegboard.game.state)


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A new game (the first of a match) with its first dealer (a seat), chosen or cut."""

    settings: Settings
    dealer: int
    cuts: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class NextGame:
    """The next game of the match with its first dealer: the next seat, chosen or cut
    (the cards cut, or only their ranks when the cut was dialled on the board)."""

    dealer: int
    cuts: tuple[Card, ...] | None = None
    ranks: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class StarterTurned:
    """The dealer turned the starter; ``card`` is None when it was not entered,
    and then ``heels`` says whether it was a jack."""

    card: Card | None = None
    heels: bool = False


@dataclass(frozen=True, slots=True)
class StarterNamed:
    """The starter, turned without its card being entered, named later in the deal so
    the cards of a count can be checked."""

    card: Card


@dataclass(frozen=True, slots=True)
class CardLaid:
    """A card laid in the play; the game scores it."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Go:
    """The player whose turn it is cannot lay a card."""

    seat: int


@dataclass(frozen=True, slots=True)
class Claimed:
    """A count pegged by a player: a play score, or their hand or crib in the show.
    ``cards`` (hand or crib, without the starter) lets the game check it."""

    seat: int
    kind: str
    points: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class MugginsCalled:
    """``seat`` says the last count missed ``points``; ``cards`` are the mugged hand,
    when its owner did not give them."""

    seat: int
    points: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class MugginsDisputed:
    """``seat``, of the mugged side, disputes a Muggins call made without the cards by
    showing them: the cards settle the call."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Challenged:
    """``seat`` says the count just pegged is over (a claim of game too): its cards
    decide. ``cards`` are the hand or crib, when they were not known before."""

    seat: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class PlayEnded:
    """The play is over: on to the show."""


@dataclass(frozen=True, slots=True)
class ShowEnded:
    """Every count of the show is in: the deal passes on."""


@dataclass(frozen=True, slots=True)
class Undone:
    """Take back the last entry that is still in force."""


@dataclass(frozen=True, slots=True)
class Redone:
    """Put back the entry taken back most recently."""


Event = Union[  # noqa: UP007 (isinstance and get_args need the Union form)
    GameStarted,
    NextGame,
    StarterTurned,
    StarterNamed,
    CardLaid,
    Go,
    Claimed,
    MugginsCalled,
    MugginsDisputed,
    Challenged,
    PlayEnded,
    ShowEnded,
    Undone,
    Redone,
]
EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in typing.get_args(Event)}


def to_dict(event: Event) -> dict[str, Any]:
    """The JSON form: ``{"type": name, field: value, ...}``; cards as ``"5♥"``."""
    return {
        "type": type(event).__name__,
        **{f.name: _plain(getattr(event, f.name)) for f in fields(event)},
    }


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Settings):
        return value.as_dict()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def from_dict(data: object) -> Event:
    """Read the JSON form; anything malformed raises RuleError saying what."""
    read = Source(EVENT, RuleError)
    if not isinstance(data, dict) or data.get("type") not in EVENT_TYPES:
        kind = data.get("type") if isinstance(data, dict) else type(data).__name__
        not_one = N_("{source}: {kind} is not an event type ({types})")
        raise read.fail(not_one, kind=repr(kind), types=", ".join(EVENT_TYPES))
    cls = EVENT_TYPES[data["type"]]
    hints = _hints(cls)
    given = {k: v for k, v in data.items() if k != "type"}
    read.only(given, hints)
    values = {
        f.name: read.typed(given.get(f.name), hints[f.name], f.name, PARSERS)
        for f in fields(cls)
        if f.name in given or f.default is MISSING
    }
    return typing.cast(Event, cls(**values))


@cache
def _hints(cls: type) -> dict[str, object]:
    return typing.get_type_hints(cls)


EVENT = Phrase(N_("the entry"))  # an event as read from the game file or a script, to people
PARSERS: Parsers = {Card: (str, Card.parse), Settings: (dict, Settings.stored)}  # from JSON
