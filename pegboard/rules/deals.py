"""How a deal is made, by the variants of the seeds: who plays, what each is dealt and
keeps, the crib. The one home of these facts: the game's settings, the advice, the board's
fit and the panel read them here.

Two players each lay two cards away to the crib; three lay one each and the pack gives
the fourth; four lay one each. A hand is what a player keeps.

>>> PLAYERS, CRIB_SIZE
((2, 3, 4), 4)
>>> [(name, dealt(variant, 2)) for name, variant in VARIANTS.items() if variant.crib]
[('standard', 6), ('five-card', 5), ('seven-card', 7), ('lowball', 6)]
>>> dealt(VARIANTS["standard"], 3), dealt(VARIANTS["shotgun"], 2)
(5, 6)
"""

from __future__ import annotations

from dataclasses import dataclass

PLAYERS = (2, 3, 4)  # at one table; four play as two partnerships
CRIB_SIZE = 4


@dataclass(frozen=True, slots=True)
class Variant:
    """What a variant changes: hand size, crib, target, who wins, players allowed."""

    hand: int  # cards each player keeps for the play and the show
    target: int
    crib: bool = True
    players: tuple[int, ...] = PLAYERS
    three_for_last: bool = False  # the pone pegs 3 at the start of the first deal
    lowball: bool = False  # the first side to the target loses


VARIANTS: dict[str, Variant] = {
    "standard": Variant(hand=4, target=121),
    "five-card": Variant(hand=3, target=61, players=(2,), three_for_last=True),
    "seven-card": Variant(hand=5, target=181, players=(2,)),
    "shotgun": Variant(hand=6, target=121, crib=False),
    "lowball": Variant(hand=4, target=121, lowball=True),
}


def laid_away(players: int) -> int:
    """How many cards each player lays away to the crib: two of two, one of three or four."""
    return CRIB_SIZE // players if players != 3 else 1


def dealt(variant: Variant, players: int) -> int:
    """How many cards each player is dealt in ``variant`` with ``players`` at the table."""
    return variant.hand + (laid_away(players) if variant.crib else 0)


def kept(dealt_cards: int, players: int) -> int | None:
    """How many of ``dealt_cards`` a player keeps in a variant with a crib that deals so
    many to ``players`` (None: none does)."""
    for variant in VARIANTS.values():
        if variant.crib and players in variant.players and dealt(variant, players) == dealt_cards:
            return variant.hand
    return None


def deals(players: int) -> tuple[int, ...]:
    """The numbers of cards a variant with a crib deals each of ``players``, fewest first."""
    return tuple(
        sorted({dealt(v, players) for v in VARIANTS.values() if v.crib and players in v.players})
    )


# Every deal with a crib: (players, cards dealt to each), fewest players first.
DEALS = tuple((players, cards) for players in PLAYERS for cards in deals(players))
