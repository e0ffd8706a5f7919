"""The state of a game: an immutable value worked out from the events (see ``fold``), of
the small values of :mod:`.values` (imported here too, for those who read the state).

Seats are numbered clockwise from 0; a *side* is a player, or a partnership with four
players (seats 0 and 2 against 1 and 3).  Scores, pegs and winners are per side.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import takewhile
from typing import TYPE_CHECKING, Any

from pegboard.game.settings import Settings
from pegboard.game.values import (
    Claim,
    Count,
    CountKind,
    Entry,
    GameResult,
    Match,
    Pegged,
    Pegs,
    Phase,
    Play,
    fields_of,
)
from pegboard.i18n import Phrase
from pegboard.rules.cards import Card
from pegboard.rules.deals import CRIB_SIZE
from pegboard.rules.speech import count_name

if TYPE_CHECKING:
    from pegboard.game.events import Event


@dataclass(frozen=True)
class State:
    """Everything the board shows, worked out from the events.

    Two states are equal when the games stand the same; ``version`` (events in the
    log) and ``before``, ``event`` and ``redo`` (for undo and redo) are not compared."""

    settings: Settings
    version: int = field(default=0, compare=False)
    game: int = 1  # number of this game in the match
    first_dealer: int = 0  # of this game
    deal: int = 1
    dealer: int = 0
    stage: Phase = Phase.DISCARD  # the phase, unless the game is over
    scores: tuple[int, ...] = ()
    backs: tuple[int, ...] = ()
    starter: Card | None = None
    play: Play = field(default_factory=Play)
    shown: int = 0  # counts of the show done this deal
    claims: tuple[Claim, ...] = ()  # this game's
    history: tuple[Entry, ...] = ()  # this game's
    window: int | None = None  # index in claims of the count open to Muggins
    disputable: int | None = None  # index in claims of a count mugged without its cards
    held: int | None = None  # the side whose claim of game waits for its window to close
    winner: int | None = None
    results: tuple[GameResult, ...] = ()  # finished games of the match
    before: State | None = field(default=None, compare=False, repr=False)
    event: Event | None = field(default=None, compare=False, repr=False)  # what made it
    redo: tuple[Event, ...] = field(default=(), compare=False, repr=False)

    # --- the table -----------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.settings.players

    @property
    def sides(self) -> int:
        return self.settings.sides

    def side_of(self, seat: int) -> int:
        return self.settings.side_of(seat)

    @property
    def target(self) -> int:
        return self.settings.target

    @property
    def hand_size(self) -> int:
        return self.settings.variant_rules.hand

    def size_of(self, kind: str) -> int:
        """How many cards a count of ``kind`` holds: a crib four, a hand the hand's."""
        return CRIB_SIZE if kind == "crib" else self.hand_size

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places clockwise (to the left) of ``seat``."""
        return (seat + steps) % len(self.players)

    @property
    def pone(self) -> int:
        """The player on the dealer's left: leads the play, counts first."""
        return self.seat_after(self.dealer)

    # --- where the deal stands -------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.winner is not None else self.stage

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def pegs(self) -> tuple[Pegs, ...]:
        return tuple(Pegs(f, b) for f, b in zip(self.scores, self.backs, strict=True))

    @property
    def order(self) -> tuple[Count, ...]:
        """The counts of the show in order: each hand clockwise from the dealer's left,
        then the crib."""
        hands = tuple(
            Count(self.seat_after(self.dealer, n), CountKind.HAND)
            for n in range(1, len(self.players) + 1)
        )
        crib = (Count(self.dealer, CountKind.CRIB),) if self.settings.variant_rules.crib else ()
        return hands + crib

    @property
    def due(self) -> Count | None:
        """What the next count is for; None when the show is done or the game is over."""
        if self.over:
            return None
        if self.stage is Phase.DISCARD:
            return Count(self.dealer, CountKind.STARTER)
        if self.stage is Phase.PLAY:
            return Count(self.play.turn, CountKind.PLAY)
        return self.order[self.shown] if self.shown < len(self.order) else None

    def hand_of(self, seat: int) -> tuple[Card, ...] | None:
        """A hand known from the cards laid in the play, once all of it is laid."""
        cards = self.play.cards_of(seat)
        return cards if len(cards) == self.hand_size else None

    @property
    def heels_pegged(self) -> bool:
        """Whether his heels was pegged at this deal's turn."""
        return any(entry.kind is Pegged.HEELS and entry.deal == self.deal for entry in self.history)

    def known_cards(self) -> dict[Card, Count | None]:
        """Every card seen this deal, with the hand or crib it belongs to (None: the starter)."""
        known: dict[Card, Count | None] = {
            card: Count(seat, CountKind.HAND) for seat, card in self.play.laid
        }
        this_deal = list(takewhile(lambda claim: claim.deal == self.deal, reversed(self.claims)))
        for claim in reversed(this_deal):
            if claim.cards:
                known.update(dict.fromkeys(claim.cards, Count(claim.seat, claim.kind)))
        if self.starter is not None:
            known[self.starter] = None
        return known

    # --- what the table may know ----------------------------------------------------------

    def kept(self, index: int) -> bool:
        """Whether the verdict of ``claims[index]`` is kept from the table: with Muggins
        on, a count's verdict waits while its window is open, an over-count's as an
        under-count's (spotting either is the opponents' skill, and a board that told one
        would tell of every other: :mod:`pegboard.game.muggins`), and, with ``lessons``
        off, until the game ends. A call settles it."""
        claim = self.claims[index]
        if not self.settings.muggins or self.over or claim.muggins is not None:
            return False
        if claim.actual is None:
            return False  # nothing to tell
        if claim.actual < claim.claimed and not self.settings.kept_over:
            return False  # edition 1: an over-count taken back at once, and told
        return index == self.window or not self.settings.lessons

    @property
    def challengeable(self) -> int | None:
        """The claim a call with the cards may show over now (its index in ``claims``),
        or None: with Muggins on, the hand or crib whose window is open; Muggins or not,
        a claim of game made without its cards, until the next entry (a false claim of
        game is an over-count too)."""
        index = self.window
        if index is None or self.claims[index].kind == "play":
            return None
        if self.settings.muggins:
            return None if self.over else index
        # Muggins off: a known over-count was taken back at once; a claim that won the
        # game without its cards is open until the next entry (nothing pegs after it).
        return index if self.over and self.claims[index].actual is None else None

    @cached_property
    def told(self) -> State:
        """This state as the table may know it: a claim whose verdict is :meth:`kept`
        shows as claimed, without its true count. The phones, the voice and the LEDs are
        given this; the rules work on the state itself."""
        kept = [index for index in range(len(self.claims)) if self.kept(index)]
        if not kept:
            return self
        claims = list(self.claims)
        for index in kept:
            claims[index] = replace(claims[index], actual=None, starter=None, kept=True)
        return replace(self, claims=tuple(claims))

    def name(self, count: Count) -> str:
        """ "Ann's hand", "Bob's crib", "Ann's play", "the play" (in English)."""
        return str(self.count_name(count))

    def count_name(self, count: Count) -> Phrase:
        """Whose count ``count`` is, in words any language can say."""
        return count_name(None if count.seat is None else self.players[count.seat], count.kind)

    # --- results ------------------------------------------------------------------------

    @property
    def skunk(self) -> int:
        """How deep the loser was skunked in the finished game: 0 none .. 3 triple."""
        return self.results[-1].skunk if self.over else 0

    @property
    def margin(self) -> int | None:
        """What the finished game was won by, from the target (None while it goes on)."""
        return self.results[-1].margin if self.over else None

    @property
    def match(self) -> Match:
        rules = self.settings
        points = [0] * self.sides
        for result in self.results:
            points[result.winner] += result.points
        needed = (rules.match_games // 2 + 1) * (2 if rules.match_scoring == "acc" else 1)
        leaders = [side for side, p in enumerate(points) if p >= needed]
        return Match(tuple(points), needed, leaders[0] if leaders else None)

    @property
    def cut_customary(self) -> bool:
        """Whether the first dealer of the next game must be cut for, not passed on or
        chosen: the third game of a match of three (German seed: "Spielt man insgesamt
        drei Partien, wird in der dritten Partie der Geber wieder durch Abheben
        ermittelt"), where passing it on would give the first deal to the same player as
        in the first game."""
        return (
            self.over
            and self.settings.match_games == 3
            and self.game == 2
            and self.match.winner is None
        )

    @property
    def can_undo(self) -> bool:
        return self.before is not None

    @property
    def can_redo(self) -> bool:
        return bool(self.redo)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready picture of the state (for the panel, the LEDs and digests)."""
        due = self.due
        match = self.match
        return {
            "version": self.version,
            "settings": self.settings.as_dict(),
            "game": self.game,
            "deal": self.deal,
            "dealer": self.dealer,
            "pone": self.pone,
            "phase": self.phase.value,
            "due": None if due is None else fields_of(due),
            "scores": list(self.scores),
            "sides": [
                {"name": name, "colour": colour, "front": pegs.front, "back": pegs.back}
                for name, colour, pegs in zip(
                    self.settings.side_names, self.settings.colours, self.pegs, strict=True
                )
            ],
            "starter": None if self.starter is None else str(self.starter),
            "play": {
                "mode": self.play.mode,
                "count": self.play.count,
                "turn": self.play.turn,
                "pile": [str(c) for c in self.play.pile],
                "laid": [[seat, str(card)] for seat, card in self.play.laid],
                "passed": sorted(self.play.passed),
            },
            "claims": [claim.as_dict() for claim in self.claims],
            "history": [entry.as_dict() for entry in self.history],
            "muggins_open": self.window is not None,
            "muggins_disputable": self.disputable,
            "winner": self.winner,
            "margin": self.margin,
            "skunk": self.skunk,
            "match": {
                **fields_of(match),
                "points": list(match.points),
                "games": [
                    {
                        "number": r.number,
                        "scores": list(r.scores),
                        "winner": r.winner,
                        "margin": r.margin,
                        "skunk": r.skunk,
                        "points": r.points,
                    }
                    for r in self.results
                ],
            },
            "cut_customary": self.cut_customary,
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
        }
