"""Discard advice: the exact expected show of every way to lay cards away to the crib.

What is modelled.  The cards you were dealt are known; every other card is *unseen*.
The crib's other cards (the opponent's two discards in the two-player games; one
card from each other player, plus the dealt one with three players) are a uniformly
random set of the unseen cards, and the starter is uniform over the unseen cards
left.  The expected hand is averaged over every starter, the expected crib over every
such set and starter: exhaustive, as exact fractions, never sampled.

The crib's score splits into points that depend on ranks only (fifteens, pairs,
runs), a five-card flush and nobs.  The rank part is summed once per multiset of the
unseen ranks, weighted by how many card sets have those ranks; the flush and nobs are
counted by suit.  :func:`literal_advice` is the same advice scored crib by crib.

>>> advice = advise("5H 5C JD QS 2C 9H".split(), dealer=True)
>>> len(advice), [str(card) for card in advice[0].discard]
(15, ['2♣', '9♥'])
>>> advice[0].hand, advice[0].crib
(Fraction(292, 23), Fraction(4381, 1035))
>>> advice[0].as_dict()["net"]
16.93
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb

from pegboard.errors import CardError, RuleError
from pegboard.rules.cards import DECK, JACK, Card, Suit, parse_cards
from pegboard.rules.scoring import rank_points, show_total

CRIB_SIZE = 4
# (players, cards dealt to each) -> cards kept.  Two players: the five-card game
# keeps 3, the standard game 4, the seven-card game 5; three or four players keep 4.
KEPT = {(2, 5): 3, (2, 6): 4, (2, 7): 5, (3, 5): 4, (4, 5): 4}


@dataclass(frozen=True, slots=True)
class Discard:
    """One way to lay away: the cards kept and discarded, and their expected shows."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand: Fraction  # expected points of the kept hand
    crib: Fraction  # expected points of the crib
    net: Fraction  # dealer: hand + crib; pone: hand - crib

    def as_dict(self) -> dict:
        """Cards as text, expected points rounded to two decimals."""
        return {
            "keep": [str(card) for card in self.keep],
            "discard": [str(card) for card in self.discard],
            **{name: round(float(getattr(self, name)), 2) for name in ("hand", "crib", "net")},
        }


def kept_size(dealt: int, players: int = 2) -> int:
    """How many of ``dealt`` cards a player keeps; the rest go to the crib.

    >>> kept_size(6), kept_size(5), kept_size(5, players=3)
    (4, 3, 4)
    """
    if players not in (2, 3, 4):
        raise RuleError(f"cribbage is for 2, 3 or 4 players, not {players}")
    kept = KEPT.get((players, dealt))
    if kept is None:
        sizes = [str(n) for p, n in KEPT if p == players]
        allowed = ", ".join(sizes[:-1]) + " or " * (len(sizes) > 1) + sizes[-1]
        raise CardError(f"with {players} players a hand is dealt {allowed} cards, not {dealt}")
    return kept


class _Unseen:
    """The cards not in the player's hand, counted by rank and by suit."""

    def __init__(self, held: Sequence[Card]) -> None:
        self.cards = tuple(card for card in DECK if card not in held)
        self.count = len(self.cards)
        self.ranks = [sum(card.rank == rank for card in self.cards) for rank in range(14)]
        self.suits = {suit: sum(card.suit == suit for card in self.cards) for suit in Suit}
        self._multisets: dict[int, list[tuple[tuple[int, ...], int]]] = {}

    def multisets(self, size: int) -> list[tuple[tuple[int, ...], int]]:
        """(sorted ranks, number of unseen card sets with those ranks) for ``size`` cards."""
        if size not in self._multisets:
            self._multisets[size] = list(self._ranks_from(size, 1))
        return self._multisets[size]

    def _ranks_from(self, size: int, low: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if size == 0:
            yield (), 1
            return
        for rank in range(low, 14):
            for here in range(1, min(size, self.ranks[rank]) + 1):
                for rest, ways in self._ranks_from(size - here, rank + 1):
                    yield (rank,) * here + rest, comb(self.ranks[rank], here) * ways


def _one_suit(cards: Sequence[Card]) -> Suit | None:
    suits = {card.suit for card in cards}
    return suits.pop() if len(suits) == 1 else None


def _expected_hand(keep: Sequence[Card], unseen: _Unseen) -> Fraction:
    """The kept hand's mean show over every unseen starter."""
    ranks = [card.rank for card in keep]
    total = sum(
        n * rank_points(tuple(sorted([*ranks, rank]))) for rank, n in enumerate(unseen.ranks) if n
    )
    suit = _one_suit(keep)
    if suit is not None:  # a hand flush, one more with a starter of its suit
        total += len(keep) * unseen.count + unseen.suits[suit]
    total += sum(unseen.suits[card.suit] for card in keep if card.rank == JACK)  # nobs
    return Fraction(total, unseen.count)


def _expected_crib(discard: Sequence[Card], unseen: _Unseen) -> Fraction:
    """The crib's mean show over every set of other crib cards and every starter."""
    drawn = CRIB_SIZE - len(discard) + 1  # the other crib cards and the starter
    draws = comb(unseen.count, drawn)
    ranks = [card.rank for card in discard]
    total = sum(
        ways * rank_points(tuple(sorted([*ranks, *more]))) for more, ways in unseen.multisets(drawn)
    )
    suit = _one_suit(discard)
    if suit is not None:  # a crib flush needs all five cards of one suit
        total += 5 * comb(unseen.suits[suit], drawn)
    return Fraction(total, draws) + Fraction(
        _nobs_deals(discard, unseen, drawn - 1), unseen.count * comb(unseen.count - 1, drawn - 1)
    )


def _nobs_deals(discard: Sequence[Card], unseen: _Unseen, others: int) -> int:
    """How many (other crib cards, starter) deals put the starter suit's jack in the crib."""
    deals = 0
    for suit, left in unseen.suits.items():
        jack = Card(JACK, suit)
        if jack in discard:  # any starter of its suit
            deals += left * comb(unseen.count - 1, others)
        elif jack in unseen.cards:  # another starter of its suit, and the jack drawn to the crib
            deals += (left - 1) * comb(unseen.count - 2, others - 1)
    return deals


def advise(cards: Iterable[str | Card], dealer: bool, players: int = 2) -> list[Discard]:
    """Every way to discard from the dealt ``cards``, best net first.

    ``dealer``: the crib is yours (with four players: your partnership's), so the net
    is hand + crib; otherwise hand - crib.  Equal nets: the bigger hand first, then
    the order of the dealt cards.

    >>> [str(d.discard[0]) for d in advise("5H 5C 5S JH 2D".split(), False, players=3)][:2]
    ['2♦', 'J♥']
    """
    return _advise(cards, dealer, players, _expected_hand, _expected_crib)


def literal_advice(cards: Iterable[str | Card], dealer: bool, players: int = 2) -> list[Discard]:
    """The same as :func:`advise`, scoring every crib and starter one by one (seconds)."""
    return _advise(cards, dealer, players, _literal_hand, _literal_crib)


def _literal_hand(keep: Sequence[Card], unseen: _Unseen) -> Fraction:
    return Fraction(sum(show_total(keep, starter) for starter in unseen.cards), unseen.count)


def _literal_crib(discard: Sequence[Card], unseen: _Unseen) -> Fraction:
    total = deals = 0
    for others in combinations(unseen.cards, CRIB_SIZE - len(discard)):
        crib = (*discard, *others)
        for starter in unseen.cards:
            if starter not in others:
                total += show_total(crib, starter, crib=True)
                deals += 1
    return Fraction(total, deals)


Expectation = Callable[[Sequence[Card], _Unseen], Fraction]


def _advise(
    cards: Iterable[str | Card],
    dealer: bool,
    players: int,
    hand_mean: Expectation,
    crib_mean: Expectation,
) -> list[Discard]:
    held = parse_cards(cards)
    away = len(held) - kept_size(len(held), players)
    unseen = _Unseen(held)
    sign = 1 if dealer else -1
    advice = []
    for discard in combinations(held, away):
        keep = tuple(card for card in held if card not in discard)
        hand, crib = hand_mean(keep, unseen), crib_mean(discard, unseen)
        advice.append(Discard(keep, discard, hand, crib, hand + sign * crib))
    return sorted(advice, key=lambda d: (-d.net, -d.hand))
