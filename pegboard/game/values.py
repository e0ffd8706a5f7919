"""The small values a game's state is made of: what an entry is for, a line of the
history, a claim and its verdict, a Muggins call, the play, a finished game, the match.
Immutable, each with its JSON form where the panel shows it (see :mod:`.state`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from pegboard.i18n import Phrase
from pegboard.rules.cards import Card
from pegboard.rules.corrections import rule_missed
from pegboard.rules.play import count_of
from pegboard.rules.scoring import Show, score_show


class Phase(enum.StrEnum):
    DISCARD = "discard"  # cards dealt and thrown to the crib; next: the starter
    PLAY = "play"
    SHOW = "show"
    OVER = "over"  # a side reached the target


class CountKind(enum.StrEnum):
    """What an entry is for: the starter, the play, a hand or the crib (a claim is for
    the last three)."""

    STARTER = "starter"
    PLAY = "play"
    HAND = "hand"
    CRIB = "crib"


class Pegged(enum.StrEnum):
    """What a line of the history pegged for: a count, or his heels, three for last, a
    Muggins call, an over-count's penalty."""

    PLAY = "play"
    HAND = "hand"
    CRIB = "crib"
    HEELS = "heels"
    LAST = "last"  # three for last
    MUGGINS = "muggins"
    PENALTY = "penalty"


class Verdict(enum.StrEnum):
    """What the cards say of a claim: exact, under (points missed), over (points
    invented), unchecked (no cards to check it by), kept (not told while its Muggins
    window is open)."""

    EXACT = "exact"
    UNDER = "under"
    OVER = "over"
    UNCHECKED = "unchecked"
    KEPT = "kept"


@dataclass(frozen=True, slots=True)
class Count:
    """What the next entry is for (``kind``), and whose it is (``seat``: None in a play
    pegged by hand, when anyone may peg)."""

    seat: int | None
    kind: CountKind


@dataclass(frozen=True, slots=True)
class Pegs:
    """The two pegs of a side: the front one shows the score, the back one the score before."""

    front: int = 0
    back: int = 0


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the history: ``side`` pegged ``points``, for ``kind``, because of what
    ``said`` says (in any language; ``why`` in English). A count pegged as nothing, or
    taken back whole, is a line of 0 points."""

    side: int
    seat: int | None
    points: int
    kind: Pegged
    said: Phrase
    cards: tuple[Card, ...] = ()
    deal: int = 1
    score: int = 0  # the side's score after this entry

    @property
    def why(self) -> str:
        return str(self.said)

    def as_dict(self) -> dict[str, Any]:
        """The line for JSON, as data: whoever knows the hearer's language adds
        ``why`` (``entry.said.say(lang)``)."""
        line = {name: getattr(self, name) for name in self.__slots__ if name != "said"}
        return {**line, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Mugging:
    """A call on a claim: who called, for how much, who pegged what. A challenge (the
    count is over, the cards decide) calls no points: ``called`` is 0."""

    seat: int
    called: int  # the points the call said were missed; 0: a challenge
    side: int  # who pegged: the caller, or the mugged side after a false call
    points: int
    disputed: bool = False  # made without the cards, then settled by them
    right: bool = True  # the cards (or, without them, the call as it stands) bear it out


@dataclass(frozen=True, slots=True)
class Claim:
    """A count as claimed, and what the cards say when they are known."""

    seat: int
    side: int
    kind: CountKind  # the play, a hand or the crib
    claimed: int
    pegged: int  # what the claimant pegged: as claimed, or its true count once corrected;
    # up to the game
    deal: int
    cards: tuple[Card, ...] | None = None
    starter: Card | None = None
    actual: int | None = None  # what the cards score, when they and the starter are known
    muggins: Mugging | None = None
    kept: bool = False  # its verdict is not told yet (see :attr:`State.told`)

    @property
    def show(self) -> Show | None:
        """The itemised count of the cards, when they were given."""
        if self.actual is None:
            return None
        assert self.cards is not None and self.starter is not None  # as ``actual`` says
        return score_show(self.cards, self.starter, crib=self.kind == "crib")

    @property
    def verdict(self) -> Verdict:
        """What the cards say of the claim (see :class:`Verdict`)."""
        if self.kept:
            return Verdict.KEPT
        actual = self.actual
        if actual is None:
            return Verdict.UNCHECKED
        if actual == self.claimed:
            return Verdict.EXACT
        return Verdict.UNDER if actual > self.claimed else Verdict.OVER

    @property
    def rule(self) -> Phrase | None:
        """The rule a count told as wrong most likely missed, when one explains it exactly
        (:mod:`pegboard.rules.corrections`)."""
        if self.verdict not in (Verdict.UNDER, Verdict.OVER):
            return None
        assert self.cards is not None and self.starter is not None  # as ``actual`` says
        crib = self.kind == "crib"
        return rule_missed(self.cards, self.starter, crib=crib, claimed=self.claimed)

    @property
    def difference(self) -> int:
        """Points missed (negative) or invented (positive); 0 when exact or unchecked."""
        actual = self.actual
        return 0 if actual is None else self.claimed - actual

    def as_dict(self) -> dict[str, Any]:
        show = self.show
        return {
            "seat": self.seat,
            "side": self.side,
            "kind": self.kind,
            "claimed": self.claimed,
            "pegged": self.pegged,
            "deal": self.deal,
            "verdict": self.verdict,
            "actual": self.actual,
            "difference": self.difference,
            "cards": None if self.cards is None else [str(c) for c in self.cards],
            "show": None if show is None else show.as_dict(),
            "muggins": None if self.muggins is None else fields_of(self.muggins),
        }


@dataclass(frozen=True, slots=True)
class Play:
    """The play of the current deal."""

    mode: str | None = None  # "cards" (laid one by one) or "points" (pegged by hand)
    laid: tuple[tuple[int, Card], ...] = ()  # (seat, card) for every card laid this deal
    pile: tuple[Card, ...] = ()  # the cards of the current count
    turn: int | None = None
    passed: frozenset[int] = frozenset()  # seats that said go in this count
    last: int | None = None  # who laid the last card of this count

    @property
    def count(self) -> int:
        return count_of(self.pile)

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        return tuple(card for who, card in self.laid if who == seat)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game of the match."""

    number: int
    scores: tuple[int, ...]  # the winner's (a lowball loser's) is the target
    winner: int
    margin: int  # what the game was won by, counted from the target: the ACC's spread
    skunk: int  # 0 none, 1 skunk, 2 double, 3 triple
    points: int  # match points the winner earned
    history: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Match:
    """The standing of the match: points per side (games at home, game points for ACC)."""

    points: tuple[int, ...]
    needed: int
    winner: int | None


def fields_of(value: Any) -> dict[str, Any]:
    """A value's fields by name, for JSON."""
    return {name: getattr(value, name) for name in value.__slots__}
