"""The play: score the card just laid against the cards already laid in this count.

>>> peg = score_play(parse_cards(["4H", "2C"]), Card.parse("3D"))
>>> peg.count, peg.points, [item.kind for item in peg.items]
(9, 3, ['run'])
>>> score_play(parse_cards(["5H", "5C"]), Card.parse("5S")).points
8
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from pegboard.errors import PlayError
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import Card, check_distinct, parse_cards  # noqa: F401 (doctest)
from pegboard.rules.scoring import Item

GO_LIMIT = 31
SET_POINTS = {2: 2, 3: 6, 4: 12}  # pair, pair royal, double pair royal


@dataclass(frozen=True, slots=True)
class Peg:
    """What laying one card scored."""

    card: Card
    count: int
    items: tuple[Item, ...]

    @property
    def points(self) -> int:
        return sum(item.points for item in self.items)

    def as_dict(self) -> dict[str, Any]:
        return {
            "card": str(self.card),
            "count": self.count,
            "points": self.points,
            "items": [item.as_dict() for item in self.items],
        }


def count_of(laid: Sequence[Card]) -> int:
    return sum(card.value for card in laid)


def can_lay(laid: Sequence[Card], card: Card) -> bool:
    """True when ``card`` keeps the count at 31 or below."""
    return count_of(laid) + card.value <= GO_LIMIT


def score_play(laid: Sequence[Card], card: Card) -> Peg:
    """Score ``card`` laid on ``laid`` (the cards since the last reset, in order)."""
    check_distinct([*laid, card])
    count = count_of(laid) + card.value
    if count > GO_LIMIT:
        message = N_("{card} would make the count {total}: it may not pass {most}")
        raise PlayError(Phrase.of(message, card=str(card), total=count, most=GO_LIMIT))
    pile = (*laid, card)
    items: list[Item] = []
    if count in (15, GO_LIMIT):
        items.append(Item("fifteen" if count == 15 else "thirty-one", pile, 2))
    same = 1
    while same < len(pile) and pile[-same - 1].rank == card.rank:
        same += 1
    if same >= 2:
        items.append(Item("pair", pile[-same:], SET_POINTS[same]))
    for length in range(len(pile), 2, -1):
        ranks = sorted(c.rank for c in pile[-length:])
        if all(b - a == 1 for a, b in itertools.pairwise(ranks)):
            items.append(Item("run", pile[-length:], length))
            break
    return Peg(card, count, tuple(items))


def go_points(count: int) -> int:
    """Points for a go or the last card: 1, or nothing at 31 (already scored 2)."""
    return 0 if count == GO_LIMIT else 1


@cache
def max_play_points() -> int:
    """The most one laid card can score, the go or last card included.

    Computed over every set and run the last card can complete, with any count of
    earlier cards before them (an upper bound: a set and a run never score together).

    >>> max_play_points()
    15
    """
    patterns = [(SET_POINTS[n], n * min(rank, 10)) for n in SET_POINTS for rank in range(1, 14)]
    patterns += [
        (high - low + 1, sum(min(r, 10) for r in range(low, high + 1)))
        for low in range(1, 12)
        for high in range(low + 2, 14)
    ]
    return max(
        points + 2 * (count in (15, GO_LIMIT)) + go_points(count)
        for points, cards_total in patterns
        for count in range(cards_total, GO_LIMIT + 1)
    )
